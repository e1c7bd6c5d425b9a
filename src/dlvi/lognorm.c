/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route, part 2: per step, a bound of the defect of the linear
 * interpolant over the whole step, the integrated one-sided-Lipschitz
 * inequality, and the x and y tubes (docs/lognorm.md, sections 3-6). */
#include "dlvi/lognorm_internal.h"
#include "dlvi/lognorm_expm.h"
#include "dvicert/tube.h"
#include "rounding.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const dvc_dlvi_problem_struct *p;
    const dvc_lognorm_opts *o;
    dvc_lognorm_info_struct *info;
    long n, m, N, K, npat;
    mpfr_prec_t prec;
    dvc_tfun_cb f, g;
    dvc_lvi_solver_t solver;
    int solver_ok;
    dvc_lvi_result_t lg, lm, lb;
    dvc_lognorm_jac J;
    int jac_ok;
    mpfr_t beta;
    /* the step's LVI constant: ||G_F||_inf on a single-pattern a priori box,
     * else beta; yloc/yset: that pattern and whether the error-set box
     * (in pv) holds e(t_{i+1}) */
    mpfr_t bstep, yerr;
    long yloc;
    int yset;
    mpfi_t h, ti, tn, tstep, tm, tk, tpk, s, u, v, tpk_sa;
    /* scratch of mv, ninf and imag (dvc_imat_mul_vec, dvc_ivec_norm_inf and
     * dvc_ival_mag allocate theirs on every call) */
    mpfi_t mvt, mvs;
    mpfr_t mga;
    dvc_ivec_t dx, xm, pv, qm, qbox, ym, Y, fk, Fk, gm, gk, Gk, a, tn_, tm_, X;
    /* derivative enclosures: C = -(f' + B G g') over a piece, c0 its
     * midpoint (the affine part of the f, g variation) */
    int deriv;
    dvc_ivec_t C, c0, gd, Cs, cs0, Fd, Fs, fm;
    int fmv; /* fm holds f(t_m) of this step (piece_deriv) */
    /* pattern-change steps, per piece: the piece's box solve, the anchor
     * solve at its midpoint, the step's crude y box */
    dvc_lvi_result_t lp, la;
    dvc_ivec_t Ycr, yma, ga, Xk;
    /* step_consts cache: (mu, h) -> e^{mu h}, (e^{mu h} - 1)/mu, and the same at h/K */
#define LN_SC 4
    int sc_ok[LN_SC], sc_next;
    mpfr_t sc_mu[LN_SC], sc_v[LN_SC][4];
    double sc_d[LN_SC][4];
    mpfi_t sc_h[LN_SC];
    mpfr_t Ei, En, Es, Dd, Dk, r1, r2, Lg, Esup, cE, cP, eK, cPK;
    dvc_lognorm_scratch sc;
    /* f or g proven constant on [0, T]: its value, served by cst_* */
    dvc_ivec_t fc, gc;
    /* defect of step i: d(s) in piece k lies in conv(av[2k], av[2k+1]) + rp[k] */
    dvc_ivec_t *av, *rp;
    mpfr_t *Dp;       /* K: sup over piece k of ||d|| in the current norm */
    mpfr_t *Di;       /* K: mean over piece k of the bound of ||d|| (convex in s) */
    int dnd;          /* Di is in the doubles w->Did (binary64 defect norms), not in Di */
    /* norms: 0 the global one (info), 1..nmodes fitted to one pattern */
#define LN_MODES_MAX 16
    dvc_lognorm_info_struct *nrm[LN_MODES_MAX + 1];
    dvc_lognorm_info_t modes[LN_MODES_MAX];
    long mode_pat[LN_MODES_MAX];
    long nmodes, cur;
    int mode_failed; /* a mode norm could not be certified: stop trying */
    dvc_status mode_st; /* why mode_norm returned -2 (a stated norm not proven, memory) */
    /* error set e in c + B r (docs/lognorm.md section 5d): c, B doubles,
     * r an interval vector; per-pattern cache of exp(J h) enclosures */
    int lohner;
    double *Lc, *LB, *Lm;
    dvc_ivec_t Lr, Lv, Ly, Lt;
    dvc_imat_t LM, LBi, LBp, LT1, LT2, Jhull;
#define LN_CACHE 16
    struct {
        long pat;
        dvc_imat_t Phi;    /* exp(J h) */
        dvc_imat_t *Phik;  /* K: exp(J u), u over [h - (k+1) h/K, h - k h/K] */
        dvc_imat_t *Phim;  /* K: exp(J u), u = h - (k + 1/2) h/K (the piece's midpoint) */
        mpfr_t rho;        /* ||J|| e^{||J|| h} (h/K)^2 / 12 */
        mpfr_t rho2;       /* e^{||J|| (h + d)} ||J||^2 d^3 / 3, d = h/(2K) */
        double *Pd;        /* binary64 copies (fast path): Phi, Phim, Phik, each lo then hi */
        double rho_d, rho2_d;
        double hk[2];      /* the step length it was made for (w->hk) */
    } lc[LN_CACHE];
    /* on a time grid: this step's length t_{i+1} - t_i exactly, as
     * s + e (TwoSum); {0, 0} otherwise */
    double hk[2];
    long nlc, lc_next;
    /* binary64 path at 53 bits (lognorm_fast.c): fdef when this step's
     * defect data are in the double arrays, fmp when av/rp hold them */
    int fast, fdef, fmp;
    int lfast; /* the last error-set step ran in binary64: its box in ol, oh (not in pv) */
    int lrd;   /* r of the error set is in Lrl, Lrh (not in Lr) */
    dvc_dlvi_fspm fA, fB, fQ, *fG;
    double *fbuf, *avl, *avh, *rpl, *rph, *fkl, *fkh, *gkl, *gkh, *yml, *ymh, *gml, *gmh, *fml, *fmh, *Fsl, *Fsh,
        *Cl, *Ch, *c0d, *Dpd, *Did, *scr, *Lrl, *Lrh, *ol, *oh, *lscr;
    /* the step's dx, x_mid and hull(x^i, x^{i+1}) (later the a priori box)
     * as doubles, a q in doubles; xmp: dx, xm, X hold them in MPFI too */
    double *dxl, *dxh, *xml, *xmh, *Xl, *Xh, *ql, *qh, *gql, *gqh;
    int xmp;
    /* conversions kept from step to step (binary64 path): a constant g
     * (gcd) in gcl, gch; T's upper end; h's ends, for the h in hconv. reuse:
     * these, the kept ||G_F|| and the binary64 copies of MPFI operations
     * (exp(J u), the pieces' times) are used (DVC_LOGNORM_NOREUSE unset:
     * tests compare both, bit for bit) */
    int gcd, hd_ok, reuse;
    double *gcl, *gch, Td, hd_lo, hd_hi;
    mpfi_t hconv;
    /* this step's C (cd) and Fd (fdd) already in Cl, Ch and Fsl, Fsh */
    int cd, fdd;
    /* ||G_k||_inf of slot k (a slot's G never changes), when gn_ok[k] */
    mpfr_t *gn;
    char *gn_ok;
} lws;

static void lws_clear(lws *w)
{
    if (w->prec == 0) return;
    if (w->solver_ok) dvc_lvi_solver_clear(w->solver);
    dvc_lvi_result_clear(w->lg);
    dvc_lvi_result_clear(w->lm);
    dvc_lvi_result_clear(w->lb);
    dvc_lvi_result_clear(w->lp);
    dvc_lvi_result_clear(w->la);
    if (w->jac_ok) dvc_lognorm_jac_clear_(&w->J);
    mpfr_clears(w->beta, w->bstep, w->yerr, (mpfr_ptr)0);
    for (int c = 0; c < LN_SC; c++) {
        mpfr_clears(w->sc_mu[c], w->sc_v[c][0], w->sc_v[c][1], w->sc_v[c][2], w->sc_v[c][3], (mpfr_ptr)0);
        mpfi_clear(w->sc_h[c]);
    }
    dvc_dlvi_iclears_(w->h, w->ti, w->tn, w->tstep, w->tm, w->tk, w->tpk, w->s, w->u, w->v, w->tpk_sa, w->mvt,
                      w->mvs, w->hconv, (mpfi_ptr)0);
    mpfr_clear(w->mga);
    dvc_ivec_struct *vs[] = {w->dx, w->xm, w->pv, w->qm, w->qbox, w->ym, w->Y, w->fk, w->Fk,
                             w->gm, w->gk, w->Gk, w->a, w->tn_, w->tm_, w->X, w->C, w->c0, w->gd,
                             w->Cs, w->cs0, w->Ycr, w->yma, w->ga, w->Xk, w->Fd, w->Fs, w->fm};
    for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) dvc_ivec_clear(vs[k]);
    mpfr_clears(w->Ei, w->En, w->Es, w->Dd, w->Dk, w->r1, w->r2, w->Lg, w->Esup, w->cE, w->cP, w->eK, w->cPK,
                (mpfr_ptr)0);
    dvc_lognorm_scratch_clear_(&w->sc);
    dvc_ivec_clear(w->fc);
    dvc_ivec_clear(w->gc);
    for (long k = 0; k < w->K; k++) {
        dvc_ivec_clear(w->av[2 * k]);
        dvc_ivec_clear(w->av[2 * k + 1]);
        dvc_ivec_clear(w->rp[k]);
        mpfr_clear(w->Dp[k]);
        mpfr_clear(w->Di[k]);
    }
    free(w->Di);
    free(w->av);
    free(w->rp);
    free(w->Dp);
    for (long j = 0; j < w->nmodes; j++) dvc_lognorm_info_clear(w->modes[j]);
    if (w->gn != NULL)
        for (long k = 0; k < w->npat; k++)
            if (w->gn_ok[k]) mpfr_clear(w->gn[k]);
    free(w->gn);
    free(w->gn_ok);
    if (w->fast) {
        dvc_dlvi_fspm_clear_(&w->fA);
        dvc_dlvi_fspm_clear_(&w->fB);
        dvc_dlvi_fspm_clear_(&w->fQ);
        for (long k = 0; k < w->npat; k++)
            if (w->fG[k].start) dvc_dlvi_fspm_clear_(&w->fG[k]);
        free(w->fG);
        free(w->fbuf);
    }
    if (w->lohner) {
        free(w->Lc);
        dvc_ivec_clear(w->Lr);
        dvc_ivec_clear(w->Lv);
        dvc_ivec_clear(w->Ly);
        dvc_ivec_clear(w->Lt);
        dvc_imat_clear(w->LM);
        dvc_imat_clear(w->LBi);
        dvc_imat_clear(w->LBp);
        dvc_imat_clear(w->LT1);
        dvc_imat_clear(w->LT2);
        dvc_imat_clear(w->Jhull);
        for (long c = 0; c < w->nlc; c++) {
            dvc_imat_clear(w->lc[c].Phi);
            for (long k = 0; k < w->K; k++) {
                dvc_imat_clear(w->lc[c].Phik[k]);
                dvc_imat_clear(w->lc[c].Phim[k]);
            }
            free(w->lc[c].Phik);
            free(w->lc[c].Phim);
            free(w->lc[c].Pd);
            mpfr_clear(w->lc[c].rho);
            mpfr_clear(w->lc[c].rho2);
        }
    }
}

static void lws_init(lws *w, long n, long m, mpfr_prec_t prec)
{
    long mm = m > 0 ? m : 1;
    w->prec = prec;
    dvc_lvi_result_init(w->lg, mm);
    dvc_lvi_result_init(w->lm, mm);
    dvc_lvi_result_init(w->lb, mm);
    dvc_lvi_result_init(w->lp, mm);
    dvc_lvi_result_init(w->la, mm);
    mpfr_inits2(prec, w->beta, w->bstep, w->yerr, (mpfr_ptr)0);
    for (int c = 0; c < LN_SC; c++) {
        mpfr_inits2(prec, w->sc_mu[c], w->sc_v[c][0], w->sc_v[c][1], w->sc_v[c][2], w->sc_v[c][3], (mpfr_ptr)0);
        mpfi_init2(w->sc_h[c], prec);
        w->sc_ok[c] = 0;
    }
    w->sc_next = 0;
    dvc_dlvi_iinits_(prec, w->h, w->ti, w->tn, w->tstep, w->tm, w->tk, w->tpk, w->s, w->u, w->v, w->tpk_sa,
                     w->mvt, w->mvs, w->hconv, (mpfi_ptr)0);
    w->hd_ok = 0;
    mpfr_init2(w->mga, prec);
    dvc_ivec_struct *vn[] = {w->dx, w->xm, w->pv, w->fk, w->Fk, w->a, w->tn_, w->X, w->C, w->c0, w->Cs, w->cs0, w->Xk,
                             w->Fd, w->Fs, w->fm};
    dvc_ivec_struct *vm[] = {w->qm, w->qbox, w->ym, w->Y, w->gm, w->gk, w->Gk, w->tm_, w->gd, w->Ycr, w->yma, w->ga};
    for (size_t k = 0; k < sizeof vn / sizeof vn[0]; k++) dvc_ivec_init2(vn[k], n, prec);
    for (size_t k = 0; k < sizeof vm / sizeof vm[0]; k++) dvc_ivec_init2(vm[k], mm, prec);
    mpfr_inits2(prec, w->Ei, w->En, w->Es, w->Dd, w->Dk, w->r1, w->r2, w->Lg, w->Esup, w->cE, w->cP, w->eK,
                w->cPK, (mpfr_ptr)0);
    dvc_lognorm_scratch_init_(&w->sc, prec);
    dvc_ivec_init2(w->fc, n, prec);
    dvc_ivec_init2(w->gc, mm, prec);
}

static dvc_status lws_pieces(lws *w, long K)
{
    w->av = malloc((size_t)(2 * K) * sizeof(dvc_ivec_t));
    w->rp = malloc((size_t)K * sizeof(dvc_ivec_t));
    w->Dp = malloc((size_t)K * sizeof(mpfr_t));
    w->Di = malloc((size_t)K * sizeof(mpfr_t));
    if (!w->av || !w->rp || !w->Dp || !w->Di) return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    for (long k = 0; k < K; k++) {
        dvc_ivec_init2(w->av[2 * k], w->n, w->prec);
        dvc_ivec_init2(w->av[2 * k + 1], w->n, w->prec);
        dvc_ivec_init2(w->rp[k], w->n, w->prec);
        mpfr_init2(w->Dp[k], w->prec);
        mpfr_init2(w->Di[k], w->prec);
    }
    w->K = K;
    return DVC_OK;
}

/* a <-> b: the storage of two vectors of equal size and precision */
static void ivec_swap(dvc_ivec_t a, dvc_ivec_t b)
{
    dvc_ivec_struct t = *a;
    *a = *b;
    *b = t;
}

/* out <- M x: dvc_imat_mul_vec's operations in its order (the same
 * enclosure) on the workspace's scratch. out must not be x. */
static void mv(lws *w, dvc_ivec_t out, const dvc_imat_t M, const dvc_ivec_t x)
{
    for (long i = 0; i < M->r; i++) {
        mpfi_set_ui(w->mvs, 0);
        for (long k = 0; k < M->c; k++) {
            mpfi_mul(w->mvt, dvc_imat_entry(M, i, k), x->e[k]);
            mpfi_add(w->mvs, w->mvs, w->mvt);
        }
        mpfi_set(out->e[i], w->mvs);
    }
}

/* out <- ||v||_inf rounded up, NaN kept (dvc_ivec_norm_inf without its
 * allocations) */
static void ninf(lws *w, mpfr_t out, const dvc_ivec_t v)
{
    mpfr_set_zero(out, 1);
    for (long i = 0; i < v->n; i++) {
        if (mpfr_nan_p(&v->e[i]->left) || mpfr_nan_p(&v->e[i]->right)) {
            mpfr_set_nan(out);
            return;
        }
        mpfr_abs(w->mga, &v->e[i]->left, MPFR_RNDU);
        if (mpfr_cmp(w->mga, out) > 0) mpfr_set(out, w->mga, MPFR_RNDU);
        mpfr_abs(w->mga, &v->e[i]->right, MPFR_RNDU);
        if (mpfr_cmp(w->mga, out) > 0) mpfr_set(out, w->mga, MPFR_RNDU);
    }
}

/* out <- mag x rounded up, NaN when an end is NaN (dvc_ival_mag) */
static void imag(lws *w, mpfr_t out, const mpfi_t x)
{
    if (mpfr_nan_p(&x->left) || mpfr_nan_p(&x->right)) {
        mpfr_set_nan(out);
        return;
    }
    mpfr_abs(w->mga, &x->left, MPFR_RNDU);
    mpfr_abs(out, &x->right, MPFR_RNDU);
    mpfr_max(out, out, w->mga, MPFR_RNDU);
}

/* out <- Q x + g (x an interval vector, g m entries). */
static void q_of(lws *w, dvc_ivec_t out, const dvc_ivec_t x, const dvc_ivec_t g)
{
    mv(w, w->tm_, w->p->Q, x);
    dvc_ivec_add(out, w->tm_, g);
}

static void to_d(double *lo, double *hi, const dvc_ivec_t v);
static void from_d(dvc_ivec_t v, const double *lo, const double *hi);
static void h_d(lws *w, double *lo, double *hi);
static void pv_mpfi(lws *w);

/* The binary64 form of q_of at 53 bits: out <- Q [xl, xh] + g, the
 * MPFI operations in their order under FE_UPWARD (the zero entries of Q,
 * which add exact zeros there, skipped); 0 when not finite (then q_of). */
static int q_fast(lws *w, dvc_ivec_t out, const double *xl, const double *xh, const dvc_ivec_t g)
{
    long m = w->m;
    int ok = 1, saved;
    if (w->gcd) {
        memcpy(w->gql, w->gcl, (size_t)m * sizeof(double));
        memcpy(w->gqh, w->gch, (size_t)m * sizeof(double));
    } else {
        to_d(w->gql, w->gqh, g);
    }
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (long a = 0; a < m; a++) w->ql[a] = w->qh[a] = 0.0;
    dvc_dlvi_spm_addmul_u_(w->ql, w->qh, &w->fQ, xl, xh);
    for (long a = 0; a < m; a++) {
        w->qh[a] = w->qh[a] + w->gqh[a];
        w->ql[a] = -((-w->ql[a]) + (-w->gql[a]));
        ok = ok && isfinite(w->ql[a]) && isfinite(w->qh[a]);
    }
    dvc_rnd_restore(saved);
    if (ok) from_d(out, w->ql, w->qh);
    return ok;
}

/* dx, xm, X in MPFI from their doubles (the fast path keeps them there
 * until an MPFI part of the step needs them) */
static void x_mpfi(lws *w)
{
    if (w->xmp) return;
    from_d(w->dx, w->dxl, w->dxh);
    from_d(w->xm, w->xml, w->xmh);
    from_d(w->X, w->Xl, w->Xh);
    w->xmp = 1;
}

/* A single certified pattern over the last box solve: its index (bit a:
 * y_a free), or -1. */
static long box_pattern(const dvc_lvi_result_t lr, dvc_status st, long m)
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
static long pat_slot(lws *w, long bits)
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

/* For the log-norm constant mu: cE = e^{mu h}, cP = (e^{mu h} - 1)/mu,
 * eK = e^{mu h/K}, cPK = (e^{mu h/K} - 1)/mu (h, h/K for mu = 0), all
 * rounded up (MPFI at the interval h), in w->sc_v[c] (and as doubles in
 * w->sc_d[c] at 53 bits, where they are exact); returns c, or -1 when not
 * finite. */
static int step_consts(lws *w, const mpfr_t mu)
{
    /* mu takes few values (the norms' global and per-pattern constants), h
     * one on a uniform grid: a small cache keyed by (mu, h) */
    for (int c = 0; c < LN_SC; c++) {
        if (w->sc_ok[c] && mpfr_equal_p(mu, w->sc_mu[c]) && mpfr_equal_p(&w->h->left, &w->sc_h[c]->left) &&
            mpfr_equal_p(&w->h->right, &w->sc_h[c]->right))
            return c;
    }
    mpfi_set_fr(w->u, mu);
    for (int part = 0; part < 2; part++) {
        mpfi_set(w->tk, w->h);
        if (part) mpfi_div_si(w->tk, w->tk, w->K);
        mpfi_mul(w->s, w->u, w->tk);
        mpfi_exp(w->v, w->s);
        mpfr_set(part ? w->eK : w->cE, &w->v->right, MPFR_RNDU);
        if (mpfr_zero_p(mu)) {
            mpfr_set(part ? w->cPK : w->cP, &w->tk->right, MPFR_RNDU);
        } else {
            mpfi_expm1(w->v, w->s);
            mpfi_div(w->v, w->v, w->u);
            mpfr_set(part ? w->cPK : w->cP, &w->v->right, MPFR_RNDU);
        }
    }
    if (!(mpfr_number_p(w->cE) && mpfr_number_p(w->cP) && mpfr_number_p(w->eK) && mpfr_number_p(w->cPK)))
        return -1;
    {
        int c = w->sc_next;
        w->sc_next = (w->sc_next + 1) % LN_SC;
        mpfr_set(w->sc_mu[c], mu, MPFR_RNDN);
        mpfi_set(w->sc_h[c], w->h);
        mpfr_set(w->sc_v[c][0], w->cE, MPFR_RNDU);
        mpfr_set(w->sc_v[c][1], w->cP, MPFR_RNDU);
        mpfr_set(w->sc_v[c][2], w->eK, MPFR_RNDU);
        mpfr_set(w->sc_v[c][3], w->cPK, MPFR_RNDU);
        for (int j = 0; j < 4; j++) w->sc_d[c][j] = mpfr_get_d(w->sc_v[c][j], MPFR_RNDU);
        w->sc_ok[c] = 1;
        return c;
    }
}

/* Integrate D+||e|| <= mu ||e|| + ||d|| over the step from ||e(t_i)|| <= E0
 * (docs/lognorm.md section 3): En >= e^{mu h} E0 + int e^{mu (h - s)} ||d||
 * with, on piece k, the weight bounded by its largest value on the piece
 * and ||d|| by the mean Di[k] of its convex bound; Esup >= the same
 * with the step's sup w->Dd (the bound inside the step). Rounded up; 0
 * when not finite. At 53 bits the same operations in binary64 under
 * FE_UPWARD (the same roundings as MPFR's at 53 bits, without its
 * per-call overhead); MPFR when a value leaves the double range. */
static int propagate(lws *w, const mpfr_t mu, const mpfr_t E0, mpfr_t En, mpfr_t Esup)
{
    int c = step_consts(w, mu);
    if (c < 0) return 0;
    if (w->fast) {
        double cE = w->sc_d[c][0], cP = w->sc_d[c][1], eK = w->sc_d[c][2];
        double e0 = mpfr_get_d(E0, MPFR_RNDU), dd = mpfr_get_d(w->Dd, MPFR_RNDU);
        double hl, hr, Kd = (double)w->K, r1 = 0.0, r2, en, es;
        h_d(w, &hl, &hr);
        (void)hl;
        /* Di as doubles (exact at 53 bits, or +inf: then MPFR below) */
        if (!w->dnd)
            for (long k = 0; k < w->K; k++) w->Did[k] = mpfr_get_d(w->Di[k], MPFR_RNDU);
        int saved = dvc_rnd_save();
        dvc_rnd_set(FE_UPWARD);
        /* every operand materialised after the switch (GCC PR 34678,
         * src/rounding.h) */
        DVC_FP_PIN(cE);
        DVC_FP_PIN(cP);
        DVC_FP_PIN(eK);
        DVC_FP_PIN(e0);
        DVC_FP_PIN(dd);
        DVC_FP_PIN(hr);
        DVC_FP_PIN(Kd);
        DVC_FP_PIN(r1);
        /* (h/K) max(1, eK) sum_k eK^{K-1-k} Di_k by Horner */
        for (long k = 0; k < w->K; k++) {
            r1 = r1 * eK;
            r1 = r1 + w->Did[k];
        }
        if (mpfr_sgn(mu) > 0) r1 = r1 * eK;
        r1 = r1 * hr;
        r1 = r1 / Kd;
        r2 = cE * e0;
        en = r2 + r1;
        r1 = cP * dd;
        es = r2 + r1;
        DVC_FP_PIN(en);
        DVC_FP_PIN(es);
        dvc_rnd_restore(saved);
        if (isfinite(en) && isfinite(es) && isfinite(e0) && isfinite(dd)) {
            mpfr_set_d(En, en, MPFR_RNDU);
            mpfr_set_d(Esup, es, MPFR_RNDU);
            return 1;
        }
    }
    if (w->dnd) {
        for (long k = 0; k < w->K; k++) mpfr_set_d(w->Di[k], w->Did[k], MPFR_RNDU);
        w->dnd = 0;
    }
    /* (h/K) max(1, eK) sum_k eK^{K-1-k} Di_k by Horner */
    mpfr_set_zero(w->r1, 1);
    for (long k = 0; k < w->K; k++) {
        mpfr_mul(w->r1, w->r1, w->sc_v[c][2], MPFR_RNDU);
        mpfr_add(w->r1, w->r1, w->Di[k], MPFR_RNDU);
    }
    if (mpfr_sgn(mu) > 0) mpfr_mul(w->r1, w->r1, w->sc_v[c][2], MPFR_RNDU);
    mpfr_mul(w->r1, w->r1, &w->h->right, MPFR_RNDU);
    mpfr_div_si(w->r1, w->r1, w->K, MPFR_RNDU);
    mpfr_mul(w->r2, w->sc_v[c][0], E0, MPFR_RNDU);
    mpfr_add(En, w->r2, w->r1, MPFR_RNDU);
    mpfr_mul(w->r1, w->sc_v[c][1], w->Dd, MPFR_RNDU);
    mpfr_add(Esup, w->r2, w->r1, MPFR_RNDU);
    return mpfr_number_p(En) && mpfr_number_p(Esup);
}

static dvc_status not_cert(long i, const mpfi_t t, const char *what)
{
    return dvc_error(DVC_NOT_CERTIFIED, "lognorm: step %ld (t = %.17g): %s", i,
                     mpfr_get_d(&t->left, MPFR_RNDD), what);
}

/* A function of time with Lipschitz constant 0 on [0, T] is constant
 * there: its enclosure over [0, T] serves every time in [0, T] (the
 * engine only asks about such times), instead of an evaluation per call. */
static dvc_status cst_eval(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    dvc_ivec_set(out, (dvc_ivec_struct *)ctx);
    return DVC_OK;
}

static dvc_status cst_lip(mpfr_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    mpfr_set_zero(out, 1);
    return DVC_OK;
}

static dvc_status cst_deriv(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    (void)t;
    (void)ctx;
    dvc_ivec_zero(out);
    return DVC_OK;
}

static void const_cb(lws *w, dvc_tfun_cb *f, dvc_ivec_t store)
{
    if (f->eval == NULL || store->n != f->k) return;
    mpfi_interv_fr(w->tstep, &w->p->T->left, &w->p->T->right);
    mpfi_put_ui(w->tstep, 0);
    if (f->lipschitz(w->r1, w->tstep, f->ctx) == DVC_OK && mpfr_zero_p(w->r1) &&
        dvc_dlvi_tf_eval_(f, store, w->tstep, "f") == DVC_OK) {
        f->eval = cst_eval;
        f->lipschitz = cst_lip;
        f->deriv = cst_deriv;
        f->ctx = store;
    }
    dvc_error_reset();
}

/* The binary64 path: at 53 bits (every MPFR value a double) unless
 * DVC_DLVI_NOFAST is set (tests compare both paths). */
static dvc_status fast_init(lws *w)
{
    long n = w->n, m = w->m > 0 ? w->m : 1, K = w->K, sz;
    double *b;
    w->fast = 0;
    w->reuse = getenv("DVC_LOGNORM_NOREUSE") == NULL;
    if (w->prec != 53 || getenv("DVC_DLVI_NOFAST") != NULL) return DVC_OK;
    /* av 2 x 2Kn, rp and fk 2 x Kn each, gk 2Km, ym gm 4m, fm Fs 4n, C c0 3Kn, Dp Di
     * 2K, defect scratch 12n + 4m, Lr and the set's box 4n, lohner scratch */
    sz = 4 * K * n + 4 * K * n + 2 * K * m + 4 * m + 4 * n + 3 * K * n + 2 * K + 12 * n + 4 * m + 4 * n +
         6 * n + 4 * m + 2 * m + (long)dvc_lnf_lohner_scratch_(n);
    w->fbuf = calloc((size_t)sz, sizeof(double));
    w->fG = calloc((size_t)w->npat, sizeof(dvc_dlvi_fspm));
    if (!w->fbuf || !w->fG) {
        free(w->fbuf);
        free(w->fG);
        return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    }
    b = w->fbuf;
    w->avl = b, b += 2 * K * n;
    w->avh = b, b += 2 * K * n;
    w->rpl = b, b += K * n;
    w->rph = b, b += K * n;
    w->fkl = b, b += K * n;
    w->fkh = b, b += K * n;
    w->gkl = b, b += K * m;
    w->gkh = b, b += K * m;
    w->yml = b, b += m;
    w->ymh = b, b += m;
    w->gml = b, b += m;
    w->gmh = b, b += m;
    w->fml = b, b += n;
    w->fmh = b, b += n;
    w->Fsl = b, b += n;
    w->Fsh = b, b += n;
    w->Cl = b, b += K * n;
    w->Ch = b, b += K * n;
    w->c0d = b, b += K * n;
    w->Dpd = b, b += K;
    w->Did = b, b += K;
    w->scr = b, b += 12 * n + 4 * m;
    w->Lrl = b, b += n;
    w->Lrh = b, b += n;
    w->ol = b, b += n;
    w->oh = b, b += n;
    w->dxl = b, b += n;
    w->dxh = b, b += n;
    w->xml = b, b += n;
    w->xmh = b, b += n;
    w->Xl = b, b += n;
    w->Xh = b, b += n;
    w->ql = b, b += m;
    w->qh = b, b += m;
    w->gql = b, b += m;
    w->gqh = b, b += m;
    w->gcl = b, b += m;
    w->gch = b, b += m;
    w->lscr = b;
    w->fast = 1;
    /* all three built (no short circuit), so that all three can be cleared */
    int okA = dvc_dlvi_fspm_build_(&w->fA, w->p->A), okB = dvc_dlvi_fspm_build_(&w->fB, w->p->B),
        okQ = dvc_dlvi_fspm_build_(&w->fQ, w->p->Q);
    if (!okA || !okB || !okQ) {
        /* an endpoint beyond binary64: MPFI only */
        dvc_dlvi_fspm_clear_(&w->fA);
        dvc_dlvi_fspm_clear_(&w->fB);
        dvc_dlvi_fspm_clear_(&w->fQ);
        free(w->fG);
        free(w->fbuf);
        w->fG = NULL;
        w->fbuf = NULL;
        w->fast = 0;
        return DVC_OK;
    }
    /* a constant g (const_cb): every value of g is a copy of gc */
    w->gcd = w->reuse && w->m > 0 && w->g.eval == cst_eval;
    if (w->gcd) to_d(w->gcl, w->gch, w->gc);
    w->Td = mpfr_get_d(&w->p->T->right, MPFR_RNDU);
    return DVC_OK;
}

/* x <- lo/hi of an MPFI vector (exact at 53 bits) */
static void to_d(double *lo, double *hi, const dvc_ivec_t v)
{
    for (long k = 0; k < v->n; k++) {
        lo[k] = mpfr_get_d(&v->e[k]->left, MPFR_RNDD);
        hi[k] = mpfr_get_d(&v->e[k]->right, MPFR_RNDU);
    }
}

static void from_d(dvc_ivec_t v, const double *lo, const double *hi)
{
    for (long k = 0; k < v->n; k++) mpfi_interv_d(v->e[k], lo[k], hi[k]);
}

/* h's ends as doubles (rounded down, up), converted again only when h is
 * not the one converted last time (the last step, a non-uniform grid) */
static void h_d(lws *w, double *lo, double *hi)
{
    if (!w->hd_ok || !w->reuse || !mpfr_equal_p(&w->hconv->left, &w->h->left) || !mpfr_equal_p(&w->hconv->right, &w->h->right) ||
        mpfr_signbit(&w->hconv->left) != mpfr_signbit(&w->h->left) ||
        mpfr_signbit(&w->hconv->right) != mpfr_signbit(&w->h->right)) {
        mpfi_set(w->hconv, w->h);
        w->hd_lo = mpfr_get_d(&w->h->left, MPFR_RNDD);
        w->hd_hi = mpfr_get_d(&w->h->right, MPFR_RNDU);
        w->hd_ok = mpfr_number_p(&w->h->left) && mpfr_number_p(&w->h->right);
    }
    *lo = w->hd_lo;
    *hi = w->hd_hi;
}

/* av, rp from the binary64 defect data, once per step */
static void defect_mpfi(lws *w)
{
    long n = w->n;
    if (w->fmp) return;
    for (long k = 0; k < w->K; k++) {
        for (long e = 0; e <= 1; e++) {
            long j = 2 * k + e;
            for (long c = 0; c < n; c++) mpfi_interv_d(w->av[j]->e[c], w->avl[j * n + c], w->avh[j * n + c]);
        }
        for (long c = 0; c < n; c++) mpfi_interv_d(w->rp[k]->e[c], w->rpl[k * n + c], w->rph[k * n + c]);
    }
    w->fmp = 1;
}

/* A time grid: r keeps a copy of it, w->h the hull of the step lengths
 * (the summary's h; every step then sets its own). */
static dvc_status grid_setup(lws *w, dvc_dlvi_result_t r, const dvc_dlvi_problem_struct *p)
{
    r->tgrid = malloc((size_t)(p->N + 1) * sizeof *r->tgrid);
    if (!r->tgrid) return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory for %ld grid times", p->N + 1);
    memcpy(r->tgrid, p->grid, (size_t)(p->N + 1) * sizeof *r->tgrid);
    dvc_dlvi_step_len_(w->h, p, 0);
    for (long i = 1; i < p->N; i++) {
        dvc_dlvi_step_len_(w->u, p, i);
        mpfi_union(w->h, w->h, w->u);
    }
    return DVC_OK;
}

/* Step i of a time grid: its own length in w->h, and the exact length as
 * the key of the exp(J h) cache (TwoSum, round to nearest: s + e = b - a
 * exactly; w->h is the outward rounding of that number, so equal keys give
 * equal enclosures). */
static dvc_status grid_step(lws *w, long i)
{
    volatile double a = w->p->grid[i], b = w->p->grid[i + 1], s = b - a, yv = s - b, xv = s - yv;
    w->hk[0] = s;
    w->hk[1] = (b - xv) + (-a - yv);
    dvc_dlvi_step_len_(w->h, w->p, i);
    if (!dvc_ival_is_pos(w->h)) return dvc_error(DVC_NOT_CERTIFIED, "the step's length is not proven > 0");
    return DVC_OK;
}

/* Setup: validation, result arrays, P proof, beta, Jacobians, norm. */
static dvc_status setup(lws *w, dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_struct *p,
                        const dvc_lognorm_opts *o)
{
    long n = p->n, m = p->m, N = p->N;
    dvc_status st;
    mpfr_prec_t prec = o->dlvi.prec ? o->dlvi.prec : (p->prec ? p->prec : DVC_DEFAULT_PREC);
    dvc_prec_set(prec);
    w->p = p;
    w->o = o;
    w->info = info;
    w->n = n;
    w->m = m;
    w->N = N;
    lws_init(w, n, m, prec);
    if ((st = lws_pieces(w, o->pieces < 1 ? 1 : (o->pieces > 64 ? 64 : o->pieces))) != DVC_OK) return st;
    if ((st = dvc_dlvi_tf_resolve_(&w->f, &p->fcb, n, "f")) != DVC_OK) return st;
    if ((st = dvc_dlvi_tf_resolve_(&w->g, &p->gcb, m, "g")) != DVC_OK) return st;
    const_cb(w, &w->f, w->fc);
    if (m > 0) const_cb(w, &w->g, w->gc);
    w->deriv = o->use_deriv && (w->f.eval == NULL || w->f.deriv != NULL) &&
               (w->g.eval == NULL || w->g.deriv != NULL);
    if ((st = dvc_dlvi_result_alloc_(r, n, m, N, prec, 0)) != DVC_OK) return st;
    if ((st = dvc_dlvi_result_set_ybox(r, p)) != DVC_OK) return st;
    mpfi_set(r->T, p->T);
    if (p->h > 0) mpfi_set_d(w->h, p->h);
    else if (p->grid) {
        if ((st = grid_setup(w, r, p)) != DVC_OK) return st;
    }
    else mpfi_div_si(w->h, p->T, N);
    mpfi_set(r->h, w->h);
    r->hgrid = p->h;
    mpfi_set(r->theta, p->theta);
    if ((st = dvc_dlvi_prove_beta_(r, w->solver, &w->solver_ok, p, &o->dlvi.beta)) != DVC_OK) return st;
    mpfr_set(w->beta, r->beta_hi, MPFR_RNDU);
    dvc_imat_norm_inf(r->normA, p->A);
    dvc_imat_norm_inf(r->normB, p->B);
    dvc_imat_norm_inf(r->normQ, p->Q);
    if ((st = dvc_lognorm_jac_init_(&w->J, p, prec)) != DVC_OK) return st;
    w->jac_ok = 1;
    w->npat = w->J.cap;
    if ((st = fast_init(w)) != DVC_OK) return st;
    if (o->stated && o->n_stated > 0) {
        /* verification: the certificate's norm, proven again */
        if (o->stated[0].pattern != -1)
            return dvc_error(DVC_NOT_CERTIFIED, "lognorm: the first stated norm must be the run's norm");
        st = dvc_lognorm_given_(info, &w->J, p, &o->stated[0], prec);
    } else {
        st = dvc_lognorm_choose_(info, &w->J, p, o->norm, -1, NULL, prec);
    }
    if (st != DVC_OK) return st;
    free(info->mode_pattern);
    free(info->mode_R);
    info->mode_pattern = NULL;
    info->mode_R = NULL;
    w->nrm[0] = info;
    w->cur = 0;
    mpfr_set(r->L, info->mu, MPFR_RNDU);
    free(info->E);
    free(info->dW);
    free(info->mu_step);
    free(info->rad);
    free(info->norm_used);
    info->E = calloc((size_t)(N + 1), sizeof(double));
    info->dW = calloc((size_t)(N + 1), sizeof(double));
    info->mu_step = calloc((size_t)(N + 1), sizeof(double));
    info->rad = calloc((size_t)(N + 1), sizeof(double));
    info->norm_used = calloc((size_t)(N + 1), sizeof(int));
    info->N = N;
    info->n_affine = info->n_local = info->n_modes = info->n_switch = info->n_set = info->n_deriv =
        info->n_piece_aff = info->n_fast = 0;
    if (!info->E || !info->dW || !info->mu_step || !info->rad || !info->norm_used)
        return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory for %ld steps", N);
    mpfr_set(r->hmax, &w->h->right, MPFR_RNDD); /* no step condition on this route */
    return DVC_OK;
}

/* ||G Q v||_inf (G NULL: ||Q v||_inf) for v in the box [lo, hi], in binary64
 * under FE_UPWARD (mv and ninf's operations and roundings); -1 when not
 * finite (the caller then uses MPFI). */
static double qnorm_d(lws *w, const dvc_dlvi_fspm *G, const double *lo, const double *hi)
{
    long m = w->m;
    double nv = 0.0, *rl = w->ql, *rh = w->qh;
    int saved = dvc_rnd_save();
    dvc_rnd_set(FE_UPWARD);
    for (long a = 0; a < m; a++) w->ql[a] = w->qh[a] = 0.0;
    dvc_dlvi_spm_addmul_u_(w->ql, w->qh, &w->fQ, lo, hi);
    if (G) {
        for (long a = 0; a < m; a++) w->gql[a] = w->gqh[a] = 0.0;
        dvc_dlvi_spm_addmul_u_(w->gql, w->gqh, G, w->ql, w->qh);
        rl = w->gql;
        rh = w->gqh;
    }
    for (long a = 0; a < m; a++) nv = fmax(nv, dvc_fi_mag_(rl[a], rh[a]));
    dvc_rnd_restore(saved);
    return isfinite(nv) ? nv : -1.0;
}

/* [yhat^j] at Q x^j + g(t) and eps_y[j] from E = ||e(t_j)|| (w->Ei). */
static dvc_status grid_point(lws *w, dvc_dlvi_result_t r, long j, const mpfi_t t, int have_y)
{
    long n = w->n, m = w->m;
    dvc_status st;
    if (m == 0) {
        mpfr_set_zero(r->eps_y[j], 1);
        return DVC_OK;
    }
    if ((st = dvc_dlvi_tf_eval_(&w->g, w->gk, t, "g")) != DVC_OK) return st;
    if (!w->fast || !q_fast(w, w->qbox, r->x + j * n, r->x + j * n, w->gk)) {
        dvc_ivec_set_d(w->tn_, r->x + j * n);
        q_of(w, w->qbox, w->tn_, w->gk);
    }
    st = dvc_lvi_solve(w->lg, w->solver, w->qbox, have_y ? r->y + j * m : NULL);
    if (st != DVC_OK) return dvc_error_context(st, "LVI at the grid point: ");
    for (long a = 0; a < m; a++) {
        mpfi_set(r->yhat[j * m + a], w->lg->y->e[a]);
        if (!have_y) r->y[j * m + a] = dvc_ival_mid_d(w->lg->y->e[a]);
    }
    /* ||y(t_j) - y^j|| <= ||y(t_j) - yhat^j|| + ||[yhat^j] - y^j||, the first
     * <= ||G_F Q e(t_j)|| on a single-pattern box (e in the set box pv),
     * else <= bstep c_Q E */
    if (w->yloc >= 0 && w->yset) {
        double yn = -1.0;
        const dvc_dlvi_fspm *G = w->fast ? &w->fG[w->yloc] : NULL;
        if (w->lfast && G && G->start && G->ok) {
            /* the box of e(t_j) is in ol, oh: ||G Q e|| in binary64 (mv and
             * ninf's operations and roundings) */
            yn = qnorm_d(w, G, w->ol, w->oh);
        }
        if (yn >= 0) {
            mpfr_set_d(w->r1, yn, MPFR_RNDU);
        } else {
            pv_mpfi(w);
            mv(w, w->tm_, w->p->Q, w->pv);
            mv(w, w->Y, w->J.G[w->yloc], w->tm_);
            ninf(w, w->r1, w->Y);
            if (!mpfr_number_p(w->r1)) mpfr_set_inf(w->r1, 1);
        }
    } else {
        mpfr_mul(w->r1, w->bstep, w->nrm[w->cur]->c_Q, MPFR_RNDU);
        mpfr_mul(w->r1, w->r1, w->Ei, MPFR_RNDU);
    }
    mpfr_set_zero(w->r2, 1);
    for (long a = 0; a < m; a++) {
        mpfi_sub_d(w->s, r->yhat[j * m + a], r->y[j * m + a]);
        imag(w, w->sc.a, w->s);
        mpfr_max(w->r2, w->r2, w->sc.a, MPFR_RNDU);
    }
    mpfr_add(r->eps_y[j], w->r1, w->r2, MPFR_RNDU);
    if (!mpfr_number_p(r->eps_y[j])) return dvc_error(DVC_NOT_CERTIFIED, "eps_y is not finite");
    return DVC_OK;
}

/* C = -(f'(t) + B G g'(t)) (the g term only on a single-pattern step
 * k_aff >= 0: elsewhere the LVI box covers g) and c0 = mid C, over the
 * time interval t (a piece or the whole step); tv not NULL: also f(tv)
 * into w->fm (w->fmv). 0 when a derivative cannot be enclosed (the piece then
 * keeps the box r of the values). */
static int piece_deriv(lws *w, long k_aff, const mpfi_t t, mpfi_srcptr tv)
{
    long n = w->n, m = w->m;
    dvc_status st = DVC_OK;
    if (w->f.eval == NULL) {
        dvc_ivec_zero(w->C);
    } else if (tv != NULL) {
        /* with f(tv) into w->fm in the same call (one pass of an
         * expression); fmv when that value is a finite enclosure, else the
         * caller evaluates it again (and gets the message) */
        st = dvc_tfun_cb_val_deriv(&w->f, w->fm, w->C, tv, t);
        if (st == DVC_OK) {
            w->fmv = 1;
            for (long c = 0; c < n; c++)
                if (!dvc_ival_is_finite(w->fm->e[c]) || !dvc_ival_is_valid(w->fm->e[c])) w->fmv = 0;
        } else {
            dvc_error_reset();
            st = w->f.deriv(w->C, t, w->f.ctx);
        }
    } else {
        st = w->f.deriv(w->C, t, w->f.ctx);
    }
    if (st == DVC_OK) dvc_ivec_set(w->Fd, w->C);
    /* a constant g (cst_eval) has g' = 0: no term */
    if (st == DVC_OK && m > 0 && k_aff >= 0 && w->g.eval != NULL && w->g.eval != cst_eval) {
        st = w->g.deriv(w->gd, t, w->g.ctx);
        if (st == DVC_OK) {
            mv(w, w->tm_, w->J.G[k_aff], w->gd);
            mv(w, w->a, w->p->B, w->tm_);
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
    q_of(w, w->qbox, w->Xk, w->Gk);
    st = dvc_lvi_solve(w->lp, w->solver, w->qbox, NULL);
    *kp = pat_slot(w, box_pattern(w->lp, st, m));
    dvc_error_reset();
    if (*kp < 0) return DVC_OK;
    /* the anchor at sigma_a = (2k + 1 - K)/(2K) */
    mpfi_set_si(w->tpk_sa, 2 * k + 1 - K);
    mpfi_div_si(w->tpk_sa, w->tpk_sa, 2 * K);
    dvc_ivec_scale(w->pv, w->tpk_sa, w->dx);
    dvc_ivec_add(w->pv, w->pv, w->xm);
    q_of(w, w->qbox, w->pv, w->gk);
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
    h_d(w, &pt->hl, &pt->hh);
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
 * step's (dstep: w->Cs, w->cs0) or one per piece: sets w->fdef on
 * success; otherwise the MPFI loop runs. */
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
    int gvar = m > 0 && w->g.eval != NULL && w->g.eval != cst_eval;
    if ((!fone && w->f.eval != NULL) || gvar || !dstep) {
        int wantf = !fone && w->f.eval != NULL;
        for (long k = 0; k < K; k++) {
            piece_mid(w, k, K);
            w->fmv = 0;
            if (!dstep) {
                /* the piece's derivative enclosure (and f(tau_k) with it
                 * into w->fm, unused on such steps otherwise) */
                piece_span(w, k, K);
                if (!piece_deriv(w, k_aff, w->tpk, wantf ? w->tk : NULL)) return DVC_OK;
                to_d(w->Cl + k * n, w->Ch + k * n, w->C);
                for (long c = 0; c < n; c++) w->c0d[k * n + c] = mpfr_get_d(&w->c0->e[c]->left, MPFR_RNDN);
            }
            if (wantf && w->fmv) {
                to_d(w->fkl + k * n, w->fkh + k * n, w->fm);
            } else if (wantf) {
                if ((st = dvc_dlvi_tf_eval_(&w->f, w->fk, w->tk, "f")) != DVC_OK) return st;
                to_d(w->fkl + k * n, w->fkh + k * n, w->fk);
            }
            if (gvar) {
                if ((st = dvc_dlvi_tf_eval_(&w->g, w->gk, w->tk, "g")) != DVC_OK) return st;
                to_d(w->gkl + k * m, w->gkh + k * m, w->gk);
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
        to_d(w->fml, w->fmh, w->fm);
        if (!w->fdd) to_d(w->Fsl, w->Fsh, w->Fs);
    }
    if (m > 0) {
        to_d(w->yml, w->ymh, w->ym);
        if (w->gcd) {
            memcpy(w->gml, w->gcl, (size_t)m * sizeof(double));
            memcpy(w->gmh, w->gch, (size_t)m * sizeof(double));
        } else {
            to_d(w->gml, w->gmh, w->gm);
        }
    }
    if (dstep) {
        if (!w->cd) to_d(w->Cl, w->Ch, w->Cs);
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
    io.xi = r->x + i * n;
    io.xn = r->x + (i + 1) * n;
    h_d(w, &io.hlo, &io.hhi);
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
    w->fdef = 1;
    w->fmp = 0;
    return DVC_OK;
}

/* h's and T's upper ends as doubles for the heuristics of defect_data */
static void heur_h_T(lws *w, double *hh, double *Td)
{
    double hl;
    if (w->fast) {
        h_d(w, &hl, hh);
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

/* The defect d(s) = p'(s) - F(s, p(s)) of step i as interval data
 * (docs/lognorm.md section 4): on piece k, d(s) lies in the segment
 * between av[2k] and av[2k+1] plus the box rp[k]. *pat: the free set of
 * the single pattern certified over the box of Q p(t) + g(t), or -1. */
static dvc_status defect_data(lws *w, dvc_dlvi_result_t r, long i, long *pat)
{
    long n = w->n, m = w->m, K = w->K, k_aff = -1;
    const double *xi = r->x + i * n, *xn = r->x + (i + 1) * n;
    const dvc_dlvi_problem_struct *p = w->p;
    dvc_status st;
    if (w->fast) {
        /* the operations below in binary64 under FE_UPWARD (MPFI's
         * roundings); MPFI copies only when an MPFI part needs them */
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
        w->xmp = 0;
    } else {
        for (long k = 0; k < n; k++) {
            mpfi_set_d(w->dx->e[k], xn[k]);
            mpfi_sub_d(w->dx->e[k], w->dx->e[k], xi[k]);
            mpfi_div_2ui(w->xm->e[k], w->dx->e[k], 1);
            mpfi_add_d(w->xm->e[k], w->xm->e[k], xi[k]);
            mpfi_interv_d(w->X->e[k], fmin(xi[k], xn[k]), fmax(xi[k], xn[k]));
        }
        w->xmp = 1;
    }
    mpfi_add(w->tm, w->ti, w->tn);
    mpfi_div_2ui(w->tm, w->tm, 1);
    if (m > 0) {
        if ((st = dvc_dlvi_tf_eval_(&w->g, w->gm, w->tm, "g")) != DVC_OK) return st;
        if (!w->fast || !q_fast(w, w->qm, w->xml, w->xmh, w->gm)) {
            x_mpfi(w);
            q_of(w, w->qm, w->xm, w->gm);
        }
        st = dvc_lvi_solve(w->lm, w->solver, w->qm, r->y + (i + 1) * m);
        if (st != DVC_OK) return dvc_error_context(st, "LVI at the step's midpoint: ");
        dvc_ivec_set(w->ym, w->lm->y);
        if ((st = dvc_dlvi_tf_eval_(&w->g, w->Gk, w->tstep, "g")) != DVC_OK) return st;
        if (!w->fast || !q_fast(w, w->qbox, w->Xl, w->Xh, w->Gk)) {
            x_mpfi(w);
            q_of(w, w->qbox, w->X, w->Gk);
        }
        st = dvc_lvi_solve(w->lb, w->solver, w->qbox, r->y + (i + 1) * m);
        k_aff = pat_slot(w, box_pattern(w->lb, st, m));
        if (k_aff < 0) {
            if (st == DVC_OK) {
                dvc_ivec_set(w->Y, w->lb->y);
            } else {
                /* Lemma 2.1 about the midpoint: S(q) in [ym] +- beta ||q - q_mid|| */
                dvc_error_reset();
                dvc_ivec_sub(w->Y, w->qbox, w->qm);
                ninf(w, w->r1, w->Y);
                mpfr_mul(w->r1, w->r1, w->beta, MPFR_RNDU);
                dvc_ivec_inflate(w->Y, w->ym, w->r1);
            }
        }
    }
    /* m = 0: F(t, .) is affine, one piece */
    *pat = m > 0 ? k_aff : 0;
    /* One derivative enclosure over the whole step serves every piece when
     * it is narrow (smooth f, g; a table between two samples): the
     * remainder (s - tau)(C - c0) is then second order already. A wide one
     * (a table sample inside the step) is redone per piece. */
    w->fmv = 0;
    w->cd = w->fdd = 0;
    int dstep = w->deriv && piece_deriv(w, k_aff, w->tstep, w->tm);
    if (dstep) {
        /* a heuristic (either choice is sound): the step's enclosure when
         * its remainder, (h/2K) rad C per unit time, would add less than 1%
         * of the current radius over the whole horizon (on the binary64
         * path C's ends are kept in Cl, Ch for defect_fast) */
        double hh, Td, rc;
        heur_h_T(w, &hh, &Td);
        rc = 0.5 * heur_ends(w, w->C, w->Cl, w->Ch);
        w->cd = w->fast && w->reuse;
        if (!(Td * hh / (2.0 * (double)K) * rc <= 0.01 * w->info->rad[i])) {
            dstep = 0;
            w->cd = 0;
        }
    }
    /* f once per step: f(tau) in f(t_m) + (tau - t_m) [f'(step)], when
     * that box, (h/2) wid f' per unit time, would also add less than 1% of
     * the current radius over the horizon (fewer evaluations of f) */
    int fone = 0;
    if (dstep) {
        /* the step's C, c0 kept in Cs, cs0 (C, c0 are rewritten per piece
         * before they are read again) */
        ivec_swap(w->Cs, w->C);
        ivec_swap(w->cs0, w->c0);
        if (w->f.eval != NULL) {
            /* (on the binary64 path Fd's ends are kept in Fsl, Fsh: Fd
             * becomes Fs when fone) */
            double hh, Td, rc;
            heur_h_T(w, &hh, &Td);
            rc = heur_ends(w, w->Fd, w->Fsl, w->Fsh);
            fone = Td * 0.5 * hh * rc <= 0.01 * w->info->rad[i];
            w->fdd = fone && w->fast && w->reuse;
        }
        if (fone) {
            ivec_swap(w->Fs, w->Fd);
            if (!w->fmv && (st = dvc_dlvi_tf_eval_(&w->f, w->fm, w->tm, "f")) != DVC_OK) return st;
        }
    }
    if (m > 0 && k_aff < 0) dvc_ivec_set(w->Ycr, w->Y);
    w->fdef = 0;
    w->fmp = 1;
    if (w->fast && (dstep || w->deriv) && (m == 0 || k_aff >= 0)) {
        if ((st = defect_fast(w, r, i, k_aff, fone, dstep)) != DVC_OK) return st;
        if (w->fdef) return DVC_OK;
    }
    x_mpfi(w);
    for (long k = 0; k < K; k++) {
        /* piece [t_i + k h/K, t_i + (k+1) h/K]; f, g frozen at its midpoint tau */
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
        /* r(s) = -(f(s) - f(tau)) - B G (g(s) - g(tau)). With derivatives:
         * f(s) - f(tau) in (s - tau) [f'(piece)] (mean value, componentwise),
         * so r(s) = (s - tau) c(s), c(s) in C; its affine part (s - tau) c0
         * goes to the ends, the rest (s - tau)(C - c0) is a box of second
         * order. Without: the box of the values over the piece. */
        /* on a pattern-change step, a piece may still have one certified
         * pattern kp over its own box: S is affine there about the anchor
         * (yma, ga) at the piece's midpoint sigma_a */
        long kp = k_aff;
        mpfi_set_ui(w->tpk_sa, 0);
        if (m > 0 && k_aff < 0 && (st = piece_pattern(w, k, &kp)) != DVC_OK) return st;
        if (kp >= 0 && k_aff < 0) w->info->n_piece_aff++;
        int dk = 0;
        if (dstep && (kp == k_aff || w->g.eval == NULL)) {
            dvc_ivec_set(w->C, w->Cs);
            dvc_ivec_set(w->c0, w->cs0);
            dk = 1;
        } else if (w->deriv) {
            dk = piece_deriv(w, kp, w->tpk, NULL);
        }
        if (dk) {
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
                mv(w, w->tm_, w->J.G[kp], w->Gk);
                mv(w, w->a, p->B, w->tm_);
                dvc_ivec_sub(w->rp[k], w->rp[k], w->a);
            }
        }
        for (long e = 0; e <= 1; e++) {
            dvc_ivec_struct *a = w->av[2 * k + e];
            /* sigma = s - 1/2 at the piece's end, p(s) = x_mid + sigma dx */
            mpfi_set_si(w->v, 2 * (k + e) - K);
            mpfi_div_si(w->v, w->v, 2 * K);
            dvc_ivec_scale(w->pv, w->v, w->dx);
            dvc_ivec_add(w->pv, w->pv, w->xm);
            /* a = dx/h - A p - B y - f(tau) */
            mv(w, a, p->A, w->pv);
            dvc_ivec_add(a, a, w->fk);
            if (m > 0) {
                if (k_aff >= 0) {
                    /* S affine on the box: y = ym + G (Q sigma dx + g(tau) - g_mid) */
                    dvc_ivec_scale(w->tn_, w->v, w->dx);
                    mv(w, w->tm_, p->Q, w->tn_);
                    dvc_ivec_add(w->tm_, w->tm_, w->gk);
                    dvc_ivec_sub(w->Y, w->tm_, w->gm);
                    mv(w, w->tm_, w->J.G[k_aff], w->Y);
                    dvc_ivec_add(w->Y, w->tm_, w->ym);
                } else if (kp >= 0) {
                    /* affine on the piece's box: y = yma + G (Q (sigma - sigma_a) dx) */
                    mpfi_sub(w->s, w->v, w->tpk_sa);
                    dvc_ivec_scale(w->tn_, w->s, w->dx);
                    mv(w, w->tm_, p->Q, w->tn_);
                    mv(w, w->Y, w->J.G[kp], w->tm_);
                    dvc_ivec_add(w->Y, w->Y, w->yma);
                } else {
                    dvc_ivec_set(w->Y, w->Ycr);
                }
                mv(w, w->tn_, p->B, w->Y);
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
    return DVC_OK;
}

/* In the norm nr, with a0, a1 the norms of the piece's ends and rk of its
 * box: ||d(s)|| <= (1 - sigma) a0 + sigma a1 + rk on piece k (convexity of
 * the norm along the segment), so Dp[k] = max(a0, a1) + rk bounds its sup
 * and Di[k] = (a0 + a1)/2 + rk its mean; Dd = max_k Dp[k]. */
static int defect_norm(lws *w, const dvc_lognorm_info_struct *nr)
{
    if (w->fdef) {
        double dd;
        if (dvc_lnf_defect_norm_(nr, w->K, w->avl, w->avh, w->rpl, w->rph, w->Dpd, w->Did, &dd) == 0) {
            /* Di stays in doubles for propagate (Dp only gives Dd) */
            w->dnd = 1;
            mpfr_set_d(w->Dd, dd, MPFR_RNDU);
            return 1;
        }
        defect_mpfi(w);
    }
    w->dnd = 0;
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

/* The mode norm fitted to pattern pat (index into w->nrm), created on
 * first use; -1 when none can be certified. */
static long mode_norm(lws *w, long pat)
{
    long j;
    for (j = 0; j < w->nmodes; j++)
        if (w->mode_pat[j] == pat) return j + 1;
    if (w->mode_failed || w->nmodes >= LN_MODES_MAX) return -1;
    j = w->nmodes;
    dvc_lognorm_info_init(w->modes[j]);
    if (w->o->stated) {
        /* verification: only the mode norms the certificate states (those
         * the writer's run created), each proven again */
        long s = 1;
        while (s < w->o->n_stated && w->o->stated[s].pattern != w->J.key[pat]) s++;
        if (s >= w->o->n_stated || w->o->stated[s].kind != DVC_LOGNORM_QUAD) {
            dvc_lognorm_info_clear(w->modes[j]);
            return -1;
        }
        if (dvc_lognorm_given_(w->modes[j], &w->J, w->p, &w->o->stated[s], w->prec) != DVC_OK) {
            char msg[400];
            snprintf(msg, sizeof msg, "%s", dvc_error_message());
            dvc_lognorm_info_clear(w->modes[j]);
            w->mode_failed = 1;
            dvc_error(DVC_NOT_CERTIFIED, "lognorm: the mode norm stated for pattern %#lx (a certificate's method "
                      "'lognorm_modes'): %s", w->J.key[pat], msg);
            w->mode_st = DVC_NOT_CERTIFIED;
            return -2;
        }
    } else if (dvc_lognorm_choose_(w->modes[j], &w->J, w->p, DVC_LOGNORM_QUAD, pat, w->nrm[0]->R, w->prec) !=
               DVC_OK) {
        dvc_error_reset();
        dvc_lognorm_info_clear(w->modes[j]);
        w->mode_failed = 1;
        return -1;
    }
    {
        /* recorded for the certificate (its method states them) */
        long n = w->n;
        long *mp = realloc(w->info->mode_pattern, (size_t)(j + 1) * sizeof(long));
        double *mr = mp ? realloc(w->info->mode_R, (size_t)((j + 1) * n * n) * sizeof(double)) : NULL;
        if (mp) w->info->mode_pattern = mp;
        if (mr) w->info->mode_R = mr;
        if (!mp || !mr) {
            dvc_lognorm_info_clear(w->modes[j]);
            w->mode_st = dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
            return -2;
        }
        mp[j] = w->J.key[pat];
        memcpy(mr + j * n * n, w->modes[j]->R, (size_t)(n * n) * sizeof(double));
    }
    w->mode_pat[j] = pat;
    w->nrm[j + 1] = w->modes[j];
    w->nmodes++;
    w->info->n_modes = w->nmodes;
    return j + 1;
}

/* ---- error-set propagation (docs/lognorm.md section 5d) --------------- */

static dvc_status lohner_init(lws *w)
{
    long n = w->n;
    w->Lc = calloc((size_t)(n + 2 * n * n), sizeof(double));
    if (!w->Lc) return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    w->LB = w->Lc + n;
    w->Lm = w->LB + n * n;
    dvc_ivec_init2(w->Lr, n, w->prec);
    dvc_ivec_init2(w->Lv, n, w->prec);
    dvc_ivec_init2(w->Ly, n, w->prec);
    dvc_ivec_init2(w->Lt, n, w->prec);
    dvc_imat_init2(w->LM, n, n, w->prec);
    dvc_imat_init2(w->LBi, n, n, w->prec);
    dvc_imat_init2(w->LBp, n, n, w->prec);
    dvc_imat_init2(w->LT1, n, n, w->prec);
    dvc_imat_init2(w->LT2, n, n, w->prec);
    dvc_imat_init2(w->Jhull, n, n, w->prec);
    /* hull of every piece Jacobian (pattern-change steps) */
    dvc_imat_set(w->Jhull, w->J.Jh);
    w->lohner = 1;
    return DVC_OK;
}

/* r of the error set in MPFI from its doubles (after binary64 steps) */
static void lr_mpfi(lws *w)
{
    if (!w->lrd) return;
    from_d(w->Lr, w->Lrl, w->Lrh);
    w->lrd = 0;
}

/* The box of the last binary64 error-set step into w->pv */
static void pv_mpfi(lws *w)
{
    if (w->lfast) from_d(w->pv, w->ol, w->oh);
}

/* The set {e : |e_k| <= rad} (c = 0, B = I). */
static void lohner_reset(lws *w, const mpfr_t rad)
{
    long n = w->n;
    w->lrd = 0;
    memset(w->Lc, 0, (size_t)n * sizeof(double));
    memset(w->LB, 0, (size_t)(n * n) * sizeof(double));
    for (long k = 0; k < n; k++) {
        w->LB[k * n + k] = 1.0;
        mpfi_interv_fr(w->Lr->e[k], rad, rad);
        mpfr_neg(&w->Lr->e[k]->left, rad, MPFR_RNDD);
    }
}

/* out encloses exp(J u) for every u in [u] >= 0 (src/dlvi/lognorm_expm.c);
 * 0 when z >= 4 (steps too long for this enclosure). At 53 bits in
 * binary64 with the same endpoints as MPFI. */
static int expm_enclose(lws *w, dvc_imat_t out, const dvc_imat_t J, const mpfi_t u)
{
    dvc_lnf_expm_ws ws = {w->LT1, w->LT2, w->s, w->v};
    if (w->fast && w->reuse) {
        int ok = dvc_lnf_expm_d_(out, J, u);
        if (ok >= 0) return ok;
    }
    return dvc_lnf_expm_mpfi_(out, J, u, &ws);
}

/* Cache entry for pattern pat, or -1. */
static long lohner_cache(lws *w, long pat)
{
    long c, n = w->n, K = w->K;
    mpfr_t nJ;
    int ok;
    for (c = 0; c < w->nlc; c++)
        if (w->lc[c].pat == pat && w->lc[c].hk[0] == w->hk[0] && w->lc[c].hk[1] == w->hk[1]) return c;
    if (w->nlc < LN_CACHE) {
        c = w->nlc++;
        dvc_imat_init2(w->lc[c].Phi, n, n, w->prec);
        w->lc[c].Phik = malloc((size_t)K * sizeof(dvc_imat_t));
        w->lc[c].Phim = malloc((size_t)K * sizeof(dvc_imat_t));
        if (!w->lc[c].Phik || !w->lc[c].Phim) {
            w->nlc--;
            dvc_imat_clear(w->lc[c].Phi);
            free(w->lc[c].Phik);
            free(w->lc[c].Phim);
            return -1;
        }
        for (long k = 0; k < K; k++) {
            dvc_imat_init2(w->lc[c].Phik[k], n, n, w->prec);
            dvc_imat_init2(w->lc[c].Phim[k], n, n, w->prec);
        }
        mpfr_init2(w->lc[c].rho, w->prec);
        mpfr_init2(w->lc[c].rho2, w->prec);
    } else {
        c = w->lc_next;
        w->lc_next = (w->lc_next + 1) % LN_CACHE;
    }
    w->lc[c].pat = -1;
    ok = expm_enclose(w, w->lc[c].Phi, w->J.J[pat], w->h);
    for (long k = 0; ok && k < K; k++) {
        /* u in [h - (k+1) h/K, h - k h/K] */
        mpfi_mul_si(w->tk, w->h, K - k - 1);
        mpfi_div_si(w->tk, w->tk, K);
        mpfi_mul_si(w->tpk, w->h, K - k);
        mpfi_div_si(w->tpk, w->tpk, K);
        mpfi_union(w->u, w->tk, w->tpk);
        ok = expm_enclose(w, w->lc[c].Phik[k], w->J.J[pat], w->u);
        /* u = h (2 (K - k) - 1) / (2K) */
        mpfi_mul_si(w->u, w->h, 2 * (K - k) - 1);
        mpfi_div_si(w->u, w->u, 2 * K);
        if (ok) ok = expm_enclose(w, w->lc[c].Phim[k], w->J.J[pat], w->u);
    }
    if (!ok) return -1;
    mpfr_init2(nJ, w->prec);
    dvc_imat_norm_inf(nJ, w->J.J[pat]);
    {
        /* rho2 = e^{||J|| (h + d)} ||J||^2 d^3 / 3, d = h/(2K): the midpoint
         * rule's remainder, int_{-d}^{d} (exp(J v) - I - J v) dv, times
         * ||exp(J (h - s_mid))|| <= e^{||J|| h} */
        mpfr_t d, e;
        mpfr_inits2(w->prec, d, e, (mpfr_ptr)0);
        mpfr_div_si(d, &w->h->right, 2 * K, MPFR_RNDU);
        mpfr_add(e, &w->h->right, d, MPFR_RNDU);
        mpfr_mul(e, e, nJ, MPFR_RNDU);
        mpfr_exp(e, e, MPFR_RNDU);
        mpfr_mul(e, e, nJ, MPFR_RNDU);
        mpfr_mul(e, e, nJ, MPFR_RNDU);
        mpfr_pow_ui(d, d, 3, MPFR_RNDU);
        mpfr_mul(e, e, d, MPFR_RNDU);
        mpfr_div_ui(w->lc[c].rho2, e, 3, MPFR_RNDU);
        mpfr_clears(d, e, (mpfr_ptr)0);
    }
    mpfr_mul(w->lc[c].rho, nJ, &w->h->right, MPFR_RNDU);
    mpfr_exp(w->lc[c].rho, w->lc[c].rho, MPFR_RNDU);
    mpfr_mul(w->lc[c].rho, w->lc[c].rho, nJ, MPFR_RNDU);
    mpfr_div_si(nJ, &w->h->right, K, MPFR_RNDU);
    mpfr_sqr(nJ, nJ, MPFR_RNDU);
    mpfr_mul(w->lc[c].rho, w->lc[c].rho, nJ, MPFR_RNDU);
    mpfr_div_ui(w->lc[c].rho, w->lc[c].rho, 12, MPFR_RNDU);
    mpfr_clear(nJ);
    w->lc[c].pat = pat;
    w->lc[c].hk[0] = w->hk[0];
    w->lc[c].hk[1] = w->hk[1];
    if (w->fast) {
        /* binary64 copies (exact at 53 bits) for lohner_step */
        long nn = n * n;
        if (w->lc[c].Pd == NULL) w->lc[c].Pd = malloc((size_t)(2 * (1 + 2 * K) * nn) * sizeof(double));
        if (w->lc[c].Pd != NULL) {
            double *P = w->lc[c].Pd;
            for (long e = 0; e < nn; e++) {
                P[e] = mpfr_get_d(&w->lc[c].Phi->e[e]->left, MPFR_RNDD);
                P[nn + e] = mpfr_get_d(&w->lc[c].Phi->e[e]->right, MPFR_RNDU);
                for (long k = 0; k < K; k++) {
                    P[(2 + k) * nn + e] = mpfr_get_d(&w->lc[c].Phim[k]->e[e]->left, MPFR_RNDD);
                    P[(2 + K + k) * nn + e] = mpfr_get_d(&w->lc[c].Phim[k]->e[e]->right, MPFR_RNDU);
                    P[(2 + 2 * K + k) * nn + e] = mpfr_get_d(&w->lc[c].Phik[k]->e[e]->left, MPFR_RNDD);
                    P[(2 + 3 * K + k) * nn + e] = mpfr_get_d(&w->lc[c].Phik[k]->e[e]->right, MPFR_RNDU);
                }
            }
            w->lc[c].rho_d = mpfr_get_d(w->lc[c].rho, MPFR_RNDU);
            w->lc[c].rho2_d = mpfr_get_d(w->lc[c].rho2, MPFR_RNDU);
        }
    }
    return c;
}

/* One step of e(t_{i+1}) = exp(J h) e(t_i) - int_0^h exp(J (h - s)) d(t_i + s) ds
 * (exact when the step's a priori box has the single pattern pat: then
 * F(t, x(t)) - F(t, p(t)) = J (x(t) - p(t))). Updates (c, B, r); out gets
 * a box enclosing e(t_{i+1}). 0 when it cannot (the caller resets). */
static int lohner_step(lws *w, long pat, dvc_ivec_t out)
{
    long n = w->n, K = w->K, c = lohner_cache(w, pat);
    w->lfast = 0;
    if (c < 0) return 0;
    if (w->fdef && w->lc[c].Pd != NULL) {
        dvc_lnf_lohner_io io;
        long nn = n * n;
        const double *P = w->lc[c].Pd;
        io.n = n;
        io.K = K;
        io.Plo = P;
        io.Phi = P + nn;
        io.Pmlo = P + 2 * nn;
        io.Pmhi = P + (2 + K) * nn;
        io.Pklo = P + (2 + 2 * K) * nn;
        io.Pkhi = P + (2 + 3 * K) * nn;
        io.rho = w->lc[c].rho_d;
        io.rho2 = w->lc[c].rho2_d;
        h_d(w, &io.hlo, &io.hhi);
        io.alo = w->avl;
        io.ahi = w->avh;
        io.rlo = w->rpl;
        io.rhi = w->rph;
        io.c = w->Lc;
        io.B = w->LB;
        if (!w->lrd) to_d(w->Lrl, w->Lrh, w->Lr);
        io.Lrlo = w->Lrl;
        io.Lrhi = w->Lrh;
        io.outlo = w->ol;
        io.outhi = w->oh;
        io.w = w->lscr;
        if (dvc_lnf_lohner_(&io) == 0) {
            /* r stays in Lrl, Lrh and the box in ol, oh (out) until an
             * MPFI part needs them (lr_mpfi, pv_mpfi) */
            w->lrd = 1;
            w->lfast = 1;
            return 1;
        }
    }
    lr_mpfi(w);
    defect_mpfi(w);
    /* V encloses the integral: piece k gives (h/K) Phim A_mid +- rho2
     * ||A_mid|| (midpoint rule for the constant part), (h/K) Phik R_k (mean
     * value over the piece), and +-rho ||A1 - A0|| (the affine part's
     * deviation from its mean) */
    dvc_ivec_zero(w->Lv);
    mpfi_div_si(w->tk, w->h, K);
    for (long k = 0; k < K; k++) {
        dvc_ivec_add(w->Lt, w->av[2 * k], w->av[2 * k + 1]);
        for (long j = 0; j < n; j++) mpfi_div_2ui(w->Lt->e[j], w->Lt->e[j], 1);
        mv(w, w->Ly, w->lc[c].Phim[k], w->Lt);
        dvc_ivec_addmul(w->Lv, w->tk, w->Ly);
        ninf(w, w->r1, w->Lt);
        mpfr_mul(w->r1, w->r1, w->lc[c].rho2, MPFR_RNDU);
        dvc_ivec_inflate(w->Lv, w->Lv, w->r1);
        mv(w, w->Ly, w->lc[c].Phik[k], w->rp[k]);
        dvc_ivec_addmul(w->Lv, w->tk, w->Ly);
        dvc_ivec_sub(w->Lt, w->av[2 * k + 1], w->av[2 * k]);
        ninf(w, w->r1, w->Lt);
        mpfr_mul(w->r1, w->r1, w->lc[c].rho, MPFR_RNDU);
        dvc_ivec_inflate(w->Lv, w->Lv, w->r1);
    }
    /* Y = Phi c - V; c' = mid Y */
    dvc_ivec_set_d(w->Lt, w->Lc);
    mv(w, w->Ly, w->lc[c].Phi, w->Lt);
    dvc_ivec_sub(w->Ly, w->Ly, w->Lv);
    /* M = Phi B; B' = frame of mid M */
    dvc_imat_set_d(w->LBp, w->LB);
    dvc_imat_mul(w->LM, w->lc[c].Phi, w->LBp);
    dvc_imat_mid_d(w->Lm, w->LM);
    if (!dvc_lnf_mgs_(w->LB, w->Lm, n)) return 0;
    dvc_imat_set_d(w->LBp, w->LB);
    if (dvc_imat_inv(w->LBi, w->LBp) != DVC_OK) {
        dvc_error_reset();
        return 0;
    }
    for (long j = 0; j < n; j++) w->Lc[j] = dvc_ival_mid_d(w->Ly->e[j]);
    /* r' = (B'^{-1} M) r + B'^{-1} (Y - c') */
    for (long j = 0; j < n; j++) mpfi_sub_d(w->Ly->e[j], w->Ly->e[j], w->Lc[j]);
    dvc_imat_mul(w->LT1, w->LBi, w->LM);
    mv(w, w->Lt, w->LT1, w->Lr);
    mv(w, w->Lv, w->LBi, w->Ly);
    dvc_ivec_add(w->Lr, w->Lt, w->Lv);
    /* box of c' + B' r' */
    mv(w, out, w->LBp, w->Lr);
    for (long j = 0; j < n; j++) mpfi_add_d(out->e[j], out->e[j], w->Lc[j]);
    return dvc_ivec_is_finite(out) && dvc_ivec_is_finite(w->Lr);
}

/* A step without a single pattern: e(t_{i+1}) = e(t_i) + int (J(s) e(s) - d(s)) ds
 * with J(s) in the hull of every J_D and ||e(s)||_inf <= rad over the step
 * (the a priori bound): the set moves by -int d + h [Jhull] [-rad, rad]. */
static int lohner_change(lws *w, const mpfr_t rad, dvc_ivec_t out)
{
    long n = w->n, K = w->K;
    lr_mpfi(w);
    defect_mpfi(w);
    dvc_ivec_zero(w->Lv);
    mpfi_div_si(w->tk, w->h, K);
    for (long k = 0; k < K; k++) {
        /* int over piece k of d in (h/K) ((A0 + A1)/2 + R_k) */
        dvc_ivec_add(w->Lt, w->av[2 * k], w->av[2 * k + 1]);
        for (long j = 0; j < n; j++) mpfi_div_2ui(w->Lt->e[j], w->Lt->e[j], 1);
        dvc_ivec_add(w->Lt, w->Lt, w->rp[k]);
        dvc_ivec_addmul(w->Lv, w->tk, w->Lt);
    }
    for (long j = 0; j < n; j++) {
        mpfi_interv_fr(w->Lt->e[j], rad, rad);
        mpfr_neg(&w->Lt->e[j]->left, rad, MPFR_RNDD);
    }
    mv(w, w->Ly, w->Jhull, w->Lt);
    dvc_ivec_scale(w->Ly, w->h, w->Ly);
    dvc_ivec_sub(w->Ly, w->Ly, w->Lv);
    /* c' = c + mid W, r' = r + B^{-1} (W - mid W), B unchanged */
    dvc_imat_set_d(w->LBp, w->LB);
    if (dvc_imat_inv(w->LBi, w->LBp) != DVC_OK) {
        dvc_error_reset();
        return 0;
    }
    for (long j = 0; j < n; j++) {
        double mw = dvc_ival_mid_d(w->Ly->e[j]);
        mpfi_sub_d(w->Ly->e[j], w->Ly->e[j], mw);
        /* c + mw in intervals: the rounding goes to r */
        mpfi_set_d(w->v, w->Lc[j]);
        mpfi_add_d(w->v, w->v, mw);
        w->Lc[j] = dvc_ival_mid_d(w->v);
        mpfi_sub_d(w->v, w->v, w->Lc[j]);
        mpfi_add(w->Ly->e[j], w->Ly->e[j], w->v);
    }
    mv(w, w->Lv, w->LBi, w->Ly);
    dvc_ivec_add(w->Lr, w->Lr, w->Lv);
    mv(w, out, w->LBp, w->Lr);
    for (long j = 0; j < n; j++) mpfi_add_d(out->e[j], out->e[j], w->Lc[j]);
    return dvc_ivec_is_finite(out) && dvc_ivec_is_finite(w->Lr);
}

/* out = ||G_k||_inf of slot k (dvc_imat_norm_inf), computed once per slot */
static void g_norm(lws *w, mpfr_t out, long k)
{
    if (!w->reuse) {
        dvc_imat_norm_inf(out, w->J.G[k]);
        return;
    }
    if (w->gn == NULL) {
        w->gn = malloc((size_t)w->npat * sizeof(mpfr_t));
        w->gn_ok = calloc((size_t)w->npat, 1);
        if (w->gn == NULL || w->gn_ok == NULL) {
            free(w->gn);
            free(w->gn_ok);
            w->gn = NULL;
            w->gn_ok = NULL;
            dvc_imat_norm_inf(out, w->J.G[k]);
            return;
        }
    }
    if (!w->gn_ok[k]) {
        mpfr_init2(w->gn[k], mpfr_get_prec(out));
        dvc_imat_norm_inf(w->gn[k], w->J.G[k]);
        w->gn_ok[k] = 1;
    }
    mpfr_set(out, w->gn[k], MPFR_RNDU);
}

static dvc_status step(lws *w, dvc_dlvi_result_t r, long i, int have_y)
{
    long m = w->m, pat = -1, loc = -1, a = w->cur;
    double rad_l;
    dvc_lognorm_info_struct *info = w->info;
    const dvc_lognorm_opts *o = w->o;
    dvc_status st;
    if (w->p->grid && (st = grid_step(w, i)) != DVC_OK) return st;
    if (w->p->h > 0 && i + 1 == w->N) {
        /* the shorter last step: its own length in every bound (docs/lognorm.md
         * section 12); the exp(J h) cache was made for h */
        dvc_dlvi_hlast_(w->h, w->p);
        if (!dvc_ival_is_pos(w->h)) return dvc_error(DVC_NOT_CERTIFIED, "the last step's length is not proven > 0");
        for (long c = 0; c < w->nlc; c++) w->lc[c].pat = -1;
    }
    dvc_dlvi_time_(w->ti, w->p, w->h, i);
    if (i + 1 == w->N) mpfi_set(w->tn, w->p->T);
    else dvc_dlvi_time_(w->tn, w->p, w->h, i + 1);
    mpfi_union(w->tstep, w->ti, w->tn);
    if ((st = defect_data(w, r, i, &pat)) != DVC_OK) return st;
    if (pat >= 0) info->n_affine++;
    /* in the current norm with its mu over every pattern */
    if (!defect_norm(w, w->nrm[a])) return dvc_error(DVC_NOT_CERTIFIED, "defect bound is not finite");
    if (!propagate(w, w->nrm[a]->mu, w->Ei, w->En, w->Esup))
        return dvc_error(DVC_NOT_CERTIFIED, "error bound E is not finite");
    info->mu_step[i] = mpfr_get_d(w->nrm[a]->mu, MPFR_RNDU);
    if (m == 0) {
        loc = 0;
    } else if (o->local_mu) {
        /* a priori box of x(t) and p(t) on the step; one certified pattern
         * there: every segment between them meets one piece only */
        mpfr_max(w->Es, w->Ei, w->Esup, MPFR_RNDU);
        mpfr_mul(w->r1, w->Es, w->nrm[a]->c_inf, MPFR_RNDU);
        if ((st = dvc_dlvi_tf_eval_(&w->g, w->Gk, w->tstep, "g")) != DVC_OK) return st;
        if (w->fast) {
            /* X +- r1 in doubles (dvc_ivec_inflate's roundings) */
            double r1 = mpfr_get_d(w->r1, MPFR_RNDU);
            int saved = dvc_rnd_save();
            dvc_rnd_set(FE_UPWARD);
            DVC_FP_PIN(r1);
            for (long k = 0; k < w->n; k++) {
                w->Xh[k] = w->Xh[k] + r1;
                w->Xl[k] = -((-w->Xl[k]) + r1);
            }
            dvc_rnd_restore(saved);
            if (w->xmp) dvc_ivec_inflate(w->X, w->X, w->r1);
        } else {
            dvc_ivec_inflate(w->X, w->X, w->r1);
        }
        if (!w->fast || !q_fast(w, w->qbox, w->Xl, w->Xh, w->Gk)) {
            x_mpfi(w);
            q_of(w, w->qbox, w->X, w->Gk);
        }
        st = dvc_lvi_solve(w->lb, w->solver, w->qbox, r->y + (i + 1) * m);
        loc = pat_slot(w, box_pattern(w->lb, st, m));
        dvc_error_reset();
    }
    mpfr_set(w->bstep, w->beta, MPFR_RNDU);
    w->yloc = -1;
    w->yset = 0;
    if (loc >= 0 && m > 0) {
        g_norm(w, w->r1, loc);
        if (mpfr_cmp(w->r1, w->bstep) < 0) mpfr_set(w->bstep, w->r1, MPFR_RNDU);
        w->yloc = loc;
    }
    if (loc >= 0) {
        long b = a;
        info->n_local++;
        if (o->mode_follow && w->nrm[0]->kind == DVC_LOGNORM_QUAD) {
            long j = mode_norm(w, loc);
            if (j == -2) return w->mode_st;
            if (j >= 0) b = j;
        }
        /* switch only when the gain in mu matters over the horizon
         * ((mu_a - mu_b) T >= 0.05) or is free (E_i = 0), and the price
         * c_ab is at most 8 (a
         * heuristic: every choice is sound) */
        if (b != a && mpfr_cmp(w->nrm[b]->mu_pat[loc], w->nrm[a]->mu_pat[loc]) < 0) {
            mpfr_sub(w->r1, w->nrm[a]->mu_pat[loc], w->nrm[b]->mu_pat[loc], MPFR_RNDD);
            mpfr_mul(w->r1, w->r1, &w->p->T->left, MPFR_RNDD);
            if (mpfr_cmp_d(w->r1, 0.05) < 0 && !mpfr_zero_p(w->Ei)) b = a;
        } else {
            b = a;
        }
        if (b != a) {
            /* switch at t_i: ||e(t_i)||_b <= c_ab ||e(t_i)||_a */
            if (dvc_lognorm_convert_(w->Dk, w->nrm[a], w->nrm[b], w->prec) != DVC_OK || mpfr_cmp_ui(w->Dk, 8) > 0) {
                dvc_error_reset();
                b = a;
            } else {
                mpfr_mul(w->Ei, w->Ei, w->Dk, MPFR_RNDU);
                w->cur = b;
                info->n_switch++;
                if (!defect_norm(w, w->nrm[b])) return dvc_error(DVC_NOT_CERTIFIED, "defect bound is not finite");
            }
        }
        if (!propagate(w, w->nrm[b]->mu_pat[loc], w->Ei, w->En, w->Esup))
            return dvc_error(DVC_NOT_CERTIFIED, "error bound E is not finite");
        info->mu_step[i] = mpfr_get_d(w->nrm[b]->mu_pat[loc], MPFR_RNDU);
    }
    rad_l = -1.0;
    if (w->lohner) {
        /* the error set, where one pattern holds over the a priori box and
         * the defect's affine data are available; else a box from E */
        int okl;
        w->lfast = 0;
        if (loc >= 0 && pat == loc) {
            okl = lohner_step(w, loc, w->pv);
        } else {
            mpfr_max(w->r2, w->Ei, w->Esup, MPFR_RNDU);
            mpfr_mul(w->r2, w->r2, w->nrm[w->cur]->c_inf, MPFR_RNDU);
            okl = lohner_change(w, w->r2, w->pv);
        }
        if (okl && w->lfast) {
            /* the box is in w->ol, w->oh: its norms in binary64 (the same
             * operations as the MPFI ones, rounded up) */
            double vn = dvc_lnf_vnorm_(w->nrm[w->cur], w->ol, w->oh), vi = 0.0;
            w->yset = 1;
            if (isfinite(vn) && vn < mpfr_get_d(w->En, MPFR_RNDU)) mpfr_set_d(w->En, vn, MPFR_RNDU);
            for (long k = 0; k < w->n; k++) vi = fmax(vi, fmax(fabs(w->ol[k]), fabs(w->oh[k])));
            rad_l = vi;
            info->n_set++;
        } else if (okl) {
            w->yset = 1;
            dvc_lognorm_vnorm_(w->r1, w->nrm[w->cur], w->pv, &w->sc);
            if (mpfr_cmp(w->r1, w->En) < 0) mpfr_set(w->En, w->r1, MPFR_RNDU);
            ninf(w, w->r1, w->pv);
            rad_l = mpfr_get_d(w->r1, MPFR_RNDU);
            info->n_set++;
        } else {
            mpfr_mul(w->r1, w->En, w->nrm[w->cur]->c_inf, MPFR_RNDU);
            lohner_reset(w, w->r1);
        }
    }
    {
        const dvc_lognorm_info_struct *nr = w->nrm[w->cur];
        /* on the step ||e|| <= max(E_i, Esup): e^{mu s} E_i + s phi(mu s) D is monotone in s */
        mpfr_max(w->Es, w->Ei, w->Esup, MPFR_RNDU);
        mpfr_mul(r->eps_x[i + 1], w->Es, nr->c_inf, MPFR_RNDU);
        if (!mpfr_number_p(r->eps_x[i + 1]) || !isfinite(mpfr_get_d(r->eps_x[i + 1], MPFR_RNDU)))
            return dvc_error(DVC_NOT_CERTIFIED, "eps_x is not finite");
        info->dW[i] = mpfr_get_d(w->Dd, MPFR_RNDU);
        r->delta[i] = info->dW[i];
        r->beta_step[i] = mpfr_get_d(w->bstep, MPFR_RNDU);
        r->Lx[i] = 0.0;
        r->Lf[i] = 0.0;
        /* ry: ||y(t) - yhat^j|| <= beta (c_Q ||e|| + ||Q dx|| + L_g h), j = i, i+1 */
        if (m > 0) {
            if ((st = dvc_dlvi_tf_lip_(&w->g, w->Lg, w->tstep, "g")) != DVC_OK) return st;
            r->Lg[i] = mpfr_get_d(w->Lg, MPFR_RNDU);
            double qd = -1.0;
            if (w->fast) {
                /* ||Q dx||_inf in doubles (mv and ninf's roundings) */
                qd = qnorm_d(w, NULL, w->dxl, w->dxh);
            }
            if (qd >= 0) {
                mpfr_set_d(w->r1, qd, MPFR_RNDU);
            } else {
                x_mpfi(w);
                mv(w, w->tm_, w->p->Q, w->dx);
                ninf(w, w->r1, w->tm_);
            }
            mpfr_mul(w->r2, w->Lg, &w->h->right, MPFR_RNDU);
            mpfr_add(w->r1, w->r1, w->r2, MPFR_RNDU);
            mpfr_mul(w->r2, w->Es, nr->c_Q, MPFR_RNDU);
            mpfr_add(w->r1, w->r1, w->r2, MPFR_RNDU);
            mpfr_mul(w->r1, w->r1, w->bstep, MPFR_RNDU);
            r->ry[i] = mpfr_get_d(w->r1, MPFR_RNDU);
            if (!isfinite(r->ry[i])) return dvc_error(DVC_NOT_CERTIFIED, "ry is not finite");
        }
        /* the grid point t_{i+1} */
        mpfr_set(w->Ei, w->En, MPFR_RNDU);
        info->E[i + 1] = mpfr_get_d(w->En, MPFR_RNDU);
        info->norm_used[i + 1] = (int)w->cur;
        mpfr_mul(w->r1, w->En, nr->c_inf, MPFR_RNDU);
        info->rad[i + 1] = mpfr_get_d(w->r1, MPFR_RNDU);
        if (rad_l >= 0 && rad_l < info->rad[i + 1]) info->rad[i + 1] = rad_l;
    }
    if ((st = grid_point(w, r, i + 1, w->tn, have_y)) != DVC_OK) return st;
    r->t[i + 1] = dvc_ival_mid_d(w->tn);
    mpfr_max(r->max_eps_x, r->max_eps_x, r->eps_x[i + 1], MPFR_RNDU);
    mpfr_max(r->max_eps_y, r->max_eps_y, r->eps_y[i + 1], MPFR_RNDU);
    return DVC_OK;
}

/* Hand grid point i (and step i - 1 before it) to the sink of o->dlvi, if
 * any: the same points as the Algorithm 4.2 engine hands out, so that the
 * streaming certificate writer takes either route. The result keeps every
 * grid point (r->window = 0). */
static dvc_status emit(const lws *w, const dvc_dlvi_result_t r, long i)
{
    const dvc_dlvi_opts *o = &w->o->dlvi;
    dvc_dlvi_point pt;
    long m = w->m;
    if (o->sink == NULL) return DVC_OK;
    memset(&pt, 0, sizeof pt);
    pt.i = i;
    pt.t = r->t[i];
    pt.x = r->x + i * w->n;
    pt.y = r->y + i * m;
    pt.yhat = m > 0 ? r->yhat[i * m] : NULL;
    pt.eps_x = r->eps_x[i];
    pt.eps_y = r->eps_y[i];
    if (i >= 1) {
        pt.Lx = r->Lx[i - 1];
        pt.Lf = r->Lf[i - 1];
        pt.Lg = r->Lg[i - 1];
        pt.delta = r->delta[i - 1];
        pt.beta_step = r->beta_step[i - 1];
        pt.ry = r->ry[i - 1];
    }
    return o->sink(&pt, o->sink_ctx);
}

static dvc_status engine(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                         const dvc_lognorm_opts *o, const double *xs, const double *ys, int predict,
                         dvc_dlvi_source src, void *src_ctx)
{
    lws w;
    dvc_lognorm_opts def;
    dvc_status st;
    mpfr_prec_t saved = dvc_prec_get();
    long n, m;
    double *px = NULL, *py = NULL;
    if (o == NULL) {
        dvc_lognorm_opts_default(&def);
        o = &def;
    }
    memset(&w, 0, sizeof w);
    if ((st = dvc_dlvi_validate_(p)) != DVC_OK) return st;
    n = p->n;
    m = p->m;
    if (predict) {
        px = malloc((size_t)((p->N + 1) * n) * sizeof(double));
        py = malloc((size_t)((p->N + 1) * (m > 0 ? m : 1)) * sizeof(double));
        if (!px || !py) {
            free(px);
            free(py);
            return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory for %ld steps", p->N);
        }
        if (o->predictor == DVC_LOGNORM_PRED_HEUN) st = dvc_dlvi_predict_heun_(px, py, p);
        else st = dvc_dlvi_predict(px, py, p, &o->dlvi);
        if (st != DVC_OK) {
            free(px);
            free(py);
            return dvc_error_context(st, "lognorm: predictor: ");
        }
        xs = px;
        ys = py;
    }
    st = setup(&w, r, info, p, o);
    if (st != DVC_OK) goto done;
    if (src) {
        /* x^0 now, x^{i+1} before step i */
        if ((st = src(0, r->x, r->y, src_ctx)) != DVC_OK) goto done;
        for (long k = 0; k < n; k++)
            if (!isfinite(r->x[k])) {
                st = dvc_error(DVC_ERR_INPUT, "lognorm: predictor x[0][%ld] is not finite", k);
                goto done;
            }
        ys = r->y; /* y is always given by a source */
    } else {
        for (long k = 0; k < (p->N + 1) * n; k++) {
            if (!isfinite(xs[k])) {
                st = dvc_error(DVC_ERR_INPUT, "lognorm: predictor x[%ld][%ld] is not finite", k / n, k % n);
                goto done;
            }
            r->x[k] = xs[k];
        }
        if (ys)
            for (long k = 0; k < (p->N + 1) * m; k++) r->y[k] = ys[k];
    }
    /* t = 0: eps_x[0] = ||x0 - x^0||_inf, E_0 = ||x0 - x^0||_W */
    for (long k = 0; k < n; k++) mpfi_sub_d(w.dx->e[k], p->x0->e[k], r->x[k]);
    dvc_ivec_norm_inf(r->eps_x[0], w.dx);
    dvc_lognorm_vnorm_(w.Ei, info, w.dx, &w.sc);
    info->E[0] = mpfr_get_d(w.Ei, MPFR_RNDU);
    info->rad[0] = mpfr_get_d(r->eps_x[0], MPFR_RNDU);
    if (o->error_set) {
        if ((st = lohner_init(&w)) != DVC_OK) goto done;
        lohner_reset(&w, r->eps_x[0]);
        /* the start: c = mid(x0 - x^0), r = the rest */
        for (long k = 0; k < n; k++) {
            w.Lc[k] = dvc_ival_mid_d(w.dx->e[k]);
            mpfi_sub_d(w.Lr->e[k], w.dx->e[k], w.Lc[k]);
        }
    }
    r->t[0] = 0.0;
    mpfi_set_ui(w.ti, 0);
    mpfr_set(w.bstep, w.beta, MPFR_RNDU);
    w.yloc = -1;
    w.yset = 0;
    if ((st = grid_point(&w, r, 0, w.ti, ys != NULL)) != DVC_OK) {
        st = dvc_error_context(st, "lognorm: t = 0: ");
        goto done;
    }
    mpfr_set(r->max_eps_x, r->eps_x[0], MPFR_RNDU);
    mpfr_set(r->max_eps_y, r->eps_y[0], MPFR_RNDU);
    if ((st = emit(&w, r, 0)) != DVC_OK) goto done;
    for (long i = 0; i < w.N; i++) {
        if (src) {
            if ((st = src(i + 1, r->x + (i + 1) * n, r->y + (i + 1) * m, src_ctx)) != DVC_OK) goto done;
            for (long k = 0; k < n; k++)
                if (!isfinite(r->x[(i + 1) * n + k])) {
                    st = dvc_error(DVC_ERR_INPUT, "lognorm: predictor x[%ld][%ld] is not finite", i + 1, k);
                    goto done;
                }
        }
        if ((st = step(&w, r, i, ys != NULL)) == DVC_OK) st = emit(&w, r, i + 1);
        if (st != DVC_OK) {
            if (st == DVC_NOT_CERTIFIED || st == DVC_ERR_INTERNAL) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s", dvc_error_message());
                st = not_cert(i, w.ti, msg);
            }
            goto done;
        }
        r->steps_done = i + 1;
    }
done:
    lws_clear(&w);
    dvc_prec_set(saved);
    free(px);
    free(py);
    return st;
}

dvc_status dvc_lognorm_run(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                           const dvc_lognorm_opts *o)
{
    return engine(r, info, p, o, NULL, NULL, 1, NULL, NULL);
}

dvc_status dvc_lognorm_certify(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                               const dvc_lognorm_opts *o, const double *xs, const double *ys)
{
    if (xs == NULL) return dvc_error(DVC_ERR_INPUT, "lognorm: no predictor given");
    return engine(r, info, p, o, xs, ys, 0, NULL, NULL);
}

dvc_status dvc_lognorm_certify_stream(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                                      const dvc_lognorm_opts *o, dvc_dlvi_source src, void *src_ctx)
{
    if (src == NULL) return dvc_error(DVC_ERR_INPUT, "lognorm: no predictor source given");
    return engine(r, info, p, o, NULL, NULL, 0, src, src_ctx);
}
