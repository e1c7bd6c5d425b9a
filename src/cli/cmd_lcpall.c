/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert lcp-all: certified enclosure of all solutions of an LCP. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "dvicert/lcpall.h"

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

static char *dstr(double x, int digits, mpfr_rnd_t rnd)
{
    mpfr_t t;
    char *s;
    mpfr_init2(t, 53);
    mpfr_set_d(t, x, MPFR_RNDN); /* exact */
    s = dvc_mpfr_str(t, digits, rnd);
    mpfr_clear(t);
    return s;
}

/* [lo, hi] of entry i of box k as outward decimal strings: JSON (quoted)
 * or plain. */
static void put_ival(FILE *f, const mpfi_t x, int digits, int json)
{
    double lo = mpfr_get_d(&x[0].left, MPFR_RNDD), hi = mpfr_get_d(&x[0].right, MPFR_RNDU);
    if (lo == 0 && hi == 0) { /* the exact zeros off the basis: half of all entries */
        fprintf(f, json ? "[\"0\", \"0\"]" : "[0, 0]");
        return;
    }
    char *l = dstr(lo, digits, MPFR_RNDD), *h = dstr(hi, digits, MPFR_RNDU);
    if (json) fprintf(f, "[\"%s\", \"%s\"]", l ? l : "-inf", h ? h : "inf");
    else fprintf(f, "[%s, %s]", l ? l : "-inf", h ? h : "inf");
    free(l);
    free(h);
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

static void write_json(FILE *f, const char *path, const dvc_lcpall_result_t r, int digits)
{
    long n = r->n;
    dvc_ivec_t z, w;
    char *basis = malloc((size_t)n + 1);
    dvc_ivec_init2(z, n, 53);
    dvc_ivec_init2(w, n, 53);
    fprintf(f, "{\n  \"problem\": ");
    json_str(f, path);
    fprintf(f, ",\n  \"n\": %ld,\n  \"verdict\": \"%s\",\n  \"reason\": ", n, verdict_key(r->verdict));
    json_str(f, r->reason);
    fprintf(f, ",\n  \"route\": ");
    json_str(f, r->route);
    fprintf(f, ",\n  \"covered\": %s,\n  \"bases\": %ld,\n  \"excluded_farkas\": %ld,\n"
               "  \"excluded_solve\": %ld,\n  \"undecided\": %ld,\n  \"solutions\": [",
            r->covered ? "true" : "false", r->bases, r->excl_farkas, r->excl_solve, r->undecided);
    for (long k = 0; k < r->nsol && basis != NULL; k++) {
        int nd = 0, st = dvc_lcpall_get(r, k, z, w, basis, &nd);
        fprintf(f, "%s\n    {\"basis\": \"", k ? "," : "");
        for (long i = 0; i < n; i++) fputc(basis[i] ? '1' : '0', f);
        fprintf(f, "\", \"status\": \"%s\", \"nondegenerate\": %s,\n     \"z\": [",
                st == DVC_LCPALL_SOL_EXISTS ? "exists" : "candidate", nd ? "true" : "false");
        for (long i = 0; i < n; i++) {
            if (i) fprintf(f, ", ");
            put_ival(f, z->e[i], digits, 1);
        }
        fprintf(f, "],\n     \"w\": [");
        for (long i = 0; i < n; i++) {
            if (i) fprintf(f, ", ");
            put_ival(f, w->e[i], digits, 1);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ]\n}\n");
    free(basis);
    dvc_ivec_clear(z);
    dvc_ivec_clear(w);
}

static void print_boxes(FILE *f, const dvc_lcpall_result_t r, int digits)
{
    long n = r->n;
    dvc_ivec_t z, w;
    char *basis = malloc((size_t)n + 1);
    dvc_ivec_init2(z, n, 53);
    dvc_ivec_init2(w, n, 53);
    for (long k = 0; k < r->nsol && basis != NULL; k++) {
        int nd = 0, st = dvc_lcpall_get(r, k, z, w, basis, &nd);
        fprintf(f, "%s %ld: basis ", st == DVC_LCPALL_SOL_EXISTS ? "solution" : "candidate", k + 1);
        for (long i = 0; i < n; i++) fputc(basis[i] ? '1' : '0', f);
        fprintf(f, " (%s)\n", st != DVC_LCPALL_SOL_EXISTS ? "existence not proven"
                              : nd ? "nondegenerate" : "strict complementarity not proven");
        for (long i = 0; i < n; i++) {
            fprintf(f, "  z[%ld] in ", i + 1);
            put_ival(f, z->e[i], digits, 0);
            fprintf(f, "  w[%ld] in ", i + 1);
            put_ival(f, w->e[i], digits, 0);
            fputc('\n', f);
        }
    }
    free(basis);
    dvc_ivec_clear(z);
    dvc_ivec_clear(w);
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
    st = dvc_lcpall_solve(r, M, q, &o);
    if (st != DVC_OK && st != DVC_NOT_CERTIFIED) {
        dvc_error_context(st, "%s: ", path);
        rc = dvc_cli_fail("lcp-all", st);
        goto out;
    }
    if (out != NULL) {
        dvc_outfile of;
        dvc_status ws = dvc_outfile_open(&of, out);
        if (ws == DVC_OK) {
            write_json(of.f, path, r, digits);
            ws = dvc_outfile_commit(&of);
        }
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
        if (out == NULL) print_boxes(f, r, digits);
        else fprintf(f, "wrote %s\n", out);
        fprintf(f, "time: %.3g s\n", r->seconds);
        fprintf(f, "verdict: %s%s%s\n", dvc_lcpall_verdict_name(r->verdict),
                r->reason[0] ? ": " : "", r->reason);
    }
    rc = r->verdict == DVC_LCPALL_COMPLETE ? DVC_EXIT_OK : DVC_EXIT_FAIL;
out:
    dvc_lcpall_result_clear(r);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
    return rc;
}
