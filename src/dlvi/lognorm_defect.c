/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route: the defect of the linear interpolant over a step, as
 * interval data per piece, and its norm (docs/lognorm.md section 4). */
#include "dlvi/lognorm_ws.h"
#include "rounding.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A single certified pattern over the last box solve: its index (bit a:
 * y_a free), or -1. */
long dvc_ln_box_pattern_(const dvc_lvi_result_t lr, dvc_status st, long m)
{
    long k = 0;
    if (st != DVC_OK || lr->route != DVC_LVI_ROUTE_ACTIVE_SET || lr->active == NULL) return -1;
    for (long a = 0; a < m; a++) {
        if (lr->active[a] == 0) k |= 1L << a;
        else if (lr->active[a] != -1 && lr->active[a] != 1) return -1;
    }
    return k;
}

/* The Jacobian slot of a certified pattern (bits as box_pattern), or -1.
 * In the hull mode a pattern met for the first time gets its slot here and
 * its log norm in every norm created so far (a norm created later
 * certifies every slot itself). */
long dvc_ln_pat_slot_(lws *w, long bits)
{
    long before = w->J.npat, k = dvc_lognorm_jac_slot_(&w->J, bits);
    if (k < 0 || k < before) return k;
    for (long j = 0; j <= w->nmodes; j++)
        if (dvc_lognorm_pat_mu_(w->nrm[j], &w->J, k, w->prec) != DVC_OK) {
            dvc_error_reset();
            return -1;
        }
    return k;
}

/* C = -(f'(t) + B G g'(t)) (the g term only on a single-pattern step
 * k_aff >= 0: elsewhere the LVI box covers g) and c0 = mid C, over the
 * time interval t (a piece or the whole step); tv not NULL: also f(tv)
 * into w->fm (DVC_LNQ_FMID). 0 when a derivative cannot be enclosed (the piece then
 * keeps the box r of the values). */
static int piece_deriv(lws *w, long k_aff, const mpfi_t t, mpfi_srcptr tv)
{
    long n = w->n, m = w->m;
    dvc_status st = DVC_OK;
    if (w->f.eval == NULL) {
        dvc_ivec_zero(w->C);
    } else if (tv != NULL) {
        /* with f(tv) into w->fm in the same call (one pass of an
         * expression); DVC_LNQ_FMID when that value is a finite enclosure, else the
         * caller evaluates it again (and gets the message) */
        st = dvc_tfun_cb_val_deriv(&w->f, w->fm, w->C, tv, t);
        if (st == DVC_OK) {
            dvc_ln_set_(w, DVC_LNQ_FMID, DVC_LN_MPFI);
            for (long c = 0; c < n; c++)
                if (!dvc_ival_is_finite(w->fm->e[c]) || !dvc_ival_is_valid(w->fm->e[c]))
                    dvc_ln_set_(w, DVC_LNQ_FMID, DVC_LN_NONE);
        } else {
            dvc_error_reset();
            st = w->f.deriv(w->C, t, w->f.ctx);
        }
    } else {
        st = w->f.deriv(w->C, t, w->f.ctx);
    }
    if (st == DVC_OK) dvc_ivec_set(w->Fd, w->C);
    /* a constant g (dvc_ln_cst_eval_) has g' = 0: no term */
    if (st == DVC_OK && m > 0 && k_aff >= 0 && w->g.eval != NULL && w->g.eval != dvc_ln_cst_eval_) {
        st = w->g.deriv(w->gd, t, w->g.ctx);
        if (st == DVC_OK) {
            dvc_ln_mv_(w, w->tm_, w->J.G[k_aff], w->gd);
            dvc_ln_mv_(w, w->a, w->p->B, w->tm_);
            dvc_ivec_add(w->C, w->C, w->a);
        }
    }
    if (st != DVC_OK || !dvc_ivec_is_finite(w->C)) {
        dvc_error_reset();
        return 0;
    }
    for (long c = 0; c < n; c++) {
        mpfi_neg(w->C->e[c], w->C->e[c]);
        mpfi_mid(&w->c0->e[c]->left, w->C->e[c]);
        mpfr_set(&w->c0->e[c]->right, &w->c0->e[c]->left, MPFR_RNDN);
    }
    return 1;
}

/* On a pattern-change step: the certified pattern of piece k over the box
 * Q hull(p(s_k), p(s_{k+1})) + g(piece) (w->tpk), or -1 in *kp; when one
 * is found, the anchor yma = S(Q p(tau) + g(tau)) at the piece's midpoint
 * (sigma_a = tau's sigma in w->tpk_sa; g(tau) in w->gk). */
static dvc_status piece_pattern(lws *w, long k, long *kp)
{
    long n = w->n, m = w->m, K = w->K;
    dvc_status st;
    *kp = -1;
    for (int e = 0; e <= 1; e++) {
        mpfi_set_si(w->v, 2 * (k + e) - K);
        mpfi_div_si(w->v, w->v, 2 * K);
        dvc_ivec_scale(w->pv, w->v, w->dx);
        dvc_ivec_add(w->pv, w->pv, w->xm);
        for (long c = 0; c < n; c++) {
            if (e == 0) mpfi_set(w->Xk->e[c], w->pv->e[c]);
            else mpfi_union(w->Xk->e[c], w->Xk->e[c], w->pv->e[c]);
        }
    }
    if ((st = dvc_dlvi_tf_eval_(&w->g, w->Gk, w->tpk, "g")) != DVC_OK) return st;
    dvc_ln_q_of_(w, w->qbox, w->Xk, w->Gk);
    st = dvc_lvi_solve(w->lp, w->solver, w->qbox, NULL);
    *kp = dvc_ln_pat_slot_(w, dvc_ln_box_pattern_(w->lp, st, m));
    dvc_error_reset();
    if (*kp < 0) return DVC_OK;
    /* the anchor at sigma_a = (2k + 1 - K)/(2K) */
    mpfi_set_si(w->tpk_sa, 2 * k + 1 - K);
    mpfi_div_si(w->tpk_sa, w->tpk_sa, 2 * K);
    dvc_ivec_scale(w->pv, w->tpk_sa, w->dx);
    dvc_ivec_add(w->pv, w->pv, w->xm);
    dvc_ln_q_of_(w, w->qbox, w->pv, w->gk);
    st = dvc_lvi_solve(w->la, w->solver, w->qbox, NULL);
    if (st != DVC_OK) {
        dvc_error_reset();
        *kp = -1;
        return DVC_OK;
    }
    dvc_ivec_set(w->yma, w->la->y);
    return DVC_OK;
}

/* The times of the pieces on the binary64 path: t_i and h as doubles,
 * when none of the operations of piece_mid and piece_span can leave the
 * normal range with them. */
typedef struct {
    double tl, th, hl, hh; /* t_i, h */
    int tz;                /* t_i is [0, 0] (mpfi_add copies the other operand) */
} ptimes;

static int ptimes_get(lws *w, ptimes *pt)
{
    if (!w->fast || !w->reuse) return 0;
    dvc_ln_h_d_(w, &pt->hl, &pt->hh);
    if (!(pt->hl >= 0x1p-900 && pt->hh <= 0x1p900)) return 0;
    pt->tl = mpfr_get_d(&w->ti->left, MPFR_RNDD);
    pt->th = mpfr_get_d(&w->ti->right, MPFR_RNDU);
    pt->tz = mpfr_zero_p(&w->ti->left) && mpfr_zero_p(&w->ti->right);
    if (pt->tz) return 1;
    /* a zero end only when it is one in MPFR (not a tiny value rounded) */
    return (pt->tl >= 0x1p-900 || (pt->tl == 0 && mpfr_zero_p(&w->ti->left))) &&
           (pt->th >= 0x1p-900 || (pt->th == 0 && mpfr_zero_p(&w->ti->right))) && pt->th <= 0x1p900;
}

/* o = t_i + h c / d as mpfi_mul_si(h, c), mpfi_div_si(., d), mpfi_add(., t_i)
 * (c >= 0, d > 0): for c = 0 the first two give [+0, -0], and mpfi_add
 * copies its nonzero operand (or the first when both are [0, 0]); else
 * every end is > 0. Under FE_UPWARD, a lower end as -(upper end of the
 * negation); not inlined, so that no operation leaves the mode. */
__attribute__((noinline)) static void ptime_up(const ptimes *pt, double c, double d, double *o)
{
    if (c == 0) {
        o[0] = pt->tz ? 0.0 : pt->tl;
        o[1] = pt->tz ? -0.0 : pt->th;
        return;
    }
    double nl = ((-pt->hl) * c) / d, hi = (pt->hh * c) / d;
    o[0] = pt->tz ? -nl : -(nl + (-pt->tl));
    o[1] = pt->tz ? hi : hi + pt->th;
}

static void ptime(const ptimes *pt, long c, long d, double *o)
{
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    ptime_up(pt, (double)c, (double)d, o);
    dvc_rnd_restore(saved);
}

/* Piece k of K of the step [t_i, t_i + h]: its midpoint into w->tk, and
 * its time span into w->tpk (through the scratch w->s, w->u; on the
 * binary64 path by ptime, the scratch untouched). */
static void piece_mid(lws *w, long k, long K)
{
    ptimes pt;
    if (ptimes_get(w, &pt)) {
        double o[2];
        ptime(&pt, 2 * k + 1, 2 * K, o);
        mpfr_set_d(&w->tk->left, o[0], MPFR_RNDD);
        mpfr_set_d(&w->tk->right, o[1], MPFR_RNDU);
        return;
    }
    mpfi_mul_si(w->tk, w->h, 2 * k + 1);
    mpfi_div_si(w->tk, w->tk, 2 * K);
    mpfi_add(w->tk, w->tk, w->ti);
}

static void piece_span(lws *w, long k, long K)
{
    ptimes pt;
    if (ptimes_get(w, &pt)) {
        /* mpfi_union: the smaller left end, the larger right end */
        double a[2], b[2];
        ptime(&pt, k, K, a);
        ptime(&pt, k + 1, K, b);
        mpfr_set_d(&w->tpk->left, a[0] <= b[0] ? a[0] : b[0], MPFR_RNDD);
        mpfr_set_d(&w->tpk->right, b[1] >= a[1] ? b[1] : a[1], MPFR_RNDU);
        return;
    }
    mpfi_mul_si(w->s, w->h, k);
    mpfi_div_si(w->s, w->s, K);
    mpfi_add(w->s, w->s, w->ti);
    mpfi_mul_si(w->u, w->h, k + 1);
    mpfi_div_si(w->u, w->u, K);
    mpfi_add(w->u, w->u, w->ti);
    mpfi_union(w->tpk, w->s, w->u);
}

/* The binary64 form of the piece loop of defect_data on a step with one
 * certified pattern k_aff (or m = 0) and derivative enclosures, the
 * step's (dstep: w->Cs, w->cs0) or one per piece: the defect's binary64
 * copy (DVC_LNQ_DEFECT) on success; otherwise the MPFI loop runs. */
static dvc_status defect_fast(lws *w, dvc_dlvi_result_t r, long i, long k_aff, int fone, int dstep)
{
    long n = w->n, m = w->m, K = w->K;
    dvc_lnf_defect_io io;
    dvc_status st;
    if (m > 0) {
        dvc_dlvi_fspm *G = &w->fG[k_aff];
        if (G->start == NULL) dvc_dlvi_fspm_build_(G, w->J.G[k_aff]);
        if (!G->ok) return DVC_OK;
    }
    memset(&io, 0, sizeof io);
    /* f, g at the pieces' midpoints tau_k where they are not taken from
     * f(t_m) and the derivative, or constant (MPFI, as in the loop) */
    int gvar = m > 0 && w->g.eval != NULL && w->g.eval != dvc_ln_cst_eval_;
    if ((!fone && w->f.eval != NULL) || gvar || !dstep) {
        int wantf = !fone && w->f.eval != NULL;
        for (long k = 0; k < K; k++) {
            piece_mid(w, k, K);
            dvc_ln_set_(w, DVC_LNQ_FMID, DVC_LN_NONE);
            if (!dstep) {
                /* the piece's derivative enclosure (and f(tau_k) with it
                 * into w->fm, unused on such steps otherwise) */
                piece_span(w, k, K);
                if (!piece_deriv(w, k_aff, w->tpk, wantf ? w->tk : NULL)) return DVC_OK;
                dvc_ln_to_d_(w->Cl + k * n, w->Ch + k * n, w->C);
                for (long c = 0; c < n; c++) w->c0d[k * n + c] = mpfr_get_d(&w->c0->e[c]->left, MPFR_RNDN);
            }
            if (wantf && dvc_ln_has_(w, DVC_LNQ_FMID, DVC_LN_MPFI)) {
                dvc_ln_to_d_(w->fkl + k * n, w->fkh + k * n, w->fm);
            } else if (wantf) {
                if ((st = dvc_dlvi_tf_eval_(&w->f, w->fk, w->tk, "f")) != DVC_OK) return st;
                dvc_ln_to_d_(w->fkl + k * n, w->fkh + k * n, w->fk);
            }
            if (gvar) {
                if ((st = dvc_dlvi_tf_eval_(&w->g, w->gk, w->tk, "g")) != DVC_OK) return st;
                dvc_ln_to_d_(w->gkl + k * m, w->gkh + k * m, w->gk);
            }
        }
    }
    if (m > 0 && w->g.eval == NULL) {
        memset(w->gkl, 0, (size_t)(K * m) * sizeof(double));
        memset(w->gkh, 0, (size_t)(K * m) * sizeof(double));
    } else if (m > 0 && !gvar) {
        for (long k = 0; k < K; k++) {
            memcpy(w->gkl + k * m, w->gcl, (size_t)m * sizeof(double));
            memcpy(w->gkh + k * m, w->gch, (size_t)m * sizeof(double));
        }
    }
    io.fone = fone || w->f.eval == NULL;
    if (w->f.eval == NULL) {
        memset(w->fml, 0, (size_t)n * sizeof(double));
        memset(w->fmh, 0, (size_t)n * sizeof(double));
        memset(w->Fsl, 0, (size_t)n * sizeof(double));
        memset(w->Fsh, 0, (size_t)n * sizeof(double));
    } else if (fone) {
        dvc_ln_to_d_(w->fml, w->fmh, w->fm);
        if (!dvc_ln_has_(w, DVC_LNQ_FSTEP, DVC_LN_BINARY64)) dvc_ln_to_d_(w->Fsl, w->Fsh, w->Fs);
    }
    if (m > 0) {
        dvc_ln_to_d_(w->yml, w->ymh, w->ym);
        if (dvc_ln_has_(w, DVC_LNQ_GCONST, DVC_LN_BINARY64)) {
            memcpy(w->gml, w->gcl, (size_t)m * sizeof(double));
            memcpy(w->gmh, w->gch, (size_t)m * sizeof(double));
        } else {
            dvc_ln_to_d_(w->gml, w->gmh, w->gm);
        }
    }
    if (dstep) {
        if (!dvc_ln_has_(w, DVC_LNQ_CSTEP, DVC_LN_BINARY64)) dvc_ln_to_d_(w->Cl, w->Ch, w->Cs);
        for (long c = 0; c < n; c++) w->c0d[c] = mpfr_get_d(&w->cs0->e[c]->left, MPFR_RNDN);
    }
    io.cstride = dstep ? 0 : n;
    io.n = n;
    io.m = m;
    io.K = K;
    io.A = &w->fA;
    io.B = &w->fB;
    io.Q = &w->fQ;
    io.G = m > 0 ? &w->fG[k_aff] : NULL;
    io.xi = r->x + DVC_RROW(r, i) * n;
    io.xn = r->x + DVC_RROW(r, i + 1) * n;
    dvc_ln_h_d_(w, &io.hlo, &io.hhi);
    io.ymlo = w->yml;
    io.ymhi = w->ymh;
    io.gmlo = w->gml;
    io.gmhi = w->gmh;
    io.gklo = w->gkl;
    io.gkhi = w->gkh;
    io.fmlo = w->fml;
    io.fmhi = w->fmh;
    io.Fslo = w->Fsl;
    io.Fshi = w->Fsh;
    io.fklo = w->fkl;
    io.fkhi = w->fkh;
    io.dk = 1;
    io.Clo = w->Cl;
    io.Chi = w->Ch;
    io.c0 = w->c0d;
    io.alo = w->avl;
    io.ahi = w->avh;
    io.rlo = w->rpl;
    io.rhi = w->rph;
    io.w = w->scr;
    if (dvc_lnf_defect_(&io) != 0) return DVC_OK;
    w->info->n_deriv += K;
    w->info->n_fast++;
    dvc_ln_set_(w, DVC_LNQ_DEFECT, DVC_LN_BINARY64);
    return DVC_OK;
}

/* h's and T's upper ends as doubles for the heuristics of defect_data */
static void heur_h_T(lws *w, double *hh, double *Td)
{
    double hl;
    if (w->fast) {
        dvc_ln_h_d_(w, &hl, hh);
        *Td = w->Td;
    } else {
        *hh = mpfr_get_d(&w->h->right, MPFR_RNDU);
        *Td = mpfr_get_d(&w->p->T->right, MPFR_RNDU);
    }
}

/* The largest width of v's entries (a heuristic's measure, in doubles);
 * on the binary64 path v's ends are kept in lo, hi for defect_fast. */
static double heur_ends(lws *w, const dvc_ivec_t v, double *lo, double *hi)
{
    double wmax = 0.0;
    for (long c = 0; c < w->n; c++) {
        double a = mpfr_get_d(&v->e[c]->left, MPFR_RNDD), b = mpfr_get_d(&v->e[c]->right, MPFR_RNDU);
        if (w->fast) {
            lo[c] = a;
            hi[c] = b;
        }
        wmax = fmax(wmax, b - a);
    }
    return wmax;
}

/* dx = x^{i+1} - x^i, x_mid and X = hull(x^i, x^{i+1}) of step i: in
 * binary64 under FE_UPWARD (MPFI's roundings) on the binary64 path (MPFI
 * copies only when an MPFI part needs them), else in MPFI. */
static void step_x(lws *w, const double *xi, const double *xn)
{
    long n = w->n;
    if (w->fast) {
        int saved = dvc_rnd_save();
        dvc_rnd_set(FE_UPWARD);
        for (long k = 0; k < n; k++) {
            w->dxh[k] = xn[k] - xi[k];
            w->dxl[k] = -(xi[k] - xn[k]);
            w->xmh[k] = xi[k] + w->dxh[k] * 0.5;
            w->xml[k] = -((-xi[k]) + (-w->dxl[k]) * 0.5);
            w->Xl[k] = fmin(xi[k], xn[k]);
            w->Xh[k] = fmax(xi[k], xn[k]);
        }
        dvc_rnd_restore(saved);
        dvc_ln_set_(w, DVC_LNQ_X, DVC_LN_BINARY64);
    } else {
        for (long k = 0; k < n; k++) {
            mpfi_set_d(w->dx->e[k], xn[k]);
            mpfi_sub_d(w->dx->e[k], w->dx->e[k], xi[k]);
            mpfi_div_2ui(w->xm->e[k], w->dx->e[k], 1);
            mpfi_add_d(w->xm->e[k], w->xm->e[k], xi[k]);
            mpfi_interv_d(w->X->e[k], fmin(xi[k], xn[k]), fmax(xi[k], xn[k]));
        }
        dvc_ln_set_(w, DVC_LNQ_X, DVC_LN_MPFI);
    }
}

/* m > 0: ym = [S(q_mid)] at the step's midpoint, and over the box of
 * Q p(t) + g(t) the single certified pattern (*k_aff) or, without one, the
 * box Y of y. */
static dvc_status step_y(lws *w, dvc_dlvi_result_t r, long i, long *k_aff)
{
    long m = w->m;
    dvc_status st;
    if ((st = dvc_dlvi_tf_eval_(&w->g, w->gm, w->tm, "g")) != DVC_OK) return st;
    if (!w->fast || !dvc_ln_q_fast_(w, w->qm, w->xml, w->xmh, w->gm)) {
        dvc_ln_x_mpfi_(w);
        dvc_ln_q_of_(w, w->qm, w->xm, w->gm);
    }
    st = dvc_lvi_solve(w->lm, w->solver, w->qm, r->y + DVC_RROW(r, i + 1) * m);
    if (st != DVC_OK) return dvc_error_context(st, "LVI at the step's midpoint: ");
    dvc_ivec_set(w->ym, w->lm->y);
    if ((st = dvc_dlvi_tf_eval_(&w->g, w->Gk, w->tstep, "g")) != DVC_OK) return st;
    if (!w->fast || !dvc_ln_q_fast_(w, w->qbox, w->Xl, w->Xh, w->Gk)) {
        dvc_ln_x_mpfi_(w);
        dvc_ln_q_of_(w, w->qbox, w->X, w->Gk);
    }
    st = dvc_lvi_solve(w->lb, w->solver, w->qbox, r->y + DVC_RROW(r, i + 1) * m);
    *k_aff = dvc_ln_pat_slot_(w, dvc_ln_box_pattern_(w->lb, st, m));
    if (*k_aff < 0) {
        if (st == DVC_OK) {
            dvc_ivec_set(w->Y, w->lb->y);
        } else {
            /* Lemma 2.1 about the midpoint: S(q) in [ym] +- beta ||q - q_mid|| */
            dvc_error_reset();
            dvc_ivec_sub(w->Y, w->qbox, w->qm);
            dvc_ln_ninf_(w, w->r1, w->Y);
            mpfr_mul(w->r1, w->r1, w->beta, MPFR_RNDU);
            dvc_ivec_inflate(w->Y, w->ym, w->r1);
        }
    }
    return DVC_OK;
}

/* One derivative enclosure over the whole step serves every piece when
 * it is narrow (smooth f, g; a table between two samples): the
 * remainder (s - tau)(C - c0) is then second order already. A wide one
 * (a table sample inside the step) is redone per piece. *dstep: the
 * step's enclosure is used (kept in Cs, cs0); *fone: f once per step. */
static dvc_status step_deriv(lws *w, long i, long k_aff, int *dstep, int *fone)
{
    dvc_status st;
    *dstep = *fone = 0;
    if (w->f.claims) {
        /* a stated Lipschitz constant is confirmed on every step, as the
         * chen-wang route does, although this route bounds f through its
         * derivative and never uses the constant (docs/expressions.md) */
        mpfr_t L;
        mpfr_init2(L, mpfr_get_prec(w->r1));
        st = w->f.lipschitz(L, w->tstep, w->f.ctx);
        mpfr_clear(L);
        if (st != DVC_OK) return dvc_error_context(st, "field 'f': ");
    }
    dvc_ln_set_(w, DVC_LNQ_FMID, DVC_LN_NONE);
    dvc_ln_set_(w, DVC_LNQ_CSTEP, DVC_LN_NONE);
    dvc_ln_set_(w, DVC_LNQ_FSTEP, DVC_LN_NONE);
    *dstep = w->deriv && piece_deriv(w, k_aff, w->tstep, w->tm);
    *fone = 0;
    if (*dstep) {
        /* a heuristic (either choice is sound): the step's enclosure when
         * its remainder, (h/2K) rad C per unit time, would add less than 1%
         * of the current radius over the whole horizon (on the binary64
         * path C's ends are kept in Cl, Ch for defect_fast) */
        double hh, Td, rc;
        heur_h_T(w, &hh, &Td);
        rc = 0.5 * heur_ends(w, w->C, w->Cl, w->Ch);
        /* C is kept as the step's (Cs), its ends in Cl, Ch */
        if (w->fast && w->reuse) dvc_ln_set_(w, DVC_LNQ_CSTEP, DVC_LN_BOTH);
        if (!(Td * hh / (2.0 * (double)w->K) * rc <= 0.01 * w->info->rad[LN_GRID(w, i)])) {
            *dstep = 0;
            dvc_ln_set_(w, DVC_LNQ_CSTEP, DVC_LN_NONE);
        }
    }
    /* f once per step: f(tau) in f(t_m) + (tau - t_m) [f'(step)], when
     * that box, (h/2) wid f' per unit time, would also add less than 1% of
     * the current radius over the horizon (fewer evaluations of f) */
    if (*dstep) {
        /* the step's C, c0 kept in Cs, cs0 (C, c0 are rewritten per piece
         * before they are read again) */
        dvc_ln_swap_(w->Cs, w->C);
        dvc_ln_swap_(w->cs0, w->c0);
        if (w->f.eval != NULL) {
            /* (on the binary64 path Fd's ends are kept in Fsl, Fsh: Fd
             * becomes Fs when fone) */
            double hh, Td, rc;
            heur_h_T(w, &hh, &Td);
            rc = heur_ends(w, w->Fd, w->Fsl, w->Fsh);
            *fone = Td * 0.5 * hh * rc <= 0.01 * w->info->rad[LN_GRID(w, i)];
            if (*fone && w->fast && w->reuse) dvc_ln_set_(w, DVC_LNQ_FSTEP, DVC_LN_BOTH);
        }
        if (*fone) {
            dvc_ln_swap_(w->Fs, w->Fd);
            if (!dvc_ln_has_(w, DVC_LNQ_FMID, DVC_LN_MPFI) &&
                (st = dvc_dlvi_tf_eval_(&w->f, w->fm, w->tm, "f")) != DVC_OK)
                return st;
        }
    }
    return DVC_OK;
}

/* The box rp[k] of piece k (f(tau) in w->fk, g(tau) in w->gk, kp its
 * pattern). r(s) = -(f(s) - f(tau)) - B G (g(s) - g(tau)). With
 * derivatives: f(s) - f(tau) in (s - tau) [f'(piece)] (mean value,
 * componentwise), so r(s) = (s - tau) c(s), c(s) in C; its affine part
 * (s - tau) c0 goes to the ends, the rest (s - tau)(C - c0) is a box of
 * second order. Without: the box of the values over the piece. *dk: the
 * derivative form (c0 in w->c0). */
static dvc_status piece_rem(lws *w, long k, long k_aff, long kp, int dstep, int *dk)
{
    long n = w->n, m = w->m, K = w->K;
    dvc_status st;
    *dk = 0;
    if (dstep && (kp == k_aff || w->g.eval == NULL)) {
        dvc_ivec_set(w->C, w->Cs);
        dvc_ivec_set(w->c0, w->cs0);
        *dk = 1;
    } else if (w->deriv) {
        *dk = piece_deriv(w, kp, w->tpk, NULL);
    }
    if (*dk) {
        mpfi_div_si(w->s, w->h, 2 * K);
        mpfr_neg(&w->s->left, &w->s->right, MPFR_RNDD);
        for (long c = 0; c < n; c++) {
            mpfi_sub(w->u, w->C->e[c], w->c0->e[c]);
            mpfi_mul(w->rp[k]->e[c], w->u, w->s);
        }
        w->info->n_deriv++;
    } else {
        if ((st = dvc_dlvi_tf_eval_(&w->f, w->Fk, w->tpk, "f")) != DVC_OK) return st;
        dvc_ivec_sub(w->rp[k], w->fk, w->Fk);
        if (m > 0 && kp >= 0) {
            if ((st = dvc_dlvi_tf_eval_(&w->g, w->Gk, w->tpk, "g")) != DVC_OK) return st;
            dvc_ivec_sub(w->Gk, w->Gk, w->gk);
            dvc_ln_mv_(w, w->tm_, w->J.G[kp], w->Gk);
            dvc_ln_mv_(w, w->a, w->p->B, w->tm_);
            dvc_ivec_sub(w->rp[k], w->rp[k], w->a);
        }
    }
    return DVC_OK;
}

/* The ends av[2k], av[2k+1] of piece k: a = dx/h - A p - B y - f(tau)
 * at p(s) = x_mid + sigma dx, sigma = s - 1/2 at the piece's ends, plus
 * (s - tau) c0 in the derivative form dk. */
static void piece_ends(lws *w, long k, long k_aff, long kp, int dk)
{
    long n = w->n, m = w->m, K = w->K;
    const dvc_dlvi_problem_struct *p = w->p;
    for (long e = 0; e <= 1; e++) {
        dvc_ivec_struct *a = w->av[2 * k + e];
        mpfi_set_si(w->v, 2 * (k + e) - K);
        mpfi_div_si(w->v, w->v, 2 * K);
        dvc_ivec_scale(w->pv, w->v, w->dx);
        dvc_ivec_add(w->pv, w->pv, w->xm);
        dvc_ln_mv_(w, a, p->A, w->pv);
        dvc_ivec_add(a, a, w->fk);
        if (m > 0) {
            if (k_aff >= 0) {
                /* S affine on the box: y = ym + G (Q sigma dx + g(tau) - g_mid) */
                dvc_ivec_scale(w->tn_, w->v, w->dx);
                dvc_ln_mv_(w, w->tm_, p->Q, w->tn_);
                dvc_ivec_add(w->tm_, w->tm_, w->gk);
                dvc_ivec_sub(w->Y, w->tm_, w->gm);
                dvc_ln_mv_(w, w->tm_, w->J.G[k_aff], w->Y);
                dvc_ivec_add(w->Y, w->tm_, w->ym);
            } else if (kp >= 0) {
                /* affine on the piece's box: y = yma + G (Q (sigma - sigma_a) dx) */
                mpfi_sub(w->s, w->v, w->tpk_sa);
                dvc_ivec_scale(w->tn_, w->s, w->dx);
                dvc_ln_mv_(w, w->tm_, p->Q, w->tn_);
                dvc_ln_mv_(w, w->Y, w->J.G[kp], w->tm_);
                dvc_ivec_add(w->Y, w->Y, w->yma);
            } else {
                dvc_ivec_set(w->Y, w->Ycr);
            }
            dvc_ln_mv_(w, w->tn_, p->B, w->Y);
            dvc_ivec_add(a, a, w->tn_);
        }
        for (long c = 0; c < n; c++) {
            mpfi_div(w->s, w->dx->e[c], w->h);
            mpfi_sub(a->e[c], w->s, a->e[c]);
        }
        if (dk) {
            /* + (s - tau) c0 at the end: s - tau = -+ h/(2K) */
            mpfi_div_si(w->s, w->h, e ? 2 * K : -2 * K);
            dvc_ivec_addmul(a, w->s, w->c0);
        }
    }
}

/* The defect d(s) = p'(s) - F(s, p(s)) of step i as interval data
 * (docs/lognorm.md section 4): on piece k, d(s) lies in the segment
 * between av[2k] and av[2k+1] plus the box rp[k]. *pat: the free set of
 * the single pattern certified over the box of Q p(t) + g(t), or -1. */
dvc_status dvc_ln_defect_data_(lws *w, dvc_dlvi_result_t r, long i, long *pat)
{
    long n = w->n, m = w->m, K = w->K, k_aff = -1;
    int dstep, fone;
    dvc_status st;
    step_x(w, r->x + DVC_RROW(r, i) * n, r->x + DVC_RROW(r, i + 1) * n);
    mpfi_add(w->tm, w->ti, w->tn);
    mpfi_div_2ui(w->tm, w->tm, 1);
    if (m > 0 && (st = step_y(w, r, i, &k_aff)) != DVC_OK) return st;
    /* m = 0: F(t, .) is affine, one piece */
    *pat = m > 0 ? k_aff : 0;
    if ((st = step_deriv(w, i, k_aff, &dstep, &fone)) != DVC_OK) return st;
    if (m > 0 && k_aff < 0) dvc_ivec_set(w->Ycr, w->Y);
    dvc_ln_set_(w, DVC_LNQ_DEFECT, DVC_LN_MPFI);
    if (w->fast && (dstep || w->deriv) && (m == 0 || k_aff >= 0)) {
        if ((st = defect_fast(w, r, i, k_aff, fone, dstep)) != DVC_OK) return st;
        if (dvc_ln_has_(w, DVC_LNQ_DEFECT, DVC_LN_BINARY64)) return DVC_OK;
    }
    dvc_ln_x_mpfi_(w);
    for (long k = 0; k < K; k++) {
        /* piece [t_i + k h/K, t_i + (k+1) h/K]; f, g frozen at its midpoint tau */
        long kp = k_aff;
        int dk;
        piece_mid(w, k, K);
        piece_span(w, k, K);
        if (fone) {
            mpfi_sub(w->s, w->tk, w->tm);
            dvc_ivec_set(w->fk, w->fm);
            dvc_ivec_addmul(w->fk, w->s, w->Fs);
        } else if ((st = dvc_dlvi_tf_eval_(&w->f, w->fk, w->tk, "f")) != DVC_OK) {
            return st;
        }
        if (m > 0 && (st = dvc_dlvi_tf_eval_(&w->g, w->gk, w->tk, "g")) != DVC_OK) return st;
        /* on a pattern-change step, a piece may still have one certified
         * pattern kp over its own box: S is affine there about the anchor
         * (yma, ga) at the piece's midpoint sigma_a */
        mpfi_set_ui(w->tpk_sa, 0);
        if (m > 0 && k_aff < 0 && (st = piece_pattern(w, k, &kp)) != DVC_OK) return st;
        if (kp >= 0 && k_aff < 0) w->info->n_piece_aff++;
        if ((st = piece_rem(w, k, k_aff, kp, dstep, &dk)) != DVC_OK) return st;
        piece_ends(w, k, k_aff, kp, dk);
    }
    return DVC_OK;
}

/* In the norm nr, with a0, a1 the norms of the piece's ends and rk of its
 * box: ||d(s)|| <= (1 - sigma) a0 + sigma a1 + rk on piece k (convexity of
 * the norm along the segment), so Dp[k] = max(a0, a1) + rk bounds its sup
 * and Di[k] = (a0 + a1)/2 + rk its mean; Dd = max_k Dp[k]. */
int dvc_ln_defect_norm_(lws *w, const dvc_lognorm_info_struct *nr)
{
    if (dvc_ln_has_(w, DVC_LNQ_DEFECT, DVC_LN_BINARY64)) {
        double dd;
        if (dvc_lnf_defect_norm_(nr, w->K, w->avl, w->avh, w->rpl, w->rph, w->Dpd, w->Did, &dd) == 0) {
            /* Di stays in doubles for propagate (Dp only gives Dd) */
            dvc_ln_set_(w, DVC_LNQ_DI, DVC_LN_BINARY64);
            mpfr_set_d(w->Dd, dd, MPFR_RNDU);
            return 1;
        }
        dvc_ln_defect_mpfi_(w);
    }
    dvc_ln_set_(w, DVC_LNQ_DI, DVC_LN_MPFI);
    mpfr_set_zero(w->Dd, 1);
    for (long k = 0; k < w->K; k++) {
        dvc_lognorm_vnorm_(w->Dp[k], nr, w->av[2 * k], &w->sc);
        dvc_lognorm_vnorm_(w->r1, nr, w->av[2 * k + 1], &w->sc);
        mpfr_add(w->Di[k], w->Dp[k], w->r1, MPFR_RNDU);
        mpfr_div_2ui(w->Di[k], w->Di[k], 1, MPFR_RNDU);
        mpfr_max(w->Dp[k], w->Dp[k], w->r1, MPFR_RNDU);
        dvc_lognorm_vnorm_(w->r1, nr, w->rp[k], &w->sc);
        mpfr_add(w->Dp[k], w->Dp[k], w->r1, MPFR_RNDU);
        mpfr_add(w->Di[k], w->Di[k], w->r1, MPFR_RNDU);
        mpfr_max(w->Dd, w->Dd, w->Dp[k], MPFR_RNDU);
    }
    return mpfr_number_p(w->Dd);
}
