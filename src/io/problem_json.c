/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Problem files: JSON -> dvc_dlvi_problem_t. Every number is enclosed
 * (decimal strings exactly), every error names the file and the field. */
#include "io/problem_json.h"
#include "io/io.h"
#include "dvicert/certio.h"
#include "dvicert/files.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "dvicert/expr.h"
#include "io/json.h"
#include "io/labels.h"
#include "dvicert/tabfun.h"
#include "dvicert/tfun.h"

/* Keys a problem file may hold; anything else is most likely a typo. */
static const char *const known_keys[] = {
    "A", "B", "Q", "M", "l", "u", "x0", "f", "g", "T", "h", "N", "grid", "theta", "prec",
    "constants", "name", "description", "comment", "units", "state_names", "output_names",
    NULL,
};

typedef struct {
    mpfr_prec_t prec; /* of every number read */
    const char *file;
    const char *basedir;
    dvc_table_policy tables; /* where table files may be and how large */
    dvc_expr_consts_t consts;
} ctx_t;

/* One number: a JSON number, a decimal string, "inf"/"-inf", [lo, hi], or a
 * constant expression over the file's constants ("1/300", "gamma/2"). */
static dvc_status read_num(mpfi_t x, const json_t *j, ctx_t *c, const char *where)
{
    dvc_status st;
    if (!json_is_string(j)) return dvc_json_ival(x, j, where);
    {
        const char *s = json_string_value(j);
        if (strchr(s, '['))
            return dvc_error(DVC_ERR_INPUT, "%s: use a JSON array [lo, hi] for an interval", where);
        /* plain decimals and "inf" first: they are enclosed exactly */
        mpfi_t tmp;
        mpfi_init2(tmp, mpfi_get_prec(x));
        st = dvc_ival_set_str(tmp, s);
        if (st == DVC_OK && strchr(s, '[') == NULL) {
            mpfi_set(x, tmp);
            mpfi_clear(tmp);
            return DVC_OK;
        }
        mpfi_clear(tmp);
        dvc_error_reset();
    }
    {
        dvc_expr_t e;
        mpfi_t t0;
        dvc_expr_init2(e, mpfi_get_prec(x));
        st = dvc_expr_parse(e, json_string_value(j), c->consts);
        if (st != DVC_OK) {
            dvc_expr_clear(e);
            return dvc_error_context(st, "%s: ", where);
        }
        if (dvc_expr_uses_t(e)) {
            dvc_expr_clear(e);
            return dvc_error(DVC_ERR_INPUT, "%s: must be a constant, not a function of t ('%s')",
                             where, json_string_value(j));
        }
        mpfi_init2(t0, mpfi_get_prec(x));
        mpfi_set_ui(t0, 0);
        st = dvc_expr_eval(x, e, t0);
        mpfi_clear(t0);
        dvc_expr_clear(e);
        if (st != DVC_OK) return dvc_error_context(DVC_ERR_INPUT, "%s: ", where);
        return DVC_OK;
    }
}

static dvc_status num_cb(mpfi_t x, const json_t *j, void *ctx, const char *where)
{
    return read_num(x, j, ctx, where);
}

/* Matrices and vectors: the one JSON reader (io/json.c), with the file's
 * constants allowed in the entries. */
static dvc_status read_mat(dvc_imat_t A, const json_t *obj, const char *field, ctx_t *c,
                           long r_expect, long c_expect)
{
    return dvc_json_imat_ex(A, obj, field, c->file, r_expect, c_expect, c->prec, num_cb, c);
}

static dvc_status read_vec(dvc_ivec_t v, const json_t *obj, const char *field, ctx_t *c, long n,
                           int allow_inf)
{
    return dvc_json_ivec_ex(v, obj, field, c->file, n, allow_inf, c->prec, num_cb, c);
}

static dvc_status read_scalar(mpfi_t x, const json_t *obj, const char *field, ctx_t *c)
{
    char where[512];
    const json_t *j = json_object_get(obj, field);
    dvc_status st;
    if (j == NULL) return dvc_error(DVC_ERR_INPUT, "%s: missing field '%s'", c->file, field);
    snprintf(where, sizeof where, "%s: field '%s'", c->file, field);
    st = read_num(x, j, c, where);
    if (st != DVC_OK) return st;
    if (!dvc_json_fits_d(x))
        return dvc_error(DVC_ERR_INPUT, "%s: must be finite (and within the binary64 range)", where);
    return DVC_OK;
}

/* The named constants, enclosed at the problem's precision (the table
 * c->consts carries it). */
static dvc_status read_consts(ctx_t *c, const json_t *obj)
{
    const json_t *cs = json_object_get(obj, "constants");
    const char *key;
    const json_t *val;
    if (cs == NULL) return DVC_OK;
    if (!json_is_object(cs))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'constants' must be an object {\"name\": value}",
                         c->file);
    /* jansson keeps insertion order, so a constant may use earlier ones */
    json_object_foreach((json_t *)cs, key, val) {
        dvc_status st;
        if (json_is_string(val)) {
            st = dvc_expr_consts_add_str(c->consts, key, json_string_value(val));
            if (st != DVC_OK) {
                dvc_error_reset();
                st = dvc_expr_consts_add_expr(c->consts, key, json_string_value(val));
            }
        } else {
            mpfi_t x;
            char where[512];
            snprintf(where, sizeof where, "%s: field 'constants' entry '%s'", c->file, key);
            mpfi_init2(x, c->prec);
            st = dvc_json_ival(x, val, where);
            if (st == DVC_OK) st = dvc_expr_consts_add(c->consts, key, x);
            mpfi_clear(x);
            if (st != DVC_OK) return st;
            continue;
        }
        if (st != DVC_OK)
            return dvc_error_context(st, "%s: field 'constants' entry '%s': ", c->file, key);
    }
    return DVC_OK;
}

/* The time grid: T and either N or h. With h, when T/h encloses an integer
 * N (decimal h and T are enclosed exactly, so "0.001" divides "1") the
 * engine uses h = T/N. Otherwise h does not divide T: the step is the
 * largest binary64 number <= h, N = ceil(T/h) and the last step
 * [(N-1) h, T] is shorter (p->h; docs/formats.md "Time grid"). */
/* One time of field 'grid' (entry k, 1-based): a string holding a C99
 * hexadecimal number or a decimal that is a binary64 number exactly, or a
 * JSON integer. */
static dvc_status grid_time(double *out, const json_t *e, long k, ctx_t *c)
{
    if (json_is_integer(e)) {
        json_int_t v = json_integer_value(e);
        *out = (double)v;
        if ((json_int_t)*out != v || v > ((json_int_t)1 << 53) || v < -((json_int_t)1 << 53))
            return dvc_error(DVC_ERR_INPUT, "%s: field 'grid' entry %ld: %lld is not a binary64 number",
                             c->file, k, (long long)v);
        return DVC_OK;
    }
    if (!json_is_string(e))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'grid' entry %ld: write each time as a string, C99 "
                         "hexadecimal (\"0x1.8p-1\") or a decimal that is a binary64 number exactly "
                         "(\"0.75\"): the decimal text of a JSON real is not kept, so it cannot be checked",
                         c->file, k);
    {
        const char *str = json_string_value(e);
        char *end = NULL;
        mpfr_t x;
        int tern, ok;
        mpfr_init2(x, 53);
        tern = str[0] != '\0' && !isspace((unsigned char)str[0]) ? mpfr_strtofr(x, str, &end, 0, MPFR_RNDN) : 0;
        ok = end != NULL && end != str && *end == '\0';
        if (ok && !mpfr_number_p(x)) {
            mpfr_clear(x);
            return dvc_error(DVC_ERR_INPUT, "%s: field 'grid' entry %ld: '%s' is not a finite number", c->file,
                             k, str);
        }
        *out = ok ? mpfr_get_d(x, MPFR_RNDN) : 0.0;
        if (ok && (tern != 0 || !isfinite(*out) || mpfr_cmp_d(x, *out) != 0)) {
            mpfr_clear(x);
            return dvc_error(DVC_ERR_INPUT, "%s: field 'grid' entry %ld: '%s' is not a binary64 number "
                             "(grid times are exact: write the binary64 time you mean, e.g. in C99 "
                             "hexadecimal, %%a)", c->file, k, str);
        }
        mpfr_clear(x);
        if (!ok)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'grid' entry %ld: '%s' is not a number (C99 "
                             "hexadecimal or decimal)", c->file, k, str);
    }
    return DVC_OK;
}

/* Field 'grid': the times 0 = t_0 < ... < t_N = T, exact binary64
 * numbers (docs/formats.md "Time grid"); N from it, no h. */
static dvc_status read_time_grid(dvc_dlvi_problem_t p, const json_t *jg, const json_t *jN, const json_t *jh,
                                 ctx_t *c)
{
    long len;
    dvc_status st = DVC_OK;
    if (jh != NULL)
        return dvc_error(DVC_ERR_INPUT, "%s: fields 'grid' and 'h' exclude each other (the grid gives "
                         "every step)", c->file);
    if (!json_is_array(jg) || json_array_size(jg) < 2 || json_array_size(jg) > (size_t)DVC_DLVI_N_MAX + 1)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'grid' must be an array of 2 to 1e8 + 1 times",
                         c->file);
    len = (long)json_array_size(jg);
    if (jN != NULL && (!json_is_integer(jN) || json_integer_value(jN) != len - 1))
        return dvc_error(DVC_ERR_INPUT, "%s: fields 'grid' and 'N' disagree: the grid has %ld steps", c->file,
                         len - 1);
    if (!mpfr_equal_p(&p->T->left, &p->T->right))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'grid' needs field 'T' to be a binary number (T is a "
                         "decimal such as \"0.1\", known only as an interval, and the last grid time "
                         "must be T exactly)", c->file);
    free(p->grid);
    p->grid = malloc((size_t)len * sizeof *p->grid);
    if (!p->grid) return dvc_error(DVC_ERR_NOMEM, "out of memory for %ld grid times", len);
    for (long k = 0; k < len && st == DVC_OK; k++) {
        st = grid_time(&p->grid[k], json_array_get(jg, (size_t)k), k + 1, c);
        if (st != DVC_OK) break;
        if (k == 0 && p->grid[0] != 0.0)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'grid' entry 1: the grid must start at 0, got %.17g",
                           c->file, p->grid[0]);
        else if (k > 0 && !(p->grid[k] > p->grid[k - 1]))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'grid' entry %ld: %.17g is not above entry %ld (%.17g): "
                           "times must increase strictly", c->file, k + 1, p->grid[k], k, p->grid[k - 1]);
    }
    if (st == DVC_OK && mpfr_cmp_d(&p->T->left, p->grid[len - 1]) != 0)
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'grid' entry %ld: the grid ends at %.17g, not at T = %.17g",
                       c->file, len, p->grid[len - 1], mpfr_get_d(&p->T->left, MPFR_RNDN));
    if (st != DVC_OK) {
        free(p->grid);
        p->grid = NULL;
        return st;
    }
    p->N = len - 1;
    return DVC_OK;
}

static dvc_status read_grid(dvc_dlvi_problem_t p, const json_t *obj, ctx_t *c)
{
    dvc_status st = read_scalar(p->T, obj, "T", c);
    const json_t *jN = json_object_get(obj, "N");
    const json_t *jh = json_object_get(obj, "h");
    const json_t *jg = json_object_get(obj, "grid");
    if (st != DVC_OK) return st;
    p->h = 0; /* the uniform grid unless h does not divide T */
    if (!dvc_ival_is_pos(p->T))
        return dvc_error(DVC_ERR_INPUT, "%s: field 'T' must be > 0", c->file);
    if (jg != NULL) return read_time_grid(p, jg, jN, jh, c);
    if (jN == NULL && jh == NULL)
        return dvc_error(DVC_ERR_INPUT, "%s: missing field 'h' (step size), 'N' (number of steps) or "
                         "'grid' (the times)", c->file);
    if (jN != NULL) {
        if (!json_is_integer(jN) || json_integer_value(jN) < 1 ||
            json_integer_value(jN) > DVC_DLVI_N_MAX)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'N' must be an integer in [1, 1e8]", c->file);
        p->N = (long)json_integer_value(jN);
    }
    if (jh != NULL) {
        /* the test runs at a precision far above any decimal a user writes,
         * so that "h divides T" is decided exactly for decimal strings */
        mpfr_prec_t hp = p->prec + 256;
        mpfi_t h, q, T2;
        mpfr_t lo, hi;
        long N;
        mpfi_init2(h, hp);
        mpfi_init2(q, hp);
        mpfi_init2(T2, hp);
        mpfr_inits2(hp, lo, hi, (mpfr_ptr)0);
        st = read_scalar(h, obj, "h", c);
        if (st == DVC_OK) st = read_scalar(T2, obj, "T", c);
        if (st == DVC_OK && !dvc_ival_is_pos(h))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'h' must be > 0", c->file);
        if (st == DVC_OK) {
            mpfi_div(q, T2, h);
            mpfi_get_left(lo, q);
            mpfi_get_right(hi, q);
            mpfr_ceil(lo, lo);
            if (mpfr_cmp_ui(lo, DVC_DLVI_N_MAX) > 0)
                st = dvc_error(DVC_ERR_INPUT, "%s: field 'h': T/h exceeds 1e8 steps", c->file);
            else if (mpfr_cmp(lo, hi) > 0 || mpfr_cmp_ui(lo, 1) < 0) {
                /* no integer in T/h: a shorter last step */
                double hd = mpfr_get_d(&h->left, MPFR_RNDD);
                if (!mpfr_equal_p(&p->T->left, &p->T->right))
                    st = dvc_error(DVC_ERR_INPUT,
                                   "%s: field 'h': h does not divide T (T/h = %.17g), and a last step "
                                   "shorter than h needs field 'T' to be a binary number (T is a "
                                   "decimal such as \"0.1\", known only as an interval): write T as a "
                                   "binary number (a JSON number, or e.g. \"0.125\"), or give 'N'",
                                   c->file, dvc_ival_mid_d(q));
                else if (!(hd > 0))
                    st = dvc_error(DVC_ERR_INPUT, "%s: field 'h' is below the binary64 range", c->file);
                if (st == DVC_OK) {
                    /* N = ceil(T / hd): the quotient rounded up has the same ceiling */
                    mpfr_set_d(hi, hd, MPFR_RNDN);
                    mpfr_div(lo, &p->T->left, hi, MPFR_RNDU);
                    mpfr_ceil(lo, lo);
                    if (mpfr_cmp_ui(lo, DVC_DLVI_N_MAX) > 0)
                        st = dvc_error(DVC_ERR_INPUT, "%s: field 'h': T/h exceeds 1e8 steps", c->file);
                }
                if (st == DVC_OK) {
                    N = mpfr_get_si(lo, MPFR_RNDN);
                    if (jN != NULL && N != p->N)
                        st = dvc_error(DVC_ERR_INPUT, "%s: fields 'h' and 'N' disagree: h = %.17g "
                                       "gives %ld steps (the last shorter), N = %ld", c->file, hd, N, p->N);
                    p->N = N;
                    /* h >= T: one step [0, T], the uniform grid of N = 1 */
                    p->h = N > 1 ? hd : 0;
                }
            } else {
                mpfr_floor(hi, hi);
                if (mpfr_cmp(lo, hi) != 0)
                    st = dvc_error(DVC_ERR_INPUT, "%s: field 'h': T/h is too uncertain to fix the "
                                   "number of steps; give 'N'", c->file);
                N = mpfr_get_si(lo, MPFR_RNDN);
                if (st == DVC_OK && jN != NULL && N != p->N)
                    st = dvc_error(DVC_ERR_INPUT, "%s: fields 'h' and 'N' disagree: T/h = %ld, N = %ld",
                                   c->file, N, p->N);
                if (st == DVC_OK) p->N = N;
            }
        }
        mpfr_clears(lo, hi, (mpfr_ptr)0);
        mpfi_clear(q);
        mpfi_clear(h);
        mpfi_clear(T2);
        if (st != DVC_OK) return st;
    }
    return DVC_OK;
}

/* ---- table files named in a problem file ------------------------------
 * A table's text is copied into the certificate, which users share: a
 * problem file must not be able to copy /etc/... into it, nor make the
 * reader wait on a FIFO or fill memory from /dev/zero. */

/* *open_path: the file to open (malloc'd), checked against the rules. */
static dvc_status table_where(char **open_path, const char *joined, const char *basedir, const char *file,
                              int allow_outside, const char *where)
{
    char *dir, *real;
    size_t n;
    int inside;
    *open_path = NULL;
    if (allow_outside) {
        *open_path = strdup(joined);
        return *open_path ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    if (!(dir = realpath(basedir, NULL)))
        return dvc_error(DVC_ERR_IO, "%s: cannot resolve the problem file's directory %s: %s", where,
                         basedir, strerror(errno));
    if (!(real = realpath(joined, NULL))) {
        dvc_status st = dvc_error(DVC_ERR_IO, "%s: %s: cannot open: %s", where, joined, strerror(errno));
        free(dir);
        return st;
    }
    n = strlen(dir);
    inside = strncmp(real, dir, n) == 0 && (real[n] == '/' || real[n] == '\0' || strcmp(dir, "/") == 0);
    if (!inside) {
        int same = strcmp(file, real) == 0;
        dvc_status st = dvc_error(DVC_ERR_INPUT, "%s: table file '%s' is outside the problem file's "
                                  "directory %s%s%s%s: refused, its contents would be copied into "
                                  "the certificate (enclose --allow-outside-tables reads it)",
                                  where, file, dir, same ? "" : " (it is ", same ? "" : real,
                                  same ? "" : ")");
        free(dir);
        free(real);
        return st;
    }
    free(dir);
    *open_path = real; /* the checked file, not a name that may change meanwhile */
    return DVC_OK;
}

/* The text of the table file `file` named in the problem field `where`
 * (for messages): taken relative to basedir; inside basedir's tree once
 * links and '..' are resolved, unless tables->allow_outside; a regular file
 * of at most tables->max_bytes bytes (0: DVC_TABLE_MAX_BYTES) without NUL
 * bytes. On success *text and *path (basedir/file, the name for messages)
 * are the caller's to free; on failure both are NULL and the message starts
 * with where. */
static dvc_status table_text(char **text, char **path, const char *basedir, const char *file,
                             const dvc_table_policy *tables, const char *where)
{
    size_t max = tables && tables->max_bytes ? tables->max_bytes : DVC_TABLE_MAX_BYTES;
    size_t n = strlen(basedir) + strlen(file) + 2;
    char *real = NULL;
    struct stat sb;
    dvc_status st;
    *text = NULL;
    if (!(*path = malloc(n))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (file[0] == '/') snprintf(*path, n, "%s", file);
    else snprintf(*path, n, "%s/%s", basedir, file);
    st = table_where(&real, *path, basedir, file, tables && tables->allow_outside, where);
    if (st == DVC_OK) {
        st = dvc_infile_read_text(text, real, max);
        if (st != DVC_OK && stat(real, &sb) == 0 && S_ISREG(sb.st_mode) &&
            (unsigned long long)sb.st_size > (unsigned long long)max)
            st = dvc_error(st, "%s: %s: is %lld bytes, more than the limit of %zu bytes for a table "
                           "file: refused (enclose --max-table-bytes sets another)", where, real,
                           (long long)sb.st_size, max);
        else if (st != DVC_OK)
            dvc_error_context(st, "%s: ", where);
    }
    free(real);
    if (st != DVC_OK) {
        free(*path);
        *path = NULL;
    }
    return st;
}

/* ---- f and g: expressions, constants and tabulated data ----------------
 * Read into a dvc_tfun_vec (tfun.h) and attached to the problem through
 * its one callback adapter; the problem owns the vector. */

/* A tabulated entry: {"csv"|"at2": path} from a file (resolved into
 * {"csv_text"|"at2_text": contents}) or already embedded. */
static dvc_status read_table(dvc_tfun_struct *f, json_t *rentry, const json_t *j, const mpfi_t T, ctx_t *c,
                             const char *where)
{
    const char *key;
    const json_t *val;
    const char *file = NULL, *text = NULL;
    int at2 = 0, nsrc = 0;
    char *buf = NULL, *path = NULL;
    mpfi_t scale, tmin, tmax;
    dvc_status st = DVC_OK;
    json_object_foreach((json_t *)j, key, val) {
        if (strcmp(key, "csv") == 0 || strcmp(key, "at2") == 0) {
            if (!json_is_string(val))
                return dvc_error(DVC_ERR_INPUT, "%s: '%s' must be a file name", where, key);
            file = json_string_value(val);
            at2 = key[0] == 'a';
            nsrc++;
        } else if (strcmp(key, "csv_text") == 0 || strcmp(key, "at2_text") == 0) {
            if (!json_is_string(val))
                return dvc_error(DVC_ERR_INPUT, "%s: '%s' must be a string", where, key);
            text = json_string_value(val);
            at2 = key[0] == 'a';
            nsrc++;
        } else if (strcmp(key, "table") == 0) {
            /* the tfun spelling (docs/expressions.md): format by "format" or extension */
            const json_t *fm = json_object_get(j, "format");
            const char *e;
            if (!json_is_string(val))
                return dvc_error(DVC_ERR_INPUT, "%s: 'table' must be a file name", where);
            file = json_string_value(val);
            e = strrchr(file, '.');
            at2 = fm ? (json_is_string(fm) && strcmp(json_string_value(fm), "at2") == 0)
                     : (e && strcasecmp(e, ".at2") == 0);
            if (fm && (!json_is_string(fm) || (strcmp(json_string_value(fm), "at2") != 0 &&
                                              strcmp(json_string_value(fm), "csv") != 0)))
                return dvc_error(DVC_ERR_INPUT, "%s: 'format' must be \"csv\" or \"at2\"", where);
            nsrc++;
        } else if (strcmp(key, "scale") != 0 && strcmp(key, "source") != 0 &&
                   strcmp(key, "comment") != 0 && strcmp(key, "format") != 0) {
            return dvc_error(DVC_ERR_INPUT, "%s: unknown key '%s' (expected csv, at2, table, "
                             "format, scale)", where, key);
        }
    }
    if (nsrc != 1)
        return dvc_error(DVC_ERR_INPUT, "%s: a tabulated function needs exactly one of "
                         "\"csv\": FILE or \"at2\": FILE", where);
    if (file != NULL) {
        if (c->basedir == NULL)
            return dvc_error(DVC_ERR_INPUT, "%s: file references are not allowed here (the problem "
                             "must be self-contained)", where);
        st = table_text(&buf, &path, c->basedir, file, &c->tables, where);
        if (st != DVC_OK) return st;
        text = buf;
    }
    mpfi_init2(scale, c->prec);
    mpfi_init2(tmin, c->prec);
    mpfi_init2(tmax, c->prec);
    mpfi_set_ui(scale, 1);
    if (json_object_get(j, "scale")) {
        char w2[600];
        snprintf(w2, sizeof w2, "%s: 'scale'", where);
        st = read_num(scale, json_object_get(j, "scale"), c, w2);
        if (st == DVC_OK && !dvc_json_fits_d(scale))
            st = dvc_error(DVC_ERR_INPUT, "%s: must be finite (and within the binary64 range)", w2);
    }
    if (st == DVC_OK) {
        /* embedded text: "table line L", after the field named once */
        st = dvc_tfun_parse_table(f, text, at2 ? "at2" : "csv", file ? path : NULL, scale);
        if (st != DVC_OK) st = dvc_error_context(st, "%s: ", where);
    }
    for (long k = 0; st == DVC_OK && k < f->tab->n; k++)
        if (!dvc_json_fits_d(f->tab->t[k]) || !dvc_json_fits_d(f->tab->v[k]))
            st = dvc_error(DVC_ERR_INPUT, "%s: sample %ld: time and value must be finite (and within the "
                           "binary64 range)", where, k + 1);
    if (st == DVC_OK) {
        dvc_tabfun_tmin(tmin, f->tab);
        dvc_tabfun_tmax(tmax, f->tab);
        if (!dvc_ival_is_nonpos(tmin) || mpfr_cmp(&tmax->left, &T->right) < 0)
            st = dvc_error(DVC_ERR_INPUT, "%s: the table covers [%.17g, %.17g], it must cover [0, T] = "
                           "[0, %.17g]", where, dvc_ival_mid_d(tmin), dvc_ival_mid_d(tmax),
                           dvc_ival_mid_d(T));
    }
    if (st == DVC_OK && file != NULL && rentry != NULL) {
        /* embed the data so the certificate is self-contained */
        json_object_del(rentry, "at2");
        json_object_del(rentry, "csv");
        json_object_del(rentry, "table");
        json_object_del(rentry, "format");
        json_object_set_new(rentry, at2 ? "at2_text" : "csv_text", json_string(text));
        json_object_set_new(rentry, "source", json_string(file));
    }
    mpfi_clear(scale);
    mpfi_clear(tmin);
    mpfi_clear(tmax);
    free(buf);
    free(path);
    return st;
}

static dvc_status read_fun(dvc_tfun_vec_struct *F, long i, json_t *rentry, const json_t *j,
                           const mpfi_t T, ctx_t *c, const char *where)
{
    dvc_tfun_struct *f = &F->fn[i];
    dvc_status st;
    f->kind = DVC_TFUN_NONE;
    if (json_is_null(j)) return DVC_OK;
    if (json_is_object(j)) {
        /* {"expr": E, "lipschitz": L} or a table {"csv"|"at2": FILE, ..., "lipschitz": L} */
        const json_t *lj = json_object_get(j, "lipschitz"), *ej = json_object_get(j, "expr");
        if (ej) {
            const char *key;
            const json_t *val;
            json_object_foreach((json_t *)j, key, val) {
                (void)val;
                if (strcmp(key, "expr") && strcmp(key, "lipschitz") && strcmp(key, "comment"))
                    return dvc_error(DVC_ERR_INPUT, "%s: unknown key '%s' (expected expr, lipschitz)",
                                     where, key);
            }
            if (!json_is_string(ej) && !json_is_number(ej))
                return dvc_error(DVC_ERR_INPUT, "%s: 'expr' must be an expression string", where);
            st = read_fun(F, i, NULL, ej, T, c, where);
        } else {
            json_t *copy = json_deep_copy(j);
            if (!copy) return dvc_error(DVC_ERR_NOMEM, "out of memory");
            json_object_del(copy, "lipschitz");
            st = read_table(f, rentry, copy, T, c, where);
            json_decref(copy);
        }
        if (st == DVC_OK && lj) {
            char w2[600];
            mpfi_t v;
            snprintf(w2, sizeof w2, "%s: 'lipschitz'", where);
            mpfi_init2(v, c->prec);
            st = read_num(v, lj, c, w2);
            if (st == DVC_OK && (!dvc_json_fits_d(v) || !dvc_ival_is_nonneg(v)))
                st = dvc_error(DVC_ERR_INPUT, "%s: must be a finite number >= 0", w2);
            if (st == DVC_OK) st = dvc_tfun_vec_set_lipschitz(F, i, v);
            mpfi_clear(v);
        }
        return st;
    }
    if (json_is_string(j)) {
        /* a constant expression is evaluated once, here */
        st = dvc_tfun_set_expr(f, json_string_value(j), c->consts);
        if (st != DVC_OK)
            return dvc_error_context(st == DVC_ERR_NOMEM ? st : DVC_ERR_INPUT, "%s: ", where);
        if (f->kind == DVC_TFUN_CONST) {
            if (!dvc_json_fits_d(f->c))
                return dvc_error(DVC_ERR_INPUT, "%s: must be finite (and within the binary64 range)", where);
            return DVC_OK;
        }
        /* probe the whole interval once: domain errors surface here, named */
        {
            mpfi_t v, tt;
            mpfi_init2(v, c->prec);
            mpfi_init2(tt, c->prec);
            mpfi_interv_ui(tt, 0, 0);
            mpfi_put(tt, T);
            st = dvc_expr_eval(v, f->expr, tt);
            mpfi_clear(v);
            mpfi_clear(tt);
            if (st == DVC_ERR_INPUT) return dvc_error_context(st, "%s: ", where);
            dvc_error_reset(); /* NOT_CERTIFIED over the whole range is fine per step */
        }
        return DVC_OK;
    }
    {
        mpfi_t v;
        mpfi_init2(v, c->prec);
        st = dvc_json_ival(v, j, where);
        if (st == DVC_OK && !dvc_json_fits_d(v))
            st = dvc_error(DVC_ERR_INPUT, "%s: must be finite (and within the binary64 range)", where);
        if (st == DVC_OK) st = dvc_tfun_set_const(f, v);
        mpfi_clear(v);
    }
    return st;
}

/* f (k = n) or g (k = m); a missing field means zero. */
static dvc_status read_funs(dvc_tfun_cb *cb, json_t *res, const json_t *obj, const char *field,
                            long k, const mpfi_t T, ctx_t *c)
{
    const json_t *a = json_object_get(obj, field);
    json_t *ra = res ? json_object_get(res, field) : NULL;
    dvc_tfun_vec_struct *F;
    dvc_status st = DVC_OK;
    memset(cb, 0, sizeof *cb);
    if (a == NULL || json_is_null(a)) return DVC_OK;
    if (!json_is_array(a))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' must be an array of %ld functions of t", c->file,
                         field, k);
    if ((long)json_array_size(a) != k)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' has %ld entries, expected %ld (dimension mismatch)",
                         c->file, field, (long)json_array_size(a), k);
    F = dvc_tfun_vec_new(k, c->prec);
    if (!F) return DVC_ERR_NOMEM;
    dvc_tfun_vec_set_domain(F, T);
    for (long i = 0; i < k && st == DVC_OK; i++) {
        char where[512];
        snprintf(where, sizeof where, "%s: field '%s' entry %ld", c->file, field, i + 1);
        st = read_fun(F, i, ra ? json_array_get(ra, (size_t)i) : NULL, json_array_get(a, (size_t)i), T,
                      c, where);
    }
    if (st != DVC_OK || dvc_tfun_vec_is_zero(F)) {
        dvc_tfun_vec_free(F);
        return st;
    }
    dvc_tfun_vec_cb(cb, F, 1);
    return DVC_OK;
}

static dvc_status check_keys(const json_t *obj, const char *file)
{
    const char *key;
    const json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        int ok = key[0] == '_';
        (void)val;
        for (int i = 0; !ok && known_keys[i]; i++) ok = strcmp(key, known_keys[i]) == 0;
        if (!ok && (!strcmp(key, "states") || !strcmp(key, "switches") || !strcmp(key, "transitions") ||
                    !strcmp(key, "initial")))
            /* read as a problem only because "modes" is missing or misspelled */
            return dvc_error(DVC_ERR_INPUT, "%s: has '%s' but neither 'modes' nor 'decomposed': it looks "
                             "like a hybrid model missing \"modes\" (docs/hybrid.md), not a "
                             "DLVI problem", file, key);
        if (!ok) {
            char list[512] = "";
            for (int i = 0; known_keys[i]; i++) {
                strncat(list, known_keys[i], sizeof list - strlen(list) - 1);
                strncat(list, " ", sizeof list - strlen(list) - 1);
            }
            return dvc_error(DVC_ERR_INPUT, "%s: unknown field '%s' (known: %sand any key starting "
                             "with '_')", file, key, list);
        }
    }
    return DVC_OK;
}

static dvc_status build(dvc_dlvi_problem_t p, json_t *res, const json_t *obj, ctx_t *c)
{
    dvc_status st;
    long n, m;
    if ((st = check_keys(obj, c->file)) != DVC_OK) return st;
    if ((st = read_consts(c, obj)) != DVC_OK) return st;
    if ((st = read_mat(p->A, obj, "A", c, -1, -1)) != DVC_OK) return st;
    if (p->A->r != p->A->c)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'A' must be square, is %ldx%ld", c->file,
                         p->A->r, p->A->c);
    n = p->A->r;
    if ((st = read_mat(p->M, obj, "M", c, -1, -1)) != DVC_OK) return st;
    if (p->M->r != p->M->c)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'M' must be square, is %ldx%ld", c->file,
                         p->M->r, p->M->c);
    m = p->M->r;
    p->n = n;
    p->m = m;
    if ((st = read_mat(p->B, obj, "B", c, n, m)) != DVC_OK) return st;
    if ((st = read_mat(p->Q, obj, "Q", c, m, n)) != DVC_OK) return st;
    if ((st = read_vec(p->l, obj, "l", c, m, 1)) != DVC_OK) return st;
    if ((st = read_vec(p->u, obj, "u", c, m, 1)) != DVC_OK) return st;
    for (long i = 0; i < m; i++) {
        if (mpfr_inf_p(&p->l->e[i]->right) && mpfr_sgn(&p->l->e[i]->right) > 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'l' entry %ld: must not be +inf", c->file, i + 1);
        if (mpfr_inf_p(&p->u->e[i]->left) && mpfr_sgn(&p->u->e[i]->left) < 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'u' entry %ld: must not be -inf", c->file, i + 1);
        if (mpfr_cmp(&p->l->e[i]->right, &p->u->e[i]->left) >= 0)
            return dvc_error(DVC_ERR_INPUT, "%s: fields 'l', 'u' entry %ld: need l < u", c->file, i + 1);
    }
    if ((st = read_vec(p->x0, obj, "x0", c, n, 0)) != DVC_OK) return st;
    if ((st = read_grid(p, obj, c)) != DVC_OK) return st;
    if (json_object_get(obj, "theta") == NULL) {
        mpfi_set_ui(p->theta, 1);
    } else {
        if ((st = read_scalar(p->theta, obj, "theta", c)) != DVC_OK) return st;
        if (!dvc_ival_is_nonneg(p->theta) || mpfr_cmp_ui(&p->theta->right, 1) > 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'theta' must lie in [0, 1]%s", c->file, json_is_real(json_object_get(obj, "theta")) ? " (a JSON real such as 1.0 stands for every decimal that rounds to it, so it reaches past the bound: write 0 or 1, or a decimal string such as \"1\")" : "");
    }
    if ((st = read_funs(&p->fcb, res, obj, "f", n, p->T, c)) != DVC_OK) return st;
    if ((st = read_funs(&p->gcb, res, obj, "g", m, p->T, c)) != DVC_OK) return st;
    {
        /* names and units are only shown, but a bad one is refused here,
         * before a certificate carries it */
        dvc_labels L;
        dvc_labels_init(&L);
        st = dvc_labels_from_json(&L, obj, n, m, c->file);
        dvc_labels_clear(&L);
    }
    return st;
}

static mpfr_prec_t file_prec(const json_t *obj, const char *file, dvc_status *st)
{
    const json_t *j = json_object_get(obj, "prec");
    *st = DVC_OK;
    if (j == NULL) return DVC_DEFAULT_PREC;
    if (!json_is_integer(j) || json_integer_value(j) < 24 || json_integer_value(j) > 65536) {
        *st = dvc_error(DVC_ERR_INPUT, "%s: field 'prec' must be an integer number of bits in [24, 65536]",
                        file);
        return 0;
    }
    return (mpfr_prec_t)json_integer_value(j);
}

dvc_status dvc_problem_from_json(dvc_dlvi_problem_t p, json_t **resolved, const json_t *obj,
                                 const char *name, const char *basedir, mpfr_prec_t prec)
{
    return dvc_problem_from_json_policy(p, resolved, obj, name, basedir, prec, NULL);
}

dvc_status dvc_problem_from_json_policy(dvc_dlvi_problem_t p, json_t **resolved, const json_t *obj,
                                        const char *name, const char *basedir, mpfr_prec_t prec,
                                        const dvc_table_policy *tables)
{
    dvc_status st = DVC_OK;
    mpfr_prec_t fp;
    json_t *res = NULL;
    ctx_t c;
    if (resolved) *resolved = NULL;
    if (!json_is_object(obj))
        return dvc_error(DVC_ERR_INPUT, "%s: the problem must be a JSON object", name);
    fp = file_prec(obj, name, &st);
    if (st != DVC_OK) return st;
    if (prec == 0) prec = fp;
    dvc_dlvi_problem_clear(p);
    dvc_dlvi_problem_init(p, 0, 0, prec);
    c.prec = prec;
    c.file = name;
    c.basedir = basedir;
    memset(&c.tables, 0, sizeof c.tables);
    if (tables) c.tables = *tables;
    dvc_expr_consts_init2(c.consts, prec);
    res = json_deep_copy(obj);
    if (res == NULL) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    else st = build(p, res, obj, &c);
    dvc_expr_consts_clear(c.consts);
    if (st == DVC_OK && resolved) *resolved = res;
    else json_decref(res);
    return st;
}

dvc_status dvc_problem_load(dvc_dlvi_problem_t p, json_t **resolved, const char *path,
                            mpfr_prec_t prec)
{
    return dvc_problem_load_policy(p, resolved, path, prec, NULL);
}

dvc_status dvc_problem_load_policy(dvc_dlvi_problem_t p, json_t **resolved, const char *path,
                                   mpfr_prec_t prec, const dvc_table_policy *tables)
{
    json_t *root;
    dvc_status st = dvc_json_load(&root, path);
    char *dir;
    const char *slash;
    if (resolved) *resolved = NULL;
    if (st != DVC_OK) return st;
    slash = strrchr(path, '/');
    if (slash == NULL) {
        dir = strdup(".");
    } else {
        dir = strndup(path, (size_t)(slash - path) + (slash == path));
    }
    if (dir == NULL) {
        json_decref(root);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    st = dvc_problem_from_json_policy(p, resolved, root, path, dir, prec, tables);
    free(dir);
    json_decref(root);
    return st;
}

dvc_status dvc_problem_read(dvc_dlvi_problem_t p, const char *path, mpfr_prec_t prec)
{
    dvc_status st = dvc_problem_load(p, NULL, path, prec);
    if (st != DVC_OK) {
        /* no partial problem: empty, at the precision p had */
        mpfr_prec_t pp = p->prec;
        dvc_dlvi_problem_clear(p);
        dvc_dlvi_problem_init(p, 0, 0, pp);
    }
    return st;
}

char *dvc_io_problem_string(const char *problem_json, const char *key)
{
    json_error_t err;
    json_t *root = problem_json ? json_loads(problem_json, 0, &err) : NULL;
    const json_t *j = root ? json_object_get(root, key) : NULL;
    char *s = json_is_string(j) ? strdup(json_string_value(j)) : NULL;
    json_decref(root);
    return s;
}

int dvc_io_problem_dims(const char *path, long *n, long *m)
{
    json_t *root = NULL;
    const json_t *A, *M;
    int ok;
    if (dvc_json_load(&root, path) != DVC_OK) {
        dvc_error_reset();
        return 0;
    }
    A = json_object_get(root, "A");
    M = json_object_get(root, "M");
    ok = json_is_array(A) && json_is_array(M);
    if (ok) {
        *n = (long)json_array_size(A);
        *m = (long)json_array_size(M);
    }
    json_decref(root);
    return ok;
}
