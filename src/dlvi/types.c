/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* DLVI problems, options and result records of the certified
 * time-stepping engine (Chen & Wang (4.1), (4.2)): their defaults, ownership
 * and storage. The engine is the rest of src/dlvi/ (setup, predict,
 * cert_step, fast, driver), the bounds are derived in docs/bounds.md. */
#include "dlvi/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dvc_dlvi_opts_default(dvc_dlvi_opts *o)
{
    memset(o, 0, sizeof *o);
    o->sharpen = 0;
    o->progress = 0;
    o->lip_block = 16;
    o->prec = 0;
    o->binary64 = 1;
    dvc_beta_opts_default(&o->beta);
}

void dvc_dlvi_problem_init(dvc_dlvi_problem_t p, long n, long m, mpfr_prec_t prec)
{
    if (n < 0) n = 0;
    if (m < 0) m = 0;
    if (prec <= 0) prec = dvc_prec_get();
    memset(p, 0, sizeof *p);
    p->n = n;
    p->m = m;
    p->prec = prec;
    dvc_imat_init2(p->A, n, n, prec);
    dvc_imat_init2(p->B, n, m, prec);
    dvc_imat_init2(p->Q, m, n, prec);
    dvc_imat_init2(p->M, m, m, prec);
    dvc_ivec_init2(p->l, m, prec);
    dvc_ivec_init2(p->u, m, prec);
    dvc_ivec_init2(p->x0, n, prec);
    /* l = 0, u = +inf: the LCP */
    for (long k = 0; k < m; k++) {
        mpfi_set_ui(p->l->e[k], 0);
        mpfr_set_inf(&p->u->e[k]->left, 1);
        mpfr_set_inf(&p->u->e[k]->right, 1);
    }
    mpfi_init2(p->T, prec);
    mpfi_init2(p->theta, prec);
    mpfi_set_ui(p->T, 0);
    /* the problem file's default (docs/formats.md): implicit Euler */
    mpfi_set_ui(p->theta, 1);
}

void dvc_dlvi_problem_clear(dvc_dlvi_problem_t p)
{
    if (p->fcb.release) p->fcb.release(p->fcb.ctx);
    if (p->gcb.release) p->gcb.release(p->gcb.ctx);
    dvc_imat_clear(p->A);
    dvc_imat_clear(p->B);
    dvc_imat_clear(p->Q);
    dvc_imat_clear(p->M);
    dvc_ivec_clear(p->l);
    dvc_ivec_clear(p->u);
    dvc_ivec_clear(p->x0);
    mpfi_clear(p->T);
    mpfi_clear(p->theta);
    free(p->grid);
    memset(p, 0, sizeof *p);
}

void dvc_dlvi_result_init(dvc_dlvi_result_t r)
{
    memset(r, 0, sizeof *r);
    r->prec = dvc_prec_get();
    mpfi_init2(r->h, r->prec);
    mpfi_init2(r->T, r->prec);
    mpfi_init2(r->theta, r->prec);
    mpfr_inits2(r->prec, r->beta_lo, r->beta_hi, r->normA, r->normB, r->normQ, r->L, r->hmax,
                r->max_eps_x, r->max_eps_y, (mpfr_ptr)0);
    mpfr_set_zero(r->beta_lo, 1);
    mpfr_set_zero(r->beta_hi, 1);
    mpfr_set_zero(r->normA, 1);
    mpfr_set_zero(r->normB, 1);
    mpfr_set_zero(r->normQ, 1);
    mpfr_set_zero(r->L, 1);
    mpfr_set_zero(r->hmax, 1);
    mpfr_set_zero(r->max_eps_x, 1);
    mpfr_set_zero(r->max_eps_y, 1);
}

/* yhat, eps_x, eps_y: one allocation each, the array of numbers followed
 * by their significands (MPFR's custom interface: no malloc per number,
 * and no mpfr_clear; nothing changes their precision). */
static void *pool_alloc(size_t nstruct, size_t structsz, size_t nfr, mpfr_prec_t prec, char **limbs)
{
    size_t head = nstruct * structsz, one = mpfr_custom_get_size(prec), al = sizeof(mp_limb_t);
    char *p;
    head = (head + al - 1) / al * al;
    one = (one + al - 1) / al * al;
    p = malloc(head + nfr * one + 1);
    if (p) *limbs = p + head;
    return p;
}

static void fr_custom(mpfr_ptr x, char **limbs, mpfr_prec_t prec)
{
    size_t one = mpfr_custom_get_size(prec), al = sizeof(mp_limb_t);
    one = (one + al - 1) / al * al;
    mpfr_custom_init(*limbs, prec);
    mpfr_custom_init_set(x, MPFR_ZERO_KIND, 0, prec, *limbs);
    *limbs += one;
}

static void free_arrays(dvc_dlvi_result_t r)
{
    free(r->yhat);
    free(r->eps_x);
    free(r->eps_y);
    free(r->t);
    free(r->x);
    free(r->y);
    free(r->Lx);
    free(r->Lf);
    free(r->Lg);
    free(r->delta);
    free(r->beta_step);
    free(r->ry);
    dvc_tgrid_clear(&r->grid); /* a run on another grid must not keep it */
    r->t = r->x = r->y = NULL;
    r->Lx = r->Lf = r->Lg = r->delta = r->beta_step = r->ry = NULL;
    r->yhat = NULL;
    r->eps_x = r->eps_y = NULL;
}

const dvc_tgrid *dvc_dlvi_result_grid(const dvc_dlvi_result_struct *r)
{
    return &r->grid;
}

void dvc_dlvi_result_clear(dvc_dlvi_result_t r)
{
    free_arrays(r);
    free(r->ybox_lo);
    free(r->ybox_hi);
    r->ybox_lo = r->ybox_hi = NULL;
    mpfi_clear(r->h);
    mpfi_clear(r->T);
    mpfi_clear(r->theta);
    mpfr_clears(r->beta_lo, r->beta_hi, r->normA, r->normB, r->normQ, r->L, r->hmax, r->max_eps_x,
                r->max_eps_y, (mpfr_ptr)0);
}

/* (Re)allocate the per-step arrays of r for n, m, N at precision prec. */
void dvc_dlvi_point_at_(dvc_dlvi_point *pt, const dvc_dlvi_result_struct *r, long i)
{
    long row = DVC_RROW(r, i), m = r->m;
    memset(pt, 0, sizeof *pt);
    pt->i = i;
    pt->t = r->t[row];
    pt->x = r->x + row * r->n;
    pt->y = r->y + row * m;
    pt->yhat = m > 0 ? r->yhat[row * m] : NULL;
    pt->eps_x = r->eps_x[row];
    pt->eps_y = r->eps_y[row];
    if (i >= 1) {
        long s = DVC_RSTP(r, i - 1);
        pt->Lx = r->Lx[s];
        pt->Lf = r->Lf[s];
        pt->Lg = r->Lg[s];
        pt->delta = r->delta[s];
        pt->beta_step = r->beta_step[s];
        pt->ry = r->ry[s];
    }
}

dvc_status dvc_dlvi_result_alloc_(dvc_dlvi_result_t r, long n, long m, long N, mpfr_prec_t prec,
                                  int window)
{
    /* streaming: grid rows i % 2 and one step slot, whatever N */
    long np = window ? 2 : N + 1;
    char *ly = NULL, *lx = NULL, *le = NULL;
    free_arrays(r);
    r->n = n;
    r->m = m;
    r->N = N;
    r->window = window != 0;
    r->steps_done = 0;
    r->n_sharpened = 0;
    if (prec != r->prec) {
        r->prec = prec;
        mpfi_set_prec(r->h, prec);
        mpfi_set_prec(r->T, prec);
        mpfi_set_prec(r->theta, prec);
        mpfr_set_prec(r->beta_lo, prec);
        mpfr_set_prec(r->beta_hi, prec);
        mpfr_set_prec(r->normA, prec);
        mpfr_set_prec(r->normB, prec);
        mpfr_set_prec(r->normQ, prec);
        mpfr_set_prec(r->L, prec);
        mpfr_set_prec(r->hmax, prec);
        mpfr_set_prec(r->max_eps_x, prec);
        mpfr_set_prec(r->max_eps_y, prec);
    }
    mpfr_set_zero(r->max_eps_x, 1);
    mpfr_set_zero(r->max_eps_y, 1);
    r->t = calloc((size_t)np, sizeof(double));
    r->x = calloc((size_t)(np * (n > 0 ? n : 1)), sizeof(double));
    r->y = calloc((size_t)(np * (m > 0 ? m : 1)), sizeof(double));
    r->Lx = calloc((size_t)np, sizeof(double));
    r->Lf = calloc((size_t)np, sizeof(double));
    r->Lg = calloc((size_t)np, sizeof(double));
    r->delta = calloc((size_t)np, sizeof(double));
    r->beta_step = calloc((size_t)np, sizeof(double));
    r->ry = calloc((size_t)np, sizeof(double));
    r->yhat = pool_alloc((size_t)(np * (m > 0 ? m : 1)), sizeof(mpfi_t), (size_t)(2 * np * m), prec, &ly);
    r->eps_x = pool_alloc((size_t)np, sizeof(mpfr_t), (size_t)np, prec, &lx);
    r->eps_y = pool_alloc((size_t)np, sizeof(mpfr_t), (size_t)np, prec, &le);
    if (!r->t || !r->x || !r->y || !r->Lx || !r->Lf || !r->Lg || !r->delta || !r->beta_step ||
        !r->ry || !r->yhat || !r->eps_x || !r->eps_y) {
        free(r->yhat);
        free(r->eps_x);
        free(r->eps_y);
        r->yhat = NULL;
        r->eps_x = r->eps_y = NULL;
        free_arrays(r);
        r->N = 0;
        return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory for %ld steps", N);
    }
    for (long k = 0; k < np * m; k++) {
        fr_custom(&r->yhat[k]->left, &ly, prec);
        fr_custom(&r->yhat[k]->right, &ly, prec);
    }
    for (long k = 0; k < np; k++) {
        fr_custom(r->eps_x[k], &lx, prec);
        fr_custom(r->eps_y[k], &le, prec);
    }
    return DVC_OK;
}
