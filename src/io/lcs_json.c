/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Ideal contacts (docs/ideal_contacts.md): a DLVI problem file with M = 0,
 * l = 0, u = +inf is read by the problem reader, Q B is proven a P-matrix
 * (m = 1: Q B > 0) in interval arithmetic, and the problem is translated
 * into a decomposed hybrid model (one term per contact j: h = (Q x + g)_j,
 * f+ = 0, f- = B e_j K) that the hybrid engine encloses. Every message names the file and the field. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dvicert_version.h"
#include "dvicert/lcs_cert.h"
#include "io/hybrid_json.h"
#include "io/json.h"
#include "io/problem_json.h"

/* K tried in turn (docs/ideal_contacts.md, section 2: any K above
 * sup -Q (A x + f) / (Q B) on the sliding segments gives the same run). */
static const char *const k_values[] = {"64", "65536", "67108864", NULL};

static int is_zero_entry(const json_t *e)
{
    mpfi_t x;
    int z;
    if (!json_is_number(e) && !json_is_string(e)) return 0;
    mpfi_init2(x, 53);
    z = dvc_json_ival(x, e, "M") == DVC_OK && mpfr_zero_p(&x->left) && mpfr_zero_p(&x->right);
    mpfi_clear(x);
    return z;
}

static int m_is_zero(const json_t *root)
{
    const json_t *M = json_object_get(root, "M");
    size_t i, j;
    if (!json_is_object(root) || json_object_get(root, "format") || json_object_get(root, "modes") ||
        json_object_get(root, "decomposed") || !json_is_array(M) || json_array_size(M) == 0)
        return 0;
    for (i = 0; i < json_array_size(M); i++) {
        const json_t *row = json_array_get(M, i);
        if (!json_is_array(row) || json_array_size(row) == 0) return 0;
        for (j = 0; j < json_array_size(row); j++)
            if (!is_zero_entry(json_array_get(row, j))) return 0;
    }
    return 1;
}

int dvc_lcs_file_is_lcs(const char *path)
{
    struct stat sb;
    json_t *root;
    json_error_t err;
    int r;
    /* problem files are small; certificates and data are not looked into */
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > (1 << 24)) return 0;
    root = json_load_file(path, 0, &err);
    if (!root) return 0;
    r = m_is_zero(root);
    json_decref(root);
    return r;
}

int dvc_lcs_cert_is_lcs(const dvc_hybrid_cert_t c)
{
    json_t *model;
    int r;
    if (!c->model_json) return 0;
    model = json_loads(c->model_json, 0, NULL);
    r = model && json_is_object(json_object_get(model, "lcs"));
    json_decref(model);
    return r;
}

int dvc_lcs_file_is_cert(const char *path)
{
    dvc_hybrid_cert_t c;
    int r = 0;
    if (dvc_hybrid_file_kind(path) != 2) return 0;
    dvc_hybrid_cert_init(c);
    if (dvc_hybrid_cert_read(c, path) == DVC_OK) r = dvc_lcs_cert_is_lcs(c);
    dvc_hybrid_cert_clear(c);
    return r;
}

/* An expression text containing the identifier t (a function of time). */
static int mentions_t(const char *s)
{
    for (const char *p = s; *p; p++) {
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *q = p;
            while (isalnum((unsigned char)*q) || *q == '_' || *q == '.') q++;
            if (q - p == 1 && *p == 't') return 1;
            p = q - 1;
        }
    }
    return 0;
}

static int ival_is_zero(const mpfi_t x)
{
    return mpfr_zero_p(&x->left) && mpfr_zero_p(&x->right);
}

/* Appends "term" to the expression e ("" so far: no " + "). */
static void cat(char **e, size_t *len, const char *term)
{
    size_t add = strlen(term) + 4, cur = *e ? strlen(*e) : 0;
    if (cur + add + 1 > *len) {
        *len = 2 * (cur + add + 1);
        *e = realloc(*e, *len);
        if (cur == 0 && *e) (*e)[0] = '\0';
    }
    if (!*e) return;
    if (cur > 0) strcat(*e, " + ");
    strcat(*e, term);
}

static json_t *str_or_zero(char *e)
{
    json_t *j = json_string(e && *e ? e : "0");
    free(e);
    return j;
}

static json_t *entry(const json_t *obj, const char *key, size_t i, size_t j)
{
    return json_array_get(json_array_get(json_object_get(obj, key), i), j);
}

/* The decomposed model of the problem prob (read into p), with K. */
static dvc_status build_model(json_t **out, const json_t *prob, const dvc_dlvi_problem_t p,
                              const char *file, const char *K, const char *mode0)
{
    long n = p->n, m = p->m;
    json_t *model = json_object(), *consts = json_object(), *states = json_array(),
           *f0 = json_array(), *fp = json_array(), *x0 = json_array();
    const json_t *uc = json_object_get(prob, "constants"), *sn = json_object_get(prob, "state_names");
    const json_t *jf = json_object_get(prob, "f"), *jg = json_object_get(prob, "g");
    char name[64], term[160];
    char **h = calloc((size_t)m, sizeof *h);
    size_t *hlen = calloc((size_t)m, sizeof *hlen);
    json_t **fm = calloc((size_t)m, sizeof *fm);
    if (!h || !hlen || !fm) {
        free(h); free(hlen); free(fm);
        json_decref(model); json_decref(consts); json_decref(states); json_decref(f0);
        json_decref(fp); json_decref(x0);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    for (long j = 0; j < m; j++) fm[j] = json_array();
    const char *key;
    json_t *val;
    if (json_is_object(uc)) {
        json_object_foreach((json_t *)uc, key, val) {
            if (strncmp(key, "lcs_", 4) == 0) {
                json_decref(model); json_decref(consts); json_decref(states); json_decref(f0);
                json_decref(fp); json_decref(x0);
                for (long j = 0; j < m; j++) json_decref(fm[j]);
                free(h); free(hlen); free(fm);
                return dvc_error(DVC_ERR_INPUT, "%s: field 'constants.%s': names starting with "
                                 "'lcs_' are reserved for ideal contacts (M = 0)", file, key);
            }
            json_object_set(consts, key, val);
        }
    }
    for (long i = 0; i < n; i++) {
        if (json_is_array(sn)) json_array_append(states, json_array_get(sn, (size_t)i));
        else {
            snprintf(name, sizeof name, "x%ld", i + 1);
            json_array_append_new(states, json_string(name));
        }
    }
    for (long i = 0; i < n; i++) {
        char *e = NULL;
        size_t len = 0;
        const char *xi;
        for (long j = 0; j < n; j++) {
            if (ival_is_zero(p->A->e[i * n + j])) continue;
            snprintf(name, sizeof name, "lcs_A_%ld_%ld", i + 1, j + 1);
            json_object_set(consts, name, entry(prob, "A", (size_t)i, (size_t)j));
            snprintf(term, sizeof term, "%s*%s", name,
                     json_string_value(json_array_get(states, (size_t)j)));
            cat(&e, &len, term);
        }
        if (jf && json_is_string(json_array_get(jf, (size_t)i))) {
            const char *txt = json_string_value(json_array_get(jf, (size_t)i));
            char *par = malloc(strlen(txt) + 3);
            if (par) {
                sprintf(par, "(%s)", txt);
                cat(&e, &len, par);
                free(par);
            }
        } else if (jf) {
            /* a number: a constant, read as the problem reader reads it */
            snprintf(name, sizeof name, "lcs_f_%ld", i + 1);
            json_object_set(consts, name, json_array_get(jf, (size_t)i));
            cat(&e, &len, name);
        }
        json_array_append_new(f0, str_or_zero(e));
        json_array_append_new(fp, json_string("0"));
        xi = json_string_value(json_array_get(states, (size_t)i));
        for (long j = 0; j < m; j++) {
            if (ival_is_zero(p->B->e[i * m + j])) {
                json_array_append_new(fm[j], json_string("0"));
            } else {
                snprintf(name, sizeof name, "lcs_B_%ld_%ld", i + 1, j + 1);
                json_object_set(consts, name, entry(prob, "B", (size_t)i, (size_t)j));
                snprintf(term, sizeof term, "%s*lcs_K", name);
                json_array_append_new(fm[j], json_string(term));
            }
            if (!ival_is_zero(p->Q->e[j * n + i])) {
                snprintf(name, sizeof name, "lcs_Q_%ld_%ld", j + 1, i + 1);
                json_object_set(consts, name, entry(prob, "Q", (size_t)j, (size_t)i));
                snprintf(term, sizeof term, "%s*%s", name, xi);
                cat(&h[j], &hlen[j], term);
            }
        }
        json_array_append(x0, json_array_get(json_object_get(prob, "x0"), (size_t)i));
    }
    for (long j = 0; jg && j < m; j++) {
        snprintf(name, sizeof name, "lcs_g_%ld", j + 1);
        json_object_set(consts, name, json_array_get(jg, (size_t)j));
        cat(&h[j], &hlen[j], name);
    }
    json_object_set_new(consts, "lcs_K", json_string(K));
    json_object_set_new(model, "states", states);
    json_object_set_new(model, "constants", consts);
    {
        json_t *dec = json_object(), *terms = json_object();
        for (long j = 0; j < m; j++) {
            json_t *t = json_object();
            json_object_set_new(t, "h", str_or_zero(h[j]));
            json_object_set(t, "f+", fp);
            json_object_set_new(t, "f-", fm[j]);
            json_object_set_new(terms, dvc_lcs_term_name(name, sizeof name, m, j), t);
        }
        json_decref(fp);
        free(h);
        free(hlen);
        free(fm);
        json_object_set_new(dec, "f0", f0);
        json_object_set_new(dec, "terms", terms);
        json_object_set_new(model, "decomposed", dec);
    }
    {
        json_t *ini = json_object();
        json_object_set_new(ini, "mode", json_string(mode0));
        json_object_set_new(ini, "x", x0);
        json_object_set_new(model, "initial", ini);
    }
    json_object_set_new(model, "t0", json_integer(0));
    json_object_set(model, "T", json_object_get(prob, "T"));
    /* the engine's largest step (src/hybrid/lcs.c) */
    json_object_set_new(model, "h", json_real(dvc_lcs_step(p)));
    if (json_object_get(prob, "prec")) json_object_set(model, "prec", json_object_get(prob, "prec"));
    {
        json_t *l = json_object();
        json_object_set(l, "problem", (json_t *)prob);
        json_object_set_new(l, "K", json_string(K));
        json_object_set_new(model, "lcs", l);
    }
    *out = model;
    return DVC_OK;
}

/* The problem prob read, its class checked and Q B proven a P-matrix
 * (src/hybrid/lcs.c), the forms the translation needs checked (f as
 * expressions, g constant); then the model. */
static dvc_status translate(json_t **out, const json_t *prob, const char *file, mpfr_prec_t prec,
                            const char *K)
{
    dvc_dlvi_problem_t p;
    const json_t *jf = json_object_get(prob, "f"), *jg = json_object_get(prob, "g");
    int sides0[DVC_LCS_MAX];
    char mode0[DVC_LCS_MAX * 24];
    dvc_status st;
    dvc_dlvi_problem_init(p, 0, 0, prec);
    st = dvc_problem_from_json(p, NULL, prob, file, NULL, prec);
    if (st != DVC_OK) {
        dvc_dlvi_problem_clear(p);
        return st;
    }
    *out = NULL;
    st = dvc_lcs_check_class(p, file);
    for (long i = 0; st == DVC_OK && jf && i < p->n; i++) {
        const json_t *fi = json_array_get(jf, (size_t)i);
        if (!json_is_string(fi) && !json_is_number(fi))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'f' entry %ld: M = 0 (ideal contacts) needs f "
                           "as an expression of t (tables are not supported)", file, i + 1);
    }
    for (long j = 0; st == DVC_OK && jg && j < p->m; j++) {
        const json_t *g = json_array_get(jg, (size_t)j);
        if (!(json_is_number(g) || json_is_array(g) ||
              (json_is_string(g) && !mentions_t(json_string_value(g)))))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'g' entry %ld: M = 0 (ideal contacts) needs a "
                           "constant g (the constraint surface Q x + g = 0 must not move: a g "
                           "depending on t is not supported)", file, j + 1);
    }
    if (st == DVC_OK) st = dvc_lcs_prove(sides0, p, file);
    if (st == DVC_OK)
        st = build_model(out, prob, p, file, K, dvc_lcs_mode_name(mode0, sizeof mode0, p->m, sides0));
    dvc_dlvi_problem_clear(p);
    return st;
}

dvc_status dvc_lcs_enclose(dvc_hybrid_cert_t c, const char *path, mpfr_prec_t prec)
{
    json_t *prob, *model = NULL;
    dvc_status st;
    const char *base = strrchr(path, '/');
    const char *file = base ? base + 1 : path;
    if ((st = dvc_json_load(&prob, path)) != DVC_OK) return st;
    for (int k = 0; k_values[k]; k++) {
        st = translate(&model, prob, file, prec, k_values[k]);
        if (st != DVC_OK) {
            json_decref(prob);
            return st; /* the message names the file */
        }
        st = dvc_hybrid_cert_run_(c, model, file, file, prec);
        json_decref(model);
        model = NULL;
        if (st != DVC_OK && st != DVC_NOT_CERTIFIED) break;
        {
            dvc_status chk = dvc_lcs_result_check(c->model, c->res);
            if (chk == DVC_OK) break;
            /* y = K was too small to hold the state on w = 0: a larger K */
            st = chk;
            if (!k_values[k + 1])
                dvc_error_context(st, "with K = %s (the largest tried): ", k_values[k]);
        }
    }
    json_decref(prob);
    if (st == DVC_NOT_CERTIFIED) dvc_error_context(st, "%s: ", path);
    return st;
}

dvc_status dvc_lcs_cert_verify(const dvc_hybrid_cert_t c, dvc_hybrid_result_t rec)
{
    json_t *model = NULL, *again = NULL;
    const json_t *l, *prob, *K;
    dvc_status st = dvc_hybrid_cert_verify(c, rec);
    if (st != DVC_OK) return st;
    model = c->model_json ? json_loads(c->model_json, 0, NULL) : NULL;
    l = json_object_get(model, "lcs");
    prob = json_object_get(l, "problem");
    K = json_object_get(l, "K");
    if (!json_is_object(prob) || !json_is_string(K)) {
        json_decref(model);
        return dvc_error(DVC_ERR_INPUT, "field 'model.lcs': expected the members 'problem' (an "
                         "object) and 'K' (a string)");
    }
    st = translate(&again, prob, "model.lcs.problem", c->prec, json_string_value(K));
    if (st == DVC_ERR_INPUT) st = dvc_error_context(DVC_NOT_CERTIFIED, "ideal contact: ");
    if (st == DVC_OK && !json_equal(model, again))
        st = dvc_error(DVC_NOT_CERTIFIED, "ideal contact: the embedded model is not the translation "
                       "of the embedded problem (field 'model')");
    if (st == DVC_OK) st = dvc_lcs_result_check(c->model, rec ? rec : c->res);
    json_decref(again);
    json_decref(model);
    return st;
}
