/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the DAE reduction (src/hybrid/dae.c, dae_linear.c): a growing
 * text, for the reduced expressions written out. */
#ifndef DVC_HYBRID_DAE_H
#define DVC_HYBRID_DAE_H

#include <stddef.h>

typedef struct {
    char *s;
    size_t n, cap;
    int fail; /* out of memory: later appends do nothing */
} hyb_text;

/* Append k bytes of s / the string s. */
void hyb_text_put(hyb_text *b, const char *s, size_t k);
void hyb_text_puts(hyb_text *b, const char *s);
/* The text (the caller frees it; "" when nothing was appended), or NULL
 * out of memory. */
char *hyb_text_done(hyb_text *b);

#endif
