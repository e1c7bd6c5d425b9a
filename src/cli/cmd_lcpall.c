/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert lcp-all: certified enclosure of all solutions of an LCP. */
#ifdef __linux__
#define _GNU_SOURCE /* sync_file_range */
#include <fcntl.h>
#endif
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "dvicert/lcpall.h"
#include "ival_dec.h"
#include "lcpall_internal.h"

static void help(void)
{
    printf(
        "usage: dvicert lcp-all PROBLEM.json [-o OUT.json] [--method auto|enum]\n"
        "                       [--max-seconds S] [--max-n N] [--prec BITS] [--digits D]\n\n"
        "Encloses ALL solutions of the linear complementarity problem\n"
        "  z >= 0,  w = M z + q >= 0,  z_i w_i = 0 for every i\n"
        "for every M and q in the (interval) data, with a three-valued answer:\n"
        "  complete    all solutions enclosed and the list proven complete: for every\n"
        "              data point there are exactly that many solutions, one in each\n"
        "              box, each proven nondegenerate (z_i + w_i > 0 for every i)\n"
        "  incomplete  solutions enclosed, completeness not proven; the reason says why\n"
        "              (a degenerate solution, a basis that could be neither excluded\n"
        "              nor enclosed, the time budget); candidate boxes are listed\n"
        "  failed      nothing proven (the reason says where)\n\n"
        "PROBLEM.json is the file format of 'dvicert lvi' with l = 0 and u = inf\n"
        "(other boxes are refused):\n"
        "  {\"M\": [[-1, 2], [2, -1]], \"q\": [1, 1], \"l\": [0, 0], \"u\": [\"inf\", \"inf\"]}\n"
        "Numbers are JSON numbers or decimal strings (enclosed exactly); an entry may be\n"
        "an interval [lo, hi].\n\n"
        "Method: first a proof that M is a P-matrix (then the solution is unique and is\n"
        "enclosed by the route of 'dvicert lvi'); otherwise, or with --method enum, each\n"
        "of the 2^n complementary bases J is excluded by a Farkas certificate checked\n"
        "with directed rounding, or by a verified solve of M_JJ z_J = -q_J with a\n"
        "component proven negative, or enclosed by that verified solve. Proofs:\n"
        "docs/lcpall.md. Time: about 2^n microseconds (n = 17: a fraction of a second).\n\n"
        "Output: the verdict, the counts and each box: the basis (1 where z_i may be\n"
        "nonzero and w_i = 0), z and w with endpoints rounded outward to D significant\n"
        "digits (default 17). With -o the same as JSON (docs/formats.md) and only the\n"
        "summary is printed.\n\n");
    dvc_cli_print_options(&dvc_cmd_lcpall);
    printf(
        "\nexit status: 0 complete, 1 incomplete or failed, 2 bad input (malformed file,\n"
        "wrong dimensions, NaN, a box other than l = 0, u = inf) or i/o error.\n");
}

static const dvc_cli_opt opts[] = {
    /* not "output": the common option is mandatory where it is listed */
    {"json", 'o', "FILE", "a file name", "write the boxes as JSON to FILE (nothing is written on\nbad input; never one of the inputs)"},
    {"method", 0, "M", "auto or enum", "auto (P-matrix proof first) or enum (default auto)"},
    {"max-seconds", 0, "S", "a number of seconds", "time budget of the enumeration (default 60; 0: none)"},
    {"max-n", 0, "N", "a size", "largest n enumerated (default 24, at most 30)"},
    {"prec", 0, "BITS", "a number of bits", "precision of the data and of the P-matrix route (default 53)"},
    {"digits", 0, "D", "a number of digits", "significant digits of the printed bounds (default 17)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_lcpall = {
    "lcp-all", "certified enclosure of all solutions of an LCP", opts, NULL, NULL, 1, 1,
    "dvicert lcp-all PROBLEM.json [-o OUT.json]", help, run};

/* Output buffered by hand: one fprintf per number made the JSON of 2^17
 * solutions cost ten times the enumeration. */
typedef struct {
    FILE *f;
    size_t len;
    char buf[1 << 16];
} outbuf;

static void ob_flush(outbuf *o)
{
    if (o->len > 0) fwrite(o->buf, 1, o->len, o->f);
    o->len = 0;
}

static inline void ob_put(outbuf *o, const char *s, size_t n)
{
    if (o->len + n > sizeof o->buf) ob_flush(o);
    if (n > sizeof o->buf) {
        fwrite(s, 1, n, o->f);
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void ob_str(outbuf *o, const char *s) { ob_put(o, s, strlen(s)); }

/* a string literal, its length known at compile time */
#define OB_LIT(o, s) ob_put(o, s, sizeof s - 1)

/* The basis as n characters 1 / 0. */
static void ob_basis(outbuf *o, const char *basis, long n)
{
    char *p;
    if (o->len + (size_t)n > sizeof o->buf) ob_flush(o);
    p = o->buf + o->len;
    for (long i = 0; i < n; i++) p[i] = basis[i] ? '1' : '0';
    o->len += (size_t)n;
}

/* x as the outward decimal text of dvc_mpfr_str (up: rounded toward +inf,
 * else toward -inf), "0" for a zero, "inf" / "-inf": in integer arithmetic
 * where dvc_lcpall_fmt_ or dvc_dec_round_u128_ can (the same text, byte for
 * byte), else by MPFR. */
static void ob_end(outbuf *o, double x, int digits, int up)
{
    char b[64];
    uint64_t bits, m;
    int ex, neg, len;
    if (o->len + 64 > sizeof o->buf) ob_flush(o);
    if ((len = dvc_lcpall_fmt_(o->buf + o->len, x, digits, up)) > 0) { /* the common case */
        o->len += (size_t)len;
        return;
    }
    if (x == 0) {
        ob_put(o, "0", 1);
        return;
    }
    if (isinf(x)) {
        ob_str(o, x > 0 ? "inf" : "-inf");
        return;
    }
    memcpy(&bits, &x, sizeof bits);
    neg = (int)(bits >> 63);
    ex = (int)((bits >> 52) & 0x7ff);
    m = bits & ((UINT64_C(1) << 52) - 1);
    if (ex != 0x7ff) {
        long e = ex == 0 ? -1074 : ex - 1075;
        if (ex != 0) m |= UINT64_C(1) << 52;
        if (dvc_dec_round_u128_(b, sizeof b, m, neg, e, up != neg, digits)) {
            ob_str(o, b);
            return;
        }
    }
    {
        mpfr_t t;
        char *str;
        mpfr_init2(t, 53);
        mpfr_set_d(t, x, MPFR_RNDN); /* exact */
        str = dvc_mpfr_str(t, digits, up ? MPFR_RNDU : MPFR_RNDD);
        mpfr_clear(t);
        ob_str(o, str ? str : up ? "inf" : "-inf");
        free(str);
    }
}

/* [lo, hi] as outward decimal strings: JSON (quoted) or plain. */
static void ob_ival(outbuf *o, double lo, double hi, int digits, int json)
{
    if (o->len + 128 > sizeof o->buf) ob_flush(o);
    if (lo == 0 && hi == 0) { /* the exact zeros off the basis: half of all entries */
        if (json) OB_LIT(o, "[\"0\", \"0\"]");
        else OB_LIT(o, "[0, 0]");
        return;
    }
    if (json) OB_LIT(o, "[\"");
    else OB_LIT(o, "[");
    ob_end(o, lo, digits, 0);
    if (json) OB_LIT(o, "\", \"");
    else OB_LIT(o, ", ");
    ob_end(o, hi, digits, 1);
    if (json) OB_LIT(o, "\"]");
    else OB_LIT(o, "]");
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

static const char *verdict_key(dvc_lcpall_verdict v)
{
    return v == DVC_LCPALL_COMPLETE ? "complete" : v == DVC_LCPALL_INCOMPLETE ? "incomplete" : "failed";
}

/* The writer of the boxes: JSON entries (streamed to a spool file while the
 * enumeration runs) or the plain report. */
typedef struct {
    outbuf o;
    int digits, json;
    char *basis;
    double *lo, *hi;
} box_writer;

/* One box as text: a JSON entry (k: its index, 0 for the first) or the
 * plain report. */
static void put_entry(box_writer *bw, long n, long k, int st, int nd)
{
    outbuf *o = &bw->o;
    char num[48];
    if (bw->json) {
        if (k) OB_LIT(o, ",\n    {\"basis\": \"");
        else OB_LIT(o, "\n    {\"basis\": \"");
        ob_basis(o, bw->basis, n);
        ob_str(o, st == DVC_LCPALL_SOL_EXISTS ? "\", \"status\": \"exists\", \"nondegenerate\": "
                                              : "\", \"status\": \"candidate\", \"nondegenerate\": ");
        ob_str(o, nd ? "true,\n     \"z\": [" : "false,\n     \"z\": [");
        for (int zw = 0; zw < 2; zw++) {
            if (zw) OB_LIT(o, "],\n     \"w\": [");
            for (long i = 0; i < n; i++) {
                if (i) ob_put(o, ", ", 2);
                if ((bw->basis[i] != 0) == (zw == 0)) ob_ival(o, bw->lo[i], bw->hi[i], bw->digits, 1);
                else ob_ival(o, 0, 0, bw->digits, 1);
            }
        }
        OB_LIT(o, "]}");
    } else {
        snprintf(num, sizeof num, "%s %ld: basis ", st == DVC_LCPALL_SOL_EXISTS ? "solution" : "candidate", k + 1);
        ob_str(o, num);
        ob_basis(o, bw->basis, n);
        ob_str(o, st != DVC_LCPALL_SOL_EXISTS ? " (existence not proven)\n"
                  : nd ? " (nondegenerate)\n" : " (strict complementarity not proven)\n");
        for (long i = 0; i < n; i++) {
            snprintf(num, sizeof num, "  z[%ld] in ", i + 1);
            ob_str(o, num);
            if (bw->basis[i]) ob_ival(o, bw->lo[i], bw->hi[i], bw->digits, 0);
            else ob_ival(o, 0, 0, bw->digits, 0);
            snprintf(num, sizeof num, "  w[%ld] in ", i + 1);
            ob_str(o, num);
            if (!bw->basis[i]) ob_ival(o, bw->lo[i], bw->hi[i], bw->digits, 0);
            else ob_ival(o, 0, 0, bw->digits, 0);
            ob_put(o, "\n", 1);
        }
    }
}

/* Box k of r in the plain report. */
static void put_box(box_writer *bw, const dvc_lcpall_result_t r, long k)
{
    int nd = 0, st = dvc_lcpall_get_d(r, k, bw->lo, bw->hi, bw->basis, &nd);
    if (st >= 0) put_entry(bw, r->n, k, st, nd);
}

/* The spool record of a box: a status byte (bit 0 exists, bit 1
 * nondegenerate), the basis (n bytes), lo and hi (n doubles each). Binary,
 * a tenth of the text: the text is made once, when the counts of the head
 * are known, and written once (the text spooled and copied over cost more
 * than the enumeration). */
static size_t rec_size(long n) { return 1 + (size_t)n * (1 + 2 * sizeof(double)); }

static int spool_box(void *ctx, const struct dvc_lcpall_result_s *r, long k)
{
    box_writer *bw = ctx;
    outbuf *o = &bw->o;
    long n = r->n;
    int nd = 0, st = dvc_lcpall_get_d(r, k, bw->lo, bw->hi, bw->basis, &nd);
    unsigned char s;
    if (st < 0) return 1;
    s = (unsigned char)(st | (nd ? 2 : 0));
    if (o->len + rec_size(n) > sizeof o->buf) ob_flush(o);
    ob_put(o, (const char *)&s, 1);
    ob_put(o, bw->basis, (size_t)n);
    ob_put(o, (const char *)bw->lo, sizeof(double) * (size_t)n);
    ob_put(o, (const char *)bw->hi, sizeof(double) * (size_t)n);
    return ferror(o->f) ? 1 : 0;
}

static box_writer *box_writer_new(long n, int digits, int json, FILE *f)
{
    box_writer *bw = malloc(sizeof *bw);
    if (bw == NULL) return NULL;
    bw->o.f = f;
    bw->o.len = 0;
    bw->digits = digits;
    bw->json = json;
    bw->basis = malloc((size_t)n + 1);
    bw->lo = malloc(sizeof(double) * (size_t)(2 * n + 1));
    bw->hi = bw->lo ? bw->lo + n : NULL;
    if (bw->basis == NULL || bw->lo == NULL) {
        free(bw->basis);
        free(bw->lo);
        free(bw);
        return NULL;
    }
    return bw;
}

static void box_writer_free(box_writer *bw)
{
    if (bw == NULL) return;
    free(bw->basis);
    free(bw->lo);
    free(bw);
}

/* Start the disk writes of what f holds so far, every 8 MB (Linux): the
 * one fsync at the end then waits for the last few megabytes, not for the
 * whole file (1.5 GB at n = 20). Best effort (nothing on a pipe); the fsync
 * is what makes the file durable. */
static void start_writeback(FILE *f, off_t *from)
{
#ifdef __linux__
    off_t at;
    if (fflush(f) != 0 || (at = ftello(f)) < 0 || at - *from < (8 << 20)) return;
    (void)sync_file_range(fileno(f), *from, at - *from, SYNC_FILE_RANGE_WRITE);
    *from = at;
#else
    (void)f;
    (void)from;
#endif
}

/* The boxes of the spool, read back, as JSON entries on f (named out in
 * messages, as dvc_outfile_commit names it). */
static dvc_status spool_to_json(FILE *f, const char *out, FILE *spool, long n, long nsol, int digits)
{
    box_writer *bw = box_writer_new(n, digits, 1, f);
    size_t rs = rec_size(n), got = 0, at = 0;
    char *in = malloc(rs * 1024);
    dvc_status st = DVC_OK;
    long k = 0;
    off_t synced = 0;
    if (bw == NULL || in == NULL) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK && (fflush(spool) != 0 || ferror(spool) || fseek(spool, 0, SEEK_SET) != 0))
        st = dvc_error(DVC_ERR_IO, "cannot write the spool file of the boxes");
    while (st == DVC_OK && k < nsol) {
        const char *p;
        if (at == got) {
            if (k > 0) {
                ob_flush(&bw->o);
                start_writeback(f, &synced);
            }
            got = fread(in, rs, 1024, spool);
            at = 0;
            if (got == 0) {
                st = dvc_error(DVC_ERR_IO, "cannot read back the spool file of the boxes");
                break;
            }
        }
        p = in + rs * at++;
        memcpy(bw->basis, p + 1, (size_t)n);
        memcpy(bw->lo, p + 1 + n, sizeof(double) * (size_t)n);
        memcpy(bw->hi, p + 1 + n + sizeof(double) * (size_t)n, sizeof(double) * (size_t)n);
        put_entry(bw, n, k++, p[0] & 1, (p[0] & 2) != 0);
        if (ferror(f)) {
            int e = errno;
            st = strcmp(out, "-") == 0 ? dvc_error(DVC_ERR_IO, "standard output: cannot write: %s", strerror(e))
                                       : dvc_error(DVC_ERR_IO, "%s: cannot write: %s", out, strerror(e));
        }
    }
    if (bw != NULL) ob_flush(&bw->o);
    box_writer_free(bw);
    free(in);
    return st;
}

/* The JSON file: its head (the counts, known at the end), the entries of
 * the spooled boxes and its tail. */
static dvc_status write_json(FILE *f, const char *out, const char *path, const dvc_lcpall_result_t r,
                             FILE *spool, int digits)
{
    dvc_status st;
    fprintf(f, "{\n  \"problem\": ");
    json_str(f, path);
    fprintf(f, ",\n  \"n\": %ld,\n  \"verdict\": \"%s\",\n  \"reason\": ", r->n, verdict_key(r->verdict));
    json_str(f, r->reason);
    fprintf(f, ",\n  \"route\": ");
    json_str(f, r->route);
    fprintf(f, ",\n  \"covered\": %s,\n  \"bases\": %ld,\n  \"excluded_farkas\": %ld,\n"
               "  \"excluded_solve\": %ld,\n  \"undecided\": %ld,\n  \"solutions\": [",
            r->covered ? "true" : "false", r->bases, r->excl_farkas, r->excl_solve, r->undecided);
    st = spool_to_json(f, out, spool, r->n, r->nsol, digits);
    if (st != DVC_OK) return st;
    fprintf(f, "\n  ]\n}\n");
    return DVC_OK;
}

/* An anonymous scratch file beside out (so that it has the room the output
 * will need), else in the temporary directory. */
static FILE *spool_open(const char *out)
{
    char *dir = strcmp(out, "-") != 0 ? dvc_path_dir(out) : NULL;
    FILE *f = NULL;
    if (dir != NULL) {
        size_t len = strlen(dir) + 32;
        char *t = malloc(len);
        if (t != NULL) {
            int fd;
            snprintf(t, len, "%s/.lcp-all-spool-XXXXXX", dir);
            fd = mkstemp(t);
            if (fd >= 0) {
                unlink(t);
                f = fdopen(fd, "w+");
                if (f == NULL) close(fd);
            }
            free(t);
        }
        free(dir);
    }
    return f != NULL ? f : tmpfile();
}

/* An LCP is the box l = 0, u = +inf: anything else is refused, naming the
 * first entry that differs. */
static dvc_status check_lcp_box(const dvc_ivec_t l, const dvc_ivec_t u, const char *path)
{
    for (long i = 0; i < l->n; i++) {
        if (!mpfi_is_zero(l->e[i]))
            return dvc_error(DVC_ERR_INPUT, "%s: field 'l' entry %ld: lcp-all solves an LCP "
                             "(l = 0, u = inf); other boxes are not supported", path, i + 1);
        if (!mpfr_inf_p(&u->e[i][0].left) || mpfr_sgn(&u->e[i][0].left) < 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'u' entry %ld: lcp-all solves an LCP "
                             "(l = 0, u = inf); other boxes are not supported", path, i + 1);
    }
    return DVC_OK;
}

static int run(const dvc_cli_args *a)
{
    int digits = a->digits_given ? a->digits : 17, rc;
    const char *path = a->pos[0], *val, *out = NULL;
    FILE *rep = stdout;
    char *end;
    dvc_lcpall_opts o;
    dvc_imat_t M;
    dvc_ivec_t q, l, u;
    dvc_lcpall_result_t r;
    dvc_status st;
    FILE *spool = NULL;
    box_writer *bw = NULL;

    dvc_lcpall_opts_default(&o);
    if ((out = dvc_cli_value(a, "json"))) {
        struct stat so, sout;
        st = dvc_outfile_check(out, a->pos, (size_t)a->npos);
        if (st != DVC_OK) return dvc_cli_fail("lcp-all", st);
        /* the report must not mix with JSON going to standard output */
        if (strcmp(out, "-") == 0 || (stat(out, &so) == 0 && fstat(STDOUT_FILENO, &sout) == 0 &&
                                      so.st_dev == sout.st_dev && so.st_ino == sout.st_ino))
            rep = stderr;
    }
    if ((val = dvc_cli_value(a, "method"))) {
        if (strcmp(val, "auto") == 0) o.method = DVC_LCPALL_AUTO;
        else if (strcmp(val, "enum") == 0) o.method = DVC_LCPALL_ENUM;
        else {
            fprintf(stderr, "dvicert lcp-all: error: --method must be auto or enum, got '%s'\n", val);
            return DVC_EXIT_INPUT;
        }
    }
    if ((val = dvc_cli_value(a, "max-seconds"))) {
        o.max_seconds = strtod(val, &end);
        if (end == val || *end || !(o.max_seconds >= 0) || !isfinite(o.max_seconds)) {
            fprintf(stderr, "dvicert lcp-all: error: --max-seconds must be a number of seconds >= 0, got '%s'\n", val);
            return DVC_EXIT_INPUT;
        }
    }
    if ((val = dvc_cli_value(a, "max-n"))) {
        long v = strtol(val, &end, 10);
        if (end == val || *end || v < 1 || v > DVC_LCPALL_N_MAX) {
            fprintf(stderr, "dvicert lcp-all: error: --max-n must be a size from 1 to %d, got '%s'\n",
                    DVC_LCPALL_N_MAX, val);
            return DVC_EXIT_INPUT;
        }
        o.max_n = v;
    }

    dvc_imat_init(M, 0, 0);
    dvc_ivec_init(q, 0);
    dvc_ivec_init(l, 0);
    dvc_ivec_init(u, 0);
    dvc_lcpall_result_init(r);
    st = dvc_io_read_lvi(M, q, l, u, path);
    if (st == DVC_OK) st = check_lcp_box(l, u, path);
    if (st != DVC_OK) {
        rc = dvc_cli_fail("lcp-all", st);
        goto out;
    }
    if (out != NULL) {
        /* the boxes go to a spool file as they are found: flat memory */
        spool = spool_open(out);
        bw = spool != NULL ? box_writer_new(M->r, digits, 1, spool) : NULL;
        if (bw == NULL) {
            rc = dvc_cli_fail("lcp-all", dvc_error(DVC_ERR_IO, "cannot create a spool file for %s", out));
            goto out;
        }
        o.on_box = spool_box;
        o.on_box_ctx = bw;
    }
    st = dvc_lcpall_solve(r, M, q, &o);
    if (bw != NULL) ob_flush(&bw->o);
    if (st != DVC_OK && st != DVC_NOT_CERTIFIED) {
        dvc_error_context(st, "%s: ", path);
        rc = dvc_cli_fail("lcp-all", st);
        goto out;
    }
    if (out != NULL) {
        dvc_outfile of;
        dvc_status ws = dvc_outfile_open(&of, out);
        if (ws == DVC_OK) ws = write_json(of.f, out, path, r, spool, digits);
        if (ws == DVC_OK) ws = dvc_outfile_commit(&of);
        dvc_outfile_clear(&of);
        if (ws != DVC_OK) {
            rc = dvc_cli_fail("lcp-all", ws);
            goto out;
        }
    }
    {
        FILE *f = rep;
        fprintf(f, "problem: %s (n = %ld)\n", path, r->n);
        fprintf(f, "route: %s\n", r->route);
        if (r->bases > 0)
            fprintf(f, "bases: %ld examined, %ld excluded by a Farkas certificate, %ld by a "
                       "verified solve, %ld undecided\n",
                    r->bases, r->excl_farkas, r->excl_solve, r->undecided);
        fprintf(f, "solutions: %ld proven to exist (%ld not proven nondegenerate), %ld candidate%s\n",
                r->nexists, r->ndegenerate, r->nsol - r->nexists, r->nsol - r->nexists == 1 ? "" : "s");
        if (out == NULL) {
            box_writer *pw = box_writer_new(r->n, digits, 0, f);
            for (long k = 0; pw != NULL && k < r->nsol; k++) put_box(pw, r, k);
            if (pw != NULL) ob_flush(&pw->o);
            box_writer_free(pw);
        } else fprintf(f, "wrote %s\n", out);
        fprintf(f, "time: %.3g s\n", r->seconds);
        fprintf(f, "verdict: %s%s%s\n", dvc_lcpall_verdict_name(r->verdict),
                r->reason[0] ? ": " : "", r->reason);
    }
    rc = r->verdict == DVC_LCPALL_COMPLETE ? DVC_EXIT_OK : DVC_EXIT_FAIL;
out:
    box_writer_free(bw);
    if (spool != NULL) fclose(spool);
    dvc_lcpall_result_clear(r);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
    return rc;
}
