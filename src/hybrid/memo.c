/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Per-mode reuse of exp(A s) and of the forcing series (memo.h). The memo
 * hangs off the mode (dvc_hybrid_mode.memo) and is filled through a const
 * mode: it changes no value the mode states, only what is recomputed. */
#include "hybrid/memo.h"

#include <stdlib.h>

typedef struct {
    int e_ok, e_K, e_init, t0_init;
    mpfr_t e_lo, e_hi; /* S, exactly */
    dvc_imat_t E;
    int z_ok, z_K;
    long z_n;
    mpfr_prec_t z_prec;
    mpfr_t z_t0;
    mpfi_t **z;
    int r_ok, r_K, r_init;
    long r_n;
    mpfr_prec_t r_prec;
    mpfr_t r_t0, r_s;
    mpfi_t *r;
    mpfi_t **sc[2]; /* scratch arrays, n x (K + 1) */
    long sc_n[2];
    int sc_K[2];
    mpfr_prec_t sc_prec[2];
    void *ws[HYB_WS_N];
    void (*ws_free[HYB_WS_N])(void *);
} hyb_memo;

static hyb_memo *memo_of(const dvc_hybrid_mode *md)
{
    dvc_hybrid_mode *m = (dvc_hybrid_mode *)md; /* the memo only: see above */
    if (!m->memo) {
        hyb_memo *h = calloc(1, sizeof *h);
        if (!h) return NULL;
        m->memo = h;
    }
    return m->memo;
}

/* a copy of x at its own precision, so that equality is exact */
static void set_exact(mpfr_t dst, mpfr_srcptr x)
{
    mpfr_set_prec(dst, mpfr_get_prec(x));
    mpfr_set(dst, x, MPFR_RNDN);
}

static int same(mpfr_srcptr a, mpfr_srcptr b)
{
    return mpfr_equal_p(a, b) || (mpfr_nan_p(a) && mpfr_nan_p(b));
}

int hyb_memo_expm_get(dvc_imat_t E, const dvc_hybrid_mode *md, const mpfi_t S, int K)
{
    const hyb_memo *h = md->memo;
    if (!h || !h->e_ok || h->e_K != K || dvc_imat_prec(h->E) != dvc_imat_prec(E) || h->E->r != E->r ||
        h->E->c != E->c || !same(h->e_lo, &S->left) || !same(h->e_hi, &S->right))
        return 0;
    dvc_imat_set(E, h->E);
    return 1;
}

void hyb_memo_expm_put(const dvc_hybrid_mode *md, const dvc_imat_t E, const mpfi_t S, int K)
{
    hyb_memo *h = memo_of(md);
    if (!h) return;
    if (h->e_init) {
        dvc_imat_clear(h->E);
    } else {
        mpfr_inits2(MPFR_PREC_MIN, h->e_lo, h->e_hi, (mpfr_ptr)0);
        h->e_init = 1;
    }
    dvc_imat_init2(h->E, E->r, E->c, dvc_imat_prec(E));
    dvc_imat_set(h->E, E);
    set_exact(h->e_lo, &S->left);
    set_exact(h->e_hi, &S->right);
    h->e_K = K;
    h->e_ok = 1;
}

static void z_free(hyb_memo *h)
{
    for (long i = 0; h->z && i < h->z_n; i++) {
        for (int k = 0; k <= h->z_K; k++) mpfi_clear(h->z[i][k]);
        free(h->z[i]);
    }
    free(h->z);
    h->z = NULL;
    h->z_ok = 0;
}

mpfi_t **hyb_memo_forcing_get(const dvc_hybrid_mode *md, const mpfr_t t0, int K, long n, mpfr_prec_t prec)
{
    const hyb_memo *h = md->memo;
    if (!h || !h->z_ok || h->z_K != K || h->z_n != n || h->z_prec != prec || !same(h->z_t0, t0)) return NULL;
    return h->z;
}

void hyb_memo_forcing_put(const dvc_hybrid_mode *md, mpfi_t **z, const mpfr_t t0, int K, long n, mpfr_prec_t prec)
{
    hyb_memo *h = memo_of(md);
    if (!h) return;
    z_free(h);
    if (!h->t0_init) {
        mpfr_init2(h->z_t0, MPFR_PREC_MIN);
        h->t0_init = 1;
    }
    h->z = calloc((size_t)n, sizeof *h->z);
    if (!h->z) return;
    h->z_n = n;
    h->z_K = K;
    for (long i = 0; i < n; i++) {
        h->z[i] = malloc((size_t)(K + 1) * sizeof **h->z);
        if (!h->z[i]) {
            h->z_n = i;
            z_free(h);
            return;
        }
        for (int k = 0; k <= K; k++) {
            mpfi_init2(h->z[i][k], prec);
            mpfi_set(h->z[i][k], z[i][k]);
        }
    }
    set_exact(h->z_t0, t0);
    h->z_prec = prec;
    h->z_ok = 1;
}

/* a == b with the signs of zeros (NaN equals NaN) */
static int same_signed(mpfr_srcptr a, mpfr_srcptr b)
{
    return same(a, b) && (mpfr_nan_p(a) || mpfr_signbit(a) == mpfr_signbit(b));
}

static void rows_free(mpfi_t **z, long n, int K)
{
    for (long i = 0; z && i < n; i++) {
        for (int k = 0; k <= K; k++) mpfi_clear(z[i][k]);
        free(z[i]);
    }
    free(z);
}

/* n rows of K + 1 intervals at prec, or NULL */
static mpfi_t **rows_new(long n, int K, mpfr_prec_t prec)
{
    mpfi_t **z = calloc((size_t)(n > 0 ? n : 1), sizeof *z);
    for (long i = 0; z && i < n; i++) {
        z[i] = malloc((size_t)(K + 1) * sizeof **z);
        if (!z[i]) {
            rows_free(z, i, K);
            return NULL;
        }
        for (int k = 0; k <= K; k++) mpfi_init2(z[i][k], prec);
    }
    return z;
}

static void r_free(hyb_memo *h)
{
    for (long i = 0; h->r && i < h->r_n; i++) mpfi_clear(h->r[i]);
    free(h->r);
    h->r = NULL;
    h->r_ok = 0;
}

mpfi_t *hyb_memo_rem_get(const dvc_hybrid_mode *md, const mpfr_t t0, const mpfr_t smax, int K, long n,
                         mpfr_prec_t prec)
{
    const hyb_memo *h = md->memo;
    if (!h || !h->r_ok || h->r_K != K || h->r_n != n || h->r_prec != prec ||
        !same_signed(h->r_t0, t0))
        return NULL;
    /* revision 2: a remainder bounded over [t0, t0 + s] holds for every
     * shorter span from t0 (docs/hybrid.md section 2) */
    if (md->revision >= 2 ? mpfr_cmp(h->r_s, smax) < 0 : !same_signed(h->r_s, smax)) return NULL;
    return h->r;
}

void hyb_memo_rem_put(const dvc_hybrid_mode *md, mpfi_t **z, const mpfr_t t0, const mpfr_t smax, int K,
                      long n, mpfr_prec_t prec)
{
    hyb_memo *h = memo_of(md);
    if (!h) return;
    if (!h->r || h->r_n != n || h->r_prec != prec) {
        r_free(h);
        h->r = malloc((size_t)(n > 0 ? n : 1) * sizeof *h->r);
        if (!h->r) return;
        for (long i = 0; i < n; i++) mpfi_init2(h->r[i], prec);
        h->r_n = n;
        h->r_prec = prec;
    }
    if (!h->r_init) {
        mpfr_inits2(MPFR_PREC_MIN, h->r_t0, h->r_s, (mpfr_ptr)0);
        h->r_init = 1;
    }
    for (long i = 0; i < n; i++) mpfi_set(h->r[i], z[i][K]);
    set_exact(h->r_t0, t0);
    set_exact(h->r_s, smax);
    h->r_K = K;
    h->r_ok = 1;
}

mpfi_t **hyb_memo_scratch(const dvc_hybrid_mode *md, int which, long n, int K, mpfr_prec_t prec)
{
    hyb_memo *h = memo_of(md);
    if (!h) return NULL;
    if (h->sc[which] && h->sc_n[which] == n && h->sc_K[which] >= K && h->sc_prec[which] == prec)
        return h->sc[which];
    rows_free(h->sc[which], h->sc_n[which], h->sc_K[which]);
    h->sc[which] = rows_new(n, K, prec);
    h->sc_n[which] = n;
    h->sc_K[which] = K;
    h->sc_prec[which] = prec;
    return h->sc[which];
}

void *hyb_memo_ws_get(const dvc_hybrid_mode *md, int slot)
{
    const hyb_memo *h = md->memo;
    return h ? h->ws[slot] : NULL;
}

int hyb_memo_ws_put(const dvc_hybrid_mode *md, int slot, void *ws, void (*free_fn)(void *))
{
    hyb_memo *h = memo_of(md);
    if (!h) return 0;
    if (h->ws[slot]) h->ws_free[slot](h->ws[slot]);
    h->ws[slot] = ws;
    h->ws_free[slot] = free_fn;
    return 1;
}

void hyb_memo_free(dvc_hybrid_mode *md)
{
    hyb_memo *h = md->memo;
    if (!h) return;
    for (int k = 0; k < HYB_WS_N; k++)
        if (h->ws[k]) h->ws_free[k](h->ws[k]);
    r_free(h);
    if (h->r_init) mpfr_clears(h->r_t0, h->r_s, (mpfr_ptr)0);
    for (int k = 0; k < 2; k++) rows_free(h->sc[k], h->sc_n[k], h->sc_K[k]);
    if (h->e_init) {
        dvc_imat_clear(h->E);
        mpfr_clears(h->e_lo, h->e_hi, (mpfr_ptr)0);
    }
    z_free(h);
    if (h->t0_init) mpfr_clear(h->z_t0);
    free(h);
    md->memo = NULL;
}
