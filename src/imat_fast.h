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

/* 1 when the x87 kernel below can run (x87 extended precision, kernels
 * on). */
int dvc_fast_ld_ok_(void);
/* The x87 kernel on loaded arrays (row-major; left ends al, bl and right
 * ends ah, bh of A m x n and B n x k; exact endpoints, zeros signed as
 * MPFI's): rl <- left ends, rn <- minus the right ends of C + A B, the
 * sums from C (cl, cn: its left ends and minus its right ends; NULL: from
 * zero) in the order of the MPFI loop that sets s = C_ij, adds
 * A_iq B_qj for q = 0, 1, ... (mpfi_mul, mpfi_add) and stores s. Returns 1,
 * or 0 when an overflow, underflow or invalid operation was raised (the
 * outputs then are not MPFI's: run the MPFI loop). Only where
 * dvc_fast_ld_ok_() says so. */
int dvc_fast_mul_ld_(long double *rl, long double *rn, const long double *al,
                     const long double *ah, const long double *bl, const long double *bh, long m,
                     long n, long k, const long double *cl, const long double *cn);
/* The same with A (m rows) given by its entries other than [0, 0], row by
 * row: row i holds al[t], ah[t] in column nzj[t] for t in [nzr[i],
 * nzr[i + 1]) (the same sums: the kernel skips zero entries of A). */
int dvc_fast_csr_ld_(long double *rl, long double *rn, const long *nzr, const long *nzj,
                     const long double *al, const long double *ah, const long double *bl,
                     const long double *bh, long m, long k, const long double *cl,
                     const long double *cn);
/* The exact x87 endpoints of len intervals (zeros signed as MPFI's): 1, or
 * 0 when one is not exact in that format. */
int dvc_fast_load_ld_(long double *lo, long double *hi, mpfi_t *e, long len);
/* [lo[t], -nhi[t]] <- that interval divided by c > 0 as mpfi_div_ui
 * divides (each end rounded outward, zeros keeping their signs; in the
 * x87 unit): 1, or 0 when a flag was raised (then use MPFI). */
int dvc_fast_div_ld_(long double *lo, long double *nhi, long len, unsigned long c);
/* e[t] <- [lo[t], -nhi[t]] exactly (64-bit intervals; the kernel's outputs). */
void dvc_fast_store_ld_(mpfi_t *e, const long double *lo, const long double *nhi, long len);


#endif
