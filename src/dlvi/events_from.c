/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The certified error of a trajectory of another tool against the exact
 * DLVI solution of the events route (include/dvicert/events.h,
 * docs/from_events.md): two-sided at the samples from the tube, one-sided
 * between them from the interpolation error of x, which is C^1 with a
 * Lipschitz derivative (y is Lipschitz in (x, t) for a P-matrix M). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dlvi/events_from.h"
#include "dvicert/events.h"

void dvc_dlvi_events_from_init(dvc_dlvi_events_from *f) { memset(f, 0, sizeof *f); }

void dvc_dlvi_events_from_clear(dvc_dlvi_events_from *f)
{
    free(f->t);
    free(f->p);
    free(f->lo);
    free(f->hi);
    free(f->up);
    memset(f, 0, sizeof *f);
}

/* Sample k (time tk, n values p, the previous time tp) as the route takes
 * it: finite, in [t0, T], after the previous one. */
static dvc_status check_sample(long n, long k, double tk, double tp, const double *p, const mpfr_t t0,
                               const mpfr_t T)
{
    if (!isfinite(tk)) return dvc_error(DVC_ERR_INPUT, "trajectory: sample %ld: time is not finite", k + 1);
    if (mpfr_cmp_d(t0, tk) > 0 || mpfr_cmp_d(T, tk) < 0)
        return dvc_error(DVC_ERR_INPUT, "trajectory: sample %ld: time %.17g outside [%.17g, %.17g] (the "
                         "tube of the exact solution ends at T)", k + 1, tk, mpfr_get_d(t0, MPFR_RNDN),
                         mpfr_get_d(T, MPFR_RNDN));
    if (k > 0 && !(tk > tp)) return dvc_error(DVC_ERR_INPUT, "trajectory: sample %ld: times must increase", k + 1);
    for (long j = 0; j < n; j++)
        if (!isfinite(p[j])) return dvc_error(DVC_ERR_INPUT, "trajectory: sample %ld: x%ld is not finite", k + 1, j + 1);
    return DVC_OK;
}

static dvc_status few(long ns)
{
    return dvc_error(DVC_ERR_INPUT, "trajectory: %ld sample%s, at least 2 needed", ns, ns == 1 ? "" : "s");
}

dvc_status dvc_efrom_samples_check_(long n, long ns, dvc_efrom_src src, void *ctx, double *p, const mpfr_t t0,
                                    const mpfr_t T)
{
    double tk = 0, tp = 0;
    dvc_status st = ns < 2 ? few(ns) : DVC_OK;
    for (long k = 0; st == DVC_OK && k < ns; k++, tp = tk)
        if ((st = src(ctx, k, &tk, p)) == DVC_OK) st = check_sample(n, k, tk, tp, p, t0, T);
    return st;
}

dvc_status dvc_dlvi_events_from_set(dvc_dlvi_events_from *f, long n, long ns, const double *t,
                                    const double *p, const mpfr_t t0, const mpfr_t T)
{
    dvc_status st;
    dvc_dlvi_events_from_clear(f);
    if (ns < 2) return few(ns);
    for (long k = 0; k < ns; k++)
        if ((st = check_sample(n, k, t[k], k ? t[k - 1] : 0, p + k * n, t0, T)) != DVC_OK) return st;
    f->t = malloc((size_t)ns * sizeof *f->t);
    f->p = malloc((size_t)(ns * n) * sizeof *f->p);
    if (!f->t || !f->p) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    memcpy(f->t, t, (size_t)ns * sizeof *t);
    memcpy(f->p, p, (size_t)(ns * n) * sizeof *p);
    f->n = n;
    f->ns = ns;
    return DVC_OK;
}

/* The workspace of one pass over the samples. */
typedef struct {
    const dvc_hybrid_model_struct *m;
    const dvc_hybrid_result_struct *r;
    long n, ev, *modes, nmodes;
    double *buf, *p0, *p1, *lo0, *hi0, *lo1, *hi1, *up; /* rows k and k + 1 (n each) */
    dvc_ivec_t X0, X1, B, XJ, F, G, D, Dh, du, E0, E1;
    mpfi_t J, h, tk, a, b, c, s;
} fw_t;

static void fw_init(fw_t *w, const dvc_hybrid_model_struct *m, const dvc_hybrid_result_struct *r)
{
    mpfr_prec_t pr = r->prec > 64 ? r->prec : 64;
    long n = m->n;
    memset(w, 0, sizeof *w);
    w->m = m;
    w->r = r;
    w->n = n;
    w->modes = malloc((size_t)(m->nmodes > 0 ? m->nmodes : 1) * sizeof *w->modes);
    w->buf = malloc((size_t)(7 * (n > 0 ? n : 1)) * sizeof *w->buf);
    if (w->buf) {
        double *b[7];
        for (int q = 0; q < 7; q++) b[q] = w->buf + q * (n > 0 ? n : 1);
        w->p0 = b[0], w->p1 = b[1], w->lo0 = b[2], w->hi0 = b[3], w->lo1 = b[4], w->hi1 = b[5], w->up = b[6];
    }
    dvc_ivec_init2(w->X0, n, pr);
    dvc_ivec_init2(w->X1, n, pr);
    dvc_ivec_init2(w->B, n, pr);
    dvc_ivec_init2(w->XJ, n, pr);
    dvc_ivec_init2(w->F, n, pr);
    dvc_ivec_init2(w->G, n, pr);
    dvc_ivec_init2(w->D, n, pr);
    dvc_ivec_init2(w->Dh, n, pr);
    dvc_ivec_init2(w->du, m->nu > 0 ? m->nu : 1, pr);
    dvc_ivec_init2(w->E0, n, pr);
    dvc_ivec_init2(w->E1, n, pr);
    mpfi_init2(w->J, pr);
    mpfi_init2(w->h, pr);
    mpfi_init2(w->tk, pr);
    mpfi_init2(w->a, pr);
    mpfi_init2(w->b, pr);
    mpfi_init2(w->c, pr);
    mpfi_init2(w->s, pr);
}

static void fw_clear(fw_t *w)
{
    free(w->modes);
    free(w->buf);
    dvc_ivec_clear(w->X0);
    dvc_ivec_clear(w->X1);
    dvc_ivec_clear(w->B);
    dvc_ivec_clear(w->XJ);
    dvc_ivec_clear(w->F);
    dvc_ivec_clear(w->G);
    dvc_ivec_clear(w->D);
    dvc_ivec_clear(w->Dh);
    dvc_ivec_clear(w->du);
    dvc_ivec_clear(w->E0);
    dvc_ivec_clear(w->E1);
    mpfi_clear(w->J);
    mpfi_clear(w->h);
    mpfi_clear(w->tk);
    mpfi_clear(w->a);
    mpfi_clear(w->b);
    mpfi_clear(w->c);
    mpfi_clear(w->s);
}

static void add_mode(fw_t *w, long md)
{
    for (long q = 0; q < w->nmodes; q++)
        if (w->modes[q] == md) return;
    w->modes[w->nmodes++] = md;
}

/* The patterns the solution may be in on (t_k, t_k+1) = J: the modes of
 * the steps meeting it and both modes of the events whose time enclosure
 * meets it. An ambiguity window on J: not certified. */
static dvc_status modes_on(fw_t *w, double t0, double t1)
{
    const dvc_hybrid_result_struct *r = w->r;
    long lo = 0, hi = r->nsteps;
    w->nmodes = 0;
    while (hi - lo > 1) {
        long mid = (lo + hi) / 2;
        if (mpfr_cmp_d(r->t[mid], t0) <= 0) lo = mid;
        else hi = mid;
    }
    for (long i = lo; i < r->nsteps && mpfr_cmp_d(r->t[i], t1) < 0; i++) {
        if (mpfr_cmp_d(r->t[i + 1], t0) <= 0) continue;
        for (long q = 0; q < r->nwindows; q++)
            if (r->wstep[q] == i)
                return dvc_error(DVC_NOT_CERTIFIED, "trajectory step [%.17g, %.17g] meets an ambiguity "
                                 "window of the events route (the pattern there is not known)", t0, t1);
        add_mode(w, r->mode[i]);
    }
    while (w->ev < r->nevents && mpfr_cmp_d(&r->ev[w->ev].t->right, t0) < 0) w->ev++;
    for (long e = w->ev; e < r->nevents && mpfr_cmp_d(&r->ev[e].t->left, t1) <= 0; e++) {
        add_mode(w, r->ev[e].mode_before);
        add_mode(w, r->ev[e].mode_after);
    }
    return DVC_OK;
}

static void hull_into(dvc_ivec_t acc, const dvc_ivec_t v, int first)
{
    if (first) dvc_ivec_set(acc, v);
    else dvc_ivec_hull(acc, acc, v);
}

/* The field x' = f_P(t, x) over J x X, hulled over the patterns met. */
static dvc_status field_hull(fw_t *w, dvc_ivec_t out, const dvc_ivec_t X)
{
    dvc_status st = DVC_OK;
    for (long q = 0; st == DVC_OK && q < w->nmodes; q++) {
        st = dvc_hybrid_field(w->G, w->m, w->modes[q], w->J, X);
        if (st == DVC_OK) hull_into(out, w->G, q == 0);
    }
    return st;
}

/* x over J: x(t) = x(t_k) + int x' in X0 + [0, h] F, F the field over an
 * enclosure B of x on J (the tube's), then once more over the result. */
static dvc_status x_over_step(fw_t *w)
{
    dvc_status st = dvc_hybrid_eval(w->B, w->m, w->r, w->J);
    for (int it = 0; st == DVC_OK && it < 2; it++) {
        if ((st = field_hull(w, w->F, it ? w->XJ : w->B)) != DVC_OK) break;
        mpfi_set_ui(w->s, 0);
        mpfi_put(w->s, w->h);
        for (long j = 0; j < w->n; j++) {
            mpfi_mul(w->a, w->s, w->F->e[j]);
            mpfi_add(w->a, w->a, w->X0->e[j]);
            mpfi_intersect(w->XJ->e[j], w->a, it ? w->XJ->e[j] : w->B->e[j]);
            if (mpfi_is_empty(w->XJ->e[j])) return dvc_error(DVC_ERR_INTERNAL, "trajectory: empty enclosure of x");
        }
    }
    return st;
}

/* x'' over J, hulled over the patterns P met: A_P f_P(J, XJ) + b_P'(J)
 * (b_P = Bu_P [1; u(t)] or the mode's expressions of t). */
static dvc_status second_derivative(fw_t *w)
{
    const dvc_hybrid_model_struct *m = w->m;
    dvc_status st = DVC_OK;
    for (long j = 0; j < m->nu && st == DVC_OK; j++) {
        if (m->utab && m->utab[j])
            return dvc_error(DVC_ERR_INPUT, "trajectory: the forcing is a table (its derivative jumps at "
                             "every sample): not bounded in this version");
        st = dvc_expr_eval_d1(w->a, w->du->e[j], m->u[j], w->J);
    }
    for (long q = 0; q < w->nmodes && st == DVC_OK; q++) {
        const dvc_hybrid_mode *md = &m->modes[w->modes[q]];
        if (!md->linear) return dvc_error(DVC_ERR_INPUT, "trajectory: mode %s is not affine", md->name);
        if ((st = dvc_hybrid_field(w->G, m, w->modes[q], w->J, w->XJ)) != DVC_OK) break;
        dvc_imat_mul_vec(w->Dh, md->A, w->G);
        for (long i = 0; i < w->n && st == DVC_OK; i++) {
            if (md->bu) {
                for (long j = 0; j < m->nu; j++) {
                    mpfi_mul(w->a, dvc_imat_entry(md->bu, i, 1 + j), w->du->e[j]);
                    mpfi_add(w->Dh->e[i], w->Dh->e[i], w->a);
                }
            } else if (md->b) {
                st = dvc_expr_eval_d1(w->a, w->b, md->b[i], w->J);
                mpfi_add(w->Dh->e[i], w->Dh->e[i], w->b);
            }
        }
        hull_into(w->D, w->Dh, q == 0);
    }
    return st;
}

/* Upper bound of max over s in [0, 1] of (1-s) a + s b + s (1-s) c. The
 * function is concave for c > 0 with its maximum over the reals
 * a + (c + d)^2 / (4c) (d = b - a) at s* = (c + d) / (2c): used unless s*
 * is proven outside [0, 1], where the maximum is max(a, b). */
static void qmax(mpfr_t out, mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr c, fw_t *w)
{
    mpfr_max(out, a, b, MPFR_RNDU);
    if (mpfr_sgn(c) <= 0 || !mpfr_number_p(c)) {
        if (!mpfr_number_p(c) && mpfr_sgn(c) > 0) mpfr_set_inf(out, 1);
        return;
    }
    mpfi_set_fr(w->tk, b);
    mpfi_sub_fr(w->tk, w->tk, a); /* d */
    mpfi_add_fr(w->tk, w->tk, c); /* c + d */
    mpfi_div_fr(w->s, w->tk, c);
    mpfi_div_2ui(w->s, w->s, 1);  /* s* */
    if (mpfr_sgn(&w->s->right) <= 0 || mpfr_cmp_ui(&w->s->left, 1) >= 0) return;
    mpfi_sqr(w->tk, w->tk);
    mpfi_div_fr(w->tk, w->tk, c);
    mpfi_div_2ui(w->tk, w->tk, 2);
    mpfi_add_fr(w->tk, w->tk, a);
    mpfr_max(out, out, &w->tk->right, MPFR_RNDU);
}

/* E = p_k - x(t_k) (signed, per component) and the sample's bounds (n
 * each) of sample tk, pk. */
static dvc_status sample(fw_t *w, double tk, const double *pk, dvc_ivec_t X, dvc_ivec_t E, double *lo, double *hi)
{
    dvc_status st;
    mpfi_set_d(w->tk, tk);
    if ((st = dvc_hybrid_eval(X, w->m, w->r, w->tk)) != DVC_OK) return st;
    for (long j = 0; j < w->n; j++) {
        mpfi_d_sub(E->e[j], pk[j], X->e[j]);
        mpfi_abs(w->a, E->e[j]);
        lo[j] = mpfr_get_d(&w->a->left, MPFR_RNDD);
        hi[j] = mpfr_get_d(&w->a->right, MPFR_RNDU);
    }
    return DVC_OK;
}

/* The bound over [ta, tb] (E0, E1 the signed errors at its ends) into up
 * (n). */
static dvc_status step(fw_t *w, double ta, double tb, double *up)
{
    dvc_status st;
    mpfr_t u1, u2, a, b, c;
    mpfi_interv_d(w->J, ta, tb);
    mpfi_set_d(w->h, tb);
    mpfi_sub_d(w->h, w->h, ta);
    if ((st = modes_on(w, ta, tb)) != DVC_OK) return st;
    if ((st = x_over_step(w)) != DVC_OK) return st;
    if ((st = second_derivative(w)) != DVC_OK) return st;
    mpfr_inits2(mpfi_get_prec(w->a), u1, u2, a, b, c, (mpfr_ptr)0);
    mpfi_sqr(w->c, w->h);
    mpfi_div_2ui(w->c, w->c, 1); /* h^2 / 2 */
    for (long j = 0; j < w->n; j++) {
        mpfi_mul(w->b, w->c, w->D->e[j]); /* (h^2/2) x''_j */
        qmax(u1, &w->E0->e[j]->right, &w->E1->e[j]->right, &w->b->right, w);
        mpfr_neg(a, &w->E0->e[j]->left, MPFR_RNDU);
        mpfr_neg(b, &w->E1->e[j]->left, MPFR_RNDU);
        mpfr_neg(c, &w->b->left, MPFR_RNDU);
        qmax(u2, a, b, c, w);
        mpfr_max(u1, u1, u2, MPFR_RNDU);
        up[j] = mpfr_get_d(u1, MPFR_RNDU);
    }
    mpfr_clears(u1, u2, a, b, c, (mpfr_ptr)0);
    return DVC_OK;
}

dvc_status dvc_efrom_bound_stream_(long n, long ns, dvc_efrom_src src, void *sctx, dvc_efrom_row row, void *rctx,
                                   const dvc_hybrid_model_struct *m, const dvc_hybrid_result_struct *r)
{
    fw_t w;
    dvc_status st;
    double ta = 0, tb = 0;
    if (n != m->n) return dvc_error(DVC_ERR_INPUT, "trajectory: %ld states, the model has %ld", n, m->n);
    if (!r->certified) return dvc_error(DVC_NOT_CERTIFIED, "trajectory: the events route did not reach T");
    fw_init(&w, m, r);
    st = w.modes && w.buf ? src(sctx, 0, &ta, w.p0) : dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK) st = sample(&w, ta, w.p0, w.X0, w.E0, w.lo0, w.hi0);
    for (long k = 0; st == DVC_OK && k + 1 < ns; k++) {
        double *sw;
        if ((st = src(sctx, k + 1, &tb, w.p1)) != DVC_OK) break;
        if ((st = sample(&w, tb, w.p1, w.X1, w.E1, w.lo1, w.hi1)) != DVC_OK) break;
        if ((st = step(&w, ta, tb, w.up)) != DVC_OK) break;
        if ((st = row(rctx, k, ta, w.p0, w.lo0, w.hi0, w.up)) != DVC_OK) break;
        /* sample k + 1 becomes row k */
        sw = w.p0, w.p0 = w.p1, w.p1 = sw;
        sw = w.lo0, w.lo0 = w.lo1, w.lo1 = sw;
        sw = w.hi0, w.hi0 = w.hi1, w.hi1 = sw;
        ta = tb;
        dvc_ivec_set(w.X0, w.X1);
        dvc_ivec_set(w.E0, w.E1);
    }
    if (st == DVC_OK) st = row(rctx, ns - 1, ta, w.p0, w.lo0, w.hi0, NULL);
    fw_clear(&w);
    return st;
}

/* The samples of f in turn, and their bounds into its arrays. */
static dvc_status arrays_src(void *ctx, long k, double *t, double *p)
{
    const dvc_dlvi_events_from *f = ctx;
    *t = f->t[k];
    memcpy(p, f->p + k * f->n, (size_t)f->n * sizeof *p);
    return DVC_OK;
}

static dvc_status arrays_row(void *ctx, long k, double t, const double *p, const double *lo, const double *hi,
                             const double *up)
{
    dvc_dlvi_events_from *f = ctx;
    size_t sz = (size_t)f->n * sizeof *lo;
    (void)t;
    (void)p;
    memcpy(f->lo + k * f->n, lo, sz);
    memcpy(f->hi + k * f->n, hi, sz);
    if (up) memcpy(f->up + k * f->n, up, sz);
    return DVC_OK;
}

dvc_status dvc_dlvi_events_from_bound(dvc_dlvi_events_from *f, const dvc_hybrid_model_t m,
                                      const dvc_hybrid_result_t r)
{
    long sz = f->ns * f->n;
    free(f->lo);
    free(f->hi);
    free(f->up);
    f->lo = malloc((size_t)(sz > 0 ? sz : 1) * sizeof *f->lo);
    f->hi = malloc((size_t)(sz > 0 ? sz : 1) * sizeof *f->hi);
    f->up = malloc((size_t)(sz > 0 ? sz : 1) * sizeof *f->up);
    if (!f->lo || !f->hi || !f->up) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    return dvc_efrom_bound_stream_(f->n, f->ns, arrays_src, f, arrays_row, f, m, r);
}

dvc_status dvc_dlvi_events_from_check(const dvc_dlvi_events_from *claim, const dvc_hybrid_model_t m,
                                      const dvc_hybrid_result_t r)
{
    dvc_dlvi_events_from re;
    dvc_status st;
    long n = claim->n;
    dvc_dlvi_events_from_init(&re);
    re.n = n;
    re.ns = claim->ns;
    re.t = claim->t;
    re.p = claim->p;
    st = dvc_dlvi_events_from_bound(&re, m, r);
    for (long k = 0; st == DVC_OK && k < claim->ns; k++)
        for (long j = 0; st == DVC_OK && j < n; j++) {
            long i = k * n + j;
            if (!(claim->hi[i] >= re.hi[i]) || !(claim->lo[i] <= re.lo[i]))
                st = dvc_error(DVC_NOT_CERTIFIED, "trajectory sample %ld (t = %.17g), x%ld: claimed error "
                               "[%.17g, %.17g], recomputed [%.17g, %.17g]", k + 1, claim->t[k], j + 1,
                               claim->lo[i], claim->hi[i], re.lo[i], re.hi[i]);
            else if (k + 1 < claim->ns && !(claim->up[i] >= re.up[i]))
                st = dvc_error(DVC_NOT_CERTIFIED, "trajectory step %ld ([%.17g, %.17g]), x%ld: claimed error "
                               "bound %.17g below the recomputed %.17g", k + 1, claim->t[k], claim->t[k + 1],
                               j + 1, claim->up[i], re.up[i]);
        }
    /* the samples are the claim's, not copies */
    re.t = re.p = NULL;
    dvc_dlvi_events_from_clear(&re);
    return st;
}

dvc_status dvc_efrom_spool_open_(dvc_efrom_spool *s, long n)
{
    s->n = n;
    s->ns = 0;
    s->f = tmpfile();
    return s->f ? DVC_OK : dvc_error(DVC_ERR_IO, "trajectory: cannot create a temporary file");
}

dvc_status dvc_efrom_spool_row_(void *ctx, long k, double t, const double *p, const double *lo, const double *hi,
                                const double *up)
{
    dvc_efrom_spool *s = ctx;
    size_t n = (size_t)s->n;
    int bad = k != s->ns || fwrite(&t, sizeof t, 1, s->f) != 1 || fwrite(p, sizeof *p, n, s->f) != n ||
              fwrite(lo, sizeof *lo, n, s->f) != n || fwrite(hi, sizeof *hi, n, s->f) != n;
    for (size_t j = 0; !bad && j < n; j++) {
        double u = up ? up[j] : 0;
        bad = fwrite(&u, sizeof u, 1, s->f) != 1;
    }
    if (bad) return dvc_error(DVC_ERR_IO, "trajectory: cannot write a temporary file");
    s->ns++;
    return DVC_OK;
}

dvc_status dvc_efrom_spool_read_(const dvc_efrom_spool *s, long k, double *row)
{
    size_t w = (size_t)(1 + 4 * s->n);
    if ((k == 0 && (fflush(s->f) != 0 || fseek(s->f, 0, SEEK_SET) != 0)) || k >= s->ns ||
        fread(row, sizeof *row, w, s->f) != w)
        return dvc_error(DVC_ERR_IO, "trajectory: cannot read a temporary file");
    return DVC_OK;
}

void dvc_efrom_spool_close_(dvc_efrom_spool *s)
{
    if (s->f) fclose(s->f);
    memset(s, 0, sizeof *s);
}
