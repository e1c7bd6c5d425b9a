/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Re-check of a claimed hybrid result by recomputation: the engine is
 * deterministic (its step choices depend only on the model), so the claim
 * must reproduce the grid and the events exactly, and each claimed
 * enclosure must contain the recomputed one. */
#include <stdio.h>
#include "hybrid/internal.h"

static int ivec_contains(const dvc_ivec_t big, const dvc_ivec_t small)
{
    if (big->n != small->n) return 0;
    for (long i = 0; i < big->n; i++)
        if (!mpfi_is_inside(small->e[i], big->e[i])) return 0;
    return 1;
}

dvc_status dvc_hybrid_verify(const dvc_hybrid_model_t m, const dvc_hybrid_result_t claim)
{
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    dvc_status st = dvc_hybrid_verify_keep(r, m, claim);
    dvc_hybrid_result_clear(r);
    return st;
}

dvc_status dvc_hybrid_verify_keep(dvc_hybrid_result_t r, const dvc_hybrid_model_t m,
                                  const dvc_hybrid_result_t claim)
{
    dvc_hybrid_result_clear(r);
    dvc_hybrid_result_init(r);
    dvc_status st = dvc_hybrid_enclose(r, m);
    if (st == DVC_ERR_INPUT || st == DVC_ERR_NOMEM || st == DVC_ERR_INTERNAL) return st;
    if (claim->certified && !r->certified)
        st = dvc_error(DVC_NOT_CERTIFIED, "the claim reaches T, the recomputation does not: %s",
                       dvc_error_message());
    else if (claim->nsteps != r->nsteps)
        st = dvc_error(DVC_NOT_CERTIFIED, "%ld steps claimed, %ld recomputed", claim->nsteps,
                       r->nsteps);
    else if (claim->nevents != r->nevents)
        st = dvc_error(DVC_NOT_CERTIFIED, "%ld events claimed, %ld recomputed", claim->nevents,
                       r->nevents);
    else
        st = DVC_OK;
    for (long i = 0; i <= r->nsteps && st == DVC_OK; i++) {
        if (!mpfr_equal_p(claim->t[i], r->t[i]))
            st = dvc_error(DVC_NOT_CERTIFIED, "grid point %ld: time differs from the recomputed one", i);
        else if (!ivec_contains(claim->x[i], r->x[i]))
            st = dvc_error(DVC_NOT_CERTIFIED, "grid point %ld (t = %.17g): the claimed state does "
                           "not contain the recomputed enclosure", i, mpfr_get_d(r->t[i], MPFR_RNDN));
        else if (i < r->nsteps && claim->mode[i] != r->mode[i])
            st = dvc_error(DVC_NOT_CERTIFIED, "step %ld: mode %ld claimed, %ld recomputed", i + 1,
                           claim->mode[i], r->mode[i]);
        else if (i < r->nsteps && !ivec_contains(claim->box[i], r->box[i]))
            st = dvc_error(DVC_NOT_CERTIFIED, "step %ld: the claimed box does not contain the "
                           "recomputed enclosure", i + 1);
    }
    for (long k = 0; k < r->nevents && st == DVC_OK; k++) {
        const dvc_hybrid_event *a = &claim->ev[k], *b = &r->ev[k];
        if (a->g != b->g || a->mode_before != b->mode_before || a->mode_after != b->mode_after ||
            a->cls != b->cls)
            st = dvc_error(DVC_NOT_CERTIFIED, "event %ld: switching function, modes or class differ "
                           "from the recomputed ones", k + 1);
        else if (!mpfi_is_inside(b->t, a->t))
            st = dvc_error(DVC_NOT_CERTIFIED, "event %ld: the claimed time interval does not "
                           "contain the recomputed enclosure", k + 1);
        else if (!ivec_contains(a->x, b->x))
            st = dvc_error(DVC_NOT_CERTIFIED, "event %ld: the claimed state does not contain the "
                           "recomputed enclosure", k + 1);
    }
    return st;
}
