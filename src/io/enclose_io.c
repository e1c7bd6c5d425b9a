/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The file side of dvc_enclose (include/dvicert/enclose.h): the ports of
 * the pipeline (src/enclose/port.h) for problem files in JSON, trajectory
 * CSV files and certificate files, and the public entry points over them.
 * Translation only: the pipeline decides, this reads and writes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/cert_grid.h"
#include "io/cert_sink.h"
#include "io/events_cert.h"
#include "io/io.h"
#include "io/json.h"
#include "io/problem_json.h"
#include "io/traj_from.h"

static dvc_status load(dvc_dlvi_problem_t p, dvc_enclose_doc **doc, const char *path, mpfr_prec_t prec,
                       const dvc_table_policy *tables)
{
    json_t *resolved = NULL;
    dvc_status st = dvc_problem_load_policy(p, &resolved, path, prec, tables);
    *doc = (dvc_enclose_doc *)resolved;
    return st;
}

static void doc_free(dvc_enclose_doc *doc)
{
    json_decref((json_t *)doc);
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

/* The copy states g instead of the file's h, N or grid: N when uniform,
 * else the times in C99 hexadecimal ('grid', no N) and T = *T_end when
 * given, so that verify rebuilds the same grid. Explicit times not given
 * (g->t NULL): 'grid' is the placeholder of io/cert_grid.h, which the
 * streaming writer replaces by the run's times. */
static dvc_status set_grid(dvc_enclose_doc *d, const dvc_tgrid *g, const double *T_end)
{
    json_t *doc = (json_t *)d, *arr = NULL;
    int fail = 0;
    json_object_del(doc, "h");
    json_object_del(doc, "grid");
    if (g->kind == DVC_TGRID_EXPLICIT) {
        char hx[40];
        arr = g->t ? json_array() : json_string(DVC_CERT_GRID_MARK);
        fail = arr == NULL;
        for (long i = 0; !fail && g->t && i <= g->N; i++) {
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

static char *text(const dvc_enclose_doc *doc)
{
    return json_dumps((const json_t *)doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

/* the port's keep is the reader's */
_Static_assert((int)DVC_TRAJ_GRID == (int)DVC_TRAJ_FROM_GRID && (int)DVC_TRAJ_KEEP == (int)DVC_TRAJ_FROM_KEEP &&
                   (int)DVC_TRAJ_SAMPLES == (int)DVC_TRAJ_FROM_SAMPLES,
               "traj_read's keep");

static dvc_status traj_read(dvc_enclose_traj *tr, const char *path, const dvc_enclose_doc *doc, long n, double T,
                            int keep)
{
    dvc_traj_from *tf = calloc(1, sizeof *tf);
    const json_t *sn = json_object_get((const json_t *)doc, "state_names");
    int named = json_is_array(sn) && (long)json_array_size(sn) == n && n > 0;
    const char **names = named ? calloc((size_t)n, sizeof *names) : NULL;
    dvc_status st;
    memset(tr, 0, sizeof *tr);
    if (!tf || (named && !names)) {
        free(tf);
        free(names);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    tr->impl = tf;
    /* the problem's state names head columns as they do for check */
    for (long j = 0; named && j < n; j++)
        if (!(names[j] = json_string_value(json_array_get(sn, j)))) named = 0;
    st = dvc_traj_from_read_named(tf, path, n, named ? names : NULL, T, keep);
    free(names);
    if (st != DVC_OK) return st;
    tr->grid = &tf->grid;
    tr->ns = tf->ns;
    tr->past = tf->past;
    tr->end = tf->end;
    tr->t = tf->t;
    tr->x = tf->x;
    return DVC_OK;
}

static dvc_status traj_next(dvc_enclose_traj *tr, long i, double *x)
{
    return dvc_traj_from_next(tr->impl, i, x);
}

static void traj_clear(dvc_enclose_traj *tr)
{
    if (tr->impl) dvc_traj_from_clear(tr->impl);
    free(tr->impl);
    memset(tr, 0, sizeof *tr);
}

static dvc_status traj_sample(dvc_enclose_traj *tr, long k, double *t, double *x)
{
    return dvc_traj_from_sample(tr->impl, k, t, x);
}

static dvc_status hybrid_write(dvc_hybrid_cert_struct *c, const dvc_enclose_doc *doc, const dvc_efrom_spool *from,
                               const char *out_path)
{
    return dvc_events_cert_write_(c, (const json_t *)doc, from, out_path);
}

static const dvc_enclose_ports ports = {
    dvc_io_problem_dims, load, set_grid, text, doc_free, traj_read, traj_next, traj_sample, traj_clear,
    dvc_cert_sink_new, dvc_cert_sink_deferred, dvc_cert_sink_arm, dvc_cert_sink_begin,
    dvc_cert_sink_point, dvc_cert_sink_end, dvc_cert_sink_detach, dvc_cert_sink_close, hybrid_write,
};

dvc_status dvc_enclose(dvc_cert_t c, const char *problem_path, const dvc_enclose_opts *o,
                       const char *out_path, dvc_enclose_info *info)
{
    return dvc_enclose_core_(&ports, c, problem_path, o, out_path, info);
}

void dvc_enclose_choose(dvc_enclose_info *info, const char *problem_path, const dvc_enclose_opts *o)
{
    long n, m;
    dvc_enclose_choose_n_(info, o->route == DVC_ENCLOSE_AUTO && dvc_io_problem_dims(problem_path, &n, &m) ? n : -1,
                          o);
}
