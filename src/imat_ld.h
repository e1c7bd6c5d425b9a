/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the library: the 64-bit route of the interval matrix products
 * (src/imat_ld.c). */
#ifndef DVC_IMAT_LD_H
#define DVC_IMAT_LD_H

#include <mpfi.h>

/* R = A B (A m x n, B n x q; arrays of mpfi_t, row-major) as the MPFI loop
 * of dvc_imat_mul computes it at precision 64 (sums from 0 in the order of
 * k), bit for bit, in x87 extended precision. Returns -1 when not taken
 * (another precision, an entry beyond the range or not exact in 64 bits,
 * R sharing storage with A or B, an underflow or overflow: the caller runs
 * the MPFI loop), else the number of entries left to the MPFI loop (those
 * with a zero endpoint, whose sign the route does not promise), flagged in
 * todo[0..m*q-1]; the others are written. */
int dvc_imat_mul_ld_(mpfi_t *R, mpfi_t *A, mpfi_t *B, long m, long n, long q, unsigned char *todo);

/* Tests and benchmarks: 0 switches the route off (process-wide). */
void dvc_imat_ld_enable_(int on);

#endif
