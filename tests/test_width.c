/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* width.h: sizes, relative radii and verdicts against exact rational
 * arithmetic (GMP mpq) on seeded random tubes, the thresholds at their
 * edges, and the special cases (a state that stays 0, NaN). */
#include <gmp.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "dvicert/width.h"

/* Exact: is r (a double) >= a / b (doubles, b > 0)? */
static int ge_ratio(double r, double a, double b)
{
    mpq_t q, x;
    int ok;
    mpq_inits(q, x, NULL);
    mpq_set_d(q, a);
    mpq_set_d(x, b);
    mpq_div(q, q, x);
    mpq_set_d(x, r);
    ok = mpq_cmp(x, q) >= 0;
    mpq_clears(q, x, NULL);
    return ok;
}

static void add(dvc_width_t w, const double *x, const double *y, double ex, double ey)
{
    mpfi_t a, b;
    mpfi_init2(a, 53);
    mpfi_init2(b, 53);
    mpfi_set_d(a, ex);
    mpfi_set_d(b, ey);
    dvc_width_add(w, x, y, a, b);
    mpfi_clear(a);
    mpfi_clear(b);
}

static void test_random(void)
{
    check_rng rng = {20261126};
    for (int rep = 0; rep < 2000; rep++) {
        long n = 1 + (long)(check_rng_next(&rng) % 5), m = (long)(check_rng_next(&rng) % 3);
        long N = 1 + (long)(check_rng_next(&rng) % 40), worst;
        double x[5], y[3], mag[5] = {0}, emax = 0, eT = 0, worst_rel = -1;
        dvc_width_t w;
        dvc_width_init(w);
        REQUIRE(dvc_width_start(w, n, m) == DVC_OK, "start");
        for (long i = 0; i <= N; i++) {
            double scale = exp(check_rng_unif(&rng, -20, 20));
            for (long j = 0; j < n; j++) {
                x[j] = check_rng_unif(&rng, -1, 1) * scale;
                if (fabs(x[j]) > mag[j]) mag[j] = fabs(x[j]);
            }
            for (long k = 0; k < m; k++) y[k] = check_rng_unif(&rng, -1, 1);
            eT = exp(check_rng_unif(&rng, -30, 25));
            if (eT > emax) emax = eT;
            add(w, x, y, eT, 0.5 * eT);
        }
        CHECK(w->points == N + 1 && w->rx_max == emax && w->rx_T == eT, "radii (rep %d)", rep);
        for (long j = 0; j < n; j++) {
            double rm = dvc_width_rel(w, j, 0), rt = dvc_width_rel(w, j, 1);
            CHECK(w->xmag[j] == mag[j] && dvc_width_scale(w, j) == mag[j], "size of x%ld", j + 1);
            /* rounded up, by at most one ulp */
            CHECK(ge_ratio(rm, emax, mag[j]) && !ge_ratio(nextafter(rm, 0), emax, mag[j]),
                  "relative max of x%ld: %.17g vs %.17g / %.17g", j + 1, rm, emax, mag[j]);
            CHECK(ge_ratio(rt, eT, mag[j]) && !ge_ratio(nextafter(rt, 0), eT, mag[j]),
                  "relative at T of x%ld", j + 1);
            if (emax / mag[j] > worst_rel) worst_rel = emax / mag[j];
        }
        {
            dvc_width_verdict v = dvc_width_judge(w, &worst), want;
            /* away from the thresholds the double quotient decides */
            if (fabs(worst_rel - 0.1) < 1e-12 || fabs(worst_rel - 1) < 1e-12) {
                dvc_width_clear(w);
                continue;
            }
            want = worst_rel > 1 ? DVC_WIDTH_UNINFORMATIVE : worst_rel > 0.1 ? DVC_WIDTH_WIDE
                                                                              : DVC_WIDTH_INFORMATIVE;
            CHECK(v == want, "verdict %s, expected %s (worst %.3g)", dvc_width_verdict_name(v),
                  dvc_width_verdict_name(want), worst_rel);
            CHECK(fabs(emax / mag[worst] - worst_rel) <= 1e-15 * worst_rel, "worst state");
        }
        dvc_width_clear(w);
    }
}

static void test_edges(void)
{
    dvc_width_t w;
    double x[2] = {0, 4}, y[1] = {0};
    dvc_width_init(w);
    /* x1 stays 0: measured against x2's size */
    REQUIRE(dvc_width_start(w, 2, 1) == DVC_OK, "start");
    add(w, x, y, 0.4, 0);
    CHECK(dvc_width_scale(w, 0) == 4 && dvc_width_rel(w, 0, 0) == 0.1, "a zero state uses the others' size");
    CHECK(dvc_width_judge(w, NULL) == DVC_WIDTH_INFORMATIVE, "0.1 exactly is informative");
    add(w, x, y, nextafter(0.4, 1), 0);
    CHECK(dvc_width_judge(w, NULL) == DVC_WIDTH_WIDE, "just above 0.1 is wide");
    add(w, x, y, 4, 0);
    CHECK(dvc_width_judge(w, NULL) == DVC_WIDTH_WIDE, "1 exactly is wide");
    add(w, x, y, nextafter(4, 5), 0);
    CHECK(dvc_width_judge(w, NULL) == DVC_WIDTH_UNINFORMATIVE, "above 1 is uninformative");
    CHECK(w->rx_T == nextafter(4, 5) && w->rx_max == w->rx_T, "last and max radius");
    /* a zero predictor: any radius is uninformative, radius 0 informative */
    REQUIRE(dvc_width_start(w, 1, 0) == DVC_OK, "start");
    x[0] = 0;
    add(w, x, y, 0, 0);
    CHECK(dvc_width_judge(w, NULL) == DVC_WIDTH_INFORMATIVE, "0 radius of 0");
    add(w, x, y, 1e-300, 0);
    CHECK(isinf(dvc_width_rel(w, 0, 0)) && dvc_width_judge(w, NULL) == DVC_WIDTH_UNINFORMATIVE,
          "a radius around a zero solution");
    /* NaN in the predictor counts as an infinite size, never as 0 */
    REQUIRE(dvc_width_start(w, 1, 0) == DVC_OK, "start");
    x[0] = NAN;
    add(w, x, y, 1, 0);
    CHECK(isinf(w->xmag[0]), "NaN predictor");
    CHECK(strcmp(dvc_width_verdict_name(DVC_WIDTH_WIDE), "wide") == 0, "names");
    dvc_width_clear(w);
    dvc_width_clear(w); /* twice is harmless */
}

int main(void)
{
    test_random();
    test_edges();
    mpfr_free_cache();
    return check_report();
}
