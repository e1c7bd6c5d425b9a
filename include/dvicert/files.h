/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Opening input files and writing output files without destroying data.
 *
 * An output path is handled by what it names:
 *   "-"                standard output, written directly;
 *   a character device or a FIFO (e.g. /dev/null, a named pipe, or
 *                      /dev/stdout as a link to one): opened and written
 *                      directly, the node itself is never replaced;
 *   a symbolic link    refused, unless it leads to a device or FIFO (above)
 *                      or to the file open as standard output (/dev/stdout
 *                      redirected to a file), which is then written directly;
 *   a regular file or a new name in an existing directory: the text goes to
 *                      a temporary file created with mkstemp in the same
 *                      directory, is flushed to disk, and the temporary file
 *                      is renamed over the path. It keeps the permission bits
 *                      of the file it replaces (new files: 0644 & ~umask).
 *                      On any failure the temporary file is removed and
 *                      nothing is left at the path;
 *   a directory, a block device or a socket: refused.
 * Direct writes are not atomic: a failure may leave part of the output.
 *
 * Compression: an output whose name ends in ".gz" (not "-") is written
 * gzip-compressed (zlib); an input that starts with the gzip magic bytes is
 * read decompressed, whatever its name (docs/formats.md, "Compressed
 * certificates"). */
#ifndef DVICERT_FILES_H
#define DVICERT_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "dvicert/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Open an input file for reading (fopen mode, e.g. "rb"). Only a regular
 * file is opened: a directory is refused with "PATH: is a directory", a
 * device, FIFO or socket with "PATH: is not a regular file", before any
 * byte is read (certificates and trajectories are read to their end). A
 * gzip file is read decompressed. On success *f is the caller's to close
 * (dvc_infile_close, or fclose); on failure *f is NULL and the message
 * names the path. */
dvc_status dvc_infile_open(FILE **f, const char *path, const char *mode);

/* Close f from dvc_infile_open and return st, unless f read a damaged gzip
 * file (truncated or corrupt): then an input error naming the file, which
 * replaces whatever the reader concluded from the bytes it got. */
dvc_status dvc_infile_close(FILE *f, dvc_status st);

/* The directory part of path ("." when it has none, "/" for a file in the
 * root); malloc'd (NULL: out of memory). */
char *dvc_path_dir(const char *path);

/* Read the whole text file at path into a new NUL-terminated buffer (*text,
 * the caller's to free; NULL on failure). Only a regular file is read: a
 * directory, a device, a FIFO or a socket is refused before any byte is
 * read (reading /dev/zero would never end, a FIFO could block forever). A
 * file larger than max_bytes is refused, by its size before reading and
 * again while reading should it grow. A NUL byte is refused as "NUL byte at
 * line L". Messages name the path (and the limit). The file counts as an
 * input for dvc_infile_track. */
dvc_status dvc_infile_read_text(char **text, const char *path, size_t max_bytes);

/* Remember (on) or stop remembering and forget (off) the regular files
 * that dvc_infile_open opens in this thread (the first 64): while any are
 * remembered, an output that is one of them is refused, whatever its name.
 * For programs whose outputs must never replace what they read (the
 * dvicert command turns it on); off by default. */
void dvc_infile_track(int on);

/* Check, before any work, that path may be written by the rules above and
 * that it is none of the ninputs files in inputs nor a remembered input
 * (the same device and inode, whatever the names: hard links and other
 * spellings count). */
dvc_status dvc_outfile_check(const char *path, const char *const *inputs, size_t ninputs);

/* An output being written. */
typedef struct {
    FILE *f;       /* write the contents here */
    char *path;    /* the destination (owned) */
    char *tmp;     /* the temporary file, NULL when written directly (owned) */
    int done;      /* committed or cleared */
    void *z;       /* private: the compressor of a ".gz" output, else NULL */
} dvc_outfile;

/* Start writing path (rules above; a remembered input is refused). On
 * failure nothing is created and
 * dvc_outfile_clear is still safe to call. */
dvc_status dvc_outfile_open(dvc_outfile *o, const char *path);
/* Start the output again, empty (a writer's retry); not for "-". */
dvc_status dvc_outfile_rewind(dvc_outfile *o);
/* Finish: flush, fsync and rename the temporary file over the path (or
 * flush and close a direct output). On failure the temporary file is
 * removed. Call dvc_outfile_clear afterwards in every case. */
dvc_status dvc_outfile_commit(dvc_outfile *o);
/* Release o; when it was not committed, remove the temporary file. */
void dvc_outfile_clear(dvc_outfile *o);

/* Remove the temporary files of every output not yet committed or
 * cleared. Async-signal-safe: for a handler of SIGINT/SIGTERM, so that an
 * interrupted run leaves nothing behind. */
void dvc_outfile_remove_temporaries(void);

/* Write len bytes of text to path by the rules above, in one go. */
dvc_status dvc_write_atomic(const char *path, const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif
