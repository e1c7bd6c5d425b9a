/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Pieces of DLVI problems set up by hand, shared by the tests and
 * bench/bench_dlvi.c. */
#ifndef DVC_TESTS_DLVI_SETUP_H
#define DVC_TESTS_DLVI_SETUP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/dlvi.h"

/* n states, m complementarity pairs: every matrix and vector of p gets
 * its shape, the entries are then set by the caller. */
static inline void dlvi_dims(dvc_dlvi_problem_t p, long n, long m)
{
    p->n = n;
    p->m = m;
    dvc_imat_resize(p->A, n, n);
    dvc_imat_resize(p->B, n, m);
    dvc_imat_resize(p->Q, m, n);
    dvc_imat_resize(p->M, m, m);
    dvc_ivec_resize(p->l, m);
    dvc_ivec_resize(p->u, m);
    dvc_ivec_resize(p->x0, n);
}

/* Lipschitz bound 0 (for a constant f or g). */
static inline dvc_status dlvi_zero_lip(mpfr_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    mpfr_set_zero(out, 1);
    return DVC_OK;
}

/* A decimal of the test's own data: a malformed one is a bug of the test. */
static inline void dlvi_dec(mpfi_t x, const char *v)
{
    if (dvc_ival_set_str(x, v) != DVC_OK) {
        fprintf(stderr, "dlvi_setup: bad decimal '%s' in the test data\n", v);
        abort();
    }
}

static inline void set_entries(dvc_imat_t A, long r, long c, const char *const *v)
{
    dvc_imat_resize(A, r, c);
    for (long k = 0; k < r * c; k++) dlvi_dec(A->e[k], v[k]);
}

static inline void set_vec(dvc_ivec_t x, long n, const char *const *v)
{
    dvc_ivec_resize(x, n);
    for (long k = 0; k < n; k++) dlvi_dec(x->e[k], v[k]);
}

/* Sizes and data A, B, Q, M, l, u, x0 of p from decimal strings (row-major). */
static inline void set_data(dvc_dlvi_problem_t p, long n, long m, const char *const *A, const char *const *B,
                     const char *const *Q, const char *const *M, const char *const *l,
                     const char *const *u, const char *const *x0)
{
    p->n = n;
    p->m = m;
    set_entries(p->A, n, n, A);
    set_entries(p->B, n, m, B);
    set_entries(p->Q, m, n, Q);
    set_entries(p->M, m, m, M);
    set_vec(p->l, m, l);
    set_vec(p->u, m, u);
    set_vec(p->x0, n, x0);
}

/* f given by callbacks with k components, no g. */
static inline void set_f(dvc_dlvi_problem_t p, long k, dvc_status (*eval)(dvc_ivec_t, const mpfi_t, void *),
                  dvc_status (*lipschitz)(mpfr_t, const mpfi_t, void *),
                  void (*eval_d)(double *, double, void *), void *ctx)
{
    memset(&p->fcb, 0, sizeof p->fcb);
    memset(&p->gcb, 0, sizeof p->gcb);
    p->fcb.k = k;
    p->fcb.eval = eval;
    p->fcb.lipschitz = lipschitz;
    p->fcb.eval_d = eval_d;
    p->fcb.ctx = ctx;
}

/* The data of the bridge of Example 5.1 with gamma = 0.2 (x1'' = -4 x1 - y +
 * f2(t), 0 <= y _|_ y + 3 x1 >= 0, x(0) = (0, 0.2), T = 1, theta = 1) on N
 * steps at 53 bits; f and g are left to the caller. */
static inline void dlvi_bridge_data(dvc_dlvi_problem_t p, long N)
{
    dlvi_dims(p, 2, 1);
    mpfi_set_d(dvc_imat_entry(p->A, 0, 1), 1);
    mpfi_set_d(dvc_imat_entry(p->A, 1, 0), -4);
    mpfi_set_d(dvc_imat_entry(p->B, 1, 0), -1);
    mpfi_set_d(dvc_imat_entry(p->Q, 0, 0), 3);
    mpfi_set_d(dvc_imat_entry(p->M, 0, 0), 1);
    mpfi_set_d(p->l->e[0], 0);
    mpfi_set_d(p->u->e[0], INFINITY);
    dvc_ival_set_str(p->x0->e[1], "0.2");
    mpfi_set_ui(p->T, 1);
    mpfi_set_ui(p->theta, 1);
    p->N = N;
    p->prec = 53;
}

#endif
