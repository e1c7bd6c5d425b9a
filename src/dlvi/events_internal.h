/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the DLVI events route (src/dlvi/events*.c, docs/events.md). */
#ifndef DVC_DLVI_EVENTS_INTERNAL_H
#define DVC_DLVI_EVENTS_INTERNAL_H

#include "dvicert/events.h"
#include "dvicert/lvi.h"

/* A function of time as the route composes it into the expressions of a
 * pattern's field and switching functions: kind 0 zero, 1 constant (val),
 * 2 expression (text, whose literals are named constants in the route's
 * literal table), 3 a table of f (a basis table of the model, text "0"). */
typedef struct {
    int kind;
    char *text;
} evt_fun;

/* Text of a DLVI forcing entry f (an expression of t, a constant or
 * nothing): the expression's compiled program written back as text, its
 * literals as exact named constants "<tag><k>" added to lits, so that the
 * text parsed with lits is the same function (the same enclosures, up to
 * outward rounding). A constant goes to val (kind 1). Tables are refused
 * (DVC_ERR_INPUT): the caller takes those of f as basis tables. */
dvc_status evt_fun_text(evt_fun *out, mpfi_t val, dvc_expr_consts_t lits,
                        const dvc_tfun_struct *f, const char *tag);

/* A step for the forcing's Taylor remainder (events_text.c): the largest h
 * <= hmax with |c_K| h^K <= 2^-60 max_{k<K} |c_k| for every expression
 * entry of v (NULL: hmax), sampled at 9 times in [0, T]. A choice only. */
double evt_forcing_h(const dvc_tfun_vec_struct *v, double T, int K, double hmax);

/* The continuous DLVI field for an ambiguity window (events_window.c):
 * fg(F, G, T, ctx) encloses f and g over T; sv the LVI solver of (M, l, u). */
typedef struct {
    const dvc_imat_struct *A, *B, *Q;
    dvc_lvi_solver_struct *sv;
    dvc_status (*fg)(dvc_ivec_t F, dvc_ivec_t G, const mpfi_t T, void *ctx);
    void *ctx;
} evt_field;

/* X1 encloses x(tb) and box x over Tw = [ta, tb] for every x(ta) in X0,
 * by nsub first-order validated steps of F (docs/events.md section 3). */
dvc_status evt_window_flow(const evt_field *fd, const mpfi_t Tw, const dvc_ivec_t X0, dvc_ivec_t X1,
                           dvc_ivec_t box, long nsub);

#endif
