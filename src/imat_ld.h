/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the library: x87 extended-precision pieces for 64-bit loops of
 * MPFI operations (src/imat_ld.c). */
#ifndef DVC_IMAT_LD_H
#define DVC_IMAT_LD_H

#include <mpfi.h>

#include "expr/elem.h"

/* The route's pieces, for other 64-bit loops of MPFI operations (the
 * interval operations themselves: dvc_li_add, dvc_li_mul of elem.h).
 * begin: FE_UPWARD in both units, -1 when the route is not usable (off,
 * x87 precision control not extended, x87 flags already raised), else the
 * mode to give to end; end: the mode restored, nonzero when an operation
 * underflowed, overflowed or was invalid (flags cleared again): the
 * results are then not MPFI's. get: the exact x87 interval of x (0: more
 * than 64 bits, not finite, or an exponent beyond +-16000). put_ok: v can
 * be written as MPFI's result (no zero endpoint, whose sign MPFI's case
 * analysis may choose otherwise; in range); put: x (64 bits) <- v. */
int dvc_li_begin_(void);
int dvc_li_end_(int saved);
int dvc_li_get_(dvc_li *v, const mpfi_t x);
int dvc_li_put_ok_(dvc_li v);
/* put_ok with zero endpoints allowed: for a result whose last MPFI
 * operation was mpfi_add or mpfi_mul, which leave +0 on the left and -0 on
 * the right (MPFI 1.5's normalisation), the signs put writes for a zero. */
int dvc_li_put_ok0_(dvc_li v);
void dvc_li_put_(mpfi_t x, dvc_li v);

/* Tests and benchmarks: 0 switches the route off (process-wide), and the
 * hardware matrix products of imat_fast.h with it. */
void dvc_imat_ld_enable_(int on);

#endif
