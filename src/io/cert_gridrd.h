/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: the explicit time grid of a certificate read step by step
 * (verify, check, export, info of a certificate made by enclose --from on
 * a trajectory with its own times), in memory independent of N. The
 * header line of the embedded problem is read with its 'grid' array
 * replaced by the placeholder of io/cert_grid.h (the array is checked and
 * hashed as it goes by, never held); the times are then read again from
 * the file on demand (a dvc_tgrid_src: a stream of its own, the last
 * DVC_CERT_GRIDRD_WIN times kept, a time before them restarts the pass).
 * Digests are computed with the placeholder replaced by those times
 * (io/cert_grid.h), so they cover the grid exactly as the whole-tree path
 * does; a pass reading the last time checks that the array's bytes are
 * those of the first read (a file changed in between is refused). */
#ifndef DVC_IO_CERT_GRIDRD_H
#define DVC_IO_CERT_GRIDRD_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "dvicert/dlvi.h"
#include "dvicert/error.h"
#include "dvicert/tgrid.h"

#define DVC_CERT_GRIDRD_WIN 16

typedef struct {
    const char *path;  /* the certificate (a view) */
    int found;         /* the problem's grid was cut out of its line */
    long N;            /* its steps (N + 1 times) */
    long long off;     /* byte offset of the array's '[' in the (decompressed) file */
    uint64_t hash;     /* FNV-1a of the array's text, '[' to ']' */
    double last;       /* t_N */
    /* the pass on demand */
    FILE *f;
    long ns;           /* times read in this pass */
    uint64_t h;        /* of the array's text read in this pass */
    double win[DVC_CERT_GRIDRD_WIN];
    dvc_tgrid_src src;
} dvc_cert_gridrd;

void dvc_cert_gridrd_init(dvc_cert_gridrd *gr, const char *path);
void dvc_cert_gridrd_clear(dvc_cert_gridrd *gr);

/* One header line of f without its line end into *line (getline's
 * contract: *line grows as needed), *pos counting the bytes read; on the
 * member line of 'problem', its top-level 'grid' array (compact, every time
 * a string as dvicert writes it: C99 hexadecimal, canonical, from 0,
 * increasing) is replaced by the placeholder and gr records it. Returns the
 * length, -1 at the end of the file, -2 when that grid is not in the
 * layout dvicert writes (the caller reads the file whole instead). */
long dvc_cert_gridrd_line(dvc_cert_gridrd *gr, FILE *f, char **line, size_t *cap, long long *pos);

/* The grid gr cut out as a view on its times on demand (g unchanged when
 * none was: returns 0, else 1). */
int dvc_cert_gridrd_grid(dvc_tgrid *g, const dvc_cert_gridrd *gr);

/* The problem of a certificate from its JSON object obj (io/problem_json.h),
 * the 'grid' placeholder read as gr's times on demand when gr found one
 * (gr may be NULL). */
dvc_status dvc_cert_gridrd_problem(dvc_dlvi_problem_t p, const json_t *obj, const char *name, mpfr_prec_t prec,
                                   const dvc_cert_gridrd *gr);

#endif
