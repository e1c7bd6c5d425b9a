/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certified LVI solve vs the floating predictor alone, measured in one run
 * on dense random diagonally dominant P-matrices with mixed bounds (target:
 * certified <= 10x predictor at m = 100); then one LCP solved from scratch,
 * the P-matrix proof and the solver setup included, against a plain
 * floating-point Lemke solve in C (bench/lemke.h) in the same run (target:
 * <= 3x at n = 20). The proof cache of mclass is cleared before every
 * from-scratch solve, so that the proof is paid each time.
 *   ./build/bench/bench_lvi [reps-scale]   */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvicert/dvicert.h"
#include "lemke.h"

/* CPU time of this thread: the machine is shared, wall time is noisy. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long rs = 88172645463325252ULL;
static double unif(double a, double b)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return a + (b - a) * ((double)(rs >> 11) * 0x1.0p-53);
}

/* Dense diagonally dominant P-matrix with random signs; q scaled to M. */
static void random_m(double *M, double *q, long m)
{
    for (long i = 0; i < m; i++) {
        double sum = 0;
        for (long j = 0; j < m; j++)
            if (j != i) {
                M[i * m + j] = unif(-1, 1);
                sum += fabs(M[i * m + j]);
            }
        M[i * m + i] = sum + unif(0.5, 2);
        q[i] = unif(-1, 1) * sum;
    }
}

/* One LCP from scratch: solver (P-matrix proof included), certified solve,
 * clear. Returns the status of the solve. */
static dvc_status lcp_once(dvc_lvi_result_t r, const dvc_imat_t Mi, const dvc_ivec_t li, const dvc_ivec_t ui,
                           const dvc_ivec_t qi, int clear_cache)
{
    dvc_lvi_solver_t s;
    dvc_status st;
    if (clear_cache) dvc_mclass_cache_clear();
    st = dvc_lvi_solver_init(s, Mi, li, ui);
    if (st == DVC_OK) st = dvc_lvi_solve(r, s, qi, NULL);
    dvc_lvi_solver_clear(s);
    return st;
}

static void lcp_table(double scale)
{
    long sizes[3] = {5, 20, 100};
    printf("\none LCP (l = 0, u = +inf) from scratch: solver setup with the P-matrix proof, certified\n"
           "solve, clear; vs a floating-point Lemke solve (bench/lemke.h); min over 5 interleaved rounds\n");
    printf("%6s %8s %12s %12s %12s %12s %10s %10s  %s\n", "n", "reps", "Lemke [us]", "proof [us]",
           "scratch [us]", "cached [us]", "scr/Lemke", "cch/Lemke", "how P was proven");
    for (int c = 0; c < 3; c++) {
        long m = sizes[c], ninst = 8, reps = (long)(scale * (m <= 5 ? 400 : m <= 20 ? 100 : 4));
        double tl = 0, tpf = 0, ts = 0, tcch = 0;
        long fails = 0, lfails = 0, mism = 0;
        const char *how = "";
        if (reps < 1) reps = 1;
        for (long inst = 0; inst < ninst; inst++) {
            double *M = malloc((size_t)(m * m) * sizeof(double)), *q = malloc((size_t)m * sizeof(double));
            double *z = malloc((size_t)m * sizeof(double)), *ws = malloc((size_t)(m * (2 * m + 2)) * sizeof(double));
            long *basis = malloc((size_t)m * sizeof(long));
            double bl = INFINITY, bp = INFINITY, bs = INFINITY, bc = INFINITY, t0;
            dvc_imat_t Mi;
            dvc_ivec_t li, ui, qi;
            dvc_lvi_result_t r;
            random_m(M, q, m);
            dvc_imat_init(Mi, m, m);
            dvc_ivec_init(li, m);
            dvc_ivec_init(ui, m);
            dvc_ivec_init(qi, m);
            dvc_imat_set_d(Mi, M);
            for (long i = 0; i < m; i++) mpfr_set_inf(&ui->e[i]->left, 1), mpfr_set_inf(&ui->e[i]->right, 1);
            dvc_ivec_set_d(qi, q);
            dvc_lvi_result_init(r, m);
            for (int round = 0; round < 5; round++) {
                t0 = now();
                for (long k = 0; k < reps; k++)
                    if (bench_lemke(z, M, q, m, ws, basis) != 0) lfails++;
                t0 = (now() - t0) / (double)reps;
                if (t0 < bl) bl = t0;
                t0 = now();
                for (long k = 0; k < reps; k++) {
                    dvc_mclass_cache_clear();
                    if (dvc_mclass_prove_p(Mi, &how) != DVC_OK) fails++;
                }
                t0 = (now() - t0) / (double)reps;
                if (t0 < bp) bp = t0;
                t0 = now();
                for (long k = 0; k < reps; k++)
                    if (lcp_once(r, Mi, li, ui, qi, 1) != DVC_OK) fails++;
                t0 = (now() - t0) / (double)reps;
                if (t0 < bs) bs = t0;
                t0 = now();
                for (long k = 0; k < reps; k++)
                    if (lcp_once(r, Mi, li, ui, qi, 0) != DVC_OK) fails++;
                t0 = (now() - t0) / (double)reps;
                if (t0 < bc) bc = t0;
            }
            /* the two solvers must agree: Lemke's z inside the enclosure widened by 1e-8 */
            for (long i = 0; i < m; i++) {
                double lo = mpfr_get_d(&r->y->e[i]->left, MPFR_RNDD), hi = mpfr_get_d(&r->y->e[i]->right, MPFR_RNDU);
                double tol = 1e-8 * (1 + fabs(z[i]));
                if (!(z[i] >= lo - tol && z[i] <= hi + tol)) mism++;
            }
            tl += bl;
            tpf += bp;
            ts += bs;
            tcch += bc;
            dvc_lvi_result_clear(r);
            dvc_imat_clear(Mi);
            dvc_ivec_clear(li);
            dvc_ivec_clear(ui);
            dvc_ivec_clear(qi);
            free(M);
            free(q);
            free(z);
            free(ws);
            free(basis);
        }
        tl /= (double)ninst;
        tpf /= (double)ninst;
        ts /= (double)ninst;
        tcch /= (double)ninst;
        printf("%6ld %8ld %12.2f %12.2f %12.2f %12.2f %10.2f %10.2f  %.40s%s%s%s\n", m, reps * ninst * 5, 1e6 * tl,
               1e6 * tpf, 1e6 * ts, 1e6 * tcch, ts / tl, tcch / tl, how ? how : "?", fails ? "  (FAILURES)" : "",
               lfails ? "  (LEMKE FAILED)" : "", mism ? "  (LEMKE DISAGREES)" : "");
    }
    printf("target: scratch/Lemke <= 3 at n = 20\n");
}

int main(int argc, char **argv)
{
    long sizes[3] = {5, 20, 100};
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    printf("box LVI, one solver per instance (P-matrix proof at setup, not timed here)\n");
    printf("%6s %8s %14s %14s %14s %10s %10s  %s\n", "m", "reps", "predict [us]", "certify [us]",
           "warm [us]", "cert/pred", "warm/pred", "routes");
    for (int c = 0; c < 3; c++) {
        long m = sizes[c], ninst = 8, reps = (long)(scale * (m <= 5 ? 400 : m <= 20 ? 100 : 6));
        double tp = 0, tc = 0, tw = 0;
        long routes[4] = {0, 0, 0, 0}, fails = 0;
        if (reps < 1) reps = 1;
        for (long inst = 0; inst < ninst; inst++) {
            double *M = malloc((size_t)(m * m) * sizeof(double)), *l = malloc((size_t)m * sizeof(double)),
                   *u = malloc((size_t)m * sizeof(double)), *q = malloc((size_t)m * sizeof(double)),
                   *y = malloc((size_t)m * sizeof(double));
            dvc_imat_t Mi;
            dvc_ivec_t li, ui, qi;
            dvc_lvi_solver_t s;
            dvc_lvi_result_t r;
            double t0;
            for (long i = 0; i < m; i++) {
                double sum = 0;
                for (long j = 0; j < m; j++)
                    if (j != i) {
                        M[i * m + j] = unif(-1, 1);
                        sum += fabs(M[i * m + j]);
                    }
                M[i * m + i] = sum + unif(0.5, 2);
                long t = (long)unif(0, 4);
                l[i] = t == 1 ? -INFINITY : unif(-2, 0);
                u[i] = t == 2 ? INFINITY : unif(0.5, 2);
                if (t == 3) { l[i] = 0; u[i] = INFINITY; }
                q[i] = unif(-1, 1) * sum;
            }
            dvc_imat_init(Mi, m, m);
            dvc_ivec_init(li, m);
            dvc_ivec_init(ui, m);
            dvc_ivec_init(qi, m);
            dvc_imat_set_d(Mi, M);
            dvc_ivec_set_d(li, l);
            dvc_ivec_set_d(ui, u);
            dvc_ivec_set_d(qi, q);
            if (dvc_lvi_solver_init(s, Mi, li, ui) != DVC_OK) {
                fprintf(stderr, "init: %s\n", dvc_error_message());
                return 1;
            }
            dvc_lvi_result_init(r, m);
            t0 = now();
            for (long k = 0; k < reps; k++) dvc_lvi_predict(y, M, q, l, u, m);
            tp += now() - t0;
            t0 = now();
            for (long k = 0; k < reps; k++)
                if (dvc_lvi_solve(r, s, qi, NULL) != DVC_OK) fails++;
            tc += now() - t0;
            routes[r->route]++;
            memcpy(y, r->pred, (size_t)m * sizeof(double));
            t0 = now();
            for (long k = 0; k < reps; k++)
                if (dvc_lvi_solve(r, s, qi, y) != DVC_OK) fails++;
            tw += now() - t0;
            dvc_lvi_result_clear(r);
            dvc_lvi_solver_clear(s);
            dvc_imat_clear(Mi);
            dvc_ivec_clear(li);
            dvc_ivec_clear(ui);
            dvc_ivec_clear(qi);
            free(M);
            free(l);
            free(u);
            free(q);
            free(y);
        }
        tp /= (double)(ninst * reps);
        tc /= (double)(ninst * reps);
        tw /= (double)(ninst * reps);
        printf("%6ld %8ld %14.1f %14.1f %14.1f %10.2f %10.2f  active %ld vertex %ld residual %ld%s\n", m,
               reps * ninst, 1e6 * tp, 1e6 * tc, 1e6 * tw, tc / tp, tw / tp, routes[1], routes[3], routes[2],
               fails ? "  (FAILURES)" : "");
    }
    lcp_table(scale);
    return 0;
}
