/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "dvicert/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DVC_MSG_MAX 2048

static _Thread_local char msg[DVC_MSG_MAX];

dvc_status dvc_error(dvc_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return code;
}

dvc_status dvc_error_context(dvc_status code, const char *fmt, ...)
{
    char prefix[DVC_MSG_MAX], old[DVC_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, msg, sizeof old);
    {
        size_t n = strlen(prefix);
        if (n >= sizeof msg) n = sizeof msg - 1;
        memcpy(msg, prefix, n);
        msg[n] = '\0';
        strncat(msg, old, sizeof msg - 1 - n);
    }
    return code;
}

const char *dvc_error_message(void) { return msg; }

void dvc_error_reset(void) { msg[0] = '\0'; }

const char *dvc_status_name(dvc_status s)
{
    switch (s) {
    case DVC_OK: return "ok";
    case DVC_NOT_CERTIFIED: return "not certified";
    case DVC_ERR_INPUT: return "input error";
    case DVC_ERR_IO: return "i/o error";
    case DVC_ERR_NOMEM: return "out of memory";
    case DVC_ERR_INTERNAL: return "internal error";
    }
    return "unknown status";
}
