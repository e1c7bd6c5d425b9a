/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* How informative a tube is (include/dvicert/width.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/width.h"

void dvc_width_init(dvc_width_t w)
{
    memset(w, 0, sizeof *w);
}

void dvc_width_clear(dvc_width_t w)
{
    free(w->xmag);
    free(w->ymag);
    free(w->xs);
    memset(w, 0, sizeof *w);
}

dvc_status dvc_width_start(dvc_width_t w, long n, long m)
{
    dvc_width_clear(w);
    w->xmag = calloc((size_t)(n > 0 ? n : 1), sizeof *w->xmag);
    w->ymag = calloc((size_t)(m > 0 ? m : 1), sizeof *w->ymag);
    if (!w->xmag || !w->ymag) {
        dvc_width_clear(w);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    w->n = n;
    w->m = m;
    return DVC_OK;
}

dvc_status dvc_width_set_scale(dvc_width_t w, const double *s)
{
    double *c = NULL;
    if (s) {
        c = malloc((size_t)(w->n > 0 ? w->n : 1) * sizeof *c);
        if (!c) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        memcpy(c, s, (size_t)w->n * sizeof *c);
    }
    free(w->xs);
    w->xs = c;
    return DVC_OK;
}

/* The right end of e as a double rounded up (a NaN end counts as +inf). */
static double up(const mpfi_t e)
{
    double d = mpfr_get_d(&e->right, MPFR_RNDU);
    return isnan(d) ? INFINITY : d;
}

void dvc_width_add(dvc_width_t w, const double *x, const double *y, const mpfi_t eps_x,
                   const mpfi_t eps_y)
{
    for (long j = 0; j < w->n; j++)
        if (fabs(x[j]) > w->xmag[j] || isnan(x[j])) w->xmag[j] = isnan(x[j]) ? INFINITY : fabs(x[j]);
    for (long k = 0; k < w->m; k++)
        if (fabs(y[k]) > w->ymag[k] || isnan(y[k])) w->ymag[k] = isnan(y[k]) ? INFINITY : fabs(y[k]);
    w->rx_T = up(eps_x);
    w->ry_T = up(eps_y);
    if (w->points == 0 || w->rx_T > w->rx_max) w->rx_max = w->rx_T;
    if (w->points == 0 || w->ry_T > w->ry_max) w->ry_max = w->ry_T;
    w->points++;
    /* points is a power of two: remember the running maximum */
    if ((w->points & (w->points - 1)) == 0) {
        int k = 0;
        while ((1L << k) < w->points) k++;
        if (k < 63) w->rx_pow2[k] = w->rx_max;
    }
}

double dvc_width_late_growth(const dvc_width_t w, long *steps)
{
    int k = 0;
    if (w->points < 4) return NAN;
    while (k + 1 < 63 && (2L << k) <= w->points / 2) k++;
    if (steps) *steps = w->points - (1L << k);
    return w->rx_pow2[k] > 0 ? w->rx_max / w->rx_pow2[k] : NAN;
}

double dvc_width_scale(const dvc_width_t w, long j)
{
    double s = w->xmag[j];
    if (s > 0) return s;
    for (long k = 0; k < w->n; k++)
        if (w->xmag[k] > s) s = w->xmag[k];
    return s;
}

double dvc_width_radius(const dvc_width_t w, long j, int at_T)
{
    double r = at_T ? w->rx_T : w->rx_max;
    /* exact unless it overflows (then +inf, still an upper bound) */
    return w->xs ? r * w->xs[j] : r;
}

double dvc_width_rel(const dvc_width_t w, long j, int at_T)
{
    double r = at_T ? w->rx_T : w->rx_max, s = dvc_width_scale(w, j);
    mpfr_t a;
    if (r == 0) return 0;
    if (s == 0) return INFINITY;
    mpfr_init2(a, 53);
    mpfr_set_d(a, r, MPFR_RNDU);
    /* per-state radius s_j eps_x (exact: s_j is a power of two) */
    if (w->xs) mpfr_mul_d(a, a, w->xs[j], MPFR_RNDU);
    mpfr_div_d(a, a, s, MPFR_RNDU);
    r = mpfr_get_d(a, MPFR_RNDU);
    mpfr_clear(a);
    return r;
}

dvc_width_verdict dvc_width_judge(const dvc_width_t w, long *worst)
{
    long jw = 0;
    double rw = -1;
    for (long j = 0; j < w->n; j++) {
        double r = dvc_width_rel(w, j, 0);
        if (r > rw) rw = r, jw = j;
    }
    if (worst) *worst = jw;
    if (rw > DVC_WIDTH_UNINFORMATIVE_AT) return DVC_WIDTH_UNINFORMATIVE;
    if (rw > DVC_WIDTH_WIDE_AT) return DVC_WIDTH_WIDE;
    return DVC_WIDTH_INFORMATIVE;
}

const char *dvc_width_verdict_name(dvc_width_verdict v)
{
    return v == DVC_WIDTH_INFORMATIVE ? "informative" : v == DVC_WIDTH_WIDE ? "wide" : "uninformative";
}
