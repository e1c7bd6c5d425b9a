/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* beta_M's closed forms and structural bounds (docs/beta.md section 4) and
 * the cheap vertex bounds of section 3, for the driver src/beta.c. */
#include <math.h>
#include <stdlib.h>

#include "beta_drv.h"
#include "dvicert/error.h"
#include "dvicert/ival.h"
#include "dvicert/mclass.h"

/* max_i sum_j mig(X_ij), rounded down, and ||X|| rounded up. */
static void inv_norms(const dvc_imat_t X, double *lo, double *hi)
{
    mpfr_t s, t, best;
    mpfr_inits2(mpfi_get_prec(X->e[0]), s, t, best, (mpfr_ptr)0);
    mpfr_set_zero(best, 1);
    for (long i = 0; i < X->r; i++) {
        mpfr_set_zero(s, 1);
        for (long j = 0; j < X->c; j++) {
            dvc_ival_mig(t, dvc_imat_entry(X, i, j));
            mpfr_add(s, s, t, MPFR_RNDD);
        }
        mpfr_max(best, best, s, MPFR_RNDD);
    }
    *lo = mpfr_get_d(best, MPFR_RNDD);
    dvc_imat_norm_inf(best, X);
    *hi = mpfr_get_d(best, MPFR_RNDU);
    mpfr_clears(s, t, best, (mpfr_ptr)0);
}

/* Lower bounds from the vertices J = {i}: beta >= 1/|m_ii|, alpha >=
 * (1 + sum_{j != i} |m_ij|) / |m_ii|. */
void dvc_beta_singleton_lower_(const dvc_imat_t M, bnd *beta, bnd *alpha)
{
    long m = M->r;
    mpfr_t a, s, t;
    mpfr_inits2(mpfi_get_prec(M->e[0]) > 53 ? mpfi_get_prec(M->e[0]) : 53, a, s, t, (mpfr_ptr)0);
    for (long i = 0; i < m; i++) {
        dvc_ival_mag(a, dvc_imat_entry(M, i, i));
        if (mpfr_zero_p(a)) continue;
        mpfr_ui_div(t, 1, a, MPFR_RNDD);
        bnd_lo(beta, mpfr_get_d(t, MPFR_RNDD));
        mpfr_set_ui(s, 1, MPFR_RNDD);
        for (long j = 0; j < m; j++)
            if (j != i) {
                dvc_ival_mig(t, dvc_imat_entry(M, i, j));
                mpfr_add(s, s, t, MPFR_RNDD);
            }
        mpfr_div(s, s, a, MPFR_RNDD);
        bnd_lo(alpha, m > 1 ? mpfr_get_d(s, MPFR_RNDD) : 0);
    }
    mpfr_clears(a, s, t, (mpfr_ptr)0);
}

/* Upper bound of ||M - I||, rounded up. */
double dvc_beta_norm_m_minus_i_(const dvc_imat_t M)
{
    long m = M->r;
    mpfi_t x;
    mpfr_t s, t, best;
    double r;
    mpfi_init2(x, mpfi_get_prec(M->e[0]));
    mpfr_inits2(53, s, t, best, (mpfr_ptr)0);
    mpfr_set_zero(best, 1);
    for (long i = 0; i < m; i++) {
        mpfr_set_zero(s, 1);
        for (long j = 0; j < m; j++) {
            mpfi_set(x, dvc_imat_entry(M, i, j));
            if (i == j) mpfi_sub_ui(x, x, 1);
            dvc_ival_mag(t, x);
            mpfr_add(s, s, t, MPFR_RNDU);
        }
        mpfr_max(best, best, s, MPFR_RNDU);
    }
    r = mpfr_get_d(best, MPFR_RNDU);
    mpfi_clear(x);
    mpfr_clears(s, t, best, (mpfr_ptr)0);
    return r;
}

/* SPD: ||M^{-1}||_2 <= 1/s when M - sI is proven positive definite, with s
 * just below an estimate of lambda_min from inverse iteration on the
 * predictor. Returns +inf when not proven. */
static double spd_inv2_by_shift(const dvc_imat_t M, const dvc_imat_t Minv)
{
    long m = M->r;
    double *x = malloc(sizeof(double) * (size_t)m), *y = malloc(sizeof(double) * (size_t)m);
    double *X = malloc(sizeof(double) * (size_t)(m * m));
    double mu = 0, res = INFINITY;
    if (!x || !y || !X) abort();
    dvc_imat_mid_d(X, Minv);
    for (long i = 0; i < m; i++) x[i] = 1.0 + 0.01 * (double)i;
    for (int it = 0; it < 200; it++) { /* power iteration on X ~ M^{-1} */
        double nrm = 0;
        for (long i = 0; i < m; i++) {
            double s = 0;
            for (long j = 0; j < m; j++) s += X[i * m + j] * x[j];
            y[i] = s;
            nrm += s * s;
        }
        nrm = sqrt(nrm);
        if (!(nrm > 0) || !isfinite(nrm)) break;
        for (long i = 0; i < m; i++) x[i] = y[i] / nrm;
        mu = nrm;
    }
    if (mu > 0 && isfinite(mu)) {
        double lam = 1.0 / mu;
        for (int tries = 0; tries < 3 && !isfinite(res); tries++) {
            double sft = lam * (tries == 0 ? 0.999 : tries == 1 ? 0.99 : 0.9);
            dvc_imat_t S;
            dvc_imat_init2(S, m, m, mpfi_get_prec(M->e[0]));
            dvc_imat_set(S, M);
            for (long i = 0; i < m; i++)
                mpfi_sub_d(dvc_imat_entry(S, i, i), dvc_imat_entry(S, i, i), sft);
            if (dvc_imat_cholesky_spd(S) == DVC_OK) {
                /* lambda_min(M) >= sft, so ||M^{-1}||_2 <= 1/sft (rounded up). */
                mpfr_t q;
                mpfr_init2(q, 53);
                mpfr_set_d(q, sft, MPFR_RNDD);
                mpfr_ui_div(q, 1, q, MPFR_RNDU);
                res = mpfr_get_d(q, MPFR_RNDU);
                mpfr_clear(q);
            }
            dvc_imat_clear(S);
        }
    }
    free(x);
    free(y);
    free(X);
    return res;
}

void dvc_beta_structural_(const dvc_imat_t M, unsigned classes, bnd *beta, int *beta_exact)
{
    long m = M->r;
    dvc_imat_t X;
    *beta_exact = 0;
    dvc_imat_init2(X, m, m, mpfi_get_prec(M->e[0]));
    if (dvc_imat_inv(X, M) == DVC_OK && dvc_imat_is_finite(X)) {
        double lo, hi;
        inv_norms(X, &lo, &hi);
        bnd_lo(beta, lo); /* the vertex J = {1..m} */
        if (classes & DVC_MCLASS_M) {
            bnd_hi(beta, hi, "M-matrix: beta_M = ||M^{-1}||");
            *beta_exact = 1;
        }
        if (classes & DVC_MCLASS_SPD) {
            mpfr_t n2, sq;
            double b2, bs;
            mpfr_inits2(53, n2, sq, (mpfr_ptr)0);
            dvc_imat_norm2(n2, X);
            b2 = mpfr_get_d(n2, MPFR_RNDU);
            bs = spd_inv2_by_shift(M, X);
            if (bs < b2) b2 = bs;
            mpfr_set_d(n2, b2, MPFR_RNDU);
            mpfr_sqrt_ui(sq, (unsigned long)m, MPFR_RNDU);
            mpfr_mul(n2, n2, sq, MPFR_RNDU);
            bnd_hi(beta, mpfr_get_d(n2, MPFR_RNDU), "SPD: beta_M <= sqrt(m) ||M^{-1}||_2");
            mpfr_clears(n2, sq, (mpfr_ptr)0);
        }
    }
    dvc_error_reset();
    if ((classes & DVC_MCLASS_H) && !(classes & DVC_MCLASS_M)) {
        dvc_imat_t C, Ci;
        dvc_imat_init2(C, m, m, mpfi_get_prec(M->e[0]));
        dvc_imat_init2(Ci, m, m, mpfi_get_prec(M->e[0]));
        dvc_imat_comparison(C, M);
        if (dvc_imat_inv(Ci, C) == DVC_OK && dvc_imat_is_finite(Ci)) {
            double lo, hi;
            inv_norms(Ci, &lo, &hi);
            bnd_hi(beta, hi, "H-matrix: beta_M <= ||<M>^{-1}||");
        }
        dvc_error_reset();
        dvc_imat_clear(C);
        dvc_imat_clear(Ci);
    }
    dvc_imat_clear(X);
}

