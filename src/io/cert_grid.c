/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The explicit grid of a streamed certificate written from the run's
 * times (io/cert_grid.h): memory independent of the number of times. */
#include "io/cert_grid.h"

#include <stdlib.h>
#include <string.h>

#include "io/cert_mark.h"
#include "io/fnv.h"
#include "ival_dec.h"


/* The placeholder as jansson writes it (the control character escaped). */
static const char mark_text[] = "\"\\u0001dvicert:grid\"";

int dvc_cert_grid_marked(const json_t *doc)
{
    const char *s = json_string_value(json_object_get(doc, "grid"));
    return s && strcmp(s, DVC_CERT_GRID_MARK) == 0;
}

/* g's times as the whole tree writes them: ["0x...", ...], compact. */
static void grid_fill(dvc_mark_out *o, const void *ctx, int sorted)
{
    const dvc_tgrid *g = ctx;
    char hx[48];
    (void)sorted;
    dvc_mark_emit(o, "[", 1);
    for (long i = 0; i <= g->N && !o->fail; i++) {
        /* the text of json_string(hex) in an array, compact */
        char *q = hx;
        if (i) *q++ = ',';
        *q++ = '"';
        dvc_hex_write_(q, g->t[i]);
        q += strlen(q);
        *q++ = '"';
        dvc_mark_emit(o, hx, (size_t)(q - hx));
    }
    dvc_mark_emit(o, "]", 1);
}

/* The placeholder of g's times; -1: g holds no times to put there. */
static int grid_mark(dvc_mark *m, const dvc_tgrid *g, const char *text)
{
    m->text = mark_text;
    m->fill = grid_fill;
    m->ctx = g;
    return strstr(text, mark_text) && (g->kind != DVC_TGRID_EXPLICIT || !g->t) ? -1 : 0;
}

static int grid_put(const char *text, const dvc_tgrid *g, dvc_mark_out *o)
{
    dvc_mark m;
    if (g && grid_mark(&m, g, text) != 0) return -1;
    return dvc_mark_put(text, g ? &m : NULL, 1, o);
}

int dvc_cert_grid_put(const char *text, const dvc_tgrid *g, FILE *f, uint64_t *h)
{
    dvc_mark_out o = {f, h, 0};
    return grid_put(text, g, &o);
}

int dvc_cert_grid_digest(char buf[17], const json_t *obj, const dvc_tgrid *g)
{
    char *text = json_dumps(obj, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    uint64_t h = DVC_FNV_OFFSET;
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
