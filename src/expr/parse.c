/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Expressions of t: named constants, the object's lifetime, and a
 * recursive-descent parser that compiles the text to a postfix (RPN)
 * program, folding constant subexpressions as it emits (evaluation:
 * eval.c). */
#include "expr/internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int op, arity;
} funcs[] = {
    {"sin", OP_SIN, 1}, {"cos", OP_COS, 1}, {"exp", OP_EXP, 1}, {"log", OP_LOG, 1},
    {"sqrt", OP_SQRT, 1}, {"abs", OP_ABS, 1}, {"min", OP_MIN, 2}, {"max", OP_MAX, 2},
    {"atan", OP_ATAN, 1}, {"tanh", OP_TANH, 1}, {"sinh", OP_SINH, 1}, {"cosh", OP_COSH, 1},
};
#define NFUNCS ((int)(sizeof funcs / sizeof funcs[0]))

/* Integer exponents up to this size use the tight endpoint power. */
#define POWI_MAX (1L << 20)
#define MAX_NEST 200

static int is_reserved(const char *name)
{
    if (strcmp(name, "t") == 0 || strcmp(name, "pi") == 0) return 1;
    for (int i = 0; i < NFUNCS; i++)
        if (strcmp(name, funcs[i].name) == 0) return 1;
    return 0;
}

static int is_identifier(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Named constants                                                      */

void dvc_expr_consts_init2(dvc_expr_consts_t c, mpfr_prec_t prec)
{
    c->n = c->alloc = 0;
    c->name = c->text = NULL;
    c->val = NULL;
    c->prec = prec > 0 ? prec : dvc_prec_get();
}

void dvc_expr_consts_init(dvc_expr_consts_t c) { dvc_expr_consts_init2(c, 0); }

void dvc_expr_consts_clear(dvc_expr_consts_t c)
{
    for (long i = 0; i < c->n; i++) {
        free(c->name[i]);
        free(c->text[i]);
        mpfi_clear(c->val[i]);
    }
    free(c->name);
    free(c->text);
    free(c->val);
    dvc_expr_consts_init(c);
}

long dvc_expr_consts_find(const dvc_expr_consts_t c, const char *name)
{
    if (!c) return -1;
    for (long i = 0; i < c->n; i++)
        if (strcmp(c->name[i], name) == 0) return i;
    return -1;
}

static dvc_status consts_push(dvc_expr_consts_t c, const char *name, const char *text,
                              const mpfi_t v, mpfr_prec_t prec)
{
    if (!is_identifier(name))
        return dvc_error(DVC_ERR_INPUT, "constant name '%s' is not an identifier (letters, digits, '_')",
                         name ? name : "");
    if (is_reserved(name))
        return dvc_error(DVC_ERR_INPUT, "constant name '%s' is reserved (t, pi, function names)", name);
    if (dvc_expr_consts_find(c, name) >= 0)
        return dvc_error(DVC_ERR_INPUT, "constant '%s' is defined twice", name);
    if (c->n == c->alloc) {
        long na = c->alloc ? 2 * c->alloc : 8;
        char **nn = realloc(c->name, (size_t)na * sizeof *nn);
        if (nn) c->name = nn;
        char **nt = realloc(c->text, (size_t)na * sizeof *nt);
        if (nt) c->text = nt;
        mpfi_t *nv = realloc(c->val, (size_t)na * sizeof *nv);
        if (nv) c->val = nv;
        if (!nn || !nt || !nv) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        c->alloc = na;
    }
    long i = c->n;
    mpfi_init2(c->val[i], prec);
    c->name[i] = strdup(name);
    c->text[i] = text ? strdup(text) : NULL;
    if (!c->name[i] || (text && !c->text[i])) {
        free(c->name[i]);
        free(c->text[i]);
        mpfi_clear(c->val[i]);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    if (text) {
        dvc_status st = dvc_ival_set_str(c->val[i], text);
        if (st == DVC_OK && !dvc_ival_is_finite(c->val[i]))
            st = dvc_error(DVC_ERR_INPUT, "'%s' is not a finite number", text);
        if (st != DVC_OK) {
            free(c->name[i]);
            free(c->text[i]);
            mpfi_clear(c->val[i]);
            return dvc_error_context(st, "constant '%s': ", name);
        }
    } else {
        mpfi_set(c->val[i], v);
    }
    c->n++;
    return DVC_OK;
}

dvc_status dvc_expr_consts_add(dvc_expr_consts_t c, const char *name, const mpfi_t v)
{
    if (!dvc_ival_is_finite(v) || !dvc_ival_is_valid(v))
        return dvc_error(DVC_ERR_INPUT, "constant '%s' is not a finite interval", name ? name : "");
    return consts_push(c, name, NULL, v, mpfi_get_prec(v));
}

dvc_status dvc_expr_consts_add_str(dvc_expr_consts_t c, const char *name, const char *decimal)
{
    if (!decimal) return dvc_error(DVC_ERR_INPUT, "constant '%s' has no value", name ? name : "");
    return consts_push(c, name, decimal, NULL, c->prec);
}

dvc_status dvc_expr_consts_add_expr(dvc_expr_consts_t c, const char *name, const char *text)
{
    dvc_expr_t e;
    mpfi_t v, z;
    dvc_status st;
    dvc_expr_init2(e, c->prec);
    mpfi_init2(v, c->prec);
    mpfi_init2(z, c->prec);
    mpfi_set_ui(z, 0);
    st = dvc_expr_parse(e, text, c);
    if (st == DVC_OK && e->uses_t)
        st = dvc_error(DVC_ERR_INPUT, "'%s' depends on t", text);
    if (st == DVC_OK) st = dvc_expr_eval(v, e, z);
    if (st == DVC_OK) st = dvc_expr_consts_add(c, name, v);
    else st = dvc_error_context(st, "constant '%s': ", name ? name : "");
    mpfi_clear(v);
    mpfi_clear(z);
    dvc_expr_clear(e);
    return st;
}

/* ------------------------------------------------------------------ */
/* Object lifetime                                                      */

void dvc_expr_init2(dvc_expr_t e, mpfr_prec_t prec)
{
    memset(e, 0, sizeof *e);
    e->prec = prec;
    for (int i = 0; i < 4; i++) mpfi_init2(e->tmp[i], prec);
}

void dvc_expr_init(dvc_expr_t e) { dvc_expr_init2(e, dvc_prec_get()); }

static void clear_array(mpfi_t *a, long n)
{
    if (!a) return;
    for (long i = 0; i < n; i++) mpfi_clear(a[i]);
    free(a);
}

/* Back to the empty state, keeping the precision and the scratch. */
static void reset(dvc_expr_struct *e)
{
    free(e->text);
    e->text = NULL;
    for (long i = 0; i < e->nvars; i++) free(e->varnames[i]);
    free(e->varnames);
    e->varnames = NULL;
    clear_array(e->var, e->nvars + 1);
    clear_array(e->dvar, e->nvars + 1);
    e->var = e->dvar = NULL;
    e->nvars = 0;
    free(e->ins);
    e->ins = NULL;
    e->nins = e->ains = 0;
    clear_array(e->cst, e->ncst);
    e->cst = NULL;
    e->ncst = e->acst = 0;
    clear_array(e->v, e->depth);
    clear_array(e->d, e->depth);
    e->v = e->d = NULL;
    dvc_expr_fast_free_(e);
    dvc_expr_taylor_free_(e);
    dvc_expr_root_free_(e);
    e->depth = 0;
    e->uses_t = e->uses_x = 0;
}

void dvc_expr_clear(dvc_expr_t e)
{
    reset(e);
    for (int i = 0; i < 4; i++) mpfi_clear(e->tmp[i]);
}

int dvc_expr_uses_t(const dvc_expr_t e) { return e->uses_t; }
int dvc_expr_uses_x(const dvc_expr_t e) { return e->uses_x; }

static mpfi_t *alloc_array(long n, mpfr_prec_t prec)
{
    mpfi_t *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
    if (!a) return NULL;
    for (long i = 0; i < n; i++) mpfi_init2(a[i], prec);
    return a;
}

/* ------------------------------------------------------------------ */
/* Parser                                                               */

enum { TK_END = 0, TK_NUM = 256, TK_NAME = 257 };

typedef struct {
    dvc_expr_struct *e;
    const dvc_expr_consts_struct *c;
    const char *s;
    size_t pos;          /* scan position */
    int tok;             /* current token */
    size_t tstart, tlen; /* its extent */
    long sp, nest;
    mpfi_t f[2];         /* folding stack */
} parser;

static dvc_status perr(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static dvc_status perr(parser *p, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return dvc_error(DVC_ERR_INPUT, "in '%s' at column %zu: %s", p->s, p->tstart + 1, buf);
}

/* Describe the current token for messages. */
static const char *tokdesc(parser *p, char *buf, size_t n)
{
    if (p->tok == TK_END) snprintf(buf, n, "end of expression");
    else snprintf(buf, n, "'%.*s'", (int)(p->tlen > 60 ? 60 : p->tlen), p->s + p->tstart);
    return buf;
}

static dvc_status next(parser *p)
{
    const char *s = p->s;
    size_t i = p->pos;
    while (isspace((unsigned char)s[i])) i++;
    p->tstart = i;
    if (s[i] == '\0') {
        p->tok = TK_END;
        p->tlen = 0;
        p->pos = i;
        return DVC_OK;
    }
    if (isdigit((unsigned char)s[i]) || (s[i] == '.' && isdigit((unsigned char)s[i + 1]))) {
        while (isdigit((unsigned char)s[i])) i++;
        if (s[i] == '.') {
            i++;
            while (isdigit((unsigned char)s[i])) i++;
        }
        if (s[i] == 'e' || s[i] == 'E') {
            size_t j = i + 1;
            if (s[j] == '+' || s[j] == '-') j++;
            if (isdigit((unsigned char)s[j])) {
                while (isdigit((unsigned char)s[j])) j++;
                i = j;
            }
        }
        p->tok = TK_NUM;
        p->tlen = i - p->tstart;
        if (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.') {
            size_t j = i;
            while (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '.') j++;
            p->tlen = j - p->tstart;
            return perr(p, "malformed number '%.*s'", (int)p->tlen, s + p->tstart);
        }
        p->pos = i;
        return DVC_OK;
    }
    if (isalpha((unsigned char)s[i]) || s[i] == '_') {
        while (isalnum((unsigned char)s[i]) || s[i] == '_') i++;
        p->tok = TK_NAME;
        p->tlen = i - p->tstart;
        p->pos = i;
        return DVC_OK;
    }
    if (strchr("+-*/^(),", s[i])) {
        p->tok = (unsigned char)s[i];
        p->tlen = 1;
        p->pos = i + 1;
        return DVC_OK;
    }
    p->tlen = 1;
    return perr(p, "unexpected character '%c'", s[i]);
}

static dvc_status add_const(parser *p, long *idx)
{
    dvc_expr_struct *e = p->e;
    *idx = -1; /* defined on every path (gcc -O3 cannot see it otherwise) */
    if (e->ncst == e->acst) {
        long na = e->acst ? 2 * e->acst : 8;
        mpfi_t *nc = realloc(e->cst, (size_t)na * sizeof *nc);
        if (!nc) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        e->cst = nc;
        e->acst = na;
    }
    mpfi_init2(e->cst[e->ncst], e->prec);
    *idx = e->ncst++;
    return DVC_OK;
}

static dvc_status push_ins(parser *p, int op, long arg, size_t pos)
{
    dvc_expr_struct *e = p->e;
    if (e->nins == e->ains) {
        long na = e->ains ? 2 * e->ains : 16;
        ins_t *ni = realloc(e->ins, (size_t)na * sizeof *ni);
        if (!ni) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        e->ins = ni;
        e->ains = na;
    }
    e->ins[e->nins].op = op;
    e->ins[e->nins].arg = arg;
    e->ins[e->nins].pos = (int)pos;
    e->nins++;
    return DVC_OK;
}

static int last_is_const(parser *p, long k)
{
    return p->e->nins >= k && p->e->ins[p->e->nins - k].op == OP_CONST;
}

/* Emit an operator; when its operands are constants, evaluate it now and
 * emit the result instead (the operands of an operator are the immediately
 * preceding instructions exactly when they are leaves). */
static dvc_status emit(parser *p, int op, long arg, size_t pos)
{
    dvc_expr_struct *e = p->e;
    dvc_status st;
    int arity = (op == OP_CONST || op == OP_VAR) ? 0
              : (op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV || op == OP_POW ||
                 op == OP_MIN || op == OP_MAX) ? 2 : 1;
    if (op == OP_POW && last_is_const(p, 1)) {
        /* Constant integer exponent: tight integer power, no domain limit. */
        mpfi_ptr y = e->cst[e->ins[e->nins - 1].arg];
        if (mpfr_equal_p(&y->left, &y->right) && mpfr_integer_p(&y->left) &&
            mpfr_cmpabs_ui(&y->left, POWI_MAX) <= 0) {
            long n = mpfr_get_si(&y->left, MPFR_RNDN);
            e->nins--;
            p->sp--;
            return emit(p, OP_POWI, n, pos);
        }
    }
    if (arity > 0 && last_is_const(p, arity) && (arity == 1 || last_is_const(p, 1))) {
        ins_t in = {op, (int)pos, arg};
        long sp = arity, idx;
        for (long k = 0; k < arity; k++)
            mpfi_set(p->f[k], e->cst[e->ins[e->nins - arity + k].arg]);
        st = dvc_expr_apply_(e, &in, p->f, NULL, &sp);
        if (st == DVC_ERR_INPUT) return st;
        if (st == DVC_OK) {
            if (!dvc_ival_is_finite(p->f[0]))
                return dvc_expr_fail_(e, DVC_ERR_INPUT, (int)pos, dvc_expr_op_name_(op), NULL,
                                      " overflows in a constant subexpression");
            if ((st = add_const(p, &idx)) != DVC_OK) return st;
            mpfi_set(e->cst[idx], p->f[0]);
            e->nins -= arity;
            p->sp -= arity;
            return emit(p, OP_CONST, idx, pos);
        }
        /* Not decidable at this precision: leave it to run time. */
        dvc_error_reset();
    }
    if ((st = push_ins(p, op, arg, pos)) != DVC_OK) return st;
    p->sp += 1 - arity;
    if (p->sp > e->depth) e->depth = p->sp;
    return DVC_OK;
}

static dvc_status parse_sum(parser *p);
static dvc_status parse_unary(parser *p);

static dvc_status parse_primary(parser *p)
{
    dvc_expr_struct *e = p->e;
    dvc_status st;
    char buf[80];
    if (p->tok == TK_NUM) {
        char *num = strndup(p->s + p->tstart, p->tlen);
        long idx;
        if (!num) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        if ((st = add_const(p, &idx)) != DVC_OK) {
            free(num);
            return st;
        }
        st = dvc_ival_set_str(e->cst[idx], num);
        if (st != DVC_OK || !dvc_ival_is_finite(e->cst[idx]))
            st = perr(p, "number '%s' is malformed or out of range", num);
        free(num);
        if (st != DVC_OK) return st;
        if ((st = emit(p, OP_CONST, idx, p->tstart)) != DVC_OK) return st;
        return next(p);
    }
    if (p->tok == TK_NAME) {
        char name[64];
        size_t pos = p->tstart;
        size_t j = p->pos;
        if (p->tlen >= sizeof name) return perr(p, "name too long");
        memcpy(name, p->s + p->tstart, p->tlen);
        name[p->tlen] = '\0';
        while (isspace((unsigned char)p->s[j])) j++;
        if (p->s[j] == '(') {
            int f;
            long nargs = 0;
            for (f = 0; f < NFUNCS; f++)
                if (strcmp(name, funcs[f].name) == 0) break;
            if (f == NFUNCS)
                return perr(p, "unknown function '%s' (known: sin cos exp log sqrt abs min max atan tanh sinh cosh)", name);
            if ((st = next(p)) != DVC_OK) return st; /* '(' */
            if ((st = next(p)) != DVC_OK) return st;
            for (;;) {
                if ((st = parse_sum(p)) != DVC_OK) return st;
                nargs++;
                if (p->tok == ',') {
                    if ((st = next(p)) != DVC_OK) return st;
                    continue;
                }
                if (p->tok == ')') break;
                return perr(p, "expected ',' or ')' in the arguments of '%s', found %s", name,
                            tokdesc(p, buf, sizeof buf));
            }
            if (nargs != funcs[f].arity)
                return dvc_error(DVC_ERR_INPUT,
                                 "in '%s' at column %zu: function '%s' takes %d argument%s, got %ld",
                                 p->s, pos + 1, name, funcs[f].arity, funcs[f].arity == 1 ? "" : "s",
                                 nargs);
            if ((st = emit(p, funcs[f].op, 0, pos)) != DVC_OK) return st;
            return next(p);
        }
        if (strcmp(name, "t") == 0) {
            e->uses_t = 1;
            if ((st = emit(p, OP_VAR, 0, pos)) != DVC_OK) return st;
            return next(p);
        }
        for (long i = 0; i < e->nvars; i++)
            if (strcmp(name, e->varnames[i]) == 0) {
                e->uses_x = 1;
                if ((st = emit(p, OP_VAR, i + 1, pos)) != DVC_OK) return st;
                return next(p);
            }
        if (strcmp(name, "pi") == 0) {
            long idx;
            if ((st = add_const(p, &idx)) != DVC_OK) return st;
            mpfi_const_pi(e->cst[idx]);
            if ((st = emit(p, OP_CONST, idx, pos)) != DVC_OK) return st;
            return next(p);
        }
        {
            long k = dvc_expr_consts_find(p->c, name), idx;
            if (k >= 0) {
                if ((st = add_const(p, &idx)) != DVC_OK) return st;
                if (p->c->text[k]) {
                    if ((st = dvc_ival_set_str(e->cst[idx], p->c->text[k])) != DVC_OK)
                        return dvc_error_context(st, "constant '%s': ", name);
                } else {
                    mpfi_set(e->cst[idx], p->c->val[k]);
                }
                if ((st = emit(p, OP_CONST, idx, pos)) != DVC_OK) return st;
                return next(p);
            }
        }
        for (int f = 0; f < NFUNCS; f++)
            if (strcmp(name, funcs[f].name) == 0)
                return perr(p, "function '%s' needs an argument list, e.g. %s(t)", name, name);
        return perr(p, "unknown name '%s' (expected t, pi, a defined constant%s)", name,
                    e->nvars > 0 ? " or a variable" : "");
    }
    if (p->tok == '(') {
        size_t open = p->tstart;
        if ((st = next(p)) != DVC_OK) return st;
        if ((st = parse_sum(p)) != DVC_OK) return st;
        if (p->tok != ')')
            return perr(p, "expected ')' to close the '(' at column %zu, found %s", open + 1,
                        tokdesc(p, buf, sizeof buf));
        return next(p);
    }
    return perr(p, "expected a number, a name or '(', found %s", tokdesc(p, buf, sizeof buf));
}

static dvc_status parse_power(parser *p)
{
    dvc_status st = parse_primary(p);
    if (st != DVC_OK) return st;
    if (p->tok == '^') {
        size_t pos = p->tstart;
        if ((st = next(p)) != DVC_OK) return st;
        if ((st = parse_unary(p)) != DVC_OK) return st; /* right-associative */
        return emit(p, OP_POW, 0, pos);
    }
    return DVC_OK;
}

static dvc_status parse_unary(parser *p)
{
    dvc_status st;
    if (++p->nest > MAX_NEST) return perr(p, "expression nested too deeply");
    if (p->tok == '-' || p->tok == '+') {
        int neg = p->tok == '-';
        size_t pos = p->tstart;
        if ((st = next(p)) != DVC_OK) return st;
        if ((st = parse_unary(p)) != DVC_OK) return st;
        if (neg && (st = emit(p, OP_NEG, 0, pos)) != DVC_OK) return st;
    } else if ((st = parse_power(p)) != DVC_OK) {
        return st;
    }
    p->nest--;
    return DVC_OK;
}

static dvc_status parse_prod(parser *p)
{
    dvc_status st = parse_unary(p);
    while (st == DVC_OK && (p->tok == '*' || p->tok == '/')) {
        int op = p->tok == '*' ? OP_MUL : OP_DIV;
        size_t pos = p->tstart;
        if ((st = next(p)) != DVC_OK) return st;
        if ((st = parse_unary(p)) != DVC_OK) return st;
        st = emit(p, op, 0, pos);
    }
    return st;
}

static dvc_status parse_sum(parser *p)
{
    dvc_status st;
    if (++p->nest > MAX_NEST) return perr(p, "expression nested too deeply");
    st = parse_prod(p);
    while (st == DVC_OK && (p->tok == '+' || p->tok == '-')) {
        int op = p->tok == '+' ? OP_ADD : OP_SUB;
        size_t pos = p->tstart;
        if ((st = next(p)) != DVC_OK) return st;
        if ((st = parse_prod(p)) != DVC_OK) return st;
        st = emit(p, op, 0, pos);
    }
    p->nest--;
    return st;
}

dvc_status dvc_expr_parse_vars(dvc_expr_t e, const char *text, const dvc_expr_consts_t consts,
                               long nvars, const char *const *varnames)
{
    parser p;
    dvc_status st = DVC_OK;
    char buf[80];
    reset(e);
    if (!text) return dvc_error(DVC_ERR_INPUT, "missing expression");
    if (nvars < 0) nvars = 0;
    for (long i = 0; i < nvars; i++) {
        if (!is_identifier(varnames[i]) || is_reserved(varnames[i]))
            return dvc_error(DVC_ERR_INPUT, "variable name '%s' is not a valid, unreserved identifier",
                             varnames[i] ? varnames[i] : "");
        if (dvc_expr_consts_find(consts, varnames[i]) >= 0)
            return dvc_error(DVC_ERR_INPUT, "'%s' is both a variable and a constant", varnames[i]);
    }
    e->text = strdup(text);
    e->varnames = calloc((size_t)(nvars > 0 ? nvars : 1), sizeof *e->varnames);
    e->var = alloc_array(nvars + 1, e->prec);
    e->dvar = alloc_array(nvars + 1, e->prec);
    if (!e->text || !e->varnames || !e->var || !e->dvar) {
        reset(e);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    e->nvars = nvars;
    for (long i = 0; i < nvars; i++)
        if (!(e->varnames[i] = strdup(varnames[i]))) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st != DVC_OK) {
        reset(e);
        return st;
    }

    memset(&p, 0, sizeof p);
    p.e = e;
    p.c = consts;
    p.s = e->text;
    mpfi_init2(p.f[0], e->prec);
    mpfi_init2(p.f[1], e->prec);
    st = next(&p);
    if (st == DVC_OK && p.tok == TK_END) st = dvc_error(DVC_ERR_INPUT, "empty expression");
    if (st == DVC_OK) st = parse_sum(&p);
    if (st == DVC_OK && p.tok != TK_END)
        st = perr(&p, "unexpected %s", tokdesc(&p, buf, sizeof buf));
    mpfi_clear(p.f[0]);
    mpfi_clear(p.f[1]);
    if (st == DVC_OK) {
        e->v = alloc_array(e->depth, e->prec);
        e->d = alloc_array(e->depth, e->prec);
        if (!e->v || !e->d) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    if (st == DVC_OK) st = dvc_expr_fast_alloc_(e);
    if (st != DVC_OK) reset(e);
    return st;
}

dvc_status dvc_expr_parse(dvc_expr_t e, const char *text, const dvc_expr_consts_t consts)
{
    return dvc_expr_parse_vars(e, text, consts, 0, NULL);
}

dvc_status dvc_expr_set_const(dvc_expr_t e, const mpfi_t c)
{
    char *s;
    dvc_status st;
    dvc_expr_consts_t k;
    if (!dvc_ival_is_finite(c) || !dvc_ival_is_valid(c))
        return dvc_error(DVC_ERR_INPUT, "constant function: not a finite interval");
    dvc_expr_consts_init(k);
    st = dvc_expr_consts_add(k, "c", c);
    if (st == DVC_OK) st = dvc_expr_parse(e, "c", k);
    if (st == DVC_OK) {
        /* Show the value, not the placeholder name, in messages. */
        s = dvc_ival_str(c, 17);
        if (s) {
            free(e->text);
            e->text = s;
        }
    }
    dvc_expr_consts_clear(k);
    return st;
}
