/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Shared pieces of the dvicert command. Exit codes everywhere:
 *   0  certified / accepted
 *   1  not certified / rejected / violated
 *   2  unusable input (bad file, bad option) or i/o error */
#ifndef DVC_CLI_H
#define DVC_CLI_H

#include "dvicert/dvicert.h"

#define DVC_EXIT_OK 0
#define DVC_EXIT_FAIL 1
#define DVC_EXIT_INPUT 2

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
    void (*help)(void);
    /* NULL when the command uses --digits (resp. --prec); otherwise why it
     * has no meaning there: main refuses the option with that reason. */
    const char *no_digits;
    const char *no_prec;
} dvc_cli_cmd;

/* Options (of any command) that take a value as the next argument: such a
 * value is never read as an option itself (e.g. "--title --help"). */
int dvc_cli_takes_value(const char *opt);

/* Options common to every subcommand: --prec BITS, --digits D. Removes
 * the ones it consumes from argv (returns the new argc), or -1 after
 * printing a message for a bad value. */
int dvc_cli_common_opts(int argc, char **argv, int *digits);

/* Print the library's current message as "dvicert CMD: error: ..." and
 * return the exit code for status st. */
int dvc_cli_fail(const char *cmd, dvc_status st);

/* Exit code for a status. */
int dvc_cli_exit_code(dvc_status st);

/* Seconds from a monotonic clock. */
double dvc_cli_now(void);
/* Progress of beta_M / alpha_M searches on stderr, one line rewritten in
 * place (install it only when stderr is a terminal). */
void dvc_cli_beta_progress(const dvc_beta_progress *p, void *data);

#endif
