/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Time grids (include/dvicert/tgrid.h): the grid arithmetic of the three
 * forms, written once (the engines' t_i and step lengths, the messages);
 * explicit times held or on demand (dvc_tgrid_src). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/tgrid.h"

void dvc_tgrid_set(dvc_tgrid *g, long N, double h, const double *t)
{
    g->N = N;
    g->h = h;
    g->t = t;
    g->own = 0;
    g->src = NULL;
    g->kind = t ? DVC_TGRID_EXPLICIT : h > 0 ? DVC_TGRID_LAST_SHORT : DVC_TGRID_UNIFORM;
}

void dvc_tgrid_set_src(dvc_tgrid *g, long N, const dvc_tgrid_src *src)
{
    dvc_tgrid_set(g, N, 0, NULL);
    g->src = src;
    g->kind = DVC_TGRID_EXPLICIT;
}

dvc_status dvc_tgrid_at(const dvc_tgrid *g, long i, double *t)
{
    if (g->t) {
        *t = g->t[i];
        return DVC_OK;
    }
    if (g->src) return g->src->at(g->src->ctx, i, t);
    return dvc_error(DVC_ERR_INTERNAL, "time grid: no explicit times");
}

void dvc_tgrid_init(dvc_tgrid *g)
{
    dvc_tgrid_set(g, 0, 0, NULL);
}

void dvc_tgrid_clear(dvc_tgrid *g)
{
    if (g->own) free((void *)g->t);
    dvc_tgrid_init(g);
}

dvc_status dvc_tgrid_copy(dvc_tgrid *dst, const dvc_tgrid *src)
{
    double *t = NULL;
    if (src->kind == DVC_TGRID_EXPLICIT) {
        size_t len = (size_t)(src->N + 1) * sizeof *t;
        if (!(t = malloc(len))) {
            dvc_tgrid_clear(dst);
            return dvc_error(DVC_ERR_NOMEM, "out of memory for %ld grid times", src->N + 1);
        }
        if (src->t) memcpy(t, src->t, len);
        for (long i = 0; !src->t && i <= src->N; i++) {
            dvc_status st = dvc_tgrid_at(src, i, &t[i]);
            if (st != DVC_OK) {
                free(t);
                dvc_tgrid_clear(dst);
                return st;
            }
        }
    }
    dvc_tgrid_clear(dst);
    dvc_tgrid_set(dst, src->N, src->h, t);
    dst->own = t != NULL;
    return DVC_OK;
}

dvc_status dvc_tgrid_time(mpfi_t ti, const dvc_tgrid *g, const mpfi_t T, const mpfi_t h, long i)
{
    if (g->kind == DVC_TGRID_EXPLICIT) {
        double t;
        dvc_status st = dvc_tgrid_at(g, i, &t);
        if (st != DVC_OK) return st;
        mpfi_set_d(ti, t);
    } else if (g->kind == DVC_TGRID_LAST_SHORT) {
        /* i h is exact at 53 + 64 bits; t_N = T */
        if (i >= g->N) {
            mpfi_set(ti, T);
        } else {
            mpfi_set_d(ti, g->h);
            mpfi_mul_si(ti, ti, i);
        }
    } else if (h) {
        mpfi_mul_si(ti, h, i);
    } else {
        mpfi_mul_si(ti, T, i);
        mpfi_div_si(ti, ti, g->N);
    }
    return DVC_OK;
}

dvc_status dvc_tgrid_step(mpfi_t hs, const dvc_tgrid *g, const mpfi_t T, long i)
{
    if (g->kind == DVC_TGRID_EXPLICIT) {
        double a, b;
        dvc_status st = dvc_tgrid_at(g, i, &a);
        if (st != DVC_OK || (st = dvc_tgrid_at(g, i + 1, &b)) != DVC_OK) return st;
        mpfi_set_d(hs, b);
        mpfi_sub_d(hs, hs, a);
    } else if (g->kind == DVC_TGRID_LAST_SHORT && i + 1 < g->N) {
        mpfi_set_d(hs, g->h);
    } else if (g->kind == DVC_TGRID_LAST_SHORT) {
        /* the last step T - (N-1) h, in (0, h] */
        mpfi_set_d(hs, g->h);
        mpfi_mul_si(hs, hs, g->N - 1);
        mpfi_sub(hs, T, hs);
    } else {
        mpfi_div_si(hs, T, g->N);
    }
    return DVC_OK;
}

double dvc_tgrid_last_step_d(const dvc_tgrid *g, const mpfi_t T)
{
    double hl;
    mpfr_t e;
    if (g->kind != DVC_TGRID_LAST_SHORT) {
        mpfi_t s;
        mpfi_init2(s, 128);
        hl = dvc_tgrid_step(s, g, T, g->N - 1) == DVC_OK ? mpfr_get_d(&s->left, MPFR_RNDN) : NAN;
        mpfi_clear(s);
        return hl;
    }
    /* T - (N-1) h from T's lower end, rounded to nearest at 128 bits */
    mpfr_init2(e, 128);
    mpfr_set_d(e, g->h, MPFR_RNDN);
    mpfr_mul_si(e, e, g->N - 1, MPFR_RNDN);
    mpfr_sub(e, &T->left, e, MPFR_RNDN);
    hl = mpfr_get_d(e, MPFR_RNDN);
    mpfr_clear(e);
    return hl;
}

double dvc_tgrid_last_step_d64(const dvc_tgrid *g, mpfi_srcptr T)
{
    double Td = mpfr_get_d(&T->left, MPFR_RNDN);
    if (g->kind == DVC_TGRID_EXPLICIT) {
        double a, b;
        if (dvc_tgrid_at(g, g->N - 1, &a) != DVC_OK || dvc_tgrid_at(g, g->N, &b) != DVC_OK) return NAN;
        return b - a;
    }
    if (g->kind == DVC_TGRID_LAST_SHORT) return Td - (double)(g->N - 1) * g->h;
    return Td / (double)g->N;
}

double dvc_tgrid_time_d(const dvc_tgrid *g, mpfi_srcptr T, long i)
{
    double d;
    mpfr_t t;
    if (g->kind == DVC_TGRID_EXPLICIT) return dvc_tgrid_at(g, i, &d) == DVC_OK ? d : NAN;
    mpfr_init2(t, 128);
    if (g->kind == DVC_TGRID_LAST_SHORT && i >= g->N) {
        mpfr_set(t, &T->left, MPFR_RNDN);
    } else if (g->kind == DVC_TGRID_LAST_SHORT) {
        mpfr_set_d(t, g->h, MPFR_RNDN); /* i h is exact at 128 bits */
        mpfr_mul_si(t, t, i, MPFR_RNDN);
    } else {
        mpfr_mul_si(t, &T->left, i, MPFR_RNDN);
        mpfr_div_si(t, t, g->N, MPFR_RNDN);
    }
    d = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clear(t);
    return d;
}

dvc_status dvc_tgrid_step_range_d(double *hmin, double *hmax, const dvc_tgrid *g, const mpfi_t T)
{
    double a, b;
    dvc_status st;
    *hmin = INFINITY;
    *hmax = 0;
    if (g->kind != DVC_TGRID_EXPLICIT) {
        double Td = mpfr_get_d(&T->left, MPFR_RNDN);
        double h = g->kind == DVC_TGRID_LAST_SHORT ? g->h : Td / (double)g->N;
        double hl = g->kind == DVC_TGRID_LAST_SHORT ? dvc_tgrid_last_step_d(g, T) : h;
        *hmin = fmin(h, hl);
        *hmax = fmax(h, hl);
        return DVC_OK;
    }
    /* one pass in increasing i (times on demand: a pass over the file) */
    if ((st = dvc_tgrid_at(g, 0, &a)) != DVC_OK) return st;
    for (long i = 0; i < g->N; i++, a = b) {
        if ((st = dvc_tgrid_at(g, i + 1, &b)) != DVC_OK) return st;
        *hmin = fmin(*hmin, b - a);
        *hmax = fmax(*hmax, b - a);
    }
    return DVC_OK;
}
