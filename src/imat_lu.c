/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The binary64 verified solve of a point or interval system with one
 * right-hand side by the LU factors and their triangular inverses
 * (dvc_fp_solve_lu_, imat_dd.h), tried first by dvc_imat_solve at 53 bits
 * (imat_solve.c); the explicit-inverse kernel of src/fprnd.c is the
 * fallback when its a priori bound does not prove regularity. */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fprnd.h"
#include "fpflags.h"
#include "imat_dd.h"
#include "rounding.h"

/* ---- binary64 solve with the LU factors (k = 1) ---------------------------
 *
 * R = X_U X_L P, never formed: P W = L U + E is the floating LU of W =
 * mid(A) (partial pivoting), X_L ~ L^{-1} and X_U ~ U^{-1} are computed row
 * by row, so that their left residuals F_L = X_L L - I and F_U = X_U U - I
 * are those of triangular substitutions. With no underflow, overflow or
 * invalid operation in round-to-nearest (checked with the sticky flags),
 * Higham's bounds (Thm 9.3 for the LU with reciprocal pivots, Lemma 8.4 for
 * the substitutions) give, with gamma = gamma_{n+3},
 *     |E| <= gamma |L||U|,  |F_L| <= gamma |X_L||L|,  |F_U| <= gamma |X_U||U|.
 * Since I - R W = -(F_U + X_U F_L U + X_U X_L E),
 *     |I - R A| e <= |X_U| (gamma |U| e + |X_L| (2 gamma |L||U| e + P Ar e)) =: g
 * for every A in [A] (Ar the radius), which costs matrix-vector products
 * only: the O(n^3) work is the LU and the two triangular inverses (2/3 n^3
 * multiply-adds, against 2 n^3 for the explicit inverse and R mid(A)). The
 * residual D = b - A x~ is enclosed error-free (residual_eft): its radius,
 * which Z = X_U (X_L (P D)) (midpoint-radius form) multiplies by
 * |X_U||X_L| >= |R|, is then of order u^2. For c = max g < 1,
 * x in x~ + Z -+ g ||Z|| / (1 - c). Every bound is computed under
 * FE_UPWARD, lower bounds as -(upper bound of the negation); summation
 * order does not matter for upward-rounded sums of upper bounds, nor for
 * the gamma bounds, so the dot products use several accumulators.
 * The bound on c is a priori, hence larger than the computed ||I - R A||
 * of the explicit-inverse kernel; when it is not < 1 (or a flag was
 * raised) the caller runs that kernel. */

#if defined(__GNUC__) && !defined(__clang__)
#define IMAT_VEC __attribute__((optimize("O3")))
#else
#define IMAT_VEC
#endif

static inline double maxn(double a, double b) { return (a > b || a != a) ? a : b; }

/* Rows of X_L ~ L^{-1} (L unit lower, strictly lower part of lu), each
 * from x^T L = e_i^T: x_j = -sum_{j<k<=i} x_k l_kj, k descending. Swept by
 * k over all rows at once (the same operations in the same order as row
 * by row, without a row's chain of dependent loads and stores); only the
 * entries j <= i are written. */
IMAT_VEC static void inv_lower_rows(double *restrict XL, const double *restrict lu, long n)
{
    for (long i = 0; i < n; i++) {
        double *x = XL + i * n;
        for (long j = 0; j < i; j++) x[j] = 0;
        x[i] = 1;
    }
    for (long k = n - 1; k >= 1; k--) {
        const double *lk = lu + k * n;
        for (long i = k; i < n; i++) {
            double *x = XL + i * n, xk = x[k];
            if (xk == 0) continue;
            for (long j = 0; j < k; j++) x[j] -= xk * lk[j];
        }
    }
}

/* Rows of X_U ~ U^{-1} (upper part of lu), each from x^T U = e_i^T with
 * the reciprocals d of the pivots: x_j = (delta_ij - sum_{i<=k<j} x_k u_kj)
 * d_j, k ascending; swept by j over all rows at once as above. Only the
 * entries j >= i are written. */
IMAT_VEC static void inv_upper_rows(double *restrict XU, const double *restrict lu,
                                    const double *restrict d, long n)
{
    for (long i = 0; i < n; i++) {
        double *x = XU + i * n;
        x[i] = 1;
        for (long j = i + 1; j < n; j++) x[j] = 0;
    }
    for (long j = 0; j < n; j++) {
        const double *uj = lu + j * n;
        for (long i = 0; i <= j; i++) {
            double *x = XU + i * n, xj = x[j] * d[j];
            x[j] = xj;
            if (xj == 0) continue;
            for (long m = j + 1; m < n; m++) x[m] -= xj * uj[m];
        }
    }
}

/* Over a[0..len): s[0] += sum a v, s[1] += sum a (-v), s[2] += sum |a| r,
 * s[3] += sum |a| w, in the current rounding mode (FE_UPWARD: upper bounds;
 * with two accumulators per sum). */
IMAT_VEC static void dot4(double *s, const double *restrict a, const double *restrict v,
                          const double *restrict r, const double *restrict w, long len)
{
    double p0 = 0, p1 = 0, q0 = 0, q1 = 0, e0 = 0, e1 = 0, f0 = 0, f1 = 0;
    long j = 0;
    for (; j + 1 < len; j += 2) {
        double a0 = a[j], a1 = a[j + 1], b0 = fabs(a0), b1 = fabs(a1);
        p0 += a0 * v[j];
        p1 += a1 * v[j + 1];
        q0 += a0 * -v[j];
        q1 += a1 * -v[j + 1];
        e0 += b0 * r[j];
        e1 += b1 * r[j + 1];
        f0 += b0 * w[j];
        f1 += b1 * w[j + 1];
    }
    if (j < len) {
        double a0 = a[j], b0 = fabs(a0);
        p0 += a0 * v[j];
        q0 += a0 * -v[j];
        e0 += b0 * r[j];
        f0 += b0 * w[j];
    }
    s[0] += p0 + p1;
    s[1] += q0 + q1;
    s[2] += e0 + e1;
    s[3] += f0 + f1;
}

/* sum a v over a[0..len), current rounding mode. */
IMAT_VEC static double dot1(const double *restrict a, const double *restrict v, long len)
{
    double p0 = 0, p1 = 0;
    long j = 0;
    for (; j + 1 < len; j += 2) {
        p0 += a[j] * v[j];
        p1 += a[j + 1] * v[j + 1];
    }
    if (j < len) p0 += a[j] * v[j];
    return p0 + p1;
}

/* sum |a| v over a[0..len), current rounding mode. */
IMAT_VEC static double dot_abs(const double *restrict a, const double *restrict v, long len)
{
    double p0 = 0, p1 = 0;
    long j = 0;
    for (; j + 1 < len; j += 2) {
        p0 += fabs(a[j]) * v[j];
        p1 += fabs(a[j + 1]) * v[j + 1];
    }
    if (j < len) p0 += fabs(a[j]) * v[j];
    return p0 + p1;
}

/* Residual of the point system (W, bc) at x~, error-free: with W^T in wt
 * (row j = column j of W), for every row i at once,
 *     bc_i - sum_j w_ij x_j = s_i + sum_j (q_ij - e_ij)   exactly,
 * where w x = p + e (Dekker's product with Veltkamp's splitting) and
 * s - p = s' + q (Knuth's TwoSum), valid in round-to-nearest when no
 * operation underflows or overflows (the caller checks the flags). On
 * return rc = fl(s + t) with t = fl(sum (q - e)). Since |e| <= u |p| and
 * |q| <= u |s'|, sum |q| + |e| <= 2 (n+1) u (|bc_i| + sum_j |w_ij x_j|), and
 *     |bc_i - (W x~)_i - rc_i| <= u |rc_i| + 4 (n+1) u gamma_{n+3}
 *                                  (|bc_i| + ||W_i||_1 ||x~||_inf)
 * (the second term is of order u^2). Two columns per pass over the rows:
 * the lanes i are independent, so the loop vectorises without
 * reassociation. */
IMAT_VEC static void residual_eft(double *restrict rc, double *restrict t,
                                  const double *restrict wt, const double *restrict x,
                                  const double *restrict bc, long n)
{
    long j = 0;
    for (long i = 0; i < n; i++) {
        rc[i] = bc[i]; /* s */
        t[i] = 0;
    }
    for (; j + 1 < n; j += 2) {
        const double *w0 = wt + j * n, *w1 = w0 + n;
        double x0 = x[j], c0 = 134217729.0 * x0, h0 = c0 - (c0 - x0), l0 = x0 - h0;
        double x1 = x[j + 1], c1 = 134217729.0 * x1, h1 = c1 - (c1 - x1), l1 = x1 - h1;
        for (long i = 0; i < n; i++) {
            double a = w0[i], p = a * x0, ca = 134217729.0 * a;
            double ah = ca - (ca - a), al = a - ah;
            double e = ((ah * h0 - p) + ah * l0 + al * h0) + al * l0;
            double s = rc[i], sn = s - p, z = sn - s;
            double q = (s - (sn - z)) + (-p - z), ti = t[i] + (q - e);
            a = w1[i], p = a * x1, ca = 134217729.0 * a;
            ah = ca - (ca - a), al = a - ah;
            e = ((ah * h1 - p) + ah * l1 + al * h1) + al * l1;
            s = sn, sn = s - p, z = sn - s;
            q = (s - (sn - z)) + (-p - z);
            rc[i] = sn;
            t[i] = ti + (q - e);
        }
    }
    for (; j < n; j++) {
        const double *w0 = wt + j * n;
        double x0 = x[j], c0 = 134217729.0 * x0, h0 = c0 - (c0 - x0), l0 = x0 - h0;
        for (long i = 0; i < n; i++) {
            double a = w0[i], p = a * x0, ca = 134217729.0 * a;
            double ah = ca - (ca - a), al = a - ah;
            double e = ((ah * h0 - p) + ah * l0 + al * h0) + al * l0;
            double s = rc[i], sn = s - p, z = sn - s;
            double q = (s - (sn - z)) + (-p - z);
            rc[i] = sn;
            t[i] += q - e;
        }
    }
    for (long i = 0; i < n; i++) rc[i] += t[i];
}

static void permute(double *v, const long *piv, long n)
{
    for (long k = 0; k < n; k++)
        if (piv[k] != k) {
            double t = v[k];
            v[k] = v[piv[k]];
            v[piv[k]] = t;
        }
}

IMAT_VEC int dvc_fp_solve_lu_(long n, const double *Alo, const double *Ahi, const double *blo,
                     const double *bhi, double *xlo, double *xhi, double *cnorm)
{
    long nn = n * n;
    int point = Alo == Ahi || memcmp(Alo, Ahi, (size_t)nn * sizeof(double)) == 0;
    int st = DVC_FP_OK;
    double sbuf[5 * 256 + 16 * 16]; /* n <= 16 on the stack */
    long spiv[16];
    size_t need = (size_t)(5 * nn + 16 * n);
    double *buf = n <= 16 ? sbuf : malloc(need * sizeof(double));
    long *piv = n <= 16 ? spiv : malloc((size_t)n * sizeof(long));
    double *W = buf, *LU = W + nn, *XL = LU + nn, *XU = XL + nn, *WT = XU + nn;
    double *xt = WT + nn, *d = xt + n, *dlo = d + n, *dhi = dlo + n, *are = dhi + n;
    double *u1 = are + n, *wv = u1 + n, *h = wv + n, *c1 = h + n, *r1 = c1 + n, *g = r1 + n;
    double *zlo = g + n, *zhi = zlo + n, *cz = zhi + n, *rz = cz + n;
    const double *Wc = point ? Alo : W;
    double c = INFINITY, s4[4];
    int saved;
    if (!buf || !piv) abort();
    saved = dvc_rnd_save();

    /* ---- predictors, round-to-nearest, no exceptional operation ---- */
    if (saved != FE_TONEAREST) dvc_rnd_set(FE_TONEAREST);
    dvc_flag_state fs = dvc_flags_clear();
    if (!point)
        for (long t = 0; t < nn; t++) W[t] = 0.5 * Alo[t] + 0.5 * Ahi[t];
    memcpy(LU, Wc, (size_t)nn * sizeof(double));
    int lu_ok = dvc_fp_lu(LU, piv, n) == 0;
    if (lu_ok) {
        for (long j = 0; j < n; j++) d[j] = 1.0 / LU[j * n + j];
        inv_lower_rows(XL, LU, n);
        inv_upper_rows(XU, LU, d, n);
        /* x~ = X_U X_L P mid(b): a predictor, by independent dot products
         * rather than the dependent substitutions */
        for (long i = 0; i < n; i++) cz[i] = 0.5 * blo[i] + 0.5 * bhi[i]; /* bc */
        memcpy(dlo, cz, (size_t)n * sizeof(double));
        permute(dlo, piv, n);
        for (long i = 0; i < n; i++) dhi[i] = dot1(XL + i * n, dlo, i + 1);
        for (long i = 0; i < n; i++) xt[i] = dot1(XU + i * n + i, dhi + i, n - i);
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) WT[j * n + i] = Wc[i * n + j];
        residual_eft(dlo, rz, WT, xt, cz, n); /* rc in dlo */
    }
    if (dvc_flags_raised(fs) || !lu_ok) {
        st = lu_ok ? DVC_FP_NONFINITE : DVC_FP_SINGULAR;
        goto done;
    }

    /* ---- bounds, everything rounded upward ---- */
    double nu = (double)(n + 3) * 0x1p-53; /* exact */
    dvc_rnd_set(FE_UPWARD);
    DVC_FP_PIN(nu); /* gam is computed from here on, rounded up */
    double gam = nu / -(nu - 1.0); /* gamma_{n+3} */
    /* D = b - A x~ within rc -+ dr for every A in [A], b in [b]:
     * dr = u |rc| + 4 (n+1) u gamma (|bc| + ||W_i||_1 ||x~||) + br + Ar |x~|,
     * br >= |b - bc| */
    double gam2 = (4 * gam) * ((double)(n + 1) * 0x1p-53), xmax = 0;
    for (long i = 0; i < n; i++) xmax = maxn(xmax, fabs(xt[i]));
    for (long i = 0; i < n; i++) g[i] = 0; /* ||W_i||_1, over the rows of W^T */
    for (long j = 0; j < n; j++)
        for (long i = 0; i < n; i++) g[i] += fabs(WT[j * n + i]);
    for (long i = 0; i < n; i++) {
        double dr = (0x1p-53 * fabs(dlo[i]) + gam2 * (fabs(cz[i]) + g[i] * xmax)) +
                    maxn(bhi[i] - cz[i], cz[i] - blo[i]);
        double sa = 0, sr = 0;
        if (!point) /* Ar = max(W - Alo, Ahi - W) >= the radius, row by row */
            for (long j = 0; j < n; j++) {
                long t = i * n + j;
                double ar = maxn(Wc[t] - Alo[t], Ahi[t] - Wc[t]);
                sa += ar * fabs(xt[j]);
                sr += ar;
            }
        rz[i] = dr + sa;
        are[i] = sr;
    }
    memcpy(cz, dlo, (size_t)n * sizeof(double));
    permute(cz, piv, n); /* P D within cz -+ rz */
    permute(rz, piv, n);
    permute(are, piv, n);
    /* u1 = |U| e, v1 = |L| u1 (in h), wv = 2 gamma v1 + P Ar e */
    for (long i = 0; i < n; i++) {
        const double *r = LU + i * n;
        double s0 = 0, s1 = 0;
        long j = i;
        for (; j + 1 < n; j += 2) {
            s0 += fabs(r[j]);
            s1 += fabs(r[j + 1]);
        }
        if (j < n) s0 += fabs(r[j]);
        u1[i] = s0 + s1;
    }
    for (long i = 0; i < n; i++) {
        double s = u1[i] + dot_abs(LU + i * n, u1, i);
        wv[i] = (2 * gam) * s + are[i];
    }
    /* X_L pass: h = gamma u1 + |X_L| wv; Y = X_L (P D) within [ylo, yhi] */
    for (long i = 0; i < n; i++) {
        s4[0] = s4[1] = s4[2] = s4[3] = 0;
        dot4(s4, XL + i * n, cz, rz, wv, i + 1);
        h[i] = gam * u1[i] + s4[3];
        dlo[i] = -(s4[1] + s4[2]);
        dhi[i] = s4[0] + s4[2];
    }
    for (long i = 0; i < n; i++) {
        double m = dlo[i] + 0.5 * (dhi[i] - dlo[i]);
        c1[i] = m;
        r1[i] = m - dlo[i];
    }
    /* X_U pass: g = |X_U| h; Z = X_U Y within [zlo, zhi] */
    c = 0;
    for (long i = 0; i < n; i++) {
        s4[0] = s4[1] = s4[2] = s4[3] = 0;
        dot4(s4, XU + i * n + i, c1 + i, r1 + i, h + i, n - i);
        g[i] = s4[3];
        zlo[i] = -(s4[1] + s4[2]);
        zhi[i] = s4[0] + s4[2];
        if (!(g[i] <= c)) c = g[i]; /* propagates NaN */
    }
    if (!(c < 1)) {
        st = isfinite(c) ? DVC_FP_NOCONTRACT : DVC_FP_NONFINITE;
        goto done;
    }
    double den = -(c - 1.0), zn = 0; /* den <= 1 - c */
    for (long i = 0; i < n; i++) zn = maxn(zn, maxn(fabs(zlo[i]), fabs(zhi[i])));
    double delta = zn / den;
    for (long i = 0; i < n; i++) {
        double e = g[i] * delta;
        xhi[i] = (xt[i] + zhi[i]) + e;
        xlo[i] = -((-xt[i] - zlo[i]) + e);
        if (!isfinite(xhi[i]) || !isfinite(xlo[i])) st = DVC_FP_NONFINITE;
    }
done:
    dvc_rnd_restore(saved);
    *cnorm = c;
    if (buf != sbuf) free(buf);
    if (piv != spiv) free(piv);
    return st;
}
