/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A flat interface for foreign-function callers (the Python module in
 * python/dvicert uses it through ctypes): file names, plain integers and
 * arrays of double, no MPFI type. Everything goes through the certificate
 * and tube modules (cert.h, certio.h, tube.h, traj.h), so a result here is
 * the one the command line gives for the same files.
 *
 * Status: the functions returning int return a dvc_status (error.h) unless
 * said otherwise (dvc_flat_claim, dvc_flat_width); on
 * failure dvc_error_message() says why, naming the file and the field.
 *
 * Doubles out of a tube are rounded outward: lower edges down, upper edges
 * up, so an array of doubles still encloses what the certificate proves.
 * Grid times are given as the nearest doubles (labels, as in the
 * certificate file): t_i = i T / N, or, when the problem's step h does not
 * divide T, t_i = i h' (i < N) and t_N = T, the last step shorter
 * (docs/formats.md, "Time grid"). The bounds at grid point i hold at the
 * exact time t_i, and a step hull holds for every time of its step. */
#ifndef DVICERT_FLAT_H
#define DVICERT_FLAT_H

#ifdef __cplusplus
extern "C" {
#endif

/* A certificate read from a file (opaque; owned by the caller, released
 * by dvc_flat_close). */
typedef struct dvc_flat_cert dvc_flat_cert;

/* dvicert enclose PROBLEM -o CERT: method "auto", "chen-wang", "lognorm" or "events"
 * (NULL: "auto", the command's default: dvc_enclose_choose, enclose.h,
 * lognorm when from_csv is given, chen-wang when sharpen or prec_max > 0
 * is); from_csv (may be NULL) a
 * trajectory t,x1..xn certified instead of the theta predictor (lognorm);
 * prec 0: the file's; prec_max > 0: retry at doubled precision up to it
 * (chen-wang); sharpen: Remark 4.3 (chen-wang); allow_outside_tables as
 * --allow-outside-tables. Nothing is left at cert_path on failure.
 * DVC_NOT_CERTIFIED when no certificate could be produced. */
int dvc_flat_enclose(const char *problem_path, const char *cert_path, const char *method,
                     const char *from_csv, long prec, long prec_max, int sharpen,
                     int allow_outside_tables);
/* dvc_flat_enclose with the choice of state scaling (enclose --scale):
 * scale NULL or "auto" (what dvc_flat_enclose does: certify in the
 * automatic scale of the states, recorded in the certificate), "none"
 * (certify the states as given); anything else is DVC_ERR_INPUT. */
int dvc_flat_enclose_scale(const char *problem_path, const char *cert_path, const char *method,
                           const char *from_csv, long prec, long prec_max, int sharpen,
                           int allow_outside_tables, const char *scale);

/* Read a certificate file of any kind whole (memory grows with N); verify
 * != 0 re-verifies it as 'dvicert verify' does (DVC_NOT_CERTIFIED:
 * rejected). *h is NULL on failure. Every function below reads the
 * certificate's tube, whatever its kind; a hybrid certificate (m = 0 unless events route or DAE) states
 * no claims, its "problem" is its model, and its width is measured on its
 * tube (radii about the midpoints of the stated enclosures). A switched
 * DAE's (a model with algebraic variables, docs/dae.md) tube has them as y
 * (m = their number), enclosed from the stated x as 'dvicert export' does. */
int dvc_flat_open(dvc_flat_cert **h, const char *cert_path, int verify);
void dvc_flat_close(dvc_flat_cert *h);

/* The certificate's kind (dvc_cert_kind, include/dvicert/cert.h): 1 DLVI,
 * 2 hybrid. */
int dvc_flat_kind(const dvc_flat_cert *h);

/* dims[0..3] = n, m, N, precision in bits. */
void dvc_flat_dims(const dvc_flat_cert *h, long dims[4]);

/* The problem (hybrid: the model) embedded in the certificate (JSON text,
 * owned by h). */
const char *dvc_flat_problem_json(const dvc_flat_cert *h);

/* 1 when h is a hybrid certificate of a friction model: its sliding on
 * h = 0 is sticking, and the commands name enter-slide / leave-slide
 * stick / slip (docs/sliding.md); else 0. */
int dvc_flat_friction(const dvc_flat_cert *h);

/* The tube at the N + 1 grid points: t (N + 1), x_lo, x_hi ((N + 1) x n,
 * row-major), y_lo, y_hi ((N + 1) x m); any pointer may be NULL. */
int dvc_flat_grid(const dvc_flat_cert *h, double *t, double *x_lo, double *x_hi, double *y_lo,
                  double *y_hi);
/* Outer hulls over the N steps: row i - 1 holds step [t_{i-1}, t_i]. */
int dvc_flat_hulls(const dvc_flat_cert *h, double *x_lo, double *x_hi, double *y_lo,
                   double *y_hi);
/* The predictor x^i, y^i (exact binary values; (N + 1) x n, (N + 1) x m). */
int dvc_flat_predictor(const dvc_flat_cert *h, double *x, double *y);

/* Check ns samples (t[s], x[s * n ..], y[s * m ..]; y may be NULL: x only)
 * as 'dvicert check' does. margins (may be NULL; ns x (n + m), or ns x n
 * without y) receives per value the distance to the nearest inner edge of
 * the tube, rounded down (negative: outside). counts[0..3] = values
 * outside, samples with a value outside, worst sample, worst component
 * (0..n-1 x, n.. y); worst[0..2] = smallest margin overall, over x, over y
 * (+inf when none). A time outside [0, T] is DVC_ERR_INPUT. */
int dvc_flat_check(const dvc_flat_cert *h, long ns, const double *t, const double *x,
                   const double *y, double *margins, long counts[4], double worst[3]);

/* Entry i of the certificate's method (which = 0) or summary (which = 1):
 * *key, *text (NULL unless a text) and *ival (integer or flag) point into
 * h. Returns the entry's type (0 text, 1 integer, 2 flag) or -1 when i is
 * out of range. */
int dvc_flat_claim(const dvc_flat_cert *h, int which, long i, const char **key, const char **text,
                   long long *ival);

/* How informative the tube is (width.h): rel_max[j], rel_T[j] (n entries
 * each, may be NULL) the largest radius and the radius at T relative to
 * the size of state j. Returns the verdict (0 informative, 1 wide,
 * 2 uninformative). */
int dvc_flat_width(const dvc_flat_cert *h, double *rel_max, double *rel_T);

/* Write the certificate to path (atomically), as 'dvicert enclose' does. */
int dvc_flat_write(const dvc_flat_cert *h, const char *path);

#ifdef __cplusplus
}
#endif
#endif
