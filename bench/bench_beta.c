/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* beta_M by vertex enumeration: the binary64 directed-rounding Gray-code
 * kernel against plain per-subset verified computations, all in one run:
 *   - "plain MPFI": interval Gauss-Jordan in MPFI on each M_JJ (the way an
 *     interval toolbox loop would do it),
 *   - "imat_inv": the library's verified inverse dvc_imat_inv per subset.
 * Random nonsymmetric positive definite matrices (hence P), fixed seed.
 *   ./build/bench/bench_beta            m = 10, 16, 20
 *   ./build/bench/bench_beta big [s [FAM [M]]]  m = 24, 30: automatic method
 *                                       and branch-and-bound, budget s (60), on
 *                                       symmetric and nonsymmetric PD matrices;
 *                                       FAM sym|nonsym and M restrict the runs
 *   ./build/bench/bench_beta json M [sym|nonsym]  the matrix of `big` as
 *                                       dvicert beta input (nonsym by default)
 *   ./build/bench/bench_beta tree [M]   nonsymmetric PD, m = M (22): every
 *                                       vertex by its residual (dvc_bk_enum)
 *                                       against bordering from verified
 *                                       anchors (dvc_bk_enum_tree, r = 6) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvicert/dvicert.h"
#include "beta_kern.h"

/* CPU time of this thread: the machine is shared, wall time is noisy. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long rng_s = 12345;
static double unif(void) /* splitmix64 in [-1, 1) */
{
    unsigned long long z = (rng_s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0;
}

static void gen_pd_sym(dvc_imat_t M, int m, int skew)
{
    double *L = malloc(sizeof(double) * (size_t)(m * m));
    for (int i = 0; i < m * m; i++) L[i] = unif();
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            double v = 0;
            for (int k = 0; k < m; k++) v += L[i * m + k] * L[j * m + k];
            v = v / m + (i == j ? 0.05 : 0) +
                (skew ? (i < j ? 0.5 * L[i * m + j] : i > j ? -0.5 * L[j * m + i] : 0) : 0);
            mpfi_set_d(dvc_imat_entry(M, i, j), v);
        }
    free(L);
}

static void gen_pd(dvc_imat_t M, int m) { gen_pd_sym(M, m, 1); }

/* Past m = 20: the automatic method (default budget 60 s) and the
 * branch-and-bound with a fine gap, on the symmetric PD family (gen_pd
 * without the skew part) and the nonsymmetric PD family (gen_pd). */
static void big(int argc, char **argv)
{
    static const int ms[] = {24, 30};
    double budget = argc > 2 ? atof(argv[2]) : 60;
    const char *only_fam = argc > 3 ? argv[3] : NULL;
    int only_m = argc > 4 ? atoi(argv[4]) : 0;
    double load[1] = {-1};
    if (getloadavg(load, 1) < 1) load[0] = -1;
    printf("beta_M past m = 20 (thread CPU seconds; budget %g s wall; seed 12345 per matrix; load "
           "average %.1f at the start)\n", budget, load[0]);
    printf("%-14s %4s %-5s %9s %12s %10s %20s %20s %10s  %s\n", "family", "m", "meth", "gap goal", "nodes", "seconds",
           "beta lo", "beta hi", "rel gap", "method");
    for (int fam = 0; fam < 2; fam++)
        for (int t = 0; t < 2; t++)
            for (int meth = 0; meth < 2; meth++) {
                int m = ms[t];
                dvc_imat_t M;
                if (only_fam && strcmp(only_fam, fam ? "nonsym" : "sym") != 0) continue;
                if (only_m && only_m != m) continue;
                dvc_beta_bound_t b;
                dvc_beta_opts o;
                double t0, tb, lo, hi;
                rng_s = 12345;
                dvc_imat_init(M, m, m);
                gen_pd_sym(M, m, fam);
                dvc_beta_bound_init(b);
                dvc_beta_opts_default(&o);
                o.max_seconds = budget;
                if (meth == 1) {
                    o.method = DVC_BETA_BNB;
                    o.rel_gap = m <= 24 ? 1e-9 : 1e-6;
                    o.max_nodes = 1000000000L;
                }
                t0 = now();
                dvc_status st = dvc_beta_compute(b, NULL, M, &o);
                tb = now() - t0;
                lo = mpfr_get_d(b->lo, MPFR_RNDD);
                hi = mpfr_get_d(b->hi, MPFR_RNDU);
                printf("%-14s %4d %-5s %9.0e %12ld %10.2f %20.12g %20.12g %10.2e  %s%s\n",
                       fam ? "nonsym PD" : "sym PD", m, meth ? "bnb" : "auto", o.rel_gap, b->nodes, tb, lo, hi,
                       (hi - lo) / hi, st == DVC_OK ? b->method : "NOT CERTIFIED", b->stopped ? " (stopped)" : "");
                fflush(stdout);
                dvc_beta_bound_clear(b);
                dvc_imat_clear(M);
            }
}

/* Plain MPFI: interval Gauss-Jordan (no pivoting search beyond the
 * diagonal's mignitude) on [A | I]; returns ||A^{-1}|| upper bound, or -1. */
static double mpfi_gj_norm(const dvc_imat_t M, const long *J, int k)
{
    mpfi_t *W = malloc(sizeof(mpfi_t) * (size_t)(k * 2 * k));
    mpfi_t f, t;
    mpfr_t s, a, best;
    double res = -1;
    int ok = 1;
    mpfi_init2(f, 53);
    mpfi_init2(t, 53);
    mpfr_inits2(53, s, a, best, (mpfr_ptr)0);
    for (int i = 0; i < k; i++)
        for (int j = 0; j < 2 * k; j++) {
            mpfi_init2(W[i * 2 * k + j], 53);
            if (j < k) mpfi_set(W[i * 2 * k + j], dvc_imat_entry(M, J[i], J[j]));
            else mpfi_set_ui(W[i * 2 * k + j], (unsigned long)(j - k == i));
        }
    for (int c = 0; c < k && ok; c++) {
        int p = c;
        for (int r = c + 1; r < k; r++) {
            mpfr_t x, y;
            mpfr_inits2(53, x, y, (mpfr_ptr)0);
            dvc_ival_mig(x, W[r * 2 * k + c]);
            dvc_ival_mig(y, W[p * 2 * k + c]);
            if (mpfr_cmp(x, y) > 0) p = r;
            mpfr_clears(x, y, (mpfr_ptr)0);
        }
        if (mpfi_has_zero(W[p * 2 * k + c])) {
            ok = 0;
            break;
        }
        if (p != c)
            for (int j = 0; j < 2 * k; j++) mpfi_swap(W[p * 2 * k + j], W[c * 2 * k + j]);
        mpfi_inv(f, W[c * 2 * k + c]);
        for (int j = 0; j < 2 * k; j++) mpfi_mul(W[c * 2 * k + j], W[c * 2 * k + j], f);
        for (int r = 0; r < k; r++) {
            if (r == c) continue;
            mpfi_set(f, W[r * 2 * k + c]);
            for (int j = 0; j < 2 * k; j++) {
                mpfi_mul(t, f, W[c * 2 * k + j]);
                mpfi_sub(W[r * 2 * k + j], W[r * 2 * k + j], t);
            }
        }
    }
    if (ok) {
        mpfr_set_zero(best, 1);
        for (int i = 0; i < k; i++) {
            mpfr_set_zero(s, 1);
            for (int j = 0; j < k; j++) {
                dvc_ival_mag(a, W[i * 2 * k + k + j]);
                mpfr_add(s, s, a, MPFR_RNDU);
            }
            mpfr_max(best, best, s, MPFR_RNDU);
        }
        res = mpfr_get_d(best, MPFR_RNDU);
    }
    for (int i = 0; i < k * 2 * k; i++) mpfi_clear(W[i]);
    free(W);
    mpfi_clear(f);
    mpfi_clear(t);
    mpfr_clears(s, a, best, (mpfr_ptr)0);
    return res;
}

/* Per-subset loop; which = 0 plain MPFI, 1 dvc_imat_inv. */
static double per_subset(const dvc_imat_t M, int m, int which, double *hi)
{
    long J[32];
    double t0 = now();
    *hi = 0;
    for (unsigned long mask = 1; mask < (1ul << m); mask++) {
        int k = 0;
        double v = -1;
        for (int i = 0; i < m; i++)
            if (mask >> i & 1) J[k++] = i;
        if (which == 0) {
            v = mpfi_gj_norm(M, J, k);
        } else {
            dvc_imat_t A, X;
            mpfr_t n;
            dvc_imat_init(A, k, k);
            dvc_imat_init(X, k, k);
            mpfr_init2(n, 53);
            dvc_imat_submatrix(A, M, J, k, J, k);
            if (dvc_imat_inv(X, A) == DVC_OK) {
                dvc_imat_norm_inf(n, X);
                v = mpfr_get_d(n, MPFR_RNDU);
            }
            mpfr_clear(n);
            dvc_imat_clear(A);
            dvc_imat_clear(X);
        }
        if (v < 0) *hi = 1.0 / 0.0;
        else if (v > *hi) *hi = v;
    }
    return now() - t0;
}

/* The two enumeration kernels on the same matrix, in one run. */
static void tree(int m)
{
    dvc_imat_t M;
    dvc_bk_mat K;
    dvc_bk_acc a1, a2;
    int idx[64];
    double t0, t1, t2;
    rng_s = 12345;
    dvc_imat_init(M, m, m);
    gen_pd_sym(M, m, 1);
    if (dvc_bk_mat_init(&K, M) != DVC_OK) return;
    for (int i = 0; i < m; i++) idx[i] = i;
    dvc_bk_acc_init(&a1);
    dvc_bk_acc_init(&a2);
    t0 = now();
    dvc_bk_enum(&K, 0, idx, m, 0, &a1);
    t1 = now() - t0;
    t0 = now();
    dvc_bk_enum_tree(&K, 0, idx, m, 6, &a2);
    t2 = now() - t0;
    printf("nonsym PD m = %d, %ld / %ld vertices: residual per vertex %.2f s [%.15g, %.15g] gap %.1e; "
           "bordering %.2f s [%.15g, %.15g] gap %.1e (%ld fresh inverses, %ld vertices in skipped subtrees); "
           "ratio residual/bordering %.2f\n",
           m, a1.count, a2.count, t1, a1.beta_lo, a1.beta_hi, (a1.beta_hi - a1.beta_lo) / a1.beta_hi, t2,
           a2.beta_lo, a2.beta_hi, (a2.beta_hi - a2.beta_lo) / a2.beta_hi, a2.refresh, a2.pruned, t1 / t2);
    dvc_bk_mat_clear(&K);
    dvc_imat_clear(M);
}

/* The matrix of `big` as dvicert beta input (to time the command). */
static void json(int m, int skew)
{
    dvc_imat_t M;
    rng_s = 12345;
    dvc_imat_init(M, m, m);
    gen_pd_sym(M, m, skew);
    printf("{\"M\": [");
    for (int i = 0; i < m; i++) {
        printf("%s[", i ? ",\n " : "");
        for (int j = 0; j < m; j++) printf("%s%.17g", j ? ", " : "", mpfi_get_d(dvc_imat_entry(M, i, j)));
        printf("]");
    }
    printf("]}\n");
    dvc_imat_clear(M);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "json") == 0) {
        json(atoi(argv[2]), !(argc > 3 && strcmp(argv[3], "sym") == 0));
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "tree") == 0) {
        tree(argc > 2 ? atoi(argv[2]) : 22);
        return 0;
    }
    static const int ms[] = {10, 16, 20};
    if (argc > 1 && strcmp(argv[1], "big") == 0) {
        big(argc, argv);
        return 0;
    }
    double t_enum10 = 0, t_plain10 = 0, t_inv10 = 0;
    printf("beta_M by vertex enumeration (random PD matrices, seed 12345; thread CPU seconds)\n");
    printf("%4s %9s %14s %14s %12s %12s %10s\n", "m", "vertices", "enum s", "enum+alpha s",
           "beta lo", "beta hi", "P-proof s");
    for (int t = 0; t < 3; t++) {
        int m = ms[t];
        dvc_imat_t M;
        dvc_beta_bound_t b, a;
        dvc_beta_opts o;
        double t0, tb, ta, tp;
        dvc_imat_init(M, m, m);
        gen_pd(M, m);
        dvc_beta_bound_init(b);
        dvc_beta_bound_init(a);
        dvc_beta_opts_default(&o);
        o.method = DVC_BETA_ENUM;
        t0 = now();
        if (dvc_mclass_prove_p(M, NULL) != DVC_OK) printf("P proof failed: %s\n", dvc_error_message());
        tp = now() - t0;
        t0 = now();
        if (dvc_beta_compute(b, NULL, M, &o) != DVC_OK) printf("failed: %s\n", dvc_error_message());
        tb = now() - t0;
        t0 = now();
        if (dvc_beta_compute(b, a, M, &o) != DVC_OK) printf("failed: %s\n", dvc_error_message());
        ta = now() - t0;
        printf("%4d %9ld %14.4f %14.4f %12.6g %12.6g %10.4f\n", m, (1l << m) - 1, tb, ta,
               mpfr_get_d(b->lo, MPFR_RNDD), mpfr_get_d(b->hi, MPFR_RNDU), tp);
        if (m == 10) {
            double h0, h1;
            t_enum10 = tb;
            t_plain10 = per_subset(M, m, 0, &h0);
            t_inv10 = per_subset(M, m, 1, &h1);
            printf("     m = 10 per-subset: plain MPFI Gauss-Jordan %.4f s (hi %.6g), "
                   "dvc_imat_inv %.4f s (hi %.6g)\n", t_plain10, h0, t_inv10, h1);
        }
        dvc_beta_bound_clear(b);
        dvc_beta_bound_clear(a);
        dvc_imat_clear(M);
    }
    {
        /* Branch-and-bound vs enumeration on a strongly diagonally dominant
         * matrix (H-matrix with positive diagonal), m = 20. */
        int m = 20;
        dvc_imat_t M;
        dvc_beta_bound_t be, bb;
        dvc_beta_opts o;
        double t0, te, tb;
        dvc_imat_init(M, m, m);
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int j = 0; j < m; j++)
                if (j != i) {
                    double v = unif() / m;
                    mpfi_set_d(dvc_imat_entry(M, i, j), v);
                    s += v < 0 ? -v : v;
                }
            mpfi_set_d(dvc_imat_entry(M, i, i), s + 0.55 + 0.45 * unif());
        }
        dvc_beta_bound_init(be);
        dvc_beta_bound_init(bb);
        dvc_beta_opts_default(&o);
        o.method = DVC_BETA_ENUM;
        t0 = now();
        dvc_beta_compute(be, NULL, M, &o);
        te = now() - t0;
        o.method = DVC_BETA_BNB;
        t0 = now();
        dvc_beta_compute(bb, NULL, M, &o);
        tb = now() - t0;
        printf("\ndiagonally dominant m = 20: enum %.4f s (%ld vertices, beta in [%.12g, %.12g]);\n"
               "  branch-and-bound %.4f s (%ld nodes, beta in [%.12g, %.12g]); enum/bnb time = %.2f\n",
               te, be->nodes, mpfr_get_d(be->lo, MPFR_RNDD), mpfr_get_d(be->hi, MPFR_RNDU), tb,
               bb->nodes, mpfr_get_d(bb->lo, MPFR_RNDD), mpfr_get_d(bb->hi, MPFR_RNDU), te / tb);
        dvc_beta_bound_clear(be);
        dvc_beta_bound_clear(bb);
        dvc_imat_clear(M);
    }
    printf("\nratios at m = 10 (same run): plain MPFI / enum kernel = %.0fx, "
           "dvc_imat_inv per subset / enum kernel = %.0fx\n",
           t_plain10 / t_enum10, t_inv10 / t_enum10);
    printf("(enum time includes the P-matrix proof, structure tests and setup)\n");
    return 0;
}
