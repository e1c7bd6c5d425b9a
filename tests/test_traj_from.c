/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The trajectory reader of enclose --from (src/io/traj_from.h) hands the
 * samples over one at a time, holding none of them:
 *   1. a uniform trajectory: no sample kept, the grid uniform with N = rows
 *      - 1, the values of every grid point as written, in order, and again
 *      in a second pass;
 *   2. a non-uniform one past T: the grid is its own times up to the first
 *      one at T, the samples after it counted as past, the same values;
 *      with keep, every sample in memory and the same grid;
 *   3. a file rewritten between the passes (same length, one digit
 *      changed; a line appended) is refused naming the change, and a
 *      sample asked out of order is an internal error;
 *   4. the input errors of the first pass name the file and the line as
 *      before (fields, order, start, the end before T);
 *   5. the lognorm engine fed point by point from the file (the path of
 *      enclose --from) gives the same run as the whole array: every
 *      predictor point, y and bound identical, on a non-uniform grid with
 *      samples past T, with and without a sink. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "dlvi/lognorm_internal.h"
#include "dvicert/error.h"
#include "dvicert/lognorm.h"
#include "dvicert/problem.h"
#include "io/traj_from.h"

static char dir[] = "/tmp/dvc_traj_fromXXXXXX";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* x1 = 2 t + 1, x2 = -t at the given times, one row each */
static void write_traj(const char *path, const double *t, long ns)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s", path);
    fprintf(f, "t,x1,x2,extra\n");
    for (long k = 0; k < ns; k++) fprintf(f, "%.17g,%.17g,%.17g,7\n", t[k], 2 * t[k] + 1, -t[k]);
    fclose(f);
}

/* Every grid point i = 0..N through dvc_traj_from_next: x as written at
 * the time t_i of want. */
static int pass_ok(dvc_traj_from *tf, const double *want)
{
    double x[2];
    for (long i = 0; i <= tf->grid.N; i++) {
        dvc_status st = dvc_traj_from_next(tf, i, x);
        if (st != DVC_OK) {
            fprintf(stderr, "sample %ld: %s\n", i, dvc_error_message());
            return 0;
        }
        if (x[0] != 2 * want[i] + 1 || x[1] != -want[i]) return 0;
    }
    return 1;
}

static void uniform(void)
{
    char path[256];
    double t[1001];
    dvc_traj_from tf;
    snprintf(path, sizeof path, "%s/u.csv", dir);
    for (long k = 0; k <= 1000; k++) t[k] = (double)k / 1000 * 2.0;
    write_traj(path, t, 1001);
    REQUIRE(dvc_traj_from_read(&tf, path, 2, 2.0, 0) == DVC_OK, "%s", dvc_error_message());
    CHECK(tf.t == NULL && tf.x == NULL, "a streamed trajectory keeps no sample");
    CHECK(tf.ns == 1001 && tf.past == 0 && tf.end == 2.0, "ns %ld past %ld end %g", tf.ns, tf.past, tf.end);
    CHECK(tf.grid.kind == DVC_TGRID_UNIFORM && tf.grid.N == 1000 && tf.grid.t == NULL, "uniform grid, N = %ld",
          tf.grid.N);
    CHECK(pass_ok(&tf, t), "the values of the first feeding pass");
    CHECK(pass_ok(&tf, t), "the values of a second feeding pass");
    dvc_traj_from_clear(&tf);
}

static void nonuniform(void)
{
    char path[256];
    double t[400];
    long ns = 0, K;
    dvc_traj_from tf, tk;
    snprintf(path, sizeof path, "%s/v.csv", dir);
    /* steps 1e-3 .. 3e-3, then T = 0.5 exactly and 20 samples past it */
    t[ns++] = 0;
    while (t[ns - 1] < 0.5 - 4e-3) {
        t[ns] = t[ns - 1] + 2e-3 + 1e-3 * sin(0.7 * (double)ns);
        ns++;
    }
    t[ns++] = 0.5;
    K = ns - 1;
    for (int k = 0; k < 20; k++, ns++) t[ns] = t[ns - 1] + 1e-3;
    write_traj(path, t, ns);
    REQUIRE(dvc_traj_from_read(&tf, path, 2, 0.5, 0) == DVC_OK, "%s", dvc_error_message());
    CHECK(tf.t == NULL && tf.x == NULL, "a streamed trajectory keeps no sample");
    CHECK(tf.grid.kind == DVC_TGRID_EXPLICIT && tf.grid.N == K && tf.past == 20 && tf.end == 0.5,
          "explicit grid: N = %ld (want %ld), past %ld, end %g", tf.grid.N, K, tf.past, tf.end);
    /* the times are never held (8 bytes a sample): read on demand, in
     * order, backwards (a new pass) and while the samples' pass runs */
    CHECK(tf.grid.t == NULL && tf.grid.src != NULL, "the grid's times on demand, not an array");
    for (int round = 0; round < 2; round++)
        for (long i = round ? K : 0; round ? i >= 0 : i <= K; i += round ? -7 : 1) {
            double ti = -1;
            if (dvc_tgrid_at(&tf.grid, i, &ti) != DVC_OK || ti != t[i]) {
                CHECK(0, "grid time %ld: %.17g, want %.17g (%s)", i, ti, t[i], dvc_error_message());
                break;
            }
        }
    CHECK(pass_ok(&tf, t), "the values on the trajectory's own grid");
    REQUIRE(dvc_traj_from_read(&tk, path, 2, 0.5, 1) == DVC_OK, "%s", dvc_error_message());
    CHECK(tk.t && tk.x && tk.ns == ns && tk.x[2 * (ns - 1)] == 2 * t[ns - 1] + 1, "keep: every sample");
    CHECK(tk.grid.N == tf.grid.N && tk.past == tf.past && tk.end == tf.end && tk.grid.t == tk.t &&
          memcmp(tk.grid.t, t, (size_t)(K + 1) * sizeof(double)) == 0, "keep: the same grid, a view of t");
    dvc_traj_from_clear(&tk);
    dvc_traj_from_clear(&tf);
}

/* path rewritten by edit between the first pass and the feeding one; with
 * jitter the grid's own times (read on demand) must refuse it too */
static void rewritten(const char *what, int append, int jitter)
{
    char path[256];
    double t[101], x[2];
    dvc_traj_from tf;
    dvc_status st = DVC_OK;
    snprintf(path, sizeof path, "%s/c.csv", dir);
    for (long k = 0; k <= 100; k++) t[k] = (double)k / 100 + (jitter && k < 100 ? 3e-3 * sin(0.7 * k) : 0);
    write_traj(path, t, 101);
    REQUIRE(dvc_traj_from_read(&tf, path, 2, 1.0, 0) == DVC_OK, "%s", dvc_error_message());
    {
        /* in place, through another descriptor: the reader's file changes */
        FILE *f = fopen(path, "r+");
        REQUIRE(f != NULL, "cannot open %s", path);
        if (append) {
            fseek(f, 0, SEEK_END);
            fputs("1.5,4,-1.5,7\n", f);
        } else {
            /* one digit of x1 at t = 0.5: same length; the time stamp
             * put back, so that only the contents tell */
            struct stat s0;
            struct timespec ts[2];
            char *buf;
            long len;
            fstat(fileno(f), &s0);
            fseek(f, 0, SEEK_END);
            len = ftell(f);
            buf = calloc((size_t)len + 1, 1);
            rewind(f);
            REQUIRE(buf && fread(buf, 1, (size_t)len, f) == (size_t)len, "read back");
            /* jitter: x1 of the last row (t = 1), the grid's t_N */
            char *p = strstr(buf, jitter ? "\n1,3," : "\n0.5,2,");
            REQUIRE(p != NULL, "row of t = %s", jitter ? "1" : "0.5");
            p[jitter ? 3 : 5] = '4';
            rewind(f);
            fwrite(buf, 1, (size_t)len, f);
            fflush(f);
            free(buf);
            ts[0] = s0.st_atim;
            ts[1] = s0.st_mtim;
            REQUIRE(futimens(fileno(f), ts) == 0, "futimens");
        }
        fclose(f);
    }
    if (jitter) {
        double ti;
        REQUIRE(tf.grid.src != NULL, "%s: the grid's times on demand", what);
        for (long i = 0; st == DVC_OK && i <= tf.grid.N; i++) st = dvc_tgrid_at(&tf.grid, i, &ti);
        CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "the file changed while it was read"),
              "%s: the grid's times refuse it (%d: %s)", what, (int)st, dvc_error_message());
        st = DVC_OK;
    }
    for (long i = 0; st == DVC_OK && i <= tf.grid.N; i++) st = dvc_traj_from_next(&tf, i, x);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "the file changed while it was read") &&
          strstr(dvc_error_message(), path), "%s: refused (%d: %s)", what, (int)st, dvc_error_message());
    dvc_traj_from_clear(&tf);
    REQUIRE(dvc_traj_from_read(&tf, path, 2, 1.0, 0) == DVC_OK, "%s", dvc_error_message());
    CHECK(dvc_traj_from_next(&tf, 1, x) == DVC_ERR_INTERNAL, "a sample asked out of order");
    dvc_traj_from_clear(&tf);
}

static void input_errors(void)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"t,x1,x2\n0,1,0\n0.5,2\n1,3,-1\n", "line 3: 2 fields, the header has 3"},
        {"t,x1,x2\n0,1,0\n0.5,2,-0.5\n0.5,2,-0.5\n1,3,-1\n", "line 4: t = 0.5 does not increase"},
        {"t,x1,x2\n0.1,1,0\n1,3,-1\n", "line 2: the trajectory must start at t = 0, got 0.10000000000000001"},
        {"t,x1,x2\n0,1,0\n0.5,2,-0.5\n\n", "line 4: the trajectory ends at t = 0.5 and does not reach T = 1"},
        {"t,x1,x2\n0,1,0\n0.5,nan,-0.5\n1,3,-1\n", "line 3: column 'x1': 'nan' is not a finite decimal number"},
        {"t,x1\n0,1\n1,3\n", "line 1: missing column 'x2' (the problem has 2 states)"},
        {"t,x1,x2\n0,1,0\n", "fewer than two samples"},
        {"\n\n", "empty file (expected a header t,x1..x2)"},
    };
    char path[256];
    snprintf(path, sizeof path, "%s/e.csv", dir);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        dvc_traj_from tf;
        dvc_status st;
        write_file(path, cases[k].text);
        st = dvc_traj_from_read(&tf, path, 2, 1.0, 0);
        CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), cases[k].msg) &&
              strncmp(dvc_error_message(), path, strlen(path)) == 0, "case %zu: %s", k, dvc_error_message());
        CHECK(tf.ps.f == NULL && tf.cur.f == NULL && tf.grid.t == NULL, "case %zu: nothing held after an error", k);
    }
    remove(path);
}

/* The source of enclose --from: grid point i of the trajectory. */
static dvc_status from_file(long i, double *x, double *y, void *ctx)
{
    (void)y;
    return dvc_traj_from_next(ctx, i, x);
}

/* A sink keeping every point handed to it. */
typedef struct {
    long N, got;
    mpfr_t *ex, *ey;
    double *x, *y;
} keep_t;

static dvc_status keep_point(const dvc_dlvi_point *pt, void *ctx)
{
    keep_t *k = ctx;
    if (pt->i != k->got || pt->i > k->N) return dvc_error(DVC_ERR_INTERNAL, "point %ld out of order", pt->i);
    mpfr_set(k->ex[pt->i], pt->eps_x, MPFR_RNDN);
    mpfr_set(k->ey[pt->i], pt->eps_y, MPFR_RNDN);
    memcpy(k->x + 2 * pt->i, pt->x, 2 * sizeof(double));
    k->y[pt->i] = pt->y[0];
    k->got++;
    return DVC_OK;
}

static void keep_init(keep_t *k, long N)
{
    k->N = N;
    k->got = 0;
    k->ex = malloc((size_t)(N + 1) * sizeof *k->ex);
    k->ey = malloc((size_t)(N + 1) * sizeof *k->ey);
    k->x = malloc((size_t)(2 * (N + 1)) * sizeof *k->x);
    k->y = malloc((size_t)(N + 1) * sizeof *k->y);
    REQUIRE(k->ex && k->ey && k->x && k->y, "memory");
    for (long i = 0; i <= N; i++) mpfr_inits2(256, k->ex[i], k->ey[i], (mpfr_ptr)0);
}

static void keep_clear(keep_t *k)
{
    for (long i = 0; i <= k->N; i++) mpfr_clears(k->ex[i], k->ey[i], (mpfr_ptr)0);
    free(k->ex);
    free(k->ey);
    free(k->x);
    free(k->y);
}

static int keep_same(const keep_t *a, const keep_t *b)
{
    if (a->got != a->N + 1 || b->got != b->N + 1) return 0;
    for (long i = 0; i <= a->N; i++)
        if (!mpfr_equal_p(a->ex[i], b->ex[i]) || !mpfr_equal_p(a->ey[i], b->ey[i]) || a->x[2 * i] != b->x[2 * i] ||
            a->x[2 * i + 1] != b->x[2 * i + 1] || a->y[i] != b->y[i])
            return 0;
    return 1;
}

/* One lognorm run on the trajectory: from the array xs (NULL: point by
 * point from the file of tf); into sink k (NULL: the whole result). */
static dvc_status run_lognorm(dvc_dlvi_result_t r, dvc_dlvi_problem_t p, dvc_traj_from *tf, const double *xs,
                              keep_t *k)
{
    dvc_lognorm_info_t info;
    dvc_lognorm_opts o;
    dvc_status st;
    dvc_lognorm_info_init(info);
    dvc_lognorm_opts_default(&o);
    o.pieces = DVC_LOGNORM_PIECES_EXT;
    o.dlvi.prec = p->prec;
    if (k) {
        o.dlvi.sink = keep_point;
        o.dlvi.sink_ctx = k;
    }
    if (xs) st = dvc_lognorm_certify(r, info, p, &o, xs, NULL);
    else st = dvc_lognorm_certify_stream_x_(r, info, p, &o, from_file, tf);
    dvc_lognorm_info_clear(info);
    return st;
}

static void engine_fed(void)
{
    char path[256], prob[256];
    double t[3000];
    long ns = 0, N;
    dvc_traj_from tf, tk;
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r1, r2;
    keep_t k1, k2;
    snprintf(path, sizeof path, "%s/b.csv", dir);
    snprintf(prob, sizeof prob, "%s/b.json", dir);
    /* the bridge (Example 5.1) from x(0) = (0, 1) to T = 2 (a contact
     * phase), samples of the free solution at jittered times past T: the
     * predictor error is what the bound measures, not what is tested */
    write_file(prob, "{\"A\": [[0, 1], [-4, 0]], \"B\": [[0], [-1]], \"f\": [\"0\", \"sin(4*t)\"],\n"
                     " \"Q\": [[3, 0]], \"M\": [[1]], \"g\": [\"0\"], \"l\": [0], \"u\": [\"inf\"],\n"
                     " \"x0\": [0, 1], \"T\": \"2\", \"N\": 100, \"theta\": 1}\n");
    for (double u = 0; u < 2.1; u += 2e-3 + 1e-3 * sin(0.37 * (double)ns)) t[ns++] = u;
    {
        FILE *f = fopen(path, "w");
        REQUIRE(f != NULL, "cannot write %s", path);
        fprintf(f, "t,x1,x2\n");
        for (long k = 0; k < ns; k++)
            fprintf(f, "%.17g,%.17g,%.17g\n", t[k], (4.0 / 3) / 2 * sin(2 * t[k]) - sin(4 * t[k]) / 12,
                    (4.0 / 3) * cos(2 * t[k]) - cos(4 * t[k]) / 3);
        fclose(f);
    }
    dvc_dlvi_problem_init(p, 0, 0, 0);
    REQUIRE(dvc_problem_read(p, prob, 0) == DVC_OK, "%s: %s", prob, dvc_error_message());
    REQUIRE(dvc_traj_from_read(&tf, path, 2, 2.0, 0) == DVC_OK, "%s", dvc_error_message());
    REQUIRE(dvc_traj_from_read(&tk, path, 2, 2.0, 1) == DVC_OK, "%s", dvc_error_message());
    REQUIRE(tf.grid.kind == DVC_TGRID_EXPLICIT && tf.past > 0, "a non-uniform grid with samples past T");
    REQUIRE(dvc_dlvi_problem_set_grid(p, &tf.grid) == DVC_OK, "%s", dvc_error_message());
    mpfi_set_d(p->T, tf.end);
    N = p->N;
    /* the whole result */
    dvc_dlvi_result_init(r1);
    dvc_dlvi_result_init(r2);
    CHECK(run_lognorm(r1, p, NULL, tk.x, NULL) == DVC_OK, "array: %s", dvc_error_message());
    CHECK(run_lognorm(r2, p, &tf, NULL, NULL) == DVC_OK, "file: %s", dvc_error_message());
    if (r1->steps_done == N && r2->steps_done == N) {
        int same = mpfr_equal_p(r1->max_eps_x, r2->max_eps_x) && mpfr_equal_p(r1->max_eps_y, r2->max_eps_y);
        for (long i = 0; same && i <= N; i++)
            same = mpfr_equal_p(r1->eps_x[i], r2->eps_x[i]) && mpfr_equal_p(r1->eps_y[i], r2->eps_y[i]) &&
                   memcmp(r1->x + 2 * i, r2->x + 2 * i, 2 * sizeof(double)) == 0 && r1->y[i] == r2->y[i];
        CHECK(same, "the run fed from the file equals the run on the array (%ld steps)", N);
    }
    /* through a sink (the window of two points, as the command runs) */
    keep_init(&k1, N);
    keep_init(&k2, N);
    CHECK(run_lognorm(r1, p, NULL, tk.x, &k1) == DVC_OK, "array, sink: %s", dvc_error_message());
    CHECK(run_lognorm(r2, p, &tf, NULL, &k2) == DVC_OK, "file, sink: %s", dvc_error_message());
    CHECK(keep_same(&k1, &k2), "streamed: every point handed to the sink identical (%ld and %ld of %ld)", k1.got,
          k2.got, N + 1);
    {
        /* the grid's times on demand, as enclose --from runs: the same
         * points, and the run holds no array of the N + 1 times */
        double *held = p->grid;
        p->grid = NULL;
        p->grid_src = tf.grid.src;
        keep_clear(&k2);
        keep_init(&k2, N);
        dvc_dlvi_result_clear(r2);
        dvc_dlvi_result_init(r2);
        CHECK(run_lognorm(r2, p, &tf, NULL, &k2) == DVC_OK, "file, times on demand: %s", dvc_error_message());
        CHECK(keep_same(&k1, &k2), "times on demand: every point identical (%ld of %ld)", k2.got, N + 1);
        CHECK(r2->grid.t == NULL && r2->grid.src == tf.grid.src && p->grid == NULL,
              "times on demand: the result's grid a view of the source, no times held");
        p->grid = held;
        p->grid_src = NULL;
    }
    keep_clear(&k1);
    keep_clear(&k2);
    dvc_dlvi_result_clear(r1);
    dvc_dlvi_result_clear(r2);
    dvc_dlvi_problem_clear(p);
    dvc_traj_from_clear(&tk);
    dvc_traj_from_clear(&tf);
    remove(path);
    remove(prob);
}

int main(void)
{
    char path[256];
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp");
    uniform();
    nonuniform();
    rewritten("a digit changed in place, same size and time", 0, 0);
    rewritten("a row appended", 1, 0);
    rewritten("own times: a digit changed in place, same size and time", 0, 1);
    rewritten("own times: a row appended", 1, 1);
    input_errors();
    engine_fed();
    const char *files[] = {"u.csv", "v.csv", "c.csv"};
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        remove(path);
    }
    rmdir(dir);
    return check_report();
}
