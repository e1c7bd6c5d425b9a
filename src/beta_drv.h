/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the beta_M driver (src/beta.c) and its structural bounds
 * (src/beta_struct.c): the running bounds of one constant. */
#ifndef DVC_BETA_DRV_H
#define DVC_BETA_DRV_H

#include "dvicert/imat.h"

/* Running bounds of one constant. */
typedef struct {
    double lo, hi;
    const char *hi_by;
} bnd;

static inline void bnd_lo(bnd *b, double lo)
{
    if (lo > b->lo) b->lo = lo;
}

static inline void bnd_hi(bnd *b, double hi, const char *by)
{
    if (hi < b->hi) {
        b->hi = hi;
        b->hi_by = by;
    }
}

/* docs/beta.md sections 3 and 4 (src/beta_struct.c) */
void dvc_beta_singleton_lower_(const dvc_imat_t M, bnd *beta, bnd *alpha);
double dvc_beta_norm_m_minus_i_(const dvc_imat_t M);
void dvc_beta_structural_(const dvc_imat_t M, unsigned classes, bnd *beta, int *beta_exact);

#endif
