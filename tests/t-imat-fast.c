/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The hardware interval products of src/imat_fast.c against the MPFI loop
 * written out here (the reference, independent of the library): on random
 * interval matrices at 53 and 64 bits (points, thick entries, zeros, mixed
 * signs, inputs of 24 to 113 bits, now and then exponents that overflow or
 * underflow the hardware format), dvc_imat_mul and dvc_imat_mul_vec must
 * give every endpoint bit for bit, signed zeros included; the kernel must
 * refuse (and leave to MPFI) what it cannot do exactly, take the common
 * cases, and hand back the caller's rounding mode and sticky flags. */
#include <fenv.h>
#include <stdlib.h>

#include "check.h"
#include "dvicert/dvicert.h"
#include "imat_fast.h"
#include "rand_ival.h"


#define NCASES 3000
#define DMAX 9

/* The loop of dvc_imat_mul at R's precision. */
static void ref_mul(dvc_imat_t R, const dvc_imat_t A, const dvc_imat_t B)
{
    mpfi_t t, s;
    mpfr_prec_t p = mpfi_get_prec(R->e[0]);
    mpfi_init2(t, p);
    mpfi_init2(s, p);
    for (long i = 0; i < A->r; i++)
        for (long j = 0; j < B->c; j++) {
            mpfi_set_ui(s, 0);
            for (long k = 0; k < A->c; k++) {
                mpfi_mul(t, A->e[i * A->c + k], B->e[k * B->c + j]);
                mpfi_add(s, s, t);
            }
            mpfi_set(R->e[i * R->c + j], s);
        }
    mpfi_clear(t);
    mpfi_clear(s);
}

/* Same number, same sign (zeros included), or both NaN. */
static int same_fr(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && !mpfr_signbit(a) == !mpfr_signbit(b);
}

static long mismatch(mpfi_t *x, mpfi_t *y, long len)
{
    for (long t = 0; t < len; t++)
        if (!same_fr(&x[t]->left, &y[t]->left) || !same_fr(&x[t]->right, &y[t]->right)) return t;
    return -1;
}

/* A random matrix: entries at precision drawn from {24, 53, 64, 113} (or
 * pin when > 0), now and then an extreme exponent. */
static void rand_mat(dvc_imat_t A, long r, long c, mpfr_prec_t pin, int extreme, check_rng *g)
{
    static const mpfr_prec_t precs[] = {24, 53, 64, 113};
    mpfr_prec_t p = pin > 0 ? pin : precs[check_rng_int(g, 0, 3)];
    dvc_imat_init2(A, r, c, p);
    for (long t = 0; t < r * c; t++) {
        rand_ival(A->e[t], g, 0);
        if (extreme && check_rng_int(g, 0, 7) == 0) {
            long e = check_rng_int(g, 0, 1) ? 1020 : 16380;
            mpfi_mul_2si(A->e[t], A->e[t], check_rng_int(g, 0, 1) ? e : -e);
        }
    }
}

/* The x87 kernels on loaded arrays (dvc_fast_mul_ld_ with a starting
 * accumulator, dvc_fast_csr_ld_ on A's nonzero entries) against the MPFI
 * loop that sets s = C_ij and adds A_iq B_qj, at 64 bits. */
static void check_ld_kernels(check_rng *g)
{
    long ntaken = 0;
    for (int it = 0; it < 600 && dvc_fast_ld_ok_(); it++) {
        long m = check_rng_int(g, 1, DMAX), n = check_rng_int(g, 1, DMAX), k = check_rng_int(g, 1, 3);
        int withc = check_rng_int(g, 0, 2) != 0;
        dvc_imat_t A, B, C, E, F;
        rand_mat(A, m, n, 64, 0, g);
        rand_mat(B, n, k, 64, 0, g);
        rand_mat(C, m, k, 64, 0, g);
        dvc_imat_init2(E, m, k, 64);
        dvc_imat_init2(F, m, k, 64);
        mpfi_t t, s;
        mpfi_init2(t, 64);
        mpfi_init2(s, 64);
        for (long i = 0; i < m; i++)
            for (long j = 0; j < k; j++) {
                if (withc) mpfi_set(s, C->e[i * k + j]);
                else mpfi_set_ui(s, 0);
                for (long q = 0; q < n; q++) {
                    mpfi_mul(t, A->e[i * n + q], B->e[q * k + j]);
                    mpfi_add(s, s, t);
                }
                mpfi_set(E->e[i * k + j], s);
            }
        mpfi_clear(t);
        mpfi_clear(s);
        long double *buf = malloc((size_t)(4 * m * n + 2 * n * k + 4 * m * k) * sizeof *buf);
        long double *al = buf, *ah = al + m * n, *bl = ah + m * n, *bh = bl + n * k;
        long double *cl = bh + n * k, *cn = cl + m * k, *rl = cn + m * k, *rn = rl + m * k;
        long double *zl = rn + m * k, *zh = zl + m * n;
        long *nzr = malloc((size_t)(m + 1) * sizeof *nzr), *nzj = malloc((size_t)(m * n) * sizeof *nzj);
        int ok = dvc_fast_load_ld_(al, ah, A->e, m * n) && dvc_fast_load_ld_(bl, bh, B->e, n * k) &&
                 dvc_fast_load_ld_(cl, cn, C->e, m * k);
        for (long t2 = 0; t2 < m * k; t2++) cn[t2] = -cn[t2];
        if (ok && dvc_fast_mul_ld_(rl, rn, al, ah, bl, bh, m, n, k, withc ? cl : NULL,
                                   withc ? cn : NULL)) {
            ntaken++;
            dvc_fast_store_ld_(F->e, rl, rn, m * k);
            CHECK(mismatch(F->e, E->e, m * k) < 0, "ld kernel case %d differs from MPFI", it);
        }
        long nz = 0; /* A's entries other than [0, 0] */
        for (long i = 0; i < m; i++) {
            nzr[i] = nz;
            for (long q = 0; q < n; q++)
                if (!mpfi_is_zero(A->e[i * n + q])) {
                    zl[nz] = al[i * n + q];
                    zh[nz] = ah[i * n + q];
                    nzj[nz++] = q;
                }
        }
        nzr[m] = nz;
        if (ok && dvc_fast_csr_ld_(rl, rn, nzr, nzj, zl, zh, bl, bh, m, k, withc ? cl : NULL,
                                   withc ? cn : NULL)) {
            dvc_fast_store_ld_(F->e, rl, rn, m * k);
            CHECK(mismatch(F->e, E->e, m * k) < 0, "csr kernel case %d differs from MPFI", it);
        }
        free(buf);
        free(nzr);
        free(nzj);
        dvc_imat_clear(A);
        dvc_imat_clear(B);
        dvc_imat_clear(C);
        dvc_imat_clear(E);
        dvc_imat_clear(F);
    }
    CHECK(!dvc_fast_ld_ok_() || ntaken > 300, "the x87 kernels ran on only %ld cases", ntaken);
    /* the division by a positive integer against mpfi_div_ui */
    for (int it = 0; it < 2000 && dvc_fast_ld_ok_(); it++) {
        mpfi_t x, y, f;
        mpfi_init2(x, 64);
        mpfi_init2(y, 64);
        mpfi_init2(f, 64);
        rand_ival(x, g, 0);
        unsigned long c = (unsigned long)check_rng_int(g, 1, 40);
        mpfi_div_ui(y, x, c);
        long double lo, hi;
        if (dvc_fast_load_ld_(&lo, &hi, &x, 1)) {
            hi = -hi;
            if (dvc_fast_div_ld_(&lo, &hi, 1, c)) {
                dvc_fast_store_ld_(&f, &lo, &hi, 1);
                CHECK(mismatch(&f, &y, 1) < 0, "division case %d (by %lu) differs from MPFI", it, c);
            }
        }
        mpfi_clear(x);
        mpfi_clear(y);
        mpfi_clear(f);
    }
}

int main(void)
{
    check_rng g = {0x1f3a5c7e9b2d4f61ULL};
    long nfast = 0, nvec_fast = 0;
    for (int it = 0; it < NCASES; it++) {
        mpfr_prec_t po = check_rng_int(&g, 0, 1) ? 64 : 53;
        long m = check_rng_int(&g, 1, DMAX), n = check_rng_int(&g, 1, DMAX),
             k = check_rng_int(&g, 1, DMAX);
        int extreme = check_rng_int(&g, 0, 4) == 0;
        /* mostly inputs at the output's precision, the engines' case */
        mpfr_prec_t pin = check_rng_int(&g, 0, 2) ? po : 0;
        dvc_imat_t A, B, R, F, E;
        rand_mat(A, m, n, pin, extreme, &g);
        rand_mat(B, n, k, pin, extreme, &g);
        dvc_imat_init2(R, m, k, po);
        dvc_imat_init2(F, m, k, po);
        dvc_imat_init2(E, m, k, po);
        ref_mul(E, A, B);

        /* the public product under a foreign rounding mode and flag */
        feclearexcept(FE_ALL_EXCEPT);
        feraiseexcept(FE_DIVBYZERO);
        fesetround(FE_UPWARD);
        dvc_imat_mul(R, A, B);
        int fast = dvc_imat_mul_fast_(F->e, A->e, B->e, m, n, k);
        CHECK(fegetround() == FE_UPWARD, "case %d: rounding mode not restored", it);
        CHECK(fetestexcept(FE_DIVBYZERO), "case %d: the caller's sticky flag was cleared", it);
        fesetround(FE_TONEAREST);
        feclearexcept(FE_ALL_EXCEPT);

        long bad = mismatch(R->e, E->e, m * k);
        CHECK(bad < 0, "case %d (%ld x %ld x %ld, %ld bits): dvc_imat_mul differs from MPFI at "
              "entry %ld", it, m, n, k, (long)po, bad);
        if (fast) {
            nfast++;
            bad = mismatch(F->e, E->e, m * k);
            CHECK(bad < 0, "case %d: the kernel differs from MPFI at entry %ld", it, bad);
        }
        /* inputs it must leave alone */
        if (mpfi_get_prec(A->e[0]) == 113 && mpfi_get_prec(B->e[0]) == 113)
            CHECK(!fast || m * n == 0, "case %d: 113-bit inputs taken", it);

        /* matrix times vector: the first column of B */
        dvc_ivec_t x, r, rf, re;
        dvc_ivec_init2(x, n, mpfi_get_prec(B->e[0]));
        for (long q = 0; q < n; q++) mpfi_set(x->e[q], B->e[q * k]);
        dvc_ivec_init2(r, m, po);
        dvc_ivec_init2(rf, m, po);
        dvc_ivec_init2(re, m, po);
        for (long i = 0; i < m; i++) mpfi_set(re->e[i], E->e[i * k]);
        dvc_imat_mul_vec(r, A, x);
        bad = mismatch(r->e, re->e, m);
        CHECK(bad < 0, "case %d: dvc_imat_mul_vec differs from MPFI at entry %ld", it, bad);
        if (dvc_imat_mul_fast_(rf->e, A->e, x->e, m, n, 1)) {
            nvec_fast++;
            CHECK(mismatch(rf->e, re->e, m) < 0, "case %d: the vector kernel differs", it);
        }
        dvc_ivec_clear(x);
        dvc_ivec_clear(r);
        dvc_ivec_clear(rf);
        dvc_ivec_clear(re);
        dvc_imat_clear(A);
        dvc_imat_clear(B);
        dvc_imat_clear(R);
        dvc_imat_clear(F);
        dvc_imat_clear(E);
    }
    /* the kernels must actually run on the common cases */
    CHECK(nfast > NCASES / 3, "the matrix kernel ran on only %ld of %d cases", nfast, NCASES);
    CHECK(nvec_fast > NCASES / 3, "the vector kernel ran on only %ld of %d cases", nvec_fast,
          NCASES);
    check_ld_kernels(&g);
    return check_report();
}
