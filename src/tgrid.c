/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Time grids (include/dvicert/tgrid.h): the grid arithmetic of the three
 * forms, written once (the engines' t_i and step lengths, the messages). */
#include <math.h>

#include "dvicert/tgrid.h"

void dvc_tgrid_set(dvc_tgrid *g, long N, double h, const double *t)
{
    g->N = N;
    g->h = h;
    g->t = t;
    g->kind = t ? DVC_TGRID_EXPLICIT : h > 0 ? DVC_TGRID_LAST_SHORT : DVC_TGRID_UNIFORM;
}

void dvc_tgrid_time(mpfi_t ti, const dvc_tgrid *g, const mpfi_t T, const mpfi_t h, long i)
{
    if (g->kind == DVC_TGRID_EXPLICIT) {
        mpfi_set_d(ti, g->t[i]);
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
}

void dvc_tgrid_step(mpfi_t hs, const dvc_tgrid *g, const mpfi_t T, long i)
{
    if (g->kind == DVC_TGRID_EXPLICIT) {
        mpfi_set_d(hs, g->t[i + 1]);
        mpfi_sub_d(hs, hs, g->t[i]);
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
}

double dvc_tgrid_last_step_d(const dvc_tgrid *g, const mpfi_t T)
{
    double hl;
    mpfr_t e;
    if (g->kind != DVC_TGRID_LAST_SHORT) {
        mpfi_t s;
        mpfi_init2(s, 128);
        dvc_tgrid_step(s, g, T, g->N - 1);
        hl = mpfr_get_d(&s->left, MPFR_RNDN);
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

void dvc_tgrid_step_range_d(double *hmin, double *hmax, const dvc_tgrid *g, const mpfi_t T)
{
    *hmin = INFINITY;
    *hmax = 0;
    if (g->kind != DVC_TGRID_EXPLICIT) {
        double Td = mpfr_get_d(&T->left, MPFR_RNDN);
        double h = g->kind == DVC_TGRID_LAST_SHORT ? g->h : Td / (double)g->N;
        double hl = g->kind == DVC_TGRID_LAST_SHORT ? dvc_tgrid_last_step_d(g, T) : h;
        *hmin = fmin(h, hl);
        *hmax = fmax(h, hl);
        return;
    }
    for (long i = 0; i < g->N; i++) {
        double d = g->t[i + 1] - g->t[i];
        *hmin = fmin(*hmin, d);
        *hmax = fmax(*hmax, d);
    }
}
