/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int dvc_cli_common_opts(int argc, char **argv, int *digits)
{
    int out = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        int is_prec = 0, is_digits = 0;
        if (strncmp(a, "--prec", 6) == 0 && (a[6] == '\0' || a[6] == '=')) is_prec = 1;
        else if (strncmp(a, "--digits", 8) == 0 && (a[8] == '\0' || a[8] == '=')) is_digits = 1;
        if (!is_prec && !is_digits) {
            argv[out++] = argv[i];
            /* the value of another option (e.g. --title --digits) is not an option */
            if (dvc_cli_takes_value(a) && i + 1 < argc) argv[out++] = argv[++i];
            continue;
        }
        val = strchr(a, '=');
        if (val) val++;
        else if (i + 1 < argc) val = argv[++i];
        else {
            fprintf(stderr, "dvicert %s: error: option %s needs a value\n", argv[0], a);
            return -1;
        }
        {
            long v;
            if (is_prec) {
                if (parse_long(val, 24, 65536, &v) != 0) {
                    fprintf(stderr, "dvicert %s: error: --prec must be an integer number of bits in [24, 65536], got '%s'\n", argv[0], val);
                    return -1;
                }
                dvc_prec_set((mpfr_prec_t)v);
            } else {
                if (parse_long(val, 2, 1000, &v) != 0) {
                    fprintf(stderr, "dvicert %s: error: --digits must be an integer in [2, 1000], got '%s'\n", argv[0], val);
                    return -1;
                }
                if (digits) *digits = (int)v;
            }
        }
    }
    argv[out] = NULL;
    return out;
}

int dvc_cli_exit_code(dvc_status st)
{
    switch (st) {
    case DVC_OK: return DVC_EXIT_OK;
    case DVC_NOT_CERTIFIED: return DVC_EXIT_FAIL;
    default: return DVC_EXIT_INPUT;
    }
}

int dvc_cli_fail(const char *cmd, dvc_status st)
{
    fprintf(stderr, "dvicert %s: %s: %s\n", cmd,
            st == DVC_NOT_CERTIFIED ? "not certified" : "error", dvc_error_message());
    return dvc_cli_exit_code(st);
}

double dvc_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void dvc_cli_beta_progress(const dvc_beta_progress *p, void *data)
{
    (void)data;
    if (p->total > 0)
        fprintf(stderr, "\r%s: %.0f of %.0f, lower %.6g, upper %.6g, %.1f s   ", p->phase, p->done,
                p->total, p->lo, p->hi, p->seconds);
    else
        fprintf(stderr, "\r%s: %.0f nodes, lower %.6g, upper %.6g, %.1f s   ", p->phase, p->done,
                p->lo, p->hi, p->seconds);
    if (p->final) fputc('\n', stderr);
    fflush(stderr);
}
