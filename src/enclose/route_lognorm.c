/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route (docs/lognorm.md): one-sided Lipschitz bounds in a
 * weighted norm, for the theta or Heun predictor or a trajectory of
 * another tool. The header states the norms the run finds, so the writer
 * holds the streamed points in a temporary file until the run ends
 * (late_method). */
#include <stdlib.h>
#include <string.h>

#include "dlvi/lognorm_internal.h"
#include "dvicert/lognorm.h"
#include "enclose/internal.h"
#include "cert_internal.h"

typedef struct {
    dvc_lognorm_info_t info;
    long pieces;
    const char *pred; /* "theta", "heun" or "external" */
} ln_state;

static dvc_status method(dvc_cert_claims *cl, const dvc_dlvi_problem_struct *p,
                         const dvc_dlvi_result_struct *r, const void *state)
{
    const ln_state *s = state;
    return dvc_cert_lognorm_method_claims_(cl, p, r, s->info, s->pieces, s->pred);
}

static dvc_status summary(dvc_cert_claims *cl, const dvc_dlvi_result_struct *r, const void *state)
{
    const ln_state *s = state;
    /* the bound at t_N: row N % 2 of a streamed window */
    return dvc_cert_lognorm_summary_claims_(cl, r, s->info, r->eps_x[r->window ? (r->N & 1) : r->N]);
}

dvc_status dvc_enclose_run_lognorm_(dvc_enclose_run *x)
{
    dvc_lognorm_opts lo;
    ln_state *s = calloc(1, sizeof *s);
    dvc_status st;
    if (!s) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_lognorm_info_init(s->info);
    x->state = s;
    x->fields.method = method;
    x->fields.summary = summary;
    x->fields.state = s;
    x->fields.late_method = 1;
    dvc_lognorm_opts_default(&lo);
    lo.dlvi = x->dlvi;
    lo.dlvi.sharpen = 0;
    if (x->xsrc) s->pred = "external";
    else if (x->o->predictor && strcmp(x->o->predictor, "heun") == 0) s->pred = "heun", lo.predictor = DVC_LOGNORM_PRED_HEUN;
    else s->pred = "theta";
    /* accurate nodes: the f, g variation inside a piece must stay small */
    if (x->xsrc || lo.predictor == DVC_LOGNORM_PRED_HEUN) lo.pieces = DVC_LOGNORM_PIECES_EXT;
    if (x->o->pieces > 0) lo.pieces = x->o->pieces;
    s->pieces = lo.pieces;
    /* the trajectory point by point: the certificate of the whole array
     * (y the midpoints of the LVI enclosures), memory independent of N */
    if (x->xsrc) st = dvc_lognorm_certify_stream_x_(x->r, s->info, x->p, &lo, x->xsrc, x->xsrc_ctx);
    else st = dvc_lognorm_run(x->r, s->info, x->p, &lo);
    return st;
}

void dvc_enclose_done_lognorm_(dvc_enclose_run *x)
{
    ln_state *s = x->state;
    if (!s) return;
    dvc_lognorm_info_clear(s->info);
    free(s);
    x->state = NULL;
}
