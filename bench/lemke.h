/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A plain floating-point Lemke solver for the LCP w = M z + q, w, z >= 0,
 * w^T z = 0 (complementary pivoting with the covering vector e, dense
 * tableau, minimum-ratio test with the artificial variable preferred on
 * ties): the reference a user would otherwise run, for the benchmarks only.
 * Returns 0 with z set, -1 on ray termination or the pivot limit. */
#ifndef DVC_BENCH_LEMKE_H
#define DVC_BENCH_LEMKE_H

#include <string.h>

/* ws: at least n * (2n + 2) doubles; basis: n longs. */
static int bench_lemke(double *z, const double *M, const double *q, long n, double *ws, long *basis)
{
    long w = 2 * n + 2; /* columns: w_1..w_n, z_1..z_n, z0, rhs */
    double *T = ws;
    long r = 0, enter, leave;
    for (long i = 0; i < n; i++) {
        double *ti = T + i * w;
        memset(ti, 0, (size_t)w * sizeof(double));
        ti[i] = 1.0;
        for (long j = 0; j < n; j++) ti[n + j] = -M[i * n + j];
        ti[2 * n] = -1.0;
        ti[2 * n + 1] = q[i];
        basis[i] = i;
        if (q[i] < q[r]) r = i;
    }
    memset(z, 0, (size_t)n * sizeof(double));
    if (n == 0 || q[r] >= 0) return 0;
    enter = 2 * n;
    for (long it = 0; it < 50 * n + 50; it++) {
        /* pivot on (r, enter) */
        double *tr = T + r * w, p = 1.0 / tr[enter];
        for (long j = 0; j < w; j++) tr[j] *= p;
        for (long i = 0; i < n; i++) {
            if (i == r) continue;
            double *ti = T + i * w, f = ti[enter];
            if (f == 0) continue;
            for (long j = 0; j < w; j++) ti[j] -= f * tr[j];
        }
        leave = basis[r];
        basis[r] = enter;
        if (leave == 2 * n) { /* z0 left the basis: solution */
            for (long i = 0; i < n; i++)
                if (basis[i] >= n && basis[i] < 2 * n) z[basis[i] - n] = T[i * w + 2 * n + 1];
            return 0;
        }
        enter = leave < n ? leave + n : leave - n; /* the complement */
        /* minimum-ratio test on the entering column */
        r = -1;
        double best = 0;
        for (long i = 0; i < n; i++) {
            double a = T[i * w + enter];
            if (a <= 1e-12) continue;
            double ratio = T[i * w + 2 * n + 1] / a;
            if (r < 0 || ratio < best || (ratio == best && basis[i] == 2 * n)) {
                r = i;
                best = ratio;
            }
        }
        if (r < 0) return -1;
    }
    return -1;
}

#endif
