/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The binary64 evaluators of compiled expressions:
 *  - the fast path of 53-bit evaluation: the program runs on binary64
 *    intervals with directed rounding and the rigorous elementary functions
 *    of elem.c; whenever it cannot prove a finite result (a domain
 *    condition, a huge argument, overflow) the caller runs the MPFI
 *    program instead, which also gives the message;
 *  - the plain double evaluator for predictors (libm, round-to-nearest). */
#include "expr/elem.h"
#include "expr/internal.h"
#include "rounding.h"

#include <math.h>
#include <stdlib.h>

struct dvc_expr_fast_s {
    int usable;         /* every literal is a finite binary64 interval */
    dvc_di *cst;        /* literal pool, exact at 53 bits */
    double *pcst;       /* nearest doubles of the literals' midpoints */
    dvc_di *v, *d;      /* value and tangent stacks */
    dvc_di *var, *dvar; /* t, x1..xn and their tangents */
    dvc_di *v0, *var0;  /* the value stack and variables at a second time (dvc_expr_eval_vd1) */
    double *pv;         /* stack of the double evaluator */
};

#define fin dvc_di_fin /* finite, outside the subnormal range (elem.h) */
static int fast_on = 1;
void dvc_expr_fast_enable_(int on) { fast_on = on; }
int dvc_expr_fast_enabled_(void) { return fast_on; }

void dvc_expr_fast_free_(dvc_expr_struct *e)
{
    struct dvc_expr_fast_s *f = e->fast;
    if (!f) return;
    free(f->cst);
    free(f->pcst);
    free(f->v);
    free(f->d);
    free(f->var);
    free(f->dvar);
    free(f->v0);
    free(f->var0);
    free(f->pv);
    free(f);
    e->fast = NULL;
}

dvc_status dvc_expr_fast_alloc_(dvc_expr_struct *e)
{
    size_t nc = (size_t)(e->ncst > 0 ? e->ncst : 1), nd = (size_t)(e->depth > 0 ? e->depth : 1);
    size_t nv = (size_t)e->nvars + 1;
    struct dvc_expr_fast_s *f = calloc(1, sizeof *f);
    dvc_expr_fast_free_(e);
    if (!f) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    e->fast = f;
    f->cst = malloc(nc * sizeof *f->cst);
    f->pcst = malloc(nc * sizeof *f->pcst);
    f->v = malloc(nd * sizeof *f->v);
    f->d = malloc(nd * sizeof *f->d);
    f->var = malloc(nv * sizeof *f->var);
    f->dvar = malloc(nv * sizeof *f->dvar);
    f->pv = malloc(nd * sizeof *f->pv);
    f->v0 = malloc(nd * sizeof *f->v0);
    f->var0 = malloc(nv * sizeof *f->var0);
    if (!f->cst || !f->pcst || !f->v || !f->d || !f->var || !f->dvar || !f->pv || !f->v0 || !f->var0) {
        dvc_expr_fast_free_(e);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    f->usable = e->prec == 53 && dvc_di_available();
    for (long i = 0; i < e->ncst; i++) {
        /* outward: exact when the literal's precision is 53 bits */
        f->cst[i].lo = mpfr_get_d(&e->cst[i]->left, MPFR_RNDD);
        f->cst[i].hi = mpfr_get_d(&e->cst[i]->right, MPFR_RNDU);
        if (!fin(f->cst[i])) f->usable = 0;
        f->pcst[i] = dvc_ival_mid_d(e->cst[i]);
    }
    return DVC_OK;
}

static inline int has0(dvc_di a) { return a.lo <= 0 && a.hi >= 0; }
static inline dvc_di neg(dvc_di a) { dvc_di r = {-a.hi, -a.lo}; return r; }

/* Negation, + - * / and powers (d: with the tangents). 0: done. The
 * helpers of fop are called once each: the compiler inlines them. */
static int fop_arith(const ins_t *in, dvc_di *a, const dvc_di *b, dvc_di *da, const dvc_di *db,
                     int d)
{
    dvc_di t0, t1;
    switch (in->op) {
    case OP_NEG:
        *a = neg(*a);
        if (d) *da = neg(*da);
        break;
    case OP_ADD:
        *a = dvc_di_add(*a, *b);
        if (d) *da = dvc_di_add(*da, *db);
        break;
    case OP_SUB:
        *a = dvc_di_sub(*a, *b);
        if (d) *da = dvc_di_sub(*da, *db);
        break;
    case OP_MUL:
        if (d) *da = dvc_di_add(dvc_di_mul(*da, *b), dvc_di_mul(*a, *db));
        *a = dvc_di_mul(*a, *b);
        break;
    case OP_DIV:
        if (has0(*b)) return 1;
        *a = dvc_di_div(*a, *b);
        if (d) *da = dvc_di_div(dvc_di_sub(*da, dvc_di_mul(*a, *db)), *b);
        break;
    case OP_POWI:
        if (in->arg < 0 && has0(*a)) return 1;
        if (d) {
            if (in->arg == 0) {
                da->lo = da->hi = 0;
            } else {
                if (dvc_di_powi(&t0, *a, in->arg - 1)) return 1;
                t1.lo = t1.hi = (double)in->arg;
                *da = dvc_di_mul(*da, dvc_di_mul(t1, t0));
            }
        }
        if (dvc_di_powi(a, *a, in->arg)) return 1;
        break;
    case OP_POW:
        if (!(a->lo > 0) || dvc_di_log(&t0, *a)) return 1;
        if (d) /* (u^w)' = u^w (w' log u + w u'/u) */
            t1 = dvc_di_add(dvc_di_mul(dvc_di_div(*da, *a), *b), dvc_di_mul(*db, t0));
        if (dvc_di_exp(a, dvc_di_mul(t0, *b))) return 1;
        if (d) *da = dvc_di_mul(*a, t1);
        break;
    default:
        break;
    }
    return 0;
}

/* Elementary functions and abs (d: with the tangents). 0: done. */
static int fop_elem(const ins_t *in, dvc_di *a, dvc_di *da, int d)
{
    dvc_di t0, t1;
    switch (in->op) {
    case OP_SIN:
        /* with the tangent: sin and cos from one reduction of the ends */
        if (d) {
            if (dvc_di_sincos(&t1, &t0, *a)) return 1;
            *da = dvc_di_mul(*da, t0);
            *a = t1;
        } else if (dvc_di_sin(a, *a)) {
            return 1;
        }
        break;
    case OP_COS:
        if (d) {
            if (dvc_di_sincos(&t0, &t1, *a)) return 1;
            *da = dvc_di_mul(*da, neg(t0));
            *a = t1;
        } else if (dvc_di_cos(a, *a)) {
            return 1;
        }
        break;
    case OP_EXP:
        if (dvc_di_exp(a, *a)) return 1;
        if (d) *da = dvc_di_mul(*da, *a);
        break;
    case OP_LOG:
        if (!(a->lo > 0)) return 1;
        if (d) *da = dvc_di_div(*da, *a);
        if (dvc_di_log(a, *a)) return 1;
        break;
    case OP_SQRT:
        if (!(a->lo >= 0) || (d && !(a->lo > 0))) return 1;
        if (dvc_di_sqrt(a, *a)) return 1;
        if (d) {
            if (has0(*a)) return 1;
            *da = dvc_di_div(*da, *a);
            da->lo *= 0.5;
            da->hi *= 0.5;
        }
        break;
    case OP_ATAN:
        if (d) {
            t0 = dvc_di_sqr(*a);
            t0 = dvc_di_add(t0, (dvc_di){1, 1});
            *da = dvc_di_div(*da, t0);
        }
        if (dvc_di_atan(a, *a)) return 1;
        break;
    case OP_TANH:
        if (dvc_di_tanh(a, *a)) return 1;
        if (d) *da = dvc_di_mul(*da, dvc_di_sub((dvc_di){1, 1}, dvc_di_sqr(*a)));
        break;
    case OP_SINH:
        if (d) {
            if (dvc_di_cosh(&t0, *a)) return 1;
            *da = dvc_di_mul(*da, t0);
        }
        if (dvc_di_sinh(a, *a)) return 1;
        break;
    case OP_COSH:
        if (d) {
            if (dvc_di_sinh(&t0, *a)) return 1;
            *da = dvc_di_mul(*da, t0);
        }
        if (dvc_di_cosh(a, *a)) return 1;
        break;
    case OP_ABS:
        /* derivative as the MPFI program: u' where u > 0, -u' where u < 0,
         * otherwise (0 included, even at an end) [-mag u', mag u'] */
        if (d && !(a->lo > 0)) {
            if (a->hi < 0) {
                *da = neg(*da);
            } else {
                double m = fabs(da->lo) > fabs(da->hi) ? fabs(da->lo) : fabs(da->hi);
                da->lo = -m;
                da->hi = m;
            }
        }
        if (a->lo >= 0) break;
        if (a->hi <= 0) {
            *a = neg(*a);
        } else {
            a->hi = -a->lo > a->hi ? -a->lo : a->hi;
            a->lo = 0;
        }
        break;
    default:
        break;
    }
    return 0;
}

/* min and max: the operand below the other everywhere, else the hull. */
static void fop_minmax(const ins_t *in, dvc_di *a, const dvc_di *b, dvc_di *da, const dvc_di *db,
                       int d)
{
    int ismin = in->op == OP_MIN;
    int a_below = a->hi < b->lo, b_below = b->hi < a->lo;
    if ((ismin && b_below) || (!ismin && a_below)) {
        *a = *b;
        if (d) *da = *db;
    } else if ((ismin && a_below) || (!ismin && b_below)) {
        /* a holds the result */
    } else {
        if (ismin) {
            a->lo = a->lo < b->lo ? a->lo : b->lo;
            a->hi = a->hi < b->hi ? a->hi : b->hi;
        } else {
            a->lo = a->lo > b->lo ? a->lo : b->lo;
            a->hi = a->hi > b->hi ? a->hi : b->hi;
        }
        if (d) {
            da->lo = da->lo < db->lo ? da->lo : db->lo;
            da->hi = da->hi > db->hi ? da->hi : db->hi;
        }
    }
}

/* One instruction on the binary64 stacks (FE_UPWARD). 0: done. */
static int fop(const ins_t *in, dvc_di *v, dvc_di *d, long *spp)
{
    long sp = *spp;
    dvc_di *a, *b = NULL, *da = NULL, *db = NULL;
    int binary = in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MUL || in->op == OP_DIV ||
                 in->op == OP_POW || in->op == OP_MIN || in->op == OP_MAX;
    if (binary) {
        a = &v[sp - 2];
        b = &v[sp - 1];
        if (d) {
            da = &d[sp - 2];
            db = &d[sp - 1];
        }
        sp--;
    } else {
        a = &v[sp - 1];
        if (d) da = &d[sp - 1];
    }
    switch (in->op) {
    case OP_NEG: case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_POWI: case OP_POW:
        if (fop_arith(in, a, b, da, db, d != NULL)) return 1;
        break;
    case OP_SIN: case OP_COS: case OP_EXP: case OP_LOG: case OP_SQRT: case OP_ATAN:
    case OP_TANH: case OP_SINH: case OP_COSH: case OP_ABS:
        if (fop_elem(in, a, da, d != NULL)) return 1;
        break;
    case OP_MIN:
    case OP_MAX:
        fop_minmax(in, a, b, da, db, d != NULL);
        break;
    default:
        return 1;
    }
    if (!fin(*a) || (d && !fin(*da))) return 1;
    *spp = sp;
    return 0;
}

/* The program on the variables var (and tangents dvar when deriv). */
static int frun_on(const dvc_expr_struct *e, struct dvc_expr_fast_s *f, int deriv, const dvc_di *var,
                   const dvc_di *dvar)
{
    long sp = 0;
    for (long i = 0; i < e->nins; i++) {
        const ins_t *in = &e->ins[i];
        if (in->op == OP_CONST) {
            f->v[sp] = f->cst[in->arg];
            if (deriv) f->d[sp].lo = f->d[sp].hi = 0;
            sp++;
        } else if (in->op == OP_VAR) {
            f->v[sp] = var[in->arg];
            if (deriv) f->d[sp] = dvar[in->arg];
            sp++;
        } else if (fop(in, f->v, deriv ? f->d : NULL, &sp)) {
            return 1;
        }
    }
    return 0;
}

static int frun(const dvc_expr_struct *e, struct dvc_expr_fast_s *f, int deriv)
{
    return frun_on(e, f, deriv, f->var, f->dvar);
}

int dvc_expr_fast_run_di_(const dvc_expr_struct *e, const dvc_di *var, const dvc_di *dvar, dvc_di *v,
                          dvc_di *d)
{
    struct dvc_expr_fast_s *f = e->fast;
    if (!fast_on || !f || !f->usable || e->nins == 0 || frun_on(e, f, d != NULL, var, dvar)) return 1;
    *v = f->v[0];
    if (d) *d = f->d[0];
    return 0;
}

static int load(dvc_di *out, const mpfi_t x)
{
    out->lo = mpfr_get_d(&x->left, MPFR_RNDD);
    out->hi = mpfr_get_d(&x->right, MPFR_RNDU);
    return fin(*out);
}

static int run_loaded(dvc_expr_struct *e, struct dvc_expr_fast_s *f, int deriv);

int dvc_expr_fast_run_(dvc_expr_struct *e, int deriv)
{
    struct dvc_expr_fast_s *f = e->fast;
    if (!fast_on || !f || !f->usable || e->nins == 0) return 1;
    for (long i = 0; i <= e->nvars; i++) {
        if (!load(&f->var[i], e->var[i])) return 1;
        if (deriv && !load(&f->dvar[i], e->dvar[i])) return 1;
    }
    return run_loaded(e, f, deriv);
}

int dvc_expr_fast_run_tx_(dvc_expr_struct *e, int deriv, const mpfi_t T, const dvc_ivec_struct *X)
{
    struct dvc_expr_fast_s *f = e->fast;
    if (!fast_on || !f || !f->usable || e->nins == 0 || !load(&f->var[0], T)) return 1;
    for (long i = 1; i <= e->nvars; i++) {
        if (X && !load(&f->var[i], X->e[i - 1])) return 1;
        if (!X) f->var[i].lo = f->var[i].hi = 0; /* load_vars' 0 */
    }
    for (long i = 0; deriv && i <= e->nvars; i++)
        if (!load(&f->dvar[i], e->dvar[i])) return 1;
    return run_loaded(e, f, deriv);
}

static int run_loaded(dvc_expr_struct *e, struct dvc_expr_fast_s *f, int deriv)
{
    /* elem.c bounds in x87 long double: both units */
    int saved = dvc_rnd_save_ext();
    dvc_rnd_set_ext(FE_UPWARD);
    int bad = frun(e, f, deriv);
    dvc_rnd_restore_ext(saved);
    if (bad) return 1;
    mpfi_interv_d(e->v[0], f->v[0].lo, f->v[0].hi);
    if (deriv) mpfi_interv_d(e->d[0], f->d[0].lo, f->d[0].hi);
    return 0;
}

/* ---- value at one time and derivative over another, one pass ------------ */

/* The program once over two sets of stacks: values at t0 (v0) and values
 * with tangents over t1 (v, d). The tangent side's last instruction, when
 * it is sin or cos, computes only what the derivative needs (the value of
 * f over t1 is not returned). 0: done. */
static int frun_vd(const dvc_expr_struct *e, struct dvc_expr_fast_s *f)
{
    long sp = 0, sp0 = 0;
    for (long i = 0; i < e->nins; i++) {
        const ins_t *in = &e->ins[i];
        if (in->op == OP_CONST) {
            f->v0[sp0++] = f->cst[in->arg];
            f->v[sp] = f->cst[in->arg];
            f->d[sp].lo = f->d[sp].hi = 0;
            sp++;
        } else if (in->op == OP_VAR) {
            f->v0[sp0++] = f->var0[in->arg];
            f->v[sp] = f->var[in->arg];
            f->d[sp] = f->dvar[in->arg];
            sp++;
        } else {
            if (fop(in, f->v0, NULL, &sp0)) return 1;
            if (i == e->nins - 1 && (in->op == OP_SIN || in->op == OP_COS)) {
                /* (sin u)' = cos(u) u', (cos u)' = -sin(u) u': the same
                 * operations as fop's tangent, without the value */
                dvc_di t0, *a = &f->v[sp - 1], *da = &f->d[sp - 1];
                if (in->op == OP_SIN ? dvc_di_cos(&t0, *a) : dvc_di_sin(&t0, *a)) return 1;
                *da = dvc_di_mul(*da, in->op == OP_SIN ? t0 : neg(t0));
                if (!fin(*da)) return 1;
            } else if (fop(in, f->v, f->d, &sp)) {
                return 1;
            }
        }
    }
    return 0;
}

static int loadd(dvc_di *out, const mpfi_t x)
{
    out->lo = mpfr_get_d(&x->left, MPFR_RNDD);
    out->hi = mpfr_get_d(&x->right, MPFR_RNDU);
    return fin(*out);
}

int dvc_expr_fast_vd_(dvc_expr_struct *e, mpfi_t f0, mpfi_t df1, const mpfi_t T0, const mpfi_t T1)
{
    struct dvc_expr_fast_s *f = e->fast;
    if (!fast_on || !f || !f->usable || e->nins == 0 || e->uses_x || !loadd(&f->var0[0], T0) ||
        !loadd(&f->var[0], T1))
        return 1;
    /* variables besides t do not occur (uses_x == 0): 0, as load_vars */
    for (long i = 1; i <= e->nvars; i++) {
        f->var0[i].lo = f->var0[i].hi = f->var[i].lo = f->var[i].hi = 0;
        f->dvar[i].lo = f->dvar[i].hi = 0;
    }
    f->dvar[0].lo = f->dvar[0].hi = 1;
    /* elem.c bounds in x87 long double: both units */
    int saved = dvc_rnd_save_ext();
    dvc_rnd_set_ext(FE_UPWARD);
    int bad = frun_vd(e, f);
    dvc_rnd_restore_ext(saved);
    if (bad) return 1;
    mpfi_interv_d(f0, f->v0[0].lo, f->v0[0].hi);
    mpfi_interv_d(df1, f->d[0].lo, f->d[0].hi);
    return 0;
}

dvc_status dvc_expr_eval_vd1(mpfi_t f0, mpfi_t df1, const dvc_expr_t e, const mpfi_t T0, const mpfi_t T1)
{
    dvc_status st;
    if (dvc_expr_fast_vd_((dvc_expr_struct *)e, f0, df1, T0, T1) == 0) return DVC_OK;
    /* the two evaluations apart (MPFI where the fast path refuses; the
     * messages of each) */
    st = dvc_expr_eval(f0, e, T0);
    if (st == DVC_OK) st = dvc_expr_eval_d1(NULL, df1, e, T1);
    return st;
}

/* ---- the double evaluator --------------------------------------------- */

double dvc_expr_eval_double(const dvc_expr_t e, double t, const double *x)
{
    const dvc_expr_struct *w = e;
    struct dvc_expr_fast_s *f = w->fast;
    double *v;
    long sp = 0;
    if (!f || w->nins == 0) return NAN;
    v = f->pv;
    for (long i = 0; i < w->nins; i++) {
        const ins_t *in = &w->ins[i];
        double a, b = 0;
        int binary = in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MUL || in->op == OP_DIV ||
                     in->op == OP_POW || in->op == OP_MIN || in->op == OP_MAX;
        if (in->op == OP_CONST) {
            v[sp++] = f->pcst[in->arg];
            continue;
        }
        if (in->op == OP_VAR) {
            v[sp++] = in->arg == 0 ? t : (x ? x[in->arg - 1] : 0.0);
            continue;
        }
        if (in->op == OP_ROOT) return NAN; /* no binary64 rule */
        if (binary) b = v[--sp];
        a = v[sp - 1];
        switch (in->op) {
        case OP_NEG: a = -a; break;
        case OP_ADD: a = a + b; break;
        case OP_SUB: a = a - b; break;
        case OP_MUL: a = a * b; break;
        case OP_DIV: a = b != 0 ? a / b : NAN; break;
        case OP_POWI: a = in->arg == 0 ? 1.0 : pow(a, (double)in->arg); break;
        case OP_POW: a = a > 0 ? pow(a, b) : NAN; break;
        case OP_SIN: a = sin(a); break;
        case OP_COS: a = cos(a); break;
        case OP_EXP: a = exp(a); break;
        case OP_LOG: a = a > 0 ? log(a) : NAN; break;
        case OP_SQRT: a = a >= 0 ? sqrt(a) : NAN; break;
        case OP_ABS: a = fabs(a); break;
        case OP_MIN: a = a < b ? a : b; break;
        case OP_MAX: a = a > b ? a : b; break;
        case OP_ATAN: a = atan(a); break;
        case OP_TANH: a = tanh(a); break;
        case OP_SINH: a = sinh(a); break;
        case OP_COSH: a = cosh(a); break;
        default: return NAN;
        }
        v[sp - 1] = a;
    }
    return isfinite(v[0]) ? v[0] : NAN;
}
