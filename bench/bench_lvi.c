/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certified LVI solve vs the floating predictor alone, measured in one run
 * on dense random diagonally dominant P-matrices with mixed bounds. Target:
 * certified <= 10x predictor at m = 100.
 *   ./build/bench/bench_lvi [reps-scale]   */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvicert/dvicert.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
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

int main(int argc, char **argv)
{
    long sizes[3] = {5, 20, 100};
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
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
    return 0;
}
