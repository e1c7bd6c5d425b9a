/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A placeholder replaced as the text is written and hashed
 * (io/cert_mark.h). */
#include "io/cert_mark.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/error.h"
#include "io/fnv.h"
#include "dvicert/files.h"


void dvc_mark_emit(dvc_mark_out *o, const char *s, size_t len)
{
    if (o->h) dvc_fnv_update(o->h, s, len);
    if (o->f && len > 0 && fwrite(s, 1, len, o->f) != len) o->fail = 1;
}

int dvc_mark_put(const char *text, const dvc_mark *m, int sorted, dvc_mark_out *o)
{
    const char *at = m ? strstr(text, m->text) : NULL, *rest;
    if (!at) {
        dvc_mark_emit(o, text, strlen(text));
        return o->fail ? -1 : 0;
    }
    rest = at + strlen(m->text);
    if (strstr(rest, m->text)) return -1;
    dvc_mark_emit(o, text, (size_t)(at - text));
    m->fill(o, m->ctx, sorted);
    dvc_mark_emit(o, rest, strlen(rest));
    return o->fail ? -1 : 0;
}

int dvc_mark_digest(char buf[17], const json_t *obj, const dvc_mark *m)
{
    char *text = json_dumps(obj, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    uint64_t h = DVC_FNV_OFFSET;
    dvc_mark_out o = {NULL, &h, 0};
    int bad = text ? dvc_mark_put(text, m, 1, &o) : -1;
    free(text);
    snprintf(buf, 17, "%016llx", (unsigned long long)h);
    return bad;
}

int dvc_mark_digest_root(char buf[17], const json_t *root, const dvc_mark *m)
{
    json_t *copy = json_copy((json_t *)root);
    int bad = !copy;
    if (copy) {
        json_object_del(copy, "digest");
        bad = dvc_mark_digest(buf, copy, m);
    }
    json_decref(copy);
    return bad;
}

dvc_status dvc_mark_write_atomic(const char *path, const char *text, const dvc_mark *m)
{
    dvc_outfile o;
    dvc_status st = dvc_outfile_open(&o, path);
    if (st == DVC_OK) {
        dvc_mark_out mo = {o.f, NULL, 0};
        if (dvc_mark_put(text, m, 0, &mo) != 0)
            st = dvc_error(DVC_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
        else st = dvc_outfile_commit(&o);
    }
    dvc_outfile_clear(&o);
    return st;
}
