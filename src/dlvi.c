/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* DLVI problems, options and result records of the certified
 * time-stepping engine (Chen & Wang (4.1), (4.2)); the engine itself lives
 * in src/dlvi/ (see dlvi/internal.h), the bounds in docs/bounds.md. */
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
    r->t = r->x = r->y = NULL;
    r->Lx = r->Lf = r->Lg = r->delta = r->beta_step = r->ry = NULL;
    r->yhat = NULL;
    r->eps_x = r->eps_y = NULL;
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
dvc_status dvc_dlvi_result_alloc_(dvc_dlvi_result_t r, long n, long m, long N, mpfr_prec_t prec)
{
    long np = N + 1;
    char *ly = NULL, *lx = NULL, *le = NULL;
    free_arrays(r);
    r->n = n;
    r->m = m;
    r->N = N;
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

/* ---- tubes ----------------------------------------------------------- */

/* Which steps j can contain a point of [t]: t_j <= s <= t_{j+1}. */
static void step_range(long *j0, long *j1, const dvc_dlvi_result_t r, const mpfi_t t)
{
    double hd = mpfr_get_d(&r->h->left, MPFR_RNDD);
    double lo = mpfr_get_d(&t->left, MPFR_RNDD) / hd, hi = mpfr_get_d(&t->right, MPFR_RNDU) / hd;
    long a = (long)floor(lo) - 1, b = (long)floor(hi) + 1;
    if (a < 0) a = 0;
    if (b > r->steps_done - 1) b = r->steps_done - 1;
    *j0 = a;
    *j1 = b;
}

/* Shared by tube_x and tube_y: for each step j whose [t_j, t_{j+1}] may
 * meet [t], lam encloses (s - t_j) / h for s in [t] within the step, and
 * the callback adds the step's enclosure to out (hull). */
typedef void (*tube_fn)(dvc_ivec_t out, int first, const dvc_dlvi_result_t r, long j,
                        const mpfi_t lam, mpfi_t tmp, mpfi_t tmp2);

static dvc_status tube_generic(dvc_ivec_t out, const dvc_dlvi_result_t r, const mpfi_t t,
                               tube_fn fn)
{
    long j0, j1, cnt = 0;
    mpfi_t tj, tj1, lam, tmp, tmp2, s;
    mpfr_prec_t prec = r->prec;
    if (r->steps_done < 1) return dvc_error(DVC_ERR_INPUT, "dlvi tube: no certified step");
    if (!dvc_ival_is_valid(t) || !dvc_ival_is_finite(t))
        return dvc_error(DVC_ERR_INPUT, "dlvi tube: t is not a finite interval");
    dvc_dlvi_iinits_(prec, tj, tj1, lam, tmp, tmp2, s, (mpfi_ptr)0);
    /* t must lie in [0, t_steps_done] (t_N = T exactly) */
    if (r->steps_done == r->N) mpfi_set(tj1, r->T);
    else mpfi_mul_si(tj1, r->h, r->steps_done);
    if (mpfr_sgn(&t->left) < 0 || mpfr_cmp(&t->right, &tj1->left) > 0) {
        dvc_dlvi_iclears_(tj, tj1, lam, tmp, tmp2, s, (mpfi_ptr)0);
        return dvc_error(DVC_ERR_INPUT, "dlvi tube: t outside the certified range [0, t_%ld]",
                         r->steps_done);
    }
    step_range(&j0, &j1, r, t);
    for (long j = j0; j <= j1; j++) {
        mpfr_t a, b;
        mpfi_mul_si(tj, r->h, j);
        mpfi_mul_si(tj1, r->h, j + 1);
        /* skip when [t] certainly misses [t_j, t_{j+1}] */
        if (mpfr_cmp(&t->right, &tj->left) < 0 || mpfr_cmp(&t->left, &tj1->right) > 0) continue;
        /* s in [max(t.lo, t_j.lo), min(t.hi, t_{j+1}.hi)] */
        mpfr_inits2(prec, a, b, (mpfr_ptr)0);
        mpfr_max(a, &t->left, &tj->left, MPFR_RNDD);
        mpfr_min(b, &t->right, &tj1->right, MPFR_RNDU);
        mpfi_interv_fr(s, a, b);
        mpfr_clears(a, b, (mpfr_ptr)0);
        mpfi_sub(lam, s, tj);
        mpfi_div(lam, lam, r->h);
        /* (s - t_j)/h lies in [0, 1] for s in the step */
        if (mpfr_sgn(&lam->left) < 0) mpfr_set_zero(&lam->left, 1);
        if (mpfr_cmp_ui(&lam->right, 1) > 0) mpfr_set_ui(&lam->right, 1, MPFR_RNDU);
        if (mpfr_cmp(&lam->left, &lam->right) > 0) continue;
        fn(out, cnt == 0, r, j, lam, tmp, tmp2);
        cnt++;
    }
    dvc_dlvi_iclears_(tj, tj1, lam, tmp, tmp2, s, (mpfi_ptr)0);
    if (cnt == 0) return dvc_error(DVC_ERR_INTERNAL, "dlvi tube: no step found for t");
    return DVC_OK;
}

static void tube_x_step(dvc_ivec_t out, int first, const dvc_dlvi_result_t r, long j,
                        const mpfi_t lam, mpfi_t tmp, mpfi_t tmp2)
{
    long n = r->n;
    for (long k = 0; k < n; k++) {
        double a = r->x[j * n + k], b = r->x[(j + 1) * n + k];
        /* x^j + lam (x^{j+1} - x^j) +- eps_x^{j+1} */
        mpfi_set_d(tmp, b);
        mpfi_sub_d(tmp, tmp, a);
        mpfi_mul(tmp, tmp, lam);
        mpfi_add_d(tmp, tmp, a);
        mpfi_interv_fr(tmp2, r->eps_x[j + 1], r->eps_x[j + 1]);
        mpfi_neg(tmp2, tmp2);
        mpfr_set(&tmp2->right, r->eps_x[j + 1], MPFR_RNDU);
        mpfi_add(tmp, tmp, tmp2);
        if (first) mpfi_set(out->e[k], tmp);
        else mpfi_union(out->e[k], out->e[k], tmp);
    }
}

static void tube_y_step(dvc_ivec_t out, int first, const dvc_dlvi_result_t r, long j,
                        const mpfi_t lam, mpfi_t tmp, mpfi_t tmp2)
{
    long m = r->m;
    (void)lam;
    for (long k = 0; k < m; k++) {
        /* ([yhat^j] +- ry) meet ([yhat^{j+1}] +- ry) meet [l.lo, u.hi] */
        mpfi_interv_d(tmp2, -r->ry[j], r->ry[j]);
        mpfi_add(tmp, r->yhat[j * m + k], tmp2);
        mpfi_add(tmp2, r->yhat[(j + 1) * m + k], tmp2);
        mpfi_intersect(tmp, tmp, tmp2);
        if (r->ybox_lo && r->ybox_hi && r->ybox_m == m) {
            /* y(t) solves the LVI: y(t) in [l, u]. An empty meet cannot
             * happen for a rigorous tube; keep the unmet box if it does. */
            mpfi_interv_d(tmp2, r->ybox_lo[k], r->ybox_hi[k]);
            mpfi_intersect(tmp2, tmp, tmp2);
            if (!mpfi_is_empty(tmp2)) mpfi_set(tmp, tmp2);
        }
        if (first) mpfi_set(out->e[k], tmp);
        else mpfi_union(out->e[k], out->e[k], tmp);
    }
}

dvc_status dvc_dlvi_tube_x(dvc_ivec_t out, const dvc_dlvi_result_t r, const mpfi_t t)
{
    if (out->n != r->n) return dvc_error(DVC_ERR_INPUT, "dlvi tube: out has %ld entries, need %ld", out->n, r->n);
    return tube_generic(out, r, t, tube_x_step);
}

dvc_status dvc_dlvi_tube_y(dvc_ivec_t out, const dvc_dlvi_result_t r, const mpfi_t t)
{
    if (out->n != r->m) return dvc_error(DVC_ERR_INPUT, "dlvi tube: out has %ld entries, need %ld", out->n, r->m);
    return tube_generic(out, r, t, tube_y_step);
}

dvc_status dvc_dlvi_result_set_ybox(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p)
{
    long m = p->m;
    double *lo, *hi;
    if (p->l->n != m || p->u->n != m)
        return dvc_error(DVC_ERR_INPUT, "dlvi: l, u must have m = %ld entries", m);
    lo = malloc((size_t)(m > 0 ? m : 1) * sizeof *lo);
    hi = malloc((size_t)(m > 0 ? m : 1) * sizeof *hi);
    if (!lo || !hi) {
        free(lo);
        free(hi);
        return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory");
    }
    for (long k = 0; k < m; k++) {
        /* outward: a double <= l.lo and one >= u.hi (NaN: no information) */
        lo[k] = mpfr_get_d(&p->l->e[k]->left, MPFR_RNDD);
        hi[k] = mpfr_get_d(&p->u->e[k]->right, MPFR_RNDU);
        if (isnan(lo[k])) lo[k] = -INFINITY;
        if (isnan(hi[k])) hi[k] = INFINITY;
    }
    free(r->ybox_lo);
    free(r->ybox_hi);
    r->ybox_lo = lo;
    r->ybox_hi = hi;
    r->ybox_m = m;
    return DVC_OK;
}
