/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Problem files: the time grid (h = T/N, or a shorter last step), exact rational entries,
 * constants, functions of t, digests. Randomized with a fixed seed; the
 * expected answers come from integer / rational arithmetic (GMP), not from
 * the code under test. */
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "io/json.h"
#include "io/problem_json.h"

static unsigned long long rng = 20121126ull;
static unsigned long rnd(unsigned long n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned long)((rng >> 33) % n);
}

/* The bridge problem with T, h or N replaced. */
static json_t *bridge(const char *T, const char *h, long N)
{
    char buf[1024];
    json_error_t err;
    json_t *j;
    snprintf(buf, sizeof buf,
             "{\"constants\": {\"gamma\": \"0.2\"}, \"A\": [[0, 1], [-4, 0]], \"B\": [[0], [-1]],"
             " \"f\": [\"0\", \"sin(4*t)\"], \"Q\": [[3, 0]], \"M\": [[1]], \"l\": [0],"
             " \"u\": [\"inf\"], \"x0\": [0, \"gamma\"], \"T\": \"%s\", \"theta\": 1}", T);
    j = json_loads(buf, 0, &err);
    if (h) json_object_set_new(j, "h", json_string(h));
    if (N > 0) json_object_set_new(j, "N", json_integer(N));
    return j;
}

/* Exact decimal text of a/b when it terminates (b = 2^i 5^j), else NULL. */
static char *decimal(const mpq_t q)
{
    mpz_t num, den;
    char *s, *out;
    long k = 0;
    mpz_init_set(num, mpq_numref(q));
    mpz_init_set(den, mpq_denref(q));
    /* multiply by 10 until the denominator divides */
    while (!mpz_divisible_p(num, den) && k < 60) {
        mpz_mul_ui(num, num, 10);
        k++;
    }
    if (!mpz_divisible_p(num, den)) {
        mpz_clears(num, den, NULL);
        return NULL;
    }
    mpz_divexact(num, num, den);
    s = mpz_get_str(NULL, 10, num);
    out = malloc(strlen(s) + 80);
    if (out) snprintf(out, strlen(s) + 80, "%se-%ld", s, k);
    free(s);
    mpz_clears(num, den, NULL);
    return out;
}

/* The grid of an h that does not divide T, from rationals: the step is
 * the largest double <= h (MPFR's correctly rounded conversion of the
 * decimal), N = ceil(T / step); T must be a binary number. */
static void expect_short_grid(const dvc_dlvi_problem_t P, dvc_status st, const mpq_t T, const char *Ts,
                              const char *hs, long *shortg, long *refused)
{
    mpfr_t hd;
    mpq_t q;
    mpz_t N;
    int binary = mpz_popcount(mpq_denref(T)) == 1; /* denominator a power of 2 */
    if (!binary) {
        CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "field 'h'") &&
                  strstr(dvc_error_message(), "'T'"),
              "T = %s (not binary), h = %s: status %d (%s)", Ts, hs, (int)st, dvc_error_message());
        *refused += st == DVC_ERR_INPUT;
        return;
    }
    mpfr_init2(hd, 53);
    mpq_init(q);
    mpz_init(N);
    mpfr_set_str(hd, hs, 10, MPFR_RNDD);
    mpfr_get_q(q, hd);
    mpq_div(q, T, q);
    mpz_cdiv_q(N, mpq_numref(q), mpq_denref(q));
    CHECK(st == DVC_OK && P->h == mpfr_get_d(hd, MPFR_RNDN) && mpz_cmp_si(N, P->N) == 0,
          "T = %s, h = %s: status %d, N = %ld (expected %ld), step %a (expected %a): %s", Ts, hs, (int)st,
          P->N, mpz_get_si(N), P->h, mpfr_get_d(hd, MPFR_RNDN), st == DVC_OK ? "" : dvc_error_message());
    *shortg += st == DVC_OK;
    mpfr_clear(hd);
    mpq_clear(q);
    mpz_clear(N);
}

static void test_grid(void)
{
    long accepted = 0, rejected = 0, shortg = 0;
    for (int it = 0; it < 300; it++) {
        /* T = a / 10^p, N = 2^i 5^j (h terminates) or with a factor 3, 7, 11 */
        unsigned long a = 1 + rnd(100000), p = rnd(4);
        long N = 1;
        int dividing = rnd(2) == 0;
        mpq_t T, h;
        char Ts[64], *hs;
        dvc_dlvi_problem_t P;
        json_t *j;
        dvc_status st;
        for (int k = (int)rnd(5); k > 0; k--) N *= 2;
        for (int k = (int)rnd(4); k > 0; k--) N *= 5;
        if (!dividing) N *= (long)(3 + 4 * rnd(2) + (rnd(3) == 0 ? 4 : 0)); /* 3, 7, 11 */
        mpq_inits(T, h, NULL);
        mpq_set_ui(T, a, 1);
        for (unsigned long k = 0; k < p; k++) mpz_mul_ui(mpq_denref(T), mpq_denref(T), 10);
        mpq_canonicalize(T);
        snprintf(Ts, sizeof Ts, "%lue-%lu", a, p);
        mpq_set_si(h, 1, (unsigned long)N);
        mpq_mul(h, h, T);
        hs = decimal(h);
        dividing = hs != NULL;
        if (hs == NULL) {
            /* 15 significant digits of T/N: close to, but not, a divisor */
            char buf[64];
            gmp_snprintf(buf, sizeof buf, "%.15e", mpq_get_d(h));
            hs = strdup(buf);
        }
        j = bridge(Ts, hs, 0);
        dvc_dlvi_problem_init(P, 0, 0, 0);
        st = dvc_problem_from_json(P, NULL, j, "grid.json", NULL, 0);
        if (dividing) {
            /* exact decimal h: must give exactly N */
            CHECK(st == DVC_OK && P->N == N && P->h == 0, "T = %s, h = %s: status %d, N = %ld, expected %ld "
                  "on a uniform grid (%s)", Ts, hs, (int)st, P->N, N, dvc_error_message());
            accepted += st == DVC_OK;
        } else {
            /* not a divisor: a shorter last step when T is binary */
            expect_short_grid(P, st, T, Ts, hs, &shortg, &rejected);
        }
        dvc_dlvi_problem_clear(P);
        json_decref(j);
        free(hs);
        mpq_clears(T, h, NULL);
    }
    CHECK(accepted > 50 && rejected > 30 && shortg > 10, "every case exercised: %ld accepted, %ld "
          "rejected, %ld with a shorter last step", accepted, rejected, shortg);
}

/* Field 'grid': exact binary64 times (hexadecimal, exact decimals,
 * integers) read as they are, N taken from them, h left 0; a decimal that
 * is not a binary64 number, one ulp past T and a grid with h refused. */
static void test_time_grid(void)
{
    dvc_dlvi_problem_t P;
    json_t *j, *g;
    dvc_status st;
    static const double want[] = {0.0, 0x1.0624dd2f1a9fcp-10, 0.375, 0.5, 1.0};
    dvc_dlvi_problem_init(P, 0, 0, 0);
    j = bridge("1", NULL, 0);
    g = json_pack("[s, s, s, s, i]", "0x0p+0", "0x1.0624dd2f1a9fcp-10", "0.375", "0x1p-1", 1);
    json_object_set_new(j, "grid", g);
    st = dvc_problem_from_json(P, NULL, j, "tg.json", NULL, 0);
    CHECK(st == DVC_OK && P->grid && P->N == 4 && P->h == 0, "grid: %s", dvc_error_message());
    for (long i = 0; st == DVC_OK && i <= 4; i++) CHECK(P->grid[i] == want[i], "grid entry %ld: %a", i + 1, P->grid[i]);
    /* 0.001 is not a binary64 number (its nearest double is 0x1.0624dd2f1a9fcp-10) */
    json_array_set_new(g, 1, json_string("0.001"));
    st = dvc_problem_from_json(P, NULL, j, "tg.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "tg.json: field 'grid' entry 2: '0.001' is not a binary64"),
          "0.001 refused: %s", dvc_error_message());
    json_array_set_new(g, 1, json_string("0x1.0624dd2f1a9fcp-10"));
    json_array_set_new(g, 4, json_string("0x1.0000000000001p+0"));
    st = dvc_problem_from_json(P, NULL, j, "tg.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "entry 5: the grid ends at"), "one ulp past T: %s",
          dvc_error_message());
    json_array_set_new(g, 4, json_integer(1));
    json_object_set_new(j, "N", json_integer(4));
    st = dvc_problem_from_json(P, NULL, j, "tg.json", NULL, 0);
    CHECK(st == DVC_OK && P->N == 4, "grid with an agreeing N: %s", dvc_error_message());
    json_object_set_new(j, "h", json_string("0.25"));
    st = dvc_problem_from_json(P, NULL, j, "tg.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "'grid' and 'h'"), "grid with h: %s", dvc_error_message());
    json_decref(j);
    dvc_dlvi_problem_clear(P);
}

static void test_N_and_h(void)
{
    dvc_dlvi_problem_t P;
    json_t *j;
    dvc_status st;
    dvc_dlvi_problem_init(P, 0, 0, 0);
    j = bridge("1", NULL, 7);
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_OK && P->N == 7, "N alone: %s", dvc_error_message());
    json_decref(j);
    j = bridge("1", "0.25", 4);
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_OK && P->N == 4, "h and N agree: %s", dvc_error_message());
    json_decref(j);
    j = bridge("1", "0.25", 5);
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "disagree"), "h and N disagree: %s",
          dvc_error_message());
    json_decref(j);
    j = bridge("1", NULL, 0);
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "'h'"), "neither h nor N: %s",
          dvc_error_message());
    json_decref(j);
    /* h does not divide T: N = ceil(T/h) steps, the last shorter */
    j = bridge("1", "0.3", 0);
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_OK && P->N == 4 && P->h == 0.3, "h = 0.3, T = 1: N = %ld, h = %.17g (%s)", P->N, P->h,
          dvc_error_message());
    json_decref(j);
    j = bridge("1", "0.3", 4);
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_OK && P->N == 4, "h = 0.3 and N = 4 agree: %s", dvc_error_message());
    json_decref(j);
    j = bridge("1", "0.3", 3);
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "disagree"), "h = 0.3 and N = 3: %s",
          dvc_error_message());
    json_decref(j);
    j = bridge("1", "2.5", 0);
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_OK && P->N == 1 && P->h == 0, "h = 2.5 > T = 1: one step [0, T] (uniform, N = 1): N = %ld, "
          "h = %g (%s)", P->N, P->h, dvc_error_message());
    json_decref(j);
    j = bridge("0.1", "0.03", 0);
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "field 'T'"), "decimal T = 0.1, h = 0.03: %s",
          dvc_error_message());
    json_decref(j);
    /* a JSON real h: enclosed as a double, 0.1 still divides 1 */
    j = bridge("1", NULL, 0);
    json_object_set_new(j, "h", json_real(0.1));
    st = dvc_problem_from_json(P, NULL, j, "n.json", NULL, 0);
    CHECK(st == DVC_OK && P->N == 10, "JSON real h = 0.1: %s", dvc_error_message());
    json_decref(j);
    dvc_dlvi_problem_clear(P);
}

/* Rational entries p/q and constants: enclosures contain the exact value and
 * are a few ulps wide. */
static void test_rationals(void)
{
    for (int it = 0; it < 200; it++) {
        long p = (long)rnd(2000001) - 1000000, q = 1 + (long)rnd(99999);
        char e[64], buf[1024];
        json_t *j;
        json_error_t err;
        dvc_dlvi_problem_t P;
        dvc_status st;
        mpq_t ex, lo, hi;
        mpfr_prec_t prec = it % 2 ? 53 : 200;
        snprintf(e, sizeof e, it % 3 == 0 ? "c/%ld" : "%ld/%ld", it % 3 == 0 ? q : p, q);
        snprintf(buf, sizeof buf,
                 "{\"constants\": {\"c\": \"%ld\"}, \"A\": [[\"%s\"]], \"B\": [[1]], \"Q\": [[1]],"
                 " \"M\": [[1]], \"l\": [0], \"u\": [\"inf\"], \"x0\": [0], \"T\": 1, \"N\": 1}", p, e);
        j = json_loads(buf, 0, &err);
        dvc_dlvi_problem_init(P, 0, 0, 0);
        st = dvc_problem_from_json(P, NULL, j, "r.json", NULL, prec);
        mpq_inits(ex, lo, hi, NULL);
        mpq_set_si(ex, p, (unsigned long)q);
        mpq_canonicalize(ex);
        if (st == DVC_OK) {
            mpfr_t w;
            mpfr_get_q(lo, &dvc_imat_entry(P->A, 0, 0)->left);
            mpfr_get_q(hi, &dvc_imat_entry(P->A, 0, 0)->right);
            mpfr_init2(w, prec);
            mpfi_diam_abs(w, dvc_imat_entry(P->A, 0, 0));
            CHECK(mpq_cmp(lo, ex) <= 0 && mpq_cmp(ex, hi) <= 0, "%s not enclosed", e);
            CHECK(p == 0 || mpfr_get_d(w, MPFR_RNDU) <= 4 * mpq_get_d(ex) * (mpq_sgn(ex) < 0 ? -1 : 1) *
                                                          ldexp(1.0, 1 - (int)prec),
                  "%s: enclosure too wide (prec %ld)", e, (long)prec);
            CHECK(P->prec == prec, "precision %ld, wanted %ld", (long)P->prec, (long)prec);
            mpfr_clear(w);
        } else {
            CHECK(0, "%s: %s", e, dvc_error_message());
        }
        mpq_clears(ex, lo, hi, NULL);
        dvc_dlvi_problem_clear(P);
        json_decref(j);
    }
}

static void test_digest(void)
{
    json_error_t err;
    json_t *a = json_loads("{\"A\": [[1, 2]], \"T\": \"1\", \"f\": [\"sin(t)\"]}", 0, &err);
    json_t *b = json_loads("{\"f\": [\"sin(t)\"], \"T\": \"1\", \"A\": [[1, 2]]}", 0, &err);
    json_t *c = json_loads("{\"f\": [\"sin(t)\"], \"T\": \"1\", \"A\": [[1, 3]]}", 0, &err);
    char da[17], db[17], dc[17];
    CHECK(dvc_json_digest(da, a) == DVC_OK, "digest");
    dvc_json_digest(db, b);
    dvc_json_digest(dc, c);
    CHECK(strcmp(da, db) == 0, "key order must not matter: %s vs %s", da, db);
    CHECK(strcmp(da, dc) != 0, "an edit must change the digest");
    CHECK(strlen(da) == 16, "16 hex digits");
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

/* f and g: expressions, constants and missing entries reach the engine's
 * callbacks with the right values. */
static void test_funs(void)
{
    json_t *j = bridge("1", NULL, 10);
    dvc_dlvi_problem_t P;
    dvc_ivec_t v;
    mpfi_t t;
    mpfr_t L;
    dvc_status st;
    dvc_dlvi_problem_init(P, 0, 0, 0);
    st = dvc_problem_from_json(P, NULL, j, "f.json", NULL, 0);
    REQUIRE(st == DVC_OK, "%s", dvc_error_message());
    CHECK(P->fcb.eval != NULL && P->fcb.k == 2, "f attached");
    CHECK(P->gcb.eval == NULL, "missing g is zero");
    dvc_ivec_init(v, 2);
    mpfi_init(t);
    mpfr_init(L);
    mpfi_interv_d(t, 0.25, 0.25);
    st = P->fcb.eval(v, t, P->fcb.ctx);
    CHECK(st == DVC_OK && mpfi_is_zero(v->e[0]) && mpfi_is_inside_d(sin(1.0), v->e[1]),
          "f(0.25) = (0, sin 1)");
    mpfi_interv_d(t, 0, 1);
    st = P->fcb.lipschitz(L, t, P->fcb.ctx);
    CHECK(st == DVC_OK && mpfr_cmp_d(L, 4.0) >= 0 && mpfr_cmp_d(L, 4.001) <= 0,
          "Lipschitz constant of sin 4t on [0, 1] in [4, 4.001]");
    dvc_dlvi_problem_clear(P);
    json_decref(j);
    /* bad entries name the field */
    j = bridge("1", NULL, 10);
    json_object_set_new(j, "g", json_pack("[s]", "log(t - 2)"));
    dvc_dlvi_problem_init(P, 0, 0, 0);
    st = dvc_problem_from_json(P, NULL, j, "g.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "g.json: field 'g' entry 1"),
          "log of a negative interval: %s", dvc_error_message());
    dvc_dlvi_problem_clear(P);
    json_decref(j);
    j = bridge("1", NULL, 10);
    json_object_set_new(j, "f", json_pack("[s, {s:s}]", "0", "csv", "x.csv"));
    dvc_dlvi_problem_init(P, 0, 0, 0);
    st = dvc_problem_from_json(P, NULL, j, "h.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "self-contained"),
          "file references refused without basedir: %s", dvc_error_message());
    dvc_dlvi_problem_clear(P);
    json_decref(j);
    dvc_ivec_clear(v);
    mpfi_clear(t);
    mpfr_clear(L);
}

/* The public reader (no jansson in its interface): a file in, a problem
 * with its callbacks out; a bad file leaves an empty problem behind. */
static void test_read_file(void)
{
    const char *path = "test_problem_read.json";
    FILE *f = fopen(path, "w");
    dvc_dlvi_problem_t P;
    dvc_ivec_t v;
    mpfi_t t;
    dvc_status st;
    REQUIRE(f != NULL, "cannot write %s", path);
    fputs("{\"A\": [[0, 1], [-4, 0]], \"B\": [[0], [-1]], \"Q\": [[3, 0]], \"M\": [[1]],"
          " \"l\": [0], \"u\": [\"inf\"], \"x0\": [0, \"0.2\"], \"f\": [null, \"3\"],"
          " \"T\": 1, \"N\": 10}\n", f);
    fclose(f);
    dvc_dlvi_problem_init(P, 0, 0, 0);
    /* the file's precision (53 by default), whatever the working precision */
    dvc_prec_set(30);
    st = dvc_problem_read(P, path, 0);
    CHECK(dvc_prec_get() == 30, "working precision left alone");
    dvc_prec_set(DVC_DEFAULT_PREC);
    CHECK(st == DVC_OK, "read: %s", dvc_error_message());
    CHECK(P->prec == 53 && mpfi_get_prec(dvc_imat_entry(P->A, 1, 0)) == 53 && mpfi_get_prec(P->x0->e[1]) == 53,
          "entries at 53 bits");
    CHECK(P->n == 2 && P->m == 1 && P->N == 10 && mpfr_cmp_ui(&P->theta->left, 1) == 0, "dimensions, N, theta");
    CHECK(P->fcb.eval != NULL && P->fcb.release != NULL && P->gcb.eval == NULL, "f attached and owned, g = 0");
    if (st == DVC_OK && P->fcb.eval) {
        dvc_ivec_init2(v, 2, 53);
        mpfi_init2(t, 53);
        mpfi_interv_d(t, 0.25, 0.5);
        st = P->fcb.eval(v, t, P->fcb.ctx);
        CHECK(st == DVC_OK && mpfi_is_zero(v->e[0]) && mpfr_cmp_ui(&v->e[1]->left, 3) == 0 &&
                  mpfr_cmp_ui(&v->e[1]->right, 3) == 0,
              "f = (0, 3)");
        dvc_ivec_clear(v);
        mpfi_clear(t);
    }
    /* a bad file: named error, empty problem */
    f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s", path);
    fputs("{\"A\": [[0]], \"B\": [[1]], \"Q\": [[1]], \"M\": [[1]], \"l\": [0], \"u\": [\"inf\"],"
          " \"x0\": [\"1e309\"], \"T\": 1, \"N\": 10}\n", f);
    fclose(f);
    st = dvc_problem_read(P, path, 0);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "field 'x0' entry 1"), "x0 = 1e309: %s",
          dvc_error_message());
    CHECK(P->n == 0 && P->m == 0 && P->fcb.eval == NULL, "empty after an error");
    dvc_dlvi_problem_clear(P);
    remove(path);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* Table files: relative to the problem's directory and inside its tree
 * (after links and '..') unless the policy allows otherwise; bounded. */
static void test_table_files(void)
{
    char top[] = "/tmp/dvc_problem_XXXXXX", dir[64], path[128], link[128];
    const char *table = "0,1\n0.5,2\n1,3\n"; /* 14 bytes */
    dvc_table_policy pol = {0, 0};
    dvc_dlvi_problem_t P;
    json_t *j, *res = NULL;
    dvc_status st;
    REQUIRE(mkdtemp(top) != NULL, "mkdtemp");
    snprintf(dir, sizeof dir, "%s/proj", top);
    REQUIRE(mkdir(dir, 0700) == 0, "mkdir %s", dir);
    snprintf(path, sizeof path, "%s/in.csv", dir);
    write_text(path, table);
    snprintf(path, sizeof path, "%s/out.csv", top);
    write_text(path, table);
    dvc_dlvi_problem_init(P, 0, 0, 0);

    /* inside: read and embedded */
    j = bridge("1", NULL, 10);
    json_object_set_new(j, "f", json_pack("[s, {s:s}]", "0", "csv", "in.csv"));
    st = dvc_problem_from_json(P, &res, j, "p.json", dir, 0);
    CHECK(st == DVC_OK, "table inside the tree: %s", dvc_error_message());
    CHECK(res && json_is_string(json_object_get(json_array_get(json_object_get(res, "f"), 1), "csv_text")) &&
              strcmp(json_string_value(json_object_get(json_array_get(json_object_get(res, "f"), 1), "csv_text")),
                     table) == 0,
          "table embedded");
    json_decref(res);
    res = NULL;
    /* the size limit of the policy: 14 bytes read, 13 refused */
    pol.max_bytes = 14;
    st = dvc_problem_from_json_policy(P, NULL, j, "p.json", dir, 0, &pol);
    CHECK(st == DVC_OK, "table at the size limit: %s", dvc_error_message());
    pol.max_bytes = 13;
    st = dvc_problem_from_json_policy(P, NULL, j, "p.json", dir, 0, &pol);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "p.json: field 'f' entry 2: ") &&
              strstr(dvc_error_message(), "limit of 13 bytes"),
          "table over the size limit: %s", dvc_error_message());
    pol.max_bytes = 0;
    json_decref(j);

    /* outside by '..', by an absolute path, by a link: refused, allowed by policy */
    for (int k = 0; k < 3; k++) {
        const char *name = "../out.csv";
        if (k == 1) name = path;
        if (k == 2) {
            snprintf(link, sizeof link, "%s/link.csv", dir);
            REQUIRE(symlink("../out.csv", link) == 0, "symlink");
            name = "link.csv";
        }
        j = bridge("1", NULL, 10);
        json_object_set_new(j, "f", json_pack("[s, {s:s}]", "0", "csv", name));
        st = dvc_problem_from_json(P, NULL, j, "p.json", dir, 0);
        CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "p.json: field 'f' entry 2: table file") &&
                  strstr(dvc_error_message(), "outside the problem file's directory"),
              "outside table %s refused: %s", name, dvc_error_message());
        CHECK(P->n == 0 || P->fcb.eval == NULL, "no f attached");
        pol.allow_outside = 1;
        st = dvc_problem_from_json_policy(P, NULL, j, "p.json", dir, 0, &pol);
        CHECK(st == DVC_OK, "outside table %s allowed by the policy: %s", name, dvc_error_message());
        pol.allow_outside = 0;
        json_decref(j);
    }
    /* a link inside the tree to a file inside it is fine */
    snprintf(link, sizeof link, "%s/inlink.csv", dir);
    REQUIRE(symlink("in.csv", link) == 0, "symlink");
    j = bridge("1", NULL, 10);
    json_object_set_new(j, "f", json_pack("[s, {s:s}]", "0", "csv", "inlink.csv"));
    st = dvc_problem_from_json(P, NULL, j, "p.json", dir, 0);
    CHECK(st == DVC_OK, "link inside the tree: %s", dvc_error_message());
    json_decref(j);
    /* an embedded table's error names the field once, then the table line */
    j = bridge("1", NULL, 10);
    json_object_set_new(j, "f", json_pack("[s, {s:s}]", "0", "csv_text", "0,1\n1,x\n"));
    st = dvc_problem_from_json(P, NULL, j, "p.json", NULL, 0);
    CHECK(st == DVC_ERR_INPUT &&
              strcmp(dvc_error_message(), "p.json: field 'f' entry 2: table line 2: value 'x' is not a number") == 0,
          "embedded table message: %s", dvc_error_message());
    json_decref(j);
    dvc_dlvi_problem_clear(P);
    unlink(link);
    snprintf(link, sizeof link, "%s/link.csv", dir);
    unlink(link);
    snprintf(link, sizeof link, "%s/in.csv", dir);
    unlink(link);
    unlink(path);
    rmdir(dir);
    rmdir(top);
}

int main(void)
{
    test_read_file();
    test_grid();
    test_N_and_h();
    test_time_grid();
    test_rationals();
    test_digest();
    test_funs();
    test_table_files();
    return check_report();
}
