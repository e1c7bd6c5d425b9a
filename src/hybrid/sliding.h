/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/hybrid/: Filippov sliding on the surfaces of the terms of
 * a decomposed model (decomposed.c compiles the model, sliding.c proves),
 * hooked into the event handling of switch.c and the driver enclose.c
 * (docs/sliding.md). */
#ifndef DVC_HYBRID_SLIDING_H
#define DVC_HYBRID_SLIDING_H

#include "hybrid/engine.h"

/* Most discontinuous terms of a decomposed model. */
#define DVC_HYB_SIDES_MAX 8
/* Most terms sliding at once in a generated mode (the bordered system is
 * solved by Cramer's rule in the mode's expressions). */
#define DVC_HYB_SLIDE_MAX 3

/* Frees the terms of a model and the region vectors of its modes. */
void hyb_contacts_clear(dvc_hybrid_model_struct *m);
/* The mode with the regions s (one entry per term), or -1. */
long hyb_mode_of(const dvc_hybrid_model_struct *m, const int *s);
/* The term mode md slides on, or -1. */
long hyb_sliding_term(const dvc_hybrid_model_struct *m, const dvc_hybrid_mode *md);
/* Index of the assignment of regions s of the terms other than k into a
 * term's qplus / qminus (bit set: that term in h < 0). */
long hyb_others_index(long nt, const int *s, long k);

/* Transition tr reaches the surface of a term (it is on that term's h from
 * a mode of the decomposed form): 1, and *k receives the term; else 0. */
int hyb_slide_reaches(const hyb_ctx *c, const dvc_hybrid_transition *tr, long *k);
/* The surface of term k reached by tr at a time in cd->T with the state
 * Xc: *out receives the transition taken -- into sliding on it when the
 * field on the other side points back to the surface (Filippov), to the
 * other side when it points away; DVC_NOT_CERTIFIED when neither is proven.
 * When other terms slide, the new active set of all terms on their
 * surfaces is the solution of Stewart's LCP (13) over T x Xc, taken only
 * when it is proven unique and strictly complementary (Condition C');
 * otherwise DVC_NOT_CERTIFIED with the candidates. */
dvc_status hyb_slide_decide(hyb_ctx *c, const dvc_hybrid_transition *tr, long k,
                            const hyb_cand *cd, const dvc_ivec_t Xc, dvc_hybrid_transition *out);
/* Entering the sliding mode tr->to at a time in cd->T from Xc: Y receives
 * an a-priori enclosure of the sliding motion on cd->T, on which the
 * weights of its sliding terms are proven strictly inside (0, 1) (one
 * term: a < 0 < b; several: z and 1 - z > 0, the bordered system regular);
 * a term that crosses (LCP (13)) is proven transversal, a term that leaves
 * a mode sliding on several by its weight is proven to depart (h'' of its
 * side's sign); otherwise DVC_NOT_CERTIFIED. */
dvc_status hyb_slide_enter_checks(hyb_ctx *c, const dvc_hybrid_transition *tr,
                                  const hyb_cand *cd, const dvc_ivec_t Xc, dvc_ivec_t Y);
/* 1 when tr leaves a sliding mode and tk is the transition of the new mode
 * back to the surface: it cannot fire in the event's time enclosure (h = 0
 * and h' = 0 at the event, h'' of the side's sign proven by the caller). */
int hyb_slide_departs(const hyb_ctx *c, const dvc_hybrid_transition *tr,
                      const dvc_hybrid_transition *tk);
/* 1 when tr leaves a mode sliding on several terms by a weight reaching 0
 * or 1 and tk is the new mode's transition back to the leaving term's
 * surface: it cannot fire in the event's time enclosure (the departure was
 * proven by hyb_slide_enter_checks). */
int hyb_slide_weight_departs(const hyb_ctx *c, const dvc_hybrid_transition *tr,
                             const dvc_hybrid_transition *tk);
/* 1 when tr was decided by Stewart's LCP (13) and puts a term that slid
 * before it on a side, and tk is the new mode's transition back to that
 * term's surface: it cannot fire on T (h = 0 at the event and h' of the
 * side's sign proven over T x Xc and T x Y). */
int hyb_slide_lcp_departs(const hyb_ctx *c, const dvc_hybrid_transition *tr,
                          const dvc_hybrid_transition *tk, const mpfi_t T, const dvc_ivec_t Xc,
                          const dvc_ivec_t Y);
/* 1 when the transition tr of the current mode (entered by leaving the
 * sliding on a term at the last event, with no event since) back to that
 * surface cannot fire on the step Tstep with box X: h' is proven strictly
 * monotone away from 0 from the event time to the end of the step (over
 * the hull of the boxes since the event), so h keeps the side's sign. */
int hyb_slide_departing(hyb_ctx *c, const dvc_hybrid_transition *tr, long mode,
                        const mpfi_t Tstep, const dvc_ivec_t X);
/* The initial mode of a decomposed model: a sliding mode needs the state on
 * the surface (h(x0) = 0 exactly) and the Filippov condition there; a
 * side's mode on a surface where the solution slides is refused with the
 * mode to give. */
dvc_status hyb_slide_initial(hyb_ctx *c);

#endif
