/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Stewart's decomposed form with discontinuous terms (docs/sliding.md
 * sections 1 and 5), compiled into modes (one per assignment of regions
 * with at most DVC_HYB_SLIDE_MAX terms sliding), the switching functions h,
 * h'+ and h'- of each term, the weights of the modes sliding on several
 * terms, and their transitions, so that the event-driven engine integrates
 * it; the sliding field is built as an expression (the bordered system
 * solved in closed form) from the terms' expressions in memory
 * (src/expr/build.c), never written out and parsed again. The texts the
 * builders keep are the ones the fields were once written as (messages
 * show them). */
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
        case OP_ROOT: k[sp++] = 2; break;
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

/* The decomposed form being compiled: the model, f0, the terms and the
 * gradients c_k of their indicators (n entries each). */
typedef struct {
    dvc_hybrid_model_struct *m;
    long n, nt;
    const dvc_expr_t *f0;
    const dvc_hybrid_term_expr *terms;
    dvc_ivec_t *grad;
    dvc_expr_t *zero; /* n literals "0" */
} dec;

static dvc_expr_t *exv_new(const dec *d)
{
    dvc_expr_t *e = calloc((size_t)d->n, sizeof *e);
    for (long i = 0; e && i < d->n; i++) dvc_expr_init2(e[i], d->m->prec);
    return e;
}

static void exprs_free(dvc_expr_t *e, long n)
{
    for (long i = 0; e && i < n; i++) dvc_expr_clear(e[i]);
    free(e);
}

static dvc_status lit(const dec *d, dvc_expr_t e, const char *text, const mpfi_t c)
{
    return dvc_expr_set_literal(e, text, c, d->n, (const char *const *)d->m->names);
}

static dvc_status nomem(void) { return dvc_error(DVC_ERR_NOMEM, "out of memory"); }

/* e <- "(a)" op "(b)", op '+' or '-'. */
static dvc_status paren2(dvc_expr_t e, const dvc_expr_t a, int minus, const dvc_expr_t b)
{
    dvc_expr_t u;
    dvc_expr_init2(u, e->prec);
    dvc_status st = dvc_expr_paren(u, b);
    if (st == DVC_OK) st = dvc_expr_paren(e, a);
    if (st == DVC_OK) st = minus ? dvc_expr_sub(e, e, u) : dvc_expr_add(e, e, u);
    dvc_expr_clear(u);
    return st;
}

/* "0+_hk_i*((a_i)<op>(b_i))" summed over the nonzero entries of the
 * gradient c of term k (the literals _h<k>_<i>) */
static dvc_status dot(const dec *d, dvc_expr_t out, long k, const dvc_expr_t *a, int minus,
                      const dvc_expr_t *b)
{
    dvc_expr_t s, t, u;
    dvc_expr_init2(s, d->m->prec);
    dvc_expr_init2(t, d->m->prec);
    dvc_expr_init2(u, d->m->prec);
    dvc_status st = lit(d, s, "0", NULL);
    for (long i = 0; st == DVC_OK && i < d->n; i++) {
        char cn[48];
        if (mpfi_is_zero(d->grad[k]->e[i])) continue;
        snprintf(cn, sizeof cn, "_h%ld_%ld", k + 1, i + 1);
        st = paren2(t, a[i], minus, b[i]);
        if (st == DVC_OK) st = dvc_expr_paren(t, t);
        if (st == DVC_OK) st = lit(d, u, cn, d->grad[k]->e[i]);
        if (st == DVC_OK) st = dvc_expr_mul(t, u, t);
        if (st == DVC_OK) st = dvc_expr_add(s, s, t);
    }
    if (st == DVC_OK) dvc_expr_swap(out, s);
    dvc_expr_clear(s);
    dvc_expr_clear(t);
    dvc_expr_clear(u);
    return st;
}

/* b_i = (f0_i) + sum over the terms l != skip of (f^l_{s_l})_i */
static dvc_status base(const dec *d, dvc_expr_t *b, const int *s, long skip)
{
    dvc_expr_t t;
    dvc_expr_init2(t, d->m->prec);
    dvc_status st = DVC_OK;
    for (long i = 0; i < d->n && st == DVC_OK; i++) {
        st = dvc_expr_paren(b[i], d->f0[i]);
        for (long l = 0; l < d->nt && st == DVC_OK; l++) {
            if (l == skip) continue;
            st = dvc_expr_paren(t, s[l] == 1 ? d->terms[l].fplus[i] : d->terms[l].fminus[i]);
            if (st == DVC_OK) st = dvc_expr_add(b[i], b[i], t);
        }
    }
    dvc_expr_clear(t);
    return st;
}

static long nsliding(long nt, const int *s)
{
    long c = 0;
    for (long l = 0; l < nt; l++) c += s[l] == 2;
    return c;
}

/* determinant of the s x s matrix G (row-major), by expansion along the
 * first row: "(G)" or "(0+(G_0)*(minor_0)-(G_1)*(minor_1)...)" */
static dvc_status det(const dec *d, dvc_expr_t out, const dvc_expr_struct *const *G, long s)
{
    if (s == 1) return dvc_expr_paren(out, G[0]);
    const dvc_expr_struct *minor[DVC_HYB_SLIDE_MAX * DVC_HYB_SLIDE_MAX];
    dvc_expr_t r, dm, t;
    dvc_expr_init2(r, d->m->prec);
    dvc_expr_init2(dm, d->m->prec);
    dvc_expr_init2(t, d->m->prec);
    dvc_status st = lit(d, r, "0", NULL);
    for (long c = 0; c < s && st == DVC_OK; c++) {
        long k = 0;
        for (long i = 1; i < s; i++)
            for (long j = 0; j < s; j++)
                if (j != c) minor[k++] = G[i * s + j];
        st = det(d, dm, minor, s - 1);
        if (st == DVC_OK) st = dvc_expr_paren(t, G[c]);
        if (st == DVC_OK) st = dvc_expr_mul(t, t, dm);
        if (st == DVC_OK) st = c % 2 ? dvc_expr_sub(r, r, t) : dvc_expr_add(r, r, t);
    }
    if (st == DVC_OK) st = dvc_expr_paren(out, r);
    dvc_expr_clear(r);
    dvc_expr_clear(dm);
    dvc_expr_clear(t);
    return st;
}

/* fi + sum_a (z_a)*((f^{S[a]}_+) - (f^{S[a]}_-)) for component i */
static dvc_status add_slides(const dec *d, dvc_expr_t fi, dvc_expr_t *z, const long *S, long ns,
                             long i)
{
    dvc_expr_t t, u;
    dvc_expr_init2(t, d->m->prec);
    dvc_expr_init2(u, d->m->prec);
    dvc_status st = DVC_OK;
    for (long a = 0; a < ns && st == DVC_OK; a++) {
        st = dvc_expr_paren(t, z[a]);
        if (st == DVC_OK) st = paren2(u, d->terms[S[a]].fplus[i], 1, d->terms[S[a]].fminus[i]);
        if (st == DVC_OK) st = dvc_expr_paren(u, u);
        if (st == DVC_OK) st = dvc_expr_mul(t, t, u);
        if (st == DVC_OK) st = dvc_expr_add(fi, fi, t);
    }
    dvc_expr_clear(t);
    dvc_expr_clear(u);
    return st;
}

/* The weights z_q (of f^q_+) of the terms of S sliding at once, in the
 * regions s of the others: the bordered system (11) reduced with
 * z^q_+ + z^q_- = 1 to G z = r, G_kq = c_k . (f^q_+ - f^q_-),
 * r_k = -c_k . F_-, F_- the field with the terms of S in h < 0 (every
 * c_k . x' = 0: the motion stays on all the surfaces); by Cramer's rule.
 * Condition B' is det G != 0. z[a] receives z_{S[a]}. */
static dvc_status weights(const dec *d, dvc_expr_t *z, const int *s, const long *S, long ns)
{
    int sm[DVC_HYB_SIDES_MAX];
    for (long l = 0; l < d->nt; l++) sm[l] = s[l] == 2 ? -1 : s[l];
    dvc_expr_t *bs = exv_new(d), *G = NULL, *r = NULL, den, num;
    const dvc_expr_struct *Gq[DVC_HYB_SLIDE_MAX * DVC_HYB_SLIDE_MAX];
    dvc_expr_init2(den, d->m->prec);
    dvc_expr_init2(num, d->m->prec);
    dvc_status st = bs ? base(d, bs, sm, -1) : nomem();
    if (st == DVC_OK) {
        G = calloc((size_t)(ns * ns), sizeof *G);
        r = calloc((size_t)ns, sizeof *r);
        for (long i = 0; G && i < ns * ns; i++) dvc_expr_init2(G[i], d->m->prec);
        for (long i = 0; r && i < ns; i++) dvc_expr_init2(r[i], d->m->prec);
        if (!G || !r) st = nomem();
    }
    for (long a = 0; a < ns && st == DVC_OK; a++) {
        long k = S[a];
        st = dot(d, r[a], k, bs, 0, d->zero);
        if (st == DVC_OK) st = dvc_expr_paren(r[a], r[a]);
        if (st == DVC_OK) st = dvc_expr_neg(r[a], r[a]);
        for (long b = 0; b < ns && st == DVC_OK; b++)
            st = dot(d, G[a * ns + b], k, d->terms[S[b]].fplus, 1, d->terms[S[b]].fminus);
    }
    for (long i = 0; i < ns * ns && st == DVC_OK; i++) Gq[i] = G[i];
    if (st == DVC_OK) st = det(d, den, Gq, ns);
    for (long q = 0; q < ns && st == DVC_OK; q++) {
        for (long i = 0; i < ns * ns; i++) Gq[i] = i % ns == q ? r[i / ns] : G[i];
        st = det(d, num, Gq, ns);
        if (st == DVC_OK) st = dvc_expr_paren(z[q], num);
        if (st == DVC_OK) st = dvc_expr_div(z[q], z[q], den);
    }
    exprs_free(G, G ? ns * ns : 0);
    exprs_free(r, r ? ns : 0);
    exprs_free(bs, d->n);
    dvc_expr_clear(den);
    dvc_expr_clear(num);
    return st;
}

/* z[0..ns-1], initialised */
static dvc_expr_t *zs_new(const dec *d)
{
    dvc_expr_t *z = calloc(DVC_HYB_SLIDE_MAX, sizeof *z);
    for (long a = 0; z && a < DVC_HYB_SLIDE_MAX; a++) dvc_expr_init2(z[a], d->m->prec);
    return z;
}

/* The field of the mode with regions s (as in the modes): F_- with the
 * sliding terms' weights. */
static dvc_status field(const dec *d, dvc_expr_t *f, const int *s)
{
    long S[DVC_HYB_SIDES_MAX], ns = 0;
    int sm[DVC_HYB_SIDES_MAX];
    for (long l = 0; l < d->nt; l++) {
        if (s[l] == 2) S[ns++] = l;
        sm[l] = s[l] == 2 ? -1 : s[l];
    }
    if (ns > DVC_HYB_SLIDE_MAX) return nomem();
    dvc_expr_t *z = zs_new(d);
    dvc_status st = z ? base(d, f, sm, -1) : nomem();
    if (st == DVC_OK && ns > 0) st = weights(d, z, s, S, ns);
    for (long i = 0; i < d->n && st == DVC_OK; i++) st = add_slides(d, f[i], z, S, ns, i);
    exprs_free(z, z ? DVC_HYB_SLIDE_MAX : 0);
    return st;
}

/* "name>0&other<0" for the regions s (2: "=0"), skipping term skip (no
 * comma: mode names appear in CSV files) */
static char *regions_name(const dec *d, const int *s, long skip)
{
    char *r = cat(NULL, "");
    int first = 1;
    for (long l = 0; l < d->nt && r; l++) {
        if (l == skip) continue;
        if (!first) r = cat(r, "&");
        r = r ? cat(r, d->terms[l].name) : NULL;
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

/* the mode x' = f named name, with its regions s of the terms (f is taken
 * over) */
static dvc_status add_mode(const dec *d, const char *name, dvc_expr_t *f, const int *s)
{
    long q = -1;
    dvc_hybrid_model_struct *m = d->m;
    dvc_status st = dvc_hybrid_add_mode_exprs(m, name, f, &q);
    if (st != DVC_OK) return st;
    m->modes[q].sides = malloc((size_t)d->nt * sizeof(int));
    if (!m->modes[q].sides) return nomem();
    memcpy(m->modes[q].sides, s, (size_t)d->nt * sizeof(int));
    return DVC_OK;
}

/* The mode with term j sliding (j < 0: none) and the others in the regions
 * of code: F- + alpha (F+ - F-), alpha = -b / D, grad h . f = 0 (Stewart
 * (9)-(11), two regions), as
 * base + (f-) - ((b)/(D))*((f+)-(f-)) */
static dvc_status mode_single(const dec *d, long j, long code)
{
    int s[DVC_HYB_SIDES_MAX];
    assign(s, d->nt, j, code);
    char *name = regions_name(d, s, -1);
    dvc_expr_t *f = exv_new(d), alpha, dj, t, u;
    dvc_expr_init2(alpha, d->m->prec);
    dvc_expr_init2(dj, d->m->prec);
    dvc_expr_init2(t, d->m->prec);
    dvc_expr_init2(u, d->m->prec);
    dvc_status st = name && f ? base(d, f, s, j) : nomem();
    if (st == DVC_OK && j >= 0) {
        const dvc_hybrid_term_expr *tj = &d->terms[j];
        st = dot(d, alpha, j, f, 0, tj->fminus);
        if (st == DVC_OK) st = dot(d, dj, j, tj->fplus, 1, tj->fminus);
        if (st == DVC_OK) st = dvc_expr_paren(alpha, alpha);
        if (st == DVC_OK) st = dvc_expr_paren(dj, dj);
        if (st == DVC_OK) st = dvc_expr_div(alpha, alpha, dj);
        if (st == DVC_OK) st = dvc_expr_paren(alpha, alpha);
        for (long i = 0; i < d->n && st == DVC_OK; i++) {
            st = dvc_expr_paren(t, tj->fminus[i]);
            if (st == DVC_OK) st = dvc_expr_add(f[i], f[i], t);
            if (st == DVC_OK) st = paren2(u, tj->fplus[i], 1, tj->fminus[i]);
            if (st == DVC_OK) st = dvc_expr_paren(u, u);
            if (st == DVC_OK) st = dvc_expr_mul(u, alpha, u);
            if (st == DVC_OK) st = dvc_expr_sub(f[i], f[i], u);
        }
    }
    if (st == DVC_OK) st = add_mode(d, name, f, s);
    else if (name) st = dvc_error_context(st, "mode '%s': ", name);
    free(name);
    exprs_free(f, f ? d->n : 0);
    dvc_expr_clear(alpha);
    dvc_expr_clear(dj);
    dvc_expr_clear(t);
    dvc_expr_clear(u);
    return st;
}

/* The mode with the terms of mask sliding at once (2 to
 * DVC_HYB_SLIDE_MAX), the others in the regions of code:
 * f = (F_-) + sum_q (z_q)*((f^q_+)-(f^q_-)) */
static dvc_status mode_multi(const dec *d, long mask, long code)
{
    long S[DVC_HYB_SIDES_MAX], ns = 0, bit = 0;
    int s[DVC_HYB_SIDES_MAX], sm[DVC_HYB_SIDES_MAX];
    for (long l = 0; l < d->nt; l++) {
        if (mask >> l & 1) S[ns++] = l;
        s[l] = mask >> l & 1 ? 2 : (code >> bit++) & 1 ? -1 : 1;
        sm[l] = s[l] == 2 ? -1 : s[l];
    }
    char *name = regions_name(d, s, -1);
    dvc_expr_t *f = exv_new(d), *z = zs_new(d);
    dvc_status st = name && f && z ? base(d, f, sm, -1) : nomem();
    if (st == DVC_OK) st = weights(d, z, s, S, ns);
    for (long i = 0; i < d->n && st == DVC_OK; i++) {
        st = dvc_expr_paren(f[i], f[i]);
        if (st == DVC_OK) st = add_slides(d, f[i], z, S, ns, i);
    }
    if (st == DVC_OK) st = add_mode(d, name, f, s);
    else if (name) st = dvc_error_context(st, "mode '%s': ", name);
    free(name);
    exprs_free(f, f ? d->n : 0);
    exprs_free(z, z ? DVC_HYB_SLIDE_MAX : 0);
    return st;
}

/* e built, then added as the switching function named a b c (taken over) */
static dvc_status add_switch(const dec *d, const char *a, const char *b, const char *c,
                             dvc_expr_t e, long *index)
{
    size_t len = strlen(a) + strlen(b) + strlen(c) + 1;
    char *name = malloc(len);
    if (!name) return nomem();
    snprintf(name, len, "%s%s%s", a, b, c);
    dvc_status st = dvc_hybrid_add_switch_expr(d->m, name, e, index);
    free(name);
    return st;
}

/* a and b of term k for every assignment of the others' regions:
 * "<term>'+@<others>" = c_k . (base + f+), "<term>'-@<others>" with f- */
static dvc_status term_switches(const dec *d, long k)
{
    dvc_hybrid_contact *ct = &d->m->contacts[k];
    long nother = 1L << (d->nt - 1);
    int s[DVC_HYB_SIDES_MAX];
    ct->name = cat(NULL, d->terms[k].name);
    ct->qplus = calloc((size_t)nother, sizeof(long));
    ct->qminus = calloc((size_t)nother, sizeof(long));
    if (!ct->name || !ct->qplus || !ct->qminus) return nomem();
    dvc_expr_t *bs = exv_new(d), qa, qb;
    dvc_expr_init2(qa, d->m->prec);
    dvc_expr_init2(qb, d->m->prec);
    dvc_status st = bs ? DVC_OK : nomem();
    const char *at = d->nt > 1 ? "@" : "";
    for (long code = 0; code < nother && st == DVC_OK; code++) {
        assign(s, d->nt, k, code);
        char *others = regions_name(d, s, k), *plus = cat(NULL, d->terms[k].name);
        plus = plus ? cat(plus, "'+") : NULL;
        plus = plus ? cat(plus, at) : NULL;
        st = others && plus ? base(d, bs, s, k) : nomem();
        if (st == DVC_OK) st = dot(d, qa, k, bs, 0, d->terms[k].fplus);
        if (st == DVC_OK) st = dot(d, qb, k, bs, 0, d->terms[k].fminus);
        if (st == DVC_OK) st = add_switch(d, plus, others, "", qa, &ct->qplus[code]);
        if (st == DVC_OK) {
            plus[strlen(d->terms[k].name) + 1] = '-';
            st = add_switch(d, plus, others, "", qb, &ct->qminus[code]);
        }
        free(others);
        free(plus);
    }
    exprs_free(bs, bs ? d->n : 0);
    dvc_expr_clear(qa);
    dvc_expr_clear(qb);
    return st;
}

/* transitions of the modes with at most one term sliding: reaching a
 * surface (slide or cross, decided at the event in src/hybrid/sliding.c);
 * leaving it when a rises through 0 (the weight of f+ reaches 1) or b falls
 * through 0 (it reaches 0); a second surface reached while sliding
 * (refused at the event) */
static dvc_status transitions_single(const dec *d)
{
    dvc_hybrid_model_struct *m = d->m;
    long nt = d->nt;
    int s2[DVC_HYB_SIDES_MAX];
    dvc_status st = DVC_OK;
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
    return st;
}

/* mode q sliding on several terms: the weights z_q and 1 - z_q of each
 * ("<term>'z@<mode>", "<term>'1-z@<mode>"; leaving when one falls through
 * 0: q goes to h < 0 / h > 0), and the other terms reaching their surfaces
 * (decided by the LCP (13) at the event; the target given here is a
 * placeholder) */
static dvc_status weights_multi(const dec *d, long q)
{
    dvc_hybrid_model_struct *m = d->m;
    long nt = d->nt, ns = 0, S[DVC_HYB_SIDES_MAX];
    int s2[DVC_HYB_SIDES_MAX];
    const int *sq = m->modes[q].sides;
    for (long l = 0; l < nt; l++)
        if (sq[l] == 2) S[ns++] = l;
    dvc_expr_t *z = zs_new(d), one, t1;
    dvc_expr_init2(one, m->prec);
    dvc_expr_init2(t1, m->prec);
    dvc_status st = z ? weights(d, z, sq, S, ns) : nomem();
    if (st == DVC_OK) st = lit(d, one, "1", NULL);
    for (long b = 0; b < ns && st == DVC_OK; b++) {
        long gz = -1, g1 = -1;
        const char *tn = d->terms[S[b]].name;
        st = dvc_expr_paren(t1, z[b]);
        if (st == DVC_OK) st = dvc_expr_sub(t1, one, t1);
        if (st == DVC_OK) st = add_switch(d, tn, "'z@", m->modes[q].name, z[b], &gz);
        if (st == DVC_OK) st = add_switch(d, tn, "'1-z@", m->modes[q].name, t1, &g1);
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
        st = dvc_hybrid_add_transition(m, q, m->contacts[k].h, -sq[k], to >= 0 ? to : q, NULL, NULL);
    }
    exprs_free(z, z ? DVC_HYB_SLIDE_MAX : 0);
    dvc_expr_clear(one);
    dvc_expr_clear(t1);
    return st;
}

/* h' of each term off its surface in a mode that slides on others
 * ("<term>'@<mode>" = c_k . f of the mode): the departure of a term that
 * leaves a mode sliding on several (docs/sliding.md section 5) */
static dvc_status departures(const dec *d)
{
    dvc_hybrid_model_struct *m = d->m;
    dvc_expr_t *f = exv_new(d), h1;
    dvc_expr_init2(h1, m->prec);
    dvc_status st = f ? DVC_OK : nomem();
    for (long q = 0; q < m->nmodes && st == DVC_OK; q++) {
        const int *sq = m->modes[q].sides;
        if (nsliding(d->nt, sq) < 1) continue;
        for (long k = 0; k < d->nt && st == DVC_OK; k++) {
            if (sq[k] == 2) continue;
            long g = -1;
            st = field(d, f, sq);
            if (st == DVC_OK) st = dot(d, h1, k, f, 0, d->zero);
            if (st == DVC_OK) st = add_switch(d, d->terms[k].name, "'@", m->modes[q].name, h1, &g);
        }
    }
    exprs_free(f, f ? d->n : 0);
    dvc_expr_clear(h1);
    return st;
}

/* the gradient g (n entries) of the indicator h of term tk: h affine in the
 * state and free of t, depending on the state */
static dvc_status gradient(const dvc_hybrid_model_struct *m, const dvc_hybrid_term_expr *tk,
                           dvc_ivec_t g)
{
    long n = m->n;
    if (!affine_program(tk->h))
        return dvc_error(DVC_ERR_INPUT, "term '%s': field 'h': the indicator '%s' must be affine "
                         "in the state and free of t (sums of constant multiples of state "
                         "variables)", tk->name, tk->h->text);
    dvc_ivec_t X, gt;
    dvc_expr_t he; /* a copy: an evaluation writes the expression's scratch */
    mpfi_t T;
    dvc_ivec_init2(X, n, m->prec);
    dvc_ivec_init2(gt, n + 1, m->prec);
    dvc_expr_init2(he, m->prec);
    mpfi_init2(T, m->prec);
    /* affine: the gradient is a constant vector, enclosed anywhere */
    mpfi_set_ui(T, 0);
    dvc_ivec_zero(X);
    dvc_status st = dvc_expr_copy(he, tk->h);
    if (st == DVC_OK) st = dvc_expr_grad(NULL, gt, he, T, X);
    if (st != DVC_OK) st = dvc_error_context(st, "term '%s': field 'h': ", tk->name);
    int nz = 0;
    for (long i = 0; i < n && st == DVC_OK; i++) {
        mpfi_set(g->e[i], gt->e[i + 1]);
        if (!mpfi_is_zero(gt->e[i + 1])) nz = 1;
    }
    if (st == DVC_OK && !nz)
        st = dvc_error(DVC_ERR_INPUT, "term '%s': field 'h': the indicator '%s' does not "
                       "depend on the state", tk->name, tk->h->text);
    dvc_expr_clear(he);
    dvc_ivec_clear(X);
    dvc_ivec_clear(gt);
    mpfi_clear(T);
    return st;
}

/* the shape of a decomposed form: the only content of m, 1 to
 * DVC_HYB_SIDES_MAX terms, an f0 */
static dvc_status check_form(const dvc_hybrid_model_struct *m, long nt, int has_f0)
{
    if (m->ncontacts > 0 || m->nmodes > 0)
        return dvc_error(DVC_ERR_INPUT, "a decomposed form must be the only content of a model");
    if (nt < 1 || nt > DVC_HYB_SIDES_MAX)
        return dvc_error(DVC_ERR_INPUT, "%ld discontinuous terms (1 to %d supported)", nt,
                         DVC_HYB_SIDES_MAX);
    if (!has_f0) return dvc_error(DVC_ERR_INPUT, "the decomposed form needs f0");
    return DVC_OK;
}

/* a term's name (an identifier, not given before) and its parts */
static dvc_status check_term(const char *name, int has_parts, const char *const *before, long k)
{
    if (!is_ident(name))
        return dvc_error(DVC_ERR_INPUT, "term name '%s' is not an identifier", name ? name : "");
    if (!has_parts) return dvc_error(DVC_ERR_INPUT, "term '%s': needs h, f+ and f-", name);
    for (long l = 0; l < k; l++)
        if (!strcmp(before[l], name)) return dvc_error(DVC_ERR_INPUT, "term '%s' given twice", name);
    return DVC_OK;
}

static dvc_status check_terms(const dvc_hybrid_model_struct *m, const dvc_expr_t *f0, long nt,
                              const dvc_hybrid_term_expr *terms)
{
    const char *names[DVC_HYB_SIDES_MAX];
    dvc_status st = check_form(m, nt, f0 != NULL);
    for (long k = 0; k < nt && st == DVC_OK; k++) {
        const dvc_hybrid_term_expr *tk = &terms[k];
        st = check_term(tk->name, tk->h && tk->fplus && tk->fminus, names, k);
        names[k] = tk->name;
    }
    return st;
}

/* the modes: no term sliding (all region assignments), then each term
 * sliding with the others in their regions, then 2 to DVC_HYB_SLIDE_MAX
 * terms sliding at once (the set S as a bit mask), the others in their
 * regions */
static dvc_status all_modes(const dec *d)
{
    long nt = d->nt, nother = 1L << (nt - 1);
    dvc_status st = DVC_OK;
    for (long j = -1; j < nt && st == DVC_OK; j++) {
        long ncode = j < 0 ? 2 * nother : nother;
        for (long code = 0; code < ncode && st == DVC_OK; code++) st = mode_single(d, j, code);
    }
    for (long mask = 1; mask < (1L << nt) && st == DVC_OK; mask++) {
        long ns = 0;
        for (long l = 0; l < nt; l++) ns += mask >> l & 1;
        if (ns < 2 || ns > DVC_HYB_SLIDE_MAX) continue;
        for (long code = 0; code < (1L << (nt - ns)) && st == DVC_OK; code++)
            st = mode_multi(d, mask, code);
    }
    return st;
}

/* switching functions: every h, then a and b of each term per assignment
 * of the others' regions; the transitions; the weights of the modes
 * sliding on several terms; the departures */
static dvc_status all_switches(const dec *d)
{
    dvc_hybrid_model_struct *m = d->m;
    dvc_expr_t h;
    dvc_expr_init2(h, m->prec);
    dvc_status st = DVC_OK;
    for (long k = 0; k < d->nt && st == DVC_OK; k++) {
        st = dvc_expr_copy(h, d->terms[k].h);
        if (st == DVC_OK)
            st = dvc_hybrid_add_switch_expr(m, d->terms[k].name, h, &m->contacts[k].h);
    }
    dvc_expr_clear(h);
    for (long k = 0; k < d->nt && st == DVC_OK; k++) st = term_switches(d, k);
    if (st == DVC_OK) st = transitions_single(d);
    for (long q = 0; q < m->nmodes && st == DVC_OK; q++)
        if (nsliding(d->nt, m->modes[q].sides) >= 2) st = weights_multi(d, q);
    if (st == DVC_OK) st = departures(d);
    return st;
}

dvc_status dvc_hybrid_add_decomposed_exprs(dvc_hybrid_model_t m, const dvc_expr_t *f0, long nt,
                                           const dvc_hybrid_term_expr *terms)
{
    dvc_status st = check_terms(m, f0, nt, terms);
    if (st != DVC_OK) return st;
    dec d = {m, m->n, nt, f0, terms, calloc((size_t)nt, sizeof(dvc_ivec_t)), NULL};
    m->contacts = calloc((size_t)nt, sizeof *m->contacts);
    if (!d.grad || !m->contacts) {
        free(d.grad);
        return nomem();
    }
    m->ncontacts = nt;
    for (long k = 0; k < nt; k++) {
        dvc_ivec_init2(d.grad[k], m->n, m->prec);
        m->contacts[k].h = -1;
    }
    for (long k = 0; k < nt && st == DVC_OK; k++) st = gradient(m, &terms[k], d.grad[k]);
    d.zero = st == DVC_OK ? exv_new(&d) : NULL;
    if (st == DVC_OK && !d.zero) st = nomem();
    for (long i = 0; i < m->n && st == DVC_OK; i++) st = lit(&d, d.zero[i], "0", NULL);
    if (st == DVC_OK) st = all_modes(&d);
    if (st == DVC_OK) st = all_switches(&d);
    exprs_free(d.zero, d.zero ? m->n : 0);
    for (long k = 0; k < nt; k++) dvc_ivec_clear(d.grad[k]);
    free(d.grad);
    return st;
}

/* n expressions parsed over the state names at the model's precision */
static dvc_status parse_n(const dvc_hybrid_model_struct *m, dvc_expr_t **out,
                          const char *const *text, const dvc_expr_consts_t consts,
                          const char *term, const char *field)
{
    dvc_expr_t *e = calloc((size_t)m->n, sizeof *e);
    if (!e) return nomem();
    for (long i = 0; i < m->n; i++) dvc_expr_init2(e[i], m->prec);
    *out = e;
    for (long i = 0; i < m->n; i++) {
        dvc_status st = text[i] ? dvc_expr_parse_vars(e[i], text[i], consts, m->n,
                                                      (const char *const *)m->names)
                                : DVC_ERR_INPUT;
        if (!text[i] && term)
            return dvc_error(st, "term '%s': missing expression for %s", term, m->names[i]);
        if (!text[i]) return dvc_error(st, "f0: missing expression for %s", m->names[i]);
        if (st != DVC_OK && term)
            return dvc_error_context(st, "term '%s': field '%s' entry %ld: ", term, field, i + 1);
        if (st != DVC_OK) return dvc_error_context(st, "field 'f0' entry %ld: ", i + 1);
    }
    return DVC_OK;
}

dvc_status dvc_hybrid_add_decomposed(dvc_hybrid_model_t m, const char *const *f0, long nt,
                                     const dvc_hybrid_term *terms,
                                     const dvc_expr_consts_t consts)
{
    dvc_status st = check_form(m, nt, f0 != NULL);
    if (st != DVC_OK) return st;
    const char *names[DVC_HYB_SIDES_MAX];
    dvc_hybrid_term_expr te[DVC_HYB_SIDES_MAX];
    dvc_expr_t hs[DVC_HYB_SIDES_MAX], *e0 = NULL, *fs[2 * DVC_HYB_SIDES_MAX] = {0};
    for (long k = 0; k < nt; k++) dvc_expr_init2(hs[k], m->prec);
    for (long k = 0; k < nt && st == DVC_OK; k++) {
        const dvc_hybrid_term *tk = &terms[k];
        st = check_term(tk->name, tk->h && tk->fplus && tk->fminus, names, k);
        names[k] = tk->name;
        if (st == DVC_OK && (st = dvc_expr_parse_vars(hs[k], tk->h, consts, m->n,
                                                      (const char *const *)m->names)) != DVC_OK)
            st = dvc_error_context(st, "term '%s': field 'h': ", tk->name);
        te[k] = (dvc_hybrid_term_expr){tk->name, hs[k], NULL, NULL};
    }
    if (st == DVC_OK) st = parse_n(m, &e0, f0, consts, NULL, NULL);
    for (long k = 0; k < nt && st == DVC_OK; k++) {
        st = parse_n(m, &fs[2 * k], terms[k].fplus, consts, terms[k].name, "f+");
        if (st == DVC_OK) st = parse_n(m, &fs[2 * k + 1], terms[k].fminus, consts, terms[k].name, "f-");
        te[k].fplus = (const dvc_expr_t *)fs[2 * k];
        te[k].fminus = (const dvc_expr_t *)fs[2 * k + 1];
    }
    if (st == DVC_OK) st = dvc_hybrid_add_decomposed_exprs(m, (const dvc_expr_t *)e0, nt, te);
    for (long k = 0; k < 2 * nt; k++) exprs_free(fs[k], m->n);
    exprs_free(e0, m->n);
    for (long k = 0; k < nt; k++) dvc_expr_clear(hs[k]);
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
