/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Box-constrained linear variational inequality VI(l, u, q, M):
 *   find y in [l, u] with (w - y)^T (M y + q) >= 0 for all w in [l, u],
 * with M a P-matrix (unique solution). LCP: l = 0, u = +inf. */
#ifndef DVICERT_LVI_H
#define DVICERT_LVI_H

#include "dvicert/imat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Floating-point predictor: semismooth Newton on the natural residual
 * mid(y - l, y - u, M y + q), with active-set enumeration (m <= 12) and
 * Lemke-type / projected fallbacks. Returns DVC_NOT_CERTIFIED when no
 * predictor with a small residual was found (y then holds the best one).
 * Arrays are row-major doubles; l, u may hold -inf / +inf. */
dvc_status dvc_lvi_predict(double *y, const double *M, const double *q, const double *l,
                           const double *u, long m);

typedef enum { DVC_LVI_ROUTE_NONE = 0, DVC_LVI_ROUTE_ACTIVE_SET, DVC_LVI_ROUTE_RESIDUAL } dvc_lvi_route;

/* A solver for one (M, l, u): P-matrix proof and alpha_M bound done once,
 * many right-hand sides q afterwards (the DLVI engine needs that). */
typedef struct {
    long m;
    dvc_imat_t M;
    dvc_ivec_t l, u;
    double *Md, *ld, *ud;  /* predictor copies */
    const char *p_reason;  /* how P was proven */
    int alpha_ready;
    mpfr_t alpha_hi;       /* rigorous upper bound of alpha_M (lazy) */
} dvc_lvi_solver_struct;
typedef dvc_lvi_solver_struct dvc_lvi_solver_t[1];

/* Copies the data; proves M is a P-matrix and l < u. DVC_ERR_INPUT for bad
 * dimensions, NaN, l >= u; DVC_NOT_CERTIFIED when P cannot be proven. The
 * solver must be cleared in every case. */
dvc_status dvc_lvi_solver_init(dvc_lvi_solver_t s, const dvc_imat_t M, const dvc_ivec_t l,
                               const dvc_ivec_t u);
void dvc_lvi_solver_clear(dvc_lvi_solver_t s);

typedef struct {
    dvc_ivec_t y;          /* enclosure of SOL(l, u, q, M) for every q in [q] */
    dvc_lvi_route route;
    int *active;           /* per entry: -1 at l, +1 at u, 0 free (active-set route) */
    double *pred;          /* the predictor that was certified */
    mpfr_t resid;          /* ||r(pred)|| upper bound (residual route) */
} dvc_lvi_result_struct;
typedef dvc_lvi_result_struct dvc_lvi_result_t[1];

void dvc_lvi_result_init(dvc_lvi_result_t r, long m);
void dvc_lvi_result_clear(dvc_lvi_result_t r);

/* Certify the solution for q (point or interval vector). `guess` (may be
 * NULL) is a predictor to try first. DVC_OK: r->y encloses the solution
 * for every q in [q]. */
dvc_status dvc_lvi_solve(dvc_lvi_result_t r, dvc_lvi_solver_t s, const dvc_ivec_t q,
                         const double *guess);

const char *dvc_lvi_route_name(dvc_lvi_route route);

#ifdef __cplusplus
}
#endif
#endif
