/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Switched / piecewise-smooth ODEs: a model in memory (modes, switching
 * functions, transitions), a validated flow per mode and certified
 * switch-time enclosures with proofs of existence, uniqueness and
 * transversality. Derivation: docs/hybrid.md.
 *
 * Ownership: a model owns everything added to it (dvc_hybrid_model_clear
 * frees it); a result owns its steps and events (dvc_hybrid_result_clear).
 * Strings passed in are copied. */
#ifndef DVICERT_HYBRID_H
#define DVICERT_HYBRID_H

#include "dvicert/imat.h"
#include "dvicert/expr.h"
#include "dvicert/tabfun.h"
#include "dvicert/tube.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One mode: x' = A x + b(t) (linear) or x' = f(t, x) (field). */
typedef struct {
    char *name;
    int linear;
    int revision;     /* the model's revision (dvc_hybrid_set_revision) */
    int pending;      /* a mode of a lazily built model named before its field is
                       * known (dvc_hybrid_add_mode_pending): the engine calls the
                       * model's fill hook before it reads the field */
    dvc_imat_t A;     /* n x n (linear modes; 0 x 0 otherwise) */
    dvc_expr_t *b;    /* n expressions of t (linear modes), NULL: b = 0 */
    dvc_expr_t *f;    /* n expressions of t and the state (field modes) */
    /* linear modes, instead of b: b(t) = Bu [1; u(t)] over the model's
     * forcing basis u (dvc_hybrid_add_mode_affine; n x (1 + nu)), so that
     * each basis function's Taylor series is computed once per step
     * whatever the number of modes and rows using it; NULL: none */
    dvc_imat_struct *bu;
    dvc_expr_struct *u; /* with bu: the model's basis (nu entries; the model's) */
    long nu;
    dvc_tabfun_struct **utab; /* with bu: the model's tables (entry j: basis j is
                               * that table, piecewise linear in t; NULL entry:
                               * the expression u[j]) */
    int balance;      /* the model's `balance` when the mode was added */
    int *sides;       /* a mode of a decomposed model: per discontinuous term,
                       * 1 / -1: in its region h > 0 / h < 0, 2: sliding on
                       * its surface h = 0 (at most 3 terms slide); NULL
                       * for a plain mode */
    void *memo;       /* the engine's reuse of exp(A s) and of the forcing
                       * series (internal; freed with the model) */
    /* A DAE mode (dvc_hybrid_add_mode_dae, docs/dae.md): z, the model's nz
     * algebraic variables as expressions of t and the state (the exact
     * solution of the mode's constraints, f is the reduced field), and zg,
     * the nz constraints as given, over the state and the algebraic
     * variables; both NULL for any other mode. */
    dvc_expr_t *z, *zg;
    /* A DAE mode whose g_z depends on t or the state: zdet, det g_z(t, x)
     * (the denominator of z, one expression), and zdet_what, the words
     * naming the mode and its constraints for a refusal where det is not
     * proven nonzero; both NULL otherwise. */
    dvc_expr_t *zdet;
    char *zdet_what;
} dvc_hybrid_mode;

/* One discontinuous term of Stewart's decomposed form (a contact): f+
 * where h(x) > 0, f- where h(x) < 0 (n expressions each); h affine in the
 * state and free of t. */
typedef struct {
    const char *name, *h;
    const char *const *fplus, *const *fminus;
} dvc_hybrid_term;

/* The same built in memory (include/dvicert/expr.h, "Building"): h and
 * the n expressions of f+ and f-, over the model's state names at its
 * precision. */
typedef struct {
    const char *name;
    const dvc_expr_struct *h;
    const dvc_expr_t *fplus, *fminus;
} dvc_hybrid_term_expr;

/* A term as compiled into the model (docs/sliding.md): its switching
 * functions h and, for each assignment o of the other terms' regions
 * (index: bit l set when the l-th other term is in h < 0; 2^(m-1) entries),
 * a = grad h . (f0 + f+ + sum_o) and b = grad h . (f0 + f- + sum_o). */
typedef struct {
    char *name;
    long h;
    long *qplus, *qminus;
} dvc_hybrid_contact;

/* A transition: when g crosses zero in direction dir (+1: from g < 0 to
 * g > 0, -1: from g > 0 to g < 0, 0: either) while the mode is `from`,
 * switch to `to`; the state is mapped by reset (n expressions of t and the
 * state; NULL: identity). Guards (GESDA's "and" of switching functions):
 * the transition fires only where every guard_g[i] has the sign
 * guard_sign[i] (+1: > 0, -1: < 0), proven over the crossing's time
 * enclosure and state box; a sign not proven there stops the run. */
typedef struct {
    long from, g, to;
    int dir;
    dvc_expr_t *reset;
    long nguard;
    long *guard_g;
    int *guard_sign;
} dvc_hybrid_transition;

typedef struct {
    long n;
    char **names;          /* state names (default x1..xn) */
    mpfr_prec_t prec;
    long nmodes;
    dvc_hybrid_mode *modes;
    long ng;
    char **gname;
    dvc_expr_t *g;         /* switching functions g(t, x) */
    long ntrans;
    dvc_hybrid_transition *trans;
    long mode0;            /* initial mode (-1: not set) */
    dvc_ivec_t x0;         /* initial state (point or box) */
    mpfr_t t0, T;          /* time interval [t0, T] */
    double h;              /* largest step (0: chosen from ||A||) */
    long max_steps;        /* step budget (0: DVC_HYBRID_MAX_STEPS): the run
                            * stops with DVC_NOT_CERTIFIED when it is reached,
                            * or at once when the largest step a mode allows
                            * cannot reach T within it (a stiff mode) */
    double max_seconds;    /* time budget in seconds (0: DVC_HYBRID_MAX_SECONDS,
                            * INFINITY: none): the run stops with
                            * DVC_NOT_CERTIFIED when it is spent, saying up to
                            * where it certified */
    int progress;          /* 1: a progress line on stderr while it is a
                            * terminal (at most 4 a second); 0 (default): quiet */
    int order;             /* Taylor order (0: 20, or 12 with a field mode) */
    long guard_bits;       /* extra bits of the engine's internal precision
                            * (results are rounded outward to prec); 0: none;
                            * DVC_HYBRID_GUARD_BITS after dvc_hybrid_model_init */
    int revision;          /* the engine's arithmetic (docs/hybrid.md section 3):
                            * DVC_HYBRID_REVISION after dvc_hybrid_model_init, 1 for
                            * certificates that state no method.revision; set it
                            * with dvc_hybrid_set_revision */
    long ncontacts;
    dvc_hybrid_contact *contacts; /* decomposed form (dvc_hybrid_add_decomposed) */
    /* A model built lazily (the DLVI events route, docs/events.md): when
     * expand is set, the engine calls expand(mode, nevents, expand_ctx) for
     * the initial mode before the first step and for the target of every
     * crossing before the crossing is applied (nevents: the events certified
     * so far, for a budget; a status other than DVC_OK stops the run and is
     * returned). The call may add modes,
     * switching functions and transitions (never change or remove any) and
     * must leave every transition out of `mode` in the model. The step is
     * then capped per mode (h, else 0.25, and 0.5 / ||A_mode||), so that the
     * grid does not depend on which modes were built before the run.
     * dvc_hybrid_model_clear calls expand_release(expand_ctx) when set. */
    dvc_status (*expand)(long mode, long nevents, void *ctx);
    /* With expand: fill(mode, expand_ctx) gives a pending mode its field
     * (dvc_hybrid_fill_mode_affine) and nothing else: it adds no mode,
     * switching function or transition, so the engine may call it while it
     * holds pointers into the model. expand(mode) also fills mode. Modes
     * are added pending when they may never be entered (the neighbours of
     * each visited pattern on the DLVI events route). */
    dvc_status (*fill)(long mode, void *ctx);
    long nu;               /* the forcing basis of affine modes: nu expressions */
    dvc_expr_t *u;         /* of t (dvc_hybrid_set_basis) */
    void *expand_ctx;
    void (*expand_release)(void *ctx);
    /* Tables in the forcing basis (dvc_hybrid_set_basis_table): utab[j]
     * replaces u[j] (NULL: the expression). Their sample times are forced
     * step ends: no step of the flow's Taylor series crosses one; the
     * window [blo[k], bhi[k]] (the enclosure of sample time k rounded
     * outward to prec) is one step of its own, bridged by a first-order
     * enclosure (docs/events.md section 4). Sorted by blo. */
    dvc_tabfun_struct **utab;
    long nbreak;
    mpfr_t *blo, *bhi;
    /* Ambiguity windows (docs/events.md section 3): when set, where the
     * driver cannot isolate an event (crossings that cannot be ordered,
     * switching functions that may vanish together, a transversality that
     * cannot be proven), it calls bridge(T, X0, X1, box, &mode, expand_ctx)
     * with T = [t, t1] (grid times) and X0 the state box at t; the hook
     * returns X1 enclosing the state at t1 and box the states over T, for
     * every start in X0, and the mode in which the run resumes at t1 (it
     * must have proven that mode's region holds the state there). Sound
     * only for a field continuous across the surfaces (a DLVI). */
    dvc_status (*bridge)(const mpfi_t T, const dvc_ivec_t X0, dvc_ivec_t X1, dvc_ivec_t box,
                         long *mode, void *ctx);
    /* Stiff linear modes (docs/hybrid.md section 3, "Balanced series"; set
     * by the DLVI events route before adding modes): the matrix series of
     * every linear mode added afterwards is taken in the coordinates of a
     * diagonal balancing D (powers of two) of its A, so steps are capped
     * by 0.5 / ||D^-1 A D|| instead of 0.5 / ||A||; an ill-conditioned
     * Lohner frame is also orthonormalised in the coordinates D^-1 x (the
     * narrower box is kept), and the crossing times' interval Newton
     * starts with the series applied to the set's box. 0: none of this. */
    int balance;
    /* Where the initial state may lie on a switching surface that cannot
     * be decided (a degenerate start), the builder sets start_window: the
     * engine then bridges a window from t0 (the bridge hook) before its
     * first step (docs/events.md section 3). */
    int start_window;
    /* A switched DAE (docs/dae.md): nz algebraic variables named znames
     * beside the n states (dvc_hybrid_set_algebraic); each mode is then a
     * DAE mode. zconsts: the named constants the reductions introduced
     * (the enclosed entries of each mode's inverse coefficient matrix). */
    long nz;
    char **znames;
    dvc_expr_consts_struct *zconsts;
} dvc_hybrid_model_struct;
typedef dvc_hybrid_model_struct dvc_hybrid_model_t[1];

/* Default guard bits: the engine runs at prec + 11 bits (64 at the default
 * 53, still one machine word per MPFR number), so the rounding of each
 * step's centre no longer adds up at the 53-bit level (docs/hybrid.md,
 * section 7, "Guard bits"). */
#define DVC_HYBRID_GUARD_BITS 11

/* The engine's arithmetic revision (dvc_hybrid_model.revision), stated by
 * every certificate as method.revision so that verify remakes a tube as it
 * was made. 1: the Lohner frame's inverse to one unit in the last place of
 * the working precision; each forcing remainder bounded over exactly the
 * time span asked for. 2: the frame's inverse by the binary64 verified
 * kernel; a forcing remainder bounded over a longer span from the same
 * start reused for shorter ones (the Newton iterates of a crossing). */
#define DVC_HYBRID_REVISION 2
/* The default step budget of a run (dvc_hybrid_model_struct.max_steps). */
#define DVC_HYBRID_MAX_STEPS 10000000L
/* The events a streamed run keeps (dvc_hybrid_result_struct.ev_sink). */
#define DVC_HYBRID_EVENTS_KEPT 8
/* The default time budget of a run in seconds (max_seconds). */
#define DVC_HYBRID_MAX_SECONDS 3600.0

/* An empty model with n states at precision prec (0: dvc_prec_get()).
 * names may be NULL (x1..xn); otherwise n identifiers, all distinct. */
dvc_status dvc_hybrid_model_init(dvc_hybrid_model_t m, long n, const char *const *names,
                                 mpfr_prec_t prec);
void dvc_hybrid_model_clear(dvc_hybrid_model_t m);
/* The Taylor order the engine uses for m: the model's, else 12 when a mode
 * is given by expressions (a field mode), else 20. */
int dvc_hybrid_model_order(const dvc_hybrid_model_t m);

/* Add a linear mode x' = A x + b(t); b: n expressions of t (NULL: zero).
 * *index (may be NULL) receives the mode's index. Names must be unique. */
dvc_status dvc_hybrid_add_mode_linear(dvc_hybrid_model_t m, const char *name, const dvc_imat_t A,
                                      const char *const *b, const dvc_expr_consts_t consts,
                                      long *index);
/* The forcing basis u: nu expressions of t (set once, before any affine
 * mode). */
dvc_status dvc_hybrid_set_basis(dvc_hybrid_model_t m, long nu, const char *const *u,
                                const dvc_expr_consts_t consts);
/* Basis function j becomes the table tab (a copy at the model's
 * precision: samples joined by straight lines; its expression is no longer
 * used), after dvc_hybrid_set_basis. Its sample times become forced step
 * ends of the run. */
dvc_status dvc_hybrid_set_basis_table(dvc_hybrid_model_t m, long j, const dvc_tabfun_struct *tab);
/* m's arithmetic revision (1 .. DVC_HYBRID_REVISION), for its modes too. */
dvc_status dvc_hybrid_set_revision(dvc_hybrid_model_t m, int revision);
/* A pending mode named name (linear; its field given later by
 * dvc_hybrid_fill_mode_affine, before the engine reads it: see fill). */
dvc_status dvc_hybrid_add_mode_pending(dvc_hybrid_model_t m, const char *name, long *index);
/* Pending mode k becomes x' = A x + Bu [1; u(t)] (Bu NULL: x' = A x), as
 * dvc_hybrid_add_mode_affine (dvc_hybrid_add_mode_linear without b) would
 * have added it. */
dvc_status dvc_hybrid_fill_mode_affine(dvc_hybrid_model_t m, long k, const dvc_imat_t A,
                                       const dvc_imat_t Bu);
/* Add a linear mode x' = A x + Bu [1; u(t)] (Bu: n x (1 + nu), u the
 * model's basis). */
dvc_status dvc_hybrid_add_mode_affine(dvc_hybrid_model_t m, const char *name, const dvc_imat_t A,
                                      const dvc_imat_t Bu, long *index);
/* Add a mode x' = f(t, x): n expressions of t and the state names. */
dvc_status dvc_hybrid_add_mode_field(dvc_hybrid_model_t m, const char *name,
                                     const char *const *f, const dvc_expr_consts_t consts,
                                     long *index);
/* Add a switching function g(t, x) (an expression of t and the state). */
dvc_status dvc_hybrid_add_switch(dvc_hybrid_model_t m, const char *name, const char *text,
                                 const dvc_expr_consts_t consts, long *index);
/* The same with expressions built in memory (dvc_expr_set_literal,
 * dvc_expr_add, ... over the model's state names at its precision): the
 * model takes them over (f[i] and g are left empty, still to be cleared
 * by the caller); on failure they are left as they were. */
dvc_status dvc_hybrid_add_mode_exprs(dvc_hybrid_model_t m, const char *name, dvc_expr_t *f,
                                     long *index);
/* A linear mode x' = A x + b(t) with b built in memory: n expressions of t
 * alone (no state variables; NULL: b = 0), taken over as above. */
dvc_status dvc_hybrid_add_mode_linear_exprs(dvc_hybrid_model_t m, const char *name,
                                            const dvc_imat_t A, dvc_expr_t *b, long *index);
dvc_status dvc_hybrid_add_switch_expr(dvc_hybrid_model_t m, const char *name, dvc_expr_t g,
                                      long *index);
/* Add a transition (indices as returned above); reset: n expressions or
 * NULL (identity). */
dvc_status dvc_hybrid_add_transition(dvc_hybrid_model_t m, long from, long g, int dir, long to,
                                     const char *const *reset, const dvc_expr_consts_t consts);
/* The same with nguard guards: switching function gg[i] must have sign
 * gs[i] (+1 or -1) at the crossing. Two transitions of a mode on the same
 * function and direction are accepted only when both have guards (the
 * run refuses a crossing where both guards hold). */
dvc_status dvc_hybrid_add_transition_guarded(dvc_hybrid_model_t m, long from, long g, int dir,
                                             long to, const char *const *reset,
                                             const dvc_expr_consts_t consts, long nguard,
                                             const long *gg, const int *gs);
/* Stewart's decomposed form x' = f0(t, x) + sum_j f^j(t, x) with nterms
 * discontinuous terms (contacts), Filippov's convex combination on a
 * surface h_j = 0 where the fields of both sides point toward it. Adds one
 * mode per assignment of regions with at most 3 terms sliding, named by
 * its regions ("friction>0", "friction=0", "a>0&b<0", "a=0&b=0"), the
 * switching functions "name" (h) and "name'+", "name'-" (a and b above;
 * with several terms "name'+@<regions of the others>"), the weights
 * "name'z@<mode>", "name'1-z@<mode>" of the modes sliding on several terms,
 * h' of each term off its surface in a sliding mode ("name'@<mode>"), and
 * their transitions. A model takes one decomposed form and no other modes.
 * A term reaching its surface while others slide is decided at the event
 * by Stewart's LCP (13) (docs/sliding.md section 5). */
dvc_status dvc_hybrid_add_decomposed(dvc_hybrid_model_t m, const char *const *f0, long nterms,
                                     const dvc_hybrid_term *terms,
                                     const dvc_expr_consts_t consts);

/* The same from expressions built in memory (f0: n of them; the terms
 * above): the modes' fields, the switching functions and the weights are
 * built from them (dvc_expr_add, ...), the same programs the texts would
 * give; the inputs are copied. dvc_hybrid_add_decomposed parses its texts
 * once and calls this. */
dvc_status dvc_hybrid_add_decomposed_exprs(dvc_hybrid_model_t m, const dvc_expr_t *f0,
                                           long nterms, const dvc_hybrid_term_expr *terms);
/* ---- Switched DAEs (src/hybrid/dae.c, docs/dae.md) ----
 * Semi-explicit index-1 modes x' = f(t, x, z), 0 = g(t, x, z) with g
 * affine in z with a constant coefficient matrix D = dg/dz proven
 * nonsingular: z = -D^{-1} g(t, x, 0) exactly, and the mode is the field
 * mode x' = f(t, x, z(t, x)) of the engine. */
/* Declare the nz algebraic variables (identifiers, distinct from the
 * states, t, pi and the function names), once, before any mode. */
dvc_status dvc_hybrid_set_algebraic(dvc_hybrid_model_t m, long nz, const char *const *names);
/* Add a DAE mode: f, n expressions, and g, nz constraints, of t, the
 * states and the algebraic variables. Refused (DVC_ERR_INPUT, the message
 * names the mode and the constraint) when a constraint does not involve z
 * (index 2 or more), is not affine in z (see dvc_hybrid_add_mode_dae_range
 * for one nonlinear in z), or when D is not proven nonsingular. */
dvc_status dvc_hybrid_add_mode_dae(dvc_hybrid_model_t m, const char *name, const char *const *f,
                                   const char *const *g, const dvc_expr_consts_t consts,
                                   long *index);
/* The same, where one constraint may be nonlinear in the one algebraic
 * variable (nz = 1): z_range (NULL: none) is an interval in which
 * g(t, x, .) has exactly one zero, proven on each box the engine
 * evaluates (the Krawczyk operator, docs/dae.md section 1.2), or the run
 * stops there (DVC_NOT_CERTIFIED naming the mode and the constraint).
 * A constraint affine in z takes the route above (z_range unused). */
dvc_status dvc_hybrid_add_mode_dae_range(dvc_hybrid_model_t m, const char *name,
                                         const char *const *f, const char *const *g,
                                         const dvc_expr_consts_t consts, mpfi_srcptr z_range,
                                         long *index);
/* Add a linear DAE mode E w' = A w + b(t) over w = (x, z) (the states then
 * the algebraic variables; E, A: (n + nz)^2 exact rationals, row-major; b:
 * n + nz expressions of t, or NULL), reduced exactly (GMP) to the
 * semi-explicit form above (src/hybrid/dae_linear.c, docs/dae.md section
 * 4). Refused when E has a nonzero entry in a column of z, when E's
 * columns on x are rank-deficient, or when the pencil is singular or of
 * index 2 or more (the reduced constraints' block on z singular). */
dvc_status dvc_hybrid_add_mode_dae_linear(dvc_hybrid_model_t m, const char *name, const mpq_t *E,
                                          const mpq_t *A, const char *const *b,
                                          const dvc_expr_consts_t consts, long *index);
/* The text with every algebraic variable replaced by its expression in
 * mode `mode` (malloc'd, or NULL out of memory): a switching function or a
 * reset written with z, as the engine takes it in that mode. */
char *dvc_hybrid_dae_subst(const dvc_hybrid_model_t m, long mode, const char *text);
/* The named constants a text produced by dvc_hybrid_dae_subst may use:
 * consts and the model's zconsts, in c (initialised by the caller). */
dvc_status dvc_hybrid_dae_consts(dvc_expr_consts_t c, const dvc_hybrid_model_t m,
                                 const dvc_expr_consts_t consts);
/* Z (nz entries) encloses z over T x X in DAE mode `mode`. */
dvc_status dvc_hybrid_dae_z(dvc_ivec_t Z, const dvc_hybrid_model_t m, long mode, const mpfi_t T,
                            const dvc_ivec_t X);
/* R (nz entries) encloses the residual g(T, X, Zg) of mode `mode`'s
 * constraints at the given algebraic values Zg (consistency of initial
 * values). */
dvc_status dvc_hybrid_dae_residual(dvc_ivec_t R, const dvc_hybrid_model_t m, long mode,
                                   const mpfi_t T, const dvc_ivec_t X, const dvc_ivec_t Zg);

/* F encloses the field of mode `mode` over T x X (x' = A x + b(t), or f). */
dvc_status dvc_hybrid_field(dvc_ivec_t F, const dvc_hybrid_model_t m, long mode, const mpfi_t T,
                            const dvc_ivec_t X);

/* Index of a mode / switching function by name, or -1. */
long dvc_hybrid_find_mode(const dvc_hybrid_model_t m, const char *name);
long dvc_hybrid_find_switch(const dvc_hybrid_model_t m, const char *name);
/* Initial mode, state (copied; must be finite) and time interval. */
dvc_status dvc_hybrid_set_initial(dvc_hybrid_model_t m, long mode, const dvc_ivec_t x0,
                                  const mpfr_t t0, const mpfr_t T);
/* The initial mode of a model in decomposed form (ncontacts > 0) from the
 * initial state x0 at t0 (docs/sliding.md, "Initial mode"): per term the
 * side the sign of h(t0, x0) proves (> 0: region h > 0, < 0: region h < 0,
 * exactly 0: sliding on h = 0). *mode: that mode, or -1 when a sign is
 * undecided (h(x0) holds 0 without being 0). *consistent (when not NULL):
 * 1 when mode `given` (>= 0) has on every term a side the sign allows (a
 * term exactly on its surface allows every side, the engine then decides
 * by Filippov's condition). names (len bytes): the modes consistent with
 * x0, quoted and separated by ", ", for a message. */
dvc_status dvc_hybrid_initial_mode(const dvc_hybrid_model_struct *m, const mpfr_t t0, const dvc_ivec_t x0,
                                   long given, long *mode, int *consistent, char *names, size_t len);

/* How the approach to a switching surface was classified. */
typedef enum {
    DVC_HYB_TRANSVERSE = 0,  /* proven crossing, unique, 0 not in phi' */
    DVC_HYB_GRAZING,         /* phi' may vanish near a zero of phi (tangency) */
    DVC_HYB_SLIDING,         /* both fields point toward the surface */
    DVC_HYB_REPELLING,       /* both fields point away from the surface */
    DVC_HYB_UNDECIDED,       /* none of the above could be proven */
    DVC_HYB_ZENO             /* phi' vanishes only where phi is proven nonzero
                              * (no tangency), but the crossings come closer
                              * than a step can separate: an accumulation */
} dvc_hybrid_class;
const char *dvc_hybrid_class_name(dvc_hybrid_class c);

/* A certified crossing: g(t*, x(t*)) = 0 for exactly one t* in t, with
 * g' != 0 on t; x encloses x(t*) (before the reset). */
typedef struct {
    mpfi_t t;
    long g, mode_before, mode_after;
    dvc_ivec_t x;
    mpfi_t dphi;   /* enclosure of phi' = dg/dt + grad g . f over t */
    dvc_hybrid_class cls; /* DVC_HYB_TRANSVERSE: the engine records no other
                           * (the other classes stop the run, stop_class) */
} dvc_hybrid_event;

/* What an event does: a crossing, the start of a sliding motion on a
 * contact surface, or its end (docs/sliding.md). */
typedef enum {
    DVC_HYB_EV_CROSS = 0,
    DVC_HYB_EV_ENTER_SLIDE,
    DVC_HYB_EV_LEAVE_SLIDE
} dvc_hybrid_event_kind;
/* The kind of event e of a result for m (from its modes before and after). */
dvc_hybrid_event_kind dvc_hybrid_event_kind_of(const dvc_hybrid_model_t m,
                                               const dvc_hybrid_event *e);
/* "cross", "enter-slide", "leave-slide". */
const char *dvc_hybrid_event_kind_name(dvc_hybrid_event_kind k);
/* When the new active set at event e was decided by Stewart's LCP (13) (a
 * term reached its surface while another slides): the number of terms on
 * their surfaces there, and those terms in terms (room for the model's
 * number of terms, may be NULL); else 0. */
long dvc_hybrid_event_lcp_terms(const dvc_hybrid_model_t m, const dvc_hybrid_event *e,
                                long *terms);
/* The active set of mode md in Stewart's sense for term j: "+" (h > 0),
 * "-" (h < 0) or "+-" (sliding); NULL for a plain mode. */
const char *dvc_hybrid_mode_active(const dvc_hybrid_mode *md, long j);

typedef struct dvc_hybrid_result_s {
    long nsteps, alloc;
    mpfr_t *t;        /* grid times t_0 < ... < t_nsteps (exact) */
    dvc_ivec_t *x;    /* enclosure of x(t_i) */
    dvc_ivec_t *box;  /* enclosure of x on [t_i, t_{i+1}] (nsteps entries) */
    dvc_ivec_t *P, *R;/* the state set at t_i: {p + B r : p in P_i, r in R_i} */
    dvc_imat_t *B;    /* (B_i a point matrix; internal precision) */
    long *mode;       /* mode on [t_i, t_{i+1}] */
    long nevents, aevents;
    dvc_hybrid_event *ev;
    int certified;              /* 1: reached T */
    dvc_hybrid_class stop_class;/* when not certified: why */
    mpfi_t stop_t;              /* ... and where (time enclosure) */
    long stop_g;                /* switching function concerned, or -1 */
    mpfr_prec_t prec;
    long nwindows;              /* steps bridged by the model's bridge hook
                                 * (ambiguity windows) ... */
    long *wstep;                /* ... their indices i (step [t_i, t_i+1]),
                                 * ascending: mode[i] is the mode before the
                                 * window, but the solution does not follow
                                 * it there; box[i] encloses it */
    /* Streaming (a writer, dvc_hybrid_cert_enclose_write): when sink is set
     * before dvc_hybrid_enclose (which keeps it across its reset), every
     * grid point i is handed to sink(r, i, sink_ctx) as soon as it is
     * pushed (with step i - 1: its box and mode), and the engine then keeps
     * only what it still reads: t, x, P, R, B of grid points base..nsteps
     * and box, mode of steps base..nsteps-1, at index i - base (usually
     * only the last point; back to the last event's point for a model with
     * contacts). base is 0 (everything kept) without a sink. A sink status
     * other than DVC_OK stops the run and is returned. The same for the
     * events with ev_sink(r, k, sink_ctx): event k is held at ev[k -
     * ev_base], the last DVC_HYBRID_EVENTS_KEPT kept. wstep is kept whole. */
    long base, ev_base;
    dvc_status (*sink)(const struct dvc_hybrid_result_s *r, long i, void *ctx);
    dvc_status (*ev_sink)(const struct dvc_hybrid_result_s *r, long k, void *ctx);
    void *sink_ctx;
} dvc_hybrid_result_struct;
typedef dvc_hybrid_result_struct dvc_hybrid_result_t[1];

void dvc_hybrid_result_init(dvc_hybrid_result_t r);
void dvc_hybrid_result_clear(dvc_hybrid_result_t r);

/* Enclose the solution on [t0, T]. Returns DVC_OK (r->certified = 1),
 * DVC_NOT_CERTIFIED with r->stop_class, r->stop_t and a message naming the
 * time, the switching function and the reason (r holds the certified part
 * up to there), or DVC_ERR_INPUT. */
dvc_status dvc_hybrid_enclose(dvc_hybrid_result_t r, const dvc_hybrid_model_t m);

/* Floating-point predictor (not a bound): the same one-step maps in binary64
 * along the grid of a result r computed for m, with the mode changing at
 * the midpoints of the event enclosures; xs[i*n + j] approximates x_j at
 * r->t[i] (i = 0..r->nsteps; xs has (nsteps+1) n entries). */
dvc_status dvc_hybrid_predict(double *xs, const dvc_hybrid_model_t m, const dvc_hybrid_result_t r);

/* Independent re-check of a claimed result (e.g. read back from a
 * certificate) for the model m: the engine is re-run and the claim is
 * accepted (DVC_OK) only if it has the same grid times (exactly), the same
 * modes per step, the same events (switching function, modes before and
 * after) and if every claimed enclosure (grid states, step boxes, event
 * times and states) contains the recomputed one. Otherwise
 * DVC_NOT_CERTIFIED with a message naming the first step or event that
 * differs. A claim that reached T must be reproduced as reaching T. */
dvc_status dvc_hybrid_verify(const dvc_hybrid_model_t m, const dvc_hybrid_result_t claim);
/* The same, keeping the recomputed result in rec (initialised; what it held
 * is released), which a caller may evaluate (dvc_hybrid_eval) once the
 * claim is accepted: every claimed enclosure contains it. */
dvc_status dvc_hybrid_verify_keep(dvc_hybrid_result_t rec, const dvc_hybrid_model_t m,
                                  const dvc_hybrid_result_t claim);

/* Tube evaluation: X encloses x(t) for every t in the interval tt, which
 * must lie in [t0, t_nsteps] of r (computed by dvc_hybrid_enclose for m).
 * Within one step that does not end at a switch, the flow of the step's
 * set is evaluated at tt (as tight as the grid states); otherwise the hull
 * of the step boxes met. */
dvc_status dvc_hybrid_eval(dvc_ivec_t X, const dvc_hybrid_model_t m, const dvc_hybrid_result_t r,
                           const mpfi_t tt);

/* Floating-point companion (never a bound): the conservative DMM step of
 * Hirani, Wan & Wojtalewicz for linear modes (the implicit midpoint rule,
 * which keeps every quadratic invariant of x' = A x) with Mannshardt's
 * transition scheme at the switches, on the grid t0 + k tau (last step to
 * T). Rows: (t, x) at the grid times and at every transition point
 * (t^, x^) on a surface (state before any reset; ev_row, ev_g list them).
 * Field modes are refused (DVC_ERR_INPUT). */
typedef struct {
    long n, ns, alloc;  /* ns rows */
    double *t, *x;      /* t[k], x[k*n + j] */
    long nev;
    long *ev_row, *ev_g;/* row and switching function of each transition */
} dvc_hybrid_traj;
void dvc_hybrid_traj_init(dvc_hybrid_traj *tr);
/* Releases the arrays (the struct may be reused after it). */
void dvc_hybrid_traj_clear(dvc_hybrid_traj *tr);
dvc_status dvc_hybrid_dmm(dvc_hybrid_traj *tr, const dvc_hybrid_model_t m, double tau);

/* The tube of a result, for check, export, plot and the library: grid
 * times t_0 < ... < t_N of r, grid enclosures and step boxes (an enclosure
 * tube, include/dvicert/tube.h), x^i the midpoints of the grid enclosures
 * with eps_x^i a rigorous radius of step i about their interpolant, and
 * the events (label "g: from->to"). flow non-NULL: filled with (m, r) and
 * installed as the tube's evaluator (dvc_hybrid_eval: as tight between
 * grid points as at them); then m, r and *flow must outlive tb's use. */
typedef struct {
    const dvc_hybrid_model_struct *m;
    const dvc_hybrid_result_struct *r;
} dvc_hybrid_flow_ref;
dvc_status dvc_hybrid_tube(dvc_tube_t tb, const dvc_hybrid_model_t m, const dvc_hybrid_result_t r,
                           dvc_hybrid_flow_ref *flow);

#ifdef __cplusplus
}
#endif
#endif
