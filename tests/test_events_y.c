/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The y tube of the DLVI events route (dvc_dlvi_events_tube; a
 * certificate of the route opened with dvc_cert_open) against references
 * that do not use the pattern maps:
 *  - the bridge (Chen & Wang, Example 5.1, x(0) = (0, gamma), gamma = 0.2,
 *    1, 2, T = 10): y = max(0, -3 x1) from the closed form of x1
 *    (tests/ref_bridge.c, 256 bits) at 1,000 random times inside
 *    dvc_tube_outer(.., 1) of the tube read from the certificate, at every
 *    grid point, over every step, at every event; and inside the tube with
 *    the evaluators (the flow and the pattern map at the time), which must
 *    be tight there;
 *  - the pounding example (tests/data/events/pounding3.json, T = 20): y from
 *    a certified 256-bit LVI solve at the state of a 256-bit run, at a few
 *    times and at T;
 *  - a grazing contact (y = 0) through its ambiguity window;
 *  - a plain hybrid certificate (certs/bridge-switched) keeps m = 0.
 * Usage: test_events_y CERTS_DIR DATA_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "ref_bridge.h"
#include "dvicert/certio.h"
#include "dvicert/enclose.h"
#include "dvicert/events.h"
#include "dvicert/lvi.h"
#include "dvicert/problem.h"

static char dir[] = "/tmp/dvc_test_events_y.XXXXXX";

static int inside_fr(mpfi_srcptr X, const mpfr_t v)
{
    return mpfr_cmp(&X->left, v) <= 0 && mpfr_cmp(v, &X->right) <= 0;
}

static int inside_lh(mpfr_srcptr lo, mpfr_srcptr hi, const mpfr_t v)
{
    return mpfr_cmp(lo, v) <= 0 && mpfr_cmp(v, hi) <= 0;
}

/* The certificate of the events route of the problem file prob. */
static void enclose_events(const char *prob, const char *cert)
{
    dvc_enclose_opts o;
    dvc_enclose_opts_init(&o);
    o.route = DVC_ENCLOSE_EVENTS;
    dvc_cert_t c;
    dvc_cert_init(c);
    dvc_status st = dvc_enclose(c, prob, &o, cert, NULL);
    dvc_cert_clear(c);
    REQUIRE(st == DVC_OK, "%s: enclose: %s", prob, dvc_error_message());
}

/* The problem file with x(0) = (0, gamma) and its certificate of the
 * events route. */
static void write_cert(char *cert, size_t cap, const char *data, const char *gamma)
{
    char src[1024], prob[1024], buf[8192];
    snprintf(src, sizeof src, "%s/events/bridge.json", data);
    FILE *f = fopen(src, "r");
    REQUIRE(f != NULL, "%s", src);
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    char *x0 = strstr(buf, "\"x0\": [0, 1]");
    REQUIRE(x0 != NULL, "%s: no x0 [0, 1]", src);
    snprintf(prob, sizeof prob, "%s/bridge%s.json", dir, gamma);
    f = fopen(prob, "w");
    REQUIRE(f != NULL, "%s", prob);
    fprintf(f, "%.*s\"x0\": [0, %s]%s", (int)(x0 - buf), buf, gamma, x0 + strlen("\"x0\": [0, 1]"));
    fclose(f);
    snprintf(cert, cap, "%s/bridge%s.cert.json", dir, gamma);
    enclose_events(prob, cert);
}

/* y of the bridge at t, from the closed form of x1 alone: the LVI
 * 0 <= y _|_ y + 3 x1 >= 0 solved by hand, y = max(0, -3 x1). */
static void bridge_y(const ref_bridge *ref, mpfr_t y, const mpfr_t t)
{
    mpfr_t x1, x2, yr;
    mpfr_inits2(REF_PREC, x1, x2, yr, (mpfr_ptr)0);
    ref_bridge_eval(ref, x1, x2, yr, t);
    mpfr_mul_si(y, x1, -3, MPFR_RNDN);
    if (mpfr_sgn(y) < 0) mpfr_set_zero(y, 1);
    mpfr_clears(x1, x2, yr, (mpfr_ptr)0);
}

static void test_bridge_cert(const char *data, const char *gamma)
{
    char cert[1024];
    write_cert(cert, sizeof cert, data, gamma);
    dvc_tube_t tb;
    dvc_cert_kind kind;
    dvc_tube_init(tb);
    dvc_status st = dvc_cert_open(tb, &kind, cert, 1);
    REQUIRE(st == DVC_OK, "gamma = %s: open: %s", gamma, dvc_error_message());
    CHECK(kind == DVC_CERT_KIND_HYBRID && tb->m == 1 && tb->yg && tb->ys,
          "gamma = %s: the events certificate's tube has no y tube (m = %ld)", gamma, tb->m);
    ref_bridge ref;
    REQUIRE(ref_bridge_init(&ref, "0", gamma, 10) == 0, "bridge reference gamma = %s", gamma);
    mpfr_t t, y, lo[1], hi[1];
    mpfi_t tt;
    dvc_ivec_t Y;
    mpfr_init2(y, REF_PREC);
    mpfr_init2(t, 53);
    mpfr_init2(lo[0], 53);
    mpfr_init2(hi[0], 53);
    mpfi_init2(tt, 53);
    dvc_ivec_init2(Y, 1, 53);
    long bad = 0, failed = 0, bad_grid = 0, bad_step = 0, bad_ev = 0;
    check_rng rng = {0x9e3779b9ULL + (unsigned long long)strlen(gamma)};
    for (int k = 0; k < 1000; k++) {
        mpfr_set_d(t, check_rng_unif(&rng, 0, 10), MPFR_RNDN);
        mpfi_set_fr(tt, t);
        bridge_y(&ref, y, t);
        if (dvc_tube_outer(Y, tb, tt, 1) != DVC_OK) failed++;
        else if (!inside_fr(Y->e[0], y)) bad++;
    }
    /* every grid point and step: the grid times are exact binary numbers */
    for (long i = 0; i <= tb->N; i++) {
        dvc_tube_grid(lo, hi, tb, i, 1);
        bridge_y(&ref, y, tb->t[i]);
        if (!inside_lh(lo[0], hi[0], y)) bad_grid++;
        if (i == 0) continue;
        dvc_tube_step_hull(lo, hi, tb, i, 1);
        for (int q = 0; q <= 8; q++) {
            /* nine times of the step, the ends included */
            mpfr_sub(t, tb->t[i], tb->t[i - 1], MPFR_RNDN);
            mpfr_mul_d(t, t, q / 8.0, MPFR_RNDN);
            mpfr_add(t, t, tb->t[i - 1], MPFR_RNDN);
            if (q == 8) mpfr_set(t, tb->t[i], MPFR_RNDN);
            bridge_y(&ref, y, t);
            if (!inside_lh(lo[0], hi[0], y)) bad_step++;
        }
    }
    /* every event: y at the reference's crossing time */
    for (long k = 0; k < tb->nev && k + 1 < ref.nseg; k++) {
        bridge_y(&ref, y, ref.s[k + 1]);
        if (tb->ev[k].y->n != 1 || !inside_fr(tb->ev[k].y->e[0], y)) bad_ev++;
    }
    CHECK(failed == 0, "gamma = %s: %ld y evaluations failed", gamma, failed);
    CHECK(bad == 0, "gamma = %s: y outside the certificate's y tube at %ld of 1000 times", gamma, bad);
    CHECK(bad_grid == 0, "gamma = %s: y outside at %ld grid points", gamma, bad_grid);
    CHECK(bad_step == 0, "gamma = %s: y outside the step hull at %ld times", gamma, bad_step);
    CHECK(tb->nev == ref.nseg - 1 && bad_ev == 0, "gamma = %s: %ld of %ld events without y inside",
          gamma, bad_ev, tb->nev);
    /* a sample moved off by 1e-6 is outside the inner edges */
    mpfr_set_d(t, 0.3, MPFR_RNDN);
    mpfi_set_fr(tt, t);
    bridge_y(&ref, y, t);
    CHECK(dvc_tube_inner(lo, hi, tb, tt, 1) == DVC_OK, "gamma = %s: inner y", gamma);
    mpfr_add_d(y, y, 1e-6, MPFR_RNDN);
    CHECK(!inside_lh(lo[0], hi[0], y), "gamma = %s: y + 1e-6 at t = 0.3 inside the y tube", gamma);
    printf("bridge gamma = %-3s: y of the certificate's tube holds the closed form at 1000 random "
           "times, %ld grid points, %ld steps, %ld events\n", gamma, tb->N + 1, tb->N, tb->nev);
    ref_bridge_clear(&ref);
    dvc_ivec_clear(Y);
    mpfi_clear(tt);
    mpfr_clears(t, y, lo[0], hi[0], (mpfr_ptr)0);
    dvc_tube_clear(tb);
}

/* The tube with the evaluators (flow, pattern map at the time): the
 * closed form inside, and tight (the width of x's enclosure times |Q|). */
static void test_bridge_eval(const char *data)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/events/bridge.json", data);
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s: %s", path, dvc_error_message());
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_flow_ref flow;
    dvc_tube_t tb;
    dvc_hybrid_result_init(r);
    dvc_tube_init(tb);
    dvc_status st = dvc_dlvi_events_run(r, m, p, NULL);
    REQUIRE(st == DVC_OK, "bridge: %s", dvc_error_message());
    st = dvc_dlvi_events_tube(tb, m, r, &flow);
    CHECK(st == DVC_OK && tb->m == 1 && tb->yeval != NULL, "bridge: tube with evaluators: %s",
          dvc_error_message());
    ref_bridge ref;
    REQUIRE(ref_bridge_init(&ref, "0", "1", 10) == 0, "bridge reference");
    mpfr_t t, y;
    mpfi_t tt;
    dvc_ivec_t Y;
    mpfr_init2(y, REF_PREC);
    mpfr_init2(t, 53);
    mpfi_init2(tt, 53);
    dvc_ivec_init2(Y, 1, 53);
    long bad = 0, failed = 0;
    double wmax = 0;
    check_rng rng = {0x5151ULL};
    for (int k = 0; k < 1000 && st == DVC_OK; k++) {
        mpfr_set_d(t, check_rng_unif(&rng, 0, 10), MPFR_RNDN);
        mpfi_set_fr(tt, t);
        bridge_y(&ref, y, t);
        if (dvc_tube_outer(Y, tb, tt, 1) != DVC_OK) {
            failed++;
            continue;
        }
        if (!inside_fr(Y->e[0], y)) bad++;
        double w = mpfr_get_d(&Y->e[0]->right, MPFR_RNDU) - mpfr_get_d(&Y->e[0]->left, MPFR_RNDD);
        if (w > wmax) wmax = w;
    }
    /* over an interval across the first crossing (pi/2): both patterns */
    mpfi_interv_d(tt, 1.5, 1.6);
    st = dvc_tube_outer(Y, tb, tt, 1);
    mpfr_set_d(t, 1.6, MPFR_RNDN);
    bridge_y(&ref, y, t);
    CHECK(st == DVC_OK && inside_fr(Y->e[0], y) && mpfr_sgn(&Y->e[0]->left) <= 0,
          "bridge: y over [1.5, 1.6] (across pi/2)");
    CHECK(failed == 0, "bridge: %ld evaluations failed", failed);
    CHECK(bad == 0, "bridge: y outside the evaluated y tube at %ld of 1000 times", bad);
    CHECK(wmax <= 1e-12, "bridge: evaluated y tube %.3g wide at a time (> 1e-12)", wmax);
    printf("bridge gamma = 1  : evaluated y tube holds the closed form at 1000 times, widest %.3g\n",
           wmax);
    ref_bridge_clear(&ref);
    dvc_ivec_clear(Y);
    mpfi_clear(tt);
    mpfr_clears(t, y, (mpfr_ptr)0);
    dvc_tube_clear(tb);
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
}

/* The pounding example: y from a 256-bit LVI solve at the state of a
 * 256-bit run (no pattern map used), inside the y tube of the 53-bit
 * certificate. */
static void test_pounding(const char *data)
{
    char path[1024], cert[1024];
    snprintf(path, sizeof path, "%s/events/pounding3.json", data);
    snprintf(cert, sizeof cert, "%s/pounding.cert.json", dir);
    enclose_events(path, cert);
    dvc_status st;
    dvc_tube_t tb, te;
    dvc_tube_init(tb);
    dvc_tube_init(te);
    REQUIRE(dvc_cert_open(tb, NULL, cert, 0) == DVC_OK, "pounding: open: %s", dvc_error_message());
    /* the same at 53 bits with the evaluators */
    dvc_dlvi_problem_t p53;
    dvc_hybrid_model_t m53;
    dvc_hybrid_result_t r53;
    dvc_hybrid_flow_ref flow;
    dvc_dlvi_problem_init(p53, 0, 0, 53);
    REQUIRE(dvc_problem_read(p53, path, 53) == DVC_OK, "%s: %s", path, dvc_error_message());
    dvc_hybrid_result_init(r53);
    REQUIRE(dvc_dlvi_events_run(r53, m53, p53, NULL) == DVC_OK, "pounding: %s", dvc_error_message());
    REQUIRE(dvc_dlvi_events_tube(te, m53, r53, &flow) == DVC_OK, "pounding: tube: %s", dvc_error_message());
    /* the 256-bit run */
    mpfr_prec_t saved = dvc_prec_get();
    dvc_prec_set(256);
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 0, 0, 256);
    REQUIRE(dvc_problem_read(p, path, 256) == DVC_OK, "%s: %s", path, dvc_error_message());
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    st = dvc_dlvi_events_run(r, m, p, NULL);
    REQUIRE(st == DVC_OK, "pounding at 256 bits: %s", dvc_error_message());
    long n = p->n, mm = p->m;
    CHECK(tb->m == mm, "pounding: the tube has m = %ld, the problem %ld", tb->m, mm);
    dvc_lvi_solver_t sv;
    dvc_lvi_result_t lr;
    REQUIRE(dvc_lvi_solver_init2(sv, p->M, p->l, p->u, 256) == DVC_OK, "pounding: LVI solver");
    dvc_lvi_result_init2(lr, mm, 256);
    dvc_ivec_t X, q, G, Y;
    dvc_ivec_init2(X, n, 256);
    dvc_ivec_init2(q, mm, 256);
    dvc_ivec_init2(G, mm, 256);
    dvc_ivec_init2(Y, mm, 53);
    mpfi_t tt, t53;
    mpfi_init2(tt, 256);
    mpfi_init2(t53, 53);
    double wref = 0, wtube = 0, weval = 0;
    long bad_e = 0, bad = 0, failed = 0, loose = 0;
    static const double times[] = {0.5, 1.25, 2.5, 4, 7.75, 10, 13.5, 16, 19.25, 20};
    for (int k = 0; k < 10; k++) {
        mpfi_set_d(tt, times[k]);
        mpfi_set_d(t53, times[k]);
        st = dvc_hybrid_eval(X, m, r, tt);
        if (st == DVC_OK) {
            dvc_imat_mul_vec(q, p->Q, X);
            if (p->gcb.eval && (st = p->gcb.eval(G, tt, p->gcb.ctx)) == DVC_OK) dvc_ivec_add(q, q, G);
        }
        if (st == DVC_OK) st = dvc_lvi_solve(lr, sv, q, NULL);
        if (st == DVC_OK) st = dvc_tube_outer(Y, te, t53, 1);
        for (long i = 0; st == DVC_OK && i < mm; i++) {
            double w = mpfr_get_d(&Y->e[i]->right, MPFR_RNDU) - mpfr_get_d(&Y->e[i]->left, MPFR_RNDD);
            if (!inside_fr(Y->e[i], &lr->y->e[i]->left) || !inside_fr(Y->e[i], &lr->y->e[i]->right))
                bad_e++;
            if (w > weval) weval = w;
        }
        if (st == DVC_OK) st = dvc_tube_outer(Y, tb, t53, 1);
        if (st != DVC_OK) {
            failed++;
            continue;
        }
        for (long i = 0; i < mm; i++) {
            /* the whole reference enclosure inside: the true y is */
            if (!inside_fr(Y->e[i], &lr->y->e[i]->left) || !inside_fr(Y->e[i], &lr->y->e[i]->right))
                bad++;
            double wr = mpfr_get_d(&lr->y->e[i]->right, MPFR_RNDU) - mpfr_get_d(&lr->y->e[i]->left, MPFR_RNDD);
            double wt = mpfr_get_d(&Y->e[i]->right, MPFR_RNDU) - mpfr_get_d(&Y->e[i]->left, MPFR_RNDD);
            if (wr > wref) wref = wr;
            if (wt > wtube) wtube = wt;
            if (wr > wt) loose++;
        }
    }
    CHECK(failed == 0, "pounding: %ld evaluations failed: %s", failed, dvc_error_message());
    CHECK(bad == 0, "pounding: the 256-bit y outside the certificate's y tube %ld times", bad);
    CHECK(loose == 0, "pounding: the 256-bit reference wider than the tube %ld times", loose);
    CHECK(bad_e == 0, "pounding: the 256-bit y outside the evaluated y tube %ld times", bad_e);
    CHECK(weval <= 1e-8, "pounding: the evaluated y tube %.3g wide (> 1e-8)", weval);
    printf("pounding T = 20: the 256-bit LVI solve (widest %.3g) at 10 times inside the y tube of the "
           "certificate (hull of the step boxes, widest %.3g) and the evaluated one (widest %.3g)\n",
           wref, wtube, weval);
    mpfi_clear(tt);
    mpfi_clear(t53);
    dvc_ivec_clear(X);
    dvc_ivec_clear(q);
    dvc_ivec_clear(G);
    dvc_ivec_clear(Y);
    dvc_lvi_result_clear(lr);
    dvc_lvi_solver_clear(sv);
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
    dvc_prec_set(saved);
    dvc_tube_clear(tb);
    dvc_tube_clear(te);
    dvc_hybrid_result_clear(r53);
    dvc_hybrid_model_clear(m53);
    dvc_dlvi_problem_clear(p53);
}

/* A grazing contact (tests/data/events/grazing.json): y = 0 throughout
 * (the free motion (sin t, cos t) touches the wall x1 = 1 at pi/2); the
 * touch is bridged by an ambiguity window, where y is the LVI solution over
 * the step box. y = 0 inside at 1,000 random times and over every step,
 * from the certificate and with the evaluators. */
static void test_grazing(const char *data)
{
    char path[1024], cert[1024];
    snprintf(path, sizeof path, "%s/events/grazing.json", data);
    snprintf(cert, sizeof cert, "%s/grazing.cert.json", dir);
    enclose_events(path, cert);
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "%s: %s", path, dvc_error_message());
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_flow_ref flow;
    dvc_hybrid_result_init(r);
    REQUIRE(dvc_dlvi_events_run(r, m, p, NULL) == DVC_OK, "grazing: %s", dvc_error_message());
    CHECK(r->nwindows >= 1, "grazing: no ambiguity window (%ld)", r->nwindows);
    dvc_tube_t tb[2];
    dvc_tube_init(tb[0]);
    dvc_tube_init(tb[1]);
    REQUIRE(dvc_cert_open(tb[0], NULL, cert, 1) == DVC_OK, "grazing: open: %s", dvc_error_message());
    REQUIRE(dvc_dlvi_events_tube(tb[1], m, r, &flow) == DVC_OK, "grazing: tube: %s", dvc_error_message());
    mpfr_t zero, lo[1], hi[1];
    mpfi_t tt;
    dvc_ivec_t Y;
    mpfr_init2(zero, 53);
    mpfr_set_zero(zero, 1);
    mpfr_init2(lo[0], 53);
    mpfr_init2(hi[0], 53);
    mpfi_init2(tt, 53);
    dvc_ivec_init2(Y, 1, 53);
    long bad = 0, failed = 0;
    double wwin = 0;
    check_rng rng = {0x6a7aULL};
    for (int k = 0; k < 1000; k++) {
        mpfi_set_d(tt, check_rng_unif(&rng, 0, 4));
        for (int w = 0; w < 2; w++) {
            if (dvc_tube_outer(Y, tb[w], tt, 1) != DVC_OK) failed++;
            else if (!inside_fr(Y->e[0], zero)) bad++;
        }
    }
    for (int w = 0; w < 2; w++)
        for (long i = 1; i <= tb[w]->N; i++) {
            dvc_tube_step_hull(lo, hi, tb[w], i, 1);
            if (!inside_lh(lo[0], hi[0], zero)) bad++;
        }
    for (long k = 0; k < r->nwindows; k++) {
        /* the window's step: y from the LVI over its box, 0 inside */
        dvc_tube_step_hull(lo, hi, tb[1], r->wstep[k] + 1, 1);
        double wd = mpfr_get_d(hi[0], MPFR_RNDU) - mpfr_get_d(lo[0], MPFR_RNDD);
        if (wd > wwin) wwin = wd;
    }
    CHECK(failed == 0, "grazing: %ld y evaluations failed", failed);
    CHECK(bad == 0, "grazing: y = 0 outside the y tube %ld times", bad);
    printf("grazing: y = 0 inside the y tube (certificate and evaluated) at 1000 times and every "
           "step; %ld window(s), y over the window %.3g wide\n", r->nwindows, wwin);
    dvc_ivec_clear(Y);
    mpfi_clear(tt);
    mpfr_clears(zero, lo[0], hi[0], (mpfr_ptr)0);
    dvc_tube_clear(tb[0]);
    dvc_tube_clear(tb[1]);
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
}

/* A hybrid certificate of another kind keeps m = 0 and no y tube. */
static void test_plain_hybrid(const char *certs)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/bridge-switched/bridge-switched.cert.json", certs);
    if (access(path, R_OK) != 0) {
        printf("skipped: %s not found\n", path);
        return;
    }
    dvc_tube_t tb;
    dvc_tube_init(tb);
    CHECK(dvc_cert_open(tb, NULL, path, 0) == DVC_OK, "%s: %s", path, dvc_error_message());
    CHECK(tb->m == 0 && !tb->yg && !tb->ys && !tb->yeval, "a plain hybrid tube got y (m = %ld)", tb->m);
    dvc_tube_clear(tb);
}

int main(int argc, char **argv)
{
    REQUIRE(argc == 3, "usage: test_events_y CERTS_DIR DATA_DIR");
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp");
    test_bridge_cert(argv[2], "0.2");
    test_bridge_cert(argv[2], "1");
    test_bridge_cert(argv[2], "2");
    test_bridge_eval(argv[2]);
    test_pounding(argv[2]);
    test_grazing(argv[2]);
    test_plain_hybrid(argv[1]);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_report();
}
