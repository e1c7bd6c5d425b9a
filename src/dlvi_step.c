/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The DLVI engine proper: validation, certified constants, the
 * floating-point predictor and the per-step certification (one function,
 * cert_step, used by both dvc_dlvi_run and dvc_dlvi_certify). The bounds
 * and their proofs are in docs/bounds.md; the numbers in comments refer to
 * its sections. */
#include "dlvi_internal.h"
#include "fprnd.h"
#include "lvi_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* Step constants for one value of the LVI Lipschitz constant beta (the
 * global beta_M bound, or a local one when sharpening). Upper bounds. */
typedef struct {
    mpfr_t beta, bnB, bnBnQ, L, invD, a0, a1, eLh, phi;
    double d_beta, d_bnB, d_L, d_invD, d_a0, d_a1, d_eLh, d_phi; /* rounded up */
} consts_t;

/* Nonzero entries of an interval matrix, by row (chains of masses are
 * sparse; exact zeros cost nothing in the products). */
typedef struct {
    long r, nnz;
    long *start;     /* r + 1 */
    long *col;
    mpfi_ptr *val;
} spm_t;

typedef struct {
    const dvc_dlvi_problem_struct *p;
    const dvc_dlvi_opts *o;
    long n, m, N, lip_block;
    mpfr_prec_t prec;
    int sharpen;
    dvc_tfun_cb f, g;
    /* certification */
    dvc_lvi_solver_t solver;
    int solver_ok;
    dvc_lvi_result_t lres, lbox;
    mpfi_t h, theta, omt, ti, tn, tstep, tblk, s, u;
    mpfr_t nA, nB, nQ, hhi;
    consts_t glob, loc;
    int loc_valid, loc_better;
    int *loc_pat;
    dvc_ivec_t Fi, Fn, Gn, Gstep, q, qbox, w, X0, X1, Z;
    spm_t sA, sB, sQ;
    mpfr_t eps_i, eps, v0n, v0, Lx, Lf, Lg, dn, dx, cc, r1, r2, Lf_blk, Lg_blk;
    long blk_id;
    /* binary64 path (dlvi_fast.c) at 53 bits */
    int fast;
    dvc_dlvi_fspm fA, fB, fQ;
    double *fbuf, *f0lo, *f0hi, *f1lo, *f1hi, *glo, *ghi, *qlo, *qhi, *y0lo, *y0hi, *y1lo, *y1hi;
    double *wlo, *whi, *zlo, *zhi;
    double d_thlo, d_thhi, d_hlo, d_hhi, d_nQ, d_Lf, d_Lg;
    int fd_ready;    /* f1lo/hi, glo/hi already hold Fn, Gn */
    int fg_ready;    /* Fn, Gn already hold f, g at t_{i+1} (run mode) */
    /* predictor (doubles) */
    double hd, thd;
    double *Ad, *Bd, *Qd, *Md, *ld, *ud, *W, *WB, *Mp, *fv, *gv, *rv, *pv, *qv;
    long *lspiv;     /* pivots of the floating LU */
    dvc_lvi_pred_ws lpw; /* the LVI predictor's workspace (m > 0) */
    int lpw_ok;
} ws_t;

/* ---- small helpers --------------------------------------------------- */

static void consts_init(consts_t *c, mpfr_prec_t prec)
{
    mpfr_inits2(prec, c->beta, c->bnB, c->bnBnQ, c->L, c->invD, c->a0, c->a1, c->eLh, c->phi,
                (mpfr_ptr)0);
}

static void consts_clear(consts_t *c)
{
    mpfr_clears(c->beta, c->bnB, c->bnBnQ, c->L, c->invD, c->a0, c->a1, c->eLh, c->phi,
                (mpfr_ptr)0);
}

/* Upper bound of ||v||_inf for an interval vector (NaN-safe: +inf). */
static void ivec_norm(mpfr_t r, const dvc_ivec_t v, mpfr_t tmp)
{
    mpfr_set_zero(r, 1);
    for (long k = 0; k < v->n; k++) {
        if (mpfr_nan_p(&v->e[k]->left) || mpfr_nan_p(&v->e[k]->right)) {
            mpfr_set_inf(r, 1);
            return;
        }
        mpfr_abs(tmp, &v->e[k]->left, MPFR_RNDU);
        if (mpfr_cmp(tmp, r) > 0) mpfr_set(r, tmp, MPFR_RNDU);
        mpfr_abs(tmp, &v->e[k]->right, MPFR_RNDU);
        if (mpfr_cmp(tmp, r) > 0) mpfr_set(r, tmp, MPFR_RNDU);
    }
}

/* Double rounded up (a valid upper bound to store). */
static double up_d(const mpfr_t x) { return mpfr_get_d(x, MPFR_RNDU); }

static void spm_build(spm_t *S, const dvc_imat_t A)
{
    S->r = A->r;
    S->start = calloc((size_t)(A->r + 1), sizeof(long));
    S->col = calloc((size_t)(A->r * A->c + 1), sizeof(long));
    S->val = calloc((size_t)(A->r * A->c + 1), sizeof(mpfi_ptr));
    if (!S->start || !S->col || !S->val) abort();
    S->nnz = dvc_dlvi_pattern_(S->start, S->col, A);
    for (long i = 0; i < A->r; i++)
        for (long k = S->start[i]; k < S->start[i + 1]; k++) S->val[k] = dvc_imat_entry(A, i, S->col[k]);
}

static void spm_clear(spm_t *S)
{
    free(S->start);
    free(S->col);
    free(S->val);
    memset(S, 0, sizeof *S);
}

/* out[i] += sum_j S_ij x_j */
static void spm_addmul(dvc_ivec_t out, const spm_t *S, const mpfi_t *x, mpfi_t tmp)
{
    for (long i = 0; i < S->r; i++)
        for (long k = S->start[i]; k < S->start[i + 1]; k++) {
            mpfi_mul(tmp, S->val[k], x[S->col[k]]);
            mpfi_add(out->e[i], out->e[i], tmp);
        }
}

/* ---- functions of time ------------------------------------------------ */

/* The problem's callback for f (k = n) or g (k = m), checked; eval NULL
 * means zero. */
static dvc_status tf_resolve(dvc_tfun_cb *out, const dvc_tfun_cb *cb, long k, const char *name)
{
    memset(out, 0, sizeof *out);
    if (cb != NULL && cb->eval != NULL) {
        if (cb->k != k)
            return dvc_error(DVC_ERR_INPUT, "dlvi: %s has %ld components, need %ld", name, cb->k, k);
        if (cb->lipschitz == NULL || cb->eval_d == NULL)
            return dvc_error(DVC_ERR_INPUT, "dlvi: %s: eval, lipschitz and eval_d are all needed", name);
        *out = *cb;
    }
    return DVC_OK;
}

static dvc_status tf_eval(const dvc_tfun_cb *f, dvc_ivec_t out, const mpfi_t t, const char *name)
{
    dvc_status st;
    if (f->eval == NULL) {
        dvc_ivec_zero(out);
        return DVC_OK;
    }
    st = f->eval(out, t, f->ctx);
    if (st != DVC_OK) return dvc_error_context(st, "%s(t): ", name);
    for (long k = 0; k < out->n; k++)
        if (!dvc_ival_is_finite(out->e[k]) || !dvc_ival_is_valid(out->e[k]))
            return dvc_error(DVC_NOT_CERTIFIED, "%s(t) component %ld: no finite enclosure", name, k + 1);
    return DVC_OK;
}

static dvc_status tf_lip(const dvc_tfun_cb *f, mpfr_t out, const mpfi_t t, const char *name)
{
    dvc_status st;
    if (f->eval == NULL) {
        mpfr_set_zero(out, 1);
        return DVC_OK;
    }
    st = f->lipschitz(out, t, f->ctx);
    if (st != DVC_OK) return dvc_error_context(st, "Lipschitz constant of %s: ", name);
    if (!mpfr_number_p(out) || mpfr_sgn(out) < 0)
        return dvc_error(DVC_NOT_CERTIFIED, "Lipschitz constant of %s: not a finite bound", name);
    return DVC_OK;
}

static void tf_eval_d(const dvc_tfun_cb *f, double *out, double t, long k)
{
    if (f->eval == NULL) {
        for (long j = 0; j < k; j++) out[j] = 0.0;
        return;
    }
    f->eval_d(out, t, f->ctx);
}

/* ---- the LVI predictor ------------------------------------------------ */

/* LVI(l, u, q, M) in doubles: the library's one predictor (lvi module),
 * warm-started from guess (may be NULL, may alias y), the result clamped into [l, u]. y holds the result;
 * DVC_NOT_CERTIFIED when no consistent piece was found (y is then the
 * best point seen). */
static dvc_status lvi_pred(ws_t *w, const double *M, const double *q, double *y, const double *guess)
{
    long m = w->m;
    dvc_status st = dvc_lvi_predict_ws(&w->lpw, y, NULL, M, q, w->ld, w->ud, m, guess);
    if (st != DVC_OK && st != DVC_NOT_CERTIFIED) return st;
    for (long k = 0; k < m; k++) y[k] = fmin(fmax(y[k], w->ld[k]), w->ud[k]);
    return st;
}

/* ---- workspace -------------------------------------------------------- */

static void ws_zero(ws_t *w) { memset(w, 0, sizeof *w); }

static void ws_clear(ws_t *w)
{
    if (w->prec == 0) return;
    if (w->solver_ok) dvc_lvi_solver_clear(w->solver);
    dvc_lvi_result_clear(w->lres);
    dvc_lvi_result_clear(w->lbox);
    dvc_dlvi_iclears_(w->h, w->theta, w->omt, w->ti, w->tn, w->tstep, w->tblk, w->s, w->u, (mpfi_ptr)0);
    mpfr_clears(w->nA, w->nB, w->nQ, w->hhi, w->eps_i, w->eps, w->v0n, w->v0, w->Lx, w->Lf, w->Lg,
                w->dn, w->dx, w->cc, w->r1, w->r2, w->Lf_blk, w->Lg_blk, (mpfr_ptr)0);
    consts_clear(&w->glob);
    consts_clear(&w->loc);
    dvc_ivec_clear(w->Fi);
    dvc_ivec_clear(w->Fn);
    dvc_ivec_clear(w->Gn);
    dvc_ivec_clear(w->Gstep);
    dvc_ivec_clear(w->q);
    dvc_ivec_clear(w->qbox);
    dvc_ivec_clear(w->w);
    dvc_ivec_clear(w->X0);
    dvc_ivec_clear(w->X1);
    dvc_ivec_clear(w->Z);
    spm_clear(&w->sA);
    spm_clear(&w->sB);
    spm_clear(&w->sQ);
    dvc_dlvi_fspm_clear_(&w->fA);
    dvc_dlvi_fspm_clear_(&w->fB);
    dvc_dlvi_fspm_clear_(&w->fQ);
    free(w->fbuf);
    free(w->loc_pat);
    free(w->Ad);
    free(w->lspiv);
    if (w->lpw_ok) dvc_lvi_pred_ws_clear(&w->lpw);
    ws_zero(w);
}

/* Both ends finite and within the binary64 range. */
static int ival_fits_d(const mpfi_t x)
{
    return mpfr_number_p(&x->left) && mpfr_number_p(&x->right) &&
           isfinite(mpfr_get_d(&x->left, MPFR_RNDD)) && isfinite(mpfr_get_d(&x->right, MPFR_RNDU));
}

/* An infinite end, or a finite one within the binary64 range. */
static int end_fits_d(mpfr_srcptr x, mpfr_rnd_t rnd) { return mpfr_inf_p(x) || isfinite(mpfr_get_d(x, rnd)); }

static int imat_dims(const dvc_imat_t A, long r, long c) { return A->r == r && A->c == c; }

static dvc_status validate(const dvc_dlvi_problem_struct *p)
{
    long n = p->n, m = p->m;
    if (n < 1 || m < 0) return dvc_error(DVC_ERR_INPUT, "dlvi: need n >= 1 and m >= 0 (n = %ld, m = %ld)", n, m);
    if (!imat_dims(p->A, n, n)) return dvc_error(DVC_ERR_INPUT, "dlvi: A must be %ldx%ld", n, n);
    if (!imat_dims(p->B, n, m)) return dvc_error(DVC_ERR_INPUT, "dlvi: B must be %ldx%ld", n, m);
    if (!imat_dims(p->Q, m, n)) return dvc_error(DVC_ERR_INPUT, "dlvi: Q must be %ldx%ld", m, n);
    if (!imat_dims(p->M, m, m)) return dvc_error(DVC_ERR_INPUT, "dlvi: M must be %ldx%ld", m, m);
    if (p->l->n != m || p->u->n != m) return dvc_error(DVC_ERR_INPUT, "dlvi: l and u need %ld entries", m);
    if (p->x0->n != n) return dvc_error(DVC_ERR_INPUT, "dlvi: x0 needs %ld entries", n);
    {
        /* the predictor and the stored bounds are binary64: data beyond its
         * range could only give infinite bounds */
        const struct { const char *name; const dvc_imat_struct *A; } mats[] = {
            {"A", p->A}, {"B", p->B}, {"Q", p->Q}, {"M", p->M}};
        for (int k = 0; k < 4; k++)
            for (long e = 0; e < mats[k].A->r * mats[k].A->c; e++)
                if (!ival_fits_d(mats[k].A->e[e]))
                    return dvc_error(DVC_ERR_INPUT, "dlvi: %s entry (%ld, %ld) must be finite and within "
                                     "the binary64 range", mats[k].name, e / mats[k].A->c + 1,
                                     e % mats[k].A->c + 1);
    }
    for (long k = 0; k < n; k++)
        if (!ival_fits_d(p->x0->e[k]))
            return dvc_error(DVC_ERR_INPUT, "dlvi: x0 entry %ld must be finite and within the binary64 range",
                             k + 1);
    for (long k = 0; k < m; k++) {
        if (!dvc_ival_is_valid(p->l->e[k]) || !dvc_ival_is_valid(p->u->e[k]))
            return dvc_error(DVC_ERR_INPUT, "dlvi: l, u entry %ld is NaN", k + 1);
        if (!end_fits_d(&p->l->e[k]->left, MPFR_RNDD) || !end_fits_d(&p->l->e[k]->right, MPFR_RNDU) ||
            !end_fits_d(&p->u->e[k]->left, MPFR_RNDD) || !end_fits_d(&p->u->e[k]->right, MPFR_RNDU))
            return dvc_error(DVC_ERR_INPUT, "dlvi: l, u entry %ld must be -inf, +inf or within the "
                             "binary64 range", k + 1);
    }
    if (p->N < 1) return dvc_error(DVC_ERR_INPUT, "dlvi: N must be >= 1 (N = %ld)", p->N);
    if (!ival_fits_d(p->T) || !dvc_ival_is_pos(p->T))
        return dvc_error(DVC_ERR_INPUT, "dlvi: T must be a finite interval > 0");
    if (!dvc_ival_is_valid(p->theta) || !dvc_ival_is_nonneg(p->theta) ||
        mpfr_cmp_ui(&p->theta->right, 1) > 0)
        return dvc_error(DVC_ERR_INPUT, "dlvi: theta must lie in [0, 1]");
    return DVC_OK;
}

/* c <- step constants for the Lipschitz constant beta (upper bound).
 * Returns 0 when the step condition D = 1 - h((1-theta)||A|| + beta ||B||
 * ||Q||) > 0 cannot be proven (docs/bounds.md, section 3). */
static int make_consts(ws_t *w, consts_t *c, const mpfr_t beta)
{
    int ok;
    mpfi_t D, X;
    mpfi_init2(D, w->prec);
    mpfi_init2(X, w->prec);
    mpfr_set(c->beta, beta, MPFR_RNDU);
    mpfr_mul(c->bnB, beta, w->nB, MPFR_RNDU);
    mpfr_mul(c->bnBnQ, c->bnB, w->nQ, MPFR_RNDU);
    mpfr_add(c->L, w->nA, c->bnBnQ, MPFR_RNDU);
    /* D = 1 - h ((1 - theta) nA + beta nB nQ), in intervals */
    mpfi_mul_fr(D, w->omt, w->nA);
    mpfi_add_fr(D, D, c->bnBnQ);
    mpfi_mul(D, D, w->h);
    mpfi_ui_sub(D, 1, D);
    ok = dvc_ival_is_pos(D);
    if (ok) {
        mpfr_ui_div(c->invD, 1, &D->left, MPFR_RNDU);
        /* a0 = (1 + h theta nA) / D */
        mpfr_mul(c->a0, w->hhi, &w->theta->right, MPFR_RNDU);
        mpfr_mul(c->a0, c->a0, w->nA, MPFR_RNDU);
        mpfr_add_ui(c->a0, c->a0, 1, MPFR_RNDU);
        mpfr_mul(c->a0, c->a0, c->invD, MPFR_RNDU);
        /* a1 = h^2 / (2 D) */
        mpfr_sqr(c->a1, w->hhi, MPFR_RNDU);
        mpfr_div_ui(c->a1, c->a1, 2, MPFR_RNDU);
        mpfr_mul(c->a1, c->a1, c->invD, MPFR_RNDU);
        /* Gronwall factors: e^{Lh} and (e^{Lh} - 1)/L (increasing in L, h) */
        mpfr_mul(c->eLh, c->L, w->hhi, MPFR_RNDU);
        if (mpfr_zero_p(c->eLh)) {
            mpfr_set_ui(c->eLh, 1, MPFR_RNDU);
            mpfr_set(c->phi, w->hhi, MPFR_RNDU);
        } else {
            mpfi_set_fr(X, c->eLh);
            mpfi_expm1(D, X);
            mpfi_div(D, D, X);
            mpfr_mul(c->phi, &D->right, w->hhi, MPFR_RNDU);
            mpfr_exp(c->eLh, c->eLh, MPFR_RNDU);
        }
        c->d_beta = up_d(c->beta);
        c->d_bnB = up_d(c->bnB);
        c->d_L = up_d(c->L);
        c->d_invD = up_d(c->invD);
        c->d_a0 = up_d(c->a0);
        c->d_a1 = up_d(c->a1);
        c->d_eLh = up_d(c->eLh);
        c->d_phi = up_d(c->phi);
    }
    mpfi_clear(D);
    mpfi_clear(X);
    return ok;
}

/* Double copies of the data for the predictor (one block). */
static dvc_status pred_alloc(ws_t *w, const dvc_dlvi_problem_struct *p, double hd)
{
    long n = w->n, m = w->m;
    long sz = n * n + n * m + m * n + m * m + 2 * m + n * n + n * m + m * m + n + m + n + n + m;
    double *b;
    w->Ad = calloc((size_t)(sz + 1), sizeof(double));
    w->lspiv = calloc((size_t)(n + 1), sizeof(long));
    if (!w->Ad || !w->lspiv) return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory");
    if (m > 0) {
        if (dvc_lvi_pred_ws_init(&w->lpw, m) != 0) return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory");
        w->lpw_ok = 1;
    }
    b = w->Ad;
    w->Bd = b += n * n;
    w->Qd = b += n * m;
    w->Md = b += m * n;
    w->ld = b += m * m;
    w->ud = b += m;
    w->W = b += m;
    w->WB = b += n * n;
    w->Mp = b += n * m;
    w->fv = b += m * m;
    w->gv = b += n;
    w->rv = b += m;
    w->pv = b += n;
    w->qv = b + n;
    dvc_imat_mid_d(w->Ad, p->A);
    dvc_imat_mid_d(w->Bd, p->B);
    dvc_imat_mid_d(w->Qd, p->Q);
    dvc_imat_mid_d(w->Md, p->M);
    for (long k = 0; k < m; k++) {
        w->ld[k] = mpfr_get_d(&p->l->e[k]->right, MPFR_RNDU);
        w->ud[k] = mpfr_get_d(&p->u->e[k]->left, MPFR_RNDD);
    }
    w->hd = hd;
    w->thd = dvc_ival_mid_d(p->theta);
    return DVC_OK;
}

static dvc_status ws_init(ws_t *w, dvc_dlvi_result_t r, const dvc_dlvi_problem_struct *p,
                          const dvc_dlvi_opts *o)
{
    dvc_status st;
    long n = p->n, m = p->m;
    mpfr_prec_t prec;
    dvc_beta_bound_t beta;
    ws_zero(w);
    if ((st = validate(p)) != DVC_OK) return st;
    prec = o->prec > 0 ? o->prec : (p->prec > 0 ? p->prec : DVC_DEFAULT_PREC);
    w->p = p;
    w->o = o;
    w->n = n;
    w->m = m;
    w->N = p->N;
    w->prec = prec;
    w->sharpen = o->sharpen && m > 0;
    w->lip_block = o->lip_block > 0 ? o->lip_block : 16;
    dvc_lvi_result_init(w->lres, m);
    dvc_lvi_result_init(w->lbox, m);
    dvc_dlvi_iinits_(prec, w->h, w->theta, w->omt, w->ti, w->tn, w->tstep, w->tblk, w->s, w->u, (mpfi_ptr)0);
    mpfr_inits2(prec, w->nA, w->nB, w->nQ, w->hhi, w->eps_i, w->eps, w->v0n, w->v0, w->Lx, w->Lf,
                w->Lg, w->dn, w->dx, w->cc, w->r1, w->r2, w->Lf_blk, w->Lg_blk, (mpfr_ptr)0);
    consts_init(&w->glob, prec);
    consts_init(&w->loc, prec);
    dvc_ivec_init2(w->Fi, n, prec);
    dvc_ivec_init2(w->Fn, n, prec);
    dvc_ivec_init2(w->Gn, m, prec);
    dvc_ivec_init2(w->Gstep, m, prec);
    dvc_ivec_init2(w->q, m, prec);
    dvc_ivec_init2(w->qbox, m, prec);
    dvc_ivec_init2(w->w, n, prec);
    dvc_ivec_init2(w->X0, n, prec);
    dvc_ivec_init2(w->X1, n, prec);
    dvc_ivec_init2(w->Z, n, prec);
    spm_build(&w->sA, p->A);
    spm_build(&w->sB, p->B);
    spm_build(&w->sQ, p->Q);
    w->fast = prec == 53 && getenv("DVC_DLVI_NOFAST") == NULL;
    if (w->fast) {
        long nb = 8 * m + 8 * n + 16;
        w->fast = dvc_dlvi_fspm_build_(&w->fA, p->A) & dvc_dlvi_fspm_build_(&w->fB, p->B) &
                  dvc_dlvi_fspm_build_(&w->fQ, p->Q);
        w->fbuf = calloc((size_t)nb, sizeof(double));
        if (!w->fbuf) return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory");
        w->f0lo = w->fbuf;
        w->f0hi = w->f0lo + n;
        w->f1lo = w->f0hi + n;
        w->f1hi = w->f1lo + n;
        w->wlo = w->f1hi + n;
        w->whi = w->wlo + n;
        w->zlo = w->whi + n;
        w->zhi = w->zlo + n;
        w->glo = w->zhi + n;
        w->ghi = w->glo + m;
        w->qlo = w->ghi + m;
        w->qhi = w->qlo + m;
        w->y0lo = w->qhi + m;
        w->y0hi = w->y0lo + m;
        w->y1lo = w->y0hi + m;
        w->y1hi = w->y1lo + m;
    }
    w->loc_pat = calloc((size_t)(m > 0 ? m : 1), sizeof(int));
    w->blk_id = -1;
    if ((st = tf_resolve(&w->f, &p->fcb, n, "f")) != DVC_OK) return st;
    if ((st = tf_resolve(&w->g, &p->gcb, m, "g")) != DVC_OK) return st;
    if ((st = dvc_dlvi_result_alloc_(r, n, m, p->N, prec)) != DVC_OK) return st;
    /* y solves the VI, so y(t) in [l, u]: the reported y tube is met with it */
    if ((st = dvc_dlvi_result_set_ybox(r, p)) != DVC_OK) return st;
    r->sharpen = w->sharpen;

    /* h = T / N, theta, 1 - theta */
    mpfi_set(r->T, p->T);
    mpfi_div_si(w->h, p->T, p->N);
    mpfi_set(r->h, w->h);
    mpfr_set(w->hhi, &w->h->right, MPFR_RNDU);
    mpfi_set(w->theta, p->theta);
    mpfi_set(r->theta, p->theta);
    mpfi_ui_sub(w->omt, 1, w->theta);

    /* P-matrix proof and beta_M bound */
    if (m > 0) {
        st = dvc_lvi_solver_init(w->solver, p->M, p->l, p->u);
        w->solver_ok = 1;
        if (st != DVC_OK) return dvc_error_context(st, "dlvi: M: ");
        r->p_reason = w->solver->p_reason;
        dvc_beta_bound_init(beta);
        st = dvc_beta_compute(beta, NULL, p->M, &o->beta);
        if (st == DVC_OK && !mpfr_number_p(beta->hi)) st = dvc_error(DVC_NOT_CERTIFIED, "no finite bound");
        if (st != DVC_OK) {
            dvc_beta_bound_clear(beta);
            return dvc_error_context(st, "dlvi: beta_M: ");
        }
        mpfr_set(r->beta_lo, beta->lo, MPFR_RNDD);
        mpfr_set(r->beta_hi, beta->hi, MPFR_RNDU);
        r->beta_method = beta->method;
        dvc_beta_bound_clear(beta);
    } else {
        mpfr_set_zero(r->beta_lo, 1);
        mpfr_set_zero(r->beta_hi, 1);
        r->p_reason = "m = 0";
        r->beta_method = "m = 0";
    }
    dvc_imat_norm_inf(w->nA, p->A);
    dvc_imat_norm_inf(w->nB, p->B);
    dvc_imat_norm_inf(w->nQ, p->Q);
    mpfr_set(r->normA, w->nA, MPFR_RNDU);
    mpfr_set(r->normB, w->nB, MPFR_RNDU);
    mpfr_set(r->normQ, w->nQ, MPFR_RNDU);

    /* largest admissible h, rounded down: 1 / ((1-theta) nA + beta nB nQ) */
    mpfr_mul(w->r1, &w->omt->right, w->nA, MPFR_RNDU);
    mpfr_mul(w->r2, r->beta_hi, w->nB, MPFR_RNDU);
    mpfr_mul(w->r2, w->r2, w->nQ, MPFR_RNDU);
    mpfr_add(w->r1, w->r1, w->r2, MPFR_RNDU);
    if (mpfr_zero_p(w->r1)) mpfr_set_inf(r->hmax, 1);
    else mpfr_ui_div(r->hmax, 1, w->r1, MPFR_RNDD);
    if (!make_consts(w, &w->glob, r->beta_hi)) {
        double hmax = mpfr_get_d(r->hmax, MPFR_RNDD);
        char hint[160];
        mpfr_t nmin;
        mpfr_init2(nmin, prec);
        /* smallest N with T/N < h_max: floor(T.hi / h_max) + 1, rounded up;
         * it may exceed what a long holds (T/h_max huge or infinite) */
        mpfr_div(nmin, &p->T->right, r->hmax, MPFR_RNDU);
        mpfr_floor(nmin, nmin);
        mpfr_add_ui(nmin, nmin, 1, MPFR_RNDU);
        if (!mpfr_number_p(nmin) || mpfr_cmp_ui(nmin, DVC_DLVI_N_MAX) > 0)
            snprintf(hint, sizeof hint, "no admissible N: it would need N >= %.3g, above the limit "
                     "N <= %ld", mpfr_get_d(nmin, MPFR_RNDU), (long)DVC_DLVI_N_MAX);
        else
            snprintf(hint, sizeof hint, "use N >= %ld", mpfr_get_si(nmin, MPFR_RNDU));
        mpfr_clear(nmin);
        return dvc_error(DVC_NOT_CERTIFIED,
                         "dlvi: step condition h < 1/((1-theta)||A|| + beta_M ||B|| ||Q||) not proven: "
                         "h = T/N = %.17g, largest admissible h <= %.17g (%s)",
                         mpfr_get_d(&w->h->right, MPFR_RNDU), hmax, hint);
    }
    mpfr_set(r->L, w->glob.L, MPFR_RNDU);
    w->d_thlo = mpfr_get_d(&w->theta->left, MPFR_RNDD);
    w->d_thhi = mpfr_get_d(&w->theta->right, MPFR_RNDU);
    w->d_hlo = mpfr_get_d(&w->h->left, MPFR_RNDD);
    w->d_hhi = mpfr_get_d(&w->h->right, MPFR_RNDU);
    w->d_nQ = up_d(w->nQ);

    /* predictor data */
    return pred_alloc(w, p, dvc_ival_mid_d(w->h));
}

/* Predictor matrices: W = (I - h(1-theta)A)^{-1}, WB = W B, M' = M + h Q W B. */
static dvc_status pred_setup(ws_t *w)
{
    long n = w->n, m = w->m;
    double c = w->hd * (1.0 - w->thd);
    double *T = malloc((size_t)(n * n + n) * sizeof(double));
    if (!T) return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory");
    for (long a = 0; a < n; a++)
        for (long b = 0; b < n; b++) T[a * n + b] = (a == b ? 1.0 : 0.0) - c * w->Ad[a * n + b];
    if (dvc_fp_lu(T, w->lspiv, n) != 0) {
        free(T);
        return dvc_error(DVC_NOT_CERTIFIED, "dlvi predictor: I - h(1-theta)A is singular");
    }
    for (long j = 0; j < n; j++) {
        /* column j of the inverse */
        for (long a = 0; a < n; a++) T[n * n + a] = a == j ? 1.0 : 0.0;
        dvc_fp_lu_solve(T, w->lspiv, n, T + n * n);
        for (long a = 0; a < n; a++) w->W[a * n + j] = T[n * n + a];
    }
    free(T);
    for (long a = 0; a < n; a++)
        for (long b = 0; b < m; b++) {
            double s = 0.0;
            for (long k = 0; k < n; k++) s += w->W[a * n + k] * w->Bd[k * m + b];
            w->WB[a * m + b] = s;
        }
    for (long a = 0; a < m; a++)
        for (long b = 0; b < m; b++) {
            double s = 0.0;
            for (long k = 0; k < n; k++) s += w->Qd[a * n + k] * w->WB[k * m + b];
            w->Mp[a * m + b] = w->Md[a * m + b] + w->hd * s;
        }
    return DVC_OK;
}

/* y^0 from x^0 (LVI with M). */
static dvc_status pred_y0(ws_t *w, const double *x, double *y)
{
    long n = w->n, m = w->m;
    if (m == 0) return DVC_OK;
    tf_eval_d(&w->g, w->gv, 0.0, m);
    for (long a = 0; a < m; a++) {
        double s = w->gv[a];
        for (long k = 0; k < n; k++) s += w->Qd[a * n + k] * x[k];
        w->qv[a] = s;
    }
    if (lvi_pred(w, w->Md, w->qv, y, NULL) == DVC_NOT_CERTIFIED) dvc_error_reset();
    for (long k = 0; k < m; k++)
        if (!isfinite(y[k])) return dvc_error(DVC_NOT_CERTIFIED, "no finite LVI predictor at t = 0");
    return DVC_OK;
}

/* One theta step of the predictor: x1, y1 from x0 at t1 = (i+1) h. */
static dvc_status pred_step(ws_t *w, const double *x0, double *x1, double *y1, double t1, int have_fg)
{
    long n = w->n, m = w->m;
    double h = w->hd, th = w->thd;
    dvc_status st = DVC_OK;
    if (!have_fg) {
        tf_eval_d(&w->f, w->fv, t1, n);
        tf_eval_d(&w->g, w->gv, t1, m);
    }
    for (long a = 0; a < n; a++) {
        double s = 0.0;
        for (long k = 0; k < n; k++) s += w->Ad[a * n + k] * x0[k];
        w->rv[a] = x0[a] + h * (th * s + w->fv[a]);
    }
    for (long a = 0; a < n; a++) {
        double s = 0.0;
        for (long k = 0; k < n; k++) s += w->W[a * n + k] * w->rv[k];
        w->pv[a] = s;
    }
    if (m > 0) {
        for (long a = 0; a < m; a++) {
            double s = w->gv[a];
            for (long k = 0; k < n; k++) s += w->Qd[a * n + k] * w->pv[k];
            w->qv[a] = s;
        }
        st = lvi_pred(w, w->Mp, w->qv, y1, y1);
        /* a poor y only makes the defect larger: the certification decides */
        if (st == DVC_NOT_CERTIFIED) dvc_error_reset(), st = DVC_OK;
        if (st != DVC_OK) return dvc_error_context(st, "dlvi predictor at t = %.17g: ", t1);
    }
    for (long a = 0; a < n; a++) {
        double s = 0.0;
        for (long b = 0; b < m; b++) s += w->WB[a * m + b] * y1[b];
        x1[a] = w->pv[a] + h * s;
        if (!isfinite(x1[a])) return dvc_error(DVC_NOT_CERTIFIED, "dlvi predictor at t = %.17g: x is not finite", t1);
    }
    return DVC_OK;
}

/* ---- certification ---------------------------------------------------- */

/* q <- Q x + G (x doubles). */
static void q_of_x(ws_t *w, dvc_ivec_t q, const dvc_ivec_t X, const dvc_ivec_t G)
{
    dvc_ivec_set(q, G);
    spm_addmul(q, &w->sQ, X->e, w->s);
}

/* Certified LVI at q; the enclosure goes to r->yhat row i. */
static dvc_status cert_lvi(ws_t *w, dvc_dlvi_result_t r, long i, const dvc_ivec_t q, const double *guess)
{
    long m = w->m;
    dvc_status st;
    if (m == 0) return DVC_OK;
    st = dvc_lvi_solve(w->lres, w->solver, q, guess);
    if (st != DVC_OK) return st;
    for (long k = 0; k < m; k++) {
        if (!dvc_ival_is_finite(w->lres->y->e[k]))
            return dvc_error(DVC_NOT_CERTIFIED, "LVI enclosure is not finite");
        mpfi_set(r->yhat[i * m + k], w->lres->y->e[k]);
    }
    return DVC_OK;
}

/* eps_y[i] = beta nQ eps_x[i] + ||[yhat^i] - y^i||. */
static void set_eps_y(ws_t *w, dvc_dlvi_result_t r, long i, const consts_t *c)
{
    long m = w->m;
    mpfr_mul(w->r1, c->beta, w->nQ, MPFR_RNDU);
    mpfr_mul(w->r1, w->r1, r->eps_x[i], MPFR_RNDU);
    mpfr_set_zero(w->r2, 1);
    for (long k = 0; k < m; k++) {
        mpfi_sub_d(w->s, r->yhat[i * m + k], r->y[i * m + k]);
        dvc_ival_mag(w->cc, w->s);
        if (mpfr_cmp(w->cc, w->r2) > 0) mpfr_set(w->r2, w->cc, MPFR_RNDU);
    }
    mpfr_add(r->eps_y[i], w->r1, w->r2, MPFR_RNDU);
    if (mpfr_cmp(r->eps_y[i], r->max_eps_y) > 0) mpfr_set(r->max_eps_y, r->eps_y[i], MPFR_RNDU);
}

/* mpfr_get_d(x, rnd), faster for the common case: a regular number of at
 * most 53 bits in the normal range of binary64 is a double, assembled
 * exactly from its significand (MPFR's custom interface). */
static inline double fr_to_d(mpfr_srcptr x, mpfr_rnd_t rnd)
{
#if GMP_NUMB_BITS == 64
    if (mpfr_get_prec(x) <= 53 && mpfr_regular_p(x)) {
        mpfr_exp_t e = mpfr_custom_get_exp(x);
        if (e >= -1021 && e <= 1024) {
            const mp_limb_t *l = mpfr_custom_get_significand(x);
            uint64_t bits = ((uint64_t)(e - 1 + 1023) << 52) | (((uint64_t)l[0] >> 11) & 0xFFFFFFFFFFFFFull);
            double d;
            if (mpfr_signbit(x)) bits |= (uint64_t)1 << 63;
            memcpy(&d, &bits, sizeof d);
            return d;
        }
    }
#endif
    return mpfr_get_d(x, rnd);
}

/* Outward binary64 copy of an interval vector (exact at 53 bits). */
static void ivec_to_d(double *lo, double *hi, const dvc_ivec_t v)
{
    for (long k = 0; k < v->n; k++) {
        lo[k] = fr_to_d(&v->e[k]->left, MPFR_RNDD);
        hi[k] = fr_to_d(&v->e[k]->right, MPFR_RNDU);
    }
}

static void yrow_to_d(double *lo, double *hi, const mpfi_t *y, long m)
{
    for (long k = 0; k < m; k++) {
        lo[k] = fr_to_d(&y[k]->left, MPFR_RNDD);
        hi[k] = fr_to_d(&y[k]->right, MPFR_RNDU);
    }
}

/* A certified result is finite by contract (every stored bound must also
 * survive conversion to binary64, as the certificate writes it): name the
 * first grid quantity of row i that is not, or return NULL. */
static int fr_fits_d(mpfr_srcptr x) { return mpfr_number_p(x) && isfinite(mpfr_get_d(x, MPFR_RNDU)) && isfinite(mpfr_get_d(x, MPFR_RNDD)); }

static const char *grid_not_finite(const dvc_dlvi_result_t r, long i)
{
    long m = r->m;
    if (!fr_fits_d(r->eps_x[i])) return "eps_x";
    if (!fr_fits_d(r->eps_y[i])) return "eps_y";
    for (long k = 0; k < m; k++)
        if (!fr_fits_d(&r->yhat[i * m + k]->left) || !fr_fits_d(&r->yhat[i * m + k]->right)) return "yhat";
    return NULL;
}

/* The same for the per-step quantities of step i. */
static const char *step_not_finite(const dvc_dlvi_result_t r, long i)
{
    const char *q = grid_not_finite(r, i + 1);
    if (q) return q;
    if (!isfinite(r->Lx[i])) return "Lx";
    if (!isfinite(r->Lf[i])) return "Lf";
    if (!isfinite(r->Lg[i])) return "Lg";
    if (!isfinite(r->delta[i])) return "delta";
    if (!isfinite(r->beta_step[i])) return "beta_step";
    if (!isfinite(r->ry[i])) return "ry";
    return NULL;
}

/* max_eps_x, max_eps_y over the grid points 0..k (after a failed step
 * their running maxima may hold the rejected values). */
static void recompute_max(dvc_dlvi_result_t r, long k)
{
    mpfr_set(r->max_eps_x, r->eps_x[0], MPFR_RNDU);
    mpfr_set(r->max_eps_y, r->eps_y[0], MPFR_RNDU);
    for (long j = 1; j <= k; j++) {
        if (mpfr_cmp(r->eps_x[j], r->max_eps_x) > 0) mpfr_set(r->max_eps_x, r->eps_x[j], MPFR_RNDU);
        if (mpfr_cmp(r->eps_y[j], r->max_eps_y) > 0) mpfr_set(r->max_eps_y, r->eps_y[j], MPFR_RNDU);
    }
}

/* Grid point 0: eps_x[0] = ||x0 - x^0||, [yhat^0], F_0 = f(0). */
static dvc_status cert_start(ws_t *w, dvc_dlvi_result_t r, int have_y)
{
    dvc_status st;
    long n = w->n, m = w->m;
    mpfr_set_zero(r->eps_x[0], 1);
    for (long k = 0; k < n; k++) {
        mpfi_sub_d(w->s, w->p->x0->e[k], r->x[k]);
        dvc_ival_mag(w->r1, w->s);
        if (mpfr_cmp(w->r1, r->eps_x[0]) > 0) mpfr_set(r->eps_x[0], w->r1, MPFR_RNDU);
    }
    mpfr_set(r->max_eps_x, r->eps_x[0], MPFR_RNDU);
    mpfi_set_ui(w->ti, 0);
    r->t[0] = 0.0;
    if ((st = tf_eval(&w->f, w->Fi, w->ti, "f")) != DVC_OK) goto fail;
    if ((st = tf_eval(&w->g, w->Gn, w->ti, "g")) != DVC_OK) goto fail;
    dvc_ivec_set_d(w->X0, r->x);
    q_of_x(w, w->q, w->X0, w->Gn);
    if ((st = cert_lvi(w, r, 0, w->q, have_y ? r->y : NULL)) != DVC_OK) goto fail;
    if (!have_y)
        for (long k = 0; k < m; k++) r->y[k] = dvc_ival_mid_d(r->yhat[k]);
    set_eps_y(w, r, 0, &w->glob);
    {
        const char *q = grid_not_finite(r, 0);
        if (q) {
            st = dvc_error(DVC_NOT_CERTIFIED, "%s is not finite (overflows binary64)", q);
            goto fail;
        }
    }
    if (w->fast) {
        ivec_to_d(w->f0lo, w->f0hi, w->Fi);
        yrow_to_d(w->y0lo, w->y0hi, r->yhat, m);
    }
    return DVC_OK;
fail:
    return dvc_error_context(st == DVC_OK ? DVC_NOT_CERTIFIED : st, "dlvi: t = 0: ");
}

/* Local constant for the free set of the active pattern pat:
 * ||(M_FF)^{-1}|| (0 for an empty free set). docs/bounds.md, section 7. */
static dvc_status local_beta(ws_t *w, mpfr_t out, const int *pat)
{
    long m = w->m, nf = 0;
    long *F = malloc((size_t)(m > 0 ? m : 1) * sizeof(long));
    dvc_status st = DVC_OK;
    if (!F) return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory");
    for (long k = 0; k < m; k++)
        if (pat[k] == 0) F[nf++] = k;
    if (nf == 0) {
        mpfr_set_zero(out, 1);
    } else {
        dvc_imat_t S, Si;
        dvc_imat_init2(S, nf, nf, w->prec);
        dvc_imat_init2(Si, nf, nf, w->prec);
        dvc_imat_submatrix(S, w->p->M, F, nf, F, nf);
        st = dvc_imat_inv(Si, S);
        if (st == DVC_OK) dvc_imat_norm_inf(out, Si);
        dvc_imat_clear(S);
        dvc_imat_clear(Si);
    }
    free(F);
    return st;
}

/* Sharpening (Remark 4.3 made rigorous): returns the constants to use on
 * step i. Needs the global Lipschitz bound w->Lx of x on the step. */
static const consts_t *sharpen_step(ws_t *w, dvc_dlvi_result_t r, long i)
{
    long n = w->n, m = w->m;
    const double *xi = r->x + i * n, *xn = r->x + (i + 1) * n;
    dvc_status st;
    /* a priori radius eps_i + Lx h about x^i; box X also holds x^{i+1} */
    mpfr_mul(w->r1, w->Lx, w->hhi, MPFR_RNDU);
    mpfr_add(w->r1, w->r1, w->eps_i, MPFR_RNDU);
    if (tf_eval(&w->g, w->Gstep, w->tstep, "g") != DVC_OK) {
        dvc_error_reset();
        return &w->glob;
    }
    for (long a = 0; a < m; a++) {
        mpfi_set(w->qbox->e[a], w->Gstep->e[a]);
        for (long k = 0; k < n; k++) {
            mpfi_interv_fr(w->u, w->r1, w->r1);
            mpfr_neg(&w->u->left, w->r1, MPFR_RNDD);
            mpfi_add_d(w->u, w->u, xi[k]);
            mpfi_put_d(w->u, xn[k]);
            mpfi_mul(w->s, dvc_imat_entry(w->p->Q, a, k), w->u);
            mpfi_add(w->qbox->e[a], w->qbox->e[a], w->s);
        }
    }
    st = dvc_lvi_solve(w->lbox, w->solver, w->qbox, r->y + (i + 1) * m);
    if (st != DVC_OK || w->lbox->route != DVC_LVI_ROUTE_ACTIVE_SET || w->lbox->active == NULL) {
        dvc_error_reset();
        return &w->glob;
    }
    if (!w->loc_valid || memcmp(w->loc_pat, w->lbox->active, (size_t)m * sizeof(int)) != 0) {
        memcpy(w->loc_pat, w->lbox->active, (size_t)m * sizeof(int));
        w->loc_valid = 1;
        w->loc_better = 0;
        if (local_beta(w, w->r2, w->loc_pat) == DVC_OK && mpfr_cmp(w->r2, w->glob.beta) < 0)
            w->loc_better = make_consts(w, &w->loc, w->r2);
        dvc_error_reset();
    }
    return w->loc_better ? &w->loc : &w->glob;
}

/* ||A X + B [yv] + F|| (yv rows of r->yhat). */
static void field_norm(ws_t *w, mpfr_t out, const dvc_ivec_t X, const mpfi_t *yv, const dvc_ivec_t F)
{
    dvc_ivec_set(w->w, F);
    spm_addmul(w->w, &w->sA, X->e, w->s);
    spm_addmul(w->w, &w->sB, yv, w->s);
    ivec_norm(out, w->w, w->cc);
}

/* The grid point t_{i+1} of step i: f(t_{i+1}), g(t_{i+1}) (computed here,
 * or by the run loop at the same [t_{i+1}] for its predictor) and the
 * certified LVI [yhat^{i+1}] at Q x^{i+1} + g (section 5). *fast is
 * cleared when the binary64 copy of q is not finite. */
static dvc_status step_grid(ws_t *w, dvc_dlvi_result_t r, long i, int have_y, int *fast,
                            const char **what)
{
    long n = w->n, m = w->m;
    const double *xn = r->x + (i + 1) * n;
    dvc_status st;
    *what = "f, g at t_{i+1}";
    if (!w->fg_ready) {
        if ((st = tf_eval(&w->f, w->Fn, w->tn, "f")) != DVC_OK) return st;
        if ((st = tf_eval(&w->g, w->Gn, w->tn, "g")) != DVC_OK) return st;
    }
    w->fg_ready = 0;
    *what = "LVI at the predictor";
    *fast = w->fast;
    if (*fast) {
        if (!w->fd_ready) {
            ivec_to_d(w->f1lo, w->f1hi, w->Fn);
            ivec_to_d(w->glo, w->ghi, w->Gn);
        }
        *fast = dvc_dlvi_fast_q_(w->qlo, w->qhi, &w->fQ, xn, w->glo, w->ghi) == 0;
        if (*fast)
            for (long a = 0; a < m; a++) mpfi_interv_d(w->q->e[a], w->qlo[a], w->qhi[a]);
    }
    w->fd_ready = 0;
    if (!*fast) {
        dvc_ivec_set_d(w->X1, xn);
        q_of_x(w, w->q, w->X1, w->Gn);
    }
    if ((st = cert_lvi(w, r, i + 1, w->q, have_y ? r->y + (i + 1) * m : NULL)) != DVC_OK) return st;
    if (!have_y)
        for (long k = 0; k < m; k++) r->y[(i + 1) * m + k] = dvc_ival_mid_d(r->yhat[(i + 1) * m + k]);
    if (w->fast) yrow_to_d(w->y1lo, w->y1hi, r->yhat + (i + 1) * m, m);
    return DVC_OK;
}

/* Lipschitz constants L_f, L_g of f and g (section 1), computed over the
 * block of lip_block steps holding step i and valid on each of them. */
static dvc_status step_lip_fg(ws_t *w, long i)
{
    dvc_status st;
    if (i / w->lip_block != w->blk_id) {
        long b = i / w->lip_block, e = (b + 1) * w->lip_block;
        if (e > w->N) e = w->N;
        w->blk_id = b;
        mpfi_mul_si(w->s, w->h, b * w->lip_block);
        mpfi_mul_si(w->u, w->h, e);
        mpfi_interv_fr(w->tblk, &w->s->left, &w->u->right);
        if ((st = tf_lip(&w->f, w->Lf_blk, w->tblk, "f")) != DVC_OK) return st;
        if ((st = tf_lip(&w->g, w->Lg_blk, w->tblk, "g")) != DVC_OK) return st;
        w->d_Lf = up_d(w->Lf_blk);
        w->d_Lg = up_d(w->Lg_blk);
    }
    mpfr_set(w->Lf, w->Lf_blk, MPFR_RNDU);
    mpfr_set(w->Lg, w->Lg_blk, MPFR_RNDU);
    return DVC_OK;
}

/* The binary64 path of step i (section 8, src/dlvi_fast.c): the same
 * operations as the MPFI path. Returns 2 when every bound of the step is
 * stored, 1 when only ||x'(t_i)||, ||delta_i|| and ||x^{i+1} - x^i|| are
 * (w->v0n, w->dn, w->dx; sharpening needs the MPFI recursion), 0 when
 * the MPFI path must redo the step. */
static int step_fast(ws_t *w, dvc_dlvi_result_t r, long i, const consts_t *c)
{
    long n = w->n, m = w->m;
    dvc_dlvi_fast_io io;
    io.n = n;
    io.A = &w->fA;
    io.B = &w->fB;
    io.x0 = r->x + i * n;
    io.x1 = r->x + (i + 1) * n;
    io.f0lo = w->f0lo;
    io.f0hi = w->f0hi;
    io.f1lo = w->f1lo;
    io.f1hi = w->f1hi;
    io.y0lo = w->y0lo;
    io.y0hi = w->y0hi;
    io.y1lo = w->y1lo;
    io.y1hi = w->y1hi;
    io.thlo = w->d_thlo;
    io.thhi = w->d_thhi;
    io.hlo = w->d_hlo;
    io.hhi = w->d_hhi;
    io.wlo = w->wlo;
    io.whi = w->whi;
    io.zlo = w->zlo;
    io.zhi = w->zhi;
    if (dvc_dlvi_fast_step_(&io) != 0) return 0;
    if (!w->sharpen) {
        dvc_dlvi_fast_rec rc;
        rc.L = c->d_L;
        rc.bnB = c->d_bnB;
        rc.eLh = c->d_eLh;
        rc.phi = c->d_phi;
        rc.a0 = c->d_a0;
        rc.a1 = c->d_a1;
        rc.invD = c->d_invD;
        rc.beta = c->d_beta;
        rc.nQ = w->d_nQ;
        rc.hhi = w->d_hhi;
        rc.eps_i = up_d(r->eps_x[i]);
        rc.v0n = io.v0n;
        rc.Lf = w->d_Lf;
        rc.Lg = w->d_Lg;
        rc.dn = io.dn;
        rc.dx = io.dx;
        rc.ydev = dvc_dlvi_fast_ydev_(w->y1lo, w->y1hi, r->y + (i + 1) * m, m);
        if (dvc_dlvi_fast_recur_(&rc) == 0) {
            mpfr_set_d(r->eps_x[i + 1], rc.eps, MPFR_RNDU);
            if (mpfr_cmp(r->eps_x[i + 1], r->max_eps_x) > 0) mpfr_set(r->max_eps_x, r->eps_x[i + 1], MPFR_RNDU);
            mpfr_set_d(r->eps_y[i + 1], rc.eps_y, MPFR_RNDU);
            if (mpfr_cmp(r->eps_y[i + 1], r->max_eps_y) > 0) mpfr_set(r->max_eps_y, r->eps_y[i + 1], MPFR_RNDU);
            r->Lx[i] = rc.Lx;
            r->Lf[i] = w->d_Lf;
            r->Lg[i] = w->d_Lg;
            r->delta[i] = io.dn;
            r->beta_step[i] = c->d_beta;
            r->ry[i] = rc.ry;
            return 2;
        }
    }
    mpfr_set_d(w->v0n, io.v0n, MPFR_RNDU);
    mpfr_set_d(w->dn, io.dn, MPFR_RNDU);
    mpfr_set_d(w->dx, io.dx, MPFR_RNDU);
    return 1;
}

/* MPFI path: ||A x^i + B yhat^i + f(t_i)|| (section 4), the defect
 * delta_i = x^{i+1} - x^i - h (A (theta x^i + (1-theta) x^{i+1})
 *           + B yhat^{i+1} + f(t_{i+1})) (section 2)
 * and ||x^{i+1} - x^i||, into w->v0n, w->dn, w->dx. */
static dvc_status step_defect(ws_t *w, dvc_dlvi_result_t r, long i)
{
    long n = w->n, m = w->m;
    dvc_ivec_set_d(w->X0, r->x + i * n);
    dvc_ivec_set_d(w->X1, r->x + (i + 1) * n);
    field_norm(w, w->v0n, w->X0, r->yhat + i * m, w->Fi);
    mpfr_set_zero(w->dn, 1);
    mpfr_set_zero(w->dx, 1);
    for (long k = 0; k < n; k++) {
        /* z_k = x^{i+1}_k + theta (x^i_k - x^{i+1}_k) */
        mpfi_sub(w->s, w->X0->e[k], w->X1->e[k]);
        mpfi_mul(w->s, w->s, w->theta);
        mpfi_add(w->Z->e[k], w->s, w->X1->e[k]);
    }
    dvc_ivec_set(w->w, w->Fn);
    spm_addmul(w->w, &w->sA, w->Z->e, w->s);
    spm_addmul(w->w, &w->sB, r->yhat + (i + 1) * m, w->s);
    for (long a = 0; a < n; a++) {
        mpfi_mul(w->u, w->w->e[a], w->h);
        mpfi_sub(w->s, w->X1->e[a], w->X0->e[a]);
        dvc_ival_mag(w->r1, w->s);
        if (mpfr_cmp(w->r1, w->dx) > 0) mpfr_set(w->dx, w->r1, MPFR_RNDU);
        mpfi_sub(w->s, w->s, w->u);
        dvc_ival_mag(w->r1, w->s);
        if (!mpfr_number_p(w->r1)) return dvc_error(DVC_NOT_CERTIFIED, "defect is not finite");
        if (mpfr_cmp(w->r1, w->dn) > 0) mpfr_set(w->dn, w->r1, MPFR_RNDU);
    }
    return DVC_OK;
}

/* Lipschitz constant of x on the step (section 4, Gronwall):
 * v0 = ||A x^i + B yhat^i + f(t_i)|| + L eps_i,
 * L_x = v0 e^{Lh} + (beta ||B|| L_g + L_f)(e^{Lh} - 1)/L, into w->Lx
 * (and beta ||B|| L_g + L_f into w->cc). */
static void step_lip_x(ws_t *w, const consts_t *c)
{
    mpfr_mul(w->v0, c->L, w->eps_i, MPFR_RNDU);
    mpfr_add(w->v0, w->v0, w->v0n, MPFR_RNDU);
    mpfr_mul(w->cc, c->bnB, w->Lg, MPFR_RNDU);
    mpfr_add(w->cc, w->cc, w->Lf, MPFR_RNDU);
    mpfr_mul(w->Lx, w->v0, c->eLh, MPFR_RNDU);
    mpfr_mul(w->r1, w->cc, c->phi, MPFR_RNDU);
    mpfr_add(w->Lx, w->Lx, w->r1, MPFR_RNDU);
}

/* The error recursion (section 3):
 * eps_{i+1} = a0 eps_i + a1 (L L_x + beta ||B|| L_g + L_f) + ||delta|| / D,
 * stored in r->eps_x[i+1]. */
static dvc_status step_eps_x(ws_t *w, dvc_dlvi_result_t r, long i, const consts_t *c)
{
    mpfr_mul(w->eps, c->L, w->Lx, MPFR_RNDU);
    mpfr_add(w->eps, w->eps, w->cc, MPFR_RNDU);
    mpfr_mul(w->eps, w->eps, c->a1, MPFR_RNDU);
    mpfr_mul(w->r1, c->a0, w->eps_i, MPFR_RNDU);
    mpfr_add(w->eps, w->eps, w->r1, MPFR_RNDU);
    mpfr_mul(w->r1, c->invD, w->dn, MPFR_RNDU);
    mpfr_add(w->eps, w->eps, w->r1, MPFR_RNDU);
    if (!mpfr_number_p(w->eps)) return dvc_error(DVC_NOT_CERTIFIED, "error bound is not finite");
    mpfr_set(r->eps_x[i + 1], w->eps, MPFR_RNDU);
    if (mpfr_cmp(w->eps, r->max_eps_x) > 0) mpfr_set(r->max_eps_x, w->eps, MPFR_RNDU);
    return DVC_OK;
}

/* Radius of the y box on the step (section 6), into w->r1:
 * beta (||Q|| (eps_{i+1} + min(||x^{i+1} - x^i||, L_x h)) + L_g h). */
static void step_ry(ws_t *w, const consts_t *c)
{
    mpfr_mul(w->r1, w->Lx, w->hhi, MPFR_RNDU);
    if (mpfr_cmp(w->dx, w->r1) < 0) mpfr_set(w->r1, w->dx, MPFR_RNDU);
    mpfr_add(w->r1, w->r1, w->eps, MPFR_RNDU);
    mpfr_mul(w->r1, w->r1, w->nQ, MPFR_RNDU);
    mpfr_mul(w->r2, w->Lg, w->hhi, MPFR_RNDU);
    mpfr_add(w->r1, w->r1, w->r2, MPFR_RNDU);
    mpfr_mul(w->r1, w->r1, c->beta, MPFR_RNDU);
}

/* Step i certified: move t_{i+1}, f(t_{i+1}), x^{i+1}, [yhat^{i+1}] into
 * the slots of t_i. */
static void step_advance(ws_t *w, dvc_dlvi_result_t r, long i)
{
    mpfi_swap(w->ti, w->tn);
    if (w->fast) {
        double *t;
        t = w->f0lo, w->f0lo = w->f1lo, w->f1lo = t;
        t = w->f0hi, w->f0hi = w->f1hi, w->f1hi = t;
        t = w->y0lo, w->y0lo = w->y1lo, w->y1lo = t;
        t = w->y0hi, w->y0hi = w->y1hi, w->y1hi = t;
    }
    {
        dvc_ivec_struct tmp = *w->Fi;
        *w->Fi = *w->Fn;
        *w->Fn = tmp;
        tmp = *w->X0;
        *w->X0 = *w->X1;
        *w->X1 = tmp;
    }
    r->steps_done = i + 1;
}

/* Certify step i: [t_i, t_{i+1}] from x^i, x^{i+1} (r->x), the guess
 * y^{i+1} (r->y, or none), [yhat^i], eps_x[i], F_i = f(t_i) in w->Fi.
 * The bounds in the order of docs/bounds.md, section 8. */
static dvc_status cert_step(ws_t *w, dvc_dlvi_result_t r, long i, int have_y)
{
    const consts_t *c = &w->glob;
    dvc_status st;
    const char *what = "";
    int fast, done = 0;

    mpfi_mul_si(w->tn, w->h, i + 1);
    r->t[i + 1] = dvc_ival_mid_d(w->tn);
    mpfi_interv_fr(w->tstep, &w->ti->left, &w->tn->right);
    mpfr_set(w->eps_i, r->eps_x[i], MPFR_RNDU);

    if ((st = step_grid(w, r, i, have_y, &fast, &what)) != DVC_OK) goto fail;
    what = "Lipschitz constants of f, g";
    if ((st = step_lip_fg(w, i)) != DVC_OK) goto fail;
    if (fast) {
        int k = step_fast(w, r, i, c);
        fast = k > 0;
        done = k == 2;
    }
    if (!done) {
        if (!fast && (st = step_defect(w, r, i)) != DVC_OK) {
            what = "defect";
            goto fail;
        }
        step_lip_x(w, c);
        if (w->sharpen) {
            /* section 7: a local constant, then L_x again with it */
            const consts_t *cl = sharpen_step(w, r, i);
            if (cl != c) {
                c = cl;
                r->n_sharpened++;
                step_lip_x(w, c);
            }
        }
        if ((st = step_eps_x(w, r, i, c)) != DVC_OK) {
            what = "error recursion";
            goto fail;
        }
        set_eps_y(w, r, i + 1, c);
        step_ry(w, c);
        r->Lx[i] = up_d(w->Lx);
        r->Lf[i] = up_d(w->Lf);
        r->Lg[i] = up_d(w->Lg);
        r->delta[i] = up_d(w->dn);
        r->beta_step[i] = up_d(c->beta);
        r->ry[i] = up_d(w->r1);
    }
    {
        const char *q = step_not_finite(r, i);
        if (q) {
            recompute_max(r, i);
            st = dvc_error(DVC_NOT_CERTIFIED, "%s is not finite (overflows binary64)", q);
            what = "bounds";
            goto fail;
        }
    }
    step_advance(w, r, i);
    return DVC_OK;
fail:
    return dvc_error_context(st == DVC_OK ? DVC_NOT_CERTIFIED : st,
                             "dlvi: step %ld (t in [%.17g, %.17g]), %s: ", i,
                             mpfr_get_d(&w->ti->left, MPFR_RNDD), mpfr_get_d(&w->tn->right, MPFR_RNDU),
                             what);
}

static void progress(ws_t *w, long i, int tty)
{
    const dvc_dlvi_opts *o = w->o;
    if ((i & 1023) != 0 && i != w->N) return;
    if (o->progress_cb) o->progress_cb(i, w->N, o->progress_ctx);
    if (tty) {
        fprintf(stderr, "\rdlvi: step %ld / %ld", i, w->N);
        if (i == w->N) fputc('\n', stderr);
        fflush(stderr);
    }
}

/* The loop shared by run and certify. With predict != 0, x^{i+1}, y^{i+1}
 * are computed by the predictor just before step i is certified. */
static dvc_status engine(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p, const dvc_dlvi_opts *o,
                         const double *xs, const double *ys, int predict)
{
    ws_t w;
    dvc_status st;
    dvc_dlvi_opts def;
    int tty, have_y = predict || ys != NULL;
    long n, m;
    if (o == NULL) {
        dvc_dlvi_opts_default(&def);
        o = &def;
    }
    st = ws_init(&w, r, p, o);
    if (st != DVC_OK) goto done;
    n = w.n;
    m = w.m;
    tty = o->progress && isatty(2);
    if (predict) {
        if ((st = pred_setup(&w)) != DVC_OK) goto done;
        for (long k = 0; k < n; k++) r->x[k] = dvc_ival_mid_d(p->x0->e[k]);
        if ((st = pred_y0(&w, r->x, r->y)) != DVC_OK) {
            st = dvc_error_context(st, "dlvi predictor at t = 0: ");
            goto done;
        }
    } else {
        for (long k = 0; k < (w.N + 1) * n; k++) {
            if (!isfinite(xs[k])) {
                st = dvc_error(DVC_ERR_INPUT, "dlvi: predictor x[%ld][%ld] is not finite", k / n, k % n);
                goto done;
            }
            r->x[k] = xs[k];
        }
        if (ys)
            for (long k = 0; k < (w.N + 1) * m; k++) r->y[k] = ys[k];
    }
    if ((st = cert_start(&w, r, have_y)) != DVC_OK) goto done;
    for (long i = 0; i < w.N; i++) {
        if (predict) {
            /* f, g at [t_{i+1}] once: midpoints for the predictor, the
             * enclosures for cert_step (same values it would compute) */
            mpfi_mul_si(w.tn, w.h, i + 1);
            if ((st = tf_eval(&w.f, w.Fn, w.tn, "f")) != DVC_OK ||
                (st = tf_eval(&w.g, w.Gn, w.tn, "g")) != DVC_OK) {
                st = dvc_error_context(st, "dlvi: step %ld (t_{i+1} = %.17g), f, g at t_{i+1}: ", i,
                                       dvc_ival_mid_d(w.tn));
                goto done;
            }
            if (w.fast) {
                /* binary64 copies for cert_step; dvc_ival_mid_d's midpoints */
                ivec_to_d(w.f1lo, w.f1hi, w.Fn);
                ivec_to_d(w.glo, w.ghi, w.Gn);
                for (long k = 0; k < n; k++) w.fv[k] = 0.5 * w.f1lo[k] + 0.5 * w.f1hi[k];
                for (long k = 0; k < m; k++) w.gv[k] = 0.5 * w.glo[k] + 0.5 * w.ghi[k];
                w.fd_ready = 1;
            } else {
                dvc_ivec_mid_d(w.fv, w.Fn);
                dvc_ivec_mid_d(w.gv, w.Gn);
            }
            w.fg_ready = 1;
            memcpy(r->y + (i + 1) * m, r->y + i * m, (size_t)m * sizeof(double));
            st = pred_step(&w, r->x + i * n, r->x + (i + 1) * n, r->y + (i + 1) * m,
                           (double)(i + 1) * w.hd, 1);
            if (st != DVC_OK) goto done;
        }
        if ((st = cert_step(&w, r, i, have_y)) != DVC_OK) goto done;
        progress(&w, i + 1, tty);
    }
done:
    ws_clear(&w);
    return st;
}

/* engine() at the requested precision, then (opts.prec_max) at doubled
 * precisions while the answer is "not certified". */
static dvc_status engine_retry(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p,
                               const dvc_dlvi_opts *o, const double *xs, const double *ys,
                               int predict)
{
    dvc_dlvi_opts loc;
    dvc_status st = engine(r, p, o, xs, ys, predict);
    if (o == NULL || o->prec_max <= 0) return st;
    loc = *o;
    loc.prec = r->prec;
    while (st == DVC_NOT_CERTIFIED && 2 * loc.prec <= o->prec_max) {
        loc.prec *= 2;
        st = engine(r, p, &loc, xs, ys, predict);
    }
    return st;
}

dvc_status dvc_dlvi_run(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p, const dvc_dlvi_opts *o)
{
    return engine_retry(r, p, o, NULL, NULL, 1);
}

dvc_status dvc_dlvi_certify(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p,
                            const dvc_dlvi_opts *o, const double *xs, const double *ys)
{
    if (xs == NULL) return dvc_error(DVC_ERR_INPUT, "dlvi certify: no predictor given");
    return engine_retry(r, p, o, xs, ys, 0);
}

dvc_status dvc_dlvi_predict(double *xs, double *ys, const dvc_dlvi_problem_t p,
                            const dvc_dlvi_opts *o)
{
    ws_t w;
    dvc_status st;
    long n = p->n, m = p->m;
    (void)o;
    ws_zero(&w);
    if ((st = validate(p)) != DVC_OK) return st;
    w.p = p;
    w.n = n;
    w.m = m;
    w.N = p->N;
    if ((st = tf_resolve(&w.f, &p->fcb, n, "f")) != DVC_OK) goto done;
    if ((st = tf_resolve(&w.g, &p->gcb, m, "g")) != DVC_OK) goto done;
    {
        mpfi_t h;
        mpfi_init2(h, 53);
        mpfi_div_si(h, p->T, p->N);
        st = pred_alloc(&w, p, dvc_ival_mid_d(h));
        mpfi_clear(h);
        if (st != DVC_OK) goto done;
    }
    if ((st = pred_setup(&w)) != DVC_OK) goto done;
    for (long k = 0; k < n; k++) xs[k] = dvc_ival_mid_d(p->x0->e[k]);
    if ((st = pred_y0(&w, xs, ys)) != DVC_OK) goto done;
    for (long i = 0; i < w.N; i++) {
        memcpy(ys + (i + 1) * m, ys + i * m, (size_t)m * sizeof(double));
        st = pred_step(&w, xs + i * n, xs + (i + 1) * n, ys + (i + 1) * m, (double)(i + 1) * w.hd, 0);
        if (st != DVC_OK) goto done;
    }
done:
    free(w.Ad);
    free(w.lspiv);
    if (w.lpw_ok) dvc_lvi_pred_ws_clear(&w.lpw);
    return st;
}
