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
    void *ws;
    void (*ws_free)(void *);
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

void *hyb_memo_ws_get(const dvc_hybrid_mode *md)
{
    const hyb_memo *h = md->memo;
    return h ? h->ws : NULL;
}

int hyb_memo_ws_put(const dvc_hybrid_mode *md, void *ws, void (*free_fn)(void *))
{
    hyb_memo *h = memo_of(md);
    if (!h) return 0;
    if (h->ws) h->ws_free(h->ws);
    h->ws = ws;
    h->ws_free = free_fn;
    return 1;
}

void hyb_memo_free(dvc_hybrid_mode *md)
{
    hyb_memo *h = md->memo;
    if (!h) return;
    if (h->ws) h->ws_free(h->ws);
    if (h->e_init) {
        dvc_imat_clear(h->E);
        mpfr_clears(h->e_lo, h->e_hi, (mpfr_ptr)0);
    }
    z_free(h);
    if (h->t0_init) mpfr_clear(h->z_t0);
    free(h);
    md->memo = NULL;
}
