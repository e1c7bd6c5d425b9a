/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Closed-form bridge solution, see ref_bridge.h. In region x1 >= 0,
 * omega = 2 and the particular solution is -sin(4t)/12; in x1 < 0,
 * omega = 1 and it is -sin(4t)/15. */
#include "ref_bridge.h"

#include <math.h>

static void seg_eval(const ref_bridge *r, int k, mpfr_t x1, mpfr_t x2, const mpfr_t t)
{
    mpfr_t tau, c, s, p, q;
    unsigned w = r->pos[k] ? 2 : 1, den = r->pos[k] ? 12 : 15;
    mpfr_inits2(REF_PREC, tau, c, s, p, q, (mpfr_ptr)0);
    mpfr_sub(tau, t, r->s[k], MPFR_RNDN);
    mpfr_mul_ui(tau, tau, w, MPFR_RNDN);
    mpfr_sin_cos(s, c, tau, MPFR_RNDN);
    /* x1 = c1 cos + c2 sin - sin(4t)/den */
    mpfr_mul(p, r->c1[k], c, MPFR_RNDN);
    mpfr_mul(q, r->c2[k], s, MPFR_RNDN);
    mpfr_add(x1, p, q, MPFR_RNDN);
    /* x2 = w (-c1 sin + c2 cos) - 4 cos(4t)/den */
    mpfr_mul(p, r->c1[k], s, MPFR_RNDN);
    mpfr_mul(q, r->c2[k], c, MPFR_RNDN);
    mpfr_sub(x2, q, p, MPFR_RNDN);
    mpfr_mul_ui(x2, x2, w, MPFR_RNDN);
    mpfr_mul_ui(tau, t, 4, MPFR_RNDN);
    mpfr_sin_cos(s, c, tau, MPFR_RNDN);
    mpfr_div_ui(s, s, den, MPFR_RNDN);
    mpfr_sub(x1, x1, s, MPFR_RNDN);
    mpfr_mul_ui(c, c, 4, MPFR_RNDN);
    mpfr_div_ui(c, c, den, MPFR_RNDN);
    mpfr_sub(x2, x2, c, MPFR_RNDN);
    mpfr_clears(tau, c, s, p, q, (mpfr_ptr)0);
}

/* Constants of segment k starting at s with x1(s) = a, x2(s) = b. */
static void seg_start(ref_bridge *r, int k, const mpfr_t a, const mpfr_t b)
{
    mpfr_t sn, cs, u;
    unsigned w = r->pos[k] ? 2 : 1, den = r->pos[k] ? 12 : 15;
    mpfr_inits2(REF_PREC, sn, cs, u, (mpfr_ptr)0);
    mpfr_mul_ui(u, r->s[k], 4, MPFR_RNDN);
    mpfr_sin_cos(sn, cs, u, MPFR_RNDN);
    /* c1 = a + sin(4s)/den; c2 = (b + 4 cos(4s)/den) / w */
    mpfr_div_ui(u, sn, den, MPFR_RNDN);
    mpfr_add(r->c1[k], a, u, MPFR_RNDN);
    mpfr_mul_ui(u, cs, 4, MPFR_RNDN);
    mpfr_div_ui(u, u, den, MPFR_RNDN);
    mpfr_add(r->c2[k], b, u, MPFR_RNDN);
    mpfr_div_ui(r->c2[k], r->c2[k], w, MPFR_RNDN);
    mpfr_clears(sn, cs, u, (mpfr_ptr)0);
}

int ref_bridge_init(ref_bridge *r, const char *x10, const char *gamma, double T)
{
    mpfr_t a, b, t, lo, hi, mid, x1, x2;
    int rc = 0;
    const double dt = 1e-3;
    r->nseg = 0;
    mpfr_init2(r->T, REF_PREC);
    mpfr_set_d(r->T, T, MPFR_RNDN);
    mpfr_inits2(REF_PREC, a, b, t, lo, hi, mid, x1, x2, (mpfr_ptr)0);
    mpfr_set_str(a, x10, 10, MPFR_RNDN);
    mpfr_set_str(b, gamma, 10, MPFR_RNDN);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    for (;;) {
        int k = r->nseg, sgn;
        double tt;
        if (k >= REF_MAXSEG) { rc = -1; break; }
        mpfr_init2(r->s[k], REF_PREC);
        mpfr_init2(r->c1[k], REF_PREC);
        mpfr_init2(r->c2[k], REF_PREC);
        mpfr_set(r->s[k], t, MPFR_RNDN);
        /* region from x1 (or, at x1 = 0, from the sign of x2) */
        sgn = mpfr_sgn(a) != 0 ? mpfr_sgn(a) : mpfr_sgn(b);
        if (sgn == 0) { rc = -1; r->nseg++; break; }
        r->pos[k] = sgn > 0;
        seg_start(r, k, a, b);
        r->nseg++;
        /* next sign change of x1 after s */
        tt = mpfr_get_d(t, MPFR_RNDN);
        mpfr_set(lo, t, MPFR_RNDN);
        int found = 0;
        for (double u = tt + dt; ; u += dt) {
            int last = u >= T;
            if (last) u = T;
            mpfr_set_d(hi, u, MPFR_RNDN);
            seg_eval(r, k, x1, x2, hi);
            if (mpfr_sgn(x1) != 0 && (mpfr_sgn(x1) > 0) != (sgn > 0)) { found = 1; break; }
            mpfr_set(lo, hi, MPFR_RNDN);
            if (last) break;
        }
        if (!found) break;
        /* bisection: x1(lo) has sign sgn, x1(hi) the opposite */
        for (int it = 0; it < REF_PREC + 10; it++) {
            mpfr_add(mid, lo, hi, MPFR_RNDN);
            mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
            if (mpfr_equal_p(mid, lo) || mpfr_equal_p(mid, hi)) break;
            seg_eval(r, k, x1, x2, mid);
            if (mpfr_sgn(x1) == 0) { mpfr_set(lo, mid, MPFR_RNDN); mpfr_set(hi, mid, MPFR_RNDN); break; }
            if ((mpfr_sgn(x1) > 0) == (sgn > 0)) mpfr_set(lo, mid, MPFR_RNDN);
            else mpfr_set(hi, mid, MPFR_RNDN);
        }
        mpfr_set(t, hi, MPFR_RNDN);
        seg_eval(r, k, x1, x2, t);
        /* a tangential crossing would make the switch ill-defined */
        if (fabs(mpfr_get_d(x2, MPFR_RNDN)) < 1e-6) { rc = -1; break; }
        mpfr_set_ui(a, 0, MPFR_RNDN);
        mpfr_set(b, x2, MPFR_RNDN);
    }
    mpfr_clears(a, b, t, lo, hi, mid, x1, x2, (mpfr_ptr)0);
    return rc;
}

void ref_bridge_clear(ref_bridge *r)
{
    for (int k = 0; k < r->nseg; k++) {
        mpfr_clear(r->s[k]);
        mpfr_clear(r->c1[k]);
        mpfr_clear(r->c2[k]);
    }
    mpfr_clear(r->T);
    r->nseg = 0;
}

void ref_bridge_eval(const ref_bridge *r, mpfr_t x1, mpfr_t x2, mpfr_t y, const mpfr_t t)
{
    int k = 0;
    while (k + 1 < r->nseg && mpfr_cmp(t, r->s[k + 1]) >= 0) k++;
    seg_eval(r, k, x1, x2, t);
    /* y = max(0, -3 x1) */
    mpfr_mul_si(y, x1, -3, MPFR_RNDN);
    if (mpfr_sgn(y) < 0) mpfr_set_ui(y, 0, MPFR_RNDN);
}
