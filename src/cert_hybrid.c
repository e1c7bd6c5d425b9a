/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid certificates in memory (include/dvicert/hybrid_cert.h), beside
 * the DLVI ones (src/cert.c): the run that fills one from a built model,
 * re-verification by recomputation, evaluation of the stated tube. No file
 * format here: the JSON files are src/io/hybrid_cert.c. */
#include "dvicert/hybrid_cert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert_version.h"
#include "dvicert/cert.h"
#include "cert_internal.h"

void dvc_hybrid_cert_init(dvc_hybrid_cert_t c)
{
    memset(c, 0, sizeof *c);
    dvc_hybrid_result_init(c->res);
}

void dvc_hybrid_cert_clear(dvc_hybrid_cert_t c)
{
    free(c->generator);
    free(c->model_json);
    if (c->have_model) dvc_hybrid_model_clear(c->model);
    if (c->have_sum) mpfr_clears(c->sum_wT, c->sum_wev, (mpfr_ptr)0);
    dvc_hybrid_result_clear(c->res);
    memset(c, 0, sizeof *c);
}

dvc_status dvc_hybrid_cert_run_model_(dvc_hybrid_cert_t c, const char *where)
{
    if (c->model->prec > DVC_CERT_PREC_MAX)
        return dvc_error(DVC_ERR_INPUT, "%s: precision %ld above the largest a certificate may state "
                         "(%d bits)", where, (long)c->model->prec, DVC_CERT_PREC_MAX);
    c->generator = strdup("dvicert " DVC_VERSION);
    if (!c->generator) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    c->prec = c->model->prec;
    c->order = dvc_hybrid_model_order(c->model);
    c->guard_bits = c->model->guard_bits;
    c->h = c->model->h;
    c->revision = c->model->revision;
    if (c->max_steps > 0) c->model->max_steps = c->max_steps;
    if (c->max_seconds > 0) c->model->max_seconds = c->max_seconds;
    if (c->progress) c->model->progress = 1;
    /* the engine runs at the model's precision (it takes it from the model) */
    return dvc_hybrid_enclose(c->res, c->model);
}

/* Widest component of x (upper bound), at 64 bits. */
static void vec_width(mpfr_t w, const dvc_ivec_t x)
{
    mpfr_t d;
    mpfr_init2(d, 64);
    mpfr_set_ui(w, 0, MPFR_RNDN);
    for (long i = 0; i < x->n; i++) {
        mpfr_sub(d, &x->e[i]->right, &x->e[i]->left, MPFR_RNDU);
        mpfr_max(w, w, d, MPFR_RNDU);
    }
    mpfr_clear(d);
}

void dvc_hybrid_cert_widths_(mpfr_t wT, mpfr_t wev, const dvc_hybrid_result_struct *r)
{
    mpfr_t d;
    mpfr_init2(d, 64);
    vec_width(wT, r->x[r->nsteps - r->base]); /* the last grid point (held at nsteps - base) */
    mpfr_set_ui(wev, 0, MPFR_RNDN);
    for (long k = 0; k < r->nevents - r->ev_base; k++) { /* the events held */
        mpfr_sub(d, &r->ev[k].t->right, &r->ev[k].t->left, MPFR_RNDU);
        mpfr_max(wev, wev, d, MPFR_RNDU);
    }
    mpfr_clear(d);
}

double dvc_hybrid_cert_rel_radius_(const dvc_hybrid_result_struct *r, long n, long *worst)
{
    double *size = calloc((size_t)(2 * (n > 0 ? n : 1)), sizeof *size), *rad = size + n, big = 0, w = 0;
    *worst = 0;
    if (!size) return INFINITY;
    for (long i = 0; i <= r->nsteps; i++)
        for (long j = 0; j < n; j++) {
            mpfi_srcptr b = r->x[i]->e[j];
            double l = mpfr_get_d(&b->left, MPFR_RNDD), h = mpfr_get_d(&b->right, MPFR_RNDU);
            double d = (h - l) / 2, m = fabs(l) > fabs(h) ? fabs(l) : fabs(h);
            if (d > 0) d = nextafter(d, INFINITY); /* h - l rounded up */
            if (!(d <= rad[j])) rad[j] = d;
            if (!(m <= size[j])) size[j] = m;
        }
    for (long j = 0; j < n; j++)
        if (size[j] > big) big = size[j];
    for (long j = 0; j < n; j++) {
        double s = size[j] > 0 ? size[j] : big, q = s > 0 ? rad[j] / s : rad[j] > 0 ? INFINITY : 0;
        if (q > 0) q = nextafter(q, INFINITY);
        if (!(q <= w)) w = q, *worst = j;
    }
    free(size);
    return w;
}

/* The summary against the recomputation (cert_internal.h). */
dvc_status dvc_hybrid_cert_check_summary_(const dvc_hybrid_cert_struct *c, const dvc_hybrid_result_struct *r,
                                          mpfr_srcptr wev_run)
{
    dvc_status st = DVC_OK;
    mpfr_t wT, wev;
    if (!c->have_sum) return DVC_OK;
    mpfr_inits2(64, wT, wev, (mpfr_ptr)0);
    dvc_hybrid_cert_widths_(wT, wev, r);
    if (wev_run) mpfr_set(wev, wev_run, MPFR_RNDU);
    if (c->sum_steps != r->nsteps || c->sum_crossings != r->nevents)
        st = dvc_error(DVC_NOT_CERTIFIED, "summary: steps or crossings differ from the recomputed ones");
    else if (mpfr_cmp(c->sum_wT, wT) < 0 || mpfr_cmp(c->sum_wev, wev) < 0)
        st = dvc_error(DVC_NOT_CERTIFIED, "summary: a stated width is below the recomputed one");
    mpfr_clears(wT, wev, (mpfr_ptr)0);
    return st;
}

/* ---- verification ------------------------------------------------------- */

dvc_status dvc_hybrid_cert_prechecks_(const dvc_hybrid_cert_struct *c)
{
    if (strcmp(c->model_digest, c->model_digest_read) != 0)
        return dvc_error(DVC_NOT_CERTIFIED, "the embedded model does not match its digest "
                         "(model_digest): the model was edited");
    if (strcmp(c->digest, c->digest_read) != 0)
        return dvc_error(DVC_NOT_CERTIFIED, "the certificate does not match its digest (digest): "
                         "it was edited");
    if (c->order != dvc_hybrid_model_order(c->model) || c->guard_bits != c->model->guard_bits ||
        !(c->h == c->model->h))
        return dvc_error(DVC_NOT_CERTIFIED, "method: order, guard_bits or h differ from the "
                         "embedded model's");
    return DVC_OK;
}

dvc_status dvc_hybrid_cert_verify(const dvc_hybrid_cert_t c, dvc_hybrid_result_t rec)
{
    dvc_hybrid_result_t own;
    dvc_hybrid_result_struct *r = rec ? rec : own;
    dvc_status st;
    if (!c->have_model) return dvc_error(DVC_ERR_INPUT, "hybrid certificate without a model");
    if ((st = dvc_hybrid_cert_prechecks_(c)) != DVC_OK) return st;
    if (!rec) dvc_hybrid_result_init(own);
    /* at the model's precision (the engine takes it from the model) */
    st = dvc_hybrid_verify_keep(r, c->model, c->res);
    for (long k = 0; st == DVC_OK && k < r->nevents; k++)
        if (!mpfi_is_inside(r->ev[k].dphi, c->res->ev[k].dphi))
            st = dvc_error(DVC_NOT_CERTIFIED, "event %ld: the claimed dphi does not contain the "
                           "recomputed enclosure", k + 1);
    if (st == DVC_OK) st = dvc_hybrid_cert_check_summary_(c, r, NULL);
    if (!rec) dvc_hybrid_result_clear(own);
    return st;
}

dvc_status dvc_hybrid_cert_eval(dvc_ivec_t X, const dvc_hybrid_cert_t c, const mpfi_t tt)
{
    const dvc_hybrid_result_struct *r = c->res;
    int found = 0;
    if (r->nsteps < 1) return dvc_error(DVC_ERR_INPUT, "empty hybrid certificate");
    if (mpfr_cmp(&tt->left, r->t[0]) < 0 || mpfr_cmp(&tt->right, r->t[r->nsteps]) > 0)
        return dvc_error(DVC_ERR_INPUT, "time outside the certified tube");
    for (long i = 0; i < r->nsteps; i++) {
        if (mpfr_cmp(&tt->right, r->t[i]) < 0 || mpfr_cmp(&tt->left, r->t[i + 1]) > 0) continue;
        if (!found) dvc_ivec_set(X, r->box[i]);
        else dvc_ivec_hull(X, X, r->box[i]);
        found = 1;
    }
    for (long i = 0; i <= r->nsteps; i++)
        if (mpfr_equal_p(&tt->left, r->t[i]) && mpfr_equal_p(&tt->right, r->t[i]))
            for (long j = 0; j < X->n; j++) mpfi_intersect(X->e[j], X->e[j], r->x[i]->e[j]);
    return DVC_OK;
}
