/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Streams behind a FILE * (glibc fopencookie) for src/files.c: gzip files
 * read and written through zlib, and watched reads, whose bytes are hashed
 * (SHA-256, nettle) so that a caller learns whether everything read from
 * one file was one text with a known digest (the verified-certificate
 * cache of the command, docs/formats.md "Compressed certificates"). */
#ifndef DVC_ZFILE_H
#define DVC_ZFILE_H

#include <stdio.h>
#include <sys/stat.h>

#include "dvicert/error.h"

#define DVC_ZFILE_DIGEST 32 /* bytes of a SHA-256 digest */

/* 1 when the regular file open as fd starts with the gzip magic bytes (its
 * offset unchanged). */
int dvc_zfile_is_gzip(int fd);

/* 1 when path names a file to compress (its name ends in ".gz"). */
int dvc_zfile_name_gz(const char *path);

/* 1 when reads of path (status sb) are watched (dvc_zfile_watch). */
int dvc_zfile_watched(const char *path, const struct stat *sb);

/* *f <- a stream reading fd (taken: closed with *f), decompressed when gz,
 * hashed for the watch when watched. */
dvc_status dvc_zfile_in(FILE **f, int fd, const char *path, int gz, int watched);

/* fclose(f), then: a damaged compressed file read through f (truncated,
 * corrupt) makes the result an input error naming path; else st. */
dvc_status dvc_zfile_close(FILE *f, dvc_status st);

/* *f <- a stream writing gzip into fd (fd stays the caller's; *z the
 * compressor, for dvc_zfile_out_end and dvc_zfile_out_rewind). */
dvc_status dvc_zfile_out(FILE **f, void **z, int fd, const char *path);
/* fclose(f) (the gzip trailer written); 0 when everything was written. */
int dvc_zfile_out_end(FILE *f, void *z);
/* The file descriptor the compressor writes. */
int dvc_zfile_out_fd(void *z);
/* Start the compressed file again, empty. */
int dvc_zfile_out_rewind(FILE *f, void *z);

/* Watch the reads of path (its digest: the SHA-256 of its text, its status
 * sb) in this thread; path NULL: stop. */
void dvc_zfile_watch(const char *path, const struct stat *sb, const unsigned char *digest);
/* 1 when, since dvc_zfile_watch, the file was read at least once and every
 * read of it, each completed to the end of the text, hashed to the digest
 * (so every byte any reader got from it belongs to that text); else 0. */
int dvc_zfile_watch_result(void);

/* The SHA-256 of the text of path (a compressed file: of its decompressed
 * text) and its status; an input error as dvc_infile_open says it. */
dvc_status dvc_zfile_digest(unsigned char *digest, struct stat *sb, const char *path);

#endif
