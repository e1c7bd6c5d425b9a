/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Ideal contacts, the mathematics on a problem in memory (src/hybrid/lcs.c;
 * the route's files and certificates: dvicert/lcs_cert.h).
 * Ideal contacts: linear complementarity systems
 *   x' = A x + B y + f(t),  0 <= y _|_ Q x + g >= 0   (a DLVI with M = 0)
 * of relative degree one (Q B a P-matrix; m = 1: Q B > 0), certified as
 * sliding motions on the constraint faces by the hybrid engine
 * (docs/ideal_contacts.md). The problem is translated into a decomposed
 * hybrid model with one discontinuous term per contact ("contact", or
 * "contact1" .. "contactm": y_j = 0 where w_j = (Q x + g)_j > 0, y_j = K
 * where w_j < 0); its certificate is a hybrid certificate whose embedded
 * model carries the member "lcs" (the problem and K), so that verify
 * re-derives the model and re-proves Q B a P-matrix.
 *
 * Supported: m <= 8 with at most one face active at a time (a run that
 * reaches a second face while on one stops, not certified), M = 0
 * exactly, l = 0, u = +inf, g constant, f given as expressions (no
 * tables). Refused with the reason otherwise. */
#ifndef DVICERT_LCS_H
#define DVICERT_LCS_H

#include "dvicert/dlvi.h"
#include "dvicert/hybrid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the route on a problem in memory (src/hybrid/lcs.c) ---- */

/* Most contacts of the route. */
#define DVC_LCS_MAX 8

/* The class: m <= DVC_LCS_MAX, l = 0 and u = +inf (M = 0 is the caller's
 * test). DVC_ERR_INPUT naming file, the field and the reason otherwise. */
dvc_status dvc_lcs_check_class(const dvc_dlvi_problem_t p, const char *file);
/* The proof of relative degree one: Q B a P-matrix (m = 1: Q B > 0) over
 * the enclosures of Q and B; then the initial regions from w0 = Q x0 +
 * g(0): sides0[j] (m entries) 1 where w0_j > 0 is proven, 2 where w0_j = 0
 * exactly (at most one contact); a problem on a given grid is refused
 * (the route chooses its steps). DVC_ERR_INPUT for a problem outside the
 * class (a zero diagonal entry of Q B is relative degree two, impacts),
 * DVC_NOT_CERTIFIED when Q B cannot be proven a P-matrix. */
dvc_status dvc_lcs_prove(int *sides0, const dvc_dlvi_problem_t p, const char *file);
/* The name of the term of contact j of m: "contact" (m = 1), else
 * "contact1" .. "contactm"; and the name of the mode with the regions
 * sides0 ("contact1>0&contact2=0"). Both return buf. */
const char *dvc_lcs_term_name(char *buf, size_t len, long m, long j);
const char *dvc_lcs_mode_name(char *buf, size_t len, long m, const int *sides0);
/* The engine's largest step for p: its h, else T/N rounded down to a
 * double. */
double dvc_lcs_step(const dvc_dlvi_problem_t p);

/* What the translation takes beside the problem: the inputs the route's
 * file layer (src/io/lcs_json.c) reads with the hybrid model reader's rules,
 * so that the model built here is the model its rendering reads as. */
typedef struct {
    const char *file;                     /* for messages */
    const char *const *names;             /* the n state names */
    /* f_i as an expression text of t over consts; a NULL entry: the
     * number lcs_f_i of consts; f NULL: the problem gives no f */
    const char *const *f;
    int has_g;                            /* the constants lcs_g_j exist */
    /* the problem's named constants, then lcs_A_i_j, lcs_B_i_j, lcs_Q_j_i,
     * lcs_f_i, lcs_g_j (the nonzero entries) and lcs_K */
    const dvc_expr_consts_struct *consts;
    dvc_ivec_srcptr x0;                   /* the initial state, at prec */
    mpfr_srcptr T;                        /* the final time (t0 = 0) */
    mpfr_prec_t prec;                     /* the model's precision */
} dvc_lcs_source;

/* The translated model (docs/ideal_contacts.md, section 2), built in
 * memory: Stewart's decomposed form with one term per contact j (h = (Q x
 * + g)_j, f+ = 0, f- = B e_j K), f0 = A x + f(t), initial mode from sides0
 * (dvc_lcs_prove), the engine's step dvc_lcs_step(p). m is initialised
 * here (clear it also on failure). Every expression is the program its
 * text in the rendered model parses to (src/hybrid/lcs_model.c). */
dvc_status dvc_lcs_model(dvc_hybrid_model_t m, const dvc_dlvi_problem_t p, const dvc_lcs_source *s,
                         const int *sides0);

/* The run r of the translated model m is the LCS solution: its initial
 * mode, every step and every event lie in w_j > 0 or on w_j = 0 for every
 * contact j, never in w_j < 0. DVC_OK, or DVC_NOT_CERTIFIED naming the first offending step or
 * event. */
dvc_status dvc_lcs_result_check(const dvc_hybrid_model_t m, const dvc_hybrid_result_struct *r);

#ifdef __cplusplus
}
#endif
#endif
