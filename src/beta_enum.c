/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Vertex enumeration for beta_M / alpha_M: binary64 kernel under FE_UPWARD.
 *
 * For each vertex J a predictor X ~ (M_JJ)^{-1} is kept up to date along a
 * Gray code by bordering (add an index) and Schur downdating (remove one),
 * O(|J|^2) per step, and recomputed from scratch when it has drifted. What
 * makes a bound rigorous is only the a-posteriori residual
 *     e >= || I - X A ||  for every A in [M_JJ],
 * computed with every operation rounded upward (the negated product gives
 * the other side), and then ||A^{-1}|| <= ||X|| / (1 - e),
 * ||A^{-1}|| >= ||X|| - ||X|| e / (1 - e). docs/beta.md has the proof.
 * Vertices whose residual is not small go to an MPFI fallback. */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "beta_kern.h"
#include "beta_ws.h"
#include "rounding.h"



#define E_REFRESH 1e-12 /* residual above which the predictor is recomputed, */
#define E_GROWTH 8.0     /* ... if also E_GROWTH times the last fresh residual */

double *dvc_bk_alloc(size_t n)
{
    size_t bytes = ((n * sizeof(double) + 63) / 64) * 64;
    double *p = aligned_alloc(64, bytes ? bytes : 64);
    if (!p) abort();
    memset(p, 0, bytes ? bytes : 64);
    return p;
}


void dvc_bk_acc_init(dvc_bk_acc *a)
{
    a->beta_lo = 0;
    a->beta_hi = 0;
    a->alpha_lo = 0;
    a->alpha_hi = 0;
    a->count = a->slow = a->refresh = a->pruned = a->tight = 0;
    a->tick = NULL;
    a->tick_ctx = NULL;
    a->stopped = 0;
}

dvc_status dvc_bk_mat_init(dvc_bk_mat *K, const dvc_imat_t M)
{
    int m = (int)M->r, saved;
    int ld = ((m + 3) / 4) * 4;
    if (ld == 0) ld = 4;
    K->m = m;
    K->ld = ld;
    K->M = M;
    K->Mc = dvc_bk_alloc((size_t)m * ld);
    K->Mr = dvc_bk_alloc((size_t)m * ld);
    K->Mmag = dvc_bk_alloc((size_t)m * ld);
    K->point = 1;
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_TONEAREST);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            const __mpfi_struct *x = dvc_imat_entry(M, i, j);
            double lo = mpfr_get_d(&x->left, MPFR_RNDD), hi = mpfr_get_d(&x->right, MPFR_RNDU);
            double c, r;
            if (!isfinite(lo) || !isfinite(hi) || !(lo <= hi)) {
                dvc_rnd_restore(saved);
                dvc_bk_mat_clear(K);
                return dvc_error(DVC_ERR_INPUT, "M[%d][%d] is not a finite interval (or is "
                                 "beyond the binary64 range)", i, j);
            }
            if (lo == hi) {
                c = lo;
                r = 0;
            } else {
                /* [lo, hi] inside [c - r, c + r]: both gaps rounded up (in
                 * MPFR, exact inputs, 53-bit results). */
                mpfr_t g1, g2;
                mpfr_inits2(53, g1, g2, (mpfr_ptr)0);
                c = 0.5 * lo + 0.5 * hi;
                mpfr_set_d(g1, c, MPFR_RNDN);
                mpfr_sub_d(g1, g1, lo, MPFR_RNDU);
                mpfr_set_d(g2, hi, MPFR_RNDN);
                mpfr_sub_d(g2, g2, c, MPFR_RNDU);
                mpfr_max(g1, g1, g2, MPFR_RNDU);
                r = mpfr_get_d(g1, MPFR_RNDU);
                mpfr_clears(g1, g2, (mpfr_ptr)0);
                K->point = 0;
            }
            K->Mc[(size_t)i * ld + j] = c;
            K->Mr[(size_t)i * ld + j] = r;
            K->Mmag[(size_t)i * ld + j] = fmax(fabs(lo), fabs(hi));
        }
    dvc_rnd_restore(saved);
    return DVC_OK;
}

void dvc_bk_mat_clear(dvc_bk_mat *K)
{
    free(K->Mc);
    free(K->Mr);
    free(K->Mmag);
    K->Mc = K->Mr = K->Mmag = NULL;
}

/* ---- workspace --------------------------------------------------------- */

void dvc_bk_ws_init(dvc_bk_ws *w, int m, int ld)
{
    w->m = m;
    w->ld = ld;
    w->k = 0;
    w->A = dvc_bk_alloc((size_t)ld * ld);
    w->X = dvc_bk_alloc((size_t)ld * ld);
    w->W = dvc_bk_alloc((size_t)ld * 2 * ld);
    w->B = dvc_bk_alloc((size_t)ld * ld);
    w->g = dvc_bk_alloc((size_t)4 * ld);
    w->rowneg = dvc_bk_alloc((size_t)ld);
    w->order = malloc(sizeof(int) * (size_t)(m + 1));
    w->pos = malloc(sizeof(int) * (size_t)(m + 1));
    w->kidx = malloc(sizeof(int) * (size_t)(m + 1));
    if (!w->order || !w->pos || !w->kidx) abort();
    for (int i = 0; i < m; i++) w->pos[i] = -1;
    w->stale = 1;
    w->upd = 0;
    w->e_fresh = 0;
    w->e_last = -1;
}

void dvc_bk_ws_clear(dvc_bk_ws *w)
{
    free(w->A);
    free(w->X);
    free(w->W);
    free(w->B);
    free(w->g);
    free(w->rowneg);
    free(w->order);
    free(w->pos);
    free(w->kidx);
}

int dvc_bk_gj_inverse(int k, int ld, const double *A, double *X, double *W)
{
    int ld2 = 2 * ld, nv = nvec(k);
    for (int i = 0; i < k; i++) {
        double *wi = W + (size_t)i * ld2;
        memset(wi, 0, sizeof(double) * (size_t)ld2);
        memcpy(wi, A + (size_t)i * ld, sizeof(double) * (size_t)k);
        wi[ld + i] = 1.0;
    }
    for (int c = 0; c < k; c++) {
        int p = c;
        double best = fabs(W[(size_t)c * ld2 + c]);
        for (int r = c + 1; r < k; r++) {
            double a = fabs(W[(size_t)r * ld2 + c]);
            if (a > best) {
                best = a;
                p = r;
            }
        }
        if (!(best > 0) || !isfinite(best)) return 0;
        if (p != c) {
            double *a = W + (size_t)p * ld2, *b = W + (size_t)c * ld2;
            for (int j = 0; j < ld2; j++) {
                double t = a[j];
                a[j] = b[j];
                b[j] = t;
            }
        }
        {
            v4 *wc = (v4 *)(W + (size_t)c * ld2), *wc2 = (v4 *)(W + (size_t)c * ld2 + ld);
            double inv = 1.0 / W[(size_t)c * ld2 + c];
            v4 iv = {inv, inv, inv, inv};
            for (int q = 0; q < nv; q++) {
                wc[q] *= iv;
                wc2[q] *= iv;
            }
            for (int r = 0; r < k; r++) {
                double f;
                v4 *wr, *wr2, fv;
                if (r == c) continue;
                f = W[(size_t)r * ld2 + c];
                if (f == 0) continue;
                wr = (v4 *)(W + (size_t)r * ld2);
                wr2 = (v4 *)(W + (size_t)r * ld2 + ld);
                fv = (v4){f, f, f, f};
                for (int q = 0; q < nv; q++) {
                    wr[q] -= fv * wc[q];
                    wr2[q] -= fv * wc2[q];
                }
            }
        }
    }
    for (int i = 0; i < k; i++) {
        memset(X + (size_t)i * ld, 0, sizeof(double) * (size_t)ld);
        memcpy(X + (size_t)i * ld, W + (size_t)i * ld2 + ld, sizeof(double) * (size_t)k);
        if (!isfinite(X[(size_t)i * ld])) return 0;
    }
    return 1;
}

/* Row products of the kernel: for row x (length k) and the k rows of P
 * (stride ld, nv vectors of four), gu = x P and gn = (-x) P, each rounded
 * in the current mode (FE_UPWARD: gu >= x P and -gn <= x P). */
typedef void (*rowprod_fn)(int k, int ld, const double *x, const double *P, double *gu,
                           double *gn, int nv);

static void rowprod_generic(int k, int ld, const double *x, const double *P, double *g1,
                            double *g2, int nv)
{
    v4 *gu = (v4 *)g1, *gn = (v4 *)g2;
    for (int q = 0; q < nv; q++) {
        gu[q] = (v4){0, 0, 0, 0};
        gn[q] = (v4){0, 0, 0, 0};
    }
    for (int l = 0; l < k; l++) {
        double xl = x[l];
        v4 xv = {xl, xl, xl, xl}, nx = -xv;
        const v4 *pl = (const v4 *)(P + (size_t)l * ld);
        for (int q = 0; q < nv; q++) {
            gu[q] += xv * pl[q];
            gn[q] += nx * pl[q];
        }
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define DVC_HAVE_FMA_KERNEL 1
/* AVX2 + FMA: a fused multiply-add rounds once, in the current (upward)
 * mode, so each accumulated value is still >= the exact one. */
__attribute__((target("avx2,fma"), always_inline)) static inline void
rowprod_fma_nv(int k, int ld, const double *x, const double *P, double *g1, double *g2, int nv)
{
    __m256d gu[8], gn[8];
    for (int q = 0; q < nv; q++) {
        gu[q] = _mm256_setzero_pd();
        gn[q] = _mm256_setzero_pd();
    }
    for (int l = 0; l < k; l++) {
        __m256d xv = _mm256_set1_pd(x[l]), nx = _mm256_set1_pd(-x[l]);
        const double *pl = P + (size_t)l * ld;
        for (int q = 0; q < nv; q++) {
            __m256d a = _mm256_load_pd(pl + 4 * q);
            gu[q] = _mm256_fmadd_pd(xv, a, gu[q]);
            gn[q] = _mm256_fmadd_pd(nx, a, gn[q]);
        }
    }
    for (int q = 0; q < nv; q++) {
        _mm256_store_pd(g1 + 4 * q, gu[q]);
        _mm256_store_pd(g2 + 4 * q, gn[q]);
    }
}

__attribute__((target("avx2,fma"))) static void rowprod_fma(int k, int ld, const double *x,
                                                             const double *P, double *g1,
                                                             double *g2, int nv)
{
    /* Constant nv per case: accumulators stay in registers. */
    switch (nv) {
    case 1: rowprod_fma_nv(k, ld, x, P, g1, g2, 1); break;
    case 2: rowprod_fma_nv(k, ld, x, P, g1, g2, 2); break;
    case 3: rowprod_fma_nv(k, ld, x, P, g1, g2, 3); break;
    case 4: rowprod_fma_nv(k, ld, x, P, g1, g2, 4); break;
    case 5: rowprod_fma_nv(k, ld, x, P, g1, g2, 5); break;
    case 6: rowprod_fma_nv(k, ld, x, P, g1, g2, 6); break;
    case 7: rowprod_fma_nv(k, ld, x, P, g1, g2, 7); break;
    case 8: rowprod_fma_nv(k, ld, x, P, g1, g2, 8); break;
    default: rowprod_generic(k, ld, x, P, g1, g2, nv); break;
    }
}
#endif

static rowprod_fn pick_rowprod(void)
{
#ifdef DVC_HAVE_FMA_KERNEL
    /* Cheap (reads the CPU model filled in at start-up); no cache, so no
     * shared mutable state between threads. */
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return rowprod_fma;
#endif
    return rowprod_generic;
}

double dvc_bk_resid_up(int k, int ld, const double *X, const double *A, const double *rho,
                       double *g)
{
    int nv = nvec(k);
    double e = 0;
    rowprod_fn rp = pick_rowprod();
    for (int i = 0; i < k; i++) {
        const double *xi = X + (size_t)i * ld;
        double s = 0;
        rp(k, ld, xi, A, g, g + ld, nv);
        for (int j = 0; j < k; j++) {
            double d = (i == j) ? 1.0 : 0.0;
            double a = g[j] - d;      /* >= (XA)_ij - delta_ij */
            double b = g[ld + j] + d; /* >= delta_ij - (XA)_ij */
            s += (a > b) ? a : b;
        }
        if (rho)
            for (int l = 0; l < k; l++) s += fabs(xi[l]) * rho[l];
        if (!(s <= e)) e = s; /* NaN propagates */
    }
    return e;
}

void dvc_bk_xnorm(int k, int ld, const double *X, double *up, double *dn, double *rowneg)
{
    double u = 0, d = 0;
    for (int i = 0; i < k; i++) {
        const double *xi = X + (size_t)i * ld;
        double su = 0, sn = 0;
        for (int j = 0; j < k; j++) {
            su += fabs(xi[j]);
            sn += -fabs(xi[j]);
        }
        if (rowneg) rowneg[i] = sn;
        if (!(su <= u)) u = su;
        if (-sn > d) d = -sn;
    }
    *up = u;
    *dn = d;
}

/* ---- Gray-code steps ----------------------------------------------------- */

void dvc_bk_add_index(const dvc_bk_mat *K, dvc_bk_ws *w, int idx)
{
    int k = w->k, ld = w->ld, nv = nvec(k + 1);
    double *A = w->A, *X = w->X;
    double *u = w->g + 2 * ld, *v = w->g + 3 * ld;
    const double *Mc = K->Mc;
    w->order[k] = idx;
    w->pos[idx] = k;
    for (int j = 0; j < k; j++) {
        A[(size_t)k * ld + j] = Mc[(size_t)idx * ld + w->order[j]];
        A[(size_t)j * ld + k] = Mc[(size_t)w->order[j] * ld + idx];
    }
    A[(size_t)k * ld + k] = Mc[(size_t)idx * ld + idx];
    w->k = k + 1;
    if (w->stale) return;
    /* Bordering: s = a_kk - c^T X b, X' = [[X + u w^T, -u/s], [-w^T, 1/s]]
     * with u = X b, w = (c^T X)/s. */
    {
        double s, sabs;
        v4 *vv = (v4 *)v;
        for (int q = 0; q < nv; q++) vv[q] = (v4){0, 0, 0, 0};
        for (int i = 0; i < k; i++) {
            const double *xi = X + (size_t)i * ld;
            double t = 0;
            for (int l = 0; l < k; l++) t += xi[l] * A[(size_t)l * ld + k];
            u[i] = t;
        }
        for (int l = 0; l < k; l++) {
            double c = A[(size_t)k * ld + l];
            v4 cv = {c, c, c, c};
            const v4 *xl = (const v4 *)(X + (size_t)l * ld);
            for (int q = 0; q < nv; q++) vv[q] += cv * xl[q];
        }
        s = A[(size_t)k * ld + k];
        sabs = fabs(s);
        for (int l = 0; l < k; l++) {
            s -= A[(size_t)k * ld + l] * u[l];
            sabs += fabs(A[(size_t)k * ld + l] * u[l]);
        }
        /* Heavy cancellation in the Schur complement: recompute instead. */
        if (!isfinite(s) || !(fabs(s) > 1e-8 * sabs)) {
            w->stale = 1;
            return;
        }
        {
            double is = 1.0 / s;
            v4 isv = {is, is, is, is};
            for (int q = 0; q < nv; q++) vv[q] *= isv;
            v[k] = 0;
            for (int i = 0; i < k; i++) {
                v4 *xi = (v4 *)(X + (size_t)i * ld);
                double ui = u[i];
                v4 uv = {ui, ui, ui, ui};
                for (int q = 0; q < nv; q++) xi[q] += uv * vv[q];
                X[(size_t)i * ld + k] = -ui * is;
            }
            for (int j = 0; j < k; j++) X[(size_t)k * ld + j] = -v[j];
            X[(size_t)k * ld + k] = is;
        }
        w->upd++;
    }
}

static void swap_rc(double *A, int ld, int k, int p, int q)
{
    for (int j = 0; j < k; j++) {
        double t = A[(size_t)p * ld + j];
        A[(size_t)p * ld + j] = A[(size_t)q * ld + j];
        A[(size_t)q * ld + j] = t;
    }
    for (int i = 0; i < k; i++) {
        double t = A[(size_t)i * ld + p];
        A[(size_t)i * ld + p] = A[(size_t)i * ld + q];
        A[(size_t)i * ld + q] = t;
    }
}

void dvc_bk_remove_index(dvc_bk_ws *w, int idx)
{
    int k = w->k, ld = w->ld, p = w->pos[idx], L = k - 1, nv = nvec(k);
    double *A = w->A, *X = w->X;
    if (p != L) {
        int o = w->order[L];
        w->order[p] = o;
        w->pos[o] = p;
        w->order[L] = idx;
        swap_rc(A, ld, k, p, L);
        if (!w->stale) swap_rc(X, ld, k, p, L);
    }
    w->pos[idx] = -1;
    if (!w->stale) {
        /* Schur downdate: (A_11)^{-1} = X_11 - X_12 X_21 / X_22. */
        double xll = X[(size_t)L * ld + L];
        if (!isfinite(xll) || xll == 0) {
            w->stale = 1;
        } else {
            const v4 *xl = (const v4 *)(X + (size_t)L * ld);
            for (int i = 0; i < L; i++) {
                double f = X[(size_t)i * ld + L] / xll;
                v4 fv = {f, f, f, f};
                v4 *xi = (v4 *)(X + (size_t)i * ld);
                for (int q = 0; q < nv; q++) xi[q] -= fv * xl[q];
            }
            w->upd++;
        }
    }
    for (int j = 0; j < k; j++) {
        A[(size_t)L * ld + j] = 0;
        A[(size_t)j * ld + L] = 0;
        X[(size_t)L * ld + j] = 0;
        X[(size_t)j * ld + L] = 0;
    }
    w->k = L;
}

static int refresh(dvc_bk_ws *w, dvc_bk_acc *acc)
{
    acc->refresh++;
    w->upd = 0;
    if (w->k == 0) {
        w->stale = 0;
        return 1;
    }
    if (!dvc_bk_gj_inverse(w->k, w->ld, w->A, w->X, w->W)) {
        w->stale = 1;
        memset(w->X, 0, sizeof(double) * (size_t)w->ld * (size_t)w->ld);
        return 0;
    }
    w->stale = 0;
    return 1;
}

/* ---- MPFI fallback for one vertex --------------------------------------- */

static void fr_max_d(double *acc, const mpfr_t x, mpfr_rnd_t rnd)
{
    double d = mpfr_get_d(x, rnd);
    if (!(d <= *acc)) *acc = d;
}

/* Bounds for vertex J (w->order[0..k)) with MPFI at increasing precision.
 * Switches to FE_TONEAREST and back to FE_UPWARD. 0 on failure. */
static int slow_vertex(const dvc_bk_mat *K, dvc_bk_ws *w, int want_alpha, double out[4])
{
    int k = w->k, m = K->m, ok = 0;
    long *rows = malloc(sizeof(long) * (size_t)(m + 1)), *cols = malloc(sizeof(long) * (size_t)(m + 1));
    long nk = 0;
    if (!rows || !cols) abort();
    dvc_rnd_set(FE_TONEAREST);
    for (int i = 0; i < k; i++) rows[i] = w->order[i];
    for (int i = 0; i < m; i++)
        if (w->pos[i] < 0) cols[nk++] = i;
    for (mpfr_prec_t prec = 53; prec <= 212 && !ok; prec *= 2) {
        dvc_imat_t A, X, B, Y;
        mpfr_t s, t, best_up, best_dn;
        dvc_imat_init2(A, k, k, prec);
        dvc_imat_init2(X, k, k, prec);
        dvc_imat_submatrix(A, K->M, rows, k, rows, k);
        mpfr_inits2(prec, s, t, best_up, best_dn, (mpfr_ptr)0);
        if (dvc_imat_inv(X, A) == DVC_OK && dvc_imat_is_finite(X)) {
            dvc_imat_init2(B, k, nk, prec);
            dvc_imat_init2(Y, k, nk, prec);
            if (want_alpha && nk > 0) {
                dvc_imat_submatrix(B, K->M, rows, k, cols, nk);
                dvc_imat_mul(Y, X, B);
            }
            out[0] = out[1] = 0;
            out[2] = out[3] = 0;
            for (int pass = 0; pass < 2; pass++) { /* 0: beta, 1: alpha */
                double up = 0, dn = 0;
                if (pass == 1 && !want_alpha) break;
                for (int i = 0; i < k; i++) {
                    mpfr_set_zero(best_up, 1);
                    mpfr_set_zero(best_dn, 1);
                    for (int j = 0; j < k; j++) {
                        dvc_ival_mag(s, dvc_imat_entry(X, i, j));
                        mpfr_add(best_up, best_up, s, MPFR_RNDU);
                        dvc_ival_mig(s, dvc_imat_entry(X, i, j));
                        mpfr_add(best_dn, best_dn, s, MPFR_RNDD);
                    }
                    if (pass == 1)
                        for (long j = 0; j < nk; j++) {
                            dvc_ival_mag(s, dvc_imat_entry(Y, i, j));
                            mpfr_add(best_up, best_up, s, MPFR_RNDU);
                            dvc_ival_mig(s, dvc_imat_entry(Y, i, j));
                            mpfr_add(best_dn, best_dn, s, MPFR_RNDD);
                        }
                    fr_max_d(&up, best_up, MPFR_RNDU);
                    fr_max_d(&dn, best_dn, MPFR_RNDD);
                }
                out[2 * pass] = dn;
                out[2 * pass + 1] = up;
            }
            ok = isfinite(out[1]) && (!want_alpha || isfinite(out[3]));
            dvc_imat_clear(B);
            dvc_imat_clear(Y);
        }
        mpfr_clears(s, t, best_up, best_dn, (mpfr_ptr)0);
        dvc_imat_clear(A);
        dvc_imat_clear(X);
    }
    free(rows);
    free(cols);
    dvc_rnd_set(FE_UPWARD);
    return ok;
}

/* ---- one vertex ------------------------------------------------------------ */

/* FE_UPWARD active. 0 when the vertex could not be bounded. */
int dvc_bk_eval_vertex(const dvc_bk_mat *K, dvc_bk_ws *w, int want_alpha, dvc_bk_acc *acc)
{
    int k = w->k, ld = w->ld, m = K->m;
    double *rho = w->g + 2 * ld; /* the bordering scratch is free here */
    double e, nx_up, nx_dn, den, t, lo, hi;
    acc->count++;
    if (k == 0) {
        if (want_alpha) { /* D = 0: the identity */
            dvc_bk_acc_max(&acc->alpha_lo, 1.0);
            dvc_bk_acc_max(&acc->alpha_hi, 1.0);
        }
        return 1;
    }
    if (!K->point)
        for (int l = 0; l < k; l++) {
            double s = 0;
            const double *r = K->Mr + (size_t)w->order[l] * ld;
            for (int j = 0; j < k; j++) s += r[w->order[j]];
            rho[l] = s;
        }
    if (w->stale) {
        if (!refresh(w, acc)) goto slow;
        e = dvc_bk_resid_up(k, ld, w->X, w->A, K->point ? NULL : rho, w->g);
        w->e_fresh = e;
    } else {
        e = dvc_bk_resid_up(k, ld, w->X, w->A, K->point ? NULL : rho, w->g);
        /* Drift from the updates: recompute, unless a fresh inverse was not
         * much better here anyway (ill-conditioned region). */
        if (!(e <= E_REFRESH) && !(e <= E_GROWTH * w->e_fresh) && w->upd > 0) {
            if (!refresh(w, acc)) goto slow;
            e = dvc_bk_resid_up(k, ld, w->X, w->A, K->point ? NULL : rho, w->g);
            w->e_fresh = e;
        }
    }
    if (!(e <= E_ACCEPT)) goto slow;
    w->e_last = e;
    dvc_bk_xnorm(k, ld, w->X, &nx_up, &nx_dn, w->rowneg);
    den = -(e - 1.0);           /* <= 1 - e */
    hi = nx_up / den;           /* >= ||X|| / (1 - e) */
    t = nx_up * e / den;        /* >= ||A^{-1} - X|| */
    lo = -(t - nx_dn);          /* <= ||X|| - ||A^{-1} - X|| */
    if (!(lo >= 0)) lo = 0;
    if (!isfinite(hi)) goto slow;
    dvc_bk_acc_max(&acc->beta_hi, hi);
    dvc_bk_acc_max(&acc->beta_lo, lo);
    if (!want_alpha) return 1;
    if (k == m) { /* K empty: alpha's matrix is M^{-1} itself */
        dvc_bk_acc_max(&acc->alpha_hi, hi);
        dvc_bk_acc_max(&acc->alpha_lo, lo);
        return 1;
    }
    {
        /* Rows of [X, -X B], B = M_JK: upper bound and lower bound per row. */
        int nk = 0, nvk;
        double aup = 0, adn = 0, bmax = 0;
        double *B = w->B, *gu = w->g, *gn = w->g + ld, *rb = w->g + 3 * ld;
        rowprod_fn rp = pick_rowprod();
        for (int i = 0; i < m; i++)
            if (w->pos[i] < 0) w->kidx[nk++] = i;
        nvk = nvec(nk);
        for (int l = 0; l < k; l++) {
            double *bl = B + (size_t)l * ld, sr = 0, sm = 0;
            const double *mc = K->Mc + (size_t)w->order[l] * ld;
            const double *mr = K->Mr + (size_t)w->order[l] * ld;
            const double *mm = K->Mmag + (size_t)w->order[l] * ld;
            for (int o = 0; o < nk; o++) {
                bl[o] = mc[w->kidx[o]];
                sm += mm[w->kidx[o]];
            }
            if (!K->point)
                for (int o = 0; o < nk; o++) sr += mr[w->kidx[o]];
            for (int o = nk; o < 4 * nvk; o++) bl[o] = 0;
            rb[l] = sr;             /* row sums of the radius of B */
            dvc_bk_acc_max(&bmax, sm);     /* ||B||, rounded up */
        }
        for (int i = 0; i < k; i++) {
            const double *xi = w->X + (size_t)i * ld;
            double up = 0, neg, rad = 0;
            rp(k, ld, xi, B, gu, gn, nvk);
            for (int j = 0; j < k; j++) up += fabs(xi[j]);
            neg = w->rowneg[i];
            for (int o = 0; o < nk; o++) {
                /* (X B)_io lies in [-gn, gu]: |.| <= max(gu, gn) and
                 * |.| >= max(0, -gn, -gu) (at most one of -gn, -gu is > 0). */
                double a = gu[o], b = gn[o];
                double mx = a > b ? a : b, mn = a < b ? a : b;
                up += mx;
                neg += mn < 0 ? mn : 0.0;
            }
            if (!K->point)
                for (int l = 0; l < k; l++) rad += fabs(xi[l]) * rb[l];
            up += rad;
            neg += rad;
            dvc_bk_acc_max(&aup, up);
            dvc_bk_acc_max(&adn, -neg);
        }
        {
            /* ||(A^{-1} - X)[I, -B]|| <= t (1 + ||B||). */
            double t2 = t * (1.0 + bmax);
            double alo = -(t2 - adn), ahi = aup / den;
            if (!(alo >= 1)) alo = 1;
            if (!(ahi >= 1)) ahi = (ahi == ahi) ? 1 : ahi;
            if (!isfinite(ahi)) goto slow;
            dvc_bk_acc_max(&acc->alpha_hi, ahi);
            dvc_bk_acc_max(&acc->alpha_lo, alo);
        }
    }
    return 1;
slow:
    {
        double out[4];
        w->e_last = -1;
        acc->slow++;
        if (!slow_vertex(K, w, want_alpha, out)) return 0;
        dvc_bk_acc_max(&acc->beta_lo, out[0]);
        dvc_bk_acc_max(&acc->beta_hi, out[1]);
        if (want_alpha) {
            if (k < m) {
                if (out[2] < 1) out[2] = 1;
                if (out[3] < 1) out[3] = 1;
            }
            dvc_bk_acc_max(&acc->alpha_lo, out[2]);
            dvc_bk_acc_max(&acc->alpha_hi, out[3]);
        }
        return 1;
    }
}

dvc_status dvc_bk_vertex_fail(const dvc_bk_ws *w)
{
    char buf[512];
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < w->k && n + 16 < sizeof buf; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d", i ? "," : "", w->order[i] + 1);
    return dvc_error(DVC_NOT_CERTIFIED,
                     "could not bound ||(M_JJ)^{-1}|| for J = {%s} (1-based): the principal "
                     "submatrix is too ill-conditioned for a verified inverse at 212 bits",
                     buf);
}

int dvc_bk_tick(dvc_bk_acc *acc)
{
    int stop;
    dvc_rnd_set(FE_TONEAREST);
    stop = acc->tick(acc->tick_ctx, acc);
    dvc_rnd_set(FE_UPWARD);
    if (stop) acc->stopped = 1;
    return stop;
}

dvc_status dvc_bk_enum(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree,
                       int want_alpha, dvc_bk_acc *acc)
{
    dvc_bk_ws w;
    dvc_status st = DVC_OK;
    if (nfree < 0 || nfree > 40)
        return dvc_error(DVC_ERR_INPUT, "vertex enumeration over %d free indices refused (limit 40)", nfree);
    int saved;
    dvc_bk_ws_init(&w, K->m, K->ld);
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (int i = 0; i < K->m; i++)
        if (base >> i & 1) dvc_bk_add_index(K, &w, i);
    w.stale = 1;
    if (!dvc_bk_eval_vertex(K, &w, want_alpha, acc)) {
        st = dvc_bk_vertex_fail(&w);
        goto done;
    }
    for (uint64_t t = 1; nfree > 0 && t < ((uint64_t)1 << nfree); t++) {
        int idx = freeidx[__builtin_ctzll(t)];
        if (w.pos[idx] < 0) dvc_bk_add_index(K, &w, idx);
        else dvc_bk_remove_index(&w, idx);
        if (!dvc_bk_eval_vertex(K, &w, want_alpha, acc)) {
            st = dvc_bk_vertex_fail(&w);
            goto done;
        }
        if (acc->tick && (t & (DVC_BK_TICK - 1)) == 0 && dvc_bk_tick(acc)) break;
    }
done:
    dvc_rnd_restore(saved);
    dvc_bk_ws_clear(&w);
    return st;
}
