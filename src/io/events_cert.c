/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid certificates of the DLVI events route (src/io/events_cert.h):
 * the embedded problem in, the switched model out, and the writer. */
#include "io/events_cert.h"
#include "io/io.h"

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

dvc_status dvc_events_cert_model_(dvc_hybrid_model_t m, const json_t *model, const char *name,
                                  mpfr_prec_t prec)
{
    const json_t *ev = json_object_get(model, EVENTS_KEY), *prob = json_object_get(ev, "problem");
    dvc_dlvi_problem_t p;
    dvc_hybrid_result_t r;
    dvc_status st;
    mpfr_prec_t saved = dvc_prec_get();
    if (json_object_size(model) != 1 || !json_is_object(prob) || json_object_size(ev) != 1) {
        dvc_hybrid_model_init(m, 1, NULL, prec);
        return dvc_error(DVC_ERR_INPUT, "%s: field 'model': expected the one member '" EVENTS_KEY
                         "' holding the one member 'problem' (an object)", name);
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
        dvc_hybrid_result_clear(r);
        if (st == DVC_NOT_CERTIFIED) dvc_error_context(st, "%s: the events route on the embedded problem: ", name);
    }
    dvc_dlvi_problem_clear(p);
    dvc_prec_set(saved);
    return st;
}

dvc_status dvc_events_cert_write_(dvc_hybrid_cert_struct *c, const json_t *problem, const char *path)
{
    json_t *model = json_object(), *ev = json_object();
    int bad = !model || !ev || json_object_set(ev, "problem", (json_t *)problem) != 0;
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
