/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificates of DLVI enclosures in memory: built from an engine result,
 * re-verified independently. No file format here: reading and writing
 * certificate files (JSON, docs/formats.md) is include/dvicert/certio.h.
 *
 * A certificate holds the self-contained problem (as JSON text), the method
 * and precision, what was proven (claims), and the tube: for every grid
 * point t_i = i T / N (i = 0..N) the predictor x^i, y^i as exact binary64
 * values and the stated bounds (decimals rounded outward), meaning
 *   |x_j(t) - x^h_j(t)| <= s_j eps_x^i for t in [t_{i-1}, t_i] (i >= 1; x^h
 *       the linear interpolation of the stored x^i), |x_j(0) - x^0_j| <=
 *       s_j eps_x^0, with the state scale s_j of tube->x_scale (method
 *       'x_scale_log2'; 1 without it, docs/bounds.md section 12);
 *   ||y(t_i) - y^i|| <= eps_y^i;
 *   yhat^i encloses SOL(l, u, Q x^i + g(t_i), M);
 *   y(t) in (yhat^{i-1} +- ry^i) meet (yhat^i +- ry^i) for t in [t_{i-1}, t_i]. */
#ifndef DVICERT_CERT_H
#define DVICERT_CERT_H

#include "dvicert/dlvi.h"
#include "dvicert/tube.h"
#include "dvicert/width.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kind of a certificate: one per engine that writes certificates.
 * Every kind is opened the same way (dvc_cert_open, certio.h) and read as a
 * tube (tube.h); the kind's own type holds what only it states
 * (dvc_cert_t here, dvc_hybrid_cert_t in hybrid_cert.h). */
typedef enum {
    DVC_CERT_KIND_DLVI = 1, /* a DLVI enclosure (chen-wang or lognorm route): dvc_cert_t */
    DVC_CERT_KIND_HYBRID    /* a hybrid enclosure (switched, sliding, ideal contact):
                               dvc_hybrid_cert_t */
} dvc_cert_kind;

/* Largest precision (bits) a certificate may state: verify recomputes every
 * bound at it, and its cost grows with it (the bridge, N = 1000: 0.04 s at
 * 53 bits, 0.44 s at 4096, 23 s at 65536). Readers refuse more; enclose
 * does not write more. */
#define DVC_CERT_PREC_MAX 4096

/* One entry of the method or summary: a decimal or a text, an integer or a
 * flag. Decimals named *_upper, max_*, eps_*, h_hi are upper bounds, *_lower
 * and h_lo lower bounds (docs/formats.md). */
typedef enum { DVC_CLAIM_TEXT, DVC_CLAIM_INT, DVC_CLAIM_BOOL } dvc_claim_type;
typedef struct {
    char *key;          /* owned */
    dvc_claim_type type;
    char *text;         /* DVC_CLAIM_TEXT: owned */
    long long ival;     /* DVC_CLAIM_INT, DVC_CLAIM_BOOL (0 / 1) */
} dvc_cert_claim;
typedef struct {
    long n;
    dvc_cert_claim *e;  /* n entries, in the order they are written (owned) */
} dvc_cert_claims;

typedef struct {
    long n, m, N;
    mpfr_prec_t prec;       /* precision the bounds were computed at */
    int sharpen;            /* Remark 4.3 sharpening requested */
    char *generator;        /* "dvicert <version>" of the producer (owned) */
    char *problem_json;     /* the self-contained problem, JSON text (owned) */
    /* Digests (16 hex digits, "" when unknown): stated in a file, and
     * recomputed by the reader from the text it read; verify requires them
     * equal. A certificate built in memory has none (nothing to compare). */
    char problem_digest[17], problem_digest_read[17];
    char digest[17], digest_read[17];
    /* the tube: T, predictor x^i, y^i (exact binary64), enclosures of the
     * stated decimals eps_x, eps_y, yhat ends, ry, and the box [l.lo, u.hi]
     * of the embedded problem (y(t) lies in [l, u], so every y tube is met
     * with it). Geometry: include/dvicert/tube.h. */
    dvc_tube_t tube;
    /* Time labels as stated (N + 1 strings, owned) or NULL: informative;
     * verify checks them against the grid. */
    char **labels;
    dvc_cert_claims method, summary;
    /* How informative the tube is (width.h), accumulated over the grid
     * points as they are certified or read; the claims radius_* of the
     * summary state it. */
    dvc_width_t width;
    /* Filled by dvc_enclose only (not stored in a file): the
     * precision the run started at and, when it was raised, the reason the
     * last lower precision failed with. */
    mpfr_prec_t prec_start;
    char retry_reason[512];
    /* Filled by dvc_enclose with a trajectory only: its
     * samples, whether they were the uniform grid i T / N (else their times
     * are the certificate's time grid), the certificate's T (the last
     * sample used) and the samples after it (not used); on its own times
     * the shortest and longest step (written to a file, the tube, a window,
     * does not hold the times then, and problem_json states 'grid' as a
     * placeholder: the certificate file states them). */
    long from_samples;
    int from_uniform;
    double from_end;
    long from_past;
    double from_hmin, from_hmax;
    /* Private, set while dvc_cert_stream reads: the explicit grid of the
     * embedded problem, read on demand from the file (problem_json then
     * states 'grid' as a placeholder); NULL otherwise. */
    const void *grid_rd;
} dvc_cert_struct;
typedef dvc_cert_struct dvc_cert_t[1];

void dvc_cert_init(dvc_cert_t c);
/* Releases everything the certificate owns. */
void dvc_cert_clear(dvc_cert_t c);

/* The certificate of a fully certified result r of problem p, whose
 * self-contained JSON text is problem_json (copied). Stated bounds are the
 * engine's widened by a relative 2^-40 and rounded outward to 12 decimal
 * digits, and the tube holds exactly those decimals, so that a certificate
 * written and read back states the same numbers. */
dvc_status dvc_cert_from_result(dvc_cert_t c, const dvc_dlvi_problem_t p, const char *problem_json,
                                const dvc_dlvi_result_t r);

/* Independent re-verification of c against p, its embedded problem built
 * at c's precision (a reader builds it: dvc_cert_problem, or dvc_cert_verify
 * which does both, include/dvicert/certio.h): checks the problem digest,
 * puts p into the scale the certificate states (p is modified; the caller
 * still clears it), recomputes every bound from the stored predictor with
 * the engine, and accepts (DVC_OK) only when every stated bound is >= the
 * recomputed one, the claims are implied, the time labels are the grid's
 * and the digests match. DVC_NOT_CERTIFIED (rejected) with the first reason
 * (step and field) otherwise. */
dvc_status dvc_cert_verify_problem(const dvc_cert_t c, dvc_dlvi_problem_t p);

/* The claim named key of a method or summary, or NULL. */
const dvc_cert_claim *dvc_cert_claim_get(const dvc_cert_claims *cl, const char *key);
/* Its text (or "" when absent or not a text). */
const char *dvc_cert_claim_text(const dvc_cert_claims *cl, const char *key);

/* Time label of grid point i: the double nearest to i T / N, "%.17g"
 * (docs/formats.md). buf has 40 bytes. */
void dvc_cert_time_label(char *buf, const mpfi_t T, long N, long i);
/* Time label of grid point i of tb: dvc_cert_time_label on a uniform grid;
 * on a grid with a shorter last step (tb->hgrid > 0) the double nearest to
 * i hgrid (i < N) or to T (i = N). buf has 40 bytes. */
void dvc_cert_grid_label(char *buf, const dvc_tube_t tb, long i);

#ifdef __cplusplus
}
#endif
#endif
