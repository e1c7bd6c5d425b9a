/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Enumeration of the complementary bases of LCP([M], [q]) (docs/lcpall.md).
 *
 * A depth-first search decides for i = 1..n whether i is in the basis J;
 * deciding "in" is a principal pivot on (i, i) of the tableau of the
 * parent (O(n^2)), so every leaf has the floating tableau
 *   (z_J, w_K) = T (w_J, z_K) + t,   K the complement of J,
 * computed along a path of at most n pivots from M. The tableau is only a
 * predictor. A basis is excluded by a Farkas certificate u built from it
 * (u_K >= 0, (M^T u)_J <= 0 and u^T q < 0 for every M, q in the boxes, checked
 * rounding upward: then no z >= 0 with z_K = 0, w_J = 0, w_K >= 0 exists),
 * or else decided by a verified solve of M_JJ z_J = -q_J. */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fprnd.h"
#include "lcpall_internal.h"
#include "rounding.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void dvc_lcpall_basis_str_(char *buf, const char *basis, long n)
{
    long k = n < 60 ? n : 60;
    for (long i = 0; i < k; i++) buf[i] = basis[i] ? '1' : '0';
    if (k < n) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = 0;
}

/* Lower (upper) bound of the product of [a, b] and [c, d] in the current
 * rounding mode: call it under FE_DOWNWARD for lower, FE_UPWARD for upper
 * bounds. */
static inline double mul_lo(double a, double b, double c, double d)
{
    double p = a * c, t;
    t = a * d; if (t < p) p = t;
    t = b * c; if (t < p) p = t;
    t = b * d; if (t < p) p = t;
    return p;
}

static inline double mul_hi(double a, double b, double c, double d)
{
    double p = a * c, t;
    t = a * d; if (t > p) p = t;
    t = b * c; if (t > p) p = t;
    t = b * d; if (t > p) p = t;
    return p;
}

int dvc_lcpall_basis_solve_(const dvc_lcpall_data_ *d, const char *basis, double *lo,
                            double *hi, int *nondeg, double *ws)
{
    long n = d->n, m = 0, *J = (long *)(void *)(ws + 4 * n * n + 6 * n);
    double *Alo = ws, *Ahi = Alo + n * n, *Blo = Ahi + n * n, *Bhi = Blo + n, *Xlo = Bhi + n,
           *Xhi = Xlo + n, cnorm;
    int st, all_nonneg = 1, strict = 1;

    for (long i = 0; i < n; i++)
        if (basis[i]) J[m++] = i;
    for (long a = 0; a < m; a++) {
        for (long b = 0; b < m; b++) {
            Alo[a * m + b] = d->Mlo[J[a] * n + J[b]];
            Ahi[a * m + b] = d->Mhi[J[a] * n + J[b]];
        }
        Blo[a] = -d->qhi[J[a]];
        Bhi[a] = -d->qlo[J[a]];
    }
    if (m > 0) {
        st = dvc_fp_verify_solve(m, 1, Alo, Ahi, Blo, Bhi, Xlo, Xhi, &cnorm);
        if (st != DVC_FP_OK) return 3;
    }
    for (long a = 0; a < m; a++) {
        if (Xhi[a] < 0) return 2;
        lo[J[a]] = Xlo[a];
        hi[J[a]] = Xhi[a];
    }
    /* w_K = M_KJ z_J + q_K: lower bounds rounding down, upper rounding up */
    {
        int saved = dvc_rnd_save();
        dvc_rnd_set(FE_DOWNWARD);
        for (long i = 0; i < n; i++) {
            if (basis[i]) continue;
            double s = d->qlo[i];
            for (long a = 0; a < m; a++)
                s += mul_lo(d->Mlo[i * n + J[a]], d->Mhi[i * n + J[a]], Xlo[a], Xhi[a]);
            lo[i] = s;
        }
        dvc_rnd_set(FE_UPWARD);
        for (long i = 0; i < n; i++) {
            if (basis[i]) continue;
            double s = d->qhi[i];
            for (long a = 0; a < m; a++)
                s += mul_hi(d->Mlo[i * n + J[a]], d->Mhi[i * n + J[a]], Xlo[a], Xhi[a]);
            hi[i] = s;
        }
        dvc_rnd_restore(saved);
    }
    for (long i = 0; i < n; i++) {
        if (!(lo[i] <= hi[i]) || !isfinite(lo[i]) || !isfinite(hi[i])) return 3;
        if (hi[i] < 0) return 2;
    }
    for (long i = 0; i < n; i++) {
        if (!(lo[i] >= 0)) all_nonneg = 0;
        if (!(lo[i] > 0)) strict = 0;
        /* every solution has z, w >= 0: the rest of the box is no solution */
        if (lo[i] < 0) lo[i] = 0;
    }
    *nondeg = all_nonneg && strict;
    return all_nonneg ? DVC_LCPALL_SOL_EXISTS : DVC_LCPALL_SOL_CANDIDATE;
}

typedef struct {
    const dvc_lcpall_data_ *d;
    dvc_lcpall_result_struct *r;
    const dvc_lcpall_opts *o;
    long n, w;       /* w = n + 1: row length of a tableau */
    double *tab;     /* (n + 1) tableaux of n x (n + 1) */
    double *u, *cs, *lo, *hi, *ws, *scr, *lp;
    long *lpb;       /* basis of the LP tableau */
    long *sup;       /* support of u */
    char *basis;
    double deadline;
    int stop;        /* 1 budget, 2 cap, 3 the consumer of the boxes */
    char first_undecided[64];
} enum_ctx;

/* The rigorous check of a Farkas certificate c->u (zero off J and r):
 * u_K >= 0, u^T q < 0 and (M^T u)_i <= 0 for i in J, for every M in [M]
 * and q in [q], with upper bounds computed rounding upward. */
static int check_u(enum_ctx *c)
{
    long n = c->n, ns = 0;
    const double *Mlo = c->d->Mlo, *Mhi = c->d->Mhi, *qlo = c->d->qlo, *qhi = c->d->qhi;
    const char *B = c->basis;
    const double *u = c->u;
    long *sup = c->sup;
    double s;
    int ok = 1;

    for (long j = 0; j < n; j++) {
        if (u[j] != 0 || u[j] != u[j]) sup[ns++] = j;
        if (!B[j] && !(u[j] >= 0)) return 0;
    }
    if (ns == 0) return 0;
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    /* u^T q < 0 for every q in [q] */
    s = 0;
    for (long a = 0; a < ns; a++) {
        long j = sup[a];
        s += u[j] >= 0 ? qhi[j] * u[j] : qlo[j] * u[j];
    }
    if (!(s < 0)) ok = 0;
    /* (M^T u)_i <= 0 for i in J, every M in [M] */
    for (long i = 0; ok && i < n; i++) {
        if (!B[i]) continue;
        s = 0;
        for (long a = 0; a < ns; a++) {
            long j = sup[a];
            s += u[j] >= 0 ? Mhi[j * n + i] * u[j] : Mlo[j * n + i] * u[j];
        }
        if (!(s <= 0)) ok = 0;
    }
    dvc_rnd_restore(saved);
    return ok;
}

/* Farkas certificate for row r of the leaf tableau T: u_J = -(T[r, J] +
 * delta * sum_{k in J} T[k, J]), u_r = 1 when r is off the basis. With the
 * exact tableau, (M^T u)_J = -delta 1 - [r in J] e_r and
 * u^T q = t_r + delta sum_{k in J} t_k: both negative for a small delta. */
static int farkas(enum_ctx *c, const double *T, long r)
{
    long n = c->n, w = c->w;
    const char *B = c->basis;
    double tr = T[r * w + n], S = 0, delta;
    double *u = c->u, *cs = c->cs;

    for (long k = 0; k < n; k++)
        if (B[k] && T[k * w + n] > 0) S += T[k * w + n];
    delta = S > 0 ? -tr / (2 * S) : 1.0;
    if (delta > 1) delta = 1;
    for (long j = 0; j < n; j++) cs[j] = 0;
    for (long k = 0; k < n; k++)
        if (B[k])
            for (long j = 0; j < n; j++)
                if (B[j]) cs[j] += T[k * w + j];
    for (long j = 0; j < n; j++) u[j] = B[j] ? -(T[r * w + j] + delta * cs[j]) : 0;
    if (!B[r]) u[r] = 1;
    return check_u(c);
}

/* A Farkas certificate by linear programming, for a basis whose M_JJ is
 * singular or nearly so: phase 1 of the simplex method (Bland's rule, dense
 * tableau) on the midpoint data finds u with u_K >= 0, u_J = p - m (p,
 * m >= 0), (M^T u)_J + s = 0 (s >= 0) and q^T u + s' = -1 (s' >= 0, one
 * artificial variable). Only a predictor: check_u decides. */
static int farkas_lp(enum_ctx *c)
{
    long n = c->n, nj = 0, nk = 0, *J = c->sup, *K = c->sup + n;
    const dvc_lcpall_data_ *d = c->d;
    for (long i = 0; i < n; i++) {
        if (c->basis[i]) J[nj++] = i;
        else K[nk++] = i;
    }
    long R = nj + 1, nv = 2 * nj + nk, N = nv + R + 1, W = N + 1, art = N - 1;
    double *T = c->lp, *obj = T + R * W;
    long *bas = c->lpb;
    memset(T, 0, sizeof(double) * (size_t)((R + 1) * W));
#define MID(a) (0.5 * d->Mlo[a] + 0.5 * d->Mhi[a])
    for (long a = 0; a < nj; a++) {
        long i = J[a];
        for (long b = 0; b < nj; b++) {
            T[a * W + b] = MID(J[b] * n + i);
            T[a * W + nj + b] = -MID(J[b] * n + i);
        }
        for (long k = 0; k < nk; k++) T[a * W + 2 * nj + k] = MID(K[k] * n + i);
        T[a * W + nv + a] = 1;
        bas[a] = nv + a;
    }
#undef MID
    /* last row, negated so that its right-hand side is 1 */
    for (long b = 0; b < nj; b++) {
        double qj = 0.5 * d->qlo[J[b]] + 0.5 * d->qhi[J[b]];
        T[nj * W + b] = -qj;
        T[nj * W + nj + b] = qj;
    }
    for (long k = 0; k < nk; k++) T[nj * W + 2 * nj + k] = -(0.5 * d->qlo[K[k]] + 0.5 * d->qhi[K[k]]);
    T[nj * W + nv + nj] = -1;
    T[nj * W + art] = 1;
    T[nj * W + N] = 1;
    bas[nj] = art;
    for (long j = 0; j < W; j++) obj[j] = j == art ? 0 : -T[nj * W + j];

    for (long it = 0; it < 50 * (R + N); it++) {
        long e = -1, row = -1;
        double best = 0;
        for (long j = 0; j < N && e < 0; j++)
            if (obj[j] < -1e-12) e = j;
        if (e < 0) break;
        for (long i = 0; i < R; i++) {
            double a = T[i * W + e];
            if (!(a > 1e-12)) continue;
            double ratio = T[i * W + N] / a;
            if (row < 0 || ratio < best || (ratio == best && bas[i] < bas[row])) {
                row = i;
                best = ratio;
            }
        }
        if (row < 0) break;
        double piv = T[row * W + e];
        for (long j = 0; j < W; j++) T[row * W + j] /= piv;
        for (long i = 0; i <= R; i++) {
            double *ti = i < R ? T + i * W : obj;
            if (i == row || ti[e] == 0) continue;
            double f = ti[e];
            for (long j = 0; j < W; j++) ti[j] -= f * T[row * W + j];
            ti[e] = 0;
        }
        bas[row] = e;
    }
    for (long i = 0; i < R; i++)
        if (bas[i] == art && T[i * W + N] > 1e-9) return 0; /* infeasible (or not solved) */
    for (long j = 0; j < n; j++) c->u[j] = 0;
    for (long i = 0; i < R; i++) {
        long v = bas[i];
        double x = T[i * W + N];
        if (v < nj) c->u[J[v]] += x;
        else if (v < 2 * nj) c->u[J[v - nj]] -= x;
        else if (v < nv) c->u[K[v - 2 * nj]] = x;
    }
    return check_u(c);
}

/* The leaf tableau of the current basis J computed from scratch, from
 * M_JJ + shift I (midpoint data): the J columns and the constant column
 * (all that farkas() reads). Returns 0, or -1 when M_JJ + shift I is
 * singular to working precision. */
static int scratch_tableau(enum_ctx *c, double shift)
{
    long n = c->n, w = c->w, m = 0;
    const dvc_lcpall_data_ *d = c->d;
    double *T = c->scr, *A = c->ws, *R = A + n * n;
    long *J = c->sup;
    for (long i = 0; i < n; i++)
        if (c->basis[i]) J[m++] = i;
    for (long a = 0; a < m; a++)
        for (long b = 0; b < m; b++)
            A[a * m + b] = 0.5 * d->Mlo[J[a] * n + J[b]] + 0.5 * d->Mhi[J[a] * n + J[b]] +
                           (a == b ? shift : 0);
    if (m > 0 && dvc_fp_inv(R, A, m) != 0) return -1;
    memset(T, 0, sizeof(double) * (size_t)(n * w));
    /* rows J: T[J, J] = A^{-1}, t_J = -A^{-1} q_J */
    for (long a = 0; a < m; a++) {
        double s = 0;
        for (long b = 0; b < m; b++) {
            T[J[a] * w + J[b]] = R[a * m + b];
            s -= R[a * m + b] * (0.5 * d->qlo[J[b]] + 0.5 * d->qhi[J[b]]);
        }
        T[J[a] * w + n] = s;
    }
    /* rows K: T[K, J] = M_KJ A^{-1}, t_K = q_K + M_KJ t_J */
    for (long i = 0; i < n; i++) {
        if (c->basis[i]) continue;
        double s = 0.5 * d->qlo[i] + 0.5 * d->qhi[i];
        for (long a = 0; a < m; a++) {
            double mij = 0.5 * d->Mlo[i * n + J[a]] + 0.5 * d->Mhi[i * n + J[a]];
            s += mij * T[J[a] * w + n];
            for (long b = 0; b < m; b++) T[i * w + J[b]] += mij * R[a * m + b];
        }
        T[i * w + n] = s;
    }
    for (long k = 0; k < n * w; k++)
        if (!isfinite(T[k])) return -1;
    return 0;
}

/* Try the Farkas certificates of the two most negative (scaled) rows. */
static int try_farkas(enum_ctx *c, const double *T)
{
    long n = c->n, w = c->w, best = -1, second = -1;
    double bs = 0, ss = 0;
    for (long i = 0; i < n; i++) {
        double t = T[i * w + n];
        if (!(t < 0)) continue;
        double sc = 1;
        for (long j = 0; j < n; j++)
            if (c->basis[j]) sc += fabs(T[i * w + j]);
        double v = t / sc;
        if (best < 0 || v < bs) {
            second = best;
            ss = bs;
            best = i;
            bs = v;
        } else if (second < 0 || v < ss) {
            second = i;
            ss = v;
        }
    }
    return best >= 0 && (farkas(c, T, best) || (second >= 0 && farkas(c, T, second)));
}

static void leaf(enum_ctx *c, const double *T)
{
    dvc_lcpall_result_struct *r = c->r;
    long n = c->n;
    int st, nondeg = 0;

    r->bases++;
    if ((r->bases & 1023) == 0 && c->deadline > 0 && now_s() > c->deadline) {
        c->stop = 1;
        return;
    }
    if (T == NULL && scratch_tableau(c, 0) == 0) T = c->scr;
    if (T != NULL && try_farkas(c, T)) {
        r->excl_farkas++;
        return;
    }
    st = dvc_lcpall_basis_solve_(c->d, c->basis, c->lo, c->hi, &nondeg, c->ws);
    if (st == 2) {
        r->excl_solve++;
        return;
    }
    if (st == 3) {
        /* M_JJ singular or nearly so: a Farkas certificate may still exist;
         * the tableau of a slightly shifted M_JJ is a predictor for it */
        double scale = 0;
        for (long i = 0; i < n; i++)
            if (c->basis[i]) {
                double a = fabs(c->d->Mlo[i * n + i]) + fabs(c->d->Mhi[i * n + i]);
                if (a > scale) scale = a;
            }
        if (scale == 0) scale = 1;
        for (int s = 0; s < 4; s++) {
            double shift = (s & 1 ? -1 : 1) * scale * (s < 2 ? 1e-8 : 1e-4);
            if (scratch_tableau(c, shift) == 0 && try_farkas(c, c->scr)) {
                r->excl_farkas++;
                return;
            }
        }
        if (farkas_lp(c)) {
            r->excl_farkas++;
            return;
        }
        if (r->undecided++ == 0) dvc_lcpall_basis_str_(c->first_undecided, c->basis, n);
        r->covered = 0;
        return;
    }
    int pushed = dvc_lcpall_push_(r, c->basis, c->lo, c->hi, st, nondeg, c->o->max_solutions);
    if (pushed != 0) {
        c->stop = pushed == -2 ? 3 : 2;
        r->covered = 0;
    }
}

/* Principal pivot on (k, k): D <- pivot of S (n x (n + 1)). Returns 0, or
 * -1 when the pivot is too small to trust the predictor. */
static int pivot(double *D, const double *S, long n, long k)
{
    long w = n + 1;
    double p = S[k * w + k], rmax = 0;
    for (long j = 0; j < n; j++)
        if (fabs(S[k * w + j]) > rmax) rmax = fabs(S[k * w + j]);
    if (!(fabs(p) > 1e-10 * rmax) || !isfinite(p)) return -1;
    double ip = 1.0 / p;
    const double *sk = S + k * w;
    for (long i = 0; i < n; i++) {
        const double *si = S + i * w;
        double *di = D + i * w;
        if (i == k) {
            for (long j = 0; j < w; j++) di[j] = -sk[j] * ip;
            di[k] = ip;
            continue;
        }
        double f = si[k] * ip;
        for (long j = 0; j < w; j++) di[j] = si[j] - f * sk[j];
        di[k] = f;
    }
    return 0;
}

static void dfs(enum_ctx *c, long k, long level, const double *T)
{
    if (c->stop) return;
    if (k == c->n) {
        leaf(c, T);
        return;
    }
    dfs(c, k + 1, level, T);
    if (c->stop) return;
    c->basis[k] = 1;
    {
        double *D = c->tab + (level + 1) * c->n * c->w;
        const double *next = NULL;
        if (T != NULL && pivot(D, T, c->n, k) == 0) next = D;
        dfs(c, k + 1, level + 1, next);
    }
    c->basis[k] = 0;
}

dvc_status dvc_lcpall_enum_(dvc_lcpall_result_t r, const dvc_lcpall_data_ *d,
                            const dvc_lcpall_opts *o)
{
    long n = d->n, w = n + 1;
    enum_ctx c;
    memset(&c, 0, sizeof c);
    c.d = d;
    c.r = r;
    c.o = o;
    c.n = n;
    c.w = w;
    c.tab = malloc(sizeof(double) * (size_t)((n + 2) * n * w + 4 * n + 4 * n * n + 8 * n + 1));
    c.sup = malloc(sizeof(long) * (size_t)(2 * n + 2));
    c.lpb = malloc(sizeof(long) * (size_t)(n + 2));
    c.lp = malloc(sizeof(double) * (size_t)((n + 2) * (4 * n + 4)));
    c.basis = calloc((size_t)n + 1, 1);
    if (c.tab == NULL || c.sup == NULL || c.basis == NULL || c.lp == NULL || c.lpb == NULL) {
        free(c.lp);
        free(c.lpb);
        free(c.tab);
        free(c.sup);
        free(c.basis);
        return dvc_error(DVC_ERR_NOMEM, "lcp-all: out of memory");
    }
    c.u = c.tab + (n + 1) * n * w;
    c.cs = c.u + n;
    c.lo = c.cs + n;
    c.hi = c.lo + n;
    c.ws = c.hi + n;
    c.scr = c.ws + 4 * n * n + 8 * n;
    c.deadline = o->max_seconds > 0 ? now_s() + o->max_seconds : 0;

    /* level 0: the tableau w = M z + q of the midpoint data */
    {
        int saved = dvc_rnd_save();
        dvc_rnd_set(FE_TONEAREST);
        for (long i = 0; i < n; i++) {
            for (long j = 0; j < n; j++)
                c.tab[i * w + j] = 0.5 * d->Mlo[i * n + j] + 0.5 * d->Mhi[i * n + j];
            c.tab[i * w + n] = 0.5 * d->qlo[i] + 0.5 * d->qhi[i];
        }
        r->covered = 1;
        dfs(&c, 0, 0, c.tab);
        dvc_rnd_restore(saved);
    }
    {
        size_t len = strlen(r->reason);
        char *p = r->reason + len;
        size_t room = sizeof r->reason - len;
        if (c.stop) r->covered = 0; /* bases left unexamined */
        if (c.stop == 1)
            snprintf(p, room, "time budget of %g s spent after %ld of 2^%ld bases; ",
                     o->max_seconds, r->bases, n);
        else if (c.stop == 2)
            snprintf(p, room, "more than %ld boxes (max_solutions) after %ld of 2^%ld bases; ",
                     o->max_solutions, r->bases, n);
        else if (c.stop == 3)
            snprintf(p, room, "stopped by the consumer of the boxes after %ld of 2^%ld bases; ",
                     r->bases, n);
        len = strlen(r->reason);
        if (r->undecided > 0)
            snprintf(r->reason + len, sizeof r->reason - len,
                     "%ld bas%s neither excluded nor enclosed (first: basis %s, 1 = in the "
                     "basis: M_JJ not proven nonsingular); ",
                     r->undecided, r->undecided == 1 ? "is" : "es", c.first_undecided);
    }
    free(c.lp);
    free(c.lpb);
    free(c.tab);
    free(c.sup);
    free(c.basis);
    return DVC_OK;
}
