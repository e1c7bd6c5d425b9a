/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The event-driven engine (docs/hybrid.md section 4): steps of the
 * validated flow, detection of possible crossings from the step enclosure,
 * the choice among several crossings in one step, step splitting; the
 * switches themselves are handled in switch.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid/engine.h"
#include "hybrid/sliding.h"

#define HYB_MAX_SPLIT 14 /* halvings of a step before giving up */

static double default_h(const dvc_hybrid_model_struct *m)
{
    if (m->h > 0) return m->h;
    if (m->expand) return 0.25; /* capped per mode instead (mode_h) */
    double amax = 0;
    mpfr_t a;
    mpfr_init2(a, m->prec);
    for (long k = 0; k < m->nmodes; k++)
        if (m->modes[k].linear) {
            dvc_imat_norm_inf(a, m->modes[k].A);
            double d = mpfr_get_d(a, MPFR_RNDU);
            if (d > amax) amax = d;
        }
    mpfr_clear(a);
    double h = 0.25;
    for (long k = 0; k < m->nmodes; k++)
        if (!m->modes[k].linear) h = 0.01; /* field modes: no norm to scale by */
    if (amax > 0 && 0.5 / amax < h) h = 0.5 / amax;
    return h;
}

/* A lazily built model (m->expand): the step of mode k is capped by
 * 0.5 / ||A_k|| for its own A only, so the grid does not depend on the
 * modes built so far (a balanced mode: 0.5 / ||D^-1 A_k D||, the norm its
 * series' tail is bounded with, docs/hybrid.md section 3). */
static double mode_h(const dvc_hybrid_model_struct *m, long k, double hmax)
{
    const dvc_hybrid_mode *md = &m->modes[k];
    if (!m->expand || !md->linear) return hmax;
    mpfr_t a;
    mpfr_init2(a, m->prec);
    hyb_mode_norm(a, md);
    double d = mpfr_get_d(a, MPFR_RNDU);
    mpfr_clear(a);
    return d > 0 && 0.5 / d < hmax ? 0.5 / d : hmax;
}

/* Room for one candidate per transition (a lazily built model adds
 * transitions during the run). */
static dvc_status cands_fit(hyb_cand **cands, long *acand, long need, mpfr_prec_t prec)
{
    if (need <= *acand) return DVC_OK;
    hyb_cand *nc = realloc(*cands, (size_t)need * sizeof *nc);
    if (!nc) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long k = *acand; k < need; k++) {
        mpfi_init2(nc[k].T, prec);
        mpfi_init2(nc[k].dphi, prec);
    }
    *cands = nc;
    *acand = need;
    return DVC_OK;
}

/* The sign of phi' = d/dt g under the field of the transition's target
 * mode at (T, X): 1, -1, or 0 when not proven (or not evaluable). */
/* Mode k's field given (a pending mode of a lazily built model filled by
 * the model's fill hook, which adds nothing to the model). */
static dvc_status mode_ready(const hyb_ctx *c, long k)
{
    const dvc_hybrid_model_struct *m = c->m;
    if (!m->modes[k].pending) return DVC_OK;
    if (!m->fill) return dvc_error(DVC_ERR_INTERNAL, "mode '%s' is pending and the model has no fill hook",
                                   m->modes[k].name);
    return m->fill(k, m->expand_ctx);
}

static int next_sign(const hyb_ctx *c, const dvc_hybrid_transition *tr, const mpfi_t T, const dvc_ivec_t X)
{
    if (c->m->modes[tr->to].pending) return 0; /* the callers fill it first (mode_ready) */
    mpfi_t p2, d2;
    int s;
    mpfi_init2(p2, c->prec);
    mpfi_init2(d2, c->prec);
    s = hyb_dphi_eval(p2, d2, c, tr->g, &c->m->modes[tr->to], T, X) == DVC_OK ? hyb_sgn(d2) : 0;
    mpfi_clear(p2);
    mpfi_clear(d2);
    return s;
}

/* The workspace of one step attempt: the step [t, t1], its box X, the
 * candidate crossings found on it, and what forces a smaller step. */
typedef struct {
    mpfr_t t1, hh;
    mpfi_t S, Tstep, phi, dphi, Ta;
    dvc_ivec_t X, Xa, box, Xend;
    int xend_ok; /* Xend: the state at t1 (computed once per attempt) */
    hyb_cand *cands;
    long ncand, acand;
    long bad_g;
    int need; /* 1: transversality, 2: zero at the step end */
} hyb_step_ws;

static void ws_init(hyb_step_ws *w, const hyb_ctx *c)
{
    mpfr_inits2(c->oprec, w->t1, w->hh, (mpfr_ptr)0);
    mpfi_init2(w->S, c->prec);
    mpfi_init2(w->Tstep, c->prec);
    mpfi_init2(w->phi, c->prec);
    mpfi_init2(w->dphi, c->prec);
    mpfi_init2(w->Ta, c->prec);
    dvc_ivec_init2(w->X, c->n, c->prec);
    dvc_ivec_init2(w->Xa, c->n, c->prec);
    dvc_ivec_init2(w->box, c->n, c->prec);
    dvc_ivec_init2(w->Xend, c->n, c->prec);
    w->cands = NULL;
    w->ncand = w->acand = 0;
}

static void ws_clear(hyb_step_ws *w)
{
    for (long k = 0; k < w->acand; k++) {
        mpfi_clear(w->cands[k].T);
        mpfi_clear(w->cands[k].dphi);
    }
    free(w->cands);
    mpfr_clears(w->t1, w->hh, (mpfr_ptr)0);
    mpfi_clear(w->S);
    mpfi_clear(w->Tstep);
    mpfi_clear(w->phi);
    mpfi_clear(w->dphi);
    mpfi_clear(w->Ta);
    dvc_ivec_clear(w->X);
    dvc_ivec_clear(w->Xa);
    dvc_ivec_clear(w->box);
    dvc_ivec_clear(w->Xend);
}

/* A state on the surface of transition tr that cannot fire (direction
 * s against tr->dir): refused when the next mode's field points away too
 * (repelling: two solutions). */
static dvc_status check_repelling(hyb_ctx *c, hyb_step_ws *w, const dvc_hybrid_transition *tr,
                                  const dvc_hybrid_mode *md, const hyb_set *L, const mpfr_t t, int s)
{
    const dvc_hybrid_model_struct *m = c->m;
    hyb_set_box(w->Xa, L);
    mpfi_set_fr(w->Ta, t);
    dvc_status st = dvc_expr_eval_x(w->phi, m->g[tr->g], w->Ta, w->Xa);
    if (st != DVC_OK || !mpfi_has_zero(w->phi)) return st;
    if ((st = mode_ready(c, tr->to)) != DVC_OK) return st;
    int s2 = next_sign(c, tr, w->Ta, w->Xa);
    if (s2 != -s) return DVC_OK; /* the next mode's field crosses back: unique */
    char tb[160];
    hyb_time_str(tb, sizeof tb, w->Ta);
    mpfi_set(c->r->stop_t, w->Ta);
    c->r->stop_g = tr->g;
    c->r->stop_class = DVC_HYB_REPELLING;
    return dvc_error(DVC_NOT_CERTIFIED, "t = %s: the state may lie on the surface "
                     "'%s' = 0 with both fields pointing away from it (repelling: "
                     "mode '%s' and mode '%s' each leave into their own side, so "
                     "the solution is not unique)",
                     tb, m->gname[tr->g], md->name, m->modes[tr->to].name);
}

/* The guards of transition tr at its crossing cd (GESDA's "and"): *fires
 * = 1 when each guard's sign is proven over cd->T and the state box there,
 * 0 when one is proven opposite; refused when one is not proven. */
static dvc_status check_guards(hyb_ctx *c, hyb_step_ws *w, const dvc_hybrid_transition *tr,
                               const dvc_hybrid_mode *md, const hyb_set *L, const mpfr_t t,
                               const hyb_cand *cd, int *fires)
{
    const dvc_hybrid_model_struct *m = c->m;
    *fires = 1;
    if (tr->nguard == 0) return DVC_OK;
    /* the state over the crossing's time enclosure, as switch.c has it */
    mpfi_sub_fr(w->S, cd->T, t);
    if (mpfr_sgn(&w->S->left) < 0) mpfr_set_ui(&w->S->left, 0, MPFR_RNDD);
    dvc_status st = hyb_flow_over(w->Xa, md, L, t, w->S, c->K);
    for (long i = 0; i < tr->nguard && st == DVC_OK && *fires; i++) {
        long q = tr->guard_g[i];
        st = dvc_expr_eval_x(w->phi, m->g[q], cd->T, w->Xa);
        if (st != DVC_OK) break;
        int s = hyb_sgn(w->phi);
        if (s == -tr->guard_sign[i]) *fires = 0;
        if (s != 0) continue;
        char tb[160];
        hyb_time_str(tb, sizeof tb, cd->T);
        mpfi_set(c->r->stop_t, cd->T);
        c->r->stop_g = q;
        c->r->stop_class = DVC_HYB_UNDECIDED;
        st = dvc_error(DVC_NOT_CERTIFIED, "t in %s: the guard '%s' %s 0 of transition %ld "
                       "('%s' -> '%s' on '%s') is undecided at the crossing (its enclosure there "
                       "contains 0)", tb, m->gname[q], tr->guard_sign[i] > 0 ? ">" : "<",
                       (long)(tr - m->trans), md->name, m->modes[tr->to].name, m->gname[tr->g]);
    }
    return st;
}

/* Transition k on the step [t, t1] with box w->X: nothing, a certified
 * crossing appended to w->cands, or w->need set (a smaller step). */
static dvc_status scan_transition(hyb_ctx *c, hyb_step_ws *w, long k, long mode, const hyb_set *L,
                                  const mpfr_t t)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_transition *tr = &m->trans[k];
    const dvc_hybrid_mode *md = &m->modes[mode];
    if (tr->from != mode) return DVC_OK;
    dvc_status st = dvc_expr_eval_x(w->phi, m->g[tr->g], w->Tstep, w->X);
    if (st != DVC_OK || !mpfi_has_zero(w->phi)) return st; /* no zero on the step */
    if (hyb_slide_departing(c, tr, mode, w->Tstep, w->X)) return DVC_OK;
    st = hyb_dphi_eval(w->phi, w->dphi, c, tr->g, md, w->Tstep, w->X);
    if (st != DVC_OK) return st;
    int s = hyb_sgn(w->dphi);
    if (s == 0) {
        w->need = 1;
        w->bad_g = tr->g;
        return DVC_OK;
    }
    if (tr->dir != 0 && tr->dir != s) return check_repelling(c, w, tr, md, L, t, s);
    /* phi at both ends */
    hyb_set_box(w->Xa, L);
    mpfi_set_fr(w->Ta, t);
    st = dvc_expr_eval_x(w->phi, m->g[tr->g], w->Ta, w->Xa);
    if (st != DVC_OK) return st;
    int sa = hyb_sgn(w->phi);
    if (sa == 0) {
        /* on the surface, moving toward the transition: if the target
         * mode's field points back, both fields point toward the surface
         * (sliding); else undecided */
        char tb[160];
        if ((st = mode_ready(c, tr->to)) != DVC_OK) return st;
        int s2 = next_sign(c, tr, w->Ta, w->Xa);
        hyb_time_str(tb, sizeof tb, w->Ta);
        mpfi_set(c->r->stop_t, w->Ta);
        c->r->stop_g = tr->g;
        c->r->stop_class = s2 == -s ? DVC_HYB_SLIDING : DVC_HYB_UNDECIDED;
        return dvc_error(DVC_NOT_CERTIFIED, "t = %s: the state may lie on the surface "
                         "'%s' = 0 with the field crossing it toward the transition%s",
                         tb, m->gname[tr->g],
                         s2 == -s ? "; the field of the next mode points back: possible "
                                    "sliding (both fields point toward the surface)"
                                  : "");
    }
    if (sa == s) return DVC_OK; /* moving away from zero */
    if (!w->xend_ok) { /* the state at t1, once per step attempt */
        hyb_diff_pt(w->S, w->t1, t);
        st = hyb_flow_over(w->Xend, md, L, t, w->S, c->K);
        w->xend_ok = st == DVC_OK;
    }
    mpfi_set_fr(w->Ta, w->t1);
    if (st == DVC_OK) st = dvc_expr_eval_x(w->phi, m->g[tr->g], w->Ta, w->Xend);
    if (st != DVC_OK) return st;
    int sb = hyb_sgn(w->phi);
    if (sb == 0) {
        w->need = 2;
        w->bad_g = tr->g;
        return DVC_OK;
    }
    if (sb == sa) return DVC_OK; /* monotone, same sign at both ends */
    /* a unique transversal zero in [t, t1]: enclose it */
    hyb_cand *cd = &w->cands[w->ncand];
    cd->tr = k;
    cd->dir = s;
    mpfi_set(cd->T, w->Tstep);
    st = hyb_newton(c, cd->T, cd->dphi, tr->g, md, L, t, 0);
    int fires = 1;
    if (st == DVC_OK) st = check_guards(c, w, tr, md, L, t, cd, &fires);
    if (st == DVC_OK && fires) w->ncand++;
    return st;
}

/* A table's sample times are forced step ends (docs/events.md section 4):
 * t1 stops at the next window [blo, bhi] of a sample time, and a step
 * from inside a window ends at its upper end. */
static void cap_break(const dvc_hybrid_model_struct *m, const mpfr_t t, mpfr_t t1)
{
    long a = 0, b = m->nbreak; /* the first k with bhi[k] > t */
    while (a < b) {
        long k = (a + b) / 2;
        if (mpfr_cmp(m->bhi[k], t) > 0) b = k;
        else a = k + 1;
    }
    if (a == m->nbreak) return;
    mpfr_srcptr cap = mpfr_cmp(t, m->blo[a]) < 0 ? m->blo[a] : m->bhi[a];
    if (mpfr_cmp(t1, cap) > 0) mpfr_set(t1, cap, MPFR_RNDU);
}

/* One step from t in mode `mode`, halved (or shrunk) until every
 * possible crossing on it is certified: w->t1, w->X and w->cands. */
static dvc_status try_step(hyb_ctx *c, hyb_step_ws *w, long mode, const hyb_set *L,
                           const mpfr_t t, double h)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *md = &m->modes[mode];
    dvc_status st = DVC_OK;
    int split = 0;
    if (md->pending) /* expand fills a mode before it is entered */
        return dvc_error(DVC_ERR_INTERNAL, "mode '%s' entered before its field was given", md->name);
    for (;;) {
        /* t1 = min(t + h, T) */
        mpfr_set_d(w->hh, h, MPFR_RNDN);
        mpfr_add(w->t1, t, w->hh, MPFR_RNDN);
        if (mpfr_cmp(w->t1, m->T) > 0) mpfr_set(w->t1, m->T, MPFR_RNDN);
        cap_break(m, t, w->t1);
        hyb_diff_pt(w->S, w->t1, t);
        mpfr_set_ui(&w->S->left, 0, MPFR_RNDD);
        mpfi_interv_fr(w->Tstep, t, w->t1);
        st = hyb_flow_over(w->X, md, L, t, w->S, c->K);
        if (st != DVC_OK) return st;
        w->ncand = 0;
        w->bad_g = -1;
        w->need = 0;
        w->xend_ok = 0;
        for (long k = 0; k < m->ntrans && st == DVC_OK && !w->need; k++)
            st = scan_transition(c, w, k, mode, L, t);
        if (st != DVC_OK || !w->need) return st;
        if (++split > HYB_MAX_SPLIT) {
            if (w->need == 1) return hyb_classify_tangent(c, w->bad_g, md, L, t, w->t1);
            mpfi_interv_fr(c->r->stop_t, t, w->t1);
            c->r->stop_g = w->bad_g;
            c->r->stop_class = DVC_HYB_UNDECIDED;
            return dvc_error(DVC_NOT_CERTIFIED, "near t = %g: cannot separate a zero of '%s' "
                             "from the step ends", mpfr_get_d(t, MPFR_RNDN), m->gname[w->bad_g]);
        }
        h *= w->need == 1 ? 0.5 : 0.7;
    }
}

/* The earliest crossing among w->cands, which must precede every other. */
static dvc_status first_cand(hyb_ctx *c, const hyb_step_ws *w, long *first)
{
    const dvc_hybrid_model_struct *m = c->m;
    const hyb_cand *cs = w->cands;
    long f = 0;
    for (long k = 1; k < w->ncand; k++)
        if (mpfr_cmp(&cs[k].T->left, &cs[f].T->left) < 0) f = k;
    *first = f;
    for (long k = 0; k < w->ncand; k++)
        if (k != f && mpfr_cmp(&cs[k].T->left, &cs[f].T->right) <= 0) {
            char tb[160];
            hyb_time_str(tb, sizeof tb, cs[f].T);
            mpfi_set(c->r->stop_t, cs[f].T);
            c->r->stop_class = DVC_HYB_UNDECIDED;
            if (m->trans[cs[f].tr].g == m->trans[cs[k].tr].g) /* two guarded transitions */
                return dvc_error(DVC_NOT_CERTIFIED, "t in %s: transitions %ld and %ld both fire at "
                                 "the crossing of '%s' (their guards hold together)", tb, cs[f].tr,
                                 cs[k].tr, m->gname[m->trans[cs[f].tr].g]);
            return dvc_error(DVC_NOT_CERTIFIED, "t in %s: switching functions '%s' and '%s' "
                             "cross at times that cannot be ordered",
                             tb, m->gname[m->trans[cs[f].tr].g], m->gname[m->trans[cs[k].tr].g]);
        }
    return DVC_OK;
}

/* The earliest certified crossing of the step, applied. */
static dvc_status step_event(hyb_ctx *c, hyb_step_ws *w, hyb_set *L, mpfr_t t, long *mode)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *md = &m->modes[*mode];
    long first;
    dvc_status st = first_cand(c, w, &first);
    if (st == DVC_OK && md->linear && md->balance) { /* only the crossing applied is refined */
        hyb_cand *cd = &w->cands[first];
        st = hyb_newton(c, cd->T, cd->dphi, m->trans[cd->tr].g, md, L, t, 1);
    }
    if (st == DVC_OK && m->expand) /* the target's own transitions, for the checks of the switch */
        st = m->expand(m->trans[w->cands[first].tr].to, c->r->nevents, m->expand_ctx);
    if (st == DVC_OK) st = hyb_do_event(c, L, t, mode, &w->cands[first]);
    return st;
}

#define HYB_MAX_WINDOW 12 /* doublings of an ambiguity window */

/* te <- the upper end of the candidate crossings to bridge: all of them
 * after a failed step; after a certified one (at_cands) only the cluster
 * of the earliest, the candidates whose time enclosures overlap it
 * (transitively): later crossings of the step are isolated events that
 * the run finds again after the window. */
static void window_end(mpfr_t te, const hyb_step_ws *w, int at_cands)
{
    long f = -1;
    for (long k = 0; k < w->ncand; k++)
        if (f < 0 || mpfr_cmp(&w->cands[k].T->left, &w->cands[f].T->left) < 0) f = k;
    if (!at_cands || f < 0) {
        for (long k = 0; k < w->ncand; k++)
            if (mpfr_cmp(&w->cands[k].T->right, te) > 0) mpfr_set(te, &w->cands[k].T->right, MPFR_RNDU);
        return;
    }
    if (mpfr_cmp(&w->cands[f].T->right, te) > 0) mpfr_set(te, &w->cands[f].T->right, MPFR_RNDU);
    for (int grown = 1; grown;) {
        grown = 0;
        for (long k = 0; k < w->ncand; k++)
            if (mpfr_cmp(&w->cands[k].T->left, te) <= 0 && mpfr_cmp(&w->cands[k].T->right, te) > 0) {
                mpfr_set(te, &w->cands[k].T->right, MPFR_RNDU);
                grown = 1;
            }
    }
}

/* An ambiguity window from t (docs/events.md section 3): past every
 * candidate crossing of the failed step and its end, doubled until the
 * model's bridge proves the mode at its end. */
static dvc_status bridge_window(hyb_ctx *c, hyb_step_ws *w, hyb_set *L, mpfr_t t, long *mode,
                                int at_cands)
{
    const dvc_hybrid_model_struct *m = c->m;
    mpfr_t te, d;
    mpfi_t Tw;
    dvc_ivec_t X0, X1;
    mpfr_inits2(c->oprec, te, d, (mpfr_ptr)0);
    mpfi_init2(Tw, c->prec);
    dvc_ivec_init2(X0, c->n, c->prec);
    dvc_ivec_init2(X1, c->n, c->prec);
    mpfr_set(te, at_cands ? t : w->t1, MPFR_RNDU); /* at_cands: the step itself was certified */
    window_end(te, w, at_cands);
    /* as long again, and at least 2^-30 (1 + |t|) */
    mpfr_sub(d, te, t, MPFR_RNDU);
    mpfr_set_ui_2exp(w->hh, 1, -30, MPFR_RNDN);
    mpfr_mul_d(w->hh, w->hh, 1 + fabs(mpfr_get_d(t, MPFR_RNDN)), MPFR_RNDU);
    if (mpfr_cmp(d, w->hh) < 0) mpfr_set(d, w->hh, MPFR_RNDU);
    hyb_set_box(X0, L);
    dvc_status st = DVC_NOT_CERTIFIED;
    long nm = *mode;
    for (int k = 0; k < HYB_MAX_WINDOW; k++) {
        if (k > 0) dvc_error_reset(); /* the last attempt's reason is kept */
        mpfr_add(te, te, d, MPFR_RNDU);
        if (mpfr_cmp(te, m->T) > 0) mpfr_set(te, m->T, MPFR_RNDN);
        mpfi_interv_fr(Tw, t, te);
        st = m->bridge(Tw, X0, X1, w->box, &nm, m->expand_ctx);
        if (st != DVC_NOT_CERTIFIED || mpfr_equal_p(te, m->T)) break;
        mpfr_mul_2ui(d, d, 1, MPFR_RNDU);
    }
    if (st == DVC_OK) {
        hyb_set_from_box(L, X1);
        st = hyb_push_point(c, te, L, w->box, *mode);
    }
    long *ws = st == DVC_OK ? realloc(c->r->wstep, (size_t)(c->r->nwindows + 1) * sizeof *ws) : NULL;
    if (st == DVC_OK && !ws) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK) {
        c->r->wstep = ws;
        c->r->wstep[c->r->nwindows++] = c->r->nsteps - 1;
        mpfr_set(t, te, MPFR_RNDN);
        *mode = nm;
        c->r->stop_g = -1;
    } else if (st == DVC_NOT_CERTIFIED) {
        st = dvc_error_context(st, "an ambiguity window from t = %.17g not bridged "
                               "(%d doublings, to t = %.17g): ", mpfr_get_d(t, MPFR_RNDN),
                               HYB_MAX_WINDOW, mpfr_get_d(te, MPFR_RNDN));
    }
    mpfr_clears(te, d, (mpfr_ptr)0);
    mpfi_clear(Tw);
    dvc_ivec_clear(X0);
    dvc_ivec_clear(X1);
    return st;
}

/* The distance from t to the earliest candidate crossing of w, as a step
 * that stops just short of it (0: none, or already close). */
static double approach_h(const hyb_step_ws *w, const mpfr_t t)
{
    if (w->ncand == 0) return 0;
    double lo = mpfr_get_d(&w->cands[0].T->left, MPFR_RNDD);
    for (long k = 1; k < w->ncand; k++) {
        double l = mpfr_get_d(&w->cands[k].T->left, MPFR_RNDD);
        if (l < lo) lo = l;
    }
    double tt = mpfr_get_d(t, MPFR_RNDN), gap = lo - tt;
    return gap > 0x1p-24 * (1 + fabs(tt)) ? gap * (1 - 0x1p-10) : 0;
}

/* The step budget: reached, or out of reach at once (the largest step of
 * the mode, h, cannot get to T within what is left of it: a stiff mode
 * would otherwise run for hours). The message says what is certified. */
static dvc_status step_budget(const dvc_hybrid_model_struct *m, const dvc_hybrid_result_struct *r,
                              const mpfr_t t, double h, long mode, long budget)
{
    double tt = mpfr_get_d(t, MPFR_RNDN), need = (mpfr_get_d(m->T, MPFR_RNDU) - tt) / h;
    if (r->nsteps >= budget)
        return dvc_error(DVC_NOT_CERTIFIED, "the step budget of %ld steps is reached at t = %.17g "
                         "(certified on [%.17g, %.17g]; the model's max_steps or --max-steps raises it)", budget, tt,
                         mpfr_get_d(m->t0, MPFR_RNDN), tt);
    if (h > 0 && need > (double)(budget - r->nsteps))
        return dvc_error(DVC_NOT_CERTIFIED, "in mode %s the steps are at most %.3g (the model's h, or "
                         "0.5 / ||A|| of a stiff mode), so reaching T = %.17g from t = %.17g takes more "
                         "than %.3g steps, beyond the step budget of %ld (the model's max_steps or --max-steps "
                         "raises it)",
                         m->modes[mode].name, h, mpfr_get_d(m->T, MPFR_RNDN), tt, need, budget);
    return DVC_OK;
}

dvc_status dvc_hybrid_enclose(dvc_hybrid_result_t r, const dvc_hybrid_model_t m)
{
    if (m->mode0 < 0 || m->mode0 >= m->nmodes)
        return dvc_error(DVC_ERR_INPUT, "hybrid model: no initial mode");
    dvc_status (*sink)(const dvc_hybrid_result_struct *, long, void *) = r->sink;
    dvc_status (*ev_sink)(const dvc_hybrid_result_struct *, long, void *) = r->ev_sink;
    void *sink_ctx = r->sink_ctx;
    dvc_hybrid_result_clear(r);
    dvc_hybrid_result_init(r);
    r->sink = sink; /* a streamed run (result.c) */
    r->ev_sink = ev_sink;
    r->sink_ctx = sink_ctx;
    r->prec = m->prec;
    mpfi_clear(r->stop_t);
    mpfi_init2(r->stop_t, m->prec);
    hyb_ctx c = {m, r, m->n, dvc_hybrid_model_order(m),
             m->prec + (m->guard_bits > 0 ? m->guard_bits : 0), m->prec};
    dvc_status st = DVC_OK;
    double hmax = default_h(m);
    hyb_set L;
    hyb_set_init(&L, m->n, c.prec);
    L.inv64 = m->revision >= 2;
    hyb_set_from_box(&L, m->x0);
    hyb_step_ws w;
    ws_init(&w, &c);
    mpfr_t t;
    mpfr_init2(t, c.oprec);
    long mode = m->mode0;
    mpfr_set(t, m->t0, MPFR_RNDN);
    st = hyb_push_point(&c, t, &L, NULL, mode);
    if (st == DVC_OK) st = hyb_slide_initial(&c);
    if (st == DVC_OK && m->expand) st = m->expand(mode, 0, m->expand_ctx);
    if (st == DVC_OK && m->start_window && m->bridge) {
        /* a degenerate start (docs/events.md section 3): a window from t0 */
        w.ncand = 0;
        st = bridge_window(&c, &w, &L, t, &mode, 1);
        if (st == DVC_OK && m->expand) st = m->expand(mode, r->nevents, m->expand_ctx);
    }
    double happ = 0; /* a step that approaches an ambiguity */
    long budget = m->max_steps > 0 ? m->max_steps : DVC_HYBRID_MAX_STEPS;
    hyb_clock clk;
    hyb_clock_start(&clk, m, "hybrid");
    while (st == DVC_OK && mpfr_cmp(t, m->T) < 0) {
        long nev = r->nevents, nst = r->nsteps;
        double h = mode_h(m, mode, hmax);
        if ((st = step_budget(m, r, t, h, mode, budget)) != DVC_OK) break;
        if ((st = hyb_clock_tick(&clk, m, mpfr_get_d(t, MPFR_RNDN), r->nsteps, r->nevents)) != DVC_OK)
            break;
        if (happ > 0 && happ < h) h = happ;
        happ = 0;
        st = cands_fit(&w.cands, &w.acand, m->ntrans + 1, c.prec);
        if (st == DVC_OK) st = try_step(&c, &w, mode, &L, t, h);
        int stepped = st == DVC_OK;
        if (st == DVC_OK && w.ncand > 0) st = step_event(&c, &w, &L, t, &mode);
        if (st == DVC_NOT_CERTIFIED && m->bridge && r->nevents == nev && r->nsteps == nst) {
            /* not isolated: approach it, then bridge a window over it */
            dvc_error_reset();
            happ = approach_h(&w, t);
            st = happ > 0 ? DVC_OK : bridge_window(&c, &w, &L, t, &mode, stepped && w.ncand > 0);
            if (st == DVC_OK && happ == 0 && m->expand) st = m->expand(mode, r->nevents, m->expand_ctx);
            continue;
        }
        if (st != DVC_OK || w.ncand > 0) continue;
        dvc_ivec_set(w.box, w.X);
        hyb_diff_pt(w.S, w.t1, t);
        st = hyb_advance(&L, &m->modes[mode], t, w.S, c.K);
        if (st != DVC_OK) break;
        st = hyb_push_point(&c, w.t1, &L, w.box, mode);
        mpfr_set(t, w.t1, MPFR_RNDN);
    }
    hyb_clock_end(&clk);
    /* on DVC_NOT_CERTIFIED the message already says where and why */
    if (st == DVC_OK) r->certified = 1;
    ws_clear(&w);
    hyb_set_clear(&L);
    mpfr_clear(t);
    return st;
}
