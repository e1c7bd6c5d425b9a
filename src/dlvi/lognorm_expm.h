/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the lognorm route: the enclosure of exp(J u) of the error-set
 * propagation (docs/lognorm.md sections 5d and 10), in MPFI and, at 53
 * bits, in binary64 with the same endpoints bit for bit. */
#ifndef DVC_DLVI_LOGNORM_EXPM_H
#define DVC_DLVI_LOGNORM_EXPM_H

#include "dvicert/imat.h"

/* Scratch of the MPFI enclosure (not owned by the functions below). */
typedef struct {
    dvc_imat_struct *T1, *T2; /* n x n, the precision of out */
    mpfi_ptr s, v;
} dvc_lnf_expm_ws;

/* out encloses exp(J u) for every u in [u] >= 0: the Taylor polynomial of
 * degree 16 by Horner in intervals plus the remainder bound
 * z^17/17! / (1 - z/18), z >= ||J u||_inf, added to every entry. Returns 1,
 * or 0 when z >= 4 (steps too long for this enclosure) or an entry is not
 * finite. In MPFI throughout. */
int dvc_lnf_expm_mpfi_(dvc_imat_t out, const dvc_imat_t J, const mpfi_t u, dvc_lnf_expm_ws *ws);

/* The same in binary64 under FE_UPWARD, with MPFI's endpoints exactly
 * (53 bits only): 1 or 0 as dvc_lnf_expm_mpfi_ would return, with the same
 * out; -1 when that cannot be guaranteed (a precision other than 53, an
 * endpoint outside the normal binary64 range, an underflow, overflow or
 * invalid operation, memory) and nothing is written to out. The caller's
 * rounding mode and exception flags are kept. */
int dvc_lnf_expm_d_(dvc_imat_t out, const dvc_imat_t J, const mpfi_t u);

#endif
