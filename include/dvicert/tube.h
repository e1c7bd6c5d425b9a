/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A certified tube, whatever produced it (an engine result or a
 * certificate): per-step data and its geometry. Grid t_i = i T / N
 * (i = 0..N) by default, t_i = i hgrid for i < N and t_N = T when hgrid > 0
 * (a last step shorter than the others), or any increasing list of times
 * t_0 < ... < t_N (dvc_tube_set_times: event-driven engines); step i = [t_{i-1}, t_i]
 * (i = 1..N). The tube states, with the state scale s_j (x_scale; 1
 * when x_scale is NULL):
 *   |x_j(t) - x^h_j(t)| <= s_j eps_x^i for t in step i (x^h the linear
 *       interpolant of the grid values x^{i-1}, x^i), |x_j(0) - x^0_j| <=
 *       s_j eps_x^0; eps_x is a radius in the weighted norm max_j |x_j| / s_j
 *       (docs/bounds.md, "Scaling of the state");
 *   ||y(t_i) - y^i|| <= eps_y^i;
 *   y(t) in (yhat^{i-1} +- ry^i) meet (yhat^i +- ry^i) for t in step i,
 *   and y(t) in [l.lo, u.hi] (y solves the LVI) when the box is set.
 * Stated radii and ends (eps_x, eps_y, ry, the ends of yhat) are held as
 * enclosures of the stated numbers (a decimal read from a file is not a
 * binary number): outer edges use their outer ends, inner edges their
 * inner ends, so both stay rigorous.
 *
 * Outer edges enclose the solution at every time of a time interval; inner
 * edges bound the part of the tube that is inside at every such time (what
 * a sample must lie in to be certainly inside).
 *
 * Enclosure tubes (dvc_tube_set_boxes: engines that state enclosures, not a
 * predictor and radii, e.g. the hybrid engine) replace the x tube by
 *   x(t_i) in xg_i (per component) and x(t) in xs_i for t in step i;
 * at a time interval the outer x edges are the hull of the step enclosures
 * met (met with xg_i at the point t_i), the inner ones their intersection.
 * An engine that can evaluate x more tightly inside a step (a flow of the
 * step's set) installs an evaluator (dvc_tube_set_eval): it then gives the x
 * edges, outer and inner alike (its enclosure over the time interval; the
 * time enclosures of samples are 2^-64 relative wide). Events (switches)
 * are listed with their time and state enclosures (dvc_tube_add_event).
 * An enclosure tube may carry multipliers as enclosures too
 * (dvc_tube_set_yboxes: m > 0, e.g. the DLVI events route, where y is the
 * pattern's affine map of x): y(t_i) in yg_i and y(t) in ys_i for t in
 * step i, with an optional evaluator of y (dvc_tube_set_yeval) beside the
 * x one; the y edges then follow the same rules as the x edges above. */
#ifndef DVICERT_TUBE_H
#define DVICERT_TUBE_H

#include "dvicert/error.h"
#include "dvicert/ivec.h"
#include "dvicert/tgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An engine's evaluation of x (or y) over a time interval t inside the
 * tube: X encloses x(s) (y(s)) for every s in t. */
typedef dvc_status (*dvc_tube_eval_fn)(dvc_ivec_t X, const void *ctx, const mpfi_t t);

/* An event of the tube (a certified switch): time and state enclosures. */
typedef struct {
    mpfi_t t;
    dvc_ivec_t x;   /* state at the event (n entries) */
    dvc_ivec_t y;   /* multipliers at the event (m entries: a tube with y
                       enclosures), or none (0 entries) */
    char *label;    /* e.g. "g: plus->minus" */
} dvc_tube_event;

typedef struct {
    long n, m, N;
    long steps;                /* steps covered: the tube is defined on [0, t_steps] */
    long window;               /* 0: rows 0..N held; W >= 2: grid point i in row i % W,
                                  rows steps-W+1..steps held (streaming) */
    mpfr_prec_t prec;          /* precision of the stored enclosures */
    mpfi_t T;                  /* final time */
    double *x, *y;             /* (N+1) x n, (N+1) x m: predictor (exact binary64) */
    mpfi_t *eps_x, *eps_y;     /* N+1 each */
    mpfi_t *yhat_lo, *yhat_hi; /* (N+1) x m: enclosures of the ends of yhat^i */
    mpfi_t *ry;                /* N+1; ry[i] belongs to step i (entry 0 unused, 0) */
    mpfr_t *ybox_lo, *ybox_hi; /* m each, or NULL: [l.lo, u.hi] (exact copies) */
    mpfr_t *t;                 /* N+1 grid times (exact), or NULL: t_i = i T / N;
                                  t_window: only the window's, t_i in t[i % window]
                                  (t_0 = 0), set by the filler with each row */
    double hgrid;              /* when t is NULL and hgrid > 0: t_i = i hgrid (i < N),
                                  t_N = T (exact binary numbers) */
    mpfi_t *xg, *xs;           /* enclosure tube: (N+1) x n grid and N x n step
                                  enclosures (step i in row i-1), or NULL */
    dvc_tube_eval_fn eval;     /* or NULL; eval_ctx is not owned */
    const void *eval_ctx;
    long nev;                  /* events, in time order */
    dvc_tube_event *ev;
    double *x_scale;           /* n positive powers of two s_j, or NULL (all 1);
                                  owned; dvc_tube_set_x_scale */
    mpfi_t *yg, *ys;           /* enclosure tube with y: (N+1) x m grid and N x m
                                  step enclosures of y (step i in row i-1), or NULL */
    dvc_tube_eval_fn yeval;    /* or NULL: Y (m entries) encloses y over t; */
    const void *yeval_ctx;     /* not owned */
    int t_window;              /* t holds the window's times only (see t) */
} dvc_tube_struct;
typedef dvc_tube_struct dvc_tube_t[1];

/* Empty tube (n = m = N = 0). */
void dvc_tube_init(dvc_tube_t tb);
/* Releases everything the tube owns (all its arrays). */
void dvc_tube_clear(dvc_tube_t tb);

/* (Re)allocate for n states, m multipliers, N steps at precision prec; the
 * data are zero, steps = N, T copied, no y box. */
dvc_status dvc_tube_alloc(dvc_tube_t tb, long n, long m, long N, const mpfi_t T,
                          mpfr_prec_t prec);

/* The same holding only a window of W >= 2 grid rows (grid point i in row
 * i % W; W = 0: every row). steps = -1 until the filler sets it: a reader
 * streaming a certificate writes grid point i into row i % W, sets
 * steps = i, and may then evaluate the tube at times whose steps lie in
 * rows steps-W+1..steps (DVC_ERR_INPUT for an earlier time). */
dvc_status dvc_tube_alloc_window(dvc_tube_t tb, long n, long m, long N, const mpfi_t T,
                                 mpfr_prec_t prec, long window);

/* Grid times t_0 < ... < t_N (N + 1 numbers, copied exactly; T becomes t_N).
 * Without it t_i = i T / N. DVC_ERR_INPUT unless strictly increasing. */
dvc_status dvc_tube_set_times(dvc_tube_t tb, const mpfr_t *t);
/* The same from N + 1 binary64 times (a DLVI problem's time grid). */
dvc_status dvc_tube_set_times_d(dvc_tube_t tb, const double *t);
/* The time grid g (g->N = tb->N): its explicit times, or its step h (a
 * shorter last step), or nothing on the uniform grid. */
dvc_status dvc_tube_set_grid(dvc_tube_t tb, const dvc_tgrid *g);
/* A window tube on explicit times given with its rows (a streamed
 * certificate whose grid is read on demand: memory independent of N):
 * window times (t_window), each set by dvc_tube_set_time_row when grid
 * point i is written, t_0 = 0, t_N = T. */
dvc_status dvc_tube_set_times_window(dvc_tube_t tb);
void dvc_tube_set_time_row(dvc_tube_t tb, long i, double t);
/* Make tb an enclosure tube: allocates xg ((N+1) x n) and xs (N x n) at the
 * tube's precision, [0, 0] until the filler sets them. */
dvc_status dvc_tube_set_boxes(dvc_tube_t tb);
/* Install (fn non-NULL) or remove an evaluator of x; ctx must outlive tb's
 * use of it. Only for enclosure tubes. */
void dvc_tube_set_eval(dvc_tube_t tb, dvc_tube_eval_fn fn, const void *ctx);
/* Give an enclosure tube m multipliers held as enclosures: the predictor
 * y arrays are made again for m (zero; a filler may state y^i, eps_y^i,
 * yhat^i, ry^i for readers of that form), and yg ((N+1) x m), ys (N x m)
 * allocated at [0, 0] until the filler sets them. The y edges then come
 * from yg, ys (or the y evaluator), as the x edges from xg, xs. */
dvc_status dvc_tube_set_yboxes(dvc_tube_t tb, long m);
/* Install (fn non-NULL) or remove an evaluator of y (Y: m entries); ctx
 * must outlive tb's use of it. Only for tubes with y enclosures. */
void dvc_tube_set_yeval(dvc_tube_t tb, dvc_tube_eval_fn fn, const void *ctx);
/* Append an event (t, x and label copied; events in time order). */
dvc_status dvc_tube_add_event(dvc_tube_t tb, const mpfi_t t, const dvc_ivec_t x,
                              const char *label);

/* State scale: s (n entries, each a positive power of two 2^k with
 * |k| <= 1074, copied) or NULL (all ones, the default). Kept until the tube
 * is cleared or allocated again. DVC_ERR_INPUT for another s. */
dvc_status dvc_tube_set_x_scale(dvc_tube_t tb, const double *s);
/* s_j of state j (1 without a scale). */
double dvc_tube_x_scale(const dvc_tube_t tb, long j);

/* Meet every y tube with [l.lo, u.hi] (l, u of length m; copied exactly). */
dvc_status dvc_tube_set_ybox(dvc_tube_t tb, const dvc_ivec_t l, const dvc_ivec_t u);

/* t_i (enclosure, at t's precision): i T / N, or the stated time. */
void dvc_tube_time(mpfi_t t, const dvc_tube_t tb, long i);

/* Outer evaluation over a time interval: out (n entries for which = 0, x;
 * m for which = 1, y) encloses x(s) (y(s)) for every s in [t]. [t] must
 * lie in [t_0, t_steps] (t_0 = 0 on a uniform grid; DVC_ERR_INPUT
 * otherwise); a point interval is a single time. */
dvc_status dvc_tube_outer(dvc_ivec_t out, const dvc_tube_t tb, const mpfi_t t, int which);

/* Inner evaluation over a time interval: for each component k, every
 * value v with lo[k] <= v <= hi[k] lies inside the tube at every s in [t]
 * (lo rounded up, hi down; lo > hi when no value is certainly inside).
 * The x interpolant is evaluated as x^{i-1} + s (x^i - x^{i-1}) with
 * s = (t - t_{i-1}) / h carried at 64 bits more than the tube's precision,
 * so the edges lose O(ulp) and not ulp(t)/h |x|. Same range rule as
 * dvc_tube_outer. lo, hi: arrays of n (m) initialised numbers. */
dvc_status dvc_tube_inner(mpfr_t *lo, mpfr_t *hi, const dvc_tube_t tb, const mpfi_t t,
                          int which);

/* Outer hull over step i (1 <= i <= steps), rounded outward. */
void dvc_tube_step_hull(mpfr_t *lo, mpfr_t *hi, const dvc_tube_t tb, long i, int which);
/* Outer bounds at grid point i (0 <= i <= steps): x^i_j +- s_j eps_x^i, y^i +- eps_y^i
 * (y met with the box). */
void dvc_tube_grid(mpfr_t *lo, mpfr_t *hi, const dvc_tube_t tb, long i, int which);

/* Each engine hands its result over as a tube with its own function
 * (dvc_dlvi_tube in dlvi.h, dvc_hybrid_tube in hybrid.h): this header
 * includes no engine. */

#ifdef __cplusplus
}
#endif
#endif
