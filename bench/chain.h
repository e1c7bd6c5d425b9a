/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The benchmark problems shared by bench_dlvi.c and bench_lognorm.c: a
 * sinusoidal forcing given as C callbacks, and the chain of k masses. */
#ifndef DVC_BENCH_CHAIN_H
#define DVC_BENCH_CHAIN_H

#include <math.h>

#include "dvicert/dlvi.h"
#include "../tests/dlvi_setup.h"

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

/* f' = (0, ..., 0, amp freq cos(freq t), ...) over [t] (used by the
 * lognorm route's defect bound) */
static dvc_status f_deriv(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    forcing *F = ctx;
    mpfi_mul_d(F->a, t, F->freq);
    mpfi_cos(F->b, F->a);
    mpfi_mul_d(F->b, F->b, F->amp * F->freq);
    for (long k = 0; k < F->n; k++) {
        if (k < F->n / 2) mpfi_set_ui(out->e[k], 0);
        else mpfi_set(out->e[k], F->b);
    }
    return DVC_OK;
}

static void f_d(double *out, double t, void *ctx)
{
    forcing *F = ctx;
    double v = F->amp * sin(F->freq * t);
    for (long k = 0; k < F->n; k++) out[k] = k < F->n / 2 ? 0.0 : v;
}

static void set_d(mpfi_t x, double v) { mpfi_set_d(x, v); }

/* k unit masses on ground springs (4) coupled by springs (1), light
 * damping (0.1); neighbours j, j+1 pound when u_j - u_{j+1} > d = 0.01 with
 * stiffness a = 6: 0 <= y_j ⊥ y_j - a (u_j - u_{j+1} - d) >= 0 (Example 5.2).
 * Ground acceleration 0.5 sin(2 pi t); alternating initial velocities. */
static void chain(dvc_dlvi_problem_t p, forcing *F, long k, long N, const char *T)
{
    long n = 2 * k, m = k - 1;
    dlvi_dims(p, n, m);
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
    p->fcb.deriv = f_deriv;
    p->fcb.ctx = F;
    /* g = a d (constant) */
}

/* [0.06] parsed once (parsing it on every call cost more than the step) */
static mpfi_t g_val;

static dvc_status g_eval(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    for (long k = 0; k < out->n; k++) mpfi_set(out->e[k], g_val);
    return DVC_OK;
}

static void g_d(double *out, double t, void *ctx)
{
    const long *m = ctx;
    (void)t;
    for (long k = 0; k < *m; k++) out[k] = 0.06;
}

#endif
