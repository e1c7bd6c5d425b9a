/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Filippov sliding on the surface h = 0 of a term of a decomposed model
 * (docs/sliding.md sections 2-3): the choice between sliding and crossing
 * when a surface is reached, the proof of the Filippov condition over the
 * enclosures, the departure from the surface, and the names of event kinds
 * and active sets. The event times themselves are enclosed by switch.c like
 * any switch time. */
#include <stdio.h>
#include <string.h>
#include "dvicert/lcpall.h"
#include "hybrid/sliding.h"

dvc_hybrid_event_kind dvc_hybrid_event_kind_of(const dvc_hybrid_model_t m,
                                               const dvc_hybrid_event *e)
{
    /* a term starts sliding: enter; else a term stops sliding: leave */
    const int *a = m->modes[e->mode_before].sides, *b = m->modes[e->mode_after].sides;
    int enter = 0, leave = 0;
    for (long l = 0; a && b && l < m->ncontacts; l++) {
        enter |= b[l] == 2 && a[l] != 2;
        leave |= a[l] == 2 && b[l] != 2;
    }
    return enter ? DVC_HYB_EV_ENTER_SLIDE : leave ? DVC_HYB_EV_LEAVE_SLIDE : DVC_HYB_EV_CROSS;
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

static long nslide(const dvc_hybrid_model_struct *m, const dvc_hybrid_mode *md)
{
    long c = 0;
    for (long l = 0; md->sides && l < m->ncontacts; l++) c += md->sides[l] == 2;
    return c;
}

/* the term whose h is switching function g, or -1 */
static long term_of_h(const dvc_hybrid_model_struct *m, long g)
{
    for (long l = 0; l < m->ncontacts; l++)
        if (m->contacts[l].h == g) return l;
    return -1;
}

/* 1: every weight of the terms mode q slides on lies strictly inside
 * (0, 1) over T x Y -- each leaving transition's function (z_p or 1 - z_p
 * with several terms sliding, a or b with one) has the sign opposite to
 * its firing direction; with several terms this needs det G != 0
 * (Condition B'), the weights being finite there. */
static int weights_inside(const hyb_ctx *c, long q, const mpfi_t T, const dvc_ivec_t Y)
{
    const dvc_hybrid_model_struct *m = c->m;
    mpfi_t v;
    mpfi_init2(v, c->prec);
    int ok = 1;
    for (long i = 0; i < m->ntrans && ok; i++) {
        const dvc_hybrid_transition *t = &m->trans[i];
        if (t->from != q || term_of_h(m, t->g) >= 0) continue;
        ok = dvc_expr_eval_x(v, m->g[t->g], T, Y) == DVC_OK && hyb_sgn(v) == -t->dir;
    }
    mpfi_clear(v);
    return ok;
}

/* h_j' in mode md when md slides on other terms (the switching function
 * "<j>'@<md>"), or -1 */
static long hprime_g(const dvc_hybrid_model_struct *m, const dvc_hybrid_mode *md, long j)
{
    size_t a = strlen(m->contacts[j].name), b = strlen(md->name);
    for (long g = 0; g < m->ng; g++) {
        const char *p = m->gname[g];
        if (strlen(p) == a + 2 + b && !strncmp(p, m->contacts[j].name, a) && p[a] == '\'' &&
            p[a + 1] == '@' && !strcmp(p + a + 2, md->name))
            return g;
    }
    return -1;
}

/* the term that stops sliding from mode a to mode b (the first), or -1 */
static long left_term(const dvc_hybrid_model_struct *m, const dvc_hybrid_mode *a,
                      const dvc_hybrid_mode *b)
{
    for (long l = 0; a->sides && b->sides && l < m->ncontacts; l++)
        if (a->sides[l] == 2 && b->sides[l] != 2) return l;
    return -1;
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

/* The switching function c_j . F_sig (a or b of term j): the field with the
 * terms l where sig[l] != 0 in the region sig[l], the others in those of
 * sides. */
static long vertex_g(const dvc_hybrid_model_struct *m, const int *sides, long j, const int *sig)
{
    int s[DVC_HYB_SIDES_MAX];
    for (long l = 0; l < m->ncontacts; l++) s[l] = sig[l] ? sig[l] : sides[l];
    long o = hyb_others_index(m->ncontacts, s, j);
    return s[j] == 1 ? m->contacts[j].qplus[o] : m->contacts[j].qminus[o];
}

/* the terms on their surfaces at an event reached on h_k from a mode
 * sliding on others: those terms and k, in term order */
static long surface_terms(const dvc_hybrid_model_struct *m, const dvc_hybrid_mode *from, long k,
                          long *S0)
{
    long s = 0;
    for (long l = 0; l < m->ncontacts; l++)
        if (from->sides[l] == 2 || l == k) {
            if (S0) S0[s] = l;
            s++;
        }
    return s;
}

long dvc_hybrid_event_lcp_terms(const dvc_hybrid_model_t m, const dvc_hybrid_event *e, long *S0)
{
    const dvc_hybrid_mode *from = &m->modes[e->mode_before];
    if (!from->sides || hyb_sliding_term(m, from) < 0) return 0;
    for (long k = 0; k < m->ncontacts; k++)
        if (from->sides[k] != 2 && m->contacts[k].h == e->g) return surface_terms(m, from, k, S0);
    return 0;
}

/* Stewart's LCP (13) at the event: term k reaches its surface while the
 * terms of the mode slide (docs/sliding.md section 5). With S0 the s
 * terms on their surfaces, z = (z^j_+, z^j_-) per term of S0 and, for the
 * terms off their surfaces in their fixed regions, c_j . x' =
 * c_j . F_- + sum_q z^q_+ d^{jq} (F_- the field with every term of S0 in
 * h < 0, d^{jq} = c_j . (f^q_+ - f^q_-)), folded into the first block since
 * z^q_+ + z^q_- = 1 (beta = 0, Stewart's Lemma 2). The indicators are
 * h^j_+ = -h_j, h^j_- = h_j, so the rows of M are -/+ c_j . x'. Every entry
 * is enclosed over T* x X*; every solution of the point LCP for the true
 * state at the event lies in a box of lcpall's answer. */
static dvc_status lcp_decide(hyb_ctx *c, const dvc_hybrid_transition *tr, long k,
                             const hyb_cand *cd, const dvc_ivec_t Xc, dvc_hybrid_transition *out)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *from = &m->modes[tr->from];
    long S0[DVC_HYB_SIDES_MAX], s = surface_terms(m, from, k, S0), nz = 2 * s, n = 3 * s;
    char tb[160], names[DVC_HYB_SIDES_MAX * 40] = "";
    hyb_time_str(tb, sizeof tb, cd->T);
    for (long a = 0; a < s; a++) {
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s'%s'", a ? ", " : "", m->contacts[S0[a]].name);
    }
    int sig[DVC_HYB_SIDES_MAX] = {0};
    dvc_status st = DVC_OK;
    mpfi_t v, v2, Fm, alpha;
    dvc_imat_t N;
    dvc_ivec_t q;
    mpfi_init2(v, c->prec);
    mpfi_init2(v2, c->prec);
    mpfi_init2(Fm, c->prec);
    mpfi_init2(alpha, c->prec);
    dvc_imat_init2(N, n, n, c->prec);
    dvc_ivec_init2(q, n, c->prec);
    dvc_lcpall_result_t r;
    dvc_lcpall_result_init(r);
    for (long a = 0; a < s; a++) sig[S0[a]] = -1;
    /* M (the first 2s rows and columns of N) */
    for (long a = 0; a < s && st == DVC_OK; a++) {
        long j = S0[a];
        st = dvc_expr_eval_x(Fm, m->g[vertex_g(m, from->sides, j, sig)], cd->T, Xc);
        for (long b = 0; b < s && st == DVC_OK; b++) {
            sig[S0[b]] = 1;
            st = dvc_expr_eval_x(v2, m->g[vertex_g(m, from->sides, j, sig)], cd->T, Xc);
            sig[S0[b]] = -1;
            if (st != DVC_OK) break;
            mpfi_sub(v2, v2, Fm); /* d^{jq} */
            for (int p = 0; p < 2; p++) {
                /* A^{jq}_p = [p = +] d^{jq} + [q = q0] c_j . F_- */
                if (p == 0) mpfi_set(v, v2);
                else mpfi_set_ui(v, 0);
                if (b == 0) mpfi_add(v, v, Fm);
                mpfi_neg(dvc_imat_entry(N, 2 * a, 2 * b + p), v);
                mpfi_set(dvc_imat_entry(N, 2 * a + 1, 2 * b + p), v);
            }
        }
    }
    if (st != DVC_OK) {
        stop_at(c, cd->T, m->contacts[k].h);
        st = dvc_error_context(st, "t in %s: Stewart's LCP (13) for %s: ", tb, names);
        goto out;
    }
    /* alpha = 1 + max |M|: M_alpha > 0 entrywise (Lemma 2: solutions exist,
     * beta = 0) and mu~_j = mu_j + s alpha > 0 (|mu_j| <= max |M|) */
    mpfi_set_ui(alpha, 0);
    for (long i = 0; i < nz; i++)
        for (long l = 0; l < nz; l++) {
            mpfi_abs(v, dvc_imat_entry(N, i, l));
            mpfi_put(alpha, v);
        }
    mpfi_add_ui(alpha, alpha, 1);
    mpfr_set(&alpha->left, &alpha->right, MPFR_RNDU);
    for (long i = 0; i < nz; i++)
        for (long l = 0; l < nz; l++)
            mpfi_add(dvc_imat_entry(N, i, l), dvc_imat_entry(N, i, l), alpha);
    /* the borders -E, E^T and q = (0, -e) */
    for (long a = 0; a < s; a++) {
        for (int p = 0; p < 2; p++) {
            mpfi_set_si(dvc_imat_entry(N, 2 * a + p, nz + a), -1);
            mpfi_set_ui(dvc_imat_entry(N, nz + a, 2 * a + p), 1);
        }
        mpfi_set_si(q->e[nz + a], -1);
    }
    dvc_status ls = dvc_lcpall_solve(r, N, q, NULL);
    int nondeg = 0;
    char basis[3 * DVC_HYB_SIDES_MAX];
    if (r->nsol == 1) dvc_lcpall_get(r, 0, NULL, NULL, basis, &nondeg);
    if (ls != DVC_OK || r->verdict != DVC_LCPALL_COMPLETE || r->nsol != 1 || !nondeg ||
        r->nexists != 1) {
        /* list the candidates: never pick one */
        char cands[1024] = "";
        for (long i = 0; i < r->nsol && i < 12; i++) {
            int nd = 0;
            int stt = dvc_lcpall_get(r, i, NULL, NULL, basis, &nd);
            size_t len = strlen(cands);
            snprintf(cands + len, sizeof cands - len, "%s(", i ? ", " : "");
            for (long a = 0; a < s; a++) {
                const char *as = basis[2 * a] && basis[2 * a + 1] ? "+-" : basis[2 * a] ? "+"
                                 : basis[2 * a + 1] ? "-" : "none";
                len = strlen(cands);
                snprintf(cands + len, sizeof cands - len, "%s%s:%s", a ? " " : "",
                         m->contacts[S0[a]].name, as);
            }
            len = strlen(cands);
            snprintf(cands + len, sizeof cands - len, "%s%s)",
                     stt == DVC_LCPALL_SOL_EXISTS ? "" : " candidate",
                     stt == DVC_LCPALL_SOL_EXISTS && !nd ? " degenerate" : "");
        }
        stop_at(c, cd->T, m->contacts[k].h);
        st = dvc_error(DVC_NOT_CERTIFIED, "t in %s: contact '%s' reaches its surface while "
                       "others slide: Stewart's LCP (13) for %s (n = %ld): verdict %s, %ld "
                       "solution(s): %s; the new active set is not proven unique and strictly "
                       "complementary (Condition C')%s%s; not continued", tb,
                       m->contacts[k].name, names, n, dvc_lcpall_verdict_name(r->verdict),
                       r->nsol, r->nsol ? cands : "none", r->reason[0] ? ": " : "", r->reason);
        goto out;
    }
    int snew[DVC_HYB_SIDES_MAX];
    for (long l = 0; l < m->ncontacts; l++) snew[l] = from->sides[l];
    long nslide = 0;
    for (long a = 0; a < s; a++) {
        /* strictly complementary: z^j_p > 0 exactly on the basis */
        snew[S0[a]] = basis[2 * a] && basis[2 * a + 1] ? 2 : basis[2 * a] ? 1 : -1;
        if (snew[S0[a]] == 2) nslide++;
    }
    *out = *tr;
    out->to = hyb_mode_of(m, snew);
    if (out->to < 0) {
        stop_at(c, cd->T, m->contacts[k].h);
        st = dvc_error(DVC_NOT_CERTIFIED, "t in %s: Stewart's LCP (13) for %s has the unique, "
                       "strictly complementary solution with %ld contacts sliding at once: "
                       "more than %d sliding at once: not supported", tb, names, nslide,
                       DVC_HYB_SLIDE_MAX);
    }
out:
    dvc_lcpall_result_clear(r);
    mpfi_clear(v);
    mpfi_clear(v2);
    mpfi_clear(Fm);
    mpfi_clear(alpha);
    dvc_imat_clear(N);
    dvc_ivec_clear(q);
    return st;
}

dvc_status hyb_slide_decide(hyb_ctx *c, const dvc_hybrid_transition *tr, long k,
                            const hyb_cand *cd, const dvc_ivec_t Xc, dvc_hybrid_transition *out)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *from = &m->modes[tr->from];
    const dvc_hybrid_contact *ct = &m->contacts[k];
    char tb[160];
    hyb_time_str(tb, sizeof tb, cd->T);
    if (hyb_sliding_term(m, from) >= 0) return lcp_decide(c, tr, k, cd, Xc, out); /* LCP (13) */
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
    if (nslide(m, ms) > 1) {
        if (!weights_inside(c, tr->to, cd->T, Xc) || !weights_inside(c, tr->to, cd->T, Y)) {
            stop_at(c, cd->T, tr->g);
            return dvc_error(DVC_NOT_CERTIFIED, "t in %s: mode '%s': the weights of the sliding "
                             "terms are not proven strictly inside (0, 1) (with Condition B', "
                             "the bordered system regular) right after the event", tb, ms->name);
        }
    } else if (!filippov(c, ms, k, cd->T, Xc) || !filippov(c, ms, k, cd->T, Y)) {
        stop_at(c, cd->T, ct->h);
        return dvc_error(DVC_NOT_CERTIFIED, "t in %s: contact '%s': the Filippov sliding "
                         "condition (%s < 0 < %s) is not proven right after the surface is "
                         "reached", tb, ct->name, m->gname[qfun(m, ms, k, 1)],
                         m->gname[qfun(m, ms, k, -1)]);
    }
    long kr = term_of_h(m, tr->g);
    if (kr < 0 && nslide(m, &m->modes[tr->from]) > 1) {
        /* a weight of a mode sliding on several terms reached 0 or 1: term
         * j leaves to side sd. At t* the weights of both modes agree, so
         * h_j' = 0 there (h_j = 0 on the sliding motion); h_j'' of the
         * side's sign over T* x X* and T* x Y makes h_j' and then h_j take
         * that sign on (t*, sup T*] */
        long j = left_term(m, &m->modes[tr->from], ms), g = j >= 0 ? hprime_g(m, ms, j) : -1;
        int sd = j >= 0 ? ms->sides[j] : 0;
        mpfi_t phi, d2;
        mpfi_init2(phi, c->prec);
        mpfi_init2(d2, c->prec);
        int ok = g >= 0 && hyb_dphi_eval(phi, d2, c, g, ms, cd->T, Xc) == DVC_OK &&
                 hyb_sgn(d2) == sd && hyb_dphi_eval(phi, d2, c, g, ms, cd->T, Y) == DVC_OK &&
                 hyb_sgn(d2) == sd;
        mpfi_clear(phi);
        mpfi_clear(d2);
        if (!ok) {
            stop_at(c, cd->T, tr->g);
            return dvc_error(DVC_NOT_CERTIFIED, "t in %s: '%s' reaches 0 in mode '%s': the "
                             "departure of '%s' from its surface into mode '%s' is not proven "
                             "(h'' of the side's sign)", tb, m->gname[tr->g],
                             m->modes[tr->from].name, j >= 0 ? m->contacts[j].name : "?",
                             ms->name);
        }
        return DVC_OK;
    }
    if (kr < 0 || ms->sides[kr] == 2) return DVC_OK;
    /* the reached term crosses (LCP (13)) while k keeps sliding: the new
     * field must cross its surface in the same direction over T* x X* and
     * T* x Y (transversal, so it is left behind) */
    mpfi_t phi, d2;
    mpfi_init2(phi, c->prec);
    mpfi_init2(d2, c->prec);
    int ok = hyb_dphi_eval(phi, d2, c, tr->g, ms, cd->T, Xc) == DVC_OK && hyb_sgn(d2) == cd->dir &&
             hyb_dphi_eval(phi, d2, c, tr->g, ms, cd->T, Y) == DVC_OK && hyb_sgn(d2) == cd->dir;
    mpfi_clear(phi);
    mpfi_clear(d2);
    if (!ok) {
        stop_at(c, cd->T, tr->g);
        return dvc_error(DVC_NOT_CERTIFIED, "t in %s: '%s': cannot prove the crossing is left "
                         "behind in mode '%s'", tb, m->gname[tr->g], ms->name);
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

int hyb_slide_weight_departs(const hyb_ctx *c, const dvc_hybrid_transition *tr,
                             const dvc_hybrid_transition *tk)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *mf = &m->modes[tr->from], *mt = &m->modes[tr->to];
    if (nslide(m, mf) < 2 || term_of_h(m, tr->g) >= 0 || tk->from != tr->to) return 0;
    long j = left_term(m, mf, mt);
    /* hyb_slide_enter_checks proved h_j'' of the side's sign on T* */
    return j >= 0 && nslide(m, mt) >= 1 && tk->g == m->contacts[j].h && tk->dir == -mt->sides[j];
}

int hyb_slide_lcp_departs(const hyb_ctx *c, const dvc_hybrid_transition *tr,
                          const dvc_hybrid_transition *tk, const mpfi_t T, const dvc_ivec_t Xc,
                          const dvc_ivec_t Y)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *mf = &m->modes[tr->from], *mt = &m->modes[tr->to];
    if (!mf->sides || !mt->sides || tk->from != tr->to) return 0;
    long j = -1;
    for (long l = 0; l < m->ncontacts; l++)
        if (m->contacts[l].h == tk->g) j = l;
    /* j slid before the event (h_j = 0 at t*) and the LCP put it on a side */
    if (j < 0 || m->contacts[j].h == tr->g || mf->sides[j] != 2 || mt->sides[j] == 2) return 0;
    int side = mt->sides[j];
    /* h_j' of the side's sign over T* x X* and T* x Y (the solution after
     * t* on T*): h_j has that sign on (t*, sup T*], the way back cannot fire */
    mpfi_t phi, d;
    mpfi_init2(phi, c->prec);
    mpfi_init2(d, c->prec);
    int ok = tk->dir == -side &&
             hyb_dphi_eval(phi, d, c, tk->g, mt, T, Xc) == DVC_OK && hyb_sgn(d) == side &&
             hyb_dphi_eval(phi, d, c, tk->g, mt, T, Y) == DVC_OK && hyb_sgn(d) == side;
    mpfi_clear(phi);
    mpfi_clear(d);
    return ok;
}

int hyb_slide_departing(hyb_ctx *c, const dvc_hybrid_transition *tr, long mode,
                        const mpfi_t Tstep, const dvc_ivec_t X)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_result_struct *r = c->r;
    const dvc_hybrid_mode *md = &m->modes[mode];
    if (!md->sides || r->nevents == 0) return 0;
    const dvc_hybrid_event *e = &r->ev[r->nevents - 1 - r->ev_base]; /* the last (result.c) */
    long j = left_term(m, &m->modes[e->mode_before], md);
    if (e->mode_after != mode || j < 0) return 0;
    int side = md->sides[j];
    /* h_j' in md: a or b without sliding terms, else "<j>'@<md>"; at t* it
     * is 0 (leaving by a weight) or of the side's sign (LCP departure) */
    long gq = nslide(m, md) == 0 ? qfun(m, md, j, side) : hprime_g(m, md, j);
    if (gq < 0) return 0;
    if (tr->from != mode || tr->g != m->contacts[j].h || tr->dir != -side) return 0;
    /* the grid point at the end of the event's step (sup T*) */
    long i0 = r->nsteps, b = r->base; /* a streamed run keeps the steps since (result.c) */
    while (i0 > b && !mpfr_equal_p(r->t[i0 - b], &e->t->right)) i0--;
    if (i0 == b) return 0;
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
    for (long i = i0 - 1; i < r->nsteps; i++) dvc_ivec_hull(Xh, Xh, r->box[i - b]);
    mpfi_interv_fr(Th, &e->t->left, &Tstep->right);
    int ok = hyb_dphi_eval(q, dq, c, gq, md, Th, Xh) == DVC_OK && hyb_sgn(dq) == side;
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
        if (md->sides[k] == 2) {
            if (!on)
                st = dvc_error(DVC_NOT_CERTIFIED, "initial mode '%s' slides on '%s' = 0, but the "
                               "initial state is not proven to lie on that surface (h(x0) must "
                               "be exactly 0)", md->name, ct->name);
            else if (nslide(m, md) > 1) {
                if (!weights_inside(c, m->mode0, T, X))
                    st = dvc_error(DVC_NOT_CERTIFIED, "initial mode '%s': the weights of the "
                                   "sliding terms are not proven strictly inside (0, 1) at the "
                                   "initial state", md->name);
            } else if (!filippov(c, md, k, T, X))
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
