/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The DAE parts of a hybrid model file (docs/dae.md, docs/formats.md):
 * the top-level "algebraic" names, a mode's "f" and "g" (reduced by
 * src/hybrid/dae.c), switching functions written with algebraic variables
 * (taken per mode, at each transition out of it) and the initial
 * algebraic values "initial.z" (checked for consistency, never used: z is
 * always recomputed from the constraints). */
#include <stdlib.h>
#include <string.h>
#include "io/hybrid_json.h"
#include "io/json.h"

static const char *const keys_mode_dae[] = {"f", "g", "constraints", "E", "A", "b", "z_range",
                                            NULL};

/* One decimal "[-+]d[.d][e[-+]d]" into q; the end of it, or NULL. */
static const char *dec_q(mpq_t q, const char *s)
{
    const char *p = s;
    mpz_t num, ten;
    long frac = 0, ex = 0;
    int neg = 0, digits = 0;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    mpz_inits(num, ten, NULL);
    for (; (*p >= '0' && *p <= '9') || (*p == '.' && !frac); p++) {
        if (*p == '.') {
            frac = -1; /* counting from the next digit */
            continue;
        }
        mpz_mul_ui(num, num, 10);
        mpz_add_ui(num, num, (unsigned long)(*p - '0'));
        digits++;
        if (frac) frac--;
    }
    if (frac) frac++; /* the -1 set at the point */
    if (digits && (*p == 'e' || *p == 'E')) {
        char *end;
        ex = strtol(p + 1, &end, 10);
        if (end == p + 1 || ex > 4000 || ex < -4000) digits = 0;
        p = end;
    }
    ex += frac;
    mpz_set_ui(ten, 10);
    mpz_pow_ui(ten, ten, (unsigned long)(ex < 0 ? -ex : ex));
    mpq_set_z(q, num);
    if (ex >= 0) mpz_mul(mpq_numref(q), mpq_numref(q), ten);
    else mpz_mul(mpq_denref(q), mpq_denref(q), ten);
    mpq_canonicalize(q);
    if (neg) mpq_neg(q, q);
    mpz_clears(num, ten, NULL);
    return digits ? p : NULL;
}

/* An exact rational: a JSON integer, a JSON real (its binary64 value), a
 * decimal string "0.1" or a quotient "1/3", "-2.5/7" (never via doubles). */
static int json_q(mpq_t q, const json_t *j)
{
    const char *s, *p;
    mpq_t d;
    int ok;
    if (json_is_integer(j)) {
        mpq_set_si(q, (long)json_integer_value(j), 1);
        return 1;
    }
    if (json_is_real(j)) {
        if (json_real_value(j) != json_real_value(j) || json_real_value(j) * 0 != 0) return 0;
        mpq_set_d(q, json_real_value(j));
        return 1;
    }
    if (!(s = json_string_value(j))) return 0;
    while (*s == ' ') s++;
    if (!(p = dec_q(q, s))) return 0;
    while (*p == ' ') p++;
    if (!*p) return 1;
    if (*p != '/') return 0;
    mpq_init(d);
    p = dec_q(d, p + 1);
    while (p && *p == ' ') p++;
    ok = p && !*p && mpq_sgn(d) != 0;
    if (ok) mpq_div(q, q, d);
    mpq_clear(d);
    return ok;
}

/* The k x k rational matrix member key of mo into Q (initialised). */
static dvc_status json_qmat(mpq_t *Q, const json_t *mo, const char *key, long k, const char *file,
                            const char *field)
{
    const json_t *a = json_object_get(mo, key);
    if (!json_is_array(a) || (long)json_array_size(a) != k)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.%s': expected %ld rows (the states then the "
                         "algebraic variables)", file, field, key, k);
    for (long i = 0; i < k; i++) {
        const json_t *r = json_array_get(a, (size_t)i);
        if (!json_is_array(r) || (long)json_array_size(r) != k)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s.%s' row %ld: expected %ld entries", file,
                             field, key, i + 1, k);
        for (long j = 0; j < k; j++)
            if (!json_q(Q[i * k + j], json_array_get(r, (size_t)j)))
                return dvc_error(DVC_ERR_INPUT, "%s: field '%s.%s' row %ld entry %ld: expected an "
                                 "exact rational number (an integer, a decimal such as \"0.1\" or a "
                                 "quotient such as \"1/3\")", file, field, key, i + 1, j + 1);
    }
    return DVC_OK;
}

/* A linear DAE mode: E, A and b over (x, z). */
static dvc_status linear_mode(dvc_hybrid_model_t m, const char *mname, const json_t *mo,
                              const dvc_expr_consts_t c, const char *file, const char *field)
{
    long k = m->n + m->nz;
    mpq_t *E = malloc((size_t)(k * k) * sizeof *E), *A = malloc((size_t)(k * k) * sizeof *A);
    const json_t *b = json_object_get(mo, "b");
    const char **bs = NULL;
    char **bo = NULL, ff[300];
    dvc_status st = E && A ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; E && A && i < k * k; i++) {
        mpq_init(E[i]);
        mpq_init(A[i]);
    }
    if (st == DVC_OK && (json_object_get(mo, "f") || json_object_get(mo, "g") ||
                         json_object_get(mo, "constraints") || !json_object_get(mo, "A")))
        st = dvc_error(DVC_ERR_INPUT, "%s: field '%s': a linear DAE mode takes 'E', 'A' and "
                       "optionally 'b' (not 'f' or 'g')", file, field);
    if (st == DVC_OK) st = json_qmat(E, mo, "E", k, file, field);
    if (st == DVC_OK) st = json_qmat(A, mo, "A", k, file, field);
    if (st == DVC_OK && b) {
        snprintf(ff, sizeof ff, "%s.b", field);
        st = dvc_hybrid_json_strs(&bs, &bo, b, k, file, ff);
    }
    if (st == DVC_OK) {
        st = dvc_hybrid_add_mode_dae_linear(m, mname, E, A, bs, c, NULL);
        if (st != DVC_OK) st = dvc_error_context(st, "%s: field '%s': ", file, field);
    }
    if (bs) dvc_hybrid_json_strs_free(bs, bo, k);
    for (long i = 0; E && A && i < k * k; i++) {
        mpq_clear(E[i]);
        mpq_clear(A[i]);
    }
    free(E);
    free(A);
    return st;
}

dvc_status dvc_dae_json_algebraic(dvc_hybrid_model_t m, const json_t *obj, const char *file)
{
    const json_t *ja = json_object_get(obj, "algebraic");
    long nz = json_is_array(ja) ? (long)json_array_size(ja) : 0;
    const char **names;
    dvc_status st = DVC_OK;
    if (!ja) return DVC_OK;
    if (!json_is_array(ja) || nz == 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'algebraic': expected a non-empty array of "
                         "names", file);
    if (json_object_get(obj, "decomposed"))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'algebraic': a model in decomposed form takes "
                         "no algebraic variables (write its modes under 'modes')", file);
    names = calloc((size_t)nz, sizeof *names);
    if (!names) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long j = 0; j < nz && st == DVC_OK; j++)
        if (!(names[j] = json_string_value(json_array_get(ja, (size_t)j))))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'algebraic' entry %ld: expected a name", file,
                           j + 1);
    if (st == DVC_OK) {
        st = dvc_hybrid_set_algebraic(m, nz, names);
        if (st != DVC_OK) st = dvc_error_context(st, "%s: field 'algebraic': ", file);
    }
    free(names);
    return st;
}

/* A mode's "z_range": [lo, hi] (exact numbers or decimal strings), the
 * enclosure of the zero of a constraint nonlinear in the one algebraic
 * variable (docs/dae.md section 1.2); *has 0 when absent. */
static dvc_status z_range(mpfi_t r, int *has, const dvc_hybrid_model_struct *m, const json_t *mo,
                          const char *file, const char *field)
{
    const json_t *j = json_object_get(mo, "z_range");
    mpq_t lo, hi;
    int ok;
    *has = j != NULL;
    if (!j) return DVC_OK;
    if (m->nz != 1)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.z_range': only for a model with one "
                         "algebraic variable (it has %ld)", file, field, m->nz);
    mpq_inits(lo, hi, (mpq_ptr)0);
    ok = json_is_array(j) && json_array_size(j) == 2 && json_q(lo, json_array_get(j, 0)) &&
         json_q(hi, json_array_get(j, 1)) && mpq_cmp(lo, hi) < 0;
    if (ok) mpfi_interv_q(r, lo, hi);
    mpq_clears(lo, hi, (mpq_ptr)0);
    if (!ok)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.z_range': expected [lo, hi] with lo < hi "
                         "(numbers or decimal strings), an interval of %s holding exactly one zero "
                         "of the constraint", file, field, m->znames[0]);
    return DVC_OK;
}

dvc_status dvc_dae_json_mode(dvc_hybrid_model_t m, const char *mname, const json_t *mo,
                             const dvc_expr_consts_t c, const char *file, const char *field)
{
    dvc_status st = dvc_hybrid_json_only_keys(mo, keys_mode_dae, 0, file, field);
    const json_t *f = json_object_get(mo, "f"), *g = json_object_get(mo, "g");
    const char *gkey = "g", **fs = NULL, **gs = NULL;
    char **fo = NULL, **go = NULL, ff[300];
    if (st != DVC_OK) return st;
    if (json_object_get(mo, "E")) return linear_mode(m, mname, mo, c, file, field);
    if (json_object_get(mo, "A") || json_object_get(mo, "b"))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': 'A' and 'b' of a DAE mode go with 'E' "
                         "(E w' = A w + b over the states then the algebraic variables)", file, field);
    if (g && json_object_get(mo, "constraints"))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': give 'g' or 'constraints', not both", file,
                         field);
    if (!g) {
        g = json_object_get(mo, "constraints");
        gkey = "constraints";
    }
    if (!f || !g)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': a mode of a DAE (the model declares "
                         "'algebraic') needs 'f' (%ld expressions) and 'g' (%ld constraints)",
                         file, field, m->n, m->nz);
    snprintf(ff, sizeof ff, "%s.f", field);
    st = dvc_hybrid_json_strs(&fs, &fo, f, m->n, file, ff);
    if (st == DVC_OK) {
        snprintf(ff, sizeof ff, "%s.%s", field, gkey);
        st = dvc_hybrid_json_strs(&gs, &go, g, m->nz, file, ff);
    }
    mpfi_t zr;
    int has_zr = 0;
    mpfi_init2(zr, m->prec);
    if (st == DVC_OK) st = z_range(zr, &has_zr, m, mo, file, field);
    if (st == DVC_OK) {
        st = dvc_hybrid_add_mode_dae_range(m, mname, fs, gs, c, has_zr ? zr : NULL, NULL);
        /* "mode 'M': f[i]: ..." or "mode 'M': constraint k ..." */
        if (st != DVC_OK) st = dvc_error_context(st, "%s: field '%s': ", file, field);
    }
    mpfi_clear(zr);
    if (fs) dvc_hybrid_json_strs_free(fs, fo, m->n);
    if (gs) dvc_hybrid_json_strs_free(gs, go, m->nz);
    return st;
}

int dvc_dae_json_switch_uses_z(const dvc_hybrid_model_t m, const char *text)
{
    char *s;
    int uses;
    if (m->nz == 0 || m->nmodes == 0 || !m->modes[0].z) return 0;
    s = dvc_hybrid_dae_subst(m, 0, text);
    uses = !s || strcmp(s, text) != 0;
    free(s);
    return uses;
}

dvc_status dvc_dae_json_switch(dvc_hybrid_model_t m, const char *name, const char *text,
                               long from, const dvc_expr_consts_t c, const char *file,
                               const char *field, long *g)
{
    char gname[512], *s;
    size_t l = strlen(name);
    dvc_expr_consts_t cc;
    dvc_status st;
    if (!(s = dvc_hybrid_dae_subst(m, from, text))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (m->modes[from].z && m->modes[from].z[0]->root && strcmp(s, text)) {
        free(s); /* z is an implicit node there: no text to substitute */
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' (switching function '%s' in mode '%s'): "
                         "reads the algebraic variable of a mode whose constraint is nonlinear in "
                         "it: not supported yet (write it with t and the states)", file, field, name,
                         m->modes[from].name);
    }
    /* taken with the z of the mode it leaves; modes where that is the same
     * expression share one switching function (one surface), named as
     * in the file; another expression is "name@mode" */
    for (long k = 0; k < m->ng; k++)
        if (!strncmp(m->gname[k], name, l) && (!m->gname[k][l] || m->gname[k][l] == '@') &&
            !strcmp(m->g[k]->text, s)) {
            *g = k;
            free(s);
            return DVC_OK;
        }
    if (dvc_hybrid_find_switch(m, name) < 0) snprintf(gname, sizeof gname, "%s", name);
    else snprintf(gname, sizeof gname, "%s@%s", name, m->modes[from].name);
    dvc_expr_consts_init2(cc, m->prec);
    st = dvc_hybrid_dae_consts(cc, m, c);
    if (st == DVC_OK) st = dvc_hybrid_add_switch(m, gname, s, cc, g);
    if (st != DVC_OK)
        st = dvc_error_context(st, "%s: field '%s' (switching function '%s' in mode '%s'): ", file,
                               field, name, m->modes[from].name);
    dvc_expr_consts_clear(cc);
    free(s);
    return st;
}

/* "initial.z" (an array of nz values or an object by name) into z. */
static dvc_status read_z0(dvc_ivec_t z, const dvc_hybrid_model_struct *m, const json_t *jz,
                          const char *file)
{
    char where[300];
    dvc_status st = DVC_OK;
    if (json_is_array(jz)) {
        if ((long)json_array_size(jz) != m->nz)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'initial.z': %zu entries, expected %ld", file,
                             json_array_size(jz), m->nz);
        for (long j = 0; j < m->nz && st == DVC_OK; j++) {
            snprintf(where, sizeof where, "%s: field 'initial.z' entry %ld (%s)", file, j + 1,
                     m->znames[j]);
            st = dvc_json_ival(z->e[j], json_array_get(jz, (size_t)j), where);
        }
        return st;
    }
    if (!json_is_object(jz) || (long)json_object_size(jz) != m->nz)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'initial.z': an array of %ld values or an object "
                         "with one value per algebraic variable", file, m->nz);
    for (long j = 0; j < m->nz && st == DVC_OK; j++) {
        const json_t *v = json_object_get(jz, m->znames[j]);
        snprintf(where, sizeof where, "%s: field 'initial.z.%s'", file, m->znames[j]);
        st = v ? dvc_json_ival(z->e[j], v, where)
               : dvc_error(DVC_ERR_INPUT, "%s: field 'initial.z': no value for '%s'", file,
                           m->znames[j]);
    }
    return st;
}

/* ", name = [lo, hi]" for each entry of v into buf. */
static void list(char *buf, size_t cap, char *const *names, const dvc_ivec_t v, long k)
{
    buf[0] = '\0';
    for (long j = 0; j < k; j++) {
        char *s = dvc_ival_str(v->e[j], 17);
        size_t u = strlen(buf);
        snprintf(buf + u, cap - u, "%s%s = %s", j ? ", " : "", names ? names[j] : "", s ? s : "?");
        free(s);
    }
}

dvc_status dvc_dae_json_initial_z(const dvc_hybrid_model_t m, const json_t *in, const char *file)
{
    const json_t *jz = json_object_get(in, "z");
    dvc_ivec_t z, zc, r;
    mpfi_t T;
    dvc_status st;
    int ok = 1;
    if (!jz) return DVC_OK;
    if (m->nz == 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'initial.z': the model declares no algebraic "
                         "variables ('algebraic')", file);
    dvc_ivec_init2(z, m->nz, m->prec);
    dvc_ivec_init2(zc, m->nz, m->prec);
    dvc_ivec_init2(r, m->nz, m->prec);
    mpfi_init2(T, mpfr_get_prec(m->t0));
    mpfi_set_fr(T, m->t0);
    st = read_z0(z, m, jz, file);
    if (st == DVC_OK) st = dvc_hybrid_dae_z(zc, m, m->mode0, T, m->x0);
    if (st == DVC_OK) st = dvc_hybrid_dae_residual(r, m, m->mode0, T, m->x0, z);
    if (st != DVC_OK && st != DVC_ERR_NOMEM && strncmp(dvc_error_message(), file, strlen(file)))
        st = dvc_error_context(st, "%s: field 'initial.z': ", file);
    /* certainly inconsistent: a residual without 0, or a value apart from
     * the unique solution's enclosure */
    for (long k = 0; st == DVC_OK && k < m->nz; k++) {
        mpfi_t w;
        mpfi_init2(w, m->prec);
        if (!mpfi_has_zero(r->e[k])) ok = 0;
        mpfi_intersect(w, z->e[k], zc->e[k]);
        if (mpfi_is_empty(w)) ok = 0;
        mpfi_clear(w);
    }
    if (st == DVC_OK && !ok) {
        char res[2048], cons[2048];
        list(res, sizeof res, NULL, r, m->nz);
        list(cons, sizeof cons, m->znames, zc, m->nz);
        for (char *p = res; (p = strstr(p, " = ")) != NULL;) memmove(p, p + 3, strlen(p + 3) + 1);
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'initial.z': inconsistent with the constraints of "
                       "mode '%s' at t0 and the initial state: the residual g(t0, x0, z0) is (%s), "
                       "not 0; the consistent value is %s (the algebraic variables follow from the "
                       "state: give these values or omit 'initial.z')", file,
                       m->modes[m->mode0].name, res, cons);
    }
    dvc_ivec_clear(z);
    dvc_ivec_clear(zc);
    dvc_ivec_clear(r);
    mpfi_clear(T);
    return st;
}
