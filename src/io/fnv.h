/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the library: the one FNV-1a 64 of the project. */
#ifndef DVC_IO_FNV_H
#define DVC_IO_FNV_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a 64, the hash of every digest and file check of the readers and
 * writers: *h <- the hash of the n bytes at p appended to what *h hashed;
 * start from DVC_FNV_OFFSET (the hash of nothing). */
#define DVC_FNV_OFFSET 0xcbf29ce484222325ull
static inline void dvc_fnv_update(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t v = *h;
    for (size_t k = 0; k < n; k++) v = (v ^ s[k]) * 0x100000001b3ull;
    *h = v;
}

#endif
