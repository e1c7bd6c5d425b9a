/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certification of VI(l, u, q, M) for a proven P-matrix M. Three routes,
 * tried in this order (derivations in docs/lvi.md):
 *  1. active set: the reduced system of the predictor's piece solved in
 *     interval arithmetic, bounds and signs of M y + q proven;
 *  2. vertex: r(v) - r(y) = (I - D + DM)(v - y) with D in a box fixed by
 *     an enclosure Y; extremes over D at the vertices of the ambiguous
 *     coordinates; v - hull(...) inside Y proves y* in it (Kakutani);
 *  3. residual: ||v - y*|| <= alpha_M ||r(v)||, then step 2 as a pure
 *     contraction inside that ball.
 * Everything in MPFI; the predictor (doubles) only chooses what to prove. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/beta.h"
#include "dvicert/mclass.h"
#include "fprnd.h"
#include "imat_dd.h"
#include "lvi_internal.h"
#include "mclass_internal.h"
#include "rounding.h"


typedef struct {
    dvc_lvi_pred_ws pw;
    double *qd, *v;
    int *act, *dfix;
    long *idx, *amb, *jdx;
    /* Every interval of the workspace and the solver's copy of M lives in
     * one pool whose significands share one allocation (MPFR's custom
     * interface): a solver costs a few mallocs instead of thousands, which
     * dominated setting one up. The pool's entries are never cleared or
     * resized one by one. */
    mpfi_t *pool, *mpool;          /* mpool: the entries of s->M, s->l, s->u */
    void *limbs, *mlimbs;
    mpfr_prec_t prec;
    mpfi_t *apool, *bpool, *xpool; /* storage behind the reduced-system views */
    /* binary64 copy of the data for the active-set route (dd_ok: M, l, u
     * exact doubles in the range where binary64 and 53-bit MPFI round
     * alike, working precision 53) */
    int dd_ok, Mex; /* Mex: dvc_imat_outward_dd_ of M into Mlo, Mhi */
    int lu_ok;      /* llo, lhi, ulo, uhi: the exact endpoints of s->l, s->u */
    double *dbuf, *Mlo, *Mhi, *llo, *lhi, *ulo, *uhi, *qlo, *qhi, *Alo, *Ahi;
    double *blo, *bhi, *xlo, *xhi, *Ylo, *Yhi;
    long *pidx, pk; /* apool holds M_FF for this free set F (pk < 0: nothing) */
    dvc_ivec_struct Z[1], R[1], S[1], Y[1], N[1], E[1], W[1], X[1]; /* views on the pool */
    mpfi_ptr t, t2, ta, tb;
    mpfr_t f, f2, lo, hi;
} lvi_ws;

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (p == NULL) abort();
    return p;
}

/* n intervals at precision prec, significands in one block. */
static mpfi_t *pool_init(long n, mpfr_prec_t prec, void **limbs)
{
    size_t a = sizeof(mp_limb_t), sz = (mpfr_custom_get_size(prec) + a - 1) / a * a;
    mpfi_t *p = xcalloc((size_t)n, sizeof(mpfi_t));
    char *b = malloc((size_t)(2 * n) * sz + 1); /* set by mpfr_custom_init_set */
    if (b == NULL) abort();
    for (long k = 0; k < n; k++) {
        void *l = b + (size_t)(2 * k) * sz, *r = b + (size_t)(2 * k + 1) * sz;
        mpfr_custom_init(l, prec);
        mpfr_custom_init(r, prec);
        mpfr_custom_init_set(&p[k]->left, MPFR_ZERO_KIND, 0, prec, l);
        mpfr_custom_init_set(&p[k]->right, MPFR_ZERO_KIND, 0, prec, r);
    }
    *limbs = b;
    return p;
}

static void vec_view(dvc_ivec_struct *v, mpfi_t *pool, long k);

static lvi_ws *ws_new(long m, mpfr_prec_t prec)
{
    lvi_ws *w = xcalloc(1, sizeof *w);
    if (dvc_lvi_pred_ws_init(&w->pw, m) != 0) abort();
    w->qd = xcalloc((size_t)m, sizeof(double));
    w->v = xcalloc((size_t)m, sizeof(double));
    w->act = xcalloc((size_t)m, sizeof(int));
    w->dfix = xcalloc((size_t)m, sizeof(int));
    w->idx = xcalloc((size_t)m, sizeof(long));
    w->amb = xcalloc((size_t)m, sizeof(long));
    w->jdx = xcalloc((size_t)m, sizeof(long));
    w->pidx = xcalloc((size_t)m, sizeof(long));
    w->pk = -1;
    /* M now; the MPFI workspace of the routes only when a route needs it
     * (ws_mpfi): the binary64 active-set route does without */
    w->mpool = pool_init(m * m + 2 * m, prec, &w->mlimbs); /* M, then l and u */
    w->prec = prec;
    mpfr_inits2(prec, w->f, w->f2, w->lo, w->hi, (mpfr_ptr)0);
    double *d = w->dbuf = malloc((size_t)(4 * m * m + 12 * m) * sizeof(double)); /* scratch */
    if (d == NULL) abort();
    w->Mlo = d, d += m * m;
    w->Mhi = d, d += m * m;
    w->Alo = d, d += m * m;
    w->Ahi = d, d += m * m;
    double **vv[12] = {&w->llo, &w->lhi, &w->ulo, &w->uhi, &w->qlo, &w->qhi,
                       &w->blo, &w->bhi, &w->xlo, &w->xhi, &w->Ylo, &w->Yhi};
    for (int k = 0; k < 12; k++, d += m) *vv[k] = d;
    return w;
}

/* The MPFI workspace (M_FF, b, x, eight vectors, four scalars), made on
 * first use. */
static void ws_mpfi(lvi_ws *w, long m)
{
    mpfi_t *q;
    if (w->pool != NULL) return;
    q = w->pool = pool_init(m * m + 10 * m + 4, w->prec, &w->limbs);
    w->apool = q;
    q += m * m;
    w->bpool = q;
    q += m;
    w->xpool = q;
    q += m;
    dvc_ivec_struct *vs[8] = {w->Z, w->R, w->S, w->Y, w->N, w->E, w->W, w->X};
    for (int k = 0; k < 8; k++, q += m) vec_view(vs[k], q, m);
    w->t = q[0];
    w->t2 = q[1];
    w->ta = q[2];
    w->tb = q[3];
}

static void ws_free(lvi_ws *w)
{
    if (w == NULL) return;
    dvc_lvi_pred_ws_clear(&w->pw);
    free(w->qd);
    free(w->v);
    free(w->act);
    free(w->dfix);
    free(w->idx);
    free(w->amb);
    free(w->jdx);
    free(w->pidx);
    free(w->pool);
    free(w->limbs);
    free(w->mpool);
    free(w->mlimbs);
    free(w->dbuf);
    mpfr_clears(w->f, w->f2, w->lo, w->hi, (mpfr_ptr)0);
    free(w);
}

/* ---- binary64 data --------------------------------------------------- */

/* 0, or 2^-500 <= |x| <= 2^500: products and sums of such numbers neither
 * underflow nor overflow, so binary64 with directed rounding gives the
 * endpoints MPFI gives at 53 bits. */
static int dd_range(double x)
{
    double a = fabs(x);
    return a == 0 || (a >= 0x1p-500 && a <= 0x1p500);
}

/* Every entry of Mlo, Mhi in dd_range. */
static int dd_range_all(const lvi_ws *w, long m)
{
    for (long t = 0; t < m * m; t++)
        if (!dd_range(w->Mlo[t]) || !dd_range(w->Mhi[t])) return 0;
    return 1;
}

/* Exact doubles of a vector's endpoints (infinities allowed): 1, or 0 when
 * some endpoint is not a double in dd_range (or infinite with inf_ok 0). */
static int dd_vec(double *lo, double *hi, const dvc_ivec_t v, int inf_ok)
{
    for (long i = 0; i < v->n; i++) {
        mpfr_srcptr a = &v->e[i]->left, b = &v->e[i]->right;
        if (mpfr_inf_p(a) || mpfr_inf_p(b)) { /* -inf / +inf bounds: exact */
            if (!inf_ok || !mpfr_inf_p(a) || !mpfr_inf_p(b)) return 0;
            lo[i] = mpfr_get_d(a, MPFR_RNDD);
            hi[i] = mpfr_get_d(b, MPFR_RNDU);
            continue;
        }
        dvc_imat_struct one = {&v->e[i], 1, 1, v->prec};
        if (dvc_imat_outward_dd_(&lo[i], &hi[i], &one) != 1 || !dd_range(lo[i]) || !dd_range(hi[i])) return 0;
    }
    return 1;
}

/* q as exact doubles in dd_range (dd_vec's test, with the fast exact
 * conversion of the verified solve). */
static int dd_qvec(lvi_ws *w, const dvc_ivec_t q)
{
    dvc_imat_struct row = {q->e, 1, q->n, q->prec};
    if (dvc_imat_outward_dd_(w->qlo, w->qhi, &row) != 1) return 0;
    for (long i = 0; i < q->n; i++)
        if (!dd_range(w->qlo[i]) || !dd_range(w->qhi[i])) return 0;
    return 1;
}

/* x (a pool entry of 53 bits) <- v exactly, v a normal double:
 * the significand is written directly (mpfr_set_d's generic path dominated
 * copying M into the solver). */
static void set53_d(mpfr_ptr x, double v)
{
#if GMP_NUMB_BITS == 64
    uint64_t b;
    mp_limb_t *d = mpfr_custom_get_significand(x);
    memcpy(&b, &v, sizeof b);
    d[0] = ((mp_limb_t)1 << 63) | (mp_limb_t)((b & 0xfffffffffffffULL) << 11);
    mpfr_custom_init_set(x, (b >> 63) ? -MPFR_REGULAR_KIND : MPFR_REGULAR_KIND,
                         (mpfr_exp_t)((b >> 52) & 0x7ff) - 1022, 53, d);
#else
    mpfr_set_d(x, v, MPFR_RNDN); /* exact: 53 bits */
#endif
}

/* Md (the predictor's midpoints, as dvc_imat_mid_d computes them), the
 * exact doubles of l, u when they are doubles (lu_ok), and whether the
 * active-set route can run in binary64 (dd_ok). */
static void dd_setup(dvc_lvi_solver_t s, const dvc_imat_t M, const dvc_ivec_t l, const dvc_ivec_t u)
{
    lvi_ws *w = s->ws;
    long m = s->m, mm = m * m;
    int ex = w->Mex;
    if (ex == 1)
        for (long t = 0; t < mm; t++) s->Md[t] = 0.5 * w->Mlo[t] + 0.5 * w->Mhi[t];
    else
        dvc_imat_mid_d(s->Md, M);
    /* the caller's l, u (what bound_d reads); at 53 bits s->l, s->u equal them */
    w->lu_ok = dd_vec(w->llo, w->lhi, l, 1) && dd_vec(w->ulo, w->uhi, u, 1);
    w->dd_ok = w->lu_ok && ex == 1 && s->prec == 53 && mpfi_get_prec(s->M->e[0]) == 53 && dd_range_all(w, m);
}

/* Rows rows[0..nr) of r = q + M Y (Y in [Ylo, Yhi], exact zeros skipped as
 * row_dot does) into [rlo, rhi], each product and sum rounded outward in
 * the same order as row_dot: the same endpoints as MPFI at 53 bits. */
static void dd_rows(const lvi_ws *w, long m, const long *rows, long nr, double *rlo, double *rhi)
{
    int saved = dvc_rnd_save();
    for (int dir = 0; dir < 2; dir++) {
        dvc_rnd_set(dir == 0 ? FE_DOWNWARD : FE_UPWARD);
        for (long a = 0; a < nr; a++) {
            long i = rows[a];
            double acc = dir == 0 ? w->qlo[i] : w->qhi[i];
            const double *ml = w->Mlo + i * m, *mh = w->Mhi + i * m;
            for (long j = 0; j < m; j++) {
                double al = ml[j], ah = mh[j], bl = w->Ylo[j], bh = w->Yhi[j];
                if ((al == 0 && ah == 0) || (bl == 0 && bh == 0)) continue;
                if (al == ah && bl == bh) { /* point times point: one product */
                    acc += al * bl;
                    continue;
                }
                double p1 = al * bl, p2 = al * bh, p3 = ah * bl, p4 = ah * bh, p;
                if (dir == 0) {
                    p = p1 < p2 ? p1 : p2;
                    p = p3 < p ? p3 : p;
                    p = p4 < p ? p4 : p;
                } else {
                    p = p1 > p2 ? p1 : p2;
                    p = p3 > p ? p3 : p;
                    p = p4 > p ? p4 : p;
                }
                acc += p;
            }
            if (dir == 0) rlo[a] = acc;
            else rhi[a] = acc;
        }
    }
    dvc_rnd_restore(saved);
}

/* The active-set route of active_route in binary64: 1 proven (y set), 0
 * not proven, -1 not applicable (use the MPFI route). Same operations, same
 * rounding, same kernel (dvc_fp_verify_solve, as dvc_imat_solve_inv_ uses it at
 * 53 bits): the same enclosures, without the MPFI copies of M_FF. */
static int active_route_dd(dvc_lvi_solver_t s, const dvc_ivec_t q, const int *act, dvc_ivec_t y)
{
    lvi_ws *w = s->ws;
    long m = s->m, k = 0, na = 0;
    double c;
    if (!w->dd_ok || mpfi_get_prec(y->e[0]) != 53 || !dd_qvec(w, q)) return -1;
    for (long i = 0; i < m; i++) {
        if (act[i] < 0) {
            w->Ylo[i] = w->llo[i];
            w->Yhi[i] = w->lhi[i];
        } else if (act[i] > 0) {
            w->Ylo[i] = w->ulo[i];
            w->Yhi[i] = w->uhi[i];
        } else {
            w->idx[k++] = i;
            w->Ylo[i] = w->Yhi[i] = 0;
            continue;
        }
        if (isinf(w->Ylo[i]) || isinf(w->Yhi[i])) return -1;
        w->jdx[na++] = i;
    }
    if (k > 0) {
        dd_rows(w, m, w->idx, k, w->blo, w->bhi);
        for (long a = 0; a < k; a++) { /* b = -(q + M Y), exact negation */
            double t = w->blo[a];
            w->blo[a] = -w->bhi[a];
            w->bhi[a] = -t;
            /* dvc_imat_solve hands b this tiny to MPFI */
            if ((w->blo[a] != 0 && fabs(w->blo[a]) < 0x1p-900) || (w->bhi[a] != 0 && fabs(w->bhi[a]) < 0x1p-900))
                return -1;
        }
        for (long a = 0; a < k; a++)
            for (long b = 0; b < k; b++) {
                w->Alo[a * k + b] = w->Mlo[w->idx[a] * m + w->idx[b]];
                w->Ahi[a * k + b] = w->Mhi[w->idx[a] * m + w->idx[b]];
            }
        if (dvc_fp_verify_solve(k, 1, w->Alo, w->Ahi, w->blo, w->bhi, w->xlo, w->xhi, &c) != DVC_FP_OK) return 0;
        for (long a = 0; a < k; a++) {
            long i = w->idx[a];
            if (w->xlo[a] < w->lhi[i] || w->xhi[a] > w->ulo[i]) return 0;
            w->Ylo[i] = w->xlo[a];
            w->Yhi[i] = w->xhi[a];
        }
    }
    if (na > 0) {
        dd_rows(w, m, w->jdx, na, w->blo, w->bhi);
        for (long a = 0; a < na; a++) {
            long i = w->jdx[a];
            if (act[i] < 0 && !(w->blo[a] >= 0)) return 0;
            if (act[i] > 0 && !(w->bhi[a] <= 0)) return 0;
        }
    }
    for (long i = 0; i < m; i++) {
        if (act[i] < 0) mpfi_set(y->e[i], s->l->e[i]);
        else if (act[i] > 0) mpfi_set(y->e[i], s->u->e[i]);
        else mpfi_interv_d(y->e[i], w->Ylo[i], w->Yhi[i]);
    }
    return 1;
}

/* ---- solver ------------------------------------------------------------ */

static double bound_d(const mpfi_t b)
{
    if (mpfr_inf_p(&b->left) && mpfr_inf_p(&b->right)) return mpfr_sgn(&b->left) < 0 ? -INFINITY : INFINITY;
    return dvc_ival_mid_d(b);
}

static dvc_status solver_init_rn(dvc_lvi_solver_t s, const dvc_imat_t M, const dvc_ivec_t l,
                                 const dvc_ivec_t u, mpfr_prec_t prec)
{
    long m = M->r;
    const char *how = NULL;
    dvc_status st;
    memset(s, 0, sizeof *s);
    s->m = 0;
    if (prec < MPFR_PREC_MIN) prec = MPFR_PREC_MIN;
    s->prec = prec;
    dvc_imat_init2(s->M, 0, 0, prec);
    dvc_ivec_init2(s->l, 0, prec);
    dvc_ivec_init2(s->u, 0, prec);
    mpfr_init2(s->alpha_hi, prec);
    mpfr_set_inf(s->alpha_hi, 1);
    s->vertex_max = 6;
    dvc_beta_opts_default(&s->alpha_opts);
    if (M->r != M->c || m <= 0)
        return dvc_error(DVC_ERR_INPUT, "lvi: M must be square and non-empty (got %ld x %ld)", M->r, M->c);
    if (m > DVC_LVI_M_MAX)
        return dvc_error(DVC_ERR_INPUT,
                         "lvi: m = %ld is above the supported size %d (dense interval work: about "
                         "1 s at m = 1000, growing like m^3)",
                         m, DVC_LVI_M_MAX);
    if (l->n != m) return dvc_error(DVC_ERR_INPUT, "lvi: l has %ld entries, M is %ld x %ld", l->n, m, m);
    if (u->n != m) return dvc_error(DVC_ERR_INPUT, "lvi: u has %ld entries, M is %ld x %ld", u->n, m, m);
    s->ws = ws_new(m, prec);
    {
        lvi_ws *w = s->ws;
        w->Mex = dvc_imat_outward_dd_(w->Mlo, w->Mhi, M);
        if (w->Mex < 0 && !dvc_imat_is_finite(M))
            return dvc_error(DVC_ERR_INPUT, "lvi: M has a NaN or infinite entry");
    }
    for (long i = 0; i < m; i++) {
        const mpfi_srcptr li = l->e[i], ui = u->e[i];
        if (!dvc_ival_is_valid(li)) return dvc_error(DVC_ERR_INPUT, "lvi: l entry %ld is NaN", i + 1);
        if (!dvc_ival_is_valid(ui)) return dvc_error(DVC_ERR_INPUT, "lvi: u entry %ld is NaN", i + 1);
        /* a bound is a number (possibly an interval) or exactly -inf / +inf */
        if ((mpfr_inf_p(&li->right) && mpfr_sgn(&li->right) > 0) ||
            (mpfr_inf_p(&li->left) && !mpfr_inf_p(&li->right)))
            return dvc_error(DVC_ERR_INPUT, "lvi: l entry %ld must be a finite number or -inf", i + 1);
        if ((mpfr_inf_p(&ui->left) && mpfr_sgn(&ui->left) < 0) ||
            (mpfr_inf_p(&ui->right) && !mpfr_inf_p(&ui->left)))
            return dvc_error(DVC_ERR_INPUT, "lvi: u entry %ld must be a finite number or +inf", i + 1);
        if (mpfr_cmp(&li->right, &ui->left) >= 0)
            return dvc_error(DVC_ERR_INPUT, "lvi: l entry %ld is not below u entry %ld (need l < u)", i + 1, i + 1);
    }
    s->m = m;
    /* s->M's entries are the pool's (dvc_lvi_solver_clear detaches them) */
    free(s->M->e);
    s->M->e = ((lvi_ws *)s->ws)->mpool;
    s->M->r = s->M->c = m;
    if (((lvi_ws *)s->ws)->Mex == 1 && prec == 53 && dd_range_all(s->ws, m))
        for (long t = 0; t < m * m; t++) { /* exact doubles: written directly */
            double lo = ((lvi_ws *)s->ws)->Mlo[t], hi = ((lvi_ws *)s->ws)->Mhi[t];
            /* zeros copied, for their sign */
            if (lo != 0) set53_d(&s->M->e[t]->left, lo);
            else mpfr_set(&s->M->e[t]->left, &M->e[t]->left, MPFR_RNDD);
            if (hi != 0) set53_d(&s->M->e[t]->right, hi);
            else mpfr_set(&s->M->e[t]->right, &M->e[t]->right, MPFR_RNDU);
        }
    else
        dvc_imat_set(s->M, M);
    free(s->l->e);
    free(s->u->e);
    s->l->e = ((lvi_ws *)s->ws)->mpool + m * m;
    s->u->e = s->l->e + m;
    s->l->n = s->u->n = m;
    dvc_ivec_set(s->l, l);
    dvc_ivec_set(s->u, u);
    s->Md = xcalloc((size_t)(m * m), sizeof(double));
    s->ld = xcalloc((size_t)m, sizeof(double));
    s->ud = xcalloc((size_t)m, sizeof(double));
    dd_setup(s, M, l, u);
    for (long i = 0; i < m; i++) {
        lvi_ws *w = s->ws;
        if (w->lu_ok) { /* exact endpoints: what bound_d computes, without MPFR */
            s->ld[i] = isinf(w->llo[i]) ? w->llo[i] : 0.5 * w->llo[i] + 0.5 * w->lhi[i];
            s->ud[i] = isinf(w->uhi[i]) ? w->uhi[i] : 0.5 * w->ulo[i] + 0.5 * w->uhi[i];
        } else {
            s->ld[i] = bound_d(l->e[i]);
            s->ud[i] = bound_d(u->e[i]);
        }
        if (!(s->ld[i] < s->ud[i])) /* l, u closer than a double ulp: keep order */
            return dvc_error(DVC_ERR_INPUT, "lvi: l entry %ld and u entry %ld are too close for the predictor", i + 1, i + 1);
    }
    st = dvc_mclass_prove_p_dd_(M, ((lvi_ws *)s->ws)->Mlo, ((lvi_ws *)s->ws)->Mex, &how);
    if (st != DVC_OK)
        return dvc_error_context(st == DVC_NOT_CERTIFIED ? DVC_NOT_CERTIFIED : st,
                                 "lvi: M is not proven to be a P-matrix: ");
    s->p_reason = how ? how : "P-matrix proof";
    return DVC_OK;
}

void dvc_lvi_solver_clear(dvc_lvi_solver_t s)
{
    if (s->ws != NULL && s->M->e == ((lvi_ws *)s->ws)->mpool) {
        s->M->e = NULL;
        s->M->r = s->M->c = 0;
        s->l->e = s->u->e = NULL;
        s->l->n = s->u->n = 0;
    }
    ws_free(s->ws);
    s->ws = NULL;
    free(s->Md);
    free(s->ld);
    free(s->ud);
    s->Md = s->ld = s->ud = NULL;
    dvc_imat_clear(s->M);
    dvc_ivec_clear(s->l);
    dvc_ivec_clear(s->u);
    mpfr_clear(s->alpha_hi);
    s->m = 0;
}

dvc_status dvc_lvi_solver_alpha(dvc_lvi_solver_t s)
{
    dvc_beta_bound_t beta, alpha;
    dvc_beta_opts o;
    dvc_status st;
    if (s->alpha_ready > 0) return DVC_OK;
    if (s->alpha_ready < 0) return dvc_error(DVC_NOT_CERTIFIED, "%s", s->alpha_msg);
    o = s->alpha_opts;
    dvc_beta_bound_init(beta);
    dvc_beta_bound_init(alpha);
    st = dvc_beta_compute(beta, alpha, s->M, &o);
    if (st == DVC_OK && mpfr_number_p(alpha->hi)) {
        mpfr_set(s->alpha_hi, alpha->hi, MPFR_RNDU);
        s->alpha_method = alpha->method;
        s->alpha_ready = 1;
    } else {
        if (st == DVC_OK) st = dvc_error(DVC_NOT_CERTIFIED, "alpha_M bound is not finite");
        snprintf(s->alpha_msg, sizeof s->alpha_msg, "no rigorous alpha_M bound: %s", dvc_error_message());
        s->alpha_ready = -1;
        st = dvc_error(DVC_NOT_CERTIFIED, "%s", s->alpha_msg);
    }
    dvc_beta_bound_clear(beta);
    dvc_beta_bound_clear(alpha);
    return st;
}

/* ---- result ------------------------------------------------------------ */

void dvc_lvi_result_init2(dvc_lvi_result_t r, long m, mpfr_prec_t prec)
{
    memset(r, 0, sizeof *r);
    if (prec < MPFR_PREC_MIN) prec = MPFR_PREC_MIN;
    dvc_ivec_init2(r->y, m, prec);
    r->active = xcalloc((size_t)m, sizeof(int));
    r->pred = xcalloc((size_t)m, sizeof(double));
    mpfr_init2(r->resid, prec);
    mpfr_set_zero(r->resid, 1);
}

void dvc_lvi_result_init(dvc_lvi_result_t r, long m) { dvc_lvi_result_init2(r, m, dvc_prec_get()); }

void dvc_lvi_result_clear(dvc_lvi_result_t r)
{
    dvc_ivec_clear(r->y);
    free(r->active);
    free(r->pred);
    r->active = NULL;
    r->pred = NULL;
    mpfr_clear(r->resid);
}

const char *dvc_lvi_route_name(dvc_lvi_route route)
{
    switch (route) {
    case DVC_LVI_ROUTE_ACTIVE_SET: return "active set";
    case DVC_LVI_ROUTE_RESIDUAL: return "residual";
    case DVC_LVI_ROUTE_VERTEX: return "vertex";
    default: return "none";
    }
}

/* ---- helpers ----------------------------------------------------------- */

static void mat_view(dvc_imat_struct *A, mpfi_t *pool, long k)
{
    A->e = pool;
    A->r = A->c = k;
    A->prec = mpfi_get_prec(pool[0]);
}

static void vec_view(dvc_ivec_struct *v, mpfi_t *pool, long k)
{
    v->e = pool;
    v->n = k;
    v->prec = mpfi_get_prec(pool[0]);
}

/* r <- sum_j M_ij x_j (+ q_i when q != NULL) */
static void row_dot(lvi_ws *w, mpfi_t r, const dvc_imat_t M, long i, const dvc_ivec_t x,
                    const dvc_ivec_t q)
{
    long m = M->c;
    if (q) mpfi_set(r, q->e[i]);
    else mpfi_set_ui(r, 0);
    for (long j = 0; j < m; j++) {
        mpfi_srcptr a = dvc_imat_entry(M, i, j), b = x->e[j];
        /* exact zeros (sparse M, zero entries of x) add nothing */
        if ((mpfr_zero_p(&a->left) && mpfr_zero_p(&a->right)) || (mpfr_zero_p(&b->left) && mpfr_zero_p(&b->right)))
            continue;
        mpfi_mul(w->t2, a, b);
        mpfi_add(r, r, w->t2);
    }
}

/* median of three extended reals (exact) */
static mpfr_srcptr med3(mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr c)
{
    if (mpfr_lessequal_p(a, b)) {
        if (mpfr_lessequal_p(b, c)) return b;
        return mpfr_lessequal_p(a, c) ? c : a;
    }
    if (mpfr_lessequal_p(a, c)) return a;
    return mpfr_lessequal_p(b, c) ? c : b;
}

/* ---- route 1: active set ---------------------------------------------- */

static int active_route_mpfi(dvc_lvi_solver_t s, const dvc_ivec_t q, const int *act, dvc_ivec_t y)
{
    lvi_ws *w = s->ws;
    long m = s->m, k = 0;
    dvc_imat_struct A;
    dvc_ivec_struct b, x;
    for (long i = 0; i < m; i++) {
        if (act[i] < 0) mpfi_set(w->Y->e[i], s->l->e[i]);
        else if (act[i] > 0) mpfi_set(w->Y->e[i], s->u->e[i]);
        else {
            w->idx[k++] = i;
            mpfi_set_ui(w->Y->e[i], 0);
        }
    }
    if (k > 0) {
        /* successive calls (DLVI steps) mostly keep the free set: M_FF is
         * then still in apool */
        int same = k == w->pk && memcmp(w->idx, w->pidx, (size_t)k * sizeof(long)) == 0;
        mat_view(&A, w->apool, k);
        vec_view(&b, w->bpool, k);
        vec_view(&x, w->xpool, k);
        for (long a = 0; a < k; a++) {
            long i = w->idx[a];
            row_dot(w, b.e[a], s->M, i, w->Y, q); /* free entries of Y are 0 here */
            mpfi_neg(b.e[a], b.e[a]);
            if (!same)
                for (long c = 0; c < k; c++) mpfi_set(dvc_imat_entry(&A, a, c), dvc_imat_entry(s->M, i, w->idx[c]));
        }
        if (!same) {
            memcpy(w->pidx, w->idx, (size_t)k * sizeof(long));
            w->pk = k;
        }
        if (dvc_imat_solve_inv_(&x, &A, &b) != DVC_OK) return 0;
        for (long a = 0; a < k; a++) {
            long i = w->idx[a];
            /* y_i in [l_i, u_i] for every l, u in their intervals */
            if (mpfr_cmp(&x.e[a]->left, &s->l->e[i]->right) < 0) return 0;
            if (mpfr_cmp(&x.e[a]->right, &s->u->e[i]->left) > 0) return 0;
            mpfi_set(w->Y->e[i], x.e[a]);
        }
    }
    for (long i = 0; i < m; i++) {
        if (act[i] == 0) continue;
        row_dot(w, w->t, s->M, i, w->Y, q);
        if (act[i] < 0 && !dvc_ival_is_nonneg(w->t)) return 0;
        if (act[i] > 0 && !dvc_ival_is_nonpos(w->t)) return 0;
    }
    dvc_ivec_set(y, w->Y);
    return 1;
}

static int active_route(dvc_lvi_solver_t s, const dvc_ivec_t q, const int *act, dvc_ivec_t y)
{
    int r = active_route_dd(s, q, act, y);
    if (r >= 0) return r;
    ws_mpfi(s->ws, s->m);
    return active_route_mpfi(s, q, act, y);
}

/* ---- route 2/3: vertex enumeration ------------------------------------ */

/* Z = M v + q, R = mid(v - l, v - u, Z), S = v - Z; f <- ||R|| (up). */
static void residual(dvc_lvi_solver_t s, const dvc_ivec_t q, const double *v)
{
    lvi_ws *w = s->ws;
    long m = s->m;
    mpfi_ptr a = w->ta, b = w->tb;
    mpfr_set_zero(w->f, 1);
    for (long i = 0; i < m; i++) {
        mpfi_t *z = &w->Z->e[i];
        mpfi_set(*z, q->e[i]);
        for (long j = 0; j < m; j++) {
            if (v[j] == 0) continue;
            mpfi_mul_d(w->t2, dvc_imat_entry(s->M, i, j), v[j]);
            mpfi_add(*z, *z, w->t2);
        }
        mpfi_d_sub(w->S->e[i], v[i], *z);
        /* v - l with l = -inf is +inf: MPFI gives [+inf, +inf] */
        if (mpfr_inf_p(&s->l->e[i]->left)) mpfi_set_d(a, INFINITY);
        else mpfi_d_sub(a, v[i], s->l->e[i]);
        if (mpfr_inf_p(&s->u->e[i]->right)) mpfi_set_d(b, -INFINITY);
        else mpfi_d_sub(b, v[i], s->u->e[i]);
        /* the median is nondecreasing in each argument */
        mpfr_set(&w->R->e[i]->left, med3(&a->left, &b->left, &(*z)->left), MPFR_RNDD);
        mpfr_set(&w->R->e[i]->right, med3(&a->right, &b->right, &(*z)->right), MPFR_RNDU);
        dvc_ival_mag(w->f2, w->R->e[i]);
        /* mpfr_max drops a NaN operand; a NaN residual must stay visible */
        if (mpfr_nan_p(w->f2)) mpfr_set_nan(w->f);
        else if (!mpfr_nan_p(w->f)) mpfr_max(w->f, w->f, w->f2, MPFR_RNDU);
    }
}

/* Classify every kink for the box Y = v + E (E = NULL: Y = {v}):
 * dfix 1 (P' = 1 on T_i), 0 (P' = 0), 2 ambiguous; returns #ambiguous. */
static long classify(dvc_lvi_solver_t s, int use_E)
{
    lvi_ws *w = s->ws;
    long m = s->m, namb = 0;
    mpfr_ptr lo = w->lo, hi = w->hi;
    for (long i = 0; i < m; i++) {
        /* T_i = hull(s_i(v), s_i(y)), s(y) - s(v) = E - M E */
        mpfr_set(lo, &w->S->e[i]->left, MPFR_RNDD);
        mpfr_set(hi, &w->S->e[i]->right, MPFR_RNDU);
        if (use_E) {
            row_dot(w, w->t, s->M, i, w->E, NULL);
            mpfi_sub(w->t, w->E->e[i], w->t);
            if (mpfr_sgn(&w->t->left) < 0) mpfr_add(lo, lo, &w->t->left, MPFR_RNDD);
            if (mpfr_sgn(&w->t->right) > 0) mpfr_add(hi, hi, &w->t->right, MPFR_RNDU);
        }
        if (mpfr_greater_p(lo, &s->l->e[i]->right) && mpfr_less_p(hi, &s->u->e[i]->left))
            w->dfix[i] = 1;
        else if (mpfr_less_p(hi, &s->l->e[i]->left) || mpfr_greater_p(lo, &s->u->e[i]->right))
            w->dfix[i] = 0;
        else {
            w->dfix[i] = 2;
            w->amb[namb++] = i;
        }
    }
    return namb;
}

/* X <- hull over the vertices of { (I - D + DM)^{-1} R }; 0 on failure. */
static int vertex_hull(dvc_lvi_solver_t s, long namb, long *nsolves)
{
    lvi_ws *w = s->ws;
    long m = s->m;
    dvc_imat_struct A;
    dvc_ivec_struct b, x;
    w->pk = -1; /* apool is overwritten below */
    for (unsigned long mask = 0; mask < (1ul << namb); mask++) {
        long k = 0;
        for (long a = 0; a < namb; a++) w->dfix[w->amb[a]] = (int)((mask >> a) & 1ul) + 10;
        /* rows with d_i = 0 are identity rows: x_i = R_i; the others M_i x = R_i */
        for (long i = 0; i < m; i++) {
            int d = w->dfix[i] >= 10 ? w->dfix[i] - 10 : w->dfix[i];
            if (d == 1) w->jdx[k++] = i;
            else mpfi_set(w->W->e[i], w->R->e[i]);
        }
        for (long a = 0; a < k; a++) mpfi_set_ui(w->W->e[w->jdx[a]], 0);
        if (k > 0) {
            mat_view(&A, w->apool, k);
            vec_view(&b, w->bpool, k);
            vec_view(&x, w->xpool, k);
            for (long a = 0; a < k; a++) {
                long i = w->jdx[a];
                row_dot(w, b.e[a], s->M, i, w->W, NULL); /* M_JK R_K */
                mpfi_sub(b.e[a], w->R->e[i], b.e[a]);
                for (long c = 0; c < k; c++)
                    mpfi_set(dvc_imat_entry(&A, a, c), dvc_imat_entry(s->M, i, w->jdx[c]));
            }
            (*nsolves)++;
            if (dvc_imat_solve_inv_(&x, &A, &b) != DVC_OK) {
                for (long a = 0; a < namb; a++) w->dfix[w->amb[a]] = 2;
                return 0;
            }
            for (long a = 0; a < k; a++) mpfi_set(w->W->e[w->jdx[a]], x.e[a]);
        }
        if (mask == 0) dvc_ivec_set(w->X, w->W);
        else dvc_ivec_hull(w->X, w->X, w->W);
    }
    for (long a = 0; a < namb; a++) w->dfix[w->amb[a]] = 2;
    return 1;
}

/* N <- v - X (not clipped to [l, u]: the inclusion test N in Y needs the
 * whole image of the fixed-point map) */
static void newton_image(dvc_lvi_solver_t s, const double *v)
{
    lvi_ws *w = s->ws;
    for (long i = 0; i < s->m; i++) mpfi_d_sub(w->N->e[i], v[i], w->X->e[i]);
}

/* y <- N intersected with [l, u] (the solution lies in both) */
static void set_clipped(dvc_lvi_solver_t s, dvc_ivec_t y)
{
    lvi_ws *w = s->ws;
    for (long i = 0; i < s->m; i++) {
        mpfi_set(y->e[i], w->N->e[i]);
        if (mpfr_less_p(&y->e[i]->left, &s->l->e[i]->left))
            mpfr_set(&y->e[i]->left, &s->l->e[i]->left, MPFR_RNDD);
        if (mpfr_greater_p(&y->e[i]->right, &s->u->e[i]->right))
            mpfr_set(&y->e[i]->right, &s->u->e[i]->right, MPFR_RNDU);
    }
}

static int subset(const dvc_ivec_t a, const dvc_ivec_t b)
{
    for (long i = 0; i < a->n; i++)
        if (mpfr_less_p(&a->e[i]->left, &b->e[i]->left) || mpfr_greater_p(&a->e[i]->right, &b->e[i]->right))
            return 0;
    return 1;
}

/* E <- Y - v */
static void set_E(dvc_lvi_solver_t s, const double *v)
{
    lvi_ws *w = s->ws;
    for (long i = 0; i < s->m; i++) mpfi_sub_d(w->E->e[i], w->Y->e[i], v[i]);
}

/* Route 2: no a-priori ball; existence in Y from N(Y) inside Y. */
static int vertex_route(dvc_lvi_solver_t s, const double *v, dvc_lvi_result_t r)
{
    lvi_ws *w = s->ws;
    long m = s->m, namb = classify(s, 0);
    if (namb > s->vertex_max) return 0;
    if (!vertex_hull(s, namb, &r->vertices)) return 0;
    newton_image(s, v);
    /* candidate Y: hull(N, v) widened by a tenth of its width */
    for (long i = 0; i < m; i++) {
        mpfi_put_d(w->N->e[i], v[i]);
        mpfi_set(w->Y->e[i], w->N->e[i]);
    }
    for (int it = 0; it < 4; it++) {
        for (long i = 0; i < m; i++) {
            mpfi_diam_abs(w->f, w->Y->e[i]);
            mpfr_mul_d(w->f, w->f, 0.125, MPFR_RNDU);
            mpfr_sub(&w->Y->e[i]->left, &w->Y->e[i]->left, w->f, MPFR_RNDD);
            mpfr_add(&w->Y->e[i]->right, &w->Y->e[i]->right, w->f, MPFR_RNDU);
        }
        set_E(s, v);
        namb = classify(s, 1);
        r->ambiguous = namb;
        if (namb > s->vertex_max) return 0;
        if (!vertex_hull(s, namb, &r->vertices)) return 0;
        newton_image(s, v);
        if (subset(w->N, w->Y)) {
            set_clipped(s, r->y);
            for (long i = 0; i < m; i++) r->active[i] = w->dfix[i] == 2 ? 2 : w->dfix[i] == 1 ? 0 : (mpfr_cmp_d(&w->S->e[i]->left, s->ud[i]) > 0 ? 1 : -1);
            return 1;
        }
        dvc_ivec_hull(w->Y, w->Y, w->N);
    }
    return 0;
}

/* Route 3: alpha ball, then the vertex contraction inside it. */
static int residual_route(dvc_lvi_solver_t s, const double *v, dvc_lvi_result_t r)
{
    lvi_ws *w = s->ws;
    long m = s->m, namb;
    if (!mpfr_number_p(w->f)) return 0;
    mpfr_mul(w->f2, s->alpha_hi, w->f, MPFR_RNDU);
    for (long i = 0; i < m; i++) {
        mpfi_set_d(w->Y->e[i], v[i]);
        mpfr_sub(&w->Y->e[i]->left, &w->Y->e[i]->left, w->f2, MPFR_RNDD);
        mpfr_add(&w->Y->e[i]->right, &w->Y->e[i]->right, w->f2, MPFR_RNDU);
        if (mpfr_less_p(&w->Y->e[i]->left, &s->l->e[i]->left))
            mpfr_set(&w->Y->e[i]->left, &s->l->e[i]->left, MPFR_RNDD);
        if (mpfr_greater_p(&w->Y->e[i]->right, &s->u->e[i]->right))
            mpfr_set(&w->Y->e[i]->right, &s->u->e[i]->right, MPFR_RNDU);
    }
    dvc_ivec_set(r->y, w->Y);
    set_E(s, v);
    namb = classify(s, 1);
    r->ambiguous = namb;
    for (long i = 0; i < m; i++) r->active[i] = 2;
    if (namb > s->vertex_max || !vertex_hull(s, namb, &r->vertices)) return 1;
    newton_image(s, v);
    /* y* is in Y (alpha) and hence in N(Y): intersect */
    for (long i = 0; i < m; i++) {
        mpfi_t *y = &r->y->e[i];
        if (mpfr_greater_p(&w->N->e[i]->left, &(*y)->left)) mpfr_set(&(*y)->left, &w->N->e[i]->left, MPFR_RNDD);
        if (mpfr_less_p(&w->N->e[i]->right, &(*y)->right)) mpfr_set(&(*y)->right, &w->N->e[i]->right, MPFR_RNDU);
    }
    return 1;
}

/* Active set of a guess by the median rule (in doubles; only a choice of
 * what to prove). 0 when the guess is unusable. */
static int guess_piece(dvc_lvi_solver_t s, const double *g)
{
    lvi_ws *w = s->ws;
    long m = s->m;
    for (long i = 0; i < m; i++)
        if (!isfinite(g[i])) return 0;
    for (long i = 0; i < m; i++) {
        double z = w->qd[i], a = g[i] - s->ld[i], b = g[i] - s->ud[i];
        for (long j = 0; j < m; j++) z += s->Md[i * m + j] * g[j];
        w->act[i] = z >= a ? -1 : z <= b ? 1 : 0;
        w->v[i] = w->act[i] < 0 ? s->ld[i] : w->act[i] > 0 ? s->ud[i] : g[i];
    }
    return 1;
}

static dvc_status dvc_lvi_solve_rn(dvc_lvi_result_t r, dvc_lvi_solver_t s, const dvc_ivec_t q,
                                   const double *guess)
{
    lvi_ws *w = s->ws;
    long m = s->m;
    dvc_status pst, ast;
    if (w == NULL || m <= 0) return dvc_error(DVC_ERR_INPUT, "lvi: solver is not initialised");
    if (q->n != m) return dvc_error(DVC_ERR_INPUT, "lvi: q has %ld entries, M is %ld x %ld", q->n, m, m);
    if (r->y->n != m) return dvc_error(DVC_ERR_INPUT, "lvi: result has %ld entries, expected %ld", r->y->n, m);
    for (long i = 0; i < m; i++) {
        if (!dvc_ival_is_finite(q->e[i]))
            return dvc_error(DVC_ERR_INPUT, "lvi: q entry %ld is NaN or infinite", i + 1);
        w->qd[i] = dvc_ival_mid_d(q->e[i]);
    }
    r->route = DVC_LVI_ROUTE_NONE;
    r->ambiguous = r->vertices = 0;
    if (guess && guess_piece(s, guess) && active_route(s, q, w->act, r->y)) {
        /* warm start (the DLVI engine passes the previous step): the guess's
         * piece is proven directly, no predictor run */
        r->route = DVC_LVI_ROUTE_ACTIVE_SET;
        r->pred_status = DVC_OK;
        memcpy(r->pred, w->v, (size_t)m * sizeof(double));
        memcpy(r->active, w->act, (size_t)m * sizeof(int));
        mpfr_set_zero(r->resid, 1);
        return DVC_OK;
    }
    pst = dvc_lvi_predict_ws(&w->pw, w->v, w->act, s->Md, w->qd, s->ld, s->ud, m, guess);
    if (pst != DVC_OK && pst != DVC_NOT_CERTIFIED) return pst;
    r->pred_status = pst;
    memcpy(r->pred, w->v, (size_t)m * sizeof(double));
    /* the predictor returns active entries exactly at (the midpoints of) the
     * bounds: the certified piece uses the interval bounds themselves */
    if (active_route(s, q, w->act, r->y)) {
        r->route = DVC_LVI_ROUTE_ACTIVE_SET;
        memcpy(r->active, w->act, (size_t)m * sizeof(int));
        mpfr_set_zero(r->resid, 1);
        return DVC_OK;
    }
    ws_mpfi(w, m);
    residual(s, q, w->v);
    mpfr_set(r->resid, w->f, MPFR_RNDU);
    if (vertex_route(s, w->v, r)) {
        r->route = DVC_LVI_ROUTE_VERTEX;
        return DVC_OK;
    }
    ast = dvc_lvi_solver_alpha(s);
    if (ast != DVC_OK)
        return dvc_error(DVC_NOT_CERTIFIED,
                         "lvi: active-set and vertex routes failed%s, and %s",
                         pst == DVC_OK ? "" : " (predictor found no consistent piece)", s->alpha_msg);
    residual(s, q, w->v); /* the vertex attempt used w->f as scratch */
    if (!residual_route(s, w->v, r) || !dvc_ivec_is_finite(r->y))
        return dvc_error(DVC_NOT_CERTIFIED,
                         "lvi: residual route: the residual bound or the enclosure is not finite "
                         "(no information)");
    r->route = DVC_LVI_ROUTE_RESIDUAL;
    return DVC_OK;
}

dvc_status dvc_lvi_solver_init2(dvc_lvi_solver_t s, const dvc_imat_t M, const dvc_ivec_t l,
                                const dvc_ivec_t u, mpfr_prec_t prec)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = solver_init_rn(s, M, l, u, prec);
    dvc_rnd_restore(saved);
    return st;
}

dvc_status dvc_lvi_solver_init(dvc_lvi_solver_t s, const dvc_imat_t M, const dvc_ivec_t l,
                               const dvc_ivec_t u)
{
    return dvc_lvi_solver_init2(s, M, l, u, dvc_prec_get());
}

dvc_status dvc_lvi_solve(dvc_lvi_result_t r, dvc_lvi_solver_t s, const dvc_ivec_t q,
                         const double *guess)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = dvc_lvi_solve_rn(r, s, q, guess);
    dvc_rnd_restore(saved);
    return st;
}
