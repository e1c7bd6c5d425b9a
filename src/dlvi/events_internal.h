/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the DLVI events route (src/dlvi/events*.c, docs/events.md). */
#ifndef DVC_DLVI_EVENTS_INTERNAL_H
#define DVC_DLVI_EVENTS_INTERNAL_H

#include "dvicert/events.h"

/* A function of time as the route composes it into the expressions of a
 * pattern's field and switching functions: kind 0 zero, 1 constant (val),
 * 2 expression (text, whose literals are named constants in the route's
 * literal table). */
typedef struct {
    int kind;
    char *text;
} evt_fun;

/* Text of a DLVI forcing entry f (an expression of t, a constant or
 * nothing): the expression's compiled program written back as text, its
 * literals as exact named constants "<tag><k>" added to lits, so that the
 * text parsed with lits is the same function (the same enclosures, up to
 * outward rounding). A constant goes to val (kind 1). Tables are refused
 * (DVC_ERR_INPUT) in this version. */
dvc_status evt_fun_text(evt_fun *out, mpfi_t val, dvc_expr_consts_t lits,
                        const dvc_tfun_struct *f, const char *tag);

#endif
