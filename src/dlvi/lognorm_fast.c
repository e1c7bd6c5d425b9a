/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Binary64 kernels of the lognorm route at 53 bits (docs/lognorm.md
 * section 10): the end values of the defect on single-pattern steps,
 * their norms, and the error-set step. Inf-sup intervals under FE_UPWARD
 * (every upper bound rounded up, every lower bound as -(upper bound of
 * the negation)), so each result encloses the exact one as the MPFI path
 * does; the operations are grouped differently, so the endpoints may
 * differ from the MPFI ones in the last bits. A nonzero return means a
 * non-finite value (or an inverse that cannot be proven) appeared and
 * nothing was written to the caller's state: the caller redoes the work
 * in MPFI. Rounding modes go through src/rounding.h; the caller's mode is
 * restored on every exit. */
#include "dlvi/lognorm_internal.h"
#include "rounding.h"

#include <math.h>
#include <string.h>

/* ---- interval helpers, under FE_UPWARD ----------------------------------- */

static inline void fadd(double al, double ah, double bl, double bh, double *lo, double *hi)
{
    *hi = ah + bh;
    *lo = -((-al) + (-bl));
}

static inline void fsub(double al, double ah, double bl, double bh, double *lo, double *hi)
{
    *hi = ah + (-bl);
    *lo = -((-al) + bh);
}

/* [q] = [a / b] for the exact integers a, b > 0 as doubles */
static inline void fquot(double a, double b, double *lo, double *hi)
{
    *hi = a / b;
    *lo = -((-a) / b);
}

static int finite_all(const double *v, long n)
{
    for (long k = 0; k < n; k++)
        if (!isfinite(v[k])) return 0;
    return 1;
}

/* y += M x, M dense n x n intervals (row-major), x intervals */
static void dmv_add(double *ylo, double *yhi, const double *Mlo, const double *Mhi, const double *xlo,
                    const double *xhi, long n)
{
    for (long i = 0; i < n; i++) {
        double sl = ylo[i], sh = yhi[i];
        for (long j = 0; j < n; j++) {
            double pl, ph;
            dvc_fi_mul_(Mlo[i * n + j], Mhi[i * n + j], xlo[j], xhi[j], &pl, &ph);
            fadd(sl, sh, pl, ph, &sl, &sh);
        }
        ylo[i] = sl;
        yhi[i] = sh;
    }
}

static double inorm_inf(const double *lo, const double *hi, long n)
{
    double r = 0.0;
    for (long k = 0; k < n; k++) {
        double t = dvc_fi_mag_(lo[k], hi[k]);
        if (!(t <= r)) r = t;
    }
    return r;
}

/* [v] + [-r, r] */
static void inflate(double *lo, double *hi, long n, double r)
{
    for (long k = 0; k < n; k++) {
        hi[k] = hi[k] + r;
        lo[k] = -((-lo[k]) + r);
    }
}

/* ---- the defect's ends ----------------------------------------------------- */

int dvc_lnf_defect_(dvc_lnf_defect_io *io)
{
    long n = io->n, m = io->m, K = io->K;
    double *dxl = io->w, *dxh = dxl + n, *xml = dxh + n, *xmh = xml + n, *dhl = xmh + n, *dhh = dhl + n;
    double *vl = dhh + n, *vh = vl + n, *pl = vh + n, *ph = pl + n, *fl = ph + n, *fh = fl + n;
    double *tl = fh + n, *th = tl + m, *Yl = th + m, *Yh = Yl + m;
    double ihl, ihh, h2l, h2h, twoK = (double)(2 * K);
    int ok, saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    /* dx = x^{i+1} - x^i, x_m = x^i + dx/2, dx/h (1/h enclosed) */
    ihh = 1.0 / io->hlo;
    ihl = -((-1.0) / io->hhi);
    for (long c = 0; c < n; c++) {
        double hl, hh;
        dxh[c] = io->xn[c] - io->xi[c];
        dxl[c] = -(io->xi[c] - io->xn[c]);
        hh = dxh[c] * 0.5;
        hl = -((-dxl[c]) * 0.5);
        fadd(io->xi[c], io->xi[c], hl, hh, &xml[c], &xmh[c]);
        dvc_fi_mul_(dxl[c], dxh[c], ihl, ihh, &dhl[c], &dhh[c]);
    }
    /* h/(2K) */
    h2h = io->hhi / twoK;
    h2l = -((-io->hlo) / twoK);
    for (long k = 0; k < K; k++) {
        const double *c0 = io->c0 + k * io->cstride;
        /* f(tau_k) */
        if (io->fone) {
            double cl, ch, sl, sh;
            fquot((double)(2 * k + 1 - K), twoK, &cl, &ch);
            dvc_fi_mul_(cl, ch, io->hlo, io->hhi, &sl, &sh);
            for (long c = 0; c < n; c++) {
                double ql, qh;
                dvc_fi_mul_(sl, sh, io->Fslo[c], io->Fshi[c], &ql, &qh);
                fadd(io->fmlo[c], io->fmhi[c], ql, qh, &fl[c], &fh[c]);
            }
        } else {
            memcpy(fl, io->fklo + k * n, (size_t)n * sizeof(double));
            memcpy(fh, io->fkhi + k * n, (size_t)n * sizeof(double));
        }
        /* the remainder box (s - tau)(C - c0), s - tau in [-h/(2K), h/(2K)] */
        if (io->dk) {
            if (k == 0 || io->cstride > 0) {
                for (long c = 0; c < n; c++) {
                    double ul, uh;
                    long j = k * io->cstride + c;
                    fsub(io->Clo[j], io->Chi[j], io->c0[j], io->c0[j], &ul, &uh);
                    dvc_fi_mul_(ul, uh, -h2h, h2h, &io->rlo[k * n + c], &io->rhi[k * n + c]);
                }
            } else {
                memcpy(io->rlo + k * n, io->rlo, (size_t)n * sizeof(double));
                memcpy(io->rhi + k * n, io->rhi, (size_t)n * sizeof(double));
            }
        }
        for (long e = 0; e <= 1; e++) {
            double sgl, sgh;
            double *al = io->alo + (2 * k + e) * n, *ah = io->ahi + (2 * k + e) * n;
            /* sigma = s - 1/2 at the piece's end; p = x_m + sigma dx */
            fquot((double)(2 * (k + e) - K), twoK, &sgl, &sgh);
            for (long c = 0; c < n; c++) {
                dvc_fi_mul_(sgl, sgh, dxl[c], dxh[c], &vl[c], &vh[c]);
                fadd(xml[c], xmh[c], vl[c], vh[c], &pl[c], &ph[c]);
            }
            /* a = A p + f(tau) + B y */
            memcpy(al, fl, (size_t)n * sizeof(double));
            memcpy(ah, fh, (size_t)n * sizeof(double));
            dvc_dlvi_spm_addmul_u_(al, ah, io->A, pl, ph);
            if (m > 0) {
                /* y = ym + G (Q sigma dx + g(tau) - g(t_m)) */
                for (long a = 0; a < m; a++)
                    fsub(io->gklo[k * m + a], io->gkhi[k * m + a], io->gmlo[a], io->gmhi[a], &tl[a], &th[a]);
                dvc_dlvi_spm_addmul_u_(tl, th, io->Q, vl, vh);
                memcpy(Yl, io->ymlo, (size_t)m * sizeof(double));
                memcpy(Yh, io->ymhi, (size_t)m * sizeof(double));
                dvc_dlvi_spm_addmul_u_(Yl, Yh, io->G, tl, th);
                dvc_dlvi_spm_addmul_u_(al, ah, io->B, Yl, Yh);
            }
            /* a = dx/h - a (+ (s - tau) c0 = -+ h/(2K) c0) */
            for (long c = 0; c < n; c++) {
                double l = al[c], hgh = ah[c];
                fsub(dhl[c], dhh[c], l, hgh, &al[c], &ah[c]);
                if (io->dk) {
                    double ql, qh;
                    if (e) dvc_fi_mul_(h2l, h2h, c0[c], c0[c], &ql, &qh);
                    else dvc_fi_mul_(-h2h, -h2l, c0[c], c0[c], &ql, &qh);
                    fadd(al[c], ah[c], ql, qh, &al[c], &ah[c]);
                }
            }
        }
    }
    ok = finite_all(io->alo, 2 * K * n) && finite_all(io->ahi, 2 * K * n) &&
         (!io->dk || (finite_all(io->rlo, K * n) && finite_all(io->rhi, K * n)));
    dvc_rnd_restore(saved);
    return ok ? 0 : -1;
}

/* ---- norms ------------------------------------------------------------------ */

/* Upper bound of ||v||_W over the box [lo, hi] (under FE_UPWARD). */
static double vnorm_u(const dvc_lognorm_info_struct *nr, const double *lo, const double *hi)
{
    long n = nr->n;
    double s = 0.0;
    if (nr->kind == DVC_LOGNORM_DIAG) {
        for (long k = 0; k < n; k++) {
            double t = dvc_fi_mag_(lo[k], hi[k]) * nr->w[k];
            if (t != t) return INFINITY;
            if (t > s) s = t;
        }
        return s;
    }
    /* ||R v||_2, R upper triangular doubles */
    for (long i = 0; i < n; i++) {
        double zl = 0.0, zh = 0.0, a;
        for (long k = i; k < n; k++) {
            double ql, qh, r = nr->R[i * n + k];
            dvc_fi_mul_(r, r, lo[k], hi[k], &ql, &qh);
            fadd(zl, zh, ql, qh, &zl, &zh);
        }
        a = dvc_fi_mag_(zl, zh);
        s = s + a * a;
    }
    s = sqrt(s);
    return s == s ? s : INFINITY;
}

double dvc_lnf_vnorm_(const dvc_lognorm_info_struct *nr, const double *lo, const double *hi)
{
    double r;
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    r = vnorm_u(nr, lo, hi);
    DVC_FP_PIN(r);
    dvc_rnd_restore(saved);
    return r;
}

int dvc_lnf_defect_norm_(const dvc_lognorm_info_struct *nr, long K, const double *alo, const double *ahi,
                         const double *rlo, const double *rhi, double *Dp, double *Di, double *Dd)
{
    long n = nr->n;
    double dd = 0.0;
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (long k = 0; k < K; k++) {
        double n0 = vnorm_u(nr, alo + 2 * k * n, ahi + 2 * k * n);
        double n1 = vnorm_u(nr, alo + (2 * k + 1) * n, ahi + (2 * k + 1) * n);
        double nr_ = vnorm_u(nr, rlo + k * n, rhi + k * n);
        double p = (n0 > n1 ? n0 : n1) + nr_;
        double q = (n0 + n1) * 0.5 + nr_;
        Dp[k] = p;
        Di[k] = q;
        if (!(p <= dd)) dd = p;
    }
    DVC_FP_PIN(dd);
    dvc_rnd_restore(saved);
    *Dd = dd;
    return isfinite(dd) ? 0 : -1;
}

/* ---- the error-set step ------------------------------------------------------ */

int dvc_lnf_mgs_(double *q, const double *a, long n)
{
    memcpy(q, a, (size_t)(n * n) * sizeof(double));
    for (long j = 0; j < n; j++) {
        double nr = 0.0;
        for (long i = 0; i < j; i++) {
            double d = 0.0;
            for (long k = 0; k < n; k++) d += q[k * n + i] * q[k * n + j];
            for (long k = 0; k < n; k++) q[k * n + j] -= d * q[k * n + i];
        }
        for (long k = 0; k < n; k++) nr += q[k * n + j] * q[k * n + j];
        nr = sqrt(nr);
        if (!(nr > 0) || !isfinite(nr)) return 0;
        for (long k = 0; k < n; k++) q[k * n + j] /= nr;
    }
    return 1;
}

/* Row kernels of dvc_lnf_lohner_ (under FE_UPWARD): s += (term j) for
 * j = 0..n-1, each term as the former entry-by-entry loops computed it. */
#if defined(__GNUC__) && !defined(__clang__)
#define LNF_VEC __attribute__((noinline, optimize("O3")))
#else
#define LNF_VEC
#endif

/* dvc_fi_mul_(a, a, bl, bh) of a point a, without its branch (a row of
 * points of either sign mispredicts it half of the time): the same two
 * products, operands selected by the sign of a */
static inline void pmul(double a, double bl, double bh, double *lo, double *hi)
{
    int pos = a >= 0;
    double bhi = pos ? bh : bl, blo = pos ? bl : bh;
    *hi = a * bhi;
    *lo = -((-a) * blo);
}

/* s_j += b_j [pl, ph] (b a point row: a row of B, or of mid M) */
LNF_VEC static void lohner_row_pm(double *restrict sl, double *restrict sh, const double *restrict b, double pl,
                                  double ph, long n)
{
    for (long j = 0; j < n; j++) {
        double ql, qh;
        pmul(b[j], pl, ph, &ql, &qh);
        fadd(sl[j], sh[j], ql, qh, &sl[j], &sh[j]);
    }
}

/* [-sl_j, sh_j] += x b_j (points) */
LNF_VEC static void lohner_row_pp(double *restrict sl, double *restrict sh, const double *restrict b, double x,
                                  long n)
{
    for (long j = 0; j < n; j++) {
        sh[j] = sh[j] + x * b[j];
        sl[j] = sl[j] + (-x) * b[j];
    }
}

/* s_j += [il, ih] [ml_j, mh_j] */
LNF_VEC static void lohner_row_ii(double *restrict sl, double *restrict sh, double il, double ih,
                                  const double *restrict ml, const double *restrict mh, long n)
{
    for (long j = 0; j < n; j++) {
        double ql, qh;
        dvc_fi_mul_(il, ih, ml[j], mh[j], &ql, &qh);
        fadd(sl[j], sh[j], ql, qh, &sl[j], &sh[j]);
    }
}

size_t dvc_lnf_lohner_scratch_(long n) { return (size_t)(12 * n * n + 16 * n); }

int dvc_lnf_lohner_(dvc_lnf_lohner_io *io)
{
    long n = io->n, K = io->K, nn = n * n;
    double *Vl = io->w, *Vh = Vl + n, *Tl = Vh + n, *Th = Tl + n, *Yl = Th + n, *Yh = Yl + n;
    double *cn = Yh + n, *rl = cn + n, *rh = rl + n, *ol = rh + n, *oh = ol + n;
    double *Ml = oh + n, *Mh = Ml + nn, *Mm = Mh + nn, *Bn = Mm + nn, *Il = Bn + nn, *Ih = Il + nn;
    double *El = Ih + nn, *Eh = El + nn, *Sl = Eh + nn, *Sh = Sl + nn;
    double tkl, tkh, e, f, den, del;
    int ok = 0, saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    /* V encloses int_0^h exp(J (h - s)) d(t_i + s) ds, piece by piece
     * (docs/lognorm.md section 5d): (h/K) Phim (A0 + A1)/2 +- rho2 ||.||,
     * (h/K) Phik R_k, +- rho ||A1 - A0|| */
    tkh = io->hhi / (double)K;
    tkl = -((-io->hlo) / (double)K);
    for (long c = 0; c < n; c++) Vl[c] = Vh[c] = 0.0;
    for (long k = 0; k < K; k++) {
        const double *a0l = io->alo + 2 * k * n, *a0h = io->ahi + 2 * k * n;
        const double *a1l = a0l + n, *a1h = a0h + n;
        double r1;
        for (long c = 0; c < n; c++) {
            fadd(a0l[c], a0h[c], a1l[c], a1h[c], &Tl[c], &Th[c]);
            Th[c] = Th[c] * 0.5;
            Tl[c] = -((-Tl[c]) * 0.5);
            Yl[c] = Yh[c] = 0.0;
        }
        dmv_add(Yl, Yh, io->Pmlo + k * nn, io->Pmhi + k * nn, Tl, Th, n);
        for (long c = 0; c < n; c++) {
            double ql, qh;
            dvc_fi_mul_(tkl, tkh, Yl[c], Yh[c], &ql, &qh);
            fadd(Vl[c], Vh[c], ql, qh, &Vl[c], &Vh[c]);
        }
        r1 = inorm_inf(Tl, Th, n) * io->rho2;
        inflate(Vl, Vh, n, r1);
        for (long c = 0; c < n; c++) Yl[c] = Yh[c] = 0.0;
        dmv_add(Yl, Yh, io->Pklo + k * nn, io->Pkhi + k * nn, io->rlo + k * n, io->rhi + k * n, n);
        for (long c = 0; c < n; c++) {
            double ql, qh;
            dvc_fi_mul_(tkl, tkh, Yl[c], Yh[c], &ql, &qh);
            fadd(Vl[c], Vh[c], ql, qh, &Vl[c], &Vh[c]);
            fsub(a1l[c], a1h[c], a0l[c], a0h[c], &Tl[c], &Th[c]);
        }
        r1 = inorm_inf(Tl, Th, n) * io->rho;
        inflate(Vl, Vh, n, r1);
    }
    /* Y = Phi c - V */
    for (long c = 0; c < n; c++) Yl[c] = Yh[c] = 0.0;
    dmv_add(Yl, Yh, io->Plo, io->Phi, io->c, io->c, n);
    for (long c = 0; c < n; c++) fsub(Yl[c], Yh[c], Vl[c], Vh[c], &Yl[c], &Yh[c]);
    /* M = Phi B and its midpoint. The n^3 products here and below run row
     * by row (i, k, j): each entry still sums its terms k = 0..n-1 in order,
     * with the same operations, and the rows are read contiguously. */
    for (long i = 0; i < n; i++) {
        double *sl = Ml + i * n, *sh = Mh + i * n;
        for (long j = 0; j < n; j++) sl[j] = sh[j] = 0.0;
        for (long k = 0; k < n; k++)
            lohner_row_pm(sl, sh, io->B + k * n, io->Plo[i * n + k], io->Phi[i * n + k], n);
        for (long j = 0; j < n; j++) Mm[i * n + j] = (sl[j] + sh[j]) * 0.5;
    }
    if (!finite_all(Ml, nn) || !finite_all(Mh, nn) || !finite_all(Yl, n) || !finite_all(Yh, n)) goto out;
    /* the new frame: any double matrix will do (its inverse is enclosed) */
    dvc_rnd_restore(saved);
    if (!dvc_lnf_mgs_(Bn, Mm, n)) return -1;
    dvc_rnd_set(FE_UPWARD);
    /* Bn^{-1}: X = Bn^T, E = I - X Bn, ||E|| = e < 1; Bn^{-1} = (I - E)^{-1} X
     * = X + E X + (I - E)^{-1} E (E X), the last term of norm at most
     * e ||E X|| / (1 - e) */
    for (long i = 0; i < n; i++) {
        double *sl = El + i * n, *sh = Eh + i * n;
        for (long j = 0; j < n; j++) sl[j] = sh[j] = 0.0;
        for (long k = 0; k < n; k++) lohner_row_pp(sl, sh, Bn + k * n, Bn[k * n + i], n);
        for (long j = 0; j < n; j++) {
            /* (X Bn)_ij in [-sl, sh]; E_ij = delta_ij - that */
            double h = sh[j], l = sl[j];
            sl[j] = -((-(i == j ? 1.0 : 0.0)) + h);
            sh[j] = (i == j ? 1.0 : 0.0) + l;
        }
    }
    e = 0.0;
    for (long i = 0; i < n; i++) {
        double s = 0.0;
        for (long j = 0; j < n; j++) s = s + dvc_fi_mag_(El[i * n + j], Eh[i * n + j]);
        if (!(s <= e)) e = s;
    }
    if (!(e <= 0.5)) goto out;
    /* S = E X (X = Bn^T, kept in Mm: the midpoint of M is no longer needed) */
    for (long k = 0; k < n; k++)
        for (long j = 0; j < n; j++) Mm[k * n + j] = Bn[j * n + k];
    for (long i = 0; i < n; i++) {
        double *sl = Sl + i * n, *sh = Sh + i * n;
        for (long j = 0; j < n; j++) sl[j] = sh[j] = 0.0;
        for (long k = 0; k < n; k++) lohner_row_pm(sl, sh, Mm + k * n, El[i * n + k], Eh[i * n + k], n);
    }
    f = 0.0;
    for (long i = 0; i < n; i++) {
        double s = 0.0;
        for (long j = 0; j < n; j++) s = s + dvc_fi_mag_(Sl[i * n + j], Sh[i * n + j]);
        if (!(s <= f)) f = s;
    }
    den = -(e - 1.0); /* <= 1 - e */
    del = (e * f) / den;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            double x = Bn[j * n + i];
            fadd(x, x, Sl[i * n + j], Sh[i * n + j], &Il[i * n + j], &Ih[i * n + j]);
            Ih[i * n + j] = Ih[i * n + j] + del;
            Il[i * n + j] = -((-Il[i * n + j]) + del);
        }
    /* c' = mid Y, Y - c' */
    for (long c = 0; c < n; c++) {
        cn[c] = (Yl[c] + Yh[c]) * 0.5;
        fsub(Yl[c], Yh[c], cn[c], cn[c], &Yl[c], &Yh[c]);
    }
    /* r' = (Bn^{-1} M) r + Bn^{-1} (Y - c') (Lohner: the matrix product
     * first, which keeps the wrapping small) */
    for (long i = 0; i < n; i++) {
        double *sl = El + i * n, *sh = Eh + i * n;
        for (long j = 0; j < n; j++) sl[j] = sh[j] = 0.0;
        for (long k = 0; k < n; k++) lohner_row_ii(sl, sh, Il[i * n + k], Ih[i * n + k], Ml + k * n, Mh + k * n, n);
    }
    for (long c = 0; c < n; c++) rl[c] = rh[c] = 0.0;
    dmv_add(rl, rh, El, Eh, io->Lrlo, io->Lrhi, n);
    dmv_add(rl, rh, Il, Ih, Yl, Yh, n);
    /* the box of c' + Bn r' */
    for (long i = 0; i < n; i++) {
        double sl = cn[i], sh = cn[i];
        for (long k = 0; k < n; k++) {
            double ql, qh, b = Bn[i * n + k];
            dvc_fi_mul_(b, b, rl[k], rh[k], &ql, &qh);
            fadd(sl, sh, ql, qh, &sl, &sh);
        }
        ol[i] = sl;
        oh[i] = sh;
    }
    if (!finite_all(rl, n) || !finite_all(rh, n) || !finite_all(ol, n) || !finite_all(oh, n) ||
        !finite_all(cn, n))
        goto out;
    memcpy(io->c, cn, (size_t)n * sizeof(double));
    memcpy(io->B, Bn, (size_t)nn * sizeof(double));
    memcpy(io->Lrlo, rl, (size_t)n * sizeof(double));
    memcpy(io->Lrhi, rh, (size_t)n * sizeof(double));
    memcpy(io->outlo, ol, (size_t)n * sizeof(double));
    memcpy(io->outhi, oh, (size_t)n * sizeof(double));
    ok = 1;
out:
    dvc_rnd_restore(saved);
    return ok ? 0 : -1;
}
