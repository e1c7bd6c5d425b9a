/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Filippov sliding on the surface h = 0 of a term of a decomposed model
 * (docs/sliding.md sections 2-3): the choice between sliding and crossing
 * when a surface is reached, the proof of the Filippov condition over the
 * enclosures, the departure from the surface, and the names of event kinds
 * and active sets. The event times themselves are enclosed by switch.c like
 * any switch time. */
#include <stdio.h>
#include "hybrid/sliding.h"

dvc_hybrid_event_kind dvc_hybrid_event_kind_of(const dvc_hybrid_model_t m,
                                               const dvc_hybrid_event *e)
{
    long a = hyb_sliding_term(m, &m->modes[e->mode_before]);
    long b = hyb_sliding_term(m, &m->modes[e->mode_after]);
    if (b >= 0 && a < 0) return DVC_HYB_EV_ENTER_SLIDE;
    if (a >= 0 && b < 0) return DVC_HYB_EV_LEAVE_SLIDE;
    return DVC_HYB_EV_CROSS;
}

const char *dvc_hybrid_event_kind_name(dvc_hybrid_event_kind k)
{
    switch (k) {
    case DVC_HYB_EV_ENTER_SLIDE: return "enter-slide";
    case DVC_HYB_EV_LEAVE_SLIDE: return "leave-slide";
    default: return "cross";
    }
}

const char *dvc_hybrid_mode_active(const dvc_hybrid_mode *md, long j)
{
    if (!md->sides || j < 0) return NULL;
    switch (md->sides[j]) {
    case 1: return "+";
    case -1: return "-";
    default: return "+-";
    }
}

static void stop_at(hyb_ctx *c, const mpfi_t T, long g)
{
    mpfi_set(c->r->stop_t, T);
    c->r->stop_g = g;
    c->r->stop_class = DVC_HYB_UNDECIDED;
}

int hyb_slide_reaches(const hyb_ctx *c, const dvc_hybrid_transition *tr, long *k)
{
    const dvc_hybrid_model_struct *m = c->m;
    if (!m->modes[tr->from].sides) return 0;
    for (long l = 0; l < m->ncontacts; l++)
        if (m->contacts[l].h == tr->g) {
            *k = l;
            return 1;
        }
    return 0;
}

/* a (plus: 1) or b (-1) of term k in the regions of mode md */
static long qfun(const dvc_hybrid_model_struct *m, const dvc_hybrid_mode *md, long k, int plus)
{
    long o = hyb_others_index(m->ncontacts, md->sides, k);
    return plus > 0 ? m->contacts[k].qplus[o] : m->contacts[k].qminus[o];
}

dvc_status hyb_slide_decide(hyb_ctx *c, const dvc_hybrid_transition *tr, long k,
                            const hyb_cand *cd, const dvc_ivec_t Xc, dvc_hybrid_transition *out)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *from = &m->modes[tr->from];
    const dvc_hybrid_contact *ct = &m->contacts[k];
    char tb[160];
    hyb_time_str(tb, sizeof tb, cd->T);
    long j = hyb_sliding_term(m, from);
    if (j >= 0) {
        /* the new active set would come from Stewart's LCP (13) */
        stop_at(c, cd->T, ct->h);
        return dvc_error(DVC_NOT_CERTIFIED, "t in %s: contact '%s' reaches its surface while "
                         "'%s' slides: several contacts switch at once: not supported yet (the "
                         "new active set is given by Stewart's LCP (13))", tb, ct->name,
                         m->contacts[j].name);
    }
    int side = from->sides[k];
    *out = *tr;
    /* the field of the other side: toward the surface (slide) or away */
    long q = qfun(m, from, k, -side);
    int s[DVC_HYB_SIDES_MAX];
    for (long l = 0; l < m->ncontacts; l++) s[l] = from->sides[l];
    mpfi_t v;
    mpfi_init2(v, c->prec);
    dvc_status st = dvc_expr_eval_x(v, m->g[q], cd->T, Xc);
    int sg = st == DVC_OK ? hyb_sgn(v) : 0;
    mpfi_clear(v);
    if (sg == side) {
        s[k] = 2;
        out->to = hyb_mode_of(m, s);
        return DVC_OK;
    }
    if (sg == -side) {
        s[k] = -side;
        out->to = hyb_mode_of(m, s);
        return DVC_OK;
    }
    stop_at(c, cd->T, ct->h);
    return dvc_error(DVC_NOT_CERTIFIED, "t in %s: contact '%s' reached from %s: the field on the "
                     "other side ('%s') is not proven to point toward the surface or away from "
                     "it; neither sliding nor crossing proven", tb, ct->name,
                     side == 1 ? "h > 0" : "h < 0", m->gname[q]);
}

/* 1: a < 0 < b for the term md slides on, over T x Y (the Filippov
 * condition; then the pivot D = a - b of the bordered system is < 0 and
 * the weight alpha = b / (b - a) lies strictly inside (0, 1)); 0 when not
 * proven. */
static int filippov(const hyb_ctx *c, const dvc_hybrid_mode *md, long k, const mpfi_t T,
                    const dvc_ivec_t Y)
{
    const dvc_hybrid_model_struct *m = c->m;
    mpfi_t a, b;
    mpfi_init2(a, c->prec);
    mpfi_init2(b, c->prec);
    int ok = dvc_expr_eval_x(a, m->g[qfun(m, md, k, 1)], T, Y) == DVC_OK &&
             dvc_expr_eval_x(b, m->g[qfun(m, md, k, -1)], T, Y) == DVC_OK && hyb_sgn(a) == -1 &&
             hyb_sgn(b) == 1;
    mpfi_clear(a);
    mpfi_clear(b);
    return ok;
}

dvc_status hyb_slide_enter_checks(hyb_ctx *c, const dvc_hybrid_transition *tr,
                                  const hyb_cand *cd, const dvc_ivec_t Xc, dvc_ivec_t Y)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *ms = &m->modes[tr->to];
    long k = hyb_sliding_term(m, ms);
    const dvc_hybrid_contact *ct = &m->contacts[k];
    char tb[160];
    hyb_time_str(tb, sizeof tb, cd->T);
    dvc_status st = hyb_apriori(Y, c, ms, cd->T, Xc);
    if (st != DVC_OK) {
        stop_at(c, cd->T, ct->h);
        return dvc_error_context(st, "t in %s: contact '%s', sliding motion: ", tb, ct->name);
    }
    if (!filippov(c, ms, k, cd->T, Xc) || !filippov(c, ms, k, cd->T, Y)) {
        stop_at(c, cd->T, ct->h);
        return dvc_error(DVC_NOT_CERTIFIED, "t in %s: contact '%s': the Filippov sliding "
                         "condition (%s < 0 < %s) is not proven right after the surface is "
                         "reached", tb, ct->name, m->gname[qfun(m, ms, k, 1)],
                         m->gname[qfun(m, ms, k, -1)]);
    }
    return DVC_OK;
}

int hyb_slide_departs(const hyb_ctx *c, const dvc_hybrid_transition *tr,
                      const dvc_hybrid_transition *tk)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *mf = &m->modes[tr->from], *mt = &m->modes[tr->to];
    long j = hyb_sliding_term(m, mf);
    if (j < 0 || !mt->sides || hyb_sliding_term(m, mt) >= 0) return 0;
    int side = mt->sides[j];
    /* leaving by a rising through 0 into h > 0 (or b falling into h < 0):
     * on the event's time enclosure, h' = a (b) is 0 at t* and strictly
     * monotone with the side's sign (the caller proved the sign of its
     * derivative along the new field), h(t*) = 0, so h keeps the side's
     * sign after t* and the way back to the surface cannot fire there */
    if (tr->g != qfun(m, mf, j, side) || tr->dir != side) return 0;
    return tk->from == tr->to && tk->g == m->contacts[j].h && tk->dir == -side;
}

int hyb_slide_departing(hyb_ctx *c, const dvc_hybrid_transition *tr, long mode,
                        const mpfi_t Tstep, const dvc_ivec_t X)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_result_struct *r = c->r;
    const dvc_hybrid_mode *md = &m->modes[mode];
    if (!md->sides || hyb_sliding_term(m, md) >= 0 || r->nevents == 0) return 0;
    const dvc_hybrid_event *e = &r->ev[r->nevents - 1];
    long j = hyb_sliding_term(m, &m->modes[e->mode_before]);
    if (e->mode_after != mode || j < 0) return 0;
    int side = md->sides[j];
    if (tr->from != mode || tr->g != m->contacts[j].h || tr->dir != -side) return 0;
    /* the grid point at the end of the event's step (sup T*) */
    long i0 = r->nsteps;
    while (i0 > 0 && !mpfr_equal_p(r->t[i0], &e->t->right)) i0--;
    if (i0 == 0) return 0;
    /* the solution on [t*, sup Tstep] lies in the event step's box (which
     * holds the new mode's a-priori box on T*), the boxes of the steps since
     * and X; h' along the new field strictly monotone (the side's
     * direction) over all of it, from h' = 0 and h = 0 at t*, keeps h on
     * the side: the way back cannot fire on this step */
    mpfi_t q, dq, Th;
    dvc_ivec_t Xh;
    mpfi_init2(q, c->prec);
    mpfi_init2(dq, c->prec);
    mpfi_init2(Th, c->prec);
    dvc_ivec_init2(Xh, c->n, c->prec);
    dvc_ivec_set(Xh, X);
    for (long i = i0 - 1; i < r->nsteps; i++) dvc_ivec_hull(Xh, Xh, r->box[i]);
    mpfi_interv_fr(Th, &e->t->left, &Tstep->right);
    int ok = hyb_dphi_eval(q, dq, c, qfun(m, md, j, side), md, Th, Xh) == DVC_OK &&
             hyb_sgn(dq) == side;
    mpfi_clear(q);
    mpfi_clear(dq);
    mpfi_clear(Th);
    dvc_ivec_clear(Xh);
    return ok;
}

dvc_status hyb_slide_initial(hyb_ctx *c)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *md = &m->modes[m->mode0];
    if (!md->sides) return DVC_OK;
    long j = hyb_sliding_term(m, md);
    mpfi_t T, v;
    dvc_ivec_t X;
    mpfi_init2(T, c->prec);
    mpfi_init2(v, c->prec);
    dvc_ivec_init2(X, c->n, c->prec);
    mpfi_set_fr(T, m->t0);
    dvc_ivec_set(X, m->x0);
    dvc_status st = DVC_OK;
    for (long k = 0; k < m->ncontacts && st == DVC_OK; k++) {
        const dvc_hybrid_contact *ct = &m->contacts[k];
        int on = dvc_expr_eval_x(v, m->g[ct->h], T, X) == DVC_OK && mpfi_is_zero(v);
        if (k == j) {
            if (!on)
                st = dvc_error(DVC_NOT_CERTIFIED, "initial mode '%s' slides on '%s' = 0, but the "
                               "initial state is not proven to lie on that surface (h(x0) must "
                               "be exactly 0)", md->name, ct->name);
            else if (!filippov(c, md, k, T, X))
                st = dvc_error(DVC_NOT_CERTIFIED, "initial mode '%s': the Filippov sliding "
                               "condition (%s < 0 < %s) is not proven at the initial state",
                               md->name, m->gname[qfun(m, md, k, 1)], m->gname[qfun(m, md, k, -1)]);
        } else if (j < 0 && on) {
            /* a side's mode on a surface where the solution slides: say so
             * (the engine would only report an undecided approach) */
            int s[DVC_HYB_SIDES_MAX];
            for (long l = 0; l < m->ncontacts; l++) s[l] = md->sides[l];
            s[k] = 2;
            long q = hyb_mode_of(m, s);
            if (q >= 0 && filippov(c, &m->modes[q], k, T, X))
                st = dvc_error(DVC_NOT_CERTIFIED, "the initial state lies on the surface '%s' = "
                               "0 where the Filippov sliding condition holds: the solution "
                               "slides there; give the initial mode '%s'", ct->name,
                               m->modes[q].name);
        }
        if (st != DVC_OK) stop_at(c, T, ct->h);
    }
    mpfi_clear(T);
    mpfi_clear(v);
    dvc_ivec_clear(X);
    return st;
}
