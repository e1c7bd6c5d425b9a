/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Sweep specifications (dvicert sweep, docs/formats.md "Sweeps"): a base
 * problem file and a grid of constants and table files, expanded into one
 * self-contained problem per point of the grid. Private to the command. */
#ifndef DVC_IO_SWEEP_JSON_H
#define DVC_IO_SWEEP_JSON_H

#include "dvicert/error.h"

typedef struct {
    char *name;    /* run name: [A-Za-z0-9._=+-], unique (owned) */
    char *problem; /* the problem file's JSON text (owned) */
} dvc_sweep_run;

typedef struct {
    long nruns;
    dvc_sweep_run *runs;  /* in grid order: the last axis varies fastest */
    long nopts;
    char **enclose_opts;  /* extra options of each 'dvicert enclose' (owned) */
} dvc_sweep;

void dvc_sweep_init(dvc_sweep *sw);
void dvc_sweep_clear(dvc_sweep *sw);

/* Read the specification at spec_path and expand it: the base problem is
 * read (and its table files embedded) by the problem reader's rules, each
 * run's problem is read back to check it. Table files the specification
 * names must lie in its directory's tree unless allow_outside. Errors
 * (DVC_ERR_INPUT, DVC_ERR_IO) name the specification file and the field.
 * A grid of more than max_runs runs (0: 1,000,000, also the largest bound)
 * is refused before any run is built, naming the product of the axes. */
dvc_status dvc_sweep_expand(dvc_sweep *sw, const char *spec_path, int allow_outside, long max_runs);

/* The default bound on the runs of a sweep (dvicert sweep --max-runs). */
#define DVC_SWEEP_MAX_RUNS 10000L

#endif
