/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Scalar interval layer on MPFI: working precision, exact decimal input,
 * outward decimal output. */
#ifndef DVICERT_IVAL_H
#define DVICERT_IVAL_H

#include <stdio.h>
#include <mpfi.h>
#include "dvicert/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DVC_DEFAULT_PREC 53

/* The thread's working precision: used only by the convenience inits that
 * take no precision (dvc_ivec_init, dvc_imat_init, dvc_lvi_solver_init,
 * ...). Objects carry their precision; the library computes at the
 * precision of its arguments. */
mpfr_prec_t dvc_prec_get(void);
void dvc_prec_set(mpfr_prec_t prec);

/* Enclose a decimal string: "0.1" gives the tightest interval containing one
 * tenth at x's precision; "[a,b]" an interval; "inf" / "-inf" the point at
 * infinity. Rejects NaN and trailing garbage. */
dvc_status dvc_ival_set_str(mpfi_t x, const char *s);

/* x <- [lo, hi]; rejects NaN and lo > hi. */
dvc_status dvc_ival_set_dd(mpfi_t x, double lo, double hi);

/* Endpoint as decimal with `digits` significant digits, rounded down (lo)
 * or up (hi), so that the printed interval contains x. Caller frees. */
char *dvc_ival_lo_str(const mpfi_t x, int digits);
char *dvc_ival_hi_str(const mpfi_t x, int digits);
/* "[lo, hi]" rounded outward. Caller frees. */
char *dvc_ival_str(const mpfi_t x, int digits);
/* mpfr number rounded in the given direction, as decimal. Caller frees. */
char *dvc_mpfr_str(const mpfr_t x, int digits, mpfr_rnd_t rnd);
/* An array of k numbers initialised at prec (k = 0: a valid empty array),
 * or NULL when out of memory; released with dvc_mpfr_array_free(e, k). */
mpfr_t *dvc_mpfr_array_new(long k, mpfr_prec_t prec);
void dvc_mpfr_array_free(mpfr_t *e, long k);
/* Exact binary value of a double as a decimal-free string ("0x1.8p+1"). */
void dvc_double_hex(char buf[40], double x);

/* Upper bound of |x| (magnitude), rounded up. */
void dvc_ival_mag(mpfr_t r, const mpfi_t x);
/* Lower bound of |x| (mignitude), rounded down. */
void dvc_ival_mig(mpfr_t r, const mpfi_t x);
/* Nearest double to the midpoint (a predictor, not a bound). */
double dvc_ival_mid_d(const mpfi_t x);
/* True when both endpoints are finite numbers (no NaN, no infinity). */
int dvc_ival_is_finite(const mpfi_t x);
/* True when x is a NaN-free interval (may have infinite endpoints). */
int dvc_ival_is_valid(const mpfi_t x);

/* Arguments of sin and cos beyond 2^DVC_TRIG_EXP_MAX in magnitude get the
 * enclosure [-1, 1]: argument reduction costs time proportional to the
 * exponent (an expression such as sin(9^99999999) would otherwise run for
 * minutes), and no finite precision would resolve the phase anyway. */
#define DVC_TRIG_EXP_MAX 4096
/* r encloses sin(x) (cos(x)) for every x in the interval x; r may be x. */
void dvc_ival_sin(mpfi_t r, const mpfi_t x);
void dvc_ival_cos(mpfi_t r, const mpfi_t x);

/* Certain sign tests: true only when proven for every point of x. */
int dvc_ival_is_pos(const mpfi_t x);  /* x > 0 */
int dvc_ival_is_neg(const mpfi_t x);  /* x < 0 */
int dvc_ival_is_nonneg(const mpfi_t x);
int dvc_ival_is_nonpos(const mpfi_t x);

#ifdef __cplusplus
}
#endif
#endif
