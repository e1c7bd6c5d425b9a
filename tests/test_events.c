/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The DLVI events route (docs/events.md) against closed forms: the bridge
 * of Chen & Wang (Example 5.1) from certs/bridge/, x(0) = (0, gamma),
 * T = 10, against tests/ref_bridge.c (256 bits): the tube and the y tube at
 * 1,000 random times, the crossing times, and the radius at T. Also: the
 * circuit (Example 5.3, time-dependent g) and the pounding example with a
 * three-tone ground motion against 256-bit runs, a degenerate start
 * (refused without windows, bridged by a window from t = 0 by default), the
 * event budget; the circuit from V_C = 0 and a 2-storey SI building with a
 * stiff contact against an independent reference (MPFR Taylor series with
 * event location by bisection, written here). Usage: test_events CERTS_DIR
 * DATA_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check.h"
#include "ref_bridge.h"
#include "dvicert/events.h"
#include "dvicert/problem.h"

static int inside_fr(mpfi_srcptr X, const mpfr_t v)
{
    return mpfr_cmp(&X->left, v) <= 0 && mpfr_cmp(v, &X->right) <= 0;
}

static double radius_at_end(const dvc_hybrid_result_t r)
{
    double rad = 0;
    const dvc_ivec_struct *X = r->x[r->nsteps];
    for (long i = 0; i < X->n; i++) {
        double w = (mpfr_get_d(&X->e[i]->right, MPFR_RNDU) - mpfr_get_d(&X->e[i]->left, MPFR_RNDD)) / 2;
        if (w > rad) rad = w;
    }
    return rad;
}

/* dvc_dlvi_events_run with default options, r initialised here; *secs its
 * CPU time. */
static dvc_status timed_run(dvc_hybrid_result_t r, dvc_hybrid_model_t m, const dvc_dlvi_problem_t p,
                            double *secs)
{
    dvc_hybrid_result_init(r);
    clock_t c0 = clock();
    dvc_status st = dvc_dlvi_events_run(r, m, p, NULL);
    *secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    return st;
}

/* The step of r holding the point time t (the last one whose start <= t). */
static long step_of(const dvc_hybrid_result_t r, const mpfr_t t)
{
    long lo = 0, hi = r->nsteps - 1;
    while (lo < hi) {
        long mid = (lo + hi + 1) / 2;
        if (mpfr_cmp(r->t[mid], t) <= 0) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static void test_bridge(const char *certs, const char *file, const char *gamma)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/bridge/%s", certs, file);
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s: %s", path, dvc_error_message());
    mpfi_set_ui(p->T, 10);
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    double secs;
    dvc_status st = timed_run(r, m, p, &secs);
    CHECK(st == DVC_OK && r->certified, "bridge gamma = %s: %s", gamma, dvc_error_message());
    if (st != DVC_OK) {
        dvc_hybrid_result_clear(r);
        dvc_hybrid_model_clear(m);
        dvc_dlvi_problem_clear(p);
        return;
    }
    ref_bridge ref;
    REQUIRE(ref_bridge_init(&ref, "0", gamma, 10) == 0, "bridge reference gamma = %s", gamma);
    /* the crossings: the reference's segment starts, in order */
    CHECK(r->nevents == ref.nseg - 1, "gamma = %s: %ld events, reference %d crossings", gamma,
          r->nevents, ref.nseg - 1);
    double tw = 0;
    for (long k = 0; k < r->nevents && k + 1 < ref.nseg; k++) {
        CHECK(inside_fr(r->ev[k].t, ref.s[k + 1]), "gamma = %s: crossing %ld at %.17g outside "
              "[%.17g, %.17g]", gamma, k + 1, mpfr_get_d(ref.s[k + 1], MPFR_RNDN),
              mpfr_get_d(&r->ev[k].t->left, MPFR_RNDD), mpfr_get_d(&r->ev[k].t->right, MPFR_RNDU));
        double w = mpfr_get_d(&r->ev[k].t->right, MPFR_RNDU) - mpfr_get_d(&r->ev[k].t->left, MPFR_RNDD);
        if (w > tw) tw = w;
    }
    if (!strcmp(gamma, "1")) {
        /* the closed form from (0, 1) crosses at pi/2, 3 pi/2, 2 pi, 3 pi */
        static const double mult[4] = {0.5, 1.5, 2, 3};
        CHECK(r->nevents == 4, "gamma = 1: %ld events", r->nevents);
        mpfr_t pk;
        mpfr_init2(pk, 256);
        for (int k = 0; k < 4 && k < r->nevents; k++) {
            mpfr_const_pi(pk, MPFR_RNDN);
            mpfr_mul_d(pk, pk, mult[k], MPFR_RNDN);
            CHECK(inside_fr(r->ev[k].t, pk), "gamma = 1: crossing %d does not hold %g pi", k + 1,
                  mult[k]);
        }
        mpfr_clear(pk);
    }
    /* the x and y tubes at 1,000 random times */
    check_rng rng = {0x5eed0000ULL + (unsigned long long)strlen(gamma)};
    mpfr_t t, x1, x2, y;
    mpfi_t tt;
    dvc_ivec_t X, Y;
    mpfr_inits2(256, x1, x2, y, (mpfr_ptr)0);
    mpfr_init2(t, 53);
    mpfi_init2(tt, 53);
    dvc_ivec_init2(X, 2, 53);
    dvc_ivec_init2(Y, 1, 53);
    long bad_x = 0, bad_y = 0, failed = 0;
    for (int k = 0; k < 1000; k++) {
        mpfr_set_d(t, check_rng_unif(&rng, 0, 10), MPFR_RNDN);
        mpfi_set_fr(tt, t);
        ref_bridge_eval(&ref, x1, x2, y, t);
        if (dvc_hybrid_eval(X, m, r, tt) != DVC_OK) {
            failed++;
            continue;
        }
        if (!inside_fr(X->e[0], x1) || !inside_fr(X->e[1], x2)) bad_x++;
        long i = step_of(r, t);
        if (dvc_dlvi_events_y(Y, m, r->mode[i], tt, X) != DVC_OK) failed++;
        else if (!inside_fr(Y->e[0], y)) bad_y++;
    }
    CHECK(failed == 0, "gamma = %s: %ld tube evaluations failed", gamma, failed);
    CHECK(bad_x == 0, "gamma = %s: x outside the tube at %ld of 1000 times", gamma, bad_x);
    CHECK(bad_y == 0, "gamma = %s: y outside the y tube at %ld of 1000 times", gamma, bad_y);
    /* at T too (the grid end holds T exactly) */
    ref_bridge_eval(&ref, x1, x2, y, r->t[r->nsteps]);
    CHECK(inside_fr(r->x[r->nsteps]->e[0], x1) && inside_fr(r->x[r->nsteps]->e[1], x2),
          "gamma = %s: x(T) outside", gamma);
    double rad = radius_at_end(r);
    CHECK(rad <= 1e-10, "gamma = %s: radius at T %.3g > 1e-10", gamma, rad);
    /* the result re-checks, and edits are caught: an event time moved, a
     * pattern swapped, a step enclosure narrowed */
    CHECK(dvc_hybrid_verify(m, r) == DVC_OK, "gamma = %s: verify: %s", gamma, dvc_error_message());
    if (r->nevents >= 2) {
        mpfi_t keep;
        mpfr_t w;
        mpfi_init2(keep, 53);
        mpfr_init2(w, 53);
        mpfi_set(keep, r->ev[1].t);
        mpfi_diam_abs(w, keep);
        mpfr_mul_2ui(w, w, 1, MPFR_RNDU);
        mpfi_add_fr(r->ev[1].t, r->ev[1].t, w);
        CHECK(dvc_hybrid_verify(m, r) == DVC_NOT_CERTIFIED, "gamma = %s: moved event time accepted",
              gamma);
        mpfi_set(r->ev[1].t, keep);
        long b = r->ev[0].mode_after;
        r->ev[0].mode_after = r->ev[0].mode_before;
        CHECK(dvc_hybrid_verify(m, r) == DVC_NOT_CERTIFIED, "gamma = %s: swapped pattern accepted",
              gamma);
        r->ev[0].mode_after = b;
        long i = r->nsteps / 2;
        mpfi_set(keep, r->box[i]->e[0]);
        mpfi_mid(w, keep);
        mpfi_set_fr(r->box[i]->e[0], w);
        CHECK(dvc_hybrid_verify(m, r) == DVC_NOT_CERTIFIED, "gamma = %s: narrowed step box accepted",
              gamma);
        mpfi_set(r->box[i]->e[0], keep);
        CHECK(dvc_hybrid_verify(m, r) == DVC_OK, "gamma = %s: restored result rejected: %s", gamma,
              dvc_error_message());
        mpfi_clear(keep);
        mpfr_clear(w);
    }
    long npat, nev;
    dvc_dlvi_events_stats(m, &npat, &nev, NULL);
    printf("bridge gamma = %-3s T = 10: %ld steps, %ld events, %ld patterns, widest crossing "
           "%.2g, radius at T %.2g, %.3f s\n", gamma, r->nsteps, r->nevents, npat, tw, rad, secs);
    mpfr_clears(t, x1, x2, y, (mpfr_ptr)0);
    mpfi_clear(tt);
    dvc_ivec_clear(X);
    dvc_ivec_clear(Y);
    ref_bridge_clear(&ref);
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
}

/* A bridge started on the surface with zero velocity (x1 = x2 = 0, but
 * sin 4t pushes it up at once) has phi' = 0 at t = 0: refused, with the
 * message naming the degenerate start. The event budget. A start with two
 * degenerate indices whose forward pattern is proven (Remark 4.3). */
static void test_degenerate(const char *certs)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/bridge/gamma0.2.json", certs);
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s", dvc_error_message());
    mpfi_set_ui(p->x0->e[1], 0);
    dvc_hybrid_model_t m;
    dvc_dlvi_events_opts o;
    dvc_dlvi_events_opts_default(&o);
    o.windows = -1; /* refused without windows */
    dvc_status st = dvc_dlvi_events_model(m, p, &o);
    CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "degenerate start"),
          "degenerate start: status %d, %s", (int)st, dvc_error_message());
    dvc_hybrid_model_clear(m);
    { /* by default a window from t = 0 bridges it (docs/events.md section 3) */
        dvc_hybrid_result_t r0;
        dvc_hybrid_result_init(r0);
        mpfi_set_ui(p->T, 2);
        st = dvc_dlvi_events_run(r0, m, p, NULL);
        CHECK(st == DVC_OK && r0->nwindows >= 1 && r0->wstep[0] == 0,
              "degenerate start bridged: status %d, %ld windows, %s", (int)st, r0->nwindows,
              dvc_error_message());
        dvc_hybrid_result_clear(r0);
        dvc_hybrid_model_clear(m);
    }
    /* the event budget */
    mpfi_set_str(p->x0->e[1], "0.2", 10);
    mpfi_set_ui(p->T, 10);
    dvc_dlvi_events_opts_default(&o);
    o.max_events = 2;
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    st = dvc_dlvi_events_run(r, m, p, &o);
    CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "max_events") && r->nevents == 2,
          "event budget: status %d, %ld events, %s", (int)st, r->nevents, dvc_error_message());
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
    /* Remark 4.3 from x(0) = 0: both indices degenerate at t = 0 (y = 0,
     * w = 0); the forward pattern is y1 at 0, y2 free, and the solution is
     * x = -2t, y = (0, 2t) */
    snprintf(path, sizeof path, "%s/remark43/x0_0.json", certs);
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s", dvc_error_message());
    dvc_hybrid_result_init(r);
    st = dvc_dlvi_events_run(r, m, p, NULL);
    CHECK(st == DVC_OK && r->nevents == 0 && !strcmp(m->modes[r->mode[0]].name, "lf"),
          "remark 4.3 from 0: %s", st == DVC_OK ? m->modes[r->mode[0]].name : dvc_error_message());
    if (st == DVC_OK) {
        mpfi_t tt;
        dvc_ivec_t X, Y;
        mpfi_init2(tt, 53);
        dvc_ivec_init2(X, 1, 53);
        dvc_ivec_init2(Y, 2, 53);
        long bad = 0;
        for (int k = 0; k <= 50; k++) {
            double t = 0.01 * k;
            mpfi_set_d(tt, t);
            if (dvc_hybrid_eval(X, m, r, tt) != DVC_OK ||
                dvc_dlvi_events_y(Y, m, r->mode[0], tt, X) != DVC_OK ||
                !mpfi_is_inside_d(-2 * t, X->e[0]) || !mpfi_is_inside_d(0, Y->e[0]) ||
                !mpfi_is_inside_d(2 * t, Y->e[1]))
                bad++;
        }
        CHECK(bad == 0, "remark 4.3 from 0: x = -2t, y = (0, 2t) outside the tubes %ld times", bad);
        mpfi_clear(tt);
        dvc_ivec_clear(X);
        dvc_ivec_clear(Y);
    }
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
}

/* A problem without a closed form, against the same run at 256 bits, whose
 * tube (width ~1e-17, the Taylor remainder) stands in for the exact
 * solution: its midpoint lies in the 53-bit x and y tubes at 300 random
 * times, and the event times meet. The radius at T is printed and checked
 * against target. */
static void test_vs256(const char *path, const char *x0, const char *label, double target,
                       long min_windows)
{
    dvc_dlvi_problem_t p, p2;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    dvc_dlvi_problem_init(p2, 0, 0, 256);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s: %s", path, dvc_error_message());
    REQUIRE(dvc_problem_read(p2, path, 256) == DVC_OK, "%s: %s", path, dvc_error_message());
    for (long i = 0; x0 && i < p->n; i++) { /* every state starts at x0 */
        mpfi_set_str(p->x0->e[i], x0, 10);
        mpfi_set_str(p2->x0->e[i], x0, 10);
    }
    dvc_hybrid_model_t m, m2;
    dvc_hybrid_result_t r, r2;
    dvc_hybrid_result_init(r);
    dvc_hybrid_result_init(r2);
    clock_t c0 = clock();
    dvc_status st = dvc_dlvi_events_run(r, m, p, NULL);
    double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    CHECK(st == DVC_OK && r->certified, "%s: %s", label, dvc_error_message());
    dvc_status st2 = dvc_dlvi_events_run(r2, m2, p2, NULL);
    CHECK(st2 == DVC_OK && r2->certified, "%s at 256 bits: %s", label, dvc_error_message());
    if (st == DVC_OK && st2 == DVC_OK) {
        long n = p->n, nm = p->m;
        /* the events are compared when neither run bridged a window (a
         * window replaces the events it covers, and the 256-bit run may
         * order what the 53-bit run cannot) */
        int cmp_ev = r->nwindows == 0 && r2->nwindows == 0;
        CHECK(!cmp_ev || r->nevents == r2->nevents, "%s: %ld events, %ld at 256 bits", label,
              r->nevents, r2->nevents);
        long bad_ev = 0;
        for (long k = 0; cmp_ev && k < r->nevents && k < r2->nevents; k++) {
            mpfi_t I;
            mpfi_init2(I, 256);
            if (mpfi_intersect(I, r->ev[k].t, r2->ev[k].t) != 0 || mpfi_is_empty(I) ||
                r->ev[k].mode_after != r2->ev[k].mode_after)
                bad_ev++;
            mpfi_clear(I);
        }
        CHECK(bad_ev == 0, "%s: %ld event times or patterns do not meet", label, bad_ev);
        check_rng rng = {0xc1c0ULL + (unsigned long long)strlen(label)};
        mpfr_t t, mid;
        mpfi_t tt, t2;
        dvc_ivec_t X, X2, Y, Y2;
        mpfr_init2(t, 53);
        mpfr_init2(mid, 256);
        mpfi_init2(tt, 53);
        mpfi_init2(t2, 256);
        dvc_ivec_init2(X, n, 53);
        dvc_ivec_init2(X2, n, 256);
        dvc_ivec_init2(Y, nm, 53);
        dvc_ivec_init2(Y2, nm, 256);
        long bad = 0, bad_y = 0, failed = 0;
        double w2 = 0;
        for (int k = 0; k < 300; k++) {
            mpfr_set_d(t, check_rng_unif(&rng, 0, mpfr_get_d(r->t[r->nsteps], MPFR_RNDD)), MPFR_RNDN);
            mpfi_set_fr(tt, t);
            mpfi_set_fr(t2, t);
            if (dvc_hybrid_eval(X, m, r, tt) != DVC_OK || dvc_hybrid_eval(X2, m2, r2, t2) != DVC_OK ||
                dvc_dlvi_events_y(Y, m, r->mode[step_of(r, t)], tt, X) != DVC_OK ||
                dvc_dlvi_events_y(Y2, m2, r2->mode[step_of(r2, t)], t2, X2) != DVC_OK) {
                failed++;
                continue;
            }
            for (long i = 0; i < n; i++) {
                mpfi_mid(mid, X2->e[i]);
                if (!inside_fr(X->e[i], mid)) bad++;
                double w = mpfr_get_d(&X2->e[i]->right, MPFR_RNDU) - mpfr_get_d(&X2->e[i]->left, MPFR_RNDD);
                if (w > w2) w2 = w;
            }
            int win = 0; /* y of a window step is not a pattern's map */
            for (long k = 0; k < r->nwindows; k++) win |= r->wstep[k] == step_of(r, t);
            for (long k = 0; k < r2->nwindows; k++) win |= r2->wstep[k] == step_of(r2, t);
            for (long i = 0; i < nm && !win; i++) {
                mpfi_mid(mid, Y2->e[i]);
                if (!inside_fr(Y->e[i], mid)) bad_y++;
            }
        }
        CHECK(failed == 0, "%s: %ld evaluations failed", label, failed);
        CHECK(bad == 0, "%s: the 256-bit solution outside the tube %ld times", label, bad);
        CHECK(bad_y == 0, "%s: the 256-bit y outside the y tube %ld times", label, bad_y);
        double rad = radius_at_end(r);
        CHECK(rad <= target, "%s: radius at T %.3g > %.3g", label, rad, target);
        long npat, nwin;
        dvc_dlvi_events_stats(m, &npat, NULL, &nwin);
        CHECK(nwin == r->nwindows && nwin >= min_windows, "%s: %ld windows (result: %ld), want >= %ld",
              label, nwin, r->nwindows, min_windows);
        printf("%s: %ld steps, %ld events, %ld windows, %ld patterns, radius at T %.2g, %.3f s "
               "(256-bit tube width <= %.2g)\n", label, r->nsteps, r->nevents, nwin, npat, rad, secs, w2);
        mpfr_clear(t);
        mpfr_clear(mid);
        mpfi_clear(tt);
        mpfi_clear(t2);
        dvc_ivec_clear(X);
        dvc_ivec_clear(X2);
        dvc_ivec_clear(Y);
        dvc_ivec_clear(Y2);
    }
    dvc_hybrid_result_clear(r);
    dvc_hybrid_result_clear(r2);
    dvc_hybrid_model_clear(m);
    dvc_hybrid_model_clear(m2);
    dvc_dlvi_problem_clear(p);
    dvc_dlvi_problem_clear(p2);
}

/* The engine's affine modes (dvc_hybrid_add_mode_affine, used by the
 * route for b_P = Bu [1; u(t)]) against the same mode with b as
 * expressions: x1' = x2 + 0.5 - 2 cos 5t, x2' = -x1 + 3 sin 3t + cos 5t
 * (switching nowhere), T = 5: the two tubes meet at every grid point and
 * their widths agree within 2x. */
static void test_affine_mode(void)
{
    dvc_hybrid_model_t a, b;
    const char *bt[2] = {"0.5 - 2*cos(5*t)", "3*sin(3*t) + cos(5*t)"};
    const char *u[2] = {"sin(3*t)", "cos(5*t)"};
    double Ad[4] = {0, 1, -1, 0}, Bd[6] = {0.5, 0, -2, 0, 3, 1}, x0d[2] = {1, 0};
    dvc_imat_t A, Bu;
    dvc_ivec_t x0;
    mpfr_t t0, T;
    dvc_imat_init2(A, 2, 2, 53);
    dvc_imat_init2(Bu, 2, 3, 53);
    dvc_ivec_init2(x0, 2, 53);
    mpfr_inits2(53, t0, T, (mpfr_ptr)0);
    dvc_imat_set_d(A, Ad);
    dvc_imat_set_d(Bu, Bd);
    dvc_ivec_set_d(x0, x0d);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    mpfr_set_ui(T, 5, MPFR_RNDN);
    long ka = -1, kb = -1;
    REQUIRE(dvc_hybrid_model_init(a, 2, NULL, 53) == DVC_OK, "init");
    REQUIRE(dvc_hybrid_model_init(b, 2, NULL, 53) == DVC_OK, "init");
    CHECK(dvc_hybrid_set_basis(a, 2, u, NULL) == DVC_OK, "basis: %s", dvc_error_message());
    CHECK(dvc_hybrid_add_mode_affine(a, "m", A, Bu, &ka) == DVC_OK, "affine: %s", dvc_error_message());
    CHECK(dvc_hybrid_add_mode_linear(b, "m", A, bt, NULL, &kb) == DVC_OK, "linear: %s", dvc_error_message());
    CHECK(dvc_hybrid_set_basis(a, 2, u, NULL) == DVC_ERR_INPUT, "the basis is set once");
    a->h = b->h = 0.05;
    dvc_hybrid_set_initial(a, ka, x0, t0, T);
    dvc_hybrid_set_initial(b, kb, x0, t0, T);
    dvc_hybrid_result_t ra, rb;
    dvc_hybrid_result_init(ra);
    dvc_hybrid_result_init(rb);
    CHECK(dvc_hybrid_enclose(ra, a) == DVC_OK && dvc_hybrid_enclose(rb, b) == DVC_OK,
          "affine mode run: %s", dvc_error_message());
    CHECK(ra->nsteps == rb->nsteps, "affine mode: %ld steps, %ld with b", ra->nsteps, rb->nsteps);
    long bad = 0;
    double wmax = 0;
    for (long i = 0; i <= ra->nsteps && i <= rb->nsteps; i++)
        for (long j = 0; j < 2; j++) {
            mpfi_t I;
            mpfi_init2(I, 64);
            mpfi_srcptr xa = ra->x[i]->e[j], xb = rb->x[i]->e[j];
            if (mpfi_intersect(I, xa, xb) != 0 || mpfi_is_empty(I)) bad++;
            double wa = mpfr_get_d(&xa->right, MPFR_RNDU) - mpfr_get_d(&xa->left, MPFR_RNDD);
            double wb = mpfr_get_d(&xb->right, MPFR_RNDU) - mpfr_get_d(&xb->left, MPFR_RNDD);
            if (wa > 2 * wb + 1e-300) bad++;
            if (wa > wmax) wmax = wa;
            mpfi_clear(I);
        }
    CHECK(bad == 0, "affine mode: %ld grid values disagree with the expression mode", bad);
    CHECK(wmax < 1e-12, "affine mode: width %.3g", wmax);
    dvc_hybrid_traj tr;
    dvc_hybrid_traj_init(&tr);
    CHECK(dvc_hybrid_dmm(&tr, a, 0.01) == DVC_ERR_INPUT, "dmm refuses affine modes");
    dvc_hybrid_traj_clear(&tr);
    dvc_hybrid_result_clear(ra);
    dvc_hybrid_result_clear(rb);
    dvc_hybrid_model_clear(a);
    dvc_hybrid_model_clear(b);
    dvc_imat_clear(A);
    dvc_imat_clear(Bu);
    dvc_ivec_clear(x0);
    mpfr_clears(t0, T, (mpfr_ptr)0);
}

/* The bridge from a box of initial states x1 in [1e-3, 1e-3 + 1e-6],
 * x2 in [1 - 1e-6, 1 + 1e-6], T = 10: the closed forms from the 4 corners
 * and the centre lie in the tube at every grid point, and their crossing
 * times in the event enclosures. A table as forcing is refused. */
static void test_box(const char *certs, const char *data)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/bridge/gamma1.0.json", certs);
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s", dvc_error_message());
    mpfi_set_ui(p->T, 10);
    mpfi_interv_d(p->x0->e[0], 1e-3, 1e-3 + 1e-6);
    mpfi_interv_d(p->x0->e[1], 1 - 1e-6, 1 + 1e-6);
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    dvc_status st = dvc_dlvi_events_run(r, m, p, NULL);
    CHECK(st == DVC_OK, "bridge from a box: %s", dvc_error_message());
    char b1[5][128], b2[5][128];
    for (int k = 0; k < 5; k++) {
        /* the corners as the binary numbers the box has */
        mpfi_srcptr e0 = p->x0->e[0], e1 = p->x0->e[1];
        double a = k == 4 ? mpfi_get_d(e0) : mpfr_get_d(k % 2 ? &e0->right : &e0->left, MPFR_RNDN);
        double b = k == 4 ? mpfi_get_d(e1) : mpfr_get_d(k / 2 ? &e1->right : &e1->left, MPFR_RNDN);
        /* exact decimal expansions (a double near 1e-3 has at most 62
         * significant digits) */
        mpfr_t v;
        mpfr_init2(v, 53);
        mpfr_set_d(v, a, MPFR_RNDN);
        mpfr_snprintf(b1[k], sizeof b1[k], "%.90Re", v);
        mpfr_set_d(v, b, MPFR_RNDN);
        mpfr_snprintf(b2[k], sizeof b2[k], "%.90Re", v);
        mpfr_clear(v);
    }
    long bad = 0, bad_ev = 0;
    mpfr_t x1, x2, y;
    mpfr_inits2(256, x1, x2, y, (mpfr_ptr)0);
    for (int k = 0; k < 5 && st == DVC_OK; k++) {
        ref_bridge ref;
        if (ref_bridge_init(&ref, b1[k], b2[k], 10) != 0) {
            CHECK(0, "box: reference from corner %d", k);
            continue;
        }
        for (long i = 0; i <= r->nsteps; i++) {
            ref_bridge_eval(&ref, x1, x2, y, r->t[i]);
            if (!inside_fr(r->x[i]->e[0], x1) || !inside_fr(r->x[i]->e[1], x2)) bad++;
        }
        if (ref.nseg - 1 != r->nevents) bad_ev++;
        for (long e = 0; e < r->nevents && e + 1 < ref.nseg; e++)
            if (!inside_fr(r->ev[e].t, ref.s[e + 1])) bad_ev++;
        ref_bridge_clear(&ref);
    }
    CHECK(bad == 0, "bridge from a box: %ld corner values outside the tube", bad);
    CHECK(bad_ev == 0, "bridge from a box: %ld corner crossings outside", bad_ev);
    if (st == DVC_OK)
        printf("bridge from a box (width 2e-6), T = 10: %ld events, radius at T %.2g\n",
               r->nevents, radius_at_end(r));
    mpfr_clears(x1, x2, y, (mpfr_ptr)0);
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
    /* a table in g (it would enter the switching functions): refused */
    snprintf(path, sizeof path, "%s/events/table_in_g.json", data);
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s", dvc_error_message());
    st = dvc_dlvi_events_model(m, p, NULL);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "in g"), "table in g: %d %s", (int)st,
          dvc_error_message());
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
}

/* A grazing contact (tests/data/events/grazing.json): the free motion
 * (sin t, cos t) touches the wall x1 = 1 tangentially at t = pi/2 and is
 * the exact solution (y = 0 throughout): certified through an ambiguity
 * window, with the truth inside the tube at every grid point and at 1,000
 * random times. */
static void test_grazing(const char *data)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/events/grazing.json", data);
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s: %s", path, dvc_error_message());
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    dvc_status st = dvc_dlvi_events_run(r, m, p, NULL);
    CHECK(st == DVC_OK && r->certified, "grazing: %s", dvc_error_message());
    if (st == DVC_OK) {
        mpfr_t s1, c1;
        mpfi_t tt;
        dvc_ivec_t X;
        mpfr_inits2(256, s1, c1, (mpfr_ptr)0);
        mpfi_init2(tt, 53);
        dvc_ivec_init2(X, 2, 53);
        long bad = 0, failed = 0;
        for (long i = 0; i <= r->nsteps; i++) {
            mpfr_sin_cos(s1, c1, r->t[i], MPFR_RNDN);
            if (!inside_fr(r->x[i]->e[0], s1) || !inside_fr(r->x[i]->e[1], c1)) bad++;
        }
        check_rng rng = {0x9a21ULL};
        mpfr_t t;
        mpfr_init2(t, 53);
        for (int k = 0; k < 1000; k++) {
            /* half of them within 1e-3 of the tangency */
            double tv = k % 2 ? check_rng_unif(&rng, 0, 4) : M_PI / 2 + check_rng_unif(&rng, -1e-3, 1e-3);
            mpfr_set_d(t, tv, MPFR_RNDN);
            mpfi_set_fr(tt, t);
            if (dvc_hybrid_eval(X, m, r, tt) != DVC_OK) {
                failed++;
                continue;
            }
            mpfr_sin_cos(s1, c1, t, MPFR_RNDN);
            if (!inside_fr(X->e[0], s1) || !inside_fr(X->e[1], c1)) bad++;
        }
        long nwin;
        dvc_dlvi_events_stats(m, NULL, NULL, &nwin);
        double rad = radius_at_end(r);
        CHECK(failed == 0, "grazing: %ld evaluations failed", failed);
        CHECK(bad == 0, "grazing: (sin t, cos t) outside the tube %ld times", bad);
        CHECK(nwin >= 1 && r->nwindows == nwin, "grazing: %ld windows", nwin);
        CHECK(rad <= 1e-9, "grazing: radius at T %.3g", rad);
        printf("grazing contact (tangency at pi/2), T = 4: %ld steps, %ld events, %ld windows, "
               "radius at T %.2g; (sin t, cos t) inside\n", r->nsteps, r->nevents, nwin, rad);
        mpfr_clears(s1, c1, t, (mpfr_ptr)0);
        mpfi_clear(tt);
        dvc_ivec_clear(X);
    }
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
}

/* ---- an independent reference for a table-forced problem ---------------
 * x' = -x - max(0, x - 0.5) + f(t), f piecewise linear (tests/data/events/
 * scalar_csv.json): on a segment, in the regime a = -1, c = 0 (x < 0.5) or
 * a = -2, c = 0.5 (x > 0.5), with f = v + s tau,
 *   x(tau) = e^{a tau} (x0 + (c + v)/a + s/a^2) - (c + v + s tau)/a - s/a^2,
 * at 256 bits; a crossing of x = 0.5 is found by bisection on the closed
 * form (64 samples per piece, then 240 halvings). Shares nothing with the
 * route but the table's samples. */
typedef struct {
    const dvc_tabfun_struct *tab;
    long k;             /* current segment */
    int contact;        /* regime: x > 0.5 */
    mpfr_t t, x, v, s, tk, a, c, e, w, u;
} scal_ref;

/* x at t0 + tau of the current piece from (t0, x0 = r->x), into out. */
static void scal_closed(mpfr_t out, scal_ref *r, const mpfr_t tau)
{
    mpfr_set_si(r->a, r->contact ? -2 : -1, MPFR_RNDN);
    mpfr_set_d(r->c, r->contact ? 0.5 : 0, MPFR_RNDN);
    /* v + s (t0 - t_k): the forcing at the piece's start */
    mpfr_sub(r->w, r->t, r->tk, MPFR_RNDN);
    mpfr_mul(r->w, r->w, r->s, MPFR_RNDN);
    mpfr_add(r->w, r->w, r->v, MPFR_RNDN);
    mpfr_add(r->w, r->w, r->c, MPFR_RNDN);   /* c + v0 */
    mpfr_div(r->u, r->s, r->a, MPFR_RNDN);
    mpfr_div(r->u, r->u, r->a, MPFR_RNDN);   /* s / a^2 */
    mpfr_div(r->e, r->w, r->a, MPFR_RNDN);
    mpfr_add(r->e, r->e, r->u, MPFR_RNDN);
    mpfr_add(r->e, r->e, r->x, MPFR_RNDN);   /* x0 + (c + v0)/a + s/a^2 */
    mpfr_mul(out, r->a, tau, MPFR_RNDN);
    mpfr_exp(out, out, MPFR_RNDN);
    mpfr_mul(out, out, r->e, MPFR_RNDN);
    mpfr_mul(r->e, r->s, tau, MPFR_RNDN);
    mpfr_add(r->e, r->e, r->w, MPFR_RNDN);
    mpfr_div(r->e, r->e, r->a, MPFR_RNDN);
    mpfr_sub(out, out, r->e, MPFR_RNDN);
    mpfr_sub(out, out, r->u, MPFR_RNDN);
}

/* Advance the reference to time target (>= r->t). */
static void scal_advance(scal_ref *r, const mpfr_t target)
{
    mpfr_t end, tau, lo, hi, y;
    mpfr_inits2(256, end, tau, lo, hi, y, (mpfr_ptr)0);
    while (mpfr_cmp(r->t, target) < 0) {
        while (r->k + 2 < r->tab->n && mpfr_cmp(r->t, &r->tab->t[r->k + 1]->left) >= 0) r->k++;
        mpfi_get_fr(r->tk, r->tab->t[r->k]);
        mpfi_get_fr(r->v, r->tab->v[r->k]);
        mpfi_get_fr(r->s, r->tab->slope[r->k]);
        mpfi_get_fr(end, r->tab->t[r->k + 1]);
        if (mpfr_cmp(end, target) > 0) mpfr_set(end, target, MPFR_RNDN);
        /* the first sign change of x - 0.5 among 64 samples */
        int found = 0;
        mpfr_set_ui(lo, 0, MPFR_RNDN);
        for (int j = 1; j <= 64 && !found; j++) {
            mpfr_sub(hi, end, r->t, MPFR_RNDN);
            mpfr_mul_ui(hi, hi, (unsigned long)j, MPFR_RNDN);
            mpfr_div_ui(hi, hi, 64, MPFR_RNDN);
            scal_closed(y, r, hi);
            mpfr_sub_d(y, y, 0.5, MPFR_RNDN);
            if ((mpfr_sgn(y) > 0) != r->contact && mpfr_sgn(y) != 0) found = 1;
            else mpfr_set(lo, hi, MPFR_RNDN);
        }
        if (!found) {
            mpfr_sub(tau, end, r->t, MPFR_RNDN);
            scal_closed(r->x, r, tau);
            mpfr_set(r->t, end, MPFR_RNDN);
            continue;
        }
        for (int it = 0; it < 240; it++) {
            mpfr_add(tau, lo, hi, MPFR_RNDN);
            mpfr_div_2ui(tau, tau, 1, MPFR_RNDN);
            scal_closed(y, r, tau);
            mpfr_sub_d(y, y, 0.5, MPFR_RNDN);
            if ((mpfr_sgn(y) > 0) != r->contact) mpfr_set(hi, tau, MPFR_RNDN);
            else mpfr_set(lo, tau, MPFR_RNDN);
        }
        scal_closed(r->x, r, hi);
        mpfr_add(r->t, r->t, hi, MPFR_RNDN);
        r->contact = !r->contact;
    }
    mpfr_clears(end, tau, lo, hi, y, (mpfr_ptr)0);
}

/* The route on scalar_csv.json (decimal sample times 0.13 k: every step
 * end at a sample is a window) against the closed form at 100 sorted
 * random times and at T. */
static void test_table_scalar(const char *data)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/events/scalar_csv.json", data);
    dvc_dlvi_problem_t p, p2;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    dvc_dlvi_problem_init(p2, 0, 0, 256);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s: %s", path, dvc_error_message());
    REQUIRE(dvc_problem_read(p2, path, 256) == DVC_OK, "%s: %s", path, dvc_error_message());
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    dvc_status st = dvc_dlvi_events_run(r, m, p, NULL);
    CHECK(st == DVC_OK && r->certified, "table scalar: %s", dvc_error_message());
    if (st == DVC_OK) {
        scal_ref ref;
        ref.tab = dvc_tfun_cb_vec(&p2->fcb)->fn[0].tab;
        ref.k = 0;
        ref.contact = 0;
        mpfr_inits2(256, ref.t, ref.x, ref.v, ref.s, ref.tk, ref.a, ref.c, ref.e, ref.w, ref.u,
                    (mpfr_ptr)0);
        mpfr_set_ui(ref.t, 0, MPFR_RNDN);
        mpfr_set_ui(ref.x, 0, MPFR_RNDN);
        double tend = mpfr_get_d(r->t[r->nsteps], MPFR_RNDD), ts[101];
        check_rng rng = {0x7ab1eULL};
        for (int k = 0; k < 100; k++) ts[k] = check_rng_unif(&rng, 0, tend);
        for (int k = 1; k < 100; k++) /* sort (insertion) */
            for (int j = k; j > 0 && ts[j] < ts[j - 1]; j--) {
                double z = ts[j];
                ts[j] = ts[j - 1];
                ts[j - 1] = z;
            }
        ts[100] = tend;
        mpfr_t t;
        mpfi_t tt;
        dvc_ivec_t X;
        mpfr_init2(t, 53);
        mpfi_init2(tt, 53);
        dvc_ivec_init2(X, 1, 53);
        long bad = 0, failed = 0;
        for (int k = 0; k <= 100; k++) {
            mpfr_set_d(t, ts[k], MPFR_RNDN);
            mpfi_set_fr(tt, t);
            scal_advance(&ref, t);
            if (dvc_hybrid_eval(X, m, r, tt) != DVC_OK) {
                failed++;
                continue;
            }
            if (!inside_fr(X->e[0], ref.x)) bad++;
        }
        CHECK(failed == 0, "table scalar: %ld evaluations failed", failed);
        CHECK(bad == 0, "table scalar: the closed form outside the tube %ld times", bad);
        double rad = radius_at_end(r);
        CHECK(r->nevents >= 2, "table scalar: %ld events (the test wants crossings)", r->nevents);
        CHECK(rad <= 1e-12, "table scalar: radius at T %.3g", rad);
        printf("table-forced scalar (CSV, 0.13 s samples), T = 5.85: %ld steps, %ld events, "
               "radius at T %.2g; closed form inside at 101 times\n", r->nsteps, r->nevents, rad);
        mpfr_clears(ref.t, ref.x, ref.v, ref.s, ref.tk, ref.a, ref.c, ref.e, ref.w, ref.u, (mpfr_ptr)0);
        mpfr_clear(t);
        mpfi_clear(tt);
        dvc_ivec_clear(X);
    }
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
    dvc_dlvi_problem_clear(p2);
}

/* An independent reference for a DLVI (docs/events.md section 6): no
 * intervals and no engine code. MPFR at RP bits; in a pattern P the DLVI is
 * x' = A x + B y + f(t) with y_K = c_K and y_F = -M_FF^-1 (q_F + M_FK c_K),
 * q = Q x + g(t), solved by Gaussian elimination per Taylor coefficient;
 * the series of x to order RK over steps of rh; the first sign change of a
 * switching function of P (y_i - l_i, u_i - y_i on F, w_i on L, -w_i on U)
 * located by bisection of the series; the next pattern chosen among all
 * patterns as the one whose switching functions are all lexicographically
 * nonnegative in their Taylor coefficients (the forward pattern). f and g
 * come from a callback giving their Taylor coefficients. */
#define RP 256
#define RK 24
#define RTOL "1e-45"

typedef struct dref dref;
/* fk[i * RK + k], gk[j * RK + k]: Taylor coefficient k of f_i, g_j at t */
typedef void (*ref_forcing)(const dref *d, mpfr_t *fk, mpfr_t *gk, const mpfr_t t);
struct dref {
    long n, m;
    mpfr_t *A, *B, *Q, *M, *l, *u;
    int *lfin, *ufin;
    ref_forcing fc;
    char *pat;
    mpfr_t *x, t;
    mpfr_t *xs, *ys, *ws, *fk, *gk, *sw; /* series; sw: 2 m switching functions */
    long nsw;
    mpfr_t a, b, tol;
    long events;
};

static mpfr_t *ref_vec(long k)
{
    mpfr_t *v = malloc((size_t)k * sizeof *v);
    for (long i = 0; i < k; i++) mpfr_init2(v[i], RP), mpfr_set_ui(v[i], 0, MPFR_RNDN);
    return v;
}

static void ref_vec_free(mpfr_t *v, long k)
{
    for (long i = 0; i < k; i++) mpfr_clear(v[i]);
    free(v);
}

static void ref_mid(mpfr_t *v, const dvc_imat_struct *X)
{
    for (long i = 0; i < X->r * X->c; i++) mpfi_mid(v[i], X->e[i]);
}

static void ref_init(dref *d, const dvc_dlvi_problem_t p, ref_forcing fc)
{
    long n = p->n, m = p->m;
    d->n = n;
    d->m = m;
    d->A = ref_vec(n * n), d->B = ref_vec(n * m), d->Q = ref_vec(m * n), d->M = ref_vec(m * m);
    ref_mid(d->A, p->A), ref_mid(d->B, p->B), ref_mid(d->Q, p->Q), ref_mid(d->M, p->M);
    d->l = ref_vec(m), d->u = ref_vec(m);
    d->lfin = calloc((size_t)m, sizeof(int)), d->ufin = calloc((size_t)m, sizeof(int));
    for (long i = 0; i < m; i++) {
        mpfi_mid(d->l[i], p->l->e[i]);
        mpfi_mid(d->u[i], p->u->e[i]);
        d->lfin[i] = mpfr_number_p(&p->l->e[i]->left);
        d->ufin[i] = mpfr_number_p(&p->u->e[i]->right);
    }
    d->fc = fc;
    d->pat = calloc((size_t)m + 1, 1);
    d->x = ref_vec(n);
    for (long i = 0; i < n; i++) mpfi_mid(d->x[i], p->x0->e[i]);
    mpfr_init2(d->t, RP);
    mpfr_set_ui(d->t, 0, MPFR_RNDN);
    d->xs = ref_vec(n * (RK + 1)), d->ys = ref_vec(m * RK), d->ws = ref_vec(m * RK);
    d->fk = ref_vec(n * RK), d->gk = ref_vec(m * RK), d->sw = ref_vec(2 * m * RK);
    mpfr_inits2(RP, d->a, d->b, d->tol, (mpfr_ptr)0);
    mpfr_set_str(d->tol, RTOL, 10, MPFR_RNDN);
    d->events = 0;
}

static void ref_clear(dref *d)
{
    long n = d->n, m = d->m;
    ref_vec_free(d->A, n * n), ref_vec_free(d->B, n * m), ref_vec_free(d->Q, m * n);
    ref_vec_free(d->M, m * m), ref_vec_free(d->l, m), ref_vec_free(d->u, m);
    free(d->lfin), free(d->ufin), free(d->pat);
    ref_vec_free(d->x, n);
    mpfr_clear(d->t);
    ref_vec_free(d->xs, n * (RK + 1)), ref_vec_free(d->ys, m * RK), ref_vec_free(d->ws, m * RK);
    ref_vec_free(d->fk, n * RK), ref_vec_free(d->gk, m * RK), ref_vec_free(d->sw, 2 * m * RK);
    mpfr_clears(d->a, d->b, d->tol, (mpfr_ptr)0);
}

/* y_F = -M_FF^-1 r_F in place (Gaussian elimination, partial pivoting). */
static void ref_solve_ff(dref *d, mpfr_t *r)
{
    long m = d->m, nf = 0, F[64];
    for (long i = 0; i < m; i++)
        if (d->pat[i] == 'f') F[nf++] = i;
    mpfr_t *G = ref_vec(nf * (nf + 1));
    for (long a = 0; a < nf; a++) {
        for (long b = 0; b < nf; b++) mpfr_set(G[a * (nf + 1) + b], d->M[F[a] * m + F[b]], MPFR_RNDN);
        mpfr_neg(G[a * (nf + 1) + nf], r[F[a]], MPFR_RNDN);
    }
    for (long c = 0; c < nf; c++) {
        long pv = c;
        for (long a = c + 1; a < nf; a++)
            if (mpfr_cmpabs(G[a * (nf + 1) + c], G[pv * (nf + 1) + c]) > 0) pv = a;
        for (long b = 0; b <= nf; b++) mpfr_swap(G[c * (nf + 1) + b], G[pv * (nf + 1) + b]);
        for (long a = c + 1; a < nf; a++) {
            mpfr_div(d->a, G[a * (nf + 1) + c], G[c * (nf + 1) + c], MPFR_RNDN);
            for (long b = c; b <= nf; b++) {
                mpfr_mul(d->b, d->a, G[c * (nf + 1) + b], MPFR_RNDN);
                mpfr_sub(G[a * (nf + 1) + b], G[a * (nf + 1) + b], d->b, MPFR_RNDN);
            }
        }
    }
    for (long a = nf - 1; a >= 0; a--) {
        mpfr_set(d->a, G[a * (nf + 1) + nf], MPFR_RNDN);
        for (long b = a + 1; b < nf; b++) {
            mpfr_mul(d->b, G[a * (nf + 1) + b], r[F[b]], MPFR_RNDN);
            mpfr_sub(d->a, d->a, d->b, MPFR_RNDN);
        }
        mpfr_div(r[F[a]], d->a, G[a * (nf + 1) + a], MPFR_RNDN);
    }
    ref_vec_free(G, nf * (nf + 1));
}

/* The series of x, y, w and the switching functions of d->pat at (t, x). */
static void ref_series(dref *d)
{
    long n = d->n, m = d->m;
    mpfr_t *q = ref_vec(m), *y = ref_vec(m);
    d->fc(d, d->fk, d->gk, d->t);
    for (long i = 0; i < n; i++) mpfr_set(d->xs[i * (RK + 1)], d->x[i], MPFR_RNDN);
    for (int k = 0; k < RK; k++) {
        for (long j = 0; j < m; j++) { /* q_k, then r = q + M_.K c_K on F */
            mpfr_set(q[j], d->gk[j * RK + k], MPFR_RNDN);
            for (long i = 0; i < n; i++) {
                mpfr_mul(d->a, d->Q[j * n + i], d->xs[i * (RK + 1) + k], MPFR_RNDN);
                mpfr_add(q[j], q[j], d->a, MPFR_RNDN);
            }
            mpfr_set_ui(y[j], 0, MPFR_RNDN);
            if (k == 0 && d->pat[j] == 'l') mpfr_set(y[j], d->l[j], MPFR_RNDN);
            if (k == 0 && d->pat[j] == 'u') mpfr_set(y[j], d->u[j], MPFR_RNDN);
        }
        mpfr_t *r = ref_vec(m);
        for (long j = 0; j < m; j++) {
            mpfr_set(r[j], q[j], MPFR_RNDN);
            for (long i = 0; i < m; i++)
                if (d->pat[i] != 'f') {
                    mpfr_mul(d->a, d->M[j * m + i], y[i], MPFR_RNDN);
                    mpfr_add(r[j], r[j], d->a, MPFR_RNDN);
                }
        }
        ref_solve_ff(d, r);
        for (long j = 0; j < m; j++)
            if (d->pat[j] == 'f') mpfr_set(y[j], r[j], MPFR_RNDN);
        ref_vec_free(r, m);
        for (long j = 0; j < m; j++) {
            mpfr_set(d->ys[j * RK + k], y[j], MPFR_RNDN);
            mpfr_set(d->ws[j * RK + k], q[j], MPFR_RNDN);
            for (long i = 0; i < m; i++) {
                mpfr_mul(d->a, d->M[j * m + i], y[i], MPFR_RNDN);
                mpfr_add(d->ws[j * RK + k], d->ws[j * RK + k], d->a, MPFR_RNDN);
            }
        }
        for (long i = 0; i < n; i++) {
            mpfr_ptr xk1 = d->xs[i * (RK + 1) + k + 1];
            mpfr_set(xk1, d->fk[i * RK + k], MPFR_RNDN);
            for (long j = 0; j < n; j++) {
                mpfr_mul(d->a, d->A[i * n + j], d->xs[j * (RK + 1) + k], MPFR_RNDN);
                mpfr_add(xk1, xk1, d->a, MPFR_RNDN);
            }
            for (long j = 0; j < m; j++) {
                mpfr_mul(d->a, d->B[i * m + j], y[j], MPFR_RNDN);
                mpfr_add(xk1, xk1, d->a, MPFR_RNDN);
            }
            mpfr_div_ui(xk1, xk1, (unsigned long)(k + 1), MPFR_RNDN);
        }
    }
    /* switching functions, each >= 0 in the pattern's region */
    d->nsw = 0;
    for (long j = 0; j < m; j++) {
        int which[2] = {0, 0}; /* 1: y - l, 2: u - y, 3: w, 4: -w */
        if (d->pat[j] == 'f') which[0] = d->lfin[j] ? 1 : 0, which[1] = d->ufin[j] ? 2 : 0;
        else which[0] = d->pat[j] == 'l' ? 3 : 4;
        for (int s = 0; s < 2; s++) {
            if (!which[s]) continue;
            mpfr_t *c = d->sw + d->nsw++ * RK;
            for (int k = 0; k < RK; k++) {
                mpfr_srcptr yk = d->ys[j * RK + k], wk = d->ws[j * RK + k];
                if (which[s] == 1) mpfr_set(c[k], yk, MPFR_RNDN);
                if (which[s] == 2) mpfr_neg(c[k], yk, MPFR_RNDN);
                if (which[s] == 3) mpfr_set(c[k], wk, MPFR_RNDN);
                if (which[s] == 4) mpfr_neg(c[k], wk, MPFR_RNDN);
            }
            if (which[s] == 1) mpfr_sub(c[0], c[0], d->l[j], MPFR_RNDN);
            if (which[s] == 2) mpfr_add(c[0], c[0], d->u[j], MPFR_RNDN);
        }
    }
    ref_vec_free(q, m);
    ref_vec_free(y, m);
}

static void ref_horner(mpfr_t v, const mpfr_t *c, int K, const mpfr_t s)
{
    mpfr_set(v, c[K - 1], MPFR_RNDN);
    for (int k = K - 2; k >= 0; k--) {
        mpfr_mul(v, v, s, MPFR_RNDN);
        mpfr_add(v, v, c[k], MPFR_RNDN);
    }
}

/* Every switching function of the current series lexicographically >= 0. */
static int ref_forward_ok(const dref *d)
{
    for (long s = 0; s < d->nsw; s++) {
        const mpfr_t *c = d->sw + s * RK;
        int k = 0;
        while (k < RK && mpfr_cmpabs(c[k], d->tol) <= 0) k++;
        if (k < RK && mpfr_sgn(c[k]) < 0) return 0;
    }
    return 1;
}

/* The forward pattern at (t, x): the first of all patterns that passes. */
static int ref_pick(dref *d)
{
    long m = d->m, tot = 1;
    for (long j = 0; j < m; j++) tot *= 3;
    for (long code = 0; code < tot; code++) {
        long c = code;
        int ok = 1;
        for (long j = 0; j < m; j++, c /= 3) {
            d->pat[j] = "flu"[c % 3];
            if ((d->pat[j] == 'l' && !d->lfin[j]) || (d->pat[j] == 'u' && !d->ufin[j])) ok = 0;
        }
        if (!ok) continue;
        ref_series(d);
        if (ref_forward_ok(d)) return 1;
    }
    return 0;
}

/* s where switching function c first drops below -tol on [0, h] (value
 * below -tol at h), by bisection. */
static void ref_root(dref *d, mpfr_t s, const mpfr_t *c, const mpfr_t h)
{
    mpfr_t lo, hi, v;
    mpfr_inits2(RP, lo, hi, v, (mpfr_ptr)0);
    mpfr_set_ui(lo, 0, MPFR_RNDN);
    mpfr_set(hi, h, MPFR_RNDN);
    for (int it = 0; it < 220; it++) {
        mpfr_add(s, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(s, s, 1, MPFR_RNDN);
        ref_horner(v, c, RK, s);
        mpfr_add(v, v, d->tol, MPFR_RNDN);
        if (mpfr_sgn(v) < 0) mpfr_set(hi, s, MPFR_RNDN);
        else mpfr_set(lo, s, MPFR_RNDN);
    }
    mpfr_set(s, lo, MPFR_RNDN);
    mpfr_clears(lo, hi, v, (mpfr_ptr)0);
}

/* x <- the series at s, t <- t + s. */
static void ref_move(dref *d, const mpfr_t s)
{
    for (long i = 0; i < d->n; i++) ref_horner(d->x[i], d->xs + i * (RK + 1), RK + 1, s);
    mpfr_add(d->t, d->t, s, MPFR_RNDN);
}

/* Integrate to T in steps of at most h (T and h decimal strings); 0 when
 * no forward pattern is found. */
static int ref_run(dref *d, const char *T, const char *h)
{
    mpfr_t Tf, hf, s, v, best;
    mpfr_inits2(RP, Tf, hf, s, v, best, (mpfr_ptr)0);
    mpfr_set_str(Tf, T, 10, MPFR_RNDN);
    int ok = ref_pick(d);
    while (ok && mpfr_cmp(d->t, Tf) < 0) {
        mpfr_set_str(hf, h, 10, MPFR_RNDN);
        mpfr_sub(v, Tf, d->t, MPFR_RNDN);
        if (mpfr_cmp(v, hf) < 0) mpfr_set(hf, v, MPFR_RNDN);
        ref_series(d);
        long first = -1;
        for (long k = 0; k < d->nsw; k++) {
            ref_horner(v, d->sw + k * RK, RK, hf);
            mpfr_add(v, v, d->tol, MPFR_RNDN);
            if (mpfr_sgn(v) >= 0) continue;
            ref_root(d, s, d->sw + k * RK, hf);
            if (first < 0 || mpfr_cmp(s, best) < 0) mpfr_set(best, s, MPFR_RNDN), first = k;
        }
        if (first < 0) {
            ref_move(d, hf);
            continue;
        }
        ref_move(d, best);
        d->events++;
        ok = ref_pick(d);
    }
    mpfr_clears(Tf, hf, s, v, best, (mpfr_ptr)0);
    return ok;
}

/* c[k] += coefficient k of (num / den) sin(w t + phase + q pi / 2) at t
 * (w = 2 pi nu when twopi; phase in radians): the amplitude times
 * w^k / k! sin(w t + phase + (q + k) pi / 2). */
static void ref_add_sin(mpfr_t *c, const mpfr_t t, const char *num, const char *den, const char *w,
                        int twopi, const char *phase, int q)
{
    mpfr_t A, W, ph, hp, a;
    mpfr_inits2(RP, A, W, ph, hp, a, (mpfr_ptr)0);
    mpfr_set_str(A, num, 10, MPFR_RNDN);
    mpfr_set_str(a, den, 10, MPFR_RNDN);
    mpfr_div(A, A, a, MPFR_RNDN);
    mpfr_set_str(W, w, 10, MPFR_RNDN);
    mpfr_set_str(ph, phase, 10, MPFR_RNDN);
    mpfr_const_pi(hp, MPFR_RNDN);
    if (twopi) {
        mpfr_mul(W, W, hp, MPFR_RNDN);
        mpfr_mul_2ui(W, W, 1, MPFR_RNDN);
    }
    mpfr_div_2ui(hp, hp, 1, MPFR_RNDN); /* pi / 2 */
    mpfr_fma(ph, W, t, ph, MPFR_RNDN);
    for (int k = 0; k < q; k++) mpfr_add(ph, ph, hp, MPFR_RNDN);
    for (int k = 0; k < RK; k++) {
        mpfr_sin(a, ph, MPFR_RNDN);
        mpfr_mul(a, a, A, MPFR_RNDN);
        mpfr_add(c[k], c[k], a, MPFR_RNDN);
        mpfr_mul(A, A, W, MPFR_RNDN);
        mpfr_div_ui(A, A, (unsigned long)(k + 1), MPFR_RNDN);
        mpfr_add(ph, ph, hp, MPFR_RNDN);
    }
    mpfr_clears(A, W, ph, hp, a, (mpfr_ptr)0);
}

static void ref_zero(mpfr_t *c, long k)
{
    for (long i = 0; i < k; i++) mpfr_set_ui(c[i], 0, MPFR_RNDN);
}

/* tests/data/events/building.json: a two-tone ground motion on both
 * storeys' accelerations, g = kc gap */
static void building_fc(const dref *d, mpfr_t *fk, mpfr_t *gk, const mpfr_t t)
{
    ref_zero(fk, d->n * RK);
    ref_zero(gk, d->m * RK);
    for (long i = 2; i < 4; i++) {
        ref_add_sin(fk + i * RK, t, "-2.0593965", "1", "3.1", 1, "0", 0);
        ref_add_sin(fk + i * RK, t, "-0.8825985", "1", "1.3", 1, "0.4", 0);
    }
    mpfr_set_str(gk[0], "2e7", 10, MPFR_RNDN);
}

/* certs/circuit (Example 5.3): U = cos 5t, I = sin 3t */
static void circuit_fc(const dref *d, mpfr_t *fk, mpfr_t *gk, const mpfr_t t)
{
    ref_zero(fk, d->n * RK);
    ref_zero(gk, d->m * RK);
    ref_add_sin(fk + 0 * RK, t, "-1", "2000", "5", 0, "0", 1);
    ref_add_sin(fk + 2 * RK, t, "1", "30", "3", 0, "0", 0);
    ref_add_sin(fk + 3 * RK, t, "-1", "2000", "5", 0, "0", 1);
    ref_add_sin(gk + 0 * RK, t, "-1", "100", "5", 0, "0", 1);
    ref_add_sin(gk + 2 * RK, t, "1", "1", "3", 0, "0", 0);
    ref_add_sin(gk + 3 * RK, t, "-1", "100", "5", 0, "0", 1);
}

/* The events route on path (T = Tstr) against the reference: the
 * reference state at T inside the tube at T; the radius at T checked
 * against target; at least min_windows ambiguity windows. */
static void test_vs_ref(const char *path, ref_forcing fc, const char *Tstr, const char *h,
                        const char *label, double target, long min_windows)
{
    dvc_dlvi_problem_t p, p2;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    dvc_dlvi_problem_init(p2, 0, 0, RP);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s: %s", path, dvc_error_message());
    REQUIRE(dvc_problem_read(p2, path, RP) == DVC_OK, "%s: %s", path, dvc_error_message());
    mpfi_set_str(p->T, Tstr, 10);
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    double secs;
    dvc_status st = timed_run(r, m, p, &secs);
    CHECK(st == DVC_OK, "%s: %s", label, dvc_error_message());
    if (st == DVC_OK) {
        dref d;
        ref_init(&d, p2, fc);
        int ok = ref_run(&d, Tstr, h);
        CHECK(ok, "%s: the reference found no forward pattern at t = %g", label,
              mpfr_get_d(d.t, MPFR_RNDN));
        const dvc_ivec_struct *X = r->x[r->nsteps];
        long out = 0;
        for (long i = 0; ok && i < p->n; i++) out += !inside_fr(X->e[i], d.x[i]);
        double rad = radius_at_end(r);
        printf("%s: %ld steps, %ld events (reference %ld), %ld windows, radius at T %.3g, "
               "%.2f s\n", label, r->nsteps, r->nevents, d.events, r->nwindows, rad, secs);
        CHECK(out == 0, "%s: the reference at T lies outside the tube in %ld states", label, out);
        CHECK(rad <= target, "%s: radius at T %.3g > %.3g", label, rad, target);
        CHECK(r->nwindows >= min_windows, "%s: %ld windows, expected >= %ld", label,
              r->nwindows, min_windows);
        ref_clear(&d);
    }
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
    dvc_dlvi_problem_clear(p2);
}

/* Pending neighbours (dvc_hybrid_add_mode_pending): a run enters only
 * filled modes, leaves most neighbours pending, and a second run on the
 * same model with every mode filled gives the same grid, modes, events
 * and bounds bit for bit (the step does not depend on which modes were
 * built before the run). */
static long result_diff(const dvc_hybrid_result_struct *a, const dvc_hybrid_result_struct *b)
{
    long d = (a->nsteps != b->nsteps) + (a->nevents != b->nevents);
    for (long i = 0; !d && i <= a->nsteps; i++) {
        d += !mpfr_equal_p(a->t[i], b->t[i]) + (i < a->nsteps && a->mode[i] != b->mode[i]);
        for (long j = 0; j < a->x[i]->n; j++)
            d += !mpfr_equal_p(&a->x[i]->e[j]->left, &b->x[i]->e[j]->left) +
                 !mpfr_equal_p(&a->x[i]->e[j]->right, &b->x[i]->e[j]->right);
    }
    for (long k = 0; !d && k < a->nevents; k++)
        d += !mpfr_equal_p(&a->ev[k].t->left, &b->ev[k].t->left) +
             !mpfr_equal_p(&a->ev[k].t->right, &b->ev[k].t->right) +
             (a->ev[k].mode_after != b->ev[k].mode_after);
    return d;
}

static void test_pending(const char *data)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/events/chain8.json", data);
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s", dvc_error_message());
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r, r2;
    dvc_hybrid_result_init(r);
    dvc_hybrid_result_init(r2);
    dvc_status st = dvc_dlvi_events_run(r, m, p, NULL);
    REQUIRE(st == DVC_OK, "chain k = 8: %s", dvc_error_message());
    long entered_pending = 0, pending = 0;
    for (long i = 0; i < r->nsteps; i++) entered_pending += m->modes[r->mode[i]].pending;
    for (long k = 0; k < r->nevents; k++) entered_pending += m->modes[r->ev[k].mode_after].pending;
    for (long k = 0; k < m->nmodes; k++) pending += m->modes[k].pending;
    CHECK(entered_pending == 0, "%ld steps or events in a pending mode", entered_pending);
    CHECK(pending > 0, "no mode left pending (%ld modes)", m->nmodes);
    CHECK(m->fill && dvc_hybrid_fill_mode_affine(m, r->mode[0], m->modes[0].A, NULL) == DVC_ERR_INPUT,
          "filling a filled mode was not refused");
    dvc_error_reset();
    for (long k = 0; k < m->nmodes && st == DVC_OK; k++)
        if (m->modes[k].pending) st = m->fill(k, m->expand_ctx);
    CHECK(st == DVC_OK, "filling the pending modes: %s", dvc_error_message());
    for (long k = 0; k < m->nmodes; k++)
        CHECK(!m->modes[k].pending && m->modes[k].A->r == m->n, "mode %ld not filled", k);
    st = dvc_hybrid_enclose(r2, m);
    CHECK(st == DVC_OK, "second run: %s", dvc_error_message());
    long d = result_diff(r, r2);
    CHECK(d == 0, "the run with every mode filled differs in %ld places", d);
    printf("pending modes: %ld of %ld never entered on chain k = 8 (%ld events); filled, the "
           "run is the same bit for bit\n", pending, m->nmodes, r->nevents);
    dvc_hybrid_result_clear(r);
    dvc_hybrid_result_clear(r2);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
}

int main(int argc, char **argv)
{
    char path[1024];
    if (argc < 3) {
        fprintf(stderr, "usage: test_events CERTS_DIR DATA_DIR\n");
        return 2;
    }
    test_affine_mode();
    test_bridge(argv[1], "gamma0.2.json", "0.2");
    test_bridge(argv[1], "gamma1.0.json", "1");
    test_bridge(argv[1], "gamma2.0.json", "2");
    test_degenerate(argv[1]);
    test_box(argv[1], argv[2]);
    test_pending(argv[2]);
    /* the circuit (Example 5.3): f and g depend on t (the switching
     * functions carry g(t)); 10 periods of sin 3t. From V_C(0) = 0.5 the
     * start is strict; from the paper's V_C(0) = 0 index 3 starts exactly on
     * its surface, and its side cannot be proven (the enclosure of y3 - 0
     * straddles 0 by rounding): an ambiguity window from t = 0 bridges it
     * (docs/events.md section 3), against the independent 256-bit reference */
    snprintf(path, sizeof path, "%s/circuit/circuit_long.json", argv[1]);
    test_vs256(path, "0.5", "circuit from V_C = 0.5, T = 21 (10 periods)", 1e-10, 0);
    test_vs_ref(path, circuit_fc, "21", "0.01", "circuit from V_C = 0, T = 21 (10 periods)", 1e-10, 1);
    /* stiff patterns (docs/events.md section 6): a 2-storey shear building
     * in SI units pounding a neighbour through a 1e9 N/m contact */
    snprintf(path, sizeof path, "%s/events/building.json", argv[2]);
    test_vs_ref(path, building_fc, "10", "0.001", "building (SI, contact 1e9 N/m), T = 10", 1e-6, 0);
    /* pounding (Example 5.2, published parameters), three-tone ground motion */
    snprintf(path, sizeof path, "%s/events/pounding3.json", argv[2]);
    test_vs256(path, NULL, "pounding, three tones, T = 20", 1e-9, 0);
    /* tables (CSV, AT2): sample times are forced step ends, their windows
     * bridged (docs/events.md section 4) */
    test_table_scalar(argv[2]);
    snprintf(path, sizeof path, "%s/events/pounding_csv.json", argv[2]);
    test_vs256(path, NULL, "pounding, three tones as a CSV table (0.007 s), T = 5.99", 1e-9, 0);
    snprintf(path, sizeof path, "%s/pounding/pounding.json", argv[1]);
    test_vs256(path, NULL, "pounding, synthetic AT2 record, T = 1", 1e-12, 0);
    /* ambiguity windows (docs/events.md section 3): two contacts closing at
     * the same instant, and a grazing contact */
    snprintf(path, sizeof path, "%s/events/chain8.json", argv[2]);
    test_vs256(path, NULL, "chain k = 8, symmetric (simultaneous contacts), T = 0.5", 1e-9, 1);
    test_grazing(argv[2]);
    return check_report();
}
