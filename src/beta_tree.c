/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* beta_M by vertex enumeration past m = 20: the vertices of the last free
 * indices bounded by bordering from residual-verified anchors, O(|J|^2) per
 * vertex (docs/beta.md section 5, bordering); the anchors and every vertex
 * the bordering cannot bound sharply go through the residual kernel of
 * src/beta_enum.c. */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "beta_kern.h"
#include "beta_sub.h"
#include "beta_ws.h"
#include "rounding.h"

/* ---- beta by bordering from verified anchors ------------------------------
 *
 * The outer free indices run through a Gray code as in dvc_bk_enum: each of
 * those vertices J0 (an anchor) gets its residual-verified predictor X with
 * ||A^{-1} - X|| <= t. The 2^r - 1 vertices J0 + S, S a nonempty subset of
 * the r inner indices, are then bounded in a tree (S from S minus its last
 * index) by bordering, without any residual: each node carries a binary64
 * matrix X and rigorous bounds rho_i >= sum_j |(A^{-1} - X)_ij| of its rows
 * for every A in [M_JJ], propagated through the bordering formula with every
 * rounding error accounted for (docs/beta.md section 5, bordering). A node costs
 * O(|J|^2) instead of the residual's O(|J|^3). */

/* tree_walk tries the subtree test on f <= TEST_FMAX (<= SUB_FMAX): with
 * the per-subset work of src/beta_sub.c, testing beats walking up to
 * f = 6, also with derive_child's cheaper walk (docs/beta.md section 8) */
#define TEST_FMAX SUB_FMAX
_Static_assert(TEST_FMAX >= 2 && TEST_FMAX <= SUB_FMAX, "subtree_below_lo's arrays hold SUB_FMAX indices");

/* |x| lane-wise; x in every lane */
static const v4m absm = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
#define V4(x) ((v4){(x), (x), (x), (x)})

typedef struct {
    const dvc_bk_mat *K;
    dvc_bk_acc *acc;
    int ld, r;
    const int *inner;
    double *X;   /* (r + 1) levels of ld x ld */
    double *Y;   /* their transposes: at the anchor (level 0), and where derive_child fails */
    double *rho; /* (r + 1) x ld */
    double *rs;  /* (r + 1) x ld: sums of |X_ij| over row i, rounded up */
    int *ord;    /* row / column i of every level: the index of M */
    double *b, *br, *c, *cr, *u, *du, *gu, *gn;
    /* The bordering vectors of every remaining inner index q (q0 <= q < r)
     * of the node at level L: u, du, w, c, cr at pcache + ((L r + q) 5) ld,
     * w1 and dw1 at pw1, pdw1 [L r + q]; the box of its Schur complement
     * Sigma_qq' at Sc, Sr [(L r + q) r + q'] (midpoint, radius). Filled at
     * the root by border_uw and sigma_box, at a child from its parent's
     * (derive_child); read by tree_border and subtree_below_lo. */
    double *pcache, *pw1, *pdw1, *Sc, *Sr;
} tree_ctx;

/* g = x P (x: k entries, P: k rows of stride ld), four lanes at a time in
 * the current rounding mode: each g_j within gamma_k sum_l |x_l P_lj| of
 * the exact value (Higham, Accuracy and Stability, 3.1). */
__attribute__((always_inline)) static inline void vecmat_nv(int k, int ld, const double *x, const double *P,
                                                            double *g, int nv)
{
    v4 o[16]; /* m <= 64 */
    for (int q = 0; q < nv; q++) o[q] = (v4){0, 0, 0, 0};
    for (int l = 0; l < k; l++) {
        const v4 *pl = (const v4 *)(P + (size_t)l * ld);
        double xl = x[l];
        v4 xv = {xl, xl, xl, xl};
        for (int q = 0; q < nv; q++) o[q] += xv * pl[q];
    }
    for (int q = 0; q < nv; q++) ((v4 *)g)[q] = o[q];
}

__attribute__((always_inline)) static inline void vecmat(int k, int ld, const double *x, const double *P,
                                                         double *g, int nv)
{
    /* a constant count per case keeps the accumulators in registers */
    switch (nv) {
    case 1: vecmat_nv(k, ld, x, P, g, 1); return;
    case 2: vecmat_nv(k, ld, x, P, g, 2); return;
    case 3: vecmat_nv(k, ld, x, P, g, 3); return;
    case 4: vecmat_nv(k, ld, x, P, g, 4); return;
    case 5: vecmat_nv(k, ld, x, P, g, 5); return;
    case 6: vecmat_nv(k, ld, x, P, g, 6); return;
    case 7: vecmat_nv(k, ld, x, P, g, 7); return;
    case 8: vecmat_nv(k, ld, x, P, g, 8); return;
    default: vecmat_nv(k, ld, x, P, g, nv); return;
    }
}

/* FE_UPWARD active. The bordering vectors of index p at a node (X, Y = X^T,
 * rho, rs; size k): b, br = column p of [M] on the rows of J (centre,
 * radius), c, cr = row p; u = fl(X b) with |U - u|_i <= du_i for
 * U = A^{-1} b, every A in [M_JJ], b in [b]; w = fl(c^T X) with
 * sum_j |W_j - w_j| <= dw1 for W = c^T A^{-1}; w1 >= sum |w_j|
 * (docs/beta.md section 5, bordering). */
__attribute__((always_inline)) static inline void border_uw(const tree_ctx *T, const double *X, const double *Y,
                                                            const double *rho, const double *rs, int k, int p,
                                                            double *u, double *du, double *w, double *c, double *cr,
                                                            double *w1p, double *dw1p)
{
    const dvc_bk_mat *K = T->K;
    const int ld = T->ld, nv = nvec(k);
    double *b = T->b, *br = T->br, bn = 0, brn = 0, w1 = 0, dw1 = 0;
    /* gamma_k of the error of a k-term dot product, 2^-52 per rounding */
    const double gam = (double)(k + 1) * TREE_U;
    for (int l = 0; l < k; l++) {
        int o = T->ord[l];
        b[l] = K->Mc[(size_t)o * ld + p];
        c[l] = K->Mc[(size_t)p * ld + o];
        if (fabs(b[l]) > bn) bn = fabs(b[l]);
    }
    if (!K->point) /* the radii (zero for a point matrix: the terms below vanish) */
        for (int l = 0; l < k; l++) {
            int o = T->ord[l];
            br[l] = K->Mr[(size_t)o * ld + p];
            cr[l] = K->Mr[(size_t)p * ld + o];
            if (br[l] > brn) brn = br[l];
        }
    else
        for (int l = 0; l < k; l++) cr[l] = 0;
    /* u ~ A^{-1} b: u = b^T Y = X b in floating point, |X b - u|_i <=
     * gam sum_l |X_il b_l| <= gam rs_i |b|; |U_i - u_i| <= du_i */
    vecmat(k, ld, b, Y, u, nv);
    for (int i = 0; i < k; i++) du[i] = gam * rs[i] * bn + rho[i] * bn + (rs[i] + rho[i]) * brn + 0x1p-1000;
    /* w ~ c^T A^{-1}: w = c^T X in floating point; sum_j |W_j - w_j| <= dw1 */
    vecmat(k, ld, c, X, w, nv);
    for (int j = 0; j < k; j++) w1 += fabs(w[j]);
    for (int i = 0; i < k; i++) dw1 += fabs(c[i]) * (gam * rs[i] + rho[i]);
    if (!K->point)
        for (int i = 0; i < k; i++) dw1 += cr[i] * (rs[i] + rho[i]);
    *w1p = w1;
    *dw1p = dw1 + 0x1p-1000;
}

/* FE_UPWARD active. A leaf whose whole value is proven at most the lower
 * bound reached so far cannot change the result (its upper bound is at
 * most lo <= hi, its lower bound at most lo), so the O(k^2) pass over X'
 * is skipped: with the bordering's v (v1 >= sum |v_j|) and the entries of
 * X' formed as X_ij + u_i v_j and -u_i sig, each rounded twice,
 *   sum_j |X'_ij| <= (rs_i + |u_i| (v1 + |sig|)) (1 + 2^-50) + 2^-990
 * (the last term covers underflow), which bounds the row sums in rho' as
 * in tree_border. The bound is still accumulated into hi (a no-op there,
 * as hi >= lo). 1 when the leaf is so bounded. */
__attribute__((always_inline)) static inline int leaf_below_lo(tree_ctx *T, int k, const double *rho,
                                                               const double *rs, const double *du, double v1,
                                                               double dv1, double sig, double dsig, double asig)
{
    const double lo = T->acc->beta_lo, vs = v1 + fabs(sig), a1 = v1 + dv1, a2 = 2 * TREE_U;
    const double *u = T->u;
    double h = vs + (dv1 + dsig), best = h; /* the new row: -v^T, sig */
    const v4m kv = {k, k, k, k};
    v4 b4 = V4(0);
    if (!(lo > 0) || !(h <= lo)) return 0;
    for (int q = 0; q < nvec(k); q++) { /* rows 0..k-1, four at a time (lanes past k masked) */
        const v4m iv = {4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3}, in = iv < kv;
        const v4 ui = (v4)(((const v4m *)u)[q] & absm), dui = ((const v4 *)du)[q];
        const v4 rc = (((const v4 *)rs)[q] + ui * V4(vs)) * V4(1 + 0x1p-50) + V4(0x1p-990);
        const v4 hv = rc + (((const v4 *)rho)[q] + dui * V4(a1) + ui * V4(dv1) + dui * V4(asig) + ui * V4(dsig) +
                            V4(a2) * ui * V4(v1) + V4(a2) * rc + V4(0x1p-1000));
        const v4m ok = (v4m)(hv <= V4(lo)) | ~in, mb = (v4m)(hv > b4) & in; /* false for NaN */
        if (!(ok[0] & ok[1] & ok[2] & ok[3])) return 0;
        b4 = (v4)(((v4m)hv & mb) | ((v4m)b4 & ~mb));
    }
    for (int l = 0; l < 4; l++)
        if (b4[l] > best) best = b4[l];
    dvc_bk_acc_max(&T->acc->beta_hi, best);
    return 1;
}

/* FE_UPWARD active. tree_border's bounds of the rows of X' (size k + 1):
 * rhon from the old rho, the bordering vectors u (zero past k), du and
 * the scalars of the step; then best = max_i (rsn_i + rhon_i), bestlo the
 * largest of the rows' lower bounds, rmax = max_i rhon_i. 0 when a row is
 * not finite. */
__attribute__((always_inline)) static inline int next_rows(int k, int nv1, const double *rho, const double *u,
                                                           const double *du, const double *rsn, double *rhon,
                                                           double v1, double dv1, double asig, double dsig,
                                                           double *best, double *bestlo, double *rmax)
{
    /* four rows at a time (the lanes past k are not used: masked) */
    const double a1 = v1 + dv1, a2 = 2 * TREE_U, ck = (double)(k + 4) * TREE_U, nr = dv1 + dsig;
    const v4 a1v = V4(a1), dv1v = V4(dv1), asv = V4(asig), dsv = V4(dsig), a2v = V4(a2), v1v = V4(v1),
             tiny = V4(0x1p-1000), ckv = V4(ck), nrow = V4(nr);
    const v4m kv = {k, k, k, k};
    v4 b4 = {0, 0, 0, 0}, l4 = {0, 0, 0, 0}, r4 = {0, 0, 0, 0}, c4 = {0, 0, 0, 0};
    for (int q = 0; q < nv1; q++) {
        const v4 ui = (v4)((v4m)((const v4 *)u)[q] & absm), dui = ((const v4 *)du)[q];
        const v4 rsi = ((const v4 *)rsn)[q];
        /* the old error, the error of u v^T and of -u sig, the roundings
         * of the products u_i v_j (no fused multiply-add) and of the sums */
        v4 rh = ((const v4 *)rho)[q] + dui * a1v + ui * dv1v + dui * asv + ui * dsv + a2v * ui * v1v +
                a2v * rsi + tiny;
        const v4m iv = {4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3}, in = iv <= kv, isk = iv == kv; /* rows 0..k */
        rh = (v4)(((v4m)rh & ~isk) | ((v4m)nrow & isk)); /* the new row: dv1 + dsig */
        ((v4 *)rhon)[q] = rh;
        {
            const v4 h = (v4)((v4m)(rsi + rh) & in), rm = (v4)((v4m)rh & in);
            /* row sum of |A^{-1}| >= rs (1 - (k + 3) u) - rho; rs summed up */
            const v4 lo4 = (v4)((v4m)(-(rm + (v4)((v4m)rsi & in) * ckv - (v4)((v4m)rsi & in))) & in);
            const v4m mb = (v4m)(h > b4), ml = (v4m)(lo4 > l4), mr = (v4m)(rm > r4);
            c4 += h;
            b4 = (v4)(((v4m)h & mb) | ((v4m)b4 & ~mb));
            l4 = (v4)(((v4m)lo4 & ml) | ((v4m)l4 & ~ml));
            r4 = (v4)(((v4m)rm & mr) | ((v4m)r4 & ~mr));
        }
    }
    for (int l = 0; l < 4; l++) {
        *best = b4[l] > *best ? b4[l] : *best;
        *bestlo = l4[l] > *bestlo ? l4[l] : *bestlo;
        *rmax = r4[l] > *rmax ? r4[l] : *rmax;
    }
    /* a NaN or infinity in any row: not bounded */
    return isfinite((c4[0] + c4[1]) + (c4[2] + c4[3]));
}

/* FE_UPWARD active. Level L (size k) bordered with index p = inner[q] into
 * level L + 1, from the node's bordering vectors of p and the box of
 * Sigma_pp (tree_ctx). X' is formed row by row, four lanes at a time, with
 * its row sums (no transpose: the children's bordering vectors come from
 * derive_child). 0 when the Schur complement is not
 * proven nonzero or the bounds are not finite or not sharp enough (the
 * caller then takes the residual route). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* The four-lane code in 256-bit registers where the CPU has them (the same
 * operations, no contraction: the same results as the default clone). */
__attribute__((target_clones("avx2", "default")))
#endif
static int tree_border(tree_ctx *T, int L, int k, int q, int leaf)
{
    int ld = T->ld, nv = nvec(k), nv1 = nvec(k + 1);
    size_t sq = (size_t)ld * ld;
    const double *X = T->X + (size_t)L * sq, *rho = T->rho + (size_t)L * ld;
    const double *rs = T->rs + (size_t)L * ld;
    double *Xn = T->X + (size_t)(L + 1) * sq, *rhon = T->rho + (size_t)(L + 1) * ld;
    double *rsn = T->rs + (size_t)(L + 1) * ld;
    const int p = T->inner[q], a = L * T->r + q;
    /* the node's bordering vectors of p (tree_ctx): u and w copied, as
     * they are extended and scaled below */
    const double *cc = T->pcache + (size_t)a * 5 * ld, *du = cc + ld;
    double *u = T->u, *gu = T->gu;
    const double w1 = T->pw1[a], dw1 = T->pdw1[a];
    /* S = a - c^T A^{-1} b = Sigma_pp in [Slo, Shi], its box kept with
     * the bordering vectors (sigma_box, derive_child) */
    const double sm = T->Sc[(size_t)a * T->r + q], sr = T->Sr[(size_t)a * T->r + q];
    const double Shi = sm + sr, Slo = -(sr - sm);
    double sig, slo_inv, shi_inv, dsig, v1 = 0, dv1, asig, best = 0, bestlo = 0, rmax = 0;
    for (int j = 0; j < nv; j++) {
        ((v4 *)u)[j] = ((const v4 *)cc)[j];
        ((v4 *)gu)[j] = ((const v4 *)(cc + 2 * ld))[j];
    }
    if (!(Slo > 0) && !(Shi < 0)) return 0;
    sig = 1.0 / sm;
    slo_inv = -((-1.0) / Shi); /* 1/S >= this */
    shi_inv = 1.0 / Slo;       /* 1/S <= this */
    dsig = fmax(shi_inv - sig, sig - slo_inv);
    asig = fabs(sig) + dsig;
    /* v = w sig (rounded: error < TREE_U |v_j|); sum_j |W_j / S - v_j| <= dv1 */
    {
        /* four lanes at a time (zero past k) */
        const v4 sv = {sig, sig, sig, sig};
        v4 a4 = {0, 0, 0, 0};
        for (int j = 0; j < nv; j++) {
            const v4 g = ((v4 *)gu)[j] * sv;
            ((v4 *)gu)[j] = g;
            a4 += (v4)((v4m)g & absm);
        }
        v1 = (a4[0] + a4[1]) + (a4[2] + a4[3]);
    }
    if (nv1 > nv) ((v4 *)u)[nv] = ((v4 *)gu)[nv] = (v4){0, 0, 0, 0}; /* lanes past k: zero */
    dv1 = w1 * dsig + dw1 * asig + TREE_U * v1 + 0x1p-1000;
    if (!isfinite(dv1) || !isfinite(asig)) return 0;
    if (leaf && leaf_below_lo(T, k, rho, rs, du, v1, dv1, sig, dsig, asig)) {
        T->acc->count++;
        return 1;
    }
    if (leaf) {
        /* no children: only the row sums of |X'| */
        const v4 *v4v = (const v4 *)gu;
        for (int i = 0; i < k; i++) {
            const v4 *xi = (const v4 *)(X + (size_t)i * ld);
            double ui = u[i];
            v4 uv = {ui, ui, ui, ui}, s4 = {0, 0, 0, 0};
            for (int q = 0; q < nv; q++) s4 += (v4)((v4m)(xi[q] + uv * v4v[q]) & absm);
            rsn[i] = ((s4[0] + s4[1]) + (s4[2] + s4[3])) + fabs(ui * sig);
        }
        rsn[k] = v1 + fabs(sig);
    } else {
        /* X' = [[X + u v^T, -u sig], [-v^T, sig]] and its row sums; no
         * transpose: the children's bordering vectors come from this
         * node's (derive_child) */
        const v4 *v4v = (const v4 *)gu;
        for (int i = 0; i < k; i++) {
            const v4 *xi = (const v4 *)(X + (size_t)i * ld);
            v4 *xn = (v4 *)(Xn + (size_t)i * ld);
            double ui = u[i], xk;
            v4 uv = {ui, ui, ui, ui}, s4 = {0, 0, 0, 0};
            for (int q = 0; q < nv; q++) {
                v4 x = xi[q] + uv * v4v[q];
                xn[q] = x;
                s4 += (v4)((v4m)x & absm);
            }
            if (nv1 > nv) xn[nv] = (v4){0, 0, 0, 0};
            xk = -(ui * sig);
            Xn[(size_t)i * ld + k] = xk;
            rsn[i] = ((s4[0] + s4[1]) + (s4[2] + s4[3])) + fabs(xk);
        }
        {
            double *xk = Xn + (size_t)k * ld;
            for (int j = 0; j < k; j++) xk[j] = -gu[j];
            xk[k] = sig;
            for (int j = k + 1; j < 4 * nv1; j++) xk[j] = 0;
        }
        rsn[k] = v1 + fabs(sig);
    }
    if (!next_rows(k, nv1, rho, u, du, rsn, rhon, v1, dv1, asig, dsig, &best, &bestlo, &rmax)) return 0;
    T->ord[k] = p;
    /* Far from the predictor the residual route is sharper: taken when this
     * vertex could raise the upper bound above the lower one (or when the
     * bounds of the subtree would degrade). The largest lower bound of
     * the rows (each bounds the norm from below). */
    if (!isfinite(best) || !(rmax <= 1e-6 * best) || (!(rmax <= 1e-13 * best) && !(best <= T->acc->beta_lo)))
        return 0;
    T->acc->count++;
    dvc_bk_acc_max(&T->acc->beta_hi, best);
    if (bestlo > 0) dvc_bk_acc_max(&T->acc->beta_lo, bestlo);
    return 1;
}

/* ---- subtrees that cannot matter ------------------------------------------
 *
 * A node J (size k) whose remaining inner indices F (f = |F| of them) are
 * few: every descendant is J + S, S a nonempty subset of F. With
 * U = A^{-1} M_JS, W = M_SJ A^{-1} and Z = (Sigma_SS)^{-1}, Sigma the Schur
 * complement M_FF - M_FJ A^{-1} M_JF of A = M_JJ,
 *   (M_{J+S})^{-1} = [[A^{-1} + U Z W, -U Z], [-Z W, Z]],
 * so row i of J has 1-norm <= ||A^{-1}_i||_1 + sum_b |(U Z)_ib| (||W_b||_1 + 1)
 * and row b of S <= sum_a |Z_ba| (||W_a||_1 + 1). Z is kept per S (a
 * predictor with rigorous error bounds, bordered from that of S minus its
 * highest index, small_border_lanes, s <= f): the bound keeps the cancellation in U Z
 * that a hull of Z over S would lose (docs/beta.md section 5, "Subtrees that
 * cannot matter"). When every such bound is at most the lower bound lo
 * reached so far, no vertex of the subtree can change the result (as for a
 * leaf, leaf_below_lo) and the 2^f - 1 vertices are skipped. FE_UPWARD
 * active; 1 when the subtree is so bounded. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static int subtree_below_lo(tree_ctx *T, int L, int k, int q0)
{
    const int ld = T->ld, nv = nvec(k), f = T->r - q0, r = T->r;
    const size_t sq = (size_t)ld * ld, st = (size_t)5 * ld;
    const double *X = T->X + (size_t)L * sq, *rho = T->rho + (size_t)L * ld;
    const double *rs = T->rs + (size_t)L * ld;
    const double lo = T->acc->beta_lo;
    /* the node's bordering vectors and Sigma box of F (tree_ctx) */
    const double *U = T->pcache + (size_t)(L * r + q0) * st, *DU = U + ld;
    const double *Sbc = T->Sc + (size_t)(L * r + q0) * r + q0, *Sbr = T->Sr + (size_t)(L * r + q0) * r + q0;
    double *dumax = T->gn, *uall = T->du;
    v4 base[16]; /* m <= 64 */
    double cw[SUB_FMAX], Sc[SUB_FMAX][SUB_FMAX], Sr[SUB_FMAX][SUB_FMAX], best = 0;
    dvc_bk_sub_node N;
    if (f < 2 || f > SUB_FMAX || !(lo > 0)) return 0; /* (the first two: not reached) */
    for (int i = 0; i < k; i++) /* the node itself is part of every descendant's rows */
        if (!(rs[i] + rho[i] <= lo)) return 0;
    for (int a = 0; a < f; a++) {
        /* ||W_a||_1 + 1 <= cw_a; Sigma in the box (Sc, Sr) */
        cw[a] = T->pw1[L * r + q0 + a] + T->pdw1[L * r + q0 + a] + 1;
        if (!isfinite(cw[a])) return 0;
        for (int e = 0; e < f; e++) {
            Sc[a][e] = Sbc[(size_t)a * r + e];
            Sr[a][e] = Sbr[(size_t)a * r + e];
            if (!isfinite(Sr[a][e])) return 0;
        }
    }
    {
        N.U = U;
        N.DU = DU;
        N.X = X;
        N.rho = rho;
        N.rs = rs;
        N.w1 = T->pw1 + L * r + q0;
        N.dw1 = T->pdw1 + L * r + q0;
        N.st = st;
        N.ld = (size_t)ld;
        N.k = k;
        N.tight = &T->acc->tight;
    }
    /* per row of J, zero in the lanes past k: dumax_i, uall_i, and
     * rs_i + rho_i >= ||A^{-1}_i||_1 */
    for (int i = 0; i < 4 * nv; i++) {
        double dm = 0, ua = 0;
        for (int a = 0; a < f; a++) {
            dm = maxn(dm, DU[a * st + i]);
            ua += fabs(U[a * st + i]);
        }
        dumax[i] = dm;
        uall[i] = ua;
        ((double *)base)[i] = i < k ? rs[i] + rho[i] : 0;
    }
    /* every nonempty subset S of F: Zt ~ (Sigma_SS)^{-1} with every
     * |Z_ab - Zt_ab| <= rz_a for every Sigma' in the box, and the rows */
    if (!dvc_bk_subsets_below_lo(f, Sc, Sr, cw, lo, U, st, nv, base, dumax, uall, &best, &N)) return 0;
    dvc_bk_acc_max(&T->acc->beta_hi, best);
    return 1;
}

/* FE_UPWARD active. The box of the Schur complement Sigma_ab = m_{p_a p_b} -
 * c_a^T A^{-1} b_b of the node at level L (size k) for every remaining
 * inner index a, b >= q0 (tree_ctx), from its bordering vectors, kept as a
 * mid-rad pair: with p_l = fl(c_l u_l) and h, g the upward sums of p_l and
 * |p_l| (four lanes of partial sums, then added upward), h >= c^T u >=
 * h - gs g, gs = (k + 6) 2^-52 (one rounding of each product and at most
 * k + 3 additions on any path: gamma_{k+4} <= (k + 5) 2^-52 for the
 * products' sum, 2^-52 for the products; 2^-1000 for underflow); |c^T U - c^T u| <= sum_l |c_l|
 * du_l, and the radii of [M] add ar + sum_l cr_l (|u_l| + du_l). */
__attribute__((always_inline)) static inline void sigma_box(tree_ctx *T, int L, int k, int q0)
{
    const dvc_bk_mat *K = T->K;
    const int ld = T->ld, nv = nvec(k), r = T->r;
    const size_t st = (size_t)5 * ld;
    const double *P = T->pcache + (size_t)L * r * st, gs = (double)(k + 6) * TREE_U;
    double *Sc = T->Sc + (size_t)L * r * r, *Sr = T->Sr + (size_t)L * r * r;
    for (int a = q0; a < r; a++)
        for (int e = q0; e < r; e++) {
            const v4 *c = (const v4 *)(P + a * st + 3 * ld), *cr = (const v4 *)(P + a * st + 4 * ld),
                     *u = (const v4 *)(P + e * st), *du = (const v4 *)(P + e * st + ld);
            const size_t pp = (size_t)T->inner[a] * ld + T->inner[e];
            double h, g, delta, shi, slo, sm;
            v4 h4 = {0, 0, 0, 0}, g4 = {0, 0, 0, 0}, d4 = {0, 0, 0, 0};
            for (int q = 0; q < nv; q++) {
                const v4 p = c[q] * u[q];
                h4 += p;
                g4 += (v4)((v4m)p & absm);
                d4 += (v4)((v4m)c[q] & absm) * du[q];
            }
            if (!K->point)
                for (int q = 0; q < nv; q++) d4 += cr[q] * ((v4)((v4m)u[q] & absm) + du[q]);
            h = (h4[0] + h4[1]) + (h4[2] + h4[3]);
            g = (g4[0] + g4[1]) + (g4[2] + g4[3]);
            delta = K->Mr[pp] + ((d4[0] + d4[1]) + (d4[2] + d4[3]));
            /* m - c^T U in [-((h - m) + delta), ((m - h) + gs g) + delta] */
            shi = ((K->Mc[pp] - h) + (gs * g + 0x1p-1000)) + delta; /* 2^-1000: underflow */
            slo = -((h - K->Mc[pp]) + delta);
            sm = 0.5 * shi + 0.5 * slo;
            Sc[(size_t)a * r + e] = sm;
            Sr[(size_t)a * r + e] = maxn(shi - sm, sm - slo);
        }
}

/* FE_UPWARD active. The bordering vectors (border_uw) of the remaining
 * inner indices q >= q0 of the node at level L (size k), from its X and
 * Y = X^T (formed first when tr), and their Sigma box; zero in the lanes
 * past k (the four-lane sums of subtree_below_lo and sigma_box read them). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static void fill_cache(tree_ctx *T, int L, int k, int q0, int tr)
{
    const int ld = T->ld, nv = nvec(k), r = T->r;
    const size_t sq = (size_t)ld * ld, st = (size_t)5 * ld;
    const double *X = T->X + (size_t)L * sq, *rho = T->rho + (size_t)L * ld;
    const double *rs = T->rs + (size_t)L * ld;
    double *Y = T->Y + (size_t)L * sq;
    for (int j = 0; tr && j < k; j++)
        for (int i = 0; i < 4 * nv; i++) Y[(size_t)j * ld + i] = i < k ? X[(size_t)i * ld + j] : 0;
    for (int q = q0; q < r; q++) {
        double *u = T->pcache + (size_t)(L * r + q) * st;
        border_uw(T, X, Y, rho, rs, k, T->inner[q], u, u + ld, u + 2 * ld, u + 3 * ld, u + 4 * ld,
                  T->pw1 + L * r + q, T->pdw1 + L * r + q);
        for (int l = k; l < 4 * nv; l++) u[l] = u[ld + l] = u[2 * ld + l] = u[3 * ld + l] = u[4 * ld + l] = 0;
    }
    sigma_box(T, L, k, q0);
}

/* FE_UPWARD active. The bordering vectors and the Sigma box of the child
 * J + e (level L + 1, size k + 1; e = inner[qe] appended last, as
 * tree_border orders it) from those of its parent J (level L, size k), for
 * the indices q > qe, by the bordering formula: with t_a = Sigma_ea /
 * Sigma_ee and t'_a = Sigma_ae / Sigma_ee,
 *   U'_a = [U_a - U_e t_a; t_a],  W'_a = [W_a - t'_a W_e; t'_a],
 *   Sigma'_ab = Sigma_ab - Sigma_ae t_b,
 * O(k) per index and O(1) per entry of Sigma' instead of O(k^2) and O(k).
 * Every error bound as derived in docs/beta.md section 5 ("Children from
 * their parent"). 0 when Sigma_ee is not proven nonzero or a bound is not
 * finite (the child is then bordered from its own X). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static int derive_child(tree_ctx *T, int L, int k, int qe)
{
    const int ld = T->ld, r = T->r, k1 = k + 1, nv = nvec(k), nv1 = nvec(k + 1);
    const size_t st = (size_t)5 * ld, rr = (size_t)r * r;
    const double *P = T->pcache + (size_t)L * r * st, *Ue = P + qe * st, *DUe = Ue + ld, *We = Ue + 2 * ld;
    const double *Sc = T->Sc + L * rr, *Sr = T->Sr + L * rr;
    double *Q = T->pcache + (size_t)(L + 1) * r * st, *Scn = T->Sc + (L + 1) * rr, *Srn = T->Sr + (L + 1) * rr;
    const double w1e = T->pw1[L * r + qe], dw1e = T->pdw1[L * r + qe];
    const double see = Sc[(size_t)qe * r + qe], ree = Sr[(size_t)qe * r + qe];
    const double Shi = see + ree, Slo = -(ree - see);
    double tc[64], at[64], dt[64], sig, dsig, asig, chk = 0; /* r <= 40 */
    if (!(Slo > 0) && !(Shi < 0)) return 0;
    /* |1/Sigma_ee - sig| <= dsig, as in tree_border */
    sig = 1.0 / see;
    dsig = maxn(1.0 / Slo - sig, sig - (-((-1.0) / Shi)));
    asig = fabs(sig) + dsig;
    for (int q = qe + 1; q < r; q++) {
        const double *Ua = P + q * st, *DUa = Ua + ld, *Wa = Ua + 2 * ld;
        double *u = Q + q * st, *du = u + ld, *w = u + 2 * ld;
        const double sea = Sc[(size_t)qe * r + q], sae = Sc[(size_t)q * r + qe];
        /* |t_a - t| <= dta, |t'_a - tp| <= dtp */
        const double t = sea * sig, tp = sae * sig;
        const double dta = Sr[(size_t)qe * r + q] * asig + fabs(sea) * dsig + TREE_U * fabs(t) + 0x1p-1000;
        const double dtp = Sr[(size_t)q * r + qe] * asig + fabs(sae) * dsig + TREE_U * fabs(tp) + 0x1p-1000;
        const double ata = fabs(t) + dta, atp = fabs(tp) + dtp;
        /* four lanes at a time over the parent's lanes (zero past k) */
        const v4 tv = V4(t), tpv = V4(tp), atav = V4(ata), dtav = V4(dta), uv = V4(TREE_U), tiny = V4(0x1p-1000);
        v4 w14 = {0, 0, 0, 0}, ew4 = {0, 0, 0, 0}, ch4 = {0, 0, 0, 0};
        double w1, ew;
        for (int q4 = 0; q4 < nv; q4++) {
            const v4 ue = ((const v4 *)Ue)[q4], pu = ue * tv, ui = ((const v4 *)Ua)[q4] - pu;
            const v4 pw = tpv * ((const v4 *)We)[q4], wi = ((const v4 *)Wa)[q4] - pw;
            const v4 awi = (v4)((v4m)wi & absm);
            const v4 d = ((const v4 *)DUa)[q4] + (((const v4 *)DUe)[q4] * atav + (v4)((v4m)ue & absm) * dtav) +
                         uv * ((v4)((v4m)pu & absm) + (v4)((v4m)ui & absm)) + tiny;
            ((v4 *)u)[q4] = ui;
            ((v4 *)w)[q4] = wi;
            ((v4 *)du)[q4] = d;
            ch4 += d;
            w14 += awi;
            ew4 += (v4)((v4m)pw & absm) + awi;
        }
        w1 = (w14[0] + w14[1]) + (w14[2] + w14[3]);
        ew = (ew4[0] + ew4[1]) + (ew4[2] + ew4[3]);
        chk += (ch4[0] + ch4[1]) + (ch4[2] + ch4[3]);
        /* the lanes past k: u and w are zero already, du holds 2^-1000 */
        for (int l = k1; l < 4 * nv; l++) du[l] = 0;
        if (nv1 > nv) ((v4 *)u)[nv] = ((v4 *)du)[nv] = ((v4 *)w)[nv] = (v4){0, 0, 0, 0};
        u[k] = t;
        du[k] = dta;
        w[k] = tp;
        T->pw1[(L + 1) * r + q] = w1 + fabs(tp);
        T->pdw1[(L + 1) * r + q] = T->pdw1[L * r + q] + (atp * dw1e + dtp * w1e) + TREE_U * ew + dtp +
                                   (double)k1 * 0x1p-1000;
        chk += dta + T->pdw1[(L + 1) * r + q];
        tc[q] = t;
        at[q] = ata;
        dt[q] = dta;
    }
    /* Sigma': a non-finite entry has a non-finite radius, which every
     * reader refuses (tree_border, subtree_below_lo, derive_child) */
    for (int a = qe + 1; a < r; a++) {
        const double sae = Sc[(size_t)a * r + qe], rae = Sr[(size_t)a * r + qe];
        for (int b = qe + 1; b < r; b++) {
            const size_t ab = (size_t)a * r + b;
            const double pr = sae * tc[b], sc = Sc[ab] - pr;
            Scn[ab] = sc;
            Srn[ab] = Sr[ab] + (rae * at[b] + fabs(sae) * dt[b]) + TREE_U * (fabs(pr) + fabs(sc)) + 0x1p-1000;
        }
    }
    return isfinite(chk);
}

/* The subtree below level L (size k, anchor plus the inner indices in
 * `set`): children add inner[q] for q >= q0. */
static dvc_status tree_walk(tree_ctx *T, int L, int k, int q0, uint64_t set)
{
    int f = T->r - q0;
    if (L == 0) fill_cache(T, 0, k, 0, 0); /* the anchor's bordering vectors, from X */
    if (f >= 2 && f <= TEST_FMAX && subtree_below_lo(T, L, k, q0)) {
        T->acc->count += ((long)1 << f) - 1;
        T->acc->pruned += ((long)1 << f) - 1;
        return DVC_OK;
    }
    for (int q = q0; q < T->r; q++) {
        int p = T->inner[q];
        if (!tree_border(T, L, k, q, q + 1 == T->r)) {
            /* this child and its subtree by residuals */
            dvc_status st = dvc_bk_enum(T->K, set | (uint64_t)1 << p, T->inner + q + 1, T->r - q - 1, 0, T->acc);
            dvc_rnd_set(FE_UPWARD);
            if (st != DVC_OK) return st;
            continue;
        }
        if (q + 1 < T->r) {
            dvc_status st;
            if (!derive_child(T, L, k, q)) fill_cache(T, L + 1, k + 1, q + 1, 1); /* from the child's own X' */
            st = tree_walk(T, L + 1, k + 1, q + 1, set | (uint64_t)1 << p);
            if (st != DVC_OK) return st;
        }
    }
    return DVC_OK;
}

dvc_status dvc_bk_enum_tree(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree, int r,
                            dvc_bk_acc *acc)
{
    int no = nfree - (r > nfree ? nfree : r);
    return dvc_bk_enum_tree_range(K, base, freeidx, nfree, r, 0, no >= 0 && no < 64 ? (uint64_t)1 << no : 0, acc);
}

dvc_status dvc_bk_enum_tree_range(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree, int r,
                                  uint64_t t0, uint64_t t1, dvc_bk_acc *acc)
{
    dvc_bk_ws w;
    tree_ctx T;
    dvc_status st = DVC_OK;
    int ld = K->ld, no, saved;
    long next_tick = DVC_BK_TICK;
    if (r > nfree) r = nfree;
    if (r < 1) return dvc_bk_enum(K, base, freeidx, nfree, 0, acc);
    if (nfree > 40)
        return dvc_error(DVC_ERR_INPUT, "vertex enumeration over %d free indices refused (limit 40)", nfree);
    no = nfree - r;
    if (t1 > (uint64_t)1 << no) t1 = (uint64_t)1 << no;
    if (t0 >= t1) return DVC_OK;
    T.K = K;
    T.acc = acc;
    T.ld = ld;
    T.r = r;
    T.inner = freeidx + no;
    T.X = dvc_bk_alloc((size_t)(r + 1) * ld * ld);
    T.Y = dvc_bk_alloc((size_t)(r + 1) * ld * ld);
    T.rho = dvc_bk_alloc((size_t)(r + 1) * ld);
    T.rs = dvc_bk_alloc((size_t)(r + 1) * ld);
    T.b = dvc_bk_alloc((size_t)8 * ld);
    T.br = T.b + ld;
    T.c = T.b + 2 * ld;
    T.cr = T.b + 3 * ld;
    T.u = T.b + 4 * ld;
    T.du = T.b + 5 * ld;
    T.gu = T.b + 6 * ld;
    T.gn = T.b + 7 * ld;
    T.pcache = dvc_bk_alloc((size_t)(r + 1) * r * 5 * ld);
    T.pw1 = dvc_bk_alloc((size_t)(r + 1) * r * 2);
    T.pdw1 = T.pw1 + (r + 1) * r;
    T.Sc = dvc_bk_alloc((size_t)(r + 1) * r * r * 2);
    T.Sr = T.Sc + (size_t)(r + 1) * r * r;
    T.ord = malloc(sizeof(int) * (size_t)(K->m + 1));
    if (T.ord == NULL) abort();
    dvc_bk_ws_init(&w, K->m, ld);
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (int i = 0; i < K->m; i++)
        if (base >> i & 1) dvc_bk_add_index(K, &w, i);
    /* the anchor of Gray-code position t0, t0 ^ (t0 >> 1) */
    for (int b = 0; b < no; b++)
        if ((t0 ^ (t0 >> 1)) >> b & 1) dvc_bk_add_index(K, &w, freeidx[b]);
    w.stale = 1;
    for (uint64_t t = t0; t < t1; t++) {
        uint64_t set = base;
        if (t > t0) {
            int idx = freeidx[__builtin_ctzll(t)];
            if (w.pos[idx] < 0) dvc_bk_add_index(K, &w, idx);
            else dvc_bk_remove_index(&w, idx);
        }
        if (!dvc_bk_eval_vertex(K, &w, 0, acc)) {
            st = dvc_bk_vertex_fail(&w);
            goto done;
        }
        for (int a = 0; a < w.k; a++) set |= (uint64_t)1 << w.order[a];
        if (w.e_last >= 0 && w.k > 0) {
            /* the anchor: rho_i = ||X|| e / (1 - e) >= ||A^{-1} - X|| */
            double nx_up, nx_dn, tt;
            int k = w.k;
            dvc_bk_xnorm(k, ld, w.X, &nx_up, &nx_dn, w.rowneg);
            tt = nx_up * w.e_last / (-(w.e_last - 1.0));
            /* Y = X^T on the k x k block, zero past column k of its rows
             * (the four-lane products read them; no level-0 code reads the
             * rows past k) */
            for (int i = 0; i < k; i++) memset(T.Y + (size_t)i * ld + k, 0, sizeof(double) * (size_t)(ld - k));
            for (int i = 0; i < k; i++) {
                double s = 0;
                memcpy(T.X + (size_t)i * ld, w.X + (size_t)i * ld, sizeof(double) * (size_t)ld);
                for (int j = 0; j < k; j++) T.Y[(size_t)j * ld + i] = w.X[(size_t)i * ld + j];
                for (int j = 0; j < k; j++) s += fabs(w.X[(size_t)i * ld + j]);
                T.rs[i] = s;
                T.rho[i] = tt;
                T.ord[i] = w.order[i];
            }

            st = tree_walk(&T, 0, k, 0, set);
        } else {
            /* empty anchor or MPFI fallback: its subtree by residuals */
            st = dvc_bk_enum(K, set, T.inner, r, 0, acc);
            acc->count--; /* the anchor was counted above */
            dvc_rnd_set(FE_UPWARD);
        }
        if (st != DVC_OK) goto done;
        if (acc->stopped) break;
        if (acc->tick && acc->count >= next_tick) {
            next_tick = acc->count + DVC_BK_TICK;
            if (dvc_bk_tick(acc)) break;
        }
    }
done:
    dvc_rnd_restore(saved);
    dvc_bk_ws_clear(&w);
    free(T.X);
    free(T.Y);
    free(T.rho);
    free(T.rs);
    free(T.b);
    free(T.pcache);
    free(T.pw1);
    free(T.Sc);
    free(T.ord);
    return st;
}
