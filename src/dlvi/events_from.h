/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: the trajectory bounds of the events route (dvicert/events.h,
 * dvc_dlvi_events_from_*) on samples handed over one at a time and bounds
 * handed out one row at a time, so that enclose --from holds neither
 * (memory independent of the number of samples). */
#ifndef DVC_DLVI_EVENTS_FROM_H
#define DVC_DLVI_EVENTS_FROM_H

#include <stdio.h>

#include "dvicert/events.h"

/* Sample k (k = 0..ns-1 in order): its time and n values. */
typedef dvc_status (*dvc_efrom_src)(void *ctx, long k, double *t, double *p);
/* Row k: the sample (t, p) and its bounds lo, hi (n each) and up over
 * [t_k, t_k+1] (n; NULL on the last row), in order. */
typedef dvc_status (*dvc_efrom_row)(void *ctx, long k, double t, const double *p, const double *lo,
                                    const double *hi, const double *up);

/* dvc_dlvi_events_from_set's checks (the same messages) on the ns samples
 * of src; p: room for n values. */
dvc_status dvc_efrom_samples_check_(long n, long ns, dvc_efrom_src src, void *ctx, double *p, const mpfr_t t0,
                                    const mpfr_t T);
/* dvc_dlvi_events_from_bound on the ns samples of src, the bounds to row. */
dvc_status dvc_efrom_bound_stream_(long n, long ns, dvc_efrom_src src, void *sctx, dvc_efrom_row row, void *rctx,
                                   const dvc_hybrid_model_struct *m, const dvc_hybrid_result_struct *r);

/* The rows in a temporary file (binary64, in order): t, p, lo, hi, up (n
 * each; up 0 on the last row), 1 + 4 n numbers a row. */
typedef struct {
    long n, ns;
    FILE *f;
} dvc_efrom_spool;

/* An empty spool for rows of n values (DVC_ERR_IO: no temporary file). */
dvc_status dvc_efrom_spool_open_(dvc_efrom_spool *s, long n);
/* A dvc_efrom_row (ctx the spool): row k appended (k = ns so far). */
dvc_status dvc_efrom_spool_row_(void *ctx, long k, double t, const double *p, const double *lo, const double *hi,
                                const double *up);
/* Row k into row (1 + 4 n numbers), k = 0..ns-1 in order (k = 0 reads
 * from the start again). */
dvc_status dvc_efrom_spool_read_(const dvc_efrom_spool *s, long k, double *row);
void dvc_efrom_spool_close_(dvc_efrom_spool *s);

#endif
