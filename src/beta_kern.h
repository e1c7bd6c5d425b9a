/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/beta*.c: the binary64 directed-rounding kernel that bounds
 * ||(M_JJ)^{-1}|| (and the alpha row block) for principal submatrices, used
 * by the vertex enumeration and by the branch-and-bound. docs/beta.md has the
 * error analysis. */
#ifndef DVC_BETA_KERN_H
#define DVC_BETA_KERN_H

#include <stdint.h>
#include "dvicert/imat.h"

/* M as midpoint/radius in binary64: [M] is contained in [Mc - Mr, Mc + Mr]. */
typedef struct {
    int m, ld;          /* ld: row stride, a multiple of 4 */
    double *Mc, *Mr;    /* m x ld each, zero padded */
    double *Mmag;       /* upper bound of |M| entrywise */
    int point;          /* Mr == 0 */
    const dvc_imat_struct *M; /* the original, for the MPFI fallback */
} dvc_bk_mat;

/* Rigorous bounds accumulated over visited vertices J. */
typedef struct dvc_bk_acc {
    double beta_lo, beta_hi;   /* max over J of lower / upper bounds */
    double alpha_lo, alpha_hi;
    long count;                /* vertices evaluated */
    long slow;                 /* vertices that needed the MPFI fallback */
    long refresh;              /* from-scratch inversions */
    long pruned;               /* vertices of subtrees proven below beta_lo (bordering route; in count) */
    long tight;                /* rows of those subtrees bounded by the tighter row bound (row_tight) */
    /* Budget hook (NULL: none), called every DVC_BK_TICK vertices in
     * round-to-nearest; a nonzero return stops the enumeration with
     * stopped = 1: the lower bounds then hold (they are attained at visited
     * vertices), the upper bounds cover the visited vertices only. */
    int (*tick)(void *ctx, const struct dvc_bk_acc *acc);
    void *tick_ctx;
    int stopped;
} dvc_bk_acc;

#define DVC_BK_TICK 4096

void dvc_bk_acc_init(dvc_bk_acc *a);

/* mid/rad conversion, rigorous. DVC_ERR_INPUT for non-finite entries. */
dvc_status dvc_bk_mat_init(dvc_bk_mat *K, const dvc_imat_t M);
void dvc_bk_mat_clear(dvc_bk_mat *K);

/* Evaluate every vertex J = base + G, G a subset of free[0..nfree) (the empty
 * G included), in Gray-code order. base is a bit mask (m <= 64). J empty
 * contributes beta 0 and alpha 1. Sets FE_UPWARD inside and restores the
 * caller's rounding mode before returning. DVC_NOT_CERTIFIED when some ||(M_JJ)^{-1}||
 * could not be bounded even by the MPFI fallback. */
dvc_status dvc_bk_enum(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree,
                       int want_alpha, dvc_bk_acc *acc);

/* beta only: the same vertices as dvc_bk_enum, the last r free indices
 * (inner, never in base) handled by bordering from the residual-verified
 * vertices of the others (docs/beta.md section 5, bordering): O(|J|^2) per vertex
 * instead of O(|J|^3). A vertex whose bordering bound cannot be proven (or
 * is not sharp) falls back to the residual route with its subtree. */
dvc_status dvc_bk_enum_tree(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree, int r,
                            dvc_bk_acc *acc);

/* The anchors of Gray-code positions t0 <= t < t1 of dvc_bk_enum_tree (the
 * 2^(nfree - r) sets of the outer free indices) with their subtrees: the
 * first anchor's predictor is computed afresh, so a run over [0, 2^no) cut
 * into ranges visits the same vertices as one call, each once. */
dvc_status dvc_bk_enum_tree_range(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree, int r,
                                  uint64_t t0, uint64_t t1, dvc_bk_acc *acc);

/* dvc_bk_enum_tree on up to `threads` threads (>= 1): the anchors cut into
 * DVC_BK_CHUNKS ranges of equal length (fewer when there are fewer
 * anchors), each started from acc's bounds, the results combined in chunk
 * order, so that the result, the counts and a failure's message do not
 * depend on the number of threads. acc->tick is called from the calling
 * thread only (every 20 ms or so, in round-to-nearest) with the vertex
 * count so far; a nonzero return stops every chunk (acc->stopped = 1). */
#define DVC_BK_CHUNKS 64
dvc_status dvc_bk_enum_tree_par(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree, int r,
                                int threads, dvc_bk_acc *acc);

/* beta only: a lower bound from steepest-ascent searches over vertices
 * (binary64 predictor) from fixed starting sets, until their work (the sum
 * of |J|^3 over the vertices evaluated) passes `work`; the best vertex found
 * is evaluated rigorously (dvc_bk_enum), so acc receives the proven bounds
 * of that one vertex. Deterministic. */
dvc_status dvc_bk_local_lower(const dvc_bk_mat *K, double work, dvc_bk_acc *acc);

/* Upper bounds over the node {d : d_i = 1 (i in in), d_i = 0 (i in out),
 * d_i in [0,1] otherwise} of ||X(d)|| (beta) and of ||(I - D + DM)^{-1}||
 * (alpha). +inf when the interval residual is not < 1. */
void dvc_bk_node_bound(const dvc_bk_mat *K, uint64_t in, uint64_t out, int want_alpha,
                       double *ub_beta, double *ub_alpha);

/* H = [sym(M)] = [(M + M^T)/2], every point matrix of it positive definite
 * (proven by the caller). Upper bound, over every nonempty J inside the set
 * T (bit mask) and every M in [M], of ||(M_JJ)^{-1}||: with G = (H_TT)^{-1},
 * sqrt(max_i G_ii * sum_ij |G_ij|) (docs/beta.md section 6). +inf when the
 * verified inverse of H_TT fails. Sets FE_UPWARD inside, restores the
 * caller's mode. */
double dvc_bk_pd_node_bound(const dvc_bk_mat *H, uint64_t T);

/* K a point matrix, symmetric and positive definite (proven by the caller).
 * Upper bound of ||(M_JJ)^{-1}|| over every J with in <= J <= T, T the
 * complement of out: with G = (M_TT)^{-1}, L = (M_in,in)^{-1} padded and
 * D = G - L (0 <= (M_JJ)^{-1} padded - L <= D in the Loewner order),
 * max_i ||L_i||_1 + sqrt(D_ii * sum_kl |D_kl|) (docs/beta.md section 6).
 * *lo_completion: a lower bound of the value at J = T. +inf when a verified
 * inverse fails. Sets FE_UPWARD inside, restores the caller's mode. */
double dvc_bk_sym_node_bound(const dvc_bk_mat *K, uint64_t in, uint64_t out, double *lo_completion);

/* Symmetric positive definite point matrix K (proven by the caller): both
 * children of the node (in, out) split on the free index p, from the
 * parent's predictors (one Gauss-Jordan inverse each of M_TT and M_in,in,
 * or none in a dive, O(k^2) bordering / downdating for the children). */
typedef struct dvc_bk_sym dvc_bk_sym;
dvc_bk_sym *dvc_bk_sym_new(const dvc_bk_mat *K); /* borrows K; free with dvc_bk_sym_free */
void dvc_bk_sym_free(dvc_bk_sym *S);
/* Floating-point estimates (no rigour; for ordering only) of the Loewner
 * bound of child d_p = 0 (fb[0]) and d_p = 1 (fb[1]), and of the norm at the
 * completion of child 0. Returns 0 when a predictor fails (then use
 * dvc_bk_sym_node_bound). Runs in round-to-nearest, restores the caller's mode. */
int dvc_bk_sym_split(dvc_bk_sym *S, uint64_t in, uint64_t out, int p, int reuse, double fb[2],
                     double *fcomp0);
/* The next split (with reuse = 1) is of child `child` of the last split:
 * it takes over that child's predictors instead of inverting again. */
void dvc_bk_sym_descend(dvc_bk_sym *S, int child);
/* After a successful split: the rigorous Loewner bound of child `child`
 * (0 or 1) from the same predictors with verified residuals, and a lower
 * bound of the value at its completion. +inf when a residual is too large.
 * Sets FE_UPWARD inside, restores the caller's mode. */
double dvc_bk_sym_verify(dvc_bk_sym *S, int child, double *lo_completion);

/* Branching key (a predictor, no rigour needed): key[i] = -(Hc^{-1})_ii, or
 * all 0 when Hc cannot be inverted in floating point. */
void dvc_bk_inv_diag(const dvc_bk_mat *H, double *key);

#endif
