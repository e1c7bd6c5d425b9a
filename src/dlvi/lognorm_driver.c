/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route's driver: setup (P proof, beta, Jacobians, norm), the
 * run over the grid with the predictor given, streamed or computed, the
 * sink, and the public entry points (docs/lognorm.md). */
#include "dlvi/lognorm_ws.h"
#include "dvicert/tube.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static dvc_status not_cert(long i, const mpfi_t t, const char *what)
{
    return dvc_error(DVC_NOT_CERTIFIED, "lognorm: step %ld (t = %.17g): %s", i,
                     mpfr_get_d(&t->left, MPFR_RNDD), what);
}

/* A time grid: w->h the hull of the step lengths (the summary's h; every
 * step then sets its own); r keeps a copy of the grid (see the caller). */
static dvc_status grid_setup(lws *w, const dvc_dlvi_problem_struct *p)
{
    /* one pass in increasing i (times on demand: a pass over the file) */
    dvc_status st = dvc_dlvi_step_len_(w->h, p, 0);
    for (long i = 1; st == DVC_OK && i < p->N; i++) {
        st = dvc_dlvi_step_len_(w->u, p, i);
        mpfi_union(w->h, w->h, w->u);
    }
    return st;
}

/* Setup: validation, result arrays, P proof, beta, Jacobians, norm. */
static dvc_status setup(lws *w, dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_struct *p,
                        const dvc_lognorm_opts *o)
{
    long n = p->n, m = p->m, N = p->N;
    dvc_status st;
    /* the run's precision: every object of the run is made at it (the
     * thread's default precision is neither read nor set) */
    mpfr_prec_t prec = o->dlvi.prec ? o->dlvi.prec : (p->prec ? p->prec : DVC_DEFAULT_PREC);
    w->p = p;
    w->o = o;
    w->info = info;
    w->n = n;
    w->m = m;
    w->N = N;
    dvc_ln_ws_init_(w, n, m, prec);
    if ((st = dvc_ln_ws_pieces_(w, o->pieces < 1 ? 1 : (o->pieces > 64 ? 64 : o->pieces))) != DVC_OK) return st;
    if ((st = dvc_dlvi_tf_resolve_(&w->f, &p->fcb, n, "f")) != DVC_OK) return st;
    if ((st = dvc_dlvi_tf_resolve_(&w->g, &p->gcb, m, "g")) != DVC_OK) return st;
    dvc_ln_const_cb_(w, &w->f, w->fc);
    if (m > 0) dvc_ln_const_cb_(w, &w->g, w->gc);
    w->deriv = o->use_deriv && (w->f.eval == NULL || w->f.deriv != NULL) &&
               (w->g.eval == NULL || w->g.deriv != NULL);
    /* with a sink, only the window (as the Algorithm 4.2 engine keeps) */
    w->win = o->dlvi.sink != NULL;
    if ((st = dvc_dlvi_result_alloc_(r, n, m, N, prec, w->win)) != DVC_OK) return st;
    if ((st = dvc_dlvi_result_set_ybox(r, p)) != DVC_OK) return st;
    mpfi_set(r->T, p->T);
    if (p->h > 0) mpfi_set_d(w->h, p->h);
    else if (p->grid || p->grid_src) {
        if ((st = grid_setup(w, p)) != DVC_OK) return st;
    }
    else mpfi_div_si(w->h, p->T, N);
    mpfi_set(r->h, w->h);
    if (w->grid_view && p->grid) {
        /* p's times in place: a trajectory's own, 8 bytes a time */
        dvc_tgrid_clear(&r->grid);
        dvc_dlvi_problem_grid(&r->grid, p);
    } else if ((st = dvc_dlvi_result_set_grid_(r, p)) != DVC_OK) {
        return st;
    }
    mpfi_set(r->theta, p->theta);
    if ((st = dvc_dlvi_prove_beta_(r, w->solver, &w->solver_ok, p, &o->dlvi.beta, prec)) != DVC_OK) return st;
    mpfr_set(w->beta, r->beta_hi, MPFR_RNDU);
    dvc_imat_norm_inf(r->normA, p->A);
    dvc_imat_norm_inf(r->normB, p->B);
    dvc_imat_norm_inf(r->normQ, p->Q);
    if ((st = dvc_lognorm_jac_init_(&w->J, p, prec)) != DVC_OK) return st;
    w->jac_ok = 1;
    w->npat = w->J.cap;
    if ((st = dvc_ln_fast_init_(w)) != DVC_OK) return st;
    if (o->stated && o->n_stated > 0) {
        /* verification: the certificate's norm, proven again */
        if (o->stated[0].pattern != -1)
            return dvc_error(DVC_NOT_CERTIFIED, "lognorm: the first stated norm must be the run's norm");
        st = dvc_lognorm_given_(info, &w->J, p, &o->stated[0], prec);
    } else {
        st = dvc_lognorm_choose_(info, &w->J, p, o->norm, -1, NULL, prec);
    }
    if (st != DVC_OK) return st;
    free(info->mode_pattern);
    free(info->mode_R);
    info->mode_pattern = NULL;
    info->mode_R = NULL;
    w->nrm[0] = info;
    w->cur = 0;
    mpfr_set(r->L, info->mu, MPFR_RNDU);
    free(info->E);
    free(info->dW);
    free(info->mu_step);
    free(info->rad);
    free(info->norm_used);
    {
        size_t np = w->win ? 2 : (size_t)(N + 1);
        info->E = calloc(np, sizeof(double));
        info->dW = calloc(np, sizeof(double));
        info->mu_step = calloc(np, sizeof(double));
        info->rad = calloc(np, sizeof(double));
        info->norm_used = calloc(np, sizeof(int));
    }
    info->N = N;
    info->n_affine = info->n_local = info->n_modes = info->n_switch = info->n_set = info->n_deriv =
        info->n_piece_aff = info->n_fast = 0;
    if (!info->E || !info->dW || !info->mu_step || !info->rad || !info->norm_used)
        return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory for %ld steps", N);
    mpfr_set(r->hmax, &w->h->right, MPFR_RNDD); /* no step condition on this route */
    return DVC_OK;
}

/* Hand grid point i (and step i - 1 before it) to the sink of o->dlvi, if
 * any: the same points as the Algorithm 4.2 engine hands out, so that the
 * streaming certificate writer takes either route. With a sink the result
 * keeps the window of the last two grid points (r->window = 1). */
static dvc_status emit(const lws *w, const dvc_dlvi_result_t r, long i)
{
    const dvc_dlvi_opts *o = &w->o->dlvi;
    dvc_dlvi_point pt;
    if (o->sink == NULL) return DVC_OK;
    dvc_dlvi_point_at_(&pt, r, i);
    return o->sink(&pt, o->sink_ctx);
}

/* x^i (and y^i from a source or ys) into the result's row of grid point i,
 * from src or from the arrays xs, ys (ys may be NULL; a source without y,
 * ys NULL: the row as for the arrays without ys). */
static dvc_status fetch(dvc_dlvi_result_t r, long i, const double *xs, const double *ys, dvc_dlvi_source src,
                        void *src_ctx, int own)
{
    long n = r->n, m = r->m, row = DVC_RROW(r, i);
    double *x = r->x + row * n;
    dvc_status st;
    if (src) {
        if ((st = src(i, x, r->y + row * m, src_ctx)) != DVC_OK)
            return own ? dvc_error_context(st, "lognorm: predictor: ") : st;
        if (!ys) memset(r->y + row * m, 0, (size_t)m * sizeof(double));
    } else {
        memcpy(x, xs + i * n, (size_t)n * sizeof(double));
        /* without ys the row is filled at the grid point; until then it
         * reads as zeros, as in a result holding every point */
        if (ys) memcpy(r->y + row * m, ys + i * m, (size_t)m * sizeof(double));
        else memset(r->y + row * m, 0, (size_t)m * sizeof(double));
    }
    for (long k = 0; k < n; k++)
        if (!isfinite(x[k])) return dvc_error(DVC_ERR_INPUT, "lognorm: predictor x[%ld][%ld] is not finite", i, k);
    return DVC_OK;
}

static dvc_status engine(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                         const dvc_lognorm_opts *o, const double *xs, const double *ys, int predict,
                         dvc_dlvi_source src, void *src_ctx, int src_y, int grid_view)
{
    lws w;
    dvc_lognorm_opts def;
    dvc_status st;
    long n, m;
    double *px = NULL, *py = NULL;
    dvc_dlvi_pstream *ps = NULL;
    int stream; /* the predictor fetched point by point (a window) */
    if (o == NULL) {
        dvc_lognorm_opts_default(&def);
        o = &def;
    }
    memset(&w, 0, sizeof w);
    w.grid_view = grid_view;
    if ((st = dvc_dlvi_validate_(p)) != DVC_OK) return st;
    n = p->n;
    m = p->m;
    if (predict && o->dlvi.sink) {
        /* streaming: the predictor point by point, just before its step */
        st = dvc_dlvi_pstream_open_(&ps, p, o->predictor == DVC_LOGNORM_PRED_HEUN);
        if (st != DVC_OK) {
            dvc_dlvi_pstream_close_(ps);
            return dvc_error_context(st, "lognorm: predictor: ");
        }
        src = dvc_dlvi_pstream_next_;
        src_ctx = ps;
    } else if (predict) {
        px = malloc((size_t)((p->N + 1) * n) * sizeof(double));
        py = malloc((size_t)((p->N + 1) * (m > 0 ? m : 1)) * sizeof(double));
        if (!px || !py) {
            free(px);
            free(py);
            return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory for %ld steps", p->N);
        }
        if (o->predictor == DVC_LOGNORM_PRED_HEUN) st = dvc_dlvi_predict_heun_(px, py, p);
        else st = dvc_dlvi_predict(px, py, p, &o->dlvi);
        if (st != DVC_OK) {
            free(px);
            free(py);
            return dvc_error_context(st, "lognorm: predictor: ");
        }
        xs = px;
        ys = py;
    }
    st = setup(&w, r, info, p, o);
    if (st != DVC_OK) goto done;
    stream = src != NULL || w.win;
    if (src && src_y) ys = r->y; /* y given by the source */
    if (stream) {
        /* x^0 now, x^{i+1} before step i */
        if ((st = fetch(r, 0, xs, ys, src, src_ctx, ps != NULL)) != DVC_OK) goto done;
    } else {
        for (long k = 0; k < (p->N + 1) * n; k++) {
            if (!isfinite(xs[k])) {
                st = dvc_error(DVC_ERR_INPUT, "lognorm: predictor x[%ld][%ld] is not finite", k / n, k % n);
                goto done;
            }
            r->x[k] = xs[k];
        }
        if (ys)
            for (long k = 0; k < (p->N + 1) * m; k++) r->y[k] = ys[k];
    }
    /* t = 0: eps_x[0] = ||x0 - x^0||_inf, E_0 = ||x0 - x^0||_W */
    for (long k = 0; k < n; k++) mpfi_sub_d(w.dx->e[k], p->x0->e[k], r->x[k]);
    dvc_ivec_norm_inf(r->eps_x[0], w.dx);
    dvc_lognorm_vnorm_(w.Ei, info, w.dx, &w.sc);
    info->E[0] = mpfr_get_d(w.Ei, MPFR_RNDU);
    info->rad[0] = mpfr_get_d(r->eps_x[0], MPFR_RNDU);
    if (o->error_set) {
        if ((st = dvc_ln_lohner_init_(&w)) != DVC_OK) goto done;
        dvc_ln_lohner_reset_(&w, r->eps_x[0]);
        /* the start: c = mid(x0 - x^0), r = the rest */
        for (long k = 0; k < n; k++) {
            w.Lc[k] = dvc_ival_mid_d(w.dx->e[k]);
            mpfi_sub_d(w.Lr->e[k], w.dx->e[k], w.Lc[k]);
        }
    }
    r->t[0] = 0.0;
    mpfi_set_ui(w.ti, 0);
    mpfr_set(w.bstep, w.beta, MPFR_RNDU);
    w.yloc = -1;
    w.yset = 0;
    if ((st = dvc_ln_grid_point_(&w, r, 0, w.ti, ys != NULL)) != DVC_OK) {
        st = dvc_error_context(st, "lognorm: t = 0: ");
        goto done;
    }
    mpfr_set(r->max_eps_x, r->eps_x[0], MPFR_RNDU);
    mpfr_set(r->max_eps_y, r->eps_y[0], MPFR_RNDU);
    if ((st = emit(&w, r, 0)) != DVC_OK) goto done;
    for (long i = 0; i < w.N; i++) {
        if (stream && (st = fetch(r, i + 1, xs, ys, src, src_ctx, ps != NULL)) != DVC_OK) goto done;
        if ((st = dvc_ln_step_(&w, r, i, ys != NULL)) == DVC_OK) st = emit(&w, r, i + 1);
        if (st != DVC_OK) {
            if (st == DVC_NOT_CERTIFIED || st == DVC_ERR_INTERNAL) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s", dvc_error_message());
                st = not_cert(i, w.ti, msg);
            }
            goto done;
        }
        r->steps_done = i + 1;
    }
done:
    dvc_ln_ws_clear_(&w);
    dvc_dlvi_pstream_close_(ps);
    free(px);
    free(py);
    return st;
}

dvc_status dvc_lognorm_run(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                           const dvc_lognorm_opts *o)
{
    return engine(r, info, p, o, NULL, NULL, 1, NULL, NULL, 1, 0);
}

dvc_status dvc_lognorm_certify(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                               const dvc_lognorm_opts *o, const double *xs, const double *ys)
{
    if (xs == NULL) return dvc_error(DVC_ERR_INPUT, "lognorm: no predictor given");
    return engine(r, info, p, o, xs, ys, 0, NULL, NULL, 1, 0);
}

dvc_status dvc_lognorm_certify_stream(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                                      const dvc_lognorm_opts *o, dvc_dlvi_source src, void *src_ctx)
{
    if (src == NULL) return dvc_error(DVC_ERR_INPUT, "lognorm: no predictor source given");
    return engine(r, info, p, o, NULL, NULL, 0, src, src_ctx, 1, 0);
}

dvc_status dvc_lognorm_certify_stream_x_(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                                         const dvc_lognorm_opts *o, dvc_dlvi_source src, void *src_ctx)
{
    if (src == NULL) return dvc_error(DVC_ERR_INPUT, "lognorm: no predictor source given");
    return engine(r, info, p, o, NULL, NULL, 0, src, src_ctx, 0, 1);
}
