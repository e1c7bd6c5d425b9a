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

/* The grid of a fill and the status of its times (on demand: a pass over
 * a file, which can fail). */
typedef struct {
    const dvc_tgrid *g;
    dvc_status st;
} fill_ctx;

/* g's times as the whole tree writes them: ["0x...", ...], compact. */
static void grid_fill(dvc_mark_out *o, const void *ctx, int sorted)
{
    fill_ctx *fc = (fill_ctx *)ctx;
    const dvc_tgrid *g = fc->g;
    char hx[48];
    (void)sorted;
    dvc_mark_emit(o, "[", 1);
    for (long i = 0; i <= g->N && !o->fail; i++) {
        /* the text of json_string(hex) in an array, compact */
        char *q = hx;
        double t;
        if ((fc->st = dvc_tgrid_at(g, i, &t)) != DVC_OK) {
            o->fail = 1;
            return;
        }
        if (i) *q++ = ',';
        *q++ = '"';
        dvc_hex_write_(q, t);
        q += strlen(q);
        *q++ = '"';
        dvc_mark_emit(o, hx, (size_t)(q - hx));
    }
    dvc_mark_emit(o, "]", 1);
}

/* The placeholder of g's times; -1: g holds no times to put there. */
static int grid_mark(dvc_mark *m, fill_ctx *fc, const char *text)
{
    m->text = mark_text;
    m->fill = grid_fill;
    m->ctx = fc;
    return strstr(text, mark_text) && fc->g->kind != DVC_TGRID_EXPLICIT ? -1 : 0;
}

static dvc_status grid_put(const char *text, const dvc_tgrid *g, dvc_mark_out *o)
{
    dvc_mark m;
    fill_ctx fc = {g, DVC_OK};
    if (g && grid_mark(&m, &fc, text) != 0)
        return dvc_error(DVC_ERR_INTERNAL, "certificate: the grid placeholder without explicit times");
    if (dvc_mark_put(text, g ? &m : NULL, 1, o) == 0) return DVC_OK;
    if (fc.st != DVC_OK) return fc.st; /* the times' error, its message kept */
    if (o->fail) return dvc_error(DVC_ERR_IO, "cannot write the certificate");
    return dvc_error(DVC_ERR_INPUT, "the problem states the grid placeholder of a streamed certificate itself "
                     "(ambiguous)");
}

dvc_status dvc_cert_grid_put(const char *text, const dvc_tgrid *g, FILE *f, uint64_t *h)
{
    dvc_mark_out o = {f, h, 0};
    return grid_put(text, g, &o);
}

/* The canonical text of obj (sorted keys, compact), without its closing
 * brace when prefix, hashed into *h with the placeholder replaced. */
static dvc_status grid_hash(uint64_t *h, const json_t *obj, const dvc_tgrid *g, int prefix)
{
    char *text = json_dumps(obj, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    dvc_status st;
    if (!text) return dvc_error(DVC_ERR_NOMEM, "cannot build the certificate");
    if (prefix) text[strlen(text) - 1] = '\0';
    st = dvc_cert_grid_put(text, g, NULL, h);
    free(text);
    return st;
}

dvc_status dvc_cert_grid_digest(char buf[17], const json_t *obj, const dvc_tgrid *g)
{
    uint64_t h = DVC_FNV_OFFSET;
    dvc_status st = grid_hash(&h, obj, g, 0);
    snprintf(buf, 17, "%016llx", (unsigned long long)h);
    return st;
}

dvc_status dvc_cert_grid_hash_prefix(uint64_t *h, const json_t *obj, const dvc_tgrid *g)
{
    return grid_hash(h, obj, g, 1);
}

void dvc_cert_grid_label_d(char buf[40], double t)
{
    if (!dvc_fmt_g17_(buf, t)) snprintf(buf, 40, "%.17g", t);
}
