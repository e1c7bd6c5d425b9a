/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/hybrid/: Filippov sliding on the surface of a contact of
 * the decomposed form (sliding.c), hooked into the event handling of
 * switch.c and the driver enclose.c (docs/sliding.md). */
#ifndef DVC_HYBRID_SLIDING_H
#define DVC_HYBRID_SLIDING_H

#include "hybrid/engine.h"

/* Frees the contacts of a model (decomposed.c). */
void hyb_contacts_clear(dvc_hybrid_model_struct *m);

/* A crossing of h = 0 from h > 0 or h < 0 (transition tr into the
 * contact's sliding mode) certified in cd with the state Xc: *out receives
 * the transition taken -- into the sliding mode when the field on the other
 * side points back to the surface (Filippov), to the other side when it
 * points away; DVC_NOT_CERTIFIED when neither is proven. */
dvc_status hyb_slide_decide(hyb_ctx *c, const dvc_hybrid_transition *tr, const hyb_cand *cd,
                            const dvc_ivec_t Xc, dvc_hybrid_transition *out);
/* Entering the sliding mode by tr at a time in cd->T from Xc: Y receives an
 * a-priori enclosure of the sliding motion on cd->T, on which the Filippov
 * condition h'+ < 0 < h'- (weights strictly inside (0, 1), bordered system
 * regular) is proven; otherwise DVC_NOT_CERTIFIED. */
dvc_status hyb_slide_enter_checks(hyb_ctx *c, const dvc_hybrid_transition *tr,
                                  const hyb_cand *cd, const dvc_ivec_t Xc, dvc_ivec_t Y);
/* 1 when tr leaves a sliding mode and tk is the transition of the new mode
 * back to the surface: it cannot fire in the event's time enclosure (h = 0
 * and h' = 0 at the event, h'' of the side's sign proven by the caller). */
int hyb_slide_departs(const hyb_ctx *c, const dvc_hybrid_transition *tr,
                      const dvc_hybrid_transition *tk);
/* 1 when the transition tr of the current mode (a side h > 0 or h < 0 of
 * a contact, entered by leaving its sliding mode at the last event, with no
 * event since) cannot fire on the step Tstep with box X: h'+- is proven
 * strictly monotone away from 0 from the event time to the end of the step
 * (over the hull of the boxes since the event), so h keeps the side's sign. */
int hyb_slide_departing(hyb_ctx *c, const dvc_hybrid_transition *tr, long mode,
                        const mpfi_t Tstep, const dvc_ivec_t X);
/* A run starting in a sliding mode: the initial state must lie on the
 * surface (h(x0) = 0 exactly) with the Filippov condition proven there. */
dvc_status hyb_slide_initial(hyb_ctx *c);

#endif
