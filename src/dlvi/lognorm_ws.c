/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route's workspace: its storage, the binary64 buffers of the
 * path at 53 bits, and the copies of a quantity between binary64 and MPFI
 * (docs/lognorm.md section 10). */
#include "dlvi/lognorm_ws.h"
#include "rounding.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dvc_ln_ws_clear_(lws *w)
{
    if (w->prec == 0) return;
    if (w->solver_ok) dvc_lvi_solver_clear(w->solver);
    dvc_lvi_result_clear(w->lg);
    dvc_lvi_result_clear(w->lm);
    dvc_lvi_result_clear(w->lb);
    dvc_lvi_result_clear(w->lp);
    dvc_lvi_result_clear(w->la);
    if (w->jac_ok) dvc_lognorm_jac_clear_(&w->J);
    mpfr_clears(w->beta, w->bstep, w->yerr, (mpfr_ptr)0);
    for (int c = 0; c < LN_SC; c++) {
        mpfr_clears(w->sc_mu[c], w->sc_v[c][0], w->sc_v[c][1], w->sc_v[c][2], w->sc_v[c][3], (mpfr_ptr)0);
        mpfi_clear(w->sc_h[c]);
    }
    dvc_dlvi_iclears_(w->h, w->ti, w->tn, w->tstep, w->tm, w->tk, w->tpk, w->s, w->u, w->v, w->tpk_sa, w->mvt,
                      w->mvs, w->hconv, (mpfi_ptr)0);
    mpfr_clear(w->mga);
    dvc_ivec_struct *vs[] = {w->dx, w->xm, w->pv, w->qm, w->qbox, w->ym, w->Y, w->fk, w->Fk,
                             w->gm, w->gk, w->Gk, w->a, w->tn_, w->tm_, w->X, w->C, w->c0, w->gd,
                             w->Cs, w->cs0, w->Ycr, w->yma, w->ga, w->Xk, w->Fd, w->Fs, w->fm};
    for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) dvc_ivec_clear(vs[k]);
    mpfr_clears(w->Ei, w->En, w->Es, w->Dd, w->Dk, w->r1, w->r2, w->Lg, w->Esup, w->cE, w->cP, w->eK, w->cPK,
                (mpfr_ptr)0);
    dvc_lognorm_scratch_clear_(&w->sc);
    dvc_ivec_clear(w->fc);
    dvc_ivec_clear(w->gc);
    for (long k = 0; k < w->K; k++) {
        dvc_ivec_clear(w->av[2 * k]);
        dvc_ivec_clear(w->av[2 * k + 1]);
        dvc_ivec_clear(w->rp[k]);
        mpfr_clear(w->Dp[k]);
        mpfr_clear(w->Di[k]);
    }
    free(w->Di);
    free(w->av);
    free(w->rp);
    free(w->Dp);
    for (long j = 0; j < w->nmodes; j++) dvc_lognorm_info_clear(w->modes[j]);
    if (w->gn != NULL)
        for (long k = 0; k < w->npat; k++)
            if (w->gn_ok[k]) mpfr_clear(w->gn[k]);
    free(w->gn);
    free(w->gn_ok);
    if (w->fast) {
        dvc_dlvi_fspm_clear_(&w->fA);
        dvc_dlvi_fspm_clear_(&w->fB);
        dvc_dlvi_fspm_clear_(&w->fQ);
        for (long k = 0; k < w->npat; k++)
            if (w->fG[k].start) dvc_dlvi_fspm_clear_(&w->fG[k]);
        free(w->fG);
        free(w->fbuf);
    }
    if (w->lohner) {
        free(w->Lc);
        dvc_ivec_clear(w->Lr);
        dvc_ivec_clear(w->Lv);
        dvc_ivec_clear(w->Ly);
        dvc_ivec_clear(w->Lt);
        dvc_imat_clear(w->LM);
        dvc_imat_clear(w->LBi);
        dvc_imat_clear(w->LBp);
        dvc_imat_clear(w->LT1);
        dvc_imat_clear(w->LT2);
        dvc_imat_clear(w->Jhull);
        for (long c = 0; c < w->nlc; c++) {
            dvc_imat_clear(w->lc[c].Phi);
            for (long k = 0; k < w->K; k++) {
                dvc_imat_clear(w->lc[c].Phik[k]);
                dvc_imat_clear(w->lc[c].Phim[k]);
            }
            free(w->lc[c].Phik);
            free(w->lc[c].Phim);
            free(w->lc[c].Pd);
            mpfr_clear(w->lc[c].rho);
            mpfr_clear(w->lc[c].rho2);
        }
    }
}

void dvc_ln_ws_init_(lws *w, long n, long m, mpfr_prec_t prec)
{
    long mm = m > 0 ? m : 1;
    w->prec = prec;
    dvc_lvi_result_init2(w->lg, mm, prec);
    dvc_lvi_result_init2(w->lm, mm, prec);
    dvc_lvi_result_init2(w->lb, mm, prec);
    dvc_lvi_result_init2(w->lp, mm, prec);
    dvc_lvi_result_init2(w->la, mm, prec);
    mpfr_inits2(prec, w->beta, w->bstep, w->yerr, (mpfr_ptr)0);
    for (int c = 0; c < LN_SC; c++) {
        mpfr_inits2(prec, w->sc_mu[c], w->sc_v[c][0], w->sc_v[c][1], w->sc_v[c][2], w->sc_v[c][3], (mpfr_ptr)0);
        mpfi_init2(w->sc_h[c], prec);
        w->sc_ok[c] = 0;
    }
    w->sc_next = 0;
    dvc_dlvi_iinits_(prec, w->h, w->ti, w->tn, w->tstep, w->tm, w->tk, w->tpk, w->s, w->u, w->v, w->tpk_sa,
                     w->mvt, w->mvs, w->hconv, (mpfi_ptr)0);
    dvc_ln_set_(w, DVC_LNQ_H, DVC_LN_NONE);
    mpfr_init2(w->mga, prec);
    dvc_ivec_struct *vn[] = {w->dx, w->xm, w->pv, w->fk, w->Fk, w->a, w->tn_, w->X, w->C, w->c0, w->Cs, w->cs0, w->Xk,
                             w->Fd, w->Fs, w->fm};
    dvc_ivec_struct *vm[] = {w->qm, w->qbox, w->ym, w->Y, w->gm, w->gk, w->Gk, w->tm_, w->gd, w->Ycr, w->yma, w->ga};
    for (size_t k = 0; k < sizeof vn / sizeof vn[0]; k++) dvc_ivec_init2(vn[k], n, prec);
    for (size_t k = 0; k < sizeof vm / sizeof vm[0]; k++) dvc_ivec_init2(vm[k], mm, prec);
    mpfr_inits2(prec, w->Ei, w->En, w->Es, w->Dd, w->Dk, w->r1, w->r2, w->Lg, w->Esup, w->cE, w->cP, w->eK,
                w->cPK, (mpfr_ptr)0);
    dvc_lognorm_scratch_init_(&w->sc, prec);
    dvc_ivec_init2(w->fc, n, prec);
    dvc_ivec_init2(w->gc, mm, prec);
}

dvc_status dvc_ln_ws_pieces_(lws *w, long K)
{
    w->av = malloc((size_t)(2 * K) * sizeof(dvc_ivec_t));
    w->rp = malloc((size_t)K * sizeof(dvc_ivec_t));
    w->Dp = malloc((size_t)K * sizeof(mpfr_t));
    w->Di = malloc((size_t)K * sizeof(mpfr_t));
    if (!w->av || !w->rp || !w->Dp || !w->Di) return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    for (long k = 0; k < K; k++) {
        dvc_ivec_init2(w->av[2 * k], w->n, w->prec);
        dvc_ivec_init2(w->av[2 * k + 1], w->n, w->prec);
        dvc_ivec_init2(w->rp[k], w->n, w->prec);
        mpfr_init2(w->Dp[k], w->prec);
        mpfr_init2(w->Di[k], w->prec);
    }
    w->K = K;
    return DVC_OK;
}

/* a <-> b: the storage of two vectors of equal size and precision */
void dvc_ln_swap_(dvc_ivec_t a, dvc_ivec_t b)
{
    dvc_ivec_struct t = *a;
    *a = *b;
    *b = t;
}

/* out <- M x: dvc_imat_mul_vec's operations in its order (the same
 * enclosure) on the workspace's scratch. out must not be x. */
void dvc_ln_mv_(lws *w, dvc_ivec_t out, const dvc_imat_t M, const dvc_ivec_t x)
{
    for (long i = 0; i < M->r; i++) {
        mpfi_set_ui(w->mvs, 0);
        for (long k = 0; k < M->c; k++) {
            mpfi_mul(w->mvt, dvc_imat_entry(M, i, k), x->e[k]);
            mpfi_add(w->mvs, w->mvs, w->mvt);
        }
        mpfi_set(out->e[i], w->mvs);
    }
}

/* out <- ||v||_inf rounded up, NaN kept (dvc_ivec_norm_inf without its
 * allocations) */
void dvc_ln_ninf_(lws *w, mpfr_t out, const dvc_ivec_t v)
{
    mpfr_set_zero(out, 1);
    for (long i = 0; i < v->n; i++) {
        if (mpfr_nan_p(&v->e[i]->left) || mpfr_nan_p(&v->e[i]->right)) {
            mpfr_set_nan(out);
            return;
        }
        mpfr_abs(w->mga, &v->e[i]->left, MPFR_RNDU);
        if (mpfr_cmp(w->mga, out) > 0) mpfr_set(out, w->mga, MPFR_RNDU);
        mpfr_abs(w->mga, &v->e[i]->right, MPFR_RNDU);
        if (mpfr_cmp(w->mga, out) > 0) mpfr_set(out, w->mga, MPFR_RNDU);
    }
}

/* out <- mag x rounded up, NaN when an end is NaN (dvc_ival_mag) */
void dvc_ln_imag_(lws *w, mpfr_t out, const mpfi_t x)
{
    if (mpfr_nan_p(&x->left) || mpfr_nan_p(&x->right)) {
        mpfr_set_nan(out);
        return;
    }
    mpfr_abs(w->mga, &x->left, MPFR_RNDU);
    mpfr_abs(out, &x->right, MPFR_RNDU);
    mpfr_max(out, out, w->mga, MPFR_RNDU);
}

/* out <- Q x + g (x an interval vector, g m entries). */
void dvc_ln_q_of_(lws *w, dvc_ivec_t out, const dvc_ivec_t x, const dvc_ivec_t g)
{
    dvc_ln_mv_(w, w->tm_, w->p->Q, x);
    dvc_ivec_add(out, w->tm_, g);
}

/* The binary64 form of q_of at 53 bits: out <- Q [xl, xh] + g, the
 * MPFI operations in their order under FE_UPWARD (the zero entries of Q,
 * which add exact zeros there, skipped); 0 when not finite (then q_of). */
int dvc_ln_q_fast_(lws *w, dvc_ivec_t out, const double *xl, const double *xh, const dvc_ivec_t g)
{
    long m = w->m;
    int ok = 1, saved;
    if (dvc_ln_has_(w, DVC_LNQ_GCONST, DVC_LN_BINARY64)) {
        memcpy(w->gql, w->gcl, (size_t)m * sizeof(double));
        memcpy(w->gqh, w->gch, (size_t)m * sizeof(double));
    } else {
        dvc_ln_to_d_(w->gql, w->gqh, g);
    }
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (long a = 0; a < m; a++) w->ql[a] = w->qh[a] = 0.0;
    dvc_dlvi_spm_addmul_u_(w->ql, w->qh, &w->fQ, xl, xh);
    for (long a = 0; a < m; a++) {
        w->qh[a] = w->qh[a] + w->gqh[a];
        w->ql[a] = -((-w->ql[a]) + (-w->gql[a]));
        ok = ok && isfinite(w->ql[a]) && isfinite(w->qh[a]);
    }
    dvc_rnd_restore(saved);
    if (ok) dvc_ln_from_d_(out, w->ql, w->qh);
    return ok;
}

/* ||G Q v||_inf (G NULL: ||Q v||_inf) for v in the box [lo, hi], in binary64
 * under FE_UPWARD (mv and ninf's operations and roundings); -1 when not
 * finite (the caller then uses MPFI). */
double dvc_ln_qnorm_d_(lws *w, const dvc_dlvi_fspm *G, const double *lo, const double *hi)
{
    long m = w->m;
    double nv = 0.0, *rl = w->ql, *rh = w->qh;
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (long a = 0; a < m; a++) w->ql[a] = w->qh[a] = 0.0;
    dvc_dlvi_spm_addmul_u_(w->ql, w->qh, &w->fQ, lo, hi);
    if (G) {
        for (long a = 0; a < m; a++) w->gql[a] = w->gqh[a] = 0.0;
        dvc_dlvi_spm_addmul_u_(w->gql, w->gqh, G, w->ql, w->qh);
        rl = w->gql;
        rh = w->gqh;
    }
    for (long a = 0; a < m; a++) nv = fmax(nv, dvc_fi_mag_(rl[a], rh[a]));
    dvc_rnd_restore(saved);
    return isfinite(nv) ? nv : -1.0;
}

/* dx, xm, X in MPFI from their doubles (the fast path keeps them there
 * until an MPFI part of the step needs them) */
void dvc_ln_x_mpfi_(lws *w)
{
    if (dvc_ln_has_(w, DVC_LNQ_X, DVC_LN_MPFI)) return;
    dvc_ln_from_d_(w->dx, w->dxl, w->dxh);
    dvc_ln_from_d_(w->xm, w->xml, w->xmh);
    dvc_ln_from_d_(w->X, w->Xl, w->Xh);
    dvc_ln_add_(w, DVC_LNQ_X, DVC_LN_MPFI);
}

/* A function of time with Lipschitz constant 0 on [0, T] is constant
 * there: its enclosure over [0, T] serves every time in [0, T] (the
 * engine only asks about such times), instead of an evaluation per call. */
dvc_status dvc_ln_cst_eval_(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    dvc_ivec_set(out, (dvc_ivec_struct *)ctx);
    return DVC_OK;
}

static dvc_status cst_lip(mpfr_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    mpfr_set_zero(out, 1);
    return DVC_OK;
}

static dvc_status cst_deriv(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    dvc_ivec_zero(out);
    return DVC_OK;
}

void dvc_ln_const_cb_(lws *w, dvc_tfun_cb *f, dvc_ivec_t store)
{
    if (f->eval == NULL || store->n != f->k) return;
    mpfi_interv_fr(w->tstep, &w->p->T->left, &w->p->T->right);
    mpfi_put_ui(w->tstep, 0);
    if (f->lipschitz(w->r1, w->tstep, f->ctx) == DVC_OK && mpfr_zero_p(w->r1) &&
        dvc_dlvi_tf_eval_(f, store, w->tstep, "f") == DVC_OK) {
        f->eval = dvc_ln_cst_eval_;
        f->lipschitz = cst_lip;
        f->deriv = cst_deriv;
        f->ctx = store;
    }
    dvc_error_reset();
}

/* The binary64 path: at 53 bits (every MPFR value a double) unless
 * o->binary64 is 0 (tests compare both paths). */
dvc_status dvc_ln_fast_init_(lws *w)
{
    long n = w->n, m = w->m > 0 ? w->m : 1, K = w->K, sz;
    double *b;
    w->fast = 0;
    w->reuse = w->o->reuse != 0;
    if (w->prec != 53 || !w->o->binary64) return DVC_OK;
    /* av 2 x 2Kn, rp and fk 2 x Kn each, gk 2Km, ym gm 4m, fm Fs 4n, C c0 3Kn, Dp Di
     * 2K, defect scratch 12n + 4m, Lr and the set's box 4n, lohner scratch */
    sz = 4 * K * n + 4 * K * n + 2 * K * m + 4 * m + 4 * n + 3 * K * n + 2 * K + 12 * n + 4 * m + 4 * n +
         6 * n + 4 * m + 2 * m + (long)dvc_lnf_lohner_scratch_(n);
    w->fbuf = calloc((size_t)sz, sizeof(double));
    w->fG = calloc((size_t)w->npat, sizeof(dvc_dlvi_fspm));
    if (!w->fbuf || !w->fG) {
        free(w->fbuf);
        free(w->fG);
        return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    }
    b = w->fbuf;
    w->avl = b, b += 2 * K * n;
    w->avh = b, b += 2 * K * n;
    w->rpl = b, b += K * n;
    w->rph = b, b += K * n;
    w->fkl = b, b += K * n;
    w->fkh = b, b += K * n;
    w->gkl = b, b += K * m;
    w->gkh = b, b += K * m;
    w->yml = b, b += m;
    w->ymh = b, b += m;
    w->gml = b, b += m;
    w->gmh = b, b += m;
    w->fml = b, b += n;
    w->fmh = b, b += n;
    w->Fsl = b, b += n;
    w->Fsh = b, b += n;
    w->Cl = b, b += K * n;
    w->Ch = b, b += K * n;
    w->c0d = b, b += K * n;
    w->Dpd = b, b += K;
    w->Did = b, b += K;
    w->scr = b, b += 12 * n + 4 * m;
    w->Lrl = b, b += n;
    w->Lrh = b, b += n;
    w->ol = b, b += n;
    w->oh = b, b += n;
    w->dxl = b, b += n;
    w->dxh = b, b += n;
    w->xml = b, b += n;
    w->xmh = b, b += n;
    w->Xl = b, b += n;
    w->Xh = b, b += n;
    w->ql = b, b += m;
    w->qh = b, b += m;
    w->gql = b, b += m;
    w->gqh = b, b += m;
    w->gcl = b, b += m;
    w->gch = b, b += m;
    w->lscr = b;
    w->fast = 1;
    /* all three built (no short circuit), so that all three can be cleared */
    int okA = dvc_dlvi_fspm_build_(&w->fA, w->p->A), okB = dvc_dlvi_fspm_build_(&w->fB, w->p->B),
        okQ = dvc_dlvi_fspm_build_(&w->fQ, w->p->Q);
    if (!okA || !okB || !okQ) {
        /* an endpoint beyond binary64: MPFI only */
        dvc_dlvi_fspm_clear_(&w->fA);
        dvc_dlvi_fspm_clear_(&w->fB);
        dvc_dlvi_fspm_clear_(&w->fQ);
        free(w->fG);
        free(w->fbuf);
        w->fG = NULL;
        w->fbuf = NULL;
        w->fast = 0;
        return DVC_OK;
    }
    /* a constant g (const_cb): every value of g is a copy of gc */
    if (w->reuse && w->m > 0 && w->g.eval == dvc_ln_cst_eval_) {
        dvc_ln_to_d_(w->gcl, w->gch, w->gc);
        dvc_ln_set_(w, DVC_LNQ_GCONST, DVC_LN_BOTH);
    }
    w->Td = mpfr_get_d(&w->p->T->right, MPFR_RNDU);
    return DVC_OK;
}

/* x <- lo/hi of an MPFI vector (exact at 53 bits) */
void dvc_ln_to_d_(double *lo, double *hi, const dvc_ivec_t v)
{
    for (long k = 0; k < v->n; k++) {
        lo[k] = mpfr_get_d(&v->e[k]->left, MPFR_RNDD);
        hi[k] = mpfr_get_d(&v->e[k]->right, MPFR_RNDU);
    }
}

void dvc_ln_from_d_(dvc_ivec_t v, const double *lo, const double *hi)
{
    for (long k = 0; k < v->n; k++) mpfi_interv_d(v->e[k], lo[k], hi[k]);
}

/* h's ends as doubles (rounded down, up), converted again only when h is
 * not the one converted last time (the last step, a non-uniform grid) */
void dvc_ln_h_d_(lws *w, double *lo, double *hi)
{
    if (!dvc_ln_has_(w, DVC_LNQ_H, DVC_LN_BINARY64) || !w->reuse || !mpfr_equal_p(&w->hconv->left, &w->h->left) || !mpfr_equal_p(&w->hconv->right, &w->h->right) ||
        mpfr_signbit(&w->hconv->left) != mpfr_signbit(&w->h->left) ||
        mpfr_signbit(&w->hconv->right) != mpfr_signbit(&w->h->right)) {
        mpfi_set(w->hconv, w->h);
        w->hd_lo = mpfr_get_d(&w->h->left, MPFR_RNDD);
        w->hd_hi = mpfr_get_d(&w->h->right, MPFR_RNDU);
        dvc_ln_set_(w, DVC_LNQ_H,
                    mpfr_number_p(&w->h->left) && mpfr_number_p(&w->h->right) ? DVC_LN_BINARY64 : DVC_LN_NONE);
    }
    *lo = w->hd_lo;
    *hi = w->hd_hi;
}

/* av, rp from the binary64 defect data, once per step */
void dvc_ln_defect_mpfi_(lws *w)
{
    long n = w->n;
    if (dvc_ln_has_(w, DVC_LNQ_DEFECT, DVC_LN_MPFI)) return;
    for (long k = 0; k < w->K; k++) {
        for (long e = 0; e <= 1; e++) {
            long j = 2 * k + e;
            for (long c = 0; c < n; c++) mpfi_interv_d(w->av[j]->e[c], w->avl[j * n + c], w->avh[j * n + c]);
        }
        for (long c = 0; c < n; c++) mpfi_interv_d(w->rp[k]->e[c], w->rpl[k * n + c], w->rph[k * n + c]);
    }
    dvc_ln_add_(w, DVC_LNQ_DEFECT, DVC_LN_MPFI);
}

dvc_status dvc_ln_lohner_init_(lws *w)
{
    long n = w->n;
    w->Lc = calloc((size_t)(n + 2 * n * n), sizeof(double));
    if (!w->Lc) return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    w->LB = w->Lc + n;
    w->Lm = w->LB + n * n;
    dvc_ivec_init2(w->Lr, n, w->prec);
    dvc_ivec_init2(w->Lv, n, w->prec);
    dvc_ivec_init2(w->Ly, n, w->prec);
    dvc_ivec_init2(w->Lt, n, w->prec);
    dvc_imat_init2(w->LM, n, n, w->prec);
    dvc_imat_init2(w->LBi, n, n, w->prec);
    dvc_imat_init2(w->LBp, n, n, w->prec);
    dvc_imat_init2(w->LT1, n, n, w->prec);
    dvc_imat_init2(w->LT2, n, n, w->prec);
    dvc_imat_init2(w->Jhull, n, n, w->prec);
    /* hull of every piece Jacobian (pattern-change steps) */
    dvc_imat_set(w->Jhull, w->J.Jh);
    w->lohner = 1;
    return DVC_OK;
}

/* r of the error set in MPFI from its doubles (after binary64 steps) */
void dvc_ln_lr_mpfi_(lws *w)
{
    if (!dvc_ln_has_(w, DVC_LNQ_LR, DVC_LN_BINARY64)) return;
    dvc_ln_from_d_(w->Lr, w->Lrl, w->Lrh);
    /* every caller rewrites r in MPFI next */
    dvc_ln_set_(w, DVC_LNQ_LR, DVC_LN_MPFI);
}

/* The box of the last binary64 error-set step into w->pv */
void dvc_ln_pv_mpfi_(lws *w)
{
    if (dvc_ln_has_(w, DVC_LNQ_EBOX, DVC_LN_BINARY64) && !dvc_ln_has_(w, DVC_LNQ_EBOX, DVC_LN_MPFI)) {
        dvc_ln_from_d_(w->pv, w->ol, w->oh);
        dvc_ln_add_(w, DVC_LNQ_EBOX, DVC_LN_MPFI);
    }
}
