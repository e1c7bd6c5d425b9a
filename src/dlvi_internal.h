/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the DLVI engine (dlvi.c, dlvi_step.c). */
#ifndef DVC_DLVI_INTERNAL_H
#define DVC_DLVI_INTERNAL_H

#include <stdarg.h>
#include "dvicert/dlvi.h"

dvc_status dvc_dlvi_result_alloc_(dvc_dlvi_result_t r, long n, long m, long N, mpfr_prec_t prec);

/* MPFI has no mpfi_inits2 / mpfi_clears: NULL-terminated lists. */
static inline void dvc_dlvi_iinits_(mpfr_prec_t prec, mpfi_ptr x, ...)
{
    va_list ap;
    va_start(ap, x);
    while (x != NULL) {
        mpfi_init2(x, prec);
        x = va_arg(ap, mpfi_ptr);
    }
    va_end(ap);
}

static inline void dvc_dlvi_iclears_(mpfi_ptr x, ...)
{
    va_list ap;
    va_start(ap, x);
    while (x != NULL) {
        mpfi_clear(x);
        x = va_arg(ap, mpfi_ptr);
    }
    va_end(ap);
}

/* ---- binary64 kernels of the step certification (dlvi_fast.c) ----------
 * Used when the working precision is 53 bits: same operations in the same
 * order as the MPFI path, inf-sup with directed rounding, so the bounds
 * are the MPFI ones (bit for bit in the normal range, never tighter).
 * Nonzero return: a non-finite value appeared; the caller then redoes the
 * step with MPFI. Setting the environment variable DVC_DLVI_NOFAST (tests)
 * forces the MPFI path. */
typedef struct {
    long r;
    long *start, *col; /* nonzero entries by row */
    double *lo, *hi;   /* outward binary64 copies of the endpoints */
    int ok;            /* every endpoint finite */
} dvc_dlvi_fspm;

/* Row-compressed pattern of the entries of A that are not exactly [0, 0]
 * (shared by the MPFI and the binary64 sparse copies): start needs A->r + 1
 * slots, col A->r * A->c; returns the number of entries kept. */
long dvc_dlvi_pattern_(long *start, long *col, const dvc_imat_t A);

int dvc_dlvi_fspm_build_(dvc_dlvi_fspm *S, const dvc_imat_t A);
void dvc_dlvi_fspm_clear_(dvc_dlvi_fspm *S);

/* q = g + Q x (x point): 0, or -1 when not finite. */
int dvc_dlvi_fast_q_(double *qlo, double *qhi, const dvc_dlvi_fspm *Q, const double *x,
                    const double *glo, const double *ghi);

typedef struct {
    long n;
    const dvc_dlvi_fspm *A, *B;
    const double *x0, *x1;                 /* x^i, x^{i+1} */
    const double *f0lo, *f0hi, *f1lo, *f1hi; /* f(t_i), f(t_{i+1}) */
    const double *y0lo, *y0hi, *y1lo, *y1hi; /* [yhat^i], [yhat^{i+1}] */
    double thlo, thhi, hlo, hhi;           /* theta, h */
    double *wlo, *whi, *zlo, *zhi;         /* scratch, n each */
    /* out, rounded up: ||A x^i + B yhat^i + f(t_i)||, ||delta_i||,
     * ||x^{i+1} - x^i|| */
    double v0n, dn, dx;
} dvc_dlvi_fast_io;

int dvc_dlvi_fast_step_(dvc_dlvi_fast_io *io);

/* The scalar recursion of one step (docs/bounds.md sections 3, 4, 6), all
 * rounded up; inputs are upper bounds. */
typedef struct {
    double L, bnB, eLh, phi, a0, a1, invD, beta, nQ, hhi; /* constants */
    double eps_i, v0n, Lf, Lg, dn, dx, ydev;             /* step data */
    double Lx, cc, eps, eps_y, ry;                       /* out */
} dvc_dlvi_fast_rec;

int dvc_dlvi_fast_recur_(dvc_dlvi_fast_rec *c);

/* max_k |[ylo_k, yhi_k] - y_k|, rounded up. */
double dvc_dlvi_fast_ydev_(const double *ylo, const double *yhi, const double *y, long m);

#endif
