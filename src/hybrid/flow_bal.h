/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Internal to the hybrid engine: a linear mode's diagonal balancing, kept
 * with its norms and nonzero pattern in the mode's memo for the run, and
 * the linear flow's loops on it in the x87 kernel of imat_fast.c, the bits
 * of flow.c's MPFI loops (flow_bal.c). */
#ifndef DVC_HYBRID_FLOW_BAL_H
#define DVC_HYBRID_FLOW_BAL_H

#include "dvicert/hybrid.h"

/* A mode's balancing and norms, kept in its memo for the run (HYB_WS_BAL):
 * functions of md->A alone, which a mode never changes, made once as the
 * calls below made them at every step and Newton iterate (the same values:
 * certificates byte-identical). Only at precisions of at least A's (the
 * engine's), where the scaling of As is exact: its entries and the norms
 * (rounded at prec) are those of those calls.
 * nzr, nzj: the entries of A that are not [0, 0], row by row (row i: nzj[k]
 * for k in [nzr[i], nzr[i + 1])); such an entry times anything finite adds
 * nothing to an MPFI sum (mpfi_add with a zero interval is a copy). */
typedef struct {
    long n;
    mpfr_prec_t prec;
    long *e, *nzr, *nzj;
    dvc_imat_t As;
    mpfr_t nA, nAs; /* ||A||_inf, ||D^-1 A D||_inf, rounded up at prec */
    /* the endpoints of As's and A's entries in nzj's order, for the x87
     * kernel (64 bits; NULL: not loaded) */
    long double *sl, *sh, *al, *ah;
} hyb_bal_ws;

/* Exponents e of D = diag(2^e) balancing A (Osborne's iteration). */
void hyb_balance_exps(long *e, const dvc_imat_t A);
/* As = D^-1 A D (exact at As's precision when at least A's), e: D's. */
void hyb_balanced(dvc_imat_t As, long *e, const dvc_hybrid_mode *md);
/* md's kept balancing at prec, made on first use; NULL when prec is below
 * A's or memory is short (the caller then computes as before). */
const hyb_bal_ws *hyb_bal_of(const dvc_hybrid_mode *md, mpfr_prec_t prec);

/* z_{k+1} = (b_k + A z_k) / (k + 1) for k = 0.. (z, bk: n rows; 64 bits)
 * in the x87 kernel while it can: *k0 the first k not done (0: nothing
 * written); returns *k0 > 0. */
int hyb_recursion_ld(mpfi_t **z, mpfi_t **bk, long n, int K, const hyb_bal_ws *w, int *k0);
/* X <- X0 + As S/1 (X0 + ... (X0 + As S/(K-1) X0)) with expm_box's sums
 * (64 bits): 1, or 0 when refused (X unwritten). c: scratch. */
int hyb_horner_ld(dvc_ivec_t X, const dvc_ivec_t X0, const hyb_bal_ws *w, const mpfi_t S, int K,
                  mpfi_t c);
/* E <- I + As S/1 (I + As S/2 (... (I + As S/(K-1)))) with hyb_expm's
 * products and sums (64 bits; the tail is the caller's): 1, or 0 when
 * refused (E unwritten). c: scratch. */
int hyb_expm_ld(dvc_imat_t E, const hyb_bal_ws *w, const mpfi_t S, int K, mpfi_t c);

#endif
