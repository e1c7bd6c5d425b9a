/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Switched DAEs (docs/dae.md): a semi-explicit index-1 mode
 *     x' = f(t, x, z),   0 = g(t, x, z),
 * whose constraints are affine in the algebraic variables z with a
 * constant coefficient matrix D = dg/dz (decided on the programs by
 * structure, dvc_expr_affine) proven nonsingular by a verified inverse, is
 * reduced exactly: g(t, x, z) = g(t, x, 0) + D z, so
 *     z(t, x) = -D^{-1} g(t, x, 0)
 * with the entries of D^{-1} as named interval constants (each encloses
 * the true entry), and the mode becomes the field mode
 * x' = f(t, x, z(t, x)) that the engine certifies unchanged. The reduced
 * expressions are built as texts (every algebraic variable replaced by
 * its parenthesised expression) and parsed like any model text, so the
 * engine sees an ordinary field mode; a verifier rebuilding the model from
 * its file recomputes the reduction. A D(t, x) depending on t and the
 * state (n_z <= 3) is written out as texts instead (dvc_expr_affine_texts)
 * and z = -adj(D) g(t, x, 0) / det D, the determinant in the denominator
 * of every evaluation: proven nonzero on each box the engine evaluates,
 * or the run stops (hyb_dae_explain names the mode). One constraint
 * nonlinear in the one algebraic variable, with an enclosure z_range of
 * its zero, makes z the implicit node of src/expr/root.c instead
 * (nonlinear_mode, docs/dae.md section 1.2). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid/internal.h"
#include "hybrid/dae.h"
#include "expr/internal.h"

static const char *const reserved[] = {"t", "pi", "sin", "cos", "exp", "log", "sqrt", "abs",
                                       "atan", "tanh", "sinh", "cosh", "min", "max", NULL};

static int is_ident(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_') return 0;
    return 1;
}

dvc_status dvc_hybrid_set_algebraic(dvc_hybrid_model_t m, long nz, const char *const *names)
{
    if (m->nz > 0) return dvc_error(DVC_ERR_INPUT, "the algebraic variables are declared twice");
    if (m->nmodes > 0)
        return dvc_error(DVC_ERR_INPUT, "the algebraic variables are declared after a mode");
    if (nz < 1) return dvc_error(DVC_ERR_INPUT, "a DAE needs at least one algebraic variable");
    for (long j = 0; j < nz; j++) {
        const char *s = names[j];
        if (!is_ident(s))
            return dvc_error(DVC_ERR_INPUT, "algebraic variable '%s' is not an identifier",
                             s ? s : "");
        for (const char *const *r = reserved; *r; r++)
            if (!strcmp(s, *r))
                return dvc_error(DVC_ERR_INPUT, "algebraic variable '%s' is a reserved name", s);
        for (long i = 0; i < m->n; i++)
            if (!strcmp(s, m->names[i]))
                return dvc_error(DVC_ERR_INPUT, "algebraic variable '%s' is also a state", s);
        for (long i = 0; i < j; i++)
            if (!strcmp(s, names[i]))
                return dvc_error(DVC_ERR_INPUT, "algebraic variable '%s' given twice", s);
    }
    m->znames = calloc((size_t)nz, sizeof *m->znames);
    if (!m->znames) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    m->nz = nz;
    for (long j = 0; j < nz; j++)
        if (!(m->znames[j] = strdup(names[j]))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    return DVC_OK;
}

/* ---- texts ---- */

void hyb_text_put(hyb_text *b, const char *s, size_t k)
{
    if (b->fail) return;
    if (b->n + k + 1 > b->cap) {
        size_t cap = 2 * (b->n + k + 1) + 64;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->fail = 1;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, k);
    b->n += k;
    b->s[b->n] = '\0';
}

void hyb_text_puts(hyb_text *b, const char *s) { hyb_text_put(b, s, strlen(s)); }

char *hyb_text_done(hyb_text *b)
{
    if (b->fail || !b->s) {
        free(b->s);
        return b->fail ? NULL : strdup("");
    }
    return b->s;
}

/* text with every identifier equal to names[j] (k names) replaced by
 * repl[j]; numbers (with their exponents) are copied as they are, so the
 * e of 1e5 is never taken for a name. */
static char *subst(const char *text, long k, char *const *names, const char *const *repl)
{
    hyb_text b = {NULL, 0, 0, 0};
    const char *p = text;
    while (*p) {
        size_t l = 0;
        if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            while (isdigit((unsigned char)p[l]) || p[l] == '.') l++;
            if ((p[l] == 'e' || p[l] == 'E') &&
                (isdigit((unsigned char)p[l + 1]) ||
                 ((p[l + 1] == '+' || p[l + 1] == '-') && isdigit((unsigned char)p[l + 2])))) {
                l += 2;
                while (isdigit((unsigned char)p[l])) l++;
            }
            hyb_text_put(&b, p, l);
        } else if (isalpha((unsigned char)*p) || *p == '_') {
            long j = 0;
            while (isalnum((unsigned char)p[l]) || p[l] == '_') l++;
            while (j < k && (strlen(names[j]) != l || strncmp(names[j], p, l))) j++;
            if (j < k) hyb_text_puts(&b, repl[j]);
            else hyb_text_put(&b, p, l);
        } else {
            l = 1;
            hyb_text_put(&b, p, 1);
        }
        p += l;
    }
    return hyb_text_done(&b);
}

dvc_status dvc_hybrid_dae_consts(dvc_expr_consts_t c, const dvc_hybrid_model_t m,
                                 const dvc_expr_consts_t consts)
{
    const dvc_expr_consts_struct *src[2] = {consts, m->zconsts};
    dvc_status st = DVC_OK;
    for (int s = 0; s < 2; s++)
        for (long i = 0; src[s] && st == DVC_OK && i < src[s]->n; i++)
            st = src[s]->text[i] ? dvc_expr_consts_add_str(c, src[s]->name[i], src[s]->text[i])
                                 : dvc_expr_consts_add(c, src[s]->name[i], src[s]->val[i]);
    return st;
}

char *dvc_hybrid_dae_subst(const dvc_hybrid_model_t m, long mode, const char *text)
{
    const dvc_hybrid_mode *md = &m->modes[mode];
    char **repl = calloc((size_t)(m->nz > 0 ? m->nz : 1), sizeof *repl), *r = NULL;
    int ok = repl != NULL && md->z != NULL;
    for (long j = 0; ok && j < m->nz; j++) {
        hyb_text b = {NULL, 0, 0, 0};
        hyb_text_puts(&b, "(");
        hyb_text_puts(&b, md->z[j]->text);
        hyb_text_puts(&b, ")");
        ok = (repl[j] = hyb_text_done(&b)) != NULL;
    }
    if (ok) r = subst(text, m->nz, m->znames, (const char *const *)repl);
    for (long j = 0; repl && j < m->nz; j++) free(repl[j]);
    free(repl);
    return r;
}

/* ---- the reduction ---- */

/* The states and the algebraic variables, as one list of names. */
static char **all_names(const dvc_hybrid_model_struct *m)
{
    char **v = malloc((size_t)(m->n + m->nz) * sizeof *v);
    if (!v) return NULL;
    for (long i = 0; i < m->n; i++) v[i] = m->names[i];
    for (long j = 0; j < m->nz; j++) v[m->n + j] = m->znames[j];
    return v;
}

static void free_exprs(dvc_expr_t *e, long n)
{
    for (long i = 0; e && i < n; i++) dvc_expr_clear(e[i]);
    free(e);
}

static void free_texts(char **t, long n)
{
    for (long i = 0; t && i < n; i++) free(t[i]);
    free(t);
}

/* Parse k texts over the names (nv of them) at the model's precision. */
static dvc_status parse_all(dvc_expr_t **out, const dvc_hybrid_model_struct *m, long k,
                            const char *const *text, const dvc_expr_consts_struct *c, long nv,
                            char *const *names, const char *what)
{
    dvc_expr_t *e = calloc((size_t)k, sizeof *e);
    dvc_status st = e ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; e && i < k; i++) dvc_expr_init2(e[i], m->prec);
    for (long i = 0; st == DVC_OK && i < k; i++) {
        st = text[i] ? dvc_expr_parse_vars(e[i], text[i], c, nv, (const char *const *)names)
                     : dvc_error(DVC_ERR_INPUT, "missing expression");
        if (st != DVC_OK) st = dvc_error_context(st, "%s[%ld]: ", what, i);
    }
    if (st != DVC_OK) {
        free_exprs(e, e ? k : 0);
        return st;
    }
    *out = e;
    return DVC_OK;
}

/* D (nz x nz): row k the coefficients of z in constraint k, refusing a
 * constraint that does not involve z or is not affine in it; *varying: a
 * coefficient depends on t or the state (D is then not meaningful). */
static dvc_status coefficients(dvc_imat_t D, int *varying, const dvc_hybrid_model_struct *m,
                               dvc_expr_t *g)
{
    *varying = 0;
    for (long k = 0; k < m->nz; k++) {
        int kind, uses;
        dvc_status st = dvc_expr_affine(&dvc_imat_entry(D, k, 0), &kind, &uses, g[k], m->n + 1,
                                        m->nz);
        if (st != DVC_OK) return st;
        if (!uses)
            return dvc_error(DVC_ERR_INPUT, "constraint %ld ('%s') does not involve the algebraic "
                             "variables: index 2 or higher, not supported; differentiate it along "
                             "the flow until it involves them (index reduction) and give the "
                             "differentiated constraint", k + 1, g[k]->text);
        if (kind == 1) *varying = 1;
        if (kind == 2 && m->nz == 1)
            return dvc_error(DVC_ERR_INPUT, "constraint %ld ('%s') is not affine in the algebraic "
                             "variable (a nonlinear function of it): give the mode 'z_range', an "
                             "interval in which the constraint has exactly one zero in %s", k + 1,
                             g[k]->text, m->znames[0]);
        if (kind == 2)
            return dvc_error(DVC_ERR_INPUT, "constraint %ld ('%s') is not affine in the algebraic "
                             "variables (a nonlinear function of them): nonlinear constraints are "
                             "supported with one algebraic variable only (and 'z_range')", k + 1,
                             g[k]->text);
    }
    return DVC_OK;
}

/* The name of the constant v in the model's zconsts: "_daeK", the same
 * name for the same interval (so that modes with the same algebraic
 * expression have the same text), added when new; NULL out of memory. */
static const char *const_name(dvc_hybrid_model_struct *m, mpfi_srcptr v, dvc_status *st)
{
    dvc_expr_consts_struct *c = m->zconsts;
    char name[64];
    for (long i = 0; i < c->n; i++)
        if (mpfr_equal_p(&c->val[i]->left, &v->left) && mpfr_equal_p(&c->val[i]->right, &v->right))
            return c->name[i];
    snprintf(name, sizeof name, "_dae%ld", c->n + 1);
    *st = dvc_expr_consts_add(c, name, v);
    return *st == DVC_OK ? c->name[c->n - 1] : NULL;
}

/* The model's zconsts, made on first use. */
static dvc_status zconsts_ready(dvc_hybrid_model_struct *m)
{
    if (!m->zconsts) {
        m->zconsts = malloc(sizeof *m->zconsts);
        if (!m->zconsts) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        dvc_expr_consts_init2(m->zconsts, m->prec);
    }
    return DVC_OK;
}

/* The texts of z_j = -sum_k Dinv_jk g_k(t, x, 0): an exact 0 entry is left
 * out, an exact 1 or -1 written as a sign, any other entry a named
 * constant of the model's zconsts (const_name). */
static dvc_status z_texts(char **zt, dvc_hybrid_model_struct *m, const dvc_imat_t Di,
                          char *const *g0)
{
    dvc_status st = zconsts_ready(m);
    if (st != DVC_OK) return st;
    for (long j = 0; st == DVC_OK && j < m->nz; j++) {
        hyb_text b = {NULL, 0, 0, 0};
        int first = 1;
        hyb_text_puts(&b, "-(");
        for (long k = 0; st == DVC_OK && k < m->nz; k++) {
            mpfi_srcptr v = dvc_imat_entry(Di, j, k);
            if (mpfr_zero_p(&v->left) && mpfr_zero_p(&v->right)) continue;
            if (!first) hyb_text_puts(&b, " + ");
            first = 0;
            if (mpfr_equal_p(&v->left, &v->right) && mpfr_cmp_si(&v->left, -1) == 0) {
                hyb_text_puts(&b, "-");
            } else if (!(mpfr_equal_p(&v->left, &v->right) && mpfr_cmp_si(&v->left, 1) == 0)) {
                const char *name = const_name(m, v, &st);
                hyb_text_puts(&b, name ? name : "?");
                hyb_text_puts(&b, "*");
            }
            hyb_text_puts(&b, "(");
            hyb_text_puts(&b, g0[k]);
            hyb_text_puts(&b, ")");
        }
        hyb_text_puts(&b, ")");
        zt[j] = hyb_text_done(&b);
        if (st == DVC_OK && !zt[j]) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    return st;
}

/* ---- g_z depending on t and the state ---- */

static const char *const_cb(void *ctx, mpfi_srcptr v)
{
    dvc_status st = DVC_OK;
    return const_name(ctx, v, &st);
}

/* Cofactor (k, j) of the nz x nz matrix of texts d (row-major, nz <= 3):
 * adj(D)_jk, so that D^{-1} = adj(D) / det D. */
static void cofactor(hyb_text *b, char *const *d, long nz, long k, long j)
{
#define D_(r, c) d[((r) % nz) * nz + (c) % nz]
    if (nz == 1) {
        hyb_text_puts(b, "1");
    } else if (nz == 2) {
        hyb_text_puts(b, (k + j) % 2 ? "(-" : "(");
        hyb_text_puts(b, D_(k + 1, j + 1));
        hyb_text_puts(b, ")");
    } else { /* the cyclic form carries the sign */
        const char *p[4] = {D_(k + 1, j + 1), D_(k + 2, j + 2), D_(k + 1, j + 2),
                            D_(k + 2, j + 1)};
        for (int i = 0; i < 4; i++) {
            hyb_text_puts(b, i == 0 ? "(" : i == 2 ? "-" : "*");
            hyb_text_puts(b, p[i]);
        }
        hyb_text_puts(b, ")");
    }
#undef D_
}

/* The texts of z_j = -(sum_k adj(D)_jk g_k(t, x, 0)) / det D with D(t, x)
 * written out by dvc_expr_affine_texts (exact: g = g(t, x, 0) + D z as
 * an identity of expressions), and *det the text of det D: nz <= 3
 * (Cramer's rule / the adjugate). Every evaluation of z divides by det D,
 * so it fails wherever det D is not proven nonzero (hyb_dae_explain). */
static dvc_status z_texts_varying(char **zt, char **det, dvc_hybrid_model_struct *m,
                                  dvc_expr_t *ge, char *const *g0)
{
    long nz = m->nz;
    char **d = NULL;
    hyb_text db = {NULL, 0, 0, 0};
    dvc_status st = zconsts_ready(m);
    if (st == DVC_OK && nz > 3)
        st = dvc_error(DVC_ERR_INPUT, "the coefficients dg/dz of the %ld algebraic variables "
                       "depend on t or the state: more than 3 such algebraic variables in one mode "
                       "are not supported yet (a constant dg/dz is)", nz);
    if (st == DVC_OK && !(d = calloc((size_t)(nz * nz), sizeof *d)))
        st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long k = 0; st == DVC_OK && k < nz; k++) {
        char *r = NULL;
        int kind = 2;
        st = dvc_expr_affine_texts(&r, d + k * nz, &kind, ge[k], m->n + 1, nz, const_cb, m);
        free(r);
        if (st == DVC_OK && kind != 0)
            st = dvc_error(DVC_ERR_INTERNAL, "constraint %ld: affine texts", k + 1);
        for (long j = 0; st == DVC_OK && j < nz; j++)
            if (!d[k * nz + j] && !(d[k * nz + j] = strdup("0")))
                st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    /* det D = sum_j D_0j adj(D)_j0 */
    for (long j = 0; st == DVC_OK && j < nz; j++) {
        hyb_text_puts(&db, j ? "+" : "(");
        hyb_text_puts(&db, d[j]);
        if (nz > 1) {
            hyb_text_puts(&db, "*");
            cofactor(&db, d, nz, 0, j);
        }
    }
    hyb_text_puts(&db, ")");
    *det = hyb_text_done(&db);
    if (st == DVC_OK && !*det) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long j = 0; st == DVC_OK && j < nz; j++) {
        hyb_text b = {NULL, 0, 0, 0};
        hyb_text_puts(&b, "-((");
        for (long k = 0; k < nz; k++) {
            if (k) hyb_text_puts(&b, "+");
            if (nz > 1) {
                cofactor(&b, d, nz, k, j);
                hyb_text_puts(&b, "*");
            }
            hyb_text_puts(&b, "(");
            hyb_text_puts(&b, g0[k]);
            hyb_text_puts(&b, ")");
        }
        hyb_text_puts(&b, ")/");
        hyb_text_puts(&b, *det);
        hyb_text_puts(&b, ")");
        if (!(zt[j] = hyb_text_done(&b))) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    free_texts(d, d ? nz * nz : 0);
    return st;
}

/* The reduced field texts f(t, x, z(t, x)) into ft (n) and the z texts
 * into zt (nz), from the parsed f and g over (x, z). */
static dvc_status reduce(char **ft, char **zt, char **det, dvc_hybrid_model_struct *m,
                         dvc_expr_t *fe, dvc_expr_t *ge)
{
    dvc_imat_t D, Di;
    long nz = m->nz;
    int varying = 0;
    char **g0 = calloc((size_t)nz, sizeof *g0), **zero = calloc((size_t)nz, sizeof *zero);
    char **zp = calloc((size_t)nz, sizeof *zp);
    dvc_status st = g0 && zero && zp ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_imat_init2(D, nz, nz, m->prec);
    dvc_imat_init2(Di, nz, nz, m->prec);
    if (st == DVC_OK) st = coefficients(D, &varying, m, ge);
    if (st == DVC_OK && !varying) {
        st = dvc_imat_inv(Di, D);
        if (st == DVC_NOT_CERTIFIED)
            st = dvc_error(DVC_ERR_INPUT, "the coefficient matrix dg/dz of the algebraic variables "
                           "is not proven nonsingular (g_z singular or too ill-conditioned: the mode "
                           "is not of index 1, or its constraints do not determine z)");
    }
    for (long k = 0; st == DVC_OK && k < nz; k++) zero[k] = "0";
    for (long k = 0; st == DVC_OK && k < nz; k++)
        if (!(g0[k] = subst(ge[k]->text, nz, m->znames, (const char *const *)zero)))
            st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK) st = varying ? z_texts_varying(zt, det, m, ge, g0) : z_texts(zt, m, Di, g0);
    for (long j = 0; st == DVC_OK && j < nz; j++) {
        hyb_text b = {NULL, 0, 0, 0};
        hyb_text_puts(&b, "(");
        hyb_text_puts(&b, zt[j]);
        hyb_text_puts(&b, ")");
        if (!(zp[j] = hyb_text_done(&b))) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    for (long i = 0; st == DVC_OK && i < m->n; i++)
        if (!(ft[i] = subst(fe[i]->text, nz, m->znames, (const char *const *)zp)))
            st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    free_texts(g0, nz);
    free(zero);
    free_texts(zp, nz);
    dvc_imat_clear(D);
    dvc_imat_clear(Di);
    return st;
}

/* "g_z = dg/dz of mode 'name' (constraint 0 = g_1; ...)", for the
 * refusal where det g_z is not proven nonzero (hyb_dae_explain). */
static char *det_words(const char *name, const char *const *g, long nz)
{
    hyb_text b = {NULL, 0, 0, 0};
    hyb_text_puts(&b, "g_z = dg/dz of mode '");
    hyb_text_puts(&b, name);
    hyb_text_puts(&b, nz > 1 ? "' (constraints 0 = " : "' (constraint 0 = ");
    for (long k = 0; k < nz; k++) {
        if (k) hyb_text_puts(&b, "; 0 = ");
        hyb_text_puts(&b, g[k]);
    }
    hyb_text_puts(&b, ")");
    return hyb_text_done(&b);
}

dvc_status hyb_dae_explain(dvc_status st, const dvc_hybrid_mode *md, const mpfi_t T,
                           const dvc_ivec_t X)
{
    mpfi_t v;
    char *ts, *vs;
    int sing;
    if (st == DVC_OK || st == DVC_ERR_NOMEM || !md->zdet) return st;
    mpfi_init2(v, mpfi_get_prec(T));
    sing = dvc_expr_eval_x(v, md->zdet[0], T, X) != DVC_OK || mpfi_has_zero(v);
    if (sing) {
        ts = dvc_ival_str(T, 17);
        vs = dvc_ival_str(v, 6);
        st = dvc_error(DVC_NOT_CERTIFIED, "%s is not proven nonsingular at t in %s: det g_z over "
                       "the state enclosure is %s, it contains 0 (the constraints may not "
                       "determine the algebraic variables there)", md->zdet_what,
                       ts ? ts : "?", vs ? vs : "?");
        free(ts);
        free(vs);
    }
    mpfi_clear(v);
    return st;
}

/* One constraint nonlinear in the one algebraic variable z, with an
 * enclosure z_range of its zero (docs/dae.md section 1.2): every z of f
 * (parsed over (x, z)) becomes the implicit node of src/expr/root.c, and
 * so does the z the readers evaluate; the mode is the field mode
 * x' = f(t, x, z(t, x)). 1 in *done when taken, 0 for an affine g (the
 * reduction by substitution, unchanged). */
static dvc_status nonlinear_mode(int *done, dvc_hybrid_model_struct *m, const char *nm,
                                 dvc_expr_t *fe, dvc_expr_t *ge, mpfi_srcptr z_range,
                                 char **names, long *idx)
{
    mpfi_t coef;
    int kind = 0, uses = 0;
    dvc_status st;
    dvc_expr_t *ze = NULL;
    char *what;
    *done = 0;
    if (m->nz != 1 || !z_range) return DVC_OK;
    mpfi_init2(coef, m->prec);
    st = dvc_expr_affine(&coef, &kind, &uses, ge[0], m->n + 1, 1);
    mpfi_clear(coef);
    if (st != DVC_OK || kind != 2) return st;
    *done = 1;
    if (!dvc_ival_is_valid(z_range) || !dvc_ival_is_finite(z_range) ||
        !mpfr_less_p(&z_range->left, &z_range->right))
        return dvc_error(DVC_ERR_INPUT, "'z_range' must be a finite interval [lo, hi] with lo < hi");
    hyb_text b = {NULL, 0, 0, 0};
    hyb_text_puts(&b, "constraint 1 ('");
    hyb_text_puts(&b, ge[0]->text);
    hyb_text_puts(&b, "') of mode '");
    hyb_text_puts(&b, nm);
    hyb_text_puts(&b, "'");
    const char *zt = m->znames[0];
    if (!(what = hyb_text_done(&b))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    st = parse_all(&ze, m, 1, &zt, NULL, m->n + 1, names, "z");
    for (long i = 0; st == DVC_OK && i < m->n; i++) st = dvc_expr_root_make_(fe[i], ge[0], z_range, what);
    if (st == DVC_OK) st = dvc_expr_root_make_(ze[0], ge[0], z_range, what);
    if (st == DVC_OK) st = dvc_hybrid_add_mode_exprs(m, nm, fe, idx);
    if (st == DVC_OK) { /* the mode owns them now */
        m->modes[*idx].z = ze;
        m->modes[*idx].zg = ge;
        ze = NULL;
    }
    free_exprs(ze, ze ? 1 : 0);
    free(what);
    return st;
}

dvc_status dvc_hybrid_add_mode_dae(dvc_hybrid_model_t m, const char *name, const char *const *f,
                                   const char *const *g, const dvc_expr_consts_t consts,
                                   long *index)
{
    return dvc_hybrid_add_mode_dae_range(m, name, f, g, consts, NULL, index);
}

dvc_status dvc_hybrid_add_mode_dae_range(dvc_hybrid_model_t m, const char *name,
                                         const char *const *f, const char *const *g,
                                         const dvc_expr_consts_t consts, mpfi_srcptr z_range,
                                         long *index)
{
    long n = m->n, nz = m->nz, idx = -1;
    char **names = NULL, **ft = NULL, **zt = NULL, *det = NULL, *what = NULL;
    dvc_expr_t *fe = NULL, *ge = NULL, *ze = NULL, *de = NULL;
    dvc_expr_consts_t c;
    dvc_status st = DVC_OK;
    const char *nm = name ? name : "";
    if (nz < 1)
        return dvc_error(DVC_ERR_INPUT, "mode '%s': constraints without algebraic variables", nm);
    if (!f || !g) return dvc_error(DVC_ERR_INPUT, "mode '%s': a DAE mode needs f and g", nm);
    dvc_expr_consts_init2(c, m->prec);
    names = all_names(m);
    ft = calloc((size_t)n, sizeof *ft);
    zt = calloc((size_t)nz, sizeof *zt);
    if (!names || !ft || !zt) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    /* f and g as written, over (x, z): their errors in the user's terms */
    if (st == DVC_OK) st = parse_all(&fe, m, n, f, consts, n + nz, names, "f");
    if (st == DVC_OK) st = parse_all(&ge, m, nz, g, consts, n + nz, names, "g");
    int nonlin = 0;
    if (st == DVC_OK) st = nonlinear_mode(&nonlin, m, nm, fe, ge, z_range, names, &idx);
    if (st == DVC_OK && nonlin) { /* the mode owns ge */
        ge = NULL;
        if (index) *index = idx;
    }
    if (st == DVC_OK && !nonlin) st = reduce(ft, zt, &det, m, fe, ge);
    if (st == DVC_OK && !nonlin) st = dvc_hybrid_dae_consts(c, m, consts);
    if (st == DVC_OK && !nonlin) st = parse_all(&ze, m, nz, (const char *const *)zt, c, n, m->names, "z");
    if (st == DVC_OK && det) {
        st = parse_all(&de, m, 1, (const char *const *)&det, c, n, m->names, "det g_z");
        if (st == DVC_OK && !(what = det_words(nm, g, nz)))
            st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    if (st == DVC_OK && !nonlin) {
        st = dvc_hybrid_add_mode_field(m, name, (const char *const *)ft, c, &idx);
        if (st == DVC_OK) { /* the mode owns them now */
            m->modes[idx].z = ze;
            m->modes[idx].zg = ge;
            m->modes[idx].zdet = de;
            m->modes[idx].zdet_what = what;
            ze = ge = de = NULL;
            what = NULL;
            if (index) *index = idx;
        }
    }
    if (st != DVC_OK && strncmp(dvc_error_message(), "mode '", 6))
        st = dvc_error_context(st, "mode '%s': ", nm);
    free_exprs(fe, fe ? n : 0);
    free_exprs(ge, ge ? nz : 0);
    free_exprs(ze, ze ? nz : 0);
    free_exprs(de, de ? 1 : 0);
    free(det);
    free(what);
    free_texts(ft, n);
    free_texts(zt, nz);
    free(names);
    dvc_expr_consts_clear(c);
    return st;
}

dvc_status dvc_hybrid_dae_z(dvc_ivec_t Z, const dvc_hybrid_model_t m, long mode, const mpfi_t T,
                            const dvc_ivec_t X)
{
    const dvc_hybrid_mode *md = mode >= 0 && mode < m->nmodes ? &m->modes[mode] : NULL;
    dvc_status st = DVC_OK;
    if (!md || !md->z) return dvc_error(DVC_ERR_INPUT, "mode %ld is not a DAE mode", mode);
    for (long j = 0; st == DVC_OK && j < m->nz; j++) st = dvc_expr_eval_x(Z->e[j], md->z[j], T, X);
    return hyb_dae_explain(st, md, T, X);
}

dvc_status dvc_hybrid_dae_residual(dvc_ivec_t R, const dvc_hybrid_model_t m, long mode,
                                   const mpfi_t T, const dvc_ivec_t X, const dvc_ivec_t Zg)
{
    const dvc_hybrid_mode *md = mode >= 0 && mode < m->nmodes ? &m->modes[mode] : NULL;
    dvc_ivec_t V;
    dvc_status st = DVC_OK;
    if (!md || !md->zg) return dvc_error(DVC_ERR_INPUT, "mode %ld is not a DAE mode", mode);
    dvc_ivec_init2(V, m->n + m->nz, m->prec);
    for (long i = 0; i < m->n; i++) mpfi_set(V->e[i], X->e[i]);
    for (long j = 0; j < m->nz; j++) mpfi_set(V->e[m->n + j], Zg->e[j]);
    for (long k = 0; st == DVC_OK && k < m->nz; k++) st = dvc_expr_eval_x(R->e[k], md->zg[k], T, V);
    dvc_ivec_clear(V);
    return st;
}
