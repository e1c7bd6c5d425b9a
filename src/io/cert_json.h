/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/io/: the certificate core's private header (moved to
 * src/cert_internal.h) and the one JSON step the certificate files add. */
#ifndef DVC_IO_CERT_JSON_H
#define DVC_IO_CERT_JSON_H

#include "cert_internal.h"

/* Build p from the problem's JSON text (as embedded in a certificate) at
 * precision prec; name prefixes the messages. Clear p with
 * dvc_dlvi_problem_clear. */
dvc_status dvc_io_problem_from_text(dvc_dlvi_problem_t p, const char *text, const char *name,
                                    mpfr_prec_t prec);

#endif
