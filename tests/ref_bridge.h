/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Closed-form reference solution of the bridge example (Chen & Wang,
 * Example 5.1, m = 1, alpha = 4, beta = 1, g = sin 4t):
 *   x1' = x2,  x2' = -4 x1 - y + sin 4t,  y = max(0, -3 x1),
 *   x(0) = (x10, gamma).
 * Piecewise: x1 >= 0: x1'' + 4 x1 = sin 4t;  x1 < 0: x1'' + x1 = sin 4t.
 * Crossing times by sign-change search and bisection at REF_PREC bits.
 * Independent of the library (MPFR only). */
#ifndef DVC_TESTS_REF_BRIDGE_H
#define DVC_TESTS_REF_BRIDGE_H

#include <mpfr.h>

#define REF_PREC 256
#define REF_MAXSEG 64

typedef struct {
    int nseg;
    int pos[REF_MAXSEG];          /* 1: region x1 >= 0, 0: x1 < 0 */
    mpfr_t s[REF_MAXSEG];         /* segment start times */
    mpfr_t c1[REF_MAXSEG], c2[REF_MAXSEG]; /* x1 = c1 cos w(t-s) + c2 sin w(t-s) + xp(t) */
    mpfr_t T;
} ref_bridge;

/* x(0) = (x10, gamma) as decimal strings (the paper: x10 = "0",
 * gamma = "0.2"); solution on [0, T]. Returns 0 on
 * success, -1 when a crossing is (nearly) tangential or too many segments. */
int ref_bridge_init(ref_bridge *r, const char *x10, const char *gamma, double T);
void ref_bridge_clear(ref_bridge *r);
/* x1, x2, y at t (REF_PREC bits; outputs must be initialised). */
void ref_bridge_eval(const ref_bridge *r, mpfr_t x1, mpfr_t x2, mpfr_t y, const mpfr_t t);

#endif
