/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: the 64-bit verified solve of a point system in x87 extended
 * arithmetic (imat_solve_ld.c), the bits of imat_solve.c's MPFR route. */
#ifndef DVC_IMAT_SOLVE_LD_H
#define DVC_IMAT_SOLVE_LD_H

#include "dvicert/imat.h"

/* For A (n x n) and B (n x k, row-major) with point entries exact in 64
 * bits: g (n, 64 bits) <- the row sums of |I - R A| as solve_mpfi bounds
 * them, xt (n x k, 64 bits) <- its refined predictors, z (n x k, 64 bits)
 * <- its enclosures of R (B - A xt), the same bits. Returns 1 when done; 0
 * when not taken (other entries, no x87 extended unit, a value out of the
 * x87 range on the way), with *singular = 1 when solve_mpfi's approximate
 * inverse meets a zero pivot (the system is then reported singular). */
int dvc_solve_ld_(long n, long k, const dvc_imat_t A, mpfi_t *B, mpfr_t *g, mpfr_t *xt,
                  mpfi_t *z, int *singular);

#endif
