/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* exp(J u) enclosures of the lognorm route's error-set propagation
 * (docs/lognorm.md sections 5d and 10): the MPFI one, and at 53 bits the
 * same operations in binary64 under FE_UPWARD giving MPFI's endpoints bit
 * for bit. Each MPFI operation used is reproduced with its own case
 * analysis and conventions (MPFI 1.5): mpfi_mul picks the endpoint
 * products by the signs of the endpoints (-0 counts as >= 0, +0 as <= 0)
 * and copies an operand that is [0, 0] whatever the signs of its zeros;
 * mpfi_add (and mpfi_add_ui) copies the other operand when one is [0, 0],
 * else adds and turns a -0 left end into +0 and a +0 right end into -0.
 * A binary64 operation rounded upward is MPFR's at 53 bits rounded upward
 * as long as no result leaves the normal range: the underflow, overflow
 * and invalid flags are watched, and when one is raised (or an input is
 * not a normal double, or the precision is not 53) nothing is written and
 * the caller uses MPFI. */
#include "dlvi/lognorm_expm.h"
#include "rounding.h"

#include <math.h>
#include <stdlib.h>

#define EXPM_DEG 16

/* rho = z^{deg+1}/(deg+1)! / (1 - z/(deg+2)), rounded up (t: scratch) */
static void expm_rem(mpfr_t rho, const mpfr_t z, mpfr_t t)
{
    mpfr_pow_ui(rho, z, EXPM_DEG + 1, MPFR_RNDU);
    for (int j = 2; j <= EXPM_DEG + 1; j++) mpfr_div_ui(rho, rho, j, MPFR_RNDU);
    mpfr_div_ui(t, z, EXPM_DEG + 2, MPFR_RNDU);
    mpfr_ui_sub(t, 1, t, MPFR_RNDD);
    mpfr_div(rho, rho, t, MPFR_RNDU);
}

int dvc_lnf_expm_mpfi_(dvc_imat_t out, const dvc_imat_t J, const mpfi_t u, dvc_lnf_expm_ws *ws)
{
    long n = out->r;
    mpfr_t z, rho, t;
    int ok = 1;
    mpfr_inits2(dvc_imat_prec(out), z, rho, t, (mpfr_ptr)0);
    dvc_imat_scale(ws->T1, u, J);
    dvc_imat_norm_inf(z, ws->T1);
    if (!mpfr_number_p(z) || mpfr_cmp_ui(z, 4) >= 0) ok = 0;
    if (ok) {
        dvc_imat_one(out);
        for (int j = EXPM_DEG; j >= 1; j--) {
            dvc_imat_mul(ws->T2, ws->T1, out);
            mpfi_set_si(ws->s, j);
            mpfi_inv(ws->s, ws->s);
            dvc_imat_scale(ws->T2, ws->s, ws->T2);
            for (long k = 0; k < n; k++)
                mpfi_add_ui(dvc_imat_entry(ws->T2, k, k), dvc_imat_entry(ws->T2, k, k), 1);
            dvc_imat_set(out, ws->T2);
        }
        expm_rem(rho, z, t);
        for (long k = 0; k < n * n; k++) {
            mpfi_interv_fr(ws->v, rho, rho);
            mpfr_neg(&ws->v->left, rho, MPFR_RNDD);
            mpfi_add(out->e[k], out->e[k], ws->v);
        }
        ok = dvc_imat_is_finite(out);
    }
    mpfr_clears(z, rho, t, (mpfr_ptr)0);
    return ok;
}

/* ---- binary64 ------------------------------------------------------------ */

#if defined(__x86_64__) && defined(__SSE2_MATH__)
#include <xmmintrin.h>
/* All double arithmetic here is SSE: the flags are MXCSR's bits 0-5 (the
 * fenv calls cost more than a small kernel). */
#define FLAG_ALL 0x3fu
#define FLAG_BAD 0x19u /* invalid, overflow, underflow */
typedef unsigned flag_state;
static inline flag_state flags_save(void) { return _mm_getcsr() & FLAG_ALL; }
static inline void flags_clear(void)
{
    __asm__ volatile("" ::: "memory");
    _mm_setcsr(_mm_getcsr() & ~FLAG_ALL);
    __asm__ volatile("" ::: "memory");
}
/* Nonzero when invalid, overflow or underflow was raised since flags_clear */
static inline int flags_bad(void)
{
    __asm__ volatile("" ::: "memory");
    return (_mm_getcsr() & FLAG_BAD) != 0;
}
static inline void flags_restore(flag_state s)
{
    __asm__ volatile("" ::: "memory");
    _mm_setcsr((_mm_getcsr() & ~FLAG_ALL) | s);
    __asm__ volatile("" ::: "memory");
}
/* flush-to-zero (bit 15) or denormals-are-zero (bit 6) set by the caller
 * would change results without raising a flag */
static inline int modes_ok(void) { return (_mm_getcsr() & 0x8040u) == 0; }
#else
#include <fenv.h>
typedef fexcept_t flag_state;
static inline flag_state flags_save(void)
{
    fexcept_t s;
    fegetexceptflag(&s, FE_ALL_EXCEPT);
    return s;
}
static inline void flags_clear(void)
{
    __asm__ volatile("" ::: "memory");
    feclearexcept(FE_ALL_EXCEPT);
    __asm__ volatile("" ::: "memory");
}
static inline int flags_bad(void)
{
    __asm__ volatile("" ::: "memory");
    return fetestexcept(FE_INVALID | FE_OVERFLOW | FE_UNDERFLOW) != 0;
}
static inline void flags_restore(flag_state s)
{
    __asm__ volatile("" ::: "memory");
    fesetexceptflag(&s, FE_ALL_EXCEPT);
    __asm__ volatile("" ::: "memory");
}
static inline int modes_ok(void) { return 1; }
#endif

/* x as a double when it is one exactly and 0 or normal (a subnormal result
 * of MPFR, whose exponent range is wider, would not be reproduced) */
static int get_exact(double *d, mpfr_srcptr x)
{
    if (mpfr_get_prec(x) != 53) return 0;
    if (!mpfr_zero_p(x)) {
        mpfr_exp_t e;
        if (!mpfr_regular_p(x)) return 0;
        e = mpfr_get_exp(x);
        if (e < -1021 || e > 1024) return 0;
    }
    *d = mpfr_get_d(x, MPFR_RNDN);
    return 1;
}

static inline int izero(double lo, double hi) { return lo == 0 && hi == 0; }

/* [*pl, *ph] = mpfi_mul([bl, bh], [cl, ch]), neither [0, 0], under
 * FE_UPWARD: a lower end as -((-x) y) */
static inline void imul(double bl, double bh, double cl, double ch, double *pl, double *ph)
{
    if (bl >= 0) {
        if (cl >= 0) {
            *pl = -((-bl) * cl);
            *ph = bh * ch;
        } else if (ch <= 0) {
            *pl = -((-bh) * cl);
            *ph = bl * ch;
        } else {
            *pl = -((-bh) * cl);
            *ph = bh * ch;
        }
    } else if (bh <= 0) {
        if (cl >= 0) {
            *pl = -((-bl) * ch);
            *ph = bh * cl;
        } else if (ch <= 0) {
            *pl = -((-bh) * ch);
            *ph = bl * cl;
        } else {
            *pl = -((-bl) * ch);
            *ph = bl * cl;
        }
    } else {
        if (cl >= 0) {
            *pl = -((-bl) * ch);
            *ph = bh * ch;
        } else if (ch <= 0) {
            *pl = -((-bh) * cl);
            *ph = bl * cl;
        } else {
            double t1 = -((-bl) * ch), t2 = -((-bh) * cl), u1 = bl * cl, u2 = bh * ch;
            *pl = t1 < t2 ? t1 : t2;
            *ph = u1 > u2 ? u1 : u2;
        }
    }
}

/* [*sl, *sh] = mpfi_add([*sl, *sh], [pl, ph]) under FE_UPWARD */
static inline void iadd(double *sl, double *sh, double pl, double ph)
{
    double lo, hi;
    if (izero(pl, ph)) return;
    if (izero(*sl, *sh)) {
        *sl = pl;
        *sh = ph;
        return;
    }
    lo = -((-*sl) - pl);
    hi = *sh + ph;
    *sl = lo == 0 ? 0.0 : lo;
    *sh = hi == 0 ? -0.0 : hi;
}

/* [*l, *h] = mpfi_mul([bl, bh], [*l, *h]) */
static inline void imul_into(double bl, double bh, double *l, double *h)
{
    if (izero(bl, bh)) {
        *l = bl;
        *h = bh;
    } else if (!izero(*l, *h)) {
        imul(bl, bh, *l, *h, l, h);
    }
}

typedef struct {
    long n;
    double ul, uh;
    const double *Jl, *Jh;
    double *Al, *Ah, *Ol, *Oh, *Tl, *Th; /* u J, out, the product */
    const double *il, *ih;               /* [1/j], j = 0..EXPM_DEG */
    double z;
} expm_d;

/* Under FE_UPWARD (not inlined: no operation of it may be moved out of
 * the rounding mode): A = u J, z = ||A||_inf, and when z < 4 the Horner
 * loop of dvc_lnf_expm_mpfi_ into O. */
__attribute__((noinline)) static void expm_core(expm_d *e)
{
    long n = e->n, nn = n * n;
    double z = 0;
    for (long k = 0; k < nn; k++) {
        e->Al[k] = e->Jl[k];
        e->Ah[k] = e->Jh[k];
        imul_into(e->ul, e->uh, &e->Al[k], &e->Ah[k]);
    }
    /* dvc_imat_norm_inf: row sums of max(|lo|, |hi|) rounded up, maximised */
    for (long i = 0; i < n; i++) {
        double s = 0;
        for (long j = 0; j < n; j++) {
            double a = fabs(e->Al[i * n + j]), b = fabs(e->Ah[i * n + j]);
            s = s + (b > a ? b : a);
        }
        if (s > z) z = s;
    }
    e->z = z;
    if (!(z < 4)) return;
    /* dvc_imat_one */
    for (long k = 0; k < nn; k++) {
        e->Ol[k] = 0.0;
        e->Oh[k] = -0.0;
    }
    for (long k = 0; k < n; k++) e->Ol[k * n + k] = e->Oh[k * n + k] = 1.0;
    for (int j = EXPM_DEG; j >= 1; j--) {
        double sl = e->il[j], sh = e->ih[j];
        /* T = A O (dvc_imat_mul: entry (i, c) sums k = 0..n-1 in order,
         * from [0, 0]), row by row; a term with a [0, 0] factor changes
         * nothing (mpfi_mul copies the zero, mpfi_add then copies the sum) */
        for (long i = 0; i < n; i++) {
            double *tl = e->Tl + i * n, *th = e->Th + i * n;
            for (long c = 0; c < n; c++) {
                tl[c] = 0.0;
                th[c] = -0.0;
            }
            for (long k = 0; k < n; k++) {
                double al = e->Al[i * n + k], ah = e->Ah[i * n + k];
                const double *ol = e->Ol + k * n, *oh = e->Oh + k * n;
                if (izero(al, ah)) continue;
                for (long c = 0; c < n; c++) {
                    double pl, ph;
                    if (izero(ol[c], oh[c])) continue;
                    imul(al, ah, ol[c], oh[c], &pl, &ph);
                    iadd(&tl[c], &th[c], pl, ph);
                }
            }
            /* T = [1/j] T; T_ii += 1; O = T */
            for (long c = 0; c < n; c++) {
                double l = tl[c], h = th[c];
                imul_into(sl, sh, &l, &h);
                if (c == i) {
                    /* mpfi_add_ui(., 1): [0, 0] + 1 = [1, 1] as the sum */
                    double lo = -((-l) - 1.0), hi = h + 1.0;
                    l = lo == 0 ? 0.0 : lo;
                    h = hi == 0 ? -0.0 : hi;
                }
                tl[c] = l;
                th[c] = h;
            }
        }
        {
            double *t;
            t = e->Ol, e->Ol = e->Tl, e->Tl = t;
            t = e->Oh, e->Oh = e->Th, e->Th = t;
        }
    }
}

/* O += [-rho, rho] entry by entry (mpfi_add), under FE_UPWARD */
__attribute__((noinline)) static void expm_rho(double *Ol, double *Oh, long nn, const double *rho)
{
    double r = *rho;
    if (r == 0) return; /* [-0, 0] is [0, 0]: mpfi_add copies */
    for (long k = 0; k < nn; k++) iadd(&Ol[k], &Oh[k], -r, r);
}

int dvc_lnf_expm_d_(dvc_imat_t out, const dvc_imat_t J, const mpfi_t u)
{
    long n = out->r, nn = n * n;
    double *buf, il[EXPM_DEG + 1], ih[EXPM_DEG + 1], rho_d = 0;
    expm_d e;
    int ret = -1, saved;
    flag_state caller;
    if (n <= 0 || J->r != n || J->c != n || out->c != n || !modes_ok()) return -1;
    if (mpfi_get_prec(u) != 53 || !get_exact(&e.ul, &u->left) || !get_exact(&e.uh, &u->right)) return -1;
    buf = malloc((size_t)(8 * nn) * sizeof(double));
    if (buf == NULL) return -1;
    /* the caller's flags come back on every exit (MPFR's conversions may
     * raise some too) */
    caller = flags_save();
    e.n = n;
    e.Jl = buf;
    e.Jh = buf + nn;
    e.Al = buf + 2 * nn;
    e.Ah = buf + 3 * nn;
    e.Ol = buf + 4 * nn;
    e.Oh = buf + 5 * nn;
    e.Tl = buf + 6 * nn;
    e.Th = buf + 7 * nn;
    for (long k = 0; k < nn; k++)
        if (mpfi_get_prec(out->e[k]) != 53 || !get_exact(&buf[k], &J->e[k]->left) ||
            !get_exact(&buf[nn + k], &J->e[k]->right))
            goto done;
    {
        /* [1/j] = mpfi_inv(mpfi_set_si(j)) at 53 bits */
        mpfi_t s;
        mpfi_init2(s, 53);
        for (int j = 1; j <= EXPM_DEG; j++) {
            mpfi_set_si(s, j);
            mpfi_inv(s, s);
            il[j] = mpfr_get_d(&s->left, MPFR_RNDN);
            ih[j] = mpfr_get_d(&s->right, MPFR_RNDN);
        }
        mpfi_clear(s);
    }
    e.il = il;
    e.ih = ih;
    saved = dvc_rnd_save();
    flags_clear();
    dvc_rnd_set(FE_UPWARD);
    expm_core(&e);
    dvc_rnd_restore(saved);
    if (flags_bad()) goto done;
    if (!(e.z < 4)) {
        ret = 0; /* as dvc_lnf_expm_mpfi_, out untouched */
        goto done;
    }
    {
        mpfr_t z, rho, t;
        int exact;
        mpfr_inits2(53, z, rho, t, (mpfr_ptr)0);
        mpfr_set_d(z, e.z, MPFR_RNDN);
        expm_rem(rho, z, t);
        exact = get_exact(&rho_d, rho);
        mpfr_clears(z, rho, t, (mpfr_ptr)0);
        if (!exact) goto done;
    }
    flags_clear();
    dvc_rnd_set(FE_UPWARD);
    expm_rho(e.Ol, e.Oh, nn, &rho_d);
    dvc_rnd_restore(saved);
    if (flags_bad()) goto done;
    ret = 1;
    for (long k = 0; k < nn; k++) {
        mpfr_set_d(&out->e[k]->left, e.Ol[k], MPFR_RNDN);
        mpfr_set_d(&out->e[k]->right, e.Oh[k], MPFR_RNDN);
        if (!isfinite(e.Ol[k]) || !isfinite(e.Oh[k])) ret = 0;
    }
done:
    flags_restore(caller);
    free(buf);
    return ret;
}
