/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Validated flow of a field mode x' = f(t, x) (docs/hybrid.md section 2b):
 * a-priori box by Picard-Lindelof, interval Taylor series of the centre
 * trajectory with the Lagrange remainder over the a-priori box, and the
 * mean-value form x(s; x0) in x(s; c) + J (x0 - c) with J enclosing the
 * solution of the variational equation, carried by the Lohner set. */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "hybrid/flow.h"

/* Bx encloses every solution from X0 at t0 on [t0, t0 + hs]:
 * X0 + [0, hs] f([t0, t0 + hs], Bx) inside Bx. */
static dvc_status apriori_box(dvc_ivec_t Bx, const dvc_hybrid_mode *md, const mpfi_t T,
                              const dvc_ivec_t X0, const mpfr_t hs)
{
    long n = X0->n;
    mpfr_prec_t prec = dvc_ivec_prec(X0);
    dvc_ivec_t F, Z;
    mpfi_t w, e;
    mpfr_t r;
    dvc_ivec_init2(F, n, prec);
    dvc_ivec_init2(Z, n, prec);
    mpfi_init2(w, prec);
    mpfi_init2(e, prec);
    mpfr_init2(r, prec);
    mpfi_set_ui(w, 0);
    mpfi_put_fr(w, hs);
    dvc_status st = hyb_field(F, md, T, X0);
    int ok = 0;
    if (st == DVC_OK) {
        for (long i = 0; i < n; i++) {
            mpfi_mul(e, w, F->e[i]);
            mpfi_add(Bx->e[i], X0->e[i], e);
        }
    }
    /* B <- (X0 + [0, hs] f(T, B)) inflated, until the image is inside B;
     * then that image (inside B, so it also holds the solutions) is Bx */
    for (int it = 0; it < 20 && st == DVC_OK && !ok; it++) {
        for (long i = 0; i < n; i++) {
            mpfi_diam_abs(r, Bx->e[i]);
            mpfr_mul_d(r, r, it < 10 ? 0.1 : 0.5, MPFR_RNDU);
            mpfr_add_d(r, r, 1e-14, MPFR_RNDU);
            mpfi_interv_fr(e, r, r);
            mpfi_neg(F->e[i], e);
            mpfi_put(e, F->e[i]);
            mpfi_add(Bx->e[i], Bx->e[i], e);
        }
        st = hyb_field(F, md, T, Bx);
        if (st != DVC_OK) break;
        ok = 1;
        for (long i = 0; i < n; i++) {
            mpfi_mul(e, w, F->e[i]);
            mpfi_add(Z->e[i], X0->e[i], e);
            if (!mpfi_is_inside(Z->e[i], Bx->e[i])) ok = 0;
        }
        dvc_ivec_set(Bx, Z);
    }
    dvc_ivec_clear(F);
    dvc_ivec_clear(Z);
    mpfi_clear(w);
    mpfi_clear(e);
    mpfr_clear(r);
    if (st != DVC_OK) return st;
    if (!ok)
        return dvc_error(DVC_NOT_CERTIFIED, "mode '%s': no a-priori enclosure on a step of %g "
                         "(Picard-Lindelof); give a smaller 'h'",
                         md->name, mpfr_get_d(hs, MPFR_RNDU));
    return DVC_OK;
}

/* D encloses the Jacobian df/dx over T x Y. */
static dvc_status jac_f(dvc_imat_t D, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t Y)
{
    long n = Y->n;
    dvc_ivec_t g;
    dvc_ivec_init2(g, n + 1, dvc_ivec_prec(Y));
    dvc_status st = DVC_OK;
    for (long i = 0; i < n && st == DVC_OK; i++) {
        st = dvc_expr_grad(NULL, g, md->f[i], T, Y);
        for (long j = 0; j < n && st == DVC_OK; j++) mpfi_set(dvc_imat_entry(D, i, j), g->e[j + 1]);
    }
    dvc_ivec_clear(g);
    return st;
}

dvc_status hyb_jacobian(dvc_imat_t J, const dvc_hybrid_mode *md, const mpfi_t T,
                        const dvc_ivec_t Y, const mpfi_t S, int K)
{
    if (md->linear) return hyb_expm_md(J, md, S, K);
    long n = Y->n;
    mpfr_prec_t prec = dvc_ivec_prec(Y);
    dvc_imat_t D, J1, W;
    mpfi_t e, Sh;
    mpfr_t L;
    dvc_imat_init2(D, n, n, prec);
    dvc_imat_init2(J1, n, n, prec);
    dvc_imat_init2(W, n, n, prec);
    mpfi_init2(e, prec);
    mpfi_init2(Sh, prec);
    mpfr_init2(L, prec);
    dvc_status st = jac_f(D, md, T, Y);
    if (st == DVC_OK) {
        /* J(u) = I + int_0^u D J: ||J(u)|| <= e^{||D|| u}, then two
         * substitutions J in I + [0, s] D J (mean value of an integral) */
        mpfi_set_ui(Sh, 0);
        mpfi_put_fr(Sh, &S->right);
        dvc_imat_norm_inf(L, D);
        mpfi_set_fr(e, L);
        mpfi_mul_fr(e, e, &S->right);
        mpfi_exp(e, e);
        mpfr_set(L, &e->right, MPFR_RNDU);
        mpfi_interv_fr(e, L, L);
        mpfi_neg(Sh, e); /* reuse Sh as -e */
        mpfi_put(e, Sh);
        for (long i = 0; i < n * n; i++) mpfi_set(J1->e[i], e);
        mpfi_set_ui(Sh, 0);
        mpfi_put_fr(Sh, &S->right);
        for (int pass = 0; pass < 3; pass++) {
            dvc_imat_mul(W, D, J1);
            dvc_imat_scale(W, pass < 2 ? Sh : S, W);
            dvc_imat_one(J1);
            dvc_imat_add(J1, J1, W);
        }
        dvc_imat_set(J, J1);
        if (!dvc_imat_is_finite(J)) st = dvc_error(DVC_NOT_CERTIFIED, "variational equation unbounded");
    }
    dvc_imat_clear(D);
    dvc_imat_clear(J1);
    dvc_imat_clear(W);
    mpfi_clear(e);
    mpfi_clear(Sh);
    mpfr_clear(L);
    return st;
}

static mpfi_t **series_new(long n, int K, mpfr_prec_t prec)
{
    mpfi_t **c = malloc((size_t)n * sizeof *c);
    for (long i = 0; i < n; i++) {
        c[i] = malloc((size_t)(K + 1) * sizeof **c);
        for (int k = 0; k <= K; k++) mpfi_init2(c[i][k], prec);
    }
    return c;
}

static void series_free(mpfi_t **c, long n, int K)
{
    for (long i = 0; i < n; i++) {
        for (int k = 0; k <= K; k++) mpfi_clear(c[i][k]);
        free(c[i]);
    }
    free(c);
}

/* Xc encloses the centre's solution x(t0 + s; c) for s in S: its series at
 * t0 (cs) plus the Lagrange remainder from the series over the step box (rs). */
static void centre_at(dvc_ivec_t Xc, mpfi_t **cs, mpfi_t **rs, const mpfi_t S, int K, long n,
                      mpfi_t acc, mpfi_t Sk, mpfi_t tmp)
{
    mpfi_set(Sk, S);
    hyb_pow_ui(Sk, K);
    for (long i = 0; i < n; i++) {
        mpfi_set_ui(acc, 0);
        for (int k = K - 1; k >= 1; k--) {
            mpfi_add(acc, acc, cs[i][k]);
            mpfi_mul(acc, acc, S);
        }
        mpfi_add(acc, acc, cs[i][0]);
        mpfi_mul(tmp, rs[i][K], Sk);
        mpfi_add(Xc->e[i], acc, tmp);
    }
}

/* J encloses D_x Phi(t0 + s; t0, x0) for s in S and x0 in X0 (the hull of
 * the set and c) as a product J_m ... J_1 over m equal sub-steps of length
 * s/m in S/m: J_i over the a-priori box B_i of the solutions over the i-th
 * sub-step only (width O(h/m) instead of O(h)), so the overestimation of
 * each factor is O((h/m)^2) and of the product O(h^2/m) (docs/hybrid.md
 * section 2b). The solutions at the start of sub-step i lie in
 * x(s_{i-1}; c) + (J_{i-1} ... J_1)(X0 - c) (mean-value form), met with the
 * step box Bx. */
#define HYB_JAC_SUB 4
static dvc_status sub_jacobian(dvc_imat_t J, const dvc_hybrid_mode *md, const mpfi_t T,
                               const dvc_ivec_t Bx, const dvc_ivec_t X0, const dvc_ivec_t c,
                               mpfi_t **cs, mpfi_t **rs, const mpfi_t S, int K)
{
    long n = X0->n;
    mpfr_prec_t prec = dvc_ivec_prec(X0);
    dvc_status st = DVC_OK;
    dvc_imat_t Ji, W;
    dvc_ivec_t Xi, Bi, d, Xc;
    mpfi_t Sh, Si, acc, Sk, tmp;
    dvc_imat_init2(Ji, n, n, prec);
    dvc_imat_init2(W, n, n, prec);
    dvc_ivec_init2(Xi, n, prec);
    dvc_ivec_init2(Bi, n, prec);
    dvc_ivec_init2(d, n, prec);
    dvc_ivec_init2(Xc, n, prec);
    mpfi_init2(Sh, prec);
    mpfi_init2(Si, prec);
    mpfi_init2(acc, prec);
    mpfi_init2(Sk, prec);
    mpfi_init2(tmp, prec);
    mpfi_div_ui(Sh, S, HYB_JAC_SUB);
    dvc_ivec_sub(d, X0, c);
    dvc_imat_one(J);
    dvc_ivec_set(Xi, X0);
    for (int i = 1; i <= HYB_JAC_SUB && st == DVC_OK; i++) {
        if (i > 1) {
            /* the solutions at s_{i-1} = (i - 1) s / m */
            mpfi_mul_ui(Si, Sh, (unsigned long)(i - 1));
            centre_at(Xc, cs, rs, Si, K, n, acc, Sk, tmp);
            dvc_imat_mul_vec(Xi, J, d);
            dvc_ivec_add(Xi, Xi, Xc);
            for (long k = 0; k < n; k++) {
                mpfi_intersect(Xi->e[k], Xi->e[k], Bx->e[k]);
                if (mpfi_is_empty(Xi->e[k]))
                    st = dvc_error(DVC_ERR_INTERNAL, "variational sub-step: empty enclosure");
            }
            if (st != DVC_OK) break;
        }
        st = apriori_box(Bi, md, T, Xi, &Sh->right);
        if (st != DVC_OK) break;
        for (long k = 0; k < n; k++) {
            mpfi_intersect(Bi->e[k], Bi->e[k], Bx->e[k]);
            if (mpfi_is_empty(Bi->e[k]))
                st = dvc_error(DVC_ERR_INTERNAL, "variational sub-step: empty box");
        }
        if (st == DVC_OK) st = hyb_jacobian(Ji, md, T, Bi, Sh, K);
        if (st == DVC_OK) {
            dvc_imat_mul(W, Ji, J);
            dvc_imat_set(J, W);
        }
    }
    dvc_imat_clear(Ji);
    dvc_imat_clear(W);
    dvc_ivec_clear(Xi);
    dvc_ivec_clear(Bi);
    dvc_ivec_clear(d);
    dvc_ivec_clear(Xc);
    mpfi_clear(Sh);
    mpfi_clear(Si);
    mpfi_clear(acc);
    mpfi_clear(Sk);
    mpfi_clear(tmp);
    return st;
}

dvc_status hyb_field_flow(dvc_ivec_t X, hyb_set *Lout, const dvc_hybrid_mode *md, const hyb_set *L,
                          const mpfr_t t0, const mpfi_t S, int K)
{
    long n = L->P->n;
    mpfr_prec_t prec = dvc_ivec_prec(L->P);
    dvc_status st;
    dvc_ivec_t X0, Bx, c, Xc, dP, t1, t2;
    dvc_imat_t J, JB;
    mpfi_t T, Tp, acc, Sk;
    mpfr_t mid;
    dvc_ivec_init2(X0, n, prec);
    dvc_ivec_init2(Bx, n, prec);
    dvc_ivec_init2(c, n, prec);
    dvc_ivec_init2(Xc, n, prec);
    dvc_ivec_init2(dP, n, prec);
    dvc_ivec_init2(t1, n, prec);
    dvc_ivec_init2(t2, n, prec);
    dvc_imat_init2(J, n, n, prec);
    dvc_imat_init2(JB, n, n, prec);
    mpfi_init2(T, prec);
    mpfi_init2(Tp, prec);
    mpfi_init2(acc, prec);
    mpfi_init2(Sk, prec);
    mpfr_init2(mid, prec);
    mpfi_t **cs = series_new(n, K, prec), **rs = series_new(n, K, prec);
    /* centre: c = mid P (a point) */
    for (long i = 0; i < n; i++) {
        mpfi_mid(mid, L->P->e[i]);
        mpfi_set_fr(c->e[i], mid);
        mpfi_sub_fr(dP->e[i], L->P->e[i], mid);
    }
    /* a-priori box of every solution from the set and from c (the segments
     * of the mean-value form lie in this convex hull) over [t0, t0 + sup S] */
    hyb_set_box(X0, L);
    dvc_ivec_hull(X0, X0, c);
    mpfi_set_fr(T, t0);
    mpfi_set_fr(Tp, t0);
    mpfi_add_fr(Tp, Tp, &S->right);
    mpfi_put_fr(T, &Tp->right);
    st = apriori_box(Bx, md, T, X0, &S->right);
    if (st != DVC_OK) goto out;
    /* the centre's series at t0, remainder over Bx */
    mpfi_set_fr(Tp, t0);
    st = hyb_state_series(cs, md, Tp, c, K);
    if (st == DVC_OK) st = hyb_state_series(rs, md, T, Bx, K);
    if (st != DVC_OK) goto out;
    centre_at(Xc, cs, rs, S, K, n, acc, Sk, Tp);
    /* variational part: over the a-priori box for the enclosure over S;
     * for the set's image at S (S narrow) as a product of sub-steps */
    st = Lout ? sub_jacobian(J, md, T, Bx, X0, c, cs, rs, S, K)
              : hyb_jacobian(J, md, T, Bx, S, K);
    if (st != DVC_OK) goto out;
    if (X) {
        dvc_imat_mul(JB, J, L->B);
        dvc_imat_mul_vec(t1, JB, L->R);
        dvc_imat_mul_vec(t2, J, dP);
        dvc_ivec_add(X, Xc, t1);
        dvc_ivec_add(X, X, t2);
    }
    if (Lout) st = hyb_set_map_c(Lout, J, NULL, Xc);
out:
    series_free(cs, n, K);
    series_free(rs, n, K);
    dvc_ivec_clear(X0);
    dvc_ivec_clear(Bx);
    dvc_ivec_clear(c);
    dvc_ivec_clear(Xc);
    dvc_ivec_clear(dP);
    dvc_ivec_clear(t1);
    dvc_ivec_clear(t2);
    dvc_imat_clear(J);
    dvc_imat_clear(JB);
    mpfi_clear(T);
    mpfi_clear(Tp);
    mpfi_clear(acc);
    mpfi_clear(Sk);
    mpfr_clear(mid);
    return st;
}
