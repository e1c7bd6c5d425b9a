/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Differential linear variational inequality (Chen & Wang (4.1)):
 *   x'(t) = A x(t) + B y(t) + f(t),
 *   y(t) in SOL(l, u, Q x(t) + g(t), M),   x(0) = x0,  t in [0, T],
 * and the certified time-stepping engine (Algorithm 4.2, re-derived in
 * docs/bounds.md). */
#ifndef DVICERT_DLVI_H
#define DVICERT_DLVI_H

#include "dvicert/imat.h"
#include "dvicert/lvi.h"
#include "dvicert/beta.h"
#include "dvicert/tfun.h"
#include "dvicert/tgrid.h"
#include "dvicert/tube.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest number of steps a problem may ask for (problem files, and the
 * "use N >= ..." suggestion of a failed step condition). */
#define DVC_DLVI_N_MAX 100000000L

/* A DLVI problem in memory. The problem owns its matrices and vectors and
 * the callbacks attached to it: dvc_dlvi_problem_clear calls fcb.release
 * (gcb.release) on their context when set (dvc_tfun_vec_cb with own != 0),
 * and leaves a context without release to its owner. */
typedef struct {
    long n, m;
    dvc_imat_t A, B, Q, M;   /* n x n, n x m, m x n, m x m */
    dvc_ivec_t l, u;         /* m, may hold -inf / +inf */
    dvc_ivec_t x0;           /* n (may be an interval: the tube covers all) */
    dvc_tfun_cb fcb;         /* f (k = n); eval == NULL: f = 0 */
    dvc_tfun_cb gcb;         /* g (k = m); eval == NULL: g = 0 */
    mpfi_t T;                /* final time (> 0) */
    long N;                  /* number of steps; h = T / N unless h > 0 */
    /* 0: the uniform grid t_i = i T / N. > 0: a step h that does not
     * divide T: t_i = i h exactly for i < N and t_N = T, so the last step
     * [(N-1) h, T] is shorter, of length in (0, h]; T must then be a
     * binary number (a point interval) with (N-1) h < T <= N h. */
    double h;
    /* NULL, or N + 1 binary64 times 0 = grid[0] < ... < grid[N] = T (T a
     * point interval), owned (malloc'd; dvc_dlvi_problem_clear frees it):
     * the steps [grid[i], grid[i+1]], each bound with its own length
     * (h must then be 0). Only the lognorm route with a stored predictor
     * (dvc_lognorm_certify) certifies on such a grid; the others refuse. */
    double *grid;
    /* NULL, or (grid NULL, h 0) the same N + 1 times on demand, a view of
     * the caller's source, which outlives every run on p (enclose --from
     * streams a trajectory's own times: memory independent of N) */
    const dvc_tgrid_src *grid_src;
    mpfi_t theta;            /* in [0, 1] */
    mpfr_prec_t prec;
} dvc_dlvi_problem_struct;
typedef dvc_dlvi_problem_struct dvc_dlvi_problem_t[1];

/* A problem with n states and m complementarity pairs at precision prec
 * (0: the working precision), with the defaults of the problem file
 * (docs/formats.md): theta = 1, f = g = 0. Every matrix and vector has its
 * shape and zero entries, except l = 0 and u = +inf (an LCP); T = 0 and
 * N = 0 must be set before a run. n = m = 0 gives an empty problem for the
 * readers to fill. */
void dvc_dlvi_problem_init(dvc_dlvi_problem_t p, long n, long m, mpfr_prec_t prec);
/* Releases everything p owns (see above); p is then empty (n = m = 0) and
 * must be initialised again before reuse. */
void dvc_dlvi_problem_clear(dvc_dlvi_problem_t p);
/* The problem's time grid (N, h, grid or grid_src) as a view (times not
 * copied). */
void dvc_dlvi_problem_grid(dvc_tgrid *g, const dvc_dlvi_problem_struct *p);
/* p's grid becomes g: N, h and a copy of the times (the old ones freed;
 * times on demand read into the copy). */
dvc_status dvc_dlvi_problem_set_grid(dvc_dlvi_problem_t p, const dvc_tgrid *g);

/* ---- certified time-stepping engine ---- */

/* One certified grid point, as the engine hands it to a sink: grid index i
 * (0..N), the predictor x^i, y^i, the certified [yhat^i] and the bounds of
 * grid point i; for i >= 1 also the per-step data of step [t_{i-1}, t_i]
 * (upper bounds, as in dvc_dlvi_result_t; 0 for i = 0). The pointers are
 * the engine's and valid only during the call. */
typedef struct {
    long i;
    double t;                  /* label: the double nearest the midpoint of [t_i] */
    const double *x, *y;       /* n, m */
    mpfi_srcptr yhat;          /* m */
    mpfr_srcptr eps_x, eps_y;
    double Lx, Lf, Lg, delta, beta_step, ry;
} dvc_dlvi_point;

/* Sink: called for grid point 0 and then after every certified step, in
 * order. A status other than DVC_OK stops the run and is returned. */
typedef dvc_status (*dvc_dlvi_sink)(const dvc_dlvi_point *pt, void *ctx);
/* Source of a stored predictor (dvc_dlvi_certify_stream): fill x^i (n
 * values) and y^i (m values) for grid index i; called for i = 0..N in
 * order, x^{i+1} just before step [t_i, t_{i+1}] is certified. */
typedef dvc_status (*dvc_dlvi_source)(long i, double *x, double *y, void *ctx);

typedef struct {
    /* Remark 4.3 made rigorous (docs/bounds.md): on a step where the LVI
     * over the a priori box of Q x(t) + g(t) is certified with one active
     * set, beta_M is replaced by ||(M_FF)^{-1}|| (F = free set). */
    int sharpen;
    /* Progress on stderr (only when stderr is a terminal). */
    int progress;
    /* Optional progress callback, called every few hundred steps. */
    void (*progress_cb)(long step, long N, void *ctx);
    void *progress_ctx;
    /* Lipschitz constants of f and g are computed over blocks of this many
     * steps (valid on each step of the block; fewer calls). Default 16. */
    long lip_block;
    /* Working precision (bits) of the certification; 0: the problem's. */
    mpfr_prec_t prec;
    /* When a run is not certified, retry at twice the precision while it
     * stays <= prec_max (0: no retry). r->prec tells the one used. */
    mpfr_prec_t prec_max;
    dvc_beta_opts beta;
    /* Streaming (memory independent of N): when sink is set, every
     * certified grid point is passed to sink(pt, sink_ctx) and the result
     * keeps only the summary and the last two grid points (r->window = 1;
     * its per-step arrays are then not indexed by step). prec_max is not
     * used with a sink (the points already passed on cannot be taken
     * back): retry at the caller's level. */
    dvc_dlvi_sink sink;
    void *sink_ctx;
    /* At 53 bits the step bounds run in binary64 under directed rounding
     * with MPFI's endpoints bit for bit (docs/bounds.md); 0 forces the MPFI
     * path (tests compare the two). Default 1. */
    int binary64;
} dvc_dlvi_opts;

void dvc_dlvi_opts_default(dvc_dlvi_opts *o);

/* Run / certification record. Index i = 0..N for grid quantities, step i
 * is [t_i, t_{i+1}], i = 0..N-1, t_i those of the time grid r->grid
 * (dvicert/tgrid.h; the doubles in t[] are only labels). */
typedef struct {
    long n, m, N;
    mpfr_prec_t prec;
    /* predictor (exact binary values) */
    double *t;         /* N+1 nearest doubles of t_i */
    double *x;         /* (N+1) x n: x^i */
    double *y;         /* (N+1) x m: y^i (the LVI predictor) */
    /* certified */
    mpfi_t *yhat;      /* (N+1) x m: encloses SOL(l, u, Q x^i + g(t_i), M) */
    mpfr_t *eps_x;     /* N+1, rounded up: eps_x[0] >= ||x(0) - x^0||;
                          eps_x[i+1] >= ||x(t) - x^h(t)|| for all t in step i
                          (x^h the linear interpolant of x^i, x^{i+1}) */
    mpfr_t *eps_y;     /* N+1, rounded up: ||y(t_i) - y^i|| */
    /* per step i (upper bounds rounded up to double; N entries) */
    double *Lx;        /* Lipschitz constant of x on step i */
    double *Lf, *Lg;   /* of f and g on step i */
    double *delta;     /* ||delta_i||: defect of the recursion */
    double *beta_step; /* constant used for the LVI map on step i */
    double *ry;        /* y(t) in ([yhat^i] +- ry) meet ([yhat^{i+1}] +- ry) on step i */
    long steps_done;   /* certified steps (N on success) */
    /* 0: the arrays above hold every grid point and step. 1 (a run with a
     * sink): they hold grid point i in row i % 2 and only the last step in
     * slot 0; use the sink for the data, and the summary below. */
    int window;
    /* summary */
    mpfi_t h, T, theta;        /* h: the step (with grid.h > 0, [grid.h, grid.h]) */
    dvc_tgrid grid;            /* the problem's time grid (grid.N = N; explicit
                                  times an owned copy, t_i = grid.t[i] exactly, h
                                  then encloses every step length); dvc_dlvi_result_grid */
    mpfr_t beta_lo, beta_hi;    /* bounds of beta_M (hi is the one used) */
    mpfr_t normA, normB, normQ; /* upper bounds */
    mpfr_t L;                   /* ||A|| + beta ||B|| ||Q||, rounded up */
    mpfr_t hmax;                /* largest admissible h, rounded down */
    mpfr_t max_eps_x, max_eps_y;
    long n_sharpened;           /* steps on which the local constant was used */
    int sharpen;
    const char *p_reason;       /* how P was proven (static string) */
    const char *beta_method;    /* static string */
    /* m each, or NULL: [l.lo, u.hi] of the problem rounded outward to
     * doubles (-inf/+inf when unbounded), set by dvc_dlvi_result_set_ybox.
     * y(t) solves the LVI, so y(t) lies in this box: dvc_dlvi_tube_y meets
     * its tube with it. */
    double *ybox_lo, *ybox_hi;
    long ybox_m;                /* their length */
} dvc_dlvi_result_struct;
typedef dvc_dlvi_result_struct dvc_dlvi_result_t[1];

/* An empty record; dvc_dlvi_run / dvc_dlvi_certify (re)allocate its
 * arrays, which r owns: dvc_dlvi_result_clear releases them. */
void dvc_dlvi_result_init(dvc_dlvi_result_t r);
void dvc_dlvi_result_clear(dvc_dlvi_result_t r);
/* The time grid of the last run (r->grid). */
const dvc_tgrid *dvc_dlvi_result_grid(const dvc_dlvi_result_struct *r);

/* Full run: floating-point predictor (theta step with an LVI in y) and the
 * certification of every step. DVC_OK: every step certified.
 * DVC_NOT_CERTIFIED: message names the step, the time and the reason;
 * r->steps_done steps (and their bounds) remain valid. DVC_ERR_INPUT: bad
 * problem (dimensions, NaN, theta outside [0,1], N < 1, ...). */
dvc_status dvc_dlvi_run(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p,
                        const dvc_dlvi_opts *o);

/* Certification only, from a stored predictor: xs ((N+1) x n) and ys
 * ((N+1) x m, may be NULL: then no LVI guess is given and y[] is filled
 * with the midpoints of the enclosures). Same code path as dvc_dlvi_run,
 * no state shared with any other result. */
dvc_status dvc_dlvi_certify(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p,
                            const dvc_dlvi_opts *o, const double *xs, const double *ys);

/* Certification from a predictor handed over point by point by src (in
 * order i = 0..N; y always given), with o->sink receiving the certified
 * points: memory independent of N. o->sink must be set. */
dvc_status dvc_dlvi_certify_stream(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p,
                                   const dvc_dlvi_opts *o, dvc_dlvi_source src, void *src_ctx);

/* Predictor only ((N+1) x n and (N+1) x m arrays), no certification. */
dvc_status dvc_dlvi_predict(double *xs, double *ys, const dvc_dlvi_problem_t p,
                            const dvc_dlvi_opts *o);

/* ---- scaling of the state (docs/bounds.md, "Scaling of the state") ---- */

/* Largest |e_j| of a scale s_j = 2^e_j. */
#define DVC_DLVI_SCALE_EMAX 64

/* The automatic scale of p: e (n entries) receives exponents with
 * s_j = 2^e[j], chosen from A, B and Q alone (midpoints; a balancing in the
 * spirit of LAPACK's dgebal, kept only when it shrinks ||A|| + ||B|| ||Q||
 * by 4 or more; smallest s_j = 1): the same problem data give the same e
 * whatever N, T, x0 and f are. All zeros: no scaling. */
dvc_status dvc_dlvi_scale_auto(long *e, const dvc_dlvi_problem_t p);
/* 1 when every e[j] (j < n) is 0, or e is NULL. */
int dvc_dlvi_scale_is_identity(const long *e, long n);
/* Transform p in place to the problem of z = S^-1 x, S = diag(2^e[j]):
 * A <- S^-1 A S, B <- S^-1 B, Q <- Q S, x0 <- S^-1 x0, f <- S^-1 f (a
 * callback around p's, which p then owns); M, l, u, g, T, N, theta are
 * unchanged. Exact (multiplications by powers of two). e[j] with
 * |e[j]| <= DVC_DLVI_SCALE_EMAX (else DVC_ERR_INPUT). Negated exponents
 * transform back. */
dvc_status dvc_dlvi_problem_scale(dvc_dlvi_problem_t p, const long *e);
/* z = S^-1 x (inverse = 0) or z = S x (inverse != 0) for n binary64
 * values; DVC_ERR_INPUT, naming the state, when a value would not be exact
 * (overflow, or bits lost below the normal range). */
dvc_status dvc_dlvi_scale_point(double *z, const double *x, const long *e, long n, int inverse);

/* ---- a result as a tube (include/dvicert/tube.h; src/dlvi/tube.c) ---- */

/* The tube of the certified part of a result (copied: tb does not refer to
 * r afterwards). l, u (may be NULL): the problem's LVI box; else the one
 * recorded in r (dvc_dlvi_result_set_ybox), if any. DVC_ERR_INPUT for a
 * result without a certified step or a streamed one (r->window). */
dvc_status dvc_dlvi_tube(dvc_tube_t tb, const dvc_dlvi_result_t r, const dvc_ivec_t l,
                         const dvc_ivec_t u);

/* Tubes of a certified result at any time t (point or interval) in
 * [0, t_{steps_done}]: out encloses x(s) (resp. y(s)) for every s in [t].
 * DVC_ERR_INPUT when t is outside the certified range. */
dvc_status dvc_dlvi_tube_x(dvc_ivec_t out, const dvc_dlvi_result_t r, const mpfi_t t);
dvc_status dvc_dlvi_tube_y(dvc_ivec_t out, const dvc_dlvi_result_t r, const mpfi_t t);

/* Record the admissible box [l.lo, u.hi] of p (p->m must equal r->m when
 * the tube is asked for; otherwise the box is ignored) in r, so that
 * dvc_dlvi_tube_y is met with it. Kept across dvc_dlvi_run /
 * dvc_dlvi_certify on the same r; released by dvc_dlvi_result_clear. */
dvc_status dvc_dlvi_result_set_ybox(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p);

#ifdef __cplusplus
}
#endif
#endif
