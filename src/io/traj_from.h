/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: a trajectory of another tool (CSV t,x1..xn, extra columns
 * ignored) as the predictor of the lognorm route (dvicert enclose --from). */
#ifndef DVC_IO_TRAJ_FROM_H
#define DVC_IO_TRAJ_FROM_H

#include "dvicert/error.h"
#include "dvicert/tgrid.h"

typedef struct {
    long n, ns;       /* states, samples */
    double *t, *x;    /* ns times (strictly increasing, t[0] = 0), ns x n values */
    dvc_tgrid grid;   /* the certificate's grid (dvc_traj_from_grid): uniform,
                         t_i = i T / N, when the samples are, else explicit,
                         the N + 1 times t[0..N] (an owned copy) */
    double end;       /* the certificate's T: T when uniform, else t[N] */
    long past;        /* samples after t[N], not used */
    double *xs;       /* (N + 1) x n: the predictor on the grid */
} dvc_traj_from;

/* Read and check: the header t and the states by name (names, n strings,
 * or NULL) or as x1..xn, the rule of every trajectory reader
 * (io/traj_header.h); exit-2 errors (DVC_ERR_INPUT) name the file and the line
 * (a time not starting at 0, not increasing, NaN or not a number, a row
 * with another number of fields than the header, the end before T). */
dvc_status dvc_traj_from_read(dvc_traj_from *tf, const char *path, long n,
                              const char *const *names, double T);
/* The certificate's grid: the samples as they are. When they are uniform
 * (t_j = j T / M to a relative 1e-9) the grid i T / N of the problem, else
 * the trajectory's own times up to the first one >= T (1 - 1e-9), t[N],
 * which becomes the certificate's T: the samples are used as they are. */
dvc_status dvc_traj_from_grid(dvc_traj_from *tf, double T);
void dvc_traj_from_clear(dvc_traj_from *tf);

#endif
