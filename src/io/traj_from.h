/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: a trajectory of another tool (CSV t,x1..xn, extra columns
 * ignored) as the predictor of the lognorm route (dvicert enclose --from).
 * Read in passes so that memory does not grow with its length: the first
 * checks it (every input error is reported there), the next finds its
 * grid, and the samples are then handed over one at a time
 * (dvc_traj_from_next), the file read again; a file that changes between
 * the passes is refused. The events route takes every sample in turn
 * (dvc_traj_from_sample), without a grid. */
#ifndef DVC_IO_TRAJ_FROM_H
#define DVC_IO_TRAJ_FROM_H

#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "dvicert/error.h"
#include "dvicert/tgrid.h"

/* One pass over the file (private to traj_from.c). */
typedef struct {
    FILE *f;         /* its stream (the samples' pass: the file as first read) */
    int times_only;  /* only the column t is converted (the times' pass) */
    char *line, **fld;
    size_t lcap;
    long lineno, ncols, *col, ns;
    double t, *x;    /* the last sample read: its time and n values */
    char delim;      /* ',' or ' ' (runs of blanks), from the header line */
    uint64_t digest; /* of the bytes read so far in this pass */
} dvc_traj_from_pass;

typedef struct {
    long n, ns;       /* states, samples */
    double *t, *x;    /* keep: ns times (strictly increasing, t[0] = 0), ns
                         x n values; else NULL */
    dvc_tgrid grid;   /* the certificate's grid: uniform, t_i = i T / N,
                         when the samples are, else explicit, the N + 1
                         times t[0..N]: on demand (grid.src = &times, read
                         from the file by a pass of their own), or with
                         keep a view of t */
    double end;       /* the certificate's T: T when uniform, else t[N] */
    long past;        /* samples after t[N], not used */
    /* the file, open between the passes (ps.f) */
    const char *path;
    double T;
    struct stat st;   /* as first read: a change is refused */
    uint64_t digest;  /* of the whole file in the first pass */
    long lines;       /* its lines */
    dvc_traj_from_pass ps;
    char **names;     /* n state names (owned) or NULL: x1..xn only */
    /* the explicit grid's times on demand: a second stream on the file
     * (cur.f, opened at the first time asked), the last DVC_TRAJ_FROM_WIN
     * times read (time i in win[i % WIN], i < cur.ns); a time before them
     * starts the pass again. Reading t[N], the pass checks the digest of
     * the file up to that line against the first pass's (kdigest). */
    dvc_tgrid_src times;
    dvc_traj_from_pass cur;
    double win[16];
    uint64_t kdigest; /* of the bytes up to sample N's line, first pass */
} dvc_traj_from;
#define DVC_TRAJ_FROM_WIN 16

/* Read and check (the first pass): exit-2 errors (DVC_ERR_INPUT) name the
 * file and the line (a time not starting at 0, not increasing, NaN or not
 * a number, a row with another number of fields than the header, the end
 * before T). Then the certificate's grid: the samples as they are. When
 * they are uniform (t_j = j T / M to a relative 1e-9) the grid i T / N of
 * the problem, else the trajectory's own times up to the first one >= T
 * (1 - 1e-9), t[N], which becomes the certificate's T. keep: every sample
 * in t and x. */
dvc_status dvc_traj_from_read(dvc_traj_from *tf, const char *path, long n, double T, int keep);
/* keep: 0 (DVC_TRAJ_FROM_GRID) the grid, samples by dvc_traj_from_next;
 * DVC_TRAJ_FROM_KEEP every sample in t and x as well; DVC_TRAJ_FROM_SAMPLES
 * no grid, every sample in turn by dvc_traj_from_sample. */
enum { DVC_TRAJ_FROM_GRID = 0, DVC_TRAJ_FROM_KEEP = 1, DVC_TRAJ_FROM_SAMPLES = 2 };
/* The same with the header naming states as names (n strings, or NULL) or
 * as x1..xn: the rule of every trajectory reader (io/traj_header.h). */
dvc_status dvc_traj_from_read_named(dvc_traj_from *tf, const char *path, long n, const char *const *names, double T,
                                    int keep);
/* The values of grid point i (n doubles), i = 0..N in order, from another
 * pass over the file; at i = N the rest of the file is read too, and a
 * file that differs from the first pass is refused (DVC_ERR_IO). */
dvc_status dvc_traj_from_next(dvc_traj_from *tf, long i, double *x);
/* Sample k (its time and n values), k = 0..ns-1 in order, from another
 * pass over the file (DVC_TRAJ_FROM_SAMPLES); at k = ns - 1 the rest of
 * the file is read too, and a file that differs from the first pass is
 * refused. */
dvc_status dvc_traj_from_sample(dvc_traj_from *tf, long k, double *t, double *x);
void dvc_traj_from_clear(dvc_traj_from *tf);

#endif
