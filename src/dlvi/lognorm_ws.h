/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the time stepping of the lognorm route (docs/lognorm.md,
 * sections 3-6 and 10): the workspace of a run and the functions its files
 * share.
 *   lognorm_ws.c      the workspace, its binary64 buffers and the copies
 *                     between binary64 and MPFI
 *   lognorm_defect.c  the defect of a step (section 4)
 *   lognorm_lohner.c  the error-set propagation (section 5d)
 *   lognorm_step.c    the integrated inequality, the step, the grid points
 *   lognorm_driver.c  setup, the run over the grid, the sink, the entry points
 * The norms and Jacobians are in lognorm_internal.h. */
#ifndef DVC_DLVI_LOGNORM_WS_H
#define DVC_DLVI_LOGNORM_WS_H

#include "dlvi/lognorm_internal.h"

/* The slot of grid point i and of step i in info's per-step arrays (the
 * result's: DVC_RROW, DVC_RSTP) */
#define LN_GRID(w, i) ((w)->win ? ((i) & 1) : (i))
#define LN_STEP(w, i) ((w)->win ? 0 : (i))

/* Which copy of a quantity is current. At 53 bits the step runs in
 * binary64 where it can (docs/lognorm.md section 10) and keeps a quantity
 * in doubles until an MPFI part of the step needs it; the other copy is
 * made then. BOTH: the two hold the same endpoints. */
typedef enum {
    DVC_LN_NONE = 0,
    DVC_LN_BINARY64 = 1,
    DVC_LN_MPFI = 2,
    DVC_LN_BOTH = 3
} dvc_ln_copy;

/* The quantities held in two copies (doubles / MPFI). */
typedef enum {
    DVC_LNQ_X,      /* dx, x_mid, the box X: dxl.., xml.., Xl.. / dx, xm, X */
    DVC_LNQ_DEFECT, /* the defect's ends and boxes: avl, avh, rpl, rph / av, rp */
    DVC_LNQ_DI,     /* the pieces' mean defect norms: Did / Di */
    DVC_LNQ_EBOX,   /* the error set's box of e(t_{i+1}): ol, oh / pv */
    DVC_LNQ_LR,     /* r of the error set: Lrl, Lrh / Lr */
    DVC_LNQ_CSTEP,  /* the step's derivative enclosure C: Cl, Ch / Cs */
    DVC_LNQ_FSTEP,  /* the step's enclosure of f': Fsl, Fsh / Fs */
    DVC_LNQ_FMID,   /* f at the time piece_deriv was asked about: fm (MPFI only) */
    DVC_LNQ_GCONST, /* a constant g: gcl, gch / gc */
    DVC_LNQ_H,      /* h's ends hd_lo, hd_hi, for the h in hconv (binary64 only) */
    DVC_LNQ_COUNT
} dvc_ln_qty;

typedef struct {
    const dvc_dlvi_problem_struct *p;
    const dvc_lognorm_opts *o;
    dvc_lognorm_info_struct *info;
    /* streaming (a sink): r and info's per-step arrays hold a window, the
     * grid points i at i & 1 and the step at 0 (LN_GRID, LN_STEP) */
    int win;
    int grid_view; /* r->grid a view of p's times, not a copy (enclose --from) */
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
    /* binary64 path at 53 bits (lognorm_fast.c); which copy of each
     * quantity is current: copy[], through dvc_ln_has_ / dvc_ln_set_ */
    int fast;
    unsigned char copy[DVC_LNQ_COUNT];
    dvc_dlvi_fspm fA, fB, fQ, *fG;
    /* the binary64 copies (fbuf holds them all); this step's C and f' in
     * Cl, Ch and Fsl, Fsh (DVC_LNQ_CSTEP, DVC_LNQ_FSTEP) */
    double *fbuf, *avl, *avh, *rpl, *rph, *fkl, *fkh, *gkl, *gkh, *yml, *ymh, *gml, *gmh, *fml, *fmh, *Fsl, *Fsh,
        *Cl, *Ch, *c0d, *Dpd, *Did, *scr, *Lrl, *Lrh, *ol, *oh, *lscr;
    /* the step's dx, x_mid and hull(x^i, x^{i+1}) (later the a priori box)
     * as doubles, a q in doubles (DVC_LNQ_X) */
    double *dxl, *dxh, *xml, *xmh, *Xl, *Xh, *ql, *qh, *gql, *gqh;
    /* conversions kept from step to step (binary64 path): a constant g
     * (DVC_LNQ_GCONST) in gcl, gch; T's upper end; h's ends, for the h in
     * hconv (DVC_LNQ_H). reuse (dvc_lognorm_opts.reuse): these, the kept
     * ||G_F|| and the binary64 copies of MPFI operations (exp(J u), the
     * pieces' times) are used (tests compare both, bit for bit) */
    int reuse;
    double *gcl, *gch, Td, hd_lo, hd_hi;
    mpfi_t hconv;
    /* ||G_k||_inf of slot k (a slot's G never changes), when gn_ok[k] */
    mpfr_t *gn;
    char *gn_ok;
} lws;

/* Whether copy c (DVC_LN_BINARY64 or DVC_LN_MPFI) of q is current. */
static inline int dvc_ln_has_(const lws *w, dvc_ln_qty q, dvc_ln_copy c)
{
    return (w->copy[q] & c) == c && c != DVC_LN_NONE;
}

/* Exactly the copies c of q are current. */
static inline void dvc_ln_set_(lws *w, dvc_ln_qty q, dvc_ln_copy c) { w->copy[q] = (unsigned char)c; }

/* Copy c of q made current as well (a conversion). */
static inline void dvc_ln_add_(lws *w, dvc_ln_qty q, dvc_ln_copy c) { w->copy[q] |= (unsigned char)c; }

/* ---- lognorm_ws.c ---- */
void dvc_ln_ws_init_(lws *w, long n, long m, mpfr_prec_t prec);
void dvc_ln_ws_clear_(lws *w);
/* The defect's K pieces (av, rp, Dp, Di). */
dvc_status dvc_ln_ws_pieces_(lws *w, long K);
/* The binary64 path and its buffers (at 53 bits, when every matrix entry
 * is a double). */
dvc_status dvc_ln_fast_init_(lws *w);
/* The error set's storage (o->error_set). */
dvc_status dvc_ln_lohner_init_(lws *w);
/* f proven constant on [0, T]: served from store (dvc_ln_cst_eval_). */
void dvc_ln_const_cb_(lws *w, dvc_tfun_cb *f, dvc_ivec_t store);
dvc_status dvc_ln_cst_eval_(dvc_ivec_t out, const mpfi_t t, void *ctx);
void dvc_ln_swap_(dvc_ivec_t a, dvc_ivec_t b);
void dvc_ln_mv_(lws *w, dvc_ivec_t out, const dvc_imat_t M, const dvc_ivec_t x);
void dvc_ln_ninf_(lws *w, mpfr_t out, const dvc_ivec_t v);
void dvc_ln_imag_(lws *w, mpfr_t out, const mpfi_t x);
void dvc_ln_q_of_(lws *w, dvc_ivec_t out, const dvc_ivec_t x, const dvc_ivec_t g);
int dvc_ln_q_fast_(lws *w, dvc_ivec_t out, const double *xl, const double *xh, const dvc_ivec_t g);
double dvc_ln_qnorm_d_(lws *w, const dvc_dlvi_fspm *G, const double *lo, const double *hi);
void dvc_ln_to_d_(double *lo, double *hi, const dvc_ivec_t v);
void dvc_ln_from_d_(dvc_ivec_t v, const double *lo, const double *hi);
void dvc_ln_h_d_(lws *w, double *lo, double *hi);
void dvc_ln_x_mpfi_(lws *w);
void dvc_ln_defect_mpfi_(lws *w);
void dvc_ln_lr_mpfi_(lws *w);
void dvc_ln_pv_mpfi_(lws *w);

/* ---- lognorm_defect.c ---- */
long dvc_ln_box_pattern_(const dvc_lvi_result_t lr, dvc_status st, long m);
long dvc_ln_pat_slot_(lws *w, long bits);
dvc_status dvc_ln_defect_data_(lws *w, dvc_dlvi_result_t r, long i, long *pat);
int dvc_ln_defect_norm_(lws *w, const dvc_lognorm_info_struct *nr);

/* ---- lognorm_lohner.c ---- */
void dvc_ln_lohner_reset_(lws *w, const mpfr_t rad);
int dvc_ln_lohner_step_(lws *w, long pat, dvc_ivec_t out);
int dvc_ln_lohner_change_(lws *w, const mpfr_t rad, dvc_ivec_t out);

/* ---- lognorm_step.c ---- */
dvc_status dvc_ln_grid_point_(lws *w, dvc_dlvi_result_t r, long j, const mpfi_t t, int have_y);
dvc_status dvc_ln_step_(lws *w, dvc_dlvi_result_t r, long i, int have_y);

#endif
