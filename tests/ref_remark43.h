/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Reference for the example of Chen & Wang, Remark 4.3 (corrected reading,
 * docs/bounds.md section 7): x' = -x + 2 y1 - y2 - 2,
 * 0 <= y ⊥ M y + (-x, x) >= 0, M = [[1, 0], [mu, 1]], x(0) = 1. For
 * mu > -1 and t in [0, log 2): x(t) = y1(t) = 2 - e^t, y2(t) = 0. */
#ifndef DVC_TESTS_REF_REMARK43_H
#define DVC_TESTS_REF_REMARK43_H

#include <mpfr.h>

static inline void ref_remark43(mpfr_t x, mpfr_t y1, mpfr_t y2, const mpfr_t t)
{
    mpfr_exp(x, t, MPFR_RNDN);
    mpfr_ui_sub(x, 2, x, MPFR_RNDN);
    mpfr_set(y1, x, MPFR_RNDN);
    mpfr_set_ui(y2, 0, MPFR_RNDN);
}

#endif
