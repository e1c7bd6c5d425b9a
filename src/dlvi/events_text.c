/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The DLVI's functions of time written back as text (docs/events.md,
 * "Forcing"): a pattern's field b_P(t) = f(t) + B E_P g(t) + B c_P and its
 * switching functions contain f and g, and hybrid modes take expressions.
 * The compiled postfix program of each expression is printed fully
 * parenthesised with its literals as named interval constants, which
 * keeps every literal exactly (an interval folded from "1/3" stays the
 * same interval). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dlvi/events_internal.h"
#include "expr/internal.h"

static char *fmt2(const char *fmt, const char *a, const char *b)
{
    size_t k = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
    char *s = malloc(k);
    if (s) snprintf(s, k, fmt, a, b ? b : "");
    return s;
}

/* One instruction applied to the string stack st (height *sp). */
static dvc_status text_op(char **st, long *sp, const ins_t *in, char (*names)[64])
{
    char buf[96], *r = NULL;
    const char *a = *sp >= 1 ? st[*sp - 1] : NULL, *b = NULL;
    int arity = 1;
    switch (in->op) {
    case OP_CONST:
        arity = 0;
        r = strdup(names[in->arg]);
        break;
    case OP_VAR:
        if (in->arg != 0) return dvc_error(DVC_ERR_INPUT, "a function of t uses a state variable");
        arity = 0;
        r = strdup("t");
        break;
    case OP_NEG: r = fmt2("(-%s)%s", a, NULL); break;
    case OP_POWI:
        snprintf(buf, sizeof buf, "(%%s^(%ld))%%s", in->arg);
        r = fmt2(buf, a, NULL);
        break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_POW: case OP_MIN: case OP_MAX: {
        arity = 2;
        b = a;
        a = st[*sp - 2];
        const char *f = in->op == OP_ADD ? "(%s+%s)" : in->op == OP_SUB ? "(%s-%s)"
                      : in->op == OP_MUL ? "(%s*%s)" : in->op == OP_DIV ? "(%s/%s)"
                      : in->op == OP_POW ? "(%s^%s)" : in->op == OP_MIN ? "min(%s,%s)" : "max(%s,%s)";
        r = fmt2(f, a, b);
        break;
    }
    default: { /* the functions of one argument: their names as the parser reads them */
        const char *nm = dvc_expr_op_name_(in->op);
        if (nm[0] == '\'' || !strcmp(nm, "operation"))
            return dvc_error(DVC_ERR_INPUT, "operation %d cannot be written back", in->op);
        snprintf(buf, sizeof buf, "%s(%%s)%%s", nm);
        r = fmt2(buf, a, NULL);
    }
    }
    if (!r) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (int k = 0; k < arity; k++) free(st[--*sp]);
    st[(*sp)++] = r;
    return DVC_OK;
}

/* The name of literal k of e in lits: an existing constant of the same
 * value (so that equal expressions give equal texts), else "<tag><k>",
 * added. */
static dvc_status lit_name(char *name, size_t len, dvc_expr_consts_t lits,
                           const dvc_expr_struct *e, long k, const char *tag)
{
    mpfi_srcptr v = e->cst[k];
    for (long j = 0; j < lits->n; j++) {
        mpfi_srcptr w = lits->val[j];
        if (mpfi_get_prec(w) == mpfi_get_prec(v) && mpfr_equal_p(&w->left, &v->left) &&
            mpfr_equal_p(&w->right, &v->right) && mpfr_signbit(&w->left) == mpfr_signbit(&v->left)) {
            snprintf(name, len, "%s", lits->name[j]);
            return DVC_OK;
        }
    }
    snprintf(name, len, "%s%ld", tag, k);
    return dvc_expr_consts_add(lits, name, v);
}

static dvc_status expr_text(char **out, dvc_expr_consts_t lits, const dvc_expr_struct *e,
                            const char *tag)
{
    dvc_status st = DVC_OK;
    char (*names)[64] = calloc((size_t)(e->ncst + 1), sizeof *names);
    if (!names) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long k = 0; k < e->ncst && st == DVC_OK; k++)
        st = lit_name(names[k], sizeof names[k], lits, e, k, tag);
    char **stk = st == DVC_OK ? calloc((size_t)(e->depth + 1), sizeof *stk) : NULL;
    long sp = 0;
    if (!stk) {
        free(names);
        return st != DVC_OK ? st : dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    for (long i = 0; i < e->nins && st == DVC_OK; i++) st = text_op(stk, &sp, &e->ins[i], names);
    if (st == DVC_OK && sp != 1) st = dvc_error(DVC_ERR_INPUT, "malformed program of '%s'", e->text);
    if (st == DVC_OK) {
        *out = stk[0];
        stk[0] = NULL;
    }
    for (long k = 0; k < sp; k++) free(stk[k]);
    free(stk);
    free(names);
    return st;
}

dvc_status evt_fun_text(evt_fun *out, mpfi_t val, dvc_expr_consts_t lits,
                        const dvc_tfun_struct *f, const char *tag)
{
    out->kind = 0;
    out->text = NULL;
    mpfi_set_ui(val, 0);
    switch (f->kind) {
    case DVC_TFUN_NONE: return DVC_OK;
    case DVC_TFUN_CONST:
        out->kind = 1;
        mpfi_set(val, f->c);
        return DVC_OK;
    case DVC_TFUN_EXPR:
        out->kind = 2;
        return expr_text(&out->text, lits, f->expr, tag);
    default:
        return dvc_error(DVC_ERR_INPUT, "a tabulated function of time in g is not supported by "
                         "the events route (g enters the switching functions as an expression; "
                         "tables are taken in f)");
    }
}

/* The largest step h at which the order-K Taylor term of every expression
 * entry of v stays below 2^-60 of the entry's size (the largest |value|
 * at 9 times evenly spread over [0, T]): |c_K| h^K <= 2^-60 size there (a
 * sine of amplitude a and angular frequency omega gives
 * h ~ (K! 2^-60)^(1/K) / omega, about 1 / omega at K = 20). Only a step
 * choice (the bounds do not depend on it): the hybrid engine's remainder of
 * the forcing term is c_K(xi) S^K, which would dominate the tube with a
 * step that the matrix norm alone allows. */
double evt_forcing_h(const dvc_tfun_vec_struct *v, double T, int K, double hmax)
{
    double h = hmax;
    if (!v || K < 1) return h;
    mpfr_prec_t prec = 53;
    mpfi_t *ts = malloc((size_t)(K + 1) * sizeof *ts), *cs = malloc(9 * (size_t)(K + 1) * sizeof *cs);
    if (!ts || !cs) {
        free(ts);
        free(cs);
        return h;
    }
    for (int k = 0; k <= K; k++) {
        mpfi_init2(ts[k], prec);
        mpfi_set_ui(ts[k], 0);
    }
    for (int k = 0; k < 9 * (K + 1); k++) mpfi_init2(cs[k], prec);
    mpfi_set_ui(ts[1], 1);
    mpfi_t *vars[1] = {ts};
    mpfr_t a;
    mpfr_init2(a, prec);
    for (long i = 0; i < v->k; i++) {
        if (v->fn[i].kind != DVC_TFUN_EXPR) continue;
        int ok[9];
        double size = 0;
        for (int s = 0; s <= 8; s++) {
            mpfi_set_d(ts[0], T * s / 8);
            ok[s] = dvc_expr_taylor_(cs + s * (K + 1), v->fn[i].expr, vars, K) == DVC_OK;
            if (!ok[s]) {
                dvc_error_reset();
                continue;
            }
            dvc_ival_mag(a, cs[s * (K + 1)]);
            if (mpfr_get_d(a, MPFR_RNDN) > size) size = mpfr_get_d(a, MPFR_RNDN);
        }
        for (int s = 0; s <= 8 && size > 0; s++) {
            if (!ok[s]) continue;
            dvc_ival_mag(a, cs[s * (K + 1) + K]);
            double cK = mpfr_get_d(a, MPFR_RNDN);
            if (!(cK > 0)) continue;
            double hh = pow(0x1p-60 * size / cK, 1.0 / K);
            if (hh < h) h = hh;
        }
    }
    mpfr_clear(a);
    for (int k = 0; k <= K; k++) mpfi_clear(ts[k]);
    for (int k = 0; k < 9 * (K + 1); k++) mpfi_clear(cs[k]);
    free(ts);
    free(cs);
    return h;
}
