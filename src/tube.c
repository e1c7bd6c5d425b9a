/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The geometry of a certified tube (include/dvicert/tube.h), whoever made
 * it, written once for both kinds of storage: a dvc_tube_t (certificates,
 * copies) and a storage read in place through accessors (src/tube_source.h:
 * an engine's result, e.g. dvc_dlvi_tube_x). No engine is known here. */
#include "dvicert/tube.h"
#include "tube_source.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/tgrid.h"

/* Extra bits of the time arithmetic: s = (t - t_{i-1}) / h is known to
 * about 2^-(prec + EXTRA) N, so the interpolant loses O(ulp), not ulp(t)/h. */
#define TUBE_EXTRA_BITS 64

/* ---- storage ------------------------------------------------------------ */

void dvc_tube_init(dvc_tube_t tb)
{
    memset(tb, 0, sizeof *tb);
    tb->prec = dvc_prec_get();
    mpfi_init2(tb->T, tb->prec);
}

static void clear_ivals(mpfi_t *v, long k)
{
    if (!v) return;
    for (long i = 0; i < k; i++) mpfi_clear(v[i]);
    free(v);
}

static void clear_box(dvc_tube_t tb)
{
    if (tb->ybox_lo)
        for (long k = 0; k < tb->m; k++) mpfr_clear(tb->ybox_lo[k]);
    if (tb->ybox_hi)
        for (long k = 0; k < tb->m; k++) mpfr_clear(tb->ybox_hi[k]);
    free(tb->ybox_lo);
    free(tb->ybox_hi);
    tb->ybox_lo = tb->ybox_hi = NULL;
}

/* Rows held: every grid point, or the window. */
static long rows_held(const dvc_tube_struct *tb) { return tb->window > 0 ? tb->window : tb->N + 1; }

static void free_times(dvc_tube_t tb)
{
    if (tb->t) {
        for (long i = 0; i < (tb->t_window ? tb->window : tb->N + 1); i++) mpfr_clear(tb->t[i]);
        free(tb->t);
    }
    tb->t = NULL;
    tb->t_window = 0;
}

static void free_encl(dvc_tube_t tb)
{
    free_times(tb);
    clear_ivals(tb->xg, tb->xg ? (tb->N + 1) * tb->n : 0);
    clear_ivals(tb->xs, tb->xs ? tb->N * tb->n : 0);
    clear_ivals(tb->yg, tb->yg ? (tb->N + 1) * tb->m : 0);
    clear_ivals(tb->ys, tb->ys ? tb->N * tb->m : 0);
    for (long k = 0; k < tb->nev; k++) {
        mpfi_clear(tb->ev[k].t);
        dvc_ivec_clear(tb->ev[k].x);
        dvc_ivec_clear(tb->ev[k].y);
        free(tb->ev[k].label);
    }
    free(tb->ev);
    tb->t = NULL;
    tb->xg = tb->xs = tb->yg = tb->ys = NULL;
    tb->ev = NULL;
    tb->nev = 0;
    tb->eval = tb->yeval = NULL;
    tb->eval_ctx = tb->yeval_ctx = NULL;
}

static void free_arrays(dvc_tube_t tb)
{
    long np = rows_held(tb);
    free_encl(tb);
    clear_box(tb);
    clear_ivals(tb->eps_x, tb->eps_x ? np : 0);
    clear_ivals(tb->eps_y, tb->eps_y ? np : 0);
    clear_ivals(tb->ry, tb->ry ? np : 0);
    clear_ivals(tb->yhat_lo, tb->yhat_lo ? np * tb->m : 0);
    clear_ivals(tb->yhat_hi, tb->yhat_hi ? np * tb->m : 0);
    free(tb->x);
    free(tb->y);
    free(tb->x_scale);
    tb->x_scale = NULL;
    tb->eps_x = tb->eps_y = tb->ry = tb->yhat_lo = tb->yhat_hi = NULL;
    tb->x = tb->y = NULL;
    tb->n = tb->m = tb->N = tb->steps = tb->window = 0;
}

void dvc_tube_clear(dvc_tube_t tb)
{
    free_arrays(tb);
    mpfi_clear(tb->T);
    memset(tb, 0, sizeof *tb);
}

static mpfi_t *ivals_new(long k, mpfr_prec_t prec)
{
    mpfi_t *v = malloc((size_t)(k > 0 ? k : 1) * sizeof *v);
    if (v)
        for (long i = 0; i < k; i++) {
            mpfi_init2(v[i], prec);
            mpfi_set_ui(v[i], 0);
        }
    return v;
}

dvc_status dvc_tube_alloc(dvc_tube_t tb, long n, long m, long N, const mpfi_t T, mpfr_prec_t prec)
{
    return dvc_tube_alloc_window(tb, n, m, N, T, prec, 0);
}

dvc_status dvc_tube_alloc_window(dvc_tube_t tb, long n, long m, long N, const mpfi_t T,
                                 mpfr_prec_t prec, long window)
{
    long np = window > 0 ? window : N + 1;
    free_arrays(tb);
    if (n < 0 || m < 0 || N < 1 || window < 0 || window == 1)
        return dvc_error(DVC_ERR_INPUT, "tube: bad dimensions");
    tb->prec = prec;
    tb->hgrid = 0;
    mpfi_set_prec(tb->T, prec);
    mpfi_set(tb->T, T);
    tb->x = calloc((size_t)(np * (n > 0 ? n : 1)), sizeof *tb->x);
    tb->y = calloc((size_t)(np * (m > 0 ? m : 1)), sizeof *tb->y);
    if (tb->x && tb->y) {
        tb->eps_x = ivals_new(np, prec);
        tb->eps_y = tb->eps_x ? ivals_new(np, prec) : NULL;
        tb->ry = tb->eps_y ? ivals_new(np, prec) : NULL;
        tb->yhat_lo = tb->ry ? ivals_new(np * m, prec) : NULL;
        tb->yhat_hi = tb->yhat_lo ? ivals_new(np * m, prec) : NULL;
    }
    /* counts first, so free_arrays releases exactly what was made */
    tb->N = N;
    tb->m = m;
    tb->window = window;
    if (!tb->x || !tb->y || !tb->eps_x || !tb->eps_y || !tb->ry || !tb->yhat_lo || !tb->yhat_hi) {
        free_arrays(tb);
        return dvc_error(DVC_ERR_NOMEM, "out of memory for a tube of %ld steps", N);
    }
    tb->n = n;
    tb->steps = window > 0 ? -1 : N;
    return DVC_OK;
}

dvc_status dvc_tube_set_ybox(dvc_tube_t tb, const dvc_ivec_t l, const dvc_ivec_t u)
{
    long m = tb->m;
    if (l->n != m || u->n != m)
        return dvc_error(DVC_ERR_INPUT, "tube: l and u must have m = %ld entries", m);
    clear_box(tb);
    tb->ybox_lo = malloc((size_t)(m > 0 ? m : 1) * sizeof *tb->ybox_lo);
    tb->ybox_hi = malloc((size_t)(m > 0 ? m : 1) * sizeof *tb->ybox_hi);
    if (!tb->ybox_lo || !tb->ybox_hi) {
        free(tb->ybox_lo);
        free(tb->ybox_hi);
        tb->ybox_lo = tb->ybox_hi = NULL;
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    for (long k = 0; k < m; k++) {
        /* exact copies of the outer ends (-inf/+inf when unbounded) */
        mpfr_init2(tb->ybox_lo[k], mpfr_get_prec(&l->e[k]->left));
        mpfr_init2(tb->ybox_hi[k], mpfr_get_prec(&u->e[k]->right));
        mpfr_set(tb->ybox_lo[k], &l->e[k]->left, MPFR_RNDD);
        mpfr_set(tb->ybox_hi[k], &u->e[k]->right, MPFR_RNDU);
        if (mpfr_nan_p(tb->ybox_lo[k])) mpfr_set_inf(tb->ybox_lo[k], -1);
        if (mpfr_nan_p(tb->ybox_hi[k])) mpfr_set_inf(tb->ybox_hi[k], 1);
    }
    return DVC_OK;
}

dvc_status dvc_tube_set_grid(dvc_tube_t tb, const dvc_tgrid *g)
{
    tb->hgrid = g->kind == DVC_TGRID_LAST_SHORT ? g->h : 0;
    if (g->kind == DVC_TGRID_EXPLICIT && !g->t) {
        /* times on demand: read once (the tube holds them as numbers) */
        dvc_tgrid c;
        dvc_status st;
        dvc_tgrid_init(&c);
        if ((st = dvc_tgrid_copy(&c, g)) == DVC_OK) st = dvc_tube_set_times_d(tb, c.t);
        dvc_tgrid_clear(&c);
        return st;
    }
    return g->kind == DVC_TGRID_EXPLICIT ? dvc_tube_set_times_d(tb, g->t) : DVC_OK;
}

/* The times from mpfr numbers t or from binary64 numbers d (exactly one
 * given): d is read in place, without a copy as mpfr numbers (the streamed
 * certificate of a long trajectory would hold its times twice). */
static dvc_status set_times(dvc_tube_t tb, const mpfr_t *t, const double *d)
{
    long N = tb->N;
    mpfr_prec_t pN;
    if (N < 1) return dvc_error(DVC_ERR_INPUT, "tube: times need N >= 1");
    for (long i = 0; i <= N; i++)
        if (t ? !mpfr_number_p(t[i]) || (i > 0 && mpfr_cmp(t[i], t[i - 1]) <= 0)
              : !isfinite(d[i]) || (i > 0 && !(d[i] > d[i - 1])))
            return dvc_error(DVC_ERR_INPUT, "tube: grid time %ld is not finite and above the "
                             "previous one", i);
    free_times(tb);
    tb->t = malloc((size_t)(N + 1) * sizeof *tb->t);
    if (!tb->t) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; i <= N; i++) {
        mpfr_init2(tb->t[i], t ? mpfr_get_prec(t[i]) : 53);
        if (t) mpfr_set(tb->t[i], t[i], MPFR_RNDN); /* exact */
        else mpfr_set_d(tb->t[i], d[i], MPFR_RNDN);
    }
    pN = mpfr_get_prec(tb->t[N]);
    mpfi_set_prec(tb->T, pN > tb->prec ? pN : tb->prec);
    mpfi_set_fr(tb->T, tb->t[N]);
    return DVC_OK;
}

dvc_status dvc_tube_set_times_d(dvc_tube_t tb, const double *t)
{
    return set_times(tb, NULL, t);
}

dvc_status dvc_tube_set_times(dvc_tube_t tb, const mpfr_t *t)
{
    return set_times(tb, t, NULL);
}

dvc_status dvc_tube_set_times_window(dvc_tube_t tb)
{
    if (tb->window < 2 || tb->N < 1) return dvc_error(DVC_ERR_INTERNAL, "tube: window times need a window");
    free_times(tb);
    tb->t = malloc((size_t)tb->window * sizeof *tb->t);
    if (!tb->t) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long r = 0; r < tb->window; r++) mpfr_init2(tb->t[r], 53);
    tb->t_window = 1;
    tb->hgrid = 0;
    return DVC_OK;
}

void dvc_tube_set_time_row(dvc_tube_t tb, long i, double t)
{
    mpfr_set_d(tb->t[i % tb->window], t, MPFR_RNDN); /* exact */
}

dvc_status dvc_tube_set_boxes(dvc_tube_t tb)
{
    if (tb->N < 1 || tb->window > 0) return dvc_error(DVC_ERR_INPUT, "tube: boxes need a whole tube");
    clear_ivals(tb->xg, tb->xg ? (tb->N + 1) * tb->n : 0);
    clear_ivals(tb->xs, tb->xs ? tb->N * tb->n : 0);
    tb->xg = ivals_new((tb->N + 1) * tb->n, tb->prec);
    tb->xs = tb->xg ? ivals_new(tb->N * tb->n, tb->prec) : NULL;
    if (!tb->xg || !tb->xs) {
        clear_ivals(tb->xg, tb->xg ? (tb->N + 1) * tb->n : 0);
        tb->xg = NULL;
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    return DVC_OK;
}

dvc_status dvc_tube_set_yboxes(dvc_tube_t tb, long m)
{
    long np = tb->N + 1;
    double *y;
    mpfi_t *lo, *hi, *yg, *ys;
    if (!tb->xs || m < 0) return dvc_error(DVC_ERR_INPUT, "tube: y enclosures need an enclosure tube");
    y = calloc((size_t)(np * (m > 0 ? m : 1)), sizeof *y);
    lo = ivals_new(np * m, tb->prec);
    hi = ivals_new(np * m, tb->prec);
    yg = ivals_new(np * m, tb->prec);
    ys = ivals_new(tb->N * m, tb->prec);
    if (!y || !lo || !hi || !yg || !ys) {
        free(y);
        clear_ivals(lo, lo ? np * m : 0);
        clear_ivals(hi, hi ? np * m : 0);
        clear_ivals(yg, yg ? np * m : 0);
        clear_ivals(ys, ys ? tb->N * m : 0);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    /* the old y arrays (sized for the old m) go; the box did too */
    clear_box(tb);
    clear_ivals(tb->yhat_lo, np * tb->m);
    clear_ivals(tb->yhat_hi, np * tb->m);
    clear_ivals(tb->yg, tb->yg ? np * tb->m : 0);
    clear_ivals(tb->ys, tb->ys ? tb->N * tb->m : 0);
    free(tb->y);
    tb->y = y;
    tb->yhat_lo = lo;
    tb->yhat_hi = hi;
    tb->yg = yg;
    tb->ys = ys;
    tb->m = m;
    tb->yeval = NULL;
    tb->yeval_ctx = NULL;
    return DVC_OK;
}

void dvc_tube_set_yeval(dvc_tube_t tb, dvc_tube_eval_fn fn, const void *ctx)
{
    tb->yeval = tb->ys ? fn : NULL;
    tb->yeval_ctx = tb->yeval ? ctx : NULL;
}

dvc_status dvc_tube_set_x_scale(dvc_tube_t tb, const double *s)
{
    double *c = NULL;
    if (s) {
        for (long j = 0; j < tb->n; j++) {
            int ex;
            if (!(s[j] > 0) || !isfinite(s[j]) || frexp(s[j], &ex) != 0.5)
                return dvc_error(DVC_ERR_INPUT, "tube: scale of state %ld is not a positive power of "
                                 "two", j + 1);
        }
        c = malloc((size_t)(tb->n > 0 ? tb->n : 1) * sizeof *c);
        if (!c) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        memcpy(c, s, (size_t)tb->n * sizeof *c);
    }
    free(tb->x_scale);
    tb->x_scale = c;
    return DVC_OK;
}

double dvc_tube_x_scale(const dvc_tube_t tb, long j)
{
    return tb->x_scale ? tb->x_scale[j] : 1.0;
}

void dvc_tube_set_eval(dvc_tube_t tb, dvc_tube_eval_fn fn, const void *ctx)
{
    tb->eval = tb->xs ? fn : NULL;
    tb->eval_ctx = tb->eval ? ctx : NULL;
}

dvc_status dvc_tube_add_event(dvc_tube_t tb, const mpfi_t t, const dvc_ivec_t x, const char *label)
{
    dvc_tube_event *ne = realloc(tb->ev, (size_t)(tb->nev + 1) * sizeof *ne);
    if (!ne) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    tb->ev = ne;
    ne += tb->nev;
    ne->label = strdup(label ? label : "");
    if (!ne->label) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    mpfi_init2(ne->t, mpfi_get_prec(t));
    mpfi_set(ne->t, t);
    dvc_ivec_init2(ne->x, x->n, dvc_ivec_prec(x));
    dvc_ivec_set(ne->x, x);
    dvc_ivec_init2(ne->y, 0, dvc_ivec_prec(x));
    tb->nev++;
    return DVC_OK;
}

/* ---- one view of both storages ------------------------------------------ */

typedef struct {
    long n, m, N, steps, window;
    mpfr_prec_t prec;
    mpfi_srcptr T;
    const double *x;
    const dvc_tube_struct *tb;        /* exactly one of tb, src */
    const dvc_tube_source *src;
    const mpfr_t *times;              /* or NULL: uniform */
    const double *dtimes;             /* or NULL: a source's time grid (exact) */
    double hgrid;                     /* > 0 (times NULL): t_i = i hgrid, t_N = T */
    long twin;                        /* > 0: times holds the window's, t_i in times[i % twin] */
} view_t;

/* t_i of given times (the window's row when only those are held) */
#define TIME(v, i) ((v)->times[(v)->twin > 0 ? (i) % (v)->twin : (i)])

static void view_tube(view_t *v, const dvc_tube_t tb)
{
    v->n = tb->n;
    v->m = tb->m;
    v->N = tb->N;
    v->steps = tb->steps;
    v->window = tb->window;
    v->prec = tb->prec;
    v->T = tb->T;
    v->x = tb->x;
    v->tb = tb;
    v->src = NULL;
    v->times = (const mpfr_t *)tb->t;
    v->dtimes = NULL;
    v->hgrid = tb->hgrid;
    v->twin = tb->t_window ? tb->window : 0;
}

static void view_source(view_t *v, const dvc_tube_source *s)
{
    v->n = s->n;
    v->m = s->m;
    v->N = s->N;
    v->steps = s->steps;
    v->window = 0;
    v->prec = s->prec;
    v->T = s->T;
    v->x = s->x;
    v->tb = NULL;
    v->src = s;
    v->times = NULL;
    v->dtimes = s->times;
    v->hgrid = s->hgrid;
    v->twin = 0;
}

/* s_k of state k (1 without a scale; sources carry none). */
static double xscale(const view_t *v, long k)
{
    return v->tb && v->tb->x_scale ? v->tb->x_scale[k] : 1.0;
}

/* The row holding grid point i. */
#define ROW(v, i) ((v)->window > 0 ? (i) % (v)->window : (i))

/* eps_x^i: the stated radius lies in out. */
static void get_eps_x(mpfi_t out, const view_t *v, long i)
{
    if (v->tb) mpfi_set(out, v->tb->eps_x[ROW(v, i)]);
    else v->src->eps_x(out, v->src->ctx, i);
}

/* ends of yhat^i_k: the stated lower end lies in lo, the upper one in hi */
static void get_yhat(mpfi_t lo, mpfi_t hi, const view_t *v, long i, long k)
{
    if (v->tb) {
        mpfi_set(lo, v->tb->yhat_lo[ROW(v, i) * v->m + k]);
        mpfi_set(hi, v->tb->yhat_hi[ROW(v, i) * v->m + k]);
    } else {
        v->src->yhat(lo, hi, v->src->ctx, i, k);
    }
}

/* ry of step i (1..N) */
static void get_ry(mpfi_t out, const view_t *v, long i)
{
    if (v->tb) mpfi_set(out, v->tb->ry[ROW(v, i)]);
    else v->src->ry(out, v->src->ctx, i);
}

/* the box of y_k: 0 when there is none */
static int get_box(mpfr_t lo, mpfr_t hi, const view_t *v, long k)
{
    if (!v->tb) return v->src->ybox(lo, hi, v->src->ctx, k);
    if (!v->tb->ybox_lo || !v->tb->ybox_hi) return 0;
    mpfr_set(lo, v->tb->ybox_lo[k], MPFR_RNDD);
    mpfr_set(hi, v->tb->ybox_hi[k], MPFR_RNDU);
    return 1;
}

/* ---- geometry ----------------------------------------------------------- */

typedef struct {
    mpfr_prec_t wp;
    mpfi_t ta, tb, sig, d, val, e, yl0, yh0, yl1, yh1, ry;
    mpfr_t a, b, blo, bhi;
} ws_t;

static void ws_init(ws_t *w, mpfr_prec_t prec)
{
    w->wp = prec + TUBE_EXTRA_BITS;
    mpfi_init2(w->ta, w->wp);
    mpfi_init2(w->tb, w->wp);
    mpfi_init2(w->sig, w->wp);
    mpfi_init2(w->d, w->wp);
    mpfi_init2(w->val, w->wp);
    mpfi_init2(w->e, w->wp);
    mpfi_init2(w->yl0, w->wp);
    mpfi_init2(w->yh0, w->wp);
    mpfi_init2(w->yl1, w->wp);
    mpfi_init2(w->yh1, w->wp);
    mpfi_init2(w->ry, w->wp);
    mpfr_inits2(w->wp, w->a, w->b, w->blo, w->bhi, (mpfr_ptr)0);
}

static void ws_clear(ws_t *w)
{
    mpfi_clear(w->ta);
    mpfi_clear(w->tb);
    mpfi_clear(w->sig);
    mpfi_clear(w->d);
    mpfi_clear(w->val);
    mpfi_clear(w->e);
    mpfi_clear(w->yl0);
    mpfi_clear(w->yh0);
    mpfi_clear(w->yl1);
    mpfi_clear(w->yh1);
    mpfi_clear(w->ry);
    mpfr_clears(w->a, w->b, w->blo, w->bhi, (mpfr_ptr)0);
}

static void grid_time(mpfi_t t, const view_t *v, long i)
{
    if (v->times) {
        mpfi_set_fr(t, TIME(v, i));
        return;
    }
    {
        /* binary64 times, a shorter last step or the uniform grid */
        dvc_tgrid g;
        dvc_tgrid_set(&g, v->N, v->hgrid, v->dtimes);
        dvc_tgrid_time(t, &g, v->T, NULL, i);
    }
}

void dvc_tube_time(mpfi_t t, const dvc_tube_t tb, long i)
{
    view_t v;
    view_tube(&v, tb);
    grid_time(t, &v, i);
}

/* Does [t] meet step i = [t_{i-1}, t_i]? If so, w->sig encloses
 * (s - t_{i-1}) / h for s in the common part, clipped to [0, 1]. */
static int piece(ws_t *w, const view_t *v, long i, const mpfi_t t)
{
    grid_time(w->ta, v, i - 1);
    grid_time(w->tb, v, i);
    mpfr_max(w->a, &t->left, &w->ta->left, MPFR_RNDD);
    mpfr_min(w->b, &t->right, &w->tb->right, MPFR_RNDU);
    if (mpfr_cmp(w->a, w->b) > 0) return 0;
    mpfi_interv_fr(w->sig, w->a, w->b);
    mpfi_sub(w->sig, w->sig, w->ta);
    mpfi_sub(w->d, w->tb, w->ta);
    mpfi_div(w->sig, w->sig, w->d);
    if (mpfr_sgn(&w->sig->left) < 0) mpfr_set_zero(&w->sig->left, 1);
    if (mpfr_cmp_ui(&w->sig->right, 1) > 0) mpfr_set_ui(&w->sig->right, 1, MPFR_RNDU);
    if (mpfr_cmp(&w->sig->left, &w->sig->right) > 0) mpfr_set(&w->sig->left, &w->sig->right, MPFR_RNDD);
    return 1;
}

/* x^h_k over the piece: x^{i-1} + sig (x^i - x^{i-1}), the difference of
 * two doubles enclosed at the working precision (exact unless their
 * exponents are far apart), so the width is |x^i - x^{i-1}| wid(sig) + O(ulp). */
static void interp(ws_t *w, const view_t *v, long i, long k)
{
    double a = v->x[ROW(v, i - 1) * v->n + k], b = v->x[ROW(v, i) * v->n + k];
    mpfi_set_d(w->d, b);
    mpfi_sub_d(w->d, w->d, a);
    mpfi_mul(w->val, w->d, w->sig);
    mpfi_add_d(w->val, w->val, a);
}

/* Step i, component k of y: outer (inner = 0) or inner edges in a, b. */
static void y_edges(ws_t *w, const view_t *v, long i, long k, int inner)
{
    get_yhat(w->yl0, w->yh0, v, i - 1, k);
    get_yhat(w->yl1, w->yh1, v, i, k);
    get_ry(w->ry, v, i);
    if (!inner) {
        /* max of the lower edges, min of the upper ones, rounded outward */
        mpfr_sub(w->a, &w->yl0->left, &w->ry->right, MPFR_RNDD);
        mpfr_sub(w->blo, &w->yl1->left, &w->ry->right, MPFR_RNDD);
        mpfr_max(w->a, w->a, w->blo, MPFR_RNDD);
        mpfr_add(w->b, &w->yh0->right, &w->ry->right, MPFR_RNDU);
        mpfr_add(w->bhi, &w->yh1->right, &w->ry->right, MPFR_RNDU);
        mpfr_min(w->b, w->b, w->bhi, MPFR_RNDU);
    } else {
        mpfr_sub(w->a, &w->yl0->right, &w->ry->left, MPFR_RNDU);
        mpfr_sub(w->blo, &w->yl1->right, &w->ry->left, MPFR_RNDU);
        mpfr_max(w->a, w->a, w->blo, MPFR_RNDU);
        mpfr_add(w->b, &w->yh0->left, &w->ry->left, MPFR_RNDD);
        mpfr_add(w->bhi, &w->yh1->left, &w->ry->left, MPFR_RNDD);
        mpfr_min(w->b, w->b, w->bhi, MPFR_RNDD);
    }
    /* y(t) solves the LVI: y(t) in [l, u]. The box ends are exact, so the
     * max / min keeps an outer edge outer and an inner edge inner. An empty
     * meet cannot happen for a rigorous outer tube; keep the unmet one if
     * it does (inner edges are met regardless: lo > hi says "none"). */
    if (get_box(w->blo, w->bhi, v, k)) {
        int empty = mpfr_cmp(w->blo, w->b) > 0 || mpfr_cmp(w->a, w->bhi) > 0;
        if (inner || !empty) {
            mpfr_max(w->a, w->a, w->blo, inner ? MPFR_RNDU : MPFR_RNDD);
            mpfr_min(w->b, w->b, w->bhi, inner ? MPFR_RNDD : MPFR_RNDU);
        }
    }
}

/* t_i compared with x (given times: the tube's or the source's) */
static int time_cmp(const view_t *v, long i, mpfr_srcptr x)
{
    return v->times ? mpfr_cmp(TIME(v, i), x) : -mpfr_cmp_d(x, v->dtimes[i]);
}

/* Steps whose closed interval may meet [t] (a loop bound only: piece()
 * tests the intersection). */
static void step_range(long *i0, long *i1, const view_t *v, const mpfi_t t)
{
    if (v->times || v->dtimes) {
        /* i0: the first step with t_i >= t.lo; i1: the last with t_{i-1} <= t.hi */
        /* window times: the steps of the window (check_range refused an earlier t) */
        long first = v->twin > 0 && v->steps - v->twin + 1 > 1 ? v->steps - v->twin + 1 : 1;
        long lo = first, hi = v->steps;
        while (lo < hi) {
            long mid = (lo + hi) / 2;
            if (time_cmp(v, mid, &t->left) >= 0) hi = mid;
            else lo = mid + 1;
        }
        *i0 = lo;
        lo = first, hi = v->steps;
        while (lo < hi) {
            long mid = (lo + hi + 1) / 2;
            if (time_cmp(v, mid - 1, &t->right) <= 0) lo = mid;
            else hi = mid - 1;
        }
        *i1 = lo;
        return;
    }
    double T = mpfr_get_d(&v->T->left, MPFR_RNDD);
    double lo = mpfr_get_d(&t->left, MPFR_RNDD) / T * (double)v->N;
    double hi = mpfr_get_d(&t->right, MPFR_RNDU) / T * (double)v->N;
    if (v->hgrid > 0) {
        /* t_i = i hgrid up to the last grid point */
        lo = mpfr_get_d(&t->left, MPFR_RNDD) / v->hgrid;
        hi = mpfr_get_d(&t->right, MPFR_RNDU) / v->hgrid;
    }
    double fa = floor(lo) - 1, fb = ceil(hi) + 1;
    if (!(T > 0)) fa = 1, fb = (double)v->steps; /* cannot happen: T > 0 */
    *i0 = fa < 1 ? 1 : (long)fa;
    *i1 = fb > (double)v->steps ? v->steps : (long)fb;
}

static dvc_status check_range(const view_t *v, const mpfi_t t, ws_t *w)
{
    if (v->steps < 1) return dvc_error(DVC_ERR_INPUT, "tube: no certified step");
    if (!dvc_ival_is_valid(t) || !dvc_ival_is_finite(t))
        return dvc_error(DVC_ERR_INPUT, "tube: t is not a finite interval");
    grid_time(w->tb, v, v->steps);
    if ((v->times && !v->twin ? mpfr_cmp(&t->left, v->times[0]) : mpfr_sgn(&t->left)) < 0 ||
        mpfr_cmp(&t->right, &w->tb->right) > 0)
        return dvc_error(DVC_ERR_INPUT, "tube: t outside the certified range [%s, t_%ld]",
                         v->times ? "t_0" : "0", v->steps);
    if (v->window > 0 && v->steps - v->window + 1 > 0) {
        /* a step meeting [t] must have both grid points in the window */
        long first = v->steps - v->window + 1;
        grid_time(w->ta, v, first);
        if (mpfr_cmp(&t->left, &w->ta->right) <= 0)
            return dvc_error(DVC_ERR_INPUT, "tube: t before the window [t_%ld, t_%ld] held", first,
                             v->steps);
    }
    return DVC_OK;
}

/* x (which = 0) or y (1) edges of an enclosure tube at the time interval
 * t (range checked): the evaluator's enclosure, else the hull (outer) or
 * the intersection (inner) of the step enclosures met, met with the grid
 * enclosure at the point t_i. */
static dvc_status encl_edges(dvc_ivec_t out, mpfr_t *lo, mpfr_t *hi, const view_t *v,
                             const mpfi_t t, int which)
{
    const dvc_tube_struct *tb = v->tb;
    long n = which ? v->m : v->n, i0, i1, cnt = 0;
    dvc_tube_eval_fn eval = which ? tb->yeval : tb->eval;
    mpfi_t *xs = which ? tb->ys : tb->xs, *xg = which ? tb->yg : tb->xg;
    dvc_ivec_t X;
    mpfi_t ga, gb;
    dvc_status st = DVC_OK;
    dvc_ivec_init2(X, n, v->prec);
    mpfi_init2(ga, v->prec);
    mpfi_init2(gb, v->prec);
    if (eval) {
        st = eval(X, which ? tb->yeval_ctx : tb->eval_ctx, t);
    } else {
        step_range(&i0, &i1, v, t);
        for (long i = i0; i <= i1; i++) {
            /* step i = [t_{i-1}, t_i] may meet t */
            grid_time(ga, v, i - 1);
            grid_time(gb, v, i);
            if (mpfr_cmp(&t->right, &ga->left) < 0 || mpfr_cmp(&t->left, &gb->right) > 0) continue;
            for (long k = 0; k < n; k++) {
                mpfi_srcptr b = xs[(i - 1) * n + k];
                if (cnt == 0) mpfi_set(X->e[k], b);
                else if (out) mpfi_union(X->e[k], X->e[k], b);
                else mpfi_intersect(X->e[k], X->e[k], b);
            }
            cnt++;
        }
        if (cnt == 0) st = dvc_error(DVC_ERR_INTERNAL, "tube: no step found for t");
        for (long i = i0 - 1; st == DVC_OK && i <= i1; i++) {
            if (i < 0) continue;
            grid_time(ga, v, i);
            if (mpfr_equal_p(&t->left, &ga->left) && mpfr_equal_p(&t->right, &ga->right) &&
                mpfr_equal_p(&ga->left, &ga->right))
                for (long k = 0; k < n; k++) mpfi_intersect(X->e[k], X->e[k], xg[i * n + k]);
        }
    }
    mpfi_clear(ga);
    mpfi_clear(gb);
    for (long k = 0; st == DVC_OK && k < n; k++) {
        if (out) {
            mpfi_set(out->e[k], X->e[k]);
        } else if (mpfi_is_empty(X->e[k])) {
            mpfr_set_inf(lo[k], 1); /* lo > hi: nothing certainly inside */
            mpfr_set_inf(hi[k], -1);
        } else {
            mpfr_set(lo[k], &X->e[k]->left, MPFR_RNDU);
            mpfr_set(hi[k], &X->e[k]->right, MPFR_RNDD);
        }
    }
    dvc_ivec_clear(X);
    return st;
}

/* The edges of component `which` (0: x, 1: y) at the time interval t, over
 * every step t may fall in. Outer (out given): the hull of the steps' outer
 * edges, into out. Inner (out NULL): the intersection of the steps' inner
 * edges, into lo, hi, since a value inside at every time of every such step
 * must lie above the highest lower edge and below the lowest upper edge. */
static dvc_status edges_view(dvc_ivec_t out, mpfr_t *lo, mpfr_t *hi, const view_t *v,
                             const mpfi_t t, int which)
{
    ws_t w;
    mpfi_t ek; /* s_k eps_x^i */
    long i0, i1, cnt = 0, K = which ? v->m : v->n;
    int inner = out == NULL;
    dvc_status st;
    if (!inner && out->n != K)
        return dvc_error(DVC_ERR_INPUT, "tube: out has %ld entries, need %ld", out->n, K);
    ws_init(&w, v->prec);
    if ((st = check_range(v, t, &w)) != DVC_OK) {
        ws_clear(&w);
        return st;
    }
    if (v->tb && (which ? v->tb->ys : v->tb->xs)) {
        st = encl_edges(out, lo, hi, v, t, which);
        ws_clear(&w);
        return st;
    }
    for (long k = 0; inner && k < K; k++) {
        mpfr_set_inf(lo[k], -1);
        mpfr_set_inf(hi[k], 1);
    }
    mpfi_init2(ek, v->prec);
    step_range(&i0, &i1, v, t);
    for (long i = i0; i <= i1; i++) {
        if (!piece(&w, v, i, t)) continue;
        if (!which) get_eps_x(w.e, v, i);
        for (long k = 0; k < K; k++) {
            if (which) {
                y_edges(&w, v, i, k, inner);
            } else if (inner) {
                interp(&w, v, i, k);
                mpfi_mul_d(ek, w.e, xscale(v, k)); /* exact: a power of two */
                mpfr_sub(w.a, &w.val->right, &ek->left, MPFR_RNDU);
                mpfr_add(w.b, &w.val->left, &ek->left, MPFR_RNDD);
            } else {
                interp(&w, v, i, k);
                mpfi_mul_d(ek, w.e, xscale(v, k));
                mpfr_sub(w.a, &w.val->left, &ek->right, MPFR_RNDD);
                mpfr_add(w.b, &w.val->right, &ek->right, MPFR_RNDU);
            }
            if (inner) {
                /* every step the time may fall in must contain the value */
                if (mpfr_cmp(w.a, lo[k]) > 0) mpfr_set(lo[k], w.a, MPFR_RNDU);
                if (mpfr_cmp(w.b, hi[k]) < 0) mpfr_set(hi[k], w.b, MPFR_RNDD);
            } else if (cnt == 0) {
                mpfi_interv_fr(out->e[k], w.a, w.b);
            } else {
                /* hull over the steps, rounded outward */
                if (mpfr_cmp(w.a, &out->e[k]->left) < 0) mpfr_set(&out->e[k]->left, w.a, MPFR_RNDD);
                if (mpfr_cmp(w.b, &out->e[k]->right) > 0) mpfr_set(&out->e[k]->right, w.b, MPFR_RNDU);
            }
        }
        cnt++;
    }
    mpfi_clear(ek);
    ws_clear(&w);
    if (cnt == 0) return dvc_error(DVC_ERR_INTERNAL, "tube: no step found for t");
    return DVC_OK;
}

dvc_status dvc_tube_outer(dvc_ivec_t out, const dvc_tube_t tb, const mpfi_t t, int which)
{
    view_t v;
    view_tube(&v, tb);
    return edges_view(out, NULL, NULL, &v, t, which);
}

dvc_status dvc_tube_inner(mpfr_t *lo, mpfr_t *hi, const dvc_tube_t tb, const mpfi_t t, int which)
{
    view_t v;
    view_tube(&v, tb);
    return edges_view(NULL, lo, hi, &v, t, which);
}

dvc_status dvc_tube_source_outer(dvc_ivec_t out, const dvc_tube_source *s, const mpfi_t t, int which)
{
    view_t v;
    view_source(&v, s);
    return edges_view(out, NULL, NULL, &v, t, which);
}

void dvc_tube_step_hull(mpfr_t *lo, mpfr_t *hi, const dvc_tube_t tb, long i, int which)
{
    view_t v;
    ws_t w;
    view_tube(&v, tb);
    ws_init(&w, v.prec);
    if (which ? tb->ys != NULL : tb->xs != NULL) {
        long K = which ? tb->m : tb->n;
        mpfi_t *b = which ? tb->ys : tb->xs;
        for (long j = 0; j < K; j++) {
            mpfr_set(lo[j], &b[(i - 1) * K + j]->left, MPFR_RNDD);
            mpfr_set(hi[j], &b[(i - 1) * K + j]->right, MPFR_RNDU);
        }
    } else if (which == 0) {
        for (long j = 0; j < tb->n; j++) {
            /* the interpolant's hull is that of its two ends */
            double a = tb->x[ROW(&v, i - 1) * tb->n + j], b = tb->x[ROW(&v, i) * tb->n + j];
            mpfr_mul_d(w.a, &tb->eps_x[ROW(&v, i)]->right, xscale(&v, j), MPFR_RNDU);
            mpfr_set_d(lo[j], a < b ? a : b, MPFR_RNDD);
            mpfr_sub(lo[j], lo[j], w.a, MPFR_RNDD);
            mpfr_set_d(hi[j], a < b ? b : a, MPFR_RNDU);
            mpfr_add(hi[j], hi[j], w.a, MPFR_RNDU);
        }
    } else {
        for (long k = 0; k < tb->m; k++) {
            y_edges(&w, &v, i, k, 0);
            mpfr_set(lo[k], w.a, MPFR_RNDD);
            mpfr_set(hi[k], w.b, MPFR_RNDU);
        }
    }
    ws_clear(&w);
}

void dvc_tube_grid(mpfr_t *lo, mpfr_t *hi, const dvc_tube_t tb, long i, int which)
{
    long K = which ? tb->m : tb->n, row = tb->window > 0 ? i % tb->window : i;
    const double *val = which ? tb->y + row * tb->m : tb->x + row * tb->n;
    mpfi_srcptr e = which ? tb->eps_y[row] : tb->eps_x[row];
    view_t v;
    mpfr_t blo, bhi, es;
    mpfi_t *g = which ? tb->yg : tb->xg;
    if (g) {
        for (long j = 0; j < K; j++) {
            mpfr_set(lo[j], &g[i * K + j]->left, MPFR_RNDD);
            mpfr_set(hi[j], &g[i * K + j]->right, MPFR_RNDU);
        }
        return;
    }
    view_tube(&v, tb);
    mpfr_inits2(tb->prec, blo, bhi, (mpfr_ptr)0);
    mpfr_init2(es, tb->prec);
    for (long j = 0; j < K; j++) {
        mpfr_mul_d(es, &e->right, which ? 1.0 : xscale(&v, j), MPFR_RNDU);
        mpfr_set_d(lo[j], val[j], MPFR_RNDD);
        mpfr_sub(lo[j], lo[j], es, MPFR_RNDD);
        mpfr_set_d(hi[j], val[j], MPFR_RNDU);
        mpfr_add(hi[j], hi[j], es, MPFR_RNDU);
        if (which && get_box(blo, bhi, &v, j)) {
            if (mpfr_cmp(lo[j], blo) < 0) mpfr_set(lo[j], blo, MPFR_RNDD);
            if (mpfr_cmp(hi[j], bhi) > 0) mpfr_set(hi[j], bhi, MPFR_RNDU);
        }
    }
    mpfr_clears(blo, bhi, es, (mpfr_ptr)0);
}
