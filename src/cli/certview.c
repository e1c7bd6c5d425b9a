/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The certificate a command reads, whatever its kind (certview.h). A DLVI
 * certificate is streamed (memory independent of N); a hybrid one is read
 * and verified whole (its verification re-runs the engine over the whole
 * horizon), and its tube then holds every row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "certview.h"
#include "hybrid.h"
#include "dvicert/certio.h"
#include "dvicert/events.h"
#include "dvicert/lcs_cert.h"
#include "io/io.h"

void dvc_cli_cert_init(dvc_cli_cert *d)
{
    memset(d, 0, sizeof *d);
    mpfi_init2(d->T, 53);
    dvc_cert_init(d->dlvi);
    dvc_labels_init(&d->L);
    dvc_hybrid_cert_init(d->hyb);
    dvc_hybrid_result_init(d->rec);
    dvc_tube_init(d->htube);
}

void dvc_cli_cert_clear(dvc_cli_cert *d)
{
    free(d->name);
    mpfi_clear(d->T);
    dvc_tube_clear(d->htube);
    dvc_hybrid_result_clear(d->rec);
    dvc_hybrid_cert_clear(d->hyb);
    dvc_labels_clear(&d->L);
    dvc_cert_clear(d->dlvi);
}

static dvc_status peek(const dvc_cert_t c, long i, void *ctx)
{
    (void)c;
    (void)i;
    *(int *)ctx = 1;
    return DVC_ERR_INTERNAL; /* the header is all that is needed */
}

/* A DLVI certificate: its header (n, m, T, the problem's labels). */
static int open_streamed(dvc_cli_cert *d, const char *cmd, FILE *rep)
{
    dvc_cert_struct *c = d->dlvi;
    int seen = 0;
    dvc_cert_stream(d->dlvi, d->path, 0, peek, &seen);
    if (!seen) return dvc_cli_cert_refused(cmd, rep, d->path, DVC_ERR_INPUT, NULL);
    if (dvc_labels_from_text(&d->L, c->problem_json, c->n, c->m) != DVC_OK)
        return dvc_cli_fail(cmd, DVC_ERR_NOMEM);
    d->n = c->n;
    d->m = c->m;
    d->N = c->N;
    d->prec = c->prec;
    mpfi_set_prec(d->T, mpfi_get_prec(c->tube->T));
    mpfi_set(d->T, c->tube->T);
    d->xnames = (const char *const *)d->L.x;
    d->ynames = (const char *const *)d->L.y;
    d->tube = c->tube;
    d->inner_edges = 1;
    d->edge_prec = c->prec;
    return -1;
}

/* The DLVI problem a hybrid certificate's model embeds (the events route's
 * "dlvi_events", an ideal contact's "lcs"), as JSON text, or NULL. */
static char *embedded_problem(const dvc_hybrid_cert_struct *c)
{
    json_t *root = c->model_json ? json_loads(c->model_json, 0, NULL) : NULL;
    json_t *prob = json_object_get(json_object_get(root, "dlvi_events"), "problem");
    char *txt;
    if (!json_is_object(prob)) prob = json_object_get(json_object_get(root, "lcs"), "problem");
    txt = json_is_object(prob) ? json_dumps(prob, JSON_COMPACT) : NULL;
    json_decref(root);
    return txt;
}

char *dvc_cli_hybrid_name(const dvc_hybrid_cert_struct *c)
{
    char *txt = embedded_problem(c);
    char *name = dvc_io_problem_string(txt ? txt : c->model_json, "name");
    free(txt);
    return name;
}

/* A DAE's labels as a problem would give them: its states, its algebraic
 * variables as the outputs, its units. */
static char *dae_problem(const dvc_hybrid_cert_struct *c)
{
    json_t *root = c->model_json ? json_loads(c->model_json, 0, NULL) : NULL, *p = json_object();
    char *txt;
    json_object_set(p, "state_names", json_object_get(root, "states"));
    json_object_set(p, "output_names", json_object_get(root, "algebraic"));
    if (json_object_get(root, "units")) json_object_set(p, "units", json_object_get(root, "units"));
    txt = json_dumps(p, JSON_COMPACT);
    json_decref(p);
    json_decref(root);
    return txt;
}

dvc_status dvc_cli_events_labels(dvc_labels *L, const dvc_hybrid_cert_struct *c, long m, int *named)
{
    char *txt = c->model->nz > 0 ? dae_problem(c) : embedded_problem(c);
    dvc_status st;
    /* an ideal contact's problem names one output per contact */
    if (dvc_lcs_cert_is_lcs(c)) m = c->model->ncontacts;
    if (c->model->nz > 0) m = c->model->nz; /* a DAE: its algebraic variables */
    st = txt ? dvc_labels_from_text(L, txt, c->model->n, m) : DVC_OK;
    *named = txt != NULL && st == DVC_OK;
    free(txt);
    return st;
}

/* The labels of an events or ideal-contact certificate (those of its
 * embedded problem: names and units); a plain hybrid one keeps its model's
 * state names. */
static dvc_status events_labels(dvc_cli_cert *d)
{
    int named = 0;
    dvc_status st = dvc_cli_events_labels(&d->L, d->hyb, d->m, &named);
    if (named) {
        d->xnames = (const char *const *)d->L.x;
        d->ynames = (const char *const *)d->L.y;
    }
    return st;
}

/* The number of multipliers of a hybrid certificate's model: those of the
 * DLVI problem for the events route (a mode is named by its pattern, one
 * letter per multiplier, include/dvicert/events.h), else 0. */
static long hybrid_m(const dvc_hybrid_model_struct *m)
{
    long patterns = 0;
    dvc_dlvi_events_stats(m, &patterns, NULL, NULL);
    return patterns > 0 && m->nmodes > 0 ? (long)strlen(m->modes[0].name) : 0;
}

/* A hybrid certificate: read, verified unless verify is 0 (the tube is
 * then the recomputed result, tight between grid points, unless stated),
 * its tube built (with y for the events route). */
static int open_whole(dvc_cli_cert *d, const char *cmd, int verify, FILE *rep, const char *nothing,
                      int stated)
{
    dvc_hybrid_cert_struct *c = d->hyb;
    mpfr_prec_t tp;
    /* the cache serves a command that uses the stated tube; one that uses
     * the recomputed one recomputes (and records) */
    dvc_cli_hybrid_load l = {d->hyb, d->rec, d->path, 0, 0};
    dvc_status st = verify ? dvc_cli_cache_read(d->path, !d->no_cache, stated, &d->cached, dvc_cli_hybrid_read, &l)
                           : dvc_cli_hybrid_read(&l, 0);
    d->have_rec = l.have_rec;
    if (st != DVC_OK && l.unread) return dvc_cli_cert_refused(cmd, rep, d->path, DVC_ERR_INPUT, NULL);
    if (st != DVC_OK) return dvc_cli_cert_refused(cmd, rep, d->path, st, nothing);
    if (!verify) fprintf(rep, "certificate: %s NOT re-verified (--no-verify)\n", d->path);
    else fprintf(rep, "certificate: %s %s\n", d->path, d->cached ? DVC_CLI_CACHED : "verified");
    st = d->have_rec && !stated ? dvc_dlvi_events_tube(d->htube, c->model, d->rec, &d->flow)
                     : dvc_dlvi_events_tube(d->htube, c->model, c->res, NULL);
    /* a DAE's algebraic variables are part of its solution: always there */
    if (st == DVC_OK && (d->contact_y || c->model->nz > 0)) st = dvc_hybrid_cert_tube_y(d->htube, c);
    if (st != DVC_OK) return dvc_cli_fail(cmd, st);
    d->n = c->model->n;
    d->m = d->htube->m;
    d->N = c->res->nsteps;
    d->prec = c->prec;
    /* samples enclosed at the certificate's precision + DVC_TRAJ_EXTRA_BITS */
    tp = mpfr_get_prec(c->model->T);
    mpfi_set_prec(d->T, tp > c->prec ? tp : c->prec);
    mpfi_set_fr(d->T, c->model->T);
    d->t0 = c->model->t0;
    d->xnames = (const char *const *)c->model->names;
    if (events_labels(d) != DVC_OK) return dvc_cli_fail(cmd, DVC_ERR_NOMEM);
    d->tube = d->htube;
    d->whole = 1;
    free(d->name);
    d->name = dvc_cli_hybrid_name(c);
    d->edge_prec = d->htube->prec;
    d->tube_note = d->have_rec && !stated ? "recomputed (flow of the step's set at each time)"
                               : "as stated (hull of the step boxes)";
    return -1;
}

int dvc_cli_cert_open(dvc_cli_cert *d, const char *cmd, const char *path, int verify, FILE *rep,
                      const char *nothing, int stated)
{
    d->path = path;
    d->kind = dvc_cert_file_kind(path);
    return d->kind == DVC_CERT_KIND_HYBRID ? open_whole(d, cmd, verify, rep, nothing, stated)
                                           : open_streamed(d, cmd, rep);
}

typedef struct {
    dvc_cli_cert *d;
    dvc_cli_cert_fn fn;
    void *ctx;
} pass_t;

static dvc_status at_point(const dvc_cert_t c, long i, void *ctx)
{
    pass_t *p = ctx;
    (void)c;
    return p->fn(p->d, i, p->ctx);
}

static dvc_status pass_read(void *ctx, int verify)
{
    pass_t *p = ctx;
    return dvc_cert_stream(p->d->dlvi, p->d->path, verify, p->fn ? at_point : NULL, p);
}

dvc_status dvc_cli_cert_pass(dvc_cli_cert *d, int verify, dvc_cli_cert_fn fn, void *ctx)
{
    pass_t p = {d, fn, ctx};
    dvc_status st = DVC_OK;
    if (!d->whole && verify) return dvc_cli_cache_read(d->path, !d->no_cache, 1, &d->cached, pass_read, &p);
    if (!d->whole) return pass_read(&p, 0);
    for (long i = 0; st == DVC_OK && fn && i <= d->N; i++) st = fn(d, i, ctx);
    return st;
}

/* What a read certificate states, for the description. */
static void describe(dvc_cli_cert *d)
{
    if (d->kind != DVC_CERT_KIND_HYBRID) {
        const dvc_cert_struct *c = d->dlvi;
        d->n = c->n;
        d->m = c->m;
        d->N = c->N;
        d->prec = c->prec;
        d->what = "problem";
        d->name = dvc_io_problem_string(c->problem_json, "name");
        snprintf(d->claim, sizeof d->claim,
                 "%ld steps, every stored bound >= its recomputed rigorous bound", d->N);
        return;
    }
    {
        const dvc_hybrid_cert_struct *c = d->hyb;
        d->n = c->model->n;
        d->m = hybrid_m(c->model);
        d->N = c->res->nsteps;
        d->prec = c->prec;
        int events = 0;
        d->what = "model";
        free(dvc_events_cert_problem_string(c->model_json, "name", &events));
        if (events || dvc_lcs_cert_is_lcs(d->hyb)) d->what = "problem";
        d->name = dvc_cli_hybrid_name(c);
        if (events)
            snprintf(d->claim, sizeof d->claim,
                     "the exact DLVI solution (route events), %ld steps, %ld events, the switched "
                     "model rebuilt from the embedded problem, every stated enclosure contains its "
                     "recomputed one", d->N, c->res->nevents);
        else if (dvc_lcs_cert_is_lcs(d->hyb))
            snprintf(d->claim, sizeof d->claim,
                     "ideal contact (M = 0) as a sliding motion, %ld steps, %ld events, the model "
                     "re-derived from the problem, Q B re-proven a P-matrix, every stated enclosure "
                     "contains its recomputed one", d->N, c->res->nevents);
        else
            snprintf(d->claim, sizeof d->claim,
                     "hybrid, %ld steps, %ld crossings, every stated enclosure contains its "
                     "recomputed one", d->N, c->res->nevents);
    }
}

/* The reading of dvc_cli_cert_read; verify 0 (the cache's) is a read. */
typedef struct {
    dvc_cli_cert *d;
    int verify;
} read_t;

static dvc_status read_any(void *ctx, int verify)
{
    read_t *r = ctx;
    dvc_cli_cert *d = r->d;
    dvc_status st;
    verify = verify ? r->verify : 0;
    if (d->kind != DVC_CERT_KIND_HYBRID) {
        /* read (and verified) step by step: memory independent of N */
        st = dvc_cert_stream(d->dlvi, d->path, verify, NULL, NULL);
    } else {
        /* verify 2, a verdict only: streamed, the stated grid is not kept */
        st = verify == 2 ? dvc_hybrid_cert_read_verify(d->hyb, d->path) : dvc_hybrid_cert_read(d->hyb, d->path);
        if (st == DVC_OK && verify == 1) {
            st = dvc_cert_verify_hybrid(d->hyb, d->rec);
            d->have_rec = st == DVC_OK;
        }
    }
    return st;
}

dvc_status dvc_cli_cert_read(dvc_cli_cert *d, const char *path, int verify)
{
    read_t r = {d, verify};
    dvc_status st;
    d->path = path;
    d->kind = dvc_cert_file_kind(path);
    /* verify 2 (the verify command) always recomputes; it records */
    st = verify ? dvc_cli_cache_read(path, !d->no_cache, verify == 1, &d->cached, read_any, &r)
                : read_any(&r, 0);
    if (st == DVC_OK) describe(d);
    if (st == DVC_OK && d->kind == DVC_CERT_KIND_HYBRID) st = events_labels(d);
    return st;
}

void dvc_cli_csv_put(const char *s, char sep)
{
    if (strpbrk(s, ",\"\r\n")) {
        putchar('"');
        for (; *s; s++) {
            if (*s == '"') putchar('"');
            putchar(*s);
        }
        putchar('"');
    } else {
        fputs(s, stdout);
    }
    putchar(sep);
}
