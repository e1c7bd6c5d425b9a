/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Ideal contacts (docs/ideal_contacts.md, section 2): the translation of a
 * DLVI problem with M = 0 into Stewart's decomposed hybrid model, built in
 * memory with the expression builders (include/dvicert/expr.h,
 * "Building"). One term per contact j: h = (Q x + g)_j, f+ = 0, f- = B e_j
 * K; f0 = A x + f(t). Every expression is built as the tree its text in
 * the rendered model (src/io/lcs_json.c) parses to: the same literals
 * (named constants of s->src->consts, enclosed as the model reader encloses
 * them), the same order of operations, the same constant folding; so the
 * engine computes the same numbers from either (tests/test_lcs.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dvicert/lcs.h"
#include "dvicert/error.h"

/* The model being built and its source. */
typedef struct {
    dvc_hybrid_model_struct *model;
    const dvc_lcs_source *src;
} ctx_t;

static int ival_is_zero(const mpfi_t x)
{
    return mpfr_zero_p(&x->left) && mpfr_zero_p(&x->right);
}

/* The named constant `name` of the table as the parser reads it: a
 * decimal text enclosed at the expression's precision, a value rounded. */
static dvc_status named(dvc_expr_t e, const char *name, const ctx_t *s)
{
    long k = dvc_expr_consts_find(s->src->consts, name);
    const dvc_hybrid_model_struct *m = s->model;
    dvc_status st;
    mpfi_t v;
    if (k < 0) return dvc_error(DVC_ERR_INPUT, "ideal contact: constant '%s' missing", name);
    if (!s->src->consts->text[k])
        return dvc_expr_set_literal(e, name, s->src->consts->val[k], m->n, (const char *const *)m->names);
    mpfi_init2(v, m->prec);
    st = dvc_ival_set_str(v, s->src->consts->text[k]);
    if (st == DVC_OK)
        st = dvc_expr_set_literal(e, name, v, m->n, (const char *const *)m->names);
    mpfi_clear(v);
    return st;
}

/* e = "name*x_j" (j >= 1: the state j; 0: the constant lcs_K). */
static dvc_status product(dvc_expr_t e, const char *name, long j, const ctx_t *s)
{
    const dvc_hybrid_model_struct *m = s->model;
    dvc_expr_t a, b;
    dvc_status st;
    dvc_expr_init2(a, m->prec);
    dvc_expr_init2(b, m->prec);
    st = named(a, name, s);
    if (st == DVC_OK)
        st = j > 0 ? dvc_expr_set_variable(b, j, m->n, (const char *const *)m->names)
                   : named(b, "lcs_K", s);
    if (st == DVC_OK) st = dvc_expr_mul(e, a, b);
    dvc_expr_clear(a);
    dvc_expr_clear(b);
    return st;
}

/* acc = acc + t ("t" alone when acc is still empty: *have 0). */
static dvc_status append(dvc_expr_t acc, int *have, dvc_expr_t t)
{
    if (!*have) {
        dvc_expr_swap(acc, t);
        *have = 1;
        return DVC_OK;
    }
    return dvc_expr_add(acc, acc, t);
}

/* An empty sum is the literal "0". */
static dvc_status finish(dvc_expr_t acc, int have, const dvc_hybrid_model_struct *m)
{
    return have ? DVC_OK : dvc_expr_set_literal(acc, "0", NULL, m->n, (const char *const *)m->names);
}

/* f0_i = sum_j lcs_A_i_j*x_j + (f_i) (or + lcs_f_i: a number). */
static dvc_status field_row(dvc_expr_t e, long i, const dvc_dlvi_problem_t p, const ctx_t *s)
{
    const dvc_hybrid_model_struct *m = s->model;
    char name[64];
    int have = 0;
    dvc_status st = DVC_OK;
    dvc_expr_t t, u;
    dvc_expr_init2(t, m->prec);
    dvc_expr_init2(u, m->prec);
    for (long j = 0; st == DVC_OK && j < p->n; j++) {
        if (ival_is_zero(p->A->e[i * p->n + j])) continue;
        snprintf(name, sizeof name, "lcs_A_%ld_%ld", i + 1, j + 1);
        st = product(t, name, j + 1, s);
        if (st == DVC_OK) st = append(e, &have, t);
    }
    if (st == DVC_OK && s->src->f && s->src->f[i]) {
        st = dvc_expr_parse_vars(u, s->src->f[i], s->src->consts, m->n, (const char *const *)m->names);
        if (st == DVC_OK) st = dvc_expr_paren(t, u);
        if (st == DVC_OK) st = append(e, &have, t);
    } else if (st == DVC_OK && s->src->f) {
        snprintf(name, sizeof name, "lcs_f_%ld", i + 1);
        st = named(t, name, s);
        if (st == DVC_OK) st = append(e, &have, t);
    }
    if (st == DVC_OK) st = finish(e, have, m);
    dvc_expr_clear(t);
    dvc_expr_clear(u);
    return st;
}

/* h_j = sum_i lcs_Q_j_i*x_i + lcs_g_j; f-_i = lcs_B_i_j*lcs_K (or 0). */
static dvc_status term(dvc_expr_t h, dvc_expr_t *fminus, long j, const dvc_dlvi_problem_t p,
                       const ctx_t *s)
{
    const dvc_hybrid_model_struct *m = s->model;
    char name[64];
    int have = 0;
    dvc_status st = DVC_OK;
    dvc_expr_t t;
    dvc_expr_init2(t, m->prec);
    for (long i = 0; st == DVC_OK && i < p->n; i++) {
        if (ival_is_zero(p->B->e[i * p->m + j])) {
            st = finish(fminus[i], 0, m);
        } else {
            snprintf(name, sizeof name, "lcs_B_%ld_%ld", i + 1, j + 1);
            st = product(fminus[i], name, 0, s);
        }
        if (st != DVC_OK || ival_is_zero(p->Q->e[j * p->n + i])) continue;
        snprintf(name, sizeof name, "lcs_Q_%ld_%ld", j + 1, i + 1);
        st = product(t, name, i + 1, s);
        if (st == DVC_OK) st = append(h, &have, t);
    }
    if (st == DVC_OK && s->src->has_g) {
        snprintf(name, sizeof name, "lcs_g_%ld", j + 1);
        st = named(t, name, s);
        if (st == DVC_OK) st = append(h, &have, t);
    }
    if (st == DVC_OK) st = finish(h, have, m);
    dvc_expr_clear(t);
    return st;
}

static dvc_expr_t *exprs_new(long n, mpfr_prec_t prec)
{
    dvc_expr_t *v = calloc((size_t)n, sizeof *v);
    for (long i = 0; v && i < n; i++) dvc_expr_init2(v[i], prec);
    return v;
}

static void exprs_free(dvc_expr_t *v, long n)
{
    for (long i = 0; v && i < n; i++) dvc_expr_clear(v[i]);
    free(v);
}

/* The decomposed form: f0 and one term per contact. */
static dvc_status decomposed(const dvc_dlvi_problem_t p, const ctx_t *s)
{
    dvc_hybrid_model_struct *m = s->model;
    long n = p->n, nc = p->m;
    char names[DVC_LCS_MAX][24];
    dvc_hybrid_term_expr te[DVC_LCS_MAX];
    dvc_expr_t hs[DVC_LCS_MAX];
    dvc_expr_t *f0 = exprs_new(n, m->prec), *fp = exprs_new(n, m->prec), *fm[DVC_LCS_MAX] = {0};
    dvc_status st = f0 && fp ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long j = 0; j < nc; j++) dvc_expr_init2(hs[j], m->prec);
    for (long i = 0; st == DVC_OK && i < n; i++) {
        st = field_row(f0[i], i, p, s);
        if (st == DVC_OK) st = finish(fp[i], 0, m);
    }
    for (long j = 0; st == DVC_OK && j < nc; j++) {
        fm[j] = exprs_new(n, m->prec);
        st = fm[j] ? term(hs[j], fm[j], j, p, s) : dvc_error(DVC_ERR_NOMEM, "out of memory");
        te[j] = (dvc_hybrid_term_expr){dvc_lcs_term_name(names[j], sizeof names[j], nc, j), hs[j],
                                       (const dvc_expr_t *)fp, (const dvc_expr_t *)fm[j]};
    }
    if (st == DVC_OK) st = dvc_hybrid_add_decomposed_exprs(m, (const dvc_expr_t *)f0, nc, te);
    for (long j = 0; j < nc; j++) {
        dvc_expr_clear(hs[j]);
        exprs_free(fm[j], n);
    }
    exprs_free(f0, n);
    exprs_free(fp, n);
    return st;
}

dvc_status dvc_lcs_model(dvc_hybrid_model_t m, const dvc_dlvi_problem_t p, const dvc_lcs_source *s,
                         const int *sides0)
{
    ctx_t cx = {m, s};
    char mode0[DVC_LCS_MAX * 24];
    mpfr_t t0;
    long mode;
    dvc_status st = dvc_hybrid_model_init(m, p->n, s->names, s->prec);
    if (st != DVC_OK) return dvc_error_context(st, "%s: field 'states': ", s->file);
    if (p->m < 1 || p->m > DVC_LCS_MAX)
        return dvc_error(DVC_ERR_INPUT, "%s: ideal contact: m = %ld outside [1, %d]", s->file, p->m,
                         DVC_LCS_MAX);
    st = decomposed(p, &cx);
    if (st != DVC_OK) return dvc_error_context(st, "%s: field 'decomposed.terms': ", s->file);
    mode = dvc_hybrid_find_mode(m, dvc_lcs_mode_name(mode0, sizeof mode0, p->m, sides0));
    if (mode < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'initial.mode': no mode named '%s'", s->file,
                         mode0);
    mpfr_init2(t0, m->prec);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    st = dvc_hybrid_set_initial(m, mode, s->x0, t0, s->T);
    if (st != DVC_OK) st = dvc_error_context(st, "%s: field 'T': ", s->file);
    if (st == DVC_OK) {
        /* the engine's largest step, a double the rendered model states and
         * its reader takes only when exact at the model's precision */
        double h = dvc_lcs_step(p);
        mpfr_set_d(t0, h, MPFR_RNDN);
        if (mpfr_cmp_d(t0, h) != 0)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'h': not exact at %ld bits", s->file,
                           (long)m->prec);
        else if (!(h > 0))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'h': must be > 0", s->file);
        else m->h = h;
    }
    mpfr_clear(t0);
    return st;
}
