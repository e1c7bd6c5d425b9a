/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Checking trajectories against a tube (dvc_traj_check, dvc_tube_inner):
 * no false violations where the tube is exactly attained or has zero width,
 * references computed independently at 512 bits from the stored points.
 *   1. an exact equilibrium (eps_x = 0 with --sharpen): x0 everywhere inside,
 *      x0 + 1e-30 outside;
 *   2. x' = max(t, 2t - 1/2) at h = 1e-3: samples 1e-17 inside either edge
 *      of the tube are reported inside with margin ~1e-17;
 *   3. randomized: a tube built in memory whose radius is the closed-form
 *      interpolation error of x = (sin t, t^3) times (1 + 1e-10); exact
 *      solutions at 10,000 random times and at the points where the bound
 *      is attained are inside; a radius 1e-10 too small is caught;
 *   4. the tube of an engine result (dvc_dlvi_tube) encloses the
 *      exact solution and its inner part lies in its outer part;
 *   5. the CSV reader with state names (dvc_traj_read_named): names and
 *      x1..xn headers, any order, t in [t0, T]; dvc_traj_read keeps x1..xn;
 *   6. a non-uniform grid (dvc_tube_set_times) against hand-computed edges,
 *      and a uniform grid given as times identical to the uniform tube;
 *   7. an enclosure tube (grid and step boxes, an evaluator). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dvicert/certio.h"
#include "io/problem_json.h"
#include "dvicert/traj.h"
#include "enclose_call.h"

#define RP 512 /* reference precision */

static uint64_t rng_state = 20261126;
static double rng_unit(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

static char dir[64];

static void write_file(char *path, size_t cap, const char *name, const char *text)
{
    FILE *f;
    snprintf(path, cap, "%s/%s", dir, name);
    f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* ---- 1. exact equilibrium ---------------------------------------------- */

static void test_equilibrium(void)
{
    char path[256];
    dvc_cert_t c;
    dvc_traj_t tr;
    dvc_traj_report rep;
    /* x' = -x + y + 1, y = max(0, x - 1) ... at x0 = 1: y = 0, x' = 0 */
    write_file(path, sizeof path, "eq.json",
               "{\"A\": [[-1]], \"B\": [[1]], \"f\": [\"1\"], \"Q\": [[1]], \"M\": [[1]], "
               "\"g\": [\"-1\"], \"l\": [0], \"u\": [\"inf\"], \"x0\": [1], \"T\": \"1\", "
               "\"N\": 100, \"theta\": 1}\n");
    dvc_cert_init(c);
    REQUIRE(enclose_cw(c, path, NULL, 0, 0, 1) == DVC_OK, "enclose: %s", dvc_error_message());
    for (long i = 0; i <= c->N; i++)
        REQUIRE(mpfr_zero_p(&c->tube->eps_x[i]->right), "eps_x^%ld should be 0 (exact equilibrium)", i);
    for (int pert = 0; pert < 2; pert++) {
        dvc_traj_init(tr);
        REQUIRE(dvc_traj_alloc(tr, 1002, 1, 0, c->prec + DVC_TRAJ_EXTRA_BITS) == DVC_OK, "alloc");
        for (long s = 0; s < tr->ns; s++) {
            char buf[40];
            if (s == 0) snprintf(buf, sizeof buf, "0");
            else if (s == 1) snprintf(buf, sizeof buf, "1");
            else snprintf(buf, sizeof buf, "%.17g", rng_unit());
            REQUIRE(dvc_ival_set_str(tr->t[s], buf) == DVC_OK, "t");
            REQUIRE(dvc_ival_set_str(tr->v[s], pert ? "1.000000000000000000000000000001" : "1") == DVC_OK, "v");
        }
        REQUIRE(dvc_traj_check(&rep, tr, c->tube, 5) == DVC_OK, "check: %s", dvc_error_message());
        if (!pert) {
            CHECK(rep.nviol == 0 && rep.worst_x == 0, "equilibrium: %ld violations, worst margin %g",
                  rep.nviol, rep.worst_x);
        } else {
            CHECK(rep.nviol == tr->ns && rep.nviol_samples == tr->ns && rep.nstored == 5 &&
                      rep.worst_x < 0 && rep.worst_x > -1e-29,
                  "x0 + 1e-30: %ld violations (%ld stored), worst %g", rep.nviol, rep.nstored, rep.worst_x);
        }
        dvc_traj_report_clear(&rep);
        dvc_traj_clear(tr);
    }
    dvc_cert_clear(c);
}

/* ---- 2. x' = max(t, 2t - 1/2) at h = 1e-3: samples 1e-17 inside the edges */

static void test_max_edges(void)
{
    char path[256];
    dvc_cert_t c;
    dvc_traj_t tr;
    dvc_traj_report rep;
    long ns = 2000;
    mpfr_t t, xh, e, v, d;
    write_file(path, sizeof path, "max.json",
               "{\"A\": [[0]], \"B\": [[1]], \"f\": [\"t\"], \"Q\": [[0]], \"M\": [[1]], "
               "\"g\": [\"1/2 - t\"], \"l\": [0], \"u\": [\"inf\"], \"x0\": [0], \"T\": \"1\", "
               "\"N\": 1000, \"theta\": 1}\n");
    dvc_cert_init(c);
    REQUIRE(enclose_cw(c, path, NULL, 0, 0, 0) == DVC_OK, "enclose: %s", dvc_error_message());
    dvc_traj_init(tr);
        REQUIRE(dvc_traj_alloc(tr, ns, 1, 0, c->prec + DVC_TRAJ_EXTRA_BITS) == DVC_OK, "alloc");
    mpfr_inits2(RP, t, xh, e, v, d, (mpfr_ptr)0);
    for (long s = 0; s < ns; s++) {
        char buf[40], *vs = NULL;
        long i;
        double a, b;
        snprintf(buf, sizeof buf, "%.17g", rng_unit());
        REQUIRE(dvc_ival_set_str(tr->t[s], buf) == DVC_OK, "t");
        /* x^h(t) = a + (t N - (i - 1)) (b - a) on step i, from the stored points */
        mpfr_set_str(t, buf, 10, MPFR_RNDN);
        mpfr_mul_ui(t, t, (unsigned long)c->N, MPFR_RNDN);
        i = (long)mpfr_get_si(t, MPFR_RNDD) + 1;
        if (i > c->N) i = c->N;
        mpfr_sub_si(t, t, i - 1, MPFR_RNDN);
        a = c->tube->x[i - 1];
        b = c->tube->x[i];
        mpfr_set_d(d, b, MPFR_RNDN);
        mpfr_sub_d(d, d, a, MPFR_RNDN);
        mpfr_mul(xh, t, d, MPFR_RNDN);
        mpfr_add_d(xh, xh, a, MPFR_RNDN);
        /* 1e-17 inside the lower edge (even s) or the upper edge (odd s) of
         * x^h +- eps, eps the largest number the stored decimal may be */
        mpfr_set(e, &c->tube->eps_x[i]->right, MPFR_RNDU);
        if (s % 2 == 0) mpfr_sub(v, xh, e, MPFR_RNDN);
        else mpfr_add(v, xh, e, MPFR_RNDN);
        mpfr_set_str(d, "1e-17", 10, MPFR_RNDN);
        if (s % 2 == 0) mpfr_add(v, v, d, MPFR_RNDN);
        else mpfr_sub(v, v, d, MPFR_RNDN);
        mpfr_asprintf(&vs, s % 2 == 0 ? "%.45RUe" : "%.45RDe", v);
        REQUIRE(dvc_ival_set_str(tr->v[s], vs) == DVC_OK, "v");
        mpfr_free_str(vs);
    }
    REQUIRE(dvc_traj_check(&rep, tr, c->tube, 5) == DVC_OK, "check: %s", dvc_error_message());
    /* true margins lie in [1e-17 - wid(eps), 1e-17 + 1e-40]: the stated eps is
     * a decimal known to 53 bits, wid(eps) <= 2^-52 1e-3 < 2.3e-19 here */
    CHECK(rep.nviol == 0, "max problem: %ld of %ld samples 1e-17 inside the tube reported outside "
          "(worst margin %g)", rep.nviol, ns, rep.worst_x);
    CHECK(rep.worst_x > 0.97e-17 && rep.worst_x < 1.01e-17, "worst margin %g, expected 1e-17", rep.worst_x);
    dvc_traj_report_clear(&rep);
    mpfr_clears(t, xh, e, v, d, (mpfr_ptr)0);
    dvc_traj_clear(tr);
    dvc_cert_clear(c);
}

/* ---- 3. randomized, bound nearly attained --------------------------------- */

/* component k of the exact solution at t: sin t, t^3 */
static void xval(mpfr_t out, const mpfr_t t, int k)
{
    if (k == 0) mpfr_sin(out, t, MPFR_RNDN);
    else mpfr_pow_ui(out, t, 3, MPFR_RNDN);
}

static void xval_i(mpfi_t out, const mpfi_t t, int k)
{
    if (k == 0) mpfi_sin(out, t);
    else {
        mpfi_sqr(out, t);
        mpfi_mul(out, out, t);
    }
}

/* |x_k(t) - x^h_k(t)| at t in step i (t_{i-1} = (i-1)/N), x^h from doubles a, b */
static void err_at(mpfr_t out, const mpfr_t t, int k, long i, long N, double a, double b)
{
    mpfr_t s, d;
    mpfr_inits2(RP, s, d, (mpfr_ptr)0);
    mpfr_mul_si(s, t, N, MPFR_RNDN);
    mpfr_sub_si(s, s, i - 1, MPFR_RNDN);
    mpfr_set_d(d, b, MPFR_RNDN);
    mpfr_sub_d(d, d, a, MPFR_RNDN);
    mpfr_mul(s, s, d, MPFR_RNDN);
    mpfr_add_d(s, s, a, MPFR_RNDN);
    xval(out, t, k);
    mpfr_sub(out, out, s, MPFR_RNDN);
    mpfr_abs(out, out, MPFR_RNDN);
    mpfr_clears(s, d, (mpfr_ptr)0);
}

static void test_random_attained(void)
{
    const long N = 100, nrand = 10000, n = 2;
    dvc_tube_t tb;
    dvc_traj_t tr;
    dvc_traj_report rep;
    mpfi_t T;
    mpfr_t t0, t1, ts, best, e, tmp;
    double *tstar = malloc((size_t)(N + 1) * sizeof *tstar);
    double eps_max = 0;
    REQUIRE(tstar != NULL, "alloc");
    mpfi_init2(T, 53);
    mpfi_set_ui(T, 1);
    dvc_tube_init(tb);
    REQUIRE(dvc_tube_alloc(tb, n, 0, N, T, 53) == DVC_OK, "tube alloc: %s", dvc_error_message());
    mpfr_inits2(RP, t0, t1, ts, best, e, tmp, (mpfr_ptr)0);
    for (long i = 0; i <= N; i++)
        for (int k = 0; k < n; k++) {
            mpfr_set_si(t0, i, MPFR_RNDN);
            mpfr_div_si(t0, t0, N, MPFR_RNDN);
            xval(e, t0, k);
            tb->x[i * n + k] = mpfr_get_d(e, MPFR_RNDN);
        }
    mpfi_set_ui(tb->eps_x[0], 0); /* x^0 = x(0) = 0 exactly */
    for (long i = 1; i <= N; i++) {
        /* max over the step of |x - x^h|: e is concave (sin) or convex (t^3)
         * on [0, 1], so it peaks at the zero of e' or at an end */
        mpfr_set_zero(best, 1);
        tstar[i] = 0;
        for (int k = 0; k < n; k++) {
            double a = tb->x[(i - 1) * n + k], b = tb->x[i * n + k];
            mpfr_set_si(t0, i - 1, MPFR_RNDN);
            mpfr_div_si(t0, t0, N, MPFR_RNDN);
            mpfr_set_si(t1, i, MPFR_RNDN);
            mpfr_div_si(t1, t1, N, MPFR_RNDN);
            /* slope (b - a) N; e' = 0 at acos(slope) (sin), sqrt(slope / 3) (t^3) */
            mpfr_set_d(ts, b, MPFR_RNDN);
            mpfr_sub_d(ts, ts, a, MPFR_RNDN);
            mpfr_mul_si(ts, ts, N, MPFR_RNDN);
            if (k == 0) mpfr_acos(ts, ts, MPFR_RNDN);
            else {
                mpfr_div_ui(ts, ts, 3, MPFR_RNDN);
                mpfr_sqrt(ts, ts, MPFR_RNDN);
            }
            if (mpfr_cmp(ts, t0) < 0 || mpfr_nan_p(ts)) mpfr_set(ts, t0, MPFR_RNDN);
            if (mpfr_cmp(ts, t1) > 0) mpfr_set(ts, t1, MPFR_RNDN);
            for (int w = 0; w < 3; w++) {
                err_at(e, w == 0 ? t0 : w == 1 ? t1 : ts, k, i, N, a, b);
                if (mpfr_cmp(e, best) > 0) {
                    mpfr_set(best, e, MPFR_RNDN);
                    tstar[i] = mpfr_get_d(w == 0 ? t0 : w == 1 ? t1 : ts, MPFR_RNDN);
                }
            }
        }
        /* the stated radius: the true error times (1 + 1e-10), rounded up */
        mpfr_mul_d(tmp, best, 1e-10, MPFR_RNDU);
        mpfr_add(tmp, tmp, best, MPFR_RNDU);
        mpfi_set_d(tb->eps_x[i], mpfr_get_d(tmp, MPFR_RNDU));
        if (mpfr_get_d(tmp, MPFR_RNDU) > eps_max) eps_max = mpfr_get_d(tmp, MPFR_RNDU);
    }
    for (int shrink = 0; shrink < 2; shrink++) {
        long ns = nrand + N;
        if (shrink) {
            /* step 50's radius 1e-10 (relative) below the true error */
            mpfr_set_d(tmp, mpfr_get_d(&tb->eps_x[50]->left, MPFR_RNDN), MPFR_RNDN);
            mpfr_mul_d(tmp, tmp, 1 - 2.5e-10, MPFR_RNDD);
            mpfi_set_fr(tb->eps_x[50], tmp);
        }
        dvc_traj_init(tr);
        REQUIRE(dvc_traj_alloc(tr, ns, n, 0, 53 + DVC_TRAJ_EXTRA_BITS) == DVC_OK, "alloc");
        for (long s = 0; s < ns; s++) {
            char buf[40];
            /* random times, then the attaining point of every step */
            snprintf(buf, sizeof buf, "%.17g", s < nrand ? rng_unit() : tstar[s - nrand + 1]);
            REQUIRE(dvc_ival_set_str(tr->t[s], buf) == DVC_OK, "t");
            for (int k = 0; k < n; k++) xval_i(tr->v[s * n + k], tr->t[s], k);
        }
        REQUIRE(dvc_traj_check(&rep, tr, tb, -1) == DVC_OK, "check: %s", dvc_error_message());
        if (!shrink) {
            CHECK(rep.nviol == 0, "exact solution: %ld of %ld values outside (worst margin %g)",
                  rep.nviol, ns * n, rep.worst_x);
            /* nearly attained: the smallest margin is about 1e-10 eps */
            CHECK(rep.worst_x >= 0 && rep.worst_x < 2e-10 * eps_max, "worst margin %g, eps_max %g",
                  rep.worst_x, eps_max);
        } else {
            CHECK(rep.nviol >= 1 && rep.viol[0].sample >= nrand &&
                      rep.viol[0].sample - nrand + 1 == 50,
                  "radius too small at step 50 not caught (%ld violations)", rep.nviol);
        }
        dvc_traj_report_clear(&rep);
        dvc_traj_clear(tr);
    }
    mpfr_clears(t0, t1, ts, best, e, tmp, (mpfr_ptr)0);
    mpfi_clear(T);
    dvc_tube_clear(tb);
    free(tstar);
}

/* ---- 4. tube of an engine result ------------------------------------------ */

static void test_from_result(void)
{
    char path[256];
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    dvc_tube_t tb;
    dvc_ivec_t X, Y;
    mpfr_t lo[1], hi[1], x;
    mpfi_t t;
    long outside = 0, bad_inner = 0;
    write_file(path, sizeof path, "max2.json",
               "{\"A\": [[0]], \"B\": [[1]], \"f\": [\"t\"], \"Q\": [[0]], \"M\": [[1]], "
               "\"g\": [\"1/2 - t\"], \"l\": [0], \"u\": [\"inf\"], \"x0\": [0], \"T\": \"1\", "
               "\"N\": 200, \"theta\": 1}\n");
    dvc_dlvi_problem_init(p, 0, 0, 0);
    REQUIRE(dvc_problem_load(p, NULL, path, 0) == DVC_OK, "load: %s", dvc_error_message());
    dvc_dlvi_opts_default(&o);
    dvc_dlvi_result_init(r);
    REQUIRE(dvc_dlvi_run(r, p, &o) == DVC_OK, "run: %s", dvc_error_message());
    dvc_tube_init(tb);
    REQUIRE(dvc_dlvi_tube(tb, r, p->l, p->u) == DVC_OK, "from_result: %s", dvc_error_message());
    dvc_ivec_init2(X, 1, 53);
    dvc_ivec_init2(Y, 1, 53);
    mpfr_init2(lo[0], 128);
    mpfr_init2(hi[0], 128);
    mpfr_init2(x, RP);
    mpfi_init2(t, 53);
    for (long s = 0; s < 2000; s++) {
        double td = rng_unit();
        mpfi_set_d(t, td);
        REQUIRE(dvc_tube_outer(X, tb, t, 0) == DVC_OK && dvc_tube_outer(Y, tb, t, 1) == DVC_OK,
                "outer: %s", dvc_error_message());
        /* x(t) = t^2 / 2 + max(0, t - 1/2)^2 / 2, y(t) = max(0, t - 1/2) */
        mpfr_set_d(x, td, MPFR_RNDN);
        mpfr_sqr(x, x, MPFR_RNDN);
        if (td > 0.5) {
            mpfr_t z;
            mpfr_init2(z, RP);
            mpfr_set_d(z, td, MPFR_RNDN);
            mpfr_sub_d(z, z, 0.5, MPFR_RNDN);
            mpfr_sqr(z, z, MPFR_RNDN);
            mpfr_add(x, x, z, MPFR_RNDN);
            mpfr_clear(z);
        }
        mpfr_div_2ui(x, x, 1, MPFR_RNDN);
        outside += !mpfi_is_inside_fr(x, X->e[0]);
        mpfr_set_d(x, td > 0.5 ? td - 0.5 : 0, MPFR_RNDN);
        outside += !mpfi_is_inside_fr(x, Y->e[0]);
        REQUIRE(dvc_tube_inner(lo, hi, tb, t, 0) == DVC_OK, "inner: %s", dvc_error_message());
        bad_inner += mpfr_cmp(lo[0], &X->e[0]->left) < 0 || mpfr_cmp(hi[0], &X->e[0]->right) > 0 ||
                     mpfr_cmp(lo[0], hi[0]) > 0;
        /* the copy and the engine result in place give the same enclosure */
        REQUIRE(dvc_dlvi_tube_x(Y, r, t) == DVC_OK, "tube_x: %s", dvc_error_message());
        bad_inner += !mpfi_is_inside(Y->e[0], X->e[0]) || !mpfi_is_inside(X->e[0], Y->e[0]);
    }
    CHECK(outside == 0, "exact solution outside the outer tube at %ld times", outside);
    CHECK(bad_inner == 0, "inner edges not inside the outer ones at %ld times", bad_inner);
    /* outside [0, T]: refused */
    mpfi_set_d(t, 1.5);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_ERR_INPUT, "t = 1.5 accepted");
    mpfi_clear(t);
    mpfr_clears(lo[0], hi[0], x, (mpfr_ptr)0);
    dvc_ivec_clear(X);
    dvc_ivec_clear(Y);
    dvc_tube_clear(tb);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
}

/* ---- 5. CSV headers: state names or x1..xn ------------------------------ */

/* Read text as a trajectory; 1 when it is accepted. On refusal the message
 * must contain want. */
static int read_named(dvc_traj_t tr, const char *text, const char *const *names, mpfr_srcptr t0,
                      const mpfi_t T, const char *want)
{
    char path[256];
    dvc_status st;
    write_file(path, sizeof path, "named.csv", text);
    st = names || t0 ? dvc_traj_read_named(tr, path, 2, 0, t0, T, names)
                     : dvc_traj_read(tr, path, 2, 0, T);
    if (st == DVC_OK) return 1;
    CHECK(want && strstr(dvc_error_message(), want) && strstr(dvc_error_message(), path),
          "message '%s' lacks '%s' or the file name", dvc_error_message(), want ? want : "");
    return 0;
}

static void test_named_headers(void)
{
    static const char *const names[] = {"pos", "vel"};
    dvc_traj_t tr;
    mpfi_t T;
    mpfr_t t0;
    mpfi_init2(T, 53);
    mpfi_set_ui(T, 2);
    mpfr_init2(t0, 53);
    mpfr_set_d(t0, 0.5, MPFR_RNDN);
    dvc_traj_init(tr);
    /* names in any order: columns map to the states they name */
    CHECK(read_named(tr, "t,vel,pos\n1,0.25,-3\n# c\n1.5,1,2\n", names, t0, T, NULL), "names header");
    CHECK(tr->ns == 2 && tr->n == 2 && tr->m == 0 && tr->line[1] == 4, "names: shape");
    CHECK(tr->ns == 2 && mpfi_cmp_si(tr->v[0], -3) == 0 && mpfi_cmp_d(tr->v[1], 0.25) == 0 &&
          mpfi_cmp_ui(tr->v[2], 2) == 0 && mpfi_cmp_ui(tr->v[3], 1) == 0 &&
          mpfi_cmp_d(tr->t[1], 1.5) == 0, "names: values in the wrong slots");
    /* x1..xn still accepted, and mixed with a name */
    CHECK(read_named(tr, "t,x2,x1\n1,7,8\n", names, t0, T, NULL) && mpfi_cmp_ui(tr->v[0], 8) == 0 &&
          mpfi_cmp_ui(tr->v[1], 7) == 0, "x1..xn header with names");
    CHECK(read_named(tr, "t,pos,x2\n1,7,8\n", names, t0, T, NULL) && mpfi_cmp_ui(tr->v[1], 8) == 0,
          "name and x2 mixed");
    /* refusals name file and line */
    CHECK(!read_named(tr, "t,pos,x1\n1,7,8\n", names, t0, T, "line 1: column 'x1' names a state already given"),
          "a state given twice");
    CHECK(!read_named(tr, "t,pos\n1,7\n", names, t0, T, "line 1: missing column 'vel'"), "missing state");
    CHECK(!read_named(tr, "t,pos,acc\n1,7,8\n", names, t0, T, "unknown column 'acc' (expected t and the states pos..vel"),
          "unknown name");
    CHECK(!read_named(tr, "t,pos,vel\n1,7,8\n0.25,1,1\n", names, t0, T, "line 3: t = 0.25 lies outside [t0, T]"),
          "t before t0");
    CHECK(!read_named(tr, "t,pos,vel\n1,7,abc\n", names, t0, T, "line 2: column 'vel': 'abc' is not a finite"),
          "bad value names its column");
    CHECK(!read_named(tr, "t,pos,vel\n1,7\n", names, t0, T, "line 2: 2 fields, the header has 3"), "short line");
    CHECK(!read_named(tr, "# only\n", names, t0, T, "empty file"), "empty");
    /* without names: x1..xn only, times from 0 */
    CHECK(read_named(tr, "t,x1,x2\n0.25,1,2\n", NULL, NULL, T, NULL) && mpfi_cmp_ui(tr->v[1], 2) == 0,
          "plain reader: x1..xn, t below 0.5");
    CHECK(!read_named(tr, "t,pos,vel\n1,7,8\n", NULL, NULL, T, "line 1: unknown column 'pos' (expected t, x1..x2"),
          "plain reader refuses names");
    dvc_traj_clear(tr);
    mpfr_clear(t0);
    mpfi_clear(T);
}

/* ---- 6. a non-uniform grid ------------------------------------------------- */

/* x = t^2 on the grid 0, 1/8, 1/2, 3/4, 2 with x^i = t_i^2 and eps_x^i the
 * exact interpolation error (b - a)^2 / 4, attained at the step midpoints:
 * at 5/16 (step 2) the tube is [0.09765625, 0.16796875], at 11/8 (step 4)
 * [1.890625, 2.671875] (hand-computed); on the uniform grid of the same N
 * and T the same data would give other edges. */
static void test_nonuniform(void)
{
    const double tg[5] = {0, 0.125, 0.5, 0.75, 2};
    const long N = 4;
    dvc_tube_t tb, tu;
    mpfr_t tt[5];
    mpfi_t T, t;
    dvc_ivec_t X;
    mpfi_init2(T, 53);
    mpfi_init2(t, 53);
    mpfi_set_ui(T, 2);
    dvc_ivec_init2(X, 1, 53);
    dvc_tube_init(tb);
    REQUIRE(dvc_tube_alloc(tb, 1, 0, N, T, 53) == DVC_OK, "alloc: %s", dvc_error_message());
    for (long i = 0; i <= N; i++) {
        mpfr_init2(tt[i], 53);
        mpfr_set_d(tt[i], tg[i], MPFR_RNDN);
        tb->x[i] = tg[i] * tg[i];
        if (i > 0) mpfi_set_d(tb->eps_x[i], (tg[i] - tg[i - 1]) * (tg[i] - tg[i - 1]) / 4);
    }
    CHECK(dvc_tube_set_times(tb, (const mpfr_t *)tt) == DVC_OK, "times: %s", dvc_error_message());
    mpfi_set_d(t, 0.3125);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_OK, "outer: %s", dvc_error_message());
    CHECK(mpfr_cmp_d(&X->e[0]->left, 0.09765625) == 0 && mpfr_cmp_d(&X->e[0]->right, 0.16796875) == 0,
          "non-uniform step 2: [%.17g, %.17g]", mpfr_get_d(&X->e[0]->left, MPFR_RNDD),
          mpfr_get_d(&X->e[0]->right, MPFR_RNDU));
    mpfi_set_d(t, 1.375);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_OK, "outer: %s", dvc_error_message());
    CHECK(mpfr_cmp_d(&X->e[0]->left, 1.890625) == 0 && mpfr_cmp_d(&X->e[0]->right, 2.671875) == 0,
          "non-uniform step 4: [%.17g, %.17g]", mpfr_get_d(&X->e[0]->left, MPFR_RNDD),
          mpfr_get_d(&X->e[0]->right, MPFR_RNDU));
    /* a time interval over steps 1..3: the hull of their edges */
    mpfi_interv_d(t, 0.0625, 0.625);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_OK && mpfr_cmp_d(&X->e[0]->left, 0) < 0,
          "outer over steps 1-3: %s", dvc_error_message());
    mpfi_set_d(t, -0.0625);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_ERR_INPUT, "t < t_0 accepted");
    mpfi_interv_d(t, 1.5, 2.0625);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_ERR_INPUT, "t > t_N accepted");
    {
        /* exact solution at random times inside; t^2 - 1e-12 at the step
         * midpoints (where the lower edge is attained) outside */
        const long ns = 2000;
        dvc_traj_t tr;
        dvc_traj_report rep;
        dvc_traj_init(tr);
        REQUIRE(dvc_traj_alloc(tr, ns + N, 1, 0, 53 + DVC_TRAJ_EXTRA_BITS) == DVC_OK, "alloc");
        for (long s = 0; s < ns; s++) {
            char buf[40];
            snprintf(buf, sizeof buf, "%.17g", 2 * rng_unit());
            REQUIRE(dvc_ival_set_str(tr->t[s], buf) == DVC_OK, "t");
            mpfi_sqr(tr->v[s], tr->t[s]);
        }
        for (long i = 1; i <= N; i++) {
            mpfi_set_d(tr->t[ns + i - 1], (tg[i] + tg[i - 1]) / 2);
            mpfi_sqr(tr->v[ns + i - 1], tr->t[ns + i - 1]);
            mpfi_sub_d(tr->v[ns + i - 1], tr->v[ns + i - 1], 1e-12);
        }
        REQUIRE(dvc_traj_check(&rep, tr, tb, -1) == DVC_OK, "check: %s", dvc_error_message());
        CHECK(rep.nviol == N && rep.viol[0].sample == ns, "non-uniform check: %ld violations, "
              "%ld expected (the shifted midpoints only)", rep.nviol, N);
        dvc_traj_report_clear(&rep);
        dvc_traj_clear(tr);
    }
    /* a uniform grid given as times gives the same tube as the uniform one */
    dvc_tube_init(tu);
    mpfi_set_ui(T, 1);
    REQUIRE(dvc_tube_alloc(tu, 1, 0, N, T, 53) == DVC_OK, "alloc");
    REQUIRE(dvc_tube_alloc(tb, 1, 0, N, T, 53) == DVC_OK, "alloc");
    for (long i = 0; i <= N; i++) {
        mpfr_set_d(tt[i], i / 4.0, MPFR_RNDN);
        tb->x[i] = tu->x[i] = sin((double)i);
        mpfi_set_d(tb->eps_x[i], 1e-3 * (double)(i + 1));
        mpfi_set_d(tu->eps_x[i], 1e-3 * (double)(i + 1));
    }
    REQUIRE(dvc_tube_set_times(tb, (const mpfr_t *)tt) == DVC_OK, "times");
    {
        long diff = 0;
        dvc_ivec_t Y;
        mpfr_t lo1[1], hi1[1], lo2[1], hi2[1];
        dvc_ivec_init2(Y, 1, 53);
        mpfr_inits2(53, lo1[0], hi1[0], lo2[0], hi2[0], (mpfr_ptr)0);
        for (int s = 0; s < 500; s++) {
            double a = rng_unit(), b = s % 2 ? a : a + 0.01 * rng_unit();
            mpfi_interv_d(t, a, b > 1 ? 1 : b);
            if (dvc_tube_outer(X, tb, t, 0) != DVC_OK || dvc_tube_outer(Y, tu, t, 0) != DVC_OK ||
                dvc_tube_inner(lo1, hi1, tb, t, 0) != DVC_OK ||
                dvc_tube_inner(lo2, hi2, tu, t, 0) != DVC_OK ||
                !mpfr_equal_p(&X->e[0]->left, &Y->e[0]->left) ||
                !mpfr_equal_p(&X->e[0]->right, &Y->e[0]->right) || !mpfr_equal_p(lo1[0], lo2[0]) ||
                !mpfr_equal_p(hi1[0], hi2[0]))
                diff++;
        }
        CHECK(diff == 0, "times i/N: %ld of 500 evaluations differ from the uniform tube", diff);
        mpfr_clears(lo1[0], hi1[0], lo2[0], hi2[0], (mpfr_ptr)0);
        dvc_ivec_clear(Y);
    }
    mpfr_set_d(tt[2], 0.75, MPFR_RNDN); /* t_2 = t_3 */
    CHECK(dvc_tube_set_times(tb, (const mpfr_t *)tt) == DVC_ERR_INPUT, "non-increasing times accepted");
    for (long i = 0; i <= N; i++) mpfr_clear(tt[i]);
    dvc_tube_clear(tb);
    dvc_tube_clear(tu);
    dvc_ivec_clear(X);
    mpfi_clear(T);
    mpfi_clear(t);
}

/* ---- 7. an enclosure tube -------------------------------------------------- */

static dvc_status const_eval(dvc_ivec_t X, const void *ctx, const mpfi_t t)
{
    (void)t;
    mpfi_interv_d(X->e[0], *(const double *)ctx, *(const double *)ctx + 1);
    return DVC_OK;
}

/* grid 0, 1, 3; x(t_i) in [0, 0], [1, 1.1], [2, 2.5]; x in [0, 1.2] on step 1
 * and [0.9, 2.6] on step 2. */
static void test_enclosure(void)
{
    const double tg[3] = {0, 1, 3};
    dvc_tube_t tb;
    mpfr_t tt[3], lo[1], hi[1];
    mpfi_t T, t;
    dvc_ivec_t X;
    double c42 = 42;
    mpfi_init2(T, 53);
    mpfi_init2(t, 53);
    mpfi_set_ui(T, 3);
    dvc_ivec_init2(X, 1, 53);
    mpfr_inits2(53, lo[0], hi[0], (mpfr_ptr)0);
    dvc_tube_init(tb);
    REQUIRE(dvc_tube_alloc(tb, 1, 0, 2, T, 53) == DVC_OK, "alloc");
    for (int i = 0; i < 3; i++) {
        mpfr_init2(tt[i], 53);
        mpfr_set_d(tt[i], tg[i], MPFR_RNDN);
    }
    REQUIRE(dvc_tube_set_times(tb, (const mpfr_t *)tt) == DVC_OK, "times");
    REQUIRE(dvc_tube_set_boxes(tb) == DVC_OK, "boxes");
    mpfi_interv_d(tb->xg[0], 0, 0);
    mpfi_interv_d(tb->xg[1], 1, 1.1);
    mpfi_interv_d(tb->xg[2], 2, 2.5);
    mpfi_interv_d(tb->xs[0], 0, 1.2);
    mpfi_interv_d(tb->xs[1], 0.9, 2.6);
    mpfi_set_d(t, 0.5);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_OK && mpfr_cmp_d(&X->e[0]->left, 0) == 0 &&
              mpfr_cmp_d(&X->e[0]->right, 1.2) == 0, "enclosure tube inside step 1");
    mpfi_set_d(t, 1);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_OK && mpfr_cmp_d(&X->e[0]->left, 1) == 0 &&
              mpfr_cmp_d(&X->e[0]->right, 1.1) == 0, "enclosure tube at the grid point t_1");
    mpfi_interv_d(t, 0.5, 2);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_OK && mpfr_cmp_d(&X->e[0]->left, 0) == 0 &&
              mpfr_cmp_d(&X->e[0]->right, 2.6) == 0, "enclosure tube over both steps: hull");
    CHECK(dvc_tube_inner(lo, hi, tb, t, 0) == DVC_OK && mpfr_cmp_d(lo[0], 0.9) == 0 &&
              mpfr_cmp_d(hi[0], 1.2) == 0, "enclosure tube over both steps: inner [%g, %g]",
          mpfr_get_d(lo[0], MPFR_RNDN), mpfr_get_d(hi[0], MPFR_RNDN));
    dvc_tube_step_hull(lo, hi, tb, 2, 0);
    CHECK(mpfr_cmp_d(lo[0], 0.9) == 0 && mpfr_cmp_d(hi[0], 2.6) == 0, "step hull 2");
    dvc_tube_grid(lo, hi, tb, 2, 0);
    CHECK(mpfr_cmp_d(lo[0], 2) == 0 && mpfr_cmp_d(hi[0], 2.5) == 0, "grid 2");
    dvc_tube_time(t, tb, 1);
    CHECK(mpfi_cmp_d(t, 1) == 0 && mpfr_equal_p(&t->left, &t->right), "time t_1");
    /* an evaluator replaces the boxes */
    dvc_tube_set_eval(tb, const_eval, &c42);
    mpfi_set_d(t, 0.5);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_OK && mpfr_cmp_d(&X->e[0]->left, 42) == 0,
          "evaluator not used");
    mpfi_set_d(t, 3.5);
    CHECK(dvc_tube_outer(X, tb, t, 0) == DVC_ERR_INPUT, "evaluator asked outside the tube");
    for (int i = 0; i < 3; i++) mpfr_clear(tt[i]);
    mpfr_clears(lo[0], hi[0], (mpfr_ptr)0);
    dvc_tube_clear(tb);
    dvc_ivec_clear(X);
    mpfi_clear(T);
    mpfi_clear(t);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/dvc_test_traj.XXXXXX");
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp");
    test_equilibrium();
    test_max_edges();
    test_random_attained();
    test_from_result();
    test_named_headers();
    test_nonuniform();
    test_enclosure();
    {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    }
    mpfr_free_cache();
    return check_report();
}
