/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: a placeholder in a certificate's JSON text, replaced by long
 * content as the text is written and hashed, so that the content is never
 * held as a tree or as text (io/cert_grid.h: the times of a grid;
 * io/events_cert.h: an events certificate's trajectory). The placeholder
 * is a JSON string starting with a control character, which no input a
 * reader takes holds; found twice (a problem's own string) it is refused
 * as ambiguous. */
#ifndef DVC_IO_CERT_MARK_H
#define DVC_IO_CERT_MARK_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "dvicert/error.h"

/* Where the text goes: a file (f non-NULL) and/or the FNV-1a 64 hash *h
 * (h non-NULL); fail set by a write error. */
typedef struct {
    FILE *f;
    uint64_t *h;
    int fail;
} dvc_mark_out;

void dvc_mark_emit(dvc_mark_out *o, const char *s, size_t len);

/* The placeholder's replacement, the JSON text of the value it stands
 * for: compact, its object keys sorted when sorted, else in file order. */
typedef struct {
    const char *text; /* the placeholder as jansson writes it: "\"\\u0001...\"" */
    void (*fill)(dvc_mark_out *o, const void *ctx, int sorted);
    const void *ctx;
} dvc_mark;

/* text with the placeholder of m replaced (m NULL or no placeholder in
 * text: text as it is) to o. 0, or -1 on a write error or a placeholder
 * found twice. */
int dvc_mark_put(const char *text, const dvc_mark *m, int sorted, dvc_mark_out *o);

/* dvc_json_digest of obj (sorted keys, compact) with m's placeholder
 * replaced (m NULL: none): 0 or -1. */
int dvc_mark_digest(char buf[17], const json_t *obj, const dvc_mark *m);
/* dvc_json_digest_root (the digest of root without its member "digest")
 * with m's placeholder replaced: 0 or -1. */
int dvc_mark_digest_root(char buf[17], const json_t *root, const dvc_mark *m);
/* dvc_write_atomic of text (NUL-terminated) with m's placeholder replaced
 * (file order) as it is written. */
dvc_status dvc_mark_write_atomic(const char *path, const char *text, const dvc_mark *m);

#endif
