/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Random intervals for the t-*.c containment tests, and exact rational
 * points sampled from them. Inputs are built with MPFR/MPFI directly (never
 * through the library under test); the points are GMP rationals, so the
 * reference computations on them are exact. Header-only, like check.h. */
#ifndef DVC_TESTS_RAND_IVAL_H
#define DVC_TESTS_RAND_IVAL_H

#include <gmp.h>
#include <mpfi.h>

#include "check.h"

/* The precisions the tests cycle through (output and inputs independently,
 * so that a result rounded to fewer bits than its inputs is exercised). */
static const mpfr_prec_t rand_precs[] = {24, 53, 113, 200};
#define RAND_NPRECS 4

static inline mpfr_prec_t rand_prec(check_rng *r)
{
    return rand_precs[check_rng_int(r, 0, RAND_NPRECS - 1)];
}

/* x <- a random number with all of x's bits used (random sign, magnitude
 * about 2^[emin, emax]); now and then a small integer, to make exact
 * cancellations and exact zeros likely. */
static inline void rand_fr(mpfr_t x, check_rng *r, long emin, long emax)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    if (check_rng_int(r, 0, 4) == 0) {
        mpfr_set_si(x, check_rng_int(r, -4, 4), MPFR_RNDN);
        return;
    }
    {
        mpz_t z;
        mpz_init(z);
        for (mpfr_prec_t b = 0; b < p; b += 32) {
            mpz_mul_2exp(z, z, 32);
            mpz_add_ui(z, z, (unsigned long)(check_rng_next(r) >> 32));
        }
        /* keep at most p bits so the conversion is exact */
        mpz_fdiv_q_2exp(z, z, (mp_bitcnt_t)(((p + 31) / 32) * 32 - p));
        if (check_rng_int(r, 0, 1)) mpz_neg(z, z);
        mpfr_set_z(x, z, MPFR_RNDN);
        mpfr_mul_2si(x, x, check_rng_int(r, emin, emax) - (long)p, MPFR_RNDN);
        mpz_clear(z);
    }
}

/* Interval kinds produced by rand_ival. */
enum { RK_POINT, RK_THICK, RK_ZERO, RK_STRADDLE, RK_HALF0, RK_INF, RK_NKINDS };

/* x <- a random interval: a point, a thick interval, [0, 0], one that
 * straddles zero, [0, b] or [-a, 0], or (when allow_inf) one with an
 * infinite endpoint. Endpoints are exact numbers at x's precision. */
static inline void rand_ival(mpfi_t x, check_rng *r, int allow_inf)
{
    mpfr_t a, b;
    int kind = (int)check_rng_int(r, 0, allow_inf ? RK_INF : RK_INF - 1);
    mpfr_prec_t p = mpfi_get_prec(x);
    mpfr_inits2(p, a, b, (mpfr_ptr)0);
    rand_fr(a, r, -6, 6);
    rand_fr(b, r, -30, 6);
    switch (kind) {
    case RK_POINT:
        mpfr_set(b, a, MPFR_RNDN);
        break;
    case RK_THICK:
        mpfr_abs(b, b, MPFR_RNDN);
        mpfr_add(b, a, b, MPFR_RNDU);
        break;
    case RK_ZERO:
        mpfr_set_zero(a, 1);
        mpfr_set_zero(b, 1);
        break;
    case RK_STRADDLE:
        mpfr_abs(a, a, MPFR_RNDN);
        mpfr_neg(a, a, MPFR_RNDN);
        mpfr_abs(b, b, MPFR_RNDN);
        break;
    case RK_HALF0:
        if (check_rng_int(r, 0, 1)) {
            mpfr_abs(b, a, MPFR_RNDN);
            mpfr_set_zero(a, 1);
        } else {
            mpfr_abs(a, a, MPFR_RNDN);
            mpfr_neg(a, a, MPFR_RNDN);
            mpfr_set_zero(b, 1);
        }
        break;
    default: /* RK_INF */
        switch (check_rng_int(r, 0, 2)) {
        case 0: mpfr_set_inf(b, 1); break;
        case 1: mpfr_set(b, a, MPFR_RNDN); mpfr_set_inf(a, -1); break;
        default: mpfr_set_inf(a, -1); mpfr_set_inf(b, 1); break;
        }
        break;
    }
    if (mpfr_cmp(a, b) > 0) mpfr_swap(a, b);
    mpfr_set(&x->left, a, MPFR_RNDD);
    mpfr_set(&x->right, b, MPFR_RNDU);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* q <- a rational point of x: which = 0 the lower end, 1 the upper end,
 * otherwise a random interior point. An infinite end is replaced by a
 * finite point up to 2^12 beyond the other end (or around 0). */
static inline void rand_sample_q(mpq_t q, const mpfi_t x, int which, check_rng *r)
{
    int linf = mpfr_inf_p(&x->left), rinf = mpfr_inf_p(&x->right);
    mpq_t lo, hi, u;
    mpq_inits(lo, hi, u, (mpq_ptr)0);
    /* u = random dyadic in [0, 1] */
    mpq_set_ui(u, (unsigned long)(check_rng_next(r) >> 11), 1);
    mpq_div_2exp(u, u, 53);
    if (!linf) mpfr_get_q(lo, &x->left);
    if (!rinf) mpfr_get_q(hi, &x->right);
    if (linf && rinf) {
        mpq_set_si(lo, -4096, 1);
        mpq_set_si(hi, 4096, 1);
    } else if (linf) {
        mpq_set_si(lo, -4096, 1);
        mpq_add(lo, lo, hi);
    } else if (rinf) {
        mpq_set_si(hi, 4096, 1);
        mpq_add(hi, hi, lo);
    }
    if (which == 0 && !linf) mpq_set(q, lo);
    else if (which == 1 && !rinf) mpq_set(q, hi);
    else {
        mpq_sub(q, hi, lo);
        mpq_mul(q, q, u);
        mpq_add(q, q, lo);
    }
    mpq_clears(lo, hi, u, (mpq_ptr)0);
}

/* Which point to sample: an end (0, 1) half of the time, else interior;
 * drawn per entry, so that vertices of boxes are sampled too. */
static inline int rand_which(check_rng *r)
{
    return (int)check_rng_int(r, 0, 3);
}

#endif
