/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The 64-bit x87 route's pieces for loops of MPFI operations (the matrix
 * products themselves: src/imat_fast.c). The hybrid engine works
 * at 64 bits (53 and its guard bits), where MPFI's products and sums are
 * those of x87 extended precision with directed rounding: the significand
 * of a 64-bit MPFR number is one limb, the x87 format's explicit 64-bit
 * significand, so both conversions are copies of bits, and the operations
 * of elem.c's extended-precision intervals (dvc_li_add, dvc_li_mul, under
 * FE_UPWARD) are correctly rounded outward as MPFR's are. The products are
 * the MPFI loop's, operation for operation, unless an operation underflows
 * or overflows (the exponent ranges differ there: a sticky flag is raised)
 * or a result leaves the range checked below; then the MPFI loop runs.
 * Signed zeros: the operations give IEEE's signs, as MPFR does, but the
 * choice among equal products (lmul's max of +0 and -0 against MPFI's case
 * analysis) may differ; a zero changes no nonzero sum or product, so only
 * an entry with a zero endpoint can differ, in that sign only: those
 * entries are left to the MPFI loop. */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr/elem.h"
#include "fpflags.h"
#include "imat_fast.h"
#include "imat_ld.h"
#include "mpfr_bits.h"
#include "rounding.h"

static int ld_on = 1;
void dvc_imat_ld_enable_(int on)
{
    ld_on = on;
    dvc_imat_fast_enable_(on); /* the products' route too (imat_fast.c) */
}

#if defined(__x86_64__) && defined(__SSE2_MATH__) && GMP_NUMB_BITS == 64 && LDBL_MANT_DIG == 64 && \
    (defined(__GNUC__) || defined(__clang__)) && !defined(DVC_RND_PORTABLE)
#define LD_ROUTE 1
/* the exponents kept: far inside both ranges (x87: 2^-16382 .. 2^16384) */
#define LD_EMAX 16000

/* x87 precision control is "extended" (64 bits), as elem.c assumes. */
static int pc_extended(void)
{
    unsigned short cw;
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    return ((cw >> 8) & 3u) == 3u;
}

/* The exact long double of an MPFR number of at most 64 bits: 1, or 0 (NaN,
 * infinity, more bits, an exponent beyond +-16000): mpfr_bits.h's. */
static inline int get_ld(long double *out, mpfr_srcptr x) { return get_exact_ld(out, x) == 1; }

/* Is v zero or normal with an exponent within LD_EMAX? */
static inline int ld_ok(long double v)
{
    if (v == 0) return 1;
    long double a = v < 0 ? -v : v;
    return a >= 0x1p-16000L && a <= 0x1p16000L;
}

/* x <- v exactly (x of 64 bits, v checked by ld_ok); a zero as MPFI's
 * normalised endpoint: +0 on the left, -0 on the right. */
static inline void set_ld(mpfr_ptr x, long double v, int left) { set_exact_ld(x, v, left); }

#endif

int dvc_li_begin_(void)
{
#ifdef LD_ROUTE
    /* the route reads the x87 flags it raises: the caller's move to
     * MXCSR first (fpflags.h; refusing the route while they were set
     * refused it on almost every call, as glibc copies MXCSR's there) */
    if (!ld_on || !pc_extended()) return -1;
    dvc_x87_own();
    int saved = dvc_rnd_save_ext();
    dvc_rnd_set_ext(FE_UPWARD);
    return saved;
#else
    return -1;
#endif
}

int dvc_li_end_(int saved)
{
#ifdef LD_ROUTE
    int f = dvc_x87_raised(); /* the caller's are in MXCSR (dvc_li_begin_) */
    dvc_rnd_restore_ext(saved);
    return f;
#else
    (void)saved;
    return 1;
#endif
}

int dvc_li_get_(dvc_li *v, const mpfi_t x)
{
#ifdef LD_ROUTE
    return get_ld(&v->lo, &x->left) && get_ld(&v->hi, &x->right);
#else
    (void)v, (void)x;
    return 0;
#endif
}

int dvc_li_put_ok_(dvc_li v)
{
#ifdef LD_ROUTE
    return v.lo != 0 && v.hi != 0 && ld_ok(v.lo) && ld_ok(v.hi);
#else
    (void)v;
    return 0;
#endif
}

int dvc_li_put_ok0_(dvc_li v)
{
#ifdef LD_ROUTE
    return ld_ok(v.lo) && ld_ok(v.hi);
#else
    (void)v;
    return 0;
#endif
}

void dvc_li_put_(mpfi_t x, dvc_li v)
{
#ifdef LD_ROUTE
    set_ld(&x->left, v.lo, 1);
    set_ld(&x->right, v.hi, 0);
#else
    (void)x, (void)v;
#endif
}
