/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Shared pieces of the dvicert command. Exit codes everywhere:
 *   0  certified / accepted
 *   1  not certified / rejected / violated
 *   2  unusable input (bad file, bad option) or i/o error */
#ifndef DVC_CLI_H
#define DVC_CLI_H

#include <stdio.h>

#include "dvicert/dvicert.h"
#include "io/io.h"

#define DVC_EXIT_OK 0
#define DVC_EXIT_FAIL 1
#define DVC_EXIT_INPUT 2

/* One option of a subcommand, as "--name" (and "-c" when short is c).
 * Three names are the common options, whose values the parser reads and
 * checks once for every command whose table lists them: "prec" (--prec
 * BITS, also set as the working precision), "digits" (--digits D) and
 * "output" (-o/--output FILE; the positional arguments are its inputs).
 * --help/-h is accepted by every command. */
typedef struct {
    const char *name;  /* long name without the dashes; NULL ends a table */
    char short_name;   /* 0: none */
    const char *arg;   /* name of the value in --help ("BITS"); NULL: a flag */
    const char *need;  /* what a missing value is, for messages ("a number of bits") */
    const char *help;  /* --help text; '\n' starts a continuation line */
} dvc_cli_opt;

typedef struct dvc_cli_args dvc_cli_args;

typedef struct {
    const char *name;    /* the subcommand */
    const char *summary; /* one line for 'dvicert --help' */
    const dvc_cli_opt *opts; /* its options, ended by a {NULL} entry */
    /* when --digits (--prec) is not in opts: why it means nothing here */
    const char *no_digits;
    const char *no_prec;
    int min_pos, max_pos; /* number of positional arguments */
    const char *usage;    /* one line, printed when they are missing */
    void (*help)(void);   /* prints the whole --help text */
    int (*run)(const dvc_cli_args *a);
} dvc_cli_cmd;

/* Why --prec means nothing to a command that reads a certificate. */
#define DVC_CLI_CERT_PREC "it reads a certificate, whose bounds are always recomputed or read at the certificate's own precision (field 'precision')"

#define DVC_CLI_MAX_OPTS 16
#define DVC_CLI_MAX_POS 4

/* The parsed command line: filled by dvc_cli_parse, read by the command. */
struct dvc_cli_args {
    const dvc_cli_cmd *cmd;
    const char *value[DVC_CLI_MAX_OPTS]; /* per cmd->opts entry: the value ("" for a
                                            flag) or NULL when not given */
    const char *pos[DVC_CLI_MAX_POS];
    int npos;
    int prec_given, digits_given;
    mpfr_prec_t prec; /* --prec (also set as the working precision) */
    int digits;
    const char *out;  /* -o FILE or NULL; "-" is standard output */
    FILE *report;     /* where the command prints its report: stderr when the
                         output goes to standard output, else stdout */
};

/* Parse argv (argv[0] is the subcommand) by the command's table: options
 * in any order around the positional arguments, "--name=VALUE" or
 * "--name VALUE" (the next argument is always the value, even when it
 * starts with '-'), "--" ends the options. Refuses unknown and repeated
 * options, options that mean nothing to the command, a wrong number of
 * positional arguments, and an output that is one of the inputs (same
 * device and inode) or that dvicert would not write (see dvc_outfile_check).
 * Returns -1 when the arguments are fine, else the exit code (0 after
 * printing --help, DVC_EXIT_INPUT after a message). */
int dvc_cli_parse(dvc_cli_args *a, const dvc_cli_cmd *cmd, int argc, char **argv);

/* The value of option name (NULL when not given; "" for a given flag). */
const char *dvc_cli_value(const dvc_cli_args *a, const char *name);
int dvc_cli_flag(const dvc_cli_args *a, const char *name);

/* The "options:" block of --help, from the table and the common options. */
void dvc_cli_print_options(const dvc_cli_cmd *cmd);

/* Print the library's current message as "dvicert CMD: error: ..." and
 * return the exit code for status st. */
int dvc_cli_fail(const char *cmd, dvc_status st);

/* A certificate that cannot be used, after reading or verifying it failed
 * with st: a rejection (DVC_NOT_CERTIFIED) is the command's result, printed
 * on rep as "rejected certificate: PATH: reason" (then " (nothing DONE)"
 * when `nothing` is "DONE"), exit 1; any other status is an unusable file,
 * said on stderr as "dvicert CMD: unusable certificate: reason", exit 2. */
int dvc_cli_cert_refused(const char *cmd, FILE *rep, const char *path, dvc_status st,
                         const char *nothing);

/* Exit code for a status. */
int dvc_cli_exit_code(dvc_status st);

/* --max-report of `check` into *max (20 when not given; -1 = all). Returns
 * -1 when fine, else the exit code after the message on stderr. */
int dvc_cli_max_report(const dvc_cli_args *a, long *max);

/* check --tol SPEC: a number >= 0 for every column and the time, or
 * NAME=VALUE,... per column (t, x1.., y1.., or the names xn (n) and yn (m;
 * may be NULL)); tol receives n + m values, *t_tol the time's. Returns -1
 * when the spec is fine, else DVC_EXIT_INPUT after a message. */
int dvc_cli_parse_tol(double *tol, double *t_tol, const char *spec, const char *const *xn, long n,
                      const char *const *yn, long m);

/* Seconds from a monotonic clock. */
double dvc_cli_now(void);
/* Progress of beta_M / alpha_M searches on stderr, one line rewritten in
 * place (install it only when stderr is a terminal). */
void dvc_cli_beta_progress(const dvc_beta_progress *p, void *data);

#endif
