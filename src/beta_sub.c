/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The per-subset work of the subtree test of the bordering enumeration
 * (subtree_below_lo in src/beta_tree.c): for every subset S of the few
 * remaining inner indices F of a node, a predictor of the inverse of the
 * Schur complement's block Sigma_SS with rigorous error bounds, bordered
 * from S minus one index (four children of a subset at a time), and the
 * bounds of every row of (M_{J+S})^{-1} (docs/beta.md section 5, "Subtrees
 * that cannot matter" and "Organisation of the subsets"). */
#include <math.h>
#include <string.h>

#include "beta_sub.h"

/* FE_UPWARD active. A tighter bound of row i of J of (M_{J+S})^{-1}, the
 * row A^{-1}_i + (U Z)_i W on J and -(U Z)_i on S, for a row whose cheaper
 * bound (subset_rows_level) failed; O(k s). g_b = fl(sum_a u_ia Zt_ab) with
 * |(U Z)_ib - g_b| <= e_b = gs sum_a |u_ia| |Zt_ab| + sum_a du_ia (|Zt_ab| +
 * rz_a) + sum_a |u_ia| rz_a + s 2^-1000; y_j = fl(x_ij + sum_b g_b w_bj)
 * within gy (|x_ij| + sum_b |g_b w_bj|) + (s + 1) 2^-1000 of the exact
 * value of those operands (gy = (s + 2) 2^-52 >= gamma_{s+1}); then
 *   row <= sum_j |y_j| + gy (rs_i + sum_b |g_b| w1_b) + rho_i
 *          + sum_b [e_b (w1_b + dw1_b) + |g_b| dw1_b] + sum_b (|g_b| + e_b)
 *          + k (s + 1) 2^-1000,
 * since |A^{-1}_i - x_i|_1 <= rho_i and |(U Z)_ib W_b - g_b w_b|_1 <=
 * |(U Z)_ib - g_b| ||W_b||_1 + |g_b| ||W_b - w_b||_1 (docs/beta.md
 * section 5, "Subtrees that cannot matter"). */
__attribute__((always_inline)) static inline double row_tight(const dvc_bk_sub_node *N, const int s, const int *id,
                                                             const double Zt[SUB_FMAX][SUB_FMAX], const double *rz,
                                                             int i)
{
    typedef long long v4i __attribute__((vector_size(32), may_alias));
    const double gs = (double)(s + 1) * TREE_U, gy = (double)(s + 2) * TREE_U;
    const v4 *x = (const v4 *)(N->X + (size_t)i * N->ld), *w[SUB_FMAX];
    const int nv = nvec(N->k);
    double g[SUB_FMAX], e[SUB_FMAX], tail = 0, gw = 0;
    v4 sy4 = {0, 0, 0, 0};
    for (int b = 0; b < s; b++) {
        double gb = 0, ga = 0, eb = 0;
        for (int a = 0; a < s; a++) {
            double ua = N->U[(size_t)id[a] * N->st + (size_t)i], z = Zt[a][b];
            gb += ua * z;
            ga += fabs(ua) * fabs(z);
            eb += N->DU[(size_t)id[a] * N->st + (size_t)i] * (fabs(z) + rz[a]) + fabs(ua) * rz[a];
        }
        g[b] = gb;
        e[b] = gs * ga + eb + (double)s * 0x1p-1000;
        w[b] = (const v4 *)(N->U + (size_t)id[b] * N->st + 2 * N->ld);
    }
    /* y_j four at a time; the lanes past k (whatever X and w hold there)
     * masked out of the sum of |y_j| */
    for (int q = 0; q < nv; q++) {
        v4 y = x[q];
        v4i keep;
        for (int b = 0; b < s; b++) y += (v4){g[b], g[b], g[b], g[b]} * w[b][q];
        keep = (v4i)((v4){(double)(4 * q), (double)(4 * q + 1), (double)(4 * q + 2), (double)(4 * q + 3)} <
                     (double)N->k);
        sy4 += (v4)((v4i)y & keep & (v4i){0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL,
                                            0x7fffffffffffffffLL});
    }
    for (int b = 0; b < s; b++) {
        double w1 = N->w1[id[b]], dw1 = N->dw1[id[b]], ag = fabs(g[b]);
        gw += ag * w1;
        tail += e[b] * (w1 + dw1) + ag * dw1 + (ag + e[b]);
    }
    return ((sy4[0] + sy4[1]) + (sy4[2] + sy4[3])) +
           (gy * (N->rs[i] + gw) + (N->rho[i] + (tail + (double)N->k * (double)(s + 1) * 0x1p-1000)));
}

/* Four lanes, one per index p of F: the small bordering steps below take
 * the children S + {p} of a subset S four at a time, each lane the
 * operations of one step (generic vectors: the same operations, so the
 * same results, in every clone). Unaligned four-lane loads and stores;
 * macros, as a function returning a vector has no fixed ABI across the
 * clones: |x|; max(a, b) per lane, NaN if either is NaN; x in every lane. */
typedef double v4u __attribute__((vector_size(32), aligned(8), may_alias));
/* the loops over the (constant) sizes fully unrolled */
#define PRAGMA_UNROLL _Pragma("GCC unroll 8")
#define V4ABSMASK 0x7fffffffffffffffLL
#define v4abs(x) ((v4)((v4m)(x) & (v4m){V4ABSMASK, V4ABSMASK, V4ABSMASK, V4ABSMASK}))
#define v4sel(m, a, b) ((v4)(((v4m)(a) & (m)) | ((v4m)(b) & ~(m))))
#define v4maxn(a, b) v4sel((v4m)((a) > (b)) | (v4m)((a) != (a)), (a), (b))
#define v4set(x) ((v4){(x), (x), (x), (x)})
#define v4any(m) (((m)[0] | (m)[1] | (m)[2] | (m)[3]) != 0)

/* lanes of the per-index arrays: f <= 6 indices, a batch of four from
 * any p < f */
#define SUB_LW 12
_Static_assert(SUB_FMAX + 3 <= SUB_LW, "a batch of four lanes from any index of F");

/* The Schur complement's box by lanes p: Rc[a] = row a (Sigma_ap),
 * Cc[a] = column a (Sigma_pa), Dc = the diagonal (Sigma_pp); centres and
 * radii (r); cw per lane; zero past f. */
typedef struct {
    double Rc[SUB_FMAX][SUB_LW], Rr[SUB_FMAX][SUB_LW], Cc[SUB_FMAX][SUB_LW], Cr[SUB_FMAX][SUB_LW];
    double Dc[SUB_LW], Dr[SUB_LW], cw[SUB_LW];
} sub_box;
#define BL(x) (*(const v4u *)(x)) /* four lanes from x */

/* Storage of the subsets of F: the children S + {p} of a subset S (bit
 * mask, highest index below f - 1) are formed together and kept at lane p:
 * entry (i, j) of the predictor Zt of S + {p} at Z[(zo[S] + i (s + 1) + j)
 * SUB_LW + p], its rz_i and row sums rs_i at rz, rs[(ro[S] + i) SUB_LW + p]
 * (s = |S|). SUB_ZN, SUB_RN: the sums over the subsets S of F minus one
 * index of (|S| + 1)^2 and of |S| + 1, for f = 6. */
#define SUB_ZN 432
#define SUB_RN 112
_Static_assert(SUB_FMAX <= 6, "SUB_ZN and SUB_RN are sized for f <= 6");
typedef struct {
    double Z[SUB_ZN * SUB_LW], rz[SUB_RN * SUB_LW], rs[SUB_RN * SUB_LW];
    short zo[1u << (SUB_FMAX - 1)], ro[1u << (SUB_FMAX - 1)];
    int zn, rn;
    v4 best, tmax, rmax; /* per lane: the largest row bound of S, T_S and R_S so far */
} sub_work;

/* FE_UPWARD active. The small bordering steps from a subset P of F (size
 * ps, a constant per call site; positions id[0..ps), highest hb, -1 for
 * the empty set) to its children P + {p}, p = p0..p0+3 (those with
 * hb < p < f), one per lane: each lane is the step of tree_border
 * (docs/beta.md section 5, "One step") applied to the mid-rad box
 * [Sc - Sr, Sc + Sr] that contains Sigma for every M in [M]: from the
 * predictor Z of Sigma_{PP}^{-1} with rs_i >= sum_j |Z_ij| and
 * rho_i >= sum_j |(Sigma'_{PP}^{-1} - Z)_ij| for every Sigma' in the box to
 * the same three for P + {p}, p appended last: O(s^2). Then the rows of
 * S = P + {p}, sum_a |Z_ba| cw_a <= t_b + rz_b cwmax with
 * t_b = sum_a |Zt_ba| cw_a, and for the rows of J the sums T_S = sum_b t_b
 * and R_S = (sum_b rz_b)(sum_{b in S} cw_b) (subsets_below_lo). 0 when a
 * new Schur complement is not proven nonzero, a bound is not finite or a
 * row is above lo. */
__attribute__((always_inline)) static inline int small_border_lanes(const int ps, const int *id, int p0, int f,
                                                                     const double Z[SUB_FMAX][SUB_FMAX],
                                                                     const double *rho, const double *rs,
                                                                     const sub_box *B, double cwmax, double lo,
                                                                     const double *cw, int zo, int ro, sub_work *W)
{
    const double gam = (double)(ps + 1) * TREE_U; /* gamma_ps of a ps-term dot product */
    const int s = ps + 1;
    v4 u[SUB_FMAX], du[SUB_FMAX], v[SUB_FMAX], bn = v4set(0.0), brn = v4set(0.0), w1 = v4set(0.0),
                                               dw1 = v4set(0.0), v1 = v4set(0.0), shi, sneg, delta, Slo, Shi, sm,
                                               sig, dsig, asig, dv1, fdu, fu, fin = v4set(0.0), T = v4set(0.0),
                                               rzs = v4set(0.0), cws, bv = v4set(0.0), rn[SUB_FMAX + 1];
    v4m valid, bad;
    {
        const v4 lane = {(double)p0, (double)(p0 + 1), (double)(p0 + 2), (double)(p0 + 3)};
        valid = (v4m)(lane < (double)f);
    }
    PRAGMA_UNROLL
    for (int l = 0; l < ps; l++) {
        bn = v4maxn(bn, v4abs(BL(&B->Rc[id[l]][p0])));
        brn = v4maxn(brn, BL(&B->Rr[id[l]][p0]));
    }
    /* u = fl(Z b), |U - u|_i <= du_i; w = fl(c^T Z), sum_j |W_j - w_j| <= dw1 */
    PRAGMA_UNROLL
    for (int i = 0; i < ps; i++) {
        v4 ui = v4set(0.0);
        PRAGMA_UNROLL
        for (int l = 0; l < ps; l++) ui += Z[i][l] * BL(&B->Rc[id[l]][p0]);
        u[i] = ui;
        /* (gam rs_i + rho_i) bn >= gam rs_i bn + rho_i bn, all >= 0 and
         * rounded up */
        du[i] = (gam * rs[i] + rho[i]) * bn + (rs[i] + rho[i]) * brn + 0x1p-1000;
        dw1 += v4abs(BL(&B->Cc[id[i]][p0])) * (gam * rs[i] + rho[i]) + BL(&B->Cr[id[i]][p0]) * (rs[i] + rho[i]);
    }
    dw1 += 0x1p-1000;
    PRAGMA_UNROLL
    for (int j = 0; j < ps; j++) {
        v4 wj = v4set(0.0);
        PRAGMA_UNROLL
        for (int l = 0; l < ps; l++) wj += BL(&B->Cc[id[l]][p0]) * Z[l][j];
        v[j] = wj;
        w1 += v4abs(wj);
    }
    /* the new Schur complement a - c^T U in [Slo, Shi] */
    shi = BL(&B->Dc[p0]);
    sneg = -shi;
    delta = BL(&B->Dr[p0]);
    PRAGMA_UNROLL
    for (int l = 0; l < ps; l++) {
        v4 c = BL(&B->Cc[id[l]][p0]);
        shi += (-c) * u[l];
        sneg += c * u[l];
        delta += BL(&B->Cr[id[l]][p0]) * (v4abs(u[l]) + du[l]) + v4abs(c) * du[l];
    }
    Shi = shi + delta;
    Slo = -(sneg + delta);
    /* failures are collected in bad and tested once at the end (a lane
     * that failed only computes more garbage) */
    bad = valid & ~((v4m)(Slo > 0) | (v4m)(Shi < 0));
    sm = 0.5 * Shi - 0.5 * (sneg + delta);
    sig = 1.0 / sm;
    dsig = v4maxn(1.0 / Slo - sig, sig - (-((-1.0) / Shi)));
    asig = v4abs(sig) + dsig;
    PRAGMA_UNROLL
    for (int j = 0; j < ps; j++) {
        v[j] = v[j] * sig;
        v1 += v4abs(v[j]);
    }
    dv1 = w1 * dsig + dw1 * asig + TREE_U * v1 + 0x1p-1000;
    /* the factors of du_i and |u_i| in rho'_i: du_i (v1 + dv1) + du_i asig
     * <= du_i fl(v1 + dv1 + asig) and |u_i| dv1 + |u_i| dsig + 2^-51 |u_i| v1
     * <= |u_i| fl(dv1 + dsig + 2^-51 v1) (nonnegative, rounded up) */
    fdu = v1 + dv1 + asig;
    fu = dv1 + dsig + 2 * TREE_U * v1;
    /* Z' = [[Z + u v^T, -u sig], [-v^T, sig]], products and sums rounded
     * separately (no contraction), stored at lane p for the child P + {p};
     * then the rows of P + {p} */
    cws = BL(&B->cw[p0]);
    PRAGMA_UNROLL
    for (int a = 0; a < ps; a++) cws += cw[id[a]];
    PRAGMA_UNROLL
    for (int i = 0; i <= ps; i++) {
        v4 zr[SUB_FMAX + 1], ri = v4set(0.0), t, h;
        if (i < ps) {
            const v4 ui = v4abs(u[i]);
            PRAGMA_UNROLL
            for (int j = 0; j < ps; j++) zr[j] = Z[i][j] + u[i] * v[j];
            zr[ps] = -(u[i] * sig);
            PRAGMA_UNROLL
            for (int j = 0; j <= ps; j++) ri += v4abs(zr[j]);
            rn[i] = rho[i] + du[i] * fdu + ui * fu + 2 * TREE_U * ri + 0x1p-1000;
        } else {
            PRAGMA_UNROLL
            for (int j = 0; j < ps; j++) zr[j] = -v[j];
            zr[ps] = sig;
            ri = v1 + v4abs(sig);
            rn[ps] = dv1 + dsig;
        }
        PRAGMA_UNROLL
        for (int j = 0; j <= ps; j++) *(v4u *)&W->Z[(zo + i * s + j) * SUB_LW + p0] = zr[j];
        *(v4u *)&W->rz[(ro + i) * SUB_LW + p0] = rn[i];
        *(v4u *)&W->rs[(ro + i) * SUB_LW + p0] = ri;
        /* every bound finite: they are >= 0 or NaN, so their sum is
         * finite exactly when each is */
        fin += rn[i] + ri;
        t = v4abs(zr[ps]) * BL(&B->cw[p0]);
        PRAGMA_UNROLL
        for (int a = 0; a < ps; a++) t += v4abs(zr[a]) * cw[id[a]];
        h = t + rn[i] * cwmax;
        bad |= valid & ~(v4m)(h <= lo);
        bv = v4maxn(bv, v4sel(valid, h, v4set(0.0)));
        T += t;
        rzs += rn[i];
    }
    bad |= valid & ~(v4m)(fin < 1.0 / 0.0);
    if (v4any(bad)) return 0;
    W->best = v4maxn(W->best, bv);
    W->tmax = v4maxn(W->tmax, v4sel(valid, T, v4set(0.0)));
    W->rmax = v4maxn(W->rmax, v4sel(valid, rzs * cws, v4set(0.0)));
    return 1;
}

/* The next mask after S with as many bits set (increasing order, Gosper's
 * rule without a division). */
static inline unsigned next_subset(unsigned S)
{
    const unsigned c = S & -S, r = S + c;
    return (((r ^ S) >> 2) >> __builtin_ctz(c)) | r;
}

/* small_border_lanes for every subset P of size ps (a constant per call
 * site) with a child, in increasing mask order (P's parent, of size
 * ps - 1, is done before), four children at a time. */
__attribute__((always_inline)) static inline int border_level(const int ps, int f, const sub_box *B, double cwmax,
                                                              double lo, const double *cw, sub_work *W)
{
    unsigned P = (1u << ps) - 1;
    do {
        double Z[SUB_FMAX][SUB_FMAX], rho[SUB_FMAX], rs[SUB_FMAX];
        int id[SUB_FMAX], hb = -1, zo = W->zn, ro = W->rn;
        unsigned x = P;
        PRAGMA_UNROLL
        for (int a = 0; a < ps; a++) {
            id[a] = __builtin_ctz(x);
            x &= x - 1;
        }
        if (ps > 0) {
            /* P's own predictor: lane hb of its parent's children */
            const unsigned PP = P ^ (1u << id[ps - 1]);
            hb = id[ps - 1];
            PRAGMA_UNROLL
            for (int i = 0; i < ps; i++) {
                PRAGMA_UNROLL
                for (int l = 0; l < ps; l++) Z[i][l] = W->Z[(W->zo[PP] + i * ps + l) * SUB_LW + hb];
                rho[i] = W->rz[(W->ro[PP] + i) * SUB_LW + hb];
                rs[i] = W->rs[(W->ro[PP] + i) * SUB_LW + hb];
            }
        }
        for (int p0 = hb + 1; p0 < f; p0 += 4)
            if (!small_border_lanes(ps, id, p0, f, (const double(*)[SUB_FMAX])Z, rho, rs, B, cwmax, lo, cw, zo, ro,
                                    W))
                return 0;
        W->zo[P] = (short)zo;
        W->ro[P] = (short)ro;
        W->zn += (ps + 1) * (ps + 1);
        W->rn += ps + 1;
        if (ps == 0) break;
        P = next_subset(P);
    } while (P < (1u << (f - 1)));
    return 1;
}

/* Four rows (q) of the rows of J of J + S (subset_rows_level):
 * h = base + sum_{j in S} cw_j |g_j|, g_j = sum_a u_a Zt_aj. */
__attribute__((always_inline)) static inline void rows_h(const int s, int q, const v4 *const *ua, const double *Zl,
                                                         const double *cj, const v4 *base, v4 *hp)
{
    v4 hv = {0, 0, 0, 0};
    PRAGMA_UNROLL
    for (int j = 0; j < s; j++) {
        v4 g = {0, 0, 0, 0};
        PRAGMA_UNROLL
        for (int a = 0; a < s; a++) {
            const double z = Zl[(a * s + j) * SUB_LW];
            g += ua[a][q] * (v4){z, z, z, z};
        }
        hv += (v4){cj[j], cj[j], cj[j], cj[j]} * v4abs(g);
    }
    *hp = base[q] + hv;
}

/* rows_h for every group q < nv (a constant per call site: every entry of
 * Zt loaded once, the groups unrolled; per lane the same operations in the
 * same order), the largest into *bv, the failures (h > lo or NaN) into
 * *bad. */
__attribute__((always_inline)) static inline void rows_all_nv(const int s, const int nv, const v4 *const *ua,
                                                              const double *Zl, const double *cj, const v4 *base,
                                                              const v4 *lov, v4 *bv, v4m *bad)
{
    v4 hv[6]; /* nv <= 6 */
    PRAGMA_UNROLL
    for (int q = 0; q < nv; q++) hv[q] = (v4){0, 0, 0, 0};
    PRAGMA_UNROLL
    for (int j = 0; j < s; j++) {
        v4 g[6];
        PRAGMA_UNROLL
        for (int q = 0; q < nv; q++) g[q] = (v4){0, 0, 0, 0};
        PRAGMA_UNROLL
        for (int a = 0; a < s; a++) {
            const double z = Zl[(a * s + j) * SUB_LW];
            const v4 zv = {z, z, z, z};
            PRAGMA_UNROLL
            for (int q = 0; q < nv; q++) g[q] += ua[a][q] * zv;
        }
        PRAGMA_UNROLL
        for (int q = 0; q < nv; q++) hv[q] += (v4){cj[j], cj[j], cj[j], cj[j]} * v4abs(g[q]);
    }
    PRAGMA_UNROLL
    for (int q = 0; q < nv; q++) {
        const v4 h = base[q] + hv[q];
        *bad |= ~(v4m)(h <= *lov); /* true for NaN */
        *bv = v4sel((v4m)(h > *bv), h, *bv);
    }
}

__attribute__((always_inline)) static inline void rows_all(const int s, int nv, const v4 *const *ua, const double *Zl,
                                                           const double *cj, const v4 *base, const v4 *lov, v4 *bv,
                                                           v4m *bad)
{
    switch (nv) {
    case 1: rows_all_nv(s, 1, ua, Zl, cj, base, lov, bv, bad); return;
    case 2: rows_all_nv(s, 2, ua, Zl, cj, base, lov, bv, bad); return;
    case 3: rows_all_nv(s, 3, ua, Zl, cj, base, lov, bv, bad); return;
    case 4: rows_all_nv(s, 4, ua, Zl, cj, base, lov, bv, bad); return;
    case 5: rows_all_nv(s, 5, ua, Zl, cj, base, lov, bv, bad); return;
    case 6: rows_all_nv(s, 6, ua, Zl, cj, base, lov, bv, bad); return;
    default:
        for (int q = 0; q < nv; q++) {
            v4 h;
            rows_h(s, q, ua, Zl, cj, base, &h);
            *bad |= ~(v4m)(h <= *lov); /* true for NaN */
            *bv = v4sel((v4m)(h > *bv), h, *bv);
        }
    }
}

/* FE_UPWARD active. The rows of J of every descendant J + S with |S| = s
 * (a constant per call site), four rows at a time:
 *   h_i = base_i + sum_{b in S} cw_b |g_ib|,   g = fl(u_S Zt),
 * base_i >= rs_i + rho_i + E_i holding the error terms E_i of every S
 * (subsets_below_lo). A row above lo is bounded again by row_tight. 0 when
 * one stays above lo; *best raised to the largest row bound. */
__attribute__((always_inline)) static inline int subset_rows_level(const int s, int f, const sub_work *W,
                                                                   const double *cw, double lo, const double *U,
                                                                   size_t st, int nv, const v4 *base, double *best,
                                                                   const dvc_bk_sub_node *N)
{
    const v4 lov = {lo, lo, lo, lo};
    v4 bv = {0, 0, 0, 0};
    for (unsigned S = (1u << s) - 1; S < (1u << f); S = next_subset(S)) {
        int id[SUB_FMAX], hb;
        unsigned x = S;
        const v4 *ua[SUB_FMAX];
        const double *Zl;
        double cj[SUB_FMAX];
        PRAGMA_UNROLL
        for (int a = 0; a < s; a++) {
            id[a] = __builtin_ctz(x);
            x &= x - 1;
            ua[a] = (const v4 *)(U + (size_t)id[a] * st);
            cj[a] = cw[id[a]];
        }
        hb = id[s - 1];
        Zl = W->Z + (size_t)W->zo[S ^ (1u << hb)] * SUB_LW + hb; /* Zt_aj at Zl[(a s + j) SUB_LW] */
        {
            /* every row first (the failures collected, tested once) */
            const v4 bv0 = bv;
            v4m bad = {0, 0, 0, 0};
            rows_all(s, nv, ua, Zl, cj, base, &lov, &bv, &bad);
            if (v4any(bad)) {
                /* the rows that fail: the tighter bound, O(k s) each */
                double Zt[SUB_FMAX][SUB_FMAX], rz[SUB_FMAX];
                PRAGMA_UNROLL
                for (int a = 0; a < s; a++) {
                    PRAGMA_UNROLL
                    for (int j = 0; j < s; j++) Zt[a][j] = Zl[(a * s + j) * SUB_LW];
                    rz[a] = W->rz[(W->ro[S ^ (1u << hb)] + a) * SUB_LW + hb];
                }
                bv = bv0;
                for (int q = 0; q < nv; q++) {
                    v4 h;
                    v4m ok;
                    rows_h(s, q, ua, Zl, cj, base, &h);
                    ok = (v4m)(h <= lov); /* false for NaN */
                    for (int l = 0; l < 4; l++)
                        if (!ok[l]) {
                            double t;
                            if (4 * q + l >= N->k) return 0; /* not reached: those lanes hold base's tiny terms */
                            t = row_tight(N, s, id, (const double(*)[SUB_FMAX])Zt, rz, 4 * q + l);
                            if (!(t <= lo)) return 0;
                            (*N->tight)++;
                            h[l] = t;
                        }
                    bv = v4sel((v4m)(h > bv), h, bv);
                }
            }
        }
    }
    for (int l = 0; l < 4; l++)
        if (bv[l] > *best) *best = bv[l];
    return 1;
}

/* FE_UPWARD active. Every nonempty subset S of F (f = |F| <= SUB_FMAX) of
 * subtree_below_lo, level by level (one size per loop, so the branches on
 * the size are predictable): first Zt, rz and the rows of S of every S
 * (small_border_lanes), then the rows of J of every S, whose error terms
 * are bounded once for all S:
 *   sum_{b in S} cw_b (|(U Z)_ib| - |g_ib|)
 *     <= dumax_i sum_b cw_b sum_a (|Zt_ab| + rz_a)
 *        + uall_i sum_b cw_b (max_a rz_a + gs max_a |Zt_ab|) + s 2^-1000 sum_b cw_b
 *     <= dumax_i (T + R) + uall_i (R + gs T) + f 2^-1000 cwsum,
 * T, R the largest T_S, R_S over S, gs = (f + 1) 2^-52 >= gamma_s, cwsum
 * the sum of cw over F (docs/beta.md section 5). base (four lanes,
 * rs_i + rho_i, zero past k) is raised by them. 0 when a bound is above lo
 * or not proven; else 1, *best the largest bound. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
int dvc_bk_subsets_below_lo(int f, const double Sc[SUB_FMAX][SUB_FMAX], const double Sr[SUB_FMAX][SUB_FMAX],
                            const double *cw, double lo, const double *U, size_t st, int nv, v4 *base,
                            const double *dumax, const double *uall, double *best, const dvc_bk_sub_node *N)
{
    sub_work W;
    sub_box B;
    double cwmax = 0, cwsum = 0, ea, eb, ec, tmax = 0, rmax = 0;
    const double gs = (double)(f + 1) * TREE_U;
    memset(&B, 0, sizeof B);
    for (int a = 0; a < f; a++) {
        cwmax = maxn(cwmax, cw[a]);
        cwsum += cw[a];
        B.cw[a] = cw[a];
        B.Dc[a] = Sc[a][a];
        B.Dr[a] = Sr[a][a];
        for (int p = 0; p < f; p++) {
            B.Rc[a][p] = Sc[a][p];
            B.Rr[a][p] = Sr[a][p];
            B.Cc[a][p] = Sc[p][a];
            B.Cr[a][p] = Sr[p][a];
        }
    }
    W.zn = W.rn = 0;
    W.best = W.tmax = W.rmax = v4set(0.0);
    for (int ps = 0; ps < f; ps++) {
        int ok;
        switch (ps) {
        case 0: ok = border_level(0, f, &B, cwmax, lo, cw, &W); break;
        case 1: ok = border_level(1, f, &B, cwmax, lo, cw, &W); break;
        case 2: ok = border_level(2, f, &B, cwmax, lo, cw, &W); break;
        case 3: ok = border_level(3, f, &B, cwmax, lo, cw, &W); break;
#if SUB_FMAX > 4
        case 4: ok = border_level(4, f, &B, cwmax, lo, cw, &W); break;
#endif
#if SUB_FMAX > 5
        case 5: ok = border_level(5, f, &B, cwmax, lo, cw, &W); break;
#endif
        default: ok = 0; /* not reached: ps < f <= SUB_FMAX */
        }
        if (!ok) return 0;
    }
    for (int l = 0; l < 4; l++) {
        *best = maxn(*best, W.best[l]);
        tmax = maxn(tmax, W.tmax[l]);
        rmax = maxn(rmax, W.rmax[l]);
    }
    ea = tmax + rmax;
    eb = rmax + gs * tmax;
    ec = (double)f * 0x1p-1000 * cwsum;
    if (!isfinite(ea) || !isfinite(eb)) return 0;
    {
        const v4 eav = {ea, ea, ea, ea}, ebv = {eb, eb, eb, eb}, ecv = {ec, ec, ec, ec};
        for (int q = 0; q < nv; q++)
            base[q] = base[q] + (((const v4 *)dumax)[q] * eav + (((const v4 *)uall)[q] * ebv + ecv));
    }
    for (int s = 1; s <= f; s++) {
        int ok;
        switch (s) {
        case 1: ok = subset_rows_level(1, f, &W, cw, lo, U, st, nv, base, best, N); break;
        case 2: ok = subset_rows_level(2, f, &W, cw, lo, U, st, nv, base, best, N); break;
        case 3: ok = subset_rows_level(3, f, &W, cw, lo, U, st, nv, base, best, N); break;
        case 4: ok = subset_rows_level(4, f, &W, cw, lo, U, st, nv, base, best, N); break;
#if SUB_FMAX > 4
        case 5: ok = subset_rows_level(5, f, &W, cw, lo, U, st, nv, base, best, N); break;
#endif
#if SUB_FMAX > 5
        case 6: ok = subset_rows_level(6, f, &W, cw, lo, U, st, nv, base, best, N); break;
#endif
        default: ok = 0; /* not reached: s <= f <= SUB_FMAX */
        }
        if (!ok) return 0;
    }
    return 1;
}
