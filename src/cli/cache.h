/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The verified-certificate cache of the dvicert command (docs/formats.md,
 * "Verified-certificate cache"): a certificate whose text this very binary
 * verified before on this machine is not recomputed again by export, plot,
 * check, info --verify and events --verify. An entry is keyed by the
 * SHA-256 of the certificate's text and of the running executable, and
 * the text that is then read must hash to the key (every read of the
 * file, to its end), else the command fails. Any trouble with the cache
 * (missing, unwritable, corrupt, writable by others) means a full
 * verification, never a failure and never a skipped one. */
#ifndef DVC_CLI_CACHE_H
#define DVC_CLI_CACHE_H

#include "dvicert/error.h"

/* What the messages say of a certificate verified through the cache. */
#define DVC_CLI_CACHED "verified earlier on this machine (cache)"

/* Read the certificate at path with read(ctx, verify): verify 1, or 0 when
 * the cache holds an entry for its text (*cached = 1; lookup 0: never, the
 * verify command). use 0 (--no-cache): the cache is neither consulted nor
 * updated. A verification accepted whose reads all hashed to the key
 * records the entry. Returns read's status, or an input error when a read
 * that skipped the verification got another text than the key's. */
dvc_status dvc_cli_cache_read(const char *path, int use, int lookup, int *cached,
                              dvc_status (*read)(void *ctx, int verify), void *ctx);

#endif
