/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "dvicert/tfun.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dvc_tfun_init2(dvc_tfun_t f, mpfr_prec_t prec)
{
    f->kind = DVC_TFUN_NONE;
    dvc_expr_init2(f->expr, prec);
    dvc_tabfun_init2(f->tab, prec);
    mpfi_init2(f->c, prec);
}

void dvc_tfun_init(dvc_tfun_t f) { dvc_tfun_init2(f, dvc_prec_get()); }

void dvc_tfun_clear(dvc_tfun_t f)
{
    dvc_expr_clear(f->expr);
    dvc_tabfun_clear(f->tab);
    mpfi_clear(f->c);
    f->kind = DVC_TFUN_NONE;
}

dvc_status dvc_tfun_set_expr(dvc_tfun_t f, const char *text, const dvc_expr_consts_t consts)
{
    dvc_status st = dvc_expr_parse(f->expr, text, consts);
    f->kind = DVC_TFUN_NONE;
    if (st != DVC_OK) return st;
    if (!dvc_expr_uses_t(f->expr)) {
        /* a constant: evaluated once, here */
        mpfi_t t0;
        mpfi_init2(t0, mpfi_get_prec(f->c));
        mpfi_set_ui(t0, 0);
        st = dvc_expr_eval(f->c, f->expr, t0);
        mpfi_clear(t0);
        if (st != DVC_OK) return st;
        f->kind = DVC_TFUN_CONST;
        return DVC_OK;
    }
    f->kind = DVC_TFUN_EXPR;
    return DVC_OK;
}

dvc_status dvc_tfun_set_const(dvc_tfun_t f, const mpfi_t c)
{
    f->kind = DVC_TFUN_NONE;
    if (!dvc_ival_is_finite(c) || !dvc_ival_is_valid(c))
        return dvc_error(DVC_ERR_INPUT, "constant function: not a finite interval");
    mpfi_set(f->c, c);
    f->kind = DVC_TFUN_CONST;
    return DVC_OK;
}

dvc_status dvc_tfun_read_table(dvc_tfun_t f, const char *path, const char *format, const mpfi_t scale)
{
    dvc_status st = dvc_tabfun_read(f->tab, path, format, scale);
    f->kind = st == DVC_OK ? DVC_TFUN_TABLE : DVC_TFUN_NONE;
    return st;
}

dvc_status dvc_tfun_parse_table(dvc_tfun_t f, const char *text, const char *format,
                                const char *name, const mpfi_t scale)
{
    dvc_status st;
    if (format && strcmp(format, "at2") == 0) st = dvc_tabfun_parse_at2(f->tab, text, name, scale);
    else if (format == NULL || strcmp(format, "csv") == 0) st = dvc_tabfun_parse_csv(f->tab, text, name, scale);
    else st = dvc_error(DVC_ERR_INPUT, "%s: table format must be \"csv\" or \"at2\"", name);
    f->kind = st == DVC_OK ? DVC_TFUN_TABLE : DVC_TFUN_NONE;
    return st;
}

int dvc_tfun_is_const(const dvc_tfun_t f) { return f->kind == DVC_TFUN_CONST; }

dvc_status dvc_tfun_eval_lip(mpfi_t r, mpfr_t L, const dvc_tfun_t f, const mpfi_t T)
{
    switch (f->kind) {
    case DVC_TFUN_CONST:
        if (r) mpfi_set(r, f->c);
        if (L) mpfr_set_zero(L, 1);
        return DVC_OK;
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

dvc_status dvc_tfun_deriv(mpfi_t d, const dvc_tfun_t f, const mpfi_t T)
{
    switch (f->kind) {
    case DVC_TFUN_CONST: mpfi_set_ui(d, 0); return DVC_OK;
    case DVC_TFUN_EXPR: return dvc_expr_eval_d1(NULL, d, f->expr, T);
    case DVC_TFUN_TABLE: return dvc_tabfun_deriv(d, f->tab, T);
    default: return dvc_error(DVC_ERR_INPUT, "function of t not set");
    }
}

/* ---- vectors and the callback adapter --------------------------------- */

dvc_status dvc_tfun_vec_init(dvc_tfun_vec_t v, long k, mpfr_prec_t prec)
{
    memset(v, 0, sizeof *v);
    if (prec <= 0) prec = dvc_prec_get();
    v->prec = prec;
    mpfi_init2(v->tmp, prec);
    mpfi_init2(v->tc, prec);
    mpfr_init2(v->ltmp, prec);
    mpfr_init2(v->thi, prec);
    if (k <= 0) return DVC_OK;
    v->fn = calloc((size_t)k, sizeof *v->fn);
    v->has_claim = calloc((size_t)k, sizeof *v->has_claim);
    v->claim = calloc((size_t)k, sizeof *v->claim);
    if (!v->fn || !v->has_claim || !v->claim) {
        free(v->fn);
        free(v->has_claim);
        free(v->claim);
        v->fn = NULL;
        v->has_claim = NULL;
        v->claim = NULL;
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    v->k = k;
    for (long i = 0; i < k; i++) dvc_tfun_init2(&v->fn[i], prec);
    return DVC_OK;
}

void dvc_tfun_vec_clear(dvc_tfun_vec_t v)
{
    for (long i = 0; i < v->k; i++) {
        dvc_tfun_clear(&v->fn[i]);
        if (v->has_claim[i]) mpfr_clear(v->claim[i]);
    }
    free(v->fn);
    free(v->has_claim);
    free(v->claim);
    mpfi_clear(v->tmp);
    mpfi_clear(v->tc);
    mpfr_clear(v->ltmp);
    mpfr_clear(v->thi);
    memset(v, 0, sizeof *v);
}

dvc_tfun_vec_struct *dvc_tfun_vec_new(long k, mpfr_prec_t prec)
{
    dvc_tfun_vec_struct *v = malloc(sizeof *v);
    if (!v) {
        dvc_error(DVC_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (dvc_tfun_vec_init(v, k, prec) != DVC_OK) {
        dvc_tfun_vec_clear(v);
        free(v);
        return NULL;
    }
    return v;
}

void dvc_tfun_vec_free(dvc_tfun_vec_struct *v)
{
    if (!v) return;
    dvc_tfun_vec_clear(v);
    free(v);
}

dvc_status dvc_tfun_vec_set_lipschitz(dvc_tfun_vec_t v, long i, const mpfi_t L)
{
    if (i < 0 || i >= v->k) return dvc_error(DVC_ERR_INPUT, "function of t: no entry %ld", i + 1);
    if (!dvc_ival_is_finite(L) || !dvc_ival_is_nonneg(L))
        return dvc_error(DVC_ERR_INPUT, "stated Lipschitz constant must be a finite number >= 0");
    if (!v->has_claim[i]) mpfr_init2(v->claim[i], mpfi_get_prec(L));
    else mpfr_set_prec(v->claim[i], mpfi_get_prec(L));
    mpfr_set(v->claim[i], &L->left, MPFR_RNDD);
    v->has_claim[i] = 1;
    return DVC_OK;
}

void dvc_tfun_vec_set_domain(dvc_tfun_vec_t v, const mpfi_t T)
{
    mpfr_set(v->thi, &T->right, MPFR_RNDU);
    v->has_domain = 1;
}

int dvc_tfun_vec_is_zero(const dvc_tfun_vec_t v)
{
    for (long i = 0; i < v->k; i++)
        if (v->fn[i].kind != DVC_TFUN_NONE) return 0;
    return 1;
}

/* t cut to the domain [0, thi] (tables are defined there only). */
static mpfi_srcptr clip(dvc_tfun_vec_struct *v, const mpfi_t t)
{
    if (!v->has_domain) return t;
    if (mpfr_sgn(&t->left) >= 0 && mpfr_cmp(&t->right, v->thi) <= 0) return t;
    mpfi_set(v->tc, t);
    if (mpfr_sgn(&v->tc->left) < 0) mpfr_set_zero(&v->tc->left, 1);
    if (mpfr_cmp(&v->tc->right, v->thi) > 0) mpfr_set(&v->tc->right, v->thi, MPFR_RNDU);
    if (mpfr_cmp(&v->tc->left, &v->tc->right) > 0) return t; /* disjoint: let it fail */
    return v->tc;
}

static dvc_status vec_eval(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    dvc_tfun_vec_struct *v = ctx;
    for (long i = 0; i < v->k; i++) {
        dvc_tfun_struct *f = &v->fn[i];
        dvc_status st = DVC_OK;
        switch (f->kind) {
        case DVC_TFUN_NONE: mpfi_set_ui(out->e[i], 0); break;
        case DVC_TFUN_CONST: mpfi_set(out->e[i], f->c); break;
        case DVC_TFUN_EXPR: st = dvc_expr_eval(out->e[i], f->expr, t); break;
        case DVC_TFUN_TABLE: st = dvc_tabfun_eval(out->e[i], f->tab, clip(v, t)); break;
        }
        if (st != DVC_OK) return dvc_error_context(st, "entry %ld: ", i + 1);
    }
    return DVC_OK;
}

static dvc_status vec_lip(mpfr_t out, const mpfi_t t, void *ctx)
{
    dvc_tfun_vec_struct *v = ctx;
    mpfr_set_zero(out, 1);
    for (long i = 0; i < v->k; i++) {
        dvc_tfun_struct *f = &v->fn[i];
        dvc_status st;
        if (f->kind == DVC_TFUN_NONE || f->kind == DVC_TFUN_CONST) continue;
        if (f->kind == DVC_TFUN_EXPR) st = dvc_expr_lipschitz(v->ltmp, f->expr, t);
        else st = dvc_tabfun_lipschitz(v->ltmp, f->tab, clip(v, t));
        if (st != DVC_OK) return dvc_error_context(st, "entry %ld: ", i + 1);
        if (v->has_claim[i] && mpfr_cmp(v->ltmp, v->claim[i]) > 0)
            return dvc_error(DVC_NOT_CERTIFIED, "component %ld: the stated Lipschitz constant %.6g "
                             "could not be confirmed: the certified bound on t in [%.17g, %.17g] is %.6g",
                             i + 1, mpfr_get_d(v->claim[i], MPFR_RNDD), mpfr_get_d(&t->left, MPFR_RNDD),
                             mpfr_get_d(&t->right, MPFR_RNDU), mpfr_get_d(v->ltmp, MPFR_RNDU));
        /* infinity norm: the largest component constant */
        if (mpfr_cmp(v->ltmp, out) > 0) mpfr_set(out, v->ltmp, MPFR_RNDU);
    }
    return DVC_OK;
}

static dvc_status vec_deriv(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    dvc_tfun_vec_struct *v = ctx;
    for (long i = 0; i < v->k; i++) {
        dvc_tfun_struct *f = &v->fn[i];
        dvc_status st = DVC_OK;
        if (f->kind == DVC_TFUN_NONE) mpfi_set_ui(out->e[i], 0);
        else st = dvc_tfun_deriv(out->e[i], f, f->kind == DVC_TFUN_TABLE ? clip(v, t) : t);
        if (st != DVC_OK) return dvc_error_context(st, "component %ld: derivative: ", i + 1);
    }
    return DVC_OK;
}

/* vec_eval at t0 and vec_deriv over t1 in one call: an expression runs
 * its program once (dvc_expr_eval_vd1); the same intervals. */
static dvc_status vec_val_deriv(dvc_ivec_t val, dvc_ivec_t der, const mpfi_t t0, const mpfi_t t1, void *ctx)
{
    dvc_tfun_vec_struct *v = ctx;
    for (long i = 0; i < v->k; i++) {
        dvc_tfun_struct *f = &v->fn[i];
        dvc_status st = DVC_OK;
        switch (f->kind) {
        case DVC_TFUN_NONE:
            mpfi_set_ui(val->e[i], 0);
            mpfi_set_ui(der->e[i], 0);
            break;
        case DVC_TFUN_CONST:
            mpfi_set(val->e[i], f->c);
            mpfi_set_ui(der->e[i], 0);
            break;
        case DVC_TFUN_EXPR: st = dvc_expr_eval_vd1(val->e[i], der->e[i], f->expr, t0, t1); break;
        case DVC_TFUN_TABLE:
            st = dvc_tabfun_eval(val->e[i], f->tab, clip(v, t0));
            if (st == DVC_OK) st = dvc_tabfun_deriv(der->e[i], f->tab, clip(v, t1));
            break;
        }
        if (st != DVC_OK) return dvc_error_context(st, "entry %ld: ", i + 1);
    }
    return DVC_OK;
}

/* Predictor values in plain binary64: expressions by the double
 * evaluator (libm), constants by their midpoints; only tables go through
 * the interval evaluation. */
static void vec_eval_d(double *out, double t, void *ctx)
{
    dvc_tfun_vec_struct *v = ctx;
    mpfi_t tt;
    int have_tt = 0;
    for (long i = 0; i < v->k; i++) {
        dvc_tfun_struct *f = &v->fn[i];
        dvc_status st = DVC_OK;
        switch (f->kind) {
        case DVC_TFUN_NONE: out[i] = 0.0; break;
        case DVC_TFUN_CONST: out[i] = dvc_ival_mid_d(f->c); break;
        case DVC_TFUN_EXPR: out[i] = dvc_expr_eval_double(f->expr, t, NULL); break;
        case DVC_TFUN_TABLE:
            if (!have_tt) {
                mpfi_init2(tt, 53);
                mpfi_set_d(tt, t);
                have_tt = 1;
            }
            st = dvc_tabfun_eval(v->tmp, f->tab, tt);
            /* a predictor only: an evaluation failure gives NaN, which the
             * certification then refuses with its own message */
            out[i] = st == DVC_OK ? dvc_ival_mid_d(v->tmp) : NAN;
            if (st != DVC_OK) dvc_error_reset();
            break;
        }
    }
    if (have_tt) mpfi_clear(tt);
}

static void vec_release(void *ctx) { dvc_tfun_vec_free(ctx); }

dvc_status dvc_tfun_cb_val_deriv(const dvc_tfun_cb *cb, dvc_ivec_t val, dvc_ivec_t der, const mpfi_t t0,
                                 const mpfi_t t1)
{
    dvc_status st;
    if (cb->deriv == NULL) return dvc_error(DVC_ERR_INPUT, "no derivative enclosure");
    if (cb->eval == vec_eval && cb->deriv == vec_deriv) return vec_val_deriv(val, der, t0, t1, cb->ctx);
    st = cb->eval(val, t0, cb->ctx);
    if (st == DVC_OK) st = cb->deriv(der, t1, cb->ctx);
    return st;
}

void dvc_tfun_vec_cb(dvc_tfun_cb *cb, dvc_tfun_vec_struct *v, int own)
{
    memset(cb, 0, sizeof *cb);
    cb->k = v->k;
    cb->eval = vec_eval;
    cb->lipschitz = vec_lip;
    cb->eval_d = vec_eval_d;
    cb->deriv = vec_deriv;
    cb->ctx = v;
    cb->release = own ? vec_release : NULL;
    for (long i = 0; i < v->k; i++)
        if (v->has_claim[i]) cb->claims = 1;
}

const dvc_tfun_vec_struct *dvc_tfun_cb_vec(const dvc_tfun_cb *cb)
{
    return cb && cb->eval == vec_eval ? cb->ctx : NULL;
}
