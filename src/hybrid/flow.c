/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Validated flow of a linear mode x' = A x + b(t) over s in S (docs/hybrid.md
 * sections 2-3): exp(A s) by its Taylor series with a rigorous tail, the
 * forcing term z(s) = int_0^s exp(A(s-u)) b(t0+u) du by its Taylor series in
 * s with a Lagrange remainder (the Lohner set x in P + B R: lohner.c). */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "hybrid/memo.h"
#include "hybrid/flow.h"
#include "hybrid/dae.h"
#include "hybrid/flow_bal.h"
#include "expr/internal.h"
#include "expr/taylor_ws.h"
#include "imat_fast.h"

/* rho <- [-r, r], r >= x^K / K! / (1 - x/(K+1)) (x = a s_max < K + 1): the
 * tail sum_{k>=K} (a s)^k / k! of the series of exp (c, y: scratch). */
static void expm_tail(mpfi_t rho, const mpfr_t x, int K, mpfi_t c, mpfr_t y)
{
    mpfi_set_fr(rho, x);
    hyb_pow_ui(rho, K);
    for (int k = 2; k <= K; k++) mpfi_div_ui(rho, rho, (unsigned long)k);
    mpfi_set_fr(c, x);
    mpfi_div_ui(c, c, (unsigned long)(K + 1));
    mpfi_ui_sub(c, 1, c);
    mpfi_div(rho, rho, c);
    mpfr_set(y, &rho->right, MPFR_RNDU);
    mpfi_interv_fr(rho, y, y);
    mpfi_neg(c, rho);
    mpfi_put(rho, c);
}

/* E encloses exp(A s) for every s in S = [s_lo, s_hi], 0 <= s_lo. Taylor
 * polynomial of order K-1 by Horner in intervals, plus the tail
 * sum_{k>=K} (|A| s)^k / k! <= (a s)^K / K! / (1 - a s/(K+1)) with
 * a = ||A||_inf, added to every entry (an entry is at most the norm). */
static dvc_status expm_series(dvc_imat_t E, const dvc_imat_t A, const hyb_bal_ws *w,
                              const mpfi_t S, int K)
{
    long n = A->r;
    mpfr_prec_t prec = dvc_imat_prec(E);
    dvc_status st = DVC_OK;
    mpfr_t a, x, y;
    mpfi_t c, rho;
    dvc_imat_t T1, T2;
    mpfr_inits2(prec, a, x, y, (mpfr_ptr)0);
    mpfi_init2(c, prec);
    mpfi_init2(rho, prec);
    dvc_imat_init2(T1, n, n, prec);
    dvc_imat_init2(T2, n, n, prec);
    dvc_imat_norm_inf(a, A);
    mpfr_mul(x, a, &S->right, MPFR_RNDU); /* a s_max, rounded up */
    mpfr_set_si(y, K + 1, MPFR_RNDN);
    if (mpfr_cmp(x, y) >= 0) {
        st = dvc_error(DVC_NOT_CERTIFIED, "exp(A s): ||A|| s = %g too large for order %d",
                       mpfr_get_d(x, MPFR_RNDU), K);
        goto out;
    }
    /* Horner: E = I + A S/1 (I + A S/2 (... (I + A S/(K-1)))); in the
     * x87 kernel on the mode's kept A (w: A is w->As) when it can */
    int done = w && hyb_expm_ld(E, w, S, K, c);
    if (!done) dvc_imat_one(E);
    for (int k = K - 1; k >= 1 && !done; k--) {
        mpfi_div_ui(c, S, (unsigned long)k);
        dvc_imat_scale(T1, c, A);
        dvc_imat_mul(T2, T1, E);
        dvc_imat_one(E);
        dvc_imat_add(E, E, T2);
    }
    expm_tail(rho, x, K, c, y);
    for (long i = 0; i < n * n; i++) mpfi_add(E->e[i], E->e[i], rho);
    if (!dvc_imat_is_finite(E)) st = dvc_error(DVC_NOT_CERTIFIED, "exp(A s) unbounded");
out:
    mpfr_clears(a, x, y, (mpfr_ptr)0);
    mpfi_clear(c);
    mpfi_clear(rho);
    dvc_imat_clear(T1);
    dvc_imat_clear(T2);
    return st;
}

dvc_status hyb_expm(dvc_imat_t E, const dvc_imat_t A, const mpfi_t S, int K)
{
    return expm_series(E, A, NULL, S, K);
}

/* x^k for an interval x >= 0 (used for the tails). */
void hyb_pow_ui(mpfi_t x, int k)
{
    mpfi_t b;
    mpfi_init2(b, mpfi_get_prec(x));
    mpfi_set(b, x);
    mpfi_set_ui(x, 1);
    for (int i = 0; i < k; i++) mpfi_mul(x, x, b);
    mpfi_clear(b);
}

void hyb_mode_norm(mpfr_t a, const dvc_hybrid_mode *md)
{
    long n = md->A->r;
    if (!md->balance || n == 0) {
        dvc_imat_norm_inf(a, md->A);
        return;
    }
    const hyb_bal_ws *w = hyb_bal_of(md, mpfr_get_prec(a));
    if (w) {
        mpfr_set(a, w->nAs, MPFR_RNDU);
        return;
    }
    long *e = malloc((size_t)n * sizeof *e);
    dvc_imat_t As;
    dvc_imat_init2(As, n, n, dvc_imat_prec(md->A));
    if (e) hyb_balanced(As, e, md);
    else dvc_imat_set(As, md->A);
    dvc_imat_norm_inf(a, As);
    dvc_imat_clear(As);
    free(e);
}

/* exp(A s) = D exp(Ã s) D^-1 with Ã = D^-1 A D: the series and its tail
 * are those of Ã (norm ||Ã||), the entries scaled back exactly. */
static dvc_status expm_md(dvc_imat_t E, const dvc_hybrid_mode *md, const mpfi_t S, int K)
{
    long n = md->A->r;
    if (!md->balance) return hyb_expm(E, md->A, S, K);
    const hyb_bal_ws *w = hyb_bal_of(md, dvc_imat_prec(E));
    if (w) {
        dvc_status st = expm_series(E, w->As, w, S, K);
        for (long i = 0; i < n && st == DVC_OK; i++)
            for (long j = 0; j < n; j++)
                mpfi_mul_2si(dvc_imat_entry(E, i, j), dvc_imat_entry(E, i, j), w->e[i] - w->e[j]);
        return st;
    }
    long *e = malloc((size_t)n * sizeof *e);
    if (!e) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_imat_t As;
    dvc_imat_init2(As, n, n, dvc_imat_prec(E));
    hyb_balanced(As, e, md);
    dvc_status st = hyb_expm(E, As, S, K);
    for (long i = 0; i < n && st == DVC_OK; i++)
        for (long j = 0; j < n; j++)
            mpfi_mul_2si(dvc_imat_entry(E, i, j), dvc_imat_entry(E, i, j), e[i] - e[j]);
    dvc_imat_clear(As);
    free(e);
    return st;
}

dvc_status hyb_expm_md(dvc_imat_t E, const dvc_hybrid_mode *md, const mpfi_t S, int K)
{
    dvc_status st;
    if (hyb_memo_expm_get(E, md, S, K)) return DVC_OK;
    st = expm_md(E, md, S, K);
    if (st == DVC_OK) hyb_memo_expm_put(md, E, S, K);
    return st;
}

/* The segment k of the table whose closed span [t_k, t_{k+1}] holds
 * [lo, hi] for every value of the enclosed sample times, or -1 (the
 * interval may meet a sample time's enclosure: a kink). */
static long tab_segment(const dvc_tabfun_struct *tab, const mpfr_t lo, const mpfr_t hi)
{
    long a = 0, b = tab->n - 2; /* the last k with t_k.hi <= lo */
    if (b < 0 || mpfr_cmp(&tab->t[0]->right, lo) > 0) return -1;
    while (a < b) {
        long k = (a + b + 1) / 2;
        if (mpfr_cmp(&tab->t[k]->right, lo) <= 0) a = k;
        else b = k - 1;
    }
    return mpfr_cmp(hi, &tab->t[a + 1]->left) <= 0 ? a : -1;
}

/* Taylor coefficients c_0..c_{K-1} of table basis function tab at t = T + s:
 * inside one segment v_k + slope_k (T - t_k), slope_k, 0...; over a kink
 * the range and the hull of the slopes met (the flow then takes the
 * first-order bound of hyb_forcing, and the series are used only for
 * mean-value enclosures of the Lipschitz functions phi', which hold with
 * the slopes met almost everywhere). */
static dvc_status tab_coeffs(mpfi_t *uk, const dvc_tabfun_struct *tab, const mpfi_t T, int K)
{
    long k = tab_segment(tab, &T->left, &T->right);
    dvc_status st = DVC_OK;
    for (int i = 1; i < K; i++) mpfi_set_ui(uk[i], 0);
    if (k >= 0) {
        mpfi_sub(uk[0], T, tab->t[k]);
        mpfi_mul(uk[0], uk[0], tab->slope[k]);
        mpfi_add(uk[0], uk[0], tab->v[k]);
        if (K > 1) mpfi_set(uk[1], tab->slope[k]);
        return DVC_OK;
    }
    st = dvc_tabfun_eval(uk[0], tab, T);
    if (st == DVC_OK && K > 1) st = dvc_tabfun_deriv(uk[1], tab, T);
    return st;
}

/* 1 when [t0, t0 + smax] may meet a sample time of a table of the mode. */
static int tab_kink(const dvc_hybrid_mode *md, const mpfr_t t0, const mpfr_t smax, mpfr_prec_t prec)
{
    if (!md->bu || !md->utab) return 0;
    int kink = 0;
    mpfr_t hi;
    mpfr_init2(hi, prec);
    mpfr_add(hi, t0, smax, MPFR_RNDU);
    for (long j = 0; j < md->nu && !kink; j++)
        kink = md->utab[j] && tab_segment(md->utab[j], t0, hi) < 0;
    mpfr_clear(hi);
    return kink;
}

/* Value of basis function j over T. */
static dvc_status basis_eval(mpfi_t v, const dvc_hybrid_mode *md, long j, const mpfi_t T)
{
    if (!md->utab || !md->utab[j]) return dvc_expr_eval(v, &md->u[j], T);
    mpfi_t c[1];
    mpfi_init2(c[0], mpfi_get_prec(v));
    dvc_status st = tab_coeffs(c, md->utab[j], T, 1);
    mpfi_set(v, c[0]);
    mpfi_clear(c[0]);
    return st;
}

/* An affine mode, b = Bu [1; u(t)]: the coefficients of each basis function
 * once, then b_k = Bu[., 0] [k = 0] + Bu[., 1..] u_k. */
static dvc_status affine_coeffs(mpfi_t **bk, const dvc_hybrid_mode *md, long n, mpfi_t **vars,
                                int K, mpfr_prec_t prec)
{
    long nu = md->nu;
    dvc_status st = DVC_OK;
    mpfi_t *uk = malloc((size_t)(nu * K + 1) * sizeof *uk), tmp;
    if (!uk) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    mpfi_init2(tmp, prec);
    for (long j = 0; j < nu * K; j++) mpfi_init2(uk[j], prec);
    for (long j = 0; j < nu && st == DVC_OK; j++) {
        if (md->utab && md->utab[j]) st = tab_coeffs(uk + j * K, md->utab[j], vars[0][0], K);
        else st = dvc_expr_taylor_(uk + j * K, &md->u[j], vars, K - 1);
        if (st != DVC_OK) st = dvc_error_context(st, "forcing basis u[%ld]: ", j);
    }
    for (long i = 0; i < n && st == DVC_OK; i++)
        for (int k = 0; k < K; k++) {
            if (k == 0) mpfi_set(bk[i][0], dvc_imat_entry(md->bu, i, 0));
            else mpfi_set_ui(bk[i][k], 0);
            for (long j = 0; j < nu; j++) {
                mpfi_mul(tmp, dvc_imat_entry(md->bu, i, j + 1), uk[j * K + k]);
                mpfi_add(bk[i][k], bk[i][k], tmp);
            }
        }
    for (long j = 0; j < nu * K; j++) mpfi_clear(uk[j]);
    mpfi_clear(tmp);
    free(uk);
    return st;
}

/* Taylor coefficients b_0..b_{K-1} of b at t = T (series t = T + s). */
static dvc_status forcing_coeffs(mpfi_t **bk, const dvc_hybrid_mode *md, long n, const mpfi_t T,
                                 int K, mpfr_prec_t prec)
{
    mpfi_t *ts = malloc((size_t)K * sizeof *ts);
    if (!ts) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (int k = 0; k < K; k++) {
        mpfi_init2(ts[k], prec);
        mpfi_set_ui(ts[k], 0);
    }
    mpfi_set(ts[0], T);
    if (K > 1) mpfi_set_ui(ts[1], 1);
    mpfi_t *vars[1] = {ts};
    dvc_status st = DVC_OK;
    if (md->bu) {
        st = affine_coeffs(bk, md, n, vars, K, prec);
        n = 0;
    }
    for (long i = 0; i < n && st == DVC_OK; i++) {
        st = dvc_expr_taylor_(bk[i], md->b[i], vars, K - 1);
        if (st != DVC_OK) st = dvc_error_context(st, "forcing b[%ld]: ", i);
    }
    for (int k = 0; k < K; k++) mpfi_clear(ts[k]);
    free(ts);
    return st;
}

static mpfi_t **coeffs_new(long n, int K, mpfr_prec_t prec)
{
    mpfi_t **c = malloc((size_t)n * sizeof *c);
    for (long i = 0; i < n; i++) {
        c[i] = malloc((size_t)(K + 1) * sizeof **c);
        for (int k = 0; k <= K; k++) mpfi_init2(c[i][k], prec);
    }
    return c;
}

static void coeffs_free(mpfi_t **c, long n, int K)
{
    for (long i = 0; i < n; i++) {
        for (int k = 0; k <= K; k++) mpfi_clear(c[i][k]);
        free(c[i]);
    }
    free(c);
}

/* z_{k+1} = (A z_k + b_k)/(k+1), k = 0..K-1, from z_0 given; over the
 * nonzero entries of A when w gives them (the same sums). */
static void forcing_recursion(mpfi_t **z, mpfi_t **bk, const dvc_imat_t A, long n, int K,
                              mpfi_t tmp, const hyb_bal_ws *w)
{
    int k0;
    hyb_recursion_ld(z, bk, n, K, w, &k0);
    for (int k = k0; k < K; k++)
        for (long i = 0; i < n; i++) {
            mpfi_set(z[i][k + 1], bk[i][k]);
            long a = w ? w->nzr[i] : 0, b = w ? w->nzr[i + 1] : n;
            for (long q = a; q < b; q++) {
                long j = w ? w->nzj[q] : q;
                mpfi_mul(tmp, dvc_imat_entry(A, i, j), z[j][k]);
                mpfi_add(z[i][k + 1], z[i][k + 1], tmp);
            }
            mpfi_div_ui(z[i][k + 1], z[i][k + 1], (unsigned long)(k + 1));
        }
}

/* rho >= s_max e^{a s_max} max_j |b_j| 2^-e_j (e NULL: 0), a >= ||D^-1 A D||
 * for D = diag(2^e) (bk[j][0] the range of b over the step). */
static void forcing_rho1(mpfr_t rho, mpfi_t **bk, const mpfr_t a, const long *e, long n,
                         const mpfi_t S)
{
    mpfr_t b;
    mpfi_t tmp;
    mpfr_init2(b, mpfr_get_prec(rho));
    mpfi_init2(tmp, mpfr_get_prec(rho));
    mpfr_set_ui(rho, 0, MPFR_RNDU);
    for (long i = 0; i < n; i++) {
        dvc_ival_mag(b, bk[i][0]);
        if (e) mpfr_mul_2si(b, b, -e[i], MPFR_RNDU);
        mpfr_max(rho, rho, b, MPFR_RNDU);
    }
    mpfi_set_fr(tmp, a);
    mpfi_mul_fr(tmp, tmp, &S->right);
    mpfi_exp(tmp, tmp);
    mpfi_mul_fr(tmp, tmp, &S->right);
    mpfi_mul_fr(tmp, tmp, rho);
    mpfr_set(rho, &tmp->right, MPFR_RNDU);
    mpfr_clear(b);
    mpfi_clear(tmp);
}

/* z[i] = [-rho_i, rho_i] with |z_i(s)| <= rho_i for s in [0, s_max], for
 * any bounded b: ||D^-1 exp(A u) D|| <= e^{||D^-1 A D|| u} for every
 * diagonal D, so rho_i = d_i s_max e^{||D^-1 A D|| s_max} max_j |b_j| / d_j;
 * D = I, and for a balanced mode also its balancing (the smaller bound). */
static void forcing_rho(dvc_ivec_t z, mpfi_t **bk, const dvc_hybrid_mode *md, long n, const mpfi_t S)
{
    mpfr_prec_t prec = dvc_ivec_prec(z);
    mpfr_t a, rho, rb;
    mpfi_t tmp;
    mpfr_inits2(prec, a, rho, rb, (mpfr_ptr)0);
    mpfi_init2(tmp, prec);
    const hyb_bal_ws *w = hyb_bal_of(md, prec);
    if (w) mpfr_set(a, w->nA, MPFR_RNDU);
    else dvc_imat_norm_inf(a, md->A);
    forcing_rho1(rho, bk, a, NULL, n, S);
    long *e = md->balance ? malloc((size_t)n * sizeof *e) : NULL;
    if (e) {
        if (w) memcpy(e, w->e, (size_t)n * sizeof *e);
        else hyb_balance_exps(e, md->A);
        hyb_mode_norm(a, md);
        forcing_rho1(rb, bk, a, e, n, S);
    }
    for (long i = 0; i < n; i++) {
        mpfr_set(a, rho, MPFR_RNDU);
        if (e) {
            mpfr_mul_2si(rb, rb, e[i], MPFR_RNDU);
            mpfr_min(a, a, rb, MPFR_RNDU);
            mpfr_mul_2si(rb, rb, -e[i], MPFR_RNDU);
        }
        mpfi_interv_fr(z->e[i], a, a);
        mpfi_neg(tmp, z->e[i]);
        mpfi_put(z->e[i], tmp);
    }
    free(e);
    mpfr_clears(a, rho, rb, (mpfr_ptr)0);
    mpfi_clear(tmp);
}

/* A step over a table's kink (the window of a sample time): b is only
 * bounded there, z(s) in [-rho, rho] (docs/events.md section 4). */
static dvc_status forcing_window(dvc_ivec_t z, const dvc_hybrid_mode *md, const mpfr_t t0,
                                 const mpfi_t S)
{
    long n = z->n;
    mpfr_prec_t prec = dvc_ivec_prec(z);
    mpfi_t T, tmp;
    mpfi_init2(T, prec);
    mpfi_init2(tmp, prec);
    mpfi_t **bk = coeffs_new(n, 1, prec);
    mpfi_set_fr(T, t0);
    mpfi_set_fr(tmp, &S->right);
    mpfi_add(tmp, T, tmp);
    mpfi_put_fr(T, &tmp->right);
    dvc_status st = forcing_coeffs(bk, md, n, T, 1, prec);
    if (st == DVC_OK) {
        forcing_rho(z, bk, md, n, S);
        if (!dvc_ivec_is_finite(z)) st = dvc_error(DVC_NOT_CERTIFIED, "forcing term unbounded");
    }
    coeffs_free(bk, n, 1);
    mpfi_clear(T);
    mpfi_clear(tmp);
    return st;
}

dvc_status hyb_forcing(dvc_ivec_t z, const dvc_hybrid_mode *md, const mpfr_t t0, const mpfi_t S,
                       int K)
{
    if (tab_kink(md, t0, &S->right, dvc_ivec_prec(z))) return forcing_window(z, md, t0, S);
    long n = z->n;
    if (!md->b && !md->bu) {
        dvc_ivec_zero(z);
        return DVC_OK;
    }
    mpfr_prec_t prec = dvc_ivec_prec(z);
    dvc_status st = DVC_OK; /* both memo hits compute nothing that can fail */
    mpfi_t T, tmp, acc;
    mpfi_init2(T, prec);
    mpfi_init2(tmp, prec);
    mpfi_init2(acc, prec);
    /* the coefficient rows: the mode's scratch (made once for the run) */
    mpfi_t **bk = hyb_memo_scratch(md, 0, n, K, prec), **zc = hyb_memo_scratch(md, 1, n, K, prec), **zm;
    int own = !bk || !zc;
    if (own) {
        bk = coeffs_new(n, K, prec);
        zc = coeffs_new(n, K, prec);
    }
    mpfi_t *rem;
    /* coefficients at the point t0 (once per t0: the Newton iterates of a
     * crossing share it) */
    if ((zm = hyb_memo_forcing_get(md, t0, K, n, prec)) != NULL) {
        for (long i = 0; i < n; i++)
            for (int k = 0; k < K; k++) mpfi_set(zc[i][k], zm[i][k]);
    } else {
        mpfi_set_fr(T, t0);
        st = forcing_coeffs(bk, md, n, T, K, prec);
        if (st != DVC_OK) goto out;
        for (long i = 0; i < n; i++) mpfi_set_ui(zc[i][0], 0);
        forcing_recursion(zc, bk, md->A, n, K - 1, tmp, hyb_bal_of(md, prec));
        hyb_memo_forcing_put(md, zc, t0, K, n, prec);
    }
    /* polynomial part sum_{k=1}^{K-1} z_k S^k (Horner) */
    for (long i = 0; i < n; i++) {
        mpfi_set_ui(acc, 0);
        for (int k = K - 1; k >= 1; k--) {
            mpfi_add(acc, acc, zc[i][k]);
            mpfi_mul(acc, acc, S);
        }
        mpfi_set(z->e[i], acc);
    }
    /* remainder z_K(xi) s^K, xi in [0, s_max]: from the a-priori bound
     * |z(xi)| <= s_max e^{||A|| s_max} sup |b| (forcing_rho) and the coefficients of b
     * over [t0, t0 + s_max] */
    if (!(rem = hyb_memo_rem_get(md, t0, &S->right, K, n, prec))) { /* once per [t0, t0 + s_max] */
        mpfi_set_fr(T, t0);
        mpfi_set_fr(tmp, &S->right);
        mpfi_add(tmp, T, tmp);
        mpfi_put_fr(T, &tmp->right);
        st = forcing_coeffs(bk, md, n, T, K, prec);
        if (st != DVC_OK) goto out;
        dvc_ivec_t zr;
        dvc_ivec_init2(zr, n, prec);
        forcing_rho(zr, bk, md, n, S);
        for (long i = 0; i < n; i++) mpfi_set(zc[i][0], zr->e[i]);
        dvc_ivec_clear(zr);
        forcing_recursion(zc, bk, md->A, n, K, tmp, hyb_bal_of(md, prec));
        hyb_memo_rem_put(md, zc, t0, &S->right, K, n, prec);
    }
    mpfi_set(acc, S);
    hyb_pow_ui(acc, K);
    for (long i = 0; i < n; i++) {
        mpfi_mul(tmp, rem ? rem[i] : zc[i][K], acc);
        mpfi_add(z->e[i], z->e[i], tmp);
    }
    if (!dvc_ivec_is_finite(z)) st = dvc_error(DVC_NOT_CERTIFIED, "forcing term unbounded");
out:
    if (own) {
        coeffs_free(bk, n, K);
        coeffs_free(zc, n, K);
    }
    mpfi_clear(T);
    mpfi_clear(tmp);
    mpfi_clear(acc);
    return st;
}

dvc_status hyb_field(dvc_ivec_t F, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t X)
{
    long n = X->n;
    if (md->linear) {
        dvc_imat_mul_vec(F, md->A, X);
        if (md->bu) {
            mpfi_t v, w;
            mpfi_init2(v, dvc_ivec_prec(F));
            mpfi_init2(w, dvc_ivec_prec(F));
            dvc_status st = DVC_OK;
            for (long i = 0; i < n; i++) mpfi_add(F->e[i], F->e[i], dvc_imat_entry(md->bu, i, 0));
            for (long j = 0; j < md->nu && st == DVC_OK; j++) {
                st = basis_eval(v, md, j, T);
                for (long i = 0; i < n && st == DVC_OK; i++) {
                    mpfi_mul(w, dvc_imat_entry(md->bu, i, j + 1), v);
                    mpfi_add(F->e[i], F->e[i], w);
                }
            }
            mpfi_clear(v);
            mpfi_clear(w);
            return st;
        }
        if (md->b) {
            mpfi_t v;
            mpfi_init2(v, dvc_ivec_prec(F));
            for (long i = 0; i < n; i++) {
                dvc_status st = dvc_expr_eval(v, md->b[i], T);
                if (st != DVC_OK) {
                    mpfi_clear(v);
                    return st;
                }
                mpfi_add(F->e[i], F->e[i], v);
            }
            mpfi_clear(v);
        }
        return DVC_OK;
    }
    for (long i = 0; i < n; i++) {
        dvc_status st = dvc_expr_eval_x(F->e[i], md->f[i], T, X);
        if (st != DVC_OK) return hyb_dae_explain(st, md, T, X);
    }
    return DVC_OK;
}

dvc_status dvc_hybrid_field(dvc_ivec_t F, const dvc_hybrid_model_t m, long mode, const mpfi_t T,
                            const dvc_ivec_t X)
{
    if (mode < 0 || mode >= m->nmodes || F->n != m->n || X->n != m->n)
        return dvc_error(DVC_ERR_INPUT, "field of mode %ld: no such mode, or bad sizes", mode);
    return hyb_field(F, &m->modes[mode], T, X);
}

/* exp(A s) applied to the box X0 = P + B R of L, s in S, for a balanced
 * mode: in the coordinates x~ = D^-1 x the Taylor polynomial by Horner on
 * vectors (K matrix-vector products instead of K matrix products), and the
 * tail: the remainder matrix of exp(A~ s) has norm <= rho (expm_tail with
 * ||A~|| s_max), so it adds [-rho, rho] max_j |x~_j| to every component. */
static dvc_status expm_box(dvc_ivec_t X, const dvc_hybrid_mode *md, const hyb_set *L,
                           const mpfi_t S, int K)
{
    long n = X->n;
    mpfr_prec_t prec = dvc_ivec_prec(X);
    /* the mode's kept balancing, else made here */
    const hyb_bal_ws *w = hyb_bal_of(md, prec);
    long *e = w ? w->e : malloc((size_t)n * sizeof *e);
    if (!e) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_status st = DVC_OK;
    dvc_imat_t Aw;
    const dvc_imat_struct *As = w ? w->As : Aw;
    dvc_ivec_t X0, T;
    mpfr_t a, x, y;
    mpfi_t c, rho;
    if (!w) dvc_imat_init2(Aw, n, n, prec);
    dvc_ivec_init2(X0, n, prec);
    dvc_ivec_init2(T, n, prec);
    mpfr_inits2(prec, a, x, y, (mpfr_ptr)0);
    mpfi_init2(c, prec);
    mpfi_init2(rho, prec);
    if (w) {
        mpfr_set(a, w->nAs, MPFR_RNDU);
    } else {
        hyb_balanced(Aw, e, md);
        dvc_imat_norm_inf(a, Aw);
    }
    mpfr_mul(x, a, &S->right, MPFR_RNDU);
    mpfr_set_si(y, K + 1, MPFR_RNDN);
    if (mpfr_cmp(x, y) >= 0) {
        st = dvc_error(DVC_NOT_CERTIFIED, "exp(A s): ||A|| s = %g too large for order %d",
                       mpfr_get_d(x, MPFR_RNDU), K);
        goto out;
    }
    hyb_set_box(X0, L);
    for (long i = 0; i < n; i++) mpfi_mul_2si(X0->e[i], X0->e[i], -e[i]);
    dvc_ivec_set(X, X0); /* Horner: X0 + A~ S/1 (X0 + A~ S/2 (... (X0 + A~ S/(K-1) X0))) */
    int done = w && hyb_horner_ld(X, X0, w, S, K, c);
    for (int k = K - 1; k >= 1 && !done; k--) {
        dvc_imat_mul_vec(T, As, X);
        mpfi_div_ui(c, S, (unsigned long)k);
        for (long i = 0; i < n; i++) {
            mpfi_mul(T->e[i], T->e[i], c);
            mpfi_add(X->e[i], X0->e[i], T->e[i]);
        }
    }
    expm_tail(rho, x, K, c, y);
    mpfr_set_ui(a, 0, MPFR_RNDU);
    for (long i = 0; i < n; i++) {
        dvc_ival_mag(y, X0->e[i]);
        mpfr_max(a, a, y, MPFR_RNDU);
    }
    mpfi_mul_fr(rho, rho, a);
    for (long i = 0; i < n; i++) {
        mpfi_add(X->e[i], X->e[i], rho);
        mpfi_mul_2si(X->e[i], X->e[i], e[i]);
    }
    if (!dvc_ivec_is_finite(X)) st = dvc_error(DVC_NOT_CERTIFIED, "exp(A s) unbounded");
out:
    if (!w) {
        free(e);
        dvc_imat_clear(Aw);
    }
    dvc_ivec_clear(X0);
    dvc_ivec_clear(T);
    mpfr_clears(a, x, y, (mpfr_ptr)0);
    mpfi_clear(c);
    mpfi_clear(rho);
    return st;
}

dvc_status hyb_flow_over_box(dvc_ivec_t X, const dvc_hybrid_mode *md, const hyb_set *L,
                             const mpfr_t t0, const mpfi_t S, int K)
{
    if (!md->linear || !md->balance) return hyb_flow_over(X, md, L, t0, S, K);
    dvc_ivec_t z;
    dvc_ivec_init2(z, X->n, dvc_ivec_prec(X));
    dvc_status st = expm_box(X, md, L, S, K);
    if (st == DVC_OK) st = hyb_forcing(z, md, t0, S, K);
    if (st == DVC_OK) dvc_ivec_add(X, X, z);
    dvc_ivec_clear(z);
    return st;
}

/* hyb_flow_over's matrices and vectors, kept in the mode's memo for the run
 * (two n x n interval matrices per call were ~10 % of the events route at
 * n = 32): every member is written before it is read. */
typedef struct {
    long n;
    mpfr_prec_t prec;
    dvc_imat_t E, EB;
    dvc_ivec_t a, b;
} flow_ws;

static void flow_ws_free(void *p)
{
    flow_ws *w = p;
    if (!w) return;
    dvc_imat_clear(w->E);
    dvc_imat_clear(w->EB);
    dvc_ivec_clear(w->a);
    dvc_ivec_clear(w->b);
    free(w);
}

/* The mode's scratch for n, prec; *own: the caller frees it. */
static flow_ws *flow_ws_of(const dvc_hybrid_mode *md, long n, mpfr_prec_t prec, int *own)
{
    flow_ws *w = hyb_memo_ws_get(md, HYB_WS_FLOW);
    *own = 0;
    if (w && w->n == n && w->prec == prec) return w;
    w = malloc(sizeof *w);
    if (!w) return NULL;
    w->n = n;
    w->prec = prec;
    dvc_imat_init2(w->E, n, n, prec);
    dvc_imat_init2(w->EB, n, n, prec);
    dvc_ivec_init2(w->a, n, prec);
    dvc_ivec_init2(w->b, n, prec);
    if (!hyb_memo_ws_put(md, HYB_WS_FLOW, w, flow_ws_free)) *own = 1;
    return w;
}

dvc_status hyb_flow_over(dvc_ivec_t X, const dvc_hybrid_mode *md, const hyb_set *L,
                         const mpfr_t t0, const mpfi_t S, int K)
{
    if (!md->linear) return hyb_field_flow(X, NULL, md, L, t0, S, K);
    long n = X->n;
    mpfr_prec_t prec = dvc_ivec_prec(X);
    int own;
    flow_ws *w = flow_ws_of(md, n, prec, &own);
    if (!w) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_imat_struct *E = w->E, *EB = w->EB;
    dvc_ivec_struct *a = w->a, *b = w->b;
    dvc_status st = hyb_expm_md(E, md, S, K);
    if (st == DVC_OK) st = hyb_forcing(b, md, t0, S, K);
    if (st == DVC_OK) {
        dvc_imat_mul(EB, E, L->B);
        dvc_imat_mul_vec(a, EB, L->R);
        dvc_imat_mul_vec(X, E, L->P);
        dvc_ivec_add(X, X, a);
        dvc_ivec_add(X, X, b);
    }
    if (own) flow_ws_free(w);
    return st;
}

dvc_status hyb_advance(hyb_set *L, const dvc_hybrid_mode *md, const mpfr_t t0, const mpfi_t S,
                       int K)
{
    if (!md->linear) return hyb_field_flow(NULL, L, md, L, t0, S, K);
    long n = L->P->n;
    mpfr_prec_t prec = dvc_ivec_prec(L->P);
    dvc_imat_t E;
    dvc_ivec_t z;
    dvc_imat_init2(E, n, n, prec);
    dvc_ivec_init2(z, n, prec);
    dvc_status st = hyb_expm_md(E, md, S, K);
    if (st == DVC_OK) st = hyb_forcing(z, md, t0, S, K);
    L->bal = md->balance && L->bexp; /* the frame in the mode's balanced coordinates */
    if (L->bal) {
        const hyb_bal_ws *w = hyb_bal_of(md, prec);
        if (w) memcpy(L->bexp, w->e, (size_t)n * sizeof *L->bexp);
        else hyb_balance_exps(L->bexp, md->A);
    }
    if (st == DVC_OK) st = hyb_set_map(L, E, z);
    dvc_imat_clear(E);
    dvc_ivec_clear(z);
    return st;
}

/* hyb_state_series' scratch, kept in the mode's memo for the run: every
 * member is written before it is read. */
typedef struct {
    long n;
    int K;
    mpfr_prec_t prec;
    mpfi_t tmp;
    mpfi_t *ts, *fs;
    mpfi_t **vars;
} series_ws;

static void series_ws_free(void *p)
{
    series_ws *w = p;
    if (!w) return;
    for (int k = 0; k <= w->K; k++) {
        mpfi_clear(w->ts[k]);
        mpfi_clear(w->fs[k]);
    }
    mpfi_clear(w->tmp);
    free(w->ts);
    free(w->fs);
    free(w->vars);
    free(w);
}

/* The mode's scratch for n, K, prec; *own: the caller frees it. */
static series_ws *series_ws_of(const dvc_hybrid_mode *md, long n, int K, mpfr_prec_t prec, int *own)
{
    series_ws *w = hyb_memo_ws_get(md, HYB_WS_SERIES);
    *own = 0;
    if (w && w->n == n && w->K == K && w->prec == prec) return w;
    w = malloc(sizeof *w);
    if (!w) return NULL;
    w->ts = malloc((size_t)(K + 1) * sizeof *w->ts);
    w->fs = malloc((size_t)(K + 1) * sizeof *w->fs);
    w->vars = malloc((size_t)(n + 1) * sizeof *w->vars);
    if (!w->ts || !w->fs || !w->vars) {
        free(w->ts);
        free(w->fs);
        free(w->vars);
        free(w);
        return NULL;
    }
    w->n = n;
    w->K = K;
    w->prec = prec;
    mpfi_init2(w->tmp, prec);
    for (int k = 0; k <= K; k++) {
        mpfi_init2(w->ts[k], prec);
        mpfi_init2(w->fs[k], prec);
    }
    if (!hyb_memo_ws_put(md, HYB_WS_SERIES, w, series_ws_free)) *own = 1;
    return w;
}

dvc_status hyb_state_series(mpfi_t **xs, const dvc_hybrid_mode *md, const mpfi_t T,
                            const dvc_ivec_t X, int K)
{
    long n = X->n;
    mpfr_prec_t prec = dvc_ivec_prec(X);
    dvc_status st = DVC_OK;
    int own;
    series_ws *w = series_ws_of(md, n, K, prec, &own);
    if (!w) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    mpfi_ptr tmp = w->tmp;
    mpfi_t *ts = w->ts, *fs = w->fs, **vars = w->vars;
    for (int k = 0; k <= K; k++) mpfi_set_ui(ts[k], 0);
    mpfi_set(ts[0], T);
    if (K >= 1) mpfi_set_ui(ts[1], 1);
    vars[0] = ts;
    for (long i = 0; i < n; i++) {
        vars[i + 1] = xs[i];
        mpfi_set(xs[i][0], X->e[i]);
    }
    mpfi_t **bk = NULL;
    if (md->linear && (md->b || md->bu) && K >= 1) {
        bk = coeffs_new(n, K, prec);
        st = forcing_coeffs(bk, md, n, T, K, prec);
    }
    /* a field's series one coefficient at a time: coefficient k of f_i
     * needs x up to order k only (dvc_expr_taylor_next_) */
    for (long i = 0; i < n && st == DVC_OK && !md->linear && K >= 1; i++)
        st = dvc_expr_taylor_begin_(md->f[i], K - 1);
    /* all of it at once on the binary64 route when it can (taylor_dd.c) */
    int done = st == DVC_OK && !md->linear && dvc_expr_taylor_dd_state_(vars, md->f, n, K) == 0;
    for (long i = 0; i < n && !done; i++) /* else written by the kernel */
        for (int k = 1; k <= K; k++) mpfi_set_ui(xs[i][k], 0);
    for (int k = 0; k < K && st == DVC_OK && !done; k++) {
        for (long i = 0; i < n && st == DVC_OK; i++) {
            if (md->linear) {
                if (bk) mpfi_set(fs[k], bk[i][k]);
                else mpfi_set_ui(fs[k], 0);
                for (long j = 0; j < n; j++) {
                    mpfi_mul(tmp, dvc_imat_entry(md->A, i, j), xs[j][k]);
                    mpfi_add(fs[k], fs[k], tmp);
                }
            } else {
                st = dvc_expr_taylor_next_(fs[k], md->f[i], vars, k);
            }
            if (st == DVC_OK) mpfi_div_ui(xs[i][k + 1], fs[k], (unsigned long)(k + 1));
        }
    }
    if (bk) coeffs_free(bk, n, K);
    if (own) series_ws_free(w);
    return hyb_dae_explain(st, md, T, X);
}
