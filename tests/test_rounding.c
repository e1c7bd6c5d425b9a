/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* One rounding policy: every public entry point that switches the FPU
 * rounding mode hands the caller's mode back, and its results do not depend
 * on that mode. Each function is called with the caller's mode set to
 * FE_TONEAREST, FE_UPWARD, FE_DOWNWARD and FE_TOWARDZERO; after each call
 * the mode must be unchanged, the enclosure must contain the exact answer
 * (GMP rationals, tests/ref_exact.h), and its endpoints must equal those
 * computed under FE_TONEAREST (the predictors run in round-to-nearest
 * whatever the caller's mode). */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"
#include "rounding.h"
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

static const int modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
static const char *const mode_names[] = {"nearest", "upward", "downward", "toward zero"};
#define NMODES 4

/* The rounding mode binary64 and long double additions follow, probed by
 * arithmetic (1 + tiny and -1 - tiny tell the four modes apart); -1 when
 * the result is none of them. */
static int probe_mode(double p, double q, double one_up)
{
    if (p == 1.0 && q == -1.0) return -2; /* nearest or toward zero: caller splits */
    if (p == one_up && q == -1.0) return FE_UPWARD;
    if (p == 1.0 && q == -one_up) return FE_DOWNWARD;
    return -1;
}

static int sse_mode(void)
{
    volatile double a = 1.0, b = 0x1p-60, c = 0x1p-53, p, q, r;
    p = a + b;
    q = -a - b;
    r = a + c * 1.5; /* 1 + 0.75 ulp: nearest rounds up, toward zero down */
    int m = probe_mode(p, q, 1.0 + 0x1p-52);
    if (m == -2) m = r == 1.0 + 0x1p-52 ? FE_TONEAREST : r == 1.0 ? FE_TOWARDZERO : -1;
    return m;
}

static int x87_mode(void)
{
    volatile long double a = 1.0L, b = 0x1p-70L, c = 0x1p-64L, p, q, r;
    p = a + b;
    q = -a - b;
    r = a + c * 1.5L;
    long double up = 1.0L + 0x1p-63L;
    int m;
    if (p == 1.0L && q == -1.0L) m = r == up ? FE_TONEAREST : r == 1.0L ? FE_TOWARDZERO : -1;
    else if (p == up && q == -1.0L) m = FE_UPWARD;
    else if (p == 1.0L && q == -up) m = FE_DOWNWARD;
    else m = -1;
    return m;
}

/* The binary64 mode as the hardware has it: MXCSR on x86-64 (glibc's
 * fegetround reads the x87 control word only), fegetround elsewhere. */
static int sse_reg_mode(void)
{
#if defined(__x86_64__)
    return (int)((_mm_getcsr() >> 3) & 0xc00);
#else
    return fegetround();
#endif
}

/* Call under `mode`, then check that the mode survived (in the binary64
 * unit and, through fegetround, the x87 one) and go back to
 * round-to-nearest for the test's own arithmetic. */
#define UNDER(mode, what, call)                                                           \
    do {                                                                                  \
        int got_, gots_;                                                                  \
        fesetround(mode);                                                                 \
        call;                                                                             \
        got_ = fegetround();                                                              \
        gots_ = sse_reg_mode();                                                           \
        fesetround(FE_TONEAREST);                                                         \
        CHECK(got_ == (mode) && gots_ == (mode),                                          \
              "%s changed the caller's rounding mode (%s)", what, mode_names[mi]);        \
    } while (0)

static int same_ival(const mpfi_t a, const mpfi_t b)
{
    return mpfr_equal_p(&a->left, &b->left) && mpfr_equal_p(&a->right, &b->right);
}

static int same_ivec(const dvc_ivec_t a, const dvc_ivec_t b)
{
    if (a->n != b->n) return 0;
    for (long i = 0; i < a->n; i++)
        if (!same_ival(a->e[i], b->e[i])) return 0;
    return 1;
}

static int same_imat(const dvc_imat_t a, const dvc_imat_t b)
{
    if (a->r != b->r || a->c != b->c) return 0;
    for (long t = 0; t < a->r * a->c; t++)
        if (!same_ival(a->e[t], b->e[t])) return 0;
    return 1;
}

/* Diagonally dominant integer matrix (exact in binary64). */
static void gen_int_matrix(long *A, long n, check_rng *r)
{
    for (long i = 0; i < n; i++) {
        long s = 0;
        for (long j = 0; j < n; j++)
            if (j != i) {
                A[i * n + j] = (long)(check_rng_next(r) % 9) - 4;
                s += labs(A[i * n + j]);
            }
        A[i * n + i] = s + 1 + (long)(check_rng_next(r) % 3);
    }
}

/* ---- verified solve, inverse, Cholesky ----------------------------------- */

static void test_solve(long n, mpfr_prec_t prec, unsigned long long seed)
{
    check_rng r = {seed};
    long *A = malloc(sizeof(long) * (size_t)(n * n)), *x = malloc(sizeof(long) * (size_t)n);
    dvc_imat_t M;
    dvc_ivec_t b, ref, y;
    gen_int_matrix(A, n, &r);
    for (long i = 0; i < n; i++) x[i] = (long)(check_rng_next(&r) % 21) - 10;
    dvc_imat_init2(M, n, n, prec);
    dvc_ivec_init2(b, n, prec);
    dvc_ivec_init2(ref, n, prec);
    dvc_ivec_init2(y, n, prec);
    for (long i = 0; i < n; i++) {
        long s = 0;
        for (long j = 0; j < n; j++) {
            mpfi_set_si(dvc_imat_entry(M, i, j), A[i * n + j]);
            s += A[i * n + j] * x[j];
        }
        mpfi_set_si(b->e[i], s); /* b = A x exactly: the solution is x */
    }
    for (int mi = 0; mi < NMODES; mi++) {
        dvc_status st = DVC_ERR_INPUT;
        UNDER(modes[mi], "dvc_imat_solve", st = dvc_imat_solve(y, M, b));
        CHECK(st == DVC_OK, "solve n = %ld prec %ld (%s): %s", n, (long)prec, mode_names[mi],
              dvc_error_message());
        for (long i = 0; i < n; i++)
            CHECK(ref_contains_si(y->e[i], x[i], 1), "solve n = %ld (%s): x[%ld] = %ld not enclosed",
                  n, mode_names[mi], i, x[i]);
        if (mi == 0) dvc_ivec_set(ref, y);
        else CHECK(same_ivec(ref, y), "solve n = %ld prec %ld: enclosure differs under %s", n,
                   (long)prec, mode_names[mi]);
    }
    dvc_imat_clear(M);
    dvc_ivec_clear(b);
    dvc_ivec_clear(ref);
    dvc_ivec_clear(y);
    free(A);
    free(x);
}

static void test_inv_cholesky(void)
{
    check_rng r = {77};
    long n = 7, A[49];
    mpq_t Q[49];
    dvc_imat_t M, X, X0, T;
    gen_int_matrix(A, n, &r);
    dvc_imat_init2(M, n, n, 53);
    dvc_imat_init2(X, n, n, 53);
    dvc_imat_init2(X0, n, n, 53);
    for (long t = 0; t < n * n; t++) {
        mpq_init(Q[t]);
        mpq_set_si(Q[t], A[t], 1);
        mpfi_set_si(M->e[t], A[t]);
    }
    REQUIRE(ref_q_inverse(Q, n), "reference inverse");
    for (int mi = 0; mi < NMODES; mi++) {
        dvc_status st = DVC_ERR_INPUT;
        int in = 1;
        UNDER(modes[mi], "dvc_imat_inv", st = dvc_imat_inv(X, M));
        CHECK(st == DVC_OK, "inverse (%s)", mode_names[mi]);
        for (long t = 0; t < n * n; t++) in = in && ref_contains_q(X->e[t], Q[t]);
        CHECK(in, "inverse (%s) encloses the exact inverse", mode_names[mi]);
        if (mi == 0) dvc_imat_set(X0, X);
        else CHECK(same_imat(X0, X), "inverse differs under %s", mode_names[mi]);
    }
    for (long t = 0; t < n * n; t++) mpq_clear(Q[t]);

    /* tridiag(-1, 2, -1) is SPD; [[1, 2], [2, 1]] is not. */
    dvc_imat_init2(T, 12, 12, 53);
    for (long i = 0; i < 12; i++) {
        mpfi_set_si(dvc_imat_entry(T, i, i), 2);
        if (i > 0) mpfi_set_si(dvc_imat_entry(T, i, i - 1), -1);
        if (i > 0) mpfi_set_si(dvc_imat_entry(T, i - 1, i), -1);
    }
    for (int mi = 0; mi < NMODES; mi++) {
        dvc_status st = DVC_ERR_INPUT;
        UNDER(modes[mi], "dvc_imat_cholesky_spd", st = dvc_imat_cholesky_spd(T));
        CHECK(st == DVC_OK, "tridiag SPD proven (%s)", mode_names[mi]);
    }
    dvc_imat_resize(T, 2, 2);
    mpfi_set_si(T->e[0], 1);
    mpfi_set_si(T->e[1], 2);
    mpfi_set_si(T->e[2], 2);
    mpfi_set_si(T->e[3], 1);
    for (int mi = 0; mi < NMODES; mi++) {
        dvc_status st = DVC_OK;
        UNDER(modes[mi], "dvc_imat_cholesky_spd", st = dvc_imat_cholesky_spd(T));
        CHECK(st == DVC_NOT_CERTIFIED, "indefinite matrix not proven SPD (%s)", mode_names[mi]);
    }
    dvc_error_reset();
    dvc_imat_clear(T);
    dvc_imat_clear(M);
    dvc_imat_clear(X);
    dvc_imat_clear(X0);
}

/* ---- matrix classes -------------------------------------------------------- */

/* A P-matrix that is neither an H-matrix nor positive definite, so that
 * the proof needs the principal-minor enumeration (minors 1, 1, 1, 9). */
static const long p_only[9] = {1, 2, 0, 0, 1, 2, 2, 0, 1};

static void set_tridiag(dvc_imat_t T, long n)
{
    dvc_imat_zero(T);
    for (long i = 0; i < n; i++) {
        mpfi_set_si(dvc_imat_entry(T, i, i), 2);
        if (i > 0) mpfi_set_si(dvc_imat_entry(T, i, i - 1), -1);
        if (i > 0) mpfi_set_si(dvc_imat_entry(T, i - 1, i), -1);
    }
}

static void test_mclass(void)
{
    dvc_imat_t T, P;
    unsigned want = DVC_MCLASS_Z | DVC_MCLASS_M | DVC_MCLASS_H | DVC_MCLASS_SYM |
                    DVC_MCLASS_SPD | DVC_MCLASS_PD | DVC_MCLASS_P;
    dvc_imat_init2(T, 10, 10, 53);
    set_tridiag(T, 10);
    dvc_imat_init2(P, 3, 3, 53);
    for (int t = 0; t < 9; t++) mpfi_set_si(P->e[t], p_only[t]);
    for (int mi = 0; mi < NMODES; mi++) {
        dvc_mclass_result res;
        dvc_status st = DVC_ERR_INPUT;
        const char *how = NULL;
        UNDER(modes[mi], "dvc_mclass_classify", st = dvc_mclass_classify(&res, T));
        CHECK(st == DVC_OK && res.proven == want, "tridiag classes (%s): proven %s",
              mode_names[mi], dvc_mclass_names(res.proven));
        UNDER(modes[mi], "dvc_mclass_classify", st = dvc_mclass_classify(&res, P));
        CHECK(st == DVC_OK && (res.proven & DVC_MCLASS_P) && !(res.proven & DVC_MCLASS_H) &&
                  !(res.proven & DVC_MCLASS_PD),
              "P-only matrix (%s): proven %s", mode_names[mi], dvc_mclass_names(res.proven));
        UNDER(modes[mi], "dvc_mclass_prove_p", st = dvc_mclass_prove_p(P, &how));
        CHECK(st == DVC_OK && how != NULL, "P proven by enumeration (%s)", mode_names[mi]);
    }
    dvc_imat_clear(T);
    dvc_imat_clear(P);
}

/* ---- beta_M / alpha_M --------------------------------------------------------- */

/* Exact beta_M and alpha_M of an integer matrix: max over nonempty J of
 * ||(M_JJ)^{-1}|| and of ||[(M_JJ)^{-1}, (M_JJ)^{-1} M_JK]|| (docs/beta.md). */
static void exact_beta_alpha(const long *M, int m, mpq_t beta, mpq_t alpha)
{
    mpq_t A[64], s, sa, t, u;
    int J[8], K[8];
    mpq_inits(s, sa, t, u, NULL);
    for (int i = 0; i < m * m; i++) mpq_init(A[i]);
    mpq_set_ui(beta, 0, 1);
    mpq_set_ui(alpha, 1, 1);
    for (unsigned mask = 1; mask < (1u << m); mask++) {
        int k = 0, nk = 0;
        for (int i = 0; i < m; i++) {
            if (mask >> i & 1) J[k++] = i;
            else K[nk++] = i;
        }
        for (int a = 0; a < k; a++)
            for (int b = 0; b < k; b++) mpq_set_si(A[a * k + b], M[J[a] * m + J[b]], 1);
        REQUIRE(ref_q_inverse(A, k), "principal submatrix singular");
        for (int a = 0; a < k; a++) {
            mpq_set_ui(s, 0, 1);
            for (int b = 0; b < k; b++) {
                mpq_abs(t, A[a * k + b]);
                mpq_add(s, s, t);
            }
            if (mpq_cmp(s, beta) > 0) mpq_set(beta, s);
            mpq_set(sa, s);
            for (int o = 0; o < nk; o++) {
                mpq_set_ui(t, 0, 1);
                for (int b = 0; b < k; b++) {
                    mpq_set_si(u, M[J[b] * m + K[o]], 1);
                    mpq_mul(u, u, A[a * k + b]);
                    mpq_add(t, t, u);
                }
                mpq_abs(t, t);
                mpq_add(sa, sa, t);
            }
            if (mpq_cmp(sa, alpha) > 0) mpq_set(alpha, sa);
        }
    }
    for (int i = 0; i < m * m; i++) mpq_clear(A[i]);
    mpq_clears(s, sa, t, u, NULL);
}

static int brackets(const dvc_beta_bound_t b, const mpq_t q)
{
    return mpfr_cmp_q(b->lo, q) <= 0 && mpfr_cmp_q(b->hi, q) >= 0;
}

static void test_beta_one(const char *name, const long *Mi, int m, double rad)
{
    static const dvc_beta_method meths[] = {DVC_BETA_AUTO, DVC_BETA_ENUM, DVC_BETA_BNB};
    static const char *const mnames[] = {"auto", "enum", "bnb"};
    dvc_imat_t M;
    mpq_t be, ae;
    mpq_inits(be, ae, NULL);
    exact_beta_alpha(Mi, m, be, ae);
    dvc_imat_init2(M, m, m, 53);
    for (int t = 0; t < m * m; t++) {
        mpfi_set_si(M->e[t], Mi[t]);
        if (rad > 0) { /* the bounds hold for every point matrix inside */
            mpfr_sub_d(&M->e[t]->left, &M->e[t]->left, rad, MPFR_RNDD);
            mpfr_add_d(&M->e[t]->right, &M->e[t]->right, rad, MPFR_RNDU);
        }
    }
    for (int k = 0; k < 3; k++) {
        dvc_beta_bound_t b0, a0;
        dvc_beta_bound_init(b0);
        dvc_beta_bound_init(a0);
        for (int mi = 0; mi < NMODES; mi++) {
            dvc_beta_bound_t b, a;
            dvc_beta_opts o;
            dvc_status st = DVC_ERR_INPUT;
            dvc_beta_opts_default(&o);
            o.method = meths[k];
            o.rel_gap = 1e-12;
            o.max_seconds = 30;
            dvc_beta_bound_init(b);
            dvc_beta_bound_init(a);
            UNDER(modes[mi], "dvc_beta_compute", st = dvc_beta_compute(b, a, M, &o));
            CHECK(st == DVC_OK, "beta %s %s (%s): %s", name, mnames[k], mode_names[mi],
                  dvc_error_message());
            CHECK(brackets(b, be), "beta %s %s (%s): [%.17g, %.17g] misses the exact beta_M %.17g",
                  name, mnames[k], mode_names[mi], mpfr_get_d(b->lo, MPFR_RNDD),
                  mpfr_get_d(b->hi, MPFR_RNDU), mpq_get_d(be));
            CHECK(brackets(a, ae), "alpha %s %s (%s): [%.17g, %.17g] misses the exact alpha_M %.17g",
                  name, mnames[k], mode_names[mi], mpfr_get_d(a->lo, MPFR_RNDD),
                  mpfr_get_d(a->hi, MPFR_RNDU), mpq_get_d(ae));
            if (mi == 0) {
                mpfr_set(b0->lo, b->lo, MPFR_RNDD);
                mpfr_set(b0->hi, b->hi, MPFR_RNDU);
                mpfr_set(a0->lo, a->lo, MPFR_RNDD);
                mpfr_set(a0->hi, a->hi, MPFR_RNDU);
            } else {
                CHECK(mpfr_equal_p(b0->lo, b->lo) && mpfr_equal_p(b0->hi, b->hi) &&
                          mpfr_equal_p(a0->lo, a->lo) && mpfr_equal_p(a0->hi, a->hi),
                      "beta %s %s: bounds differ under %s", name, mnames[k], mode_names[mi]);
            }
            dvc_beta_bound_clear(b);
            dvc_beta_bound_clear(a);
        }
        dvc_beta_bound_clear(b0);
        dvc_beta_bound_clear(a0);
    }
    dvc_imat_clear(M);
    mpq_clears(be, ae, NULL);
}

static void test_beta(void)
{
    long T[36], R[36];
    check_rng r = {4242};
    for (int i = 0; i < 36; i++) T[i] = 0;
    for (int i = 0; i < 6; i++) {
        T[i * 6 + i] = 3;
        if (i > 0) T[i * 6 + i - 1] = T[(i - 1) * 6 + i] = -1;
    }
    gen_int_matrix(R, 6, &r);
    test_beta_one("M-matrix", T, 6, 0);
    test_beta_one("P-only", p_only, 3, 0);
    test_beta_one("diag. dominant", R, 6, 0);
    test_beta_one("diag. dominant +- 2^-30", R, 6, 0x1p-30);
}

/* ---- LVI / LCP -------------------------------------------------------------- */

/* A problem with a known rational solution: pick y* and the multiplier
 * w = M y* + q with the sign pattern of the chosen active set, then set
 * q = w - M y*. kind 1 makes some active constraints degenerate (w_i = 0). */
static void test_lvi_one(long m, int kind, unsigned long long seed)
{
    check_rng r = {seed};
    long *A = malloc(sizeof(long) * (size_t)(m * m)), *y = malloc(sizeof(long) * (size_t)m);
    long *q = malloc(sizeof(long) * (size_t)m);
    dvc_imat_t M;
    dvc_ivec_t l, u, qi, y0, yr0;
    gen_int_matrix(A, m, &r);
    dvc_imat_init2(M, m, m, 53);
    dvc_ivec_init2(l, m, 53);
    dvc_ivec_init2(u, m, 53);
    dvc_ivec_init2(qi, m, 53);
    dvc_ivec_init2(y0, m, 53);
    dvc_ivec_init2(yr0, m, 53);
    for (long i = 0; i < m; i++) {
        long lo = -3, hi = 4, w;
        int a = (int)(check_rng_next(&r) % 3) - 1; /* -1 at l, +1 at u, 0 free */
        y[i] = a < 0 ? lo : a > 0 ? hi : lo + 1 + (long)(check_rng_next(&r) % 6);
        w = 1 + (long)(check_rng_next(&r) % 5);
        if (kind == 1 && i % 3 == 0) w = 0;
        q[i] = a < 0 ? w : a > 0 ? -w : 0; /* w_i >= 0 at l, <= 0 at u, 0 free */
        mpfi_set_si(l->e[i], lo);
        mpfi_set_si(u->e[i], hi);
    }
    for (long i = 0; i < m; i++) {
        for (long j = 0; j < m; j++) {
            q[i] -= A[i * m + j] * y[j];
            mpfi_set_si(dvc_imat_entry(M, i, j), A[i * m + j]);
        }
        mpfi_set_si(qi->e[i], q[i]);
    }
    for (int mi = 0; mi < NMODES; mi++) {
        dvc_lvi_solver_t s;
        dvc_lvi_result_t res;
        dvc_status st = DVC_ERR_INPUT;
        int in = 1;
        UNDER(modes[mi], "dvc_lvi_solver_init", st = dvc_lvi_solver_init(s, M, l, u));
        CHECK(st == DVC_OK, "lvi init m = %ld (%s): %s", m, mode_names[mi], dvc_error_message());
        dvc_lvi_result_init(res, m);
        UNDER(modes[mi], "dvc_lvi_solve", st = dvc_lvi_solve(res, s, qi, NULL));
        CHECK(st == DVC_OK, "lvi m = %ld kind %d (%s): %s", m, kind, mode_names[mi],
              dvc_error_message());
        for (long i = 0; i < m; i++) in = in && ref_contains_si(res->y->e[i], y[i], 1);
        CHECK(in, "lvi m = %ld kind %d (%s, route %s): exact solution not enclosed", m, kind,
              mode_names[mi], dvc_lvi_route_name(res->route));
        if (mi == 0) dvc_ivec_set(y0, res->y);
        else CHECK(same_ivec(y0, res->y), "lvi m = %ld kind %d: enclosure differs under %s", m,
                   kind, mode_names[mi]);
        if (kind == 1) {
            /* No vertex solves allowed: the degenerate kinks force the
             * residual route, which needs the alpha_M bound (beta module). */
            s->vertex_max = 0;
            UNDER(modes[mi], "dvc_lvi_solve", st = dvc_lvi_solve(res, s, qi, NULL));
            CHECK(st == DVC_OK, "lvi residual m = %ld (%s): %s", m, mode_names[mi], dvc_error_message());
            CHECK(res->route == DVC_LVI_ROUTE_RESIDUAL, "residual route taken (%s)",
                  dvc_lvi_route_name(res->route));
            in = 1;
            for (long i = 0; i < m; i++) in = in && ref_contains_si(res->y->e[i], y[i], 1);
            CHECK(in, "lvi residual m = %ld (%s): exact solution not enclosed", m, mode_names[mi]);
            if (mi == 0) dvc_ivec_set(yr0, res->y);
            else CHECK(same_ivec(yr0, res->y), "residual route: enclosure differs under %s",
                       mode_names[mi]);
        }
        dvc_lvi_result_clear(res);
        dvc_lvi_solver_clear(s);
    }
    {
        /* The floating predictor alone: the same point in every mode. */
        double *Md = malloc(sizeof(double) * (size_t)(m * m)), *qd = malloc(sizeof(double) * (size_t)m);
        double *ld = malloc(sizeof(double) * (size_t)m), *ud = malloc(sizeof(double) * (size_t)m);
        double *p0 = malloc(sizeof(double) * (size_t)m), *p = malloc(sizeof(double) * (size_t)m);
        for (long t = 0; t < m * m; t++) Md[t] = (double)A[t];
        for (long i = 0; i < m; i++) {
            qd[i] = (double)q[i];
            ld[i] = -3;
            ud[i] = 4;
        }
        for (int mi = 0; mi < NMODES; mi++) {
            dvc_status st = DVC_ERR_INPUT;
            UNDER(modes[mi], "dvc_lvi_predict", st = dvc_lvi_predict(mi ? p : p0, Md, qd, ld, ud, m));
            CHECK(st == DVC_OK, "predictor (%s)", mode_names[mi]);
            if (mi) CHECK(memcmp(p, p0, sizeof(double) * (size_t)m) == 0,
                          "predictor differs under %s", mode_names[mi]);
        }
        free(Md);
        free(qd);
        free(ld);
        free(ud);
        free(p0);
        free(p);
    }
    dvc_imat_clear(M);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
    dvc_ivec_clear(qi);
    dvc_ivec_clear(y0);
    dvc_ivec_clear(yr0);
    free(A);
    free(y);
    free(q);
}

/* The scalar midpoint (a predictor) is the round-to-nearest one in every mode. */
static void test_mid(void)
{
    mpfi_t x;
    mpfi_init2(x, 53);
    mpfi_interv_d(x, 1.0, 1.0 + 0x1p-52); /* midpoint is a tie: nearest-even gives 1 */
    for (int mi = 0; mi < NMODES; mi++) {
        double d = 0;
        UNDER(modes[mi], "dvc_ival_mid_d", d = dvc_ival_mid_d(x));
        CHECK(d == 1.0, "mid of [1, 1 + 2^-52] under %s is %a", mode_names[mi], d);
    }
    mpfi_clear(x);
}

/* src/rounding.h itself: each of the four modes is set, seen by the
 * arithmetic, and the caller's mode comes back, for binary64 (dvc_rnd_*)
 * and for binary64 and x87 long double together (dvc_rnd_*_ext); the
 * binary64 family leaves the x87 unit alone where it switches MXCSR
 * directly. Every caller mode (the same in both units, and on x86-64 a
 * different one in each) against every target mode. */
static void test_helper(void)
{
    int x87 = sizeof(long double) > sizeof(double) && LDBL_MANT_DIG == 64;
    CHECK(sse_mode() == FE_TONEAREST, "the test starts in round-to-nearest");
    for (int ci = 0; ci < NMODES; ci++)
        for (int xi = 0; xi < NMODES; xi++)
            for (int ti = 0; ti < NMODES; ti++) {
                int cs = modes[ci], cx = modes[xi], t = modes[ti], saved, s, x;
#if defined(__x86_64__)
                /* the caller: cs in SSE, cx in x87 */
                fesetround(cx);
                _mm_setcsr((_mm_getcsr() & ~0x6000u) | ((unsigned)cs << 3));
#else
                if (xi != ci) continue;
                fesetround(cs);
#endif
                saved = dvc_rnd_save();
                dvc_rnd_set(t);
                s = sse_mode();
                x = x87_mode();
                dvc_rnd_restore(saved);
                CHECK(s == t, "dvc_rnd_set(%s): binary64 rounds %s", mode_names[ti],
                      s < 0 ? "in no mode" : mode_names[s == FE_TONEAREST ? 0 : s == FE_UPWARD ? 1
                                                       : s == FE_DOWNWARD ? 2 : 3]);
#ifdef DVC_RND_DIRECT
                if (x87) CHECK(x == cx, "dvc_rnd_set(%s) changed the x87 mode (caller %s)", mode_names[ti],
                               mode_names[xi]);
#endif
                CHECK(sse_mode() == cs && sse_reg_mode() == cs,
                      "dvc_rnd_restore: binary64 mode not the caller's %s", mode_names[ci]);
                if (x87) CHECK(x87_mode() == cx, "dvc_rnd_restore: x87 mode not the caller's %s", mode_names[xi]);

                saved = dvc_rnd_save_ext();
                dvc_rnd_set_ext(t);
                s = sse_mode();
                x = x87_mode();
                dvc_rnd_restore_ext(saved);
                CHECK(s == t, "dvc_rnd_set_ext(%s): binary64 mode wrong (caller %s/%s)", mode_names[ti],
                      mode_names[ci], mode_names[xi]);
                if (x87) CHECK(x == t, "dvc_rnd_set_ext(%s): x87 mode wrong (caller %s/%s)", mode_names[ti],
                               mode_names[ci], mode_names[xi]);
                CHECK(sse_mode() == cs && sse_reg_mode() == cs,
                      "dvc_rnd_restore_ext: binary64 mode not the caller's %s", mode_names[ci]);
                if (x87) CHECK(x87_mode() == cx && fegetround() == cx,
                               "dvc_rnd_restore_ext: x87 mode not the caller's %s", mode_names[xi]);
                fesetround(FE_TONEAREST);
            }
    CHECK(sse_mode() == FE_TONEAREST && (!x87 || x87_mode() == FE_TONEAREST), "back to round-to-nearest");
}

int main(void)
{
    test_helper();
    test_mid();
    test_solve(5, 53, 1);
    test_solve(40, 53, 2);
    test_solve(9, 113, 3);
    test_inv_cholesky();
    test_mclass();
    test_beta();
    for (int k = 0; k < 6; k++) test_lvi_one(3 + k, k % 2, 100 + (unsigned long long)k);
    test_lvi_one(30, 0, 999);
    return check_report();
}
