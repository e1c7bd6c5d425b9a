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

/* Verified enclosure [xlo, xhi] of { A^{-1} b : A in [Alo, Ahi], b in
 * [blo, bhi] } (A n x n, b n x 1, exact binary64 endpoints) by the LU
 * factors and their triangular inverses (src/imat_lu.c). Returns
 * DVC_FP_OK, DVC_FP_SINGULAR (the floating LU broke down), or another
 * DVC_FP_ code when its a priori bound does not prove regularity; then
 * dvc_fp_verify_solve (explicit inverse, sharper bound) may still prove it.
 * *cnorm: the bound of ||I - R A||_inf (or the failing value). */
int dvc_fp_solve_lu_(long n, const double *Alo, const double *Ahi, const double *blo,
                     const double *bhi, double *xlo, double *xhi, double *cnorm);

/* dvc_imat_solve through the explicit approximate inverse only
 * (dvc_fp_verify_solve at 53 bits, as dvc_imat_solve_mat): the enclosures
 * the LVI certifier has always produced, which stored certificates must
 * contain when they are verified again. */
dvc_status dvc_imat_solve_inv_(dvc_ivec_t x, const dvc_imat_t A, const dvc_ivec_t b);

/* X <- an enclosure of a^{-1} (a: n x n binary64, row-major; n = X->r)
 * by the binary64 kernel (dvc_fp_verify_solve with B = I), whatever X's
 * precision: the endpoints are binary64 numbers, the widths about
 * n u cond(a) |a^{-1}|. For point frames, whose inverse only has to be an
 * enclosure (docs/hybrid.md section 3). Falls back to dvc_imat_inv on
 * the matrix a when the kernel cannot prove a regular. */
dvc_status dvc_imat_inv_d_(dvc_imat_t X, const double *a);

#endif
