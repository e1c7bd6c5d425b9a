/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A time grid 0 = t_0 < ... < t_N = T over [0, T], in one of three forms
 * (docs/formats.md, "Time grid"): uniform (t_i = i T / N), a step h that
 * does not divide T (t_i = i h for i < N, t_N = T: a shorter last step),
 * or explicit binary64 times (a trajectory's own, --from). A struct that
 * keeps a grid holds it as one dvc_tgrid member (the DLVI result); others
 * still store the three fields (N, h, t) and read them as one value through
 * dvc_tgrid_set, so grid arithmetic (a step's length, t_i, the stated form)
 * is written once, here. */
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
    DVC_TGRID_EXPLICIT     /* t_i = t[i] exactly (binary64), t[N] = T; or
                              given on demand by a source (t NULL) */
} dvc_tgrid_kind;

/* Explicit times on demand, never held as an array (a trajectory's own
 * times read again from its file: enclose --from, memory independent of
 * N): at(ctx, i, &t) gives t_i, i = 0..N, cheapest in increasing i. A
 * status other than DVC_OK (a read error, a file changed since it was
 * checked) has its message set and is the caller's to return. */
typedef struct {
    dvc_status (*at)(void *ctx, long i, double *t);
    void *ctx;
} dvc_tgrid_src;

typedef struct {
    dvc_tgrid_kind kind;
    long N;          /* steps */
    double h;        /* DVC_TGRID_LAST_SHORT: the step */
    const double *t; /* DVC_TGRID_EXPLICIT: the N + 1 times */
    int own;         /* t is malloc'd and freed by dvc_tgrid_clear (a copy
                        held by a struct member); 0: a view of another's */
    const dvc_tgrid_src *src; /* DVC_TGRID_EXPLICIT with t NULL: the times
                                 on demand (a view: the source outlives g) */
} dvc_tgrid;

/* The empty uniform grid (N = 0, no times). */
void dvc_tgrid_init(dvc_tgrid *g);
/* Frees owned times; g is then the empty uniform grid. */
void dvc_tgrid_clear(dvc_tgrid *g);
/* dst becomes src with its explicit times copied (owned by dst; times on
 * demand are read into the copy); dst's old times are freed. An error
 * (DVC_ERR_NOMEM, the source's) leaves dst the empty grid. */
dvc_status dvc_tgrid_copy(dvc_tgrid *dst, const dvc_tgrid *src);

/* A view (times not owned) of the three fields N steps, a step h > 0
 * (0: none) and explicit times t (NULL: none; h must then be 0). */
void dvc_tgrid_set(dvc_tgrid *g, long N, double h, const double *t);
/* A view of N steps on the explicit times of src (on demand). */
void dvc_tgrid_set_src(dvc_tgrid *g, long N, const dvc_tgrid_src *src);
/* t_i of an explicit grid (held or on demand), i = 0..N, into *t. */
dvc_status dvc_tgrid_at(const dvc_tgrid *g, long i, double *t);

/* t_i enclosed, i = 0..N (T the final time; exact for the binary forms).
 * On the uniform form t_i = h i with h the enclosure of T / N when given
 * (the engine's step), else (T i) / N. */
dvc_status dvc_tgrid_time(mpfi_t ti, const dvc_tgrid *g, const mpfi_t T, const mpfi_t h, long i);
/* The length of step i = [t_i, t_{i+1}], i = 0..N-1, enclosed. Both
 * return DVC_OK, or the error of times on demand. */
dvc_status dvc_tgrid_step(mpfi_t hs, const dvc_tgrid *g, const mpfi_t T, long i);
/* The length of the last step as the nearest double of its computation at
 * 128 bits from T's lower end (for messages; NaN when times on demand
 * cannot be read, as for the two below). */
double dvc_tgrid_last_step_d(const dvc_tgrid *g, const mpfi_t T);
/* The last step as `info` has always printed it: T's lower end rounded to
 * double minus (N-1) h in binary64 (on the uniform form T / N in binary64).
 * Kept beside dvc_tgrid_last_step_d, which rounds once at 128 bits and can
 * differ in the last bit, so that the printed report stays the same. */
double dvc_tgrid_last_step_d64(const dvc_tgrid *g, mpfi_srcptr T);
/* t_i as the double a certificate's time label states, on the binary
 * forms: the nearest double of i h (exact at 128 bits) or of T's lower end
 * rounded to 128 bits (i = N); t[i] on explicit times. The uniform form
 * has its own label rule (dvc_cert_time_label); here (T i) / N at 128 bits. */
double dvc_tgrid_time_d(const dvc_tgrid *g, mpfi_srcptr T, long i);
/* The shortest and longest step as doubles (for messages): DVC_OK, or
 * the error of times on demand (one pass over them). */
dvc_status dvc_tgrid_step_range_d(double *hmin, double *hmax, const dvc_tgrid *g, const mpfi_t T);
#ifdef __cplusplus
}
#endif
#endif
