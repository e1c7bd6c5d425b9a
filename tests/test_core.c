/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* ival, ivec, imat basics and JSON reading, checked against exact rational
 * arithmetic (GMP mpq) or high-precision MPFR. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"
#include "io/json.h"

static void test_decimal(void)
{
    mpfi_t x;
    mpfi_init2(x, 53);
    CHECK(dvc_ival_set_str(x, "0.1") == DVC_OK, "parse 0.1");
    CHECK(ref_contains_si(x, 1, 10), "0.1 encloses 1/10");
    CHECK(mpfr_cmp(&x->left, &x->right) < 0, "0.1 is not a double: width > 0");
    CHECK(dvc_ival_set_str(x, "-2.5e-3") == DVC_OK && ref_contains_si(x, -25, 10000), "-2.5e-3");
    CHECK(dvc_ival_set_str(x, "0.5") == DVC_OK && mpfr_equal_p(&x->left, &x->right), "0.5 exact");
    CHECK(dvc_ival_set_str(x, "[1, 2]") == DVC_OK && ref_contains_si(x, 3, 2), "[1,2]");
    CHECK(dvc_ival_set_str(x, "inf") == DVC_OK && mpfr_inf_p(&x->left), "inf");
    CHECK(dvc_ival_set_str(x, "nan") == DVC_ERR_INPUT, "nan rejected");
    CHECK(strstr(dvc_error_message(), "nan") != NULL, "message names the input");
    CHECK(dvc_ival_set_str(x, "1.0x") == DVC_ERR_INPUT, "trailing garbage");
    CHECK(dvc_ival_set_str(x, "[2, 1]") == DVC_ERR_INPUT, "empty interval");
    CHECK(dvc_ival_set_str(x, "") == DVC_ERR_INPUT, "empty string");
    /* Random decimals p/10^k: enclosure contains them at several precisions. */
    {
        check_rng rng = {12345};
        for (int k = 0; k < 2000; k++) {
            long p = check_rng_int(&rng, -1000000, 1000000);
            int e = (int)check_rng_int(&rng, 0, 6);
            long q = 1;
            char buf[64];
            for (int i = 0; i < e; i++) q *= 10;
            snprintf(buf, sizeof buf, "%s%ld.%0*ld", p < 0 ? "-" : "", labs(p) / q, e, labs(p) % q);
            if (e == 0) snprintf(buf, sizeof buf, "%ld", p);
            mpfi_set_prec(x, (mpfr_prec_t)check_rng_int(&rng, 24, 200));
            CHECK(dvc_ival_set_str(x, buf) == DVC_OK && ref_contains_si(x, p, q), "decimal %s", buf);
        }
    }
    mpfi_clear(x);
}

static void test_print(void)
{
    mpfi_t x;
    char *lo, *hi;
    mpfi_init2(x, 53);
    dvc_ival_set_str(x, "0.1");
    lo = dvc_ival_lo_str(x, 5);
    hi = dvc_ival_hi_str(x, 5);
    /* Outward: the printed lower end must be <= x.lo, the upper >= x.hi
     * (parsed exactly, without the parser under test). */
    {
        mpq_t q;
        mpq_init(q);
        CHECK(ref_q_set_dec(q, lo) && mpfr_cmp_q(&x->left, q) >= 0 && ref_contains_si(x, 1, 10), "lo %s below", lo);
        CHECK(ref_q_set_dec(q, hi) && mpfr_cmp_q(&x->right, q) <= 0, "hi %s above", hi);
        mpq_clear(q);
    }
    free(lo);
    free(hi);
    /* Round trip at many digit counts: printed interval contains x. */
    {
        check_rng rng = {99};
        mpq_t ql, qh;
        mpq_inits(ql, qh, (mpq_ptr)0);
        for (int k = 0; k < 1000; k++) {
            double a = check_rng_unif(&rng, -1e6, 1e6), b = a + check_rng_unif(&rng, 0, 1e-3);
            int d = (int)check_rng_int(&rng, 2, 20);
            char *s, lo_s[64], hi_s[64];
            mpfi_interv_d(x, a, b);
            s = dvc_ival_str(x, d);
            CHECK(sscanf(s, "[%63[^,], %63[^]]]", lo_s, hi_s) == 2 && ref_q_set_dec(ql, lo_s) &&
                      ref_q_set_dec(qh, hi_s) && mpfr_cmp_q(&x->left, ql) >= 0 && mpfr_cmp_q(&x->right, qh) <= 0,
                  "print %s", s);
            free(s);
        }
        mpq_clears(ql, qh, (mpq_ptr)0);
    }
    mpfi_clear(x);
}

static void test_norms(void)
{
    /* A = [[1, -2], [3, 0.5]]: ||A||_inf = 3.5, ||A||_1 = 4, ||A||_2 < 3.7 */
    dvc_imat_t A, B, C;
    dvc_ivec_t v, w;
    mpfr_t r;
    double a[4] = {1, -2, 3, 0.5};
    dvc_imat_init(A, 2, 2);
    dvc_imat_init(B, 2, 2);
    dvc_imat_init(C, 2, 2);
    dvc_ivec_init(v, 2);
    dvc_ivec_init(w, 2);
    mpfr_init2(r, 53);
    dvc_imat_set_d(A, a);
    dvc_imat_norm_inf(r, A);
    CHECK(mpfr_cmp_d(r, 3.5) == 0, "norm_inf");
    dvc_imat_norm1(r, A);
    CHECK(mpfr_cmp_d(r, 4.0) == 0, "norm1");
    dvc_imat_norm2(r, A);
    /* true 2-norm: largest singular value = sqrt(largest eig of A^T A) */
    {
        double p = 1 + 9, q2 = 4 + 0.25, s = -2 + 1.5; /* A^T A = [[10, -0.5],[-0.5, 4.25]] */
        double lam = 0.5 * (p + q2) + sqrt(0.25 * (p - q2) * (p - q2) + s * s);
        CHECK(mpfr_cmp_d(r, sqrt(lam)) >= 0, "norm2 is an upper bound");
        CHECK(mpfr_cmp_d(r, 3.75) <= 0, "norm2 not absurd");
    }
    /* Product against the exact integer result. */
    dvc_imat_mul(B, A, A);
    CHECK(mpfi_cmp_d(dvc_imat_entry(B, 0, 0), -5) == 0 && mpfi_cmp_d(dvc_imat_entry(B, 1, 1), -5.75) == 0, "A^2");
    dvc_imat_comparison(C, A);
    CHECK(mpfi_cmp_d(dvc_imat_entry(C, 0, 1), -2) == 0 && mpfi_cmp_d(dvc_imat_entry(C, 1, 1), 0.5) == 0, "comparison");
    {
        double x[2] = {1, 1};
        dvc_ivec_set_d(v, x);
        dvc_imat_mul_vec(w, A, v);
        CHECK(mpfi_cmp_d(w->e[0], -1) == 0 && mpfi_cmp_d(w->e[1], 3.5) == 0, "A x");
        dvc_ivec_norm_inf(r, w);
        CHECK(mpfr_cmp_d(r, 3.5) == 0, "vec norm");
    }
    {
        long idx[1] = {1};
        dvc_imat_submatrix(C, A, idx, 1, idx, 1);
        CHECK(C->r == 1 && mpfi_cmp_d(C->e[0], 0.5) == 0, "submatrix");
    }
    /* Interval entries: norm uses magnitudes. */
    dvc_ival_set_str(dvc_imat_entry(A, 0, 0), "[-7, 1]");
    dvc_imat_norm_inf(r, A);
    CHECK(mpfr_cmp_d(r, 9.0) == 0, "interval norm_inf");
    mpfr_clear(r);
    dvc_ivec_clear(v);
    dvc_ivec_clear(w);
    dvc_imat_clear(A);
    dvc_imat_clear(B);
    dvc_imat_clear(C);
}

/* A NaN endpoint (MPFI's result for e.g. inf - inf) means "no information":
 * norms and magnitudes must not drop it (mpfr_max/mpfr_min return the other
 * operand when one is NaN), or a finite "upper bound" would be reported. */
static void test_nan_norms(void)
{
    dvc_imat_t A, B;
    dvc_ivec_t v;
    mpfr_t r;
    mpfi_t x;
    dvc_imat_init(A, 2, 2);
    dvc_imat_init(B, 2, 2);
    dvc_ivec_init(v, 3);
    mpfr_init2(r, 53);
    mpfi_init2(x, 53);
    /* one NaN endpoint, the other finite */
    mpfi_interv_d(x, -1, 5);
    mpfr_set_nan(&x->left);
    dvc_ival_mag(r, x);
    CHECK(mpfr_nan_p(r), "mag of [NaN, 5] is NaN, not 5");
    mpfi_interv_d(x, -7, 1);
    mpfr_set_nan(&x->right);
    dvc_ival_mag(r, x);
    CHECK(mpfr_nan_p(r), "mag of [-7, NaN] is NaN");
    /* a NaN entry first, then finite entries: the max must stay NaN */
    mpfi_set_d(v->e[0], NAN);
    mpfi_set_d(v->e[1], 2);
    mpfi_set_d(v->e[2], -3);
    dvc_ivec_norm_inf(r, v);
    CHECK(mpfr_nan_p(r), "vector norm_inf with a NaN entry is NaN");
    dvc_ivec_norm1(r, v);
    CHECK(mpfr_nan_p(r), "vector norm1 with a NaN entry is NaN");
    dvc_ivec_max_width(r, v);
    CHECK(mpfr_nan_p(r), "max width with a NaN entry is NaN");
    /* a NaN in the last entry too */
    mpfi_set_d(v->e[0], 1);
    mpfi_set_d(v->e[2], NAN);
    dvc_ivec_norm_inf(r, v);
    CHECK(mpfr_nan_p(r), "vector norm_inf with a NaN last entry is NaN");
    {
        double a[4] = {1, 2, 3, 4};
        dvc_imat_set_d(A, a);
        dvc_imat_set_d(B, a);
        mpfi_set_d(dvc_imat_entry(A, 0, 0), NAN);
        dvc_imat_norm_inf(r, A);
        CHECK(mpfr_nan_p(r), "matrix norm_inf with a NaN entry is NaN, not 7");
        dvc_imat_norm1(r, A);
        CHECK(mpfr_nan_p(r), "matrix norm1 with a NaN entry is NaN");
        dvc_imat_norm2(r, A);
        CHECK(mpfr_nan_p(r), "matrix norm2 with a NaN entry is NaN");
        CHECK(!dvc_imat_contains(B, A), "a matrix with a NaN entry is not contained");
        CHECK(!dvc_imat_contains(A, B), "a matrix with a NaN entry contains nothing");
        CHECK(dvc_imat_contains(B, B), "contains itself");
    }
    mpfi_clear(x);
    mpfr_clear(r);
    dvc_ivec_clear(v);
    dvc_imat_clear(A);
    dvc_imat_clear(B);
}

static void test_json(void)
{
    const char *path = "test_core_tmp.json";
    FILE *f = fopen(path, "w");
    json_t *root;
    dvc_imat_t M;
    dvc_ivec_t q;
    REQUIRE(f != NULL, "cannot write temp file");
    fputs("{\"M\": [[2, \"0.1\"], [0.25, [1, 2]]], \"q\": [\"-inf\", 1.5], \"bad\": [[1, 2], [3]],"
          " \"s\": [\"abc\"]}", f);
    fclose(f);
    REQUIRE(dvc_json_load(&root, path) == DVC_OK, "load: %s", dvc_error_message());
    dvc_imat_init(M, 0, 0);
    dvc_ivec_init(q, 0);
    CHECK(dvc_json_imat(M, root, "M", path) == DVC_OK && M->r == 2 && M->c == 2, "matrix");
    CHECK(ref_contains_si(dvc_imat_entry(M, 0, 1), 1, 10), "decimal string entry");
    CHECK(ref_contains_si(dvc_imat_entry(M, 1, 1), 3, 2), "interval entry");
    CHECK(dvc_json_ivec(q, root, "q", path, 1) == DVC_OK && mpfr_inf_p(&q->e[0]->left), "vector with -inf");
    CHECK(dvc_json_ivec(q, root, "q", path, 0) == DVC_ERR_INPUT && strstr(dvc_error_message(), "'q'"), "finite required");
    dvc_imat_resize(M, 0, 0);
    CHECK(dvc_json_imat(M, root, "bad", path) == DVC_ERR_INPUT && strstr(dvc_error_message(), "row 2"), "ragged: %s", dvc_error_message());
    CHECK(dvc_json_ivec(q, root, "s", path, 1) == DVC_ERR_INPUT && strstr(dvc_error_message(), path), "names file: %s", dvc_error_message());
    CHECK(dvc_json_imat(M, root, "missing", path) == DVC_ERR_INPUT && strstr(dvc_error_message(), "missing"), "missing field");
    json_decref(root);
    f = fopen(path, "w");
    fputs("{\"M\": [[1, 2]", f);
    fclose(f);
    CHECK(dvc_json_load(&root, path) == DVC_ERR_INPUT && strstr(dvc_error_message(), "line"), "malformed: %s", dvc_error_message());
    CHECK(dvc_json_load(&root, "no/such/file.json") == DVC_ERR_IO, "missing file");
    remove(path);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
}

static void test_atomic(void)
{
    const char *path = "test_core_atomic.txt";
    char buf[16] = {0};
    FILE *f;
    CHECK(dvc_write_atomic(path, "hello", 5) == DVC_OK, "write");
    f = fopen(path, "r");
    CHECK(f && fread(buf, 1, 15, f) == 5 && strcmp(buf, "hello") == 0, "content");
    if (f) fclose(f);
    remove(path);
    CHECK(dvc_write_atomic("no/such/dir/x.txt", "x", 1) == DVC_ERR_IO, "bad dir fails");
}

int main(void)
{
    test_decimal();
    test_print();
    test_norms();
    test_nan_norms();
    test_json();
    test_atomic();
    mpfr_free_cache();
    return check_report();
}
