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


typedef struct {
    const dvc_bk_mat *K;
    dvc_bk_acc *acc;
    int ld, r;
    const int *inner;
    double *X;   /* (r + 1) levels of ld x ld */
    double *Y;   /* their transposes */
    double *rho; /* (r + 1) x ld */
    double *rs;  /* (r + 1) x ld: sums of |X_ij| over row i, rounded up */
    int *ord;    /* row / column i of every level: the index of M */
    double *b, *br, *c, *cr, *u, *du, *gu, *gn;
    /* subtree_below_lo's bordering vectors of level L, index inner[cache_q0[L] + a]:
     * u, du, w, c, cr at pcache + ((L SUB_FMAX + a) 5) ld, w1 and dw1 at
     * pw1, pdw1 [L SUB_FMAX + a]; cache_q0[L] = -1: none */
    double *pcache, *pw1, *pdw1;
    int *cache_q0;
} tree_ctx;

/* Upward sums of |P_lj| over the k rows l of P (stride ld), nv vectors of
 * four: out_j >= sum_l |P_lj| (a sum rounded up in any order bounds the
 * exact one from above). */
static inline void colsum_abs(int k, int ld, const double *P, double *out, int nv)
{
    typedef long long v4i __attribute__((vector_size(32), may_alias));
    const v4i mask = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    v4 *o = (v4 *)out;
    for (int q = 0; q < nv; q++) o[q] = (v4){0, 0, 0, 0};
    for (int l = 0; l < k; l++) {
        const v4 *pl = (const v4 *)(P + (size_t)l * ld);
        for (int q = 0; q < nv; q++) o[q] += (v4)((v4i)pl[q] & mask);
    }
}

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
        br[l] = K->Mr[(size_t)o * ld + p];
        c[l] = K->Mc[(size_t)p * ld + o];
        cr[l] = K->Mr[(size_t)p * ld + o];
        if (fabs(b[l]) > bn) bn = fabs(b[l]);
        if (br[l] > brn) brn = br[l];
    }
    /* u ~ A^{-1} b: u = b^T Y = X b in floating point, |X b - u|_i <=
     * gam sum_l |X_il b_l| <= gam rs_i |b|; |U_i - u_i| <= du_i */
    vecmat(k, ld, b, Y, u, nv);
    for (int i = 0; i < k; i++) du[i] = gam * rs[i] * bn + rho[i] * bn + (rs[i] + rho[i]) * brn + 0x1p-1000;
    /* w ~ c^T A^{-1}: w = c^T X in floating point; sum_j |W_j - w_j| <= dw1 */
    vecmat(k, ld, c, X, w, nv);
    for (int j = 0; j < k; j++) w1 += fabs(w[j]);
    for (int i = 0; i < k; i++) dw1 += fabs(c[i]) * (gam * rs[i] + rho[i]) + cr[i] * (rs[i] + rho[i]);
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
static int leaf_below_lo(tree_ctx *T, int k, const double *rho, const double *rs, const double *du, double v1,
                         double dv1, double sig, double dsig, double asig)
{
    const double lo = T->acc->beta_lo, vs = v1 + fabs(sig);
    const double *u = T->u;
    double h = vs + (dv1 + dsig), best = h; /* the new row: -v^T, sig */
    if (!(lo > 0) || !(h <= lo)) return 0;
    for (int i = 0; i < k; i++) {
        double ui = fabs(u[i]), rc = (rs[i] + ui * vs) * (1 + 0x1p-50) + 0x1p-990;
        h = rc + (rho[i] + du[i] * (v1 + dv1) + ui * dv1 + du[i] * asig + ui * dsig + 2 * TREE_U * ui * v1 +
                  2 * TREE_U * rc + 0x1p-1000);
        if (!(h <= lo)) return 0;
        if (h > best) best = h;
    }
    dvc_bk_acc_max(&T->acc->beta_hi, best);
    return 1;
}

/* FE_UPWARD active. Level L (size k) bordered with index p into level L + 1.
 * X and its transpose Y are both kept (each product below then runs along
 * rows, four lanes at a time); they are updated by the same operations, so
 * Y stays exactly the transpose of X. 0 when the Schur complement is not
 * proven nonzero or the bounds are not finite or not sharp enough (the
 * caller then takes the residual route). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* The four-lane code in 256-bit registers where the CPU has them (the same
 * operations, no contraction: the same results as the default clone). */
__attribute__((target_clones("avx2", "default")))
#endif
static int tree_border(tree_ctx *T, int L, int k, int q, int leaf)
{
    const dvc_bk_mat *K = T->K;
    int ld = T->ld, nv = nvec(k), nv1 = nvec(k + 1);
    size_t sq = (size_t)ld * ld;
    const double *X = T->X + (size_t)L * sq, *Y = T->Y + (size_t)L * sq, *rho = T->rho + (size_t)L * ld;
    const double *rs = T->rs + (size_t)L * ld;
    double *Xn = T->X + (size_t)(L + 1) * sq, *Yn = T->Y + (size_t)(L + 1) * sq, *rhon = T->rho + (size_t)(L + 1) * ld;
    double *rsn = T->rs + (size_t)(L + 1) * ld;
    const int p = T->inner[q];
    double *c = T->c, *cr = T->cr, *u = T->u, *du = T->du, *gu = T->gu;
    double dw1 = 0, w1 = 0, shi, sneg, delta, Slo, Shi, sm, sig, slo_inv, shi_inv, dsig,
           v1 = 0, dv1, asig, best = 0, bestlo = 0, rmax = 0;
    const double ac = K->Mc[(size_t)p * ld + p], ar = K->Mr[(size_t)p * ld + p];
    if (T->cache_q0[L] >= 0 && q >= T->cache_q0[L]) {
        /* computed by subtree_below_lo at this node, by the same operations */
        const int a = L * SUB_FMAX + q - T->cache_q0[L];
        const double *cc = T->pcache + (size_t)a * 5 * ld;
        memcpy(u, cc, sizeof(double) * (size_t)(4 * nv));
        memcpy(du, cc + ld, sizeof(double) * (size_t)k);
        memcpy(gu, cc + 2 * ld, sizeof(double) * (size_t)(4 * nv));
        memcpy(c, cc + 3 * ld, sizeof(double) * (size_t)k);
        memcpy(cr, cc + 4 * ld, sizeof(double) * (size_t)k);
        w1 = T->pw1[a];
        dw1 = T->pdw1[a];
    } else
        border_uw(T, X, Y, rho, rs, k, p, u, du, gu, c, cr, &w1, &dw1);
    /* S = a - c^T A^{-1} b in [Slo, Shi] */
    shi = ac;
    sneg = -ac;
    delta = ar;
    for (int l = 0; l < k; l++) {
        shi += (-c[l]) * u[l];
        sneg += c[l] * u[l];
        delta += cr[l] * (fabs(u[l]) + du[l]) + fabs(c[l]) * du[l];
    }
    Shi = shi + delta;
    Slo = -(sneg + delta);
    if (!(Slo > 0) && !(Shi < 0)) return 0;
    sm = 0.5 * Shi - 0.5 * (sneg + delta); /* about the midpoint */
    sig = 1.0 / sm;
    slo_inv = -((-1.0) / Shi); /* 1/S >= this */
    shi_inv = 1.0 / Slo;       /* 1/S <= this */
    dsig = fmax(shi_inv - sig, sig - slo_inv);
    asig = fabs(sig) + dsig;
    /* v = w sig (rounded: error < TREE_U |v_j|); sum_j |W_j / S - v_j| <= dv1 */
    for (int j = 0; j < k; j++) {
        gu[j] = gu[j] * sig;
        v1 += fabs(gu[j]);
    }
    for (int j = k; j < 4 * nv1; j++) gu[j] = 0;
    for (int i = k; i < 4 * nv1; i++) u[i] = 0;
    dv1 = w1 * dsig + dw1 * asig + TREE_U * v1 + 0x1p-1000;
    if (!isfinite(dv1) || !isfinite(asig)) return 0;
    if (leaf && leaf_below_lo(T, k, rho, rs, du, v1, dv1, sig, dsig, asig)) {
        T->acc->count++;
        return 1;
    }
    if (leaf) {
        /* no children: only the row sums of |X'| */
        typedef long long v4i __attribute__((vector_size(32), may_alias));
        const v4i mask = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL,
                          0x7fffffffffffffffLL};
        const v4 *v4v = (const v4 *)gu;
        for (int i = 0; i < k; i++) {
            const v4 *xi = (const v4 *)(X + (size_t)i * ld);
            double ui = u[i];
            v4 uv = {ui, ui, ui, ui}, s4 = {0, 0, 0, 0};
            for (int q = 0; q < nv; q++) s4 += (v4)((v4i)(xi[q] + uv * v4v[q]) & mask);
            rsn[i] = ((s4[0] + s4[1]) + (s4[2] + s4[3])) + fabs(ui * sig);
        }
        rsn[k] = v1 + fabs(sig);
    } else {
        /* X' = [[X + u v^T, -u sig], [-v^T, sig]], Y' its transpose */
        for (int i = 0; i < k; i++) {
            const v4 *xi = (const v4 *)(X + (size_t)i * ld), *yi = (const v4 *)(Y + (size_t)i * ld);
            v4 *xn = (v4 *)(Xn + (size_t)i * ld), *yn = (v4 *)(Yn + (size_t)i * ld);
            double ui = u[i], vi = gu[i];
            v4 uv = {ui, ui, ui, ui}, vv = {vi, vi, vi, vi};
            const v4 *v4v = (const v4 *)gu, *v4u = (const v4 *)u;
            for (int q = 0; q < nv; q++) {
                xn[q] = xi[q] + uv * v4v[q];
                yn[q] = yi[q] + vv * v4u[q];
            }
            for (int j = 4 * nv; j < 4 * nv1; j++) Xn[(size_t)i * ld + j] = Yn[(size_t)i * ld + j] = 0;
            Xn[(size_t)i * ld + k] = -(ui * sig);
            Yn[(size_t)i * ld + k] = -vi;
        }
        {
            double *xk = Xn + (size_t)k * ld, *yk = Yn + (size_t)k * ld;
            for (int j = 0; j < k; j++) {
                xk[j] = -gu[j];
                yk[j] = -(u[j] * sig);
            }
            xk[k] = yk[k] = sig;
            for (int j = k + 1; j < 4 * nv1; j++) xk[j] = yk[j] = 0;
        }
        colsum_abs(k + 1, ld, Yn, rsn, nv1); /* row sums of |X'| */
    }
    for (int i = 0; i < k; i++) {
        double ui = fabs(u[i]);
        /* the old error, the error of u v^T and of -u sig, the roundings of
         * the products u_i v_j (no fused multiply-add) and of the sums */
        rhon[i] = rho[i] + du[i] * (v1 + dv1) + ui * dv1 + du[i] * asig + ui * dsig + 2 * TREE_U * ui * v1 +
                  2 * TREE_U * rsn[i] + 0x1p-1000;
    }
    rhon[k] = dv1 + dsig;
    T->ord[k] = p;
    for (int i = 0; i <= k; i++) {
        double h = rsn[i] + rhon[i];
        if (!(h <= best)) {
            best = h;
            /* row sum of |A^{-1}| >= rs (1 - (k + 3) u) - rho; rs summed up */
            bestlo = -(rhon[i] + rsn[i] * ((double)(k + 4) * TREE_U) - rsn[i]);
        }
        if (rhon[i] > rmax) rmax = rhon[i];
    }
    /* Far from the predictor the residual route is sharper: taken when this
     * vertex could raise the upper bound above the lower one (or when the
     * bounds of the subtree would degrade). */
    if (!isfinite(best) || !(rmax <= 1e-6 * best) || (!(rmax <= 1e-12 * best) && !(best <= T->acc->beta_lo)))
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
    const dvc_bk_mat *K = T->K;
    const int ld = T->ld, nv = nvec(k), f = T->r - q0;
    const size_t sq = (size_t)ld * ld, st = (size_t)5 * ld;
    const double *X = T->X + (size_t)L * sq, *Y = T->Y + (size_t)L * sq, *rho = T->rho + (size_t)L * ld;
    const double *rs = T->rs + (size_t)L * ld;
    const double lo = T->acc->beta_lo;
    double *U = T->pcache + (size_t)L * SUB_FMAX * st, *DU = U + ld, *C = U + 3 * ld, *CR = U + 4 * ld;
    double *dumax = T->gn, *uall = T->du;
    v4 base[16]; /* m <= 64 */
    double cw[SUB_FMAX], Sc[SUB_FMAX][SUB_FMAX], Sr[SUB_FMAX][SUB_FMAX], best = 0;
    int pidx[SUB_FMAX];
    dvc_bk_sub_node N;
    const v4m absmask = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    T->cache_q0[L] = -1;
    if (!(lo > 0)) return 0;
    for (int i = 0; i < k; i++) /* the node itself is part of every descendant's rows */
        if (!(rs[i] + rho[i] <= lo)) return 0;
    for (int a = 0; a < f; a++) {
        /* u ~ A^{-1} b, |U - u|_i <= du_i; w ~ c^T A^{-1}, ||W||_1 <= w1 + dw1;
         * kept for the children's bordering */
        double *w1 = T->pw1 + L * SUB_FMAX + a, *dw1 = T->pdw1 + L * SUB_FMAX + a;
        pidx[a] = T->inner[q0 + a];
        border_uw(T, X, Y, rho, rs, k, pidx[a], U + a * st, DU + a * st, U + a * st + 2 * ld, C + a * st,
                  CR + a * st, w1, dw1);
        cw[a] = *w1 + *dw1 + 1;
        if (!isfinite(cw[a])) return 0;
        for (int l = k; l < 4 * nv; l++) /* zero lanes for the four-lane sums below */
            U[a * st + l] = DU[a * st + l] = C[a * st + l] = CR[a * st + l] = 0;
    }
    T->cache_q0[L] = q0;
    {
        N.U = U;
        N.DU = DU;
        N.X = X;
        N.rho = rho;
        N.rs = rs;
        N.w1 = T->pw1 + L * SUB_FMAX;
        N.dw1 = T->pdw1 + L * SUB_FMAX;
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
    /* Sigma_ab = m_{p_a p_b} - c_a^T A^{-1} b_b in [slo, shi], as S in tree_border */
    for (int a = 0; a < f; a++)
        for (int e = 0; e < f; e++) {
            const v4 *c = (const v4 *)(C + a * st), *cr = (const v4 *)(CR + a * st), *u = (const v4 *)(U + e * st),
                     *du = (const v4 *)(DU + e * st);
            double ac = K->Mc[(size_t)pidx[a] * ld + pidx[e]], shi, sneg, delta, slo, sm;
            v4 h4 = {0, 0, 0, 0}, n4 = {0, 0, 0, 0}, d4 = {0, 0, 0, 0};
            /* four lanes of upward partial sums, each >= its exact sum, then
             * added upward */
            for (int q = 0; q < nv; q++) {
                h4 += (-c[q]) * u[q];
                n4 += c[q] * u[q];
                d4 += cr[q] * ((v4)((v4m)u[q] & absmask) + du[q]) + (v4)((v4m)c[q] & absmask) * du[q];
            }
            shi = ac + ((h4[0] + h4[1]) + (h4[2] + h4[3]));
            sneg = -ac + ((n4[0] + n4[1]) + (n4[2] + n4[3]));
            delta = K->Mr[(size_t)pidx[a] * ld + pidx[e]] + ((d4[0] + d4[1]) + (d4[2] + d4[3]));
            shi = shi + delta;
            slo = -(sneg + delta);
            sm = 0.5 * shi + 0.5 * slo;
            Sc[a][e] = sm;
            Sr[a][e] = maxn(shi - sm, sm - slo);
            if (!isfinite(Sr[a][e])) return 0;
        }
    /* every nonempty subset S of F: Zt ~ (Sigma_SS)^{-1} with every
     * |Z_ab - Zt_ab| <= rz_a for every Sigma' in the box, and the rows */
    if (!dvc_bk_subsets_below_lo(f, Sc, Sr, cw, lo, U, st, nv, base, dumax, uall, &best, &N)) return 0;
    dvc_bk_acc_max(&T->acc->beta_hi, best);
    return 1;
}

/* The subtree below level L (size k, anchor plus the inner indices in
 * `set`): children add inner[q] for q >= q0. */
static dvc_status tree_walk(tree_ctx *T, int L, int k, int q0, uint64_t set)
{
    int f = T->r - q0;
    T->cache_q0[L] = -1;
    if (f >= 2 && f <= SUB_FMAX && subtree_below_lo(T, L, k, q0)) {
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
            dvc_status st = tree_walk(T, L + 1, k + 1, q + 1, set | (uint64_t)1 << p);
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
    T.pcache = dvc_bk_alloc((size_t)(r + 1) * SUB_FMAX * 5 * ld);
    T.pw1 = dvc_bk_alloc((size_t)(r + 1) * SUB_FMAX * 2);
    T.pdw1 = T.pw1 + (r + 1) * SUB_FMAX;
    T.cache_q0 = malloc(sizeof(int) * (size_t)(r + 1));
    if (T.cache_q0 == NULL) abort();
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
    free(T.cache_q0);
    free(T.ord);
    return st;
}
