/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate and trajectory files (formats in docs/formats.md), on top of
 * the in-memory certificates of include/dvicert/cert.h and trajectories of
 * include/dvicert/traj.h. */
#ifndef DVICERT_CERTIO_H
#define DVICERT_CERTIO_H

#include "dvicert/cert.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/tabfun.h"
#include "dvicert/traj.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the engine on the problem file and fill c. `prec` = 0: the file's.
 * DVC_NOT_CERTIFIED (with the engine's reason) when no certificate could
 * be produced; DVC_ERR_INPUT above DVC_CERT_PREC_MAX bits. */
dvc_status dvc_cert_enclose(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec,
                            int sharpen);

/* Same, retrying at doubled precision while the run is not certified and
 * the precision stays <= prec_max and <= DVC_CERT_PREC_MAX (prec_max <= the
 * start precision: no retry). Every attempt rebuilds the problem at its
 * precision, so the certificate's precision is the one the problem data
 * and the bounds were computed at, which is what verify recomputes with.
 * c->prec tells the precision used, c->prec_start the first one tried. */
dvc_status dvc_cert_enclose_retry(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec,
                                  mpfr_prec_t prec_max, int sharpen);
/* Same, with the table files the problem names allowed by tables (NULL:
 * the defaults of dvc_table_policy, include/dvicert/tabfun.h). */
dvc_status dvc_cert_enclose_tables(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec,
                                   mpfr_prec_t prec_max, int sharpen, const dvc_table_policy *tables);

/* dvc_cert_enclose_retry writing the certificate to out_path while the
 * steps are certified: memory independent of N. The file is the one
 * dvc_cert_write would write for the same run (docs/formats.md), written
 * through dvc_outfile_open (files.h): nothing is left at a regular path
 * when the run fails. c (initialised; what it held is released) receives
 * the header, the claims and the digest, but not the tube (c->tube holds
 * only the last two grid points) nor the labels. With prec_max > 0 and a
 * direct output (stdout, a pipe, a device), the precision is found first
 * and the certificate computed again at it, since a direct output cannot
 * be taken back. The table files the problem names are allowed by tables
 * (NULL: the defaults of dvc_table_policy). */
dvc_status dvc_cert_enclose_stream(dvc_cert_t c, const char *problem_path, const char *out_path,
                                   mpfr_prec_t prec, mpfr_prec_t prec_max, int sharpen,
                                   const dvc_table_policy *tables);

/* The certification route of a certificate (docs/lognorm.md). */
typedef enum {
    DVC_CERT_ROUTE_CHEN_WANG = 0, /* Algorithm 4.2 (the paper's; Table 1) */
    DVC_CERT_ROUTE_LOGNORM        /* one-sided Lipschitz bounds in weighted norms */
} dvc_cert_route;

typedef struct {
    dvc_cert_route route;
    int sharpen;      /* chen-wang only (Remark 4.3) */
    long pieces;      /* lognorm: pieces per step (0: the default, or
                         DVC_LOGNORM_PIECES_EXT with a trajectory) */
    const char *from; /* lognorm: a CSV trajectory t,x1..xn of another tool
                         (extra columns ignored, times increasing from 0 to
                         at least T) certified instead of the theta
                         predictor; NULL: the theta predictor */
    const char *predictor; /* lognorm without a trajectory: "theta" (NULL: the
                              default) or "heun" (Heun's method, order 2) */
    long N;           /* number of steps (h = T/N) in place of the file's; 0:
                         the file's. The embedded problem then states this N
                         (and no "h"), so verify rebuilds the same grid. Not
                         with from (the trajectory sets the grid) */
    int no_scale;     /* 1: certify the states as given; 0 (default): in the
                         automatic scale (docs/bounds.md, "Scaling of the
                         state"; recorded in the certificate) */
} dvc_cert_route_opts;

/* The route of the default choice ("auto"): lognorm, the tighter route,
 * when the problem file states at most DVC_CERT_AUTO_LOGNORM_N states (its
 * cost per step grows like n^3), else chen-wang, to be run with the local
 * constant of Remark 4.3 (sharpen). A caller taking lognorm this way falls
 * back to chen-wang with sharpen when it does not certify. A file whose
 * sizes cannot be read gives chen-wang (its reader then says what is
 * wrong). */
#define DVC_CERT_AUTO_LOGNORM_N 16
dvc_cert_route dvc_cert_auto_route(const char *problem_path);

/* dvc_cert_enclose_stream by the route of ro (NULL: chen-wang, no
 * sharpening), without precision retries. For a trajectory, the certificate's
 * grid is the trajectory's own times: when they are uniform (t_j = j T / M to
 * a relative 1e-9) the embedded problem states N = M; otherwise it states
 * them as its time grid ('grid', up to the first sample >= T (1 - 1e-9),
 * which becomes its T; c->from_uniform, c->from_samples, c->from_end and
 * c->from_past tell which); the samples are used as they are. Bad trajectories are DVC_ERR_INPUT naming the file and the
 * line; nothing is left at out_path on failure. out_path NULL: a dry run,
 * nothing written; c receives the header and the claims (the summary's
 * bounds), as with a file. */
dvc_status dvc_cert_enclose_stream_route(dvc_cert_t c, const char *problem_path, const char *out_path,
                                         mpfr_prec_t prec, const dvc_cert_route_opts *ro,
                                         const dvc_table_policy *tables);

/* dvc_cert_enclose_stream (precision retries up to prec_max) with the
 * chen-wang options of ro (sharpen, N, no_scale; NULL: the defaults).
 * DVC_ERR_INPUT for another route or a trajectory. */
dvc_status dvc_cert_enclose_stream_opts(dvc_cert_t c, const char *problem_path, const char *out_path,
                                        mpfr_prec_t prec, mpfr_prec_t prec_max,
                                        const dvc_cert_route_opts *ro, const dvc_table_policy *tables);

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
