/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route: one step (docs/lognorm.md sections 3, 5, 6): the
 * integrated one-sided-Lipschitz inequality, the local mu and the mode
 * norms, the error set, eps_x, ry and the grid point's y. */
#include "dlvi/lognorm_ws.h"
#include "rounding.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* For the log-norm constant mu: cE = e^{mu h}, cP = (e^{mu h} - 1)/mu,
 * eK = e^{mu h/K}, cPK = (e^{mu h/K} - 1)/mu (h, h/K for mu = 0), all
 * rounded up (MPFI at the interval h), in w->sc_v[c] (and as doubles in
 * w->sc_d[c] at 53 bits, where they are exact); returns c, or -1 when not
 * finite. */
static int step_consts(lws *w, const mpfr_t mu)
{
    /* mu takes few values (the norms' global and per-pattern constants), h
     * one on a uniform grid: a small cache keyed by (mu, h) */
    for (int c = 0; c < LN_SC; c++) {
        if (w->sc_ok[c] && mpfr_equal_p(mu, w->sc_mu[c]) && mpfr_equal_p(&w->h->left, &w->sc_h[c]->left) &&
            mpfr_equal_p(&w->h->right, &w->sc_h[c]->right))
            return c;
    }
    mpfi_set_fr(w->u, mu);
    for (int part = 0; part < 2; part++) {
        mpfi_set(w->tk, w->h);
        if (part) mpfi_div_si(w->tk, w->tk, w->K);
        mpfi_mul(w->s, w->u, w->tk);
        mpfi_exp(w->v, w->s);
        mpfr_set(part ? w->eK : w->cE, &w->v->right, MPFR_RNDU);
        if (mpfr_zero_p(mu)) {
            mpfr_set(part ? w->cPK : w->cP, &w->tk->right, MPFR_RNDU);
        } else {
            mpfi_expm1(w->v, w->s);
            mpfi_div(w->v, w->v, w->u);
            mpfr_set(part ? w->cPK : w->cP, &w->v->right, MPFR_RNDU);
        }
    }
    if (!(mpfr_number_p(w->cE) && mpfr_number_p(w->cP) && mpfr_number_p(w->eK) && mpfr_number_p(w->cPK)))
        return -1;
    {
        int c = w->sc_next;
        w->sc_next = (w->sc_next + 1) % LN_SC;
        mpfr_set(w->sc_mu[c], mu, MPFR_RNDN);
        mpfi_set(w->sc_h[c], w->h);
        mpfr_set(w->sc_v[c][0], w->cE, MPFR_RNDU);
        mpfr_set(w->sc_v[c][1], w->cP, MPFR_RNDU);
        mpfr_set(w->sc_v[c][2], w->eK, MPFR_RNDU);
        mpfr_set(w->sc_v[c][3], w->cPK, MPFR_RNDU);
        for (int j = 0; j < 4; j++) w->sc_d[c][j] = mpfr_get_d(w->sc_v[c][j], MPFR_RNDU);
        w->sc_ok[c] = 1;
        return c;
    }
}

/* Integrate D+||e|| <= mu ||e|| + ||d|| over the step from ||e(t_i)|| <= E0
 * (docs/lognorm.md section 3): En >= e^{mu h} E0 + int e^{mu (h - s)} ||d||
 * with, on piece k, the weight bounded by its largest value on the piece
 * and ||d|| by the mean Di[k] of its convex bound; Esup >= the same
 * with the step's sup w->Dd (the bound inside the step). Rounded up; 0
 * when not finite. At 53 bits the same operations in binary64 under
 * FE_UPWARD (the same roundings as MPFR's at 53 bits, without its
 * per-call overhead); MPFR when a value leaves the double range. */
static int propagate(lws *w, const mpfr_t mu, const mpfr_t E0, mpfr_t En, mpfr_t Esup)
{
    int c = step_consts(w, mu);
    if (c < 0) return 0;
    if (w->fast) {
        double cE = w->sc_d[c][0], cP = w->sc_d[c][1], eK = w->sc_d[c][2];
        double e0 = mpfr_get_d(E0, MPFR_RNDU), dd = mpfr_get_d(w->Dd, MPFR_RNDU);
        double hl, hr, Kd = (double)w->K, r1 = 0.0, r2, en, es;
        dvc_ln_h_d_(w, &hl, &hr);
        (void)hl;
        /* Di as doubles (exact at 53 bits, or +inf: then MPFR below) */
        if (!dvc_ln_has_(w, DVC_LNQ_DI, DVC_LN_BINARY64))
            for (long k = 0; k < w->K; k++) w->Did[k] = mpfr_get_d(w->Di[k], MPFR_RNDU);
        int saved = dvc_rnd_save();
        dvc_rnd_set(FE_UPWARD);
        /* every operand materialised after the switch (GCC PR 34678,
         * src/rounding.h) */
        DVC_FP_PIN(cE);
        DVC_FP_PIN(cP);
        DVC_FP_PIN(eK);
        DVC_FP_PIN(e0);
        DVC_FP_PIN(dd);
        DVC_FP_PIN(hr);
        DVC_FP_PIN(Kd);
        DVC_FP_PIN(r1);
        /* (h/K) max(1, eK) sum_k eK^{K-1-k} Di_k by Horner */
        for (long k = 0; k < w->K; k++) {
            r1 = r1 * eK;
            r1 = r1 + w->Did[k];
        }
        if (mpfr_sgn(mu) > 0) r1 = r1 * eK;
        r1 = r1 * hr;
        r1 = r1 / Kd;
        r2 = cE * e0;
        en = r2 + r1;
        r1 = cP * dd;
        es = r2 + r1;
        DVC_FP_PIN(en);
        DVC_FP_PIN(es);
        dvc_rnd_restore(saved);
        if (isfinite(en) && isfinite(es) && isfinite(e0) && isfinite(dd)) {
            mpfr_set_d(En, en, MPFR_RNDU);
            mpfr_set_d(Esup, es, MPFR_RNDU);
            return 1;
        }
    }
    if (!dvc_ln_has_(w, DVC_LNQ_DI, DVC_LN_MPFI)) {
        for (long k = 0; k < w->K; k++) mpfr_set_d(w->Di[k], w->Did[k], MPFR_RNDU);
        dvc_ln_set_(w, DVC_LNQ_DI, DVC_LN_MPFI);
    }
    /* (h/K) max(1, eK) sum_k eK^{K-1-k} Di_k by Horner */
    mpfr_set_zero(w->r1, 1);
    for (long k = 0; k < w->K; k++) {
        mpfr_mul(w->r1, w->r1, w->sc_v[c][2], MPFR_RNDU);
        mpfr_add(w->r1, w->r1, w->Di[k], MPFR_RNDU);
    }
    if (mpfr_sgn(mu) > 0) mpfr_mul(w->r1, w->r1, w->sc_v[c][2], MPFR_RNDU);
    mpfr_mul(w->r1, w->r1, &w->h->right, MPFR_RNDU);
    mpfr_div_si(w->r1, w->r1, w->K, MPFR_RNDU);
    mpfr_mul(w->r2, w->sc_v[c][0], E0, MPFR_RNDU);
    mpfr_add(En, w->r2, w->r1, MPFR_RNDU);
    mpfr_mul(w->r1, w->sc_v[c][1], w->Dd, MPFR_RNDU);
    mpfr_add(Esup, w->r2, w->r1, MPFR_RNDU);
    return mpfr_number_p(En) && mpfr_number_p(Esup);
}

/* Step i of a time grid: its own length in w->h, and the exact length as
 * the key of the exp(J h) cache (TwoSum, round to nearest: s + e = b - a
 * exactly; w->h is the outward rounding of that number, so equal keys give
 * equal enclosures). */
static dvc_status grid_step(lws *w, long i)
{
    volatile double a, b, s, yv, xv;
    dvc_tgrid g;
    dvc_status st;
    double ta, tb;
    dvc_dlvi_problem_grid(&g, w->p);
    if ((st = dvc_tgrid_at(&g, i, &ta)) != DVC_OK || (st = dvc_tgrid_at(&g, i + 1, &tb)) != DVC_OK) return st;
    a = ta, b = tb, s = b - a, yv = s - b, xv = s - yv;
    w->hk[0] = s;
    w->hk[1] = (b - xv) + (-a - yv);
    if ((st = dvc_dlvi_step_len_(w->h, w->p, i)) != DVC_OK) return st;
    if (!dvc_ival_is_pos(w->h)) return dvc_error(DVC_NOT_CERTIFIED, "the step's length is not proven > 0");
    return DVC_OK;
}

/* [yhat^j] at Q x^j + g(t) and eps_y[j] from E = ||e(t_j)|| (w->Ei). */
dvc_status dvc_ln_grid_point_(lws *w, dvc_dlvi_result_t r, long j, const mpfi_t t, int have_y)
{
    long n = w->n, m = w->m;
    dvc_status st;
    if (m == 0) {
        mpfr_set_zero(r->eps_y[DVC_RROW(r, j)], 1);
        return DVC_OK;
    }
    if ((st = dvc_dlvi_tf_eval_(&w->g, w->gk, t, "g")) != DVC_OK) return st;
    if (!w->fast || !dvc_ln_q_fast_(w, w->qbox, r->x + DVC_RROW(r, j) * n, r->x + DVC_RROW(r, j) * n, w->gk)) {
        dvc_ivec_set_d(w->tn_, r->x + DVC_RROW(r, j) * n);
        dvc_ln_q_of_(w, w->qbox, w->tn_, w->gk);
    }
    st = dvc_lvi_solve(w->lg, w->solver, w->qbox, have_y ? r->y + DVC_RROW(r, j) * m : NULL);
    if (st != DVC_OK) return dvc_error_context(st, "LVI at the grid point: ");
    for (long a = 0; a < m; a++) {
        mpfi_set(r->yhat[DVC_RROW(r, j) * m + a], w->lg->y->e[a]);
        if (!have_y) r->y[DVC_RROW(r, j) * m + a] = dvc_ival_mid_d(w->lg->y->e[a]);
    }
    /* ||y(t_j) - y^j|| <= ||y(t_j) - yhat^j|| + ||[yhat^j] - y^j||, the first
     * <= ||G_F Q e(t_j)|| on a single-pattern box (e in the set box pv),
     * else <= bstep c_Q E */
    if (w->yloc >= 0 && w->yset) {
        double yn = -1.0;
        const dvc_dlvi_fspm *G = w->fast ? &w->fG[w->yloc] : NULL;
        if (dvc_ln_has_(w, DVC_LNQ_EBOX, DVC_LN_BINARY64) && G && G->start && G->ok) {
            /* the box of e(t_j) is in ol, oh: ||G Q e|| in binary64 (mv and
             * ninf's operations and roundings) */
            yn = dvc_ln_qnorm_d_(w, G, w->ol, w->oh);
        }
        if (yn >= 0) {
            mpfr_set_d(w->r1, yn, MPFR_RNDU);
        } else {
            dvc_ln_pv_mpfi_(w);
            dvc_ln_mv_(w, w->tm_, w->p->Q, w->pv);
            dvc_ln_mv_(w, w->Y, w->J.G[w->yloc], w->tm_);
            dvc_ln_ninf_(w, w->r1, w->Y);
            if (!mpfr_number_p(w->r1)) mpfr_set_inf(w->r1, 1);
        }
    } else {
        mpfr_mul(w->r1, w->bstep, w->nrm[w->cur]->c_Q, MPFR_RNDU);
        mpfr_mul(w->r1, w->r1, w->Ei, MPFR_RNDU);
    }
    mpfr_set_zero(w->r2, 1);
    for (long a = 0; a < m; a++) {
        mpfi_sub_d(w->s, r->yhat[DVC_RROW(r, j) * m + a], r->y[DVC_RROW(r, j) * m + a]);
        dvc_ln_imag_(w, w->sc.a, w->s);
        mpfr_max(w->r2, w->r2, w->sc.a, MPFR_RNDU);
    }
    mpfr_add(r->eps_y[DVC_RROW(r, j)], w->r1, w->r2, MPFR_RNDU);
    if (!mpfr_number_p(r->eps_y[DVC_RROW(r, j)])) return dvc_error(DVC_NOT_CERTIFIED, "eps_y is not finite");
    return DVC_OK;
}

/* out = ||G_k||_inf of slot k (dvc_imat_norm_inf), computed once per slot */
static void g_norm(lws *w, mpfr_t out, long k)
{
    if (!w->reuse) {
        dvc_imat_norm_inf(out, w->J.G[k]);
        return;
    }
    if (w->gn == NULL) {
        w->gn = malloc((size_t)w->npat * sizeof(mpfr_t));
        w->gn_ok = calloc((size_t)w->npat, 1);
        if (w->gn == NULL || w->gn_ok == NULL) {
            free(w->gn);
            free(w->gn_ok);
            w->gn = NULL;
            w->gn_ok = NULL;
            dvc_imat_norm_inf(out, w->J.G[k]);
            return;
        }
    }
    if (!w->gn_ok[k]) {
        mpfr_init2(w->gn[k], mpfr_get_prec(out));
        dvc_imat_norm_inf(w->gn[k], w->J.G[k]);
        w->gn_ok[k] = 1;
    }
    mpfr_set(out, w->gn[k], MPFR_RNDU);
}

/* The mode norm fitted to pattern pat (index into w->nrm), created on
 * first use; -1 when none can be certified. */
static long mode_norm(lws *w, long pat)
{
    long j;
    for (j = 0; j < w->nmodes; j++)
        if (w->mode_pat[j] == pat) return j + 1;
    if (w->mode_failed || w->nmodes >= LN_MODES_MAX) return -1;
    j = w->nmodes;
    dvc_lognorm_info_init(w->modes[j]);
    if (w->o->stated) {
        /* verification: only the mode norms the certificate states (those
         * the writer's run created), each proven again */
        long s = 1;
        while (s < w->o->n_stated && w->o->stated[s].pattern != w->J.key[pat]) s++;
        if (s >= w->o->n_stated || w->o->stated[s].kind != DVC_LOGNORM_QUAD) {
            dvc_lognorm_info_clear(w->modes[j]);
            return -1;
        }
        if (dvc_lognorm_given_(w->modes[j], &w->J, w->p, &w->o->stated[s], w->prec) != DVC_OK) {
            char msg[400];
            snprintf(msg, sizeof msg, "%s", dvc_error_message());
            dvc_lognorm_info_clear(w->modes[j]);
            w->mode_failed = 1;
            dvc_error(DVC_NOT_CERTIFIED, "lognorm: the mode norm stated for pattern %#lx (a certificate's method "
                      "'lognorm_modes'): %s", w->J.key[pat], msg);
            w->mode_st = DVC_NOT_CERTIFIED;
            return -2;
        }
    } else if (dvc_lognorm_choose_(w->modes[j], &w->J, w->p, DVC_LOGNORM_QUAD, pat, w->nrm[0]->R, w->prec) !=
               DVC_OK) {
        dvc_error_reset();
        dvc_lognorm_info_clear(w->modes[j]);
        w->mode_failed = 1;
        return -1;
    }
    {
        /* recorded for the certificate (its method states them) */
        long n = w->n;
        long *mp = realloc(w->info->mode_pattern, (size_t)(j + 1) * sizeof(long));
        double *mr = mp ? realloc(w->info->mode_R, (size_t)((j + 1) * n * n) * sizeof(double)) : NULL;
        if (mp) w->info->mode_pattern = mp;
        if (mr) w->info->mode_R = mr;
        if (!mp || !mr) {
            dvc_lognorm_info_clear(w->modes[j]);
            w->mode_st = dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
            return -2;
        }
        mp[j] = w->J.key[pat];
        memcpy(mr + j * n * n, w->modes[j]->R, (size_t)(n * n) * sizeof(double));
    }
    w->mode_pat[j] = pat;
    w->nrm[j + 1] = w->modes[j];
    w->nmodes++;
    w->info->n_modes = w->nmodes;
    return j + 1;
}

/* Step i's times t_i, t_{i+1} and length (a time grid's own, the shorter
 * last step's). */
static dvc_status step_times(lws *w, long i)
{
    dvc_status st;
    if ((w->p->grid || w->p->grid_src) && (st = grid_step(w, i)) != DVC_OK) return st;
    if (w->p->h > 0 && i + 1 == w->N) {
        /* the shorter last step: its own length in every bound (docs/lognorm.md
         * section 12); the exp(J h) cache was made for h */
        if ((st = dvc_dlvi_hlast_(w->h, w->p)) != DVC_OK) return st;
        if (!dvc_ival_is_pos(w->h)) return dvc_error(DVC_NOT_CERTIFIED, "the last step's length is not proven > 0");
        for (long c = 0; c < w->nlc; c++) w->lc[c].pat = -1;
    }
    if ((st = dvc_dlvi_time_(w->ti, w->p, w->h, i)) != DVC_OK) return st;
    if (i + 1 == w->N) mpfi_set(w->tn, w->p->T);
    else if ((st = dvc_dlvi_time_(w->tn, w->p, w->h, i + 1)) != DVC_OK) return st;
    mpfi_union(w->tstep, w->ti, w->tn);
    return DVC_OK;
}

/* The a priori box of x(t) and p(t) on step i (X inflated by the bound of
 * the current norm a); *loc: the single pattern certified over Q of it
 * plus g over the step, or -1. Then every segment between x(t) and p(t)
 * meets one piece only. */
static dvc_status step_local(lws *w, dvc_dlvi_result_t r, long i, long a, long *loc)
{
    long m = w->m;
    dvc_status st;
    mpfr_max(w->Es, w->Ei, w->Esup, MPFR_RNDU);
    mpfr_mul(w->r1, w->Es, w->nrm[a]->c_inf, MPFR_RNDU);
    if ((st = dvc_dlvi_tf_eval_(&w->g, w->Gk, w->tstep, "g")) != DVC_OK) return st;
    if (w->fast) {
        /* X +- r1 in doubles (dvc_ivec_inflate's roundings) */
        double r1 = mpfr_get_d(w->r1, MPFR_RNDU);
        int saved = dvc_rnd_save();
        dvc_rnd_set(FE_UPWARD);
        DVC_FP_PIN(r1);
        for (long k = 0; k < w->n; k++) {
            w->Xh[k] = w->Xh[k] + r1;
            w->Xl[k] = -((-w->Xl[k]) + r1);
        }
        dvc_rnd_restore(saved);
        if (dvc_ln_has_(w, DVC_LNQ_X, DVC_LN_MPFI)) dvc_ivec_inflate(w->X, w->X, w->r1);
    } else {
        dvc_ivec_inflate(w->X, w->X, w->r1);
    }
    if (!w->fast || !dvc_ln_q_fast_(w, w->qbox, w->Xl, w->Xh, w->Gk)) {
        dvc_ln_x_mpfi_(w);
        dvc_ln_q_of_(w, w->qbox, w->X, w->Gk);
    }
    st = dvc_lvi_solve(w->lb, w->solver, w->qbox, r->y + DVC_RROW(r, i + 1) * m);
    *loc = dvc_ln_pat_slot_(w, dvc_ln_box_pattern_(w->lb, st, m));
    dvc_error_reset();
    return DVC_OK;
}

/* A step with the single pattern loc over its a priori box: that
 * pattern's mu, in the current norm a or in the mode norm fitted to loc
 * (switching when it pays), En and Esup again. */
static dvc_status step_mode(lws *w, long i, long a, long loc)
{
    dvc_lognorm_info_struct *info = w->info;
    long b = a;
    info->n_local++;
    if (w->o->mode_follow && w->nrm[0]->kind == DVC_LOGNORM_QUAD) {
        long j = mode_norm(w, loc);
        if (j == -2) return w->mode_st;
        if (j >= 0) b = j;
    }
    /* switch only when the gain in mu matters over the horizon
     * ((mu_a - mu_b) T >= 0.05) or is free (E_i = 0), and the price
     * c_ab is at most 8 (a
     * heuristic: every choice is sound) */
    if (b != a && mpfr_cmp(w->nrm[b]->mu_pat[loc], w->nrm[a]->mu_pat[loc]) < 0) {
        mpfr_sub(w->r1, w->nrm[a]->mu_pat[loc], w->nrm[b]->mu_pat[loc], MPFR_RNDD);
        mpfr_mul(w->r1, w->r1, &w->p->T->left, MPFR_RNDD);
        if (mpfr_cmp_d(w->r1, 0.05) < 0 && !mpfr_zero_p(w->Ei)) b = a;
    } else {
        b = a;
    }
    if (b != a) {
        /* switch at t_i: ||e(t_i)||_b <= c_ab ||e(t_i)||_a */
        if (dvc_lognorm_convert_(w->Dk, w->nrm[a], w->nrm[b], w->prec) != DVC_OK || mpfr_cmp_ui(w->Dk, 8) > 0) {
            dvc_error_reset();
            b = a;
        } else {
            mpfr_mul(w->Ei, w->Ei, w->Dk, MPFR_RNDU);
            w->cur = b;
            info->n_switch++;
            if (!dvc_ln_defect_norm_(w, w->nrm[b])) return dvc_error(DVC_NOT_CERTIFIED, "defect bound is not finite");
        }
    }
    if (!propagate(w, w->nrm[b]->mu_pat[loc], w->Ei, w->En, w->Esup))
        return dvc_error(DVC_NOT_CERTIFIED, "error bound E is not finite");
    info->mu_step[LN_STEP(w, i)] = mpfr_get_d(w->nrm[b]->mu_pat[loc], MPFR_RNDU);
    return DVC_OK;
}

/* The error set, where one pattern holds over the a priori box and the
 * defect's affine data are available (pat == loc); else moved by the
 * Jacobians' hull; when it fails, reset to the box from E. En gets the
 * set's bound when smaller; returns the set box's inf norm, or -1. */
static double step_set(lws *w, long loc, long pat)
{
    int okl;
    double rad_l = -1.0;
    dvc_ln_set_(w, DVC_LNQ_EBOX, DVC_LN_NONE);
    if (loc >= 0 && pat == loc) {
        okl = dvc_ln_lohner_step_(w, loc, w->pv);
    } else {
        mpfr_max(w->r2, w->Ei, w->Esup, MPFR_RNDU);
        mpfr_mul(w->r2, w->r2, w->nrm[w->cur]->c_inf, MPFR_RNDU);
        okl = dvc_ln_lohner_change_(w, w->r2, w->pv);
    }
    if (okl && dvc_ln_has_(w, DVC_LNQ_EBOX, DVC_LN_BINARY64)) {
        /* the box is in w->ol, w->oh: its norms in binary64 (the same
         * operations as the MPFI ones, rounded up) */
        double vn = dvc_lnf_vnorm_(w->nrm[w->cur], w->ol, w->oh), vi = 0.0;
        w->yset = 1;
        if (isfinite(vn) && vn < mpfr_get_d(w->En, MPFR_RNDU)) mpfr_set_d(w->En, vn, MPFR_RNDU);
        for (long k = 0; k < w->n; k++) vi = fmax(vi, fmax(fabs(w->ol[k]), fabs(w->oh[k])));
        rad_l = vi;
        w->info->n_set++;
    } else if (okl) {
        w->yset = 1;
        dvc_lognorm_vnorm_(w->r1, w->nrm[w->cur], w->pv, &w->sc);
        if (mpfr_cmp(w->r1, w->En) < 0) mpfr_set(w->En, w->r1, MPFR_RNDU);
        dvc_ln_ninf_(w, w->r1, w->pv);
        rad_l = mpfr_get_d(w->r1, MPFR_RNDU);
        w->info->n_set++;
    } else {
        mpfr_mul(w->r1, w->En, w->nrm[w->cur]->c_inf, MPFR_RNDU);
        dvc_ln_lohner_reset_(w, w->r1);
    }
    return rad_l;
}

/* Step i's record: eps_x[i+1], dW, delta, beta_step, ry, and E, rad
 * (rad_l: the error set's, or -1) at the grid point t_{i+1}. */
static dvc_status step_record(lws *w, dvc_dlvi_result_t r, long i, double rad_l)
{
    dvc_lognorm_info_struct *info = w->info;
    const dvc_lognorm_info_struct *nr = w->nrm[w->cur];
    dvc_status st;
    /* on the step ||e|| <= max(E_i, Esup): e^{mu s} E_i + s phi(mu s) D is monotone in s */
    mpfr_max(w->Es, w->Ei, w->Esup, MPFR_RNDU);
    mpfr_mul(r->eps_x[DVC_RROW(r, i + 1)], w->Es, nr->c_inf, MPFR_RNDU);
    if (!mpfr_number_p(r->eps_x[DVC_RROW(r, i + 1)]) || !isfinite(mpfr_get_d(r->eps_x[DVC_RROW(r, i + 1)], MPFR_RNDU)))
        return dvc_error(DVC_NOT_CERTIFIED, "eps_x is not finite");
    info->dW[LN_STEP(w, i)] = mpfr_get_d(w->Dd, MPFR_RNDU);
    r->delta[DVC_RSTP(r, i)] = info->dW[LN_STEP(w, i)];
    r->beta_step[DVC_RSTP(r, i)] = mpfr_get_d(w->bstep, MPFR_RNDU);
    r->Lx[DVC_RSTP(r, i)] = 0.0;
    r->Lf[DVC_RSTP(r, i)] = 0.0;
    /* ry: ||y(t) - yhat^j|| <= beta (c_Q ||e|| + ||Q dx|| + L_g h), j = i, i+1 */
    if (w->m > 0) {
        if ((st = dvc_dlvi_tf_lip_(&w->g, w->Lg, w->tstep, "g")) != DVC_OK) return st;
        r->Lg[DVC_RSTP(r, i)] = mpfr_get_d(w->Lg, MPFR_RNDU);
        double qd = -1.0;
        if (w->fast) {
            /* ||Q dx||_inf in doubles (mv and ninf's roundings) */
            qd = dvc_ln_qnorm_d_(w, NULL, w->dxl, w->dxh);
        }
        if (qd >= 0) {
            mpfr_set_d(w->r1, qd, MPFR_RNDU);
        } else {
            dvc_ln_x_mpfi_(w);
            dvc_ln_mv_(w, w->tm_, w->p->Q, w->dx);
            dvc_ln_ninf_(w, w->r1, w->tm_);
        }
        mpfr_mul(w->r2, w->Lg, &w->h->right, MPFR_RNDU);
        mpfr_add(w->r1, w->r1, w->r2, MPFR_RNDU);
        mpfr_mul(w->r2, w->Es, nr->c_Q, MPFR_RNDU);
        mpfr_add(w->r1, w->r1, w->r2, MPFR_RNDU);
        mpfr_mul(w->r1, w->r1, w->bstep, MPFR_RNDU);
        r->ry[DVC_RSTP(r, i)] = mpfr_get_d(w->r1, MPFR_RNDU);
        if (!isfinite(r->ry[DVC_RSTP(r, i)])) return dvc_error(DVC_NOT_CERTIFIED, "ry is not finite");
    }
    /* the grid point t_{i+1} */
    mpfr_set(w->Ei, w->En, MPFR_RNDU);
    info->E[LN_GRID(w, i + 1)] = mpfr_get_d(w->En, MPFR_RNDU);
    info->norm_used[LN_GRID(w, i + 1)] = (int)w->cur;
    mpfr_mul(w->r1, w->En, nr->c_inf, MPFR_RNDU);
    info->rad[LN_GRID(w, i + 1)] = mpfr_get_d(w->r1, MPFR_RNDU);
    if (rad_l >= 0 && rad_l < info->rad[LN_GRID(w, i + 1)]) info->rad[LN_GRID(w, i + 1)] = rad_l;
    return DVC_OK;
}

dvc_status dvc_ln_step_(lws *w, dvc_dlvi_result_t r, long i, int have_y)
{
    long m = w->m, pat = -1, loc = -1, a = w->cur;
    double rad_l = -1.0;
    dvc_lognorm_info_struct *info = w->info;
    dvc_status st;
    if ((st = step_times(w, i)) != DVC_OK) return st;
    if ((st = dvc_ln_defect_data_(w, r, i, &pat)) != DVC_OK) return st;
    if (pat >= 0) info->n_affine++;
    /* in the current norm with its mu over every pattern */
    if (!dvc_ln_defect_norm_(w, w->nrm[a])) return dvc_error(DVC_NOT_CERTIFIED, "defect bound is not finite");
    if (!propagate(w, w->nrm[a]->mu, w->Ei, w->En, w->Esup))
        return dvc_error(DVC_NOT_CERTIFIED, "error bound E is not finite");
    info->mu_step[LN_STEP(w, i)] = mpfr_get_d(w->nrm[a]->mu, MPFR_RNDU);
    if (m == 0) loc = 0;
    else if (w->o->local_mu && (st = step_local(w, r, i, a, &loc)) != DVC_OK) return st;
    mpfr_set(w->bstep, w->beta, MPFR_RNDU);
    w->yloc = -1;
    w->yset = 0;
    if (loc >= 0 && m > 0) {
        g_norm(w, w->r1, loc);
        if (mpfr_cmp(w->r1, w->bstep) < 0) mpfr_set(w->bstep, w->r1, MPFR_RNDU);
        w->yloc = loc;
    }
    if (loc >= 0 && (st = step_mode(w, i, a, loc)) != DVC_OK) return st;
    if (w->lohner) rad_l = step_set(w, loc, pat);
    if ((st = step_record(w, r, i, rad_l)) != DVC_OK) return st;
    if ((st = dvc_ln_grid_point_(w, r, i + 1, w->tn, have_y)) != DVC_OK) return st;
    r->t[DVC_RROW(r, i + 1)] = dvc_ival_mid_d(w->tn);
    mpfr_max(r->max_eps_x, r->max_eps_x, r->eps_x[DVC_RROW(r, i + 1)], MPFR_RNDU);
    mpfr_max(r->max_eps_y, r->max_eps_y, r->eps_y[DVC_RROW(r, i + 1)], MPFR_RNDU);
    return DVC_OK;
}
