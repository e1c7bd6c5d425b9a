/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert plot: the approximate solution with its certified upper and lower
 * bound curves, one panel per component (the style of Chen & Wang, Fig. 1),
 * rendered by gnuplot. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "hybrid.h"
#include "dvicert/certio.h"

static void help(void)
{
    printf(
        "usage: dvicert plot CERT.json -o OUT.png|OUT.svg [--title TEXT] [--only x|y]\n\n"
        "Plots, per component, the approximate solution x^h_j (y^h_k) and the curves\n"
        "x^h_j(t_i) +- eps_x^i (y^h_k(t_i) +- eps_y^i) that bound the exact solution from\n"
        "above and below at the grid points (as in Fig. 1 of Chen & Wang); the y curves\n"
        "are met with [l, u] (y solves the LVI, so it lies in [l, u]).\n"
        "The format follows the extension (.png: pngcairo, .svg: svg). Needs gnuplot\n"
        "(Debian: apt-get install gnuplot-nox); the environment variable DVC_GNUPLOT\n"
        "names another gnuplot program. The image is rendered to a temporary file and\n"
        "renamed: nothing is left at OUT on failure.\n"
        "The certificate is first re-verified (as 'dvicert verify'); a rejected one is\n"
        "not plotted. --no-verify skips that, and the figure's title then says\n"
        "'NOT re-verified'.\n\n");
    dvc_cli_print_options(&dvc_cmd_plot);
    printf(
        "\nexit status: 0 written, 1 certificate rejected, 2 unusable certificate, gnuplot\n"
        "missing or failed.\n");
}

static const char *ext_of(const char *p)
{
    const char *d = strrchr(p, '.');
    return d ? d + 1 : "";
}

static const dvc_cli_opt opts[] = {
    {"output", 'o', "FILE", "a file name", "the image to write (.png or .svg)"},
    {"title", 0, "TEXT", "a title", "title of the figure (default: a description)"},
    {"only", 0, "x|y", "x or y", "only the x (or only the y) panels"},
    {"no-verify", 0, NULL, NULL, "do not re-verify the certificate first (the output says so)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_plot = {
    "plot", "plot a certificate (gnuplot): approximation with upper/lower bounds", opts,
    "the curves are passed to gnuplot as binary64 values rounded outward", DVC_CLI_CERT_PREC, 1, 1,
    "dvicert plot CERT.json -o OUT.png|OUT.svg [--title TEXT] [--only x|y]", help, run};

static int run(const dvc_cli_args *a)
{
    const char *in = a->pos[0], *out = a->out, *title = dvc_cli_value(a, "title");
    const char *only = dvc_cli_value(a, "only"), *term;
    const char *gp = getenv("DVC_GNUPLOT");
    int status, verify = !dvc_cli_flag(a, "no-verify");
    long panels;
    dvc_cert_t c;
    dvc_status st;
    const char *tmp;
    char cmd[4096];
    dvc_outfile of;
    FILE *p;
    if (only && strcmp(only, "x") != 0 && strcmp(only, "y") != 0) {
        fprintf(stderr, "dvicert plot: error: --only takes x or y\n");
        return DVC_EXIT_INPUT;
    }
    if (strcmp(ext_of(out), "png") == 0) term = "pngcairo noenhanced size 900,%ld font ',10'";
    else if (strcmp(ext_of(out), "svg") == 0) term = "svg noenhanced size 900,%ld dynamic font 'sans,10'";
    else {
        fprintf(stderr, "dvicert plot: error: %s: the output must end in .png or .svg\n", out);
        return DVC_EXIT_INPUT;
    }
    if (!gp || !*gp) gp = "gnuplot";
    if (strchr(gp, '\'') || strlen(gp) > 1000 || strlen(out) > 1000) {
        fprintf(stderr, "dvicert plot: error: unsupported characters in the gnuplot or output path\n");
        return DVC_EXIT_INPUT;
    }
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", gp);
    if (system(cmd) != 0) {
        fprintf(stderr, "dvicert plot: error: gnuplot not found ('%s'); install it, e.g. on Debian: "
                "apt-get install gnuplot-nox\n", gp);
        return DVC_EXIT_INPUT;
    }
    if (dvc_hybrid_file_kind(in) == 2) return dvc_cli_hybrid_plot(a);
    dvc_cert_init(c);
    st = dvc_cert_read(c, in);
    if (st != DVC_OK) {
        int rc = dvc_cli_cert_refused("plot", a->report, in, DVC_ERR_INPUT, NULL);
        dvc_cert_clear(c);
        return rc;
    }
    if (verify) {
        st = dvc_cert_verify(c);
        if (st != DVC_OK) {
            int rc = dvc_cli_cert_refused("plot", a->report, in, st, "plotted");
            dvc_cert_clear(c);
            return rc;
        }
        fprintf(a->report, "certificate: %s verified\n", in);
    } else {
        fprintf(a->report, "certificate: %s NOT re-verified (--no-verify)\n", in);
    }
    panels = (only && *only == 'y' ? 0 : c->n) + (only && *only == 'x' ? 0 : c->m);
    /* gnuplot writes the image into our temporary file (or directly to a
     * device or pipe); the commit renames it */
    st = dvc_outfile_open(&of, out);
    if (st != DVC_OK) {
        dvc_outfile_clear(&of);
        dvc_cert_clear(c);
        return dvc_cli_fail("plot", st);
    }
    tmp = of.tmp ? of.tmp : of.path;
    snprintf(cmd, sizeof cmd, "'%s' 2>&1", gp);
    p = popen(cmd, "w");
    if (!p) {
        fprintf(stderr, "dvicert plot: error: cannot run gnuplot: %s\n", strerror(errno));
        dvc_outfile_clear(&of);
        dvc_cert_clear(c);
        return DVC_EXIT_INPUT;
    }
    fprintf(p, "set terminal ");
    fprintf(p, term, 60 + 240 * panels);
    fprintf(p, "\nset output '");
    for (const char *s = tmp; *s; s++) fprintf(p, *s == '\'' ? "''" : "%c", *s);
    fprintf(p, "'\nset datafile separator ','\nset grid\nset key top left opaque samplen 2\n");
    fprintf(p, "$D << EOD\n");
    {
        /* t, then per component: value, lower, upper */
        long k2 = c->n > c->m ? c->n : c->m;
        mpfr_t *lo = malloc((size_t)k2 * sizeof *lo), *hi = malloc((size_t)k2 * sizeof *hi);
        mpfi_t t;
        mpfi_init2(t, c->prec);
        for (long k = 0; lo && hi && k < k2; k++) {
            mpfr_init2(lo[k], c->prec);
            mpfr_init2(hi[k], c->prec);
        }
        for (long i = 0; lo && hi && i <= c->N; i++) {
            dvc_tube_time(t, c->tube, i);
            fprintf(p, "%.17g", dvc_ival_mid_d(t));
            for (int which = 0; which < 2; which++) {
                long cnt = which ? c->m : c->n;
                const double *v = which ? c->tube->y + i * c->m : c->tube->x + i * c->n;
                dvc_tube_grid(lo, hi, c->tube, i, which);
                for (long j = 0; j < cnt; j++)
                    fprintf(p, ",%.17g,%.17g,%.17g", v[j], mpfr_get_d(lo[j], MPFR_RNDD),
                            mpfr_get_d(hi[j], MPFR_RNDU));
            }
            fprintf(p, "\n");
        }
        for (long k = 0; lo && hi && k < k2; k++) {
            mpfr_clear(lo[k]);
            mpfr_clear(hi[k]);
        }
        free(lo);
        free(hi);
        mpfi_clear(t);
    }
    fprintf(p, "EOD\n");
    fprintf(p, "set multiplot layout %ld,1 title '", panels);
    for (const char *s = title ? title : "certified enclosure: approximation and upper/lower bounds";
         *s; s++)
        fprintf(p, *s == '\'' ? "''" : *s == '\n' ? " " : "%c", *s);
    if (!verify) fprintf(p, " (certificate NOT re-verified)");
    fprintf(p, "'\n");
    for (int which = 0; which < 2; which++) {
        long cnt = which ? c->m : c->n;
        if (only && *only != (which ? 'y' : 'x')) continue;
        for (long j = 0; j < cnt; j++) {
            long col = 2 + 3 * ((which ? c->n : 0) + j);
            char nm[32];
            snprintf(nm, sizeof nm, "%s%ld", which ? "y" : "x", j + 1);
            fprintf(p, "set xlabel 't'\nset ylabel '%s'\n", nm);
            fprintf(p, "plot $D using 1:%ld with lines lw 1.5 lc rgb '#1f4e9c' title '%s^h', "
                       "'' using 1:%ld with lines dt 2 lc rgb '#c0392b' title '%s^h - eps', "
                       "'' using 1:%ld with lines dt 2 lc rgb '#27ae60' title '%s^h + eps'\n",
                    col, nm, col + 1, nm, col + 2, nm);
        }
    }
    fprintf(p, "unset multiplot\nset output\n");
    status = pclose(p);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "dvicert plot: error: gnuplot failed (exit status %d)\n",
                status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        dvc_outfile_clear(&of);
        dvc_cert_clear(c);
        return DVC_EXIT_INPUT;
    }
    st = dvc_outfile_commit(&of);
    dvc_outfile_clear(&of);
    if (st != DVC_OK) {
        dvc_cert_clear(c);
        return dvc_cli_fail("plot", st);
    }
    fprintf(a->report, "wrote %s (%ld panels)\n", out, panels);
    dvc_cert_clear(c);
    return DVC_EXIT_OK;
}
