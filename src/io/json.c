/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "io/json.h"
#include "dvicert/files.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

dvc_status dvc_json_load(json_t **root, const char *path)
{
    json_error_t err;
    FILE *f;
    dvc_status st = dvc_infile_open(&f, path, "rb");
    *root = NULL;
    if (st != DVC_OK) return st;
    *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    /* a damaged gzip file is named as such, whatever the parser made of it */
    if ((st = dvc_infile_close(f, DVC_OK)) != DVC_OK) {
        json_decref(*root);
        *root = NULL;
        return st;
    }
    if (*root == NULL) {
        if (err.line < 0 || (err.line == -1 && err.column == -1))
            return dvc_error(DVC_ERR_IO, "%s: %s", path, err.text);
        return dvc_error(DVC_ERR_INPUT, "%s: malformed JSON at line %d, column %d: %s", path,
                         err.line, err.column, err.text);
    }
    if (!json_is_object(*root)) {
        json_decref(*root);
        *root = NULL;
        return dvc_error(DVC_ERR_INPUT, "%s: the top level must be a JSON object", path);
    }
    return DVC_OK;
}

static dvc_status scalar(mpfr_t lo, mpfr_t hi, const json_t *j, const char *where)
{
    if (json_is_integer(j)) {
        mpfr_set_si(lo, (long)json_integer_value(j), MPFR_RNDD);
        mpfr_set_si(hi, (long)json_integer_value(j), MPFR_RNDU);
        return DVC_OK;
    }
    if (json_is_real(j)) {
        double d = json_real_value(j);
        if (!isfinite(d)) return dvc_error(DVC_ERR_INPUT, "%s: number is not finite", where);
        /* The decimal text is gone; all we know is that it rounds to d. */
        mpfr_set_d(lo, nextafter(d, -INFINITY), MPFR_RNDD);
        mpfr_set_d(hi, nextafter(d, INFINITY), MPFR_RNDU);
        return DVC_OK;
    }
    if (json_is_string(j)) {
        mpfi_t t;
        dvc_status st;
        const char *s = json_string_value(j);
        if (strchr(s, '[')) return dvc_error(DVC_ERR_INPUT, "%s: use a JSON array [lo, hi] for an interval", where);
        mpfi_init2(t, mpfr_get_prec(lo));
        st = dvc_ival_set_str(t, s);
        if (st == DVC_OK) {
            mpfr_set(lo, &t->left, MPFR_RNDD);
            mpfr_set(hi, &t->right, MPFR_RNDU);
        }
        mpfi_clear(t);
        if (st != DVC_OK) return dvc_error_context(st, "%s: ", where);
        return DVC_OK;
    }
    return dvc_error(DVC_ERR_INPUT, "%s: expected a number or a decimal string", where);
}

dvc_status dvc_json_ival(mpfi_t x, const json_t *j, const char *where)
{
    mpfr_prec_t p = mpfi_get_prec(x);
    mpfr_t lo, hi, lo2, hi2;
    dvc_status st = DVC_OK;
    mpfr_inits2(p, lo, hi, lo2, hi2, (mpfr_ptr)0);
    if (json_is_array(j)) {
        if (json_array_size(j) != 2) {
            st = dvc_error(DVC_ERR_INPUT, "%s: an interval must be [lo, hi]", where);
        } else if ((st = scalar(lo, hi2, json_array_get(j, 0), where)) == DVC_OK &&
                   (st = scalar(lo2, hi, json_array_get(j, 1), where)) == DVC_OK) {
            if (mpfr_cmp(lo, hi) > 0)
                st = dvc_error(DVC_ERR_INPUT, "%s: empty interval (lo > hi)", where);
        }
    } else {
        st = scalar(lo, hi, j, where);
    }
    if (st == DVC_OK) {
        mpfr_set(&x->left, lo, MPFR_RNDD);
        mpfr_set(&x->right, hi, MPFR_RNDU);
    }
    mpfr_clears(lo, hi, lo2, hi2, (mpfr_ptr)0);
    return st;
}

int dvc_json_fits_d(const mpfi_t x)
{
    return mpfr_number_p(&x->left) && mpfr_number_p(&x->right) &&
           isfinite(mpfr_get_d(&x->left, MPFR_RNDD)) && isfinite(mpfr_get_d(&x->right, MPFR_RNDU));
}

/* An entry that may be infinite must be exactly -inf/+inf or fit binary64. */
static int fits_or_inf(const mpfi_t x)
{
    if (!dvc_ival_is_valid(x)) return 0;
    for (int e = 0; e < 2; e++) {
        mpfr_srcptr v = e ? &x->right : &x->left;
        if (!mpfr_inf_p(v) && !isfinite(mpfr_get_d(v, e ? MPFR_RNDU : MPFR_RNDD))) return 0;
    }
    return 1;
}

static dvc_status plain_num(mpfi_t x, const json_t *j, void *ctx, const char *where)
{
    (void)ctx;
    return dvc_json_ival(x, j, where);
}

dvc_status dvc_json_imat_ex(dvc_imat_t A, const json_t *obj, const char *field, const char *file,
                            long r_expect, long c_expect, mpfr_prec_t prec, dvc_json_num_fn num,
                            void *ctx)
{
    const json_t *a = json_object_get(obj, field);
    long r, c;
    char where[512];
    if (!num) num = plain_num;
    if (a == NULL) return dvc_error(DVC_ERR_INPUT, "%s: missing field '%s'", file, field);
    if (!json_is_array(a) || json_array_size(a) == 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' must be a non-empty array of rows", file, field);
    r = (long)json_array_size(a);
    {
        const json_t *row0 = json_array_get(a, 0);
        if (!json_is_array(row0) || json_array_size(row0) == 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s' row 1 must be a non-empty array", file, field);
        c = (long)json_array_size(row0);
    }
    if ((r_expect >= 0 && r != r_expect) || (c_expect >= 0 && c != c_expect))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' is %ldx%ld, expected %ldx%ld (dimension mismatch)",
                         file, field, r, c, r_expect >= 0 ? r_expect : r, c_expect >= 0 ? c_expect : c);
    if (prec > 0 && A->r * A->c == 0) {
        dvc_imat_clear(A);
        dvc_imat_init2(A, r, c, prec);
    } else {
        dvc_imat_resize(A, r, c);
    }
    for (long i = 0; i < r; i++) {
        const json_t *row = json_array_get(a, (size_t)i);
        if (!json_is_array(row) || (long)json_array_size(row) != c)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s' row %ld must have %ld entries (dimension mismatch)",
                             file, field, i + 1, c);
        for (long j = 0; j < c; j++) {
            dvc_status st;
            snprintf(where, sizeof where, "%s: field '%s' row %ld column %ld", file, field, i + 1, j + 1);
            st = num(dvc_imat_entry(A, i, j), json_array_get(row, (size_t)j), ctx, where);
            if (st != DVC_OK) return st;
            if (!dvc_json_fits_d(dvc_imat_entry(A, i, j)))
                return dvc_error(DVC_ERR_INPUT, "%s: must be finite (and within the binary64 range)", where);
        }
    }
    return DVC_OK;
}

dvc_status dvc_json_ivec_ex(dvc_ivec_t v, const json_t *obj, const char *field, const char *file,
                            long n_expect, int allow_inf, mpfr_prec_t prec, dvc_json_num_fn num,
                            void *ctx)
{
    const json_t *a = json_object_get(obj, field);
    long n;
    char where[512];
    if (!num) num = plain_num;
    if (a == NULL) return dvc_error(DVC_ERR_INPUT, "%s: missing field '%s'", file, field);
    if (!json_is_array(a) || json_array_size(a) == 0) {
        if (n_expect >= 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s' must be an array of %ld entries", file, field,
                             n_expect);
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' must be a non-empty array", file, field);
    }
    n = (long)json_array_size(a);
    if (n_expect >= 0 && n != n_expect)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' has %ld entries, expected %ld (dimension mismatch)",
                         file, field, n, n_expect);
    if (prec > 0 && v->n == 0) {
        dvc_ivec_clear(v);
        dvc_ivec_init2(v, n, prec);
    } else {
        dvc_ivec_resize(v, n);
    }
    for (long i = 0; i < n; i++) {
        dvc_status st;
        snprintf(where, sizeof where, "%s: field '%s' entry %ld", file, field, i + 1);
        st = num(v->e[i], json_array_get(a, (size_t)i), ctx, where);
        if (st != DVC_OK) return st;
        if (allow_inf ? !fits_or_inf(v->e[i]) : !dvc_json_fits_d(v->e[i]))
            return dvc_error(DVC_ERR_INPUT, "%s: must be finite (and within the binary64 range)%s", where,
                             allow_inf ? " or \"inf\" / \"-inf\"" : "");
    }
    return DVC_OK;
}

dvc_status dvc_json_imat(dvc_imat_t A, const json_t *obj, const char *field, const char *file)
{
    int any = A->r * A->c != 0;
    return dvc_json_imat_ex(A, obj, field, file, any ? A->r : -1, any ? A->c : -1, 0, NULL, NULL);
}

dvc_status dvc_json_ivec(dvc_ivec_t v, const json_t *obj, const char *field, const char *file,
                         int allow_inf)
{
    return dvc_json_ivec_ex(v, obj, field, file, v->n != 0 ? v->n : -1, allow_inf, 0, NULL, NULL);
}

dvc_status dvc_json_need(const json_t **out, const json_t *obj, const char *key, json_type ty,
                         const char *where)
{
    const json_t *j = json_object_get(obj, key);
    static const char *const names[] = {"an object", "an array", "a string", "an integer",
                                        "a number", "a boolean", "a boolean", "null"};
    if (j == NULL) return dvc_error(DVC_ERR_INPUT, "%s: missing field '%s'", where, key);
    if (json_typeof(j) != ty && !(ty == JSON_TRUE && json_is_boolean(j)))
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' must be %s", where, key, names[ty]);
    *out = j;
    return DVC_OK;
}

json_t *dvc_json_hex(double d)
{
    char buf[40];
    dvc_double_hex(buf, d);
    return json_string(buf);
}

dvc_status dvc_json_digest(char buf[17], const json_t *obj)
{
    char *text = json_dumps(obj, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    uint64_t h = DVC_FNV_OFFSET;
    if (text == NULL) return dvc_error(DVC_ERR_NOMEM, "cannot serialise the JSON text to digest");
    dvc_fnv_update(&h, text, strlen(text));
    free(text);
    snprintf(buf, 17, "%016llx", (unsigned long long)h);
    return DVC_OK;
}

dvc_status dvc_json_digest_root(char buf[17], const json_t *root)
{
    json_t *copy = json_copy((json_t *)root);
    dvc_status st;
    if (!copy) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    json_object_del(copy, "digest");
    st = dvc_json_digest(buf, copy);
    json_decref(copy);
    return st;
}

dvc_status dvc_json_tagged_digest(char out[17], const json_t *j, const char *file, const char *field)
{
    if (strncmp(json_string_value(j), "fnv1a64:", 8) != 0 || strlen(json_string_value(j)) != 24)
        return dvc_error(DVC_ERR_INPUT, "%s: field '%s' must be fnv1a64:<16 hex digits>", file, field);
    memcpy(out, json_string_value(j) + 8, 17);
    return DVC_OK;
}

json_t *dvc_json_load_member(const char *s, size_t len)
{
    json_error_t err;
    json_t *j;
    char *t = malloc(len + 3);
    if (!t) return NULL;
    t[0] = '{';
    memcpy(t + 1, s, len);
    t[len + 1] = '}';
    t[len + 2] = '\0';
    j = json_loads(t, JSON_REJECT_DUPLICATES, &err);
    free(t);
    return j;
}
