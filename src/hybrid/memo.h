/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Per-mode reuse of the linear flow's pieces (internal; memo.c): the last
 * exp(A s) enclosure of a mode for its S, K and precision, and the last
 * forcing series at a point t0. A step computes exp(A s) for the same S in
 * its a priori box, its end point and its set map, and the forcing series
 * at the same t0 for every Newton iterate of a crossing; each is computed
 * once. The reuse is exact: the stored result is the one the computation
 * gives for the same arguments (certificates are byte-identical). */
#ifndef DVC_HYBRID_MEMO_H
#define DVC_HYBRID_MEMO_H

#include "dvicert/hybrid.h"

/* E <- the stored exp(A s) of md when it was made for S, K at E's
 * precision: 1, else 0 (E untouched). */
int hyb_memo_expm_get(dvc_imat_t E, const dvc_hybrid_mode *md, const mpfi_t S, int K);
/* Store E as exp(A s) of md for S, K (a failed allocation stores nothing). */
void hyb_memo_expm_put(const dvc_hybrid_mode *md, const dvc_imat_t E, const mpfi_t S, int K);

/* The stored forcing coefficients z_1..z_{K-1} of md at t0 (n rows of
 * K + 1 entries, z[i][k]) for K at precision prec, or NULL. */
mpfi_t **hyb_memo_forcing_get(const dvc_hybrid_mode *md, const mpfr_t t0, int K, long n, mpfr_prec_t prec);
/* Store a copy of z (n rows of K + 1 entries) as md's series at t0. */
void hyb_memo_forcing_put(const dvc_hybrid_mode *md, mpfi_t **z, const mpfr_t t0, int K, long n, mpfr_prec_t prec);

/* The remainder coefficients z_K of md's forcing term over [t0, t0 + smax]
 * (n of them) for K at precision prec, or NULL; put stores z[i][K]. A step
 * flows its enclosure, its end point and its set map over the same
 * [t0, t0 + smax]; with md->revision >= 2 a remainder kept for a longer
 * span from t0 is handed back too (docs/hybrid.md section 2). */
mpfi_t *hyb_memo_rem_get(const dvc_hybrid_mode *md, const mpfr_t t0, const mpfr_t smax, int K, long n,
                         mpfr_prec_t prec);
void hyb_memo_rem_put(const dvc_hybrid_mode *md, mpfi_t **z, const mpfr_t t0, const mpfr_t smax, int K,
                      long n, mpfr_prec_t prec);
/* Scratch array `which` (0 or 1) of md: n rows of K + 1 intervals at prec,
 * kept for the run (hyb_forcing's coefficients), or NULL (out of memory). */
mpfi_t **hyb_memo_scratch(const dvc_hybrid_mode *md, int which, long n, int K, mpfr_prec_t prec);

/* Workspaces of md kept for the run, one per slot (HYB_WS_FIELD: field.c's
 * scratch and its reuse of a step's series; HYB_WS_FORCING: flow.c's of the
 * forcing term; HYB_WS_SERIES: hyb_state_series'; HYB_WS_BAL: flow.c's
 * balancing of A, its norms and its nonzero pattern; HYB_WS_FLOW:
 * hyb_flow_over's matrices), or NULL. put stores ws in the slot (releasing the previous
 * one with its free_fn): 1, or 0 when the memo cannot be allocated (ws not
 * stored: the caller frees it). */
enum { HYB_WS_FIELD, HYB_WS_FORCING, HYB_WS_SERIES, HYB_WS_BAL, HYB_WS_FLOW, HYB_WS_N };
void *hyb_memo_ws_get(const dvc_hybrid_mode *md, int slot);
int hyb_memo_ws_put(const dvc_hybrid_mode *md, int slot, void *ws, void (*free_fn)(void *));

/* Release md's memo (dvc_hybrid_model_clear). */
void hyb_memo_free(dvc_hybrid_mode *md);

#endif
