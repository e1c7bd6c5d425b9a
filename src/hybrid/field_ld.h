/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/hybrid/: the x87 route of a field mode's flow (field_ld.c).
 * Each function computes what its MPFI counterpart in field.c computes, the
 * same operations in x87 extended precision with the field's binary64
 * program (dvc_expr_fast_run_di_), without converting through MPFI between
 * them; 0 when done (every result written is then MPFI's, bit for bit),
 * nonzero when not proven, and then nothing is written and the caller runs
 * the MPFI code, which gives the same results and its own messages. */
#ifndef DVC_HYBRID_FIELD_LD_H
#define DVC_HYBRID_FIELD_LD_H

#include "hybrid/internal.h"
#include "expr/elem.h"

/* apriori_box: Bx encloses every solution from X0 at T's start over [0, hs]. */
int hyb_apriori_ld(dvc_ivec_t Bx, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t X0,
                   mpfr_srcptr hs);
/* jacobian_core: J encloses D_x Phi over S for the solutions in Y (L: a
 * 64-bit scratch for the exponential). */
int hyb_jacobian_ld(dvc_imat_t J, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t Y,
                    const mpfi_t S, mpfr_ptr L);
/* sub_jacobian: J encloses D_x Phi at S as the product of the m sub-steps'
 * Jacobians (Bx the step box, X0 the hull of the set and its centre c, cs
 * and rs the centre's series and the step box's; L as above). */
int hyb_sub_jacobian_ld(dvc_imat_t J, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t Bx,
                        const dvc_ivec_t X0, const dvc_ivec_t c, mpfi_t **cs, mpfi_t **rs,
                        const mpfi_t S, int K, int m, mpfr_ptr L);
/* centre_at's sum: out_i = sum_{k<K} cl[i K + k] s^k + rl[i] s^K by
 * Horner, as field.c's centre_at (FE_UPWARD, x87 intervals). */
void hyb_centre_w_ld(dvc_li *out, const dvc_li *cl, const dvc_li *rl, dvc_li s, int K, long n);
/* The three substitutions J1 <- I + [0, sh] D J1 (twice), I + s D J1 of
 * jacobian_core on x87 intervals (n x n, row-major; FE_UPWARD). */
void hyb_jac_passes_ld(dvc_li *j1, const dvc_li *d, dvc_li sh, dvc_li s, long n);

#endif
