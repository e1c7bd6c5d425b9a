/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The matrix and LVI input readers of the I/O layer (io/io.h), which the
 * lvi, beta and classify commands use: values enclosed (decimal strings
 * exactly), sizes and precision, and each bad input refused with a message
 * naming the file and the field. Expected values are exact rationals. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dvicert/dvicert.h"
#include "io/io.h"

static char dir[] = "/tmp/dvc_test_io_XXXXXX";
static char path[128];

static const char *file(const char *text)
{
    FILE *f;
    snprintf(path, sizeof path, "%s/in.json", dir);
    f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

/* lo <= a/b <= hi */
static int contains_ratio(const mpfi_t x, long a, long b)
{
    mpq_t q, e;
    int ok;
    mpq_inits(q, e, NULL);
    mpq_set_si(q, a, (unsigned long)b);
    mpq_canonicalize(q);
    mpfr_get_q(e, &x->left);
    ok = mpq_cmp(e, q) <= 0;
    mpfr_get_q(e, &x->right);
    ok = ok && mpq_cmp(e, q) >= 0;
    mpq_clears(q, e, NULL);
    return ok;
}

static int is_inf(const mpfi_t x, int sign)
{
    mpfr_srcptr end = sign > 0 ? &x->right : &x->left;
    return mpfr_inf_p(end) && mpfr_sgn(end) == sign;
}

/* Read the LVI file at p into fresh objects; the message is checked by the
 * caller. */
static dvc_status lvi_at(const char *p)
{
    dvc_imat_t M;
    dvc_ivec_t q, l, u;
    dvc_status st;
    dvc_imat_init(M, 0, 0);
    dvc_ivec_init(q, 0);
    dvc_ivec_init(l, 0);
    dvc_ivec_init(u, 0);
    st = dvc_io_read_lvi(M, q, l, u, p);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
    return st;
}

static dvc_status lvi(const char *text) { return lvi_at(file(text)); }

static int message_is(const char *field_and_reason)
{
    char want[512];
    snprintf(want, sizeof want, "%s: %s", path, field_and_reason);
    return strcmp(dvc_error_message(), want) == 0;
}

static void test_lvi(void)
{
    dvc_imat_t M;
    dvc_ivec_t q, l, u;
    dvc_status st;
    /* a good file at 113 bits: every object keeps its precision */
    dvc_imat_init2(M, 0, 0, 113);
    dvc_ivec_init2(q, 0, 113);
    dvc_ivec_init2(l, 0, 113);
    dvc_ivec_init2(u, 0, 113);
    st = dvc_io_read_lvi(M, q, l, u,
                         file("{\"M\": [[\"0.1\", 1], [0, 2]], \"q\": [1, \"-0.3\"], \"l\": [0, \"-inf\"],"
                              " \"u\": [\"inf\", \"2.5\"]}"));
    CHECK(st == DVC_OK, "good LVI file: %s", dvc_error_message());
    CHECK(M->r == 2 && M->c == 2 && q->n == 2 && l->n == 2 && u->n == 2, "m = 2");
    if (st == DVC_OK) {
        CHECK(mpfi_get_prec(dvc_imat_entry(M, 0, 0)) == 113 && mpfi_get_prec(q->e[1]) == 113 &&
                  mpfi_get_prec(u->e[1]) == 113,
              "precision kept");
        CHECK(contains_ratio(dvc_imat_entry(M, 0, 0), 1, 10) && contains_ratio(dvc_imat_entry(M, 1, 1), 2, 1) &&
                  mpfi_is_zero(dvc_imat_entry(M, 1, 0)),
              "M entries");
        CHECK(contains_ratio(q->e[1], -3, 10) && contains_ratio(u->e[1], 5, 2) && mpfi_is_zero(l->e[0]),
              "q, l, u entries");
        CHECK(is_inf(l->e[1], -1) && is_inf(u->e[0], 1), "infinite bounds");
    }
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);

    /* bad inputs: input errors naming the file and the field */
    CHECK(lvi("[1, 2]") == DVC_ERR_INPUT && message_is("the top level must be a JSON object"),
          "not an object: %s", dvc_error_message());
    CHECK(lvi("{\"q\": [1], \"l\": [0], \"u\": [1]}") == DVC_ERR_INPUT && message_is("missing field 'M'"),
          "no M: %s", dvc_error_message());
    CHECK(lvi("{\"M\": [[1, 0]], \"q\": [1], \"l\": [0], \"u\": [1]}") == DVC_ERR_INPUT &&
              message_is("field 'M' is 1x2, must be square"),
          "M not square: %s", dvc_error_message());
    CHECK(lvi("{\"M\": [[1, 0], [0, 1]], \"q\": [1, 2, 3], \"l\": [0, 0], \"u\": [1, 1]}") == DVC_ERR_INPUT &&
              message_is("field 'q' has 3 entries, expected 2 (dimension mismatch)"),
          "q too long: %s", dvc_error_message());
    CHECK(lvi("{\"M\": [[1]], \"q\": [\"inf\"], \"l\": [0], \"u\": [1]}") == DVC_ERR_INPUT &&
              strstr(dvc_error_message(), "field 'q' entry 1") && strstr(dvc_error_message(), "finite"),
          "q infinite: %s", dvc_error_message());
    CHECK(lvi("{\"M\": [[1]], \"q\": [1], \"l\": [\"inf\"], \"u\": [\"inf\"]}") == DVC_ERR_INPUT &&
              message_is("field 'l' entry 1 is +inf (a lower bound is a number or \"-inf\")"),
          "l = +inf: %s", dvc_error_message());
    CHECK(lvi("{\"M\": [[1]], \"q\": [1], \"l\": [\"-inf\"], \"u\": [\"-inf\"]}") == DVC_ERR_INPUT &&
              message_is("field 'u' entry 1 is -inf (an upper bound is a number or \"inf\")"),
          "u = -inf: %s", dvc_error_message());
    CHECK(lvi("{\"M\": [[1, 0], [0, 1]], \"q\": [1, 2], \"l\": [0, 1], \"u\": [1, 1]}") == DVC_ERR_INPUT &&
              strncmp(dvc_error_message(), path, strlen(path)) == 0 &&
              strstr(dvc_error_message(), ": field 'l' entry 2 (") &&
              strstr(dvc_error_message(), ") is not below field 'u' entry 2 (") &&
              strstr(dvc_error_message(), "): need l < u"),
          "l = u: %s", dvc_error_message());
    snprintf(path, sizeof path, "%s/none.json", dir);
    CHECK(lvi_at(path) == DVC_ERR_IO && strstr(dvc_error_message(), path),
          "absent file: %s", dvc_error_message());
}

static void test_matrix(void)
{
    dvc_imat_t A;
    dvc_status st;
    dvc_imat_init(A, 0, 0);
    /* any rectangle, any field: the shape rules are the caller's */
    st = dvc_io_read_matrix(A, file("{\"A\": [[1, \"0.25\", 3], [4, 5, [\"-1\", \"1\"]]]}"), "A");
    CHECK(st == DVC_OK && A->r == 2 && A->c == 3, "2x3 matrix: %s", dvc_error_message());
    if (st == DVC_OK)
        CHECK(contains_ratio(dvc_imat_entry(A, 0, 1), 1, 4) && mpfr_equal_p(&dvc_imat_entry(A, 0, 1)->left, &dvc_imat_entry(A, 0, 1)->right) &&
                  contains_ratio(dvc_imat_entry(A, 1, 2), -1, 1) && contains_ratio(dvc_imat_entry(A, 1, 2), 1, 1),
              "entries: exact decimal, interval");
    /* a matrix of set size: the file must match it */
    st = dvc_io_read_matrix(A, file("{\"A\": [[1, 2], [3, 4]]}"), "A");
    CHECK(st == DVC_ERR_INPUT && message_is("field 'A' is 2x2, expected 2x3 (dimension mismatch)"),
          "size mismatch: %s", dvc_error_message());
    dvc_imat_clear(A);
    dvc_imat_init(A, 0, 0);
    CHECK(dvc_io_read_matrix(A, file("{\"A\": [[1]]}"), "M") == DVC_ERR_INPUT && message_is("missing field 'M'"),
          "missing field: %s", dvc_error_message());
    CHECK(dvc_io_read_matrix(A, file("{\"M\": [[1, 2], [3]]}"), "M") == DVC_ERR_INPUT &&
              strstr(dvc_error_message(), "field 'M' row 2"),
          "ragged rows: %s", dvc_error_message());
    /* on failure the contents are unspecified: start again from empty */
    dvc_imat_clear(A);
    dvc_imat_init(A, 0, 0);
    CHECK(dvc_io_read_matrix(A, file("{\"M\": [[\"1e400\"]]}"), "M") == DVC_ERR_INPUT &&
              strstr(dvc_error_message(), "field 'M' row 1 column 1"),
          "beyond binary64: %s", dvc_error_message());
    CHECK(dvc_io_read_matrix(A, file("[[1]]"), "M") == DVC_ERR_INPUT &&
              message_is("the top level must be a JSON object"),
          "not an object: %s", dvc_error_message());
    dvc_imat_clear(A);
}

int main(void)
{
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp");
    test_lvi();
    test_matrix();
    snprintf(path, sizeof path, "%s/in.json", dir);
    unlink(path);
    rmdir(dir);
    return check_report();
}
