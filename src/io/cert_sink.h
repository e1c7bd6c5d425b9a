/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: the translations dvc_enclose (src/enclose/) needs from the JSON
 * layer: the problem as a certificate embeds it (loaded, its grid edited,
 * its text) and the certificate file written step by step, a sink for the
 * engines' grid points (src/io/cert_json.c). The pipeline never sees a
 * JSON value: the embedded problem is an opaque dvc_embedded. */
#ifndef DVC_IO_CERT_SINK_H
#define DVC_IO_CERT_SINK_H

#include "dvicert/cert.h"
#include "dvicert/dlvi.h"
#include "dvicert/tabfun.h"
#include "dvicert/tgrid.h"

/* ---- the embedded problem (src/io/problem_embed.c) ---- */

/* The problem as given, tables included: the certificate's copy. */
typedef struct json_t dvc_embedded;

/* Read the problem file at path into p (precision prec, 0: the file's) and
 * its self-contained copy into *doc (free with dvc_embedded_free). */
dvc_status dvc_embedded_load(dvc_dlvi_problem_t p, dvc_embedded **doc, const char *path,
                             mpfr_prec_t prec, const dvc_table_policy *tables);
void dvc_embedded_free(dvc_embedded *doc);
/* The copy states the grid g instead of the file's (h, N, grid): N for a
 * uniform grid, else its times in C99 hexadecimal ('grid'); T (an exact
 * decimal of the double T_end) when T_end is not NULL. */
dvc_status dvc_embedded_set_grid(dvc_embedded *doc, const dvc_tgrid *g, const double *T_end);
/* Its compact text (malloc'd; NULL: out of memory). */
char *dvc_embedded_text(const dvc_embedded *doc);

/* ---- the certificate file (src/io/cert_json.c) ---- */

/* A route's certificate fields: its method claims (into the header) and
 * its summary claims (after the steps), from the run's state. */
typedef struct {
    dvc_status (*method)(dvc_cert_claims *cl, const dvc_dlvi_problem_struct *p,
                         const dvc_dlvi_result_struct *r, const void *state);
    dvc_status (*summary)(dvc_cert_claims *cl, const dvc_dlvi_result_struct *r, const void *state);
    const void *state;
} dvc_cert_fields;

typedef struct dvc_cert_sink dvc_cert_sink;

/* A writer to out_path (NULL: a dry run, nothing written). With retries
 * set and a direct output (stdout, a pipe, a device), which cannot be
 * started again, the writer stays dry until dvc_cert_sink_arm. */
dvc_status dvc_cert_sink_new(dvc_cert_sink **s, const char *out_path, int retries);
/* Deferred (see above) and not armed yet. */
int dvc_cert_sink_deferred(const dvc_cert_sink *s);
void dvc_cert_sink_arm(dvc_cert_sink *s);
/* One attempt: the header is written at grid point 0 from c, p, r, the
 * embedded copy doc, the scale exponents e (NULL: none) and the route's
 * fields f; a file written by an earlier attempt is started again. */
dvc_status dvc_cert_sink_begin(dvc_cert_sink *s, dvc_cert_struct *c, const dvc_dlvi_problem_struct *p,
                               const dvc_dlvi_result_struct *r, const dvc_embedded *doc, const long *e,
                               const dvc_cert_fields *f);
/* The engines' sink (dvc_dlvi_sink_fn): ctx is the dvc_cert_sink. */
dvc_status dvc_cert_sink_point(const dvc_dlvi_point *pt, void *ctx);
/* After the last point: summary and digest; the attempt ends. */
dvc_status dvc_cert_sink_end(dvc_cert_sink *s);
/* The attempt ends (after a failure too). */
void dvc_cert_sink_detach(dvc_cert_sink *s);
/* After the last attempt (its status st): the file committed when st is
 * DVC_OK; returns the final status. Frees s. */
dvc_status dvc_cert_sink_close(dvc_cert_sink *s, dvc_status st);

#endif
