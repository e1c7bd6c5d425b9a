/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Shared by the libFuzzer harnesses: most readers take a path, so the
 * input is written to a file with a fixed name in a private directory
 * (created once per process, removed at exit). */
#ifndef DVC_FUZZ_UTIL_H
#define DVC_FUZZ_UTIL_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dvicert/error.h"

static char fuzz_dir[4096];
static char fuzz_path[4096 + 64];

/* Remove the directory and every file a harness wrote into it. */
static inline void fuzz_cleanup(void)
{
    DIR *d;
    struct dirent *e;
    char p[sizeof fuzz_path];
    if (!fuzz_dir[0]) return;
    if ((d = opendir(fuzz_dir))) {
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", fuzz_dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(fuzz_dir);
}

/* Write data to DIR/name and return that path; aborts when it cannot
 * (a harness that silently tested nothing would pass). */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *name)
{
    FILE *f;
    if (!fuzz_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp) tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"; /* memory is faster */
        snprintf(fuzz_dir, sizeof fuzz_dir, "%s/dvc-fuzz-XXXXXX", tmp);
        if (!mkdtemp(fuzz_dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(fuzz_cleanup);
    }
    snprintf(fuzz_path, sizeof fuzz_path, "%s/%s", fuzz_dir, name);
    /* a new file, not a truncated one: ext4 flushes a truncated file to
     * disk on close, which made a run 15x slower */
    unlink(fuzz_path);
    f = fopen(fuzz_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror("fuzz: writing the input");
        abort();
    }
    return fuzz_path;
}

/* The input as a NUL-terminated string (caller frees). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* With DVC_FUZZ_VERBOSE set, say how far an input got (to check that the
 * seeds reach the code behind the readers); silent otherwise. */
static inline void fuzz_note(const char *what, int st)
{
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("DVC_FUZZ_VERBOSE") != NULL;
    if (verbose)
        fprintf(stderr, "fuzz: %s: %s%s%s\n", what, dvc_status_name((dvc_status)st),
                st == DVC_OK ? "" : ": ", st == DVC_OK ? "" : dvc_error_message());
}

/* A property the library promises does not hold: report and crash, so
 * libFuzzer saves the input. */
#define FUZZ_ASSERT(cond, ...)                                            \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "fuzz: property violated: " __VA_ARGS__);     \
            fprintf(stderr, "\n");                                        \
            abort();                                                      \
        }                                                                 \
    } while (0)

#endif
