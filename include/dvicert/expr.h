/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Expressions of t (and optionally of named state variables x1..xn), parsed
 * once and evaluated many times in interval arithmetic, with forward-mode
 * derivative enclosures for rigorous Lipschitz constants.
 * Grammar and semantics: docs/expressions.md. */
#ifndef DVICERT_EXPR_H
#define DVICERT_EXPR_H

#include "dvicert/ival.h"
#include "dvicert/ivec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Named constants supplied by a problem file ({"gamma": "0.2"}) ---- */

typedef struct {
    long n, alloc;
    char **name;
    char **text;   /* decimal source text, or NULL when given as an interval */
    mpfi_t *val;   /* enclosure (at the precision it was given or parsed at) */
    mpfr_prec_t prec; /* precision of constants given as text or expressions */
} dvc_expr_consts_struct;
typedef dvc_expr_consts_struct dvc_expr_consts_t[1];

/* An empty table whose text constants are enclosed at prec bits;
 * dvc_expr_consts_init takes the thread's default precision. */
void dvc_expr_consts_init2(dvc_expr_consts_t c, mpfr_prec_t prec);
void dvc_expr_consts_init(dvc_expr_consts_t c);
void dvc_expr_consts_clear(dvc_expr_consts_t c);
/* Add name -> v (copied at v's precision). The name must be an identifier
 * ([A-Za-z_][A-Za-z0-9_]*), not reserved (t, pi, a function name) and not
 * already defined; v must be a finite interval. */
dvc_status dvc_expr_consts_add(dvc_expr_consts_t c, const char *name, const mpfi_t v);
/* Add name -> decimal text ("0.2", "[1, 2]"). The text is kept and enclosed
 * again at the precision of each expression that uses it, so "0.2" is always
 * the tightest enclosure of one fifth. */
dvc_status dvc_expr_consts_add_str(dvc_expr_consts_t c, const char *name, const char *decimal);
/* Add name -> value of a constant expression ("2*pi/3") over the constants
 * defined so far, enclosed at the table's precision. */
dvc_status dvc_expr_consts_add_expr(dvc_expr_consts_t c, const char *name, const char *text);
/* Index of name, or -1. */
long dvc_expr_consts_find(const dvc_expr_consts_t c, const char *name);

/* ---- Expressions ---- */

struct dvc_expr_ins_s; /* one instruction of the compiled (RPN) program */

typedef struct {
    char *text;             /* source, for messages */
    mpfr_prec_t prec;       /* precision of every internal interval */
    long nvars;             /* named variables besides t */
    char **varnames;
    int uses_t, uses_x;     /* does the program read t / any x_i */
    long nins, ains;
    struct dvc_expr_ins_s *ins;
    long ncst, acst;
    mpfi_t *cst;            /* literal pool */
    long depth;             /* stack size */
    mpfi_t *v, *d;          /* value and tangent stacks (scratch) */
    mpfi_t *var, *dvar;     /* t, x1..xn and their tangents (scratch) */
    mpfi_t tmp[4];          /* scratch */
    struct dvc_expr_fast_s *fast; /* binary64 scratch of the 53-bit fast path */
    struct dvc_expr_taylor_s *taylor; /* Taylor-mode series (scratch, on first use) */
    struct dvc_expr_root_s *root; /* an implicit algebraic variable (src/expr/root.c), or NULL */
} dvc_expr_struct;
typedef dvc_expr_struct dvc_expr_t[1];

/* An empty expression at the working precision (dvc_prec_get()) or at prec.
 * All evaluation happens at this precision; results are rounded outward into
 * the caller's interval. Evaluation writes scratch space inside the object:
 * one expression must not be evaluated by two threads at once. */
void dvc_expr_init(dvc_expr_t e);
void dvc_expr_init2(dvc_expr_t e, mpfr_prec_t prec);
void dvc_expr_clear(dvc_expr_t e);

/* Parse text as an expression of t. consts may be NULL. On error
 * (DVC_ERR_INPUT) the message names the offending token and its column; the
 * caller prefixes the file and field. Constant subexpressions are evaluated
 * once here: "1/0" or "log(-1)" fail at parse time. */
dvc_status dvc_expr_parse(dvc_expr_t e, const char *text, const dvc_expr_consts_t consts);
/* Same, with named variables (e.g. "x1", "x2") besides t. */
dvc_status dvc_expr_parse_vars(dvc_expr_t e, const char *text, const dvc_expr_consts_t consts,
                               long nvars, const char *const *varnames);
/* The constant expression c (no source text needed). */
dvc_status dvc_expr_set_const(dvc_expr_t e, const mpfi_t c);

/* ---- Building expressions in memory (build.c) ----
 * Each builder gives the program a parse of the resulting text would give
 * (the same instructions, literals and constant folding), so a built
 * expression evaluates exactly as its text would; the text is kept for
 * messages. Operands must be at e's precision with the same variables; e
 * may be one of them; on failure e is unchanged. The text is the operands'
 * texts around the operator as they are: wrap an operand with
 * dvc_expr_paren where the grammar needs parentheses. */
/* A literal: the number written as text (c NULL: "0", "0.25", enclosed
 * at e's precision), or the value c shown as text (a named constant,
 * "gamma"), over the variables varnames (nvars may be 0). */
dvc_status dvc_expr_set_literal(dvc_expr_t e, const char *text, const mpfi_t c, long nvars,
                                const char *const *varnames);
/* The variable t (index 0) or varnames[index - 1] (1 <= index <= nvars),
 * over the variables varnames. */
dvc_status dvc_expr_set_variable(dvc_expr_t e, long index, long nvars,
                                 const char *const *varnames);
/* "a+b", "a-b", "a*b", "a/b", "-a", "(a)", a copy of a. */
dvc_status dvc_expr_add(dvc_expr_t e, const dvc_expr_t a, const dvc_expr_t b);
dvc_status dvc_expr_sub(dvc_expr_t e, const dvc_expr_t a, const dvc_expr_t b);
dvc_status dvc_expr_mul(dvc_expr_t e, const dvc_expr_t a, const dvc_expr_t b);
dvc_status dvc_expr_div(dvc_expr_t e, const dvc_expr_t a, const dvc_expr_t b);
dvc_status dvc_expr_neg(dvc_expr_t e, const dvc_expr_t a);
dvc_status dvc_expr_paren(dvc_expr_t e, const dvc_expr_t a);
dvc_status dvc_expr_copy(dvc_expr_t e, const dvc_expr_t a);
/* Exchange a and b (no copy: how a built expression is handed over). */
void dvc_expr_swap(dvc_expr_t a, dvc_expr_t b);

/* Is e affine in its variables first..first+k-1 (indices as in
 * dvc_expr_set_variable: 1 is varnames[0]) with coefficients that are
 * constants? Decided on the program by structure (sums, differences,
 * products and quotients by constants; never by evaluation over a box), so
 * a yes is exact: e = r + sum_j c_j v_{first+j} with r free of those
 * variables and each c_j a constant that coef[j] (k entries, initialised)
 * encloses. *kind: 0 yes; 1 a coefficient may depend on t or the other
 * variables (a product with them); 2 not affine in them (a function of
 * them, a product of two of them, one in a denominator). *uses: e reads
 * one of them. A conservative answer: a constant the parser did not fold
 * counts as a function of t. */
dvc_status dvc_expr_affine(mpfi_t *coef, int *kind, int *uses, const dvc_expr_t e, long first,
                           long k);

/* The same structural analysis, with coefficients that may depend on t
 * and the other variables, written out as texts: when e is affine in its
 * variables first..first+k-1 (k >= 1), e = r + sum_j c_j v_{first+j}
 * holds as an identity of expressions, with *r (e at v = 0) and c[j] new
 * texts over t and the other variables (the caller frees them; NULL: the
 * part is exactly 0, c[j] NULL: e does not read v_{first+j}); a sum or
 * difference adds the parts, a product or quotient by a value free of
 * the chosen variables scales every part by that value's text. Constants
 * are written as cname(ctx, value), a name the caller defines as that
 * interval (NULL: out of memory); t as "t", variables by their names.
 * *kind: 0 affine, 2 not affine (nothing is returned then). */
dvc_status dvc_expr_affine_texts(char **r, char **c, int *kind, const dvc_expr_t e, long first,
                                 long k, const char *(*cname)(void *, mpfi_srcptr), void *ctx);

/* Does the expression depend on t / on the named variables? */
int dvc_expr_uses_t(const dvc_expr_t e);
int dvc_expr_uses_x(const dvc_expr_t e);

/* r encloses {f(t) : t in T} (natural interval extension). Returns
 *   DVC_OK;
 *   DVC_NOT_CERTIFIED when a domain condition cannot be proven on T (log or
 *     sqrt of an interval reaching below 0, division by an interval
 *     containing 0, overflow, NaN) -- the message says which operation;
 *   DVC_ERR_INPUT when it certainly fails (log of a nonpositive interval,
 *     division by exactly zero) or T is not a finite interval, or the
 *     expression uses variables other than t.
 * On failure r is left unchanged. */
dvc_status dvc_expr_eval(mpfi_t r, const dvc_expr_t e, const mpfi_t T);
/* With variables: X has nvars entries (may be NULL when nvars == 0). */
dvc_status dvc_expr_eval_x(mpfi_t r, const dvc_expr_t e, const mpfi_t T, const dvc_ivec_t X);

/* f encloses f(T) and df encloses {f'(t) : t in T}. At kinks of abs, min,
 * max the derivative is replaced by the hull of the one-sided derivatives
 * (d|u| = [-1,1] du when 0 is in u), so df encloses Clarke's generalized
 * derivative and mag(df) is a Lipschitz constant of f on T. sqrt needs its
 * argument > 0 here (its derivative is unbounded at 0). */
dvc_status dvc_expr_eval_d1(mpfi_t f, mpfi_t df, const dvc_expr_t e, const mpfi_t T);
/* f0 encloses f(T0) as dvc_expr_eval gives it, df1 the derivative over T1
 * as dvc_expr_eval_d1 gives it (the same intervals), in one pass of the
 * program at 53 bits (e.g. a value at a step's midpoint and the derivative
 * over the step). Expressions of t only. */
dvc_status dvc_expr_eval_vd1(mpfi_t f0, mpfi_t df1, const dvc_expr_t e, const mpfi_t T0, const mpfi_t T1);
/* Directional derivative in intervals: df encloses
 * {grad f(t, x) . (dt, dx) : t in T, x in X, dt in dT, dx in dX}.
 * X and dX may be NULL when nvars == 0. Used for phi'(t) = grad g(X) . F(X). */
dvc_status dvc_expr_eval_tangent(mpfi_t f, mpfi_t df, const dvc_expr_t e,
                                 const mpfi_t T, const dvc_ivec_t X,
                                 const mpfi_t dT, const dvc_ivec_t dX);
/* grad (nvars + 1 entries, resized if needed): enclosures of df/dt and
 * df/dx_i over T x X. f may be NULL. */
dvc_status dvc_expr_grad(mpfi_t f, dvc_ivec_t grad, const dvc_expr_t e,
                         const mpfi_t T, const dvc_ivec_t X);
/* L >= sup {|f'(t)| : t in T} (rounded up): a Lipschitz constant of f on T. */
dvc_status dvc_expr_lipschitz(mpfr_t L, const dvc_expr_t e, const mpfi_t T);

/* A predictor value: f(t, x) in plain binary64 arithmetic (libm, the
 * caller's rounding mode, literals by their nearest doubles), with no
 * guarantee. x has nvars entries (NULL: all 0). Returns NaN where f is not
 * defined (log or sqrt of a negative number, division by 0) or not finite.
 * Allocates nothing; writes scratch inside e, like the evaluations above. */
double dvc_expr_eval_double(const dvc_expr_t e, double t, const double *x);

#ifdef __cplusplus
}
#endif
#endif
