/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dvicert_version.h"

#define CERT_PREC "it reads a certificate, whose bounds are always recomputed or read at the certificate's own precision (field 'precision')"
static const dvc_cli_cmd commands[] = {
    {"lvi", "certified solution of a box-constrained LVI / LCP", dvc_cmd_lvi, dvc_help_lvi, NULL, NULL},
    {"beta", "rigorous bounds of beta_M and alpha_M", dvc_cmd_beta, dvc_help_beta, NULL, NULL},
    {"classify", "certified matrix classes (Z, M, H, SPD, PD, P)", dvc_cmd_classify, dvc_help_classify,
     "it prints verdicts, no numbers", NULL},
    {"enclose", "certified enclosure of a DLVI problem file; writes a certificate", dvc_cmd_enclose, dvc_help_enclose,
     "it prints the certificate's bounds, which always carry 12 significant digits (rounded outward)", NULL},
    {"verify", "independent re-verification of a certificate", dvc_cmd_verify, dvc_help_verify,
     "it prints no bounds", CERT_PREC},
    {"check", "check a trajectory (CSV) against a certificate's tube", dvc_cmd_check, dvc_help_check, NULL, CERT_PREC},
    {"export", "a certificate's tube as CSV", dvc_cmd_export, dvc_help_export, NULL, CERT_PREC},
    {"plot", "plot a certificate (gnuplot): approximation with upper/lower bounds", dvc_cmd_plot, dvc_help_plot,
     "the curves are passed to gnuplot as binary64 values rounded outward", CERT_PREC},
};
static const int ncommands = (int)(sizeof commands / sizeof commands[0]);

/* arg is the option opt, as "OPT" or "OPT=VALUE" */
static int is_opt(const char *arg, const char *opt)
{
    size_t n = strlen(opt);
    return strncmp(arg, opt, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

int dvc_cli_takes_value(const char *opt)
{
    static const char *const v[] = {"-o", "--output", "--title", "--only", "--prec", "--digits",
                                     "--prec-max", "--method", "--gap", "--max-nodes",
                                     "--max-seconds", "--enum-max-m", "--max-report"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (strcmp(opt, v[i]) == 0) return 1;
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dvicert [--version] [--help] COMMAND [ARGS]\n\n"
            "dvicert computes certified enclosures: every number it prints as a bound is\n"
            "proven with outward-rounded interval arithmetic (MPFI), or it refuses.\n\n"
            "commands:\n");
    for (int i = 0; i < ncommands; i++) fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
            "\ncommon options (where they have a meaning; elsewhere they are refused):\n"
            "  --prec BITS    working precision in bits (default 53): lvi, beta, classify,\n"
            "                 enclose (commands reading a certificate use its precision)\n"
            "  --digits D     significant digits of printed bounds: lvi, beta, check, export\n"
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
            /* --help / -h anywhere, except as the value of an option */
            for (int k = 2; k < argc; k++)
                if ((strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) &&
                    !dvc_cli_takes_value(argv[k - 1])) {
                    commands[i].help();
                    return 0;
                }
            for (int k = 2; k < argc; k++) {
                const char *why = NULL, *opt = NULL;
                if (k > 2 && dvc_cli_takes_value(argv[k - 1])) continue;
                if (is_opt(argv[k], "--digits")) why = commands[i].no_digits, opt = "--digits";
                else if (is_opt(argv[k], "--prec")) why = commands[i].no_prec, opt = "--prec";
                if (why) {
                    fprintf(stderr, "dvicert %s: error: option %s has no effect here: %s\n", name, opt, why);
                    return DVC_EXIT_INPUT;
                }
            }
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "dvicert: unknown command '%s' (try 'dvicert --help')\n", name);
    return DVC_EXIT_INPUT;
}
