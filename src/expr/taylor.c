/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Taylor-mode automatic differentiation on the compiled expression program:
 * each stack entry is a truncated power series (K+1 interval coefficients)
 * and every operator applies the classical recurrences (Moore 1966; Griewank
 * & Walther, ch. 13). With interval inputs, every output coefficient
 * encloses the true coefficient for every point of the inputs, because each
 * recurrence is a finite composition of interval operations. */
#include <stdlib.h>
#include "expr/internal.h"

typedef struct {
    const dvc_expr_struct *e;
    long K;
    mpfi_t t0, t1;
    mpfi_t *w1, *w2, *w3; /* scratch series */
} tctx;

/* c = a * b (Cauchy product, coefficients 0..K); c must not alias a, b. */
static void ser_mul(tctx *x, mpfi_t *c, mpfi_t *a, mpfi_t *b)
{
    for (long k = 0; k <= x->K; k++) {
        mpfi_set_ui(c[k], 0);
        for (long i = 0; i <= k; i++) {
            mpfi_mul(x->t0, a[i], b[k - i]);
            mpfi_add(c[k], c[k], x->t0);
        }
    }
}

/* c = a / b (b[0] must exclude 0); c must not alias a, b. */
static void ser_div(tctx *x, mpfi_t *c, mpfi_t *a, mpfi_t *b)
{
    for (long k = 0; k <= x->K; k++) {
        mpfi_set(x->t1, a[k]);
        for (long i = 1; i <= k; i++) {
            mpfi_mul(x->t0, b[i], c[k - i]);
            mpfi_sub(x->t1, x->t1, x->t0);
        }
        mpfi_div(c[k], x->t1, b[0]);
    }
}

/* c = exp(a); c must not alias a. */
static void ser_exp(tctx *x, mpfi_t *c, mpfi_t *a)
{
    mpfi_exp(c[0], a[0]);
    for (long k = 1; k <= x->K; k++) {
        mpfi_set_ui(x->t1, 0);
        for (long i = 1; i <= k; i++) {
            mpfi_mul(x->t0, a[i], c[k - i]);
            mpfi_mul_ui(x->t0, x->t0, (unsigned long)i);
            mpfi_add(x->t1, x->t1, x->t0);
        }
        mpfi_div_ui(c[k], x->t1, (unsigned long)k);
    }
}

/* s = sin(a), c = cos(a); neither aliases a or each other. */
static void ser_sincos(tctx *x, mpfi_t *s, mpfi_t *c, mpfi_t *a)
{
    dvc_ival_sin(s[0], a[0]);
    dvc_ival_cos(c[0], a[0]);
    for (long k = 1; k <= x->K; k++) {
        mpfi_set_ui(s[k], 0);
        mpfi_set_ui(c[k], 0);
        for (long i = 1; i <= k; i++) {
            mpfi_mul(x->t0, a[i], c[k - i]);
            mpfi_mul_ui(x->t0, x->t0, (unsigned long)i);
            mpfi_add(s[k], s[k], x->t0);
            mpfi_mul(x->t0, a[i], s[k - i]);
            mpfi_mul_ui(x->t0, x->t0, (unsigned long)i);
            mpfi_sub(c[k], c[k], x->t0);
        }
        mpfi_div_ui(s[k], s[k], (unsigned long)k);
        mpfi_div_ui(c[k], c[k], (unsigned long)k);
    }
}

/* c = log(a) (a[0] > 0). */
static void ser_log(tctx *x, mpfi_t *c, mpfi_t *a)
{
    mpfi_log(c[0], a[0]);
    for (long k = 1; k <= x->K; k++) {
        mpfi_mul_ui(x->t1, a[k], (unsigned long)k);
        for (long i = 1; i < k; i++) {
            mpfi_mul(x->t0, c[i], a[k - i]);
            mpfi_mul_ui(x->t0, x->t0, (unsigned long)i);
            mpfi_sub(x->t1, x->t1, x->t0);
        }
        mpfi_div_ui(x->t1, x->t1, (unsigned long)k);
        mpfi_div(c[k], x->t1, a[0]);
    }
}

/* c = sqrt(a) (a[0] > 0). */
static void ser_sqrt(tctx *x, mpfi_t *c, mpfi_t *a)
{
    mpfi_sqrt(c[0], a[0]);
    for (long k = 1; k <= x->K; k++) {
        mpfi_set(x->t1, a[k]);
        for (long i = 1; i < k; i++) {
            mpfi_mul(x->t0, c[i], c[k - i]);
            mpfi_sub(x->t1, x->t1, x->t0);
        }
        mpfi_mul_ui(x->t0, c[0], 2);
        mpfi_div(c[k], x->t1, x->t0);
    }
}

static mpfi_t *ser_new(long K, mpfr_prec_t prec)
{
    mpfi_t *s = malloc((size_t)(K + 1) * sizeof *s);
    if (!s) return NULL;
    for (long k = 0; k <= K; k++) mpfi_init2(s[k], prec);
    return s;
}

static void ser_free(mpfi_t *s, long K)
{
    if (!s) return;
    for (long k = 0; k <= K; k++) mpfi_clear(s[k]);
    free(s);
}

/* a <- a^n for the integer exponent n of in, by repeated products (and a
 * series division when n < 0). */
static dvc_status ser_powi(tctx *x, const ins_t *in, mpfi_t *a)
{
    long K = x->K, n = in->arg < 0 ? -in->arg : in->arg;
    mpfi_t *w1 = x->w1, *w2 = x->w2, *w3 = x->w3;
    /* w2 = a^n by repeated products */
    mpfi_set_ui(w2[0], 1);
    for (long k = 1; k <= K; k++) mpfi_set_ui(w2[k], 0);
    for (long i = 0; i < n; i++) {
        ser_mul(x, w1, w2, a);
        for (long k = 0; k <= K; k++) mpfi_set(w2[k], w1[k]);
    }
    if (in->arg < 0) {
        if (mpfi_has_zero(w2[0]))
            return dvc_expr_fail_(x->e, DVC_NOT_CERTIFIED, in->pos, "negative power of ", a[0],
                                  ", which contains 0");
        mpfi_set_ui(w3[0], 1);
        for (long k = 1; k <= K; k++) mpfi_set_ui(w3[k], 0);
        ser_div(x, w1, w3, w2);
        for (long k = 0; k <= K; k++) mpfi_set(w2[k], w1[k]);
    }
    for (long k = 0; k <= K; k++) mpfi_set(a[k], w2[k]);
    return DVC_OK;
}

/* One operator on the series a (and b, the second operand of a binary
 * one); the result in a. */
static dvc_status ser_op(tctx *x, const ins_t *in, mpfi_t *a, mpfi_t *b)
{
    const dvc_expr_struct *e = x->e;
    long K = x->K;
    mpfi_t *w1 = x->w1, *w2 = x->w2, *w3 = x->w3;
    switch (in->op) {
    case OP_NEG:
        for (long k = 0; k <= K; k++) mpfi_neg(a[k], a[k]);
        break;
    case OP_ADD:
        for (long k = 0; k <= K; k++) mpfi_add(a[k], a[k], b[k]);
        break;
    case OP_SUB:
        for (long k = 0; k <= K; k++) mpfi_sub(a[k], a[k], b[k]);
        break;
    case OP_MUL:
        ser_mul(x, w1, a, b);
        for (long k = 0; k <= K; k++) mpfi_set(a[k], w1[k]);
        break;
    case OP_DIV:
        if (mpfi_has_zero(b[0]))
            return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, "division by ", b[0],
                                  ", which contains 0 (the quotient is unbounded)");
        ser_div(x, w1, a, b);
        for (long k = 0; k <= K; k++) mpfi_set(a[k], w1[k]);
        break;
    case OP_POWI:
        return ser_powi(x, in, a);
    case OP_POW: /* a^b = exp(b log a), a > 0 */
    case OP_LOG:
        if (!dvc_ival_is_pos(a[0]))
            return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, dvc_expr_op_name_(in->op), a[0],
                                  " needs a positive argument");
        ser_log(x, w1, a);
        if (in->op == OP_LOG) {
            for (long k = 0; k <= K; k++) mpfi_set(a[k], w1[k]);
        } else {
            ser_mul(x, w2, w1, b);
            ser_exp(x, a, w2);
        }
        break;
    case OP_SQRT:
        if (!dvc_ival_is_pos(a[0]))
            return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, "sqrt", a[0],
                                  " needs a positive argument in Taylor mode");
        ser_sqrt(x, w1, a);
        for (long k = 0; k <= K; k++) mpfi_set(a[k], w1[k]);
        break;
    case OP_EXP:
        ser_exp(x, w1, a);
        for (long k = 0; k <= K; k++) mpfi_set(a[k], w1[k]);
        break;
    case OP_SIN:
    case OP_COS:
        ser_sincos(x, w1, w2, a);
        for (long k = 0; k <= K; k++) mpfi_set(a[k], in->op == OP_SIN ? w1[k] : w2[k]);
        break;
    case OP_SINH:
    case OP_COSH:
    case OP_TANH: /* from e^a and e^-a */
        ser_exp(x, w1, a);
        for (long k = 0; k <= K; k++) mpfi_neg(w3[k], a[k]);
        ser_exp(x, w2, w3);
        for (long k = 0; k <= K; k++) {
            mpfi_sub(w3[k], w1[k], w2[k]); /* 2 sinh */
            mpfi_add(w2[k], w1[k], w2[k]); /* 2 cosh */
        }
        if (in->op == OP_TANH) {
            ser_div(x, a, w3, w2);
        } else {
            for (long k = 0; k <= K; k++)
                mpfi_div_ui(a[k], in->op == OP_SINH ? w3[k] : w2[k], 2);
        }
        break;
    default:
        return dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, dvc_expr_op_name_(in->op), NULL,
                              " has no Taylor-mode rule (not smooth or not implemented)");
    }
    return DVC_OK;
}

dvc_status dvc_expr_taylor_(mpfi_t *out, const dvc_expr_struct *e, mpfi_t *const *vars, long K)
{
    if (e->nins == 0) return dvc_error(DVC_ERR_INPUT, "empty expression (nothing parsed)");
    if (K < 0) return dvc_error(DVC_ERR_INPUT, "Taylor order %ld < 0", K);
    tctx x;
    x.e = e;
    x.K = K;
    mpfi_init2(x.t0, e->prec);
    mpfi_init2(x.t1, e->prec);
    long depth = e->depth + 1;
    /* depth value series plus three scratch series */
    mpfi_t **st = calloc((size_t)(depth + 3), sizeof *st);
    dvc_status rc = DVC_OK;
    if (!st) {
        rc = dvc_error(DVC_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (long i = 0; i < depth + 3; i++) {
        st[i] = ser_new(K, e->prec);
        if (!st[i]) {
            rc = dvc_error(DVC_ERR_NOMEM, "out of memory");
            goto done;
        }
    }
    x.w1 = st[depth];
    x.w2 = st[depth + 1];
    x.w3 = st[depth + 2];
    long sp = 0;
    for (long p = 0; p < e->nins; p++) {
        const ins_t *in = &e->ins[p];
        mpfi_t *a = sp >= 1 ? st[sp - 1] : NULL, *b = NULL;
        int binary = in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MUL ||
                     in->op == OP_DIV || in->op == OP_POW || in->op == OP_MIN ||
                     in->op == OP_MAX;
        if (in->op == OP_CONST) {
            mpfi_set(st[sp][0], e->cst[in->arg]);
            for (long k = 1; k <= K; k++) mpfi_set_ui(st[sp][k], 0);
            sp++;
            continue;
        }
        if (in->op == OP_VAR) {
            for (long k = 0; k <= K; k++) mpfi_set(st[sp][k], vars[in->arg][k]);
            sp++;
            continue;
        }
        if (binary) {
            a = st[sp - 2];
            b = st[sp - 1];
        }
        rc = ser_op(&x, in, a, b);
        if (rc != DVC_OK) goto done;
        if (binary) sp--;
        for (long k = 0; k <= K; k++)
            if (!dvc_ival_is_finite(st[sp - 1][k])) {
                rc = dvc_expr_fail_(e, DVC_NOT_CERTIFIED, in->pos, dvc_expr_op_name_(in->op), NULL,
                                    ": a Taylor coefficient is unbounded (no information)");
                goto done;
            }
    }
    for (long k = 0; k <= K; k++) mpfi_set(out[k], st[0][k]);
done:
    if (st) {
        for (long i = 0; i < depth + 3; i++) ser_free(st[i], K);
        free(st);
    }
    mpfi_clear(x.t0);
    mpfi_clear(x.t1);
    return rc;
}
