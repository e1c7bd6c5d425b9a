/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Evaluation of compiled expressions (parse.c): the program runs on
 * preallocated value / tangent stacks, so an evaluation allocates nothing;
 * the tangents give forward-mode enclosures of derivatives. */
#include "expr/internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Evaluation kernel                                                    */

const char *dvc_expr_op_name_(int op)
{
    switch (op) {
    case OP_NEG: return "negation";
    case OP_ADD: return "'+'";
    case OP_SUB: return "'-'";
    case OP_MUL: return "'*'";
    case OP_DIV: return "'/'";
    case OP_POWI: case OP_POW: return "'^'";
    case OP_SIN: return "sin";
    case OP_COS: return "cos";
    case OP_EXP: return "exp";
    case OP_LOG: return "log";
    case OP_SQRT: return "sqrt";
    case OP_ABS: return "abs";
    case OP_MIN: return "min";
    case OP_MAX: return "max";
    case OP_ATAN: return "atan";
    case OP_TANH: return "tanh";
    case OP_SINH: return "sinh";
    case OP_COSH: return "cosh";
    case OP_ROOT: return "the implicit algebraic variable";
    default: return "operation";
    }
}

/* Message "in 'text' at column c: <what> [x]<tail>". */
dvc_status dvc_expr_fail_(const dvc_expr_struct *e, dvc_status code, int pos, const char *what,
                          const mpfi_t x, const char *tail)
{
    char *xs = x ? dvc_ival_str(x, 8) : NULL;
    dvc_status st = dvc_error(code, "in '%s' at column %d: %s%s%s", e->text ? e->text : "",
                              pos + 1, what, xs ? xs : "", tail ? tail : "");
    free(xs);
    return st;
}

/* e->tmp[3] <- u^n for an integer n (tight: endpoint powers with directed
 * rounding); u must not contain 0 when n < 0 (checked by the caller). */
static void powi(dvc_expr_struct *e, const mpfi_t u, long n)
{
    mpfi_ptr r = e->tmp[3];
    unsigned long m = (unsigned long)(n < 0 ? -n : n);
    mpfr_srcptr lo = &u->left, hi = &u->right;
    if (m == 0) {
        mpfi_set_ui(r, 1);
    } else if (m % 2 == 1 || mpfr_sgn(lo) >= 0) {
        mpfr_pow_ui(&r->left, lo, m, MPFR_RNDD);
        mpfr_pow_ui(&r->right, hi, m, MPFR_RNDU);
    } else if (mpfr_sgn(hi) <= 0) {
        mpfr_pow_ui(&r->left, hi, m, MPFR_RNDD);
        mpfr_pow_ui(&r->right, lo, m, MPFR_RNDU);
    } else {
        /* 0 inside: [0, max(|lo|, hi)^m] */
        if (mpfr_cmpabs(lo, hi) > 0) mpfr_pow_ui(&r->right, lo, m, MPFR_RNDU);
        else mpfr_pow_ui(&r->right, hi, m, MPFR_RNDU);
        mpfr_set_zero(&r->left, 1);
    }
    if (n < 0) mpfi_inv(r, r);
}

static int is_point_zero(const mpfi_t x)
{
    return mpfr_zero_p(&x->left) && mpfr_zero_p(&x->right);
}

/* Negation, + - * / and powers (d: with the tangents). */
static dvc_status apply_arith(dvc_expr_struct *e, const ins_t *in, mpfi_ptr a, mpfi_ptr b,
                              mpfi_ptr da, mpfi_ptr db, int d)
{
    mpfi_ptr t0 = e->tmp[0], t1 = e->tmp[1], t2 = e->tmp[2];
    switch (in->op) {
    case OP_NEG:
        mpfi_neg(a, a);
        if (d) mpfi_neg(da, da);
        break;
    case OP_ADD:
        mpfi_add(a, a, b);
        if (d) mpfi_add(da, da, db);
        break;
    case OP_SUB:
        mpfi_sub(a, a, b);
        if (d) mpfi_sub(da, da, db);
        break;
    case OP_MUL:
        if (d) {
            mpfi_mul(t0, da, b);
            mpfi_mul(t1, a, db);
            mpfi_add(da, t0, t1);
        }
        mpfi_mul(a, a, b);
        break;
    case OP_DIV:
        if (mpfi_has_zero(b)) {
            if (is_point_zero(b))
                return dvc_expr_fail_(e, DVC_ERR_INPUT, in->pos, "division by zero", NULL, NULL);
            return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, "division by ", b,
                                  ", which contains 0 (the quotient is unbounded)");
        }
        mpfi_div(a, a, b);
        if (d) { /* (u/v)' = (u' - (u/v) v') / v */
            mpfi_mul(t0, a, db);
            mpfi_sub(t0, da, t0);
            mpfi_div(da, t0, b);
        }
        break;
    case OP_POWI:
        if (in->arg < 0 && mpfi_has_zero(a)) {
            if (is_point_zero(a))
                return dvc_expr_fail_(e, DVC_ERR_INPUT, in->pos, "negative power of zero", NULL, NULL);
            return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, "negative power of ", a,
                                  ", which contains 0 (unbounded)");
        }
        if (d) {
            if (in->arg == 0) {
                mpfi_set_ui(da, 0);
            } else {
                powi(e, a, in->arg - 1);
                mpfi_mul_si(t0, e->tmp[3], in->arg);
                mpfi_mul(da, da, t0);
            }
        }
        powi(e, a, in->arg);
        mpfi_set(a, e->tmp[3]);
        break;
    case OP_POW:
        if (!dvc_ival_is_pos(a)) {
            dvc_status code = dvc_ival_is_nonpos(a) ? DVC_ERR_INPUT : DVC_NOT_CERTIFIED;
            return dvc_expr_fail_(e, code, in->pos,
                                  "x^y with a non-integer or non-constant exponent needs x > 0; x = ",
                                  a, NULL);
        }
        mpfi_log(t0, a);
        if (d) { /* (u^w)' = u^w (w' log u + w u'/u) */
            mpfi_div(t1, da, a);
            mpfi_mul(t1, t1, b);
            mpfi_mul(t2, db, t0);
            mpfi_add(t1, t1, t2);
        }
        mpfi_mul(t0, t0, b);
        mpfi_exp(a, t0);
        if (d) mpfi_mul(da, a, t1);
        break;
    default:
        break;
    }
    return DVC_OK;
}

/* Elementary functions and abs, with their domain conditions (d: with the
 * tangents). */
static dvc_status apply_elem(dvc_expr_struct *e, const ins_t *in, mpfi_ptr a, mpfi_ptr da, int d)
{
    mpfi_ptr t0 = e->tmp[0];
    switch (in->op) {
    case OP_SIN:
        if (d) {
            dvc_ival_cos(t0, a);
            mpfi_mul(da, da, t0);
        }
        dvc_ival_sin(a, a);
        break;
    case OP_COS:
        if (d) {
            dvc_ival_sin(t0, a);
            mpfi_neg(t0, t0);
            mpfi_mul(da, da, t0);
        }
        dvc_ival_cos(a, a);
        break;
    case OP_EXP:
        mpfi_exp(a, a);
        if (d) mpfi_mul(da, da, a);
        break;
    case OP_LOG:
        if (!dvc_ival_is_pos(a)) {
            dvc_status code = dvc_ival_is_nonpos(a) ? DVC_ERR_INPUT : DVC_NOT_CERTIFIED;
            return dvc_expr_fail_(e, code, in->pos, "log of ", a,
                                  code == DVC_ERR_INPUT ? ", which is not positive" : ", which reaches 0 or below");
        }
        if (d) mpfi_div(da, da, a);
        mpfi_log(a, a);
        break;
    case OP_SQRT:
        if (!dvc_ival_is_nonneg(a)) {
            dvc_status code = dvc_ival_is_neg(a) ? DVC_ERR_INPUT : DVC_NOT_CERTIFIED;
            return dvc_expr_fail_(e, code, in->pos, "sqrt of ", a,
                                  code == DVC_ERR_INPUT ? ", which is negative" : ", which reaches below 0");
        }
        if (d && !dvc_ival_is_pos(a))
            return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, "derivative of sqrt at ", a,
                                  ", which contains 0 (unbounded derivative)");
        mpfi_sqrt(a, a);
        if (d) {
            mpfi_div(da, da, a);
            mpfi_div_2ui(da, da, 1);
        }
        break;
    case OP_ATAN:
        if (d) { /* 1/(1+u^2) */
            mpfi_sqr(t0, a);
            mpfi_add_ui(t0, t0, 1);
            mpfi_div(da, da, t0);
        }
        mpfi_atan(a, a);
        break;
    case OP_TANH:
        mpfi_tanh(a, a);
        if (d) { /* 1 - tanh(u)^2 */
            mpfi_sqr(t0, a);
            mpfi_ui_sub(t0, 1, t0);
            mpfi_mul(da, da, t0);
        }
        break;
    case OP_SINH:
        if (d) {
            mpfi_cosh(t0, a);
            mpfi_mul(da, da, t0);
        }
        mpfi_sinh(a, a);
        break;
    case OP_COSH:
        if (d) {
            mpfi_sinh(t0, a);
            mpfi_mul(da, da, t0);
        }
        mpfi_cosh(a, a);
        break;
    case OP_ABS:
        if (d && !dvc_ival_is_pos(a)) {
            if (dvc_ival_is_neg(a)) {
                mpfi_neg(da, da);
            } else { /* kink inside: hull of the one-sided derivatives */
                mpfr_abs(&t0->left, &da->left, MPFR_RNDU);
                mpfr_abs(&t0->right, &da->right, MPFR_RNDU);
                mpfr_max(&t0->right, &t0->right, &t0->left, MPFR_RNDU);
                mpfr_neg(&t0->left, &t0->right, MPFR_RNDD);
                mpfi_set(da, t0);
            }
        }
        mpfi_abs(a, a);
        break;
    default:
        break;
    }
    return DVC_OK;
}

/* min and max: the operand below the other everywhere, else the hull. */
static void apply_minmax(const ins_t *in, mpfi_ptr a, mpfi_ptr b, mpfi_ptr da, mpfi_ptr db, int d)
{
    int ismin = in->op == OP_MIN;
    int a_below = mpfr_cmp(&a->right, &b->left) < 0; /* a < b everywhere */
    int b_below = mpfr_cmp(&b->right, &a->left) < 0;
    if ((ismin && b_below) || (!ismin && a_below)) {
        mpfi_set(a, b);
        if (d) mpfi_set(da, db);
    } else if ((ismin && a_below) || (!ismin && b_below)) {
        /* a already holds the result */
    } else {
        if (ismin) {
            mpfr_min(&a->left, &a->left, &b->left, MPFR_RNDD);
            mpfr_min(&a->right, &a->right, &b->right, MPFR_RNDU);
        } else {
            mpfr_max(&a->left, &a->left, &b->left, MPFR_RNDD);
            mpfr_max(&a->right, &a->right, &b->right, MPFR_RNDU);
        }
        if (d) mpfi_union(da, da, db);
    }
}

/* Apply one operator to the top of the stacks (d == NULL: values only). */
dvc_status dvc_expr_apply_(dvc_expr_struct *e, const ins_t *in, mpfi_t *v, mpfi_t *d, long *spp)
{
    long sp = *spp;
    mpfi_ptr a, b = NULL, da = NULL, db = NULL;
    dvc_status st = DVC_OK;
    int binary = in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MUL || in->op == OP_DIV ||
                 in->op == OP_POW || in->op == OP_MIN || in->op == OP_MAX;
    if (binary) {
        a = v[sp - 2];
        b = v[sp - 1];
        if (d) {
            da = d[sp - 2];
            db = d[sp - 1];
        }
        sp--;
    } else {
        a = v[sp - 1];
        if (d) da = d[sp - 1];
    }
    switch (in->op) {
    case OP_NEG: case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_POWI: case OP_POW:
        st = apply_arith(e, in, a, b, da, db, d != NULL);
        break;
    case OP_SIN: case OP_COS: case OP_EXP: case OP_LOG: case OP_SQRT: case OP_ATAN:
    case OP_TANH: case OP_SINH: case OP_COSH: case OP_ABS:
        st = apply_elem(e, in, a, da, d != NULL);
        break;
    case OP_MIN:
    case OP_MAX:
        apply_minmax(in, a, b, da, db, d != NULL);
        break;
    default:
        return dvc_error(DVC_ERR_INTERNAL, "expression: bad instruction %d", in->op);
    }
    if (st != DVC_OK) return st;
    if (mpfi_nan_p(a) || (d && mpfi_nan_p(da)))
        return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, dvc_expr_op_name_(in->op), NULL,
                              " produced NaN (no information)");
    *spp = sp;
    return DVC_OK;
}

static dvc_status run_mpfi(dvc_expr_struct *e, int deriv);

static dvc_status run(dvc_expr_struct *e, int deriv)
{
    if (e->nins == 0) return dvc_error(DVC_ERR_INPUT, "empty expression (nothing parsed)");
    /* 53 bits: binary64 intervals first; MPFI when they prove nothing */
    if (dvc_expr_fast_run_(e, deriv) == 0) return DVC_OK;
    return run_mpfi(e, deriv);
}

/* The MPFI program (e->var, and e->dvar when deriv, loaded). */
static dvc_status run_mpfi(dvc_expr_struct *e, int deriv)
{
    long sp = 0;
    for (long i = 0; i < e->nins; i++) {
        const ins_t *in = &e->ins[i];
        if (in->op == OP_CONST) {
            mpfi_set(e->v[sp], e->cst[in->arg]);
            if (deriv) mpfi_set_ui(e->d[sp], 0);
            sp++;
        } else if (in->op == OP_VAR) {
            mpfi_set(e->v[sp], e->var[in->arg]);
            if (deriv) mpfi_set(e->d[sp], e->dvar[in->arg]);
            sp++;
        } else if (in->op == OP_ROOT) {
            dvc_status st = dvc_expr_root_eval_(e, e->v[sp], deriv ? e->d[sp] : NULL);
            if (st != DVC_OK) return st;
            sp++;
        } else {
            dvc_status st = dvc_expr_apply_(e, in, e->v, deriv ? e->d : NULL, &sp);
            if (st != DVC_OK) return st;
        }
    }
    if (!dvc_ival_is_finite(e->v[0]) || (deriv && !dvc_ival_is_finite(e->d[0])))
        return dvc_error(DVC_NOT_CERTIFIED, "in '%s': the %s is unbounded (overflow)", e->text,
                         dvc_ival_is_finite(e->v[0]) ? "derivative" : "value");
    return DVC_OK;
}

/* ------------------------------------------------------------------ */
/* Public evaluation                                                    */

/* copy 0: the checks alone (run_tx loads e->var when it needs them). */
static dvc_status load_vars_(dvc_expr_struct *e, const mpfi_t T, const dvc_ivec_struct *X, int copy)
{
    if (!dvc_ival_is_valid(T) || !dvc_ival_is_finite(T)) {
        char *ts = dvc_ival_str(T, 8);
        dvc_status st = dvc_error(DVC_ERR_INPUT, "in '%s': t = %s is not a finite interval",
                                  e->text ? e->text : "", ts ? ts : "?");
        free(ts);
        return st;
    }
    if (e->nins == 0) return dvc_error(DVC_ERR_INPUT, "empty expression (nothing parsed)");
    if (copy) mpfi_set(e->var[0], T);
    if (e->nvars > 0) {
        if (!X) {
            if (e->uses_x)
                return dvc_error(DVC_ERR_INPUT, "in '%s': the expression depends on %s, but no value was given",
                                 e->text, e->varnames[0]);
            for (long i = 1; i <= e->nvars && copy; i++) mpfi_set_ui(e->var[i], 0);
            return DVC_OK;
        }
        if (X->n != e->nvars)
            return dvc_error(DVC_ERR_INPUT, "in '%s': %ld variables expected, %ld given", e->text,
                             e->nvars, X->n);
        for (long i = 0; i < e->nvars; i++) {
            if (!dvc_ival_is_valid(X->e[i]) || !dvc_ival_is_finite(X->e[i]))
                return dvc_error(DVC_ERR_INPUT, "in '%s': %s is not a finite interval", e->text,
                                 e->varnames[i]);
            if (copy) mpfi_set(e->var[i + 1], X->e[i]);
        }
    }
    return DVC_OK;
}

static dvc_status load_vars(dvc_expr_struct *e, const mpfi_t T, const dvc_ivec_struct *X)
{
    return load_vars_(e, T, X, 1);
}

/* run after load_vars_(e, T, X, 0) succeeded: the binary64 path reads T
 * and X (the same doubles as from e->var); e->var is loaded only for MPFI. */
static dvc_status run_tx(dvc_expr_struct *e, int deriv, const mpfi_t T, const dvc_ivec_struct *X,
                         int *fast)
{
    if (fast) *fast = 0;
    if (dvc_expr_fast_run_tx_(e, deriv, T, X) == 0) {
        if (fast) *fast = 1;
        return DVC_OK;
    }
    (void)load_vars(e, T, X); /* checked: DVC_OK */
    return run_mpfi(e, deriv);
}

dvc_status dvc_expr_eval_x(mpfi_t r, const dvc_expr_t e, const mpfi_t T, const dvc_ivec_t X)
{
    /* Scratch is written through the struct's pointers: see the header. */
    dvc_expr_struct *w = (dvc_expr_struct *)e;
    dvc_status st = load_vars_(w, T, X, 0);
    if (st == DVC_OK) st = run_tx(w, 0, T, X, NULL);
    if (st == DVC_OK) mpfi_set(r, w->v[0]);
    return st;
}

dvc_status dvc_expr_eval(mpfi_t r, const dvc_expr_t e, const mpfi_t T)
{
    return dvc_expr_eval_x(r, e, T, NULL);
}

dvc_status dvc_expr_eval_tangent(mpfi_t f, mpfi_t df, const dvc_expr_t e, const mpfi_t T,
                                 const dvc_ivec_t X, const mpfi_t dT, const dvc_ivec_t dX)
{
    dvc_expr_struct *w = (dvc_expr_struct *)e;
    dvc_status st = load_vars(w, T, X);
    if (st != DVC_OK) return st;
    if (!dvc_ival_is_valid(dT) || !dvc_ival_is_finite(dT))
        return dvc_error(DVC_ERR_INPUT, "in '%s': direction dt is not a finite interval", w->text);
    mpfi_set(w->dvar[0], dT);
    for (long i = 0; i < w->nvars; i++) {
        if (dX && dX->n != w->nvars)
            return dvc_error(DVC_ERR_INPUT, "in '%s': direction has %ld entries, %ld expected", w->text,
                             dX->n, w->nvars);
        if (dX && (!dvc_ival_is_valid(dX->e[i]) || !dvc_ival_is_finite(dX->e[i])))
            return dvc_error(DVC_ERR_INPUT, "in '%s': direction for %s is not a finite interval",
                             w->text, w->varnames[i]);
        if (dX) mpfi_set(w->dvar[i + 1], dX->e[i]);
        else mpfi_set_ui(w->dvar[i + 1], 0);
    }
    st = run(w, 1);
    if (st == DVC_OK) {
        if (f) mpfi_set(f, w->v[0]);
        mpfi_set(df, w->d[0]);
    }
    return st;
}

dvc_status dvc_expr_eval_d1(mpfi_t f, mpfi_t df, const dvc_expr_t e, const mpfi_t T)
{
    mpfi_ptr one = ((dvc_expr_struct *)e)->tmp[2];
    if (e->uses_x)
        return dvc_error(DVC_ERR_INPUT, "in '%s': the expression depends on variables besides t", e->text);
    mpfi_set_ui(one, 1); /* tmp[2] is copied into dvar before the run uses it */
    return dvc_expr_eval_tangent(f, df, e, T, NULL, one, NULL);
}

dvc_status dvc_expr_grad(mpfi_t f, dvc_ivec_t grad, const dvc_expr_t e, const mpfi_t T,
                         const dvc_ivec_t X)
{
    dvc_expr_struct *w = (dvc_expr_struct *)e;
    dvc_status st = load_vars(w, T, X);
    if (st != DVC_OK) return st;
    if (grad->n != w->nvars + 1) dvc_ivec_resize(grad, w->nvars + 1);
    for (long j = 0; j <= w->nvars; j++) {
        for (long i = 0; i <= w->nvars; i++) mpfi_set_ui(w->dvar[i], i == j ? 1 : 0);
        if ((st = run(w, 1)) != DVC_OK) return st;
        mpfi_set(grad->e[j], w->d[0]);
    }
    if (f) mpfi_set(f, w->v[0]);
    return DVC_OK;
}

dvc_status dvc_expr_grad_x_(dvc_ivec_t grad, const dvc_expr_t e, const mpfi_t T, const dvc_ivec_t X)
{
    dvc_expr_struct *w = (dvc_expr_struct *)e;
    if (w->uses_t || w->nvars < 1) return dvc_expr_grad(NULL, grad, e, T, X);
    dvc_status st = load_vars_(w, T, X, 0);
    if (st != DVC_OK) return st;
    if (grad->n != w->nvars + 1) dvc_ivec_resize(grad, w->nvars + 1);
    int fast = 0, any_fast = 0;
    for (long j = 1; j <= w->nvars; j++) {
        for (long i = 0; i <= w->nvars; i++) mpfi_set_ui(w->dvar[i], i == j ? 1 : 0);
        /* a failure: dvc_expr_grad's own order (t pass first) and message */
        if (run_tx(w, 1, T, X, &fast) != DVC_OK) return dvc_expr_grad(NULL, grad, e, T, X);
        any_fast |= fast;
        mpfi_set(grad->e[j], w->d[0]);
    }
    if (any_fast) return DVC_OK;
    /* Only the binary64 path's success proves that the t pass (tangents
     * all 0, values as above, every value finite) would have succeeded:
     * otherwise run it, so that failures are dvc_expr_grad's. */
    for (long i = 0; i <= w->nvars; i++) mpfi_set_ui(w->dvar[i], i == 0 ? 1 : 0);
    return run_tx(w, 1, T, X, NULL);
}

dvc_status dvc_expr_lipschitz(mpfr_t L, const dvc_expr_t e, const mpfi_t T)
{
    dvc_expr_struct *w = (dvc_expr_struct *)e;
    dvc_status st = dvc_expr_eval_d1(NULL, w->tmp[1], e, T);
    if (st != DVC_OK) return st;
    dvc_ival_mag(L, w->tmp[1]);
    return DVC_OK;
}
