/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Trajectories (samples t, x1..xn[, y1..ym] from any tool) and checking
 * them against a certified tube (include/dvicert/tube.h). A trajectory can
 * be filled in memory (dvc_traj_alloc) or read from a CSV file
 * (dvc_traj_read, include/dvicert/certio.h). */
#ifndef DVICERT_TRAJ_H
#define DVICERT_TRAJ_H

#include "dvicert/tube.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Samples are held at this many bits more than the tube's precision (a
 * decimal time is not a binary number; the tube's edges at an enclosed time
 * must not lose more than O(ulp) of x). */
#define DVC_TRAJ_EXTRA_BITS 64

typedef struct {
    long ns;        /* samples */
    long n, m;      /* columns present: x1..xn always, y1..ym when m > 0 */
    long *line;     /* source line of each sample (1..ns for dvc_traj_alloc) */
    mpfi_t *t;      /* ns time enclosures (decimals enclosed exactly) */
    mpfi_t *v;      /* ns x (n + m) value enclosures, row-major */
    long *col;      /* n + m: column index in the file, for messages */
} dvc_traj_struct;
typedef dvc_traj_struct dvc_traj_t[1];

void dvc_traj_init(dvc_traj_t tr);
/* Releases every array the trajectory owns. */
void dvc_traj_clear(dvc_traj_t tr);

/* In-memory trajectory of ns samples with n x and m y values (m = 0: x
 * only), all zero at precision prec; the caller sets tr->t[s] and
 * tr->v[s * (n + m) + k]. Use prec >= the tube's + DVC_TRAJ_EXTRA_BITS for
 * the tightest check. */
dvc_status dvc_traj_alloc(dvc_traj_t tr, long ns, long n, long m, mpfr_prec_t prec);

/* One violation (or the worst sample). */
typedef struct {
    long sample;     /* index into the trajectory */
    long comp;       /* 0..n-1: x_{comp+1}; n..n+m-1: y_{comp-n+1} */
    double margin;   /* lower bound of the distance to the nearest tube edge
                        (negative: outside) */
} dvc_traj_hit;

typedef struct {
    long nsamples;
    double worst;          /* smallest margin over all samples and components */
    dvc_traj_hit worst_hit;
    double worst_x, worst_y; /* the same over the x (y) components; +inf when none */
    dvc_traj_hit worst_x_hit, worst_y_hit;
    long nviol;            /* values outside (beyond the tolerance, if any) */
    long ntol;             /* values outside the tube but within the tolerance */
    long nviol_samples;    /* samples with a value outside */
    long nstored;          /* entries of viol: the first violations, in order */
    dvc_traj_hit *viol;
} dvc_traj_report;

/* Frees rep->viol. */
void dvc_traj_report_clear(dvc_traj_report *rep);

/* Check every sample against the tube: inside only when the whole
 * enclosure of the value lies inside the tube at every time of the
 * sample's time enclosure (dvc_tube_inner). Margins are rounded down.
 * At most max_stored violations are kept in rep->viol (negative: all);
 * all are counted. */
dvc_status dvc_traj_check(dvc_traj_report *rep, const dvc_traj_t tr, const dvc_tube_t tb,
                          long max_stored);

/* dvc_traj_check with a tolerance: tol (NULL: none) holds n + m numbers
 * >= 0, one per column (x1..xn, y1..ym); a value whose margin is below 0
 * but >= -tol (a rounded-down margin, so the value is provably within tol
 * of the tube) is not a violation, and is counted in rep->ntol. Margins
 * are reported as they are (negative for those values). */
dvc_status dvc_traj_check_tol(dvc_traj_report *rep, const dvc_traj_t tr, const dvc_tube_t tb,
                              long max_stored, const double *tol);

/* Inner edges of the tube at sample s, component k, for messages (the
 * edges the check compares against). */
void dvc_traj_tube_at(mpfr_t lo, mpfr_t hi, const dvc_traj_t tr, long s, long k,
                      const dvc_tube_t tb);

#ifdef __cplusplus
}
#endif
#endif
