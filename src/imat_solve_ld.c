/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The 64-bit verified solve (imat_solve.c, solve_mpfi) of a point system in
 * x87 extended arithmetic, the same bits as the MPFR/MPFI route
 * (imat_solve_ld.h).
 *
 * Why the bits are MPFR's: every step of solve_mpfi at p = 64 is one
 * correctly rounded operation to 64 bits (round to nearest for the
 * approximate inverse R, the products of the residuals; directed for the
 * interval parts), which the x87 unit at its 64-bit significand performs
 * to the same number while no result leaves its normal range (checked by
 * the sticky flags: the route is then refused and MPFR runs). The residual
 * sums, which MPFR accumulates at 96 bits, are accumulated here in a
 * 96-bit software float (sf96) rounded to nearest-even exactly as
 * mpfr_add / mpfr_sub round (sf_add below), their 64-bit products formed
 * in integers and rounded the same way (ix_mul). The interval products are the
 * kernel of imat_fast.c (the MPFI loops' bits, signed zeros included); for
 * point factors mpfi_sub(s, s, a x) is that kernel's sum with -a (the same
 * end values: -RU(a x) = RD(-a x)). Tested bit for bit against the MPFI
 * route in tests/test_imat_solve_ld.c. */
#include "imat_solve_ld.h"

#include <fenv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fpflags.h"
#include "imat_fast.h"
#include "mpfr_bits.h"
#include "rounding.h"

#if defined(DVC_RND_DIRECT) && defined(DVC_HAVE_X87_BITS) && defined(__SIZEOF_INT128__) &&          \
    defined(DVC_HAVE_X87_OWN)
#define DVC_SOLVE_LD 1
#endif

#ifdef DVC_SOLVE_LD
typedef unsigned __int128 u128;
/* the software float's steps inlined into the residual loops (kept in
 * registers: 2n^2 of them per refinement step) */
#define DVC_SF_INLINE __attribute__((always_inline))

/* (-1)^s m 2^e, m = 0 (a zero of sign s) or m in [2^95, 2^96). */
typedef struct {
    int s;
    long e;
    u128 m;
} sf96;

static inline DVC_SF_INLINE int top_bit(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

/* (-1)^s (S + phi) 2^E0 rounded to nearest-even at P bits, phi in (0, 1)
 * when sticky, else 0 (S > 0; sticky only when S has more than P + 1
 * bits). */
static inline DVC_SF_INLINE sf96 sf_round(int s, u128 S, int sticky, long E0, int P)
{
    sf96 r;
    int t = top_bit(S);
    u128 q;
    long lsb;
    r.s = s;
    if (t - P + 1 <= 0) { /* exact */
        q = S << (P - 1 - t);
        lsb = E0 - (P - 1 - t);
    } else {
        int sh = t - P + 1;
        u128 rem = S & (((u128)1 << sh) - 1), half = (u128)1 << (sh - 1);
        q = S >> sh;
        if (rem > half || (rem == half && (sticky || (q & 1)))) {
            q++;
            if (q >> P) {
                q >>= 1;
                sh++;
            }
        }
        lsb = E0 + sh;
    }
    r.m = q << (96 - P);
    r.e = lsb - (96 - P);
    return r;
}

/* a + b rounded to nearest-even at P bits (64 or 96), zeros signed as
 * MPFR signs them in that mode. */
static inline DVC_SF_INLINE sf96 sf_add(sf96 a, sf96 b, int P)
{
    if (a.m == 0 && b.m == 0) {
        sf96 z = {a.s && b.s, 0, 0};
        return z;
    }
    if (a.m == 0) return sf_round(b.s, b.m, 0, b.e, P);
    if (b.m == 0) return sf_round(a.s, a.m, 0, a.e, P);
    if (a.e < b.e || (a.e == b.e && a.m < b.m)) {
        sf96 t = a;
        a = b;
        b = t;
    }
    long d = a.e - b.e;
    u128 M1 = a.m << 31, M2 = b.m << 31, S;
    int sticky = 0;
    if (d >= 127) {
        M2 = 0;
        sticky = 1;
    } else if (d > 0) {
        sticky = (M2 & (((u128)1 << d) - 1)) != 0;
        M2 >>= d;
    }
    if (a.s == b.s) {
        S = M1 + M2;
    } else {
        S = M1 - M2 - (u128)sticky;
        if (S == 0) { /* exact cancellation (sticky is 0: M1 >= 2^126) */
            sf96 z = {0, 0, 0};
            return z;
        }
    }
    return sf_round(a.s, S, sticky, a.e - 31, P);
}

/* a rounded to 64 bits (mpfr_set into 64 bits: a zero keeps its sign). */
static sf96 sf_set64(sf96 a)
{
    return a.m == 0 ? a : sf_round(a.s, a.m, 0, a.e, 64);
}

static inline DVC_SF_INLINE sf96 sf_neg(sf96 a)
{
    a.s = !a.s;
    return a;
}

/* |a| > |b| */
static int sf_gtabs(sf96 a, sf96 b)
{
    if (a.m == 0) return 0;
    if (b.m == 0) return 1;
    return a.e > b.e || (a.e == b.e && a.m > b.m);
}

/* a (of at most 64 bits) as an x87 number: 0 when out of its range. */
static int sf_to_ld(long double *v, sf96 a)
{
    dvc_x87_bits u;
    memset(&u, 0, sizeof u);
    if (a.m == 0) {
        u.b.se = (uint16_t)(a.s ? 0x8000u : 0u);
        *v = u.v;
        return 1;
    }
    long be = a.e + 32 + 63 + 16383;
    if (be < 1 || be > 0x7ffe) return 0;
    u.b.m = (uint64_t)(a.m >> 32);
    u.b.se = (uint16_t)((a.s ? 0x8000u : 0u) | (unsigned)be);
    *v = u.v;
    return 1;
}

/* fr_inv of imat_solve.c at 64 bits (Gauss-Jordan, partial pivoting,
 * round to nearest), in the x87 unit: 0 done, -1 a zero pivot (as fr_inv
 * finds it), 1 refused (a flag raised). a: n x n, destroyed. */
static int inv_ld(long double *R, long double *a, long n)
{
    int ok = 0;
    for (long q = 0; q < n * n; q++) R[q] = q / n == q % n;
    for (long c = 0; c < n && ok == 0; c++) {
        long piv = c;
        for (long i = c + 1; i < n; i++)
            if (__builtin_fabsl(a[i * n + c]) > __builtin_fabsl(a[piv * n + c])) piv = i;
        if (a[piv * n + c] == 0) {
            ok = -1;
            break;
        }
        for (long j = 0; j < n; j++) {
            long double t = a[piv * n + j];
            a[piv * n + j] = a[c * n + j];
            a[c * n + j] = t;
            t = R[piv * n + j];
            R[piv * n + j] = R[c * n + j];
            R[c * n + j] = t;
        }
        long double f = 1.0L / a[c * n + c];
        for (long j = 0; j < n; j++) {
            a[c * n + j] *= f;
            R[c * n + j] *= f;
        }
        for (long i = 0; i < n; i++) {
            if (i == c || a[i * n + c] == 0) continue;
            f = a[i * n + c];
            for (long j = 0; j < n; j++) {
                a[i * n + j] -= f * a[c * n + j];
                R[i * n + j] -= f * R[c * n + j];
            }
        }
    }
    return ok;
}

/* A 64-bit number (-1)^s m 2^e, m = 0 (a zero) or m in [2^63, 2^64): the
 * products of the refinement in integers (exact in any exponent range,
 * as MPFR's; an x87 product would pass through memory to reach sf96). */
typedef struct {
    uint64_t m;
    long e;
    int s;
} ix64;

static int ix_from_ld(ix64 *r, long double v)
{
    dvc_x87_bits u;
    u.v = v;
    unsigned be = u.b.se & 0x7fffu;
    r->s = u.b.se >> 15;
    r->m = u.b.m;
    r->e = (long)be - 16383 - 63;
    if (be == 0 && u.b.m == 0) return 1;
    return be != 0 && be != 0x7fff && (u.b.m >> 63);
}

/* a sf96 of at most 64 bits */
static ix64 ix_of_sf(sf96 a)
{
    ix64 r = {(uint64_t)(a.m >> 32), a.e + 32, a.s};
    return r;
}

static sf96 sf_of_ix(ix64 a)
{
    sf96 r = {a.s, a.e - 32, (u128)a.m << 32};
    return r;
}

/* a b rounded to nearest-even at 64 bits (mpfr_mul into 64 bits). */
static inline DVC_SF_INLINE sf96 ix_mul(ix64 a, ix64 b)
{
    if (!a.m || !b.m) {
        sf96 z = {a.s ^ b.s, 0, 0};
        return z;
    }
    return sf_round(a.s ^ b.s, (u128)a.m * b.m, 0, a.e + b.e, 64);
}

/* The refined predictor x~ of one column (solve_mpfi's loop: residuals
 * accumulated at 96 bits, products and updates at 64). am: A, R: the
 * approximate inverse, b: the column (n); x: out (sf96 of 64 bits);
 * xi, rr: scratch. An iteration is a function of x~ alone: once one
 * leaves x~ unchanged, so do all the later ones (whether or not the test
 * stops them), and the loop ends there with the same x~. */
static void refine_ix(sf96 *x, const ix64 *am, const ix64 *R, const ix64 *b, ix64 *xi, ix64 *rr,
                      long n)
{
    sf96 acc, cmax, xmax, zero = {0, 0, 0};
    for (long i = 0; i < n; i++) x[i] = zero;
    for (int it = 0; it < 8; it++) {
        for (long j = 0; j < n; j++) xi[j] = ix_of_sf(x[j]);
        for (long i = 0; i < n; i++) {
            acc = sf_of_ix(b[i]);
            for (long j = 0; j < n; j++) acc = sf_add(acc, sf_neg(ix_mul(am[i * n + j], xi[j])), 96);
            rr[i] = ix_of_sf(sf_set64(acc));
        }
        cmax = xmax = zero;
        int changed = 0;
        for (long i = 0; i < n; i++) {
            acc = zero;
            for (long j = 0; j < n; j++) acc = sf_add(acc, ix_mul(R[i * n + j], rr[j]), 96);
            sf96 xn = sf_add(x[i], acc, 64);
            changed |= xn.m != x[i].m || xn.e != x[i].e || xn.s != x[i].s;
            x[i] = xn;
            if (sf_gtabs(acc, cmax)) {
                cmax = sf_set64(acc);
                cmax.s = 0;
            }
            if (sf_gtabs(x[i], xmax)) {
                xmax = x[i];
                xmax.s = 0;
            }
        }
        xmax.e -= 64 + 2; /* mpfr_mul_2si(xmax, xmax, -p - 2), exact */
        if ((it > 0 && !sf_gtabs(cmax, xmax)) || !changed) break;
    }
}

/* Exact x87 values of the endpoints of len intervals (point ones only when
 * point): 1, or 0. */
static int load_pt(long double *v, mpfi_t *e, long len)
{
    for (long t = 0; t < len; t++) {
        long double r;
        if (get_exact_ld(&v[t], &e[t]->left) != 1 || get_exact_ld(&r, &e[t]->right) != 1) return 0;
        if (v[t] != r || !mpfr_number_p(&e[t]->left)) return 0;
        /* a point zero may be [+0, -0]: signs do not reach the results
         * (a zero factor adds nothing), the value does */
    }
    return 1;
}

int dvc_solve_ld_(long n, long k, const dvc_imat_t A, mpfi_t *B, mpfr_t *g, mpfr_t *xt,
                  mpfi_t *z, int *singular)
{
    long nn = n * n, nk = n * k;
    *singular = 0;
    if (n == 0 || !dvc_fast_ld_ok_()) return 0;
    long double *buf = malloc((size_t)(8 * nn + 8 * nk + n) * sizeof *buf);
    if (!buf) return 0;
    long double *am = buf, *nam = am + nn, *a = nam + nn, *R = a + nn, *sl = R + nn, *sn = sl + nn;
    long double *b = sn + nn, *bn = b + nk, *X = bn + nk, *dl = X + nk, *dn = dl + nk, *zl = dn + nk;
    long double *zn = zl + nk, *rr = zn + nk, *il = rr + n, *in = il + nn;
    int ok = load_pt(am, A->e, nn) && load_pt(b, B, nk);
    int saved = dvc_rnd_save_ext();
    if (ok) {
        dvc_x87_own();
        dvc_rnd_set_ext(FE_TONEAREST);
        memcpy(a, am, (size_t)nn * sizeof *a);
        int r = inv_ld(R, a, n);
        ok = !dvc_x87_raised();
        if (ok && r == -1) *singular = 1;
        ok = ok && r == 0;
    }
    /* g_i >= row sums of |I - R A|: the kernel from I with -R */
    if (ok) {
        for (long t = 0; t < nn; t++) {
            a[t] = -R[t];
            il[t] = t / n == t % n;
            in[t] = -il[t];
        }
        ok = dvc_fast_mul_ld_(sl, sn, a, a, am, am, n, n, n, il, in);
    }
    if (ok) {
        dvc_x87_own();
        dvc_rnd_set_ext(FE_UPWARD);
        for (long i = 0; i < n; i++) {
            long double gi = 0;
            for (long j = 0; j < n; j++) {
                long double lo = __builtin_fabsl(sl[i * n + j]), hi = __builtin_fabsl(sn[i * n + j]);
                gi += lo > hi ? lo : hi;
            }
            rr[i] = gi;
        }
        ok = !dvc_x87_raised();
        for (long i = 0; ok && i < n; i++) mpfr_set_ld(g[i], rr[i] == 0 ? 0.0L : rr[i], MPFR_RNDU);
    }
    dvc_rnd_restore_ext(saved);
    /* the predictors, column by column, in integers */
    ix64 *ia = ok ? malloc((size_t)(2 * nn + 3 * n) * sizeof *ia) : NULL;
    sf96 *xs = ia ? malloc((size_t)n * sizeof *xs) : NULL;
    ok = ok && xs;
    if (ok) {
        ix64 *ir = ia + nn, *ib = ir + nn, *xi = ib + n, *ri = xi + n;
        for (long t = 0; ok && t < nn; t++) ok = ix_from_ld(&ia[t], am[t]) && ix_from_ld(&ir[t], R[t]);
        for (long l = 0; ok && l < k; l++) {
            for (long i = 0; ok && i < n; i++) ok = ix_from_ld(&ib[i], b[i * k + l]);
            if (ok) refine_ix(xs, ia, ir, ib, xi, ri, n);
            for (long i = 0; ok && i < n; i++) ok = sf_to_ld(&X[i * k + l], xs[i]);
        }
    }
    free(ia);
    free(xs);
    /* d = B - A X~ (the kernel from B with -A), z = R d */
    if (ok) {
        for (long t = 0; t < nn; t++) nam[t] = -am[t];
        for (long t = 0; t < nk; t++) bn[t] = -b[t];
        ok = dvc_fast_mul_ld_(dl, dn, nam, nam, X, X, n, n, k, b, bn);
    }
    if (ok) {
        for (long t = 0; t < nk; t++) dn[t] = -dn[t]; /* right ends */
        ok = dvc_fast_mul_ld_(zl, zn, R, R, dl, dn, n, n, k, NULL, NULL);
    }
    for (long t = 0; ok && t < nk; t++) {
        mpfr_set_ld(xt[t], X[t], MPFR_RNDN); /* exact: 64 bits */
        if (zl[t] == 0) mpfr_set_zero(&z[t]->left, __builtin_signbit(zl[t]) ? -1 : 1);
        else set_exact_ld(&z[t]->left, zl[t], 1);
        long double zr = -zn[t];
        if (zr == 0) mpfr_set_zero(&z[t]->right, __builtin_signbit(zr) ? -1 : 1);
        else set_exact_ld(&z[t]->right, zr, 0);
    }
    free(buf);
    return ok;
}
#else
int dvc_solve_ld_(long n, long k, const dvc_imat_t A, mpfi_t *B, mpfr_t *g, mpfr_t *xt,
                  mpfi_t *z, int *singular)
{
    (void)n, (void)k, (void)A, (void)B, (void)g, (void)xt, (void)z;
    *singular = 0;
    return 0;
}
#endif
