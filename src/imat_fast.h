/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the library: interval matrix products in hardware floating
 * point, the same endpoints bit for bit as the MPFI loops of
 * dvc_imat_mul and dvc_imat_mul_vec (src/imat.c). */
#ifndef DVC_IMAT_FAST_H
#define DVC_IMAT_FAST_H

#include "dvicert/imat.h"

/* R <- A B (arrays of intervals, row-major: A m x n, B n x k, R m x k;
 * k = 1 for a matrix times a vector) when every entry of R has 53 bits (binary64 arithmetic) or 64
 * bits (x87 extended, where long double is that format) and every endpoint
 * of A and B is exact in that format: each product rounded outward, the
 * sums in the order of the MPFI loop, zero endpoints signed as MPFI signs
 * them. Returns 1 when R was written, 0 when it was not (other precisions,
 * endpoints not exact, NaN or infinite endpoints, or an overflow or an
 * inexact underflow on the way, where MPFR's exponent range would give
 * other bits): the caller then runs the MPFI loop. R may alias A or B. */
int dvc_imat_mul_fast_(mpfi_t *R, mpfi_t *A, mpfi_t *B, long m, long n, long k);

/* Tests and benchmarks: 0 switches the kernels off (process-wide; then
 * dvc_imat_mul_fast_ returns 0). */
void dvc_imat_fast_enable_(int on);


#endif
