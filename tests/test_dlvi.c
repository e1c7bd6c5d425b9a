/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* DLVI engine: containment of closed-form solutions (bridge of Example 5.1
 * at 256 bits, the example of Remark 4.3), order h of the bound,
 * sharpening, re-certification of stored and tampered predictors, and the
 * refusals (step too large, M not P). */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dlvi_setup.h"
#include "dvicert/dlvi.h"
#include "dvicert/problem.h"
#include "dvicert/tube.h"
#include "dvicert/tfun.h"
#include "ref_bridge.h"
#include "last_step.h"
#include "ref_remark43.h"

/* ---- problem builders -------------------------------------------------- */

typedef struct {
    mpfi_t a, b;
} fscratch;

/* bridge forcing f = (0, sin 4t) */
static dvc_status bridge_f(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    fscratch *s = ctx;
    mpfi_set_ui(out->e[0], 0);
    mpfi_mul_ui(s->a, t, 4);
    mpfi_sin(out->e[1], s->a);
    return DVC_OK;
}

/* Lipschitz constant of sin 4t on [t]: 4 max |cos 4s| */
static dvc_status bridge_flip(mpfr_t out, const mpfi_t t, void *ctx)
{
    fscratch *s = ctx;
    mpfi_mul_ui(s->a, t, 4);
    mpfi_cos(s->b, s->a);
    dvc_ival_mag(out, s->b);
    mpfr_mul_ui(out, out, 4, MPFR_RNDU);
    return DVC_OK;
}

static void bridge_fd(double *out, double t, void *ctx)
{
    (void)ctx;
    out[0] = 0.0;
    out[1] = sin(4.0 * t);
}

static void bridge_problem(dvc_dlvi_problem_t p, fscratch *fs, const char *x10, const char *gamma,
                           const char *theta, long N)
{
    static const char *const A[] = {"0", "1", "-4", "0"}, *const B[] = {"0", "-1"},
                             *const Q[] = {"3", "0"}, *const M[] = {"1"}, *const l[] = {"0"},
                             *const u[] = {"inf"};
    const char *x0[] = {x10, gamma};
    set_data(p, 2, 1, A, B, Q, M, l, u, x0);
    mpfi_set_ui(p->T, 1);
    p->N = N;
    REQUIRE(dvc_ival_set_str(p->theta, theta) == DVC_OK, "theta");
    p->prec = 53;
    set_f(p, 2, bridge_f, bridge_flip, bridge_fd, fs);
}

/* Remark 4.3: f = -2 */
static dvc_status const_f(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    mpfi_set_si(out->e[0], -2);
    return DVC_OK;
}

static void const_fd(double *out, double t, void *ctx)
{
    (void)t;
    (void)ctx;
    out[0] = -2.0;
}

static void remark_problem(dvc_dlvi_problem_t p, const char *mu, const char *theta, long N, const char *T)
{
    static const char *const A[] = {"-1"}, *const B[] = {"2", "-1"}, *const Q[] = {"-1", "1"},
                             *const l[] = {"0", "0"}, *const u[] = {"inf", "inf"}, *const x0[] = {"1"};
    const char *M[] = {"1", "0", mu, "1"};
    set_data(p, 1, 2, A, B, Q, M, l, u, x0);
    REQUIRE(dvc_ival_set_str(p->T, T) == DVC_OK, "T");
    p->N = N;
    REQUIRE(dvc_ival_set_str(p->theta, theta) == DVC_OK, "theta");
    p->prec = 53;
    set_f(p, 1, const_f, dlvi_zero_lip, const_fd, NULL);
}

/* ---- containment ------------------------------------------------------- */

/* Sample times: grid points (as doubles) and random points in between. */
static double sample_t(check_rng *rng, const dvc_dlvi_result_t r, long s)
{
    double T = mpfr_get_d(&r->T->left, MPFR_RNDD);
    /* r->t[] are labels (nearest doubles): keep them inside [0, T] */
    if (s % 2 == 0) return fmin(r->t[check_rng_int(rng, 0, r->N)], T);
    return check_rng_unif(rng, 0.0, T);
}

static int inside(const mpfi_t a, const mpfr_t x)
{
    return mpfr_cmp(&a->left, x) <= 0 && mpfr_cmp(x, &a->right) <= 0;
}

/* Checks x and y tubes against the bridge reference at nsamp times;
 * returns the largest |x - x^h| / eps_x seen (tightness). */
static double check_bridge(const dvc_dlvi_result_t r, const ref_bridge *ref, check_rng *rng,
                           long nsamp, const char *label)
{
    dvc_ivec_t X, Y;
    mpfi_t t;
    mpfr_t x1, x2, y, tt;
    long bad = 0;
    double worst = 0.0;
    dvc_ivec_init2(X, 2, 53);
    dvc_ivec_init2(Y, 1, 53);
    mpfi_init2(t, 53);
    mpfr_inits2(REF_PREC, x1, x2, y, tt, (mpfr_ptr)0);
    for (long s = 0; s < nsamp; s++) {
        double td = sample_t(rng, r, s);
        mpfi_set_d(t, td);
        mpfr_set_d(tt, td, MPFR_RNDN);
        ref_bridge_eval(ref, x1, x2, y, tt);
        if (dvc_dlvi_tube_x(X, r, t) != DVC_OK || dvc_dlvi_tube_y(Y, r, t) != DVC_OK) {
            bad++;
            continue;
        }
        if (!inside(X->e[0], x1) || !inside(X->e[1], x2) || !inside(Y->e[0], y)) {
            if (bad < 3)
                fprintf(stderr, "%s: t = %.17g: x = (%.17g, %.17g) y = %.17g outside [%g,%g] [%g,%g] [%g,%g]\n",
                        label, td, mpfr_get_d(x1, MPFR_RNDN), mpfr_get_d(x2, MPFR_RNDN),
                        mpfr_get_d(y, MPFR_RNDN), mpfr_get_d(&X->e[0]->left, MPFR_RNDN),
                        mpfr_get_d(&X->e[0]->right, MPFR_RNDN), mpfr_get_d(&X->e[1]->left, MPFR_RNDN),
                        mpfr_get_d(&X->e[1]->right, MPFR_RNDN), mpfr_get_d(&Y->e[0]->left, MPFR_RNDN),
                        mpfr_get_d(&Y->e[0]->right, MPFR_RNDN));
            bad++;
        } else {
            /* tightness: distance to the tube centre over the half width */
            for (int k = 0; k < 2; k++) {
                double c = 0.5 * (mpfr_get_d(&X->e[k]->left, MPFR_RNDN) + mpfr_get_d(&X->e[k]->right, MPFR_RNDN));
                double hw = 0.5 * (mpfr_get_d(&X->e[k]->right, MPFR_RNDN) - mpfr_get_d(&X->e[k]->left, MPFR_RNDN));
                double d = fabs(mpfr_get_d(k == 0 ? x1 : x2, MPFR_RNDN) - c);
                if (hw > 0 && d / hw > worst) worst = d / hw;
            }
        }
    }
    CHECK(bad == 0, "%s: %ld of %ld samples outside the tube", label, bad, nsamp);
    dvc_ivec_clear(X);
    dvc_ivec_clear(Y);
    mpfi_clear(t);
    mpfr_clears(x1, x2, y, tt, (mpfr_ptr)0);
    return worst;
}

/* Initial values: the paper's x(0) = (0, gamma), and cases with contact
 * (x1 < 0, y > 0) inside [0, 1]; nseg = number of closed-form pieces. */
static const struct {
    const char *x10, *gamma;
    int nseg;
} cases[] = {
    {"0", "0.2", 1}, {"0", "1.0", 1}, {"0", "2.0", 1},
    {"0.02", "-0.3", 3}, {"0.01", "-0.1", 3}, {"0.03", "-0.2", 3}, {"-0.1", "1", 2},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* ---- the reference itself against an independent RK4 integration ------ */

static void rhs(double t, const double *x, double *dx)
{
    double y = x[0] < 0 ? -3.0 * x[0] : 0.0;
    dx[0] = x[1];
    dx[1] = -4.0 * x[0] - y + sin(4.0 * t);
}

static void test_reference(void)
{
    for (int g = 0; g < NCASES; g++) {
        ref_bridge ref;
        double x[2] = {atof(cases[g].x10), atof(cases[g].gamma)}, h = 1e-4, k1[2], k2[2], k3[2], k4[2], z[2];
        mpfr_t x1, x2, y, t;
        REQUIRE(ref_bridge_init(&ref, cases[g].x10, cases[g].gamma, 1.0) == 0, "reference %d", g);
        /* x(0) = (0, gamma > 0) never reaches x1 < 0 on [0, 1] (x1 = sin 2t
         * ((gamma + 1/3)/2 - cos(2t)/6) > 0): the contact cases come from
         * other initial values */
        CHECK(ref.nseg == cases[g].nseg, "case %d: segments %d, expected %d", g, ref.nseg, cases[g].nseg);
        for (long i = 0; i < 10000; i++) {
            double t0 = i * h;
            rhs(t0, x, k1);
            for (int j = 0; j < 2; j++) z[j] = x[j] + 0.5 * h * k1[j];
            rhs(t0 + 0.5 * h, z, k2);
            for (int j = 0; j < 2; j++) z[j] = x[j] + 0.5 * h * k2[j];
            rhs(t0 + 0.5 * h, z, k3);
            for (int j = 0; j < 2; j++) z[j] = x[j] + h * k3[j];
            rhs(t0 + h, z, k4);
            for (int j = 0; j < 2; j++) x[j] += h / 6.0 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
        }
        mpfr_inits2(REF_PREC, x1, x2, y, t, (mpfr_ptr)0);
        mpfr_set_ui(t, 1, MPFR_RNDN);
        ref_bridge_eval(&ref, x1, x2, y, t);
        CHECK(fabs(mpfr_get_d(x1, MPFR_RNDN) - x[0]) < 1e-6 && fabs(mpfr_get_d(x2, MPFR_RNDN) - x[1]) < 1e-6,
              "case %d: closed form (%.12g, %.12g) vs RK4 (%.12g, %.12g)", g,
              mpfr_get_d(x1, MPFR_RNDN), mpfr_get_d(x2, MPFR_RNDN), x[0], x[1]);
        mpfr_clears(x1, x2, y, t, (mpfr_ptr)0);
        ref_bridge_clear(&ref);
    }
}

/* ---- tests -------------------------------------------------------------- */

static double run_bridge(const char *x10, const char *gamma, const char *theta, long N, int sharpen, ref_bridge *ref,
                         check_rng *rng, long nsamp, dvc_dlvi_result_t keep)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    fscratch fs;
    dvc_status st;
    double eT = -1.0;
    char label[96];
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, x10, gamma, theta, N);
    dvc_dlvi_opts_default(&o);
    o.sharpen = sharpen;
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, &o);
    snprintf(label, sizeof label, "bridge x0=(%s,%s) theta=%s N=%ld%s", x10, gamma, theta, N,
             sharpen ? " sharpened" : "");
    CHECK(st == DVC_OK, "%s: %s: %s", label, dvc_status_name(st), dvc_error_message());
    if (st == DVC_OK) {
        CHECK(r->steps_done == N, "%s: steps %ld", label, r->steps_done);
        eT = mpfr_get_d(r->eps_x[N], MPFR_RNDU);
        if (ref && nsamp > 0) {
            double w = check_bridge(r, ref, rng, nsamp, label);
            printf("%-44s eps_x(T) = %.4e  eps_y(T) = %.4e  max|x-x^h|/eps = %.3f  sharpened steps %ld\n",
                   label, eT, mpfr_get_d(r->eps_y[N], MPFR_RNDU), w, r->n_sharpened);
        }
        if (keep) {
            /* certify again from the stored predictor, fresh result */
            dvc_dlvi_result_t r2;
            dvc_dlvi_result_init(r2);
            st = dvc_dlvi_certify(r2, p, &o, r->x, r->y);
            CHECK(st == DVC_OK, "%s: re-certification: %s", label, dvc_error_message());
            if (st == DVC_OK) {
                int same = 1;
                for (long i = 0; i <= N; i++) same &= mpfr_equal_p(r->eps_x[i], r2->eps_x[i]);
                CHECK(same, "%s: re-certified bounds differ", label);
            }
            /* without the y predictor: same x bounds up to the LVI enclosures */
            st = dvc_dlvi_certify(r2, p, &o, r->x, NULL);
            CHECK(st == DVC_OK, "%s: certification without y: %s", label, dvc_error_message());
            if (st == DVC_OK)
                CHECK(fabs(mpfr_get_d(r2->eps_x[N], MPFR_RNDU) / eT - 1) < 1e-9, "%s: without y: %g vs %g",
                      label, mpfr_get_d(r2->eps_x[N], MPFR_RNDU), eT);
            /* at 113 bits: the same predictor, nearly the same bound */
            o.prec = 113;
            st = dvc_dlvi_certify(r2, p, &o, r->x, r->y);
            o.prec = 0;
            CHECK(st == DVC_OK && r2->prec == 113, "%s: 113 bits: %s", label, dvc_error_message());
            if (st == DVC_OK) {
                double e113 = mpfr_get_d(r2->eps_x[N], MPFR_RNDU);
                CHECK(e113 <= eT && e113 > 0.999 * eT, "%s: 113 bits %g vs 53 bits %g", label, e113, eT);
                if (ref) check_bridge(r2, ref, rng, 200, "113 bits");
            }
            /* tampered predictor: x^i pushed off by 0.05 (more than the tube
             * radius there) on steps 300..399;
             * the bounds must absorb the defect and still contain x */
            for (long i = 300; i < 400 && i <= N; i++) r->x[i * 2 + 0] += 0.05;
            st = dvc_dlvi_certify(r2, p, &o, r->x, r->y);
            CHECK(st == DVC_OK, "%s: tampered re-certification: %s", label, dvc_error_message());
            if (st == DVC_OK) {
                CHECK(mpfr_cmp(r2->eps_x[N], r->eps_x[N]) > 0, "%s: tampering did not increase the bound", label);
                /* at the ends of the shifted stretch the defect is about 0.05 */
                CHECK(r2->delta[299] > 0.04 && r2->delta[399] > 0.04 && r2->delta[350] < 1e-3,
                      "%s: defects of tampered steps %g %g %g", label, r2->delta[299], r2->delta[350],
                      r2->delta[399]);
                if (ref) check_bridge(r2, ref, rng, 400, "tampered");
            }
            dvc_dlvi_result_clear(r2);
        }
    }
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
    return eT;
}

static void test_bridge(void)
{
    const char *thetas[] = {"0", "0.5", "1"};
    const long Ns[] = {1000, 500};
    check_rng rng = {20261125};
    for (int g = 0; g < NCASES; g++) {
        ref_bridge ref;
        REQUIRE(ref_bridge_init(&ref, cases[g].x10, cases[g].gamma, 1.0) == 0, "reference");
        for (int th = 0; th < 3; th++)
            for (int k = 0; k < 2; k++)
                run_bridge(cases[g].x10, cases[g].gamma, thetas[th], Ns[k], 0, &ref, &rng, 400, NULL);
        /* sharpened (steps with y == 0 on a whole step use beta = 0) */
        run_bridge(cases[g].x10, cases[g].gamma, "1", 1000, 1, &ref, &rng, 400, NULL);
        ref_bridge_clear(&ref);
    }
}

static void test_order_and_table(void)
{
    ref_bridge ref;
    check_rng rng = {7};
    dvc_dlvi_result_t keep;
    double e1, e2;
    REQUIRE(ref_bridge_init(&ref, "0", "0.2", 1.0) == 0, "reference");
    dvc_dlvi_result_init(keep);
    e1 = run_bridge("0", "0.2", "1", 1000, 0, &ref, &rng, 200, keep);
    e2 = run_bridge("0", "0.2", "1", 500, 0, &ref, &rng, 200, NULL);
    printf("bridge gamma=0.2 theta=1: eps_x(T) h=1e-3: %.5g (paper Table 1: 1.0633), h=2e-3: %.5g, ratio %.3f\n",
           e1, e2, e2 / e1);
    CHECK(e1 > 0 && e2 / e1 >= 1.6 && e2 / e1 <= 2.5, "O(h): ratio eps(2h)/eps(h) = %g", e2 / e1);
    /* the paper's value is an independent yardstick: same order of magnitude */
    CHECK(e1 < 10 * 1.0633 && e1 > 0.1 * 1.0633, "eps_x(T) = %g far from Table 1 (1.0633)", e1);
    dvc_dlvi_result_clear(keep);
    ref_bridge_clear(&ref);
}

static void test_stored_predictor(void)
{
    ref_bridge ref;
    check_rng rng = {99};
    dvc_dlvi_result_t keep;
    /* a case with contact: the defects of tampered steps cross switches */
    REQUIRE(ref_bridge_init(&ref, "0.01", "-0.1", 1.0) == 0, "reference");
    dvc_dlvi_result_init(keep);
    run_bridge("0.01", "-0.1", "0.5", 1000, 0, &ref, &rng, 200, keep);
    dvc_dlvi_result_clear(keep);
    ref_bridge_clear(&ref);
}

/* x0 an interval: the tube must cover the solution from the midpoint */
static void test_interval_x0(void)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    fscratch fs;
    ref_bridge ref;
    check_rng rng = {5};
    dvc_status st;
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    REQUIRE(ref_bridge_init(&ref, "0", "0.5", 1.0) == 0, "reference");
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0", "0.5", "1", 1000);
    dvc_ival_set_str(p->x0->e[0], "[-0.001, 0.001]");
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, NULL);
    CHECK(st == DVC_OK, "interval x0: %s", dvc_error_message());
    if (st == DVC_OK) {
        CHECK(mpfr_cmp_d(r->eps_x[0], 0.001) >= 0, "eps_x[0] must cover the radius of x0");
        check_bridge(r, &ref, &rng, 300, "interval x0");
    }
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    ref_bridge_clear(&ref);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

static double run_remark(const char *mu, int sharpen, long *nsharp)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    dvc_status st;
    check_rng rng = {43};
    double eT = -1;
    dvc_ivec_t X, Y;
    mpfi_t t;
    mpfr_t x, y1, y2, tt;
    long bad = 0, ns = 2000;
    dvc_dlvi_problem_init(p, 0, 0, 0);
    remark_problem(p, mu, "1", 600, "0.6");
    dvc_dlvi_opts_default(&o);
    o.sharpen = sharpen;
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, &o);
    CHECK(st == DVC_OK, "remark 4.3 mu=%s sharpen=%d: %s", mu, sharpen, dvc_error_message());
    dvc_ivec_init2(X, 1, 53);
    dvc_ivec_init2(Y, 2, 53);
    mpfi_init2(t, 53);
    mpfr_inits2(REF_PREC, x, y1, y2, tt, (mpfr_ptr)0);
    if (st == DVC_OK) {
        eT = mpfr_get_d(r->eps_x[600], MPFR_RNDU);
        *nsharp = r->n_sharpened;
        for (long s = 0; s < ns; s++) {
            double td = sample_t(&rng, r, s);
            mpfi_set_d(t, td);
            mpfr_set_d(tt, td, MPFR_RNDN);
            ref_remark43(x, y1, y2, tt);
            if (dvc_dlvi_tube_x(X, r, t) != DVC_OK || dvc_dlvi_tube_y(Y, r, t) != DVC_OK ||
                !inside(X->e[0], x) || !inside(Y->e[0], y1) || !inside(Y->e[1], y2)) {
                if (bad < 3)
                    fprintf(stderr, "remark: t = %.17g: x = %.17g in [%.17g, %.17g]? y1 = %.17g in [%.17g, %.17g]? (%s)\n",
                            td, mpfr_get_d(x, MPFR_RNDN), mpfr_get_d(&X->e[0]->left, MPFR_RNDN),
                            mpfr_get_d(&X->e[0]->right, MPFR_RNDN), mpfr_get_d(y1, MPFR_RNDN),
                            mpfr_get_d(&Y->e[0]->left, MPFR_RNDN), mpfr_get_d(&Y->e[0]->right, MPFR_RNDN),
                            dvc_error_message());
                bad++;
            }
        }
        CHECK(bad == 0, "remark 4.3 mu=%s sharpen=%d: %ld of %ld samples outside", mu, sharpen, bad, ns);
        printf("remark 4.3 mu=%-4s sharpen=%d: beta_M <= %.4g, eps_x(0.6) = %.4e, eps_y(0.6) = %.4e, "
               "sharpened steps %ld\n",
               mu, sharpen, mpfr_get_d(r->beta_hi, MPFR_RNDU), eT, mpfr_get_d(r->eps_y[600], MPFR_RNDU),
               r->n_sharpened);
    }
    dvc_ivec_clear(X);
    dvc_ivec_clear(Y);
    mpfi_clear(t);
    mpfr_clears(x, y1, y2, tt, (mpfr_ptr)0);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    return eT;
}

/* The predictor must solve the discrete recursion (4.2) to roundoff: a
 * sloppy predictor still gives valid bounds (its defect is carried), only
 * wider ones, so nothing else would notice. Remark 4.3 from x(0) = 0 has a
 * free component that is not the first one (y1 at its bound, y2 free). */
static void test_predictor_defect(void)
{
    static const char *const x0s[] = {"0", "1"};
    for (int k = 0; k < 2; k++) {
        dvc_dlvi_problem_t p;
        dvc_dlvi_result_t r;
        dvc_dlvi_opts o;
        double worst = 0;
        dvc_dlvi_problem_init(p, 0, 0, 0);
        remark_problem(p, "10", "1", 500, "0.5");
        REQUIRE(dvc_ival_set_str(p->x0->e[0], x0s[k]) == DVC_OK, "x0");
        dvc_dlvi_opts_default(&o);
        dvc_dlvi_result_init(r);
        CHECK(dvc_dlvi_run(r, p, &o) == DVC_OK, "remark x0 = %s: %s", x0s[k], dvc_error_message());
        for (long i = 0; i < r->steps_done; i++)
            if (!(r->delta[i] <= worst)) worst = r->delta[i];
        CHECK(r->steps_done == 500 && worst <= 1e-13, "remark x0 = %s: largest defect %g of the predictor",
              x0s[k], worst);
        dvc_dlvi_result_clear(r);
        dvc_dlvi_problem_clear(p);
    }
}

static void test_remark43(void)
{
    long n0 = 0, n1 = 0;
    double a = run_remark("10", 0, &n0), b = run_remark("10", 1, &n1);
    CHECK(a > 0 && b > 0 && b < 0.01 * a, "sharpening should help a lot for mu = 10: %g vs %g", b, a);
    CHECK(n1 > 500, "sharpened steps %ld of 600", n1);
    a = run_remark("0", 0, &n0);
    b = run_remark("0", 1, &n1);
    /* beta_M = 1 = ||(M_FF)^{-1}||: nothing to gain, never worse */
    CHECK(a > 0 && b > 0 && b <= a, "mu = 0: sharpened %g vs %g", b, a);
}


/* ---- a last step shorter than h ----------------------------------------- */

/* Remark 4.3 on a grid whose h does not divide T: last_step_check, tests/last_step.h. */

/* Both Algorithm 4.2 variants (global beta, --sharpen) and a stored
 * predictor. The last step's bounds use its own length: it adds less to
 * eps_x than a step of length h does (with h there, or a predictor that
 * steps past T, it would add at least as much). */
static void test_last_step(void)
{
    for (int k = 0; k < 3; k++) {
        dvc_dlvi_problem_t p;
        dvc_dlvi_result_t r, r2;
        dvc_dlvi_opts o;
        dvc_status st;
        char label[64];
        snprintf(label, sizeof label, "last step, chen-wang%s", k == 1 ? " sharpen" : k == 2 ? " stored" : "");
        dvc_dlvi_problem_init(p, 0, 0, 0);
        remark_problem(p, "10", "1", LS_N, "0.625");
        p->h = LS_H;
        dvc_dlvi_opts_default(&o);
        o.sharpen = k == 1;
        dvc_dlvi_result_init(r);
        dvc_dlvi_result_init(r2);
        st = dvc_dlvi_run(r, p, &o);
        CHECK(st == DVC_OK, "%s: %s", label, dvc_error_message());
        if (st == DVC_OK && k == 2) {
            /* the same predictor certified again from storage */
            st = dvc_dlvi_certify(r2, p, &o, r->x, r->y);
            CHECK(st == DVC_OK && mpfr_equal_p(r2->eps_x[LS_N], r->eps_x[LS_N]), "%s: %s", label,
                  dvc_error_message());
        }
        if (st == DVC_OK) {
            const dvc_dlvi_result_struct *q = k == 2 ? r2 : r;
            double e88 = mpfr_get_d(q->eps_x[88], MPFR_RNDN), e89 = mpfr_get_d(q->eps_x[89], MPFR_RNDN),
                   e90 = mpfr_get_d(q->eps_x[90], MPFR_RNDN);
            last_step_check(q, label);
            CHECK(e90 - e89 < 0.6 * (e89 - e88), "%s: the last step adds %g to eps_x, the one before %g", label,
                  e90 - e89, e89 - e88);
        }
        dvc_dlvi_result_clear(r);
        dvc_dlvi_result_clear(r2);
        dvc_dlvi_problem_clear(p);
    }
    /* refusals: a decimal T (an interval) and an h that does not fit N */
    {
        dvc_dlvi_problem_t p;
        dvc_dlvi_result_t r;
        dvc_status st;
        dvc_dlvi_problem_init(p, 0, 0, 0);
        dvc_dlvi_result_init(r);
        remark_problem(p, "10", "1", LS_N, "0.6");
        p->h = LS_H;
        st = dvc_dlvi_run(r, p, NULL);
        CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "binary number"), "decimal T: %d %s", (int)st,
              dvc_error_message());
        REQUIRE(dvc_ival_set_str(p->T, "0.625") == DVC_OK, "T");
        p->N = LS_N + 1;
        st = dvc_dlvi_run(r, p, NULL);
        CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "(N-1) h < T <= N h"), "N too large: %d %s",
              (int)st, dvc_error_message());
        dvc_dlvi_result_clear(r);
        dvc_dlvi_problem_clear(p);
    }
}

static void test_refusals(void)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    fscratch fs;
    dvc_status st;
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    /* step condition: theta = 0: h < 1/(||A|| + beta ||B|| ||Q||) = 1/7 */
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0", "0.2", "0", 5);
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, NULL);
    CHECK(st == DVC_NOT_CERTIFIED, "h = 0.2 > 1/7 must be refused, got %s", dvc_status_name(st));
    CHECK(strstr(dvc_error_message(), "largest admissible h <= 0.1428") != NULL &&
              strstr(dvc_error_message(), "N >= 8") != NULL,
          "message: %s", dvc_error_message());
    CHECK(mpfr_cmp_d(r->hmax, 1.0 / 7.0) <= 0 && mpfr_cmp_d(r->hmax, 0.1428) > 0, "hmax %g",
          mpfr_get_d(r->hmax, MPFR_RNDN));
    /* theta = 1 allows up to 1/3 here: N = 4 (h = 0.25) is fine */
    bridge_problem(p, &fs, "0", "0.2", "1", 4);
    st = dvc_dlvi_run(r, p, NULL);
    CHECK(st == DVC_OK, "theta = 1, h = 0.25 < 1/3: %s", dvc_error_message());
    /* M not a P-matrix */
    {
        static const char *const M[] = {"-1"};
        bridge_problem(p, &fs, "0", "0.2", "1", 1000);
        set_entries(p->M, 1, 1, M);
        st = dvc_dlvi_run(r, p, NULL);
        CHECK(st == DVC_NOT_CERTIFIED, "M = -1 must be refused, got %s", dvc_status_name(st));
        CHECK(strstr(dvc_error_message(), "M") != NULL, "message: %s", dvc_error_message());
    }
    {
        /* Remark's shape with M = [[1, 2], [2, 1]] (det -3) */
        dvc_dlvi_problem_clear(p);
        dvc_dlvi_problem_init(p, 0, 0, 0);
        remark_problem(p, "0", "1", 100, "0.6");
        static const char *const M2[] = {"1", "2", "2", "1"};
        set_entries(p->M, 2, 2, M2);
        st = dvc_dlvi_run(r, p, NULL);
        CHECK(st == DVC_NOT_CERTIFIED, "non-P M must be refused, got %s", dvc_status_name(st));
    }
    /* bad input */
    {
        dvc_dlvi_problem_clear(p);
        dvc_dlvi_problem_init(p, 0, 0, 0);
        bridge_problem(p, &fs, "0", "0.2", "1.5", 100);
        st = dvc_dlvi_run(r, p, NULL);
        CHECK(st == DVC_ERR_INPUT, "theta = 1.5: %s", dvc_status_name(st));
        bridge_problem(p, &fs, "0", "0.2", "1", 0);
        st = dvc_dlvi_run(r, p, NULL);
        CHECK(st == DVC_ERR_INPUT, "N = 0: %s", dvc_status_name(st));
    }
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

/* The same bridge with f given as expressions (the problem-file path,
 * dvc_tfun_t): same containment, nearly the same bound. */
static void test_tfun_path(void)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    fscratch fs;
    ref_bridge ref;
    check_rng rng = {11};
    dvc_status st;
    double e_cb;
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    REQUIRE(ref_bridge_init(&ref, "0.02", "-0.3", 1.0) == 0, "reference");
    e_cb = run_bridge("0.02", "-0.3", "1", 1000, 0, NULL, &rng, 0, NULL);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0.02", "-0.3", "1", 1000);
    {
        /* a vector of functions of t, owned by the problem once attached */
        dvc_tfun_vec_struct *F = dvc_tfun_vec_new(2, 53);
        REQUIRE(F != NULL, "vector: %s", dvc_error_message());
        REQUIRE(dvc_tfun_set_expr(&F->fn[0], "0", NULL) == DVC_OK, "expr: %s", dvc_error_message());
        REQUIRE(dvc_tfun_set_expr(&F->fn[1], "sin(4*t)", NULL) == DVC_OK, "expr: %s", dvc_error_message());
        CHECK(dvc_tfun_is_const(&F->fn[0]) && !dvc_tfun_is_const(&F->fn[1]), "constant entry found");
        dvc_tfun_vec_cb(&p->fcb, F, 1);
    }
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, NULL);
    CHECK(st == DVC_OK, "tfun path: %s", dvc_error_message());
    if (st == DVC_OK) {
        double e = mpfr_get_d(r->eps_x[1000], MPFR_RNDU);
        check_bridge(r, &ref, &rng, 400, "tfun path");
        CHECK(fabs(e / e_cb - 1) < 1e-6, "tfun path eps %g vs callbacks %g", e, e_cb);
    }
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    ref_bridge_clear(&ref);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

/* Q = 0 and a time-dependent g: y(t) = max(0, -cos t), x' = y, x(0) = 0, so
 * x = 0 on [0, pi/2] and 1 - sin t on [pi/2, 3]. Only the L_g term of the
 * recursion (missing in Theorem 4.1) accounts for the O(h) error here. */
static dvc_status cos_g(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    (void)ctx;
    mpfi_cos(out->e[0], t);
    return DVC_OK;
}

static dvc_status cos_glip(mpfr_t out, const mpfi_t t, void *ctx)
{
    mpfi_ptr s = ctx;
    mpfi_sin(s, t);
    dvc_ival_mag(out, s);
    return DVC_OK;
}

static void cos_gd(double *out, double t, void *ctx)
{
    (void)ctx;
    out[0] = cos(t);
}

static void test_time_dependent_g(void)
{
    static const char *const A[] = {"0"}, *const B[] = {"1"}, *const Q[] = {"0"}, *const M[] = {"1"},
                             *const l[] = {"0"}, *const u[] = {"inf"}, *const x0[] = {"0"};
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    mpfi_t scratch, t;
    dvc_ivec_t X, Y;
    mpfr_t ex, ey, tt;
    check_rng rng = {3};
    long bad = 0;
    dvc_status st;
    mpfi_init2(scratch, 53);
    mpfi_init2(t, 53);
    dvc_ivec_init2(X, 1, 53);
    dvc_ivec_init2(Y, 1, 53);
    mpfr_inits2(REF_PREC, ex, ey, tt, (mpfr_ptr)0);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    set_data(p, 1, 1, A, B, Q, M, l, u, x0);
    mpfi_set_ui(p->T, 3);
    p->N = 3000;
    mpfi_set_ui(p->theta, 1);
    p->prec = 53;
    p->gcb.k = 1;
    p->gcb.eval = cos_g;
    p->gcb.lipschitz = cos_glip;
    p->gcb.eval_d = cos_gd;
    p->gcb.ctx = scratch;
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, NULL);
    CHECK(st == DVC_OK, "time-dependent g: %s", dvc_error_message());
    if (st == DVC_OK) {
        for (long s = 0; s < 2000; s++) {
            double td = sample_t(&rng, r, s);
            mpfi_set_d(t, td);
            mpfr_set_d(tt, td, MPFR_RNDN);
            /* exact: y = max(0, -cos t); x = 0 before pi/2, 1 - sin t after */
            mpfr_cos(ey, tt, MPFR_RNDN);
            mpfr_neg(ey, ey, MPFR_RNDN);
            if (mpfr_sgn(ey) < 0) {
                mpfr_set_ui(ey, 0, MPFR_RNDN);
                mpfr_set_ui(ex, 0, MPFR_RNDN);
            } else {
                mpfr_sin(ex, tt, MPFR_RNDN);
                mpfr_ui_sub(ex, 1, ex, MPFR_RNDN);
            }
            if (dvc_dlvi_tube_x(X, r, t) != DVC_OK || dvc_dlvi_tube_y(Y, r, t) != DVC_OK ||
                !inside(X->e[0], ex) || !inside(Y->e[0], ey))
                bad++;
        }
        CHECK(bad == 0, "time-dependent g: %ld of 2000 samples outside", bad);
        printf("time-dependent g (x' = max(0, -cos t)), h = 1e-3: eps_x(3) = %.4e, max ry = %.4e, "
               "true error at 3: %.4e\n",
               mpfr_get_d(r->eps_x[3000], MPFR_RNDU), r->ry[2999],
               fabs(r->x[3000] - (1 - sin(3.0))));
        CHECK(mpfr_cmp_d(r->eps_x[3000], 1e-4) > 0, "the L_g term must be visible");
    }
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(scratch);
    mpfi_clear(t);
    dvc_ivec_clear(X);
    dvc_ivec_clear(Y);
    mpfr_clears(ex, ey, tt, (mpfr_ptr)0);
}

/* ---- randomized: two masses with pounding vs a fine RK4 ---------------- */

typedef struct {
    double k0, k1, c, a, d, ag, om;
    mpfi_t s1, s2;
} chain2;

/* f = (0, 0, -ag sin(om t), -ag sin(om t)) */
static dvc_status chain_f(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    chain2 *C = ctx;
    mpfi_mul_d(C->s1, t, C->om);
    mpfi_sin(C->s2, C->s1);
    mpfi_mul_d(C->s2, C->s2, -C->ag);
    mpfi_set_ui(out->e[0], 0);
    mpfi_set_ui(out->e[1], 0);
    mpfi_set(out->e[2], C->s2);
    mpfi_set(out->e[3], C->s2);
    return DVC_OK;
}

static dvc_status chain_flip(mpfr_t out, const mpfi_t t, void *ctx)
{
    chain2 *C = ctx;
    mpfi_mul_d(C->s1, t, C->om);
    mpfi_cos(C->s2, C->s1);
    mpfi_mul_d(C->s2, C->s2, C->ag);
    mpfi_mul_d(C->s2, C->s2, C->om);
    dvc_ival_mag(out, C->s2);
    return DVC_OK;
}

static void chain_fd(double *out, double t, void *ctx)
{
    chain2 *C = ctx;
    out[0] = out[1] = 0.0;
    out[2] = out[3] = -C->ag * sin(C->om * t);
}

/* g = a d */
static dvc_status chain_g(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    chain2 *C = ctx;
    (void)t;
    mpfi_set_d(out->e[0], C->a);
    mpfi_mul_d(out->e[0], out->e[0], C->d);
    return DVC_OK;
}

static void chain_gd(double *out, double t, void *ctx)
{
    chain2 *C = ctx;
    (void)t;
    out[0] = C->a * C->d;
}

static void chain_rhs(const chain2 *C, double t, const double *x, double *dx)
{
    double y = fmax(0.0, C->a * (x[0] - x[1] - C->d)), fg = -C->ag * sin(C->om * t);
    dx[0] = x[2];
    dx[1] = x[3];
    dx[2] = -C->k0 * x[0] - C->c * x[2] + C->k1 * (x[1] - x[0]) - y + fg;
    dx[3] = -C->k0 * x[1] - C->c * x[3] + C->k1 * (x[0] - x[1]) + y + fg;
}

static void test_random_chain(void)
{
    check_rng rng = {424242};
    const long ncase = 16, nref = 60000, N = 300;
    const double T = 0.3;
    long contact_cases = 0;
    for (long cs = 0; cs < ncase; cs++) {
        chain2 C;
        dvc_dlvi_problem_t p;
        dvc_dlvi_result_t r;
        dvc_dlvi_opts o;
        dvc_ivec_t X, Y;
        mpfi_t t;
        mpfr_t v;
        double x0[4], xr[4], k1[4], k2[4], k3[4], k4[4], z[4], hr = T / nref;
        long bad = 0, contact = 0, next = 0;
        const char *theta = cs % 3 == 0 ? "0" : (cs % 3 == 1 ? "0.5" : "1");
        dvc_status st;
        C.k0 = check_rng_unif(&rng, 1, 5);
        C.k1 = check_rng_unif(&rng, 0, 2);
        C.c = check_rng_unif(&rng, 0, 0.5);
        C.a = check_rng_unif(&rng, 1, 4);
        C.d = check_rng_unif(&rng, 0, 0.05);
        C.ag = check_rng_unif(&rng, 0, 1);
        C.om = check_rng_unif(&rng, 1, 10);
        x0[0] = x0[1] = 0.0;
        x0[2] = check_rng_unif(&rng, 0, 1);
        x0[3] = check_rng_unif(&rng, -1, 0);
        mpfi_init2(C.s1, 53);
        mpfi_init2(C.s2, 53);
        dvc_dlvi_problem_init(p, 0, 0, 0);
        dlvi_dims(p, 4, 1);
        mpfi_set_ui(dvc_imat_entry(p->A, 0, 2), 1);
        mpfi_set_ui(dvc_imat_entry(p->A, 1, 3), 1);
        for (int j = 0; j < 2; j++) {
            mpfi_set_d(dvc_imat_entry(p->A, 2 + j, j), -C.k0);
            mpfi_sub_d(dvc_imat_entry(p->A, 2 + j, j), dvc_imat_entry(p->A, 2 + j, j), C.k1);
            mpfi_set_d(dvc_imat_entry(p->A, 2 + j, 1 - j), C.k1);
            mpfi_set_d(dvc_imat_entry(p->A, 2 + j, 2 + j), -C.c);
        }
        mpfi_set_si(dvc_imat_entry(p->B, 2, 0), -1);
        mpfi_set_si(dvc_imat_entry(p->B, 3, 0), 1);
        mpfi_set_d(dvc_imat_entry(p->Q, 0, 0), -C.a);
        mpfi_set_d(dvc_imat_entry(p->Q, 0, 1), C.a);
        mpfi_set_ui(dvc_imat_entry(p->M, 0, 0), 1);
        mpfi_set_ui(p->l->e[0], 0);
        dvc_ival_set_str(p->u->e[0], "inf");
        dvc_ivec_set_d(p->x0, x0);
        mpfi_set_d(p->T, T);
        p->N = N;
        dvc_ival_set_str(p->theta, theta);
        p->prec = 53;
        p->fcb = (dvc_tfun_cb){4, chain_f, chain_flip, chain_fd, &C, NULL, NULL, 0};
        p->gcb = (dvc_tfun_cb){1, chain_g, dlvi_zero_lip, chain_gd, &C, NULL, NULL, 0};
        dvc_dlvi_opts_default(&o);
        o.sharpen = (int)(cs & 1);
        dvc_dlvi_result_init(r);
        st = dvc_dlvi_run(r, p, &o);
        CHECK(st == DVC_OK, "random chain %ld: %s", cs, dvc_error_message());
        dvc_ivec_init2(X, 4, 53);
        dvc_ivec_init2(Y, 1, 53);
        mpfi_init2(t, 53);
        mpfr_init2(v, 53);
        /* RK4 with 200 substeps per step; compare at every grid point and
         * at the midpoint of every step */
        memcpy(xr, x0, sizeof xr);
        for (long i = 0; st == DVC_OK && i <= nref; i++) {
            if (i == next * (nref / (2 * N))) {
                double td = i * hr, y = fmax(0.0, C.a * (xr[0] - xr[1] - C.d));
                mpfi_set_d(t, fmin(td, T));
                if (dvc_dlvi_tube_x(X, r, t) != DVC_OK || dvc_dlvi_tube_y(Y, r, t) != DVC_OK) {
                    bad++;
                } else {
                    for (int j = 0; j < 4; j++) {
                        /* the reference is good to ~1e-9; widen it by 1e-8 */
                        mpfr_set_d(v, xr[j], MPFR_RNDN);
                        if (mpfr_cmp_d(&X->e[j]->left, xr[j] + 1e-8) > 0 ||
                            mpfr_cmp_d(&X->e[j]->right, xr[j] - 1e-8) < 0)
                            bad++;
                    }
                    if (mpfr_cmp_d(&Y->e[0]->left, y + 1e-7) > 0 || mpfr_cmp_d(&Y->e[0]->right, y - 1e-7) < 0)
                        bad++;
                }
                if (y > 0) contact = 1;
                next++;
            }
            if (i == nref) break;
            chain_rhs(&C, i * hr, xr, k1);
            for (int j = 0; j < 4; j++) z[j] = xr[j] + 0.5 * hr * k1[j];
            chain_rhs(&C, (i + 0.5) * hr, z, k2);
            for (int j = 0; j < 4; j++) z[j] = xr[j] + 0.5 * hr * k2[j];
            chain_rhs(&C, (i + 0.5) * hr, z, k3);
            for (int j = 0; j < 4; j++) z[j] = xr[j] + hr * k3[j];
            chain_rhs(&C, (i + 1) * hr, z, k4);
            for (int j = 0; j < 4; j++) xr[j] += hr / 6.0 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
        }
        if (st == DVC_OK) {
            CHECK(bad == 0, "random chain %ld (theta %s, sharpen %d): %ld values outside the tube", cs, theta,
                  o.sharpen, bad);
            CHECK(mpfr_cmp_d(r->eps_x[N], 1.0) < 0, "random chain %ld: eps_x(T) = %g is useless", cs,
                  mpfr_get_d(r->eps_x[N], MPFR_RNDU));
        }
        contact_cases += contact;
        dvc_ivec_clear(X);
        dvc_ivec_clear(Y);
        mpfi_clear(t);
        mpfr_clear(v);
        dvc_dlvi_result_clear(r);
        dvc_dlvi_problem_clear(p);
        mpfi_clear(C.s1);
        mpfi_clear(C.s2);
    }
    CHECK(contact_cases >= ncase / 2, "only %ld of %ld random cases had contact", contact_cases, ncase);
    printf("random two-mass pounding: %ld cases (%ld with contact) contained in the tubes\n", ncase,
           contact_cases);
}

/* A forcing that cannot be enclosed beyond t = 0.5: the run must stop there
 * with a message naming the step, keep the steps before, and report
 * progress through the callback. */
static dvc_status bad_f(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    if (mpfr_cmp_d(&t->right, 0.5) > 0) return dvc_error(DVC_NOT_CERTIFIED, "no enclosure here");
    return bridge_f(out, t, ctx);
}

static void count_progress(long step, long N, void *ctx)
{
    long *c = ctx;
    (void)N;
    (void)step;
    (*c)++;
}

static void test_stop_midway(void)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    fscratch fs;
    dvc_status st;
    long calls = 0;
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0", "0.2", "1", 4000);
    p->fcb.eval = bad_f;
    dvc_dlvi_opts_default(&o);
    o.progress_cb = count_progress;
    o.progress_ctx = &calls;
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, &o);
    CHECK(st == DVC_NOT_CERTIFIED, "stop midway: %s", dvc_status_name(st));
    CHECK(strstr(dvc_error_message(), "step 1999") != NULL && strstr(dvc_error_message(), "no enclosure here") != NULL,
          "message: %s", dvc_error_message());
    CHECK(r->steps_done == 1999, "steps done %ld", r->steps_done);
    CHECK(calls == 1, "progress callback calls %ld (every 1024 steps)", calls);
    {
        /* the certified part stays usable */
        dvc_ivec_t X;
        mpfi_t t;
        dvc_ivec_init2(X, 2, 53);
        mpfi_init2(t, 53);
        mpfi_set_d(t, 0.4);
        CHECK(dvc_dlvi_tube_x(X, r, t) == DVC_OK, "tube at 0.4: %s", dvc_error_message());
        mpfi_set_d(t, 0.6);
        CHECK(dvc_dlvi_tube_x(X, r, t) == DVC_ERR_INPUT, "tube at 0.6 must be refused");
        dvc_ivec_clear(X);
        mpfi_clear(t);
    }
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

/* A run whose bounds outgrow binary64 (here eps grows by a factor 2 per
 * step from 2^-30) must end "not certified" at the step where a stored
 * bound stops being finite, naming it, and keep only finite steps. */
static void test_bound_overflow(void)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_status st;
    long N = 2000;
    dvc_dlvi_problem_init(p, 1, 1, 53);
    /* x' = 1000 y, y = SOL(0, inf, x, 1): L = 1000, hL = 1/2 */
    mpfi_set_ui(dvc_imat_entry(p->B, 0, 0), 1000);
    mpfi_set_ui(dvc_imat_entry(p->Q, 0, 0), 1);
    mpfi_set_ui(dvc_imat_entry(p->M, 0, 0), 1);
    mpfi_interv_d(p->x0->e[0], 1.0, 1.0 + ldexp(1.0, -30));
    mpfi_set_ui(p->T, 1);
    p->N = N;
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, NULL);
    CHECK(st == DVC_NOT_CERTIFIED, "overflowing bound: %s (%s)", dvc_status_name(st), dvc_error_message());
    CHECK(r->steps_done > 100 && r->steps_done < N, "steps done %ld", r->steps_done);
    printf("overflow: %s\n", dvc_error_message());
    CHECK(strstr(dvc_error_message(), "not finite") != NULL && strstr(dvc_error_message(), "step ") != NULL &&
              strstr(dvc_error_message(), "t in [") != NULL,
          "message names step, time and quantity: %s", dvc_error_message());
    {
        int ok = 1;
        for (long i = 0; i < r->steps_done; i++)
            ok &= isfinite(r->ry[i]) && isfinite(r->Lx[i]) && isfinite(r->delta[i]) &&
                  isfinite(mpfr_get_d(r->eps_x[i + 1], MPFR_RNDU)) &&
                  isfinite(mpfr_get_d(r->eps_y[i + 1], MPFR_RNDU));
        CHECK(ok, "every certified step has finite bounds");
    }
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
}

/* dvc_dlvi_problem_init gives the shapes and the problem file's defaults. */
static void test_problem_init(void)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 3, 2, 80);
    CHECK(p->n == 3 && p->m == 2 && p->A->r == 3 && p->A->c == 3 && p->B->r == 3 && p->B->c == 2 &&
              p->Q->r == 2 && p->Q->c == 3 && p->M->r == 2 && p->l->n == 2 && p->u->n == 2 && p->x0->n == 3,
          "shapes");
    CHECK(mpfr_cmp_ui(&p->theta->left, 1) == 0 && mpfr_cmp_ui(&p->theta->right, 1) == 0, "theta = 1 as in files");
    CHECK(mpfi_get_prec(p->T) == 80 && p->prec == 80, "precision");
    CHECK(mpfi_is_zero(p->l->e[1]) && mpfr_inf_p(&p->u->e[1]->left), "l = 0, u = +inf");
    CHECK(p->fcb.eval == NULL && p->gcb.eval == NULL, "f = g = 0");
    dvc_dlvi_problem_clear(p);
}


/* ---- scaling of the state (docs/bounds.md, "Scaling of the state") ---- */

/* The wall of tests/data/scale/wall.json (the bridge with time scaled by 64)
 * and the bridge of certs/bridge, as problem files in a scratch file. */
static const char *wall_json =
    "{\"A\": [[0, 1], [-16384, 0]], \"B\": [[0], [-1]], \"f\": [\"0\", \"4096*sin(256*t)\"],"
    " \"Q\": [[12288, 0]], \"M\": [[1]], \"l\": [0], \"u\": [\"inf\"], \"g\": [\"0\"], \"x0\": [\"0.1\", \"-32\"], \"T\": \"0.015625\", \"N\": 1000}";
static const char *bridge_json =
    "{\"A\": [[0, 1], [-4, 0]], \"B\": [[0], [-1]], \"f\": [\"0\", \"sin(4*t)\"],"
    " \"Q\": [[3, 0]], \"M\": [[1]], \"l\": [0], \"u\": [\"inf\"], \"g\": [\"0\"], \"x0\": [0, \"0.2\"], \"T\": 1, \"h\": \"0.001\"}";

static void read_text(dvc_dlvi_problem_t p, const char *text)
{
    char path[64];
    int fd;
    FILE *f;
    snprintf(path, sizeof path, "/tmp/dvc_test_scale.XXXXXX");
    fd = mkstemp(path);
    REQUIRE(fd >= 0, "mkstemp");
    f = fdopen(fd, "w");
    REQUIRE(f && fputs(text, f) >= 0 && fclose(f) == 0, "write %s", path);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    REQUIRE(dvc_problem_read(p, path, 53) == DVC_OK, "read: %s", dvc_error_message());
    unlink(path);
}

static int same_ival(const mpfi_t a, const mpfi_t b)
{
    return mpfr_equal_p(&a->left, &b->left) && mpfr_equal_p(&a->right, &b->right);
}

static int is_pt(const mpfi_t a, double d)
{
    return mpfr_cmp_d(&a->left, d) == 0 && mpfr_cmp_d(&a->right, d) == 0;
}

static int same_problem(const dvc_dlvi_problem_t p, const dvc_dlvi_problem_t q)
{
    long n = p->n, m = p->m;
    int ok = n == q->n && m == q->m;
    for (long k = 0; ok && k < n * n; k++) ok = same_ival(p->A->e[k], q->A->e[k]);
    for (long k = 0; ok && k < n * m; k++) ok = same_ival(p->B->e[k], q->B->e[k]) && same_ival(p->Q->e[k], q->Q->e[k]);
    for (long k = 0; ok && k < m * m; k++) ok = same_ival(p->M->e[k], q->M->e[k]);
    for (long k = 0; ok && k < n; k++) ok = same_ival(p->x0->e[k], q->x0->e[k]);
    return ok;
}

static void test_scale(void)
{
    dvc_dlvi_problem_t p, q;
    long e[2], neg[2];
    dvc_ivec_t fp, fq;
    mpfi_t t, v;
    mpfr_t lp, lq;
    double z[2], x[2];
    read_text(p, wall_json);
    read_text(q, wall_json);
    /* the automatic choice balances the coupling C = |A| + |B||Q|: C_12 = 1,
     * C_21 = 16384 + 12288 = 28672, balanced at s_2 / s_1 = sqrt(28672) =
     * 169.3; radix-2 balancing lands within a factor 2 of it */
    REQUIRE(dvc_dlvi_scale_auto(e, p) == DVC_OK, "auto: %s", dvc_error_message());
    CHECK(e[0] == 0 && (e[1] == 7 || e[1] == 8), "wall scale 2^(%ld, %ld), expected (0, 7 or 8)", e[0], e[1]);
    /* exact transform: A' = S^-1 A S, B' = S^-1 B, Q' = Q S, x0' = S^-1 x0 */
    e[0] = 0, e[1] = 7;
    REQUIRE(dvc_dlvi_problem_scale(p, e) == DVC_OK, "scale: %s", dvc_error_message());
    CHECK(is_pt(p->A->e[0], 0) && is_pt(p->A->e[1], 128) && is_pt(p->A->e[2], -128) && is_pt(p->A->e[3], 0),
          "A' = [[0, 128], [-128, 0]]");
    CHECK(is_pt(p->B->e[0], 0) && is_pt(p->B->e[1], -1.0 / 128) && is_pt(p->Q->e[0], 12288) &&
              is_pt(p->Q->e[1], 0) && is_pt(p->x0->e[1], -0.25) && same_ival(p->x0->e[0], q->x0->e[0]),
          "B' = (0, -1/128), Q' = Q (s_1 = 1, x2 has no entry), x0' = (0.1, -0.25)");
    dvc_ivec_init2(fp, 2, 53);
    dvc_ivec_init2(fq, 2, 53);
    mpfi_init2(t, 53);
    mpfi_init2(v, 53);
    mpfr_inits2(53, lp, lq, (mpfr_ptr)0);
    mpfi_interv_d(t, 0.001, 0.002);
    REQUIRE(p->fcb.eval(fp, t, p->fcb.ctx) == DVC_OK && q->fcb.eval(fq, t, q->fcb.ctx) == DVC_OK, "f");
    mpfi_mul_2si(v, fq->e[1], -7);
    CHECK(same_ival(fp->e[1], v) && same_ival(fp->e[0], fq->e[0]), "f' = S^-1 f");
    REQUIRE(p->fcb.lipschitz(lp, t, p->fcb.ctx) == DVC_OK && q->fcb.lipschitz(lq, t, q->fcb.ctx) == DVC_OK,
            "Lipschitz");
    CHECK(mpfr_cmp(lp, lq) >= 0 && mpfr_cmp(lp, lq) <= 0, "Lipschitz of S^-1 f with min s_j = 1: that of f");
    /* and back: the same problem, entry for entry */
    neg[0] = -e[0], neg[1] = -e[1];
    REQUIRE(dvc_dlvi_problem_scale(p, neg) == DVC_OK, "unscale: %s", dvc_error_message());
    CHECK(same_problem(p, q), "scale then unscale gives the same problem");
    REQUIRE(p->fcb.eval(fp, t, p->fcb.ctx) == DVC_OK, "f");
    CHECK(same_ival(fp->e[0], fq->e[0]) && same_ival(fp->e[1], fq->e[1]), "f back");
    /* out of range exponents are refused */
    e[1] = DVC_DLVI_SCALE_EMAX + 1;
    CHECK(dvc_dlvi_problem_scale(p, e) == DVC_ERR_INPUT, "exponent beyond the limit refused");
    CHECK(same_problem(p, q), "a refused scale leaves the problem");
    /* points: exact, or refused */
    e[0] = 3, e[1] = -7;
    x[0] = 0.1, x[1] = -32;
    CHECK(dvc_dlvi_scale_point(z, x, e, 2, 0) == DVC_OK && z[0] == 0.1 / 8 && z[1] == -4096, "z = S^-1 x");
    CHECK(dvc_dlvi_scale_point(z, z, e, 2, 1) == DVC_OK && z[0] == x[0] && z[1] == x[1], "x = S z in place");
    x[0] = 0x1p-1072;
    CHECK(dvc_dlvi_scale_point(z, x, e, 2, 0) == DVC_ERR_INPUT, "bits lost below the normal range refused");
    x[0] = 0x1p1022; /* times 2^3 */
    CHECK(dvc_dlvi_scale_point(z, x, e, 2, 1) == DVC_ERR_INPUT, "overflow refused");
    dvc_ivec_clear(fp);
    dvc_ivec_clear(fq);
    mpfi_clear(t);
    mpfi_clear(v);
    mpfr_clears(lp, lq, (mpfr_ptr)0);
    dvc_dlvi_problem_clear(p);
    dvc_dlvi_problem_clear(q);
    /* the bridge: C_12 = 1, C_21 = 4 + 3 = 7, ||C|| = 7; balanced at most to
     * ||C'|| = 2 sqrt 7 = 5.3 > 7 / 4: not worth another unit, scale 1 */
    read_text(p, bridge_json);
    REQUIRE(dvc_dlvi_scale_auto(e, p) == DVC_OK, "auto: %s", dvc_error_message());
    CHECK(e[0] == 0 && e[1] == 0 && dvc_dlvi_scale_is_identity(e, 2), "bridge keeps scale 1: (%ld, %ld)", e[0], e[1]);
    dvc_dlvi_problem_clear(p);
}

int main(void)
{
    test_problem_init();
    test_last_step();
    test_bound_overflow();
    test_reference();
    test_refusals();
    test_order_and_table();
    test_stored_predictor();
    test_interval_x0();
    test_remark43();
    test_predictor_defect();
    test_tfun_path();
    test_time_dependent_g();
    test_random_chain();
    test_stop_midway();
    test_bridge();
    test_scale();
    return check_report();
}
