/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate I/O against the engine, in one process: the engine alone
 * (dvc_dlvi_run with a sink that only keeps the predictor; then
 * dvc_dlvi_certify_stream from that predictor, what verify recomputes)
 * and the same work with the certificate written (dvc_enclose)
 * and read back and verified (dvc_cert_stream). Best of R runs each.
 * Target: enclose / engine and verify / engine <= 1.3.
 *
 * usage: bench_certio PROBLEM.json [R] [OUT.cert.json]
 * prints one line: N n m, then wall seconds of engine, enclose, certify,
 * verify, then the CPU seconds of the same (the process's CPU clock: on a
 * loaded machine the wall clock mostly measures the load); bench/compare.sh
 * adds the whole-process times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvicert/certio.h"
#include "dvicert/dlvi.h"
#include "dvicert/problem.h"
#include "../tests/enclose_call.h"

static double clk(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* best[q] (wall) and best[4 + q] (CPU) of phase q, started at t[0], t[1] */
static void lap(double *best, int q, const double t[2])
{
    double w = clk(CLOCK_MONOTONIC) - t[0], c = clk(CLOCK_PROCESS_CPUTIME_ID) - t[1];
    if (w < best[q]) best[q] = w;
    if (c < best[4 + q]) best[4 + q] = c;
}

static void start(double t[2])
{
    t[0] = clk(CLOCK_MONOTONIC);
    t[1] = clk(CLOCK_PROCESS_CPUTIME_ID);
}

typedef struct {
    double *xs, *ys;
    long n, m;
} keep_t;

static dvc_status keep(const dvc_dlvi_point *pt, void *ctx)
{
    keep_t *k = ctx;
    memcpy(k->xs + pt->i * k->n, pt->x, (size_t)k->n * sizeof(double));
    memcpy(k->ys + pt->i * k->m, pt->y, (size_t)k->m * sizeof(double));
    return DVC_OK;
}

static dvc_status drop(const dvc_dlvi_point *pt, void *ctx)
{
    (void)pt;
    (void)ctx;
    return DVC_OK;
}

static dvc_status source(long i, double *x, double *y, void *ctx)
{
    keep_t *k = ctx;
    memcpy(x, k->xs + i * k->n, (size_t)k->n * sizeof(double));
    memcpy(y, k->ys + i * k->m, (size_t)k->m * sizeof(double));
    return DVC_OK;
}

static void fail(const char *what)
{
    fprintf(stderr, "bench_certio: %s: %s\n", what, dvc_error_message());
    exit(1);
}

int main(int argc, char **argv)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_opts o;
    keep_t k;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    const char *out = argc > 3 ? argv[3] : "/tmp/bench_certio.cert.json";
    double best[8] = {1e300, 1e300, 1e300, 1e300, 1e300, 1e300, 1e300, 1e300};
    if (argc < 2) {
        fprintf(stderr, "usage: %s PROBLEM.json [R] [OUT.cert.json]\n", argv[0]);
        return 2;
    }
    if (reps < 1) reps = 1;
    dvc_dlvi_problem_init(p, 0, 0, 0);
    if (dvc_problem_read(p, argv[1], 0) != DVC_OK) fail(argv[1]);
    dvc_prec_set(p->prec);
    k.n = p->n;
    k.m = p->m;
    k.xs = malloc((size_t)(p->N + 1) * (size_t)p->n * sizeof(double));
    k.ys = malloc((size_t)(p->N + 1) * (size_t)(p->m ? p->m : 1) * sizeof(double));
    if (!k.xs || !k.ys) return 2;
    dvc_dlvi_opts_default(&o);
    o.prec = p->prec;
    for (int r = 0; r < reps; r++) {
        dvc_dlvi_result_t res;
        dvc_cert_t c;
        double t0[2];
        /* 0: the engine, as enclose runs it (predictor and certification) */
        dvc_dlvi_result_init(res);
        o.sink = keep;
        o.sink_ctx = &k;
        start(t0);
        if (dvc_dlvi_run(res, p, &o) != DVC_OK) fail("engine");
        lap(best, 0, t0);
        dvc_dlvi_result_clear(res);
        /* 2: certification from the stored predictor, as verify runs it */
        dvc_dlvi_result_init(res);
        o.sink = drop;
        o.sink_ctx = NULL;
        start(t0);
        if (dvc_dlvi_certify_stream(res, p, &o, source, &k) != DVC_OK) fail("certify");
        lap(best, 2, t0);
        dvc_dlvi_result_clear(res);
        /* 1: enclose with the certificate written; 3: read and verified */
        dvc_cert_init(c);
        start(t0);
        if (enclose_cw(c, argv[1], out, 0, 0, 0) != DVC_OK) fail("enclose");
        lap(best, 1, t0);
        start(t0);
        if (dvc_cert_stream(c, out, 1, NULL, NULL) != DVC_OK) fail("verify");
        lap(best, 3, t0);
        dvc_cert_clear(c);
    }
    printf("%ld %ld %ld", p->N, p->n, p->m);
    for (int q = 0; q < 8; q++) printf(" %.4f", best[q]);
    printf("\n");
    free(k.xs);
    free(k.ys);
    dvc_dlvi_problem_clear(p);
    if (argc <= 3) remove(out);
    mpfr_free_cache();
    return 0;
}
