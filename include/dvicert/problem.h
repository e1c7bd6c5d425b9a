/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* DLVI problem files (JSON, docs/formats.md) -> dvc_dlvi_problem_t. */
#ifndef DVICERT_PROBLEM_H
#define DVICERT_PROBLEM_H

#include "dvicert/dlvi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read the problem file at path into p (tabulated data are read relative
 * to the file's directory). prec: working precision in bits; 0 = the
 * file's "prec", else 53. p must have been initialised
 * (dvc_dlvi_problem_init, any dimensions); it is cleared and rebuilt with
 * the file's dimensions. The functions of t f and g are attached to p as
 * callbacks that p owns: dvc_dlvi_problem_clear releases them.
 * Errors: DVC_ERR_INPUT / DVC_ERR_IO, the message names the file and the
 * field; p is then empty (n = m = 0) and must still be cleared. */
dvc_status dvc_problem_read(dvc_dlvi_problem_t p, const char *path, mpfr_prec_t prec);

#ifdef __cplusplus
}
#endif
#endif
