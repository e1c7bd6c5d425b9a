/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate files (JSON, docs/formats.md): reading into and writing from
 * the in-memory certificates of src/cert.c, and enclose from a problem
 * file. The only certificate code that knows JSON and files. */
#include "dvicert/certio.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"
#include "io/problem_json.h"
#include "cert_json.h"

#define CERT_FORMAT "dvicert-certificate"
#define CERT_VERSION 1
/* Digits of the stated decimals (src/cert.c) */
#define CERT_DIGITS 12

dvc_status dvc_io_problem_from_text(dvc_dlvi_problem_t p, const char *text, const char *name,
                                    mpfr_prec_t prec)
{
    json_error_t err;
    json_t *obj = json_loads(text, 0, &err);
    dvc_status st;
    if (!obj) return dvc_error(DVC_ERR_INPUT, "%s: malformed JSON: %s", name, err.text);
    st = dvc_problem_from_json(p, NULL, obj, name, NULL, prec);
    json_decref(obj);
    return st;
}

dvc_status dvc_cert_problem(dvc_dlvi_problem_t p, const dvc_cert_t c)
{
    if (!c->problem_json) return dvc_error(DVC_ERR_INPUT, "certificate without a problem");
    return dvc_io_problem_from_text(p, c->problem_json, "embedded problem", c->prec);
}

static dvc_status digest_root(char buf[17], json_t *root)
{
    /* digest of everything but the digest field itself */
    json_t *copy = json_copy(root);
    dvc_status st;
    if (!copy) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    json_object_del(copy, "digest");
    st = dvc_problem_digest(buf, copy);
    json_decref(copy);
    return st;
}


static json_t *hex(double d)
{
    char buf[40];
    dvc_double_hex(buf, d);
    return json_string(buf);
}

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

static json_t *steps_arr(const dvc_cert_t c)
{
    json_t *arr = json_array();
    const dvc_tube_struct *tb = c->tube;
    for (long i = 0; i <= c->N; i++) {
        json_t *s = json_object(), *xs = json_array(), *ys = json_array(), *yh = json_array();
        char buf[40];
        if (c->labels) snprintf(buf, sizeof buf, "%s", c->labels[i]);
        else dvc_cert_time_label(buf, tb->T, c->N, i);
        json_object_set_new(s, "t", json_string(buf));
        for (long j = 0; j < c->n; j++) json_array_append_new(xs, hex(tb->x[i * c->n + j]));
        for (long k = 0; k < c->m; k++) {
            json_t *pair = json_array();
            json_array_append_new(ys, hex(tb->y[i * c->m + k]));
            json_array_append_new(pair, dec(tb->yhat_lo[i * c->m + k], 0));
            json_array_append_new(pair, dec(tb->yhat_hi[i * c->m + k], 1));
            json_array_append_new(yh, pair);
        }
        json_object_set_new(s, "x", xs);
        json_object_set_new(s, "y", ys);
        json_object_set_new(s, "eps_x", dec(tb->eps_x[i], 1));
        json_object_set_new(s, "eps_y", dec(tb->eps_y[i], 1));
        json_object_set_new(s, "yhat", yh);
        if (i >= 1) json_object_set_new(s, "ry", dec(tb->ry[i], 1));
        json_array_append_new(arr, s);
    }
    return arr;
}

static json_t *build_root(const dvc_cert_t c)
{
    json_t *root = json_object(), *problem;
    json_error_t err;
    char dg[17], tagged[32];
    problem = json_loads(c->problem_json ? c->problem_json : "", 0, &err);
    if (!problem || dvc_problem_digest(dg, problem) != DVC_OK) {
        json_decref(problem);
        json_decref(root);
        return NULL;
    }
    snprintf(tagged, sizeof tagged, "fnv1a64:%s", dg);
    json_object_set_new(root, "format", json_string(CERT_FORMAT));
    json_object_set_new(root, "version", json_integer(CERT_VERSION));
    json_object_set_new(root, "generator", json_string(c->generator ? c->generator : "dvicert"));
    json_object_set_new(root, "precision", json_integer((json_int_t)c->prec));
    json_object_set_new(root, "method", claims_obj(&c->method));
    json_object_set_new(root, "summary", claims_obj(&c->summary));
    json_object_set_new(root, "problem_digest", json_string(tagged));
    json_object_set_new(root, "problem", problem);
    json_object_set_new(root, "steps", steps_arr(c));
    if (digest_root(dg, root) != DVC_OK) {
        json_decref(root);
        return NULL;
    }
    snprintf(tagged, sizeof tagged, "fnv1a64:%s", dg);
    json_object_set_new(root, "digest", json_string(tagged));
    return root;
}

/* ---- reading ------------------------------------------------------------ */

static dvc_status need(const json_t **out, const json_t *obj, const char *key, json_type ty,
                       const char *where)
{
    const json_t *j = json_object_get(obj, key);
    static const char *const names[] = {"an object", "an array", "a string", "an integer",
                                        "a number", "a boolean", "a boolean", "null"};
    if (j == NULL) return dvc_error(DVC_ERR_INPUT, "%s: missing field '%s'", where, key);
    if (json_typeof(j) != ty && !(ty == JSON_TRUE && json_is_boolean(j)))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' must be %s", where, key, names[ty]);
    *out = j;
    return DVC_OK;
}

static dvc_status read_dec(mpfi_t x, const json_t *j, const char *file, long i, const char *field)
{
    if (!json_is_string(j) || dvc_ival_set_str(x, json_string_value(j)) != DVC_OK ||
        strchr(json_string_value(j), '[') || !dvc_ival_is_finite(x))
        return dvc_error(DVC_ERR_INPUT, "%s: step %ld field '%s': expected a finite decimal string",
                         file, i, field);
    return DVC_OK;
}

/* Exact binary64 from a hexadecimal float: [-]0x(0|1)[.h{0,13}]p[+-]d, which
 * strtod converts without rounding, so the stored text is the value used. */
static int is_exact_hex(const char *s)
{
    int nd = 0;
    if (*s == '-') s++;
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (s[2] != '0' && s[2] != '1')) return 0;
    s += 3;
    if (*s == '.')
        for (s++; isxdigit((unsigned char)*s); s++) nd++;
    if (nd > 13 || (*s != 'p' && *s != 'P')) return 0;
    s++;
    if (*s == '+' || *s == '-') s++;
    if (!isdigit((unsigned char)*s)) return 0;
    while (isdigit((unsigned char)*s)) s++;
    return *s == '\0';
}

static dvc_status read_hex(double *d, const json_t *j, const char *file, long i,
                           const char *field, long k)
{
    const char *s;
    char *end;
    if (!json_is_string(j)) goto bad;
    s = json_string_value(j);
    if (!is_exact_hex(s)) goto bad;
    errno = 0;
    *d = strtod(s, &end);
    if (*end != '\0' || !isfinite(*d) || errno == ERANGE)
        goto bad;
    return DVC_OK;
bad:
    return dvc_error(DVC_ERR_INPUT, "%s: step %ld field '%s' entry %ld: expected an exact "
                     "hexadecimal float as written by %%a (e.g. \"0x1.8p+1\")", file, i, field, k + 1);
}

/* The keys a certificate may carry, per object (NULL-terminated). Any other
 * key makes the file unusable, so that nothing that looks like a bound can
 * ride along unchecked; keys starting with '_' are free-text notes (covered
 * by the digest, never read). */
static const char *const keys_root[] = {"format", "version", "generator", "precision", "method",
                                        "summary", "problem_digest", "problem", "steps", "digest",
                                        NULL};
static const char *const keys_method[] = {"scheme", "N", "h_lo", "h_hi", "theta", "sharpen", NULL};
static const char *const keys_summary[] = {"theorem", "P_matrix", "beta_M_upper", "beta_M_lower",
                                           "beta_method", "norm_A_upper", "norm_B_upper",
                                           "norm_Q_upper", "L_upper", "h_max_lower",
                                           "step_condition", "max_eps_x", "max_eps_y",
                                           "eps_x_at_T", "steps_sharpened", "precision_bits",
                                           "norm", NULL};
static const char *const keys_step[] = {"t", "x", "y", "eps_x", "eps_y", "yhat", "ry", NULL};

static dvc_status known_keys(const json_t *obj, const char *const *allowed, const char *file,
                             const char *where)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        int ok = key[0] == '_';
        for (const char *const *a = allowed; !ok && *a; a++) ok = strcmp(key, *a) == 0;
        if (!ok)
            return dvc_error(DVC_ERR_INPUT, "%s: %sunknown key '%s' (a certificate carries only "
                             "the keys of docs/formats.md; notes go in keys starting with '_')",
                             file, where, key);
    }
    return DVC_OK;
}

/* method / summary object -> claims: strings, integers and booleans only */
static dvc_status read_claims(dvc_cert_claims *cl, const json_t *obj, const char *file,
                              const char *field)
{
    const char *key;
    json_t *v;
    dvc_status st = DVC_OK;
    json_object_foreach((json_t *)obj, key, v) {
        if (key[0] == '_') continue; /* a note */
        if (json_is_string(v)) st = dvc_cert_claims_add_(cl, key, DVC_CLAIM_TEXT, json_string_value(v), 0);
        else if (json_is_integer(v))
            st = dvc_cert_claims_add_(cl, key, DVC_CLAIM_INT, NULL, (long long)json_integer_value(v));
        else if (json_is_boolean(v)) st = dvc_cert_claims_add_(cl, key, DVC_CLAIM_BOOL, NULL, json_is_true(v));
        else
            st = dvc_error(DVC_ERR_INPUT, "%s: field '%s' entry '%s' must be a string, an integer or "
                           "a boolean", file, field, key);
        if (st != DVC_OK) break;
    }
    return st;
}

static dvc_status tagged_digest(char out[17], const json_t *j, const char *file, const char *field)
{
    if (strncmp(json_string_value(j), "fnv1a64:", 8) != 0 || strlen(json_string_value(j)) != 24)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' must be fnv1a64:<16 hex digits>", file, field);
    memcpy(out, json_string_value(j) + 8, 17);
    return DVC_OK;
}

static dvc_status from_root(dvc_cert_t c, json_t *root, const char *file)
{
    const json_t *j, *steps, *prob, *method, *summary;
    dvc_status st;
    dvc_dlvi_problem_t p;
    dvc_cert_clear(c);
    dvc_cert_init(c);
    if (!json_is_object(root)) return dvc_error(DVC_ERR_INPUT, "%s: not a JSON object", file);
    if ((st = known_keys(root, keys_root, file, "")) != DVC_OK) return st;
    if ((st = need(&j, root, "format", JSON_STRING, file)) != DVC_OK) return st;
    if (strcmp(json_string_value(j), CERT_FORMAT) != 0)
        return dvc_error(DVC_ERR_INPUT, "%s: not a dvicert certificate (format '%s')", file,
                         json_string_value(j));
    if ((st = need(&j, root, "version", JSON_INTEGER, file)) != DVC_OK) return st;
    if (json_integer_value(j) != CERT_VERSION)
        return dvc_error(DVC_ERR_INPUT, "%s: certificate version %lld, this dvicert reads %d", file,
                         (long long)json_integer_value(j), CERT_VERSION);
    if ((j = json_object_get(root, "generator")) != NULL) {
        if (!json_is_string(j)) return dvc_error(DVC_ERR_INPUT, "%s: field 'generator' must be a string", file);
        c->generator = strdup(json_string_value(j));
    }
    if ((st = need(&j, root, "precision", JSON_INTEGER, file)) != DVC_OK) return st;
    if (json_integer_value(j) < 24 || json_integer_value(j) > DVC_CERT_PREC_MAX)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'precision': %lld bits is outside [24, %d] (the "
                         "cost of verify grows with the precision; larger ones are refused)", file,
                         (long long)json_integer_value(j), DVC_CERT_PREC_MAX);
    c->prec = (mpfr_prec_t)json_integer_value(j);
    if ((st = need(&method, root, "method", JSON_OBJECT, file)) != DVC_OK) return st;
    if ((st = need(&summary, root, "summary", JSON_OBJECT, file)) != DVC_OK) return st;
    if ((st = known_keys(method, keys_method, file, "field 'method': ")) != DVC_OK) return st;
    if ((st = known_keys(summary, keys_summary, file, "field 'summary': ")) != DVC_OK) return st;
    if ((st = need(&j, method, "sharpen", JSON_TRUE, file)) != DVC_OK) return st;
    c->sharpen = json_is_true(j);
    if ((st = read_claims(&c->method, method, file, "method")) != DVC_OK) return st;
    if ((st = read_claims(&c->summary, summary, file, "summary")) != DVC_OK) return st;
    if ((st = need(&j, root, "problem_digest", JSON_STRING, file)) != DVC_OK) return st;
    if ((st = tagged_digest(c->problem_digest, j, file, "problem_digest")) != DVC_OK) return st;
    if ((st = need(&j, root, "digest", JSON_STRING, file)) != DVC_OK) return st;
    if ((st = tagged_digest(c->digest, j, file, "digest")) != DVC_OK) return st;
    if ((st = need(&prob, root, "problem", JSON_OBJECT, file)) != DVC_OK) return st;
    /* what verify compares the stated digests with */
    if ((st = dvc_problem_digest(c->problem_digest_read, prob)) != DVC_OK) return st;
    if ((st = digest_root(c->digest_read, root)) != DVC_OK) return st;
    c->problem_json = json_dumps(prob, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!c->problem_json) return dvc_error(DVC_ERR_NOMEM, "out of memory");

    /* dimensions and T from the embedded problem (self-contained) */
    dvc_dlvi_problem_init(p, 0, 0, 0);
    {
        char name[512];
        snprintf(name, sizeof name, "%s: embedded problem", file);
        st = dvc_problem_from_json(p, NULL, prob, name, NULL, c->prec);
    }
    if (st == DVC_OK) {
        c->n = p->n;
        c->m = p->m;
        c->N = p->N;
        st = dvc_tube_alloc(c->tube, c->n, c->m, c->N, p->T, c->prec);
        /* the admissible box of y: [l.lo, u.hi] */
        if (st == DVC_OK) st = dvc_tube_set_ybox(c->tube, p->l, p->u);
    }
    dvc_dlvi_problem_clear(p);
    if (st != DVC_OK) return st;

    if ((st = need(&steps, root, "steps", JSON_ARRAY, file)) != DVC_OK) return st;
    if ((long)json_array_size(steps) != c->N + 1)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'steps' has %ld entries, the problem has N + 1 = %ld",
                         file, (long)json_array_size(steps), c->N + 1);
    c->labels = calloc((size_t)(c->N + 1), sizeof *c->labels);
    if (!c->labels) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; i <= c->N; i++) {
        const json_t *s = json_array_get(steps, (size_t)i), *xs, *ys, *yh;
        dvc_tube_struct *tb = c->tube;
        char where[512];
        if (!json_is_object(s))
            return dvc_error(DVC_ERR_INPUT, "%s: step %ld must be an object", file, i);
        snprintf(where, sizeof where, "%s: step %ld", file, i);
        {
            char w2[64];
            snprintf(w2, sizeof w2, "step %ld: ", i);
            if ((st = known_keys(s, keys_step, file, w2)) != DVC_OK) return st;
        }
        if ((st = need(&j, s, "t", JSON_STRING, where)) != DVC_OK) return st;
        if (!(c->labels[i] = strdup(json_string_value(j)))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        if ((st = need(&xs, s, "x", JSON_ARRAY, where)) != DVC_OK) return st;
        if ((st = need(&ys, s, "y", JSON_ARRAY, where)) != DVC_OK) return st;
        if ((st = need(&yh, s, "yhat", JSON_ARRAY, where)) != DVC_OK) return st;
        if ((long)json_array_size(xs) != c->n || (long)json_array_size(ys) != c->m ||
            (long)json_array_size(yh) != c->m)
            return dvc_error(DVC_ERR_INPUT, "%s: fields 'x', 'y', 'yhat' must have %ld, %ld, %ld entries",
                             where, c->n, c->m, c->m);
        for (long k = 0; k < c->n; k++)
            if ((st = read_hex(&tb->x[i * c->n + k], json_array_get(xs, (size_t)k), file, i, "x", k)) != DVC_OK)
                return st;
        for (long k = 0; k < c->m; k++) {
            const json_t *pair = json_array_get(yh, (size_t)k);
            if ((st = read_hex(&tb->y[i * c->m + k], json_array_get(ys, (size_t)k), file, i, "y", k)) != DVC_OK)
                return st;
            if (!json_is_array(pair) || json_array_size(pair) != 2)
                return dvc_error(DVC_ERR_INPUT, "%s: field 'yhat' entry %ld must be [lo, hi]", where, k + 1);
            if ((st = read_dec(tb->yhat_lo[i * c->m + k], json_array_get(pair, 0), file, i, "yhat")) != DVC_OK ||
                (st = read_dec(tb->yhat_hi[i * c->m + k], json_array_get(pair, 1), file, i, "yhat")) != DVC_OK)
                return st;
            if (mpfr_cmp(&tb->yhat_lo[i * c->m + k]->left, &tb->yhat_hi[i * c->m + k]->right) > 0)
                return dvc_error(DVC_ERR_INPUT, "%s: field 'yhat' entry %ld: lo > hi", where, k + 1);
        }
        if ((st = read_dec(tb->eps_x[i], json_object_get(s, "eps_x"), file, i, "eps_x")) != DVC_OK) return st;
        if ((st = read_dec(tb->eps_y[i], json_object_get(s, "eps_y"), file, i, "eps_y")) != DVC_OK) return st;
        if (mpfr_sgn(&tb->eps_x[i]->right) < 0 || mpfr_sgn(&tb->eps_y[i]->right) < 0)
            return dvc_error(DVC_ERR_INPUT, "%s: negative bound", where);
        if (i >= 1) {
            if ((st = read_dec(tb->ry[i], json_object_get(s, "ry"), file, i, "ry")) != DVC_OK) return st;
            if (mpfr_sgn(&tb->ry[i]->right) < 0) return dvc_error(DVC_ERR_INPUT, "%s: negative bound", where);
        } else {
            mpfi_set_ui(tb->ry[0], 0);
        }
    }
    return DVC_OK;
}

dvc_status dvc_cert_read(dvc_cert_t c, const char *path)
{
    json_t *root;
    dvc_status st = dvc_json_load(&root, path);
    if (st != DVC_OK) return st;
    st = from_root(c, root, path);
    json_decref(root);
    return st;
}

/* ---- enclose / write ---------------------------------------------------- */

/* One attempt at precision prec (0: the file's). */
static dvc_status enclose_at(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec, int sharpen,
                             const dvc_table_policy *tables, mpfr_prec_t *used)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    json_t *resolved = NULL;
    dvc_status st;
    mpfr_prec_t saved = dvc_prec_get();
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
    dvc_dlvi_opts_default(&o);
    o.sharpen = sharpen;
    o.prec = p->prec;
    o.progress = 1;
    dvc_prec_set(p->prec);
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, &o);
    if (st == DVC_OK) {
        /* the problem as given, tables included: the certificate's copy */
        char *text = json_dumps(resolved, JSON_COMPACT | JSON_PRESERVE_ORDER);
        if (!text) st = dvc_error(DVC_ERR_NOMEM, "cannot build the certificate");
        else st = dvc_cert_from_result(c, p, text, r);
        free(text);
    }
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    json_decref(resolved);
    dvc_prec_set(saved);
    return st;
}

dvc_status dvc_cert_enclose(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec, int sharpen)
{
    return dvc_cert_enclose_retry(c, problem_path, prec, 0, sharpen);
}

/* The retry is done here rather than with the engine's opts.prec_max: the
 * engine would keep the problem's data (decimal enclosures, tables) at the
 * start precision while verify rebuilds them at the certificate's, so the
 * two runs would not see the same numbers. */
dvc_status dvc_cert_enclose_retry(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec,
                                  mpfr_prec_t prec_max, int sharpen)
{
    return dvc_cert_enclose_tables(c, problem_path, prec, prec_max, sharpen, NULL);
}

dvc_status dvc_cert_enclose_tables(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec,
                                   mpfr_prec_t prec_max, int sharpen, const dvc_table_policy *tables)
{
    mpfr_prec_t used = 0, start;
    char tried[256] = "";
    dvc_status st = enclose_at(c, problem_path, prec, sharpen, tables, &used);
    start = used;
    c->prec_start = start;
    c->retry_reason[0] = '\0';
    while (st == DVC_NOT_CERTIFIED && used > 0 && 2 * used <= prec_max &&
           2 * used <= DVC_CERT_PREC_MAX) {
        size_t len = strlen(tried);
        snprintf(tried + len, sizeof tried - len, "%s%ld", len ? ", " : "", (long)used);
        snprintf(c->retry_reason, sizeof c->retry_reason, "%s", dvc_error_message());
        st = enclose_at(c, problem_path, 2 * used, sharpen, tables, &used);
    }
    c->prec_start = start;
    if (st == DVC_NOT_CERTIFIED && tried[0])
        return dvc_error_context(st, "precision raised from %s to %ld bits (--prec-max) without "
                                 "success; at %ld bits: ", tried, (long)used, (long)used);
    if (st != DVC_OK) c->retry_reason[0] = '\0';
    return st;
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
        json_t *k = json_string(key);
        char *ks = json_dumps(k, JSON_ENCODE_ANY);
        json_decref(k);
        fail |= append(&buf, &len, &cap, first ? "  " : ",\n  ");
        first = 0;
        fail |= ks == NULL || append(&buf, &len, &cap, ks);
        free(ks);
        fail |= append(&buf, &len, &cap, ": ");
        if (strcmp(key, "steps") == 0) {
            size_t i;
            json_t *s;
            fail |= append(&buf, &len, &cap, "[\n");
            json_array_foreach(val, i, s) {
                piece = json_dumps(s, JSON_COMPACT | JSON_PRESERVE_ORDER);
                fail |= piece == NULL || append(&buf, &len, &cap, "    ");
                fail |= piece == NULL || append(&buf, &len, &cap, piece);
                fail |= append(&buf, &len, &cap, i + 1 < json_array_size(val) ? ",\n" : "\n");
                free(piece);
            }
            fail |= append(&buf, &len, &cap, "  ]");
        } else {
            piece = json_dumps(val, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER | JSON_COMPACT);
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

