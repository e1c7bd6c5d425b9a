/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The DLVI events route (docs/events.md): time, steps, events, patterns
 * built and the radius at T of the exact-solution tube, per problem file.
 *
 * usage: bench_events [-r REPS] [-T T] PROBLEM.json...   (REPS default 3,
 * the best time is kept; -T overrides the problems' T for the files after
 * it). Example, from the source tree:
 *   ./build/bench/bench_events -T 10 certs/bridge/gamma0.2.json \
 *       -T 21 certs/circuit/circuit_long.json -T 20 tests/data/events/pounding3.json */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dvicert/events.h"
#include "dvicert/problem.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double radius_at_end(const dvc_hybrid_result_t r)
{
    double rad = 0;
    const dvc_ivec_struct *X = r->x[r->nsteps];
    for (long i = 0; i < X->n; i++) {
        double w = (mpfr_get_d(&X->e[i]->right, MPFR_RNDU) - mpfr_get_d(&X->e[i]->left, MPFR_RNDD)) / 2;
        if (w > rad) rad = w;
    }
    return rad;
}

int main(int argc, char **argv)
{
    int reps = 3;
    const char *T = NULL;
    printf("%-40s %8s %8s %7s %9s %12s %10s\n", "problem", "T", "steps", "events", "patterns",
           "radius at T", "time [s]");
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-r") && a + 1 < argc) {
            reps = atoi(argv[++a]);
            continue;
        }
        if (!strcmp(argv[a], "-T") && a + 1 < argc) {
            T = argv[++a];
            continue;
        }
        dvc_dlvi_problem_t p;
        dvc_dlvi_problem_init(p, 0, 0, 53);
        if (dvc_problem_read(p, argv[a], 53) != DVC_OK) {
            fprintf(stderr, "%s\n", dvc_error_message());
            dvc_dlvi_problem_clear(p);
            return 2;
        }
        if (T) mpfi_set_str(p->T, T, 10);
        double best = 1e300;
        long steps = 0, events = 0, npat = 0;
        double rad = 0;
        dvc_status st = DVC_OK;
        for (int k = 0; k < reps && st == DVC_OK; k++) {
            dvc_hybrid_model_t m;
            dvc_hybrid_result_t r;
            dvc_hybrid_result_init(r);
            double t0 = now();
            st = dvc_dlvi_events_run(r, m, p, NULL);
            double dt = now() - t0;
            if (dt < best) best = dt;
            if (st == DVC_OK) {
                steps = r->nsteps;
                events = r->nevents;
                rad = radius_at_end(r);
                dvc_dlvi_events_stats(m, &npat, NULL);
            }
            dvc_hybrid_result_clear(r);
            dvc_hybrid_model_clear(m);
        }
        const char *name = strrchr(argv[a], '/');
        name = name ? name + 1 : argv[a];
        if (st != DVC_OK)
            printf("%-40s not certified: %s\n", name, dvc_error_message());
        else
            printf("%-40s %8.3g %8ld %7ld %9ld %12.2e %10.3f\n", name,
                   mpfr_get_d(&p->T->right, MPFR_RNDN), steps, events, npat, rad, best);
        dvc_dlvi_problem_clear(p);
    }
    return 0;
}
