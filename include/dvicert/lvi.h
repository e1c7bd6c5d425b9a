/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Box-constrained linear variational inequality VI(l, u, q, M):
 *   find y in [l, u] with (w - y)^T (M y + q) >= 0 for all w in [l, u],
 * with M a P-matrix (unique solution). LCP: l = 0, u = +inf.
 * Derivations of the three certification routes: docs/lvi.md.
 * Every function here that computes in binary64 runs it in round-to-nearest
 * and restores the caller's FPU rounding mode before returning: results do
 * not depend on the caller's mode. */
#ifndef DVICERT_LVI_H
#define DVICERT_LVI_H

#include "dvicert/imat.h"
#include "dvicert/beta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Floating-point predictor: semismooth Newton on the natural residual
 * mid(y - l, y - u, M y + q) with a line search, then active-set
 * enumeration (m <= DVC_LVI_ENUM_MAX) or Murty's least-index principal
 * pivoting as fallbacks. Returns DVC_OK when y is the solution of a
 * consistent linear piece (up to roundoff), DVC_NOT_CERTIFIED when no such
 * point was found (y then holds the point with the smallest residual),
 * DVC_ERR_INPUT for NaN or l >= u. Nothing here is a bound. Arrays are
 * row-major doubles; l, u may hold -inf / +inf. guess may be NULL. */
#define DVC_LVI_ENUM_MAX 10
dvc_status dvc_lvi_predict(double *y, const double *M, const double *q, const double *l,
                           const double *u, long m);
dvc_status dvc_lvi_predict_guess(double *y, const double *M, const double *q, const double *l,
                                 const double *u, long m, const double *guess);

typedef enum {
    DVC_LVI_ROUTE_NONE = 0,
    DVC_LVI_ROUTE_ACTIVE_SET, /* reduced system solved, sign conditions proven */
    DVC_LVI_ROUTE_RESIDUAL,   /* ||y - y*|| <= alpha_M ||r(y)|| (then vertex-refined) */
    DVC_LVI_ROUTE_VERTEX      /* piecewise-linear Newton: vertex enumeration over the
                                 ambiguous kinks plus a fixed-point inclusion (degenerate) */
} dvc_lvi_route;

/* A solver for one (M, l, u): P-matrix proof done once at init, alpha_M
 * bound lazily on the first call that needs it, many right-hand sides q
 * afterwards (the DLVI engine needs that). Workspace lives here: solve does
 * not allocate in the common case. Not thread-safe (one solver per thread). */
typedef struct {
    long m;
    dvc_imat_t M;          /* the solver's copies (read-only: their entries live in */
    dvc_ivec_t l, u;       /* one pooled block; dvc_lvi_solver_clear frees them) */
    double *Md, *ld, *ud;  /* predictor copies (midpoints) */
    const char *p_reason;  /* how P was proven */
    int alpha_ready;       /* 1 computed, -1 tried and failed, 0 not tried */
    mpfr_t alpha_hi;       /* rigorous upper bound of alpha_M (lazy) */
    const char *alpha_method;
    char alpha_msg[256];   /* why alpha failed (alpha_ready == -1) */
    dvc_beta_opts alpha_opts; /* options of the lazy alpha_M bound (default: dvc_beta_opts_default) */
    long vertex_max;       /* at most 2^vertex_max vertex solves (default 6) */
    void *ws;              /* private workspace (src/lvi_certify.c) */
    mpfr_prec_t prec;      /* precision of the copies and of the workspace */
} dvc_lvi_solver_struct;
typedef dvc_lvi_solver_struct dvc_lvi_solver_t[1];

/* Sizes: a certified solve of a dense m x m problem (setup included) takes
 * about 0.5 ms at m = 100, 0.2 s at m = 500 and 1 s (0.26 GB) at m = 1000 of
 * CPU time (docs/lvi.md), growing like m^3
 * (memory like m^2); DVC_LVI_M_PRACTICAL is the size up to which a solve
 * takes seconds. The solver refuses m above DVC_LVI_M_MAX (DVC_ERR_INPUT). */
#define DVC_LVI_M_PRACTICAL 1000
#define DVC_LVI_M_MAX 4000

/* Copies the data (at precision prec); proves M is a P-matrix and l < u.
 * DVC_ERR_INPUT for bad dimensions, NaN, l >= u; DVC_NOT_CERTIFIED when P
 * cannot be proven. The solver must be cleared in every case.
 * dvc_lvi_solver_init is the convenience form at the thread's working
 * precision (dvc_prec_get()). */
dvc_status dvc_lvi_solver_init2(dvc_lvi_solver_t s, const dvc_imat_t M, const dvc_ivec_t l,
                                const dvc_ivec_t u, mpfr_prec_t prec);
dvc_status dvc_lvi_solver_init(dvc_lvi_solver_t s, const dvc_imat_t M, const dvc_ivec_t l,
                               const dvc_ivec_t u);
void dvc_lvi_solver_clear(dvc_lvi_solver_t s);

/* Compute (or reuse) the alpha_M bound now; DVC_NOT_CERTIFIED if it fails. */
dvc_status dvc_lvi_solver_alpha(dvc_lvi_solver_t s);

typedef struct {
    dvc_ivec_t y;          /* enclosure of SOL(l, u, q, M) for every q in [q] */
    dvc_lvi_route route;
    int *active;           /* per entry: -1 at l, +1 at u, 0 free, 2 ambiguous (vertex) */
    double *pred;          /* the predictor that was certified */
    int pred_status;       /* DVC_OK when the predictor found a consistent piece */
    mpfr_t resid;          /* ||r(pred)|| upper bound over [q] (residual/vertex routes) */
    long ambiguous;        /* kinks enumerated (vertex routes) */
    long vertices;         /* reduced solves done for them */
} dvc_lvi_result_struct;
typedef dvc_lvi_result_struct dvc_lvi_result_t[1];

/* The result owns y, active, pred and resid (at precision prec; the
 * convenience form dvc_lvi_result_init at dvc_prec_get()). */
void dvc_lvi_result_init2(dvc_lvi_result_t r, long m, mpfr_prec_t prec);
void dvc_lvi_result_init(dvc_lvi_result_t r, long m);
void dvc_lvi_result_clear(dvc_lvi_result_t r);

/* Certify the solution for q (point or interval vector). `guess` (may be
 * NULL) is a predictor to try first. DVC_OK: r->y encloses the solution
 * for every q in [q] (and every M, l, u in their intervals). */
dvc_status dvc_lvi_solve(dvc_lvi_result_t r, dvc_lvi_solver_t s, const dvc_ivec_t q,
                         const double *guess);

const char *dvc_lvi_route_name(dvc_lvi_route route);

#ifdef __cplusplus
}
#endif
#endif
