/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the DAE reduction (src/hybrid/dae.c, dae_linear.c): a growing
 * text, for the reduced expressions written out. */
#ifndef DVC_HYBRID_DAE_H
#define DVC_HYBRID_DAE_H

#include <stddef.h>
#include "dvicert/hybrid.h"

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

/* st, or where st is a failure of an evaluation of md's reduced field
 * over T x X, md a DAE mode with a g_z depending on t or the state, and
 * det g_z is not proven nonzero over T x X: the refusal naming the mode
 * and its constraints, DVC_NOT_CERTIFIED (the field's division by det g_z
 * failed; the generated text would mean nothing to the modeller). */
dvc_status hyb_dae_explain(dvc_status st, const dvc_hybrid_mode *md, const mpfi_t T,
                           const dvc_ivec_t X);

#endif
