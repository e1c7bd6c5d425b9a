/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The exact DLVI solution, event by event (docs/events.md): for M a
 * P-matrix the box LVI's solution is piecewise affine in q = Q x + g(t),
 * so the DLVI is a switched affine ODE with one mode per pattern (index
 * sets at l, at u, free). The route builds that switched system as a hybrid
 * model in memory, lazily (only the patterns the solution visits and their
 * neighbours), and runs the hybrid engine (include/dvicert/hybrid.h) on it:
 * a tube of the exact solution, with certified event times, whose width is
 * rounding and Taylor remainder, not a time step. */
#ifndef DVICERT_EVENTS_H
#define DVICERT_EVENTS_H

#include "dvicert/dlvi.h"
#include "dvicert/hybrid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    /* Largest number of events (pattern changes) before the run stops with
     * DVC_NOT_CERTIFIED (Zeno-like accumulation is reported, not looped
     * on). Default 100000. */
    long max_events;
    /* Largest number of patterns (modes) built. Default 20000. */
    long max_modes;
    /* Largest step (0: 0.25, capped per pattern by 0.5 / ||A_P||). */
    double h;
    /* Taylor order of the flow (0: the engine's default, 20). */
    int order;
    /* Extra bits of the engine's internal precision (-1: the engine's
     * default, DVC_HYBRID_GUARD_BITS). */
    long guard_bits;
    /* Ambiguity windows (docs/events.md section 3): 0 (default) bridge
     * where an event cannot be isolated (simultaneous or grazing events);
     * -1 refuse there, with the engine's message. */
    int windows;
} dvc_dlvi_events_opts;

void dvc_dlvi_events_opts_default(dvc_dlvi_events_opts *o);

/* Build the switched model of p into m (initialised here; the caller
 * clears it with dvc_hybrid_model_clear): proves M a P-matrix (and l < u),
 * finds the initial pattern from the certified LVI solution at
 * (x0, g(0)) and proves it (every switching function of the pattern
 * strictly signed over x0; one index on its surface is allowed when its
 * motion is proven to enter one side: that side's pattern is taken), and
 * installs the lazy builder of the other patterns. States are named
 * x1..xn; a mode is named by its pattern, one letter per index i: 'l'
 * (y_i = l_i), 'u' (y_i = u_i), 'f' (free). f and g must be expressions of
 * t or constants: tables are refused (DVC_ERR_INPUT) in this version, and
 * so is a problem whose f or g is a callback of another kind (e.g. a
 * scaled problem). The model does not refer to p afterwards. o may be
 * NULL (defaults). DVC_NOT_CERTIFIED: P not proven, or a degenerate start
 * that cannot be decided (the message says which index and why). */
dvc_status dvc_dlvi_events_model(dvc_hybrid_model_t m, const dvc_dlvi_problem_t p,
                                 const dvc_dlvi_events_opts *o);

/* dvc_dlvi_events_model, then dvc_hybrid_enclose(r, m) on [0, sup T]:
 * DVC_OK with r->certified, or the engine's DVC_NOT_CERTIFIED (grazing,
 * simultaneous switches, a budget reached: the message says where; r holds
 * the certified part). m is left built (for dvc_hybrid_eval,
 * dvc_hybrid_verify, dvc_dlvi_events_y). */
dvc_status dvc_dlvi_events_run(dvc_hybrid_result_t r, dvc_hybrid_model_t m,
                               const dvc_dlvi_problem_t p, const dvc_dlvi_events_opts *o);

/* The y tube: Y (m entries) encloses y(t) for every t in tt and every state
 * in X, when the solution's pattern on tt is that of mode `mode` of m (a
 * model of dvc_dlvi_events_model; e.g. r->mode[i] with tt the step
 * [t_i, t_{i+1}] and X the step box r->box[i]): y = E_P (Q x + g(t)) + c_P,
 * met with [l, u]. A step that ends at an event ends at the upper end of
 * its time enclosure, so its last instants (after t*) are in the pattern
 * after the event: there take the hull with the same call for that event's
 * mode_after. DVC_ERR_INPUT when the map leaves [l, u] on X (X is not in
 * the pattern's region). mode < 0 (a step of an ambiguity window, where
 * no pattern is known): the certified LVI solution over Q X + g(tt). */
dvc_status dvc_dlvi_events_y(dvc_ivec_t Y, const dvc_hybrid_model_t m, long mode, const mpfi_t tt,
                             const dvc_ivec_t X);

/* Number of patterns built so far (modes of m), events the builder was
 * asked for, and ambiguity windows bridged (docs/events.md section 3; each
 * is a step of the result in r->nwindows too); all 0 for a model not made
 * by dvc_dlvi_events_model. Any pointer may be NULL. */
void dvc_dlvi_events_stats(const dvc_hybrid_model_t m, long *patterns, long *events,
                           long *windows);

/* The tube of a result r of the route for m (include/dvicert/tube.h):
 * dvc_hybrid_tube, then the y tube (m multipliers, dvc_tube_set_yboxes) from
 * the pattern's affine map (dvc_dlvi_events_y) on the state enclosures:
 * over step i the step's pattern on its box (with the pattern after the
 * event when the step ends at one; the LVI over the box in a window), at
 * grid point i the patterns of the steps either side on the grid
 * enclosure. flow non-NULL: the evaluators of x (the flow) and of y (that
 * map on the flow's enclosure over t) installed, m, r and *flow to outlive
 * tb's use. A model not made by dvc_dlvi_events_model: dvc_hybrid_tube
 * alone (m = 0). */
dvc_status dvc_dlvi_events_tube(dvc_tube_t tb, const dvc_hybrid_model_t m,
                                const dvc_hybrid_result_t r, dvc_hybrid_flow_ref *flow);

/* ---- A trajectory of another tool against the exact solution ----
 * (docs/from_events.md). p: the samples (t_k, p_k), k = 0..ns-1, t_0 the
 * model's t0 < t_1 < ... <= T, joined by straight lines. With x the exact
 * solution enclosed by a result r of the model m (every step certified):
 *   lo[k n + j] <= |p_kj - x_j(t_k)| <= hi[k n + j]       (the samples)
 *   |p_j(t) - x_j(t)| <= up[k n + j] for t in [t_k, t_k+1] (between them)
 * the bounds as binary64 numbers rounded outward. Between samples, with
 * s = (t - t_k) / h: e = p - x = (1-s) e_k + s e_k+1 + (I x - x)(t), and
 * the interpolation error I x - x lies in s (1-s) h^2/2 [ess inf x'',
 * ess sup x''] (x is C^1 with x' Lipschitz; x'' = A_P x' + b_P'(t) in each
 * pattern P met on the step). */
typedef struct {
    long n, ns;
    double *t, *p;        /* ns times, ns x n values (owned copies) */
    double *lo, *hi, *up; /* ns x n, ns x n, (ns - 1) x n; NULL until bounded */
} dvc_dlvi_events_from;

void dvc_dlvi_events_from_init(dvc_dlvi_events_from *f);
void dvc_dlvi_events_from_clear(dvc_dlvi_events_from *f);
/* Copy the samples (t: ns times, p: ns x n values). DVC_ERR_INPUT for
 * fewer than 2 samples, a value that is not finite, times not strictly
 * increasing or outside [t0, T] (messages name the sample, counted from 1). */
dvc_status dvc_dlvi_events_from_set(dvc_dlvi_events_from *f, long n, long ns, const double *t,
                                    const double *p, const mpfr_t t0, const mpfr_t T);
/* The bounds lo, hi, up of the samples of f against r (a certified result
 * of m, dvc_dlvi_events_run). DVC_ERR_INPUT when a mode met is not affine
 * or its forcing is a table; DVC_NOT_CERTIFIED when a step of the
 * trajectory meets an ambiguity window (the pattern there is not known). */
dvc_status dvc_dlvi_events_from_bound(dvc_dlvi_events_from *f, const dvc_hybrid_model_t m,
                                      const dvc_hybrid_result_t r);
/* Re-verification of claimed bounds (lo, hi, up of claim) for the samples
 * of claim: recomputed as dvc_dlvi_events_from_bound does; DVC_OK when
 * every claimed upper bound is >= and every lower bound <= the recomputed
 * one, else DVC_NOT_CERTIFIED naming the first sample or step. */
dvc_status dvc_dlvi_events_from_check(const dvc_dlvi_events_from *claim, const dvc_hybrid_model_t m,
                                      const dvc_hybrid_result_t r);

#ifdef __cplusplus
}
#endif
#endif
