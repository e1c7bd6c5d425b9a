/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Re-check of a claimed hybrid result by recomputation: the engine is
 * deterministic (its step choices depend only on the model), so the claim
 * must reproduce the grid and the events exactly, and each claimed
 * enclosure must contain the recomputed one. */
#include <stdio.h>
#include "hybrid/internal.h"
#include "hybrid/verify.h"

static int ivec_contains(const dvc_ivec_t big, const dvc_ivec_t small)
{
    if (big->n != small->n) return 0;
    for (long i = 0; i < big->n; i++)
        if (!mpfi_is_inside(small->e[i], big->e[i])) return 0;
    return 1;
}

int dvc_hybrid_check_point_(char *msg, size_t len, long i, mpfr_srcptr ct, const dvc_ivec_t cx,
                            mpfr_srcptr rt, const dvc_ivec_t rx)
{
    if (!mpfr_equal_p(ct, rt))
        snprintf(msg, len, "grid point %ld: time differs from the recomputed one", i);
    else if (!ivec_contains(cx, rx))
        snprintf(msg, len, "grid point %ld (t = %.17g): the claimed state does not contain the "
                 "recomputed enclosure", i, mpfr_get_d(rt, MPFR_RNDN));
    else
        return 0;
    return 1;
}

int dvc_hybrid_check_step_(char *msg, size_t len, long step, long cmode, const dvc_ivec_t cbox,
                           long rmode, const dvc_ivec_t rbox)
{
    if (cmode != rmode)
        snprintf(msg, len, "step %ld: mode %ld claimed, %ld recomputed", step, cmode, rmode);
    else if (!ivec_contains(cbox, rbox))
        snprintf(msg, len, "step %ld: the claimed box does not contain the recomputed enclosure", step);
    else
        return 0;
    return 1;
}

int dvc_hybrid_check_event_(char *msg, size_t len, long k, const dvc_hybrid_event *a,
                            const dvc_hybrid_event *b)
{
    if (a->g != b->g || a->mode_before != b->mode_before || a->mode_after != b->mode_after ||
        a->cls != b->cls)
        snprintf(msg, len, "event %ld: switching function, modes or class differ from the "
                 "recomputed ones", k + 1);
    else if (!mpfi_is_inside(b->t, a->t))
        snprintf(msg, len, "event %ld: the claimed time interval does not contain the recomputed "
                 "enclosure", k + 1);
    else if (!ivec_contains(a->x, b->x))
        snprintf(msg, len, "event %ld: the claimed state does not contain the recomputed enclosure",
                 k + 1);
    else
        return 0;
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
        char msg[300];
        if (dvc_hybrid_check_point_(msg, sizeof msg, i, claim->t[i], claim->x[i], r->t[i], r->x[i]) ||
            (i < r->nsteps && dvc_hybrid_check_step_(msg, sizeof msg, i + 1, claim->mode[i],
                                                     claim->box[i], r->mode[i], r->box[i])))
            st = dvc_error(DVC_NOT_CERTIFIED, "%s", msg);
    }
    for (long k = 0; k < r->nevents && st == DVC_OK; k++) {
        char msg[300];
        if (dvc_hybrid_check_event_(msg, sizeof msg, k, &claim->ev[k], &r->ev[k]))
            st = dvc_error(DVC_NOT_CERTIFIED, "%s", msg);
    }
    return st;
}
