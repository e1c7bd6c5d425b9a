/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Node bounds of the branch-and-bound for beta_M / alpha_M, binary64 under
 * FE_UPWARD: the interval-residual bound over a box of the relaxed vertex
 * set (any M), the positive definite bound from (H_TT)^{-1}, and for a
 * symmetric positive definite point matrix the Loewner-order bound, with
 * both children of a node computed from the parent's predictors. Every
 * bound is a rigorous upper bound (docs/beta.md section 6, with the
 * residual of section 5); the workspace and the residual kernels are those
 * of the vertex enumeration (beta_enum.c, beta_ws.h). */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "beta_kern.h"
#include "beta_ws.h"
#include "rounding.h"

/* FE_UPWARD active. Comparison-matrix bound for the interval matrix
 * [Ac - Ar, Ac + Ar] (k x k): C = <[A]> (mig on the diagonal, -mag off it).
 * If y > 0 with C y >= b is verified, C is a nonsingular M-matrix, so every
 * A in the box is an H-matrix with |A^{-1}| <= C^{-1} (Ostrowski; <A> >= C),
 * and C^{-1} b <= y. Returns max_i y_i, or +inf when not verified. */
static double comparison_bound(int k, int ld, const double *Ac, const double *Ar, const double *b,
                               double *C, double *Y, double *W, double *y)
{
    double best = 0;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            double c = Ac[(size_t)i * ld + j], r = Ar[(size_t)i * ld + j];
            if (i == j) {
                double mig = -(r - fabs(c)); /* <= |c| - r */
                if (!(mig > 0)) return INFINITY;
                C[(size_t)i * ld + j] = mig;
            } else {
                C[(size_t)i * ld + j] = -(fabs(c) + r);
            }
        }
    if (!dvc_bk_gj_inverse(k, ld, C, Y, W)) return INFINITY;
    for (int i = 0; i < k; i++) { /* predictor y ~ C^{-1} b, pushed up a little */
        double t = 0;
        for (int j = 0; j < k; j++) t += Y[(size_t)i * ld + j] * b[j];
        t = t * (1 + 0x1p-30) + 0x1p-1000;
        if (!(t > 0) || !isfinite(t)) return INFINITY;
        y[i] = t;
    }
    for (int i = 0; i < k; i++) { /* verify (C y)_i >= b_i, (C y)_i rounded down */
        double neg = 0;
        for (int j = 0; j < k; j++) neg += (-C[(size_t)i * ld + j]) * y[j];
        if (!(-neg >= b[i])) return INFINITY;
        if (y[i] > best) best = y[i];
    }
    return best;
}

/* ---- branch-and-bound node bound ---------------------------------------- */

void dvc_bk_node_bound(const dvc_bk_mat *K, uint64_t in, uint64_t out, int want_alpha,
                       double *ub_beta, double *ub_alpha)
{
    int m = K->m, ld = K->ld, k = 0;
    dvc_bk_ws w;
    double *Ar, *rho, *phi, *bb, *ba, *C, *y, e, nx_up, nx_dn, den, t;
    int saved;
    dvc_bk_ws_init(&w, m, ld);
    Ar = dvc_bk_alloc((size_t)ld * ld);
    rho = dvc_bk_alloc((size_t)ld);
    phi = dvc_bk_alloc((size_t)ld);
    bb = dvc_bk_alloc((size_t)ld);
    ba = dvc_bk_alloc((size_t)ld);
    C = dvc_bk_alloc((size_t)ld * ld);
    y = dvc_bk_alloc((size_t)ld);
    *ub_beta = INFINITY;
    *ub_alpha = INFINITY;
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (int i = 0; i < m; i++)
        if (!(out >> i & 1)) w.order[k++] = i;
    w.k = k;
    if (k == 0) {
        *ub_beta = 0;
        *ub_alpha = 1;
        goto done;
    }
    /* Row i of A = I - D + DM divided by its diagonal delta_i = 1 - d_i +
     * d_i m_ii > 0 (m_ii > 0 for a P-matrix): A = diag(delta) Ahat with Ahat
     * unit-diagonal, off-diagonal phi_i m_ij, phi_i = d_i / delta_i in
     * [0, 1/m_ii] (= 1/m_ii when d_i = 1), and X(d) = A^{-1} D = Ahat^{-1} Phi.
     * The diagonal of Ahat is exact, so the interval relaxation over the free
     * d_i only widens off-diagonal entries: hull(0, [m_ij]/[m_ii]). */
    for (int a = 0; a < k; a++) {
        int i = w.order[a];
        int fixed = (int)(in >> i & 1);
        double dc = K->Mc[(size_t)i * ld + i], dr = K->Mr[(size_t)i * ld + i];
        double dlo = -(dr - dc), dhi = dc + dr; /* [m_ii] rounded outward */
        double ts = 0, rs = 0;
        if (!(dlo > 0)) goto done;
        phi[a] = 1.0 / dlo;                     /* >= phi_i */
        for (int b = 0; b < k; b++) {
            int j = w.order[b];
            double c, r, qlo, qhi;
            if (b == a) {
                w.A[(size_t)a * ld + b] = 1.0;
                Ar[(size_t)a * ld + b] = 0;
                continue;
            }
            c = K->Mc[(size_t)i * ld + j];
            r = K->Mr[(size_t)i * ld + j];
            {
                double mlo = -(r - c), mhi = c + r;
                /* [mlo, mhi] / [dlo, dhi] with dlo > 0, rounded outward. */
                double u1 = mhi / dlo, u2 = mhi / dhi, l1 = (-mlo) / dlo, l2 = (-mlo) / dhi;
                qhi = u1 > u2 ? u1 : u2;
                qlo = -(l1 > l2 ? l1 : l2);
            }
            if (!fixed) {
                if (qlo > 0) qlo = 0;
                if (qhi < 0) qhi = 0;
            }
            c = 0.5 * qlo + 0.5 * qhi;
            r = fmax(c - qlo, qhi - c);
            w.A[(size_t)a * ld + b] = c;
            Ar[(size_t)a * ld + b] = r;
            rs += r;
        }
        rho[a] = rs;
        for (int o = 0; o < m; o++)
            if (out >> o & 1) ts += K->Mmag[(size_t)i * ld + o];
        /* beta: Ahat^{-1} Phi; alpha rows S: [Ahat^{-1} diag(1/delta),
         * -Ahat^{-1} Phi M_{S,out}], 1/delta_i <= max(1, 1/m_ii). */
        bb[a] = phi[a];
        ba[a] = (fixed ? phi[a] : (phi[a] > 1 ? phi[a] : 1.0)) + phi[a] * ts;
    }
    /* H-matrix route: |Ahat^{-1}| <= <Ahat>^{-1}. */
    *ub_beta = comparison_bound(k, ld, w.A, Ar, bb, C, w.X, w.W, y);
    if (want_alpha) {
        *ub_alpha = comparison_bound(k, ld, w.A, Ar, ba, C, w.X, w.W, y);
        if (*ub_alpha < 1) *ub_alpha = 1;
    }
    /* Residual route: ||Ahat^{-1} v|| <= || |X| v || / (1 - e). */
    if (!dvc_bk_gj_inverse(k, ld, w.A, w.X, w.W)) goto done;
    e = dvc_bk_resid_up(k, ld, w.X, w.A, rho, w.g);
    if (!(e < 1)) goto done;
    dvc_bk_xnorm(k, ld, w.X, &nx_up, &nx_dn, NULL);
    den = -(e - 1.0);
    for (int pass = 0; pass < 1 + want_alpha; pass++) {
        const double *v = pass ? ba : bb;
        double up = 0;
        for (int i = 0; i < k; i++) {
            double s = 0;
            for (int l = 0; l < k; l++) s += fabs(w.X[(size_t)i * ld + l]) * v[l];
            dvc_bk_acc_max(&up, s);
        }
        t = up / den;
        if (pass == 0 && t < *ub_beta) *ub_beta = t;
        if (pass == 1) {
            if (t < 1) t = 1;
            if (t < *ub_alpha) *ub_alpha = t;
        }
    }
done:
    dvc_rnd_restore(saved);
    free(Ar);
    free(rho);
    free(phi);
    free(bb);
    free(ba);
    free(C);
    free(y);
    dvc_bk_ws_clear(&w);
}

/* ---- positive definite node bound ------------------------------------------ */

double dvc_bk_pd_node_bound(const dvc_bk_mat *H, uint64_t T)
{
    int m = H->m, ld = H->ld, k = 0, saved;
    dvc_bk_ws w;
    double *rho, e, nx_up, nx_dn, den, t, gmax = 0, q = 0, p, r = INFINITY;
    dvc_bk_ws_init(&w, m, ld);
    rho = dvc_bk_alloc((size_t)ld);
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (int i = 0; i < m; i++)
        if (T >> i & 1) w.order[k++] = i;
    if (k == 0) {
        r = 0;
        goto done;
    }
    for (int a = 0; a < k; a++) {
        const double *hc = H->Mc + (size_t)w.order[a] * ld, *hr = H->Mr + (size_t)w.order[a] * ld;
        double s = 0;
        for (int b = 0; b < k; b++) {
            w.A[(size_t)a * ld + b] = hc[w.order[b]];
            s += hr[w.order[b]];
        }
        rho[a] = s;
    }
    /* X ~ (H_TT)^{-1}; e >= ||I - X H'|| for every H' in [H_TT]. */
    if (!dvc_bk_gj_inverse(k, ld, w.A, w.X, w.W)) goto done;
    e = dvc_bk_resid_up(k, ld, w.X, w.A, H->point ? NULL : rho, w.g);
    if (!(e <= E_ACCEPT)) goto done;
    dvc_bk_xnorm(k, ld, w.X, &nx_up, &nx_dn, NULL);
    den = -(e - 1.0);      /* <= 1 - e */
    t = nx_up * e / den;   /* >= ||H'^{-1} - X||: bounds every entry and row of the error */
    for (int i = 0; i < k; i++) {
        double xii = w.X[(size_t)i * ld + i];
        if (!(xii <= gmax)) gmax = xii;
    }
    gmax += t;                  /* >= max_i (H'^{-1})_ii */
    for (int i = 0; i < k; i++) /* q >= 1^T |H'^{-1}| 1: each row of the error adds <= t */
        for (int j = 0; j < k; j++) q += fabs(w.X[(size_t)i * ld + j]);
    q += (double)k * t;
    p = gmax * q;
    if (!(p >= 0) || !isfinite(p)) goto done;
    r = sqrt(p); /* correctly rounded in the current (upward) mode; one more ulp for safety */
    r = nextafter(r, INFINITY);
done:
    dvc_rnd_restore(saved);
    free(rho);
    dvc_bk_ws_clear(&w);
    return r;
}

void dvc_bk_inv_diag(const dvc_bk_mat *H, double *key)
{
    int m = H->m, ld = H->ld;
    dvc_bk_ws w;
    dvc_bk_ws_init(&w, m, ld);
    for (int i = 0; i < m; i++) key[i] = 0;
    if (dvc_bk_gj_inverse(m, ld, H->Mc, w.X, w.W))
        for (int i = 0; i < m; i++) key[i] = -w.X[(size_t)i * ld + i];
    dvc_bk_ws_clear(&w);
}

/* Fill w->A with the point submatrix K_SS for the index list w->order[0..k). */
static void fill_sub(const dvc_bk_mat *K, dvc_bk_ws *w, int k)
{
    int ld = w->ld;
    for (int a = 0; a < k; a++) {
        double *ra = w->A + (size_t)a * ld;
        const double *mr = K->Mc + (size_t)w->order[a] * ld;
        memset(ra, 0, sizeof(double) * (size_t)ld);
        for (int b = 0; b < k; b++) ra[b] = mr[w->order[b]];
    }
    w->k = k;
}

/* FE_UPWARD active, w->A and w->X filled (size k). Returns t >= ||(K_SS)^{-1}
 * - X|| and *nx_dn <= ||X||; +inf when the residual is not <= E_ACCEPT. */
static double verify_pred(dvc_bk_ws *w, int k, double *nx_dn)
{
    double e, nx_up, den;
    *nx_dn = 0;
    if (k == 0) return 0;
    e = dvc_bk_resid_up(k, w->ld, w->X, w->A, NULL, w->g);
    if (!(e <= E_ACCEPT)) return INFINITY;
    dvc_bk_xnorm(k, w->ld, w->X, &nx_up, nx_dn, NULL);
    den = -(e - 1.0);
    return nx_up * e / den;
}

/* FE_UPWARD active. Verified predictor of (K_SS)^{-1} for the index list
 * w->order[0..k) (point matrix K): fills w->A, w->X; returns t >= ||(K_SS)^{-1}
 * - X||, and *nx_dn <= ||X||; +inf when the residual is not <= E_ACCEPT. */
static double verified_inv(const dvc_bk_mat *K, dvc_bk_ws *w, int k, double *nx_dn)
{
    fill_sub(K, w, k);
    if (!dvc_bk_gj_inverse(k, w->ld, w->A, w->X, w->W)) return INFINITY;
    return verify_pred(w, k, nx_dn);
}

/* The Loewner bound max_i ||L_i||_1 + sqrt(D_ii * sum |D|) (docs/beta.md
 * section 6) from X_T (index list wt->order[0..k)) within tt of G and X_in
 * (wf->order[0..kf), a subset of the former) within tf of L. Under FE_UPWARD
 * with rigorous tt, tf it is a rigorous upper bound; in round-to-nearest with
 * tt = tf = 0 a float estimate (for ordering only). +inf on NaN/overflow. */
static double loewner(const dvc_bk_ws *wt, int k, double tt, const dvc_bk_ws *wf, int kf, double tf)
{
    int ld = wt->ld, posT[64], posf[64];
    double q = 0, best = 0, terr = tt + tf;
    if (k == 0) return 0;
    for (int a = 0; a < k; a++) {
        posT[wt->order[a]] = a;
        posf[a] = -1;
    }
    for (int b = 0; b < kf; b++) posf[posT[wf->order[b]]] = b;
    /* D = G - L: |D_ij - (X_T - X_F)_ij| <= tt + tf, and every row of the
     * error has 1-norm <= tt + tf, so q >= 1^T |D| 1. */
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) {
            double x = wt->X[(size_t)a * ld + b];
            if (posf[a] >= 0 && posf[b] >= 0) {
                /* |x - y| <= max(x - y, y - x), both rounded up */
                double y = wf->X[(size_t)posf[a] * ld + posf[b]], d1 = x - y, d2 = y - x;
                x = d1 > d2 ? d1 : d2;
            }
            q += fabs(x);
        }
    q += (double)k * terr;
    for (int a = 0; a < k; a++) {
        double dii = wt->X[(size_t)a * ld + a], lrow = 0, s;
        if (posf[a] >= 0) {
            const double *xf = wf->X + (size_t)posf[a] * ld;
            dii -= xf[posf[a]];
            for (int b = 0; b < kf; b++) lrow += fabs(xf[b]);
            lrow += tf;
        }
        dii += terr;
        if (!(dii >= 0)) dii = 0; /* D is positive semidefinite: D_ii >= 0 (NaN caught below) */
        s = sqrt(dii * q);
        s = nextafter(s, INFINITY);
        s += lrow;
        if (!(s <= best)) best = s; /* NaN propagates */
    }
    return (best >= 0 && best < INFINITY) ? best : INFINITY;
}

double dvc_bk_sym_node_bound(const dvc_bk_mat *K, uint64_t in, uint64_t out, double *lo_completion)
{
    int m = K->m, ld = K->ld, k = 0, kf = 0, saved;
    dvc_bk_ws wt, wf;
    double tt, tf = 0, nx_dn, r = INFINITY;
    *lo_completion = 0;
    dvc_bk_ws_init(&wt, m, ld);
    dvc_bk_ws_init(&wf, m, ld);
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (int i = 0; i < m; i++)
        if (!(out >> i & 1)) {
            if (in >> i & 1) wf.order[kf++] = i;
            wt.order[k++] = i;
        }
    if (k == 0) {
        r = 0;
        goto done;
    }
    /* G = (M_TT)^{-1} within tt of X_T; its norm bounds the completion J = T
     * from below (section 5). */
    tt = verified_inv(K, &wt, k, &nx_dn);
    if (!isfinite(tt)) goto done;
    {
        double lo = -(tt - nx_dn);
        *lo_completion = lo > 0 ? lo : 0;
    }
    /* L = (M_in,in)^{-1} padded with zeros, within tf of X_in. */
    if (kf > 0) {
        tf = verified_inv(K, &wf, kf, &nx_dn);
        if (!isfinite(tf)) goto done;
    }
    r = loewner(&wt, k, tt, &wf, kf, tf);
done:
    dvc_rnd_restore(saved);
    dvc_bk_ws_clear(&wt);
    dvc_bk_ws_clear(&wf);
    return r;
}

/* ---- symmetric search: both children of a node from the parent's predictors */

struct dvc_bk_sym {
    const dvc_bk_mat *K;
    dvc_bk_ws wT, wI; /* parent: X_T ~ (M_TT)^{-1}, X_in ~ (M_in,in)^{-1} */
    dvc_bk_ws w0, w1; /* child d_p = 0: X ~ (M_{T-p})^{-1}; child d_p = 1: X ~ (M_{in+p})^{-1} */
    int kT, kI, ok;
    int fresh_age; /* splits since the last Gauss-Jordan inverses */
    int last;      /* the child whose predictors a reusing split takes over */
};

/* Predictors are recomputed from scratch after this many reusing splits
 * (bordering and downdating let rounding errors grow). */
#define SYM_REFRESH 8

dvc_bk_sym *dvc_bk_sym_new(const dvc_bk_mat *K)
{
    dvc_bk_sym *S = malloc(sizeof *S);
    if (!S) abort();
    S->K = K;
    dvc_bk_ws_init(&S->wT, K->m, K->ld);
    dvc_bk_ws_init(&S->wI, K->m, K->ld);
    dvc_bk_ws_init(&S->w0, K->m, K->ld);
    dvc_bk_ws_init(&S->w1, K->m, K->ld);
    S->kT = S->kI = S->ok = S->fresh_age = S->last = 0;
    return S;
}

void dvc_bk_sym_free(dvc_bk_sym *S)
{
    if (!S) return;
    dvc_bk_ws_clear(&S->wT);
    dvc_bk_ws_clear(&S->wI);
    dvc_bk_ws_clear(&S->w0);
    dvc_bk_ws_clear(&S->w1);
    free(S);
}

int dvc_bk_sym_split(dvc_bk_sym *S, uint64_t in, uint64_t out, int p, int reuse, double fb[2],
                     double *fcomp0)
{
    const dvc_bk_mat *K = S->K;
    int m = K->m, ld = K->ld, kT = 0, kI = 0, q = -1, saved, ok = 0;
    double *XT, *XI, *X0, *X1, *u, *wv;
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_TONEAREST); /* predictors only */
    if (reuse && S->ok && S->fresh_age < SYM_REFRESH) {
        /* The node is the child S->last of the previous split: its
         * predictors are already at hand (the index lists keep their order). */
        dvc_bk_ws t;
        if (S->last) {
            t = S->wI, S->wI = S->w1, S->w1 = t;
            S->kI++;
        } else {
            t = S->wT, S->wT = S->w0, S->w0 = t;
            S->kT--;
        }
        kT = S->kT;
        kI = S->kI;
        S->fresh_age++;
        for (int a = 0; a < kT; a++)
            if (S->wT.order[a] == p) q = a;
    } else {
        for (int i = 0; i < m; i++)
            if (!(out >> i & 1)) {
                if (i == p) q = kT;
                if (in >> i & 1) S->wI.order[kI++] = i;
                S->wT.order[kT++] = i;
            }
        reuse = 0;
        S->fresh_age = 0;
    }
    S->ok = 0;
    if (q < 0 || (in >> p & 1) || kT < 2) goto done;
    S->kT = kT;
    S->kI = kI;
    XT = S->wT.X, XI = S->wI.X, X0 = S->w0.X, X1 = S->w1.X;
    u = S->w1.g, wv = S->w1.g + ld;
    fill_sub(K, &S->wT, kT);
    if (!reuse && !dvc_bk_gj_inverse(kT, ld, S->wT.A, XT, S->wT.W)) goto done;
    if (kI > 0) {
        fill_sub(K, &S->wI, kI);
        if (!reuse && !dvc_bk_gj_inverse(kI, ld, S->wI.A, XI, S->wI.W)) goto done;
    }
    /* Child d_p = 0: (M_{T-p})^{-1} = X_11 - X_12 X_21 / X_22 with p the
     * pivot (Schur downdating; exact for the exact inverse). */
    {
        double xqq = XT[(size_t)q * ld + q];
        if (!(xqq != 0) || !isfinite(xqq)) goto done;
        for (int a = 0, a2 = 0; a < kT; a++) {
            double f;
            if (a == q) continue;
            S->w0.order[a2] = S->wT.order[a];
            f = XT[(size_t)a * ld + q] / xqq;
            for (int b = 0, b2 = 0; b < kT; b++) {
                if (b == q) continue;
                X0[(size_t)a2 * ld + b2] = XT[(size_t)a * ld + b] - f * XT[(size_t)q * ld + b];
                b2++;
            }
            a2++;
        }
    }
    /* Child d_p = 1: bordering X_in with index p (appended last). */
    {
        double s = K->Mc[(size_t)p * ld + p];
        for (int a = 0; a < kI; a++) {
            double t = 0, t2 = 0;
            for (int l = 0; l < kI; l++) {
                t += XI[(size_t)a * ld + l] * K->Mc[(size_t)S->wI.order[l] * ld + p];
                t2 += K->Mc[(size_t)p * ld + S->wI.order[l]] * XI[(size_t)l * ld + a];
            }
            u[a] = t;
            wv[a] = t2;
        }
        for (int l = 0; l < kI; l++) s -= K->Mc[(size_t)p * ld + S->wI.order[l]] * u[l];
        if (!(s != 0) || !isfinite(s)) goto done;
        for (int a = 0; a < kI; a++) {
            S->w1.order[a] = S->wI.order[a];
            for (int b = 0; b < kI; b++)
                X1[(size_t)a * ld + b] = XI[(size_t)a * ld + b] + u[a] * wv[b] / s;
            X1[(size_t)a * ld + kI] = -u[a] / s;
            X1[(size_t)kI * ld + a] = -wv[a] / s;
        }
        S->w1.order[kI] = p;
        X1[(size_t)kI * ld + kI] = 1.0 / s;
    }
    fb[0] = loewner(&S->w0, kT - 1, 0, &S->wI, kI, 0);
    fb[1] = loewner(&S->wT, kT, 0, &S->w1, kI + 1, 0);
    {
        double nx = 0;
        for (int a = 0; a < kT - 1; a++) {
            double r = 0;
            for (int b = 0; b < kT - 1; b++) r += fabs(X0[(size_t)a * ld + b]);
            if (!(r <= nx)) nx = r;
        }
        *fcomp0 = nx;
    }
    ok = isfinite(fb[0]) && isfinite(fb[1]) && isfinite(*fcomp0);
done:
    S->ok = ok;
    dvc_rnd_restore(saved);
    return ok;
}

void dvc_bk_sym_descend(dvc_bk_sym *S, int child) { S->last = child; }

double dvc_bk_sym_verify(dvc_bk_sym *S, int child, double *lo_completion)
{
    dvc_bk_ws *G = child ? &S->wT : &S->w0, *L = child ? &S->w1 : &S->wI;
    int kG = child ? S->kT : S->kT - 1, kL = child ? S->kI + 1 : S->kI, saved;
    double tt, tf, nx_dn, r = INFINITY;
    *lo_completion = 0;
    if (!S->ok) return INFINITY;
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    /* The parent's A (T and in) are filled by the split; the children's here. */
    if (!child) fill_sub(S->K, G, kG);
    else fill_sub(S->K, L, kL);
    tt = verify_pred(G, kG, &nx_dn);
    if (!isfinite(tt)) goto done;
    {
        double lo = -(tt - nx_dn);
        *lo_completion = lo > 0 ? lo : 0;
    }
    tf = verify_pred(L, kL, &nx_dn);
    if (!isfinite(tf)) goto done;
    r = loewner(G, kG, tt, L, kL, tf);
done:
    dvc_rnd_restore(saved);
    return r;
}
