/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Ideal contacts (docs/ideal_contacts.md): the certified Filippov run of
 * the translated model is the LCS solution only if it never enters the
 * region w < 0, where the auxiliary value y = K would act. */
#include <stdio.h>
#include "dvicert/lcs.h"
#include "dvicert/error.h"

/* The mode lies in w < 0 (one of its terms on the side h < 0). */
static int below(const dvc_hybrid_model_t m, long q)
{
    if (q < 0 || q >= m->nmodes || !m->modes[q].sides) return 0;
    for (long j = 0; j < m->ncontacts; j++)
        if (m->modes[q].sides[j] == -1) return 1;
    return 0;
}

dvc_status dvc_lcs_result_check(const dvc_hybrid_model_t m, const dvc_hybrid_result_struct *r)
{
    if (below(m, m->mode0))
        return dvc_error(DVC_NOT_CERTIFIED, "ideal contact: the initial mode lies in w < 0");
    for (long i = 0; i < r->nsteps; i++)
        if (below(m, r->mode[i]))
            return dvc_error(DVC_NOT_CERTIFIED, "ideal contact: step %ld (from t = %.17g) lies in "
                             "w < 0: not a solution of the complementarity system",
                             i + 1, mpfr_get_d(r->t[i], MPFR_RNDN));
    for (long k = 0; k < r->nevents; k++)
        if (below(m, r->ev[k].mode_after))
            return dvc_error(DVC_NOT_CERTIFIED, "ideal contact: event %ld (t near %.17g) leads into "
                             "w < 0: not a solution of the complementarity system",
                             k + 1, mpfr_get_d(&r->ev[k].t->left, MPFR_RNDN));
    return DVC_OK;
}
