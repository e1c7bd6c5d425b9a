/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Events of models with contacts in hybrid certificates (docs/formats.md):
 * the kind of each event (cross / enter-slide / leave-slide) and the active
 * set after it, and the note of an event decided by Stewart's LCP (13),
 * written and checked against the event's modes. */
#include <string.h>
#include "io/hybrid_json.h"

static json_t *active_json(const dvc_hybrid_model_struct *m, long mode)
{
    const dvc_hybrid_mode *md = &m->modes[mode];
    json_t *o = json_object();
    for (long j = 0; j < m->ncontacts; j++) {
        const char *a = dvc_hybrid_mode_active(md, j);
        if (a) json_object_set_new(o, m->contacts[j].name, json_string(a));
    }
    return o;
}

/* The note of an event decided by Stewart's LCP (13): the contacts on
 * their surfaces and what was proven of the solution (the engine continues
 * only when it is unique and strictly complementary; verify re-runs it). */
static json_t *lcp_json(const dvc_hybrid_model_struct *m, const dvc_hybrid_event *e)
{
    long S0[64];
    if (m->ncontacts > 64) return NULL;
    long s = dvc_hybrid_event_lcp_terms(m, e, S0);
    if (s == 0) return NULL;
    json_t *o = json_object(), *a = json_array();
    for (long i = 0; i < s; i++) json_array_append_new(a, json_string(m->contacts[S0[i]].name));
    json_object_set_new(o, "contacts", a);
    json_object_set_new(o, "size", json_integer(3 * s));
    json_object_set_new(o, "solutions", json_integer(1));
    json_object_set_new(o, "complete", json_true());
    json_object_set_new(o, "strict", json_true());
    return o;
}

void dvc_hybrid_event_json_kind(json_t *o, const dvc_hybrid_model_struct *m,
                                const dvc_hybrid_event *e)
{
    if (m->ncontacts == 0) return;
    json_object_set_new(o, "kind", json_string(dvc_hybrid_event_kind_name(
                                       dvc_hybrid_event_kind_of(m, e))));
    json_object_set_new(o, "active", active_json(m, e->mode_after));
    json_t *l = lcp_json(m, e);
    if (l) json_object_set_new(o, "lcp", l);
}

dvc_status dvc_hybrid_event_json_check_kind(const json_t *o, const dvc_hybrid_model_struct *m,
                                            const dvc_hybrid_event *e, const char *where)
{
    const json_t *jk = json_object_get(o, "kind"), *ja = json_object_get(o, "active");
    if (m->ncontacts == 0) {
        if (jk || ja)
            return dvc_error(DVC_ERR_INPUT, "%s: 'kind' and 'active' belong to models with "
                             "contacts", where);
        return DVC_OK;
    }
    const char *want = dvc_hybrid_event_kind_name(
        dvc_hybrid_event_kind_of(m, e));
    if (!json_is_string(jk))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'kind' is missing (expected \"%s\")", where,
                         want);
    if (strcmp(json_string_value(jk), want) != 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'kind': \"%s\" does not match the modes "
                         "'%s' -> '%s' (a %s event)", where, json_string_value(jk),
                         m->modes[e->mode_before].name, m->modes[e->mode_after].name, want);
    json_t *a = active_json(m, e->mode_after);
    int same = ja && json_equal((json_t *)ja, a);
    json_decref(a);
    if (!same)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'active' is missing or does not match mode "
                         "'%s'", where, m->modes[e->mode_after].name);
    const json_t *jl = json_object_get(o, "lcp");
    json_t *l = lcp_json(m, e);
    same = (!jl && !l) || (jl && l && json_equal((json_t *)jl, l));
    json_decref(l);
    if (!same)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'lcp': %s", where,
                         jl ? "does not match the event (the contacts on their surfaces, one "
                              "strictly complementary solution)"
                            : "missing: the new active set is decided by Stewart's LCP (13)");
    return DVC_OK;
}
