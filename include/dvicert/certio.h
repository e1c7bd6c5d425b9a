/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate and trajectory files (formats in docs/formats.md), on top of
 * the in-memory certificates of include/dvicert/cert.h and trajectories of
 * include/dvicert/traj.h. */
#ifndef DVICERT_CERTIO_H
#define DVICERT_CERTIO_H

#include "dvicert/cert.h"
#include "dvicert/enclose.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/tabfun.h"
#include "dvicert/traj.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enclosing a problem file into a certificate: dvc_enclose,
 * include/dvicert/enclose.h. */

/* Called for each grid point i = 0..N, in order, by dvc_cert_stream, when
 * c->tube holds it (and, with verification, when it has been verified):
 * the tube may then be evaluated on the steps ending at t_i and the four
 * before (c->tube->steps = i; see dvc_tube_alloc_window). A status other
 * than DVC_OK stops the reading and is returned. */
typedef dvc_status (*dvc_cert_point_fn)(const dvc_cert_t c, long i, void *ctx);

/* Read a certificate file step by step in memory independent of N: c
 * (initialised; what it held is released) receives the header and claims,
 * c->tube a window of 6 grid rows, and fn (may be NULL) each grid point in
 * turn. With verify != 0 the certificate is
 * verified as dvc_cert_verify does, every step recomputed by the engine in
 * lockstep with the reading (fn then sees verified points only; the digest
 * and the summary are checked at the end, so a caller must not trust what
 * fn saw before DVC_OK is returned). Returns DVC_OK, DVC_NOT_CERTIFIED
 * (rejected; verify only) or DVC_ERR_INPUT / DVC_ERR_IO (unusable). A file
 * whose layout is not the one dvicert writes (one top-level member per
 * line, one step per line; e.g. re-indented by another tool) is read whole
 * with dvc_cert_read instead (memory grows with N), provided that is seen
 * before fn is first called; later, it is unusable. */
dvc_status dvc_cert_stream(dvc_cert_t c, const char *path, int verify, dvc_cert_point_fn fn,
                           void *ctx);

/* ---- every kind of certificate ---------------------------------------- */

/* The kind of the certificate file at path from a quiet look at it
 * (dvc_hybrid_file_kind): DVC_CERT_KIND_HYBRID for the hybrid certificate
 * format, DVC_CERT_KIND_DLVI for anything else (its reader then says what is
 * wrong with a file that is not a certificate). */
dvc_cert_kind dvc_cert_file_kind(const char *path);

/* Open the certificate at path, whichever engine made it: *kind (may be
 * NULL) receives its kind, tb (initialised; what it held is released) its
 * tube, copied (stated data: every stated enclosure contains the
 * recomputed one). verify != 0: re-verified first (dvc_cert_verify,
 * dvc_cert_verify_hybrid); DVC_NOT_CERTIFIED when rejected, DVC_ERR_INPUT /
 * DVC_ERR_IO when unusable. The whole file is read (memory grows with N;
 * dvc_cert_stream reads a DLVI certificate step by step). */
dvc_status dvc_cert_open(dvc_tube_t tb, dvc_cert_kind *kind, const char *path, int verify);

/* Re-verification of a hybrid certificate read in c: dvc_hybrid_cert_verify,
 * or for an ideal contact (M = 0) dvc_lcs_cert_verify, its model re-derived
 * from the embedded problem (include/dvicert/lcs.h). rec: as there. */
dvc_status dvc_cert_verify_hybrid(const dvc_hybrid_cert_t c, dvc_hybrid_result_t rec);

/* Write c as JSON atomically (nothing is left at path on failure). */
dvc_status dvc_cert_write(const dvc_cert_t c, const char *path);

/* Read a certificate file: DVC_ERR_INPUT / DVC_ERR_IO when it is unusable
 * (malformed JSON, missing, mistyped or unknown fields, precision above
 * DVC_CERT_PREC_MAX). No bound is checked here; the digests are recomputed
 * for dvc_cert_verify. */
dvc_status dvc_cert_read(dvc_cert_t c, const char *path);

/* The problem embedded in c, rebuilt at c's precision (as verify does).
 * Clear p with dvc_dlvi_problem_clear (include/dvicert/dlvi.h). */
dvc_status dvc_cert_problem(dvc_dlvi_problem_t p, const dvc_cert_t c);

/* Independent re-verification of c (dvc_cert_verify_problem, cert.h): the
 * embedded problem's digest checked, the problem rebuilt from its text at
 * c's precision, every bound recomputed. DVC_OK accepted,
 * DVC_NOT_CERTIFIED rejected with the first reason (step and field),
 * DVC_ERR_INPUT when the embedded problem is unusable. */
dvc_status dvc_cert_verify(const dvc_cert_t c);

/* Read a CSV trajectory for a problem with n states and m multipliers
 * (header t,x1..xn[,y1..ym]; names trimmed, any order). The x columns are
 * required, the y columns optional (all or none); times must lie in [0, T];
 * any order. Decimals are enclosed at mpfi_get_prec(T) + DVC_TRAJ_EXTRA_BITS
 * bits. Errors (DVC_ERR_INPUT) name the file and the line. */
dvc_status dvc_traj_read(dvc_traj_t tr, const char *path, long n, long m, const mpfi_t T);

/* dvc_traj_read, with two generalisations for models that name their
 * states: when names is not NULL (n strings), a state column may be headed
 * by its name or by xj; when t0 is not NULL, times must lie in [t0, T]
 * instead of [0, T]. dvc_traj_read(...) is
 * dvc_traj_read_named(tr, path, n, m, NULL, T, NULL). */
dvc_status dvc_traj_read_named(dvc_traj_t tr, const char *path, long n, long m, mpfr_srcptr t0,
                               const mpfi_t T, const char *const *names);

/* How a trajectory file is read (dvc_traj_read_opts_init: the defaults of
 * dvc_traj_read). */
typedef struct {
    mpfr_srcptr t0;            /* first time (NULL: 0) */
    const char *const *names;  /* n state names accepted besides x1..xn, or NULL */
    const char *const *ynames; /* m output names accepted besides y1..ym, or NULL */
    /* NULL: the first line that is not blank or a comment ('#') is a header
     * naming the columns. Else the file has no header and this names its
     * columns in order, separated by commas: t, a state or output name,
     * xj, yk, or _ for a column that is ignored (e.g. a Siconos-style
     * matrix with time in column 0: "t,x1,x2,_,y1"). */
    const char *columns;
    /* NULL, or a number >= 0: a time in (T, T + t_tol] is read as T, and
     * counted in clipped (simulators print the last time one ulp past T). */
    mpfr_srcptr t_tol;
    long clipped;              /* out: times clipped to T */
} dvc_traj_read_opts;

void dvc_traj_read_opts_init(dvc_traj_read_opts *o);

/* The general reader. Fields are separated by commas when the first line
 * that is not blank or a comment has a comma, else by blanks (spaces and
 * tabs: whitespace-separated text as numpy.savetxt or Siconos write it). */
dvc_status dvc_traj_read_ex(dvc_traj_t tr, const char *path, long n, long m, const mpfi_t T,
                            dvc_traj_read_opts *o);

#ifdef __cplusplus
}
#endif
#endif
