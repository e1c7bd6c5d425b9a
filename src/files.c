/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Input files and output files that never destroy data (rules in
 * include/dvicert/files.h). */
#include "dvicert/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zfile.h"

/* Inputs opened by this thread while tracking is on. */
#define TRACK_MAX 64
static _Thread_local int track_on;
static _Thread_local int track_n;
static _Thread_local struct {
    dev_t dev;
    ino_t ino;
    char name[240];
} tracked[TRACK_MAX];

void dvc_infile_track(int on)
{
    track_on = on;
    track_n = 0;
}

static void remember(const struct stat *sb, const char *path)
{
    for (int k = 0; k < track_n; k++)
        if (tracked[k].dev == sb->st_dev && tracked[k].ino == sb->st_ino) return;
    if (track_n == TRACK_MAX) return;
    tracked[track_n].dev = sb->st_dev;
    tracked[track_n].ino = sb->st_ino;
    snprintf(tracked[track_n].name, sizeof tracked[track_n].name, "%s", path);
    track_n++;
}

/* fd <- path opened for reading, only when it is a regular file (sb its
 * status): a directory, device, FIFO or socket is refused before any byte
 * is read (reading /dev/zero never ends, a FIFO may block forever). */
static dvc_status open_regular(int *fd, struct stat *sb, const char *path)
{
    *fd = -1;
    /* look before opening: opening a device or FIFO may itself act or block */
    if (stat(path, sb) != 0) return dvc_error(DVC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (S_ISDIR(sb->st_mode)) return dvc_error(DVC_ERR_INPUT, "%s: is a directory, not a file", path);
    if (!S_ISREG(sb->st_mode))
        return dvc_error(DVC_ERR_INPUT, "%s: is not a regular file (a device, pipe or socket): refused", path);
    *fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0) return dvc_error(DVC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    /* what was opened may differ from what was looked at */
    if (fstat(*fd, sb) != 0 || !S_ISREG(sb->st_mode)) {
        close(*fd);
        *fd = -1;
        return dvc_error(DVC_ERR_INPUT, "%s: is not a regular file: refused", path);
    }
    return DVC_OK;
}

dvc_status dvc_infile_open(FILE **f, const char *path, const char *mode)
{
    struct stat sb;
    int fd;
    dvc_status st = open_regular(&fd, &sb, path);
    *f = NULL;
    if (st != DVC_OK) return st;
    /* reads of a regular file do not block: O_NONBLOCK only guarded the open */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (dvc_zfile_is_gzip(fd) || dvc_zfile_watched(path, &sb)) {
        /* decompressed (zlib), or hashed for the verified-certificate cache */
        if ((st = dvc_zfile_in(f, fd, path, dvc_zfile_is_gzip(fd), dvc_zfile_watched(path, &sb))) != DVC_OK)
            return st;
        if (track_on) remember(&sb, path);
        return DVC_OK;
    }
    *f = fdopen(fd, mode);
    if (!*f) {
        st = dvc_error(DVC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return st;
    }
    if (track_on) remember(&sb, path);
    return DVC_OK;
}

dvc_status dvc_infile_read_text(char **text, const char *path, size_t max_bytes)
{
    struct stat sb;
    char *buf, *nul;
    size_t len = 0;
    int fd;
    dvc_status st0;
    *text = NULL;
    if ((st0 = open_regular(&fd, &sb, path)) != DVC_OK) return st0;
    if ((unsigned long long)sb.st_size > (unsigned long long)max_bytes) {
        close(fd);
        return dvc_error(DVC_ERR_INPUT, "%s: is %lld bytes, more than the limit of %zu bytes: refused", path,
                         (long long)sb.st_size, max_bytes);
    }
    buf = malloc((size_t)sb.st_size + 2);
    if (!buf) {
        close(fd);
        return dvc_error(DVC_ERR_NOMEM, "%s: out of memory", path);
    }
    /* read one byte past the size: a file that grows past it is refused */
    for (;;) {
        ssize_t got = read(fd, buf + len, (size_t)sb.st_size + 1 - len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            dvc_status st = dvc_error(DVC_ERR_IO, "%s: read error: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return st;
        }
        if (got == 0) break;
        len += (size_t)got;
        if (len > (size_t)sb.st_size) {
            free(buf);
            close(fd);
            return dvc_error(DVC_ERR_INPUT, "%s: changed size while being read: refused", path);
        }
    }
    close(fd);
    buf[len] = '\0';
    if ((nul = memchr(buf, '\0', len)) != NULL) {
        long line = 1;
        for (const char *q = buf; q < nul; q++) line += *q == '\n';
        free(buf);
        return dvc_error(DVC_ERR_INPUT, "%s: NUL byte at line %ld (not a text file)", path, line);
    }
    if (track_on) remember(&sb, path);
    *text = buf;
    return DVC_OK;
}

dvc_status dvc_infile_close(FILE *f, dvc_status st)
{
    return dvc_zfile_close(f, st);
}

char *dvc_path_dir(const char *path)
{
    const char *s = strrchr(path, '/');
    char *d;
    if (!s) return strdup(".");
    if (s == path) return strdup("/");
    d = malloc((size_t)(s - path) + 1);
    if (d) {
        memcpy(d, path, (size_t)(s - path));
        d[s - path] = '\0';
    }
    return d;
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Where the output goes. */
enum { OUT_REPLACE, OUT_DIRECT, OUT_STDOUT };

/* Apply the rules of files.h to path: *how on success. */
static dvc_status classify(const char *path, int *how, struct stat *target, int *exists)
{
    struct stat lsb, sb;
    *exists = 0;
    memset(target, 0, sizeof *target);
    if (path[0] == '\0') return dvc_error(DVC_ERR_INPUT, "empty output file name");
    if (strcmp(path, "-") == 0) {
        *how = OUT_STDOUT;
        return DVC_OK;
    }
    if (lstat(path, &lsb) != 0) {
        char *dir;
        struct stat dsb;
        int e = errno;
        if (e != ENOENT) return dvc_error(DVC_ERR_IO, "%s: cannot write: %s", path, strerror(e));
        /* a new file: its directory must exist, say so before any work */
        dir = dvc_path_dir(path);
        if (!dir) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        if (stat(dir, &dsb) != 0) e = errno;
        else if (!S_ISDIR(dsb.st_mode)) e = ENOTDIR;
        else e = 0;
        if (e) {
            dvc_status st = dvc_error(DVC_ERR_IO, "%s: cannot write: %s: %s", path, dir, strerror(e));
            free(dir);
            return st;
        }
        free(dir);
        *how = OUT_REPLACE;
        return DVC_OK;
    }
    *exists = 1;
    if (S_ISLNK(lsb.st_mode)) {
        if (stat(path, &sb) != 0)
            return dvc_error(DVC_ERR_INPUT, "%s: is a symbolic link to a missing file: refused "
                             "(dvicert does not create files through links; name the target)", path);
        if (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode)) {
            *how = OUT_DIRECT;
        } else {
            struct stat out;
            /* /dev/stdout with standard output redirected to a file */
            if (!S_ISREG(sb.st_mode) || fstat(STDOUT_FILENO, &out) != 0 || !same_file(&sb, &out))
                return dvc_error(DVC_ERR_INPUT, "%s: is a symbolic link: refused (dvicert does not "
                                 "replace links or write through them; name the target)", path);
            *how = OUT_STDOUT;
        }
        *target = sb;
        return DVC_OK;
    }
    *target = lsb;
    if (S_ISREG(lsb.st_mode)) *how = OUT_REPLACE;
    else if (S_ISCHR(lsb.st_mode) || S_ISFIFO(lsb.st_mode)) *how = OUT_DIRECT;
    else if (S_ISDIR(lsb.st_mode)) return dvc_error(DVC_ERR_INPUT, "%s: is a directory", path);
    else if (S_ISBLK(lsb.st_mode))
        return dvc_error(DVC_ERR_INPUT, "%s: is a block device: refused", path);
    else return dvc_error(DVC_ERR_INPUT, "%s: is not a file, device or pipe: refused", path);
    return DVC_OK;
}

dvc_status dvc_outfile_check(const char *path, const char *const *inputs, size_t ninputs)
{
    struct stat target, in;
    int how = OUT_REPLACE, exists = 0;
    dvc_status st = classify(path, &how, &target, &exists);
    if (st != DVC_OK) return st;
    if (how == OUT_STDOUT && fstat(STDOUT_FILENO, &target) == 0) exists = 1;
    /* writing a device or pipe does not destroy the input behind it */
    if (!exists || !S_ISREG(target.st_mode)) return DVC_OK;
    for (size_t k = 0; k < ninputs; k++)
        if (inputs[k] && stat(inputs[k], &in) == 0 && same_file(&in, &target))
            return dvc_error(DVC_ERR_INPUT, "%s: is the same file as the input %s: refused "
                             "(it would destroy the input)", path, inputs[k]);
    for (int k = 0; k < track_n; k++)
        if (tracked[k].dev == target.st_dev && tracked[k].ino == target.st_ino)
            return dvc_error(DVC_ERR_INPUT, "%s: is the same file as the input %s: refused "
                             "(it would destroy the input)", path, tracked[k].name);
    return DVC_OK;
}

/* Temporary files being written, for dvc_outfile_remove_temporaries (a
 * signal handler): lock-free, hence async-signal-safe. */
#define LIVE_MAX 16
static _Atomic(char *) live[LIVE_MAX];

static void live_add(char *t)
{
    for (int k = 0; k < LIVE_MAX; k++) {
        char *none = NULL;
        if (atomic_compare_exchange_strong(&live[k], &none, t)) return;
    }
}

static void live_del(char *t)
{
    for (int k = 0; k < LIVE_MAX; k++) {
        char *mine = t;
        if (atomic_compare_exchange_strong(&live[k], &mine, NULL)) return;
    }
}

void dvc_outfile_remove_temporaries(void)
{
    for (int k = 0; k < LIVE_MAX; k++) {
        char *t = atomic_load(&live[k]);
        if (t) unlink(t);
    }
}

/* The process umask, read without changing it (umask() would, for a moment,
 * for every thread). */
static mode_t current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    mode_t m = 022;
    int found = 0;
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "Umask:", 6) == 0) {
                m = (mode_t)strtoul(line + 6, NULL, 8);
                found = 1;
                break;
            }
        fclose(f);
    }
    if (!found) {
        m = umask(022);
        umask(m);
    }
    return m;
}

dvc_status dvc_outfile_open(dvc_outfile *o, const char *path)
{
    struct stat target;
    int how = OUT_REPLACE, exists = 0, fd;
    dvc_status st;
    size_t n;
    const char *base;
    char *dir;
    int gz;
    memset(o, 0, sizeof *o);
    o->done = 1;
    if (track_n && (st = dvc_outfile_check(path, NULL, 0)) != DVC_OK) return st;
    st = classify(path, &how, &target, &exists);
    if (st != DVC_OK) return st;
    o->path = strdup(path);
    if (!o->path) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (how == OUT_STDOUT) {
        o->f = stdout;
        o->done = 0;
        return DVC_OK;
    }
    if (how == OUT_DIRECT) {
        /* no O_CREAT, no O_TRUNC: the node stays what it is */
        fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd >= 0 && dvc_zfile_name_gz(path)) {
            if ((st = dvc_zfile_out(&o->f, &o->z, fd, path)) != DVC_OK) {
                close(fd);
                return st;
            }
        } else if (fd < 0 || !(o->f = fdopen(fd, "wb"))) {
            st = dvc_error(DVC_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
            if (fd >= 0) close(fd);
            return st;
        }
        o->done = 0;
        return DVC_OK;
    }
    dir = dvc_path_dir(path);
    base = strrchr(path, '/');
    base = base ? base + 1 : path;
    n = (dir ? strlen(dir) : 0) + strlen(base) + 20;
    o->tmp = dir ? malloc(n) : NULL;
    if (!o->tmp) {
        free(dir);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    /* unpredictable name, created exclusively: a planted file or link at a
     * guessed name is never opened */
    /* a compressed output's temporary file is named *.gz too (the trial
     * runs of enclose --radius write it by name) */
    gz = dvc_zfile_name_gz(path);
    snprintf(o->tmp, n, "%s/.%s.XXXXXX%s", dir, base, gz ? ".gz" : "");
    free(dir);
    fd = mkstemps(o->tmp, gz ? 3 : 0);
    if (fd >= 0) live_add(o->tmp);
    if (fd < 0) {
        st = dvc_error(DVC_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return st;
    }
    o->done = 0;
    if (fchmod(fd, exists ? (target.st_mode & 0777) : (0644 & ~current_umask())) != 0 ||
        (gz ? dvc_zfile_out(&o->f, &o->z, fd, path) != DVC_OK : !(o->f = fdopen(fd, "wb")))) {
        st = dvc_error(DVC_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        dvc_outfile_clear(o);
        return st;
    }
    return DVC_OK;
}

dvc_status dvc_outfile_commit(dvc_outfile *o)
{
    int ok, e = 0;
    if (o->done || !o->f) return dvc_error(DVC_ERR_INTERNAL, "output file not open");
    ok = fflush(o->f) == 0;
    if (!ok) e = errno;
    if (o->f == stdout) {
        o->done = 1;
        o->f = NULL;
        return ok ? DVC_OK : dvc_error(DVC_ERR_IO, "standard output: cannot write: %s", strerror(e));
    }
    if (o->z) {
        /* the gzip trailer written, then the file itself to disk */
        int fd = dvc_zfile_out_fd(o->z);
        if (!dvc_zfile_out_end(o->f, o->z) && ok) ok = 0, e = errno ? errno : EIO;
        o->z = NULL;
        if (ok && o->tmp && fsync(fd) != 0) ok = 0, e = errno;
        if (close(fd) != 0 && ok) ok = 0, e = errno;
    } else {
        if (ok && o->tmp && fsync(fileno(o->f)) != 0) ok = 0, e = errno;
        if (fclose(o->f) != 0 && ok) ok = 0, e = errno;
    }
    o->f = NULL;
    if (ok && o->tmp && rename(o->tmp, o->path) != 0) ok = 0, e = errno;
    if (ok && o->tmp) live_del(o->tmp);
    if (!ok) {
        dvc_status st = dvc_error(DVC_ERR_IO, "%s: cannot write: %s", o->path, strerror(e));
        dvc_outfile_clear(o);
        return st;
    }
    if (o->tmp) {
        /* make the rename itself durable; best effort */
        char *dir = dvc_path_dir(o->path);
        int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    o->done = 1;
    return DVC_OK;
}

void dvc_outfile_clear(dvc_outfile *o)
{
    if (o->z) {
        int fd = dvc_zfile_out_fd(o->z);
        dvc_zfile_out_end(o->f, o->z);
        close(fd);
        o->f = NULL;
    }
    if (!o->done) {
        if (o->f && o->f != stdout) fclose(o->f);
        if (o->tmp) unlink(o->tmp);
    }
    if (o->tmp) live_del(o->tmp);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    o->done = 1;
}

dvc_status dvc_outfile_rewind(dvc_outfile *o)
{
    int ok;
    if (o->done || !o->f || o->f == stdout) return dvc_error(DVC_ERR_INTERNAL, "output file not open");
    if (o->z) ok = dvc_zfile_out_rewind(o->f, o->z);
    else ok = fflush(o->f) == 0 && ftruncate(fileno(o->f), 0) == 0 && fseek(o->f, 0, SEEK_SET) == 0;
    return ok ? DVC_OK : dvc_error(DVC_ERR_IO, "%s: cannot write: %s", o->path, strerror(errno));
}

dvc_status dvc_write_atomic(const char *path, const char *text, size_t len)
{
    dvc_outfile o;
    dvc_status st = dvc_outfile_open(&o, path);
    if (st == DVC_OK) {
        if (fwrite(text, 1, len, o.f) != len) st = dvc_error(DVC_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
        else st = dvc_outfile_commit(&o);
    }
    dvc_outfile_clear(&o);
    return st;
}
