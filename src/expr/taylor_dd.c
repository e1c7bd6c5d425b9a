/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The binary64 route of Taylor mode (dvc_expr_taylor_next_ at 53 bits):
 * the recurrences of taylor.c, operation for operation and in the same
 * order, on the binary64 intervals of elem.c, whose every result is MPFI's
 * at 53 bits (endpoints correctly rounded outward). With the inputs
 * rounded outward to 53 bits as the MPFI route's copies round them, every
 * coefficient is then the MPFI route's bit for bit, as long as nothing
 * leaves the range where binary64 and MPFR round alike: an underflow
 * (a subnormal or flushed product or sum), an overflow or an invalid
 * operation anywhere raises a sticky flag, an elementary function refuses
 * what it cannot prove, and every coefficient must be finite and outside
 * the subnormal range (dvc_di_fin). Any of these, or a domain condition of
 * the MPFI route (a divisor or a log's argument reaching 0), hands the
 * expansion back to the MPFI route, which recomputes it from coefficient
 * 0 and reports its own messages. MPFI's signed zeros (+0 on the left, -0
 * on the right) can differ inside the route, but only in sign: no rule
 * divides by an interval with a zero endpoint, and the output is
 * normalised by mpfi_interv_d. */
#include <stdlib.h>
#include "expr/taylor_ws.h"
#include "fpflags.h"
#include "imat_ld.h"
#include "rounding.h"

/* Series j of instruction p. */
static dvc_di *dser(const struct dvc_expr_taylor_s *w, long p, long j)
{
    return w->dpool + (w->base[p] + j) * (w->cap + 1);
}

static inline dvc_di pt(double v)
{
    dvc_di r = {v, v};
    return r;
}

static inline int has0(dvc_di a) { return a.lo <= 0 && a.hi >= 0; }

/* An operation with a rule below. */
static int dd_rule(int op)
{
    switch (op) {
    case OP_CONST: case OP_VAR: case OP_NEG: case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV:
    case OP_POWI: case OP_POW: case OP_LOG: case OP_SQRT: case OP_EXP: case OP_SIN: case OP_COS:
    case OP_SINH: case OP_COSH: case OP_TANH:
        return 1;
    default:
        return 0;
    }
}

int dvc_expr_taylor_dd_setup_(const dvc_expr_struct *e, struct dvc_expr_taylor_s *w)
{
    long len = w->nser * (w->cap + 1);
    w->dd_ok = w->dd_on = 0;
    w->dd_k = 0;
    free(w->dpool);
    w->dpool = malloc((size_t)(len > 0 ? len : 1) * sizeof *w->dpool);
    if (!w->dpool) return 1;
    int ok = e->prec == 53 && dvc_di_available();
    for (long p = 0; p < e->nins && ok; p++) {
        const ins_t *in = &e->ins[p];
        ok = dd_rule(in->op);
        if (!ok || in->op != OP_CONST) continue;
        /* a literal's series: its value, then exact zeros */
        dvc_di *r = dser(w, p, 0);
        r[0].lo = mpfr_get_d(&e->cst[in->arg]->left, MPFR_RNDD);
        r[0].hi = mpfr_get_d(&e->cst[in->arg]->right, MPFR_RNDU);
        ok = dvc_di_fin(r[0]) && mpfr_cmp_d(&e->cst[in->arg]->left, r[0].lo) == 0 &&
             mpfr_cmp_d(&e->cst[in->arg]->right, r[0].hi) == 0;
        for (long k = 1; k <= w->cap; k++) r[k] = pt(0);
    }
    w->dd_ok = ok;
    return 0;
}

/* Coefficient k of c = a * b (mul_k of taylor.c). */
static void mul_k(dvc_di *c, const dvc_di *a, const dvc_di *b, long k)
{
    dvc_di s = pt(0);
    for (long i = 0; i <= k; i++) s = dvc_di_add(s, dvc_di_mul(a[i], b[k - i]));
    c[k] = s;
}

/* mul_k_const of taylor.c: every coefficient here is finite (bounded). */
static void mul_k_const(dvc_di *c, const dvc_di *a, const dvc_di *b, long k, int ca)
{
    dvc_di t = dvc_di_mul(ca ? a[0] : a[k], ca ? b[k] : b[0]);
    if (dvc_di_fin(t) && t.lo != 0 && t.hi != 0) c[k] = t;
    else mul_k(c, a, b, k);
}

/* div_k (b[0] excludes 0). */
static void div_k(dvc_di *c, const dvc_di *a, const dvc_di *b, long k)
{
    dvc_di t1 = a[k];
    for (long i = 1; i <= k; i++) t1 = dvc_di_sub(t1, dvc_di_mul(b[i], c[k - i]));
    c[k] = dvc_di_div(t1, b[0]);
}

static int exp_k(dvc_di *c, const dvc_di *a, long k)
{
    if (k == 0) return dvc_di_exp(&c[0], a[0]);
    dvc_di t1 = pt(0);
    for (long i = 1; i <= k; i++)
        t1 = dvc_di_add(t1, dvc_di_mul(dvc_di_mul(a[i], c[k - i]), pt((double)i)));
    c[k] = dvc_di_div(t1, pt((double)k));
    return 0;
}

static int sincos_k(dvc_di *s, dvc_di *c, const dvc_di *a, long k)
{
    if (k == 0) return dvc_di_sin(&s[0], a[0]) || dvc_di_cos(&c[0], a[0]);
    dvc_di sk = pt(0), ck = pt(0);
    for (long i = 1; i <= k; i++) {
        sk = dvc_di_add(sk, dvc_di_mul(dvc_di_mul(a[i], c[k - i]), pt((double)i)));
        ck = dvc_di_sub(ck, dvc_di_mul(dvc_di_mul(a[i], s[k - i]), pt((double)i)));
    }
    s[k] = dvc_di_div(sk, pt((double)k));
    c[k] = dvc_di_div(ck, pt((double)k));
    return 0;
}

static int log_k(dvc_di *c, const dvc_di *a, long k)
{
    if (k == 0) return dvc_di_log(&c[0], a[0]);
    dvc_di t1 = dvc_di_mul(a[k], pt((double)k));
    for (long i = 1; i < k; i++)
        t1 = dvc_di_sub(t1, dvc_di_mul(dvc_di_mul(c[i], a[k - i]), pt((double)i)));
    t1 = dvc_di_div(t1, pt((double)k));
    c[k] = dvc_di_div(t1, a[0]);
    return 0;
}

static int sqrt_k(dvc_di *c, const dvc_di *a, long k)
{
    if (k == 0) return dvc_di_sqrt(&c[0], a[0]);
    dvc_di t1 = a[k], t0 = dvc_di_mul(c[0], pt(2));
    for (long i = 1; i < k; i++) t1 = dvc_di_sub(t1, dvc_di_mul(c[i], c[k - i]));
    if (has0(t0)) return 1; /* the MPFI route's quotient is unbounded */
    c[k] = dvc_di_div(t1, t0);
    return 0;
}

static int powi_k(const struct dvc_expr_taylor_s *w, const ins_t *in, long p, dvc_di *r,
                  const dvc_di *a, long k)
{
    long n = in->arg < 0 ? -in->arg : in->arg;
    dvc_di *one = dser(w, p, 1), *pn = dser(w, p, 1 + n);
    one[k] = pt(k == 0 ? 1 : 0);
    for (long j = 1; j <= n; j++) {
        if (j == 1) mul_k_const(dser(w, p, 2), one, a, k, 1);
        else mul_k(dser(w, p, 1 + j), dser(w, p, j), a, k);
    }
    if (in->arg < 0) {
        if (has0(pn[0])) return 1;
        dvc_di *q = dser(w, p, 2 + n);
        div_k(q, one, pn, k);
        pn = q;
    }
    r[k] = pn[k];
    return 0;
}

/* Coefficient k of instruction p (node_k of taylor.c); nonzero: refused. */
static int node_k(const dvc_expr_struct *e, const struct dvc_expr_taylor_s *w, long p, long k)
{
    const ins_t *in = &e->ins[p];
    dvc_di *r = dser(w, p, 0);
    dvc_di *a = w->opa[p] >= 0 ? dser(w, w->opa[p], 0) : NULL;
    dvc_di *b = w->opb[p] >= 0 ? dser(w, w->opb[p], 0) : NULL;
    switch (in->op) {
    case OP_NEG: r[k].lo = -a[k].hi; r[k].hi = -a[k].lo; return 0;
    case OP_ADD: r[k] = dvc_di_add(a[k], b[k]); return 0;
    case OP_SUB: r[k] = dvc_di_sub(a[k], b[k]); return 0;
    case OP_MUL: {
        int ca = e->ins[w->opa[p]].op == OP_CONST;
        if (ca || e->ins[w->opb[p]].op == OP_CONST) mul_k_const(r, a, b, k, ca);
        else mul_k(r, a, b, k);
        return 0;
    }
    case OP_DIV:
        if (has0(b[0])) return 1;
        div_k(r, a, b, k);
        return 0;
    case OP_POWI: return powi_k(w, in, p, r, a, k);
    case OP_POW:
        if (!(a[0].lo > 0) || log_k(dser(w, p, 1), a, k)) return 1;
        mul_k(dser(w, p, 2), dser(w, p, 1), b, k);
        return exp_k(r, dser(w, p, 2), k);
    case OP_LOG: return !(a[0].lo > 0) || log_k(r, a, k);
    case OP_SQRT: return !(a[0].lo > 0) || sqrt_k(r, a, k);
    case OP_EXP: return exp_k(r, a, k);
    case OP_SIN: return sincos_k(r, dser(w, p, 1), a, k);
    case OP_COS: return sincos_k(dser(w, p, 1), r, a, k);
    case OP_SINH:
    case OP_COSH:
    case OP_TANH: {
        dvc_di *ep = dser(w, p, 1), *na = dser(w, p, 2), *em = dser(w, p, 3);
        dvc_di *s2 = dser(w, p, 4), *c2 = dser(w, p, 5);
        if (exp_k(ep, a, k)) return 1;
        na[k].lo = -a[k].hi;
        na[k].hi = -a[k].lo;
        if (exp_k(em, na, k)) return 1;
        s2[k] = dvc_di_sub(ep[k], em[k]);
        c2[k] = dvc_di_add(ep[k], em[k]);
        if (in->op != OP_TANH) {
            r[k] = dvc_di_div(in->op == OP_SINH ? s2[k] : c2[k], pt(2));
            return 0;
        }
        if (has0(c2[0])) return 1;
        div_k(r, s2, c2, k);
        return 0;
    }
    default:
        return 1;
    }
}

int dvc_expr_taylor_dd_next_(mpfi_t out, const dvc_expr_struct *e, mpfi_t *const *vars, long k)
{
    const struct dvc_expr_taylor_s *w = e->taylor;
    /* the variables' coefficient k, rounded outward to 53 bits as the MPFI
     * route's copy (mpfi_set at the expression's precision) rounds it */
    for (long p = 0; p < e->nins; p++) {
        const ins_t *in = &e->ins[p];
        if (in->op != OP_VAR) continue;
        dvc_di *r = dser(w, p, 0);
        r[k].lo = mpfr_get_d(&vars[in->arg][k]->left, MPFR_RNDD);
        r[k].hi = mpfr_get_d(&vars[in->arg][k]->right, MPFR_RNDU);
        if (!dvc_di_fin(r[k])) return 1;
    }
    /* elem.c bounds in x87 long double: both units */
    int saved = dvc_rnd_save_ext(), bad = 0;
    dvc_rnd_set_ext(FE_UPWARD);
    dvc_flag_state fs = dvc_flags_clear();
    for (long p = 0; p < e->nins && !bad; p++) {
        int op = e->ins[p].op;
        if (op == OP_CONST || op == OP_VAR) continue;
        bad = node_k(e, w, p, k) || !dvc_di_fin(dser(w, p, 0)[k]);
    }
    bad |= dvc_flags_raised(fs);
    dvc_rnd_restore_ext(saved);
    if (bad) return 1;
    dvc_di v = dser(w, w->res, 0)[k];
    mpfi_interv_d(out, v.lo, v.hi);
    return 0;
}

/* Coefficient k of the program on the binary64 route with its variables'
 * coefficient k given (var[j]: variable j's series as doubles); the window
 * (FE_UPWARD, flags) is the caller's. 0: done, *v set. */
static int dd_k_on(const dvc_expr_struct *e, dvc_di *const *var, long k, dvc_di *v)
{
    const struct dvc_expr_taylor_s *w = e->taylor;
    for (long p = 0; p < e->nins; p++) {
        const ins_t *in = &e->ins[p];
        if (in->op == OP_VAR) dser(w, p, 0)[k] = var[in->arg][k];
        else if (in->op != OP_CONST && (node_k(e, w, p, k) || !dvc_di_fin(dser(w, p, 0)[k]))) return 1;
    }
    *v = dser(w, w->res, 0)[k];
    return 0;
}

/* load's binary64 interval of a 64-bit x (FE_UPWARD): the outward
 * roundings mpfr_get_d makes. */
static int ld_to_di(dvc_di *d, dvc_li x)
{
    d->lo = -(double)(-x.lo);
    d->hi = (double)x.hi;
    return dvc_di_fin(*d);
}

int dvc_expr_taylor_dd_state_(mpfi_t *const *vars, const dvc_expr_t *f, long n, long K)
{
    enum { NMAX = 8, KMAX = 32 };
    dvc_di vd[NMAX + 1][KMAX + 1], *var[NMAX + 1], v;
    dvc_li x[NMAX][KMAX + 1], t;
    if (n < 1 || n > NMAX || K < 1 || K > KMAX) return 1;
    for (long i = 0; i < n; i++) {
        const struct dvc_expr_taylor_s *w = f[i]->taylor;
        if (!w || !w->dd_on || w->dd_k != 0 || w->cap < K - 1 || f[i]->nvars != n) return 1;
        for (long k = 0; k <= K; k++)
            if (mpfi_get_prec(vars[i + 1][k]) != 64) return 1;
        if (!dvc_li_get_(&x[i][0], vars[i + 1][0]) || !(x[i][0].lo <= x[i][0].hi)) return 1;
    }
    for (long j = 0; j <= n; j++) var[j] = vd[j];
    int saved = dvc_li_begin_(), bad = saved < 0;
    if (bad) return 1;
    dvc_flag_state fs = dvc_flags_clear();
    for (long k = 0; k < K && !bad; k++) /* t's series: the caller's, read as given */
        bad = !dvc_li_get_(&t, vars[0][k]) || !ld_to_di(&vd[0][k], t);
    for (long i = 0; i < n && !bad; i++) bad = !ld_to_di(&vd[i + 1][0], x[i][0]);
    /* x_{k+1} = f_k / (k + 1): mpfi_div_ui at 64 bits of the 53-bit f_k */
    for (long k = 0; k < K && !bad; k++) {
        long double q = (long double)(k + 1);
        for (long i = 0; i < n && !bad; i++) {
            bad = dd_k_on(f[i], var, k, &v);
            if (bad) break;
            x[i][k + 1].lo = -((long double)-v.lo / q);
            x[i][k + 1].hi = (long double)v.hi / q;
        }
        for (long i = 0; i < n && !bad && k + 1 < K; i++) bad = !ld_to_di(&vd[i + 1][k + 1], x[i][k + 1]);
    }
    bad |= dvc_flags_raised(fs);
    bad |= dvc_li_end_(saved);
    for (long i = 0; i < n && !bad; i++)
        for (long k = 1; k <= K && !bad; k++) bad = !dvc_li_put_ok0_(x[i][k]);
    if (bad) return 1;
    for (long i = 0; i < n; i++) {
        for (long k = 1; k <= K; k++) dvc_li_put_(vars[i + 1][k], x[i][k]);
        f[i]->taylor->dd_k = K;
    }
    return 0;
}
