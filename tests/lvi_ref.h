/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Independent reference for VI(l, u, q, M) at high precision (MPFR), used
 * only by the tests: shares no code with src/lvi_*.c. */
#ifndef DVC_TESTS_LVI_REF_H
#define DVC_TESTS_LVI_REF_H

#include <mpfr.h>

/* Data are doubles (l, u may be infinite). y: m mpfr_t initialised by the
 * caller (any precision; the computation runs at `prec`). act: m ints.
 * Every function returns 1 when y (and act) hold a point that satisfies
 * all VI conditions at `prec` bits up to a tolerance 2^-(prec-56) times
 * the scale of the data, 0 otherwise. */

/* Check one piece: y_i = l_i / u_i for act_i = -1 / +1, (My+q)_i = 0 for
 * act_i = 0; then y_F in [l, u], (My+q)_i >= 0 at l, <= 0 at u. */
int lvi_ref_piece(mpfr_t *y, const int *act, const double *M, const double *q,
                  const double *l, const double *u, long m, mpfr_prec_t prec);

/* Exhaustive: every assignment in {-1, 0, +1}^m (m small). */
int lvi_ref_enum(mpfr_t *y, int *act, const double *M, const double *q, const double *l,
                 const double *u, long m, mpfr_prec_t prec);

/* Murty's least-index principal pivoting (box version) at high precision,
 * started from act (updated). */
int lvi_ref_murty(mpfr_t *y, int *act, const double *M, const double *q, const double *l,
                  const double *u, long m, mpfr_prec_t prec);

#endif
