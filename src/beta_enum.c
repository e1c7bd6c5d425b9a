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
#include "rounding.h"


/* Four doubles; the compiler emits SSE2/AVX lanes. may_alias because rows of
 * double arrays are accessed through it. */
typedef double v4 __attribute__((vector_size(32), may_alias));

#define E_REFRESH 1e-12 /* residual above which the predictor is recomputed, */
#define E_GROWTH 8.0     /* ... if also E_GROWTH times the last fresh residual */
#define E_ACCEPT 0.5    /* residual above which the MPFI fallback is used */

static double *alloc_d(size_t n)
{
    size_t bytes = ((n * sizeof(double) + 63) / 64) * 64;
    double *p = aligned_alloc(64, bytes ? bytes : 64);
    if (!p) abort();
    memset(p, 0, bytes ? bytes : 64);
    return p;
}

static int nvec(int k) { return (k + 3) / 4; }

void dvc_bk_acc_init(dvc_bk_acc *a)
{
    a->beta_lo = 0;
    a->beta_hi = 0;
    a->alpha_lo = 0;
    a->alpha_hi = 0;
    a->count = a->slow = a->refresh = 0;
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
    K->Mc = alloc_d((size_t)m * ld);
    K->Mr = alloc_d((size_t)m * ld);
    K->Mmag = alloc_d((size_t)m * ld);
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

typedef struct {
    int m, ld, k;
    double *A;   /* M_JJ midpoints in the order of `order`, zero outside k x k */
    double *X;   /* predictor of A^{-1}, zero outside k x k */
    double *W;   /* Gauss-Jordan: rows [A | I], stride 2 ld */
    double *B;   /* alpha: M_JK, stride ld */
    double *g;   /* scratch, 4 ld */
    double *rowneg; /* per row: -(sum |X_ij|) rounded up, i.e. lower row sum negated */
    int *order, *pos, *kidx;
    double e_fresh; /* residual right after the last recomputation */
    int stale;   /* X must be recomputed */
    int upd;     /* updates since the last recomputation */
} ws_t;

static void ws_init(ws_t *w, int m, int ld)
{
    w->m = m;
    w->ld = ld;
    w->k = 0;
    w->A = alloc_d((size_t)ld * ld);
    w->X = alloc_d((size_t)ld * ld);
    w->W = alloc_d((size_t)ld * 2 * ld);
    w->B = alloc_d((size_t)ld * ld);
    w->g = alloc_d((size_t)4 * ld);
    w->rowneg = alloc_d((size_t)ld);
    w->order = malloc(sizeof(int) * (size_t)(m + 1));
    w->pos = malloc(sizeof(int) * (size_t)(m + 1));
    w->kidx = malloc(sizeof(int) * (size_t)(m + 1));
    if (!w->order || !w->pos || !w->kidx) abort();
    for (int i = 0; i < m; i++) w->pos[i] = -1;
    w->stale = 1;
    w->upd = 0;
    w->e_fresh = 0;
}

static void ws_clear(ws_t *w)
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

/* Predictor X ~ A^{-1} by Gauss-Jordan with partial pivoting (any rounding
 * mode: it is only a predictor). Returns 0 when a pivot is zero. */
static int gj_inverse(int k, int ld, const double *A, double *X, double *W)
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

/* FE_UPWARD active. Returns an upper bound of max_i sum_j |(I - X A)_ij|
 * + sum_l |X_il| rho_l (rho: row sums of the radius, may be NULL), i.e. of
 * ||I - X A'|| for every A' with |A' - A| <= Rad, rho = Rad * 1. NaN or
 * +inf when anything overflowed. */
static double resid_up(int k, int ld, const double *X, const double *A, const double *rho,
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

/* FE_UPWARD active: upper and lower bounds of ||X||_inf (X is a point
 * matrix); rowneg[i] = -(lower bound of row sum i). */
static void xnorm(int k, int ld, const double *X, double *up, double *dn, double *rowneg)
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

static void add_index(const dvc_bk_mat *K, ws_t *w, int idx)
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

static void remove_index(ws_t *w, int idx)
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

static int refresh(ws_t *w, dvc_bk_acc *acc)
{
    acc->refresh++;
    w->upd = 0;
    if (w->k == 0) {
        w->stale = 0;
        return 1;
    }
    if (!gj_inverse(w->k, w->ld, w->A, w->X, w->W)) {
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
static int slow_vertex(const dvc_bk_mat *K, ws_t *w, int want_alpha, double out[4])
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

static void acc_max(double *a, double v)
{
    if (!(v <= *a)) *a = v;
}

/* FE_UPWARD active. 0 when the vertex could not be bounded. */
static int eval_vertex(const dvc_bk_mat *K, ws_t *w, int want_alpha, dvc_bk_acc *acc)
{
    int k = w->k, ld = w->ld, m = K->m;
    double *rho = w->g + 2 * ld; /* the bordering scratch is free here */
    double e, nx_up, nx_dn, den, t, lo, hi;
    acc->count++;
    if (k == 0) {
        if (want_alpha) { /* D = 0: the identity */
            acc_max(&acc->alpha_lo, 1.0);
            acc_max(&acc->alpha_hi, 1.0);
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
        e = resid_up(k, ld, w->X, w->A, K->point ? NULL : rho, w->g);
        w->e_fresh = e;
    } else {
        e = resid_up(k, ld, w->X, w->A, K->point ? NULL : rho, w->g);
        /* Drift from the updates: recompute, unless a fresh inverse was not
         * much better here anyway (ill-conditioned region). */
        if (!(e <= E_REFRESH) && !(e <= E_GROWTH * w->e_fresh) && w->upd > 0) {
            if (!refresh(w, acc)) goto slow;
            e = resid_up(k, ld, w->X, w->A, K->point ? NULL : rho, w->g);
            w->e_fresh = e;
        }
    }
    if (!(e <= E_ACCEPT)) goto slow;
    xnorm(k, ld, w->X, &nx_up, &nx_dn, w->rowneg);
    den = -(e - 1.0);           /* <= 1 - e */
    hi = nx_up / den;           /* >= ||X|| / (1 - e) */
    t = nx_up * e / den;        /* >= ||A^{-1} - X|| */
    lo = -(t - nx_dn);          /* <= ||X|| - ||A^{-1} - X|| */
    if (!(lo >= 0)) lo = 0;
    if (!isfinite(hi)) goto slow;
    acc_max(&acc->beta_hi, hi);
    acc_max(&acc->beta_lo, lo);
    if (!want_alpha) return 1;
    if (k == m) { /* K empty: alpha's matrix is M^{-1} itself */
        acc_max(&acc->alpha_hi, hi);
        acc_max(&acc->alpha_lo, lo);
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
            acc_max(&bmax, sm);     /* ||B||, rounded up */
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
            acc_max(&aup, up);
            acc_max(&adn, -neg);
        }
        {
            /* ||(A^{-1} - X)[I, -B]|| <= t (1 + ||B||). */
            double t2 = t * (1.0 + bmax);
            double alo = -(t2 - adn), ahi = aup / den;
            if (!(alo >= 1)) alo = 1;
            if (!(ahi >= 1)) ahi = (ahi == ahi) ? 1 : ahi;
            if (!isfinite(ahi)) goto slow;
            acc_max(&acc->alpha_hi, ahi);
            acc_max(&acc->alpha_lo, alo);
        }
    }
    return 1;
slow:
    {
        double out[4];
        acc->slow++;
        if (!slow_vertex(K, w, want_alpha, out)) return 0;
        acc_max(&acc->beta_lo, out[0]);
        acc_max(&acc->beta_hi, out[1]);
        if (want_alpha) {
            if (k < m) {
                if (out[2] < 1) out[2] = 1;
                if (out[3] < 1) out[3] = 1;
            }
            acc_max(&acc->alpha_lo, out[2]);
            acc_max(&acc->alpha_hi, out[3]);
        }
        return 1;
    }
}

static dvc_status vertex_fail(const ws_t *w)
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

dvc_status dvc_bk_enum(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree,
                       int want_alpha, dvc_bk_acc *acc)
{
    ws_t w;
    dvc_status st = DVC_OK;
    if (nfree < 0 || nfree > 40)
        return dvc_error(DVC_ERR_INPUT, "vertex enumeration over %d free indices refused (limit 40)", nfree);
    int saved;
    ws_init(&w, K->m, K->ld);
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (int i = 0; i < K->m; i++)
        if (base >> i & 1) add_index(K, &w, i);
    w.stale = 1;
    if (!eval_vertex(K, &w, want_alpha, acc)) {
        st = vertex_fail(&w);
        goto done;
    }
    for (uint64_t t = 1; nfree > 0 && t < ((uint64_t)1 << nfree); t++) {
        int idx = freeidx[__builtin_ctzll(t)];
        if (w.pos[idx] < 0) add_index(K, &w, idx);
        else remove_index(&w, idx);
        if (!eval_vertex(K, &w, want_alpha, acc)) {
            st = vertex_fail(&w);
            goto done;
        }
        if (acc->tick && (t & (DVC_BK_TICK - 1)) == 0) {
            int stop;
            dvc_rnd_set(FE_TONEAREST);
            stop = acc->tick(acc->tick_ctx, acc);
            dvc_rnd_set(FE_UPWARD);
            if (stop) {
                acc->stopped = 1;
                break;
            }
        }
    }
done:
    dvc_rnd_restore(saved);
    ws_clear(&w);
    return st;
}

/* FE_UPWARD active. Comparison-matrix bound for the interval matrix
 * [Ac - Ar, Ac + Ar] (k x k): C = <[A]> (mig on the diagonal, -mag off it).
 * If y > 0 with C y >= b is verified, C is a nonsingular M-matrix, so every
 * A in the box is an H-matrix with |A^{-1}| <= C^{-1} (Ostrowski; <A> >= C),
 * and C^{-1} b <= y. Returns max_i y_i, or +inf when not verified. */
static double comparison_bound(int k, int ld, const double *Ac, const double *Ar, const double *b,
                               double *C, double *Y, double *W, double *y)
{
    double best = 0;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            double c = Ac[(size_t)i * ld + j], r = Ar[(size_t)i * ld + j];
            if (i == j) {
                double mig = -(r - fabs(c)); /* <= |c| - r */
                if (!(mig > 0)) return INFINITY;
                C[(size_t)i * ld + j] = mig;
            } else {
                C[(size_t)i * ld + j] = -(fabs(c) + r);
            }
        }
    if (!gj_inverse(k, ld, C, Y, W)) return INFINITY;
    for (int i = 0; i < k; i++) { /* predictor y ~ C^{-1} b, pushed up a little */
        double t = 0;
        for (int j = 0; j < k; j++) t += Y[(size_t)i * ld + j] * b[j];
        t = t * (1 + 0x1p-30) + 0x1p-1000;
        if (!(t > 0) || !isfinite(t)) return INFINITY;
        y[i] = t;
    }
    for (int i = 0; i < k; i++) { /* verify (C y)_i >= b_i, (C y)_i rounded down */
        double neg = 0;
        for (int j = 0; j < k; j++) neg += (-C[(size_t)i * ld + j]) * y[j];
        if (!(-neg >= b[i])) return INFINITY;
        if (y[i] > best) best = y[i];
    }
    return best;
}

/* ---- branch-and-bound node bound ---------------------------------------- */

void dvc_bk_node_bound(const dvc_bk_mat *K, uint64_t in, uint64_t out, int want_alpha,
                       double *ub_beta, double *ub_alpha)
{
    int m = K->m, ld = K->ld, k = 0;
    ws_t w;
    double *Ar, *rho, *phi, *bb, *ba, *C, *y, e, nx_up, nx_dn, den, t;
    int saved;
    ws_init(&w, m, ld);
    Ar = alloc_d((size_t)ld * ld);
    rho = alloc_d((size_t)ld);
    phi = alloc_d((size_t)ld);
    bb = alloc_d((size_t)ld);
    ba = alloc_d((size_t)ld);
    C = alloc_d((size_t)ld * ld);
    y = alloc_d((size_t)ld);
    *ub_beta = INFINITY;
    *ub_alpha = INFINITY;
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (int i = 0; i < m; i++)
        if (!(out >> i & 1)) w.order[k++] = i;
    w.k = k;
    if (k == 0) {
        *ub_beta = 0;
        *ub_alpha = 1;
        goto done;
    }
    /* Row i of A = I - D + DM divided by its diagonal delta_i = 1 - d_i +
     * d_i m_ii > 0 (m_ii > 0 for a P-matrix): A = diag(delta) Ahat with Ahat
     * unit-diagonal, off-diagonal phi_i m_ij, phi_i = d_i / delta_i in
     * [0, 1/m_ii] (= 1/m_ii when d_i = 1), and X(d) = A^{-1} D = Ahat^{-1} Phi.
     * The diagonal of Ahat is exact, so the interval relaxation over the free
     * d_i only widens off-diagonal entries: hull(0, [m_ij]/[m_ii]). */
    for (int a = 0; a < k; a++) {
        int i = w.order[a];
        int fixed = (int)(in >> i & 1);
        double dc = K->Mc[(size_t)i * ld + i], dr = K->Mr[(size_t)i * ld + i];
        double dlo = -(dr - dc), dhi = dc + dr; /* [m_ii] rounded outward */
        double ts = 0, rs = 0;
        if (!(dlo > 0)) goto done;
        phi[a] = 1.0 / dlo;                     /* >= phi_i */
        for (int b = 0; b < k; b++) {
            int j = w.order[b];
            double c, r, qlo, qhi;
            if (b == a) {
                w.A[(size_t)a * ld + b] = 1.0;
                Ar[(size_t)a * ld + b] = 0;
                continue;
            }
            c = K->Mc[(size_t)i * ld + j];
            r = K->Mr[(size_t)i * ld + j];
            {
                double mlo = -(r - c), mhi = c + r;
                /* [mlo, mhi] / [dlo, dhi] with dlo > 0, rounded outward. */
                double u1 = mhi / dlo, u2 = mhi / dhi, l1 = (-mlo) / dlo, l2 = (-mlo) / dhi;
                qhi = u1 > u2 ? u1 : u2;
                qlo = -(l1 > l2 ? l1 : l2);
            }
            if (!fixed) {
                if (qlo > 0) qlo = 0;
                if (qhi < 0) qhi = 0;
            }
            c = 0.5 * qlo + 0.5 * qhi;
            r = fmax(c - qlo, qhi - c);
            w.A[(size_t)a * ld + b] = c;
            Ar[(size_t)a * ld + b] = r;
            rs += r;
        }
        rho[a] = rs;
        for (int o = 0; o < m; o++)
            if (out >> o & 1) ts += K->Mmag[(size_t)i * ld + o];
        /* beta: Ahat^{-1} Phi; alpha rows S: [Ahat^{-1} diag(1/delta),
         * -Ahat^{-1} Phi M_{S,out}], 1/delta_i <= max(1, 1/m_ii). */
        bb[a] = phi[a];
        ba[a] = (fixed ? phi[a] : (phi[a] > 1 ? phi[a] : 1.0)) + phi[a] * ts;
    }
    /* H-matrix route: |Ahat^{-1}| <= <Ahat>^{-1}. */
    *ub_beta = comparison_bound(k, ld, w.A, Ar, bb, C, w.X, w.W, y);
    if (want_alpha) {
        *ub_alpha = comparison_bound(k, ld, w.A, Ar, ba, C, w.X, w.W, y);
        if (*ub_alpha < 1) *ub_alpha = 1;
    }
    /* Residual route: ||Ahat^{-1} v|| <= || |X| v || / (1 - e). */
    if (!gj_inverse(k, ld, w.A, w.X, w.W)) goto done;
    e = resid_up(k, ld, w.X, w.A, rho, w.g);
    if (!(e < 1)) goto done;
    xnorm(k, ld, w.X, &nx_up, &nx_dn, NULL);
    den = -(e - 1.0);
    for (int pass = 0; pass < 1 + want_alpha; pass++) {
        const double *v = pass ? ba : bb;
        double up = 0;
        for (int i = 0; i < k; i++) {
            double s = 0;
            for (int l = 0; l < k; l++) s += fabs(w.X[(size_t)i * ld + l]) * v[l];
            acc_max(&up, s);
        }
        t = up / den;
        if (pass == 0 && t < *ub_beta) *ub_beta = t;
        if (pass == 1) {
            if (t < 1) t = 1;
            if (t < *ub_alpha) *ub_alpha = t;
        }
    }
done:
    dvc_rnd_restore(saved);
    free(Ar);
    free(rho);
    free(phi);
    free(bb);
    free(ba);
    free(C);
    free(y);
    ws_clear(&w);
}

/* ---- positive definite node bound ------------------------------------------ */

double dvc_bk_pd_node_bound(const dvc_bk_mat *H, uint64_t T)
{
    int m = H->m, ld = H->ld, k = 0, saved;
    ws_t w;
    double *rho, e, nx_up, nx_dn, den, t, gmax = 0, q = 0, p, r = INFINITY;
    ws_init(&w, m, ld);
    rho = alloc_d((size_t)ld);
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (int i = 0; i < m; i++)
        if (T >> i & 1) w.order[k++] = i;
    if (k == 0) {
        r = 0;
        goto done;
    }
    for (int a = 0; a < k; a++) {
        const double *hc = H->Mc + (size_t)w.order[a] * ld, *hr = H->Mr + (size_t)w.order[a] * ld;
        double s = 0;
        for (int b = 0; b < k; b++) {
            w.A[(size_t)a * ld + b] = hc[w.order[b]];
            s += hr[w.order[b]];
        }
        rho[a] = s;
    }
    /* X ~ (H_TT)^{-1}; e >= ||I - X H'|| for every H' in [H_TT]. */
    if (!gj_inverse(k, ld, w.A, w.X, w.W)) goto done;
    e = resid_up(k, ld, w.X, w.A, H->point ? NULL : rho, w.g);
    if (!(e <= E_ACCEPT)) goto done;
    xnorm(k, ld, w.X, &nx_up, &nx_dn, NULL);
    den = -(e - 1.0);      /* <= 1 - e */
    t = nx_up * e / den;   /* >= ||H'^{-1} - X||: bounds every entry and row of the error */
    for (int i = 0; i < k; i++) {
        double xii = w.X[(size_t)i * ld + i];
        if (!(xii <= gmax)) gmax = xii;
    }
    gmax += t;                  /* >= max_i (H'^{-1})_ii */
    for (int i = 0; i < k; i++) /* q >= 1^T |H'^{-1}| 1: each row of the error adds <= t */
        for (int j = 0; j < k; j++) q += fabs(w.X[(size_t)i * ld + j]);
    q += (double)k * t;
    p = gmax * q;
    if (!(p >= 0) || !isfinite(p)) goto done;
    r = sqrt(p); /* correctly rounded in the current (upward) mode; one more ulp for safety */
    r = nextafter(r, INFINITY);
done:
    dvc_rnd_restore(saved);
    free(rho);
    ws_clear(&w);
    return r;
}

void dvc_bk_inv_diag(const dvc_bk_mat *H, double *key)
{
    int m = H->m, ld = H->ld;
    ws_t w;
    ws_init(&w, m, ld);
    for (int i = 0; i < m; i++) key[i] = 0;
    if (gj_inverse(m, ld, H->Mc, w.X, w.W))
        for (int i = 0; i < m; i++) key[i] = -w.X[(size_t)i * ld + i];
    ws_clear(&w);
}

/* Fill w->A with the point submatrix K_SS for the index list w->order[0..k). */
static void fill_sub(const dvc_bk_mat *K, ws_t *w, int k)
{
    int ld = w->ld;
    for (int a = 0; a < k; a++) {
        double *ra = w->A + (size_t)a * ld;
        const double *mr = K->Mc + (size_t)w->order[a] * ld;
        memset(ra, 0, sizeof(double) * (size_t)ld);
        for (int b = 0; b < k; b++) ra[b] = mr[w->order[b]];
    }
    w->k = k;
}

/* FE_UPWARD active, w->A and w->X filled (size k). Returns t >= ||(K_SS)^{-1}
 * - X|| and *nx_dn <= ||X||; +inf when the residual is not <= E_ACCEPT. */
static double verify_pred(ws_t *w, int k, double *nx_dn)
{
    double e, nx_up, den;
    *nx_dn = 0;
    if (k == 0) return 0;
    e = resid_up(k, w->ld, w->X, w->A, NULL, w->g);
    if (!(e <= E_ACCEPT)) return INFINITY;
    xnorm(k, w->ld, w->X, &nx_up, nx_dn, NULL);
    den = -(e - 1.0);
    return nx_up * e / den;
}

/* FE_UPWARD active. Verified predictor of (K_SS)^{-1} for the index list
 * w->order[0..k) (point matrix K): fills w->A, w->X; returns t >= ||(K_SS)^{-1}
 * - X||, and *nx_dn <= ||X||; +inf when the residual is not <= E_ACCEPT. */
static double verified_inv(const dvc_bk_mat *K, ws_t *w, int k, double *nx_dn)
{
    fill_sub(K, w, k);
    if (!gj_inverse(k, w->ld, w->A, w->X, w->W)) return INFINITY;
    return verify_pred(w, k, nx_dn);
}

/* The Loewner bound max_i ||L_i||_1 + sqrt(D_ii * sum |D|) (docs/beta.md
 * section 6) from X_T (index list wt->order[0..k)) within tt of G and X_in
 * (wf->order[0..kf), a subset of the former) within tf of L. Under FE_UPWARD
 * with rigorous tt, tf it is a rigorous upper bound; in round-to-nearest with
 * tt = tf = 0 a float estimate (for ordering only). +inf on NaN/overflow. */
static double loewner(const ws_t *wt, int k, double tt, const ws_t *wf, int kf, double tf)
{
    int ld = wt->ld, posT[64], posf[64];
    double q = 0, best = 0, terr = tt + tf;
    if (k == 0) return 0;
    for (int a = 0; a < k; a++) {
        posT[wt->order[a]] = a;
        posf[a] = -1;
    }
    for (int b = 0; b < kf; b++) posf[posT[wf->order[b]]] = b;
    /* D = G - L: |D_ij - (X_T - X_F)_ij| <= tt + tf, and every row of the
     * error has 1-norm <= tt + tf, so q >= 1^T |D| 1. */
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) {
            double x = wt->X[(size_t)a * ld + b];
            if (posf[a] >= 0 && posf[b] >= 0) {
                /* |x - y| <= max(x - y, y - x), both rounded up */
                double y = wf->X[(size_t)posf[a] * ld + posf[b]], d1 = x - y, d2 = y - x;
                x = d1 > d2 ? d1 : d2;
            }
            q += fabs(x);
        }
    q += (double)k * terr;
    for (int a = 0; a < k; a++) {
        double dii = wt->X[(size_t)a * ld + a], lrow = 0, s;
        if (posf[a] >= 0) {
            const double *xf = wf->X + (size_t)posf[a] * ld;
            dii -= xf[posf[a]];
            for (int b = 0; b < kf; b++) lrow += fabs(xf[b]);
            lrow += tf;
        }
        dii += terr;
        if (!(dii >= 0)) dii = 0; /* D is positive semidefinite: D_ii >= 0 (NaN caught below) */
        s = sqrt(dii * q);
        s = nextafter(s, INFINITY);
        s += lrow;
        if (!(s <= best)) best = s; /* NaN propagates */
    }
    return (best >= 0 && best < INFINITY) ? best : INFINITY;
}

double dvc_bk_sym_node_bound(const dvc_bk_mat *K, uint64_t in, uint64_t out, double *lo_completion)
{
    int m = K->m, ld = K->ld, k = 0, kf = 0, saved;
    ws_t wt, wf;
    double tt, tf = 0, nx_dn, r = INFINITY;
    *lo_completion = 0;
    ws_init(&wt, m, ld);
    ws_init(&wf, m, ld);
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (int i = 0; i < m; i++)
        if (!(out >> i & 1)) {
            if (in >> i & 1) wf.order[kf++] = i;
            wt.order[k++] = i;
        }
    if (k == 0) {
        r = 0;
        goto done;
    }
    /* G = (M_TT)^{-1} within tt of X_T; its norm bounds the completion J = T
     * from below (section 5). */
    tt = verified_inv(K, &wt, k, &nx_dn);
    if (!isfinite(tt)) goto done;
    {
        double lo = -(tt - nx_dn);
        *lo_completion = lo > 0 ? lo : 0;
    }
    /* L = (M_in,in)^{-1} padded with zeros, within tf of X_in. */
    if (kf > 0) {
        tf = verified_inv(K, &wf, kf, &nx_dn);
        if (!isfinite(tf)) goto done;
    }
    r = loewner(&wt, k, tt, &wf, kf, tf);
done:
    dvc_rnd_restore(saved);
    ws_clear(&wt);
    ws_clear(&wf);
    return r;
}

/* ---- symmetric search: both children of a node from the parent's predictors */

struct dvc_bk_sym {
    const dvc_bk_mat *K;
    ws_t wT, wI; /* parent: X_T ~ (M_TT)^{-1}, X_in ~ (M_in,in)^{-1} */
    ws_t w0, w1; /* child d_p = 0: X ~ (M_{T-p})^{-1}; child d_p = 1: X ~ (M_{in+p})^{-1} */
    int kT, kI, ok;
    int fresh_age; /* splits since the last Gauss-Jordan inverses */
    int last;      /* the child whose predictors a reusing split takes over */
};

/* Predictors are recomputed from scratch after this many reusing splits
 * (bordering and downdating let rounding errors grow). */
#define SYM_REFRESH 8

dvc_bk_sym *dvc_bk_sym_new(const dvc_bk_mat *K)
{
    dvc_bk_sym *S = malloc(sizeof *S);
    if (!S) abort();
    S->K = K;
    ws_init(&S->wT, K->m, K->ld);
    ws_init(&S->wI, K->m, K->ld);
    ws_init(&S->w0, K->m, K->ld);
    ws_init(&S->w1, K->m, K->ld);
    S->kT = S->kI = S->ok = S->fresh_age = S->last = 0;
    return S;
}

void dvc_bk_sym_free(dvc_bk_sym *S)
{
    if (!S) return;
    ws_clear(&S->wT);
    ws_clear(&S->wI);
    ws_clear(&S->w0);
    ws_clear(&S->w1);
    free(S);
}

int dvc_bk_sym_split(dvc_bk_sym *S, uint64_t in, uint64_t out, int p, int reuse, double fb[2],
                     double *fcomp0)
{
    const dvc_bk_mat *K = S->K;
    int m = K->m, ld = K->ld, kT = 0, kI = 0, q = -1, saved, ok = 0;
    double *XT, *XI, *X0, *X1, *u, *wv;
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_TONEAREST); /* predictors only */
    if (reuse && S->ok && S->fresh_age < SYM_REFRESH) {
        /* The node is the child S->last of the previous split: its
         * predictors are already at hand (the index lists keep their order). */
        ws_t t;
        if (S->last) {
            t = S->wI, S->wI = S->w1, S->w1 = t;
            S->kI++;
        } else {
            t = S->wT, S->wT = S->w0, S->w0 = t;
            S->kT--;
        }
        kT = S->kT;
        kI = S->kI;
        S->fresh_age++;
        for (int a = 0; a < kT; a++)
            if (S->wT.order[a] == p) q = a;
    } else {
        for (int i = 0; i < m; i++)
            if (!(out >> i & 1)) {
                if (i == p) q = kT;
                if (in >> i & 1) S->wI.order[kI++] = i;
                S->wT.order[kT++] = i;
            }
        reuse = 0;
        S->fresh_age = 0;
    }
    S->ok = 0;
    if (q < 0 || (in >> p & 1) || kT < 2) goto done;
    S->kT = kT;
    S->kI = kI;
    XT = S->wT.X, XI = S->wI.X, X0 = S->w0.X, X1 = S->w1.X;
    u = S->w1.g, wv = S->w1.g + ld;
    fill_sub(K, &S->wT, kT);
    if (!reuse && !gj_inverse(kT, ld, S->wT.A, XT, S->wT.W)) goto done;
    if (kI > 0) {
        fill_sub(K, &S->wI, kI);
        if (!reuse && !gj_inverse(kI, ld, S->wI.A, XI, S->wI.W)) goto done;
    }
    /* Child d_p = 0: (M_{T-p})^{-1} = X_11 - X_12 X_21 / X_22 with p the
     * pivot (Schur downdating; exact for the exact inverse). */
    {
        double xqq = XT[(size_t)q * ld + q];
        if (!(xqq != 0) || !isfinite(xqq)) goto done;
        for (int a = 0, a2 = 0; a < kT; a++) {
            double f;
            if (a == q) continue;
            S->w0.order[a2] = S->wT.order[a];
            f = XT[(size_t)a * ld + q] / xqq;
            for (int b = 0, b2 = 0; b < kT; b++) {
                if (b == q) continue;
                X0[(size_t)a2 * ld + b2] = XT[(size_t)a * ld + b] - f * XT[(size_t)q * ld + b];
                b2++;
            }
            a2++;
        }
    }
    /* Child d_p = 1: bordering X_in with index p (appended last). */
    {
        double s = K->Mc[(size_t)p * ld + p];
        for (int a = 0; a < kI; a++) {
            double t = 0, t2 = 0;
            for (int l = 0; l < kI; l++) {
                t += XI[(size_t)a * ld + l] * K->Mc[(size_t)S->wI.order[l] * ld + p];
                t2 += K->Mc[(size_t)p * ld + S->wI.order[l]] * XI[(size_t)l * ld + a];
            }
            u[a] = t;
            wv[a] = t2;
        }
        for (int l = 0; l < kI; l++) s -= K->Mc[(size_t)p * ld + S->wI.order[l]] * u[l];
        if (!(s != 0) || !isfinite(s)) goto done;
        for (int a = 0; a < kI; a++) {
            S->w1.order[a] = S->wI.order[a];
            for (int b = 0; b < kI; b++)
                X1[(size_t)a * ld + b] = XI[(size_t)a * ld + b] + u[a] * wv[b] / s;
            X1[(size_t)a * ld + kI] = -u[a] / s;
            X1[(size_t)kI * ld + a] = -wv[a] / s;
        }
        S->w1.order[kI] = p;
        X1[(size_t)kI * ld + kI] = 1.0 / s;
    }
    fb[0] = loewner(&S->w0, kT - 1, 0, &S->wI, kI, 0);
    fb[1] = loewner(&S->wT, kT, 0, &S->w1, kI + 1, 0);
    {
        double nx = 0;
        for (int a = 0; a < kT - 1; a++) {
            double r = 0;
            for (int b = 0; b < kT - 1; b++) r += fabs(X0[(size_t)a * ld + b]);
            if (!(r <= nx)) nx = r;
        }
        *fcomp0 = nx;
    }
    ok = isfinite(fb[0]) && isfinite(fb[1]) && isfinite(*fcomp0);
done:
    S->ok = ok;
    dvc_rnd_restore(saved);
    return ok;
}

void dvc_bk_sym_descend(dvc_bk_sym *S, int child) { S->last = child; }

double dvc_bk_sym_verify(dvc_bk_sym *S, int child, double *lo_completion)
{
    ws_t *G = child ? &S->wT : &S->w0, *L = child ? &S->w1 : &S->wI;
    int kG = child ? S->kT : S->kT - 1, kL = child ? S->kI + 1 : S->kI, saved;
    double tt, tf, nx_dn, r = INFINITY;
    *lo_completion = 0;
    if (!S->ok) return INFINITY;
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    /* The parent's A (T and in) are filled by the split; the children's here. */
    if (!child) fill_sub(S->K, G, kG);
    else fill_sub(S->K, L, kL);
    tt = verify_pred(G, kG, &nx_dn);
    if (!isfinite(tt)) goto done;
    {
        double lo = -(tt - nx_dn);
        *lo_completion = lo > 0 ? lo : 0;
    }
    tf = verify_pred(L, kL, &nx_dn);
    if (!isfinite(tf)) goto done;
    r = loewner(G, kG, tt, L, kL, tf);
done:
    dvc_rnd_restore(saved);
    return r;
}
