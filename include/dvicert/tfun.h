/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A function of t for the DLVI engine: an expression (expr.h) or a
 * tabulated record (tabfun.h) behind one interface. */
#ifndef DVICERT_TFUN_H
#define DVICERT_TFUN_H

#include <jansson.h>
#include "dvicert/expr.h"
#include "dvicert/tabfun.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { DVC_TFUN_NONE = 0, DVC_TFUN_EXPR, DVC_TFUN_TABLE } dvc_tfun_kind;

typedef struct {
    dvc_tfun_kind kind;
    dvc_expr_t expr;
    dvc_tabfun_t tab;
} dvc_tfun_struct;
typedef dvc_tfun_struct dvc_tfun_t[1];

/* Empty (kind NONE) at the working precision / at prec. Not thread-safe to
 * evaluate (scratch inside, see expr.h). */
void dvc_tfun_init(dvc_tfun_t f);
void dvc_tfun_init2(dvc_tfun_t f, mpfr_prec_t prec);
void dvc_tfun_clear(dvc_tfun_t f);

dvc_status dvc_tfun_set_expr(dvc_tfun_t f, const char *text, const dvc_expr_consts_t consts);
dvc_status dvc_tfun_set_const(dvc_tfun_t f, const mpfi_t c);
/* See dvc_tabfun_read (format NULL: by extension; scale may be NULL). */
dvc_status dvc_tfun_read_table(dvc_tfun_t f, const char *path, const char *format, const mpfi_t scale);

/* From a problem-file field:
 *   "sin(4*t)"                      an expression of t (consts may be NULL);
 *   0.5 / "0.5"                     a constant (JSON number: as dvc_json_ival);
 *   {"table": "el_centro.AT2", "format": "at2", "scale": "9.80665"}
 *                                   a tabulated record; "format" and "scale"
 *                                   optional; a relative path is taken
 *                                   relative to basedir (may be NULL).
 * where names the field for messages ("problem.json: f[0]"). */
dvc_status dvc_tfun_from_json(dvc_tfun_t f, const json_t *j, const char *basedir,
                              const dvc_expr_consts_t consts, const char *where);

/* True when f does not depend on t (Lipschitz constant 0). */
int dvc_tfun_is_const(const dvc_tfun_t f);

/* r encloses {f(t) : t in T}. */
dvc_status dvc_tfun_eval(mpfi_t r, const dvc_tfun_t f, const mpfi_t T);
/* r as above (may be NULL) and L >= a Lipschitz constant of f on T, rounded
 * up (may be NULL). */
dvc_status dvc_tfun_eval_lip(mpfi_t r, mpfr_t L, const dvc_tfun_t f, const mpfi_t T);

#ifdef __cplusplus
}
#endif
#endif
