/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: hybrid certificates of the DLVI events route (docs/formats.md,
 * "Events certificates"). Their embedded model is
 * {"dlvi_events": {"problem": P}}, P the resolved DLVI problem (tables
 * inlined); the switched model is rebuilt from P by dvc_dlvi_events_model
 * at the certificate's precision. */
#ifndef DVC_IO_EVENTS_CERT_H
#define DVC_IO_EVENTS_CERT_H

#include <jansson.h>

#include "dlvi/events_from.h"
#include "dvicert/events.h"
#include "dvicert/hybrid_cert.h"
#include "io/cert_mark.h"

/* 1 when the embedded model json is one of the events route. */
int dvc_events_cert_is_events_(const json_t *model);

/* The model of an events certificate (m initialised in every case, so the
 * caller clears it): the problem read at prec, dvc_dlvi_events_model, and
 * one run of the engine, which builds the patterns the run visits (the
 * model is lazy; the stated steps and events name them). name: for
 * messages. */
dvc_status dvc_events_cert_model_(dvc_hybrid_model_t m, const json_t *model, const char *name,
                                  mpfr_prec_t prec);

/* c (model and result of the events route) with problem as its embedded
 * model, and the trajectory's rows with their bounds from the spool from
 * when not NULL ({"problem": P, "trajectory": {...}}, docs/formats.md),
 * written to path (NULL: not written, c's model text holds them). Written,
 * the rows are streamed from the spool into the text as it is written and
 * hashed: c's model text then holds a placeholder in their place. */
/* The placeholder of the model's 'trajectory' when written (a control
 * character: no problem a reader takes states it), and its replacement,
 * the rows of from as the tree's text (io/cert_mark.h). */
#define DVC_EVENTS_TRAJ_MARK "\001dvicert:trajectory"
void dvc_events_cert_traj_mark_(dvc_mark *mk, const dvc_efrom_spool *from);

dvc_status dvc_events_cert_write_(dvc_hybrid_cert_struct *c, const json_t *problem, const dvc_efrom_spool *from,
                                  const char *path);

#endif
