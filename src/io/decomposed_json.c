/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The "decomposed" section of a hybrid model file (docs/formats.md):
 * Stewart's decomposed form x' = f0 + sum_j f^j with one discontinuous term
 * per contact, each given by its indicator h and its values f+ (h > 0) and
 * f- (h < 0). Every message names the file and the field. */
#include <stdlib.h>
#include <string.h>
#include "io/hybrid_json.h"

static const char *const keys_dec[] = {"f0", "terms", NULL};
static const char *const keys_term[] = {"h", "f+", "f-", NULL};

dvc_status dvc_hybrid_decomposed_from_json(dvc_hybrid_model_t m, const json_t *obj,
                                           const json_t *jd, const dvc_expr_consts_t c,
                                           const char *file)
{
    static const char *const plain[] = {"modes", "switches", "transitions"};
    for (int k = 0; k < 3; k++)
        if (json_object_get(obj, plain[k]))
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s': a model gives either 'decomposed' "
                             "or modes, switches and transitions, not both", file, plain[k]);
    if (!json_is_object(jd))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'decomposed': expected an object", file);
    dvc_status st = dvc_hybrid_json_only_keys(jd, keys_dec, 0, file, "decomposed");
    if (st != DVC_OK) return st;
    const json_t *jt = json_object_get(jd, "terms");
    if (!json_is_object(jt) || json_object_size(jt) == 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'decomposed.terms': expected a non-empty "
                         "object (one discontinuous term per contact)", file);
    const char **f0 = NULL;
    char **f0o = NULL;
    st = dvc_hybrid_json_strs(&f0, &f0o, json_object_get(jd, "f0"), m->n, file, "decomposed.f0");
    if (st != DVC_OK) return st;
    long nt = (long)json_object_size(jt);
    dvc_hybrid_term *terms = calloc((size_t)nt, sizeof *terms);
    const char ***strs = calloc((size_t)(2 * nt), sizeof *strs);
    char ***owns = calloc((size_t)(2 * nt), sizeof *owns);
    if (!terms || !strs || !owns) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    const char *key;
    json_t *term;
    long k = 0;
    json_object_foreach((json_t *)jt, key, term) {
        if (st != DVC_OK) break;
        char field[300], ff[320];
        snprintf(field, sizeof field, "decomposed.terms.%s", key);
        if (!json_is_object(term)) {
            st = dvc_error(DVC_ERR_INPUT, "%s: field '%s': expected an object", file, field);
            break;
        }
        if ((st = dvc_hybrid_json_only_keys(term, keys_term, 0, file, field)) != DVC_OK) break;
        const json_t *jh = json_object_get(term, "h");
        if (!json_is_string(jh)) {
            st = dvc_error(DVC_ERR_INPUT, "%s: field '%s.h': expected an expression", file, field);
            break;
        }
        snprintf(ff, sizeof ff, "%s.f+", field);
        st = dvc_hybrid_json_strs(&strs[2 * k], &owns[2 * k], json_object_get(term, "f+"), m->n,
                                  file, ff);
        if (st == DVC_OK) {
            snprintf(ff, sizeof ff, "%s.f-", field);
            st = dvc_hybrid_json_strs(&strs[2 * k + 1], &owns[2 * k + 1],
                                      json_object_get(term, "f-"), m->n, file, ff);
        }
        terms[k].name = key;
        terms[k].h = json_string_value(jh);
        terms[k].fplus = strs[2 * k];
        terms[k].fminus = strs[2 * k + 1];
        k++;
    }
    if (st == DVC_OK) {
        st = dvc_hybrid_add_decomposed(m, f0, nt, terms, c);
        if (st != DVC_OK) st = dvc_error_context(st, "%s: field 'decomposed.terms': ", file);
    }
    for (long i = 0; strs && i < 2 * nt; i++)
        if (strs[i]) dvc_hybrid_json_strs_free(strs[i], owns[i], m->n);
    free(strs);
    free(owns);
    free(terms);
    dvc_hybrid_json_strs_free(f0, f0o, m->n);
    return st;
}
