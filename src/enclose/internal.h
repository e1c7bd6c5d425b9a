/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: the enclose pipeline (include/dvicert/enclose.h) and its routes.
 * A route is one line of the table in route.c: its name, what options it
 * takes (flags) and its module's run function, which runs the engine on
 * the problem the pipeline prepared, hands every certified grid point to
 * the sink and names its certificate fields (method and summary claims). */
#ifndef DVC_ENCLOSE_INTERNAL_H
#define DVC_ENCLOSE_INTERNAL_H

#include "dvicert/dlvi.h"
#include "dvicert/enclose.h"
#include "dvicert/hybrid_cert.h"
#include "enclose/port.h"

/* What a route takes besides the problem (checked by the pipeline). */
enum {
    DVC_ROUTE_RETRY = 1,      /* precision retries (prec_max) */
    DVC_ROUTE_LOCAL_BETA = 2, /* local_beta (Remark 4.3) */
    DVC_ROUTE_FROM = 4,       /* a trajectory of another tool (from) */
    DVC_ROUTE_PREDICTOR = 8,  /* predictor and pieces */
    DVC_ROUTE_MEMORY = 16,    /* the whole tube in memory (dvc_cert_from_result) */
    DVC_ROUTE_HYBRID = 32     /* writes a hybrid certificate: the run fills hyb
                                 from the unscaled problem, the pipeline hands
                                 it to the port hybrid_write (no DLVI sink) */
};

/* One run of a route on a prepared problem. */
typedef struct {
    dvc_dlvi_problem_struct *p; /* scaled, on its final grid */
    dvc_dlvi_result_struct *r;
    dvc_dlvi_opts dlvi;         /* prec, progress, sharpen (local_beta); sink:
                                   the certificate writer (NULL: in memory) */
    dvc_dlvi_source xsrc;       /* a trajectory as the predictor, x^i (scaled)
                                   point by point, y left alone; NULL: the
                                   route's own */
    void *xsrc_ctx;
    const dvc_enclose_opts *o;
    dvc_enclose_fields fields;  /* out: the route's certificate fields */
    void *state;                /* the route's, released by its done */
    dvc_hybrid_cert_struct *hyb; /* DVC_ROUTE_HYBRID: the certificate the run
                                    fills (initialised, owned by the pipeline) */
} dvc_enclose_run;

typedef struct {
    dvc_enclose_route id;
    const char *name;
    unsigned flags;
    dvc_status (*run)(dvc_enclose_run *x);
    void (*done)(dvc_enclose_run *x); /* after the certificate is complete (may be NULL) */
} dvc_enclose_route_def;

/* The line of route in the table, or NULL. */
const dvc_enclose_route_def *dvc_enclose_route_def_(dvc_enclose_route route);
/* The options a route does not take: DVC_ERR_INPUT naming the first. */
dvc_status dvc_enclose_check_(const dvc_enclose_route_def *d, const dvc_enclose_opts *o, int local_beta,
                              int in_memory);

/* The work of one step of the lognorm route (src/enclose/cost.c), in
 * operations, for n states, m pairs, pieces per step and the Heun (heun
 * != 0, two stages) or theta predictor: enclose --radius compares the two
 * predictors by N times it (deterministic: never the seconds measured). */
double dvc_enclose_step_work_(long n, long m, long pieces, int heun);

/* The route modules (src/enclose/route_*.c). */
dvc_status dvc_enclose_run_chen_wang_(dvc_enclose_run *x);
dvc_status dvc_enclose_run_lognorm_(dvc_enclose_run *x);
void dvc_enclose_done_lognorm_(dvc_enclose_run *x);
dvc_status dvc_enclose_run_events_(dvc_enclose_run *x);

#endif
