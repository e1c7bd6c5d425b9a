/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certified matrix classes. "Not proven" is an honest answer, never "false"
 * unless a counterexample was proven (e.g. a principal minor enclosed in
 * (-inf, 0]). The proofs run at the precision of M, switch the FPU rounding
 * mode internally and restore the caller's mode. */
#ifndef DVICERT_MCLASS_H
#define DVICERT_MCLASS_H

#include "dvicert/imat.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    DVC_MCLASS_Z = 1u << 0,   /* off-diagonal entries <= 0 */
    DVC_MCLASS_M = 1u << 1,   /* Z-matrix with a nonnegative inverse (nonsingular M-matrix) */
    DVC_MCLASS_H = 1u << 2,   /* H-matrix with positive diagonal */
    DVC_MCLASS_SYM = 1u << 3, /* symmetric (as an interval matrix) */
    DVC_MCLASS_SPD = 1u << 4, /* symmetric positive definite */
    DVC_MCLASS_PD = 1u << 5,  /* M + M^T symmetric positive definite */
    DVC_MCLASS_P = 1u << 6    /* every principal minor positive */
};

typedef struct {
    unsigned proven;     /* classes proven for every matrix in [M] */
    unsigned disproven;  /* classes proven NOT to hold (for some / every matrix) */
    /* For P: which argument proved it ("enumeration of principal minors",
     * "M-matrix", "H-matrix with positive diagonal", "positive definite"). */
    const char *p_reason;
    /* When P is not proven: why (the minor proven <= 0, or what could not
     * be decided); empty when P is proven. */
    char p_detail[400];
} dvc_mclass_result;

/* The sufficient tests run first, in binary64 with directed rounding
 * (microseconds at m = 20): M-matrix (screened by the O(m^2) sign test of
 * a Z-matrix), H-matrix with positive diagonal, M + M^T positive definite
 * (verified Cholesky); the first that succeeds gives the reason.
 * Principal-minor enumeration is used for m <= this; beyond it only the
 * sufficient tests and a check of the
 * 1 x 1 and 2 x 2 minors. The enumeration visits all 2^m - 1 minors by a
 * recursion that reuses Schur complements (about 6 * 2^m interval
 * multiply-adds): m = 20 takes about 0.3 s at 53 bits, each further index
 * doubles it (docs/mclass.md). */
#define DVC_MCLASS_P_ENUM_MAX 20

/* Classify M (square). Returns DVC_ERR_INPUT for a non-square or
 * non-finite M. */
dvc_status dvc_mclass_classify(dvc_mclass_result *res, const dvc_imat_t M);

/* DVC_OK when M is proven to be a P-matrix (reason in *how, may be NULL),
 * DVC_NOT_CERTIFIED with a message otherwise. */
dvc_status dvc_mclass_prove_p(const dvc_imat_t M, const char **how);

/* Both functions above remember their result for the last few matrices of
 * the calling thread (up to DVC_MCLASS_CACHE_MAX_M rows, endpoints that
 * are binary64 numbers), keyed by the exact endpoints and the precision:
 * proving the same [M] again (the DLVI setup, an LVI solver and the beta_M
 * bound on one M; repeated solvers) costs a comparison. The cache belongs
 * to the library and to the thread; it holds copies of the endpoints, never
 * pointers to M. dvc_mclass_cache_clear frees the calling thread's cache
 * (a thread that used these functions should call it before it ends; the
 * thread that exits the program needs not). dvc_mclass_cache_stats gives
 * the calling thread's counts of reused and computed results (either
 * pointer may be NULL). */
#define DVC_MCLASS_CACHE_MAX_M 256
void dvc_mclass_cache_clear(void);
void dvc_mclass_cache_stats(unsigned long *hits, unsigned long *misses);

/* Human-readable list of the flags, e.g. "Z, M, H, P". Static storage per
 * thread. */
const char *dvc_mclass_names(unsigned flags);

#ifdef __cplusplus
}
#endif
#endif
