/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert classify: which matrix classes are proven / disproven / not
 * proven for an (interval) matrix, and how P was proven. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static void help(void)
{
    printf(
        "usage: dvicert classify MATRIX.json [--prec BITS]\n\n"
        "Certifies matrix classes of the square matrix \"M\" in MATRIX.json (an object\n"
        "whose field \"M\" is an array of rows; entries are JSON numbers, decimal strings\n"
        "such as \"0.1\" (enclosed exactly) or JSON arrays [lo, hi] (intervals)). Each class is\n"
        "reported as\n"
        "  proven      holds for every matrix in the interval matrix [M]\n"
        "  disproven   fails for every matrix in [M] (e.g. a principal minor <= 0)\n"
        "  not proven  neither could be shown (an honest answer, not a 'no')\n\n"
        "classes:\n"
        "  Z    off-diagonal entries <= 0\n"
        "  M    nonsingular M-matrix: Z with a verified v > 0, M v > 0\n"
        "  H    H-matrix with positive diagonal: comparison matrix is an M-matrix\n"
        "  SYM  symmetric (M_ij and M_ji the same interval)\n"
        "  SPD  symmetric positive definite (verified Cholesky / eigenvalue bound)\n"
        "  PD   M + M^T symmetric positive definite\n"
        "  P    every principal minor > 0: by the M, H or PD test, or by enumerating\n"
        "       all 2^m - 1 principal minors for m <= %d\n\n"
        "Output: one line per class, then how P was proven or why not.\n\n",
        DVC_MCLASS_P_ENUM_MAX);
    dvc_cli_print_options(&dvc_cmd_classify);
    printf(
        "\nexit status: 0 the classification ran (whatever the verdicts), 2 bad input.\n"
        "Details: docs/mclass.md.\n");
}

static const char *verdict(const dvc_mclass_result *r, unsigned flag)
{
    if (r->proven & flag) return "proven";
    if (r->disproven & flag) return "disproven";
    return "not proven";
}

static const dvc_cli_opt opts[] = {
    {"prec", 0, "BITS", "a number of bits", "working precision (default 53)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_classify = {
    "classify", "certified matrix classes (Z, M, H, SPD, PD, P)", opts, "it prints verdicts, no numbers",
    NULL, 1, 1, "dvicert classify MATRIX.json [--prec BITS]", help, run};

static int run(const dvc_cli_args *a)
{
    const char *path = a->pos[0];
    dvc_imat_t M;
    dvc_mclass_result r;
    dvc_status st;
    static const struct {
        unsigned flag;
        const char *name;
    } cls[] = {{DVC_MCLASS_Z, "Z"},     {DVC_MCLASS_M, "M"},   {DVC_MCLASS_H, "H"},
               {DVC_MCLASS_SYM, "SYM"}, {DVC_MCLASS_SPD, "SPD"}, {DVC_MCLASS_PD, "PD"},
               {DVC_MCLASS_P, "P"}};

    dvc_imat_init(M, 0, 0);
    st = dvc_io_read_matrix(M, path, "M");
    if (st != DVC_OK) {
        dvc_imat_clear(M);
        return dvc_cli_fail("classify", st);
    }
    if (M->r != M->c) {
        fprintf(stderr, "dvicert classify: error: %s: field \"M\" must be a square matrix, got %ld x %ld\n",
                path, M->r, M->c);
        dvc_imat_clear(M);
        return DVC_EXIT_INPUT;
    }
    st = dvc_mclass_classify(&r, M);
    if (st != DVC_OK) {
        dvc_imat_clear(M);
        return dvc_cli_fail("classify", st);
    }
    printf("matrix: %s (m = %ld, %s, precision %ld bits)\n", path, M->r,
           dvc_imat_is_point(M) ? "point matrix" : "interval matrix", (long)dvc_prec_get());
    for (size_t k = 0; k < sizeof cls / sizeof cls[0]; k++)
        printf("%-4s %s\n", cls[k].name, verdict(&r, cls[k].flag));
    if (r.proven & DVC_MCLASS_P)
        printf("P proven by: %s\n", r.p_reason ? r.p_reason : "?");
    else
        printf("P %s: %s\n", verdict(&r, DVC_MCLASS_P),
               r.p_detail[0] ? r.p_detail : "a sufficient condition was disproven");
    printf("proven: %s\n", r.proven ? dvc_mclass_names(r.proven) : "(none)");
    printf("disproven: %s\n", r.disproven ? dvc_mclass_names(r.disproven) : "(none)");
    dvc_imat_clear(M);
    return DVC_EXIT_OK;
}
