/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid model and hybrid certificate readers (`dvicert enclose MODEL.json`,
 * `dvicert verify HYBRID.cert.json`): any bytes give a model or a clear
 * input error, never a crash, a leak or undefined behaviour; a model that
 * loads keeps its promises (n >= 1, an initial mode, T above t0). The
 * input is read as a model, then as a certificate, and the kind probe that
 * `dvicert` runs first sees it too. A small model (short horizon, few
 * steps, few states and modes, a short text) is also run through the
 * engine: it certifies, stops with a reason or reports bad input, and a
 * result it certified is accepted by the independent re-check
 * (dvc_hybrid_verify). Larger ones are left out: the engine's time grows
 * with T / h, which the input chooses. */
#include "dvicert/dvicert.h"
#include "dvicert/hybrid.h"
#include "dvicert/hybrid_cert.h"
#include "io/hybrid_json.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The keys docs/hybrid.md allows in each object of a model, written out
 * here apart from the reader: a model holding any other key (a misspelled
 * "rest" for "reset", "B" for "b") must be refused, not loaded. */
static const char *const k_top[] = {"states", "constants", "modes", "switches", "transitions",
                                    "decomposed", "initial", "t0", "T", "h", "order", "prec",
                                    "guard_bits", "max_steps", "max_seconds", "name", "description",
                                    "comment", "units", "lcs", "algebraic", NULL};
/* a mode's keys; a DAE's mode (a model with "algebraic", docs/dae.md): f, g
 * or constraints, and z_range (one nonlinear in z) */
static const char *const k_mode[] = {"A", "b", "f", "g", "constraints", "E", "z_range",
                                     NULL};
static const char *const k_tr[] = {"from", "to", "switch", "direction", "reset", "guards", NULL};
static const char *const k_guard[] = {"switch", "sign", NULL};
static const char *const k_init[] = {"mode", "x", "z", NULL};
static const char *const k_dec[] = {"f0", "terms", NULL};
static const char *const k_term[] = {"h", "f+", "f-", NULL};

/* The first key of o outside list (keys starting with '_' allowed when
 * comments), or NULL. */
static const char *stray(const json_t *o, const char *const *list, int comments)
{
    const char *key;
    json_t *v;
    if (!json_is_object(o)) return NULL;
    json_object_foreach((json_t *)o, key, v) {
        int ok = comments && key[0] == '_';
        for (const char *const *a = list; !ok && *a; a++) ok = !strcmp(key, *a);
        if (!ok) return key;
    }
    return NULL;
}

/* A key of the model file outside the documented ones, or NULL. */
static const char *stray_key(const char *path)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err), *v;
    const char *bad = NULL, *key;
    static char keep[128];
    size_t i;
    if (!root) return NULL;
    bad = stray(root, k_top, 1);
    if (!bad) bad = stray(json_object_get(root, "initial"), k_init, 0);
    json_object_foreach(json_object_get(root, "modes"), key, v) if (!bad) bad = stray(v, k_mode, 0);
    json_array_foreach(json_object_get(root, "transitions"), i, v) {
        json_t *gv;
        size_t j;
        if (!bad) bad = stray(v, k_tr, 0);
        json_array_foreach(json_object_get(v, "guards"), j, gv) if (!bad) bad = stray(gv, k_guard, 0);
    }
    if (!bad) bad = stray(json_object_get(root, "decomposed"), k_dec, 0);
    json_object_foreach(json_object_get(json_object_get(root, "decomposed"), "terms"), key, v)
        if (!bad) bad = stray(v, k_term, 0);
    if (bad) snprintf(keep, sizeof keep, "%s", bad);
    json_decref(root);
    return bad ? keep : NULL;
}

/* Small enough to run the engine within the harness's time: at most 40
 * steps of the largest step the engine would take (its default: 0.25,
 * 0.01 with a field mode, at most 0.5 / ||A|| over the linear modes). */
static int small(const dvc_hybrid_model_struct *m, size_t size)
{
    double span, h = m->h, amax = 0;
    mpfr_t a;
    if (size > 1024 || m->n > 6 || m->nmodes > 12 || m->prec > 64 || m->guard_bits > 16 || m->order > 16)
        return 0;
    span = mpfr_get_d(m->T, MPFR_RNDU) - mpfr_get_d(m->t0, MPFR_RNDD);
    if (!(span > 0 && span <= 2)) return 0;
    if (h <= 0) {
        h = 0.25;
        mpfr_init2(a, 53);
        for (long k = 0; k < m->nmodes; k++) {
            if (!m->modes[k].linear) {
                h = 0.01;
                continue;
            }
            dvc_imat_norm_inf(a, m->modes[k].A);
            if (mpfr_get_d(a, MPFR_RNDU) > amax) amax = mpfr_get_d(a, MPFR_RNDU);
        }
        mpfr_clear(a);
        if (!(amax < 1e300)) return 0;
        if (amax > 0 && 0.5 / amax < h) h = 0.5 / amax;
    }
    return span / h <= 40;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "hybrid.json");
    dvc_hybrid_model_t m;
    dvc_hybrid_cert_t c;
    dvc_status st;
    int kind = dvc_hybrid_file_kind(path);
    FUZZ_ASSERT(kind >= 0 && kind <= 2, "file kind %d", kind);
    st = dvc_hybrid_load(m, path, 0);
    fuzz_note("model", st);
    FUZZ_ASSERT(st == DVC_OK || st == DVC_ERR_INPUT || st == DVC_ERR_IO,
                "model reader returned %s: %s", dvc_status_name(st), dvc_error_message());
    if (st == DVC_OK) {
        FUZZ_ASSERT(m->n >= 1 && m->nmodes >= 1 && m->mode0 >= 0 && m->mode0 < m->nmodes,
                    "a loaded model without states or an initial mode");
        FUZZ_ASSERT(mpfr_cmp(m->t0, m->T) < 0, "a loaded model with T <= t0");
        const char *k = stray_key(path);
        FUZZ_ASSERT(!k, "a model with the unknown key '%s' was loaded, not refused", k);
    }
    if (st == DVC_OK && small(m, size)) {
        dvc_hybrid_result_t r;
        dvc_hybrid_result_init(r);
        st = dvc_hybrid_enclose(r, m);
        fuzz_note("enclose", st);
        FUZZ_ASSERT(st == DVC_OK || st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT,
                    "enclose of a model that loads returned %s: %s", dvc_status_name(st), dvc_error_message());
        if (st == DVC_OK) {
            st = dvc_hybrid_verify(m, r);
            FUZZ_ASSERT(st == DVC_OK, "a fresh result is rejected (%s): %s", dvc_status_name(st),
                        dvc_error_message());
        }
        dvc_hybrid_result_clear(r);
    }
    dvc_hybrid_model_clear(m);
    dvc_error_reset();
    dvc_hybrid_cert_init(c);
    st = dvc_hybrid_cert_read(c, path);
    fuzz_note("certificate", st);
    FUZZ_ASSERT(st == DVC_OK || st == DVC_ERR_INPUT || st == DVC_ERR_IO,
                "certificate reader returned %s: %s", dvc_status_name(st), dvc_error_message());
    dvc_hybrid_cert_clear(c);
    dvc_error_reset();
    return 0;
}
