/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the lognorm route: the piece Jacobians (lognorm_jac.c), the
 * norm (lognorm_norm.c) and the binary64 kernels (lognorm_fast.c); the
 * time stepping's own header is lognorm_ws.h (docs/lognorm.md lists the
 * files). */
#ifndef DVC_DLVI_LOGNORM_INTERNAL_H
#define DVC_DLVI_LOGNORM_INTERNAL_H

#include "dlvi/internal.h"
#include "dvicert/lognorm.h"

/* The piece Jacobians, in slots. For m <= DVC_LOGNORM_M_MAX every pattern
 * has its slot (slot k: bit a of k set when y_a is free). Beyond, the hull
 * mode: the slots hold the patterns met so far (key[k] its bits; at most
 * cap), and Jh encloses the Jacobians of every pattern (docs/lognorm.md
 * section 2). */
typedef struct {
    long n, m, npat, cap;
    int hull;
    long *key;      /* cap: the pattern of slot k */
    dvc_imat_t *J;  /* cap, n x n: A + B G_k Q */
    dvc_imat_t *G;  /* cap, m x m: -E_F (M_FF)^{-1} E_F^T */
    double *Jd;     /* cap * n * n midpoints (the norm search) */
    dvc_imat_t Jh;  /* n x n: contains J_D for every D */
    const dvc_dlvi_problem_struct *p;
} dvc_lognorm_jac;

/* Heun's method (explicit trapezoidal rule, order 2) as the predictor
 * (src/dlvi/predict.c): xs (N+1) x n, ys (N+1) x m, y^i = S(Q x^i + g(t_i))
 * in doubles. Nothing here is a bound. */
dvc_status dvc_dlvi_predict_heun_(double *xs, double *ys, const dvc_dlvi_problem_struct *p);
/* The theta (heun = 0) or Heun predictor point by point, the same values:
 * dvc_dlvi_pstream_next_ is a dvc_dlvi_source (ctx: the stream; i = 0..N
 * in order), so a streaming run holds one point. Close also after a
 * failed open. */
typedef struct dvc_dlvi_pstream dvc_dlvi_pstream;
dvc_status dvc_dlvi_pstream_open_(dvc_dlvi_pstream **s, const dvc_dlvi_problem_struct *p, int heun);
dvc_status dvc_dlvi_pstream_next_(long i, double *x, double *y, void *s);
void dvc_dlvi_pstream_close_(dvc_dlvi_pstream *s);

/* dvc_lognorm_certify_stream with a source of x alone (its y left as
 * is): y^i the midpoints of the LVI enclosures, as dvc_lognorm_certify
 * with ys NULL, so that a trajectory read point by point (enclose --from)
 * gives the certificate of the whole array. r's grid is a view of p's
 * times (not a copy): p must outlive r's use of it. */
dvc_status dvc_lognorm_certify_stream_x_(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                                         const dvc_lognorm_opts *o, dvc_dlvi_source src, void *src_ctx);

/* Slots kept in the hull mode. */
#define DVC_LOGNORM_SLOTS 64

dvc_status dvc_lognorm_jac_init_(dvc_lognorm_jac *J, const dvc_dlvi_problem_struct *p, mpfr_prec_t prec);
void dvc_lognorm_jac_clear_(dvc_lognorm_jac *J);
/* The slot of the pattern bits (created in the hull mode), or -1 when it
 * is full or the piece cannot be enclosed. */
long dvc_lognorm_jac_slot_(dvc_lognorm_jac *J, long bits);
/* mu_pat[slot] of a norm for a slot created after the norm was chosen. */
dvc_status dvc_lognorm_pat_mu_(dvc_lognorm_info_t info, const dvc_lognorm_jac *J, long slot, mpfr_prec_t prec);

/* Choose and certify a norm into info. only_pat >= 0: fitted to that
 * pattern's Jacobian alone (a mode norm), searched near R0 when R0 is set
 * (quadratic); mu_pat is certified for every pattern in any case. */
dvc_status dvc_lognorm_choose_(dvc_lognorm_info_t info, const dvc_lognorm_jac *J,
                               const dvc_dlvi_problem_struct *p, dvc_lognorm_kind kind, long only_pat,
                               const double *R0, mpfr_prec_t prec);
/* The norm s (stated by a certificate) into info, proven as the searched
 * ones are (certify_norm); DVC_NOT_CERTIFIED when it is malformed or its
 * constants cannot be proven. */
dvc_status dvc_lognorm_given_(dvc_lognorm_info_t info, const dvc_lognorm_jac *J,
                              const dvc_dlvi_problem_struct *p, const dvc_lognorm_stated *s, mpfr_prec_t prec);
/* c >= sup_v ||v||_b / ||v||_a (two quadratic norms), rounded up. */
dvc_status dvc_lognorm_convert_(mpfr_t c, const dvc_lognorm_info_struct *a, const dvc_lognorm_info_struct *b,
                                mpfr_prec_t prec);

typedef struct {
    mpfr_t a, b;
    mpfi_t z, t;
} dvc_lognorm_scratch;

void dvc_lognorm_scratch_init_(dvc_lognorm_scratch *s, mpfr_prec_t prec);
void dvc_lognorm_scratch_clear_(dvc_lognorm_scratch *s);
/* Upper bound of sup over the interval vector v of ||v||_W. */
void dvc_lognorm_vnorm_(mpfr_t out, const dvc_lognorm_info_struct *info, const dvc_ivec_t v,
                        dvc_lognorm_scratch *s);

/* ---- binary64 kernels at 53 bits (lognorm_fast.c) ----------------------
 * Every function returns 0, or nonzero (and leaves the caller's state
 * untouched) when a value is not finite or a proof fails: the caller then
 * does the same work in MPFI. */

/* The defect's ends on a step with one certified pattern (docs/lognorm.md
 * section 4): end e of piece k at alo/ahi + (2k + e) n. */
typedef struct {
    long n, m, K;
    const dvc_dlvi_fspm *A, *B, *Q, *G;      /* G: the step's pattern (m > 0) */
    const double *xi, *xn;                   /* x^i, x^{i+1} */
    double hlo, hhi;                         /* h */
    const double *ymlo, *ymhi, *gmlo, *gmhi; /* m: [S(q_mid)], g(t_m) */
    const double *gklo, *gkhi;               /* K x m: g(tau_k) */
    int fone;                                /* f(tau_k) = f(t_m) + (tau_k - t_m) [Fs] */
    const double *fmlo, *fmhi, *Fslo, *Fshi; /* n (fone) */
    const double *fklo, *fkhi;               /* K x n: f(tau_k) (not fone) */
    int dk;                                  /* derivative enclosures: C, c0 */
    const double *Clo, *Chi, *c0;            /* piece k at k cstride (0: one for all) */
    long cstride;
    double *alo, *ahi;                       /* out: 2K x n */
    double *rlo, *rhi;                       /* out (dk): K x n, the remainder boxes */
    double *w;                               /* scratch: 12 n + 4 m */
} dvc_lnf_defect_io;

int dvc_lnf_defect_(dvc_lnf_defect_io *io);

/* Upper bound of ||v||_W over the box [lo, hi]. */
double dvc_lnf_vnorm_(const dvc_lognorm_info_struct *nr, const double *lo, const double *hi);

/* Dp[k] = max(||A0||, ||A1||) + ||R_k||, Di[k] = (||A0|| + ||A1||)/2 + ||R_k||,
 * *Dd = max_k Dp[k], all rounded up (the data of dvc_lnf_defect_). */
int dvc_lnf_defect_norm_(const dvc_lognorm_info_struct *nr, long K, const double *alo, const double *ahi,
                         const double *rlo, const double *rhi, double *Dp, double *Di, double *Dd);

/* Orthonormal columns of a (n x n, row-major; modified Gram-Schmidt) into
 * q; 0 when a column vanishes. A frame only: its inverse is enclosed. */
int dvc_lnf_mgs_(double *q, const double *a, long n);

/* One error-set step on a single-pattern step (docs/lognorm.md section
 * 5d): (c, B, r) updated in place, out the box of e(t_{i+1}). */
typedef struct {
    long n, K;
    const double *Plo, *Phi;   /* exp(J h), n x n */
    const double *Pmlo, *Pmhi; /* K x n x n: exp(J u) at the pieces' midpoints */
    const double *Pklo, *Pkhi; /* K x n x n: exp(J u) over the pieces */
    double rho, rho2, hlo, hhi;
    const double *alo, *ahi, *rlo, *rhi; /* the defect (dvc_lnf_defect_io) */
    double *c, *B, *Lrlo, *Lrhi;         /* in/out: the set c + B r */
    double *outlo, *outhi;
    double *w;                           /* scratch: dvc_lnf_lohner_scratch_(n) doubles */
} dvc_lnf_lohner_io;

size_t dvc_lnf_lohner_scratch_(long n);
int dvc_lnf_lohner_(dvc_lnf_lohner_io *io);

#endif
