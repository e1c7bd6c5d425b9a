/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Verified solve / inverse / Cholesky: containment of exact rational
 * solutions (GMP mpq elimination), also of sampled point matrices of
 * interval systems, widths, and clean refusals. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"
#include "fprnd.h"
#include "imat_dd.h"

/* ---- exact rational reference ------------------------------------------- */

/* Relative width of x against scale s (as double, for width checks only). */
static double rel_width(const mpfi_t x, double scale)
{
    mpfr_t w;
    mpfr_init2(w, 64);
    mpfi_diam_abs(w, x);
    double r = mpfr_get_d(w, MPFR_RNDU) / scale;
    mpfr_clear(w);
    return r;
}

/* An n x n integer system held both exactly (mpq) and as intervals; the
 * mpq entries start at 0, xq receives the exact solution. */
typedef struct {
    long n;
    mpq_t *Aq, *bq, *xq;
    dvc_imat_t A;
    dvc_ivec_t b, x;
} qsys;

static void qsys_init(qsys *s, long n, mpfr_prec_t prec)
{
    s->n = n;
    s->Aq = malloc((size_t)(n * n) * sizeof(mpq_t));
    s->bq = malloc((size_t)n * sizeof(mpq_t));
    s->xq = malloc((size_t)n * sizeof(mpq_t));
    for (long q = 0; q < n * n; q++) mpq_init(s->Aq[q]);
    for (long i = 0; i < n; i++) mpq_inits(s->bq[i], s->xq[i], (mpq_ptr)0);
    dvc_imat_init2(s->A, n, n, prec);
    dvc_ivec_init2(s->b, n, prec);
    dvc_ivec_init2(s->x, n, prec);
}

static void qsys_clear(qsys *s)
{
    for (long q = 0; q < s->n * s->n; q++) mpq_clear(s->Aq[q]);
    for (long i = 0; i < s->n; i++) mpq_clears(s->bq[i], s->xq[i], (mpq_ptr)0);
    free(s->Aq);
    free(s->bq);
    free(s->xq);
    dvc_imat_clear(s->A);
    dvc_ivec_clear(s->b);
    dvc_ivec_clear(s->x);
}

/* The point lo + u (hi - lo) of x, u in [0, 1] (256-bit arithmetic,
 * clamped to hi against rounding). */
static void point_in(mpfr_t out, const mpfi_t x, double u)
{
    mpfr_t w;
    mpfr_init2(w, 256);
    mpfr_sub(w, &x->right, &x->left, MPFR_RNDN);
    mpfr_mul_d(w, w, u, MPFR_RNDN);
    mpfr_add(out, &x->left, w, MPFR_RNDN);
    if (mpfr_cmp(out, &x->right) > 0) mpfr_set(out, &x->right, MPFR_RNDN);
    mpfr_clear(w);
}

/* ---- tests ---------------------------------------------------------------- */

/* Random integer systems: the exact solution must lie in the enclosure. */
static void test_random_integer(mpfr_prec_t prec, int cases, long nmax, unsigned long long seed)
{
    check_rng rng = {seed};
    int certified = 0;
    for (int cs = 0; cs < cases; cs++) {
        long n = check_rng_int(&rng, 1, nmax);
        long range = check_rng_int(&rng, 1, 3) == 1 ? 2 : 20;
        qsys s;
        qsys_init(&s, n, prec);
        for (long q = 0; q < n * n; q++) {
            long v = check_rng_int(&rng, -range, range);
            mpq_set_si(s.Aq[q], v, 1);
            mpfi_set_si(s.A->e[q], v);
        }
        for (long i = 0; i < n; i++) {
            long v = check_rng_int(&rng, -100, 100);
            mpq_set_si(s.bq[i], v, 1);
            mpfi_set_si(s.b->e[i], v);
        }
        int regular = ref_q_solve(s.xq, s.Aq, s.bq, n, 1);
        dvc_error_reset();
        dvc_status st = dvc_imat_solve(s.x, s.A, s.b);
        CHECK(check_rounding_nearest(), "rounding mode not restored");
        CHECK(st == DVC_OK || st == DVC_NOT_CERTIFIED, "case %d: status %d", cs, (int)st);
        if (!regular) CHECK(st == DVC_NOT_CERTIFIED, "case %d: singular matrix certified", cs);
        if (st == DVC_NOT_CERTIFIED) CHECK(strlen(dvc_error_message()) > 0, "no message");
        if (st == DVC_OK) {
            certified++;
            CHECK(regular, "case %d: certified a singular matrix", cs);
            int inside = 1;
            for (long i = 0; i < n && regular; i++) inside &= ref_contains_q(s.x->e[i], s.xq[i]);
            CHECK(inside, "case %d (n=%ld, prec %ld): exact solution outside enclosure", cs, n,
                  (long)prec);
        }
        qsys_clear(&s);
    }
    /* Random integer matrices are mostly well conditioned. */
    CHECK(certified >= cases * 8 / 10, "only %d of %d certified at prec %ld", certified, cases,
          (long)prec);
}

/* Diagonally dominant n = 32 integer system: exact containment and small
 * width (a uselessly wide enclosure must fail). */
static void test_width(mpfr_prec_t prec, double tol, unsigned long long seed)
{
    check_rng rng = {seed};
    long n = 32;
    qsys s;
    qsys_init(&s, n, prec);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            long v = check_rng_int(&rng, -10, 10) + (i == j ? 400 : 0);
            mpq_set_si(s.Aq[i * n + j], v, 1);
            mpfi_set_si(dvc_imat_entry(s.A, i, j), v);
        }
    for (long i = 0; i < n; i++) {
        long v = check_rng_int(&rng, 1, 1000);
        mpq_set_si(s.bq[i], v, 1);
        mpfi_set_si(s.b->e[i], v);
    }
    REQUIRE(ref_q_solve(s.xq, s.Aq, s.bq, n, 1), "reference singular");
    dvc_status st = dvc_imat_solve(s.x, s.A, s.b);
    CHECK(st == DVC_OK, "n=32 diag. dominant not certified at prec %ld: %s", (long)prec,
          dvc_error_message());
    if (st == DVC_OK) {
        double xmax = 0, wmax = 0;
        for (long i = 0; i < n; i++) xmax = fmax(xmax, fabs(mpq_get_d(s.xq[i])));
        for (long i = 0; i < n; i++) {
            CHECK(ref_contains_q(s.x->e[i], s.xq[i]), "component %ld outside", i);
            wmax = fmax(wmax, rel_width(s.x->e[i], xmax));
        }
        CHECK(wmax < tol, "relative width %g >= %g at prec %ld", wmax, tol, (long)prec);
        printf("n=32 diagonally dominant, prec %ld: max relative width %.3g\n", (long)prec, wmax);
    }
    qsys_clear(&s);
}

/* Interval systems: random point matrices and vertices inside [A], [b],
 * solved exactly in rationals, must lie in the enclosure. */
static void test_interval_systems(mpfr_prec_t prec, int cases, unsigned long long seed)
{
    check_rng rng = {seed};
    int certified = 0;
    for (int cs = 0; cs < cases; cs++) {
        long n = check_rng_int(&rng, 1, 10);
        double rad = cs % 3 == 0 ? 1e-3 : 1e-8;
        double *ac = malloc((size_t)(n * n) * sizeof(double)), *bc = malloc((size_t)n * sizeof(double));
        dvc_imat_t A, X, Ipt;
        dvc_ivec_t b, x;
        dvc_imat_init2(A, n, n, prec);
        dvc_imat_init2(X, n, n, prec);
        dvc_imat_init2(Ipt, n, n, prec);
        dvc_ivec_init2(b, n, prec);
        dvc_ivec_init2(x, n, prec);
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) {
                double v = check_rng_unif(&rng, -1, 1) + (i == j ? 0.5 * (double)n : 0);
                ac[i * n + j] = v;
                dvc_ival_set_dd(dvc_imat_entry(A, i, j), v - rad * fabs(v), v + rad * fabs(v));
            }
        for (long i = 0; i < n; i++) {
            bc[i] = check_rng_unif(&rng, -5, 5);
            dvc_ival_set_dd(b->e[i], bc[i] - rad, bc[i] + rad);
        }
        dvc_status st = dvc_imat_solve(x, A, b);
        dvc_status st2 = dvc_imat_inv(X, A);
        CHECK(check_rounding_nearest(), "rounding mode not restored");
        CHECK(st == st2, "case %d: solve %d but inv %d", cs, (int)st, (int)st2);
        if (st == DVC_OK && st2 == DVC_OK) {
            certified++;
            /* sampled points (256-bit, exact as rationals) solved exactly */
            mpfr_t pt;
            mpq_t *Aq = malloc((size_t)(n * n) * sizeof(mpq_t)), *bq = malloc((size_t)n * sizeof(mpq_t));
            mpq_t *xq = malloc((size_t)n * sizeof(mpq_t)), *eq = malloc((size_t)n * sizeof(mpq_t));
            mpfr_init2(pt, 256);
            for (long q = 0; q < n * n; q++) mpq_init(Aq[q]);
            for (long i = 0; i < n; i++) mpq_inits(bq[i], xq[i], eq[i], (mpq_ptr)0);
            for (int smp = 0; smp < 12; smp++) {
                /* smp < 6: vertices (lo / hi by random choice); others uniform */
                for (long q = 0; q < n * n; q++) {
                    double u = smp < 6 ? (double)check_rng_int(&rng, 0, 1) : check_rng_unif(&rng, 0, 1);
                    point_in(pt, A->e[q], u);
                    mpfr_get_q(Aq[q], pt);
                }
                for (long i = 0; i < n; i++) {
                    double u = smp < 6 ? (double)check_rng_int(&rng, 0, 1) : check_rng_unif(&rng, 0, 1);
                    point_in(pt, b->e[i], u);
                    mpfr_get_q(bq[i], pt);
                }
                REQUIRE(ref_q_solve(xq, Aq, bq, n, 1), "case %d: certified, but a sampled member is singular", cs);
                int in = 1;
                for (long i = 0; i < n; i++) in &= ref_contains_q(x->e[i], xq[i]);
                CHECK(in, "case %d sample %d: exact solution outside", cs, smp);
                /* inverse column j solves A y = e_j */
                long j = check_rng_int(&rng, 0, n - 1);
                for (long i = 0; i < n; i++) mpq_set_ui(bq[i], i == j, 1);
                REQUIRE(ref_q_solve(eq, Aq, bq, n, 1), "singular sample");
                in = 1;
                for (long i = 0; i < n; i++) in &= ref_contains_q(dvc_imat_entry(X, i, j), eq[i]);
                CHECK(in, "case %d sample %d: inverse column %ld outside", cs, smp, j);
            }
            mpfr_clear(pt);
            for (long q = 0; q < n * n; q++) mpq_clear(Aq[q]);
            for (long i = 0; i < n; i++) mpq_clears(bq[i], xq[i], eq[i], (mpq_ptr)0);
            free(Aq);
            free(bq);
            free(xq);
            free(eq);
        }
        free(ac);
        free(bc);
        dvc_imat_clear(A);
        dvc_imat_clear(X);
        dvc_imat_clear(Ipt);
        dvc_ivec_clear(b);
        dvc_ivec_clear(x);
    }
    CHECK(certified >= cases * 8 / 10, "only %d of %d interval systems certified", certified, cases);
}

/* Exact inverse of integer matrices, and solve_mat with a matrix RHS. */
static void test_inverse_exact(mpfr_prec_t prec, int cases, unsigned long long seed)
{
    check_rng rng = {seed};
    int ninv = 0, nreg = 0;
    for (int cs = 0; cs < cases; cs++) {
        long n = check_rng_int(&rng, 1, 9), k = check_rng_int(&rng, 1, 4);
        mpq_t *Aq = malloc((size_t)(n * n) * sizeof(mpq_t)), *Iq = malloc((size_t)(n * n) * sizeof(mpq_t));
        mpq_t *Xq = malloc((size_t)(n * n) * sizeof(mpq_t));
        mpq_t *Bq = malloc((size_t)(n * k) * sizeof(mpq_t)), *Yq = malloc((size_t)(n * k) * sizeof(mpq_t));
        dvc_imat_t A, X, B, Y;
        dvc_imat_init2(A, n, n, prec);
        dvc_imat_init2(X, n, n, prec);
        dvc_imat_init2(B, n, k, prec);
        dvc_imat_init2(Y, n, k, prec);
        for (long q = 0; q < n * n; q++) {
            long v = check_rng_int(&rng, -6, 6);
            mpq_inits(Aq[q], Iq[q], Xq[q], (mpq_ptr)0);
            mpq_set_si(Aq[q], v, 1);
            mpq_set_si(Iq[q], q / n == q % n, 1);
            mpfi_set_si(A->e[q], v);
        }
        for (long q = 0; q < n * k; q++) {
            long v = check_rng_int(&rng, -50, 50);
            mpq_inits(Bq[q], Yq[q], (mpq_ptr)0);
            mpq_set_si(Bq[q], v, 1);
            mpfi_set_si(B->e[q], v);
        }
        int regular = ref_q_solve(Xq, Aq, Iq, n, n);
        ref_q_solve(Yq, Aq, Bq, n, k);
        dvc_status st = dvc_imat_inv(X, A);
        dvc_status st2 = dvc_imat_solve_mat(Y, A, B);
        if (!regular) CHECK(st == DVC_NOT_CERTIFIED && st2 == DVC_NOT_CERTIFIED, "singular certified");
        if (st == DVC_OK) {
            int in = 1;
            for (long q = 0; q < n * n; q++) in &= ref_contains_q(X->e[q], Xq[q]);
            CHECK(regular && in, "case %d: exact inverse outside (prec %ld)", cs, (long)prec);
        }
        if (st2 == DVC_OK) {
            int in = 1;
            for (long q = 0; q < n * k; q++) in &= ref_contains_q(Y->e[q], Yq[q]);
            CHECK(regular && in, "case %d: exact A^-1 B outside (prec %ld)", cs, (long)prec);
        }
        if (regular) CHECK(st == st2, "inv %d vs solve_mat %d", (int)st, (int)st2);
        ninv += st == DVC_OK;
        nreg += regular;
        for (long q = 0; q < n * n; q++) mpq_clears(Aq[q], Iq[q], Xq[q], (mpq_ptr)0);
        for (long q = 0; q < n * k; q++) mpq_clears(Bq[q], Yq[q], (mpq_ptr)0);
        free(Aq);
        free(Iq);
        free(Xq);
        free(Bq);
        free(Yq);
        dvc_imat_clear(A);
        dvc_imat_clear(X);
        dvc_imat_clear(B);
        dvc_imat_clear(Y);
    }
    /* small integer matrices are well conditioned: a refusal-only run fails */
    CHECK(ninv >= nreg * 8 / 10 && ninv > 0, "inverse certified for %d of %d regular matrices (prec %ld)", ninv, nreg,
          (long)prec);
}

static void test_singular_and_errors(void)
{
    dvc_imat_t A, X, A3;
    dvc_ivec_t b, x, b3;
    dvc_imat_init2(A, 2, 2, 53);
    dvc_imat_init2(X, 2, 2, 53);
    dvc_imat_init2(A3, 2, 3, 53);
    dvc_ivec_init2(b, 2, 53);
    dvc_ivec_init2(x, 2, 53);
    dvc_ivec_init2(b3, 3, 53);
    double s[] = {1, 2, 2, 4};
    dvc_imat_set_d(A, s);
    mpfi_set_ui(b->e[0], 1);
    mpfi_set_ui(b->e[1], 2);
    dvc_error_reset();
    CHECK(dvc_imat_solve(x, A, b) == DVC_NOT_CERTIFIED, "singular solve certified");
    CHECK(strlen(dvc_error_message()) > 10, "singular: no message");
    CHECK(dvc_imat_inv(X, A) == DVC_NOT_CERTIFIED, "singular inverse certified");
    CHECK(check_rounding_nearest(), "rounding mode not restored");
    /* Regular midpoint, but [A] contains the singular matrix. */
    double r[] = {1, 2, 2, 4.5};
    dvc_imat_set_d(A, r);
    dvc_ival_set_dd(dvc_imat_entry(A, 1, 1), 3.5, 4.5);
    CHECK(dvc_imat_solve(x, A, b) == DVC_NOT_CERTIFIED, "interval matrix with singular member");
    /* At prec 113 too (MPFI path). */
    dvc_imat_t A2;
    dvc_ivec_t b2, x2;
    dvc_imat_init2(A2, 2, 2, 113);
    dvc_ivec_init2(b2, 2, 113);
    dvc_ivec_init2(x2, 2, 113);
    dvc_imat_set_d(A2, s);
    CHECK(dvc_imat_solve(x2, A2, b2) == DVC_NOT_CERTIFIED, "singular solve certified at 113");
    dvc_imat_clear(A2);
    dvc_ivec_clear(b2);
    dvc_ivec_clear(x2);
    /* Input errors. */
    dvc_imat_set_d(A, s);
    CHECK(dvc_imat_solve(x, A, b3) == DVC_ERR_INPUT, "dimension mismatch b");
    CHECK(dvc_imat_solve(x, A3, b) == DVC_ERR_INPUT, "non-square A");
    CHECK(dvc_imat_inv(A3, A) == DVC_ERR_INPUT, "inverse dims");
    CHECK(dvc_imat_solve_mat(A3, A, X) == DVC_ERR_INPUT, "solve_mat dims");
    mpfr_set_nan(&dvc_imat_entry(A, 0, 1)->left);
    CHECK(dvc_imat_solve(x, A, b) == DVC_ERR_INPUT, "NaN entry");
    mpfi_set_ui(dvc_imat_entry(A, 0, 1), 2);
    mpfr_set_inf(&b->e[1]->right, 1);
    CHECK(dvc_imat_solve(x, A, b) == DVC_ERR_INPUT, "infinite rhs");
    /* Aliasing x == b. */
    double g[] = {2, 1, 1, 3};
    dvc_imat_set_d(A, g);
    mpfi_set_ui(b->e[0], 3);
    mpfi_set_ui(b->e[1], 4);
    CHECK(dvc_imat_solve(b, A, b) == DVC_OK, "aliased solve");
    CHECK(mpfi_is_inside_ui(1, b->e[0]) > 0 && mpfi_is_inside_ui(1, b->e[1]) > 0, "aliased result");
    dvc_imat_clear(A);
    dvc_imat_clear(X);
    dvc_imat_clear(A3);
    dvc_ivec_clear(b);
    dvc_ivec_clear(x);
    dvc_ivec_clear(b3);
}

/* Hilbert matrices H_ij = 1/(i+j+1) (enclosed), H x = e: certification
 * must succeed for small n, fail cleanly at some n, and the exact solution
 * lies inside whenever certified. Returns the largest certified n. */
static long test_hilbert(mpfr_prec_t prec)
{
    long last = 0;
    for (long n = 1; n <= 40; n++) {
        qsys s;
        qsys_init(&s, n, prec);
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) {
                mpfi_set_ui(dvc_imat_entry(s.A, i, j), 1);
                mpfi_div_ui(dvc_imat_entry(s.A, i, j), dvc_imat_entry(s.A, i, j), (unsigned long)(i + j + 1));
                mpq_set_ui(s.Aq[i * n + j], 1, (unsigned long)(i + j + 1));
            }
        for (long i = 0; i < n; i++) {
            mpfi_set_ui(s.b->e[i], 1);
            mpq_set_ui(s.bq[i], 1, 1);
        }
        ref_q_solve(s.xq, s.Aq, s.bq, n, 1);
        dvc_error_reset();
        dvc_status st = dvc_imat_solve(s.x, s.A, s.b);
        dvc_status sc = dvc_imat_cholesky_spd(s.A);
        if (st == DVC_OK) {
            int in = 1;
            for (long i = 0; i < n; i++) in &= ref_contains_q(s.x->e[i], s.xq[i]);
            CHECK(in, "Hilbert n=%ld prec %ld: exact solution outside", n, (long)prec);
            CHECK(last == n - 1, "Hilbert: certified n=%ld after failing at a smaller n", n);
            last = n;
        } else {
            CHECK(st == DVC_NOT_CERTIFIED && strlen(dvc_error_message()) > 0,
                  "Hilbert n=%ld: status %d", n, (int)st);
        }
        CHECK(sc == DVC_OK || sc == DVC_NOT_CERTIFIED, "Hilbert Cholesky status %d", (int)sc);
        if (n <= 4) CHECK(sc == DVC_OK, "Hilbert n=%ld not proven SPD: %s", n, dvc_error_message());
        qsys_clear(&s);
        if (st != DVC_OK && n > last + 2) break;
    }
    return last;
}

/* Exact positive definiteness by Sylvester's criterion in mpq. */
static int q_is_pd(const long *a, long n)
{
    mpq_t *A = malloc((size_t)(n * n) * sizeof(mpq_t));
    mpq_t f, t;
    int pd = 1;
    mpq_inits(f, t, (mpq_ptr)0);
    for (long q = 0; q < n * n; q++) {
        mpq_init(A[q]);
        mpq_set_si(A[q], a[q], 1);
    }
    /* Gaussian elimination without pivoting: pivots are ratios of leading
     * minors, all positive iff PD. */
    for (long c = 0; c < n && pd; c++) {
        if (mpq_sgn(A[c * n + c]) <= 0) {
            pd = 0;
            break;
        }
        for (long i = c + 1; i < n; i++) {
            mpq_div(f, A[i * n + c], A[c * n + c]);
            for (long j = c; j < n; j++) {
                mpq_mul(t, f, A[c * n + j]);
                mpq_sub(A[i * n + j], A[i * n + j], t);
            }
        }
    }
    for (long q = 0; q < n * n; q++) mpq_clear(A[q]);
    free(A);
    mpq_clears(f, t, (mpq_ptr)0);
    return pd;
}

static void test_cholesky(mpfr_prec_t prec, int cases, unsigned long long seed)
{
    check_rng rng = {seed};
    int proven = 0, pdcount = 0;
    for (int cs = 0; cs < cases; cs++) {
        long n = check_rng_int(&rng, 1, 12);
        long *G = malloc((size_t)(n * n) * sizeof(long)), *a = malloc((size_t)(n * n) * sizeof(long));
        dvc_imat_t A;
        dvc_imat_init2(A, n, n, prec);
        for (long q = 0; q < n * n; q++) G[q] = check_rng_int(&rng, -3, 3);
        /* a = G G^T + shift I with shift in [-4, 4]: PD, semidefinite or
         * indefinite, decided exactly in mpq. */
        long shift = check_rng_int(&rng, -4, 4);
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) {
                long s = i == j ? shift : 0;
                for (long p = 0; p < n; p++) s += G[i * n + p] * G[j * n + p];
                a[i * n + j] = s;
                mpfi_set_si(dvc_imat_entry(A, i, j), s);
            }
        int pd = q_is_pd(a, n);
        dvc_status st = dvc_imat_cholesky_spd(A);
        CHECK(check_rounding_nearest(), "rounding mode not restored");
        CHECK(st == DVC_OK || st == DVC_NOT_CERTIFIED, "status %d", (int)st);
        if (st == DVC_OK) CHECK(pd, "case %d: non-PD matrix proven SPD (n=%ld shift %ld)", cs, n, shift);
        if (pd) pdcount++;
        if (pd && st == DVC_OK) proven++;
        if (pd && shift >= 1) CHECK(st == DVC_OK, "case %d: PD with margin not proven", cs);
        free(G);
        free(a);
        dvc_imat_clear(A);
    }
    CHECK(proven >= pdcount * 7 / 10, "proved %d of %d PD matrices", proven, pdcount);

    /* Fixed examples. */
    dvc_imat_t A;
    dvc_imat_init2(A, 2, 2, prec);
    double indef[] = {1, 2, 2, 1}, sing[] = {1, 1, 1, 1}, spd[] = {2, -1, -1, 2}, ns[] = {2, 0, 1, 2};
    dvc_imat_set_d(A, indef);
    CHECK(dvc_imat_cholesky_spd(A) == DVC_NOT_CERTIFIED, "indefinite proven");
    dvc_imat_set_d(A, sing);
    CHECK(dvc_imat_cholesky_spd(A) == DVC_NOT_CERTIFIED, "singular proven");
    dvc_imat_set_d(A, spd);
    CHECK(dvc_imat_cholesky_spd(A) == DVC_OK, "[[2,-1],[-1,2]] not proven");
    /* Interval containing an indefinite member: [[1, [0.5,1.5]], [.., 1]]. */
    dvc_ival_set_dd(dvc_imat_entry(A, 0, 1), 0.5, 1.5);
    dvc_ival_set_dd(dvc_imat_entry(A, 1, 0), 0.5, 1.5);
    mpfi_set_ui(dvc_imat_entry(A, 0, 0), 1);
    mpfi_set_ui(dvc_imat_entry(A, 1, 1), 1);
    CHECK(dvc_imat_cholesky_spd(A) == DVC_NOT_CERTIFIED, "interval with indefinite member proven");
    dvc_ival_set_dd(dvc_imat_entry(A, 0, 1), 0.5, 0.9);
    dvc_ival_set_dd(dvc_imat_entry(A, 1, 0), 0.5, 0.9);
    CHECK(dvc_imat_cholesky_spd(A) == DVC_OK, "interval SPD not proven");
    dvc_imat_set_d(A, ns);
    CHECK(dvc_imat_cholesky_spd(A) == DVC_ERR_INPUT, "non-symmetric accepted");
    dvc_imat_clear(A);
    /* Larger: n = 60, A = G G^T + d I with integer G, d = 1 (well
     * conditioned enough) proven; d = -1 with G of rank < n ... indefinite. */
    {
        long n = 60;
        check_rng r2 = {seed + 100};
        long *G = malloc((size_t)(n * n) * sizeof(long));
        dvc_imat_t B;
        dvc_imat_init2(B, n, n, prec);
        for (long q = 0; q < n * n; q++) G[q] = check_rng_int(&r2, -2, 2);
        for (int sgn = 1; sgn >= -1; sgn -= 2) {
            for (long i = 0; i < n; i++)
                for (long j = 0; j < n; j++) {
                    long v = i == j ? sgn : 0;
                    for (long p = 0; p < n / 2; p++) v += G[i * n + p] * G[j * n + p]; /* rank n/2 */
                    mpfi_set_si(dvc_imat_entry(B, i, j), v);
                }
            dvc_status sb = dvc_imat_cholesky_spd(B);
            if (sgn == 1)
                CHECK(sb == DVC_OK, "n=60 SPD (rank-30 Gram + I) not proven: %s", dvc_error_message());
            else
                CHECK(sb == DVC_NOT_CERTIFIED, "n=60 indefinite (rank-30 Gram - I) proven");
        }
        free(G);
        dvc_imat_clear(B);
    }
    /* Nearly singular SPD: [[1, 1], [1, 1 + 2^-40]] (eigenvalue ~ 2^-41). */
    dvc_imat_init2(A, 2, 2, prec);
    double ns2[] = {1, 1, 1, 1 + 0x1p-40};
    dvc_imat_set_d(A, ns2);
    CHECK(dvc_imat_cholesky_spd(A) == DVC_OK, "[[1,1],[1,1+2^-40]] not proven");
    double ns3[] = {1, 1, 1, 1 - 0x1p-40};
    dvc_imat_set_d(A, ns3);
    CHECK(dvc_imat_cholesky_spd(A) == DVC_NOT_CERTIFIED, "[[1,1],[1,1-2^-40]] proven");
    dvc_imat_clear(A);
}

/* Directed rounding must be in effect: for 3 x = 1, the floating residual
 * 1 - 3 fl(1/3) rounds to 0 in round-to-nearest, which would give the
 * point fl(1/3) != 1/3. The enclosure must contain 1/3 and be one or two
 * ulps wide. Likewise 10 x = 1. */
static void test_directed_rounding(void)
{
    static const long den[] = {3, 10, 7, 49};
    for (int t = 0; t < 4; t++) {
        dvc_imat_t A;
        dvc_ivec_t b, x;
        mpq_t q;
        dvc_imat_init2(A, 1, 1, 53);
        dvc_ivec_init2(b, 1, 53);
        dvc_ivec_init2(x, 1, 53);
        mpfi_set_si(A->e[0], den[t]);
        mpfi_set_si(b->e[0], 1);
        mpq_init(q);
        mpq_set_si(q, 1, (unsigned long)den[t]);
        CHECK(dvc_imat_solve(x, A, b) == DVC_OK, "1/%ld", den[t]);
        CHECK(ref_contains_q(x->e[0], q), "1/%ld outside its enclosure", den[t]);
        CHECK(!mpfr_equal_p(&x->e[0]->left, &x->e[0]->right), "1/%ld enclosed by a point", den[t]);
        CHECK(rel_width(x->e[0], 1.0 / (double)den[t]) < 1e-15, "1/%ld: width", den[t]);
        mpq_clear(q);
        dvc_imat_clear(A);
        dvc_ivec_clear(b);
        dvc_ivec_clear(x);
    }
}

/* x at 113 bits while A, b are at 53: the MPFI path follows the output. */
static void test_mixed_precision(void)
{
    dvc_imat_t A;
    dvc_ivec_t b, x;
    dvc_imat_init2(A, 2, 2, 53);
    dvc_ivec_init2(b, 2, 53);
    dvc_ivec_init2(x, 2, 113);
    double a[] = {3, 1, 1, 3};
    dvc_imat_set_d(A, a);
    mpfi_set_ui(b->e[0], 1);
    mpfi_set_ui(b->e[1], 0);
    CHECK(dvc_imat_solve(x, A, b) == DVC_OK, "mixed precision solve");
    /* x = (3/8, -1/8) exactly */
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, 3, 8);
    CHECK(ref_contains_q(x->e[0], q), "x0");
    CHECK(rel_width(x->e[0], 1) < 1e-30, "x0 width %g at 113 bits", rel_width(x->e[0], 1));
    mpq_set_si(q, -1, 8);
    CHECK(ref_contains_q(x->e[1], q), "x1");
    mpq_clear(q);
    dvc_imat_clear(A);
    dvc_ivec_clear(b);
    dvc_ivec_clear(x);
}

/* Extreme scales: A = 2^sa Aint, b = 2^sb bint, so x = 2^(sb-sa) x_int
 * exactly; 2^+-2000 leaves the binary64 range (MPFI path at 53 bits). */
static void test_scaled(unsigned long long seed)
{
    static const long scales[][2] = {{-1000, -900}, {1000, 1000}, {-1060, -1060}, {2000, 2100},
                                     {-2000, -1950}, {0, 0}, {-965, -900}, {950, 960}};
    check_rng rng = {seed};
    for (int sc = 0; sc < (int)(sizeof scales / sizeof scales[0]); sc++)
        for (int cs = 0; cs < 10; cs++) {
            long n = check_rng_int(&rng, 1, 8), sa = scales[sc][0], sb = scales[sc][1];
            qsys s;
            qsys_init(&s, n, 53);
            for (long q = 0; q < n * n; q++) {
                long v = check_rng_int(&rng, -9, 9) + (q / n == q % n ? 30 : 0);
                mpq_set_si(s.Aq[q], v, 1);
                mpfi_set_si(s.A->e[q], v);
                mpfi_mul_2si(s.A->e[q], s.A->e[q], sa);
            }
            for (long i = 0; i < n; i++) {
                long v = check_rng_int(&rng, -50, 50);
                mpq_set_si(s.bq[i], v, 1);
                mpfi_set_si(s.b->e[i], v);
                mpfi_mul_2si(s.b->e[i], s.b->e[i], sb);
            }
            REQUIRE(ref_q_solve(s.xq, s.Aq, s.bq, n, 1), "reference singular");
            dvc_status st = dvc_imat_solve(s.x, s.A, s.b);
            CHECK(check_rounding_nearest(), "rounding mode not restored");
            CHECK(st == DVC_OK, "scale %ld: not certified: %s", sa, dvc_error_message());
            if (st == DVC_OK) {
                int in = 1;
                mpq_t t;
                mpq_init(t);
                for (long i = 0; i < n; i++) {
                    mpq_set(t, s.xq[i]);
                    if (sb - sa >= 0)
                        mpq_mul_2exp(t, t, (mp_bitcnt_t)(sb - sa));
                    else
                        mpq_div_2exp(t, t, (mp_bitcnt_t)(sa - sb));
                    in &= ref_contains_q(s.x->e[i], t);
                }
                mpq_clear(t);
                CHECK(in, "scale (%ld, %ld) case %d: exact solution outside", sa, sb, cs);
            }
            qsys_clear(&s);
        }
}

/* ---- the LU-factor kernel of dvc_imat_solve (one right-hand side) ------- */

/* A random n x n double system of family fam, into a (row-major) and b:
 *  0: uniform [-1, 1] plus a diagonal shift (well conditioned),
 *  1: uniform [-1, 1] (condition up to about 1e3 n),
 *  2: rank one plus 10^-k noise, k in 0..16 (condition about 10^k),
 *  3: rows scaled by 2^-30..2^30, columns by 2^-4..2^4 (badly scaled),
 *  4: Hilbert-like 1/(i+j+1) rounded, plus 2^-40 noise (ill conditioned). */
static void lu_family(double *a, double *b, long n, int fam, check_rng *rng)
{
    double eps = pow(10.0, -(double)check_rng_int(rng, 0, 16));
    double *u = malloc((size_t)(2 * n) * sizeof(double)), *v = u + n;
    for (long i = 0; i < n; i++) {
        u[i] = check_rng_unif(rng, -1, 1);
        v[i] = ldexp(1.0, (int)check_rng_int(rng, -30, 30));
        u[i] = fam == 3 ? ldexp(1.0, (int)check_rng_int(rng, -4, 4)) : u[i];
    }
    for (long i = 0; i < n; i++) {
        for (long j = 0; j < n; j++) {
            double r = check_rng_unif(rng, -1, 1), x;
            switch (fam) {
            case 0: x = r + (i == j ? 2.0 + 0.25 * (double)n : 0); break;
            case 1: x = r; break;
            case 2: x = u[i] * u[(j + 1) % n] + eps * r; break;
            case 3: x = (r + (i == j ? 0.5 * (double)n : 0)) * v[i] * u[j]; break;
            default: x = 1.0 / (double)(i + j + 1) + 0x1p-40 * r; break;
            }
            a[i * n + j] = x;
        }
        b[i] = check_rng_unif(rng, -10, 10);
    }
    free(u);
}

/* Exact solution of the double system (a, b) in xq; 0 when singular. */
static int exact_solve_d(mpq_t *xq, const double *a, const double *b, long n)
{
    mpq_t *Aq = malloc((size_t)(n * n) * sizeof(mpq_t)), *bq = malloc((size_t)n * sizeof(mpq_t));
    for (long q = 0; q < n * n; q++) {
        mpq_init(Aq[q]);
        mpq_set_d(Aq[q], a[q]);
    }
    for (long i = 0; i < n; i++) {
        mpq_init(bq[i]);
        mpq_set_d(bq[i], b[i]);
    }
    int reg = ref_q_solve(xq, Aq, bq, n, 1);
    for (long q = 0; q < n * n; q++) mpq_clear(Aq[q]);
    for (long i = 0; i < n; i++) mpq_clear(bq[i]);
    free(Aq);
    free(bq);
    return reg;
}

static int dd_contains_q(double lo, double hi, const mpq_t q)
{
    mpq_t t;
    int in;
    mpq_init(t);
    mpq_set_d(t, lo);
    in = mpq_cmp(t, q) <= 0;
    mpq_set_d(t, hi);
    in &= mpq_cmp(t, q) >= 0;
    mpq_clear(t);
    return in;
}

/* Seeded random double systems of every family, point and interval (A
 * within a relative radius 2^-40 of the point matrix, whose exact rational
 * solution the enclosure must then hold): the LU kernel's enclosure
 * contains the exact solution; dvc_imat_solve returns it for point systems
 * (and otherwise the explicit inverse's enclosure, or a refusal with a
 * message); the kernel proves all well-conditioned systems, with widths
 * mostly below the explicit inverse's. */
static void test_lu_kernel(int cases, unsigned long long seed)
{
    check_rng rng = {seed};
    int proved[5] = {0}, tried[5] = {0}, fallback = 0, refused = 0;
    double wratio_max = 0, wratio_sum = 0;
    long nw = 0;
    for (int cs = 0; cs < cases; cs++) {
        int fam = (int)(cs % 5);
        long n = cs % 11 == 0 ? check_rng_int(&rng, 25, 32) : check_rng_int(&rng, 1, 14);
        int interval = cs % 3 == 0;
        double *a = malloc((size_t)(n * n) * sizeof(double)), *b = malloc((size_t)n * sizeof(double));
        double *alo = malloc((size_t)(2 * n * n) * sizeof(double)), *ahi = alo + n * n;
        double *x = malloc((size_t)(4 * n) * sizeof(double)), *xlo = x, *xhi = x + n, *ylo = x + 2 * n,
               *yhi = x + 3 * n, c = 0, c2 = 0;
        mpq_t *xq = malloc((size_t)n * sizeof(mpq_t));
        for (long i = 0; i < n; i++) mpq_init(xq[i]);
        lu_family(a, b, n, fam, &rng);
        for (long q = 0; q < n * n; q++) {
            double r = interval ? 0x1p-40 * fabs(a[q]) : 0;
            alo[q] = a[q] - r; /* a is inside: exact enough for a test, and checked */
            ahi[q] = a[q] + r;
            if (!(alo[q] <= a[q] && a[q] <= ahi[q])) alo[q] = ahi[q] = a[q];
        }
        int reg = exact_solve_d(xq, a, b, n);
        int r = dvc_fp_solve_lu_(n, alo, ahi, b, b, xlo, xhi, &c);
        CHECK(check_rounding_nearest(), "kernel: rounding mode not restored");
        tried[fam]++;
        if (r == DVC_FP_OK) {
            proved[fam]++;
            CHECK(reg, "case %d (family %d, n = %ld): LU kernel proved a singular matrix", cs, fam, n);
            CHECK(c < 1, "case %d: proved with c = %g", cs, c);
            int in = 1;
            for (long i = 0; i < n && reg; i++) in &= dd_contains_q(xlo[i], xhi[i], xq[i]);
            CHECK(in, "case %d (family %d, n = %ld, %s): exact solution outside the LU kernel's enclosure",
                  cs, fam, n, interval ? "interval" : "point");
            /* against the explicit-inverse kernel (point systems: the only
             * ones dvc_imat_solve hands to the LU kernel) */
            if (!interval && dvc_fp_verify_solve(n, 1, alo, ahi, b, b, ylo, yhi, &c2) == DVC_FP_OK)
                for (long i = 0; i < n; i++) {
                    double w1 = xhi[i] - xlo[i], w2 = yhi[i] - ylo[i];
                    if (w2 > 0) {
                        wratio_max = fmax(wratio_max, w1 / w2);
                        wratio_sum += w1 / w2;
                        nw++;
                    }
                }
        } else {
            CHECK(r == DVC_FP_SINGULAR || r == DVC_FP_NOCONTRACT || r == DVC_FP_NONFINITE,
                  "case %d: kernel status %d", cs, r);
        }
        /* the public solve: the kernel's enclosure when it proves */
        dvc_imat_t A;
        dvc_ivec_t vb, vx;
        dvc_imat_init2(A, n, n, 53);
        dvc_ivec_init2(vb, n, 53);
        dvc_ivec_init2(vx, n, 53);
        for (long q = 0; q < n * n; q++) dvc_ival_set_dd(A->e[q], alo[q], ahi[q]);
        dvc_ivec_set_d(vb, b);
        dvc_error_reset();
        dvc_status st = dvc_imat_solve(vx, A, vb);
        if (r == DVC_FP_OK && !interval) {
            int same = st == DVC_OK;
            for (long i = 0; i < n && same; i++)
                same = mpfr_cmp_d(&vx->e[i]->left, xlo[i]) == 0 && mpfr_cmp_d(&vx->e[i]->right, xhi[i]) == 0;
            CHECK(same, "case %d: dvc_imat_solve does not return the LU kernel's enclosure", cs);
        } else if (st == DVC_OK) {
            fallback += r != DVC_FP_OK;
            int in = 1;
            for (long i = 0; i < n && reg; i++) in &= ref_contains_q(vx->e[i], xq[i]);
            CHECK(reg && in, "case %d (family %d, n = %ld): fallback enclosure misses the exact solution",
                  cs, fam, n);
        } else {
            refused++;
            CHECK(st == DVC_NOT_CERTIFIED && strlen(dvc_error_message()) > 10,
                  "case %d: status %d, message '%s'", cs, (int)st, dvc_error_message());
        }
        dvc_imat_clear(A);
        dvc_ivec_clear(vb);
        dvc_ivec_clear(vx);
        for (long i = 0; i < n; i++) mpq_clear(xq[i]);
        free(xq);
        free(a);
        free(b);
        free(alo);
        free(x);
    }
    printf("LU kernel: proved %d/%d well conditioned, %d/%d uniform, %d/%d rank one + noise, %d/%d "
           "graded, %d/%d Hilbert-like; %d by the explicit inverse, %d refused; width / explicit "
           "inverse's: mean %.2f, max %.2f\n",
           proved[0], tried[0], proved[1], tried[1], proved[2], tried[2], proved[3], tried[3],
           proved[4], tried[4], fallback, refused, nw ? wratio_sum / (double)nw : 0, wratio_max);
    CHECK(proved[0] == tried[0], "LU kernel: only %d of %d well-conditioned systems proved", proved[0],
          tried[0]);
    CHECK(proved[1] >= tried[1] * 9 / 10, "LU kernel: only %d of %d uniform systems proved", proved[1],
          tried[1]);
    CHECK(proved[3] >= tried[3] * 9 / 10, "LU kernel: only %d of %d graded systems proved", proved[3],
          tried[3]);
    CHECK(fallback > 0, "no system needed the explicit-inverse fallback");
    CHECK(refused > 0, "no system was refused");
    /* the error-free residual makes the enclosures narrower on average
     * (with a directed-rounding residual the mean ratio was above 1.5) */
    CHECK(nw > 0 && wratio_sum / (double)nw < 0.5 && wratio_max < 16.0,
          "LU kernel widths: mean ratio %.2f, max %.2f against the explicit inverse",
          nw ? wratio_sum / (double)nw : 0, wratio_max);
}

/* The kernel's proof assumes no underflow, overflow or invalid operation
 * in its round-to-nearest part: a system whose elimination underflows
 * (2^-600 * 2^-600) must be declined by the kernel and proved by the
 * explicit inverse; singular systems are refused; the caller's sticky
 * flags survive. */
static void test_lu_kernel_edges(void)
{
    double a[4] = {1, 0x1p-600, 0x1p-600, 1}, b[2] = {1, 3}, xlo[3], xhi[3], c;
    mpq_t xq[2];
    mpq_inits(xq[0], xq[1], (mpq_ptr)0);
    REQUIRE(exact_solve_d(xq, a, b, 2), "reference");
    feclearexcept(FE_ALL_EXCEPT);
    int r = dvc_fp_solve_lu_(2, a, a, b, b, xlo, xhi, &c);
    CHECK(r == DVC_FP_NONFINITE, "underflow in the elimination not caught (status %d)", r);
    dvc_imat_t A;
    dvc_ivec_t vb, vx;
    dvc_imat_init2(A, 2, 2, 53);
    dvc_ivec_init2(vb, 2, 53);
    dvc_ivec_init2(vx, 2, 53);
    dvc_imat_set_d(A, a);
    dvc_ivec_set_d(vb, b);
    CHECK(dvc_imat_solve(vx, A, vb) == DVC_OK, "underflowing system not proved by the fallback");
    CHECK(ref_contains_q(vx->e[0], xq[0]) && ref_contains_q(vx->e[1], xq[1]), "underflow system: outside");
    /* the caller's flags are kept */
    feraiseexcept(FE_UNDERFLOW);
    double w[4] = {2, 1, 1, 3};
    r = dvc_fp_solve_lu_(2, w, w, b, b, xlo, xhi, &c);
    CHECK(r == DVC_FP_OK, "2 x 2 not proved");
    CHECK(fetestexcept(FE_UNDERFLOW), "caller's underflow flag cleared");
    feclearexcept(FE_ALL_EXCEPT);
    /* singular: repeated row, zero column, 3 x 3 of rank 2 */
    double s1[4] = {1, 2, 1, 2}, s2[4] = {0, 1, 0, 2}, s3[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    double b3[3] = {1, 1, 1};
    CHECK(dvc_fp_solve_lu_(2, s1, s1, b, b, xlo, xhi, &c) != DVC_FP_OK, "singular (repeated row) proved");
    CHECK(dvc_fp_solve_lu_(2, s2, s2, b, b, xlo, xhi, &c) == DVC_FP_SINGULAR, "zero column: not singular");
    r = dvc_fp_solve_lu_(3, s3, s3, b3, b3, xlo, xhi, &c);
    CHECK(r != DVC_FP_OK, "rank-2 3 x 3 proved");
    dvc_imat_clear(A);
    dvc_ivec_clear(vb);
    dvc_ivec_clear(vx);
    mpq_clears(xq[0], xq[1], (mpq_ptr)0);
}

/* dvc_imat_inv reads a binary64 matrix straight into the explicit-inverse
 * kernel (no temporary MPFI matrices): its enclosure must be bit for bit
 * that of dvc_imat_solve_mat(X, A, I), which goes the general way, for
 * point and interval matrices, at 53 and 24 bits, and when X is A. */
static void test_inv_direct(int cases, unsigned long long seed)
{
    check_rng rng = {seed};
    int same = 0;
    for (int cs = 0; cs < cases; cs++) {
        long n = check_rng_int(&rng, 1, 12);
        mpfr_prec_t p = cs % 4 == 3 ? 24 : 53;
        dvc_imat_t A, X, Y, I;
        dvc_imat_init2(A, n, n, 53);
        dvc_imat_init2(X, n, n, p);
        dvc_imat_init2(Y, n, n, p);
        dvc_imat_init2(I, n, n, 53);
        dvc_imat_one(I);
        for (long q = 0; q < n * n; q++) {
            double v = check_rng_unif(&rng, -1, 1) + (q / n == q % n ? 0.3 * (double)n : 0);
            double r = cs % 3 == 0 ? 1e-9 * fabs(v) : 0;
            dvc_ival_set_dd(A->e[q], v - r, v + r);
        }
        dvc_status s1 = dvc_imat_inv(X, A), s2 = dvc_imat_solve_mat(Y, A, I);
        int eq = s1 == s2;
        for (long q = 0; q < n * n && eq && s1 == DVC_OK; q++)
            eq = mpfr_equal_p(&X->e[q]->left, &Y->e[q]->left) &&
                 mpfr_equal_p(&X->e[q]->right, &Y->e[q]->right) &&
                 mpfr_signbit(&X->e[q]->left) == mpfr_signbit(&Y->e[q]->left) &&
                 mpfr_signbit(&X->e[q]->right) == mpfr_signbit(&Y->e[q]->right);
        CHECK(eq, "case %d (n = %ld, %ld bits): dvc_imat_inv differs from dvc_imat_solve_mat(A, I)", cs,
              n, (long)p);
        if (p == 53 && s1 == DVC_OK) { /* in place */
            dvc_imat_set(X, A);
            CHECK(dvc_imat_inv(X, X) == DVC_OK, "case %d: in-place inverse", cs);
            for (long q = 0; q < n * n && eq; q++)
                eq = mpfr_equal_p(&X->e[q]->left, &Y->e[q]->left) &&
                     mpfr_equal_p(&X->e[q]->right, &Y->e[q]->right);
            CHECK(eq, "case %d: in-place inverse differs", cs);
        }
        same += eq && s1 == DVC_OK;
        dvc_imat_clear(A);
        dvc_imat_clear(X);
        dvc_imat_clear(Y);
        dvc_imat_clear(I);
    }
    CHECK(same >= cases * 9 / 10, "only %d of %d inverses certified and compared", same, cases);
}

int main(void)
{
    test_random_integer(53, 400, 12, 1);
    test_random_integer(113, 150, 12, 2);
    test_random_integer(53, 6, 32, 3);
    test_width(53, 1e-12, 4);
    test_width(113, 1e-30, 5);
    test_interval_systems(53, 60, 6);
    test_interval_systems(113, 20, 7);
    test_inverse_exact(53, 150, 8);
    test_inverse_exact(113, 50, 9);
    test_singular_and_errors();
    long h53 = test_hilbert(53), h113 = test_hilbert(113);
    CHECK(h53 >= 6 && h53 <= 14, "Hilbert limit at prec 53 is n=%ld", h53);
    CHECK(h113 > h53, "Hilbert limit at 113 (%ld) not beyond 53 (%ld)", h113, h53);
    printf("Hilbert: certified up to n=%ld at 53 bits, n=%ld at 113 bits\n", h53, h113);
    test_cholesky(53, 300, 10);
    test_cholesky(113, 100, 11);
    test_mixed_precision();
    test_directed_rounding();
    test_scaled(12);
    test_lu_kernel(1500, 13);
    test_lu_kernel_edges();
    test_inv_direct(200, 14);
    return check_report();
}
