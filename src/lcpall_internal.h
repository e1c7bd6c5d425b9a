/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private interface between the driver of dvc_lcpall_solve (src/lcpall.c)
 * and the enumeration of complementary bases (src/lcpall_enum.c). */
#ifndef DVC_LCPALL_INTERNAL_H
#define DVC_LCPALL_INTERNAL_H

#include "dvicert/lcpall.h"

/* Outward binary64 data of the problem, row-major. */
typedef struct {
    long n;
    const double *Mlo, *Mhi, *qlo, *qhi;
} dvc_lcpall_data_;

/* Append a box (basis: n chars; lo, hi: n values, z_i on the basis, w_i off
 * it). Returns 0, -1 when the cap is reached (nothing stored), -2 when
 * the consumer of the boxes (opts on_box) asked to stop (box handed over). */
int dvc_lcpall_push_(dvc_lcpall_result_t r, const char *basis, const double *lo,
                     const double *hi, int status, int nondegenerate, long cap);

/* Enumerate all 2^n bases into r (counts, boxes, covered, reason on
 * budget / cap / undecided bases). Returns DVC_OK or DVC_ERR_NOMEM. */
dvc_status dvc_lcpall_enum_(dvc_lcpall_result_t r, const dvc_lcpall_data_ *d,
                            const dvc_lcpall_opts *o);

/* Verified solution of the basis system of `basis`: status as in
 * dvc_lcpall_get (EXISTS / CANDIDATE) with *nondeg, or 2 when the basis is
 * excluded (a component proven negative), 3 when the basis system could not
 * be solved (not proven nonsingular). lo, hi receive the box. ws: scratch
 * of at least 4 n^2 + 8 n doubles. Runs in any caller rounding mode and
 * restores it. */
int dvc_lcpall_basis_solve_(const dvc_lcpall_data_ *d, const char *basis, double *lo,
                            double *hi, int *nondeg, double *ws);

/* buf (>= 32 bytes) <- x (finite, nonzero) rounded to `digits` (2..17)
 * significant decimal digits up (toward +inf) or down, as MPFR's
 * %.{digits-1}RUe / RDe writes it; in 128-bit integer arithmetic where the
 * scaled value |x| 10^K needs 0 <= K <= 27 (about 1e-11 <= |x| < 1e17 at 17
 * digits). Returns the length, or 0 when not handled. */
int dvc_lcpall_fmt_(char *buf, double x, int digits, int up);

/* 1/0 string of a basis (n chars + NUL, truncated to 63 with "..."). */
void dvc_lcpall_basis_str_(char *buf, const char *basis, long n);

#endif
