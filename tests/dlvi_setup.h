/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Pieces of DLVI problems set up by hand, shared by the tests and
 * bench/bench_dlvi.c. */
#ifndef DVC_TESTS_DLVI_SETUP_H
#define DVC_TESTS_DLVI_SETUP_H

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

#endif
