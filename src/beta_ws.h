/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/beta_enum.c and src/beta_node.c: the binary64 workspace of
 * a principal submatrix M_JJ and its predictor X ~ (M_JJ)^{-1}, and the
 * kernels both the vertex enumeration and the branch-and-bound node bounds
 * use (docs/beta.md has the error analysis). */
#ifndef DVC_BETA_WS_H
#define DVC_BETA_WS_H

#include <stddef.h>

#include "beta_kern.h"

#define E_ACCEPT 0.5    /* residual above which the MPFI fallback is used */

/* Four doubles; the compiler emits SSE2/AVX lanes. may_alias because rows of
 * double arrays are accessed through it. */
typedef double v4 __attribute__((vector_size(32), may_alias));

/* Vectors of four covering k entries. */
static inline int nvec(int k) { return (k + 3) / 4; }

typedef struct {
    int m, ld, k;
    double *A;   /* M_JJ midpoints in the order of `order`, zero outside k x k */
    double *X;   /* predictor of A^{-1}, zero outside k x k */
    double *W;   /* Gauss-Jordan: rows [A | I], stride 2 ld */
    double *B;   /* alpha: M_JK, stride ld */
    double *g;   /* scratch, 4 ld */
    double *rowneg; /* per row: -(sum |X_ij|) rounded up, i.e. lower row sum negated */
    int *order, *pos, *kidx;
    double e_fresh; /* residual right after the last recomputation */
    double e_last;  /* residual of the last vertex evaluated (-1: by the MPFI fallback) */
    int stale;   /* X must be recomputed */
    int upd;     /* updates since the last recomputation */
} dvc_bk_ws;

/* n doubles, zeroed, 64-byte aligned (rows are read four at a time);
 * aborts when out of memory. */
double *dvc_bk_alloc(size_t n);

/* A workspace for J of up to m indices, rows of stride ld. */
void dvc_bk_ws_init(dvc_bk_ws *w, int m, int ld);
void dvc_bk_ws_clear(dvc_bk_ws *w);

/* Predictor X ~ A^{-1} by Gauss-Jordan with partial pivoting (any rounding
 * mode: it is only a predictor). Returns 0 when a pivot is zero. */
int dvc_bk_gj_inverse(int k, int ld, const double *A, double *X, double *W);

/* FE_UPWARD active. Returns an upper bound of max_i sum_j |(I - X A)_ij|
 * + sum_l |X_il| rho_l (rho: row sums of the radius, may be NULL), i.e. of
 * ||I - X A'|| for every A' with |A' - A| <= Rad, rho = Rad * 1. NaN or
 * +inf when anything overflowed. */
double dvc_bk_resid_up(int k, int ld, const double *X, const double *A, const double *rho,
                       double *g);

/* FE_UPWARD active: upper and lower bounds of ||X||_inf (X is a point
 * matrix); rowneg[i] = -(lower bound of row sum i). */
void dvc_bk_xnorm(int k, int ld, const double *X, double *up, double *dn, double *rowneg);

/* The Gray-code steps and the evaluation of one vertex (src/beta_enum.c),
 * shared with the bordering enumeration (src/beta_tree.c). FE_UPWARD
 * active. add: append index idx to J (updating X unless stale); remove: drop
 * it (Schur downdate); eval: bound ||(M_JJ)^{-1}|| (and alpha) into acc, 0
 * when not even the MPFI fallback could (then dvc_bk_vertex_fail names J). */
void dvc_bk_add_index(const dvc_bk_mat *K, dvc_bk_ws *w, int idx);
void dvc_bk_remove_index(dvc_bk_ws *w, int idx);
int dvc_bk_eval_vertex(const dvc_bk_mat *K, dvc_bk_ws *w, int want_alpha, dvc_bk_acc *acc);
dvc_status dvc_bk_vertex_fail(const dvc_bk_ws *w);
/* FE_UPWARD active, acc->tick set: call it in round-to-nearest; 1 (and
 * acc->stopped set) when it asks to stop. */
int dvc_bk_tick(dvc_bk_acc *acc);

/* *a = max(*a, v), NaN propagating. */
static inline void dvc_bk_acc_max(double *a, double v)
{
    if (!(v <= *a)) *a = v;
}

#endif
