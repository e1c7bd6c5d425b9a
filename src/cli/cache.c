/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The verified-certificate cache (cache.h). Entries are small files in
 * $XDG_CACHE_HOME/dvicert (default ~/.cache/dvicert), one per certificate
 * text and build, named by a SHA-256 (nettle) and holding the digests they
 * stand for; the directory is used only when it is this user's and
 * writable by nobody else. */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "dvicert_version.h"
#include "zfile.h"

#define HEX (2 * DVC_ZFILE_DIGEST + 1)

static void hex(char *out, const unsigned char *d)
{
    for (int k = 0; k < DVC_ZFILE_DIGEST; k++) snprintf(out + 2 * k, 3, "%02x", d[k]);
}

/* The SHA-256 of the running executable: an entry stands for this very
 * build (another build, even of the same version, verifies again). */
static int build_id(unsigned char *d)
{
    static _Thread_local char buf[1 << 16];
    struct sha256_ctx sha;
    ssize_t got;
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    sha256_init(&sha);
    while ((got = read(fd, buf, sizeof buf)) > 0) sha256_update(&sha, (size_t)got, (const uint8_t *)buf);
    close(fd);
    if (got < 0) return 0;
    sha256_digest(&sha, DVC_ZFILE_DIGEST, d);
    return 1;
}

/* The cache directory, created (0700) when missing; NULL when there is
 * none to trust: not a directory of this user, or writable by others. */
static char *cache_dir(void)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    struct stat sb;
    char *dir;
    size_t n;
    /* the XDG rule: a relative XDG_CACHE_HOME is ignored */
    if (!x || x[0] != '/') x = NULL;
    if (!x && (!home || home[0] != '/')) return NULL;
    n = strlen(x ? x : home) + 32;
    if (!(dir = malloc(n))) return NULL;
    if (x) snprintf(dir, n, "%s", x);
    else snprintf(dir, n, "%s/.cache", home);
    (void)mkdir(dir, 0700);
    strcat(dir, "/dvicert");
    (void)mkdir(dir, 0700);
    if (lstat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() || (sb.st_mode & 022)) {
        free(dir);
        return NULL;
    }
    return dir;
}

typedef struct {
    char *dir;
    char name[HEX];                   /* the entry's file name */
    char text[4 * HEX + 64];          /* what it holds */
} entry_t;

/* The entry of the certificate text with digest key for this build. */
static int entry_of(entry_t *e, const unsigned char *key)
{
    unsigned char b[DVC_ZFILE_DIGEST], nm[DVC_ZFILE_DIGEST];
    char kh[HEX], bh[HEX];
    struct sha256_ctx sha;
    if (!(e->dir = cache_dir()) || !build_id(b)) return 0;
    sha256_init(&sha);
    sha256_update(&sha, 16, (const uint8_t *)"dvicert cache 1\n");
    sha256_update(&sha, sizeof b, b);
    sha256_update(&sha, DVC_ZFILE_DIGEST, key);
    sha256_digest(&sha, sizeof nm, nm);
    hex(e->name, nm);
    hex(kh, key);
    hex(bh, b);
    snprintf(e->text, sizeof e->text, "dvicert verified certificate\nsha256 %s\nbuild %s\nversion %s\n", kh,
             bh, DVC_VERSION);
    return 1;
}

/* 1 when the entry exists as a regular file holding exactly its text. */
static int entry_found(const entry_t *e)
{
    char buf[sizeof e->text + 1];
    ssize_t got;
    int dfd = open(e->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
    struct stat sb;
    if (dfd < 0) return 0;
    fd = openat(dfd, e->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    close(dfd);
    if (fd < 0) return 0;
    got = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid() ? read(fd, buf, sizeof buf) : -1;
    close(fd);
    return got == (ssize_t)strlen(e->text) && memcmp(buf, e->text, (size_t)got) == 0;
}

/* Write the entry (a temporary file renamed); failures are ignored. */
static void entry_record(const entry_t *e)
{
    size_t n = strlen(e->dir) + HEX + 32, len = strlen(e->text);
    char *tmp = malloc(n), *path = malloc(n);
    int fd = -1;
    if (tmp && path) {
        snprintf(tmp, n, "%s/.entry.XXXXXX", e->dir);
        snprintf(path, n, "%s/%s", e->dir, e->name);
        fd = mkstemp(tmp);
    }
    if (fd >= 0) {
        int ok = write(fd, e->text, len) == (ssize_t)len;
        ok = close(fd) == 0 && ok;
        if (!ok || rename(tmp, path) != 0) unlink(tmp);
    }
    free(tmp);
    free(path);
}

dvc_status dvc_cli_cache_read(const char *path, int use, int lookup, int *cached,
                              dvc_status (*read_fn)(void *ctx, int verify), void *ctx)
{
    unsigned char key[DVC_ZFILE_DIGEST];
    struct stat sb;
    entry_t e;
    dvc_status st;
    int same;
    memset(&e, 0, sizeof e);
    *cached = 0;
    /* no cache, or the file unreadable (its reader says why) */
    if (!use || dvc_zfile_digest(key, &sb, path) != DVC_OK || !entry_of(&e, key)) {
        free(e.dir);
        return read_fn(ctx, 1);
    }
    *cached = lookup && entry_found(&e);
    dvc_zfile_watch(path, &sb, key);
    st = read_fn(ctx, !*cached);
    same = dvc_zfile_watch_result();
    dvc_zfile_watch(NULL, NULL, NULL);
    if (*cached && st == DVC_OK && !same)
        st = dvc_error(DVC_ERR_INPUT, "%s: the file changed while it was read (its text is not the "
                       "one verified earlier): run the command again", path);
    else if (!*cached && st == DVC_OK && same)
        entry_record(&e);
    free(e.dir);
    return st;
}
