/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert on ideal contacts (a DLVI problem file with M = 0,
 * docs/ideal_contacts.md): enclose through the hybrid engine's sliding
 * motions. verify, check, export and plot use the hybrid paths, whose
 * re-verification re-derives the model (dvc_cert_verify_hybrid). */
#include <stdio.h>
#include <string.h>

#include "hybrid.h"
#include "lcs.h"
#include "dvicert/lcs_cert.h"

int dvc_cli_lcs_enclose(const dvc_cli_args *a)
{
    static const char *const no[] = {"sharpen", "prec-max", "method", "from", NULL};
    const char *in = a->pos[0], *out = a->out;
    FILE *rep = a->report;
    dvc_hybrid_cert_t c;
    dvc_status st;
    double t0 = dvc_cli_now();
    for (const char *const *n = no; *n; n++)
        if (dvc_cli_value(a, *n)) {
            fprintf(stderr, "dvicert enclose: error: %s: --%s does not apply to an ideal contact "
                    "(M = 0, certified as a sliding motion)\n", in, *n);
            return DVC_EXIT_INPUT;
        }
    dvc_hybrid_cert_init(c);
    int brc = dvc_cli_hybrid_budget(a, "enclose", &c->max_steps, &c->max_seconds);
    if (brc != 0) {
        dvc_hybrid_cert_clear(c);
        return brc;
    }
    c->progress = 1; /* on a terminal only */
    st = dvc_lcs_enclose(c, in, a->prec_given ? a->prec : 0);
    if (st == DVC_OK) st = dvc_hybrid_cert_write(c, out);
    if (st != DVC_OK) {
        int rc = dvc_cli_fail("enclose", st);
        if (st == DVC_NOT_CERTIFIED) fprintf(stderr, "dvicert enclose: nothing written\n");
        dvc_hybrid_cert_clear(c);
        return rc;
    }
    {
        const dvc_hybrid_result_struct *r = c->res;
        double wmax = 0, wT = dvc_cli_vec_width(r->x[r->nsteps]);
        for (long k = 0; k < r->nevents; k++)
            if (dvc_cli_width(r->ev[k].t) > wmax) wmax = dvc_cli_width(r->ev[k].t);
        fprintf(rep, "certified: ideal contact%s (M = 0, Q B %s proven) as a sliding motion, "
                "%ld steps, %ld events (enter/leave a face), n = %ld, %ld bits\n",
                c->model->ncontacts > 1 ? "s" : "",
                c->model->ncontacts > 1 ? "a P-matrix" : "> 0", r->nsteps, r->nevents,
                c->model->n, (long)c->prec);
        if (r->nevents > 0) fprintf(rep, "event times: widest %.3g\n", wmax);
        fprintf(rep, "widest state enclosure at T: %.3g\n", wT);
        fprintf(rep, "wrote %s (%.2f s)\n", out, dvc_cli_now() - t0);
    }
    dvc_hybrid_cert_clear(c);
    return DVC_EXIT_OK;
}
