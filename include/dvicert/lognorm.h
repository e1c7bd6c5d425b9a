/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The one-sided-Lipschitz ("lognorm") certification route for DLVIs
 * (derivation: docs/lognorm.md). For a P-matrix M the right-hand side
 * F(t, x) = A x + B S(Q x + g(t)) + f(t) is piecewise affine in x with the
 * piece Jacobians J_D = A - B (I - D + DM)^{-1} D Q, D = diag(1_F); in a
 * norm ||.||_W with log norm mu_W(J_D) <= mu for every D, the error e of
 * any continuous piecewise-C^1 approximation p with defect d obeys
 * D+||e||_W <= mu ||e||_W + ||d||_W. The route bounds sup ||d||_W over
 * every step of the linear interpolant of a predictor and integrates that
 * inequality step by step; on steps with one certified pattern it also
 * propagates the error set through exp(J_D h) (Lohner's method). */
#ifndef DVICERT_LOGNORM_H
#define DVICERT_LOGNORM_H

#include "dvicert/dlvi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Patterns are enumerated up to this m (2^m Jacobians); beyond (up to
 * m = 62) the log norm is bounded over an interval hull of all of them. */
#define DVC_LOGNORM_M_MAX 12

/* Pieces per step for trajectories of other tools (dvicert enclose
 * --from): their nodes are accurate (high order), so the remainder of the
 * f, g variation inside a piece, not the node error, must stay small. */
#define DVC_LOGNORM_PIECES_EXT 8

typedef enum {
    DVC_LOGNORM_AUTO = 0, /* both norms below; the smaller certified mu wins */
    DVC_LOGNORM_DIAG,     /* ||x||_W = max_k w_k |x_k| (diagonal scaling of the inf norm) */
    DVC_LOGNORM_QUAD      /* ||x||_P = sqrt(x^T P x), P = R^T R (R upper triangular, doubles) */
} dvc_lognorm_kind;

/* The predictor of dvc_lognorm_run (its nodes, joined by straight lines,
 * are what the route certifies). */
typedef enum {
    DVC_LOGNORM_PRED_THETA = 0, /* the theta method of the engine (dvc_dlvi_predict), order 1 */
    DVC_LOGNORM_PRED_HEUN       /* Heun's method (explicit trapezoidal rule), order 2 */
} dvc_lognorm_predictor;

/* A norm stated by a certificate, proven again as it is instead of
 * searched (verification: a binary64 search on another build could find
 * another norm). */
typedef struct {
    dvc_lognorm_kind kind; /* DIAG or QUAD */
    const double *v;       /* DIAG: n weights > 0; QUAD: n x n R, row-major, upper triangular */
    long pattern;          /* a mode norm: the pattern it was fitted to (bit a: y_a free); -1 the run's norm */
} dvc_lognorm_stated;

typedef struct {
    dvc_lognorm_kind norm;
    /* The defect is bounded on this many equal pieces of each step
     * (f, g frozen at its midpoint plus their derivative enclosures over
     * the piece). Default 4, at most 64. */
    long pieces;
    /* Use the log norm of the single pattern certified over a step's a
     * priori box instead of the global mu (default 1). */
    int local_mu;
    /* Follow the mode (default 1, quadratic norms only): on a step with one
     * certified pattern D, measure the error in a norm fitted to J_D alone,
     * paying the proven ratio of the two norms at the switch. */
    int mode_follow;
    /* Also propagate the error set c + B r through exp(J h) on steps with
     * one certified pattern (default 1): the grid bound is the smaller of
     * the two. */
    int error_set;
    /* Use the derivative enclosures of f and g (dvc_tfun_cb.deriv, where
     * given) on each piece, so that their variation inside a piece enters
     * the defect with its sign (default 1). */
    int use_deriv;
    /* The predictor of dvc_lognorm_run (default theta). */
    dvc_lognorm_predictor predictor;
    /* Norms given instead of searched (NULL: searched; not owned):
     * stated[0] the run's norm (pattern -1), then the mode norms. With
     * stated set, a mode norm is used only where one is stated for the
     * pattern, and every stated norm is proven again or the run refuses. */
    const dvc_lognorm_stated *stated;
    long n_stated;
    /* The binary64 kernels at 53 bits (default 1; docs/lognorm.md section
     * 10): every enclosure as MPFI gives it. 0: every step in MPFI (tests
     * compare the two). */
    int binary64;
    /* Conversions kept from step to step and binary64 copies of MPFI
     * operations on that path (default 1). 0 changes no bit, only the
     * speed (tests compare the two, bound for bound). */
    int reuse;
    /* Predictor (theta method) and beta_M options; dlvi.prec, else the
     * problem's precision, is the precision of the whole run. */
    dvc_dlvi_opts dlvi;
} dvc_lognorm_opts;

void dvc_lognorm_opts_default(dvc_lognorm_opts *o);

/* The certified norm and the data of a run. Everything rounded up. */
typedef struct {
    long n, m;
    dvc_lognorm_kind kind;  /* DIAG or QUAD */
    double *w;              /* DIAG: n weights (exact doubles) */
    double *R;              /* QUAD: n x n upper triangular, row-major; P = R^T R */
    mpfr_t mu;              /* mu_W(J_D) <= mu for every pattern D */
    long npat;              /* 2^m (m <= DVC_LOGNORM_M_MAX), else the slots of the hull mode */
    mpfr_t *mu_pat;         /* npat: certified mu_W(J_D), D = diag of the bits of the index
                             * (hull mode: of the pattern held by the slot) */
    int hull;               /* mu bounded over the interval hull of the J_D (m > DVC_LOGNORM_M_MAX) */
    mpfr_t c_inf;           /* ||v||_inf <= c_inf ||v||_W */
    mpfr_t c_Q;             /* ||Q v||_inf <= c_Q ||v||_W */
    /* of a run (N + 1 / N entries, NULL before; with a sink only the
     * window: grid point i at i & 1, step i at 0) */
    long N;
    double *E;              /* E[i] >= ||x(t_i) - x^i|| in the norm norm_used[i] */
    double *dW;             /* dW[i] >= sup over step i of ||d(t)|| (norm of E[i+1]) */
    double *mu_step;        /* log-norm constant used on step i */
    double *rad;            /* rad[i] >= ||x(t_i) - x^i||_inf (grid points) */
    int *norm_used;         /* norm of E[i]: 0 the norm above, j > 0 the j-th mode norm */
    long n_modes;           /* mode norms created */
    long *mode_pattern;     /* n_modes: the pattern each mode norm was fitted to, in creation order */
    double *mode_R;         /* n_modes x n x n: their R (quadratic norms) */
    long n_switch;          /* norm switches */
    long n_affine;          /* steps whose defect used the certified affine piece */
    long n_local;           /* steps that used a single pattern's mu */
    long n_set;             /* steps propagated by the error set */
    long n_deriv;           /* pieces whose f, g variation used the derivative enclosures */
    long n_piece_aff;       /* pieces of pattern-change steps with one certified pattern of their own */
    long n_fast;            /* steps whose defect was bounded by the binary64 kernels (53 bits) */
} dvc_lognorm_info_struct;
typedef dvc_lognorm_info_struct dvc_lognorm_info_t[1];

void dvc_lognorm_info_init(dvc_lognorm_info_t info);
void dvc_lognorm_info_clear(dvc_lognorm_info_t info);

/* Choose and certify the norm for p (no time stepping): info->kind, w or
 * R, mu, mu_pat, c_inf, c_Q. DVC_NOT_CERTIFIED when M is not proven P, or
 * a Jacobian / log norm (or, for m > DVC_LOGNORM_M_MAX, the interval hull
 * of the Jacobians) cannot be certified;
 * DVC_ERR_INPUT for a bad problem. */
dvc_status dvc_lognorm_norm(dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                            const dvc_lognorm_opts *o);

/* Full run: the predictor o->predictor (theta: the engine's,
 * dvc_dlvi_predict; heun: Heun's method on the same grid), then
 * the certification. Fills r as dvc_dlvi_run does (x, y, yhat, eps_x,
 * eps_y, ry, Lg; delta[i] holds dW[i], beta_step[i] the LVI constant used
 * on step i, Lx and Lf 0), so dvc_dlvi_tube_x / dvc_dlvi_tube_y apply, and info as
 * dvc_lognorm_norm plus the per-step data. DVC_NOT_CERTIFIED names the
 * step and the quantity; r->steps_done steps remain valid. When
 * o->dlvi.sink is set, grid point 0 and every certified step are handed to
 * it in order, as the Algorithm 4.2 engine does, and the run streams: the
 * predictor is computed point by point and r keeps only the last two grid
 * points (r->window = 1, as dvc_dlvi_run with a sink), info's per-step
 * arrays likewise (grid point i at i & 1, step i at 0), so memory does
 * not grow with N. */
dvc_status dvc_lognorm_run(dvc_dlvi_result_t r, dvc_lognorm_info_t info, const dvc_dlvi_problem_t p,
                           const dvc_lognorm_opts *o);

/* Certification of a given predictor xs ((N+1) x n, p->N steps on the
 * uniform grid; ys (N+1) x m may be NULL: then y[] gets the midpoints of
 * the LVI enclosures). */
dvc_status dvc_lognorm_certify(dvc_dlvi_result_t r, dvc_lognorm_info_t info,
                               const dvc_dlvi_problem_t p, const dvc_lognorm_opts *o,
                               const double *xs, const double *ys);

/* The same, with the predictor handed over point by point by src (i =
 * 0..N in order, x^{i+1} just before step i; y always given), e.g. by a
 * certificate reader verifying in lockstep through o->dlvi.sink. */
dvc_status dvc_lognorm_certify_stream(dvc_dlvi_result_t r, dvc_lognorm_info_t info,
                                      const dvc_dlvi_problem_t p, const dvc_lognorm_opts *o,
                                      dvc_dlvi_source src, void *src_ctx);

const char *dvc_lognorm_kind_name(dvc_lognorm_kind k);

#ifdef __cplusplus
}
#endif
#endif
