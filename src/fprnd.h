/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Internal binary64 kernels with directed rounding (not public API).
 * The floating predictors (LU, approximate inverse) run in round-to-nearest;
 * the certifying kernels set FE_TONEAREST / FE_UPWARD / FE_DOWNWARD
 * themselves (src/rounding.h) and restore the caller's rounding mode on
 * every return. Matrices row-major. */
#ifndef DVC_FPRND_H
#define DVC_FPRND_H

/* Outcomes of the verifying kernels. */
enum {
    DVC_FP_OK = 0,
    DVC_FP_SINGULAR = 1,   /* floating LU broke down: mid(A) singular to working precision */
    DVC_FP_NOCONTRACT = 2, /* upper bound c of ||I - R A||_inf is not < 1 */
    DVC_FP_NONFINITE = 3,  /* overflow in the verification */
    DVC_FP_NOTPD = 4       /* positive definiteness not proven */
};

/* LU with partial pivoting of the n x n matrix a, in place (a = P L U,
 * piv[k] = row swapped with k). Returns 0, or -1 on a zero / non-finite
 * pivot. Rounding mode: whatever is current (call it in FE_TONEAREST).
 * The one floating LU of the library (predictors of the LVI, the verified
 * solve, the M-matrix test) and of the benchmarks' reference: first
 * maximal pivot, multipliers as products with the pivot's reciprocal,
 * row-oriented updates. (Changing its arithmetic changes the verified
 * solve's enclosures in the last bits, and stored certificates, which must
 * contain the recomputed LVI enclosures, stop verifying.) */
int dvc_fp_lu(double *a, long *piv, long n);
/* Solve with the factors of dvc_fp_lu; b overwritten by the solution. */
void dvc_fp_lu_solve(const double *lu, const long *piv, long n, double *b);
/* r <- approximate inverse of a (n x n), a unchanged. Returns 0 or -1. */
int dvc_fp_inv(double *r, const double *a, long n);

/* C <- C + A B (A: m x n, B: n x k), every operation rounded in the
 * current rounding mode, so that under FE_UPWARD (FE_DOWNWARD) the result
 * is an upper (lower) bound of the exact C + A B. C must not overlap A, B. */
void dvc_fp_gemm_acc(double *restrict C, const double *restrict A, const double *restrict B,
                     long m, long n, long k);

/* Verified enclosure of { A^{-1} B : A in [Alo, Ahi], B in [Blo, Bhi] }
 * (A n x n, B n x k) into [Xlo, Xhi]. *cnorm receives the proven upper
 * bound of ||I - R A||_inf (or the failing value). */
int dvc_fp_verify_solve(long n, long k, const double *Alo, const double *Ahi,
                        const double *Blo, const double *Bhi, double *Xlo, double *Xhi,
                        double *cnorm);

/* Proves that every symmetric matrix in [Alo, Ahi] (symmetric bounds) is
 * positive definite: DVC_FP_OK, else DVC_FP_NOTPD / DVC_FP_NONFINITE.
 * *margin receives the proven lower bound of lambda_min (when OK). */
int dvc_fp_verify_spd(long n, const double *Alo, const double *Ahi, double *margin);

#endif
