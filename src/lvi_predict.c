/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Floating-point predictor for VI(l, u, q, M). Nothing computed here is a
 * bound: the result only tells the certifier (src/lvi_certify.c) which
 * linear piece to try. Each linear piece is fixed by an active set
 * act[i] in {-1 (y_i = l_i), +1 (y_i = u_i), 0 (free: (My+q)_i = 0)}. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fprnd.h"
#include "rounding.h"
#include "lvi_internal.h"

int dvc_lvi_pred_ws_init(dvc_lvi_pred_ws *w, long m)
{
    size_t n = (size_t)(m > 0 ? m : 1);
    memset(w, 0, sizeof *w);
    w->m = m;
    w->z = malloc(n * sizeof(double));
    w->yn = malloc(n * sizeof(double));
    w->yb = malloc(n * sizeof(double));
    w->H = malloc(n * sizeof(double));
    w->rhs = malloc(n * sizeof(double));
    w->rowsc = malloc(n * sizeof(double));
    w->lu = malloc(n * n * sizeof(double));
    w->perm = malloc(n * sizeof(long));
    w->idx = malloc(n * sizeof(long));
    w->act = malloc(n * sizeof(int));
    w->act2 = malloc(n * sizeof(int));
    w->actb = malloc(n * sizeof(int));
    if (!w->z || !w->yn || !w->yb || !w->H || !w->rhs || !w->rowsc || !w->lu || !w->perm ||
        !w->idx || !w->act || !w->act2 || !w->actb) {
        dvc_lvi_pred_ws_clear(w);
        return -1;
    }
    return 0;
}

void dvc_lvi_pred_ws_clear(dvc_lvi_pred_ws *w)
{
    free(w->z);
    free(w->yn);
    free(w->yb);
    free(w->H);
    free(w->rhs);
    free(w->rowsc);
    free(w->lu);
    free(w->perm);
    free(w->idx);
    free(w->act);
    free(w->act2);
    free(w->actb);
    memset(w, 0, sizeof *w);
}

typedef struct {
    dvc_lvi_pred_ws *w;
    const double *M, *q, *l, *u;
    long m;
} prob;

static void matvec(const prob *p, const double *y, double *z)
{
    for (long i = 0; i < p->m; i++) {
        const double *row = p->M + i * p->m;
        double s = p->q[i];
        for (long j = 0; j < p->m; j++) s += row[j] * y[j];
        z[i] = s;
    }
}

/* ||H(y)||_inf with H = mid(y - l, y - u, My + q); act receives which of
 * the three is the median (the linear piece the Newton step uses). */
static double natural_residual(const prob *p, const double *y, double *z, int *act)
{
    double nrm = 0;
    matvec(p, y, z);
    for (long i = 0; i < p->m; i++) {
        double a = y[i] - p->l[i], b = y[i] - p->u[i], c = z[i], h;
        if (c >= a) {
            h = a;
            act[i] = -1;
        } else if (c <= b) {
            h = b;
            act[i] = 1;
        } else {
            h = c;
            act[i] = 0;
        }
        h = fabs(h);
        if (!(h <= nrm)) nrm = h; /* propagates NaN */
    }
    return nrm;
}

/* Largest violation of the piece conditions, each divided by its
 * roundoff scale; <= 1 means "consistent up to roundoff". z = My + q. */
static double piece_violation(const prob *p, const double *y, const double *z, const int *act)
{
    double worst = 0;
    for (long i = 0; i < p->m; i++) {
        double v = 0, sc;
        if (act[i] == 0) {
            sc = 256 * DBL_EPSILON * (fabs(y[i]) + (isfinite(p->l[i]) ? fabs(p->l[i]) : 0) +
                                      (isfinite(p->u[i]) ? fabs(p->u[i]) : 0)) + DBL_MIN;
            if (y[i] < p->l[i]) v = (p->l[i] - y[i]) / sc;
            if (y[i] > p->u[i]) v = (y[i] - p->u[i]) / sc;
        } else {
            const double *row = p->M + i * p->m;
            sc = fabs(p->q[i]);
            for (long j = 0; j < p->m; j++) sc += fabs(row[j] * y[j]);
            sc = 256 * DBL_EPSILON * (double)(p->m + 1) * sc + DBL_MIN;
            if (act[i] < 0 && z[i] < 0) v = -z[i] / sc;
            if (act[i] > 0 && z[i] > 0) v = z[i] / sc;
        }
        if (!(v <= worst)) worst = v;
    }
    return worst;
}

/* Solution of the linear piece act: y_i at its bound for active i,
 * (My + q)_F = 0 for the free ones (the library's floating LU). */
static int piece_solve(const prob *p, const int *act, double *y)
{
    dvc_lvi_pred_ws *w = p->w;
    long m = p->m, k = 0;
    double *A = w->lu, *b = w->rhs;
    for (long i = 0; i < m; i++) {
        if (act[i] < 0) y[i] = p->l[i];
        else if (act[i] > 0) y[i] = p->u[i];
        else w->idx[k++] = i;
    }
    for (long a = 0; a < k; a++) {
        long i = w->idx[a];
        const double *row = p->M + i * m;
        double s = p->q[i];
        for (long j = 0; j < m; j++)
            if (act[j] != 0) s += row[j] * y[j];
        b[a] = -s;
        for (long c = 0; c < k; c++) A[a * k + c] = row[w->idx[c]];
    }
    if (dvc_fp_lu(A, w->perm, k) != 0) return -1;
    dvc_fp_lu_solve(A, w->perm, k, b);
    for (long a = 0; a < k; a++)
        if (!isfinite(b[a])) return -1;
    for (long a = 0; a < k; a++) y[w->idx[a]] = b[a];
    return 0;
}

/* Keeps the point with the smallest natural residual seen so far. */
typedef struct {
    double nrm;
    int have;
} bestrec;

static void keep_best(const prob *p, bestrec *br, const double *y, double nrm, const int *act)
{
    if (!br->have || nrm < br->nrm) {
        br->have = 1;
        br->nrm = nrm;
        memcpy(p->w->yb, y, (size_t)p->m * sizeof(double));
        memcpy(p->w->actb, act, (size_t)p->m * sizeof(int));
    }
}

/* Solve the piece act into yn and test it: 1 consistent, 0 not (yn, w->z,
 * w->act2 and *nrm then describe yn), -1 singular or overflow. */
static int try_piece(const prob *p, bestrec *br, const int *act, double *yn, double *nrm)
{
    dvc_lvi_pred_ws *w = p->w;
    double viol;
    if (piece_solve(p, act, yn) != 0) return -1;
    *nrm = natural_residual(p, yn, w->z, w->act2);
    if (isnan(*nrm)) return -1;
    viol = piece_violation(p, yn, w->z, act);
    if (viol <= 1) {
        /* consistent: record it with its own piece, ahead of any other */
        br->have = 1;
        br->nrm = -1;
        memcpy(w->yb, yn, (size_t)p->m * sizeof(double));
        memcpy(w->actb, act, (size_t)p->m * sizeof(int));
        return 1;
    }
    keep_best(p, br, yn, *nrm, w->act2);
    return 0;
}

/* Semismooth Newton = primal-dual active-set iteration, safeguarded by a
 * backtracking line search on ||H||_inf. 1 when it reached a consistent
 * piece. */
static int newton(const prob *p, bestrec *br, double *y)
{
    dvc_lvi_pred_ws *w = p->w;
    long m = p->m;
    double nrm = natural_residual(p, y, w->z, w->act);
    if (isnan(nrm)) return 0;
    keep_best(p, br, y, nrm, w->act);
    for (int it = 0; it < 60; it++) {
        double nn;
        int accepted = 0;
        int tp = try_piece(p, br, w->act, w->yn, &nn);
        if (tp != 0) return tp > 0;
        if (nn <= (1 - 1e-4) * nrm) {
            memcpy(y, w->yn, (size_t)m * sizeof(double));
            memcpy(w->act, w->act2, (size_t)m * sizeof(int));
            nrm = nn;
            accepted = 1;
        } else {
            double t = 0.5;
            for (int ls = 0; ls < 30 && !accepted; ls++, t *= 0.5) {
                for (long i = 0; i < m; i++) w->H[i] = y[i] + t * (w->yn[i] - y[i]);
                nn = natural_residual(p, w->H, w->z, w->act2);
                if (nn <= (1 - 1e-4 * t) * nrm) {
                    memcpy(y, w->H, (size_t)m * sizeof(double));
                    memcpy(w->act, w->act2, (size_t)m * sizeof(int));
                    nrm = nn;
                    accepted = 1;
                }
            }
        }
        if (!accepted) return 0;
        keep_best(p, br, y, nrm, w->act);
        if (nrm == 0) {
            /* exact zero of H: the median rule's piece holds y */
            return try_piece(p, br, w->act, w->yn, &nn) > 0;
        }
    }
    return 0;
}

/* All 3^m pieces (fewer with infinite bounds). */
static int enumerate(const prob *p, bestrec *br)
{
    dvc_lvi_pred_ws *w = p->w;
    long m = p->m;
    int *a = w->act;
    for (long i = 0; i < m; i++) a[i] = 0;
    for (;;) {
        double nn;
        long i = 0;
        if (try_piece(p, br, a, w->yn, &nn) > 0) return 1;
        for (; i < m; i++) {
            /* next assignment: 0 -> -1 -> +1 -> carry */
            if (a[i] == 0 && isfinite(p->l[i])) { a[i] = -1; break; }
            if (a[i] <= 0 && isfinite(p->u[i])) { a[i] = 1; break; }
            a[i] = 0;
        }
        if (i == m) return 0;
    }
}

/* Murty's least-index principal pivoting, extended to boxes: flip the
 * first index whose piece condition fails. Finite for P-matrix LCPs;
 * capped here, since it is only a fallback. */
static int murty(const prob *p, bestrec *br, const int *start)
{
    dvc_lvi_pred_ws *w = p->w;
    long m = p->m, maxit = 200 * m + 1000;
    int *a = w->act;
    memcpy(a, start, (size_t)m * sizeof(int));
    for (long it = 0; it < maxit; it++) {
        long i;
        double nn;
        int tp = try_piece(p, br, a, w->yn, &nn);
        if (tp != 0) return tp > 0;
        for (i = 0; i < m; i++) {
            double y = w->yn[i], z = w->z[i];
            if (a[i] == 0 && y < p->l[i]) { a[i] = -1; break; }
            if (a[i] == 0 && y > p->u[i]) { a[i] = 1; break; }
            if (a[i] != 0 && ((a[i] < 0 && z < 0) || (a[i] > 0 && z > 0))) { a[i] = 0; break; }
        }
        if (i == m) return 0; /* within roundoff but outside the tolerance */
    }
    return 0;
}

static dvc_status dvc_lvi_predict_ws_rn(dvc_lvi_pred_ws *w, double *y, int *act, const double *M,
                                        const double *q, const double *l, const double *u, long m,
                                        const double *guess)
{
    prob p = {w, M, q, l, u, m};
    bestrec br = {0, 0};
    int ok;
    if (m <= 0 || w->m < m) return dvc_error(DVC_ERR_INPUT, "lvi predictor: dimension %ld", m);
    for (long i = 0; i < m; i++) {
        if (isnan(q[i]) || isnan(l[i]) || isnan(u[i]))
            return dvc_error(DVC_ERR_INPUT, "lvi predictor: NaN in q, l or u (entry %ld)", i + 1);
        if (!(l[i] < u[i]))
            return dvc_error(DVC_ERR_INPUT, "lvi predictor: l[%ld] = %g is not below u[%ld] = %g",
                             i + 1, l[i], i + 1, u[i]);
        if (isinf(q[i])) return dvc_error(DVC_ERR_INPUT, "lvi predictor: q[%ld] is not finite", i + 1);
        for (long j = 0; j < m; j++)
            if (!isfinite(M[i * m + j]))
                return dvc_error(DVC_ERR_INPUT, "lvi predictor: M(%ld,%ld) is not finite", i + 1, j + 1);
    }
    /* start: the guess or 0, projected onto the box */
    for (long i = 0; i < m; i++) {
        /* without a guess: one Jacobi step from 0, a cheap start that
         * already sees the sign of q */
        double d = M[i * m + i], s = guess && isfinite(guess[i]) ? guess[i] : d > 0 ? -q[i] / d : 0.0;
        y[i] = s < l[i] ? l[i] : s > u[i] ? u[i] : s;
    }
    ok = newton(&p, &br, y);
    if (!ok && m <= DVC_LVI_ENUM_MAX) ok = enumerate(&p, &br);
    if (!ok && br.have) ok = murty(&p, &br, w->actb);
    if (br.have) {
        memcpy(y, w->yb, (size_t)m * sizeof(double));
        if (act) memcpy(act, w->actb, (size_t)m * sizeof(int));
    }
    if (!ok)
        return dvc_error(DVC_NOT_CERTIFIED,
                         "lvi predictor: no consistent linear piece found (best natural residual %.3g)",
                         br.have ? br.nrm : NAN);
    return DVC_OK;
}

dvc_status dvc_lvi_predict_guess(double *y, const double *M, const double *q, const double *l,
                                 const double *u, long m, const double *guess)
{
    dvc_lvi_pred_ws w;
    dvc_status st;
    if (m <= 0) return dvc_error(DVC_ERR_INPUT, "lvi predictor: dimension %ld", m);
    if (dvc_lvi_pred_ws_init(&w, m) != 0) return dvc_error(DVC_ERR_NOMEM, "lvi predictor: out of memory");
    st = dvc_lvi_predict_ws(&w, y, NULL, M, q, l, u, m, guess);
    dvc_lvi_pred_ws_clear(&w);
    return st;
}

dvc_status dvc_lvi_predict(double *y, const double *M, const double *q, const double *l,
                           const double *u, long m)
{
    return dvc_lvi_predict_guess(y, M, q, l, u, m, NULL);
}

dvc_status dvc_lvi_predict_ws(dvc_lvi_pred_ws *w, double *y, int *act, const double *M,
                              const double *q, const double *l, const double *u, long m,
                              const double *guess)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = dvc_lvi_predict_ws_rn(w, y, act, M, q, l, u, m, guess);
    dvc_rnd_restore(saved);
    return st;
}
