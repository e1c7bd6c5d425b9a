/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Trajectory files (CSV, header t,x1..xn[,y1..ym]) and checking them
 * against a certificate's tube. OWNER: cert helper. */
#ifndef DVICERT_TRAJ_H
#define DVICERT_TRAJ_H

#include "dvicert/cert.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    long ns;        /* samples */
    long n, m;      /* columns present: x1..xn always, y1..ym when m > 0 */
    long *line;     /* source line of each sample */
    mpfi_t *t;      /* ns time enclosures (decimals enclosed exactly) */
    mpfi_t *v;      /* ns x (n + m) value enclosures, row-major */
    long *col;      /* n + m: column index in the file, for messages */
} dvc_traj_struct;
typedef dvc_traj_struct dvc_traj_t[1];

void dvc_traj_init(dvc_traj_t tr);
void dvc_traj_clear(dvc_traj_t tr);

/* Read a CSV trajectory for a problem with n states and m multipliers.
 * The x columns are required, the y columns optional (all or none);
 * times must lie in [0, T]; any order. Errors (DVC_ERR_INPUT) name the file
 * and the line. */
dvc_status dvc_traj_read(dvc_traj_t tr, const char *path, long n, long m, const mpfi_t T);

/* One violation (or the worst sample when none). */
typedef struct {
    long sample;     /* index into the trajectory */
    long comp;       /* 0..n-1: x_{comp+1}; n..n+m-1: y_{comp-n+1} */
    double margin;   /* lower bound of the distance to the nearest tube edge
                        (negative: outside) */
} dvc_traj_hit;

typedef struct {
    long nsamples;
    double worst;        /* smallest margin over all samples and components */
    dvc_traj_hit worst_hit;
    long nviol;
    dvc_traj_hit *viol;  /* nviol entries */
} dvc_traj_report;

void dvc_traj_report_clear(dvc_traj_report *rep);

/* Check every sample against the tube: inside only when the whole
 * enclosure of the value lies inside [x^h(t) - eps, x^h(t) + eps] for
 * every t in the sample's time enclosure. Margins are rounded down. */
dvc_status dvc_traj_check(dvc_traj_report *rep, const dvc_traj_t tr, const dvc_cert_t c);

/* Edges of the tube at sample s, component k, for messages: the part
 * [lo, hi] that is certainly inside the tube at every time of the
 * sample's time enclosure (the edges the check compares against). */
void dvc_traj_tube_at(mpfr_t lo, mpfr_t hi, const dvc_traj_t tr, long s, long k,
                      const dvc_cert_t c);

#ifdef __cplusplus
}
#endif
#endif
