/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Verified solve (dvc_imat_solve) against floating-point solves, measured
 * in one run on the same matrices: a plain LU with partial pivoting in
 * double (the library's binary64 LU and substitutions), LAPACK dgesv when
 * the bench was built with it (the library never depends on LAPACK), the
 * explicit-inverse kernel (what dvc_imat_solve falls back to, and what the
 * LVI certifier uses), and the MPFI-loop path (forced by a 54-bit output).
 * Ratios = time / time of the double LU solve. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvicert/dvicert.h"
#include "../src/fprnd.h"
#include "../src/imat_dd.h"

#ifdef DVC_HAVE_LAPACK
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
            const int *ldb, int *info);
#endif

/* CPU time of this thread: the machine is shared, wall time is noisy. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile double sink;

/* The floating-point reference: copy, LU with partial pivoting, solve
 * (the library's own binary64 LU, src/fprnd.c). */
static void lu_solve(double *x, const double *A0, const double *b, long n, double *a, long *piv)
{
    memcpy(a, A0, (size_t)(n * n) * sizeof(double));
    memcpy(x, b, (size_t)n * sizeof(double));
    if (dvc_fp_lu(a, piv, n) == 0) dvc_fp_lu_solve(a, piv, n, x);
}

/* Run stmt repeatedly for about `budget` seconds; out <- min(out, seconds
 * per execution). The caller interleaves the methods round by round and
 * keeps the minimum, which is robust against other load on the machine. */
#define TIME_IT(out, budget, stmt)                                             \
    do {                                                                       \
        long reps_ = 0;                                                        \
        double t0_ = now(), el_;                                               \
        do {                                                                   \
            for (int r_ = 0; r_ < 16; r_++) { stmt; }                          \
            reps_ += 16;                                                       \
            el_ = now() - t0_;                                                 \
        } while (el_ < (budget));                                              \
        if (el_ / (double)reps_ < (out)) (out) = el_ / (double)reps_;          \
    } while (0)

#define ROUNDS 9

int main(int argc, char **argv)
{
    double budget = argc > 1 ? atof(argv[1]) : 1.0; /* seconds per method and size */
    long sizes[] = {2, 8, 32};
    printf("verified solve vs floating-point solve (one run, time per solve)\n");
    printf("point A and b at 53 bits; 'interval' = A with relative radius 1e-10;\n");
    printf("minimum over %d interleaved rounds of each method (thread CPU time);\n", ROUNDS);
    printf("'verif' = dvc_imat_solve (LU factors, point system); 'inv' = the same\n");
    printf("system by the explicit-inverse kernel; 'MPFI path' = the algorithm in\n");
    printf("MPFI loops (output at 54 bits).\n\n");
    printf("%4s %10s %10s %10s %10s %10s %10s | %8s %8s %8s %9s %8s\n", "n", "LU [us]",
           "dgesv [us]", "verif [us]", "inv [us]", "intv [us]", "MPFI [us]", "verif/LU",
           "ver/dgesv", "inv/LU", "intv/LU", "MPFI/LU");
    unsigned long long seed = 12345;
    for (int si = 0; si < 3; si++) {
        long n = sizes[si];
        double *A = malloc((size_t)(n * n) * sizeof(double)), *a = malloc((size_t)(n * n) * sizeof(double));
        double *b = malloc((size_t)n * sizeof(double)), *x = malloc((size_t)n * sizeof(double));
        long *lpiv = malloc((size_t)n * sizeof(long));
        for (long q = 0; q < n * n; q++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            A[q] = (double)(seed >> 11) * 0x1p-53 * 2 - 1 + (q / n == q % n ? 2.0 : 0);
        }
        for (long i = 0; i < n; i++) b[i] = 1.0 + (double)i;
        dvc_imat_t M, Mi;
        dvc_ivec_t vb, vx, vx54;
        dvc_imat_init2(M, n, n, 53);
        dvc_imat_init2(Mi, n, n, 53);
        dvc_ivec_init2(vb, n, 53);
        dvc_ivec_init2(vx, n, 53);
        dvc_ivec_init2(vx54, n, 54);
        dvc_imat_set_d(M, A);
        for (long q = 0; q < n * n; q++)
            dvc_ival_set_dd(Mi->e[q], A[q] - 1e-10 * fabs(A[q]), A[q] + 1e-10 * fabs(A[q]));
        dvc_ivec_set_d(vb, b);
        if (dvc_imat_solve(vx, M, vb) != DVC_OK || dvc_imat_solve(vx, Mi, vb) != DVC_OK ||
            dvc_imat_solve_inv_(vx, M, vb) != DVC_OK || dvc_imat_solve(vx54, M, vb) != DVC_OK) {
            fprintf(stderr, "n=%ld: not certified: %s\n", n, dvc_error_message());
            return 1;
        }
        double t_lu = INFINITY, t_ver = INFINITY, t_inv = INFINITY, t_int = INFINITY, t_mpfi = INFINITY;
        double t_lapack = NAN, bud = budget / ROUNDS;
#ifdef DVC_HAVE_LAPACK
        int nn = (int)n, one = 1, info = 0;
        int *ipiv = malloc((size_t)n * sizeof(int));
        t_lapack = INFINITY;
#endif
        for (int round = 0; round < ROUNDS; round++) {
            TIME_IT(t_lu, bud, { lu_solve(x, A, b, n, a, lpiv); sink = x[0]; });
#ifdef DVC_HAVE_LAPACK
            TIME_IT(t_lapack, bud, {
                memcpy(a, A, (size_t)(n * n) * sizeof(double));
                memcpy(x, b, (size_t)n * sizeof(double));
                dgesv_(&nn, &one, a, &nn, ipiv, x, &nn, &info);
                sink = x[0];
            });
#endif
            TIME_IT(t_ver, bud, { dvc_imat_solve(vx, M, vb); });
            TIME_IT(t_inv, bud, { dvc_imat_solve_inv_(vx, M, vb); });
            TIME_IT(t_int, bud, { dvc_imat_solve(vx, Mi, vb); });
            if (round < 3) TIME_IT(t_mpfi, bud, { dvc_imat_solve(vx54, M, vb); });
        }
#ifdef DVC_HAVE_LAPACK
        free(ipiv);
#endif
        printf("%4ld %10.3f %10.3f %10.3f %10.3f %10.3f %10.1f | %8.2f %8.2f %8.2f %9.2f %8.1f\n", n,
               1e6 * t_lu, 1e6 * t_lapack, 1e6 * t_ver, 1e6 * t_inv, 1e6 * t_int, 1e6 * t_mpfi,
               t_ver / t_lu, t_ver / t_lapack, t_inv / t_lu, t_int / t_lu, t_mpfi / t_lu);
        dvc_imat_clear(M);
        dvc_imat_clear(Mi);
        dvc_ivec_clear(vb);
        dvc_ivec_clear(vx);
        dvc_ivec_clear(vx54);
        free(A);
        free(a);
        free(lpiv);
        free(b);
        free(x);
    }
#ifndef DVC_HAVE_LAPACK
    printf("\n(dgesv column: nan, built without LAPACK)\n");
#endif
    printf("\ntarget: verif/LU <= 5 at n = 8 and 32\n");
    return 0;
}
