/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The events route (docs/events.md): the exact DLVI solution, event by
 * event, as a switched affine system run by the hybrid engine. Its
 * certificate is a hybrid one (DVC_ROUTE_HYBRID): the run fills x->hyb
 * (model and result), the pipeline hands it to the hybrid writer, which
 * embeds the problem instead of the model (docs/formats.md). */
#include "dvicert/events.h"
#include "enclose/internal.h"
#include "cert_internal.h"

dvc_status dvc_enclose_run_events_(dvc_enclose_run *x)
{
    dvc_hybrid_cert_struct *c = x->hyb;
    /* the default options on both sides: verify rebuilds the same model */
    dvc_status st = dvc_dlvi_events_model(c->model, x->p, NULL);
    c->have_model = 1;
    /* the budgets of the run (never part of the certificate) */
    c->max_steps = x->o->max_steps;
    c->max_seconds = x->o->max_seconds;
    c->progress = x->o->progress;
    /* the hybrid certificate's own run (precision check, method fields) */
    return st == DVC_OK ? dvc_hybrid_cert_run_model_(c, "events route") : st;
}
