/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert check: an external trajectory against a certificate's tube. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "cache.h"
#include "certview.h"
#include "check_error.h"
#include "dvicert/certio.h"
#include "io/traj_csv.h"

static void help(void)
{
    printf(
        "usage: dvicert check CERT.json TRAJ.csv [--no-verify] [--digits D] [--max-report K]\n"
        "                     [--tol SPEC] [--columns LIST]\n\n"
        "Checks a trajectory computed by any tool against the certified tube.\n"
        "TRAJ.csv has a header row t,x1,...,xn[,y1,...,ym] (columns in any order; the y\n"
        "columns are optional, all or none; a problem that names its states and outputs\n"
        "(state_names, output_names) accepts those names too), times anywhere in [0, T]\n"
        "and in any order. Fields are separated by commas, or by blanks when the first\n"
        "line has no comma (whitespace-separated text as numpy.savetxt writes it); lines\n"
        "starting with '#' are comments. A file without a header (a Siconos-style matrix\n"
        "with time in column 0) is read with --columns naming its columns in order, '_'\n"
        "for a column to skip: --columns t,x1,x2,_,y1.\n"
        "Every decimal is enclosed exactly; a sample is inside only if its whole\n"
        "enclosure lies inside the tube for every time its t may denote:\n"
        "  x: x^h_j(t) +- s_j eps_x^i on [t_{i-1}, t_i] (x^h: linear interpolation of the\n"
        "     predictor; s_j the certificate's state scale, 1 when it states none)\n"
        "  y: (yhat^{i-1} +- ry^i) meet (yhat^i +- ry^i) meet [l, u] on [t_{i-1}, t_i]\n"
        "     (y solves the LVI, so a y below l or above u is outside)\n"
        "The certificate is first re-verified (as 'dvicert verify'); --no-verify skips it.\n"
        "Everything is computed at the certificate's precision (--prec is refused).\n"
        "For a hybrid certificate the header is t and the model's state names or x1..xn.\n\n"
        "Output, summary first: the number of samples and columns checked, the worst\n"
        "margin (smallest distance to a tube edge, negative = outside) of the x values\n"
        "and, separately, of the y values (a y on its bound l or u has margin 0 there),\n"
        "each with its line and column, the verdict with the number of values outside,\n"
        "then the first K violations (t, column, value, inner edges of the tube).\n"
        "A tube of the exact solution (events, hybrid) is often far narrower than a float\n"
        "run's error: when, at the largest error, the tube's radius is at most a tenth of\n"
        "|p - mid X| (X the tube's outer enclosure at the sample), the verdict reads\n"
        "\"outside: ...\" and is followed, per column, by the trajectory's certified error\n"
        "|p(t) - x(t)| in [|p - mid X| - rad X, |p - mid X| + rad X] (outward rounded)\n"
        "at its largest and at the last sample (exit status 1 all the same).\n\n"
        "Without --tol the test is exact. Simulator output is rounded (a contact force\n"
        "of -1e-17, a last time one ulp past T): --tol 1e-12 accepts values within 1e-12\n"
        "of the tube and reads times within 1e-12 past T as T; --tol x1=1e-9,y1=1e-12,t=0\n"
        "sets it per column (names as in the header; unnamed columns get 0). The verdict\n"
        "then says \"accepted with tolerance\" and counts the values that needed it.\n\n");
    dvc_cli_print_options(&dvc_cmd_check);
    printf(
        "\nexit status: 0 every sample inside, 1 a violation (or the certificate rejected),\n"
        "2 unusable input (missing columns, non-numeric values, t outside [0, T]).\n");
}

static const dvc_cli_cert *names_;

static void comp_name(char *buf, size_t n, const dvc_traj_struct *tr, long k)
{
    if (k < tr->n) snprintf(buf, n, "%s", names_->xnames[k]);
    else snprintf(buf, n, "%s", names_->ynames[k - tr->n]);
}

static const dvc_cli_opt opts[] = {
    {"no-verify", 0, NULL, NULL, "do not re-verify the certificate first"},
    {"digits", 0, "D", "a number of digits", "significant digits of the printed values and bounds (default 10)"},
    {"max-report", 0, "K", "a number of violations", "print the first K violations (default 20; 0: none, -1: all),\nthen the count of the others"},
    {"tol", 0, "SPEC", "a tolerance", "accept values within this distance of the tube and times\nthis far past T: a number for every column, or\nNAME=VALUE,... per column (t, x1.., y1.. or the names)"},
    {"columns", 0, "LIST", "a list of columns", "the file has no header: its columns in order (t, x1..,\ny1.. or the names; _ skips a column)"},
    {"no-cache", 0, NULL, NULL, "recompute even when this binary verified the same text before\n"
                                "(the verified-certificate cache, docs/formats.md)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_check = {
    "check", "check a trajectory (CSV) against a certificate's tube", opts, NULL, DVC_CLI_CERT_PREC,
    2, 2, "dvicert check CERT.json TRAJ.csv [--no-verify] [--digits D] [--max-report K] [--tol SPEC] [--columns LIST]", help, run};

/* A violation kept for the report, with the tube's edges at its sample
 * (computed while the tube held that time) and the sample's time and
 * value as printed (the sample may be gone by the report). */
typedef struct {
    long sample, comp, line;
    double margin;
    char *edges, *ts, *vs;
} kept_t;

/* One check: samples sorted by time are checked as the steps they need
 * are read, so memory does not grow with N. A regular file whose times
 * are in order is read in the same lockstep (rd), so memory does not grow
 * with its length either; any other is read whole first (tr, order). */
typedef struct {
    const dvc_traj_struct *tr; /* the columns (n, m); the samples when read whole */
    long *order, *need, next;
    dvc_traj_reader *rd;       /* streamed: the sample held, its index and need */
    long cur, cur_need;
    int have;
    long wline, wx_line, wy_line; /* the lines of the worst samples */
    dvc_traj_report rep;
    kept_t *kept;
    long nkept, max_report;
    int digits, failed, seen;
    const double *tol; /* n + m, or NULL */
    mpfr_t lo, hi;
    mpfi_t X;
    dvc_check_err err; /* the two-sided error of the trajectory */
    int inner; /* the tube's inner edges, rounded inward; else its outward interval */
} ck_t;

static const dvc_traj_struct *sort_tr;

static int by_time(const void *a, const void *b)
{
    long i = *(const long *)a, j = *(const long *)b;
    int c = mpfr_cmp(&sort_tr->t[i]->left, &sort_tr->t[j]->left);
    return c ? c : (i > j) - (i < j);
}

static int key_less(long s1, long c1, long s2, long c2) { return s1 < s2 || (s1 == s2 && c1 < c2); }

static int by_key(const void *a, const void *b)
{
    const kept_t *p = a, *q = b;
    return key_less(p->sample, p->comp, q->sample, q->comp) ? -1 : key_less(q->sample, q->comp, p->sample, p->comp);
}

static void merge_hit(double *worst, dvc_traj_hit *hit, double d, const dvc_traj_hit *h1, long s)
{
    /* ties go to the earlier sample, as when the samples were checked in file order */
    if (d < *worst || (d == *worst && s < hit->sample)) {
        *worst = d;
        *hit = *h1;
        hit->sample = s;
    }
}

/* The tube's edges at a violation (k->lo, k->hi): "[lo, hi]" rounded
 * inward when the tube has inner bounds, else the outward interval. */
static char *edges_text(ck_t *k)
{
    char *t, *lo, *hi;
    size_t len;
    if (!k->inner) {
        mpfi_interv_fr(k->X, k->lo, k->hi);
        return dvc_ival_str(k->X, k->digits);
    }
    lo = dvc_mpfr_str(k->lo, k->digits, MPFR_RNDU);
    hi = dvc_mpfr_str(k->hi, k->digits, MPFR_RNDD);
    len = strlen(lo ? lo : "?") + strlen(hi ? hi : "?") + 5;
    t = malloc(len);
    if (t) snprintf(t, len, "[%s, %s]", lo ? lo : "?", hi ? hi : "?");
    free(lo);
    free(hi);
    return t;
}

/* Keep the violation (s, comp) when it is among the first max_report ones
 * in file order (all of them for -1). */
static dvc_status keep(ck_t *k, const dvc_tube_struct *tb, const dvc_traj_struct *one, long s,
                       const dvc_traj_hit *h)
{
    long at = k->nkept;
    if (k->max_report == 0) return DVC_OK;
    if (k->max_report > 0 && k->nkept >= k->max_report) {
        at = 0;
        for (long q = 1; q < k->nkept; q++)
            if (key_less(k->kept[at].sample, k->kept[at].comp, k->kept[q].sample, k->kept[q].comp)) at = q;
        if (!key_less(s, h->comp, k->kept[at].sample, k->kept[at].comp)) return DVC_OK;
        free(k->kept[at].edges);
        free(k->kept[at].ts);
        free(k->kept[at].vs);
    } else {
        kept_t *nk = realloc(k->kept, (size_t)(k->nkept + 1) * sizeof *nk);
        if (!nk) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        k->kept = nk;
        k->nkept++;
    }
    dvc_traj_tube_at(k->lo, k->hi, one, 0, h->comp, tb);
    k->kept[at].sample = s;
    k->kept[at].comp = h->comp;
    k->kept[at].margin = h->margin;
    k->kept[at].line = one->line[0];
    k->kept[at].edges = edges_text(k);
    k->kept[at].ts = dvc_ival_str(one->t[0], k->digits);
    k->kept[at].vs = dvc_ival_str(one->v[h->comp], k->digits);
    return DVC_OK;
}

/* Sample s of the file, the one sample of one. */
static dvc_status check_one(ck_t *k, const dvc_tube_struct *tb, const dvc_traj_struct *one, long s)
{
    dvc_traj_report r1;
    dvc_status st;
    if ((st = dvc_traj_check_tol(&r1, one, tb, -1, k->tol)) != DVC_OK) return st;
    if ((st = dvc_check_err_add(&k->err, one, tb, s)) != DVC_OK) {
        dvc_traj_report_clear(&r1);
        return st;
    }
    k->rep.nsamples++;
    k->rep.ntol += r1.ntol;
    merge_hit(&k->rep.worst, &k->rep.worst_hit, r1.worst, &r1.worst_hit, s);
    merge_hit(&k->rep.worst_x, &k->rep.worst_x_hit, r1.worst_x, &r1.worst_x_hit, s);
    if (one->m) merge_hit(&k->rep.worst_y, &k->rep.worst_y_hit, r1.worst_y, &r1.worst_y_hit, s);
    /* merge_hit names s where the sample became the worst */
    if (k->rep.worst_hit.sample == s) k->wline = one->line[0];
    if (k->rep.worst_x_hit.sample == s) k->wx_line = one->line[0];
    if (one->m && k->rep.worst_y_hit.sample == s) k->wy_line = one->line[0];
    k->rep.nviol += r1.nviol;
    k->rep.nviol_samples += r1.nviol_samples;
    for (long q = 0; q < r1.nstored && st == DVC_OK; q++) st = keep(k, tb, one, s, &r1.viol[q]);
    dvc_traj_report_clear(&r1);
    return st;
}

/* The last grid point that must have been read before a sample at time t
 * is checked. */
static long need_of(const dvc_cli_cert *c, const mpfi_t t)
{
    double T = mpfr_get_d(&c->tube->T->left, MPFR_RNDD);
    /* the last grid point a step meeting the sample's time can end at
     * (one more for the rounding of q); the tube refuses, rather than
     * answers wrongly, a time outside the rows it holds */
    double q = mpfr_get_d(&t->right, MPFR_RNDU) / T * (double)c->N;
    long need = !(q < (double)c->N) ? c->N : (long)ceil(q) + 1;
    if (c->tube->t_window) return -1; /* the window's times: decided as they are read (ready) */
    if (c->tube->t) {
        /* given grid times: the first one past the sample's */
        long lo = 0, hi = c->N + 1;
        while (lo < hi) {
            long mid = (lo + hi) / 2;
            if (mpfr_cmp(c->tube->t[mid], &t->right) > 0) hi = mid;
            else lo = mid + 1;
        }
        need = lo < 1 ? 1 : lo;
    }
    return need > c->N ? c->N : need;
}

/* Is a sample at time t that needs grid point need (-1: the first time
 * past t.hi, as need_of finds it on held times) checkable at point i? */
static int ready(const dvc_cli_cert *c, long need, const mpfi_t t, long i)
{
    const dvc_tube_struct *tb = c->tube;
    if (need >= 0) return need <= i;
    return i >= 1 && (i >= c->N || mpfr_cmp(tb->t[i % tb->window], &t->right) > 0);
}

static dvc_status ck_point(dvc_cli_cert *d, long i, void *ctx)
{
    ck_t *k = ctx;
    const dvc_traj_struct *tr = k->tr;
    dvc_status st = DVC_OK;
    while (st == DVC_OK && k->next < tr->ns && ready(d, k->need[k->order[k->next]], tr->t[k->order[k->next]], i)) {
        long s = k->order[k->next++];
        /* a one-sample view of the trajectory */
        dvc_traj_struct one = *tr;
        one.ns = 1;
        one.line = tr->line + s;
        one.t = tr->t + s;
        one.v = tr->v + s * (tr->n + tr->m);
        st = check_one(k, d->tube, &one, s);
    }
    if (st != DVC_OK) k->failed = 1;
    return st;
}

/* Streamed: the next sample of the file into k->rd (k->have = 0 at its end). */
static dvc_status stream_next(ck_t *k, const dvc_cli_cert *c)
{
    int got = 0;
    dvc_status st = dvc_traj_reader_next(k->rd, &got);
    k->have = st == DVC_OK && got;
    if (k->have) {
        k->cur = k->rd->ns - 1;
        k->cur_need = need_of(c, k->rd->one->t[0]);
    }
    return st;
}

static dvc_status ck_point_stream(dvc_cli_cert *d, long i, void *ctx)
{
    ck_t *k = ctx;
    dvc_status st = DVC_OK;
    while (st == DVC_OK && k->have && ready(d, k->cur_need, k->rd->one->t[0], i)) {
        st = check_one(k, d->tube, k->rd->one, k->cur);
        if (st == DVC_OK) st = stream_next(k, d);
    }
    if (st != DVC_OK) k->failed = 1;
    return st;
}

/* For each sample, the last grid point that must have been read before it
 * is checked (k->need), in k->order. */
static void need_rows(ck_t *k, const dvc_cli_cert *c)
{
    for (long s = 0; s < k->tr->ns; s++) {
        k->order[s] = s;
        k->need[s] = need_of(c, k->tr->t[s]);
    }
}

/* A first pass over a regular file: every sample read (a bad file is
 * refused as when it is read whole) while the times are in order;
 * *inorder: they all are, and the reader is back at the start. */
static dvc_status first_pass(dvc_traj_reader *rd, int *inorder)
{
    int got = 0;
    mpfr_t prev;
    dvc_status st;
    *inorder = 1;
    mpfr_init2(prev, rd->prec);
    while ((st = dvc_traj_reader_next(rd, &got)) == DVC_OK && got) {
        if (rd->ns > 1 && mpfr_cmp(&rd->one->t[0]->left, prev) < 0) {
            *inorder = 0;
            break;
        }
        mpfr_set(prev, &rd->one->t[0]->left, MPFR_RNDN); /* exact: the same precision */
    }
    mpfr_clear(prev);
    if (st == DVC_OK && *inorder) st = dvc_traj_reader_rewind(rd);
    return st;
}

/* The summary, the verdict and the violations kept; the exit code. */
static int print_report(ck_t *k, const dvc_cli_args *a, const dvc_cli_cert *d,
                        const dvc_traj_read_opts *ro, double t_tol)
{
    const dvc_traj_struct *tr = k->tr;
    const double *tol = k->tol;
    int digits = k->digits;
    long max_report = k->max_report;
    dvc_traj_report *rep = &k->rep;
    char name[64];
    if (k->nkept > 1) qsort(k->kept, (size_t)k->nkept, sizeof *k->kept, by_key);
    if (d->tube_note)
        printf("samples: %ld (states %s..%s; tube %s)\n", rep->nsamples, d->xnames[0],
               d->xnames[d->n - 1], d->tube_note);
    else
        printf("samples: %ld (checked: %ld x column%s%s)\n", rep->nsamples, tr->n, tr->n > 1 ? "s" : "",
               tr->m ? " and the y columns" : "");
    if (ro->clipped)
        printf("note: %ld time%s past T by at most the tolerance %g read as T\n", ro->clipped,
               ro->clipped == 1 ? "" : "s", t_tol);
    comp_name(name, sizeof name, tr, rep->worst_x_hit.comp);
    printf("worst x margin: %.*g (line %ld, %s)\n", digits, rep->worst_x, k->wx_line, name);
    if (tr->m) {
        comp_name(name, sizeof name, tr, rep->worst_y_hit.comp);
        printf("worst y margin: %.*g (line %ld, %s)\n", digits, rep->worst_y, k->wy_line, name);
    }
    if (rep->nviol && dvc_check_err_narrow(&k->err)) {
        /* a float run outside a tube of the exact solution is the normal
         * case: its certified error, not an alarm (exit status 1 kept) */
        const char **names = malloc((size_t)(tr->n + tr->m) * sizeof *names);
        printf("outside: %ld of %ld samples outside the tube (%ld value%s); the tube is narrow "
               "(rad <= deviation / 10 at the largest error): the trajectory's certified error\n",
               rep->nviol_samples, rep->nsamples, rep->nviol, rep->nviol == 1 ? "" : "s");
        for (long c = 0; names && c < tr->n + tr->m; c++)
            names[c] = c < tr->n ? d->xnames[c] : d->ynames[c - tr->n];
        if (names) dvc_check_err_print(&k->err, names, digits, stdout);
        free(names);
    } else {
        printf("%s: %ld of %ld samples outside the tube (%ld value%s)\n",
               rep->nviol ? "VIOLATED" : "inside", rep->nviol_samples, rep->nsamples, rep->nviol,
               rep->nviol == 1 ? "" : "s");
    }
    if (tol && !rep->nviol)
        printf("accepted with tolerance %s: %ld value%s outside the tube by less than the tolerance\n",
               dvc_cli_value(a, "tol"), rep->ntol, rep->ntol == 1 ? "" : "s");
    else if (tol)
        printf("tolerance %s: %ld more value%s outside the tube by less than it\n",
               dvc_cli_value(a, "tol"), rep->ntol, rep->ntol == 1 ? "" : "s");
    for (long q = 0; q < k->nkept; q++) {
        const kept_t *h = &k->kept[q];
        comp_name(name, sizeof name, tr, h->comp);
        printf("violation: line %ld t = %s %s = %s outside %s (margin %.*g)\n", h->line, h->ts ? h->ts : "?",
               name, h->vs ? h->vs : "?", h->edges ? h->edges : "?", digits, h->margin);
    }
    if (rep->nviol > k->nkept)
        printf("... %ld more violation%s not listed (--max-report %ld)\n", rep->nviol - k->nkept,
               rep->nviol - k->nkept == 1 ? "" : "s", max_report);
    return rep->nviol ? DVC_EXIT_FAIL : DVC_EXIT_OK;
}

static int run(const dvc_cli_args *a)
{
    const char *cpath = a->pos[0], *tpath = a->pos[1];
    int digits = a->digits_given ? a->digits : 10, verify = !dvc_cli_flag(a, "no-verify"), rc;
    long max_report;
    dvc_cli_cert d;
    dvc_traj_t tr;
    dvc_status st;
    ck_t k;
    dvc_traj_reader rd;
    dvc_traj_read_opts ro;
    double *tol = NULL, t_tol = 0;
    mpfr_t ttol;
    if ((rc = dvc_cli_max_report(a, &max_report)) >= 0) return rc;
    memset(&k, 0, sizeof k);
    memset(&rd, 0, sizeof rd);
    dvc_cli_cert_init(&d);
    d.no_cache = dvc_cli_flag(a, "no-cache");
    dvc_traj_init(tr);
    mpfr_init2(ttol, 53);
    /* the description (n, m, T, names) first: the trajectory is read against it */
    if ((rc = dvc_cli_cert_open(&d, "check", cpath, verify, stdout, NULL, 0)) >= 0) goto out;
    names_ = &d;
    if (dvc_cli_value(a, "tol")) {
        tol = malloc((size_t)(d.n + d.m + 1) * sizeof *tol);
        if (!tol || dvc_cli_parse_tol(tol, &t_tol, dvc_cli_value(a, "tol"), d.xnames, d.n, d.ynames,
                                      d.m) >= 0) {
            rc = DVC_EXIT_INPUT;
            goto out;
        }
    }
    dvc_traj_read_opts_init(&ro);
    ro.t0 = d.t0;
    ro.names = d.xnames;
    ro.ynames = d.ynames;
    ro.columns = dvc_cli_value(a, "columns");
    mpfr_set_d(ttol, t_tol, MPFR_RNDD);
    if (tol) ro.t_tol = ttol;
    {
        /* a regular file with its times in order is streamed; any other is
         * read whole and sorted */
        struct stat sb;
        int inorder = 0;
        st = DVC_OK;
        if (stat(tpath, &sb) == 0 && S_ISREG(sb.st_mode)) {
            st = dvc_traj_reader_open(&rd, tpath, d.n, d.m, d.T, &ro);
            if (st == DVC_OK) st = first_pass(&rd, &inorder);
            if (st == DVC_OK && inorder) {
                k.rd = &rd;
                k.tr = rd.one;
            }
        }
        if (!k.rd) {
            dvc_traj_reader_close(&rd);
            if (st == DVC_OK) st = dvc_traj_read_ex(tr, tpath, d.n, d.m, d.T, &ro);
            k.tr = tr;
        }
    }
    if (st != DVC_OK) {
        k.tr = NULL;
        rc = dvc_cli_fail("check", st);
        goto out;
    }
    mpfr_inits2(d.edge_prec + DVC_TRAJ_EXTRA_BITS, k.lo, k.hi, (mpfr_ptr)0);
    mpfi_init2(k.X, d.edge_prec + DVC_TRAJ_EXTRA_BITS);
    st = dvc_check_err_init(&k.err, k.tr->n, k.tr->m, d.edge_prec + DVC_TRAJ_EXTRA_BITS);
    k.max_report = max_report;
    k.digits = digits;
    k.tol = tol;
    k.inner = d.inner_edges;
    k.rep.worst = k.rep.worst_x = k.rep.worst_y = INFINITY;
    if (k.rd) {
        /* the samples come in the order they are checked */
        if (st == DVC_OK) st = stream_next(&k, &d);
        if (st != DVC_OK) k.failed = 1;
        else st = dvc_cli_cert_pass(&d, verify, ck_point_stream, &k);
    } else if (st != DVC_OK || !(k.order = malloc((size_t)tr->ns * sizeof *k.order)) ||
               !(k.need = malloc((size_t)tr->ns * sizeof *k.need))) {
        k.failed = 1;
        if (st == DVC_OK) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    } else {
        need_rows(&k, &d);
        sort_tr = tr;
        qsort(k.order, (size_t)tr->ns, sizeof *k.order, by_time);
        /* one pass over the steps, verified in lockstep unless --no-verify
         * (or verified already, when read whole) */
        st = dvc_cli_cert_pass(&d, verify, ck_point, &k);
    }
    if (st != DVC_OK) {
        rc = k.failed ? dvc_cli_fail("check", st) : dvc_cli_cert_refused("check", stdout, cpath, st, NULL);
        goto out;
    }
    if (verify && !d.whole) printf("certificate: %s %s\n", cpath, d.cached ? DVC_CLI_CACHED : "verified");
    rc = print_report(&k, a, &d, &ro, t_tol);
out:
    for (long q = 0; q < k.nkept; q++) {
        free(k.kept[q].edges);
        free(k.kept[q].ts);
        free(k.kept[q].vs);
    }
    free(k.kept);
    free(k.order);
    free(k.need);
    if (k.tr) {
        mpfr_clears(k.lo, k.hi, (mpfr_ptr)0);
        mpfi_clear(k.X);
        dvc_check_err_clear(&k.err);
    }
    dvc_traj_reader_close(&rd);
    dvc_traj_clear(tr);
    mpfr_clear(ttol);
    free(tol);
    dvc_cli_cert_clear(&d);
    return rc;
}
