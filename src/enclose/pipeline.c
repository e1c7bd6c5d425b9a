/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The enclose pipeline behind dvc_enclose (include/dvicert/enclose.h; the
 * public function is src/io/enclose_io.c, which hands it the file ports of
 * port.h): one attempt loads the problem, applies the grid and the scaling
 * of the options, reads a trajectory, runs the route of the table and hands
 * its points to the certificate writer (or keeps them in memory); around
 * it the precision retry and the auto policy's fallback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/certio.h"
#include "dvicert/events.h"
#include "dvicert/files.h"
#include "dvicert/width.h"
#include "dvicert_version.h"
#include "enclose/internal.h"
#include "cert_internal.h"

void dvc_enclose_opts_init(dvc_enclose_opts *o)
{
    memset(o, 0, sizeof *o);
    o->route = DVC_ENCLOSE_AUTO;
    o->progress = 1;
    o->keep_steps = 1;
}

/* What every attempt of one route shares. */
typedef struct {
    const dvc_enclose_ports *io;
    const char *path;
    const dvc_enclose_opts *o;
    const dvc_enclose_route_def *route;
    int local_beta;
    dvc_enclose_sink *w; /* NULL: in memory */
} plan_t;

/* The state of one attempt, released by attempt_clear. */
typedef struct {
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_enclose_doc *doc; /* the problem as the certificate embeds it */
    char *text;         /* its text */
    long *e;            /* scale exponents, NULL: none */
    dvc_enclose_traj tf;
    const dvc_enclose_ports *io; /* its traj_next */
    dvc_enclose_run x;
} attempt_t;

/* The problem at precision prec on the options' grid: p, doc (*used: the
 * precision it was read at). */
static dvc_status load(attempt_t *a, const plan_t *pl, mpfr_prec_t prec, mpfr_prec_t *used)
{
    dvc_tgrid g;
    dvc_status st = pl->io->load(a->p, &a->doc, pl->path, prec, &pl->o->tables);
    if (st != DVC_OK) return st;
    *used = a->p->prec;
    if (a->p->prec > DVC_CERT_PREC_MAX)
        return dvc_error(DVC_ERR_INPUT, "%s: precision %ld bits: a certificate may state at most %d "
                         "bits (verify recomputes at that precision)", pl->path, (long)*used,
                         DVC_CERT_PREC_MAX);
    if (pl->o->N <= 0) return DVC_OK;
    if (a->p->grid)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'grid': refused by --radius, which chooses N", pl->path);
    /* another grid than the file's: the copy states it (and no h), so that
     * verify rebuilds the same grid */
    a->p->N = pl->o->N;
    a->p->h = 0;
    dvc_tgrid_set(&g, a->p->N, 0, NULL);
    return pl->io->set_grid(a->doc, &g, NULL);
}

/* Certify in the scaled states z = S^-1 x (docs/bounds.md, "Scaling of the
 * state"); the certificate states x = S z. */
static dvc_status scale(attempt_t *a)
{
    dvc_dlvi_problem_struct *p = a->p;
    dvc_status st;
    a->e = calloc((size_t)(p->n > 0 ? p->n : 1), sizeof *a->e);
    st = a->e ? dvc_dlvi_scale_auto(a->e, p) : dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK && dvc_dlvi_scale_is_identity(a->e, p->n)) {
        free(a->e);
        a->e = NULL;
    }
    if (st == DVC_OK) st = dvc_dlvi_problem_scale(p, a->e);
    return st;
}

/* Grid point i of the trajectory, scaled: the route's predictor source
 * (ctx: the attempt), read from the file as the run goes. */
static dvc_status traj_point(long i, double *x, double *y, void *ctx)
{
    attempt_t *a = ctx;
    dvc_status st = a->io->traj_next(&a->tf, i, x);
    (void)y;
    return st == DVC_OK && a->e ? dvc_dlvi_scale_point(x, x, a->e, a->p->n, 0) : st;
}

/* The trajectory's grid becomes the problem's: N in the embedded copy when
 * it is uniform, else its times ('grid', and T its last one), so that
 * verify rebuilds the same grid; its samples (scaled) the predictor, read
 * point by point as the run goes (memory independent of the length). */
static dvc_status from(attempt_t *a, dvc_cert_struct *c, const plan_t *pl)
{
    dvc_dlvi_problem_struct *p = a->p;
    dvc_enclose_traj *tf = &a->tf;
    double T = mpfr_get_d(&p->T->left, MPFR_RNDN);
    const double *T_end = NULL;
    double *x1 = NULL;
    dvc_status st = pl->io->traj_read(tf, pl->o->from, a->doc, p->n, T, DVC_TRAJ_GRID);
    if (st == DVC_OK && a->e) {
        /* every sample must stay exact when scaled: refused before the run */
        if (!(x1 = malloc((size_t)p->n * sizeof *x1))) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        for (long i = 0; st == DVC_OK && i <= tf->grid->N; i++) st = traj_point(i, x1, NULL, a);
        free(x1);
    }
    if (st != DVC_OK) return st;
    if (pl->w && tf->grid->src) {
        /* streamed: the reader's times on demand, never held (8 bytes a
         * sample); the reader lives as long as p (attempt_clear) */
        free(p->grid);
        p->grid = NULL;
        p->N = tf->grid->N;
        p->h = 0;
        p->grid_src = tf->grid->src;
    } else if ((st = dvc_dlvi_problem_set_grid(p, tf->grid)) != DVC_OK) {
        /* in memory (the whole tube is held): the times copied */
        return st;
    }
    if (tf->grid->kind == DVC_TGRID_EXPLICIT &&
        (!mpfr_equal_p(&p->T->left, &p->T->right) || mpfr_cmp_d(&p->T->left, tf->end) != 0)) {
        /* the trajectory ends a little before or after T (or T is a
         * decimal, only an interval): the certificate covers [0, its last
         * time] and says so */
        mpfr_prec_t pr = mpfi_get_prec(p->T);
        mpfi_set_prec(p->T, pr < 53 ? 53 : pr);
        mpfi_set_d(p->T, tf->end);
        T_end = &tf->end;
    }
    if (pl->w && tf->grid->kind == DVC_TGRID_EXPLICIT) {
        /* streamed: the copy holds a placeholder for the times, which the
         * writer states from the run's grid (memory: no tree, no text) */
        dvc_tgrid mark;
        dvc_tgrid_set_src(&mark, tf->grid->N, NULL);
        st = pl->io->set_grid(a->doc, &mark, T_end);
    } else {
        dvc_tgrid g;
        dvc_dlvi_problem_grid(&g, p); /* the times held by p */
        st = pl->io->set_grid(a->doc, &g, T_end);
    }
    if (st != DVC_OK) return st;
    c->from_uniform = tf->grid->kind == DVC_TGRID_UNIFORM;
    c->from_samples = tf->ns;
    c->from_end = tf->end;
    c->from_past = tf->past;
    if (tf->grid->kind == DVC_TGRID_EXPLICIT &&
        (st = dvc_tgrid_step_range_d(&c->from_hmin, &c->from_hmax, tf->grid, p->T)) != DVC_OK)
        return st;
    a->x.xsrc = traj_point;
    a->x.xsrc_ctx = a;
    return DVC_OK;
}

static void attempt_clear(attempt_t *a, const plan_t *pl)
{
    if (pl->w) pl->io->sink_detach(pl->w);
    if (pl->route->done) pl->route->done(&a->x);
    free(a->e);
    free(a->text);
    a->p->grid_src = NULL; /* the reader's, cleared with it */
    pl->io->traj_clear(&a->tf);
    dvc_dlvi_result_clear(a->r);
    dvc_dlvi_problem_clear(a->p);
    pl->io->doc_free(a->doc);
}

/* One attempt at precision prec (0: the file's). The steps go to the sink
 * (a file, or nowhere on a dry run) or, without one, stay in memory and
 * become the certificate through dvc_cert_from_result. */
static dvc_status attempt(dvc_cert_t c, const plan_t *pl, mpfr_prec_t prec, mpfr_prec_t *used)
{
    attempt_t a;
    dvc_status st;
    mpfr_prec_t saved = dvc_prec_get();
    memset(&a, 0, sizeof a);
    a.io = pl->io;
    dvc_cert_clear(c);
    dvc_cert_init(c);
    dvc_dlvi_problem_init(a.p, 0, 0, 0);
    dvc_dlvi_result_init(a.r);
    if ((st = load(&a, pl, prec, used)) != DVC_OK) {
        attempt_clear(&a, pl);
        return st;
    }
    dvc_dlvi_opts_default(&a.x.dlvi);
    a.x.dlvi.sharpen = pl->local_beta;
    a.x.dlvi.prec = a.p->prec;
    a.x.dlvi.progress = pl->o->progress;
    a.x.p = a.p;
    a.x.r = a.r;
    a.x.o = pl->o;
    if (pl->w) {
        a.x.dlvi.sink = pl->io->sink_point;
        a.x.dlvi.sink_ctx = pl->w;
        c->generator = strdup("dvicert " DVC_VERSION);
        if (!c->generator) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    dvc_prec_set(a.p->prec);
    if (st == DVC_OK && !pl->o->no_scale) st = scale(&a);
    if (st == DVC_OK && pl->o->from) st = from(&a, c, pl);
    if (st == DVC_OK && !(a.text = pl->io->text(a.doc)))
        st = dvc_error(DVC_ERR_NOMEM, "cannot build the certificate");
    if (st == DVC_OK && pl->w) {
        c->problem_json = a.text;
        a.text = NULL;
        st = pl->io->sink_begin(pl->w, c, a.p, a.r, a.doc, a.e, &a.x.fields);
    }
    if (st == DVC_OK) st = pl->route->run(&a.x);
    if (pl->w) {
        if (st == DVC_OK && a.r->steps_done != a.p->N)
            st = dvc_error(DVC_ERR_INTERNAL, "certificate: the run stopped early");
        if (st == DVC_OK) st = pl->io->sink_end(pl->w);
    } else if (st == DVC_OK) {
        st = dvc_cert_from_result_scaled_(c, a.p, a.text, a.r, a.e);
    }
    attempt_clear(&a, pl);
    dvc_prec_set(saved);
    return st;
}

/* attempt keeping c->retry_reason, which the attempt clears with c */
static dvc_status attempt_again(dvc_cert_t c, const plan_t *pl, mpfr_prec_t prec, mpfr_prec_t *used)
{
    char keep[sizeof c->retry_reason];
    dvc_status st;
    memcpy(keep, c->retry_reason, sizeof keep);
    st = attempt(c, pl, prec, used);
    memcpy(c->retry_reason, keep, sizeof keep);
    return st;
}

/* The precision retry. With a deferred sink, the attempts are dry runs
 * that only find the precision, and the certificate is then written once.
 *
 * The retry is done here rather than with the engine's opts.prec_max: the
 * engine would keep the problem's data (decimal enclosures, tables) at the
 * start precision while verify rebuilds them at the certificate's, so the
 * two runs would not see the same numbers. */
static dvc_status retry(dvc_cert_t c, const plan_t *pl)
{
    mpfr_prec_t used = 0, start, prec_max = pl->o->prec_max;
    char tried[256] = "";
    dvc_status st = attempt(c, pl, pl->o->prec, &used);
    start = used;
    c->retry_reason[0] = '\0';
    while (st == DVC_NOT_CERTIFIED && used > 0 && 2 * used <= prec_max && 2 * used <= DVC_CERT_PREC_MAX) {
        size_t len = strlen(tried);
        snprintf(tried + len, sizeof tried - len, "%s%ld", len ? ", " : "", (long)used);
        snprintf(c->retry_reason, sizeof c->retry_reason, "%s", dvc_error_message());
        st = attempt_again(c, pl, 2 * used, &used);
    }
    if (st == DVC_OK && pl->w && pl->io->sink_deferred(pl->w)) {
        pl->io->sink_arm(pl->w);
        st = attempt_again(c, pl, used, &used);
    }
    c->prec_start = start;
    if (st == DVC_NOT_CERTIFIED && tried[0])
        return dvc_error_context(st, "precision raised from %s to %ld bits (--prec-max) without "
                                 "success; at %ld bits: ", tried, (long)used, (long)used);
    if (st != DVC_OK) c->retry_reason[0] = '\0';
    return st;
}

/* The options a route writing a hybrid certificate does not take
 * (DVC_ROUTE_HYBRID: it certifies the exact solution on its own steps). */
static dvc_status hybrid_check(const dvc_enclose_route_def *d, const dvc_enclose_opts *o, int local_beta,
                               int in_memory)
{
    if (o->from && !(d->flags & DVC_ROUTE_FROM))
        return dvc_error(DVC_ERR_INPUT, "--from: the %s route certifies the exact solution, not a "
                         "trajectory (a trajectory of another tool is certified by the lognorm route)",
                         d->name);
    if (o->predictor)
        return dvc_error(DVC_ERR_INPUT, "--predictor: the %s route has no predictor (it certifies the "
                         "exact solution)", d->name);
    if (local_beta) return dvc_error(DVC_ERR_INPUT, "--local-beta belongs to the chen-wang route");
    if (o->prec_max > 0) return dvc_error(DVC_ERR_INPUT, "--prec-max: precision retries belong to the "
                                          "chen-wang route");
    if (o->N > 0)
        return dvc_error(DVC_ERR_INPUT, "--radius (a number of steps N): the %s route chooses its own "
                         "steps", d->name);
    if (in_memory)
        return dvc_error(DVC_ERR_INPUT, "the %s route writes its certificate to a file or runs dry "
                         "(no tube in memory)", d->name);
    return DVC_OK;
}

/* What the command reports of a hybrid run, as summary claims of c. */
static dvc_status hybrid_claims(dvc_cert_t c, const dvc_enclose_route_def *d, const dvc_hybrid_cert_struct *h)
{
    dvc_cert_claims *s = &c->summary;
    mpfr_t wT, wev;
    long patterns = 0, events = 0, windows = 0;
    dvc_status st;
    mpfr_inits2(64, wT, wev, (mpfr_ptr)0);
    dvc_hybrid_cert_widths_(wT, wev, h->res);
    dvc_dlvi_events_stats(h->model, &patterns, &events, &windows);
    st = dvc_cert_claims_add_(s, "route", DVC_CLAIM_TEXT, d->name, 0);
    if (st == DVC_OK) st = dvc_cert_claims_add_(s, "steps", DVC_CLAIM_INT, NULL, h->res->nsteps);
    if (st == DVC_OK) st = dvc_cert_claims_add_(s, "events", DVC_CLAIM_INT, NULL, h->res->nevents);
    if (st == DVC_OK) st = dvc_cert_claims_add_(s, "patterns", DVC_CLAIM_INT, NULL, patterns);
    if (st == DVC_OK) st = dvc_cert_claims_add_(s, "windows", DVC_CLAIM_INT, NULL, windows);
    if (st == DVC_OK) st = dvc_cert_claim_bound_(s, "max_width_at_T_upper", wT, 1);
    if (st == DVC_OK) st = dvc_cert_claim_bound_(s, "max_event_width_upper", wev, 1);
    if (st == DVC_OK) {
        long worst;
        double rel = dvc_hybrid_cert_rel_radius_(h->res, h->model->n, &worst);
        char buf[64];
        snprintf(buf, sizeof buf, "%.3g", rel);
        st = dvc_cert_claims_add_(s, "radius_rel_max", DVC_CLAIM_TEXT, buf, 0);
        if (st == DVC_OK)
            st = dvc_cert_claims_add_(s, "radius_verdict", DVC_CLAIM_TEXT,
                                      rel > DVC_WIDTH_UNINFORMATIVE_AT ? "uninformative"
                                      : rel > DVC_WIDTH_WIDE_AT        ? "wide"
                                                                       : "informative", 0);
        if (st == DVC_OK) st = dvc_cert_claims_add_(s, "radius_worst", DVC_CLAIM_TEXT, h->model->names[worst], 0);
    }
    mpfr_clears(wT, wev, (mpfr_ptr)0);
    return st;
}

/* The error of the trajectory f, per state, as the summary claim
 * "trajectory_error" (lines for the report: over [0, T] and at its last
 * sample) and "trajectory_samples". */
static dvc_status from_claims(dvc_cert_t c, const dvc_efrom_spool *f)
{
    long n = f->n, ns = f->ns, L = 1 + 3 * n;
    size_t cap = (size_t)n * 240 + 1, len = 0;
    char *txt = malloc(cap);
    /* per state: the largest step bound (step ks, its times) and the
     * largest lower bound at a sample (kl); the first of equal ones */
    long *ks = calloc((size_t)(n > 0 ? n : 1), sizeof *ks);
    double *row = malloc((size_t)(1 + 4 * n) * sizeof *row), *last = malloc((size_t)(1 + 4 * n) * sizeof *last),
           *bu = calloc((size_t)(5 * (n > 0 ? n : 1)), sizeof *bu), t0 = 0;
    double *up = bu, *lo = bu + n, *ta = bu + 2 * n, *tb = bu + 3 * n;
    dvc_status st = txt && ks && row && last && bu ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long k = 0; st == DVC_OK && k < ns; k++) {
        if ((st = dvc_efrom_spool_read_(f, k, row)) != DVC_OK) break;
        if (k == 0) t0 = row[0];
        for (long j = 0; j < n; j++) {
            if (k > 0 && ks[j] == k - 1) tb[j] = row[0];
            if (k + 1 < ns && (k == 0 || row[L + j] > up[j])) ks[j] = k, up[j] = row[L + j], ta[j] = row[0];
            if (k == 0 || row[1 + n + j] > lo[j]) lo[j] = row[1 + n + j];
        }
        memcpy(last, row, (size_t)(1 + 4 * n) * sizeof *row);
    }
    if (st == DVC_OK) {
        txt[0] = '\0';
        for (long j = 0; j < n; j++) {
            len += (size_t)snprintf(txt + len, cap - len, "%strajectory error x%ld: over [%.17g, %.17g] in [%.6e, "
                                    "%.6e] (largest bound on [%.9g, %.9g]); at t = %.17g in [%.6e, %.6e]",
                                    j ? "\n" : "", j + 1, t0, last[0], lo[j], up[j], ta[j], tb[j], last[0],
                                    last[1 + n + j], last[1 + 2 * n + j]);
            if (len >= cap) len = cap - 1;
        }
        st = dvc_cert_claims_add_(&c->summary, "trajectory_samples", DVC_CLAIM_INT, NULL, ns);
    }
    if (st == DVC_OK) st = dvc_cert_claims_add_(&c->summary, "trajectory_error", DVC_CLAIM_TEXT, txt, 0);
    free(txt);
    free(ks);
    free(row);
    free(last);
    free(bu);
    return st;
}

/* The samples of the trajectory in turn (a pass over the file); bad: the
 * reader's error (a changed file), not the route's. */
typedef struct {
    const plan_t *pl;
    dvc_enclose_traj *tf;
    int bad;
} from_src;

static dvc_status from_sample(void *ctx, long k, double *t, double *x)
{
    from_src *s = ctx;
    dvc_status st = s->pl->io->traj_sample(s->tf, k, t, x);
    s->bad |= st != DVC_OK;
    return st;
}

/* --from on a hybrid route: the trajectory read and checked before the
 * run (its input errors come first), its samples checked against the run
 * and bounded after it, another pass each, the rows spooled to f. */
static dvc_status hybrid_from(attempt_t *a, const plan_t *pl, dvc_efrom_spool *f, const dvc_hybrid_cert_struct *h)
{
    from_src src = {pl, &a->tf, 0};
    long n = a->p->n;
    double *x;
    dvc_status st;
    if (!h)
        return pl->io->traj_read(&a->tf, pl->o->from, a->doc, n, mpfr_get_d(&a->p->T->left, MPFR_RNDN),
                                 DVC_TRAJ_SAMPLES);
    if (!(x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    st = dvc_efrom_samples_check_(n, a->tf.ns, from_sample, &src, x, h->res->t[0], h->res->t[h->res->nsteps]);
    free(x);
    if (st == DVC_ERR_INPUT && !src.bad) return dvc_error_context(st, "%s: ", pl->o->from);
    if (st == DVC_OK) st = dvc_efrom_spool_open_(f, n);
    if (st == DVC_OK)
        st = dvc_efrom_bound_stream_(n, a->tf.ns, from_sample, &src, dvc_efrom_spool_row_, f, h->model, h->res);
    /* where the route does not apply, auto falls back (dvc_enclose_core_) */
    if (st == DVC_ERR_INPUT && !src.bad && pl->o->route == DVC_ENCLOSE_AUTO) st = DVC_NOT_CERTIFIED;
    return st;
}

/* A route writing a hybrid certificate: one run on the problem as given
 * (no scaling: the exact solution does not need it, and the route reads f
 * and g as expressions; no retry, no grid), the certificate to the port
 * hybrid_write. c receives the precision and hybrid_claims. */
static dvc_status run_hybrid(const plan_t *pl, dvc_cert_t c, const char *out_path)
{
    attempt_t a;
    dvc_hybrid_cert_t h;
    dvc_efrom_spool fr;
    dvc_status st;
    mpfr_prec_t used = 0, saved = dvc_prec_get();
    memset(&a, 0, sizeof a);
    dvc_cert_clear(c);
    dvc_cert_init(c);
    dvc_dlvi_problem_init(a.p, 0, 0, 0);
    dvc_dlvi_result_init(a.r);
    dvc_hybrid_cert_init(h);
    memset(&fr, 0, sizeof fr);
    st = load(&a, pl, pl->o->prec, &used);
    if (st == DVC_OK && a.p->grid)
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'grid': the %s route chooses its own steps", pl->path,
                       pl->route->name);
    a.x.p = a.p;
    a.x.r = a.r;
    a.x.o = pl->o;
    a.x.hyb = h;
    if (st == DVC_OK && pl->o->from) st = hybrid_from(&a, pl, &fr, NULL);
    if (st == DVC_OK) {
        dvc_prec_set(a.p->prec);
        st = pl->route->run(&a.x);
        if (st == DVC_ERR_INPUT && pl->o->from && pl->o->route == DVC_ENCLOSE_AUTO) st = DVC_NOT_CERTIFIED;
    }
    if (st == DVC_OK && pl->o->from) st = hybrid_from(&a, pl, &fr, h);
    if (st == DVC_OK) st = pl->io->hybrid_write(h, a.doc, pl->o->from ? &fr : NULL, out_path);
    if (st == DVC_OK) st = hybrid_claims(c, pl->route, h);
    if (st == DVC_OK && pl->o->from) st = from_claims(c, &fr);
    c->prec = c->prec_start = used;
    dvc_efrom_spool_close_(&fr);
    dvc_hybrid_cert_clear(h);
    attempt_clear(&a, pl);
    dvc_prec_set(saved);
    return st;
}

/* One route, every attempt, the file committed. */
static dvc_status run_route(const dvc_enclose_ports *io, dvc_cert_t c, const char *path,
                            const dvc_enclose_opts *o, dvc_enclose_route route, int local_beta,
                            const char *out_path)
{
    plan_t pl = {io, path, o, dvc_enclose_route_def_(route), local_beta, NULL};
    int in_memory = !out_path && o->keep_steps;
    dvc_status st;
    if (!pl.route) return dvc_error(DVC_ERR_INPUT, "unknown certification route");
    if (pl.route->flags & DVC_ROUTE_HYBRID) {
        st = hybrid_check(pl.route, o, local_beta, in_memory);
        return st == DVC_OK ? run_hybrid(&pl, c, out_path) : st;
    }
    if ((st = dvc_enclose_check_(pl.route, o, local_beta, in_memory)) != DVC_OK) return st;
    if (!in_memory && (st = io->sink_new(&pl.w, out_path, o->prec_max > 0)) != DVC_OK)
        return io->sink_close(pl.w, st);
    st = retry(c, &pl);
    if (pl.w) st = io->sink_close(pl.w, st);
    if (st != DVC_OK) c->retry_reason[0] = '\0';
    return st;
}

/* The largest state radius a time-stepping certificate states (max_eps_x,
 * a decimal rounded up), exactly; 0 when it states none. */
static int max_radius(mpfr_t r, const dvc_cert_t c)
{
    const char *t = dvc_cert_claim_text(&c->summary, "max_eps_x");
    return t && *t && mpfr_set_str(r, t, 10, MPFR_RNDU) == 0 && mpfr_number_p(r);
}

/* auto's lognorm choice against the route it skipped: the lognorm bound
 * can be looser than chen-wang's (a stiff problem at the largest step, a
 * norm that fits the dynamics badly), so chen-wang runs dry and, where its
 * tube is tighter, becomes the result (with the local constant, which
 * only tightens it; plain where that does not certify). c and out_path
 * hold lognorm's certificate until then. */
static dvc_status compare_chen_wang(const dvc_enclose_ports *io, dvc_cert_t c, const char *problem_path,
                                    const dvc_enclose_opts *o, const char *out_path, dvc_enclose_info *info)
{
    dvc_enclose_opts dry = *o;
    dvc_cert_t cw;
    mpfr_t rl, rc;
    dvc_status st;
    int tighter;
    char note[400];
    if (!out_path && o->keep_steps) return DVC_OK; /* lognorm keeps no tube in memory: not reached */
    mpfr_inits2(128, rl, rc, (mpfr_ptr)0);
    dvc_cert_init(cw);
    dry.keep_steps = 0;
    dry.note = NULL;
    dry.progress = 0;
    st = run_route(io, cw, problem_path, &dry, DVC_ENCLOSE_CHEN_WANG, 0, NULL);
    tighter = st == DVC_OK && max_radius(rl, c) && max_radius(rc, cw) && mpfr_less_p(rc, rl);
    dvc_error_reset();
    st = DVC_OK;
    if (tighter) {
        mpfr_snprintf(note, sizeof note, "the chen-wang route certifies a tighter tube than lognorm (largest "
                      "radius %.3Re against %.3Re); taking it", rc, rl);
        if (o->note) o->note(note, o->note_ctx);
        info->runs += 2;
        info->route = DVC_ENCLOSE_CHEN_WANG;
        info->local_beta = 1;
        info->why = "its tube is tighter than the lognorm route's on this problem";
        dry = *o;
        dry.from = NULL;
        dry.predictor = NULL;
        st = run_route(io, cw, problem_path, &dry, DVC_ENCLOSE_CHEN_WANG, 1, out_path);
        if (st != DVC_OK) {
            dvc_error_reset();
            info->runs++;
            info->local_beta = 0;
            st = run_route(io, cw, problem_path, &dry, DVC_ENCLOSE_CHEN_WANG, 0, out_path);
        }
        if (st == DVC_OK) {
            /* the struct owns heap data only (no pointer into itself) */
            dvc_cert_struct t = *c;
            *c = *cw;
            *cw = t;
        }
    } else {
        info->runs++;
    }
    dvc_cert_clear(cw);
    mpfr_clears(rl, rc, (mpfr_ptr)0);
    return st;
}

dvc_status dvc_enclose_core_(const dvc_enclose_ports *io, dvc_cert_t c, const char *problem_path,
                             const dvc_enclose_opts *o, const char *out_path, dvc_enclose_info *info)
{
    dvc_enclose_opts def, fb;
    dvc_enclose_info ch;
    dvc_status st;
    long n, m;
    if (!o) {
        dvc_enclose_opts_init(&def);
        o = &def;
    }
    if (!info) info = &ch;
    memset(info, 0, sizeof *info);
    info->route = o->route;
    info->local_beta = o->local_beta;
    if (o->N < 0 || o->N > DVC_DLVI_N_MAX)
        return dvc_error(DVC_ERR_INPUT, "number of steps %ld outside [1, %ld]", o->N, DVC_DLVI_N_MAX);
    if (o->N > 0 && o->from)
        return dvc_error(DVC_ERR_INPUT, "a trajectory of another tool sets the grid (no number of steps with it)");
    /* every caller, not only the command: the certificate must not replace
     * the problem or the trajectory it is made from */
    if (out_path && strcmp(out_path, "-") != 0) {
        const char *inputs[2] = {problem_path, o->from};
        dvc_status sf = dvc_outfile_check(out_path, inputs, 2);
        if (sf != DVC_OK) return sf;
    }
    /* the sizes only matter to the auto policy */
    if (o->route == DVC_ENCLOSE_AUTO && !io->dims(problem_path, &n, &m)) n = -1;
    dvc_enclose_choose_n_(info, o->route == DVC_ENCLOSE_AUTO ? n : -1, o);
    if (info->route == DVC_ENCLOSE_EVENTS && o->route == DVC_ENCLOSE_AUTO && !out_path && o->keep_steps)
        dvc_enclose_choose_stepping_(info, n); /* a whole tube in memory: time stepping */
    info->runs = 1;
    st = run_route(io, c, problem_path, o, info->route, info->local_beta, out_path);
    /* the auto policy's fallbacks: events -> the time-stepping choice ->
     * chen-wang with the local constant (a trajectory: events -> lognorm).
     * The events route also hands on a problem it does not take
     * (DVC_ERR_INPUT: e.g. a table in g, a time grid); a fault of the file
     * itself is then reported by the next. */
    while (info->fallback &&
           (st == DVC_NOT_CERTIFIED || (st == DVC_ERR_INPUT && info->route == DVC_ENCLOSE_EVENTS))) {
        const char *from = dvc_enclose_route_name(info->route);
        const char *what = st == DVC_NOT_CERTIFIED ? "did not certify" : "does not take this problem";
        char note[1200];
        int handed_on = st == DVC_ERR_INPUT;
        fb = *o;
        if (info->route == DVC_ENCLOSE_EVENTS && o->from) {
            info->route = DVC_ENCLOSE_LOGNORM;
            info->local_beta = 0;
            info->fallback = 0;
            info->why = "the events route did not apply to the trajectory";
            what = "does not apply to the trajectory";
        } else if (info->route == DVC_ENCLOSE_EVENTS) {
            dvc_enclose_choose_stepping_(info, n);
            info->why = st == DVC_NOT_CERTIFIED ? "the events route did not certify"
                                                : "the events route does not take this problem";
        } else {
            fb.from = NULL;
            fb.predictor = NULL;
            info->route = DVC_ENCLOSE_CHEN_WANG;
            info->local_beta = 1;
            info->fallback = 0;
            info->why = "the lognorm route did not certify";
        }
        snprintf(note, sizeof note, "the %s route %s (%.1000s); trying %s%s", from, what, dvc_error_message(),
                 dvc_enclose_route_name(info->route), info->local_beta ? " with --local-beta" : "");
        if (o->note && !handed_on) o->note(note, o->note_ctx);
        info->runs++;
        st = run_route(io, c, problem_path, &fb, info->route, info->local_beta, out_path);
        /* a problem the events route did not take: told unless the next
         * route refuses the file too (its message then says what is wrong) */
        if (o->note && handed_on && st != DVC_ERR_INPUT) o->note(note, o->note_ctx);
    }
    if (st == DVC_OK && o->route == DVC_ENCLOSE_AUTO && info->route == DVC_ENCLOSE_LOGNORM && !o->from &&
        !o->predictor)
        st = compare_chen_wang(io, c, problem_path, o, out_path, info);
    return st;
}
