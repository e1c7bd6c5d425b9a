/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Stewart's decomposed form with discontinuous terms (docs/sliding.md
 * sections 1 and 5), compiled into modes (one per assignment of regions
 * with at most DVC_HYB_SLIDE_MAX terms sliding), the switching functions h,
 * h'+ and h'- of each term, the weights of the modes sliding on several
 * terms, and their transitions, so that the event-driven engine integrates
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

static long nsliding(long nt, const int *s)
{
    long c = 0;
    for (long l = 0; l < nt; l++) c += s[l] == 2;
    return c;
}

static char *join4(const char *a, const char *b, const char *c, const char *d)
{
    size_t len = strlen(a) + strlen(b) + strlen(c) + strlen(d) + 1;
    char *r = malloc(len);
    if (r) snprintf(r, len, "%s%s%s%s", a, b, c, d);
    return r;
}

/* determinant of the s x s matrix of texts G (row-major), by expansion
 * along the first row */
static char *det_text(char *const *G, long s)
{
    if (s == 1) {
        char *r = cat(NULL, "(");
        r = r ? cat(r, G[0]) : NULL;
        return r ? cat(r, ")") : NULL;
    }
    char *r = cat(NULL, "(0");
    char *minor[DVC_HYB_SLIDE_MAX * DVC_HYB_SLIDE_MAX];
    for (long c = 0; c < s && r; c++) {
        long k = 0;
        for (long i = 1; i < s; i++)
            for (long j = 0; j < s; j++)
                if (j != c) minor[k++] = G[i * s + j];
        char *d = det_text(minor, s - 1);
        r = d ? cat(r, c % 2 ? "-(" : "+(") : (free(r), NULL);
        r = r ? cat(r, G[c]) : NULL;
        r = r ? cat(r, ")*") : NULL;
        r = r ? cat(r, d) : NULL;
        free(d);
    }
    return r ? cat(r, ")") : NULL;
}

/* fi + sum_a z_a (f^{S[a]}_+ - f^{S[a]}_-) for component i, as text; fi
 * is released, NULL (fi NULL, or out of memory) is passed on. */
static char *add_slides(char *fi, char *const *z, const dvc_hybrid_term *terms, const long *S, long ns,
                        long i)
{
    for (long a = 0; a < ns && fi; a++) {
        char *t = join4("+(", z[a], ")*((", terms[S[a]].fplus[i]);
        char *u = t ? join4(t, ")-(", terms[S[a]].fminus[i], "))") : NULL;
        char *v = u ? join4(fi, u, "", "") : NULL;
        free(t);
        free(u);
        free(fi);
        fi = v;
    }
    return fi;
}

/* The weights z_q (of f^q_+) of the terms of S sliding at once, in the
 * regions s of the others: the bordered system (11) reduced with
 * z^q_+ + z^q_- = 1 to G z = r, G_kq = c_k . (f^q_+ - f^q_-),
 * r_k = -c_k . F_-, F_- the field with the terms of S in h < 0 (every
 * c_k . x' = 0: the motion stays on all the surfaces); by Cramer's rule.
 * Condition B' is det G != 0. z[a] receives the text of z_{S[a]}. */
static dvc_status weights_text(char **z, long n, const char *const *f0, long nt,
                               const dvc_hybrid_term *terms, const dvc_ivec_t *grad, const int *s,
                               const long *S, long ns)
{
    int sm[DVC_HYB_SIDES_MAX];
    for (long l = 0; l < nt; l++) sm[l] = s[l] == 2 ? -1 : s[l];
    char **base = base_texts(n, f0, nt, terms, sm, -1);
    char **zero = calloc((size_t)n, sizeof *zero);
    char *G[DVC_HYB_SLIDE_MAX * DVC_HYB_SLIDE_MAX] = {0}, *r[DVC_HYB_SLIDE_MAX] = {0};
    char *Gq[DVC_HYB_SLIDE_MAX * DVC_HYB_SLIDE_MAX];
    dvc_status st = base && zero ? DVC_OK : DVC_ERR_NOMEM;
    for (long i = 0; i < n && st == DVC_OK; i++) zero[i] = "0";
    for (long a = 0; a < ns && st == DVC_OK; a++) {
        long k = S[a];
        char *d = dot_text(grad[k], k, (const char *const *)base, "+", (const char *const *)zero);
        r[a] = d ? join4("-(", d, ")", "") : NULL;
        free(d);
        for (long b = 0; b < ns && r[a]; b++)
            G[a * ns + b] = dot_text(grad[k], k, terms[S[b]].fplus, "-", terms[S[b]].fminus);
        for (long b = 0; b < ns; b++)
            if (!G[a * ns + b]) st = DVC_ERR_NOMEM;
        if (!r[a]) st = DVC_ERR_NOMEM;
    }
    char *den = st == DVC_OK ? det_text(G, ns) : NULL;
    if (!den) st = DVC_ERR_NOMEM;
    for (long q = 0; q < ns && st == DVC_OK; q++) {
        for (long i = 0; i < ns * ns; i++) Gq[i] = i % ns == q ? r[i / ns] : G[i];
        char *num = det_text(Gq, ns);
        z[q] = num ? join4("(", num, ")/", den) : NULL;
        free(num);
        if (!z[q]) st = DVC_ERR_NOMEM;
    }
    free(den);
    for (long i = 0; i < ns * ns; i++) free(G[i]);
    for (long a = 0; a < ns; a++) free(r[a]);
    free(zero);
    free_texts(base, n);
    return st == DVC_OK ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
}

/* The field of the mode with regions s as texts (the same expressions as
 * the modes' fields): F with the sliding terms' weights. */
static char **field_texts(long n, const char *const *f0, long nt, const dvc_hybrid_term *terms,
                          const dvc_ivec_t *grad, const int *s)
{
    long S[DVC_HYB_SIDES_MAX], ns = 0;
    for (long l = 0; l < nt; l++)
        if (s[l] == 2) S[ns++] = l;
    if (ns > DVC_HYB_SLIDE_MAX) return NULL;
    int sm[DVC_HYB_SIDES_MAX];
    for (long l = 0; l < nt; l++) sm[l] = s[l] == 2 ? -1 : s[l];
    char **f = base_texts(n, f0, nt, terms, sm, -1);
    char *z[DVC_HYB_SLIDE_MAX] = {0};
    if (f && ns > 0 && weights_text(z, n, f0, nt, terms, grad, s, S, ns) != DVC_OK) {
        free_texts(f, n);
        return NULL;
    }
    for (long i = 0; f && i < n; i++) {
        f[i] = add_slides(f[i], z, terms, S, ns, i);
        if (!f[i]) {
            free_texts(f, n);
            f = NULL;
        }
    }
    for (long a = 0; a < ns; a++) free(z[a]);
    return f;
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

/* the mode x' = f named name, with its regions s of the nt terms */
static dvc_status add_mode(dvc_hybrid_model_t m, const char *name, char **f,
                           const dvc_expr_consts_t cc, const int *s, long nt)
{
    long q = -1;
    dvc_status st = dvc_hybrid_add_mode_field(m, name, (const char *const *)f, cc, &q);
    if (st != DVC_OK) return st;
    m->modes[q].sides = malloc((size_t)nt * sizeof(int));
    if (!m->modes[q].sides) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    memcpy(m->modes[q].sides, s, (size_t)nt * sizeof(int));
    return DVC_OK;
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
            if (st == DVC_OK) st = add_mode(m, name, f, cc, s, nt);
            free(name);
            free(bj);
            free(dj);
            free_texts(base, n);
            free_texts(f, n);
        }
    }
    /* modes with 2 to DVC_HYB_SLIDE_MAX terms sliding at once (the set S
     * as a bit mask), the others in their regions */
    for (long mask = 1; mask < (1L << nt) && st == DVC_OK; mask++) {
        long S[DVC_HYB_SIDES_MAX], ns = 0;
        for (long l = 0; l < nt; l++)
            if (mask >> l & 1) S[ns++] = l;
        if (ns < 2 || ns > DVC_HYB_SLIDE_MAX) continue;
        for (long code = 0; code < (1L << (nt - ns)) && st == DVC_OK; code++) {
            long bit = 0;
            for (long l = 0; l < nt; l++)
                s[l] = mask >> l & 1 ? 2 : (code >> bit++) & 1 ? -1 : 1;
            char *z[DVC_HYB_SLIDE_MAX] = {0};
            int sm[DVC_HYB_SIDES_MAX];
            for (long l = 0; l < nt; l++) sm[l] = s[l] == 2 ? -1 : s[l];
            char *name = regions_name(nt, terms, s, -1);
            char **base = base_texts(n, f0, nt, terms, sm, -1);
            char **f = calloc((size_t)n, sizeof *f);
            if (!name || !base || !f) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            if (st == DVC_OK) st = weights_text(z, n, f0, nt, terms, grad, s, S, ns);
            /* f = F_- + sum_q z_q (f^q_+ - f^q_-) */
            for (long i = 0; i < n && st == DVC_OK; i++) {
                f[i] = join4("(", base[i], ")", "");
                f[i] = add_slides(f[i], z, terms, S, ns, i);
                if (!f[i]) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            }
            if (st == DVC_OK) st = add_mode(m, name, f, cc, s, nt);
            free(name);
            free_texts(base, n);
            free_texts(f, n);
            for (long a = 0; a < ns; a++) free(z[a]);
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
        if (nsliding(nt, sq) > 1) continue;
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
    /* several terms sliding: the weights z_q and 1 - z_q of each (leaving
     * when one falls through 0: q goes to h < 0 / h > 0), and the other
     * terms reaching their surfaces (decided by the LCP (13) at the event;
     * the target given here is a placeholder) */
    for (long q = 0; q < m->nmodes && st == DVC_OK; q++) {
        const int *sq = m->modes[q].sides;
        long ns = nsliding(nt, sq), S[DVC_HYB_SIDES_MAX], a = 0;
        if (ns < 2) continue;
        for (long l = 0; l < nt; l++)
            if (sq[l] == 2) S[a++] = l;
        char *z[DVC_HYB_SLIDE_MAX] = {0};
        st = weights_text(z, n, f0, nt, terms, grad, sq, S, ns);
        for (long b = 0; b < ns && st == DVC_OK; b++) {
            long gz = -1, g1 = -1;
            char *gn = join4(terms[S[b]].name, "'z@", m->modes[q].name, "");
            char *t1 = join4("1-(", z[b], ")", "");
            if (!gn || !t1) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            if (st == DVC_OK) st = dvc_hybrid_add_switch(m, gn, z[b], cc, &gz);
            if (st == DVC_OK) {
                gn[strlen(terms[S[b]].name) + 1] = '\0';
                char *g2 = join4(gn, "1-z@", m->modes[q].name, "");
                st = g2 ? dvc_hybrid_add_switch(m, g2, t1, cc, &g1)
                        : dvc_error(DVC_ERR_NOMEM, "out of memory");
                free(g2);
            }
            free(gn);
            free(t1);
            memcpy(s2, sq, (size_t)nt * sizeof(int));
            s2[S[b]] = -1;
            if (st == DVC_OK) st = dvc_hybrid_add_transition(m, q, gz, -1, hyb_mode_of(m, s2), NULL, NULL);
            s2[S[b]] = 1;
            if (st == DVC_OK) st = dvc_hybrid_add_transition(m, q, g1, -1, hyb_mode_of(m, s2), NULL, NULL);
        }
        for (long k = 0; k < nt && st == DVC_OK; k++) {
            if (sq[k] == 2) continue;
            memcpy(s2, sq, (size_t)nt * sizeof(int));
            s2[k] = 2;
            long to = hyb_mode_of(m, s2);
            st = dvc_hybrid_add_transition(m, q, m->contacts[k].h, -sq[k], to >= 0 ? to : q, NULL,
                                           NULL);
        }
        for (long b = 0; b < ns; b++) free(z[b]);
    }
    const char **zeros = calloc((size_t)n, sizeof *zeros);
    if (!zeros && st == DVC_OK) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; zeros && i < n; i++) zeros[i] = "0";
    /* h' of each term off its surface in a mode that slides on others
     * ("<term>'@<mode>" = c_k . f of the mode): the departure of a term that
     * leaves a mode sliding on several (docs/sliding.md section 5) */
    for (long q = 0; q < m->nmodes && st == DVC_OK; q++) {
        const int *sq = m->modes[q].sides;
        if (nsliding(nt, sq) < 1) continue;
        for (long k = 0; k < nt && st == DVC_OK; k++) {
            if (sq[k] == 2) continue;
            char **f = field_texts(n, f0, nt, terms, grad, sq);
            char *d = f ? dot_text(grad[k], k, (const char *const *)f, "+", zeros) : NULL;
            char *gn = join4(terms[k].name, "'@", m->modes[q].name, "");
            long g = -1;
            st = d && gn ? dvc_hybrid_add_switch(m, gn, d, cc, &g)
                         : dvc_error(DVC_ERR_NOMEM, "out of memory");
            free_texts(f, n);
            free(d);
            free(gn);
        }
    }
    free(zeros);
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
