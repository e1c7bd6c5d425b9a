/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Stewart's decomposed form with discontinuous terms (docs/sliding.md
 * section 1), compiled into modes (one per assignment of regions with at
 * most one term sliding), the switching functions h, h'+ and h'- of each
 * term and their transitions, so that the event-driven engine integrates
 * it; the sliding field is written out as an expression (the bordered
 * system solved in closed form). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid/sliding.h"
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

/* "0+_hk_i*((a_i)<op>(b_i))" summed over the nonzero entries of the
 * gradient c of term k (the named constants _h<k>_<i>). */
static char *dot_text(const dvc_ivec_t c, long k, const char *const *a, const char *op,
                      const char *const *b)
{
    char *s = cat(NULL, "0");
    for (long i = 0; s && i < c->n; i++) {
        if (mpfi_is_zero(c->e[i])) continue;
        size_t len = strlen(a[i]) + strlen(b[i]) + 80;
        char *t = malloc(len);
        if (!t) {
            free(s);
            return NULL;
        }
        snprintf(t, len, "+_h%ld_%ld*((%s)%s(%s))", k + 1, i + 1, a[i], op, b[i]);
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

/* base_i = (f0_i) + sum over the terms l != skip of (f^l_{s_l})_i */
static char **base_texts(long n, const char *const *f0, long nt, const dvc_hybrid_term *terms,
                         const int *s, long skip)
{
    char **b = calloc((size_t)n, sizeof *b);
    for (long i = 0; b && i < n; i++) {
        b[i] = cat(NULL, "(");
        b[i] = b[i] ? cat(b[i], f0[i]) : NULL;
        b[i] = b[i] ? cat(b[i], ")") : NULL;
        for (long l = 0; l < nt && b[i]; l++) {
            if (l == skip) continue;
            b[i] = cat(b[i], "+(");
            b[i] = b[i] ? cat(b[i], s[l] == 1 ? terms[l].fplus[i] : terms[l].fminus[i]) : NULL;
            b[i] = b[i] ? cat(b[i], ")") : NULL;
        }
        if (!b[i]) {
            free_texts(b, n);
            return NULL;
        }
    }
    return b;
}

/* "name>0&other<0" for the regions s (2: "=0"), skipping term skip (no
 * comma: mode names appear in CSV files) */
static char *regions_name(long nt, const dvc_hybrid_term *terms, const int *s, long skip)
{
    char *r = cat(NULL, "");
    int first = 1;
    for (long l = 0; l < nt && r; l++) {
        if (l == skip) continue;
        if (!first) r = cat(r, "&");
        r = r ? cat(r, terms[l].name) : NULL;
        r = r ? cat(r, s[l] == 1 ? ">0" : s[l] == -1 ? "<0" : "=0") : NULL;
        first = 0;
    }
    return r;
}

/* the regions of the terms other than k as an index (bit: term in h < 0) */
long hyb_others_index(long nt, const int *s, long k)
{
    long idx = 0, bit = 0;
    for (long l = 0; l < nt; l++) {
        if (l == k) continue;
        if (s[l] == -1) idx |= 1L << bit;
        bit++;
    }
    return idx;
}

long hyb_mode_of(const dvc_hybrid_model_struct *m, const int *s)
{
    for (long q = 0; q < m->nmodes; q++) {
        const int *t = m->modes[q].sides;
        if (!t) continue;
        long l = 0;
        while (l < m->ncontacts && t[l] == s[l]) l++;
        if (l == m->ncontacts) return q;
    }
    return -1;
}

long hyb_sliding_term(const dvc_hybrid_model_struct *m, const dvc_hybrid_mode *md)
{
    if (!md->sides) return -1;
    for (long l = 0; l < m->ncontacts; l++)
        if (md->sides[l] == 2) return l;
    return -1;
}

/* an assignment of regions: term j sliding (or none: -1), the others from
 * the bits of code (bit set: h < 0) */
static void assign(int *s, long nt, long j, long code)
{
    long bit = 0;
    for (long l = 0; l < nt; l++) {
        if (l == j) {
            s[l] = 2;
            continue;
        }
        s[l] = (code >> bit) & 1 ? -1 : 1;
        bit++;
    }
}

/* a term's name goes into mode names and CSV files: an identifier */
static int is_ident(const char *p)
{
    if (!p || !(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))) return 0;
    for (p++; *p; p++)
        if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9')))
            return 0;
    return 1;
}

dvc_status dvc_hybrid_add_decomposed(dvc_hybrid_model_t m, const char *const *f0, long nt,
                                     const dvc_hybrid_term *terms,
                                     const dvc_expr_consts_t consts)
{
    long n = m->n;
    if (m->ncontacts > 0 || m->nmodes > 0)
        return dvc_error(DVC_ERR_INPUT, "a decomposed form must be the only content of a model");
    if (nt < 1 || nt > DVC_HYB_SIDES_MAX)
        return dvc_error(DVC_ERR_INPUT, "%ld discontinuous terms (1 to %d supported)", nt,
                         DVC_HYB_SIDES_MAX);
    if (!f0) return dvc_error(DVC_ERR_INPUT, "the decomposed form needs f0");
    for (long i = 0; i < n; i++)
        if (!f0[i]) return dvc_error(DVC_ERR_INPUT, "f0: missing expression for %s", m->names[i]);
    for (long k = 0; k < nt; k++) {
        const dvc_hybrid_term *tk = &terms[k];
        if (!is_ident(tk->name))
            return dvc_error(DVC_ERR_INPUT, "term name '%s' is not an identifier",
                             tk->name ? tk->name : "");
        if (!tk->h || !tk->fplus || !tk->fminus)
            return dvc_error(DVC_ERR_INPUT, "term '%s': needs h, f+ and f-", tk->name);
        for (long i = 0; i < n; i++)
            if (!tk->fplus[i] || !tk->fminus[i])
                return dvc_error(DVC_ERR_INPUT, "term '%s': missing expression for %s", tk->name,
                                 m->names[i]);
        for (long l = 0; l < k; l++)
            if (!strcmp(terms[l].name, tk->name))
                return dvc_error(DVC_ERR_INPUT, "term '%s' given twice", tk->name);
    }
    dvc_status st = DVC_OK;
    dvc_expr_consts_t cc;
    dvc_expr_consts_init(cc);
    dvc_ivec_t *grad = calloc((size_t)nt, sizeof *grad);
    int *s = calloc((size_t)nt, sizeof *s), *s2 = calloc((size_t)nt, sizeof *s2);
    m->contacts = calloc((size_t)nt, sizeof *m->contacts);
    if (!grad || !s || !s2 || !m->contacts) {
        free(grad);
        free(s);
        free(s2);
        dvc_expr_consts_clear(cc);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    m->ncontacts = nt;
    for (long k = 0; k < nt; k++) {
        dvc_ivec_init2(grad[k], n + 1, m->prec);
        m->contacts[k].h = -1;
    }
    long nother = 1L << (nt - 1);
    /* the constants of the file, then each h: affine, its gradient */
    for (long i = 0; consts && i < consts->n && st == DVC_OK; i++)
        st = consts->text[i] ? dvc_expr_consts_add_str(cc, consts->name[i], consts->text[i])
                             : dvc_expr_consts_add(cc, consts->name[i], consts->val[i]);
    for (long k = 0; k < nt && st == DVC_OK; k++) {
        const dvc_hybrid_term *tk = &terms[k];
        dvc_expr_t he;
        dvc_ivec_t X;
        mpfi_t T;
        dvc_expr_init2(he, m->prec);
        dvc_ivec_init2(X, n, m->prec);
        mpfi_init2(T, m->prec);
        st = dvc_expr_parse_vars(he, tk->h, consts, n, (const char *const *)m->names);
        if (st != DVC_OK) {
            st = dvc_error_context(st, "term '%s': field 'h': ", tk->name);
        } else if (!affine_program(he)) {
            st = dvc_error(DVC_ERR_INPUT, "term '%s': field 'h': the indicator '%s' must be affine "
                           "in the state and free of t (sums of constant multiples of state "
                           "variables)", tk->name, tk->h);
        } else {
            /* affine: the gradient is a constant vector, enclosed anywhere */
            mpfi_set_ui(T, 0);
            dvc_ivec_zero(X);
            st = dvc_expr_grad(NULL, grad[k], he, T, X);
            if (st != DVC_OK) st = dvc_error_context(st, "term '%s': field 'h': ", tk->name);
        }
        int nz = 0;
        for (long i = 0; i < n && st == DVC_OK; i++) {
            char cn[48];
            snprintf(cn, sizeof cn, "_h%ld_%ld", k + 1, i + 1);
            st = dvc_expr_consts_add(cc, cn, grad[k]->e[i + 1]);
            if (st != DVC_OK) st = dvc_error_context(st, "term '%s': ", tk->name);
            if (!mpfi_is_zero(grad[k]->e[i + 1])) nz = 1;
        }
        if (st == DVC_OK && !nz)
            st = dvc_error(DVC_ERR_INPUT, "term '%s': field 'h': the indicator '%s' does not "
                           "depend on the state", tk->name, tk->h);
        dvc_expr_clear(he);
        dvc_ivec_clear(X);
        mpfi_clear(T);
        /* the gradient without its t entry, for the texts */
        if (st == DVC_OK) {
            dvc_ivec_t g;
            dvc_ivec_init2(g, n, m->prec);
            for (long i = 0; i < n; i++) mpfi_set(g->e[i], grad[k]->e[i + 1]);
            dvc_ivec_clear(grad[k]);
            dvc_ivec_init2(grad[k], n, m->prec);
            dvc_ivec_set(grad[k], g);
            dvc_ivec_clear(g);
        }
    }
    /* the modes: no term sliding (all region assignments), then each term
     * sliding with the others in their regions */
    for (long j = -1; j < nt && st == DVC_OK; j++) {
        long ncode = j < 0 ? 2 * nother : nother;
        for (long code = 0; code < ncode && st == DVC_OK; code++) {
            assign(s, nt, j, code);
            char *name = regions_name(nt, terms, s, -1);
            char **base = base_texts(n, f0, nt, terms, s, j);
            char **f = calloc((size_t)n, sizeof *f);
            char *bj = NULL, *dj = NULL;
            if (!name || !base || !f) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            if (st == DVC_OK && j >= 0) {
                /* the Filippov combination F- + alpha (F+ - F-), alpha = -b / D:
                 * grad h . f = 0 (Stewart (9)-(11), two regions) */
                bj = dot_text(grad[j], j, (const char *const *)base, "+", terms[j].fminus);
                dj = dot_text(grad[j], j, terms[j].fplus, "-", terms[j].fminus);
                if (!bj || !dj) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            }
            for (long i = 0; i < n && st == DVC_OK; i++) {
                size_t len = strlen(base[i]) + 64 +
                             (j >= 0 ? strlen(bj) + strlen(dj) + 2 * strlen(terms[j].fplus[i]) +
                                           2 * strlen(terms[j].fminus[i])
                                     : 0);
                f[i] = malloc(len);
                if (!f[i]) {
                    st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                    break;
                }
                if (j < 0)
                    snprintf(f[i], len, "%s", base[i]);
                else
                    snprintf(f[i], len, "%s+(%s)-((%s)/(%s))*((%s)-(%s))", base[i],
                             terms[j].fminus[i], bj, dj, terms[j].fplus[i], terms[j].fminus[i]);
            }
            long q = -1;
            if (st == DVC_OK) st = dvc_hybrid_add_mode_field(m, name, (const char *const *)f, cc, &q);
            if (st == DVC_OK) {
                m->modes[q].sides = malloc((size_t)nt * sizeof(int));
                if (!m->modes[q].sides) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                else memcpy(m->modes[q].sides, s, (size_t)nt * sizeof(int));
            }
            free(name);
            free(bj);
            free(dj);
            free_texts(base, n);
            free_texts(f, n);
        }
    }
    /* switching functions: every h, then a and b of each term per
     * assignment of the others' regions */
    for (long k = 0; k < nt && st == DVC_OK; k++)
        st = dvc_hybrid_add_switch(m, terms[k].name, terms[k].h, consts, &m->contacts[k].h);
    for (long k = 0; k < nt && st == DVC_OK; k++) {
        dvc_hybrid_contact *ct = &m->contacts[k];
        ct->name = cat(NULL, terms[k].name);
        ct->qplus = calloc((size_t)nother, sizeof(long));
        ct->qminus = calloc((size_t)nother, sizeof(long));
        if (!ct->name || !ct->qplus || !ct->qminus) {
            st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            break;
        }
        for (long code = 0; code < nother && st == DVC_OK; code++) {
            assign(s, nt, k, code);
            char **base = base_texts(n, f0, nt, terms, s, k);
            char *others = regions_name(nt, terms, s, k);
            char *qa = base ? dot_text(grad[k], k, (const char *const *)base, "+", terms[k].fplus) : NULL;
            char *qb = base ? dot_text(grad[k], k, (const char *const *)base, "+", terms[k].fminus) : NULL;
            size_t len = strlen(terms[k].name) + (others ? strlen(others) : 0) + 8;
            char *gn = malloc(len);
            if (!base || !others || !qa || !qb || !gn) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            if (st == DVC_OK) {
                snprintf(gn, len, "%s'+%s%s", terms[k].name, nt > 1 ? "@" : "", others);
                st = dvc_hybrid_add_switch(m, gn, qa, cc, &ct->qplus[code]);
            }
            if (st == DVC_OK) {
                snprintf(gn, len, "%s'-%s%s", terms[k].name, nt > 1 ? "@" : "", others);
                st = dvc_hybrid_add_switch(m, gn, qb, cc, &ct->qminus[code]);
            }
            free_texts(base, n);
            free(others);
            free(qa);
            free(qb);
            free(gn);
        }
    }
    /* transitions: reaching a surface (slide or cross, decided at the event
     * in src/hybrid/sliding.c); leaving it when a rises through 0 (the
     * weight of f+ reaches 1) or b falls through 0 (it reaches 0); a second
     * surface reached while sliding (refused at the event) */
    for (long q = 0; q < m->nmodes && st == DVC_OK; q++) {
        const int *sq = m->modes[q].sides;
        long j = hyb_sliding_term(m, &m->modes[q]);
        if (j >= 0) {
            long o = hyb_others_index(nt, sq, j);
            memcpy(s2, sq, (size_t)nt * sizeof(int));
            s2[j] = 1;
            st = dvc_hybrid_add_transition(m, q, m->contacts[j].qplus[o], 1, hyb_mode_of(m, s2),
                                           NULL, NULL);
            s2[j] = -1;
            if (st == DVC_OK)
                st = dvc_hybrid_add_transition(m, q, m->contacts[j].qminus[o], -1,
                                               hyb_mode_of(m, s2), NULL, NULL);
        }
        for (long k = 0; k < nt && st == DVC_OK; k++) {
            if (k == j) continue;
            memcpy(s2, sq, (size_t)nt * sizeof(int));
            s2[k] = 2;
            if (j >= 0) s2[j] = 1; /* not a mode of the model: refused when met */
            st = dvc_hybrid_add_transition(m, q, m->contacts[k].h, -sq[k], hyb_mode_of(m, s2), NULL,
                                           NULL);
        }
    }
    for (long k = 0; k < nt; k++) dvc_ivec_clear(grad[k]);
    free(grad);
    free(s);
    free(s2);
    dvc_expr_consts_clear(cc);
    return st;
}

void hyb_contacts_clear(dvc_hybrid_model_struct *m)
{
    for (long q = 0; q < m->nmodes && m->modes; q++) {
        free(m->modes[q].sides);
        m->modes[q].sides = NULL;
    }
    for (long k = 0; k < m->ncontacts; k++) {
        free(m->contacts[k].name);
        free(m->contacts[k].qplus);
        free(m->contacts[k].qminus);
    }
    free(m->contacts);
    m->contacts = NULL;
    m->ncontacts = 0;
}
