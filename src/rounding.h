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
 * Two families:
 *  - dvc_rnd_save / dvc_rnd_set / dvc_rnd_restore: the mode of binary64
 *    (double) arithmetic only. On x86-64 with GCC or Clang that is the SSE
 *    control register MXCSR, written directly (and only when the mode
 *    changes); the x87 control word is left alone, so long double
 *    arithmetic does NOT follow these switches there.
 *  - dvc_rnd_save_ext / dvc_rnd_set_ext / dvc_rnd_restore_ext: double and
 *    long double (x87 extended) arithmetic both, for code that computes
 *    bounds in long double (src/expr/elem.c).
 * Elsewhere (other architectures or compilers, or DVC_RND_PORTABLE defined)
 * both families are fesetround / fegetround, which set every unit.
 *
 * GCC ignores #pragma STDC FENV_ACCESS, and even with -frounding-math it
 * may CSE or move floating-point operations across a mode switch (GCC PR
 * 34678). Hence every switch is fenced by compiler barriers that force
 * memory to be re-read, and scalars that live across a switch are pinned
 * with DVC_FP_PIN (materialised before the switch and treated as changed,
 * so they are neither recomputed nor computed late in another mode). */
#ifndef DVC_ROUNDING_H
#define DVC_ROUNDING_H

#include <fenv.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(DVC_RND_PORTABLE)
#define DVC_RND_DIRECT 1

/* glibc's and every x86-64 libc's FE_* are the x87 control word's
 * rounding-control bits (10-11); MXCSR holds the same two bits at 13-14. */
_Static_assert(FE_TONEAREST == 0 && FE_DOWNWARD == 0x400 && FE_UPWARD == 0x800 && FE_TOWARDZERO == 0xc00,
               "x86-64 FE_* constants are the x87 rounding-control bits");
#define DVC_RND_RC 0xc00u

static inline unsigned dvc_rnd_mxcsr_(void)
{
    unsigned csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr) : : "memory");
    return csr;
}

static inline void dvc_rnd_sse_set_(int mode)
{
    unsigned csr = dvc_rnd_mxcsr_(), want = (csr & ~(DVC_RND_RC << 3)) | (((unsigned)mode & DVC_RND_RC) << 3);
    /* ldmxcsr costs far more than stmxcsr: skip it when nothing changes */
    if (want != csr) __asm__ volatile("ldmxcsr %0" : : "m"(want) : "memory");
}

static inline void dvc_rnd_x87_set_(int mode)
{
    unsigned short cw, want;
    __asm__ volatile("fnstcw %0" : "=m"(cw) : : "memory");
    want = (unsigned short)((cw & ~DVC_RND_RC) | ((unsigned)mode & DVC_RND_RC));
    if (want != cw) __asm__ volatile("fldcw %0" : : "m"(want) : "memory");
}

static inline int dvc_rnd_x87_get_(void)
{
    unsigned short cw;
    __asm__ volatile("fnstcw %0" : "=m"(cw) : : "memory");
    return (int)(cw & DVC_RND_RC);
}

/* Set the binary64 (SSE) rounding mode to mode (an FE_* constant). */
static inline void dvc_rnd_set(int mode)
{
    __asm__ volatile("" ::: "memory");
    dvc_rnd_sse_set_(mode);
    __asm__ volatile("" ::: "memory");
}

/* The caller's binary64 mode, to be handed back to dvc_rnd_restore. */
static inline int dvc_rnd_save(void) { return (int)((dvc_rnd_mxcsr_() >> 3) & DVC_RND_RC); }

/* Both units. The saved value packs the SSE mode (bits 10-11) and the x87
 * mode (bits 14-15): only dvc_rnd_restore_ext reads it. */
static inline void dvc_rnd_set_ext(int mode)
{
    __asm__ volatile("" ::: "memory");
    dvc_rnd_sse_set_(mode);
    dvc_rnd_x87_set_(mode);
    __asm__ volatile("" ::: "memory");
}

static inline int dvc_rnd_save_ext(void) { return dvc_rnd_save() | dvc_rnd_x87_get_() << 4; }

static inline void dvc_rnd_restore_ext(int saved)
{
    __asm__ volatile("" ::: "memory");
    dvc_rnd_sse_set_(saved & (int)DVC_RND_RC);
    dvc_rnd_x87_set_(saved >> 4 & (int)DVC_RND_RC);
    __asm__ volatile("" ::: "memory");
}

#else

static inline void dvc_rnd_set(int mode)
{
    __asm__ volatile("" ::: "memory");
    fesetround(mode);
    __asm__ volatile("" ::: "memory");
}

static inline int dvc_rnd_save(void)
{
    __asm__ volatile("" ::: "memory");
    return fegetround();
}

static inline void dvc_rnd_set_ext(int mode) { dvc_rnd_set(mode); }
static inline int dvc_rnd_save_ext(void) { return dvc_rnd_save(); }
static inline void dvc_rnd_restore_ext(int saved) { dvc_rnd_set(saved); }

#endif

static inline void dvc_rnd_restore(int saved) { dvc_rnd_set(saved); }

#define DVC_FP_PIN(x) __asm__ volatile("" : "+m"(x) : : "memory")

#endif
