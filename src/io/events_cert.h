/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: hybrid certificates of the DLVI events route (docs/formats.md,
 * "Events certificates"). Their embedded model is
 * {"dlvi_events": {"problem": P}}, P the resolved DLVI problem (tables
 * inlined); the switched model is rebuilt from P by dvc_dlvi_events_model
 * at the certificate's precision. */
#ifndef DVC_IO_EVENTS_CERT_H
#define DVC_IO_EVENTS_CERT_H

#include <jansson.h>

#include "dvicert/events.h"
#include "dvicert/hybrid_cert.h"

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
 * model, and the trajectory from with its bounds when not NULL
 * ({"problem": P, "trajectory": {...}}, docs/formats.md), written to path
 * (NULL: not written). */
dvc_status dvc_events_cert_write_(dvc_hybrid_cert_struct *c, const json_t *problem,
                                  const dvc_dlvi_events_from *from, const char *path);

#endif
