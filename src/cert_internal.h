/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the certificate core (src/cert.c, src/cert_lognorm.c) and the
 * certificate files that translate it (src/io/cert_json.c): claims, the
 * stated decimals of a grid point, the verification's open and close steps,
 * scaling and route options as certificates state them. Nothing here knows
 * JSON. */
#ifndef DVC_CERT_INTERNAL_H
#define DVC_CERT_INTERNAL_H

#include "dvicert/cert.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/lognorm.h"

/* Append a claim to cl (key and text copied): src/cert.c, shared with the
 * reader. */
dvc_status dvc_cert_claims_add_(dvc_cert_claims *cl, const char *key, dvc_claim_type ty,
                                const char *text, long long ival);

/* A decimal claim of x widened and rounded outward (up: an upper bound),
 * as every stated bound (src/cert.c). */
dvc_status dvc_cert_claim_bound_(dvc_cert_claims *cl, const char *key, const mpfr_t x, int up);

/* The claims of the lognorm route (src/cert_lognorm.c): the method (route,
 * predictor "theta", "heun" or "external", pieces, grid, the norm and the mode norms as exact doubles)
 * and the summary (mu of
 * every pattern, norm constants, counts, the bounds). */
dvc_status dvc_cert_lognorm_method_claims_(dvc_cert_claims *cl, const dvc_dlvi_problem_t p,
                                           const dvc_dlvi_result_t r, const dvc_lognorm_info_struct *info,
                                           long pieces, const char *predictor);
/* The norms a lognorm certificate's method states (lognorm_norm,
 * lognorm_modes; n the dimension) as *out (one block, freed by the caller
 * with free) of *nout entries, the run's norm first. DVC_NOT_CERTIFIED when
 * they are absent (an older certificate) or malformed. */
dvc_status dvc_cert_lognorm_stated_(const dvc_cert_claims *method, long n, dvc_lognorm_stated **out,
                                    long *nout);
dvc_status dvc_cert_lognorm_summary_claims_(dvc_cert_claims *cl, const dvc_dlvi_result_t r,
                                            const dvc_lognorm_info_struct *info, mpfr_srcptr eps_T);
/* The route a certificate states (method entry 'route'): 1 lognorm, 0
 * Algorithm 4.2 (absent), -1 unknown. */
int dvc_cert_route_(const dvc_cert_t c);

/* A grid with a shorter last step (r->grid.h > 0): the step h exactly
 * ("h_step", hexadecimal binary64, compared verbatim) and bounds of the last
 * step's length T - (N-1) h ("h_last_lo", "h_last_hi"); nothing on a
 * uniform grid (src/cert.c). */
dvc_status dvc_cert_grid_claims_(dvc_cert_claims *cl, const dvc_dlvi_result_t r);

/* Claims shared by the in-memory and the streaming paths (src/cert.c). */
void dvc_cert_claims_clear_(dvc_cert_claims *cl);
dvc_status dvc_cert_method_claims_(dvc_cert_claims *cl, const dvc_dlvi_problem_t p,
                                   const dvc_dlvi_result_t r);
/* The summary's first claims, the same on both routes: the theorem text,
 * the P-matrix proof and the bounds of beta_M with their method. */
dvc_status dvc_cert_summary_head_(dvc_cert_claims *cl, const dvc_dlvi_result_t r,
                                  const char *theorem);
/* eps_T: the bound at t_N (the result may be a streamed window). */
dvc_status dvc_cert_summary_claims_(dvc_cert_claims *cl, const dvc_dlvi_result_t r,
                                    mpfr_srcptr eps_T);
/* First stated claim not implied by the recomputed ones, or NULL. */
const char *dvc_cert_claims_hold_(const dvc_cert_claims *stored, const dvc_cert_claims *rec);
/* The embedded problem is the one the certificate was written for: its
 * digest as read equals the stated one (else DVC_NOT_CERTIFIED), and there
 * is one (else DVC_ERR_INPUT). A reader checks it before it builds the
 * problem. */
dvc_status dvc_cert_problem_digest_(const dvc_cert_t c);
/* The verification's first and last steps, shared by
 * dvc_cert_verify_problem and the streaming reader (src/io/cert_json.c),
 * given p, the embedded problem built at c's precision (the caller's to
 * clear): open_ checks the problem digest, puts p into the stated scale
 * (below), initialises r and sets o to the defaults with c's sharpening and
 * precision; on failure it clears r. close_ checks the method and summary
 * claims against r and the digest, and clears r. */
dvc_status dvc_cert_verify_open_(const dvc_cert_t c, dvc_dlvi_problem_t p, dvc_dlvi_result_t r,
                                 dvc_dlvi_opts *o, long **scale);
/* Scaling of the state (method entry 'x_scale_log2', docs/formats.md).
 * verify_open_ above rejects a stated scale other than the embedded
 * problem's automatic one, builds p in the scaled variables and hands the
 * exponents to *scale (malloc'd; NULL for the identity). */
/* The stated exponents into e (n; all 0 when absent, *present = 0);
 * DVC_ERR_INPUT naming file when malformed. */
dvc_status dvc_cert_scale_get_(const dvc_cert_claims *method, long n, long *e, int *present,
                               const char *file);
/* Append the claim 'x_scale_log2' unless e is the identity (or NULL). */
dvc_status dvc_cert_scale_claim_(dvc_cert_claims *cl, const long *e, long n);
/* The summary's 'norm' text for a scaled run (unchanged for the identity). */
dvc_status dvc_cert_scale_norm_(dvc_cert_claims *cl, const long *e, long n);
/* tb->x_scale = 2^e (NULL for the identity). */
dvc_status dvc_cert_scale_tube_(dvc_tube_t tb, const long *e);
/* dvc_cert_from_result for a result r of the problem scaled by 2^e
 * (dvc_dlvi_problem_scale; e NULL: none): the tube holds x = S z. */
dvc_status dvc_cert_from_result_scaled_(dvc_cert_t c, const dvc_dlvi_problem_t p,
                                        const char *problem_json, const dvc_dlvi_result_t r,
                                        const long *e);
dvc_status dvc_cert_verify_close_(const dvc_cert_t c, const dvc_dlvi_problem_t p, dvc_dlvi_result_t r,
                                  dvc_status st);
/* The same for the lognorm route: its claims from r and info (run with
 * pieces pieces per step); also clears info. */
dvc_status dvc_cert_verify_close_lognorm_(const dvc_cert_t c, const dvc_dlvi_problem_t p,
                                          dvc_dlvi_result_t r, dvc_lognorm_info_t info, long pieces,
                                          dvc_status st);
/* The options of the route a certificate states (method 'route', 'pieces'):
 * 1 lognorm (lo filled, lo->dlvi = *o, lo->stated the certificate's norms),
 * 0 Algorithm 4.2, or
 * DVC_NOT_CERTIFIED for an unknown route (*route_out = -1). */
dvc_status dvc_cert_route_opts_(const dvc_cert_t c, const dvc_dlvi_opts *o, dvc_lognorm_opts *lo, int *route_out);
/* Frees the stated norms dvc_cert_route_opts_ put into lo. */
void dvc_cert_route_opts_clear_(dvc_lognorm_opts *lo);
/* Grid point i of a full result, as the engine's sink would see it. */
void dvc_cert_point_of_result_(dvc_dlvi_point *pt, const dvc_dlvi_result_t r, long i);
/* The stated numbers of a certified point into row `row` of tb (n, m set):
 * widened, rounded to 12 digits; DVC_NOT_CERTIFIED when one is not finite. */
dvc_status dvc_cert_state_point_(dvc_tube_t tb, long row, const dvc_dlvi_point *pt);
/* The same, with the stated decimals as text (what a writer prints) into
 * txt[0..2 + 2m]: eps_x, eps_y, ry ("0" at i = 0), then yhat lo, hi of each
 * component. An entry left empty was longer than DVC_CERT_DEC_LEN - 1. */
#define DVC_CERT_DEC_LEN 64
dvc_status dvc_cert_state_point_txt_(dvc_tube_t tb, long row, const dvc_dlvi_point *pt,
                                     char (*txt)[DVC_CERT_DEC_LEN]);
/* Grid point i, held in row `row` of c->tube, into c->width (i = 0 starts
 * it; points must come in order). */
dvc_status dvc_cert_width_point_(dvc_cert_struct *c, long i, long row);
/* The summary claims radius_* from w (none when w is empty). */
dvc_status dvc_cert_width_claims_(dvc_cert_claims *cl, const dvc_width_t w);
/* Verify a recomputed point against the stated row `row` of tb: each
 * stated bound >= the recomputed one, yhat containing the recomputed
 * enclosure, the label (when given) the grid's. DVC_NOT_CERTIFIED naming
 * the step and the field. */
dvc_status dvc_cert_check_point_(const dvc_tube_t tb, long row, const dvc_dlvi_point *pt,
                                 const char *label);

/* ---- hybrid certificates (src/cert_hybrid.c) ---- */

/* c's model built (c->have_model) and its text in c->model_json: refuses a
 * precision above DVC_CERT_PREC_MAX (where names the source), states the
 * method and the generator, and runs the hybrid engine into c->res. */
dvc_status dvc_hybrid_cert_run_model_(dvc_hybrid_cert_t c, const char *where);
/* Upper bounds (64 bits) of the widest state component at T and of the
 * widest event time of r: what the summary states. */
void dvc_hybrid_cert_widths_(mpfr_t wT, mpfr_t wev, const dvc_hybrid_result_struct *r);
/* The summary's claims (steps, crossings, widths) against the recomputed
 * run r; wev_run: the widest event width when r no longer holds its events
 * (a streamed verify), else NULL. DVC_OK when c states no summary. */
dvc_status dvc_hybrid_cert_check_summary_(const dvc_hybrid_cert_struct *c, const dvc_hybrid_result_struct *r,
                                          mpfr_srcptr wev_run);
/* The checks of dvc_hybrid_cert_verify before the recomputation: the
 * digests, the stated method against the embedded model. */
dvc_status dvc_hybrid_cert_prechecks_(const dvc_hybrid_cert_struct *c);
/* The largest relative radius over the states (half-width of a grid
 * enclosure, rounded up, against the largest magnitude the state reaches;
 * a state that stays 0 against the largest of the others), and that state
 * in *worst: what `info` reports as a hybrid certificate's verdict. */
double dvc_hybrid_cert_rel_radius_(const dvc_hybrid_result_struct *r, long n, long *worst);
#endif
