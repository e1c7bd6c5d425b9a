/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The variables a hybrid certificate does not store but implies: the contact
 * multipliers y of an ideal-contact certificate (an LCS with M = 0,
 * docs/ideal_contacts.md) and the algebraic variables z of a switched DAE
 * (docs/dae.md), enclosed on reading from the verified states (hybrid_tube_y.c). */
#ifndef DVC_IO_HYBRID_TUBE_Y_H
#define DVC_IO_HYBRID_TUBE_Y_H

#include "dvicert/hybrid_cert.h"
#include "dvicert/tube.h"

/* dvc_hybrid_cert_tube_y (dvicert/hybrid_cert.h) is defined in hybrid_tube_y.c. */

/* The word the commands print for event kind k of hc: for a friction
 * model "stick" (enter-slide) and "slip" (leave-slide), else the
 * certificate's kind (cross, enter-slide, leave-slide). friction: the
 * value of dvc_hybrid_cert_friction(hc) (io/hybrid_json.h). */
const char *dvc_hybrid_event_word_(int friction, dvc_hybrid_event_kind k);

#endif
