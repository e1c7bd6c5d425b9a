/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: a trajectory CSV file (docs/formats.md) read one sample at a
 * time, so that a command can check a long file without holding it
 * (dvicert check); dvc_traj_read_ex (dvicert/certio.h) is a loop over it,
 * with the same messages. */
#ifndef DVC_IO_TRAJ_CSV_H
#define DVC_IO_TRAJ_CSV_H

#include <stdio.h>

#include "dvicert/certio.h"

typedef struct {
    FILE *f;
    const char *path;
    long n, m, ncols, lineno;
    long ns;               /* samples read so far */
    long *slot_col, *col_slot;
    char **fld;
    char *line;
    size_t cap;
    char delim;
    int have_header, alloc, tmax_init, failed;
    mpfr_prec_t prec;
    mpfr_t tmax;
    mpfi_srcptr T;
    dvc_traj_read_opts *o;
    /* the last sample read, alone (ns = 1 after each sample): t[0], v (n
     * + m), line[0]; n, m and col as dvc_traj_read_ex sets them */
    dvc_traj_t one;
} dvc_traj_reader;

/* The file at path for n states and m outputs over [t0, T] (o as for
 * dvc_traj_read_ex; o->clipped counts as the samples are read). */
dvc_status dvc_traj_reader_open(dvc_traj_reader *rd, const char *path, long n, long m, const mpfi_t T,
                                dvc_traj_read_opts *o);
/* The next sample into rd->one, *got = 1; at the end of the file *got =
 * 0 (an empty file, or one without samples, is refused then). After an
 * error the reader can only be closed. */
dvc_status dvc_traj_reader_next(dvc_traj_reader *rd, int *got);
/* Back to the start of a regular file (a second pass). */
dvc_status dvc_traj_reader_rewind(dvc_traj_reader *rd);
/* Also after a failed open. */
void dvc_traj_reader_close(dvc_traj_reader *rd);

#endif
