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

/* The integer or boolean claim named key (0 when absent). */
static long long claim_i(const dvc_cert_claims *cl, const char *key)
{
    const dvc_cert_claim *k = dvc_cert_claim_get(cl, key);
    return k ? k->ival : 0;
}

/* Steps above which a smaller step is no remedy (the default --max-steps). */
#define ADVICE_MAX_STEPS 1e7

/* The steps a bound of order p (1 or 2) in h needs to shrink by the factor
 * k from N steps. */
static double steps_for(double N, double k, int p)
{
    return N * (p == 2 ? sqrt(k) : k);
}

/* What dominates the bound of c, from what the route measured, and the
 * option or route that narrows it (or that none will). r: the worst
 * relative radius; T: the horizon. */
static void advise(FILE *f, const dvc_cert_t c, double r, double T)
{
    const dvc_width_struct *w = c->width;
    int lognorm = strcmp(dvc_cert_claim_text(&c->method, "route"), "lognorm") == 0;
    int external = strcmp(dvc_cert_claim_text(&c->method, "predictor"), "external") == 0;
    int heun = strcmp(dvc_cert_claim_text(&c->method, "predictor"), "heun") == 0;
    int sharpen = claim_i(&c->method, "sharpen") != 0;
    double N = (double)(w->points - 1), h = T / N;
    double k = r / DVC_WIDTH_WIDE_AT; /* the factor to an informative tube */
    double rate = claim_d(&c->summary, lognorm ? "mu_upper" : "L_upper");
    double G = isnan(rate) ? NAN : exp((rate > 0 ? rate : 0) * T);
    double cinf = lognorm ? claim_d(&c->summary, "c_inf_upper") : NAN;
    long late = 0;
    double F = dvc_width_late_growth(w, &late);
    double smin = INFINITY, smax = 0, need = steps_for(N, k, 1);
    /* the growth the dynamics explains over the late steps, and more
     * than 1000 times that: the bound feeds on itself */
    double Gl = isnan(rate) ? NAN : exp((rate > 0 ? rate : 0) * (double)late * h);
    int feeds = lognorm && !isnan(F) && !isnan(Gl) && F > 1e3 * Gl;
    int grows = !isnan(G) && G > 10 && (G >= k || (feeds && G > 1e3));
    const char *exact = "the exact route (--method events, the default for n <= 64 where\n"
                        "    it applies: f and g expressions of t, isolated events) certifies the\n"
                        "    solution itself";
    for (long j = 0; j < w->n; j++) {
        double s = dvc_width_scale(w, j);
        if (s < smin) smin = s;
        if (s > smax) smax = s;
    }
    if (external) {
        fprintf(f, "  - dominant: the error of the trajectory given (--from): the bound follows the\n"
                   "    error of its linear interpolant, which for accurate nodes falls like the\n"
                   "    square of the step: a trajectory with smaller steps or accurate nodes\n");
    } else if (!lognorm) {
        fprintf(f, "  - dominant: e^{L T} = e^{%.4g x %.4g} = %.3g, the Algorithm 4.2 factor\n"
                   "    (L = ||A|| + beta ||B|| ||Q||, whatever the dynamics); the radius is %.3g\n"
                   "    times the size of the solution\n", rate, T, G, r);
        if (need > ADVICE_MAX_STEPS)
            fprintf(f, "  - a smaller step will not help: the bound falls like h, so about %.2g steps\n"
                       "    (now %.0f) would be needed; neither will --prec-max\n", need, N);
        else
            fprintf(f, "  - a smaller step helps (the bound falls like h): about %.2g steps (N or h\n"
                       "    in the problem file, or --radius R)\n", need);
        fprintf(f, "  - --method lognorm (one-sided bounds that grow with the actual dynamics,\n"
                   "    docs/lognorm.md)%s;\n    %s\n",
                sharpen ? "" : " or --local-beta (a local constant on steps with\n    one active set)",
                exact);
    } else {
        if (feeds)
            fprintf(f, "  - dominant: the bound feeds on itself: over the last %ld steps it grew\n"
                       "    %.3g times, where the dynamics explain e^{mu t} = %.3g (mu = %.4g):\n"
                       "    the tube covers a switch of the LVI's pattern, so its steps have no certified\n"
                       "    pattern and pay the hull of every pattern's Jacobian (docs/lognorm.md\n"
                       "    section 5d; mode norms %lld, switches %lld)\n"
                       "  - a smaller step may delay the onset, by an amount one run cannot predict\n"
                       "    (where the tube meets the switch decides it: N x 4 may narrow the tube\n"
                       "    or not)\n",
                    late, F, Gl, rate, claim_i(&c->summary, "mode_norms"),
                    claim_i(&c->summary, "norm_switches"));
        if (grows)
            fprintf(f, "  - %s: e^{mu T} = e^{%.4g x %.4g} = %.3g, mu the one-sided\n"
                       "    Lipschitz constant proven for the dynamics in the route's norm: a\n"
                       "    property of the dynamics (in that norm), not of the step\n",
                    feeds ? "and the dynamics expands" : "dominant", rate, T, G);
        if (feeds && !grows) fprintf(f, "  - --prec-max does not help;\n    %s\n", exact);
        if (grows && (feeds || need > ADVICE_MAX_STEPS)) {
            char why[96];
            if (feeds) snprintf(why, sizeof why, "e^{mu T} multiplies it");
            else snprintf(why, sizeof why, "about %.2g steps (now %.0f) would be needed", need, N);
            fprintf(f, "  - expect no informative tube from a smaller step: it divides the bound by\n"
                       "    about the factor N grows by, and %s;\n"
                       "    --prec-max does not help;\n    %s\n", why, exact);
        }
        else if (grows)
            fprintf(f, "  - a smaller step helps (the bound falls like h): about %.2g steps (N or h\n"
                       "    in the problem file, or --radius R); or\n    %s\n", need, exact);
        if (!feeds && !grows) {
            fprintf(f, "  - dominant: the predictor's defect, accumulated over the steps, which falls\n"
                       "    like h%s (e^{mu T} = %.3g%s; c_inf = %.3g)\n", heun ? " or faster" : "", G,
                    rate <= 0 ? ", mu <= 0: no growth" : "", cinf);
            if (need > ADVICE_MAX_STEPS)
                fprintf(f, "  - about %.2g steps (now %.0f) would be needed: beyond --max-steps;%s\n"
                           "    %s\n", need, N,
                        heun ? "" : " --predictor heun\n    (order 2) needs fewer;", exact);
            else
                fprintf(f, "  - a smaller step: about %.2g steps for a relative radius %g (N or h in\n"
                           "    the problem file, or --radius R; N x 4 gives about radius / 4%s while\n"
                           "    the tube stays clear of the LVI's switches: read the next report)%s\n",
                        need, DVC_WIDTH_WIDE_AT, heun ? " or less" : "",
                        heun ? "" : ", or\n    --predictor heun (order 2: smaller radii for the same steps)");
        }
    }
    if (lognorm && !isnan(cinf) && cinf >= 10)
        fprintf(f, "  - the route's norm is ill-conditioned: c_inf = %.3g multiplies the bound%s\n", cinf,
                w->xs ? "" : "; --scale auto balances the states first");
    if (smin > 0 && smax / smin >= 100 && !w->xs)
        fprintf(f, "  - the states differ in size by a factor %.3g and the radius is one bound\n"
                   "    for all of them: rescale the small states (units) to sizes like the others'\n",
                smax / smin);
}

void dvc_cli_width_report(FILE *f, const dvc_cert_t c)
{
    const dvc_width_struct *w = c->width;
    long worst;
    dvc_width_verdict v;
    double T = mpfr_get_d(&c->tube->T->right, MPFR_RNDU);
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
               "  the tube is still certified (a true bound). What dominates it, measured,\n"
               "  and what helps:\n",
            dvc_width_verdict_name(v), dvc_width_rel(w, worst, 0), L.x[worst],
            v == DVC_WIDTH_WIDE ? DVC_WIDTH_WIDE_AT : DVC_WIDTH_UNINFORMATIVE_AT);
    advise(f, c, dvc_width_rel(w, worst, 0), T);
    dvc_labels_clear(&L);
}

void dvc_cli_not_certified_note(FILE *f, const char *why)
{
    if (strstr(why, "not finite") || strstr(why, "overflow"))
        /* an overflow is the bound's growth, which more bits do not change */
        fprintf(f, "dvicert enclose: note: the bound overflowed binary64: that is its growth,\n"
                   "  not a lack of precision (--prec-max would not help); a shorter T gives a\n"
                   "  finite tube whose report says what dominates the bound and whether a\n"
                   "  smaller step helps; the exact route (--method events, the default for\n"
                   "  n <= 64 where it applies: f and g expressions of t, isolated events)\n"
                   "  certifies the solution itself\n");
    else
        fprintf(f, "dvicert enclose: note: if the reason is a lack of precision, "
                   "--prec-max BITS retries at higher precisions\n");
}
