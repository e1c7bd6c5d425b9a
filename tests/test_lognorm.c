/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route (docs/lognorm.md): log norms of the piece Jacobians
 * against hand-computed values, containment of the closed-form bridge
 * (with and without contact switches, at random times between grid points)
 * and of Remark 4.3's 2 - e^t, agreement of two step sizes with a
 * time-dependent g (circuit), and the tightness ratio certified radius /
 * true error of the same predictor (256-bit reference). */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dlvi_setup.h"
#include "dvicert/dlvi.h"
#include "dvicert/lognorm.h"
#include "dvicert/problem.h"
#include "dvicert/tfun.h"
#include "dvicert/tube.h"
#include "ref_bridge.h"
#include "last_step.h"
#include "ref_remark43.h"
#include "dlvi/lognorm_expm.h"

static const char *certs_dir = "certs";

/* Ratio certified radius / true error at T. Issue targets: <= 3 at T = 1
 * (h = 1e-4) and <= 30 at T = 10 (h = 1e-3). */
#define TIGHT_T1 3.0
#define TIGHT_T10 30.0

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

/* its derivative (0, 4 cos 4t) over [t] */
static dvc_status bridge_fderiv(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    fscratch *s = ctx;
    mpfi_set_ui(out->e[0], 0);
    mpfi_mul_ui(s->a, t, 4);
    mpfi_cos(out->e[1], s->a);
    mpfi_mul_ui(out->e[1], out->e[1], 4);
    return DVC_OK;
}

static void bridge_fd(double *out, double t, void *ctx)
{
    (void)ctx;
    out[0] = 0.0;
    out[1] = sin(4.0 * t);
}

static void bridge_problem(dvc_dlvi_problem_t p, fscratch *fs, const char *x10, const char *gamma,
                           const char *theta, long N, double T)
{
    static const char *const A[] = {"0", "1", "-4", "0"}, *const B[] = {"0", "-1"},
                             *const Q[] = {"3", "0"}, *const M[] = {"1"}, *const l[] = {"0"},
                             *const u[] = {"inf"};
    const char *x0[] = {x10, gamma};
    set_data(p, 2, 1, A, B, Q, M, l, u, x0);
    mpfi_set_d(p->T, T);
    p->N = N;
    REQUIRE(dvc_ival_set_str(p->theta, theta) == DVC_OK, "theta");
    p->prec = 53;
    set_f(p, 2, bridge_f, bridge_flip, bridge_fd, fs);
    p->fcb.deriv = bridge_fderiv;
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

static int inside(const mpfi_t a, const mpfr_t x)
{
    return mpfr_cmp(&a->left, x) <= 0 && mpfr_cmp(x, &a->right) <= 0;
}

/* ---- norms -------------------------------------------------------------- */

/* Remark 4.3 (n = 1): J_D = -1, 1, 0, 12 for the free sets {}, {1}, {2},
 * {1,2} (hand computation in docs/lognorm.md section 2), so in any norm
 * mu_pat must enclose them from above, tightly. */
static void test_remark_mu(void)
{
    static const double exact[4] = {-1, 1, 0, 12};
    dvc_dlvi_problem_t p;
    dvc_lognorm_info_t info;
    dvc_lognorm_opts o;
    dvc_status st;
    dvc_dlvi_problem_init(p, 0, 0, 0);
    remark_problem(p, "10", "1", 10, "0.5");
    dvc_lognorm_info_init(info);
    for (int kind = DVC_LOGNORM_DIAG; kind <= DVC_LOGNORM_QUAD; kind++) {
        dvc_lognorm_opts_default(&o);
        o.norm = (dvc_lognorm_kind)kind;
        st = dvc_lognorm_norm(info, p, &o);
        CHECK(st == DVC_OK, "remark mu: %s", dvc_error_message());
        if (st != DVC_OK) continue;
        CHECK(info->npat == 4, "npat %ld", info->npat);
        for (int k = 0; k < 4 && k < info->npat; k++) {
            double v = mpfr_get_d(info->mu_pat[k], MPFR_RNDU);
            CHECK(v >= exact[k] && v <= exact[k] + 1e-9, "kind %d pattern %d: mu %.17g, exact %g", kind, k, v,
                  exact[k]);
        }
        CHECK(mpfr_cmp_d(info->mu, 12) >= 0 && mpfr_get_d(info->mu, MPFR_RNDU) < 12 + 1e-9, "mu %g",
              mpfr_get_d(info->mu, MPFR_RNDU));
    }
    dvc_lognorm_info_clear(info);
    dvc_dlvi_problem_clear(p);
}

/* The search at n = 8 (where its eigenvalues come from the tridiagonal
 * reduction and Sturm bisection, not Jacobi): the bridge's oscillator with
 * its contact, next to three free oscillators x'' = -k x (k = 2, 3, 5, each
 * skew in its energy norm). A block-diagonal P with the bridge's optimum
 * a = 5/2 on the first block and diag(k, 1) on the others gives
 * mu = 3 / (2 sqrt 10) for both patterns; the search must reach that, and
 * the proven mu must not undercut the spectral abscissa 0. */
static void test_big_mu(void)
{
    enum { N8 = 8 };
    static const long k[4] = {4, 2, 3, 5};
    char *A[N8 * N8], *B[N8], *Q[N8];
    static const char *const M[] = {"1"}, *const l[] = {"0"}, *const u[] = {"inf"};
    const char *x0[N8];
    char buf[N8 * N8][24];
    dvc_dlvi_problem_t p;
    dvc_lognorm_info_t info;
    dvc_lognorm_opts o;
    dvc_status st;
    for (int i = 0; i < N8 * N8; i++) {
        int r = i / N8, c = i % N8;
        long v = r / 2 != c / 2 ? 0 : r % 2 == 0 ? (c % 2 == 1) : (c % 2 == 0 ? -k[r / 2] : 0);
        snprintf(buf[i], sizeof buf[i], "%ld", v);
        A[i] = buf[i];
    }
    for (int i = 0; i < N8; i++) {
        B[i] = i == 1 ? "-1" : "0";
        Q[i] = i == 0 ? "3" : "0";
        x0[i] = i % 2 == 0 ? "0.1" : "0";
    }
    dvc_dlvi_problem_init(p, 0, 0, 0);
    set_data(p, N8, 1, (const char *const *)A, (const char *const *)B, (const char *const *)Q, M, l, u, x0);
    mpfi_set_d(p->T, 1.0);
    p->N = 100;
    p->prec = 53;
    dvc_lognorm_info_init(info);
    dvc_lognorm_opts_default(&o);
    o.norm = DVC_LOGNORM_QUAD;
    st = dvc_lognorm_norm(info, p, &o);
    CHECK(st == DVC_OK, "n = 8 quad: %s", dvc_error_message());
    if (st == DVC_OK) {
        double mu = mpfr_get_d(info->mu, MPFR_RNDU);
        printf("n = 8 (bridge + 3 oscillators): quadratic norm: mu = %.9g (3/(2 sqrt 10) = %.9g)\n", mu,
               3.0 / (2.0 * sqrt(10.0)));
        CHECK(mu >= 0.0 && mu <= 3.0 / (2.0 * sqrt(10.0)) + 1e-6, "n = 8 quad mu %g", mu);
    }
    dvc_lognorm_info_clear(info);
    dvc_dlvi_problem_clear(p);
}

/* mu of the bridge (J_0 = [[0,1],[-4,0]], J_1 = [[0,1],[-1,0]]): in the
 * weighted inf norm mu >= 2 (the rotation rate); with P = diag(a, 1) the
 * log norms are |a - k| / (2 sqrt a), k = 4, 1, minimal at a = 5/2:
 * 3 / (2 sqrt 10) = 0.4743. The search must reach that or better, and the
 * proven mu must not undercut the spectral abscissa 0. */
static void test_bridge_mu(void)
{
    dvc_dlvi_problem_t p;
    dvc_lognorm_info_t info;
    dvc_lognorm_opts o;
    fscratch fs;
    dvc_status st;
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0", "0.2", "1", 100, 1.0);
    dvc_lognorm_info_init(info);
    dvc_lognorm_opts_default(&o);
    o.norm = DVC_LOGNORM_DIAG;
    st = dvc_lognorm_norm(info, p, &o);
    CHECK(st == DVC_OK, "bridge diag: %s", dvc_error_message());
    if (st == DVC_OK) {
        double mu = mpfr_get_d(info->mu, MPFR_RNDU);
        printf("bridge: diagonal-weighted inf norm: mu = %.6g (w = %.4g, %.4g)\n", mu, info->w[0], info->w[1]);
        CHECK(mu >= 2.0 && mu < 2.001, "bridge diag mu %g", mu);
    }
    o.norm = DVC_LOGNORM_AUTO;
    st = dvc_lognorm_norm(info, p, &o);
    CHECK(st == DVC_OK, "bridge auto: %s", dvc_error_message());
    if (st == DVC_OK) {
        double mu = mpfr_get_d(info->mu, MPFR_RNDU);
        CHECK(info->kind == DVC_LOGNORM_QUAD, "bridge: auto chose %s", dvc_lognorm_kind_name(info->kind));
        if (info->kind == DVC_LOGNORM_QUAD)
            printf("bridge: quadratic norm: mu = %.6g, R = [[%.4g, %.4g], [0, %.4g]], c_inf = %.4g, c_Q = %.4g\n",
                   mu, info->R[0], info->R[1], info->R[3], mpfr_get_d(info->c_inf, MPFR_RNDU),
                   mpfr_get_d(info->c_Q, MPFR_RNDU));
        CHECK(mu >= 0.0 && mu <= 3.0 / (2.0 * sqrt(10.0)) + 1e-6, "bridge quad mu %g", mu);
    }
    dvc_lognorm_info_clear(info);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

/* mu of the examples in certs/ (printed for docs/lognorm.md; each must be
 * certified and finite). */
static void test_certs_mu(void)
{
    static const char *const files[] = {"bridge/gamma0.2.json", "pounding/pounding.json", "circuit/circuit.json",
                                        "remark43/x0_1.json"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024];
        dvc_dlvi_problem_t p;
        dvc_lognorm_info_t info;
        dvc_lognorm_opts o;
        dvc_status st;
        snprintf(path, sizeof path, "%s/%s", certs_dir, files[f]);
        dvc_dlvi_problem_init(p, 0, 0, 0);
        st = dvc_problem_read(p, path, 0);
        CHECK(st == DVC_OK, "%s: %s", path, dvc_error_message());
        dvc_lognorm_info_init(info);
        for (int kind = DVC_LOGNORM_DIAG; st == DVC_OK && kind <= DVC_LOGNORM_QUAD; kind++) {
            dvc_status s2;
            dvc_lognorm_opts_default(&o);
            o.norm = (dvc_lognorm_kind)kind;
            s2 = dvc_lognorm_norm(info, p, &o);
            CHECK(s2 == DVC_OK, "%s kind %d: %s", path, kind, dvc_error_message());
            if (s2 == DVC_OK)
                printf("%-24s %-30s mu = %-12.6g c_inf = %.4g\n", files[f], dvc_lognorm_kind_name(info->kind),
                       mpfr_get_d(info->mu, MPFR_RNDU), mpfr_get_d(info->c_inf, MPFR_RNDU));
        }
        dvc_lognorm_info_clear(info);
        dvc_dlvi_problem_clear(p);
    }
}

/* ---- runs --------------------------------------------------------------- */

typedef struct {
    double radius_T;  /* c_inf E_N: certified ||x(T) - x^N||_inf */
    double err_T;     /* true ||x(T) - x^N||_inf */
    double rad_max;   /* max over the grid of the certified radius */
    double err_max;   /* max over the grid of the true error of the predictor */
    long bad;
} bridge_out;

/* Run the route on the bridge and check the x and y tubes at nsamp times
 * (grid points and random times between them) against the reference. */
static bridge_out run_bridge(const char *x10, const char *gamma, long N, double T, const ref_bridge *ref,
                             check_rng *rng, long nsamp, const dvc_lognorm_opts *o)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_lognorm_info_t info;
    fscratch fs;
    dvc_status st;
    bridge_out out = {-1, -1, 0, 0, 0};
    char label[96];
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, x10, gamma, "1", N, T);
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    snprintf(label, sizeof label, "bridge x0=(%s,%s) N=%ld T=%g", x10, gamma, N, T);
    st = dvc_lognorm_run(r, info, p, o);
    CHECK(st == DVC_OK, "%s: %s: %s", label, dvc_status_name(st), dvc_error_message());
    if (st == DVC_OK) {
        dvc_ivec_t X, Y;
        mpfi_t t;
        mpfr_t x1, x2, y, tt;
        double worst = 0;
        dvc_ivec_init2(X, 2, 53);
        dvc_ivec_init2(Y, 1, 53);
        mpfi_init2(t, 53);
        mpfr_inits2(REF_PREC, x1, x2, y, tt, (mpfr_ptr)0);
        for (long s = 0; s < nsamp; s++) {
            double td = s % 2 == 0 ? fmin(r->t[check_rng_int(rng, 0, N)], T) : check_rng_unif(rng, 0.0, T);
            mpfi_set_d(t, td);
            mpfr_set_d(tt, td, MPFR_RNDN);
            ref_bridge_eval(ref, x1, x2, y, tt);
            if (dvc_dlvi_tube_x(X, r, t) != DVC_OK || dvc_dlvi_tube_y(Y, r, t) != DVC_OK ||
                !inside(X->e[0], x1) || !inside(X->e[1], x2) || !inside(Y->e[0], y)) {
                if (out.bad++ < 3)
                    fprintf(stderr, "%s: t = %.17g: x = (%.17g, %.17g), y = %.17g outside [%g,%g] [%g,%g] [%g,%g]\n",
                            label, td, mpfr_get_d(x1, MPFR_RNDN), mpfr_get_d(x2, MPFR_RNDN), mpfr_get_d(y, MPFR_RNDN),
                            mpfr_get_d(&X->e[0]->left, MPFR_RNDN), mpfr_get_d(&X->e[0]->right, MPFR_RNDN),
                            mpfr_get_d(&X->e[1]->left, MPFR_RNDN), mpfr_get_d(&X->e[1]->right, MPFR_RNDN),
                            mpfr_get_d(&Y->e[0]->left, MPFR_RNDN), mpfr_get_d(&Y->e[0]->right, MPFR_RNDN));
            } else {
                for (int k = 0; k < 2; k++) {
                    double c = 0.5 * (mpfr_get_d(&X->e[k]->left, MPFR_RNDN) + mpfr_get_d(&X->e[k]->right, MPFR_RNDN));
                    double hw = 0.5 * (mpfr_get_d(&X->e[k]->right, MPFR_RNDN) - mpfr_get_d(&X->e[k]->left, MPFR_RNDN));
                    double d = fabs(mpfr_get_d(k == 0 ? x1 : x2, MPFR_RNDN) - c);
                    if (hw > 0 && d / hw > worst) worst = d / hw;
                }
            }
        }
        CHECK(out.bad == 0, "%s: %ld of %ld samples outside the tube", label, out.bad, nsamp);
        /* the radius at T and the true error of the same predictor there */
        mpfr_set_d(tt, T, MPFR_RNDN);
        ref_bridge_eval(ref, x1, x2, y, tt);
        mpfr_sub_d(x1, x1, r->x[2 * N], MPFR_RNDN);
        mpfr_sub_d(x2, x2, r->x[2 * N + 1], MPFR_RNDN);
        out.err_T = fmax(fabs(mpfr_get_d(x1, MPFR_RNDN)), fabs(mpfr_get_d(x2, MPFR_RNDN)));
        out.radius_T = info->rad[N];
        for (long i = 0; i <= N; i++) {
            mpfr_set_d(tt, r->t[i], MPFR_RNDN);
            ref_bridge_eval(ref, x1, x2, y, tt);
            mpfr_sub_d(x1, x1, r->x[2 * i], MPFR_RNDN);
            mpfr_sub_d(x2, x2, r->x[2 * i + 1], MPFR_RNDN);
            out.err_max = fmax(out.err_max, fmax(fabs(mpfr_get_d(x1, MPFR_RNDN)), fabs(mpfr_get_d(x2, MPFR_RNDN))));
            out.rad_max = fmax(out.rad_max, info->rad[i]);
        }
        printf("%-36s %s mu = %.4g: radius(T) = %.4e, true error = %.4e, ratio %.3f; affine steps %ld, "
               "local-mu steps %ld, mode norms %ld, switches %ld, set steps %ld; max|x - c|/halfwidth %.3f\n",
               label, info->kind == DVC_LOGNORM_QUAD ? "P" : "W", mpfr_get_d(info->mu, MPFR_RNDU), out.radius_T,
               out.err_T, out.radius_T / out.err_T, info->n_affine, info->n_local, info->n_modes, info->n_switch, info->n_set, worst);
        dvc_ivec_clear(X);
        dvc_ivec_clear(Y);
        mpfi_clear(t);
        mpfr_clears(x1, x2, y, tt, (mpfr_ptr)0);
    }
    dvc_lognorm_info_clear(info);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
    return out;
}

/* Initial values with and without contact (x1 < 0, y > 0) in [0, 1]. */
static const struct {
    const char *x10, *gamma;
} cases[] = {
    {"0", "0.2"}, {"0", "2.0"}, {"0.02", "-0.3"}, {"0.01", "-0.1"}, {"-0.1", "1"},
};

static void test_bridge_containment(void)
{
    check_rng rng = {12345};
    dvc_lognorm_opts o;
    dvc_lognorm_opts_default(&o);
    for (size_t g = 0; g < sizeof cases / sizeof cases[0]; g++) {
        ref_bridge ref;
        REQUIRE(ref_bridge_init(&ref, cases[g].x10, cases[g].gamma, 1.0) == 0, "reference");
        run_bridge(cases[g].x10, cases[g].gamma, 1000, 1.0, &ref, &rng, 400, &o);
        ref_bridge_clear(&ref);
    }
    /* the other norm and a single piece per step stay sound */
    {
        ref_bridge ref;
        REQUIRE(ref_bridge_init(&ref, "0.02", "-0.3", 1.0) == 0, "reference");
        o.norm = DVC_LOGNORM_DIAG;
        o.pieces = 1;
        o.local_mu = 0;
        run_bridge("0.02", "-0.3", 1000, 1.0, &ref, &rng, 400, &o);
        ref_bridge_clear(&ref);
    }
}

/* Tightness, and the mode-following norm against one fixed norm. */
static void test_bridge_tightness(void)
{
    check_rng rng = {777};
    dvc_lognorm_opts o;
    ref_bridge ref;
    bridge_out b, bf;
    dvc_lognorm_opts_default(&o);
    REQUIRE(ref_bridge_init(&ref, "0", "0.2", 1.0) == 0, "reference");
    b = run_bridge("0", "0.2", 10000, 1.0, &ref, &rng, 200, &o);
    CHECK(b.err_T > 0 && b.radius_T / b.err_T <= TIGHT_T1, "bridge gamma 0.2, h = 1e-4, T = 1: ratio %g",
          b.radius_T / b.err_T);
    ref_bridge_clear(&ref);
    REQUIRE(ref_bridge_init(&ref, "0", "1", 10.0) == 0, "reference T = 10");
    CHECK(ref.nseg > 2, "x0 = (0, 1) has contact switches in [0, 10]: %d segments", ref.nseg);
    b = run_bridge("0", "1", 10000, 10.0, &ref, &rng, 400, &o);
    CHECK(b.err_T > 0 && b.radius_T / b.err_T <= TIGHT_T10, "bridge x0 = (0, 1), h = 1e-3, T = 10: ratio %g",
          b.radius_T / b.err_T);
    /* without the error set: the norm bounds alone; one fixed norm pays
     * e^{mu T} with mu = 0.47, the mode-following norm much less */
    o.error_set = 0;
    b = run_bridge("0", "1", 5000, 10.0, &ref, &rng, 100, &o);
    o.mode_follow = 0;
    bf = run_bridge("0", "1", 5000, 10.0, &ref, &rng, 100, &o);
    CHECK(bf.radius_T > 3.0 * b.radius_T, "mode following: %g, fixed norm %g", b.radius_T, bf.radius_T);
    ref_bridge_clear(&ref);
}

/* Heun's predictor (order 2) against the theta method: the tubes contain
 * the 256-bit reference, stay close to the predictor's true error, and a
 * target radius needs far fewer steps (docs/lognorm.md section 11). */
static void test_heun(void)
{
    check_rng rng = {4242};
    dvc_lognorm_opts o;
    ref_bridge ref;
    bridge_out b;
    const double target = 1e-4;
    long need[2] = {0, 0};
    dvc_lognorm_opts_default(&o);
    o.predictor = DVC_LOGNORM_PRED_HEUN;
    o.pieces = DVC_LOGNORM_PIECES_EXT;
    for (size_t g = 0; g < sizeof cases / sizeof cases[0]; g++) {
        REQUIRE(ref_bridge_init(&ref, cases[g].x10, cases[g].gamma, 1.0) == 0, "reference");
        b = run_bridge(cases[g].x10, cases[g].gamma, 1000, 1.0, &ref, &rng, 400, &o);
        CHECK(b.err_max > 0 && b.rad_max / b.err_max <= 10.0, "heun, bridge x0 = (%s, %s), h = 1e-3: max radius %g, "
              "max true error %g", cases[g].x10, cases[g].gamma, b.rad_max, b.err_max);
        ref_bridge_clear(&ref);
    }
    /* contact switches over [0, 10] */
    REQUIRE(ref_bridge_init(&ref, "0", "1", 10.0) == 0, "reference T = 10");
    b = run_bridge("0", "1", 10000, 10.0, &ref, &rng, 400, &o);
    CHECK(b.err_max > 0 && b.rad_max / b.err_max <= 30.0, "heun, bridge x0 = (0, 1), h = 1e-3, T = 10: max radius "
          "%g, max true error %g", b.rad_max, b.err_max);
    printf("heun, bridge x0 = (0, 1), h = 1e-3, T = 10: max radius %.3e, max true error %.3e, ratio %.2f\n",
           b.rad_max, b.err_max, b.rad_max / b.err_max);
    ref_bridge_clear(&ref);
    /* steps for a radius <= target at every grid point, bridge gamma = 0.2, T = 1 */
    REQUIRE(ref_bridge_init(&ref, "0", "0.2", 1.0) == 0, "reference");
    for (int k = 0; k < 2; k++) {
        dvc_lognorm_opts_default(&o);
        if (k == 1) {
            o.predictor = DVC_LOGNORM_PRED_HEUN;
            o.pieces = DVC_LOGNORM_PIECES_EXT;
        }
        for (long N = 50; N <= 51200 && need[k] == 0; N *= 2) {
            b = run_bridge("0", "0.2", N, 1.0, &ref, &rng, 50, &o);
            if (b.bad || b.rad_max <= 0) break;
            if (b.rad_max <= target) need[k] = N;
        }
    }
    printf("bridge gamma = 0.2, T = 1, max radius <= %g: theta needs N = %ld, heun N = %ld\n", target, need[0],
           need[1]);
    CHECK(need[0] > 0 && need[1] > 0 && 8 * need[1] <= need[0],
          "a radius <= %g: heun (N = %ld) takes at least 8x fewer steps than theta (N = %ld)", target, need[1],
          need[0]);
    ref_bridge_clear(&ref);
}

/* A stated norm (what verify passes from a certificate) is used as it is,
 * not searched: the identity on the bridge has mu = max(mu_2(J_0), mu_2(J_1))
 * = max(1.5, 0) (J_0 = [[0, 1], [-4, 0]], J_1 = [[0, 1], [-1, 0]]), the
 * searched quadratic norm 0.47; no mode norm is created unless stated. A
 * stated norm that is not upper triangular is refused. */
static void test_stated(void)
{
    static const double I2[4] = {1, 0, 0, 1}, L2[4] = {1, 0, 0.5, 1};
    dvc_lognorm_stated s = {DVC_LOGNORM_QUAD, I2, -1};
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_lognorm_info_t info;
    dvc_lognorm_opts o;
    fscratch fs;
    dvc_status st;
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    for (int k = 0; k < 2; k++) {
        dvc_dlvi_problem_init(p, 0, 0, 0);
        bridge_problem(p, &fs, "0.02", "-0.3", "1", 500, 1.0);
        dvc_lognorm_opts_default(&o);
        s.v = k == 0 ? I2 : L2;
        o.stated = &s;
        o.n_stated = 1;
        dvc_dlvi_result_init(r);
        dvc_lognorm_info_init(info);
        st = dvc_lognorm_run(r, info, p, &o);
        if (k == 0) {
            CHECK(st == DVC_OK, "stated identity norm: %s", dvc_error_message());
            CHECK(st == DVC_OK && info->kind == DVC_LOGNORM_QUAD && info->R &&
                      memcmp(info->R, I2, sizeof I2) == 0 && info->n_modes == 0,
                  "the stated norm is the one used, no mode norm searched (%ld)", info->n_modes);
            CHECK(st == DVC_OK && mpfr_cmp_d(info->mu, 1.5) >= 0 && mpfr_cmp_d(info->mu, 1.5 + 1e-6) <= 0 &&
                      mpfr_cmp_d(info->mu_pat[1], 1e-6) <= 0,
                  "identity norm: mu %.17g (1.5), mu of the contact piece %.17g (0)",
                  mpfr_get_d(info->mu, MPFR_RNDU), st == DVC_OK ? mpfr_get_d(info->mu_pat[1], MPFR_RNDU) : -1.0);
        } else {
            CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "upper triangular") != NULL,
                  "a stated norm with a lower entry refused: %d: %s", (int)st, dvc_error_message());
        }
        dvc_lognorm_info_clear(info);
        dvc_dlvi_result_clear(r);
        dvc_dlvi_problem_clear(p);
    }
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

/* Remark 4.3: x = y1 = 2 - e^t, y2 = 0. */
static void test_remark(void)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_lognorm_info_t info;
    dvc_status st;
    check_rng rng = {99};
    dvc_dlvi_problem_init(p, 0, 0, 0);
    remark_problem(p, "10", "1", 500, "0.5");
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    st = dvc_lognorm_run(r, info, p, NULL);
    CHECK(st == DVC_OK, "remark 4.3: %s", dvc_error_message());
    if (st == DVC_OK) {
        dvc_ivec_t X, Y;
        mpfi_t t;
        mpfr_t x, y1, y2, tt;
        long bad = 0;
        dvc_ivec_init2(X, 1, 53);
        dvc_ivec_init2(Y, 2, 53);
        mpfi_init2(t, 53);
        mpfr_inits2(256, x, y1, y2, tt, (mpfr_ptr)0);
        for (long s = 0; s < 2000; s++) {
            double td = s % 2 ? check_rng_unif(&rng, 0, 0.5) : fmin(r->t[check_rng_int(&rng, 0, 500)], 0.5);
            mpfi_set_d(t, td);
            mpfr_set_d(tt, td, MPFR_RNDN);
            ref_remark43(x, y1, y2, tt);
            if (dvc_dlvi_tube_x(X, r, t) != DVC_OK || dvc_dlvi_tube_y(Y, r, t) != DVC_OK || !inside(X->e[0], x) ||
                !inside(Y->e[0], y1) || !inside(Y->e[1], y2))
                bad++;
        }
        CHECK(bad == 0, "remark 4.3: %ld of 2000 samples outside", bad);
        /* the single pattern (y1 free) is certified on (nearly) every step:
         * its log norm 1 replaces the global 12 */
        CHECK(info->n_local >= 490, "remark 4.3: local mu on %ld steps", info->n_local);
        printf("remark 4.3 mu=10: global mu %.4g, eps_x(0.5) = %.4e, eps_y(0.5) = %.4e, local-mu steps %ld, "
               "affine steps %ld\n",
               mpfr_get_d(info->mu, MPFR_RNDU), mpfr_get_d(r->eps_x[500], MPFR_RNDU),
               mpfr_get_d(r->eps_y[500], MPFR_RNDU), info->n_local, info->n_affine);
        dvc_ivec_clear(X);
        dvc_ivec_clear(Y);
        mpfi_clear(t);
        mpfr_clears(x, y1, y2, tt, (mpfr_ptr)0);
    }
    dvc_lognorm_info_clear(info);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
}


/* ---- a last step shorter than h ----------------------------------------- */

/* Remark 4.3 on a grid whose h does not divide T: last_step_check, tests/last_step.h. */

/* The lognorm route with the theta and Heun predictors, and a stored
 * predictor certified again. */
static void test_last_step(void)
{
    for (int k = 0; k < 2; k++) {
        dvc_dlvi_problem_t p;
        dvc_dlvi_result_t r, r2;
        dvc_lognorm_info_t info, info2;
        dvc_lognorm_opts o;
        dvc_status st;
        const char *label = k ? "last step, lognorm heun" : "last step, lognorm theta";
        dvc_dlvi_problem_init(p, 0, 0, 0);
        remark_problem(p, "10", "1", LS_N, "0.625");
        p->h = LS_H;
        dvc_lognorm_opts_default(&o);
        if (k) {
            o.predictor = DVC_LOGNORM_PRED_HEUN;
            o.pieces = DVC_LOGNORM_PIECES_EXT;
        }
        dvc_dlvi_result_init(r);
        dvc_dlvi_result_init(r2);
        dvc_lognorm_info_init(info);
        dvc_lognorm_info_init(info2);
        st = dvc_lognorm_run(r, info, p, &o);
        CHECK(st == DVC_OK, "%s: %s", label, dvc_error_message());
        if (st == DVC_OK) {
            double e89 = mpfr_get_d(r->eps_x[89], MPFR_RNDN), e90 = mpfr_get_d(r->eps_x[90], MPFR_RNDN);
            last_step_check(r, label);
            /* the predictor's last step has its own length: its defect
             * stays of the order of the others (one of length h would
             * miss x(T) by about h |x'| = 0.005 and multiply eps_x) */
            CHECK(e90 < 1.5 * e89, "%s: eps_x %g at T after %g", label, e90, e89);
            st = dvc_lognorm_certify(r2, info2, p, &o, r->x, r->y);
            CHECK(st == DVC_OK && r2->steps_done == LS_N, "%s, stored predictor: %s", label, dvc_error_message());
        }
        dvc_lognorm_info_clear(info);
        dvc_lognorm_info_clear(info2);
        dvc_dlvi_result_clear(r);
        dvc_dlvi_result_clear(r2);
        dvc_dlvi_problem_clear(p);
    }
}

/* A time-dependent g (the circuit of Example 5.3, m = 4): no closed form,
 * so two runs must agree: at the common grid points the tube of h = 2e-3
 * and the (narrower) tube of h = 2.5e-4 must intersect in every component,
 * the finer one must be narrower, and the coarse radius must be within 3x
 * of the proven lower bound ||x_h - x_{h/8}|| - rad(h/8) of its true error. */
static void test_circuit(void)
{
    char path[1024];
    dvc_dlvi_result_t r[2];
    dvc_lognorm_info_t info[2];
    long Ns[2] = {250, 2000};
    int ok = 1;
    snprintf(path, sizeof path, "%s/circuit/circuit.json", certs_dir);
    for (int k = 0; k < 2; k++) {
        dvc_dlvi_problem_t p;
        dvc_status st;
        dvc_dlvi_problem_init(p, 0, 0, 0);
        dvc_dlvi_result_init(r[k]);
        dvc_lognorm_info_init(info[k]);
        st = dvc_problem_read(p, path, 0);
        CHECK(st == DVC_OK, "%s: %s", path, dvc_error_message());
        if (st == DVC_OK) {
            REQUIRE(dvc_ival_set_str(p->T, "0.5") == DVC_OK, "T");
            p->N = Ns[k];
            st = dvc_lognorm_run(r[k], info[k], p, NULL);
            CHECK(st == DVC_OK, "circuit N = %ld: %s", Ns[k], dvc_error_message());
            ok &= st == DVC_OK;
        } else {
            ok = 0;
        }
        dvc_dlvi_problem_clear(p);
    }
    if (ok) {
        long bad = 0, n = r[0]->n;
        for (long i = 0; i <= Ns[0]; i++) {
            const double *a = r[0]->x + i * n, *b = r[1]->x + i * (Ns[1] / Ns[0]) * n;
            double ra = info[0]->rad[i], rb = info[1]->rad[i * (Ns[1] / Ns[0])];
            for (long c = 0; c < n; c++)
                if (fabs(a[c] - b[c]) > ra + rb) bad++;
        }
        CHECK(bad == 0, "circuit: %ld grid values where the tubes of two step sizes do not meet", bad);
        CHECK(info[1]->rad[Ns[1]] < info[0]->rad[Ns[0]], "circuit: radius %g at h/8, %g at h",
              info[1]->rad[Ns[1]], info[0]->rad[Ns[0]]);
        {
            double d = 0;
            for (long c = 0; c < n; c++) d = fmax(d, fabs(r[0]->x[Ns[0] * n + c] - r[1]->x[Ns[1] * n + c]));
            /* the true error of x_h at T is at least d - rad(h/8): a
             * proven lower bound, so this ratio is an upper bound of the
             * tightness ratio */
            double lo = d - info[1]->rad[Ns[1]];
            printf("circuit T = 0.5: radius(T) %.4e (h = 2e-3), %.4e (h = 2.5e-4); ||x_h - x_{h/8}|| at T %.4e; "
                   "radius / true error <= %.3f; affine steps %ld/%ld\n", info[0]->rad[Ns[0]], info[1]->rad[Ns[1]],
                   d, info[0]->rad[Ns[0]] / lo, info[0]->n_affine, Ns[0]);
            CHECK(lo > 0 && info[0]->rad[Ns[0]] <= 3.0 * lo, "circuit: radius %g, true error >= %g",
                  info[0]->rad[Ns[0]], lo);
        }
    }
    for (int k = 0; k < 2; k++) {
        dvc_lognorm_info_clear(info[k]);
        dvc_dlvi_result_clear(r[k]);
    }
}

/* Certification of a given predictor: the run's own predictor gives the
 * same bounds; a predictor pushed off by 0.05 on steps 300..399 (more than
 * the tube radius) is still certified, with a larger bound, and the tube
 * still contains the reference; a NaN is bad input; m > DVC_LOGNORM_M_MAX
 * takes the interval hull. */
static void test_certify(void)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r, r2;
    dvc_lognorm_info_t info, info2;
    fscratch fs;
    dvc_status st;
    ref_bridge ref;
    check_rng rng = {4242};
    const long N = 1000;
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0.02", "-0.3", "1", N, 1.0);
    dvc_dlvi_result_init(r);
    dvc_dlvi_result_init(r2);
    dvc_lognorm_info_init(info);
    dvc_lognorm_info_init(info2);
    REQUIRE(ref_bridge_init(&ref, "0.02", "-0.3", 1.0) == 0, "reference");
    st = dvc_lognorm_run(r, info, p, NULL);
    REQUIRE(st == DVC_OK, "run: %s", dvc_error_message());
    st = dvc_lognorm_certify(r2, info2, p, NULL, r->x, r->y);
    CHECK(st == DVC_OK && info2->rad[N] == info->rad[N] && mpfr_equal_p(r2->eps_x[N], r->eps_x[N]),
          "re-certification: %s", dvc_error_message());
    for (long i = 300; i < 400; i++) r->x[2 * i] += 0.05;
    st = dvc_lognorm_certify(r2, info2, p, NULL, r->x, NULL);
    CHECK(st == DVC_OK, "shifted predictor: %s", dvc_error_message());
    if (st == DVC_OK) {
        dvc_ivec_t X;
        mpfi_t t;
        mpfr_t x1, x2, y, tt;
        long bad = 0;
        CHECK(info2->rad[N] > info->rad[N], "shifted predictor: radius %g, unshifted %g", info2->rad[N],
              info->rad[N]);
        dvc_ivec_init2(X, 2, 53);
        mpfi_init2(t, 53);
        mpfr_inits2(REF_PREC, x1, x2, y, tt, (mpfr_ptr)0);
        for (long s = 0; s < 400; s++) {
            double td = check_rng_unif(&rng, 0.25, 0.45);
            mpfi_set_d(t, td);
            mpfr_set_d(tt, td, MPFR_RNDN);
            ref_bridge_eval(&ref, x1, x2, y, tt);
            if (dvc_dlvi_tube_x(X, r2, t) != DVC_OK || !inside(X->e[0], x1) || !inside(X->e[1], x2)) bad++;
        }
        CHECK(bad == 0, "shifted predictor: %ld of 400 samples outside", bad);
        dvc_ivec_clear(X);
        mpfi_clear(t);
        mpfr_clears(x1, x2, y, tt, (mpfr_ptr)0);
    }
    r->x[2 * 500 + 1] = NAN;
    st = dvc_lognorm_certify(r2, info2, p, NULL, r->x, NULL);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "x[500][1]") != NULL, "NaN predictor: %s: %s",
          dvc_status_name(st), dvc_error_message());
    ref_bridge_clear(&ref);
    dvc_lognorm_info_clear(info);
    dvc_lognorm_info_clear(info2);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_result_clear(r2);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
    /* m = 13: M = I, l = 0, u = inf */
    {
        const long m = DVC_LOGNORM_M_MAX + 1;
        dvc_lognorm_info_t in;
        dvc_dlvi_problem_init(p, 1, m, 53);
        for (long a = 0; a < m; a++) mpfi_set_ui(dvc_imat_entry(p->M, a, a), 1);
        mpfi_set_ui(p->T, 1);
        p->N = 10;
        dvc_lognorm_info_init(in);
        st = dvc_lognorm_norm(in, p, NULL);
        /* beyond enumeration: the interval hull (here J_D = 0 for every D) */
        CHECK(st == DVC_OK && in->hull && mpfr_cmp_ui(in->mu, 0) >= 0 && mpfr_cmp_d(in->mu, 1e-9) <= 0,
              "m = 13: hull mode, mu = %g: %s", mpfr_get_d(in->mu, MPFR_RNDU), dvc_error_message());
        dvc_lognorm_info_clear(in);
        dvc_dlvi_problem_clear(p);
    }
}

/* m = 0 (an ODE): x' = [[0, 1], [-1, 0]] x, x(0) = (1, 0), x = (cos t, -sin t),
 * T = 10, h = 1e-2: containment at random times and the ratio at T (the
 * error set follows the rotation; a norm bound alone gives the same here
 * as the rotation is skew in the 2-norm). */
static void test_ode(void)
{
    static const char *const A[] = {"0", "1", "-1", "0"}, *const x0[] = {"1", "0"};
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_lognorm_info_t info;
    dvc_status st;
    check_rng rng = {31337};
    const long N = 1000;
    dvc_dlvi_problem_init(p, 2, 0, 53);
    set_entries(p->A, 2, 2, A);
    set_vec(p->x0, 2, x0);
    mpfi_set_ui(p->T, 10);
    p->N = N;
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    st = dvc_lognorm_run(r, info, p, NULL);
    CHECK(st == DVC_OK, "ode: %s", dvc_error_message());
    if (st == DVC_OK) {
        dvc_ivec_t X;
        mpfi_t t;
        mpfr_t c, sn, tt;
        long bad = 0;
        double eT;
        dvc_ivec_init2(X, 2, 53);
        mpfi_init2(t, 53);
        mpfr_inits2(256, c, sn, tt, (mpfr_ptr)0);
        for (long s = 0; s < 1000; s++) {
            double td = s % 2 ? check_rng_unif(&rng, 0, 10) : fmin(r->t[check_rng_int(&rng, 0, N)], 10.0);
            mpfi_set_d(t, td);
            mpfr_set_d(tt, td, MPFR_RNDN);
            mpfr_sin_cos(sn, c, tt, MPFR_RNDN);
            mpfr_neg(sn, sn, MPFR_RNDN);
            if (dvc_dlvi_tube_x(X, r, t) != DVC_OK || !inside(X->e[0], c) || !inside(X->e[1], sn)) bad++;
        }
        CHECK(bad == 0, "ode: %ld of 1000 samples outside", bad);
        mpfr_set_ui(tt, 10, MPFR_RNDN);
        mpfr_sin_cos(sn, c, tt, MPFR_RNDN);
        mpfr_neg(sn, sn, MPFR_RNDN);
        mpfr_sub_d(c, c, r->x[2 * N], MPFR_RNDN);
        mpfr_sub_d(sn, sn, r->x[2 * N + 1], MPFR_RNDN);
        eT = fmax(fabs(mpfr_get_d(c, MPFR_RNDN)), fabs(mpfr_get_d(sn, MPFR_RNDN)));
        printf("ode (m = 0) T = 10, h = 1e-2: radius(T) %.4e, true error %.4e, ratio %.3f, mu %.3g, set steps %ld\n",
               info->rad[N], eT, info->rad[N] / eT, mpfr_get_d(info->mu, MPFR_RNDU), info->n_set);
        CHECK(info->rad[N] <= 2.0 * eT, "ode: radius %g, true error %g", info->rad[N], eT);
        dvc_ivec_clear(X);
        mpfi_clear(t);
        mpfr_clears(c, sn, tt, (mpfr_ptr)0);
    }
    dvc_lognorm_info_clear(info);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
}

/* Derivative enclosures of functions of t (dvc_tfun_cb.deriv): an
 * expression (contains the true derivative at sample points), a table (the
 * slopes of the segments met, and only those) and a constant (0). */
static void test_tfun_deriv(void)
{
    dvc_tfun_vec_t v;
    dvc_tfun_cb cb;
    dvc_ivec_t d;
    mpfi_t t;
    REQUIRE(dvc_tfun_vec_init(v, 3, 64) == DVC_OK, "vector");
    REQUIRE(dvc_tfun_set_expr(&v->fn[0], "sin(4*t) + t^2", NULL) == DVC_OK, "expr: %s", dvc_error_message());
    REQUIRE(dvc_tfun_parse_table(&v->fn[1], "0,0\n1,2\n2,1\n3,1\n", "csv", "d.csv", NULL) == DVC_OK, "table: %s",
            dvc_error_message());
    mpfi_init2(t, 64);
    mpfi_set_ui(t, 1);
    REQUIRE(dvc_tfun_set_const(&v->fn[2], t) == DVC_OK, "const");
    dvc_tfun_vec_cb(&cb, v, 0);
    REQUIRE(cb.deriv != NULL, "the vector callback has a derivative");
    dvc_ivec_init2(d, 3, 64);
    /* t in [0.2, 0.7]: table on its first segment only (slope 2) */
    mpfi_interv_d(t, 0.2, 0.7);
    CHECK(cb.deriv(d, t, cb.ctx) == DVC_OK, "deriv: %s", dvc_error_message());
    for (double s = 0.2; s <= 0.7; s += 0.05) {
        double df = 4 * cos(4 * s) + 2 * s;
        CHECK(mpfi_cmp_d(d->e[0], df) == 0, "expr derivative at %g (%g) enclosed", s, df);
    }
    CHECK(mpfi_cmp_d(d->e[1], 2) == 0 && mpfr_cmp_d(&d->e[1]->left, 1.999) > 0, "table slope 2 exactly");
    CHECK(mpfi_is_zero(d->e[2]), "constant: derivative 0");
    /* t in [0.5, 1.5]: both slopes 2 and -1 of the segments met */
    mpfi_interv_d(t, 0.5, 1.5);
    CHECK(cb.deriv(d, t, cb.ctx) == DVC_OK, "deriv: %s", dvc_error_message());
    CHECK(mpfi_cmp_d(d->e[1], 2) == 0 && mpfi_cmp_d(d->e[1], -1) == 0 && mpfr_cmp_d(&d->e[1]->left, -1.001) > 0 &&
              mpfr_cmp_d(&d->e[1]->right, 2.001) < 0,
          "table at a knot: hull of the slopes -1 and 2");
    /* outside the table: refused, as an evaluation is */
    mpfi_interv_d(t, 2.5, 3.5);
    CHECK(cb.deriv(d, t, cb.ctx) != DVC_OK, "table beyond its last sample refused");
    dvc_error_reset();
    dvc_ivec_clear(d);
    mpfi_clear(t);
    dvc_tfun_vec_clear(v);
}

/* Pounding (Example 5.2) over its 10 s record, h = 1e-3: with the
 * derivative enclosures of the tabulated ground motion the radius at T is
 * within 10x of the predictor's error estimated at h/64 (issue 8; without
 * them the f variation inside a piece is a box of unknown sign and the
 * ratio is about 120). */
static void test_pounding_deriv(void)
{
    char path[1024];
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_lognorm_info_t info;
    dvc_lognorm_opts o;
    long N = 10000, n;
    double *xf, *yf;
    snprintf(path, sizeof path, "%s/pounding/pounding.json", certs_dir);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    REQUIRE(dvc_problem_read(p, path, 0) == DVC_OK, "%s: %s", path, dvc_error_message());
    mpfi_set_ui(p->T, 10);
    p->N = N;
    n = p->n;
    dvc_lognorm_opts_default(&o);
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    CHECK(dvc_lognorm_run(r, info, p, &o) == DVC_OK, "pounding T = 10: %s", dvc_error_message());
    CHECK(info->n_deriv == N * o.pieces, "every piece used the derivatives (%ld)", info->n_deriv);
    p->N = 64 * N;
    xf = malloc((size_t)((64 * N + 1) * n) * sizeof(double));
    yf = malloc((size_t)(64 * N + 1) * sizeof(double));
    REQUIRE(xf && yf && dvc_dlvi_predict(xf, yf, p, &o.dlvi) == DVC_OK, "reference: %s", dvc_error_message());
    {
        double e = 0;
        for (long k = 0; k < n; k++) e = fmax(e, fabs(r->x[N * n + k] - xf[64 * N * n + k]));
        printf("pounding T = 10, h = 1e-3: radius(T) %.4e, error estimate (h/64) %.4e, ratio %.2f\n",
               info->rad[N], e, info->rad[N] / e);
        CHECK(e > 0 && info->rad[N] <= 10 * e, "pounding T = 10: ratio %g <= 10", info->rad[N] / e);
        /* the estimate is not a proof, but far smaller than the radius would be wrong */
        CHECK(info->rad[N] >= 0.5 * e, "pounding: radius %g vs error estimate %g", info->rad[N], e);
    }
    free(xf);
    free(yf);
    dvc_lognorm_info_clear(info);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
}

/* The bridge right-hand side in binary64 for the RK4 below (y = max(0, -3 x1)). */
static void bridge_rhs(double *dx, double t, const double *x)
{
    double y = fmax(0.0, -3.0 * x[0]);
    dx[0] = x[1];
    dx[1] = -4.0 * x[0] - y + sin(4.0 * t);
}

/* A trajectory of another tool: the bridge x(0) = (0, 1) integrated by the
 * classical RK4 at h = 1e-3 over [0, 10] (contact switches included, with
 * no special treatment of the kinks), certified as the predictor of the
 * lognorm route. The 256-bit reference lies inside at random times, and the
 * certified radius is within 10x of the true error of the trajectory's
 * linear interpolant (its sup over sampled times: between samples the
 * interpolant, not the RK4 value, is what is certified). */
/* One classical RK4 step of the bridge from (t, x) of length h into xn. */
static void rk4_step(double *xn, const double *x, double t, double h)
{
    double k1[2], k2[2], k3[2], k4[2], z[2];
    bridge_rhs(k1, t, x);
    for (int c = 0; c < 2; c++) z[c] = x[c] + 0.5 * h * k1[c];
    bridge_rhs(k2, t + 0.5 * h, z);
    for (int c = 0; c < 2; c++) z[c] = x[c] + 0.5 * h * k2[c];
    bridge_rhs(k3, t + 0.5 * h, z);
    for (int c = 0; c < 2; c++) z[c] = x[c] + h * k3[c];
    bridge_rhs(k4, t + h, z);
    for (int c = 0; c < 2; c++) xn[c] = x[c] + h / 6.0 * (k1[c] + 2 * k2[c] + 2 * k3[c] + k4[c]);
}

/* The certified trajectory xs (N steps on the times tg, or i T/N when tg
 * is NULL) against the 256-bit reference from x(0) = (0, 1) at 20,000
 * times, half random, half at step midpoints (where the interpolation
 * error peaks): *bad counts the times the tube of r misses the reference,
 * *badt those the tube module's tb (when not NULL) misses; *err is the sup
 * of the interpolant's true error over the samples, *radmax the largest
 * radius. */
static void rk4_vs_reference(const dvc_dlvi_result_t r, dvc_tube_t tb, const double *xs, const double *tg,
                             long N, double T, unsigned long long seed, long *bad, long *badt, double *err,
                             double *radmax)
{
    ref_bridge ref;
    check_rng rng = {seed};
    dvc_ivec_t X;
    mpfi_t t;
    mpfr_t x1, x2, y, tt;
    const double h = T / (double)N;
    *bad = *badt = 0;
    *err = *radmax = 0.0;
    REQUIRE(ref_bridge_init(&ref, "0", "1", T) == 0, "reference");
    dvc_ivec_init2(X, 2, 53);
    mpfi_init2(t, 53);
    mpfr_inits2(REF_PREC, x1, x2, y, tt, (mpfr_ptr)0);
    for (long s = 0; s < 20000; s++) {
        double td, sg, p1, p2;
        long i = (s / 2) % N;
        if (s % 2) td = check_rng_unif(&rng, 0.0, T);
        else td = tg ? 0.5 * (tg[i] + tg[i + 1]) : (i + 0.5) * h;
        /* the step of td and the interpolant there */
        if (tg) {
            long lo = 0, hi = N - 1;
            while (lo < hi) {
                long mid = (lo + hi + 1) / 2;
                if (tg[mid] <= td) lo = mid;
                else hi = mid - 1;
            }
            i = lo;
            sg = (td - tg[i]) / (tg[i + 1] - tg[i]);
        } else {
            i = (long)(td / h);
            if (i >= N) i = N - 1;
            sg = (td - i * h) / h;
        }
        p1 = (1 - sg) * xs[2 * i] + sg * xs[2 * i + 2];
        p2 = (1 - sg) * xs[2 * i + 1] + sg * xs[2 * i + 3];
        mpfi_set_d(t, td);
        mpfr_set_d(tt, td, MPFR_RNDN);
        ref_bridge_eval(&ref, x1, x2, y, tt);
        if (dvc_dlvi_tube_x(X, r, t) != DVC_OK || !inside(X->e[0], x1) || !inside(X->e[1], x2)) (*bad)++;
        if (tb && (dvc_tube_outer(X, tb, t, 0) != DVC_OK || !inside(X->e[0], x1) || !inside(X->e[1], x2)))
            (*badt)++;
        *err = fmax(*err, fmax(fabs(mpfr_get_d(x1, MPFR_RNDN) - p1), fabs(mpfr_get_d(x2, MPFR_RNDN) - p2)));
    }
    for (long i = 1; i <= N; i++) *radmax = fmax(*radmax, mpfr_get_d(r->eps_x[i], MPFR_RNDU));
    dvc_ivec_clear(X);
    mpfi_clear(t);
    mpfr_clears(x1, x2, y, tt, (mpfr_ptr)0);
    ref_bridge_clear(&ref);
}

static void test_rk4_trajectory(void)
{
    const long N = 10000;
    const double T = 10.0, h = T / (double)N;
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_lognorm_info_t info;
    fscratch fs;
    double *xs = malloc((size_t)(2 * (N + 1)) * sizeof(double));
    REQUIRE(xs != NULL, "memory");
    xs[0] = 0.0;
    xs[1] = 1.0;
    for (long i = 0; i < N; i++) rk4_step(xs + 2 * (i + 1), xs + 2 * i, i * h, h);
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0", "1", "1", N, T);
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    dvc_lognorm_opts o;
    dvc_lognorm_opts_default(&o);
    o.pieces = DVC_LOGNORM_PIECES_EXT;
    CHECK(dvc_lognorm_certify(r, info, p, &o, xs, NULL) == DVC_OK, "RK4 trajectory: %s", dvc_error_message());
    if (r->steps_done == N) {
        long bad, badt;
        double err, radmax;
        rk4_vs_reference(r, NULL, xs, NULL, N, T, 777, &bad, &badt, &err, &radmax);
        printf("RK4 trajectory (bridge x0 = (0, 1), h = 1e-3, T = 10): max radius %.4e, sup error of its "
               "interpolant %.4e, ratio %.2f; radius at T %.4e\n",
               radmax, err, radmax / err, info->rad[N]);
        CHECK(bad == 0, "RK4 trajectory: %ld of 20000 reference samples outside", bad);
        /* the contact switches: pieces of the pattern-change steps with a
         * certified pattern of their own */
        CHECK(info->n_piece_aff > 0, "RK4 trajectory: %ld affine pieces on pattern-change steps", info->n_piece_aff);
        CHECK(err > 0 && radmax <= 10 * err, "RK4 trajectory: radius %g within 10x of the error %g", radmax, err);
    }
    dvc_lognorm_info_clear(info);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
    free(xs);
}

/* RK4 on its own non-uniform grid t_0 < ... < t_N = T (steps between
 * 5e-4 and 2e-3, the last ones landing on T exactly): xs receives the
 * nodes (2 per time), t the times; returns N. */
static long rk4_grid(double **xs_out, double **t_out, double T)
{
    long cap = 40000, N = 0;
    double *xs = malloc((size_t)(2 * cap) * sizeof(double)), *t = malloc((size_t)cap * sizeof(double));
    REQUIRE(xs && t, "memory");
    xs[0] = 0.0;
    xs[1] = 1.0;
    t[0] = 0.0;
    while (t[N] < T) {
        double h = 1.25e-3 + 7.5e-4 * sin(0.37 * (double)N), t1 = t[N] + h;
        REQUIRE(N + 1 < cap, "grid too long");
        if (T - t[N] < 2.5e-3) t1 = T - t[N] > 2e-3 ? t[N] + 0.5 * (T - t[N]) : T;
        rk4_step(xs + 2 * (N + 1), xs + 2 * N, t[N], t1 - t[N]);
        t[++N] = t1;
    }
    *xs_out = xs;
    *t_out = t;
    return N;
}

/* A trajectory on its own non-uniform time grid (p->grid): certified on
 * those times without resampling, every step with its own length. The
 * 256-bit reference lies inside at 20,000 times (half at step midpoints,
 * between the samples), and the radius is within 10x of the true error of
 * the trajectory's interpolant. The routes that cannot step on a given
 * grid refuse it. */
static void test_rk4_grid(void)
{
    const double T = 10.0;
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_lognorm_info_t info;
    dvc_lognorm_opts o;
    fscratch fs;
    double *xs, *tg, hmin = 1, hmax = 0;
    long N = rk4_grid(&xs, &tg, T);
    dvc_status st;
    for (long i = 0; i < N; i++) hmin = fmin(hmin, tg[i + 1] - tg[i]), hmax = fmax(hmax, tg[i + 1] - tg[i]);
    CHECK(hmin >= 4.9e-4 && hmax <= 2.01e-3 && hmax > 1.5 * hmin, "RK4 grid: steps %g to %g", hmin, hmax);
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0", "1", "1", N, T);
    p->grid = malloc((size_t)(N + 1) * sizeof(double));
    REQUIRE(p->grid != NULL, "memory");
    memcpy(p->grid, tg, (size_t)(N + 1) * sizeof(double));
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    dvc_lognorm_opts_default(&o);
    o.pieces = DVC_LOGNORM_PIECES_EXT;
    /* routes that would ignore the grid refuse it, naming it */
    st = dvc_lognorm_run(r, info, p, &o);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "'grid'"), "grid: theta predictor refuses (%d: %s)",
          (int)st, dvc_error_message());
    {
        dvc_dlvi_opts d;
        dvc_dlvi_opts_default(&d);
        st = dvc_dlvi_run(r, p, &d);
        CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "'grid'"), "grid: chen-wang refuses (%d: %s)",
              (int)st, dvc_error_message());
    }
    dvc_error_reset();
    CHECK(dvc_lognorm_certify(r, info, p, &o, xs, NULL) == DVC_OK, "RK4 grid: %s", dvc_error_message());
    if (r->steps_done == N) {
        dvc_tube_t tb;
        long bad, badt;
        double err, radmax;
        dvc_tube_init(tb);
        CHECK(dvc_dlvi_tube(tb, r, p->l, p->u) == DVC_OK && tb->t != NULL, "RK4 grid: tube with times");
        for (long i = 0; i <= N; i++) {
            CHECK(r->t[i] == tg[i], "RK4 grid: label %ld is the grid time", i);
            if (r->t[i] != tg[i]) break;
        }
        rk4_vs_reference(r, tb, xs, tg, N, T, 4242, &bad, &badt, &err, &radmax);
        printf("RK4 on its own grid (bridge x0 = (0, 1), %ld steps of %.3g to %.3g, T = 10): max radius %.4e, "
               "sup error of its interpolant %.4e, ratio %.2f; radius at T %.4e\n",
               N, hmin, hmax, radmax, err, radmax / err, info->rad[N]);
        CHECK(bad == 0 && badt == 0, "RK4 grid: %ld (tube: %ld) of 20000 reference samples outside", bad, badt);
        CHECK(err > 0 && radmax <= 10 * err, "RK4 grid: radius %g within 10x of the error %g", radmax, err);
        dvc_tube_clear(tb);
    }
    dvc_lognorm_info_clear(info);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
    free(xs);
    free(tg);
}

/* A grid of the times i h with h = 2^-9 (exact binary numbers) is the
 * uniform grid T/N: every step has the same exact length, so the bounds
 * must be those of the run with N, bit for bit. A grid that alternates h
 * and 2h (every third node of the first dropped) keeps the reference
 * inside: each step gets exp(J h) of its own length (the cache is keyed by
 * it). */
static void test_grid_uniform(void)
{
    const long N = 2048;
    const double h = 0x1p-9, T = N * h;
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r1, r2;
    dvc_lognorm_info_t i1, i2;
    dvc_lognorm_opts o;
    fscratch fs;
    ref_bridge ref;
    long same = 1, M = 0, bad = 0;
    double *g = malloc((size_t)(N + 1) * sizeof(double)), *xg = malloc((size_t)(2 * (N + 1)) * sizeof(double));
    REQUIRE(g && xg, "memory");
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0", "1", "1", N, T);
    dvc_dlvi_result_init(r1);
    dvc_dlvi_result_init(r2);
    dvc_lognorm_info_init(i1);
    dvc_lognorm_info_init(i2);
    dvc_lognorm_opts_default(&o);
    REQUIRE(dvc_lognorm_run(r1, i1, p, &o) == DVC_OK, "uniform run: %s", dvc_error_message());
    for (long i = 0; i <= N; i++) g[i] = (double)i * h;
    p->grid = g;
    CHECK(dvc_lognorm_certify(r2, i2, p, &o, r1->x, r1->y) == DVC_OK, "grid i h: %s", dvc_error_message());
    for (long i = 0; r2->steps_done == N && i <= N; i++)
        if (!mpfr_equal_p(r1->eps_x[i], r2->eps_x[i]) || !mpfr_equal_p(r1->eps_y[i], r2->eps_y[i])) same = 0;
    CHECK(r2->steps_done == N && same, "grid i h: the bounds of the uniform run");
    /* every third node dropped: steps h, 2h alternate */
    for (long i = 0; i <= N; i++)
        if (i % 3 != 1 || i == N) {
            g[M] = (double)i * h;
            xg[2 * M] = r1->x[2 * i];
            xg[2 * M + 1] = r1->x[2 * i + 1];
            M++;
        }
    p->N = M - 1;
    CHECK(dvc_lognorm_certify(r2, i2, p, &o, xg, NULL) == DVC_OK, "grid h, 2h: %s", dvc_error_message());
    REQUIRE(ref_bridge_init(&ref, "0", "1", T) == 0, "reference");
    if (r2->steps_done == M - 1) {
        dvc_ivec_t X;
        mpfi_t t;
        mpfr_t x1, x2, y, tt;
        check_rng rng = {99};
        dvc_ivec_init2(X, 2, 53);
        mpfi_init2(t, 53);
        mpfr_inits2(REF_PREC, x1, x2, y, tt, (mpfr_ptr)0);
        for (long s = 0; s < 4000; s++) {
            double td = check_rng_unif(&rng, 0.0, T);
            mpfi_set_d(t, td);
            mpfr_set_d(tt, td, MPFR_RNDN);
            ref_bridge_eval(&ref, x1, x2, y, tt);
            if (dvc_dlvi_tube_x(X, r2, t) != DVC_OK || !inside(X->e[0], x1) || !inside(X->e[1], x2)) bad++;
        }
        CHECK(bad == 0, "grid h, 2h: %ld of 4000 reference samples outside", bad);
        dvc_ivec_clear(X);
        mpfi_clear(t);
        mpfr_clears(x1, x2, y, tt, (mpfr_ptr)0);
    }
    ref_bridge_clear(&ref);
    free(xg);
    dvc_lognorm_info_clear(i1);
    dvc_lognorm_info_clear(i2);
    dvc_dlvi_result_clear(r1);
    dvc_dlvi_result_clear(r2);
    dvc_dlvi_problem_clear(p); /* frees g */
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

typedef struct {
    long calls, bad;
    const dvc_dlvi_result_struct *r;
} sink_log;

/* With L->r (a run holding every point), the point must carry its bounds. */
static dvc_status log_sink(const dvc_dlvi_point *pt, void *ctx)
{
    sink_log *L = ctx;
    const dvc_dlvi_result_struct *r = L->r;
    if (pt->i != L->calls) L->bad++;
    if (r) {
        long i = pt->i;
        int same = mpfr_equal_p(pt->eps_x, r->eps_x[i]) && mpfr_equal_p(pt->eps_y, r->eps_y[i]);
        for (long k = 0; k < r->n; k++) same &= pt->x[k] == r->x[i * r->n + k];
        for (long k = 0; k < r->m; k++)
            same &= pt->y[k] == r->y[i * r->m + k] && mpfi_cmp(pt->yhat + k, r->yhat[i * r->m + k]) == 0;
        if (i >= 1) same &= pt->ry == r->ry[i - 1] && pt->delta == r->delta[i - 1];
        if (!same) L->bad++;
    }
    L->calls++;
    return DVC_OK;
}

static dvc_status src_of(long i, double *x, double *y, void *ctx)
{
    sink_log *L = ctx;
    for (long k = 0; k < L->r->n; k++) x[k] = L->r->x[i * L->r->n + k];
    for (long k = 0; k < L->r->m; k++) y[k] = L->r->y[i * L->r->m + k];
    return DVC_OK;
}

/* The sink of o->dlvi sees grid point 0 and every step in order, with the
 * bounds of a run that keeps every point (the streaming certificate writer
 * relies on it), while the result keeps only a window (memory independent
 * of N). */
static void test_sink(void)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r, r3;
    dvc_lognorm_info_t info, info3;
    dvc_lognorm_opts o;
    fscratch fs;
    sink_log L = {0, 0, NULL};
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0", "0.2", "1", 200, 0.2);
    dvc_lognorm_opts_default(&o);
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    CHECK(dvc_lognorm_run(r, info, p, &o) == DVC_OK && r->window == 0, "run: %s", dvc_error_message());
    L.r = r;
    o.dlvi.sink = log_sink;
    o.dlvi.sink_ctx = &L;
    dvc_dlvi_result_init(r3);
    dvc_lognorm_info_init(info3);
    CHECK(dvc_lognorm_run(r3, info3, p, &o) == DVC_OK, "run with a sink: %s", dvc_error_message());
    CHECK(L.calls == 201 && L.bad == 0, "sink: %ld calls (want 201), %ld out of order or not the run's", L.calls,
          L.bad);
    CHECK(r3->window == 1 && mpfr_equal_p(r3->eps_x[200 & 1], r->eps_x[200]) &&
              mpfr_equal_p(r3->max_eps_x, r->max_eps_x) && info3->n_set == info->n_set &&
              info3->rad[200 & 1] == info->rad[200],
          "run with a sink: a window with the run's bounds");
    {
        /* the same predictor handed over point by point: the same bounds */
        dvc_dlvi_result_t r2;
        dvc_lognorm_info_t info2;
        sink_log L2 = {0, 0, r};
        o.dlvi.sink_ctx = &L2;
        dvc_dlvi_result_init(r2);
        dvc_lognorm_info_init(info2);
        CHECK(dvc_lognorm_certify_stream(r2, info2, p, &o, src_of, &L2) == DVC_OK, "certify_stream: %s",
              dvc_error_message());
        CHECK(L2.calls == 201 && L2.bad == 0 && r2->N == 200 && mpfr_equal_p(r2->eps_x[200 & 1], r->eps_x[200]) &&
                  mpfr_equal_p(r2->eps_y[200 & 1], r->eps_y[200]),
              "certify_stream: the bounds of the run");
        CHECK(dvc_lognorm_certify_stream(r2, info2, p, &o, NULL, NULL) == DVC_ERR_INPUT, "no source refused");
        dvc_lognorm_info_clear(info2);
        dvc_dlvi_result_clear(r2);
    }
    {
        /* Heun's predictor and a given one (no y) stream the same way */
        dvc_dlvi_result_t r4, r5;
        dvc_lognorm_info_t info4, info5;
        sink_log L4 = {0, 0, NULL};
        dvc_lognorm_opts oh = o;
        oh.dlvi.sink = NULL;
        oh.predictor = DVC_LOGNORM_PRED_HEUN;
        dvc_dlvi_result_init(r4);
        dvc_lognorm_info_init(info4);
        dvc_dlvi_result_init(r5);
        dvc_lognorm_info_init(info5);
        CHECK(dvc_lognorm_run(r4, info4, p, &oh) == DVC_OK, "heun: %s", dvc_error_message());
        L4.r = r4;
        oh.dlvi.sink = log_sink;
        oh.dlvi.sink_ctx = &L4;
        CHECK(dvc_lognorm_run(r5, info5, p, &oh) == DVC_OK && L4.calls == 201 && L4.bad == 0,
              "heun with a sink: %ld calls, %ld not the run's", L4.calls, L4.bad);
        dvc_lognorm_info_clear(info5);
        dvc_dlvi_result_clear(r5);
        dvc_dlvi_result_init(r5);
        dvc_lognorm_info_init(info5);
        L4.calls = L4.bad = 0;
        oh.dlvi.sink = NULL;
        CHECK(dvc_lognorm_certify(r5, info5, p, &oh, r4->x, NULL) == DVC_OK, "given: %s", dvc_error_message());
        L4.r = r5;
        oh.dlvi.sink = log_sink;
        dvc_lognorm_info_clear(info4);
        dvc_dlvi_result_clear(r4);
        dvc_dlvi_result_init(r4);
        dvc_lognorm_info_init(info4);
        CHECK(dvc_lognorm_certify(r4, info4, p, &oh, r5->x, NULL) == DVC_OK && L4.calls == 201 && L4.bad == 0,
              "given x, no y, with a sink: %ld calls, %ld not the run's", L4.calls, L4.bad);
        dvc_lognorm_info_clear(info4);
        dvc_dlvi_result_clear(r4);
        dvc_lognorm_info_clear(info5);
        dvc_dlvi_result_clear(r5);
    }
    dvc_lognorm_info_clear(info3);
    dvc_dlvi_result_clear(r3);
    dvc_lognorm_info_clear(info);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

/* The hull mode (m > DVC_LOGNORM_M_MAX, docs/lognorm.md section 2): the
 * bridge x0 = (-0.1, 1) with 13 contacts y_a on the same spring, y_a _|_
 * y_a + 3 x1 + a/64 >= 0, only y_0 acting on the velocity. y_0 is the
 * bridge's y, y_a = max(0, -(3 x1 + a/64)): the patterns change one
 * contact at a time near x1 = 0, so slots are created on the way. The x
 * and y tubes hold the 256-bit reference at grid points and between. */
static dvc_status gh_eval(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    for (long a = 0; a < out->n; a++) {
        mpfi_set_si(out->e[a], a);
        mpfi_div_2ui(out->e[a], out->e[a], 6);
    }
    return DVC_OK;
}

static void gh_d(double *out, double t, void *ctx)
{
    (void)t;
    for (long a = 0; a < *(long *)ctx; a++) out[a] = a / 64.0;
}

static void test_hull(void)
{
    const long m = 13, N = 1000;
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_lognorm_info_t info;
    fscratch fs;
    ref_bridge ref;
    check_rng rng = {4242};
    long mm = m, bad = 0;
    dvc_status st;
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "-0.1", "1", "1", N, 1.0);
    dlvi_dims(p, 2, m);
    dvc_imat_zero(p->A);
    mpfi_set_si(dvc_imat_entry(p->A, 0, 1), 1);
    mpfi_set_si(dvc_imat_entry(p->A, 1, 0), -4);
    dvc_imat_zero(p->B);
    mpfi_set_si(dvc_imat_entry(p->B, 1, 0), -1);
    dvc_imat_zero(p->Q);
    dvc_imat_one(p->M);
    for (long a = 0; a < m; a++) {
        mpfi_set_si(dvc_imat_entry(p->Q, a, 0), 3);
        mpfi_set_ui(p->l->e[a], 0);
        mpfr_set_inf(&p->u->e[a]->left, 1);
        mpfr_set_inf(&p->u->e[a]->right, 1);
    }
    dlvi_dec(p->x0->e[0], "-0.1");
    dlvi_dec(p->x0->e[1], "1");
    memset(&p->gcb, 0, sizeof p->gcb);
    p->gcb.k = m;
    p->gcb.eval = gh_eval;
    p->gcb.lipschitz = dlvi_zero_lip;
    p->gcb.eval_d = gh_d;
    p->gcb.ctx = &mm;
    REQUIRE(ref_bridge_init(&ref, "-0.1", "1", 1.0) == 0, "reference");
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    st = dvc_lognorm_run(r, info, p, NULL);
    CHECK(st == DVC_OK && info->hull, "hull mode, m = 13: %s: %s", dvc_status_name(st), dvc_error_message());
    if (st == DVC_OK) {
        dvc_ivec_t X, Y;
        mpfi_t t;
        mpfr_t x1, x2, y, tt, ya;
        double e1, e2;
        dvc_ivec_init2(X, 2, 53);
        dvc_ivec_init2(Y, m, 53);
        mpfi_init2(t, 53);
        mpfr_inits2(REF_PREC, x1, x2, y, tt, ya, (mpfr_ptr)0);
        for (long s = 0; s < 600; s++) {
            double td = s % 2 == 0 ? r->t[check_rng_int(&rng, 0, N)] : check_rng_unif(&rng, 0.0, 1.0);
            int ok;
            mpfi_set_d(t, td);
            mpfr_set_d(tt, td, MPFR_RNDN);
            ref_bridge_eval(&ref, x1, x2, y, tt);
            ok = dvc_dlvi_tube_x(X, r, t) == DVC_OK && dvc_dlvi_tube_y(Y, r, t) == DVC_OK && inside(X->e[0], x1) &&
                 inside(X->e[1], x2) && inside(Y->e[0], y);
            for (long a = 1; ok && a < m; a++) {
                /* y_a = max(0, -(3 x1 + a/64)) */
                mpfr_mul_ui(ya, x1, 3, MPFR_RNDN);
                mpfr_add_d(ya, ya, a / 64.0, MPFR_RNDN);
                mpfr_neg(ya, ya, MPFR_RNDN);
                if (mpfr_sgn(ya) < 0) mpfr_set_zero(ya, 1);
                ok = inside(Y->e[a], ya);
            }
            if (!ok) bad++;
        }
        CHECK(bad == 0, "hull mode: %ld of 600 samples outside the tube", bad);
        mpfr_set_d(tt, 1.0, MPFR_RNDN);
        ref_bridge_eval(&ref, x1, x2, y, tt);
        e1 = fabs(mpfr_get_d(x1, MPFR_RNDN) - r->x[2 * N]);
        e2 = fabs(mpfr_get_d(x2, MPFR_RNDN) - r->x[2 * N + 1]);
        printf("hull mode (m = 13, bridge x0 = (-0.1, 1), h = 1e-3, T = 1): %s mu = %.4g, radius(T) %.4e, true "
               "error %.4e, ratio %.3f; affine steps %ld, set steps %ld\n",
               info->kind == DVC_LOGNORM_QUAD ? "P" : "W", mpfr_get_d(info->mu, MPFR_RNDU), info->rad[N],
               fmax(e1, e2), info->rad[N] / fmax(e1, e2), info->n_affine, info->n_set);
        CHECK(info->n_affine > N / 2, "hull mode: most steps have one certified pattern (%ld)", info->n_affine);
        dvc_ivec_clear(X);
        dvc_ivec_clear(Y);
        mpfi_clear(t);
        mpfr_clears(x1, x2, y, tt, ya, (mpfr_ptr)0);
    }
    ref_bridge_clear(&ref);
    dvc_lognorm_info_clear(info);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

/* The binary64 kernels at 53 bits (src/dlvi/lognorm_fast.c) against the
 * MPFI path (dvc_lognorm_opts.binary64 = 0) on the bridge with contact switches: the
 * kernels take the single-pattern steps, the MPFI path none; both tubes
 * hold the 256-bit reference (run_bridge) and agree to rounding; the
 * caller's rounding mode survives; above 53 bits the kernels stay off. */
static void test_fast_path(void)
{
    check_rng rng = {777};
    dvc_lognorm_opts o;
    ref_bridge ref;
    bridge_out bf, bs;
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r[2];
    dvc_lognorm_info_t info[2];
    fscratch fs;
    long nf[2];
    double dmax = 0;
    dvc_lognorm_opts_default(&o);
    REQUIRE(ref_bridge_init(&ref, "0.02", "-0.3", 1.0) == 0, "reference");
    bf = run_bridge("0.02", "-0.3", 1000, 1.0, &ref, &rng, 400, &o);
    o.binary64 = 0;
    bs = run_bridge("0.02", "-0.3", 1000, 1.0, &ref, &rng, 400, &o);
    CHECK(bf.bad == 0 && bs.bad == 0, "fast path: both tubes hold the reference");
    ref_bridge_clear(&ref);
    mpfi_init2(fs.a, 53);
    mpfi_init2(fs.b, 53);
    for (int k = 0; k < 2; k++) {
        dvc_dlvi_problem_init(p, 0, 0, 0);
        bridge_problem(p, &fs, "0.02", "-0.3", "1", 1000, 1.0);
        o.binary64 = k == 0;
        dvc_dlvi_result_init(r[k]);
        dvc_lognorm_info_init(info[k]);
        fesetround(FE_DOWNWARD);
        CHECK(dvc_lognorm_run(r[k], info[k], p, &o) == DVC_OK, "fast path run %d: %s", k, dvc_error_message());
        CHECK(fegetround() == FE_DOWNWARD, "fast path: the caller's rounding mode is restored");
        fesetround(FE_TONEAREST);
        nf[k] = info[k]->n_fast;
        dvc_dlvi_problem_clear(p);
    }
    CHECK(nf[0] >= 990 && nf[1] == 0, "binary64 steps: %ld with the kernels, %ld without", nf[0], nf[1]);
    for (long i = 0; i <= 1000; i++) {
        double a = info[0]->rad[i], b = info[1]->rad[i];
        if (b > 0) dmax = fmax(dmax, fabs(a - b) / b);
    }
    CHECK(dmax <= 1e-9, "fast path: radii agree with the MPFI path to 1e-9 (largest difference %.3g)", dmax);
    printf("fast path: %ld of 1000 steps in binary64, radius(T) %.6e (MPFI path %.6e), largest relative "
           "difference %.2g\n",
           nf[0], info[0]->rad[1000], info[1]->rad[1000], dmax);
    for (int k = 0; k < 2; k++) {
        dvc_lognorm_info_clear(info[k]);
        dvc_dlvi_result_clear(r[k]);
    }
    /* above 53 bits: MPFI throughout, binary64 asked for or not */
    o.binary64 = 1;
    dvc_dlvi_problem_init(p, 0, 0, 0);
    bridge_problem(p, &fs, "0.02", "-0.3", "1", 200, 0.2);
    p->prec = 64;
    dvc_dlvi_result_init(r[0]);
    dvc_lognorm_info_init(info[0]);
    CHECK(dvc_lognorm_run(r[0], info[0], p, &o) == DVC_OK && info[0]->n_fast == 0,
          "64 bits: no binary64 steps (%ld)", info[0]->n_fast);
    dvc_lognorm_info_clear(info[0]);
    dvc_dlvi_result_clear(r[0]);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(fs.a);
    mpfi_clear(fs.b);
}

/* An entry of a random J for test_expm: kind 0 [0, 0] with either sign of
 * each zero, 1 a point, 2 an interval straddling 0, 3 positive, 4
 * negative, 5 an end at -0 or +0, 6 tiny (u J underflows for u < 1). */
static void expm_entry(mpfi_ptr x, check_rng *rng, int kind)
{
    double a = check_rng_unif(rng, -1.5, 1.5), b = check_rng_unif(rng, 0, 0.3);
    switch (kind) {
    case 0:
        mpfr_set_zero(&x->left, check_rng_int(rng, 0, 1) ? 1 : -1);
        mpfr_set_zero(&x->right, check_rng_int(rng, 0, 1) ? 1 : -1);
        return;
    case 1:
        mpfi_set_d(x, a);
        return;
    case 2:
        mpfi_interv_d(x, -fabs(a) - 1e-3, b + 1e-3);
        return;
    case 3:
        mpfi_interv_d(x, fabs(a), fabs(a) + b);
        return;
    case 4:
        mpfi_interv_d(x, -fabs(a) - b, -fabs(a));
        return;
    case 5:
        if (check_rng_int(rng, 0, 1)) {
            mpfr_set_zero(&x->left, check_rng_int(rng, 0, 1) ? 1 : -1);
            mpfr_set_d(&x->right, fabs(a) + 1e-3, MPFR_RNDU);
        } else {
            mpfr_set_d(&x->left, -fabs(a) - 1e-3, MPFR_RNDD);
            mpfr_set_zero(&x->right, check_rng_int(rng, 0, 1) ? 1 : -1);
        }
        return;
    default:
        mpfi_interv_d(x, 0x1p-1022 * (1 + fabs(a) / 2), 0x1p-1022 * (1 + fabs(a) / 2 + b));
        return;
    }
}

/* Two endpoints equal as bits (value and sign of a zero). */
static int same_end(mpfr_srcptr a, mpfr_srcptr b)
{
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

/* The binary64 exp(J u) (src/dlvi/lognorm_expm.c) against the MPFI one on
 * random J (fixed seed): every endpoint the same, bit for bit (signs of
 * zeros too), or -1 (fallback) and out untouched; the fallback taken
 * where an entry underflows or is not a normal double; the caller's
 * rounding mode and exception flags kept. */
static void test_expm(void)
{
    check_rng rng = {2468};
    long done = 0, fell = 0, big = 0, tiny_fell = 0, tiny = 0, mism = 0, zero_ends = 0;
    for (int trial = 0; trial < 400; trial++) {
        long n = trial % 50 == 49 ? 24 : check_rng_int(&rng, 1, 7);
        int mix = (int)check_rng_int(&rng, 0, 4), with_tiny = trial % 10 == 9;
        dvc_imat_t J, o1, o2, T1, T2;
        mpfi_t u, s, v;
        dvc_lnf_expm_ws ws;
        int r1, r2;
        dvc_imat_init2(J, n, n, 53);
        dvc_imat_init2(o1, n, n, 53);
        dvc_imat_init2(o2, n, n, 53);
        dvc_imat_init2(T1, n, n, 53);
        dvc_imat_init2(T2, n, n, 53);
        mpfi_init2(u, 53);
        mpfi_init2(s, 53);
        mpfi_init2(v, 53);
        for (long k = 0; k < n * n; k++) {
            /* mix 0: dense, 1: half zeros, 2: points, 3: any kind, 4: lower
             * triangular (exp(J u) too: entries [0, 0] in the result) */
            int kind = mix == 0   ? (int)check_rng_int(&rng, 1, 5)
                       : mix == 1 ? (check_rng_int(&rng, 0, 1) ? 0 : (int)check_rng_int(&rng, 1, 5))
                       : mix == 2 ? (check_rng_int(&rng, 0, 4) ? 1 : 0)
                       : mix == 3 ? (int)check_rng_int(&rng, 0, 5)
                                  : (k % n > k / n ? 0 : (int)check_rng_int(&rng, 1, 5));
            if (with_tiny && k == n * n / 2) kind = 6;
            expm_entry(J->e[k], &rng, kind);
        }
        /* u: a point, [0, h], an interval inside (0, h], or 0 (then the
         * remainder is 0 and the zeros of exp(J u) = I show); sometimes so
         * long that z >= 4 */
        {
            double h = trial % 40 == 38 ? 50.0 : check_rng_unif(&rng, 1e-4, 0.5);
            int uk = trial % 40 == 38 ? 0 : (int)check_rng_int(&rng, 0, with_tiny ? 5 : 6);
            if (uk == 0) mpfi_set_d(u, h);
            else if (uk <= 2) mpfi_interv_d(u, 0, h);
            else if (uk <= 5) mpfi_interv_d(u, h / 2, h);
            else {
                mpfr_set_zero(&u->left, check_rng_int(&rng, 0, 1) ? 1 : -1);
                mpfr_set_zero(&u->right, check_rng_int(&rng, 0, 1) ? 1 : -1);
            }
        }
        for (long k = 0; k < n * n; k++) mpfi_set_si(o2->e[k], 7);
        ws.T1 = T1;
        ws.T2 = T2;
        ws.s = s;
        ws.v = v;
        r1 = dvc_lnf_expm_mpfi_(o1, J, u, &ws);
        fesetround(FE_DOWNWARD);
        feclearexcept(FE_ALL_EXCEPT);
        feraiseexcept(FE_DIVBYZERO);
        r2 = dvc_lnf_expm_d_(o2, J, u);
        CHECK(fegetround() == FE_DOWNWARD, "expm trial %d: the caller's rounding mode is kept", trial);
        CHECK(fetestexcept(FE_ALL_EXCEPT) == FE_DIVBYZERO,
              "expm trial %d: the caller's exception flags are kept (%#x)", trial, fetestexcept(FE_ALL_EXCEPT));
        fesetround(FE_TONEAREST);
        if (with_tiny) tiny++;
        if (r2 < 0) {
            fell++;
            if (with_tiny) tiny_fell++;
            for (long k = 0; k < n * n; k++)
                if (mpfr_cmp_si(&o2->e[k]->left, 7) != 0 || mpfr_cmp_si(&o2->e[k]->right, 7) != 0) {
                    CHECK(0, "expm trial %d: a fallback writes nothing", trial);
                    break;
                }
        } else {
            done++;
            if (r1 == 0) big++;
            CHECK(r1 == r2, "expm trial %d (n = %ld): MPFI returns %d, binary64 %d", trial, n, r1, r2);
            if (r1 == 1 && r2 == 1)
                for (long k = 0; k < n * n; k++) {
                    if (mpfr_zero_p(&o1->e[k]->left) || mpfr_zero_p(&o1->e[k]->right)) zero_ends++;
                    if (!same_end(&o1->e[k]->left, &o2->e[k]->left) ||
                        !same_end(&o1->e[k]->right, &o2->e[k]->right)) {
                        if (mism++ < 5)
                            CHECK(0, "expm trial %d (n = %ld), entry %ld: MPFI [%a, %a], binary64 [%a, %a]", trial,
                                  n, k, mpfr_get_d(&o1->e[k]->left, MPFR_RNDN),
                                  mpfr_get_d(&o1->e[k]->right, MPFR_RNDN), mpfr_get_d(&o2->e[k]->left, MPFR_RNDN),
                                  mpfr_get_d(&o2->e[k]->right, MPFR_RNDN));
                    }
                }
        }
        dvc_imat_clear(J);
        dvc_imat_clear(o1);
        dvc_imat_clear(o2);
        dvc_imat_clear(T1);
        dvc_imat_clear(T2);
        mpfi_clear(u);
        mpfi_clear(s);
        mpfi_clear(v);
    }
    CHECK(mism == 0, "expm: %ld endpoints differ between binary64 and MPFI", mism);
    CHECK(done >= 330 && big >= 5, "expm: binary64 took %ld of 400 (z >= 4: %ld)", done, big);
    CHECK(tiny > 0 && tiny_fell == tiny, "expm: tiny entries fall back to MPFI (%ld of %ld)", tiny_fell, tiny);
    CHECK(zero_ends >= 100, "expm: endpoints at zero were compared (%ld)", zero_ends);
    {
        /* above 53 bits, and a subnormal entry: no binary64 */
        dvc_imat_t J, o;
        mpfi_t u;
        dvc_imat_init2(J, 2, 2, 64);
        dvc_imat_init2(o, 2, 2, 64);
        mpfi_init2(u, 64);
        mpfi_set_d(u, 0.1);
        dvc_imat_one(J);
        CHECK(dvc_lnf_expm_d_(o, J, u) == -1, "expm: 64 bits fall back");
        dvc_imat_clear(J);
        dvc_imat_clear(o);
        mpfi_clear(u);
        dvc_imat_init2(J, 2, 2, 53);
        dvc_imat_init2(o, 2, 2, 53);
        mpfi_init2(u, 53);
        mpfi_set_d(u, 0.1);
        dvc_imat_one(J);
        mpfi_set_d(J->e[1], 0x1p-1060);
        CHECK(dvc_lnf_expm_d_(o, J, u) == -1, "expm: a subnormal entry falls back");
        dvc_imat_clear(J);
        dvc_imat_clear(o);
        mpfi_clear(u);
    }
    printf("expm: binary64 = MPFI bit for bit in %ld of 400 random cases (%ld with z >= 4), %ld fell back "
           "(%ld of them with tiny entries), %ld zero endpoints compared\n",
           done, big, fell, tiny_fell, zero_ends);
}

/* The conversions kept from step to step and the binary64 copies of MPFI
 * operations (exp(J u), the pieces' times; docs/lognorm.md section 10)
 * change no bit: runs with them and without (dvc_lognorm_opts.reuse) give the
 * same tube, bound for bound, on problems that take each of them (the
 * bridge at T = 10: contact switches and f per piece; the pounding
 * example: a table, derivatives per piece; the circuit: g of t; Heun's
 * predictor). */
static void test_reuse_exact(void)
{
    static const struct {
        const char *file;
        double T;
        long N;
        int heun;
    } cases[] = {{"bridge/gamma0.2.json", 10.0, 5000, 0},
                 {"pounding/pounding.json", 0, 0, 0},
                 {"circuit/circuit.json", 0, 0, 0},
                 {"bridge/gamma0.2.json", 0, 0, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char path[1024];
        dvc_dlvi_problem_t p;
        dvc_lognorm_opts o;
        dvc_dlvi_result_t r[2];
        dvc_lognorm_info_t info[2];
        dvc_status st[2];
        long diff = 0, N;
        snprintf(path, sizeof path, "%s/%s", certs_dir, cases[c].file);
        dvc_dlvi_problem_init(p, 0, 0, 0);
        REQUIRE(dvc_problem_read(p, path, 0) == DVC_OK, "%s: %s", path, dvc_error_message());
        if (cases[c].T > 0) {
            mpfi_set_d(p->T, cases[c].T);
            p->N = cases[c].N;
        }
        dvc_lognorm_opts_default(&o);
        if (cases[c].heun) o.predictor = DVC_LOGNORM_PRED_HEUN;
        for (int k = 0; k < 2; k++) {
            o.reuse = k == 0;
            dvc_dlvi_result_init(r[k]);
            dvc_lognorm_info_init(info[k]);
            st[k] = dvc_lognorm_run(r[k], info[k], p, &o);
        }
        N = p->N;
        CHECK(st[0] == DVC_OK && st[1] == DVC_OK, "reuse %s: both runs certified", cases[c].file);
        if (st[0] == DVC_OK && st[1] == DVC_OK) {
            CHECK(info[0]->n_fast > N / 2 && info[1]->n_fast == info[0]->n_fast,
                  "reuse %s: binary64 steps %ld and %ld of %ld", cases[c].file, info[0]->n_fast, info[1]->n_fast, N);
            for (long i = 0; i <= N; i++) {
                diff += memcmp(&info[0]->rad[i], &info[1]->rad[i], sizeof(double)) != 0;
                diff += memcmp(&info[0]->E[i], &info[1]->E[i], sizeof(double)) != 0;
                if (i < N) diff += memcmp(&info[0]->dW[i], &info[1]->dW[i], sizeof(double)) != 0;
                diff += !same_end(r[0]->eps_x[i], r[1]->eps_x[i]) + !same_end(r[0]->eps_y[i], r[1]->eps_y[i]);
                for (long a = 0; a < p->m; a++)
                    diff += !same_end(&r[0]->yhat[i * p->m + a]->left, &r[1]->yhat[i * p->m + a]->left) +
                            !same_end(&r[0]->yhat[i * p->m + a]->right, &r[1]->yhat[i * p->m + a]->right);
            }
            CHECK(diff == 0, "reuse %s: %ld bounds differ with and without", cases[c].file, diff);
            printf("reuse %s%s: %ld steps (%ld in binary64), radius(T) %.6e, the same bits without\n",
                   cases[c].file, cases[c].heun ? " (heun)" : "", N, info[0]->n_fast, info[0]->rad[N]);
        }
        for (int k = 0; k < 2; k++) {
            dvc_lognorm_info_clear(info[k]);
            dvc_dlvi_result_clear(r[k]);
        }
        dvc_dlvi_problem_clear(p);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) certs_dir = argv[1];
    test_remark_mu();
    test_bridge_mu();
    test_big_mu();
    test_certs_mu();
    test_remark();
    test_last_step();
    test_bridge_containment();
    test_bridge_tightness();
    test_heun();
    test_stated();
    test_circuit();
    test_certify();
    test_ode();
    test_tfun_deriv();
    test_pounding_deriv();
    test_rk4_trajectory();
    test_rk4_grid();
    test_grid_uniform();
    test_sink();
    test_fast_path();
    test_expm();
    test_reuse_exact();
    test_hull();
    return check_report();
}
