/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The header rule of every trajectory reader (io/traj_header.h): check
 * and enclose --from take the same header forms. */
#include "io/traj_header.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

long dvc_traj_header_slot(const char *name, long n, long m, const char *const *names,
                          const char *const *ynames, int allow_ignore)
{
    char *end;
    long k;
    if (strcmp(name, "t") == 0) return 0;
    if (allow_ignore && strcmp(name, "_") == 0) return DVC_TRAJ_SLOT_IGNORED;
    if (names)
        for (long j = 0; j < n; j++)
            if (names[j] && strcmp(name, names[j]) == 0) return j + 1;
    if (ynames)
        for (long j = 0; j < m; j++)
            if (ynames[j] && strcmp(name, ynames[j]) == 0) return n + j + 1;
    if ((name[0] != 'x' && name[0] != 'y') || !isdigit((unsigned char)name[1])) return -1;
    errno = 0;
    k = strtol(name + 1, &end, 10);
    if (*end != '\0' || errno || k < 1) return -1;
    if (name[0] == 'x') return k <= n ? k : -1;
    return k <= m ? n + k : -1;
}
