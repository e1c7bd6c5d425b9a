/* SPDX-License-Identifier: LGPL-3.0-or-later */
#ifndef DVC_HYBRID_VERIFY_H
#define DVC_HYBRID_VERIFY_H

#include <stddef.h>
#include "dvicert/hybrid.h"

/* The checks of dvc_hybrid_verify_keep, one grid
 * point / step / event (claimed, recomputed): 1 with the reason in msg when
 * the claim fails; shared with the streamed verification (io/hybrid_cert.c). */
int dvc_hybrid_check_point_(char *msg, size_t len, long i, mpfr_srcptr ct, const dvc_ivec_t cx,
                            mpfr_srcptr rt, const dvc_ivec_t rx);
int dvc_hybrid_check_step_(char *msg, size_t len, long step, long cmode, const dvc_ivec_t cbox,
                           long rmode, const dvc_ivec_t rbox);
int dvc_hybrid_check_event_(char *msg, size_t len, long k, const dvc_hybrid_event *a,
                            const dvc_hybrid_event *b);

#endif
