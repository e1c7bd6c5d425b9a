/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the DLVI engine (dlvi.c, dlvi_step.c). */
#ifndef DVC_DLVI_INTERNAL_H
#define DVC_DLVI_INTERNAL_H

#include <stdarg.h>
#include "dvicert/dlvi.h"

dvc_status dvc_dlvi_result_alloc_(dvc_dlvi_result_t r, long n, long m, long N, mpfr_prec_t prec);

/* MPFI has no mpfi_inits2 / mpfi_clears: NULL-terminated lists. */
static inline void dvc_dlvi_iinits_(mpfr_prec_t prec, mpfi_ptr x, ...)
{
    va_list ap;
    va_start(ap, x);
    while (x != NULL) {
        mpfi_init2(x, prec);
        x = va_arg(ap, mpfi_ptr);
    }
    va_end(ap);
}

static inline void dvc_dlvi_iclears_(mpfi_ptr x, ...)
{
    va_list ap;
    va_start(ap, x);
    while (x != NULL) {
        mpfi_clear(x);
        x = va_arg(ap, mpfi_ptr);
    }
    va_end(ap);
}

#endif
