/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The floating-point predictor of the DLVI engine: the theta step of
 * (4.2) with the LVI in y solved by the library's one LVI predictor.
 * Nothing here is a bound (docs/bounds.md, section 2: the defect of the
 * predictor is what the certification carries). */
#include "dlvi/internal.h"
#include "dlvi/lognorm_internal.h"
#include "fprnd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the LVI predictor ------------------------------------------------ */

/* LVI(l, u, q, M) in doubles: the library's one predictor (lvi module),
 * warm-started from guess (may be NULL, may alias y), the result clamped into [l, u]. y holds the result;
 * DVC_NOT_CERTIFIED when no consistent piece was found (y is then the
 * best point seen). */
static dvc_status lvi_pred(ws_t *w, const double *M, const double *q, double *y, const double *guess)
{
    long m = w->m;
    dvc_status st = dvc_lvi_predict_ws(&w->lpw, y, NULL, M, q, w->ld, w->ud, m, guess);
    if (st != DVC_OK && st != DVC_NOT_CERTIFIED) return st;
    for (long k = 0; k < m; k++) y[k] = fmin(fmax(y[k], w->ld[k]), w->ud[k]);
    return st;
}

/* Double copies of the data for the predictor (one block). */
dvc_status dvc_dlvi_pred_alloc_(ws_t *w, const dvc_dlvi_problem_struct *p, double hd)
{
    long n = w->n, m = w->m;
    long sz = n * n + n * m + m * n + m * m + 2 * m + n * n + n * m + m * m + n + m + n + n + m;
    double *b;
    w->Ad = calloc((size_t)(sz + 1), sizeof(double));
    w->lspiv = calloc((size_t)(n + 1), sizeof(long));
    if (!w->Ad || !w->lspiv) return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory");
    if (m > 0) {
        if (dvc_lvi_pred_ws_init(&w->lpw, m) != 0) return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory");
        w->lpw_ok = 1;
    }
    b = w->Ad;
    w->Bd = b += n * n;
    w->Qd = b += n * m;
    w->Md = b += m * n;
    w->ld = b += m * m;
    w->ud = b += m;
    w->W = b += m;
    w->WB = b += n * n;
    w->Mp = b += n * m;
    w->fv = b += m * m;
    w->gv = b += n;
    w->rv = b += m;
    w->pv = b += n;
    w->qv = b + n;
    dvc_imat_mid_d(w->Ad, p->A);
    dvc_imat_mid_d(w->Bd, p->B);
    dvc_imat_mid_d(w->Qd, p->Q);
    dvc_imat_mid_d(w->Md, p->M);
    for (long k = 0; k < m; k++) {
        w->ld[k] = mpfr_get_d(&p->l->e[k]->right, MPFR_RNDU);
        w->ud[k] = mpfr_get_d(&p->u->e[k]->left, MPFR_RNDD);
    }
    w->hd = hd;
    w->thd = dvc_ival_mid_d(p->theta);
    return DVC_OK;
}

/* Predictor matrices: W = (I - h(1-theta)A)^{-1}, WB = W B, M' = M + h Q W B. */
dvc_status dvc_dlvi_pred_setup_(ws_t *w)
{
    long n = w->n, m = w->m;
    double c = w->hd * (1.0 - w->thd);
    double *T = malloc((size_t)(n * n + n) * sizeof(double));
    if (!T) return dvc_error(DVC_ERR_NOMEM, "dlvi: out of memory");
    for (long a = 0; a < n; a++)
        for (long b = 0; b < n; b++) T[a * n + b] = (a == b ? 1.0 : 0.0) - c * w->Ad[a * n + b];
    if (dvc_fp_lu(T, w->lspiv, n) != 0) {
        free(T);
        return dvc_error(DVC_NOT_CERTIFIED, "dlvi predictor: I - h(1-theta)A is singular");
    }
    for (long j = 0; j < n; j++) {
        /* column j of the inverse */
        for (long a = 0; a < n; a++) T[n * n + a] = a == j ? 1.0 : 0.0;
        dvc_fp_lu_solve(T, w->lspiv, n, T + n * n);
        for (long a = 0; a < n; a++) w->W[a * n + j] = T[n * n + a];
    }
    free(T);
    for (long a = 0; a < n; a++)
        for (long b = 0; b < m; b++) {
            double s = 0.0;
            for (long k = 0; k < n; k++) s += w->W[a * n + k] * w->Bd[k * m + b];
            w->WB[a * m + b] = s;
        }
    for (long a = 0; a < m; a++)
        for (long b = 0; b < m; b++) {
            double s = 0.0;
            for (long k = 0; k < n; k++) s += w->Qd[a * n + k] * w->WB[k * m + b];
            w->Mp[a * m + b] = w->Md[a * m + b] + w->hd * s;
        }
    return DVC_OK;
}

/* f and g of the predictor at t are finite binary64 numbers. A NaN or an
 * infinity leaves the predictor without a value: the interval evaluation
 * at t then names the input error (an expression undefined there, e.g.
 * log(t) at t = 0); if it has none, the value lies beyond binary64 and the
 * run is not certified, naming the field. */
static dvc_status fg_one(const dvc_tfun_cb *cb, const double *v, long k, double t, const char *name)
{
    dvc_status st = DVC_OK;
    dvc_ivec_t tmp;
    mpfi_t tt;
    long a = 0;
    while (a < k && isfinite(v[a])) a++;
    if (a == k) return DVC_OK;
    dvc_ivec_init2(tmp, k, 64);
    mpfi_init2(tt, 64);
    mpfi_set_d(tt, t);
    st = dvc_dlvi_tf_eval_(cb, tmp, tt, name);
    mpfi_clear(tt);
    dvc_ivec_clear(tmp);
    if (st != DVC_OK) return st;
    return dvc_error(DVC_NOT_CERTIFIED, "dlvi predictor at t = %.17g: field '%s' entry %ld is not a "
                     "finite binary64 number there", t, name, a + 1);
}

static dvc_status fg_finite(const ws_t *w, double t, long nf, long ng)
{
    dvc_status st = fg_one(&w->f, w->fv, nf, t, "f");
    return st == DVC_OK ? fg_one(&w->g, w->gv, ng, t, "g") : st;
}

/* y^0 from x^0 (LVI with M). */
dvc_status dvc_dlvi_pred_y0_(ws_t *w, const double *x, double *y)
{
    long n = w->n, m = w->m;
    if (m == 0) return DVC_OK;
    dvc_status st;
    dvc_dlvi_tf_eval_d_(&w->g, w->gv, 0.0, m);
    if ((st = fg_finite(w, 0.0, 0, m)) != DVC_OK) return st;
    for (long a = 0; a < m; a++) {
        double s = w->gv[a];
        for (long k = 0; k < n; k++) s += w->Qd[a * n + k] * x[k];
        w->qv[a] = s;
    }
    if (lvi_pred(w, w->Md, w->qv, y, NULL) == DVC_NOT_CERTIFIED) dvc_error_reset();
    for (long k = 0; k < m; k++)
        if (!isfinite(y[k])) return dvc_error(DVC_NOT_CERTIFIED, "no finite LVI predictor at t = 0");
    return DVC_OK;
}

/* One theta step of the predictor: x1, y1 from x0 at t1 = (i+1) h. */
dvc_status dvc_dlvi_pred_step_(ws_t *w, const double *x0, double *x1, double *y1, double t1, int have_fg)
{
    long n = w->n, m = w->m;
    double h = w->hd, th = w->thd;
    dvc_status st = DVC_OK;
    if (!have_fg) {
        dvc_dlvi_tf_eval_d_(&w->f, w->fv, t1, n);
        dvc_dlvi_tf_eval_d_(&w->g, w->gv, t1, m);
    }
    if ((st = fg_finite(w, t1, n, m)) != DVC_OK) return st;
    for (long a = 0; a < n; a++) {
        double s = 0.0;
        for (long k = 0; k < n; k++) s += w->Ad[a * n + k] * x0[k];
        w->rv[a] = x0[a] + h * (th * s + w->fv[a]);
    }
    for (long a = 0; a < n; a++) {
        double s = 0.0;
        for (long k = 0; k < n; k++) s += w->W[a * n + k] * w->rv[k];
        w->pv[a] = s;
    }
    if (m > 0) {
        for (long a = 0; a < m; a++) {
            double s = w->gv[a];
            for (long k = 0; k < n; k++) s += w->Qd[a * n + k] * w->pv[k];
            w->qv[a] = s;
        }
        st = lvi_pred(w, w->Mp, w->qv, y1, y1);
        /* a poor y only makes the defect larger: the certification decides */
        if (st == DVC_NOT_CERTIFIED) dvc_error_reset(), st = DVC_OK;
        if (st != DVC_OK) return dvc_error_context(st, "dlvi predictor at t = %.17g: ", t1);
    }
    for (long a = 0; a < n; a++) {
        double s = 0.0;
        for (long b = 0; b < m; b++) s += w->WB[a * m + b] * y1[b];
        x1[a] = w->pv[a] + h * s;
        if (!isfinite(x1[a])) return dvc_error(DVC_NOT_CERTIFIED, "dlvi predictor at t = %.17g: x is not finite", t1);
    }
    return DVC_OK;
}

/* The workspace of a whole predictor run on p (theta or Heun): f and g
 * resolved, h = T/N, the matrices of the steps; released by pred_close,
 * also after a failure here. */
static dvc_status pred_open(ws_t *w, const dvc_dlvi_problem_struct *p)
{
    dvc_status st;
    mpfi_t h;
    dvc_dlvi_ws_zero_(w);
    if ((st = dvc_dlvi_validate_(p)) != DVC_OK) return st;
    if ((st = dvc_dlvi_grid_refuse_(p, "the theta and Heun predictors")) != DVC_OK) return st;
    w->p = p;
    w->n = p->n;
    w->m = p->m;
    w->N = p->N;
    if ((st = dvc_dlvi_tf_resolve_(&w->f, &p->fcb, p->n, "f")) != DVC_OK) return st;
    if ((st = dvc_dlvi_tf_resolve_(&w->g, &p->gcb, p->m, "g")) != DVC_OK) return st;
    mpfi_init2(h, 53);
    if (p->h > 0) mpfi_set_d(h, p->h);
    else mpfi_div_si(h, p->T, p->N);
    st = dvc_dlvi_pred_alloc_(w, p, dvc_ival_mid_d(h));
    mpfi_clear(h);
    return st;
}

/* t_{i+1} of the predictor; before the shorter last step (p->h > 0) the
 * step w->hd becomes its length (and setup != 0: the theta matrices too). */
static dvc_status pred_next(ws_t *w, long i, double *t1, int setup)
{
    const dvc_dlvi_problem_struct *p = w->p;
    mpfi_t t;
    if (p->h <= 0) {
        *t1 = (double)(i + 1) * w->hd;
        return DVC_OK;
    }
    mpfi_init2(t, 64);
    dvc_dlvi_time_(t, p, NULL, i + 1);
    *t1 = dvc_ival_mid_d(t);
    if (i + 1 == p->N) {
        dvc_dlvi_hlast_(t, p);
        w->hd = dvc_ival_mid_d(t);
    }
    mpfi_clear(t);
    return i + 1 == p->N && setup ? dvc_dlvi_pred_setup_(w) : DVC_OK;
}

static void pred_close(ws_t *w)
{
    free(w->Ad);
    free(w->lspiv);
    if (w->lpw_ok) dvc_lvi_pred_ws_clear(&w->lpw);
}

/* The predictor point by point (theta or Heun): a dvc_dlvi_source, so a
 * streaming run holds no more than the last point; the whole-grid
 * predictors below are loops over it (the same values). */
struct dvc_dlvi_pstream {
    ws_t w;
    int heun, open;
    long next;               /* the index the next call must ask for */
    double *x, *y;           /* x^i, y^i of the last point (n, m) */
    double *k1, *k2, *xt, *yt; /* Heun's stages */
};

static dvc_status heun_rhs(ws_t *w, double t, const double *x, double *y, double *k);

dvc_status dvc_dlvi_pstream_open_(dvc_dlvi_pstream **out, const dvc_dlvi_problem_struct *p, int heun)
{
    dvc_dlvi_pstream *s = calloc(1, sizeof *s);
    long n = p->n, m = p->m;
    dvc_status st;
    *out = s;
    if (!s) return dvc_error(DVC_ERR_NOMEM, "predictor: out of memory");
    s->heun = heun;
    s->open = 1;
    if ((st = pred_open(&s->w, p)) != DVC_OK) return st;
    if (!heun && (st = dvc_dlvi_pred_setup_(&s->w)) != DVC_OK) return st;
    s->x = malloc((size_t)(4 * n + 2 * m + 2) * sizeof(double));
    if (!s->x) return dvc_error(DVC_ERR_NOMEM, "predictor: out of memory");
    s->y = s->x + n;
    s->k1 = s->y + m + 1;
    s->k2 = s->k1 + n;
    s->xt = s->k2 + n;
    s->yt = s->xt + n;
    return DVC_OK;
}

/* Heun's step from x^i, y^i (in s) to x1, y1 at t1. */
static dvc_status heun_next(dvc_dlvi_pstream *s, double t1, double *x1, double *y1)
{
    ws_t *w = &s->w;
    long n = w->n, m = w->m;
    dvc_status st;
    for (long a = 0; a < n; a++) s->xt[a] = s->x[a] + w->hd * s->k1[a];
    memcpy(s->yt, s->y, (size_t)m * sizeof(double));
    if ((st = heun_rhs(w, t1, s->xt, s->yt, s->k2)) != DVC_OK) return st;
    for (long a = 0; a < n; a++) {
        x1[a] = s->x[a] + 0.5 * w->hd * (s->k1[a] + s->k2[a]);
        if (!isfinite(x1[a])) return dvc_error(DVC_NOT_CERTIFIED, "heun predictor at t = %.17g: x is not finite", t1);
    }
    /* y^{i+1} = S(Q x^{i+1} + g(t_{i+1})), and k1 of the next step */
    memcpy(y1, s->yt, (size_t)m * sizeof(double));
    return heun_rhs(w, t1, x1, y1, s->k1);
}

dvc_status dvc_dlvi_pstream_next_(long i, double *x, double *y, void *ctx)
{
    dvc_dlvi_pstream *s = ctx;
    ws_t *w = &s->w;
    long n = w->n, m = w->m;
    dvc_status st;
    if (i != s->next || i > w->N) return dvc_error(DVC_ERR_INTERNAL, "predictor: point %ld asked out of order", i);
    if (i == 0) {
        for (long k = 0; k < n; k++) x[k] = dvc_ival_mid_d(w->p->x0->e[k]);
        if ((st = dvc_dlvi_pred_y0_(w, x, y)) != DVC_OK) return st;
        if (s->heun && (st = heun_rhs(w, 0.0, x, y, s->k1)) != DVC_OK) return st;
    } else {
        double t1;
        if ((st = pred_next(w, i - 1, &t1, !s->heun)) != DVC_OK) return st;
        if (s->heun) {
            st = heun_next(s, t1, x, y);
        } else {
            memcpy(y, s->y, (size_t)m * sizeof(double));
            st = dvc_dlvi_pred_step_(w, s->x, x, y, t1, 0);
        }
        if (st != DVC_OK) return st;
    }
    memcpy(s->x, x, (size_t)n * sizeof(double));
    memcpy(s->y, y, (size_t)m * sizeof(double));
    s->next = i + 1;
    return DVC_OK;
}

void dvc_dlvi_pstream_close_(dvc_dlvi_pstream *s)
{
    if (!s) return;
    if (s->open) pred_close(&s->w);
    free(s->x);
    free(s);
}

/* The whole grid: xs (N+1) x n, ys (N+1) x m. */
static dvc_status predict_all(double *xs, double *ys, const dvc_dlvi_problem_struct *p, int heun)
{
    dvc_dlvi_pstream *s;
    dvc_status st = dvc_dlvi_pstream_open_(&s, p, heun);
    for (long i = 0; st == DVC_OK && i <= p->N; i++) st = dvc_dlvi_pstream_next_(i, xs + i * p->n, ys + i * p->m, s);
    dvc_dlvi_pstream_close_(s);
    return st;
}

dvc_status dvc_dlvi_predict(double *xs, double *ys, const dvc_dlvi_problem_t p,
                            const dvc_dlvi_opts *o)
{
    (void)o;
    return predict_all(xs, ys, p, 0);
}

/* ---- Heun's method (explicit trapezoidal rule), order 2 ---------------- */

/* F(t, x) = A x + B S(Q x + g(t)) + f(t) in doubles into k; y gets S(...)
 * (warm-started from y). */
static dvc_status heun_rhs(ws_t *w, double t, const double *x, double *y, double *k)
{
    long n = w->n, m = w->m;
    dvc_status fst;
    dvc_dlvi_tf_eval_d_(&w->f, w->fv, t, n);
    if (m > 0) dvc_dlvi_tf_eval_d_(&w->g, w->gv, t, m);
    if ((fst = fg_finite(w, t, n, m)) != DVC_OK) return fst;
    if (m > 0) {
        for (long a = 0; a < m; a++) {
            double s = w->gv[a];
            for (long j = 0; j < n; j++) s += w->Qd[a * n + j] * x[j];
            w->qv[a] = s;
        }
        /* a poor y only makes the defect larger: the certification decides */
        dvc_status st = lvi_pred(w, w->Md, w->qv, y, y);
        if (st == DVC_NOT_CERTIFIED) dvc_error_reset(), st = DVC_OK;
        if (st != DVC_OK) return dvc_error_context(st, "heun predictor at t = %.17g: ", t);
    }
    for (long a = 0; a < n; a++) {
        double s = w->fv[a];
        for (long j = 0; j < n; j++) s += w->Ad[a * n + j] * x[j];
        for (long b = 0; b < m; b++) s += w->Bd[a * m + b] * y[b];
        k[a] = s;
    }
    return DVC_OK;
}

dvc_status dvc_dlvi_predict_heun_(double *xs, double *ys, const dvc_dlvi_problem_struct *p)
{
    return predict_all(xs, ys, p, 1);
}
