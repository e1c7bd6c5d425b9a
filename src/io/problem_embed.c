/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The problem as a certificate embeds it (src/io/cert_sink.h): the JSON
 * translation of the grid the enclose pipeline chose. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/cert_sink.h"
#include "io/json.h"
#include "io/problem_json.h"

dvc_status dvc_embedded_load(dvc_dlvi_problem_t p, dvc_embedded **doc, const char *path,
                             mpfr_prec_t prec, const dvc_table_policy *tables)
{
    *doc = NULL;
    return dvc_problem_load_policy(p, doc, path, prec, tables);
}

void dvc_embedded_free(dvc_embedded *doc)
{
    json_decref(doc);
}

/* The exact decimal expansion of d (a decimal string is read exactly; a
 * JSON real only as an interval around it). */
static json_t *exact_decimal(double d)
{
    char dec[1200];
    int ex;
    frexp(d, &ex);
    snprintf(dec, sizeof dec, "%.*f", ex < 53 ? 53 - ex : 0, d);
    if (strchr(dec, '.')) {
        size_t l = strlen(dec);
        while (dec[l - 1] == '0') dec[--l] = '\0';
        if (dec[l - 1] == '.') dec[--l] = '\0';
    }
    return json_string(dec);
}

dvc_status dvc_embedded_set_grid(dvc_embedded *doc, const dvc_tgrid *g, const double *T_end)
{
    json_t *arr = NULL;
    int fail = 0;
    json_object_del(doc, "h");
    json_object_del(doc, "grid");
    if (g->kind == DVC_TGRID_EXPLICIT) {
        char hx[40];
        arr = json_array();
        fail = arr == NULL;
        for (long i = 0; !fail && i <= g->N; i++) {
            dvc_hex_write_(hx, g->t[i]);
            fail = json_array_append_new(arr, json_string(hx)) != 0;
        }
        if (!fail && T_end) fail = json_object_set_new(doc, "T", exact_decimal(*T_end)) != 0;
        json_object_del(doc, "N");
        if (fail) json_decref(arr);
        else fail = json_object_set_new(doc, "grid", arr) != 0;
    } else if (g->kind == DVC_TGRID_UNIFORM) {
        fail = json_object_set_new(doc, "N", json_integer((json_int_t)g->N)) != 0;
    } else {
        /* a shorter last step is stated by the file's h only */
        return dvc_error(DVC_ERR_INTERNAL, "a grid with a shorter last step cannot be restated");
    }
    if (fail) return dvc_error(DVC_ERR_NOMEM, "cannot build the certificate");
    return DVC_OK;
}

char *dvc_embedded_text(const dvc_embedded *doc)
{
    return json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
}
