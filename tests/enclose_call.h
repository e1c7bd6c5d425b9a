/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvc_enclose (include/dvicert/enclose.h) by the chen-wang route, as the
 * tests and fuzz harnesses call it: out NULL keeps the whole tube in c. */
#ifndef DVC_TESTS_ENCLOSE_CALL_H
#define DVC_TESTS_ENCLOSE_CALL_H

#include "dvicert/enclose.h"

static inline dvc_status enclose_cw(dvc_cert_t c, const char *problem, const char *out, mpfr_prec_t prec,
                                    mpfr_prec_t prec_max, int local_beta)
{
    dvc_enclose_opts o;
    dvc_enclose_opts_init(&o);
    o.route = DVC_ENCLOSE_CHEN_WANG;
    o.prec = prec;
    o.prec_max = prec_max;
    o.local_beta = local_beta;
    return dvc_enclose(c, problem, &o, out, NULL);
}

#endif
