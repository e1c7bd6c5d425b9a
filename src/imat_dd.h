/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the library: binary64 views of interval matrices for the
 * directed-rounding kernels (src/fprnd.c). */
#ifndef DVC_IMAT_DD_H
#define DVC_IMAT_DD_H

#include "dvicert/imat.h"

/* lo[t] <= every member's entry t <= hi[t] (row-major, r * c doubles).
 * Returns 1 when every endpoint was converted exactly, 0 when some were
 * rounded outward (more than 53 bits, or a tiny exponent), -1 when an
 * endpoint is NaN, infinite or beyond the binary64 range (lo, hi then
 * unspecified). Cheap: the exact case reads the significands directly. */
int dvc_imat_outward_dd_(double *lo, double *hi, const dvc_imat_t A);

#endif
