/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The contact multipliers y of an ideal-contact certificate (an LCS with
 * M = 0, docs/ideal_contacts.md), enclosed on reading (contact_y.c). */
#ifndef DVC_CLI_CONTACT_Y_H
#define DVC_CLI_CONTACT_Y_H

#include "dvicert/hybrid_cert.h"
#include "dvicert/tube.h"

/* tb: the hybrid tube of certificate hc's stated (or recomputed) result, m
 * = 0. For an ideal-contact certificate, gives it the m = ncontacts
 * multipliers as enclosures (dvc_tube_set_yboxes): y_j over each step and
 * at each grid point, 0 off face j. For a DAE certificate (a model with
 * algebraic variables, docs/dae.md), the m = nz algebraic variables z(t, x)
 * of each mode over the same boxes (recomputed from the model, never
 * stored). Any other certificate: tb untouched, DVC_OK. On failure tb is
 * untouched too (the message says why). */
dvc_status dvc_cli_contact_y(dvc_tube_t tb, const dvc_hybrid_cert_struct *hc);

/* The word the commands print for event kind k of hc: for a friction
 * model "stick" (enter-slide) and "slip" (leave-slide), else the
 * certificate's kind (cross, enter-slide, leave-slide). friction: the
 * value of dvc_hybrid_cert_friction(hc) (io/hybrid_json.h). */
const char *dvc_cli_event_word(int friction, dvc_hybrid_event_kind k);

#endif
