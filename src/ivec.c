/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "dvicert/ivec.h"

#include <math.h>
#include <stdlib.h>

void dvc_ivec_init2(dvc_ivec_t v, long n, mpfr_prec_t prec)
{
    v->n = n;
    v->prec = prec;
    v->e = n > 0 ? malloc((size_t)n * sizeof(mpfi_t)) : NULL;
    if (n > 0 && v->e == NULL) abort();
    for (long i = 0; i < n; i++) {
        mpfi_init2(v->e[i], prec);
        mpfi_set_ui(v->e[i], 0);
    }
}

void dvc_ivec_init(dvc_ivec_t v, long n) { dvc_ivec_init2(v, n, dvc_prec_get()); }

void dvc_ivec_clear(dvc_ivec_t v)
{
    for (long i = 0; i < v->n; i++) mpfi_clear(v->e[i]);
    free(v->e);
    v->e = NULL;
    v->n = 0;
}

mpfr_prec_t dvc_ivec_prec(const dvc_ivec_t v)
{
    /* the entries first: views built by hand may leave prec unset */
    if (v->n > 0) return mpfi_get_prec(v->e[0]);
    return v->prec >= MPFR_PREC_MIN ? v->prec : DVC_DEFAULT_PREC;
}

void dvc_ivec_resize(dvc_ivec_t v, long n)
{
    mpfr_prec_t prec = dvc_ivec_prec(v);
    if (n == v->n) return;
    dvc_ivec_clear(v);
    dvc_ivec_init2(v, n, prec);
}

void dvc_ivec_set(dvc_ivec_t r, const dvc_ivec_t a)
{
    if (r == a) return;
    for (long i = 0; i < a->n; i++) mpfi_set(r->e[i], a->e[i]);
}

void dvc_ivec_zero(dvc_ivec_t r)
{
    for (long i = 0; i < r->n; i++) mpfi_set_ui(r->e[i], 0);
}

void dvc_ivec_set_d(dvc_ivec_t r, const double *x)
{
    for (long i = 0; i < r->n; i++) mpfi_set_d(r->e[i], x[i]);
}

void dvc_ivec_mid_d(double *x, const dvc_ivec_t a)
{
    for (long i = 0; i < a->n; i++) x[i] = dvc_ival_mid_d(a->e[i]);
}

void dvc_ivec_add(dvc_ivec_t r, const dvc_ivec_t a, const dvc_ivec_t b)
{
    for (long i = 0; i < a->n; i++) mpfi_add(r->e[i], a->e[i], b->e[i]);
}

void dvc_ivec_sub(dvc_ivec_t r, const dvc_ivec_t a, const dvc_ivec_t b)
{
    for (long i = 0; i < a->n; i++) mpfi_sub(r->e[i], a->e[i], b->e[i]);
}

void dvc_ivec_neg(dvc_ivec_t r, const dvc_ivec_t a)
{
    for (long i = 0; i < a->n; i++) mpfi_neg(r->e[i], a->e[i]);
}

void dvc_ivec_scale(dvc_ivec_t r, const mpfi_t s, const dvc_ivec_t a)
{
    for (long i = 0; i < a->n; i++) mpfi_mul(r->e[i], s, a->e[i]);
}

void dvc_ivec_addmul(dvc_ivec_t r, const mpfi_t s, const dvc_ivec_t a)
{
    mpfi_t t;
    mpfi_init2(t, dvc_ivec_prec(r));
    for (long i = 0; i < a->n; i++) {
        mpfi_mul(t, s, a->e[i]);
        mpfi_add(r->e[i], r->e[i], t);
    }
    mpfi_clear(t);
}

void dvc_ivec_hull(dvc_ivec_t r, const dvc_ivec_t a, const dvc_ivec_t b)
{
    for (long i = 0; i < a->n; i++) mpfi_union(r->e[i], a->e[i], b->e[i]);
}

void dvc_ivec_inflate(dvc_ivec_t r, const dvc_ivec_t a, const mpfr_t e)
{
    for (long i = 0; i < a->n; i++) {
        mpfr_sub(&r->e[i]->left, &a->e[i]->left, e, MPFR_RNDD);
        mpfr_add(&r->e[i]->right, &a->e[i]->right, e, MPFR_RNDU);
    }
}

void dvc_ivec_dot(mpfi_t r, const dvc_ivec_t a, const dvc_ivec_t b)
{
    mpfi_t t, s;
    mpfi_init2(t, mpfi_get_prec(r));
    mpfi_init2(s, mpfi_get_prec(r));
    mpfi_set_ui(s, 0);
    for (long i = 0; i < a->n; i++) {
        mpfi_mul(t, a->e[i], b->e[i]);
        mpfi_add(s, s, t);
    }
    mpfi_set(r, s);
    mpfi_clear(t);
    mpfi_clear(s);
}

/* r <- max(r, m), NaN-propagating (mpfr_max drops a NaN operand). */
static void max_nan(mpfr_t r, const mpfr_t m)
{
    if (mpfr_nan_p(m) || mpfr_nan_p(r)) mpfr_set_nan(r);
    else mpfr_max(r, r, m, MPFR_RNDU);
}

void dvc_ivec_norm_inf(mpfr_t r, const dvc_ivec_t a)
{
    mpfr_t m;
    mpfr_init2(m, mpfr_get_prec(r));
    mpfr_set_zero(r, 1);
    for (long i = 0; i < a->n; i++) {
        dvc_ival_mag(m, a->e[i]);
        max_nan(r, m);
    }
    mpfr_clear(m);
}

void dvc_ivec_norm1(mpfr_t r, const dvc_ivec_t a)
{
    mpfr_t m;
    mpfr_init2(m, mpfr_get_prec(r));
    mpfr_set_zero(r, 1);
    for (long i = 0; i < a->n; i++) {
        dvc_ival_mag(m, a->e[i]);
        mpfr_add(r, r, m, MPFR_RNDU);
    }
    mpfr_clear(m);
}

void dvc_ivec_norm2(mpfr_t r, const dvc_ivec_t a)
{
    mpfr_t m;
    mpfr_init2(m, mpfr_get_prec(r));
    mpfr_set_zero(r, 1);
    for (long i = 0; i < a->n; i++) {
        dvc_ival_mag(m, a->e[i]);
        mpfr_sqr(m, m, MPFR_RNDU);
        mpfr_add(r, r, m, MPFR_RNDU);
    }
    mpfr_sqrt(r, r, MPFR_RNDU);
    mpfr_clear(m);
}

void dvc_ivec_max_width(mpfr_t r, const dvc_ivec_t a)
{
    mpfr_t w;
    mpfr_init2(w, mpfr_get_prec(r));
    mpfr_set_zero(r, 1);
    for (long i = 0; i < a->n; i++) {
        mpfr_sub(w, &a->e[i]->right, &a->e[i]->left, MPFR_RNDU);
        max_nan(r, w);
    }
    mpfr_clear(w);
}

int dvc_ivec_is_finite(const dvc_ivec_t a)
{
    for (long i = 0; i < a->n; i++)
        if (!dvc_ival_is_finite(a->e[i])) return 0;
    return 1;
}

int dvc_ivec_contains_d(const dvc_ivec_t a, const double *x)
{
    /* Exact endpoint comparisons: mpfi_cmp_d first rounds x[i] outward to
     * the entry's precision, so below 53 bits it "contains" nearby doubles. */
    for (long i = 0; i < a->n; i++)
        if (mpfi_nan_p(a->e[i]) || isnan(x[i]) || mpfr_cmp_d(&a->e[i]->left, x[i]) > 0 ||
            mpfr_cmp_d(&a->e[i]->right, x[i]) < 0)
            return 0;
    return 1;
}

int dvc_ivec_contains_fr(const dvc_ivec_t a, const mpfr_t *x)
{
    for (long i = 0; i < a->n; i++)
        if (!mpfi_is_inside_fr(x[i], a->e[i])) return 0;
    return 1;
}

void dvc_ivec_fprint(FILE *f, const dvc_ivec_t a, int digits)
{
    for (long i = 0; i < a->n; i++) {
        char *s = dvc_ival_str(a->e[i], digits);
        fprintf(f, "  [%ld] %s\n", i, s ? s : "?");
        free(s);
    }
}
