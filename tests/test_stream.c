/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Streaming certificates: the streamed writer produces the file the
 * in-memory writer produces, the streaming reader sees the tube the
 * whole-file reader sees and comes to the same verdicts, a layout it cannot
 * stream falls back or is refused, and memory does not grow with N.
 * argv[1]: the source directory's certs/. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include <jansson.h>

#include "dvicert/certio.h"
#include "dvicert/problem.h"
#include "io/json.h"
#include "enclose_call.h"

static char dir[] = "/tmp/dvc_test_stream.XXXXXX";

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    REQUIRE(f != NULL, "open %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    REQUIRE(buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n, "read %s", path);
    buf[n] = '\0';
    fclose(f);
    if (len) *len = (size_t)n;
    return buf;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL && fputs(text, f) >= 0 && fclose(f) == 0, "write %s", path);
}

/* The streamed certificate is byte for byte the in-memory one. */
static void same_file(const char *problem, int sharpen)
{
    char pa[256], pb[256];
    char *a, *b;
    size_t la, lb;
    dvc_cert_t c, c2;
    dvc_status st;
    snprintf(pa, sizeof pa, "%s/mem.cert.json", dir);
    snprintf(pb, sizeof pb, "%s/stream.cert.json", dir);
    dvc_cert_init(c);
    dvc_cert_init(c2);
    st = enclose_cw(c, problem, NULL, 0, 0, sharpen);
    REQUIRE(st == DVC_OK, "%s: %s", problem, dvc_error_message());
    REQUIRE(dvc_cert_write(c, pa) == DVC_OK, "write %s", pa);
    st = enclose_cw(c2, problem, pb, 0, 0, sharpen);
    REQUIRE(st == DVC_OK, "%s streamed: %s", problem, dvc_error_message());
    a = slurp(pa, &la);
    b = slurp(pb, &lb);
    CHECK(la == lb && memcmp(a, b, la) == 0, "%s: streamed and in-memory certificates differ", problem);
    CHECK(c2->N == c->N && c2->prec == c->prec, "%s: header", problem);
    free(a);
    free(b);
    /* the incremental digest is the whole-object digest the reader recomputes */
    dvc_cert_clear(c);
    dvc_cert_init(c);
    REQUIRE(dvc_cert_read(c, pb) == DVC_OK, "%s", dvc_error_message());
    CHECK(strcmp(c->digest, c->digest_read) == 0 && strcmp(c->digest, c2->digest) == 0,
          "%s: digest %s, recomputed %s", problem, c->digest, c->digest_read);
    CHECK(dvc_cert_verify(c) == DVC_OK, "%s: in-memory verify: %s", problem, dvc_error_message());
    dvc_cert_clear(c);
    dvc_cert_clear(c2);
}

/* The engine with a sink (two rows kept) hands over exactly the points of
 * the run that keeps every row. */
typedef struct {
    const dvc_dlvi_result_struct *full;
    long calls, bad;
} sink_t;

static dvc_status sink_cmp(const dvc_dlvi_point *pt, void *ctx)
{
    sink_t *k = ctx;
    const dvc_dlvi_result_struct *r = k->full;
    long i = pt->i, n = r->n, m = r->m;
    if (i != k->calls++) k->bad++;
    if (pt->t != r->t[i]) k->bad++;
    for (long j = 0; j < n; j++)
        if (pt->x[j] != r->x[i * n + j]) k->bad++;
    for (long q = 0; q < m; q++) {
        if (pt->y[q] != r->y[i * m + q]) k->bad++;
        if (!mpfr_equal_p(&pt->yhat[q].left, &r->yhat[i * m + q]->left) ||
            !mpfr_equal_p(&pt->yhat[q].right, &r->yhat[i * m + q]->right))
            k->bad++;
    }
    if (!mpfr_equal_p(pt->eps_x, r->eps_x[i]) || !mpfr_equal_p(pt->eps_y, r->eps_y[i])) k->bad++;
    if (i >= 1 && (pt->ry != r->ry[i - 1] || pt->Lx != r->Lx[i - 1] || pt->Lf != r->Lf[i - 1] ||
                   pt->Lg != r->Lg[i - 1] || pt->delta != r->delta[i - 1] ||
                   pt->beta_step != r->beta_step[i - 1]))
        k->bad++;
    return DVC_OK;
}

static void engine_sink(const char *problem, int sharpen, int binary64)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t full, win;
    dvc_dlvi_opts o;
    sink_t k = {NULL, 0, 0};
    dvc_dlvi_problem_init(p, 0, 0, 0);
    REQUIRE(dvc_problem_read(p, problem, 0) == DVC_OK, "%s: %s", problem, dvc_error_message());
    dvc_dlvi_opts_default(&o);
    o.sharpen = sharpen;
    o.binary64 = binary64;
    dvc_dlvi_result_init(full);
    dvc_dlvi_result_init(win);
    REQUIRE(dvc_dlvi_run(full, p, &o) == DVC_OK, "%s: %s", problem, dvc_error_message());
    k.full = full;
    o.sink = sink_cmp;
    o.sink_ctx = &k;
    CHECK(dvc_dlvi_run(win, p, &o) == DVC_OK, "%s with a sink: %s", problem, dvc_error_message());
    CHECK(k.calls == p->N + 1 && k.bad == 0 && win->window == 1, "%s: %ld points, %ld differ",
          problem, k.calls, k.bad);
    CHECK(mpfr_equal_p(win->max_eps_x, full->max_eps_x) && mpfr_equal_p(win->max_eps_y, full->max_eps_y) &&
          win->n_sharpened == full->n_sharpened && win->steps_done == full->steps_done,
          "%s: summary of the streamed run", problem);
    /* a streamed result keeps no tube */
    {
        dvc_ivec_t out;
        dvc_ivec_init2(out, p->n, p->prec);
        CHECK(dvc_dlvi_tube_x(out, win, p->T) == DVC_ERR_INPUT, "tube of a streamed result refused");
        dvc_ivec_clear(out);
    }
    dvc_dlvi_result_clear(full);
    dvc_dlvi_result_clear(win);
    dvc_dlvi_problem_clear(p);
}

/* Every point the streaming reader hands over agrees with the whole-file
 * tube: data and the outer tube over the step ending there. */
typedef struct {
    const dvc_cert_struct *whole;
    long calls, bad;
} cmp_t;

static dvc_status cmp_point(const dvc_cert_t c, long i, void *ctx)
{
    cmp_t *k = ctx;
    const dvc_tube_struct *w = k->whole->tube, *s = c->tube;
    long row = i % s->window;
    if (k->calls != i || s->steps != i) k->bad++;
    k->calls++;
    for (long j = 0; j < s->n; j++)
        if (s->x[row * s->n + j] != w->x[i * w->n + j]) k->bad++;
    if (!mpfr_equal_p(&s->eps_x[row]->right, &w->eps_x[i]->right)) k->bad++;
    if (i >= 1) {
        dvc_ivec_t a, b;
        mpfi_t t, t1;
        mpfi_init2(t, c->prec);
        mpfi_init2(t1, c->prec);
        dvc_ivec_init2(a, s->m, c->prec);
        dvc_ivec_init2(b, s->m, c->prec);
        /* the midpoint of step i (a grid time may round past t_i) */
        dvc_tube_time(t, c->tube, i - 1);
        dvc_tube_time(t1, c->tube, i);
        mpfi_add(t, t, t1);
        mpfi_div_2ui(t, t, 1);
        {
            mpfr_t mid;
            mpfr_init2(mid, c->prec);
            mpfi_mid(mid, t);
            mpfi_set_fr(t, mid);
            mpfr_clear(mid);
        }
        if (dvc_tube_outer(a, c->tube, t, 1) != DVC_OK) k->bad++;
        if (dvc_tube_outer(b, k->whole->tube, t, 1) != DVC_OK) k->bad++;
        for (long q = 0; q < s->m; q++)
            if (!mpfr_equal_p(&a->e[q]->left, &b->e[q]->left) || !mpfr_equal_p(&a->e[q]->right, &b->e[q]->right))
                k->bad++;
        if (i >= 8) {
            /* outside the window held: refused, not answered from stale rows */
            dvc_tube_time(t, c->tube, i - 7);
            dvc_ivec_t xo;
            dvc_status st;
            dvc_ivec_init2(xo, s->n, c->prec);
            st = dvc_tube_outer(xo, c->tube, t, 0);
            if (st != DVC_ERR_INPUT || !strstr(dvc_error_message(), "window")) k->bad++;
            dvc_ivec_clear(xo);
        }
        dvc_ivec_clear(a);
        dvc_ivec_clear(b);
        mpfi_clear(t);
        mpfi_clear(t1);
    }
    return DVC_OK;
}

static void reader(const char *path, int verify)
{
    dvc_cert_t whole, c;
    cmp_t k = {NULL, 0, 0};
    dvc_status st;
    dvc_cert_init(whole);
    dvc_cert_init(c);
    REQUIRE(dvc_cert_read(whole, path) == DVC_OK, "%s", dvc_error_message());
    k.whole = whole;
    st = dvc_cert_stream(c, path, verify, cmp_point, &k);
    CHECK(st == DVC_OK, "%s: streaming %s: %s", path, verify ? "verify" : "read", dvc_error_message());
    CHECK(k.calls == whole->N + 1 && k.bad == 0, "%s: %ld calls for N = %ld, %ld mismatches", path,
          k.calls, whole->N, k.bad);
    CHECK(c->tube->window > 0 && c->labels == NULL, "%s: the streaming reader keeps a window", path);
    dvc_cert_clear(whole);
    dvc_cert_clear(c);
}

static dvc_status count(const dvc_cert_t c, long i, void *ctx)
{
    (void)c;
    (void)i;
    (*(long *)ctx)++;
    return DVC_OK;
}

/* Line k (0-based) of text replaced by repl (owned result). */
static char *replace_line(const char *text, long k, const char *repl)
{
    const char *p = text, *e;
    size_t n;
    char *out;
    for (long q = 0; q < k; q++) {
        p = strchr(p, '\n');
        REQUIRE(p != NULL, "line %ld", k);
        p++;
    }
    e = strchr(p, '\n');
    n = strlen(text) + strlen(repl) + 2;
    out = malloc(n);
    REQUIRE(out != NULL, "alloc");
    snprintf(out, n, "%.*s%s%s", (int)(p - text), text, repl, e ? e : "");
    return out;
}

/* Line k of text (owned). */
static char *get_line(const char *text, long k)
{
    const char *p = text, *e;
    for (long q = 0; q < k; q++) p = strchr(p, '\n') + 1;
    e = strchr(p, '\n');
    return strndup(p, (size_t)(e - p));
}

/* Layouts the reader cannot stream, and a tampered streamed file. */
static void layouts(const char *certs)
{
    char src[512], p[256], *text, *line, *split, *edited, *at;
    dvc_cert_t c;
    dvc_status st;
    long calls = 0, first_step;
    snprintf(src, sizeof src, "%s/bridge/gamma0.5.cert.json", certs);
    snprintf(p, sizeof p, "%s/edit.cert.json", dir);
    text = slurp(src, NULL);
    dvc_cert_init(c);
    /* the step lines start after `"steps": [` */
    at = strstr(text, "\"steps\": [\n");
    REQUIRE(at != NULL, "steps line");
    first_step = 0;
    for (const char *q = text; q < at; q++) first_step += *q == '\n';
    first_step++;

    /* a step split over two lines once points were handed over: refused */
    line = get_line(text, first_step + 500);
    split = malloc(strlen(line) + 2);
    at = strstr(line, "\"eps_x\"");
    snprintf(split, strlen(line) + 2, "%.*s\n%s", (int)(at - line), line, at);
    edited = replace_line(text, first_step + 500, split);
    spit(p, edited);
    st = dvc_cert_stream(c, p, 0, count, &calls);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "one step per line") && calls == 500,
          "split step: status %d after %ld calls: %s", (int)st, calls, dvc_error_message());
    /* ... but read whole when nothing was handed over yet */
    st = dvc_cert_stream(c, p, 1, NULL, NULL);
    CHECK(st == DVC_OK, "split step, verify only: %s", dvc_error_message());
    free(line);
    free(split);
    free(edited);

    /* step lines in another spelling of the same JSON (blanks, key order,
     * an escaped character) are read by jansson, the others by the
     * scanner: the same digest, and the same verdict */
    {
        char d0[17], *l5, *l6, *l7, *e1, *e2, *w5, *w6, *w7;
        size_t k = 0;
        st = dvc_cert_stream(c, src, 1, NULL, NULL);
        CHECK(st == DVC_OK && strcmp(c->digest, c->digest_read) == 0, "original: %s", dvc_error_message());
        memcpy(d0, c->digest_read, sizeof d0);
        l5 = get_line(text, first_step + 5);
        w5 = malloc(2 * strlen(l5) + 1);
        for (const char *q = l5; *q; q++) { /* blanks after ':' and ',' */
            w5[k++] = *q;
            if ((*q == ':' || *q == ',') && q[1] != '\0') w5[k++] = ' ';
        }
        w5[k] = '\0';
        /* key order: "t" moved last */
        l6 = get_line(text, first_step + 6);
        e1 = strstr(l6, ",\"x\":");
        REQUIRE(e1 != NULL, "x of step 6");
        e2 = strrchr(l6, '}');
        {
            const char *b = strchr(l6, '{');
            w6 = malloc(strlen(l6) + 4);
            snprintf(w6, strlen(l6) + 4, "%.*s{%.*s,%.*s%s", (int)(b - l6), l6, (int)(e2 - e1 - 1), e1 + 1,
                     (int)(e1 - b - 1), b + 1, e2);
        }
        /* the first character of the label escaped */
        l7 = get_line(text, first_step + 7);
        e1 = strstr(l7, "{\"t\":\"");
        REQUIRE(e1 == l7 + strspn(l7, " "), "t of step 7");
        w7 = malloc(strlen(l7) + 8);
        snprintf(w7, strlen(l7) + 8, "%.*s\\u%04x%s", (int)(e1 + 6 - l7), l7, (unsigned)e1[6], e1 + 7);
        edited = replace_line(text, first_step + 5, w5);
        {
            char *t2 = replace_line(edited, first_step + 6, w6), *t3;
            t3 = replace_line(t2, first_step + 7, w7);
            free(edited);
            free(t2);
            edited = t3;
        }
        spit(p, edited);
        calls = 0;
        st = dvc_cert_stream(c, p, 1, count, &calls);
        CHECK(st == DVC_OK && calls == c->N + 1 && strcmp(c->digest_read, d0) == 0,
              "respelled steps: status %d, digest %s (original %s): %s", (int)st, c->digest_read, d0,
              dvc_error_message());
        /* ... and an edit of a respelled line is still seen */
        {
            char *bad = strdup(w5), *t4;
            char *x = strstr(bad, "\"0x");
            REQUIRE(x != NULL, "a hex value in step 5");
            x[3] = x[3] == '1' ? '0' : '1';
            t4 = replace_line(edited, first_step + 5, bad);
            spit(p, t4);
            st = dvc_cert_stream(c, p, 0, NULL, NULL);
            CHECK(st == DVC_OK && strcmp(c->digest_read, d0) != 0, "edit of a respelled step: digest %s",
                  c->digest_read);
            free(bad);
            free(t4);
        }
        free(edited);
        free(l5);
        free(l6);
        free(l7);
        free(w5);
        free(w6);
        free(w7);
    }

    /* one line (compact JSON): read whole, same verdict */
    {
        json_error_t err;
        json_t *root = json_load_file(src, 0, &err);
        REQUIRE(root && json_dump_file(root, p, JSON_COMPACT) == 0, "compact copy");
        json_decref(root);
        calls = 0;
        st = dvc_cert_stream(c, p, 1, count, &calls);
        CHECK(st == DVC_OK && calls == c->N + 1, "compact: %s", dvc_error_message());
    }

    /* a bound lowered at step 10 and the digest made consistent: rejected by
     * recomputation, and no point from step 10 on is handed over */
    line = get_line(text, first_step + 10);
    at = strstr(line, "\"eps_x\":\"");
    REQUIRE(at != NULL, "eps_x of step 10");
    {
        char *e = strchr(at + 9, '"');
        char *nl = malloc(strlen(line) + 8);
        dvc_cert_t r;
        char *dl, *fixed;
        long last;
        snprintf(nl, strlen(line) + 8, "%.*s1e-30%s", (int)(at + 9 - line), line, e);
        edited = replace_line(text, first_step + 10, nl);
        free(nl);
        spit(p, edited);
        dvc_cert_init(r);
        REQUIRE(dvc_cert_read(r, p) == DVC_OK, "%s", dvc_error_message());
        /* the digest line is the last but one */
        last = 0;
        for (const char *q = edited; *q; q++) last += *q == '\n';
        dl = malloc(64);
        snprintf(dl, 64, "  \"digest\": \"fnv1a64:%s\"", r->digest_read);
        fixed = replace_line(edited, last - 2, dl);
        spit(p, fixed);
        calls = 0;
        st = dvc_cert_stream(c, p, 1, count, &calls);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "step 10, field 'eps_x'") &&
              calls == 10, "tampered step 10: status %d, %ld calls: %s", (int)st, calls,
              dvc_error_message());
        /* the in-memory verifier agrees */
        dvc_cert_clear(r);
        dvc_cert_init(r);
        REQUIRE(dvc_cert_read(r, p) == DVC_OK && strcmp(r->digest, r->digest_read) == 0,
                "re-digested file");
        CHECK(dvc_cert_verify(r) == DVC_NOT_CERTIFIED, "in-memory verify of the tamper");
        dvc_cert_clear(r);
        free(dl);
        free(fixed);
        free(edited);
    }
    free(line);
    free(text);
    dvc_cert_clear(c);
}

/* A run that is not certified leaves no file. */
static void no_partial(void)
{
    char prob[256], out[256];
    dvc_cert_t c;
    dvc_status st;
    snprintf(prob, sizeof prob, "%s/notp.json", dir);
    snprintf(out, sizeof out, "%s/notp.cert.json", dir);
    /* the bounds overflow part way (step 1421 of x' = x up to T = 800):
     * certified steps were written by then, the run fails */
    spit(prob, "{\"A\":[[1]],\"B\":[[1]],\"Q\":[[1]],\"M\":[[1]],\"l\":[0],\"u\":[\"inf\"],"
               "\"x0\":[1],\"T\":800,\"N\":4000}\n");
    dvc_cert_init(c);
    st = enclose_cw(c, prob, out, 0, 0, 0);
    CHECK(st == DVC_NOT_CERTIFIED, "overflowing run: status %d: %s", (int)st, dvc_error_message());
    CHECK(access(out, F_OK) != 0, "a failed run left %s", out);
    /* retried at 106 bits over the steps written at 53 (the temporary file
     * is started again), failing again: still nothing left */
    st = enclose_cw(c, prob, out, 0, 106, 0);
    CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "from 53 to 106 bits"),
          "retried run: status %d: %s", (int)st, dvc_error_message());
    CHECK(access(out, F_OK) != 0, "a failed retried run left %s", out);
    dvc_cert_clear(c);
    remove(prob);
}

/* Peak RSS of a child that streams N = 40000 steps through enclose and
 * verify. The in-memory code needed about 1.2 MB per 400 steps of such a
 * problem (about 120 MB here); the streaming code needs a few MB whatever N.
 * Skipped under AddressSanitizer, whose quarantine holds freed memory. */
static void memory(void)
{
#if defined(__SANITIZE_ADDRESS__)
    printf("memory: skipped under AddressSanitizer\n");
#else
    char prob[256], out[256];
    struct rusage ru;
    int status;
    pid_t pid;
    snprintf(prob, sizeof prob, "%s/long.json", dir);
    snprintf(out, sizeof out, "%s/long.cert.json", dir);
    spit(prob, "{\"A\":[[-1]],\"B\":[[1]],\"Q\":[[1]],\"M\":[[1]],\"l\":[0],\"u\":[\"inf\"],"
               "\"x0\":[1],\"T\":1,\"N\":40000}\n");
    fflush(stdout);
    pid = fork();
    REQUIRE(pid >= 0, "fork");
    if (pid == 0) {
        dvc_cert_t c;
        int rc = 0;
        dvc_cert_init(c);
        if (enclose_cw(c, prob, out, 0, 0, 0) != DVC_OK) rc = 1;
        else if (dvc_cert_stream(c, out, 1, NULL, NULL) != DVC_OK) rc = 2;
        else if (c->N != 40000) rc = 3;
        dvc_cert_clear(c);
        _exit(rc);
    }
    REQUIRE(wait4(pid, &status, 0, &ru) == pid, "wait4");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "streamed enclose + verify of N = 40000: "
          "child status %d", status);
    CHECK(ru.ru_maxrss < 32 * 1024, "peak RSS %ld KB for N = 40000 (bound 32 MB)", (long)ru.ru_maxrss);
    printf("memory: N = 40000 streamed through enclose and verify, peak RSS %ld KB\n",
           (long)ru.ru_maxrss);
    remove(prob);
    remove(out);
#endif
}


/* xorshift: reproducible random bits */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* The writer's %a and the reader's hexadecimal floats against glibc. */
static void hex_conversions(void)
{
    long bad_w = 0, bad_r = 0, missed = 0;
    for (long t = 0; t < 200000; t++) {
        uint64_t bits = rnd64();
        double d, back = 0;
        char a[40], b[40];
        if (t % 7 == 0) bits &= ~(UINT64_C(0xfffffffffff) << 8);      /* trailing zero digits */
        if (t % 11 == 0) bits &= (UINT64_C(1) << 63) | UINT64_C(0xfffff); /* subnormal */
        if (t % 13 == 0) bits &= UINT64_C(1) << 63;                    /* signed zero */
        memcpy(&d, &bits, sizeof d);
        if (isnan(d) || isinf(d)) continue;
        snprintf(a, sizeof a, "%a", d);
        dvc_hex_write_(b, d);
        bad_w += strcmp(a, b) != 0;
        if (dvc_hex_normal_(&back, a)) {
            uint64_t bb;
            memcpy(&bb, &back, sizeof bb);
            bad_r += bb != bits;
        } else {
            /* only the subnormal notation is left to strtod */
            missed += fpclassify(d) != FP_SUBNORMAL;
        }
    }
    CHECK(bad_w == 0, "%ld doubles written otherwise than by %%a", bad_w);
    CHECK(bad_r == 0, "%ld hexadecimal floats read back to other bits", bad_r);
    CHECK(missed == 0, "%ld normal or zero hexadecimal floats not handled", missed);
    {
        double d;
        CHECK(!dvc_hex_normal_(&d, "0x1.8p+1x") && !dvc_hex_normal_(&d, "0x2p+0") &&
              !dvc_hex_normal_(&d, "0x1.00000000000000p+0") && !dvc_hex_normal_(&d, "0x1p+1024") &&
              !dvc_hex_normal_(&d, "0x1p"), "malformed or out-of-range hex accepted");
    }
}

/* The time labels: printf's %.17g, and the grid times of a certificate
 * (the enclosure rule of dvc_cert_time_label, its fast path and the
 * general one agree). */
static void label_conversions(void)
{
    long bad = 0, handled = 0;
    for (long t = 0; t < 200000; t++) {
        double d;
        char a[64], b[40];
        if (t % 2) {
            uint64_t bits = rnd64();
            memcpy(&d, &bits, sizeof d);
            if (isnan(d) || isinf(d)) continue;
        } else {
            d = (double)(rnd64() % 2000001) * ldexp(1.0, -(int)(rnd64() % 60)) / (double)(1 + rnd64() % 100000);
        }
        if (t % 17 == 0) d = (double)(rnd64() % 100001) / 1e4; /* the grid of h = 1e-4 */
        snprintf(a, sizeof a, "%.17g", d);
        if (!dvc_fmt_g17_(b, d)) continue;
        handled++;
        if (strcmp(a, b) != 0 && bad++ == 0) fprintf(stderr, "first mismatch: %s vs printf %s\n", b, a);
    }
    CHECK(bad == 0, "%ld of %ld doubles printed otherwise than by %%.17g", bad, handled);
    CHECK(handled > 50000, "%%.17g path taken %ld times", handled);
    {
        /* T = 1, 0.1 (not binary: an enclosure), 3.7 at N = 1e4, 3, 7e5 */
        static const char *const Ts[] = {"1", "0.1", "3.7", "1e-3"};
        static const long Ns[] = {10000, 3, 700000};
        long badl = 0;
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 3; b++) {
                mpfi_t T, t;
                mpfr_t mid;
                mpfi_init2(T, 53);
                mpfi_init2(t, 53 + 64);
                mpfr_init2(mid, 53 + 64);
                dvc_ival_set_str(T, Ts[a]);
                for (long i = 0; i <= Ns[b]; i += 1 + Ns[b] / 5000) {
                    char got[40], ref[40];
                    double x, y;
                    dvc_cert_time_label(got, T, Ns[b], i);
                    /* the rule, spelled out with MPFI */
                    mpfi_mul_si(t, T, i);
                    mpfi_div_si(t, t, Ns[b]);
                    x = mpfr_get_d(&t->left, MPFR_RNDN);
                    y = mpfr_get_d(&t->right, MPFR_RNDN);
                    if (x != y) {
                        mpfi_mid(mid, t);
                        x = mpfr_get_d(mid, MPFR_RNDN);
                    }
                    snprintf(ref, sizeof ref, "%.17g", x);
                    badl += strcmp(got, ref) != 0;
                }
                mpfi_clear(T);
                mpfi_clear(t);
                mpfr_clear(mid);
            }
        CHECK(badl == 0, "%ld time labels differ from the rule", badl);
    }
}

/* Decimals: the fast enclosure is mpfr_strtofr's (via dvc_ival_set_str),
 * and the fast outward rounding is MPFR's %.11RUe / %.11RDe. */
static void dec_conversions(void)
{
    static const mpfr_prec_t precs[] = {24, 53, 64, 113, 40, 63};
    long bad_in = 0, bad_out = 0, handled = 0, tried = 0;
    mpfi_t a, b;
    mpz_t W;
    mpfr_t v;
    mpz_init(W);
    for (long t = 0; t < 100000; t++) {
        mpfr_prec_t pr = precs[t % 6];
        int nd = 1 + (int)(rnd64() % 19), ex = (int)(rnd64() % 81) - 40;
        char s[64], *q = s;
        if (rnd64() % 2) *q++ = '-';
        *q++ = (char)('1' + rnd64() % 9);
        if (nd > 1) *q++ = '.';
        for (int k = 1; k < nd; k++) *q++ = (char)('0' + rnd64() % 10);
        snprintf(q, 16, "e%+03d", ex);
        mpfi_init2(a, pr);
        mpfi_init2(b, pr);
        REQUIRE(dvc_ival_set_str(b, s) == DVC_OK, "parse %s", s);
        if (dvc_dec_enclose_fast_(a, s)) {
            handled++;
            bad_in += !mpfr_equal_p(&a->left, &b->left) || !mpfr_equal_p(&a->right, &b->right);
            if (bad_in == 1 && (!mpfr_equal_p(&a->left, &b->left) || !mpfr_equal_p(&a->right, &b->right)))
                fprintf(stderr, "first mismatch: %s at %ld bits\n", s, (long)pr);
        }
        tried++;
        mpfi_clear(a);
        mpfi_clear(b);
    }
    CHECK(bad_in == 0, "%ld of %ld decimals enclosed otherwise than by mpfr_strtofr", bad_in, handled);
    CHECK(handled > tried / 2, "fast decimal path taken %ld times of %ld", handled, tried);
    for (long t = 0; t < 100000; t++) {
        int bits = 1 + (int)(rnd64() % 110), up = (int)(rnd64() % 2);
        long e = (long)(rnd64() % 400) - 250;
        char fast[64], *ref;
        mpz_set_ui(W, 0);
        for (int k = 0; k < bits; k += 32) {
            mpz_mul_2exp(W, W, 32);
            mpz_add_ui(W, W, (unsigned long)(rnd64() & 0xffffffffu));
        }
        mpz_fdiv_q_2exp(W, W, (mp_bitcnt_t)((bits + 31) / 32 * 32 - bits));
        if (t % 5 == 0) { /* values next to a power of ten */
            mpz_ui_pow_ui(W, 10, (unsigned long)(rnd64() % 30));
            if (rnd64() % 2) mpz_sub_ui(W, W, 1);
            e = 0;
        }
        if (rnd64() % 2) mpz_neg(W, W);
        mpfr_init2(v, 160);
        mpfr_set_z_2exp(v, W, e, MPFR_RNDN); /* exact: at most 110 bits */
        ref = dvc_mpfr_str(v, 12, up ? MPFR_RNDU : MPFR_RNDD);
        REQUIRE(ref != NULL, "mpfr_str");
        if (!dvc_dec_round_z_(fast, sizeof fast, W, e, up, 12) || strcmp(fast, ref) != 0) {
            if (bad_out++ == 0) fprintf(stderr, "first mismatch: %s vs MPFR %s\n", fast, ref);
        }
        free(ref);
        mpfr_clear(v);
    }
    CHECK(bad_out == 0, "%ld values rounded to 12 digits otherwise than by MPFR", bad_out);
    /* the integer path alone, on the stated bounds' range (a 53-bit
     * significand widened by 2^-40: 93 to 104 bits, values 1e-18 to 1) */
    bad_out = 0;
    handled = 0;
    for (long t = 0; t < 100000; t++) {
        int bits = 93 + (int)(rnd64() % 12), neg = (int)(rnd64() % 2), cm = (int)(rnd64() % 2);
        long e = -bits - (long)(rnd64() % 60);
        dvc_u128 A = ((dvc_u128)rnd64() << 64 | rnd64()) >> (128 - bits);
        char fast[64], *ref;
        A |= (dvc_u128)1 << (bits - 1);
        if (t % 3 == 0) { /* (odd < 2^10) 2^-s: many have an exact 12-digit decimal */
            A = (dvc_u128)(rnd64() % 1024 | 1) << (bits - 10);
            e = -(bits - 10) - (long)(rnd64() % 20);
        }
        if (!dvc_dec_round_u128_(fast, sizeof fast, A, neg, e, cm, 12)) continue;
        handled++;
        mpz_set_ui(W, (unsigned long)(uint64_t)(A >> 64));
        mpz_mul_2exp(W, W, 64);
        mpz_add_ui(W, W, (unsigned long)(uint64_t)A);
        if (neg) mpz_neg(W, W);
        mpfr_init2(v, 128);
        mpfr_set_z_2exp(v, W, e, MPFR_RNDN);
        /* magnitude up: toward +inf for a positive value, -inf for a negative one */
        ref = dvc_mpfr_str(v, 12, cm != neg ? MPFR_RNDU : MPFR_RNDD);
        if (strcmp(fast, ref) != 0 && bad_out++ == 0) fprintf(stderr, "first mismatch: %s vs MPFR %s\n", fast, ref);
        free(ref);
        mpfr_clear(v);
    }
    CHECK(bad_out == 0, "%ld of %ld values rounded by the integer path otherwise than by MPFR", bad_out, handled);
    CHECK(handled > 80000, "integer path taken %ld times of 100000", handled);
    mpz_clear(W);
}

int main(int argc, char **argv)
{
    char path[512];
    REQUIRE(argc >= 2, "usage: test_stream CERTS_DIR");
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp");
    hex_conversions();
    dec_conversions();
    label_conversions();
    snprintf(path, sizeof path, "%s/bridge/gamma0.2.json", argv[1]);
    engine_sink(path, 0, 1);
    snprintf(path, sizeof path, "%s/remark43/x0_1.json", argv[1]);
    engine_sink(path, 1, 1);
    snprintf(path, sizeof path, "%s/circuit/circuit.json", argv[1]);
    engine_sink(path, 0, 1);
    engine_sink(path, 0, 0); /* the MPFI path as well */
    snprintf(path, sizeof path, "%s/bridge/gamma0.2.json", argv[1]);
    same_file(path, 0);
    snprintf(path, sizeof path, "%s/remark43/x0_1.json", argv[1]);
    same_file(path, 1);
    snprintf(path, sizeof path, "%s/pounding/pounding.json", argv[1]);
    same_file(path, 1);
    /* the streamed file, and a committed one (summary before the steps) */
    snprintf(path, sizeof path, "%s/stream.cert.json", dir);
    reader(path, 1);
    reader(path, 0);
    snprintf(path, sizeof path, "%s/circuit/circuit.cert.json", argv[1]);
    reader(path, 1);
    layouts(argv[1]);
    no_partial();
    memory();
    snprintf(path, sizeof path, "%s/mem.cert.json", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/stream.cert.json", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/edit.cert.json", dir);
    remove(path);
    rmdir(dir);
    mpfr_free_cache();
    return check_report();
}
