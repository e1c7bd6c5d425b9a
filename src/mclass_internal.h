/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the library: the P-matrix proof for a caller that already holds
 * the binary64 view of M (the LVI solver), so that M is converted once. */
#ifndef DVC_MCLASS_INTERNAL_H
#define DVC_MCLASS_INTERNAL_H

#include "dvicert/mclass.h"

/* dvc_mclass_prove_p(M, how), given lohi = the 2 m^2 doubles written by
 * dvc_imat_outward_dd_(lohi, lohi + m * m, M) and its return value exact. */
dvc_status dvc_mclass_prove_p_dd_(const dvc_imat_t M, const double *lohi, int exact, const char **how);

#endif
