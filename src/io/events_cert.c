/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid certificates of the DLVI events route (src/io/events_cert.h):
 * the embedded problem in, the switched model out, and the writer. */
#include "io/events_cert.h"
#include "io/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/events.h"
#include "io/cert_mark.h"
#include "io/hybrid_cert_read.h"
#include "io/problem_json.h"

#define EVENTS_KEY "dlvi_events"

int dvc_events_cert_is_events_(const json_t *model)
{
    return json_is_object(json_object_get(model, EVENTS_KEY));
}

char *dvc_events_cert_problem_string(const char *model_json, const char *key, int *is_events)
{
    json_t *root = model_json ? json_loads(model_json, 0, NULL) : NULL;
    const json_t *prob = json_object_get(json_object_get(root, EVENTS_KEY), "problem");
    const json_t *j = json_object_get(prob, key);
    char *s = json_is_string(j) ? strdup(json_string_value(j)) : NULL;
    *is_events = json_is_object(prob);
    json_decref(root);
    return s;
}

/* rows x cols numbers of the array j (rows of cols, or a flat row when
 * cols is 0) into v (allocated). */
static dvc_status read_rows(double **v, const json_t *j, long rows, long cols, const char *what,
                            const char *name)
{
    long w = cols > 0 ? cols : 1;
    *v = malloc((size_t)(rows * w > 0 ? rows * w : 1) * sizeof **v);
    if (!*v) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (!json_is_array(j) || (long)json_array_size(j) != rows)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'trajectory.%s': expected %ld rows", name, what, rows);
    for (long k = 0; k < rows; k++) {
        const json_t *row = json_array_get(j, (size_t)k);
        for (long c = 0; c < w; c++) {
            const json_t *x = cols > 0 ? json_array_get(row, (size_t)c) : row;
            if ((cols > 0 && (!json_is_array(row) || (long)json_array_size(row) != cols)) || !json_is_number(x))
                return dvc_error(DVC_ERR_INPUT, "%s: field 'trajectory.%s': row %ld: expected %ld numbers",
                                 name, what, k + 1, w);
            (*v)[k * w + c] = json_number_value(x);
        }
    }
    return DVC_OK;
}

/* The claimed bounds of the embedded trajectory (docs/formats.md) against
 * a run r of the model m: recomputed and compared. */
static dvc_status check_trajectory(const json_t *tj, const dvc_hybrid_model_struct *m,
                                   const dvc_hybrid_result_struct *r, const char *name)
{
    static const char *const keys[] = {"t", "p", "error_lo", "error_hi", "step_upper"};
    const json_t *t = json_object_get(tj, "t");
    long ns = json_is_array(t) ? (long)json_array_size(t) : 0, n = m->n;
    dvc_dlvi_events_from f;
    dvc_status st = DVC_OK;
    double *v[5] = {NULL, NULL, NULL, NULL, NULL};
    if (!json_is_object(tj) || json_object_size(tj) != 5 || ns < 2)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'trajectory': expected the members t (at least 2 times), "
                         "p, error_lo, error_hi, step_upper", name);
    for (int q = 0; q < 5 && st == DVC_OK; q++)
        st = read_rows(&v[q], json_object_get(tj, keys[q]), q == 4 ? ns - 1 : ns, q == 0 ? 0 : n, keys[q],
                       name);
    dvc_dlvi_events_from_init(&f);
    if (st == DVC_OK) st = dvc_dlvi_events_from_set(&f, n, ns, v[0], v[1], r->t[0], r->t[r->nsteps]);
    if (st == DVC_OK) {
        f.lo = v[2];
        f.hi = v[3];
        f.up = v[4];
        v[2] = v[3] = v[4] = NULL;
        st = dvc_dlvi_events_from_check(&f, m, r);
    }
    if (st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT) dvc_error_context(st, "%s: ", name);
    dvc_dlvi_events_from_clear(&f);
    for (int q = 0; q < 5; q++) free(v[q]);
    return st;
}

dvc_status dvc_events_cert_model_(dvc_hybrid_model_t m, const json_t *model, const char *name,
                                  mpfr_prec_t prec)
{
    const json_t *ev = json_object_get(model, EVENTS_KEY), *prob = json_object_get(ev, "problem"),
                 *traj = json_object_get(ev, "trajectory");
    dvc_dlvi_problem_t p;
    dvc_hybrid_result_t r;
    dvc_status st;
    mpfr_prec_t saved = dvc_prec_get();
    if (json_object_size(model) != 1 || !json_is_object(prob) || json_object_size(ev) != 1 + (traj != NULL)) {
        dvc_hybrid_model_init(m, 1, NULL, prec);
        return dvc_error(DVC_ERR_INPUT, "%s: field 'model': expected the one member '" EVENTS_KEY
                         "' holding the member 'problem' (an object) and optionally 'trajectory'", name);
    }
    dvc_prec_set(prec);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    /* self-contained: no file is read (basedir NULL) */
    st = dvc_problem_from_json(p, NULL, prob, name, NULL, prec);
    if (st == DVC_OK) st = dvc_dlvi_events_model(m, p, NULL);
    else dvc_hybrid_model_init(m, 1, NULL, prec);
    if (st == DVC_OK) {
        /* the patterns the certificate names exist once the engine has
         * visited them; verify runs it again and compares */
        dvc_hybrid_result_init(r);
        st = dvc_hybrid_enclose(r, m);
        if (st == DVC_NOT_CERTIFIED) dvc_error_context(st, "%s: the events route on the embedded problem: ", name);
        /* a trajectory's claimed bounds, recomputed on this run */
        else if (st == DVC_OK && traj) st = check_trajectory(traj, m, r, name);
        dvc_hybrid_result_clear(r);
    }
    dvc_dlvi_problem_clear(p);
    dvc_prec_set(saved);
    return st;
}

/* The trajectory streamed into the certificate's text (io/cert_mark.h):
 * the model holds a placeholder, written and hashed as the tree of the
 * rows (JSON arrays of reals, jansson's text of each number) would be,
 * from the spooled rows: memory does not grow with the samples. */

/* Column q of the spool (0 t, 1 p, 2 lo, 3 hi, 4 up) as the compact text
 * of its JSON array (rows of n numbers but for t; up: ns - 1 rows). */
static void column_put(dvc_mark_out *o, json_t *num, const dvc_efrom_spool *sp, double *row, int q)
{
    long n = sp->n, rows = q == 4 ? sp->ns - 1 : sp->ns, w = q == 0 ? 1 : n;
    char buf[64];
    dvc_mark_emit(o, "[", 1);
    for (long k = 0; k < rows && !o->fail; k++) {
        const double *v = row + (q == 0 ? 0 : 1 + (q - 1) * n);
        if (dvc_efrom_spool_read_(sp, k, row) != DVC_OK) o->fail = 1;
        if (k) dvc_mark_emit(o, ",", 1);
        if (q > 0) dvc_mark_emit(o, "[", 1);
        for (long c = 0; c < w && !o->fail; c++) {
            /* jansson's own rendering of the real: the tree's bytes */
            size_t len = json_real_set(num, v[c]) == 0 ? json_dumpb(num, buf, sizeof buf, JSON_ENCODE_ANY) : 0;
            if (len == 0 || len > sizeof buf) o->fail = 1;
            if (c) dvc_mark_emit(o, ",", 1);
            if (!o->fail) dvc_mark_emit(o, buf, len);
        }
        if (q > 0) dvc_mark_emit(o, "]", 1);
    }
    dvc_mark_emit(o, "]", 1);
}

/* {"t": ..., "p": ..., "error_lo": ..., "error_hi": ..., "step_upper": ...}
 * (sorted: its keys in order). */
static void trajectory_fill(dvc_mark_out *o, const void *ctx, int sorted)
{
    static const char *const keys[] = {"t", "p", "error_lo", "error_hi", "step_upper"};
    static const int key_order[] = {3, 2, 1, 4, 0};
    const dvc_efrom_spool *sp = ctx;
    json_t *num = json_real(0);
    double *row = malloc((size_t)(1 + 4 * sp->n) * sizeof *row);
    if (!num || !row) o->fail = 1;
    dvc_mark_emit(o, "{", 1);
    for (int k = 0; k < 5 && !o->fail; k++) {
        int q = sorted ? key_order[k] : k;
        if (k) dvc_mark_emit(o, ",", 1);
        dvc_mark_emit(o, "\"", 1);
        dvc_mark_emit(o, keys[q], strlen(keys[q]));
        dvc_mark_emit(o, "\":", 2);
        column_put(o, num, sp, row, q);
    }
    dvc_mark_emit(o, "}", 1);
    json_decref(num);
    free(row);
}

/* Every number of the rows finite (JSON has no infinity)? */
static int trajectory_finite(const dvc_efrom_spool *sp)
{
    long w = 1 + 4 * sp->n;
    double *row = malloc((size_t)w * sizeof *row);
    int ok = row != NULL;
    for (long k = 0; ok && k < sp->ns; k++) {
        ok = dvc_efrom_spool_read_(sp, k, row) == DVC_OK;
        /* up of the last row is not stated */
        for (long c = 0; ok && c < (k + 1 < sp->ns ? w : w - sp->n); c++) ok = isfinite(row[c]);
    }
    free(row);
    return ok;
}

/* The trajectory as a tree (a certificate kept in memory): the text of
 * trajectory_fill, read back. */
static json_t *trajectory_json(const dvc_mark *mk)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dvc_mark_out o = {f, NULL, !f};
    json_t *tj = NULL;
    if (f) {
        mk->fill(&o, mk->ctx, 0);
        if (fclose(f) != 0) o.fail = 1;
        if (!o.fail) tj = json_loadb(buf, len, 0, NULL);
    }
    free(buf);
    return tj;
}

void dvc_events_cert_traj_mark_(dvc_mark *mk, const dvc_efrom_spool *from)
{
    /* the placeholder as jansson writes it (the control character escaped) */
    mk->text = "\"\\u0001dvicert:trajectory\"";
    mk->fill = trajectory_fill;
    mk->ctx = from;
}

dvc_status dvc_events_cert_write_(dvc_hybrid_cert_struct *c, const json_t *problem, const dvc_efrom_spool *from,
                                  const char *path)
{
    dvc_mark mk;
    json_t *model, *ev, *tj;
    int bad;
    dvc_events_cert_traj_mark_(&mk, from);
    model = json_object();
    ev = json_object();
    /* written to a file: the trajectory streamed in place of a placeholder */
    tj = !from || !trajectory_finite(from) ? NULL : path ? json_string(DVC_EVENTS_TRAJ_MARK) : trajectory_json(&mk);
    bad = !model || !ev || json_object_set(ev, "problem", (json_t *)problem) != 0;
    if (from && !tj) {
        json_decref(model);
        json_decref(ev);
        return dvc_error(DVC_NOT_CERTIFIED, "trajectory: a bound is not finite (or out of memory)");
    }
    if (tj && !bad) bad = json_object_set_new(ev, "trajectory", tj) != 0;
    else json_decref(tj);
    /* set_new takes ev, also when it fails */
    if (bad) json_decref(ev);
    if (bad || json_object_set_new(model, EVENTS_KEY, ev) != 0) {
        json_decref(model);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    free(c->model_json);
    c->model_json = json_dumps(model, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(model);
    if (!c->model_json) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (!path) return DVC_OK;
    /* c's model text keeps the placeholder, the file the trajectory */
    return dvc_hybrid_cert_write_marked_(c, path, from ? &mk : NULL);
}
