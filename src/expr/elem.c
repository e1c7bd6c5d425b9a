/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Rigorous elementary functions for the 53-bit fast path, bit-identical to
 * MPFI's results at 53 bits or refused.
 *
 * Each function value is first enclosed in x87 extended precision (64-bit
 * significand) interval arithmetic: argument reduction with constants
 * split into exact parts plus an enclosed tail, a truncated Taylor series
 * by interval Horner, and a proven bound of the truncation error added as
 * an interval. That enclosure is a few units of 2^-64 wide; when both of
 * its ends round (down for a lower end, up for an upper end) to the same
 * double, that double is the correctly rounded bound MPFI would give
 * (mpfr at 53 bits rounds the exact value the same way). Otherwise -- the
 * value lies too close to a double, about 1 case in 500 -- the function
 * refuses and the caller uses MPFI. Derivation of every constant:
 * docs/expressions.md, "Elementary functions in binary64"; tests/test_elem.c
 * checks the extended enclosures against MPFR at 256 bits and every result
 * against MPFI.
 *
 * The FPU is in FE_UPWARD throughout (see elem.h): x + y, x * y, x / y,
 * sqrt and conversions round up, and -((-x) op y) rounds down. */
#include "expr/elem.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

typedef long double ld;
typedef dvc_li li;

static inline ld ldn_add(ld a, ld b) { return -((-a) - b); }
static inline ld ldn_mul(ld a, ld b) { return -((-a) * b); }
static inline ld ldn_div(ld a, ld b) { return -((-a) / b); }
static inline double dn_add(double a, double b) { return -((-a) - b); }
static inline double dn_mul(double a, double b) { return -((-a) * b); }
static inline double dn_div(double a, double b) { return -((-a) / b); }
static inline double mx(double a, double b) { return a > b ? a : b; }
static inline double mn(double a, double b) { return a < b ? a : b; }
static inline ld lmx(ld a, ld b) { return a > b ? a : b; }
static inline ld lmn(ld a, ld b) { return a < b ? a : b; }
static inline dvc_di di(double lo, double hi) { dvc_di r = {lo, hi}; return r; }
static inline li L(ld lo, ld hi) { li r = {lo, hi}; return r; }
static inline li lpt(ld x) { return L(x, x); }
static inline li lneg(li a) { return L(-a.hi, -a.lo); }
static inline int fin(dvc_di a) { return isfinite(a.lo) && isfinite(a.hi) && a.lo <= a.hi; }

/* x87 only: other long double formats (e.g. software binary128) are not
 * relied on to honour the rounding mode. */
int dvc_di_available(void) { return LDBL_MANT_DIG == 64; }

/* ---- tables (lower, upper) of exact constants, generated with MPFR at
 * 400 bits and rounded outward to 64 bits. ---- */

/* 1/k!, k = 0..22 */
static const ld INVFACT[23][2] = {
    {0x8p-3L, 0x8p-3L}, /* 1/0! */
    {0x8p-3L, 0x8p-3L}, /* 1/1! */
    {0x8p-4L, 0x8p-4L}, /* 1/2! */
    {0xa.aaaaaaaaaaaaaaap-6L, 0xa.aaaaaaaaaaaaaabp-6L}, /* 1/3! */
    {0xa.aaaaaaaaaaaaaaap-8L, 0xa.aaaaaaaaaaaaaabp-8L}, /* 1/4! */
    {0x8.888888888888888p-10L, 0x8.888888888888889p-10L}, /* 1/5! */
    {0xb.60b60b60b60b60bp-13L, 0xb.60b60b60b60b60cp-13L}, /* 1/6! */
    {0xd.00d00d00d00d00dp-16L, 0xd.00d00d00d00d00ep-16L}, /* 1/7! */
    {0xd.00d00d00d00d00dp-19L, 0xd.00d00d00d00d00ep-19L}, /* 1/8! */
    {0xb.8ef1d2ab6399c7dp-22L, 0xb.8ef1d2ab6399c7ep-22L}, /* 1/9! */
    {0x9.3f27dbbc4fae397p-25L, 0x9.3f27dbbc4fae398p-25L}, /* 1/10! */
    {0xd.7322b3faa271c7fp-29L, 0xd.7322b3faa271c8p-29L}, /* 1/11! */
    {0x8.f76c77fc6c4bdaap-32L, 0x8.f76c77fc6c4bdabp-32L}, /* 1/12! */
    {0xb.092309d43684be5p-36L, 0xb.092309d43684be6p-36L}, /* 1/13! */
    {0xc.9cba54603e4e905p-40L, 0xc.9cba54603e4e906p-40L}, /* 1/14! */
    {0xd.73f9f399dc0f88ep-44L, 0xd.73f9f399dc0f88fp-44L}, /* 1/15! */
    {0xd.73f9f399dc0f88ep-48L, 0xd.73f9f399dc0f88fp-48L}, /* 1/16! */
    {0xc.a963b81856a5359p-52L, 0xc.a963b81856a535ap-52L}, /* 1/17! */
    {0xb.413c31dcbecbbddp-56L, 0xb.413c31dcbecbbdep-56L}, /* 1/18! */
    {0x9.7a4da340a0ab926p-60L, 0x9.7a4da340a0ab927p-60L}, /* 1/19! */
    {0xf.2a15d201011283dp-65L, 0xf.2a15d201011283ep-65L}, /* 1/20! */
    {0xb.8dc77b6e7ab8c5fp-69L, 0xb.8dc77b6e7ab8c6p-69L}, /* 1/21! */
    {0x8.671cb6dbfc294a2p-73L, 0x8.671cb6dbfc294a3p-73L}, /* 1/22! */
};

/* 1/(2k+1), k = 0..13 */
static const ld INVODD[14][2] = {
    {0x8p-3L, 0x8p-3L}, /* 1/1 */
    {0xa.aaaaaaaaaaaaaaap-5L, 0xa.aaaaaaaaaaaaaabp-5L}, /* 1/3 */
    {0xc.cccccccccccccccp-6L, 0xc.ccccccccccccccdp-6L}, /* 1/5 */
    {0x9.249249249249249p-6L, 0x9.24924924924924ap-6L}, /* 1/7 */
    {0xe.38e38e38e38e38ep-7L, 0xe.38e38e38e38e38fp-7L}, /* 1/9 */
    {0xb.a2e8ba2e8ba2e8bp-7L, 0xb.a2e8ba2e8ba2e8cp-7L}, /* 1/11 */
    {0x9.d89d89d89d89d89p-7L, 0x9.d89d89d89d89d8ap-7L}, /* 1/13 */
    {0x8.888888888888888p-7L, 0x8.888888888888889p-7L}, /* 1/15 */
    {0xf.0f0f0f0f0f0f0fp-8L, 0xf.0f0f0f0f0f0f0f1p-8L}, /* 1/17 */
    {0xd.79435e50d79435ep-8L, 0xd.79435e50d79435fp-8L}, /* 1/19 */
    {0xc.30c30c30c30c30cp-8L, 0xc.30c30c30c30c30dp-8L}, /* 1/21 */
    {0xb.21642c8590b2164p-8L, 0xb.21642c8590b2165p-8L}, /* 1/23 */
    {0xa.3d70a3d70a3d70ap-8L, 0xa.3d70a3d70a3d70bp-8L}, /* 1/25 */
    {0x9.7b425ed097b425ep-8L, 0x9.7b425ed097b425fp-8L}, /* 1/27 */
};

/* atan(j/8), j = 0..8 */
static const ld ATANJ[9][2] = {
    {0x0p+0L, 0x0p+0L}, /* atan(0/8) */
    {0xf.eadd4d5617b6e32p-7L, 0xf.eadd4d5617b6e33p-7L}, /* atan(1/8) */
    {0xf.adbafc96406eb15p-6L, 0xf.adbafc96406eb16p-6L}, /* atan(2/8) */
    {0xb.7b0ca0f26f78473p-5L, 0xb.7b0ca0f26f78474p-5L}, /* atan(3/8) */
    {0xe.d63382b0dda7b45p-5L, 0xe.d63382b0dda7b46p-5L}, /* atan(4/8) */
    {0x8.f005d5ef7f59f9bp-4L, 0x8.f005d5ef7f59f9cp-4L}, /* atan(5/8) */
    {0xa.4bc7d1934f70924p-4L, 0xa.4bc7d1934f70925p-4L}, /* atan(6/8) */
    {0xb.8053e2bc2319e73p-4L, 0xb.8053e2bc2319e74p-4L}, /* atan(7/8) */
    {0xc.90fdaa22168c234p-4L, 0xc.90fdaa22168c235p-4L}, /* atan(8/8) */
};

/* ln 2 = LN2_1 + [LN2_2]: LN2_1 has 40 significant bits, so k * LN2_1 is
 * exact for |k| < 2^13. */
static const ld LN2_1 = 0x1.62e42fefa4p-1L;
static const ld LN2_2[2] = {-0xc.21950d871319ff1p-46L, -0xc.21950d871319ffp-46L};
/* pi/2 = PIO2_1 + PIO2_2 + [PIO2_3]: the first two have 32 significant
 * bits, so k * PIO2_1 and k * PIO2_2 are exact for |k| < 2^21 (k <= 2^20
 * here: DVC_DI_TRIG_MAX). */
static const ld PIO2_1 = 0x1.921fb544p+0L;
static const ld PIO2_2 = 0x1.0b4611a6p-34L;
static const ld PIO2_3[2] = {0x9.8cc51701b839a25p-72L, 0x9.8cc51701b839a26p-72L};
static const ld PIO2[2] = {0xc.90fdaa22168c234p-3L, 0xc.90fdaa22168c235p-3L};

/* Truncation errors (docs/expressions.md; each about 100x its bound). */
#define E_EXP 1e-20L  /* |r| <= 0.35, degree 16: |r|^17/17! e^|r| <= 7.1e-23 */
#define E_SIN 2e-20L  /* |r| <= 0.79, terms to r^19: |r|^20/21! <= 1.8e-22 (relative) */
#define E_COS 1e-21L  /* |r| <= 0.79, terms to r^20: |r|^22/22! <= 5.0e-24 */
#define E_SINH 1e-23L /* |x| <= 0.5, terms to x^19: 1.001 |x|^20/21! <= 1.9e-26 (relative) */
#define E_ATAN 1e-20L /* |u| <= 0.07, terms to u^17: |u|^18/19 <= 8.6e-23 (relative) */
#define E_LOG 1e-21L  /* |s| <= 0.172, terms to z^13: z^14/29/(1-z) <= 1.4e-23 */

/* ---- binary64 interval arithmetic (as MPFI's at 53 bits) ----------------- */

dvc_di dvc_di_add(dvc_di a, dvc_di b) { return di(dn_add(a.lo, b.lo), a.hi + b.hi); }
dvc_di dvc_di_sub(dvc_di a, dvc_di b) { return di(dn_add(a.lo, -b.hi), a.hi - b.lo); }

dvc_di dvc_di_mul(dvc_di a, dvc_di b)
{
    if (a.lo >= 0 && b.lo >= 0) return di(dn_mul(a.lo, b.lo), a.hi * b.hi);
    double h = mx(mx(a.lo * b.lo, a.lo * b.hi), mx(a.hi * b.lo, a.hi * b.hi));
    double l = mn(mn(dn_mul(a.lo, b.lo), dn_mul(a.lo, b.hi)), mn(dn_mul(a.hi, b.lo), dn_mul(a.hi, b.hi)));
    return di(l, h);
}

dvc_di dvc_di_div(dvc_di a, dvc_di b)
{
    double h = mx(mx(a.lo / b.lo, a.lo / b.hi), mx(a.hi / b.lo, a.hi / b.hi));
    double l = mn(mn(dn_div(a.lo, b.lo), dn_div(a.lo, b.hi)), mn(dn_div(a.hi, b.lo), dn_div(a.hi, b.hi)));
    return di(l, h);
}

dvc_di dvc_di_sqr(dvc_di a)
{
    if (a.lo >= 0) return di(dn_mul(a.lo, a.lo), a.hi * a.hi);
    if (a.hi <= 0) return di(dn_mul(a.hi, a.hi), a.lo * a.lo);
    double m = mx(-a.lo, a.hi);
    return di(0, m * m);
}

/* ---- extended-precision interval arithmetic ------------------------------ */

#define ladd dvc_li_add /* elem.h */
static li lsub(li a, li b) { return L(ldn_add(a.lo, -b.hi), a.hi - b.lo); }

#define lmul dvc_li_mul

/* b must not contain 0 */
static li ldiv_(li a, li b)
{
    ld h = lmx(lmx(a.lo / b.lo, a.lo / b.hi), lmx(a.hi / b.lo, a.hi / b.hi));
    ld l = lmn(lmn(ldn_div(a.lo, b.lo), ldn_div(a.lo, b.hi)), lmn(ldn_div(a.hi, b.lo), ldn_div(a.hi, b.hi)));
    return L(l, h);
}

static li lsqr(li a)
{
    if (a.lo >= 0) return L(ldn_mul(a.lo, a.lo), a.hi * a.hi);
    if (a.hi <= 0) return L(ldn_mul(a.hi, a.hi), a.lo * a.lo);
    ld m = lmx(-a.lo, a.hi);
    return L(0, m * m);
}

/* x * a for an exact scalar x */
static li lsmul(ld x, li a)
{
    return x >= 0 ? L(ldn_mul(x, a.lo), x * a.hi) : L(ldn_mul(x, a.hi), x * a.lo);
}

/* p * z for z >= 0: two products */
static li lmulz(li p, li z)
{
    return L(p.lo >= 0 ? ldn_mul(p.lo, z.lo) : ldn_mul(p.lo, z.hi), p.hi >= 0 ? p.hi * z.hi : p.hi * z.lo);
}

static li widen(li a, ld e) { return L(ldn_add(a.lo, -e), a.hi + e); }

/* sum_{k<n} s_k c_k x^k with c_k = tab[first + step k] and s_k = (-1)^k
 * when alt, by interval Horner. */
static li horner(const ld (*tab)[2], int first, int step, int n, int alt, li x)
{
    li p = {0, 0};
    if (x.hi <= 0) { /* sum c_k (-1)^k (-x)^k: keep the argument >= 0 */
        x = lneg(x);
        alt = !alt;
    }
    int nonneg = x.lo >= 0;
    for (int k = n - 1; k >= 0; k--) {
        const ld *c = tab[first + step * k];
        li ck = (alt && (k & 1)) ? L(-c[1], -c[0]) : L(c[0], c[1]);
        p = k == n - 1 ? ck : ladd(nonneg ? lmulz(p, x) : lmul(p, x), ck);
    }
    return p;
}

/* ---- rounding to 53 bits -------------------------------------------------- */

/* MPFR has no subnormals: refuse results in or near that range. */
static int tiny(double x) { return x != 0 && fabs(x) < 0x1p-1021; }

/* The value v is in a: RD53(v), when a proves it. */
static int rd(double *out, li a)
{
    double l = -(double)(-a.lo), h = -(double)(-a.hi);
    if (l != h || !isfinite(l) || tiny(l)) return 1;
    *out = l;
    return 0;
}

/* RU53(v) */
static int ru(double *out, li a)
{
    double l = (double)a.lo, h = (double)a.hi;
    if (l != h || !isfinite(l) || tiny(l)) return 1;
    *out = l;
    return 0;
}

/* [RD53(f(a)), RU53(f(b))] for f increasing, encl its point enclosure */
static int incr(dvc_di *r, dvc_di a, int (*encl)(li *, ld))
{
    li l, h;
    double lo, hi;
    if (encl(&l, a.lo) || rd(&lo, l)) return 1;
    if (a.hi == a.lo) h = l;
    else if (encl(&h, a.hi)) return 1;
    if (ru(&hi, h)) return 1;
    *r = di(lo, hi);
    return 0;
}

/* ---- exp ----------------------------------------------------------------- */

/* exp(x) for -708 <= x <= 709.8 */
static int exp_pt(li *r, ld x)
{
    if (!(x >= -708 && x <= 709.8L)) return 1;
    if (x == 0) {
        *r = lpt(1);
        return 0;
    }
    ld kd = floorl(x * 0x1.71547652b82fe177p+0L + 0.5L); /* round(x / ln 2): any k works */
    /* t = x - k LN2_1 - k [LN2_2]; k LN2_1 is exact */
    ld p1 = kd * LN2_1;
    li t = L(ldn_add(x, -p1), x - p1);
    t = lsub(t, lsmul(kd, L(LN2_2[0], LN2_2[1])));
    if (!(t.lo >= -0.35L && t.hi <= 0.35L)) return 1;
    li p = widen(horner(INVFACT, 0, 1, 17, 0, t), E_EXP);
    int k = (int)kd; /* 2^k scaling is exact in the extended range */
    *r = L(ldexpl(p.lo, k), ldexpl(p.hi, k));
    return 0;
}

int dvc_di_exp(dvc_di *r, dvc_di a)
{
    /* beyond: 0 < exp < 2^-1021 (MPFR has no subnormals) or overflow */
    if (!(a.lo >= -708 && a.hi <= 709.78)) return 1;
    return incr(r, a, exp_pt);
}

/* ---- log ------------------------------------------------------------------ */

static int log_pt(li *r, ld x)
{
    int e;
    if (!(x > 0) || !isfinite(x)) return 1;
    ld m = frexpl(x, &e); /* exact */
    if (m < 0xb.504f333f9de6484p-4L) { /* ~ sqrt(1/2): m in [0.7071, 1.4143) */
        m *= 2;
        e--;
    }
    /* log m = 2 atanh s, s = (m - 1)/(m + 1); m - 1 is exact (Sterbenz) */
    li s = ldiv_(lpt(m - 1), L(ldn_add(m, 1), m + 1));
    if (!(s.lo >= -0.172L && s.hi <= 0.172L)) return 1;
    li Lz = horner(INVODD, 0, 1, 14, 0, lsqr(s));
    Lz.hi += E_LOG; /* the omitted terms are >= 0 */
    li lm = lmul(s, Lz);
    lm = L(2 * lm.lo, 2 * lm.hi);
    /* e ln 2 = e LN2_1 (exact) + e [LN2_2] */
    ld ed = (ld)e, p1 = ed * LN2_1;
    *r = ladd(lpt(p1), ladd(lsmul(ed, L(LN2_2[0], LN2_2[1])), lm));
    return 0;
}

int dvc_di_log(dvc_di *r, dvc_di a)
{
    if (!(a.lo > 0) || !isfinite(a.hi)) return 1;
    return incr(r, a, log_pt);
}

/* ---- sqrt ------------------------------------------------------------------ */

int dvc_di_sqrt(dvc_di *r, dvc_di a)
{
    if (!(a.lo >= 0) || !isfinite(a.hi)) return 1;
    double s = sqrt(a.lo); /* rounded up */
    /* s^2 <= a.lo (the product rounded up) proves s <= sqrt(a.lo); else
     * sqrt(a.lo) is not a double and RD is the double below s */
    if (s * s > a.lo) s = nextafter(s, 0);
    *r = di(s, sqrt(a.hi));
    return tiny(r->lo) || tiny(r->hi);
}

/* ---- sin, cos --------------------------------------------------------------- */

/* x = k pi/2 + r with r enclosed, |r| <= 0.79, for |x| <= DVC_DI_TRIG_MAX. */
static int red_pio2(double x, long *k, li *r)
{
    if (!(fabs(x) <= DVC_DI_TRIG_MAX)) return 1;
    ld kd = floorl((ld)x * 0xa.2f9836e4e441529p-4L + 0.5L); /* round(x 2/pi) */
    ld p1 = kd * PIO2_1, p2 = kd * PIO2_2;                  /* exact */
    li t = L(ldn_add(x, -p1), x - p1);
    t = L(ldn_add(t.lo, -p2), t.hi - p2);
    t = lsub(t, lsmul(kd, L(PIO2_3[0], PIO2_3[1])));
    if (!(t.lo >= -0.79L && t.hi <= 0.79L)) return 1;
    *k = (long)kd;
    *r = t;
    return 0;
}

static li sin_r(li r)
{
    li S = widen(horner(INVFACT, 1, 2, 10, 1, lsqr(r)), E_SIN);
    return lmul(r, S);
}

static li cos_r(li r)
{
    if (r.lo == 0 && r.hi == 0) return lpt(1);
    return widen(horner(INVFACT, 0, 2, 11, 1, lsqr(r)), E_COS);
}

/* An end of the interval reduced, x = k pi/2 + r, with sin r and cos r
 * computed on first use (sin and cos of one interval share them). */
typedef struct {
    long k;
    li r, s, c;
    int has_s, has_c;
} trig_end;

/* sin(k pi/2 + r + q pi/2) */
static li trig_kr(trig_end *e, int q)
{
    int m = (int)(((e->k + q) % 4 + 4) % 4);
    if (m == 0 || m == 2) {
        if (!e->has_s) e->s = sin_r(e->r), e->has_s = 1;
        return m == 0 ? e->s : lneg(e->s);
    }
    if (!e->has_c) e->c = cos_r(e->r), e->has_c = 1;
    return m == 1 ? e->c : lneg(e->c);
}

/* sin (q = 0) or cos (q = 1) over [a.lo, a.hi] from its reduced ends. */
static int trig_q(dvc_di *r, trig_end *ea, trig_end *eb, int q)
{
    li va = trig_kr(ea, q), vb = trig_kr(eb, q);
    int hi1 = 0, lo1 = 0;
    /* the extrema c pi/2 (c + q odd) in a: c from ka (when a.lo <= ka pi/2)
     * to kb (when kb pi/2 <= a.hi) */
    long c0 = ea->r.hi <= 0 ? ea->k : ea->k + 1, c1 = eb->r.lo >= 0 ? eb->k : eb->k - 1;
    if (c1 - c0 > 4) c1 = c0 + 4;
    for (long c = c0; c <= c1; c++) {
        int m = (int)(((c + q) % 4 + 4) % 4);
        if (m == 1) hi1 = 1;
        if (m == 3) lo1 = 1;
    }
    double lo = -1, hi = 1;
    if (!lo1 && rd(&lo, L(lmn(va.lo, vb.lo), lmn(va.hi, vb.hi)))) return 1;
    if (!hi1 && ru(&hi, L(lmx(va.lo, vb.lo), lmx(va.hi, vb.hi)))) return 1;
    *r = di(mx(lo, -1), mn(hi, 1));
    return 0;
}

/* sin into *rs and cos into *rc over the interval a (either may be NULL):
 * the ends are reduced and their series summed once for both. */
static int trig(dvc_di *rs, dvc_di *rc, dvc_di a)
{
    trig_end ea, eb, *pb = &eb;
    if (!isfinite(a.lo) || !isfinite(a.hi)) return 1;
    if (dn_add(a.hi, -a.lo) > 0x1.921fb54442d19p+2) { /* > 2 pi: a full period */
        if (rs) *rs = di(-1, 1);
        if (rc) *rc = di(-1, 1);
        return 0;
    }
    ea.has_s = ea.has_c = eb.has_s = eb.has_c = 0;
    if (red_pio2(a.lo, &ea.k, &ea.r)) return 1;
    if (a.lo == a.hi) pb = &ea; /* one end: its values serve both */
    else if (red_pio2(a.hi, &eb.k, &eb.r)) return 1;
    /* an end that may or may not lie beyond an extremum: refuse */
    if ((ea.r.lo < 0 && ea.r.hi >= 0) || (ea.r.lo <= 0 && ea.r.hi > 0)) return 1;
    if ((pb->r.lo < 0 && pb->r.hi >= 0) || (pb->r.lo <= 0 && pb->r.hi > 0)) return 1;
    if (rs && trig_q(rs, &ea, pb, 0)) return 1;
    if (rc && trig_q(rc, &ea, pb, 1)) return 1;
    return 0;
}

int dvc_di_sin(dvc_di *r, dvc_di a) { return trig(r, NULL, a); }
int dvc_di_cos(dvc_di *r, dvc_di a) { return trig(NULL, r, a); }
int dvc_di_sincos(dvc_di *s, dvc_di *c, dvc_di a) { return trig(s, c, a); }

/* ---- atan ------------------------------------------------------------------- */

/* atan over [0, 1]: atan x = atan(j/8) + atan u, u = (x - j/8)/(1 + x j/8),
 * |u| <= 1/16 + rounding. */
static int atan01(li *r, ld x)
{
    int j = (int)floorl(8 * x + 0.5L);
    ld c = j * 0.125L;
    li u = j ? ldiv_(L(ldn_add(x, -c), x - c), L(ldn_add(1, ldn_mul(x, c)), 1 + x * c)) : lpt(x);
    if (!(u.lo >= -0.07L && u.hi <= 0.07L)) return 1;
    li A = widen(horner(INVODD, 0, 1, 9, 1, lsqr(u)), E_ATAN);
    *r = ladd(L(ATANJ[j][0], ATANJ[j][1]), lmul(u, A));
    return 0;
}

/* atan, odd: evaluated at |x| */
static int atan_pt(li *r, ld x)
{
    ld ax = fabsl(x);
    li v, l, h;
    if (!isfinite(x)) return 1;
    if (ax <= 1) {
        if (atan01(&v, ax)) return 1;
    } else { /* pi/2 - atan(1/x) */
        if (atan01(&l, ldn_div(1, ax)) || atan01(&h, 1 / ax)) return 1;
        v = L(ldn_add(PIO2[0], -h.hi), PIO2[1] - l.lo);
    }
    *r = x < 0 ? lneg(v) : v;
    return 0;
}

int dvc_di_atan(dvc_di *r, dvc_di a) { return incr(r, a, atan_pt); }

/* ---- sinh, cosh, tanh ------------------------------------------------------ */

static int sinh_pt(li *r, ld x)
{
    ld ax = fabsl(x);
    li v, ep, em;
    if (ax <= 0.5L) {
        li S = horner(INVFACT, 1, 2, 10, 0, lsqr(lpt(ax)));
        S.hi += E_SINH; /* omitted terms >= 0 */
        v = lsmul(ax, S);
    } else {
        if (exp_pt(&ep, ax) || exp_pt(&em, -ax)) return 1;
        v = lsub(ep, em);
        v = L(0.5L * v.lo, 0.5L * v.hi);
    }
    *r = x < 0 ? lneg(v) : v;
    return 0;
}

static int cosh_pt(li *r, ld x)
{
    ld ax = fabsl(x);
    li ep, em;
    if (exp_pt(&ep, ax) || exp_pt(&em, -ax)) return 1;
    li s = ladd(ep, em);
    *r = L(lmx(0.5L * s.lo, 1), 0.5L * s.hi);
    return 0;
}

static int tanh_pt(li *r, ld x)
{
    ld ax = fabsl(x);
    li v;
    if (!isfinite(x)) return 1;
    if (ax <= 0.5L) {
        li s, c;
        if (sinh_pt(&s, ax) || cosh_pt(&c, ax)) return 1;
        v = ldiv_(s, c);
    } else if (ax > 20) {
        return 1; /* dvc_di_tanh answers directly */
    } else {
        /* 1 - 2/(e^{2x} + 1) */
        li E;
        if (exp_pt(&E, 2 * ax)) return 1;
        li q = ldiv_(lpt(2), ladd(E, lpt(1)));
        v = L(ldn_add(1, -q.hi), 1 - q.lo);
    }
    v.hi = lmn(v.hi, 1);
    *r = x < 0 ? lneg(v) : v;
    return 0;
}

int dvc_di_sinh(dvc_di *r, dvc_di a)
{
    if (!(a.lo >= -709 && a.hi <= 709)) return 1;
    return incr(r, a, sinh_pt);
}

/* For |x| > 20, 0 < 1 - tanh|x| < 2 e^{-40} < 2^-53: tanh x rounds down to
 * 1 - 2^-53 and up to 1 (x > 0), down to -1 and up to -1 + 2^-53 (x < 0). */
static int tanh_end(double *out, double x, int up)
{
    li v;
    if (x > 20) *out = up ? 1 : 1 - 0x1p-53;
    else if (x < -20) *out = up ? -1 + 0x1p-53 : -1;
    else return tanh_pt(&v, x) || (up ? ru(out, v) : rd(out, v));
    return 0;
}

int dvc_di_tanh(dvc_di *r, dvc_di a)
{
    double lo, hi;
    if (!isfinite(a.lo) || !isfinite(a.hi) || tanh_end(&lo, a.lo, 0) || tanh_end(&hi, a.hi, 1)) return 1;
    *r = di(lo, hi);
    return 0;
}

int dvc_di_cosh(dvc_di *r, dvc_di a)
{
    li l, h;
    double lo, hi;
    if (!(a.lo >= -709 && a.hi <= 709)) return 1;
    if (a.lo >= 0) {
        if (cosh_pt(&l, a.lo) || cosh_pt(&h, a.hi)) return 1;
    } else if (a.hi <= 0) {
        if (cosh_pt(&l, a.hi) || cosh_pt(&h, a.lo)) return 1;
    } else {
        l = lpt(1);
        if (cosh_pt(&h, mx(-a.lo, a.hi))) return 1;
    }
    if (rd(&lo, l) || ru(&hi, h)) return 1;
    *r = di(lo, hi);
    return 0;
}

/* ---- integer powers --------------------------------------------------------- */

/* x^m for x >= 0, enclosed */
static li lpow(ld x, unsigned long m)
{
    li r = lpt(1), b = lpt(x);
    while (m) {
        if (m & 1) r = lmul(r, b);
        m >>= 1;
        if (m) b = lsqr(b);
    }
    return r;
}

/* [RD53(u^m), RU53(u^m)] at the ends, as mpfr_pow_ui; then 1/. for n < 0 */
int dvc_di_powi(dvc_di *r, dvc_di a, long n)
{
    unsigned long m = (unsigned long)(n < 0 ? -n : n);
    double lo, hi;
    li pl, ph;
    if (!isfinite(a.lo) || !isfinite(a.hi)) return 1;
    if (m == 0) {
        *r = di(1, 1);
        return 0;
    }
    if (m % 2 == 1) {
        pl = a.lo >= 0 ? lpow(a.lo, m) : lneg(lpow(-(ld)a.lo, m));
        ph = a.hi >= 0 ? lpow(a.hi, m) : lneg(lpow(-(ld)a.hi, m));
    } else if (a.lo >= 0) {
        pl = lpow(a.lo, m);
        ph = lpow(a.hi, m);
    } else if (a.hi <= 0) {
        pl = lpow(a.hi, m);
        ph = lpow(a.lo, m);
    } else {
        pl = lpt(0);
        ph = lpow(mx(-a.lo, a.hi), m);
    }
    if (rd(&lo, pl) || ru(&hi, ph)) return 1;
    dvc_di p = di(lo, hi);
    if (n < 0) {
        if (p.lo <= 0 && p.hi >= 0) return 1;
        p = dvc_di_div(di(1, 1), p);
    }
    *r = p;
    return !fin(*r) || tiny(r->lo) || tiny(r->hi);
}

/* ---- for tests: the extended-precision enclosures themselves ------------- */

int dvc_di_encl_(int f, double x, long double *lo, long double *hi)
{
    li v;
    trig_end e;
    int st;
    switch (f) {
    case 0:
    case 1:
        e.has_s = e.has_c = 0;
        st = red_pio2(x, &e.k, &e.r);
        if (!st) v = trig_kr(&e, f);
        break;
    case 2: st = exp_pt(&v, x); break;
    case 3: st = log_pt(&v, x); break;
    case 4: st = atan_pt(&v, x); break;
    case 5: st = tanh_pt(&v, x); break;
    case 6: st = sinh_pt(&v, x); break;
    default: st = cosh_pt(&v, x); break;
    }
    if (!st) {
        *lo = v.lo;
        *hi = v.hi;
    }
    return st;
}
