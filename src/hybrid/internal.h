/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the hybrid module (src/hybrid/). */
#ifndef DVC_HYBRID_INTERNAL_H
#define DVC_HYBRID_INTERNAL_H

#include "dvicert/hybrid.h"

/* The time budget of a run (m->max_seconds) and its progress line, named
 * what ("hybrid": the engine, which certifies; else a companion): budget.c. */
typedef struct {
    double start, limit, next_line;
    int tty, shown;
    const char *what;
} hyb_clock;
void hyb_clock_start(hyb_clock *k, const dvc_hybrid_model_struct *m, const char *what);
/* DVC_NOT_CERTIFIED (saying up to where, t) once the budget is spent; else
 * the progress line when due. */
dvc_status hyb_clock_tick(hyb_clock *k, const dvc_hybrid_model_struct *m, double t, long steps,
                          long crossings);
/* Ends a progress line that was shown. */
void hyb_clock_end(const hyb_clock *k);

#endif
