/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate files (JSON, docs/formats.md): writing from the in-memory
 * certificates of src/cert.c, and enclose from a problem file; reading is
 * in cert_read.c (shared pieces: cert_rw.h). With cert_read.c, the only
 * certificate code that knows JSON and files. */
#include "dvicert/certio.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dvicert_version.h"
#include "dvicert/files.h"
#include "io/json.h"
#include "io/problem_json.h"
#include "cert_json.h"
#include "cert_rw.h"
#include "io/traj_from.h"


/* The decimal a tube enclosure e stands for: the CERT_DIGITS-digit decimal
 * nearest to its midpoint when that decimal has exactly this enclosure (a
 * certificate built or read from such decimals, written back unchanged);
 * otherwise its outer end (upper: up) rounded outward to 40 digits, a
 * weaker claim that is still true. */
static json_t *dec(const mpfi_t e, int up)
{
    mpfr_t mid;
    mpfi_t back;
    char *s;
    json_t *j;
    mpfr_init2(mid, mpfi_get_prec(e) + 2);
    mpfi_init2(back, mpfi_get_prec(e));
    mpfi_mid(mid, e);
    s = dvc_mpfr_str(mid, CERT_DIGITS, MPFR_RNDN);
    if (!s || dvc_ival_set_str(back, s) != DVC_OK || !mpfr_equal_p(&back->left, &e->left) ||
        !mpfr_equal_p(&back->right, &e->right)) {
        free(s);
        s = up ? dvc_mpfr_str(&e->right, 40, MPFR_RNDU) : dvc_mpfr_str(&e->left, 40, MPFR_RNDD);
    }
    j = json_string(s ? s : "nan");
    free(s);
    mpfr_clear(mid);
    mpfi_clear(back);
    return j;
}

static json_t *claims_obj(const dvc_cert_claims *cl)
{
    json_t *o = json_object();
    for (long k = 0; k < cl->n; k++) {
        const dvc_cert_claim *e = &cl->e[k];
        json_object_set_new(o, e->key, e->type == DVC_CLAIM_TEXT ? json_string(e->text)
                                       : e->type == DVC_CLAIM_INT ? json_integer((json_int_t)e->ival)
                                                                  : json_boolean(e->ival));
    }
    return o;
}

/* Step object of grid point i held in row `row` of tb, with its label. */
static json_t *step_obj(const dvc_tube_struct *tb, long row, long i, const char *label)
{
    json_t *s = json_object(), *xs = json_array(), *ys = json_array(), *yh = json_array();
    long n = tb->n, m = tb->m;
    json_object_set_new(s, "t", json_string(label));
    for (long j = 0; j < n; j++) json_array_append_new(xs, dvc_json_hex(tb->x[row * n + j]));
    for (long k = 0; k < m; k++) {
        json_t *pair = json_array();
        json_array_append_new(ys, dvc_json_hex(tb->y[row * m + k]));
        json_array_append_new(pair, dec(tb->yhat_lo[row * m + k], 0));
        json_array_append_new(pair, dec(tb->yhat_hi[row * m + k], 1));
        json_array_append_new(yh, pair);
    }
    json_object_set_new(s, "x", xs);
    json_object_set_new(s, "y", ys);
    json_object_set_new(s, "eps_x", dec(tb->eps_x[row], 1));
    json_object_set_new(s, "eps_y", dec(tb->eps_y[row], 1));
    json_object_set_new(s, "yhat", yh);
    if (i >= 1) json_object_set_new(s, "ry", dec(tb->ry[row], 1));
    return s;
}

static json_t *steps_arr(const dvc_cert_t c)
{
    json_t *arr = json_array();
    for (long i = 0; i <= c->N; i++) {
        char buf[40];
        if (c->labels) snprintf(buf, sizeof buf, "%s", c->labels[i]);
        else dvc_cert_grid_label(buf, c->tube, i);
        json_array_append_new(arr, step_obj(c->tube, i, i, buf));
    }
    return arr;
}

/* The members before "steps", in file order, for the whole-file and the
 * streaming writers: *out is a new object holding a reference to problem. */
static dvc_status head_obj(json_t **out, const dvc_cert_t c, json_t *problem)
{
    json_t *hdr;
    char dg[17], tagged[32];
    dvc_status st;
    *out = NULL;
    if ((st = dvc_json_digest(dg, problem)) != DVC_OK) return st;
    snprintf(tagged, sizeof tagged, "fnv1a64:%s", dg);
    hdr = json_object();
    if (!hdr) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    json_object_set_new(hdr, "format", json_string(CERT_FORMAT));
    json_object_set_new(hdr, "version", json_integer(CERT_VERSION));
    json_object_set_new(hdr, "generator", json_string(c->generator ? c->generator : "dvicert"));
    json_object_set_new(hdr, "precision", json_integer((json_int_t)c->prec));
    json_object_set_new(hdr, "method", claims_obj(&c->method));
    json_object_set_new(hdr, "problem_digest", json_string(tagged));
    json_object_set(hdr, "problem", problem);
    *out = hdr;
    return DVC_OK;
}

static json_t *build_root(const dvc_cert_t c)
{
    json_t *root, *problem;
    json_error_t err;
    char dg[17], tagged[32];
    dvc_status st;
    problem = json_loads(c->problem_json ? c->problem_json : "", 0, &err);
    if (!problem) return NULL;
    st = head_obj(&root, c, problem);
    json_decref(problem);
    if (st != DVC_OK) return NULL;
    json_object_set_new(root, "steps", steps_arr(c));
    /* after the steps: a streaming writer knows it only at the end */
    json_object_set_new(root, "summary", claims_obj(&c->summary));
    if (dvc_json_digest_root(dg, root) != DVC_OK) {
        json_decref(root);
        return NULL;
    }
    snprintf(tagged, sizeof tagged, "fnv1a64:%s", dg);
    json_object_set_new(root, "digest", json_string(tagged));
    return root;
}

/* The writers reuse a dvc_sbuf from step to step: no allocation per step
 * once it has grown to the longest line. */
void dvc_sbuf_put_(dvc_sbuf *b, const char *t, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t nc = 2 * (b->len + n + 1) + 256;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->fail = 1;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->len, t, n);
    b->len += n;
    b->s[b->len] = '\0';
}


/* ---- enclose / write ---------------------------------------------------- */

dvc_status dvc_cert_enclose(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec, int sharpen)
{
    return dvc_cert_enclose_retry(c, problem_path, prec, 0, sharpen);
}

/* The retry loop is enclose_retry, further down. */
dvc_status dvc_cert_enclose_retry(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec,
                                  mpfr_prec_t prec_max, int sharpen)
{
    return dvc_cert_enclose_tables(c, problem_path, prec, prec_max, sharpen, NULL);
}

static int append(char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        size_t nc = (*cap + n + 1) * 2;
        char *nb = realloc(*buf, nc);
        if (!nb) return -1;
        *buf = nb;
        *cap = nc;
    }
    memcpy(*buf + *len, s, n + 1);
    *len += n;
    return 0;
}

/* One member of the layout, `"key": value` (malloc'd; NULL: out of memory). */
static char *member_text(const char *key, const json_t *val)
{
    json_t *k = json_string(key);
    char *ks = k ? json_dumps(k, JSON_ENCODE_ANY) : NULL;
    char *vs = json_dumps(val, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER | JSON_COMPACT);
    char *t = ks && vs ? malloc(strlen(ks) + strlen(vs) + 3) : NULL;
    if (t) sprintf(t, "%s: %s", ks, vs);
    json_decref(k);
    free(ks);
    free(vs);
    return t;
}

/* Readable layout: top-level keys one per line, one step per line. */
dvc_status dvc_cert_write(const dvc_cert_t c, const char *path)
{
    char *buf = NULL, *piece;
    size_t len = 0, cap = 0;
    const char *key;
    json_t *val;
    int first = 1, fail = 0;
    dvc_status st;
    json_t *root = build_root(c);
    if (!root) return dvc_error(DVC_ERR_INPUT, "%s: the certificate is incomplete (no problem)", path);
    fail |= append(&buf, &len, &cap, "{\n");
    json_object_foreach(root, key, val) {
        fail |= append(&buf, &len, &cap, first ? "  " : ",\n  ");
        first = 0;
        if (strcmp(key, "steps") == 0) {
            size_t i;
            json_t *s;
            fail |= append(&buf, &len, &cap, "\"steps\": [\n");
            json_array_foreach(val, i, s) {
                piece = json_dumps(s, JSON_COMPACT | JSON_PRESERVE_ORDER);
                fail |= piece == NULL || append(&buf, &len, &cap, "    ");
                fail |= piece == NULL || append(&buf, &len, &cap, piece);
                fail |= append(&buf, &len, &cap, i + 1 < json_array_size(val) ? ",\n" : "\n");
                free(piece);
            }
            fail |= append(&buf, &len, &cap, "  ]");
        } else {
            piece = member_text(key, val);
            fail |= piece == NULL || append(&buf, &len, &cap, piece);
            free(piece);
        }
    }
    fail |= append(&buf, &len, &cap, "\n}\n");
    json_decref(root);
    if (fail) {
        free(buf);
        return dvc_error(DVC_ERR_NOMEM, "out of memory while writing %s", path);
    }
    st = dvc_write_atomic(path, buf, len);
    free(buf);
    return st;
}


/* ---- streaming ------------------------------------------------------------
 * Certificates of any N in memory independent of N. The layout is the one
 * dvc_cert_write produces: "{", one top-level member per line, the steps one
 * per line between `"steps": [` and `]`, summary and digest after the steps,
 * "}". The digest is still FNV-1a 64 of the canonical text (sorted keys,
 * compact) of the whole object without `digest`: "steps" sorts after every
 * key that precedes it in the layout and before "summary" and "version",
 * so the canonical text is produced in file order, piece by piece. */

/* One member line of the layout: `  "key": value` (no separator). */
static int put_member(FILE *f, const char *key, const json_t *val)
{
    char *t = member_text(key, val);
    int rc = t && fprintf(f, "  %s", t) > 0 ? 0 : -1;
    free(t);
    return rc;
}

typedef struct {
    FILE *f;                          /* NULL: a dry run, nothing written */
    dvc_outfile *of;                  /* opened at the first point */
    const char *out_path;
    const dvc_dlvi_problem_struct *p;
    const dvc_dlvi_result_struct *r;
    dvc_cert_struct *c;
    json_t *resolved;                 /* the problem as embedded */
    uint64_t h;
    int fail;
    /* route: 0 Algorithm 4.2, 1 lognorm (its pieces, predictor, info) */
    int route, external;
    long pieces;
    const char *from;                 /* lognorm: trajectory of another tool, or NULL */
    const char *pred;                 /* lognorm: "theta", "heun" or "external" */
    const dvc_lognorm_info_struct *info;
    step_txt txt;                     /* the step's strings, reused */
    dvc_sbuf canon;                       /* a step's canonical text */
    dvc_sbuf out;                         /* step lines not yet handed to stdio */
    char *iobuf;                      /* the output's stdio buffer */
    long N;                           /* > 0: the number of steps instead of the file's */
    int no_scale;                     /* 1: the states as given (enclose --scale none) */
    long *e;                          /* the run's scale exponents (NULL: identity) */
    double *xbuf;                     /* n: a point's x = S z */
} wr_t;

/* The buffered step lines to the file. */
static void wr_flush(wr_t *w)
{
    if (w->f && w->out.len > 0) w->fail |= fwrite(w->out.s, 1, w->out.len, w->f) != w->out.len;
    w->out.len = 0;
}

static void wr_free(wr_t *w)
{
    free(w->txt.hx);
    free(w->txt.dec);
    free(w->canon.s);
    free(w->out.s);
    free(w->xbuf);
    free(w->iobuf); /* after the stream was closed */
}

static dvc_status wr_head(wr_t *w)
{
    dvc_cert_struct *c = w->c;
    json_t *hdr;
    dvc_status st;
    c->n = w->p->n;
    c->m = w->p->m;
    c->N = w->p->N;
    c->prec = w->r->prec;
    c->sharpen = w->r->sharpen;
    if ((st = dvc_tube_alloc_window(c->tube, c->n, c->m, c->N, w->p->T, c->prec, 2)) != DVC_OK) return st;
    c->tube->hgrid = w->p->h;
    if (w->p->grid && (st = dvc_tube_set_times_d(c->tube, w->p->grid)) != DVC_OK) return st;
    if ((st = dvc_cert_scale_tube_(c->tube, w->e)) != DVC_OK) return st;
    if (w->route == 1)
        st = dvc_cert_lognorm_method_claims_(&c->method, w->p, w->r, w->info, w->pieces, w->pred);
    else st = dvc_cert_method_claims_(&c->method, w->p, w->r);
    if (st == DVC_OK) st = dvc_cert_scale_claim_(&c->method, w->e, c->n);
    if (st != DVC_OK) return st;
    if ((st = head_obj(&hdr, c, w->resolved)) != DVC_OK) return st;
    if (w->of && !w->f) {
        if ((st = dvc_outfile_open(w->of, w->out_path)) != DVC_OK) {
            json_decref(hdr);
            return st;
        }
        w->f = w->of->f;
        /* one write call per MB instead of per 4 KB (the stream is fresh) */
        if (w->f != stdout && (w->iobuf = malloc(1 << 20)) != NULL) setvbuf(w->f, w->iobuf, _IOFBF, 1 << 20);
    }
    if (w->f) {
        const char *key;
        json_t *val;
        int first = 1;
        w->fail |= fputs("{\n", w->f) < 0;
        json_object_foreach(hdr, key, val) {
            w->fail |= !first && fputs(",\n", w->f) < 0;
            first = 0;
            w->fail |= put_member(w->f, key, val);
        }
        w->fail |= fputs(",\n  \"steps\": [\n", w->f) < 0;
    }
    /* canonical text: every member before "steps" in key order */
    json_object_del(hdr, "version");
    w->h = FNV_OFFSET;
    w->fail |= fnv_obj(&w->h, hdr, 1);
    fnv_add(&w->h, ",\"steps\":[");
    json_decref(hdr);
    return DVC_OK;
}

static dvc_status wr_sink(const dvc_dlvi_point *pt, void *ctx)
{
    wr_t *w = ctx;
    dvc_cert_struct *c = w->c;
    dvc_tube_struct *tb = c->tube;
    long row = pt->i % 2, n, m;
    step_txt *s = &w->txt;
    dvc_dlvi_point ps;
    dvc_status st;
    if (pt->i == 0 && (st = wr_head(w)) != DVC_OK) return st;
    n = tb->n;
    m = tb->m;
    if (w->e) {
        /* the engine ran in z = S^-1 x: the certificate states x = S z */
        if (!w->xbuf && !(w->xbuf = malloc((size_t)(n > 0 ? n : 1) * sizeof *w->xbuf)))
            return dvc_error(DVC_ERR_NOMEM, "out of memory");
        if ((st = dvc_dlvi_scale_point(w->xbuf, pt->x, w->e, n, 1)) != DVC_OK) return st;
        ps = *pt;
        ps.x = w->xbuf;
        pt = &ps;
    }
    if (!s->hx || s->n != n || s->m != m) {
        free(s->hx);
        free(s->dec);
        s->hx = malloc((size_t)(n + m) * sizeof *s->hx);
        s->dec = malloc((size_t)(3 + 2 * m) * sizeof *s->dec);
        s->n = n;
        s->m = m;
        if (!s->hx || !s->dec) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    if ((st = dvc_cert_state_point_txt_(tb, row, pt, s->dec)) != DVC_OK) return st;
    if ((st = dvc_cert_width_point_(c, pt->i, row)) != DVC_OK) return st;
    for (long k = 0; k < 3 + 2 * m; k++) {
        if (s->dec[k][0]) continue;
        /* a decimal longer than the buffer: the in-memory writer's text */
        {
            json_t *d = k == 0 ? dec(tb->eps_x[row], 1) : k == 1 ? dec(tb->eps_y[row], 1)
                      : k == 2 ? dec(tb->ry[row], 1)
                      : dec(k % 2 ? tb->yhat_lo[row * m + (k - 3) / 2] : tb->yhat_hi[row * m + (k - 3) / 2],
                            k % 2 == 0);
            const char *v = json_string_value(d);
            if (!v || strlen(v) >= DVC_CERT_DEC_LEN) w->fail = 1;
            else strcpy(s->dec[k], v);
            json_decref(d);
        }
    }
    for (long j = 0; j < n; j++) dvc_hex_write_(s->hx[j], tb->x[row * n + j]);
    for (long k = 0; k < m; k++) dvc_hex_write_(s->hx[n + k], tb->y[row * m + k]);
    dvc_cert_grid_label(s->label, tb, pt->i);
    /* the line goes straight into the output buffer (stdio per megabyte);
     * on a dry run it is dropped */
    if (!w->f) w->out.len = 0;
    step_texts(&w->out, pt->i ? ",\n    " : "    ", &w->canon, s, pt->i);
    w->fail |= w->out.fail || w->canon.fail;
    if (w->f && !w->fail && w->out.len >= (1 << 20)) wr_flush(w);
    if (pt->i) fnv_add(&w->h, ",");
    if (!w->fail) fnv_add(&w->h, w->canon.s);
    tb->steps = pt->i;
    if (w->fail) return dvc_error(DVC_ERR_IO, "%s: cannot write the certificate", w->out_path);
    return DVC_OK;
}

/* After the last step: summary, digest. */
static dvc_status wr_tail(wr_t *w)
{
    dvc_cert_struct *c = w->c;
    const dvc_dlvi_result_struct *r = w->r;
    json_t *tail;
    dvc_status st;
    if (w->route == 1) st = dvc_cert_lognorm_summary_claims_(&c->summary, r, w->info, r->eps_x[r->N]);
    else st = dvc_cert_summary_claims_(&c->summary, r, r->eps_x[r->window ? (r->N & 1) : r->N]);
    if (st == DVC_OK) st = dvc_cert_scale_norm_(&c->summary, w->e, c->n);
    if (st == DVC_OK) st = dvc_cert_width_claims_(&c->summary, c->width);
    if (st != DVC_OK) return st;
    tail = json_object();
    json_object_set_new(tail, "summary", claims_obj(&c->summary));
    json_object_set_new(tail, "version", json_integer(CERT_VERSION));
    fnv_add(&w->h, "],");
    w->fail |= fnv_obj(&w->h, tail, 0);
    snprintf(c->digest, sizeof c->digest, "%016llx", (unsigned long long)w->h);
    if (w->f) {
        wr_flush(w);
        w->fail |= fputs("\n  ],\n", w->f) < 0;
        w->fail |= put_member(w->f, "summary", json_object_get(tail, "summary"));
        w->fail |= fprintf(w->f, ",\n  \"digest\": \"fnv1a64:%s\"\n}\n", c->digest) < 0;
    }
    json_decref(tail);
    if (w->fail) return dvc_error(DVC_ERR_IO, "%s: cannot write the certificate", w->out_path);
    return DVC_OK;
}

/* A non-uniform trajectory's times as the problem's time grid: p takes
 * them (and T = their last one, exact), the embedded copy states them in
 * C99 hexadecimal ('grid', no N) and that T. */
static dvc_status from_grid(dvc_dlvi_problem_t p, json_t *resolved, dvc_traj_from *tf)
{
    json_t *arr = json_array();
    char hx[40];
    int fail = arr == NULL;
    for (long i = 0; !fail && i <= tf->N; i++) {
        dvc_hex_write_(hx, tf->grid[i]);
        fail = json_array_append_new(arr, json_string(hx)) != 0;
    }
    if (!fail && (!mpfr_equal_p(&p->T->left, &p->T->right) || mpfr_cmp_d(&p->T->left, tf->end) != 0)) {
        /* the trajectory ends a little before or after T (or T is a
         * decimal, only an interval): the certificate covers [0, its last
         * time] and says so */
        mpfr_prec_t pr = mpfi_get_prec(p->T);
        char dec[1200];
        int ex;
        mpfi_set_prec(p->T, pr < 53 ? 53 : pr);
        mpfi_set_d(p->T, tf->end);
        /* its exact decimal expansion (a decimal string is read exactly;
         * a JSON real only as an interval around it) */
        frexp(tf->end, &ex);
        snprintf(dec, sizeof dec, "%.*f", ex < 53 ? 53 - ex : 0, tf->end);
        if (strchr(dec, '.')) {
            size_t l = strlen(dec);
            while (dec[l - 1] == '0') dec[--l] = '\0';
            if (dec[l - 1] == '.') dec[--l] = '\0';
        }
        fail = json_object_set_new(resolved, "T", json_string(dec)) != 0;
    }
    json_object_del(resolved, "N");
    if (fail) json_decref(arr);
    if (fail || json_object_set_new(resolved, "grid", arr) != 0)
        return dvc_error(DVC_ERR_NOMEM, "cannot build the certificate");
    p->grid = tf->grid;
    tf->grid = NULL;
    return DVC_OK;
}

/* One attempt at precision prec (0: the file's). The steps go to w (a
 * streamed file, or nowhere on a dry run) or, with w == NULL, stay in memory
 * and become the certificate through dvc_cert_from_result. */
static dvc_status enclose_at(dvc_cert_t c, const char *problem_path, wr_t *w, mpfr_prec_t prec,
                             int sharpen, const dvc_table_policy *tables, mpfr_prec_t *used)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    dvc_lognorm_info_t info;
    dvc_traj_from tf;
    json_t *resolved = NULL;
    char *text = NULL;
    long *e = NULL; /* scale exponents, NULL: none */
    dvc_status st;
    mpfr_prec_t saved = dvc_prec_get();
    dvc_cert_clear(c);
    dvc_cert_init(c);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    st = dvc_problem_load_policy(p, &resolved, problem_path, prec, tables);
    if (st != DVC_OK) {
        dvc_dlvi_problem_clear(p);
        return st;
    }
    *used = p->prec;
    if (p->prec > DVC_CERT_PREC_MAX) {
        dvc_dlvi_problem_clear(p);
        json_decref(resolved);
        return dvc_error(DVC_ERR_INPUT, "%s: precision %ld bits: a certificate may state at most %d "
                         "bits (verify recomputes at that precision)", problem_path, (long)*used,
                         DVC_CERT_PREC_MAX);
    }
    if (w && w->N > 0 && p->grid)
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'grid': refused by --radius, which chooses N", problem_path);
    else if (w && w->N > 0) {
        /* another grid than the file's: the copy states it (and no h), so
         * that verify rebuilds the same grid */
        p->N = w->N;
        p->h = 0;
        json_object_del(resolved, "h");
        if (json_object_set_new(resolved, "N", json_integer((json_int_t)w->N)) != 0)
            st = dvc_error(DVC_ERR_NOMEM, "cannot build the certificate");
    }
    /* the problem as given, tables included: the certificate's copy */
    if (st == DVC_OK) text = json_dumps(resolved, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (st == DVC_OK && !text) st = dvc_error(DVC_ERR_NOMEM, "cannot build the certificate");
    dvc_dlvi_opts_default(&o);
    o.sharpen = sharpen;
    o.prec = p->prec;
    o.progress = 1;
    if (w) {
        c->generator = strdup("dvicert " DVC_VERSION);
        if (st == DVC_OK && !c->generator) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        c->problem_json = text;
        text = NULL;
        o.sink = wr_sink;
        o.sink_ctx = w;
        w->p = p;
        w->r = r;
        w->c = c;
        w->resolved = resolved;
        w->fail = 0;
        if (st == DVC_OK && w->f && ftell(w->f) > 0) {
            /* a retry: start the file again (and drop the lines buffered) */
            w->out.len = 0;
            if (fflush(w->f) != 0 || ftruncate(fileno(w->f), 0) != 0 || fseek(w->f, 0, SEEK_SET) != 0)
                st = dvc_error(DVC_ERR_IO, "%s: cannot rewrite the certificate", w->out_path);
        }
    }
    dvc_prec_set(p->prec);
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    memset(&tf, 0, sizeof tf);
    /* certify in the scaled states z = S^-1 x (docs/bounds.md, "Scaling of
     * the state"); the certificate states x = S z */
    if (st == DVC_OK && !(w && w->no_scale)) {
        e = calloc((size_t)(p->n > 0 ? p->n : 1), sizeof *e);
        st = e ? dvc_dlvi_scale_auto(e, p) : dvc_error(DVC_ERR_NOMEM, "out of memory");
        if (st == DVC_OK && dvc_dlvi_scale_is_identity(e, p->n)) {
            free(e);
            e = NULL;
        }
        if (st == DVC_OK) st = dvc_dlvi_problem_scale(p, e);
    }
    if (w) w->e = e;
    if (st == DVC_OK && w && w->route == 1) {
        dvc_lognorm_opts lo;
        dvc_lognorm_opts_default(&lo);
        o.sharpen = 0;
        lo.dlvi = o;
        /* the header states the norms, mode norms included, which the run
         * finds: the points are written after it (the route keeps them all) */
        lo.dlvi.sink = NULL;
        w->external = w->from != NULL;
        if (w->external) w->pred = "external";
        else if (w->pred && strcmp(w->pred, "heun") == 0) lo.predictor = DVC_LOGNORM_PRED_HEUN;
        else w->pred = "theta";
        /* accurate nodes: the f, g variation inside a piece must stay small */
        if (w->external || lo.predictor == DVC_LOGNORM_PRED_HEUN) lo.pieces = DVC_LOGNORM_PIECES_EXT;
        if (w->pieces > 0) lo.pieces = w->pieces;
        w->pieces = lo.pieces;
        w->info = info;
        if (w->from) {
            /* the trajectory's grid becomes the problem's: N in the embedded
             * copy when it is uniform, else its times ('grid', and T its
             * last one), so that verify rebuilds the same grid */
            double T = mpfr_get_d(&p->T->left, MPFR_RNDN);
            st = dvc_traj_from_read(&tf, w->from, p->n, T);
            if (st == DVC_OK) st = dvc_traj_from_grid(&tf, T);
            for (long i = 0; st == DVC_OK && e && i <= tf.N; i++)
                st = dvc_dlvi_scale_point(tf.xs + i * p->n, tf.xs + i * p->n, e, p->n, 0);
            if (st == DVC_OK) {
                p->N = tf.N;
                p->h = 0;
                free(p->grid);
                p->grid = NULL;
                json_object_del(resolved, "h");
                json_object_del(resolved, "grid");
                if (tf.grid) st = from_grid(p, resolved, &tf);
                else json_object_set_new(resolved, "N", json_integer((json_int_t)tf.N));
            }
            if (st == DVC_OK) {
                free(c->problem_json);
                c->problem_json = json_dumps(resolved, JSON_COMPACT | JSON_PRESERVE_ORDER);
                if (!c->problem_json) st = dvc_error(DVC_ERR_NOMEM, "cannot build the certificate");
                c->from_uniform = tf.uniform;
                c->from_samples = tf.ns;
                c->from_end = tf.end;
                c->from_past = tf.past;
            }
            if (st == DVC_OK) st = dvc_lognorm_certify(r, info, p, &lo, tf.xs, NULL);
        } else {
            st = dvc_lognorm_run(r, info, p, &lo);
        }
        for (long i = 0; st == DVC_OK && r->steps_done == p->N && i <= p->N; i++) {
            dvc_dlvi_point pt;
            dvc_cert_point_of_result_(&pt, r, i);
            if (p->m == 0) pt.yhat = NULL;
            st = wr_sink(&pt, w);
        }
    } else if (st == DVC_OK) {
        st = dvc_dlvi_run(r, p, &o);
    }
    if (w) {
        if (st == DVC_OK && r->steps_done != p->N)
            st = dvc_error(DVC_ERR_INTERNAL, "certificate: the run stopped early");
        if (st == DVC_OK) st = wr_tail(w);
        w->p = NULL;
        w->r = NULL;
        w->resolved = NULL;
    } else if (st == DVC_OK) {
        st = dvc_cert_from_result_scaled_(c, p, text, r, e);
    }
    if (w) w->e = NULL;
    free(e);
    free(text);
    dvc_traj_from_clear(&tf);
    dvc_lognorm_info_clear(info);
    if (w) w->info = NULL;
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    json_decref(resolved);
    dvc_prec_set(saved);
    return st;
}

/* enclose_at keeping c->retry_reason, which the attempt clears with c */
static dvc_status enclose_again(dvc_cert_t c, const char *problem_path, wr_t *w, mpfr_prec_t prec,
                                int sharpen, const dvc_table_policy *tables, mpfr_prec_t *used)
{
    char keep[sizeof c->retry_reason];
    dvc_status st;
    memcpy(keep, c->retry_reason, sizeof keep);
    st = enclose_at(c, problem_path, w, prec, sharpen, tables, used);
    memcpy(c->retry_reason, keep, sizeof keep);
    return st;
}

/* The precision retry, for both destinations of the steps (w as in
 * enclose_at). With `then` set, the attempts are dry runs that only find the
 * precision, and the certificate is then written once through `then`.
 *
 * The retry is done here rather than with the engine's opts.prec_max: the
 * engine would keep the problem's data (decimal enclosures, tables) at the
 * start precision while verify rebuilds them at the certificate's, so the
 * two runs would not see the same numbers. */
static dvc_status enclose_retry(dvc_cert_t c, const char *problem_path, wr_t *w, dvc_outfile *then,
                                mpfr_prec_t prec, mpfr_prec_t prec_max, int sharpen,
                                const dvc_table_policy *tables)
{
    mpfr_prec_t used = 0, start;
    char tried[256] = "";
    dvc_status st = enclose_at(c, problem_path, w, prec, sharpen, tables, &used);
    start = used;
    c->retry_reason[0] = '\0';
    while (st == DVC_NOT_CERTIFIED && used > 0 && 2 * used <= prec_max &&
           2 * used <= DVC_CERT_PREC_MAX) {
        size_t len = strlen(tried);
        snprintf(tried + len, sizeof tried - len, "%s%ld", len ? ", " : "", (long)used);
        snprintf(c->retry_reason, sizeof c->retry_reason, "%s", dvc_error_message());
        st = enclose_again(c, problem_path, w, 2 * used, sharpen, tables, &used);
    }
    if (st == DVC_OK && then) {
        w->of = then;
        st = enclose_again(c, problem_path, w, used, sharpen, tables, &used);
    }
    c->prec_start = start;
    if (st == DVC_NOT_CERTIFIED && tried[0])
        return dvc_error_context(st, "precision raised from %s to %ld bits (--prec-max) without "
                                 "success; at %ld bits: ", tried, (long)used, (long)used);
    if (st != DVC_OK) c->retry_reason[0] = '\0';
    return st;
}

dvc_status dvc_cert_enclose_tables(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec,
                                   mpfr_prec_t prec_max, int sharpen, const dvc_table_policy *tables)
{
    return enclose_retry(c, problem_path, NULL, NULL, prec, prec_max, sharpen, tables);
}

/* dvc_cert_enclose_stream on N steps (0: the file's); out_path NULL: a dry
 * run, nothing written */
static dvc_status enclose_stream_n(dvc_cert_t c, const char *problem_path, const char *out_path,
                                   mpfr_prec_t prec, mpfr_prec_t prec_max, int sharpen,
                                   const dvc_table_policy *tables, long N, int no_scale)
{
    dvc_outfile of;
    wr_t w;
    dvc_status st;
    int dry = 0;
    memset(&of, 0, sizeof of);
    memset(&w, 0, sizeof w);
    w.of = out_path ? &of : NULL;
    w.out_path = out_path ? out_path : "(dry run)";
    w.N = N;
    w.no_scale = no_scale;
    if (prec_max > 0 && out_path) {
        /* a direct output (stdout, pipe, device) cannot be started again
         * after a failed attempt: find the precision first, then write once */
        struct stat sb;
        if (strcmp(out_path, "-") == 0 ||
            (stat(out_path, &sb) == 0 && (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode)))) {
            dry = 1;
            w.of = NULL;
        }
    }
    st = enclose_retry(c, problem_path, &w, dry ? &of : NULL, prec, prec_max, sharpen, tables);
    if (st == DVC_OK && of.f) st = dvc_outfile_commit(&of);
    else if (st == DVC_OK && out_path) st = dvc_error(DVC_ERR_INTERNAL, "%s: nothing written", out_path);
    dvc_outfile_clear(&of);
    wr_free(&w);
    if (st != DVC_OK) c->retry_reason[0] = '\0';
    return st;
}

dvc_status dvc_cert_enclose_stream(dvc_cert_t c, const char *problem_path, const char *out_path,
                                   mpfr_prec_t prec, mpfr_prec_t prec_max, int sharpen,
                                   const dvc_table_policy *tables)
{
    return enclose_stream_n(c, problem_path, out_path, prec, prec_max, sharpen, tables, 0, 0);
}

dvc_status dvc_cert_enclose_stream_opts(dvc_cert_t c, const char *problem_path, const char *out_path,
                                        mpfr_prec_t prec, mpfr_prec_t prec_max,
                                        const dvc_cert_route_opts *ro, const dvc_table_policy *tables)
{
    if (ro && ro->route != DVC_CERT_ROUTE_CHEN_WANG)
        return dvc_error(DVC_ERR_INPUT, "precision retries belong to the chen-wang route");
    if (ro && (ro->N < 0 || ro->N > DVC_DLVI_N_MAX))
        return dvc_error(DVC_ERR_INPUT, "number of steps %ld outside [1, %ld]", ro->N, DVC_DLVI_N_MAX);
    if (ro && ro->from)
        return dvc_error(DVC_ERR_INPUT, "a trajectory of another tool is certified by the lognorm route only");
    return enclose_stream_n(c, problem_path, out_path, prec, prec_max, ro ? ro->sharpen : 0, tables,
                            ro ? ro->N : 0, ro ? ro->no_scale : 0);
}

dvc_status dvc_cert_enclose_stream_route(dvc_cert_t c, const char *problem_path, const char *out_path,
                                         mpfr_prec_t prec, const dvc_cert_route_opts *ro,
                                         const dvc_table_policy *tables)
{
    mpfr_prec_t used = 0;
    dvc_outfile of;
    wr_t w;
    dvc_status st;
    if (ro && (ro->N < 0 || ro->N > DVC_DLVI_N_MAX))
        return dvc_error(DVC_ERR_INPUT, "number of steps %ld outside [1, %ld]", ro->N, DVC_DLVI_N_MAX);
    if (ro && ro->N > 0 && ro->from)
        return dvc_error(DVC_ERR_INPUT, "a trajectory of another tool sets the grid (no number of steps with it)");
    if (ro == NULL || ro->route == DVC_CERT_ROUTE_CHEN_WANG) {
        if (ro && ro->from)
            return dvc_error(DVC_ERR_INPUT, "a trajectory of another tool is certified by the lognorm route only");
        return enclose_stream_n(c, problem_path, out_path, prec, 0, ro ? ro->sharpen : 0, tables,
                                ro ? ro->N : 0, ro ? ro->no_scale : 0);
    }
    if (ro->route != DVC_CERT_ROUTE_LOGNORM) return dvc_error(DVC_ERR_INPUT, "unknown certification route");
    if (ro->sharpen) return dvc_error(DVC_ERR_INPUT, "--sharpen belongs to the chen-wang route");
    if (ro->predictor && strcmp(ro->predictor, "theta") != 0 && strcmp(ro->predictor, "heun") != 0)
        return dvc_error(DVC_ERR_INPUT, "predictor must be theta or heun, got '%s'", ro->predictor);
    if (ro->predictor && ro->from)
        return dvc_error(DVC_ERR_INPUT, "a trajectory of another tool is its own predictor (no predictor "
                         "choice with it)");
    memset(&of, 0, sizeof of);
    memset(&w, 0, sizeof w);
    w.of = out_path ? &of : NULL;
    w.out_path = out_path ? out_path : "(dry run)";
    w.route = 1;
    w.pieces = ro->pieces;
    w.from = ro->from;
    w.pred = ro->predictor;
    w.N = ro->N;
    w.no_scale = ro->no_scale;
    st = enclose_at(c, problem_path, &w, prec, 0, tables, &used);
    c->prec_start = used;
    if (st == DVC_OK && of.f) st = dvc_outfile_commit(&of);
    else if (st == DVC_OK && out_path) st = dvc_error(DVC_ERR_INTERNAL, "%s: nothing written", out_path);
    dvc_outfile_clear(&of);
    wr_free(&w);
    return st;
}
