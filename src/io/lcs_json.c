/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Ideal contacts (docs/ideal_contacts.md), the file layer: a DLVI problem
 * file with M = 0, l = 0, u = +inf is read by the problem reader, Q B is
 * proven a P-matrix (src/hybrid/lcs.c), the problem is translated in
 * memory into a decomposed hybrid model (src/hybrid/lcs_model.c; one term
 * per contact j: h = (Q x + g)_j, f+ = 0, f- = B e_j K) that the hybrid
 * engine encloses. Here: the file's forms checked, its numbers read with
 * the hybrid model reader's rules, and the model rendered as the hybrid
 * model file the certificate embeds. Every message names the file and the
 * field. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dvicert_version.h"
#include "dvicert/files.h"
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
    FILE *f;
    int r;
    /* problem files are small; certificates and data are not looked into */
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > (1 << 24)) return 0;
    /* through dvc_infile_open: a gzip problem file is read too */
    if (dvc_infile_open(&f, path, "rb") != DVC_OK) return 0;
    root = json_loadf(f, 0, &err);
    if (dvc_infile_close(f, DVC_OK) != DVC_OK || !root) {
        json_decref(root);
        return 0;
    }
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

/* Sets consts[name] <- the problem's entry key[i][j] (or key[i], j < 0). */
static void put_entry(json_t *consts, const char *fmt, const json_t *prob, const char *key, long i,
                      long j)
{
    char name[64];
    if (j >= 0) snprintf(name, sizeof name, fmt, i + 1, j + 1);
    else snprintf(name, sizeof name, fmt, i + 1);
    json_object_set(consts, name, j >= 0 ? entry(prob, key, (size_t)i, (size_t)j)
                                         : json_array_get(json_object_get(prob, key), (size_t)i));
}

/* The constants of the translated model, in the order its rendering lists
 * them: the problem's own, then by row i the nonzero lcs_A_i_j, lcs_f_i (f_i
 * a number), the nonzero lcs_B_i_j and lcs_Q_j_i; then lcs_g_j and lcs_K. */
static dvc_status model_consts(json_t **out, const json_t *prob, const dvc_dlvi_problem_t p,
                               const char *file, const char *K)
{
    long n = p->n, m = p->m;
    const json_t *uc = json_object_get(prob, "constants"), *jf = json_object_get(prob, "f");
    json_t *consts = json_object(), *val;
    const char *key;
    if (json_is_object(uc)) {
        json_object_foreach((json_t *)uc, key, val) {
            if (strncmp(key, "lcs_", 4) == 0) {
                json_decref(consts);
                return dvc_error(DVC_ERR_INPUT, "%s: field 'constants.%s': names starting with "
                                 "'lcs_' are reserved for ideal contacts (M = 0)", file, key);
            }
            json_object_set(consts, key, val);
        }
    }
    for (long i = 0; i < n; i++) {
        for (long j = 0; j < n; j++)
            if (!ival_is_zero(p->A->e[i * n + j])) put_entry(consts, "lcs_A_%ld_%ld", prob, "A", i, j);
        if (jf && !json_is_string(json_array_get(jf, (size_t)i)))
            put_entry(consts, "lcs_f_%ld", prob, "f", i, -1);
        for (long j = 0; j < m; j++) {
            if (!ival_is_zero(p->B->e[i * m + j])) put_entry(consts, "lcs_B_%ld_%ld", prob, "B", i, j);
            if (!ival_is_zero(p->Q->e[j * n + i])) put_entry(consts, "lcs_Q_%ld_%ld", prob, "Q", j, i);
        }
    }
    for (long j = 0; json_object_get(prob, "g") && j < m; j++)
        put_entry(consts, "lcs_g_%ld", prob, "g", j, -1);
    json_object_set_new(consts, "lcs_K", json_string(K));
    *out = consts;
    return DVC_OK;
}

/* The state names: the problem's, else x1 .. xn. */
static json_t *state_names(const json_t *prob, long n)
{
    const json_t *sn = json_object_get(prob, "state_names");
    json_t *states = json_array();
    char name[32];
    for (long i = 0; i < n; i++) {
        if (json_is_array(sn)) json_array_append(states, json_array_get(sn, (size_t)i));
        else {
            snprintf(name, sizeof name, "x%ld", i + 1);
            json_array_append_new(states, json_string(name));
        }
    }
    return states;
}

/* The text of f0_i, h_j and f-_i (the same sums src/hybrid/lcs_model.c
 * builds as trees). */
static json_t *field_text(const json_t *prob, const dvc_dlvi_problem_t p, const json_t *states,
                          long i)
{
    const json_t *jf = json_object_get(prob, "f");
    char name[64], term[160];
    char *e = NULL;
    size_t len = 0;
    long n = p->n;
    for (long j = 0; j < n; j++) {
        if (ival_is_zero(p->A->e[i * n + j])) continue;
        snprintf(name, sizeof name, "lcs_A_%ld_%ld", i + 1, j + 1);
        snprintf(term, sizeof term, "%s*%s", name, json_string_value(json_array_get(states, (size_t)j)));
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
        snprintf(name, sizeof name, "lcs_f_%ld", i + 1);
        cat(&e, &len, name);
    }
    return str_or_zero(e);
}

static json_t *term_json(const json_t *prob, const dvc_dlvi_problem_t p, const json_t *states,
                         long j)
{
    json_t *t = json_object(), *fp = json_array(), *fm = json_array();
    char name[64], term[160];
    char *h = NULL;
    size_t len = 0;
    long n = p->n, m = p->m;
    for (long i = 0; i < n; i++) {
        json_array_append_new(fp, json_string("0"));
        if (ival_is_zero(p->B->e[i * m + j])) {
            json_array_append_new(fm, json_string("0"));
        } else {
            snprintf(term, sizeof term, "lcs_B_%ld_%ld*lcs_K", i + 1, j + 1);
            json_array_append_new(fm, json_string(term));
        }
        if (ival_is_zero(p->Q->e[j * n + i])) continue;
        snprintf(name, sizeof name, "lcs_Q_%ld_%ld", j + 1, i + 1);
        snprintf(term, sizeof term, "%s*%s", name, json_string_value(json_array_get(states, (size_t)i)));
        cat(&h, &len, term);
    }
    if (json_object_get(prob, "g")) {
        snprintf(name, sizeof name, "lcs_g_%ld", j + 1);
        cat(&h, &len, name);
    }
    json_object_set_new(t, "h", str_or_zero(h));
    json_object_set_new(t, "f+", fp);
    json_object_set_new(t, "f-", fm);
    return t;
}

/* The rendering of the translated model of prob (read into p) with the
 * constants consts and K: the hybrid model file the certificate embeds
 * (docs/ideal_contacts.md), with member "lcs" (the problem and K). */
static json_t *render_model(const json_t *prob, const dvc_dlvi_problem_t p, json_t *consts,
                            const char *K, const char *mode0)
{
    json_t *model = json_object(), *states = state_names(prob, p->n), *f0 = json_array(),
           *x0 = json_array(), *dec = json_object(), *terms = json_object(), *ini = json_object(),
           *l = json_object();
    char name[64];
    for (long i = 0; i < p->n; i++) {
        json_array_append_new(f0, field_text(prob, p, states, i));
        json_array_append(x0, json_array_get(json_object_get(prob, "x0"), (size_t)i));
    }
    json_object_set_new(model, "states", states);
    json_object_set(model, "constants", consts);
    for (long j = 0; j < p->m; j++)
        json_object_set_new(terms, dvc_lcs_term_name(name, sizeof name, p->m, j),
                            term_json(prob, p, states, j));
    json_object_set_new(dec, "f0", f0);
    json_object_set_new(dec, "terms", terms);
    json_object_set_new(model, "decomposed", dec);
    json_object_set_new(ini, "mode", json_string(mode0));
    json_object_set_new(ini, "x", x0);
    json_object_set_new(model, "initial", ini);
    json_object_set_new(model, "t0", json_integer(0));
    json_object_set(model, "T", json_object_get(prob, "T"));
    /* the engine's largest step (src/hybrid/lcs.c) */
    json_object_set_new(model, "h", json_real(dvc_lcs_step(p)));
    if (json_object_get(prob, "prec")) json_object_set(model, "prec", json_object_get(prob, "prec"));
    json_object_set(l, "problem", (json_t *)prob);
    json_object_set_new(l, "K", json_string(K));
    json_object_set_new(model, "lcs", l);
    return model;
}

/* The model's precision as its reader takes it: prec, else the member
 * "prec" of the rendering, else 53. */
static dvc_status model_prec(mpfr_prec_t *out, const json_t *prob, const char *file,
                             mpfr_prec_t prec)
{
    if (prec <= 0) {
        const json_t *jp = json_object_get(prob, "prec");
        prec = json_is_integer(jp) ? (mpfr_prec_t)json_integer_value(jp) : 53;
        if (prec < 24 || prec > 4096)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'prec': %ld bits is out of range [24, 4096]",
                             file, (long)prec);
    }
    *out = prec;
    return DVC_OK;
}

/* x0 as the model reader reads 'initial.x': each entry at prec, finite
 * in binary64. */
static dvc_status read_x0(dvc_ivec_t x, const json_t *prob, const json_t *states, const char *file)
{
    const json_t *jx = json_object_get(prob, "x0");
    char where[300];
    if (!json_is_array(jx) || (long)json_array_size(jx) != x->n)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'initial.x': %zu entries, expected %ld", file,
                         json_is_array(jx) ? json_array_size(jx) : 0, x->n);
    for (long i = 0; i < x->n; i++) {
        dvc_status st;
        snprintf(where, sizeof where, "%s: field 'initial.x' entry %ld (%s)", file, i + 1,
                 json_string_value(json_array_get(states, (size_t)i)));
        st = dvc_json_ival(x->e[i], json_array_get(jx, (size_t)i), where);
        if (st == DVC_OK && !dvc_json_fits_d(x->e[i]))
            st = dvc_error(DVC_ERR_INPUT, "%s: not a finite number (within the binary64 range)", where);
        if (st != DVC_OK) return st;
    }
    return DVC_OK;
}

/* The translated model in memory (src/hybrid/lcs_model.c) from the problem
 * p and the file's texts and numbers, read with the model reader's rules:
 * the constants consts (the file's own and its entries, model_consts), the
 * f texts, x0 and T. */
static dvc_status build_model(dvc_hybrid_model_t hm, const json_t *prob, const json_t *consts,
                              const dvc_dlvi_problem_t p, const int *sides0, const char *file,
                              mpfr_prec_t prec)
{
    const json_t *jf = json_object_get(prob, "f");
    json_t *states = state_names(prob, p->n), *holder = json_object();
    const char **names = calloc((size_t)p->n, sizeof *names), **f = NULL;
    dvc_expr_consts_t c;
    dvc_ivec_t x0;
    mpfr_t T;
    dvc_status st = DVC_OK;
    json_object_set(holder, "constants", (json_t *)consts);
    if (jf) f = calloc((size_t)p->n, sizeof *f);
    if (!names || (jf && !f)) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; st == DVC_OK && i < p->n; i++) {
        names[i] = json_string_value(json_array_get(states, (size_t)i));
        if (!names[i])
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'states' entry %ld: expected a name", file, i + 1);
        if (f) f[i] = json_string_value(json_array_get(jf, (size_t)i));
    }
    dvc_expr_consts_init(c);
    dvc_ivec_init2(x0, p->n, prec);
    mpfr_init2(T, prec);
    if (st == DVC_OK) st = dvc_hybrid_json_consts(c, holder, file, prec);
    if (st == DVC_OK) st = read_x0(x0, prob, states, file);
    if (st == DVC_OK) st = dvc_hybrid_json_time(T, prob, "T", file, 1, prec);
    if (st == DVC_OK) {
        dvc_lcs_source s = {file, names, f, json_object_get(prob, "g") != NULL, c, x0, T, prec};
        st = dvc_lcs_model(hm, p, &s, sides0);
    } else {
        dvc_hybrid_model_init(hm, 1, NULL, prec);
    }
    mpfr_clear(T);
    dvc_ivec_clear(x0);
    dvc_expr_consts_clear(c);
    free(names);
    free(f);
    json_decref(states);
    json_decref(holder);
    return st;
}

/* The problem prob read, its class checked and Q B proven a P-matrix
 * (src/hybrid/lcs.c), the forms the translation needs checked (f as
 * expressions, g constant); then the model rendered (*out) and built in
 * memory (hm, at the model's precision; initialised in every case). */
static dvc_status translate(json_t **out, dvc_hybrid_model_t hm, const json_t *prob,
                            const char *file, mpfr_prec_t prec, const char *K)
{
    dvc_dlvi_problem_t p;
    const json_t *jf = json_object_get(prob, "f"), *jg = json_object_get(prob, "g");
    int sides0[DVC_LCS_MAX];
    char mode0[DVC_LCS_MAX * 24];
    json_t *consts = NULL;
    mpfr_prec_t mprec = 53;
    dvc_status st;
    *out = NULL;
    dvc_dlvi_problem_init(p, 0, 0, prec);
    st = dvc_problem_from_json(p, NULL, prob, file, NULL, prec);
    if (st == DVC_OK) st = dvc_lcs_check_class(p, file);
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
    if (st == DVC_OK) st = model_consts(&consts, prob, p, file, K);
    if (st == DVC_OK) st = model_prec(&mprec, prob, file, prec);
    /* the model the engine runs, built in memory; and its rendering, the
     * text the certificate embeds */
    if (st == DVC_OK) st = build_model(hm, prob, consts, p, sides0, file, mprec);
    else dvc_hybrid_model_init(hm, 1, NULL, 53);
    if (st == DVC_OK)
        *out = render_model(prob, p, consts, K, dvc_lcs_mode_name(mode0, sizeof mode0, p->m, sides0));
    json_decref(consts);
    dvc_dlvi_problem_clear(p);
    if (st != DVC_OK) {
        json_decref(*out);
        *out = NULL;
    }
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
        dvc_hybrid_cert_reset_(c); /* the run's budget kept */
        /* the engine runs on the model built in memory; the certificate
         * embeds its rendering */
        st = translate(&model, c->model, prob, file, prec, k_values[k]);
        c->have_model = 1;
        if (st != DVC_OK) {
            json_decref(prob);
            return st; /* the message names the file */
        }
        st = dvc_hybrid_cert_run_built_(c, model, file);
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

/* The re-derivation of verify: the translation of the embedded problem
 * (hm, in memory) and whether the embedded model is its rendering (*same).
 * A failure's message is kept in *msg (verify reports its own first). */
static dvc_status rederive(dvc_hybrid_model_t hm, int *same, char **msg, const json_t *model,
                           mpfr_prec_t prec)
{
    const json_t *l = json_object_get(model, "lcs"), *prob = json_object_get(l, "problem"),
                 *K = json_object_get(l, "K");
    json_t *again = NULL;
    dvc_status st;
    *same = 0;
    if (!json_is_object(prob) || !json_is_string(K)) {
        dvc_hybrid_model_init(hm, 1, NULL, 53);
        st = dvc_error(DVC_ERR_INPUT, "field 'model.lcs': expected the members 'problem' (an "
                       "object) and 'K' (a string)");
    } else {
        st = translate(&again, hm, prob, "model.lcs.problem", prec, json_string_value(K));
        if (st == DVC_ERR_INPUT) st = dvc_error_context(DVC_NOT_CERTIFIED, "ideal contact: ");
        *same = st == DVC_OK && json_equal(model, again);
    }
    json_decref(again);
    *msg = st != DVC_OK ? strdup(dvc_error_message()) : NULL;
    return st;
}

dvc_status dvc_lcs_cert_verify(const dvc_hybrid_cert_t c, dvc_hybrid_result_t rec)
{
    json_t *model = c->model_json ? json_loads(c->model_json, 0, NULL) : NULL;
    dvc_hybrid_model_t hm;
    dvc_hybrid_cert_struct own;
    char *msg = NULL;
    int same = 0;
    dvc_status tr = rederive(hm, &same, &msg, model, c->prec), st;
    /* The run is re-done on the in-memory translation of the embedded
     * problem once the embedded model text is its rendering (then both are
     * the same model, tests/test_lcs.c); else on the embedded model, whose
     * verification reports first, as the re-derivation's failure follows. */
    own = *c;
    if (tr == DVC_OK && same) *own.model = *hm;
    st = dvc_hybrid_cert_verify(&own, rec);
    if (st == DVC_OK && tr != DVC_OK)
        st = dvc_error(tr, "%s", msg ? msg : "ideal contact: the translation failed");
    else if (st == DVC_OK && !same)
        st = dvc_error(DVC_NOT_CERTIFIED, "ideal contact: the embedded model is not the translation "
                       "of the embedded problem (field 'model')");
    if (st == DVC_OK) st = dvc_lcs_result_check(own.model, rec ? rec : c->res);
    free(msg);
    dvc_hybrid_model_clear(hm);
    json_decref(model);
    return st;
}
