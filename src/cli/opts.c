/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The one option parser of the dvicert subcommands: each command declares
 * a table of options (cli.h); values, repetitions, common options and the
 * output file are checked here once. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static long table_size(const dvc_cli_opt *t)
{
    long n = 0;
    while (t && t[n].name) n++;
    return n;
}

/* Index of the option that arg names (without any "=VALUE"), or -1;
 * *eq is set to the value after '=' (or attached to a short option). */
static long lookup(const dvc_cli_opt *t, const char *arg, const char **eq)
{
    *eq = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2, *e = strchr(name, '=');
        size_t len = e ? (size_t)(e - name) : strlen(name);
        for (long k = 0; t && t[k].name; k++)
            if (strlen(t[k].name) == len && strncmp(t[k].name, name, len) == 0) {
                if (e) *eq = e + 1;
                return k;
            }
        return -1;
    }
    for (long k = 0; t && t[k].name; k++)
        if (t[k].short_name && t[k].short_name == arg[1]) {
            if (arg[2] != '\0') {
                if (!t[k].arg) return -1; /* "-hx": no bundling of flags */
                *eq = arg + 2;
            }
            return k;
        }
    return -1;
}

static int is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

/* Options that take a value in any command: their value is never read as
 * a help request, even where the option itself will be refused. */
static int common_takes_value(const char *a)
{
    return strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--prec") == 0 ||
           strcmp(a, "--digits") == 0;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int fail(const dvc_cli_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const dvc_cli_cmd *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "dvicert %s: error: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return DVC_EXIT_INPUT;
}

int dvc_cli_parse(dvc_cli_args *a, const dvc_cli_cmd *cmd, int argc, char **argv)
{
    const dvc_cli_opt *t = cmd->opts;
    long nopt = table_size(t), k;
    int opts_done = 0;
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->report = stdout;
    if (nopt > DVC_CLI_MAX_OPTS) return fail(cmd, "%ld options: the table holds at most %d", nopt, DVC_CLI_MAX_OPTS);

    /* --help anywhere, except as the value of an option */
    for (int i = 1; i < argc; i++) {
        const char *eq;
        if (strcmp(argv[i], "--") == 0) break;
        if (is_help(argv[i])) {
            cmd->help();
            return DVC_EXIT_OK;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0' && (k = lookup(t, argv[i], &eq)) >= 0) {
            if (t[k].arg && !eq) i++;
        } else if (common_takes_value(argv[i])) {
            i++;
        }
    }

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *eq, *val;
        char shown[64];
        if (opts_done || arg[0] != '-' || arg[1] == '\0') {
            if (a->npos >= cmd->max_pos || a->npos >= DVC_CLI_MAX_POS)
                return a->npos ? fail(cmd, "too many arguments: '%s' after '%s'", arg, a->pos[a->npos - 1])
                               : fail(cmd, "unexpected argument '%s'", arg);
            a->pos[a->npos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            opts_done = 1;
            continue;
        }
        k = lookup(t, arg, &eq);
        if (k < 0) {
            size_t n = strcspn(arg, "=");
            if ((n == 6 && strncmp(arg, "--prec", 6) == 0) || (n == 8 && strncmp(arg, "--digits", 8) == 0)) {
                const char *why = n == 6 ? cmd->no_prec : cmd->no_digits;
                fprintf(stderr, "dvicert %s: error: option %.*s has no effect here%s%s\n", cmd->name,
                        (int)n, arg, why ? ": " : "", why ? why : "");
                return DVC_EXIT_INPUT;
            }
            return fail(cmd, "unknown option '%s' (see dvicert %s --help)", arg, cmd->name);
        }
        if (t[k].short_name)
            snprintf(shown, sizeof shown, "-%c/--%s", t[k].short_name, t[k].name);
        else
            snprintf(shown, sizeof shown, "--%s", t[k].name);
        if (a->value[k])
            return fail(cmd, "option %s given twice (give it once)", shown);
        if (!t[k].arg) {
            if (eq) return fail(cmd, "option %s takes no value, got '%s'", shown, arg);
            val = "";
        } else if (eq) {
            val = eq;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            fprintf(stderr, "dvicert %s: error: option %s needs %s\n", cmd->name, shown,
                    t[k].need ? t[k].need : "a value");
            return DVC_EXIT_INPUT;
        }
        a->value[k] = val;
        if (strcmp(t[k].name, "prec") == 0) {
            long v;
            if (parse_long(val, 24, 65536, &v) != 0)
                return fail(cmd, "--prec must be an integer number of bits in [24, 65536], got '%s'", val);
            a->prec_given = 1;
            a->prec = (mpfr_prec_t)v;
            dvc_prec_set(a->prec);
        } else if (strcmp(t[k].name, "digits") == 0) {
            long v;
            if (parse_long(val, 2, 1000, &v) != 0)
                return fail(cmd, "--digits must be an integer in [2, 1000], got '%s'", val);
            a->digits_given = 1;
            a->digits = (int)v;
        } else if (strcmp(t[k].name, "output") == 0) {
            a->out = val;
        }
    }
    if (a->npos < cmd->min_pos) {
        fprintf(stderr, "dvicert %s: error: missing argument; usage: %s\n", cmd->name, cmd->usage);
        return DVC_EXIT_INPUT;
    }
    for (k = 0; k < nopt; k++)
        if (strcmp(t[k].name, "output") == 0 && !a->out) {
            fprintf(stderr, "dvicert %s: error: no output file (-o FILE); usage: %s\n", cmd->name, cmd->usage);
            return DVC_EXIT_INPUT;
        }
    if (a->out) {
        struct stat so, sout;
        dvc_status st = dvc_outfile_check(a->out, a->pos, (size_t)a->npos);
        if (st != DVC_OK) return dvc_cli_fail(cmd->name, st);
        /* the report must not mix with output going to standard output */
        if (strcmp(a->out, "-") == 0 || (stat(a->out, &so) == 0 && fstat(STDOUT_FILENO, &sout) == 0 &&
                                         so.st_dev == sout.st_dev && so.st_ino == sout.st_ino))
            a->report = stderr;
    }
    return -1;
}

const char *dvc_cli_value(const dvc_cli_args *a, const char *name)
{
    for (long k = 0; a->cmd->opts && a->cmd->opts[k].name; k++)
        if (strcmp(a->cmd->opts[k].name, name) == 0) return a->value[k];
    return NULL;
}

int dvc_cli_flag(const dvc_cli_args *a, const char *name) { return dvc_cli_value(a, name) != NULL; }

static int opt_head(char *buf, size_t n, const dvc_cli_opt *o)
{
    if (o->short_name)
        return snprintf(buf, n, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "",
                        o->arg ? o->arg : "");
    return snprintf(buf, n, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

void dvc_cli_print_options(const dvc_cli_cmd *cmd)
{
    const dvc_cli_opt *t = cmd->opts;
    int width = 10, has_out = 0;
    char head[80];
    /* the help column: after the longest short head; longer ones wrap */
    for (long k = 0; t && t[k].name; k++) {
        int n = opt_head(head, sizeof head, &t[k]);
        if (n <= 18 && n > width) width = n;
    }
    printf("options:\n");
    for (long k = 0; t && t[k].name; k++) {
        const char *h = t[k].help ? t[k].help : "";
        opt_head(head, sizeof head, &t[k]);
        if (strcmp(t[k].name, "output") == 0) has_out = 1;
        if ((int)strlen(head) > width) printf("  %s\n  %*s", head, width + 2, "");
        else printf("  %-*s", width + 2, head);
        for (; *h; h++) {
            putchar(*h);
            if (*h == '\n') printf("  %*s", width + 2, "");
        }
        printf("\n");
    }
    printf("  %-*s%s\n", width + 2, "-h, --help", "this text");
    if (has_out)
        printf("\nThe output FILE is never one of the inputs, nor a file they read (refused,\n"
               "whatever its name). A regular FILE is written to a temporary file beside it\n"
               "(unpredictable name, exclusive creation), flushed to disk and renamed over\n"
               "FILE: nothing is left at FILE on failure. '-' is standard output; a device or\n"
               "pipe (e.g. /dev/null, /dev/stdout) is written directly and never replaced. A\n"
               "symbolic link is refused (name its target), except one to a device, a pipe or\n"
               "the file open as standard output. Each option may be given once.\n");
    else
        printf("\nEach option may be given once.\n");
}
