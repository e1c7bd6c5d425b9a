/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The x87 route of a field mode's flow at 64 bits (field_ld.h): the
 * a-priori box and the variational Jacobian of field.c, their MPFI
 * operations in x87 extended precision (imat_ld.h: sums and products
 * correctly rounded outward as MPFR's at 64 bits, unless a sticky flag
 * says an operation left the range, and then the MPFI code runs) and the
 * field's values and derivatives by its binary64 program on the outward
 * roundings of the 64-bit inputs (the roundings the MPFI route's load
 * makes: in FE_UPWARD a long double converts to its double rounded up, and
 * -(double)(-x) is x rounded down). Signed zeros: the values are MPFI's;
 * every result written comes from a last mpfi_add in the MPFI code, which
 * leaves +0 on the left and -0 on the right, as dvc_li_put_ writes them. */
#include <string.h>

#include "hybrid/field_ld.h"
#include "expr/internal.h"
#include "imat_ld.h"
#include "mpfr_bits.h"

enum { NMAX = 8 };

/* The exact x87 interval of x, ordered (an unordered input is the MPFI
 * route's error). */
static int get(dvc_li *v, const mpfi_t x) { return dvc_li_get_(v, x) && v->lo <= v->hi; }

/* load's binary64 interval of x (FE_UPWARD). */
static int to_di(dvc_di *d, dvc_li x)
{
    d->lo = -(double)(-x.lo);
    d->hi = (double)x.hi;
    return dvc_di_fin(*d);
}

static dvc_li of_di(dvc_di d)
{
    dvc_li r = {d.lo, d.hi};
    return r;
}

/* a b for b >= 0 (else dvc_li_mul): the two products of MPFI's case
 * analysis by a's sign instead of the extremes of all four, the same
 * values (rounding is monotone). */
static inline dvc_li mul_nn(dvc_li a, dvc_li b)
{
    if (!(b.lo >= 0)) return dvc_li_mul(a, b);
    dvc_li r;
    if (a.lo >= 0) {
        r.lo = dvc_ldn_mul_(a.lo, b.lo);
        r.hi = a.hi * b.hi;
    } else {
        r.lo = dvc_ldn_mul_(a.lo, b.hi);
        r.hi = a.hi <= 0 ? a.hi * b.lo : a.hi * b.hi;
    }
    return r;
}

/* Can every component of the field take the route: over t and the n states. */
static int field_ok(const dvc_hybrid_mode *md, long n)
{
    if (md->linear || !md->f || n < 1 || n > NMAX) return 0;
    for (long i = 0; i < n; i++)
        if (md->f[i]->nvars != n) return 0;
    return 1;
}

/* F <- f(tx) (hyb_field's dvc_expr_eval_x). */
static int field_di(dvc_li *F, const dvc_hybrid_mode *md, long n, const dvc_di *tx)
{
    for (long i = 0; i < n; i++) {
        dvc_di v;
        if (dvc_expr_fast_run_di_(md->f[i], tx, NULL, &v, NULL)) return 1;
        F[i] = of_di(v);
    }
    return 0;
}

/* apriori_box's loop in an open window: bx from x0 at t (td) over [0, hs]. */
static int apriori_w(dvc_li *bx, const dvc_hybrid_mode *md, long n, dvc_di td, const dvc_li *x0,
                     long double hs)
{
    dvc_li F[NMAX], w = {0, hs};
    dvc_di tx[NMAX + 1];
    /* w = [0, hs]; Bx = X0 + w f(T, X0) */
    int bad = 0, ok = 0;
    tx[0] = td;
    for (long i = 0; i < n && !bad; i++) bad = !to_di(&tx[i + 1], x0[i]);
    bad = bad || field_di(F, md, n, tx);
    for (long i = 0; i < n && !bad; i++) bx[i] = dvc_li_add(x0[i], mul_nn(F[i], w));
    for (int it = 0; it < 20 && !bad && !ok; it++) {
        /* inflate by 0.1 (later 0.5) of the width plus 1e-14, rounded up */
        long double q = (long double)(it < 10 ? 0.1 : 0.5), a = (long double)1e-14;
        for (long i = 0; i < n && !bad; i++) {
            long double r = (bx[i].hi - bx[i].lo) * q + a;
            dvc_li e = {-r, r};
            bx[i] = dvc_li_add(bx[i], e);
            bad = !to_di(&tx[i + 1], bx[i]);
        }
        if (bad || (bad = field_di(F, md, n, tx)) != 0) break;
        ok = 1;
        for (long i = 0; i < n; i++) {
            dvc_li z = dvc_li_add(x0[i], mul_nn(F[i], w));
            if (!(bx[i].lo <= z.lo && z.hi <= bx[i].hi)) ok = 0; /* mpfi_is_inside */
            bx[i] = z;
        }
    }
    return bad || !ok;
}

int hyb_apriori_ld(dvc_ivec_t Bx, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t X0,
                   mpfr_srcptr hs)
{
    long n = X0->n;
    dvc_li x0[NMAX], bx[NMAX], t;
    dvc_di td;
    long double h;
    if (!field_ok(md, n) || !get(&t, T) || mpfr_sgn(hs) <= 0 || !mpfr_regular_p(hs) ||
        get_exact_ld(&h, hs) != 1)
        return 1;
    for (long i = 0; i < n; i++)
        if (!get(&x0[i], X0->e[i]) || mpfi_get_prec(Bx->e[i]) != 64) return 1;
    int saved = dvc_li_begin_();
    if (saved < 0) return 1;
    int bad = !to_di(&td, t) || apriori_w(bx, md, n, td, x0, h);
    bad |= dvc_li_end_(saved);
    for (long i = 0; i < n && !bad; i++) bad = !dvc_li_put_ok0_(bx[i]);
    if (bad) return 1;
    for (long i = 0; i < n; i++) dvc_li_put_(Bx->e[i], bx[i]);
    return 0;
}

void hyb_jac_passes_ld(dvc_li *j1, const dvc_li *d, dvc_li sh, dvc_li s, long n)
{
    dvc_li w[NMAX * NMAX];
    /* a zero entry of D adds [0, 0] to a finite sum, which leaves its value
     * (a zero endpoint's sign aside, which put normalises): skipped */
    unsigned char nz[NMAX * NMAX];
    for (long t = 0; t < n * n; t++) nz[t] = d[t].lo != 0 || d[t].hi != 0;
    for (int pass = 0; pass < 3; pass++) {
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) {
                dvc_li a = {0, 0};
                for (long k = 0; k < n; k++)
                    if (nz[i * n + k]) a = dvc_li_add(a, dvc_li_mul(d[i * n + k], j1[k * n + j]));
                w[i * n + j] = mul_nn(a, pass < 2 ? sh : s);
            }
        for (long t = 0; t < n * n; t++) {
            dvc_li one = {t % (n + 1) == 0, t % (n + 1) == 0};
            j1[t] = dvc_li_add(one, w[t]);
        }
    }
}

/* D = df/dx over tx (jac_f's dvc_expr_grad_x_, pass by pass; for f_i of
 * t, dvc_expr_grad's pass in t first, which must succeed as there) and its
 * infinity norm (abs_sum_norm: row sums of magnitudes rounded up, then
 * their maximum); FE_UPWARD. */
static int grad_norm(dvc_li *D, long double *nrm, const dvc_hybrid_mode *md, long n, const dvc_di *tx)
{
    dvc_di dvar[NMAX + 1], v, g;
    long double r = 0;
    for (long i = 0; i < n; i++) {
        long double s = 0;
        for (long j = md->f[i]->uses_t ? -1 : 0; j < n; j++) {
            for (long q = 0; q <= n; q++) dvar[q].lo = dvar[q].hi = q == j + 1;
            if (dvc_expr_fast_run_di_(md->f[i], tx, dvar, &v, &g)) return 1;
            if (j < 0) continue;
            D[i * n + j] = of_di(g);
            long double a = g.lo < 0 ? -(long double)g.lo : g.lo, b = g.hi < 0 ? -(long double)g.hi : g.hi;
            s = s + (a > b ? a : b);
        }
        r = r > s ? r : s;
    }
    *nrm = r;
    return 0;
}

/* *e <- exp(x) rounded up at 64 bits, x >= 0 (mpfr_exp: out of the x87
 * window; L a 64-bit scratch). */
static int exp_up(long double *e, long double x, mpfr_ptr L)
{
    set_exact_ld(L, x, 1);
    mpfr_exp(L, L, MPFR_RNDU);
    return get_exact_ld(e, L) == 1 && *e > 0;
}

int hyb_jacobian_ld(dvc_imat_t J, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t Y,
                    const mpfi_t S, mpfr_ptr L)
{
    long n = Y->n, nn = n * n;
    dvc_li d[NMAX * NMAX], j1[NMAX * NMAX], y, t, s, sh = {0, 0}, e;
    dvc_di tx[NMAX + 1];
    long double nrm = 0;
    if (!field_ok(md, n) || mpfr_get_prec(L) != 64 || !get(&t, T) || !get(&s, S) ||
        !mpfr_regular_p(&S->right) || mpfr_sgn(&S->right) <= 0)
        return 1;
    sh.hi = s.hi;
    for (long q = 0; q < nn; q++)
        if (mpfi_get_prec(J->e[q]) != 64) return 1;
    int saved = dvc_li_begin_(), bad = saved < 0;
    if (bad) return 1;
    bad = !to_di(&tx[0], t);
    for (long i = 0; i < n && !bad; i++) bad = !get(&y, Y->e[i]) || !to_di(&tx[i + 1], y);
    bad = bad || grad_norm(d, &nrm, md, n, tx);
    nrm = nrm * s.hi; /* mpfr_mul (L, L, s_max, RNDU) */
    bad |= dvc_li_end_(saved);
    /* the upper end of exp(L s_max): J1 = [-e, e] before the substitutions */
    if (bad || !exp_up(&e.hi, nrm, L)) return 1;
    e.lo = -e.hi;
    saved = dvc_li_begin_();
    if (saved < 0) return 1;
    for (long q = 0; q < nn; q++) j1[q] = e;
    hyb_jac_passes_ld(j1, d, sh, s, n);
    bad = dvc_li_end_(saved);
    for (long q = 0; q < nn && !bad; q++) bad = !dvc_li_put_ok0_(j1[q]);
    if (bad) return 1;
    for (long q = 0; q < nn; q++) dvc_li_put_(J->e[q], j1[q]);
    return 0;
}

void hyb_centre_w_ld(dvc_li *out, const dvc_li *cl, const dvc_li *rl, dvc_li s, int K, long n)
{
    dvc_li sk = {1, 1};
    for (int k = 0; k < K; k++) sk = mul_nn(sk, s); /* hyb_pow_ui */
    for (long i = 0; i < n; i++) {
        dvc_li acc = {0, 0};
        for (int k = K - 1; k >= 1; k--) acc = mul_nn(dvc_li_add(acc, cl[i * K + k]), s);
        out[i] = dvc_li_add(dvc_li_add(acc, cl[i * K]), mul_nn(rl[i], sk));
    }
}

/* r = A b (MPFI's loop: 0, then + a_ik b_k in turn), A n x n, b with stride q. */
static void mul_w(dvc_li *r, const dvc_li *A, const dvc_li *b, long n, long q)
{
    for (long i = 0; i < n; i++)
        for (long j = 0; j < q; j++) {
            dvc_li a = {0, 0};
            for (long k = 0; k < n; k++) a = dvc_li_add(a, dvc_li_mul(A[i * n + k], b[k * q + j]));
            r[i * q + j] = a;
        }
}

/* a <- a meet b (mpfi_intersect); nonzero when empty. */
static int meet(dvc_li *a, dvc_li b)
{
    if (b.lo > a->lo) a->lo = b.lo;
    if (b.hi < a->hi) a->hi = b.hi;
    return a->lo > a->hi;
}

/* The inputs of sub_jacobian as x87 intervals: 0 when all are exact. */
static int sub_inputs(dvc_li *bx, dvc_li *x0, dvc_li *cc, dvc_li *cl, dvc_li *rl, const dvc_ivec_t Bx,
                      const dvc_ivec_t X0, const dvc_ivec_t c, mpfi_t **cs, mpfi_t **rs, int K)
{
    for (long i = 0; i < X0->n; i++) {
        if (!get(&bx[i], Bx->e[i]) || !get(&x0[i], X0->e[i]) || !get(&cc[i], c->e[i]) ||
            !get(&rl[i], rs[i][K]))
            return 1;
        for (int k = 0; k < K; k++)
            if (!get(&cl[i * K + k], cs[i][k])) return 1;
    }
    return 0;
}

int hyb_sub_jacobian_ld(dvc_imat_t J, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t Bx,
                        const dvc_ivec_t X0, const dvc_ivec_t c, mpfi_t **cs, mpfi_t **rs,
                        const mpfi_t S, int K, int m, mpfr_ptr L)
{
    enum { KMAX = 32 };
    long n = X0->n, nn = n * n;
    dvc_li bx[NMAX], x0[NMAX], cc[NMAX], d[NMAX], xi[NMAX], bi[NMAX], xc[NMAX], rl[NMAX];
    dvc_li jm[NMAX * NMAX], ji[NMAX * NMAX], w[NMAX * NMAX], D[NMAX * NMAX], cl[NMAX * KMAX];
    dvc_li t, s, sh, e;
    dvc_di tx[NMAX + 1];
    long double nrm = 0;
    if (!field_ok(md, n) || K < 1 || K > KMAX || m < 1 || mpfr_get_prec(L) != 64 || !get(&t, T) ||
        !get(&s, S) || !(s.hi > 0) || sub_inputs(bx, x0, cc, cl, rl, Bx, X0, c, cs, rs, K))
        return 1;
    for (long q = 0; q < nn; q++)
        if (mpfi_get_prec(J->e[q]) != 64) return 1;
    int saved = dvc_li_begin_(), bad = saved < 0;
    if (bad) return 1;
    /* Sh = S/m, d = X0 - c, J = I, Xi = X0 */
    sh.lo = -((-s.lo) / (long double)m);
    sh.hi = s.hi / (long double)m;
    for (long k = 0; k < n; k++) {
        d[k].lo = dvc_ldn_add_(x0[k].lo, -cc[k].hi);
        d[k].hi = x0[k].hi - cc[k].lo;
        xi[k] = x0[k];
    }
    for (long q = 0; q < nn; q++) jm[q].lo = jm[q].hi = q % (n + 1) == 0;
    bad = !to_di(&tx[0], t);
    for (int i = 1; i <= m && !bad; i++) {
        if (i > 1) { /* Xi = (x(s_{i-1}; c) + J d) meet Bx, s_{i-1} = (i - 1) Sh */
            long double q = (long double)(i - 1);
            dvc_li si = {-((-sh.lo) * q), sh.hi * q};
            hyb_centre_w_ld(xc, cl, rl, si, K, n);
            mul_w(xi, jm, d, n, 1);
            for (long k = 0; k < n && !bad; k++) {
                xi[k] = dvc_li_add(xi[k], xc[k]);
                bad = meet(&xi[k], bx[k]);
            }
            if (bad) break;
        }
        bad = apriori_w(bi, md, n, tx[0], xi, sh.hi);
        for (long k = 0; k < n && !bad; k++) bad = meet(&bi[k], bx[k]) || !to_di(&tx[k + 1], bi[k]);
        bad = bad || grad_norm(D, &nrm, md, n, tx);
        if (bad) break;
        nrm = nrm * sh.hi;
        bad = dvc_li_end_(saved);
        saved = -1;
        if (bad || !exp_up(&e.hi, nrm, L) || (saved = dvc_li_begin_()) < 0) {
            bad = 1;
            break;
        }
        /* Ji (jacobian_core over Bi, Sh), then J = Ji J */
        e.lo = -e.hi;
        for (long q = 0; q < nn; q++) ji[q] = e;
        dvc_li sh0 = {0, sh.hi};
        hyb_jac_passes_ld(ji, D, sh0, sh, n);
        mul_w(w, ji, jm, n, n);
        memcpy(jm, w, (size_t)nn * sizeof *jm);
    }
    if (saved >= 0) bad |= dvc_li_end_(saved);
    for (long q = 0; q < nn && !bad; q++) bad = !dvc_li_put_ok0_(jm[q]);
    if (bad) return 1;
    for (long q = 0; q < nn; q++) dvc_li_put_(J->e[q], jm[q]);
    return 0;
}
