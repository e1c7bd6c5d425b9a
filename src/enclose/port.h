/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: what the enclose pipeline needs from the file layer, as ports
 * the layer implements (src/io/enclose_io.c): the problem file and its
 * embedded copy, a trajectory file, the certificate writer. The pipeline
 * (src/enclose/) calls only these pointers, so it depends on no file
 * format; src/io/ depends on it, not the other way round. */
#ifndef DVC_ENCLOSE_PORT_H
#define DVC_ENCLOSE_PORT_H

#include "dlvi/events_from.h"
#include "dvicert/cert.h"
#include "dvicert/dlvi.h"
#include "dvicert/enclose.h"
#include "dvicert/events.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/tabfun.h"
#include "dvicert/tgrid.h"

/* The problem as the certificate embeds it (opaque to the pipeline). */
typedef struct dvc_enclose_doc dvc_enclose_doc;
/* A certificate writer (opaque to the pipeline). */
typedef struct dvc_enclose_sink dvc_enclose_sink;

/* A route's certificate fields: its method claims (into the header) and
 * its summary claims (after the steps), from the run's state. */
typedef struct {
    dvc_status (*method)(dvc_cert_claims *cl, const dvc_dlvi_problem_struct *p,
                         const dvc_dlvi_result_struct *r, const void *state);
    dvc_status (*summary)(dvc_cert_claims *cl, const dvc_dlvi_result_struct *r, const void *state);
    const void *state;
    /* the method claims are known only after the run (the lognorm route's
     * norms): the writer holds the step lines in a temporary file until
     * then, so the run still streams */
    int late_method;
} dvc_enclose_fields;

/* A trajectory of another tool on the certificate's grid (the reader's,
 * uniform or explicit times), the certificate's T (end), the samples read
 * and those past end; impl is the reader's and owns them. */
typedef struct {
    long ns, past;
    const dvc_tgrid *grid;
    double end;
    const double *t, *x; /* keep: the samples as read, ns times, ns x n
                            values; else NULL (traj_next) */
    void *impl;
} dvc_enclose_traj;

/* traj_read's keep: the grid, samples by traj_next (0); every sample in
 * memory as well (1); no grid, every sample in turn by traj_sample (2) */
enum { DVC_TRAJ_GRID = 0, DVC_TRAJ_KEEP = 1, DVC_TRAJ_SAMPLES = 2 };

typedef struct {
    /* the sizes a problem file states (1), or 0 when they cannot be read */
    int (*dims)(const char *path, long *n, long *m);
    /* p from the file at precision prec (0: the file's), *doc its copy */
    dvc_status (*load)(dvc_dlvi_problem_t p, dvc_enclose_doc **doc, const char *path, mpfr_prec_t prec,
                       const dvc_table_policy *tables);
    /* the copy states the grid g (T = *T_end when given); explicit times
     * not given (g->t NULL): a placeholder the certificate writer (sink)
     * replaces by the run's times */
    dvc_status (*set_grid)(dvc_enclose_doc *doc, const dvc_tgrid *g, const double *T_end);
    char *(*text)(const dvc_enclose_doc *doc); /* malloc'd; NULL: out of memory */
    void (*doc_free)(dvc_enclose_doc *doc);
    /* a trajectory for n states and the problem's T, checked, on its grid;
     * keep: every sample in memory, else none: traj_next hands them over
     * (0), or without a grid every sample in turn by traj_sample (2); the
     * header names states as the copy doc does or x1..xn */
    dvc_status (*traj_read)(dvc_enclose_traj *tr, const char *path, const dvc_enclose_doc *doc, long n, double T,
                            int keep);
    /* the values of grid point i, i = 0..N in order (a pass over the file,
     * started again at i = 0); a file changed since traj_read is refused */
    dvc_status (*traj_next)(dvc_enclose_traj *tr, long i, double *x);
    /* sample k (time, values), k = 0..ns-1 in order (a pass over the file,
     * started again at k = 0); a file changed since traj_read is refused */
    dvc_status (*traj_sample)(dvc_enclose_traj *tr, long k, double *t, double *x);
    void (*traj_clear)(dvc_enclose_traj *tr);
    /* the writer to out_path (NULL: a dry run); with retries, a direct
     * output stays dry (deferred) until armed */
    dvc_status (*sink_new)(dvc_enclose_sink **s, const char *out_path, int retries);
    int (*sink_deferred)(const dvc_enclose_sink *s);
    void (*sink_arm)(dvc_enclose_sink *s);
    /* one attempt: the header at grid point 0 from c, p, r, the copy, the
     * scale exponents e (NULL: none) and the route's fields */
    dvc_status (*sink_begin)(dvc_enclose_sink *s, dvc_cert_struct *c, const dvc_dlvi_problem_struct *p,
                             const dvc_dlvi_result_struct *r, const dvc_enclose_doc *doc, const long *e,
                             const dvc_enclose_fields *f);
    dvc_dlvi_sink sink_point; /* ctx: the writer */
    dvc_status (*sink_end)(dvc_enclose_sink *s);   /* summary and digest */
    void (*sink_detach)(dvc_enclose_sink *s);      /* the attempt ends */
    dvc_status (*sink_close)(dvc_enclose_sink *s, dvc_status st); /* commit on DVC_OK; frees s */
    /* a hybrid certificate (routes with DVC_ROUTE_HYBRID): c's model and
     * result as run on the problem of doc, which becomes its embedded model
     * (docs/formats.md, "Events certificates"), with the bounds of a
     * trajectory of another tool when from is not NULL (its rows, spooled);
     * written to out_path (NULL: a dry run, nothing written) */
    dvc_status (*hybrid_write)(dvc_hybrid_cert_struct *c, const dvc_enclose_doc *doc, const dvc_efrom_spool *from,
                               const char *out_path);
} dvc_enclose_ports;

/* dvc_enclose and dvc_enclose_choose (include/dvicert/enclose.h) over the
 * ports of a file layer (src/enclose/pipeline.c, route.c). n: the states
 * the file states, -1 when unknown. */
dvc_status dvc_enclose_core_(const dvc_enclose_ports *io, dvc_cert_t c, const char *problem_path,
                             const dvc_enclose_opts *o, const char *out_path, dvc_enclose_info *info);
void dvc_enclose_choose_n_(dvc_enclose_info *info, long n, const dvc_enclose_opts *o);
void dvc_enclose_choose_stepping_(dvc_enclose_info *info, long n);

#endif
