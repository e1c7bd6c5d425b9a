/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Names and units of a problem (io/labels.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/labels.h"

void dvc_labels_init(dvc_labels *L)
{
    memset(L, 0, sizeof *L);
}

static void free_list(char **v, long k)
{
    if (v)
        for (long i = 0; i < k; i++) free(v[i]);
    free(v);
}

void dvc_labels_clear(dvc_labels *L)
{
    free(L->name);
    free_list(L->x, L->n);
    free_list(L->y, L->m);
    free_list(L->x_unit, L->n);
    free_list(L->y_unit, L->m);
    free(L->t_unit);
    memset(L, 0, sizeof *L);
}

static int is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.')) return 0;
    return 1;
}

/* s is "<c>K" with K a positive decimal integer: K, else 0. */
static long index_name(const char *s, char c)
{
    char *end;
    long k;
    if (s[0] != c || !isdigit((unsigned char)s[1]) || s[1] == '0') return 0;
    k = strtol(s + 1, &end, 10);
    return *end ? 0 : k;
}

static dvc_status defaults(dvc_labels *L, long n, long m)
{
    char buf[32];
    dvc_labels_clear(L);
    L->n = n;
    L->m = m;
    L->x = calloc((size_t)(n + 1), sizeof *L->x);
    L->y = calloc((size_t)(m + 1), sizeof *L->y);
    L->x_unit = calloc((size_t)(n + 1), sizeof *L->x_unit);
    L->y_unit = calloc((size_t)(m + 1), sizeof *L->y_unit);
    L->t_unit = strdup("");
    if (!L->x || !L->y || !L->x_unit || !L->y_unit || !L->t_unit) goto nomem;
    for (long j = 0; j < n; j++) {
        snprintf(buf, sizeof buf, "x%ld", j + 1);
        if (!(L->x[j] = strdup(buf)) || !(L->x_unit[j] = strdup(""))) goto nomem;
    }
    for (long k = 0; k < m; k++) {
        snprintf(buf, sizeof buf, "y%ld", k + 1);
        if (!(L->y[k] = strdup(buf)) || !(L->y_unit[k] = strdup(""))) goto nomem;
    }
    return DVC_OK;
nomem:
    dvc_labels_clear(L);
    return dvc_error(DVC_ERR_NOMEM, "out of memory");
}

static dvc_status names(char **v, long cnt, char c, const json_t *obj, const char *key, const char *file)
{
    const json_t *a = json_object_get(obj, key);
    if (a == NULL) return DVC_OK;
    if (!json_is_array(a) || (long)json_array_size(a) != cnt)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' must be an array of %ld names", file, key, cnt);
    for (long i = 0; i < cnt; i++) {
        const char *s = json_string_value(json_array_get(a, (size_t)i));
        long k;
        if (!s || !is_ident(s) || strlen(s) > 40)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s' entry %ld must be a name (a letter or '_', "
                             "then letters, digits, '_' or '.'; at most 40)", file, key, i + 1);
        if (strcmp(s, "t") == 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s' entry %ld: 't' is the time", file, key, i + 1);
        if ((k = index_name(s, c)) != 0 && k != i + 1)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s' entry %ld: '%s' is the default name of "
                             "entry %ld", file, key, i + 1, s, k);
        free(v[i]);
        if (!(v[i] = strdup(s))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    return DVC_OK;
}

/* Index of name s among the x (0..n-1) or y (n..n+m-1) names or their
 * defaults; -1 when none. */
static long find(const dvc_labels *L, const char *s)
{
    long k;
    for (long j = 0; j < L->n; j++)
        if (strcmp(L->x[j], s) == 0) return j;
    for (long j = 0; j < L->m; j++)
        if (strcmp(L->y[j], s) == 0) return L->n + j;
    if ((k = index_name(s, 'x')) != 0 && k <= L->n) return k - 1;
    if ((k = index_name(s, 'y')) != 0 && k <= L->m) return L->n + k - 1;
    return -1;
}

static dvc_status units(dvc_labels *L, const json_t *obj, const char *file)
{
    const json_t *u = json_object_get(obj, "units"), *val;
    const char *key;
    if (u == NULL) return DVC_OK;
    if (!json_is_object(u))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'units' must be an object from \"t\" or a state or "
                         "output name to a unit, e.g. {\"t\": \"s\", \"x1\": \"m\"}", file);
    json_object_foreach((json_t *)u, key, val) {
        const char *s = json_string_value(val);
        char **slot;
        long k;
        if (!s || strlen(s) > 40 || strchr(s, ','))
            return dvc_error(DVC_ERR_INPUT, "%s: field 'units' entry '%s' must be a text of at most 40 "
                             "characters without a comma", file, key);
        for (const char *q = s; *q; q++)
            if ((unsigned char)*q < 32 || *q == 127)
                return dvc_error(DVC_ERR_INPUT, "%s: field 'units' entry '%s': control character", file,
                                 key);
        if (strcmp(key, "t") == 0) {
            slot = &L->t_unit;
        } else if ((k = find(L, key)) >= 0) {
            slot = k < L->n ? &L->x_unit[k] : &L->y_unit[k - L->n];
        } else {
            return dvc_error(DVC_ERR_INPUT, "%s: field 'units' entry '%s' is neither 't' nor a state or "
                             "output name", file, key);
        }
        free(*slot);
        if (!(*slot = strdup(s))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    return DVC_OK;
}

dvc_status dvc_labels_from_json(dvc_labels *L, const json_t *obj, long n, long m, const char *file)
{
    dvc_status st = defaults(L, n, m);
    const json_t *nm = json_object_get(obj, "name");
    if (st != DVC_OK) return st;
    if (nm && !json_is_string(nm)) return dvc_error(DVC_ERR_INPUT, "%s: field 'name' must be a text", file);
    if (nm && !(L->name = strdup(json_string_value(nm)))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if ((st = names(L->x, n, 'x', obj, "state_names", file)) != DVC_OK) return st;
    if ((st = names(L->y, m, 'y', obj, "output_names", file)) != DVC_OK) return st;
    L->named = json_object_get(obj, "state_names") || json_object_get(obj, "output_names");
    for (long a = 0; a < n + m; a++)
        for (long b = a + 1; b < n + m; b++) {
            const char *sa = a < n ? L->x[a] : L->y[a - n], *sb = b < n ? L->x[b] : L->y[b - n];
            if (strcmp(sa, sb) == 0)
                return dvc_error(DVC_ERR_INPUT, "%s: fields 'state_names', 'output_names': the name "
                                 "'%s' is given twice", file, sa);
        }
    return units(L, obj, file);
}

dvc_status dvc_labels_from_text(dvc_labels *L, const char *problem_json, long n, long m)
{
    json_error_t err;
    json_t *root = problem_json ? json_loads(problem_json, 0, &err) : NULL;
    dvc_status st = root ? dvc_labels_from_json(L, root, n, m, "embedded problem") : DVC_ERR_INPUT;
    json_decref(root);
    if (st == DVC_ERR_NOMEM) return st;
    if (st != DVC_OK) {
        dvc_error_reset();
        return defaults(L, n, m);
    }
    return DVC_OK;
}

void dvc_labels_axis(char *buf, size_t cap, const char *name, const char *unit)
{
    if (unit && *unit) snprintf(buf, cap, "%s [%s]", name, unit);
    else snprintf(buf, cap, "%s", name);
}
