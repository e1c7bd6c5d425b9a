/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The event-driven engine (docs/hybrid.md section 4): steps of the
 * validated flow, detection of possible crossings from the step enclosure,
 * the choice among several crossings in one step, step splitting; the
 * switches themselves are handled in switch.c. */
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
 * modes built so far. */
static double mode_h(const dvc_hybrid_model_struct *m, long k, double hmax)
{
    const dvc_hybrid_mode *md = &m->modes[k];
    if (!m->expand || !md->linear) return hmax;
    mpfr_t a;
    mpfr_init2(a, m->prec);
    dvc_imat_norm_inf(a, md->A);
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
static int next_sign(const hyb_ctx *c, const dvc_hybrid_transition *tr, const mpfi_t T, const dvc_ivec_t X)
{
    mpfi_t p2, d2;
    int s;
    mpfi_init2(p2, c->prec);
    mpfi_init2(d2, c->prec);
    s = hyb_dphi_eval(p2, d2, c, tr->g, &c->m->modes[tr->to], T, X) == DVC_OK ? hyb_sgn(d2) : 0;
    mpfi_clear(p2);
    mpfi_clear(d2);
    return s;
}

dvc_status dvc_hybrid_enclose(dvc_hybrid_result_t r, const dvc_hybrid_model_t m)
{
    if (m->mode0 < 0 || m->mode0 >= m->nmodes)
        return dvc_error(DVC_ERR_INPUT, "hybrid model: no initial mode");
    dvc_hybrid_result_clear(r);
    dvc_hybrid_result_init(r);
    r->prec = m->prec;
    mpfi_clear(r->stop_t);
    mpfi_init2(r->stop_t, m->prec);
    hyb_ctx c = {m, r, m->n, dvc_hybrid_model_order(m),
             m->prec + (m->guard_bits > 0 ? m->guard_bits : 0), m->prec};
    long n = m->n;
    dvc_status st = DVC_OK;
    double hmax = default_h(m);
    hyb_set L;
    hyb_set_init(&L, n, c.prec);
    hyb_set_from_box(&L, m->x0);
    mpfr_t t, t1, hh;
    mpfi_t S, Tstep, phi, dphi, Ta;
    dvc_ivec_t X, Xa, box;
    mpfr_inits2(c.oprec, t, t1, hh, (mpfr_ptr)0);
    mpfi_init2(S, c.prec);
    mpfi_init2(Tstep, c.prec);
    mpfi_init2(phi, c.prec);
    mpfi_init2(dphi, c.prec);
    mpfi_init2(Ta, c.prec);
    dvc_ivec_init2(X, n, c.prec);
    dvc_ivec_init2(Xa, n, c.prec);
    dvc_ivec_init2(box, n, c.prec);
    long ncand = 0, acand = 0;
    hyb_cand *cands = NULL;
    long mode = m->mode0;
    mpfr_set(t, m->t0, MPFR_RNDN);
    st = hyb_push_point(&c, t, &L, NULL, mode);
    if (st == DVC_OK) st = hyb_slide_initial(&c);
    if (st == DVC_OK && m->expand) st = m->expand(mode, 0, m->expand_ctx);
    while (st == DVC_OK && mpfr_cmp(t, m->T) < 0) {
        st = cands_fit(&cands, &acand, m->ntrans + 1, c.prec);
        if (st != DVC_OK) break;
        const dvc_hybrid_mode *md = &m->modes[mode];
        double h = mode_h(m, mode, hmax);
        int split = 0;
        for (;;) {
            /* t1 = min(t + h, T) */
            mpfr_set_d(hh, h, MPFR_RNDN);
            mpfr_add(t1, t, hh, MPFR_RNDN);
            if (mpfr_cmp(t1, m->T) > 0) mpfr_set(t1, m->T, MPFR_RNDN);
            hyb_diff_pt(S, t1, t);
            mpfr_set_ui(&S->left, 0, MPFR_RNDD);
            mpfi_interv_fr(Tstep, t, t1);
            st = hyb_flow_over(X, md, &L, t, S, c.K);
            if (st != DVC_OK) break;
            ncand = 0;
            long bad_g = -1;
            int need = 0; /* 1: transversality, 2: zero at the step end */
            for (long k = 0; k < m->ntrans && st == DVC_OK && !need; k++) {
                const dvc_hybrid_transition *tr = &m->trans[k];
                if (tr->from != mode) continue;
                st = dvc_expr_eval_x(phi, m->g[tr->g], Tstep, X);
                if (st != DVC_OK) break;
                if (!mpfi_has_zero(phi)) continue; /* no zero on the step */
                if (hyb_slide_departing(&c, tr, mode, Tstep, X)) continue;
                st = hyb_dphi_eval(phi, dphi, &c, tr->g, md, Tstep, X);
                if (st != DVC_OK) break;
                int s = hyb_sgn(dphi);
                if (s == 0) {
                    need = 1;
                    bad_g = tr->g;
                    break;
                }
                if (tr->dir != 0 && tr->dir != s) {
                    /* cannot fire; but a state that may lie on the surface,
                     * with the next mode's field pointing away too, is
                     * repelling: both continuations are solutions */
                    hyb_set_box(Xa, &L);
                    mpfi_set_fr(Ta, t);
                    st = dvc_expr_eval_x(phi, m->g[tr->g], Ta, Xa);
                    if (st != DVC_OK) break;
                    if (!mpfi_has_zero(phi)) continue;
                    int s2 = next_sign(&c, tr, Ta, Xa);
                    if (s2 != -s) continue; /* the next mode's field crosses back: unique */
                    char tb[160];
                    hyb_time_str(tb, sizeof tb, Ta);
                    mpfi_set(r->stop_t, Ta);
                    r->stop_g = tr->g;
                    r->stop_class = DVC_HYB_REPELLING;
                    st = dvc_error(DVC_NOT_CERTIFIED, "t = %s: the state may lie on the surface "
                                   "'%s' = 0 with both fields pointing away from it (repelling: "
                                   "mode '%s' and mode '%s' each leave into their own side, so "
                                   "the solution is not unique)",
                                   tb, m->gname[tr->g], md->name, m->modes[tr->to].name);
                    break;
                }
                /* phi at both ends */
                hyb_set_box(Xa, &L);
                mpfi_set_fr(Ta, t);
                st = dvc_expr_eval_x(phi, m->g[tr->g], Ta, Xa);
                if (st != DVC_OK) break;
                int sa = hyb_sgn(phi);
                if (sa == 0) {
                    /* on the surface, moving toward the transition: if the
                     * target mode's field points back, both fields point
                     * toward the surface (sliding); else undecided */
                    char tb[160];
                    int s2 = next_sign(&c, tr, Ta, Xa);
                    hyb_time_str(tb, sizeof tb, Ta);
                    mpfi_set(r->stop_t, Ta);
                    r->stop_g = tr->g;
                    r->stop_class = s2 == -s ? DVC_HYB_SLIDING : DVC_HYB_UNDECIDED;
                    st = dvc_error(DVC_NOT_CERTIFIED, "t = %s: the state may lie on the surface "
                                   "'%s' = 0 with the field crossing it toward the transition%s",
                                   tb, m->gname[tr->g],
                                   s2 == -s ? "; the field of the next mode points back: possible "
                                              "sliding (both fields point toward the surface)"
                                            : "");
                    break;
                }
                if (sa == s) continue; /* moving away from zero */
                hyb_diff_pt(S, t1, t);
                st = hyb_flow_over(Xa, md, &L, t, S, c.K);
                mpfi_set_fr(Ta, t1);
                if (st == DVC_OK) st = dvc_expr_eval_x(phi, m->g[tr->g], Ta, Xa);
                if (st != DVC_OK) break;
                int sb = hyb_sgn(phi);
                if (sb == 0) {
                    need = 2;
                    bad_g = tr->g;
                    break;
                }
                if (sb == sa) continue; /* monotone, same sign at both ends */
                /* a unique transversal zero in [t, t1]: enclose it */
                hyb_cand *cd = &cands[ncand];
                cd->tr = k;
                cd->dir = s;
                mpfi_set(cd->T, Tstep);
                st = hyb_newton(&c, cd->T, cd->dphi, tr->g, md, &L, t);
                if (st != DVC_OK) break;
                ncand++;
            }
            if (st != DVC_OK) break;
            if (!need) break;
            if (++split > HYB_MAX_SPLIT) {
                if (need == 1) {
                    st = hyb_classify_tangent(&c, bad_g, md, &L, t, t1);
                } else {
                    mpfi_interv_fr(r->stop_t, t, t1);
                    r->stop_g = bad_g;
                    r->stop_class = DVC_HYB_UNDECIDED;
                    st = dvc_error(DVC_NOT_CERTIFIED, "near t = %g: cannot separate a zero of '%s' "
                                   "from the step ends", mpfr_get_d(t, MPFR_RNDN), m->gname[bad_g]);
                }
                break;
            }
            h *= need == 1 ? 0.5 : 0.7;
        }
        if (st != DVC_OK) break;
        if (ncand == 0) {
            dvc_ivec_set(box, X);
            hyb_diff_pt(S, t1, t);
            st = hyb_advance(&L, md, t, S, c.K);
            if (st != DVC_OK) break;
            st = hyb_push_point(&c, t1, &L, box, mode);
            mpfr_set(t, t1, MPFR_RNDN);
            continue;
        }
        /* the earliest crossing must precede every other one */
        long first = 0;
        for (long k = 1; k < ncand; k++)
            if (mpfr_cmp(&cands[k].T->left, &cands[first].T->left) < 0) first = k;
        for (long k = 0; k < ncand; k++)
            if (k != first && mpfr_cmp(&cands[k].T->left, &cands[first].T->right) <= 0) {
                char tb[160];
                hyb_time_str(tb, sizeof tb, cands[first].T);
                mpfi_set(r->stop_t, cands[first].T);
                r->stop_class = DVC_HYB_UNDECIDED;
                st = dvc_error(DVC_NOT_CERTIFIED, "t in %s: switching functions '%s' and '%s' "
                               "cross at times that cannot be ordered",
                               tb, m->gname[m->trans[cands[first].tr].g],
                               m->gname[m->trans[cands[k].tr].g]);
                break;
            }
        if (st != DVC_OK) break;
        if (m->expand) { /* the target's own transitions, for the checks of the switch */
            st = m->expand(m->trans[cands[first].tr].to, r->nevents, m->expand_ctx);
            if (st != DVC_OK) break;
        }
        st = hyb_do_event(&c, &L, t, &mode, &cands[first]);
    }
    if (st == DVC_OK) r->certified = 1;
    else if (st == DVC_NOT_CERTIFIED) {
        /* keep the message, it already says where and why */
    }
    for (long k = 0; k < acand; k++) {
        mpfi_clear(cands[k].T);
        mpfi_clear(cands[k].dphi);
    }
    free(cands);
    hyb_set_clear(&L);
    mpfr_clears(t, t1, hh, (mpfr_ptr)0);
    mpfi_clear(S);
    mpfi_clear(Tstep);
    mpfi_clear(phi);
    mpfi_clear(dphi);
    mpfi_clear(Ta);
    dvc_ivec_clear(X);
    dvc_ivec_clear(Xa);
    dvc_ivec_clear(box);
    return st;
}
