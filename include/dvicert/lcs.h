/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Ideal contacts: linear complementarity systems
 *   x' = A x + B y + f(t),  0 <= y _|_ Q x + g >= 0   (a DLVI with M = 0)
 * of relative degree one (Q B a P-matrix; m = 1: Q B > 0), certified as
 * sliding motions on the constraint faces by the hybrid engine
 * (docs/ideal_contacts.md). The problem is translated into a decomposed
 * hybrid model with one discontinuous term per contact ("contact", or
 * "contact1" .. "contactm": y_j = 0 where w_j = (Q x + g)_j > 0, y_j = K
 * where w_j < 0); its certificate is a hybrid certificate whose embedded
 * model carries the member "lcs" (the problem and K), so that verify
 * re-derives the model and re-proves Q B a P-matrix.
 *
 * Supported: m <= 8 with at most one face active at a time (a run that
 * reaches a second face while on one stops, not certified), M = 0
 * exactly, l = 0, u = +inf, g constant, f given as expressions (no
 * tables). Refused with the reason otherwise.
 *
 * Ownership: the functions fill a caller-initialised dvc_hybrid_cert_t
 * (dvc_hybrid_cert_clear releases it); nothing else is kept. */
#ifndef DVICERT_LCS_H
#define DVICERT_LCS_H

#include "dvicert/hybrid_cert.h"

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

/* The run r of the translated model m is the LCS solution: its initial
 * mode, every step and every event lie in w_j > 0 or on w_j = 0 for every
 * contact j, never in w_j < 0. DVC_OK, or DVC_NOT_CERTIFIED naming the first offending step or
 * event. */
dvc_status dvc_lcs_result_check(const dvc_hybrid_model_t m, const dvc_hybrid_result_struct *r);

#ifdef __cplusplus
}
#endif
#endif
