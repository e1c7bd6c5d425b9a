/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Tabulated functions of t: samples (t_k, v_k) joined by straight lines, read
 * from CSV or from PEER NGA .AT2 ground-motion records, evaluated over time
 * intervals with rigorous range and Lipschitz enclosures.
 * Formats and semantics: docs/expressions.md. */
#ifndef DVICERT_TABFUN_H
#define DVICERT_TABFUN_H

#include <stddef.h>

#include "dvicert/ival.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    long n;              /* number of samples (>= 2 once loaded) */
    mpfi_t *t;           /* enclosures of the sample times, t[k].hi < t[k+1].lo */
    mpfi_t *v;           /* enclosures of the (scaled) values */
    mpfi_t *slope;       /* enclosures of the n-1 segment slopes */
    int uniform;         /* t_k = k*dt exactly (AT2) */
    mpfi_t dt;           /* enclosure of the step when uniform */
    mpfr_prec_t prec;
    char *source;        /* file name (or the name given), for messages */
    char *desc, *units;  /* AT2 header lines 2 and 3; NULL for CSV */
    mpfi_t tmp[3];       /* scratch */
} dvc_tabfun_struct;
typedef dvc_tabfun_struct dvc_tabfun_t[1];

/* Table files are read whole into memory: a file larger than this many
 * bytes (256 MiB) is refused, as is anything that is not a regular file
 * (a device such as /dev/zero, a FIFO, a socket). */
#define DVC_TABLE_MAX_BYTES ((size_t)256 << 20)

/* What the table files named in a problem file may be (see
 * docs/formats.md, "Tabulated data"). Zero-initialised: the defaults. */
typedef struct {
    size_t max_bytes;  /* largest table file read; 0: DVC_TABLE_MAX_BYTES */
    int allow_outside; /* nonzero: read tables outside the problem file's
                          directory tree too (absolute paths, '..', links) */
} dvc_table_policy;

/* Empty table at the working precision / at prec. Evaluation writes scratch
 * inside the object: one table must not be evaluated by two threads at once. */
void dvc_tabfun_init(dvc_tabfun_t f);
void dvc_tabfun_init2(dvc_tabfun_t f, mpfr_prec_t prec);
void dvc_tabfun_clear(dvc_tabfun_t f);

/* Load a file (a regular file of at most DVC_TABLE_MAX_BYTES bytes, no NUL
 * byte). scale (may be NULL: 1) multiplies every value, e.g.
 * 9.80665 to turn g into m/s^2. Every decimal is enclosed exactly (never
 * rounded to double first). Errors name the file and the line.
 *   CSV: two fields per line, "t,value" (comma, or blanks when the line has
 *     no comma); an optional header row (a first line whose first field is
 *     not a number); empty lines and lines starting with '#' are skipped;
 *     times strictly increasing; at least 2 samples.
 *   AT2: PEER NGA format: 3 free text lines (title, record, units), line 4
 *     "NPTS= 7814, DT= .0050 SEC" or the older "7814 .0050 NPTS, DT", then
 *     NPTS values separated by blanks (or commas); t_k = k*DT.
 * format: "csv", "at2", or NULL to choose by the extension (.at2, any case,
 * is AT2; anything else CSV). */
dvc_status dvc_tabfun_read(dvc_tabfun_t f, const char *path, const char *format, const mpfi_t scale);
dvc_status dvc_tabfun_read_csv(dvc_tabfun_t f, const char *path, const mpfi_t scale);
dvc_status dvc_tabfun_read_at2(dvc_tabfun_t f, const char *path, const mpfi_t scale);
/* The same from text in memory; name is used in messages ("NAME:LINE:
 * reason"); NULL: "table line LINE: reason", for text embedded in a field
 * that the caller names. */
dvc_status dvc_tabfun_parse_csv(dvc_tabfun_t f, const char *text, const char *name, const mpfi_t scale);
dvc_status dvc_tabfun_parse_at2(dvc_tabfun_t f, const char *text, const char *name, const mpfi_t scale);
/* From enclosures of the samples (times must be strictly increasing and
 * separated: t[k].hi < t[k+1].lo). */
dvc_status dvc_tabfun_set(dvc_tabfun_t f, long n, const mpfi_t *t, const mpfi_t *v, const char *name);

/* Enclosures of the first and last sample times. */
void dvc_tabfun_tmin(mpfi_t r, const dvc_tabfun_t f);
void dvc_tabfun_tmax(mpfi_t r, const dvc_tabfun_t f);

/* r encloses {f(t) : t in T}: the hull of the values at the ends of T and at
 * the samples inside T. T must lie in [t_0, t_N]: a T reaching beyond is an
 * input error (DVC_ERR_INPUT, message names the file and the range). Within
 * the rounding uncertainty of t_0 and t_N (a few ulps, e.g. N*DT) f is
 * continued by the end values. */
dvc_status dvc_tabfun_eval(mpfi_t r, const dvc_tabfun_t f, const mpfi_t T);
/* L >= max |slope| of the segments meeting T, rounded up: a Lipschitz
 * constant of f on T. */
dvc_status dvc_tabfun_lipschitz(mpfr_t L, const dvc_tabfun_t f, const mpfi_t T);
/* Both at once (r or L may be NULL). */
dvc_status dvc_tabfun_eval_lip(mpfi_t r, mpfr_t L, const dvc_tabfun_t f, const mpfi_t T);
/* d encloses every slope of the segments meeting T (0 included where T
 * reaches the constant continuation before the first / after the last
 * sample): f(s) - f(s') lies in (s - s') d for s, s' in T. */
dvc_status dvc_tabfun_deriv(mpfi_t d, const dvc_tabfun_t f, const mpfi_t T);

#ifdef __cplusplus
}
#endif
#endif
