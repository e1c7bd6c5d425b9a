/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Randomized tests of every function of dvicert/imat.h (Arb t-*.c style).
 * Random interval matrices (points, thick entries, zeros, mixed signs,
 * infinite ends where the function allows them; output and input
 * precisions drawn from 24..200 bits); results must contain the exact
 * rational result at sampled point matrices (ends and interior points of
 * every entry), also with the output aliased to an input where the header
 * allows it. Norm bounds are checked against exact norms of the sampled
 * point matrices (the 2-norm through r^2 I - A^T A being positive
 * semidefinite, decided exactly). Verified solve, inverse and Cholesky are
 * checked against exact Gauss-Jordan solutions of sampled systems. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_ival.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"

#define DMAX 5
#define NSAMP 5

static void rmat(dvc_imat_t A, check_rng *r, int allow_inf)
{
    for (long k = 0; k < A->r * A->c; k++) rand_ival(A->e[k], r, allow_inf);
}

static mpq_t *qarr(long n)
{
    mpq_t *q = malloc((size_t)(n > 0 ? n : 1) * sizeof(mpq_t));
    for (long i = 0; i < n; i++) mpq_init(q[i]);
    return q;
}

static void qarr_free(mpq_t *q, long n)
{
    for (long i = 0; i < n; i++) mpq_clear(q[i]);
    free(q);
}

static void sample(mpq_t *q, mpfi_t *e, long len, check_rng *r)
{
    for (long k = 0; k < len; k++) rand_sample_q(q[k], e[k], rand_which(r), r);
}

static int contains_all(mpfi_t *e, mpq_t *q, long len)
{
    for (long k = 0; k < len; k++)
        if (!ref_contains_q(e[k], q[k])) return 0;
    return 1;
}

/* entry k of X contains entry k of Y (as intervals) */
static int encloses(const mpfi_t x, const mpfi_t y)
{
    return !mpfi_nan_p(x) && mpfr_cmp(&x->left, &y->left) <= 0 && mpfr_cmp(&x->right, &y->right) >= 0;
}

static void mcopy(dvc_imat_t C, const dvc_imat_t A)
{
    dvc_imat_init2(C, A->r, A->c, A->r * A->c > 0 ? mpfi_get_prec(A->e[0]) : 53);
    for (long k = 0; k < A->r * A->c; k++) mpfi_set(C->e[k], A->e[k]);
}

static void t_init_set(void)
{
    check_rng r = {0x1a7};
    for (int k = 0; k < 600; k++) {
        long m = check_rng_int(&r, 0, DMAX), n = check_rng_int(&r, 0, DMAX);
        mpfr_prec_t pa = rand_prec(&r), pr = rand_prec(&r);
        dvc_imat_t A, C, T;
        double x[DMAX * DMAX], mid[DMAX * DMAX];
        int point = 1, fin = 1;
        dvc_imat_init2(A, m, n, pa);
        CHECK(A->r == m && A->c == n, "init2 dims");
        for (long q = 0; q < m * n; q++)
            CHECK(mpfi_get_prec(A->e[q]) == pa && mpfi_is_zero(A->e[q]), "init2 entries [0, 0]");
        CHECK(dvc_imat_is_square(A) == (m == n), "is_square");
        rmat(A, &r, 1);
        dvc_prec_set(pr);
        dvc_imat_init(C, m, n);
        dvc_prec_set(DVC_DEFAULT_PREC);
        for (long q = 0; q < m * n; q++) CHECK(mpfi_get_prec(C->e[q]) == pr, "init: working precision");
        dvc_imat_set(C, A);
        for (long q = 0; q < m * n; q++) CHECK(encloses(C->e[q], A->e[q]), "set: entry %ld not enclosed", q);
        dvc_imat_set(C, C);
        for (long q = 0; q < m * n; q++) CHECK(encloses(C->e[q], A->e[q]), "set aliased");
        /* entry macro: row-major */
        for (long i = 0; i < m; i++)
            for (long j = 0; j < n; j++)
                CHECK(dvc_imat_entry(A, i, j) == A->e[i * n + j], "dvc_imat_entry(%ld, %ld)", i, j);
        /* transpose */
        dvc_imat_init2(T, n, m, pr);
        dvc_imat_transpose(T, A);
        for (long i = 0; i < m; i++)
            for (long j = 0; j < n; j++)
                CHECK(encloses(dvc_imat_entry(T, j, i), dvc_imat_entry(A, i, j)), "transpose (%ld, %ld)", i, j);
        dvc_imat_clear(T);
        /* predicates against the endpoints */
        for (long q = 0; q < m * n; q++) {
            if (!mpfr_equal_p(&A->e[q]->left, &A->e[q]->right)) point = 0;
            if (!dvc_ival_is_finite(A->e[q])) fin = 0;
        }
        CHECK(dvc_imat_is_point(A) == point, "is_point");
        CHECK(dvc_imat_is_finite(A) == fin, "is_finite");
        /* mid_d */
        dvc_imat_mid_d(mid, A);
        for (long q = 0; q < m * n; q++) {
            int whole = mpfr_inf_p(&A->e[q]->left) && mpfr_inf_p(&A->e[q]->right);
            CHECK(whole ? mid[q] == 0.0
                        : isfinite(mid[q]) && mpfr_get_d(&A->e[q]->left, MPFR_RNDD) <= mid[q] &&
                              mid[q] <= mpfr_get_d(&A->e[q]->right, MPFR_RNDU),
                  "mid_d[%ld] = %a outside", q, mid[q]);
        }
        /* set_d: encloses, exact from 53 bits */
        for (long q = 0; q < m * n; q++) x[q] = check_rng_unif(&r, -10, 10);
        dvc_imat_set_d(C, x);
        for (long q = 0; q < m * n; q++) {
            CHECK(mpfr_cmp_d(&C->e[q]->left, x[q]) <= 0 && mpfr_cmp_d(&C->e[q]->right, x[q]) >= 0, "set_d");
            if (pr >= 53) CHECK(mpfr_cmp_d(&C->e[q]->left, x[q]) == 0 && mpfr_cmp_d(&C->e[q]->right, x[q]) == 0,
                                "set_d not exact at %ld bits", (long)pr);
        }
        CHECK(dvc_imat_is_point(C) || pr < 53, "set_d gives a point matrix");
        /* one and zero */
        dvc_imat_one(C);
        for (long i = 0; i < m; i++)
            for (long j = 0; j < n; j++)
                CHECK(mpfi_cmp_ui(dvc_imat_entry(C, i, j), i == j) == 0 && mpfr_equal_p(&dvc_imat_entry(C, i, j)->left, &dvc_imat_entry(C, i, j)->right),
                      "one (%ld, %ld)", i, j);
        dvc_imat_zero(C);
        for (long q = 0; q < m * n; q++) CHECK(mpfi_is_zero(C->e[q]), "zero");
        /* resize keeps the precision, also of an empty object */
        {
            long m2 = check_rng_int(&r, 0, DMAX), n2 = check_rng_int(&r, 0, DMAX);
            dvc_imat_resize(A, m2, n2);
            CHECK(A->r == m2 && A->c == n2, "resize dims");
            for (long q = 0; q < m2 * n2; q++)
                CHECK(mpfi_get_prec(A->e[q]) == pa && dvc_imat_prec(A) == pa, "resize precision");
        }
        dvc_imat_clear(A);
        CHECK(A->e == NULL && A->r == 0 && A->c == 0, "clear");
        dvc_imat_clear(C);
    }
}

/* op: 0 add, 1 sub, 2 neg, 3 scale; alias: 0 none, 1 R = A, 2 R = B */
static void t_entrywise(void)
{
    static const char *name[] = {"add", "sub", "neg", "scale"};
    check_rng r = {0xa55};
    for (int k = 0; k < 2000; k++) {
        int op = k % 4, alias = (int)check_rng_int(&r, 0, 2);
        long m = check_rng_int(&r, 0, DMAX), n = check_rng_int(&r, 0, DMAX), len = m * n;
        mpfr_prec_t pa = rand_prec(&r), pb = rand_prec(&r), pr = rand_prec(&r);
        int allow_inf = check_rng_int(&r, 0, 3) == 0;
        dvc_imat_t A, B, R;
        mpfi_t s;
        mpq_t *qa = qarr(len), *qb = qarr(len), *qe = qarr(len), sq;
        if (op >= 2 && alias == 2) alias = 1;
        dvc_imat_init2(A, m, n, pa);
        dvc_imat_init2(B, m, n, pb);
        mpfi_init2(s, rand_prec(&r));
        mpq_init(sq);
        rmat(A, &r, allow_inf);
        rmat(B, &r, allow_inf);
        rand_ival(s, &r, allow_inf);
        if (alias == 1) mcopy(R, A);
        else if (alias == 2) mcopy(R, B);
        else dvc_imat_init2(R, m, n, pr);
        {
            const dvc_imat_struct *a = alias == 1 ? R : A, *b = alias == 2 ? R : B;
            switch (op) {
            case 0: dvc_imat_add(R, a, b); break;
            case 1: dvc_imat_sub(R, a, b); break;
            case 2: dvc_imat_neg(R, a); break;
            default: dvc_imat_scale(R, s, a); break;
            }
        }
        for (int smp = 0; smp < NSAMP; smp++) {
            sample(qa, A->e, len, &r);
            sample(qb, B->e, len, &r);
            rand_sample_q(sq, s, rand_which(&r), &r);
            for (long q = 0; q < len; q++) switch (op) {
                case 0: mpq_add(qe[q], qa[q], qb[q]); break;
                case 1: mpq_sub(qe[q], qa[q], qb[q]); break;
                case 2: mpq_neg(qe[q], qa[q]); break;
                default: mpq_mul(qe[q], sq, qa[q]); break;
                }
            CHECK(contains_all(R->e, qe, len), "%s (%ldx%ld, alias %d): exact result not enclosed", name[op], m,
                  n, alias);
        }
        mpq_clear(sq);
        qarr_free(qa, len);
        qarr_free(qb, len);
        qarr_free(qe, len);
        mpfi_clear(s);
        dvc_imat_clear(A);
        dvc_imat_clear(B);
        dvc_imat_clear(R);
    }
}

static void t_mul(void)
{
    check_rng r = {0x3171};
    for (int k = 0; k < 1500; k++) {
        long m = check_rng_int(&r, 0, DMAX), l = check_rng_int(&r, 0, DMAX), n = check_rng_int(&r, 0, DMAX);
        int allow_inf = check_rng_int(&r, 0, 4) == 0;
        dvc_imat_t A, B, R;
        dvc_ivec_t x, y;
        mpq_t *qa = qarr(m * l), *qb = qarr(l * n), *qx = qarr(l), *qe = qarr(m * n), *qy = qarr(m), t;
        mpq_init(t);
        dvc_imat_init2(A, m, l, rand_prec(&r));
        dvc_imat_init2(B, l, n, rand_prec(&r));
        dvc_imat_init2(R, m, n, rand_prec(&r));
        dvc_ivec_init2(x, l, rand_prec(&r));
        dvc_ivec_init2(y, m, rand_prec(&r));
        rmat(A, &r, allow_inf);
        rmat(B, &r, 0);
        for (long i = 0; i < l; i++) rand_ival(x->e[i], &r, 0);
        for (long q = 0; q < m * n; q++) mpfi_set_ui(R->e[q], 99); /* overwritten */
        dvc_imat_mul(R, A, B);
        dvc_imat_mul_vec(y, A, x);
        for (int smp = 0; smp < NSAMP; smp++) {
            sample(qa, A->e, m * l, &r);
            sample(qb, B->e, l * n, &r);
            sample(qx, x->e, l, &r);
            for (long i = 0; i < m; i++) {
                for (long j = 0; j < n; j++) {
                    mpq_set_ui(qe[i * n + j], 0, 1);
                    for (long p = 0; p < l; p++) {
                        mpq_mul(t, qa[i * l + p], qb[p * n + j]);
                        mpq_add(qe[i * n + j], qe[i * n + j], t);
                    }
                }
                mpq_set_ui(qy[i], 0, 1);
                for (long p = 0; p < l; p++) {
                    mpq_mul(t, qa[i * l + p], qx[p]);
                    mpq_add(qy[i], qy[i], t);
                }
            }
            CHECK(contains_all(R->e, qe, m * n), "mul %ldx%ld * %ldx%ld: exact product not enclosed", m, l, l, n);
            CHECK(contains_all(y->e, qy, m), "mul_vec %ldx%ld: exact product not enclosed", m, l);
        }
        mpq_clear(t);
        qarr_free(qa, m * l);
        qarr_free(qb, l * n);
        qarr_free(qx, l);
        qarr_free(qe, m * n);
        qarr_free(qy, m);
        dvc_imat_clear(A);
        dvc_imat_clear(B);
        dvc_imat_clear(R);
        dvc_ivec_clear(x);
        dvc_ivec_clear(y);
    }
}

/* r >= ||Aq||_2 for the rational m x n matrix Aq, decided exactly:
 * r^2 I - Aq^T Aq is positive semidefinite. */
static int bounds_2norm(const mpfr_t r, mpq_t *Aq, long m, long n)
{
    mpq_t *S = qarr(n * n), r2, t;
    int ok;
    mpq_inits(r2, t, (mpq_ptr)0);
    mpfr_get_q(r2, r);
    mpq_mul(r2, r2, r2);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            mpq_set_ui(S[i * n + j], 0, 1);
            for (long p = 0; p < m; p++) {
                mpq_mul(t, Aq[p * n + i], Aq[p * n + j]);
                mpq_sub(S[i * n + j], S[i * n + j], t);
            }
            if (i == j) mpq_add(S[i * n + j], S[i * n + j], r2);
        }
    ok = ref_q_psd(S, n);
    mpq_clears(r2, t, (mpq_ptr)0);
    qarr_free(S, n * n);
    return ok;
}

static void t_norms(void)
{
    check_rng r = {0x4041};
    for (int k = 0; k < 1500; k++) {
        long m = check_rng_int(&r, 0, DMAX), n = check_rng_int(&r, 0, DMAX), len = m * n;
        int allow_inf = check_rng_int(&r, 0, 6) == 0;
        dvc_imat_t A, C;
        mpfr_t ni, n1, n2;
        mpq_t *q = qarr(len), s, a, mx;
        mpq_inits(s, a, mx, (mpq_ptr)0);
        dvc_imat_init2(A, m, n, rand_prec(&r));
        dvc_imat_init2(C, m, n, rand_prec(&r));
        rmat(A, &r, allow_inf);
        mpfr_inits2(rand_prec(&r), ni, n1, n2, (mpfr_ptr)0);
        dvc_imat_norm_inf(ni, A);
        dvc_imat_norm1(n1, A);
        dvc_imat_norm2(n2, A);
        dvc_imat_comparison(C, A);
        CHECK(!mpfr_nan_p(ni) && !mpfr_nan_p(n1) && !mpfr_nan_p(n2), "NaN norm");
        CHECK(mpfr_sgn(ni) >= 0 && mpfr_sgn(n1) >= 0 && mpfr_sgn(n2) >= 0, "negative norm");
        for (int smp = 0; smp < NSAMP; smp++) {
            sample(q, A->e, len, &r);
            /* infinity norm: max row sum; 1-norm: max column sum */
            mpq_set_ui(mx, 0, 1);
            for (long i = 0; i < m; i++) {
                mpq_set_ui(s, 0, 1);
                for (long j = 0; j < n; j++) {
                    mpq_abs(a, q[i * n + j]);
                    mpq_add(s, s, a);
                }
                if (mpq_cmp(s, mx) > 0) mpq_set(mx, s);
            }
            CHECK(mpfr_inf_p(ni) || mpfr_cmp_q(ni, mx) >= 0, "norm_inf below a point matrix's (%ldx%ld)", m, n);
            mpq_set_ui(mx, 0, 1);
            for (long j = 0; j < n; j++) {
                mpq_set_ui(s, 0, 1);
                for (long i = 0; i < m; i++) {
                    mpq_abs(a, q[i * n + j]);
                    mpq_add(s, s, a);
                }
                if (mpq_cmp(s, mx) > 0) mpq_set(mx, s);
            }
            CHECK(mpfr_inf_p(n1) || mpfr_cmp_q(n1, mx) >= 0, "norm1 below a point matrix's (%ldx%ld)", m, n);
            CHECK(mpfr_inf_p(n2) || bounds_2norm(n2, q, m, n), "norm2 below a point matrix's (%ldx%ld)", m, n);
            /* comparison matrix: diagonal below |a_ii|, off-diagonal below -|a_ij| */
            for (long i = 0; i < m; i++)
                for (long j = 0; j < n; j++) {
                    const mpfr_srcptr c = &dvc_imat_entry(C, i, j)->right;
                    mpq_abs(a, q[i * n + j]);
                    if (i == j) {
                        CHECK(mpfr_cmp_q(c, a) <= 0 && mpfr_sgn(&dvc_imat_entry(C, i, j)->left) >= 0,
                              "comparison diagonal (%ld) above a point's |a_ii| or negative", i);
                    } else {
                        mpq_neg(a, a);
                        CHECK(mpfr_inf_p(c) || mpfr_cmp_q(c, a) <= 0, "comparison (%ld, %ld) above -|a_ij|", i, j);
                    }
                }
        }
        /* not absurd: the 2-norm bound is at most the smaller of its two
         * formulas' exact values times (1 + 2^-20) */
        if (mpfr_number_p(ni) && mpfr_number_p(n1) && mpfr_number_p(n2)) {
            mpfr_t g;
            mpfr_init2(g, 300);
            mpfr_mul(g, ni, n1, MPFR_RNDU);
            mpfr_sqrt(g, g, MPFR_RNDU);
            mpfr_mul_d(g, g, 1 + 0x1p-20, MPFR_RNDU);
            CHECK(mpfr_cmp(n2, g) <= 0, "norm2 above sqrt(norm1 norm_inf)");
            mpfr_clear(g);
        }
        mpq_clears(s, a, mx, (mpq_ptr)0);
        qarr_free(q, len);
        mpfr_clears(ni, n1, n2, (mpfr_ptr)0);
        dvc_imat_clear(A);
        dvc_imat_clear(C);
    }
}

static void t_submatrix_contains(void)
{
    check_rng r = {0x5b};
    for (int k = 0; k < 1000; k++) {
        long m = check_rng_int(&r, 1, DMAX), n = check_rng_int(&r, 1, DMAX);
        long nr = check_rng_int(&r, 0, DMAX), nc = check_rng_int(&r, 0, DMAX), rows[DMAX], cols[DMAX];
        mpfr_prec_t pr = rand_prec(&r);
        dvc_imat_t A, R, B;
        int want;
        dvc_imat_init2(A, m, n, rand_prec(&r));
        dvc_imat_init2(R, check_rng_int(&r, 0, 3), check_rng_int(&r, 0, 3), pr);
        rmat(A, &r, 1);
        for (long i = 0; i < nr; i++) rows[i] = check_rng_int(&r, 0, m - 1); /* repeats allowed */
        for (long j = 0; j < nc; j++) cols[j] = check_rng_int(&r, 0, n - 1);
        dvc_imat_submatrix(R, A, rows, nr, cols, nc);
        CHECK(R->r == nr && R->c == nc, "submatrix dims");
        for (long i = 0; i < nr; i++)
            for (long j = 0; j < nc; j++)
                CHECK(encloses(dvc_imat_entry(R, i, j), dvc_imat_entry(A, rows[i], cols[j])),
                      "submatrix (%ld, %ld) = A(%ld, %ld) not enclosed", i, j, rows[i], cols[j]);
        /* contains: B inside A (a random sub-interval of each entry), then
         * one entry of B pushed outside, or a NaN end */
        mcopy(B, A);
        for (long q = 0; q < m * n; q++) {
            mpq_t a, b;
            mpq_inits(a, b, (mpq_ptr)0);
            rand_sample_q(a, A->e[q], rand_which(&r), &r);
            rand_sample_q(b, A->e[q], rand_which(&r), &r);
            if (mpq_cmp(a, b) > 0) mpq_swap(a, b);
            if (check_rng_int(&r, 0, 1) && dvc_ival_is_finite(A->e[q])) {
                mpfr_set_q(&B->e[q]->left, a, MPFR_RNDU);
                mpfr_set_q(&B->e[q]->right, b, MPFR_RNDD);
                if (mpfr_cmp(&B->e[q]->left, &B->e[q]->right) > 0) mpfr_set(&B->e[q]->right, &B->e[q]->left, MPFR_RNDN);
            }
            mpq_clears(a, b, (mpq_ptr)0);
        }
        want = 1;
        switch (check_rng_int(&r, 0, 3)) {
        case 0: {
            long q = check_rng_int(&r, 0, m * n - 1);
            if (!mpfr_inf_p(&B->e[q]->right)) {
                mpfr_set(&B->e[q]->right, &A->e[q]->right, MPFR_RNDN);
                mpfr_nextabove(&B->e[q]->right);
                want = 0;
            }
            break;
        }
        case 1: {
            long q = check_rng_int(&r, 0, m * n - 1);
            if (!mpfr_inf_p(&B->e[q]->left)) {
                mpfr_set(&B->e[q]->left, &A->e[q]->left, MPFR_RNDN);
                mpfr_nextbelow(&B->e[q]->left);
                want = 0;
            }
            break;
        }
        case 2:
            mpfr_set_nan(&B->e[check_rng_int(&r, 0, m * n - 1)]->right);
            want = 0;
            break;
        default: break;
        }
        CHECK(dvc_imat_contains(A, B) == want, "contains (expected %d)", want);
        CHECK(dvc_imat_contains(A, A), "contains itself");
        dvc_imat_clear(A);
        dvc_imat_clear(B);
        dvc_imat_clear(R);
    }
}

static void t_fprint(void)
{
    check_rng r = {0xf1};
    for (int k = 0; k < 150; k++) {
        long m = check_rng_int(&r, 0, DMAX), n = check_rng_int(&r, 1, DMAX), i = 0;
        int d = (int)check_rng_int(&r, 2, 20);
        dvc_imat_t A;
        FILE *f = tmpfile();
        char line[4096];
        REQUIRE(f != NULL, "tmpfile");
        dvc_imat_init2(A, m, n, rand_prec(&r));
        rmat(A, &r, 1);
        dvc_imat_fprint(f, A, d);
        rewind(f);
        while (fgets(line, sizeof line, f)) {
            const char *p = line;
            long j = 0;
            int ok = i < m;
            for (; ok && j < n; j++) {
                char lo[128], hi[128];
                int used = 0;
                mpq_t q;
                if (sscanf(p, " [%127[^,], %127[^]]]%n", lo, hi, &used) != 2) {
                    ok = 0;
                    break;
                }
                p += used;
                mpq_init(q);
                const mpfi_srcptr e = dvc_imat_entry(A, i, j);
                if (mpfr_inf_p(&e->left)) ok = strcmp(lo, "-inf") == 0;
                else ok = ref_q_set_dec(q, lo) && mpfr_cmp_q(&e->left, q) >= 0;
                if (mpfr_inf_p(&e->right)) ok = ok && strcmp(hi, "inf") == 0;
                else ok = ok && ref_q_set_dec(q, hi) && mpfr_cmp_q(&e->right, q) <= 0;
                mpq_clear(q);
            }
            CHECK(ok && j == n, "fprint row %ld '%s' does not enclose the row", i, line);
            i++;
        }
        CHECK(i == m, "fprint printed %ld rows for %ld", i, m);
        fclose(f);
        dvc_imat_clear(A);
    }
}

/* A random n x n interval matrix, diagonally dominant (margin) when dd,
 * entries of relative radius about 2^-rad around random centres. */
static void rand_system_matrix(dvc_imat_t A, check_rng *r, int dd, int rad)
{
    long n = A->r;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            mpfi_ptr e = dvc_imat_entry(A, i, j);
            mpfr_t c, w;
            mpfr_inits2(mpfi_get_prec(e), c, w, (mpfr_ptr)0);
            rand_fr(c, r, -2, 0);
            if (dd && i == j) mpfr_add_si(c, c, (mpfr_sgn(c) >= 0 ? 1 : -1) * (long)(n + 1), MPFR_RNDN);
            mpfr_set(w, c, MPFR_RNDN);
            mpfr_abs(w, w, MPFR_RNDN);
            mpfr_mul_2si(w, w, -rad, MPFR_RNDN);
            if (rad >= 200 || check_rng_int(r, 0, 2) == 0) mpfr_set_zero(w, 1); /* point entries */
            mpfr_sub(&e->left, c, w, MPFR_RNDD);
            mpfr_add(&e->right, c, w, MPFR_RNDU);
            mpfr_clears(c, w, (mpfr_ptr)0);
        }
}

static void t_solve(void)
{
    check_rng r = {0x501e};
    long certified = 0, dd_cases = 0, dd_certified = 0;
    for (int k = 0; k < 600; k++) {
        long n = check_rng_int(&r, 1, DMAX), nb = check_rng_int(&r, 1, 3);
        int dd = check_rng_int(&r, 0, 2) != 0, rad = (int)check_rng_int(&r, 8, 60), what = k % 4;
        mpfr_prec_t p = rand_prec(&r);
        dvc_imat_t A, B, X;
        dvc_ivec_t b, x;
        long kb = nb > n ? nb : n; /* right-hand sides, or the identity's columns */
        mpq_t *qa = qarr(n * n), *qb = qarr(n * kb), *qx = qarr(n * kb);
        dvc_status st;
        dvc_imat_init2(A, n, n, rand_prec(&r));
        rand_system_matrix(A, &r, dd, rad);
        dvc_imat_init2(B, n, nb, rand_prec(&r));
        dvc_ivec_init2(b, n, rand_prec(&r));
        rmat(B, &r, 0);
        for (long i = 0; i < n; i++) rand_ival(b->e[i], &r, 0);
        /* what: 0 solve, 1 solve aliased x = b, 2 solve_mat (X = B aliased half the time), 3 inverse */
        if (what == 0) {
            dvc_ivec_init2(x, n, p);
            st = dvc_imat_solve(x, A, b);
        } else if (what == 1) {
            dvc_ivec_init2(x, n, mpfi_get_prec(b->e[0]));
            dvc_ivec_set(x, b);
            st = dvc_imat_solve(x, A, x);
        } else if (what == 2) {
            if (check_rng_int(&r, 0, 1)) {
                mcopy(X, B);
                st = dvc_imat_solve_mat(X, A, X);
            } else {
                dvc_imat_init2(X, n, nb, p);
                st = dvc_imat_solve_mat(X, A, B);
            }
        } else {
            dvc_imat_init2(X, n, n, p);
            st = dvc_imat_inv(X, A);
        }
        CHECK(st == DVC_OK || st == DVC_NOT_CERTIFIED, "solve status %d", (int)st);
        if (dd) dd_cases++;
        if (st == DVC_OK) {
            certified++;
            if (dd) dd_certified++;
            for (int smp = 0; smp < NSAMP; smp++) {
                long k2 = what == 3 ? n : what == 2 ? nb : 1;
                sample(qa, A->e, n * n, &r);
                if (what == 3)
                    for (long q = 0; q < n * n; q++) mpq_set_ui(qb[q], q / n == q % n, 1);
                else if (what == 2) sample(qb, B->e, n * nb, &r);
                else sample(qb, b->e, n, &r);
                if (!ref_q_solve(qx, qa, qb, n, k2)) {
                    CHECK(0, "certified, but a sampled point matrix is singular (n=%ld)", n);
                    continue;
                }
                CHECK(contains_all(what <= 1 ? x->e : X->e, qx, n * k2),
                      "%s (n=%ld, dd %d, rad 2^-%d): exact solution not enclosed",
                      what == 0 ? "solve" : what == 1 ? "solve aliased" : what == 2 ? "solve_mat" : "inv", n, dd,
                      rad);
            }
        }
        if (what <= 1) dvc_ivec_clear(x);
        else dvc_imat_clear(X);
        qarr_free(qa, n * n);
        qarr_free(qb, n * kb);
        qarr_free(qx, n * kb);
        dvc_imat_clear(A);
        dvc_imat_clear(B);
        dvc_ivec_clear(b);
    }
    /* diagonally dominant with margin and small radii: always regular and
     * well conditioned, so a refusal there is a defect too */
    CHECK(dd_certified == dd_cases, "diagonally dominant systems certified: %ld of %ld", dd_certified, dd_cases);
    CHECK(certified > 300, "only %ld of 600 systems certified", certified);
}

/* Exactly singular point matrices are never certified; infinite entries
 * and wrong dimensions are input errors. */
static void t_solve_refusals(void)
{
    check_rng r = {0x5176};
    for (int k = 0; k < 300; k++) {
        long n = check_rng_int(&r, 2, DMAX), i0 = check_rng_int(&r, 0, n - 1), i1 = (i0 + 1) % n;
        dvc_imat_t A, X;
        dvc_ivec_t b, x;
        dvc_imat_init2(A, n, n, rand_prec(&r));
        dvc_imat_init2(X, n, n, rand_prec(&r));
        dvc_ivec_init2(b, n, rand_prec(&r));
        dvc_ivec_init2(x, n, rand_prec(&r));
        rand_system_matrix(A, &r, 0, 300);
        /* row i1 = 2^s * row i0 (exact) */
        {
            long sh = check_rng_int(&r, -3, 3);
            for (long j = 0; j < n; j++) mpfi_mul_2si(dvc_imat_entry(A, i1, j), dvc_imat_entry(A, i0, j), sh);
        }
        for (long i = 0; i < n; i++) rand_ival(b->e[i], &r, 0);
        { dvc_status st0 = dvc_imat_solve(x, A, b); CHECK(st0 == DVC_NOT_CERTIFIED, "singular system: status %d, not refused (n=%ld): %s", (int)st0, n, dvc_error_message()); }
        CHECK(dvc_imat_inv(X, A) == DVC_NOT_CERTIFIED, "singular inverse certified (n=%ld)", n);
        CHECK(dvc_imat_cholesky_spd(A) != DVC_OK, "singular matrix proven SPD");
        mpfr_set_inf(&dvc_imat_entry(A, i0, i0)->right, 1);
        CHECK(dvc_imat_solve(x, A, b) == DVC_ERR_INPUT, "infinite entry: not an input error");
        dvc_imat_resize(X, n, n + 1);
        CHECK(dvc_imat_inv(X, A) == DVC_ERR_INPUT, "inverse into a wrong shape");
        dvc_ivec_resize(x, n + 1);
        CHECK(dvc_imat_solve(x, A, b) == DVC_ERR_INPUT, "solve into a wrong length");
        dvc_imat_clear(A);
        dvc_imat_clear(X);
        dvc_ivec_clear(b);
        dvc_ivec_clear(x);
    }
}

/* Symmetric interval matrices G^T G + shift I (+- radius): when Cholesky
 * proves SPD, every sampled symmetric member is exactly positive definite;
 * with a clear margin it must prove it; with a negative shift large
 * enough it must refuse. */
static void t_cholesky(void)
{
    check_rng r = {0xc401};
    long proven = 0, margin_cases = 0, margin_proven = 0;
    for (int k = 0; k < 500; k++) {
        long n = check_rng_int(&r, 1, DMAX);
        long shift = check_rng_int(&r, -2, 3);
        mpfr_prec_t p = rand_prec(&r);
        dvc_imat_t A;
        mpq_t *g = qarr(n * n), *s = qarr(n * n), t, rad;
        dvc_status st;
        mpq_inits(t, rad, (mpq_ptr)0);
        for (long q = 0; q < n * n; q++) mpq_set_si(g[q], check_rng_int(&r, -4, 4), 2);
        dvc_imat_init2(A, n, n, p);
        mpq_set_ui(rad, 1, 1u << 12);
        if (check_rng_int(&r, 0, 2) == 0) mpq_set_ui(rad, 0, 1);
        for (long i = 0; i < n; i++)
            for (long j = 0; j <= i; j++) {
                mpq_t c, lo, hi;
                mpq_inits(c, lo, hi, (mpq_ptr)0);
                for (long p2 = 0; p2 < n; p2++) {
                    mpq_mul(t, g[p2 * n + i], g[p2 * n + j]);
                    mpq_add(c, c, t);
                }
                if (i == j) {
                    mpq_set_si(t, shift, 1);
                    mpq_add(c, c, t);
                }
                mpq_sub(lo, c, rad);
                mpq_add(hi, c, rad);
                mpfr_set_q(&dvc_imat_entry(A, i, j)->left, lo, MPFR_RNDD);
                mpfr_set_q(&dvc_imat_entry(A, i, j)->right, hi, MPFR_RNDU);
                mpfi_set(dvc_imat_entry(A, j, i), dvc_imat_entry(A, i, j));
                mpq_clears(c, lo, hi, (mpq_ptr)0);
            }
        st = dvc_imat_cholesky_spd(A);
        CHECK(st == DVC_OK || st == DVC_NOT_CERTIFIED, "cholesky status %d", (int)st);
        if (shift >= 1 && n * 4 * 2 < 1 << 12) {
            /* G^T G + shift I with radius n 2^-12 << shift: clearly SPD */
            margin_cases++;
            margin_proven += st == DVC_OK;
        }
        if (st == DVC_OK) {
            proven++;
            for (int smp = 0; smp < NSAMP; smp++) {
                int pd;
                for (long i = 0; i < n; i++)
                    for (long j = 0; j <= i; j++) {
                        rand_sample_q(s[i * n + j], dvc_imat_entry(A, i, j), rand_which(&r), &r);
                        mpq_set(s[j * n + i], s[i * n + j]);
                    }
                /* positive definite: det != 0 and semidefinite */
                {
                    mpq_t *c = qarr(n * n);
                    for (long q = 0; q < n * n; q++) mpq_set(c[q], s[q]);
                    pd = ref_q_det_sign(c, n) != 0;
                    qarr_free(c, n * n);
                }
                pd = pd && ref_q_psd(s, n);
                CHECK(pd, "proven SPD but a sampled member is not positive definite (n=%ld shift %ld)", n, shift);
            }
        }
        mpq_clears(t, rad, (mpq_ptr)0);
        qarr_free(g, n * n);
        qarr_free(s, n * n);
        dvc_imat_clear(A);
    }
    CHECK(margin_proven == margin_cases, "SPD with margin proven: %ld of %ld", margin_proven, margin_cases);
    CHECK(proven > 100, "only %ld of 500 proven", proven);
    /* not symmetric: input error */
    {
        dvc_imat_t A;
        double a[4] = {2, 1, 0.5, 2};
        dvc_imat_init2(A, 2, 2, 53);
        dvc_imat_set_d(A, a);
        CHECK(dvc_imat_cholesky_spd(A) == DVC_ERR_INPUT, "non-symmetric matrix accepted");
        dvc_imat_clear(A);
    }
}

int main(void)
{
    t_init_set();
    t_entrywise();
    t_mul();
    t_norms();
    t_submatrix_contains();
    t_fprint();
    t_solve();
    t_solve_refusals();
    t_cholesky();
    mpfr_free_cache();
    return check_report();
}
