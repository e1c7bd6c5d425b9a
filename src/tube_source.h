/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private (src/tube.c): a tube read in place from a storage other than a
 * dvc_tube_t -- an engine's result -- through accessors the engine
 * provides, so that the geometry stays written once and knows no engine
 * (src/dlvi/tube.c: dvc_dlvi_tube_x / _y without a copy). Same meaning as
 * the fields of dvc_tube_struct (include/dvicert/tube.h); every row held. */
#ifndef DVC_TUBE_SOURCE_H
#define DVC_TUBE_SOURCE_H

#include "dvicert/tube.h"

typedef struct {
    long n, m, N, steps;
    mpfr_prec_t prec;
    mpfi_srcptr T;
    const double *x;       /* (N+1) x n: predictor (exact binary64) */
    const double *times;   /* N + 1 grid times (exact), or NULL */
    double hgrid;          /* times NULL and hgrid > 0: t_i = i hgrid (i < N), t_N = T */
    const void *ctx;       /* handed to the accessors */
    /* eps_x^i, the ends of yhat^i_k, ry of step i (1..N): the stated
     * number lies in the enclosure written */
    void (*eps_x)(mpfi_t out, const void *ctx, long i);
    void (*yhat)(mpfi_t lo, mpfi_t hi, const void *ctx, long i, long k);
    void (*ry)(mpfi_t out, const void *ctx, long i);
    /* the box of y_k into lo (rounded down), hi (up); 0 when there is none */
    int (*ybox)(mpfr_t lo, mpfr_t hi, const void *ctx, long k);
} dvc_tube_source;

/* dvc_tube_outer for a source. */
dvc_status dvc_tube_source_outer(dvc_ivec_t out, const dvc_tube_source *s, const mpfi_t t, int which);

#endif
