/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificates of DLVI enclosures (docs/formats.md): writing, reading, and
 * independent re-verification.
 *
 * A certificate holds the self-contained problem, its digest, the method
 * and precision, and for every grid point t_i = i T / N (i = 0..N) the
 * predictor x^i, y^i as exact binary64 values and the rigorous bounds
 * (decimal, rounded outward), with the meaning of dvc_dlvi_result_t:
 *   |x_j(t) - x^h_j(t)| <= eps_x^i for t in [t_{i-1}, t_i] (i >= 1; x^h the
 *       linear interpolation of the stored x^i), ||x(0) - x^0|| <= eps_x^0;
 *   ||y(t_i) - y^i|| <= eps_y^i;
 *   yhat^i encloses SOL(l, u, Q x^i + g(t_i), M);
 *   y(t) in (yhat^{i-1} +- ry^i) meet (yhat^i +- ry^i) for t in [t_{i-1}, t_i]. */
#ifndef DVICERT_CERT_H
#define DVICERT_CERT_H

#include <jansson.h>
#include "dvicert/dlvi.h"
#include "dvicert/tube.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest precision (bits) a certificate may state: verify recomputes every
 * bound at it, and its cost grows with it (the bridge, N = 1000: about 2 s
 * at 53 bits, 23 s at 65536). Readers refuse more; enclose does not write
 * more. */
#define DVC_CERT_PREC_MAX 4096

typedef struct {
    long n, m, N;
    mpfr_prec_t prec;       /* precision the bounds were computed at */
    int sharpen;            /* Remark 4.3 sharpening requested */
    json_t *problem;        /* self-contained problem object (borrowed from root) */
    char problem_digest[17];
    char digest[17];        /* of the whole certificate text minus this field */
    /* the tube: T, predictor x^i, y^i (exact binary64), enclosures of the
     * stored decimals eps_x, eps_y, yhat ends, ry, and the box [l.lo, u.hi]
     * of the embedded problem (y(t) lies in [l, u], so every y tube is met
     * with it). Geometry: include/dvicert/tube.h. */
    dvc_tube_t tube;
    /* Filled by dvc_cert_enclose_retry only (not stored in the file): the
     * precision the run started at and, when it was raised, the reason the
     * last lower precision failed with. */
    mpfr_prec_t prec_start;
    char retry_reason[512];
    json_t *summary;        /* what was proven (borrowed from root) */
    json_t *method;         /* method parameters (borrowed from root) */
    json_t *root;           /* the whole certificate as read or built (owned) */
} dvc_cert_struct;
typedef dvc_cert_struct dvc_cert_t[1];

void dvc_cert_init(dvc_cert_t c);
void dvc_cert_clear(dvc_cert_t c);

/* Run the engine on the problem file and fill c. `prec` = 0: the file's.
 * DVC_NOT_CERTIFIED (with the engine's reason) when no certificate could
 * be produced. */
dvc_status dvc_cert_enclose(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec,
                            int sharpen);

/* Same, retrying at doubled precision while the run is not certified and
 * the precision stays <= prec_max (prec_max <= the start precision: no
 * retry). Every attempt rebuilds the problem at its precision, so the
 * certificate's "precision" is the one the problem data and the bounds were
 * computed at, which is what verify recomputes with. c->prec tells the
 * precision used, c->prec_start the first one tried. */
dvc_status dvc_cert_enclose_retry(dvc_cert_t c, const char *problem_path, mpfr_prec_t prec,
                                  mpfr_prec_t prec_max, int sharpen);

/* Write c atomically (nothing is left at path on failure). */
dvc_status dvc_cert_write(const dvc_cert_t c, const char *path);

/* Read a certificate: DVC_ERR_INPUT / DVC_ERR_IO when the file is
 * unusable (malformed JSON, missing or mistyped fields). No bound is
 * checked here. */
dvc_status dvc_cert_read(dvc_cert_t c, const char *path);

/* Independent re-verification: rebuilds the problem from the embedded copy,
 * recomputes every bound from the stored predictor with the engine, and
 * accepts (DVC_OK) only when every stored bound is >= the recomputed one,
 * the digests match and the time labels are the grid's. DVC_NOT_CERTIFIED
 * (rejected) with the first reason (step and field) otherwise;
 * DVC_ERR_INPUT when the embedded problem is unusable. */
dvc_status dvc_cert_verify(const dvc_cert_t c);

#ifdef __cplusplus
}
#endif
#endif
