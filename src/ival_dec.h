/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private (src/ival_dec.c): exact, outward-rounded conversions of the
 * decimal and hexadecimal texts of certificates. */
#ifndef DVC_IVAL_DEC_H
#define DVC_IVAL_DEC_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>
#include "dvicert/ival.h"

/* ---- exact conversions of certificate texts without MPFR's string
 * functions (each returns 0 for a text or value it does not handle; the
 * caller then takes the general route) ---- */

/* buf <- printf's %a of d as glibc writes it ("0x1.8p+1", "0x0p+0"),
 * without vfprintf for normal numbers and zeros. */
void dvc_hex_write_(char buf[40], double d);
/* *d <- s, a hexadecimal float [-]0x(0|1)[.h{0,13}]p[+-]d of a normal
 * binary64 number or a zero, exactly. */
int dvc_hex_normal_(double *d, const char *s);
/* x <- the decimal s, "0" or [-]d[.d...]e[+-]d{1,3} with at most 19
 * significant digits and a value D 10^k with |k| <= 27: its ends rounded
 * outward at x's precision, correctly (the enclosure mpfr_strtofr gives). */
int dvc_dec_enclose_fast_(mpfi_t x, const char *s);
/* buf <- W 2^e rounded to `digits` significant decimal digits, up (toward
 * +inf) or down, in the form of printf's %.{digits-1}e ("4.51592598888e-02";
 * "0" for zero): the text mpfr_snprintf's %.*RUe / %.*RDe gives. */
int dvc_dec_round_z_(char *buf, size_t size, const mpz_t W, long e, int up, int digits);
/* The same for (-1)^neg A 2^e, its magnitude rounded up (ceil_mag) or down,
 * in 64- to 192-bit integer arithmetic; it handles the results whose
 * decimal exponent k (value = q 10^k, q of `digits` digits) is in [-27, -1]. */
__extension__ typedef unsigned __int128 dvc_u128;
int dvc_dec_round_u128_(char *buf, size_t size, dvc_u128 A, int neg, long e, int ceil_mag, int digits);
/* The same, also giving the text's value as (-1)^neg q 10^k (q = 0: zero). */
int dvc_dec_round_qk_(char *buf, size_t size, dvc_u128 A, int neg, long e, int ceil_mag, int digits,
                      uint64_t *q, long *k);
/* x <- the ends of (-1)^neg D 10^k (D > 0, |k| <= 27) rounded outward at x's
 * precision (at most 63 bits), in integer arithmetic: the enclosure of
 * dvc_dec_enclose_fast_. 0: not handled. */
int dvc_dec_ends_(mpfi_t x, uint64_t D, long k, int neg);
/* buf <- printf's %.17g of a (the time labels), for normal numbers and
 * zeros whose 17-digit decimal exponent is in [-27, -1] relative to the
 * last digit (about 1e-11 <= |a| < 1e16): 0 otherwise. */
int dvc_fmt_g17_(char buf[40], double a);

#endif
