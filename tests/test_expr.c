/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Expressions: containment of values and derivatives against an independent
 * 256-bit MPFR evaluation of the same formula (a test-side expression tree
 * with hand-coded derivative rules), Lipschitz bounds against difference
 * quotients, decimal exactness against GMP rationals, and error cases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"
#include "dvicert/expr.h"

#define REF_PREC 256

/* ---- test-side expression trees ---- */

enum {
    N_T, N_CONST, N_GAMMA, N_PI, N_ADD, N_SUB, N_MUL, N_DIVQ, N_NEG, N_SIN, N_COS, N_EXP,
    N_LOGQ, N_SQRTQ, N_ABS, N_MIN, N_MAX, N_POWI, N_POWNEG, N_POWR, N_ATAN, N_TANH, N_SINH, N_COSH,
    N_COUNT
};

typedef struct node {
    int kind;
    int k;             /* integer exponent */
    char ctext[24];    /* decimal literal */
    struct node *a, *b;
} node;

static node *mk(int kind, node *a, node *b)
{
    node *n = calloc(1, sizeof *n);
    n->kind = kind;
    n->a = a;
    n->b = b;
    return n;
}
static node *mkc(const char *text)
{
    node *n = mk(N_CONST, NULL, NULL);
    snprintf(n->ctext, sizeof n->ctext, "%s", text);
    return n;
}
static node *mkt(void) { return mk(N_T, NULL, NULL); }
static node *mkpow(node *a, int k)
{
    node *n = mk(k >= 0 ? N_POWI : N_POWNEG, a, NULL);
    n->k = k;
    return n;
}

static void freetree(node *n)
{
    if (!n) return;
    freetree(n->a);
    freetree(n->b);
    free(n);
}

/* Text with full parentheses around every operand. */
static void totext(const node *n, char *buf, size_t cap)
{
    char a[4096] = "", b[4096] = "";
    if (n->a) totext(n->a, a, sizeof a);
    if (n->b) totext(n->b, b, sizeof b);
    switch (n->kind) {
    case N_T: snprintf(buf, cap, "t"); break;
    case N_CONST: snprintf(buf, cap, "%s", n->ctext); break;
    case N_GAMMA: snprintf(buf, cap, "gamma"); break;
    case N_PI: snprintf(buf, cap, "pi"); break;
    case N_ADD: snprintf(buf, cap, "(%s) + (%s)", a, b); break;
    case N_SUB: snprintf(buf, cap, "(%s) - (%s)", a, b); break;
    case N_MUL: snprintf(buf, cap, "(%s)*(%s)", a, b); break;
    case N_DIVQ: snprintf(buf, cap, "(%s)/(1.5 + (%s)^2)", a, b); break;
    case N_NEG: snprintf(buf, cap, "-(%s)", a); break;
    case N_SIN: snprintf(buf, cap, "sin(%s)", a); break;
    case N_COS: snprintf(buf, cap, "cos(%s)", a); break;
    case N_EXP: snprintf(buf, cap, "exp(%s)", a); break;
    case N_LOGQ: snprintf(buf, cap, "log(1 + (%s)^2)", a); break;
    case N_SQRTQ: snprintf(buf, cap, "sqrt(0.25 + (%s)^2)", a); break;
    case N_ABS: snprintf(buf, cap, "abs(%s)", a); break;
    case N_MIN: snprintf(buf, cap, "min(%s, %s)", a, b); break;
    case N_MAX: snprintf(buf, cap, "max(%s, %s)", a, b); break;
    case N_POWI: snprintf(buf, cap, "(%s)^%d", a, n->k); break;
    case N_POWNEG: snprintf(buf, cap, "(1 + (%s)^2)^(%d)", a, n->k); break;
    case N_POWR: snprintf(buf, cap, "(2 + sin(%s))^(cos(%s))", a, b); break;
    case N_ATAN: snprintf(buf, cap, "atan(%s)", a); break;
    case N_TANH: snprintf(buf, cap, "tanh(%s)", a); break;
    case N_SINH: snprintf(buf, cap, "sinh(%s)", a); break;
    case N_COSH: snprintf(buf, cap, "cosh(%s)", a); break;
    }
}

/* Value and derivative at the point t, at REF_PREC bits (round to nearest). */
static void ref(const node *n, const mpfr_t t, mpfr_t v, mpfr_t d)
{
    mpfr_t av, ad, bv, bd, w, z;
    mpfr_inits2(REF_PREC, av, ad, bv, bd, w, z, (mpfr_ptr)0);
    if (n->a) ref(n->a, t, av, ad);
    if (n->b) ref(n->b, t, bv, bd);
    switch (n->kind) {
    case N_T: mpfr_set(v, t, MPFR_RNDN); mpfr_set_ui(d, 1, MPFR_RNDN); break;
    case N_CONST: mpfr_set_str(v, n->ctext, 10, MPFR_RNDN); mpfr_set_ui(d, 0, MPFR_RNDN); break;
    case N_GAMMA: mpfr_set_str(v, "0.2", 10, MPFR_RNDN); mpfr_set_ui(d, 0, MPFR_RNDN); break;
    case N_PI: mpfr_const_pi(v, MPFR_RNDN); mpfr_set_ui(d, 0, MPFR_RNDN); break;
    case N_ADD: mpfr_add(v, av, bv, MPFR_RNDN); mpfr_add(d, ad, bd, MPFR_RNDN); break;
    case N_SUB: mpfr_sub(v, av, bv, MPFR_RNDN); mpfr_sub(d, ad, bd, MPFR_RNDN); break;
    case N_MUL:
        mpfr_mul(w, ad, bv, MPFR_RNDN);
        mpfr_mul(z, av, bd, MPFR_RNDN);
        mpfr_add(d, w, z, MPFR_RNDN);
        mpfr_mul(v, av, bv, MPFR_RNDN);
        break;
    case N_DIVQ: /* a / q, q = 1.5 + b^2, q' = 2 b b' */
        mpfr_sqr(w, bv, MPFR_RNDN);
        mpfr_add_d(w, w, 1.5, MPFR_RNDN);
        mpfr_div(v, av, w, MPFR_RNDN);
        mpfr_mul(z, bv, bd, MPFR_RNDN);
        mpfr_mul_2ui(z, z, 1, MPFR_RNDN);
        mpfr_mul(z, z, av, MPFR_RNDN);
        mpfr_div(z, z, w, MPFR_RNDN);
        mpfr_sub(z, ad, z, MPFR_RNDN);
        mpfr_div(d, z, w, MPFR_RNDN);
        break;
    case N_NEG: mpfr_neg(v, av, MPFR_RNDN); mpfr_neg(d, ad, MPFR_RNDN); break;
    case N_SIN: mpfr_cos(w, av, MPFR_RNDN); mpfr_mul(d, ad, w, MPFR_RNDN); mpfr_sin(v, av, MPFR_RNDN); break;
    case N_COS:
        mpfr_sin(w, av, MPFR_RNDN);
        mpfr_mul(d, ad, w, MPFR_RNDN);
        mpfr_neg(d, d, MPFR_RNDN);
        mpfr_cos(v, av, MPFR_RNDN);
        break;
    case N_EXP: mpfr_exp(v, av, MPFR_RNDN); mpfr_mul(d, ad, v, MPFR_RNDN); break;
    case N_LOGQ: /* log(1 + a^2) */
        mpfr_sqr(w, av, MPFR_RNDN);
        mpfr_add_ui(w, w, 1, MPFR_RNDN);
        mpfr_log(v, w, MPFR_RNDN);
        mpfr_mul(z, av, ad, MPFR_RNDN);
        mpfr_mul_2ui(z, z, 1, MPFR_RNDN);
        mpfr_div(d, z, w, MPFR_RNDN);
        break;
    case N_SQRTQ: /* sqrt(1/4 + a^2) */
        mpfr_sqr(w, av, MPFR_RNDN);
        mpfr_add_d(w, w, 0.25, MPFR_RNDN);
        mpfr_sqrt(v, w, MPFR_RNDN);
        mpfr_mul(z, av, ad, MPFR_RNDN);
        mpfr_div(d, z, v, MPFR_RNDN);
        break;
    case N_ABS:
        mpfr_abs(v, av, MPFR_RNDN);
        if (mpfr_sgn(av) < 0) mpfr_neg(d, ad, MPFR_RNDN);
        else mpfr_set(d, ad, MPFR_RNDN);
        break;
    case N_MIN:
    case N_MAX: {
        int pick_a = (mpfr_cmp(av, bv) <= 0) == (n->kind == N_MIN);
        mpfr_set(v, pick_a ? av : bv, MPFR_RNDN);
        mpfr_set(d, pick_a ? ad : bd, MPFR_RNDN);
        break;
    }
    case N_POWI:
        if (n->k == 0) {
            mpfr_set_ui(v, 1, MPFR_RNDN);
            mpfr_set_ui(d, 0, MPFR_RNDN);
        } else {
            mpfr_pow_si(w, av, n->k - 1, MPFR_RNDN);
            mpfr_mul_si(w, w, n->k, MPFR_RNDN);
            mpfr_mul(d, w, ad, MPFR_RNDN);
            mpfr_pow_si(v, av, n->k, MPFR_RNDN);
        }
        break;
    case N_POWNEG: /* q^k, q = 1 + a^2, q' = 2 a a' */
        mpfr_sqr(w, av, MPFR_RNDN);
        mpfr_add_ui(w, w, 1, MPFR_RNDN);
        mpfr_pow_si(v, w, n->k, MPFR_RNDN);
        mpfr_pow_si(z, w, n->k - 1, MPFR_RNDN);
        mpfr_mul_si(z, z, n->k, MPFR_RNDN);
        mpfr_mul(z, z, av, MPFR_RNDN);
        mpfr_mul(z, z, ad, MPFR_RNDN);
        mpfr_mul_2ui(d, z, 1, MPFR_RNDN);
        break;
    case N_ATAN: /* 1/(1+a^2) */
        mpfr_sqr(w, av, MPFR_RNDN);
        mpfr_add_ui(w, w, 1, MPFR_RNDN);
        mpfr_div(d, ad, w, MPFR_RNDN);
        mpfr_atan(v, av, MPFR_RNDN);
        break;
    case N_TANH: /* 1/cosh^2 */
        mpfr_cosh(w, av, MPFR_RNDN);
        mpfr_sqr(w, w, MPFR_RNDN);
        mpfr_div(d, ad, w, MPFR_RNDN);
        mpfr_tanh(v, av, MPFR_RNDN);
        break;
    case N_SINH: mpfr_cosh(w, av, MPFR_RNDN); mpfr_mul(d, ad, w, MPFR_RNDN); mpfr_sinh(v, av, MPFR_RNDN); break;
    case N_COSH: mpfr_sinh(w, av, MPFR_RNDN); mpfr_mul(d, ad, w, MPFR_RNDN); mpfr_cosh(v, av, MPFR_RNDN); break;
    case N_POWR: { /* p^c, p = 2 + sin a, c = cos b: (p^c)' = p^c (c' log p + c p'/p) */
        mpfr_t p, dp, c, dc;
        mpfr_inits2(REF_PREC, p, dp, c, dc, (mpfr_ptr)0);
        mpfr_sin(p, av, MPFR_RNDN);
        mpfr_add_ui(p, p, 2, MPFR_RNDN);
        mpfr_cos(dp, av, MPFR_RNDN);
        mpfr_mul(dp, dp, ad, MPFR_RNDN);
        mpfr_cos(c, bv, MPFR_RNDN);
        mpfr_sin(dc, bv, MPFR_RNDN);
        mpfr_mul(dc, dc, bd, MPFR_RNDN);
        mpfr_neg(dc, dc, MPFR_RNDN);
        mpfr_pow(v, p, c, MPFR_RNDN);
        mpfr_log(w, p, MPFR_RNDN);
        mpfr_mul(w, w, dc, MPFR_RNDN);
        mpfr_div(z, dp, p, MPFR_RNDN);
        mpfr_mul(z, z, c, MPFR_RNDN);
        mpfr_add(w, w, z, MPFR_RNDN);
        mpfr_mul(d, v, w, MPFR_RNDN);
        mpfr_clears(p, dp, c, dc, (mpfr_ptr)0);
        break;
    }
    }
    mpfr_clears(av, ad, bv, bd, w, z, (mpfr_ptr)0);
}

static const char *const lits[] = {"0.1", "0.7", "2", "3", "1.5", "0.25", "4", "0.3", "1e-1", "2.5E0"};

static node *gen(check_rng *r, int depth)
{
    int kind;
    if (depth <= 0 || check_rng_int(r, 0, 5) == 0) {
        long c = check_rng_int(r, 0, 5);
        if (c <= 2) return mkt();
        if (c == 3) return mk(c == 3 && check_rng_int(r, 0, 1) ? N_GAMMA : N_PI, NULL, NULL);
        return mkc(lits[check_rng_int(r, 0, (long)(sizeof lits / sizeof lits[0]) - 1)]);
    }
    kind = (int)check_rng_int(r, N_ADD, N_COUNT - 1);
    switch (kind) {
    case N_ADD: case N_SUB: case N_MUL: case N_DIVQ: case N_MIN: case N_MAX: case N_POWR:
        return mk(kind, gen(r, depth - 1), gen(r, depth - 1));
    case N_POWI: return mkpow(gen(r, depth - 1), (int)check_rng_int(r, 0, 4));
    case N_POWNEG: return mkpow(gen(r, depth - 1), -(int)check_rng_int(r, 1, 3));
    default: return mk(kind, gen(r, depth - 1), NULL);
    }
}

static int contains_fr(const mpfi_t x, const mpfr_t v)
{
    return mpfr_cmp(&x->left, v) <= 0 && mpfr_cmp(v, &x->right) <= 0;
}

static int finite_ok(const mpfi_t x) { return dvc_ival_is_finite(x) && dvc_ival_is_valid(x); }

static long n_exprs, n_points, n_skipped;

/* Check one tree over T = [a, b]: value and derivative containment at random
 * points of T, Lipschitz bound against difference quotients. */
static void check_tree(const node *n, const dvc_expr_consts_t k, double a, double b, mpfr_prec_t prec,
                       check_rng *r)
{
    char text[8192];
    dvc_expr_t e;
    mpfi_t T, F, D, Fp, P, Dp;
    mpfr_t L, s, u, rv, rd, rv2, rd2, q;
    dvc_status st;
    totext(n, text, sizeof text);
    dvc_expr_init2(e, prec);
    mpfi_init2(T, 53);
    mpfi_init2(F, 53);
    mpfi_init2(D, 53);
    mpfi_init2(Fp, 53);
    mpfi_init2(P, 53);
    mpfi_init2(Dp, 53);
    mpfr_inits2(REF_PREC, L, s, u, rv, rd, rv2, rd2, q, (mpfr_ptr)0);
    st = dvc_expr_parse(e, text, k);
    CHECK(st == DVC_OK, "parse '%s': %s", text, dvc_error_message());
    if (st != DVC_OK) goto done;
    n_exprs++;
    mpfi_interv_d(T, a, b);
    st = dvc_expr_eval_d1(F, D, e, T);
    if (st == DVC_NOT_CERTIFIED) {
        n_skipped++;
        CHECK(strlen(dvc_error_message()) > 0, "message for not certified");
        goto done;
    }
    CHECK(st == DVC_OK, "eval_d1 '%s' on [%g,%g]: %s", text, a, b, dvc_error_message());
    if (st != DVC_OK) goto done;
    CHECK(finite_ok(F) && finite_ok(D), "finite results for '%s'", text);
    /* Value-only evaluation is no wider than needed to contain the d1 value. */
    st = dvc_expr_eval(Fp, e, T);
    CHECK(st == DVC_OK && finite_ok(Fp), "eval '%s': %s", text, dvc_error_message());
    CHECK(dvc_expr_lipschitz(L, e, T) == DVC_OK, "lipschitz '%s'", text);
    for (int i = 0; i < 12; i++) {
        double x = i == 0 ? a : i == 1 ? b : check_rng_unif(r, a, b);
        mpfr_set_d(s, x, MPFR_RNDN);
        ref(n, s, rv, rd);
        n_points++;
        CHECK(contains_fr(F, rv) && contains_fr(Fp, rv), "'%s': f(%.17g) not in the enclosure", text, x);
        CHECK(contains_fr(D, rd), "'%s': f'(%.17g) not in the derivative enclosure", text, x);
        /* Point evaluation contains the reference too. */
        mpfi_set_d(P, x);
        st = dvc_expr_eval_d1(P, Dp, e, P);
        if (st == DVC_OK) {
            CHECK(contains_fr(P, rv), "'%s': point value at %.17g", text, x);
            CHECK(contains_fr(Dp, rd), "'%s': point derivative at %.17g", text, x);
        } else {
            CHECK(st == DVC_NOT_CERTIFIED, "'%s' at point %.17g: %s", text, x, dvc_error_message());
        }
        /* Difference quotient between x and another random point. */
        {
            double y = check_rng_unif(r, a, b);
            if (y != x) {
                mpfr_set_d(u, y, MPFR_RNDN);
                ref(n, u, rv2, rd2);
                mpfr_sub(q, rv, rv2, MPFR_RNDN);
                mpfr_abs(q, q, MPFR_RNDN);
                mpfr_sub(u, s, u, MPFR_RNDN);
                mpfr_abs(u, u, MPFR_RNDN);
                /* Allow for the roundoff of the 256-bit reference itself. */
                mpfr_abs(rv2, rv2, MPFR_RNDN);
                mpfr_add_ui(rv2, rv2, 1, MPFR_RNDN);
                mpfr_mul_2si(rv2, rv2, -200, MPFR_RNDN);
                mpfr_sub(q, q, rv2, MPFR_RNDN);
                mpfr_div(q, q, u, MPFR_RNDN);
                CHECK(mpfr_cmp(q, L) <= 0, "'%s': difference quotient above Lipschitz bound", text);
            }
        }
    }
done:
    mpfr_clears(L, s, u, rv, rd, rv2, rd2, q, (mpfr_ptr)0);
    mpfi_clear(T);
    mpfi_clear(F);
    mpfi_clear(D);
    mpfi_clear(Fp);
    mpfi_clear(P);
    mpfi_clear(Dp);
    dvc_expr_clear(e);
}

static void test_examples(const dvc_expr_consts_t k)
{
    check_rng r = {2024};
    node *ex[8];
    int n = 0;
    ex[n++] = mk(N_SIN, mk(N_MUL, mkc("4"), mkt()), NULL);
    ex[n++] = mk(N_COS, mk(N_MUL, mkc("5"), mkt()), NULL);
    ex[n++] = mk(N_SIN, mk(N_MUL, mkc("3"), mkt()), NULL);
    ex[n++] = mk(N_SUB, mkpow(mkt(), 3), mk(N_MUL, mkc("2"), mkt()));
    ex[n++] = mk(N_MUL, mk(N_EXP, mk(N_NEG, mkt(), NULL), NULL), mk(N_SIN, mkt(), NULL));
    ex[n++] = mk(N_ABS, mk(N_SUB, mkt(), mkc("0.5")), NULL);
    ex[n++] = mk(N_MIN, mkt(), mk(N_SUB, mkc("1"), mkt()));
    ex[n++] = mk(N_MAX, mk(N_MUL, mk(N_GAMMA, NULL, NULL), mkt()), mk(N_COS, mk(N_MUL, mk(N_PI, NULL, NULL), mkt()), NULL));
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < 60; j++) {
            double a = check_rng_unif(&r, -2, 2);
            double w = j % 3 == 0 ? 1e-6 : j % 3 == 1 ? 0.05 : 1.0;
            check_tree(ex[i], k, a, a + w * check_rng_unif(&r, 0, 1), j % 2 ? 53 : 113, &r);
        }
        freetree(ex[i]);
    }
}

static void test_random(const dvc_expr_consts_t k)
{
    check_rng r = {777};
    for (int i = 0; i < 2500; i++) {
        node *n = gen(&r, (int)check_rng_int(&r, 1, 4));
        double a = check_rng_unif(&r, -2, 2);
        double w = i % 4 == 0 ? 0 : i % 4 == 1 ? 1e-8 : i % 4 == 2 ? 0.01 : 0.3;
        check_tree(n, k, a, a + w * check_rng_unif(&r, 0, 1), i % 3 == 0 ? 200 : 53, &r);
        freetree(n);
    }
}

static dvc_status eval_at(mpfi_t r, const char *text, const dvc_expr_consts_t k, double t)
{
    dvc_expr_t e;
    mpfi_t T;
    dvc_status st;
    dvc_expr_init(e);
    mpfi_init2(T, 53);
    mpfi_set_d(T, t);
    st = dvc_expr_parse(e, text, k);
    if (st == DVC_OK) st = dvc_expr_eval(r, e, T);
    mpfi_clear(T);
    dvc_expr_clear(e);
    return st;
}

static void test_decimal_and_syntax(const dvc_expr_consts_t k)
{
    mpfi_t r, x;
    mpfi_init2(r, 53);
    mpfi_init2(x, 53);
    CHECK(eval_at(r, "0.1*3", k, 0) == DVC_OK && ref_contains_si(r, 3, 10), "0.1*3 encloses 3/10");
    CHECK(mpfr_cmp(&r->left, &r->right) < 0, "0.1*3 is not a point");
    CHECK(eval_at(r, "0.1", k, 0) == DVC_OK && ref_contains_si(r, 1, 10), "0.1 encloses 1/10");
    dvc_ival_set_str(x, "0.1");
    CHECK(mpfr_equal_p(&r->left, &x->left) && mpfr_equal_p(&r->right, &x->right), "0.1 tightest");
    CHECK(eval_at(r, "1/10", k, 0) == DVC_OK && ref_contains_si(r, 1, 10), "1/10 encloses 1/10");
    CHECK(eval_at(r, "0.1 + 0.2 - 0.3", k, 0) == DVC_OK && ref_contains_si(r, 0, 1), "0.1+0.2-0.3 contains 0");
    CHECK(eval_at(r, "gamma*10", k, 0) == DVC_OK && ref_contains_si(r, 2, 1), "named constant 0.2");
    CHECK(eval_at(r, "t*0.1", k, 3) == DVC_OK && ref_contains_si(r, 3, 10), "t*0.1 at 3");
    CHECK(eval_at(r, "1.5e-3*2", k, 0) == DVC_OK && ref_contains_si(r, 3, 1000), "exponent literal");
    CHECK(eval_at(r, ".5", k, 0) == DVC_OK && ref_contains_si(r, 1, 2), "leading dot");
    /* precedence and associativity (exact dyadic values) */
    CHECK(eval_at(r, "2+3*4", k, 0) == DVC_OK && ref_contains_si(r, 14, 1), "2+3*4");
    CHECK(eval_at(r, "-2^2", k, 0) == DVC_OK && ref_contains_si(r, -4, 1), "-2^2 = -(2^2)");
    CHECK(eval_at(r, "2^3^2", k, 0) == DVC_OK && ref_contains_si(r, 512, 1), "^ right-assoc");
    CHECK(eval_at(r, "2^-1", k, 0) == DVC_OK && ref_contains_si(r, 1, 2), "2^-1");
    CHECK(eval_at(r, "8/2/2", k, 0) == DVC_OK && ref_contains_si(r, 2, 1), "/ left-assoc");
    CHECK(eval_at(r, "t - 1 - 1", k, 5) == DVC_OK && ref_contains_si(r, 3, 1), "- left-assoc");
    CHECK(eval_at(r, "-t^2", k, 3) == DVC_OK && ref_contains_si(r, -9, 1), "-t^2");
    CHECK(eval_at(r, "2*-3", k, 0) == DVC_OK && ref_contains_si(r, -6, 1), "2*-3");
    CHECK(eval_at(r, " ( 1 + 2 ) * 3 ", k, 0) == DVC_OK && ref_contains_si(r, 9, 1), "parentheses");
    CHECK(eval_at(r, "t^(1+1)", k, -3) == DVC_OK && ref_contains_si(r, 9, 1), "folded integer exponent");
    CHECK(eval_at(r, "t^-2", k, -2) == DVC_OK && ref_contains_si(r, 1, 4), "negative integer power");
    CHECK(eval_at(r, "t^0", k, 0) == DVC_OK && ref_contains_si(r, 1, 1), "t^0 = 1");
    CHECK(eval_at(r, "max(t, 2) + min(t, 2)", k, 7) == DVC_OK && ref_contains_si(r, 9, 1), "min max");
    CHECK(eval_at(r, "abs(t)", k, -3) == DVC_OK && ref_contains_si(r, 3, 1), "abs");
    CHECK(eval_at(r, "sqrt(t)", k, 2.25) == DVC_OK && ref_contains_si(r, 3, 2), "sqrt");
    CHECK(eval_at(r, "t^0.5", k, 2.25) == DVC_OK && ref_contains_si(r, 3, 2), "real power");
    CHECK(eval_at(r, "exp(log(t))", k, 3) == DVC_OK && ref_contains_si(r, 3, 1), "exp(log)");
    CHECK(eval_at(r, "sin(pi)", k, 0) == DVC_OK && ref_contains_si(r, 0, 1), "sin(pi) contains 0");
    CHECK(eval_at(r, "cos(pi/3)*2", k, 0) == DVC_OK && ref_contains_si(r, 1, 1), "cos(pi/3)*2 contains 1");
    /* sin/cos of a huge argument: [-1, 1] at once instead of an argument
     * reduction whose cost grows with the exponent (found by fuzzing: the
     * expression below ran for minutes); a moderate one stays tight */
    CHECK(eval_at(r, "sin(555555555^505555)*cos(3*t+9^9999999)", k, 0) == DVC_OK &&
              mpfr_cmp_si(&r->left, -1) == 0 && mpfr_cmp_si(&r->right, 1) == 0,
          "sin, cos of a huge argument: [-1, 1]");
    {
        mpfr_t w;
        mpfr_init2(w, 53);
        CHECK(eval_at(r, "sin(2^1000)", k, 0) == DVC_OK && (mpfi_diam_abs(w, r), mpfr_cmp_d(w, 1e-14) < 0),
              "sin(2^1000) is still resolved");
        mpfr_clear(w);
    }
    /* even power of an interval around 0 is tight: [0, 4] */
    {
        dvc_expr_t e;
        mpfi_t T;
        dvc_expr_init(e);
        mpfi_init2(T, 53);
        mpfi_interv_d(T, -1, 2);
        CHECK(dvc_expr_parse(e, "t^2", k) == DVC_OK && dvc_expr_eval(r, e, T) == DVC_OK &&
                  mpfr_cmp_ui(&r->left, 0) == 0 && mpfr_cmp_ui(&r->right, 4) == 0,
              "t^2 on [-1,2] is [0,4]");
        CHECK(dvc_expr_parse(e, "t^3", k) == DVC_OK && dvc_expr_eval(r, e, T) == DVC_OK &&
                  mpfr_cmp_si(&r->left, -1) == 0 && mpfr_cmp_ui(&r->right, 8) == 0,
              "t^3 on [-1,2] is [-1,8]");
        mpfi_clear(T);
        dvc_expr_clear(e);
    }
    mpfi_clear(r);
    mpfi_clear(x);
}

static void expect_parse_error(const char *text, const dvc_expr_consts_t k, const char *token)
{
    dvc_expr_t e;
    mpfi_t r, T;
    dvc_status st;
    dvc_expr_init(e);
    mpfi_init2(r, 53);
    mpfi_init2(T, 53);
    mpfi_set_ui(T, 1);
    st = dvc_expr_parse(e, text, k);
    CHECK(st == DVC_ERR_INPUT, "'%s' must not parse", text);
    CHECK(token == NULL || strstr(dvc_error_message(), token) != NULL, "message for '%s' names %s: %s",
          text, token, dvc_error_message());
    CHECK(dvc_expr_eval(r, e, T) == DVC_ERR_INPUT, "failed parse leaves an empty expression");
    mpfi_clear(r);
    mpfi_clear(T);
    dvc_expr_clear(e);
}

static void expect_eval(const char *text, double a, double b, int d1, dvc_status want, const char *word)
{
    dvc_expr_t e;
    mpfi_t r, dr, T;
    dvc_status st;
    dvc_expr_init(e);
    mpfi_init2(r, 53);
    mpfi_init2(dr, 53);
    mpfi_init2(T, 53);
    mpfi_interv_d(T, a, b);
    mpfi_set_ui(r, 7);
    st = dvc_expr_parse(e, text, NULL);
    CHECK(st == DVC_OK, "parse '%s': %s", text, dvc_error_message());
    st = d1 ? dvc_expr_eval_d1(r, dr, e, T) : dvc_expr_eval(r, e, T);
    CHECK(st == want, "'%s' on [%g, %g]: status %s, expected %s (%s)", text, a, b, dvc_status_name(st),
          dvc_status_name(want), dvc_error_message());
    if (st != DVC_OK) {
        CHECK(word == NULL || strstr(dvc_error_message(), word) != NULL, "message of '%s' mentions %s: %s",
              text, word, dvc_error_message());
        CHECK(mpfr_cmp_ui(&r->left, 7) == 0 && mpfr_cmp_ui(&r->right, 7) == 0, "result untouched on failure");
    } else {
        CHECK(finite_ok(r), "'%s' finite", text);
    }
    mpfi_clear(r);
    mpfi_clear(dr);
    mpfi_clear(T);
    dvc_expr_clear(e);
}

static void test_errors(const dvc_expr_consts_t k)
{
    expect_parse_error("sin(", k, "end of expression");
    expect_parse_error("foo(t)", k, "foo");
    expect_parse_error("t +* 2", k, "'*'");
    expect_parse_error("max(t)", k, "max");
    expect_parse_error("sin(t, 2)", k, "sin");
    expect_parse_error("1/0", k, "division by zero");
    expect_parse_error("1/(2-2)", k, "division by zero");
    expect_parse_error("log(-1)", k, "log");
    expect_parse_error("log(0)", k, "log");
    expect_parse_error("sqrt(-2)", k, "sqrt");
    expect_parse_error("(-2)^0.5", k, "^");
    expect_parse_error("0^-1", k, "zero");
    expect_parse_error("", k, "empty");
    expect_parse_error("   ", k, "empty");
    expect_parse_error("2t", k, "2t");
    expect_parse_error("1.2.3", k, "1.2.3");
    expect_parse_error("t)", k, "')'");
    expect_parse_error("(t", k, "'('");
    expect_parse_error("sin", k, "sin");
    expect_parse_error("x1 + t", k, "x1");
    expect_parse_error("t # 2", k, "#");
    expect_parse_error("t ^", k, "end of expression");
    expect_parse_error("min(t,)", k, "')'");
    expect_parse_error("1e99999999999999999999", k, "1e99999999999999999999");
    expect_parse_error("exp(exp(exp(100)))", k, "overflow");
    {
        char deep[1200];
        memset(deep, '(', 600);
        strcpy(deep + 600, "t");
        memset(deep + 601, ')', 598);
        deep[1199] = '\0';
        expect_parse_error(deep, k, "deeply");
    }
    expect_eval("1/t", -1, 1, 0, DVC_NOT_CERTIFIED, "contains 0");
    expect_eval("1/(t-t)", 1, 1, 0, DVC_ERR_INPUT, "division by zero");
    expect_eval("log(t)", -1, 1, 0, DVC_NOT_CERTIFIED, "log");
    expect_eval("log(t)", -2, -1, 0, DVC_ERR_INPUT, "log");
    expect_eval("sqrt(t)", 0, 1, 0, DVC_OK, NULL);
    expect_eval("sqrt(t)", 0, 1, 1, DVC_NOT_CERTIFIED, "sqrt");
    expect_eval("sqrt(t)", -1, 1, 0, DVC_NOT_CERTIFIED, "sqrt");
    expect_eval("t^0.5", 0, 1, 0, DVC_NOT_CERTIFIED, "x > 0");
    expect_eval("t^-1", -1, 1, 0, DVC_NOT_CERTIFIED, "contains 0");
    expect_eval("t^t", 1, 2, 1, DVC_OK, NULL);
    expect_eval("exp(exp(exp(exp(t))))", 10, 10, 0, DVC_NOT_CERTIFIED, "unbounded");
    expect_eval("exp(exp(exp(exp(t))))", 10, 10, 1, DVC_NOT_CERTIFIED, "unbounded");
    expect_eval("min(exp(exp(exp(exp(t)))), 1)", 10, 10, 0, DVC_OK, NULL);
    /* non-finite argument */
    {
        dvc_expr_t e;
        mpfi_t r, T;
        dvc_expr_init(e);
        mpfi_init2(r, 53);
        mpfi_init2(T, 53);
        dvc_ival_set_str(T, "[0, inf]");
        CHECK(dvc_expr_parse(e, "t", k) == DVC_OK, "parse t");
        CHECK(dvc_expr_eval(r, e, T) == DVC_ERR_INPUT, "infinite t rejected");
        mpfr_set_nan(&T->left);
        CHECK(dvc_expr_eval(r, e, T) == DVC_ERR_INPUT, "NaN t rejected");
        mpfi_clear(r);
        mpfi_clear(T);
        dvc_expr_clear(e);
    }
    /* constants table errors */
    {
        dvc_expr_consts_t c;
        mpfi_t v;
        dvc_expr_consts_init(c);
        mpfi_init2(v, 53);
        CHECK(dvc_expr_consts_add_str(c, "a", "0.5") == DVC_OK, "add a");
        CHECK(dvc_expr_consts_add_str(c, "a", "1") == DVC_ERR_INPUT, "duplicate");
        CHECK(dvc_expr_consts_add_str(c, "sin", "1") == DVC_ERR_INPUT, "reserved function name");
        CHECK(dvc_expr_consts_add_str(c, "t", "1") == DVC_ERR_INPUT, "reserved t");
        CHECK(dvc_expr_consts_add_str(c, "2x", "1") == DVC_ERR_INPUT, "not an identifier");
        CHECK(dvc_expr_consts_add_str(c, "b", "abc") == DVC_ERR_INPUT &&
                  strstr(dvc_error_message(), "'b'") != NULL, "bad value names the constant");
        CHECK(dvc_expr_consts_add_str(c, "b", "nan") == DVC_ERR_INPUT, "nan constant");
        CHECK(dvc_expr_consts_add_str(c, "b", "inf") == DVC_ERR_INPUT, "inf constant");
        CHECK(dvc_expr_consts_add_expr(c, "w", "2*pi*a") == DVC_OK, "constant expression");
        CHECK(dvc_expr_consts_add_expr(c, "z", "2*t") == DVC_ERR_INPUT, "constant depending on t");
        CHECK(eval_at(v, "w", c, 0) == DVC_OK && mpfr_cmp_d(&v->left, 3.1415926) > 0 && mpfr_cmp_d(&v->right, 3.1415927) < 0,
              "w = pi");
        CHECK(dvc_expr_consts_find(c, "w") == 1 && dvc_expr_consts_find(c, "q") == -1, "find");
        mpfi_clear(v);
        dvc_expr_consts_clear(c);
    }
}

/* Named variables and directional derivatives / gradients. */
static void test_vars(void)
{
    const char *names[] = {"x1", "x2"};
    dvc_expr_t e;
    dvc_ivec_t X, dX, G;
    mpfi_t T, dT, f, df;
    check_rng r = {99};
    dvc_expr_init(e);
    dvc_ivec_init(X, 2);
    dvc_ivec_init(dX, 2);
    dvc_ivec_init(G, 3);
    mpfi_init2(T, 53);
    mpfi_init2(dT, 53);
    mpfi_init2(f, 53);
    mpfi_init2(df, 53);
    CHECK(dvc_expr_parse_vars(e, "x1*x2 + sin(t)*x1^2 - abs(x2)", NULL, 2, names) == DVC_OK, "parse vars: %s",
          dvc_error_message());
    CHECK(dvc_expr_uses_t(e) && dvc_expr_uses_x(e), "uses");
    CHECK(dvc_expr_eval(f, e, T) == DVC_ERR_INPUT, "eval without x rejected");
    CHECK(dvc_expr_eval_d1(f, df, e, T) == DVC_ERR_INPUT, "d1 with x rejected");
    for (int i = 0; i < 300; i++) {
        double t0 = check_rng_unif(&r, -2, 2), x10 = check_rng_unif(&r, -2, 2), x20 = check_rng_unif(&r, -2, 2);
        double w = i % 2 ? 0.01 : 0;
        double vt = check_rng_unif(&r, -1, 1), v1 = check_rng_unif(&r, -1, 1), v2 = check_rng_unif(&r, -1, 1);
        double st = t0 + w * check_rng_unif(&r, 0, 1), s1 = x10 + w * check_rng_unif(&r, 0, 1),
               s2 = x20 + w * check_rng_unif(&r, 0, 1);
        /* reference at (st, s1, s2) in double is not enough: use MPFR */
        mpfr_t a, b, c, val, g0, g1, g2, tmp;
        mpfr_inits2(REF_PREC, a, b, c, val, g0, g1, g2, tmp, (mpfr_ptr)0);
        mpfr_set_d(a, st, MPFR_RNDN);
        mpfr_set_d(b, s1, MPFR_RNDN);
        mpfr_set_d(c, s2, MPFR_RNDN);
        /* val = b c + sin(a) b^2 - |c| */
        mpfr_mul(val, b, c, MPFR_RNDN);
        mpfr_sin(tmp, a, MPFR_RNDN);
        mpfr_mul(tmp, tmp, b, MPFR_RNDN);
        mpfr_mul(tmp, tmp, b, MPFR_RNDN);
        mpfr_add(val, val, tmp, MPFR_RNDN);
        mpfr_abs(tmp, c, MPFR_RNDN);
        mpfr_sub(val, val, tmp, MPFR_RNDN);
        mpfr_cos(g0, a, MPFR_RNDN); /* d/dt = cos(a) b^2 */
        mpfr_mul(g0, g0, b, MPFR_RNDN);
        mpfr_mul(g0, g0, b, MPFR_RNDN);
        mpfr_sin(g1, a, MPFR_RNDN); /* d/dx1 = c + 2 sin(a) b */
        mpfr_mul(g1, g1, b, MPFR_RNDN);
        mpfr_mul_2ui(g1, g1, 1, MPFR_RNDN);
        mpfr_add(g1, g1, c, MPFR_RNDN);
        mpfr_set(g2, b, MPFR_RNDN); /* d/dx2 = b - sign(c) */
        if (mpfr_sgn(c) > 0) mpfr_sub_ui(g2, g2, 1, MPFR_RNDN);
        else mpfr_add_ui(g2, g2, 1, MPFR_RNDN);
        mpfi_interv_d(T, t0, t0 + w);
        mpfi_interv_d(X->e[0], x10, x10 + w);
        mpfi_interv_d(X->e[1], x20, x20 + w);
        CHECK(dvc_expr_eval_x(f, e, T, X) == DVC_OK && contains_fr(f, val), "value with vars");
        CHECK(dvc_expr_grad(f, G, e, T, X) == DVC_OK && contains_fr(f, val) && contains_fr(G->e[0], g0) &&
                  contains_fr(G->e[1], g1) && contains_fr(G->e[2], g2),
              "gradient encloses the true gradient");
        /* directional derivative with point direction */
        mpfi_set_d(dT, vt);
        mpfi_set_d(dX->e[0], v1);
        mpfi_set_d(dX->e[1], v2);
        mpfr_mul_d(g0, g0, vt, MPFR_RNDN);
        mpfr_mul_d(g1, g1, v1, MPFR_RNDN);
        mpfr_mul_d(g2, g2, v2, MPFR_RNDN);
        mpfr_add(g0, g0, g1, MPFR_RNDN);
        mpfr_add(g0, g0, g2, MPFR_RNDN);
        CHECK(dvc_expr_eval_tangent(f, df, e, T, X, dT, dX) == DVC_OK && contains_fr(df, g0),
              "directional derivative");
        mpfr_clears(a, b, c, val, g0, g1, g2, tmp, (mpfr_ptr)0);
    }
    {
        const char *bad[] = {"t"};
        const char *clash[] = {"g"};
        dvc_expr_consts_t c;
        dvc_expr_consts_init(c);
        dvc_expr_consts_add_str(c, "g", "9.81");
        CHECK(dvc_expr_parse_vars(e, "t", NULL, 1, bad) == DVC_ERR_INPUT, "variable named t");
        CHECK(dvc_expr_parse_vars(e, "g", c, 1, clash) == DVC_ERR_INPUT, "variable named like a constant");
        dvc_expr_consts_clear(c);
    }
    /* constant expression */
    mpfi_set_d(T, 0.5);
    CHECK(dvc_expr_set_const(e, T) == DVC_OK && dvc_expr_eval_d1(f, df, e, T) == DVC_OK &&
              mpfr_cmp_d(&f->left, 0.5) == 0 && mpfr_zero_p(&df->left) && mpfr_zero_p(&df->right),
          "set_const");
    mpfi_clear(T);
    mpfi_clear(dT);
    mpfi_clear(f);
    mpfi_clear(df);
    dvc_ivec_clear(X);
    dvc_ivec_clear(dX);
    dvc_ivec_clear(G);
    dvc_expr_clear(e);
}

/* Higher precision gives narrower enclosures (sanity of the precision). */
static void test_precision(void)
{
    dvc_expr_t e53, e200;
    mpfi_t T, r53, r200;
    mpfr_t w53, w200;
    dvc_expr_init2(e53, 53);
    dvc_expr_init2(e200, 200);
    mpfi_init2(T, 53);
    mpfi_init2(r53, 300);
    mpfi_init2(r200, 300);
    mpfr_inits2(300, w53, w200, (mpfr_ptr)0);
    mpfi_set_d(T, 0.3);
    CHECK(dvc_expr_parse(e53, "exp(-t)*sin(4*t) + 0.1", NULL) == DVC_OK, "parse");
    CHECK(dvc_expr_parse(e200, "exp(-t)*sin(4*t) + 0.1", NULL) == DVC_OK, "parse");
    CHECK(dvc_expr_eval(r53, e53, T) == DVC_OK && dvc_expr_eval(r200, e200, T) == DVC_OK, "eval");
    mpfi_diam_abs(w53, r53);
    mpfi_diam_abs(w200, r200);
    CHECK(mpfr_cmp_d(w53, 1e-14) < 0 && mpfr_cmp_d(w200, 1e-55) < 0, "widths at 53 / 200 bits");
    CHECK(mpfi_is_inside(r200, r53), "200-bit enclosure inside 53-bit one");
    mpfr_clears(w53, w200, (mpfr_ptr)0);
    mpfi_clear(T);
    mpfi_clear(r53);
    mpfi_clear(r200);
    dvc_expr_clear(e53);
    dvc_expr_clear(e200);
}

/* Built expressions (build.c) evaluate exactly as the parse of their text:
 * the same program, constant folding included. */
static int same_value(const dvc_expr_t a, const dvc_expr_t b, double x, double y, double t)
{
    mpfi_t ra, rb, T;
    dvc_ivec_t X;
    mpfi_init2(ra, 53);
    mpfi_init2(rb, 53);
    mpfi_init2(T, 53);
    dvc_ivec_init2(X, 2, 53);
    mpfi_set_d(T, t);
    mpfi_set_d(X->e[0], x);
    mpfi_set_d(X->e[1], y);
    int ok = dvc_expr_eval_x(ra, a, T, X) == DVC_OK && dvc_expr_eval_x(rb, b, T, X) == DVC_OK &&
             mpfr_equal_p(&ra->left, &rb->left) && mpfr_equal_p(&ra->right, &rb->right);
    mpfi_clear(ra);
    mpfi_clear(rb);
    mpfi_clear(T);
    dvc_ivec_clear(X);
    return ok;
}

static void test_build(const dvc_expr_consts_t k)
{
    const char *v[2] = {"x", "y"};
    dvc_expr_t a, b, c, p;
    mpfi_t g;
    dvc_expr_init2(a, 53);
    dvc_expr_init2(b, 53);
    dvc_expr_init2(c, 53);
    dvc_expr_init2(p, 53);
    mpfi_init2(g, 53);
    REQUIRE(dvc_expr_parse_vars(a, "x*sin(t) + gamma", k, 2, v) == DVC_OK, "%s", dvc_error_message());
    REQUIRE(dvc_expr_set_literal(b, "0.1", NULL, 2, v) == DVC_OK, "%s", dvc_error_message());
    REQUIRE(dvc_expr_set_literal(c, "0.2", NULL, 2, v) == DVC_OK, "%s", dvc_error_message());
    /* (0.1)*(0.2) folds into one literal, as the parser folds it */
    dvc_expr_paren(b, b);
    dvc_expr_paren(c, c);
    CHECK(dvc_expr_mul(b, b, c) == DVC_OK && !strcmp(b->text, "(0.1)*(0.2)"), "text %s", b->text);
    CHECK(b->nins == 1, "folded: %ld instructions", b->nins);
    dvc_expr_paren(c, a);
    CHECK(dvc_expr_sub(c, b, c) == DVC_OK && dvc_expr_paren(c, c) == DVC_OK &&
              dvc_expr_neg(c, c) == DVC_OK, "%s", dvc_error_message());
    REQUIRE(dvc_expr_parse_vars(p, c->text, k, 2, v) == DVC_OK, "%s", dvc_error_message());
    CHECK(!strcmp(c->text, "-((0.1)*(0.2)-(x*sin(t) + gamma))"), "text %s", c->text);
    CHECK(same_value(c, p, 0.3, -2, 0.7) && same_value(c, p, -1.5, 4, 2.5), "built %s", c->text);
    /* a named value: the text shown, the interval used */
    mpfi_interv_d(g, 1, 2);
    REQUIRE(dvc_expr_set_literal(b, "_g", g, 2, v) == DVC_OK, "%s", dvc_error_message());
    dvc_expr_parse_vars(p, "y", NULL, 2, v);
    CHECK(dvc_expr_div(c, p, b) == DVC_OK && !strcmp(c->text, "y/_g") && dvc_expr_uses_x(c),
          "y/_g: %s", c->text);
    /* an affine field built from its data: 2*x + y*(-0.5) + sin(t) */
    {
        dvc_expr_t u, w;
        dvc_expr_init2(u, 53);
        dvc_expr_init2(w, 53);
        dvc_expr_set_literal(c, "2", NULL, 2, v);
        dvc_expr_set_variable(u, 1, 2, v);
        dvc_expr_mul(c, c, u);
        dvc_expr_set_variable(u, 2, 2, v);
        dvc_expr_set_literal(w, "0.5", NULL, 2, v);
        dvc_expr_neg(w, w); /* folded: one literal, as the parser folds "-0.5" */
        CHECK(w->nins == 1 && w->ncst == 2, "-0.5: %ld instructions", w->nins);
        dvc_expr_paren(w, w);
        dvc_expr_mul(u, u, w);
        dvc_expr_add(c, c, u);
        dvc_expr_set_variable(u, 0, 2, v);
        dvc_expr_paren(u, u);
        dvc_expr_add(c, c, u);
        CHECK(!strcmp(c->text, "2*x+y*(-0.5)+(t)") && dvc_expr_uses_t(c), "text %s", c->text);
        REQUIRE(dvc_expr_parse_vars(p, c->text, NULL, 2, v) == DVC_OK, "%s", dvc_error_message());
        CHECK(same_value(c, p, 0.3, -2, 0.7), "built %s", c->text);
        dvc_expr_clear(u);
        dvc_expr_clear(w);
    }
    /* a constant division by zero fails when built, as when parsed */
    dvc_expr_set_literal(b, "0", NULL, 2, v);
    dvc_expr_set_literal(c, "1", NULL, 2, v);
    CHECK(dvc_expr_div(c, c, b) == DVC_ERR_INPUT && !strcmp(c->text, "1"), "1/0: %s",
          dvc_error_message());
    /* operands over other variables are refused */
    dvc_expr_parse(p, "t", NULL);
    CHECK(dvc_expr_add(c, c, p) == DVC_ERR_INPUT, "different variables accepted");
    dvc_expr_clear(a);
    dvc_expr_clear(b);
    dvc_expr_clear(c);
    dvc_expr_clear(p);
    mpfi_clear(g);
}

/* dvc_expr_affine: affine in z = (z1, z2) with constant coefficients
 * (enclosed), decided by structure. */
static void test_affine(const dvc_expr_consts_t k)
{
    const char *names[] = {"x", "z1", "z2"};
    static const struct {
        const char *text;
        int kind, uses;
        double c1, c2; /* the coefficients (kind 0) */
    } cases[] = {
        {"2*z1 - z2/4 + sin(x) + t", 0, 1, 2, -0.25},
        {"-(z1 - 3*z2)*gamma + x^2", 0, 1, -0.2, 0.6},
        {"z1^1 + (z2 + z2)*0.5 - z1", 0, 1, 0, 1},
        {"x + t", 0, 0, 0, 0},
        {"x*z1", 1, 1, 0, 0},
        {"z1*(1 + t)", 1, 1, 0, 0},
        {"z1/x", 1, 1, 0, 0},
        {"z1*z2", 2, 1, 0, 0},
        {"1/z1", 2, 1, 0, 0},
        {"sin(z2)", 2, 1, 0, 0},
        {"z1^2", 2, 1, 0, 0},
        {"x*z1*z1", 2, 1, 0, 0},
    };
    mpfi_t c[2];
    dvc_expr_t e;
    mpfi_init2(c[0], 53);
    mpfi_init2(c[1], 53);
    dvc_expr_init(e);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int kind = -1, uses = -1;
        REQUIRE(dvc_expr_parse_vars(e, cases[i].text, k, 3, names) == DVC_OK, "affine: parse %s",
                cases[i].text);
        REQUIRE(dvc_expr_affine(c, &kind, &uses, e, 2, 2) == DVC_OK, "affine: %s", dvc_error_message());
        CHECK(kind == cases[i].kind && uses == cases[i].uses, "affine: '%s' kind %d uses %d, expected %d %d",
              cases[i].text, kind, uses, cases[i].kind, cases[i].uses);
        if (kind == 0 && cases[i].kind == 0)
            for (int j = 0; j < 2; j++) {
                double v = j ? cases[i].c2 : cases[i].c1;
                CHECK(mpfr_cmp_d(&c[j]->left, v) <= 0 && mpfr_cmp_d(&c[j]->right, v) >= 0 &&
                          mpfr_get_d(&c[j]->right, MPFR_RNDU) - mpfr_get_d(&c[j]->left, MPFR_RNDD) < 1e-15,
                      "affine: '%s' coefficient %d does not tightly enclose %g", cases[i].text, j + 1, v);
            }
    }
    int kd, us;
    CHECK(dvc_expr_affine(c, &kd, &us, e, 3, 2) == DVC_ERR_INPUT,
          "affine: variables beyond the expression's refused");
    dvc_expr_clear(e);
    mpfi_clear(c[0]);
    mpfi_clear(c[1]);
}

int main(void)
{
    dvc_expr_consts_t k;
    dvc_expr_consts_init(k);
    REQUIRE(dvc_expr_consts_add_str(k, "gamma", "0.2") == DVC_OK, "constant gamma");
    test_decimal_and_syntax(k);
    test_errors(k);
    test_examples(k);
    test_random(k);
    test_vars();
    test_precision();
    test_build(k);
    test_affine(k);
    printf("%ld expressions, %ld points, %ld not certified (skipped)\n", n_exprs, n_points, n_skipped);
    CHECK(n_skipped * 10 < n_exprs, "most random expressions certified (%ld of %ld skipped)", n_skipped, n_exprs);
    dvc_expr_consts_clear(k);
    return check_report();
}
