/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "dvicert/imat.h"
#include "imat_fast.h"

#include <math.h>
#include <stdlib.h>

void dvc_imat_init2(dvc_imat_t A, long r, long c, mpfr_prec_t prec)
{
    long n = r * c;
    A->r = r;
    A->c = c;
    A->prec = prec;
    A->e = n > 0 ? malloc((size_t)n * sizeof(mpfi_t)) : NULL;
    if (n > 0 && A->e == NULL) abort();
    for (long k = 0; k < n; k++) {
        mpfi_init2(A->e[k], prec);
        mpfi_set_ui(A->e[k], 0);
    }
}

void dvc_imat_init(dvc_imat_t A, long r, long c) { dvc_imat_init2(A, r, c, dvc_prec_get()); }

void dvc_imat_clear(dvc_imat_t A)
{
    for (long k = 0; k < A->r * A->c; k++) mpfi_clear(A->e[k]);
    free(A->e);
    A->e = NULL;
    A->r = A->c = 0;
}

mpfr_prec_t dvc_imat_prec(const dvc_imat_t A)
{
    /* the entries first: views built by hand may leave prec unset */
    if (A->r * A->c > 0) return mpfi_get_prec(A->e[0]);
    return A->prec >= MPFR_PREC_MIN ? A->prec : DVC_DEFAULT_PREC;
}

void dvc_imat_resize(dvc_imat_t A, long r, long c)
{
    mpfr_prec_t prec = dvc_imat_prec(A);
    if (A->r == r && A->c == c) return;
    dvc_imat_clear(A);
    dvc_imat_init2(A, r, c, prec);
}

void dvc_imat_set(dvc_imat_t R, const dvc_imat_t A)
{
    if (R == A) return;
    for (long k = 0; k < A->r * A->c; k++) mpfi_set(R->e[k], A->e[k]);
}

void dvc_imat_zero(dvc_imat_t R)
{
    for (long k = 0; k < R->r * R->c; k++) mpfi_set_ui(R->e[k], 0);
}

void dvc_imat_one(dvc_imat_t R)
{
    dvc_imat_zero(R);
    for (long i = 0; i < R->r && i < R->c; i++) mpfi_set_ui(dvc_imat_entry(R, i, i), 1);
}

void dvc_imat_set_d(dvc_imat_t R, const double *a)
{
    for (long k = 0; k < R->r * R->c; k++) mpfi_set_d(R->e[k], a[k]);
}

void dvc_imat_mid_d(double *a, const dvc_imat_t A)
{
    for (long k = 0; k < A->r * A->c; k++) a[k] = dvc_ival_mid_d(A->e[k]);
}

int dvc_imat_is_point(const dvc_imat_t A)
{
    for (long k = 0; k < A->r * A->c; k++)
        if (!mpfr_equal_p(&A->e[k]->left, &A->e[k]->right)) return 0;
    return 1;
}

int dvc_imat_is_finite(const dvc_imat_t A)
{
    for (long k = 0; k < A->r * A->c; k++)
        if (!dvc_ival_is_finite(A->e[k])) return 0;
    return 1;
}

int dvc_imat_is_square(const dvc_imat_t A) { return A->r == A->c; }

void dvc_imat_transpose(dvc_imat_t R, const dvc_imat_t A)
{
    for (long i = 0; i < A->r; i++)
        for (long j = 0; j < A->c; j++) mpfi_set(dvc_imat_entry(R, j, i), dvc_imat_entry(A, i, j));
}

void dvc_imat_add(dvc_imat_t R, const dvc_imat_t A, const dvc_imat_t B)
{
    for (long k = 0; k < A->r * A->c; k++) mpfi_add(R->e[k], A->e[k], B->e[k]);
}

void dvc_imat_sub(dvc_imat_t R, const dvc_imat_t A, const dvc_imat_t B)
{
    for (long k = 0; k < A->r * A->c; k++) mpfi_sub(R->e[k], A->e[k], B->e[k]);
}

void dvc_imat_neg(dvc_imat_t R, const dvc_imat_t A)
{
    for (long k = 0; k < A->r * A->c; k++) mpfi_neg(R->e[k], A->e[k]);
}

void dvc_imat_scale(dvc_imat_t R, const mpfi_t s, const dvc_imat_t A)
{
    for (long k = 0; k < A->r * A->c; k++) mpfi_mul(R->e[k], s, A->e[k]);
}

/* R = A B over arrays (A m x n, B n x q, row-major) at p bits: sums from
 * 0 in the order of k. At 53 and 64 bits the hardware route (imat_fast.c)
 * gives the same entries; when it is not taken they are made here. */
static void mul_arrays(mpfi_t *R, mpfi_t *A, mpfi_t *B, long m, long n, long q, mpfr_prec_t p)
{
    if (dvc_imat_mul_fast_(R, A, B, m, n, q)) return;
    mpfi_t t, s;
    mpfi_init2(t, p);
    mpfi_init2(s, p);
    for (long i = 0; i < m; i++)
        for (long j = 0; j < q; j++) {
            mpfi_set_ui(s, 0);
            for (long k = 0; k < n; k++) {
                mpfi_mul(t, A[i * n + k], B[k * q + j]);
                mpfi_add(s, s, t);
            }
            mpfi_set(R[i * q + j], s);
        }
    mpfi_clear(t);
    mpfi_clear(s);
}

void dvc_imat_mul(dvc_imat_t R, const dvc_imat_t A, const dvc_imat_t B)
{
    mul_arrays(R->e, A->e, B->e, A->r, A->c, B->c, dvc_imat_prec(R));
}

void dvc_imat_mul_vec(dvc_ivec_t r, const dvc_imat_t A, const dvc_ivec_t x)
{
    mul_arrays(r->e, A->e, x->e, A->r, A->c, 1, dvc_ivec_prec(r));
}

/* Row (byrow=1) or column sums of magnitudes, maximised, rounded up; NaN
 * when an entry has a NaN endpoint (mpfr_max would drop it). */
static void abs_sum_norm(mpfr_t r, const dvc_imat_t A, int byrow)
{
    mpfr_t m, s;
    long outer = byrow ? A->r : A->c, inner = byrow ? A->c : A->r;
    mpfr_init2(m, mpfr_get_prec(r));
    mpfr_init2(s, mpfr_get_prec(r));
    mpfr_set_zero(r, 1);
    for (long i = 0; i < outer; i++) {
        mpfr_set_zero(s, 1);
        for (long j = 0; j < inner; j++) {
            dvc_ival_mag(m, byrow ? dvc_imat_entry(A, i, j) : dvc_imat_entry(A, j, i));
            mpfr_add(s, s, m, MPFR_RNDU);
        }
        if (mpfr_nan_p(s) || mpfr_nan_p(r)) mpfr_set_nan(r);
        else mpfr_max(r, r, s, MPFR_RNDU);
    }
    mpfr_clear(m);
    mpfr_clear(s);
}

void dvc_imat_norm_inf(mpfr_t r, const dvc_imat_t A) { abs_sum_norm(r, A, 1); }
void dvc_imat_norm1(mpfr_t r, const dvc_imat_t A) { abs_sum_norm(r, A, 0); }

void dvc_imat_norm2(mpfr_t r, const dvc_imat_t A)
{
    mpfr_t a, b, f, m;
    mpfr_prec_t p = mpfr_get_prec(r);
    mpfr_inits2(p, a, b, f, m, (mpfr_ptr)0);
    abs_sum_norm(a, A, 1);
    abs_sum_norm(b, A, 0);
    mpfr_mul(a, a, b, MPFR_RNDU);
    mpfr_sqrt(a, a, MPFR_RNDU);
    mpfr_set_zero(f, 1);
    for (long k = 0; k < A->r * A->c; k++) {
        dvc_ival_mag(m, A->e[k]);
        mpfr_sqr(m, m, MPFR_RNDU);
        mpfr_add(f, f, m, MPFR_RNDU);
    }
    mpfr_sqrt(f, f, MPFR_RNDU);
    if (mpfr_nan_p(a) || mpfr_nan_p(f)) mpfr_set_nan(r); /* mpfr_min drops a NaN */
    else mpfr_min(r, a, f, MPFR_RNDU);
    mpfr_clears(a, b, f, m, (mpfr_ptr)0);
}

void dvc_imat_comparison(dvc_imat_t R, const dvc_imat_t A)
{
    mpfr_t m;
    if (A->r * A->c == 0) return; /* R->e[0] does not exist */
    mpfr_init2(m, mpfi_get_prec(R->e[0]));
    for (long i = 0; i < A->r; i++)
        for (long j = 0; j < A->c; j++) {
            if (i == j) {
                dvc_ival_mig(m, dvc_imat_entry(A, i, j));
                mpfi_set_fr(dvc_imat_entry(R, i, j), m);
            } else {
                dvc_ival_mag(m, dvc_imat_entry(A, i, j));
                mpfi_set_fr(dvc_imat_entry(R, i, j), m);
                mpfi_neg(dvc_imat_entry(R, i, j), dvc_imat_entry(R, i, j));
            }
        }
    mpfr_clear(m);
}

void dvc_imat_submatrix(dvc_imat_t R, const dvc_imat_t A, const long *rows, long nr,
                        const long *cols, long nc)
{
    dvc_imat_resize(R, nr, nc);
    for (long i = 0; i < nr; i++)
        for (long j = 0; j < nc; j++)
            mpfi_set(dvc_imat_entry(R, i, j), dvc_imat_entry(A, rows[i], cols[j]));
}

int dvc_imat_contains(const dvc_imat_t A, const dvc_imat_t B)
{
    for (long k = 0; k < A->r * A->c; k++)
        if (!dvc_ival_is_valid(A->e[k]) || !dvc_ival_is_valid(B->e[k]) || /* mpfr_cmp(NaN) = 0 */
            mpfr_cmp(&A->e[k]->left, &B->e[k]->left) > 0 ||
            mpfr_cmp(&A->e[k]->right, &B->e[k]->right) < 0)
            return 0;
    return 1;
}

void dvc_imat_fprint(FILE *f, const dvc_imat_t A, int digits)
{
    for (long i = 0; i < A->r; i++) {
        for (long j = 0; j < A->c; j++) {
            char *s = dvc_ival_str(dvc_imat_entry(A, i, j), digits);
            fprintf(f, "%s%s", j ? "  " : "  ", s ? s : "?");
            free(s);
        }
        fputc('\n', f);
    }
}
