/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvc_enclose (include/dvicert/enclose.h): the route table and the auto
 * policy, the fallback and its note, the destinations (file, memory, dry
 * run), refused option combinations; dvc_tgrid (include/dvicert/tgrid.h):
 * the three forms' times and step lengths. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dvicert/certio.h"
#include "dvicert/enclose.h"
#include "dvicert/tgrid.h"
#include "enclose/internal.h"

static int notes;
static char note_text[512];

static void note(const char *reason, void *ctx)
{
    (void)ctx;
    notes++;
    snprintf(note_text, sizeof note_text, "%s", reason);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f && fputs(text, f) >= 0 && fclose(f) == 0, "write %s", path);
}

static void test_table(void)
{
    CHECK(strcmp(dvc_enclose_route_name(DVC_ENCLOSE_CHEN_WANG), "chen-wang") == 0, "name chen-wang");
    CHECK(strcmp(dvc_enclose_route_name(DVC_ENCLOSE_LOGNORM), "lognorm") == 0, "name lognorm");
    CHECK(strcmp(dvc_enclose_route_name(DVC_ENCLOSE_AUTO), "auto") == 0, "name auto");
    CHECK(dvc_enclose_route_parse("lognorm") == DVC_ENCLOSE_LOGNORM, "parse lognorm");
    CHECK(dvc_enclose_route_parse("auto") == DVC_ENCLOSE_AUTO, "parse auto");
    CHECK(dvc_enclose_route_parse("euler") == -2, "parse unknown");
}

/* A diagonal DLVI of K states and one contact. */
static void write_diag(const char *path, int K)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL, "write %s", path);
    fputs("{\"A\": [", f);
    for (int i = 0; i < K; i++) {
        fputs(i ? ", [" : "[", f);
        for (int j = 0; j < K; j++) fprintf(f, "%s%d", j ? ", " : "", i == j ? -1 : 0);
        fputs("]", f);
    }
    fputs("], \"B\": [[1]", f);
    for (int i = 1; i < K; i++) fputs(", [0]", f);
    fputs("], \"Q\": [[1", f);
    for (int i = 1; i < K; i++) fputs(", 0", f);
    fputs("]], \"M\": [[1]], \"l\": [0], \"u\": [\"inf\"], \"x0\": [1", f);
    for (int i = 1; i < K; i++) fputs(", 1", f);
    fputs("], \"T\": 1, \"N\": 10}\n", f);
    REQUIRE(fclose(f) == 0, "write %s", path);
}

/* The policy on a 2-state file, a 17-state one and a 65-state one. */
static void test_choose(const char *small, const char *big, const char *huge)
{
    dvc_enclose_opts o;
    dvc_enclose_info in;
    dvc_enclose_opts_init(&o);
    dvc_enclose_choose(&in, small, &o);
    CHECK(in.route == DVC_ENCLOSE_EVENTS && in.fallback && !in.local_beta && in.why, "n = 2: events");
    dvc_enclose_choose(&in, big, &o);
    CHECK(in.route == DVC_ENCLOSE_EVENTS && in.fallback, "n = 17: events");
    dvc_enclose_choose(&in, huge, &o);
    CHECK(in.route == DVC_ENCLOSE_CHEN_WANG && in.local_beta && !in.fallback, "n = 65: chen-wang local beta");
    /* a number of steps belongs to the time-stepping routes */
    o.N = 100;
    dvc_enclose_choose(&in, small, &o);
    CHECK(in.route == DVC_ENCLOSE_LOGNORM && in.fallback && !in.local_beta && in.why, "N: n = 2: lognorm");
    dvc_enclose_choose(&in, big, &o);
    CHECK(in.route == DVC_ENCLOSE_CHEN_WANG && in.local_beta && !in.fallback, "N: n = 17: chen-wang");
    o.N = 0;
    o.local_beta = 1;
    dvc_enclose_choose(&in, small, &o);
    CHECK(in.route == DVC_ENCLOSE_CHEN_WANG && !in.fallback, "local_beta: chen-wang");
    o.local_beta = 0;
    o.predictor = "heun";
    dvc_enclose_choose(&in, big, &o);
    CHECK(in.route == DVC_ENCLOSE_LOGNORM && !in.fallback, "predictor: lognorm");
    o.predictor = NULL;
    o.route = DVC_ENCLOSE_CHEN_WANG;
    dvc_enclose_choose(&in, small, &o);
    CHECK(in.route == DVC_ENCLOSE_CHEN_WANG && in.why == NULL, "given route: no reason");
}

static void test_runs(const char *small, const char *singular, const char *out)
{
    dvc_enclose_opts o;
    dvc_enclose_info in;
    dvc_cert_t c;
    dvc_status st;
    dvc_cert_init(c);
    /* in memory: the whole tube (chen-wang) */
    dvc_enclose_opts_init(&o);
    o.route = DVC_ENCLOSE_CHEN_WANG;
    st = dvc_enclose(c, small, &o, NULL, &in);
    CHECK(st == DVC_OK && c->tube->steps == c->N && c->N == 40, "in memory: %s", dvc_error_message());
    CHECK(st == DVC_OK && dvc_cert_verify(c) == DVC_OK, "in memory verifies: %s", dvc_error_message());
    /* lognorm keeps no whole tube */
    o.route = DVC_ENCLOSE_LOGNORM;
    CHECK(dvc_enclose(c, small, &o, NULL, &in) == DVC_ERR_INPUT, "lognorm in memory refused");
    /* a dry run on another N: the claims only */
    o.keep_steps = 0;
    o.N = 64;
    st = dvc_enclose(c, small, &o, NULL, &in);
    CHECK(st == DVC_OK && c->N == 64 && *dvc_cert_claim_text(&c->summary, "eps_x_at_T"), "dry run N = 64: %s",
          dvc_error_message());
    CHECK(st == DVC_OK && access(out, F_OK) != 0, "a dry run writes nothing");
    {
        /* auto on N steps takes lognorm and runs chen-wang dry against it:
         * the tube it hands over is never wider than chen-wang's */
        dvc_cert_t cw;
        const char *r1, *r2;
        dvc_cert_init(cw);
        o.route = DVC_ENCLOSE_AUTO;
        st = dvc_enclose(c, small, &o, NULL, &in);
        CHECK(st == DVC_OK && in.route == DVC_ENCLOSE_LOGNORM && in.runs == 2, "auto on N: route %d, %d runs: %s",
              (int)in.route, in.runs, dvc_error_message());
        o.route = DVC_ENCLOSE_CHEN_WANG;
        CHECK(dvc_enclose(cw, small, &o, NULL, &in) == DVC_OK, "chen-wang dry: %s", dvc_error_message());
        r1 = dvc_cert_claim_text(&c->summary, "max_eps_x");
        r2 = dvc_cert_claim_text(&cw->summary, "max_eps_x");
        CHECK(r1 && r2 && strtod(r1, NULL) <= strtod(r2, NULL), "auto's radius %s <= chen-wang's %s", r1 ? r1 : "?",
              r2 ? r2 : "?");
        dvc_cert_clear(cw);
        o.route = DVC_ENCLOSE_LOGNORM;
    }
    o.from = "x.csv";
    CHECK(dvc_enclose(c, small, &o, out, &in) == DVC_ERR_INPUT, "from with N refused");
    o.from = NULL;
    o.N = 0;
    o.prec_max = 106;
    CHECK(dvc_enclose(c, small, &o, out, &in) == DVC_ERR_INPUT, "lognorm with prec_max refused");
    /* the auto fallbacks: events fails, lognorm fails, chen-wang with local
     * beta runs (and fails too on a matrix not proven a P-matrix), each
     * note told */
    dvc_enclose_opts_init(&o);
    o.note = note;
    st = dvc_enclose(c, singular, &o, out, &in);
    CHECK(st == DVC_NOT_CERTIFIED && notes == 2 && strstr(note_text, "P-matrix") &&
          strstr(note_text, "the lognorm route did not certify"), "fallback: %d notes, '%s'", notes, note_text);
    CHECK(in.route == DVC_ENCLOSE_CHEN_WANG && in.local_beta && in.runs == 3 &&
          strcmp(in.why, "the lognorm route did not certify") == 0, "fallback reported");
    CHECK(access(out, F_OK) != 0, "nothing left at the output");
    /* ... which the precision retry of chen-wang certifies */
    o.prec_max = 212;
    st = dvc_enclose(c, singular, &o, out, &in);
    CHECK(st == DVC_OK && c->prec == 106 && c->prec_start == 53 && in.route == DVC_ENCLOSE_CHEN_WANG &&
          in.runs == 1, "retry: %s", dvc_error_message());
    dvc_cert_clear(c);
    dvc_cert_init(c);
    CHECK(dvc_cert_read(c, out) == DVC_OK && dvc_cert_verify(c) == DVC_OK, "retried file verifies: %s",
          dvc_error_message());
    dvc_cert_clear(c);
}

static void test_tgrid(void)
{
    static const double t[4] = {0, 0.25, 0.5, 1};
    dvc_tgrid g;
    mpfi_t T, x;
    mpfi_init2(T, 64);
    mpfi_init2(x, 64);
    mpfi_set_d(T, 1);
    dvc_tgrid_set(&g, 4, 0, NULL);
    CHECK(g.kind == DVC_TGRID_UNIFORM, "uniform");
    dvc_tgrid_time(x, &g, T, NULL, 3);
    CHECK(mpfi_is_inside_d(0.75, x) && mpfr_cmp_d(&x->left, 0.75) == 0, "uniform t_3");
    dvc_tgrid_step(x, &g, T, 2);
    CHECK(mpfr_cmp_d(&x->left, 0.25) == 0 && mpfr_cmp_d(&x->right, 0.25) == 0, "uniform step");
    dvc_tgrid_set(&g, 3, 0.375, NULL);
    CHECK(g.kind == DVC_TGRID_LAST_SHORT, "last short");
    dvc_tgrid_time(x, &g, T, NULL, 2);
    CHECK(mpfr_cmp_d(&x->left, 0.75) == 0, "last short t_2");
    dvc_tgrid_time(x, &g, T, NULL, 3);
    CHECK(mpfr_cmp_d(&x->left, 1) == 0, "last short t_N = T");
    dvc_tgrid_step(x, &g, T, 2);
    CHECK(mpfr_cmp_d(&x->left, 0.25) == 0 && mpfr_cmp_d(&x->right, 0.25) == 0, "last step T - 2 h");
    CHECK(dvc_tgrid_last_step_d(&g, T) == 0.25, "last step as a double");
    dvc_tgrid_set(&g, 3, 0, t);
    CHECK(g.kind == DVC_TGRID_EXPLICIT, "explicit");
    dvc_tgrid_step(x, &g, T, 2);
    CHECK(mpfr_cmp_d(&x->left, 0.5) == 0, "explicit step");
    {
        double lo, hi;
        dvc_tgrid_step_range_d(&lo, &hi, &g, T);
        CHECK(lo == 0.25 && hi == 0.5, "explicit step range %g %g", lo, hi);
    }
    mpfi_clear(T);
    mpfi_clear(x);
}

/* Times on demand: t_i = i / 8 from a function, counted; fails at i =
 * fail_at (a changed file). */
typedef struct {
    long calls, fail_at;
} src_ctx;

static dvc_status src_at(void *ctx, long i, double *t)
{
    src_ctx *c = ctx;
    c->calls++;
    if (i == c->fail_at) return dvc_error(DVC_ERR_INPUT, "test: the file changed");
    *t = (double)i / 8;
    return DVC_OK;
}

static void test_tgrid_src(void)
{
    src_ctx c = {0, -1};
    dvc_tgrid_src src = {src_at, &c};
    dvc_tgrid g, cp;
    mpfi_t T, x;
    double lo, hi, t;
    mpfi_init2(T, 64);
    mpfi_init2(x, 64);
    mpfi_set_d(T, 1);
    dvc_tgrid_set_src(&g, 8, &src);
    CHECK(g.kind == DVC_TGRID_EXPLICIT && g.t == NULL && g.src == &src, "times on demand: explicit, no array");
    CHECK(dvc_tgrid_time(x, &g, T, NULL, 3) == DVC_OK && mpfr_cmp_d(&x->left, 0.375) == 0 &&
          mpfr_cmp_d(&x->right, 0.375) == 0, "on demand t_3");
    CHECK(dvc_tgrid_step(x, &g, T, 7) == DVC_OK && mpfr_cmp_d(&x->left, 0.125) == 0, "on demand step");
    CHECK(dvc_tgrid_step_range_d(&lo, &hi, &g, T) == DVC_OK && lo == 0.125 && hi == 0.125, "on demand range");
    CHECK(dvc_tgrid_last_step_d(&g, T) == 0.125 && dvc_tgrid_time_d(&g, T, 8) == 1, "on demand, doubles");
    /* a copy holds the times (an owned array, read once) */
    dvc_tgrid_init(&cp);
    c.calls = 0;
    CHECK(dvc_tgrid_copy(&cp, &g) == DVC_OK && cp.t && cp.own && !cp.src && c.calls == 9 &&
          dvc_tgrid_at(&cp, 5, &t) == DVC_OK && t == 0.625, "a copy reads the times once into its array");
    dvc_tgrid_clear(&cp);
    /* the source's error is the caller's, its message kept */
    c.fail_at = 4;
    CHECK(dvc_tgrid_step_range_d(&lo, &hi, &g, T) == DVC_ERR_INPUT && strstr(dvc_error_message(), "changed"),
          "on demand: an error stops the pass");
    CHECK(dvc_tgrid_step(x, &g, T, 3) == DVC_ERR_INPUT && dvc_tgrid_time(x, &g, T, NULL, 4) == DVC_ERR_INPUT,
          "on demand: an error of step and time");
    CHECK(dvc_tgrid_copy(&cp, &g) == DVC_ERR_INPUT && cp.t == NULL && cp.N == 0, "a failed copy: the empty grid");
    c.fail_at = 8;
    CHECK(isnan(dvc_tgrid_last_step_d(&g, T)) && isnan(dvc_tgrid_last_step_d64(&g, T)), "messages: NaN");
    mpfi_clear(T);
    mpfi_clear(x);
}

/* enclose --radius compares the predictors by a count of operations, a
 * pure function of the problem (never the seconds measured). */
static void test_step_work(void)
{
    double t = dvc_enclose_step_work_(2, 1, 4, 0), h = dvc_enclose_step_work_(2, 1, 8, 1);
    CHECK(t == 372 && h == 1235, "the bridge (n = 2, m = 1): theta %g, heun %g operations a step", t, h);
    CHECK(dvc_enclose_step_work_(2, 1, 4, 0) == t, "the same problem, the same count");
    for (long n = 1; n <= 64; n *= 2)
        for (long m = 0; m <= 32; m = m ? 2 * m : 1) {
            double wt = dvc_enclose_step_work_(n, m, 4, 0), wh = dvc_enclose_step_work_(n, m, 8, 1);
            /* heun: 8 pieces (each with f' too) and two stages; measured
             * 1.1x to 3x theta's time a step */
            CHECK(wh > wt && wh < 4 * wt, "n = %ld, m = %ld: heun %g, theta %g", n, m, wh, wt);
            CHECK(dvc_enclose_step_work_(n + 1, m, 4, 0) > wt && dvc_enclose_step_work_(n, m + 1, 4, 0) > wt &&
                  dvc_enclose_step_work_(n, m, 5, 0) > wt, "n = %ld, m = %ld: more of anything costs more", n, m);
        }
}

int main(void)
{
    char dir[] = "/tmp/dvc_test_enclose.XXXXXX", small[64], big[64], huge[64], singular[64], out[64];
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(small, sizeof small, "%s/small.json", dir);
    snprintf(big, sizeof big, "%s/big.json", dir);
    snprintf(huge, sizeof huge, "%s/huge.json", dir);
    snprintf(singular, sizeof singular, "%s/singular.json", dir);
    snprintf(out, sizeof out, "%s/out.cert.json", dir);
    write_file(small, "{\"A\": [[0, 1], [-4, 0]], \"B\": [[0], [-1]], \"f\": [\"0\", \"sin(4*t)\"], "
                      "\"Q\": [[3, 0]], \"M\": [[1]], \"l\": [0], \"u\": [\"inf\"], \"x0\": [0, 0.2], "
                      "\"T\": 1, \"N\": 40}\n");
    write_file(singular, "{\"A\": [[-1]], \"B\": [[0, 0]], \"Q\": [[0], [0]],\n"
                         " \"M\": [[1, 1], [1, \"1.00000000000000000001\"]], \"l\": [0, 0], \"u\": [\"inf\", "
                         "\"inf\"],\n \"g\": [\"1\", \"1\"], \"x0\": [1], \"T\": 1, \"N\": 10}\n");
    write_diag(big, 17);
    write_diag(huge, 65);
    test_table();
    test_choose(small, big, huge);
    test_runs(small, singular, out);
    test_tgrid();
    test_tgrid_src();
    test_step_work();
    unlink(small);
    unlink(big);
    unlink(huge);
    unlink(singular);
    unlink(out);
    rmdir(dir);
    return check_report();
}
