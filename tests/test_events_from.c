/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* enclose --from on the events route holds neither the samples nor their
 * bounds (src/dlvi/events_from.h, src/io/events_cert.h):
 *   1. the samples read from the file one at a time and the bounds spooled
 *      row by row are exactly those of the whole arrays
 *      (dvc_dlvi_events_from_set and _bound), every lo, hi, up;
 *   2. the certificate's trajectory streamed in place of its placeholder
 *      gives the text (file order) and the digest (sorted keys) of the
 *      whole tree of the rows as the writer built it, byte for byte; the
 *      model kept in memory (no file) holds that tree;
 *   3. a file rewritten between the passes (a row appended) is refused
 *      naming the change, and a sample asked out of order is an internal
 *      error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dlvi/events_from.h"
#include "dvicert/events.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/problem.h"
#include "io/cert_mark.h"
#include "io/events_cert.h"
#include "io/json.h"
#include "io/traj_from.h"

static char dir[] = "/tmp/dvc_events_fromXXXXXX";

/* The bridge of Example 5.1 on [0, 1]. */
static void write_problem(const char *path)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s", path);
    fprintf(f, "{\"constants\": {\"gamma\": \"0.2\"}, \"A\": [[0, 1], [-4, 0]], \"B\": [[0], [-1]],\n"
               " \"f\": [\"0\", \"sin(4*t)\"], \"Q\": [[3, 0]], \"M\": [[1]], \"l\": [0], \"u\": [\"inf\"],\n"
               " \"g\": [\"0\"], \"x0\": [0, \"gamma\"], \"T\": 1, \"N\": 100, \"theta\": 1}\n");
    fclose(f);
}

/* ns samples at jittered times near the solution (x2 about gamma cos 2t) */
static void write_traj(const char *path, long ns)
{
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s", path);
    fprintf(f, "t,x1,x2\n");
    for (long k = 0; k < ns; k++) {
        double t = k + 1 == ns ? 1.0 : ((double)k + 0.3 * sin(0.7 * (double)k)) / (double)(ns - 1);
        fprintf(f, "%.17g,%.17g,%.17g\n", t, 0.1 * sin(2 * t), 0.2 * cos(2 * t));
    }
    fclose(f);
}

typedef struct {
    dvc_traj_from *tf;
} src_t;

static dvc_status from_file(void *ctx, long k, double *t, double *x)
{
    return dvc_traj_from_sample(((src_t *)ctx)->tf, k, t, x);
}

/* The rows of f as the writer's tree held them (before the placeholder). */
static json_t *rows_json(const double *v, long rows, long cols)
{
    json_t *a = json_array();
    for (long k = 0; k < rows; k++) {
        json_t *row = cols > 0 ? json_array() : json_real(v[k]);
        for (long c = 0; c < cols; c++) json_array_append_new(row, json_real(v[k * cols + c]));
        json_array_append_new(a, row);
    }
    return a;
}

static json_t *model_with(const json_t *problem, json_t *traj)
{
    json_t *ev = json_object(), *model = json_object();
    json_object_set(ev, "problem", (json_t *)problem);
    json_object_set_new(ev, "trajectory", traj);
    json_object_set_new(model, "dlvi_events", ev);
    return model;
}

static json_t *whole_tree(const dvc_dlvi_events_from *f)
{
    static const char *const keys[] = {"t", "p", "error_lo", "error_hi", "step_upper"};
    const double *v[5] = {f->t, f->p, f->lo, f->hi, f->up};
    json_t *o = json_object();
    for (int q = 0; q < 5; q++)
        json_object_set_new(o, keys[q], rows_json(v[q], q == 4 ? f->ns - 1 : f->ns, q == 0 ? 0 : f->n));
    return o;
}

static char *put_text(const char *text, const dvc_mark *mk, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dvc_mark_out o = {f, NULL, 0};
    REQUIRE(f != NULL, "open_memstream");
    *rc = dvc_mark_put(text, mk, 0, &o);
    fclose(f);
    return buf;
}

static void streamed(const char *prob, const char *path)
{
    dvc_dlvi_problem_t p;
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_dlvi_events_from f;
    dvc_traj_from tf, tk;
    dvc_efrom_spool sp;
    src_t src = {&tf};
    double x[2], row[9];
    long same = 0, n = 2;
    dvc_dlvi_problem_init(p, 0, 0, 53);
    REQUIRE(dvc_problem_read(p, prob, 53) == DVC_OK, "%s: %s", prob, dvc_error_message());
    dvc_hybrid_result_init(r);
    REQUIRE(dvc_dlvi_events_run(r, m, p, NULL) == DVC_OK && r->certified, "run: %s", dvc_error_message());
    /* the whole arrays */
    REQUIRE(dvc_traj_from_read(&tk, path, n, 1.0, DVC_TRAJ_FROM_KEEP) == DVC_OK, "%s", dvc_error_message());
    dvc_dlvi_events_from_init(&f);
    REQUIRE(dvc_dlvi_events_from_set(&f, n, tk.ns, tk.t, tk.x, r->t[0], r->t[r->nsteps]) == DVC_OK &&
            dvc_dlvi_events_from_bound(&f, m, r) == DVC_OK, "arrays: %s", dvc_error_message());
    /* 1. one sample at a time, rows spooled */
    REQUIRE(dvc_traj_from_read(&tf, path, n, 1.0, DVC_TRAJ_FROM_SAMPLES) == DVC_OK, "%s", dvc_error_message());
    CHECK(tf.t == NULL && tf.x == NULL && tf.grid.t == NULL && tf.ns == tk.ns, "no sample kept (%ld samples)",
          tf.ns);
    REQUIRE(dvc_efrom_samples_check_(n, tf.ns, from_file, &src, x, r->t[0], r->t[r->nsteps]) == DVC_OK &&
            dvc_efrom_spool_open_(&sp, n) == DVC_OK &&
            dvc_efrom_bound_stream_(n, tf.ns, from_file, &src, dvc_efrom_spool_row_, &sp, m, r) == DVC_OK,
            "streamed: %s", dvc_error_message());
    for (long k = 0; k < f.ns && sp.ns == f.ns; k++) {
        int ok = dvc_efrom_spool_read_(&sp, k, row) == DVC_OK && row[0] == f.t[k];
        for (long j = 0; j < n; j++)
            ok = ok && row[1 + j] == f.p[k * n + j] && row[1 + n + j] == f.lo[k * n + j] &&
                 row[1 + 2 * n + j] == f.hi[k * n + j] && (k + 1 == f.ns || row[1 + 3 * n + j] == f.up[k * n + j]);
        same += ok;
    }
    CHECK(sp.ns == f.ns && same == f.ns, "rows as the arrays': %ld of %ld (spooled %ld)", same, f.ns, sp.ns);
    {
        /* 2. the placeholder's text and digests, the whole tree's */
        json_t *problem = json_pack("{s:s, s:i}", "name", "bridge \"from\"", "T", 1);
        json_t *whole = model_with(problem, whole_tree(&f)), *marked = model_with(problem, json_string(DVC_EVENTS_TRAJ_MARK));
        char *tw = json_dumps(whole, JSON_COMPACT | JSON_PRESERVE_ORDER), *tm = json_dumps(marked, JSON_COMPACT | JSON_PRESERVE_ORDER);
        char *out, dw[17], dm[17];
        int rc;
        dvc_mark mk;
        dvc_hybrid_cert_t c;
        dvc_events_cert_traj_mark_(&mk, &sp);
        out = put_text(tm, &mk, &rc);
        CHECK(rc == 0 && strcmp(out, tw) == 0, "file order: the tree's text (%zu and %zu bytes)", strlen(out),
              strlen(tw));
        CHECK(dvc_json_digest(dw, whole) == DVC_OK && dvc_mark_digest(dm, marked, &mk) == 0 && strcmp(dw, dm) == 0,
              "digest %s, whole tree %s", dm, dw);
        dvc_hybrid_cert_init(c);
        CHECK(dvc_events_cert_write_(c, problem, &sp, NULL) == DVC_OK && strcmp(c->model_json, tw) == 0,
              "in memory: the tree");
        dvc_hybrid_cert_clear(c);
        free(out);
        free(tw);
        free(tm);
        json_decref(whole);
        json_decref(marked);
        json_decref(problem);
    }
    dvc_efrom_spool_close_(&sp);
    dvc_traj_from_clear(&tf);
    dvc_traj_from_clear(&tk);
    dvc_dlvi_events_from_clear(&f);
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    dvc_dlvi_problem_clear(p);
}

/* 3. a row appended between the first pass and the next */
static void rewritten(const char *path)
{
    dvc_traj_from tf;
    double t, x[2];
    dvc_status st = DVC_OK;
    FILE *f;
    write_traj(path, 50);
    REQUIRE(dvc_traj_from_read(&tf, path, 2, 1.0, DVC_TRAJ_FROM_SAMPLES) == DVC_OK, "%s", dvc_error_message());
    f = fopen(path, "a");
    REQUIRE(f != NULL, "cannot open %s", path);
    fputs("1.5,0,0.2\n", f);
    fclose(f);
    for (long k = 0; st == DVC_OK && k < tf.ns; k++) st = dvc_traj_from_sample(&tf, k, &t, x);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "the file changed while it was read") &&
          strstr(dvc_error_message(), path), "a row appended: refused (%d: %s)", (int)st, dvc_error_message());
    dvc_traj_from_clear(&tf);
    REQUIRE(dvc_traj_from_read(&tf, path, 2, 1.5, DVC_TRAJ_FROM_SAMPLES) == DVC_OK, "%s", dvc_error_message());
    CHECK(dvc_traj_from_sample(&tf, 1, &t, x) == DVC_ERR_INTERNAL, "a sample asked out of order");
    dvc_traj_from_clear(&tf);
}

int main(void)
{
    char prob[256], path[256];
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(prob, sizeof prob, "%s/bridge.json", dir);
    snprintf(path, sizeof path, "%s/tr.csv", dir);
    write_problem(prob);
    write_traj(path, 301);
    streamed(prob, path);
    rewritten(path);
    remove(prob);
    remove(path);
    rmdir(dir);
    return check_report();
}
