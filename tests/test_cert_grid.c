/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The explicit grid of a streamed certificate (src/io/cert_grid.h): the
 * problem copy holds a placeholder for its times and the writer states
 * them from the run's binary64 grid. The text written, the problem digest
 * and the certificate's canonical prefix must be those of the whole tree
 * (the copy with its 'grid' array), byte for byte:
 *   1. non-uniform times (0.1 and others with 13 hexadecimal digits, a
 *      step of 2^-40, the last one a decimal T's double), the
 *      copy's member text with the placeholder replaced is the array's;
 *   2. the digest (sorted keys) and the hashed prefix of an object holding
 *      the copy, as dvc_json_digest and fnv_obj of the whole tree;
 *   3. without a grid, or without the placeholder, the text as it is;
 *   4. a placeholder found twice (the problem's own string) is refused. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "io/cert_grid.h"
#include "io/json.h"
#include "ival_dec.h"

#define NT 7

static const double times[NT] = {0.0, 0.1, 0.1 + 0x1p-40, 0.375, 0.7000000000000001, 2.5, 3.14159};

/* A problem copy in file order, its grid last as the writer's side sets it. */
static json_t *copy_with(json_t *grid)
{
    json_t *d = json_pack("{s:s, s:[[i,i],[i,i]], s:s, s:[s,s]}", "name", "grid \"test\"", "A", 0, 1, -4, 0, "T",
                          "3.14159", "state_names", "x", "v");
    json_object_set_new(d, "grid", grid);
    return d;
}

static json_t *whole_grid(void)
{
    json_t *a = json_array();
    char hx[40];
    for (int i = 0; i < NT; i++) {
        dvc_hex_write_(hx, times[i]);
        json_array_append_new(a, json_string(hx));
    }
    return a;
}

/* text with the placeholder replaced, as written to a file */
static char *put_text(const char *text, const dvc_tgrid *g, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    REQUIRE(f != NULL, "open_memstream");
    *rc = dvc_cert_grid_put(text, g, f, NULL);
    fclose(f);
    return buf;
}

static uint64_t fnv(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

int main(void)
{
    dvc_tgrid g;
    json_t *whole = copy_with(whole_grid()), *marked = copy_with(json_string(DVC_CERT_GRID_MARK));
    json_t *hw = json_pack("{s:s, s:O, s:i}", "format", "f", "problem", whole, "precision", 53);
    json_t *hm = json_pack("{s:s, s:O, s:i}", "format", "f", "problem", marked, "precision", 53);
    char *tw, *tm, *out, dw[17], dm[17];
    int rc;
    uint64_t h = 0xcbf29ce484222325ull, hwant;
    dvc_tgrid_set(&g, NT - 1, 0, times);
    CHECK(dvc_cert_grid_marked(marked) && !dvc_cert_grid_marked(whole), "the placeholder is told apart");

    /* 1. the member text, file order */
    tw = json_dumps(whole, JSON_COMPACT | JSON_PRESERVE_ORDER);
    tm = json_dumps(marked, JSON_COMPACT | JSON_PRESERVE_ORDER);
    out = put_text(tm, &g, &rc);
    CHECK(rc == 0 && strcmp(out, tw) == 0, "streamed text\n%s\nwhole tree\n%s", out, tw);
    CHECK(strlen(tm) < strlen(tw) && strstr(tw, "\"0x1.999999999999ap-4\""), "the times are in the text");
    free(out);

    /* 2. the digest and the hashed prefix */
    CHECK(dvc_json_digest(dw, whole) == DVC_OK && dvc_cert_grid_digest(dm, marked, &g) == 0 && strcmp(dw, dm) == 0,
          "digest %s, whole tree %s", dm, dw);
    {
        char *c = json_dumps(hw, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
        c[strlen(c) - 1] = '\0';
        hwant = fnv(c);
        free(c);
    }
    CHECK(dvc_cert_grid_hash_prefix(&h, hm, &g) == 0 && h == hwant, "prefix hash %llx, whole tree %llx",
          (unsigned long long)h, (unsigned long long)hwant);

    /* 3. nothing to replace */
    out = put_text(tw, &g, &rc);
    CHECK(rc == 0 && strcmp(out, tw) == 0, "no placeholder: the text as it is");
    free(out);
    out = put_text(tm, NULL, &rc);
    CHECK(rc == 0 && strcmp(out, tm) == 0, "no grid: the text as it is");
    free(out);

    /* 4. twice: refused */
    json_object_set_new(marked, "name", json_string(DVC_CERT_GRID_MARK));
    free(tm);
    tm = json_dumps(marked, JSON_COMPACT | JSON_PRESERVE_ORDER);
    out = put_text(tm, &g, &rc);
    CHECK(rc != 0, "a placeholder found twice is refused");
    free(out);
    CHECK(dvc_cert_grid_digest(dm, marked, &g) != 0, "and in the digest");

    free(tw);
    free(tm);
    json_decref(hw);
    json_decref(hm);
    json_decref(whole);
    json_decref(marked);
    return check_report();
}
