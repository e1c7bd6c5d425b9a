/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "dvicert/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DVC_MSG_MAX 2048
#define SEG_MAX 64

static _Thread_local char msg[DVC_MSG_MAX];

/* The convention (error.h): a message is a chain of places separated by
 * ": ", ending in the reason. Module names are not places; a place already
 * named further in is not repeated. */
static const char *const module_tags[] = {"dlvi", "lvi", "beta", "mclass", "imat", "ivec", "ival",
                                          "expr", "tfun", "tabfun", "problem", "cert", "traj",
                                          "jsonio"};

typedef struct {
    const char *p;
    size_t n;
} seg_t;

static int is_tag(const seg_t *s)
{
    for (size_t k = 0; k < sizeof module_tags / sizeof module_tags[0]; k++)
        if (strlen(module_tags[k]) == s->n && memcmp(module_tags[k], s->p, s->n) == 0) return 1;
    return 0;
}

/* b repeats place a: the same text, or a followed by ':' ("file:12") */
static int repeats(const seg_t *a, const seg_t *b)
{
    return b->n >= a->n && memcmp(a->p, b->p, a->n) == 0 && (b->n == a->n || b->p[a->n] == ':');
}

static void tidy(void)
{
    char out[DVC_MSG_MAX];
    seg_t seg[SEG_MAX];
    int keep[SEG_MAX], ns = 0;
    size_t len = 0;
    const char *p = msg, *q;
    while (ns < SEG_MAX - 1 && (q = strstr(p, ": ")) != NULL) {
        seg[ns].p = p;
        seg[ns++].n = (size_t)(q - p);
        p = q + 2;
    }
    seg[ns].p = p; /* the reason (and whatever did not fit) */
    seg[ns++].n = strlen(p);
    for (int i = 0; i < ns; i++) {
        keep[i] = 1;
        if (i == ns - 1) break;
        if (seg[i].n == 0 || is_tag(&seg[i])) keep[i] = 0;
        /* "M: M is not proven ...": the next part names it already */
        else if (seg[i + 1].n > seg[i].n && memcmp(seg[i].p, seg[i + 1].p, seg[i].n) == 0 &&
                 seg[i + 1].p[seg[i].n] == ' ')
            keep[i] = 0;
        else
            for (int j = i + 1; j < ns - 1 && keep[i]; j++)
                if (repeats(&seg[i], &seg[j])) keep[i] = 0;
    }
    for (int i = 0; i < ns; i++) {
        if (!keep[i]) continue;
        if (len && len + 2 < sizeof out) {
            memcpy(out + len, ": ", 2);
            len += 2;
        }
        if (len + seg[i].n >= sizeof out) seg[i].n = sizeof out - 1 - len;
        memcpy(out + len, seg[i].p, seg[i].n);
        len += seg[i].n;
    }
    out[len] = '\0';
    memcpy(msg, out, len + 1);
}

dvc_status dvc_error(dvc_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tidy();
    return code;
}

dvc_status dvc_error_context(dvc_status code, const char *fmt, ...)
{
    char prefix[DVC_MSG_MAX], old[DVC_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, msg, sizeof old);
    {
        size_t n = strlen(prefix);
        if (n >= sizeof msg) n = sizeof msg - 1;
        memcpy(msg, prefix, n);
        msg[n] = '\0';
        strncat(msg, old, sizeof msg - 1 - n);
    }
    tidy();
    return code;
}

const char *dvc_error_message(void) { return msg; }

void dvc_error_reset(void) { msg[0] = '\0'; }

const char *dvc_status_name(dvc_status s)
{
    switch (s) {
    case DVC_OK: return "ok";
    case DVC_NOT_CERTIFIED: return "not certified";
    case DVC_ERR_INPUT: return "input error";
    case DVC_ERR_IO: return "i/o error";
    case DVC_ERR_NOMEM: return "out of memory";
    case DVC_ERR_INTERNAL: return "internal error";
    }
    return "unknown status";
}
