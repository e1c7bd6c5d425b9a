/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The one directed-rounding helper of the library (internal, not public
 * API). Every binary64 kernel that computes part of a bound switches the
 * FPU rounding mode through these functions, and every public entry point
 * that switches it restores the caller's mode on return:
 *
 *     int saved = dvc_rnd_save();
 *     dvc_rnd_set(FE_UPWARD);
 *     ... upper bounds ...
 *     dvc_rnd_restore(saved);
 *
 * GCC ignores #pragma STDC FENV_ACCESS, and even with -frounding-math it
 * may CSE or move floating-point operations across fesetround (GCC PR
 * 34678). Hence every switch is fenced by compiler barriers that force
 * memory to be re-read, and scalars that live across a switch are pinned
 * with DVC_FP_PIN (materialised before the switch and treated as changed,
 * so they are neither recomputed nor computed late in another mode). */
#ifndef DVC_ROUNDING_H
#define DVC_ROUNDING_H

#include <fenv.h>

static inline void dvc_rnd_set(int mode)
{
    __asm__ volatile("" ::: "memory");
    fesetround(mode);
    __asm__ volatile("" ::: "memory");
}

/* The caller's mode, to be handed back to dvc_rnd_restore. */
static inline int dvc_rnd_save(void)
{
    __asm__ volatile("" ::: "memory");
    return fegetround();
}

static inline void dvc_rnd_restore(int saved) { dvc_rnd_set(saved); }

#define DVC_FP_PIN(x) __asm__ volatile("" : "+m"(x) : : "memory")

#endif
