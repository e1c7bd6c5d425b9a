/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The bordering enumeration of beta_M on several threads
 * (dvc_bk_enum_tree_par, src/beta_par.c): for every number of threads the
 * same bounds and counts bit for bit, the exact rational beta_M inside,
 * every vertex visited once; a stop asked by the caller's tick leaves a
 * valid lower bound; dvicert's driver gives the same bounds for
 * --threads 1, 2 and 3 past m = 20. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ref_exact.h"
#include "beta_kern.h"
#include "dvicert/dvicert.h"

#define MAXM 14

/* Nonsymmetric positive definite (hence P) with entries exact in binary64:
 * L L^T / 16 + I / 4 plus a skew part of entries k/8 (the family where the
 * subtree tests matter most, docs/beta.md section 5). */
static void gen_nonsym_pd(double *M, int m, check_rng *r)
{
    double L[21 * 21]; /* m <= 21 */
    for (int i = 0; i < m * m; i++) L[i] = (double)check_rng_int(r, -8, 8) / 8.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            double v = 0;
            for (int k = 0; k < m; k++) v += L[i * m + k] * L[j * m + k];
            M[i * m + j] = v / 16 + (i == j ? 0.25 : 0) + (i < j ? L[i * m + j] : i > j ? -L[j * m + i] : 0);
        }
}

/* Exact ||(M_JJ)^{-1}||_inf of the set J (bit mask, nonempty) in rationals. */
static void exact_norm(const double *M, int m, unsigned long mask, mpq_t nrm)
{
    double S[MAXM * MAXM];
    int J[MAXM], k = 0;
    for (int i = 0; i < m; i++)
        if (mask >> i & 1) J[k++] = i;
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) S[a * k + b] = M[J[a] * m + J[b]];
    REQUIRE(ref_q_inv_norm_d(S, k, nrm), "reference: singular principal submatrix");
}

/* Exact max over nonempty J of ||(M_JJ)^{-1}||_inf. */
static void exact_beta(const double *M, int m, mpq_t beta)
{
    mpq_t v;
    mpq_init(v);
    mpq_set_ui(beta, 0, 1);
    for (unsigned long mask = 1; mask < (1ul << m); mask++) {
        exact_norm(M, m, mask, v);
        if (mpq_cmp(v, beta) > 0) mpq_set(beta, v);
    }
    mpq_clear(v);
}

static int same_acc(const dvc_bk_acc *a, const dvc_bk_acc *b)
{
    return memcmp(&a->beta_lo, &b->beta_lo, sizeof(double)) == 0 &&
           memcmp(&a->beta_hi, &b->beta_hi, sizeof(double)) == 0 && a->count == b->count &&
           a->pruned == b->pruned && a->tight == b->tight && a->refresh == b->refresh && a->slow == b->slow;
}

/* 60 matrices, m = 8..12 (2^2 to 2^6 chunks of anchors for r = 6, fewer
 * anchors than chunks for larger r), the search started at 0 and at just
 * below beta_M: threads 1, 2, 3 and 8 agree bit for bit, enclose beta_M,
 * count every vertex once; the serial route in one piece encloses it too. */
static void test_par_same(void)
{
    check_rng r = {4242};
    long runs = 0, pruned = 0;
    for (int it = 0; it < 60; it++) {
        int m = (int)check_rng_int(&r, 8, it < 50 ? 11 : 12), rr = (int)check_rng_int(&r, 2, 6);
        double M[MAXM * MAXM];
        int idx[MAXM];
        mpq_t beta;
        dvc_imat_t A;
        dvc_bk_mat K;
        gen_nonsym_pd(M, m, &r);
        mpq_init(beta);
        exact_beta(M, m, beta);
        dvc_imat_init(A, m, m);
        for (int i = 0; i < m * m; i++) mpfi_set_d(A->e[i], M[i]);
        REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK, "case %d: mat_init", it);
        for (int i = 0; i < m; i++) idx[i] = i;
        for (int start = 0; start < 2; start++) {
            dvc_bk_acc one, acc;
            double lo0 = start ? nextafter(mpq_get_d(beta) * (1 - 1e-9), 0) : 0;
            const int th[] = {1, 2, 3, 8};
            dvc_bk_acc_init(&one);
            one.beta_lo = one.beta_hi = lo0;
            CHECK(dvc_bk_enum_tree_par(&K, 0, idx, m, rr, 1, &one) == DVC_OK && !one.stopped,
                  "case %d: one thread failed", it);
            CHECK(one.count == (1L << m), "case %d (m = %d, r = %d): %ld vertices", it, m, rr, one.count);
            CHECK(ref_cmp_dq(one.beta_lo, beta) <= 0 && ref_cmp_dq(one.beta_hi, beta) >= 0,
                  "case %d (m = %d, r = %d, start %d): [%.17g, %.17g] misses beta = %.17g", it, m, rr, start,
                  one.beta_lo, one.beta_hi, mpq_get_d(beta));
            CHECK(one.beta_hi - one.beta_lo <= 1e-10 * one.beta_hi, "case %d: gap [%.17g, %.17g]", it,
                  one.beta_lo, one.beta_hi);
            for (int k = 1; k < 4; k++) {
                dvc_bk_acc_init(&acc);
                acc.beta_lo = acc.beta_hi = lo0;
                CHECK(dvc_bk_enum_tree_par(&K, 0, idx, m, rr, th[k], &acc) == DVC_OK,
                      "case %d: %d threads failed", it, th[k]);
                CHECK(same_acc(&one, &acc),
                      "case %d (m = %d, r = %d): %d threads [%.17g, %.17g] %ld (pruned %ld) against one "
                      "[%.17g, %.17g] %ld (pruned %ld)",
                      it, m, rr, th[k], acc.beta_lo, acc.beta_hi, acc.count, acc.pruned, one.beta_lo,
                      one.beta_hi, one.count, one.pruned);
                runs++;
            }
            pruned += one.pruned;
            dvc_bk_acc_init(&acc);
            acc.beta_lo = acc.beta_hi = lo0;
            CHECK(dvc_bk_enum_tree(&K, 0, idx, m, rr, &acc) == DVC_OK && acc.count == (1L << m) &&
                      ref_cmp_dq(acc.beta_lo, beta) <= 0 && ref_cmp_dq(acc.beta_hi, beta) >= 0,
                  "case %d: the route in one piece [%.17g, %.17g] misses beta", it, acc.beta_lo, acc.beta_hi);
        }
        dvc_bk_mat_clear(&K);
        dvc_imat_clear(A);
        mpq_clear(beta);
    }
    /* the runs started at beta_M must skip subtrees, or the tests above
     * would not see the chunks' pruning at all */
    CHECK(pruned > 0, "no subtree skipped in any run");
    printf("threads: %ld runs of 2, 3, 8 threads equal to one thread bit for bit, %ld vertices skipped\n", runs,
           pruned);
}

/* One range [t0, t1) of the anchors (dvc_bk_enum_tree_range, the piece a
 * chunk runs): started from 0, its bounds enclose the exact maximum over
 * exactly its vertices, the sets gray(t) = t ^ (t >> 1) of the outer free
 * indices (bit b: freeidx[b]) with every subset of the inner ones; a range
 * that started at the wrong anchor would enclose another set's maximum. */
static void test_par_range(void)
{
    check_rng r = {777};
    long ranges = 0;
    for (int it = 0; it < 16; it++) {
        int m = (int)check_rng_int(&r, 8, 10), rr = (int)check_rng_int(&r, 2, 4), no = m - rr, idx[MAXM];
        double M[MAXM * MAXM];
        mpq_t *val = malloc(sizeof(mpq_t) * ((size_t)1 << m)), best;
        dvc_imat_t A;
        dvc_bk_mat K;
        uint64_t t0 = 0, nanch = (uint64_t)1 << no;
        gen_nonsym_pd(M, m, &r);
        for (unsigned long J = 1; J < (1ul << m); J++) {
            mpq_init(val[J]);
            exact_norm(M, m, J, val[J]);
        }
        mpq_init(best);
        dvc_imat_init(A, m, m);
        for (int i = 0; i < m * m; i++) mpfi_set_d(A->e[i], M[i]);
        REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK, "range case %d: mat_init", it);
        for (int i = 0; i < m; i++) idx[i] = i;
        while (t0 < nanch) {
            uint64_t t1 = t0 + (uint64_t)check_rng_int(&r, 1, 7);
            dvc_bk_acc acc;
            if (t1 > nanch) t1 = nanch;
            mpq_set_ui(best, 0, 1);
            for (uint64_t t = t0; t < t1; t++)
                for (unsigned long S = 0; S < (1ul << rr); S++) {
                    unsigned long J = (unsigned long)(t ^ (t >> 1)) | S << no;
                    if (J && mpq_cmp(val[J], best) > 0) mpq_set(best, val[J]);
                }
            dvc_bk_acc_init(&acc);
            CHECK(dvc_bk_enum_tree_range(&K, 0, idx, m, rr, t0, t1, &acc) == DVC_OK &&
                      acc.count == (long)((t1 - t0) << rr),
                  "range case %d [%lu, %lu): %ld vertices", it, (unsigned long)t0, (unsigned long)t1, acc.count);
            CHECK(ref_cmp_dq(acc.beta_lo, best) <= 0 && ref_cmp_dq(acc.beta_hi, best) >= 0,
                  "range case %d (m = %d, r = %d) [%lu, %lu): [%.17g, %.17g] misses its maximum %.17g", it, m, rr,
                  (unsigned long)t0, (unsigned long)t1, acc.beta_lo, acc.beta_hi, mpq_get_d(best));
            ranges++;
            t0 = t1;
        }
        dvc_bk_mat_clear(&K);
        dvc_imat_clear(A);
        for (unsigned long J = 1; J < (1ul << m); J++) mpq_clear(val[J]);
        mpq_clear(best);
        free(val);
    }
    printf("ranges: %ld anchor ranges, each enclosing the exact maximum of its own vertices\n", ranges);
}

/* The caller's tick stops every chunk: the result is stopped, its lower
 * bound still at most beta_M, fewer vertices counted. */
static int stop_at_once(void *ctx, const dvc_bk_acc *acc)
{
    (void)acc;
    ++*(int *)ctx;
    return 1;
}

static void test_par_stop(void)
{
    enum { M = 20 };
    check_rng r = {99};
    double Md[M * M];
    int idx[M], calls = 0;
    dvc_imat_t A;
    dvc_bk_mat K;
    dvc_bk_acc acc;
    gen_nonsym_pd(Md, M, &r);
    dvc_imat_init(A, M, M);
    for (int i = 0; i < M * M; i++) mpfi_set_d(A->e[i], Md[i]);
    REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK, "stop: mat_init");
    for (int i = 0; i < M; i++) idx[i] = i;
    dvc_bk_acc_init(&acc);
    acc.tick = stop_at_once;
    acc.tick_ctx = &calls;
    CHECK(dvc_bk_enum_tree_par(&K, 0, idx, M, 6, 2, &acc) == DVC_OK, "stop: failed");
    CHECK(acc.stopped && calls >= 1 && acc.count < (1L << M),
          "stop: stopped %d after %d ticks, %ld of %ld vertices", acc.stopped, calls, acc.count, 1L << M);
    {
        /* every lower bound is a vertex's: at most the largest vertex value,
         * which the complete run encloses */
        dvc_bk_acc all;
        dvc_bk_acc_init(&all);
        CHECK(dvc_bk_enum_tree_par(&K, 0, idx, M, 6, 2, &all) == DVC_OK && !all.stopped &&
                  all.count == (1L << M) && acc.beta_lo <= all.beta_hi,
              "stop: lower bound %.17g above the complete run's upper bound %.17g", acc.beta_lo, all.beta_hi);
    }
    dvc_bk_mat_clear(&K);
    dvc_imat_clear(A);
}

/* The driver past m = 20 (m = 21, the enumeration by bordering in chunks):
 * the same printed bounds for 1, 2 and 3 threads. */
static void test_par_driver(void)
{
    enum { N = 21 };
    check_rng r = {2027};
    double Md[N * N];
    dvc_imat_t A;
    dvc_beta_bound_t b[3];
    gen_nonsym_pd(Md, N, &r);
    dvc_imat_init(A, N, N);
    for (int i = 0; i < N * N; i++) mpfi_set_d(A->e[i], Md[i]);
    for (int t = 0; t < 3; t++) {
        dvc_beta_opts o;
        dvc_beta_opts_default(&o);
        o.method = DVC_BETA_ENUM;
        o.threads = t + 1;
        dvc_beta_bound_init(b[t]);
        CHECK(dvc_beta_compute(b[t], NULL, A, &o) == DVC_OK && !b[t]->stopped, "m = 21, %d threads: failed",
              t + 1);
        if (t > 0)
            CHECK(mpfr_equal_p(b[t]->lo, b[0]->lo) && mpfr_equal_p(b[t]->hi, b[0]->hi) &&
                      b[t]->nodes == b[0]->nodes,
                  "m = 21: %d threads [%.17g, %.17g] against one [%.17g, %.17g]", t + 1,
                  mpfr_get_d(b[t]->lo, MPFR_RNDD), mpfr_get_d(b[t]->hi, MPFR_RNDU),
                  mpfr_get_d(b[0]->lo, MPFR_RNDD), mpfr_get_d(b[0]->hi, MPFR_RNDU));
    }
    CHECK(mpfr_cmp(b[0]->lo, b[0]->hi) <= 0 && mpfr_get_d(b[0]->hi, MPFR_RNDU) - mpfr_get_d(b[0]->lo, MPFR_RNDD) <=
                                                 1e-11 * mpfr_get_d(b[0]->hi, MPFR_RNDU),
          "m = 21: gap [%.17g, %.17g]", mpfr_get_d(b[0]->lo, MPFR_RNDD), mpfr_get_d(b[0]->hi, MPFR_RNDU));
    {
        dvc_beta_opts o;
        dvc_beta_opts_default(&o);
        o.threads = -1;
        CHECK(dvc_beta_opts_check(&o) == DVC_ERR_INPUT, "threads -1 accepted");
        o.threads = DVC_BETA_THREADS_MAX + 1;
        CHECK(dvc_beta_opts_check(&o) == DVC_ERR_INPUT, "threads %d accepted", DVC_BETA_THREADS_MAX + 1);
        dvc_error_reset();
    }
    for (int t = 0; t < 3; t++) dvc_beta_bound_clear(b[t]);
    dvc_imat_clear(A);
}

int main(void)
{
    test_par_same();
    test_par_range();
    test_par_stop();
    test_par_driver();
    return check_report();
}
