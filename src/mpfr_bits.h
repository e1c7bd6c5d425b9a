/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the library: exact conversions between MPFR numbers of at
 * most 53 (64) bits and binary64 (x87 extended) numbers, assembled from
 * the bits through MPFR's documented custom interface: the generic
 * mpfr_get_d / mpfr_set_ld cost more than the hardware kernels they feed
 * (src/imat_solve.c, src/imat_fast.c). */
#ifndef DVC_MPFR_BITS_H
#define DVC_MPFR_BITS_H

#include <float.h>
#include <stdint.h>
#include <string.h>

#include <mpfr.h>

/* Exact binary64 value of an mpfr number of at most 53 bits in the normal
 * binary64 range: 1 (done), 0 (not applicable: more bits, or a tiny or huge
 * exponent; MPFI handles those), 2 (NaN or infinity). With 64-bit limbs it
 * assembles the bits from the significand read through MPFR's documented
 * custom interface: the generic mpfr_get_d costs more than the whole n = 8
 * solve kernel. */
static inline int get_exact_d(double *out, mpfr_srcptr x)
{
    mpfr_exp_t e = mpfr_get_exp(x); /* |x| = 0.1b...b * 2^e for a regular x */
    if (mpfr_get_prec(x) > 53) return 0;
    /* one test for "regular, exponent in [-1000, 1000]": the exponents of
     * zero, NaN and infinity are far below -1000 */
    if ((unsigned long long)(e + 1000) > 2000u) {
        if (mpfr_regular_p(x)) return 0;
        if (!mpfr_zero_p(x)) return 2;
        *out = 0.0;
        return 1;
    }
#if GMP_NUMB_BITS == 64
    const mp_limb_t *d = mpfr_custom_get_significand((mpfr_ptr)x);
    /* 1.b...b * 2^(e-1): biased exponent e - 1 + 1023, fraction below the
     * leading bit (at most 53 bits, so the low 11 bits of the limb are 0) */
    unsigned long long u = ((unsigned long long)(mpfr_signbit(x) != 0) << 63) | /* no branch */
                           ((unsigned long long)(e + 1022) << 52) |
                           ((unsigned long long)(d[0] >> 11) & 0xfffffffffffffULL);
    memcpy(out, &u, sizeof u);
#else
    *out = mpfr_get_d(x, MPFR_RNDN); /* exact: <= 53 bits, in range */
#endif
    return 1;
}

/* x <- v exactly, for a 53-bit x (the fast path's outputs): the bits of a
 * normal double go into the significand through MPFR's custom interface,
 * which is what mpfr_set_d does, without its thread-local exponent range
 * lookups. left: MPFI's endpoint convention for zero (+0 on the left, -0 on
 * the right). Anything else goes through mpfr_set_d. */
static inline void set_exact_d(mpfr_ptr x, double v, int left, int fast)
{
#if GMP_NUMB_BITS == 64
    unsigned long long u;
    memcpy(&u, &v, sizeof u);
    unsigned be = (unsigned)(u >> 52) & 0x7ffu;
    if (fast && be != 0 && be != 0x7ff) {
        mp_limb_t *d = mpfr_custom_get_significand(x);
        d[0] = (mp_limb_t)(((u & 0xfffffffffffffULL) | (1ULL << 52)) << 11);
        mpfr_custom_init_set(x, (u >> 63) ? -MPFR_REGULAR_KIND : MPFR_REGULAR_KIND,
                             (mpfr_exp_t)be - 1022, 53, d);
        return;
    }
#endif
    (void)fast;
    if (v == 0)
        mpfr_set_zero(x, left ? 1 : -1);
    else
        mpfr_set_d(x, v, left ? MPFR_RNDD : MPFR_RNDU);
}


#if LDBL_MANT_DIG == 64 && GMP_NUMB_BITS == 64 && defined(__x86_64__)
#define DVC_HAVE_X87_BITS 1
/* The x87 extended format in memory: the 64-bit significand with its
 * leading bit explicit, then the sign and the 15-bit exponent (bias 16383). */
typedef union {
    long double v;
    struct {
        uint64_t m;
        uint16_t se;
    } b;
} dvc_x87_bits;

/* As get_exact_d for an mpfr number of at most 64 bits and an x87 extended
 * number (exponents within [-16000, 16000], far inside the normal range). */
static inline int get_exact_ld(long double *out, mpfr_srcptr x)
{
    mpfr_exp_t e = mpfr_get_exp(x);
    if (mpfr_get_prec(x) > 64) return 0;
    if ((unsigned long long)(e + 16000) > 32000u) {
        if (mpfr_regular_p(x)) return 0;
        if (!mpfr_zero_p(x)) return 2;
        *out = 0.0L;
        return 1;
    }
    const mp_limb_t *d = mpfr_custom_get_significand((mpfr_ptr)x);
    /* |x| = d[0] 2^(e - 64) = m 2^(E - 16383 - 63) with m = d[0] */
    dvc_x87_bits u;
    memset(&u, 0, sizeof u);
    u.b.m = d[0];
    u.b.se = (uint16_t)((mpfr_signbit(x) ? 0x8000u : 0u) | (unsigned)(e + 16382));
    *out = u.v;
    return 1;
}

/* As set_exact_d for a 64-bit x and a normal (or zero) x87 number v. */
static inline void set_exact_ld(mpfr_ptr x, long double v, int left)
{
    dvc_x87_bits u;
    u.v = v;
    unsigned be = u.b.se & 0x7fffu;
    if (be != 0 && be != 0x7fff && (u.b.m >> 63)) {
        mp_limb_t *d = mpfr_custom_get_significand(x);
        d[0] = (mp_limb_t)u.b.m;
        mpfr_custom_init_set(x, (u.b.se >> 15) ? -MPFR_REGULAR_KIND : MPFR_REGULAR_KIND,
                             (mpfr_exp_t)be - 16382, 64, d);
        return;
    }
    if (v == 0)
        mpfr_set_zero(x, left ? 1 : -1);
    else
        mpfr_set_ld(x, v, left ? MPFR_RNDD : MPFR_RNDU);
}
#endif

#endif
