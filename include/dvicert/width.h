/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* How informative a certified tube is: per component, the largest radius
 * and the radius at T, relative to the size of the solution (the largest
 * |x_j^i| of the predictor over the grid), and a verdict
 * (docs/formats.md, "Reading a certificate" in README.md). The numbers are
 * informative, not bounds on the solution; they are computed from the
 * stated (upper) radii rounded up, so a verdict is never better than the
 * tube. */
#ifndef DVICERT_WIDTH_H
#define DVICERT_WIDTH_H

#include "dvicert/ival.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    DVC_WIDTH_INFORMATIVE = 0,  /* every relative radius <= 0.1 */
    DVC_WIDTH_WIDE = 1,         /* some relative radius in (0.1, 1] */
    DVC_WIDTH_UNINFORMATIVE = 2 /* some relative radius > 1 */
} dvc_width_verdict;

/* Thresholds of the verdict, on the relative radius of the worst state. */
#define DVC_WIDTH_WIDE_AT 0.1
#define DVC_WIDTH_UNINFORMATIVE_AT 1.0

typedef struct {
    long n, m;
    long points;         /* grid points added */
    double *xmag, *ymag; /* n, m: max over the points of |x_j^i|, |y_k^i| (exact) */
    double rx_max, ry_max; /* largest stated eps_x, eps_y (rounded up) */
    double rx_T, ry_T;     /* those of the last point added */
    double *xs;            /* n state scales s_j (radius of state j: s_j eps_x), or NULL */
    /* rx_pow2[k]: the largest eps_x over the first 2^k points (k < 63):
     * how fast the bound grew late in the run, for the advice */
    double rx_pow2[63];
} dvc_width_struct;
typedef dvc_width_struct dvc_width_t[1];

void dvc_width_init(dvc_width_t w);
/* Releases the arrays. */
void dvc_width_clear(dvc_width_t w);
/* Start over for n states and m multipliers (no point added). */
dvc_status dvc_width_start(dvc_width_t w, long n, long m);
/* State scales of a scaled tube (tube.h): the radius of state j is s_j
 * times the stated eps_x. s: n positive numbers (copied), or NULL (all 1).
 * Call after dvc_width_start. */
dvc_status dvc_width_set_scale(dvc_width_t w, const double *s);
/* One grid point: predictor x (n), y (m) and the stated radii (their right
 * ends are used). Points are added in time order; the last is taken as T. */
void dvc_width_add(dvc_width_t w, const double *x, const double *y, const mpfi_t eps_x,
                   const mpfi_t eps_y);

/* Size used for state j: max_i |x_j^i|, or, when that is 0, the largest
 * size over all states (a state that stays 0 is measured against the
 * others); 0 only when the whole predictor is 0. */
double dvc_width_scale(const dvc_width_t w, long j);
/* Radius of state j, s_j eps_x, rounded up: at_T != 0 at T, else the
 * largest. */
double dvc_width_radius(const dvc_width_t w, long j, int at_T);
/* Relative radius of state j (s_j eps_x / size), rounded up: at_T != 0 the
 * radius at T, else the largest; +inf when the scale is 0 and the radius is not. */
double dvc_width_rel(const dvc_width_t w, long j, int at_T);
/* Verdict from the worst relative (largest) radius over the states; *worst
 * (may be NULL) receives that state's index. */
dvc_width_verdict dvc_width_judge(const dvc_width_t w, long *worst);
/* How much the largest eps_x grew over the last part of the run: the
 * ratio of the largest eps_x over all points to that over the first 2^k
 * points (2^k the largest power of two <= points / 2), and *steps (may be
 * NULL) = points - 2^k, the number of steps it took. NaN with fewer than 4
 * points or when the earlier radius is 0. Informative, not a bound. */
double dvc_width_late_growth(const dvc_width_t w, long *steps);
/* "informative", "wide", "uninformative". */
const char *dvc_width_verdict_name(dvc_width_verdict v);

#ifdef __cplusplus
}
#endif
#endif
