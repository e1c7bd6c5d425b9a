/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The 53-bit fast path of expressions (src/expr/elem.c, feval.c) against
 * MPFI and MPFR: on seeded random points and intervals, including the
 * hard cases (near multiples of pi/2, near 0, large arguments, subnormals,
 * log near 1, exp near overflow), every result the fast path accepts must
 * be exactly MPFI's at 53 bits (the tightness it promises: correctly
 * rounded ends) and contain the 256-bit MPFR values at the ends and the
 * midpoint; refusals must stay rare on ordinary arguments. Then whole
 * expressions with the fast path on and off, and the double evaluator. */
#include "check.h"
#include "dvicert/dvicert.h"
#include "expr/elem.h"
#include "expr/internal.h"
#include "rounding.h"

#include <math.h>
#include <string.h>

enum { F_SIN, F_COS, F_EXP, F_LOG, F_ATAN, F_TANH, F_SINH, F_COSH, F_SQRT, F_POWI, NF };
static const char *fname[NF] = {"sin", "cos", "exp", "log", "atan", "tanh", "sinh", "cosh", "sqrt", "powi"};

static int fast(int f, dvc_di *r, dvc_di a, long n)
{
    int saved = dvc_rnd_save_ext(), st;
    dvc_rnd_set_ext(FE_UPWARD);
    switch (f) {
    case F_SIN: st = dvc_di_sin(r, a); break;
    case F_COS: st = dvc_di_cos(r, a); break;
    case F_EXP: st = dvc_di_exp(r, a); break;
    case F_LOG: st = dvc_di_log(r, a); break;
    case F_ATAN: st = dvc_di_atan(r, a); break;
    case F_TANH: st = dvc_di_tanh(r, a); break;
    case F_SINH: st = dvc_di_sinh(r, a); break;
    case F_COSH: st = dvc_di_cosh(r, a); break;
    case F_SQRT: st = dvc_di_sqrt(r, a); break;
    default: st = dvc_di_powi(r, a, n); break;
    }
    dvc_rnd_restore_ext(saved);
    return st;
}

static void mpfi_f(int f, mpfi_t r, const mpfi_t a, long n)
{
    switch (f) {
    case F_SIN: mpfi_sin(r, a); break;
    case F_COS: mpfi_cos(r, a); break;
    case F_EXP: mpfi_exp(r, a); break;
    case F_LOG: mpfi_log(r, a); break;
    case F_ATAN: mpfi_atan(r, a); break;
    case F_TANH: mpfi_tanh(r, a); break;
    case F_SINH: mpfi_sinh(r, a); break;
    case F_COSH: mpfi_cosh(r, a); break;
    case F_SQRT: mpfi_sqrt(r, a); break;
    default: { /* as the MPFI program: endpoint powers, then the inverse */
        unsigned long m = (unsigned long)(n < 0 ? -n : n);
        mpfr_srcptr lo = &a->left, hi = &a->right;
        if (m % 2 == 1 || mpfr_sgn(lo) >= 0) {
            mpfr_pow_ui(&r->left, lo, m, MPFR_RNDD);
            mpfr_pow_ui(&r->right, hi, m, MPFR_RNDU);
        } else if (mpfr_sgn(hi) <= 0) {
            mpfr_pow_ui(&r->left, hi, m, MPFR_RNDD);
            mpfr_pow_ui(&r->right, lo, m, MPFR_RNDU);
        } else {
            mpfr_pow_ui(&r->right, mpfr_cmpabs(lo, hi) > 0 ? lo : hi, m, MPFR_RNDU);
            mpfr_set_zero(&r->left, 1);
        }
        if (n < 0) mpfi_inv(r, r);
    }
    }
}

static void mpfr_f(int f, mpfr_t r, const mpfr_t x, long n)
{
    switch (f) {
    case F_SIN: mpfr_sin(r, x, MPFR_RNDN); break;
    case F_COS: mpfr_cos(r, x, MPFR_RNDN); break;
    case F_EXP: mpfr_exp(r, x, MPFR_RNDN); break;
    case F_LOG: mpfr_log(r, x, MPFR_RNDN); break;
    case F_ATAN: mpfr_atan(r, x, MPFR_RNDN); break;
    case F_TANH: mpfr_tanh(r, x, MPFR_RNDN); break;
    case F_SINH: mpfr_sinh(r, x, MPFR_RNDN); break;
    case F_COSH: mpfr_cosh(r, x, MPFR_RNDN); break;
    case F_SQRT: mpfr_sqrt(r, x, MPFR_RNDN); break;
    default: mpfr_pow_si(r, x, n, MPFR_RNDN); break;
    }
}

static long n_try[NF], n_fast[NF], n_sincos;

/* sin and cos of one interval in one call (the tangent of sin and cos):
 * accepted exactly when both single functions are, with their results,
 * which are then compared with MPFI at 53 bits and 256-bit values by
 * one(). */
static void sincos_same(double lo, double hi)
{
    dvc_di a = {lo, hi}, s, c, s1, c1;
    int saved = dvc_rnd_save_ext();
    dvc_rnd_set_ext(FE_UPWARD);
    int st = dvc_di_sincos(&s, &c, a), ss = dvc_di_sin(&s1, a), sc = dvc_di_cos(&c1, a);
    dvc_rnd_restore_ext(saved);
    CHECK((st == 0) == (ss == 0 && sc == 0), "sincos [%a, %a]: status %d, sin %d, cos %d", lo, hi, st, ss, sc);
    if (st == 0 && ss == 0 && sc == 0) {
        n_sincos++;
        CHECK(s.lo == s1.lo && s.hi == s1.hi && c.lo == c1.lo && c.hi == c1.hi,
              "sincos [%a, %a]: sin [%a, %a] cos [%a, %a], alone [%a, %a] [%a, %a]", lo, hi, s.lo, s.hi, c.lo, c.hi,
              s1.lo, s1.hi, c1.lo, c1.hi);
    }
}

/* One interval [lo, hi] through function f: compared with MPFI when the
 * fast path accepts it. */
static void one(int f, double lo, double hi, long n)
{
    dvc_di a = {lo, hi}, r;
    if (f == F_SIN || f == F_COS) sincos_same(lo, hi);
    if (fast(f, &r, a, n)) {
        n_try[f]++;
        return;
    }
    n_try[f]++;
    n_fast[f]++;
    mpfi_t A, R;
    mpfr_t x, y;
    mpfi_init2(A, 53);
    mpfi_init2(R, 53);
    mpfr_init2(x, 256);
    mpfr_init2(y, 256);
    mpfi_interv_d(A, lo, hi);
    mpfi_f(f, R, A, n);
    int same = mpfr_get_d(&R->left, MPFR_RNDN) == r.lo && mpfr_get_d(&R->right, MPFR_RNDN) == r.hi;
    CHECK(same, "%s(%s) [%a, %a]: fast [%a, %a], MPFI [%a, %a]", fname[f], n ? "n" : "", lo, hi,
          r.lo, r.hi, mpfr_get_d(&R->left, MPFR_RNDN), mpfr_get_d(&R->right, MPFR_RNDN));
    /* the 256-bit values at the ends and the middle lie inside */
    double pts[3] = {lo, hi, lo / 2 + hi / 2};
    for (int i = 0; i < 3; i++) {
        if (!(pts[i] >= lo && pts[i] <= hi)) continue;
        mpfr_set_d(x, pts[i], MPFR_RNDN);
        mpfr_f(f, y, x, n);
        CHECK(mpfr_cmp_d(y, r.lo) >= 0 && mpfr_cmp_d(y, r.hi) <= 0, "%s at %a: 256-bit value %.20g outside [%a, %a]",
              fname[f], pts[i], mpfr_get_d(y, MPFR_RNDN), r.lo, r.hi);
    }
    mpfi_clear(A);
    mpfi_clear(R);
    mpfr_clear(x);
    mpfr_clear(y);
}

static double rnd_sign(check_rng *g, double x) { return (check_rng_next(g) & 1) ? -x : x; }

/* points and intervals for f from the ordinary and the hard ranges */
static void run_function(int f, check_rng *g, int count, long n)
{
    for (int i = 0; i < count; i++) {
        double x, w;
        int kind = (int)(check_rng_next(g) % 6);
        switch (f) {
        case F_SIN: case F_COS:
            if (kind == 0) x = check_rng_unif(g, -10, 10);
            else if (kind == 1) { /* near k pi/2 */
                double k = floor(check_rng_unif(g, -4000, 4000));
                x = k * 0x1.921fb54442d18p+0;
                x = nextafter(x, (check_rng_next(g) & 1) ? INFINITY : -INFINITY);
            } else if (kind == 2) x = rnd_sign(g, ldexp(check_rng_unif(g, 1, 2), -(int)(check_rng_next(g) % 60)));
            else if (kind == 3) x = rnd_sign(g, check_rng_unif(g, 1e3, 0x1p21)); /* beyond 2^20: MPFI */
            else if (kind == 4) x = rnd_sign(g, ldexp(1, -1050)); /* subnormal */
            else x = check_rng_unif(g, -1e5, 1e5);
            break;
        case F_EXP:
            if (kind == 0) x = check_rng_unif(g, -30, 30);
            else if (kind == 1) x = check_rng_unif(g, 700, 709.78); /* near overflow */
            else if (kind == 2) x = rnd_sign(g, ldexp(check_rng_unif(g, 1, 2), -(int)(check_rng_next(g) % 70)));
            else if (kind == 3) x = check_rng_unif(g, -708, -600);
            else if (kind == 4) x = check_rng_unif(g, -800, 800);
            else x = check_rng_unif(g, -1, 1);
            break;
        case F_LOG: case F_SQRT:
            if (kind == 0) x = check_rng_unif(g, 1e-3, 1e3);
            else if (kind == 1) x = 1 + rnd_sign(g, ldexp(check_rng_unif(g, 1, 2), -(int)(check_rng_next(g) % 52) - 1)); /* near 1 */
            else if (kind == 2) x = ldexp(check_rng_unif(g, 1, 2), (int)(check_rng_next(g) % 2000) - 1000);
            else if (kind == 3) x = ldexp(check_rng_unif(g, 1, 2), -1060); /* subnormal */
            else if (kind == 4) x = check_rng_unif(g, 0.5, 2);
            else x = check_rng_unif(g, 1e300, 1e308);
            break;
        case F_POWI:
            if (kind == 5) x = rnd_sign(g, ldexp(check_rng_unif(g, 1, 2), (int)(check_rng_next(g) % 200) - 100));
            else x = check_rng_unif(g, -3, 3);
            break;
        default: /* atan, tanh, sinh, cosh */
            if (kind == 0) x = check_rng_unif(g, -3, 3);
            else if (kind == 1) x = rnd_sign(g, ldexp(check_rng_unif(g, 1, 2), -(int)(check_rng_next(g) % 60)));
            else if (kind == 2) x = rnd_sign(g, check_rng_unif(g, 10, 800));
            else if (kind == 3) x = rnd_sign(g, ldexp(check_rng_unif(g, 1, 2), (int)(check_rng_next(g) % 200)));
            else if (kind == 4) x = check_rng_unif(g, 0.4, 0.6); /* branch changes at 0.5 */
            else x = check_rng_unif(g, -25, 25);
            break;
        }
        /* a point, or an interval of random width to the right */
        if (check_rng_next(g) & 1) {
            one(f, x, x, n);
        } else {
            w = fabs(x) * ldexp(1, -(int)(check_rng_next(g) % 50)) + ldexp(1, -(int)(check_rng_next(g) % 60));
            if (check_rng_next(g) % 8 == 0) w = check_rng_unif(g, 0, 8); /* wide: extrema of sin, cos */
            double y = x + w;
            if (isfinite(y)) one(f, x, y, n);
        }
    }
}

/* The extended-precision enclosures before rounding: they contain the
 * 256-bit value and are at most 16 units of 2^-64 wide (relative). This is
 * what fails when a truncation bound or a reduction constant is too small,
 * even where the rounding to 53 bits happens not to change. */
static void enclosures(void)
{
    static const int fmap[8] = {F_SIN, F_COS, F_EXP, F_LOG, F_ATAN, F_TANH, F_SINH, F_COSH};
    check_rng g = {4242};
    mpfr_t x, y, w;
    mpfr_init2(x, 256);
    mpfr_init2(y, 256);
    mpfr_init2(w, 256);
    for (int f = 0; f < 8; f++) {
        long bad = 0, wide = 0, n = 0;
        for (int i = 0; i < 30000; i++) {
            double a;
            int kind = i % 3;
            if (f == 3) a = kind == 0 ? check_rng_unif(&g, 1e-3, 1e3) : kind == 1 ? check_rng_unif(&g, 0.7, 1.42)
                                                                     : ldexp(check_rng_unif(&g, 1, 2), (int)(check_rng_next(&g) % 400) - 200);
            else if (f == 2) a = kind == 0 ? check_rng_unif(&g, -700, 700) : check_rng_unif(&g, -2, 2);
            else if (f <= 1) a = kind == 0 ? check_rng_unif(&g, -1e5, 1e5) : check_rng_unif(&g, -4, 4);
            else a = kind == 0 ? check_rng_unif(&g, -20, 20) : check_rng_unif(&g, -1.2, 1.2);
            long double lo, hi;
            int saved = dvc_rnd_save_ext();
            dvc_rnd_set_ext(FE_UPWARD);
            int st = dvc_di_encl_(f, a, &lo, &hi);
            dvc_rnd_restore_ext(saved);
            if (st) continue;
            n++;
            mpfr_set_d(x, a, MPFR_RNDN);
            mpfr_f(fmap[f], y, x, 0);
            if (mpfr_cmp_ld(y, lo) < 0 || mpfr_cmp_ld(y, hi) > 0) bad++;
            /* (hi - lo)/|v| <= 2^-60 (tanh: 2^-58, 1 - 2/(e^2x + 1) cancels) */
            mpfr_set_ld(w, hi, MPFR_RNDN);
            mpfr_set_ld(x, lo, MPFR_RNDN);
            mpfr_sub(w, w, x, MPFR_RNDN);
            mpfr_abs(x, y, MPFR_RNDN);
            mpfr_mul_2si(x, x, f == 5 ? -58 : -60, MPFR_RNDN);
            if (mpfr_cmp(w, x) > 0) wide++;
        }
        CHECK(bad == 0, "%s: %ld of %ld extended enclosures miss the 256-bit value", fname[fmap[f]], bad, n);
        CHECK(wide == 0, "%s: %ld of %ld extended enclosures wider than 2^-60 (tanh 2^-58) relative", fname[fmap[f]], wide, n);
        CHECK(n > 25000, "%s: only %ld arguments in range", fname[fmap[f]], n);
    }
    mpfr_clear(x);
    mpfr_clear(y);
    mpfr_clear(w);
}

/* Ordinary arguments: the fast path must accept almost all of them. */
static void coverage(void)
{
    check_rng g = {12345};
    for (int f = 0; f < NF; f++) n_try[f] = n_fast[f] = 0;
    for (int i = 0; i < 20000; i++) {
        double x = check_rng_unif(&g, 0.01, 5);
        one(F_SIN, x, x, 0);
        one(F_COS, x, x, 0);
        one(F_EXP, -x, -x, 0);
        one(F_LOG, x, x, 0);
        one(F_ATAN, x, x, 0);
        one(F_TANH, x, x, 0);
        one(F_SQRT, x, x, 0);
        one(F_POWI, x, x, 3);
    }
    for (int f = 0; f < NF; f++) {
        if (n_try[f] == 0) continue;
        double rate = (double)n_fast[f] / (double)n_try[f];
        printf("  %-5s fast path on ordinary points: %.2f%%\n", fname[f], 100 * rate);
        CHECK(rate > 0.98, "%s: fast path accepted only %.2f%% of ordinary points", fname[f], 100 * rate);
    }
}

static void special(void)
{
    dvc_di r;
    /* exact values MPFI gives exactly */
    CHECK(fast(F_COS, &r, (dvc_di){0, 0}, 0) == 0 && r.lo == 1 && r.hi == 1, "cos 0");
    CHECK(fast(F_SIN, &r, (dvc_di){0, 0}, 0) == 0 && r.lo == 0 && r.hi == 0, "sin 0");
    CHECK(fast(F_EXP, &r, (dvc_di){0, 0}, 0) == 0 && r.lo == 1 && r.hi == 1, "exp 0");
    CHECK(fast(F_LOG, &r, (dvc_di){1, 1}, 0) == 0 && r.lo == 0 && r.hi == 0, "log 1");
    CHECK(fast(F_SQRT, &r, (dvc_di){4, 9}, 0) == 0 && r.lo == 2 && r.hi == 3, "sqrt [4, 9]");
    /* extrema inside: sin over [1, 2] reaches 1 at pi/2; cos over [-1, 4]: 1 and -1 */
    CHECK(fast(F_SIN, &r, (dvc_di){1, 2}, 0) == 0 && r.hi == 1 && r.lo < 0.85, "sin [1, 2]");
    CHECK(fast(F_COS, &r, (dvc_di){-1, 4}, 0) == 0 && r.hi == 1 && r.lo == -1, "cos [-1, 4]");
    /* refused: outside the reduction, domain, overflow, NaN */
    CHECK(fast(F_SIN, &r, (dvc_di){0x1p21, 0x1p21}, 0) != 0, "sin 2^21 goes to MPFI");
    CHECK(fast(F_LOG, &r, (dvc_di){-1, 2}, 0) != 0, "log of [-1, 2]");
    CHECK(fast(F_EXP, &r, (dvc_di){1, 710}, 0) != 0, "exp overflow");
    CHECK(fast(F_EXP, &r, (dvc_di){NAN, 1}, 0) != 0, "exp NaN");
    CHECK(fast(F_POWI, &r, (dvc_di){-1, 1}, -2) != 0, "1/t^2 with 0 inside");
    /* tanh far out: [1 - 2^-53, 1] */
    CHECK(fast(F_TANH, &r, (dvc_di){30, 40}, 0) == 0 && r.lo == 1 - 0x1p-53 && r.hi == 1, "tanh [30, 40]");
}

/* Whole expressions: fast path on and off give the same intervals and
 * statuses, for values, derivatives and Lipschitz constants. */
static void expressions(void)
{
    static const char *texts[] = {
        "sin(4*t)", "0.1*cos(5*t) - 1/30*sin(3*t)", "exp(-t/3)*sin(2*pi*t)", "log(1 + t^2)",
        "sqrt(2 + t) + atan(t^3)", "tanh(t - 1)*sinh(t/2) - cosh(t)", "t^-2 + t^5",
        "(1 + t)^0.5 * abs(sin(t)) + min(t, 1) - max(cos(t), 0.25)", "2^t + t^t",
        "sin(1e6*t)", "exp(800*t)", "log(t - 0.5)", "1/(t - 1)", "abs(t - 1) + abs(t - 2)*t",

    };
    check_rng g = {777};
    mpfi_t T, a, b, da, db;
    mpfr_t La, Lb;
    mpfi_init2(T, 53);
    mpfi_init2(a, 53);
    mpfi_init2(b, 53);
    mpfi_init2(da, 53);
    mpfi_init2(db, 53);
    mpfr_inits2(53, La, Lb, (mpfr_ptr)0);
    for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
        dvc_expr_t e;
        dvc_expr_init2(e, 53);
        REQUIRE(dvc_expr_parse(e, texts[k], NULL) == DVC_OK, "parse %s: %s", texts[k], dvc_error_message());
        for (int i = 0; i < 300; i++) {
            double t0 = check_rng_unif(&g, 0.001, 3), w = (i % 3 == 0) ? 0 : ldexp(check_rng_unif(&g, 0, 1), -(i % 40));
            if (i < 4) { /* ends on kinks and singular points */
                static const double fx[4][2] = {{1, 1.5}, {0.5, 1}, {1, 1}, {2, 2.5}};
                t0 = fx[i][0];
                w = fx[i][1] - fx[i][0];
            }
            mpfi_interv_d(T, t0, t0 + w);
            dvc_expr_fast_enable_(1);
            dvc_status s1 = dvc_expr_eval(a, e, T);
            dvc_status s3 = dvc_expr_eval_d1(NULL, da, e, T);
            dvc_status s5 = dvc_expr_lipschitz(La, e, T);
            dvc_error_reset();
            dvc_expr_fast_enable_(0);
            dvc_status s2 = dvc_expr_eval(b, e, T);
            dvc_status s4 = dvc_expr_eval_d1(NULL, db, e, T);
            dvc_status s6 = dvc_expr_lipschitz(Lb, e, T);
            dvc_error_reset();
            dvc_expr_fast_enable_(1);
            CHECK(s1 == s2 && s3 == s4 && s5 == s6, "%s on [%a, %a]: statuses %d/%d %d/%d %d/%d", texts[k],
                  t0, t0 + w, s1, s2, s3, s4, s5, s6);
            if (s1 == DVC_OK && s2 == DVC_OK)
                CHECK(mpfi_cmp(a, b) == 0 && mpfr_equal_p(&a->left, &b->left) && mpfr_equal_p(&a->right, &b->right),
                      "%s on [%a, %a]: value differs from MPFI", texts[k], t0, t0 + w);
            if (s3 == DVC_OK && s4 == DVC_OK)
                CHECK(mpfr_equal_p(&da->left, &db->left) && mpfr_equal_p(&da->right, &db->right),
                      "%s on [%a, %a]: derivative differs from MPFI", texts[k], t0, t0 + w);
            if (s5 == DVC_OK && s6 == DVC_OK)
                CHECK(mpfr_equal_p(La, Lb), "%s on [%a, %a]: Lipschitz constant differs", texts[k], t0, t0 + w);
            /* the double evaluator: a predictor close to the enclosure */
            if (w == 0 && s2 == DVC_OK && isfinite(mpfr_get_d(&b->right, MPFR_RNDU)) &&
                isfinite(mpfr_get_d(&b->left, MPFR_RNDD))) {
                double p = dvc_expr_eval_double(e, t0, NULL), m = dvc_ival_mid_d(b);
                double wd = mpfr_get_d(&b->right, MPFR_RNDU) - mpfr_get_d(&b->left, MPFR_RNDD);
                CHECK(fabs(p - m) <= wd + 1e-13 * (1 + fabs(m)), "%s at %a: double %.17g, interval mid %.17g",
                      texts[k], t0, p, m);
            }
        }
        dvc_expr_clear(e);
    }
    /* not defined: NaN */
    dvc_expr_t e;
    dvc_expr_init2(e, 53);
    REQUIRE(dvc_expr_parse(e, "log(t) + sqrt(t)", NULL) == DVC_OK, "parse");
    CHECK(isnan(dvc_expr_eval_double(e, -1, NULL)), "log(-1) in the double evaluator is NaN");
    CHECK(fabs(dvc_expr_eval_double(e, 4, NULL) - (log(4) + 2)) < 1e-15, "log 4 + 2");
    dvc_expr_clear(e);
    /* with variables */
    const char *vn[2] = {"x1", "x2"};
    dvc_expr_init2(e, 53);
    REQUIRE(dvc_expr_parse_vars(e, "x1*sin(t) - x2^2", NULL, 2, vn) == DVC_OK, "parse vars");
    double xv[2] = {2, 3};
    CHECK(fabs(dvc_expr_eval_double(e, 1, xv) - (2 * sin(1) - 9)) < 1e-14, "x1 sin t - x2^2");
    dvc_expr_clear(e);
    /* other precisions never take the fast path, and agree with MPFI */
    dvc_expr_init2(e, 80);
    REQUIRE(dvc_expr_parse(e, "sin(t)", NULL) == DVC_OK, "parse at 80 bits");
    mpfi_set_d(T, 1);
    mpfi_t c;
    mpfi_init2(c, 80);
    CHECK(dvc_expr_eval(c, e, T) == DVC_OK && mpfi_get_prec(c) == 80 && mpfr_cmp(&c->left, &c->right) < 0 &&
              mpfr_get_exp(&c->right) == 0,
          "80 bits");
    mpfi_clear(c);
    dvc_expr_clear(e);
    mpfi_clear(T);
    mpfi_clear(a);
    mpfi_clear(b);
    mpfi_clear(da);
    mpfi_clear(db);
    mpfr_clears(La, Lb, (mpfr_ptr)0);
}

/* A random expression of t (depth <= d) into buf. */
static void gen(check_rng *g, char *buf, size_t cap, int d)
{
    static const char *fn[] = {"sin", "cos", "exp", "log", "sqrt", "abs", "atan", "tanh", "sinh", "cosh"};
    static const char *leaf[] = {"t", "t", "t", "0.3", "2", "pi", "1e-3", "7"};
    static const char *bin[] = {"+", "-", "*", "/", "^"};
    char a[1024], b[1024];
    int k = d <= 0 ? 0 : (int)(check_rng_next(g) % 4), len;
    if (k == 0) {
        len = snprintf(buf, cap, "%s", leaf[check_rng_next(g) % 8]);
    } else if (k == 1) {
        gen(g, a, sizeof a, d - 1);
        len = snprintf(buf, cap, "%s(%s)", fn[check_rng_next(g) % 10], a);
    } else if (k == 2) {
        gen(g, a, sizeof a, d - 1);
        gen(g, b, sizeof b, d - 1);
        len = snprintf(buf, cap, "%s(%s, %s)", (check_rng_next(g) & 1) ? "min" : "max", a, b);
    } else {
        gen(g, a, sizeof a, d - 1);
        int op = (int)(check_rng_next(g) % 5);
        if (op == 4) snprintf(b, sizeof b, "%d", (int)(check_rng_next(g) % 7) - 3);
        else gen(g, b, sizeof b, d - 1);
        len = snprintf(buf, cap, "(%s)%s(%s)", a, bin[op], b);
    }
    if (len < 0 || (size_t)len >= cap) snprintf(buf, cap, "t"); /* too long: a leaf */
}

/* Random expressions: values, derivatives and statuses with the fast path
 * on and off are identical. */
static void random_expressions(void)
{
    check_rng g = {31337};
    mpfi_t T, a, b, da, db;
    mpfi_init2(T, 53);
    mpfi_init2(a, 53);
    mpfi_init2(b, 53);
    mpfi_init2(da, 53);
    mpfi_init2(db, 53);
    long tried = 0;
    for (int k = 0; k < 600; k++) {
        char text[1024];
        dvc_expr_t e;
        gen(&g, text, sizeof text, 4);
        dvc_expr_init2(e, 53);
        if (dvc_expr_parse(e, text, NULL) != DVC_OK) {
            dvc_error_reset();
            dvc_expr_clear(e);
            continue;
        }
        for (int i = 0; i < 20; i++) {
            double t0 = check_rng_unif(&g, -3, 3), w = (i % 2) ? 0 : ldexp(1, -(int)(check_rng_next(&g) % 30));
            mpfi_interv_d(T, t0, t0 + w);
            dvc_expr_fast_enable_(1);
            dvc_status s1 = dvc_expr_eval_d1(a, da, e, T);
            dvc_error_reset();
            dvc_expr_fast_enable_(0);
            dvc_status s2 = dvc_expr_eval_d1(b, db, e, T);
            dvc_error_reset();
            dvc_expr_fast_enable_(1);
            tried++;
            CHECK(s1 == s2, "%s on [%a, %a]: status %d vs %d", text, t0, t0 + w, s1, s2);
            if (s1 == DVC_OK && s2 == DVC_OK)
                CHECK(mpfr_equal_p(&a->left, &b->left) && mpfr_equal_p(&a->right, &b->right) &&
                          mpfr_equal_p(&da->left, &db->left) && mpfr_equal_p(&da->right, &db->right),
                      "%s on [%a, %a]: differs from MPFI", text, t0, t0 + w);
        }
        dvc_expr_clear(e);
    }
    CHECK(tried > 5000, "only %ld random evaluations", tried);
    mpfi_clear(T);
    mpfi_clear(a);
    mpfi_clear(b);
    mpfi_clear(da);
    mpfi_clear(db);
}

/* The value at T0 and the derivative over T1 in one pass
 * (dvc_expr_eval_vd1, the lognorm route's f(t_m) and f' over a step):
 * equal to dvc_expr_eval at T0 and dvc_expr_eval_d1 over T1 in MPFI (fast
 * path off), same statuses, and containing the 256-bit value at a point
 * of T0 and derivative at a point of T1. The one pass itself
 * (dvc_expr_fast_vd_) must accept ordinary arguments of functions of t
 * ending in sin or cos (its derivative-only last step). */
static void value_and_derivative(void)
{
    static const char *fixed[] = {"sin(4*t)", "cos(3*t + 1)", "0.5*sin(t)^2", "sin(cos(t))", "exp(-t)*cos(2*t)",
                                  "-cos(t/3)", "2*sin(t) - 0.1"};
    check_rng g = {4711};
    mpfi_t T0, T1, a, da, b, db, P, y, dy;
    mpfi_init2(T0, 53);
    mpfi_init2(T1, 53);
    mpfi_init2(a, 53);
    mpfi_init2(da, 53);
    mpfi_init2(b, 53);
    mpfi_init2(db, 53);
    mpfi_init2(P, 256);
    mpfi_init2(y, 256);
    mpfi_init2(dy, 256);
    long tried = 0, onepass = 0, fixed_one = 0, fixed_tried = 0;
    for (int k = 0; k < 400 + 7; k++) {
        char text[1024];
        dvc_expr_t e, e256;
        int is_fixed = k >= 400;
        if (is_fixed) snprintf(text, sizeof text, "%s", fixed[k - 400]);
        else gen(&g, text, sizeof text, 4);
        dvc_expr_init2(e, 53);
        dvc_expr_init2(e256, 256);
        if (dvc_expr_parse(e, text, NULL) != DVC_OK || dvc_expr_parse(e256, text, NULL) != DVC_OK) {
            dvc_error_reset();
            dvc_expr_clear(e);
            dvc_expr_clear(e256);
            continue;
        }
        for (int i = 0; i < 40; i++) {
            /* T1 a step [t, t + w], T0 a thin interval inside it (as t_m) */
            double t = check_rng_unif(&g, -3, 3), w = ldexp(1, -(int)(3 + check_rng_next(&g) % 25));
            double m = t + 0.5 * w;
            mpfi_interv_d(T1, t, t + w);
            mpfi_interv_d(T0, m, i % 3 ? m : nextafter(m, INFINITY));
            dvc_expr_fast_enable_(1);
            if (dvc_expr_fast_vd_(e, a, da, T0, T1) == 0) {
                onepass++;
                if (is_fixed) fixed_one++;
            }
            dvc_status s1 = dvc_expr_eval_vd1(a, da, e, T0, T1);
            dvc_error_reset();
            dvc_expr_fast_enable_(0);
            dvc_status s2 = dvc_expr_eval(b, e, T0);
            if (s2 == DVC_OK) s2 = dvc_expr_eval_d1(NULL, db, e, T1);
            dvc_error_reset();
            dvc_expr_fast_enable_(1);
            tried++;
            if (is_fixed) fixed_tried++;
            CHECK(s1 == s2, "vd1 %s at [%a, %a]: status %d vs %d", text, t, t + w, s1, s2);
            if (s1 != DVC_OK || s2 != DVC_OK) continue;
            CHECK(mpfr_equal_p(&a->left, &b->left) && mpfr_equal_p(&a->right, &b->right) &&
                      mpfr_equal_p(&da->left, &db->left) && mpfr_equal_p(&da->right, &db->right),
                  "vd1 %s at [%a, %a]: value [%a, %a] deriv [%a, %a], MPFI [%a, %a] [%a, %a]", text, t, t + w,
                  mpfr_get_d(&a->left, MPFR_RNDN), mpfr_get_d(&a->right, MPFR_RNDN),
                  mpfr_get_d(&da->left, MPFR_RNDN), mpfr_get_d(&da->right, MPFR_RNDN),
                  mpfr_get_d(&b->left, MPFR_RNDN), mpfr_get_d(&b->right, MPFR_RNDN),
                  mpfr_get_d(&db->left, MPFR_RNDN), mpfr_get_d(&db->right, MPFR_RNDN));
            /* 256-bit values at m and at a point of T1 */
            mpfi_set_d(P, m);
            if (dvc_expr_eval(y, e256, P) == DVC_OK)
                CHECK(mpfi_is_inside(y, a) > 0, "vd1 %s: 256-bit f(%a) outside the value", text, m);
            mpfi_set_d(P, t + w * check_rng_unif(&g, 0, 1));
            if (dvc_expr_eval_d1(NULL, dy, e256, P) == DVC_OK)
                CHECK(mpfi_is_inside(dy, da) > 0, "vd1 %s: 256-bit f' outside the derivative", text);
            dvc_error_reset();
        }
        dvc_expr_clear(e);
        dvc_expr_clear(e256);
    }
    CHECK(tried > 5000, "only %ld evaluations", tried);
    CHECK(fixed_one * 100 >= fixed_tried * 95, "one pass on %ld of %ld ordinary functions of t", fixed_one,
          fixed_tried);
    printf("  value and derivative in one pass: %ld of %ld random evaluations (%ld of %ld ordinary)\n", onepass,
           tried, fixed_one, fixed_tried);
    mpfi_clear(T0);
    mpfi_clear(T1);
    mpfi_clear(a);
    mpfi_clear(da);
    mpfi_clear(b);
    mpfi_clear(db);
    mpfi_clear(P);
    mpfi_clear(y);
    mpfi_clear(dy);
}

/* The callback of a tfun vector gives predictor values by the double
 * evaluator (libm), not by the midpoint of an interval evaluation: for
 * sin(1e6 t) the two differ by about 1e-10. */
static void predictor_values(void)
{
    dvc_tfun_vec_struct *v = dvc_tfun_vec_new(3, 53);
    dvc_tfun_cb cb;
    mpfi_t c;
    REQUIRE(v != NULL, "vector");
    REQUIRE(dvc_tfun_set_expr(&v->fn[0], "sin(1e6*t)", NULL) == DVC_OK, "sin(1e6*t)");
    REQUIRE(dvc_tfun_set_expr(&v->fn[1], "exp(-t)*cos(3*t) + t^3", NULL) == DVC_OK, "second");
    mpfi_init2(c, 53);
    mpfi_interv_d(c, 0.25, 0.75);
    REQUIRE(dvc_tfun_set_const(&v->fn[2], c) == DVC_OK, "constant");
    mpfi_clear(c);
    dvc_tfun_vec_cb(&cb, v, 1);
    check_rng g = {99};
    long same = 0;
    for (int i = 0; i < 1000; i++) {
        double t = check_rng_unif(&g, 0, 3), out[3];
        cb.eval_d(out, t, cb.ctx);
        double a = 1e6 * t, b = 3 * t;
        same += out[0] == sin(a) && out[1] == exp(-t) * cos(b) + pow(t, 3) && out[2] == 0.5;
    }
    CHECK(same == 1000, "predictor values by libm: %ld of 1000", same);
    cb.release(cb.ctx);
}

int main(void)
{
    if (!dvc_di_available()) {
        printf("long double has no 64-bit significand here: the fast path is off\n");
        return 0;
    }
    check_rng g = {20261126};
    for (int f = 0; f < NF; f++) {
        static const long ns[] = {2, 3, 5, -1, -2, -3, 7, 12};
        if (f == F_POWI) {
            for (int j = 0; j < 8; j++) run_function(f, &g, 2000, ns[j]);
        } else {
            run_function(f, &g, 20000, 0);
        }
        printf("  %-5s random and hard cases: %ld of %ld by the fast path\n", fname[f], n_fast[f], n_try[f]);
    }
    CHECK(n_sincos > 20000, "sincos compared on %ld intervals", n_sincos);
    printf("  sincos: %ld intervals with both ends accepted, equal to sin and cos alone\n", n_sincos);
    enclosures();
    predictor_values();
    random_expressions();
    value_and_derivative();
    coverage();
    special();
    expressions();
    /* the caller's rounding mode is kept, and does not change the result */
    {
        dvc_expr_t e;
        mpfi_t T, a, b;
        mpfi_init2(T, 53);
        mpfi_init2(a, 53);
        mpfi_init2(b, 53);
        dvc_expr_init2(e, 53);
        REQUIRE(dvc_expr_parse(e, "exp(sin(3*t)) + log(t)", NULL) == DVC_OK, "parse");
        mpfi_interv_d(T, 0.7, 0.75);
        dvc_status s1 = dvc_expr_eval(a, e, T);
        fesetround(FE_DOWNWARD);
        dvc_status s2 = dvc_expr_eval(b, e, T);
        CHECK(fegetround() == FE_DOWNWARD, "rounding mode restored");
        fesetround(FE_TONEAREST);
        CHECK(s1 == DVC_OK && s2 == DVC_OK && mpfr_equal_p(&a->left, &b->left) && mpfr_equal_p(&a->right, &b->right),
              "same result under FE_DOWNWARD");
        dvc_expr_clear(e);
        mpfi_clear(T);
        mpfi_clear(a);
        mpfi_clear(b);
    }
    return check_report();
}
