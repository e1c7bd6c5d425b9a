/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* All solutions of an LCP: the driver (docs/lcpall.md). The P-matrix route
 * proves uniqueness and encloses the one solution with the LVI solver;
 * otherwise (or when its solution is not proven nondegenerate) every
 * complementary basis is decided by src/lcpall_enum.c. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvicert/lvi.h"
#include "lcpall_internal.h"
#include "rounding.h"

void dvc_lcpall_opts_default(dvc_lcpall_opts *o)
{
    o->method = DVC_LCPALL_AUTO;
    o->max_n = 24;
    o->max_seconds = 60;
    o->max_solutions = 1L << 20;
    o->on_box = NULL;
    o->on_box_ctx = NULL;
}

void dvc_lcpall_result_init(dvc_lcpall_result_t r)
{
    memset(r, 0, sizeof *r);
    r->verdict = DVC_LCPALL_FAILED;
    r->route = "";
}

void dvc_lcpall_result_clear(dvc_lcpall_result_t r)
{
    free(r->basis_);
    free(r->stat_);
    free(r->lo_);
    free(r->hi_);
    memset(r, 0, sizeof *r);
}

/* Empty r for size n; the consumer of the boxes stays. */
static void reset(dvc_lcpall_result_t r, long n)
{
    int (*sink)(void *, const struct dvc_lcpall_result_s *, long) = r->sink_;
    void *ctx = r->sink_ctx_;
    dvc_lcpall_result_clear(r);
    dvc_lcpall_result_init(r);
    r->n = n;
    r->sink_ = sink;
    r->sink_ctx_ = ctx;
}

int dvc_lcpall_push_(dvc_lcpall_result_t r, const char *basis, const double *lo,
                     const double *hi, int status, int nondegenerate, long cap)
{
    long n = r->n, slot = r->nsol - r->first_;
    if (r->nsol >= cap) return -1;
    if (r->sink_ != NULL && slot > 0) { /* streaming: one slot, reused */
        r->first_ = r->nsol;
        slot = 0;
    }
    if (slot == r->cap_) {
        long c = r->cap_ ? 2 * r->cap_ : 16;
        if (c > cap) c = cap;
        char *b = realloc(r->basis_, (size_t)(c * n) + 1);
        if (b != NULL) r->basis_ = b;
        unsigned char *s = realloc(r->stat_, (size_t)c);
        if (s != NULL) r->stat_ = s;
        double *l = realloc(r->lo_, sizeof(double) * (size_t)(c * n + 1));
        if (l != NULL) r->lo_ = l;
        double *h = realloc(r->hi_, sizeof(double) * (size_t)(c * n + 1));
        if (h != NULL) r->hi_ = h;
        if (b == NULL || s == NULL || l == NULL || h == NULL) return -1;
        r->cap_ = c;
    }
    memcpy(r->basis_ + slot * n, basis, (size_t)n);
    memcpy(r->lo_ + slot * n, lo, sizeof(double) * (size_t)n);
    memcpy(r->hi_ + slot * n, hi, sizeof(double) * (size_t)n);
    r->stat_[slot] = (unsigned char)(status | (nondegenerate ? 2 : 0));
    r->nsol++;
    if (status == DVC_LCPALL_SOL_EXISTS) {
        r->nexists++;
        if (!nondegenerate) r->ndegenerate++;
    }
    if (r->sink_ != NULL) {
        /* the consumer formats decimals: hand it the usual rounding */
        int saved = dvc_rnd_save(), stop;
        dvc_rnd_set(FE_TONEAREST);
        stop = r->sink_(r->sink_ctx_, r, r->nsol - 1);
        dvc_rnd_restore(saved);
        if (stop) return -2;
    }
    return 0;
}

/* The slot of box k, or -1 when it is not (or no longer) stored. */
static long slot_of(const dvc_lcpall_result_t r, long k)
{
    if (k < r->first_ || k >= r->nsol) return -1;
    return k - r->first_;
}

int dvc_lcpall_get_d(const dvc_lcpall_result_t r, long k, double *lo, double *hi, char *basis,
                     int *nondegenerate)
{
    long n = r->n, s = slot_of(r, k);
    if (s < 0) return -1;
    if (lo != NULL) memcpy(lo, r->lo_ + s * n, sizeof(double) * (size_t)n);
    if (hi != NULL) memcpy(hi, r->hi_ + s * n, sizeof(double) * (size_t)n);
    if (basis != NULL) memcpy(basis, r->basis_ + s * n, (size_t)n);
    if (nondegenerate != NULL) *nondegenerate = (r->stat_[s] & 2) != 0;
    return r->stat_[s] & 1;
}

int dvc_lcpall_get(const dvc_lcpall_result_t r, long k, dvc_ivec_t z, dvc_ivec_t w, char *basis,
                   int *nondegenerate)
{
    long n = r->n, s = slot_of(r, k);
    if (s < 0) return -1;
    const char *b = r->basis_ + s * n;
    const double *lo = r->lo_ + s * n, *hi = r->hi_ + s * n;
    if (z != NULL && z->n != n) dvc_ivec_resize(z, n);
    if (w != NULL && w->n != n) dvc_ivec_resize(w, n);
    for (long i = 0; i < n; i++) {
        if (z != NULL) {
            if (b[i]) mpfi_interv_d(z->e[i], lo[i], hi[i]);
            else mpfi_set_ui(z->e[i], 0);
        }
        if (w != NULL) {
            if (b[i]) mpfi_set_ui(w->e[i], 0);
            else mpfi_interv_d(w->e[i], lo[i], hi[i]);
        }
    }
    if (basis != NULL) memcpy(basis, b, (size_t)n);
    if (nondegenerate != NULL) *nondegenerate = (r->stat_[s] & 2) != 0;
    return r->stat_[s] & 1;
}

const char *dvc_lcpall_verdict_name(dvc_lcpall_verdict v)
{
    switch (v) {
    case DVC_LCPALL_COMPLETE: return "all solutions enclosed, proven complete";
    case DVC_LCPALL_INCOMPLETE: return "solutions enclosed, completeness not proven";
    case DVC_LCPALL_FAILED: return "failed";
    }
    return "?";
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void append(dvc_lcpall_result_t r, const char *s)
{
    size_t len = strlen(r->reason);
    snprintf(r->reason + len, sizeof r->reason - len, "%s", s);
}

/* The P-matrix route: 1 when it proved COMPLETE (the one solution stored),
 * 0 when M is not proven P or the solution is not proven nondegenerate (r
 * reset, *unique set when P was proven), -1 on bad input (message set). */
static int p_route(dvc_lcpall_result_t r, const dvc_imat_t M, const dvc_ivec_t q, int *unique)
{
    long n = M->r;
    mpfr_prec_t prec = dvc_imat_prec(M);
    dvc_ivec_t l, u, wv;
    dvc_lvi_solver_t s;
    dvc_lvi_result_t lr;
    dvc_status st;
    int ret = 0;

    dvc_ivec_init2(l, n, prec);
    dvc_ivec_init2(u, n, prec);
    for (long i = 0; i < n; i++) mpfi_set_d(u->e[i], INFINITY);
    st = dvc_lvi_solver_init2(s, M, l, u, prec);
    if (st == DVC_ERR_INPUT) {
        ret = -1;
        goto out_solver;
    }
    if (st != DVC_OK) goto out_solver;
    *unique = 1;
    dvc_lvi_result_init2(lr, n, prec);
    if (dvc_lvi_solve(lr, s, q, NULL) == DVC_OK) {
        char *basis = malloc((size_t)n + 1);
        double *lo = malloc(sizeof(double) * (size_t)(2 * n + 1)), *hi = lo ? lo + n : NULL;
        int decided = basis != NULL && lo != NULL;
        dvc_ivec_init2(wv, n, prec);
        dvc_imat_mul_vec(wv, M, lr->y);
        dvc_ivec_add(wv, wv, q);
        /* the solution is nondegenerate when every i has z_i > 0 (then
         * w_i = 0) or w_i > 0 (then z_i = 0) proven */
        for (long i = 0; decided && i < n; i++) {
            const mpfi_t *e = NULL;
            if (dvc_ival_is_pos(lr->y->e[i])) {
                basis[i] = 1;
                e = &lr->y->e[i];
            } else if (dvc_ival_is_pos(wv->e[i])) {
                basis[i] = 0;
                e = &wv->e[i];
            } else {
                decided = 0;
                break;
            }
            lo[i] = mpfr_get_d(&(*e)[0].left, MPFR_RNDD);
            hi[i] = mpfr_get_d(&(*e)[0].right, MPFR_RNDU);
            if (!(lo[i] > 0) || !isfinite(hi[i])) decided = 0;
        }
        if (decided) {
            r->route = "P-matrix: unique solution, enclosed by the LVI route";
            r->covered = 1;
            if (dvc_lcpall_push_(r, basis, lo, hi, DVC_LCPALL_SOL_EXISTS, 1, 1) != -1) ret = 1;
        }
        dvc_ivec_clear(wv);
        free(basis);
        free(lo);
    }
    dvc_lvi_result_clear(lr);
out_solver:
    dvc_lvi_solver_clear(s);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
    if (ret == 0) reset(r, n);
    return ret;
}

dvc_status dvc_lcpall_solve(dvc_lcpall_result_t r, const dvc_imat_t M, const dvc_ivec_t q,
                            const dvc_lcpall_opts *opts)
{
    dvc_lcpall_opts o;
    long n = M->r;
    double t0 = now_s();
    int unique = 0;
    dvc_status st = DVC_OK;

    if (opts != NULL) o = *opts;
    else dvc_lcpall_opts_default(&o);
    r->sink_ = NULL;
    reset(r, n);
    if (!dvc_imat_is_square(M) || q->n != n || n < 1) {
        snprintf(r->reason, sizeof r->reason, "M must be square and q of its size");
        return dvc_error(DVC_ERR_INPUT, "lcp-all: M is %ld x %ld, q has %ld entries: M must be "
                         "square (n >= 1) and q of length n", M->r, M->c, q->n);
    }
    if (!dvc_imat_is_finite(M) || !dvc_ivec_is_finite(q)) {
        snprintf(r->reason, sizeof r->reason, "non-finite data");
        return dvc_error(DVC_ERR_INPUT, "lcp-all: M and q must be finite");
    }
    if (o.max_n > DVC_LCPALL_N_MAX) o.max_n = DVC_LCPALL_N_MAX;
    if (o.max_solutions < 1) o.max_solutions = 1;
    r->sink_ = o.on_box;
    r->sink_ctx_ = o.on_box_ctx;

    if (o.method == DVC_LCPALL_AUTO) {
        int p = p_route(r, M, q, &unique);
        if (p < 0) {
            snprintf(r->reason, sizeof r->reason, "%s", dvc_error_message());
            return DVC_ERR_INPUT;
        }
        if (p == 1) {
            r->verdict = DVC_LCPALL_COMPLETE;
            r->seconds = now_s() - t0;
            return DVC_OK;
        }
    }
    if (n > o.max_n) {
        r->verdict = DVC_LCPALL_FAILED;
        r->route = "none";
        snprintf(r->reason, sizeof r->reason,
                 "%s; enumeration of the 2^%ld complementary bases refused above n = %ld",
                 unique ? "M is a P-matrix but its solution was not proven nondegenerate"
                        : "M is not proven a P-matrix",
                 n, o.max_n);
        r->seconds = now_s() - t0;
        return dvc_error(DVC_NOT_CERTIFIED, "lcp-all: %s", r->reason);
    }

    /* outward binary64 copies of the data */
    {
        double *buf = malloc(sizeof(double) * (size_t)(2 * n * n + 2 * n));
        dvc_lcpall_data_ d;
        if (buf == NULL) return dvc_error(DVC_ERR_NOMEM, "lcp-all: out of memory");
        double *Mlo = buf, *Mhi = Mlo + n * n, *qlo = Mhi + n * n, *qhi = qlo + n;
        for (long k = 0; k < n * n; k++) {
            Mlo[k] = mpfr_get_d(&M->e[k][0].left, MPFR_RNDD);
            Mhi[k] = mpfr_get_d(&M->e[k][0].right, MPFR_RNDU);
        }
        for (long k = 0; k < n; k++) {
            qlo[k] = mpfr_get_d(&q->e[k][0].left, MPFR_RNDD);
            qhi[k] = mpfr_get_d(&q->e[k][0].right, MPFR_RNDU);
        }
        for (long k = 0; k < 2 * n * n + 2 * n; k++)
            if (!isfinite(buf[k])) {
                free(buf);
                r->verdict = DVC_LCPALL_FAILED;
                snprintf(r->reason, sizeof r->reason, "data beyond the binary64 range");
                return dvc_error(DVC_NOT_CERTIFIED, "lcp-all: %s", r->reason);
            }
        d.n = n;
        d.Mlo = Mlo;
        d.Mhi = Mhi;
        d.qlo = qlo;
        d.qhi = qhi;
        r->route = "enumeration of complementary bases";
        st = dvc_lcpall_enum_(r, &d, &o);
        free(buf);
        if (st != DVC_OK) {
            r->verdict = DVC_LCPALL_FAILED;
            return st;
        }
    }

    if (unique) append(r, "M is a P-matrix (the solution is unique) but the LVI route did not "
                          "prove it nondegenerate; ");
    if (r->ndegenerate > 0) {
        char buf[200];
        snprintf(buf, sizeof buf, "%ld solution box%s not proven nondegenerate (strict "
                 "complementarity): one degenerate solution can belong to several bases; ",
                 r->ndegenerate, r->ndegenerate == 1 ? "" : "es");
        append(r, buf);
    }
    if (r->nsol > r->nexists) {
        char buf[200];
        snprintf(buf, sizeof buf, "%ld candidate box%s (basis neither excluded nor proven "
                 "feasible); ", r->nsol - r->nexists, r->nsol - r->nexists == 1 ? "" : "es");
        append(r, buf);
    }
    r->seconds = now_s() - t0;
    if (r->reason[0] == 0 && r->covered) {
        r->verdict = DVC_LCPALL_COMPLETE;
        return DVC_OK;
    }
    {
        size_t len = strlen(r->reason);
        while (len > 0 && (r->reason[len - 1] == ' ' || r->reason[len - 1] == ';'))
            r->reason[--len] = 0;
    }
    r->verdict = DVC_LCPALL_INCOMPLETE;
    return dvc_error(DVC_NOT_CERTIFIED, "lcp-all: %s", r->reason);
}

/* ---- decimal text of the bounds ------------------------------------------- */

static const char dec_pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";

/* 5^K, K = 0..27 (below 2^64) */
static const uint64_t dec_p5[28] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
                                    48828125, 244140625, 1220703125, 6103515625, 30517578125,
                                    152587890625, 762939453125, 3814697265625, 19073486328125,
                                    95367431640625, 476837158203125, 2384185791015625,
                                    11920928955078125, 59604644775390625, 298023223876953125,
                                    1490116119384765625, 7450580596923828125};

/* Any number of digits, normal and subnormal x (the general route). */
static int fmt_general(char *buf, double x, int digits, int up)
{
    static const uint64_t p10[18] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                     1000000000, 10000000000, 100000000000, 1000000000000,
                                     10000000000000, 100000000000000, 1000000000000000,
                                     10000000000000000, 100000000000000000};
    uint64_t bits, m, lo, hi, q = 0;
    int ex, neg, E, bl;
    char d[24], *p = buf;
    if (digits < 2 || digits > 17 || !isfinite(x) || x == 0) return 0;
    memcpy(&bits, &x, sizeof bits);
    neg = (int)(bits >> 63);
    ex = (int)((bits >> 52) & 0x7ff);
    m = bits & ((UINT64_C(1) << 52) - 1);
    if (ex != 0) m |= UINT64_C(1) << 52;
    ex = ex == 0 ? -1074 : ex - 1075; /* |x| = m 2^ex */
    bl = 64 - __builtin_clzll(m);
    lo = p10[digits - 1];
    hi = p10[digits];
    {
        /* log10 |x| >= (ex + bl - 1 + f) log10 2 with f the fraction bits of
         * m (log2(1 + f) >= f), so with 1262611 / 2^22 < log10 2 and a margin
         * of 1e-3 for the negative exponents the floor E is never above the
         * decimal exponent of |x| (the loop below then raises it): never
         * above matters, as a rounding up could otherwise be taken for a
         * result one digit short */
        long long f22 = (long long)(((m << (64 - bl)) << 1) >> 42);
        long long t = (long long)(ex + bl - 1) * 1262611LL + f22 * 1262611LL / (1LL << 22) - 4194;
        E = (int)(t >= 0 ? t >> 22 : -((-t + (1LL << 22) - 1) >> 22));
    }
    for (int tries = 0;; tries++) {
        int K = digits - 1 - E, s;
        __extension__ unsigned __int128 P;
        int sticky = 0, big = 0;
        if (tries == 3 || K < 0 || K > 27) return 0;
        /* q = |x| 10^K = m 5^K 2^(K + ex), rounded in magnitude up or down */
        P = (unsigned __int128)m * dec_p5[K];
        s = K + ex;
        if (s >= 0) {
            big = s >= 64 || (P >> (64 - s)) != 0;
            q = big ? 0 : (uint64_t)P << s;
        } else if (-s >= 128) {
            q = 0;
            sticky = 1;
        } else {
            q = (uint64_t)(P >> -s);
            big = (P >> -s) >> 64 != 0;
            sticky = (P & (((unsigned __int128)1 << -s) - 1)) != 0;
        }
        if (!big && sticky && up != neg) q++;
        if (big || q >= hi) {
            E++;
            continue;
        }
        if (q < lo) {
            E--;
            continue;
        }
        break;
    }
    /* the 17 decimal digits of q (< 10^17, zero-padded) in four independent
     * groups of four after the first (one serial division by 100 per digit
     * pair was half the time of this function); the last `digits` are q's.
     * At 17 digits (the default) the groups go straight to the output: a
     * copy through d, read wider than it was written, stalled. */
    {
        uint64_t top = q / 100000000u;
        uint32_t g[4] = {(uint32_t)(top % 100000000u) / 10000u, (uint32_t)(top % 100000000u) % 10000u,
                         (uint32_t)(q % 100000000u) / 10000u, (uint32_t)(q % 100000000u) % 10000u};
        char *o = digits == 17 ? p + (neg ? 3 : 2) : d + 1;
        if (neg) *p++ = '-';
        *p++ = (char)('0' + top / 100000000u);
        d[0] = p[-1];
        *p++ = '.';
        for (int i = 0; i < 4; i++) {
            memcpy(o + 4 * i, dec_pairs + 2 * (g[i] / 100u), 2);
            memcpy(o + 2 + 4 * i, dec_pairs + 2 * (g[i] % 100u), 2);
        }
        if (digits < 17) { /* "-d.ddde+XX", the text of MPFR's %.{digits-1}R{D,U}e */
            p[-2] = d[17 - digits];
            memcpy(p, d + 18 - digits, (size_t)(digits - 1));
        }
        p += digits - 1;
    }
    *p++ = 'e';
    *p++ = E < 0 ? '-' : '+';
    {
        int a = E < 0 ? -E : E;
        if (a >= 100) *p++ = (char)('0' + a / 100);
        *p++ = dec_pairs[2 * (a % 100)];
        *p++ = dec_pairs[2 * (a % 100) + 1];
    }
    *p = '\0';
    return (int)(p - buf);
}

/* The 8 digits of y < 10^8: y / 10^6 in fixed point with 57 fraction bits,
 * then two digits at a time by multiplying the fraction by 100. The
 * constant exceeds 2^57 / 10^6 by less than 1, so the error stays below
 * y 100^j < 10^8 100^j after j steps, while the exact fraction is a
 * multiple of 2^57 100^j / 10^6 short of the next integer: no digit can
 * change since 10^14 < 2^57 (and every product is below 2^64). All 10^8
 * values checked against printf. */
static inline void dec8(char *p, uint32_t y)
{
    const uint64_t mask = (UINT64_C(1) << 57) - 1;
    uint64_t f = (uint64_t)y * ((UINT64_C(1) << 57) / 1000000 + 1);
    memcpy(p, dec_pairs + 2 * (f >> 57), 2);
    f = (f & mask) * 100;
    memcpy(p + 2, dec_pairs + 2 * (f >> 57), 2);
    f = (f & mask) * 100;
    memcpy(p + 4, dec_pairs + 2 * (f >> 57), 2);
    f = (f & mask) * 100;
    memcpy(p + 6, dec_pairs + 2 * (f >> 57), 2);
}

/* 17 digits (the default, 4.5 M numbers at n = 17) of a normal x of
 * moderate size: the route above with a cheaper exponent guess and digit
 * loop, the same text (1.6x faster; tests/test_lcpall.c: test_fmt17);
 * anything else goes to fmt_general. */
int dvc_lcpall_fmt_(char *buf, double x, int digits, int up)
{
    uint64_t bits, m, q;
    int ex, neg, E, e2;
    char *p = buf;
    memcpy(&bits, &x, sizeof bits);
    ex = (int)((bits >> 52) & 0x7ff);
    if (digits != 17 || ex == 0 || ex == 0x7ff) return fmt_general(buf, x, digits, up);
    neg = (int)(bits >> 63);
    m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    ex -= 1075; /* |x| = m 2^ex, 2^e2 <= |x| < 2^(e2 + 1) */
    e2 = ex + 52;
    /* E = floor(e2 c), c = 1262611 / 2^22 < log10 2 (by 7.5e-8; for e2 < 0
     * less a margin of 1e-3 > 1074 * 7.5e-8): never above the decimal
     * exponent of |x|, at most 1 below it (the loop raises it; see
     * fmt_general for why never above matters). */
    E = (int)(((int64_t)e2 * 1262611 - (e2 < 0 ? 4194 : 0)) >> 22);
    for (int tries = 0;; tries++) {
        int K = 16 - E, s = K + ex;
        __extension__ unsigned __int128 P, t;
        if (tries == 3 || K < 0 || K > 27 || s >= 0 || s <= -128) return fmt_general(buf, x, digits, up);
        /* q = |x| 10^K = m 5^K 2^s rounded in magnitude up or down */
        P = (unsigned __int128)m * dec_p5[K];
        t = P >> -s;
        if (t >> 64) {
            E++;
            continue;
        }
        q = (uint64_t)t;
        if ((P & (((unsigned __int128)1 << -s) - 1)) != 0 && up != neg) q++;
        if (q >= UINT64_C(100000000000000000)) {
            E++;
            continue;
        }
        if (q < UINT64_C(10000000000000000)) {
            E--;
            continue;
        }
        break;
    }
    {
        uint64_t top = q / 100000000u;
        uint32_t d0 = (uint32_t)(top / 100000000u);
        if (neg) *p++ = '-';
        *p++ = (char)('0' + d0);
        *p++ = '.';
        dec8(p, (uint32_t)(top - (uint64_t)d0 * 100000000u));
        dec8(p + 8, (uint32_t)(q - top * 100000000u));
        p += 16;
    }
    *p++ = 'e';
    *p++ = E < 0 ? '-' : '+';
    {
        int a = E < 0 ? -E : E;
        if (a >= 100) *p++ = (char)('0' + a / 100);
        *p++ = dec_pairs[2 * (a % 100)];
        *p++ = dec_pairs[2 * (a % 100) + 1];
    }
    *p = '\0';
    return (int)(p - buf);
}
