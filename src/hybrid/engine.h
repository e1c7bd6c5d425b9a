/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/hybrid/: the state of one run of the event-driven engine
 * and the steps shared by the driver (enclose.c), the switch handling
 * (switch.c) and the result (result.c). */
#ifndef DVC_HYBRID_ENGINE_H
#define DVC_HYBRID_ENGINE_H

#include "hybrid/flow.h"

typedef struct {
    const dvc_hybrid_model_struct *m;
    dvc_hybrid_result_struct *r;
    long n;
    int K;
    mpfr_prec_t prec;  /* internal: the model's precision plus its guard bits */
    mpfr_prec_t oprec; /* of the results and of the grid times */
} hyb_ctx;

/* A certified crossing of transition tr in T (direction dir, phi' over T). */
typedef struct {
    long tr;
    int dir;
    mpfi_t T, dphi;
} hyb_cand;

/* Append grid point t_{nsteps} with the set L, after a step with the given
 * box and mode (box NULL: the first point). */
dvc_status hyb_push_point(hyb_ctx *c, const mpfr_t t, const hyb_set *L, const dvc_ivec_t box,
                          long mode);
dvc_status hyb_push_event(hyb_ctx *c, const mpfi_t t, long g, long from, long to,
                          const dvc_ivec_t x, const mpfi_t dphi);
/* phi (value of g) and phi' = dg/dt + grad g . f over T x X in mode md. */
dvc_status hyb_dphi_eval(mpfi_t phi, mpfi_t dphi, const hyb_ctx *c, long g,
                         const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t X);
/* 1 / -1 when x is proven positive / negative, else 0. */
int hyb_sgn(const mpfi_t x);
/* S <- [a - t0] (enclosure of the difference of two point times). */
void hyb_diff_pt(mpfi_t S, const mpfr_t a, const mpfr_t t0);
/* T as "[lo, hi]" with 17 digits, for messages. */
void hyb_time_str(char *buf, size_t len, const mpfi_t T);
/* Interval Newton on phi = g(t, x(t)) over Tc (in place). A balanced mode
 * (docs/hybrid.md section 3) takes the cheap flow of the set's box; refine
 * then tightens the result with two iterations of the set's own flow
 * (no-op for other modes). */
dvc_status hyb_newton(hyb_ctx *c, mpfi_t Tc, mpfi_t dphi, long g, const dvc_hybrid_mode *md,
                      const hyb_set *L, const mpfr_t t0, int refine);
/* Transversality of g not provable on [t0, t1]: classify and stop. */
dvc_status hyb_classify_tangent(hyb_ctx *c, long g, const dvc_hybrid_mode *md, const hyb_set *L,
                                const mpfr_t t0, const mpfr_t t1);
/* Apply a certified crossing: record it, move L to sup T through the
 * switch, record the step; t and mode are updated. */
dvc_status hyb_do_event(hyb_ctx *c, hyb_set *L, mpfr_t t, long *mode, const hyb_cand *cd);
/* Y encloses the solution of mode md on Tc from any state of Xc at any
 * time of Tc (Picard-Lindelof; switch.c). */
dvc_status hyb_apriori(dvc_ivec_t Y, const hyb_ctx *c, const dvc_hybrid_mode *md, const mpfi_t Tc,
                       const dvc_ivec_t Xc);

#endif
