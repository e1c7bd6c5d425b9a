/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dvicert_version.h"

static const dvc_cli_cmd commands[] = {
    {"lvi", "certified solution of a box-constrained LVI / LCP", dvc_cmd_lvi, dvc_help_lvi},
    {"beta", "rigorous bounds of beta_M and alpha_M", dvc_cmd_beta, dvc_help_beta},
    {"classify", "certified matrix classes (Z, M, H, SPD, PD, P)", dvc_cmd_classify, dvc_help_classify},
    {"enclose", "certified enclosure of a DLVI problem file; writes a certificate", dvc_cmd_enclose, dvc_help_enclose},
    {"verify", "independent re-verification of a certificate", dvc_cmd_verify, dvc_help_verify},
    {"check", "check a trajectory (CSV) against a certificate's tube", dvc_cmd_check, dvc_help_check},
    {"export", "a certificate's tube as CSV", dvc_cmd_export, dvc_help_export},
    {"plot", "plot a certificate (gnuplot): approximation with upper/lower bounds", dvc_cmd_plot, dvc_help_plot},
};
static const int ncommands = (int)(sizeof commands / sizeof commands[0]);

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dvicert [--version] [--help] COMMAND [ARGS]\n\n"
            "dvicert computes certified enclosures: every number it prints as a bound is\n"
            "proven with outward-rounded interval arithmetic (MPFI), or it refuses.\n\n"
            "commands:\n");
    for (int i = 0; i < ncommands; i++) fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
            "\noptions accepted by every command:\n"
            "  --prec BITS    working precision in bits (default 53)\n"
            "  --digits D     significant digits of printed bounds (default 17)\n"
            "\nexit status: 0 certified/accepted, 1 not certified/rejected, 2 bad input or i/o error\n"
            "'dvicert help COMMAND' or 'dvicert COMMAND --help' describes one command.\n"
            "File formats: docs/formats.md.\n");
}

int main(int argc, char **argv)
{
    const char *name;
    if (argc < 2) {
        usage(stderr);
        return DVC_EXIT_INPUT;
    }
    name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("dvicert %s (MPFI %s, MPFR %s, GMP %s)\n", DVC_VERSION, mpfi_get_version(),
               mpfr_get_version(), gmp_version);
        return 0;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        if (argc >= 3 && strcmp(name, "help") == 0) {
            for (int i = 0; i < ncommands; i++)
                if (strcmp(commands[i].name, argv[2]) == 0) {
                    commands[i].help();
                    return 0;
                }
            fprintf(stderr, "dvicert: unknown command '%s'\n", argv[2]);
            return DVC_EXIT_INPUT;
        }
        usage(stdout);
        return 0;
    }
    for (int i = 0; i < ncommands; i++) {
        if (strcmp(commands[i].name, name) == 0) {
            for (int k = 2; k < argc; k++)
                if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
                    commands[i].help();
                    return 0;
                }
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "dvicert: unknown command '%s' (try 'dvicert --help')\n", name);
    return DVC_EXIT_INPUT;
}
