/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Trajectories in memory and their check against a certified tube (CSV
 * files: src/io/traj_csv.c). */
#include "dvicert/traj.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dvc_traj_init(dvc_traj_t tr)
{
    memset(tr, 0, sizeof *tr);
}

void dvc_traj_clear(dvc_traj_t tr)
{
    for (long s = 0; s < tr->ns; s++) {
        mpfi_clear(tr->t[s]);
        for (long k = 0; k < tr->n + tr->m; k++) mpfi_clear(tr->v[s * (tr->n + tr->m) + k]);
    }
    free(tr->t);
    free(tr->v);
    free(tr->line);
    free(tr->col);
    memset(tr, 0, sizeof *tr);
}

void dvc_traj_report_clear(dvc_traj_report *rep)
{
    free(rep->viol);
    memset(rep, 0, sizeof *rep);
}

dvc_status dvc_traj_alloc(dvc_traj_t tr, long ns, long n, long m, mpfr_prec_t prec)
{
    long w = n + m;
    dvc_traj_clear(tr);
    if (ns < 1 || n < 0 || m < 0) return dvc_error(DVC_ERR_INPUT, "trajectory: bad dimensions");
    tr->t = malloc((size_t)ns * sizeof *tr->t);
    tr->v = malloc((size_t)(ns * (w > 0 ? w : 1)) * sizeof *tr->v);
    tr->line = malloc((size_t)ns * sizeof *tr->line);
    tr->col = malloc((size_t)(w > 0 ? w : 1) * sizeof *tr->col);
    if (!tr->t || !tr->v || !tr->line || !tr->col) {
        free(tr->t);
        free(tr->v);
        free(tr->line);
        free(tr->col);
        memset(tr, 0, sizeof *tr);
        return dvc_error(DVC_ERR_NOMEM, "out of memory for %ld samples", ns);
    }
    tr->n = n;
    tr->m = m;
    for (long s = 0; s < ns; s++) {
        mpfi_init2(tr->t[s], prec);
        mpfi_set_ui(tr->t[s], 0);
        for (long k = 0; k < w; k++) {
            mpfi_init2(tr->v[s * w + k], prec);
            mpfi_set_ui(tr->v[s * w + k], 0);
        }
        tr->line[s] = s + 1;
    }
    for (long k = 0; k < w; k++) tr->col[k] = k + 1;
    tr->ns = ns;
    return DVC_OK;
}

/* Rounded-down distance of the enclosure v to the edges [lo, hi]. */
static void margin_one(mpfr_t mg, const mpfi_t v, const mpfr_t lo, const mpfr_t hi, mpfr_t tmp)
{
    mpfr_sub(tmp, &v->left, lo, MPFR_RNDD);
    mpfr_sub(mg, hi, &v->right, MPFR_RNDD);
    if (mpfr_cmp(tmp, mg) < 0) mpfr_set(mg, tmp, MPFR_RNDD);
}

static void worst_update(double *worst, dvc_traj_hit *hit, double d, long s, long k)
{
    if (d < *worst) {
        *worst = d;
        hit->sample = s;
        hit->comp = k;
        hit->margin = d;
    }
}

dvc_status dvc_traj_check(dvc_traj_report *rep, const dvc_traj_t tr, const dvc_tube_t tb,
                          long max_stored)
{
    return dvc_traj_check_tol(rep, tr, tb, max_stored, NULL);
}

dvc_status dvc_traj_check_tol(dvc_traj_report *rep, const dvc_traj_t tr, const dvc_tube_t tb,
                              long max_stored, const double *tol)
{
    long w = tr->n + tr->m, k2 = tb->n > tb->m ? tb->n : tb->m;
    mpfr_prec_t prec = tb->prec + DVC_TRAJ_EXTRA_BITS;
    mpfr_t mg, tmp;
    mpfr_t *lo, *hi;
    dvc_status st = DVC_OK;
    memset(rep, 0, sizeof *rep);
    for (long k = 0; tol && k < w; k++)
        if (!(tol[k] >= 0) || isinf(tol[k]))
            return dvc_error(DVC_ERR_INPUT, "tolerance of column %ld: must be a finite number >= 0", k + 1);
    if (tr->n != tb->n || (tr->m != 0 && tr->m != tb->m))
        return dvc_error(DVC_ERR_INPUT, "trajectory has %ld x and %ld y columns, the tube "
                         "%ld and %ld", tr->n, tr->m, tb->n, tb->m);
    lo = dvc_mpfr_array_new(k2, prec);
    hi = dvc_mpfr_array_new(k2, prec);
    if (!lo || !hi) {
        dvc_mpfr_array_free(lo, lo ? k2 : 0);
        dvc_mpfr_array_free(hi, hi ? k2 : 0);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    mpfr_inits2(prec, mg, tmp, (mpfr_ptr)0);
    rep->nsamples = tr->ns;
    rep->worst = rep->worst_x = rep->worst_y = INFINITY;
    for (long s = 0; s < tr->ns && st == DVC_OK; s++) {
        int outside = 0;
        for (int which = 0; which < (tr->m ? 2 : 1) && st == DVC_OK; which++) {
            long off = which ? tr->n : 0, cnt = which ? tr->m : tr->n;
            if ((st = dvc_tube_inner(lo, hi, tb, tr->t[s], which)) != DVC_OK) {
                st = dvc_error_context(st, "line %ld: ", tr->line[s]);
                break;
            }
            for (long k = 0; k < cnt; k++) {
                double d;
                margin_one(mg, tr->v[s * w + off + k], lo[k], hi[k], tmp);
                d = mpfr_get_d(mg, MPFR_RNDD);
                if (d == 0) d = 0; /* x - x rounded down is -0: on the edge is inside */
                worst_update(&rep->worst, &rep->worst_hit, d, s, off + k);
                if (which) worst_update(&rep->worst_y, &rep->worst_y_hit, d, s, off + k);
                else worst_update(&rep->worst_x, &rep->worst_x_hit, d, s, off + k);
                if (d >= 0) continue;
                if (tol && tol[off + k] > 0) {
                    /* within the tolerance of the tube: accepted, counted */
                    mpfr_add_d(tmp, mg, tol[off + k], MPFR_RNDD);
                    if (mpfr_sgn(tmp) >= 0) {
                        rep->ntol++;
                        continue;
                    }
                }
                outside = 1;
                if (max_stored < 0 || rep->nstored < max_stored) {
                    dvc_traj_hit *nv = realloc(rep->viol, (size_t)(rep->nstored + 1) * sizeof *nv);
                    if (!nv) {
                        st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                        break;
                    }
                    rep->viol = nv;
                    rep->viol[rep->nstored].sample = s;
                    rep->viol[rep->nstored].comp = off + k;
                    rep->viol[rep->nstored].margin = d;
                    rep->nstored++;
                }
                rep->nviol++;
            }
        }
        rep->nviol_samples += outside;
    }
    mpfr_clears(mg, tmp, (mpfr_ptr)0);
    dvc_mpfr_array_free(lo, k2);
    dvc_mpfr_array_free(hi, k2);
    if (st != DVC_OK) dvc_traj_report_clear(rep);
    return st;
}

void dvc_traj_tube_at(mpfr_t lo, mpfr_t hi, const dvc_traj_t tr, long s, long k, const dvc_tube_t tb)
{
    long k2 = tb->n > tb->m ? tb->n : tb->m;
    int which = k >= tr->n;
    long kk = which ? k - tr->n : k;
    mpfr_prec_t prec = tb->prec + DVC_TRAJ_EXTRA_BITS;
    mpfr_t *el = dvc_mpfr_array_new(k2, prec), *eh = dvc_mpfr_array_new(k2, prec);
    mpfr_set_inf(lo, -1);
    mpfr_set_inf(hi, 1);
    if (el && eh && dvc_tube_inner(el, eh, tb, tr->t[s], which) == DVC_OK) {
        mpfr_set(lo, el[kk], MPFR_RNDU);
        mpfr_set(hi, eh[kk], MPFR_RNDD);
    }
    dvc_mpfr_array_free(el, el ? k2 : 0);
    dvc_mpfr_array_free(eh, eh ? k2 : 0);
}
