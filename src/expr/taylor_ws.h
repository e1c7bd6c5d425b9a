/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to Taylor mode (taylor.c, taylor_dd.c): the workspace kept in a
 * compiled expression, with the MPFI series and their binary64 shadow. */
#ifndef DVC_EXPR_TAYLOR_WS_H
#define DVC_EXPR_TAYLOR_WS_H

#include "expr/elem.h"
#include "expr/internal.h"

struct dvc_expr_taylor_s {
    long cap;         /* coefficients 0..cap per series */
    long nser;        /* series in the pool */
    mpfi_t *pool;     /* nser * (cap + 1) intervals at the expression's precision */
    long *base;       /* per instruction: its first series (the result) */
    long *opa, *opb;  /* per instruction: the operands' instructions (-1: none) */
    long res;         /* instruction holding the program's value */
    mpfi_t t0, t1;    /* scratch */
    /* the binary64 route (taylor_dd.c): the same series as dvc_di, laid
     * out as pool; dd_ok: the program can take it (53 bits, every literal
     * exact, every operation with a rule there); dd_on: the current
     * expansion is on it (coefficients 0..dd_k-1 are in dpool only) */
    dvc_di *dpool;
    int dd_ok, dd_on;
    long dd_k;
};

/* Prepares the binary64 route after the workspace is built: dpool and
 * its literals, dd_ok. Returns nonzero only when out of memory. */
int dvc_expr_taylor_dd_setup_(const dvc_expr_struct *e, struct dvc_expr_taylor_s *w);
/* Coefficient k of every instruction on the binary64 route, reading
 * coefficient k of vars (coefficients 0..k-1 of every series are those of
 * the previous calls). 0: done, out set, and every value is exactly the
 * one the MPFI route computes at 53 bits; nonzero: not proven (a domain
 * condition, overflow, a subnormal or an unbounded value), the caller
 * runs the MPFI route from coefficient 0. */
int dvc_expr_taylor_dd_next_(mpfi_t out, const dvc_expr_struct *e, mpfi_t *const *vars, long k);

/* The series of a solution of x' = f(t, x), n states, on this route at
 * once (hyb_state_series of a field mode): for k = 0..K-1 and each i,
 * x_i's coefficient k+1 = coefficient k of f_i / (k+1), that is
 * dvc_expr_taylor_next_ then mpfi_div_ui at 64 bits, the order and the
 * operations of those calls, with the divisions in x87 extended precision
 * and no conversion through MPFI in between. vars: t's series (read) and
 * x_1..x_n (coefficient 0 read, 1..K written), all at 64 bits; every f_i
 * just begun (dvc_expr_taylor_begin_ with order >= K-1) on this route.
 * 0: done, each x_i's coefficients 1..K MPFI's bit for bit; nonzero:
 * nothing written (the caller runs the calls). */
int dvc_expr_taylor_dd_state_(mpfi_t *const *vars, const dvc_expr_t *f, long n, long K);

#endif
