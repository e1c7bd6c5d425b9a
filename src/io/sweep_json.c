/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Sweep specifications: a base problem and a grid of constants and table
 * files, expanded into self-contained problems (docs/formats.md). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dvicert/dlvi.h"
#include "dvicert/files.h"
#include "io/json.h"
#include "io/problem_json.h"
#include "io/sweep_json.h"

/* More runs than this is a typo in the grid, not a plan (--max-runs stops
 * at it; the default bound is DVC_SWEEP_MAX_RUNS). */
#define SWEEP_MAX_RUNS 1000000L

typedef struct {
    const char *label;  /* the constant, or the table axis' name */
    int table;          /* 0: constant axis; 1: table axis */
    const char *field;  /* table axis: "f" or "g" */
    long nentries;
    long *entries;      /* table axis: 0-based components of field */
    long nvals;
    const json_t **vals; /* constant axis: the values (borrowed from the spec) */
    char **texts;       /* table axis: the files' texts */
    const char **files; /* table axis: the names as given (borrowed) */
    int *at2;           /* table axis: AT2 (1) or CSV (0) */
    char **tags;        /* per value: its part of the run names */
} axis_t;

void dvc_sweep_init(dvc_sweep *sw)
{
    memset(sw, 0, sizeof *sw);
}

void dvc_sweep_clear(dvc_sweep *sw)
{
    for (long i = 0; i < sw->nruns; i++) {
        free(sw->runs[i].name);
        free(sw->runs[i].problem);
    }
    free(sw->runs);
    for (long i = 0; i < sw->nopts; i++) free(sw->enclose_opts[i]);
    free(sw->enclose_opts);
    memset(sw, 0, sizeof *sw);
}

static void axis_clear(axis_t *a)
{
    for (long v = 0; v < a->nvals; v++) {
        if (a->texts) free(a->texts[v]);
        if (a->tags) free(a->tags[v]);
    }
    free(a->entries);
    free(a->vals);
    free(a->texts);
    free(a->files);
    free(a->at2);
    free(a->tags);
}

static int name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '.' || ch == '-' || ch == '+';
}

/* A value's part of the run names: its text with every character that is
 * not safe in a file name or a shell word replaced by '_'. */
static char *tag_of(const char *s)
{
    size_t n = strlen(s);
    char *t = malloc(n + 1);
    if (!t) return NULL;
    for (size_t i = 0; i < n; i++) t[i] = name_char(s[i]) ? s[i] : '_';
    t[n] = '\0';
    return t;
}

static char *value_text(const json_t *v)
{
    char buf[128];
    if (json_is_string(v)) return strdup(json_string_value(v));
    if (json_is_integer(v)) snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v)) snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
    else {
        char *a = value_text(json_array_get(v, 0)), *b = value_text(json_array_get(v, 1));
        if (a && b) snprintf(buf, sizeof buf, "%s..%s", a, b);
        free(a);
        free(b);
        if (!a || !b) return NULL;
    }
    return strdup(buf);
}

static int is_number(const json_t *v)
{
    return json_is_string(v) || json_is_integer(v) || json_is_real(v);
}

static char *join(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = malloc(n);
    if (!p) return NULL;
    if (file[0] == '/') snprintf(p, n, "%s", file);
    else snprintf(p, n, "%s/%s", dir, file);
    return p;
}

/* No two values of an axis may give the same part of the run names. */
static dvc_status unique_tags(const axis_t *a, const char *spec, const char *where)
{
    for (long v = 0; v < a->nvals; v++)
        for (long w = 0; w < v; w++)
            if (strcmp(a->tags[v], a->tags[w]) == 0)
                return dvc_error(DVC_ERR_INPUT, "%s: field '%s': values %ld and %ld give the same run "
                                 "name part '%s' (duplicate names): give distinct values", spec, where,
                                 w + 1, v + 1, a->tags[v]);
    return DVC_OK;
}

static dvc_status constant_axis(axis_t *a, const char *key, const json_t *vals, const json_t *consts,
                                const char *spec)
{
    char where[300];
    snprintf(where, sizeof where, "constants.%s", key);
    a->label = key;
    if (!consts || !json_object_get(consts, key)) {
        char known[512] = "";
        const char *k;
        const json_t *v;
        if (consts)
            json_object_foreach((json_t *)consts, k, v) {
                (void)v;
                if (strlen(known) + strlen(k) + 3 < sizeof known)
                    strcat(strcat(known, *known ? ", " : ""), k);
            }
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': unknown constant '%s': the base problem's "
                         "constants are: %s", spec, where, key, *known ? known : "(none)");
    }
    if (!json_is_array(vals))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': expected an array of values", spec, where);
    a->nvals = (long)json_array_size(vals);
    if (a->nvals == 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': empty grid (no value)", spec, where);
    a->vals = calloc((size_t)a->nvals, sizeof *a->vals);
    a->tags = calloc((size_t)a->nvals, sizeof *a->tags);
    if (!a->vals || !a->tags) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long v = 0; v < a->nvals; v++) {
        const json_t *x = json_array_get(vals, (size_t)v);
        char *txt;
        if (!is_number(x) && !(json_is_array(x) && json_array_size(x) == 2 &&
                               is_number(json_array_get(x, 0)) && is_number(json_array_get(x, 1))))
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s' value %ld: expected a decimal string, a "
                             "number, a constant expression or [lo, hi]", spec, where, v + 1);
        a->vals[v] = x;
        if (!(txt = value_text(x))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        a->tags[v] = tag_of(txt);
        free(txt);
        if (!a->tags[v]) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    return unique_tags(a, spec, where);
}

/* The text of a table file named by the specification, by the rules of
 * problem files (docs/formats.md): inside the specification's directory
 * tree unless allowed, a regular file of bounded size. */
static dvc_status table_file(char **text, const char *specdir, const char *file, int allow_outside,
                             const char *spec, const char *where)
{
    char *path = join(specdir, file), *real = NULL, *dir = NULL;
    dvc_status st = DVC_OK;
    *text = NULL;
    if (!path) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (!(real = realpath(path, NULL))) {
        st = dvc_error(DVC_ERR_IO, "%s: field '%s': %s: cannot open: %s", spec, where, path, strerror(errno));
    } else if (!allow_outside) {
        size_t n;
        if (!(dir = realpath(specdir, NULL))) {
            st = dvc_error(DVC_ERR_IO, "%s: cannot resolve its directory: %s", spec, strerror(errno));
        } else {
            n = strlen(dir);
            if (!(strncmp(real, dir, n) == 0 && (real[n] == '/' || strcmp(dir, "/") == 0)))
                st = dvc_error(DVC_ERR_INPUT, "%s: field '%s': table file '%s' is outside the "
                               "specification's directory %s (it is %s): refused, its contents would "
                               "be copied into every problem (--allow-outside-tables reads it)",
                               spec, where, file, dir, real);
        }
    }
    if (st == DVC_OK && (st = dvc_infile_read_text(text, real, DVC_TABLE_MAX_BYTES)) != DVC_OK)
        dvc_error_context(st, "%s: field '%s': ", spec, where);
    free(path);
    free(real);
    free(dir);
    return st;
}

static dvc_status table_axis(axis_t *a, const char *key, const json_t *obj, const json_t *problem,
                             const char *specdir, int allow_outside, const char *spec)
{
    char where[300];
    const char *k;
    const json_t *v, *field, *entries, *files, *fun;
    snprintf(where, sizeof where, "tables.%s", key);
    a->label = key;
    a->table = 1;
    if (!json_is_object(obj))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s': expected an object {\"field\": \"f\", "
                         "\"entries\": [...], \"files\": [...]}", spec, where);
    json_object_foreach((json_t *)obj, k, v) {
        (void)v;
        if (strcmp(k, "field") != 0 && strcmp(k, "entries") != 0 && strcmp(k, "files") != 0 &&
            strcmp(k, "comment") != 0 && k[0] != '_')
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s': unknown key '%s' (known: field, entries, "
                             "files)", spec, where, k);
    }
    field = json_object_get(obj, "field");
    if (!json_is_string(field) ||
        (strcmp(json_string_value(field), "f") != 0 && strcmp(json_string_value(field), "g") != 0))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.field': expected \"f\" or \"g\"", spec, where);
    a->field = json_string_value(field);
    fun = json_object_get(problem, a->field);
    entries = json_object_get(obj, "entries");
    if (!json_is_array(entries) || json_array_size(entries) == 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.entries': expected a non-empty array of "
                         "component numbers (1-based)", spec, where);
    a->nentries = (long)json_array_size(entries);
    if (!(a->entries = calloc((size_t)a->nentries, sizeof *a->entries)))
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long e = 0; e < a->nentries; e++) {
        const json_t *x = json_array_get(entries, (size_t)e), *ent;
        long c = json_is_integer(x) ? (long)json_integer_value(x) : 0;
        if (c < 1 || !json_is_array(fun) || (size_t)c > json_array_size(fun))
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s.entries' entry %ld: not a component of "
                             "the base problem's '%s' (1..%ld)", spec, where, e + 1, a->field,
                             json_is_array(fun) ? (long)json_array_size(fun) : 0L);
        ent = json_array_get(fun, (size_t)(c - 1));
        if (!json_is_object(ent) || (!json_object_get(ent, "csv_text") && !json_object_get(ent, "at2_text")))
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s.entries' entry %ld: the base problem's "
                             "'%s' entry %ld is not a table (its file is what the sweep replaces)",
                             spec, where, e + 1, a->field, c);
        a->entries[e] = c - 1;
    }
    files = json_object_get(obj, "files");
    if (!json_is_array(files))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s.files': expected an array of file names", spec, where);
    a->nvals = (long)json_array_size(files);
    if (a->nvals == 0) return dvc_error(DVC_ERR_INPUT, "%s: field '%s.files': empty grid (no file)", spec, where);
    a->texts = calloc((size_t)a->nvals, sizeof *a->texts);
    a->files = calloc((size_t)a->nvals, sizeof *a->files);
    a->at2 = calloc((size_t)a->nvals, sizeof *a->at2);
    a->tags = calloc((size_t)a->nvals, sizeof *a->tags);
    if (!a->texts || !a->files || !a->at2 || !a->tags) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long f = 0; f < a->nvals; f++) {
        const json_t *x = json_array_get(files, (size_t)f);
        const char *name, *base, *dot;
        char w2[340];
        dvc_status st;
        size_t len;
        snprintf(w2, sizeof w2, "%s.files' entry '%ld", where, f + 1);
        if (!json_is_string(x) || !*json_string_value(x))
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s': expected a file name", spec, w2);
        name = a->files[f] = json_string_value(x);
        if ((st = table_file(&a->texts[f], specdir, name, allow_outside, spec, w2)) != DVC_OK) return st;
        base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
        dot = strrchr(base, '.');
        a->at2[f] = dot && strcasecmp(dot, ".at2") == 0;
        len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
        {
            char *stem = strndup(base, len);
            if (!stem || !(a->tags[f] = tag_of(stem))) {
                free(stem);
                return dvc_error(DVC_ERR_NOMEM, "out of memory");
            }
            free(stem);
        }
    }
    return unique_tags(a, spec, where);
}

/* The problem of grid point idx[] (one value index per axis). */
static dvc_status one_run(dvc_sweep_run *run, const json_t *problem, const char *prefix, axis_t *ax,
                          long nax, const long *idx, const char *spec)
{
    json_t *p = json_deep_copy(problem), *consts;
    const json_t *oname;
    size_t nlen = strlen(prefix) + 1, dlen = 8;
    char *name, *desc;
    dvc_dlvi_problem_t chk;
    dvc_status st;
    if (!p) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    consts = json_object_get(p, "constants");
    for (long a = 0; a < nax; a++) {
        nlen += strlen(ax[a].label) + strlen(ax[a].tags[idx[a]]) + 2;
        dlen += strlen(ax[a].label) + 64 +
                (ax[a].table ? strlen(ax[a].files[idx[a]]) : 0);
    }
    name = malloc(nlen);
    desc = malloc(dlen);
    if (!name || !desc) {
        free(name);
        free(desc);
        json_decref(p);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    strcpy(name, prefix);
    strcpy(desc, "");
    for (long a = 0; a < nax; a++) {
        const axis_t *x = &ax[a];
        long v = idx[a];
        char *vt = NULL;
        strcat(strcat(strcat(strcat(name, "_"), x->label), "="), x->tags[v]);
        if (x->table) {
            json_t *fun = json_object_get(p, x->field);
            for (long e = 0; e < x->nentries; e++) {
                json_t *ent = json_array_get(fun, (size_t)x->entries[e]);
                json_object_del(ent, "csv_text");
                json_object_del(ent, "at2_text");
                json_object_del(ent, "format");
                json_object_set_new(ent, x->at2[v] ? "at2_text" : "csv_text", json_string(x->texts[v]));
                json_object_set_new(ent, "source", json_string(x->files[v]));
            }
        } else {
            json_object_set(consts, x->label, (json_t *)x->vals[v]);
        }
        if (!x->table) vt = value_text(x->vals[v]);
        snprintf(desc + strlen(desc), dlen - strlen(desc), "%s%s = %.48s", a ? ", " : "", x->label,
                 x->table ? x->files[v] : vt ? vt : "?");
        free(vt);
    }
    oname = json_object_get(problem, "name");
    {
        const char *on = json_is_string(oname) ? json_string_value(oname) : prefix;
        size_t n = strlen(on) + strlen(desc) + 4;
        char *full = malloc(n);
        if (full) {
            snprintf(full, n, "%s [%s]", on, desc);
            json_object_set_new(p, "name", json_string(full));
            free(full);
        }
    }
    free(desc);
    /* read it back: a value the problem reader refuses is the spec's error */
    dvc_dlvi_problem_init(chk, 0, 0, 0);
    st = dvc_problem_from_json(chk, NULL, p, name, NULL, 0);
    dvc_dlvi_problem_clear(chk);
    if (st != DVC_OK) {
        dvc_error_context(st, "%s: run %s: ", spec, name);
        free(name);
        json_decref(p);
        return st;
    }
    run->name = name;
    run->problem = json_dumps(p, JSON_INDENT(1));
    json_decref(p);
    return run->problem ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
}

static int known_key(const char *k)
{
    static const char *const keys[] = {"base", "name", "constants", "tables", "enclose", "comment",
                                       "description", NULL};
    for (int i = 0; keys[i]; i++)
        if (strcmp(k, keys[i]) == 0) return 1;
    return k[0] == '_';
}

/* *total <- the number of runs of the grid (the product of the axes'
 * sizes) when at most max_runs (0: SWEEP_MAX_RUNS); else an error naming
 * the product axis by axis, before any run is built. */
static dvc_status grid_size(long *total, const axis_t *ax, long nax, long max_runs, const char *spec)
{
    char prod[256] = "";
    double full = 1; /* for the message only: exact below 2^53 */
    int over = 0;
    if (max_runs <= 0 || max_runs > SWEEP_MAX_RUNS) max_runs = SWEEP_MAX_RUNS;
    *total = 1;
    for (long a = 0; a < nax; a++) {
        size_t len = strlen(prod);
        snprintf(prod + len, sizeof prod - len, "%s%ld", a ? " x " : "", ax[a].nvals);
        full *= (double)ax[a].nvals;
        if (over || (ax[a].nvals > 0 && *total > max_runs / ax[a].nvals)) over = 1;
        else *total *= ax[a].nvals;
    }
    if (over)
        return dvc_error(DVC_ERR_INPUT, "%s: the grid has %s = %.0f runs, more than the limit of %ld "
                         "(--max-runs N raises it, up to %ld): refused", spec, prod, full, max_runs,
                         SWEEP_MAX_RUNS);
    return DVC_OK;
}

dvc_status dvc_sweep_expand(dvc_sweep *sw, const char *spec, int allow_outside, long max_runs)
{
    json_t *root = NULL, *base = NULL, *problem = NULL;
    const json_t *jb, *jname, *jconsts, *jtables, *jopts, *v;
    char *specdir = NULL, *basepath = NULL, *basedir = NULL, *prefix = NULL;
    axis_t *ax = NULL;
    long nax = 0, total = 1, *idx = NULL;
    const char *k;
    dvc_status st;
    dvc_dlvi_problem_t p;

    dvc_sweep_clear(sw);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    if ((st = dvc_json_load(&root, spec)) != DVC_OK) goto out;
    if (!(specdir = dvc_path_dir(spec))) goto nomem;
    json_object_foreach(root, k, v) {
        (void)v;
        if (!known_key(k)) {
            st = dvc_error(DVC_ERR_INPUT, "%s: unknown key '%s' (known: base, name, constants, tables, "
                           "enclose)", spec, k);
            goto out;
        }
    }
    jb = json_object_get(root, "base");
    if (!json_is_string(jb)) {
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'base': expected the base problem file's name", spec);
        goto out;
    }
    if (!(basepath = join(specdir, json_string_value(jb))) || !(basedir = dvc_path_dir(basepath))) goto nomem;
    /* the base as the problem reader sees it, its table files embedded */
    if ((st = dvc_json_load(&base, basepath)) != DVC_OK ||
        (st = dvc_problem_from_json(p, &problem, base, basepath, basedir, 0)) != DVC_OK) {
        dvc_error_context(st, "%s: field 'base': ", spec);
        goto out;
    }
    jname = json_object_get(root, "name");
    if (jname) {
        const char *s = json_is_string(jname) ? json_string_value(jname) : "";
        int okname = *s != '\0';
        for (const char *c = s; *c; c++) okname &= name_char(*c) || *c == '_' || *c == '=';
        if (!okname) {
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'name': expected a non-empty name of letters, "
                           "digits and . _ - + =", spec);
            goto out;
        }
        if (!(prefix = strdup(s))) goto nomem;
    } else {
        const char *b = strrchr(basepath, '/') ? strrchr(basepath, '/') + 1 : basepath;
        size_t n = strlen(b);
        if (n > 5 && strcmp(b + n - 5, ".json") == 0) n -= 5;
        {
            char *stem = strndup(b, n);
            if (!stem) goto nomem;
            prefix = tag_of(stem);
            free(stem);
            if (!prefix) goto nomem;
        }
    }
    jconsts = json_object_get(root, "constants");
    jtables = json_object_get(root, "tables");
    if ((jconsts && !json_is_object(jconsts)) || (jtables && !json_is_object(jtables))) {
        st = dvc_error(DVC_ERR_INPUT, "%s: field '%s': expected an object", spec,
                       jconsts && !json_is_object(jconsts) ? "constants" : "tables");
        goto out;
    }
    nax = (long)((jconsts ? json_object_size(jconsts) : 0) + (jtables ? json_object_size(jtables) : 0));
    if (nax == 0) {
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'constants': empty grid: give 'constants' (a constant "
                       "of the base and its values) or 'tables'", spec);
        goto out;
    }
    if (!(ax = calloc((size_t)nax, sizeof *ax)) || !(idx = calloc((size_t)nax, sizeof *idx))) goto nomem;
    nax = 0;
    if (jconsts)
        json_object_foreach((json_t *)jconsts, k, v) {
            if ((st = constant_axis(&ax[nax++], k, v, json_object_get(problem, "constants"), spec)) != DVC_OK)
                goto out;
        }
    if (jtables)
        json_object_foreach((json_t *)jtables, k, v) {
            int okname = *k != '\0';
            for (const char *c = k; *c; c++) okname &= name_char(*c) || *c == '_';
            if (!okname) {
                st = dvc_error(DVC_ERR_INPUT, "%s: field 'tables': axis name '%s': use letters, digits "
                               "and . _ - +", spec, k);
                goto out;
            }
            if ((st = table_axis(&ax[nax++], k, v, problem, specdir, allow_outside, spec)) != DVC_OK)
                goto out;
        }
    if ((st = grid_size(&total, ax, nax, max_runs, spec)) != DVC_OK) goto out;
    jopts = json_object_get(root, "enclose");
    if (jopts) {
        if (!json_is_array(jopts)) {
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'enclose': expected an array of options", spec);
            goto out;
        }
        if (!(sw->enclose_opts = calloc(json_array_size(jopts) + 1, sizeof *sw->enclose_opts))) goto nomem;
        for (size_t i = 0; i < json_array_size(jopts); i++) {
            const json_t *o = json_array_get(jopts, i);
            const char *s = json_is_string(o) ? json_string_value(o) : NULL;
            if (!s || strcmp(s, "-o") == 0 || strncmp(s, "--output", 8) == 0 || strncmp(s, "-o", 2) == 0) {
                st = dvc_error(DVC_ERR_INPUT, "%s: field 'enclose' entry %zu: %s", spec, i + 1,
                               s ? "the output is the sweep's (certs/NAME.cert.json)" : "expected a string");
                goto out;
            }
            if (!(sw->enclose_opts[sw->nopts++] = strdup(s))) goto nomem;
        }
    }
    if (!(sw->runs = calloc((size_t)total, sizeof *sw->runs))) goto nomem;
    for (long r = 0; r < total; r++) {
        long q = r;
        for (long a = nax - 1; a >= 0; a--) {
            idx[a] = q % ax[a].nvals;
            q /= ax[a].nvals;
        }
        if ((st = one_run(&sw->runs[r], problem, prefix, ax, nax, idx, spec)) != DVC_OK) goto out;
        sw->nruns = r + 1;
    }
    st = DVC_OK;
    goto out;
nomem:
    st = dvc_error(DVC_ERR_NOMEM, "out of memory");
out:
    if (st != DVC_OK) dvc_sweep_clear(sw);
    for (long a = 0; a < nax; a++) axis_clear(&ax[a]);
    free(ax);
    free(idx);
    free(specdir);
    free(basepath);
    free(basedir);
    free(prefix);
    dvc_dlvi_problem_clear(p);
    json_decref(problem);
    json_decref(base);
    json_decref(root);
    return st;
}
