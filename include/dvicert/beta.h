/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Rigorous bounds of the LVI perturbation constants of Chen & Wang:
 *   beta_M  = max_{d in [0,1]^m} || (I - D + DM)^{-1} D ||_inf,
 *   alpha_M = max_{d in [0,1]^m} || (I - D + DM)^{-1} ||_inf.
 * See docs/beta.md for the vertex property and the methods. */
#ifndef DVICERT_BETA_H
#define DVICERT_BETA_H

#include "dvicert/imat.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    DVC_BETA_AUTO = 0,     /* structure first, then enumeration or branch-and-bound */
    DVC_BETA_ENUM,         /* exact vertex enumeration */
    DVC_BETA_BNB,          /* branch-and-bound over partial vertex assignments */
    DVC_BETA_STRUCT        /* closed forms / structural upper bounds only */
} dvc_beta_method;

typedef struct {
    dvc_beta_method method;
    long enum_max_m;     /* AUTO enumerates up to this m (default 20; at most 30) */
    double rel_gap;      /* BnB stops when (hi - lo) <= rel_gap * hi (default 1e-6) */
    long max_nodes;      /* BnB node budget (default 1e6) */
    double max_seconds;  /* BnB time budget (default 60); the enumeration is not interrupted */
} dvc_beta_opts;

void dvc_beta_opts_default(dvc_beta_opts *o);

typedef struct {
    mpfr_t lo, hi;       /* lo <= constant <= hi, lo rounded down, hi up */
    const char *method;  /* what produced hi (static string) */
    const char *hypothesis; /* how M was proven a P-matrix (static string) */
    long nodes;          /* vertices enumerated, or BnB nodes + completions + vertices */
    double seconds;
} dvc_beta_bound_struct;
typedef dvc_beta_bound_struct dvc_beta_bound_t[1];

void dvc_beta_bound_init(dvc_beta_bound_t b);
void dvc_beta_bound_clear(dvc_beta_bound_t b);

/* Bounds of beta_M and (if alpha != NULL) alpha_M. M must be proven a
 * P-matrix first (done inside; DVC_NOT_CERTIFIED if it cannot be). For an
 * interval M the bounds hold for every point matrix in it. Returns DVC_OK
 * when a finite upper bound was proven (with a branch-and-bound stopped by
 * its budget the gap may exceed rel_gap: compare lo and hi);
 * DVC_NOT_CERTIFIED when no finite upper bound was proven (lo is still
 * valid); DVC_ERR_INPUT for a non-square or non-finite M. Switches the
 * FPU rounding mode internally and restores the caller's mode on return;
 * the result does not depend on the caller's mode. */
dvc_status dvc_beta_compute(dvc_beta_bound_t beta, dvc_beta_bound_t alpha, const dvc_imat_t M,
                            const dvc_beta_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
