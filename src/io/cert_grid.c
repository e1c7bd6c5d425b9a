/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The explicit grid of a streamed certificate written from the run's
 * times (io/cert_grid.h): memory independent of the number of times. */
#include "io/cert_grid.h"

#include <stdlib.h>
#include <string.h>

#include "ival_dec.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* The placeholder as jansson writes it (the control character escaped). */
static const char mark_text[] = "\"\\u0001dvicert:grid\"";

int dvc_cert_grid_marked(const json_t *doc)
{
    const char *s = json_string_value(json_object_get(doc, "grid"));
    return s && strcmp(s, DVC_CERT_GRID_MARK) == 0;
}

static int put(const char *s, size_t len, FILE *f, uint64_t *h)
{
    if (h)
        for (size_t k = 0; k < len; k++) *h = (*h ^ (unsigned char)s[k]) * FNV_PRIME;
    return f && len > 0 && fwrite(s, 1, len, f) != len ? -1 : 0;
}

int dvc_cert_grid_put(const char *text, const dvc_tgrid *g, FILE *f, uint64_t *h)
{
    const char *at = g ? strstr(text, mark_text) : NULL, *rest;
    char hx[48];
    int bad = 0;
    if (!at) return put(text, strlen(text), f, h);
    rest = at + strlen(mark_text);
    if (strstr(rest, mark_text) || g->kind != DVC_TGRID_EXPLICIT || !g->t) return -1;
    bad |= put(text, (size_t)(at - text), f, h);
    bad |= put("[", 1, f, h);
    for (long i = 0; i <= g->N && !bad; i++) {
        /* the text of json_string(hex) in an array, compact */
        char *q = hx;
        if (i) *q++ = ',';
        *q++ = '"';
        dvc_hex_write_(q, g->t[i]);
        q += strlen(q);
        *q++ = '"';
        bad |= put(hx, (size_t)(q - hx), f, h);
    }
    bad |= put("]", 1, f, h);
    bad |= put(rest, strlen(rest), f, h);
    return bad;
}

int dvc_cert_grid_digest(char buf[17], const json_t *obj, const dvc_tgrid *g)
{
    char *text = json_dumps(obj, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    uint64_t h = FNV_OFFSET;
    int bad = text ? dvc_cert_grid_put(text, g, NULL, &h) : -1;
    free(text);
    snprintf(buf, 17, "%016llx", (unsigned long long)h);
    return bad;
}

int dvc_cert_grid_hash_prefix(uint64_t *h, const json_t *obj, const dvc_tgrid *g)
{
    char *text = json_dumps(obj, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    int bad = !text;
    if (text) {
        text[strlen(text) - 1] = '\0';
        bad = dvc_cert_grid_put(text, g, NULL, h);
    }
    free(text);
    return bad;
}

void dvc_cert_grid_label_d(char buf[40], double t)
{
    if (!dvc_fmt_g17_(buf, t)) snprintf(buf, 40, "%.17g", t);
}
