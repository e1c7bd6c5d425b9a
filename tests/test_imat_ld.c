/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The 64-bit route of dvc_imat_mul and dvc_imat_mul_vec (src/imat_fast.c,
 * x87 extended precision) against the MPFI loop, the checks tests/t-imat-fast.c
 * does not make: random interval matrices
 * (points, thick entries, zeros, straddling and half-zero entries, inputs
 * at 24, 53 and 64 bits and some beyond the route: more bits, infinite
 * ends, huge and tiny exponents where products overflow or underflow the
 * x87 range) multiplied at 64 bits with the route on and off must agree
 * bit for bit, signs of zeros included; every product must contain the
 * exact rational product of sampled point matrices; the route must leave
 * the rounding mode and the x87 flags as it found them; and it must carry
 * the ordinary cases (the hybrid engine's). */
#include <fenv.h>
#include <stdlib.h>

#include "check.h"
#include "rand_ival.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"
#include "fpflags.h"
#include "imat_fast.h"
#include "imat_ld.h"

static int same_fr(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

/* x <- a random entry: mostly ordinary, some beyond the route */
static void rentry(mpfi_t x, check_rng *r, int odd)
{
    static const mpfr_prec_t precs[] = {24, 53, 64, 64, 64, 80};
    mpfr_prec_t p = odd ? precs[check_rng_int(r, 0, 5)] : 64;
    mpfi_set_prec(x, p);
    rand_ival(x, r, odd && check_rng_int(r, 0, 9) == 0);
    if (odd && check_rng_int(r, 0, 19) == 0) { /* beyond the x87 exponent range */
        long sh = check_rng_int(r, 0, 1) ? 16300 : -16300;
        mpfi_mul_2si(x, x, sh);
    }
}

int main(void)
{
    check_rng g = {4242};
    long taken = 0, ordinary = 0;
    mpq_t s, t;
    mpq_inits(s, t, (mpq_ptr)0);
    for (int it = 0; it < 3000; it++) {
        long m = check_rng_int(&g, 1, 7), n = check_rng_int(&g, 1, 7), q = check_rng_int(&g, 1, 7);
        int odd = it % 2;
        dvc_imat_t A, B, C1, C2;
        dvc_imat_init2(A, m, n, 64);
        dvc_imat_init2(B, n, q, 64);
        dvc_imat_init2(C1, m, q, 64);
        dvc_imat_init2(C2, m, q, 64);
        for (long k = 0; k < m * n; k++) rentry(A->e[k], &g, odd);
        for (long k = 0; k < n * q; k++) rentry(B->e[k], &g, odd);
        int saved = fegetround();
        fesetround(it % 3 == 0 ? FE_DOWNWARD : FE_TONEAREST);
        int mode = fegetround();
        dvc_imat_ld_enable_(1);
        long r = dvc_imat_mul_fast_(C1->e, A->e, B->e, m, n, q) ? 0 : -1;
        CHECK(fegetround() == mode, "the route changed the rounding mode");
#if defined(__x86_64__)
        CHECK(dvc_x87_flags() == 0, "the route left x87 flags raised");
#endif
        if (r != 0) { /* not taken: as dvc_imat_mul makes it */
            dvc_imat_ld_enable_(0);
            dvc_imat_mul(C1, A, B);
        }
        dvc_imat_ld_enable_(0);
        dvc_imat_mul(C2, A, B);
        fesetround(saved);
        { /* and through dvc_imat_mul */
            dvc_imat_t C4;
            dvc_imat_init2(C4, m, q, 64);
            dvc_imat_ld_enable_(1);
            dvc_imat_mul(C4, A, B);
            for (long k = 0; k < m * q; k++)
                CHECK(same_fr(&C4->e[k]->left, &C2->e[k]->left) && same_fr(&C4->e[k]->right, &C2->e[k]->right),
                      "dvc_imat_mul %d entry %ld differs with the route on", it, k);
            dvc_imat_clear(C4);
        }
        taken += r >= 0;
        ordinary += !odd;
#if defined(__x86_64__)
        if (!odd) CHECK(r >= 0, "an ordinary %ldx%ld by %ldx%ld product refused", m, n, n, q);
#endif
        for (long k = 0; k < m * q; k++)
            CHECK(same_fr(&C1->e[k]->left, &C2->e[k]->left) && same_fr(&C1->e[k]->right, &C2->e[k]->right),
                  "product %d entry %ld: the route differs from the MPFI loop", it, k);
        /* containment of the exact product of a sampled point matrix */
        if (it % 4 < 2) {
            mpq_t *a = malloc((size_t)(m * n) * sizeof(mpq_t)), *b = malloc((size_t)(n * q) * sizeof(mpq_t));
            for (long k = 0; k < m * n; k++) {
                mpq_init(a[k]);
                rand_sample_q(a[k], A->e[k], rand_which(&g), &g);
            }
            for (long k = 0; k < n * q; k++) {
                mpq_init(b[k]);
                rand_sample_q(b[k], B->e[k], rand_which(&g), &g);
            }
            int inf = 0;
            for (long k = 0; k < m * n; k++) inf |= !mpfi_bounded_p(A->e[k]);
            for (long k = 0; k < n * q; k++) inf |= !mpfi_bounded_p(B->e[k]);
            for (long i = 0; i < m && !inf; i++)
                for (long j = 0; j < q; j++) {
                    mpq_set_ui(s, 0, 1);
                    for (long k = 0; k < n; k++) {
                        mpq_mul(t, a[i * n + k], b[k * q + j]);
                        mpq_add(s, s, t);
                    }
                    CHECK(ref_contains_q(C1->e[i * q + j], s), "product %d entry (%ld, %ld) misses the exact value",
                          it, i, j);
                }
            for (long k = 0; k < m * n; k++) mpq_clear(a[k]);
            for (long k = 0; k < n * q; k++) mpq_clear(b[k]);
            free(a);
            free(b);
        }
        /* the vector product through the public function, on and off */
        if (q == 1 && !odd) {
            dvc_ivec_t x, y1, y2;
            dvc_ivec_init2(x, n, 64);
            dvc_ivec_init2(y1, m, 64);
            dvc_ivec_init2(y2, m, 64);
            for (long k = 0; k < n; k++) mpfi_set(x->e[k], B->e[k]);
            dvc_imat_ld_enable_(1);
            dvc_imat_mul_vec(y1, A, x);
            dvc_imat_ld_enable_(0);
            dvc_imat_mul_vec(y2, A, x);
            for (long k = 0; k < m; k++)
                CHECK(same_fr(&y1->e[k]->left, &y2->e[k]->left) && same_fr(&y1->e[k]->right, &y2->e[k]->right),
                      "mul_vec %d entry %ld differs", it, k);
            dvc_ivec_clear(x);
            dvc_ivec_clear(y1);
            dvc_ivec_clear(y2);
        }
        dvc_imat_clear(A);
        dvc_imat_clear(B);
        dvc_imat_clear(C1);
        dvc_imat_clear(C2);
    }
    dvc_imat_ld_enable_(1);
    printf("3000 products: %ld on the 64-bit route (%ld ordinary ones)\n", taken, ordinary);
#if defined(__x86_64__)
    { /* a caller's underflow flag (any binary64 underflow raises it) stays
       * raised through a product, and neither it nor the product leaves the
       * x87 routes (dvc_li_begin_) refused: they once were, on almost
       * every call of the hybrid engine */
        volatile double tiny = 0x1p-1000;
        dvc_imat_t A, C;
        dvc_imat_init2(A, 2, 2, 64);
        dvc_imat_init2(C, 2, 2, 64);
        for (long k = 0; k < 4; k++) mpfi_interv_d(A->e[k], 1.0 + (double)k, 2.0 + (double)k);
        feclearexcept(FE_ALL_EXCEPT);
        tiny = tiny * tiny;
        CHECK(fetestexcept(FE_UNDERFLOW), "no underflow raised (%g)", (double)tiny);
        CHECK(dvc_imat_mul_fast_(C->e, A->e, A->e, 2, 2, 2), "2x2 product refused");
        CHECK(fetestexcept(FE_UNDERFLOW), "the product lost the caller's underflow flag");
        int saved = dvc_li_begin_();
        CHECK(saved >= 0, "the x87 route refused after a caller's underflow");
        if (saved >= 0) CHECK(dvc_li_end_(saved) == 0, "the x87 route raised flags on nothing");
        CHECK(fetestexcept(FE_UNDERFLOW), "dvc_li_begin_ lost the caller's underflow flag");
        feclearexcept(FE_ALL_EXCEPT);
        dvc_imat_clear(A);
        dvc_imat_clear(C);
    }
#endif
    CHECK(taken < 3000 - 3000 / 20, "too few refusals: the odd cases do not reach the fallback");
    mpq_clears(s, t, (mpq_ptr)0);
    return check_report();
}
