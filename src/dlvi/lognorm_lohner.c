/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route: the error set c + B r propagated through exp(J h) on
 * single-pattern steps, and moved by the hull of the Jacobians elsewhere
 * (docs/lognorm.md section 5d). */
#include "dlvi/lognorm_ws.h"
#include "dlvi/lognorm_expm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The set {e : |e_k| <= rad} (c = 0, B = I). */
void dvc_ln_lohner_reset_(lws *w, const mpfr_t rad)
{
    long n = w->n;
    dvc_ln_set_(w, DVC_LNQ_LR, DVC_LN_MPFI);
    memset(w->Lc, 0, (size_t)n * sizeof(double));
    memset(w->LB, 0, (size_t)(n * n) * sizeof(double));
    for (long k = 0; k < n; k++) {
        w->LB[k * n + k] = 1.0;
        mpfi_interv_fr(w->Lr->e[k], rad, rad);
        mpfr_neg(&w->Lr->e[k]->left, rad, MPFR_RNDD);
    }
}

/* out encloses exp(J u) for every u in [u] >= 0 (src/dlvi/lognorm_expm.c);
 * 0 when z >= 4 (steps too long for this enclosure). At 53 bits in
 * binary64 with the same endpoints as MPFI. */
static int expm_enclose(lws *w, dvc_imat_t out, const dvc_imat_t J, const mpfi_t u)
{
    dvc_lnf_expm_ws ws = {w->LT1, w->LT2, w->s, w->v};
    if (w->fast && w->reuse) {
        int ok = dvc_lnf_expm_d_(out, J, u);
        if (ok >= 0) return ok;
    }
    return dvc_lnf_expm_mpfi_(out, J, u, &ws);
}

/* Cache entry for pattern pat, or -1. */
static long lohner_cache(lws *w, long pat)
{
    long c, n = w->n, K = w->K;
    mpfr_t nJ;
    int ok;
    for (c = 0; c < w->nlc; c++)
        if (w->lc[c].pat == pat && w->lc[c].hk[0] == w->hk[0] && w->lc[c].hk[1] == w->hk[1]) return c;
    if (w->nlc < LN_CACHE) {
        c = w->nlc++;
        dvc_imat_init2(w->lc[c].Phi, n, n, w->prec);
        w->lc[c].Phik = malloc((size_t)K * sizeof(dvc_imat_t));
        w->lc[c].Phim = malloc((size_t)K * sizeof(dvc_imat_t));
        if (!w->lc[c].Phik || !w->lc[c].Phim) {
            w->nlc--;
            dvc_imat_clear(w->lc[c].Phi);
            free(w->lc[c].Phik);
            free(w->lc[c].Phim);
            return -1;
        }
        for (long k = 0; k < K; k++) {
            dvc_imat_init2(w->lc[c].Phik[k], n, n, w->prec);
            dvc_imat_init2(w->lc[c].Phim[k], n, n, w->prec);
        }
        mpfr_init2(w->lc[c].rho, w->prec);
        mpfr_init2(w->lc[c].rho2, w->prec);
    } else {
        c = w->lc_next;
        w->lc_next = (w->lc_next + 1) % LN_CACHE;
    }
    w->lc[c].pat = -1;
    ok = expm_enclose(w, w->lc[c].Phi, w->J.J[pat], w->h);
    for (long k = 0; ok && k < K; k++) {
        /* u in [h - (k+1) h/K, h - k h/K] */
        mpfi_mul_si(w->tk, w->h, K - k - 1);
        mpfi_div_si(w->tk, w->tk, K);
        mpfi_mul_si(w->tpk, w->h, K - k);
        mpfi_div_si(w->tpk, w->tpk, K);
        mpfi_union(w->u, w->tk, w->tpk);
        ok = expm_enclose(w, w->lc[c].Phik[k], w->J.J[pat], w->u);
        /* u = h (2 (K - k) - 1) / (2K) */
        mpfi_mul_si(w->u, w->h, 2 * (K - k) - 1);
        mpfi_div_si(w->u, w->u, 2 * K);
        if (ok) ok = expm_enclose(w, w->lc[c].Phim[k], w->J.J[pat], w->u);
    }
    if (!ok) return -1;
    mpfr_init2(nJ, w->prec);
    dvc_imat_norm_inf(nJ, w->J.J[pat]);
    {
        /* rho2 = e^{||J|| (h + d)} ||J||^2 d^3 / 3, d = h/(2K): the midpoint
         * rule's remainder, int_{-d}^{d} (exp(J v) - I - J v) dv, times
         * ||exp(J (h - s_mid))|| <= e^{||J|| h} */
        mpfr_t d, e;
        mpfr_inits2(w->prec, d, e, (mpfr_ptr)0);
        mpfr_div_si(d, &w->h->right, 2 * K, MPFR_RNDU);
        mpfr_add(e, &w->h->right, d, MPFR_RNDU);
        mpfr_mul(e, e, nJ, MPFR_RNDU);
        mpfr_exp(e, e, MPFR_RNDU);
        mpfr_mul(e, e, nJ, MPFR_RNDU);
        mpfr_mul(e, e, nJ, MPFR_RNDU);
        mpfr_pow_ui(d, d, 3, MPFR_RNDU);
        mpfr_mul(e, e, d, MPFR_RNDU);
        mpfr_div_ui(w->lc[c].rho2, e, 3, MPFR_RNDU);
        mpfr_clears(d, e, (mpfr_ptr)0);
    }
    mpfr_mul(w->lc[c].rho, nJ, &w->h->right, MPFR_RNDU);
    mpfr_exp(w->lc[c].rho, w->lc[c].rho, MPFR_RNDU);
    mpfr_mul(w->lc[c].rho, w->lc[c].rho, nJ, MPFR_RNDU);
    mpfr_div_si(nJ, &w->h->right, K, MPFR_RNDU);
    mpfr_sqr(nJ, nJ, MPFR_RNDU);
    mpfr_mul(w->lc[c].rho, w->lc[c].rho, nJ, MPFR_RNDU);
    mpfr_div_ui(w->lc[c].rho, w->lc[c].rho, 12, MPFR_RNDU);
    mpfr_clear(nJ);
    w->lc[c].pat = pat;
    w->lc[c].hk[0] = w->hk[0];
    w->lc[c].hk[1] = w->hk[1];
    if (w->fast) {
        /* binary64 copies (exact at 53 bits) for lohner_step */
        long nn = n * n;
        if (w->lc[c].Pd == NULL) w->lc[c].Pd = malloc((size_t)(2 * (1 + 2 * K) * nn) * sizeof(double));
        if (w->lc[c].Pd != NULL) {
            double *P = w->lc[c].Pd;
            for (long e = 0; e < nn; e++) {
                P[e] = mpfr_get_d(&w->lc[c].Phi->e[e]->left, MPFR_RNDD);
                P[nn + e] = mpfr_get_d(&w->lc[c].Phi->e[e]->right, MPFR_RNDU);
                for (long k = 0; k < K; k++) {
                    P[(2 + k) * nn + e] = mpfr_get_d(&w->lc[c].Phim[k]->e[e]->left, MPFR_RNDD);
                    P[(2 + K + k) * nn + e] = mpfr_get_d(&w->lc[c].Phim[k]->e[e]->right, MPFR_RNDU);
                    P[(2 + 2 * K + k) * nn + e] = mpfr_get_d(&w->lc[c].Phik[k]->e[e]->left, MPFR_RNDD);
                    P[(2 + 3 * K + k) * nn + e] = mpfr_get_d(&w->lc[c].Phik[k]->e[e]->right, MPFR_RNDU);
                }
            }
            w->lc[c].rho_d = mpfr_get_d(w->lc[c].rho, MPFR_RNDU);
            w->lc[c].rho2_d = mpfr_get_d(w->lc[c].rho2, MPFR_RNDU);
        }
    }
    return c;
}

/* One step of e(t_{i+1}) = exp(J h) e(t_i) - int_0^h exp(J (h - s)) d(t_i + s) ds
 * (exact when the step's a priori box has the single pattern pat: then
 * F(t, x(t)) - F(t, p(t)) = J (x(t) - p(t))). Updates (c, B, r); out gets
 * a box enclosing e(t_{i+1}). 0 when it cannot (the caller resets). */
int dvc_ln_lohner_step_(lws *w, long pat, dvc_ivec_t out)
{
    long n = w->n, K = w->K, c = lohner_cache(w, pat);
    dvc_ln_set_(w, DVC_LNQ_EBOX, DVC_LN_NONE);
    if (c < 0) return 0;
    if (dvc_ln_has_(w, DVC_LNQ_DEFECT, DVC_LN_BINARY64) && w->lc[c].Pd != NULL) {
        dvc_lnf_lohner_io io;
        long nn = n * n;
        const double *P = w->lc[c].Pd;
        io.n = n;
        io.K = K;
        io.Plo = P;
        io.Phi = P + nn;
        io.Pmlo = P + 2 * nn;
        io.Pmhi = P + (2 + K) * nn;
        io.Pklo = P + (2 + 2 * K) * nn;
        io.Pkhi = P + (2 + 3 * K) * nn;
        io.rho = w->lc[c].rho_d;
        io.rho2 = w->lc[c].rho2_d;
        dvc_ln_h_d_(w, &io.hlo, &io.hhi);
        io.alo = w->avl;
        io.ahi = w->avh;
        io.rlo = w->rpl;
        io.rhi = w->rph;
        io.c = w->Lc;
        io.B = w->LB;
        if (!dvc_ln_has_(w, DVC_LNQ_LR, DVC_LN_BINARY64)) dvc_ln_to_d_(w->Lrl, w->Lrh, w->Lr);
        io.Lrlo = w->Lrl;
        io.Lrhi = w->Lrh;
        io.outlo = w->ol;
        io.outhi = w->oh;
        io.w = w->lscr;
        if (dvc_lnf_lohner_(&io) == 0) {
            /* r stays in Lrl, Lrh and the box in ol, oh (out) until an
             * MPFI part needs them (lr_mpfi, pv_mpfi) */
            dvc_ln_set_(w, DVC_LNQ_LR, DVC_LN_BINARY64);
            dvc_ln_set_(w, DVC_LNQ_EBOX, DVC_LN_BINARY64);
            return 1;
        }
    }
    dvc_ln_lr_mpfi_(w);
    dvc_ln_defect_mpfi_(w);
    /* V encloses the integral: piece k gives (h/K) Phim A_mid +- rho2
     * ||A_mid|| (midpoint rule for the constant part), (h/K) Phik R_k (mean
     * value over the piece), and +-rho ||A1 - A0|| (the affine part's
     * deviation from its mean) */
    dvc_ivec_zero(w->Lv);
    mpfi_div_si(w->tk, w->h, K);
    for (long k = 0; k < K; k++) {
        dvc_ivec_add(w->Lt, w->av[2 * k], w->av[2 * k + 1]);
        for (long j = 0; j < n; j++) mpfi_div_2ui(w->Lt->e[j], w->Lt->e[j], 1);
        dvc_ln_mv_(w, w->Ly, w->lc[c].Phim[k], w->Lt);
        dvc_ivec_addmul(w->Lv, w->tk, w->Ly);
        dvc_ln_ninf_(w, w->r1, w->Lt);
        mpfr_mul(w->r1, w->r1, w->lc[c].rho2, MPFR_RNDU);
        dvc_ivec_inflate(w->Lv, w->Lv, w->r1);
        dvc_ln_mv_(w, w->Ly, w->lc[c].Phik[k], w->rp[k]);
        dvc_ivec_addmul(w->Lv, w->tk, w->Ly);
        dvc_ivec_sub(w->Lt, w->av[2 * k + 1], w->av[2 * k]);
        dvc_ln_ninf_(w, w->r1, w->Lt);
        mpfr_mul(w->r1, w->r1, w->lc[c].rho, MPFR_RNDU);
        dvc_ivec_inflate(w->Lv, w->Lv, w->r1);
    }
    /* Y = Phi c - V; c' = mid Y */
    dvc_ivec_set_d(w->Lt, w->Lc);
    dvc_ln_mv_(w, w->Ly, w->lc[c].Phi, w->Lt);
    dvc_ivec_sub(w->Ly, w->Ly, w->Lv);
    /* M = Phi B; B' = frame of mid M */
    dvc_imat_set_d(w->LBp, w->LB);
    dvc_imat_mul(w->LM, w->lc[c].Phi, w->LBp);
    dvc_imat_mid_d(w->Lm, w->LM);
    if (!dvc_lnf_mgs_(w->LB, w->Lm, n)) return 0;
    dvc_imat_set_d(w->LBp, w->LB);
    if (dvc_imat_inv(w->LBi, w->LBp) != DVC_OK) {
        dvc_error_reset();
        return 0;
    }
    for (long j = 0; j < n; j++) w->Lc[j] = dvc_ival_mid_d(w->Ly->e[j]);
    /* r' = (B'^{-1} M) r + B'^{-1} (Y - c') */
    for (long j = 0; j < n; j++) mpfi_sub_d(w->Ly->e[j], w->Ly->e[j], w->Lc[j]);
    dvc_imat_mul(w->LT1, w->LBi, w->LM);
    dvc_ln_mv_(w, w->Lt, w->LT1, w->Lr);
    dvc_ln_mv_(w, w->Lv, w->LBi, w->Ly);
    dvc_ivec_add(w->Lr, w->Lt, w->Lv);
    /* box of c' + B' r' */
    dvc_ln_mv_(w, out, w->LBp, w->Lr);
    for (long j = 0; j < n; j++) mpfi_add_d(out->e[j], out->e[j], w->Lc[j]);
    return dvc_ivec_is_finite(out) && dvc_ivec_is_finite(w->Lr);
}

/* A step without a single pattern: e(t_{i+1}) = e(t_i) + int (J(s) e(s) - d(s)) ds
 * with J(s) in the hull of every J_D and ||e(s)||_inf <= rad over the step
 * (the a priori bound): the set moves by -int d + h [Jhull] [-rad, rad]. */
int dvc_ln_lohner_change_(lws *w, const mpfr_t rad, dvc_ivec_t out)
{
    long n = w->n, K = w->K;
    dvc_ln_lr_mpfi_(w);
    dvc_ln_defect_mpfi_(w);
    dvc_ivec_zero(w->Lv);
    mpfi_div_si(w->tk, w->h, K);
    for (long k = 0; k < K; k++) {
        /* int over piece k of d in (h/K) ((A0 + A1)/2 + R_k) */
        dvc_ivec_add(w->Lt, w->av[2 * k], w->av[2 * k + 1]);
        for (long j = 0; j < n; j++) mpfi_div_2ui(w->Lt->e[j], w->Lt->e[j], 1);
        dvc_ivec_add(w->Lt, w->Lt, w->rp[k]);
        dvc_ivec_addmul(w->Lv, w->tk, w->Lt);
    }
    for (long j = 0; j < n; j++) {
        mpfi_interv_fr(w->Lt->e[j], rad, rad);
        mpfr_neg(&w->Lt->e[j]->left, rad, MPFR_RNDD);
    }
    dvc_ln_mv_(w, w->Ly, w->Jhull, w->Lt);
    dvc_ivec_scale(w->Ly, w->h, w->Ly);
    dvc_ivec_sub(w->Ly, w->Ly, w->Lv);
    /* c' = c + mid W, r' = r + B^{-1} (W - mid W), B unchanged */
    dvc_imat_set_d(w->LBp, w->LB);
    if (dvc_imat_inv(w->LBi, w->LBp) != DVC_OK) {
        dvc_error_reset();
        return 0;
    }
    for (long j = 0; j < n; j++) {
        double mw = dvc_ival_mid_d(w->Ly->e[j]);
        mpfi_sub_d(w->Ly->e[j], w->Ly->e[j], mw);
        /* c + mw in intervals: the rounding goes to r */
        mpfi_set_d(w->v, w->Lc[j]);
        mpfi_add_d(w->v, w->v, mw);
        w->Lc[j] = dvc_ival_mid_d(w->v);
        mpfi_sub_d(w->v, w->v, w->Lc[j]);
        mpfi_add(w->Ly->e[j], w->Ly->e[j], w->v);
    }
    dvc_ln_mv_(w, w->Lv, w->LBi, w->Ly);
    dvc_ivec_add(w->Lr, w->Lr, w->Lv);
    dvc_ln_mv_(w, out, w->LBp, w->Lr);
    for (long j = 0; j < n; j++) mpfi_add_d(out->e[j], out->e[j], w->Lc[j]);
    return dvc_ivec_is_finite(out) && dvc_ivec_is_finite(w->Lr);
}
