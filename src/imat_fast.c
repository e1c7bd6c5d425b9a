/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Interval matrix products in hardware floating point (imat_fast.h).
 *
 * Why the bits equal MPFI's: at precision p the MPFI loop rounds each
 * endpoint product and each endpoint sum correctly (down for left ends, up
 * for right ends) to p bits. Binary64 (p = 53) and x87 extended (p = 64)
 * arithmetic in the same rounding direction rounds the same exact values
 * to the same p-bit numbers as long as no result leaves the normal range:
 * an overflow or an inexact underflow (where MPFR, whose exponent range is
 * far wider, keeps p bits) is detected from the sticky flags and the
 * product is then left to MPFI. Each end product is the one MPFI's case
 * analysis picks, rounded in the same direction; the right ends are
 * computed as minus the product with one factor negated, rounded down, so
 * that the whole kernel runs in one rounding mode. Signed zeros follow
 * MPFI's rules exactly (they show in certificates as -0): see the kernel.
 * Tested bit for bit against the MPFI loop in
 * tests/t-imat-fast.c. */
#include "imat_fast.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>

#include "fpflags.h"
#include "mpfr_bits.h"
#include "rounding.h"

#if defined(DVC_RND_DIRECT) && defined(DVC_HAVE_X87_BITS)
#define DVC_FAST_X87 1
/* 1 when the x87 precision control is the full 64-bit significand (the
 * Linux default; a caller may have lowered it). */
static int x87_extended(void)
{
    unsigned short cw;
    __asm__ volatile("fnstcw %0" : "=m"(cw) : : "memory");
    return (cw >> 8 & 3u) == 3u;
}
#endif

/* The kernel for a floating type T: rl <- left ends, rn <- minus the right
 * ends of A B (A m x n: al, ah; B n x k: bl, bh; row-major). Runs in the
 * current rounding mode, which the caller sets downward; a right end is
 * computed as minus the product of a negated factor, rounded down, which
 * keeps the sign a zero product has in MPFR. Row i of the result
 * accumulates over q = 0, 1, ... in turn, each entry in the order of the
 * MPFI loop, with MPFI's rules: a product takes the end products of its
 * sign case (a zero interval factor is the result, its signed zeros
 * copied); a sum with a zero interval is a copy of the other operand, any
 * other sum has its ends rounded and a -0 left end or +0 right end
 * flipped. A zero interval of A therefore adds nothing and is skipped.
 * cl, cn (NULL: zero): the sums start from C (left ends, minus the right
 * ends), as an MPFI loop that sets s = C_ij and adds the products.
 * nzr, nzj (NULL: A dense): A given by its entries other than [0, 0] row by
 * row (row i: al[t], ah[t] in column nzj[t], t in [nzr[i], nzr[i + 1])),
 * the same sums (the zeros are skipped either way). */
#define DVC_FAST_KERNEL(T, NAME)                                                                   \
    static void NAME(T *restrict rl, T *restrict rn, const T *restrict al, const T *restrict ah,   \
                     const T *restrict bl, const T *restrict bh, long m, long n, long k,           \
                     const T *cl, const T *cn, const long *nzr, const long *nzj)                   \
    {                                                                                              \
        for (long t = 0; t < m * k; t++) { /* [+0, -0], or C */                                    \
            rl[t] = cl ? cl[t] : 0;                                                                \
            rn[t] = cn ? cn[t] : 0;                                                                \
        }                                                                                          \
        for (long i = 0; i < m; i++) {                                                             \
            T *sl = rl + i * k, *sn = rn + i * k;                                                  \
            long q0 = nzr ? nzr[i] : i * n, q1 = nzr ? nzr[i + 1] : i * n + n;                     \
            for (long q = q0; q < q1; q++) {                                                       \
                T a0 = al[q], a1 = ah[q];                                                          \
                long col = nzr ? nzj[q] : q - i * n;                                               \
                const T *b0p = bl + col * k, *b1p = bh + col * k;                                  \
                if (a0 == 0 && a1 == 0) continue;                                                  \
                for (long j = 0; j < k; j++) {                                                     \
                    T b0 = b0p[j], b1 = b1p[j], lo, nh, x, y;                                      \
                    if (b0 == 0 && b1 == 0) continue;                                              \
                    if (a0 >= 0) {                                                                 \
                        if (b0 >= 0) lo = a0 * b0, nh = -a1 * b1;                                  \
                        else if (b1 <= 0) lo = a1 * b0, nh = -a0 * b1;                             \
                        else lo = a1 * b0, nh = -a1 * b1;                                          \
                    } else if (a1 <= 0) {                                                          \
                        if (b0 >= 0) lo = a0 * b1, nh = -a1 * b0;                                  \
                        else if (b1 <= 0) lo = a1 * b1, nh = -a0 * b0;                             \
                        else lo = a0 * b1, nh = -a0 * b0;                                          \
                    } else if (b0 >= 0) {                                                          \
                        lo = a0 * b1, nh = -a1 * b1;                                               \
                    } else if (b1 <= 0) {                                                          \
                        lo = a1 * b0, nh = -a0 * b0;                                               \
                    } else { /* both straddle 0: ties keep the second product */                   \
                        x = a0 * b1, y = a1 * b0;                                                  \
                        lo = x < y ? x : y;                                                        \
                        x = -a0 * b0, y = -a1 * b1;                                                \
                        nh = x < y ? x : y;                                                        \
                    }                                                                              \
                    if (lo == 0 && nh == 0) continue; /* s + [0, 0] = s */                         \
                    if (sl[j] == 0 && sn[j] == 0) {   /* [0, 0] + t = t */                         \
                        sl[j] = lo;                                                                \
                        sn[j] = nh;                                                                \
                        continue;                                                                  \
                    }                                                                              \
                    x = sl[j] + lo;                                                                \
                    y = sn[j] + nh;                                                                \
                    sl[j] = x == 0 ? 0 : x; /* +0 left end */                                      \
                    sn[j] = y == 0 ? 0 : y; /* -0 right end */                                     \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

DVC_FAST_KERNEL(double, kernel_d)
#ifdef DVC_FAST_X87
DVC_FAST_KERNEL(long double, kernel_ld)
#endif

/* The exact endpoints of len intervals into lo, hi: 1, or 0 when one is
 * not exact in the format (or NaN, infinite, out of range). */
#define DVC_FAST_LOAD(T, NAME, GET)                                                                \
    static int NAME(T *lo, T *hi, mpfi_t *e, long len)                                             \
    {                                                                                              \
        for (long t = 0; t < len; t++) {                                                           \
            if (GET(&lo[t], &e[t]->left) != 1 || GET(&hi[t], &e[t]->right) != 1) return 0;         \
            /* zeros keep their signs: MPFI's products do */                                       \
            if (lo[t] == 0 && mpfr_signbit(&e[t]->left)) lo[t] = -lo[t];                           \
            if (hi[t] == 0 && mpfr_signbit(&e[t]->right)) hi[t] = -hi[t];                          \
        }                                                                                          \
        return 1;                                                                                  \
    }

DVC_FAST_LOAD(double, load_d, get_exact_d)
#ifdef DVC_FAST_X87
DVC_FAST_LOAD(long double, load_ld, get_exact_ld)
#endif

/* x <- v exactly, a zero with v's sign (the kernels sign zeros as MPFI
 * does; set_exact_* would sign them by the side). */
static inline void set_d(mpfr_ptr x, double v, int left)
{
    if (v == 0) mpfr_set_zero(x, signbit(v) ? -1 : 1);
    else set_exact_d(x, v, left, 1);
}
#ifdef DVC_FAST_X87
static inline void set_ld(mpfr_ptr x, long double v, int left)
{
    if (v == 0) mpfr_set_zero(x, signbit(v) ? -1 : 1);
    else set_exact_ld(x, v, left);
}
#endif

/* Every endpoint of the len intervals at e has precision p. */
static int all_prec(mpfi_t *e, long len, mpfr_prec_t p)
{
    for (long t = 0; t < len; t++)
        if (mpfr_get_prec(&e[t]->left) != p || mpfr_get_prec(&e[t]->right) != p) return 0;
    return 1;
}

/* The whole product for a type T: load, kernel downward with the sticky
 * flags saved and checked, store. */
#define DVC_FAST_RUN(T, NAME, LOAD, KERNEL, SET, SAVE, SETRND, RESTORE, FL_T, FL_BEGIN, FL_END)   \
    static int NAME(mpfi_t *R, mpfi_t *A, mpfi_t *B, long m, long n, long k)                       \
    {                                                                                              \
        size_t na = (size_t)(m * n), nb = (size_t)(n * k), nr = (size_t)(m * k);                  \
        T sbuf[256];                                                                               \
        size_t need = 2 * (na + nb + nr);                                                          \
        T *buf = need <= 256 ? sbuf : malloc(need * sizeof(T));                                    \
        if (!buf) return 0;                                                                        \
        T *al = buf, *ah = al + na, *bl = ah + na, *bh = bl + nb, *rl = bh + nb, *rn = rl + nr;    \
        int ok = LOAD(al, ah, A, (long)na) && LOAD(bl, bh, B, (long)nb);                           \
        if (ok) {                                                                                  \
            FL_T flags = FL_BEGIN();                                                               \
            int saved = SAVE();                                                                    \
            SETRND(FE_DOWNWARD);                                                                   \
            KERNEL(rl, rn, al, ah, bl, bh, m, n, k, NULL, NULL, NULL, NULL);                       \
            RESTORE(saved);                                                                        \
            ok = !FL_END(flags);                                                                   \
        }                                                                                          \
        for (size_t t = 0; ok && t < nr; t++) {                                                    \
            SET(&R[t]->left, rl[t], 1);                                                            \
            SET(&R[t]->right, -rn[t], 0);                                                          \
        }                                                                                          \
        if (buf != sbuf) free(buf);                                                                \
        return ok;                                                                                 \
    }

/* The sticky flags the kernels raise (overflow, underflow, invalid), read
 * without losing the caller's: binary64 through fpflags.h; x87 through
 * its dvc_x87_own / dvc_x87_raised where there (a fenv round trip costs
 * more than a small product, and glibc's copies MXCSR's flags into the
 * x87 unit, which refused imat_ld.h's routes after it), else fenv. */
#ifdef DVC_FAST_X87
#ifdef DVC_HAVE_X87_OWN
typedef int x87_flags;
static inline x87_flags x87_begin(void)
{
    dvc_x87_own();
    return 0;
}
static inline int x87_end(x87_flags f)
{
    (void)f;
    return dvc_x87_raised();
}
#else
typedef fexcept_t x87_flags;
static inline x87_flags x87_begin(void)
{
    fexcept_t f;
    fegetexceptflag(&f, FE_ALL_EXCEPT);
    feclearexcept(FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
    return f;
}
static inline int x87_end(x87_flags f)
{
    int r = fetestexcept(FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID) != 0;
    fesetexceptflag(&f, FE_ALL_EXCEPT);
    return r;
}
#endif
#endif

DVC_FAST_RUN(double, run_d, load_d, kernel_d, set_d, dvc_rnd_save, dvc_rnd_set,
             dvc_rnd_restore, dvc_flag_state, dvc_flags_clear, dvc_flags_raised)
#ifdef DVC_FAST_X87
DVC_FAST_RUN(long double, run_ld, load_ld, kernel_ld, set_ld, dvc_rnd_save_ext,
             dvc_rnd_set_ext, dvc_rnd_restore_ext, x87_flags, x87_begin, x87_end)
#endif

/* R (m x k) <- A (m x n) B (n x k), arrays of intervals, when R's
 * precision allows. */
static int fast_on = 1;
void dvc_imat_fast_enable_(int on) { fast_on = on; }

static int mul_fast(mpfi_t *R, mpfi_t *A, mpfi_t *B, long m, long n, long k)
{
    if (!fast_on || m <= 0 || k <= 0) return 0;
    mpfr_prec_t p = mpfr_get_prec(&R[0]->left);
    if ((p != 53 && p != 64) || !all_prec(R, m * k, p)) return 0;
    if (p == 53) return run_d(R, A, B, m, n, k);
#ifdef DVC_FAST_X87
    if (x87_extended()) return run_ld(R, A, B, m, n, k);
#endif
    return 0;
}

int dvc_imat_mul_fast_(mpfi_t *R, mpfi_t *A, mpfi_t *B, long m, long n, long k)
{
    return mul_fast(R, A, B, m, n, k);
}

#ifdef DVC_FAST_X87
int dvc_fast_ld_ok_(void) { return fast_on && x87_extended(); }

int dvc_fast_load_ld_(long double *lo, long double *hi, mpfi_t *e, long len)
{
    return load_ld(lo, hi, e, len);
}

int dvc_fast_div_ld_(long double *lo, long double *nhi, long len, unsigned long c)
{
    long double d = (long double)c; /* exact: c < 2^64 */
    x87_flags flags = x87_begin();
    int saved = dvc_rnd_save_ext();
    dvc_rnd_set_ext(FE_DOWNWARD);
    for (long t = 0; t < len; t++) {
        lo[t] /= d;
        nhi[t] /= d;
    }
    dvc_rnd_restore_ext(saved);
    return !x87_end(flags);
}

void dvc_fast_store_ld_(mpfi_t *e, const long double *lo, const long double *nhi, long len)
{
    for (long t = 0; t < len; t++) {
        set_ld(&e[t]->left, lo[t], 1);
        set_ld(&e[t]->right, -nhi[t], 0);
    }
}

int dvc_fast_mul_ld_(long double *rl, long double *rn, const long double *al,
                     const long double *ah, const long double *bl, const long double *bh, long m,
                     long n, long k, const long double *cl, const long double *cn)
{
    x87_flags flags = x87_begin();
    int saved = dvc_rnd_save_ext();
    dvc_rnd_set_ext(FE_DOWNWARD);
    kernel_ld(rl, rn, al, ah, bl, bh, m, n, k, cl, cn, NULL, NULL);
    dvc_rnd_restore_ext(saved);
    return !x87_end(flags);
}

int dvc_fast_csr_ld_(long double *rl, long double *rn, const long *nzr, const long *nzj,
                     const long double *al, const long double *ah, const long double *bl,
                     const long double *bh, long m, long k, const long double *cl,
                     const long double *cn)
{
    x87_flags flags = x87_begin();
    int saved = dvc_rnd_save_ext();
    dvc_rnd_set_ext(FE_DOWNWARD);
    kernel_ld(rl, rn, al, ah, bl, bh, m, 0, k, cl, cn, nzr, nzj);
    dvc_rnd_restore_ext(saved);
    return !x87_end(flags);
}
#else
int dvc_fast_ld_ok_(void) { return 0; }
int dvc_fast_load_ld_(long double *lo, long double *hi, mpfi_t *e, long len)
{
    (void)lo, (void)hi, (void)e, (void)len;
    return 0;
}
int dvc_fast_div_ld_(long double *lo, long double *nhi, long len, unsigned long c)
{
    (void)lo, (void)nhi, (void)len, (void)c;
    return 0;
}
void dvc_fast_store_ld_(mpfi_t *e, const long double *lo, const long double *nhi, long len)
{
    (void)e, (void)lo, (void)nhi, (void)len;
}
int dvc_fast_mul_ld_(long double *rl, long double *rn, const long double *al,
                     const long double *ah, const long double *bl, const long double *bh, long m,
                     long n, long k, const long double *cl, const long double *cn)
{
    (void)rl, (void)rn, (void)al, (void)ah, (void)bl, (void)bh, (void)m, (void)n, (void)k, (void)cl,
        (void)cn;
    return 0;
}
int dvc_fast_csr_ld_(long double *rl, long double *rn, const long *nzr, const long *nzj,
                     const long double *al, const long double *ah, const long double *bl,
                     const long double *bh, long m, long k, const long double *cl,
                     const long double *cn)
{
    (void)rl, (void)rn, (void)nzr, (void)nzj, (void)al, (void)ah, (void)bl, (void)bh, (void)m,
        (void)k, (void)cl, (void)cn;
    return 0;
}
#endif
