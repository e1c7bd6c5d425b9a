/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* JSON reading for problem, matrix and certificate files: numbers and
 * decimal strings into intervals, with messages that name the file and the
 * field. Private to the library and the command (not installed). */
#ifndef DVC_IO_JSON_H
#define DVC_IO_JSON_H

#include <jansson.h>
#include <stdint.h>
#include "dvicert/imat.h"
#include "io/fnv.h"
#include "io/io.h"
#include "ival_dec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Load a JSON object from path; on error the message names the file, line
 * and column. *root must be released with json_decref. */
dvc_status dvc_json_load(json_t **root, const char *path);

/* One number: a JSON integer (exact), a JSON real d (enclosed by
 * [pred(d), succ(d)], which contains every decimal that parses to d), a
 * decimal string (enclosed exactly), "inf"/"-inf", or [lo, hi] (each end
 * one of the above). `where` names the place for messages. */
dvc_status dvc_json_ival(mpfi_t x, const json_t *j, const char *where);

/* Matrix stored as an array of rows. If A has zero size, it is resized to
 * what the file says; otherwise the dimensions must match. Entries must be
 * finite (vectors: unless allow_inf), see dvc_json_imat_ex. */
dvc_status dvc_json_imat(dvc_imat_t A, const json_t *obj, const char *field,
                         const char *file);
/* Vector; same rules on size. */
dvc_status dvc_json_ivec(dvc_ivec_t v, const json_t *obj, const char *field,
                         const char *file, int allow_inf);

/* The same with the expected shape (r_expect, c_expect, n_expect; -1: any,
 * the object is resized to what the file says; an empty object is created
 * at precision prec, 0: the working precision) and a reader of one number
 * (num(x, j, ctx, where); NULL: dvc_json_ival). Entries must be finite and
 * within the binary64 range (the predictor and the certificate are binary64),
 * or, for vectors with allow_inf, exactly -inf / +inf. */
typedef dvc_status (*dvc_json_num_fn)(mpfi_t x, const json_t *j, void *ctx, const char *where);
dvc_status dvc_json_imat_ex(dvc_imat_t A, const json_t *obj, const char *field, const char *file,
                            long r_expect, long c_expect, mpfr_prec_t prec, dvc_json_num_fn num,
                            void *ctx);
dvc_status dvc_json_ivec_ex(dvc_ivec_t v, const json_t *obj, const char *field, const char *file,
                            long n_expect, int allow_inf, mpfr_prec_t prec, dvc_json_num_fn num,
                            void *ctx);

/* True when both ends of x are finite and within the binary64 range. */
int dvc_json_fits_d(const mpfi_t x);

/* ---- certificate files (DLVI and hybrid share these conventions) ---- */

/* *out <- the member key of obj, which must have type ty (JSON_TRUE: any
 * boolean); else DVC_ERR_INPUT naming where and the key. */
dvc_status dvc_json_need(const json_t **out, const json_t *obj, const char *key, json_type ty,
                         const char *where);
/* A double as an exact hexadecimal float string ("0x1.8p+1"). */
json_t *dvc_json_hex(double d);
/* 64-bit FNV-1a digest (16 hex digits) of the canonical text of obj
 * (json_dumps with JSON_SORT_KEYS | JSON_COMPACT): detects edits, it is not a
 * cryptographic hash. */
dvc_status dvc_json_digest(char buf[17], const json_t *obj);
/* The object {s[0..len)}: one line of a streamed file holding a member
 * '"key": value' parsed alone (duplicate keys refused); NULL when it is
 * not one or out of memory. */
json_t *dvc_json_load_member(const char *s, size_t len);
/* The same over root without its member "digest". */
dvc_status dvc_json_digest_root(char buf[17], const json_t *root);
/* out <- the 16 hex digits of a "fnv1a64:<16 hex digits>" string j, which
 * names field of file in messages. */
dvc_status dvc_json_tagged_digest(char out[17], const json_t *j, const char *file, const char *field);

/* A growing text buffer of the certificate writers (zero-initialise it;
 * free s). */
typedef struct {
    char *s;
    size_t len, cap;
    int fail; /* set when memory ran out: the text is incomplete */
} dvc_sbuf;
/* Append the n bytes at t, keeping s terminated by a NUL (cert_json.c). */
void dvc_sbuf_put_(dvc_sbuf *b, const char *t, size_t n);

#ifdef __cplusplus
}
#endif
#endif
