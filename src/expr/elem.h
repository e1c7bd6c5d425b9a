/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the expression module: binary64 interval arithmetic and
 * rigorous elementary functions (elem.c), the fast path of 53-bit
 * evaluation. Method and error bounds: docs/expressions.md, "Elementary
 * functions in binary64".
 *
 * Every result is exactly MPFI's at 53 bits (endpoints correctly rounded
 * outward), or refused. Every function here must be called with the FPU
 * in FE_UPWARD (the caller switches once per evaluation through
 * src/rounding.h): upper bounds are computed directly, lower bounds as
 * -(up(-x)). A function returns 0 and the enclosure, or nonzero when it
 * cannot prove MPFI's result (the value too close to a double for the
 * extended-precision enclosure to decide its rounding, an argument too
 * large for the reduction, domain, overflow, a subnormal result, NaN):
 * the caller then falls back to MPFI. */
#ifndef DVC_EXPR_ELEM_H
#define DVC_EXPR_ELEM_H

#include <math.h>

typedef struct dvc_di_s {
    double lo, hi;
} dvc_di;

/* A usable result: finite, ordered, and no endpoint in the subnormal range
 * (MPFR has none: results there would differ from MPFI's). */
static inline int dvc_di_tiny(double x) { return x != 0 && fabs(x) < 0x1p-1021; }
static inline int dvc_di_fin(dvc_di a)
{
    return isfinite(a.lo) && isfinite(a.hi) && a.lo <= a.hi && !dvc_di_tiny(a.lo) &&
           !dvc_di_tiny(a.hi);
}

/* Basic operations (finite operands; results may overflow to inf, which
 * the caller detects). div needs 0 outside b. */
dvc_di dvc_di_add(dvc_di a, dvc_di b);
dvc_di dvc_di_sub(dvc_di a, dvc_di b);
dvc_di dvc_di_mul(dvc_di a, dvc_di b);
dvc_di dvc_di_div(dvc_di a, dvc_di b);
dvc_di dvc_di_sqr(dvc_di a);

/* Extended precision (x87, 64-bit significands), as elem.c's internal
 * bounds: add and mul of finite operands are MPFI's at 64 bits (endpoints
 * correctly rounded outward) unless they underflow or overflow, which
 * raises the sticky flags (fpflags.h, the _ext pair). FE_UPWARD in both
 * units (dvc_rnd_set_ext). */
typedef struct {
    long double lo, hi;
} dvc_li;
/* inline (forced: passed through memory, an x87 value costs a stalled
 * reload) */
#if defined(__GNUC__) || defined(__clang__)
#define DVC_LI_INLINE static inline __attribute__((always_inline))
#else
#define DVC_LI_INLINE static inline
#endif
DVC_LI_INLINE long double dvc_ldn_add_(long double a, long double b) { return -((-a) - b); }
DVC_LI_INLINE long double dvc_ldn_mul_(long double a, long double b) { return -((-a) * b); }
DVC_LI_INLINE long double dvc_lmx_(long double a, long double b) { return a > b ? a : b; }
DVC_LI_INLINE long double dvc_lmn_(long double a, long double b) { return a < b ? a : b; }
DVC_LI_INLINE dvc_li dvc_li_add(dvc_li a, dvc_li b)
{
    dvc_li r = {dvc_ldn_add_(a.lo, b.lo), a.hi + b.hi};
    return r;
}
DVC_LI_INLINE dvc_li dvc_li_mul(dvc_li a, dvc_li b)
{
    dvc_li r;
    if (a.lo >= 0 && b.lo >= 0) {
        r.lo = dvc_ldn_mul_(a.lo, b.lo);
        r.hi = a.hi * b.hi;
        return r;
    }
    r.hi = dvc_lmx_(dvc_lmx_(a.lo * b.lo, a.lo * b.hi), dvc_lmx_(a.hi * b.lo, a.hi * b.hi));
    r.lo = dvc_lmn_(dvc_lmn_(dvc_ldn_mul_(a.lo, b.lo), dvc_ldn_mul_(a.lo, b.hi)),
                    dvc_lmn_(dvc_ldn_mul_(a.hi, b.lo), dvc_ldn_mul_(a.hi, b.hi)));
    return r;
}

/* r encloses {f(x) : x in a}. */
int dvc_di_exp(dvc_di *r, dvc_di a);
int dvc_di_log(dvc_di *r, dvc_di a);    /* a > 0 */
int dvc_di_sqrt(dvc_di *r, dvc_di a);   /* a >= 0 */
int dvc_di_sin(dvc_di *r, dvc_di a);
int dvc_di_cos(dvc_di *r, dvc_di a);
/* sin and cos of one interval, both (the reduction and the series of each
 * end shared): the results of dvc_di_sin and dvc_di_cos, or nonzero when
 * either refuses. */
int dvc_di_sincos(dvc_di *s, dvc_di *c, dvc_di a);
int dvc_di_atan(dvc_di *r, dvc_di a);
int dvc_di_tanh(dvc_di *r, dvc_di a);
int dvc_di_sinh(dvc_di *r, dvc_di a);
int dvc_di_cosh(dvc_di *r, dvc_di a);
int dvc_di_powi(dvc_di *r, dvc_di a, long n); /* n < 0: 0 outside a */

/* Nonzero when long double is x87 extended (64-bit significand); otherwise the
 * fast path is off (every evaluation uses MPFI). */
int dvc_di_available(void);

/* Tests: the extended-precision enclosure [lo, hi] of f(x) before rounding,
 * f = 0 sin, 1 cos, 2 exp, 3 log, 4 atan, 5 tanh, 6 sinh, 7 cosh
 * (FE_UPWARD). Nonzero when x is outside the method's range. */
int dvc_di_encl_(int f, double x, long double *lo, long double *hi);

/* The largest |argument| of the sin / cos reduction (beyond: MPFI). */
#define DVC_DI_TRIG_MAX 0x1p20

#endif
