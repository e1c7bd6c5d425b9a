/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certified matrix classes (docs/mclass.md). Every "proven" holds for every
 * matrix in the interval matrix [M]; every "disproven" means the property
 * fails for every matrix in [M] (e.g. a principal minor enclosed in
 * (-inf, 0]). Everything else is "not proven". */
#include "dvicert/mclass.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fprnd.h"
#include "imat_dd.h"
#include "mclass_internal.h"
#include "rounding.h"

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) abort();
    return p;
}

static mpfr_prec_t mat_prec(const dvc_imat_t M)
{
    mpfr_prec_t p = 2;
    for (long q = 0; q < M->r * M->c; q++)
        if (mpfi_get_prec(M->e[q]) > p) p = mpfi_get_prec(M->e[q]);
    return p < DVC_DEFAULT_PREC ? DVC_DEFAULT_PREC : p;
}

/* ---- elementary tests --------------------------------------------------- */

/* 1: every off-diagonal entry <= 0 for every matrix; -1: some off-diagonal
 * entry > 0 for every matrix; 0: undecided. */
static int test_z(const dvc_imat_t M)
{
    int all = 1;
    for (long i = 0; i < M->r; i++)
        for (long j = 0; j < M->c; j++) {
            if (i == j) continue;
            const mpfi_t *e = &dvc_imat_entry(M, i, j);
            if (dvc_ival_is_pos(*e)) return -1;
            if (!dvc_ival_is_nonpos(*e)) all = 0;
        }
    return all;
}

/* 1: M_ij and M_ji are the same interval for all i, j; -1: some pair is
 * disjoint (no member is symmetric); 0 otherwise. */
static int test_sym(const dvc_imat_t M)
{
    int all = 1;
    for (long i = 0; i < M->r; i++)
        for (long j = 0; j < i; j++) {
            const mpfi_t *a = &dvc_imat_entry(M, i, j), *b = &dvc_imat_entry(M, j, i);
            if (mpfr_cmp(&(*a)->right, &(*b)->left) < 0 || mpfr_cmp(&(*b)->right, &(*a)->left) < 0)
                return -1;
            if (!mpfr_equal_p(&(*a)->left, &(*b)->left) || !mpfr_equal_p(&(*a)->right, &(*b)->right))
                all = 0;
        }
    return all;
}

/* Proves that the Z-matrix C (every member of [C] a Z-matrix, as checked by
 * the caller) is a nonsingular M-matrix: find v > 0 (binary64, exact) with
 * lower bound of [C] v > 0 (MPFI). Predictor v solves mid(C) v = e. */
static int semipositive(const dvc_imat_t C)
{
    long n = C->r;
    int ok = 1;
    double *a = xmalloc((size_t)(n * n) * sizeof(double)), *v = xmalloc((size_t)n * sizeof(double));
    long *piv = xmalloc((size_t)n * sizeof(long));
    mpfi_t s, t;
    dvc_imat_mid_d(a, C);
    for (long i = 0; i < n; i++) v[i] = 1.0;
    if (n > 0 && dvc_fp_lu(a, piv, n) != 0) ok = 0;
    if (ok && n > 0) dvc_fp_lu_solve(a, piv, n, v);
    for (long i = 0; i < n && ok; i++)
        if (!(v[i] > 0) || !isfinite(v[i])) ok = 0;
    mpfi_init2(s, mat_prec(C));
    mpfi_init2(t, mat_prec(C));
    for (long i = 0; i < n && ok; i++) {
        mpfi_set_ui(s, 0);
        for (long j = 0; j < n; j++) {
            mpfi_mul_d(t, dvc_imat_entry(C, i, j), v[j]);
            mpfi_add(s, s, t);
        }
        if (!dvc_ival_is_pos(s)) ok = 0;
    }
    mpfi_clear(s);
    mpfi_clear(t);
    free(a);
    free(v);
    free(piv);
    return ok;
}

/* Positive diagonal proven (1), some diagonal entry <= 0 proven (-1). */
static int test_posdiag(const dvc_imat_t M)
{
    int all = 1;
    for (long i = 0; i < M->r; i++) {
        if (dvc_ival_is_nonpos(dvc_imat_entry(M, i, i))) return -1;
        if (!dvc_ival_is_pos(dvc_imat_entry(M, i, i))) all = 0;
    }
    return all;
}

/* H with positive diagonal: diagonal > 0 and the comparison matrix <M>
 * (a point-valued Z-matrix below <M'> for every M' in [M]) is an M-matrix:
 * <M'> v >= <M> v > 0. */
static int prove_hplus(const dvc_imat_t M)
{
    dvc_imat_t C;
    int ok;
    if (test_posdiag(M) != 1) return 0;
    dvc_imat_init2(C, M->r, M->c, mat_prec(M));
    dvc_imat_comparison(C, M);
    ok = semipositive(C);
    dvc_imat_clear(C);
    return ok;
}

/* M + M^T SPD for every M in [M]; (M+M^T)_ij and _ji are the same sums. */
static int prove_pd(const dvc_imat_t M)
{
    dvc_imat_t S;
    int ok;
    dvc_imat_init2(S, M->r, M->c, mat_prec(M));
    for (long i = 0; i < M->r; i++)
        for (long j = 0; j < M->c; j++)
            mpfi_add(dvc_imat_entry(S, i, j), dvc_imat_entry(M, i, j), dvc_imat_entry(M, j, i));
    ok = dvc_imat_cholesky_spd(S) == DVC_OK;
    dvc_imat_clear(S);
    dvc_error_reset();
    return ok;
}

/* ---- the same tests in binary64 with directed rounding -------------------
 * Each is O(m^3) flops on doubles (microseconds at m = 20, where the MPFI
 * loops above cost tens of microseconds). They run on an outward binary64
 * enclosure [lo, hi] of [M]; when that enclosure is exact and M has 53-bit
 * entries they do the same operations in the same order and rounding
 * directions as the MPFI versions (identical verdicts on point matrices),
 * otherwise a failure falls back to the MPFI version at the precision of
 * M. */

typedef struct {
    long m;
    int exact;        /* 1: lo, hi are the endpoints; 0: rounded outward; -1: unusable */
    int point;        /* lo == hi */
    int owned;        /* lo (and hi) allocated here */
    mpfr_prec_t prec; /* mat_prec(M) */
    double *lo, *hi;
} ddview;

static void ddview_init(ddview *d, const dvc_imat_t M)
{
    d->m = M->r == M->c ? M->r : 0; /* check_input_dd refuses the rest */
    d->prec = mat_prec(M);
    d->lo = xmalloc((size_t)(2 * d->m * d->m) * sizeof(double));
    d->hi = d->lo + d->m * d->m;
    d->exact = M->r == M->c ? dvc_imat_outward_dd_(d->lo, d->hi, M) : -1;
    d->point = d->exact == 1 && memcmp(d->lo, d->hi, (size_t)(d->m * d->m) * sizeof(double)) == 0;
    d->owned = 1;
}

/* A view on doubles the caller converted already (not owned). */
static void ddview_borrow(ddview *d, const dvc_imat_t M, const double *lohi, int exact)
{
    d->m = M->r;
    d->prec = mat_prec(M);
    d->lo = (double *)lohi;
    d->hi = d->lo + d->m * d->m;
    d->exact = exact;
    d->point = exact == 1 && memcmp(d->lo, d->hi, (size_t)(d->m * d->m) * sizeof(double)) == 0;
    d->owned = 0;
}

static void ddview_clear(ddview *d)
{
    if (d->owned) free(d->lo);
}

/* check_input, with the finiteness already known when the view is usable */
static dvc_status check_input_dd(const dvc_imat_t M, const ddview *d, const char *fn)
{
    if (M->r != M->c)
        return dvc_error(DVC_ERR_INPUT, "%s: matrix is %ld x %ld, not square", fn, M->r, M->c);
    if (d->exact < 0 && !dvc_imat_is_finite(M))
        return dvc_error(DVC_ERR_INPUT, "%s: matrix has a non-finite entry", fn);
    return DVC_OK;
}

/* The MPFI versions could still succeed where binary64 failed. */
static int dd_final(const ddview *d) { return d->point && d->prec <= 53; }

/* C v > 0 for a v > 0 proven by sums of products of lower bounds rounded
 * downward: with v > 0 each rounded product is <= clo_ij v_j <= c_ij v_j.
 * v = e first (no factorization), else v solving mid v = e in
 * round-to-nearest (exact doubles). */
/* C e > 0 (rows strictly diagonally dominant in the comparison sense):
 * the O(n^2) case of semipositive_dd, tried first. */
static int rowsums_pos_dd(const double *clo, long n)
{
    int ok = 1, saved = dvc_rnd_save();
    dvc_rnd_set(FE_DOWNWARD);
    for (long i = 0; i < n && ok; i++) {
        double s = 0;
        for (long j = 0; j < n; j++) s += clo[i * n + j];
        if (!(s > 0)) ok = 0;
    }
    dvc_rnd_restore(saved);
    return ok;
}

static int semipositive_dd(const double *clo, const double *mid, long n)
{
    int ok = 1;
    if (rowsums_pos_dd(clo, n)) return 1;
    double *a = xmalloc((size_t)(n * n + n) * sizeof(double)), *v = a + n * n;
    long *piv = xmalloc((size_t)n * sizeof(long));
    memcpy(a, mid, (size_t)(n * n) * sizeof(double));
    for (long i = 0; i < n; i++) v[i] = 1.0;
    if (dvc_fp_lu(a, piv, n) != 0) ok = 0;
    if (ok) dvc_fp_lu_solve(a, piv, n, v);
    for (long i = 0; i < n && ok; i++)
        if (!(v[i] > 0) || !isfinite(v[i])) ok = 0;
    if (ok) {
        int saved = dvc_rnd_save();
        dvc_rnd_set(FE_DOWNWARD);
        for (long i = 0; i < n && ok; i++) {
            double s = 0;
            for (long j = 0; j < n; j++) s += clo[i * n + j] * v[j];
            if (!(s > 0)) ok = 0;
        }
        dvc_rnd_restore(saved);
    }
    free(a);
    free(piv);
    return ok;
}

static int prove_m_dd(const dvc_imat_t M, const ddview *d)
{
    long n = d->m, nn = n * n;
    int ok;
    if (test_z(M) != 1) return 0;
    if (d->exact < 0) return semipositive(M);
    double *mid = xmalloc((size_t)nn * sizeof(double));
    for (long t = 0; t < nn; t++) mid[t] = d->lo[t] == d->hi[t] ? d->lo[t] : 0.5 * d->lo[t] + 0.5 * d->hi[t];
    ok = semipositive_dd(d->lo, mid, n);
    free(mid);
    return ok || dd_final(d) ? ok : semipositive(M);
}

/* The comparison matrix below that of every member, in doubles:
 * diagonal lo (> 0 checked by the caller), off-diagonal -max(|lo|, |hi|);
 * all exact operations on the outward endpoints. */
static int prove_hplus_dd(const dvc_imat_t M, const ddview *d)
{
    long n = d->m, nn = n * n;
    int ok;
    if (test_posdiag(M) != 1) return 0;
    if (d->exact < 0) return prove_hplus(M);
    double *c = xmalloc((size_t)nn * sizeof(double));
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            long t = i * n + j;
            c[t] = i == j ? d->lo[t] : -fmax(fabs(d->lo[t]), fabs(d->hi[t]));
        }
    ok = semipositive_dd(c, c, n);
    free(c);
    return ok || dd_final(d) ? ok : prove_hplus(M);
}

/* Every symmetric matrix in [lo, hi] (symmetric bounds) SPD: 1 proven, 0
 * not proven, 2 not proven here but dvc_imat_cholesky_spd may still prove
 * it (its interval Cholesky, tried below 5 x 5 and above 53 bits). */
static int spd_dd(const double *lo, const double *hi, long n, const ddview *d)
{
    double margin;
    for (long i = 0; i < n; i++)
        if (!(lo[i * n + i] > 0)) return 0;
    if (dvc_fp_verify_spd(n, lo, hi, &margin) == DVC_FP_OK) return 1;
    return dd_final(d) && n > 4 ? 0 : 2;
}

static int prove_pd_dd(const dvc_imat_t M, const ddview *d)
{
    long n = d->m, nn = n * n;
    int r;
    if (d->exact < 0) return prove_pd(M);
    double *s = xmalloc((size_t)(2 * nn) * sizeof(double)), *sh = s + nn;
    int saved = dvc_rnd_save();
    /* (M + M^T)_ij and _ji are the same rounded sums: symmetric bounds */
    dvc_rnd_set(FE_DOWNWARD);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) s[i * n + j] = d->lo[i * n + j] + d->lo[j * n + i];
    dvc_rnd_set(FE_UPWARD);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) sh[i * n + j] = d->hi[i * n + j] + d->hi[j * n + i];
    dvc_rnd_restore(saved);
    r = spd_dd(s, sh, n, d);
    free(s);
    return r == 2 ? prove_pd(M) : r;
}

/* ---- principal-minor enumeration ------------------------------------------
 * M is P iff m11 > 0, M[2:,2:] is P and the Schur complement M/m11 is P
 * (the principal submatrices of M/m11 are the Schur complements
 * M[{1} u b] / m11, with det M[{1} u b] = m11 det (M/m11)[b]). Unrolled,
 * every nonempty index set a = {i1 < ... < ik} is visited once, at the node
 * where ik is added, and the pivot tested there is
 *     det M[a] / det M[a \ {ik}],
 * the previous factor being proven > 0 on the path. So all pivots > 0 <=>
 * all 2^m - 1 principal minors > 0, and a pivot <= 0 exhibits a minor
 * <= 0. "Skip index k" costs nothing (trailing block of the same array);
 * "add index k" costs one Schur complement, so the work is about
 * 2^m * sum_r r^2 / 2^r ~ 6 * 2^m interval multiply-adds. Interval Schur
 * complements of the members of [M] contain the exact ones, so the
 * proof covers every member. */

typedef struct {
    long m;
    mpfi_t **buf; /* buf[d]: m x m workspace of recursion depth d (includes) */
    mpfi_t t;
    unsigned long bad_mask; /* set on a decision other than "all > 0" */
    int verdict;            /* 1 all > 0, -1 a minor <= 0, 0 undecided */
} penum;

/* Node: T (stride m) whose trailing block from row/col o holds the current
 * Schur complement; the remaining original indices are k..m-1; mask holds
 * the included ones. */
static void penum_rec(penum *P, int depth, mpfi_t *T, long o, long k, unsigned long mask)
{
    long m = P->m;
    for (; k < m && P->verdict == 1; k++, o++) {
        mpfi_t *piv = &T[o * m + o];
        unsigned long a = mask | (1UL << k);
        if (!dvc_ival_is_pos(*piv)) {
            P->verdict = dvc_ival_is_nonpos(*piv) ? -1 : 0;
            P->bad_mask = a;
            return;
        }
        if (k + 1 < m) {
            /* include k: Schur complement of the trailing block */
            mpfi_t *S = P->buf[depth + 1];
            long r = m - k - 1;
            for (long i = 0; i < r; i++) {
                mpfi_div(P->t, T[(o + 1 + i) * m + o], *piv);
                for (long j = 0; j < r; j++) {
                    mpfi_t *dst = &S[i * m + j];
                    mpfi_mul(*dst, P->t, T[o * m + o + 1 + j]);
                    mpfi_sub(*dst, T[(o + 1 + i) * m + o + 1 + j], *dst);
                }
            }
            penum_rec(P, depth + 1, S, 0, k + 1, a);
        }
        /* then skip k: the loop moves to the trailing block */
    }
}

static int penum_run(const dvc_imat_t M, mpfr_prec_t prec, unsigned long *bad)
{
    penum P;
    long m = M->r;
    P.m = m;
    P.verdict = 1;
    P.bad_mask = 0;
    P.buf = xmalloc((size_t)(m + 1) * sizeof(mpfi_t *));
    for (long d = 0; d <= m; d++) {
        P.buf[d] = xmalloc((size_t)(m * m) * sizeof(mpfi_t));
        for (long q = 0; q < m * m; q++) mpfi_init2(P.buf[d][q], prec);
    }
    mpfi_init2(P.t, prec);
    for (long q = 0; q < m * m; q++) mpfi_set(P.buf[0][q], M->e[q]);
    if (m > 0) penum_rec(&P, 0, P.buf[0], 0, 0, 0);
    for (long d = 0; d <= m; d++) {
        for (long q = 0; q < m * m; q++) mpfi_clear(P.buf[d][q]);
        free(P.buf[d]);
    }
    free(P.buf);
    mpfi_clear(P.t);
    *bad = P.bad_mask;
    return P.verdict;
}

static void mask_str(char *buf, size_t len, unsigned long mask, long m)
{
    size_t u = 0;
    int first = 1;
    u += (size_t)snprintf(buf + u, len - u, "{");
    for (long i = 0; i < m && u < len; i++)
        if (mask & (1UL << i)) {
            u += (size_t)snprintf(buf + u, len - u, first ? "%ld" : ",%ld", i + 1);
            first = 0;
        }
    if (u < len) snprintf(buf + u, len - u, "}");
}

/* Quick disproof for any size: 1x1 and 2x2 principal minors. */
static int small_minor_disproof(const dvc_imat_t M, unsigned long *bad, long *bi, long *bj)
{
    long m = M->r;
    int found = 0;
    mpfi_t d, t;
    mpfi_init2(d, mat_prec(M));
    mpfi_init2(t, mat_prec(M));
    for (long i = 0; i < m && !found; i++)
        if (dvc_ival_is_nonpos(dvc_imat_entry(M, i, i))) {
            found = 1;
            *bi = i;
            *bj = -1;
        }
    for (long i = 0; i < m && !found; i++)
        for (long j = i + 1; j < m && !found; j++) {
            mpfi_mul(d, dvc_imat_entry(M, i, i), dvc_imat_entry(M, j, j));
            mpfi_mul(t, dvc_imat_entry(M, i, j), dvc_imat_entry(M, j, i));
            mpfi_sub(d, d, t);
            if (dvc_ival_is_nonpos(d)) {
                found = 1;
                *bi = i;
                *bj = j;
            }
        }
    mpfi_clear(d);
    mpfi_clear(t);
    if (found && m <= 64) *bad = (1UL << *bi) | (*bj >= 0 ? 1UL << *bj : 0);
    return found;
}

/* Exact sign of the principal minor M[a, a] of a point matrix (entries
 * converted exactly to rationals): decides the minors that are exactly 0,
 * which no interval computation can prove <= 0. Returns -1, 0 or 1. */
static int exact_minor_sign(const dvc_imat_t M, unsigned long mask)
{
    long m = M->r, idx[64], k = 0;
    for (long i = 0; i < m; i++)
        if (mask & (1UL << i)) idx[k++] = i;
    mpq_t *A = xmalloc((size_t)(k * k) * sizeof(mpq_t));
    mpq_t f, t;
    int sign = 1;
    mpq_init(f);
    mpq_init(t);
    for (long i = 0; i < k; i++)
        for (long j = 0; j < k; j++) {
            mpq_init(A[i * k + j]);
            mpfr_get_q(A[i * k + j], &dvc_imat_entry(M, idx[i], idx[j])->left);
        }
    for (long c = 0; c < k && sign != 0; c++) {
        long p = -1;
        for (long i = c; i < k && p < 0; i++)
            if (mpq_sgn(A[i * k + c]) != 0) p = i;
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
            if (mpq_sgn(A[i * k + c]) == 0) continue;
            mpq_div(f, A[i * k + c], A[c * k + c]);
            for (long j = c; j < k; j++) {
                mpq_mul(t, f, A[c * k + j]);
                mpq_sub(A[i * k + j], A[i * k + j], t);
            }
        }
    }
    for (long q = 0; q < k * k; q++) mpq_clear(A[q]);
    free(A);
    mpq_clear(f);
    mpq_clear(t);
    return sign;
}

/* Fallback for interval matrices, where interval Schur complements can
 * blow up (wrapping): every principal submatrix [M]_aa is convex, hence
 * connected, so if each is proven regular (binary64 Krawczyk test, every
 * member nonsingular) its determinant has one sign on it, the sign at the
 * midpoint matrix, a member of [M]. The midpoint's minors are proven > 0 by
 * the enumeration on the point matrix. Returns 1 proven, 0 not (bad = the
 * failing index set, *mid_not_p = 1 when the midpoint itself failed). */
static int p_by_regularity(const dvc_imat_t M, unsigned long *bad, int *mid_not_p)
{
    long m = M->r, idx[64];
    int ok = 1;
    dvc_imat_t C;
    *mid_not_p = 0;
    dvc_imat_init2(C, m, m, mat_prec(M));
    for (long q = 0; q < m * m; q++) {
        mpfr_t t;
        mpfr_init2(t, mat_prec(M));
        mpfi_mid(t, M->e[q]);
        mpfi_set_fr(C->e[q], t);
        mpfr_clear(t);
    }
    if (penum_run(C, mat_prec(M), bad) != 1) {
        *mid_not_p = 1;
        dvc_imat_clear(C);
        return 0;
    }
    dvc_imat_clear(C);
    double *lo = xmalloc((size_t)(m * m) * sizeof(double)), *hi = xmalloc((size_t)(m * m) * sizeof(double));
    double *sl = xmalloc((size_t)(m * m) * sizeof(double)), *sh = xmalloc((size_t)(m * m) * sizeof(double));
    double zero[64] = {0}, xl[64], xh[64], c;
    for (long q = 0; q < m * m; q++) { /* outward, at any precision */
        lo[q] = mpfr_get_d(&M->e[q]->left, MPFR_RNDD);
        hi[q] = mpfr_get_d(&M->e[q]->right, MPFR_RNDU);
    }
    for (unsigned long a = 1; a < (1UL << m) && ok; a++) {
        long k = 0;
        for (long i = 0; i < m; i++)
            if (a & (1UL << i)) idx[k++] = i;
        for (long i = 0; i < k; i++)
            for (long j = 0; j < k; j++) {
                sl[i * k + j] = lo[idx[i] * m + idx[j]];
                sh[i * k + j] = hi[idx[i] * m + idx[j]];
            }
        if (dvc_fp_verify_solve(k, 1, sl, sh, zero, zero, xl, xh, &c) != DVC_FP_OK) {
            ok = 0;
            *bad = a;
        }
    }
    free(lo);
    free(hi);
    free(sl);
    free(sh);
    return ok;
}

/* Core of the P test. Returns 1 proven (how set), -1 disproven, 0 not
 * proven; msg receives the explanation in the latter cases. */
static int prove_p_core(const dvc_imat_t M, const ddview *d, const char **how, char *msg, size_t len)
{
    long m = M->r, bi = -1, bj = -1;
    unsigned long bad = 0;
    char set[160];
    if (m == 0) {
        *how = "empty matrix";
        return 1;
    }
    if (prove_m_dd(M, d)) {
        *how = "M-matrix (Z-matrix with a verified v > 0, M v > 0)";
        return 1;
    }
    if (prove_hplus_dd(M, d)) {
        *how = "H-matrix with positive diagonal (comparison matrix is an M-matrix)";
        return 1;
    }
    if (prove_pd_dd(M, d)) {
        *how = "positive definite (M + M^T verified SPD)";
        return 1;
    }
    if (m <= DVC_MCLASS_P_ENUM_MAX) {
        /* Retry at higher precision only when a minor was undecided. */
        mpfr_prec_t p = mat_prec(M), used = p;
        int v = 0, point = dvc_imat_is_point(M), mid_not_p = 0;
        for (int attempt = 0; attempt < (point ? 3 : 1); attempt++, p *= 2) {
            used = p;
            v = penum_run(M, p, &bad);
            if (v != 0) break;
        }
        if (v == 0 && point && exact_minor_sign(M, bad) <= 0) v = -1;
        if (v == 0 && !point) {
            if (p_by_regularity(M, &bad, &mid_not_p)) {
                *how = "enumeration of all principal minors (minors of mid(M) > 0 and every "
                       "principal submatrix of [M] verified regular)";
                return 1;
            }
            mask_str(set, sizeof set, bad, m);
            snprintf(msg, len,
                     mid_not_p ? "could not prove [M] is a P-matrix: the principal minor of rows %s "
                                 "of the midpoint matrix is not proven > 0"
                               : "could not prove [M] is a P-matrix: the principal submatrix of rows "
                                 "%s could not be proven regular for every matrix in [M] (M, H, PD "
                                 "tests failed too)",
                     set);
            return 0;
        }
        mask_str(set, sizeof set, bad, m);
        if (v == 1) {
            *how = "enumeration of all principal minors";
            return 1;
        }
        if (v == -1) {
            snprintf(msg, len, "principal minor of rows %s is <= 0: M is not a P-matrix", set);
            return -1;
        }
        snprintf(msg, len,
                 "could not prove M is a P-matrix: the sign of the principal minor of rows %s "
                 "could not be decided up to %ld bits (M, H, PD tests failed too)",
                 set, (long)used);
        return 0;
    }
    if (small_minor_disproof(M, &bad, &bi, &bj)) {
        if (bj < 0)
            snprintf(msg, len, "principal minor of rows {%ld} is <= 0: M is not a P-matrix", bi + 1);
        else
            snprintf(msg, len, "principal minor of rows {%ld,%ld} is <= 0: M is not a P-matrix",
                     bi + 1, bj + 1);
        return -1;
    }
    snprintf(msg, len,
             "could not prove M is a P-matrix (m = %ld too large for enumeration, limit %d, and "
             "the M-matrix, H-matrix and positive-definiteness tests failed)",
             m, DVC_MCLASS_P_ENUM_MAX);
    return 0;
}

/* ---- proofs remembered per matrix --------------------------------------
 * Keyed by the exact endpoints (as doubles: only matrices whose endpoints
 * are binary64 numbers are cached) and the precision, compared in full:
 * a hit is the same interval matrix, so the stored verdict is a proof for
 * it. Per thread, so no locking. */

#define PCACHE_N 4

typedef struct {
    long m; /* 0: empty slot */
    mpfr_prec_t prec;
    double *key; /* owned: lo then hi, 2 m^2 doubles */
    int p_done, p_verdict;
    const char *p_how;
    char p_msg[400];
    int cls_done;
    dvc_mclass_result cls;
} pcache_entry;

static _Thread_local pcache_entry pcache[PCACHE_N];
static _Thread_local int pcache_next;
static _Thread_local unsigned long pcache_hits, pcache_misses;

static pcache_entry *pcache_find(const ddview *d)
{
    if (d->exact != 1 || d->m > DVC_MCLASS_CACHE_MAX_M) return NULL;
    for (int k = 0; k < PCACHE_N; k++) {
        pcache_entry *e = &pcache[k];
        if (e->m == d->m && e->prec == d->prec &&
            memcmp(e->key, d->lo, (size_t)(2 * d->m * d->m) * sizeof(double)) == 0)
            return e;
    }
    return NULL;
}

/* A slot for d (oldest replaced), or NULL when d is not cacheable. */
static pcache_entry *pcache_add(const ddview *d)
{
    if (d->exact != 1 || d->m > DVC_MCLASS_CACHE_MAX_M) return NULL;
    pcache_entry *e = &pcache[pcache_next];
    size_t len = (size_t)(2 * d->m * d->m) * sizeof(double);
    pcache_next = (pcache_next + 1) % PCACHE_N;
    free(e->key);
    memset(e, 0, sizeof *e);
    e->key = xmalloc(len);
    memcpy(e->key, d->lo, len);
    e->m = d->m;
    e->prec = d->prec;
    return e;
}

void dvc_mclass_cache_clear(void)
{
    for (int k = 0; k < PCACHE_N; k++) {
        free(pcache[k].key);
        memset(&pcache[k], 0, sizeof pcache[k]);
    }
    pcache_next = 0;
}

void dvc_mclass_cache_stats(unsigned long *hits, unsigned long *misses)
{
    if (hits) *hits = pcache_hits;
    if (misses) *misses = pcache_misses;
}

/* The exiting thread's cache (normally the main thread's) at exit or
 * unload, so that leak checkers see nothing. */
__attribute__((destructor)) static void pcache_at_exit(void) { dvc_mclass_cache_clear(); }

static dvc_status prove_p_view(const dvc_imat_t M, ddview *d, const char **how)
{
    const char *h = NULL;
    char msg[400];
    int v;
    pcache_entry *e;
    dvc_status st = check_input_dd(M, d, "dvc_mclass_prove_p");
    if (st != DVC_OK) return st;
    e = pcache_find(d);
    if (e && e->p_done) {
        pcache_hits++;
        v = e->p_verdict;
        h = e->p_how;
        snprintf(msg, sizeof msg, "%s", e->p_msg);
    } else {
        pcache_misses++;
        msg[0] = '\0';
        v = prove_p_core(M, d, &h, msg, sizeof msg);
        if (e == NULL) e = pcache_add(d);
        if (e) {
            e->p_done = 1;
            e->p_verdict = v;
            e->p_how = h;
            snprintf(e->p_msg, sizeof e->p_msg, "%s", msg);
        }
    }
    if (how) *how = v == 1 ? h : NULL;
    if (v == 1) return DVC_OK;
    return dvc_error(DVC_NOT_CERTIFIED, "%s", msg);
}

static dvc_status dvc_mclass_prove_p_rn(const dvc_imat_t M, const char **how)
{
    ddview d;
    dvc_status st;
    ddview_init(&d, M);
    st = prove_p_view(M, &d, how);
    ddview_clear(&d);
    return st;
}

dvc_status dvc_mclass_prove_p_dd_(const dvc_imat_t M, const double *lohi, int exact, const char **how)
{
    int saved = dvc_rnd_save();
    ddview d;
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    ddview_borrow(&d, M, lohi, exact);
    st = prove_p_view(M, &d, how);
    dvc_rnd_restore(saved);
    return st;
}

/* pe (may be NULL): the cache entry of M, whose P verdict is reused. */
static void classify_core(dvc_mclass_result *res, const dvc_imat_t M, const ddview *d, const pcache_entry *pe)
{
    char msg[400];
    const char *how = NULL;
    unsigned pr = 0, dis = 0;
    int z = test_z(M), sym = test_sym(M), pdiag = test_posdiag(M);
    if (z == 1) pr |= DVC_MCLASS_Z;
    if (z == -1) dis |= DVC_MCLASS_Z | DVC_MCLASS_M;
    if (sym == 1) pr |= DVC_MCLASS_SYM;
    if (sym == -1) dis |= DVC_MCLASS_SYM | DVC_MCLASS_SPD;
    if (pdiag == -1) /* e_i^T M e_i = M_ii <= 0 */
        dis |= DVC_MCLASS_M | DVC_MCLASS_H | DVC_MCLASS_SPD | DVC_MCLASS_PD | DVC_MCLASS_P;
    if (z == 1 && prove_m_dd(M, d)) pr |= DVC_MCLASS_M | DVC_MCLASS_H;
    if (!(pr & DVC_MCLASS_H) && prove_hplus_dd(M, d)) pr |= DVC_MCLASS_H;
    if (sym == 1 && pdiag == 1) {
        int r = d->exact < 0 ? 2 : spd_dd(d->lo, d->hi, d->m, d);
        if (r == 2) {
            r = dvc_imat_cholesky_spd(M) == DVC_OK;
            dvc_error_reset();
        }
        if (r == 1) pr |= DVC_MCLASS_SPD | DVC_MCLASS_PD;
    }
    if (!(pr & DVC_MCLASS_PD) && pdiag == 1 && prove_pd_dd(M, d)) pr |= DVC_MCLASS_PD;
    res->p_reason = NULL;
    res->p_detail[0] = '\0';
    if (pdiag == -1)
        for (long i = 0; i < M->r; i++)
            if (dvc_ival_is_nonpos(dvc_imat_entry(M, i, i))) {
                snprintf(res->p_detail, sizeof res->p_detail,
                         "principal minor of rows {%ld} is <= 0: M is not a P-matrix", i + 1);
                break;
            }
    if (pr & (DVC_MCLASS_M | DVC_MCLASS_H | DVC_MCLASS_PD)) {
        pr |= DVC_MCLASS_P;
        res->p_reason = (pr & DVC_MCLASS_M) ? "M-matrix (Z-matrix with a verified v > 0, M v > 0)"
                        : (pr & DVC_MCLASS_H)
                            ? "H-matrix with positive diagonal (comparison matrix is an M-matrix)"
                            : "positive definite (M + M^T verified SPD)";
    } else if (!(dis & DVC_MCLASS_P)) {
        int v;
        if (pe && pe->p_done) { /* proven (or not) already: not again */
            v = pe->p_verdict;
            how = pe->p_how;
            snprintf(msg, sizeof msg, "%s", pe->p_msg);
        } else {
            v = prove_p_core(M, d, &how, msg, sizeof msg);
        }
        if (v != 1) snprintf(res->p_detail, sizeof res->p_detail, "%s", msg);
        if (v == 1) {
            pr |= DVC_MCLASS_P;
            res->p_reason = how;
        } else if (v == -1) {
            /* Each of M, H+, SPD, PD implies P. */
            dis |= DVC_MCLASS_P | DVC_MCLASS_M | DVC_MCLASS_H | DVC_MCLASS_SPD | DVC_MCLASS_PD;
        }
    }
    dvc_error_reset();
    res->proven = pr;
    res->disproven = dis & ~pr;
}

static dvc_status dvc_mclass_classify_rn(dvc_mclass_result *res, const dvc_imat_t M)
{
    ddview d;
    pcache_entry *e;
    dvc_status st;
    ddview_init(&d, M);
    st = check_input_dd(M, &d, "dvc_mclass_classify");
    if (st != DVC_OK) {
        ddview_clear(&d);
        return st;
    }
    e = pcache_find(&d);
    if (e && e->cls_done) {
        pcache_hits++;
        *res = e->cls;
    } else {
        pcache_misses++;
        classify_core(res, M, &d, e);
        if (e == NULL) e = pcache_add(&d);
        if (e) {
            e->cls_done = 1;
            e->cls = *res;
        }
    }
    ddview_clear(&d);
    return DVC_OK;
}

const char *dvc_mclass_names(unsigned flags)
{
    static _Thread_local char buf[64];
    static const char *const names[] = {"Z", "M", "H", "SYM", "SPD", "PD", "P"};
    size_t u = 0;
    buf[0] = '\0';
    for (int b = 0; b < 7; b++)
        if (flags & (1u << b)) u += (size_t)snprintf(buf + u, sizeof buf - u, "%s%s", u ? ", " : "", names[b]);
    return buf;
}

dvc_status dvc_mclass_prove_p(const dvc_imat_t M, const char **how)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = dvc_mclass_prove_p_rn(M, how);
    dvc_rnd_restore(saved);
    return st;
}

dvc_status dvc_mclass_classify(dvc_mclass_result *res, const dvc_imat_t M)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = dvc_mclass_classify_rn(res, M);
    dvc_rnd_restore(saved);
    return st;
}
