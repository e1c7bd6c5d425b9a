/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A hybrid result as a dvc_tube_t (include/dvicert/tube.h): non-uniform
 * grid, grid and step enclosures, events, and the flow of each step's set
 * as the evaluator between grid points. */
#include <stdio.h>
#include "hybrid/internal.h"

static dvc_status flow_eval(dvc_ivec_t X, const void *ctx, const mpfi_t t)
{
    const dvc_hybrid_flow_ref *f = ctx;
    return dvc_hybrid_eval(X, f->m, f->r, t);
}

/* |x(t) - x^h(t)| for t in step i: x(t) lies in the box, the interpolant
 * between a and b, so the distance is at most the largest of box.hi - min
 * and max - box.lo (rounded up). */
static void step_radius(mpfr_t e, mpfi_srcptr box, double a, double b, mpfr_t tmp)
{
    mpfr_sub_d(tmp, &box->right, a < b ? a : b, MPFR_RNDU);
    if (mpfr_cmp(tmp, e) > 0) mpfr_set(e, tmp, MPFR_RNDU);
    mpfr_d_sub(tmp, a < b ? b : a, &box->left, MPFR_RNDU);
    if (mpfr_cmp(tmp, e) > 0) mpfr_set(e, tmp, MPFR_RNDU);
}

dvc_status dvc_hybrid_tube(dvc_tube_t tb, const dvc_hybrid_model_t m, const dvc_hybrid_result_t r,
                           dvc_hybrid_flow_ref *flow)
{
    long n = m->n, N = r->nsteps;
    mpfr_prec_t prec = r->prec > 0 ? r->prec : m->prec;
    dvc_status st;
    mpfi_t T;
    mpfr_t e, tmp;
    if (N < 1) return dvc_error(DVC_ERR_INPUT, "hybrid tube: the result has no step");
    mpfi_init2(T, mpfr_get_prec(r->t[N]));
    mpfi_set_fr(T, r->t[N]);
    st = dvc_tube_alloc(tb, n, 0, N, T, prec);
    mpfi_clear(T);
    if (st == DVC_OK) st = dvc_tube_set_times(tb, (const mpfr_t *)r->t);
    if (st == DVC_OK) st = dvc_tube_set_boxes(tb);
    if (st != DVC_OK) return st;
    mpfr_inits2(prec, e, tmp, (mpfr_ptr)0);
    for (long i = 0; i <= N; i++)
        for (long j = 0; j < n; j++) {
            mpfi_set(tb->xg[i * n + j], r->x[i]->e[j]);
            tb->x[i * n + j] = dvc_ival_mid_d(r->x[i]->e[j]);
            if (i < N) mpfi_set(tb->xs[i * n + j], r->box[i]->e[j]);
        }
    /* eps_x: radii about the interpolant of the midpoints (for readers of
     * the predictor form; the enclosures above are what the tube uses) */
    mpfr_set_ui(e, 0, MPFR_RNDU);
    for (long j = 0; j < n; j++) step_radius(e, r->x[0]->e[j], tb->x[j], tb->x[j], tmp);
    mpfi_set_fr(tb->eps_x[0], e);
    for (long i = 1; i <= N; i++) {
        mpfr_set_ui(e, 0, MPFR_RNDU);
        for (long j = 0; j < n; j++)
            step_radius(e, r->box[i - 1]->e[j], tb->x[(i - 1) * n + j], tb->x[i * n + j], tmp);
        mpfi_set_fr(tb->eps_x[i], e);
    }
    mpfr_clears(e, tmp, (mpfr_ptr)0);
    for (long k = 0; st == DVC_OK && k < r->nevents; k++) {
        const dvc_hybrid_event *ev = &r->ev[k];
        char lab[256];
        snprintf(lab, sizeof lab, "%s: %s->%s", m->gname[ev->g], m->modes[ev->mode_before].name,
                 m->modes[ev->mode_after].name);
        st = dvc_tube_add_event(tb, ev->t, ev->x, lab);
    }
    if (st == DVC_OK && flow) {
        flow->m = m;
        flow->r = r;
        dvc_tube_set_eval(tb, flow_eval, flow);
    }
    return st;
}
