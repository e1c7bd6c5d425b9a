/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* gzip streams (zlib) and watched reads (nettle's SHA-256) behind a FILE *
 * (zfile.h). The codec and the hash are the libraries'; this file only
 * connects them to stdio. */
#define _GNU_SOURCE
#include "zfile.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nettle/sha2.h>
#include <zlib.h>

#include "dvicert/files.h"

/* zlib's input and output buffers: one read or write call per 128 KiB */
#define ZBUF (1u << 17)

int dvc_zfile_is_gzip(int fd)
{
    unsigned char m[2];
    return pread(fd, m, 2, 0) == 2 && m[0] == 0x1f && m[1] == 0x8b;
}

int dvc_zfile_name_gz(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

/* ---- the watch ----------------------------------------------------------- */

static _Thread_local struct {
    int on;
    char *path;
    dev_t dev;
    ino_t ino;
    unsigned char want[DVC_ZFILE_DIGEST];
    long match, bad; /* complete reads with the digest, and any other read */
} watch;

void dvc_zfile_watch(const char *path, const struct stat *sb, const unsigned char *digest)
{
    free(watch.path);
    memset(&watch, 0, sizeof watch);
    if (!path) return;
    watch.on = 1;
    watch.path = strdup(path); /* NULL: nothing is watched, the result is 0 */
    watch.dev = sb->st_dev;
    watch.ino = sb->st_ino;
    memcpy(watch.want, digest, DVC_ZFILE_DIGEST);
}

int dvc_zfile_watch_result(void)
{
    return watch.on && watch.path && watch.match > 0 && watch.bad == 0;
}

int dvc_zfile_watched(const char *path, const struct stat *sb)
{
    if (!watch.on || !watch.path) return 0;
    /* any spelling of the same file, and any file at the same name */
    return strcmp(path, watch.path) == 0 || (sb->st_dev == watch.dev && sb->st_ino == watch.ino);
}

/* ---- reading ------------------------------------------------------------- */

typedef struct {
    int fd;          /* a plain file; -1 when zlib holds it */
    gzFile gz;
    char *path;
    int watched;
    int eof;         /* the end of the text was reached (and, watched, counted) */
    uint64_t pos;    /* bytes of text delivered since the start */
    struct sha256_ctx sha;
    int zerr;        /* zlib's error: the compressed file is damaged */
    char zmsg[160];
} zin;

/* The last closed stream's damage, for dvc_zfile_close. */
static _Thread_local struct {
    int err;
    char msg[160];
    char path[256];
} last;

static ssize_t zin_raw(zin *z, char *buf, size_t n)
{
    if (z->gz) {
        int e = Z_OK, got = gzread(z->gz, buf, (unsigned)(n > INT_MAX ? INT_MAX : n));
        const char *m = got <= 0 ? gzerror(z->gz, &e) : NULL;
        /* Z_BUF_ERROR at the end: the file stops inside the compressed data */
        if (got < 0 || (got == 0 && e != Z_OK)) {
            z->zerr = e ? e : Z_DATA_ERROR;
            /* zlib names the file "<fd:N>: ": the caller names it */
            if (m && strncmp(m, "<fd:", 4) == 0 && strstr(m, ": ")) m = strstr(m, ": ") + 2;
            snprintf(z->zmsg, sizeof z->zmsg, "%s", e == Z_BUF_ERROR ? "truncated (it ends inside the "
                     "compressed data)" : m && *m ? m : "corrupt compressed data");
            errno = EIO;
            return -1;
        }
        return got;
    }
    for (;;) {
        ssize_t r = read(z->fd, buf, n);
        if (r < 0 && errno == EINTR) continue;
        return r;
    }
}

/* The end of the text: a watched read is counted, complete. */
static void zin_at_end(zin *z)
{
    unsigned char d[DVC_ZFILE_DIGEST];
    if (z->eof) return;
    z->eof = 1;
    if (!z->watched) return;
    sha256_digest(&z->sha, sizeof d, d);
    if (memcmp(d, watch.want, sizeof d) == 0) watch.match++;
    else watch.bad++;
}

static ssize_t zin_read(void *ck, char *buf, size_t n)
{
    zin *z = ck;
    ssize_t got = zin_raw(z, buf, n);
    if (got > 0) {
        if (z->watched) sha256_update(&z->sha, (size_t)got, (const uint8_t *)buf);
        z->pos += (uint64_t)got;
    } else if (got == 0) {
        zin_at_end(z);
    } else if (z->watched) {
        watch.bad++;
    }
    return got;
}

/* Read on (hashing) to position to, or to the end when to is -1. */
static int zin_skip(zin *z, int64_t to)
{
    static _Thread_local char scratch[1 << 16];
    while (to < 0 || z->pos < (uint64_t)to) {
        size_t want = to < 0 || (uint64_t)to - z->pos > sizeof scratch ? sizeof scratch
                                                                      : (size_t)((uint64_t)to - z->pos);
        ssize_t got = zin_read(z, scratch, want);
        if (got <= 0) return to < 0 && got == 0 ? 0 : -1;
    }
    return 0;
}

/* Back to the start of the text. A watched read is first completed, so that
 * every byte it delivered is counted in a whole text. */
static int zin_restart(zin *z)
{
    if (z->watched && !z->eof && zin_skip(z, -1) != 0) return -1;
    if (z->gz ? gzrewind(z->gz) != 0 : lseek(z->fd, 0, SEEK_SET) != 0) return -1;
    z->pos = 0;
    z->eof = 0;
    if (z->watched) sha256_init(&z->sha);
    return 0;
}

static int zin_seek(void *ck, off64_t *off, int whence)
{
    zin *z = ck;
    int64_t to = whence == SEEK_SET ? *off : whence == SEEK_CUR ? (int64_t)z->pos + *off : -1;
    if (to < 0) {
        errno = EINVAL;
        return -1;
    }
    /* backwards: from the start again; forwards: read on (a watched read
     * stays one read of the text from its start) */
    if ((uint64_t)to < z->pos && zin_restart(z) != 0) {
        errno = EIO;
        return -1;
    }
    if (z->watched || z->gz ? zin_skip(z, to) != 0 : lseek(z->fd, (off_t)to, SEEK_SET) != (off_t)to) {
        errno = EIO;
        return -1;
    }
    if (!z->watched && !z->gz) z->pos = (uint64_t)to;
    *off = (off64_t)z->pos;
    return 0;
}

static int zin_close(void *ck)
{
    zin *z = ck;
    int rc;
    /* a watched read left before the end is completed: what it delivered
     * must belong to a text with the digest */
    if (z->watched && !z->eof && !z->zerr) zin_skip(z, -1);
    last.err = z->zerr;
    snprintf(last.msg, sizeof last.msg, "%s", z->zmsg);
    snprintf(last.path, sizeof last.path, "%s", z->path ? z->path : "");
    rc = z->gz ? (gzclose_r(z->gz) == Z_OK ? 0 : -1) : close(z->fd);
    free(z->path);
    free(z);
    return rc == 0 ? 0 : EOF;
}

dvc_status dvc_zfile_in(FILE **f, int fd, const char *path, int gz, int watched)
{
    cookie_io_functions_t io = {zin_read, NULL, zin_seek, zin_close};
    zin *z = calloc(1, sizeof *z);
    *f = NULL;
    if (z) z->path = strdup(path);
    if (!z || !z->path) {
        if (z) free(z);
        close(fd);
        return dvc_error(DVC_ERR_NOMEM, "%s: out of memory", path);
    }
    z->fd = fd;
    z->watched = watched;
    if (watched) sha256_init(&z->sha);
    if (gz) {
        z->fd = -1;
        if (!(z->gz = gzdopen(fd, "rb"))) {
            close(fd);
            free(z->path);
            free(z);
            return dvc_error(DVC_ERR_NOMEM, "%s: out of memory", path);
        }
        gzbuffer(z->gz, ZBUF);
    }
    if (!(*f = fopencookie(z, "r", io))) {
        dvc_status st = dvc_error(DVC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        zin_close(z);
        return st;
    }
    return DVC_OK;
}

dvc_status dvc_zfile_close(FILE *f, dvc_status st)
{
    last.err = 0;
    if (f) fclose(f);
    if (last.err)
        return dvc_error(DVC_ERR_INPUT, "%s: damaged gzip file: %s ('gzip -t' tests it; the file "
                         "must be written again)", last.path, last.msg);
    return st;
}

dvc_status dvc_zfile_digest(unsigned char *digest, struct stat *sb, const char *path)
{
    static _Thread_local char buf[1 << 16];
    struct sha256_ctx sha;
    FILE *f;
    size_t got;
    dvc_status st = dvc_infile_open(&f, path, "rb");
    if (st != DVC_OK) return st;
    if (fstat(fileno(f), sb) != 0 && stat(path, sb) != 0) return dvc_zfile_close(f, DVC_ERR_IO);
    sha256_init(&sha);
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) sha256_update(&sha, got, (const uint8_t *)buf);
    st = ferror(f) ? dvc_error(DVC_ERR_IO, "%s: read error", path) : DVC_OK;
    sha256_digest(&sha, DVC_ZFILE_DIGEST, digest);
    return dvc_zfile_close(f, st);
}

/* ---- writing ------------------------------------------------------------- */

typedef struct {
    gzFile gz;
    int fd;          /* the caller's */
    uint64_t pos;    /* bytes of text written */
} zout;

static ssize_t zout_write(void *ck, const char *buf, size_t n)
{
    zout *z = ck;
    size_t done = 0;
    while (done < n) {
        unsigned k = (unsigned)(n - done > INT_MAX ? INT_MAX : n - done);
        int put = gzwrite(z->gz, buf + done, k);
        if (put <= 0) return 0; /* an error: stdio reports it */
        done += (size_t)put;
    }
    z->pos += n;
    return (ssize_t)n;
}

/* ftell only */
static int zout_seek(void *ck, off64_t *off, int whence)
{
    zout *z = ck;
    if (whence != SEEK_CUR || *off != 0) {
        errno = EINVAL;
        return -1;
    }
    *off = (off64_t)z->pos;
    return 0;
}

static int zout_close(void *ck)
{
    zout *z = ck;
    int rc = z->gz && gzclose_w(z->gz) == Z_OK ? 0 : EOF;
    z->gz = NULL;
    return rc;
}

static gzFile zout_gz(int fd)
{
    int d = dup(fd);
    gzFile g = d >= 0 ? gzdopen(d, "wb") : NULL;
    if (!g && d >= 0) close(d);
    if (g) gzbuffer(g, ZBUF);
    return g;
}

dvc_status dvc_zfile_out(FILE **f, void **z, int fd, const char *path)
{
    cookie_io_functions_t io = {NULL, zout_write, zout_seek, zout_close};
    zout *o = calloc(1, sizeof *o);
    *f = NULL;
    *z = NULL;
    if (!o) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    o->fd = fd;
    if (!(o->gz = zout_gz(fd)) || !(*f = fopencookie(o, "w", io))) {
        dvc_status st = dvc_error(DVC_ERR_IO, "%s: cannot write: %s", path, strerror(errno ? errno : ENOMEM));
        if (o->gz) gzclose_w(o->gz);
        free(o);
        return st;
    }
    *z = o;
    return DVC_OK;
}

int dvc_zfile_out_end(FILE *f, void *z)
{
    int ok = fclose(f) == 0;
    free(z);
    return ok;
}

int dvc_zfile_out_fd(void *z)
{
    return ((zout *)z)->fd;
}

int dvc_zfile_out_rewind(FILE *f, void *z)
{
    zout *o = z;
    /* what stdio holds goes to the old stream, which is dropped */
    int ok = fflush(f) == 0;
    if (o->gz) gzclose_w(o->gz);
    o->gz = NULL;
    ok = ok && ftruncate(o->fd, 0) == 0 && lseek(o->fd, 0, SEEK_SET) == 0;
    if (ok) ok = (o->gz = zout_gz(o->fd)) != NULL;
    o->pos = 0;
    return ok;
}
