/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Floating-point companion (never a bound): the conservative DMM step of
 * Hirani, Wan & Wojtalewicz for linear modes -- the implicit midpoint rule,
 * their DMM integrator for the harmonic oscillator, which keeps every
 * quadratic invariant of x' = A x -- with Mannshardt's transition scheme
 * (their Algorithm 2.1): a step whose end lies past a switching surface is
 * redone as a fractional step to the surface, (2.2)-(2.3) solved for
 * (t^, x^) by bisection on the step length, and a fractional step in the
 * new mode to the end of the step, (2.4). docs/hybrid.md section 9. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid/internal.h"

#define DMM_MAX_SWITCHES 16 /* transitions within one step */

void dvc_hybrid_traj_init(dvc_hybrid_traj *tr)
{
    memset(tr, 0, sizeof *tr);
}

void dvc_hybrid_traj_clear(dvc_hybrid_traj *tr)
{
    free(tr->t);
    free(tr->x);
    free(tr->ev_row);
    free(tr->ev_g);
    memset(tr, 0, sizeof *tr);
}

static dvc_status push_row(dvc_hybrid_traj *tr, double t, const double *x, long g)
{
    long n = tr->n;
    if (tr->ns == tr->alloc) {
        long na = tr->alloc ? 2 * tr->alloc : 256;
        double *nt = realloc(tr->t, (size_t)na * sizeof *nt);
        if (nt) tr->t = nt;
        double *nx = nt ? realloc(tr->x, (size_t)(na * n) * sizeof *nx) : NULL;
        if (nx) tr->x = nx;
        if (!nt || !nx) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        tr->alloc = na;
    }
    tr->t[tr->ns] = t;
    memcpy(tr->x + tr->ns * n, x, (size_t)n * sizeof *x);
    if (g >= 0) {
        long *nr = realloc(tr->ev_row, (size_t)(tr->nev + 1) * sizeof *nr);
        if (nr) tr->ev_row = nr;
        long *ng = nr ? realloc(tr->ev_g, (size_t)(tr->nev + 1) * sizeof *ng) : NULL;
        if (ng) tr->ev_g = ng;
        if (!nr || !ng) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        tr->ev_row[tr->nev] = tr->ns;
        tr->ev_g[tr->nev++] = g;
    }
    tr->ns++;
    return DVC_OK;
}

typedef struct {
    const dvc_hybrid_model_struct *m;
    long n;
    double *A;      /* nmodes x n x n: midpoints of the mode matrices */
    double *L, *rhs;
    mpfi_t T, v;
    dvc_ivec_t X;
} dmm_ws;

/* An expression of t and the state at a point, in binary64 (the midpoint
 * of its 53-bit enclosure: a predictor's value). */
static dvc_status eval_pt(double *out, dmm_ws *w, const dvc_expr_t e, double t, const double *x)
{
    mpfi_set_d(w->T, t);
    for (long i = 0; x && i < w->n; i++) mpfi_set_d(w->X->e[i], x[i]);
    dvc_status st = x ? dvc_expr_eval_x(w->v, e, w->T, w->X) : dvc_expr_eval(w->v, e, w->T);
    *out = dvc_ival_mid_d(w->v);
    if (st == DVC_OK && !isfinite(*out))
        st = dvc_error(DVC_NOT_CERTIFIED, "dmm: an expression is not finite at t = %.17g", t);
    return st;
}

/* One implicit-midpoint step of length s in mode md from (t, x):
 * (I - s/2 A) y = (I + s/2 A) x + s b(t + s/2). */
static dvc_status step(double *y, dmm_ws *w, long mode, double t, const double *x, double s)
{
    long n = w->n;
    const double *A = w->A + mode * n * n;
    const dvc_hybrid_mode *md = &w->m->modes[mode];
    double *L = w->L, *r = w->rhs;
    for (long i = 0; i < n; i++) {
        double acc = x[i];
        for (long j = 0; j < n; j++) {
            acc += 0.5 * s * A[i * n + j] * x[j];
            L[i * n + j] = (i == j) - 0.5 * s * A[i * n + j];
        }
        if (md->b) {
            double b;
            dvc_status st = eval_pt(&b, w, md->b[i], t + 0.5 * s, NULL);
            if (st != DVC_OK) return st;
            acc += s * b;
        }
        r[i] = acc;
    }
    /* Gaussian elimination with partial pivoting */
    for (long k = 0; k < n; k++) {
        long p = k;
        for (long i = k + 1; i < n; i++)
            if (fabs(L[i * n + k]) > fabs(L[p * n + k])) p = i;
        if (L[p * n + k] == 0) return dvc_error(DVC_NOT_CERTIFIED, "dmm: singular step matrix");
        if (p != k) {
            for (long j = 0; j < n; j++) {
                double tmp = L[k * n + j];
                L[k * n + j] = L[p * n + j];
                L[p * n + j] = tmp;
            }
            double tmp = r[k];
            r[k] = r[p];
            r[p] = tmp;
        }
        for (long i = k + 1; i < n; i++) {
            double f = L[i * n + k] / L[k * n + k];
            for (long j = k; j < n; j++) L[i * n + j] -= f * L[k * n + j];
            r[i] -= f * r[k];
        }
    }
    for (long i = n - 1; i >= 0; i--) {
        double acc = r[i];
        for (long j = i + 1; j < n; j++) acc -= L[i * n + j] * y[j];
        y[i] = acc / L[i * n + i];
    }
    return DVC_OK;
}

static int sgn(double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

dvc_status dvc_hybrid_dmm(dvc_hybrid_traj *tr, const dvc_hybrid_model_t m, double tau)
{
    long n = m->n, mode = m->mode0;
    dvc_status st = DVC_OK;
    dmm_ws w;
    dvc_hybrid_traj_clear(tr);
    tr->n = n;
    if (!(tau > 0) || !isfinite(tau)) return dvc_error(DVC_ERR_INPUT, "dmm: the step must be positive");
    if (mode < 0) return dvc_error(DVC_ERR_INPUT, "dmm: no initial mode");
    /* say what the model is and what the companion takes: "not linear"
     * misnamed an affine friction model (its modes are built as fields) */
    if (m->ncontacts > 0)
        return dvc_error(DVC_ERR_INPUT, "dmm: a model in decomposed form (discontinuous terms such as "
                         "friction, with Filippov sliding: stick phases) is outside the companion, "
                         "affine or not: it covers models whose modes are written with 'A' and 'b' "
                         "(x' = A x + b(t)) and switch by transitions, without sliding; certify "
                         "the model with dvicert enclose and take its tube (dvicert export) instead");
    for (long k = 0; k < m->nmodes; k++)
        if (!m->modes[k].linear)
            return dvc_error(DVC_ERR_INPUT, "dmm: mode '%s' is written as a field 'f' (expressions), "
                             "not with 'A' and 'b': the companion covers modes x' = A x + b(t) "
                             "with a matrix A (write an affine mode that way)", m->modes[k].name);
        else if (m->modes[k].bu)
            return dvc_error(DVC_ERR_INPUT, "dmm: mode '%s' has inputs 'u' (tables): the companion "
                             "covers modes x' = A x + b(t) with b given as expressions",
                             m->modes[k].name);
    double t0 = mpfr_get_d(m->t0, MPFR_RNDN), T = mpfr_get_d(m->T, MPFR_RNDN);
    memset(&w, 0, sizeof w);
    w.m = m;
    w.n = n;
    w.A = malloc((size_t)(m->nmodes * n * n) * sizeof *w.A);
    w.L = malloc((size_t)(n * n) * sizeof *w.L);
    w.rhs = malloc((size_t)n * sizeof *w.rhs);
    double *x = malloc((size_t)(4 * n) * sizeof *x), *xe = x + n, *xb = x + 2 * n, *xr = x + 3 * n;
    mpfi_init2(w.T, 53);
    mpfi_init2(w.v, 53);
    dvc_ivec_init2(w.X, n, 53);
    if (!w.A || !w.L || !w.rhs || !x) {
        st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (long k = 0; k < m->nmodes; k++) dvc_imat_mid_d(w.A + k * n * n, m->modes[k].A);
    dvc_ivec_mid_d(x, m->x0);
    double t = t0;
    hyb_clock clk;
    hyb_clock_start(&clk, m, "predict");
    st = push_row(tr, t, x, -1);
    for (long k = 1; st == DVC_OK && t < T; k++) {
        /* the time budget, looked at every 1024 steps (a step is cheap) */
        if ((k & 1023) == 0 && (st = hyb_clock_tick(&clk, m, t, k - 1, tr->nev)) != DVC_OK) break;
        /* grid t0 + k tau (no drift from summing tau), the last step to T */
        double tn = t0 + (double)k * tau;
        if (tn > T || T - tn < 1e-9 * tau) tn = T;
        for (int sw = 0; st == DVC_OK; sw++) {
            double s_full = tn - t, best = INFINITY;
            long fire = -1;
            if ((st = step(xe, &w, mode, t, x, s_full)) != DVC_OK) break;
            for (long q = 0; q < m->ntrans && st == DVC_OK; q++) {
                const dvc_hybrid_transition *trn = &m->trans[q];
                double gs, ge;
                if (trn->from != mode) continue;
                if ((st = eval_pt(&gs, &w, m->g[trn->g], t, x)) != DVC_OK) break;
                if ((st = eval_pt(&ge, &w, m->g[trn->g], tn, xe)) != DVC_OK) break;
                int target = trn->dir != 0 ? trn->dir : -sgn(gs);
                if (target == 0 || sgn(ge) != target || sgn(gs) == target) continue;
                /* (2.2)-(2.3): the step length s with g(x(s)) = 0, by
                 * bisection keeping sgn g(lo) != target = sgn g(hi) */
                double lo = 0, hi = s_full;
                for (int it = 0; it < 200 && st == DVC_OK; it++) {
                    double mid = 0.5 * (lo + hi), gm;
                    if (mid <= lo || mid >= hi) break;
                    if ((st = step(xb, &w, mode, t, x, mid)) != DVC_OK) break;
                    if ((st = eval_pt(&gm, &w, m->g[trn->g], t + mid, xb)) != DVC_OK) break;
                    if (sgn(gm) == target) hi = mid;
                    else lo = mid;
                }
                /* guards (docs/hybrid.md): signs at the located point */
                int ok = 1;
                if (trn->nguard && (st = step(xb, &w, mode, t, x, hi)) != DVC_OK) break;
                for (long i = 0; i < trn->nguard && ok && st == DVC_OK; i++) {
                    double gv;
                    st = eval_pt(&gv, &w, m->g[trn->guard_g[i]], t + hi, xb);
                    ok = st == DVC_OK && sgn(gv) == trn->guard_sign[i];
                }
                if (st != DVC_OK) break;
                if (ok && hi < best) best = hi, fire = q;
            }
            if (st != DVC_OK) break;
            if (fire < 0) {
                memcpy(x, xe, (size_t)n * sizeof *x);
                t = tn;
                break;
            }
            if (sw >= DMM_MAX_SWITCHES) {
                st = dvc_error(DVC_NOT_CERTIFIED, "dmm: more than %d switches in the step "
                               "ending at t = %.17g (chattering?)", DMM_MAX_SWITCHES, tn);
                break;
            }
            /* the transition point (t^, x^) and (2.4): on in the new mode */
            const dvc_hybrid_transition *trn = &m->trans[fire];
            if ((st = step(xb, &w, mode, t, x, best)) != DVC_OK) break;
            double th = t + best;
            if (th < tn && (st = push_row(tr, th, xb, trn->g)) != DVC_OK) break;
            if (trn->reset) {
                for (long i = 0; i < n && st == DVC_OK; i++) st = eval_pt(&xr[i], &w, trn->reset[i], th, xb);
                if (st != DVC_OK) break;
                memcpy(xb, xr, (size_t)n * sizeof *x);
            }
            memcpy(x, xb, (size_t)n * sizeof *x);
            t = th;
            mode = trn->to;
            if (t >= tn) break;
        }
        if (st == DVC_OK) st = push_row(tr, t, x, -1);
    }
    hyb_clock_end(&clk);
out:
    free(w.A);
    free(w.L);
    free(w.rhs);
    free(x);
    mpfi_clear(w.T);
    mpfi_clear(w.v);
    dvc_ivec_clear(w.X);
    return st;
}
