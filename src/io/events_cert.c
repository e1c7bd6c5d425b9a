/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid certificates of the DLVI events route (src/io/events_cert.h):
 * the embedded problem in, the switched model out, and the writer. */
#include "io/events_cert.h"
#include "io/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/events.h"
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

/* rows x cols numbers (cols 0: a flat row) as a JSON array; NULL when one
 * is not finite (JSON has no infinity) or out of memory. */
static json_t *rows_json(const double *v, long rows, long cols)
{
    json_t *a = json_array();
    for (long k = 0; a && k < rows; k++) {
        json_t *row = cols > 0 ? json_array() : json_real(v[k]);
        for (long c = 0; row && c < cols; c++)
            if (!isfinite(v[k * cols + c]) || json_array_append_new(row, json_real(v[k * cols + c])) != 0) {
                json_decref(row);
                row = NULL;
            }
        if (!row || (cols == 0 && !isfinite(v[k])) || json_array_append_new(a, row) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return a;
}

static json_t *trajectory_json(const dvc_dlvi_events_from *f)
{
    json_t *o = json_object();
    const double *v[5] = {f->t, f->p, f->lo, f->hi, f->up};
    static const char *const keys[] = {"t", "p", "error_lo", "error_hi", "step_upper"};
    for (int q = 0; o && q < 5; q++) {
        json_t *a = rows_json(v[q], q == 4 ? f->ns - 1 : f->ns, q == 0 ? 0 : f->n);
        if (!a || json_object_set_new(o, keys[q], a) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    return o;
}

dvc_status dvc_events_cert_write_(dvc_hybrid_cert_struct *c, const json_t *problem,
                                  const dvc_dlvi_events_from *from, const char *path)
{
    json_t *model = json_object(), *ev = json_object(), *tj = from ? trajectory_json(from) : NULL;
    int bad = !model || !ev || json_object_set(ev, "problem", (json_t *)problem) != 0;
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
    return path ? dvc_hybrid_cert_write(c, path) : DVC_OK;
}
