/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Binary64 kernels of the DLVI step certification at 53 bits (see
 * internal.h). They redo, operation for operation and in the same
 * order, what the MPFI path of cert_step computes: inf-sup intervals with
 * every upper bound rounded up and every lower bound computed as
 * -(upper bound of the negation), all under FE_UPWARD. At 53 bits every
 * MPFR value is a double and MPFR rounds correctly like IEEE, so in the
 * normal range the results are the MPFI ones bit for bit; outside it
 * (subnormals) they are at least as wide, and overflow or NaN makes the
 * kernel return nonzero so that the caller takes the MPFI path. Rounding
 * modes are switched through src/rounding.h only, and every exit restores
 * the caller's mode. */
#include "dlvi/internal.h"
#include "rounding.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- sparse binary64 copy of an interval matrix ------------------------ */

long dvc_dlvi_pattern_(long *start, long *col, const dvc_imat_t A)
{
    long k = 0;
    for (long i = 0; i < A->r; i++) {
        start[i] = k;
        for (long j = 0; j < A->c; j++) {
            mpfi_ptr e = dvc_imat_entry(A, i, j);
            if (mpfr_zero_p(&e->left) && mpfr_zero_p(&e->right)) continue;
            col[k++] = j;
        }
    }
    start[A->r] = k;
    return k;
}

int dvc_dlvi_fspm_build_(dvc_dlvi_fspm *S, const dvc_imat_t A)
{
    long sz = A->r * A->c + 1;
    memset(S, 0, sizeof *S);
    S->r = A->r;
    S->start = calloc((size_t)(A->r + 1), sizeof(long));
    S->col = calloc((size_t)sz, sizeof(long));
    S->lo = calloc((size_t)sz, sizeof(double));
    S->hi = calloc((size_t)sz, sizeof(double));
    if (!S->start || !S->col || !S->lo || !S->hi) abort();
    S->ok = 1;
    dvc_dlvi_pattern_(S->start, S->col, A);
    for (long i = 0; i < A->r; i++)
        for (long k = S->start[i]; k < S->start[i + 1]; k++) {
            mpfi_ptr e = dvc_imat_entry(A, i, S->col[k]);
            /* outward; exact when the endpoints are doubles */
            S->lo[k] = mpfr_get_d(&e->left, MPFR_RNDD);
            S->hi[k] = mpfr_get_d(&e->right, MPFR_RNDU);
            if (!isfinite(S->lo[k]) || !isfinite(S->hi[k])) S->ok = 0;
        }
    return S->ok;
}

void dvc_dlvi_fspm_clear_(dvc_dlvi_fspm *S)
{
    free(S->start);
    free(S->col);
    free(S->lo);
    free(S->hi);
    memset(S, 0, sizeof *S);
}

/* ---- interval operations under FE_UPWARD -------------------------------- */

/* lo/hi[i] += sum_k S_ik [xlo_k, xhi_k] in MPFI's order */
void dvc_dlvi_spm_addmul_u_(double *lo, double *hi, const dvc_dlvi_fspm *S, const double *xlo, const double *xhi)
{
    for (long i = 0; i < S->r; i++) {
        double sl = lo[i], sh = hi[i];
        for (long k = S->start[i]; k < S->start[i + 1]; k++) {
            double pl, ph;
            long j = S->col[k];
            dvc_fi_mul_(S->lo[k], S->hi[k], xlo[j], xhi[j], &pl, &ph);
            sh = sh + ph;
            sl = -((-sl) + (-pl));
        }
        lo[i] = sl;
        hi[i] = sh;
    }
}

static int all_finite(const double *v, long n)
{
    for (long k = 0; k < n; k++)
        if (!isfinite(v[k])) return 0;
    return 1;
}

int dvc_dlvi_fast_q_(double *qlo, double *qhi, const dvc_dlvi_fspm *Q, const double *x,
                    const double *glo, const double *ghi)
{
    int ok;
    long m = Q->r;
    memcpy(qlo, glo, (size_t)m * sizeof(double));
    memcpy(qhi, ghi, (size_t)m * sizeof(double));
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    dvc_dlvi_spm_addmul_u_(qlo, qhi, Q, x, x);
    dvc_rnd_restore(saved);
    ok = all_finite(qlo, m) && all_finite(qhi, m);
    return ok ? 0 : -1;
}

int dvc_dlvi_fast_step_(dvc_dlvi_fast_io *io)
{
    long n = io->n;
    double v0n = 0.0, dn = 0.0, dx = 0.0;
    double *wl = io->wlo, *wh = io->whi, *zl = io->zlo, *zh = io->zhi;
    const double *x0 = io->x0, *x1 = io->x1;
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    /* ||A x^i + B yhat^i + f(t_i)|| */
    memcpy(wl, io->f0lo, (size_t)n * sizeof(double));
    memcpy(wh, io->f0hi, (size_t)n * sizeof(double));
    dvc_dlvi_spm_addmul_u_(wl, wh, io->A, x0, x0);
    dvc_dlvi_spm_addmul_u_(wl, wh, io->B, io->y0lo, io->y0hi);
    for (long k = 0; k < n; k++) {
        double t = dvc_fi_mag_(wl[k], wh[k]);
        if (!(t <= v0n)) v0n = t;
    }
    /* z = x^{i+1} + theta (x^i - x^{i+1}) */
    for (long k = 0; k < n; k++) {
        double sl = -(x1[k] - x0[k]), sh = x0[k] - x1[k], pl, ph;
        dvc_fi_mul_(sl, sh, io->thlo, io->thhi, &pl, &ph);
        zh[k] = ph + x1[k];
        zl[k] = -((-pl) + (-x1[k]));
    }
    memcpy(wl, io->f1lo, (size_t)n * sizeof(double));
    memcpy(wh, io->f1hi, (size_t)n * sizeof(double));
    dvc_dlvi_spm_addmul_u_(wl, wh, io->A, zl, zh);
    dvc_dlvi_spm_addmul_u_(wl, wh, io->B, io->y1lo, io->y1hi);
    for (long a = 0; a < n; a++) {
        double ul, uh, sl, sh, t;
        /* u = w h; s = x^{i+1} - x^i; s - u */
        dvc_fi_mul_(wl[a], wh[a], io->hlo, io->hhi, &ul, &uh);
        sl = -(x0[a] - x1[a]);
        sh = x1[a] - x0[a];
        t = dvc_fi_mag_(sl, sh);
        if (!(t <= dx)) dx = t;
        {
            double dl = -((-sl) + uh), dh = sh + (-ul);
            t = dvc_fi_mag_(dl, dh);
        }
        if (!isfinite(t)) {
            dvc_rnd_restore(saved);
            return -1;
        }
        if (t > dn) dn = t;
    }
    DVC_FP_PIN(v0n);
    DVC_FP_PIN(dn);
    DVC_FP_PIN(dx);
    dvc_rnd_restore(saved);
    if (!isfinite(v0n) || !isfinite(dx)) return -1;
    io->v0n = v0n;
    io->dn = dn;
    io->dx = dx;
    return 0;
}

int dvc_dlvi_fast_recur_(dvc_dlvi_fast_rec *c)
{
    double v0, cc, Lx, r1, r2, eps, epsy;
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    v0 = c->L * c->eps_i;
    v0 = v0 + c->v0n;
    cc = c->bnB * c->Lg;
    cc = cc + c->Lf;
    Lx = v0 * c->eLh;
    r1 = cc * c->phi;
    Lx = Lx + r1;
    eps = c->L * Lx;
    eps = eps + cc;
    eps = eps * c->a1;
    r1 = c->a0 * c->eps_i;
    eps = eps + r1;
    r1 = c->invD * c->dn;
    eps = eps + r1;
    /* eps_y = beta nQ eps + ||[yhat] - y|| */
    r1 = c->beta * c->nQ;
    r1 = r1 * eps;
    epsy = r1 + c->ydev;
    /* ry = beta (nQ (eps + min(dx, Lx h)) + Lg h) */
    r1 = Lx * c->hhi;
    if (c->dx < r1) r1 = c->dx;
    r1 = r1 + eps;
    r1 = r1 * c->nQ;
    r2 = c->Lg * c->hhi;
    r1 = r1 + r2;
    r1 = r1 * c->beta;
    DVC_FP_PIN(v0);
    DVC_FP_PIN(cc);
    DVC_FP_PIN(Lx);
    DVC_FP_PIN(eps);
    DVC_FP_PIN(epsy);
    DVC_FP_PIN(r1);
    dvc_rnd_restore(saved);
    if (!isfinite(Lx) || !isfinite(eps) || !isfinite(epsy) || !isfinite(r1) || !isfinite(cc)) return -1;
    c->Lx = Lx;
    c->cc = cc;
    c->eps = eps;
    c->eps_y = epsy;
    c->ry = r1;
    return 0;
}

double dvc_dlvi_fast_ydev_(const double *ylo, const double *yhi, const double *y, long m)
{
    double r = 0.0;
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (long k = 0; k < m; k++) {
        /* mag([ylo - y, yhi - y]) = max(y - ylo, yhi - y) rounded up */
        double a = y[k] - ylo[k], b = yhi[k] - y[k];
        double t = dvc_fi_mag_(-a, b);
        if (!(t <= r)) r = t;
    }
    DVC_FP_PIN(r);
    dvc_rnd_restore(saved);
    return r;
}
