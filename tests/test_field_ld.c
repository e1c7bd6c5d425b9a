/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The x87 route of a field mode's flow (src/hybrid/field_ld.c: the a-priori
 * box and the variational Jacobian) and the binary64 route of its state
 * series at once (dvc_expr_taylor_dd_state_, src/expr/taylor_dd.c) against
 * the MPFI code they stand for: seeded random sets, start times and steps
 * (narrow and wide, boxes from 1e-12 to 0.3 wide) on field modes with
 * polynomial, trigonometric, exponential and time-dependent right-hand
 * sides. With the routes on and off (two copies of each model: the field
 * flow keeps the last step's series), every status, enclosure, set and
 * series coefficient must be the same bit for bit, zero signs included;
 * and the routes must take most calls (refusals are rare on such data). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dvicert/dvicert.h"
#include "expr/internal.h"
#include "expr/taylor_ws.h"
#include "hybrid/field_ld.h"
#include "hybrid/flow.h"
#include "imat_ld.h"

#define K 12
#define PREC 64

static int same_fr(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

static int same_iv(const mpfi_t a, const mpfi_t b)
{
    return same_fr(&a->left, &b->left) && same_fr(&a->right, &b->right);
}

static int same_vec(const dvc_ivec_t a, const dvc_ivec_t b)
{
    for (long i = 0; i < a->n; i++)
        if (!same_iv(a->e[i], b->e[i])) return 0;
    return 1;
}

static int same_mat(const dvc_imat_t a, const dvc_imat_t b)
{
    for (long i = 0; i < a->r * a->c; i++)
        if (!same_iv(a->e[i], b->e[i])) return 0;
    return 1;
}

static void routes(int on)
{
    dvc_expr_fast_enable_(on);
    dvc_imat_ld_enable_(on);
}

typedef struct {
    const char *name;
    long n;
    const char *f[3];
    double scale; /* of the state boxes' centres */
} field;

static const field fields[] = {
    {"elliptic", 2, {"2*x2", "3*x1^2 - 3"}, 1.3},
    {"pendulum", 2, {"x2", "-sin(x1) - 0.1*x2"}, 2.0},
    {"forced", 3, {"x2 - x1*x3/4", "-x1 + cos(t)/2", "exp(-x1^2/4) - x3"}, 1.0},
    {"lorenz", 3, {"10*(x2 - x1)", "x1*(28 - x3) - x2", "x1*x2 - 8/3*x3"}, 5.0},
};

static void build(dvc_hybrid_model_t m, const field *fd)
{
    static const char *names[3] = {"x1", "x2", "x3"};
    REQUIRE(dvc_hybrid_model_init(m, fd->n, names, 53) == DVC_OK, "%s: model", fd->name);
    REQUIRE(dvc_hybrid_add_mode_field(m, "a", fd->f, NULL, NULL) == DVC_OK, "%s: mode: %s", fd->name,
            dvc_error_message());
}

/* A random box around a random centre, of width 2 r; one trial in four a
 * point with zero coordinates (exact zero coefficients and zero endpoints,
 * as at the start (-1.2, 0) of certs/elliptic). */
static void rand_box(dvc_ivec_t X, check_rng *g, double scale, double r)
{
    int point = check_rng_int(g, 0, 3) == 0;
    for (long i = 0; i < X->n; i++) {
        double c = point && check_rng_int(g, 0, 1) ? 0 : check_rng_unif(g, -scale, scale);
        mpfi_interv_d(X->e[i], c - (point ? 0 : r), c + (point ? 0 : r));
    }
}

typedef struct {
    long calls, apriori, jac, series, sub;
} tally;

static mpfi_t **series_new(long n)
{
    mpfi_t **x = malloc((size_t)n * sizeof *x);
    for (long i = 0; i < n; i++) {
        x[i] = malloc((K + 1) * sizeof **x);
        for (int k = 0; k <= K; k++) mpfi_init2(x[i][k], PREC);
    }
    return x;
}

static void series_free(mpfi_t **x, long n)
{
    for (long i = 0; i < n; i++) {
        for (int k = 0; k <= K; k++) mpfi_clear(x[i][k]);
        free(x[i]);
    }
    free(x);
}

/* The sub-step Jacobian's route on X's step to h (as hyb_field_flow makes
 * its inputs: the step box, the centre's series and the box's). */
static int sub_route(const dvc_hybrid_mode *md, const dvc_ivec_t X, const mpfi_t T, const mpfi_t S,
                     dvc_imat_t J, mpfr_t L)
{
    long n = X->n;
    int r = 1;
    dvc_ivec_t B, c;
    mpfi_t T0;
    mpfi_t **cs = series_new(n), **rs = series_new(n);
    dvc_ivec_init2(B, n, PREC);
    dvc_ivec_init2(c, n, PREC);
    mpfi_init2(T0, PREC);
    for (long i = 0; i < n; i++) {
        mpfi_mid(&T0->left, X->e[i]);
        mpfi_set_fr(c->e[i], &T0->left);
    }
    mpfi_set_fr(T0, &T->left);
    if (hyb_apriori_ld(B, md, T, X, &S->right) == 0 && hyb_state_series(cs, md, T0, c, K) == DVC_OK &&
        hyb_state_series(rs, md, T, B, K) == DVC_OK)
        r = hyb_sub_jacobian_ld(J, md, T, B, X, c, cs, rs, S, K, 4, L);
    dvc_error_reset();
    series_free(cs, n);
    series_free(rs, n);
    dvc_ivec_clear(B);
    dvc_ivec_clear(c);
    mpfi_clear(T0);
    return r;
}

/* The kernels alone on the inputs of one trial (routes on). */
static void count(tally *c, const dvc_hybrid_mode *md, const dvc_ivec_t X, const mpfi_t T,
                  const mpfi_t S, const mpfi_t Sn)
{
    long n = X->n;
    dvc_ivec_t B;
    dvc_imat_t J;
    mpfr_t L;
    dvc_ivec_init2(B, n, PREC);
    dvc_imat_init2(J, n, n, PREC);
    mpfr_init2(L, PREC);
    c->calls++;
    c->apriori += hyb_apriori_ld(B, md, T, X, &S->right) == 0;
    c->jac += hyb_jacobian_ld(J, md, T, X, S, L) == 0;
    c->sub += sub_route(md, X, T, Sn, J, L) == 0;
    mpfi_t *xs[3], *ts, *vars[4];
    ts = malloc((K + 1) * sizeof *ts);
    for (int k = 0; k <= K; k++) mpfi_init2(ts[k], PREC), mpfi_set_ui(ts[k], 0);
    mpfi_set(ts[0], T);
    mpfi_set_ui(ts[1], 1);
    vars[0] = ts;
    for (long i = 0; i < n; i++) {
        xs[i] = malloc((K + 1) * sizeof **xs);
        for (int k = 0; k <= K; k++) mpfi_init2(xs[i][k], PREC), mpfi_set_ui(xs[i][k], 0);
        mpfi_set(xs[i][0], X->e[i]);
        vars[i + 1] = xs[i];
        dvc_expr_taylor_begin_(md->f[i], K - 1);
    }
    c->series += dvc_expr_taylor_dd_state_(vars, md->f, n, K) == 0;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k <= K; k++) mpfi_clear(xs[i][k]);
        free(xs[i]);
    }
    for (int k = 0; k <= K; k++) mpfi_clear(ts[k]);
    free(ts);
    mpfr_clear(L);
    dvc_imat_clear(J);
    dvc_ivec_clear(B);
}

/* One trial: the flows of the set from X at t0 over [0, h] and to h, and
 * the state series over X and T, on (model a) and off (model b). */
static long trial(dvc_hybrid_model_t a, dvc_hybrid_model_t b, const field *fd, check_rng *g, tally *c)
{
    static const double radii[] = {1e-12, 1e-9, 1e-6, 1e-3, 0.05, 0.3};
    long n = fd->n, diff = 0;
    dvc_ivec_t X, Xa, Xb;
    hyb_set L, La, Lb;
    mpfr_t t0;
    mpfi_t S, Sw, T;
    dvc_ivec_init2(X, n, PREC);
    dvc_ivec_init2(Xa, n, PREC);
    dvc_ivec_init2(Xb, n, PREC);
    hyb_set_init(&L, n, PREC);
    hyb_set_init(&La, n, PREC);
    hyb_set_init(&Lb, n, PREC);
    mpfr_init2(t0, PREC);
    mpfi_init2(S, PREC);
    mpfi_init2(Sw, PREC);
    mpfi_init2(T, PREC);
    rand_box(X, g, fd->scale, radii[check_rng_int(g, 0, 5)]);
    hyb_set_from_box(&L, X);
    mpfr_set_d(t0, check_rng_unif(g, 0, 10), MPFR_RNDN);
    double h = check_rng_unif(g, 1e-4, 2e-2) / (fd->scale > 2 ? 4 : 1);
    mpfi_set_d(S, h);
    mpfi_interv_d(Sw, 0, h);
    mpfi_set_fr(T, t0);
    mpfi_add_d(T, T, h);
    mpfi_put_fr(T, t0);
    for (int wide = 0; wide < 2; wide++) {
        const mpfi_ptr s = wide ? Sw : S;
        routes(1);
        hyb_set_from_box(&La, X);
        dvc_status sa = hyb_field_flow(Xa, wide ? NULL : &La, &a->modes[0], &L, t0, s, K);
        routes(0);
        hyb_set_from_box(&Lb, X);
        dvc_status sb = hyb_field_flow(Xb, wide ? NULL : &Lb, &b->modes[0], &L, t0, s, K);
        routes(1);
        diff += sa != sb;
        if (sa == DVC_OK && sb == DVC_OK) {
            diff += !same_vec(Xa, Xb);
            if (!wide) diff += !same_vec(La.P, Lb.P) || !same_mat(La.B, Lb.B) || !same_vec(La.R, Lb.R);
        }
        dvc_error_reset();
    }
    /* the series and the Jacobian over the step's box T x X */
    mpfi_t **xa = series_new(n), **xb = series_new(n);
    dvc_status sa = hyb_state_series(xa, &a->modes[0], T, X, K);
    routes(0);
    dvc_status sb = hyb_state_series(xb, &b->modes[0], T, X, K);
    routes(1);
    diff += sa != sb;
    for (long i = 0; i < n && sa == DVC_OK && sb == DVC_OK; i++)
        for (int k = 0; k <= K; k++) diff += !same_iv(xa[i][k], xb[i][k]);
    dvc_imat_t Ja, Jb;
    dvc_imat_init2(Ja, n, n, PREC);
    dvc_imat_init2(Jb, n, n, PREC);
    sa = hyb_jacobian(Ja, &a->modes[0], T, X, Sw, K);
    routes(0);
    sb = hyb_jacobian(Jb, &b->modes[0], T, X, Sw, K);
    routes(1);
    diff += sa != sb || (sa == DVC_OK && !same_mat(Ja, Jb));
    dvc_error_reset();
    count(c, &a->modes[0], X, T, Sw, S);
    series_free(xa, n);
    series_free(xb, n);
    dvc_imat_clear(Ja);
    dvc_imat_clear(Jb);
    dvc_ivec_clear(X);
    dvc_ivec_clear(Xa);
    dvc_ivec_clear(Xb);
    hyb_set_clear(&L);
    hyb_set_clear(&La);
    hyb_set_clear(&Lb);
    mpfr_clear(t0);
    mpfi_clear(S);
    mpfi_clear(Sw);
    mpfi_clear(T);
    return diff;
}

int main(void)
{
    check_rng g = {20261128};
    for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
        dvc_hybrid_model_t a, b;
        tally c = {0, 0, 0, 0, 0};
        long diff = 0;
        build(a, &fields[f]);
        build(b, &fields[f]);
        for (int t = 0; t < 150; t++) diff += trial(a, b, &fields[f], &g, &c);
        CHECK(diff == 0, "%s: %ld results differ with the routes on and off", fields[f].name, diff);
        /* the routes carry the ordinary cases */
        long need = c.calls * 7 / 10;
        CHECK(c.apriori >= need && c.series >= need && c.jac >= need && c.sub >= need,
              "%s: the routes took %ld, %ld, %ld, %ld of %ld calls", fields[f].name, c.apriori, c.jac,
              c.sub, c.series, c.calls);
        printf("%s: %ld trials identical; routes taken: a-priori %ld, Jacobian %ld, sub-steps %ld, "
               "series %ld\n", fields[f].name, c.calls, c.apriori, c.jac, c.sub, c.series);
        dvc_hybrid_model_clear(a);
        dvc_hybrid_model_clear(b);
    }
    return check_report();
}
