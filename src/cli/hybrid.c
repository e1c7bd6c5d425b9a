/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert on hybrid models (docs/hybrid.md): enclose and the predict
 * companion, and the reading of a hybrid certificate for export. check,
 * plot, info and verify read every kind of certificate through one path
 * (certview.c); export writes every kind through one path (cmd_export.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cache.h"
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

int dvc_cli_hybrid_budget(const dvc_cli_args *a, const char *cmd, long *max_steps,
                          double *max_seconds)
{
    const char *ms = dvc_cli_value(a, "max-steps"), *sec = dvc_cli_value(a, "max-seconds");
    char *end;
    if (ms) {
        errno = 0;
        long v = strtol(ms, &end, 10);
        if (end == ms || *end != '\0' || errno || v < 1 || v > 1000000000L) {
            fprintf(stderr, "dvicert %s: error: --max-steps must be an integer in [1, 1000000000], "
                    "got '%s'\n", cmd, ms);
            return DVC_EXIT_INPUT;
        }
        *max_steps = v;
    }
    if (sec) {
        errno = 0;
        double v = strtod(sec, &end);
        if (end == sec || *end != '\0' || errno || !(v >= 0) || !isfinite(v)) {
            fprintf(stderr, "dvicert %s: error: --max-seconds must be a number of seconds >= 0 "
                    "(0: no time budget), got '%s'\n", cmd, sec);
            return DVC_EXIT_INPUT;
        }
        *max_seconds = v > 0 ? v : INFINITY;
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
    int brc = dvc_cli_hybrid_budget(a, "enclose", &c->max_steps, &c->max_seconds);
    if (brc != 0) {
        dvc_hybrid_cert_clear(c);
        return brc;
    }
    c->progress = 1; /* on a terminal only */
    /* written as the run goes: memory does not grow with the steps */
    st = dvc_hybrid_cert_enclose_write(c, in, a->prec_given ? a->prec : 0, out);
    if (st != DVC_OK) {
        int rc = dvc_cli_fail("enclose", st);
        if (st == DVC_NOT_CERTIFIED)
            fprintf(stderr, "dvicert enclose: %s%s%snothing written; certified up to "
                    "t = %.17g (%ld steps, %ld crossings)\n",
                    c->res->stop_class != DVC_HYB_TRANSVERSE ? "classified: " : "",
                    c->res->stop_class != DVC_HYB_TRANSVERSE
                        ? dvc_hybrid_class_name(c->res->stop_class) : "",
                    c->res->stop_class != DVC_HYB_TRANSVERSE ? "; " : "",
                    c->res->nsteps > 0 ? mpfr_get_d(c->res->t[c->res->nsteps - c->res->base], MPFR_RNDN)
                                       : 0.0,
                    c->res->nsteps, c->res->nevents);
        dvc_hybrid_cert_clear(c);
        return rc;
    }
    {
        const dvc_hybrid_result_struct *r = c->res; /* its last grid point and events */
        fprintf(rep, "certified: hybrid model, %ld steps, %ld crossings, n = %ld, %ld bits\n",
                r->nsteps, r->nevents, c->model->n, (long)c->prec);
        if (r->nevents > 0)
            fprintf(rep, "crossing times: first width %.3g, widest %.3g\n", c->ev_width_first,
                    c->ev_width_max);
        fprintf(rep, "widest state enclosure at T: %.3g\n", dvc_cli_vec_width(r->x[r->nsteps - r->base]));
        fprintf(rep, "wrote %s (%.2f s)\n", out, dvc_cli_now() - t0);
    }
    dvc_hybrid_cert_clear(c);
    return DVC_EXIT_OK;
}

/* The certificate read and, unless --no-verify, verified: rec then holds the
 * recomputed result (tight between grid points); otherwise the stated data
 * are used. Returns -1 when usable, else the exit code (message printed). */
dvc_status dvc_cli_hybrid_read(void *ctx, int verify)
{
    dvc_cli_hybrid_load *l = ctx;
    dvc_status st = dvc_hybrid_cert_read(l->c, l->path);
    l->unread = st != DVC_OK;
    if (st == DVC_OK && verify) {
        st = dvc_cert_verify_hybrid(l->c, l->rec);
        l->have_rec = st == DVC_OK;
    }
    return st;
}

/* verify 2: --no-cache (cache.h) */
static int load(dvc_hybrid_cert_t c, dvc_hybrid_result_t rec, int *have_rec, const char *cmd,
                const char *path, int verify, FILE *rep, const char *nothing)
{
    dvc_cli_hybrid_load l = {c, rec, path, 0, 0};
    int cached = 0;
    dvc_status st = verify ? dvc_cli_cache_read(path, verify == 1, 1, &cached, dvc_cli_hybrid_read, &l)
                           : dvc_cli_hybrid_read(&l, 0);
    *have_rec = l.have_rec;
    if (st != DVC_OK && l.unread) return dvc_cli_cert_refused(cmd, rep, path, DVC_ERR_INPUT, NULL);
    if (st != DVC_OK) return dvc_cli_cert_refused(cmd, rep, path, st, nothing);
    fprintf(rep, "certificate: %s %s\n", path,
            !verify ? "NOT re-verified (--no-verify)" : cached ? DVC_CLI_CACHED : "verified");
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

/* ---- dvicert predict: the floating-point companion ---------------------- */

static const dvc_cli_opt predict_opts[] = {
    {"output", 'o', "FILE", "a file name", "the trajectory CSV to write (header t,<state names>)"},
    {"h", 0, "TAU", "a step", "the step tau (default: the model's h, else 0.01)"},
    {"max-steps", 0, "N", "a number of steps",
     "the step budget (default: the model's max_steps, else 10000000)"},
    {"max-seconds", 0, "S", "a number of seconds",
     "the time budget (default: the model's max_seconds, else 3600; 0: none)"},
    {NULL, 0, NULL, NULL, NULL},
};

static void predict_help(void)
{
    printf(
        "usage: dvicert predict MODEL.json -o TRAJ.csv [--h TAU] [--max-steps N] [--max-seconds S]\n\n"
        "A floating-point trajectory of a hybrid model with linear modes -- NOT a bound:\n"
        "the conservative DMM step of Hirani, Wan & Wojtalewicz (the implicit midpoint\n"
        "rule: every quadratic invariant of x' = A x is kept to rounding) with\n"
        "Mannshardt's transition scheme at the switching surfaces, on the grid\n"
        "t0 + k TAU (the last step ends at T), plus a row at every transition point.\n"
        "The CSV (t,<state names>) is what 'dvicert check CERT.json TRAJ.csv' takes:\n"
        "the certificate then bounds this trajectory's error (docs/hybrid.md).\n"
        "More than the step budget (--max-steps, else the model's max_steps, default\n"
        "10^7) of steps TAU is refused before anything runs (the trajectory is held\n"
        "whole); past the time budget (--max-seconds, else the model's max_seconds,\n"
        "default 3600 s) the run stops saying where, nothing written. A progress line\n"
        "on stderr when it is a terminal.\n\n");
    dvc_cli_print_options(&dvc_cmd_predict);
    printf("\nexit status: 0 written, 1 the scheme failed (e.g. chattering), 2 bad input or\n"
           "i/o error.\n");
}

static int predict_run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_predict = {
    "predict", "a floating-point companion trajectory of a hybrid model (not a bound)",
    predict_opts, "it writes binary64 values exactly (17 digits)",
    "the companion runs in binary64", 1, 1,
    "dvicert predict MODEL.json -o TRAJ.csv [--h TAU] [--max-steps N] [--max-seconds S]",
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
    long max_steps = 0;
    double max_seconds = 0;
    if ((rc = dvc_cli_hybrid_budget(a, "predict", &max_steps, &max_seconds)) != 0) return rc;
    memset(&of, 0, sizeof of);
    dvc_hybrid_traj_init(&tr);
    st = dvc_hybrid_load(m, in, 0);
    if (st == DVC_OK) {
        if (max_steps > 0) m->max_steps = max_steps;
        if (max_seconds > 0) m->max_seconds = max_seconds;
        m->progress = 1; /* on a terminal only */
        double span = mpfr_get_d(m->T, MPFR_RNDU) - mpfr_get_d(m->t0, MPFR_RNDD);
        long budget = m->max_steps > 0 ? m->max_steps : DVC_HYBRID_MAX_STEPS;
        if (tau == 0) tau = m->h > 0 ? m->h : 0.01;
        /* the trajectory is held whole: the same step budget as the engine */
        if (span / tau > (double)budget)
            st = dvc_error(DVC_ERR_INPUT, "%s: a step of %.3g over [t0, T] is %.3g steps, more than the step "
                           "budget of %ld (the model's max_steps or --max-steps raises it)", in, tau, span / tau,
                           budget);
    }
    if (st == DVC_OK) {
        st = dvc_hybrid_dmm(&tr, m, tau);
        st = dvc_hybrid_json_error_path(st, m, in); /* an expression failing: its key path */
        if (st == DVC_ERR_INPUT) dvc_error_context(st, "%s: ", in);
    }
    if (st == DVC_OK) st = dvc_outfile_open(&of, out);
    if (st != DVC_OK) {
        rc = dvc_cli_fail("predict", st);
        if (st == DVC_NOT_CERTIFIED) fprintf(stderr, "dvicert predict: nothing written\n");
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
