/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The route table and the auto policy (include/dvicert/enclose.h). Adding
 * a route: its module (a run function, src/enclose/route_NAME.c), one line
 * below, and its enum value in enclose.h (docs/architecture.md). */
#include <string.h>

#include "enclose/internal.h"

static const dvc_enclose_route_def routes[] = {
    {DVC_ENCLOSE_CHEN_WANG, "chen-wang", DVC_ROUTE_RETRY | DVC_ROUTE_LOCAL_BETA | DVC_ROUTE_MEMORY,
     dvc_enclose_run_chen_wang_, NULL},
    {DVC_ENCLOSE_LOGNORM, "lognorm", DVC_ROUTE_FROM | DVC_ROUTE_PREDICTOR, dvc_enclose_run_lognorm_,
     dvc_enclose_done_lognorm_},
    {DVC_ENCLOSE_EVENTS, "events", DVC_ROUTE_HYBRID | DVC_ROUTE_FROM, dvc_enclose_run_events_, NULL},
};

const dvc_enclose_route_def *dvc_enclose_route_def_(dvc_enclose_route route)
{
    for (size_t k = 0; k < sizeof routes / sizeof routes[0]; k++)
        if (routes[k].id == route) return &routes[k];
    return NULL;
}

const char *dvc_enclose_route_name(dvc_enclose_route route)
{
    const dvc_enclose_route_def *d = dvc_enclose_route_def_(route);
    return route == DVC_ENCLOSE_AUTO ? "auto" : d ? d->name : NULL;
}

int dvc_enclose_route_parse(const char *name)
{
    if (strcmp(name, "auto") == 0) return DVC_ENCLOSE_AUTO;
    for (size_t k = 0; k < sizeof routes / sizeof routes[0]; k++)
        if (strcmp(routes[k].name, name) == 0) return routes[k].id;
    return -2;
}

/* The time-stepping routes' choice: lognorm, the tighter one, where its
 * cost is moderate (n states; -1: unknown), falling back to chen-wang with
 * the local constant; chen-wang with it above. */
void dvc_enclose_choose_stepping_(dvc_enclose_info *info, long n)
{
    info->local_beta = 0;
    info->fallback = 0;
    if (n >= 0 && n <= DVC_ENCLOSE_AUTO_LOGNORM_N) {
        info->route = DVC_ENCLOSE_LOGNORM;
        info->why = "the tighter time-stepping route (n <= 16)";
        info->fallback = 1;
    } else {
        info->route = DVC_ENCLOSE_CHEN_WANG;
        info->local_beta = 1;
        info->why = "n > 16: the lognorm route's cost grows like n^3";
    }
}

/* The auto policy, written once: the options of one route choose it, else
 * the exact solution (events) where the sizes allow, then the
 * time-stepping routes, each falling back to the next (run by
 * dvc_enclose_core_). */
void dvc_enclose_choose_n_(dvc_enclose_info *info, long n, const dvc_enclose_opts *o)
{
    memset(info, 0, sizeof *info);
    info->route = o->route;
    info->local_beta = o->local_beta;
    if (o->route != DVC_ENCLOSE_AUTO) return;
    if (o->from && !o->predictor && !o->local_beta && o->prec_max == 0) {
        /* against the exact solution first: bounds two-sided and tight
         * (docs/from_events.md); the lognorm route where it does not apply */
        info->route = DVC_ENCLOSE_EVENTS;
        info->why = "a trajectory is certified against the exact solution (events route) where it applies";
        info->fallback = 1;
    } else if (o->from) {
        info->route = DVC_ENCLOSE_LOGNORM;
        info->why = "a trajectory is certified by the lognorm route";
    } else if (o->predictor && !o->local_beta && o->prec_max == 0) {
        info->route = DVC_ENCLOSE_LOGNORM;
        info->why = "--predictor belongs to it";
    } else if (o->local_beta || o->prec_max > 0) {
        info->route = DVC_ENCLOSE_CHEN_WANG;
        info->why = o->local_beta ? "--local-beta belongs to it" : "--prec-max belongs to it";
    } else if (o->N > 0) {
        /* a number of steps: time stepping */
        dvc_enclose_choose_stepping_(info, n);
    } else if (n >= 0 && n <= DVC_ENCLOSE_AUTO_EVENTS_N) {
        info->route = DVC_ENCLOSE_EVENTS;
        info->why = "the exact solution, event by event, where it applies";
        info->fallback = 1;
    } else {
        dvc_enclose_choose_stepping_(info, n);
    }
}

dvc_status dvc_enclose_check_(const dvc_enclose_route_def *d, const dvc_enclose_opts *o, int local_beta,
                              int in_memory)
{
    if (o->from && !(d->flags & DVC_ROUTE_FROM))
        return dvc_error(DVC_ERR_INPUT, "a trajectory of another tool is certified by the events and lognorm "
                         "routes only");
    if (local_beta && !(d->flags & DVC_ROUTE_LOCAL_BETA))
        return dvc_error(DVC_ERR_INPUT, "--sharpen belongs to the chen-wang route");
    if (o->prec_max > 0 && !(d->flags & DVC_ROUTE_RETRY))
        return dvc_error(DVC_ERR_INPUT, "precision retries belong to the chen-wang route");
    if (o->predictor && strcmp(o->predictor, "theta") != 0 && strcmp(o->predictor, "heun") != 0)
        return dvc_error(DVC_ERR_INPUT, "predictor must be theta or heun, got '%s'", o->predictor);
    if (o->predictor && !(d->flags & DVC_ROUTE_PREDICTOR))
        return dvc_error(DVC_ERR_INPUT, "the predictor choice belongs to the lognorm route");
    if (o->predictor && o->from)
        return dvc_error(DVC_ERR_INPUT, "a trajectory of another tool is its own predictor (no predictor "
                         "choice with it)");
    if (in_memory && !(d->flags & DVC_ROUTE_MEMORY))
        return dvc_error(DVC_ERR_INPUT, "the %s route writes its certificate to a file or runs dry "
                         "(no whole tube in memory)", d->name);
    return DVC_OK;
}
