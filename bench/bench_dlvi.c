/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* DLVI engine speed: certified steps per second vs the floating-point
 * predictor alone, measured in one run, on the bridge (Example 5.1, n = 2,
 * m = 1, h = 1e-4, T = 1) and on a chain of k masses with pounding contacts
 * between neighbours (n = 2k, m = k - 1). Targets: >= 25,000 certified
 * steps/s on the bridge, certified / predictor-only time <= 10. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvicert/dlvi.h"
#include "dvicert/tfun.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

typedef struct {
    long n;      /* state size; forcing acts on the velocities n/2..n-1 */
    double amp, freq;
    mpfi_t a, b;
} forcing;

/* f = (0, ..., 0, amp sin(freq t), ..., amp sin(freq t)) */
static dvc_status f_eval(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    forcing *F = ctx;
    mpfi_mul_d(F->a, t, F->freq);
    mpfi_sin(F->b, F->a);
    mpfi_mul_d(F->b, F->b, F->amp);
    for (long k = 0; k < F->n; k++) {
        if (k < F->n / 2) mpfi_set_ui(out->e[k], 0);
        else mpfi_set(out->e[k], F->b);
    }
    return DVC_OK;
}

static dvc_status f_lip(mpfr_t out, const mpfi_t t, void *ctx)
{
    forcing *F = ctx;
    mpfi_mul_d(F->a, t, F->freq);
    mpfi_cos(F->b, F->a);
    mpfi_mul_d(F->b, F->b, F->amp * F->freq);
    dvc_ival_mag(out, F->b);
    return DVC_OK;
}

static void f_d(double *out, double t, void *ctx)
{
    forcing *F = ctx;
    double v = F->amp * sin(F->freq * t);
    for (long k = 0; k < F->n; k++) out[k] = k < F->n / 2 ? 0.0 : v;
}

static void set_d(mpfi_t x, double v) { mpfi_set_d(x, v); }

static void bridge(dvc_dlvi_problem_t p, forcing *F, long N)
{
    p->n = 2;
    p->m = 1;
    dvc_imat_resize(p->A, 2, 2);
    dvc_imat_resize(p->B, 2, 1);
    dvc_imat_resize(p->Q, 1, 2);
    dvc_imat_resize(p->M, 1, 1);
    dvc_ivec_resize(p->l, 1);
    dvc_ivec_resize(p->u, 1);
    dvc_ivec_resize(p->x0, 2);
    set_d(dvc_imat_entry(p->A, 0, 1), 1);
    set_d(dvc_imat_entry(p->A, 1, 0), -4);
    set_d(dvc_imat_entry(p->B, 1, 0), -1);
    set_d(dvc_imat_entry(p->Q, 0, 0), 3);
    set_d(dvc_imat_entry(p->M, 0, 0), 1);
    set_d(p->l->e[0], 0);
    mpfi_set_d(p->u->e[0], INFINITY);
    dvc_ival_set_str(p->x0->e[1], "0.2");
    mpfi_set_ui(p->T, 1);
    mpfi_set_ui(p->theta, 1);
    p->N = N;
    p->prec = 53;
    F->n = 2;
    F->amp = 1;
    F->freq = 4;
    p->fcb.k = 2;
    p->fcb.eval = f_eval;
    p->fcb.lipschitz = f_lip;
    p->fcb.eval_d = f_d;
    p->fcb.ctx = F;
}

/* k unit masses on ground springs (4) coupled by springs (1), light
 * damping (0.1); neighbours j, j+1 pound when u_j - u_{j+1} > d = 0.01 with
 * stiffness a = 6: 0 <= y_j ⊥ y_j - a (u_j - u_{j+1} - d) >= 0 (Example 5.2).
 * Ground acceleration 0.5 sin(2 pi t); alternating initial velocities. */
static void chain(dvc_dlvi_problem_t p, forcing *F, long k, long N, const char *T)
{
    long n = 2 * k, m = k - 1;
    p->n = n;
    p->m = m;
    dvc_imat_resize(p->A, n, n);
    dvc_imat_resize(p->B, n, m);
    dvc_imat_resize(p->Q, m, n);
    dvc_imat_resize(p->M, m, m);
    dvc_ivec_resize(p->l, m);
    dvc_ivec_resize(p->u, m);
    dvc_ivec_resize(p->x0, n);
    dvc_imat_zero(p->A);
    dvc_imat_zero(p->B);
    dvc_imat_zero(p->Q);
    dvc_imat_one(p->M);
    for (long j = 0; j < k; j++) {
        set_d(dvc_imat_entry(p->A, j, k + j), 1);
        set_d(dvc_imat_entry(p->A, k + j, j), -4.0 - 2.0);
        if (j > 0) set_d(dvc_imat_entry(p->A, k + j, j - 1), 1);
        if (j + 1 < k) set_d(dvc_imat_entry(p->A, k + j, j + 1), 1);
        set_d(dvc_imat_entry(p->A, k + j, k + j), -0.1);
        set_d(p->x0->e[k + j], j % 2 ? -0.5 : 0.5);
    }
    for (long c = 0; c < m; c++) {
        set_d(dvc_imat_entry(p->B, k + c, c), -1);
        set_d(dvc_imat_entry(p->B, k + c + 1, c), 1);
        set_d(dvc_imat_entry(p->Q, c, c), -6);
        set_d(dvc_imat_entry(p->Q, c, c + 1), 6);
        set_d(p->l->e[c], 0);
        mpfi_set_d(p->u->e[c], INFINITY);
    }
    dvc_ival_set_str(p->T, T);
    mpfi_set_ui(p->theta, 1);
    p->N = N;
    p->prec = 53;
    F->n = n;
    F->amp = 0.5;
    F->freq = 2 * M_PI;
    p->fcb.k = n;
    p->fcb.eval = f_eval;
    p->fcb.lipschitz = f_lip;
    p->fcb.eval_d = f_d;
    p->fcb.ctx = F;
    /* g = a d (constant) */
}

static dvc_status g_eval(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    for (long k = 0; k < out->n; k++) dvc_ival_set_str(out->e[k], "0.06");
    return DVC_OK;
}

static dvc_status g_lip(mpfr_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    mpfr_set_zero(out, 1);
    return DVC_OK;
}

static void g_d(double *out, double t, void *ctx)
{
    long *m = ctx;
    (void)t;
    for (long k = 0; k < *m; k++) out[k] = 0.06;
}

/* Times the predictor alone, the full run and certification of the stored
 * predictor; prints one table row. */
static void measure(const char *name, dvc_dlvi_problem_t p, int reps)
{
    long n = p->n, m = p->m, N = p->N;
    double *xs = malloc(sizeof(double) * (size_t)((N + 1) * n));
    double *ys = malloc(sizeof(double) * (size_t)((N + 1) * (m > 0 ? m : 1)));
    double tp = 1e300, tr = 1e300, tc = 1e300;
    dvc_dlvi_opts o;
    dvc_dlvi_result_t r;
    dvc_status st = DVC_OK;
    dvc_dlvi_opts_default(&o);
    dvc_dlvi_result_init(r);
    for (int k = 0; k < reps; k++) {
        double t0 = now();
        st = dvc_dlvi_predict(xs, ys, p, &o);
        double t1 = now();
        if (st != DVC_OK) break;
        st = dvc_dlvi_run(r, p, &o);
        double t2 = now();
        if (st != DVC_OK) break;
        st = dvc_dlvi_certify(r, p, &o, xs, ys);
        double t3 = now();
        if (st != DVC_OK) break;
        if (t1 - t0 < tp) tp = t1 - t0;
        if (t2 - t1 < tr) tr = t2 - t1;
        if (t3 - t2 < tc) tc = t3 - t2;
    }
    if (st != DVC_OK) {
        printf("%-16s %6ld %4ld %4ld  failed: %s\n", name, n, m, N, dvc_error_message());
    } else {
        printf("%-16s %6ld %4ld %6ld %12.0f %12.0f %12.0f %8.1f %11.3e\n", name, n, m, N, N / tr, N / tc,
               N / tp, tr / tp, mpfr_get_d(r->eps_x[N], MPFR_RNDU));
    }
    dvc_dlvi_result_clear(r);
    free(xs);
    free(ys);
}

int main(void)
{
    forcing F;
    long ks[] = {2, 8, 32};
    mpfi_init2(F.a, 53);
    mpfi_init2(F.b, 53);
    printf("DLVI engine: steps per second (best of 3), theta = 1, 53 bits\n");
    printf("%-16s %6s %4s %6s %12s %12s %12s %8s %11s\n", "problem", "n", "m", "N", "run/s",
           "certify/s", "predict/s", "run/pred", "eps_x(T)");
    {
        dvc_dlvi_problem_t p;
        dvc_dlvi_problem_init(p);
        bridge(p, &F, 10000);
        measure("bridge h=1e-4", p, 3);
        dvc_dlvi_problem_clear(p);
    }
    {
        /* the same with f given as an expression (problem-file path) */
        dvc_dlvi_problem_t p;
        dvc_dlvi_problem_init(p);
        bridge(p, &F, 10000);
        memset(&p->fcb, 0, sizeof p->fcb);
        p->f = malloc(2 * sizeof(dvc_tfun_t));
        dvc_tfun_init(p->f[0]);
        dvc_tfun_init(p->f[1]);
        if (dvc_tfun_set_expr(p->f[0], "0", NULL) != DVC_OK ||
            dvc_tfun_set_expr(p->f[1], "sin(4*t)", NULL) != DVC_OK) {
            printf("expression: %s\n", dvc_error_message());
        } else {
            measure("bridge (expr f)", p, 3);
        }
        dvc_dlvi_problem_clear(p);
    }
    for (int i = 0; i < 3; i++) {
        dvc_dlvi_problem_t p;
        long m;
        char name[32];
        dvc_dlvi_problem_init(p);
        chain(p, &F, ks[i], ks[i] <= 8 ? 2000 : 500, ks[i] <= 8 ? "0.2" : "0.05");
        m = p->m;
        p->gcb.k = m;
        p->gcb.eval = g_eval;
        p->gcb.lipschitz = g_lip;
        p->gcb.eval_d = g_d;
        p->gcb.ctx = &m;
        snprintf(name, sizeof name, "chain k=%ld", ks[i]);
        measure(name, p, ks[i] <= 8 ? 3 : 1);
        dvc_dlvi_problem_clear(p);
    }
    mpfi_clear(F.a);
    mpfi_clear(F.b);
    return 0;
}
