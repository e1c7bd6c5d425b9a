/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int dvc_cli_exit_code(dvc_status st)
{
    switch (st) {
    case DVC_OK: return DVC_EXIT_OK;
    case DVC_NOT_CERTIFIED: return DVC_EXIT_FAIL;
    default: return DVC_EXIT_INPUT;
    }
}

int dvc_cli_max_report(const dvc_cli_args *a, long *max)
{
    const char *mr = dvc_cli_value(a, "max-report");
    char *end;
    *max = 20;
    if (!mr) return -1;
    *max = strtol(mr, &end, 10);
    if (end == mr || *end != '\0' || *max < -1) {
        fprintf(stderr, "dvicert check: error: --max-report must be an integer >= -1, got '%s'\n", mr);
        return DVC_EXIT_INPUT;
    }
    return -1;
}

int dvc_cli_fail(const char *cmd, dvc_status st)
{
    fprintf(stderr, "dvicert %s: %s: %s\n", cmd,
            st == DVC_NOT_CERTIFIED ? "not certified" : "error", dvc_error_message());
    return dvc_cli_exit_code(st);
}

int dvc_cli_cert_refused(const char *cmd, FILE *rep, const char *path, dvc_status st,
                         const char *nothing)
{
    if (st == DVC_NOT_CERTIFIED) {
        fprintf(rep, "rejected certificate: %s: %s", path, dvc_error_message());
        if (nothing) fprintf(rep, " (nothing %s)", nothing);
        fputc('\n', rep);
        return DVC_EXIT_FAIL;
    }
    fprintf(stderr, "dvicert %s: unusable certificate: %s\n", cmd, dvc_error_message());
    return DVC_EXIT_INPUT;
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
