/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Exact conversions between binary numbers and the decimal and hexadecimal
 * texts certificates state, with outward (directed) rounding: a numerics
 * module of the interval layer, used by the certificate core (stated bounds)
 * and by the readers and writers of src/io/. */
#include "ival_dec.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- fast exact conversions of the texts certificates consist of ---- */

void dvc_hex_write_(char buf[40], double d)
{
    static const char hx[] = "0123456789abcdef";
    uint64_t bits, man;
    int ex, k = 0, nd = 13;
    char *p = buf;
    memcpy(&bits, &d, sizeof bits);
    man = bits & ((UINT64_C(1) << 52) - 1);
    ex = (int)((bits >> 52) & 0x7ff);
    if (ex == 0x7ff || (ex == 0 && man != 0)) {
        dvc_double_hex(buf, d); /* inf, nan, subnormal */
        return;
    }
    if (bits >> 63) *p++ = '-';
    *p++ = '0';
    *p++ = 'x';
    if (ex == 0) {
        memcpy(p, "0p+0", 5);
        return;
    }
    *p++ = '1';
    while (nd > 0 && ((man >> (4 * (13 - nd))) & 0xf) == 0) nd--;
    if (nd > 0) {
        *p++ = '.';
        for (k = 0; k < nd; k++) *p++ = hx[(man >> (4 * (12 - k))) & 0xf];
    }
    ex -= 1023;
    *p++ = 'p';
    *p++ = ex < 0 ? '-' : '+';
    if (ex < 0) ex = -ex;
    {
        char e[8];
        int ne = 0;
        do {
            e[ne++] = (char)('0' + ex % 10);
            ex /= 10;
        } while (ex);
        while (ne) *p++ = e[--ne];
    }
    *p = '\0';
}

int dvc_hex_normal_(double *d, const char *s)
{
    uint64_t sign = 0, frac = 0, bits;
    int lead, nd = 0, eneg = 0;
    long ex = 0;
    if (*s == '-') {
        sign = UINT64_C(1) << 63;
        s++;
    }
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (s[2] != '0' && s[2] != '1')) return 0;
    lead = s[2] - '0';
    s += 3;
    if (*s == '.')
        for (s++; isxdigit((unsigned char)*s); s++) {
            if (++nd > 13) return 0;
            frac = frac << 4 | (uint64_t)(isdigit((unsigned char)*s) ? *s - '0'
                                                                       : tolower((unsigned char)*s) - 'a' + 10);
        }
    if (*s != 'p' && *s != 'P') return 0;
    s++;
    if (*s == '+' || *s == '-') eneg = *s++ == '-';
    if (!isdigit((unsigned char)*s)) return 0;
    for (int k = 0; isdigit((unsigned char)*s); s++, k++) {
        if (k >= 6) return 0;
        ex = 10 * ex + (*s - '0');
    }
    if (*s != '\0') return 0;
    if (eneg) ex = -ex;
    frac <<= 4 * (13 - nd);
    if (lead == 0) {
        if (frac != 0) return 0; /* the subnormal notation */
        bits = sign;
    } else {
        if (ex < -1022 || ex > 1023) return 0;
        bits = sign | (uint64_t)(ex + 1023) << 52 | frac;
    }
    memcpy(d, &bits, sizeof *d);
    return 1;
}

/* 5^k for k <= 27: below 2^64, so an exact operand of mpfr_mul_ui/div_ui */
static unsigned long pow5(int k)
{
    unsigned long r = 1;
    while (k-- > 0) r *= 5;
    return r;
}

/* x <- the outward-rounded ends of (-1)^neg D 10^k (D > 0, |k| <= 27) at
 * x's precision p <= 63, in integer arithmetic: the exact value is
 * (q + f) 2^e2 with f in [0, 1) (f > 0: sticky), q of at least 65 bits
 * whenever f can be nonzero, so that cutting q to p bits decides both
 * directed roundings. 0: not handled. */
int dvc_dec_ends_(mpfi_t x, uint64_t D, long k, int neg)
{
    mpfr_prec_t p = mpfr_get_prec(&x->left);
    dvc_u128 q, t;
    long e2;
    int sticky = 0, b;
    uint64_t lo_m, hi_m;
    if (p > 63 || mpfr_get_prec(&x->right) != p || D == 0) return 0;
    if (k >= 0) {
        q = (dvc_u128)D * pow5((int)k); /* < 2^64 2^63: exact */
        e2 = k;
    } else {
        int z = __builtin_clzll(D);
        unsigned long f = pow5((int)-k);
        dvc_u128 num = (dvc_u128)(D << z) << 64;
        q = num / f;
        sticky = num - q * f != 0;
        e2 = k - 64 - z;
    }
    b = (uint64_t)(q >> 64) ? 128 - __builtin_clzll((uint64_t)(q >> 64)) : 64 - __builtin_clzll((uint64_t)q);
    if (b <= p) {
        if (sticky) return 0; /* cannot happen: q >= 2^64 when f is inexact */
        lo_m = hi_m = (uint64_t)q;
    } else {
        int sh = b - (int)p;
        t = q >> sh;
        lo_m = (uint64_t)t;
        hi_m = lo_m + (((q & (((dvc_u128)1 << sh) - 1)) != 0) || sticky);
        e2 += sh;
    }
    /* lo_m < 2^p and hi_m <= 2^p: exact at p bits */
    if (!neg) {
        mpfr_set_ui_2exp(&x->left, lo_m, e2, MPFR_RNDN);
        mpfr_set_ui_2exp(&x->right, hi_m, e2, MPFR_RNDN);
    } else {
        mpfr_set_ui_2exp(&x->left, hi_m, e2, MPFR_RNDN);
        mpfr_set_ui_2exp(&x->right, lo_m, e2, MPFR_RNDN);
        mpfr_neg(&x->left, &x->left, MPFR_RNDN);
        mpfr_neg(&x->right, &x->right, MPFR_RNDN);
    }
    return 1;
}

int dvc_dec_enclose_fast_(mpfi_t x, const char *s)
{
    uint64_t D = 0;
    int neg = 0, nd = 0, ex = 0, eneg = 0, ne = 0;
    long k;
    const char *p = s;
    mpfr_t t;
    mp_limb_t tl[1];
    if (strcmp(s, "0") == 0) {
        mpfr_set_zero(&x->left, 1);
        mpfr_set_zero(&x->right, 1);
        return 1;
    }
    if (*p == '-') {
        neg = 1;
        p++;
    }
    if (!isdigit((unsigned char)*p) || *p == '0') return 0;
    D = (uint64_t)(*p++ - '0');
    nd = 1;
    if (*p == '.') {
        for (p++; isdigit((unsigned char)*p); p++) {
            if (++nd > 19) return 0;
            D = 10 * D + (uint64_t)(*p - '0');
        }
    }
    if (*p != 'e') return 0;
    p++;
    if (*p == '+' || *p == '-') eneg = *p++ == '-';
    for (; isdigit((unsigned char)*p); p++) {
        if (++ne > 3) return 0;
        ex = 10 * ex + (*p - '0');
    }
    if (ne == 0 || *p != '\0') return 0;
    /* value = D 10^k */
    k = (eneg ? -ex : ex) - (nd - 1);
    if (k < -27 || k > 27) return 0;
    /* D (< 10^19 < 2^64) is exact at 64 bits; one correctly rounded
     * multiplication or division by 5^|k| and an exact scaling by 2^k give
     * the decimal's correctly rounded ends, as mpfr_strtofr would */
    if (sizeof(unsigned long) < 8 || GMP_NUMB_BITS != 64) return 0;
    if (dvc_dec_ends_(x, D, k, neg)) return 1;
    /* t on the stack (MPFR's custom interface): no allocation */
    mpfr_custom_init(tl, 64);
    mpfr_custom_init_set(t, MPFR_ZERO_KIND, 0, 64, tl);
    mpfr_set_ui(t, (unsigned long)D, MPFR_RNDN);
    if (neg) mpfr_neg(t, t, MPFR_RNDN);
    for (int e = 0; e < 2; e++) {
        mpfr_ptr r = e ? &x->right : &x->left;
        mpfr_rnd_t rnd = e ? MPFR_RNDU : MPFR_RNDD;
        if (k >= 0) mpfr_mul_ui(r, t, pow5((int)k), rnd);
        else mpfr_div_ui(r, t, pow5((int)-k), rnd);
        mpfr_mul_2si(r, r, k, rnd);
    }
    return 1;
}

/* buf <- q 10^x10 as [-]d.ddde[+-]xx (q has exactly `digits` digits) */
static int put_sci(char *buf, size_t size, int neg, uint64_t q, int digits, long x10)
{
    char dg[24], *p = buf;
    long ax = labs(x10);
    if ((size_t)digits + 12 > size) return 0;
    for (int k = digits - 1; k >= 0; k--) {
        dg[k] = (char)('0' + q % 10);
        q /= 10;
    }
    if (neg) *p++ = '-';
    *p++ = dg[0];
    *p++ = '.';
    memcpy(p, dg + 1, (size_t)digits - 1);
    p += digits - 1;
    *p++ = 'e';
    *p++ = x10 < 0 ? '-' : '+';
    if (ax >= 100) {
        if (ax >= 1000) return 0;
        *p++ = (char)('0' + ax / 100);
    }
    *p++ = (char)('0' + ax / 10 % 10);
    *p++ = (char)('0' + ax % 10);
    *p = '\0';
    return 1;
}

static uint64_t pow10u(int k)
{
    uint64_t r = 1;
    while (k-- > 0) r *= 10;
    return r;
}

int dvc_dec_round_u128_(char *buf, size_t size, dvc_u128 A, int neg, long e, int ceil_mag, int digits)
{
    uint64_t q;
    long k;
    return dvc_dec_round_qk_(buf, size, A, neg, e, ceil_mag, digits, &q, &k);
}

int dvc_dec_round_qk_(char *buf, size_t size, dvc_u128 A, int neg, long e, int ceil_mag, int digits,
                      uint64_t *q_out, long *k_out)
{
    long k;
    uint64_t lo = pow10u(digits - 1), hi = pow10u(digits);
    if (A == 0) {
        if (size < 2) return 0;
        strcpy(buf, "0");
        *q_out = 0;
        *k_out = 0;
        return 1;
    }
    if (digits < 2 || digits > 18) return 0;
    k = (long)floor(log10((double)A) + (double)e * 0.30102999566398120) - (digits - 1);
    for (int tries = 0; tries < 3; tries++) {
        uint64_t L[3], q, f;
        dvc_u128 p0, p1, t;
        long K = -k, s;
        int sticky = 0, big = 0;
        if (k >= 0 || k < -27) return 0;
        /* A |v| 10^-k = A 5^K 2^(K + e): the product in three limbs */
        f = pow5((int)K);
        p0 = (dvc_u128)(uint64_t)A * f;
        p1 = (dvc_u128)(uint64_t)(A >> 64) * f;
        t = (p0 >> 64) + (uint64_t)p1;
        L[0] = (uint64_t)p0;
        L[1] = (uint64_t)t;
        L[2] = (uint64_t)(p1 >> 64) + (uint64_t)(t >> 64);
        s = K + e;
        if (s >= 0) {
            big = L[1] != 0 || L[2] != 0 || s >= 64 || (s > 0 && (L[0] >> (64 - s)) != 0);
            q = big ? 0 : L[0] << s;
        } else {
            long r = -s, w = r / 64, b = r % 64;
            if (w >= 3) {
                q = 0;
                sticky = (L[0] | L[1] | L[2]) != 0;
            } else {
                uint64_t up1 = w + 1 < 3 ? L[w + 1] : 0;
                q = b ? (L[w] >> b) | (up1 << (64 - b)) : L[w];
                big = (b ? (up1 >> b) != 0 : up1 != 0) || (w + 2 < 3 && L[w + 2] != 0);
                for (long j = 0; j < w; j++) sticky |= L[j] != 0;
                if (b) sticky |= (L[w] & ((UINT64_C(1) << b) - 1)) != 0;
            }
        }
        if (!big && ceil_mag && sticky) q++;
        if (big || q >= hi) {
            k++;
            continue;
        }
        if (q < lo) {
            k--;
            continue;
        }
        *q_out = q;
        *k_out = k;
        return put_sci(buf, size, neg, q, digits, k + digits - 1);
    }
    return 0;
}

int dvc_dec_round_z_(char *buf, size_t size, const mpz_t W, long e, int up, int digits)
{
    mpz_t num, den, q, lim;
    long k;
    int neg = mpz_sgn(W) < 0, ok = 0, ceil_mag;
    char dg[24];
    double approx;
    long dexp;
    if (mpz_sgn(W) == 0) {
        if (size < 2) return 0;
        strcpy(buf, "0");
        return 1;
    }
    if (digits < 2 || digits > 18) return 0;
    /* magnitude rounded up for an upper bound of a positive number or a
     * lower bound of a negative one */
    ceil_mag = up != neg;
    if (mpz_sizeinbase(W, 2) <= 128) {
        dvc_u128 A = 0;
        size_t cnt = 0;
        uint64_t lm[2] = {0, 0};
        mpz_export(lm, &cnt, -1, sizeof lm[0], 0, 0, W);
        A = (dvc_u128)lm[1] << 64 | lm[0];
        if (dvc_dec_round_u128_(buf, size, A, neg, e, ceil_mag, digits)) return 1;
    }
    approx = mpz_get_d_2exp(&dexp, W); /* |approx| in [0.5, 1): W = approx 2^dexp */
    k = (long)floor(log10(fabs(approx)) + (double)(dexp + e) * 0.30102999566398120) - (digits - 1);
    if (k < -400 || k > 400) return 0;
    mpz_inits(num, den, q, lim, (mpz_ptr)0);
    for (int tries = 0; tries < 3; tries++) {
        /* q = |W| 2^e / 10^k rounded to an integer in the direction wanted */
        mpz_abs(num, W);
        mpz_set_ui(den, 1);
        if (e >= 0) mpz_mul_2exp(num, num, (mp_bitcnt_t)e);
        else mpz_mul_2exp(den, den, (mp_bitcnt_t)-e);
        mpz_ui_pow_ui(lim, 10, (unsigned long)labs(k));
        if (k >= 0) mpz_mul(den, den, lim);
        else mpz_mul(num, num, lim);
        if (ceil_mag) mpz_cdiv_q(q, num, den);
        else mpz_fdiv_q(q, num, den);
        mpz_ui_pow_ui(lim, 10, (unsigned long)digits);
        if (mpz_cmp(q, lim) >= 0) { /* one digit too many (or rounded up to 10^digits) */
            k++;
            continue;
        }
        mpz_ui_pow_ui(lim, 10, (unsigned long)(digits - 1));
        if (mpz_cmp(q, lim) < 0) {
            k--;
            continue;
        }
        ok = 1;
        break;
    }
    if (ok) {
        long x10 = k + digits - 1;
        mpz_get_str(dg, 10, q);
        ok = snprintf(buf, size, "%s%c.%se%c%02ld", neg ? "-" : "", dg[0], dg + 1, x10 < 0 ? '-' : '+',
                      labs(x10)) < (int)size;
    }
    mpz_clears(num, den, q, lim, (mpz_ptr)0);
    return ok;
}

int dvc_fmt_g17_(char buf[40], double a)
{
    uint64_t bits, m, q = 0, lim = UINT64_C(100000000000000000); /* 10^17 */
    int ex, neg;
    long k, X;
    char ds[24], *p = buf;
    memcpy(&bits, &a, sizeof bits);
    neg = (int)(bits >> 63);
    ex = (int)((bits >> 52) & 0x7ff);
    m = bits & ((UINT64_C(1) << 52) - 1);
    if (ex == 0x7ff || (ex == 0 && m != 0)) return 0;
    if (ex == 0) {
        strcpy(buf, neg ? "-0" : "0");
        return 1;
    }
    m |= UINT64_C(1) << 52;
    ex -= 1075; /* |a| = m 2^ex */
    k = (long)floor(log10(fabs(a))) - 16;
    for (int tries = 0;; tries++) {
        long K = -k, s = K + ex;
        dvc_u128 P;
        int big = 0;
        if (tries == 3 || k >= 0 || K > 27) return 0;
        /* q = |a| 10^-k = m 5^K 2^(K + ex), rounded to nearest, ties to even */
        P = (dvc_u128)m * pow5((int)K);
        if (s >= 0) {
            big = s >= 64 || (P >> (64 - s)) != 0;
            q = big ? 0 : (uint64_t)(P << s);
        } else if (-s >= 128) {
            q = 0;
        } else {
            dvc_u128 fl = P >> -s, rem = P - (fl << -s), half = (dvc_u128)1 << (-s - 1);
            big = (fl >> 64) != 0;
            q = (uint64_t)fl;
            if (!big && (rem > half || (rem == half && (q & 1)))) q++;
        }
        if (big || q >= lim) {
            k++;
            continue;
        }
        if (q < lim / 10) {
            k--;
            continue;
        }
        break;
    }
    for (int j = 16; j >= 0; j--) {
        ds[j] = (char)('0' + q % 10);
        q /= 10;
    }
    X = k + 16; /* the decimal exponent of the rounded value */
    {
        int nd = 17;
        while (nd > 1 && ds[nd - 1] == '0') nd--; /* %g drops trailing zeros */
        if (neg) *p++ = '-';
        if (X < -4 || X >= 17) {
            *p++ = ds[0];
            if (nd > 1) {
                *p++ = '.';
                memcpy(p, ds + 1, (size_t)nd - 1);
                p += nd - 1;
            }
            sprintf(p, "e%c%02ld", X < 0 ? '-' : '+', labs(X));
        } else if (X >= 0) {
            memcpy(p, ds, (size_t)X + 1);
            p += X + 1;
            if (nd > X + 1) {
                *p++ = '.';
                memcpy(p, ds + X + 1, (size_t)(nd - X - 1));
                p += nd - X - 1;
            }
            *p = '\0';
        } else {
            *p++ = '0';
            *p++ = '.';
            for (long j = 0; j < -X - 1; j++) *p++ = '0';
            memcpy(p, ds, (size_t)nd);
            p[nd] = '\0';
        }
    }
    return 1;
}
