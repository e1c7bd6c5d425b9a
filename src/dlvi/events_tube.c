/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The tube of the DLVI events route (include/dvicert/events.h,
 * dvc_dlvi_events_tube): the hybrid tube of x, and y from the pattern's
 * affine map on it. In the region of pattern P the LVI solution is
 * y = E_P (Q x + g(t)) + c_P (dvc_dlvi_events_y), so at a time s the
 * enclosure of that map over a box holding x(s) holds y(s) for the pattern
 * the solution follows at s. The patterns possible at a time of a step are
 * the step's own and those before and after the events whose time
 * enclosures meet it; where several are possible the hull is taken (a
 * pattern whose map leaves [l, u] on the box is one the state is not in,
 * and is left out). A step of an ambiguity window has no pattern: the LVI
 * is solved over the box there (mode -1). y is computed on reading, never
 * stored: a certificate states x alone (docs/events.md). */
#include <stdlib.h>
#include <string.h>

#include "dvicert/events.h"

/* The set of patterns (mode indices, -1: the LVI over the box). */
typedef struct {
    long *v, n, cap;
} patset;

static dvc_status pat_add(patset *S, long p)
{
    for (long k = 0; k < S->n; k++)
        if (S->v[k] == p) return DVC_OK;
    if (S->n == S->cap) {
        long cap = S->cap ? 2 * S->cap : 8;
        long *v = realloc(S->v, (size_t)cap * sizeof *v);
        if (!v) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        S->v = v;
        S->cap = cap;
    }
    S->v[S->n++] = p;
    return DVC_OK;
}

static int is_window(const dvc_hybrid_result_struct *r, long i)
{
    long lo = 0, hi = r->nwindows; /* wstep ascending */
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        if (r->wstep[mid] < i) lo = mid + 1;
        else hi = mid;
    }
    return lo < r->nwindows && r->wstep[lo] == i;
}

/* The first event whose time enclosure ends at or after x (events in time
 * order). */
static long first_event(const dvc_hybrid_result_struct *r, mpfr_srcptr x)
{
    long lo = 0, hi = r->nevents;
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        if (mpfr_cmp(&r->ev[mid].t->right, x) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Adds the patterns the solution may follow at some time s of [a, b], a
 * part of step i = [t_i, t_{i+1}]: after event k when t*_k <= s is
 * possible (t_k.lo <= b), before it when t*_k >= s is possible
 * (t_k.hi >= a), the step's mode unless an event of the step certainly
 * came before a. Every event with t*_k in the step has t_k meeting it. */
static dvc_status step_pats(patset *S, const dvc_hybrid_result_struct *r, long i, mpfr_srcptr a,
                            mpfr_srcptr b)
{
    dvc_status st = DVC_OK;
    int first = 1;
    if (is_window(r, i)) return pat_add(S, -1);
    for (long k = first_event(r, r->t[i]);
         st == DVC_OK && k < r->nevents && mpfr_cmp(&r->ev[k].t->left, r->t[i + 1]) <= 0; k++) {
        const dvc_hybrid_event *e = &r->ev[k];
        if (mpfr_cmp(&e->t->right, a) < 0) first = 0;
        else st = pat_add(S, e->mode_before);
        if (st == DVC_OK && mpfr_cmp(&e->t->left, b) <= 0) st = pat_add(S, e->mode_after);
    }
    if (st == DVC_OK && first) st = pat_add(S, r->mode[i]);
    return st;
}

/* Y: the hull of the patterns' maps over X at the times tt. */
static dvc_status y_hull(dvc_ivec_t Y, const dvc_hybrid_model_struct *m, const patset *S,
                         const mpfi_t tt, const dvc_ivec_t X)
{
    dvc_ivec_t Yp;
    dvc_status st = DVC_ERR_INPUT, s1 = DVC_OK;
    int got = 0;
    dvc_ivec_init2(Yp, Y->n, dvc_ivec_prec(Y));
    for (long k = 0; k < S->n; k++) {
        s1 = dvc_dlvi_events_y(Yp, m, S->v[k], tt, X);
        if (s1 == DVC_ERR_INPUT && S->v[k] >= 0) continue; /* X is not in that pattern */
        if (s1 != DVC_OK) break;
        if (got) dvc_ivec_hull(Y, Y, Yp);
        else dvc_ivec_set(Y, Yp);
        got = 1;
    }
    dvc_ivec_clear(Yp);
    if (s1 != DVC_OK && s1 != DVC_ERR_INPUT) return s1;
    if (!got) return dvc_error_context(st, "events tube: no pattern holds the state box: ");
    return DVC_OK;
}

/* The y evaluator: x over tt by the flow, then the patterns of the steps
 * tt meets. */
static dvc_status y_eval(dvc_ivec_t Y, const void *ctx, const mpfi_t tt)
{
    const dvc_hybrid_flow_ref *f = ctx;
    const dvc_hybrid_result_struct *r = f->r;
    patset S = {NULL, 0, 0};
    dvc_ivec_t X;
    mpfr_t a, b;
    dvc_status st;
    dvc_ivec_init2(X, f->m->n, dvc_ivec_prec(Y));
    mpfr_inits2(mpfi_get_prec(tt), a, b, (mpfr_ptr)0);
    st = dvc_hybrid_eval(X, f->m, r, tt);
    /* the steps meeting tt: from the last with t_i <= tt.lo */
    long lo = 0, hi = r->nsteps;
    while (hi - lo > 1) {
        long mid = (lo + hi) / 2;
        if (mpfr_cmp(r->t[mid], &tt->left) <= 0) lo = mid;
        else hi = mid;
    }
    for (long i = lo > 0 ? lo - 1 : 0; st == DVC_OK && i < r->nsteps; i++) {
        if (mpfr_cmp(r->t[i], &tt->right) > 0) break;
        if (mpfr_cmp(r->t[i + 1], &tt->left) < 0) continue;
        mpfr_max(a, &tt->left, r->t[i], MPFR_RNDD);
        mpfr_min(b, &tt->right, r->t[i + 1], MPFR_RNDU);
        st = step_pats(&S, r, i, a, b);
    }
    if (st == DVC_OK) st = y_hull(Y, f->m, &S, tt, X);
    free(S.v);
    dvc_ivec_clear(X);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return st;
}

/* |y - c| <= e over the box B for c each end of the segment [a, b]
 * (rounded up; e only grows). */
static void seg_radius(mpfr_t e, mpfi_srcptr B, double a, double b, mpfr_t tmp)
{
    mpfr_sub_d(tmp, &B->right, a < b ? a : b, MPFR_RNDU);
    if (mpfr_cmp(tmp, e) > 0) mpfr_set(e, tmp, MPFR_RNDU);
    mpfr_d_sub(tmp, a < b ? b : a, &B->left, MPFR_RNDU);
    if (mpfr_cmp(tmp, e) > 0) mpfr_set(e, tmp, MPFR_RNDU);
}

/* The predictor form of the y enclosures, for its readers: y^i the
 * midpoints of yg_i (yhat^i those points), eps_y^i and ry^i rigorous radii
 * about them. */
static void y_predictor(dvc_tube_t tb)
{
    long m = tb->m, N = tb->N;
    mpfr_t e, tmp;
    mpfr_inits2(tb->prec, e, tmp, (mpfr_ptr)0);
    for (long i = 0; i <= N; i++) {
        mpfr_set_ui(e, 0, MPFR_RNDU);
        for (long k = 0; k < m; k++) {
            double c = dvc_ival_mid_d(tb->yg[i * m + k]);
            tb->y[i * m + k] = c;
            mpfi_set_d(tb->yhat_lo[i * m + k], c);
            mpfi_set_d(tb->yhat_hi[i * m + k], c);
            seg_radius(e, tb->yg[i * m + k], c, c, tmp);
        }
        mpfi_set_fr(tb->eps_y[i], e);
    }
    for (long i = 1; i <= N; i++) {
        mpfr_set_ui(e, 0, MPFR_RNDU);
        for (long k = 0; k < m; k++)
            seg_radius(e, tb->ys[(i - 1) * m + k], tb->y[(i - 1) * m + k], tb->y[i * m + k], tmp);
        mpfi_set_fr(tb->ry[i], e);
    }
    mpfr_clears(e, tmp, (mpfr_ptr)0);
}

/* Grid point i (0..N) and step i (1..N) of the y tube. */
static dvc_status y_boxes(dvc_tube_t tb, const dvc_hybrid_model_struct *m,
                          const dvc_hybrid_result_struct *r)
{
    long mm = tb->m, N = r->nsteps;
    patset S = {NULL, 0, 0};
    dvc_ivec_t Y;
    mpfi_t tt;
    dvc_status st = DVC_OK;
    dvc_ivec_init2(Y, mm, tb->prec);
    mpfi_init2(tt, tb->prec);
    for (long i = 0; st == DVC_OK && i <= N; i++) {
        /* the point t_i: the steps either side */
        S.n = 0;
        mpfi_set_prec(tt, mpfr_get_prec(r->t[i]));
        mpfi_set_fr(tt, r->t[i]);
        if (i > 0) st = step_pats(&S, r, i - 1, r->t[i], r->t[i]);
        if (st == DVC_OK && i < N) st = step_pats(&S, r, i, r->t[i], r->t[i]);
        if (st == DVC_OK) st = y_hull(Y, m, &S, tt, r->x[i]);
        for (long k = 0; st == DVC_OK && k < mm; k++) mpfi_set(tb->yg[i * mm + k], Y->e[k]);
        if (st != DVC_OK || i == N) continue;
        S.n = 0;
        mpfi_set_prec(tt, mpfr_get_prec(r->t[i]) > mpfr_get_prec(r->t[i + 1])
                              ? mpfr_get_prec(r->t[i]) : mpfr_get_prec(r->t[i + 1]));
        mpfi_interv_fr(tt, r->t[i], r->t[i + 1]);
        st = step_pats(&S, r, i, r->t[i], r->t[i + 1]);
        if (st == DVC_OK) st = y_hull(Y, m, &S, tt, r->box[i]);
        for (long k = 0; st == DVC_OK && k < mm; k++) mpfi_set(tb->ys[i * mm + k], Y->e[k]);
    }
    /* at an event: the patterns before and after on its state */
    for (long k = 0; st == DVC_OK && k < tb->nev && k < r->nevents; k++) {
        const dvc_hybrid_event *e = &r->ev[k];
        S.n = 0;
        st = pat_add(&S, e->mode_before);
        if (st == DVC_OK) st = pat_add(&S, e->mode_after);
        if (st == DVC_OK) st = y_hull(Y, m, &S, e->t, e->x);
        if (st == DVC_OK) {
            dvc_ivec_clear(tb->ev[k].y);
            dvc_ivec_init2(tb->ev[k].y, mm, tb->prec);
            dvc_ivec_set(tb->ev[k].y, Y);
        }
    }
    if (st != DVC_OK) st = dvc_error_context(st, "events tube: ");
    free(S.v);
    dvc_ivec_clear(Y);
    mpfi_clear(tt);
    return st;
}

dvc_status dvc_dlvi_events_tube(dvc_tube_t tb, const dvc_hybrid_model_t m,
                                const dvc_hybrid_result_t r, dvc_hybrid_flow_ref *flow)
{
    long patterns = 0, mm;
    dvc_status st = dvc_hybrid_tube(tb, m, r, flow);
    dvc_dlvi_events_stats(m, &patterns, NULL, NULL);
    if (st != DVC_OK || patterns < 1 || m->nmodes < 1) return st;
    /* a mode is named by its pattern: one letter per multiplier */
    mm = (long)strlen(m->modes[0].name);
    st = dvc_tube_set_yboxes(tb, mm);
    if (st == DVC_OK) st = y_boxes(tb, m, r);
    if (st == DVC_OK) y_predictor(tb);
    if (st == DVC_OK && flow) dvc_tube_set_yeval(tb, y_eval, flow);
    return st;
}
