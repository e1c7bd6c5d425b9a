/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The per-subset work of the subtree test of the bordering enumeration
 * (src/beta_tree.c, subtree_below_lo; docs/beta.md section 5, "Subtrees
 * that cannot matter"): private to the beta kernels. */
#ifndef DVC_BETA_SUB_H
#define DVC_BETA_SUB_H

#include <stddef.h>

#include "beta_ws.h"

#define TREE_U 0x1p-52 /* a rounding error is below TREE_U |result| (normal results) */
/* subtree_below_lo is tried on subtrees of at most this many remaining inner
 * indices (2^f - 1 vertices): its cost grows like f^2 2^f; with row_tight
 * almost every test succeeds, and with the cheaper per-subset work
 * (subsets_below_lo) f <= 6, the whole tree of an anchor at r = 6, took
 * less time than f <= 5 (nonsymmetric PD family, m = 24) */
#define SUB_FMAX 6
_Static_assert(SUB_FMAX >= 2 && SUB_FMAX <= 6, "subsets_below_lo unrolls the sizes up to 6");

/* four 64-bit lanes: masks for the four-lane double vectors */
typedef long long v4m __attribute__((vector_size(32), may_alias));

/* max(a, b), NaN if either is NaN (fmax would drop it) */
static inline double maxn(double a, double b) { return (a > b || a != a) ? a : b; }

/* What row_tight reads of subtree_below_lo's node: the bordering vectors
 * (u at U + a st, du at DU + a st, w at U + a st + 2 ld; w1, dw1 per
 * index of F) and the node's X (stride ld), rho, rs. */
typedef struct {
    const double *U, *DU, *X, *rho, *rs, *w1, *dw1;
    size_t st, ld;
    int k;
    long *tight; /* rows so bounded (dvc_bk_acc.tight) */
} dvc_bk_sub_node;

/* FE_UPWARD active. Every nonempty subset S of F (f = |F| <= SUB_FMAX) of a
 * node N of the tree: Sc, Sr the box of the Schur complement Sigma of F,
 * cw_a >= ||W_a||_1 + 1, lo the lower bound reached so far, U (stride st)
 * the bordering vectors u (du at U + ld) of the indices of F, nv groups of
 * four rows, base_i = rs_i + rho_i (zero past k; raised here by the error
 * terms), dumax_i and uall_i. 1 when every row of every descendant is
 * proven at most lo (*best raised to the largest bound), else 0. */
int dvc_bk_subsets_below_lo(int f, const double Sc[SUB_FMAX][SUB_FMAX], const double Sr[SUB_FMAX][SUB_FMAX],
                            const double *cw, double lo, const double *U, size_t st, int nv, v4 *base,
                            const double *dumax, const double *uall, double *best, const dvc_bk_sub_node *N);

#endif
