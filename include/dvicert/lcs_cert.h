/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Ideal contacts (dvicert/lcs.h, docs/ideal_contacts.md): the route from a
 * problem file to a hybrid certificate and back (src/io/lcs_json.c). The
 * certificate is a hybrid certificate whose embedded model is the
 * translation of the problem and carries the member "lcs" (the problem
 * and K), so that verify re-derives the model and re-proves Q B a
 * P-matrix.
 *
 * Ownership: the functions fill a caller-initialised dvc_hybrid_cert_t
 * (dvc_hybrid_cert_clear releases it); nothing else is kept. */
#ifndef DVICERT_LCS_CERT_H
#define DVICERT_LCS_CERT_H

#include "dvicert/hybrid_cert.h"
#include "dvicert/lcs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the file at path is a DLVI problem file (an object with "M" and
 * no "format", "modes" or "decomposed") whose M is exactly zero; 0
 * otherwise, including a file that cannot be read (its reader says why). */
int dvc_lcs_file_is_lcs(const char *path);

/* 1 when the file at path is a hybrid certificate made by dvc_lcs_enclose
 * (its embedded model has the member "lcs"). */
int dvc_lcs_file_is_cert(const char *path);

/* 1 when the certificate c (read or made) is one of dvc_lcs_enclose. */
int dvc_lcs_cert_is_lcs(const dvc_hybrid_cert_t c);

/* Prove Q B a P-matrix (m = 1: Q B > 0), translate the problem at path and enclose its solution
 * into c (prec 0: the file's "prec", else 53). DVC_ERR_INPUT for a problem
 * outside the supported class (the message names the file, the field and
 * the reason: a zero diagonal entry of Q B is relative degree two,
 * impacts, out of scope), DVC_NOT_CERTIFIED when Q B or the run cannot be
 * proven. */
dvc_status dvc_lcs_enclose(dvc_hybrid_cert_t c, const char *path, mpfr_prec_t prec);

/* Verify a certificate read by dvc_hybrid_cert_read: the hybrid
 * re-verification (dvc_hybrid_cert_verify; rec as there), then the
 * embedded model must be the translation of the embedded problem with the
 * stated K (Q B re-proven a P-matrix) and the run must never be in the region
 * w < 0 (docs/ideal_contacts.md, section 3). */
dvc_status dvc_lcs_cert_verify(const dvc_hybrid_cert_t c, dvc_hybrid_result_t rec);

#ifdef __cplusplus
}
#endif
#endif
