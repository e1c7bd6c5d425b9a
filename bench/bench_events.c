/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The DLVI events route (docs/events.md): time, steps, events, patterns
 * built and the radius at T of the exact-solution tube, per problem file.
 *
 * usage: bench_events [-r REPS] [-v] [-T T] PROBLEM.json|chainK...   (-v: the
 * steps where the radius grows more than 4x, the windows, and the relative
 * radius at T; REPS
 * default 3, the best time is kept; -T overrides the problems' T for the
 * problems after it; chainK: the chain of K masses of bench/chain.h with its
 * forcing 0.5 sin(2 pi t) as an expression, T = 1 unless -T; chainaK: the
 * same with unequal initial velocities, no simultaneous contacts). Example, from
 * the source tree:
 *   ./build/bench/bench_events -T 10 certs/bridge/gamma0.2.json \
 *       -T 21 certs/circuit/circuit_long.json -T 20 tests/data/events/pounding3.json */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dvicert/events.h"
#include "dvicert/problem.h"
#include "chain.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double radius_at(const dvc_hybrid_result_t r, long k)
{
    double rad = 0;
    const dvc_ivec_struct *X = r->x[k];
    for (long i = 0; i < X->n; i++) {
        double w = (mpfr_get_d(&X->e[i]->right, MPFR_RNDU) - mpfr_get_d(&X->e[i]->left, MPFR_RNDD)) / 2;
        if (w > rad) rad = w;
    }
    return rad;
}

static double radius_at_end(const dvc_hybrid_result_t r) { return radius_at(r, r->nsteps); }

/* -v: the steps where the radius grows by more than 4x (and the windows). */
static void trace(const dvc_hybrid_result_t r)
{
    double prev = 0;
    for (long k = 1; k <= r->nsteps; k++) {
        double rad = radius_at(r, k);
        int win = 0;
        for (long j = 0; j < r->nwindows; j++) win |= r->wstep[j] == k - 1;
        if (rad > 4 * prev || win)
            printf("  step %ld t = %.9g radius %.3g%s\n", k, mpfr_get_d(r->t[k], MPFR_RNDN), rad,
                   win ? " (window)" : "");
        if (rad > prev) prev = rad;
    }
    /* the relative radius at T: max_i rad_i(T) / max_t |x_i(t)| (dvicert info's) */
    double rel = 0;
    const dvc_ivec_struct *XT = r->x[r->nsteps];
    for (long i = 0; i < XT->n; i++) {
        double size = 0;
        for (long k = 0; k <= r->nsteps; k++) {
            double a = fabs(mpfr_get_d(&r->x[k]->e[i]->left, MPFR_RNDN)),
                   b = fabs(mpfr_get_d(&r->x[k]->e[i]->right, MPFR_RNDN));
            if (a > size) size = a;
            if (b > size) size = b;
        }
        double ri = (mpfr_get_d(&XT->e[i]->right, MPFR_RNDU) - mpfr_get_d(&XT->e[i]->left, MPFR_RNDD)) / 2;
        if (size > 0 && ri / size > rel) rel = ri / size;
    }
    printf("  relative radius at T %.3g\n", rel);
}

int main(int argc, char **argv)
{
    int reps = 3, verbose = 0;
    const char *T = NULL;
    (void)g_eval; /* chain.h's callbacks of g: this route takes g as a constant */
    (void)g_d;
    printf("%-40s %8s %8s %7s %9s %12s %10s %8s\n", "problem", "T", "steps", "events", "patterns",
           "radius at T", "time [s]", "windows");
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-r") && a + 1 < argc) {
            reps = atoi(argv[++a]);
            continue;
        }
        if (!strcmp(argv[a], "-v")) {
            verbose = 1;
            continue;
        }
        if (!strcmp(argv[a], "-T") && a + 1 < argc) {
            T = argv[++a];
            continue;
        }
        dvc_dlvi_problem_t p;
        dvc_dlvi_problem_init(p, 0, 0, 53);
        if (!strncmp(argv[a], "chain", 5)) {
            /* the chain's matrices, with f and g as functions of t the route takes */
            /* "chainaK": velocities made unequal (0.5 (1 + j/(2K)), alternating
             * signs), so that no two contacts close at the same instant */
            int asym = argv[a][5] == 'a';
            long k = atol(argv[a] + 5 + asym);
            forcing F;
            dvc_dlvi_problem_clear(p);
            dvc_dlvi_problem_init(p, 2 * k, k - 1, 53);
            chain(p, &F, k, 1000, T ? T : "1");
            dvc_tfun_vec_struct *fv = dvc_tfun_vec_new(2 * k, 53), *gv = dvc_tfun_vec_new(k - 1, 53);
            mpfi_t c;
            mpfi_init2(c, 53);
            mpfi_set_str(c, "0.06", 10);
            for (long i = k; i < 2 * k; i++) dvc_tfun_set_expr(&fv->fn[i], "0.5*sin(2*pi*t)", NULL);
            for (long j = 0; j < k - 1; j++) dvc_tfun_set_const(&gv->fn[j], c);
            mpfi_clear(c);
            for (long j = 0; asym && j < k; j++)
                mpfi_set_d(p->x0->e[k + j], (j % 2 ? -0.5 : 0.5) * (1 + 0.5 * (double)j / (double)k));
            dvc_tfun_vec_cb(&p->fcb, fv, 1);
            dvc_tfun_vec_cb(&p->gcb, gv, 1);
        } else if (dvc_problem_read(p, argv[a], 53) != DVC_OK) {
            fprintf(stderr, "%s\n", dvc_error_message());
            dvc_dlvi_problem_clear(p);
            return 2;
        }
        if (T && strncmp(argv[a], "chain", 5)) mpfi_set_str(p->T, T, 10);
        double best = 1e300;
        long steps = 0, events = 0, npat = 0, windows = 0;
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
                dvc_dlvi_events_stats(m, &npat, NULL, NULL);
                windows = r->nwindows;
                if (verbose && k == 0) trace(r);
            }
            dvc_hybrid_result_clear(r);
            dvc_hybrid_model_clear(m);
        }
        const char *name = strrchr(argv[a], '/');
        name = name ? name + 1 : argv[a];
        if (st != DVC_OK)
            printf("%-40s not certified: %s\n", name, dvc_error_message());
        else
            printf("%-40s %8.3g %8ld %7ld %9ld %12.2e %10.3f %8ld\n", name,
                   mpfr_get_d(&p->T->right, MPFR_RNDN), steps, events, npat, rad, best, windows);
        dvc_dlvi_problem_clear(p);
    }
    return 0;
}
