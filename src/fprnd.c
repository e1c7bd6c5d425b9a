/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Binary64 kernels of the verified linear algebra (see fprnd.h; their error
 * analysis and their speed against MPFI loops and LAPACK are in
 * docs/linalg.md, "Precision 53, explicit inverse" and "Speed"). Only the
 * predictors (LU, approximate inverse R, x~ = R b, P = R mid(A), Cholesky
 * factor G) are computed in round-to-nearest. Every quantity that enters a
 * bound is either computed with the rounding direction chosen so that
 * rounding can only enlarge the bound (lower bounds as -(upper bound of the
 * negation), or under FE_DOWNWARD), or bounded a priori: the error of the
 * one product R mid(A) made in round-to-nearest is covered by Higham's gamma
 * bound, itself evaluated rounding upward. */
#include "fprnd.h"
#include "rounding.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/* The O(n^3) kernels are plain axpy loops: let GCC vectorise them (at -O2
 * it only does so for trip counts known to be multiples of the vector
 * length). Vectorising an axpy needs no reassociation, and SIMD operations
 * obey the same rounding mode, so the directed-rounding bounds stay valid. */
#if defined(__GNUC__) && !defined(__clang__)
#define DVC_VEC __attribute__((optimize("O3")))
#else
#define DVC_VEC
#endif

/* max that propagates NaN (fmax drops it, and is an out-of-line call). */
static inline double maxn(double a, double b) { return (a > b || a != a) ? a : b; }

static double *xalloc(size_t n)
{
    double *p = malloc((n ? n : 1) * sizeof(double));
    if (p == NULL) abort();
    return p;
}

DVC_VEC int dvc_fp_lu(double *a, long *piv, long n)
{
    for (long k = 0; k < n; k++) {
        long p = k;
        double best = fabs(a[k * n + k]);
        for (long i = k + 1; i < n; i++)
            if (fabs(a[i * n + k]) > best) {
                best = fabs(a[i * n + k]);
                p = i;
            }
        piv[k] = p;
        if (!(best > 0) || !isfinite(best)) return -1;
        if (p != k)
            for (long j = 0; j < n; j++) {
                double t = a[k * n + j];
                a[k * n + j] = a[p * n + j];
                a[p * n + j] = t;
            }
        double inv = 1.0 / a[k * n + k];
        for (long i = k + 1; i < n; i++) {
            double l = a[i * n + k] * inv;
            a[i * n + k] = l;
            if (l == 0) continue;
            double *ri = a + i * n, *rk = a + k * n;
            for (long j = k + 1; j < n; j++) ri[j] -= l * rk[j];
        }
    }
    return 0;
}

void dvc_fp_lu_solve(const double *lu, const long *piv, long n, double *b)
{
    for (long k = 0; k < n; k++)
        if (piv[k] != k) {
            double t = b[k];
            b[k] = b[piv[k]];
            b[piv[k]] = t;
        }
    for (long i = 1; i < n; i++) {
        double s = b[i];
        for (long j = 0; j < i; j++) s -= lu[i * n + j] * b[j];
        b[i] = s;
    }
    for (long i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (long j = i + 1; j < n; j++) s -= lu[i * n + j] * b[j];
        b[i] = s / lu[i * n + i];
    }
}

DVC_VEC int dvc_fp_inv(double *r, const double *a, long n)
{
    /* small sizes on the stack: malloc would dominate at n <= 8 */
    double sbuf[256];
    long spiv[16];
    double *lu = n <= 16 ? sbuf : xalloc((size_t)(n * n));
    long *piv = n <= 16 ? spiv : malloc((size_t)(n ? n : 1) * sizeof(long));
    if (piv == NULL) abort();
    memcpy(lu, a, (size_t)(n * n) * sizeof(double));
    int st = dvc_fp_lu(lu, piv, n);
    if (st == 0) {
        /* P A = L U, so A^{-1} = U^{-1} L^{-1} P: Y = L^{-1} (unit lower
         * triangular, n^3/6 flops), X = U^{-1} Y (n^3/2), then the column
         * swaps of P in reverse order. Row-oriented axpy's throughout. */
        memset(r, 0, (size_t)(n * n) * sizeof(double));
        for (long i = 0; i < n; i++) {
            double *ri = r + i * n;
            ri[i] = 1.0;
            for (long p = 0; p < i; p++) {
                double l = lu[i * n + p];
                const double *rp = r + p * n;
                if (l == 0) continue;
                for (long j = 0; j <= p; j++) ri[j] -= l * rp[j];
            }
        }
        for (long i = n - 1; i >= 0; i--) {
            double *ri = r + i * n;
            for (long p = i + 1; p < n; p++) {
                double u = lu[i * n + p];
                const double *rp = r + p * n;
                if (u == 0) continue;
                for (long j = 0; j < n; j++) ri[j] -= u * rp[j];
            }
            double d = 1.0 / lu[i * n + i];
            for (long j = 0; j < n; j++) ri[j] *= d;
        }
        for (long k = n - 1; k >= 0; k--)
            if (piv[k] != k)
                for (long i = 0; i < n; i++) {
                    double t = r[i * n + k];
                    r[i * n + k] = r[i * n + piv[k]];
                    r[i * n + piv[k]] = t;
                }
        for (long k = 0; k < n * n; k++)
            if (!isfinite(r[k])) {
                st = -1;
                break;
            }
    }
    if (lu != sbuf) free(lu);
    if (piv != spiv) free(piv);
    return st;
}

/* Row-oriented (i, p, j) loop: no reassociation is needed for the inner
 * axpy to vectorise, and every product and sum is rounded in the current
 * mode, which is what makes the directed-rounding bounds valid. */
DVC_VEC void dvc_fp_gemm_acc(double *restrict C, const double *restrict A, const double *restrict B,
                             long m, long n, long k)
{
    if (k == 1) { /* matrix-vector: dot products, each operation rounded */
        for (long i = 0; i < m; i++) {
            const double *ai = A + i * n;
            double s = C[i];
            for (long p = 0; p < n; p++) s += ai[p] * B[p];
            C[i] = s;
        }
        return;
    }
    long i = 0;
    /* two rows of C per pass: each row of B is loaded once for both (the
     * operations on every c_ij, and their order, are those of the one-row
     * loop below) */
    for (; i + 1 < m; i += 2) {
        double *c0 = C + i * k, *c1 = c0 + k;
        const double *a0 = A + i * n, *a1 = a0 + n;
        for (long p = 0; p < n; p++) {
            double x = a0[p], y = a1[p];
            const double *bp = B + p * k;
            if (x != 0 && y != 0) {
                for (long j = 0; j < k; j++) {
                    double b = bp[j];
                    c0[j] += x * b;
                    c1[j] += y * b;
                }
            } else if (x != 0) {
                for (long j = 0; j < k; j++) c0[j] += x * bp[j];
            } else if (y != 0) {
                for (long j = 0; j < k; j++) c1[j] += y * bp[j];
            }
        }
    }
    for (; i < m; i++) {
        double *ci = C + i * k;
        for (long p = 0; p < n; p++) {
            double a = A[i * n + p];
            const double *bp = B + p * k;
            if (a == 0) continue;
            for (long j = 0; j < k; j++) ci[j] += a * bp[j];
        }
    }
}

/* Midpoint-radius cover under FE_UPWARD: [lo, hi] within c -+ r. With c
 * rounded up, c >= lo and c + (c - lo) >= hi; r = c - lo rounded up. */
static void midrad_up(double *c, double *r, const double *lo, const double *hi, long len)
/* (c, r may alias lo, hi elementwise) */
{
    for (long t = 0; t < len; t++) {
        double l = lo[t], m = l + 0.5 * (hi[t] - l);
        c[t] = m;
        r[t] = m - l;
    }
}

static int all_finite(const double *x, long len)
{
    for (long t = 0; t < len; t++)
        if (!isfinite(x[t])) return 0;
    return 1;
}

/* Verification, following Rump. Predictors in round-to-nearest: W = mid(A),
 * R ~ W^{-1}, x~ = R mid(B), P = fl(R W). Then one switch to FE_UPWARD for
 * all bounds: lower bounds are computed as -(upper bound of the negated
 * quantity), so no second switch is needed.
 *  - [A] within W -+ Ar, Ar = max(W - Alo, Ahi - W) rounded up.
 *  - |fl(R W) - R W| <= gamma_{n+1} |R| |W| + n eta componentwise for any
 *    evaluation order in round-to-nearest (Higham, Thm 3.5, with the
 *    underflow term eta = 2^-1074 per product, bounded by the normal
 *    number 2^-1022 to avoid subnormal arithmetic), hence for every A in [A]
 *      |I - R A| <= |I - P| + gamma |R||W| + n eta + |R| Ar,
 *    whose row sums g (only |R| (|W| e) and |R| (Ar e) are needed, O(n^2))
 *    bound |C| e, and c = max g >= ||I - R A||_inf.
 *  - D = B - A x~ in [Dlo, Dhi], Z = R D in [Zlo, Zhi] (midpoint-radius).
 *  - c < 1: x in x~ + [Zlo, Zhi] -+ g ||Z|| / (1 - c). */
int dvc_fp_verify_solve(long n, long k, const double *Alo, const double *Ahi,
                        const double *Blo, const double *Bhi, double *Xlo, double *Xhi,
                        double *cnorm)
{
    long nn = n * n, nk = n * k;
    int point = memcmp(Alo, Ahi, (size_t)nn * sizeof(double)) == 0;
    int st = DVC_FP_OK;
    double sbuf[1024]; /* small sizes on the stack */
    size_t need = (size_t)(5 * nn + 7 * nk + 5 * n);
    double *buf = need <= 1024 ? sbuf : xalloc(need);
    double *R = buf, *W = R + nn, *P = W + nn, *absR = P + nn, *Ar = absR + nn;
    const double *Wc = W; /* mid(A); Alo itself for a point matrix */
    double *Xt = Ar + nn, *Dlo = Xt + nk, *Dhi = Dlo + nk, *Zlo = Dhi + nk, *Zhi = Zlo + nk;
    double *Q = Zhi + nk, *S = Q + nk;
    double *g = S + nk, *rre = g + n, *are = rre + n, *rwe = are + n, *awe = rwe + n;
    double c = INFINITY;
    int saved = dvc_rnd_save();

    /* ---- predictors, round-to-nearest ---- */
    dvc_rnd_set(FE_TONEAREST);
    if (point)
        Wc = Alo;
    else
        for (long t = 0; t < nn; t++) W[t] = 0.5 * Alo[t] + 0.5 * Ahi[t];
    if (!all_finite(Wc, nn) || dvc_fp_inv(R, Wc, n) != 0) {
        st = DVC_FP_SINGULAR;
        goto done;
    }
    for (long t = 0; t < nk; t++) Dlo[t] = 0.5 * Blo[t] + 0.5 * Bhi[t]; /* mid(B) */
    memset(Xt, 0, (size_t)nk * sizeof(double));
    dvc_fp_gemm_acc(Xt, R, Dlo, n, n, k);
    memset(P, 0, (size_t)nn * sizeof(double));
    dvc_fp_gemm_acc(P, R, Wc, n, n, n);
    if (!all_finite(Xt, nk)) {
        st = DVC_FP_NONFINITE;
        goto done;
    }
    for (long t = 0; t < nn; t++) absR[t] = fabs(R[t]);

    /* ---- bounds, everything rounded upward ---- */
    dvc_rnd_set(FE_UPWARD);
    /* gamma_{n+1} = (n+1)u / (1 - (n+1)u), denominator bounded below. */
    double nu = (double)(n + 1) * 0x1p-53;
    double gam = nu / -(nu - 1.0);
    for (long i = 0; i < n; i++) {
        double s = 0;
        for (long j = 0; j < n; j++) s += fabs(Wc[i * n + j]);
        awe[i] = s;
    }
    memset(rwe, 0, (size_t)n * sizeof(double));
    dvc_fp_gemm_acc(rwe, absR, awe, n, n, 1);
    memset(rre, 0, (size_t)n * sizeof(double));
    if (!point) {
        for (long t = 0; t < nn; t++) Ar[t] = maxn(Wc[t] - Alo[t], Ahi[t] - Wc[t]);
        for (long i = 0; i < n; i++) {
            double s = 0;
            for (long j = 0; j < n; j++) s += Ar[i * n + j];
            are[i] = s;
        }
        dvc_fp_gemm_acc(rre, absR, are, n, n, 1);
        for (long t = 0; t < nk; t++) Q[t] = fabs(Xt[t]);
        memset(S, 0, (size_t)nk * sizeof(double)); /* S = Ar |x~| */
        dvc_fp_gemm_acc(S, Ar, Q, n, n, k);
    }
    /* Underflow: n products per entry, n entries per row, each error at
     * most 2^-1075; n^2 2^-1022 is a larger, normal bound (subnormal
     * operands cost a microcode assist on x86). */
    double under = (double)n * (double)n * 0x1p-1022;
    c = 0;
    for (long i = 0; i < n; i++) {
        double s = 0;
        for (long j = 0; j < n; j++) {
            double pij = P[i * n + j];
            s += i == j ? maxn(1.0 - pij, pij - 1.0) : fabs(pij);
        }
        s += gam * rwe[i] + under + rre[i];
        g[i] = s;
        if (!(s <= c)) c = s; /* propagates NaN */
    }
    /* Residual: Dhi = Bhi - W x~ + S, Dlo = -(-Blo + W x~ + S). */
    for (long t = 0; t < nn; t++) P[t] = -Wc[t];
    memcpy(Dhi, Bhi, (size_t)nk * sizeof(double));
    dvc_fp_gemm_acc(Dhi, P, Xt, n, n, k);
    for (long t = 0; t < nk; t++) Dlo[t] = -Blo[t];
    dvc_fp_gemm_acc(Dlo, Wc, Xt, n, n, k);
    if (!point)
        for (long t = 0; t < nk; t++) {
            Dhi[t] += S[t];
            Dlo[t] += S[t];
        }
    /* Midpoint-radius of D (Dlo <- Dc, Dhi <- Dr), with Dlo negated back. */
    for (long t = 0; t < nk; t++) {
        double lo = -Dlo[t], m = lo + 0.5 * (Dhi[t] - lo);
        Dlo[t] = m;
        Dhi[t] = m - lo;
    }
    /* Z = R Dc -+ |R| Dr: Zhi = R Dc + Q, Zlo = -((-R) Dc + Q). */
    memset(Q, 0, (size_t)nk * sizeof(double));
    dvc_fp_gemm_acc(Q, absR, Dhi, n, n, k);
    memcpy(Zhi, Q, (size_t)nk * sizeof(double));
    dvc_fp_gemm_acc(Zhi, R, Dlo, n, n, k);
    for (long t = 0; t < nn; t++) P[t] = -R[t];
    memcpy(Zlo, Q, (size_t)nk * sizeof(double));
    dvc_fp_gemm_acc(Zlo, P, Dlo, n, n, k);
    for (long t = 0; t < nk; t++) Zlo[t] = -Zlo[t];
    if (!(c < 1)) {
        st = isfinite(c) ? DVC_FP_NOCONTRACT : DVC_FP_NONFINITE;
        goto done;
    }
    double den = -(c - 1.0); /* lower bound of 1 - c */
    for (long l = 0; l < k; l++) {
        double zn = 0;
        for (long i = 0; i < n; i++) zn = maxn(zn, maxn(fabs(Zlo[i * k + l]), fabs(Zhi[i * k + l])));
        double delta = zn / den;
        for (long i = 0; i < n; i++) {
            long t = i * k + l;
            double e = g[i] * delta;
            Xhi[t] = Xt[t] + Zhi[t] + e;
            Xlo[t] = -((-Xt[t] - Zlo[t]) + e);
        }
    }
    dvc_rnd_restore(saved);
    if (!all_finite(Xlo, nk) || !all_finite(Xhi, nk)) st = DVC_FP_NONFINITE;
    *cnorm = c;
    if (buf != sbuf) free(buf);
    return st;

done: /* failure exits */
    dvc_rnd_restore(saved);
    *cnorm = c;
    if (buf != sbuf) free(buf);
    return st;
}

/* Floating Cholesky G G^T of a (lower triangle used), round-to-nearest. */
static int fp_cholesky(double *G, const double *a, long n)
{
    memset(G, 0, (size_t)(n * n) * sizeof(double));
    for (long j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (long p = 0; p < j; p++) d -= G[j * n + p] * G[j * n + p];
        if (!(d > 0) || !isfinite(d)) return -1;
        double gjj = sqrt(d);
        G[j * n + j] = gjj;
        for (long i = j + 1; i < n; i++) {
            double s = a[i * n + j];
            for (long p = 0; p < j; p++) s -= G[i * n + p] * G[j * n + p];
            G[i * n + j] = s / gjj;
        }
    }
    return 0;
}

int dvc_fp_verify_spd(long n, const double *Alo, const double *Ahi, double *margin)
{
    long nn = n * n;
    int st = DVC_FP_NOTPD;
    double *Ac = xalloc((size_t)nn), *Ar = xalloc((size_t)nn), *T = xalloc((size_t)nn);
    double *G = xalloc((size_t)nn), *Gt = xalloc((size_t)nn);
    double *Pu = xalloc((size_t)nn), *Pd = xalloc((size_t)nn);
    double rA = 0, dmax = 0, dsum = 0;
    int saved = dvc_rnd_save();

    *margin = 0;
    dvc_rnd_set(FE_UPWARD);
    midrad_up(Ac, Ar, Alo, Ahi, nn); /* symmetric bounds give symmetric Ac, Ar */
    for (long i = 0; i < n; i++) {
        double s = 0;
        for (long j = 0; j < n; j++) s += Ar[i * n + j];
        rA = fmax(rA, s); /* ||A - Ac||_2 <= ||Ar||_inf for symmetric A - Ac */
    }
    DVC_FP_PIN(rA);
    dvc_rnd_set(FE_TONEAREST);
    if (!all_finite(Ac, nn) || !isfinite(rA)) {
        st = DVC_FP_NONFINITE;
        goto done;
    }
    for (long i = 0; i < n; i++) {
        if (!(Alo[i * n + i] > 0)) goto done;
        double d = sqrt(Ac[i * n + i]);
        dmax = fmax(dmax, d);
        dsum += d;
    }
    /* Shift s (a predictor): rounding errors of a floating Cholesky are at
     * most about (n+1) u d d^T with d_i = sqrt(a_ii); try a generous shift
     * first, then smaller ones for nearly singular matrices. */
    static const double fac[] = {4.0, 1.0, 0.125, 0.0};
    for (int trial = 0; trial < 4; trial++) {
        double s = rA * (1 + 0x1p-40) + fac[trial] * (double)(n + 1) * 0x1p-53 * dmax * dsum;
        DVC_FP_PIN(s); /* one value of the shift everywhere, whatever the mode */
        dvc_rnd_set(FE_TONEAREST);
        memcpy(T, Ac, (size_t)nn * sizeof(double));
        for (long i = 0; i < n; i++) T[i * n + i] -= s;
        if (fp_cholesky(G, T, n) != 0) continue;
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) Gt[j * n + i] = G[i * n + j];
        /* E = Ac - s I - G G^T is exactly symmetric and G G^T is positive
         * semidefinite, so lambda_min(Ac) >= s - ||E||_2 >= s - ||E||_inf,
         * and lambda_min(A) >= that - rA for every symmetric A in [A]. |E| is
         * bounded entrywise from G G^T in [Pd, Pu]. */
        dvc_rnd_set(FE_UPWARD);
        memset(Pu, 0, (size_t)nn * sizeof(double));
        dvc_fp_gemm_acc(Pu, G, Gt, n, n, n);
        dvc_rnd_set(FE_DOWNWARD);
        memset(Pd, 0, (size_t)nn * sizeof(double));
        dvc_fp_gemm_acc(Pd, G, Gt, n, n, n);
        for (long t = 0; t < nn; t++) T[t] = Ac[t] - Pu[t]; /* lower bounds of E off the diagonal */
        for (long i = 0; i < n; i++) T[i * n + i] = (Ac[i * n + i] - s) - Pu[i * n + i];
        dvc_rnd_set(FE_UPWARD);
        double eN = 0;
        for (long i = 0; i < n; i++) {
            double row = 0;
            for (long j = 0; j < n; j++) {
                double hi = (i == j) ? (Ac[i * n + i] - s) - Pd[i * n + i] : Ac[i * n + j] - Pd[i * n + j];
                row += fmax(fabs(hi), fabs(T[i * n + j]));
            }
            if (!(row <= eN)) eN = row;
        }
        DVC_FP_PIN(eN);
        dvc_rnd_set(FE_DOWNWARD);
        double m = (s - eN) - rA;
        dvc_rnd_set(FE_TONEAREST);
        if (!isfinite(eN) || !isfinite(m)) {
            st = DVC_FP_NONFINITE;
            continue;
        }
        if (m > 0) {
            *margin = m;
            st = DVC_FP_OK;
            break;
        }
    }
done:
    dvc_rnd_restore(saved);
    free(Ac);
    free(Ar);
    free(T);
    free(G);
    free(Gt);
    free(Pu);
    free(Pd);
    return st;
}
