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

/* Progress of a long computation, handed to dvc_beta_opts.progress. */
typedef struct {
    const char *phase;   /* "vertex enumeration", "branch-and-bound beta_M", ... */
    double done, total;  /* vertices or nodes visited / to visit (total 0: unknown) */
    double lo, hi;       /* bounds reached so far (hi may be +inf) */
    double seconds;      /* since dvc_beta_compute started */
    int final;           /* 1 on the last call of a phase */
} dvc_beta_progress;

typedef struct {
    dvc_beta_method method;
    long enum_max_m;     /* AUTO enumerates up to this m (default 20; at most 30); for
                            larger m up to 30 it times a sample of vertices and
                            enumerates when 1.3 x the estimated time on its
                            threads fits in max_seconds (a stopped enumeration
                            then keeps the positive definite bound, if any),
                            otherwise it runs the branch-and-bound; for a
                            symmetric positive definite M (beta only) it tries
                            the branch-and-bound first, with 2^m / 4 nodes when
                            the enumeration fits */
    double rel_gap;      /* BnB stops when (hi - lo) <= rel_gap * hi (default 1e-6) */
    long max_nodes;      /* BnB node budget (default 1e6) */
    double max_seconds;  /* time budget of the enumeration and of the branch-and-bound
                            (default 60; finite and > 0): they stop at it with the
                            bounds reached */
    /* Called from the enumeration and the branch-and-bound about every 0.25 s
     * and at the end of each phase, in round-to-nearest (may be NULL). */
    void (*progress)(const dvc_beta_progress *p, void *data);
    void *progress_data;
    /* Threads of the vertex enumeration past m = 20 (beta_M alone; the
     * other searches run on the calling thread): 0 (default) one per
     * online processor, at most DVC_BETA_THREADS_MAX. The bounds do not
     * depend on it (the work is cut the same way for any number). */
    int threads;
} dvc_beta_opts;

#define DVC_BETA_THREADS_MAX 64

/* Sizes: the dense O(m^3) interval steps (P-matrix proof, structural
 * bounds) take about 5 s at m = 500 and 30 s at m = 1000 (growing like
 * m^3, memory like m^2); DVC_BETA_M_PRACTICAL is the size up to which a
 * run takes seconds. Larger M are refused (DVC_ERR_INPUT). */
#define DVC_BETA_M_PRACTICAL 1000
#define DVC_BETA_M_MAX 4000

void dvc_beta_opts_default(dvc_beta_opts *o);
/* DVC_OK, or DVC_ERR_INPUT with a message naming the option (a budget that
 * is infinite, NaN or not positive, a negative gap, enum_max_m > 30). */
dvc_status dvc_beta_opts_check(const dvc_beta_opts *o);

typedef struct {
    mpfr_t lo, hi;       /* lo <= constant <= hi, lo rounded down, hi up */
    const char *method;  /* what produced hi (static string) */
    const char *hypothesis; /* how M was proven a P-matrix (static string) */
    long nodes;          /* vertices enumerated, or BnB nodes + completions + vertices */
    double seconds;
    int stopped;         /* 1 when the time or node budget stopped the search:
                            lo is what the visited vertices prove, hi the best
                            bound proven otherwise (structure, open nodes) */
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
 * valid); DVC_ERR_INPUT for a non-square or non-finite M, m above
 * DVC_BETA_M_MAX, or options refused by dvc_beta_opts_check. Switches the
 * FPU rounding mode internally and restores the caller's mode on return;
 * the result does not depend on the caller's mode. */
dvc_status dvc_beta_compute(dvc_beta_bound_t beta, dvc_beta_bound_t alpha, const dvc_imat_t M,
                            const dvc_beta_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
