/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificates: build from an engine run, write, read, re-verify. The
 * in-memory certificate is always parsed from the JSON text that is (or
 * was) on disk, so what enclose checks and what verify reads are the same
 * numbers. */
#include "dvicert/cert.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"
#include "io/problem_json.h"
#include "dvicert_version.h"

#define CERT_FORMAT "dvicert-certificate"
#define CERT_VERSION 1
/* Significant digits of printed bounds (rounded outward: still rigorous). */
#define CERT_DIGITS 12

static const char *const theorem_text =
    "Chen & Wang (2012) Theorem 4.1 / Algorithm 4.2 for the DLVI x' = Ax + By + f(t), "
    "y in SOL(l, u, Qx + g(t), M), re-derived in docs/bounds.md with the defect of the "
    "floating-point predictor and the Lipschitz constants of f and g carried in outward-rounded "
    "interval arithmetic";

void dvc_cert_init(dvc_cert_t c)
{
    memset(c, 0, sizeof *c);
    c->prec = dvc_prec_get();
    mpfi_init2(c->T, c->prec);
}

static void free_arrays(dvc_cert_t c)
{
    long np = c->N + 1;
    if (c->eps_x)
        for (long i = 0; i < np; i++) mpfi_clear(c->eps_x[i]);
    if (c->eps_y)
        for (long i = 0; i < np; i++) mpfi_clear(c->eps_y[i]);
    if (c->ry)
        for (long i = 0; i < np; i++) mpfi_clear(c->ry[i]);
    if (c->yhat_lo)
        for (long i = 0; i < np * c->m; i++) mpfi_clear(c->yhat_lo[i]);
    if (c->yhat_hi)
        for (long i = 0; i < np * c->m; i++) mpfi_clear(c->yhat_hi[i]);
    if (c->ybox_lo)
        for (long k = 0; k < c->m; k++) mpfr_clear(c->ybox_lo[k]);
    if (c->ybox_hi)
        for (long k = 0; k < c->m; k++) mpfr_clear(c->ybox_hi[k]);
    free(c->ybox_lo);
    free(c->ybox_hi);
    c->ybox_lo = c->ybox_hi = NULL;
    free(c->eps_x);
    free(c->eps_y);
    free(c->ry);
    free(c->yhat_lo);
    free(c->yhat_hi);
    free(c->x);
    free(c->y);
    c->eps_x = c->eps_y = c->ry = c->yhat_lo = c->yhat_hi = NULL;
    c->x = c->y = NULL;
}

void dvc_cert_clear(dvc_cert_t c)
{
    free_arrays(c);
    mpfi_clear(c->T);
    json_decref(c->root);
    memset(c, 0, sizeof *c);
}

static mpfi_t *ivals_new(long k, mpfr_prec_t prec)
{
    mpfi_t *v = malloc((size_t)(k > 0 ? k : 1) * sizeof *v);
    if (v)
        for (long i = 0; i < k; i++) mpfi_init2(v[i], prec);
    return v;
}

static dvc_status alloc_arrays(dvc_cert_t c)
{
    long np = c->N + 1;
    c->x = malloc((size_t)(np * c->n) * sizeof *c->x);
    c->y = malloc((size_t)(np * c->m) * sizeof *c->y);
    c->eps_x = ivals_new(np, c->prec);
    c->eps_y = ivals_new(np, c->prec);
    c->ry = ivals_new(np, c->prec);
    c->yhat_lo = ivals_new(np * c->m, c->prec);
    c->yhat_hi = ivals_new(np * c->m, c->prec);
    if (!c->x || !c->y || !c->eps_x || !c->eps_y || !c->ry || !c->yhat_lo || !c->yhat_hi) {
        /* free_arrays would clear uninitialised entries: release by hand */
        return dvc_error(DVC_ERR_NOMEM, "out of memory for %ld steps", c->N);
    }
    return DVC_OK;
}

/* ---- building ---------------------------------------------------------- */

/* Stored bounds are widened by a relative 2^-CERT_SLACK_BITS before the
 * outward rounding to CERT_DIGITS digits. Without it a stored bound can lie
 * within one ulp of the value it was printed from, and a build whose
 * floating-point results differ in the last bit (FMA or not, another MPFR)
 * would recompute a bound just above it and reject a valid certificate.
 * Widening only loosens the stored claims, so it stays rigorous. */
#define CERT_SLACK_BITS 40

/* x widened by the slack and rounded outward to CERT_DIGITS digits: up
 * (an upper bound) or down (a lower bound). */
static json_t *str_bound(const mpfr_t x, int up)
{
    mpfr_rnd_t rnd = up ? MPFR_RNDU : MPFR_RNDD;
    mpfr_t w, d;
    char *s;
    json_t *j;
    mpfr_inits2(mpfr_get_prec(x) + 64, w, d, (mpfr_ptr)0);
    mpfr_set(w, x, rnd);
    if (mpfr_number_p(x) && !mpfr_zero_p(x)) {
        mpfr_abs(d, x, MPFR_RNDU);
        mpfr_div_2ui(d, d, CERT_SLACK_BITS, MPFR_RNDU);
        if (!up) mpfr_neg(d, d, MPFR_RNDD);
        mpfr_add(w, w, d, rnd);
    }
    s = dvc_mpfr_str(w, CERT_DIGITS, rnd);
    mpfr_clears(w, d, (mpfr_ptr)0);
    j = json_string(s ? s : "nan");
    free(s);
    return j;
}

static json_t *str_up(const mpfr_t x) { return str_bound(x, 1); }
static json_t *str_dn(const mpfr_t x) { return str_bound(x, 0); }

static json_t *hex(double d)
{
    char buf[40];
    dvc_double_hex(buf, d);
    return json_string(buf);
}

/* Time label of grid point i: nearest double of i T / N, informative. */
static void time_label(char buf[40], const mpfi_t T, long N, long i, mpfr_prec_t prec)
{
    mpfi_t t;
    mpfi_init2(t, prec);
    mpfi_mul_si(t, T, i);
    mpfi_div_si(t, t, N);
    snprintf(buf, 40, "%.17g", dvc_ival_mid_d(t));
    mpfi_clear(t);
}

static json_t *method_obj(const dvc_dlvi_problem_t p, const dvc_dlvi_result_t r)
{
    json_t *o = json_object();
    char buf[40];
    mpfr_t h;
    mpfr_init2(h, r->prec);
    json_object_set_new(o, "scheme", json_string("theta time stepping, Chen & Wang (4.2): "
                        "x^{i+1} = x^i + h{A[theta x^i + (1-theta) x^{i+1}] + B y^{i+1} + f(t_{i+1})}, "
                        "y^{i+1} in SOL(l, u, Q x^{i+1} + g(t_{i+1}), M)"));
    json_object_set_new(o, "N", json_integer(p->N));
    mpfi_get_left(h, r->h);
    json_object_set_new(o, "h_lo", str_dn(h));
    mpfi_get_right(h, r->h);
    json_object_set_new(o, "h_hi", str_up(h));
    snprintf(buf, sizeof buf, "%.17g", dvc_ival_mid_d(p->theta));
    json_object_set_new(o, "theta", json_string(buf));
    json_object_set_new(o, "sharpen", json_boolean(r->sharpen));
    mpfr_clear(h);
    return o;
}

static json_t *summary_obj(const dvc_dlvi_result_t r)
{
    json_t *o = json_object();
    char buf[256];
    mpfr_t tmp, a;
    mpfr_inits2(r->prec, tmp, a, (mpfr_ptr)0);
    json_object_set_new(o, "theorem", json_string(theorem_text));
    json_object_set_new(o, "P_matrix", json_string(r->p_reason ? r->p_reason : "proven"));
    json_object_set_new(o, "beta_M_upper", str_up(r->beta_hi));
    json_object_set_new(o, "beta_M_lower", str_dn(r->beta_lo));
    json_object_set_new(o, "beta_method", json_string(r->beta_method ? r->beta_method : ""));
    json_object_set_new(o, "norm_A_upper", str_up(r->normA));
    json_object_set_new(o, "norm_B_upper", str_up(r->normB));
    json_object_set_new(o, "norm_Q_upper", str_up(r->normQ));
    json_object_set_new(o, "L_upper", str_up(r->L));
    json_object_set_new(o, "h_max_lower", str_dn(r->hmax));
    /* step condition h < hmax, proven with the outward-rounded bounds */
    mpfi_get_right(tmp, r->h);
    snprintf(buf, sizeof buf, "h <= %s < h_max = 1/(L - theta ||A||) (proven: %s)",
             "h_hi", mpfr_cmp(tmp, r->hmax) < 0 ? "yes" : "no");
    json_object_set_new(o, "step_condition", json_string(buf));
    json_object_set_new(o, "max_eps_x", str_up(r->max_eps_x));
    json_object_set_new(o, "max_eps_y", str_up(r->max_eps_y));
    json_object_set_new(o, "eps_x_at_T", str_up(r->eps_x[r->N]));
    json_object_set_new(o, "steps_sharpened", json_integer(r->n_sharpened));
    json_object_set_new(o, "precision_bits", json_integer((json_int_t)r->prec));
    json_object_set_new(o, "norm", json_string("infinity norm"));
    (void)a;
    mpfr_clears(tmp, a, (mpfr_ptr)0);
    return o;
}

static json_t *steps_arr(const dvc_dlvi_problem_t p, const dvc_dlvi_result_t r)
{
    json_t *arr = json_array();
    mpfr_t tmp;
    mpfr_init2(tmp, r->prec);
    for (long i = 0; i <= r->N; i++) {
        json_t *s = json_object(), *xs = json_array(), *ys = json_array(), *yh = json_array();
        char buf[40];
        time_label(buf, p->T, p->N, i, r->prec);
        json_object_set_new(s, "t", json_string(buf));
        for (long j = 0; j < r->n; j++) json_array_append_new(xs, hex(r->x[i * r->n + j]));
        for (long k = 0; k < r->m; k++) {
            json_t *pair = json_array();
            json_array_append_new(ys, hex(r->y[i * r->m + k]));
            json_array_append_new(pair, str_dn(&r->yhat[i * r->m + k]->left));
            json_array_append_new(pair, str_up(&r->yhat[i * r->m + k]->right));
            json_array_append_new(yh, pair);
        }
        json_object_set_new(s, "x", xs);
        json_object_set_new(s, "y", ys);
        json_object_set_new(s, "eps_x", str_up(r->eps_x[i]));
        json_object_set_new(s, "eps_y", str_up(r->eps_y[i]));
        json_object_set_new(s, "yhat", yh);
        if (i >= 1) {
            mpfr_set_d(tmp, r->ry[i - 1], MPFR_RNDU);
            json_object_set_new(s, "ry", str_up(tmp));
        }
        json_array_append_new(arr, s);
    }
    mpfr_clear(tmp);
    return arr;
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

static json_t *build_root(const dvc_dlvi_problem_t p, const json_t *problem,
                          const dvc_dlvi_result_t r)
{
    json_t *root = json_object();
    char dg[17], tagged[32];
    if (dvc_problem_digest(dg, problem) != DVC_OK) {
        json_decref(root);
        return NULL;
    }
    snprintf(tagged, sizeof tagged, "fnv1a64:%s", dg);
    json_object_set_new(root, "format", json_string(CERT_FORMAT));
    json_object_set_new(root, "version", json_integer(CERT_VERSION));
    json_object_set_new(root, "generator", json_string("dvicert " DVC_VERSION));
    json_object_set_new(root, "precision", json_integer((json_int_t)r->prec));
    json_object_set_new(root, "method", method_obj(p, r));
    json_object_set_new(root, "summary", summary_obj(r));
    json_object_set_new(root, "problem_digest", json_string(tagged));
    json_object_set_new(root, "problem", json_deep_copy(problem));
    json_object_set_new(root, "steps", steps_arr(p, r));
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

static dvc_status from_root(dvc_cert_t c, json_t *root, const char *file)
{
    const json_t *j, *steps, *prob;
    dvc_status st;
    dvc_dlvi_problem_t p;
    free_arrays(c);
    json_decref(c->root);
    c->root = root;
    if ((st = need(&j, root, "format", JSON_STRING, file)) != DVC_OK) return st;
    if (strcmp(json_string_value(j), CERT_FORMAT) != 0)
        return dvc_error(DVC_ERR_INPUT, "%s: not a dvicert certificate (format '%s')", file,
                         json_string_value(j));
    if ((st = need(&j, root, "version", JSON_INTEGER, file)) != DVC_OK) return st;
    if (json_integer_value(j) != CERT_VERSION)
        return dvc_error(DVC_ERR_INPUT, "%s: certificate version %lld, this dvicert reads %d", file,
                         (long long)json_integer_value(j), CERT_VERSION);
    if ((st = need(&j, root, "precision", JSON_INTEGER, file)) != DVC_OK) return st;
    if (json_integer_value(j) < 24 || json_integer_value(j) > 65536)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'precision' out of range", file);
    c->prec = (mpfr_prec_t)json_integer_value(j);
    if ((st = need(&j, root, "method", JSON_OBJECT, file)) != DVC_OK) return st;
    c->method = (json_t *)j;
    if ((st = need(&j, root, "summary", JSON_OBJECT, file)) != DVC_OK) return st;
    c->summary = (json_t *)j;
    if ((st = need(&j, c->method, "sharpen", JSON_TRUE, file)) != DVC_OK) return st;
    c->sharpen = json_is_true(j);
    if ((st = need(&j, root, "problem_digest", JSON_STRING, file)) != DVC_OK) return st;
    if (strncmp(json_string_value(j), "fnv1a64:", 8) != 0 || strlen(json_string_value(j)) != 24)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'problem_digest' must be fnv1a64:<16 hex digits>", file);
    memcpy(c->problem_digest, json_string_value(j) + 8, 17);
    if ((st = need(&j, root, "digest", JSON_STRING, file)) != DVC_OK) return st;
    if (strncmp(json_string_value(j), "fnv1a64:", 8) != 0 || strlen(json_string_value(j)) != 24)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'digest' must be fnv1a64:<16 hex digits>", file);
    memcpy(c->digest, json_string_value(j) + 8, 17);
    if ((st = need(&prob, root, "problem", JSON_OBJECT, file)) != DVC_OK) return st;
    c->problem = (json_t *)prob;

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
        mpfi_set_prec(c->T, c->prec);
        mpfi_set(c->T, p->T);
        /* the admissible box of y: [l.lo, u.hi] (set exactly: same precision) */
        c->ybox_lo = malloc((size_t)(c->m > 0 ? c->m : 1) * sizeof *c->ybox_lo);
        c->ybox_hi = malloc((size_t)(c->m > 0 ? c->m : 1) * sizeof *c->ybox_hi);
        if (!c->ybox_lo || !c->ybox_hi) {
            free(c->ybox_lo);
            free(c->ybox_hi);
            c->ybox_lo = c->ybox_hi = NULL;
            st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        } else {
            for (long k = 0; k < c->m; k++) {
                mpfr_init2(c->ybox_lo[k], c->prec);
                mpfr_init2(c->ybox_hi[k], c->prec);
                mpfr_set(c->ybox_lo[k], &p->l->e[k]->left, MPFR_RNDD);
                mpfr_set(c->ybox_hi[k], &p->u->e[k]->right, MPFR_RNDU);
            }
        }
    }
    dvc_dlvi_problem_clear(p);
    if (st != DVC_OK) return st;

    if ((st = need(&steps, root, "steps", JSON_ARRAY, file)) != DVC_OK) return st;
    if ((long)json_array_size(steps) != c->N + 1)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'steps' has %ld entries, the problem has N + 1 = %ld",
                         file, (long)json_array_size(steps), c->N + 1);
    if ((st = alloc_arrays(c)) != DVC_OK) return st;
    for (long i = 0; i <= c->N; i++) {
        const json_t *s = json_array_get(steps, (size_t)i), *xs, *ys, *yh;
        char where[512];
        if (!json_is_object(s))
            return dvc_error(DVC_ERR_INPUT, "%s: step %ld must be an object", file, i);
        snprintf(where, sizeof where, "%s: step %ld", file, i);
        if ((st = need(&j, s, "t", JSON_STRING, where)) != DVC_OK) return st;
        if ((st = need(&xs, s, "x", JSON_ARRAY, where)) != DVC_OK) return st;
        if ((st = need(&ys, s, "y", JSON_ARRAY, where)) != DVC_OK) return st;
        if ((st = need(&yh, s, "yhat", JSON_ARRAY, where)) != DVC_OK) return st;
        if ((long)json_array_size(xs) != c->n || (long)json_array_size(ys) != c->m ||
            (long)json_array_size(yh) != c->m)
            return dvc_error(DVC_ERR_INPUT, "%s: fields 'x', 'y', 'yhat' must have %ld, %ld, %ld entries",
                             where, c->n, c->m, c->m);
        for (long k = 0; k < c->n; k++)
            if ((st = read_hex(&c->x[i * c->n + k], json_array_get(xs, (size_t)k), file, i, "x", k)) != DVC_OK)
                return st;
        for (long k = 0; k < c->m; k++) {
            const json_t *pair = json_array_get(yh, (size_t)k);
            if ((st = read_hex(&c->y[i * c->m + k], json_array_get(ys, (size_t)k), file, i, "y", k)) != DVC_OK)
                return st;
            if (!json_is_array(pair) || json_array_size(pair) != 2)
                return dvc_error(DVC_ERR_INPUT, "%s: field 'yhat' entry %ld must be [lo, hi]", where, k + 1);
            if ((st = read_dec(c->yhat_lo[i * c->m + k], json_array_get(pair, 0), file, i, "yhat")) != DVC_OK ||
                (st = read_dec(c->yhat_hi[i * c->m + k], json_array_get(pair, 1), file, i, "yhat")) != DVC_OK)
                return st;
            if (mpfr_cmp(&c->yhat_lo[i * c->m + k]->left, &c->yhat_hi[i * c->m + k]->right) > 0)
                return dvc_error(DVC_ERR_INPUT, "%s: field 'yhat' entry %ld: lo > hi", where, k + 1);
        }
        if ((st = read_dec(c->eps_x[i], json_object_get(s, "eps_x"), file, i, "eps_x")) != DVC_OK) return st;
        if ((st = read_dec(c->eps_y[i], json_object_get(s, "eps_y"), file, i, "eps_y")) != DVC_OK) return st;
        if (mpfr_sgn(&c->eps_x[i]->right) < 0 || mpfr_sgn(&c->eps_y[i]->right) < 0)
            return dvc_error(DVC_ERR_INPUT, "%s: negative bound", where);
        if (i >= 1) {
            if ((st = read_dec(c->ry[i], json_object_get(s, "ry"), file, i, "ry")) != DVC_OK) return st;
            if (mpfr_sgn(&c->ry[i]->right) < 0) return dvc_error(DVC_ERR_INPUT, "%s: negative bound", where);
        } else {
            mpfi_set_ui(c->ry[0], 0);
        }
    }
    return DVC_OK;
}

dvc_status dvc_cert_read(dvc_cert_t c, const char *path)
{
    json_t *root;
    dvc_status st = dvc_json_load(&root, path);
    if (st != DVC_OK) return st;
    return from_root(c, root, path);
}

/* ---- enclose / write ---------------------------------------------------- */

/* One attempt at precision prec (0: the file's). */
static dvc_status enclose_at(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec, int sharpen,
                             mpfr_prec_t *used)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    json_t *resolved = NULL, *root;
    dvc_status st;
    mpfr_prec_t saved = dvc_prec_get();
    dvc_dlvi_problem_init(p, 0, 0, 0);
    st = dvc_problem_load(p, &resolved, problem_path, prec);
    if (st != DVC_OK) {
        dvc_dlvi_problem_clear(p);
        return st;
    }
    *used = p->prec;
    dvc_dlvi_opts_default(&o);
    o.sharpen = sharpen;
    o.prec = p->prec;
    o.progress = 1;
    dvc_prec_set(p->prec);
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_run(r, p, &o);
    if (st == DVC_OK) {
        root = build_root(p, resolved, r);
        if (root == NULL) st = dvc_error(DVC_ERR_NOMEM, "cannot build the certificate");
        else st = from_root(c, root, problem_path);
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
    mpfr_prec_t used = 0, start;
    char tried[256] = "";
    dvc_status st = enclose_at(c, problem_path, prec, sharpen, &used);
    start = used;
    c->prec_start = start;
    c->retry_reason[0] = '\0';
    while (st == DVC_NOT_CERTIFIED && used > 0 && 2 * used <= prec_max) {
        size_t len = strlen(tried);
        snprintf(tried + len, sizeof tried - len, "%s%ld", len ? ", " : "", (long)used);
        snprintf(c->retry_reason, sizeof c->retry_reason, "%s", dvc_error_message());
        st = enclose_at(c, problem_path, 2 * used, sharpen, &used);
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
    if (!c->root) return dvc_error(DVC_ERR_INTERNAL, "empty certificate");
    fail |= append(&buf, &len, &cap, "{\n");
    json_object_foreach(c->root, key, val) {
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
    if (fail) {
        free(buf);
        return dvc_error(DVC_ERR_NOMEM, "out of memory while writing %s", path);
    }
    st = dvc_write_atomic(path, buf, len);
    free(buf);
    return st;
}

/* ---- verification ------------------------------------------------------- */

static dvc_status reject_bound(const char *field, long i, const mpfi_t stored, const mpfr_t rec)
{
    char *a = dvc_mpfr_str(&stored->left, 17, MPFR_RNDD), *b = dvc_mpfr_str(rec, 17, MPFR_RNDU);
    dvc_status st = dvc_error(DVC_NOT_CERTIFIED, "step %ld, field '%s': stored bound %s is below the "
                              "recomputed rigorous bound %s", i, field, a ? a : "?", b ? b : "?");
    free(a);
    free(b);
    return st;
}

/* Statements of what was proven (hypotheses, the step condition, the
 * method parameter): compared verbatim, although they are strings. */
static int is_stated_claim(const char *key)
{
    return strcmp(key, "P_matrix") == 0 || strcmp(key, "step_condition") == 0 ||
           strcmp(key, "theta") == 0;
}

/* Compare a stored summary/method object with the recomputed one. Numbers
 * (decimal strings) are claims: an "upper" bound may not be below the
 * recomputed one, a "lower" bound not above it; integers, flags and the
 * stated hypotheses must be equal; other free text (theorem, method
 * descriptions) is informative and not compared, so rewording a message
 * does not invalidate old certificates. Returns the first offending key, or
 * NULL. */
static const char *claims_hold(const json_t *stored, const json_t *rec, mpfr_prec_t prec)
{
    const char *key;
    json_t *v;
    const char *bad = NULL;
    mpfi_t a, b;
    (void)prec;
    mpfi_init2(a, 256);
    mpfi_init2(b, 256);
    json_object_foreach((json_t *)rec, key, v) {
        const json_t *sv = json_object_get(stored, key);
        int up = strstr(key, "upper") || strncmp(key, "max_", 4) == 0 ||
                 strncmp(key, "eps_", 4) == 0 || strcmp(key, "h_hi") == 0;
        int lo = strstr(key, "lower") || strcmp(key, "h_lo") == 0;
        if (sv == NULL) {
            bad = key;
            break;
        }
        if (json_is_integer(v) || json_is_boolean(v)) {
            if (!json_equal(v, (json_t *)sv)) {
                bad = key;
                break;
            }
            continue;
        }
        if (is_stated_claim(key)) {
            if (!json_equal(v, (json_t *)sv)) {
                bad = key;
                break;
            }
            continue;
        }
        if (!(up || lo) || !json_is_string(v)) continue; /* free text */
        if (!json_is_string(sv)) {
            bad = key;
            break;
        }
        if (strcmp(json_string_value(sv), json_string_value(v)) == 0) continue; /* same number */
        if (dvc_ival_set_str(a, json_string_value(sv)) != DVC_OK ||
            dvc_ival_set_str(b, json_string_value(v)) != DVC_OK) {
            bad = key;
            break;
        }
        /* Different decimals: the stored number S must be proven on the safe
         * side of the recomputed R (S >= R for an upper bound) from their
         * enclosures alone. Comparing left ends only is not a proof: a long
         * decimal just below R can share R's 256-bit left end. */
        if (up ? mpfr_cmp(&a->left, &b->right) < 0 : mpfr_cmp(&a->right, &b->left) > 0) {
            bad = key;
            break;
        }
    }
    mpfi_clear(a);
    mpfi_clear(b);
    return bad;
}

dvc_status dvc_cert_verify(const dvc_cert_t c)
{
    char dg[17];
    dvc_status st;
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    mpfr_t tmp;
    mpfr_prec_t saved = dvc_prec_get();

    /* 1. the problem is the one the certificate was written for */
    if ((st = dvc_problem_digest(dg, c->problem)) != DVC_OK) return st;
    if (strcmp(dg, c->problem_digest) != 0)
        return dvc_error(DVC_NOT_CERTIFIED, "field 'problem': digest %s differs from the stored "
                         "problem_digest %s (the embedded problem was edited)", dg, c->problem_digest);

    /* 2. recompute every bound from the stored predictor, from scratch */
    dvc_prec_set(c->prec);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    st = dvc_problem_from_json(p, NULL, c->problem, "embedded problem", NULL, c->prec);
    if (st != DVC_OK) {
        dvc_dlvi_problem_clear(p);
        dvc_prec_set(saved);
        return st == DVC_NOT_CERTIFIED ? DVC_ERR_INPUT : st;
    }
    dvc_dlvi_opts_default(&o);
    o.sharpen = c->sharpen;
    o.prec = c->prec;
    dvc_dlvi_result_init(r);
    st = dvc_dlvi_certify(r, p, &o, c->x, c->y);
    if (st == DVC_NOT_CERTIFIED)
        st = dvc_error_context(DVC_NOT_CERTIFIED, "the stored predictor cannot be certified: ");
    mpfr_init2(tmp, c->prec);
    for (long i = 0; st == DVC_OK && i <= c->N; i++) {
        char lab[40];
        const json_t *s = json_array_get(json_object_get(c->root, "steps"), (size_t)i);
        if (mpfr_cmp(r->eps_x[i], &c->eps_x[i]->left) > 0) {
            st = reject_bound("eps_x", i, c->eps_x[i], r->eps_x[i]);
            break;
        }
        if (mpfr_cmp(r->eps_y[i], &c->eps_y[i]->left) > 0) {
            st = reject_bound("eps_y", i, c->eps_y[i], r->eps_y[i]);
            break;
        }
        if (i >= 1) {
            mpfr_set_d(tmp, r->ry[i - 1], MPFR_RNDU);
            if (mpfr_cmp(tmp, &c->ry[i]->left) > 0) {
                st = reject_bound("ry", i, c->ry[i], tmp);
                break;
            }
        }
        for (long k = 0; k < c->m; k++) {
            const mpfi_ptr y = r->yhat[i * c->m + k];
            if (mpfr_cmp(&c->yhat_lo[i * c->m + k]->right, &y->left) > 0 ||
                mpfr_cmp(&y->right, &c->yhat_hi[i * c->m + k]->left) > 0) {
                st = dvc_error(DVC_NOT_CERTIFIED, "step %ld, field 'yhat' entry %ld: the stored "
                               "enclosure does not contain the recomputed one", i, k + 1);
                break;
            }
        }
        if (st != DVC_OK) break;
        time_label(lab, c->T, c->N, i, c->prec);
        if (strcmp(lab, json_string_value(json_object_get(s, "t"))) != 0) {
            st = dvc_error(DVC_NOT_CERTIFIED, "step %ld, field 't': '%s' is not the grid time %s", i,
                           json_string_value(json_object_get(s, "t")), lab);
            break;
        }
    }
    mpfr_clear(tmp);
    /* 3. what the certificate states about the method and the proof */
    if (st == DVC_OK) {
        json_t *m = method_obj(p, r), *sm = summary_obj(r);
        const char *k1 = claims_hold(c->method, m, c->prec), *k2 = claims_hold(c->summary, sm, c->prec);
        if (k1)
            st = dvc_error(DVC_NOT_CERTIFIED, "field 'method' entry '%s' does not match the "
                           "recomputation", k1);
        else if (k2)
            st = dvc_error(DVC_NOT_CERTIFIED, "field 'summary' entry '%s' is not implied by the "
                           "recomputation", k2);
        json_decref(m);
        json_decref(sm);
    }
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
    dvc_prec_set(saved);
    /* 4. nothing else was edited */
    if (st == DVC_OK) {
        if ((st = digest_root(dg, c->root)) != DVC_OK) return st;
        if (strcmp(dg, c->digest) != 0)
            return dvc_error(DVC_NOT_CERTIFIED, "field 'digest': the certificate text was edited "
                             "after it was written (digest %s, stored %s)", dg, c->digest);
    }
    return st;
}

/* ---- tubes -------------------------------------------------------------- */

void dvc_cert_time(mpfi_t t, const dvc_cert_t c, long i)
{
    mpfi_mul_si(t, c->T, i);
    mpfi_div_si(t, t, c->N);
}

/* Meet the y edges with [l.lo, u.hi]: y(t) solves the LVI, so y(t) in [l, u].
 * The box ends are exact numbers (l.lo <= l, u.hi >= u), so the max / min
 * keeps an outer edge outer and an inner edge inner; the rounding mode only
 * matters if lo, hi have a lower precision than the box. */
static void clip_y(mpfr_t *lo, mpfr_t *hi, const dvc_cert_t c, mpfr_rnd_t rlo, mpfr_rnd_t rhi)
{
    if (!c->ybox_lo || !c->ybox_hi) return;
    for (long k = 0; k < c->m; k++) {
        if (mpfr_cmp(lo[k], c->ybox_lo[k]) < 0) mpfr_set(lo[k], c->ybox_lo[k], rlo);
        if (mpfr_cmp(hi[k], c->ybox_hi[k]) > 0) mpfr_set(hi[k], c->ybox_hi[k], rhi);
    }
}

int dvc_cert_tube_piece(mpfr_t *lo, mpfr_t *hi, const dvc_cert_t c, long i, const mpfi_t tt,
                        int which)
{
    mpfi_t a, b, s, one, v;
    mpfr_t plo, phi;
    int meets;
    mpfi_init2(a, c->prec);
    mpfi_init2(b, c->prec);
    mpfi_init2(s, c->prec);
    mpfi_init2(one, c->prec);
    mpfi_init2(v, c->prec);
    mpfr_inits2(c->prec, plo, phi, (mpfr_ptr)0);
    dvc_cert_time(a, c, i - 1);
    dvc_cert_time(b, c, i);
    mpfr_max(plo, &tt->left, &a->left, MPFR_RNDD);
    mpfr_min(phi, &tt->right, &b->right, MPFR_RNDU);
    meets = mpfr_cmp(plo, phi) <= 0;
    if (meets && which == 0) {
        /* s = (t - t_{i-1}) / h over the piece, clipped to [0, 1] */
        mpfi_interv_fr(s, plo, phi);
        mpfi_sub(s, s, a);
        mpfi_sub(v, b, a);
        mpfi_div(s, s, v);
        if (mpfr_sgn(&s->left) < 0) mpfr_set_zero(&s->left, 1);
        if (mpfr_cmp_ui(&s->right, 1) > 0) mpfr_set_ui(&s->right, 1, MPFR_RNDU);
        if (mpfr_cmp(&s->left, &s->right) > 0) mpfr_set(&s->left, &s->right, MPFR_RNDD);
        mpfi_ui_sub(one, 1, s);
        for (long j = 0; j < c->n; j++) {
            /* x^h = (1 - s) x^{i-1} + s x^i: exact doubles, interval weights */
            mpfi_mul_d(v, one, c->x[(i - 1) * c->n + j]);
            mpfi_mul_d(b, s, c->x[i * c->n + j]);
            mpfi_add(v, v, b);
            mpfr_sub(lo[j], &v->right, &c->eps_x[i]->left, MPFR_RNDU);
            mpfr_add(hi[j], &v->left, &c->eps_x[i]->left, MPFR_RNDD);
        }
    } else if (meets) {
        for (long k = 0; k < c->m; k++) {
            /* lower edge: max of the two lower edges, rounded up (inner) */
            mpfr_sub(plo, &c->yhat_lo[(i - 1) * c->m + k]->right, &c->ry[i]->left, MPFR_RNDU);
            mpfr_sub(phi, &c->yhat_lo[i * c->m + k]->right, &c->ry[i]->left, MPFR_RNDU);
            mpfr_max(lo[k], plo, phi, MPFR_RNDU);
            mpfr_add(plo, &c->yhat_hi[(i - 1) * c->m + k]->left, &c->ry[i]->left, MPFR_RNDD);
            mpfr_add(phi, &c->yhat_hi[i * c->m + k]->left, &c->ry[i]->left, MPFR_RNDD);
            mpfr_min(hi[k], plo, phi, MPFR_RNDD);
        }
        /* inner edges: lo rounded up, hi down */
        clip_y(lo, hi, c, MPFR_RNDU, MPFR_RNDD);
    }
    mpfr_clears(plo, phi, (mpfr_ptr)0);
    mpfi_clear(a);
    mpfi_clear(b);
    mpfi_clear(s);
    mpfi_clear(one);
    mpfi_clear(v);
    return meets;
}

void dvc_cert_tube_step(mpfr_t *lo, mpfr_t *hi, const dvc_cert_t c, long i, int which)
{
    if (which == 0) {
        for (long j = 0; j < c->n; j++) {
            double a = c->x[(i - 1) * c->n + j], b = c->x[i * c->n + j];
            mpfr_set_d(lo[j], a < b ? a : b, MPFR_RNDD);
            mpfr_sub(lo[j], lo[j], &c->eps_x[i]->right, MPFR_RNDD);
            mpfr_set_d(hi[j], a < b ? b : a, MPFR_RNDU);
            mpfr_add(hi[j], hi[j], &c->eps_x[i]->right, MPFR_RNDU);
        }
    } else {
        mpfr_t t1, t2;
        mpfr_inits2(c->prec, t1, t2, (mpfr_ptr)0);
        for (long k = 0; k < c->m; k++) {
            mpfr_sub(t1, &c->yhat_lo[(i - 1) * c->m + k]->left, &c->ry[i]->right, MPFR_RNDD);
            mpfr_sub(t2, &c->yhat_lo[i * c->m + k]->left, &c->ry[i]->right, MPFR_RNDD);
            mpfr_max(lo[k], t1, t2, MPFR_RNDD);
            mpfr_add(t1, &c->yhat_hi[(i - 1) * c->m + k]->right, &c->ry[i]->right, MPFR_RNDU);
            mpfr_add(t2, &c->yhat_hi[i * c->m + k]->right, &c->ry[i]->right, MPFR_RNDU);
            mpfr_min(hi[k], t1, t2, MPFR_RNDU);
        }
        mpfr_clears(t1, t2, (mpfr_ptr)0);
        clip_y(lo, hi, c, MPFR_RNDD, MPFR_RNDU);
    }
}

void dvc_cert_tube_grid(mpfr_t *lo, mpfr_t *hi, const dvc_cert_t c, long i, int which)
{
    long k = which ? c->m : c->n;
    const double *v = which ? c->y + i * c->m : c->x + i * c->n;
    mpfi_srcptr e = which ? c->eps_y[i] : c->eps_x[i];
    for (long j = 0; j < k; j++) {
        mpfr_set_d(lo[j], v[j], MPFR_RNDD);
        mpfr_sub(lo[j], lo[j], &e->right, MPFR_RNDD);
        mpfr_set_d(hi[j], v[j], MPFR_RNDU);
        mpfr_add(hi[j], hi[j], &e->right, MPFR_RNDU);
    }
    if (which) clip_y(lo, hi, c, MPFR_RNDD, MPFR_RNDU);
}
