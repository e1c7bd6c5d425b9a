/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The closed-form check of a DLVI tube on a grid with a last step shorter
 * than h, shared by the Algorithm 4.2 (test_dlvi) and lognorm (test_lognorm)
 * tests. */
#ifndef DVC_TESTS_LAST_STEP_H
#define DVC_TESTS_LAST_STEP_H

#include <stdio.h>

#include "check.h"
#include "dvicert/dlvi.h"
#include "dvicert/tube.h"
#include "ref_remark43.h"

static inline int ls_inside(const mpfi_t a, const mpfr_t x)
{
    return mpfr_cmp(&a->left, x) <= 0 && mpfr_cmp(x, &a->right) <= 0;
}

/* Remark 4.3 (x(0) = 1, closed form x = y1 = 2 - e^t, y2 = 0 on [0, log 2))
 * on [0, 0.625] with h = 0.007, which does not divide T: 90 steps, 89 of
 * length h and the last [89 h, 0.625] of length about 0.002. The closed
 * form lies in the tube at random times, at times inside the last step,
 * at 89 h and at T; the tube's last grid time is T exactly. */
#define LS_T 0.625
#define LS_H 0.007
#define LS_N 90
static inline long last_step_check(const dvc_dlvi_result_t r, const char *label)
{
    check_rng rng = {625};
    dvc_ivec_t X, Y;
    dvc_tube_t tb;
    mpfi_t t;
    mpfr_t x, y1, y2, tt;
    long bad = 0;
    double t89 = 89 * LS_H; /* exact in binary64? checked against the tube below */
    dvc_ivec_init2(X, 1, 53);
    dvc_ivec_init2(Y, 2, 53);
    mpfi_init2(t, 53);
    mpfr_inits2(256, x, y1, y2, tt, (mpfr_ptr)0);
    CHECK(r->N == LS_N && r->steps_done == LS_N && r->grid.h == LS_H, "%s: N = %ld, steps %ld, hgrid %g", label,
          r->N, r->steps_done, r->grid.h);
    for (long s = 0; s < 1200; s++) {
        double td = s == 0 ? LS_T : s == 1 ? t89 : s < 600 ? check_rng_unif(&rng, 0, LS_T)
                                                           : check_rng_unif(&rng, t89, LS_T);
        if (td > LS_T) td = LS_T;
        mpfi_set_d(t, td);
        mpfr_set_d(tt, td, MPFR_RNDN);
        ref_remark43(x, y1, y2, tt);
        if (dvc_dlvi_tube_x(X, r, t) != DVC_OK || dvc_dlvi_tube_y(Y, r, t) != DVC_OK || !ls_inside(X->e[0], x) ||
            !ls_inside(Y->e[0], y1) || !ls_inside(Y->e[1], y2)) {
            if (bad < 3)
                fprintf(stderr, "%s: t = %.17g: x = %.17g in [%.17g, %.17g]? (%s)\n", label, td,
                        mpfr_get_d(x, MPFR_RNDN), mpfr_get_d(&X->e[0]->left, MPFR_RNDN),
                        mpfr_get_d(&X->e[0]->right, MPFR_RNDN), dvc_error_message());
            bad++;
        }
    }
    CHECK(bad == 0, "%s: %ld of 1200 samples outside the tube", label, bad);
    /* the grid: t_89 = 89 h (the double h), t_90 = T, both exact */
    dvc_tube_init(tb);
    REQUIRE(dvc_dlvi_tube(tb, r, NULL, NULL) == DVC_OK, "%s: tube", label);
    mpfi_set_prec(t, 128);
    dvc_tube_time(t, tb, LS_N);
    CHECK(mpfr_cmp_d(&t->left, LS_T) == 0 && mpfr_cmp_d(&t->right, LS_T) == 0, "%s: t_N = [%.17g, %.17g], not T",
          label, mpfr_get_d(&t->left, MPFR_RNDD), mpfr_get_d(&t->right, MPFR_RNDU));
    mpfr_set_d(tt, LS_H, MPFR_RNDN);
    mpfr_mul_ui(tt, tt, 89, MPFR_RNDN);
    dvc_tube_time(t, tb, LS_N - 1);
    CHECK(mpfr_equal_p(&t->left, tt) && mpfr_equal_p(&t->right, tt), "%s: t_89 is not 89 h", label);
    dvc_tube_clear(tb);
    dvc_ivec_clear(X);
    dvc_ivec_clear(Y);
    mpfi_clear(t);
    mpfr_clears(x, y1, y2, tt, (mpfr_ptr)0);
    return bad;
}

#endif
