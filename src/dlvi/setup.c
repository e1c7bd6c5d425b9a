/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* DLVI engine set-up: validation of the problem, the workspace, the
 * certified step constants (docs/bounds.md, section 3: step condition,
 * a0, a1, Gronwall factors) and the functions of time f, g through their
 * callbacks (dvc_tfun_cb). */
#include "dvicert/tgrid.h"
#include "dlvi/internal.h"
#include "dvicert/tube.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- small helpers --------------------------------------------------- */

void dvc_dlvi_consts_init_(consts_t *c, mpfr_prec_t prec)
{
    mpfr_inits2(prec, c->beta, c->bnB, c->bnBnQ, c->L, c->invD, c->a0, c->a1, c->eLh, c->phi,
                (mpfr_ptr)0);
}

void dvc_dlvi_consts_clear_(consts_t *c)
{
    mpfr_clears(c->beta, c->bnB, c->bnBnQ, c->L, c->invD, c->a0, c->a1, c->eLh, c->phi,
                (mpfr_ptr)0);
}

/* Upper bound of ||v||_inf for an interval vector (NaN-safe: +inf). */
void dvc_dlvi_ivec_norm_(mpfr_t r, const dvc_ivec_t v, mpfr_t tmp)
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
void dvc_dlvi_spm_addmul_(dvc_ivec_t out, const spm_t *S, const mpfi_t *x, mpfi_t tmp)
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
dvc_status dvc_dlvi_tf_resolve_(dvc_tfun_cb *out, const dvc_tfun_cb *cb, long k, const char *name)
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

dvc_status dvc_dlvi_tf_eval_(const dvc_tfun_cb *f, dvc_ivec_t out, const mpfi_t t, const char *name)
{
    dvc_status st;
    if (f->eval == NULL) {
        dvc_ivec_zero(out);
        return DVC_OK;
    }
    st = f->eval(out, t, f->ctx);
    if (st != DVC_OK) return dvc_error_context(st, "field '%s' ", name);
    for (long k = 0; k < out->n; k++)
        if (!dvc_ival_is_finite(out->e[k]) || !dvc_ival_is_valid(out->e[k]))
            return dvc_error(DVC_NOT_CERTIFIED, "%s(t) component %ld: no finite enclosure", name, k + 1);
    return DVC_OK;
}

dvc_status dvc_dlvi_tf_lip_(const dvc_tfun_cb *f, mpfr_t out, const mpfi_t t, const char *name)
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

void dvc_dlvi_tf_eval_d_(const dvc_tfun_cb *f, double *out, double t, long k)
{
    if (f->eval == NULL) {
        for (long j = 0; j < k; j++) out[j] = 0.0;
        return;
    }
    f->eval_d(out, t, f->ctx);
}

/* ---- workspace -------------------------------------------------------- */

void dvc_dlvi_ws_zero_(ws_t *w) { memset(w, 0, sizeof *w); }

void dvc_dlvi_ws_clear_(ws_t *w)
{
    if (w->prec == 0) return;
    if (w->solver_ok) dvc_lvi_solver_clear(w->solver);
    dvc_lvi_result_clear(w->lres);
    dvc_lvi_result_clear(w->lbox);
    dvc_dlvi_iclears_(w->h, w->theta, w->omt, w->ti, w->tn, w->tstep, w->tblk, w->s, w->u, (mpfi_ptr)0);
    mpfr_clears(w->nA, w->nB, w->nQ, w->hhi, w->eps_i, w->eps, w->v0n, w->v0, w->Lx, w->Lf, w->Lg,
                w->dn, w->dx, w->cc, w->r1, w->r2, w->Lf_blk, w->Lg_blk, w->pmax_x, w->pmax_y, (mpfr_ptr)0);
    dvc_dlvi_consts_clear_(&w->glob);
    dvc_dlvi_consts_clear_(&w->loc);
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
    dvc_ivec_clear(w->Xbox);
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
    dvc_dlvi_ws_zero_(w);
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

dvc_status dvc_dlvi_validate_(const dvc_dlvi_problem_struct *p)
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
    if (p->h != 0) {
        /* the grid i h (i < N), T: exact numbers, (N-1) h < T <= N h */
        mpfr_t a, b;
        int fit;
        if (!(p->h > 0) || !isfinite(p->h))
            return dvc_error(DVC_ERR_INPUT, "dlvi: h must be a finite number > 0 (or 0: h = T/N)");
        if (!mpfr_equal_p(&p->T->left, &p->T->right))
            return dvc_error(DVC_ERR_INPUT, "dlvi: a last step shorter than h = %.17g needs T to be "
                             "a binary number, and T is only known as an interval (a decimal such as "
                             "\"0.1\"): give N instead of h, or write T as a binary number", p->h);
        mpfr_inits2(128, a, b, (mpfr_ptr)0);
        mpfr_set_d(a, p->h, MPFR_RNDN);
        mpfr_mul_si(b, a, p->N, MPFR_RNDN);     /* exact: 53 + 27 bits */
        mpfr_mul_si(a, a, p->N - 1, MPFR_RNDN);
        fit = mpfr_cmp(a, &p->T->left) < 0 && mpfr_cmp(&p->T->left, b) <= 0;
        mpfr_clears(a, b, (mpfr_ptr)0);
        if (!fit)
            return dvc_error(DVC_ERR_INPUT, "dlvi: h = %.17g and N = %ld do not fit T = %.17g: a grid "
                             "with a shorter last step needs (N-1) h < T <= N h", p->h, p->N,
                             mpfr_get_d(&p->T->left, MPFR_RNDN));
    }
    if (p->grid || p->grid_src) {
        /* exact binary64 times 0 = t_0 < ... < t_N = T (on demand: one pass) */
        dvc_tgrid g;
        double a, b;
        dvc_status st;
        if (p->h != 0) return dvc_error(DVC_ERR_INPUT, "dlvi: a time grid and a step h exclude each other");
        dvc_dlvi_problem_grid(&g, p);
        if ((st = dvc_tgrid_at(&g, 0, &a)) != DVC_OK) return st;
        if (a != 0.0) return dvc_error(DVC_ERR_INPUT, "dlvi: grid entry 1 is %.17g, the grid must start at 0", a);
        for (long i = 1; i <= p->N; i++, a = b) {
            if ((st = dvc_tgrid_at(&g, i, &b)) != DVC_OK) return st;
            if (!isfinite(b) || !(b > a))
                return dvc_error(DVC_ERR_INPUT, "dlvi: grid entry %ld (%.17g) is not finite and above the "
                                 "previous one (%.17g)", i + 1, b, a);
        }
        if (!mpfr_equal_p(&p->T->left, &p->T->right) || mpfr_cmp_d(&p->T->left, a) != 0)
            return dvc_error(DVC_ERR_INPUT, "dlvi: the grid ends at %.17g, not exactly at T = %.17g", a,
                             mpfr_get_d(&p->T->left, MPFR_RNDN));
    }
    if (!dvc_ival_is_valid(p->theta) || !dvc_ival_is_nonneg(p->theta) ||
        mpfr_cmp_ui(&p->theta->right, 1) > 0)
        return dvc_error(DVC_ERR_INPUT, "dlvi: theta must lie in [0, 1]");
    return DVC_OK;
}

dvc_status dvc_dlvi_grid_refuse_(const dvc_dlvi_problem_struct *p, const char *route)
{
    if (!p->grid && !p->grid_src) return DVC_OK;
    return dvc_error(DVC_ERR_INPUT, "dlvi: field 'grid': refused by %s (it needs a uniform grid, N or h); a grid "
                     "of given times is certified only by the lognorm route with a stored predictor "
                     "(enclose --from TRAJ.csv)", route);
}

void dvc_dlvi_problem_grid(dvc_tgrid *g, const dvc_dlvi_problem_struct *p)
{
    if (p->grid_src && !p->grid) dvc_tgrid_set_src(g, p->N, p->grid_src);
    else dvc_tgrid_set(g, p->N, p->h, p->grid);
}

dvc_status dvc_dlvi_problem_set_grid(dvc_dlvi_problem_t p, const dvc_tgrid *g)
{
    dvc_tgrid c;
    dvc_status st;
    dvc_tgrid_init(&c);
    if ((st = dvc_tgrid_copy(&c, g)) != DVC_OK) return st;
    free(p->grid);
    p->N = c.N;
    p->h = c.kind == DVC_TGRID_LAST_SHORT ? c.h : 0;
    p->grid = (double *)c.t; /* p owns the copy now */
    p->grid_src = NULL;
    return DVC_OK;
}

dvc_status dvc_dlvi_result_set_grid_(dvc_dlvi_result_t r, const dvc_dlvi_problem_struct *p)
{
    dvc_tgrid g;
    dvc_dlvi_problem_grid(&g, p);
    if (g.src) {
        /* times on demand stay on demand: a view of p's source */
        dvc_tgrid_clear(&r->grid);
        r->grid = g;
        return DVC_OK;
    }
    return dvc_tgrid_copy(&r->grid, &g);
}

dvc_status dvc_dlvi_step_len_(mpfi_t h, const dvc_dlvi_problem_struct *p, long i)
{
    dvc_tgrid g;
    dvc_dlvi_problem_grid(&g, p);
    return dvc_tgrid_step(h, &g, p->T, i);
}

dvc_status dvc_dlvi_time_(mpfi_t t, const dvc_dlvi_problem_struct *p, const mpfi_t h, long i)
{
    dvc_tgrid g;
    dvc_dlvi_problem_grid(&g, p);
    return dvc_tgrid_time(t, &g, p->T, h, i);
}

dvc_status dvc_dlvi_hlast_(mpfi_t out, const dvc_dlvi_problem_struct *p)
{
    dvc_tgrid g;
    dvc_dlvi_problem_grid(&g, p);
    return dvc_tgrid_step(out, &g, p->T, p->N - 1);
}

dvc_status dvc_dlvi_last_step_(ws_t *w, int predict)
{
    /* every bound of a step holds with that step's own length; the
     * constants are increasing in h, so the step condition proven for h
     * holds for the shorter step too (make_consts_ proves it again) */
    dvc_dlvi_hlast_(w->h, w->p);
    if (!dvc_ival_is_pos(w->h))
        return dvc_error(DVC_NOT_CERTIFIED, "dlvi: the last step's length is not proven > 0");
    mpfr_set(w->hhi, &w->h->right, MPFR_RNDU);
    w->d_hlo = mpfr_get_d(&w->h->left, MPFR_RNDD);
    w->d_hhi = mpfr_get_d(&w->h->right, MPFR_RNDU);
    mpfr_set(w->r2, w->glob.beta, MPFR_RNDU);
    if (!dvc_dlvi_make_consts_(w, &w->glob, w->r2))
        return dvc_error(DVC_NOT_CERTIFIED, "dlvi: step condition not proven on the last step");
    w->loc_valid = 0; /* the local constants were made for h */
    if (predict) {
        w->hd = dvc_ival_mid_d(w->h);
        return dvc_dlvi_pred_setup_(w);
    }
    return DVC_OK;
}

/* c <- step constants for the Lipschitz constant beta (upper bound).
 * Returns 0 when the step condition D = 1 - h((1-theta)||A|| + beta ||B||
 * ||Q||) > 0 cannot be proven (docs/bounds.md, section 3). */
int dvc_dlvi_make_consts_(ws_t *w, consts_t *c, const mpfr_t beta)
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
        c->d_beta = dvc_dlvi_up_d_(c->beta);
        c->d_bnB = dvc_dlvi_up_d_(c->bnB);
        c->d_L = dvc_dlvi_up_d_(c->L);
        c->d_invD = dvc_dlvi_up_d_(c->invD);
        c->d_a0 = dvc_dlvi_up_d_(c->a0);
        c->d_a1 = dvc_dlvi_up_d_(c->a1);
        c->d_eLh = dvc_dlvi_up_d_(c->eLh);
        c->d_phi = dvc_dlvi_up_d_(c->phi);
    }
    mpfi_clear(D);
    mpfi_clear(X);
    return ok;
}

/* The hypotheses every DLVI route rests on: M a P-matrix (proven while the
 * LVI solver is set up; *solver_ok tells that solver needs a clear) and a
 * finite upper bound of beta_M, recorded in r. m = 0: nothing to prove. */
dvc_status dvc_dlvi_prove_beta_(dvc_dlvi_result_t r, dvc_lvi_solver_t solver, int *solver_ok,
                                const dvc_dlvi_problem_t p, const dvc_beta_opts *bo, mpfr_prec_t prec)
{
    dvc_beta_bound_t beta;
    dvc_status st;
    if (p->m == 0) {
        mpfr_set_zero(r->beta_lo, 1);
        mpfr_set_zero(r->beta_hi, 1);
        r->p_reason = "m = 0";
        r->beta_method = "m = 0";
        return DVC_OK;
    }
    st = dvc_lvi_solver_init2(solver, p->M, p->l, p->u, prec);
    *solver_ok = 1;
    if (st != DVC_OK) return dvc_error_context(st, "M: ");
    r->p_reason = solver->p_reason;
    dvc_beta_bound_init(beta);
    st = dvc_beta_compute(beta, NULL, p->M, bo);
    if (st == DVC_OK && !mpfr_number_p(beta->hi)) st = dvc_error(DVC_NOT_CERTIFIED, "no finite bound");
    if (st == DVC_OK) {
        mpfr_set(r->beta_lo, beta->lo, MPFR_RNDD);
        mpfr_set(r->beta_hi, beta->hi, MPFR_RNDU);
        r->beta_method = beta->method;
    }
    dvc_beta_bound_clear(beta);
    return st == DVC_OK ? DVC_OK : dvc_error_context(st, "beta_M: ");
}

dvc_status dvc_dlvi_ws_init_(ws_t *w, dvc_dlvi_result_t r, const dvc_dlvi_problem_struct *p,
                          const dvc_dlvi_opts *o)
{
    dvc_status st;
    long n = p->n, m = p->m;
    mpfr_prec_t prec;
    dvc_dlvi_ws_zero_(w);
    if ((st = dvc_dlvi_validate_(p)) != DVC_OK) return st;
    if ((st = dvc_dlvi_grid_refuse_(p, "the chen-wang route (Algorithm 4.2)")) != DVC_OK) return st;
    prec = o->prec > 0 ? o->prec : (p->prec > 0 ? p->prec : DVC_DEFAULT_PREC);
    w->p = p;
    w->o = o;
    w->n = n;
    w->m = m;
    w->N = p->N;
    w->prec = prec;
    w->sharpen = o->sharpen && m > 0;
    w->lip_block = o->lip_block > 0 ? o->lip_block : 16;
    dvc_lvi_result_init2(w->lres, m, prec);
    dvc_lvi_result_init2(w->lbox, m, prec);
    dvc_dlvi_iinits_(prec, w->h, w->theta, w->omt, w->ti, w->tn, w->tstep, w->tblk, w->s, w->u, (mpfi_ptr)0);
    mpfr_inits2(prec, w->nA, w->nB, w->nQ, w->hhi, w->eps_i, w->eps, w->v0n, w->v0, w->Lx, w->Lf,
                w->Lg, w->dn, w->dx, w->cc, w->r1, w->r2, w->Lf_blk, w->Lg_blk, w->pmax_x, w->pmax_y, (mpfr_ptr)0);
    dvc_dlvi_consts_init_(&w->glob, prec);
    dvc_dlvi_consts_init_(&w->loc, prec);
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
    dvc_ivec_init2(w->Xbox, n, prec);
    spm_build(&w->sA, p->A);
    spm_build(&w->sB, p->B);
    spm_build(&w->sQ, p->Q);
    w->fast = prec == 53 && o->binary64;
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
    if ((st = dvc_dlvi_tf_resolve_(&w->f, &p->fcb, n, "f")) != DVC_OK) return st;
    if ((st = dvc_dlvi_tf_resolve_(&w->g, &p->gcb, m, "g")) != DVC_OK) return st;
    if ((st = dvc_dlvi_result_alloc_(r, n, m, p->N, prec, o->sink != NULL)) != DVC_OK) return st;
    /* y solves the VI, so y(t) in [l, u]: the reported y tube is met with it */
    if ((st = dvc_dlvi_result_set_ybox(r, p)) != DVC_OK) return st;
    r->sharpen = w->sharpen;

    /* h = T / N (or the problem's h, the last step shorter), theta, 1 - theta */
    mpfi_set(r->T, p->T);
    if (p->h > 0) mpfi_set_d(w->h, p->h);
    else mpfi_div_si(w->h, p->T, p->N);
    mpfi_set(r->h, w->h);
    if ((st = dvc_dlvi_result_set_grid_(r, p)) != DVC_OK) return st;
    mpfr_set(w->hhi, &w->h->right, MPFR_RNDU);
    mpfi_set(w->theta, p->theta);
    mpfi_set(r->theta, p->theta);
    mpfi_ui_sub(w->omt, 1, w->theta);

    /* P-matrix proof and beta_M bound */
    if ((st = dvc_dlvi_prove_beta_(r, w->solver, &w->solver_ok, p, &o->beta, w->prec)) != DVC_OK) return st;
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
    if (!dvc_dlvi_make_consts_(w, &w->glob, r->beta_hi)) {
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
                         "h = %s%.17g, largest admissible h <= %.17g (%s)", p->h > 0 ? "" : "T/N = ",
                         mpfr_get_d(&w->h->right, MPFR_RNDU), hmax, hint);
    }
    mpfr_set(r->L, w->glob.L, MPFR_RNDU);
    w->d_thlo = mpfr_get_d(&w->theta->left, MPFR_RNDD);
    w->d_thhi = mpfr_get_d(&w->theta->right, MPFR_RNDU);
    w->d_hlo = mpfr_get_d(&w->h->left, MPFR_RNDD);
    w->d_hhi = mpfr_get_d(&w->h->right, MPFR_RNDU);
    w->d_nQ = dvc_dlvi_up_d_(w->nQ);

    /* predictor data */
    return dvc_dlvi_pred_alloc_(w, p, dvc_ival_mid_d(w->h));
}
