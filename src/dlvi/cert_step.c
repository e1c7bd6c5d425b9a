/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certification of the DLVI predictor, one grid point or step at a time:
 * one function per bound, each citing its section of docs/bounds.md. */
#include "dlvi/internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- certification ---------------------------------------------------- */

/* q <- Q x + G (x doubles). */
static void q_of_x(ws_t *w, dvc_ivec_t q, const dvc_ivec_t X, const dvc_ivec_t G)
{
    dvc_ivec_set(q, G);
    dvc_dlvi_spm_addmul_(q, &w->sQ, X->e, w->s);
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
        mpfi_set(r->yhat[DVC_RROW(r, i) * m + k], w->lres->y->e[k]);
    }
    return DVC_OK;
}

/* eps_y[i] = beta nQ eps_x[i] + ||[yhat^i] - y^i||. */
static void set_eps_y(ws_t *w, dvc_dlvi_result_t r, long i, const consts_t *c)
{
    long m = w->m;
    mpfr_mul(w->r1, c->beta, w->nQ, MPFR_RNDU);
    mpfr_mul(w->r1, w->r1, r->eps_x[DVC_RROW(r, i)], MPFR_RNDU);
    mpfr_set_zero(w->r2, 1);
    for (long k = 0; k < m; k++) {
        mpfi_sub_d(w->s, r->yhat[DVC_RROW(r, i) * m + k], r->y[DVC_RROW(r, i) * m + k]);
        dvc_ival_mag(w->cc, w->s);
        if (mpfr_cmp(w->cc, w->r2) > 0) mpfr_set(w->r2, w->cc, MPFR_RNDU);
    }
    mpfr_add(r->eps_y[DVC_RROW(r, i)], w->r1, w->r2, MPFR_RNDU);
    if (mpfr_cmp(r->eps_y[DVC_RROW(r, i)], r->max_eps_y) > 0) mpfr_set(r->max_eps_y, r->eps_y[DVC_RROW(r, i)], MPFR_RNDU);
}

/* Outward binary64 copy of an interval vector (exact at 53 bits). */
void dvc_dlvi_ivec_to_d_(double *lo, double *hi, const dvc_ivec_t v)
{
    for (long k = 0; k < v->n; k++) {
        lo[k] = dvc_dlvi_fr_to_d_(&v->e[k]->left, MPFR_RNDD);
        hi[k] = dvc_dlvi_fr_to_d_(&v->e[k]->right, MPFR_RNDU);
    }
}

static void yrow_to_d(double *lo, double *hi, const mpfi_t *y, long m)
{
    for (long k = 0; k < m; k++) {
        lo[k] = dvc_dlvi_fr_to_d_(&y[k]->left, MPFR_RNDD);
        hi[k] = dvc_dlvi_fr_to_d_(&y[k]->right, MPFR_RNDU);
    }
}

/* A certified result is finite by contract (every stored bound must also
 * survive conversion to binary64, as the certificate writes it): name the
 * first grid quantity of row i that is not, or return NULL. */
static int fr_fits_d(mpfr_srcptr x) { return mpfr_number_p(x) && isfinite(mpfr_get_d(x, MPFR_RNDU)) && isfinite(mpfr_get_d(x, MPFR_RNDD)); }

static const char *grid_not_finite(const dvc_dlvi_result_t r, long i)
{
    long m = r->m;
    if (!fr_fits_d(r->eps_x[DVC_RROW(r, i)])) return "eps_x";
    if (!fr_fits_d(r->eps_y[DVC_RROW(r, i)])) return "eps_y";
    for (long k = 0; k < m; k++)
        if (!fr_fits_d(&r->yhat[DVC_RROW(r, i) * m + k]->left) || !fr_fits_d(&r->yhat[DVC_RROW(r, i) * m + k]->right)) return "yhat";
    return NULL;
}

/* The same for the per-step quantities of step i. */
static const char *step_not_finite(const dvc_dlvi_result_t r, long i)
{
    const char *q = grid_not_finite(r, i + 1);
    if (q) return q;
    if (!isfinite(r->Lx[DVC_RSTP(r, i)])) return "Lx";
    if (!isfinite(r->Lf[DVC_RSTP(r, i)])) return "Lf";
    if (!isfinite(r->Lg[DVC_RSTP(r, i)])) return "Lg";
    if (!isfinite(r->delta[DVC_RSTP(r, i)])) return "delta";
    if (!isfinite(r->beta_step[DVC_RSTP(r, i)])) return "beta_step";
    if (!isfinite(r->ry[DVC_RSTP(r, i)])) return "ry";
    return NULL;
}

/* Grid point 0: eps_x[0] = ||x0 - x^0||, [yhat^0], F_0 = f(0). */
dvc_status dvc_dlvi_cert_start_(ws_t *w, dvc_dlvi_result_t r, int have_y)
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
    if ((st = dvc_dlvi_tf_eval_(&w->f, w->Fi, w->ti, "f")) != DVC_OK) goto fail;
    if ((st = dvc_dlvi_tf_eval_(&w->g, w->Gn, w->ti, "g")) != DVC_OK) goto fail;
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
        dvc_dlvi_ivec_to_d_(w->f0lo, w->f0hi, w->Fi);
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
    const double *xi = r->x + DVC_RROW(r, i) * n, *xn = r->x + DVC_RROW(r, i + 1) * n;
    dvc_status st;
    /* a priori radius eps_i + Lx h about x^i; box X also holds x^{i+1} */
    mpfr_mul(w->r1, w->Lx, w->hhi, MPFR_RNDU);
    mpfr_add(w->r1, w->r1, w->eps_i, MPFR_RNDU);
    if (dvc_dlvi_tf_eval_(&w->g, w->Gstep, w->tstep, "g") != DVC_OK) {
        dvc_error_reset();
        return &w->glob;
    }
    /* the state box once, then Q through its nonzeros (the product by a
     * zero entry added nothing: the same sums, m nnz-row work instead of
     * m n) */
    for (long k = 0; k < n; k++) {
        mpfi_t *u = &w->Xbox->e[k];
        mpfi_interv_fr(*u, w->r1, w->r1);
        mpfr_neg(&(*u)->left, w->r1, MPFR_RNDD);
        mpfi_add_d(*u, *u, xi[k]);
        mpfi_put_d(*u, xn[k]);
    }
    dvc_ivec_set(w->qbox, w->Gstep);
    dvc_dlvi_spm_addmul_(w->qbox, &w->sQ, w->Xbox->e, w->s);
    st = dvc_lvi_solve(w->lbox, w->solver, w->qbox, r->y + DVC_RROW(r, i + 1) * m);
    if (st != DVC_OK || w->lbox->route != DVC_LVI_ROUTE_ACTIVE_SET || w->lbox->active == NULL) {
        dvc_error_reset();
        return &w->glob;
    }
    if (!w->loc_valid || memcmp(w->loc_pat, w->lbox->active, (size_t)m * sizeof(int)) != 0) {
        memcpy(w->loc_pat, w->lbox->active, (size_t)m * sizeof(int));
        w->loc_valid = 1;
        w->loc_better = 0;
        if (local_beta(w, w->r2, w->loc_pat) == DVC_OK && mpfr_cmp(w->r2, w->glob.beta) < 0)
            w->loc_better = dvc_dlvi_make_consts_(w, &w->loc, w->r2);
        dvc_error_reset();
    }
    return w->loc_better ? &w->loc : &w->glob;
}

/* ||A X + B [yv] + F|| (yv rows of r->yhat). */
static void field_norm(ws_t *w, mpfr_t out, const dvc_ivec_t X, const mpfi_t *yv, const dvc_ivec_t F)
{
    dvc_ivec_set(w->w, F);
    dvc_dlvi_spm_addmul_(w->w, &w->sA, X->e, w->s);
    dvc_dlvi_spm_addmul_(w->w, &w->sB, yv, w->s);
    dvc_dlvi_ivec_norm_(out, w->w, w->cc);
}

/* The grid point t_{i+1} of step i: f(t_{i+1}), g(t_{i+1}) (computed here,
 * or by the run loop at the same [t_{i+1}] for its predictor) and the
 * certified LVI [yhat^{i+1}] at Q x^{i+1} + g (section 5). *fast is
 * cleared when the binary64 copy of q is not finite. */
static dvc_status step_grid(ws_t *w, dvc_dlvi_result_t r, long i, int have_y, int *fast,
                            const char **what)
{
    long n = w->n, m = w->m;
    const double *xn = r->x + DVC_RROW(r, i + 1) * n;
    dvc_status st;
    *what = "f, g at t_{i+1}";
    if (!w->fg_ready) {
        if ((st = dvc_dlvi_tf_eval_(&w->f, w->Fn, w->tn, "f")) != DVC_OK) return st;
        if ((st = dvc_dlvi_tf_eval_(&w->g, w->Gn, w->tn, "g")) != DVC_OK) return st;
    }
    w->fg_ready = 0;
    *what = "LVI at the predictor";
    *fast = w->fast;
    if (*fast) {
        if (!w->fd_ready) {
            dvc_dlvi_ivec_to_d_(w->f1lo, w->f1hi, w->Fn);
            dvc_dlvi_ivec_to_d_(w->glo, w->ghi, w->Gn);
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
    if ((st = cert_lvi(w, r, i + 1, w->q, have_y ? r->y + DVC_RROW(r, i + 1) * m : NULL)) != DVC_OK) return st;
    if (!have_y)
        for (long k = 0; k < m; k++) r->y[DVC_RROW(r, i + 1) * m + k] = dvc_ival_mid_d(r->yhat[DVC_RROW(r, i + 1) * m + k]);
    if (w->fast) yrow_to_d(w->y1lo, w->y1hi, r->yhat + DVC_RROW(r, i + 1) * m, m);
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
        dvc_dlvi_time_(w->s, w->p, w->h, b * w->lip_block);
        dvc_dlvi_time_(w->u, w->p, w->h, e);
        mpfi_interv_fr(w->tblk, &w->s->left, &w->u->right);
        if ((st = dvc_dlvi_tf_lip_(&w->f, w->Lf_blk, w->tblk, "f")) != DVC_OK) return st;
        if ((st = dvc_dlvi_tf_lip_(&w->g, w->Lg_blk, w->tblk, "g")) != DVC_OK) return st;
        w->d_Lf = dvc_dlvi_up_d_(w->Lf_blk);
        w->d_Lg = dvc_dlvi_up_d_(w->Lg_blk);
    }
    mpfr_set(w->Lf, w->Lf_blk, MPFR_RNDU);
    mpfr_set(w->Lg, w->Lg_blk, MPFR_RNDU);
    return DVC_OK;
}

/* The binary64 path of step i (section 8, src/dlvi/fast.c): the same
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
    io.x0 = r->x + DVC_RROW(r, i) * n;
    io.x1 = r->x + DVC_RROW(r, i + 1) * n;
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
        rc.eps_i = dvc_dlvi_up_d_(r->eps_x[DVC_RROW(r, i)]);
        rc.v0n = io.v0n;
        rc.Lf = w->d_Lf;
        rc.Lg = w->d_Lg;
        rc.dn = io.dn;
        rc.dx = io.dx;
        rc.ydev = dvc_dlvi_fast_ydev_(w->y1lo, w->y1hi, r->y + DVC_RROW(r, i + 1) * m, m);
        if (dvc_dlvi_fast_recur_(&rc) == 0) {
            mpfr_set_d(r->eps_x[DVC_RROW(r, i + 1)], rc.eps, MPFR_RNDU);
            if (mpfr_cmp(r->eps_x[DVC_RROW(r, i + 1)], r->max_eps_x) > 0) mpfr_set(r->max_eps_x, r->eps_x[DVC_RROW(r, i + 1)], MPFR_RNDU);
            mpfr_set_d(r->eps_y[DVC_RROW(r, i + 1)], rc.eps_y, MPFR_RNDU);
            if (mpfr_cmp(r->eps_y[DVC_RROW(r, i + 1)], r->max_eps_y) > 0) mpfr_set(r->max_eps_y, r->eps_y[DVC_RROW(r, i + 1)], MPFR_RNDU);
            r->Lx[DVC_RSTP(r, i)] = rc.Lx;
            r->Lf[DVC_RSTP(r, i)] = w->d_Lf;
            r->Lg[DVC_RSTP(r, i)] = w->d_Lg;
            r->delta[DVC_RSTP(r, i)] = io.dn;
            r->beta_step[DVC_RSTP(r, i)] = c->d_beta;
            r->ry[DVC_RSTP(r, i)] = rc.ry;
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
    dvc_ivec_set_d(w->X0, r->x + DVC_RROW(r, i) * n);
    dvc_ivec_set_d(w->X1, r->x + DVC_RROW(r, i + 1) * n);
    field_norm(w, w->v0n, w->X0, r->yhat + DVC_RROW(r, i) * m, w->Fi);
    mpfr_set_zero(w->dn, 1);
    mpfr_set_zero(w->dx, 1);
    for (long k = 0; k < n; k++) {
        /* z_k = x^{i+1}_k + theta (x^i_k - x^{i+1}_k) */
        mpfi_sub(w->s, w->X0->e[k], w->X1->e[k]);
        mpfi_mul(w->s, w->s, w->theta);
        mpfi_add(w->Z->e[k], w->s, w->X1->e[k]);
    }
    dvc_ivec_set(w->w, w->Fn);
    dvc_dlvi_spm_addmul_(w->w, &w->sA, w->Z->e, w->s);
    dvc_dlvi_spm_addmul_(w->w, &w->sB, r->yhat + DVC_RROW(r, i + 1) * m, w->s);
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
    mpfr_set(r->eps_x[DVC_RROW(r, i + 1)], w->eps, MPFR_RNDU);
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
dvc_status dvc_dlvi_cert_step_(ws_t *w, dvc_dlvi_result_t r, long i, int have_y)
{
    const consts_t *c = &w->glob;
    dvc_status st;
    const char *what = "";
    int fast, done = 0;

    dvc_dlvi_time_(w->tn, w->p, w->h, i + 1);
    r->t[DVC_RROW(r, i + 1)] = dvc_ival_mid_d(w->tn);
    mpfi_interv_fr(w->tstep, &w->ti->left, &w->tn->right);
    mpfr_set(w->eps_i, r->eps_x[DVC_RROW(r, i)], MPFR_RNDU);
    /* the maxima over grid points 0..i, restored if this step fails */
    mpfr_set(w->pmax_x, r->max_eps_x, MPFR_RNDU);
    mpfr_set(w->pmax_y, r->max_eps_y, MPFR_RNDU);

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
        r->Lx[DVC_RSTP(r, i)] = dvc_dlvi_up_d_(w->Lx);
        r->Lf[DVC_RSTP(r, i)] = dvc_dlvi_up_d_(w->Lf);
        r->Lg[DVC_RSTP(r, i)] = dvc_dlvi_up_d_(w->Lg);
        r->delta[DVC_RSTP(r, i)] = dvc_dlvi_up_d_(w->dn);
        r->beta_step[DVC_RSTP(r, i)] = dvc_dlvi_up_d_(c->beta);
        r->ry[DVC_RSTP(r, i)] = dvc_dlvi_up_d_(w->r1);
    }
    {
        const char *q = step_not_finite(r, i);
        if (q) {
            mpfr_set(r->max_eps_x, w->pmax_x, MPFR_RNDU);
            mpfr_set(r->max_eps_y, w->pmax_y, MPFR_RNDU);
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
