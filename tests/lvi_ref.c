/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* High-precision reference solver for the LVI tests: Gaussian elimination
 * in MPFR on the reduced system of a piece, plus exhaustive enumeration
 * and Murty pivoting. Deliberately independent of src/lvi_*.c. */
#include "lvi_ref.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
    long m, k;
    mpfr_t *A, *b, *z, tmp, tol, sc;
    long *idx;
} ref_ws;

static void ws_init(ref_ws *w, long m, mpfr_prec_t prec)
{
    w->m = m;
    w->A = malloc((size_t)(m * m + 1) * sizeof(mpfr_t));
    w->b = malloc((size_t)(m + 1) * sizeof(mpfr_t));
    w->z = malloc((size_t)(m + 1) * sizeof(mpfr_t));
    w->idx = malloc((size_t)(m + 1) * sizeof(long));
    for (long t = 0; t < m * m; t++) mpfr_init2(w->A[t], prec);
    for (long t = 0; t < m; t++) {
        mpfr_init2(w->b[t], prec);
        mpfr_init2(w->z[t], prec);
    }
    mpfr_inits2(prec, w->tmp, w->tol, w->sc, (mpfr_ptr)0);
}

static void ws_clear(ref_ws *w)
{
    for (long t = 0; t < w->m * w->m; t++) mpfr_clear(w->A[t]);
    for (long t = 0; t < w->m; t++) {
        mpfr_clear(w->b[t]);
        mpfr_clear(w->z[t]);
    }
    mpfr_clears(w->tmp, w->tol, w->sc, (mpfr_ptr)0);
    free(w->A);
    free(w->b);
    free(w->z);
    free(w->idx);
}

/* Solve the piece into y; 0 when the reduced matrix is singular. z <- My+q. */
static int solve_piece(ref_ws *w, mpfr_t *y, const int *act, const double *M, const double *q,
                       const double *l, const double *u)
{
    long m = w->m, k = 0;
    for (long i = 0; i < m; i++) {
        if (act[i] < 0) mpfr_set_d(y[i], l[i], MPFR_RNDN);
        else if (act[i] > 0) mpfr_set_d(y[i], u[i], MPFR_RNDN);
        else w->idx[k++] = i;
    }
    for (long a = 0; a < k; a++) {
        long i = w->idx[a];
        mpfr_set_d(w->b[a], -q[i], MPFR_RNDN);
        for (long j = 0; j < m; j++) {
            if (act[j] == 0) continue;
            mpfr_mul_d(w->tmp, y[j], M[i * m + j], MPFR_RNDN);
            mpfr_sub(w->b[a], w->b[a], w->tmp, MPFR_RNDN);
        }
        for (long c = 0; c < k; c++) mpfr_set_d(w->A[a * k + c], M[i * m + w->idx[c]], MPFR_RNDN);
    }
    /* Gaussian elimination with partial pivoting */
    for (long c = 0; c < k; c++) {
        long p = c;
        for (long r = c + 1; r < k; r++)
            if (mpfr_cmpabs(w->A[r * k + c], w->A[p * k + c]) > 0) p = r;
        if (mpfr_zero_p(w->A[p * k + c])) return 0;
        if (p != c) {
            for (long j = 0; j < k; j++) mpfr_swap(w->A[c * k + j], w->A[p * k + j]);
            mpfr_swap(w->b[c], w->b[p]);
        }
        for (long r = c + 1; r < k; r++) {
            mpfr_div(w->sc, w->A[r * k + c], w->A[c * k + c], MPFR_RNDN);
            for (long j = c + 1; j < k; j++) {
                mpfr_mul(w->tmp, w->sc, w->A[c * k + j], MPFR_RNDN);
                mpfr_sub(w->A[r * k + j], w->A[r * k + j], w->tmp, MPFR_RNDN);
            }
            mpfr_mul(w->tmp, w->sc, w->b[c], MPFR_RNDN);
            mpfr_sub(w->b[r], w->b[r], w->tmp, MPFR_RNDN);
        }
    }
    for (long c = k - 1; c >= 0; c--) {
        for (long j = c + 1; j < k; j++) {
            mpfr_mul(w->tmp, w->A[c * k + j], w->b[j], MPFR_RNDN);
            mpfr_sub(w->b[c], w->b[c], w->tmp, MPFR_RNDN);
        }
        mpfr_div(w->b[c], w->b[c], w->A[c * k + c], MPFR_RNDN);
    }
    for (long a = 0; a < k; a++) mpfr_set(y[w->idx[a]], w->b[a], MPFR_RNDN);
    for (long i = 0; i < m; i++) {
        mpfr_set_d(w->z[i], q[i], MPFR_RNDN);
        for (long j = 0; j < m; j++) {
            mpfr_mul_d(w->tmp, y[j], M[i * m + j], MPFR_RNDN);
            mpfr_add(w->z[i], w->z[i], w->tmp, MPFR_RNDN);
        }
    }
    return 1;
}

/* First violated condition (least index) or -1; tolerance relative to the
 * data scale. */
static long first_violation(ref_ws *w, mpfr_t *y, const int *act, const double *M,
                            const double *q, const double *l, const double *u, int *flip)
{
    long m = w->m;
    mpfr_prec_t prec = mpfr_get_prec(w->tol);
    for (long i = 0; i < m; i++) {
        double sc = fabs(q[i]) + 1;
        for (long j = 0; j < m; j++) sc += fabs(M[i * m + j]) * (1 + fabs(mpfr_get_d(y[j], MPFR_RNDN)));
        mpfr_set_d(w->tol, sc, MPFR_RNDN);
        mpfr_mul_2si(w->tol, w->tol, -(long)(prec - 56), MPFR_RNDN);
        if (act[i] == 0) {
            if (isfinite(l[i])) {
                mpfr_sub_d(w->tmp, y[i], l[i], MPFR_RNDN);
                mpfr_neg(w->tmp, w->tmp, MPFR_RNDN);
                if (mpfr_cmp(w->tmp, w->tol) > 0) { *flip = -1; return i; }
            }
            if (isfinite(u[i])) {
                mpfr_sub_d(w->tmp, y[i], u[i], MPFR_RNDN);
                if (mpfr_cmp(w->tmp, w->tol) > 0) { *flip = 1; return i; }
            }
        } else if (act[i] < 0) {
            mpfr_neg(w->tmp, w->z[i], MPFR_RNDN);
            if (mpfr_cmp(w->tmp, w->tol) > 0) { *flip = 0; return i; }
        } else {
            if (mpfr_cmp(w->z[i], w->tol) > 0) { *flip = 0; return i; }
        }
    }
    return -1;
}

int lvi_ref_piece(mpfr_t *y, const int *act, const double *M, const double *q,
                  const double *l, const double *u, long m, mpfr_prec_t prec)
{
    ref_ws w;
    int ok, flip;
    ws_init(&w, m, prec);
    ok = solve_piece(&w, y, act, M, q, l, u) && first_violation(&w, y, act, M, q, l, u, &flip) < 0;
    ws_clear(&w);
    return ok;
}

int lvi_ref_enum(mpfr_t *y, int *act, const double *M, const double *q, const double *l,
                 const double *u, long m, mpfr_prec_t prec)
{
    ref_ws w;
    int found = 0, flip;
    long total = 1;
    ws_init(&w, m, prec);
    for (long i = 0; i < m; i++) total *= 3;
    for (long code = 0; code < total && !found; code++) {
        long c = code, skip = 0;
        for (long i = 0; i < m; i++, c /= 3) {
            act[i] = (int)(c % 3) - 1;
            if ((act[i] < 0 && !isfinite(l[i])) || (act[i] > 0 && !isfinite(u[i]))) skip = 1;
        }
        if (skip) continue;
        if (solve_piece(&w, y, act, M, q, l, u) && first_violation(&w, y, act, M, q, l, u, &flip) < 0)
            found = 1;
    }
    ws_clear(&w);
    return found;
}

int lvi_ref_murty(mpfr_t *y, int *act, const double *M, const double *q, const double *l,
                  const double *u, long m, mpfr_prec_t prec)
{
    ref_ws w;
    int found = 0, flip;
    ws_init(&w, m, prec);
    for (long it = 0; it < 100000 && !found; it++) {
        long i;
        if (!solve_piece(&w, y, act, M, q, l, u)) break;
        i = first_violation(&w, y, act, M, q, l, u, &flip);
        if (i < 0) found = 1;
        else act[i] = flip;
    }
    ws_clear(&w);
    return found;
}
