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
