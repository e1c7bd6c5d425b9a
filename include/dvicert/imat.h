/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Interval matrices: products, rigorous norms, verified solve, inverse and
 * Cholesky. Row-major storage. */
#ifndef DVICERT_IMAT_H
#define DVICERT_IMAT_H

#include "dvicert/ivec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    mpfi_t *e;
    long r, c;
    mpfr_prec_t prec; /* precision of the entries: set by init2, kept by resize */
} dvc_imat_struct;
typedef dvc_imat_struct dvc_imat_t[1];
typedef dvc_imat_struct *dvc_imat_ptr;
typedef const dvc_imat_struct *dvc_imat_srcptr;

#define dvc_imat_entry(A, i, j) ((A)->e[(long)(i) * (A)->c + (long)(j)])

/* Entries are initialised to [0,0] at precision prec; dvc_imat_init is the
 * convenience form at the thread's working precision (dvc_prec_get()).
 * The matrix owns its entries; dvc_imat_clear frees them. */
void dvc_imat_init(dvc_imat_t A, long r, long c);
void dvc_imat_init2(dvc_imat_t A, long r, long c, mpfr_prec_t prec);
void dvc_imat_clear(dvc_imat_t A);
/* Precision of the matrix: that of its entries, or (empty matrix) the one
 * it was initialised with. Temporaries of the functions below use it. */
mpfr_prec_t dvc_imat_prec(const dvc_imat_t A);
/* Resize (entries lost, reset to [0,0]) keeping the precision. */
void dvc_imat_resize(dvc_imat_t A, long r, long c);

void dvc_imat_set(dvc_imat_t R, const dvc_imat_t A);
void dvc_imat_zero(dvc_imat_t R);
void dvc_imat_one(dvc_imat_t R); /* identity (square) */
/* From / to a row-major double array (midpoints for the latter). */
void dvc_imat_set_d(dvc_imat_t R, const double *a);
void dvc_imat_mid_d(double *a, const dvc_imat_t A);
int dvc_imat_is_point(const dvc_imat_t A);
int dvc_imat_is_finite(const dvc_imat_t A);
int dvc_imat_is_square(const dvc_imat_t A);

void dvc_imat_transpose(dvc_imat_t R, const dvc_imat_t A); /* R != A */
void dvc_imat_add(dvc_imat_t R, const dvc_imat_t A, const dvc_imat_t B);
void dvc_imat_sub(dvc_imat_t R, const dvc_imat_t A, const dvc_imat_t B);
void dvc_imat_neg(dvc_imat_t R, const dvc_imat_t A);
void dvc_imat_scale(dvc_imat_t R, const mpfi_t s, const dvc_imat_t A);
/* R <- A B (R must not alias A or B). */
void dvc_imat_mul(dvc_imat_t R, const dvc_imat_t A, const dvc_imat_t B);
/* r <- A x (r must not alias x). */
void dvc_imat_mul_vec(dvc_ivec_t r, const dvc_imat_t A, const dvc_ivec_t x);

/* Rigorous upper bounds of operator norms, rounded up. */
void dvc_imat_norm_inf(mpfr_t r, const dvc_imat_t A);
void dvc_imat_norm1(mpfr_t r, const dvc_imat_t A);
/* min(sqrt(||A||_1 ||A||_inf), ||A||_F): both bound ||A||_2 from above. */
void dvc_imat_norm2(mpfr_t r, const dvc_imat_t A);

/* Comparison matrix: <A>_ii = mig(A_ii), <A>_ij = -mag(A_ij). */
void dvc_imat_comparison(dvc_imat_t R, const dvc_imat_t A);
/* R <- A[rows, cols] (R resized). */
void dvc_imat_submatrix(dvc_imat_t R, const dvc_imat_t A, const long *rows, long nr,
                        const long *cols, long nc);
/* Entry (i,j) of the hull test: every entry of B contained in A's. */
int dvc_imat_contains(const dvc_imat_t A, const dvc_imat_t B);

void dvc_imat_fprint(FILE *f, const dvc_imat_t A, int digits);

/* ---- verified linear algebra (src/imat_solve.c) ----------------------
 * Each returns DVC_OK with an enclosure valid for every point matrix in A
 * (and every right-hand side in b), DVC_NOT_CERTIFIED with a message when
 * regularity cannot be proven (e.g. A singular or too ill-conditioned),
 * or DVC_ERR_INPUT for dimension errors / non-finite entries. They switch
 * the FPU rounding mode internally and restore the caller's mode; the
 * enclosures do not depend on the caller's mode. */

/* x encloses { A^{-1} b : A in [A], b in [b] }. */
dvc_status dvc_imat_solve(dvc_ivec_t x, const dvc_imat_t A, const dvc_ivec_t b);
/* X encloses { A^{-1} B }. */
dvc_status dvc_imat_solve_mat(dvc_imat_t X, const dvc_imat_t A, const dvc_imat_t B);
/* X encloses { A^{-1} : A in [A] }. */
dvc_status dvc_imat_inv(dvc_imat_t X, const dvc_imat_t A);
/* Proves that every symmetric matrix in [A] is positive definite (a
 * verified Cholesky factorisation, i.e. all pivots proven positive).
 * DVC_NOT_CERTIFIED when it cannot prove it. A must be symmetric as an
 * interval matrix (A_ij == A_ji), else DVC_ERR_INPUT. */
dvc_status dvc_imat_cholesky_spd(const dvc_imat_t A);

#ifdef __cplusplus
}
#endif
#endif
