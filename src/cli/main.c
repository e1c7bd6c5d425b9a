/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dvicert_version.h"

static const dvc_cli_cmd *const commands[] = {
    &dvc_cmd_lvi, &dvc_cmd_lcpall, &dvc_cmd_beta, &dvc_cmd_classify, &dvc_cmd_enclose,
    &dvc_cmd_verify, &dvc_cmd_check, &dvc_cmd_export, &dvc_cmd_plot, &dvc_cmd_info, &dvc_cmd_events,
    &dvc_cmd_predict,
    &dvc_cmd_sweep,
};
static const int ncommands = (int)(sizeof commands / sizeof commands[0]);

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dvicert [--version] [--help] COMMAND [ARGS]\n\n"
            "dvicert computes certified enclosures: every number it prints as a bound is\n"
            "proven with outward-rounded interval arithmetic (MPFI), or it refuses.\n\n"
            "commands:\n");
    for (int i = 0; i < ncommands; i++) fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f,
            "\ncommon options (where they have a meaning; elsewhere they are refused):\n"
            "  --prec BITS    working precision in bits (default 53): lvi, beta, classify,\n"
            "                 enclose (commands reading a certificate use its precision)\n"
            "  --digits D     significant digits of printed bounds: lvi, beta, check, export\n"
            "  -o FILE        the output of enclose, export, plot: never one of the inputs;\n"
            "                 '-' is standard output, devices and pipes are written directly,\n"
            "                 symbolic links are refused (see 'dvicert COMMAND --help')\n"
            "Each option may be given once; '--' ends the options.\n"
            "\nexit status: 0 certified/accepted, 1 not certified/rejected, 2 bad input or i/o error\n"
            "'dvicert help COMMAND' or 'dvicert COMMAND --help' describes one command.\n"
            "File formats: docs/formats.md.\n");
}

/* An interrupted run leaves no temporary file behind, then dies of the
 * signal as it would have. */
static void on_signal(int sig)
{
    dvc_outfile_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
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
                if (strcmp(commands[i]->name, argv[2]) == 0) {
                    commands[i]->help();
                    return 0;
                }
            fprintf(stderr, "dvicert: unknown command '%s'\n", argv[2]);
            return DVC_EXIT_INPUT;
        }
        usage(stdout);
        return 0;
    }
    for (int i = 0; i < ncommands; i++) {
        if (strcmp(commands[i]->name, name) == 0) {
            dvc_cli_args a;
            int rc;
            /* inputs read on the way (tables of a problem) are never outputs */
            dvc_infile_track(1);
            signal(SIGINT, on_signal);
            signal(SIGTERM, on_signal);
            signal(SIGHUP, on_signal);
            rc = dvc_cli_parse(&a, commands[i], argc - 1, argv + 1);
            if (rc >= 0) return rc;
            return commands[i]->run(&a);
        }
    }
    fprintf(stderr, "dvicert: unknown command '%s' (try 'dvicert --help')\n", name);
    return DVC_EXIT_INPUT;
}
