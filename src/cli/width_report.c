/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The width table and verdict of a DLVI certificate, printed by enclose
 * and info: how informative the tube is, why, and what helps. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "width_report.h"
#include "io/labels.h"

/* The claim named key as a double (NaN when absent). */
static double claim_d(const dvc_cert_claims *cl, const char *key)
{
    const char *t = dvc_cert_claim_text(cl, key);
    double d;
    return *t && sscanf(t, "%lf", &d) == 1 ? d : NAN;
}

void dvc_cli_width_report(FILE *f, const dvc_cert_t c)
{
    const dvc_width_struct *w = c->width;
    long worst;
    dvc_width_verdict v;
    double T = mpfr_get_d(&c->tube->T->right, MPFR_RNDU);
    int lognorm = strcmp(dvc_cert_claim_text(&c->method, "route"), "lognorm") == 0;
    dvc_labels L;
    if (w->points == 0 || w->n == 0) return;
    dvc_labels_init(&L);
    if (dvc_labels_from_text(&L, c->problem_json, c->n, c->m) != DVC_OK) return;
    v = dvc_width_judge(w, &worst);
    if (w->xs)
        fprintf(f, "radius of the x tube (s_j eps_x for state j, in the scale s of the states),\n"
                   "relative to the size of the solution (the largest |x_j| of the predictor over\n"
                   "the grid):\n");
    else
        fprintf(f, "radius of the x tube (one bound for every state), relative to the size of the\n"
                   "solution (the largest |x_j| of the predictor over the grid):\n");
    fprintf(f, "  %-8s %12s %12s %12s %12s %12s\n", "state", "size", "max radius", "radius at T",
            "relative max", "rel. at T");
    for (long j = 0; j < w->n; j++) {
        char name[64];
        dvc_labels_axis(name, sizeof name, L.x[j], L.x_unit[j]);
        fprintf(f, "  %-8s %12.4g %12.4g %12.4g %12.4g %12.4g\n", name, w->xmag[j], dvc_width_radius(w, j, 0),
                dvc_width_radius(w, j, 1),
                dvc_width_rel(w, j, 0), dvc_width_rel(w, j, 1));
    }
    if (w->m > 0) {
        double ym = 0;
        for (long k = 0; k < w->m; k++)
            if (w->ymag[k] > ym) ym = w->ymag[k];
        fprintf(f, "  %-8s %12.4g %12.4g %12.4g %12s %12s\n", "y (all)", ym, w->ry_max, w->ry_T, "", "");
    }
    if (v == DVC_WIDTH_INFORMATIVE) {
        fprintf(f, "verdict: informative (every relative radius <= %g)\n", DVC_WIDTH_WIDE_AT);
        dvc_labels_clear(&L);
        return;
    }
    fprintf(f, "verdict: %s: the largest radius is %.3g times the size of %s (above %g);\n"
               "  the tube is still certified (a true bound). Why, and what helps:\n",
            dvc_width_verdict_name(v), dvc_width_rel(w, worst, 0), L.x[worst],
            v == DVC_WIDTH_WIDE ? DVC_WIDTH_WIDE_AT : DVC_WIDTH_UNINFORMATIVE_AT);
    {
        double L = claim_d(&c->summary, lognorm ? "mu_upper" : "L_upper"), g = exp(L * T);
        double smin = INFINITY, smax = 0;
        for (long j = 0; j < w->n; j++) {
            double s = dvc_width_scale(w, j);
            if (s < smin) smin = s;
            if (s > smax) smax = s;
        }
        if (!isnan(L) && !lognorm)
            fprintf(f, "  - the Algorithm 4.2 bound grows like e^{L T} = e^{%.4g x %.4g} = %.3g whatever\n"
                       "    the dynamics: --method lognorm (one-sided Lipschitz bounds, docs/lognorm.md)\n"
                       "    grows with the actual dynamics; --sharpen uses a local constant on steps\n"
                       "    with one active set\n", L, T, g);
        else if (!isnan(L) && g > 10)
            fprintf(f, "  - the lognorm bound grows like e^{mu T} = e^{%.4g x %.4g} = %.3g times the\n"
                       "    predictor's defect (the dynamics itself expands)\n", L, T, g);
        if (smin > 0 && smax / smin >= 100 && !w->xs)
            fprintf(f, "  - the states differ in size by a factor %.3g and the radius is one bound\n"
                       "    for all of them: rescale the small states (units) to sizes like the others'\n",
                    smax / smin);
        if (strcmp(dvc_cert_claim_text(&c->method, "predictor"), "external") == 0)
            fprintf(f, "  - a trajectory with smaller steps or accurate nodes: the bound follows the\n"
                       "    error of its linear interpolant, which for accurate nodes falls like the\n"
                       "    square of the step\n");
        else
            fprintf(f, "  - a smaller step h (a larger N, or a smaller h, in the problem file; h need\n"
                       "    not divide T: the last step is then shorter), or --radius R to choose it:\n"
                       "    the predictor's defect falls like h\n");
    }
    dvc_labels_clear(&L);
}
