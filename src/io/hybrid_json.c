/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Reader of hybrid model files. Every message names the file and the
 * field ("osc.json: field 'modes.neg': ..."). */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <math.h>
#include "io/hybrid_json.h"
#include "dvicert/lcs_cert.h"
#include "io/json.h"

/* Keys each object of a model may hold (docs/hybrid.md "Model file");
 * anything else is most likely a typo ("rest" for "reset", "B" for "b")
 * and would certify a different model than the one written. "lcs" is the
 * record of the LCS a model was built from (lcs_json.c). */
static const char *const keys_top[] = {"states", "constants", "modes", "switches", "transitions",
                                       "decomposed", "initial", "t0", "T", "h", "order", "prec",
                                       "guard_bits", "max_steps", "max_seconds", "name",
                                       "description", "comment", "units", "lcs", "algebraic", NULL};
static const char *const keys_mode[] = {"A", "b", "f", NULL};
static const char *const keys_transition[] = {"from", "to", "switch", "direction", "reset",
                                               "guards", NULL};
static const char *const keys_guard[] = {"switch", "sign", NULL};
static const char *const keys_initial[] = {"mode", "x", "z", NULL};
/* Keys of a DLVI problem file (problem_json.c) that a hybrid model does not take. */
static const char *const keys_dlvi[] = {"A", "B", "Q", "M", "l", "u", "x0", "f", "g", "N",
                                        "grid", "theta", "state_names", "output_names", NULL};

static int in_list(const char *key, const char *const *list)
{
    for (const char *const *a = list; *a; a++)
        if (!strcmp(key, *a)) return 1;
    return 0;
}

dvc_status dvc_hybrid_json_only_keys(const json_t *o, const char *const *allowed, int comments,
                                     const char *file, const char *field)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        char list[256] = "";
        if (in_list(key, allowed) || (comments && key[0] == '_')) continue;
        for (const char *const *a = allowed; *a; a++) {
            strncat(list, *a, sizeof list - strlen(list) - 1);
            if (a[1]) strncat(list, ", ", sizeof list - strlen(list) - 1);
        }
        if (!field && in_list(key, keys_dlvi))
            return dvc_error(DVC_ERR_INPUT, "%s: unknown field '%s': a key of a DLVI problem file, "
                             "not of a hybrid model (a file is one or the other; known: %s, and any "
                             "key starting with '_')", file, key, list);
        if (!field)
            return dvc_error(DVC_ERR_INPUT, "%s: unknown field '%s' (known: %s, and any key "
                             "starting with '_')", file, key, list);
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': unknown field '%s' (known: %s)", file,
                         field, key, list);
    }
    return DVC_OK;
}

int dvc_hybrid_json_is_model(const json_t *obj)
{
    return json_is_object(obj) &&
           (json_object_get(obj, "modes") != NULL || json_object_get(obj, "decomposed") != NULL);
}

/* An entry of f+ or f- as text without blanks ("" when neither a string
 * nor a number). */
static void entry_text(char *buf, size_t len, const json_t *v)
{
    size_t k = 0;
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    char num[64];
    if (!s && json_is_number(v)) {
        snprintf(num, sizeof num, "%.17g", json_number_value(v));
        s = num;
    }
    for (; s && *s && k + 1 < len; s++)
        if (!isspace((unsigned char)*s)) buf[k++] = *s;
    buf[k] = '\0';
}

/* a and b (texts without blanks) are negations of each other as written:
 * both zero, or one is "-" or "-(...)" in front of the other. */
static int negated(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *end;
    double x = strtod(a, &end);
    if (*a && !*end) {
        double y = strtod(b, &end);
        if (*b && !*end) return x == -y;
    }
    if (la == lb + 1 && a[0] == '-' && strcmp(a + 1, b) == 0) return 1;
    if (lb == la + 1 && b[0] == '-' && strcmp(b + 1, a) == 0) return 1;
    if (la == lb + 3 && !strncmp(a, "-(", 2) && a[la - 1] == ')' && !strncmp(a + 2, b, lb)) return 1;
    if (lb == la + 3 && !strncmp(b, "-(", 2) && b[lb - 1] == ')' && !strncmp(b + 2, a, la)) return 1;
    return 0;
}

/* Every state named in h (an identifier equal to a state name) is the
 * derivative of another as written (some f0 entry is that name alone: p'
 * = v), and there is one: h is a velocity. */
static int velocity(const char *h, const json_t *states, const json_t *f0)
{
    int seen = 0;
    for (const char *p = h; *p;) {
        if (!isalpha((unsigned char)*p) && *p != '_') {
            p++;
            continue;
        }
        size_t l = 0;
        while (isalnum((unsigned char)p[l]) || p[l] == '_') l++;
        for (size_t i = 0; i < json_array_size(states); i++) {
            const char *nm = json_string_value(json_array_get(states, i));
            if (!nm || strlen(nm) != l || strncmp(nm, p, l)) continue;
            int deriv = 0;
            for (size_t k = 0; k < json_array_size(f0) && !deriv; k++) {
                char e[256];
                entry_text(e, sizeof e, json_array_get(f0, k));
                deriv = strcmp(e, nm) == 0;
            }
            if (!deriv) return 0;
            seen = 1;
        }
        p += l;
    }
    return seen;
}

int dvc_hybrid_json_friction(const json_t *obj)
{
    const json_t *jd = json_object_get(obj, "decomposed"), *states = json_object_get(obj, "states");
    const json_t *f0 = json_object_get(jd, "f0"), *terms = json_object_get(jd, "terms"), *t;
    const char *key;
    if (!json_is_array(states) || !json_is_array(f0) || !json_is_object(terms) || !json_object_size(terms))
        return 0;
    json_object_foreach((json_t *)terms, key, t) {
        const json_t *fp = json_object_get(t, "f+"), *fm = json_object_get(t, "f-");
        const json_t *h = json_object_get(t, "h");
        if (!json_is_string(h) || !velocity(json_string_value(h), states, f0)) return 0;
        if (!json_is_array(fp) || !json_is_array(fm) || json_array_size(fp) != json_array_size(fm))
            return 0;
        for (size_t i = 0; i < json_array_size(fp); i++) {
            char a[256], b[256];
            entry_text(a, sizeof a, json_array_get(fp, i));
            entry_text(b, sizeof b, json_array_get(fm, i));
            if (!*a || !*b || !negated(a, b)) return 0;
        }
    }
    return 1;
}

int dvc_hybrid_cert_friction(const dvc_hybrid_cert_struct *hc)
{
    json_t *o;
    int f;
    if (!hc->model_json || !hc->model->ncontacts || dvc_lcs_cert_is_lcs(hc)) return 0;
    o = json_loads(hc->model_json, 0, NULL);
    f = o && dvc_hybrid_json_friction(o);
    json_decref(o);
    return f;
}

dvc_status dvc_io_not_a_cert(const json_t *obj, const char *file)
{
    const char *what = NULL;
    if (!json_is_object(obj) || json_object_get(obj, "format")) return DVC_OK;
    if (dvc_hybrid_json_is_model(obj)) what = "a hybrid model file";
    else if (json_object_get(obj, "A") && json_object_get(obj, "x0")) what = "a problem file";
    if (!what) return DVC_OK;
    /* the reader would name the first key it does not know, which tells
     * the user nothing: say what the file is and what makes a certificate */
    return dvc_error(DVC_ERR_INPUT, "%s: this is %s, not a certificate; certify it first with "
                     "dvicert enclose %s -o OUT.cert.json, then give OUT.cert.json", file, what, file);
}

/* n strings (or numbers, written back as text) from a JSON array. */
static dvc_status str_array(const char ***out, char ***own, const json_t *a, long n,
                            const char *file, const char *field)
{
    if (!json_is_array(a) || (long)json_array_size(a) != n)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': expected an array of %ld expressions",
                         file, field, n);
    const char **s = calloc((size_t)n, sizeof *s);
    char **o = calloc((size_t)n, sizeof *o);
    if (!s || !o) {
        free(s);
        free(o);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    for (long i = 0; i < n; i++) {
        const json_t *e = json_array_get(a, (size_t)i);
        if (json_is_string(e)) {
            s[i] = json_string_value(e);
        } else if (json_is_number(e)) {
            o[i] = json_dumps(e, JSON_ENCODE_ANY);
            s[i] = o[i];
        } else {
            free(s);
            for (long k = 0; k < n; k++) free(o[k]);
            free(o);
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s' entry %ld: expected an expression",
                             file, field, i + 1);
        }
    }
    *out = s;
    *own = o;
    return DVC_OK;
}

static void str_free(const char **s, char **o, long n)
{
    free(s);
    if (o)
        for (long k = 0; k < n; k++) free(o[k]);
    free(o);
}

dvc_status dvc_hybrid_json_strs(const char ***out, char ***own, const json_t *a, long n,
                                const char *file, const char *field)
{
    return str_array(out, own, a, n, file, field);
}

void dvc_hybrid_json_strs_free(const char **s, char **own, long n)
{
    str_free(s, own, n);
}

static dvc_status read_consts(dvc_expr_consts_t c, const json_t *obj, const char *file,
                              mpfr_prec_t prec)
{
    const json_t *cs = json_object_get(obj, "constants");
    if (!cs) return DVC_OK;
    if (!json_is_object(cs))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'constants': expected an object", file);
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)cs, key, val)
    {
        dvc_status st;
        if (json_is_string(val)) {
            st = dvc_expr_consts_add_str(c, key, json_string_value(val));
            if (st != DVC_OK) st = dvc_expr_consts_add_expr(c, key, json_string_value(val));
        } else {
            mpfi_t x;
            char where[256];
            snprintf(where, sizeof where, "%s: field 'constants.%s'", file, key);
            mpfi_init2(x, prec);
            st = dvc_json_ival(x, val, where);
            if (st == DVC_OK) st = dvc_expr_consts_add(c, key, x);
            mpfi_clear(x);
        }
        if (st != DVC_OK) return dvc_error_context(st, "%s: field 'constants.%s': ", file, key);
    }
    return DVC_OK;
}

/* A time member key of obj into t, one rule for every model kind (a
 * hybrid model, an ideal contact's problem): a JSON real is the binary64
 * value written; a decimal string such as "0.1" is enclosed, and then
 * - "T", the end: its upper end (the run covers every T in the enclosure,
 *   as the DLVI routes do);
 * - "h", the engine's largest step (a choice, not part of the problem):
 *   the nearest number;
 * - "t0", where the initial state is given: refused with the fix (the
 *   start of the run is one exact time). */
static dvc_status read_time(mpfr_t t, const json_t *obj, const char *key, const char *file,
                            int required, mpfr_prec_t prec)
{
    const json_t *j = json_object_get(obj, key);
    if (!j) {
        if (required) return dvc_error(DVC_ERR_INPUT, "%s: field '%s' is missing", file, key);
        return DVC_OK;
    }
    char where[256];
    snprintf(where, sizeof where, "%s: field '%s'", file, key);
    if (json_is_real(j)) { /* the binary64 value written, exactly */
        if (!isfinite(json_real_value(j)))
            return dvc_error(DVC_ERR_INPUT, "%s: not a finite number", where);
        mpfr_set_d(t, json_real_value(j), MPFR_RNDN);
        if (mpfr_cmp_d(t, json_real_value(j)) != 0)
            return dvc_error(DVC_ERR_INPUT, "%s: not exact at %ld bits", where, (long)prec);
        return DVC_OK;
    }
    mpfi_t x;
    mpfi_init2(x, prec);
    dvc_status st = dvc_json_ival(x, j, where);
    int exact = st == DVC_OK && mpfr_equal_p(&x->left, &x->right);
    int end = strcmp(key, "T") == 0, step = strcmp(key, "h") == 0;
    if (st == DVC_OK && !dvc_ival_is_finite(x))
        st = dvc_error(DVC_ERR_INPUT, "%s: not a finite number", where);
    else if (st == DVC_OK && !exact && json_is_string(j) && step)
        mpfi_mid(&x->left, x);
    else if (st == DVC_OK && !exact && json_is_string(j) && end)
        mpfr_set(&x->left, &x->right, MPFR_RNDN);
    else if (st == DVC_OK && !exact && json_is_string(j))
        /* a decimal such as "3.1416" has no exact binary value */
        st = dvc_error(DVC_ERR_INPUT, "%s: \"%s\" is not exactly representable at %ld bits (the "
                       "initial state is given at one exact time): write it as a JSON number, %s "
                       "without quotes (read as the binary64 number nearest to it), or as a decimal "
                       "exact in binary", where, json_string_value(j), (long)prec,
                       json_string_value(j));
    else if (st == DVC_OK && !exact)
        st = dvc_error(DVC_ERR_INPUT, "%s: an interval, not one number exact at %ld bits", where,
                       (long)prec);
    if (st == DVC_OK) mpfr_set(t, &x->left, MPFR_RNDN);
    mpfi_clear(x);
    return st;
}

/* st from a reader that named "file: field 'key'" inside the object at
 * field: the message renamed to "file: field 'field.key'" (the file name
 * first, the whole key path), else prefixed with the file and the field. */
static dvc_status in_field(dvc_status st, const char *file, const char *field, const char *key)
{
    char head[600], *msg = strdup(dvc_error_message());
    snprintf(head, sizeof head, "%s: field '%s'", file, key);
    if (msg && !strncmp(msg, head, strlen(head)))
        st = dvc_error(st, "%s: field '%s.%s'%s", file, field, key, msg + strlen(head));
    else
        st = dvc_error_context(st, "%s: field '%s': ", file, field);
    free(msg);
    return st;
}

static dvc_status read_mode(dvc_hybrid_model_t m, const char *mname, const json_t *mo,
                            const dvc_expr_consts_t c, const char *file)
{
    char field[256];
    snprintf(field, sizeof field, "modes.%s", mname);
    if (!json_is_object(mo))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': expected an object", file, field);
    if (m->nz > 0) return dvc_dae_json_mode(m, mname, mo, c, file, field);
    if (json_object_get(mo, "g") || json_object_get(mo, "constraints"))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': constraints ('g') need the algebraic "
                         "variables they determine: declare them in the top-level 'algebraic' "
                         "(docs/dae.md)", file, field);
    dvc_status kst = dvc_hybrid_json_only_keys(mo, keys_mode, 0, file, field);
    if (kst != DVC_OK) return kst;
    const json_t *A = json_object_get(mo, "A"), *f = json_object_get(mo, "f"),
                 *b = json_object_get(mo, "b");
    dvc_status st;
    if (A && f)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': give either 'A' (and 'b') or 'f', not both",
                         file, field);
    if (!A && !f)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': mode without vector field (needs 'A' or 'f')",
                         file, field);
    if (f) {
        if (b)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s.b': only linear modes (with 'A') take 'b'",
                             file, field);
        const char **s;
        char **o;
        char ff[300];
        snprintf(ff, sizeof ff, "%s.f", field);
        st = str_array(&s, &o, f, m->n, file, ff);
        if (st != DVC_OK) return st;
        st = dvc_hybrid_add_mode_field(m, mname, s, c, NULL);
        str_free(s, o, m->n);
        if (st != DVC_OK) return dvc_error_context(st, "%s: field '%s.f': ", file, field);
        return DVC_OK;
    }
    dvc_imat_t Am;
    dvc_imat_init2(Am, 0, 0, m->prec);
    st = dvc_json_imat_ex(Am, mo, "A", file, m->n, m->n, m->prec, NULL, NULL);
    if (st != DVC_OK) {
        dvc_imat_clear(Am);
        return in_field(st, file, field, "A");
    }
    const char **s = NULL;
    char **o = NULL;
    if (b) {
        char ff[300];
        snprintf(ff, sizeof ff, "%s.b", field);
        st = str_array(&s, &o, b, m->n, file, ff);
    }
    if (st == DVC_OK) {
        st = dvc_hybrid_add_mode_linear(m, mname, Am, s, c, NULL);
        if (st != DVC_OK) st = dvc_error_context(st, "%s: field '%s': ", file, field);
    }
    str_free(s, o, m->n);
    dvc_imat_clear(Am);
    return st;
}

/* The index *g of the switching function named `name` for transitions out
 * of mode `from`: a function of the mode's algebraic variables z is made
 * for that mode on first use (-1: no such function). */
static dvc_status switch_of(dvc_hybrid_model_t m, const char *name, long from,
                            const dvc_expr_consts_t c, const char *file, const json_t *jsw, long *g)
{
    *g = dvc_hybrid_find_switch(m, name);
    const char *gtext = json_string_value(json_object_get(jsw, name));
    if (*g >= 0 || !gtext || !dvc_dae_json_switch_uses_z(m, gtext)) return DVC_OK;
    char sf[300];
    snprintf(sf, sizeof sf, "switches.%s", name);
    return dvc_dae_json_switch(m, name, gtext, from, c, file, sf, g);
}

/* The optional 'guards' of a transition: [{"switch": name, "sign": "+"|"-"}]
 * into *ng entries of gg and gs (allocated; the caller frees them). */
static dvc_status read_guards(dvc_hybrid_model_t m, const json_t *tr, long from,
                              const dvc_expr_consts_t c, const char *file, const char *field,
                              const json_t *jsw, long **gg, int **gs, long *ng)
{
    const json_t *ja = json_object_get(tr, "guards");
    *ng = 0;
    if (!ja) return DVC_OK;
    if (!json_is_array(ja) || json_array_size(ja) == 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.guards': expected a nonempty array of "
                         "{\"switch\": name, \"sign\": \"+\" or \"-\"}", file, field);
    size_t n = json_array_size(ja);
    *gg = malloc(n * sizeof **gg);
    *gs = malloc(n * sizeof **gs);
    if (!*gg || !*gs) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        char gf[96];
        snprintf(gf, sizeof gf, "%s.guards[%zu]", field, i);
        const json_t *o = json_array_get(ja, i);
        if (!json_is_object(o))
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s': expected an object", file, gf);
        dvc_status st = dvc_hybrid_json_only_keys(o, keys_guard, 0, file, gf);
        if (st != DVC_OK) return st;
        const char *nm = json_string_value(json_object_get(o, "switch"));
        const char *sg = json_string_value(json_object_get(o, "sign"));
        if (!nm || !sg || (strcmp(sg, "+") && strcmp(sg, "-")))
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s': 'switch' must name a switching "
                             "function and 'sign' be \"+\" (> 0) or \"-\" (< 0)", file, gf);
        st = switch_of(m, nm, from, c, file, jsw, &(*gg)[i]);
        if (st != DVC_OK) return st;
        if ((*gg)[i] < 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s.switch': no switching function named "
                             "'%s'", file, gf, nm);
        (*gs)[i] = sg[0] == '+' ? 1 : -1;
        *ng = (long)i + 1;
    }
    return DVC_OK;
}

static dvc_status read_transition(dvc_hybrid_model_t m, const json_t *tr, size_t k,
                                  const dvc_expr_consts_t c, const char *file, const json_t *jsw)
{
    char field[64];
    snprintf(field, sizeof field, "transitions[%zu]", k);
    if (!json_is_object(tr))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': expected an object", file, field);
    dvc_status kst = dvc_hybrid_json_only_keys(tr, keys_transition, 0, file, field);
    if (kst != DVC_OK) return kst;
    const json_t *jf = json_object_get(tr, "from"), *jt = json_object_get(tr, "to"),
                 *jg = json_object_get(tr, "switch"), *jd = json_object_get(tr, "direction"),
                 *jr = json_object_get(tr, "reset");
    if (!json_is_string(jf) || !json_is_string(jt) || !json_is_string(jg))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': 'from', 'to' and 'switch' must be names",
                         file, field);
    long from = dvc_hybrid_find_mode(m, json_string_value(jf));
    long to = dvc_hybrid_find_mode(m, json_string_value(jt));
    long g = -1;
    if (from < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.from': no mode named '%s'", file, field,
                         json_string_value(jf));
    dvc_status gst = switch_of(m, json_string_value(jg), from, c, file, jsw, &g);
    if (gst != DVC_OK) return gst;
    if (to < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.to': transition to a missing mode '%s'",
                         file, field, json_string_value(jt));
    if (g < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.switch': no switching function named '%s'",
                         file, field, json_string_value(jg));
    int dir = 0;
    if (jd) {
        const char *d = json_is_string(jd) ? json_string_value(jd) : "";
        if (!strcmp(d, "+") || !strcmp(d, "up")) dir = 1;
        else if (!strcmp(d, "-") || !strcmp(d, "down")) dir = -1;
        else if (!strcmp(d, "any")) dir = 0;
        else
            return dvc_error(DVC_ERR_INPUT,
                             "%s: field '%s.direction': expected \"+\", \"-\" or \"any\"", file,
                             field);
    }
    const char **s = NULL;
    char **o = NULL;
    long *gg = NULL, ng = 0;
    int *gs = NULL;
    dvc_status st = read_guards(m, tr, from, c, file, field, jsw, &gg, &gs, &ng);
    if (st == DVC_OK && jr) {
        char ff[96];
        snprintf(ff, sizeof ff, "%s.reset", field);
        st = str_array(&s, &o, jr, m->n, file, ff);
    }
    if (st == DVC_OK) st = dvc_hybrid_add_transition_guarded(m, from, g, dir, to, s, c, ng, gg, gs);
    else {
        free(gg);
        free(gs);
        return st;
    }
    free(gg);
    free(gs);
    str_free(s, o, m->n);
    if (st != DVC_OK) return dvc_error_context(st, "%s: field '%s': ", file, field);
    return DVC_OK;
}

/* The initial mode of a decomposed model: *mode (-1: not given) checked
 * against the signs of the terms at x0, or inferred from them; the
 * messages name the modes consistent with x0 and the fix. */
static dvc_status initial_mode(dvc_hybrid_model_t m, long *mode, const mpfr_t t0, const dvc_ivec_t x,
                               const char *file)
{
    char names[512];
    long one;
    int ok;
    dvc_status st = dvc_hybrid_initial_mode(m, t0, x, *mode, &one, &ok, names, sizeof names);
    if (st != DVC_OK) return dvc_error_context(st, "%s: field 'initial': ", file);
    if (*mode >= 0 && ok) return DVC_OK;
    if (*mode >= 0)
        return one >= 0 ? dvc_error(DVC_ERR_INPUT, "%s: field 'initial.mode': mode '%s' does not fit the "
                                    "initial state (the signs of the terms' h at x0); the mode is '%s' "
                                    "(or omit 'mode': it is inferred from the state)", file,
                                    m->modes[*mode].name, m->modes[one].name)
                        : dvc_error(DVC_ERR_INPUT, "%s: field 'initial.mode': mode '%s' does not fit the "
                                    "initial state (the signs of the terms' h at x0); the modes that "
                                    "fit it: %s", file, m->modes[*mode].name, names);
    if (one < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'initial.mode' is missing and the initial state does "
                         "not decide it (a term's h at x0 is not proven > 0, < 0 or = 0); name one of "
                         "the modes that fit it: %s", file, names);
    *mode = one;
    return DVC_OK;
}

static dvc_status read_initial(dvc_hybrid_model_t m, const json_t *obj, const char *file)
{
    const json_t *in = json_object_get(obj, "initial");
    if (!json_is_object(in))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'initial' is missing or not an object", file);
    dvc_status kst = dvc_hybrid_json_only_keys(in, keys_initial, 0, file, "initial");
    if (kst != DVC_OK) return kst;
    const json_t *jm = json_object_get(in, "mode"), *jx = json_object_get(in, "x");
    /* a decomposed model's mode follows from the state (initial_mode) */
    if (jm && !json_is_string(jm))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'initial.mode' must name a mode", file);
    long mode = jm ? dvc_hybrid_find_mode(m, json_string_value(jm)) : -1;
    if (jm && mode < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'initial.mode': no mode named '%s'", file,
                         json_string_value(jm));
    if (!jm && m->ncontacts == 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'initial.mode' must name a mode (the modes of a "
                         "model with 'modes' have no regions the state would decide)", file);
    dvc_ivec_t x;
    dvc_ivec_init2(x, m->n, m->prec);
    dvc_status st = DVC_OK;
    char where[300];
    if (json_is_array(jx)) {
        if ((long)json_array_size(jx) != m->n)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'initial.x': %zu entries, expected %ld", file,
                           json_array_size(jx), m->n);
        for (long i = 0; i < m->n && st == DVC_OK; i++) {
            snprintf(where, sizeof where, "%s: field 'initial.x' entry %ld (%s)", file, i + 1,
                     m->names[i]);
            st = dvc_json_ival(x->e[i], json_array_get(jx, (size_t)i), where);
            if (st == DVC_OK && !dvc_json_fits_d(x->e[i]))
                st = dvc_error(DVC_ERR_INPUT, "%s: not a finite number (within the binary64 range)", where);
        }
    } else if (json_is_object(jx)) {
        const char *key;
        json_t *val;
        int *seen = calloc((size_t)m->n, sizeof *seen);
        json_object_foreach((json_t *)jx, key, val)
        {
            long i = 0;
            while (i < m->n && strcmp(m->names[i], key)) i++;
            if (i == m->n) {
                st = dvc_error(DVC_ERR_INPUT, "%s: field 'initial.x': unknown state name '%s'",
                               file, key);
                break;
            }
            snprintf(where, sizeof where, "%s: field 'initial.x.%s'", file, key);
            st = dvc_json_ival(x->e[i], val, where);
            if (st == DVC_OK && !dvc_json_fits_d(x->e[i]))
                st = dvc_error(DVC_ERR_INPUT, "%s: not a finite number (within the binary64 range)", where);
            if (st != DVC_OK) break;
            seen[i] = 1;
        }
        for (long i = 0; i < m->n && st == DVC_OK; i++)
            if (!seen[i])
                st = dvc_error(DVC_ERR_INPUT, "%s: field 'initial.x': no value for '%s'", file,
                               m->names[i]);
        free(seen);
    } else {
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'initial.x' must be an array or an object", file);
    }
    mpfr_t t0, T;
    mpfr_inits2(m->prec, t0, T, (mpfr_ptr)0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    if (st == DVC_OK) st = read_time(t0, obj, "t0", file, 0, m->prec);
    if (st == DVC_OK) st = read_time(T, obj, "T", file, 1, m->prec);
    if (st == DVC_OK && m->ncontacts > 0) st = initial_mode(m, &mode, t0, x, file);
    if (st == DVC_OK) {
        st = dvc_hybrid_set_initial(m, mode, x, t0, T);
        if (st != DVC_OK) st = dvc_error_context(st, "%s: field 'T': ", file);
    }
    if (st == DVC_OK) st = dvc_dae_json_initial_z(m, in, file);
    mpfr_clears(t0, T, (mpfr_ptr)0);
    dvc_ivec_clear(x);
    return st;
}

dvc_status dvc_hybrid_json_consts(dvc_expr_consts_t c, const json_t *obj, const char *file,
                                  mpfr_prec_t prec)
{
    return read_consts(c, obj, file, prec);
}

dvc_status dvc_hybrid_json_time(mpfr_t t, const json_t *obj, const char *key, const char *file,
                                int required, mpfr_prec_t prec)
{
    return read_time(t, obj, key, file, required, prec);
}

/* st after m was given an empty model (so that it can be cleared), with
 * the message of st kept (initialising may set its own). */
static dvc_status empty_model(dvc_hybrid_model_t m, dvc_status st, mpfr_prec_t prec)
{
    char *msg = strdup(dvc_error_message());
    dvc_hybrid_model_init(m, 1, NULL, prec);
    st = dvc_error(st, "%s", msg ? msg : "");
    free(msg);
    return st;
}

dvc_status dvc_hybrid_from_json(dvc_hybrid_model_t m, const json_t *obj, const char *file,
                                mpfr_prec_t prec)
{
    memset(m, 0, sizeof *m);
    if (!json_is_object(obj)) {
        dvc_hybrid_model_init(m, 1, NULL, 53);
        return dvc_error(DVC_ERR_INPUT, "%s: expected a JSON object (a hybrid model)", file);
    }
    /* unknown keys first: a misspelled key must not certify another model */
    dvc_status kst = dvc_hybrid_json_only_keys(obj, keys_top, 1, file, NULL);
    if (kst != DVC_OK) return empty_model(m, kst, 53);
    if (prec <= 0) {
        const json_t *jp = json_object_get(obj, "prec");
        prec = json_is_integer(jp) ? (mpfr_prec_t)json_integer_value(jp) : 53;
        if (prec < 24 || prec > 4096) {
            dvc_hybrid_model_init(m, 1, NULL, 53);
            return dvc_error(DVC_ERR_INPUT, "%s: field 'prec': %ld bits is out of range [24, 4096]",
                             file, (long)prec);
        }
    }
    const json_t *js = json_object_get(obj, "states");
    long n = json_is_array(js) ? (long)json_array_size(js) : 0;
    const char **names = calloc((size_t)(n > 0 ? n : 1), sizeof *names);
    dvc_status st = DVC_OK;
    if (!json_is_array(js) || n == 0)
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'states': expected a non-empty array of names",
                       file);
    for (long i = 0; i < n && st == DVC_OK; i++) {
        names[i] = json_string_value(json_array_get(js, (size_t)i));
        if (!names[i])
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'states' entry %ld: expected a name", file,
                           i + 1);
    }
    if (st != DVC_OK) {
        free(names);
        return empty_model(m, st, prec);
    }
    st = dvc_hybrid_model_init(m, n, names, prec);
    free(names);
    if (st != DVC_OK) return dvc_error_context(st, "%s: field 'states': ", file);
    dvc_expr_consts_t c;
    dvc_expr_consts_init(c);
    st = read_consts(c, obj, file, prec);
    if (st == DVC_OK) st = dvc_dae_json_algebraic(m, obj, file);
    const json_t *jm = json_object_get(obj, "modes"), *jdec = json_object_get(obj, "decomposed");
    if (st == DVC_OK && jdec) st = dvc_hybrid_decomposed_from_json(m, obj, jdec, c, file);
    else if (st == DVC_OK && (!json_is_object(jm) || json_object_size(jm) == 0))
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'modes': expected a non-empty object", file);
    if (st == DVC_OK && !jdec) {
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)jm, key, val)
        {
            st = read_mode(m, key, val, c, file);
            if (st != DVC_OK) break;
        }
    }
    const json_t *jg = json_object_get(obj, "switches");
    if (st == DVC_OK && jg && !json_is_object(jg))
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'switches': expected an object", file);
    if (st == DVC_OK && jg) {
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)jg, key, val)
        {
            if (!json_is_string(val)) {
                st = dvc_error(DVC_ERR_INPUT, "%s: field 'switches.%s': expected an expression",
                               file, key);
                break;
            }
            /* one with algebraic variables: added per mode at its transitions */
            if (dvc_dae_json_switch_uses_z(m, json_string_value(val))) continue;
            st = dvc_hybrid_add_switch(m, key, json_string_value(val), c, NULL);
            if (st != DVC_OK) {
                st = dvc_error_context(st, "%s: field 'switches.%s': ", file, key);
                break;
            }
        }
    }
    const json_t *jt = json_object_get(obj, "transitions");
    if (st == DVC_OK && jt && !json_is_array(jt))
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'transitions': expected an array", file);
    for (size_t k = 0; st == DVC_OK && jt && k < json_array_size(jt); k++)
        st = read_transition(m, json_array_get(jt, k), k, c, file, jg);
    if (st == DVC_OK) st = read_initial(m, obj, file);
    if (st == DVC_OK && json_object_get(obj, "h")) {
        mpfr_t h;
        mpfr_init2(h, prec);
        st = read_time(h, obj, "h", file, 1, prec);
        if (st == DVC_OK && mpfr_sgn(h) <= 0)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'h': must be > 0", file);
        if (st == DVC_OK) m->h = mpfr_get_d(h, MPFR_RNDN);
        mpfr_clear(h);
    }
    if (st == DVC_OK && json_object_get(obj, "order")) {
        const json_t *jo = json_object_get(obj, "order");
        if (!json_is_integer(jo) || json_integer_value(jo) < 4 || json_integer_value(jo) > 60)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'order': an integer in [4, 60]", file);
        else
            m->order = (int)json_integer_value(jo);
    }
    if (st == DVC_OK && json_object_get(obj, "guard_bits")) {
        const json_t *jo = json_object_get(obj, "guard_bits");
        if (!json_is_integer(jo) || json_integer_value(jo) < 0 || json_integer_value(jo) > 1024)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'guard_bits': an integer in [0, 1024]", file);
        else
            m->guard_bits = (long)json_integer_value(jo);
    }
    if (st == DVC_OK && json_object_get(obj, "max_steps")) {
        const json_t *jo = json_object_get(obj, "max_steps");
        if (!json_is_integer(jo) || json_integer_value(jo) < 1 || json_integer_value(jo) > 1000000000)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'max_steps': an integer in [1, 1000000000]", file);
        else
            m->max_steps = (long)json_integer_value(jo);
    }
    if (st == DVC_OK && json_object_get(obj, "max_seconds")) {
        const json_t *jo = json_object_get(obj, "max_seconds");
        double v = json_is_number(jo) ? json_number_value(jo) : -1;
        if (!(v > 0 && v <= 1e9))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'max_seconds': a number of seconds in (0, 1e9]",
                           file);
        else
            m->max_seconds = v;
    }
    dvc_expr_consts_clear(c);
    return st;
}

/* Appends path to paths (" or 'P'" after the first) when msg quotes the
 * text of e; *n counts them. */
static void path_if_quoted(char *paths, size_t len, int *n, const char *msg, const dvc_expr_struct *e,
                           const char *path)
{
    size_t used = strlen(paths);
    char *needle;
    if (!e->text || !*e->text || !(needle = malloc(strlen(e->text) + 20))) return;
    sprintf(needle, "in '%s' at column", e->text);
    if (strstr(msg, needle)) {
        snprintf(paths + used, len - used, "%s'%s'", *n ? " or " : "", path);
        (*n)++;
    }
    free(needle);
}

dvc_status dvc_hybrid_json_error_path(dvc_status st, const dvc_hybrid_model_struct *m,
                                      const char *where)
{
    char paths[1024] = "", path[300];
    int n = 0;
    const char *msg = dvc_error_message();
    if (st == DVC_OK || !msg || !strstr(msg, "' at column ")) return st;
    for (long k = 0; k < m->nmodes; k++) {
        const dvc_hybrid_mode *md = &m->modes[k];
        for (long i = 0; i < m->n; i++) {
            snprintf(path, sizeof path, "modes.%s.%s[%ld]", md->name, md->b ? "b" : "f", i);
            if (md->b || md->f) path_if_quoted(paths, sizeof paths, &n, msg, md->b ? md->b[i] : md->f[i], path);
        }
    }
    for (long k = 0; k < m->ng; k++) {
        snprintf(path, sizeof path, "switches.%s", m->gname[k]);
        path_if_quoted(paths, sizeof paths, &n, msg, m->g[k], path);
    }
    for (long k = 0; k < m->ntrans; k++)
        for (long i = 0; m->trans[k].reset && i < m->n; i++) {
            snprintf(path, sizeof path, "transitions[%ld].reset[%ld]", k, i);
            path_if_quoted(paths, sizeof paths, &n, msg, m->trans[k].reset[i], path);
        }
    return n == 0 ? st : dvc_error_context(st, "%s: field %s: ", where, paths);
}

dvc_status dvc_hybrid_load(dvc_hybrid_model_t m, const char *path, mpfr_prec_t prec)
{
    json_t *root;
    dvc_status st = dvc_json_load(&root, path);
    if (st != DVC_OK) return empty_model(m, st, 53);
    const char *base = strrchr(path, '/');
    st = dvc_hybrid_from_json(m, root, base ? base + 1 : path, prec);
    json_decref(root);
    return st;
}
