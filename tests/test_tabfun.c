/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Tabulated functions: ranges and Lipschitz constants over random time
 * intervals checked against exact rational (GMP mpq) interpolation of the
 * same decimal data, both AT2 layouts, CSV, scale factors, every bad-input
 * case, the dvc_tfun wrapper, and functions of t as problem-file fields.
 * argv[1] is the tests/data directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "dvicert/dvicert.h"
#include "dvicert/tfun.h"
#include "io/problem_json.h"

static const char *datadir = "tests/data";

/* Exact value of a decimal literal ("-.25E-01"), parsed independently of
 * the library. */
static void dec_to_q(mpq_t q, const char *s)
{
    mpz_t m, p;
    long e = 0;
    int neg = 0;
    char digits[128];
    size_t nd = 0;
    mpz_inits(m, p, NULL);
    while (*s == ' ') s++;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    for (; *s >= '0' && *s <= '9'; s++) digits[nd++] = *s;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, e--) digits[nd++] = *s;
    if (*s == 'e' || *s == 'E') e += strtol(s + 1, NULL, 10);
    digits[nd] = '\0';
    mpz_set_str(m, nd ? digits : "0", 10);
    if (neg) mpz_neg(m, m);
    mpz_ui_pow_ui(p, 10, (unsigned long)(e < 0 ? -e : e));
    if (e >= 0) {
        mpz_mul(m, m, p);
        mpz_set_ui(p, 1);
    }
    mpq_set_num(q, m);
    mpq_set_den(q, p);
    mpq_canonicalize(q);
    mpz_clears(m, p, NULL);
}

static int contains_q(const mpfi_t x, const mpq_t q)
{
    return mpfr_cmp_q(&x->left, q) <= 0 && mpfr_cmp_q(&x->right, q) >= 0;
}

/* Exact reference table. */
typedef struct {
    long n;
    mpq_t *t, *v;
} qtab;

static void qtab_init(qtab *q, long n, const char *const *ts, const char *const *vs, const char *scale)
{
    mpq_t s;
    mpq_init(s);
    if (scale) dec_to_q(s, scale);
    else mpq_set_ui(s, 1, 1);
    q->n = n;
    q->t = malloc((size_t)n * sizeof *q->t);
    q->v = malloc((size_t)n * sizeof *q->v);
    for (long k = 0; k < n; k++) {
        mpq_inits(q->t[k], q->v[k], NULL);
        dec_to_q(q->t[k], ts[k]);
        dec_to_q(q->v[k], vs[k]);
        mpq_mul(q->v[k], q->v[k], s);
    }
    mpq_clear(s);
}

static void qtab_clear(qtab *q)
{
    for (long k = 0; k < q->n; k++) mpq_clears(q->t[k], q->v[k], NULL);
    free(q->t);
    free(q->v);
}

/* Exact f(x), x in [t0, tN]. */
static void qeval(mpq_t r, const qtab *q, const mpq_t x)
{
    long k = 0;
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    /* the documented convention: end values continue f within rounding of the ends */
    if (mpq_cmp(x, q->t[0]) <= 0 || mpq_cmp(x, q->t[q->n - 1]) >= 0) {
        mpq_set(r, q->v[mpq_cmp(x, q->t[0]) <= 0 ? 0 : q->n - 1]);
        mpq_clears(a, b, NULL);
        return;
    }
    while (k + 2 < q->n && mpq_cmp(x, q->t[k + 1]) > 0) k++;
    mpq_sub(a, x, q->t[k]);
    mpq_sub(b, q->t[k + 1], q->t[k]);
    mpq_div(a, a, b);
    mpq_sub(b, q->v[k + 1], q->v[k]);
    mpq_mul(a, a, b);
    mpq_add(r, q->v[k], a);
    mpq_clears(a, b, NULL);
}

/* Exact range over [a, b] and max |slope| of segments meeting [a, b]. */
static void qrange(mpq_t lo, mpq_t hi, mpq_t lip, const qtab *q, const mpq_t a, const mpq_t b)
{
    mpq_t y, s, d;
    mpq_inits(y, s, d, NULL);
    qeval(lo, q, a);
    mpq_set(hi, lo);
    qeval(y, q, b);
    if (mpq_cmp(y, lo) < 0) mpq_set(lo, y);
    if (mpq_cmp(y, hi) > 0) mpq_set(hi, y);
    mpq_set_ui(lip, 0, 1);
    for (long k = 0; k < q->n; k++) {
        if (mpq_cmp(q->t[k], a) >= 0 && mpq_cmp(q->t[k], b) <= 0) {
            if (mpq_cmp(q->v[k], lo) < 0) mpq_set(lo, q->v[k]);
            if (mpq_cmp(q->v[k], hi) > 0) mpq_set(hi, q->v[k]);
        }
        if (k + 1 < q->n && mpq_cmp(q->t[k], b) <= 0 && mpq_cmp(q->t[k + 1], a) >= 0) {
            mpq_sub(s, q->v[k + 1], q->v[k]);
            mpq_sub(d, q->t[k + 1], q->t[k]);
            mpq_div(s, s, d);
            mpq_abs(s, s);
            if (mpq_cmp(s, lip) > 0) mpq_set(lip, s);
        }
    }
    mpq_clears(y, s, d, NULL);
}

/* Random checks of f against q over intervals inside [t0, tN]. */
static void check_against(const dvc_tabfun_t f, const qtab *q, double t0, double tN, unsigned long long seed,
                          int ncases)
{
    check_rng r = {seed};
    mpfi_t T, R;
    mpfr_t L, G;
    mpq_t a, b, lo, hi, lip, x, y, fx, fy, dq;
    mpfi_init2(T, 53);
    mpfi_init2(R, 53);
    mpfr_inits2(53, L, G, (mpfr_ptr)0);
    mpq_inits(a, b, lo, hi, lip, x, y, fx, fy, dq, NULL);
    tN -= 1e-12 * (tN - t0); /* stay clear of the rounding of the last time */
    /* global max slope, for a tightness check of L */
    mpq_set_d(a, t0);
    mpq_set_d(b, tN);
    qrange(lo, hi, lip, q, a, b);
    mpfr_set_q(G, lip, MPFR_RNDU);
    for (int i = 0; i < ncases; i++) {
        double u = check_rng_unif(&r, t0, tN), w;
        int kind = i % 4;
        w = kind == 0 ? 0 : kind == 1 ? 1e-4 : kind == 2 ? 0.01 : 0.5;
        w *= check_rng_unif(&r, 0, 1) * (tN - t0);
        if (u + w > tN) w = tN - u;
        if (i % 50 == 0) { /* whole range, and a sample time exactly (k*DT or a listed time) */
            u = t0;
            w = tN - t0;
        }
        mpfi_interv_d(T, u, u + w);
        mpq_set_d(a, mpfr_get_d(&T->left, MPFR_RNDN));
        mpq_set_d(b, mpfr_get_d(&T->right, MPFR_RNDN));
        qrange(lo, hi, lip, q, a, b);
        CHECK(dvc_tabfun_eval_lip(R, L, f, T) == DVC_OK, "eval_lip on [%g, %g]: %s", u, u + w,
              dvc_error_message());
        CHECK(contains_q(R, lo) && contains_q(R, hi), "range on [%.17g, %.17g] contains the exact range", u,
              u + w);
        CHECK(mpfr_cmp_q(L, lip) >= 0, "Lipschitz bound >= max slope on [%.17g, %.17g]", u, u + w);
        {
            /* tight: no more than 1e-9 outside the exact range, L not above the global slope */
            mpq_t e;
            mpfr_t m;
            mpq_init(e);
            mpfr_init2(m, 53);
            mpq_set_d(e, 1e-9);
            mpq_sub(lo, lo, e);
            mpq_add(hi, hi, e);
            mpfr_set_q(m, lo, MPFR_RNDD);
            CHECK(mpfr_cmp(&R->left, m) >= 0, "range lower end tight on [%.17g, %.17g]", u, u + w);
            mpfr_set_q(m, hi, MPFR_RNDU);
            CHECK(mpfr_cmp(&R->right, m) <= 0, "range upper end tight on [%.17g, %.17g]", u, u + w);
            mpfr_mul_d(m, G, 1 + 1e-12, MPFR_RNDU);
            CHECK(mpfr_cmp(L, m) <= 0, "Lipschitz bound not above the global max slope");
            mpq_clear(e);
            mpfr_clear(m);
        }
        /* difference quotients at random rational points of T */
        for (int j = 0; j < 4 && w > 0; j++) {
            double xs = check_rng_unif(&r, u, u + w), ys = check_rng_unif(&r, u, u + w);
            if (xs == ys) continue;
            mpq_set_d(x, xs);
            mpq_set_d(y, ys);
            qeval(fx, q, x);
            qeval(fy, q, y);
            mpq_sub(dq, fx, fy);
            mpq_sub(fx, x, y);
            mpq_div(dq, dq, fx);
            mpq_abs(dq, dq);
            CHECK(mpfr_cmp_q(L, dq) >= 0, "difference quotient <= L");
            /* point value */
            mpfi_set_d(T, xs);
            qeval(fx, q, x);
            CHECK(dvc_tabfun_eval(R, f, T) == DVC_OK && contains_q(R, fx), "point value at %.17g", xs);
        }
    }
    mpq_clears(a, b, lo, hi, lip, x, y, fx, fy, dq, NULL);
    mpfi_clear(T);
    mpfi_clear(R);
    mpfr_clears(L, G, (mpfr_ptr)0);
}

static const char *at2_vals[12] = {".1000000E-02", "-.2500000E-02", ".3100000E-01", ".1234567E+00",
                                   "-.5000000E-01", "-.7700000E-01", ".0000000E+00", ".1100000E+00",
                                   ".9999999E-01", "-.3333333E-01", ".1000000E-02", "-.1000000E-01"};

static char *path_of(const char *file)
{
    size_t n = strlen(datadir) + strlen(file) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", datadir, file);
    return p;
}

static void test_at2(void)
{
    const char *files[2] = {"tab_small.AT2", "tab_old.AT2"};
    char ts[12][32];
    const char *tp[12];
    qtab q, qs;
    mpfi_t scale, x;
    for (int k = 0; k < 12; k++) { /* t_k = k * 0.005, written as decimals */
        snprintf(ts[k], sizeof ts[k], "%d.%03d", (k * 5) / 1000, (k * 5) % 1000);
        tp[k] = ts[k];
    }
    qtab_init(&q, 12, tp, at2_vals, NULL);
    qtab_init(&qs, 12, tp, at2_vals, "9.80665");
    mpfi_init2(scale, 53);
    mpfi_init2(x, 53);
    dvc_ival_set_str(scale, "9.80665");
    for (int i = 0; i < 2; i++) {
        char *path = path_of(files[i]);
        dvc_tabfun_t f;
        dvc_tabfun_init(f);
        CHECK(dvc_tabfun_read(f, path, NULL, NULL) == DVC_OK, "read %s: %s", path, dvc_error_message());
        CHECK(f->n == 12 && f->uniform, "12 samples on a uniform grid");
        CHECK(f->units && strcmp(f->units, "ACCELERATION TIME SERIES IN UNITS OF G") == 0, "units line");
        for (long k = 0; k < f->n && k < 12; k++) {
            CHECK(contains_q(f->v[k], q.v[k]), "value %ld exact", k);
            CHECK(contains_q(f->t[k], q.t[k]), "time %ld = k*DT", k);
        }
        dvc_tabfun_tmax(x, f);
        CHECK(contains_q(x, q.t[11]), "tmax = 11*DT");
        check_against(f, &q, 0, 0.055, 11 + (unsigned long long)i, 400);
        /* scaled to m/s^2 */
        CHECK(dvc_tabfun_read_at2(f, path, scale) == DVC_OK, "read scaled");
        for (long k = 0; k < f->n && k < 12; k++) CHECK(contains_q(f->v[k], qs.v[k]), "scaled value %ld", k);
        check_against(f, &qs, 0, 0.055, 21 + (unsigned long long)i, 200);
        /* outside the record: error naming the file */
        mpfi_interv_d(x, 0.05, 0.06);
        CHECK(dvc_tabfun_eval(x, f, x) == DVC_ERR_INPUT && strstr(dvc_error_message(), files[i]),
              "t beyond the record: %s", dvc_error_message());
        mpfi_interv_d(x, -0.001, 0.001);
        CHECK(dvc_tabfun_eval(x, f, x) == DVC_ERR_INPUT, "t before the record");
        /* the end time computed as 11*[DT] by the caller is accepted */
        dvc_ival_set_str(x, "0.005");
        mpfi_mul_ui(x, x, 11);
        CHECK(dvc_tabfun_eval(x, f, x) == DVC_OK && contains_q(x, qs.v[11]), "t = 11*DT accepted");
        dvc_tabfun_clear(f);
        free(path);
    }
    mpfi_clear(scale);
    mpfi_clear(x);
    qtab_clear(&q);
    qtab_clear(&qs);
}

static void test_csv(void)
{
    const char *ts[8] = {"0", "0.1", "0.25", "0.3", "0.7", "1.1", "1.15", "2"};
    const char *vs[8] = {"0.5", "-0.25", "1.75", "1.7", "0", "-3.1", "2.2", "0.001"};
    qtab q;
    char *path = path_of("tab_small.csv");
    dvc_tabfun_t f;
    qtab_init(&q, 8, ts, vs, NULL);
    dvc_tabfun_init(f);
    CHECK(dvc_tabfun_read(f, path, NULL, NULL) == DVC_OK, "read csv: %s", dvc_error_message());
    CHECK(f->n == 8 && !f->uniform, "8 samples");
    for (long k = 0; k < f->n && k < 8; k++)
        CHECK(contains_q(f->t[k], q.t[k]) && contains_q(f->v[k], q.v[k]), "sample %ld exact", k);
    check_against(f, &q, 0, 2, 5, 600);
    /* the same data without header, blank separated, at 200 bits */
    {
        dvc_tabfun_t g;
        dvc_tabfun_init2(g, 200);
        CHECK(dvc_tabfun_parse_csv(g, "0 0.5\n0.1 -0.25\n\n0.25   1.75\r\n0.3\t1.7\n0.7 0\n1.1 -3.1\n1.15 2.2\n2 0.001",
                                   "mem.csv", NULL) == DVC_OK,
              "blank-separated csv: %s", dvc_error_message());
        check_against(g, &q, 0, 2, 6, 200);
        dvc_tabfun_clear(g);
    }
    dvc_tabfun_clear(f);
    qtab_clear(&q);
    free(path);
}

/* A random large uniform table against exact arithmetic (many segments per T). */
static void test_random_table(void)
{
    enum { N = 400 };
    char tsb[N][32], vsb[N][32];
    const char *tp[N], *vp[N];
    char *text = malloc(N * 64 + 256), *p;
    check_rng r = {4242};
    qtab q;
    dvc_tabfun_t f;
    p = text;
    p += sprintf(p, "PEER NGA STRONG MOTION DATABASE RECORD\nrandom\nACCELERATION TIME SERIES IN UNITS OF G\n"
                    "NPTS=  %d, DT=   .0200 SEC,   0 POLE @    30.00000 HZ\n", N);
    for (int k = 0; k < N; k++) {
        long m = check_rng_int(&r, -999999, 999999);
        int e = (int)check_rng_int(&r, -4, 1);
        snprintf(vsb[k], sizeof vsb[k], "%c.%06ldE%+03d", m < 0 ? '-' : ' ', labs(m), e);
        snprintf(tsb[k], sizeof tsb[k], "%d.%02d", (k * 2) / 100, (k * 2) % 100);
        tp[k] = tsb[k];
        vp[k] = vsb[k];
        p += sprintf(p, "%s%s", vsb[k], k % 5 == 4 ? "\n" : " ");
    }
    qtab_init(&q, N, tp, vp, NULL);
    dvc_tabfun_init(f);
    CHECK(dvc_tabfun_parse_at2(f, text, "random.AT2", NULL) == DVC_OK, "random AT2: %s", dvc_error_message());
    check_against(f, &q, 0, 0.02 * (N - 1), 77, 1500);
    dvc_tabfun_clear(f);
    qtab_clear(&q);
    free(text);
}

static void bad_at2(const char *text, const char *want1, const char *want2)
{
    dvc_tabfun_t f;
    dvc_tabfun_init(f);
    CHECK(dvc_tabfun_parse_at2(f, text, "bad.AT2", NULL) == DVC_ERR_INPUT, "bad AT2 rejected: %s", want1);
    CHECK(strstr(dvc_error_message(), want1) && (!want2 || strstr(dvc_error_message(), want2)),
          "message has '%s' and '%s': %s", want1, want2 ? want2 : "", dvc_error_message());
    CHECK(f->n == 0, "nothing loaded");
    dvc_tabfun_clear(f);
}

static void bad_csv(const char *text, const char *want1, const char *want2)
{
    dvc_tabfun_t f;
    dvc_tabfun_init(f);
    CHECK(dvc_tabfun_parse_csv(f, text, "bad.csv", NULL) == DVC_ERR_INPUT, "bad CSV rejected: %s", want1);
    CHECK(strstr(dvc_error_message(), want1) && (!want2 || strstr(dvc_error_message(), want2)),
          "message has '%s' and '%s': %s", want1, want2 ? want2 : "", dvc_error_message());
    CHECK(f->n == 0, "nothing loaded");
    dvc_tabfun_clear(f);
}

#define H3 "PEER NGA STRONG MOTION DATABASE RECORD\nX\nACCELERATION TIME SERIES IN UNITS OF G\n"

static void test_bad_inputs(void)
{
    bad_at2("PEER\nX\n", "bad.AT2:3:", "header");
    bad_at2(H3 "HELLO WORLD\n1 2\n", "bad.AT2:4:", "bad header");
    bad_at2(H3 "NPTS= x5, DT= .01 SEC\n1 2\n", "bad.AT2:4:", "NPTS");
    bad_at2(H3 "NPTS= 5, DT= abc SEC\n1 2\n", "bad.AT2:4:", "DT");
    bad_at2(H3 "NPTS= 5, DT= 0.0 SEC\n1 2 3 4 5\n", "bad.AT2:4:", "> 0");
    bad_at2(H3 "NPTS= 5, DT= -.01 SEC\n1 2 3 4 5\n", "bad.AT2:4:", "> 0");
    bad_at2(H3 "NPTS= 5, DT= nan SEC\n1 2 3 4 5\n", "bad.AT2:4:", "DT");
    bad_at2(H3 "NPTS= 5, DT= .01 SEC\n1 2\n3 4\n", "bad.AT2:6:", "NPTS = 5");
    bad_at2(H3 "NPTS= 5, DT= .01 SEC\n1 2 3\n4 5\n6\n", "bad.AT2:7:", "more values");
    bad_at2(H3 "NPTS= 5, DT= .01 SEC\n1 2 3\n4 abc\n", "bad.AT2:6:", "'abc'");
    bad_at2(H3 "NPTS= 5, DT= .01 SEC\n1 2 3\n4 NaN\n", "bad.AT2:6:", "NaN");
    bad_at2(H3 "NPTS= 5, DT= .01 SEC\n1 2 inf 4 5\n", "bad.AT2:5:", "finite");
    bad_at2(H3 "   5   .0100\n1 2 3 4 5\n", "bad.AT2:4:", "bad header");
    bad_at2(H3 "NPTS= 1, DT= .01 SEC\n1\n", "bad.AT2:4:", ">= 2");
    {
        dvc_tabfun_t f;
        dvc_tabfun_init(f);
        CHECK(dvc_tabfun_parse_at2(f, H3 "NPTS=3,DT=.5SEC\n1 2 3\n", "tight.AT2", NULL) == DVC_OK &&
                  f->n == 3 && mpfr_cmp_d(&f->t[2]->left, 1.0) == 0,
              "compact NPTS=3,DT=.5SEC: %s", dvc_error_message());
        dvc_tabfun_clear(f);
    }
    bad_csv("t,v\n0,1\n0.5,2\n0.5,3\n", "bad.csv:4:", "not greater");
    bad_csv("t,v\n0,1\n0.5,2\n0.4,3\n", "bad.csv:4:", "not greater");
    bad_csv("0,1\n0.5,2,7\n", "bad.csv:2:", "2 fields");
    bad_csv("0,1\n0.5\n", "bad.csv:2:", "2 fields");
    bad_csv("0,1\n0.5,x2\n", "bad.csv:2:", "'x2'");
    bad_csv("0,1\n0.5,nan\n", "bad.csv:2:", "nan");
    bad_csv("0,1\n0.5,-inf\n", "bad.csv:2:", "finite");
    bad_csv("t,v\nfoo,1\n", "bad.csv:2:", "'foo'");
    bad_csv("t,v\n0,1\n", "bad.csv", "at least 2");
    bad_csv("", "bad.csv", "at least 2");
    {
        dvc_tabfun_t f;
        mpfi_t s;
        dvc_tabfun_init(f);
        mpfi_init2(s, 53);
        CHECK(dvc_tabfun_read(f, "/nonexistent/dir/x.AT2", NULL, NULL) == DVC_ERR_IO &&
                  strstr(dvc_error_message(), "/nonexistent/dir/x.AT2"),
              "missing file named");
        CHECK(dvc_tabfun_read(f, "x.dat", "xml", NULL) == DVC_ERR_INPUT && strstr(dvc_error_message(), "xml"),
              "unknown format");
        mpfr_set_nan(&s->left);
        CHECK(dvc_tabfun_parse_csv(f, "0,1\n1,2\n", "s.csv", s) == DVC_ERR_INPUT, "NaN scale rejected");
        mpfi_clear(s);
        dvc_tabfun_clear(f);
    }
}

/* Table files: only regular files, bounded, NUL bytes named by line; a
 * table embedded in a field (no name) points at "table line L". */
static void test_file_limits(void)
{
    char dir[] = "/tmp/dvc_tabfun_XXXXXX", path[256];
    dvc_tabfun_t f;
    char *text = NULL;
    FILE *fp;
    struct stat sb;
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp");
    dvc_tabfun_init(f);
    /* a device is refused by what it is, before any read (would never end) */
    if (stat("/dev/zero", &sb) == 0) {
        CHECK(dvc_tabfun_read(f, "/dev/zero", "csv", NULL) == DVC_ERR_INPUT &&
                  strstr(dvc_error_message(), "/dev/zero: is not a regular file"),
              "/dev/zero refused: %s", dvc_error_message());
    }
    /* a FIFO with no writer: refused, not waited on */
    snprintf(path, sizeof path, "%s/fifo.csv", dir);
    if (mkfifo(path, 0600) == 0) {
        CHECK(dvc_tabfun_read(f, path, NULL, NULL) == DVC_ERR_INPUT &&
                  strstr(dvc_error_message(), "is not a regular file"),
              "FIFO refused: %s", dvc_error_message());
        remove(path);
    }
    CHECK(dvc_tabfun_read(f, dir, "csv", NULL) == DVC_ERR_INPUT && strstr(dvc_error_message(), "is a directory"),
          "directory refused: %s", dvc_error_message());
    /* NUL byte on line 3 */
    snprintf(path, sizeof path, "%s/nul.csv", dir);
    fp = fopen(path, "wb");
    REQUIRE(fp != NULL, "write %s", path);
    fwrite("t,v\n0,1\n0.5,\0002\n1,3\n", 1, 19, fp);
    fclose(fp);
    CHECK(dvc_tabfun_read(f, path, NULL, NULL) == DVC_ERR_INPUT &&
              strstr(dvc_error_message(), "nul.csv: NUL byte at line 3") && !strstr(dvc_error_message(), "field"),
          "NUL byte named by line: %s", dvc_error_message());
    CHECK(f->n == 0, "nothing loaded");
    /* the size limit: 16 bytes; at the limit read, one below refused */
    snprintf(path, sizeof path, "%s/ok.csv", dir);
    fp = fopen(path, "wb");
    REQUIRE(fp != NULL, "write %s", path);
    fputs("0,1\n0.5,2\n1,3.5\n", fp); /* 16 bytes */
    fclose(fp);
    CHECK(dvc_infile_read_text(&text, path, 16) == DVC_OK && text && strcmp(text, "0,1\n0.5,2\n1,3.5\n") == 0,
          "read at the limit: %s", dvc_error_message());
    free(text);
    CHECK(dvc_infile_read_text(&text, path, 15) == DVC_ERR_INPUT && text == NULL &&
              strstr(dvc_error_message(), "is 16 bytes, more than the limit of 15 bytes"),
          "over the limit: %s", dvc_error_message());
    CHECK(dvc_tabfun_read(f, path, NULL, NULL) == DVC_OK && f->n == 3, "table file read: %s", dvc_error_message());
    remove(path);
    rmdir(dir);
    /* no name: "table line L", said once */
    dvc_tabfun_clear(f);
    dvc_tabfun_init(f);
    CHECK(dvc_tabfun_parse_csv(f, "0,1\n1,x\n", NULL, NULL) == DVC_ERR_INPUT &&
              strcmp(dvc_error_message(), "table line 2: value 'x' is not a number") == 0,
          "embedded CSV: %s", dvc_error_message());
    CHECK(dvc_tabfun_parse_at2(f, H3 "NPTS= 3, DT= .5 SEC\n1 2\n", NULL, NULL) == DVC_ERR_INPUT &&
              strcmp(dvc_error_message(), "table line 5: the file ends after 2 values, but NPTS = 3") == 0,
          "embedded AT2: %s", dvc_error_message());
    dvc_tabfun_clear(f);
}

/* The function-of-t type itself, without files: expression, constant,
 * table, errors. */
static void test_tfun(void)
{
    dvc_tfun_t f;
    dvc_expr_consts_t k;
    mpfi_t T, R, c;
    mpfr_t L;
    mpq_t q;
    char *path;
    dvc_tfun_init(f);
    dvc_expr_consts_init(k);
    dvc_expr_consts_add_str(k, "amp", "0.5");
    mpfi_init2(T, 53);
    mpfi_init2(R, 53);
    mpfi_init2(c, 53);
    mpfr_init2(L, 53);
    mpq_init(q);
    /* expression: f = amp*t^2 on [1, 2]: range [0.5, 2], L = 2 */
    CHECK(dvc_tfun_set_expr(f, "amp*t^2", k) == DVC_OK, "expression");
    mpfi_interv_d(T, 1, 2);
    CHECK(dvc_tfun_eval_lip(R, L, f, T) == DVC_OK && mpfr_cmp_d(&R->left, 0.5) == 0 &&
              mpfr_cmp_d(&R->right, 2) == 0 && mpfr_cmp_d(L, 2) == 0,
          "expr range and Lipschitz");
    CHECK(!dvc_tfun_is_const(f), "depends on t");
    /* constant */
    dvc_ival_set_str(c, "0.1");
    CHECK(dvc_tfun_set_const(f, c) == DVC_OK, "constant");
    dec_to_q(q, "0.1");
    CHECK(dvc_tfun_eval_lip(R, L, f, T) == DVC_OK && contains_q(R, q) && mpfr_zero_p(L) && dvc_tfun_is_const(f),
          "constant value, Lipschitz 0");
    /* table with scale */
    path = path_of("tab_small.AT2");
    dvc_ival_set_str(c, "9.80665");
    CHECK(dvc_tfun_read_table(f, path, NULL, c) == DVC_OK, "table: %s", dvc_error_message());
    free(path);
    dvc_ival_set_str(T, "0.015"); /* sample 3 */
    dec_to_q(q, ".1234567E+00");
    {
        mpq_t s;
        mpq_init(s);
        dec_to_q(s, "9.80665");
        mpq_mul(q, q, s);
        mpq_clear(s);
    }
    CHECK(dvc_tfun_eval(R, f, T) == DVC_OK && contains_q(R, q), "table value at sample 3");
    /* errors */
    path = path_of("missing.AT2");
    CHECK(dvc_tfun_read_table(f, path, NULL, NULL) == DVC_ERR_IO && strstr(dvc_error_message(), "missing.AT2"),
          "missing table: %s", dvc_error_message());
    free(path);
    CHECK(dvc_tfun_parse_table(f, "0,1\n1,2\n", "xls", "x.tab", NULL) == DVC_ERR_INPUT &&
              strstr(dvc_error_message(), "x.tab"),
          "unknown table format: %s", dvc_error_message());
    CHECK(dvc_tfun_set_expr(f, "sin(", k) == DVC_ERR_INPUT, "bad expression");
    CHECK(dvc_tfun_eval(R, f, T) == DVC_ERR_INPUT, "unset function");
    mpq_clear(q);
    mpfi_clear(T);
    mpfi_clear(R);
    mpfi_clear(c);
    mpfr_clear(L);
    dvc_expr_consts_clear(k);
    dvc_tfun_clear(f);
}

/* A one-dimensional problem (n = m = 1) on [0, T] with f and g given as
 * JSON text, read with tables relative to datadir. */
static dvc_status read_fg(dvc_dlvi_problem_t P, const char *T, const char *f, const char *g)
{
    char buf[1024];
    json_error_t jerr;
    json_t *j;
    dvc_status st;
    snprintf(buf, sizeof buf,
             "{\"constants\": {\"amp\": \"0.5\"}, \"A\": [[0]], \"B\": [[1]], \"Q\": [[1]], \"M\": [[1]],"
             " \"l\": [0], \"u\": [\"inf\"], \"x0\": [0], \"T\": \"%s\", \"N\": 10, \"f\": [%s], \"g\": [%s]}",
             T, f, g);
    j = json_loads(buf, 0, &jerr);
    REQUIRE(j != NULL, "test problem: %s", jerr.text);
    st = dvc_problem_from_json(P, NULL, j, "p.json", datadir, 0);
    json_decref(j);
    return st;
}

/* Functions of t as problem-file fields f and g (the one reader of such a
 * field): expression, number, table file, and the errors naming the field. */
static void test_tfun_fields(void)
{
    dvc_dlvi_problem_t P;
    dvc_ivec_t v;
    mpfi_t T;
    mpfr_t L;
    mpq_t q;
    dvc_dlvi_problem_init(P, 0, 0, 53);
    dvc_ivec_init2(v, 1, 53);
    mpfi_init2(T, 53);
    mpfr_init2(L, 53);
    mpq_init(q);
    /* expression over the file's constants: f = amp*t^2 on [1, 2] */
    CHECK(read_fg(P, "2", "\"amp*t^2\"", "0") == DVC_OK, "expr field: %s", dvc_error_message());
    mpfi_interv_d(T, 1, 2);
    CHECK(P->fcb.eval && P->fcb.eval(v, T, P->fcb.ctx) == DVC_OK && mpfr_cmp_d(&v->e[0]->left, 0.5) == 0 &&
              mpfr_cmp_d(&v->e[0]->right, 2) == 0,
          "expr field range");
    CHECK(P->fcb.lipschitz && P->fcb.lipschitz(L, T, P->fcb.ctx) == DVC_OK && mpfr_cmp_d(L, 2) == 0,
          "expr field Lipschitz");
    /* a JSON number: [pred(0.1), succ(0.1)], Lipschitz 0 */
    CHECK(read_fg(P, "2", "0.1", "0") == DVC_OK, "number field: %s", dvc_error_message());
    dec_to_q(q, "0.1");
    CHECK(P->fcb.eval && P->fcb.eval(v, T, P->fcb.ctx) == DVC_OK && contains_q(v->e[0], q) &&
              P->fcb.lipschitz(L, T, P->fcb.ctx) == DVC_OK && mpfr_zero_p(L),
          "number field: constant");
    /* a table file relative to the problem's directory, with a scale */
    CHECK(read_fg(P, "0.05", "0", "{\"table\": \"tab_small.AT2\", \"scale\": \"9.80665\"}") == DVC_OK,
          "table field: %s", dvc_error_message());
    dvc_ival_set_str(T, "0.015"); /* sample 3 */
    dec_to_q(q, ".1234567E+00");
    {
        mpq_t s;
        mpq_init(s);
        dec_to_q(s, "9.80665");
        mpq_mul(q, q, s);
        mpq_clear(s);
    }
    CHECK(P->gcb.eval && P->gcb.eval(v, T, P->gcb.ctx) == DVC_OK && contains_q(v->e[0], q),
          "table field value at sample 3");
    /* errors name the field */
    CHECK(read_fg(P, "0.05", "0", "{\"table\": \"missing.AT2\"}") == DVC_ERR_IO &&
              strstr(dvc_error_message(), "p.json: field 'g' entry 1") && strstr(dvc_error_message(), "missing.AT2"),
          "missing table: %s", dvc_error_message());
    CHECK(read_fg(P, "0.05", "0", "{\"table\": \"../test_tabfun.c\", \"format\": \"csv\"}") == DVC_ERR_INPUT &&
              strstr(dvc_error_message(), "p.json: field 'g' entry 1: table file '../test_tabfun.c' is outside"),
          "table outside the problem's directory: %s", dvc_error_message());
    CHECK(read_fg(P, "0.05", "0", "{\"tabel\": \"x.AT2\"}") == DVC_ERR_INPUT &&
              strstr(dvc_error_message(), "p.json: field 'g' entry 1") && strstr(dvc_error_message(), "'tabel'"),
          "unknown key: %s", dvc_error_message());
    CHECK(read_fg(P, "1", "\"sin(\"", "0") == DVC_ERR_INPUT &&
              strncmp(dvc_error_message(), "p.json: field 'f' entry 1: ", strlen("p.json: field 'f' entry 1: ")) == 0,
          "bad expression prefixed: %s", dvc_error_message());
    CHECK(read_fg(P, "1", "[1]", "0") == DVC_ERR_INPUT && strstr(dvc_error_message(), "p.json: field 'f' entry 1"),
          "array of one rejected: %s", dvc_error_message());
    CHECK(read_fg(P, "1", "true", "0") == DVC_ERR_INPUT && strstr(dvc_error_message(), "p.json: field 'f' entry 1"),
          "boolean rejected: %s", dvc_error_message());
    mpq_clear(q);
    mpfi_clear(T);
    mpfr_clear(L);
    dvc_ivec_clear(v);
    dvc_dlvi_problem_clear(P);
}

int main(int argc, char **argv)
{
    if (argc > 1) datadir = argv[1];
    test_at2();
    test_csv();
    test_random_table();
    test_bad_inputs();
    test_file_limits();
    test_tfun();
    test_tfun_fields();
    return check_report();
}
