/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The Lohner set {p + B r : p in P, r in R} that carries the hybrid engine's
 * state (docs/hybrid.md sections 2-3): its box, and its image under an
 * affine map, re-framed by the midpoint of M B or by QR (moved from
 * flow.c). */
#include <math.h>
#include <stdlib.h>
#include "hybrid/flow.h"
#include "imat_dd.h"

/* Largest condition number (infinity norm) of a frame kept without QR. */
#define HYB_COND_MAX 1e3

/* The matrices and vectors of one set map, kept with the set for its life
 * (a run maps the set at every step): every member is written before it is
 * read, so the results are those of fresh variables. */
struct hyb_map_ws_s {
    long n;
    mpfr_prec_t prec;
    dvc_imat_t MB, Bn, Bi, C;
    dvc_ivec_t Pn, d, t;
    double *a;
    mpfr_t mid;
};

static void map_ws_free(struct hyb_map_ws_s *w)
{
    if (!w) return;
    dvc_imat_clear(w->MB);
    dvc_imat_clear(w->Bn);
    dvc_imat_clear(w->Bi);
    dvc_imat_clear(w->C);
    dvc_ivec_clear(w->Pn);
    dvc_ivec_clear(w->d);
    dvc_ivec_clear(w->t);
    mpfr_clear(w->mid);
    free(w->a);
    free(w);
}

/* The scratch of L for n and prec (made, or remade, here); NULL: no memory. */
static struct hyb_map_ws_s *map_ws(hyb_set *L, long n, mpfr_prec_t prec)
{
    struct hyb_map_ws_s *w = L->ws;
    if (w && w->n == n && w->prec == prec) return w;
    map_ws_free(w);
    L->ws = w = malloc(sizeof *w);
    if (!w) return NULL;
    w->n = n;
    w->prec = prec;
    dvc_imat_init2(w->MB, n, n, prec);
    dvc_imat_init2(w->Bn, n, n, prec);
    dvc_imat_init2(w->Bi, n, n, prec);
    dvc_imat_init2(w->C, n, n, prec);
    dvc_ivec_init2(w->Pn, n, prec);
    dvc_ivec_init2(w->d, n, prec);
    dvc_ivec_init2(w->t, n, prec);
    mpfr_init2(w->mid, prec);
    w->a = malloc((size_t)(n > 0 ? n * n : 1) * sizeof *w->a);
    if (!w->a) {
        map_ws_free(w);
        L->ws = NULL;
    }
    return L->ws;
}

void hyb_set_init(hyb_set *L, long n, mpfr_prec_t prec)
{
    dvc_ivec_init2(L->P, n, prec);
    dvc_imat_init2(L->B, n, n, prec);
    dvc_ivec_init2(L->R, n, prec);
    dvc_imat_one(L->B);
    L->bexp = calloc((size_t)n, sizeof *L->bexp);
    L->bal = 0;
    L->inv64 = 0;
    L->ws = NULL;
}

void hyb_set_clear(hyb_set *L)
{
    dvc_ivec_clear(L->P);
    dvc_imat_clear(L->B);
    dvc_ivec_clear(L->R);
    free(L->bexp);
    map_ws_free(L->ws);
}

/* x0 box -> P = mid, B = I, R = x0 - mid. */
void hyb_set_from_box(hyb_set *L, const dvc_ivec_t X)
{
    long n = X->n;
    mpfr_t mid;
    mpfr_init2(mid, dvc_ivec_prec(X));
    dvc_imat_one(L->B);
    for (long i = 0; i < n; i++) {
        mpfi_mid(mid, X->e[i]);
        mpfi_set_fr(L->P->e[i], mid);
        mpfi_sub_fr(L->R->e[i], X->e[i], mid);
    }
    mpfr_clear(mid);
}

void hyb_set_box(dvc_ivec_t X, const hyb_set *L)
{
    dvc_ivec_t t;
    dvc_ivec_init2(t, L->P->n, dvc_ivec_prec(L->P));
    dvc_imat_mul_vec(t, L->B, L->R);
    dvc_ivec_add(X, L->P, t);
    dvc_ivec_clear(t);
}

/* Modified Gram-Schmidt on the columns of a (n x n, row-major doubles);
 * the result only has to be invertible (its inverse is verified). */
static void gram_schmidt(double *a, long n)
{
    for (long j = 0; j < n; j++) {
        for (long k = 0; k < j; k++) {
            double d = 0;
            for (long i = 0; i < n; i++) d += a[i * n + k] * a[i * n + j];
            for (long i = 0; i < n; i++) a[i * n + j] -= d * a[i * n + k];
        }
        double s = 0;
        for (long i = 0; i < n; i++) s += a[i * n + j] * a[i * n + j];
        s = sqrt(s);
        if (s > 0)
            for (long i = 0; i < n; i++) a[i * n + j] /= s;
    }
}

/* Bi <- an enclosure of a^-1 (Bn = a exactly): by the binary64 kernel when
 * inv64, else to one ulp of Bi's precision (the certificates that do not
 * state method.revision, revision 1, were made so and must be remade so). */
static dvc_status frame_inv(dvc_imat_t Bi, const dvc_imat_t Bn, const double *a, int inv64)
{
    return inv64 ? dvc_imat_inv_d_(Bi, a) : dvc_imat_inv(Bi, Bn);
}

/* Bi <- Bn^-1 (verified), DVC_NOT_CERTIFIED when singular or when the
 * frame's condition number exceeds condmax (HYB_COND_MAX for a map). */
static dvc_status frame_try(dvc_imat_t Bi, const dvc_imat_t Bn, const double *a, int inv64,
                            mpfr_prec_t prec, double condmax)
{
    dvc_status st = frame_inv(Bi, Bn, a, inv64);
    if (st == DVC_OK) {
        mpfr_t c1, c2;
        mpfr_inits2(prec, c1, c2, (mpfr_ptr)0);
        dvc_imat_norm_inf(c1, Bn);
        dvc_imat_norm_inf(c2, Bi);
        mpfr_mul(c1, c1, c2, MPFR_RNDU);
        int ill = mpfr_cmp_d(c1, condmax) > 0;
        mpfr_clears(c1, c2, (mpfr_ptr)0);
        if (ill) st = DVC_NOT_CERTIFIED;
    }
    return st;
}

/* Bn: the orthonormalisation of the frame a (n x n doubles, destroyed),
 * in the coordinates D^-1 x when e (D = diag(2^e)), and Bi its verified
 * inverse; a singular one (an image onto a sliding surface) gives the
 * frame I (D). */
static dvc_status frame_qr(dvc_imat_t Bn, dvc_imat_t Bi, double *a, long n, const long *e, int inv64)
{
    for (long i = 0; e && i < n; i++)
        for (long j = 0; j < n; j++) a[i * n + j] = ldexp(a[i * n + j], (int)-e[i]);
    gram_schmidt(a, n);
    dvc_imat_set_d(Bn, a);
    dvc_status st = frame_inv(Bi, Bn, a, inv64);
    if (st != DVC_OK) {
        dvc_imat_one(Bn);
        st = dvc_imat_inv(Bi, Bn);
    }
    for (long i = 0; e && st == DVC_OK && i < n; i++) /* Bn <- D Bn, Bi <- Bi D^-1 (exact) */
        for (long j = 0; j < n; j++) {
            mpfi_mul_2si(dvc_imat_entry(Bn, i, j), dvc_imat_entry(Bn, i, j), e[i]);
            mpfi_mul_2si(dvc_imat_entry(Bi, j, i), dvc_imat_entry(Bi, j, i), -e[i]);
        }
    return st;
}

/* Rn = (Bi M B) R + Bi d (C, t: scratch). */
static void frame_R(dvc_ivec_t Rn, const dvc_imat_t Bi, const dvc_imat_t MB, const dvc_ivec_t R,
                    const dvc_ivec_t d, dvc_imat_t C, dvc_ivec_t t)
{
    dvc_imat_mul(C, Bi, MB);
    dvc_imat_mul_vec(t, C, R);
    dvc_imat_mul_vec(Rn, Bi, d);
    dvc_ivec_add(Rn, Rn, t);
}

/* The largest width of (B R)_i (t: scratch): the box the tube reports. */
static double frame_width(const dvc_imat_t B, const dvc_ivec_t R, dvc_ivec_t t)
{
    double w = 0;
    dvc_imat_mul_vec(t, B, R);
    for (long i = 0; i < t->n; i++) {
        double wi = mpfr_get_d(&t->e[i]->right, MPFR_RNDU) - mpfr_get_d(&t->e[i]->left, MPFR_RNDD);
        if (!(wi <= w)) w = wi;
    }
    return w;
}

dvc_status hyb_set_map(hyb_set *L, const dvc_imat_t M, const dvc_ivec_t v)
{
    return hyb_set_map_c(L, M, v, NULL);
}

dvc_status hyb_set_map_c(hyb_set *L, const dvc_imat_t M, const dvc_ivec_t v, const dvc_ivec_t ctr)
{
    long n = L->P->n;
    mpfr_prec_t prec = dvc_ivec_prec(L->P);
    dvc_status st = DVC_OK;
    struct hyb_map_ws_s *w = map_ws(L, n, prec);
    if (!w) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_imat_struct *MB = w->MB, *Bn = w->Bn, *Bi = w->Bi, *C = w->C;
    dvc_ivec_struct *Pn = w->Pn, *d = w->d, *t = w->t;
    double *a = w->a;
    mpfr_ptr mid = w->mid;
    /* M P + v (or ctr + M (P - mid P)), then its midpoint as the new centre */
    if (ctr) {
        for (long i = 0; i < n; i++) {
            mpfi_mid(mid, L->P->e[i]);
            mpfi_sub_fr(d->e[i], L->P->e[i], mid);
        }
        dvc_imat_mul_vec(Pn, M, d);
        dvc_ivec_add(Pn, Pn, ctr);
    } else {
        dvc_imat_mul_vec(Pn, M, L->P);
        if (v) dvc_ivec_add(Pn, Pn, v);
    }
    dvc_imat_mul(MB, M, L->B);
    for (long i = 0; i < n; i++) {
        mpfi_mid(mid, Pn->e[i]);
        mpfi_sub_fr(d->e[i], Pn->e[i], mid);
        mpfi_set_fr(L->P->e[i], mid);
    }
    /* new frame: the midpoint of M B itself while it stays well conditioned
     * (then Bn^-1 M B is near the identity and the box R is not wrapped);
     * otherwise its orthonormalisation (QR, Lohner's method), which keeps
     * the frame stable at the price of some wrapping */
    dvc_imat_mid_d(a, MB);
    dvc_imat_set_d(Bn, a);
    st = frame_try(Bi, Bn, a, L->inv64, prec, HYB_COND_MAX);
    int mid_ok = st == DVC_OK;
    if (st != DVC_OK) st = frame_qr(Bn, Bi, a, n, NULL, L->inv64);
    if (st == DVC_OK && L->bal && L->bexp && !mid_ok) {
        /* a balanced mode (docs/hybrid.md section 3): the QR frame of the
         * coordinates D^-1 x too, where a stiff mode is well scaled; the
         * one whose box is narrower is kept */
        dvc_imat_t Bn2, Bi2;
        dvc_ivec_t R2;
        dvc_imat_init2(Bn2, n, n, prec);
        dvc_imat_init2(Bi2, n, n, prec);
        dvc_ivec_init2(R2, n, prec);
        dvc_imat_mid_d(a, MB);
        if (frame_qr(Bn2, Bi2, a, n, L->bexp, L->inv64) == DVC_OK) {
            frame_R(R2, Bi2, MB, L->R, d, C, t);
            frame_R(Pn, Bi, MB, L->R, d, C, t);
            if (frame_width(Bn2, R2, t) < frame_width(Bn, Pn, t)) {
                dvc_imat_set(Bn, Bn2);
                dvc_imat_set(Bi, Bi2);
            }
        }
        dvc_error_reset();
        dvc_imat_clear(Bn2);
        dvc_imat_clear(Bi2);
        dvc_ivec_clear(R2);
    }
    if (st != DVC_OK) return dvc_error_context(st, "Lohner frame: ");
    /* R' = (Bn^-1 M B) R + Bn^-1 (M P + v - P') */
    frame_R(t, Bi, MB, L->R, d, C, Pn);
    dvc_ivec_set(L->R, t);
    dvc_imat_set(L->B, Bn);
    if (!dvc_ivec_is_finite(L->R) || !dvc_ivec_is_finite(L->P))
        st = dvc_error(DVC_NOT_CERTIFIED, "the flow enclosure is unbounded (no information)");
    return st;
}

/* Re-frame the set by QR (Lohner's method) when its frame's condition
 * number exceeds condmax, the column of largest extent |B_j| w(R_j) first,
 * so that the frame's first direction is the set's longest one
 * (docs/hybrid.md section 5: after a switch into a mode that does not
 * watch the surface). The set is the same: R' = Bn^-1 B R + Bn^-1 (P -
 * mid P) encloses it in the new frame. */
dvc_status hyb_set_reframe(hyb_set *L, double condmax)
{
    long n = L->P->n;
    mpfr_prec_t prec = dvc_ivec_prec(L->P);
    struct hyb_map_ws_s *w = map_ws(L, n, prec);
    if (!w) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_imat_struct *Bn = w->Bn, *Bi = w->Bi, *C = w->C, *MB = w->MB;
    dvc_ivec_struct *d = w->d, *t = w->t, *Pn = w->Pn;
    double *a = w->a;
    long *ord = malloc((size_t)(n > 0 ? n : 1) * sizeof *ord);
    double *ext = malloc((size_t)(n > 0 ? n : 1) * sizeof *ext), *b = malloc((size_t)(n > 0 ? n * n : 1) * sizeof *b);
    if (!ord || !ext || !b) {
        free(ord);
        free(ext);
        free(b);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    dvc_imat_mid_d(b, L->B);
    dvc_imat_set_d(Bn, b);
    if (frame_try(Bi, Bn, b, L->inv64, prec, condmax) == DVC_OK) { /* well conditioned: kept */
        free(ord);
        free(ext);
        free(b);
        return DVC_OK;
    }
    for (long j = 0; j < n; j++) {
        double c2 = 0;
        for (long i = 0; i < n; i++) c2 += b[i * n + j] * b[i * n + j];
        ext[j] = sqrt(c2) * (mpfr_get_d(&L->R->e[j]->right, MPFR_RNDU) - mpfr_get_d(&L->R->e[j]->left, MPFR_RNDD));
        ord[j] = j;
    }
    for (long j = 1; j < n; j++) /* insertion sort, largest extent first */
        for (long k = j; k > 0 && ext[ord[k]] > ext[ord[k - 1]]; k--) {
            long q = ord[k];
            ord[k] = ord[k - 1];
            ord[k - 1] = q;
        }
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) a[i * n + j] = b[i * n + ord[j]];
    free(ord);
    free(ext);
    free(b);
    dvc_status st = frame_qr(Bn, Bi, a, n, NULL, L->inv64);
    if (st != DVC_OK) return dvc_error_context(st, "Lohner frame: ");
    for (long i = 0; i < n; i++) {
        mpfi_mid(w->mid, L->P->e[i]);
        mpfi_sub_fr(d->e[i], L->P->e[i], w->mid);
        mpfi_set_fr(L->P->e[i], w->mid);
    }
    dvc_imat_set(MB, L->B);
    frame_R(t, Bi, MB, L->R, d, C, Pn);
    dvc_ivec_set(L->R, t);
    dvc_imat_set(L->B, Bn);
    return dvc_ivec_is_finite(L->R) ? DVC_OK
                                    : dvc_error(DVC_NOT_CERTIFIED, "the flow enclosure is unbounded (no information)");
}
