/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert beta: rigorous bounds of beta_M (and alpha_M) for a P-matrix. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

static void help(void)
{
    printf(
        "usage: dvicert beta MATRIX.json [--method auto|enum|bnb|struct] [--gap G]\n"
        "                    [--max-nodes N] [--max-seconds S] [--enum-max-m N] [--threads N]\n"
        "                    [--alpha]\n\n"
        "Rigorous lower and upper bounds of the LVI perturbation constants (Chen & Wang)\n"
        "  beta_M  = max_{d in [0,1]^m} ||(I - D + DM)^{-1} D||_inf\n"
        "  alpha_M = max_{d in [0,1]^m} ||(I - D + DM)^{-1}||_inf   (with --alpha)\n"
        "for a P-matrix M (proven first; otherwise the command refuses).\n\n"
        "MATRIX.json is an object with \"M\": an array of rows; entries are JSON numbers\n"
        "or decimal strings (\"0.1\" is enclosed exactly) or JSON arrays [lo, hi] (intervals). The\n"
        "bounds then hold for every matrix in the interval matrix.\n\n"
        "methods:\n"
        "  auto    structure (M-matrix: beta = ||M^{-1}||; H-matrix, SPD: upper bounds),\n"
        "          then exact vertex enumeration if m <= --enum-max-m (default 20);\n"
        "          up to m = 30 also when its estimated time on --threads fits\n"
        "          --max-seconds; else branch-and-bound\n"
        "  enum    enumeration of all 2^m - 1 vertices J: beta = max_J ||(M_JJ)^{-1}|| (m <= 30)\n"
        "  bnb     branch-and-bound over partial vertex assignments (m <= 64)\n"
        "  struct  closed forms / structural bounds only\n\n");
    dvc_cli_print_options(&dvc_cmd_beta);
    printf(
        "\nOutput: 'beta_M lower' rounded down and 'beta_M upper' rounded up, the method that\n"
        "gave the upper bound, vertices/nodes visited and the time; the same for alpha_M.\n"
        "On a terminal, progress is shown on stderr. Size: the dense interval steps take\n"
        "about 5 s at m = 500 and 30 s at m = 1000 (time ~ m^3, memory ~ m^2); above\n"
        "m = 1000 a warning is printed, above m = 4000 the matrix is refused.\n"
        "exit status: 0 bounds certified, 1 not certified (e.g. M not proven a P-matrix,\n"
        "or no finite upper bound within the budget), 2 bad input.\n"
        "Derivations: docs/beta.md.\n");
}

static void print_bound(const char *name, const dvc_beta_bound_t b, int digits)
{
    char *lo = dvc_mpfr_str(b->lo, digits, MPFR_RNDD);
    char *hi = dvc_mpfr_str(b->hi, digits, MPFR_RNDU);
    printf("%s lower: %s\n", name, lo ? lo : "?");
    printf("%s upper: %s\n", name, hi ? hi : "?");
    printf("%s method: %s\n", name, b->method);
    printf("%s nodes: %ld\n", name, b->nodes);
    printf("%s time: %.3f s\n", name, b->seconds);
    if (b->stopped) printf("%s stopped: budget reached before the bounds met (both are still proven)\n", name);
    free(lo);
    free(hi);
}

static const dvc_cli_opt opts[] = {
    {"method", 0, "M", "auto, enum, bnb or struct", "auto, enum, bnb or struct (above; default auto)"},
    {"gap", 0, "G", "a number", "branch-and-bound stops at (hi - lo) <= G hi (default 1e-6)"},
    {"max-nodes", 0, "N", "a number of nodes", "branch-and-bound node budget (default 1000000)"},
    {"max-seconds", 0, "S", "a number of seconds", "time budget of the enumeration and of the branch-and-bound\n"
     "(default 60; finite and > 0): they stop at it and report the\n"
     "bounds reached ('stopped' line; no upper bound from an\n"
     "unfinished enumeration)"},
    {"enum-max-m", 0, "N", "a matrix size", "auto: largest m enumerated exactly (default 20, at most 30)"},
    {"threads", 0, "N", "a number of threads", "threads of the enumeration past m = 20 (default 0: one per\n"
     "processor); the bounds are the same for every N"},
    {"alpha", 0, NULL, NULL, "also bound alpha_M"},
    {"prec", 0, "BITS", "a number of bits", "working precision (default 53)"},
    {"digits", 0, "D", "a number of digits", "printed digits, at least 12 (default 17)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_beta = {
    "beta", "rigorous bounds of beta_M and alpha_M", opts, NULL, NULL, 1, 1,
    "dvicert beta MATRIX.json [--method auto|enum|bnb|struct] [--alpha] ...", help, run};

static int run(const dvc_cli_args *a)
{
    int digits = a->digits_given ? a->digits : 17, want_alpha = dvc_cli_flag(a, "alpha"), rc;
    const char *path = a->pos[0], *val;
    char *end = NULL;
    dvc_beta_opts o;
    dvc_imat_t M;
    dvc_beta_bound_t b, al;
    dvc_status st;

    dvc_beta_opts_default(&o);
    if (digits < 12) digits = 12;
    if ((val = dvc_cli_value(a, "method"))) {
        if (strcmp(val, "auto") == 0) o.method = DVC_BETA_AUTO;
        else if (strcmp(val, "enum") == 0) o.method = DVC_BETA_ENUM;
        else if (strcmp(val, "bnb") == 0) o.method = DVC_BETA_BNB;
        else if (strcmp(val, "struct") == 0) o.method = DVC_BETA_STRUCT;
        else {
            fprintf(stderr, "dvicert beta: error: --method must be auto, enum, bnb or struct, got '%s'\n", val);
            return DVC_EXIT_INPUT;
        }
    }
    if ((val = dvc_cli_value(a, "gap"))) {
        o.rel_gap = strtod(val, &end);
        if (end == val || *end || !(o.rel_gap >= 0) || !isfinite(o.rel_gap)) {
            fprintf(stderr, "dvicert beta: error: --gap must be a number >= 0, got '%s'\n", val);
            return DVC_EXIT_INPUT;
        }
    }
    for (int nodes = 1; nodes >= 0; nodes--) {
        long v;
        if (!(val = dvc_cli_value(a, nodes ? "max-nodes" : "enum-max-m"))) continue;
        v = strtol(val, &end, 10);
        if (end == val || *end || v < 0 || (!nodes && v > 30)) {
            fprintf(stderr, "dvicert beta: error: %s must be an integer in [0, %s], got '%s'\n",
                    nodes ? "--max-nodes" : "--enum-max-m", nodes ? "LONG_MAX" : "30", val);
            return DVC_EXIT_INPUT;
        }
        if (nodes) o.max_nodes = v;
        else o.enum_max_m = v;
    }
    if ((val = dvc_cli_value(a, "max-seconds"))) {
        o.max_seconds = strtod(val, &end);
        if (end == val || *end) { /* range checked by dvc_beta_opts_check */
            fprintf(stderr, "dvicert beta: error: --max-seconds must be a number of seconds, got '%s'\n", val);
            return DVC_EXIT_INPUT;
        }
    }
    if ((val = dvc_cli_value(a, "threads"))) {
        long v = strtol(val, &end, 10);
        if (end == val || *end || v < 0 || v > DVC_BETA_THREADS_MAX) {
            fprintf(stderr, "dvicert beta: error: --threads must be an integer in [0, %d], got '%s'\n",
                    DVC_BETA_THREADS_MAX, val);
            return DVC_EXIT_INPUT;
        }
        o.threads = (int)v;
    }
    st = dvc_beta_opts_check(&o);
    if (st != DVC_OK) return dvc_cli_fail("beta", st);
    if (isatty(STDERR_FILENO)) o.progress = dvc_cli_beta_progress;

    dvc_imat_init(M, 0, 0);
    st = dvc_io_read_matrix(M, path, "M");
    if (st == DVC_OK && (M->r != M->c || M->r == 0)) {
        fprintf(stderr, "dvicert beta: error: %s: field \"M\" must be a nonempty square matrix, got %ld x %ld\n",
                path, M->r, M->c);
        dvc_imat_clear(M);
        return DVC_EXIT_INPUT;
    }
    if (st != DVC_OK) {
        dvc_imat_clear(M);
        return dvc_cli_fail("beta", st);
    }

    if (M->r > DVC_BETA_M_PRACTICAL && M->r <= DVC_BETA_M_MAX)
        fprintf(stderr, "dvicert beta: warning: m = %ld is above the practical size %d: expect "
                "minutes (about 30 s at m = 1000, growing like m^3) and memory growing like m^2\n",
                M->r, DVC_BETA_M_PRACTICAL);
    dvc_beta_bound_init(b);
    dvc_beta_bound_init(al);
    st = dvc_beta_compute(b, want_alpha ? al : NULL, M, &o);
    if (st == DVC_OK || st == DVC_NOT_CERTIFIED) {
        printf("matrix: %s (m = %ld)\n", path, M->r);
        if (st == DVC_OK) printf("P-matrix: proven (%s)\n", b->hypothesis);
    }
    if (st == DVC_OK || (st == DVC_NOT_CERTIFIED && mpfr_number_p(b->lo) && mpfr_sgn(b->lo) > 0)) {
        print_bound("beta_M", b, digits);
        if (want_alpha) print_bound("alpha_M", al, digits);
    }
    if (st != DVC_OK) dvc_error_context(st, "%s: ", path);
    rc = st == DVC_OK ? DVC_EXIT_OK : dvc_cli_fail("beta", st);
    dvc_beta_bound_clear(b);
    dvc_beta_bound_clear(al);
    dvc_imat_clear(M);
    return rc;
}
