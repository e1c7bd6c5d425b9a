/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/hybrid/: the validated flow of a linear mode and the
 * Lohner set that carries the state (docs/hybrid.md). */
#ifndef DVC_HYBRID_FLOW_H
#define DVC_HYBRID_FLOW_H

#include "hybrid/internal.h"

/* The state set {p + B r : p in P, r in R}: P a narrow interval vector,
 * B a point matrix (an orthonormalised frame), R an interval vector. */
typedef struct {
    dvc_ivec_t P;
    dvc_imat_t B;
    dvc_ivec_t R;
    long *bexp; /* bal: the frame is chosen in the coordinates D^-1 x, D = diag(2^bexp) */
    int bal;
    int inv64; /* the frame's inverse by the binary64 kernel (revision >= 2) */
    struct hyb_map_ws_s *ws; /* hyb_set_map_c's scratch, made on first use (not to be shared:
                              * a hyb_set is never copied) */
} hyb_set;

void hyb_set_init(hyb_set *L, long n, mpfr_prec_t prec);
void hyb_set_clear(hyb_set *L);
void hyb_set_from_box(hyb_set *L, const dvc_ivec_t X);
/* X <- P + B R (an enclosure of the set). */
void hyb_set_box(dvc_ivec_t X, const hyb_set *L);
/* The set's image under x -> M x + v (v may be NULL), re-framed by QR. */
dvc_status hyb_set_map(hyb_set *L, const dvc_imat_t M, const dvc_ivec_t v);

/* Same, with the centre's image given: P' from ctr + M (P - mid P). */
dvc_status hyb_set_map_c(hyb_set *L, const dvc_imat_t M, const dvc_ivec_t v, const dvc_ivec_t ctr);
/* The same set in a QR frame, its longest direction first, when the
 * frame's condition number exceeds condmax. */
dvc_status hyb_set_reframe(hyb_set *L, double condmax);

/* Field (nonlinear) modes (field.c): X (if not NULL) encloses x(t0 + s),
 * s in S, from every state of L; Lout (if not NULL) receives the image of L
 * at s (S narrow). */
dvc_status hyb_field_flow(dvc_ivec_t X, hyb_set *Lout, const dvc_hybrid_mode *md, const hyb_set *L,
                          const mpfr_t t0, const mpfi_t S, int K);
/* J encloses D_x Phi(t0 + s; t0, x0) for s in S, for every solution of the
 * mode that stays in Y on [t0, t0 + sup S] (T encloses those times). */
dvc_status hyb_jacobian(dvc_imat_t J, const dvc_hybrid_mode *md, const mpfi_t T,
                        const dvc_ivec_t Y, const mpfi_t S, int K);

/* x <- x^k for an interval x. */
void hyb_pow_ui(mpfi_t x, int k);
/* E encloses exp(A s) for all s in S (0 <= S), Taylor order K. */
dvc_status hyb_expm(dvc_imat_t E, const dvc_imat_t A, const mpfi_t S, int K);
/* z encloses int_0^s exp(A(s-u)) b(t0+u) du for all s in S. */
dvc_status hyb_forcing(dvc_ivec_t z, const dvc_hybrid_mode *md, const mpfr_t t0, const mpfi_t S,
                       int K);
/* exp(A s) of a linear mode, s in S: hyb_expm, in the coordinates of the
 * mode's diagonal balancing when md->balance (docs/hybrid.md section 3). */
dvc_status hyb_expm_md(dvc_imat_t E, const dvc_hybrid_mode *md, const mpfi_t S, int K);
/* a >= ||A|| (md->balance: ||D^-1 A D|| of the balancing), rounded up. */
void hyb_mode_norm(mpfr_t a, const dvc_hybrid_mode *md);
/* F encloses f(T, X) for the mode's field. */
dvc_status hyb_field(dvc_ivec_t F, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t X);
/* X encloses x(t0 + s), s in S, for every initial state at t0 in L. */
dvc_status hyb_flow_over(dvc_ivec_t X, const dvc_hybrid_mode *md, const hyb_set *L,
                         const mpfr_t t0, const mpfi_t S, int K);
/* The same from L's box, by the series applied to vectors (a balanced
 * linear mode; hyb_flow_over otherwise): n times cheaper, for the interval
 * Newton of the crossing times, where the set's box is narrow. */
dvc_status hyb_flow_over_box(dvc_ivec_t X, const dvc_hybrid_mode *md, const hyb_set *L,
                             const mpfr_t t0, const mpfi_t S, int K);
/* L <- image of L by the flow from t0 to t0 + s, s in S (S narrow). */
dvc_status hyb_advance(hyb_set *L, const dvc_hybrid_mode *md, const mpfr_t t0, const mpfi_t S,
                       int K);

/* xs[i][0..K] encloses the Taylor coefficients of the solution x_i at any
 * time of T from any state in X (x_0 = X, x_{k+1} = f_k / (k+1)). */
dvc_status hyb_state_series(mpfi_t **xs, const dvc_hybrid_mode *md, const mpfi_t T,
                            const dvc_ivec_t X, int K);

#endif
