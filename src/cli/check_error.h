/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private (dvicert check): the certified two-sided error of a trajectory
 * against a tube of the exact solution (docs/formats.md, "check: the
 * certified error of a trajectory"). */
#ifndef DVC_CLI_CHECK_ERROR_H
#define DVC_CLI_CHECK_ERROR_H

#include <stdio.h>

#include "dvicert/certio.h"
#include "dvicert/tube.h"

/* Per column k (n states, then m outputs): the sample with the largest
 * upper bound of |p_k(t) - z_k(t)| (z = x or y, z(t) in the tube's outer
 * enclosure Z(t)), its bounds, and the bounds at the last sample. */
typedef struct {
    long ncol, n, last;    /* columns; states; the sample of the largest time (-1: none) */
    mpfr_t last_t;         /* its time (left end) */
    long *worst;           /* per column: its sample (-1: none) */
    long *wline;           /* per column: its line in the file */
    double *wt;            /* per column: its time (left end, nearest) */
    mpfr_t *wlo, *whi;     /* per column: the bounds there (down, up) */
    mpfr_t *wrad, *wdev;   /* per column: rad Z and |p - mid Z| there (nearest) */
    mpfr_t *llo, *lhi;     /* per column: the bounds at the last sample */
    dvc_ivec_t Z;
    mpfi_t D;
} dvc_check_err;

dvc_status dvc_check_err_init(dvc_check_err *e, long n, long m, mpfr_prec_t prec);
void dvc_check_err_clear(dvc_check_err *e);
/* Add sample s of the file, the one sample of one (its time enclosure
 * t[0], values v, line[0]): the tube tb's outer enclosure at t[0] against
 * the values; y columns only when one has them and tb states a y tube.
 * Nothing of one is kept (the trajectory may be streamed). */
dvc_status dvc_check_err_add(dvc_check_err *e, const dvc_traj_struct *one, const dvc_tube_struct *tb,
                             long s);
/* The tube is narrow: at the column and sample of the largest upper
 * bound, rad Z <= |p - mid Z| / 10 (and the bound is finite). */
int dvc_check_err_narrow(const dvc_check_err *e);
/* One line per column: "error NAME: largest in [lo, hi] at t = ... (line
 * L); at t = ...: [lo, hi]". names: the column names (n + m). */
void dvc_check_err_print(const dvc_check_err *e, const char *const *names, int digits, FILE *out);

#endif
