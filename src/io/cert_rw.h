/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/io/cert_json.c (writer) and src/io/cert_read.c (reader):
 * what both sides of the certificate layout share -- the step line's text
 * pieces (the writer emits them, the streaming reader rebuilds the
 * canonical text the digest covers from the same pieces) and the FNV-1a 64
 * hash of that canonical text. Static inline: no exported symbol, and each
 * side keeps calling them by the names it always used. */
#ifndef DVC_IO_CERT_RW_H
#define DVC_IO_CERT_RW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cert_json.h"
#include "io/json.h"

#define CERT_FORMAT "dvicert-certificate"
#define CERT_VERSION 1
/* Digits of the stated decimals (src/cert.c) */
#define CERT_DIGITS 12

/* Room for `need` bytes from the start of b; the cursor appends below then
 * write without checks (a step line's pieces have known bounds). */
static inline char *sb_room(dvc_sbuf *b, size_t need)
{
    if (b->cap < b->len + need + 1) {
        size_t nc = 2 * (b->len + need + 1);
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->fail = 1;
            return NULL;
        }
        b->s = ns;
        b->cap = nc;
    }
    return b->s + b->len;
}

static inline char *sb_reserve(dvc_sbuf *b, size_t need)
{
    b->len = 0;
    return sb_room(b, need);
}

static inline char *cp_lit(char *p, const char *t, size_t n)
{
    memcpy(p, t, n);
    return p + n;
}
#define CP(p, lit) ((p) = cp_lit((p), (lit), sizeof(lit) - 1))

/* `"t"` at p: the strings of a step line (time labels, %a hexadecimal
 * floats, decimals) need no escapes, so this is also jansson's encoding */
static inline char *cp_q(char *p, const char *t)
{
    size_t n = strlen(t);
    *p++ = '"';
    memcpy(p, t, n);
    p += n;
    *p++ = '"';
    return p;
}

/* The texts of one step: hexadecimal predictor values, decimals (as
 * stated by dvc_cert_state_point_txt_), label. */
typedef struct {
    char (*hx)[40];            /* x then y */
    char (*dec)[DVC_CERT_DEC_LEN]; /* eps_x, eps_y, ry, yhat lo/hi pairs */
    char label[40];
    long n, m;
} step_txt;

/* Step i of the layout dvicert writes (compact, file order) appended to
 * line, after `sep`, and its canonical text (compact, sorted keys: what the
 * digest covers) into canon; both from the same strings. */
static inline void step_texts(dvc_sbuf *line, const char *sep, dvc_sbuf *canon, const step_txt *s, long i)
{
    long n = s->n, m = s->m;
    /* every piece within its buffer: 40 (label, hex), DVC_CERT_DEC_LEN (decimals) */
    size_t bound = 128 + (size_t)(n + m + 1) * 43 + (size_t)(3 + 2 * m) * (DVC_CERT_DEC_LEN + 8);
    for (int pass = 0; pass < 2; pass++) {
        dvc_sbuf *b = pass ? canon : line;
        char *p = pass ? sb_reserve(b, bound) : sb_room(b, bound + strlen(sep));
        if (!p) return;
        if (!pass) p = cp_lit(p, sep, strlen(sep));
        if (pass) {
            /* keys sorted: eps_x eps_y ry t x y yhat */
            CP(p, "{\"eps_x\":");
            p = cp_q(p, s->dec[0]);
            CP(p, ",\"eps_y\":");
            p = cp_q(p, s->dec[1]);
            if (i >= 1) {
                CP(p, ",\"ry\":");
                p = cp_q(p, s->dec[2]);
            }
            CP(p, ",\"t\":");
        } else {
            CP(p, "{\"t\":");
        }
        p = cp_q(p, s->label);
        CP(p, ",\"x\":[");
        for (long j = 0; j < n; j++) {
            if (j) *p++ = ',';
            p = cp_q(p, s->hx[j]);
        }
        CP(p, "],\"y\":[");
        for (long k = 0; k < m; k++) {
            if (k) *p++ = ',';
            p = cp_q(p, s->hx[n + k]);
        }
        *p++ = ']';
        if (!pass) {
            CP(p, ",\"eps_x\":");
            p = cp_q(p, s->dec[0]);
            CP(p, ",\"eps_y\":");
            p = cp_q(p, s->dec[1]);
        }
        CP(p, ",\"yhat\":[");
        for (long k = 0; k < m; k++) {
            if (k) *p++ = ',';
            *p++ = '[';
            p = cp_q(p, s->dec[3 + 2 * k]);
            *p++ = ',';
            p = cp_q(p, s->dec[4 + 2 * k]);
            *p++ = ']';
        }
        *p++ = ']';
        if (!pass && i >= 1) {
            CP(p, ",\"ry\":");
            p = cp_q(p, s->dec[2]);
        }
        *p++ = '}';
        *p = '\0';
        b->len = (size_t)(p - b->s);
    }
}

static inline void fnv_add(uint64_t *h, const char *s) { dvc_fnv_update(h, s, strlen(s)); }

/* Canonical text of obj without its closing brace (prefix) or its opening
 * brace (suffix), hashed. */
static inline int fnv_obj(uint64_t *h, const json_t *obj, int drop_last)
{
    char *t = json_dumps(obj, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    size_t len;
    if (!t) return -1;
    len = strlen(t);
    if (drop_last) {
        t[len - 1] = '\0';
        fnv_add(h, t);
    } else {
        fnv_add(h, t + 1);
    }
    free(t);
    return 0;
}

#endif
