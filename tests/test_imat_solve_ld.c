/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The x87 route of the 64-bit verified solve (src/imat_solve_ld.c) against
 * the MPFR/MPFI route it replaces (the hardware kernels switched off): on
 * random point matrices at 64 bits (entries of 24 to 64 bits, zeros,
 * integers, graded magnitudes, nearly singular and singular ones, the
 * orthonormal frames of the hybrid engine), dvc_imat_inv and
 * dvc_imat_solve_mat must give the same status and every endpoint bit for
 * bit, signed zeros included; the route must be taken on the common cases
 * and refuse what it cannot do exactly (interval data, other precisions,
 * exponents beyond the x87 range). */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "dvicert/dvicert.h"
#include "imat_fast.h"
#include "imat_solve_ld.h"
#include "rand_ival.h"

#define NCASES 1500

static int same_fr(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && !mpfr_signbit(a) == !mpfr_signbit(b);
}

static long mismatch(const dvc_imat_t X, const dvc_imat_t Y)
{
    for (long t = 0; t < X->r * X->c; t++)
        if (!same_fr(&X->e[t]->left, &Y->e[t]->left) || !same_fr(&X->e[t]->right, &Y->e[t]->right))
            return t;
    return -1;
}

/* A random point matrix of one of several kinds. */
static void rand_point_mat(dvc_imat_t A, long n, long c, int kind, check_rng *g)
{
    mpfr_t x;
    mpfr_init2(x, 64);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < c; j++) {
            mpfr_prec_t p = (mpfr_prec_t)(check_rng_int(g, 0, 2) == 0 ? 24 : 53 + 11 * check_rng_int(g, 0, 1));
            mpfr_set_prec(x, p);
            rand_fr(x, g, -4, 4);
            if (kind == 1 && check_rng_int(g, 0, 2) == 0) mpfr_set_zero(x, 1); /* sparse */
            if (kind == 2) mpfr_mul_2si(x, x, 3 * (i - j), MPFR_RNDN);       /* graded */
            if (kind == 3 && i == j) mpfr_add_ui(x, x, 8, MPFR_RNDN);          /* dominant */
            if (kind == 5) mpfr_set_si(x, check_rng_int(g, -3, 3), MPFR_RNDN); /* integers */
            if (kind == 6 && check_rng_int(g, 0, 9) == 0)
                mpfr_mul_2si(x, x, check_rng_int(g, 0, 1) ? 16390 : -16390, MPFR_RNDN);
            mpfi_set_fr(dvc_imat_entry(A, i, j), x);
        }
    if (kind == 4 && n > 1) /* nearly singular: row 1 = row 0 + 2^-50 */
        for (long j = 0; j < c; j++) {
            mpfr_set_prec(x, 64);
            mpfr_set_ui_2exp(x, 1, -50, MPFR_RNDN);
            mpfr_add(x, x, &dvc_imat_entry(A, 0, j)->left, MPFR_RNDN);
            mpfi_set_fr(dvc_imat_entry(A, 1, j), x);
        }
    if (kind == 7 && n > 1) /* singular: two equal rows */
        for (long j = 0; j < c; j++) mpfi_set(dvc_imat_entry(A, 1, j), dvc_imat_entry(A, 0, j));
    mpfr_clear(x);
}

/* An orthonormal random frame (as the hybrid engine's QR frames): the
 * identity turned by 3n random plane rotations. */
static void rand_frame(dvc_imat_t A, long n, check_rng *g)
{
    double *a = calloc((size_t)(n * n), sizeof *a);
    for (long i = 0; i < n; i++) a[i * n + i] = 1;
    for (long r = 0; n > 1 && r < 3 * n; r++) {
        long p = check_rng_int(g, 0, n - 1), q = check_rng_int(g, 0, n - 2);
        if (q >= p) q++;
        double th = check_rng_unif(g, 0, 6.283185307179586), c = cos(th), sn = sin(th);
        for (long i = 0; i < n; i++) {
            double u = a[i * n + p], v = a[i * n + q];
            a[i * n + p] = c * u - sn * v;
            a[i * n + q] = sn * u + c * v;
        }
    }
    dvc_imat_set_d(A, a);
    free(a);
}

/* Both routes on A (and B when given): same status, same bits. */
static void compare(const dvc_imat_t A, const dvc_imat_t B, const char *what, int it)
{
    long n = A->r, c = B ? B->c : n;
    dvc_imat_t X, Y;
    dvc_imat_init2(X, n, c, 64);
    dvc_imat_init2(Y, n, c, 64);
    dvc_status s1 = B ? dvc_imat_solve_mat(X, A, B) : dvc_imat_inv(X, A);
    dvc_error_reset();
    dvc_imat_fast_enable_(0);
    dvc_status s2 = B ? dvc_imat_solve_mat(Y, A, B) : dvc_imat_inv(Y, A);
    dvc_error_reset();
    dvc_imat_fast_enable_(1);
    CHECK(s1 == s2, "%s case %d (n %ld): status %d (x87) vs %d (MPFR)", what, it, n, (int)s1,
          (int)s2);
    if (s1 == DVC_OK && s2 == DVC_OK) {
        long t = mismatch(X, Y);
        CHECK(t < 0, "%s case %d (n %ld): entry %ld differs", what, it, n, t);
    }
    dvc_imat_clear(X);
    dvc_imat_clear(Y);
}

/* 1 when the x87 route takes A (B = I). */
static int taken(const dvc_imat_t A)
{
    long n = A->r;
    int sing = 0, r;
    dvc_imat_t I;
    mpfr_t *g = malloc((size_t)n * sizeof *g), *xt = malloc((size_t)(n * n) * sizeof *xt);
    mpfi_t *z = malloc((size_t)(n * n) * sizeof *z);
    dvc_imat_init2(I, n, n, 2);
    dvc_imat_one(I);
    for (long i = 0; i < n; i++) mpfr_init2(g[i], 64);
    for (long t = 0; t < n * n; t++) {
        mpfr_init2(xt[t], 64);
        mpfi_init2(z[t], 64);
    }
    r = dvc_solve_ld_(n, n, A, I->e, g, xt, z, &sing);
    for (long i = 0; i < n; i++) mpfr_clear(g[i]);
    for (long t = 0; t < n * n; t++) {
        mpfr_clear(xt[t]);
        mpfi_clear(z[t]);
    }
    free(g);
    free(xt);
    free(z);
    dvc_imat_clear(I);
    return r;
}

int main(void)
{
    check_rng g = {0x5eed2026c0ffee01ULL};
    long ntaken = 0, nframes = 0;
    for (int it = 0; it < NCASES; it++) {
        long n = check_rng_int(&g, 1, it % 10 == 0 ? 34 : 9);
        int kind = (int)check_rng_int(&g, 0, 8);
        dvc_imat_t A;
        dvc_imat_init2(A, n, n, 64);
        if (kind == 8) rand_frame(A, n, &g);
        else rand_point_mat(A, n, n, kind, &g);
        compare(A, NULL, "inverse", it);
        if (kind != 6 && kind != 7) {
            int t = taken(A);
            ntaken += t;
            nframes += kind == 8 && t;
        }
        if (it % 3 == 0) { /* a solve with point right-hand sides */
            dvc_imat_t B;
            long c = check_rng_int(&g, 1, 4);
            dvc_imat_init2(B, n, c, 64);
            rand_point_mat(B, n, c, (int)check_rng_int(&g, 0, 5), &g);
            compare(A, B, "solve", it);
            dvc_imat_clear(B);
        }
        dvc_imat_clear(A);
    }
    /* interval data and 53 bits are not the route's: it refuses them */
    {
        dvc_imat_t A;
        dvc_imat_init2(A, 3, 3, 64);
        rand_frame(A, 3, &g);
        CHECK(taken(A) == 1, "a 64-bit point frame is taken");
        mpfr_nextabove(&dvc_imat_entry(A, 1, 1)->right);
        CHECK(taken(A) == 0, "an interval entry is refused");
        compare(A, NULL, "interval", -1);
        dvc_imat_clear(A);
    }
    CHECK(ntaken > NCASES / 2, "the x87 route was taken on %ld of %d cases", ntaken, NCASES);
    CHECK(nframes > 0, "the x87 route took no frame");
    return check_report();
}
