/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "dvicert/ival.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rounding.h"

static _Thread_local mpfr_prec_t work_prec = DVC_DEFAULT_PREC;

mpfr_prec_t dvc_prec_get(void) { return work_prec; }

void dvc_prec_set(mpfr_prec_t prec)
{
    if (prec < MPFR_PREC_MIN) prec = MPFR_PREC_MIN;
    work_prec = prec;
}

/* Parse one decimal number (or inf) into lo (RNDD) and hi (RNDU). */
static int parse_number(mpfr_t lo, mpfr_t hi, const char *s, const char **end)
{
    char *e1, *e2;
    while (isspace((unsigned char)*s)) s++;
    if (strncasecmp(s, "nan", 3) == 0 || strncasecmp(s, "-nan", 4) == 0 ||
        strncasecmp(s, "+nan", 4) == 0)
        return -1;
    mpfr_strtofr(lo, s, &e1, 10, MPFR_RNDD);
    mpfr_strtofr(hi, s, &e2, 10, MPFR_RNDU);
    if (e1 == s || e1 != e2 || mpfr_nan_p(lo) || mpfr_nan_p(hi)) return -1;
    *end = e1;
    return 0;
}

static int only_space(const char *s)
{
    while (isspace((unsigned char)*s)) s++;
    return *s == '\0';
}

dvc_status dvc_ival_set_str(mpfi_t x, const char *s)
{
    mpfr_t lo, hi, lo2, hi2;
    const char *p = s, *end;
    int bad = 0;
    mpfr_prec_t prec = mpfi_get_prec(x);
    if (s == NULL) return dvc_error(DVC_ERR_INPUT, "missing number");
    mpfr_inits2(prec, lo, hi, lo2, hi2, (mpfr_ptr)0);
    while (isspace((unsigned char)*p)) p++;
    if (*p == '[') {
        p++;
        if (parse_number(lo, hi2, p, &end) != 0) bad = 1;
        else {
            p = end;
            while (isspace((unsigned char)*p)) p++;
            if (*p != ',') bad = 1;
            else if (parse_number(lo2, hi, p + 1, &end) != 0) bad = 1;
            else {
                p = end;
                while (isspace((unsigned char)*p)) p++;
                if (*p != ']' || !only_space(p + 1)) bad = 1;
                else if (mpfr_cmp(lo, hi) > 0) bad = 2;
            }
        }
    } else {
        if (parse_number(lo, hi, p, &end) != 0 || !only_space(end)) bad = 1;
    }
    if (!bad) {
        mpfr_set(&x->left, lo, MPFR_RNDD);
        mpfr_set(&x->right, hi, MPFR_RNDU);
    }
    mpfr_clears(lo, hi, lo2, hi2, (mpfr_ptr)0);
    if (bad == 1)
        return dvc_error(DVC_ERR_INPUT, "'%s' is not a number (expected a decimal such as \"0.1\" or an interval "
                         "\"[lo, hi]\"; \"inf\" only where a bound may be infinite)", s);
    if (bad == 2)
        return dvc_error(DVC_ERR_INPUT, "'%s' is an empty interval (lower end above upper end)", s);
    return DVC_OK;
}

dvc_status dvc_ival_set_dd(mpfi_t x, double lo, double hi)
{
    if (isnan(lo) || isnan(hi)) return dvc_error(DVC_ERR_INPUT, "NaN is not a number");
    if (lo > hi) return dvc_error(DVC_ERR_INPUT, "empty interval [%g, %g]", lo, hi);
    mpfi_interv_d(x, lo, hi);
    return DVC_OK;
}

char *dvc_mpfr_str(const mpfr_t x, int digits, mpfr_rnd_t rnd)
{
    char *out;
    if (mpfr_nan_p(x)) return strdup("nan");
    if (mpfr_inf_p(x)) return strdup(mpfr_sgn(x) > 0 ? "inf" : "-inf");
    if (mpfr_zero_p(x)) return strdup("0");
    if (digits < 2) digits = 2;
    {
        char fmt[32];
        int len;
        /* %R*e with an explicit rounding direction keeps the printed value on
         * the safe side of x. */
        char rc = rnd == MPFR_RNDD ? 'D' : rnd == MPFR_RNDU ? 'U' : 'N';
        snprintf(fmt, sizeof fmt, "%%.%dR%ce", digits - 1, rc);
        len = mpfr_snprintf(NULL, 0, fmt, x);
        out = malloc((size_t)len + 1);
        if (out) mpfr_snprintf(out, (size_t)len + 1, fmt, x);
    }
    return out;
}

char *dvc_ival_lo_str(const mpfi_t x, int digits)
{
    return dvc_mpfr_str(&x->left, digits, MPFR_RNDD);
}

char *dvc_ival_hi_str(const mpfi_t x, int digits)
{
    return dvc_mpfr_str(&x->right, digits, MPFR_RNDU);
}

char *dvc_ival_str(const mpfi_t x, int digits)
{
    char *lo = dvc_ival_lo_str(x, digits), *hi = dvc_ival_hi_str(x, digits), *out = NULL;
    if (lo && hi) {
        size_t n = strlen(lo) + strlen(hi) + 5;
        out = malloc(n);
        if (out) snprintf(out, n, "[%s, %s]", lo, hi);
    }
    free(lo);
    free(hi);
    return out;
}

void dvc_double_hex(char buf[40], double x) { snprintf(buf, 40, "%a", x); }

void dvc_ival_mag(mpfr_t r, const mpfi_t x)
{
    mpfr_t a;
    /* mpfr_max returns the other operand when one is NaN: a NaN endpoint
     * would be dropped and the magnitude would look finite */
    if (mpfr_nan_p(&x->left) || mpfr_nan_p(&x->right)) {
        mpfr_set_nan(r);
        return;
    }
    mpfr_init2(a, mpfi_get_prec(x));
    mpfr_abs(a, &x->left, MPFR_RNDU);
    mpfr_abs(r, &x->right, MPFR_RNDU);
    mpfr_max(r, r, a, MPFR_RNDU);
    mpfr_clear(a);
}

void dvc_ival_mig(mpfr_t r, const mpfi_t x)
{
    if (mpfr_sgn(&x->left) > 0) mpfr_set(r, &x->left, MPFR_RNDD);
    else if (mpfr_sgn(&x->right) < 0) mpfr_neg(r, &x->right, MPFR_RNDD);
    else mpfr_set_zero(r, 1);
}

double dvc_ival_mid_d(const mpfi_t x)
{
    double lo = mpfr_get_d(&x->left, MPFR_RNDN), hi = mpfr_get_d(&x->right, MPFR_RNDN), m;
    int saved;
    if (isinf(lo) || isinf(hi)) return isinf(lo) && isinf(hi) ? 0.0 : (isinf(lo) ? hi : lo);
    /* Predictors must not depend on the caller's rounding mode. */
    saved = dvc_rnd_save();
    if (saved == FE_TONEAREST) return 0.5 * lo + 0.5 * hi;
    DVC_FP_PIN(lo);
    DVC_FP_PIN(hi);
    dvc_rnd_set(FE_TONEAREST);
    DVC_FP_PIN(lo);
    DVC_FP_PIN(hi);
    m = 0.5 * lo + 0.5 * hi;
    DVC_FP_PIN(m);
    dvc_rnd_restore(saved);
    return m;
}

int dvc_ival_is_finite(const mpfi_t x)
{
    return mpfr_number_p(&x->left) && mpfr_number_p(&x->right);
}

int dvc_ival_is_valid(const mpfi_t x)
{
    return !mpfr_nan_p(&x->left) && !mpfr_nan_p(&x->right) && mpfr_cmp(&x->left, &x->right) <= 0;
}

/* A NaN at either end means "no information": no sign is proven. */
static int has_nan(const mpfi_t x) { return mpfr_nan_p(&x->left) || mpfr_nan_p(&x->right); }
int dvc_ival_is_pos(const mpfi_t x) { return !has_nan(x) && mpfr_sgn(&x->left) > 0; }
int dvc_ival_is_neg(const mpfi_t x) { return !has_nan(x) && mpfr_sgn(&x->right) < 0; }
int dvc_ival_is_nonneg(const mpfi_t x) { return !has_nan(x) && mpfr_sgn(&x->left) >= 0; }
int dvc_ival_is_nonpos(const mpfi_t x) { return !has_nan(x) && mpfr_sgn(&x->right) <= 0; }

/* True when some point of x is beyond 2^DVC_TRIG_EXP_MAX in magnitude (or x
 * has an infinite end). */
static int trig_huge(const mpfi_t x)
{
    return !mpfr_number_p(&x->left) || !mpfr_number_p(&x->right) ||
           (!mpfr_zero_p(&x->left) && mpfr_get_exp(&x->left) > DVC_TRIG_EXP_MAX) ||
           (!mpfr_zero_p(&x->right) && mpfr_get_exp(&x->right) > DVC_TRIG_EXP_MAX);
}

/* sin or cos over x inside [-1, 1]: there sin is increasing and cos is
 * even and unimodal with its maximum at 0, so the endpoints give the range. */
static void trig_small(mpfi_t r, const mpfi_t x, int is_cos)
{
    mpfr_t a, b;
    mpfr_init2(a, mpfr_get_prec(&x->left));
    mpfr_init2(b, mpfr_get_prec(&x->left));
    if (!is_cos) {
        mpfr_set(a, &x->left, MPFR_RNDN);
        mpfr_set(b, &x->right, MPFR_RNDN);
        mpfr_sin(&r->left, a, MPFR_RNDD);
        mpfr_sin(&r->right, b, MPFR_RNDU);
    } else {
        /* range [cos(max |x|), cos(min |x|)], min |x| = 0 when 0 is in x */
        mpfr_abs(a, &x->left, MPFR_RNDN);
        mpfr_abs(b, &x->right, MPFR_RNDN);
        if (mpfr_cmp(a, b) < 0) mpfr_swap(a, b);
        if (mpfr_sgn(&x->left) < 0 && mpfr_sgn(&x->right) > 0) mpfr_set_zero(b, 1);
        mpfr_cos(&r->left, a, MPFR_RNDD);
        mpfr_cos(&r->right, b, MPFR_RNDU);
    }
    mpfr_clear(a);
    mpfr_clear(b);
}

/* MPFI's own sin and cos compute the quadrant at a precision that grows with
 * -exponent of either endpoint (minutes for an end near 2^-10^9, found by
 * fuzzing), so x is split at -1 and 1: the part inside [-1, 1] from the
 * endpoints with MPFR, the parts outside (ends of magnitude >= 1) by MPFI,
 * and the range is the hull. */
static void trig(mpfi_t r, const mpfi_t x, int is_cos)
{
    mpfi_t piece, acc;
    int have = 0;
    if (mpfr_nan_p(&x->left) || mpfr_nan_p(&x->right)) {
        if (is_cos) mpfi_cos(r, x);
        else mpfi_sin(r, x);
        return;
    }
    if (trig_huge(x)) {
        mpfi_interv_si(r, -1, 1);
        return;
    }
    mpfi_init2(piece, mpfi_get_prec(x));
    mpfi_init2(acc, mpfi_get_prec(r));
    for (int k = 0; k < 3; k++) {
        mpfr_srcptr lo = &x->left, hi = &x->right;
        mpfr_t one, mone;
        mpfr_init2(one, 2);
        mpfr_init2(mone, 2);
        mpfr_set_si(one, 1, MPFR_RNDN);
        mpfr_set_si(mone, -1, MPFR_RNDN);
        /* piece k: x meet (-inf, -1], [-1, 1], [1, inf) */
        if (k == 0 && mpfr_cmp(hi, mone) > 0) hi = mone;
        if (k == 1 && mpfr_cmp(lo, mone) < 0) lo = mone;
        if (k == 1 && mpfr_cmp(hi, one) > 0) hi = one;
        if (k == 2 && mpfr_cmp(lo, one) < 0) lo = one;
        if (mpfr_cmp(lo, hi) <= 0 && (k != 0 || mpfr_cmp(lo, mone) <= 0) &&
            (k != 2 || mpfr_cmp(hi, one) >= 0)) {
            mpfi_t y;
            mpfi_init2(y, mpfi_get_prec(r));
            mpfi_interv_fr(piece, lo, hi);
            if (k == 1) trig_small(y, piece, is_cos);
            else if (is_cos) mpfi_cos(y, piece);
            else mpfi_sin(y, piece);
            if (have) mpfi_union(acc, acc, y);
            else mpfi_set(acc, y);
            have = 1;
            mpfi_clear(y);
        }
        mpfr_clear(one);
        mpfr_clear(mone);
    }
    mpfi_set(r, acc);
    mpfi_clear(piece);
    mpfi_clear(acc);
}

void dvc_ival_sin(mpfi_t r, const mpfi_t x) { trig(r, x, 0); }
void dvc_ival_cos(mpfi_t r, const mpfi_t x) { trig(r, x, 1); }

mpfr_t *dvc_mpfr_array_new(long k, mpfr_prec_t prec)
{
    mpfr_t *e = malloc((size_t)(k > 0 ? k : 1) * sizeof *e);
    if (e)
        for (long i = 0; i < k; i++) mpfr_init2(e[i], prec);
    return e;
}

void dvc_mpfr_array_free(mpfr_t *e, long k)
{
    if (!e) return;
    for (long i = 0; i < k; i++) mpfr_clear(e[i]);
    free(e);
}
