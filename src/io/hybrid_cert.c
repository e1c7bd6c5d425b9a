/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid certificates as JSON (docs/formats.md, "Hybrid certificates"):
 * the embedded model, the stated grid and events. The certificate in
 * memory (the run, verification by recomputation) is src/cert_hybrid.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dvicert/cert.h"
#include "dvicert/files.h"
#include "dvicert/hybrid_cert.h"
#include "io/cert_mark.h"
#include "io/events_cert.h"
#include "io/hybrid_json.h"
#include "io/json.h"
#include "io/problem_json.h"
#include "io/hybrid_cert_read.h"
#include "cert_internal.h"

#define HCERT_FORMAT "dvicert-hybrid-certificate"
#define HCERT_VERSION 1


int dvc_hybrid_file_kind(const char *path)
{
    hyb_layout L;
    json_t *root;
    json_error_t err;
    int kind = 0;
    char *head;
    size_t got;
    FILE *f;
    /* a quiet look: whatever fails here is reported by the reader chosen.
     * A DLVI certificate may be far larger than memory should hold (it is
     * read step by step), so the file is parsed whole only when its first
     * 64 KiB name a hybrid model key or the hybrid certificate format. */
    struct stat sb;
    /* only a regular file: a pipe read here would be lost to its reader */
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return 0;
    if (dvc_infile_open(&f, path, "rb") != DVC_OK) return 0;
    head = malloc(65537);
    got = head ? fread(head, 1, 65536, f) : 0;
    if (head) head[got] = '\0';
    if (!head || (!strstr(head, "\"modes\"") && !strstr(head, "\"decomposed\"") &&
                  !strstr(head, "\"" HCERT_FORMAT "\""))) {
        free(head);
        fclose(f);
        return 0;
    }
    /* what the file says it is, for a file that does not parse (truncated,
     * edited): its own reader then names the JSON error, where the DLVI
     * reader would report the first hybrid key as unknown */
    int named = strstr(head, "\"" HCERT_FORMAT "\"") ? 2 : 1;
    free(head);
    rewind(f);
    /* in the writer's layout, the members without the steps and events
     * decide (memory independent of the length); else the whole text */
    if (dvc_hcert_layout_scan_(f, &L)) {
        root = json_loads(L.skel, 0, &err);
        free(L.skel);
    } else {
        rewind(f);
        root = json_loadf(f, 0, &err);
    }
    fclose(f);
    if (!root) return named;
    if (dvc_hybrid_json_is_model(root)) kind = 1;
    else if (json_is_object(root) && json_is_string(json_object_get(root, "format")) &&
             strcmp(json_string_value(json_object_get(root, "format")), HCERT_FORMAT) == 0)
        kind = 2;
    json_decref(root);
    return kind;
}

void dvc_hybrid_cert_reset_(dvc_hybrid_cert_t c)
{
    long ms = c->max_steps;
    double sec = c->max_seconds;
    int pr = c->progress;
    dvc_status (*sink)(const dvc_hybrid_result_struct *, long, void *) = c->res->sink;
    dvc_status (*ev_sink)(const dvc_hybrid_result_struct *, long, void *) = c->res->ev_sink;
    void *sink_ctx = c->res->sink_ctx;
    dvc_hybrid_cert_clear(c);
    dvc_hybrid_cert_init(c);
    c->res->sink = sink; /* a streamed write (dvc_hybrid_cert_enclose_write) */
    c->res->ev_sink = ev_sink;
    c->res->sink_ctx = sink_ctx;
    c->max_steps = ms;
    c->max_seconds = sec;
    c->progress = pr;
}

dvc_status dvc_hybrid_cert_run_(dvc_hybrid_cert_t c, const json_t *model, const char *name,
                                const char *where, mpfr_prec_t prec)
{
    dvc_status st;
    dvc_hybrid_cert_reset_(c);
    st = dvc_hybrid_from_json(c->model, model, name, prec);
    c->have_model = 1;
    if (st != DVC_OK) return st;
    st = dvc_hybrid_cert_run_built_(c, model, where);
    /* an expression failing in the run: named by its key path, as the reader does */
    return json_object_get(model, "decomposed") ? st : dvc_hybrid_json_error_path(st, c->model, where);
}

dvc_status dvc_hybrid_cert_run_built_(dvc_hybrid_cert_t c, const json_t *model, const char *where)
{
    c->model_json = json_dumps(model, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!c->model_json) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    /* the JSON part done: the model and its text go to the certificate core */
    return dvc_hybrid_cert_run_model_(c, where);
}

dvc_status dvc_hybrid_cert_enclose(dvc_hybrid_cert_t c, const char *path, mpfr_prec_t prec)
{
    json_t *root;
    dvc_status st;
    const char *base = strrchr(path, '/');
    dvc_hybrid_cert_reset_(c);
    if ((st = dvc_json_load(&root, path)) != DVC_OK) return st;
    st = dvc_hybrid_cert_run_(c, root, base ? base + 1 : path, path, prec);
    json_decref(root);
    if (st == DVC_NOT_CERTIFIED) dvc_error_context(st, "%s: ", path);
    return st;
}

/* ---- writing ------------------------------------------------------------ */

/* Decimal digits that keep a stated end within a few ulps at prec. */
static int digits_of(mpfr_prec_t prec) { return (int)(prec * 0.30103) + 3; }

static json_t *dec_end(mpfr_srcptr x, int up, mpfr_prec_t prec)
{
    char *s = dvc_mpfr_str(x, digits_of(prec), up ? MPFR_RNDU : MPFR_RNDD);
    json_t *j = json_string(s ? s : "nan");
    free(s);
    return j;
}

static json_t *dec_pair(const mpfi_t x, mpfr_prec_t prec)
{
    json_t *a = json_array();
    json_array_append_new(a, dec_end(&x->left, 0, prec));
    json_array_append_new(a, dec_end(&x->right, 1, prec));
    return a;
}

static json_t *dec_vec(const dvc_ivec_t x, mpfr_prec_t prec)
{
    json_t *a = json_array();
    for (long i = 0; i < x->n; i++) json_array_append_new(a, dec_pair(x->e[i], prec));
    return a;
}

static json_t *hex_fr(const mpfr_t t)
{
    char *s = NULL;
    json_t *j;
    if (mpfr_asprintf(&s, "%Ra", t) < 0) return json_string("nan");
    j = json_string(s);
    mpfr_free_str(s);
    return j;
}



/* The members before the steps: format, ..., model (with its digest; mk:
 * a placeholder in the model, io/cert_mark.h, or NULL). */
static json_t *header_root(const dvc_hybrid_cert_struct *c, json_t *model, const dvc_mark *mk)
{
    json_t *root = json_object(), *meth = json_object();
    char dg[17], tagged[32];
    /* a digest that cannot be computed (out of memory) fails the write:
     * never a certificate with an empty digest */
    if (!root || !meth || dvc_mark_digest(dg, model, mk) != 0) {
        json_decref(root);
        json_decref(meth);
        return NULL;
    }
    snprintf(tagged, sizeof tagged, "fnv1a64:%s", dg);
    json_object_set_new(root, "format", json_string(HCERT_FORMAT));
    json_object_set_new(root, "version", json_integer(HCERT_VERSION));
    json_object_set_new(root, "generator", json_string(c->generator ? c->generator : "dvicert"));
    json_object_set_new(root, "precision", json_integer((json_int_t)c->prec));
    json_object_set_new(meth, "engine", json_string("hybrid: validated flow per mode (Taylor / "
                                                    "exp(Ah), Lohner sets), switch times by "
                                                    "interval Newton (docs/hybrid.md)"));
    json_object_set_new(meth, "order", json_integer(c->order));
    json_object_set_new(meth, "guard_bits", json_integer((json_int_t)c->guard_bits));
    json_object_set_new(meth, "h", dvc_json_hex(c->h));
    if (c->revision > 1) json_object_set_new(meth, "revision", json_integer(c->revision));
    json_object_set_new(root, "method", meth);
    json_object_set_new(root, "model_digest", json_string(tagged));
    json_object_set(root, "model", model);
    return root;
}

/* Grid point i of r (held at i - r->base) with the step that ends there. */
static json_t *step_json(const dvc_hybrid_cert_struct *c, const dvc_hybrid_result_struct *r, long i)
{
    json_t *s = json_object();
    long k = i - r->base;
    json_object_set_new(s, "t", hex_fr(r->t[k]));
    json_object_set_new(s, "x", dec_vec(r->x[k], c->prec));
    if (i >= 1) {
        json_object_set_new(s, "mode", json_string(c->model->modes[r->mode[k - 1]].name));
        json_object_set_new(s, "box", dec_vec(r->box[k - 1], c->prec));
    }
    return s;
}

static json_t *event_json(const dvc_hybrid_cert_struct *c, const dvc_hybrid_event *e)
{
    const dvc_hybrid_model_struct *m = c->model;
    json_t *o = json_object();
    json_object_set_new(o, "t_lo", dec_end(&e->t->left, 0, c->prec));
    json_object_set_new(o, "t_hi", dec_end(&e->t->right, 1, c->prec));
    json_object_set_new(o, "switch", json_string(m->gname[e->g]));
    json_object_set_new(o, "from", json_string(m->modes[e->mode_before].name));
    json_object_set_new(o, "to", json_string(m->modes[e->mode_after].name));
    json_object_set_new(o, "x", dec_vec(e->x, c->prec));
    json_object_set_new(o, "dphi", dec_pair(e->dphi, c->prec));
    json_object_set_new(o, "class", json_string(dvc_hybrid_class_name(e->cls)));
    dvc_hybrid_event_json_kind(o, m, e);
    return o;
}

/* The summary: counts and widths from the last grid point and the events
 * (wev_run non-NULL: the widest event's width, a streamed run's figure). */
static json_t *summary_json(const dvc_hybrid_result_struct *r, mpfr_srcptr wev_run)
{
    json_t *sum = json_object();
    mpfr_t wT, wev;
    mpfr_inits2(64, wT, wev, (mpfr_ptr)0);
    dvc_hybrid_cert_widths_(wT, wev, r);
    if (wev_run) mpfr_set(wev, wev_run, MPFR_RNDU);
    json_object_set_new(sum, "steps", json_integer(r->nsteps));
    json_object_set_new(sum, "crossings", json_integer(r->nevents));
    json_object_set_new(sum, "max_width_at_T_upper", dec_end(wT, 1, 53));
    json_object_set_new(sum, "max_event_width_upper", dec_end(wev, 1, 53));
    mpfr_clears(wT, wev, (mpfr_ptr)0);
    return sum;
}

static json_t *build_root(const dvc_hybrid_cert_t c, json_t *model, const dvc_mark *mk)
{
    const dvc_hybrid_result_struct *r = c->res;
    json_t *root = header_root(c, model, mk), *steps = json_array(), *evs = json_array();
    char dg[17], tagged[32];
    if (!root || !steps || !evs) {
        json_decref(root);
        json_decref(steps);
        json_decref(evs);
        return NULL;
    }
    for (long i = 0; i <= r->nsteps; i++) json_array_append_new(steps, step_json(c, r, i));
    json_object_set_new(root, "steps", steps);
    for (long k = 0; k < r->nevents; k++) json_array_append_new(evs, event_json(c, &r->ev[k]));
    json_object_set_new(root, "events", evs);
    json_object_set_new(root, "summary", summary_json(r, NULL));
    if (dvc_mark_digest_root(dg, root, mk) != 0) {
        json_decref(root);
        return NULL;
    }
    snprintf(tagged, sizeof tagged, "fnv1a64:%s", dg);
    json_object_set_new(root, "digest", json_string(tagged));
    return root;
}

/* s NULL: a failed json_dumps, the text is incomplete */
static void put(dvc_sbuf *b, const char *s)
{
    if (!s) b->fail = 1;
    else dvc_sbuf_put_(b, s, strlen(s));
}

static void put_json(dvc_sbuf *b, const json_t *v)
{
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);
    put(b, s);
    free(s);
}

dvc_status dvc_hybrid_cert_write(const dvc_hybrid_cert_t c, const char *path)
{
    return dvc_hybrid_cert_write_marked_(c, path, NULL);
}

dvc_status dvc_hybrid_cert_write_marked_(const dvc_hybrid_cert_t c, const char *path, const dvc_mark *mk)
{
    json_t *model, *root, *val;
    json_error_t err;
    const char *key;
    dvc_sbuf b = {NULL, 0, 0, 0};
    int first = 1;
    dvc_status st;
    if (!c->model_json || !c->have_model || c->res->nsteps < 1 || c->res->base != 0)
        return dvc_error(DVC_ERR_INPUT, "%s: the hybrid certificate is incomplete", path);
    model = json_loads(c->model_json, 0, &err);
    if (!model) return dvc_error(DVC_ERR_INPUT, "%s: the embedded model is not JSON", path);
    root = build_root(c, model, mk);
    json_decref(model);
    if (!root) return dvc_error(DVC_ERR_NOMEM, "out of memory while writing %s", path);
    put(&b, "{\n");
    json_object_foreach(root, key, val) {
        json_t *k = json_string(key);
        put(&b, first ? "  " : ",\n  ");
        first = 0;
        put_json(&b, k);
        json_decref(k);
        put(&b, ": ");
        if (json_is_array(val) && (!strcmp(key, "steps") || !strcmp(key, "events"))) {
            size_t i;
            json_t *s;
            put(&b, "[\n");
            json_array_foreach(val, i, s) {
                put(&b, "    ");
                put_json(&b, s);
                put(&b, i + 1 < json_array_size(val) ? ",\n" : "\n");
            }
            put(&b, "  ]");
        } else {
            put_json(&b, val);
        }
    }
    put(&b, "\n}\n");
    json_decref(root);
    if (b.fail) {
        free(b.s);
        return dvc_error(DVC_ERR_NOMEM, "out of memory while writing %s", path);
    }
    st = mk ? dvc_mark_write_atomic(path, b.s, mk) : dvc_write_atomic(path, b.s, b.len);
    free(b.s);
    return st;
}

/* ---- reading ------------------------------------------------------------ */


static dvc_status known_keys(const json_t *obj, const char *const *allowed, const char *where)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        int ok = key[0] == '_';
        for (const char *const *a = allowed; !ok && *a; a++) ok = strcmp(key, *a) == 0;
        if (!ok) return dvc_error(DVC_ERR_INPUT, "%s: unknown field '%s'", where, key);
    }
    return DVC_OK;
}

static const char *const keys_root[] = {"format", "version", "generator", "precision", "method",
                                        "model_digest", "model", "steps", "events", "summary",
                                        "digest", NULL};
static const char *const keys_method[] = {"engine", "order", "guard_bits", "h", "revision", NULL};
static const char *const keys_step[] = {"t", "x", "mode", "box", NULL};
static const char *const keys_event[] = {"t_lo", "t_hi", "switch", "from", "to", "x", "dphi",
                                         "class", "kind", "active", "lcp", NULL};
static const char *const keys_summary[] = {"steps", "crossings", "max_width_at_T_upper",
                                           "max_event_width_upper", NULL};

/* One stated end: a decimal string, enclosed; the lower end keeps the lower
 * end of its enclosure (a weaker claim is still what the file says). An
 * interval string ("[a, b]") is refused: one end is one number. */
static dvc_status read_end(mpfr_t x, const json_t *j, int up, const char *where)
{
    mpfi_t e;
    dvc_status st;
    if (!json_is_string(j)) return dvc_error(DVC_ERR_INPUT, "%s: expected a decimal string", where);
    if (strchr(json_string_value(j), '[') != NULL)
        return dvc_error(DVC_ERR_INPUT, "%s: expected one decimal number, not an interval: '%s'", where,
                         json_string_value(j));
    mpfi_init2(e, mpfr_get_prec(x));
    st = dvc_ival_set_str(e, json_string_value(j));
    if (st != DVC_OK || !mpfr_number_p(&e->left) || !mpfr_number_p(&e->right))
        st = dvc_error(DVC_ERR_INPUT, "%s: not a finite decimal: '%s'", where, json_string_value(j));
    else
        mpfr_set(x, up ? &e->right : &e->left, up ? MPFR_RNDU : MPFR_RNDD);
    mpfi_clear(e);
    return st;
}

static dvc_status read_pair(mpfi_t x, const json_t *j, const char *where)
{
    dvc_status st;
    mpfr_t lo, hi;
    if (!json_is_array(j) || json_array_size(j) != 2)
        return dvc_error(DVC_ERR_INPUT, "%s: expected [lo, hi]", where);
    mpfr_inits2(mpfi_get_prec(x), lo, hi, (mpfr_ptr)0);
    st = read_end(lo, json_array_get(j, 0), 0, where);
    if (st == DVC_OK) st = read_end(hi, json_array_get(j, 1), 1, where);
    if (st == DVC_OK && mpfr_cmp(lo, hi) > 0)
        st = dvc_error(DVC_ERR_INPUT, "%s: lower end above the upper end", where);
    if (st == DVC_OK) mpfi_interv_fr(x, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return st;
}

static dvc_status read_vec(dvc_ivec_t x, const json_t *j, const char *where)
{
    char w[256];
    dvc_status st = DVC_OK;
    if (!json_is_array(j) || (long)json_array_size(j) != x->n)
        return dvc_error(DVC_ERR_INPUT, "%s: expected %ld pairs [lo, hi]", where, x->n);
    for (long i = 0; st == DVC_OK && i < x->n; i++) {
        snprintf(w, sizeof w, "%s[%ld]", where, i);
        st = read_pair(x->e[i], json_array_get(j, (size_t)i), w);
    }
    return st;
}

static dvc_status read_mode(long *mode, const json_t *o, const char *key, const dvc_hybrid_model_t m,
                            const char *where)
{
    const json_t *j = NULL;
    dvc_status st = dvc_json_need(&j, o, key, JSON_STRING, where);
    if (st != DVC_OK) return st;
    *mode = dvc_hybrid_find_mode(m, json_string_value(j));
    if (*mode < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': no mode '%s' in the model", where, key,
                         json_string_value(j));
    return DVC_OK;
}

/* The arrays of a result holding N steps (all entries initialised). */
dvc_status dvc_hcert_result_alloc_(dvc_hybrid_result_struct *r, long N, long n, mpfr_prec_t prec)
{
    long na = N + 1;
    r->t = calloc((size_t)na, sizeof *r->t);
    r->x = calloc((size_t)na, sizeof *r->x);
    r->box = calloc((size_t)na, sizeof *r->box);
    r->P = calloc((size_t)na, sizeof *r->P);
    r->R = calloc((size_t)na, sizeof *r->R);
    r->B = calloc((size_t)na, sizeof *r->B);
    r->mode = calloc((size_t)na, sizeof *r->mode);
    if (!r->t || !r->x || !r->box || !r->P || !r->R || !r->B || !r->mode)
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; i < na; i++) {
        mpfr_init2(r->t[i], prec);
        dvc_ivec_init2(r->x[i], n, prec);
        dvc_ivec_init2(r->box[i], n, prec);
        dvc_ivec_init2(r->P[i], n, prec);
        dvc_ivec_init2(r->R[i], n, prec);
        dvc_imat_init2(r->B[i], n, n, prec);
        r->mode[i] = -1;
    }
    r->alloc = na;
    r->nsteps = N;
    r->prec = prec;
    return DVC_OK;
}

/* Step i into slot k of r (k = i when whole; a streamed read holds the
 * previous grid point's time at k - 1). */
dvc_status dvc_hcert_read_step_(dvc_hybrid_cert_t c, dvc_hybrid_result_struct *r, const json_t *s,
                                long i, long k, const char *file)
{
    char w[300];
    const json_t *j = NULL;
    dvc_status st;
    snprintf(w, sizeof w, "%s: steps[%ld]", file, i);
    if (!json_is_object(s)) return dvc_error(DVC_ERR_INPUT, "%s: expected an object", w);
    if ((st = known_keys(s, keys_step, w)) != DVC_OK) return st;
    if ((st = dvc_json_need(&j, s, "t", JSON_STRING, w)) != DVC_OK) return st;
    {
        const char *txt = json_string_value(j);
        char *end;
        int inex = mpfr_strtofr(r->t[k], txt, &end, 0, MPFR_RNDN);
        if (end == txt || *end != '\0' || inex != 0 || strncmp(txt + (txt[0] == '-'), "0x", 2) != 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field 't' must be an exact hexadecimal binary "
                             "number at the certificate's precision, got '%s'", w, txt);
    }
    if (i > 0 && mpfr_cmp(r->t[k], r->t[k - 1]) <= 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 't': times must increase", w);
    snprintf(w, sizeof w, "%s: steps[%ld].x", file, i);
    if ((st = read_vec(r->x[k], json_object_get(s, "x"), w)) != DVC_OK) return st;
    snprintf(w, sizeof w, "%s: steps[%ld]", file, i);
    if (i == 0) {
        if (json_object_get(s, "mode") || json_object_get(s, "box"))
            return dvc_error(DVC_ERR_INPUT, "%s: the first grid point has no step ('mode', 'box')", w);
        return DVC_OK;
    }
    if ((st = read_mode(&r->mode[k - 1], s, "mode", c->model, w)) != DVC_OK) return st;
    snprintf(w, sizeof w, "%s: steps[%ld].box", file, i);
    return read_vec(r->box[k - 1], json_object_get(s, "box"), w);
}

dvc_status dvc_hcert_read_event_(dvc_hybrid_cert_t c, dvc_hybrid_event *e, const json_t *o, long k,
                                 const char *file)
{
    char w[300];
    const json_t *j = NULL;
    dvc_status st;
    mpfr_t lo, hi;
    snprintf(w, sizeof w, "%s: events[%ld]", file, k);
    if (!json_is_object(o)) return dvc_error(DVC_ERR_INPUT, "%s: expected an object", w);
    if ((st = known_keys(o, keys_event, w)) != DVC_OK) return st;
    mpfr_inits2(c->prec, lo, hi, (mpfr_ptr)0);
    {
        char wf[320];
        snprintf(wf, sizeof wf, "%s.t_lo", w);
        st = read_end(lo, json_object_get(o, "t_lo"), 0, wf);
        snprintf(wf, sizeof wf, "%s.t_hi", w);
        if (st == DVC_OK) st = read_end(hi, json_object_get(o, "t_hi"), 1, wf);
    }
    if (st == DVC_OK && mpfr_cmp(lo, hi) > 0)
        st = dvc_error(DVC_ERR_INPUT, "%s: t_lo above t_hi", w);
    if (st == DVC_OK) mpfi_interv_fr(e->t, lo, hi);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    if (st == DVC_OK && (st = dvc_json_need(&j, o, "switch", JSON_STRING, w)) == DVC_OK) {
        e->g = dvc_hybrid_find_switch(c->model, json_string_value(j));
        if (e->g < 0)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'switch': no switching function '%s' in the "
                           "model", w, json_string_value(j));
    }
    if (st == DVC_OK) st = read_mode(&e->mode_before, o, "from", c->model, w);
    if (st == DVC_OK) st = read_mode(&e->mode_after, o, "to", c->model, w);
    if (st == DVC_OK) st = dvc_hybrid_event_json_check_kind(o, c->model, e, w);
    if (st == DVC_OK) {
        snprintf(w, sizeof w, "%s: events[%ld].x", file, k);
        st = read_vec(e->x, json_object_get(o, "x"), w);
    }
    if (st == DVC_OK) {
        snprintf(w, sizeof w, "%s: events[%ld].dphi", file, k);
        st = read_pair(e->dphi, json_object_get(o, "dphi"), w);
    }
    /* a recorded crossing is proven transverse; the other classes stop a run */
    snprintf(w, sizeof w, "%s: events[%ld]", file, k);
    if (st == DVC_OK && (st = dvc_json_need(&j, o, "class", JSON_STRING, w)) == DVC_OK) {
        if (strcmp(json_string_value(j), dvc_hybrid_class_name(DVC_HYB_TRANSVERSE)) != 0)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'class': a certified crossing is "
                           "\"transverse\", got \"%s\"", w, json_string_value(j));
        e->cls = DVC_HYB_TRANSVERSE;
    }
    return st;
}

static dvc_status tagged_digest(char out[17], const json_t *root, const char *key, const char *file)
{
    const json_t *j = NULL;
    dvc_status st = dvc_json_need(&j, root, key, JSON_STRING, file);
    if (st != DVC_OK) return st;
    return dvc_json_tagged_digest(out, j, file, key);
}

/* The members before the steps: format to model (the model built). */
dvc_status dvc_hcert_from_head_(dvc_hybrid_cert_t c, json_t *root, const char *file)
{
    const json_t *j = NULL, *meth = NULL, *model = NULL;
    dvc_status st;
    if (!json_is_object(root)) return dvc_error(DVC_ERR_INPUT, "%s: not a JSON object", file);
    if ((st = known_keys(root, keys_root, file)) != DVC_OK) return st;
    if ((st = dvc_json_need(&j, root, "format", JSON_STRING, file)) != DVC_OK) return st;
    if (strcmp(json_string_value(j), HCERT_FORMAT) != 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'format' must be \"%s\"", file, HCERT_FORMAT);
    if ((st = dvc_json_need(&j, root, "version", JSON_INTEGER, file)) != DVC_OK) return st;
    if (json_integer_value(j) != HCERT_VERSION)
        return dvc_error(DVC_ERR_INPUT, "%s: hybrid certificate version %lld, this dvicert reads %d",
                         file, (long long)json_integer_value(j), HCERT_VERSION);
    if ((st = dvc_json_need(&j, root, "generator", JSON_STRING, file)) != DVC_OK) return st;
    c->generator = strdup(json_string_value(j));
    if ((st = dvc_json_need(&j, root, "precision", JSON_INTEGER, file)) != DVC_OK) return st;
    if (json_integer_value(j) < 24 || json_integer_value(j) > DVC_CERT_PREC_MAX)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'precision' must be in [24, %d]", file,
                         DVC_CERT_PREC_MAX);
    c->prec = (mpfr_prec_t)json_integer_value(j);
    if ((st = dvc_json_need(&meth, root, "method", JSON_OBJECT, file)) != DVC_OK) return st;
    if ((st = known_keys(meth, keys_method, "field 'method'")) != DVC_OK) return st;
    if ((st = dvc_json_need(&j, meth, "order", JSON_INTEGER, "field 'method'")) != DVC_OK) return st;
    c->order = (int)json_integer_value(j);
    if ((st = dvc_json_need(&j, meth, "guard_bits", JSON_INTEGER, "field 'method'")) != DVC_OK) return st;
    c->guard_bits = (long)json_integer_value(j);
    if ((st = dvc_json_need(&j, meth, "h", JSON_STRING, "field 'method'")) != DVC_OK) return st;
    {
        char *end;
        c->h = strtod(json_string_value(j), &end);
        if (*end != '\0' || end == json_string_value(j))
            return dvc_error(DVC_ERR_INPUT, "%s: field 'method.h' must be a hexadecimal double", file);
    }
    c->revision = 1; /* certificates from before the key */
    if ((j = json_object_get(meth, "revision"))) {
        if (!json_is_integer(j) || json_integer_value(j) < 1 || json_integer_value(j) > DVC_HYBRID_REVISION)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'method.revision' must be an integer from 1 to %d "
                             "(the engine revisions this dvicert knows; absent: 1)", file,
                             DVC_HYBRID_REVISION);
        c->revision = (int)json_integer_value(j);
    }
    if ((st = tagged_digest(c->model_digest, root, "model_digest", file)) != DVC_OK) return st;
    if ((st = dvc_json_need(&model, root, "model", JSON_OBJECT, file)) != DVC_OK) return st;
    if ((st = dvc_json_digest(c->model_digest_read, model)) != DVC_OK) return st;
    c->model_json = json_dumps(model, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!c->generator || !c->model_json) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    {
        char name[300];
        snprintf(name, sizeof name, "%s: embedded model", file);
        /* the events route embeds its problem, not the model */
        if (dvc_events_cert_is_events_(model)) st = dvc_events_cert_model_(c->model, model, name, c->prec);
        else st = dvc_hybrid_from_json(c->model, model, name, c->prec);
        c->have_model = 1;
        if (st != DVC_OK) return st;
        if ((st = dvc_hybrid_set_revision(c->model, c->revision)) != DVC_OK) /* remade as made */
            return st;
    }
    return DVC_OK;
}

/* The summary and the stated digest (the digest of the text is the caller's). */
dvc_status dvc_hcert_from_tail_(dvc_hybrid_cert_t c, json_t *root, const char *file)
{
    const json_t *j = NULL, *sum = NULL;
    dvc_status st;
    if ((st = dvc_json_need(&sum, root, "summary", JSON_OBJECT, file)) != DVC_OK) return st;
    if ((st = known_keys(sum, keys_summary, "field 'summary'")) != DVC_OK) return st;
    if ((st = dvc_json_need(&j, sum, "steps", JSON_INTEGER, "field 'summary'")) != DVC_OK) return st;
    c->sum_steps = (long)json_integer_value(j);
    if ((st = dvc_json_need(&j, sum, "crossings", JSON_INTEGER, "field 'summary'")) != DVC_OK) return st;
    c->sum_crossings = (long)json_integer_value(j);
    mpfr_init2(c->sum_wT, 64);
    mpfr_init2(c->sum_wev, 64);
    c->have_sum = 1;
    st = read_end(c->sum_wT, json_object_get(sum, "max_width_at_T_upper"), 1,
                  "field 'summary.max_width_at_T_upper'");
    if (st == DVC_OK)
        st = read_end(c->sum_wev, json_object_get(sum, "max_event_width_upper"), 1,
                      "field 'summary.max_event_width_upper'");
    if (st != DVC_OK) return st;
    c->res->certified = 1;
    return tagged_digest(c->digest, root, "digest", file);
}

static dvc_status from_root(dvc_hybrid_cert_t c, json_t *root, const char *file)
{
    const json_t *steps = NULL, *evs = NULL;
    dvc_status st;
    if ((st = dvc_hcert_from_head_(c, root, file)) != DVC_OK) return st;
    if ((st = dvc_json_need(&steps, root, "steps", JSON_ARRAY, file)) != DVC_OK) return st;
    if (json_array_size(steps) < 2)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'steps' needs at least two grid points", file);
    st = dvc_hcert_result_alloc_(c->res, (long)json_array_size(steps) - 1, c->model->n, c->prec);
    if (st != DVC_OK) return st;
    for (long i = 0; st == DVC_OK && i < (long)json_array_size(steps); i++)
        st = dvc_hcert_read_step_(c, c->res, json_array_get(steps, (size_t)i), i, i, file);
    if (st != DVC_OK) return st;
    if ((st = dvc_json_need(&evs, root, "events", JSON_ARRAY, file)) != DVC_OK) return st;
    {
        long ne = (long)json_array_size(evs);
        c->res->ev = calloc((size_t)(ne > 0 ? ne : 1), sizeof *c->res->ev);
        if (!c->res->ev) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        c->res->aevents = ne > 0 ? ne : 1;
        for (long k = 0; k < ne; k++) {
            dvc_hybrid_event *e = &c->res->ev[k];
            mpfi_init2(e->t, c->prec);
            mpfi_init2(e->dphi, c->prec);
            dvc_ivec_init2(e->x, c->model->n, c->prec);
            c->res->nevents = k + 1;
            st = dvc_hcert_read_event_(c, e, json_array_get(evs, (size_t)k), k, file);
            if (st != DVC_OK) return st;
        }
    }
    if ((st = dvc_hcert_from_tail_(c, root, file)) != DVC_OK) return st;
    return dvc_json_digest_root(c->digest_read, root);
}

dvc_status dvc_hybrid_cert_read(dvc_hybrid_cert_t c, const char *path)
{
    json_t *root;
    dvc_status st;
    dvc_hybrid_cert_clear(c);
    dvc_hybrid_cert_init(c);
    if ((st = dvc_json_load(&root, path)) != DVC_OK) return st;
    st = from_root(c, root, path);
    json_decref(root);
    return st;
}

/* ---- streamed enclose and write ---------------------------------------- */

/* The certificate written while the engine runs (docs/formats.md "Hybrid
 * certificates"): the same bytes as dvc_hybrid_cert_write, with each grid
 * point written when the engine pushes it and then dropped, so memory does
 * not grow with the steps. The digest is FNV-1a over the sorted compact
 * rendering, where the events come before the steps: the steps' sorted
 * renderings wait in a spool file until the events are known. */
typedef struct {
    dvc_hybrid_cert_struct *c;
    FILE *out, *spool;
    FILE *evout, *evspool; /* the events as in the file and in digest form */
    mpfr_t wev;            /* the widest event time (64 bits, up) */
    int fail;
} hyb_stream;

static void sput(hyb_stream *w, FILE *f, const char *s)
{
    if (!s || fputs(s, f) < 0) w->fail = 1;
}

static void sput_json(hyb_stream *w, FILE *f, const json_t *v, size_t flags)
{
    char *s = json_dumps(v, flags | JSON_ENCODE_ANY | JSON_COMPACT);
    sput(w, f, s);
    free(s);
}

/* "  \"key\": value" of the file's top level (first: without ",\n" before). */
static void sput_member(hyb_stream *w, const char *key, const json_t *val, int first)
{
    json_t *k = json_string(key);
    sput(w, w->out, first ? "  " : ",\n  ");
    sput_json(w, w->out, k, JSON_PRESERVE_ORDER);
    json_decref(k);
    sput(w, w->out, ": ");
    if (val) sput_json(w, w->out, val, JSON_PRESERVE_ORDER);
}

/* Item k of an array (o, taken over): its line in the file's form to f,
 * its digest form to spool. */
static dvc_status stream_item(hyb_stream *w, json_t *o, long k, FILE *f, FILE *spool)
{
    if (!o) return dvc_error(DVC_ERR_NOMEM, "out of memory while writing the certificate");
    sput(w, f, k > 0 ? ",\n    " : "    ");
    sput_json(w, f, o, JSON_PRESERVE_ORDER);
    if (k > 0) sput(w, spool, ",");
    sput_json(w, spool, o, JSON_SORT_KEYS);
    json_decref(o);
    return w->fail ? dvc_error(DVC_ERR_IO, "cannot write the certificate") : DVC_OK;
}

static dvc_status stream_point(const dvc_hybrid_result_struct *r, long i, void *ctx)
{
    hyb_stream *w = ctx;
    if (i == 0) { /* the header, once the run has set the method fields */
        json_error_t err;
        json_t *model = json_loads(w->c->model_json, 0, &err), *root, *val;
        const char *key;
        int first = 1;
        root = model ? header_root(w->c, model, NULL) : NULL;
        json_decref(model);
        if (!root) return dvc_error(DVC_ERR_NOMEM, "out of memory while writing the certificate");
        sput(w, w->out, "{\n");
        json_object_foreach(root, key, val) {
            sput_member(w, key, val, first);
            first = 0;
        }
        json_decref(root);
        sput_member(w, "steps", NULL, 0);
        sput(w, w->out, "[\n");
    }
    return stream_item(w, step_json(w->c, r, i), i, w->out, w->spool);
}

static dvc_status stream_event(const dvc_hybrid_result_struct *r, long k, void *ctx)
{
    hyb_stream *w = ctx;
    const dvc_hybrid_event *e = &r->ev[k - r->ev_base];
    mpfr_t d;
    dvc_status st = stream_item(w, event_json(w->c, e), k, w->evout, w->evspool);
    if (st != DVC_OK) return st;
    /* the summary's and the report's figures (cert_hybrid.c, cli) */
    mpfr_init2(d, 64);
    mpfr_sub(d, &e->t->right, &e->t->left, MPFR_RNDU);
    mpfr_max(w->wev, w->wev, d, MPFR_RNDU);
    if (k == 0) w->c->ev_width_first = mpfr_get_d(d, MPFR_RNDU);
    if (mpfr_get_d(d, MPFR_RNDU) > w->c->ev_width_max) w->c->ev_width_max = mpfr_get_d(d, MPFR_RNDU);
    mpfr_clear(d);
    return w->fail ? dvc_error(DVC_ERR_IO, "cannot write the certificate") : DVC_OK;
}

/* Hashes (h non-NULL) or copies (to non-NULL) the whole of spool f. */
static void spool_drain(hyb_stream *w, FILE *f, uint64_t *h, FILE *to)
{
    char buf[65536];
    size_t got;
    if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0) w->fail = 1;
    while (!w->fail && (got = fread(buf, 1, sizeof buf, f)) > 0) {
        if (h) dvc_fnv_update(h, buf, got);
        if (to && fwrite(buf, 1, got, to) != got) w->fail = 1;
    }
    if (ferror(f)) w->fail = 1;
}

/* Hashes text from a to b (b NULL: to its end). */
static void fnv_span(uint64_t *h, const char *a, const char *b)
{
    dvc_fnv_update(h, a, b ? (size_t)(b - a) : strlen(a));
}

/* The events, the summary and the digest after the last step; the digest
 * is hashed in its own order as they are written: the sorted rendering of
 * the members with "events":[] and "steps":[] standing for the events
 * (hashed one by one) and the spool. */
static dvc_status stream_finish(hyb_stream *w)
{
    const dvc_hybrid_cert_struct *c = w->c;
    const dvc_hybrid_result_struct *r = c->res;
    json_error_t err;
    json_t *model = json_loads(c->model_json, 0, &err), *root = model ? header_root(c, model, NULL) : NULL;
    json_t *sum = summary_json(r, w->wev), *tag;
    char *text = NULL, *ev_at, *st_at = NULL, dg[40];
    uint64_t h = DVC_FNV_OFFSET;
    json_decref(model);
    if (root && sum) {
        json_object_set_new(root, "events", json_array());
        json_object_set_new(root, "steps", json_array());
        json_object_set(root, "summary", sum);
        text = json_dumps(root, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    }
    json_decref(root);
    /* "events" sorts first; "steps" after the model (the last occurrence) */
    ev_at = text && !strncmp(text, "{\"events\":[]", 12) ? text + 11 : NULL;
    for (char *p = text ? strstr(text, "\"steps\":[]") : NULL; p; p = strstr(p + 1, "\"steps\":[]")) st_at = p;
    if (!ev_at || !st_at) {
        free(text);
        json_decref(sum);
        return dvc_error(DVC_ERR_NOMEM, "out of memory while writing the certificate");
    }
    st_at += strlen("\"steps\":[");
    sput(w, w->out, "\n  ]");
    sput_member(w, "events", NULL, 0);
    sput(w, w->out, "[\n");
    spool_drain(w, w->evout, NULL, w->out);
    sput(w, w->out, r->nevents > 0 ? "\n  ]" : "  ]");
    sput_member(w, "summary", sum, 0);
    json_decref(sum);
    fnv_span(&h, text, ev_at);
    spool_drain(w, w->evspool, &h, NULL);
    fnv_span(&h, ev_at, st_at);
    spool_drain(w, w->spool, &h, NULL);
    fnv_span(&h, st_at, NULL);
    free(text);
    snprintf(dg, sizeof dg, "fnv1a64:%016llx", (unsigned long long)h);
    tag = json_string(dg);
    sput_member(w, "digest", tag, 0);
    json_decref(tag);
    sput(w, w->out, "\n}\n");
    return w->fail ? dvc_error(DVC_ERR_IO, "cannot write the certificate") : DVC_OK;
}

dvc_status dvc_hybrid_cert_enclose_write(dvc_hybrid_cert_t c, const char *path, mpfr_prec_t prec,
                                         const char *out)
{
    hyb_stream w = {c, NULL, tmpfile(), tmpfile(), tmpfile(), {{0}}, 0};
    dvc_outfile of;
    dvc_status st = DVC_OK;
    memset(&of, 0, sizeof of);
    mpfr_init2(w.wev, 64);
    mpfr_set_ui(w.wev, 0, MPFR_RNDN);
    c->ev_width_first = c->ev_width_max = 0;
    if (!w.spool || !w.evout || !w.evspool)
        st = dvc_error(DVC_ERR_IO, "%s: cannot create a temporary file", out);
    if (st == DVC_OK) st = dvc_outfile_open(&of, out);
    /* stdout or a device is written only once the run reached T: through
     * a temporary file of its own (nothing partial is ever written) */
    if (st == DVC_OK && !of.tmp && !(w.out = tmpfile()))
        st = dvc_error(DVC_ERR_IO, "%s: cannot create a temporary file", out);
    if (st == DVC_OK) {
        if (of.tmp) w.out = of.f;
        c->res->sink = stream_point;
        c->res->ev_sink = stream_event;
        c->res->sink_ctx = &w;
        st = dvc_hybrid_cert_enclose(c, path, prec);
        c->res->sink = NULL;
        c->res->ev_sink = NULL;
        c->res->sink_ctx = NULL;
    }
    if (st == DVC_OK) st = stream_finish(&w);
    if (st == DVC_OK && !of.tmp) { /* the whole text, now */
        char buf[65536];
        size_t got;
        if (fflush(w.out) != 0 || fseek(w.out, 0, SEEK_SET) != 0) w.fail = 1;
        while (!w.fail && (got = fread(buf, 1, sizeof buf, w.out)) > 0)
            if (fwrite(buf, 1, got, of.f) != got) w.fail = 1;
        if (w.fail || ferror(w.out)) st = dvc_error(DVC_ERR_IO, "cannot write the certificate");
    }
    if (w.out && !of.tmp) fclose(w.out);
    if (st == DVC_ERR_IO) dvc_error_context(st, "%s: ", out);
    if (st == DVC_OK) st = dvc_outfile_commit(&of);
    dvc_outfile_clear(&of); /* not committed: the temporary file is removed */
    if (w.spool) fclose(w.spool);
    if (w.evout) fclose(w.evout);
    if (w.evspool) fclose(w.evspool);
    mpfr_clear(w.wev);
    return st;
}

/* ---- the writer's layout (src/io/hybrid_cert_verify.c) ------------------ */

static int skel_add(hyb_layout *L, const char *s, size_t len)
{
    if (L->len + len + 1 > L->cap) {
        size_t cap = 2 * (L->len + len + 1);
        char *p = realloc(L->skel, cap);
        if (!p) return 0;
        L->skel = p;
        L->cap = cap;
    }
    memcpy(L->skel + L->len, s, len);
    L->len += len;
    L->skel[L->len] = '\0';
    return 1;
}

/* The value of item line "    {...}" or "    {...}," (*comma: the latter),
 * or NULL when the line is not one. */
json_t *dvc_hcert_item_line_(const char *line, size_t len, int *comma)
{
    json_error_t err;
    if (len > 0 && line[len - 1] == '\n') len--;
    if (len < 6 || strncmp(line, "    {", 5) != 0) return NULL;
    *comma = line[len - 1] == ',';
    return json_loadb(line + 4, len - 4 - (size_t)*comma, JSON_REJECT_DUPLICATES, &err);
}

/* 1 when a line of the skeleton is one whole member of the top level */
static int member_line(const char *line, size_t len)
{
    json_t *o;
    if (len > 0 && line[len - 1] == '\n') len--;
    if (len > 0 && line[len - 1] == ',') len--;
    if (len < 4 || strncmp(line, "  \"", 3) != 0) return 0;
    o = dvc_json_load_member(line, len);
    json_decref(o);
    return o != NULL;
}

/* 1 when f has the writer's layout and every item line parses (then the
 * whole text is JSON iff the skeleton is); f is left at its start. */
int dvc_hcert_layout_scan_(FILE *f, hyb_layout *L)
{
    static const char *const open[2] = {"  \"steps\": [\n", "  \"events\": [\n"};
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int a = -1, seen[2] = {0, 0}, comma = 0, ok = 1, lineno = 0, closed = 0;
    memset(L, 0, sizeof *L);
    while (ok && (got = getline(&line, &cap, f)) > 0) {
        size_t len = (size_t)got;
        lineno++;
        if (closed) ok = 0; /* text after the closing brace */
        else if (a >= 0 && line[0] == ' ' && line[1] == ' ' && line[2] == ' ') {
            json_t *v = dvc_hcert_item_line_(line, len, &comma);
            ok = v != NULL && (L->n[a] == 0 || L->prevcomma);
            json_decref(v);
            L->prevcomma = comma;
            L->n[a]++;
        } else if (a >= 0) {
            ok = (!strcmp(line, "  ]\n") || !strcmp(line, "  ],\n")) && (L->n[a] == 0 || !L->prevcomma) &&
                 skel_add(L, line, len);
            a = -1;
        } else if (lineno == 1) {
            ok = !strcmp(line, "{\n") && skel_add(L, line, len);
        } else if (!strcmp(line, "}\n")) {
            ok = skel_add(L, line, len);
            closed = 1;
        } else if (!strcmp(line, open[0]) || !strcmp(line, open[1])) {
            a = !strcmp(line, open[1]);
            ok = !seen[a] && skel_add(L, line, len);
            seen[a] = 1;
            L->off[a] = ftell(f);
            L->prevcomma = 0;
        } else {
            ok = member_line(line, len) && skel_add(L, line, len);
        }
    }
    free(line);
    ok = ok && closed && seen[0] && seen[1] && !ferror(f) && fseek(f, 0, SEEK_SET) == 0;
    if (!ok) free(L->skel);
    if (!ok) L->skel = NULL;
    return ok;
}
