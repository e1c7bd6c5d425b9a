/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the DLVI engine, src/dlvi/ (one file per job, following
 * docs/bounds.md):
 *   types.c      problem, options and result records (the result arrays);
 *   setup.c      validation, workspace, certified constants (section 3),
 *                functions of time through their callbacks;
 *   predict.c    the floating-point predictor (theta step + LVI predictor);
 *   cert_step.c  certification of grid point 0 and of each step, one
 *                function per bound (sections 1-8);
 *   fast.c       the binary64 kernels of the step certification (section 8);
 *   driver.c     the loop shared by run and certify, progress, precision retry;
 *   scale.c      scaling of the state by powers of two (section 12). */
#ifndef DVC_DLVI_INTERNAL_H
#define DVC_DLVI_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "dvicert/dlvi.h"
#include "lvi_internal.h"

/* window != 0: only two grid rows and one step slot (streaming, see
 * dvc_dlvi_opts.sink); the index macros below map i to its slot. */
/* M proven a P-matrix (LVI solver set up at precision prec) and beta_M
 * bounded, into r. */
dvc_status dvc_dlvi_prove_beta_(dvc_dlvi_result_t r, dvc_lvi_solver_t solver, int *solver_ok,
                                const dvc_dlvi_problem_t p, const dvc_beta_opts *bo, mpfr_prec_t prec);
dvc_status dvc_dlvi_result_alloc_(dvc_dlvi_result_t r, long n, long m, long N, mpfr_prec_t prec,
                                  int window);
#define DVC_RROW(r, i) ((r)->window ? ((i) & 1) : (i))
#define DVC_RSTP(r, i) ((r)->window ? 0 : (i))
/* Grid point i of r (and step i - 1 before it) as a sink receives it, from
 * the rows r holds (both engines' emit). */
void dvc_dlvi_point_at_(dvc_dlvi_point *pt, const dvc_dlvi_result_struct *r, long i);

/* MPFI has no mpfi_inits2 / mpfi_clears: NULL-terminated lists. */
static inline void dvc_dlvi_iinits_(mpfr_prec_t prec, mpfi_ptr x, ...)
{
    va_list ap;
    va_start(ap, x);
    while (x != NULL) {
        mpfi_init2(x, prec);
        x = va_arg(ap, mpfi_ptr);
    }
    va_end(ap);
}

static inline void dvc_dlvi_iclears_(mpfi_ptr x, ...)
{
    va_list ap;
    va_start(ap, x);
    while (x != NULL) {
        mpfi_clear(x);
        x = va_arg(ap, mpfi_ptr);
    }
    va_end(ap);
}

/* ---- binary64 kernels of the step certification (fast.c) ---------------
 * Used when the working precision is 53 bits: same operations in the same
 * order as the MPFI path, inf-sup with directed rounding, so the bounds
 * are the MPFI ones (bit for bit in the normal range, never tighter).
 * Nonzero return: a non-finite value appeared; the caller then redoes the
 * step with MPFI. Setting the environment variable DVC_DLVI_NOFAST (tests)
 * forces the MPFI path. */
typedef struct {
    long r;
    long *start, *col; /* nonzero entries by row */
    double *lo, *hi;   /* outward binary64 copies of the endpoints */
    int ok;            /* every endpoint finite */
} dvc_dlvi_fspm;

/* Row-compressed pattern of the entries of A that are not exactly [0, 0]
 * (shared by the MPFI and the binary64 sparse copies): start needs A->r + 1
 * slots, col A->r * A->c; returns the number of entries kept. */
long dvc_dlvi_pattern_(long *start, long *col, const dvc_imat_t A);

int dvc_dlvi_fspm_build_(dvc_dlvi_fspm *S, const dvc_imat_t A);
void dvc_dlvi_fspm_clear_(dvc_dlvi_fspm *S);

/* Inf-sup interval kernels, to be called under FE_UPWARD (upper bounds
 * rounded up, lower bounds as -(upper bound of the negation)). */
/* [lo, hi] <- [al, ah] * [bl, bh] (MPFI's result: the extreme exact
 * products rounded outward) */
static inline void dvc_fi_mul_(double al, double ah, double bl, double bh, double *lo, double *hi)
{
    if (al == ah) {
        double a = al, na = -al;
        if (a >= 0) {
            *hi = a * bh;
            *lo = -(na * bl);
        } else {
            *hi = a * bl;
            *lo = -(na * bh);
        }
        return;
    }
    {
        double nal = -al, nah = -ah;
        double h1 = al * bl, h2 = al * bh, h3 = ah * bl, h4 = ah * bh;
        double l1 = nal * bl, l2 = nal * bh, l3 = nah * bl, l4 = nah * bh;
        double h = h1 > h2 ? h1 : h2, l = l1 > l2 ? l1 : l2;
        if (h3 > h) h = h3;
        if (h4 > h) h = h4;
        if (l3 > l) l = l3;
        if (l4 > l) l = l4;
        *hi = h;
        *lo = -l;
    }
}

/* magnitude of [lo, hi] (NaN: +inf) */
static inline double dvc_fi_mag_(double lo, double hi)
{
    double a = lo < 0 ? -lo : lo, b = hi < 0 ? -hi : hi;
    if (lo != lo || hi != hi) return __builtin_inf();
    return a > b ? a : b;
}

/* lo/hi[i] += sum_k S_ik [xlo_k, xhi_k] in MPFI's order (under FE_UPWARD) */
void dvc_dlvi_spm_addmul_u_(double *lo, double *hi, const dvc_dlvi_fspm *S, const double *xlo, const double *xhi);

/* q = g + Q x (x point): 0, or -1 when not finite. */
int dvc_dlvi_fast_q_(double *qlo, double *qhi, const dvc_dlvi_fspm *Q, const double *x,
                    const double *glo, const double *ghi);

typedef struct {
    long n;
    const dvc_dlvi_fspm *A, *B;
    const double *x0, *x1;                 /* x^i, x^{i+1} */
    const double *f0lo, *f0hi, *f1lo, *f1hi; /* f(t_i), f(t_{i+1}) */
    const double *y0lo, *y0hi, *y1lo, *y1hi; /* [yhat^i], [yhat^{i+1}] */
    double thlo, thhi, hlo, hhi;           /* theta, h */
    double *wlo, *whi, *zlo, *zhi;         /* scratch, n each */
    /* out, rounded up: ||A x^i + B yhat^i + f(t_i)||, ||delta_i||,
     * ||x^{i+1} - x^i|| */
    double v0n, dn, dx;
} dvc_dlvi_fast_io;

int dvc_dlvi_fast_step_(dvc_dlvi_fast_io *io);

/* The scalar recursion of one step (docs/bounds.md sections 3, 4, 6), all
 * rounded up; inputs are upper bounds. */
typedef struct {
    double L, bnB, eLh, phi, a0, a1, invD, beta, nQ, hhi; /* constants */
    double eps_i, v0n, Lf, Lg, dn, dx, ydev;             /* step data */
    double Lx, cc, eps, eps_y, ry;                       /* out */
} dvc_dlvi_fast_rec;

int dvc_dlvi_fast_recur_(dvc_dlvi_fast_rec *c);

/* max_k |[ylo_k, yhi_k] - y_k|, rounded up. */
double dvc_dlvi_fast_ydev_(const double *ylo, const double *yhi, const double *y, long m);


/* ---- the engine's workspace ------------------------------------------- */

/* Step constants for one value of the LVI Lipschitz constant beta (the
 * global beta_M bound, or a local one when sharpening). Upper bounds. */
typedef struct {
    mpfr_t beta, bnB, bnBnQ, L, invD, a0, a1, eLh, phi;
    double d_beta, d_bnB, d_L, d_invD, d_a0, d_a1, d_eLh, d_phi; /* rounded up */
} consts_t;

/* Nonzero entries of an interval matrix, by row (chains of masses are
 * sparse; exact zeros cost nothing in the products). */
typedef struct {
    long r, nnz;
    long *start;     /* r + 1 */
    long *col;
    mpfi_ptr *val;
} spm_t;

typedef struct {
    const dvc_dlvi_problem_struct *p;
    const dvc_dlvi_opts *o;
    long n, m, N, lip_block;
    mpfr_prec_t prec;
    int sharpen;
    dvc_tfun_cb f, g;
    /* certification */
    dvc_lvi_solver_t solver;
    int solver_ok;
    dvc_lvi_result_t lres, lbox;
    mpfi_t h, theta, omt, ti, tn, tstep, tblk, s, u;
    mpfr_t nA, nB, nQ, hhi;
    consts_t glob, loc;
    int loc_valid, loc_better;
    int *loc_pat;
    dvc_ivec_t Fi, Fn, Gn, Gstep, q, qbox, w, X0, X1, Z, Xbox;
    spm_t sA, sB, sQ;
    mpfr_t pmax_x, pmax_y;
    mpfr_t eps_i, eps, v0n, v0, Lx, Lf, Lg, dn, dx, cc, r1, r2, Lf_blk, Lg_blk;
    long blk_id;
    /* binary64 path (fast.c) at 53 bits */
    int fast;
    dvc_dlvi_fspm fA, fB, fQ;
    double *fbuf, *f0lo, *f0hi, *f1lo, *f1hi, *glo, *ghi, *qlo, *qhi, *y0lo, *y0hi, *y1lo, *y1hi;
    double *wlo, *whi, *zlo, *zhi;
    double d_thlo, d_thhi, d_hlo, d_hhi, d_nQ, d_Lf, d_Lg;
    int fd_ready;    /* f1lo/hi, glo/hi already hold Fn, Gn */
    int fg_ready;    /* Fn, Gn already hold f, g at t_{i+1} (run mode) */
    /* predictor (doubles) */
    double hd, thd;
    double *Ad, *Bd, *Qd, *Md, *ld, *ud, *W, *WB, *Mp, *fv, *gv, *rv, *pv, *qv;
    long *lspiv;     /* pivots of the floating LU */
    dvc_lvi_pred_ws lpw; /* the LVI predictor's workspace (m > 0) */
    int lpw_ok;
} ws_t;

/* Double rounded up (a valid upper bound to store). */
static inline double dvc_dlvi_up_d_(const mpfr_t x) { return mpfr_get_d(x, MPFR_RNDU); }

/* mpfr_get_d(x, rnd), faster for the common case: a regular number of at
 * most 53 bits in the normal range of binary64 is a double, assembled
 * exactly from its significand (MPFR's custom interface). */
static inline double dvc_dlvi_fr_to_d_(mpfr_srcptr x, mpfr_rnd_t rnd)
{
#if GMP_NUMB_BITS == 64
    if (mpfr_get_prec(x) <= 53 && mpfr_regular_p(x)) {
        mpfr_exp_t e = mpfr_custom_get_exp(x);
        if (e >= -1021 && e <= 1024) {
            const mp_limb_t *l = mpfr_custom_get_significand(x);
            uint64_t bits = ((uint64_t)(e - 1 + 1023) << 52) | (((uint64_t)l[0] >> 11) & 0xFFFFFFFFFFFFFull);
            double d;
            if (mpfr_signbit(x)) bits |= (uint64_t)1 << 63;
            memcpy(&d, &bits, sizeof d);
            return d;
        }
    }
#endif
    return mpfr_get_d(x, rnd);
}

/* ---- setup.c ---- */
void dvc_dlvi_consts_init_(consts_t *c, mpfr_prec_t prec);
void dvc_dlvi_consts_clear_(consts_t *c);
/* Upper bound of ||v||_inf (NaN-safe: +inf). */
void dvc_dlvi_ivec_norm_(mpfr_t r, const dvc_ivec_t v, mpfr_t tmp);
/* out[i] += sum_j S_ij x_j */
void dvc_dlvi_spm_addmul_(dvc_ivec_t out, const spm_t *S, const mpfi_t *x, mpfi_t tmp);
/* f, g through their callbacks: checked copy, enclosure (finite),
 * Lipschitz bound (finite), predictor value; eval == NULL means zero. */
dvc_status dvc_dlvi_tf_resolve_(dvc_tfun_cb *out, const dvc_tfun_cb *cb, long k, const char *name);
dvc_status dvc_dlvi_tf_eval_(const dvc_tfun_cb *f, dvc_ivec_t out, const mpfi_t t, const char *name);
dvc_status dvc_dlvi_tf_lip_(const dvc_tfun_cb *f, mpfr_t out, const mpfi_t t, const char *name);
void dvc_dlvi_tf_eval_d_(const dvc_tfun_cb *f, double *out, double t, long k);
void dvc_dlvi_ws_zero_(ws_t *w);
void dvc_dlvi_ws_clear_(ws_t *w);
/* DVC_ERR_INPUT naming the field for a problem the engine cannot take. */
dvc_status dvc_dlvi_validate_(const dvc_dlvi_problem_struct *p);
/* Grid time t_i into t: i h for the uniform step h = T/N (the caller's
 * enclosure), or, when p->h > 0, i p->h for i < N and T for i = N, or
 * p->grid[i] (or the time of p->grid_src). This and the two below return
 * DVC_OK, or the error of times on demand (a file changed). */
dvc_status dvc_dlvi_time_(mpfi_t t, const dvc_dlvi_problem_struct *p, const mpfi_t h, long i);
/* DVC_ERR_INPUT naming 'grid' and the route when p has a time grid (a
 * route that cannot step on it). */
dvc_status dvc_dlvi_grid_refuse_(const dvc_dlvi_problem_struct *p, const char *route);
/* r->grid becomes p's time grid (explicit times copied; times on demand
 * a view of p's source). */
dvc_status dvc_dlvi_result_set_grid_(dvc_dlvi_result_t r, const dvc_dlvi_problem_struct *p);
/* p->grid: the length grid[i+1] - grid[i] of step i, enclosed. */
dvc_status dvc_dlvi_step_len_(mpfi_t h, const dvc_dlvi_problem_struct *p, long i);
/* p->h > 0: the length T - (N-1) h of the last step, enclosed. */
dvc_status dvc_dlvi_hlast_(mpfi_t out, const dvc_dlvi_problem_struct *p);
/* Before the shorter last step: the step length, its constants and the
 * predictor's matrices (predict != 0) set for it (docs/bounds.md,
 * "A last step shorter than h"). */
dvc_status dvc_dlvi_last_step_(ws_t *w, int predict);
/* Step constants for beta (section 3); 0 when D > 0 is not proven. */
int dvc_dlvi_make_consts_(ws_t *w, consts_t *c, const mpfr_t beta);
/* Workspace, result arrays, P proof, beta_M, norms, step condition. */
dvc_status dvc_dlvi_ws_init_(ws_t *w, dvc_dlvi_result_t r, const dvc_dlvi_problem_struct *p,
                             const dvc_dlvi_opts *o);

/* ---- predict.c ---- */
/* Double copies of the data for the predictor. */
dvc_status dvc_dlvi_pred_alloc_(ws_t *w, const dvc_dlvi_problem_struct *p, double hd);
/* W = (I - h(1-theta)A)^{-1}, WB = W B, M' = M + h Q W B. */
dvc_status dvc_dlvi_pred_setup_(ws_t *w);
/* y^0 from x^0. */
dvc_status dvc_dlvi_pred_y0_(ws_t *w, const double *x, double *y);
/* One theta step: x1, y1 from x0 at t1. */
dvc_status dvc_dlvi_pred_step_(ws_t *w, const double *x0, double *x1, double *y1, double t1,
                               int have_fg);

/* ---- cert_step.c ---- */
/* Grid point 0: eps_x[0], [yhat^0], eps_y[0], f(0). */
dvc_status dvc_dlvi_cert_start_(ws_t *w, dvc_dlvi_result_t r, int have_y);
/* Every bound of step i, or DVC_NOT_CERTIFIED naming step, time and reason. */
dvc_status dvc_dlvi_cert_step_(ws_t *w, dvc_dlvi_result_t r, long i, int have_y);
/* Outward binary64 copy of an interval vector. */
void dvc_dlvi_ivec_to_d_(double *lo, double *hi, const dvc_ivec_t v);

#endif
