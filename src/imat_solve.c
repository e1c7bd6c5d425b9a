/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* STUB: being written. */
#include "dvicert/dvicert.h"
dvc_status dvc_imat_solve(dvc_ivec_t x, const dvc_imat_t A, const dvc_ivec_t b) { (void)x; (void)A; (void)b; return dvc_error(DVC_ERR_INTERNAL, "not implemented"); }
dvc_status dvc_imat_solve_mat(dvc_imat_t X, const dvc_imat_t A, const dvc_imat_t B) { (void)X; (void)A; (void)B; return dvc_error(DVC_ERR_INTERNAL, "not implemented"); }
dvc_status dvc_imat_inv(dvc_imat_t X, const dvc_imat_t A) { (void)X; (void)A; return dvc_error(DVC_ERR_INTERNAL, "not implemented"); }
dvc_status dvc_imat_cholesky_spd(const dvc_imat_t A) { (void)A; return dvc_error(DVC_ERR_INTERNAL, "not implemented"); }
