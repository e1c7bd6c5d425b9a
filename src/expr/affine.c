/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Is an expression affine in some of its variables, with constant
 * coefficients (include/dvicert/expr.h, dvc_expr_affine)? Decided on the
 * compiled program by structure, never by evaluating over boxes: each
 * value of the stack is classed as it is built (a constant, a function of
 * the other variables, affine in the chosen ones with constant
 * coefficients, or worse), and the coefficients are enclosed in interval
 * arithmetic from the literals. The DAE reduction (docs/dae.md) relies on
 * this being exact: the coefficient matrix of the constraints must be the
 * same at every (t, x, z). */
#include "expr/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int isc;      /* a constant: val encloses it */
    int zd;       /* reads one of the chosen variables (structurally) */
    int bad;      /* 0 affine, 1 a coefficient depends on other inputs, 2 nonlinear */
    mpfi_t val;
    mpfi_t *coef; /* k coefficients (affine part) */
} slot_t;

static void slot_zero(slot_t *s, long k)
{
    s->isc = 1;
    s->zd = 0;
    s->bad = 0;
    mpfi_set_ui(s->val, 0);
    for (long j = 0; j < k; j++) mpfi_set_ui(s->coef[j], 0);
}

/* a <- a op b for + - (the coefficients and the constant value). */
static void lin_comb(slot_t *a, const slot_t *b, long k, int sub)
{
    for (long j = 0; j < k; j++) {
        if (sub) mpfi_sub(a->coef[j], a->coef[j], b->coef[j]);
        else mpfi_add(a->coef[j], a->coef[j], b->coef[j]);
    }
    if (a->isc && b->isc) {
        if (sub) mpfi_sub(a->val, a->val, b->val);
        else mpfi_add(a->val, a->val, b->val);
    }
    a->isc = a->isc && b->isc;
}

/* a <- a * b or a / b. */
static void mul_div(slot_t *a, slot_t *b, long k, int div)
{
    int worst = a->bad > b->bad ? a->bad : b->bad;
    if (div && b->zd) worst = 2; /* the chosen variables in a denominator */
    else if (a->zd && b->zd) worst = 2;
    else if (a->zd || b->zd) {
        slot_t *v = a->zd ? a : b, *c = a->zd ? b : a;
        if (!c->isc || (div && mpfi_has_zero(c->val))) {
            if (worst < 1) worst = 1; /* coefficient times a function of t, x */
        } else {
            for (long j = 0; j < k; j++) {
                if (div) mpfi_div(a->coef[j], v->coef[j], c->val);
                else mpfi_mul(a->coef[j], v->coef[j], c->val);
            }
        }
    }
    if (a->isc && b->isc) {
        if (div) mpfi_div(a->val, a->val, b->val);
        else mpfi_mul(a->val, a->val, b->val);
    }
    a->isc = a->isc && b->isc;
    a->zd = a->zd || b->zd;
    a->bad = worst;
}

/* Any other operation: a function of its operands; nonlinear in the chosen
 * variables when one reads them; its value is not followed (a constant
 * the parser did not fold is treated as a function of t, x: conservative). */
static void other(slot_t *a, const slot_t *b, const ins_t *in)
{
    int zd = a->zd || (b && b->zd);
    if (in->op == OP_POWI && in->arg == 1 && !b) return; /* u^1 = u */
    if (zd) a->bad = 2;
    else if (b && b->bad > a->bad) a->bad = b->bad;
    a->zd = zd;
    a->isc = 0;
}

static int arity(int op)
{
    switch (op) {
    case OP_CONST: case OP_VAR: return 0;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_POW: case OP_MIN: case OP_MAX:
        return 2;
    default: return 1;
    }
}

dvc_status dvc_expr_affine(mpfi_t *coef, int *kind, int *uses, const dvc_expr_t e, long first,
                           long k)
{
    long depth = e->depth > 0 ? e->depth : 1, sp = 0;
    dvc_status st = DVC_OK;
    slot_t *s;
    if (first < 1 || k < 0 || first + k - 1 > e->nvars)
        return dvc_error(DVC_ERR_INPUT, "affine: variables %ld..%ld of %ld", first,
                         first + k - 1, e->nvars);
    if (e->nins == 0) return dvc_error(DVC_ERR_INPUT, "empty expression (nothing parsed)");
    s = calloc((size_t)depth, sizeof *s);
    if (!s) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; i < depth; i++) {
        mpfi_init2(s[i].val, e->prec);
        s[i].coef = malloc((size_t)(k > 0 ? k : 1) * sizeof *s[i].coef);
        for (long j = 0; s[i].coef && j < k; j++) mpfi_init2(s[i].coef[j], e->prec);
        if (!s[i].coef) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    for (long i = 0; st == DVC_OK && i < e->nins; i++) {
        const ins_t *in = &e->ins[i];
        int ar = arity(in->op);
        slot_t *a, *b;
        if (sp < ar || (ar == 0 && sp >= depth)) {
            st = dvc_error(DVC_ERR_INTERNAL, "affine: malformed program");
            break;
        }
        if (ar == 0) {
            a = &s[sp++];
            slot_zero(a, k);
            if (in->op == OP_CONST) {
                mpfi_set(a->val, e->cst[in->arg]);
            } else if (in->arg >= first && in->arg < first + k) {
                a->isc = 0;
                a->zd = 1;
                mpfi_set_ui(a->coef[in->arg - first], 1);
            } else {
                a->isc = 0; /* t or another variable */
            }
            continue;
        }
        a = &s[sp - ar];
        b = ar == 2 ? &s[sp - 1] : NULL;
        sp -= ar - 1;
        switch (in->op) {
        case OP_NEG:
            for (long j = 0; j < k; j++) mpfi_neg(a->coef[j], a->coef[j]);
            mpfi_neg(a->val, a->val);
            break;
        case OP_ADD: case OP_SUB:
            lin_comb(a, b, k, in->op == OP_SUB);
            if (b->bad > a->bad) a->bad = b->bad;
            a->zd = a->zd || b->zd;
            break;
        case OP_MUL: case OP_DIV:
            mul_div(a, b, k, in->op == OP_DIV);
            break;
        default:
            other(a, b, in);
        }
    }
    if (st == DVC_OK && sp != 1) st = dvc_error(DVC_ERR_INTERNAL, "affine: malformed program");
    if (st == DVC_OK) {
        *kind = s[0].bad;
        *uses = s[0].zd;
        for (long j = 0; j < k; j++) mpfi_set(coef[j], s[0].coef[j]);
    }
    for (long i = 0; i < depth; i++) {
        mpfi_clear(s[i].val);
        for (long j = 0; s[i].coef && j < k; j++) mpfi_clear(s[i].coef[j]);
        free(s[i].coef);
    }
    free(s);
    return st;
}

/* ---- the affine structure as texts (dvc_expr_affine_texts) ---- */

/* A value r + sum_j c_j v_j with r and every c_j a text over the other
 * variables; NULL stands for an exact 0. */
typedef struct {
    char *r;
    char **c;
    int bad; /* nonlinear in the chosen variables */
} tslot_t;

typedef struct {
    long k;
    int fail; /* out of memory */
    const char *(*cname)(void *, mpfi_srcptr);
    void *ctx;
} tctx_t;

/* The text pre a mid b post, or NULL out of memory (flagged). */
static char *cat5(tctx_t *x, const char *pre, const char *a, const char *mid, const char *b,
                  const char *post)
{
    size_t l = strlen(pre) + strlen(a) + strlen(mid) + strlen(b) + strlen(post) + 1;
    char *s = x->fail ? NULL : malloc(l);
    if (!s) {
        x->fail = 1;
        return NULL;
    }
    snprintf(s, l, "%s%s%s%s%s", pre, a, mid, b, post);
    return s;
}

static int tslot_zd(const tslot_t *s, long k)
{
    for (long j = 0; j < k; j++)
        if (s->c[j]) return 1;
    return 0;
}

static void tslot_free(tslot_t *s, long k)
{
    free(s->r);
    s->r = NULL;
    for (long j = 0; s->c && j < k; j++) {
        free(s->c[j]);
        s->c[j] = NULL;
    }
    s->bad = 0;
}

/* a +- b on texts, 0 (NULL) absorbed exactly: the result replaces *a. */
static void tadd(tctx_t *x, char **a, char **b, int sub)
{
    char *r;
    if (!*b) return;
    if (!*a) r = sub ? cat5(x, "(-", *b, "", "", ")") : cat5(x, "", *b, "", "", "");
    else r = cat5(x, "(", *a, sub ? "-" : "+", *b, ")");
    free(*a);
    *a = r;
}

/* *a <- *a op w (w never NULL; *a NULL stays 0 for * and /). */
static void tscale(tctx_t *x, char **a, const char *w, int div)
{
    char *r;
    if (!*a) return;
    r = cat5(x, "(", *a, div ? "/" : "*", w, ")");
    free(*a);
    *a = r;
}

/* a <- a op b for an operation other than + - neg: both free of the
 * chosen variables (else nonlinear), the text written out. */
static void tother(tctx_t *x, tslot_t *a, tslot_t *b, const ins_t *in)
{
    const char *ta = a->r ? a->r : "0", *tb = b && b->r ? b->r : "0";
    char num[48], *r = NULL;
    if (in->op == OP_POWI && in->arg == 1) return; /* u^1 = u */
    if (a->bad || (b && b->bad) || tslot_zd(a, x->k) || (b && tslot_zd(b, x->k))) {
        tslot_free(a, x->k);
        a->bad = 1;
        return;
    }
    switch (in->op) {
    case OP_MUL: r = a->r && b->r ? cat5(x, "(", ta, "*", tb, ")") : NULL; break;
    case OP_DIV: r = a->r ? cat5(x, "(", ta, "/", tb, ")") : NULL; break;
    case OP_POWI:
        snprintf(num, sizeof num, in->arg < 0 ? "(%ld)" : "%ld", in->arg);
        r = cat5(x, "(", ta, "^", num, ")");
        break;
    case OP_POW: r = cat5(x, "(", ta, "^", tb, ")"); break;
    case OP_MIN: case OP_MAX:
        r = cat5(x, dvc_expr_op_name_(in->op), "(", ta, ",", "");
        if (r) {
            char *r2 = cat5(x, r, tb, ")", "", "");
            free(r);
            r = r2;
        }
        break;
    default: r = cat5(x, dvc_expr_op_name_(in->op), "(", ta, ")", "");
    }
    free(a->r);
    a->r = r;
}

/* a <- a * b or a / b: one side free of the chosen variables scales the
 * other's parts by its text; both reading them, or one in a denominator,
 * is nonlinear. */
static void tmul(tctx_t *x, tslot_t *a, tslot_t *b, const ins_t *in)
{
    int div = in->op == OP_DIV, za = tslot_zd(a, x->k), zb = tslot_zd(b, x->k);
    tslot_t *v = za ? a : b, *w = za ? b : a;
    if (!(za || zb) || a->bad || b->bad || (za && zb) || (div && zb)) {
        tother(x, a, b, in);
        return;
    }
    if (!w->r && !div) { /* times an exact 0 */
        tslot_free(a, x->k);
        return;
    }
    tscale(x, &v->r, w->r ? w->r : "0", div);
    for (long j = 0; j < x->k; j++) tscale(x, &v->c[j], w->r ? w->r : "0", div);
    if (v != a) { /* the result lives in a */
        tslot_t t = *a;
        *a = *b;
        *b = t;
    }
}

static void tleaf(tctx_t *x, tslot_t *a, const dvc_expr_struct *e, const ins_t *in, long first)
{
    const char *s;
    if (in->op == OP_CONST) s = x->cname(x->ctx, e->cst[in->arg]);
    else if (in->arg >= first && in->arg < first + x->k) s = NULL;
    else s = in->arg == 0 ? "t" : e->varnames[in->arg - 1];
    if (in->op == OP_CONST && !s) x->fail = 1;
    if (s) a->r = cat5(x, s, "", "", "", "");
    else if (in->op == OP_VAR) a->c[in->arg - first] = cat5(x, "1", "", "", "", "");
}

dvc_status dvc_expr_affine_texts(char **r, char **c, int *kind, const dvc_expr_t e, long first,
                                 long k, const char *(*cname)(void *, mpfi_srcptr), void *ctx)
{
    long depth = e->depth > 0 ? e->depth : 1, sp = 0;
    tctx_t x = {k, 0, cname, ctx};
    dvc_status st = DVC_OK;
    tslot_t *s;
    if (first < 1 || k < 1 || first + k - 1 > e->nvars || e->nins == 0)
        return dvc_error(DVC_ERR_INPUT, "affine texts: variables %ld..%ld of %ld", first,
                         first + k - 1, e->nvars);
    s = calloc((size_t)depth, sizeof *s);
    for (long i = 0; s && i < depth; i++)
        if (!(s[i].c = calloc((size_t)k, sizeof *s[i].c))) x.fail = 1;
    for (long i = 0; s && !x.fail && st == DVC_OK && i < e->nins; i++) {
        const ins_t *in = &e->ins[i];
        int ar = arity(in->op);
        tslot_t *a, *b;
        if (sp < ar || (ar == 0 && sp >= depth)) {
            st = dvc_error(DVC_ERR_INTERNAL, "affine: malformed program");
            break;
        }
        if (ar == 0) {
            tleaf(&x, &s[sp++], e, in, first);
            continue;
        }
        a = &s[sp - ar];
        b = ar == 2 ? &s[sp - 1] : NULL;
        sp -= ar - 1;
        if (in->op == OP_NEG) {
            char *z = NULL;
            for (long j = 0; j < k; j++) {
                tadd(&x, &z, &a->c[j], 1);
                free(a->c[j]);
                a->c[j] = z;
                z = NULL;
            }
            tadd(&x, &z, &a->r, 1);
            free(a->r);
            a->r = z;
        } else if (in->op == OP_ADD || in->op == OP_SUB) {
            a->bad = a->bad || b->bad;
            tadd(&x, &a->r, &b->r, in->op == OP_SUB);
            for (long j = 0; j < k; j++) tadd(&x, &a->c[j], &b->c[j], in->op == OP_SUB);
        } else if (in->op == OP_MUL || in->op == OP_DIV) {
            tmul(&x, a, b, in);
        } else {
            tother(&x, a, b, in);
        }
        if (b) tslot_free(b, k);
    }
    if (!s || x.fail) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    else if (st == DVC_OK && sp != 1) st = dvc_error(DVC_ERR_INTERNAL, "affine: malformed program");
    if (st == DVC_OK) {
        *kind = s[0].bad ? 2 : 0;
        *r = s[0].r;
        s[0].r = NULL;
        for (long j = 0; j < k; j++) {
            c[j] = s[0].c[j];
            s[0].c[j] = NULL;
        }
    }
    for (long i = 0; s && i < depth; i++) {
        tslot_free(&s[i], k);
        free(s[i].c);
    }
    free(s);
    return st;
}
