/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Budgets of the long computations of beta: options without a finite
 * positive time budget are refused; the vertex enumeration and the
 * branch-and-bound stop at the budget with bounds that are still proven
 * (checked against the closed form beta_M = ||M^{-1}|| of an M-matrix);
 * progress is reported; oversized matrices are refused before any work
 * (beta and the LVI solver). */
#include <math.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "dvicert/dvicert.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    long calls, finals;
    double last_done, last_total;
} prog_t;

static void on_progress(const dvc_beta_progress *p, void *data)
{
    prog_t *g = data;
    g->calls++;
    g->finals += p->final;
    g->last_done = p->done;
    g->last_total = p->total;
}

static void test_opts_check(void)
{
    static const double bad[] = {INFINITY, -INFINITY, NAN, 0.0, -1.0};
    dvc_beta_opts o;
    dvc_beta_opts_default(&o);
    CHECK(dvc_beta_opts_check(&o) == DVC_OK, "defaults accepted");
    CHECK(isfinite(o.max_seconds) && o.max_seconds > 0, "default budget finite");
    for (int k = 0; k < 5; k++) {
        dvc_imat_t M;
        dvc_beta_bound_t b;
        dvc_beta_opts_default(&o);
        o.max_seconds = bad[k];
        CHECK(dvc_beta_opts_check(&o) == DVC_ERR_INPUT, "max_seconds = %g refused", bad[k]);
        CHECK(strstr(dvc_error_message(), "max_seconds") != NULL, "message names the option: %s",
              dvc_error_message());
        /* and by dvc_beta_compute itself */
        dvc_imat_init2(M, 1, 1, 53);
        mpfi_set_si(M->e[0], 2);
        dvc_beta_bound_init(b);
        CHECK(dvc_beta_compute(b, NULL, M, &o) == DVC_ERR_INPUT, "compute refuses max_seconds = %g",
              bad[k]);
        dvc_beta_bound_clear(b);
        dvc_imat_clear(M);
    }
    dvc_beta_opts_default(&o);
    o.rel_gap = NAN;
    CHECK(dvc_beta_opts_check(&o) == DVC_ERR_INPUT, "NaN gap refused");
    dvc_beta_opts_default(&o);
    o.enum_max_m = 31;
    CHECK(dvc_beta_opts_check(&o) == DVC_ERR_INPUT, "enum_max_m 31 refused");
    dvc_error_reset();
}

/* tridiag(-1, 3, -1): an M-matrix, beta_M = ||M^{-1}|| (closed form). */
static void set_mmatrix(dvc_imat_t M, long m)
{
    for (long i = 0; i < m; i++) {
        mpfi_set_si(dvc_imat_entry(M, i, i), 3);
        if (i > 0) mpfi_set_si(dvc_imat_entry(M, i, i - 1), -1);
        if (i > 0) mpfi_set_si(dvc_imat_entry(M, i - 1, i), -1);
    }
}

static void test_enum_budget(void)
{
    long m = 28;
    dvc_imat_t M;
    dvc_beta_bound_t exact, b, a;
    dvc_beta_opts o;
    prog_t g = {0, 0, 0, 0};
    double t0, secs;
    dvc_status st;
    dvc_imat_init2(M, m, m, 53);
    set_mmatrix(M, m);
    dvc_beta_bound_init(exact);
    dvc_beta_bound_init(b);
    dvc_beta_bound_init(a);
    dvc_beta_opts_default(&o);
    REQUIRE(dvc_beta_compute(exact, NULL, M, &o) == DVC_OK, "closed form");
    CHECK(!exact->stopped, "closed form is not a stopped search");

    o.method = DVC_BETA_ENUM; /* 2^28 vertices: minutes without the budget */
    o.max_seconds = 0.3;
    o.progress = on_progress;
    o.progress_data = &g;
    t0 = now();
    st = dvc_beta_compute(b, a, M, &o);
    secs = now() - t0;
    CHECK(st == DVC_NOT_CERTIFIED, "unfinished enumeration gives no upper bound (status %d)", (int)st);
    CHECK(strstr(dvc_error_message(), "time budget") != NULL, "message says why: %s", dvc_error_message());
    CHECK(secs < 5.0, "stopped near the budget: %.2f s", secs);
    CHECK(b->stopped && a->stopped, "stopped flags");
    CHECK(b->nodes > 0 && b->nodes < (1l << m), "partial enumeration: %ld vertices", b->nodes);
    CHECK(mpfr_sgn(b->lo) > 0 && mpfr_cmp(b->lo, exact->hi) <= 0,
          "partial lower bound %.17g is proven (<= beta_M <= %.17g)", mpfr_get_d(b->lo, MPFR_RNDD),
          mpfr_get_d(exact->hi, MPFR_RNDU));
    CHECK(mpfr_inf_p(b->hi), "no upper bound from an unfinished enumeration");
    CHECK(g.finals >= 1 && g.last_done < g.last_total, "final progress report: %.0f of %.0f",
          g.last_done, g.last_total);

    /* Branch-and-bound stopped by a tiny budget: its bounds still bracket
     * beta_M. */
    dvc_beta_bound_clear(b);
    dvc_beta_bound_init(b);
    o.method = DVC_BETA_BNB;
    o.max_seconds = 1e-4;
    o.rel_gap = 0;
    g.calls = g.finals = 0;
    st = dvc_beta_compute(b, NULL, M, &o);
    CHECK(st == DVC_OK || st == DVC_NOT_CERTIFIED, "bnb under a tiny budget: %d", (int)st);
    CHECK(mpfr_cmp(b->lo, exact->hi) <= 0 && mpfr_cmp(exact->lo, b->hi) <= 0,
          "bnb bounds [%.17g, %.17g] bracket beta_M", mpfr_get_d(b->lo, MPFR_RNDD),
          mpfr_get_d(b->hi, MPFR_RNDU));
    CHECK(b->stopped, "bnb stopped by the budget");
    CHECK(g.finals >= 1, "bnb final progress report");
    dvc_beta_bound_clear(exact);
    dvc_beta_bound_clear(b);
    dvc_beta_bound_clear(a);
    dvc_imat_clear(M);
}

/* AUTO past m = 20 with its enumeration stopped by the budget keeps the
 * positive definite bound over all vertices (docs/beta.md section 7, item
 * 4): for M = I + K, K skew-symmetric, the symmetric part is I and that
 * bound is sqrt(1 * 1^T I 1) = sqrt(m) (beta_M <= sqrt(m) ||M^{-1}||_2 <=
 * sqrt(m) too, since ||M^{-1}||_2 <= 1 here). --method enum has no such
 * fallback: not certified. */
static void test_auto_fallback(void)
{
    long m = 24;
    dvc_imat_t M;
    dvc_beta_bound_t b;
    dvc_beta_opts o;
    dvc_status st;
    double hi, r = sqrt((double)m);
    dvc_imat_init2(M, m, m, 53);
    for (long i = 0; i < m; i++)
        for (long j = 0; j < m; j++) {
            long lo = i < j ? i : j, up = i < j ? j : i; /* K_ij = -K_ji */
            double k = (double)((lo * 7 + up * 13) % 11 - 5) / 5;
            mpfi_set_d(dvc_imat_entry(M, i, j), i == j ? 1 : i < j ? k : -k);
        }
    dvc_beta_bound_init(b);
    dvc_beta_opts_default(&o);
    o.enum_max_m = 30; /* AUTO enumerates whatever the estimate */
    o.max_seconds = 0.05;
    st = dvc_beta_compute(b, NULL, M, &o);
    hi = mpfr_get_d(b->hi, MPFR_RNDU);
    CHECK(st == DVC_OK && b->stopped, "auto, enumeration stopped: status %d, stopped %d", (int)st, b->stopped);
    CHECK(strcmp(b->method, "positive definite bound (enumeration stopped)") == 0, "method '%s'", b->method);
    CHECK(hi >= r && hi <= r * (1 + 1e-9), "upper bound %.17g, the PD bound sqrt(%ld) = %.17g", hi, m, r);
    CHECK(mpfr_sgn(b->lo) > 0 && mpfr_cmp(b->lo, b->hi) <= 0, "lower bound %.17g", mpfr_get_d(b->lo, MPFR_RNDD));
    dvc_beta_bound_clear(b);
    dvc_beta_bound_init(b);
    o.method = DVC_BETA_ENUM;
    st = dvc_beta_compute(b, NULL, M, &o);
    CHECK(st == DVC_NOT_CERTIFIED && b->stopped && mpfr_inf_p(b->hi), "enum stopped: status %d, no upper bound",
          (int)st);
    dvc_error_reset();
    dvc_beta_bound_clear(b);
    dvc_imat_clear(M);
}

/* A matrix above DVC_BETA_M_MAX is refused before its entries are read
 * (a header without entries is enough to show it). */
static void test_size_limit(void)
{
    dvc_imat_struct big = {NULL, DVC_BETA_M_MAX + 1, DVC_BETA_M_MAX + 1, 53};
    dvc_beta_bound_t b;
    dvc_beta_bound_init(b);
    CHECK(dvc_beta_compute(b, NULL, &big, NULL) == DVC_ERR_INPUT, "m above DVC_BETA_M_MAX refused");
    CHECK(strstr(dvc_error_message(), "supported size") != NULL, "message: %s", dvc_error_message());
    dvc_beta_bound_clear(b);
    {
        dvc_ivec_struct l = {NULL, DVC_LVI_M_MAX + 1, 53}, u = {NULL, DVC_LVI_M_MAX + 1, 53};
        dvc_lvi_solver_t s;
        big.r = big.c = DVC_LVI_M_MAX + 1;
        CHECK(dvc_lvi_solver_init2(s, &big, &l, &u, 53) == DVC_ERR_INPUT, "lvi: m above DVC_LVI_M_MAX refused");
        CHECK(strstr(dvc_error_message(), "supported size") != NULL, "message: %s", dvc_error_message());
        dvc_lvi_solver_clear(s);
    }
    dvc_error_reset();
}

int main(void)
{
    test_opts_check();
    test_enum_budget();
    test_auto_fallback();
    test_size_limit();
    return check_report();
}
