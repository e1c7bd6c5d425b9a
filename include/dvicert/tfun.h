/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Functions of time for the engines: one scalar type (an expression of t,
 * a point or interval constant, or a tabulated record), a vector of k of
 * them, and the one callback interface the engines call (SUNDIALS style:
 * a callback and its user data). */
#ifndef DVICERT_TFUN_H
#define DVICERT_TFUN_H

#include "dvicert/expr.h"
#include "dvicert/ivec.h"
#include "dvicert/tabfun.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the engine-facing callback ---------------------------------------
 * A function v: [0, T] -> R^k as an engine sees it. k = 0 or eval = NULL:
 * v is identically zero. */
typedef struct {
    long k;
    /* Enclosure of v(s) for every s in [t] (out has k entries). */
    dvc_status (*eval)(dvc_ivec_t out, const mpfi_t t, void *ctx);
    /* Upper bound, rounded up, of a Lipschitz constant of v over [t] in
     * the infinity norm: ||v(s) - v(s')|| <= out |s - s'| for s, s' in [t]. */
    dvc_status (*lipschitz)(mpfr_t out, const mpfi_t t, void *ctx);
    /* Predictor value (approximate v(t)); no guarantee needed. */
    void (*eval_d)(double *out, double t, void *ctx);
    void *ctx;
    /* When not NULL, the holder of the callback owns ctx and releases it
     * with release(ctx) (e.g. dvc_dlvi_problem_clear). */
    void (*release)(void *ctx);
    /* Optional (may be NULL): enclosure of v'(s) for every s in [t] (out
     * has k entries); where v has kinks, of every one-sided derivative, so
     * that v(s) - v(s') lies in (s - s') out for s, s' in [t]. */
    dvc_status (*deriv)(dvc_ivec_t out, const mpfi_t t, void *ctx);
    /* 1 when some component states a Lipschitz constant (the problem file's
     * "lipschitz"): lipschitz() refuses it where it cannot be confirmed, and
     * every route calls it on every step, whether it uses the constant or
     * not (docs/expressions.md). Copied with the callback. */
    int claims;
} dvc_tfun_cb;

/* cb->eval at t0 into val and cb->deriv over t1 into der (both needed:
 * DVC_ERR_INPUT when deriv is NULL), the same enclosures as the two calls;
 * for a callback of dvc_tfun_vec_cb in one call, where an expression runs
 * its program once (dvc_expr_eval_vd1). */
dvc_status dvc_tfun_cb_val_deriv(const dvc_tfun_cb *cb, dvc_ivec_t val, dvc_ivec_t der, const mpfi_t t0,
                                 const mpfi_t t1);

/* ---- one function of t ------------------------------------------------ */

typedef enum {
    DVC_TFUN_NONE = 0, /* not set (in a vector: identically zero) */
    DVC_TFUN_EXPR,     /* an expression that depends on t */
    DVC_TFUN_CONST,    /* a constant (point or interval) */
    DVC_TFUN_TABLE     /* samples joined by straight lines */
} dvc_tfun_kind;

typedef struct {
    dvc_tfun_kind kind;
    dvc_expr_t expr;
    dvc_tabfun_t tab;
    mpfi_t c;            /* DVC_TFUN_CONST */
} dvc_tfun_struct;
typedef dvc_tfun_struct dvc_tfun_t[1];

/* Empty (kind NONE) at the working precision / at prec. f owns its
 * expression, table and constant; dvc_tfun_clear releases them. Not
 * thread-safe to evaluate (scratch inside, see expr.h). */
void dvc_tfun_init(dvc_tfun_t f);
void dvc_tfun_init2(dvc_tfun_t f, mpfr_prec_t prec);
void dvc_tfun_clear(dvc_tfun_t f);

/* An expression of t (consts may be NULL). An expression that does not
 * depend on t is evaluated once, at f's precision, and stored as a
 * constant. */
dvc_status dvc_tfun_set_expr(dvc_tfun_t f, const char *text, const dvc_expr_consts_t consts);
/* A constant (c must be a finite interval). */
dvc_status dvc_tfun_set_const(dvc_tfun_t f, const mpfi_t c);
/* See dvc_tabfun_read (format NULL: by extension; scale may be NULL). */
dvc_status dvc_tfun_read_table(dvc_tfun_t f, const char *path, const char *format, const mpfi_t scale);
/* A table from text in memory: format "csv" or "at2"; name is used in
 * messages; scale may be NULL. */
dvc_status dvc_tfun_parse_table(dvc_tfun_t f, const char *text, const char *format,
                                const char *name, const mpfi_t scale);

/* True when f does not depend on t (Lipschitz constant 0). */
int dvc_tfun_is_const(const dvc_tfun_t f);

/* r encloses {f(t) : t in T}. */
dvc_status dvc_tfun_eval(mpfi_t r, const dvc_tfun_t f, const mpfi_t T);
/* r as above (may be NULL) and L >= a Lipschitz constant of f on T, rounded
 * up (may be NULL). */
dvc_status dvc_tfun_eval_lip(mpfi_t r, mpfr_t L, const dvc_tfun_t f, const mpfi_t T);
/* d encloses the derivative of f over T (for tables and kinks: every
 * one-sided derivative, i.e. every slope met; constants: 0). */
dvc_status dvc_tfun_deriv(mpfi_t d, const dvc_tfun_t f, const mpfi_t T);

/* ---- a vector of k functions of t ---------------------------------------
 * Entry i is fn[i] (set it with the dvc_tfun_set_* functions; entries left
 * NONE are zero). The vector owns its entries. */
typedef struct {
    long k;
    mpfr_prec_t prec;
    dvc_tfun_struct *fn;  /* k entries */
    int *has_claim;       /* k: a stated Lipschitz constant for entry i */
    mpfr_t *claim;        /* k: its lower end; checked on every call */
    int has_domain;
    mpfr_t thi;           /* upper end of the domain [0, thi] of tables */
    mpfi_t tmp, tc;       /* scratch */
    mpfr_t ltmp;
} dvc_tfun_vec_struct;
typedef dvc_tfun_vec_struct dvc_tfun_vec_t[1];

/* k entries of kind NONE at precision prec (0: the working precision).
 * Returns DVC_ERR_NOMEM (v is then empty, still safe to clear). */
dvc_status dvc_tfun_vec_init(dvc_tfun_vec_t v, long k, mpfr_prec_t prec);
void dvc_tfun_vec_clear(dvc_tfun_vec_t v);
/* Heap forms, for ownership transfer to a callback (dvc_tfun_vec_cb). */
dvc_tfun_vec_struct *dvc_tfun_vec_new(long k, mpfr_prec_t prec);
void dvc_tfun_vec_free(dvc_tfun_vec_struct *v);

/* A stated Lipschitz constant of entry i (its lower end L->left is used):
 * every Lipschitz request then fails (DVC_NOT_CERTIFIED) when the certified
 * bound of entry i exceeds it. */
dvc_status dvc_tfun_vec_set_lipschitz(dvc_tfun_vec_t v, long i, const mpfi_t L);

/* The solution lives on [0, T]: time intervals reaching beyond (e.g. a
 * block of steps padded for rounding) are cut to [0, T.hi] before a table
 * is evaluated. */
void dvc_tfun_vec_set_domain(dvc_tfun_vec_t v, const mpfi_t T);

/* True when every entry is NONE (v is the zero function). */
int dvc_tfun_vec_is_zero(const dvc_tfun_vec_t v);

/* The callback view of v. Entries that do not depend on t cost nothing
 * (their value is stored, their Lipschitz constant is 0). With own != 0,
 * v must come from dvc_tfun_vec_new and cb->release frees it; otherwise v
 * stays the caller's and must outlive every use of cb. */
void dvc_tfun_vec_cb(dvc_tfun_cb *cb, dvc_tfun_vec_struct *v, int own);
/* The vector behind a callback made by dvc_tfun_vec_cb, or NULL for any
 * other callback (for a route that needs the functions themselves, e.g.
 * their expressions). */
const dvc_tfun_vec_struct *dvc_tfun_cb_vec(const dvc_tfun_cb *cb);

#ifdef __cplusplus
}
#endif
#endif
