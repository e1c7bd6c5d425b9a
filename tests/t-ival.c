/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Randomized tests of every function of dvicert/ival.h (Arb t-*.c style:
 * fixed seeds, many cases, several precisions). Decimal input is checked
 * against an exact rational parse (ref_q_parse_dec, no MPFR), printed
 * decimals are parsed back exactly and compared with the endpoints. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_ival.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"

/* x is the tightest interval at its precision around q: q itself when q
 * is representable, else adjacent floating-point numbers around it. */
static int tight_around(const mpfi_t x, const mpq_t q)
{
    mpfr_t t;
    int ok;
    if (!ref_contains_q(x, q)) return 0;
    if (mpfr_equal_p(&x->left, &x->right)) return mpfr_cmp_q(&x->left, q) == 0;
    mpfr_init2(t, mpfi_get_prec(x));
    mpfr_set(t, &x->left, MPFR_RNDN);
    mpfr_nextabove(t);
    ok = mpfr_equal_p(t, &x->right) && mpfr_cmp_q(&x->left, q) < 0 && mpfr_cmp_q(&x->right, q) > 0;
    mpfr_clear(t);
    return ok;
}

/* A random decimal string with its exact value in q. */
static void rand_decimal(char *buf, size_t len, mpq_t q, check_rng *r)
{
    char digits[64];
    int ni = (int)check_rng_int(r, 0, 20), nf = (int)check_rng_int(r, 0, 20);
    size_t k = 0;
    if (ni == 0 && nf == 0) ni = 1;
    if (check_rng_int(r, 0, 1)) digits[k++] = '-';
    else if (check_rng_int(r, 0, 4) == 0) digits[k++] = '+';
    for (int i = 0; i < ni; i++) digits[k++] = (char)('0' + check_rng_int(r, 0, 9));
    if (nf > 0 || check_rng_int(r, 0, 3) == 0) {
        digits[k++] = '.';
        for (int i = 0; i < nf; i++) digits[k++] = (char)('0' + check_rng_int(r, 0, 9));
    }
    digits[k] = '\0';
    if (check_rng_int(r, 0, 1))
        snprintf(buf, len, "%s%s%c%ld", check_rng_int(r, 0, 3) ? "" : " ", digits,
                 check_rng_int(r, 0, 1) ? 'e' : 'E', check_rng_int(r, -320, 320));
    else
        snprintf(buf, len, "%s%s", digits, check_rng_int(r, 0, 3) ? "" : "  ");
    REQUIRE(ref_q_parse_dec(q, buf) != NULL, "reference parse of %s", buf);
}

static void t_prec(void)
{
    dvc_ivec_t v;
    mpfr_prec_t saved = dvc_prec_get();
    CHECK(saved == DVC_DEFAULT_PREC, "default precision %ld", (long)saved);
    for (int k = 0; k < RAND_NPRECS; k++) {
        dvc_prec_set(rand_precs[k]);
        CHECK(dvc_prec_get() == rand_precs[k], "prec_get after set %ld", (long)rand_precs[k]);
        dvc_ivec_init(v, 2);
        CHECK(mpfi_get_prec(v->e[1]) == rand_precs[k], "objects take the working precision");
        dvc_ivec_clear(v);
    }
    dvc_prec_set(0);
    CHECK(dvc_prec_get() == MPFR_PREC_MIN, "precision below MPFR_PREC_MIN is clamped");
    dvc_prec_set(saved);
    CHECK(dvc_prec_get() == saved, "restored");
}

static void t_set_str(void)
{
    check_rng r = {0x5e75};
    mpfi_t x;
    mpq_t q, q2;
    char buf[160], buf2[80], s2[340];
    mpfi_init2(x, 53);
    mpq_inits(q, q2, (mpq_ptr)0);
    for (int k = 0; k < 4000; k++) {
        mpfi_set_prec(x, rand_prec(&r));
        rand_decimal(buf, sizeof buf, q, &r);
        CHECK(dvc_ival_set_str(x, buf) == DVC_OK, "parse '%s': %s", buf, dvc_error_message());
        CHECK(tight_around(x, q), "'%s' at %ld bits: not the tightest enclosure", buf,
              (long)mpfi_get_prec(x));
    }
    /* "[a, b]": lower end tight below a, upper end tight above b */
    for (int k = 0; k < 2000; k++) {
        mpfr_t t;
        mpfi_set_prec(x, rand_prec(&r));
        rand_decimal(buf, sizeof buf, q, &r);
        rand_decimal(buf2, sizeof buf2, q2, &r);
        if (mpq_cmp(q, q2) > 0) {
            mpq_swap(q, q2);
            snprintf(s2, sizeof s2, "[%s,%s%s]", buf2, check_rng_int(&r, 0, 1) ? " " : "", buf);
        } else
            snprintf(s2, sizeof s2, " [ %s ,%s ] ", buf, buf2);
        CHECK(dvc_ival_set_str(x, s2) == DVC_OK, "parse '%s': %s", s2, dvc_error_message());
        CHECK(ref_contains_q(x, q) && ref_contains_q(x, q2), "'%s' not enclosed", s2);
        mpfr_init2(t, mpfi_get_prec(x));
        mpfr_set(t, &x->left, MPFR_RNDN);
        mpfr_nextabove(t);
        CHECK(mpfr_cmp_q(t, q) > 0 || mpfr_cmp_q(&x->left, q) == 0, "'%s': lower end not tight", s2);
        mpfr_set(t, &x->right, MPFR_RNDN);
        mpfr_nextbelow(t);
        CHECK(mpfr_cmp_q(t, q2) < 0 || mpfr_cmp_q(&x->right, q2) == 0, "'%s': upper end not tight", s2);
        mpfr_clear(t);
    }
    /* infinities */
    CHECK(dvc_ival_set_str(x, "inf") == DVC_OK && mpfr_inf_p(&x->left) && mpfr_sgn(&x->left) > 0 &&
              mpfr_inf_p(&x->right) && mpfr_sgn(&x->right) > 0, "inf");
    CHECK(dvc_ival_set_str(x, "-inf") == DVC_OK && mpfr_inf_p(&x->left) && mpfr_sgn(&x->right) < 0 &&
              mpfr_inf_p(&x->right), "-inf");
    CHECK(dvc_ival_set_str(x, "[-inf, 0.1]") == DVC_OK && mpfr_inf_p(&x->left) && mpfr_sgn(&x->left) < 0 &&
              ref_contains_si(x, 1, 10) && mpfr_cmp_d(&x->right, 0.2) < 0, "[-inf, 0.1]");
    /* huge and tiny decimals stay enclosed (overflow to inf only outward) */
    CHECK(dvc_ival_set_str(x, "1e999999999") == DVC_OK && mpfr_inf_p(&x->right) &&
              mpfr_cmp_d(&x->left, 1e308) > 0, "1e999999999: lower end finite, upper inf");
    CHECK(dvc_ival_set_str(x, "1e-999999999") == DVC_OK && mpfr_sgn(&x->left) == 0 &&
              mpfr_sgn(&x->right) > 0, "1e-999999999: [0, tiny]");
    {
        static const char *bad[] = {"nan", "-nan", "NaN", "1.0x", "[2, 1]", "", "   ", "[1, 2",
                                    "[1 2]", "1e", "--1", "[1, 2]x", "[nan, 1]", "0x10", "1,5"};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            mpfi_set_ui(x, 7);
            CHECK(dvc_ival_set_str(x, bad[i]) == DVC_ERR_INPUT, "'%s' accepted", bad[i]);
            CHECK(strstr(dvc_error_message(), bad[i]) != NULL, "message does not quote '%s': %s",
                  bad[i], dvc_error_message());
            CHECK(mpfi_cmp_ui(x, 7) == 0 && mpfr_equal_p(&x->left, &x->right), "'%s' changed x", bad[i]);
        }
        CHECK(dvc_ival_set_str(x, NULL) == DVC_ERR_INPUT, "NULL accepted");
    }
    mpq_clears(q, q2, (mpq_ptr)0);
    mpfi_clear(x);
}

static double rand_double_bits(check_rng *r)
{
    uint64_t u = check_rng_next(r);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static void t_set_dd(void)
{
    check_rng r = {0xdd};
    mpfi_t x;
    mpq_t a, b;
    mpfi_init2(x, 53);
    mpq_inits(a, b, (mpq_ptr)0);
    for (int k = 0; k < 3000; k++) {
        double lo = rand_double_bits(&r), hi = rand_double_bits(&r);
        if (k % 5 == 0) lo = hi = check_rng_unif(&r, -3, 3);
        if (isnan(lo) || isnan(hi) || isinf(lo) || isinf(hi)) continue;
        if (lo > hi) {
            double t = lo;
            lo = hi;
            hi = t;
        }
        mpfi_set_prec(x, rand_prec(&r));
        mpq_set_d(a, lo);
        mpq_set_d(b, hi);
        CHECK(dvc_ival_set_dd(x, lo, hi) == DVC_OK, "set_dd(%a, %a)", lo, hi);
        CHECK(ref_contains_q(x, a) && ref_contains_q(x, b), "[%a, %a] at %ld bits not enclosed", lo, hi,
              (long)mpfi_get_prec(x));
        if (mpfi_get_prec(x) >= 53)
            CHECK(mpfr_cmp_q(&x->left, a) == 0 && mpfr_cmp_q(&x->right, b) == 0, "[%a, %a] not exact", lo, hi);
    }
    CHECK(dvc_ival_set_dd(x, -INFINITY, 1) == DVC_OK && mpfr_inf_p(&x->left), "[-inf, 1]");
    CHECK(dvc_ival_set_dd(x, NAN, 1) == DVC_ERR_INPUT, "NaN lower end accepted");
    CHECK(dvc_ival_set_dd(x, 0, NAN) == DVC_ERR_INPUT, "NaN upper end accepted");
    CHECK(dvc_ival_set_dd(x, 1, 0.5) == DVC_ERR_INPUT, "empty interval accepted");
    mpq_clears(a, b, (mpq_ptr)0);
    mpfi_clear(x);
}

/* Count significant digits of a printed mantissa and parse its decimal
 * exponent: "-1.234e+05" -> 4 digits, exponent 5. */
static int sig_digits(const char *s, long *e10)
{
    int n = 0;
    const char *e;
    if (*s == '-') s++;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9') n++;
    e = strchr(s, 'e');
    *e10 = e ? strtol(e + 1, NULL, 10) : 0;
    return n;
}

/* Check one printed endpoint: s parses exactly, lies on the right side of
 * v (dir < 0: s <= v, dir > 0: s >= v), has `digits` significant digits
 * and is the nearest such decimal on that side (one decimal unit closer to
 * v would cross it). */
static int check_printed(const char *s, const mpfr_t v, int digits, int dir)
{
    mpq_t q, vq, u;
    long e10;
    int ok, nd;
    if (mpfr_inf_p(v)) return strcmp(s, mpfr_sgn(v) > 0 ? "inf" : "-inf") == 0;
    if (mpfr_zero_p(v)) return strcmp(s, "0") == 0;
    mpq_inits(q, vq, u, (mpq_ptr)0);
    ok = ref_q_set_dec(q, s);
    nd = sig_digits(s, &e10);
    if (ok) {
        mpfr_get_q(vq, v);
        ok = dir < 0 ? mpq_cmp(q, vq) <= 0 : mpq_cmp(q, vq) >= 0;
        ok = ok && nd == (digits < 2 ? 2 : digits);
        /* u = 10^(e10 - nd + 1), one unit in the last printed digit */
        {
            long pe = e10 - nd + 1;
            mpz_t p;
            mpz_init(p);
            mpz_ui_pow_ui(p, 10, (unsigned long)labs(pe));
            if (pe >= 0) mpq_set_z(u, p);
            else {
                mpq_set_ui(u, 1, 1);
                mpq_set_den(u, p);
            }
            mpz_clear(p);
        }
        if (dir < 0) mpq_add(q, q, u);
        else mpq_sub(q, q, u);
        ok = ok && (dir < 0 ? mpq_cmp(q, vq) > 0 : mpq_cmp(q, vq) < 0);
    }
    mpq_clears(q, vq, u, (mpq_ptr)0);
    return ok;
}

static void t_print(void)
{
    check_rng r = {0x9417};
    mpfi_t x;
    mpfr_t v;
    mpfi_init2(x, 53);
    mpfr_init2(v, 53);
    for (int k = 0; k < 3000; k++) {
        int d = (int)check_rng_int(&r, 0, 40);
        char *lo, *hi, *s;
        mpfi_set_prec(x, rand_prec(&r));
        rand_ival(x, &r, 1);
        if (k % 3 == 0) { /* wide exponent range */
            long sh = check_rng_int(&r, -900, 900);
            mpfr_mul_2si(&x->left, &x->left, sh, MPFR_RNDD);
            mpfr_mul_2si(&x->right, &x->right, sh, MPFR_RNDU);
        }
        lo = dvc_ival_lo_str(x, d);
        hi = dvc_ival_hi_str(x, d);
        s = dvc_ival_str(x, d);
        REQUIRE(lo && hi && s, "allocation");
        CHECK(check_printed(lo, &x->left, d, -1), "lo_str '%s' (%d digits)", lo, d);
        CHECK(check_printed(hi, &x->right, d, 1), "hi_str '%s' (%d digits)", hi, d);
        {
            size_t n = strlen(lo) + strlen(hi) + 5;
            char *want = malloc(n);
            snprintf(want, n, "[%s, %s]", lo, hi);
            CHECK(strcmp(s, want) == 0, "str '%s', expected '%s'", s, want);
            free(want);
        }
        free(lo);
        free(hi);
        free(s);
    }
    /* dvc_mpfr_str in the three directions */
    for (int k = 0; k < 3000; k++) {
        int d = (int)check_rng_int(&r, 0, 30);
        char *sd, *su, *sn;
        mpq_t qd, qu, qn;
        mpfr_set_prec(v, rand_prec(&r));
        rand_fr(v, &r, -400, 400);
        sd = dvc_mpfr_str(v, d, MPFR_RNDD);
        su = dvc_mpfr_str(v, d, MPFR_RNDU);
        sn = dvc_mpfr_str(v, d, MPFR_RNDN);
        CHECK(check_printed(sd, v, d, -1), "mpfr_str RNDD '%s'", sd);
        CHECK(check_printed(su, v, d, 1), "mpfr_str RNDU '%s'", su);
        mpq_inits(qd, qu, qn, (mpq_ptr)0);
        if (!mpfr_zero_p(v))
            CHECK(ref_q_set_dec(qd, sd) && ref_q_set_dec(qu, su) && ref_q_set_dec(qn, sn) &&
                      mpq_cmp(qd, qn) <= 0 && mpq_cmp(qn, qu) <= 0,
                  "RNDN '%s' outside ['%s', '%s']", sn, sd, su);
        mpq_clears(qd, qu, qn, (mpq_ptr)0);
        free(sd);
        free(su);
        free(sn);
    }
    {
        char *s;
        mpfr_set_nan(v);
        s = dvc_mpfr_str(v, 5, MPFR_RNDU);
        CHECK(strcmp(s, "nan") == 0, "NaN prints '%s'", s);
        free(s);
    }
    mpfr_clear(v);
    mpfi_clear(x);
}

static void t_double_hex(void)
{
    check_rng r = {0x4e8};
    char buf[40];
    for (int k = 0; k < 5000; k++) {
        double d = rand_double_bits(&r), back;
        if (k < 4) d = k == 0 ? 0.0 : k == 1 ? -0.0 : k == 2 ? 0x1p-1074 : -0x1.fffffffffffffp+1023;
        if (isnan(d)) continue;
        dvc_double_hex(buf, d);
        back = strtod(buf, NULL);
        CHECK(memcmp(&back, &d, sizeof d) == 0, "hex '%s' does not read back as %a", buf, d);
        CHECK(isinf(d) || strstr(buf, "0x") != NULL, "'%s' is not hexadecimal", buf);
    }
}

static void t_mag_mig(void)
{
    check_rng r = {0x3a9};
    mpfi_t x;
    mpfr_t m, g, t;
    mpq_t q;
    mpfi_init2(x, 53);
    mpfr_inits2(53, m, g, (mpfr_ptr)0);
    mpfr_init2(t, 400);
    mpq_init(q);
    for (int k = 0; k < 4000; k++) {
        mpfi_set_prec(x, rand_prec(&r));
        mpfr_set_prec(m, rand_prec(&r));
        mpfr_set_prec(g, rand_prec(&r));
        rand_ival(x, &r, 1);
        dvc_ival_mag(m, x);
        dvc_ival_mig(g, x);
        CHECK(!mpfr_nan_p(m) && !mpfr_nan_p(g) && mpfr_sgn(g) >= 0, "mag/mig NaN or mig < 0");
        for (int s = 0; s < 6; s++) {
            rand_sample_q(q, x, s < 2 ? s : 2, &r);
            mpq_abs(q, q);
            CHECK(mpfr_inf_p(m) || mpfr_cmp_q(m, q) >= 0, "mag below a point |q|");
            CHECK(mpfr_cmp_q(g, q) <= 0, "mig above a point |q|");
        }
        /* tight: one ulp of the result's precision (t = exact value) */
        mpfr_abs(t, &x->left, MPFR_RNDN);
        if (mpfr_cmpabs(&x->right, t) > 0) mpfr_abs(t, &x->right, MPFR_RNDN);
        CHECK(mpfr_cmp(m, t) >= 0, "mag below max(|lo|, |hi|)");
        if (mpfr_number_p(m) && mpfr_cmp(m, t) > 0) {
            mpfr_nextbelow(m);
            CHECK(mpfr_cmp(m, t) < 0, "mag more than one ulp above");
        }
        if (mpfr_sgn(&x->left) > 0) mpfr_set(t, &x->left, MPFR_RNDN);
        else if (mpfr_sgn(&x->right) < 0) mpfr_neg(t, &x->right, MPFR_RNDN);
        else mpfr_set_zero(t, 1);
        CHECK(mpfr_cmp(g, t) <= 0, "mig above the exact mignitude");
        if (mpfr_cmp(g, t) < 0) {
            mpfr_nextabove(g);
            CHECK(mpfr_cmp(g, t) > 0, "mig more than one ulp below");
        }
    }
    mpq_clear(q);
    mpfr_clears(m, g, t, (mpfr_ptr)0);
    mpfi_clear(x);
}

static void t_mid_pred(void)
{
    check_rng r = {0x31d};
    mpfi_t x;
    mpfi_init2(x, 53);
    for (int k = 0; k < 4000; k++) {
        int linf, rinf, nanl = 0, nanr = 0, want_pos, want_neg, want_nn, want_np;
        double m;
        mpfi_set_prec(x, rand_prec(&r));
        rand_ival(x, &r, 1);
        linf = mpfr_inf_p(&x->left);
        rinf = mpfr_inf_p(&x->right);
        /* mid_d: a double inside the interval, rounded to doubles outward */
        m = dvc_ival_mid_d(x);
        if (linf && rinf) CHECK(m == 0.0, "mid of the whole line is %g", m);
        else
            CHECK(isfinite(m) && mpfr_get_d(&x->left, MPFR_RNDD) <= m && m <= mpfr_get_d(&x->right, MPFR_RNDU),
                  "mid_d %a outside [%a, %a]", m, mpfr_get_d(&x->left, MPFR_RNDD), mpfr_get_d(&x->right, MPFR_RNDU));
        want_pos = mpfr_sgn(&x->left) > 0;
        want_neg = mpfr_sgn(&x->right) < 0;
        want_nn = mpfr_sgn(&x->left) >= 0;
        want_np = mpfr_sgn(&x->right) <= 0;
        if (k % 7 == 0) {
            nanl = (int)check_rng_int(&r, 0, 1);
            nanr = !nanl;
            mpfr_set_nan(nanl ? &x->left : &x->right);
        }
        CHECK(dvc_ival_is_finite(x) == (!linf && !rinf && !nanl && !nanr), "is_finite");
        CHECK(dvc_ival_is_valid(x) == (!nanl && !nanr), "is_valid");
        /* a NaN end means no information: no sign is proven */
        CHECK(dvc_ival_is_pos(x) == (want_pos && !nanl && !nanr), "is_pos (NaN end %d%d)", nanl, nanr);
        CHECK(dvc_ival_is_neg(x) == (want_neg && !nanl && !nanr), "is_neg (NaN end %d%d)", nanl, nanr);
        CHECK(dvc_ival_is_nonneg(x) == (want_nn && !nanl && !nanr), "is_nonneg (NaN end %d%d)", nanl, nanr);
        CHECK(dvc_ival_is_nonpos(x) == (want_np && !nanl && !nanr), "is_nonpos (NaN end %d%d)", nanl, nanr);
    }
    /* an inverted interval is not valid */
    mpfi_interv_d(x, 1, 2);
    mpfr_swap(&x->left, &x->right);
    CHECK(!dvc_ival_is_valid(x), "[2, 1] valid");
    mpfi_clear(x);
}

/* sin and cos over intervals: the result contains every reference value
 * (MPFI at 300 bits on a point, a different path from the endpoint formula
 * used inside [-1, 1]) at the ends, at 0 and at a random point, and inside
 * [-1, 1] is no wider than the exact range plus a few ulps. Arguments reach
 * 2^-3000 (and 2^-(2^30-1000) once, where MPFI's own quadrant computation
 * took minutes: found by fuzzing). */
static void t_trig(void)
{
    check_rng r = {0x7219};
    mpfi_t x, y, pt, ref;
    mpfr_t a, b, u, lo, hi, w;
    mpfi_init2(x, 53);
    mpfi_init2(y, 53);
    mpfi_init2(pt, 300);
    mpfi_init2(ref, 300);
    mpfr_inits2(300, a, b, u, lo, hi, w, (mpfr_ptr)0);
    for (int k = 0; k < 6000; k++) {
        mpfr_prec_t p = rand_prec(&r);
        int is_cos = k & 1, inside;
        long emin = check_rng_int(&r, 0, 3) == 0 ? -3000 : -60;
        mpfi_set_prec(x, p);
        mpfi_set_prec(y, p);
        mpfr_set_prec(a, p);
        mpfr_set_prec(b, p);
        rand_fr(a, &r, emin, check_rng_int(&r, 0, 5) == 0 ? 4 : 1);
        if (check_rng_int(&r, 0, 3) == 0) mpfr_set(b, a, MPFR_RNDN);
        else rand_fr(b, &r, emin, 1);
        if (mpfr_cmp(a, b) > 0) mpfr_swap(a, b);
        mpfi_interv_fr(x, a, b);
        inside = mpfr_cmp_si(b, 1) <= 0 && mpfr_cmp_si(a, -1) >= 0;
        if (is_cos) dvc_ival_cos(y, x);
        else dvc_ival_sin(y, x);
        mpfr_set_inf(lo, 1);
        mpfr_set_inf(hi, -1);
        for (int s = 0; s < 4; s++) {
            if (s == 0) mpfi_set_fr(pt, &x->left);
            else if (s == 1) mpfi_set_fr(pt, &x->right);
            else if (s == 2) {
                if (!mpfi_has_zero(x)) continue;
                mpfi_set_si(pt, 0);
            } else {
                mpfr_set_d(u, check_rng_unif(&r, 0, 1), MPFR_RNDN);
                mpfr_sub(w, &x->right, &x->left, MPFR_RNDN);
                mpfr_mul(u, u, w, MPFR_RNDN);
                mpfr_add(u, u, &x->left, MPFR_RNDN);
                if (mpfr_cmp(u, &x->left) < 0 || mpfr_cmp(u, &x->right) > 0) continue;
                mpfi_set_fr(pt, u);
            }
            if (is_cos) mpfi_cos(ref, pt);
            else mpfi_sin(ref, pt);
            CHECK(mpfr_cmp(&y->left, &ref->right) <= 0 && mpfr_cmp(&ref->left, &y->right) <= 0,
                  "%s over [%a, %a] (prec %ld) misses the value at sample %d", is_cos ? "cos" : "sin",
                  mpfr_get_d(a, MPFR_RNDN), mpfr_get_d(b, MPFR_RNDN), (long)p, s);
            if (s < 3) {
                mpfr_min(lo, lo, &ref->left, MPFR_RNDD);
                mpfr_max(hi, hi, &ref->right, MPFR_RNDU);
            }
        }
        if (inside) {
            /* the range is attained at the sampled points: ends (and 0 for cos) */
            mpfr_sub(w, hi, lo, MPFR_RNDU);
            mpfr_set_ui_2exp(u, 1, 3 - p, MPFR_RNDN);
            mpfr_add(w, w, u, MPFR_RNDU);
            mpfr_sub(u, &y->right, &y->left, MPFR_RNDU);
            CHECK(mpfr_cmp(u, w) <= 0, "%s over [%a, %a] (prec %ld) is %g wide, range is %g",
                  is_cos ? "cos" : "sin", mpfr_get_d(a, MPFR_RNDN), mpfr_get_d(b, MPFR_RNDN), (long)p,
                  mpfr_get_d(u, MPFR_RNDU), mpfr_get_d(w, MPFR_RNDU));
        }
    }
    /* |x| <= 2^e with e near the bottom of the exponent range */
    mpfi_set_prec(x, 53);
    mpfr_set_ui_2exp(a, 1, mpfr_get_emin() + 1000, MPFR_RNDN);
    mpfr_neg(b, a, MPFR_RNDN);
    mpfi_interv_fr(x, b, a);
    dvc_ival_cos(y, x);
    CHECK(mpfr_cmp_si(&y->right, 1) == 0 && mpfr_cmp_d(&y->left, 1 - 0x1p-52) >= 0,
          "cos of a tiny interval around 0 is not [1 - ulp, 1]");
    dvc_ival_sin(y, x);
    CHECK(mpfr_cmp(&y->left, b) >= 0 && mpfr_cmp(&y->right, a) <= 0 && mpfi_has_zero(y),
          "sin of a tiny interval around 0 is not inside it");
    /* one tiny end, the other beyond 1 (found by fuzzing: cos(-2e-333333333+33*t)) */
    mpfr_set_si(a, 33, MPFR_RNDN);
    mpfi_interv_fr(x, b, a);
    dvc_ival_cos(y, x);
    CHECK(mpfr_cmp_si(&y->left, -1) == 0 && mpfr_cmp_si(&y->right, 1) == 0, "cos over [-tiny, 33] is not [-1, 1]");
    mpfr_set_d(a, 1.5, MPFR_RNDN);
    mpfi_interv_fr(x, b, a);
    dvc_ival_sin(y, x);
    /* sin(1.5) = 0.99749498660405443... */
    CHECK(mpfr_cmp_d(&y->right, 0.99749498660405) > 0 && mpfr_cmp_d(&y->right, 0.99749498660406) < 0 &&
              mpfr_cmp_si(&y->left, 0) < 0 && mpfr_cmp_d(&y->left, -1e-300) > 0,
          "sin over [-tiny, 1.5] is not [-tiny', sin(1.5)]");
    mpfr_clears(a, b, u, lo, hi, w, (mpfr_ptr)0);
    mpfi_clear(x);
    mpfi_clear(y);
    mpfi_clear(pt);
    mpfi_clear(ref);
}

int main(void)
{
    t_prec();
    t_set_str();
    t_set_dd();
    t_print();
    t_double_hex();
    t_mag_mig();
    t_mid_pred();
    t_trig();
    mpfr_free_cache();
    return check_report();
}
