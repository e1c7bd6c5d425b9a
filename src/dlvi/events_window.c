/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The events route's ambiguity windows (docs/events.md section 3): where
 * an event cannot be isolated, the continuous DLVI field
 * F(t, x) = A x + B y(Q x + g(t)) + f(t) is integrated over a short window
 * by first-order validated steps, with y enclosed by the certified LVI
 * solution over a box; no pattern is used inside the window. */
#include <math.h>
#include "dlvi/events_internal.h"

/* F over T x X: A X + B Y + f(T), Y the LVI solution over Q X + g(T). */
static dvc_status field_box(dvc_ivec_t F, const evt_field *fd, const mpfi_t T, const dvc_ivec_t X,
                            dvc_lvi_result_t lr, dvc_ivec_t q, dvc_ivec_t G, dvc_ivec_t Fx)
{
    dvc_status st = fd->fg(Fx, G, T, fd->ctx);
    if (st != DVC_OK) return st;
    dvc_imat_mul_vec(q, fd->Q, X);
    dvc_ivec_add(q, q, G);
    st = dvc_lvi_solve(lr, fd->sv, q, NULL);
    if (st != DVC_OK) return dvc_error_context(st, "the LVI over the window's box: ");
    dvc_imat_mul_vec(F, fd->B, lr->y);
    dvc_ivec_add(F, F, Fx);
    dvc_imat_mul_vec(Fx, fd->A, X); /* Fx reused for A X */
    dvc_ivec_add(F, F, Fx);
    return dvc_ivec_is_finite(F) ? DVC_OK : dvc_error(DVC_NOT_CERTIFIED, "the field is unbounded");
}

/* Xt with Xa + [0, h] F(Ts, Xt) in Xt (Picard-Lindelof: the solution from
 * any state of Xa stays in Xt over Ts), and F over it. */
static dvc_status apriori(dvc_ivec_t Xt, dvc_ivec_t F, const evt_field *fd, const mpfi_t Ts,
                          const mpfi_t H0, const dvc_ivec_t Xa, dvc_lvi_result_t lr, dvc_ivec_t q,
                          dvc_ivec_t G, dvc_ivec_t Fx, dvc_ivec_t Xn)
{
    mpfr_t e;
    mpfr_init2(e, dvc_ivec_prec(Xt));
    dvc_ivec_set(Xt, Xa);
    dvc_status st = DVC_NOT_CERTIFIED;
    for (int it = 0; it < 12; it++) {
        dvc_status s2 = field_box(F, fd, Ts, Xt, lr, q, G, Fx);
        if (s2 != DVC_OK) {
            st = s2;
            break;
        }
        dvc_ivec_scale(Xn, H0, F);
        dvc_ivec_add(Xn, Xn, Xa);
        int inside = it > 0;
        for (long i = 0; i < Xt->n && inside; i++) inside = mpfi_is_inside(Xn->e[i], Xt->e[i]) > 0;
        if (inside) {
            st = DVC_OK;
            break;
        }
        /* widen: the new box plus its width and a little */
        dvc_ivec_max_width(e, Xn);
        mpfr_mul_d(e, e, 0.5, MPFR_RNDU);
        mpfr_add_d(e, e, 1e-300, MPFR_RNDU);
        dvc_ivec_hull(Xt, Xt, Xn);
        dvc_ivec_inflate(Xt, Xt, e);
    }
    mpfr_clear(e);
    if (st == DVC_NOT_CERTIFIED) dvc_error(DVC_NOT_CERTIFIED, "no a-priori box over a window step");
    return st;
}

dvc_status evt_window_flow(const evt_field *fd, const mpfi_t Tw, const dvc_ivec_t X0, dvc_ivec_t X1,
                           dvc_ivec_t box, long nsub)
{
    long n = X0->n, m = fd->Q->r;
    mpfr_prec_t prec = dvc_ivec_prec(X1);
    dvc_lvi_result_t lr;
    dvc_ivec_t Xa, Xt, F, q, G, Fx, Xn;
    mpfi_t Ts, H, H0;
    mpfr_t sa, sb;
    dvc_lvi_result_init2(lr, m, prec);
    dvc_ivec_init2(Xa, n, prec);
    dvc_ivec_init2(Xt, n, prec);
    dvc_ivec_init2(F, n, prec);
    dvc_ivec_init2(Fx, n, prec);
    dvc_ivec_init2(Xn, n, prec);
    dvc_ivec_init2(q, m, prec);
    dvc_ivec_init2(G, m, prec);
    mpfi_init2(Ts, prec);
    mpfi_init2(H, prec);
    mpfi_init2(H0, prec);
    mpfr_inits2(prec, sa, sb, (mpfr_ptr)0);
    dvc_ivec_set(Xa, X0);
    dvc_ivec_set(box, X0);
    dvc_status st = DVC_OK;
    mpfr_set(sa, &Tw->left, MPFR_RNDN);
    for (long j = 1; j <= nsub && st == DVC_OK; j++) {
        /* sb = ta + (tb - ta) j / nsub, the last one tb exactly */
        if (j == nsub) mpfr_set(sb, &Tw->right, MPFR_RNDN);
        else {
            mpfr_sub(sb, &Tw->right, &Tw->left, MPFR_RNDN);
            mpfr_mul_si(sb, sb, j, MPFR_RNDN);
            mpfr_div_si(sb, sb, nsub, MPFR_RNDN);
            mpfr_add(sb, sb, &Tw->left, MPFR_RNDN);
        }
        if (mpfr_cmp(sb, sa) <= 0) continue;
        mpfi_interv_fr(Ts, sa, sb);
        mpfi_set_fr(H, sb);
        mpfi_sub_fr(H, H, sa);
        mpfi_interv_d(H0, 0, 0);
        mpfi_put(H0, H);
        st = apriori(Xt, F, fd, Ts, H0, Xa, lr, q, G, Fx, Xn);
        if (st != DVC_OK) break;
        /* x(sb) = x(sa) + int F: in Xa + h F(Ts, Xt) */
        dvc_ivec_hull(box, box, Xt);
        dvc_ivec_scale(Xn, H, F);
        dvc_ivec_add(Xa, Xa, Xn);
        mpfr_set(sa, sb, MPFR_RNDN);
    }
    if (st == DVC_OK) dvc_ivec_set(X1, Xa);
    dvc_lvi_result_clear(lr);
    dvc_ivec_clear(Xa);
    dvc_ivec_clear(Xt);
    dvc_ivec_clear(F);
    dvc_ivec_clear(Fx);
    dvc_ivec_clear(Xn);
    dvc_ivec_clear(q);
    dvc_ivec_clear(G);
    mpfi_clear(Ts);
    mpfi_clear(H);
    mpfi_clear(H0);
    mpfr_clears(sa, sb, (mpfr_ptr)0);
    return st;
}
