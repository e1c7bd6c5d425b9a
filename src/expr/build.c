/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Expressions built in memory (include/dvicert/expr.h, "Building"): the
 * program of "a op b" is the program of a, then b's, then op, with b's
 * literal pool appended to a's, and two constant operands folded into one
 * literal exactly as the parser folds them (parse.c, emit). So a built
 * expression is the very program a parse of its text would give (same
 * instructions, same literal pool, same stack depth), and evaluates to the
 * same intervals; the text is kept beside it for messages only. */
#include "expr/internal.h"

#include <stdlib.h>
#include <string.h>

static mpfi_t *new_ivals(long n, mpfr_prec_t prec)
{
    mpfi_t *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
    if (!a) return NULL;
    for (long i = 0; i < n; i++) mpfi_init2(a[i], prec);
    return a;
}

void dvc_expr_swap(dvc_expr_t a, dvc_expr_t b)
{
    dvc_expr_struct t = *a;
    *a = *b;
    *b = t;
}

/* r (empty, at its precision) <- text and the variables (nvars, names). */
static dvc_status start(dvc_expr_struct *r, const char *text, long nvars, char *const *names)
{
    r->text = strdup(text);
    r->varnames = calloc((size_t)(nvars > 0 ? nvars : 1), sizeof *r->varnames);
    r->var = new_ivals(nvars + 1, r->prec);
    r->dvar = new_ivals(nvars + 1, r->prec);
    if (!r->text || !r->varnames || !r->var || !r->dvar) {
        /* partial state: counts still 0, dvc_expr_clear frees what exists */
        if (r->var) for (long i = 0; i <= nvars; i++) mpfi_clear(r->var[i]);
        if (r->dvar) for (long i = 0; i <= nvars; i++) mpfi_clear(r->dvar[i]);
        free(r->var);
        free(r->dvar);
        r->var = r->dvar = NULL;
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    r->nvars = nvars;
    for (long i = 0; i < nvars; i++)
        if (!(r->varnames[i] = strdup(names[i]))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    return DVC_OK;
}

/* Room for k more instructions / literals. */
static dvc_status reserve(dvc_expr_struct *r, long kins, long kcst)
{
    if (r->nins + kins > r->ains) {
        long na = r->nins + kins;
        ins_t *ni = realloc(r->ins, (size_t)na * sizeof *ni);
        if (!ni) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->ins = ni;
        r->ains = na;
    }
    if (r->ncst + kcst > r->acst) {
        long na = r->ncst + kcst;
        mpfi_t *nc = realloc(r->cst, (size_t)na * sizeof *nc);
        if (!nc) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        r->cst = nc;
        r->acst = na;
    }
    return DVC_OK;
}

/* Append a's program (its pool after r's; columns shifted by col). */
static dvc_status append(dvc_expr_struct *r, const dvc_expr_struct *a, int col)
{
    long c0 = r->ncst;
    if (a->root) /* its constraint is not carried over */
        return dvc_error(DVC_ERR_INPUT, "in '%s': an expression with an implicit algebraic "
                         "variable cannot be combined", a->text);
    dvc_status st = reserve(r, a->nins, a->ncst);
    if (st != DVC_OK) return st;
    for (long i = 0; i < a->ncst; i++) {
        mpfi_init2(r->cst[r->ncst], r->prec);
        mpfi_set(r->cst[r->ncst++], a->cst[i]);
    }
    for (long i = 0; i < a->nins; i++) {
        ins_t in = a->ins[i];
        if (in.op == OP_CONST) in.arg += c0;
        in.pos += col;
        r->ins[r->nins++] = in;
    }
    r->uses_t |= a->uses_t;
    r->uses_x |= a->uses_x;
    return DVC_OK;
}

static int is_const(const dvc_expr_struct *a) { return a->nins == 1 && a->ins[0].op == OP_CONST; }

/* Emit op (arity 1 or 2) at column pos over the last operands; constant
 * operands are folded into one literal, as the parser does. */
static dvc_status emit(dvc_expr_struct *r, int op, int pos, int fold)
{
    int arity = op == OP_NEG ? 1 : 2;
    dvc_status st = reserve(r, 1, 1);
    if (st != DVC_OK) return st;
    if (fold) {
        ins_t in = {op, pos, 0};
        mpfi_t f[2];
        long sp = arity;
        mpfi_init2(f[0], r->prec);
        mpfi_init2(f[1], r->prec);
        for (long k = 0; k < arity; k++) mpfi_set(f[k], r->cst[r->ins[r->nins - arity + k].arg]);
        st = dvc_expr_apply_(r, &in, f, NULL, &sp);
        if (st == DVC_OK && !dvc_ival_is_finite(f[0]))
            st = dvc_expr_fail_(r, DVC_ERR_INPUT, pos, dvc_expr_op_name_(op), NULL,
                                " overflows in a constant subexpression");
        if (st == DVC_OK) {
            mpfi_init2(r->cst[r->ncst], r->prec);
            mpfi_set(r->cst[r->ncst], f[0]);
            r->nins -= arity;
            r->ins[r->nins++] = (ins_t){OP_CONST, pos, r->ncst++};
        }
        mpfi_clear(f[0]);
        mpfi_clear(f[1]);
        if (st == DVC_OK || st == DVC_ERR_INPUT) return st;
        /* not decidable at this precision: left to run time */
        dvc_error_reset();
    }
    r->ins[r->nins++] = (ins_t){op, pos, 0};
    return DVC_OK;
}

/* The value and tangent stacks and the binary64 scratch of a finished
 * program (as after a parse). */
static dvc_status finish(dvc_expr_struct *r)
{
    r->v = new_ivals(r->depth, r->prec);
    r->d = new_ivals(r->depth, r->prec);
    if (!r->v || !r->d) {
        if (r->v) for (long i = 0; i < r->depth; i++) mpfi_clear(r->v[i]);
        free(r->v);
        r->v = NULL;
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    return dvc_expr_fast_alloc_(r);
}

/* e <- r (built at e's precision), or e unchanged on failure. */
static dvc_status done(dvc_expr_struct *e, dvc_expr_struct *r, dvc_status st)
{
    if (st == DVC_OK) st = finish(r);
    if (st == DVC_OK) dvc_expr_swap(e, r);
    dvc_expr_clear(r);
    return st;
}

static dvc_status same_shape(const dvc_expr_struct *e, const dvc_expr_struct *a,
                             const dvc_expr_struct *b)
{
    if (!a->text || (b && !b->text))
        return dvc_error(DVC_ERR_INPUT, "building an expression from an empty one");
    if (a->prec != e->prec || (b && b->prec != e->prec))
        return dvc_error(DVC_ERR_INPUT, "building '%s': operands at %ld and %ld bits, result at "
                         "%ld", a->text, (long)a->prec, (long)(b ? b->prec : a->prec),
                         (long)e->prec);
    if (b && a->nvars != b->nvars)
        return dvc_error(DVC_ERR_INPUT, "building '%s' and '%s': different variables", a->text,
                         b->text);
    for (long i = 0; b && i < a->nvars; i++)
        if (strcmp(a->varnames[i], b->varnames[i]))
            return dvc_error(DVC_ERR_INPUT, "building '%s' and '%s': different variables",
                             a->text, b->text);
    return DVC_OK;
}

static dvc_status binary(dvc_expr_t e, const dvc_expr_t a, int op, char c, const dvc_expr_t b)
{
    dvc_status st = same_shape(e, a, b);
    if (st != DVC_OK) return st;
    size_t la = strlen(a->text), lb = strlen(b->text);
    char *text = malloc(la + lb + 2);
    if (!text) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    memcpy(text, a->text, la);
    text[la] = c;
    memcpy(text + la + 1, b->text, lb + 1);
    dvc_expr_t r;
    dvc_expr_init2(r, e->prec);
    st = start(r, text, a->nvars, a->varnames);
    free(text);
    if (st == DVC_OK) st = append(r, a, 0);
    if (st == DVC_OK) st = append(r, b, (int)la + 1);
    /* the parser's stack: b is pushed over a's value */
    r->depth = a->depth > b->depth + 1 ? a->depth : b->depth + 1;
    if (st == DVC_OK) st = emit(r, op, (int)la, is_const(a) && is_const(b));
    return done(e, r, st);
}

dvc_status dvc_expr_add(dvc_expr_t e, const dvc_expr_t a, const dvc_expr_t b)
{
    return binary(e, a, OP_ADD, '+', b);
}

dvc_status dvc_expr_sub(dvc_expr_t e, const dvc_expr_t a, const dvc_expr_t b)
{
    return binary(e, a, OP_SUB, '-', b);
}

dvc_status dvc_expr_mul(dvc_expr_t e, const dvc_expr_t a, const dvc_expr_t b)
{
    return binary(e, a, OP_MUL, '*', b);
}

dvc_status dvc_expr_div(dvc_expr_t e, const dvc_expr_t a, const dvc_expr_t b)
{
    return binary(e, a, OP_DIV, '/', b);
}

/* "-a" (neg) or "(a)" (the same program, the text in parentheses). */
static dvc_status unary(dvc_expr_t e, const dvc_expr_t a, int neg)
{
    dvc_status st = same_shape(e, a, NULL);
    if (st != DVC_OK) return st;
    size_t la = strlen(a->text);
    char *text = malloc(la + 3);
    if (!text) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    text[0] = neg ? '-' : '(';
    memcpy(text + 1, a->text, la);
    if (neg) text[la + 1] = '\0';
    else memcpy(text + la + 1, ")", 2);
    dvc_expr_t r;
    dvc_expr_init2(r, e->prec);
    st = start(r, text, a->nvars, a->varnames);
    free(text);
    if (st == DVC_OK) st = append(r, a, 1);
    r->depth = a->depth;
    if (st == DVC_OK && neg) st = emit(r, OP_NEG, 0, is_const(a));
    return done(e, r, st);
}

dvc_status dvc_expr_neg(dvc_expr_t e, const dvc_expr_t a) { return unary(e, a, 1); }

dvc_status dvc_expr_paren(dvc_expr_t e, const dvc_expr_t a) { return unary(e, a, 0); }

dvc_status dvc_expr_copy(dvc_expr_t e, const dvc_expr_t a)
{
    dvc_status st = same_shape(e, a, NULL);
    if (st != DVC_OK) return st;
    dvc_expr_t r;
    dvc_expr_init2(r, e->prec);
    st = start(r, a->text, a->nvars, a->varnames);
    if (st == DVC_OK) st = append(r, a, 0);
    r->depth = a->depth;
    return done(e, r, st);
}

dvc_status dvc_expr_set_literal(dvc_expr_t e, const char *text, const mpfi_t c, long nvars,
                                const char *const *varnames)
{
    if (!text || !*text) return dvc_error(DVC_ERR_INPUT, "a literal needs a text");
    if (c && (!dvc_ival_is_finite(c) || !dvc_ival_is_valid(c)))
        return dvc_error(DVC_ERR_INPUT, "literal '%s': not a finite interval", text);
    dvc_expr_t r;
    dvc_expr_init2(r, e->prec);
    dvc_status st = start(r, text, nvars < 0 ? 0 : nvars, (char *const *)varnames);
    if (st == DVC_OK) st = reserve(r, 1, 1);
    if (st == DVC_OK) {
        /* a number is enclosed from its text at the expression's precision,
         * a named value rounded to it: what the parser does with either */
        mpfi_init2(r->cst[0], r->prec);
        r->ncst = 1;
        if (c) mpfi_set(r->cst[0], c);
        else st = dvc_ival_set_str(r->cst[0], text);
        if (st == DVC_OK && !dvc_ival_is_finite(r->cst[0]))
            st = dvc_error(DVC_ERR_INPUT, "number '%s' is malformed or out of range", text);
        r->ins[r->nins++] = (ins_t){OP_CONST, 0, 0};
        r->depth = 1;
    }
    return done(e, r, st);
}

dvc_status dvc_expr_set_variable(dvc_expr_t e, long index, long nvars, const char *const *varnames)
{
    if (nvars < 0) nvars = 0;
    if (index < 0 || index > nvars)
        return dvc_error(DVC_ERR_INPUT, "variable %ld of %ld (0: t)", index, nvars);
    dvc_expr_t r;
    dvc_expr_init2(r, e->prec);
    dvc_status st = start(r, index == 0 ? "t" : varnames[index - 1], nvars,
                          (char *const *)varnames);
    if (st == DVC_OK) st = reserve(r, 1, 0);
    if (st == DVC_OK) {
        /* what the parser emits for t or a state name */
        r->ins[r->nins++] = (ins_t){OP_VAR, 0, index};
        r->depth = 1;
        if (index == 0) r->uses_t = 1;
        else r->uses_x = 1;
    }
    return done(e, r, st);
}
