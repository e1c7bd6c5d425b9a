/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The I/O layer as the command sees it, without JSON types: readers of the
 * matrix and LVI input files (docs/formats.md) and the atomic writer.
 * Private to the library and the command (not installed). Every error names
 * the file and the field; nothing is printed. */
#ifndef DVC_IO_IO_H
#define DVC_IO_IO_H

#include <stddef.h>

#include "dvicert/imat.h"
#include "dvicert/ivec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The matrix in the field `field` of the JSON object in the file at path
 * (an array of rows, entries as in dvc_json_ival, finite). M must have been
 * initialised; an empty M is resized to what the file says at its own
 * precision, otherwise the dimensions must match. Shape checks beyond the
 * rows having one length (square, nonempty) are the caller's. */
dvc_status dvc_io_read_matrix(dvc_imat_t M, const char *path, const char *field);

/* A box LVI / LCP file {"M": m x m, "q": m, "l": m, "u": m}: M square; q
 * finite; l and u finite or -inf / +inf respectively, with l < u entrywise.
 * M, q, l, u must have been initialised empty (size 0); they are resized to
 * m at their own precision. On failure their contents are unspecified (still
 * safe to clear). */
dvc_status dvc_io_read_lvi(dvc_imat_t M, dvc_ivec_t q, dvc_ivec_t l, dvc_ivec_t u, const char *path);

/* Write `text` to path atomically: to a temporary file beside it, then
 * rename. Nothing is left at path on failure. */
/* The top-level string member key of a problem's JSON text (owned), or
 * NULL when it is absent, not a string, or the text is not JSON. */
char *dvc_io_problem_string(const char *problem_json, const char *key);
/* The same for the DLVI problem embedded in the model of a certificate of
 * the events route (docs/formats.md, "Events certificates"); NULL when the
 * model is not one (*is_events 0) or has no such string. */
char *dvc_events_cert_problem_string(const char *model_json, const char *key, int *is_events);

/* The sizes n (rows of "A") and m (rows of "M") a problem file states,
 * without reading it further: 1 when found, 0 otherwise (the file is then
 * read as usual, which reports what is wrong). */
int dvc_io_problem_dims(const char *path, long *n, long *m);

dvc_status dvc_write_atomic(const char *path, const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif
