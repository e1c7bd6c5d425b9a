/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Taylor-mode automatic differentiation on the compiled expression program:
 * every instruction owns a truncated power series (K+1 interval
 * coefficients, plus the auxiliary series of its recurrence) and every
 * operator applies the classical recurrences (Moore 1966; Griewank &
 * Walther, ch. 13). With interval inputs, every output coefficient encloses
 * the true coefficient for every point of the inputs, because each
 * recurrence is a finite composition of interval operations.
 *
 * Coefficient k of an instruction depends only on coefficients 0..k of its
 * operands and 0..k-1 of its own series, so the series can be computed one
 * coefficient at a time (dvc_expr_taylor_next_): a solution's series, where
 * coefficient k of x is known only after coefficient k-1 of f, costs O(K^2)
 * instead of O(K^3) re-expansions. Each coefficient is the same sequence of
 * interval operations either way, so the enclosures are bit-identical.
 * The series live in a workspace kept in the expression (allocated on first
 * use, grown when a higher order is asked, freed with the program), so no
 * interval is created or freed per call. */
#include <stdlib.h>
#include "expr/taylor_ws.h"

typedef struct {
    const dvc_expr_struct *e;
    struct dvc_expr_taylor_s *w;
    mpfi_t *const *vars;
} tctx;

static int is_binary(int op)
{
    return op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV || op == OP_POW ||
           op == OP_MIN || op == OP_MAX;
}

static int is_leaf(const ins_t *in)
{
    return in->op == OP_CONST || in->op == OP_VAR || in->op == OP_ROOT;
}

/* Number of series of an instruction: its result and the auxiliary series
 * its recurrence keeps (see node_k). */
static long nseries(const ins_t *in)
{
    switch (in->op) {
    case OP_SIN:
    case OP_COS: return 2;
    case OP_POW: return 3;
    case OP_SINH:
    case OP_COSH:
    case OP_TANH: return 6;
    case OP_POWI: return 3 + (in->arg < 0 ? -in->arg : in->arg);
    default: return 1;
    }
}

void dvc_expr_taylor_free_(dvc_expr_struct *e)
{
    struct dvc_expr_taylor_s *w = e->taylor;
    if (!w) return;
    if (w->pool)
        for (long i = 0; i < w->nser * (w->cap + 1); i++) mpfi_clear(w->pool[i]);
    free(w->pool);
    free(w->base);
    free(w->opa);
    free(w->opb);
    free(w->dpool);
    mpfi_clear(w->t0);
    mpfi_clear(w->t1);
    free(w);
    e->taylor = NULL;
}

/* The workspace of e with room for coefficients 0..K (its contents are
 * lost when it grows). */
static dvc_status workspace(const dvc_expr_struct *ec, long K)
{
    dvc_expr_struct *e = (dvc_expr_struct *)ec;
    if (e->taylor && e->taylor->cap >= K) return DVC_OK;
    dvc_expr_taylor_free_(e);
    struct dvc_expr_taylor_s *w = calloc(1, sizeof *w);
    if (!w) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    mpfi_init2(w->t0, e->prec);
    mpfi_init2(w->t1, e->prec);
    e->taylor = w; /* from here dvc_expr_taylor_free_ undoes every step */
    long n = e->nins, *stk = malloc((size_t)n * sizeof *stk);
    w->base = malloc((size_t)n * sizeof *w->base);
    w->opa = malloc((size_t)n * sizeof *w->opa);
    w->opb = malloc((size_t)n * sizeof *w->opb);
    dvc_status st = DVC_OK;
    if (!stk || !w->base || !w->opa || !w->opb) {
        st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        goto out;
    }
    /* the operands of each instruction, by running the stack on indices */
    long sp = 0, nser = 0;
    for (long p = 0; p < n && st == DVC_OK; p++) {
        const ins_t *in = &e->ins[p];
        w->opa[p] = w->opb[p] = -1;
        if (!is_leaf(in)) {
            if (sp < 1 + is_binary(in->op)) {
                st = dvc_error(DVC_ERR_INTERNAL, "expression '%s': malformed program", e->text);
                break;
            }
            if (is_binary(in->op)) w->opb[p] = stk[--sp];
            w->opa[p] = stk[--sp];
        }
        stk[sp++] = p;
        w->base[p] = nser;
        nser += nseries(in);
    }
    if (st == DVC_OK && sp != 1)
        st = dvc_error(DVC_ERR_INTERNAL, "expression '%s': malformed program", e->text);
    if (st != DVC_OK) goto out;
    w->res = stk[0];
    w->pool = malloc((size_t)(nser * (K + 1)) * sizeof *w->pool);
    if (!w->pool) {
        st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        goto out;
    }
    w->cap = K;
    w->nser = nser;
    for (long i = 0; i < nser * (K + 1); i++) mpfi_init2(w->pool[i], e->prec);
    if (dvc_expr_taylor_dd_setup_(e, w)) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
out:
    free(stk);
    if (st != DVC_OK) dvc_expr_taylor_free_(e);
    return st;
}

/* Series j of instruction p. */
static mpfi_t *ser(const tctx *x, long p, long j)
{
    return x->w->pool + (x->w->base[p] + j) * (x->w->cap + 1);
}

/* Coefficient k of c = a * b. */
static void mul_k(tctx *x, mpfi_t *c, mpfi_t *a, mpfi_t *b, long k)
{
    mpfi_set_ui(c[k], 0);
    for (long i = 0; i <= k; i++) {
        mpfi_mul(x->w->t0, a[i], b[k - i]);
        mpfi_add(c[k], c[k], x->w->t0);
    }
}

/* Coefficient k of c = a * b when one factor is a constant's series (its
 * coefficients 1..k exact zeros; ca: a is, else b is): the Cauchy sum of
 * mul_k has one term that may be nonzero, t = a_0 b_k (or a_k b_0); the
 * others are 0 times a finite coefficient, zero intervals. When t has no
 * zero endpoint, adding zeros to it and it to 0 is exact in every rounding
 * direction, so mul_k's sum is t bit for bit, and t alone is computed;
 * otherwise (a zero endpoint, whose sign the additions may change, or an
 * unbounded coefficient) the sum is formed as mul_k does. */
static void mul_k_const(tctx *x, mpfi_t *c, mpfi_t *a, mpfi_t *b, long k, int ca)
{
    mpfi_t *v = ca ? b : a; /* the other factor: v_0..v_{k-1} meet the zeros */
    int ok = 1;
    for (long j = 0; j < k && ok; j++) ok = mpfi_bounded_p(v[j]);
    if (ok) {
        mpfi_mul(x->w->t0, ca ? a[0] : a[k], ca ? b[k] : b[0]);
        ok = mpfi_bounded_p(x->w->t0) && !mpfr_zero_p(&x->w->t0->left) &&
             !mpfr_zero_p(&x->w->t0->right);
    }
    if (ok) mpfi_set(c[k], x->w->t0);
    else mul_k(x, c, a, b, k);
}

/* Coefficient k of c = a / b (b[0] excludes 0). */
static void div_k(tctx *x, mpfi_t *c, mpfi_t *a, mpfi_t *b, long k)
{
    mpfi_set(x->w->t1, a[k]);
    for (long i = 1; i <= k; i++) {
        mpfi_mul(x->w->t0, b[i], c[k - i]);
        mpfi_sub(x->w->t1, x->w->t1, x->w->t0);
    }
    mpfi_div(c[k], x->w->t1, b[0]);
}

/* Coefficient k of c = exp(a). */
static void exp_k(tctx *x, mpfi_t *c, mpfi_t *a, long k)
{
    if (k == 0) {
        mpfi_exp(c[0], a[0]);
        return;
    }
    mpfi_set_ui(x->w->t1, 0);
    for (long i = 1; i <= k; i++) {
        mpfi_mul(x->w->t0, a[i], c[k - i]);
        mpfi_mul_ui(x->w->t0, x->w->t0, (unsigned long)i);
        mpfi_add(x->w->t1, x->w->t1, x->w->t0);
    }
    mpfi_div_ui(c[k], x->w->t1, (unsigned long)k);
}

/* Coefficient k of s = sin(a) and c = cos(a). */
static void sincos_k(tctx *x, mpfi_t *s, mpfi_t *c, mpfi_t *a, long k)
{
    if (k == 0) {
        dvc_ival_sin(s[0], a[0]);
        dvc_ival_cos(c[0], a[0]);
        return;
    }
    mpfi_set_ui(s[k], 0);
    mpfi_set_ui(c[k], 0);
    for (long i = 1; i <= k; i++) {
        mpfi_mul(x->w->t0, a[i], c[k - i]);
        mpfi_mul_ui(x->w->t0, x->w->t0, (unsigned long)i);
        mpfi_add(s[k], s[k], x->w->t0);
        mpfi_mul(x->w->t0, a[i], s[k - i]);
        mpfi_mul_ui(x->w->t0, x->w->t0, (unsigned long)i);
        mpfi_sub(c[k], c[k], x->w->t0);
    }
    mpfi_div_ui(s[k], s[k], (unsigned long)k);
    mpfi_div_ui(c[k], c[k], (unsigned long)k);
}

/* Coefficient k of c = log(a) (a[0] > 0). */
static void log_k(tctx *x, mpfi_t *c, mpfi_t *a, long k)
{
    if (k == 0) {
        mpfi_log(c[0], a[0]);
        return;
    }
    mpfi_mul_ui(x->w->t1, a[k], (unsigned long)k);
    for (long i = 1; i < k; i++) {
        mpfi_mul(x->w->t0, c[i], a[k - i]);
        mpfi_mul_ui(x->w->t0, x->w->t0, (unsigned long)i);
        mpfi_sub(x->w->t1, x->w->t1, x->w->t0);
    }
    mpfi_div_ui(x->w->t1, x->w->t1, (unsigned long)k);
    mpfi_div(c[k], x->w->t1, a[0]);
}

/* Coefficient k of c = sqrt(a) (a[0] > 0). */
static void sqrt_k(tctx *x, mpfi_t *c, mpfi_t *a, long k)
{
    if (k == 0) {
        mpfi_sqrt(c[0], a[0]);
        return;
    }
    mpfi_set(x->w->t1, a[k]);
    for (long i = 1; i < k; i++) {
        mpfi_mul(x->w->t0, c[i], c[k - i]);
        mpfi_sub(x->w->t1, x->w->t1, x->w->t0);
    }
    mpfi_mul_ui(x->w->t0, c[0], 2);
    mpfi_div(c[k], x->w->t1, x->w->t0);
}

/* Coefficient k of a^n for the integer exponent n of instruction p: the
 * powers p_0 = 1, p_j = p_{j-1} a (series 1..n+1), and for n < 0 the
 * quotient 1 / p_|n| (series n+2). */
static dvc_status powi_k(tctx *x, long p, mpfi_t *r, mpfi_t *a, long k)
{
    const ins_t *in = &x->e->ins[p];
    long n = in->arg < 0 ? -in->arg : in->arg;
    mpfi_t *one = ser(x, p, 1), *pn = ser(x, p, 1 + n);
    mpfi_set_ui(one[k], k == 0 ? 1 : 0);
    for (long j = 1; j <= n; j++) { /* p_0 = 1 is a constant's series */
        if (j == 1) mul_k_const(x, ser(x, p, 2), one, a, k, 1);
        else mul_k(x, ser(x, p, 1 + j), ser(x, p, j), a, k);
    }
    if (in->arg < 0) {
        if (mpfi_has_zero(pn[0]))
            return dvc_expr_fail_(x->e, DVC_NOT_CERTIFIED, in->pos, "negative power of ", a[0],
                                  ", which contains 0");
        mpfi_t *q = ser(x, p, 2 + n);
        div_k(x, q, one, pn, k);
        pn = q;
    }
    mpfi_set(r[k], pn[k]);
    return DVC_OK;
}

/* Coefficient k of instruction p, from coefficients 0..k of its operands
 * and 0..k-1 of its own series. */
static dvc_status node_k(tctx *x, long p, long k)
{
    const dvc_expr_struct *e = x->e;
    const ins_t *in = &e->ins[p];
    mpfi_t *r = ser(x, p, 0);
    mpfi_t *a = x->w->opa[p] >= 0 ? ser(x, x->w->opa[p], 0) : NULL;
    mpfi_t *b = x->w->opb[p] >= 0 ? ser(x, x->w->opb[p], 0) : NULL;
    switch (in->op) {
    case OP_CONST:
        if (k == 0) mpfi_set(r[0], e->cst[in->arg]);
        else mpfi_set_ui(r[k], 0);
        break;
    case OP_VAR:
        mpfi_set(r[k], x->vars[in->arg][k]);
        break;
    case OP_ROOT:
        return dvc_expr_root_taylor_(e, r, x->vars, k, x->w->cap);
    case OP_NEG:
        mpfi_neg(r[k], a[k]);
        break;
    case OP_ADD:
        mpfi_add(r[k], a[k], b[k]);
        break;
    case OP_SUB:
        mpfi_sub(r[k], a[k], b[k]);
        break;
    case OP_MUL:
        if (e->ins[x->w->opa[p]].op == OP_CONST || e->ins[x->w->opb[p]].op == OP_CONST)
            mul_k_const(x, r, a, b, k, e->ins[x->w->opa[p]].op == OP_CONST);
        else
            mul_k(x, r, a, b, k);
        break;
    case OP_DIV:
        if (mpfi_has_zero(b[0]))
            return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, "division by ", b[0],
                                  ", which contains 0 (the quotient is unbounded)");
        div_k(x, r, a, b, k);
        break;
    case OP_POWI:
        return powi_k(x, p, r, a, k);
    case OP_POW: /* a^b = exp(b log a), a > 0 */
    case OP_LOG:
        if (!dvc_ival_is_pos(a[0]))
            return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, dvc_expr_op_name_(in->op), a[0],
                                  " needs a positive argument");
        if (in->op == OP_LOG) {
            log_k(x, r, a, k);
        } else {
            log_k(x, ser(x, p, 1), a, k);
            mul_k(x, ser(x, p, 2), ser(x, p, 1), b, k);
            exp_k(x, r, ser(x, p, 2), k);
        }
        break;
    case OP_SQRT:
        if (!dvc_ival_is_pos(a[0]))
            return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, "sqrt", a[0],
                                  " needs a positive argument in Taylor mode");
        sqrt_k(x, r, a, k);
        break;
    case OP_EXP:
        exp_k(x, r, a, k);
        break;
    case OP_SIN:
        sincos_k(x, r, ser(x, p, 1), a, k);
        break;
    case OP_COS:
        sincos_k(x, ser(x, p, 1), r, a, k);
        break;
    case OP_SINH:
    case OP_COSH:
    case OP_TANH: { /* from e^a and e^-a: series e^a, -a, e^-a, 2 sinh, 2 cosh */
        mpfi_t *ep = ser(x, p, 1), *na = ser(x, p, 2), *em = ser(x, p, 3);
        mpfi_t *s2 = ser(x, p, 4), *c2 = ser(x, p, 5);
        exp_k(x, ep, a, k);
        mpfi_neg(na[k], a[k]);
        exp_k(x, em, na, k);
        mpfi_sub(s2[k], ep[k], em[k]);
        mpfi_add(c2[k], ep[k], em[k]);
        if (in->op == OP_TANH) div_k(x, r, s2, c2, k);
        else mpfi_div_ui(r[k], in->op == OP_SINH ? s2[k] : c2[k], 2);
        break;
    }
    default:
        return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, dvc_expr_op_name_(in->op), NULL,
                              " has no Taylor-mode rule (not smooth or not implemented)");
    }
    return DVC_OK;
}

static dvc_status unbounded(const tctx *x, long p)
{
    const ins_t *in = &x->e->ins[p];
    return dvc_expr_fail_(x->e, DVC_NOT_CERTIFIED, in->pos, dvc_expr_op_name_(in->op), NULL,
                          ": a Taylor coefficient is unbounded (no information)");
}

dvc_status dvc_expr_taylor_(mpfi_t *out, const dvc_expr_struct *e, mpfi_t *const *vars, long K)
{
    if (e->nins == 0) return dvc_error(DVC_ERR_INPUT, "empty expression (nothing parsed)");
    if (K < 0) return dvc_error(DVC_ERR_INPUT, "Taylor order %ld < 0", K);
    dvc_status rc = workspace(e, K);
    if (rc != DVC_OK) return rc;
    tctx x = {e, e->taylor, vars};
    /* instruction by instruction, all coefficients, then their check: the
     * first failure is the one of the first failing instruction */
    for (long p = 0; p < e->nins; p++) {
        for (long k = 0; k <= K; k++) {
            rc = node_k(&x, p, k);
            if (rc != DVC_OK) return rc;
        }
        if (is_leaf(&e->ins[p])) continue;
        mpfi_t *r = ser(&x, p, 0);
        for (long k = 0; k <= K; k++)
            if (!dvc_ival_is_finite(r[k])) return unbounded(&x, p);
    }
    mpfi_t *r = ser(&x, x.w->res, 0);
    for (long k = 0; k <= K; k++) mpfi_set(out[k], r[k]);
    return DVC_OK;
}

dvc_status dvc_expr_taylor_begin_(const dvc_expr_struct *e, long K)
{
    if (e->nins == 0) return dvc_error(DVC_ERR_INPUT, "empty expression (nothing parsed)");
    if (K < 0) return dvc_error(DVC_ERR_INPUT, "Taylor order %ld < 0", K);
    dvc_status st = workspace(e, K);
    if (st == DVC_OK) { /* the binary64 route first (taylor_dd.c) */
        e->taylor->dd_on = e->taylor->dd_ok && dvc_expr_fast_enabled_();
        e->taylor->dd_k = 0;
    }
    return st;
}

/* Coefficient k of every instruction on the MPFI route. */
static dvc_status next_mpfi(tctx *x, long k)
{
    const dvc_expr_struct *e = x->e;
    for (long p = 0; p < e->nins; p++) {
        dvc_status rc = node_k(x, p, k);
        if (rc != DVC_OK) return rc;
        if (!is_leaf(&e->ins[p]) && !dvc_ival_is_finite(ser(x, p, 0)[k])) return unbounded(x, p);
    }
    return DVC_OK;
}

dvc_status dvc_expr_taylor_next_(mpfi_t out, const dvc_expr_struct *e, mpfi_t *const *vars, long k)
{
    struct dvc_expr_taylor_s *w = e->taylor;
    if (!w || k < 0 || k > w->cap)
        return dvc_error(DVC_ERR_INTERNAL, "Taylor coefficient %ld outside the workspace", k);
    tctx x = {e, w, vars};
    if (w->dd_on) {
        if (k == w->dd_k && dvc_expr_taylor_dd_next_(out, e, vars, k) == 0) {
            w->dd_k = k + 1;
            return DVC_OK;
        }
        /* not proven there: the MPFI route from coefficient 0 (the same
         * operations: coefficients 0..k-1 come out as before) */
        w->dd_on = 0;
        for (long j = 0; j < k; j++) {
            dvc_status rc = next_mpfi(&x, j);
            if (rc != DVC_OK) return rc;
        }
    }
    dvc_status rc = next_mpfi(&x, k);
    if (rc == DVC_OK) mpfi_set(out, ser(&x, x.w->res, 0)[k]);
    return rc;
}
