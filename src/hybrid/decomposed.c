/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Stewart's decomposed form with one discontinuous term (docs/sliding.md
 * section 1): the term is compiled into three modes (h > 0, h < 0, sliding
 * on h = 0), the switching functions h, h'+ and h'- and their transitions,
 * so that the event-driven engine integrates it; the sliding field is
 * written out as an expression (the bordered system solved in closed form). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid/engine.h"
#include "expr/internal.h"

/* 1 when the compiled program of e is affine in the state and free of t
 * (a syntactic proof: constants, state variables, +, -, products with and
 * quotients by constant subexpressions). */
static int affine_program(const dvc_expr_struct *e)
{
    /* kind per stack slot: 0 constant, 1 affine in x, 2 anything else */
    int *k = malloc((size_t)(e->nins + 1) * sizeof *k);
    long sp = 0;
    int ok = k != NULL;
    for (long i = 0; ok && i < e->nins; i++) {
        const ins_t *in = &e->ins[i];
        int a, b;
        switch (in->op) {
        case OP_CONST: k[sp++] = 0; break;
        case OP_VAR: k[sp++] = in->arg == 0 ? 2 : 1; break;
        case OP_NEG: break;
        case OP_ADD:
        case OP_SUB:
            b = k[--sp];
            a = k[sp - 1];
            k[sp - 1] = a > b ? a : b;
            break;
        case OP_MUL:
            b = k[--sp];
            a = k[sp - 1];
            k[sp - 1] = a == 0 ? b : b == 0 ? a : 2;
            break;
        case OP_DIV:
            b = k[--sp];
            a = k[sp - 1];
            k[sp - 1] = b == 0 ? a : 2;
            break;
        case OP_POWI:
            a = k[sp - 1];
            k[sp - 1] = a == 0 ? 0 : in->arg == 1 ? a : 2;
            break;
        case OP_POW:
        case OP_MIN:
        case OP_MAX:
            b = k[--sp];
            a = k[sp - 1];
            k[sp - 1] = (a == 0 && b == 0) ? 0 : 2;
            break;
        default: /* one-argument functions */
            k[sp - 1] = k[sp - 1] == 0 ? 0 : 2;
            break;
        }
        if (sp < 1) ok = 0;
    }
    ok = ok && sp == 1 && k[0] <= 1;
    free(k);
    return ok;
}

static char *cat(char *s, const char *a)
{
    size_t n = s ? strlen(s) : 0, k = strlen(a);
    char *r = realloc(s, n + k + 1);
    if (!r) {
        free(s);
        return NULL;
    }
    memcpy(r + n, a, k + 1);
    return r;
}

/* "+ _ck*((a_k)<op>(b_k))" summed over the nonzero entries of c (the
 * gradient of h); c_k is the named constant _hk. */
static char *dot_text(const dvc_ivec_t c, const char *const *a, const char *op,
                      const char *const *b)
{
    char *s = cat(NULL, "0");
    for (long k = 0; s && k < c->n; k++) {
        if (mpfi_is_zero(c->e[k])) continue;
        size_t len = strlen(a[k]) + strlen(b[k]) + 64;
        char *t = malloc(len);
        if (!t) {
            free(s);
            return NULL;
        }
        snprintf(t, len, "+_h%ld*((%s)%s(%s))", k + 1, a[k], op, b[k]);
        s = cat(s, t);
        free(t);
    }
    return s;
}

static void free_texts(char **t, long n)
{
    if (!t) return;
    for (long i = 0; i < n; i++) free(t[i]);
    free(t);
}

dvc_status dvc_hybrid_add_contact(dvc_hybrid_model_t m, const char *name, const char *h,
                                  const char *const *f0, const char *const *fplus,
                                  const char *const *fminus, const dvc_expr_consts_t consts,
                                  long *index)
{
    long n = m->n;
    if (!name || !*name) return dvc_error(DVC_ERR_INPUT, "a discontinuous term needs a name");
    if (m->ncontacts >= 1)
        return dvc_error(DVC_ERR_INPUT, "term '%s': several discontinuous terms (contacts): not "
                         "supported yet (several contacts may switch at once, which needs "
                         "Stewart's active-set LCP)", name);
    if (!h || !f0 || !fplus || !fminus)
        return dvc_error(DVC_ERR_INPUT, "term '%s': needs h, f0, f+ and f-", name);
    for (long i = 0; i < n; i++)
        if (!f0[i] || !fplus[i] || !fminus[i])
            return dvc_error(DVC_ERR_INPUT, "term '%s': missing expression for %s", name,
                             m->names[i]);
    dvc_status st;
    dvc_expr_t he;
    dvc_ivec_t grad, X;
    mpfi_t T;
    dvc_expr_consts_t cc;
    char **fp = calloc((size_t)n, sizeof *fp), **fm = calloc((size_t)n, sizeof *fm),
         **fs = calloc((size_t)n, sizeof *fs);
    char *qp = NULL, *qm = NULL, *dd = NULL, *buf = NULL;
    size_t blen = strlen(name) + 8;
    dvc_expr_init2(he, m->prec);
    dvc_ivec_init2(grad, n + 1, m->prec);
    dvc_ivec_init2(X, n, m->prec);
    mpfi_init2(T, m->prec);
    dvc_expr_consts_init(cc);
    buf = malloc(blen);
    if (!fp || !fm || !fs || !buf) {
        st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        goto out;
    }
    /* h affine in the state: its gradient c is a constant vector, enclosed
     * by evaluating the gradient anywhere (here at t = 0, x = 0) */
    st = dvc_expr_parse_vars(he, h, consts, n, (const char *const *)m->names);
    if (st != DVC_OK) {
        st = dvc_error_context(st, "term '%s': field 'h': ", name);
        goto out;
    }
    if (!affine_program(he)) {
        st = dvc_error(DVC_ERR_INPUT, "term '%s': field 'h': the indicator '%s' must be affine in "
                       "the state and free of t (sums of constant multiples of state variables)",
                       name, h);
        goto out;
    }
    mpfi_set_ui(T, 0);
    dvc_ivec_zero(X);
    st = dvc_expr_grad(NULL, grad, he, T, X);
    if (st != DVC_OK) {
        st = dvc_error_context(st, "term '%s': field 'h': ", name);
        goto out;
    }
    /* the constants of the file, and _h1.._hn = c */
    for (long i = 0; consts && i < consts->n && st == DVC_OK; i++)
        st = consts->text[i] ? dvc_expr_consts_add_str(cc, consts->name[i], consts->text[i])
                             : dvc_expr_consts_add(cc, consts->name[i], consts->val[i]);
    int nz = 0;
    for (long k = 0; k < n && st == DVC_OK; k++) {
        char cn[32];
        snprintf(cn, sizeof cn, "_h%ld", k + 1);
        st = dvc_expr_consts_add(cc, cn, grad->e[k + 1]);
        if (!mpfi_is_zero(grad->e[k + 1])) nz = 1;
    }
    if (st != DVC_OK) {
        st = dvc_error_context(st, "term '%s': ", name);
        goto out;
    }
    if (!nz) {
        st = dvc_error(DVC_ERR_INPUT, "term '%s': field 'h': the indicator '%s' does not depend "
                       "on the state", name, h);
        goto out;
    }
    /* h'+ = c . (f0 + f+), h'- = c . (f0 + f-), D = c . (f+ - f-) */
    {
        /* c without its t entry */
        dvc_ivec_t c;
        dvc_ivec_init2(c, n, m->prec);
        for (long k = 0; k < n; k++) mpfi_set(c->e[k], grad->e[k + 1]);
        qp = dot_text(c, f0, "+", fplus);
        qm = dot_text(c, f0, "+", fminus);
        dd = dot_text(c, fplus, "-", fminus);
        dvc_ivec_clear(c);
    }
    if (!qp || !qm || !dd) {
        st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (long i = 0; i < n; i++) {
        size_t l1 = strlen(f0[i]) + strlen(fplus[i]) + 8;
        size_t l2 = strlen(f0[i]) + strlen(fminus[i]) + 8;
        size_t l3 = l2 + strlen(qm) + strlen(dd) + strlen(fplus[i]) + strlen(fminus[i]) + 32;
        fp[i] = malloc(l1);
        fm[i] = malloc(l2);
        fs[i] = malloc(l3);
        if (!fp[i] || !fm[i] || !fs[i]) {
            st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            goto out;
        }
        snprintf(fp[i], l1, "(%s)+(%s)", f0[i], fplus[i]);
        snprintf(fm[i], l2, "(%s)+(%s)", f0[i], fminus[i]);
        /* the Filippov combination f- + alpha (f+ - f-), alpha = -h'- / D:
         * grad h . f = 0 (Stewart (9)-(11) with two regions) */
        snprintf(fs[i], l3, "(%s)+(%s)-((%s)/(%s))*((%s)-(%s))", f0[i], fminus[i], qm, dd,
                 fplus[i], fminus[i]);
    }
    long mp, mm, ms, gh, gp, gm;
    snprintf(buf, blen, "%s>0", name);
    st = dvc_hybrid_add_mode_field(m, buf, (const char *const *)fp, cc, &mp);
    if (st == DVC_OK) {
        snprintf(buf, blen, "%s<0", name);
        st = dvc_hybrid_add_mode_field(m, buf, (const char *const *)fm, cc, &mm);
    }
    if (st == DVC_OK) {
        snprintf(buf, blen, "%s=0", name);
        st = dvc_hybrid_add_mode_field(m, buf, (const char *const *)fs, cc, &ms);
    }
    if (st == DVC_OK) st = dvc_hybrid_add_switch(m, name, h, consts, &gh);
    if (st == DVC_OK) {
        snprintf(buf, blen, "%s'+", name);
        st = dvc_hybrid_add_switch(m, buf, qp, cc, &gp);
    }
    if (st == DVC_OK) {
        snprintf(buf, blen, "%s'-", name);
        st = dvc_hybrid_add_switch(m, buf, qm, cc, &gm);
    }
    /* reaching h = 0 from either side: slide or cross, decided at the event
     * (src/hybrid/sliding.c); leaving the surface when h'+ rises through 0
     * (alpha reaches 1) or h'- falls through 0 (alpha reaches 0) */
    if (st == DVC_OK) st = dvc_hybrid_add_transition(m, mp, gh, -1, ms, NULL, NULL);
    if (st == DVC_OK) st = dvc_hybrid_add_transition(m, mm, gh, 1, ms, NULL, NULL);
    if (st == DVC_OK) st = dvc_hybrid_add_transition(m, ms, gp, 1, mp, NULL, NULL);
    if (st == DVC_OK) st = dvc_hybrid_add_transition(m, ms, gm, -1, mm, NULL, NULL);
    if (st != DVC_OK) {
        st = dvc_error_context(st, "term '%s': ", name);
        goto out;
    }
    {
        dvc_hybrid_contact *nc = realloc(m->contacts, (size_t)(m->ncontacts + 1) * sizeof *nc);
        if (!nc) {
            st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            goto out;
        }
        m->contacts = nc;
        dvc_hybrid_contact *ct = &nc[m->ncontacts];
        ct->name = malloc(strlen(name) + 1);
        if (!ct->name) {
            st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            goto out;
        }
        strcpy(ct->name, name);
        ct->h = gh;
        ct->qplus = gp;
        ct->qminus = gm;
        ct->mplus = mp;
        ct->mminus = mm;
        ct->mslide = ms;
        m->modes[mp].side = 1;
        m->modes[mm].side = -1;
        m->modes[ms].side = 2;
        m->modes[mp].contact = m->modes[mm].contact = m->modes[ms].contact = m->ncontacts;
        if (index) *index = m->ncontacts;
        m->ncontacts++;
    }
out:
    free_texts(fp, n);
    free_texts(fm, n);
    free_texts(fs, n);
    free(qp);
    free(qm);
    free(dd);
    free(buf);
    dvc_expr_clear(he);
    dvc_ivec_clear(grad);
    dvc_ivec_clear(X);
    mpfi_clear(T);
    dvc_expr_consts_clear(cc);
    return st;
}

void hyb_contacts_clear(dvc_hybrid_model_struct *m)
{
    for (long k = 0; k < m->ncontacts; k++) free(m->contacts[k].name);
    free(m->contacts);
    m->contacts = NULL;
    m->ncontacts = 0;
}
