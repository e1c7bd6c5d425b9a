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
#include "dvicert/cert.h"
#include "dvicert/lcs.h"
#include "dvicert/mclass.h"
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

/* "contact" for one contact, "contact1", "contact2", ... for several */
static const char *term_name(char *buf, size_t len, long m, long j)
{
    if (m == 1) snprintf(buf, len, "contact");
    else snprintf(buf, len, "contact%ld", j + 1);
    return buf;
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
    char **h;
    if (p->grid)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'grid': refused by the ideal-contact route (M = 0), "
                         "which chooses its own steps; give N or h", file);
    h = calloc((size_t)m, sizeof *h);
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
            json_object_set_new(terms, term_name(name, sizeof name, m, j), t);
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
    if (p->h > 0) {
        /* a step that does not divide T: the problem's h (an exact double)
         * as the engine's largest step; its steps end at min(t + h, T), so
         * without events it keeps the problem's grid and shorter last step */
        json_object_set_new(model, "h", json_real(p->h));
    } else {
        /* the grid step T/N as the double below it (the engine's largest step) */
        mpfr_t hh;
        mpfr_init2(hh, 53);
        mpfr_div_si(hh, &p->T->left, p->N, MPFR_RNDD);
        json_object_set_new(model, "h", json_real(mpfr_get_d(hh, MPFR_RNDD)));
        mpfr_clear(hh);
    }
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

/* The checks of the class and the proof of Q B a P-matrix; then the model. */
static dvc_status translate(json_t **out, const json_t *prob, const char *file, mpfr_prec_t prec,
                            const char *K)
{
    dvc_dlvi_problem_t p;
    dvc_imat_t QB;
    mpfi_t w0;
    const json_t *jf = json_object_get(prob, "f"), *jg = json_object_get(prob, "g");
    const char *mode0 = NULL;
    char mode_buf[8 * 24];
    dvc_status st;
    dvc_dlvi_problem_init(p, 0, 0, prec);
    st = dvc_problem_from_json(p, NULL, prob, file, NULL, prec);
    if (st != DVC_OK) {
        dvc_dlvi_problem_clear(p);
        return st;
    }
    *out = NULL;
    long m = p->m;
    if (m > 8)
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'M': M = 0 (ideal contacts) is supported for at "
                       "most 8 contacts, got m = %ld", file, m);
    for (long j = 0; st == DVC_OK && j < m; j++)
        if (!ival_is_zero(p->l->e[j]) || !mpfr_inf_p(&p->u->e[j]->left) ||
            mpfr_sgn(&p->u->e[j]->left) < 0)
            st = dvc_error(DVC_ERR_INPUT, "%s: field '%s' entry %ld: M = 0 (ideal contacts) requires "
                           "l = 0 and u = inf (0 <= y _|_ Q x + g >= 0); other bounds are not "
                           "supported", file, ival_is_zero(p->l->e[j]) ? "u" : "l", j + 1);
    for (long i = 0; st == DVC_OK && jf && i < p->n; i++) {
        const json_t *fi = json_array_get(jf, (size_t)i);
        if (!json_is_string(fi) && !json_is_number(fi))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'f' entry %ld: M = 0 (ideal contacts) needs f "
                           "as an expression of t (tables are not supported)", file, i + 1);
    }
    for (long j = 0; st == DVC_OK && jg && j < m; j++) {
        const json_t *g = json_array_get(jg, (size_t)j);
        if (!(json_is_number(g) || json_is_array(g) ||
              (json_is_string(g) && !mentions_t(json_string_value(g)))))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'g' entry %ld: M = 0 (ideal contacts) needs a "
                           "constant g (the constraint surface Q x + g = 0 must not move: a g "
                           "depending on t is not supported)", file, j + 1);
    }
    if (st != DVC_OK) {
        dvc_dlvi_problem_clear(p);
        return st;
    }
    /* relative degree one: Q B a P-matrix (m = 1: Q B > 0), proven over the
     * enclosures of Q and B; a zero diagonal entry is relative degree two */
    dvc_imat_init2(QB, m, m, p->prec);
    dvc_imat_mul(QB, p->Q, p->B);
    for (long j = 0; st == DVC_OK && j < m; j++) {
        mpfi_ptr d = QB->e[j * m + j];
        if (ival_is_zero(d))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'B': (Q B)_%ld%ld = 0: relative degree two "
                           "(impacts, velocity jumps) is out of scope; M = 0 is supported when Q B "
                           "is a P-matrix", file, j + 1, j + 1);
        else if (mpfr_sgn(&d->right) <= 0)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'B': %s <= 0: not a P-matrix, the "
                           "complementarity system with M = 0 has no sliding solution on the face "
                           "(Q x + g)_%ld = 0 (Q B a P-matrix needed)", file,
                           m == 1 ? "Q B" : "a diagonal entry of Q B", j + 1);
        else if (!dvc_ival_is_pos(d))
            st = m == 1 ? dvc_error(DVC_NOT_CERTIFIED, "%s: field 'B': Q B > 0 could not be proven "
                                    "(its enclosure contains 0); try a higher --prec", file)
                        : dvc_error(DVC_NOT_CERTIFIED, "%s: field 'B': (Q B)_%ld%ld > 0 could not "
                                    "be proven (its enclosure contains 0); try a higher --prec",
                                    file, j + 1, j + 1);
    }
    if (st == DVC_OK && m > 1) {
        dvc_mclass_result cr;
        const char *how = NULL;
        if (dvc_mclass_prove_p(QB, &how) != DVC_OK) {
            dvc_mclass_classify(&cr, QB);
            st = dvc_error((cr.disproven & DVC_MCLASS_P) ? DVC_ERR_INPUT : DVC_NOT_CERTIFIED,
                           "%s: field 'B': Q B is %s a P-matrix (%s); M = 0 is supported when Q B "
                           "is a P-matrix", file, (cr.disproven & DVC_MCLASS_P) ? "not" : "not proven",
                           cr.p_detail);
        }
    }
    dvc_imat_clear(QB);
    if (st == DVC_OK) {
        /* the start: w0 = Q x0 + g decides the initial mode */
        dvc_ivec_t g;
        mpfi_t t0, tmp;
        long zeros = 0;
        char nm[64];
        mpfi_init2(w0, p->prec);
        mpfi_init2(t0, p->prec);
        mpfi_init2(tmp, p->prec);
        dvc_ivec_init2(g, m, p->prec);
        mpfi_set_si(t0, 0);
        if (p->gcb.eval) st = p->gcb.eval(g, t0, p->gcb.ctx);
        mode0 = mode_buf;
        mode_buf[0] = '\0';
        for (long j = 0; st == DVC_OK && j < m; j++) {
            mpfi_set(w0, g->e[j]);
            for (long i = 0; i < p->n; i++) {
                mpfi_mul(tmp, p->Q->e[j * p->n + i], p->x0->e[i]);
                mpfi_add(w0, w0, tmp);
            }
            if (dvc_ival_is_neg(w0))
                st = dvc_error(DVC_ERR_INPUT, "%s: field 'x0': (Q x0 + g)_%ld < 0: the initial state "
                               "violates the constraint (a jump would be needed; not supported)",
                               file, j + 1);
            else if (!dvc_ival_is_pos(w0) && !ival_is_zero(w0))
                st = dvc_error(DVC_ERR_INPUT, "%s: field 'x0': the sign of (Q x0 + g)_%ld is not "
                               "decided (neither proven > 0 nor exactly 0)", file, j + 1);
            else if (ival_is_zero(w0) && ++zeros > 1)
                st = dvc_error(DVC_ERR_INPUT, "%s: field 'x0': several constraints active at t = 0: "
                               "several contacts active at once are not supported yet", file);
            if (st == DVC_OK) {
                if (j > 0) strcat(mode_buf, "&");
                strcat(mode_buf, term_name(nm, sizeof nm, m, j));
                strcat(mode_buf, dvc_ival_is_pos(w0) ? ">0" : "=0");
            }
        }
        dvc_ivec_clear(g);
        mpfi_clear(w0);
        mpfi_clear(t0);
        mpfi_clear(tmp);
    }
    if (st == DVC_OK) st = build_model(out, prob, p, file, K, mode0);
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
