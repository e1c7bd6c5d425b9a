/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert lvi: certified solution of a box-constrained LVI / LCP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

static void help(void)
{
    printf(
        "usage: dvicert lvi PROBLEM.json [--prec BITS] [--digits D]\n\n"
        "Certified enclosure of the unique solution y of the box-constrained linear\n"
        "variational inequality VI(l, u, q, M) (Chen & Wang):\n"
        "  y in [l, u],  (w - y)^T (M y + q) >= 0  for every w in [l, u],\n"
        "for a P-matrix M (proven first; otherwise the command refuses). With l = 0 and\n"
        "u = +inf this is the LCP 0 <= y _|_ M y + q >= 0.\n\n"
        "PROBLEM.json is an object with the fields\n"
        "  \"M\"  m x m matrix, an array of m rows\n"
        "  \"q\"  m entries; an entry may be an interval [lo, hi]: the enclosure then\n"
        "       holds for every q in the box\n"
        "  \"l\"  m lower bounds, numbers or \"-inf\"\n"
        "  \"u\"  m upper bounds, numbers or \"inf\"; l < u entrywise\n"
        "Numbers are JSON numbers or decimal strings: a decimal string is enclosed\n"
        "exactly (\"0.1\" means one tenth), a JSON real d stands for any decimal that\n"
        "reads as d. \"nan\" is rejected. Example (an LCP):\n"
        "  {\"M\": [[2, 1], [1, 2]], \"q\": [-5, -6], \"l\": [0, 0], \"u\": [\"inf\", \"inf\"]}\n\n"
        "Output: the enclosure of each y_i as [lo, hi] rounded outward to D significant\n"
        "digits (default 17), the certification route, the largest width, and how M was\n"
        "proven a P-matrix. Routes (docs/lvi.md):\n"
        "  active set  the reduced linear system of the predicted active set solved in\n"
        "              interval arithmetic and all bound/sign conditions proven\n"
        "  vertex      degenerate solutions: the kinks that cannot be decided are\n"
        "              enumerated (2^k reduced solves) inside a self-validating box\n"
        "  residual    ||y - y*|| <= alpha_M ||r(y)|| with a rigorous alpha_M bound,\n"
        "              then contracted by the vertex step\n\n"
        "Size: about 0.19 s CPU at m = 500, 0.85 s CPU and 0.26 GB at m = 1000\n"
        "(time ~ m^3, memory ~ m^2); above m = 1000 a warning is printed, above\n"
        "m = 4000 the problem is refused.\n\n"
        "When no route certifies at the working precision (--prec, default 53 bits),\n"
        "the run is repeated at 2x, 4x, 8x that precision; the precision used is printed.\n\n");
    dvc_cli_print_options(&dvc_cmd_lvi);
    printf(
        "\nexit status: 0 certified, 1 not certified (M not proven P, or no route\n"
        "succeeded), 2 bad input (malformed file, wrong dimensions, l >= u, NaN).\n");
}

static const dvc_cli_opt opts[] = {
    {"prec", 0, "BITS", "a number of bits", "working precision (default 53)"},
    {"digits", 0, "D", "a number of digits", "significant digits of the enclosures (default 17)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_lvi = {
    "lvi", "certified solution of a box-constrained LVI / LCP", opts, NULL, NULL, 1, 1,
    "dvicert lvi PROBLEM.json [--prec BITS] [--digits D]", help, run};

static int run(const dvc_cli_args *a)
{
    int digits = a->digits_given ? a->digits : 17, rc, retries = 3;
    const char *path = a->pos[0];
    dvc_imat_t M;
    dvc_ivec_t q, l, u;
    dvc_lvi_solver_t s;
    dvc_lvi_result_t r;
    dvc_status st;
    long m;

again:
    dvc_imat_init(M, 0, 0);
    dvc_ivec_init(q, 0);
    dvc_ivec_init(l, 0);
    dvc_ivec_init(u, 0);
    st = dvc_io_read_lvi(M, q, l, u, path);
    m = M->r;
    if (st != DVC_OK) {
        rc = dvc_cli_fail("lvi", st);
        goto out_data;
    }

    if (m > DVC_LVI_M_PRACTICAL && m <= DVC_LVI_M_MAX && retries == 3)
        fprintf(stderr, "dvicert lvi: warning: m = %ld is above the practical size %d: expect "
                "long runs (about 1 s CPU at m = 1000, growing like m^3: a minute at m = 4000) and memory\n"
                "growing like m^2\n",
                m, DVC_LVI_M_PRACTICAL);
    st = dvc_lvi_solver_init(s, M, l, u);
    if (isatty(STDERR_FILENO)) s->alpha_opts.progress = dvc_cli_beta_progress; /* lazy alpha_M */
    if (st == DVC_NOT_CERTIFIED && retries > 0 && !dvc_imat_is_point(M)) {
        /* the P proof may fail only because the decimal entries are
         * enclosed too loosely: the retry below re-reads them tighter */
        dvc_lvi_result_init(r, m);
    } else if (st != DVC_OK) {
        dvc_error_context(st, "%s: ", path);
        rc = dvc_cli_fail("lvi", st);
        goto out_solver;
    } else {
        dvc_lvi_result_init(r, m);
        st = dvc_lvi_solve(r, s, q, NULL);
    }
    if (st == DVC_NOT_CERTIFIED && retries > 0) {
        /* certification lost to roundoff: again at twice the precision,
         * with the data re-read (decimal strings enclose tighter) */
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", dvc_error_message());
        fprintf(stderr, "dvicert lvi: not certified at %ld bits (%s); retrying at %ld bits\n",
                (long)dvc_prec_get(), msg, 2 * (long)dvc_prec_get());
        dvc_prec_set(2 * dvc_prec_get());
        dvc_lvi_result_clear(r);
        dvc_lvi_solver_clear(s);
        dvc_imat_clear(M);
        dvc_ivec_clear(q);
        dvc_ivec_clear(l);
        dvc_ivec_clear(u);
        retries--;
        goto again;
    }
    if (st != DVC_OK) {
        dvc_error_context(st, "%s: ", path);
        rc = dvc_cli_fail("lvi", st);
        goto out_result;
    }
    {
        mpfr_t w;
        char *ws;
        mpfr_init2(w, 53);
        printf("problem: %s (m = %ld, precision %ld bits)\n", path, m, (long)dvc_prec_get());
        printf("P-matrix: proven (%s)\n", s->p_reason);
        printf("route: %s", dvc_lvi_route_name(r->route));
        if (r->route == DVC_LVI_ROUTE_VERTEX)
            printf(" (%ld ambiguous kink%s, %ld reduced solves)", r->ambiguous, r->ambiguous == 1 ? "" : "s", r->vertices);
        if (r->route == DVC_LVI_ROUTE_RESIDUAL) {
            char *a = dvc_mpfr_str(s->alpha_hi, 6, MPFR_RNDU), *rs = dvc_mpfr_str(r->resid, 6, MPFR_RNDU);
            printf(" (alpha_M <= %s by %s, ||r(y~)|| <= %s)", a ? a : "?", s->alpha_method ? s->alpha_method : "?", rs ? rs : "?");
            free(a);
            free(rs);
        }
        printf("\n");
        for (long i = 0; i < m; i++) {
            char *e = dvc_ival_str(r->y->e[i], digits);
            printf("y[%ld] in %s\n", i + 1, e ? e : "?");
            free(e);
        }
        dvc_ivec_max_width(w, r->y);
        ws = dvc_mpfr_str(w, 3, MPFR_RNDU);
        printf("max width: %s\n", ws ? ws : "?");
        printf("certified\n");
        free(ws);
        mpfr_clear(w);
    }
    rc = DVC_EXIT_OK;
out_result:
    dvc_lvi_result_clear(r);
out_solver:
    dvc_lvi_solver_clear(s);
out_data:
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
    return rc;
}
