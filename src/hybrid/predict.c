/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Binary64 predictor along the grid of a certified run: the yardstick for
 * the tightness of the tube (tube radius / true error of this predictor).
 * The step maps exp(A h) and the forcing term are rounded to binary64 once;
 * the state is propagated in binary64. Never a bound. */
#include <stdlib.h>
#include <string.h>
#include "hybrid/flow.h"

/* x <- E x + z in binary64 with E, z the midpoints of the step enclosures. */
static dvc_status pstep(double *x, const dvc_hybrid_mode *md, const mpfr_t t0, const mpfr_t t1,
                        long n, int K, mpfr_prec_t prec)
{
    dvc_imat_t E;
    dvc_ivec_t z;
    mpfi_t S;
    dvc_imat_init2(E, n, n, prec);
    dvc_ivec_init2(z, n, prec);
    mpfi_init2(S, prec);
    mpfi_set_fr(S, t1);
    mpfi_sub_fr(S, S, t0);
    dvc_status st = hyb_expm_md(E, md, S, K);
    if (st == DVC_OK) st = hyb_forcing(z, md, t0, S, K);
    if (st == DVC_OK) {
        double *e = malloc((size_t)(n * n + 2 * n) * sizeof *e), *zz = e + n * n, *y = zz + n;
        dvc_imat_mid_d(e, E);
        dvc_ivec_mid_d(zz, z);
        for (long i = 0; i < n; i++) {
            double s = zz[i];
            for (long j = 0; j < n; j++) s += e[i * n + j] * x[j];
            y[i] = s;
        }
        memcpy(x, y, (size_t)n * sizeof *x);
        free(e);
    }
    dvc_imat_clear(E);
    dvc_ivec_clear(z);
    mpfi_clear(S);
    return st;
}

dvc_status dvc_hybrid_predict(double *xs, const dvc_hybrid_model_t m, const dvc_hybrid_result_t r)
{
    long n = m->n, ev = 0, mode = m->mode0;
    int K = m->order > 0 ? m->order : 20;
    mpfr_prec_t prec = m->prec;
    if (r->nsteps == 0) return dvc_error(DVC_ERR_INPUT, "empty hybrid result");
    for (long k = 0; k < m->nmodes; k++)
        if (!m->modes[k].linear)
            return dvc_error(DVC_ERR_INPUT, "predictor: mode '%s' is not linear", m->modes[k].name);
    double *x = malloc((size_t)n * sizeof *x);
    if (!x) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_ivec_mid_d(x, m->x0);
    memcpy(xs, x, (size_t)n * sizeof *x);
    mpfr_t that;
    mpfr_init2(that, prec);
    dvc_status st = DVC_OK;
    for (long i = 0; i < r->nsteps && st == DVC_OK; i++) {
        /* a step that ends at the upper end of an event enclosure crosses it */
        if (ev < r->nevents && mpfr_equal_p(r->t[i + 1], &r->ev[ev].t->right)) {
            mpfi_mid(that, r->ev[ev].t);
            st = pstep(x, &m->modes[mode], r->t[i], that, n, K, prec);
            mode = r->ev[ev].mode_after;
            if (st == DVC_OK) st = pstep(x, &m->modes[mode], that, r->t[i + 1], n, K, prec);
            ev++;
        } else {
            st = pstep(x, &m->modes[mode], r->t[i], r->t[i + 1], n, K, prec);
        }
        memcpy(xs + (i + 1) * n, x, (size_t)n * sizeof *x);
    }
    mpfr_clear(that);
    free(x);
    return st;
}
