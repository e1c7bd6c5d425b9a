/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The time budget of a run of the hybrid engine or of its floating-point
 * companion, and their progress line: stderr, a terminal only, at most 4
 * lines a second, rewritten in place (docs/hybrid.md section 1). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "hybrid/internal.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void hyb_clock_start(hyb_clock *k, const dvc_hybrid_model_struct *m, const char *what)
{
    k->start = now_s();
    k->limit = m->max_seconds > 0 ? m->max_seconds : DVC_HYBRID_MAX_SECONDS;
    k->tty = m->progress && isatty(STDERR_FILENO);
    k->next_line = k->start + 0.25;
    k->shown = 0;
    k->what = what;
}

dvc_status hyb_clock_tick(hyb_clock *k, const dvc_hybrid_model_struct *m, double t, long steps,
                          long crossings)
{
    double now = now_s();
    if (now - k->start > k->limit)
        return dvc_error(DVC_NOT_CERTIFIED, "stopped by the time budget of %g s at t = %.17g "
                         "(%s on [%.17g, %.17g], %ld steps, %ld crossings; the model's "
                         "max_seconds or --max-seconds raises it)", k->limit, t,
                         strcmp(k->what, "hybrid") == 0 ? "certified" : "computed",
                         mpfr_get_d(m->t0, MPFR_RNDN), t, steps, crossings);
    if (k->tty && now >= k->next_line) {
        fprintf(stderr, "\r%s: t = %.6g of %.6g, %ld steps, %ld crossings, %.1f s   ", k->what, t,
                mpfr_get_d(m->T, MPFR_RNDN), steps, crossings, now - k->start);
        fflush(stderr);
        k->next_line = now + 0.25;
        k->shown = 1;
    }
    return DVC_OK;
}

void hyb_clock_end(const hyb_clock *k)
{
    if (k->shown) fputc('\n', stderr); /* the progress line ends */
}
