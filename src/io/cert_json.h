/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: the JSON side of certificates used by the in-memory core. */
#ifndef DVC_IO_CERT_JSON_H
#define DVC_IO_CERT_JSON_H

#include "dvicert/cert.h"

/* Build p from the problem's JSON text (as embedded in a certificate) at
 * precision prec; name prefixes the messages. Clear p with
 * dvc_problem_clear. */
dvc_status dvc_io_problem_from_text(dvc_dlvi_problem_t p, const char *text, const char *name,
                                    mpfr_prec_t prec);

/* Append a claim to cl (key and text copied): src/cert.c, shared with the
 * reader. */
dvc_status dvc_cert_claims_add_(dvc_cert_claims *cl, const char *key, dvc_claim_type ty,
                                const char *text, long long ival);

#endif
