/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The chen-wang route (Algorithm 4.2 with the bounds of docs/bounds.md;
 * local_beta: Remark 4.3): the engine streams every certified grid point
 * to the sink as it goes. */
#include "enclose/internal.h"
#include "cert_internal.h"

static dvc_status method(dvc_cert_claims *cl, const dvc_dlvi_problem_struct *p,
                         const dvc_dlvi_result_struct *r, const void *state)
{
    (void)state;
    return dvc_cert_method_claims_(cl, p, r);
}

static dvc_status summary(dvc_cert_claims *cl, const dvc_dlvi_result_struct *r, const void *state)
{
    (void)state;
    /* the bound at t_N: row N % 2 of a streamed window */
    return dvc_cert_summary_claims_(cl, r, r->eps_x[r->window ? (r->N & 1) : r->N]);
}

dvc_status dvc_enclose_run_chen_wang_(dvc_enclose_run *x)
{
    x->fields.method = method;
    x->fields.summary = summary;
    x->fields.state = NULL;
    return dvc_dlvi_run(x->r, x->p, &x->dlvi);
}
