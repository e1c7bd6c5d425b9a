/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* LVI certification on small problems decoded from bytes (m = 1..5, entries
 * multiples of 1/8, infinite bounds, interval q). Oracle: the natural
 * residual r(y, q) = mid(y - l, y - u, M y + q) vanishes at the solution
 * and is nondecreasing in each argument, so over a certified enclosure Y
 *   [mid(lo ends), mid(hi ends)] of (Y - l, Y - u, M Y + [q]) contains 0
 * in every entry; otherwise Y holds no solution. */
#include <math.h>

#include "dvicert/dvicert.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void med3(mpfr_t r, mpfr_t a, mpfr_t b, mpfr_t c)
{
    mpfr_t lo;
    mpfr_init2(lo, mpfr_get_prec(r));
    mpfr_min(lo, a, b, MPFR_RNDN); /* exact: no rounding in min/max */
    mpfr_max(r, a, b, MPFR_RNDN);
    mpfr_min(r, r, c, MPFR_RNDN);
    mpfr_max(r, r, lo, MPFR_RNDN);
    mpfr_clear(lo);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long m = size ? 1 + data[0] % 5 : 1, k = 1;
    dvc_imat_t M;
    dvc_ivec_t q, l, u, c;
    dvc_lvi_solver_t s;
    dvc_lvi_result_t r;
    mpfr_t e[3], lo, hi;

    if (size < (size_t)(1 + m * m + 4 * m)) return 0;
    dvc_prec_set(53);
    dvc_imat_init(M, m, m);
    dvc_ivec_init(q, m);
    dvc_ivec_init(l, m);
    dvc_ivec_init(u, m);
    dvc_ivec_init(c, m);
    for (long i = 0; i < m; i++)
        for (long j = 0; j < m; j++, k++)
            mpfi_set_d(dvc_imat_entry(M, i, j),
                       i == j ? (data[k] + 1) / 8.0 : (int8_t)data[k] / 8.0);
    for (long i = 0; i < m; i++, k += 4) {
        double lv = data[k] == 0x80 ? -INFINITY : (int8_t)data[k] / 4.0;
        double uv = data[k + 1] == 0x80 ? INFINITY
                                        : (isfinite(lv) ? lv : 0) + (data[k + 1] + 1) / 8.0;
        double qv = (int8_t)data[k + 2] / 4.0, w = (data[k + 3] & 15) / 64.0;
        mpfi_set_d(l->e[i], lv);
        mpfi_set_d(u->e[i], uv);
        mpfi_interv_d(q->e[i], qv, qv + w);
    }
    if (dvc_lvi_solver_init(s, M, l, u) == DVC_OK) {
        dvc_lvi_result_init(r, m);
        if (dvc_lvi_solve(r, s, q, NULL) == DVC_OK) {
            for (int t = 0; t < 3; t++) mpfr_init2(e[t], 53);
            mpfr_inits2(53, lo, hi, (mpfr_ptr)0);
            dvc_imat_mul_vec(c, M, r->y);
            dvc_ivec_add(c, c, q);
            for (long i = 0; i < m; i++) {
                mpfi_ptr y = r->y->e[i];
                mpfr_sub(e[0], &y->left, &l->e[i]->right, MPFR_RNDD);
                mpfr_sub(e[1], &y->left, &u->e[i]->right, MPFR_RNDD);
                mpfr_set(e[2], &c->e[i]->left, MPFR_RNDD);
                med3(lo, e[0], e[1], e[2]);
                mpfr_sub(e[0], &y->right, &l->e[i]->left, MPFR_RNDU);
                mpfr_sub(e[1], &y->right, &u->e[i]->left, MPFR_RNDU);
                mpfr_set(e[2], &c->e[i]->right, MPFR_RNDU);
                med3(hi, e[0], e[1], e[2]);
                FUZZ_ASSERT(mpfr_sgn(lo) <= 0 && mpfr_sgn(hi) >= 0,
                            "entry %ld of the certified y holds no solution (route %s)", i + 1,
                            dvc_lvi_route_name(r->route));
            }
            for (int t = 0; t < 3; t++) mpfr_clear(e[t]);
            mpfr_clears(lo, hi, (mpfr_ptr)0);
        }
        dvc_lvi_result_clear(r);
    }
    dvc_lvi_solver_clear(s);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
    dvc_ivec_clear(c);
    return 0;
}
