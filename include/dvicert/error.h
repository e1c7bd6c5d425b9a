/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* One error-reporting path for the whole library: every function that can
 * fail returns a dvc_status and, on failure, leaves a message here.
 *
 * A message is a chain of places separated by ": ", outermost first, ending
 * in the reason: "bridge.json: field 'M' row 2 column 1: not a number".
 * Each layer prepends only the place it knows (file, field, step, time).
 * Both functions below keep that form: a module name given as a place
 * ("dlvi: ", "lvi: ") is dropped, and a place that the message names
 * further in (the same text, or followed by ":LINE") is not repeated. */
#ifndef DVICERT_ERROR_H
#define DVICERT_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* Three outcomes of a certifying call (certified, not certified with the
 * reason, bad input), plus resource errors. */
typedef enum {
    DVC_OK = 0,            /* certified / succeeded */
    DVC_NOT_CERTIFIED = 1, /* valid input, but no proof could be produced */
    DVC_ERR_INPUT = 2,     /* bad input: malformed file, wrong dimension, NaN, ... */
    DVC_ERR_IO = 3,        /* cannot read or write a file */
    DVC_ERR_NOMEM = 4,
    DVC_ERR_INTERNAL = 5
} dvc_status;

/* Set the thread's message (printf-style) and return code, so that
 * `return dvc_error(DVC_ERR_INPUT, "...")` is the idiom. */
dvc_status dvc_error(dvc_status code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prepend context ("file.json: ") to the current message, without
 * repeating a place it already names; returns code. */
dvc_status dvc_error_context(dvc_status code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

const char *dvc_error_message(void);
void dvc_error_reset(void);
const char *dvc_status_name(dvc_status s);

#ifdef __cplusplus
}
#endif
#endif
