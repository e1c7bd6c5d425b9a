/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A lower bound of beta_M from a local search over vertices: steepest
 * ascent of ||(M_JJ)^{-1}|| by adding or removing one index, with a binary64
 * predictor (the centre matrix, Gauss-Jordan, round-to-nearest), from a few
 * starting sets; only the best set found is then evaluated rigorously by the
 * vertex kernel (docs/beta.md section 5, "A good lower bound first"). The
 * predictor chooses the vertex, it proves nothing. */
#include <math.h>
#include <stdlib.h>

#include "beta_kern.h"

/* ||(Mc_JJ)^{-1}||_inf in floating point, -1 when the predictor fails.
 * W: 2 m^2 doubles. */
static double vertex_value(const dvc_bk_mat *K, uint64_t J, double *W)
{
    int idx[64], k = 0;
    double best = 0;
    for (int i = 0; i < K->m; i++)
        if (J >> i & 1) idx[k++] = i;
    if (k == 0) return 0;
    /* [A | I], k rows of 2k */
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            W[(size_t)i * 2 * k + j] = K->Mc[(size_t)idx[i] * K->ld + idx[j]];
            W[(size_t)i * 2 * k + k + j] = i == j;
        }
    for (int c = 0; c < k; c++) {
        int piv = c;
        double *pr, d;
        for (int i = c + 1; i < k; i++)
            if (fabs(W[(size_t)i * 2 * k + c]) > fabs(W[(size_t)piv * 2 * k + c])) piv = i;
        if (!(fabs(W[(size_t)piv * 2 * k + c]) > 0)) return -1;
        if (piv != c)
            for (int j = 0; j < 2 * k; j++) {
                double t = W[(size_t)c * 2 * k + j];
                W[(size_t)c * 2 * k + j] = W[(size_t)piv * 2 * k + j];
                W[(size_t)piv * 2 * k + j] = t;
            }
        pr = W + (size_t)c * 2 * k;
        d = 1.0 / pr[c];
        for (int j = c; j < 2 * k; j++) pr[j] *= d;
        for (int i = 0; i < k; i++) {
            double *ri = W + (size_t)i * 2 * k, f = ri[c];
            if (i == c || f == 0) continue;
            for (int j = c; j < 2 * k; j++) ri[j] -= f * pr[j];
        }
    }
    for (int i = 0; i < k; i++) {
        double s = 0;
        for (int j = 0; j < k; j++) s += fabs(W[(size_t)i * 2 * k + k + j]);
        if (!(s <= best)) best = s;
    }
    return isfinite(best) ? best : -1;
}

/* splitmix64: fixed starting sets, the same on every run */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

dvc_status dvc_bk_local_lower(const dvc_bk_mat *K, double work, dvc_bk_acc *acc)
{
    const int m = K->m;
    const uint64_t all = m == 64 ? ~(uint64_t)0 : ((uint64_t)1 << m) - 1;
    uint64_t seed = 0x5eed, bestJ = all;
    double *W = malloc(sizeof(double) * 2 * (size_t)m * (size_t)m), bestv = -1, done = 0;
    if (W == NULL) abort();
    for (int s = 0; done < work; s++) {
        /* the whole set first, then random halves */
        uint64_t J = s == 0 ? all : mix(&seed) & all;
        double v = vertex_value(K, J, W);
        for (int step = 0; step < 4 * m; step++) {
            uint64_t nb = J;
            double nv = v;
            for (int i = 0; i < m; i++) {
                uint64_t Ji = J ^ (uint64_t)1 << i;
                double ki = (double)__builtin_popcountll(Ji), vi = Ji ? vertex_value(K, Ji, W) : -1;
                done += ki * ki * ki + 1; /* + 1: progress even at tiny sizes */
                if (vi > nv) {
                    nv = vi;
                    nb = Ji;
                }
            }
            if (nb == J) break;
            J = nb;
            v = nv;
        }
        if (v > bestv) {
            bestv = v;
            bestJ = J;
        }
    }
    free(W);
    /* the chosen vertex, rigorously (both of its bounds go into acc) */
    return dvc_bk_enum(K, bestJ, NULL, 0, 0, acc);
}
