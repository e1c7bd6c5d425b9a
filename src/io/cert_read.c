/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Reading certificate files (JSON, docs/formats.md) into the in-memory
 * certificates of src/cert.c: whole (jansson), or streamed step by step in
 * memory independent of N (the layout dvicert writes, scanned without
 * jansson), verified in lockstep when asked. The writer is cert_json.c;
 * what both share is in cert_rw.h. */
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
#include "io/cert_grid.h"
#include "io/cert_gridrd.h"
#include "io/hybrid_json.h"
#include "io/json.h"
#include "io/problem_json.h"
#include "cert_json.h"
#include "cert_rw.h"

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

/* The embedded problem's text, its grid on demand while streamed. */
static dvc_status cert_problem_text(dvc_dlvi_problem_t p, const dvc_cert_t c)
{
    json_error_t err;
    json_t *obj;
    dvc_status st;
    if (!c->grid_rd) return dvc_io_problem_from_text(p, c->problem_json, "embedded problem", c->prec);
    if (!(obj = json_loads(c->problem_json, 0, &err)))
        return dvc_error(DVC_ERR_INPUT, "embedded problem: malformed JSON: %s", err.text);
    st = dvc_cert_gridrd_problem(p, obj, "embedded problem", c->prec, c->grid_rd);
    json_decref(obj);
    return st;
}

dvc_status dvc_cert_problem(dvc_dlvi_problem_t p, const dvc_cert_t c)
{
    if (!c->problem_json) return dvc_error(DVC_ERR_INPUT, "certificate without a problem");
    return cert_problem_text(p, c);
}

/* The embedded problem for a verification: its digest first (an edited
 * problem is rejected, not parsed), then p built at c's precision; a
 * problem that does not build is unusable, not rejected. */
static dvc_status verify_problem(dvc_dlvi_problem_t p, const dvc_cert_t c)
{
    dvc_status st = dvc_cert_problem_digest_(c);
    if (st != DVC_OK) return st;
    st = cert_problem_text(p, c);
    return st == DVC_NOT_CERTIFIED ? DVC_ERR_INPUT : st;
}

dvc_status dvc_cert_verify(const dvc_cert_t c)
{
    dvc_dlvi_problem_t p;
    dvc_status st;
    dvc_dlvi_problem_init(p, 0, 0, 0);
    st = verify_problem(p, c);
    if (st == DVC_OK) st = dvc_cert_verify_problem(c, p);
    dvc_dlvi_problem_clear(p);
    return st;
}

/* s: the text of a JSON string, NULL when the value is not a string */
static dvc_status read_dec_s(mpfi_t x, const char *s, const char *file, long i, const char *field)
{
    if (s && dvc_dec_enclose_fast_(x, s)) return DVC_OK;
    if (!s || dvc_ival_set_str(x, s) != DVC_OK || strchr(s, '[') || !dvc_ival_is_finite(x))
        return dvc_error(DVC_ERR_INPUT, "%s: step %ld field '%s': expected a finite decimal string",
                         file, i, field);
    return DVC_OK;
}

static dvc_status read_dec(mpfi_t x, const json_t *j, const char *file, long i, const char *field)
{
    return read_dec_s(x, json_is_string(j) ? json_string_value(j) : NULL, file, i, field);
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

static dvc_status read_hex_s(double *d, const char *s, const char *file, long i,
                             const char *field, long k)
{
    char *end;
    /* the fast reader accepts exactly is_exact_hex's texts of normal
     * numbers and zeros */
    if (s && dvc_hex_normal_(d, s)) return DVC_OK;
    if (!s || !is_exact_hex(s)) goto bad;
    errno = 0;
    *d = strtod(s, &end);
    if (*end != '\0' || !isfinite(*d) || errno == ERANGE)
        goto bad;
    return DVC_OK;
bad:
    return dvc_error(DVC_ERR_INPUT, "%s: step %ld field '%s' entry %ld: expected an exact "
                     "hexadecimal float as written by %%a (e.g. \"0x1.8p+1\")", file, i, field, k + 1);
}

static dvc_status read_hex(double *d, const json_t *j, const char *file, long i,
                           const char *field, long k)
{
    return read_hex_s(d, json_is_string(j) ? json_string_value(j) : NULL, file, i, field, k);
}

/* The keys a certificate may carry, per object (NULL-terminated). Any other
 * key makes the file unusable, so that nothing that looks like a bound can
 * ride along unchecked; keys starting with '_' are free-text notes (covered
 * by the digest, never read). */
static const char *const keys_root[] = {"format", "version", "generator", "precision", "method",
                                        "summary", "problem_digest", "problem", "steps", "digest",
                                        NULL};
static const char *const keys_method[] = {"scheme", "N", "h_lo", "h_hi", "h_step", "h_last_lo",
                                          "h_last_hi", "theta", "sharpen", "route", "predictor", "pieces",
                                          "lognorm_norm", "lognorm_modes", "x_scale_log2", NULL};
static const char *const keys_summary[] = {"theorem", "P_matrix", "beta_M_upper", "beta_M_lower",
                                           "beta_method", "norm_A_upper", "norm_B_upper",
                                           "norm_Q_upper", "L_upper", "h_max_lower",
                                           "step_condition", "max_eps_x", "max_eps_y",
                                           "eps_x_at_T", "steps_sharpened", "precision_bits",
                                           "norm", "lognorm_norm", "mu_upper",
                                           "c_inf_upper", "c_Q_upper", "mode_norms", "norm_switches",
                                           "steps_error_set", "radius_rel_max_upper",
                                           "radius_rel_at_T_upper", "radius_verdict", NULL};
static const char *const keys_step[] = {"t", "x", "y", "eps_x", "eps_y", "yhat", "ry", NULL};

static dvc_status known_keys(const json_t *obj, const char *const *allowed, const char *file,
                             const char *where)
{
    const char *key;
    json_t *v;
    if (allowed == keys_root && dvc_io_not_a_cert(obj, file) != DVC_OK) return DVC_ERR_INPUT;
    json_object_foreach((json_t *)obj, key, v) {
        int ok = key[0] == '_';
        for (const char *const *a = allowed; !ok && *a; a++) ok = strcmp(key, *a) == 0;
        /* the lognorm route's per-pattern constants mu_pattern_<k>_upper */
        if (!ok && allowed == keys_summary && strncmp(key, "mu_pattern_", 11) == 0 && strlen(key) > 17 &&
            strcmp(key + strlen(key) - 6, "_upper") == 0 && strspn(key + 11, "0123456789") == strlen(key) - 17)
            ok = 1;
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

static dvc_status check_version(const json_t *root, const char *file)
{
    const json_t *j = NULL;
    dvc_status st;
    if ((st = dvc_json_need(&j, root, "version", JSON_INTEGER, file)) != DVC_OK) return st;
    if (json_integer_value(j) != CERT_VERSION)
        return dvc_error(DVC_ERR_INPUT, "%s: certificate version %lld, this dvicert reads %d", file,
                         (long long)json_integer_value(j), CERT_VERSION);
    return DVC_OK;
}

/* Everything a certificate states before its steps: format, version,
 * precision, method, the problem and its digest; the problem gives n, m, N
 * and T, and the tube is allocated with `window` rows (0: all). The
 * digest of the problem is recomputed for verify. */
static dvc_status head_part(dvc_cert_t c, const json_t *root, const char *file, long window,
                            const dvc_cert_gridrd *gr)
{
    dvc_tgrid gg;
    int ondemand = dvc_cert_gridrd_grid(&gg, gr);
    const json_t *j = NULL, *prob = NULL, *method = NULL; /* set by dvc_json_need(), see from_root */
    dvc_status st;
    dvc_dlvi_problem_t p;
    if ((st = known_keys(root, keys_root, file, "")) != DVC_OK) return st;
    if ((st = dvc_json_need(&j, root, "format", JSON_STRING, file)) != DVC_OK) return st;
    if (strcmp(json_string_value(j), CERT_FORMAT) != 0)
        return dvc_error(DVC_ERR_INPUT, "%s: not a dvicert certificate (format '%s')", file,
                         json_string_value(j));
    /* a streamed file may state the version after the steps (tail_part) */
    if (json_object_get(root, "version") && (st = check_version(root, file)) != DVC_OK) return st;
    if ((j = json_object_get(root, "generator")) != NULL) {
        if (!json_is_string(j)) return dvc_error(DVC_ERR_INPUT, "%s: field 'generator' must be a string", file);
        free(c->generator);
        c->generator = strdup(json_string_value(j));
    }
    if ((st = dvc_json_need(&j, root, "precision", JSON_INTEGER, file)) != DVC_OK) return st;
    if (json_integer_value(j) < 24 || json_integer_value(j) > DVC_CERT_PREC_MAX)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'precision': %lld bits is outside [24, %d] (the "
                         "cost of verify grows with the precision; larger ones are refused)", file,
                         (long long)json_integer_value(j), DVC_CERT_PREC_MAX);
    c->prec = (mpfr_prec_t)json_integer_value(j);
    if ((st = dvc_json_need(&method, root, "method", JSON_OBJECT, file)) != DVC_OK) return st;
    if ((st = known_keys(method, keys_method, file, "field 'method': ")) != DVC_OK) return st;
    if ((st = dvc_json_need(&j, method, "sharpen", JSON_TRUE, file)) != DVC_OK) return st;
    c->sharpen = json_is_true(j);
    if ((st = read_claims(&c->method, method, file, "method")) != DVC_OK) return st;
    if ((st = dvc_json_need(&j, root, "problem_digest", JSON_STRING, file)) != DVC_OK) return st;
    if ((st = dvc_json_tagged_digest(c->problem_digest, j, file, "problem_digest")) != DVC_OK) return st;
    if ((st = dvc_json_need(&prob, root, "problem", JSON_OBJECT, file)) != DVC_OK) return st;
    /* what verify compares the stated digest with */
    if ((st = dvc_cert_grid_digest(c->problem_digest_read, prob, ondemand ? &gg : NULL)) != DVC_OK) return st;
    c->problem_json = json_dumps(prob, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!c->problem_json) return dvc_error(DVC_ERR_NOMEM, "out of memory");

    /* dimensions and T from the embedded problem (self-contained) */
    dvc_dlvi_problem_init(p, 0, 0, 0);
    {
        char name[512];
        snprintf(name, sizeof name, "%s: embedded problem", file);
        st = dvc_cert_gridrd_problem(p, prob, name, c->prec, gr);
    }
    if (st == DVC_OK) {
        c->n = p->n;
        c->m = p->m;
        c->N = p->N;
        st = dvc_tube_alloc_window(c->tube, c->n, c->m, c->N, p->T, c->prec, window);
        if (st == DVC_OK) { /* the problem's time grid */
            dvc_tgrid g;
            dvc_dlvi_problem_grid(&g, p);
            /* times on demand into a window: the reader sets each row's */
            st = ondemand && window > 0 ? dvc_tube_set_times_window(c->tube) : dvc_tube_set_grid(c->tube, &g);
        }
        /* the admissible box of y: [l.lo, u.hi] */
        if (st == DVC_OK) st = dvc_tube_set_ybox(c->tube, p->l, p->u);
    }
    if (st == DVC_OK) {
        /* the scale of the states (absent: all ones) */
        long *e = calloc((size_t)(c->n > 0 ? c->n : 1), sizeof *e);
        int present;
        st = e ? dvc_cert_scale_get_(&c->method, c->n, e, &present, file)
               : dvc_error(DVC_ERR_NOMEM, "out of memory");
        if (st == DVC_OK) st = dvc_cert_scale_tube_(c->tube, e);
        free(e);
    }
    dvc_dlvi_problem_clear(p);
    return st;
}

/* What follows the steps in the layout dvicert writes: summary, digest. */
static dvc_status tail_part(dvc_cert_t c, const json_t *root, const char *file)
{
    const json_t *j = NULL, *summary = NULL;
    dvc_status st;
    if ((st = check_version(root, file)) != DVC_OK) return st;
    if ((st = dvc_json_need(&summary, root, "summary", JSON_OBJECT, file)) != DVC_OK) return st;
    if ((st = known_keys(summary, keys_summary, file, "field 'summary': ")) != DVC_OK) return st;
    if ((st = read_claims(&c->summary, summary, file, "summary")) != DVC_OK) return st;
    if ((st = dvc_json_need(&j, root, "digest", JSON_STRING, file)) != DVC_OK) return st;
    return dvc_json_tagged_digest(c->digest, j, file, "digest");
}

/* Step object s (grid point i) into row `row` of c->tube; its label (owned)
 * into *label. */
static dvc_status read_step(dvc_cert_t c, const json_t *s, long i, long row, const char *file,
                            char **label)
{
    const json_t *j = NULL, *xs = NULL, *ys = NULL, *yh = NULL;
    dvc_tube_struct *tb = c->tube;
    dvc_status st;
    long n = c->n, m = c->m;
    char where[512], w2[64];
    if (!json_is_object(s)) return dvc_error(DVC_ERR_INPUT, "%s: step %ld must be an object", file, i);
    snprintf(where, sizeof where, "%s: step %ld", file, i);
    snprintf(w2, sizeof w2, "step %ld: ", i);
    if ((st = known_keys(s, keys_step, file, w2)) != DVC_OK) return st;
    if ((st = dvc_json_need(&j, s, "t", JSON_STRING, where)) != DVC_OK) return st;
    free(*label);
    if (!(*label = strdup(json_string_value(j)))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if ((st = dvc_json_need(&xs, s, "x", JSON_ARRAY, where)) != DVC_OK) return st;
    if ((st = dvc_json_need(&ys, s, "y", JSON_ARRAY, where)) != DVC_OK) return st;
    if ((st = dvc_json_need(&yh, s, "yhat", JSON_ARRAY, where)) != DVC_OK) return st;
    if ((long)json_array_size(xs) != n || (long)json_array_size(ys) != m ||
        (long)json_array_size(yh) != m)
        return dvc_error(DVC_ERR_INPUT, "%s: fields 'x', 'y', 'yhat' must have %ld, %ld, %ld entries",
                         where, n, m, m);
    for (long k = 0; k < n; k++)
        if ((st = read_hex(&tb->x[row * n + k], json_array_get(xs, (size_t)k), file, i, "x", k)) != DVC_OK)
            return st;
    for (long k = 0; k < m; k++) {
        const json_t *pair = json_array_get(yh, (size_t)k);
        if ((st = read_hex(&tb->y[row * m + k], json_array_get(ys, (size_t)k), file, i, "y", k)) != DVC_OK)
            return st;
        if (!json_is_array(pair) || json_array_size(pair) != 2)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'yhat' entry %ld must be [lo, hi]", where, k + 1);
        if ((st = read_dec(tb->yhat_lo[row * m + k], json_array_get(pair, 0), file, i, "yhat")) != DVC_OK ||
            (st = read_dec(tb->yhat_hi[row * m + k], json_array_get(pair, 1), file, i, "yhat")) != DVC_OK)
            return st;
        if (mpfr_cmp(&tb->yhat_lo[row * m + k]->left, &tb->yhat_hi[row * m + k]->right) > 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'yhat' entry %ld: lo > hi", where, k + 1);
    }
    if ((st = read_dec(tb->eps_x[row], json_object_get(s, "eps_x"), file, i, "eps_x")) != DVC_OK) return st;
    if ((st = read_dec(tb->eps_y[row], json_object_get(s, "eps_y"), file, i, "eps_y")) != DVC_OK) return st;
    if (mpfr_sgn(&tb->eps_x[row]->right) < 0 || mpfr_sgn(&tb->eps_y[row]->right) < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: negative bound", where);
    if (i >= 1) {
        if ((st = read_dec(tb->ry[row], json_object_get(s, "ry"), file, i, "ry")) != DVC_OK) return st;
        if (mpfr_sgn(&tb->ry[row]->right) < 0) return dvc_error(DVC_ERR_INPUT, "%s: negative bound", where);
    } else {
        mpfi_set_ui(tb->ry[row], 0);
    }
    return dvc_cert_width_point_(c, i, row);
}

/* ---- step lines in the layout dvicert writes, without jansson ---------- */

/* The strings of one step line, each NUL-terminated in buf at off[k]:
 * label, x (n), y (m), eps_x, eps_y, yhat lo/hi (2m), ry (i >= 1). */
typedef struct {
    dvc_sbuf buf;
    size_t *off;
    long nstr;
} scan_t;

/* One JSON string of the characters a step line's values consist of
 * (digits, letters, '.', '+', '-'): its text is its value and its canonical
 * encoding. Anything else (escapes, blanks, other characters) is left to
 * jansson. */
static int scan_str(scan_t *sc, const char **pp, long k)
{
    const char *p = *pp, *q;
    if (*p != '"') return 0;
    q = ++p;
    while (isalnum((unsigned char)*q) || *q == '.' || *q == '+' || *q == '-') q++;
    if (*q != '"' || q == p) return 0;
    sc->off[k] = sc->buf.len;
    dvc_sbuf_put_(&sc->buf, p, (size_t)(q - p) + 1); /* the closing quote becomes the NUL */
    if (sc->buf.fail) return 0;
    sc->buf.s[sc->buf.len - 1] = '\0';
    *pp = q + 1;
    return 1;
}

static int scan_lit(const char **pp, const char *lit)
{
    size_t n = strlen(lit);
    if (strncmp(*pp, lit, n) != 0) return 0;
    *pp += n;
    return 1;
}

/* Step i of n states and m multipliers, exactly as dvicert writes it
 * (compact, keys t x y eps_x eps_y yhat ry in this order): 1 and the
 * strings in sc, or 0 for any other text. */
static int scan_step(scan_t *sc, const char *line, long i, long n, long m)
{
    const char *p = line;
    long k = 0, need = 1 + n + m + 2 + 2 * m + (i >= 1);
    if (sc->nstr < need) {
        size_t *o = realloc(sc->off, (size_t)need * sizeof *o);
        if (!o) return 0;
        sc->off = o;
        sc->nstr = need;
    }
    sc->buf.len = 0;
    if (!scan_lit(&p, "{\"t\":") || !scan_str(sc, &p, k++) || !scan_lit(&p, ",\"x\":[")) return 0;
    for (long j = 0; j < n; j++)
        if ((j && !scan_lit(&p, ",")) || !scan_str(sc, &p, k++)) return 0;
    if (!scan_lit(&p, "],\"y\":[")) return 0;
    for (long j = 0; j < m; j++)
        if ((j && !scan_lit(&p, ",")) || !scan_str(sc, &p, k++)) return 0;
    if (!scan_lit(&p, "],\"eps_x\":") || !scan_str(sc, &p, k++) || !scan_lit(&p, ",\"eps_y\":") ||
        !scan_str(sc, &p, k++) || !scan_lit(&p, ",\"yhat\":["))
        return 0;
    for (long j = 0; j < m; j++)
        if ((j && !scan_lit(&p, ",")) || !scan_lit(&p, "[") || !scan_str(sc, &p, k++) ||
            !scan_lit(&p, ",") || !scan_str(sc, &p, k++) || !scan_lit(&p, "]"))
            return 0;
    if (!scan_lit(&p, "]")) return 0;
    if (i >= 1 && (!scan_lit(&p, ",\"ry\":") || !scan_str(sc, &p, k++))) return 0;
    return scan_lit(&p, "}") && *p == '\0';
}

#define SC(k) (sc->buf.s + sc->off[k])

/* The canonical text (sorted keys, compact) of a scanned step: what
 * jansson's JSON_SORT_KEYS | JSON_COMPACT dump of the same object gives. */
static void scan_canon(dvc_sbuf *b, const scan_t *sc, long i, long n, long m)
{
    long e = 1 + n + m;
    /* the scanned strings plus quotes, separators and keys */
    char *p = sb_reserve(b, sc->buf.len + (size_t)(e + 3 + 2 * m) * 3 + 96 + (size_t)m * 4);
    if (!p) return;
    CP(p, "{\"eps_x\":");
    p = cp_q(p, SC(e));
    CP(p, ",\"eps_y\":");
    p = cp_q(p, SC(e + 1));
    if (i >= 1) {
        CP(p, ",\"ry\":");
        p = cp_q(p, SC(e + 2 + 2 * m));
    }
    CP(p, ",\"t\":");
    p = cp_q(p, SC(0));
    CP(p, ",\"x\":[");
    for (long j = 0; j < n; j++) {
        if (j) *p++ = ',';
        p = cp_q(p, SC(1 + j));
    }
    CP(p, "],\"y\":[");
    for (long j = 0; j < m; j++) {
        if (j) *p++ = ',';
        p = cp_q(p, SC(1 + n + j));
    }
    CP(p, "],\"yhat\":[");
    for (long j = 0; j < m; j++) {
        if (j) *p++ = ',';
        *p++ = '[';
        p = cp_q(p, SC(e + 2 + 2 * j));
        *p++ = ',';
        p = cp_q(p, SC(e + 3 + 2 * j));
        *p++ = ']';
    }
    CP(p, "]}");
    *p = '\0';
    b->len = (size_t)(p - b->s);
}

/* *label <- s, reusing its storage when it is known to be large enough:
 * whoever allocated it (this function or strdup in read_step), it holds at
 * least strlen(*label) + 1 bytes. */
static int set_label(char **label, const char *s)
{
    size_t len = strlen(s);
    if (!*label || strlen(*label) < len) {
        free(*label);
        return (*label = strdup(s)) != NULL;
    }
    memcpy(*label, s, len + 1);
    return 1;
}

/* A scanned step into row `row` of c->tube: the checks of read_step. */
static dvc_status read_step_scanned(dvc_cert_t c, const scan_t *sc, long i, long row,
                                    const char *file, char **label)
{
    dvc_tube_struct *tb = c->tube;
    dvc_status st;
    long n = c->n, m = c->m, e = 1 + n + m;
    if (!set_label(label, SC(0))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long k = 0; k < n; k++)
        if ((st = read_hex_s(&tb->x[row * n + k], SC(1 + k), file, i, "x", k)) != DVC_OK) return st;
    for (long k = 0; k < m; k++) {
        if ((st = read_hex_s(&tb->y[row * m + k], SC(1 + n + k), file, i, "y", k)) != DVC_OK) return st;
        if ((st = read_dec_s(tb->yhat_lo[row * m + k], SC(e + 2 + 2 * k), file, i, "yhat")) != DVC_OK ||
            (st = read_dec_s(tb->yhat_hi[row * m + k], SC(e + 3 + 2 * k), file, i, "yhat")) != DVC_OK)
            return st;
        if (mpfr_cmp(&tb->yhat_lo[row * m + k]->left, &tb->yhat_hi[row * m + k]->right) > 0)
            return dvc_error(DVC_ERR_INPUT, "%s: step %ld: field 'yhat' entry %ld: lo > hi", file, i, k + 1);
    }
    if ((st = read_dec_s(tb->eps_x[row], SC(e), file, i, "eps_x")) != DVC_OK) return st;
    if ((st = read_dec_s(tb->eps_y[row], SC(e + 1), file, i, "eps_y")) != DVC_OK) return st;
    if (mpfr_sgn(&tb->eps_x[row]->right) < 0 || mpfr_sgn(&tb->eps_y[row]->right) < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: step %ld: negative bound", file, i);
    if (i >= 1) {
        if ((st = read_dec_s(tb->ry[row], SC(e + 2 + 2 * m), file, i, "ry")) != DVC_OK) return st;
        if (mpfr_sgn(&tb->ry[row]->right) < 0)
            return dvc_error(DVC_ERR_INPUT, "%s: step %ld: negative bound", file, i);
    } else {
        mpfi_set_ui(tb->ry[row], 0);
    }
    return dvc_cert_width_point_(c, i, row);
}

#undef SC

static dvc_status from_root(dvc_cert_t c, json_t *root, const char *file)
{
    const json_t *steps = NULL; /* set by dvc_json_need(); gcc -O3 cannot see it */
    dvc_status st;
    dvc_cert_clear(c);
    dvc_cert_init(c);
    if (!json_is_object(root)) return dvc_error(DVC_ERR_INPUT, "%s: not a JSON object", file);
    if ((st = head_part(c, root, file, 0, NULL)) != DVC_OK) return st;
    if ((st = tail_part(c, root, file)) != DVC_OK) return st;
    if ((st = dvc_json_digest_root(c->digest_read, root)) != DVC_OK) return st;
    if ((st = dvc_json_need(&steps, root, "steps", JSON_ARRAY, file)) != DVC_OK) return st;
    if ((long)json_array_size(steps) != c->N + 1)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'steps' has %ld entries, the problem has N + 1 = %ld",
                         file, (long)json_array_size(steps), c->N + 1);
    c->labels = calloc((size_t)(c->N + 1), sizeof *c->labels);
    if (!c->labels) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; i <= c->N; i++)
        if ((st = read_step(c, json_array_get(steps, (size_t)i), i, i, file, &c->labels[i])) != DVC_OK)
            return st;
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

/* ---- streaming reader ---------------------------------------------------- */

#define RD_WINDOW 6

typedef struct {
    FILE *f;
    const char *file;
    char *line;
    size_t cap;
    long lineno;
    dvc_cert_struct *c;
    json_t *hdr;            /* top-level members other than steps */
    int in_steps, after_steps;
    long next;              /* next step index to read */
    uint64_t h;
    char *labels[RD_WINDOW];
    int verify, rejected, layout;
    int comma;              /* the previous item ended with a comma: -1 no item yet */
    long ncalls;            /* calls of fn so far */
    dvc_cert_point_fn fn;
    void *ctx;
    scan_t sc;              /* the strings of the step line being read */
    dvc_sbuf canon;             /* its canonical text */
    long *scale;            /* verify: the states' scale exponents (NULL: none) */
    long long pos;          /* bytes read (the header's) */
    dvc_cert_gridrd gr;     /* the problem's explicit grid, on demand */
} rd_t;

/* Next line without its line end and trailing blanks; NULL at the end. */
static const char *rd_line(rd_t *rd)
{
    /* the header: the problem's grid not held (io/cert_gridrd.h) */
    ssize_t len = rd->in_steps || rd->after_steps ? getline(&rd->line, &rd->cap, rd->f)
                                                  : dvc_cert_gridrd_line(&rd->gr, rd->f, &rd->line, &rd->cap, &rd->pos);
    if (len == -2) rd->layout = 1;
    if (len < 0) return NULL;
    rd->lineno++;
    while (len > 0 && (rd->line[len - 1] == '\n' || rd->line[len - 1] == '\r' ||
                       rd->line[len - 1] == ' ' || rd->line[len - 1] == '\t'))
        rd->line[--len] = '\0';
    return rd->line;
}

static const char *skip_blank(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* The file does not have the layout dvicert writes. */
static dvc_status rd_layout(rd_t *rd, const char *what)
{
    rd->layout = 1;
    return dvc_error(DVC_ERR_INPUT, "%s: line %ld: %s (a certificate is read step by step in the "
                     "layout dvicert writes: one top-level member per line, one step per line)",
                     rd->file, rd->lineno, what);
}

/* The JSON between items: a comma after every item but the last. */
static int rd_sep(rd_t *rd, int closing)
{
    return closing ? rd->comma != 1 : rd->comma != 0;
}

/* Parse a line holding one JSON value followed by an optional comma
 * (recorded in rd->comma). */
static json_t *rd_value(rd_t *rd, char *s, int wrap)
{
    size_t len = strlen(s);
    json_error_t err;
    rd->comma = len > 0 && s[len - 1] == ',';
    if (rd->comma) s[--len] = '\0';
    if (!wrap) return json_loads(s, JSON_REJECT_DUPLICATES, &err);
    return dvc_json_load_member(s, len);
}

/* A member line `"key": value` into rd->hdr. */
static dvc_status rd_member(rd_t *rd, char *s)
{
    json_t *one;
    const char *key;
    json_t *val;
    dvc_status st = DVC_OK;
    if (!rd_sep(rd, 0)) return rd_layout(rd, "no comma after the previous member");
    one = rd_value(rd, s, 1);
    if (!one || json_object_size(one) != 1) {
        json_decref(one);
        return rd_layout(rd, "not one member of the certificate object");
    }
    json_object_foreach(one, key, val) {
        if (json_object_get(rd->hdr, key))
            st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: duplicate key '%s'", rd->file, rd->lineno, key);
        else if (rd->after_steps && strcmp(key, "steps") < 0 && strcmp(key, "digest") != 0)
            st = rd_layout(rd, "a key that sorts before 'steps' follows the steps");
        else
            json_object_set(rd->hdr, key, val);
    }
    json_decref(one);
    return st;
}

/* Step i read: its grid time into the window when the grid is on demand. */
static dvc_status rd_time(rd_t *rd, long i)
{
    double t;
    dvc_status st;
    if (!rd->c->tube->t_window) return DVC_OK;
    if ((st = rd->gr.src.at(rd->gr.src.ctx, i, &t)) != DVC_OK) return st;
    dvc_tube_set_time_row(rd->c->tube, i, t);
    return DVC_OK;
}

/* Step i from the next line into row i % RD_WINDOW of the tube. */
static dvc_status rd_step(rd_t *rd, long i)
{
    const char *l = rd_line(rd);
    char *s;
    json_t *j;
    char *canon;
    dvc_status st;
    size_t len;
    if (!l) return dvc_error(DVC_ERR_INPUT, "%s: the file ends inside 'steps' (step %ld)", rd->file, i);
    s = (char *)skip_blank(l);
    if (s[0] == ']')
        return dvc_error(DVC_ERR_INPUT, "%s: field 'steps' has %ld entries, the problem has N + 1 = %ld",
                         rd->file, i, rd->c->N + 1);
    if (!rd_sep(rd, 0)) return rd_layout(rd, "no comma after the previous step");
    len = strlen(s);
    rd->comma = len > 0 && s[len - 1] == ',';
    if (rd->comma) s[--len] = '\0';
    if (scan_step(&rd->sc, s, i, rd->c->n, rd->c->m)) {
        /* the layout dvicert writes: no JSON tree, no allocation */
        st = read_step_scanned(rd->c, &rd->sc, i, i % RD_WINDOW, rd->file, &rd->labels[i % RD_WINDOW]);
        if (st != DVC_OK) return st;
        scan_canon(&rd->canon, &rd->sc, i, rd->c->n, rd->c->m);
        if (rd->canon.fail) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        if (i) fnv_add(&rd->h, ",");
        fnv_add(&rd->h, rd->canon.s);
        rd->next = i + 1;
        return rd_time(rd, i);
    }
    if (rd->comma) s[len++] = ','; /* rd_value strips it again */
    j = rd_value(rd, s, 0);
    if (!j || !json_is_object(j)) {
        json_decref(j);
        return rd_layout(rd, "not one step object");
    }
    st = read_step(rd->c, j, i, i % RD_WINDOW, rd->file, &rd->labels[i % RD_WINDOW]);
    canon = st == DVC_OK ? json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
    json_decref(j);
    if (st != DVC_OK) return st;
    if (!canon) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (i) fnv_add(&rd->h, ",");
    fnv_add(&rd->h, canon);
    free(canon);
    rd->next = i + 1;
    return rd_time(rd, i);
}

static dvc_status rd_call(rd_t *rd, long i)
{
    rd->c->tube->steps = i;
    if (!rd->fn) return DVC_OK;
    rd->ncalls++;
    return rd->fn(rd->c, i, rd->ctx);
}

static dvc_status rd_source(long i, double *x, double *y, void *ctx)
{
    rd_t *rd = ctx;
    dvc_tube_struct *tb = rd->c->tube;
    long row = i % RD_WINDOW;
    dvc_status st = rd_step(rd, i);
    if (st != DVC_OK) return st;
    /* the engine certifies the scaled states z = S^-1 x */
    if (rd->scale) st = dvc_dlvi_scale_point(x, tb->x + row * tb->n, rd->scale, tb->n, 0);
    else memcpy(x, tb->x + row * tb->n, (size_t)tb->n * sizeof *x);
    if (st != DVC_OK) return st;
    memcpy(y, tb->y + row * tb->m, (size_t)tb->m * sizeof *y);
    return DVC_OK;
}

static dvc_status rd_sink(const dvc_dlvi_point *pt, void *ctx)
{
    rd_t *rd = ctx;
    dvc_status st = dvc_cert_check_point_(rd->c->tube, pt->i % RD_WINDOW, pt,
                                          rd->labels[pt->i % RD_WINDOW]);
    if (st != DVC_OK) {
        rd->rejected = 1;
        return st;
    }
    return rd_call(rd, pt->i);
}

/* The header up to `"steps": [`, then the tube and the digest prefix. */
static dvc_status rd_head(rd_t *rd)
{
    const char *l = rd_line(rd);
    json_t *pre;
    const char *key;
    json_t *val;
    if (!l || strcmp(l, "{") != 0) return rd_layout(rd, "not '{'");
    rd->comma = -1;
    for (;;) {
        char *s;
        dvc_status st;
        if (!(l = rd_line(rd))) return rd_layout(rd, "the file ends before 'steps'");
        s = (char *)skip_blank(l);
        if (strcmp(s, "\"steps\": [") == 0) {
            if (!rd_sep(rd, 0)) return rd_layout(rd, "no comma after the previous member");
            rd->comma = -1;
            break;
        }
        if ((st = rd_member(rd, s)) != DVC_OK) return st;
    }
    rd->in_steps = 1;
    pre = json_object();
    json_object_foreach(rd->hdr, key, val)
        if (strcmp(key, "steps") < 0 && strcmp(key, "digest") != 0) json_object_set(pre, key, val);
    rd->h = DVC_FNV_OFFSET;
    if (json_object_size(pre) > 0) {
        dvc_tgrid g;
        dvc_status st = dvc_cert_grid_hash_prefix(&rd->h, pre, dvc_cert_gridrd_grid(&g, &rd->gr) ? &g : NULL);
        if (st != DVC_OK) {
            json_decref(pre);
            return st;
        }
        fnv_add(&rd->h, ",\"steps\":[");
    } else {
        fnv_add(&rd->h, "{\"steps\":[");
    }
    json_decref(pre);
    rd->c->grid_rd = rd->gr.found ? &rd->gr : NULL;
    return head_part(rd->c, rd->hdr, rd->file, RD_WINDOW, &rd->gr);
}

/* After the last step: `]`, the remaining members, `}`. */
static dvc_status rd_tail(rd_t *rd)
{
    const char *l = rd_line(rd);
    json_t *post;
    const char *key;
    json_t *val;
    dvc_status st;
    if (!l || skip_blank(l)[0] != ']')
        return dvc_error(DVC_ERR_INPUT, "%s: field 'steps' has more than N + 1 = %ld entries (or "
                         "does not end at line %ld)", rd->file, rd->c->N + 1, rd->lineno);
    /* exactly `]` or `],`: nothing may ride along on this line */
    if (strcmp(skip_blank(l), "]") != 0 && strcmp(skip_blank(l), "],") != 0)
        return rd_layout(rd, "text after the end of 'steps'");
    if (!rd_sep(rd, 1)) return rd_layout(rd, "a comma after the last step");
    rd->comma = strcmp(skip_blank(l), "],") == 0;
    rd->in_steps = 0;
    rd->after_steps = 1;
    for (;;) {
        char *s;
        if (!(l = rd_line(rd))) return dvc_error(DVC_ERR_INPUT, "%s: the file ends before '}'", rd->file);
        s = (char *)skip_blank(l);
        if (strcmp(s, "}") == 0) {
            if (!rd_sep(rd, 1)) return rd_layout(rd, "a comma after the last member");
            break;
        }
        if ((st = rd_member(rd, s)) != DVC_OK) return st;
    }
    while ((l = rd_line(rd)) != NULL)
        if (*skip_blank(l)) return dvc_error(DVC_ERR_INPUT, "%s: line %ld: text after the certificate",
                                             rd->file, rd->lineno);
    if ((st = known_keys(rd->hdr, keys_root, rd->file, "")) != DVC_OK) return st;
    if ((st = tail_part(rd->c, rd->hdr, rd->file)) != DVC_OK) return st;
    post = json_object();
    json_object_foreach(rd->hdr, key, val)
        if (strcmp(key, "steps") > 0) json_object_set(post, key, val);
    fnv_add(&rd->h, json_object_size(post) > 0 ? "]," : "]");
    fnv_obj(&rd->h, post, 0);
    json_decref(post);
    snprintf(rd->c->digest_read, sizeof rd->c->digest_read, "%016llx", (unsigned long long)rd->h);
    return DVC_OK;
}

/* Verification in lockstep: the engine pulls the steps through rd_source
 * and hands every recomputed point to rd_sink. */
static dvc_status rd_verify(rd_t *rd)
{
    dvc_cert_struct *c = rd->c;
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    dvc_lognorm_opts lo;
    dvc_lognorm_info_t info;
    int route = 0;
    dvc_status st;
    dvc_dlvi_problem_init(p, 0, 0, 0);
    if ((st = verify_problem(p, c)) != DVC_OK ||
        (st = dvc_cert_verify_open_(c, p, r, &o, &rd->scale)) != DVC_OK) {
        dvc_dlvi_problem_clear(p);
        return st;
    }
    /* 2. every bound recomputed from the stored predictor, step by step (the
     * lognorm route: the norm searched and proven again) */
    o.progress = 1; /* on a terminal only: a long file takes minutes */
    o.sink = rd_sink;
    o.sink_ctx = rd;
    dvc_lognorm_info_init(info);
    st = dvc_cert_route_opts_(c, &o, &lo, &route);
    if (st != DVC_OK) {
        rd->rejected = 1;
    } else if (route == 1) {
        st = dvc_lognorm_certify_stream(r, info, p, &lo, rd_source, rd);
    } else {
        st = dvc_dlvi_certify_stream(r, p, &o, rd_source, rd);
    }
    if (st == DVC_NOT_CERTIFIED && !rd->rejected)
        st = dvc_error_context(DVC_NOT_CERTIFIED, "the stored predictor cannot be certified: ");
    if (st == DVC_OK) st = rd_tail(rd);
    dvc_cert_route_opts_clear_(&lo);
    if (route == 1) st = dvc_cert_verify_close_lognorm_(c, p, r, info, lo.pieces, st);
    else {
        dvc_lognorm_info_clear(info);
        st = dvc_cert_verify_close_(c, p, r, st);
    }
    dvc_dlvi_problem_clear(p);
    return st;
}

/* The whole file in memory (a layout other than dvicert's). */
static dvc_status stream_whole(dvc_cert_t c, const char *path, int verify, dvc_cert_point_fn fn,
                               void *ctx)
{
    dvc_status st = dvc_cert_read(c, path);
    if (st == DVC_OK && verify) st = dvc_cert_verify(c);
    for (long i = 0; st == DVC_OK && fn && i <= c->N; i++) st = fn(c, i, ctx);
    return st;
}

dvc_status dvc_cert_stream(dvc_cert_t c, const char *path, int verify, dvc_cert_point_fn fn,
                           void *ctx)
{
    rd_t rd;
    dvc_status st;
    memset(&rd, 0, sizeof rd);
    dvc_cert_clear(c);
    dvc_cert_init(c);
    if ((st = dvc_infile_open(&rd.f, path, "rb")) != DVC_OK) return st;
    rd.file = path;
    rd.c = c;
    rd.verify = verify;
    rd.fn = fn;
    rd.ctx = ctx;
    rd.hdr = json_object();
    dvc_cert_gridrd_init(&rd.gr, path);
    if (!rd.hdr) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK) st = rd_head(&rd);
    if (st == DVC_OK && verify) {
        st = rd_verify(&rd);
    } else if (st == DVC_OK) {
        for (long i = 0; st == DVC_OK && i <= c->N; i++) {
            st = rd_step(&rd, i);
            if (st == DVC_OK) st = rd_call(&rd, i);
        }
        if (st == DVC_OK) st = rd_tail(&rd);
    }
    st = dvc_infile_close(rd.f, st);
    free(rd.line);
    json_decref(rd.hdr);
    for (int k = 0; k < RD_WINDOW; k++) free(rd.labels[k]);
    free(rd.sc.buf.s);
    free(rd.sc.off);
    free(rd.canon.s);
    free(rd.scale);
    dvc_cert_gridrd_clear(&rd.gr);
    c->grid_rd = NULL; /* problem_json keeps the placeholder: the file states the times */
    if (st != DVC_OK && rd.layout && rd.ncalls == 0) return stream_whole(c, path, verify, fn, ctx);
    return st;
}
