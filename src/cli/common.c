/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "cli.h"

#include <math.h>
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

/* See cli.h. */
int dvc_cli_parse_tol(double *tol, double *t_tol, const char *spec, const char *const *xn, long n,
                      const char *const *yn, long m)
{
    char *copy = strdup(spec), *save = NULL, *end;
    int rc = -1;
    if (!copy) return DVC_EXIT_INPUT;
    *t_tol = 0;
    for (long k = 0; k < n + m; k++) tol[k] = 0;
    if (!strchr(spec, '=')) {
        double v = strtod(spec, &end);
        if (end == spec || *end || !(v >= 0) || isinf(v)) {
            fprintf(stderr, "dvicert check: error: --tol: '%s' is not a number >= 0\n", spec);
            rc = DVC_EXIT_INPUT;
        }
        for (long k = 0; k < n + m; k++) tol[k] = v;
        *t_tol = v;
        free(copy);
        return rc;
    }
    for (char *item = strtok_r(copy, ",", &save); item && rc < 0; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        double v;
        long slot = -1;
        if (!eq) {
            fprintf(stderr, "dvicert check: error: --tol: '%s' is not NAME=VALUE\n", item);
            rc = DVC_EXIT_INPUT;
            break;
        }
        *eq = '\0';
        v = strtod(eq + 1, &end);
        if (end == eq + 1 || *end || !(v >= 0) || isinf(v)) {
            fprintf(stderr, "dvicert check: error: --tol: '%s' is not a number >= 0\n", eq + 1);
            rc = DVC_EXIT_INPUT;
            break;
        }
        if (strcmp(item, "t") == 0) {
            *t_tol = v;
            continue;
        }
        for (long k = 0; k < n && slot < 0; k++) {
            char xk[32];
            snprintf(xk, sizeof xk, "x%ld", k + 1);
            if (strcmp(item, xn[k]) == 0 || strcmp(item, xk) == 0) slot = k;
        }
        for (long k = 0; k < m && slot < 0; k++) {
            char yk[32];
            snprintf(yk, sizeof yk, "y%ld", k + 1);
            if (strcmp(item, yn[k]) == 0 || strcmp(item, yk) == 0) slot = n + k;
        }
        if (slot < 0) {
            fprintf(stderr, "dvicert check: error: --tol: '%s' is not t or a column of the problem\n", item);
            rc = DVC_EXIT_INPUT;
            break;
        }
        tol[slot] = v;
    }
    free(copy);
    return rc;
}
