/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert on hybrid models (docs/hybrid.md) and their certificates
 * (docs/formats.md, "Hybrid certificates"): enclose, verify, check, plot;
 * export writes every kind of certificate through one path (cmd_export.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "hybrid.h"
#include "dvicert/certio.h"
#include "dvicert/files.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/lcs_cert.h"
#include "commands.h"
#include "io/hybrid_json.h"

/* Options of the DLVI path that mean nothing for a hybrid model. */
int dvc_cli_hybrid_refuse(const dvc_cli_args *a, const char *cmd, const char *const *names)
{
    for (const char *const *n = names; *n; n++)
        if (dvc_cli_value(a, *n)) {
            fprintf(stderr, "dvicert %s: error: %s: --%s does not apply to a hybrid model\n", cmd,
                    a->pos[0], *n);
            return 1;
        }
    return 0;
}

double dvc_cli_width(const mpfi_t x)
{
    mpfr_t w;
    double d;
    mpfr_init2(w, 64);
    mpfr_sub(w, &x->right, &x->left, MPFR_RNDU);
    d = mpfr_get_d(w, MPFR_RNDU);
    mpfr_clear(w);
    return d;
}

double dvc_cli_vec_width(const dvc_ivec_t x)
{
    double w = 0;
    for (long i = 0; i < x->n; i++)
        if (dvc_cli_width(x->e[i]) > w) w = dvc_cli_width(x->e[i]);
    return w;
}

int dvc_cli_hybrid_enclose(const dvc_cli_args *a)
{
    static const char *const no[] = {"sharpen", "prec-max", "method", "from", "allow-outside-tables",
                                     "max-table-bytes", NULL};
    const char *in = a->pos[0], *out = a->out;
    FILE *rep = a->report;
    dvc_hybrid_cert_t c;
    dvc_status st;
    double t0 = dvc_cli_now();
    if (dvc_cli_hybrid_refuse(a, "enclose", no)) return DVC_EXIT_INPUT;
    dvc_hybrid_cert_init(c);
    st = dvc_hybrid_cert_enclose(c, in, a->prec_given ? a->prec : 0);
    if (st == DVC_OK) st = dvc_hybrid_cert_write(c, out);
    if (st != DVC_OK) {
        int rc = dvc_cli_fail("enclose", st);
        if (st == DVC_NOT_CERTIFIED)
            fprintf(stderr, "dvicert enclose: %s%s%snothing written; certified up to "
                    "t = %.17g (%ld steps, %ld crossings)\n",
                    c->res->stop_class != DVC_HYB_TRANSVERSE ? "classified: " : "",
                    c->res->stop_class != DVC_HYB_TRANSVERSE
                        ? dvc_hybrid_class_name(c->res->stop_class) : "",
                    c->res->stop_class != DVC_HYB_TRANSVERSE ? "; " : "",
                    c->res->nsteps > 0 ? mpfr_get_d(c->res->t[c->res->nsteps], MPFR_RNDN) : 0.0,
                    c->res->nsteps, c->res->nevents);
        dvc_hybrid_cert_clear(c);
        return rc;
    }
    {
        const dvc_hybrid_result_struct *r = c->res;
        double wmax = 0;
        for (long k = 0; k < r->nevents; k++)
            if (dvc_cli_width(r->ev[k].t) > wmax) wmax = dvc_cli_width(r->ev[k].t);
        fprintf(rep, "certified: hybrid model, %ld steps, %ld crossings, n = %ld, %ld bits\n",
                r->nsteps, r->nevents, c->model->n, (long)c->prec);
        if (r->nevents > 0)
            fprintf(rep, "crossing times: first width %.3g, widest %.3g\n", dvc_cli_width(r->ev[0].t), wmax);
        fprintf(rep, "widest state enclosure at T: %.3g\n", dvc_cli_vec_width(r->x[r->nsteps]));
        fprintf(rep, "wrote %s (%.2f s)\n", out, dvc_cli_now() - t0);
    }
    dvc_hybrid_cert_clear(c);
    return DVC_EXIT_OK;
}

int dvc_cli_hybrid_verify(const dvc_cli_args *a)
{
    const char *in = a->pos[0];
    dvc_hybrid_cert_t c;
    dvc_status st;
    double t0 = dvc_cli_now();
    dvc_hybrid_cert_init(c);
    st = dvc_hybrid_cert_read(c, in);
    if (st == DVC_OK) st = dvc_cert_verify_hybrid(c, NULL);
    if (st == DVC_OK && dvc_lcs_cert_is_lcs(c))
        printf("accepted: %s: ideal contact (M = 0) as a sliding motion, %ld steps, %ld events, "
               "the model re-derived from the problem, Q B re-proven a P-matrix, every stated enclosure "
               "contains its recomputed one (%ld bits, %.2f s)\n", in, c->res->nsteps,
               c->res->nevents, (long)c->prec, dvc_cli_now() - t0);
    else if (st == DVC_OK)
        printf("accepted: %s: hybrid, %ld steps, %ld crossings, every stated enclosure contains "
               "its recomputed one (%ld bits, %.2f s)\n", in, c->res->nsteps, c->res->nevents,
               (long)c->prec, dvc_cli_now() - t0);
    else if (st == DVC_NOT_CERTIFIED)
        printf("rejected: %s: %s\n", in, dvc_error_message());
    else
        fprintf(stderr, "dvicert verify: unusable certificate: %s\n", dvc_error_message());
    dvc_hybrid_cert_clear(c);
    return dvc_cli_exit_code(st);
}

/* The certificate read and, unless --no-verify, verified: rec then holds the
 * recomputed result (tight between grid points); otherwise the stated data
 * are used. Returns -1 when usable, else the exit code (message printed). */
static int load(dvc_hybrid_cert_t c, dvc_hybrid_result_t rec, int *have_rec, const char *cmd,
                const char *path, int verify, FILE *rep, const char *nothing)
{
    dvc_status st = dvc_hybrid_cert_read(c, path);
    *have_rec = 0;
    if (st != DVC_OK) return dvc_cli_cert_refused(cmd, rep, path, DVC_ERR_INPUT, NULL);
    if (!verify) {
        fprintf(rep, "certificate: %s NOT re-verified (--no-verify)\n", path);
        return -1;
    }
    st = dvc_cert_verify_hybrid(c, rec);
    if (st != DVC_OK) return dvc_cli_cert_refused(cmd, rep, path, st, nothing);
    *have_rec = 1;
    fprintf(rep, "certificate: %s verified\n", path);
    return -1;
}

int dvc_cli_hybrid_load_for_output(dvc_hybrid_cert_t c, dvc_hybrid_result_t rec, int *have_rec,
                                   dvc_outfile *of, const char *cmd, const char *in, const char *out,
                                   int verify, FILE *rep, const char *nothing)
{
    dvc_status st;
    int rc = load(c, rec, have_rec, cmd, in, verify, rep, nothing);
    if (rc >= 0) return rc;
    if ((st = dvc_outfile_open(of, out)) != DVC_OK) return dvc_cli_fail(cmd, st);
    return -1;
}

/* The tube of the certificate (include/dvicert/tube.h): the recomputed
 * result with the flow of each step's set between grid points when there
 * is one, else the stated enclosures (hull of the step boxes). */
static dvc_status cert_tube(dvc_tube_t tb, dvc_hybrid_flow_ref *flow, const dvc_hybrid_cert_t c,
                            const dvc_hybrid_result_t rec, int have_rec)
{
    if (have_rec) return dvc_hybrid_tube(tb, c->model, rec, flow);
    return dvc_hybrid_tube(tb, c->model, c->res, NULL);
}

int dvc_cli_hybrid_check(const dvc_cli_args *a)
{
    const char *cpath = a->pos[0], *tpath = a->pos[1];
    int digits = a->digits_given ? a->digits : 10, verify = !dvc_cli_flag(a, "no-verify");
    int have_rec, rc;
    long max_report;
    dvc_hybrid_cert_t c;
    dvc_hybrid_result_t rec;
    dvc_hybrid_flow_ref flow;
    dvc_tube_t tb;
    dvc_traj_t tr;
    dvc_traj_report rp;
    dvc_traj_read_opts ro;
    double *tol = NULL, t_tol = 0;
    mpfr_t ttol;
    dvc_status st = DVC_OK;
    if ((rc = dvc_cli_max_report(a, &max_report)) >= 0) return rc;
    memset(&rp, 0, sizeof rp);
    mpfr_init2(ttol, 53);
    dvc_hybrid_cert_init(c);
    dvc_hybrid_result_init(rec);
    dvc_tube_init(tb);
    dvc_traj_init(tr);
    rc = load(c, rec, &have_rec, "check", cpath, verify, stdout, NULL);
    if (rc >= 0) goto out;
    {
        /* samples enclosed at the certificate's precision + DVC_TRAJ_EXTRA_BITS */
        mpfr_prec_t tp = mpfr_get_prec(c->model->T);
        mpfi_t T;
        mpfi_init2(T, tp > c->prec ? tp : c->prec);
        mpfi_set_fr(T, c->model->T);
        if (dvc_cli_value(a, "tol")) {
            tol = malloc((size_t)(c->model->n + 1) * sizeof *tol);
            if (!tol || dvc_cli_parse_tol(tol, &t_tol, dvc_cli_value(a, "tol"),
                                          (const char *const *)c->model->names, c->model->n, NULL, 0) >= 0) {
                mpfi_clear(T);
                rc = DVC_EXIT_INPUT;
                goto out;
            }
            mpfr_set_d(ttol, t_tol, MPFR_RNDD);
        }
        dvc_traj_read_opts_init(&ro);
        ro.t0 = c->model->t0;
        ro.names = (const char *const *)c->model->names;
        ro.columns = dvc_cli_value(a, "columns");
        if (tol) ro.t_tol = ttol;
        st = dvc_traj_read_ex(tr, tpath, c->model->n, 0, T, &ro);
        mpfi_clear(T);
        if (st == DVC_OK) st = cert_tube(tb, &flow, c, rec, have_rec);
        if (st == DVC_OK) st = dvc_traj_check_tol(&rp, tr, tb, max_report, tol);
        if (st != DVC_OK) {
            if (st == DVC_ERR_INPUT) dvc_error_context(st, "%s: ", tpath);
            rc = dvc_cli_fail("check", st);
            goto out;
        }
    }
    printf("samples: %ld (states %s..%s; tube %s)\n", tr->ns, c->model->names[0],
           c->model->names[c->model->n - 1],
           have_rec ? "recomputed (flow of the step's set at each time)"
                    : "as stated (hull of the step boxes)");
    if (ro.clipped)
        printf("note: %ld time%s past T by at most the tolerance %g read as T\n", ro.clipped,
               ro.clipped == 1 ? "" : "s", t_tol);
    printf("worst x margin: %.*g (line %ld, %s)\n", digits, rp.worst, tr->line[rp.worst_hit.sample],
           c->model->names[rp.worst_hit.comp]);
    printf("%s: %ld of %ld samples outside the tube (%ld value%s)\n",
           rp.nviol ? "VIOLATED" : "inside", rp.nviol_samples, tr->ns, rp.nviol,
           rp.nviol == 1 ? "" : "s");
    if (tol)
        printf(rp.nviol ? "tolerance %s: %ld more value%s outside the tube by less than it\n"
                        : "accepted with tolerance %s: %ld value%s outside the tube by less than the tolerance\n",
               dvc_cli_value(a, "tol"), rp.ntol, rp.ntol == 1 ? "" : "s");
    {
        mpfr_t lo, hi;
        mpfi_t X;
        mpfr_inits2(tb->prec + DVC_TRAJ_EXTRA_BITS, lo, hi, (mpfr_ptr)0);
        mpfi_init2(X, tb->prec + DVC_TRAJ_EXTRA_BITS);
        for (long q = 0; q < rp.nstored; q++) {
            const dvc_traj_hit *h = &rp.viol[q];
            mpfi_srcptr v = tr->v[h->sample * tr->n + h->comp];
            char *ts, *vs, *xs;
            dvc_traj_tube_at(lo, hi, tr, h->sample, h->comp, tb);
            mpfi_interv_fr(X, lo, hi);
            ts = dvc_ival_str(tr->t[h->sample], digits);
            vs = dvc_ival_str(v, digits);
            xs = dvc_ival_str(X, digits);
            printf("violation: line %ld t = %s %s = %s outside %s (margin %.*g)\n",
                   tr->line[h->sample], ts ? ts : "?", c->model->names[h->comp], vs ? vs : "?",
                   xs ? xs : "?", digits, h->margin);
            free(ts);
            free(vs);
            free(xs);
        }
        mpfr_clears(lo, hi, (mpfr_ptr)0);
        mpfi_clear(X);
    }
    if (rp.nviol > rp.nstored)
        printf("... %ld more violation%s not listed (--max-report %ld)\n", rp.nviol - rp.nstored,
               rp.nviol - rp.nstored == 1 ? "" : "s", max_report);
    rc = rp.nviol ? DVC_EXIT_FAIL : DVC_EXIT_OK;
out:
    free(tol);
    mpfr_clear(ttol);
    dvc_traj_report_clear(&rp);
    dvc_traj_clear(tr);
    dvc_tube_clear(tb);
    dvc_hybrid_result_clear(rec);
    dvc_hybrid_cert_clear(c);
    return rc;
}

static void gp_quoted(FILE *p, const char *s)
{
    for (; *s; s++) fprintf(p, *s == '\'' ? "''" : *s == '\n' ? " " : "%c", *s);
}

int dvc_cli_hybrid_plot(const dvc_cli_args *a)
{
    const char *in = a->pos[0], *out = a->out, *title = dvc_cli_value(a, "title");
    const char *only = dvc_cli_value(a, "only"), *gp = getenv("DVC_GNUPLOT"), *ext, *term, *tmp;
    int verify = !dvc_cli_flag(a, "no-verify"), have_rec, rc, status;
    dvc_hybrid_cert_t c;
    dvc_hybrid_result_t rec;
    dvc_tube_t tb;
    mpfr_t *lo = NULL, *hi = NULL;
    mpfi_t tt;
    int have_tt = 0;
    dvc_outfile of;
    dvc_status st;
    char cmd[4096];
    FILE *p;
    /* checked by the command before it dispatches: the extension, gnuplot */
    ext = strrchr(out, '.');
    term = ext && strcmp(ext, ".svg") == 0 ? "svg noenhanced size 900,%ld dynamic font 'sans,10'"
                                           : "pngcairo noenhanced size 900,%ld font ',10'";
    if (!gp || !*gp) gp = "gnuplot";
    if (only && strcmp(only, "x") != 0) {
        fprintf(stderr, "dvicert plot: error: %s: a hybrid model has no y panels (--only y)\n", in);
        return DVC_EXIT_INPUT;
    }
    memset(&of, 0, sizeof of);
    dvc_tube_init(tb);
    dvc_hybrid_cert_init(c);
    dvc_hybrid_result_init(rec);
    rc = dvc_cli_hybrid_load_for_output(c, rec, &have_rec, &of, "plot", in, out, verify, a->report, "plotted");
    if (rc >= 0) goto out;
    /* the stated grid enclosures and events, through the tube */
    if ((st = dvc_hybrid_tube(tb, c->model, c->res, NULL)) != DVC_OK) {
        rc = dvc_cli_fail("plot", st);
        goto out;
    }
    lo = dvc_mpfr_array_new(tb->n, tb->prec);
    hi = dvc_mpfr_array_new(tb->n, tb->prec);
    mpfi_init2(tt, mpfi_get_prec(tb->T));
    have_tt = 1;
    if (!lo || !hi) {
        rc = dvc_cli_fail("plot", dvc_error(DVC_ERR_NOMEM, "out of memory"));
        goto out;
    }
    tmp = of.tmp ? of.tmp : of.path;
    snprintf(cmd, sizeof cmd, "'%s' 2>&1", gp);
    p = popen(cmd, "w");
    if (!p) {
        fprintf(stderr, "dvicert plot: error: cannot run gnuplot: %s\n", strerror(errno));
        rc = DVC_EXIT_INPUT;
        goto out;
    }
    {
        const dvc_hybrid_result_struct *r = c->res;
        const dvc_hybrid_model_struct *m = c->model;
        fprintf(p, "set terminal ");
        fprintf(p, term, 60 + 240 * m->n);
        fprintf(p, "\nset output '");
        gp_quoted(p, tmp);
        fprintf(p, "'\nset datafile separator ','\nset grid\nset key top left opaque samplen 2\n");
        /* t, then per state: midpoint, lower, upper of the stated grid enclosure */
        fprintf(p, "$D << EOD\n");
        for (long i = 0; i <= tb->N; i++) {
            dvc_tube_time(tt, tb, i);
            dvc_tube_grid(lo, hi, tb, i, 0);
            fprintf(p, "%.17g", dvc_ival_mid_d(tt));
            for (long j = 0; j < m->n; j++)
                fprintf(p, ",%.17g,%.17g,%.17g", tb->x[i * tb->n + j],
                        mpfr_get_d(lo[j], MPFR_RNDD), mpfr_get_d(hi[j], MPFR_RNDU));
            fprintf(p, "\n");
        }
        fprintf(p, "EOD\n");
        /* every certified crossing: a vertical line at its time enclosure */
        for (long k = 0; k < tb->nev; k++)
            fprintf(p, "set arrow %ld from %.17g, graph 0 to %.17g, graph 1 nohead dt 3 "
                       "lc rgb '#888888' # event %ld: %s %s->%s\n",
                    k + 1, dvc_ival_mid_d(tb->ev[k].t), dvc_ival_mid_d(tb->ev[k].t), k + 1,
                    m->gname[r->ev[k].g], m->modes[r->ev[k].mode_before].name,
                    m->modes[r->ev[k].mode_after].name);
        fprintf(p, "set multiplot layout %ld,1 title '", m->n);
        gp_quoted(p, title ? title : "certified hybrid enclosure: bounds at the grid points, "
                                     "dotted lines at the certified crossings");
        if (!verify) fprintf(p, " (certificate NOT re-verified)");
        fprintf(p, "'\n");
        for (long j = 0; j < m->n; j++) {
            long col = 2 + 3 * j;
            fprintf(p, "set xlabel 't'\nset ylabel '");
            gp_quoted(p, m->names[j]);
            fprintf(p, "'\nplot $D using 1:%ld with lines lw 1.5 lc rgb '#1f4e9c' title 'mid', "
                       "'' using 1:%ld with lines dt 2 lc rgb '#c0392b' title 'lower', "
                       "'' using 1:%ld with lines dt 2 lc rgb '#27ae60' title 'upper'\n",
                    col, col + 1, col + 2);
        }
        fprintf(p, "unset multiplot\nset output\n");
    }
    status = pclose(p);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "dvicert plot: error: gnuplot failed (exit status %d)\n",
                status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        rc = DVC_EXIT_INPUT;
        goto out;
    }
    if ((st = dvc_outfile_commit(&of)) != DVC_OK) {
        rc = dvc_cli_fail("plot", st);
        goto out;
    }
    fprintf(a->report, "wrote %s (%ld panels, %ld events marked)\n", out, c->model->n,
            c->res->nevents);
    rc = DVC_EXIT_OK;
out:
    dvc_outfile_clear(&of);
    if (have_tt) mpfi_clear(tt);
    dvc_mpfr_array_free(lo, lo ? tb->n : 0);
    dvc_mpfr_array_free(hi, hi ? tb->n : 0);
    dvc_tube_clear(tb);
    dvc_hybrid_result_clear(rec);
    dvc_hybrid_cert_clear(c);
    return rc;
}

/* ---- dvicert predict: the floating-point companion ---------------------- */

static const dvc_cli_opt predict_opts[] = {
    {"output", 'o', "FILE", "a file name", "the trajectory CSV to write (header t,<state names>)"},
    {"h", 0, "TAU", "a step", "the step tau (default: the model's h, else 0.01)"},
    {NULL, 0, NULL, NULL, NULL},
};

static void predict_help(void)
{
    printf(
        "usage: dvicert predict MODEL.json -o TRAJ.csv [--h TAU]\n\n"
        "A floating-point trajectory of a hybrid model with linear modes -- NOT a bound:\n"
        "the conservative DMM step of Hirani, Wan & Wojtalewicz (the implicit midpoint\n"
        "rule: every quadratic invariant of x' = A x is kept to rounding) with\n"
        "Mannshardt's transition scheme at the switching surfaces, on the grid\n"
        "t0 + k TAU (the last step ends at T), plus a row at every transition point.\n"
        "The CSV (t,<state names>) is what 'dvicert check CERT.json TRAJ.csv' takes:\n"
        "the certificate then bounds this trajectory's error (docs/hybrid.md).\n\n");
    dvc_cli_print_options(&dvc_cmd_predict);
    printf("\nexit status: 0 written, 1 the scheme failed (e.g. chattering), 2 bad input or\n"
           "i/o error.\n");
}

static int predict_run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_predict = {
    "predict", "a floating-point companion trajectory of a hybrid model (not a bound)",
    predict_opts, "it writes binary64 values exactly (17 digits)",
    "the companion runs in binary64", 1, 1, "dvicert predict MODEL.json -o TRAJ.csv [--h TAU]",
    predict_help, predict_run};

static int predict_run(const dvc_cli_args *a)
{
    const char *in = a->pos[0], *out = a->out, *hs = dvc_cli_value(a, "h");
    dvc_hybrid_model_t m;
    dvc_hybrid_traj tr;
    dvc_outfile of;
    dvc_status st;
    double tau = 0;
    int rc, fail = 0;
    if (hs) {
        char *end;
        tau = strtod(hs, &end);
        if (end == hs || *end != '\0' || !(tau > 0) || !isfinite(tau)) {
            fprintf(stderr, "dvicert predict: error: --h must be a positive number, got '%s'\n", hs);
            return DVC_EXIT_INPUT;
        }
    }
    memset(&of, 0, sizeof of);
    dvc_hybrid_traj_init(&tr);
    st = dvc_hybrid_load(m, in, 0);
    if (st == DVC_OK) {
        if (tau == 0) tau = m->h > 0 ? m->h : 0.01;
        st = dvc_hybrid_dmm(&tr, m, tau);
        if (st == DVC_ERR_INPUT) dvc_error_context(st, "%s: ", in);
    }
    if (st == DVC_OK) st = dvc_outfile_open(&of, out);
    if (st != DVC_OK) {
        rc = dvc_cli_fail("predict", st);
        goto done;
    }
    fail |= fputs("t", of.f) < 0;
    for (long j = 0; j < m->n; j++) fail |= fprintf(of.f, ",%s", m->names[j]) < 0;
    fail |= fputs("\n", of.f) < 0;
    for (long k = 0; k < tr.ns && !fail; k++) {
        fail |= fprintf(of.f, "%.17g", tr.t[k]) < 0;
        for (long j = 0; j < m->n; j++) fail |= fprintf(of.f, ",%.17g", tr.x[k * m->n + j]) < 0;
        fail |= fputs("\n", of.f) < 0;
    }
    st = fail ? dvc_error(DVC_ERR_IO, "%s: cannot write the output", out) : dvc_outfile_commit(&of);
    if (st != DVC_OK) {
        rc = dvc_cli_fail("predict", st);
        goto done;
    }
    fprintf(a->report, "wrote %s (%ld rows, %ld transitions, step %.17g; a floating-point "
            "trajectory, not a bound)\n", out, tr.ns, tr.nev, tau);
    rc = DVC_EXIT_OK;
done:
    dvc_outfile_clear(&of);
    dvc_hybrid_traj_clear(&tr);
    dvc_hybrid_model_clear(m);
    return rc;
}
