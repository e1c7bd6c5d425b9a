/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid engine: certified run vs a binary64 predictor on the same grid,
 * crossings per second and tube widths at T, for the piecewise harmonic
 * oscillator (T = 100) and the bridge as a switched linear system (T = 10).
 * The predictor is classical RK4 in binary64 on the certified run's grid,
 * switching mode at the midpoints of the certified crossing enclosures
 * (the cost of a floating-point integrator with the same steps).
 *
 * usage: bench_hybrid [repetitions]   (default 5; the best time is kept)
 *        bench_hybrid --model FILE... [--runs R]
 * The second form loads each hybrid model file (as dvicert enclose does, at
 * 53 bits) and prints the engine's time alone, dvc_hybrid_enclose without
 * the file reading and the certificate: the best CPU seconds of R runs (the
 * integration loop, for bench/compare.sh against scipy's). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dvicert/hybrid.h"
#include "io/hybrid_json.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    const char *name;
    double Ap[4], An[4];
    int forced; /* b = (0, sin 4t) in both modes */
    double x0[2], T;
} example;

static void build(dvc_hybrid_model_t m, const example *ex)
{
    const char *b[2] = {"0", "sin(4*t)"};
    dvc_imat_t A;
    dvc_ivec_t x;
    mpfr_t t0, T;
    long ip, in, ig;
    dvc_hybrid_model_init(m, 2, NULL, 53);
    dvc_imat_init2(A, 2, 2, 53);
    dvc_imat_set_d(A, ex->Ap);
    dvc_hybrid_add_mode_linear(m, "pos", A, ex->forced ? b : NULL, NULL, &ip);
    dvc_imat_set_d(A, ex->An);
    dvc_hybrid_add_mode_linear(m, "neg", A, ex->forced ? b : NULL, NULL, &in);
    dvc_hybrid_add_switch(m, "g", "x1", NULL, &ig);
    dvc_hybrid_add_transition(m, ip, ig, -1, in, NULL, NULL);
    dvc_hybrid_add_transition(m, in, ig, 1, ip, NULL, NULL);
    dvc_ivec_init2(x, 2, 53);
    dvc_ivec_set_d(x, ex->x0);
    mpfr_inits2(53, t0, T, (mpfr_ptr)0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    mpfr_set_d(T, ex->T, MPFR_RNDN);
    dvc_hybrid_set_initial(m, ip, x, t0, T);
    mpfr_clears(t0, T, (mpfr_ptr)0);
    dvc_ivec_clear(x);
    dvc_imat_clear(A);
}

static void field(double *f, const example *ex, int pos, double t, const double *x)
{
    const double *A = pos ? ex->Ap : ex->An;
    f[0] = A[0] * x[0] + A[1] * x[1];
    f[1] = A[2] * x[0] + A[3] * x[1] + (ex->forced ? sin(4 * t) : 0);
}

static void rk4(double *x, const example *ex, int pos, double t, double h)
{
    double k1[2], k2[2], k3[2], k4[2], y[2];
    field(k1, ex, pos, t, x);
    for (int i = 0; i < 2; i++) y[i] = x[i] + h / 2 * k1[i];
    field(k2, ex, pos, t + h / 2, y);
    for (int i = 0; i < 2; i++) y[i] = x[i] + h / 2 * k2[i];
    field(k3, ex, pos, t + h / 2, y);
    for (int i = 0; i < 2; i++) y[i] = x[i] + h * k3[i];
    field(k4, ex, pos, t + h, y);
    for (int i = 0; i < 2; i++) x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

static double predictor(const example *ex, const dvc_hybrid_result_t r)
{
    double x[2] = {ex->x0[0], ex->x0[1]};
    int pos = 1;
    long ev = 0;
    for (long i = 0; i < r->nsteps; i++) {
        double t0 = mpfr_get_d(r->t[i], MPFR_RNDN), t1 = mpfr_get_d(r->t[i + 1], MPFR_RNDN);
        if (ev < r->nevents && mpfr_equal_p(r->t[i + 1], &r->ev[ev].t->right)) {
            double tm = dvc_ival_mid_d(r->ev[ev].t);
            rk4(x, ex, pos, t0, tm - t0);
            pos = !pos;
            rk4(x, ex, pos, tm, t1 - tm);
            ev++;
        } else {
            rk4(x, ex, pos, t0, t1 - t0);
        }
    }
    return x[0] + x[1]; /* keeps the loop from being optimised away */
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "engine <best CPU s> steps <n> events <n>" for each model file. */
static int models(int argc, char **argv)
{
    int reps = 3;
    for (int i = 2; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--runs")) reps = atoi(argv[i + 1]);
    if (reps < 1) reps = 1;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--runs")) {
            i++;
            continue;
        }
        dvc_hybrid_model_t m;
        dvc_hybrid_result_t r;
        double best = INFINITY;
        dvc_status st = dvc_hybrid_load(m, argv[i], 53);
        dvc_hybrid_result_init(r);
        for (int k = 0; k < reps && st == DVC_OK; k++) {
            double t0 = cpu_now();
            st = dvc_hybrid_enclose(r, m);
            double t1 = cpu_now() - t0;
            if (t1 < best) best = t1;
        }
        if (st != DVC_OK) {
            fprintf(stderr, "bench_hybrid: %s: %s\n", argv[i], dvc_error_message());
            return 1;
        }
        printf("engine %.4f steps %ld events %ld  %s\n", best, r->nsteps, r->nevents, argv[i]);
        dvc_hybrid_result_clear(r);
        dvc_hybrid_model_clear(m);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--model")) return models(argc, argv);
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    if (reps < 1) reps = 1;
    const example exs[2] = {
        {"pw-harmonic T=100", {0, 1, -1, 0}, {0, 1, -3, 0}, 0, {1, 0}, 100},
        {"bridge-switched T=10", {0, 1, -4, 0}, {0, 1, -1, 0}, 1, {0, 1}, 10},
    };
    printf("%-25s %8s %8s %12s %12s %10s %12s %12s\n", "example (+guard bits)", "steps", "events",
           "certified s", "predictor s", "ratio", "events/s", "width at T");
    for (int e = 0; e < 4; e++) {
        dvc_hybrid_model_t m;
        /* the default guard bits first, then none (plain 53-bit intervals) */
        long guard = e >= 2 ? 0 : DVC_HYBRID_GUARD_BITS;
        build(m, &exs[e % 2]);
        m->guard_bits = guard;
        double best = INFINITY, bestp = INFINITY, sink = 0;
        dvc_hybrid_result_t r;
        dvc_hybrid_result_init(r);
        for (int k = 0; k < reps; k++) {
            double t0 = now();
            dvc_status st = dvc_hybrid_enclose(r, m);
            double t1 = now() - t0;
            if (st != DVC_OK) {
                fprintf(stderr, "%s: %s\n", exs[e % 2].name, dvc_error_message());
                return 1;
            }
            if (t1 < best) best = t1;
        }
        for (int k = 0; k < reps; k++) {
            double t0 = now();
            for (int j = 0; j < 100; j++) sink += predictor(&exs[e % 2], r);
            double t1 = (now() - t0) / 100;
            if (t1 < bestp) bestp = t1;
        }
        mpfr_t w;
        mpfr_init2(w, 53);
        dvc_ivec_max_width(w, r->x[r->nsteps]);
        printf("%-21s +%2ld %8ld %8ld %12.4g %12.4g %10.4g %12.4g %12.3g\n", exs[e % 2].name, guard,
               r->nsteps, r->nevents, best, bestp, best / bestp, r->nevents / best,
               mpfr_get_d(w, MPFR_RNDU));
        if (sink == 12345.678) printf(" ");
        mpfr_clear(w);
        dvc_hybrid_result_clear(r);
        dvc_hybrid_model_clear(m);
    }
    return 0;
}
