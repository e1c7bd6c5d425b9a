/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Differential linear variational inequality (Chen & Wang (4.1)):
 *   x'(t) = A x(t) + B y(t) + f(t),
 *   y(t) in SOL(l, u, Q x(t) + g(t), M),   x(0) = x0,  t in [0, T],
 * and the certified time-stepping engine (Algorithm 4.2, re-derived in
 * docs/bounds.md). OWNERS: problem struct = shared (dlvi + cert helpers);
 * engine part = dlvi helper. */
#ifndef DVICERT_DLVI_H
#define DVICERT_DLVI_H

#include "dvicert/imat.h"
#include "dvicert/lvi.h"
#include "dvicert/tfun.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    long n, m;
    dvc_imat_t A, B, Q, M;   /* n x n, n x m, m x n, m x m */
    dvc_ivec_t l, u;         /* m, may hold -inf / +inf */
    dvc_ivec_t x0;           /* n (may be an interval: the tube covers all) */
    dvc_tfun_t *f;           /* n functions of t, or NULL when f == 0 */
    dvc_tfun_t *g;           /* m functions of t, or NULL when g == 0 */
    mpfi_t T;                /* final time (> 0) */
    long N;                  /* number of steps; h = T / N */
    mpfi_t theta;            /* in [0, 1] */
    mpfr_prec_t prec;
} dvc_dlvi_problem_struct;
typedef dvc_dlvi_problem_struct dvc_dlvi_problem_t[1];

/* Empty problem (n = m = 0) at the working precision. */
void dvc_dlvi_problem_init(dvc_dlvi_problem_t p);
void dvc_dlvi_problem_clear(dvc_dlvi_problem_t p);

#ifdef __cplusplus
}
#endif
#endif
