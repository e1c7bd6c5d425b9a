/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert export: the certified tube as CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cli.h"
#include "commands.h"
#include "certview.h"
#include "hybrid.h"
#include "dvicert/events.h"
#include "io/labels.h"
#include "dvicert/certio.h"

static const dvc_cli_opt opts[] = {
    {"output", 'o', "FILE", "a file name", "the CSV file to write (nothing is written on failure)"},
    {"digits", 0, "D", "a number of digits", "significant digits of the bounds (default 17)"},
    {"grid-only", 0, NULL, NULL, "only the grid rows"},
    {"w", 0, NULL, NULL, "add columns w1_lo,w1_hi,...,wm_lo,wm_hi (see above)"},
    {"no-verify", 0, NULL, NULL, "do not re-verify the certificate first (the output says so)"},
    {"no-cache", 0, NULL, NULL, "recompute even when this binary verified the same text before\n"
                                "(the verified-certificate cache, docs/formats.md)"},
    {NULL, 0, NULL, NULL, NULL},
};

static void help(void)
{
    printf(
        "usage: dvicert export CERT.json -o TUBE.csv [--digits D] [--grid-only] [--w]\n\n"
        "Writes the certified tube as CSV (columns documented in docs/formats.md):\n"
        "  kind,t_lo,t_hi,x1_lo,x1_hi,...,xn_lo,xn_hi,y1_lo,y1_hi,...,ym_lo,ym_hi\n"
        "(a problem that names its states and outputs, state_names and output_names,\n"
        "gives those names instead of x1.., y1..)\n"
        "kind = grid: bounds at the grid point t_i (t_lo, t_hi enclose t_i = i T/N, or,\n"
        "       when the problem's step h does not divide T, t_i = i h' for i < N and\n"
        "       t_N = T: the last step is shorter; docs/formats.md, \"Time grid\"):\n"
        "       x^i_j +- s_j eps_x^i (s_j: the state scale, 1 when the certificate\n"
        "       states none) and y^i +- eps_y^i;\n"
        "kind = step: bounds valid for every t in [t_{i-1}, t_i] (t_lo, t_hi: that\n"
        "       interval, rounded outward).\n"
        "Every y bound is met with [l, u] (y solves the LVI, so it lies in [l, u]).\n"
        "--w adds columns w1_lo,w1_hi,...,wm_lo,wm_hi: enclosures of the LVI function\n"
        "       w = Q x + M y + g(t) over the same times (e.g. the diode currents z of\n"
        "       Example 5.3, certs/circuit), computed in interval arithmetic from the\n"
        "       x and y bounds of the row.\n"
        "Bounds are printed rounded outward (lower down, upper up), D significant digits\n"
        "(default 17), at the certificate's precision (--prec is refused).\n"
        "The certificate is first re-verified (as 'dvicert verify'), unless this very\n"
        "binary verified the same text before on this machine (the message then says\n"
        "'verified earlier on this machine (cache)'; --no-cache recomputes; a .gz\n"
        "certificate is read decompressed; docs/formats.md); a rejected one is\n"
        "not exported. --no-verify skips that: the CSV then starts with the comment line\n"
        "'# certificate NOT re-verified (--no-verify)' and the message says so.\n"
        "An output name ending in .gz (-o TUBE.csv.gz) is written gzip-compressed.\n"
        "A hybrid certificate gives its stated grid enclosures, step boxes and events,\n"
        "then a column mode; the events route adds y columns, and so does an ideal\n"
        "contact: its contact multipliers (e.g. a diode's current), enclosed on\n"
        "reading from the stated state enclosures (docs/ideal_contacts.md).\n\n");
    dvc_cli_print_options(&dvc_cmd_export);
    printf("\nexit status: 0 written, 1 certificate rejected, 2 unusable certificate or i/o\n"
           "error.\n");
}

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_export = {
    "export", "a certificate's tube as CSV", opts, NULL, DVC_CLI_CERT_PREC, 1, 1,
    "dvicert export CERT.json -o TUBE.csv [--digits D] [--grid-only] [--w]", help, run};

/* State of one export, whatever the certificate's kind: rows are written
 * from its tube (a DLVI certificate's as its steps are read). */
typedef struct {
    FILE *f;
    int digits, grid_only, want_w, verify, fail;
    int started;
    dvc_dlvi_problem_t p;
    int have_p;
    dvc_ivec_t X, Y, W, G;
    mpfr_t *lo, *hi;
    long k2;
    mpfi_t t, tt;
    dvc_status st;
    /* a hybrid certificate (NULL: DLVI): its modes name the rows */
    const dvc_hybrid_cert_struct *hc;
} ex_t;

static void put_fr(ex_t *e, const mpfr_t x, mpfr_rnd_t r)
{
    char *s = dvc_mpfr_str(x, e->digits, r);
    e->fail |= s == NULL || fprintf(e->f, ",%s", s) < 0;
    free(s);
}

/* Work space for n states and m outputs: bounds at prec, times at tprec. */
static dvc_status ex_alloc(ex_t *e, long n, long m, mpfr_prec_t prec, mpfr_prec_t tprec)
{
    e->started = 1;
    dvc_ivec_init2(e->X, n, prec);
    dvc_ivec_init2(e->Y, m, prec);
    dvc_ivec_init2(e->W, m, prec);
    dvc_ivec_init2(e->G, m, prec);
    e->k2 = n > m ? n : m;
    e->lo = calloc((size_t)(e->k2 > 0 ? e->k2 : 1), sizeof *e->lo);
    e->hi = calloc((size_t)(e->k2 > 0 ? e->k2 : 1), sizeof *e->hi);
    if (!e->lo || !e->hi) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long k = 0; k < e->k2; k++) {
        mpfr_init2(e->lo[k], prec);
        mpfr_init2(e->hi[k], prec);
    }
    mpfi_init2(e->t, tprec);
    mpfi_init2(e->tt, tprec);
    return DVC_OK;
}

/* The comment of --no-verify and the header: the states' and outputs'
 * names, then w (DLVI) or the mode (hybrid). */
static void ex_header(ex_t *e, char *const *xn, long n, char *const *yn, long m)
{
    if (!e->verify) e->fail |= fputs("# certificate NOT re-verified (--no-verify)\n", e->f) < 0;
    e->fail |= fputs("kind,t_lo,t_hi", e->f) < 0;
    for (long j = 0; j < n; j++) e->fail |= fprintf(e->f, ",%s_lo,%s_hi", xn[j], xn[j]) < 0;
    for (long k = 0; k < m; k++) e->fail |= fprintf(e->f, ",%s_lo,%s_hi", yn[k], yn[k]) < 0;
    for (long k = 0; e->want_w && k < m; k++) e->fail |= fprintf(e->f, ",w%ld_lo,w%ld_hi", k + 1, k + 1) < 0;
    e->fail |= fputs(e->hc ? ",mode\n" : "\n", e->f) < 0;
}

static dvc_status ex_start(ex_t *e, const dvc_cert_t c)
{
    dvc_labels L;
    dvc_status st;
    e->started = 1;
    if (e->want_w) {
        /* the problem (Q, M, g) from the certificate's self-contained copy */
        dvc_prec_set(c->prec);
        dvc_dlvi_problem_init(e->p, 0, 0, 0);
        e->have_p = 1;
        if (dvc_cert_problem(e->p, c) != DVC_OK) return DVC_ERR_INPUT;
    }
    if ((st = ex_alloc(e, c->n, c->m, c->prec, c->prec)) != DVC_OK) return st;
    /* the problem's state and output names when it gives them */
    dvc_labels_init(&L);
    if (dvc_labels_from_text(&L, c->problem_json, c->n, c->m) != DVC_OK) {
        if (!e->verify) e->fail |= fputs("# certificate NOT re-verified (--no-verify)\n", e->f) < 0;
        e->fail |= fputs("kind,t_lo,t_hi", e->f) < 0;
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    ex_header(e, L.x, c->n, L.y, c->m);
    dvc_labels_clear(&L);
    return DVC_OK;
}

static void ex_clear(ex_t *e)
{
    if (!e->started) return;
    if (e->lo && e->hi)
        for (long k = 0; k < e->k2; k++) {
            mpfr_clear(e->lo[k]);
            mpfr_clear(e->hi[k]);
        }
    free(e->lo);
    free(e->hi);
    if (e->lo && e->hi) {
        mpfi_clear(e->t);
        mpfi_clear(e->tt);
    }
    dvc_ivec_clear(e->X);
    dvc_ivec_clear(e->Y);
    dvc_ivec_clear(e->W);
    dvc_ivec_clear(e->G);
    if (e->have_p) dvc_dlvi_problem_clear(e->p);
}

/* w = Q X + M Y + g(t) over the row's time interval [t_{i-1} or t_i, t_i]. */
static dvc_status ex_w(ex_t *e, const dvc_tube_struct *tb, long i, int grid)
{
    dvc_status st = DVC_OK;
    dvc_tube_time(e->tt, tb, grid ? i : i - 1);
    dvc_tube_time(e->t, tb, i);
    mpfi_put(e->tt, e->t);
    dvc_imat_mul_vec(e->W, e->p->Q, e->X);
    dvc_imat_mul_vec(e->G, e->p->M, e->Y);
    dvc_ivec_add(e->W, e->W, e->G);
    if (e->p->gcb.eval) {
        st = e->p->gcb.eval(e->G, e->tt, e->p->gcb.ctx);
        if (st == DVC_OK) dvc_ivec_add(e->W, e->W, e->G);
    }
    for (long k = 0; st == DVC_OK && k < tb->m; k++) {
        put_fr(e, &e->W->e[k]->left, MPFR_RNDD);
        put_fr(e, &e->W->e[k]->right, MPFR_RNDU);
    }
    return st;
}

/* Rows of grid point i of tb: the step [t_{i-1}, t_i] (i >= 1), then the
 * grid point; the kind's last columns (w, or the mode). */
static dvc_status ex_rows(ex_t *e, const dvc_tube_struct *tb, long i)
{
    dvc_status st = DVC_OK;
    for (int kind = (i == 0 || e->grid_only) ? 1 : 0; kind < 2 && st == DVC_OK; kind++) {
        /* kind 0: the step [t_{i-1}, t_i]; kind 1: the grid point t_i */
        e->fail |= fputs(kind ? "grid" : "step", e->f) < 0;
        dvc_tube_time(e->t, tb, kind ? i : i - 1);
        put_fr(e, &e->t->left, MPFR_RNDD);
        dvc_tube_time(e->t, tb, i);
        put_fr(e, &e->t->right, MPFR_RNDU);
        for (int which = 0; which < 2; which++) {
            long cnt = which ? tb->m : tb->n;
            if (kind) dvc_tube_grid(e->lo, e->hi, tb, i, which);
            else dvc_tube_step_hull(e->lo, e->hi, tb, i, which);
            for (long j = 0; j < cnt; j++) {
                put_fr(e, e->lo[j], MPFR_RNDD);
                put_fr(e, e->hi[j], MPFR_RNDU);
                mpfi_interv_fr(which ? e->Y->e[j] : e->X->e[j], e->lo[j], e->hi[j]);
            }
        }
        if (e->want_w) st = ex_w(e, tb, i, kind);
        if (e->hc) {
            /* the mode of the step, or at a grid point the one leaving it */
            const dvc_hybrid_result_struct *r = e->hc->res;
            long s = kind ? (i < r->nsteps ? i : i - 1) : i - 1;
            e->fail |= fprintf(e->f, ",%s", e->hc->model->modes[r->mode[s]].name) < 0;
        }
        e->fail |= fputs("\n", e->f) < 0;
    }
    return st;
}

/* The tube's events (certified switches): time and state enclosures. */
static void ex_events(ex_t *e, const dvc_tube_struct *tb)
{
    for (long k = 0; !e->fail && k < tb->nev; k++) {
        const dvc_tube_event *ev = &tb->ev[k];
        const char *lab = strstr(ev->label, ": ");
        e->fail |= fputs("event", e->f) < 0;
        put_fr(e, &ev->t->left, MPFR_RNDD);
        put_fr(e, &ev->t->right, MPFR_RNDU);
        for (long j = 0; j < ev->x->n; j++) {
            put_fr(e, &ev->x->e[j]->left, MPFR_RNDD);
            put_fr(e, &ev->x->e[j]->right, MPFR_RNDU);
        }
        for (long j = 0; j < ev->y->n; j++) {
            put_fr(e, &ev->y->e[j]->left, MPFR_RNDD);
            put_fr(e, &ev->y->e[j]->right, MPFR_RNDU);
        }
        e->fail |= fprintf(e->f, ",%s\n", lab ? lab + 2 : ev->label) < 0;
    }
}

static dvc_status ex_point(const dvc_cert_t c, long i, void *ctx)
{
    ex_t *e = ctx;
    dvc_status st = DVC_OK;
    if (!e->started && (st = ex_start(e, c)) != DVC_OK) {
        e->st = st;
        return st;
    }
    st = ex_rows(e, c->tube, i);
    if (st == DVC_OK && e->fail) st = dvc_error(DVC_ERR_IO, "cannot write the output");
    e->st = st;
    return st;
}

/* A hybrid certificate: read and verified before anything is written, then
 * the rows of its stated tube (every stated enclosure contains the
 * recomputed one) and its events. */
static int run_hybrid(const dvc_cli_args *a, ex_t *e)
{
    static const char *const no[] = {"w", NULL};
    const char *in = a->pos[0], *out = a->out;
    int have_rec, rc, named = 0;
    dvc_labels L;
    dvc_hybrid_cert_t c;
    dvc_hybrid_result_t rec;
    dvc_tube_t tb;
    dvc_outfile of;
    dvc_status st;
    if (dvc_cli_hybrid_refuse(a, "export", no)) return DVC_EXIT_INPUT;
    memset(&of, 0, sizeof of);
    dvc_labels_init(&L);
    dvc_tube_init(tb);
    dvc_hybrid_cert_init(c);
    dvc_hybrid_result_init(rec);
    rc = dvc_cli_hybrid_load_for_output(c, rec, &have_rec, &of, "export", in, out,
                                        e->verify ? 1 + dvc_cli_flag(a, "no-cache") : 0, a->report, "written");
    if (rc >= 0) goto out;
    /* an events certificate: y too, from the pattern's map */
    if ((st = dvc_dlvi_events_tube(tb, c->model, c->res, NULL)) != DVC_OK ||
        (st = dvc_hybrid_cert_tube_y(tb, c)) != DVC_OK || /* an ideal contact: its multipliers */
        (st = dvc_cli_events_labels(&L, c, tb->m, &named)) != DVC_OK) {
        rc = dvc_cli_fail("export", st);
        goto out;
    }
    e->f = of.f;
    e->hc = c;
    e->fail |= ex_alloc(e, tb->n, tb->m, tb->prec, mpfi_get_prec(tb->T)) != DVC_OK;
    if (named) ex_header(e, L.x, tb->n, L.y, tb->m);
    else ex_header(e, c->model->names, c->model->n, NULL, 0);
    for (long i = 0; !e->fail && i <= tb->N; i++) ex_rows(e, tb, i);
    ex_events(e, tb);
    st = e->fail ? dvc_error(DVC_ERR_IO, "%s: cannot write the output", out) : dvc_outfile_commit(&of);
    if (st != DVC_OK) {
        rc = dvc_cli_fail("export", st);
        goto out;
    }
    fprintf(a->report, "wrote %s (%ld grid points, %ld steps, %ld events; certificate %s)\n", out,
            c->res->nsteps + 1, e->grid_only ? 0 : c->res->nsteps, c->res->nevents,
            !e->verify ? "NOT re-verified (--no-verify)" : have_rec ? "verified" : DVC_CLI_CACHED);
    rc = DVC_EXIT_OK;
out:
    dvc_outfile_clear(&of);
    ex_clear(e);
    dvc_tube_clear(tb);
    dvc_labels_clear(&L);
    dvc_hybrid_result_clear(rec);
    dvc_hybrid_cert_clear(c);
    return rc;
}

/* The DLVI certificate read (verified when asked) while its rows are
 * written. */
typedef struct {
    dvc_cert_struct *c;
    const char *in;
    ex_t *e;
    int direct;
} exr_t;

static dvc_status ex_read(void *ctx, int verify)
{
    exr_t *x = ctx;
    dvc_status st;
    if (verify && x->direct) {
        /* a direct output cannot be taken back: verify first, then write */
        st = dvc_cert_stream(x->c, x->in, 1, NULL, NULL);
        return st == DVC_OK ? dvc_cert_stream(x->c, x->in, 0, ex_point, x->e) : st;
    }
    /* rows written as the steps are read (and verified); the temporary
     * file is removed if the certificate is rejected later */
    return dvc_cert_stream(x->c, x->in, verify, ex_point, x->e);
}

static int run(const dvc_cli_args *a)
{
    const char *in = a->pos[0], *out = a->out;
    int verify = !dvc_cli_flag(a, "no-verify"), cached = 0;
    exr_t x;
    dvc_cert_t c;
    dvc_status st;
    dvc_outfile of;
    ex_t e;
    memset(&of, 0, sizeof of);
    memset(&e, 0, sizeof e);
    e.digits = a->digits_given ? a->digits : 17;
    e.grid_only = dvc_cli_flag(a, "grid-only");
    e.want_w = dvc_cli_flag(a, "w");
    e.verify = verify;
    e.st = DVC_OK;
    if (dvc_cert_file_kind(in) == DVC_CERT_KIND_HYBRID) return run_hybrid(a, &e);
    dvc_cert_init(c);
    st = dvc_outfile_open(&of, out);
    if (st != DVC_OK) {
        dvc_cert_clear(c);
        return dvc_cli_fail("export", st);
    }
    e.f = of.f;
    x.c = c;
    x.in = in;
    x.e = &e;
    x.direct = of.tmp == NULL;
    st = verify ? dvc_cli_cache_read(in, !dvc_cli_flag(a, "no-cache"), 1, &cached, ex_read, &x) : ex_read(&x, 0);
    if (st == DVC_OK) st = dvc_outfile_commit(&of);
    dvc_outfile_clear(&of);
    ex_clear(&e);
    if (st != DVC_OK) {
        int rc;
        /* e.st set: the failure was writing the rows, not the certificate */
        if (st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT || e.st == DVC_OK)
            rc = dvc_cli_cert_refused("export", a->report, in, st, "written");
        else
            rc = dvc_cli_fail("export", st);
        dvc_cert_clear(c);
        return rc;
    }
    fprintf(a->report, "wrote %s (%ld grid points, %ld steps; certificate %s)\n", out, c->N + 1,
            e.grid_only ? 0 : c->N, !verify ? "NOT re-verified (--no-verify)" : cached ? DVC_CLI_CACHED : "verified");
    dvc_cert_clear(c);
    return DVC_EXIT_OK;
}
