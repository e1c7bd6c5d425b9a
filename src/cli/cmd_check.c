/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert check: an external trajectory against a certificate's tube. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dvicert/certio.h"

static void help(void)
{
    printf(
        "usage: dvicert check CERT.json TRAJ.csv [--no-verify] [--digits D] [--max-report K]\n\n"
        "Checks a trajectory computed by any tool against the certified tube.\n"
        "TRAJ.csv has a header row t,x1,...,xn[,y1,...,ym] (columns in any order; the y\n"
        "columns are optional, all or none), times anywhere in [0, T] and in any order.\n"
        "Every decimal is enclosed exactly; a sample is inside only if its whole\n"
        "enclosure lies inside the tube for every time its t may denote:\n"
        "  x: x^h(t) +- eps_x^i on [t_{i-1}, t_i] (x^h: linear interpolation of the predictor)\n"
        "  y: (yhat^{i-1} +- ry^i) meet (yhat^i +- ry^i) meet [l, u] on [t_{i-1}, t_i]\n"
        "     (y solves the LVI, so a y below l or above u is outside)\n"
        "The certificate is first re-verified (as 'dvicert verify'); --no-verify skips it.\n"
        "Everything is computed at the certificate's precision (--prec is refused).\n\n"
        "Output: the number of samples, the worst margin (smallest distance to a tube\n"
        "edge, negative = outside) of the x values and, separately, of the y values (a y\n"
        "on its bound l or u has margin 0 there), and the first violations (t, component,\n"
        "value, inner edges of the tube).\n\n");
    dvc_cli_print_options(&dvc_cmd_check);
    printf(
        "\nexit status: 0 every sample inside, 1 a violation (or the certificate rejected),\n"
        "2 unusable input (missing columns, non-numeric values, t outside [0, T]).\n");
}

static void comp_name(char *buf, size_t n, const dvc_traj_t tr, long k)
{
    if (k < tr->n) snprintf(buf, n, "x%ld", k + 1);
    else snprintf(buf, n, "y%ld", k - tr->n + 1);
}

static const dvc_cli_opt opts[] = {
    {"no-verify", 0, NULL, NULL, "do not re-verify the certificate first"},
    {"digits", 0, "D", "a number of digits", "significant digits of the printed values and bounds (default 10)"},
    {"max-report", 0, "K", "a number of violations", "print the first K violations (default 20; 0: none, -1: all),\nthen the count of the others"},
    {NULL, 0, NULL, NULL, NULL},
};

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_check = {
    "check", "check a trajectory (CSV) against a certificate's tube", opts, NULL, DVC_CLI_CERT_PREC,
    2, 2, "dvicert check CERT.json TRAJ.csv [--no-verify] [--digits D] [--max-report K]", help, run};

static int run(const dvc_cli_args *a)
{
    const char *cpath = a->pos[0], *tpath = a->pos[1];
    int digits = a->digits_given ? a->digits : 10, verify = !dvc_cli_flag(a, "no-verify"), rc;
    const char *mr = dvc_cli_value(a, "max-report");
    long max_report = 20;
    dvc_cert_t c;
    dvc_traj_t tr;
    dvc_traj_report rep;
    dvc_status st;
    if (mr) {
        char *end;
        max_report = strtol(mr, &end, 10);
        if (end == mr || *end != '\0' || max_report < -1) {
            fprintf(stderr, "dvicert check: error: --max-report must be an integer >= -1, got '%s'\n", mr);
            return DVC_EXIT_INPUT;
        }
    }
    dvc_cert_init(c);
    st = dvc_cert_read(c, cpath);
    if (st != DVC_OK) {
        fprintf(stderr, "dvicert check: unusable certificate: %s\n", dvc_error_message());
        dvc_cert_clear(c);
        return DVC_EXIT_INPUT;
    }
    dvc_traj_init(tr);
    st = dvc_traj_read(tr, tpath, c->n, c->m, c->tube->T);
    if (st != DVC_OK) {
        rc = dvc_cli_fail("check", st);
        dvc_cert_clear(c);
        return rc;
    }
    if (verify) {
        st = dvc_cert_verify(c);
        if (st != DVC_OK) {
            if (st == DVC_NOT_CERTIFIED)
                printf("rejected certificate: %s: %s\n", cpath, dvc_error_message());
            else
                fprintf(stderr, "dvicert check: unusable certificate: %s\n", dvc_error_message());
            dvc_traj_clear(tr);
            dvc_cert_clear(c);
            return st == DVC_NOT_CERTIFIED ? DVC_EXIT_FAIL : DVC_EXIT_INPUT;
        }
        printf("certificate: %s verified\n", cpath);
    }
    st = dvc_traj_check(&rep, tr, c->tube, max_report);
    if (st != DVC_OK) {
        rc = dvc_cli_fail("check", st);
        dvc_traj_clear(tr);
        dvc_cert_clear(c);
        return rc;
    }
    {
        mpfr_t lo, hi;
        char name[32];
        mpfr_inits2(c->prec + DVC_TRAJ_EXTRA_BITS, lo, hi, (mpfr_ptr)0);
        printf("samples: %ld (checked: %ld x column%s%s)\n", rep.nsamples, tr->n, tr->n > 1 ? "s" : "",
               tr->m ? " and the y columns" : "");
        comp_name(name, sizeof name, tr, rep.worst_hit.comp);
        printf("worst margin: %.*g (line %ld, %s)\n", digits, rep.worst,
               tr->line[rep.worst_hit.sample], name);
        comp_name(name, sizeof name, tr, rep.worst_x_hit.comp);
        printf("worst x margin: %.*g (line %ld, %s)\n", digits, rep.worst_x,
               tr->line[rep.worst_x_hit.sample], name);
        if (tr->m) {
            comp_name(name, sizeof name, tr, rep.worst_y_hit.comp);
            printf("worst y margin: %.*g (line %ld, %s)\n", digits, rep.worst_y,
                   tr->line[rep.worst_y_hit.sample], name);
        }
        for (long k = 0; k < rep.nstored; k++) {
            const dvc_traj_hit *h = &rep.viol[k];
            char *ts = dvc_ival_str(tr->t[h->sample], digits);
            char *vs = dvc_ival_str(tr->v[h->sample * (tr->n + tr->m) + h->comp], digits);
            char *ls, *hs;
            dvc_traj_tube_at(lo, hi, tr, h->sample, h->comp, c->tube);
            ls = dvc_mpfr_str(lo, digits, MPFR_RNDU);
            hs = dvc_mpfr_str(hi, digits, MPFR_RNDD);
            comp_name(name, sizeof name, tr, h->comp);
            printf("violation: line %ld t = %s %s = %s outside [%s, %s] (margin %.*g)\n",
                   tr->line[h->sample], ts ? ts : "?", name, vs ? vs : "?", ls ? ls : "?",
                   hs ? hs : "?", digits, h->margin);
            free(ts);
            free(vs);
            free(ls);
            free(hs);
        }
        if (rep.nviol > rep.nstored)
            printf("... %ld more violation%s not listed (--max-report %ld)\n", rep.nviol - rep.nstored,
                   rep.nviol - rep.nstored == 1 ? "" : "s", max_report);
        printf("%s: %ld of %ld samples outside the tube (%ld value%s)\n",
               rep.nviol ? "VIOLATED" : "inside", rep.nviol_samples, rep.nsamples, rep.nviol,
               rep.nviol == 1 ? "" : "s");
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    rc = rep.nviol ? DVC_EXIT_FAIL : DVC_EXIT_OK;
    dvc_traj_report_clear(&rep);
    dvc_traj_clear(tr);
    dvc_cert_clear(c);
    return rc;
}
