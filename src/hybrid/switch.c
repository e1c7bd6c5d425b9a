/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Switch times (docs/hybrid.md sections 4-5): interval Newton on
 * phi(t) = g(t, x(t)), the classification of approaches that cannot be
 * certified (grazing, sliding), the checks on the new side, and the
 * mean-value transfer of the state set through the switch (with the
 * switch time as a function of the state, and reset maps). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid/engine.h"
#include "hybrid/sliding.h"
#include "expr/internal.h"

/* phi' = dg/dt + grad g . f over T x X in the given mode. */
dvc_status hyb_dphi_eval(mpfi_t phi, mpfi_t dphi, const hyb_ctx *c, long g,
                         const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t X)
{
    dvc_ivec_t F;
    mpfi_t one;
    dvc_ivec_init2(F, c->n, c->prec);
    mpfi_init2(one, c->prec);
    mpfi_set_ui(one, 1);
    dvc_status st = hyb_field(F, md, T, X);
    if (st == DVC_OK) st = dvc_expr_eval_tangent(phi, dphi, c->m->g[g], T, X, one, F);
    dvc_ivec_clear(F);
    mpfi_clear(one);
    return st;
}

int hyb_sgn(const mpfi_t x)
{
    if (dvc_ival_is_pos(x)) return 1;
    if (dvc_ival_is_neg(x)) return -1;
    return 0;
}

/* S <- [a - t0] for a point time a (an interval: the difference may round). */
void hyb_diff_pt(mpfi_t S, const mpfr_t a, const mpfr_t t0)
{
    mpfi_set_fr(S, a);
    mpfi_sub_fr(S, S, t0);
}

void hyb_time_str(char *buf, size_t len, const mpfi_t T)
{
    char *s = dvc_ival_str(T, 17);
    snprintf(buf, len, "%s", s ? s : "?");
    free(s);
}

/* Interval Newton on phi over Tc (in place): every zero of phi in Tc stays
 * in Tc. dphi receives phi' over the final Tc. */
dvc_status hyb_newton(hyb_ctx *c, mpfi_t Tc, mpfi_t dphi, long g, const dvc_hybrid_mode *md,
                      const hyb_set *L, const mpfr_t t0, int refine)
{
    mpfr_t mid;
    mpfi_t S, Tm, phim, phi, N;
    dvc_ivec_t X;
    dvc_status st = DVC_OK;
    mpfr_init2(mid, c->prec);
    mpfi_init2(S, c->prec);
    mpfi_init2(Tm, c->prec);
    mpfi_init2(phim, c->prec);
    mpfi_init2(phi, c->prec);
    mpfi_init2(N, c->prec);
    dvc_ivec_init2(X, c->n, c->prec);
    /* a balanced mode: the cheap flow of the set's box (hyb_flow_over_box)
     * until the iteration stalls; refine: two iterations with the set's
     * own flow from there (as tight as without the cheap one) */
    int fast = md->linear && md->balance && !refine, nfull = refine ? 2 : -1;
    for (int it = 0; it < 80; it++) {
        /* phi' over Tc */
        mpfi_sub_fr(S, Tc, t0);
        if (mpfr_sgn(&S->left) < 0) mpfr_set_ui(&S->left, 0, MPFR_RNDD);
        st = fast ? hyb_flow_over_box(X, md, L, t0, S, c->K) : hyb_flow_over(X, md, L, t0, S, c->K);
        if (st == DVC_OK) st = hyb_dphi_eval(phi, dphi, c, g, md, Tc, X);
        if (st != DVC_OK) break;
        if (mpfi_has_zero(dphi)) {
            st = dvc_error(DVC_NOT_CERTIFIED, "switching function '%s': interval Newton: phi' "
                           "not proven nonzero on a sub-interval", c->m->gname[g]);
            break;
        }
        /* phi at the midpoint */
        mpfi_mid(mid, Tc);
        hyb_diff_pt(S, mid, t0);
        st = fast ? hyb_flow_over_box(X, md, L, t0, S, c->K) : hyb_flow_over(X, md, L, t0, S, c->K);
        mpfi_set_fr(Tm, mid);
        if (st == DVC_OK) st = dvc_expr_eval_x(phim, c->m->g[g], Tm, X);
        if (st != DVC_OK) break;
        mpfi_div(N, phim, dphi);
        mpfi_sub(N, Tm, N);
        double w0 = mpfr_get_d(&Tc->right, MPFR_RNDU) - mpfr_get_d(&Tc->left, MPFR_RNDD);
        if (mpfi_intersect(N, N, Tc) != 0 || mpfi_is_empty(N)) {
            st = dvc_error(DVC_NOT_CERTIFIED, "interval Newton: empty intersection (no zero)");
            break;
        }
        int same = mpfr_equal_p(&N->left, &Tc->left) && mpfr_equal_p(&N->right, &Tc->right);
        mpfi_set(Tc, N);
        double w1 = mpfr_get_d(&Tc->right, MPFR_RNDU) - mpfr_get_d(&Tc->left, MPFR_RNDD);
        if (nfull > 0) nfull--;
        if (nfull == 0 || (nfull < 0 && (same || (it > 2 && w1 > 0.75 * w0)))) {
            /* final phi' over the final Tc */
            mpfi_sub_fr(S, Tc, t0);
            if (mpfr_sgn(&S->left) < 0) mpfr_set_ui(&S->left, 0, MPFR_RNDD);
            st = fast ? hyb_flow_over_box(X, md, L, t0, S, c->K) : hyb_flow_over(X, md, L, t0, S, c->K);
            if (st == DVC_OK) st = hyb_dphi_eval(phi, dphi, c, g, md, Tc, X);
            break;
        }
    }
    mpfr_clear(mid);
    mpfi_clear(S);
    mpfi_clear(Tm);
    mpfi_clear(phim);
    mpfi_clear(phi);
    mpfi_clear(N);
    dvc_ivec_clear(X);
    return st;
}

/* What the crossings of g so far say of an accumulation (for a message,
 * not a bound): the count, the last gaps between them, and where a
 * geometric series of gaps would end. */
static void zeno_evidence(char *buf, size_t len, const dvc_hybrid_result_struct *r, long g)
{
    double tk[4];
    int nk = 0;
    long count = r->nevents;
    /* the events held (a streamed run keeps the last few: result.c) */
    for (long k = r->nevents - 1 - r->ev_base; k >= 0 && nk < 4; k--)
        if (r->ev[k].g == g) tk[nk++] = mpfr_get_d(&r->ev[k].t->left, MPFR_RNDN);
    if (nk < 4) {
        snprintf(buf, len, " (%ld crossings so far)", count);
        return;
    }
    double d1 = tk[0] - tk[1], d2 = tk[1] - tk[2], d3 = tk[2] - tk[3], q = d1 / d2;
    if (d1 < d2 && d2 < d3 && q > 0 && q < 1)
        snprintf(buf, len, " (%ld crossings so far, the last gaps %.3g, %.3g, %.3g shrinking "
                 "by about %.3g: infinitely many before about t = %.10g)",
                 count, d3, d2, d1, q, tk[0] + d1 * q / (1 - q));
    else
        snprintf(buf, len, " (%ld crossings so far, the last gaps %.3g, %.3g, %.3g)", count,
                 d3, d2, d1);
}

/* A switching function whose phi' may vanish on the step could not be
 * split away: classify from phi'' (second Lie derivative, Taylor mode). */
dvc_status hyb_classify_tangent(hyb_ctx *c, long g, const dvc_hybrid_mode *md, const hyb_set *L,
                                const mpfr_t t0, const mpfr_t t1)
{
    dvc_hybrid_result_struct *r = c->r;
    long n = c->n;
    dvc_status st;
    mpfi_t T, S, gs[3], ts[3];
    dvc_ivec_t X;
    mpfi_t **xs = malloc((size_t)n * sizeof *xs), **vars = malloc((size_t)(n + 1) * sizeof *vars);
    mpfi_init2(T, c->prec);
    mpfi_init2(S, c->prec);
    for (int k = 0; k < 3; k++) {
        mpfi_init2(gs[k], c->prec);
        mpfi_init2(ts[k], c->prec);
    }
    dvc_ivec_init2(X, n, c->prec);
    for (long i = 0; i < n; i++) {
        xs[i] = malloc(3 * sizeof **xs);
        for (int k = 0; k < 3; k++) mpfi_init2(xs[i][k], c->prec);
    }
    mpfi_interv_fr(T, t0, t1);
    hyb_diff_pt(S, t1, t0);
    mpfr_set_ui(&S->left, 0, MPFR_RNDD);
    st = hyb_flow_over(X, md, L, t0, S, c->K);
    if (st == DVC_OK) st = hyb_state_series(xs, md, T, X, 2);
    if (st == DVC_OK) {
        mpfi_set(ts[0], T);
        mpfi_set_ui(ts[1], 1);
        mpfi_set_ui(ts[2], 0);
        vars[0] = ts;
        for (long i = 0; i < n; i++) vars[i + 1] = xs[i];
        st = dvc_expr_taylor_(gs, c->m->g[g], vars, 2);
    }
    char tb[160];
    hyb_time_str(tb, sizeof tb, T);
    mpfi_set(r->stop_t, T);
    r->stop_g = g;
    if (st != DVC_OK) {
        r->stop_class = DVC_HYB_UNDECIDED;
        st = dvc_error_context(DVC_NOT_CERTIFIED,
                               "t in %s: switching function '%s': transversality not proven, and "
                               "phi'' could not be enclosed: ",
                               tb, c->m->gname[g]);
    } else if (hyb_sgn(gs[2]) != 0) {
        /* phi is strictly convex or concave on the step: its critical time
         * (the zero of phi', unique) by interval Newton on phi' with phi'' */
        int s2 = hyb_sgn(gs[2]);
        char cb[160] = "", pb[160] = "";
        mpfi_t Tc, N, f0, d1, ph;
        mpfr_t mid;
        mpfi_init2(Tc, c->prec);
        mpfi_init2(N, c->prec);
        mpfi_init2(f0, c->prec);
        mpfi_init2(d1, c->prec);
        mpfi_init2(ph, c->prec);
        mpfr_init2(mid, c->prec);
        mpfi_set(Tc, T);
        dvc_status sn = DVC_OK;
        int found = 0;
        for (int it = 0; it < 60 && sn == DVC_OK; it++) {
            mpfi_sub_fr(S, Tc, t0);
            if (mpfr_sgn(&S->left) < 0) mpfr_set_ui(&S->left, 0, MPFR_RNDD);
            sn = hyb_flow_over(X, md, L, t0, S, c->K);
            if (sn == DVC_OK) sn = hyb_state_series(xs, md, Tc, X, 2);
            if (sn == DVC_OK) {
                mpfi_set(ts[0], Tc);
                sn = dvc_expr_taylor_(gs, c->m->g[g], vars, 2);
            }
            if (sn != DVC_OK || hyb_sgn(gs[2]) != s2) break;
            mpfi_mul_ui(gs[2], gs[2], 2); /* phi'' over Tc */
            mpfi_mid(mid, Tc);
            hyb_diff_pt(S, mid, t0);
            mpfi_set_fr(N, mid);
            sn = hyb_flow_over(X, md, L, t0, S, c->K);
            if (sn == DVC_OK) sn = hyb_dphi_eval(f0, d1, c, g, md, N, X);
            if (sn != DVC_OK) break;
            mpfi_div(d1, d1, gs[2]);
            mpfi_sub(N, N, d1);
            if (mpfi_intersect(N, N, Tc) != 0 || mpfi_is_empty(N)) break; /* phi' != 0 */
            int same = mpfr_equal_p(&N->left, &Tc->left) && mpfr_equal_p(&N->right, &Tc->right);
            mpfi_set(Tc, N);
            found = 1;
            if (same) break;
        }
        int zeno = 0;
        if (found) {
            /* phi at the critical time */
            mpfi_sub_fr(S, Tc, t0);
            if (mpfr_sgn(&S->left) < 0) mpfr_set_ui(&S->left, 0, MPFR_RNDD);
            if (hyb_flow_over(X, md, L, t0, S, c->K) == DVC_OK &&
                dvc_expr_eval_x(ph, c->m->g[g], Tc, X) == DVC_OK) {
                char *p1 = dvc_ival_str(Tc, 17), *p2 = dvc_ival_str(ph, 6);
                snprintf(cb, sizeof cb, "; phi' = 0 at t in %s", p1 ? p1 : "?");
                snprintf(pb, sizeof pb, ", where phi is in %s", p2 ? p2 : "?");
                free(p1);
                free(p2);
                mpfi_set(r->stop_t, Tc);
                zeno = hyb_sgn(ph) != 0;
            }
        }
        if (zeno) { /* no tangency: phi' = 0 only off the surface */
            char acc[200];
            zeno_evidence(acc, sizeof acc, r, g);
            r->stop_class = DVC_HYB_ZENO;
            st = dvc_error(DVC_NOT_CERTIFIED,
                           "t in %s: switching function '%s' in mode '%s': no tangency%s%s (proven "
                           "nonzero), but its crossings come closer than a step can separate: a Zeno "
                           "accumulation%s; not integrated through",
                           tb, c->m->gname[g], md->name, cb, pb, acc);
        } else {
        r->stop_class = DVC_HYB_GRAZING;
        st = dvc_error(DVC_NOT_CERTIFIED,
                       "t in %s: switching function '%s' in mode '%s': grazing (possible "
                       "tangency): phi' = dg/dt + grad g . f may vanish while phi may vanish, "
                       "with phi'' %s 0 there%s%s; not integrated through",
                       tb, c->m->gname[g], md->name, s2 > 0 ? ">" : "<", cb, pb);
        }
        mpfi_clear(Tc);
        mpfi_clear(N);
        mpfi_clear(f0);
        mpfi_clear(d1);
        mpfi_clear(ph);
        mpfr_clear(mid);
    } else {
        r->stop_class = DVC_HYB_UNDECIDED;
        st = dvc_error(DVC_NOT_CERTIFIED,
                       "t in %s: switching function '%s' in mode '%s': transversality not "
                       "proven (0 in phi' and in phi'')",
                       tb, c->m->gname[g], md->name);
    }
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) mpfi_clear(xs[i][k]);
        free(xs[i]);
    }
    free(xs);
    free(vars);
    for (int k = 0; k < 3; k++) {
        mpfi_clear(gs[k]);
        mpfi_clear(ts[k]);
    }
    mpfi_clear(T);
    mpfi_clear(S);
    dvc_ivec_clear(X);
    return st;
}

/* Y encloses the solution of mode md on Tc = [t_lo, tau] from any state of
 * Xc at any t* in Tc (Picard-Lindelof: Xc + [0, w] f(Tc, Y) inside Y). */
dvc_status hyb_apriori(dvc_ivec_t Y, const hyb_ctx *c, const dvc_hybrid_mode *md, const mpfi_t Tc,
                       const dvc_ivec_t Xc)
{
    long n = c->n;
    dvc_ivec_t F, Z;
    mpfi_t w, e;
    mpfr_t rad;
    dvc_ivec_init2(F, n, c->prec);
    dvc_ivec_init2(Z, n, c->prec);
    mpfi_init2(w, c->prec);
    mpfi_init2(e, c->prec);
    mpfr_init2(rad, c->prec);
    mpfi_diam_abs(rad, Tc);
    mpfi_interv_d(w, 0.0, 0.0);
    mpfi_put_fr(w, rad);
    dvc_status st = hyb_field(F, md, Tc, Xc);
    int ok = 0;
    if (st == DVC_OK) {
        /* first guess, inflated */
        for (long i = 0; i < n; i++) {
            mpfi_mul(e, w, F->e[i]);
            mpfi_add(Y->e[i], Xc->e[i], e);
            mpfi_diam_abs(rad, Y->e[i]);
            mpfr_mul_d(rad, rad, 0.5, MPFR_RNDU);
            mpfr_add_d(rad, rad, 1e-300, MPFR_RNDU);
            mpfi_interv_fr(e, rad, rad);
            mpfi_neg(F->e[i], e);
            mpfi_put(e, F->e[i]);
            mpfi_add(Y->e[i], Y->e[i], e);
        }
        for (int it = 0; it < 8 && st == DVC_OK && !ok; it++) {
            st = hyb_field(F, md, Tc, Y);
            if (st != DVC_OK) break;
            ok = 1;
            for (long i = 0; i < n; i++) {
                mpfi_mul(e, w, F->e[i]);
                mpfi_add(Z->e[i], Xc->e[i], e);
                if (!mpfi_is_inside(Z->e[i], Y->e[i])) ok = 0;
            }
            if (!ok)
                for (long i = 0; i < n; i++) mpfi_union(Y->e[i], Y->e[i], Z->e[i]);
        }
    }
    dvc_ivec_clear(F);
    dvc_ivec_clear(Z);
    mpfi_clear(w);
    mpfi_clear(e);
    mpfr_clear(rad);
    if (st != DVC_OK) return st;
    return ok ? DVC_OK : dvc_error(DVC_NOT_CERTIFIED, "no a-priori enclosure after the switch");
}

/* After a reset to Yp at t* in T: Y (out) encloses the new mode on
 * [t*, sup T]; no transition of the new mode fires there: each switching
 * function is nonzero on Y, or moves with a proven sign in a direction
 * that its transition does not take. */
static dvc_status reset_checks(hyb_ctx *c, const dvc_hybrid_transition *tr, const mpfi_t T,
                               const dvc_ivec_t Yp, dvc_ivec_t Y, const char *tb)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *m2 = &m->modes[tr->to];
    mpfi_t phi, d2;
    mpfi_init2(phi, c->prec);
    mpfi_init2(d2, c->prec);
    dvc_status st = hyb_apriori(Y, c, m2, T, Yp);
    for (long k = 0; k < m->ntrans && st == DVC_OK; k++) {
        const dvc_hybrid_transition *tk = &m->trans[k];
        if (tk->from != tr->to) continue;
        st = dvc_expr_eval_x(phi, m->g[tk->g], T, Y);
        if (st != DVC_OK || !mpfi_has_zero(phi)) continue;
        st = hyb_dphi_eval(phi, d2, c, tk->g, m2, T, Y);
        if (st != DVC_OK) break;
        if (hyb_sgn(d2) == 0 || tk->dir == 0 || tk->dir == hyb_sgn(d2)) {
            c->r->stop_class = DVC_HYB_UNDECIDED;
            st = dvc_error(DVC_NOT_CERTIFIED, "t in %s: after the reset of the transition on "
                           "'%s', '%s' may trigger mode '%s' at once", tb, m->gname[tr->g],
                           m->gname[tk->g], m2->name);
        }
    }
    mpfi_clear(phi);
    mpfi_clear(d2);
    return st;
}

/* V <- R_t + R_x F over T x X (the velocity of s -> R(s, x(s))). V may alias F. */
static dvc_status reset_velocity(dvc_ivec_t V, hyb_ctx *c, const dvc_hybrid_transition *tr,
                                 const mpfi_t T, const dvc_ivec_t X, const dvc_ivec_t F)
{
    long n = c->n;
    mpfi_t one;
    dvc_ivec_t out;
    mpfi_init2(one, c->prec);
    dvc_ivec_init2(out, n, c->prec);
    mpfi_set_ui(one, 1);
    dvc_status st = DVC_OK;
    mpfi_t f;
    mpfi_init2(f, c->prec);
    for (long i = 0; i < n && st == DVC_OK; i++)
        st = dvc_expr_eval_tangent(f, out->e[i], tr->reset[i], T, X, one, F);
    if (st == DVC_OK) dvc_ivec_set(V, out);
    mpfi_clear(f);
    mpfi_clear(one);
    dvc_ivec_clear(out);
    return st;
}

/* The set at that (mode 1) -> the set at tau (mode 2), the switch time
 * t*(y) depending on the state y at that (docs/hybrid.md section 5):
 *   x(tau) = H(t*, y),  H(s, y) = Phi2(tau; s, R(s, Phi1(s; that, y))),
 *   t* - that = -g(that, y) / phi'(eta),   eta in T*,
 *   H(t*, y) in H(that, y) - (V / phi') g(that, y),   V = dH/ds over T*,
 * and with the mean-value forms of H(that, .) and g(that, .) about c:
 *   x(tau) in [H(that, c) - (V/phi') g(that, c)]
 *             + [D_y H(that, Yh) - (V/phi') grad g(that, Yh)^T] (y - c). */
static dvc_status transfer_set(hyb_set *L, hyb_ctx *c, const dvc_hybrid_transition *tr,
                               const hyb_cand *cd, const mpfr_t that, const mpfr_t tau,
                               const dvc_ivec_t V, const dvc_ivec_t Yp)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *m2 = &m->modes[tr->to];
    long n = c->n;
    dvc_ivec_t Yh, cv, Rc, RY, Ypre, Y2, G0, gr;
    dvc_imat_t Rx, J2, Meff;
    mpfi_t T, S, gc, q;
    mpfr_t mid;
    hyb_set Lp;
    dvc_ivec_init2(Yh, n, c->prec);
    dvc_ivec_init2(cv, n, c->prec);
    dvc_ivec_init2(Rc, n, c->prec);
    dvc_ivec_init2(RY, n, c->prec);
    dvc_ivec_init2(Ypre, n, c->prec);
    dvc_ivec_init2(Y2, n, c->prec);
    dvc_ivec_init2(G0, n, c->prec);
    dvc_ivec_init2(gr, n + 1, c->prec);
    dvc_imat_init2(Rx, n, n, c->prec);
    dvc_imat_init2(J2, n, n, c->prec);
    dvc_imat_init2(Meff, n, n, c->prec);
    mpfi_init2(T, c->prec);
    mpfi_init2(S, c->prec);
    mpfi_init2(gc, c->prec);
    mpfi_init2(q, c->prec);
    mpfr_init2(mid, c->prec);
    hyb_set_init(&Lp, n, c->prec);
    Lp.inv64 = L->inv64;
    dvc_status st = DVC_OK;
    mpfi_set_fr(T, that);
    hyb_set_box(Yh, L);
    for (long i = 0; i < n; i++) {
        mpfi_mid(mid, L->P->e[i]);
        mpfi_set_fr(cv->e[i], mid);
    }
    dvc_ivec_hull(Yh, Yh, cv);
    /* R(that, c), R_x(that, Yh), R(that, Yh) */
    if (tr->reset) {
        for (long i = 0; i < n && st == DVC_OK; i++) {
            st = dvc_expr_eval_x(Rc->e[i], tr->reset[i], T, cv);
            if (st == DVC_OK) st = dvc_expr_grad(RY->e[i], gr, tr->reset[i], T, Yh);
            for (long j = 0; j < n && st == DVC_OK; j++)
                mpfi_set(dvc_imat_entry(Rx, i, j), gr->e[j + 1]);
        }
    } else {
        dvc_ivec_set(Rc, cv);
        dvc_ivec_set(RY, Yh);
        dvc_imat_one(Rx);
    }
    if (st != DVC_OK) goto out;
    /* mode 2 from R(that, Yh) and from Yp over T* (which holds that and tau) */
    dvc_ivec_hull(Ypre, Yp, RY);
    st = hyb_apriori(Y2, c, m2, cd->T, Ypre);
    if (st != DVC_OK) goto out;
    hyb_diff_pt(S, tau, that);
    st = hyb_jacobian(J2, m2, cd->T, Y2, S, c->K);
    if (st != DVC_OK) goto out;
    hyb_set_from_box(&Lp, Rc);
    st = hyb_flow_over(G0, m2, &Lp, that, S, c->K);
    if (st != DVC_OK) goto out;
    /* g(that, c) and grad g(that, Yh) */
    st = dvc_expr_eval_x(gc, m->g[tr->g], T, cv);
    if (st == DVC_OK) st = dvc_expr_grad(NULL, gr, m->g[tr->g], T, Yh);
    if (st != DVC_OK) goto out;
    dvc_imat_mul(Meff, J2, Rx);
    for (long i = 0; i < n; i++) {
        mpfi_div(q, V->e[i], cd->dphi); /* V_i / phi' */
        mpfi_mul(S, q, gc);
        mpfi_sub(G0->e[i], G0->e[i], S);
        for (long j = 0; j < n; j++) {
            mpfi_mul(S, q, gr->e[j + 1]);
            mpfi_sub(dvc_imat_entry(Meff, i, j), dvc_imat_entry(Meff, i, j), S);
        }
    }
    st = hyb_set_map_c(L, Meff, NULL, G0);
out:
    hyb_set_clear(&Lp);
    dvc_ivec_clear(Yh);
    dvc_ivec_clear(cv);
    dvc_ivec_clear(Rc);
    dvc_ivec_clear(RY);
    dvc_ivec_clear(Ypre);
    dvc_ivec_clear(Y2);
    dvc_ivec_clear(G0);
    dvc_ivec_clear(gr);
    dvc_imat_clear(Rx);
    dvc_imat_clear(J2);
    dvc_imat_clear(Meff);
    mpfi_clear(T);
    mpfi_clear(S);
    mpfi_clear(gc);
    mpfi_clear(q);
    mpfr_clear(mid);
    return st;
}

/* The condition number of the set's frame above which a switch into a
 * mode that does not watch the surface re-frames the set by QR. */
#define HYB_COND_SWITCH 16.0

/* Does mode `to` watch switching function g (a transition out of it on g)? */
static int watches(const dvc_hybrid_model_struct *m, long to, long g)
{
    for (long k = 0; k < m->ntrans; k++)
        if (m->trans[k].from == to && m->trans[k].g == g) return 1;
    return 0;
}

/* A crossing without reset or sliding: the new mode's field crosses in the
 * same direction at (T*, X*) and over its a-priori box Y of [t*, tau]
 * (else sliding or not proven). When the new mode has no transition on
 * the crossed function (hysteresis, entering a mode where g is invariant)
 * the sign of g after the switch decides nothing: only Y is needed, and
 * hyb_do_event then proves every switching function of the new mode
 * nonzero on Y (docs/hybrid.md section 5, "a new mode that does not watch
 * the surface"). */
static dvc_status cross_checks(hyb_ctx *c, const dvc_hybrid_transition *tr, const hyb_cand *cd,
                               const dvc_ivec_t Xc, const dvc_ivec_t Yp, dvc_ivec_t Y,
                               const char *tb)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_mode *m2 = &m->modes[tr->to];
    dvc_hybrid_result_struct *r = c->r;
    mpfi_t phi, d2;
    dvc_status st;
    if (!watches(m, tr->to, tr->g)) return hyb_apriori(Y, c, m2, cd->T, Yp);
    mpfi_init2(phi, c->prec);
    mpfi_init2(d2, c->prec);
    /* the new mode's field must cross in the same direction (else sliding) */
    st = hyb_dphi_eval(phi, d2, c, tr->g, m2, cd->T, Xc);
    if (st != DVC_OK) goto out;
    if (hyb_sgn(d2) != cd->dir) {
        mpfi_set(r->stop_t, cd->T);
        r->stop_g = tr->g;
        r->stop_class = hyb_sgn(d2) == -cd->dir ? DVC_HYB_SLIDING : DVC_HYB_UNDECIDED;
        st = dvc_error(DVC_NOT_CERTIFIED,
                       "t in %s: switching function '%s': the field of mode '%s' %s (grad g . f "
                       "%s 0 on the %s side); %s; not integrated through",
                       tb, m->gname[tr->g], m2->name,
                       hyb_sgn(d2) == -cd->dir ? "points back to the surface" : "may be tangent",
                       hyb_sgn(d2) == -cd->dir ? (cd->dir > 0 ? "<" : ">") : "~",
                       cd->dir > 0 ? "positive" : "negative",
                       hyb_sgn(d2) == -cd->dir ? "possible sliding (both fields point toward the surface)"
                                           : "transversality on the new side not proven");
        goto out;
    }
    /* the new mode on [t*, tau]: a-priori box, no return and no other event */
    st = hyb_apriori(Y, c, m2, cd->T, Yp);
    if (st != DVC_OK) goto out;
    st = hyb_dphi_eval(phi, d2, c, tr->g, m2, cd->T, Y);
    if (st != DVC_OK) goto out;
    if (hyb_sgn(d2) != cd->dir) {
        st = dvc_error(DVC_NOT_CERTIFIED, "t in %s: '%s': cannot prove the crossing is left "
                       "behind in mode '%s'", tb, m->gname[tr->g], m2->name);
        goto out;
    }
out:
    mpfi_clear(phi);
    mpfi_clear(d2);
    return st;
}

/* Apply the crossing of transition tr in Tc: record the event, move the
 * set to tau = sup Tc through the switch, record the step [t, tau]. */
dvc_status hyb_do_event(hyb_ctx *c, hyb_set *L, mpfr_t t, long *mode, const hyb_cand *cd)
{
    const dvc_hybrid_model_struct *m = c->m;
    const dvc_hybrid_transition *tr = &m->trans[cd->tr];
    const dvc_hybrid_mode *m1 = &m->modes[tr->from], *m2 = &m->modes[tr->to];
    dvc_hybrid_result_struct *r = c->r;
    long n = c->n;
    dvc_status st;
    char tb[160];
    if (m2->pending) /* expand(target) fills it before the crossing is applied */
        return dvc_error(DVC_ERR_INTERNAL, "mode '%s' entered before its field was given", m2->name);
    hyb_time_str(tb, sizeof tb, cd->T);
    mpfr_t tau, that;
    mpfi_t S, phi, d2;
    dvc_ivec_t Xc, F1, F2, Y, Yp, box, C;
    dvc_imat_t E2;
    mpfr_init2(that, c->prec);
    dvc_ivec_init2(Yp, n, c->prec);
    mpfr_init2(tau, c->oprec); /* a grid time: rounded up to the output precision */
    mpfi_init2(S, c->prec);
    mpfi_init2(phi, c->prec);
    mpfi_init2(d2, c->prec);
    dvc_ivec_init2(Xc, n, c->prec);
    dvc_ivec_init2(F1, n, c->prec);
    dvc_ivec_init2(F2, n, c->prec);
    dvc_ivec_init2(Y, n, c->prec);
    dvc_ivec_init2(box, n, c->prec);
    dvc_ivec_init2(C, n, c->prec);
    dvc_imat_init2(E2, n, n, c->prec);
    mpfr_set(tau, &cd->T->right, MPFR_RNDU);
    mpfi_mid(that, cd->T);
    /* state at the crossing and the step box up to tau */
    mpfi_sub_fr(S, cd->T, t);
    if (mpfr_sgn(&S->left) < 0) mpfr_set_ui(&S->left, 0, MPFR_RNDD);
    st = hyb_flow_over(Xc, m1, L, t, S, c->K);
    if (st != DVC_OK) goto out;
    hyb_diff_pt(S, tau, t);
    mpfr_set_ui(&S->left, 0, MPFR_RNDD);
    st = hyb_flow_over(box, m1, L, t, S, c->K);
    if (st != DVC_OK) goto out;
    int reframe = 0; /* a plain crossing into a mode that does not watch the surface */
    dvc_hybrid_transition trs; /* a contact surface reached: slide or cross */
    long ck;
    if (hyb_slide_reaches(c, tr, &ck)) {
        st = hyb_slide_decide(c, tr, ck, cd, Xc, &trs);
        if (st != DVC_OK) goto out;
        tr = &trs;
        m2 = &m->modes[tr->to];
    }
    /* the state right after the switch: Yp = R(T*, X*) (identity: X*) */
    if (tr->reset) {
        for (long i = 0; i < n && st == DVC_OK; i++)
            st = dvc_expr_eval_x(Yp->e[i], tr->reset[i], cd->T, Xc);
        if (st != DVC_OK) {
            st = dvc_error_context(st, "t in %s: reset map of the transition on '%s': ", tb,
                                   m->gname[tr->g]);
            goto out;
        }
        st = reset_checks(c, tr, cd->T, Yp, Y, tb);
        if (st != DVC_OK) goto out;
        goto transfer;
    }
    dvc_ivec_set(Yp, Xc);
    if (hyb_sliding_term(m, m2) >= 0) { /* sliding: Filippov replaces the crossing checks */
        st = hyb_slide_enter_checks(c, tr, cd, Xc, Y);
        if (st != DVC_OK) goto out;
        goto others;
    }
    st = cross_checks(c, tr, cd, Xc, Yp, Y, tb);
    if (st != DVC_OK) goto out;
    reframe = !watches(m, tr->to, tr->g);
others:
    for (long k = 0; k < m->ntrans; k++) {
        if (m->trans[k].from != tr->to || m->trans[k].g == tr->g) continue;
        if (hyb_slide_departs(c, tr, &m->trans[k])) continue;
        if (hyb_slide_lcp_departs(c, tr, &m->trans[k], cd->T, Xc, Y)) continue;
        if (hyb_slide_weight_departs(c, tr, &m->trans[k])) continue;
        st = dvc_expr_eval_x(phi, m->g[m->trans[k].g], cd->T, Y);
        if (st != DVC_OK) goto out;
        if (mpfi_has_zero(phi)) {
            /* the new mode may leave at once: a chattering switch (no gap
             * between the surfaces) or a simultaneous event; not looped on */
            c->r->stop_class = DVC_HYB_UNDECIDED;
            st = dvc_error(DVC_NOT_CERTIFIED, "t in %s: switching functions '%s' and '%s' may "
                           "vanish together: mode '%s', entered on '%s', may leave on '%s' at "
                           "once (chattering without hysteresis, or a simultaneous event); not "
                           "integrated through", tb, m->gname[tr->g], m->gname[m->trans[k].g],
                           m2->name, m->gname[tr->g], m->gname[m->trans[k].g]);
            goto out;
        }
    }
transfer:
    dvc_ivec_hull(box, box, Y);
    st = hyb_push_event(c, cd->T, tr->g, tr->from, tr->to, Xc, cd->dphi);
    if (st != DVC_OK) goto out;
    /* mean-value transfer: x(tau) = G(t*) with
     * G(s) = phi2(tau; s, R(s, phi1(s; t, x0))),
     * G'(s) = D phi2(tau; s, .) [R_t + R_x f1 - f2(s, R)](s, x(s)), so
     * x(tau) in G(that) + G'(Tc) (Tc - that). Identity R: [f1 - f2]. */
    st = hyb_field(F1, m1, cd->T, Xc);
    if (st == DVC_OK) st = hyb_field(F2, m2, cd->T, Yp);
    if (st != DVC_OK) goto out;
    if (tr->reset) {
        st = reset_velocity(F1, c, tr, cd->T, Xc, F1);
        if (st != DVC_OK) goto out;
    }
    dvc_ivec_sub(F1, F1, F2);
    mpfi_sub_fr(S, cd->T, tau);
    mpfi_neg(S, S);
    mpfr_set_ui(&S->left, 0, MPFR_RNDD);
    st = hyb_jacobian(E2, m2, cd->T, Y, S, c->K);
    if (st != DVC_OK) goto out;
    dvc_imat_mul_vec(C, E2, F1); /* V = dG/ds over T* */
    hyb_diff_pt(S, that, t);
    st = hyb_advance(L, m1, t, S, c->K);
    if (st != DVC_OK) goto out;
    st = transfer_set(L, c, tr, cd, that, tau, C, Yp);
    /* into a mode that does not watch the surface (a hysteresis cycle):
     * the saltation's shear and the flow's contraction toward the cycle
     * align the frame's columns, whose condition number then multiplies
     * the widths of every later step's Jacobian; a QR frame here keeps it
     * to what one phase builds (docs/hybrid.md section 5) */
    if (st == DVC_OK && reframe) st = hyb_set_reframe(L, HYB_COND_SWITCH);
    if (st != DVC_OK) goto out;
    st = hyb_push_point(c, tau, L, box, tr->from);
    if (st != DVC_OK) goto out;
    mpfr_set(t, tau, MPFR_RNDN);
    *mode = tr->to;
out:
    if (st != DVC_OK && mpfi_is_empty(r->stop_t) == 0 && r->stop_g < 0) {
        mpfi_set(r->stop_t, cd->T);
        r->stop_g = tr->g;
    }
    mpfr_clears(tau, that, (mpfr_ptr)0);
    mpfi_clear(S);
    mpfi_clear(phi);
    mpfi_clear(d2);
    dvc_ivec_clear(Xc);
    dvc_ivec_clear(F1);
    dvc_ivec_clear(F2);
    dvc_ivec_clear(Y);
    dvc_ivec_clear(Yp);
    dvc_ivec_clear(box);
    dvc_ivec_clear(C);
    dvc_imat_clear(E2);
    return st;
}
