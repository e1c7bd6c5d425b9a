/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Validated flow of a field mode x' = f(t, x) (docs/hybrid.md section 2b):
 * a-priori box by Picard-Lindelof, interval Taylor series of the centre
 * trajectory with the Lagrange remainder over the a-priori box, and the
 * mean-value form x(s; x0) in x(s; c) + J (x0 - c) with J enclosing the
 * solution of the variational equation, carried by the Lohner set. */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "hybrid/flow.h"
#include "hybrid/dae.h"
#include "hybrid/memo.h"
#include "imat_ld.h"
#include "hybrid/field_ld.h"
#include "expr/internal.h"

/* Scratch of a field mode's flow, kept in the mode's memo for the run
 * (hyb_memo_ws_*): the vectors, matrices and series of one step, made
 * once instead of at every call. Each function below has its own members
 * (none of them calls itself), and every member is written before it is
 * read, so the results are those of fresh variables. The a-priori box and
 * the two state series of the last step are kept with their key (the set,
 * t0 and the step's end): the enclosure over a step, its end point and the
 * set map flow the same set over the same step and need them again. */
typedef struct {
    long n;
    int K;
    mpfr_prec_t prec;
    /* apriori_box */
    dvc_ivec_t aF, aZ;
    mpfi_t aw, ae;
    mpfr_t ar;
    /* jac_f, jacobian_core */
    dvc_ivec_t jg;
    dvc_imat_t jD, jJ1, jW;
    mpfi_t je, jSh;
    mpfr_t jL;
    /* sub_jacobian */
    dvc_imat_t sJi, sW;
    dvc_ivec_t sXi, sBi, sd, sXc;
    mpfi_t sSh, sSi, sacc, sSk, stmp;
    /* hyb_field_flow */
    dvc_ivec_t X0, Bx, c, Xc, dP, t1, t2;
    dvc_imat_t J, JB;
    mpfi_t T, Tp, acc, Sk;
    mpfr_t mid;
    mpfi_t **cs, **rs;
    /* the key of Bx, cs, rs */
    int have;
    mpfr_t kt0, ks;
    dvc_ivec_t kP, kR;
    dvc_imat_t kB;
} field_ws;

/* Bx encloses every solution from X0 at t0 on [t0, t0 + hs]:
 * X0 + [0, hs] f([t0, t0 + hs], Bx) inside Bx. */
static dvc_status apriori_box(field_ws *ws, dvc_ivec_t Bx, const dvc_hybrid_mode *md,
                              const mpfi_t T, const dvc_ivec_t X0, const mpfr_t hs)
{
    long n = X0->n;
    dvc_ivec_struct *F = ws->aF, *Z = ws->aZ;
    mpfi_ptr w = ws->aw, e = ws->ae;
    mpfr_ptr r = ws->ar;
    if (hyb_apriori_ld(Bx, md, T, X0, hs) == 0) return DVC_OK; /* the x87 route */
    mpfi_set_ui(w, 0);
    mpfi_put_fr(w, hs);
    dvc_status st = hyb_field(F, md, T, X0);
    int ok = 0;
    if (st == DVC_OK) {
        for (long i = 0; i < n; i++) {
            mpfi_mul(e, w, F->e[i]);
            mpfi_add(Bx->e[i], X0->e[i], e);
        }
    }
    /* B <- (X0 + [0, hs] f(T, B)) inflated, until the image is inside B;
     * then that image (inside B, so it also holds the solutions) is Bx */
    for (int it = 0; it < 20 && st == DVC_OK && !ok; it++) {
        for (long i = 0; i < n; i++) {
            mpfi_diam_abs(r, Bx->e[i]);
            mpfr_mul_d(r, r, it < 10 ? 0.1 : 0.5, MPFR_RNDU);
            mpfr_add_d(r, r, 1e-14, MPFR_RNDU);
            mpfi_interv_fr(e, r, r);
            mpfi_neg(F->e[i], e);
            mpfi_put(e, F->e[i]);
            mpfi_add(Bx->e[i], Bx->e[i], e);
        }
        st = hyb_field(F, md, T, Bx);
        if (st != DVC_OK) break;
        ok = 1;
        for (long i = 0; i < n; i++) {
            mpfi_mul(e, w, F->e[i]);
            mpfi_add(Z->e[i], X0->e[i], e);
            if (!mpfi_is_inside(Z->e[i], Bx->e[i])) ok = 0;
        }
        dvc_ivec_set(Bx, Z);
    }
    if (st != DVC_OK) return st;
    if (!ok)
        return dvc_error(DVC_NOT_CERTIFIED, "mode '%s': no a-priori enclosure on a step of %g "
                         "(Picard-Lindelof); give a smaller 'h'",
                         md->name, mpfr_get_d(hs, MPFR_RNDU));
    return DVC_OK;
}

/* D encloses the Jacobian df/dx over T x Y (g: n + 1 entries of scratch). */
static dvc_status jac_f(dvc_imat_t D, const dvc_hybrid_mode *md, const mpfi_t T, const dvc_ivec_t Y,
                        dvc_ivec_t g)
{
    long n = Y->n;
    dvc_status st = DVC_OK;
    for (long i = 0; i < n && st == DVC_OK; i++) {
        st = dvc_expr_grad_x_(g, md->f[i], T, Y);
        for (long j = 0; j < n && st == DVC_OK; j++) mpfi_set(dvc_imat_entry(D, i, j), g->e[j + 1]);
    }
    return hyb_dae_explain(st, md, T, Y);
}

/* The three substitutions of jacobian_core on the 64-bit route (imat_ld.h):
 * the same MPFI operations (dvc_imat_mul, dvc_imat_scale, dvc_imat_one and
 * dvc_imat_add) in x87 extended precision; 0 when done, J1 then holds
 * MPFI's result; else nothing is written. */
static int jacobian_ld(dvc_imat_t J1, const dvc_imat_t D, const mpfi_t e, const mpfi_t Sh,
                       const mpfi_t S)
{
    enum { NMAX = 8 };
    long n = D->r, nn = n * n;
    dvc_li d[NMAX * NMAX], j1[NMAX * NMAX], ev, sh, s;
    if (n > NMAX || dvc_imat_prec(J1) != 64 || !dvc_li_get_(&ev, e) || !dvc_li_get_(&sh, Sh) ||
        !dvc_li_get_(&s, S))
        return 1;
    for (long t = 0; t < nn; t++)
        if (!dvc_li_get_(&d[t], D->e[t]) || mpfi_get_prec(J1->e[t]) != 64) return 1;
    int saved = dvc_li_begin_(), bad = saved < 0;
    if (bad) return 1;
    for (long t = 0; t < nn; t++) j1[t] = ev;
    hyb_jac_passes_ld(j1, d, sh, s, n);
    bad = dvc_li_end_(saved);
    /* the MPFI loop's last operation is dvc_imat_add's mpfi_add, whose
     * zero endpoints are +0 on the left and -0 on the right, as put writes
     * them: a zero endpoint (from [0, s]) is MPFI's too */
    for (long t = 0; t < nn && !bad; t++) bad = !dvc_li_put_ok0_(j1[t]);
    for (long t = 0; t < nn && !bad; t++) dvc_li_put_(J1->e[t], j1[t]);
    return bad;
}

/* hyb_jacobian of a field mode with the scratch of ws. */
static dvc_status jacobian_core(field_ws *ws, dvc_imat_t J, const dvc_hybrid_mode *md,
                                const mpfi_t T, const dvc_ivec_t Y, const mpfi_t S)
{
    long n = Y->n;
    dvc_imat_struct *D = ws->jD, *J1 = ws->jJ1, *W = ws->jW;
    mpfi_ptr e = ws->je, Sh = ws->jSh;
    mpfr_ptr L = ws->jL;
    if (hyb_jacobian_ld(J, md, T, Y, S, L) == 0) return DVC_OK; /* the x87 route */
    dvc_status st = jac_f(D, md, T, Y, ws->jg);
    if (st == DVC_OK) {
        /* J(u) = I + int_0^u D J: ||J(u)|| <= e^{||D|| u}, then two
         * substitutions J in I + [0, s] D J (mean value of an integral) */
        mpfi_set_ui(Sh, 0);
        mpfi_put_fr(Sh, &S->right);
        dvc_imat_norm_inf(L, D);
        if (mpfr_number_p(L) && mpfr_sgn(L) >= 0 && mpfr_regular_p(&S->right) && mpfr_sgn(&S->right) > 0) {
            /* the upper end of exp([L s]) alone: the one used, the same
             * roundings as mpfi_mul_fr's and mpfi_exp's upper ends */
            mpfr_mul(L, L, &S->right, MPFR_RNDU);
            mpfr_exp(L, L, MPFR_RNDU);
        } else {
            mpfi_set_fr(e, L);
            mpfi_mul_fr(e, e, &S->right);
            mpfi_exp(e, e);
            mpfr_set(L, &e->right, MPFR_RNDU);
        }
        mpfi_interv_fr(e, L, L);
        mpfi_neg(Sh, e); /* reuse Sh as -e */
        mpfi_put(e, Sh);
        for (long i = 0; i < n * n; i++) mpfi_set(J1->e[i], e);
        mpfi_set_ui(Sh, 0);
        mpfi_put_fr(Sh, &S->right);
        int done = jacobian_ld(J1, D, e, Sh, S) == 0;
        for (int pass = 0; pass < 3 && !done; pass++) {
            dvc_imat_mul(W, D, J1);
            dvc_imat_scale(W, pass < 2 ? Sh : S, W);
            dvc_imat_one(J1);
            dvc_imat_add(J1, J1, W);
        }
        dvc_imat_set(J, J1);
        if (!dvc_imat_is_finite(J)) st = dvc_error(DVC_NOT_CERTIFIED, "variational equation unbounded");
    }
    return st;
}

static void ws_free(void *p);
static field_ws *ws_new(long n, int K, mpfr_prec_t prec);

/* The mode's workspace for n, K, prec (made, or remade, on first use);
 * *own: the caller frees it (the memo could not keep it). */
static field_ws *ws_of(const dvc_hybrid_mode *md, long n, int K, mpfr_prec_t prec, int *own)
{
    field_ws *w = hyb_memo_ws_get(md, HYB_WS_FIELD);
    *own = 0;
    if (w && w->n == n && w->K == K && w->prec == prec) return w;
    w = ws_new(n, K, prec);
    if (w && !hyb_memo_ws_put(md, HYB_WS_FIELD, w, ws_free)) *own = 1;
    return w;
}

dvc_status hyb_jacobian(dvc_imat_t J, const dvc_hybrid_mode *md, const mpfi_t T,
                        const dvc_ivec_t Y, const mpfi_t S, int K)
{
    if (md->linear) return hyb_expm_md(J, md, S, K);
    int own;
    field_ws *ws = ws_of(md, Y->n, K, dvc_ivec_prec(Y), &own);
    if (!ws) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_status st = jacobian_core(ws, J, md, T, Y, S);
    if (own) ws_free(ws);
    return st;
}

static mpfi_t **series_new(long n, int K, mpfr_prec_t prec)
{
    mpfi_t **c = malloc((size_t)n * sizeof *c);
    for (long i = 0; i < n; i++) {
        c[i] = malloc((size_t)(K + 1) * sizeof **c);
        for (int k = 0; k <= K; k++) mpfi_init2(c[i][k], prec);
    }
    return c;
}

static void series_free(mpfi_t **c, long n, int K)
{
    for (long i = 0; i < n; i++) {
        for (int k = 0; k <= K; k++) mpfi_clear(c[i][k]);
        free(c[i]);
    }
    free(c);
}

/* centre_at on the 64-bit route (imat_ld.h): the same MPFI operations in
 * x87 extended precision, at 64 bits; 0 when done (every result is then
 * MPFI's: its last operation is mpfi_add), else nothing is written. */
static int centre_at_ld(dvc_ivec_t Xc, mpfi_t **cs, mpfi_t **rs, const mpfi_t S, int K, long n)
{
    enum { NMAX = 16, KMAX = 32 };
    dvc_li s, out[NMAX], cl[NMAX * KMAX], rl[NMAX];
    if (n > NMAX || K > KMAX || mpfi_get_prec(Xc->e[0]) != 64 || !dvc_li_get_(&s, S)) return 1;
    for (long i = 0; i < n; i++) { /* the inputs, exact: read before the mode changes */
        for (int k = 0; k < K; k++)
            if (!dvc_li_get_(&cl[i * K + k], cs[i][k])) return 1;
        if (!dvc_li_get_(&rl[i], rs[i][K])) return 1;
    }
    int saved = dvc_li_begin_(), bad = saved < 0;
    if (bad) return 1;
    hyb_centre_w_ld(out, cl, rl, s, K, n);
    bad = dvc_li_end_(saved);
    for (long i = 0; i < n && !bad; i++) bad = mpfi_get_prec(Xc->e[i]) != 64 || !dvc_li_put_ok0_(out[i]);
    for (long i = 0; i < n && !bad; i++) dvc_li_put_(Xc->e[i], out[i]);
    return bad;
}

/* Xc encloses the centre's solution x(t0 + s; c) for s in S: its series at
 * t0 (cs) plus the Lagrange remainder from the series over the step box (rs). */
static void centre_at(dvc_ivec_t Xc, mpfi_t **cs, mpfi_t **rs, const mpfi_t S, int K, long n,
                      mpfi_t acc, mpfi_t Sk, mpfi_t tmp)
{
    if (mpfi_get_prec(acc) == 64 && mpfi_get_prec(Sk) == 64 && mpfi_get_prec(tmp) == 64 &&
        centre_at_ld(Xc, cs, rs, S, K, n) == 0)
        return;
    mpfi_set(Sk, S);
    hyb_pow_ui(Sk, K);
    for (long i = 0; i < n; i++) {
        mpfi_set_ui(acc, 0);
        for (int k = K - 1; k >= 1; k--) {
            mpfi_add(acc, acc, cs[i][k]);
            mpfi_mul(acc, acc, S);
        }
        mpfi_add(acc, acc, cs[i][0]);
        mpfi_mul(tmp, rs[i][K], Sk);
        mpfi_add(Xc->e[i], acc, tmp);
    }
}

/* J encloses D_x Phi(t0 + s; t0, x0) for s in S and x0 in X0 (the hull of
 * the set and c) as a product J_m ... J_1 over m equal sub-steps of length
 * s/m in S/m: J_i over the a-priori box B_i of the solutions over the i-th
 * sub-step only (width O(h/m) instead of O(h)), so the overestimation of
 * each factor is O((h/m)^2) and of the product O(h^2/m) (docs/hybrid.md
 * section 2b). The solutions at the start of sub-step i lie in
 * x(s_{i-1}; c) + (J_{i-1} ... J_1)(X0 - c) (mean-value form), met with the
 * step box Bx. */
#define HYB_JAC_SUB 4
static dvc_status sub_jacobian(field_ws *ws, dvc_imat_t J, const dvc_hybrid_mode *md,
                               const mpfi_t T, const dvc_ivec_t Bx, const dvc_ivec_t X0,
                               const dvc_ivec_t c, mpfi_t **cs, mpfi_t **rs, const mpfi_t S, int K)
{
    long n = X0->n;
    dvc_status st = DVC_OK;
    dvc_imat_struct *Ji = ws->sJi, *W = ws->sW;
    dvc_ivec_struct *Xi = ws->sXi, *Bi = ws->sBi, *d = ws->sd, *Xc = ws->sXc;
    mpfi_ptr Sh = ws->sSh, Si = ws->sSi, acc = ws->sacc, Sk = ws->sSk, tmp = ws->stmp;
    if (hyb_sub_jacobian_ld(J, md, T, Bx, X0, c, cs, rs, S, K, HYB_JAC_SUB, ws->jL) == 0)
        return DVC_OK; /* the x87 route */
    mpfi_div_ui(Sh, S, HYB_JAC_SUB);
    dvc_ivec_sub(d, X0, c);
    dvc_imat_one(J);
    dvc_ivec_set(Xi, X0);
    for (int i = 1; i <= HYB_JAC_SUB && st == DVC_OK; i++) {
        if (i > 1) {
            /* the solutions at s_{i-1} = (i - 1) s / m */
            mpfi_mul_ui(Si, Sh, (unsigned long)(i - 1));
            centre_at(Xc, cs, rs, Si, K, n, acc, Sk, tmp);
            dvc_imat_mul_vec(Xi, J, d);
            dvc_ivec_add(Xi, Xi, Xc);
            for (long k = 0; k < n; k++) {
                mpfi_intersect(Xi->e[k], Xi->e[k], Bx->e[k]);
                if (mpfi_is_empty(Xi->e[k]))
                    st = dvc_error(DVC_ERR_INTERNAL, "variational sub-step: empty enclosure");
            }
            if (st != DVC_OK) break;
        }
        st = apriori_box(ws, Bi, md, T, Xi, &Sh->right);
        if (st != DVC_OK) break;
        for (long k = 0; k < n; k++) {
            mpfi_intersect(Bi->e[k], Bi->e[k], Bx->e[k]);
            if (mpfi_is_empty(Bi->e[k]))
                st = dvc_error(DVC_ERR_INTERNAL, "variational sub-step: empty box");
        }
        if (st == DVC_OK) st = jacobian_core(ws, Ji, md, T, Bi, Sh);
        if (st == DVC_OK) {
            dvc_imat_mul(W, Ji, J);
            dvc_imat_set(J, W);
        }
    }
    return st;
}

static field_ws *ws_new(long n, int K, mpfr_prec_t prec)
{
    field_ws *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->n = n;
    w->K = K;
    w->prec = prec;
    dvc_ivec_init2(w->aF, n, prec);
    dvc_ivec_init2(w->aZ, n, prec);
    mpfi_init2(w->aw, prec);
    mpfi_init2(w->ae, prec);
    mpfr_init2(w->ar, prec);
    dvc_ivec_init2(w->jg, n + 1, prec);
    dvc_imat_init2(w->jD, n, n, prec);
    dvc_imat_init2(w->jJ1, n, n, prec);
    dvc_imat_init2(w->jW, n, n, prec);
    mpfi_init2(w->je, prec);
    mpfi_init2(w->jSh, prec);
    mpfr_init2(w->jL, prec);
    dvc_imat_init2(w->sJi, n, n, prec);
    dvc_imat_init2(w->sW, n, n, prec);
    dvc_ivec_struct *v[] = {w->sXi, w->sBi, w->sd, w->sXc, w->X0, w->Bx, w->c, w->Xc, w->dP,
                            w->t1, w->t2, w->kP, w->kR};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) dvc_ivec_init2(v[i], n, prec);
    mpfi_ptr x[] = {w->sSh, w->sSi, w->sacc, w->sSk, w->stmp, w->T, w->Tp, w->acc, w->Sk};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) mpfi_init2(x[i], prec);
    dvc_imat_init2(w->J, n, n, prec);
    dvc_imat_init2(w->JB, n, n, prec);
    dvc_imat_init2(w->kB, n, n, prec);
    mpfr_init2(w->mid, prec);
    mpfr_inits2(MPFR_PREC_MIN, w->kt0, w->ks, (mpfr_ptr)0);
    w->cs = series_new(n, K, prec);
    w->rs = series_new(n, K, prec);
    return w;
}

static void ws_free(void *p)
{
    field_ws *w = p;
    long n = w->n;
    dvc_ivec_clear(w->aF);
    dvc_ivec_clear(w->aZ);
    mpfi_clear(w->aw);
    mpfi_clear(w->ae);
    mpfr_clear(w->ar);
    dvc_ivec_clear(w->jg);
    dvc_imat_clear(w->jD);
    dvc_imat_clear(w->jJ1);
    dvc_imat_clear(w->jW);
    mpfi_clear(w->je);
    mpfi_clear(w->jSh);
    mpfr_clear(w->jL);
    dvc_imat_clear(w->sJi);
    dvc_imat_clear(w->sW);
    dvc_ivec_struct *v[] = {w->sXi, w->sBi, w->sd, w->sXc, w->X0, w->Bx, w->c, w->Xc, w->dP,
                            w->t1, w->t2, w->kP, w->kR};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) dvc_ivec_clear(v[i]);
    mpfi_ptr x[] = {w->sSh, w->sSi, w->sacc, w->sSk, w->stmp, w->T, w->Tp, w->acc, w->Sk};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) mpfi_clear(x[i]);
    dvc_imat_clear(w->J);
    dvc_imat_clear(w->JB);
    dvc_imat_clear(w->kB);
    mpfr_clear(w->mid);
    mpfr_clears(w->kt0, w->ks, (mpfr_ptr)0);
    series_free(w->cs, n, w->K);
    series_free(w->rs, n, w->K);
    free(w);
}

/* a == b exactly, the signs of zeros included (NaN equals NaN) */
static int same_fr(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

static int same_iv(const mpfi_t a, const mpfi_t b)
{
    return same_fr(&a->left, &b->left) && same_fr(&a->right, &b->right);
}

/* Are Bx, cs, rs of ws those of the set L from t0 over [0, smax]? */
static int ws_hit(const field_ws *w, const hyb_set *L, const mpfr_t t0, mpfr_srcptr smax)
{
    if (!w->have || !same_fr(w->kt0, t0) || !same_fr(w->ks, smax)) return 0;
    for (long i = 0; i < w->n; i++)
        if (!same_iv(w->kP->e[i], L->P->e[i]) || !same_iv(w->kR->e[i], L->R->e[i])) return 0;
    for (long i = 0; i < w->n * w->n; i++)
        if (!same_iv(w->kB->e[i], L->B->e[i])) return 0;
    return 1;
}

static void ws_key(field_ws *w, const hyb_set *L, const mpfr_t t0, mpfr_srcptr smax)
{
    mpfr_set_prec(w->kt0, mpfr_get_prec(t0));
    mpfr_set(w->kt0, t0, MPFR_RNDN);
    mpfr_set_prec(w->ks, mpfr_get_prec(smax));
    mpfr_set(w->ks, smax, MPFR_RNDN);
    dvc_ivec_set(w->kP, L->P);
    dvc_ivec_set(w->kR, L->R);
    dvc_imat_set(w->kB, L->B);
    w->have = 1;
}

dvc_status hyb_field_flow(dvc_ivec_t X, hyb_set *Lout, const dvc_hybrid_mode *md, const hyb_set *L,
                          const mpfr_t t0, const mpfi_t S, int K)
{
    long n = L->P->n;
    mpfr_prec_t prec = dvc_ivec_prec(L->P);
    int own;
    field_ws *w = ws_of(md, n, K, prec, &own);
    if (!w || !w->cs || !w->rs) {
        if (w && own) ws_free(w);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    dvc_status st = DVC_OK;
    dvc_ivec_struct *X0 = w->X0, *Bx = w->Bx, *c = w->c, *Xc = w->Xc, *dP = w->dP, *t1 = w->t1,
                    *t2 = w->t2;
    dvc_imat_struct *J = w->J, *JB = w->JB;
    mpfi_ptr T = w->T, Tp = w->Tp, acc = w->acc, Sk = w->Sk;
    mpfr_ptr mid = w->mid;
    mpfi_t **cs = w->cs, **rs = w->rs;
    /* centre: c = mid P (a point) */
    for (long i = 0; i < n; i++) {
        mpfi_mid(mid, L->P->e[i]);
        mpfi_set_fr(c->e[i], mid);
        mpfi_sub_fr(dP->e[i], L->P->e[i], mid);
    }
    /* a-priori box of every solution from the set and from c (the segments
     * of the mean-value form lie in this convex hull) over [t0, t0 + sup S] */
    hyb_set_box(X0, L);
    dvc_ivec_hull(X0, X0, c);
    mpfi_set_fr(T, t0);
    mpfi_set_fr(Tp, t0);
    mpfi_add_fr(Tp, Tp, &S->right);
    mpfi_put_fr(T, &Tp->right);
    if (!ws_hit(w, L, t0, &S->right)) {
        w->have = 0;
        st = apriori_box(w, Bx, md, T, X0, &S->right);
        if (st != DVC_OK) goto out;
        /* the centre's series at t0, remainder over Bx */
        mpfi_set_fr(Tp, t0);
        st = hyb_state_series(cs, md, Tp, c, K);
        if (st == DVC_OK) st = hyb_state_series(rs, md, T, Bx, K);
        if (st != DVC_OK) goto out;
        ws_key(w, L, t0, &S->right);
    }
    centre_at(Xc, cs, rs, S, K, n, acc, Sk, Tp);
    /* variational part: over the a-priori box for the enclosure over S;
     * for the set's image at S (S narrow) as a product of sub-steps */
    st = Lout ? sub_jacobian(w, J, md, T, Bx, X0, c, cs, rs, S, K)
              : jacobian_core(w, J, md, T, Bx, S);
    if (st != DVC_OK) goto out;
    if (X) {
        dvc_imat_mul(JB, J, L->B);
        dvc_imat_mul_vec(t1, JB, L->R);
        dvc_imat_mul_vec(t2, J, dP);
        dvc_ivec_add(X, Xc, t1);
        dvc_ivec_add(X, X, t2);
    }
    if (Lout) st = hyb_set_map_c(Lout, J, NULL, Xc);
out:
    if (own) ws_free(w);
    return st;
}
