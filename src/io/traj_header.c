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

char *dvc_traj_trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s)) s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

long dvc_traj_split(char *line, char **f, long max, char delim)
{
    long k = 0;
    char *p = line;
    if (delim == ' ') {
        for (;;) {
            while (*p == ' ' || *p == '\t') p++;
            if (!*p) return k;
            if (k < max) f[k] = p;
            k++;
            while (*p && *p != ' ' && *p != '\t') p++;
            if (!*p) return k;
            *p++ = '\0';
        }
    }
    for (;;) {
        char *c = strchr(p, ',');
        /* cut before trimming, so "t ,x1" gives "t" */
        if (c) *c = '\0';
        if (k < max) f[k] = dvc_traj_trim(p);
        k++;
        if (!c) break;
        p = c + 1;
    }
    return k;
}

char dvc_traj_delim(const char *line)
{
    return strchr(line, ',') ? ',' : ' ';
}

long dvc_traj_count(const char *line, char delim)
{
    long k = 0;
    const char *p = line;
    if (delim == ',') {
        for (k = 1; *p; p++) k += *p == ',';
        return k;
    }
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) return k;
        k++;
        while (*p && *p != ' ' && *p != '\t') p++;
    }
}
