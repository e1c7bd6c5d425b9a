/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The 64-bit route of the interval matrix products. The hybrid engine works
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
#include "imat_ld.h"
#include "rounding.h"

static int ld_on = 1;
void dvc_imat_ld_enable_(int on) { ld_on = on; }

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
 * infinity, more bits, an exponent beyond LD_EMAX). */
static inline int get_ld(long double *out, mpfr_srcptr x)
{
    if (mpfr_get_prec(x) > 64) return 0;
    if (!mpfr_regular_p(x)) {
        *out = 0;
        return mpfr_zero_p(x);
    }
    mpfr_exp_t e = mpfr_get_exp(x); /* |x| = 0.1b...b 2^e = 1.b...b 2^(e-1) */
    if (e < -LD_EMAX || e > LD_EMAX) return 0;
    uint64_t m = ((const mp_limb_t *)mpfr_custom_get_significand((mpfr_ptr)x))[0];
    uint16_t se = (uint16_t)((uint16_t)(e - 1 + 16383) | (mpfr_signbit(x) ? 0x8000u : 0u));
    unsigned char b[sizeof(long double)] = {0};
    memcpy(b, &m, 8);
    memcpy(b + 8, &se, 2);
    memcpy(out, b, sizeof *out);
    return 1;
}

/* Is v zero or normal with an exponent within LD_EMAX? */
static inline int ld_ok(long double v)
{
    if (v == 0) return 1;
    long double a = v < 0 ? -v : v;
    return a >= 0x1p-16000L && a <= 0x1p16000L;
}

/* x <- v exactly (x of 64 bits, v nonzero and checked by ld_ok). */
static inline void set_ld(mpfr_ptr x, long double v)
{
    unsigned char b[sizeof(long double)];
    uint64_t m;
    uint16_t se;
    memcpy(b, &v, sizeof v);
    memcpy(&m, b, 8);
    memcpy(&se, b + 8, 2);
    mp_limb_t *d = mpfr_custom_get_significand(x);
    d[0] = (mp_limb_t)m;
    mpfr_custom_init_set(x, (se & 0x8000u) ? -MPFR_REGULAR_KIND : MPFR_REGULAR_KIND,
                         (mpfr_exp_t)(se & 0x7fffu) - 16383 + 1, 64, d);
}

#endif

static int load(dvc_li *v, mpfi_t *e, long len)
{
    for (long t = 0; t < len; t++)
        if (!dvc_li_get_(&v[t], e[t])) return 0;
    return 1;
}

int dvc_li_begin_(void)
{
#ifdef LD_ROUTE
    /* the route reads the x87 flags it raises: none of them set before */
    if (!ld_on || !pc_extended() || dvc_x87_flags()) return -1;
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
    unsigned f = dvc_x87_flags();
    if (f) dvc_x87_clear(f); /* the caller's were clear (dvc_li_begin_) */
    dvc_rnd_restore_ext(saved);
    return f != 0;
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

void dvc_li_put_(mpfi_t x, dvc_li v)
{
#ifdef LD_ROUTE
    set_ld(&x->left, v.lo);
    set_ld(&x->right, v.hi);
#else
    (void)x, (void)v;
#endif
}

int dvc_imat_mul_ld_(mpfi_t *R, mpfi_t *A, mpfi_t *B, long m, long n, long q, unsigned char *todo)
{
    long na = m * n, nb = n * q, nr = m * q;
    if (nr == 0 || R == A || R == B) return -1;
    for (long t = 0; t < nr; t++)
        if (mpfr_get_prec(&R[t]->left) != 64 || mpfr_get_prec(&R[t]->right) != 64) return -1;
    dvc_li sbuf[3 * 64];
    size_t need = (size_t)(na + nb + nr);
    dvc_li *a = need <= 3 * 64 ? sbuf : malloc(need * sizeof *a);
    if (!a) return -1;
    dvc_li *b = a + na, *r = b + nb;
    int bad = !load(a, A, na) || !load(b, B, nb);
    int saved = bad ? -1 : dvc_li_begin_();
    if (saved >= 0) {
        for (long i = 0; i < m; i++)
            for (long j = 0; j < q; j++) {
                dvc_li s = {0, 0};
                for (long k = 0; k < n; k++) s = dvc_li_add(s, dvc_li_mul(a[i * n + k], b[k * q + j]));
                r[i * q + j] = s;
            }
        bad = dvc_li_end_(saved);
    } else {
        bad = 1;
    }
    long left = 0;
    for (long t = 0; t < nr && !bad; t++) {
        todo[t] = r[t].lo == 0 || r[t].hi == 0;
        left += todo[t];
        bad = !todo[t] && !dvc_li_put_ok_(r[t]);
    }
    for (long t = 0; t < nr && !bad; t++)
        if (!todo[t]) dvc_li_put_(R[t], r[t]);
    if (a != sbuf) free(a);
    return bad ? -1 : left;
}
