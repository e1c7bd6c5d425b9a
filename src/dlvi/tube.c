/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A DLVI result as a tube (include/dvicert/tube.h): the engine's own
 * result-to-tube function (a copy), its tube read in place through the
 * accessors of src/tube_source.h, and the y box the engines record in
 * their results: the tube knows no engine. */
#include "dvicert/dlvi.h"
#include "tube_source.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

dvc_status dvc_dlvi_tube(dvc_tube_t tb, const dvc_dlvi_result_t r, const dvc_ivec_t l,
                         const dvc_ivec_t u)
{
    long n = r->n, m = r->m, N = r->N, S = r->steps_done;
    dvc_status st;
    if (S < 1) return dvc_error(DVC_ERR_INPUT, "tube: the result has no certified step");
    if (r->window)
        return dvc_error(DVC_ERR_INPUT, "tube: a streamed result keeps no tube (use its sink)");
    if ((st = dvc_tube_alloc(tb, n, m, N, r->T, r->prec)) != DVC_OK) return st;
    tb->steps = S;
    if ((st = dvc_tube_set_grid(tb, &r->grid)) != DVC_OK) return st;
    memcpy(tb->x, r->x, (size_t)((S + 1) * n) * sizeof *tb->x);
    memcpy(tb->y, r->y, (size_t)((S + 1) * m) * sizeof *tb->y);
    for (long i = 0; i <= S; i++) {
        mpfi_set_fr(tb->eps_x[i], r->eps_x[i]);
        mpfi_set_fr(tb->eps_y[i], r->eps_y[i]);
        if (i >= 1) mpfi_set_d(tb->ry[i], r->ry[i - 1]);
        for (long k = 0; k < m; k++) {
            mpfi_set_fr(tb->yhat_lo[i * m + k], &r->yhat[i * m + k]->left);
            mpfi_set_fr(tb->yhat_hi[i * m + k], &r->yhat[i * m + k]->right);
        }
    }
    if (l && u) return dvc_tube_set_ybox(tb, l, u);
    if (r->ybox_lo && r->ybox_hi && r->ybox_m == m) {
        dvc_ivec_t L, U;
        dvc_ivec_init2(L, m, 64);
        dvc_ivec_init2(U, m, 64);
        for (long k = 0; k < m; k++) {
            mpfi_set_d(L->e[k], r->ybox_lo[k]);
            mpfi_set_d(U->e[k], r->ybox_hi[k]);
        }
        st = dvc_tube_set_ybox(tb, L, U);
        dvc_ivec_clear(L);
        dvc_ivec_clear(U);
    }
    return st;
}

/* The result read in place (src/tube_source.h): its stored numbers as the
 * tube's stated ones. */
static void src_eps_x(mpfi_t out, const void *ctx, long i)
{
    mpfi_set_fr(out, ((const dvc_dlvi_result_struct *)ctx)->eps_x[i]);
}

static void src_yhat(mpfi_t lo, mpfi_t hi, const void *ctx, long i, long k)
{
    const dvc_dlvi_result_struct *r = ctx;
    mpfi_set_fr(lo, &r->yhat[i * r->m + k]->left);
    mpfi_set_fr(hi, &r->yhat[i * r->m + k]->right);
}

static void src_ry(mpfi_t out, const void *ctx, long i)
{
    mpfi_set_d(out, ((const dvc_dlvi_result_struct *)ctx)->ry[i - 1]);
}

static int src_ybox(mpfr_t lo, mpfr_t hi, const void *ctx, long k)
{
    const dvc_dlvi_result_struct *r = ctx;
    if (!r->ybox_lo || !r->ybox_hi || r->ybox_m != r->m) return 0;
    mpfr_set_d(lo, r->ybox_lo[k], MPFR_RNDD);
    mpfr_set_d(hi, r->ybox_hi[k], MPFR_RNDU);
    return 1;
}

static dvc_status result_outer(dvc_ivec_t out, const dvc_dlvi_result_t r, const mpfi_t t, int which)
{
    dvc_tube_source s;
    if (r->window)
        return dvc_error(DVC_ERR_INPUT, "tube: a streamed result keeps no tube (use its sink)");
    if (r->grid.kind == DVC_TGRID_EXPLICIT && !r->grid.t)
        return dvc_error(DVC_ERR_INPUT, "tube: a result on times on demand keeps no tube (use its sink)");
    s.n = r->n;
    s.m = r->m;
    s.N = r->N;
    s.steps = r->steps_done;
    s.prec = r->prec;
    s.T = r->T;
    s.x = r->x;
    s.times = r->grid.t;
    s.hgrid = r->grid.h;
    s.ctx = r;
    s.eps_x = src_eps_x;
    s.yhat = src_yhat;
    s.ry = src_ry;
    s.ybox = src_ybox;
    return dvc_tube_source_outer(out, &s, t, which);
}

dvc_status dvc_dlvi_tube_x(dvc_ivec_t out, const dvc_dlvi_result_t r, const mpfi_t t)
{
    return result_outer(out, r, t, 0);
}

dvc_status dvc_dlvi_tube_y(dvc_ivec_t out, const dvc_dlvi_result_t r, const mpfi_t t)
{
    return result_outer(out, r, t, 1);
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
