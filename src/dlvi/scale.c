/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Diagonal scaling of the state by powers of two (docs/bounds.md,
 * "Scaling of the state"): the automatic choice and the exact transform of
 * a problem to the variables z = S^-1 x. Both certification routes, the
 * trajectory route and verify use these two functions. */
#include "dlvi/internal.h"
#include "rounding.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Magnitude of an entry as a double (nearest); +inf for an unbounded or
 * NaN entry. Only the choice of s uses it, never a bound. */
static double mag_d(const mpfi_t x)
{
    double a = fabs(mpfr_get_d(&x->left, MPFR_RNDN)), b = fabs(mpfr_get_d(&x->right, MPFR_RNDN));
    if (isnan(a) || isnan(b)) return INFINITY;
    return a > b ? a : b;
}

/* Infinity norm of S^-1 C S for C >= 0 (n x n) and S = diag(2^e). */
static double norm_scaled(const double *C, long n, const long *e)
{
    double nm = 0;
    for (long i = 0; i < n; i++) {
        double s = 0;
        for (long j = 0; j < n; j++) s += ldexp(C[i * n + j], (int)(e[j] - e[i]));
        if (s > nm) nm = s;
    }
    return nm;
}

dvc_status dvc_dlvi_scale_auto(long *e, const dvc_dlvi_problem_t p)
{
    long n = p->n, m = p->m, sweeps;
    double *C, n0, n1;
    int changed = 1, saved;
    for (long j = 0; j < n; j++) e[j] = 0;
    if (n < 2) return DVC_OK;
    if (p->A->r != n || p->A->c != n || p->B->r != n || p->B->c != m || p->Q->r != m || p->Q->c != n)
        return dvc_error(DVC_ERR_INPUT, "scaling: the dimensions of A, B, Q do not fit n = %ld, m = %ld",
                         n, m);
    C = calloc((size_t)(n * n), sizeof *C);
    if (!C) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    /* every sum and comparison below in one rounding mode, so that enclose
     * and verify choose the same s whatever mode their caller left set */
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_TONEAREST);
    /* C = |A| + |B| |Q|: the coupling of the states, the LVI's included
     * (its solution map has slope up to beta_M) */
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            double s = mag_d(p->A->e[i * n + j]);
            for (long k = 0; k < m; k++) s += mag_d(p->B->e[i * m + k]) * mag_d(p->Q->e[k * n + j]);
            C[i * n + j] = s;
        }
    for (long k = 0; k < n * n; k++)
        if (!isfinite(C[k])) changed = 0; /* the validator names the entry */
    n0 = changed ? norm_scaled(C, n, e) : 0;
    /* dgebal's balancing with radix 2: s_i moves until the off-diagonal
     * row and column sums of S^-1 C S are within a factor 4 */
    for (sweeps = 0; changed && sweeps < 64; sweeps++) {
        changed = 0;
        for (long i = 0; i < n; i++) {
            double c = 0, r = 0, c0, r0;
            long k = 0;
            for (long j = 0; j < n; j++) {
                if (j == i) continue;
                c += ldexp(C[j * n + i], (int)(e[i] - e[j]));
                r += ldexp(C[i * n + j], (int)(e[j] - e[i]));
            }
            if (c == 0 || r == 0) continue;
            c0 = c, r0 = r;
            while (4 * c < r && e[i] + k < DVC_DLVI_SCALE_EMAX) c *= 2, r /= 2, k++;
            while (4 * r < c && e[i] + k > -DVC_DLVI_SCALE_EMAX) c /= 2, r *= 2, k--;
            if (k != 0 && c + r < 0.95 * (c0 + r0)) {
                e[i] += k;
                changed = 1;
            }
        }
    }
    n1 = norm_scaled(C, n, e);
    dvc_rnd_restore(saved);
    free(C);
    /* a gain below 4 in the norm of the coupling is not worth stating the
     * tube in other units (and keeps well-scaled problems as they are) */
    if (!(n0 > 0) || !(4 * n1 <= n0)) {
        for (long j = 0; j < n; j++) e[j] = 0;
        return DVC_OK;
    }
    /* only the ratios matter: the smallest s_j is 1 */
    {
        long lo = e[0];
        for (long j = 1; j < n; j++)
            if (e[j] < lo) lo = e[j];
        for (long j = 0; j < n; j++) e[j] -= lo;
    }
    for (long j = 0; j < n; j++)
        if (e[j] > DVC_DLVI_SCALE_EMAX) e[j] = DVC_DLVI_SCALE_EMAX;
    return DVC_OK;
}

int dvc_dlvi_scale_is_identity(const long *e, long n)
{
    for (long j = 0; e && j < n; j++)
        if (e[j] != 0) return 0;
    return 1;
}

/* f of the scaled problem: S^-1 f, around the problem's callback (owned) */
typedef struct {
    dvc_tfun_cb in;
    long n;
    long *e;
    long emin; /* smallest e_j: ||S^-1 v|| <= 2^-emin ||v|| */
} scaled_f;

static void sf_apply(dvc_ivec_t out, const scaled_f *s)
{
    for (long j = 0; j < s->n && j < out->n; j++) mpfi_mul_2si(out->e[j], out->e[j], -s->e[j]);
}

static dvc_status sf_eval(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    scaled_f *s = ctx;
    dvc_status st = s->in.eval(out, t, s->in.ctx);
    if (st == DVC_OK) sf_apply(out, s);
    return st;
}

static dvc_status sf_deriv(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    scaled_f *s = ctx;
    dvc_status st = s->in.deriv(out, t, s->in.ctx);
    if (st == DVC_OK) sf_apply(out, s);
    return st;
}

static dvc_status sf_lip(mpfr_t out, const mpfi_t t, void *ctx)
{
    scaled_f *s = ctx;
    dvc_status st = s->in.lipschitz(out, t, s->in.ctx);
    if (st == DVC_OK) mpfr_mul_2si(out, out, -s->emin, MPFR_RNDU);
    return st;
}

static void sf_eval_d(double *out, double t, void *ctx)
{
    scaled_f *s = ctx;
    s->in.eval_d(out, t, s->in.ctx);
    for (long j = 0; j < s->n; j++) out[j] = ldexp(out[j], (int)-s->e[j]);
}

static void sf_release(void *ctx)
{
    scaled_f *s = ctx;
    if (s->in.release) s->in.release(s->in.ctx);
    free(s->e);
    free(s);
}

dvc_status dvc_dlvi_problem_scale(dvc_dlvi_problem_t p, const long *e)
{
    long n = p->n, m = p->m;
    if (dvc_dlvi_scale_is_identity(e, n)) return DVC_OK;
    for (long j = 0; j < n; j++)
        if (e[j] > DVC_DLVI_SCALE_EMAX || e[j] < -DVC_DLVI_SCALE_EMAX)
            return dvc_error(DVC_ERR_INPUT, "scaling: exponent %ld of state %ld outside [-%d, %d]", e[j],
                             j + 1, DVC_DLVI_SCALE_EMAX, DVC_DLVI_SCALE_EMAX);
    if (p->A->r != n || p->A->c != n || p->B->r != n || p->B->c != m || p->Q->r != m ||
        p->Q->c != n || p->x0->n != n)
        return dvc_error(DVC_ERR_INPUT, "scaling: the dimensions of A, B, Q, x0 do not fit n = %ld, "
                         "m = %ld", n, m);
    if (p->fcb.eval && (!p->fcb.lipschitz || !p->fcb.eval_d))
        return dvc_error(DVC_ERR_INPUT, "scaling: f has no Lipschitz bound or predictor value");
    /* multiplications by powers of two: exact in MPFR (its exponent range
     * is far beyond 2^64) */
    for (long i = 0; i < n; i++) {
        for (long j = 0; j < n; j++) mpfi_mul_2si(p->A->e[i * n + j], p->A->e[i * n + j], e[j] - e[i]);
        for (long k = 0; k < m; k++) mpfi_mul_2si(p->B->e[i * m + k], p->B->e[i * m + k], -e[i]);
        mpfi_mul_2si(p->x0->e[i], p->x0->e[i], -e[i]);
    }
    for (long k = 0; k < m; k++)
        for (long j = 0; j < n; j++) mpfi_mul_2si(p->Q->e[k * n + j], p->Q->e[k * n + j], e[j]);
    if (p->fcb.eval) {
        scaled_f *s = calloc(1, sizeof *s);
        long *ec = malloc((size_t)n * sizeof *ec);
        if (!s || !ec) {
            free(s);
            free(ec);
            return dvc_error(DVC_ERR_NOMEM, "out of memory");
        }
        memcpy(ec, e, (size_t)n * sizeof *ec);
        s->in = p->fcb;
        s->n = n;
        s->e = ec;
        s->emin = e[0];
        for (long j = 1; j < n; j++)
            if (e[j] < s->emin) s->emin = e[j];
        p->fcb.eval = sf_eval;
        p->fcb.lipschitz = sf_lip;
        p->fcb.eval_d = sf_eval_d;
        p->fcb.deriv = s->in.deriv ? sf_deriv : NULL;
        p->fcb.ctx = s;
        p->fcb.release = sf_release;
    }
    return DVC_OK;
}

dvc_status dvc_dlvi_scale_point(double *z, const double *x, const long *e, long n, int inverse)
{
    for (long j = 0; j < n; j++) {
        int k = (int)(inverse ? e[j] : -e[j]);
        double xj = x[j], v = ldexp(xj, k); /* z may be x */
        /* exact unless it overflows or drops bits below the normal range */
        if (isfinite(xj) && (!isfinite(v) || ldexp(v, -k) != xj))
            return dvc_error(DVC_ERR_INPUT, "scaling: state %ld of the predictor (%.17g) is not exactly "
                             "representable after scaling by 2^%d", j + 1, xj, k);
        z[j] = v;
    }
    return DVC_OK;
}
