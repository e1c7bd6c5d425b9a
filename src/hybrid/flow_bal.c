/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A linear mode's balancing kept for the run, and the linear flow's loops
 * in the x87 kernel (flow_bal.h; moved from flow.c, whose MPFI loops give
 * the same bits: imat_fast.c's kernel is MPFI's loop, product by product
 * and sum by sum, signed zeros included). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/flow_bal.h"
#include "hybrid/memo.h"
#include "imat_fast.h"

/* Diagonal balancing of a linear mode (docs/hybrid.md section 3,
 * "Balanced series"): exponents e with D = diag(2^e) so that the row and
 * column sums of |mid A| off the diagonal are within a factor 4 of each
 * other in D^-1 A D (Osborne's iteration, radix 2). The scaling is exact,
 * so every bound below holds for any D; D only makes them tight. A
 * second-order system x = (q, v) with stiffness k gets v scaled by about
 * sqrt(k): ||D^-1 A D|| ~ sqrt(k) instead of k. */
void hyb_balance_exps(long *e, const dvc_imat_t A)
{
    long n = A->r;
    double *a = malloc((size_t)(n * n) * sizeof *a);
    for (long i = 0; i < n; i++) e[i] = 0;
    if (!a) return;
    dvc_imat_mid_d(a, A);
    for (long i = 0; i < n * n; i++) a[i] = fabs(a[i]);
    for (int it = 0, changed = 1; it < 40 && changed; it++) {
        changed = 0;
        for (long i = 0; i < n; i++) {
            double r = 0, c = 0;
            for (long j = 0; j < n; j++)
                if (j != i) {
                    r += a[i * n + j] * ldexp(1, (int)(e[j] - e[i]));
                    c += a[j * n + i] * ldexp(1, (int)(e[i] - e[j]));
                }
            if (!(r > 0 && c > 0)) continue;
            long f = 0; /* d_i *= 2^f: r -> r 2^-f, c -> c 2^f */
            while (c * ldexp(1, (int)(2 * f)) < r / 4 && e[i] + f < 60) f++;
            while (c * ldexp(1, (int)(2 * f)) > r * 4 && e[i] + f > -60) f--;
            if (f) {
                e[i] += f;
                changed = 1;
            }
        }
    }
    free(a);
}

/* As = D^-1 A D (exact), with the exponents of the mode's balancing. */
void hyb_balanced(dvc_imat_t As, long *e, const dvc_hybrid_mode *md)
{
    long n = md->A->r;
    hyb_balance_exps(e, md->A);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
            mpfi_mul_2si(dvc_imat_entry(As, i, j), dvc_imat_entry(md->A, i, j), e[j] - e[i]);
}


static void hyb_bal_ws_free(void *p)
{
    hyb_bal_ws *w = p;
    if (!w) return;
    dvc_imat_clear(w->As);
    mpfr_clears(w->nA, w->nAs, (mpfr_ptr)0);
    free(w->e);
    free(w->nzr);
    free(w->nzj);
    free(w->sl);
    free(w);
}

/* md's kept balancing at prec, made on first use; NULL when prec is not
 * A's or memory is short (the caller then computes as before). */
const hyb_bal_ws *hyb_bal_of(const dvc_hybrid_mode *md, mpfr_prec_t prec)
{
    hyb_bal_ws *w = hyb_memo_ws_get(md, HYB_WS_BAL);
    long n = md->A->r;
    if (w && w->n == n && w->prec == prec) return w;
    if (n == 0 || dvc_imat_prec(md->A) > prec) return NULL;
    w = malloc(sizeof *w);
    if (!w) return NULL;
    w->n = n;
    w->prec = prec;
    w->e = malloc((size_t)n * sizeof *w->e);
    w->nzr = malloc((size_t)(n + 1) * sizeof *w->nzr);
    w->nzj = malloc((size_t)(n * n) * sizeof *w->nzj);
    w->sl = prec == 64 && dvc_fast_ld_ok_() ? malloc((size_t)(4 * n * n) * sizeof *w->sl) : NULL;
    w->sh = w->sl ? w->sl + n * n : NULL;
    w->al = w->sl ? w->sh + n * n : NULL;
    w->ah = w->sl ? w->al + n * n : NULL;
    dvc_imat_init2(w->As, n, n, prec);
    mpfr_inits2(prec, w->nA, w->nAs, (mpfr_ptr)0);
    if (!w->e || !w->nzr || !w->nzj) {
        hyb_bal_ws_free(w);
        return NULL;
    }
    hyb_balanced(w->As, w->e, md);
    dvc_imat_norm_inf(w->nA, md->A);
    dvc_imat_norm_inf(w->nAs, w->As);
    long k = 0;
    for (long i = 0; i < n; i++) {
        w->nzr[i] = k;
        for (long j = 0; j < n; j++)
            if (!mpfi_is_zero(dvc_imat_entry(md->A, i, j))) w->nzj[k++] = j;
    }
    w->nzr[n] = k;
    int ok = w->sl != NULL;
    for (long i = 0; ok && i < n; i++)
        for (long t = w->nzr[i]; ok && t < w->nzr[i + 1]; t++) {
            long j = w->nzj[t];
            ok = dvc_fast_load_ld_(&w->sl[t], &w->sh[t], &w->As->e[i * n + j], 1) &&
                 dvc_fast_load_ld_(&w->al[t], &w->ah[t], &md->A->e[i * n + j], 1);
        }
    if (!ok) {
        free(w->sl);
        w->sl = w->sh = w->al = w->ah = NULL;
    }
    if (!hyb_memo_ws_put(md, HYB_WS_BAL, w, hyb_bal_ws_free)) {
        hyb_bal_ws_free(w);
        return NULL;
    }
    return w;
}

/* hyb_forcing's recursion (flow.c) in the x87 kernel on the kept A (imat_fast.h):
 * z_{k+1} = b_k + A z_k as the kernel's sum from b_k (the MPFI loop's
 * bits), then divided in MPFI; 1, or 0 when refused at k = 0 (nothing
 * written; a refusal later leaves z_{k+1}.. to the caller: *k0). */
int hyb_recursion_ld(mpfi_t **z, mpfi_t **bk, long n, int K, const hyb_bal_ws *w, int *k0)
{
    *k0 = 0;
    if (!w || !w->al || K < 1 || mpfi_get_prec(z[0][0]) != 64) return 0;
    long double *b = malloc((size_t)(6 * n) * sizeof *b);
    if (!b) return 0;
    long double *zl = b, *zh = zl + n, *cl = zh + n, *cn = cl + n, *rl = cn + n, *rn = rl + n;
    int ok = 1;
    for (long i = 0; ok && i < n; i++) ok = dvc_fast_load_ld_(&zl[i], &zh[i], &z[i][0], 1);
    for (int k = 0; ok && k < K; k++) {
        for (long i = 0; ok && i < n; i++) ok = dvc_fast_load_ld_(&cl[i], &cn[i], &bk[i][k], 1);
        for (long i = 0; i < n; i++) cn[i] = -cn[i];
        /* the sums, then the division (mpfi_div_ui's), kept for the next k */
        ok = ok && mpfi_get_prec(z[0][k + 1]) == 64 &&
             dvc_fast_csr_ld_(rl, rn, w->nzr, w->nzj, w->al, w->ah, zl, zh, n, 1, cl, cn) &&
             dvc_fast_div_ld_(rl, rn, n, (unsigned long)(k + 1));
        if (!ok) break;
        for (long i = 0; i < n; i++) {
            dvc_fast_store_ld_(&z[i][k + 1], &rl[i], &rn[i], 1);
            zl[i] = rl[i];
            zh[i] = -rn[i];
        }
        *k0 = k + 1;
    }
    free(b);
    return *k0 > 0;
}

/* expm_box's (flow.c) Horner loop in the x87 kernel on the kept As (imat_fast.h):
 * each step the kernel's T = As X and X = X0 + T c, the sums and products
 * of the MPFI loop in expm_box (the same bits); 1, or 0 when refused (X
 * then unwritten). c: scratch. */
int hyb_horner_ld(dvc_ivec_t X, const dvc_ivec_t X0, const hyb_bal_ws *w, const mpfi_t S, int K,
                     mpfi_t c)
{
    long n = X->n;
    if (!w->sl || K < 2 || dvc_ivec_prec(X) != 64) return 0;
    long double *b = malloc((size_t)(8 * n + 2) * sizeof *b);
    if (!b) return 0;
    long double *x0l = b, *x0n = x0l + n, *xl = x0n + n, *xh = xl + n, *tl = xh + n, *th = tl + n;
    long double *yn = th + n, *tn = yn + n, *cl = tn + n, *ch = cl + 1;
    int ok = dvc_fast_load_ld_(x0l, xh, X0->e, n);
    for (long i = 0; i < n; i++) {
        x0n[i] = -xh[i];
        xl[i] = x0l[i];
    }
    for (int k = K - 1; ok && k >= 1; k--) {
        ok = dvc_fast_csr_ld_(tl, tn, w->nzr, w->nzj, w->sl, w->sh, xl, xh, n, 1, NULL, NULL);
        mpfi_div_ui(c, S, (unsigned long)k);
        ok = ok && dvc_fast_load_ld_(cl, ch, (mpfi_t *)c, 1);
        for (long i = 0; i < n; i++) th[i] = -tn[i];
        ok = ok && dvc_fast_mul_ld_(xl, yn, tl, th, cl, ch, n, 1, 1, x0l, x0n);
        for (long i = 0; i < n; i++) xh[i] = -yn[i];
    }
    if (ok) dvc_fast_store_ld_(X->e, xl, yn, n);
    free(b);
    return ok;
}

int hyb_expm_ld(dvc_imat_t E, const hyb_bal_ws *w, const mpfi_t S, int K, mpfi_t c)
{
    long n = E->r, nn = n * n, nz = w->nzr[n];
    if (!w->sl || K < 2 || dvc_imat_prec(E) != 64) return 0;
    long double *b = malloc((size_t)(2 * nz + 8 * nn + 4) * sizeof *b);
    if (!b) return 0;
    long double *t1l = b, *t1n = t1l + nz, *el = t1n + nz, *eh = el + nn, *il = eh + nn;
    long double *in = il + nn, *t2l = in + nn, *t2n = t2l + nn, *t2h = t2n + nn, *en = t2h + nn;
    long double *cl = en + nn, *ch = cl + 1, one[2] = {1, 1};
    dvc_imat_one(E);
    int ok = dvc_fast_load_ld_(il, eh, E->e, nn);
    for (long t = 0; t < nn; t++) {
        in[t] = -eh[t];
        el[t] = il[t];
    }
    for (int k = K - 1; ok && k >= 1; k--) {
        mpfi_div_ui(c, S, (unsigned long)k);
        ok = dvc_fast_load_ld_(cl, ch, (mpfi_t *)c, 1) &&
             dvc_fast_mul_ld_(t1l, t1n, cl, ch, w->sl, w->sh, 1, 1, nz, NULL, NULL);
        for (long t = 0; t < nz; t++) t1n[t] = -t1n[t]; /* right ends */
        ok = ok && dvc_fast_csr_ld_(t2l, t2n, w->nzr, w->nzj, t1l, t1n, el, eh, n, n, NULL, NULL);
        for (long t = 0; t < nn; t++) t2h[t] = -t2n[t];
        ok = ok && dvc_fast_mul_ld_(el, en, t2l, t2h, one, one + 1, nn, 1, 1, il, in);
        for (long t = 0; t < nn; t++) eh[t] = -en[t];
    }
    if (ok) dvc_fast_store_ld_(E->e, el, en, nn);
    free(b);
    return ok;
}
