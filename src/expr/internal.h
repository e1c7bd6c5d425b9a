/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the expression module (src/expr/): the compiled program shared
 * by the parser (parse.c: text -> postfix program, constant folding) and
 * the evaluator (eval.c: intervals and forward-mode derivative enclosures). */
#ifndef DVC_EXPR_INTERNAL_H
#define DVC_EXPR_INTERNAL_H

#include "dvicert/expr.h"

enum {
    OP_CONST, OP_VAR, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POWI, OP_POW,
    OP_SIN, OP_COS, OP_EXP, OP_LOG, OP_SQRT, OP_ABS, OP_MIN, OP_MAX,
    OP_ATAN, OP_TANH, OP_SINH, OP_COSH,
    OP_ROOT /* leaf: the implicit algebraic variable (root.c, e->root) */
};

struct dvc_expr_ins_s {
    int op;
    int pos;  /* 0-based column of the token, for messages */
    long arg; /* constant or variable index, or the integer exponent */
};
typedef struct dvc_expr_ins_s ins_t;

/* Name of an operator for messages ("'+'", "sin"). */
const char *dvc_expr_op_name_(int op);

/* Message "in 'text' at column pos+1: <what> [x]<tail>" with status code. */
dvc_status dvc_expr_fail_(const dvc_expr_struct *e, dvc_status code, int pos, const char *what,
                          const mpfi_t x, const char *tail);

/* Apply one operator to the top of the stacks v (and d, the tangents; NULL:
 * values only) whose height is *spp; used by the evaluator and, on
 * constant operands, by the parser's folding. */
dvc_status dvc_expr_apply_(dvc_expr_struct *e, const ins_t *in, mpfi_t *v, mpfi_t *d, long *spp);

/* Taylor mode (taylor.c): out[0..K] encloses the Taylor coefficients, in
 * the expansion variable s, of e evaluated along the series vars[0] (t) and
 * vars[1..nvars] (the state), each with K+1 coefficients at e->prec (the
 * coefficients may be intervals: the expansion point may be a box). Same
 * three outcomes as dvc_expr_eval; abs, min, max and atan have no Taylor
 * rule here (DVC_NOT_CERTIFIED naming the operation). */
dvc_status dvc_expr_taylor_(mpfi_t *out, const dvc_expr_struct *e, mpfi_t *const *vars, long K);
/* The same one coefficient at a time: begin(e, K) makes room for orders
 * up to K in e's workspace; next(out, e, vars, k) for k = 0, 1, ..., K in
 * turn sets out to coefficient k, reading coefficients 0..k of vars (so
 * vars[.][k] may be filled from coefficient k-1 of the output). Results
 * bit-identical to dvc_expr_taylor_'s; one expansion at a time per e. */
dvc_status dvc_expr_taylor_begin_(const dvc_expr_struct *e, long K);
dvc_status dvc_expr_taylor_next_(mpfi_t out, const dvc_expr_struct *e, mpfi_t *const *vars, long k);
/* Frees the Taylor workspace (on reset of the program). */
void dvc_expr_taylor_free_(dvc_expr_struct *e);

/* The binary64 fast path (feval.c, elem.c). alloc: after a successful
 * parse (the literal pool is final); free: on reset. run: e->var (and
 * e->dvar when deriv) loaded; returns 0 with the result in e->v[0] (and
 * e->d[0]), or nonzero when the caller must run the MPFI program (the
 * precision is not 53 bits, or the fast path could not prove a finite
 * enclosure). */
dvc_status dvc_expr_fast_alloc_(dvc_expr_struct *e);
void dvc_expr_fast_free_(dvc_expr_struct *e);
int dvc_expr_fast_run_(dvc_expr_struct *e, int deriv);
/* The same run with t and x read from T and X (load_vars checked them; X
 * NULL: x = 0) instead of e->var, which is not written: the same doubles,
 * as rounding outward to 53 bits (load_vars) and then to binary64 is
 * rounding outward to binary64 at once. */
int dvc_expr_fast_run_tx_(dvc_expr_struct *e, int deriv, const mpfi_t T, const dvc_ivec_struct *X);
/* The same program on variables given as binary64 intervals (var[0..nvars]:
 * t, x1..xn, each the outward rounding to binary64 of the MPFI route's
 * input, finite and outside the subnormal range; dvar their tangents when d
 * is not NULL), the FPU already in FE_UPWARD in both units (the caller's
 * window, as dvc_li_begin_ opens it): 0 with the value in *v (and the
 * tangent in *d), MPFI's results at 53 bits; nonzero: not proven (the
 * caller runs the MPFI route). */
struct dvc_di_s;
int dvc_expr_fast_run_di_(const dvc_expr_struct *e, const struct dvc_di_s *var,
                          const struct dvc_di_s *dvar, struct dvc_di_s *v, struct dvc_di_s *d);
/* dvc_expr_eval_vd1's one pass (feval.c): 0 with f0 = f(T0) and df1 the
 * derivative over T1, nonzero when the caller must evaluate them apart. */
int dvc_expr_fast_vd_(dvc_expr_struct *e, mpfi_t f0, mpfi_t df1, const mpfi_t T0, const mpfi_t T1);
/* dvc_expr_grad(NULL, grad, e, T, X) without df/dt (grad->e[0] is left
 * unset): the same x entries and the same failures (on one, the whole of
 * dvc_expr_grad is run); the t pass of an expression free of t cannot fail
 * once the binary64 path has run the program on these values (every value
 * finite, its tangents all 0), and is skipped then. */
dvc_status dvc_expr_grad_x_(dvc_ivec_t grad, const dvc_expr_t e, const mpfi_t T, const dvc_ivec_t X);
/* Tests and benchmarks: 0 switches the fast path off (process-wide). */
void dvc_expr_fast_enable_(int on);
int dvc_expr_fast_enabled_(void);

/* The implicit node (root.c, docs/dae.md section 1.2). make: e and g
 * parsed over the same variables (x1..xn, z); every z of e becomes the
 * node, e is then over x1..xn, and owns a copy of g, the enclosure z0 and
 * what (for messages). eval: the node's value (and tangent when d) over
 * e->var (and e->dvar). taylor: coefficient k of the node's series r,
 * after 0..k-1, along vars (t, x1..xn), with room for cap coefficients. */
dvc_status dvc_expr_root_make_(dvc_expr_t e, const dvc_expr_t g, const mpfi_t z0, const char *what);
dvc_status dvc_expr_root_eval_(dvc_expr_struct *e, mpfi_ptr v, mpfi_ptr d);
dvc_status dvc_expr_root_taylor_(const dvc_expr_struct *e, mpfi_t *r, mpfi_t *const *vars, long k,
                                 long cap);
void dvc_expr_root_free_(dvc_expr_struct *e);

#endif
