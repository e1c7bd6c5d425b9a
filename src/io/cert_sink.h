/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: the certificate file written step by step (src/io/cert_json.c),
 * the writer port of the enclose pipeline (src/enclose/port.h): a sink for
 * the engines' grid points. The embedded problem is a JSON value behind
 * the opaque dvc_enclose_doc. */
#ifndef DVC_IO_CERT_SINK_H
#define DVC_IO_CERT_SINK_H

#include "enclose/port.h"

/* The ports of dvc_enclose_ports with these names (see there). */
dvc_status dvc_cert_sink_new(dvc_enclose_sink **s, const char *out_path, int retries);
int dvc_cert_sink_deferred(const dvc_enclose_sink *s);
void dvc_cert_sink_arm(dvc_enclose_sink *s);
dvc_status dvc_cert_sink_begin(dvc_enclose_sink *s, dvc_cert_struct *c, const dvc_dlvi_problem_struct *p,
                               const dvc_dlvi_result_struct *r, const dvc_enclose_doc *doc, const long *e,
                               const dvc_enclose_fields *f);
dvc_status dvc_cert_sink_point(const dvc_dlvi_point *pt, void *ctx);
dvc_status dvc_cert_sink_end(dvc_enclose_sink *s);
void dvc_cert_sink_detach(dvc_enclose_sink *s);
dvc_status dvc_cert_sink_close(dvc_enclose_sink *s, dvc_status st);

#endif
