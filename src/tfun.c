/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "dvicert/tfun.h"

#include <stdlib.h>
#include <string.h>

#include "dvicert/jsonio.h"

void dvc_tfun_init2(dvc_tfun_t f, mpfr_prec_t prec)
{
    f->kind = DVC_TFUN_NONE;
    dvc_expr_init2(f->expr, prec);
    dvc_tabfun_init2(f->tab, prec);
}

void dvc_tfun_init(dvc_tfun_t f) { dvc_tfun_init2(f, dvc_prec_get()); }

void dvc_tfun_clear(dvc_tfun_t f)
{
    dvc_expr_clear(f->expr);
    dvc_tabfun_clear(f->tab);
    f->kind = DVC_TFUN_NONE;
}

dvc_status dvc_tfun_set_expr(dvc_tfun_t f, const char *text, const dvc_expr_consts_t consts)
{
    dvc_status st = dvc_expr_parse(f->expr, text, consts);
    f->kind = st == DVC_OK ? DVC_TFUN_EXPR : DVC_TFUN_NONE;
    return st;
}

dvc_status dvc_tfun_set_const(dvc_tfun_t f, const mpfi_t c)
{
    dvc_status st = dvc_expr_set_const(f->expr, c);
    f->kind = st == DVC_OK ? DVC_TFUN_EXPR : DVC_TFUN_NONE;
    return st;
}

dvc_status dvc_tfun_read_table(dvc_tfun_t f, const char *path, const char *format, const mpfi_t scale)
{
    dvc_status st = dvc_tabfun_read(f->tab, path, format, scale);
    f->kind = st == DVC_OK ? DVC_TFUN_TABLE : DVC_TFUN_NONE;
    return st;
}

dvc_status dvc_tfun_from_json(dvc_tfun_t f, const json_t *j, const char *basedir,
                              const dvc_expr_consts_t consts, const char *where)
{
    dvc_status st;
    if (!where) where = "function of t";
    if (!j) return dvc_error(DVC_ERR_INPUT, "%s: missing", where);
    if (json_is_string(j)) {
        st = dvc_tfun_set_expr(f, json_string_value(j), consts);
        return st == DVC_OK ? st : dvc_error_context(st, "%s: ", where);
    }
    if (json_is_number(j)) {
        mpfi_t c;
        mpfi_init2(c, f->expr->prec);
        st = dvc_json_ival(c, j, where);
        if (st == DVC_OK) st = dvc_tfun_set_const(f, c);
        mpfi_clear(c);
        return st;
    }
    if (json_is_object(j)) {
        const json_t *file = json_object_get(j, "table"), *fmt = json_object_get(j, "format"),
                     *sc = json_object_get(j, "scale");
        const char *key;
        json_t *val;
        char *path;
        mpfi_t scale;
        json_object_foreach((json_t *)j, key, val) {
            if (strcmp(key, "table") && strcmp(key, "format") && strcmp(key, "scale"))
                return dvc_error(DVC_ERR_INPUT, "%s: unknown field '%s' (expected table, format, scale)",
                                 where, key);
        }
        if (!json_is_string(file))
            return dvc_error(DVC_ERR_INPUT, "%s: 'table' must be a file name", where);
        if (fmt && !json_is_string(fmt))
            return dvc_error(DVC_ERR_INPUT, "%s: 'format' must be \"csv\" or \"at2\"", where);
        {
            const char *name = json_string_value(file);
            size_t n = (basedir && name[0] != '/') ? strlen(basedir) + strlen(name) + 2 : strlen(name) + 1;
            path = malloc(n);
            if (!path) return dvc_error(DVC_ERR_NOMEM, "out of memory");
            if (basedir && name[0] != '/' && basedir[0]) snprintf(path, n, "%s/%s", basedir, name);
            else snprintf(path, n, "%s", name);
        }
        mpfi_init2(scale, f->tab->prec);
        st = DVC_OK;
        if (sc) {
            char w[512];
            snprintf(w, sizeof w, "%s.scale", where);
            st = dvc_json_ival(scale, sc, w);
        }
        if (st == DVC_OK) {
            st = dvc_tfun_read_table(f, path, fmt ? json_string_value(fmt) : NULL, sc ? scale : NULL);
            if (st != DVC_OK) st = dvc_error_context(st, "%s: ", where);
        }
        mpfi_clear(scale);
        free(path);
        return st;
    }
    return dvc_error(DVC_ERR_INPUT, "%s: expected an expression string, a number or {\"table\": file}", where);
}

int dvc_tfun_is_const(const dvc_tfun_t f)
{
    return f->kind == DVC_TFUN_EXPR && !dvc_expr_uses_t(f->expr);
}

dvc_status dvc_tfun_eval_lip(mpfi_t r, mpfr_t L, const dvc_tfun_t f, const mpfi_t T)
{
    switch (f->kind) {
    case DVC_TFUN_EXPR:
        if (!L && !r) return DVC_OK;
        if (!L) return dvc_expr_eval(r, f->expr, T);
        {
            /* expr scratch tmp[1] is free after the call returns */
            mpfi_ptr df = ((dvc_expr_struct *)f->expr)->tmp[1], val = ((dvc_expr_struct *)f->expr)->tmp[0];
            dvc_status st = dvc_expr_eval_d1(val, df, f->expr, T);
            if (st != DVC_OK) return st;
            dvc_ival_mag(L, df);
            if (r) mpfi_set(r, val);
            return DVC_OK;
        }
    case DVC_TFUN_TABLE:
        return dvc_tabfun_eval_lip(r, L, f->tab, T);
    default:
        return dvc_error(DVC_ERR_INPUT, "function of t not set");
    }
}

dvc_status dvc_tfun_eval(mpfi_t r, const dvc_tfun_t f, const mpfi_t T)
{
    return dvc_tfun_eval_lip(r, NULL, f, T);
}
