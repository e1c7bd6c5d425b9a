/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* All solutions of a linear complementarity problem
 *   z >= 0,  w = M z + q >= 0,  z^T w = 0
 * with interval data [M], [q], enclosed with a three-valued answer in the
 * style of Rohn's verlcpall. Every statement holds for every M in [M] and
 * every q in [q]. Proofs (docs/lcpall.md): a P-matrix proof (unique
 * solution) when it succeeds, else the enumeration of the 2^n complementary
 * bases, each one excluded by a Farkas certificate checked with directed
 * rounding, or by a verified solve of its basis system with a component
 * proven negative, or enclosed by that verified solve. The work runs in
 * binary64 with directed rounding (enclosures are outward binary64
 * intervals whatever the precision of the data); the caller's FPU rounding
 * mode is restored on return. */
#ifndef DVICERT_LCPALL_H
#define DVICERT_LCPALL_H

#include "dvicert/imat.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    /* All solutions enclosed and the list proven complete: for every data
     * point there are exactly nsol solutions, one in each box. */
    DVC_LCPALL_COMPLETE = 0,
    /* Solutions enclosed, completeness not proven (reason says why: a
     * degenerate solution, a basis that could be neither excluded nor
     * certified, the time budget). */
    DVC_LCPALL_INCOMPLETE = 1,
    /* Nothing proven (reason says where). */
    DVC_LCPALL_FAILED = 2
} dvc_lcpall_verdict;

typedef enum {
    /* For every data point a solution with this basis lies in the box; when
     * `nondegenerate` is set it is the only solution in the box. */
    DVC_LCPALL_SOL_EXISTS = 0,
    /* The basis could be neither excluded nor certified: a solution may lie
     * in the box (when the box is finite) or not exist at all. */
    DVC_LCPALL_SOL_CANDIDATE = 1
} dvc_lcpall_sol_status;

typedef enum {
    DVC_LCPALL_AUTO = 0, /* uniqueness tests first (P-matrix), then enumeration */
    DVC_LCPALL_ENUM = 1  /* enumeration of the complementary bases only */
} dvc_lcpall_method;

#define DVC_LCPALL_N_MAX 30

struct dvc_lcpall_result_s;

typedef struct {
    dvc_lcpall_method method;
    long max_n;         /* enumeration refused above this size (default 24, at most DVC_LCPALL_N_MAX) */
    double max_seconds; /* enumeration budget in seconds (default 60; <= 0: none) */
    long max_solutions; /* stored boxes at most (default 1 << 20); more: INCOMPLETE */
    /* Optional consumer of the boxes (default NULL): when set, each box k is
     * handed to on_box(on_box_ctx, r, k) as soon as it is found, in the
     * order of the list, and then dropped, so that memory stays flat
     * whatever the number of solutions. The counts of r grow as usual, but
     * dvc_lcpall_get / dvc_lcpall_get_d read box k only during that call.
     * The call runs in round-to-nearest. A nonzero return stops the
     * enumeration (verdict INCOMPLETE, "stopped by the consumer of the
     * boxes"). max_solutions still applies. */
    int (*on_box)(void *ctx, const struct dvc_lcpall_result_s *r, long k);
    void *on_box_ctx;
} dvc_lcpall_opts;

void dvc_lcpall_opts_default(dvc_lcpall_opts *o);

typedef struct dvc_lcpall_result_s {
    long n;
    dvc_lcpall_verdict verdict;
    /* "P-matrix (<how>), unique solution by the LVI route" or
     * "enumeration of complementary bases" (static strings). */
    const char *route;
    /* Why not COMPLETE (empty when COMPLETE): where it failed, which basis
     * could not be decided, which solutions are degenerate. */
    char reason[512];
    long nsol;          /* boxes listed (EXISTS and CANDIDATE) */
    long nexists;       /* of which EXISTS */
    long ndegenerate;   /* of which EXISTS but strict complementarity not proven */
    /* 1 when every solution (for every data point) lies in one of the boxes:
     * every basis was excluded or enclosed. */
    int covered;
    /* Enumeration counts. */
    long bases;         /* complementary bases examined */
    long excl_farkas;   /* excluded by a Farkas certificate */
    long excl_solve;    /* excluded by a verified solve (a component proven < 0) */
    long undecided;     /* neither excluded nor enclosed (singular / ill-conditioned) */
    double seconds;
    /* Storage of the boxes (private; read them with dvc_lcpall_get). */
    long cap_;
    char *basis_;          /* nsol x n */
    unsigned char *stat_;  /* nsol: status | 2 * nondegenerate */
    double *lo_, *hi_;     /* nsol x n: z_i for i in the basis, w_i otherwise */
    long first_;           /* index of the first box stored (on_box: the current one) */
    int (*sink_)(void *, const struct dvc_lcpall_result_s *, long);
    void *sink_ctx_;
} dvc_lcpall_result_struct;
typedef dvc_lcpall_result_struct dvc_lcpall_result_t[1];

/* The result owns its storage; clear it in every case. */
void dvc_lcpall_result_init(dvc_lcpall_result_t r);
void dvc_lcpall_result_clear(dvc_lcpall_result_t r);

/* Enclose all solutions of LCP([M], [q]) (M n x n, q n; finite entries).
 * opts may be NULL (defaults). Returns DVC_OK when the verdict is COMPLETE,
 * DVC_NOT_CERTIFIED for INCOMPLETE and FAILED (message = r->reason),
 * DVC_ERR_INPUT for bad dimensions or non-finite data (r->verdict FAILED). */
dvc_status dvc_lcpall_solve(dvc_lcpall_result_t r, const dvc_imat_t M, const dvc_ivec_t q,
                            const dvc_lcpall_opts *opts);

/* Box k (0 <= k < r->nsol): z and w (resized to n at their precision,
 * either may be NULL) enclose z and w = M z + q (z_i = 0 exactly off the
 * basis, w_i = 0 exactly on it); basis (n chars, may be NULL) receives 1
 * where i is in the complementary basis (w_i = 0, z_i free) and 0 where
 * z_i = 0; *nondegenerate (may be NULL) is 1 when z_i + w_i > 0 is proven
 * for every i. Returns the status of the box, or -1 for k out of range. */
int dvc_lcpall_get(const dvc_lcpall_result_t r, long k, dvc_ivec_t z, dvc_ivec_t w, char *basis,
                   int *nondegenerate);

/* Box k as binary64 bounds, the way the enumeration keeps it (no MPFI):
 * lo, hi (n values each, may be NULL) receive the bounds of z_i for i in
 * the basis and of w_i for i off it (the other one is 0 exactly); basis
 * and *nondegenerate as in dvc_lcpall_get. Returns the status, or -1 for
 * k out of range (or, with on_box, not the box being handed over). */
int dvc_lcpall_get_d(const dvc_lcpall_result_t r, long k, double *lo, double *hi, char *basis,
                     int *nondegenerate);

const char *dvc_lcpall_verdict_name(dvc_lcpall_verdict v);

#ifdef __cplusplus
}
#endif
#endif
