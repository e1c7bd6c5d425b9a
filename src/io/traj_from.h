/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: a trajectory of another tool (CSV t,x1..xn, extra columns
 * ignored) as the predictor of the lognorm route (dvicert enclose --from). */
#ifndef DVC_IO_TRAJ_FROM_H
#define DVC_IO_TRAJ_FROM_H

#include "dvicert/error.h"

typedef struct {
    long n, ns;       /* states, samples */
    double *t, *x;    /* ns times (strictly increasing, t[0] = 0), ns x n values */
    long N;           /* grid of the certificate (dvc_traj_from_grid) */
    int uniform;      /* the samples are the grid t_i = i T / N */
    double *xs;       /* (N + 1) x n: the predictor on the grid */
    double dev;       /* max distance of the grid's interpolant from the samples */
} dvc_traj_from;

/* Read and check: exit-2 errors (DVC_ERR_INPUT) name the file and the line
 * (a time not starting at 0, not increasing, NaN or not a number, a row
 * with another number of fields than the header, the end before T). */
dvc_status dvc_traj_from_read(dvc_traj_from *tf, const char *path, long n, double T);
/* The certificate's grid: the samples themselves when they are uniform
 * (t_j = j T / M to a relative 1e-9), else N = min(4 M, ceil(T / min step))
 * uniform steps with the trajectory's interpolant at the grid points. */
dvc_status dvc_traj_from_grid(dvc_traj_from *tf, double T);
void dvc_traj_from_clear(dvc_traj_from *tf);

#endif
