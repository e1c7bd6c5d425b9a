/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Results of the hybrid engine: grid points with their state sets, step
 * boxes, events, and the evaluation of the tube at a time. */
#include <stdlib.h>
#include <string.h>
#include "hybrid/engine.h"

void dvc_hybrid_result_init(dvc_hybrid_result_t r)
{
    memset(r, 0, sizeof *r);
    r->prec = dvc_prec_get();
    mpfi_init2(r->stop_t, r->prec);
    r->stop_g = -1;
}

void dvc_hybrid_result_clear(dvc_hybrid_result_t r)
{
    for (long i = 0; i < r->alloc; i++) {
        mpfr_clear(r->t[i]);
        dvc_ivec_clear(r->x[i]);
        dvc_ivec_clear(r->box[i]);
        dvc_ivec_clear(r->P[i]);
        dvc_ivec_clear(r->R[i]);
        dvc_imat_clear(r->B[i]);
    }
    free(r->t);
    free(r->x);
    free(r->box);
    free(r->P);
    free(r->R);
    free(r->B);
    free(r->mode);
    free(r->wstep);
    for (long k = 0; k < r->nevents - r->ev_base; k++) {
        mpfi_clear(r->ev[k].t);
        mpfi_clear(r->ev[k].dphi);
        dvc_ivec_clear(r->ev[k].x);
    }
    free(r->ev);
    mpfi_clear(r->stop_t);
    memset(r, 0, sizeof *r);
}

#define SWAP(T, a, b) do { T tmp_; memcpy(&tmp_, &(a), sizeof tmp_); memcpy(&(a), &(b), sizeof tmp_); \
                           memcpy(&(b), &tmp_, sizeof tmp_); } while (0)

/* A streamed run: the grid points below keep dropped, what the engine
 * reads again (from keep on) moved to the front; the entries are swapped,
 * never copied, so each slot keeps its own MPFR storage. */
static void roll(dvc_hybrid_result_struct *r, long keep)
{
    long off = keep - r->base;
    if (off <= 0) return;
    for (long j = 0; j + keep <= r->nsteps; j++) {
        SWAP(mpfr_t, r->t[j], r->t[j + off]);
        SWAP(dvc_ivec_t, r->x[j], r->x[j + off]);
        SWAP(dvc_ivec_t, r->box[j], r->box[j + off]);
        SWAP(dvc_ivec_t, r->P[j], r->P[j + off]);
        SWAP(dvc_ivec_t, r->R[j], r->R[j + off]);
        SWAP(dvc_imat_t, r->B[j], r->B[j + off]);
        SWAP(long, r->mode[j], r->mode[j + off]);
    }
    r->base = keep;
}

/* The first grid point a streamed run still reads: the last one, or for a
 * model with contacts the step ending at the last event's grid point
 * (sliding.c looks back over the steps since it). */
static long keep_from(const hyb_ctx *c)
{
    const dvc_hybrid_result_struct *r = c->r;
    if (c->m->ncontacts == 0 || r->nevents == 0) return r->nsteps;
    const mpfi_srcptr te = r->ev[r->nevents - 1 - r->ev_base].t;
    long i0 = r->nsteps;
    while (i0 > r->base && !mpfr_equal_p(r->t[i0 - r->base], &te->right)) i0--;
    return i0 > r->base ? i0 - 1 : r->base;
}

/* Append grid point t_{nsteps} (x) after a step with the given box. */
dvc_status hyb_push_point(hyb_ctx *c, const mpfr_t t, const hyb_set *L, const dvc_ivec_t box,
                          long mode)
{
    dvc_hybrid_result_struct *r = c->r;
    long need = r->nsteps - r->base + 2;
    if (need > r->alloc) {
        long na = r->alloc ? 2 * r->alloc : 64;
        mpfr_t *nt = realloc(r->t, (size_t)na * sizeof *nt);
        if (!nt) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->t = nt;
        dvc_ivec_t *nx = realloc(r->x, (size_t)na * sizeof *nx);
        if (!nx) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->x = nx;
        dvc_ivec_t *nb = realloc(r->box, (size_t)na * sizeof *nb);
        if (!nb) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->box = nb;
        long *nm = realloc(r->mode, (size_t)na * sizeof *nm);
        if (!nm) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->mode = nm;
        dvc_ivec_t *nP = realloc(r->P, (size_t)na * sizeof *nP);
        if (!nP) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->P = nP;
        dvc_ivec_t *nR = realloc(r->R, (size_t)na * sizeof *nR);
        if (!nR) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->R = nR;
        dvc_imat_t *nB = realloc(r->B, (size_t)na * sizeof *nB);
        if (!nB) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->B = nB;
        for (long i = r->alloc; i < na; i++) {
            mpfr_init2(r->t[i], c->oprec);
            dvc_ivec_init2(r->x[i], c->n, c->oprec);
            dvc_ivec_init2(r->box[i], c->n, c->oprec);
            dvc_ivec_init2(r->P[i], c->n, c->prec);
            dvc_ivec_init2(r->R[i], c->n, c->prec);
            dvc_imat_init2(r->B[i], c->n, c->n, c->prec);
            r->mode[i] = -1;
        }
        r->alloc = na;
    }
    if (box) {
        dvc_ivec_set(r->box[r->nsteps - r->base], box);
        r->mode[r->nsteps - r->base] = mode;
        r->nsteps++;
    }
    long s = r->nsteps - r->base;
    mpfr_set(r->t[s], t, MPFR_RNDN);
    dvc_ivec_set(r->P[s], L->P);
    dvc_ivec_set(r->R[s], L->R);
    dvc_imat_set(r->B[s], L->B);
    dvc_ivec_t x;
    dvc_ivec_init2(x, c->n, c->prec);
    hyb_set_box(x, L);
    dvc_ivec_set(r->x[s], x);
    dvc_ivec_clear(x);
    if (!r->sink) return DVC_OK;
    dvc_status st = r->sink(r, r->nsteps, r->sink_ctx);
    if (st == DVC_OK) roll(r, keep_from(c));
    return st;
}

dvc_status hyb_push_event(hyb_ctx *c, const mpfi_t t, long g, long from, long to,
                          const dvc_ivec_t x, const mpfi_t dphi)
{
    dvc_hybrid_result_struct *r = c->r;
    if (r->nevents - r->ev_base == r->aevents) {
        long na = r->aevents ? 2 * r->aevents : 16;
        dvc_hybrid_event *ne = realloc(r->ev, (size_t)na * sizeof *ne);
        if (!ne) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->ev = ne;
        r->aevents = na;
    }
    dvc_hybrid_event *e = &r->ev[r->nevents++ - r->ev_base];
    mpfi_init2(e->t, c->oprec);
    mpfi_init2(e->dphi, c->oprec);
    dvc_ivec_init2(e->x, c->n, c->oprec);
    mpfi_set(e->t, t);
    mpfi_set(e->dphi, dphi);
    dvc_ivec_set(e->x, x);
    e->g = g;
    e->mode_before = from;
    e->mode_after = to;
    e->cls = DVC_HYB_TRANSVERSE;
    if (!r->ev_sink) return DVC_OK;
    dvc_status st = r->ev_sink(r, r->nevents - 1, r->sink_ctx);
    long drop = r->nevents - r->ev_base - DVC_HYBRID_EVENTS_KEPT;
    if (st == DVC_OK && drop > 0) { /* a streamed run: the oldest dropped */
        for (long k = 0; k < drop; k++) {
            mpfi_clear(r->ev[k].t);
            mpfi_clear(r->ev[k].dphi);
            dvc_ivec_clear(r->ev[k].x);
        }
        memmove(r->ev, r->ev + drop, (size_t)DVC_HYBRID_EVENTS_KEPT * sizeof *r->ev);
        r->ev_base += drop;
    }
    return st;
}

dvc_status dvc_hybrid_eval(dvc_ivec_t X, const dvc_hybrid_model_t m, const dvc_hybrid_result_t r,
                           const mpfi_t tt)
{
    if (r->nsteps == 0) return dvc_error(DVC_ERR_INPUT, "empty hybrid result");
    if (mpfr_cmp(&tt->left, r->t[0]) < 0 || mpfr_cmp(&tt->right, r->t[r->nsteps]) > 0)
        return dvc_error(DVC_ERR_INPUT, "time outside the certified tube");
    /* the step holding tt, if one does */
    long lo = 0, hi = r->nsteps;
    while (hi - lo > 1) {
        long mid = (lo + hi) / 2;
        if (mpfr_cmp(r->t[mid], &tt->left) <= 0) lo = mid;
        else hi = mid;
    }
    int window = 0; /* an ambiguity window: its box only */
    for (long k = 0; k < r->nwindows && !window; k++) window = r->wstep[k] == lo;
    if (mpfr_cmp(&tt->right, r->t[lo + 1]) <= 0 && r->mode[lo] >= 0 && r->mode[lo] < m->nmodes &&
        !window) {
        /* a step that ends at a switch is in the old mode up to its t_lo */
        int ok = 1;
        for (long k = 0; k < r->nevents; k++)
            if (mpfr_equal_p(r->t[lo + 1], &r->ev[k].t->right) &&
                mpfr_cmp(&tt->right, &r->ev[k].t->left) >= 0)
                ok = 0;
        if (ok) {
            mpfr_prec_t prec = dvc_ivec_prec(r->P[lo]);
            hyb_set L;
            mpfi_t S;
            dvc_ivec_t Y;
            hyb_set_init(&L, m->n, prec);
            L.inv64 = m->revision >= 2;
            dvc_ivec_set(L.P, r->P[lo]);
            dvc_ivec_set(L.R, r->R[lo]);
            dvc_imat_set(L.B, r->B[lo]);
            mpfi_init2(S, prec);
            dvc_ivec_init2(Y, m->n, prec);
            mpfi_set(S, tt);
            mpfi_sub_fr(S, S, r->t[lo]);
            if (mpfr_sgn(&S->left) < 0) mpfr_set_ui(&S->left, 0, MPFR_RNDD);
            int K = m->order > 0 ? m->order : 20;
            for (long k = 0; k < m->nmodes; k++)
                if (!m->modes[k].linear && m->order <= 0) K = 12;
            dvc_status st = hyb_flow_over(Y, &m->modes[r->mode[lo]], &L, r->t[lo], S, K);
            if (st == DVC_OK) {
                /* never wider than the step's box */
                for (long i = 0; i < m->n; i++) {
                    mpfi_intersect(Y->e[i], Y->e[i], r->box[lo]->e[i]);
                    if (mpfi_is_empty(Y->e[i])) st = dvc_error(DVC_ERR_INTERNAL, "empty tube");
                }
                if (st == DVC_OK) dvc_ivec_set(X, Y);
            }
            hyb_set_clear(&L);
            mpfi_clear(S);
            dvc_ivec_clear(Y);
            if (st == DVC_OK) return st;
        }
    }
    int found = 0;
    for (long i = 0; i < r->nsteps; i++) {
        if (mpfr_cmp(&tt->right, r->t[i]) < 0 || mpfr_cmp(&tt->left, r->t[i + 1]) > 0) continue;
        if (!found) dvc_ivec_set(X, r->box[i]);
        else dvc_ivec_hull(X, X, r->box[i]);
        found = 1;
    }
    if (!found) return dvc_error(DVC_ERR_INPUT, "time outside the certified tube");
    return DVC_OK;
}
