/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A time grid 0 = t_0 < ... < t_N = T over [0, T], in one of three forms
 * (docs/formats.md, "Time grid"): uniform (t_i = i T / N), a step h that
 * does not divide T (t_i = i h for i < N, t_N = T: a shorter last step),
 * or explicit binary64 times (a trajectory's own, --from). The problem, the
 * result and the tube store these forms in their fields (N, h/hgrid,
 * grid/tgrid/t); dvc_tgrid reads them as one value, so grid arithmetic
 * (a step's length, t_i, the stated form) is written once, here. */
#ifndef DVICERT_TGRID_H
#define DVICERT_TGRID_H

#include <mpfi.h>

#include "dvicert/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    DVC_TGRID_UNIFORM = 0, /* t_i = i T / N */
    DVC_TGRID_LAST_SHORT,  /* t_i = i h (i < N), t_N = T, (N-1) h < T <= N h */
    DVC_TGRID_EXPLICIT     /* t_i = t[i] exactly (binary64), t[N] = T */
} dvc_tgrid_kind;

typedef struct {
    dvc_tgrid_kind kind;
    long N;          /* steps */
    double h;        /* DVC_TGRID_LAST_SHORT: the step */
    const double *t; /* DVC_TGRID_EXPLICIT: the N + 1 times (not owned) */
} dvc_tgrid;

/* The grid of the three fields every owner keeps: N steps, a step h > 0
 * (0: none) and explicit times t (NULL: none; h must then be 0). */
void dvc_tgrid_set(dvc_tgrid *g, long N, double h, const double *t);

/* t_i enclosed, i = 0..N (T the final time; exact for the binary forms).
 * On the uniform form t_i = h i with h the enclosure of T / N when given
 * (the engine's step), else (T i) / N. */
void dvc_tgrid_time(mpfi_t ti, const dvc_tgrid *g, const mpfi_t T, const mpfi_t h, long i);
/* The length of step i = [t_i, t_{i+1}], i = 0..N-1, enclosed. */
void dvc_tgrid_step(mpfi_t hs, const dvc_tgrid *g, const mpfi_t T, long i);
/* The length of the last step as the nearest double of its computation at
 * 128 bits from T's lower end (for messages). */
double dvc_tgrid_last_step_d(const dvc_tgrid *g, const mpfi_t T);
/* The shortest and longest step as doubles (for messages). */
void dvc_tgrid_step_range_d(double *hmin, double *hmax, const dvc_tgrid *g, const mpfi_t T);
#ifdef __cplusplus
}
#endif
#endif
