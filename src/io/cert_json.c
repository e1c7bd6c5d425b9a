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
#include "io/cert_grid.h"
#include "io/cert_sink.h"


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
static dvc_status head_obj(json_t **out, const dvc_cert_t c, json_t *problem, const dvc_tgrid *g)
{
    json_t *hdr;
    char dg[17], tagged[32];
    dvc_status st;
    *out = NULL;
    if ((st = dvc_cert_grid_digest(dg, problem, g)) != DVC_OK) return st;
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
    st = head_obj(&root, c, problem, NULL);
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
static dvc_status put_member(FILE *f, const char *key, const json_t *val, const dvc_tgrid *g)
{
    char *t = member_text(key, val);
    dvc_status st = !t ? dvc_error(DVC_ERR_NOMEM, "out of memory")
                  : fputs("  ", f) < 0 ? dvc_error(DVC_ERR_IO, "cannot write the certificate")
                                       : dvc_cert_grid_put(t, g, f, NULL);
    free(t);
    return st;
}

/* The certificate writer of dvc_enclose (io/cert_sink.h): the layout
 * above, written at each grid point the engine certifies. */
struct dvc_enclose_sink {
    FILE *f;                          /* NULL: a dry run, nothing written */
    dvc_outfile *of;                  /* opened at the first point */
    dvc_outfile ofile;
    int deferred;                     /* a direct output held back until armed */
    int dry;                          /* no output path */
    const char *out_path;
    const dvc_dlvi_problem_struct *p;
    const dvc_dlvi_result_struct *r;
    dvc_cert_struct *c;
    const json_t *resolved;           /* the problem as embedded */
    const dvc_enclose_fields *fields; /* the route's certificate fields */
    uint64_t h;
    int fail;
    step_txt txt;                     /* the step's strings, reused */
    dvc_sbuf canon;                   /* a step's canonical text */
    dvc_sbuf out;                     /* step lines not yet handed to stdio */
    char *iobuf;                      /* the output's stdio buffer */
    const long *e;                    /* the run's scale exponents (NULL: identity) */
    dvc_tgrid grid;                   /* the run's grid: explicit times streamed
                                         (io/cert_grid.h, held or on demand), else
                                         of kind uniform (labels from the tube) */
    double *xbuf;                     /* n: a point's x = S z */
    FILE *spill;                      /* late_method: the steps' strings until the end */
    char *rbuf;                       /* a string read back from spill */
    size_t rcap;
};
typedef dvc_enclose_sink wr_t;

dvc_status dvc_cert_sink_new(dvc_enclose_sink **s, const char *out_path, int retries)
{
    wr_t *w = calloc(1, sizeof *w);
    *s = w;
    if (!w) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    w->of = out_path ? &w->ofile : NULL;
    w->out_path = out_path ? out_path : "(dry run)";
    w->dry = out_path == NULL;
    if (retries && out_path) {
        /* a direct output (stdout, pipe, device) cannot be started again
         * after a failed attempt: find the precision first, then write once */
        struct stat sb;
        if (strcmp(out_path, "-") == 0 ||
            (stat(out_path, &sb) == 0 && (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode)))) {
            w->deferred = 1;
            w->of = NULL;
        }
    }
    return DVC_OK;
}

int dvc_cert_sink_deferred(const dvc_enclose_sink *s)
{
    return s->deferred && !s->of;
}

void dvc_cert_sink_arm(dvc_enclose_sink *s)
{
    s->of = &s->ofile;
}

dvc_status dvc_cert_sink_begin(dvc_enclose_sink *w, dvc_cert_struct *c, const dvc_dlvi_problem_struct *p,
                               const dvc_dlvi_result_struct *r, const dvc_enclose_doc *doc, const long *e,
                               const dvc_enclose_fields *f)
{
    w->p = p;
    w->r = r;
    w->c = c;
    w->resolved = (const json_t *)doc;
    w->e = e;
    w->fields = f;
    w->fail = 0;
    if (w->spill) {
        /* a retry: the steps of the attempt before are dropped */
        fclose(w->spill);
        w->spill = NULL;
    }
    if (w->f && w->of && ftell(w->f) > 0) {
        /* a retry: start the file again (and drop the lines buffered) */
        w->out.len = 0;
        if (dvc_outfile_rewind(w->of) != DVC_OK)
            return dvc_error(DVC_ERR_IO, "%s: cannot rewrite the certificate", w->out_path);
    }
    return DVC_OK;
}

void dvc_cert_sink_detach(dvc_enclose_sink *w)
{
    w->p = NULL;
    w->r = NULL;
    w->resolved = NULL;
    w->e = NULL;
    w->fields = NULL;
}

/* The buffered step lines to the file. */
static void wr_flush(wr_t *w)
{
    if (w->f && w->out.len > 0) w->fail |= fwrite(w->out.s, 1, w->out.len, w->f) != w->out.len;
    w->out.len = 0;
}

dvc_status dvc_cert_sink_close(dvc_enclose_sink *w, dvc_status st)
{
    if (!w) return st;
    if (st == DVC_OK && w->ofile.f) st = dvc_outfile_commit(&w->ofile);
    else if (st == DVC_OK && !w->dry)
        st = dvc_error(DVC_ERR_INTERNAL, "%s: nothing written", w->out_path);
    dvc_outfile_clear(&w->ofile);
    if (w->spill) fclose(w->spill);
    free(w->rbuf);
    free(w->txt.hx);
    free(w->txt.dec);
    free(w->canon.s);
    free(w->out.s);
    free(w->xbuf);
    free(w->iobuf); /* after the stream was closed */
    free(w);
    return st;
}

/* At grid point 0: the certificate's sizes and its window of two rows. */
static dvc_status wr_start(wr_t *w)
{
    dvc_cert_struct *c = w->c;
    dvc_status st;
    dvc_tgrid g;
    c->n = w->p->n;
    c->m = w->p->m;
    c->N = w->p->N;
    c->prec = w->r->prec;
    c->sharpen = w->r->sharpen;
    if ((st = dvc_tube_alloc_window(c->tube, c->n, c->m, c->N, w->p->T, c->prec, 2)) != DVC_OK) return st;
    dvc_dlvi_problem_grid(&g, w->p);
    /* a streamed grid labels the steps from the run's times (held or on
     * demand), not the tube's */
    dvc_tgrid_init(&w->grid);
    if (dvc_cert_grid_marked(w->resolved)) w->grid = g;
    else if ((st = dvc_tube_set_grid(c->tube, &g)) != DVC_OK) return st;
    return dvc_cert_scale_tube_(c->tube, w->e);
}

/* A temporary file in dir, already unlinked (NULL: none could be made). */
static FILE *spill_in(const char *dir, size_t len)
{
    char path[4096];
    int fd;
    FILE *f;
    if (len == 0 || len + 32 > sizeof path) return NULL;
    snprintf(path, sizeof path, "%.*s/.dvicert-steps-XXXXXX", (int)len, dir);
    if ((fd = mkstemp(path)) < 0) return NULL;
    unlink(path);
    if (!(f = fdopen(fd, "w+b"))) close(fd);
    else setvbuf(f, NULL, _IOFBF, 1 << 20); /* one system call per MB */
    return f;
}

/* The file the steps wait in: in $TMPDIR, else beside the output, else in
 * /tmp (a $TMPDIR that cannot be written does not stop the run). */
static FILE *spill_open(const wr_t *w)
{
    const char *dir = getenv("TMPDIR"), *slash;
    FILE *f = dir && *dir ? spill_in(dir, strlen(dir)) : NULL;
    if (!f && !w->dry && strcmp(w->out_path, "-") != 0) {
        slash = strrchr(w->out_path, '/');
        f = slash ? spill_in(w->out_path, slash == w->out_path ? 1 : (size_t)(slash - w->out_path))
                  : spill_in(".", 1);
    }
    return f ? f : spill_in("/tmp", 4);
}

/* The strings of a step (label, hexadecimal x and y, decimals), each
 * ending in a NUL: what step_texts needs to write the line later. */
static int spill_put(FILE *f, const step_txt *s)
{
    int bad = fwrite(s->label, 1, strlen(s->label) + 1, f) != strlen(s->label) + 1;
    for (long k = 0; k < s->n + s->m; k++) bad |= fwrite(s->hx[k], 1, strlen(s->hx[k]) + 1, f) != strlen(s->hx[k]) + 1;
    for (long k = 0; k < 3 + 2 * s->m; k++)
        bad |= fwrite(s->dec[k], 1, strlen(s->dec[k]) + 1, f) != strlen(s->dec[k]) + 1;
    return bad;
}

/* One string of spill_put into dst (cap bytes); 1 on a read error. */
static int spill_str(wr_t *w, char *dst, size_t cap)
{
    ssize_t len = getdelim(&w->rbuf, &w->rcap, '\0', w->spill);
    if (len <= 0 || w->rbuf[len - 1] != '\0' || (size_t)len > cap) return 1;
    memcpy(dst, w->rbuf, (size_t)len);
    return 0;
}

static int spill_get(wr_t *w, step_txt *s)
{
    int bad = spill_str(w, s->label, sizeof s->label);
    for (long k = 0; k < s->n + s->m; k++) bad |= spill_str(w, s->hx[k], sizeof s->hx[k]);
    for (long k = 0; k < 3 + 2 * s->m; k++) bad |= spill_str(w, s->dec[k], sizeof s->dec[k]);
    return bad;
}

/* One step's line (after its separator) into the output buffer and its
 * canonical text into the digest. */
static void wr_line(wr_t *w, long i)
{
    if (!w->f) w->out.len = 0;
    step_texts(&w->out, i ? ",\n    " : "    ", &w->canon, &w->txt, i);
    w->fail |= w->out.fail || w->canon.fail;
    if (w->f && !w->fail && w->out.len >= (1 << 20)) wr_flush(w);
    if (i) fnv_add(&w->h, ",");
    if (!w->fail) fnv_add(&w->h, w->canon.s);
}

/* The header: the route's method claims, then every member before the
 * steps, written and hashed. */
static dvc_status wr_head(wr_t *w)
{
    dvc_cert_struct *c = w->c;
    json_t *hdr;
    dvc_status st;
    dvc_tgrid g, *gm = dvc_cert_grid_marked(w->resolved) ? &g : NULL; /* times streamed (io/cert_grid.h) */
    dvc_dlvi_problem_grid(&g, w->p);
    st = w->fields->method(&c->method, w->p, w->r, w->fields->state);
    if (st == DVC_OK) st = dvc_cert_scale_claim_(&c->method, w->e, c->n);
    if (st != DVC_OK) return st;
    if ((st = head_obj(&hdr, c, (json_t *)w->resolved, gm)) != DVC_OK) return st;
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
            if (st == DVC_OK) st = put_member(w->f, key, val, gm);
        }
        w->fail |= fputs(",\n  \"steps\": [\n", w->f) < 0;
    }
    /* canonical text: every member before "steps" in key order */
    json_object_del(hdr, "version");
    w->h = DVC_FNV_OFFSET;
    if (st == DVC_OK) st = dvc_cert_grid_hash_prefix(&w->h, hdr, gm);
    fnv_add(&w->h, ",\"steps\":[");
    json_decref(hdr);
    return st;
}

dvc_status dvc_cert_sink_point(const dvc_dlvi_point *pt, void *ctx)
{
    wr_t *w = ctx;
    dvc_cert_struct *c = w->c;
    dvc_tube_struct *tb = c->tube;
    long row = pt->i % 2, n, m;
    step_txt *s = &w->txt;
    dvc_dlvi_point ps;
    dvc_status st;
    if (pt->i == 0) {
        if ((st = wr_start(w)) != DVC_OK) return st;
        if (w->fields->late_method) {
            if (!(w->spill = spill_open(w)))
                return dvc_error(DVC_ERR_IO, "cannot create a temporary file for the steps: %s", strerror(errno));
        } else if ((st = wr_head(w)) != DVC_OK) {
            return st;
        }
    }
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
    if (w->grid.kind == DVC_TGRID_EXPLICIT) {
        double t;
        if ((st = dvc_tgrid_at(&w->grid, pt->i, &t)) != DVC_OK) return st;
        dvc_cert_grid_label_d(s->label, t);
    } else {
        dvc_cert_grid_label(s->label, tb, pt->i);
    }
    tb->steps = pt->i;
    if (w->spill) {
        /* the header comes first but is not known yet */
        if (spill_put(w->spill, s))
            return dvc_error(DVC_ERR_IO, "cannot write the steps to a temporary file: %s", strerror(errno));
        return DVC_OK;
    }
    /* the line goes straight into the output buffer (stdio per megabyte);
     * on a dry run it is dropped */
    wr_line(w, pt->i);
    if (w->fail) return dvc_error(DVC_ERR_IO, "%s: cannot write the certificate", w->out_path);
    return DVC_OK;
}

/* late_method, after the run: the header, then the steps held back. */
static dvc_status wr_late(wr_t *w)
{
    dvc_status st;
    if ((st = wr_head(w)) != DVC_OK) return st;
    if (fflush(w->spill) != 0 || fseek(w->spill, 0, SEEK_SET) != 0)
        return dvc_error(DVC_ERR_IO, "cannot read back the temporary file of the steps: %s", strerror(errno));
    for (long i = 0; i <= w->c->N && !w->fail; i++) {
        if (spill_get(w, &w->txt))
            return dvc_error(DVC_ERR_IO, "cannot read back the temporary file of the steps (step %ld)", i);
        wr_line(w, i);
    }
    fclose(w->spill);
    w->spill = NULL;
    if (w->fail) return dvc_error(DVC_ERR_IO, "%s: cannot write the certificate", w->out_path);
    return DVC_OK;
}

/* After the last step: summary, digest. */
dvc_status dvc_cert_sink_end(dvc_enclose_sink *w)
{
    dvc_cert_struct *c = w->c;
    json_t *tail;
    dvc_status st;
    if (w->spill && (st = wr_late(w)) != DVC_OK) return st;
    st = w->fields->summary(&c->summary, w->r, w->fields->state);
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
        w->fail |= put_member(w->f, "summary", json_object_get(tail, "summary"), NULL);
        w->fail |= fprintf(w->f, ",\n  \"digest\": \"fnv1a64:%s\"\n}\n", c->digest) < 0;
    }
    json_decref(tail);
    if (w->fail) return dvc_error(DVC_ERR_IO, "%s: cannot write the certificate", w->out_path);
    return DVC_OK;
}
