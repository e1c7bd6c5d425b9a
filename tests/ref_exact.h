/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Exact rational references shared by the test programs (GMP mpq): they
 * never call the library, so a containment check against them is a check
 * against an independent computation. Header-only, like check.h. */
#ifndef DVC_TESTS_REF_EXACT_H
#define DVC_TESTS_REF_EXACT_H

#include <stdlib.h>

#include <gmp.h>
#include <mpfi.h>

/* The rational q lies in x (exact endpoint comparisons). A NaN endpoint
 * contains nothing (mpfr_cmp_q would report it "equal"). */
static inline int ref_contains_q(const mpfi_t x, const mpq_t q)
{
    return !mpfr_nan_p(&x->left) && !mpfr_nan_p(&x->right) &&
           mpfr_cmp_q(&x->left, q) <= 0 && mpfr_cmp_q(&x->right, q) >= 0;
}

/* Sign of d - q for a finite double d, exactly. */
static inline int ref_cmp_dq(double d, const mpq_t q)
{
    mpq_t x;
    int c;
    mpq_init(x);
    mpq_set_d(x, d);
    c = mpq_cmp(x, q);
    mpq_clear(x);
    return c;
}

/* Parse a decimal "[+-]ddd[.ddd][e[+-]ddd]" into q exactly, without MPFR.
 * Returns the end of the number, or NULL when s does not start with one
 * (leading blanks skipped). */
static inline const char *ref_q_parse_dec(mpq_t q, const char *s)
{
    mpz_t m, p10;
    long frac = 0, ex = 0;
    int neg = 0, nd = 0;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    mpz_inits(m, p10, (mpz_ptr)0);
    for (; *s >= '0' && *s <= '9'; s++, nd++) {
        mpz_mul_ui(m, m, 10);
        mpz_add_ui(m, m, (unsigned long)(*s - '0'));
    }
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, nd++, frac++) {
            mpz_mul_ui(m, m, 10);
            mpz_add_ui(m, m, (unsigned long)(*s - '0'));
        }
    if (nd == 0) {
        mpz_clears(m, p10, (mpz_ptr)0);
        return NULL;
    }
    if (*s == 'e' || *s == 'E') {
        int eneg = 0, ed = 0;
        const char *t = s + 1;
        if (*t == '+' || *t == '-') eneg = *t++ == '-';
        for (; *t >= '0' && *t <= '9' && ex < 100000; t++, ed++) ex = 10 * ex + (*t - '0');
        if (ed == 0) {
            mpz_clears(m, p10, (mpz_ptr)0);
            return NULL;
        }
        if (eneg) ex = -ex;
        s = t;
    }
    ex -= frac;
    mpz_ui_pow_ui(p10, 10, (unsigned long)(ex < 0 ? -ex : ex));
    if (neg) mpz_neg(m, m);
    if (ex >= 0) {
        mpz_mul(m, m, p10);
        mpq_set_z(q, m);
    } else {
        mpq_set_num(q, m);
        mpq_set_den(q, p10);
        mpq_canonicalize(q);
    }
    mpz_clears(m, p10, (mpz_ptr)0);
    return s;
}

/* Parse exactly one decimal (whole string). Returns 1 on success. */
static inline int ref_q_set_dec(mpq_t q, const char *s)
{
    const char *e = ref_q_parse_dec(q, s);
    return e != NULL && *e == '\0';
}

/* Positive semidefiniteness of the symmetric rational n x n matrix S
 * (destroyed): symmetric elimination; a negative pivot, or a zero pivot
 * with a nonzero entry in its row, disproves it. */
static inline int ref_q_psd(mpq_t *S, long n)
{
    mpq_t f, t;
    int ok = 1;
    mpq_inits(f, t, (mpq_ptr)0);
    for (long c = 0; c < n && ok; c++) {
        int sg = mpq_sgn(S[c * n + c]);
        if (sg < 0) ok = 0;
        else if (sg == 0) {
            for (long j = c + 1; j < n; j++)
                if (mpq_sgn(S[c * n + j]) != 0) ok = 0;
        } else
            for (long i = c + 1; i < n; i++) {
                mpq_div(f, S[i * n + c], S[c * n + c]);
                for (long j = c; j < n; j++) {
                    mpq_mul(t, f, S[c * n + j]);
                    mpq_sub(S[i * n + j], S[i * n + j], t);
                }
            }
    }
    mpq_clears(f, t, (mpq_ptr)0);
    return ok;
}

/* The rational p/q (q > 0) lies in x. */
static inline int ref_contains_si(const mpfi_t x, long p, long q)
{
    mpq_t a;
    int ok;
    mpq_init(a);
    mpq_set_si(a, p, (unsigned long)q);
    mpq_canonicalize(a);
    ok = ref_contains_q(x, a);
    mpq_clear(a);
    return ok;
}

/* Solve A X = B exactly (A n x n, B n x k, row-major) by Gauss-Jordan
 * elimination. Returns 0 when A is singular. X: n*k initialised mpq. */
static inline int ref_q_solve(mpq_t *X, mpq_t *A0, mpq_t *B0, long n, long k)
{
    mpq_t *A = malloc((size_t)(n * n > 0 ? n * n : 1) * sizeof(mpq_t));
    mpq_t *B = malloc((size_t)(n * k > 0 ? n * k : 1) * sizeof(mpq_t));
    mpq_t f, t;
    int ok = 1;
    if (!A || !B) abort();
    mpq_init(f);
    mpq_init(t);
    for (long q = 0; q < n * n; q++) {
        mpq_init(A[q]);
        mpq_set(A[q], A0[q]);
    }
    for (long q = 0; q < n * k; q++) {
        mpq_init(B[q]);
        mpq_set(B[q], B0[q]);
    }
    for (long c = 0; c < n && ok; c++) {
        long p = -1;
        for (long i = c; i < n; i++)
            if (mpq_sgn(A[i * n + c]) != 0) {
                p = i;
                break;
            }
        if (p < 0) {
            ok = 0;
            break;
        }
        if (p != c) {
            for (long j = 0; j < n; j++) mpq_swap(A[p * n + j], A[c * n + j]);
            for (long j = 0; j < k; j++) mpq_swap(B[p * k + j], B[c * k + j]);
        }
        for (long i = 0; i < n; i++) {
            if (i == c || mpq_sgn(A[i * n + c]) == 0) continue;
            mpq_div(f, A[i * n + c], A[c * n + c]);
            for (long j = c; j < n; j++) {
                mpq_mul(t, f, A[c * n + j]);
                mpq_sub(A[i * n + j], A[i * n + j], t);
            }
            for (long j = 0; j < k; j++) {
                mpq_mul(t, f, B[c * k + j]);
                mpq_sub(B[i * k + j], B[i * k + j], t);
            }
        }
    }
    if (ok)
        for (long i = 0; i < n; i++)
            for (long j = 0; j < k; j++) mpq_div(X[i * k + j], B[i * k + j], A[i * n + i]);
    for (long q = 0; q < n * n; q++) mpq_clear(A[q]);
    for (long q = 0; q < n * k; q++) mpq_clear(B[q]);
    free(A);
    free(B);
    mpq_clear(f);
    mpq_clear(t);
    return ok;
}

/* Replace the k x k matrix A by its exact inverse. Returns 0 if singular
 * (A then unchanged). */
static inline int ref_q_inverse(mpq_t *A, long k)
{
    mpq_t *I = malloc((size_t)(k * k > 0 ? k * k : 1) * sizeof(mpq_t));
    mpq_t *X = malloc((size_t)(k * k > 0 ? k * k : 1) * sizeof(mpq_t));
    int ok;
    if (!I || !X) abort();
    for (long q = 0; q < k * k; q++) {
        mpq_init(I[q]);
        mpq_init(X[q]);
        mpq_set_ui(I[q], q / k == q % k, 1);
    }
    ok = ref_q_solve(X, A, I, k, k);
    for (long q = 0; q < k * k; q++) {
        if (ok) mpq_set(A[q], X[q]);
        mpq_clear(I[q]);
        mpq_clear(X[q]);
    }
    free(I);
    free(X);
    return ok;
}

/* Sign (-1, 0, 1) of det A, A k x k, destroyed (Gaussian elimination with
 * the first nonzero pivot). */
static inline int ref_q_det_sign(mpq_t *A, long k)
{
    mpq_t f, t;
    int sign = 1;
    mpq_init(f);
    mpq_init(t);
    for (long c = 0; c < k && sign != 0; c++) {
        long p = -1;
        for (long i = c; i < k; i++)
            if (mpq_sgn(A[i * k + c]) != 0) {
                p = i;
                break;
            }
        if (p < 0) {
            sign = 0;
            break;
        }
        if (p != c) {
            for (long j = 0; j < k; j++) mpq_swap(A[p * k + j], A[c * k + j]);
            sign = -sign;
        }
        if (mpq_sgn(A[c * k + c]) < 0) sign = -sign;
        for (long i = c + 1; i < k; i++) {
            mpq_div(f, A[i * k + c], A[c * k + c]);
            for (long j = c; j < k; j++) {
                mpq_mul(t, f, A[c * k + j]);
                mpq_sub(A[i * k + j], A[i * k + j], t);
            }
        }
    }
    mpq_clear(f);
    mpq_clear(t);
    return sign;
}

/* ||M^{-1}||_inf of the m x m matrix of doubles M (row-major), exactly in
 * rationals; 0 (nrm = 0) when M is singular. */
static inline int ref_q_inv_norm_d(const double *M, long m, mpq_t nrm)
{
    mpq_t *Q = malloc(sizeof(mpq_t) * (size_t)(m * m)), s, t;
    int ok;
    if (Q == NULL) abort();
    mpq_inits(s, t, NULL);
    for (long i = 0; i < m * m; i++) {
        mpq_init(Q[i]);
        mpq_set_d(Q[i], M[i]);
    }
    ok = ref_q_inverse(Q, m);
    mpq_set_ui(nrm, 0, 1);
    for (long i = 0; i < m && ok; i++) {
        mpq_set_ui(s, 0, 1);
        for (long j = 0; j < m; j++) {
            mpq_abs(t, Q[i * m + j]);
            mpq_add(s, s, t);
        }
        if (mpq_cmp(s, nrm) > 0) mpq_set(nrm, s);
    }
    for (long i = 0; i < m * m; i++) mpq_clear(Q[i]);
    free(Q);
    mpq_clears(s, t, NULL);
    return ok;
}

#endif
