/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The DLVI engine's driver: the loop shared by dvc_dlvi_run (predictor
 * and certification interleaved) and dvc_dlvi_certify (stored predictor),
 * progress reports, and the retry at higher precision. */
#include "dlvi/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Hand grid point i (and step i - 1 before it) to the sink, if any. */
static dvc_status emit(const ws_t *w, const dvc_dlvi_result_t r, long i)
{
    const dvc_dlvi_opts *o = w->o;
    dvc_dlvi_point pt;
    if (o->sink == NULL) return DVC_OK;
    dvc_dlvi_point_at_(&pt, r, i);
    return o->sink(&pt, o->sink_ctx);
}

/* x^i, y^i from a source into their rows, checked. */
static dvc_status pull(const ws_t *w, dvc_dlvi_result_t r, long i, dvc_dlvi_source src, void *ctx)
{
    long row = DVC_RROW(r, i);
    dvc_status st = src(i, r->x + row * w->n, r->y + row * w->m, ctx);
    if (st != DVC_OK) return st;
    for (long k = 0; k < w->n; k++)
        if (!isfinite(r->x[row * w->n + k]))
            return dvc_error(DVC_ERR_INPUT, "dlvi: predictor x[%ld][%ld] is not finite", i, k);
    return DVC_OK;
}

/* The loop shared by run and certify. With predict != 0, x^{i+1}, y^{i+1}
 * are computed by the predictor just before step i is certified; with a
 * source, they are fetched from it then. */
static dvc_status engine(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p, const dvc_dlvi_opts *o,
                         const double *xs, const double *ys, int predict, dvc_dlvi_source src,
                         void *src_ctx)
{
    ws_t w;
    dvc_status st;
    dvc_dlvi_opts def;
    int tty, have_y = predict || ys != NULL || src != NULL;
    long n, m;
    if (o == NULL) {
        dvc_dlvi_opts_default(&def);
        o = &def;
    }
    st = dvc_dlvi_ws_init_(&w, r, p, o);
    if (st != DVC_OK) goto done;
    n = w.n;
    m = w.m;
    tty = o->progress && isatty(2);
    if (predict) {
        if ((st = dvc_dlvi_pred_setup_(&w)) != DVC_OK) goto done;
        for (long k = 0; k < n; k++) r->x[k] = dvc_ival_mid_d(p->x0->e[k]);
        if ((st = dvc_dlvi_pred_y0_(&w, r->x, r->y)) != DVC_OK) {
            st = dvc_error_context(st, "dlvi predictor at t = 0: ");
            goto done;
        }
    } else if (src) {
        if ((st = pull(&w, r, 0, src, src_ctx)) != DVC_OK) goto done;
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
    if ((st = dvc_dlvi_cert_start_(&w, r, have_y)) != DVC_OK) goto done;
    if ((st = emit(&w, r, 0)) != DVC_OK) goto done;
    for (long i = 0; i < w.N; i++) {
        long r0 = DVC_RROW(r, i), r1 = DVC_RROW(r, i + 1);
        if (p->h > 0 && i == w.N - 1 && (st = dvc_dlvi_last_step_(&w, predict)) != DVC_OK) goto done;
        if (predict) {
            /* f, g at [t_{i+1}] once: midpoints for the predictor, the
             * enclosures for cert_step (same values it would compute) */
            dvc_dlvi_time_(w.tn, p, w.h, i + 1);
            if ((st = dvc_dlvi_tf_eval_(&w.f, w.Fn, w.tn, "f")) != DVC_OK ||
                (st = dvc_dlvi_tf_eval_(&w.g, w.Gn, w.tn, "g")) != DVC_OK) {
                st = dvc_error_context(st, "dlvi: step %ld (t_{i+1} = %.17g), f, g at t_{i+1}: ", i,
                                       dvc_ival_mid_d(w.tn));
                goto done;
            }
            if (w.fast) {
                /* binary64 copies for cert_step; dvc_ival_mid_d's midpoints */
                dvc_dlvi_ivec_to_d_(w.f1lo, w.f1hi, w.Fn);
                dvc_dlvi_ivec_to_d_(w.glo, w.ghi, w.Gn);
                for (long k = 0; k < n; k++) w.fv[k] = 0.5 * w.f1lo[k] + 0.5 * w.f1hi[k];
                for (long k = 0; k < m; k++) w.gv[k] = 0.5 * w.glo[k] + 0.5 * w.ghi[k];
                w.fd_ready = 1;
            } else {
                dvc_ivec_mid_d(w.fv, w.Fn);
                dvc_ivec_mid_d(w.gv, w.Gn);
            }
            w.fg_ready = 1;
            memcpy(r->y + r1 * m, r->y + r0 * m, (size_t)m * sizeof(double));
            st = dvc_dlvi_pred_step_(&w, r->x + r0 * n, r->x + r1 * n, r->y + r1 * m,
                           p->h > 0 ? dvc_ival_mid_d(w.tn) : (double)(i + 1) * w.hd, 1);
            if (st != DVC_OK) goto done;
        } else if (src && (st = pull(&w, r, i + 1, src, src_ctx)) != DVC_OK) {
            goto done;
        }
        if ((st = dvc_dlvi_cert_step_(&w, r, i, have_y)) != DVC_OK) goto done;
        if ((st = emit(&w, r, i + 1)) != DVC_OK) goto done;
        progress(&w, i + 1, tty);
    }
done:
    dvc_dlvi_ws_clear_(&w);
    return st;
}

/* engine() at the requested precision, then (opts.prec_max) at doubled
 * precisions while the answer is "not certified". */
static dvc_status engine_retry(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p,
                               const dvc_dlvi_opts *o, const double *xs, const double *ys,
                               int predict)
{
    dvc_dlvi_opts loc;
    dvc_status st = engine(r, p, o, xs, ys, predict, NULL, NULL);
    if (o == NULL || o->prec_max <= 0 || o->sink != NULL) return st;
    loc = *o;
    loc.prec = r->prec;
    while (st == DVC_NOT_CERTIFIED && 2 * loc.prec <= o->prec_max) {
        loc.prec *= 2;
        st = engine(r, p, &loc, xs, ys, predict, NULL, NULL);
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

dvc_status dvc_dlvi_certify_stream(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p,
                                   const dvc_dlvi_opts *o, dvc_dlvi_source src, void *src_ctx)
{
    if (src == NULL || o == NULL || o->sink == NULL)
        return dvc_error(DVC_ERR_INPUT, "dlvi certify: a streaming run needs a source and a sink");
    return engine(r, p, o, NULL, NULL, 0, src, src_ctx);
}
