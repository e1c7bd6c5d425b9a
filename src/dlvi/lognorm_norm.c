/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route: a norm in which the log norms of the piece Jacobians
 * (lognorm_jac.c) are small, chosen in binary64 and then proven in
 * interval arithmetic (docs/lognorm.md, sections 2 and 5). */
#include "dlvi/lognorm_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *dvc_lognorm_kind_name(dvc_lognorm_kind k)
{
    switch (k) {
    case DVC_LOGNORM_DIAG: return "diagonal-weighted inf norm";
    case DVC_LOGNORM_QUAD: return "quadratic norm sqrt(x^T P x)";
    default: return "auto";
    }
}

void dvc_lognorm_opts_default(dvc_lognorm_opts *o)
{
    memset(o, 0, sizeof *o);
    o->norm = DVC_LOGNORM_AUTO;
    o->pieces = 4;
    o->local_mu = 1;
    o->mode_follow = 1;
    o->error_set = 1;
    o->use_deriv = 1;
    o->binary64 = 1;
    o->reuse = 1;
    dvc_dlvi_opts_default(&o->dlvi);
}

void dvc_lognorm_info_init(dvc_lognorm_info_t info)
{
    memset(info, 0, sizeof *info);
    mpfr_inits2(53, info->mu, info->c_inf, info->c_Q, (mpfr_ptr)0);
}

static void info_free_pat(dvc_lognorm_info_t info)
{
    for (long k = 0; k < info->npat; k++) mpfr_clear(info->mu_pat[k]);
    free(info->mu_pat);
    info->mu_pat = NULL;
    info->npat = 0;
}

/* The constants at prec and one slot per pattern (cap of them). */
static dvc_status info_alloc_pat(dvc_lognorm_info_t info, long cap, mpfr_prec_t prec)
{
    mpfr_set_prec(info->mu, prec);
    mpfr_set_prec(info->c_inf, prec);
    mpfr_set_prec(info->c_Q, prec);
    info->mu_pat = malloc((size_t)cap * sizeof(mpfr_t));
    if (!info->mu_pat) return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    for (long k = 0; k < cap; k++) mpfr_init2(info->mu_pat[k], prec);
    info->npat = cap;
    return DVC_OK;
}

void dvc_lognorm_info_clear(dvc_lognorm_info_t info)
{
    info_free_pat(info);
    free(info->w);
    free(info->R);
    free(info->E);
    free(info->dW);
    free(info->mu_step);
    free(info->rad);
    free(info->norm_used);
    free(info->mode_pattern);
    free(info->mode_R);
    mpfr_clears(info->mu, info->c_inf, info->c_Q, (mpfr_ptr)0);
    memset(info, 0, sizeof *info);
}

/* ---- binary64 search -------------------------------------------------- */

/* Largest eigenvalue of the symmetric n x n matrix S (destroyed): cyclic
 * Jacobi. A guess only: the bound is proven afterwards. */
static double sym_maxeig(double *S, long n)
{
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = 0.0, tot = 0.0;
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) {
                tot += S[i * n + j] * S[i * n + j];
                if (i != j) off += S[i * n + j] * S[i * n + j];
            }
        if (off <= 1e-30 * tot || off == 0.0) break;
        for (long pp = 0; pp < n; pp++)
            for (long q = pp + 1; q < n; q++) {
                double apq = S[pp * n + q], app, aqq, th, t, c, s;
                if (apq == 0.0) continue;
                app = S[pp * n + pp];
                aqq = S[q * n + q];
                th = (aqq - app) / (2.0 * apq);
                t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1.0));
                c = 1.0 / sqrt(t * t + 1.0);
                s = t * c;
                for (long k = 0; k < n; k++) {
                    double skp = S[k * n + pp], skq = S[k * n + q];
                    S[k * n + pp] = c * skp - s * skq;
                    S[k * n + q] = s * skp + c * skq;
                }
                for (long k = 0; k < n; k++) {
                    double spk = S[pp * n + k], sqk = S[q * n + k];
                    S[pp * n + k] = c * spk - s * sqk;
                    S[q * n + k] = s * spk + c * sqk;
                }
            }
    }
    double mx = -INFINITY;
    for (long i = 0; i < n; i++) mx = fmax(mx, S[i * n + i]);
    return mx;
}

/* Upper triangular R^{-1} (R upper triangular with nonzero diagonal). */
static void triu_inv(double *Ri, const double *R, long n)
{
    memset(Ri, 0, (size_t)(n * n) * sizeof(double));
    for (long j = 0; j < n; j++) {
        Ri[j * n + j] = 1.0 / R[j * n + j];
        for (long i = j - 1; i >= 0; i--) {
            double s = 0.0;
            for (long k = i + 1; k <= j; k++) s += R[i * n + k] * Ri[k * n + j];
            Ri[i * n + j] = -s / R[i * n + i];
        }
    }
}

/* sym(R J R^{-1}) into C (T: workspace). R and R^{-1} are upper
 * triangular: the sums skip their zeros (adding an exact zero product
 * changes no sum), half the flops. */
static void quad_sym_d(const double *R, const double *Ri, const double *J, long n, double *C, double *T)
{
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            double s = 0.0;
            for (long k = i; k < n; k++) s += R[i * n + k] * J[k * n + j];
            T[i * n + j] = s;
        }
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            double s = 0.0;
            for (long k = 0; k <= j; k++) s += T[i * n + k] * Ri[k * n + j];
            C[i * n + j] = s;
        }
    for (long i = 0; i < n; i++)
        for (long j = i; j < n; j++) {
            double s = 0.5 * (C[i * n + j] + C[j * n + i]);
            C[i * n + j] = C[j * n + i] = s;
        }
}

/* mu_2(R J R^{-1}) in binary64 (Jacobi: the estimates before the proofs). */
static double quad_mu_d(const double *R, const double *Ri, const double *J, long n, double *C, double *T)
{
    quad_sym_d(R, Ri, J, n, C, T);
    return sym_maxeig(C, n);
}

/* From this n on the search's eigenvalues come from sym_maxeig_cut. */
#define LN_TRIDIAG_N 8

/* The number of eigenvalues below x of the symmetric tridiagonal matrix
 * (diagonal d, off-diagonal squares e2): Sturm sequence (LDL^T pivots). */
static long sturm_below(const double *d, const double *e2, long n, double x)
{
    long cnt = 0;
    double q = d[0] - x;
    for (long i = 0;; i++) {
        if (q == 0.0) q = -0x1p-900; /* a zero pivot: perturb (a guess only) */
        if (q < 0.0) cnt++;
        if (i + 1 == n) break;
        q = d[i + 1] - x - e2[i] / q;
    }
    return cnt;
}

/* The largest eigenvalue of the symmetric S (destroyed), for the search:
 * Householder reduction to tridiagonal form (4/3 n^3 flops against the
 * Jacobi sweeps' ~ 8 x 4 n^3) and bisection on Sturm counts. When it is at
 * least cut (one Sturm count tells), cut is returned without the
 * bisection: the search rejects the point anyway. A guess only. */
static double sym_maxeig_cut(double *S, long n, double cut, double *wk)
{
    double *d = wk, *e2 = wk + n, *v = wk + 2 * n, *pw = wk + 3 * n;
    for (long i = 0; i < n * n; i++)
        if (!isfinite(S[i])) return NAN;
    for (long k = 0; k + 2 < n; k++) {
        long m = n - k - 1;
        double nx = 0.0, x0 = S[(k + 1) * n + k], alpha, vv = 0.0, beta, K = 0.0;
        for (long i = 0; i < m; i++) nx += S[(k + 1 + i) * n + k] * S[(k + 1 + i) * n + k];
        d[k] = S[k * n + k];
        if (nx == 0.0) {
            e2[k] = 0.0;
            continue;
        }
        alpha = x0 >= 0 ? -sqrt(nx) : sqrt(nx);
        e2[k] = alpha * alpha;
        for (long i = 0; i < m; i++) v[i] = S[(k + 1 + i) * n + k];
        v[0] -= alpha;
        for (long i = 0; i < m; i++) vv += v[i] * v[i];
        if (vv == 0.0) continue;
        beta = 2.0 / vv;
        /* p = beta A22 v, w = p - (beta/2)(v^T p) v, A22 -= v w^T + w v^T */
        for (long i = 0; i < m; i++) {
            double s = 0.0;
            const double *row = S + (k + 1 + i) * n + (k + 1);
            for (long j = 0; j < m; j++) s += row[j] * v[j];
            pw[i] = beta * s;
        }
        for (long i = 0; i < m; i++) K += v[i] * pw[i];
        K *= 0.5 * beta;
        for (long i = 0; i < m; i++) pw[i] -= K * v[i];
        for (long i = 0; i < m; i++) {
            double *row = S + (k + 1 + i) * n + (k + 1);
            for (long j = 0; j < m; j++) row[j] -= v[i] * pw[j] + pw[i] * v[j];
        }
    }
    if (n >= 2) {
        d[n - 2] = S[(n - 2) * n + n - 2];
        e2[n - 2] = S[(n - 1) * n + n - 2] * S[(n - 1) * n + n - 2];
    }
    d[n - 1] = S[(n - 1) * n + n - 1];
    if (sturm_below(d, e2, n, cut) < n) return cut;
    /* Gershgorin bracket, then bisection to the last bit */
    double lo = INFINITY, hi = -INFINITY;
    for (long i = 0; i < n; i++) {
        double r = (i > 0 ? sqrt(e2[i - 1]) : 0.0) + (i + 1 < n ? sqrt(e2[i]) : 0.0);
        lo = fmin(lo, d[i] - r);
        hi = fmax(hi, d[i] + r);
    }
    if (!(hi < cut)) hi = cut;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi)) break;
        if (sturm_below(d, e2, n, mid) == n) hi = mid;
        else lo = mid;
    }
    return hi;
}

static double diag_mu_d(const double *w, const double *J, long n)
{
    double mx = -INFINITY;
    for (long i = 0; i < n; i++) {
        double s = J[i * n + i];
        for (long j = 0; j < n; j++)
            if (j != i) s += fabs(J[i * n + j]) * w[i] / w[j];
        mx = fmax(mx, s);
    }
    return mx;
}

typedef struct {
    const dvc_lognorm_jac *J;
    long n;
    int quad;
    const long *pats; /* patterns in the objective (NULL: all) */
    long npats;
    long first; /* the pattern that set the last maximum: tried first */

    double *R, *Ri, *C, *T, *w, *wk;
} objective;

/* The largest conditioning the search may choose: log(max w / min w) for
 * the weights, log(||R||_F ||R^{-1}||_F / n) for R (within a factor n of
 * cond_2(R)). Minimising mu alone drives a norm for a non-normal J toward
 * the spectral abscissa with weights 2^50 and more apart, and every
 * conversion into the norm (the start box, the defect, a norm switch) pays
 * that factor (docs/lognorm.md, section 2 (e)). */
#define LN_LOG_COND_MAX 13.815510557964274 /* log(1e6) */

static double log_cond(const objective *ob)
{
    long n = ob->n;
    if (ob->quad) {
        double a = 0.0, b = 0.0;
        for (long i = 0; i < n; i++)
            for (long j = i; j < n; j++) {
                a += ob->R[i * n + j] * ob->R[i * n + j];
                b += ob->Ri[i * n + j] * ob->Ri[i * n + j];
            }
        return 0.5 * (log(a) + log(b)) - log((double)n);
    }
    {
        double lo = ob->w[0], hi = ob->w[0];
        for (long i = 1; i < n; i++) {
            lo = fmin(lo, ob->w[i]);
            hi = fmax(hi, ob->w[i]);
        }
        return log(hi / lo);
    }
}

/* Parameters: DIAG: log w_k (k >= 1; w_0 = 1); QUAD: upper triangle of R
 * with log of the diagonal (R_00 = 1). The value is the max over the
 * patterns, except that the evaluation stops at the first pattern whose mu
 * reaches cut: the compass search rejects such a point whatever the other
 * patterns give, so its path (and the norm) is the one of the full
 * evaluation, at a fraction of the cost (most candidates are rejected, and
 * the pattern that set the last maximum usually rejects them alone). */
static double obj_eval_cut(objective *ob, const double *x, double cut)
{
    long n = ob->n, c = 0, np_ = ob->pats ? ob->npats : ob->J->npat, arg = -1;
    double mx = -INFINITY;
    if (ob->quad) {
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) {
                if (j < i) ob->R[i * n + j] = 0.0;
                else if (i == 0 && j == 0) ob->R[0] = 1.0;
                else if (i == j) ob->R[i * n + j] = exp(x[c++]);
                else ob->R[i * n + j] = x[c++];
            }
        triu_inv(ob->Ri, ob->R, n);
    } else {
        ob->w[0] = 1.0;
        for (long i = 1; i < n; i++) ob->w[i] = exp(x[i - 1]);
    }
    /* a point past the conditioning bound is rejected like a worse mu */
    if (!(log_cond(ob) <= LN_LOG_COND_MAX)) return INFINITY;
    for (long q0 = 0; q0 < np_; q0++) {
        /* first the remembered pattern, then the others in order */
        long q = ob->first <= 0 || ob->first >= np_ ? q0 : q0 == 0 ? ob->first : q0 <= ob->first ? q0 - 1 : q0;
        long k = ob->pats ? ob->pats[q] : q;
        const double *Jk = ob->J->Jd + k * n * n;
        double v;
        if (ob->quad) {
            /* below n = 8 the Jacobi sweeps cost microseconds and decide
             * the near-ties of the search as they always did */
            quad_sym_d(ob->R, ob->Ri, Jk, n, ob->C, ob->T);
            v = n >= LN_TRIDIAG_N ? sym_maxeig_cut(ob->C, n, cut, ob->wk) : sym_maxeig(ob->C, n);
        } else {
            v = diag_mu_d(ob->w, Jk, n);
        }
        if (!isfinite(v)) return INFINITY;
        if (v > mx) {
            mx = v;
            arg = q;
        }
        if (mx >= cut) {
            ob->first = q;
            return mx;
        }
    }
    ob->first = arg;
    return mx;
}

static double obj_eval(objective *ob, const double *x) { return obj_eval_cut(ob, x, INFINITY); }

/* Compass search from x (np parameters); x is left at the best point. */
static double compass(objective *ob, double *x, long np)
{
    double best = obj_eval(ob, x), step = 0.5;
    long evals = 0, np_ = ob->pats ? ob->npats : ob->J->npat;
    /* a budget of about 3e8 flops (an evaluation costs ~30 n^3 per pattern) */
    double cost = 30.0 * (double)np_ * (double)ob->n * (double)ob->n * (double)ob->n;
    /* a mode norm (one pattern, created during the run) at n >= 8 gets a
     * tenth: there the search, not the stepping, would dominate a run */
    double budget = ob->pats != NULL && ob->n >= 8 ? 3e7 : 3e8;
    long max_evals = (long)fmin(20000.0, fmax(4.0 * (double)np, budget / cost));
    /* no search when one sweep over the parameters alone would cost more
     * than 1e10 flops (large n, e.g. the quadratic norm at n = 64): the
     * start point is the answer (the proof decides what it is worth) */
    if (2.0 * (double)np * cost > 1e10) max_evals = 0;
    while (step > 1e-7 && evals < max_evals) {
        int improved = 0;
        for (long k = 0; k < np; k++)
            for (int sg = -1; sg <= 1; sg += 2) {
                double old = x[k], v;
                x[k] = old + sg * step;
                v = obj_eval_cut(ob, x, best - 1e-15 * fabs(best));
                evals++;
                if (v < best - 1e-15 * fabs(best)) {
                    best = v;
                    improved = 1;
                } else {
                    x[k] = old;
                }
            }
        if (!improved) step *= 0.5;
    }
    obj_eval(ob, x); /* leave R / w at x */
    return best;
}

/* ---- proofs ----------------------------------------------------------- */

/* Certified mu_W(J) for the diagonal weights w: max_i J_ii + sum_{j != i}
 * |J_ij| w_i / w_j, every operation rounded up. */
static void diag_mu_cert(mpfr_t out, const double *w, const dvc_imat_t J, mpfr_t a, mpfr_t b)
{
    long n = J->r;
    mpfr_set_inf(out, -1);
    for (long i = 0; i < n; i++) {
        mpfr_set(a, &dvc_imat_entry(J, i, i)->right, MPFR_RNDU);
        for (long j = 0; j < n; j++) {
            if (j == i) continue;
            dvc_ival_mag(b, dvc_imat_entry(J, i, j));
            mpfr_mul_d(b, b, w[i], MPFR_RNDU);
            mpfr_div_d(b, b, w[j], MPFR_RNDU);
            mpfr_add(a, a, b, MPFR_RNDU);
        }
        mpfr_max(out, out, a, MPFR_RNDU);
    }
}

/* Proves mu P - sym(P J) positive definite for mu = the binary64 estimate
 * plus a growing margin; out gets the proven mu (rounded up). */
static dvc_status quad_mu_cert(mpfr_t out, const dvc_imat_t P, const dvc_imat_t J, double est,
                               mpfr_prec_t prec)
{
    long n = J->r;
    dvc_status st = DVC_NOT_CERTIFIED;
    dvc_imat_t X, S;
    mpfi_t mu, t;
    double margin = 1e-12 * fmax(1.0, fabs(est));
    dvc_imat_init2(X, n, n, prec);
    dvc_imat_init2(S, n, n, prec);
    mpfi_init2(mu, prec);
    mpfi_init2(t, prec);
    dvc_imat_mul(X, P, J);
    for (int tries = 0; tries < 12 && st != DVC_OK; tries++, margin *= 8.0) {
        mpfr_set_d(out, est, MPFR_RNDU);
        mpfr_add_d(out, out, margin, MPFR_RNDU);
        mpfi_set_fr(mu, out);
        for (long i = 0; i < n; i++)
            for (long j = i; j < n; j++) {
                mpfi_add(t, dvc_imat_entry(X, i, j), dvc_imat_entry(X, j, i));
                mpfi_div_2ui(t, t, 1);
                mpfi_mul(dvc_imat_entry(S, i, j), mu, dvc_imat_entry(P, i, j));
                mpfi_sub(dvc_imat_entry(S, i, j), dvc_imat_entry(S, i, j), t);
                mpfi_set(dvc_imat_entry(S, j, i), dvc_imat_entry(S, i, j));
            }
        st = dvc_imat_cholesky_spd(S);
        if (st != DVC_OK) dvc_error_reset();
    }
    dvc_imat_clear(X);
    dvc_imat_clear(S);
    mpfi_clear(mu);
    mpfi_clear(t);
    return st;
}

/* The norm of the interval vector v in info's norm (an upper bound of
 * sup over v), rounded up; NaN-safe (+inf). */
void dvc_lognorm_vnorm_(mpfr_t out, const dvc_lognorm_info_struct *info, const dvc_ivec_t v,
                        dvc_lognorm_scratch *s)
{
    long n = info->n;
    if (info->kind == DVC_LOGNORM_DIAG) {
        mpfr_set_zero(out, 1);
        for (long k = 0; k < n; k++) {
            dvc_ival_mag(s->a, v->e[k]);
            mpfr_mul_d(s->a, s->a, info->w[k], MPFR_RNDU);
            if (mpfr_nan_p(s->a)) mpfr_set_inf(s->a, 1);
            mpfr_max(out, out, s->a, MPFR_RNDU);
        }
        return;
    }
    /* ||R v||_2 */
    mpfr_set_zero(out, 1);
    for (long i = 0; i < n; i++) {
        mpfi_set_ui(s->z, 0);
        for (long k = i; k < n; k++) {
            mpfi_mul_d(s->t, v->e[k], info->R[i * n + k]);
            mpfi_add(s->z, s->z, s->t);
        }
        dvc_ival_mag(s->a, s->z);
        mpfr_sqr(s->a, s->a, MPFR_RNDU);
        mpfr_add(out, out, s->a, MPFR_RNDU);
    }
    mpfr_sqrt(out, out, MPFR_RNDU);
    if (mpfr_nan_p(out)) mpfr_set_inf(out, 1);
}

void dvc_lognorm_scratch_init_(dvc_lognorm_scratch *s, mpfr_prec_t prec)
{
    mpfr_inits2(prec, s->a, s->b, (mpfr_ptr)0);
    mpfi_init2(s->z, prec);
    mpfi_init2(s->t, prec);
}

void dvc_lognorm_scratch_clear_(dvc_lognorm_scratch *s)
{
    mpfr_clears(s->a, s->b, (mpfr_ptr)0);
    mpfi_clear(s->z);
    mpfi_clear(s->t);
}

/* Certify a candidate norm (w or R set in info): mu_pat, mu, c_inf, c_Q. */
static dvc_status certify_norm(dvc_lognorm_info_t info, const dvc_lognorm_jac *J,
                               const dvc_dlvi_problem_struct *p, mpfr_prec_t prec)
{
    long n = info->n, m = info->m;
    dvc_status st = DVC_OK;
    mpfr_t a, b;
    mpfr_inits2(prec, a, b, (mpfr_ptr)0);
    mpfr_set_inf(info->mu, -1);
    info->hull = J->hull;
    if (info->kind == DVC_LOGNORM_DIAG) {
        for (long k = 0; k < J->npat; k++) {
            diag_mu_cert(info->mu_pat[k], info->w, J->J[k], a, b);
            mpfr_max(info->mu, info->mu, info->mu_pat[k], MPFR_RNDU);
        }
        /* the hull mode: mu over every pattern from the interval hull */
        if (J->hull) diag_mu_cert(info->mu, info->w, J->Jh, a, b);
        mpfr_set_zero(info->c_inf, 1);
        for (long k = 0; k < n; k++) {
            mpfr_set_ui(a, 1, MPFR_RNDU);
            mpfr_div_d(a, a, info->w[k], MPFR_RNDU);
            mpfr_max(info->c_inf, info->c_inf, a, MPFR_RNDU);
        }
        mpfr_set_zero(info->c_Q, 1);
        for (long r = 0; r < m; r++) {
            mpfr_set_zero(a, 1);
            for (long k = 0; k < n; k++) {
                dvc_ival_mag(b, dvc_imat_entry(p->Q, r, k));
                mpfr_div_d(b, b, info->w[k], MPFR_RNDU);
                mpfr_add(a, a, b, MPFR_RNDU);
            }
            mpfr_max(info->c_Q, info->c_Q, a, MPFR_RNDU);
        }
    } else {
        dvc_imat_t Rm, Rt, P, Ri, QRi;
        double *Rd = info->R, *Rid = malloc((size_t)(n * n) * sizeof(double));
        double *C = malloc((size_t)(n * n) * sizeof(double)), *T = malloc((size_t)(n * n) * sizeof(double));
        dvc_imat_init2(Rm, n, n, prec);
        dvc_imat_init2(Rt, n, n, prec);
        dvc_imat_init2(P, n, n, prec);
        dvc_imat_init2(Ri, n, n, prec);
        dvc_imat_init2(QRi, m > 0 ? m : 1, n, prec);
        if (!Rid || !C || !T) st = dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
        if (st == DVC_OK) {
            triu_inv(Rid, Rd, n);
            dvc_imat_set_d(Rm, Rd);
            dvc_imat_transpose(Rt, Rm);
            dvc_imat_mul(P, Rt, Rm);
            /* the product is symmetric as a point matrix; make the
             * enclosure symmetric too (hull of both entries) */
            for (long i = 0; i < n; i++)
                for (long j = i + 1; j < n; j++) {
                    mpfi_union(dvc_imat_entry(P, i, j), dvc_imat_entry(P, i, j), dvc_imat_entry(P, j, i));
                    mpfi_set(dvc_imat_entry(P, j, i), dvc_imat_entry(P, i, j));
                }
        }
        double est_max = -INFINITY;
        for (long k = 0; st == DVC_OK && k < J->npat; k++) {
            double est = quad_mu_d(Rd, Rid, J->Jd + k * n * n, n, C, T);
            est_max = fmax(est_max, est);
            st = quad_mu_cert(info->mu_pat[k], P, J->J[k], est, prec);
            if (st != DVC_OK)
                st = dvc_error(DVC_NOT_CERTIFIED, "lognorm: log norm of the piece %#lx in the norm P not "
                               "proven (mu P - sym(P J) not proven positive definite)", J->key[k]);
            else
                mpfr_max(info->mu, info->mu, info->mu_pat[k], MPFR_RNDU);
        }
        if (st == DVC_OK && J->hull) {
            /* every pattern: mu P - sym(P [Jh]) positive definite; the
             * estimate at mid Jh plus ||R|| ||rad Jh|| ||R^{-1}|| (Frobenius) */
            double *Jm = malloc((size_t)(n * n) * sizeof(double)), fr = 0, fri = 0, fj = 0;
            if (!Jm) st = dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
            if (st == DVC_OK) {
                dvc_imat_mid_d(Jm, J->Jh);
                for (long e = 0; e < n * n; e++) {
                    double r = 0.5 * (mpfr_get_d(&J->Jh->e[e]->right, MPFR_RNDU) -
                                      mpfr_get_d(&J->Jh->e[e]->left, MPFR_RNDD));
                    fr += Rd[e] * Rd[e];
                    fri += Rid[e] * Rid[e];
                    fj += r * r;
                }
                double est = fmax(est_max, quad_mu_d(Rd, Rid, Jm, n, C, T)) + sqrt(fr * fri * fj);
                free(Jm);
                st = quad_mu_cert(info->mu, P, J->Jh, est, prec);
                if (st != DVC_OK)
                    st = dvc_error(DVC_NOT_CERTIFIED, "lognorm: log norm over the interval hull of the piece "
                                   "Jacobians not proven in the norm P");
            }
        }
        if (st == DVC_OK && (st = dvc_imat_inv(Ri, Rm)) != DVC_OK)
            st = dvc_error_context(st, "lognorm: inverse of R: ");
        if (st == DVC_OK) {
            mpfi_t z, t;
            mpfi_init2(z, prec);
            mpfi_init2(t, prec);
            /* |v_k| <= ||row k of R^{-1}||_2 ||R v||_2 */
            mpfr_set_zero(info->c_inf, 1);
            for (long k = 0; k < n; k++) {
                mpfr_set_zero(a, 1);
                for (long j = 0; j < n; j++) {
                    dvc_ival_mag(b, dvc_imat_entry(Ri, k, j));
                    mpfr_sqr(b, b, MPFR_RNDU);
                    mpfr_add(a, a, b, MPFR_RNDU);
                }
                mpfr_sqrt(a, a, MPFR_RNDU);
                mpfr_max(info->c_inf, info->c_inf, a, MPFR_RNDU);
            }
            /* |(Q v)_r| <= ||row r of Q R^{-1}||_2 ||R v||_2 */
            mpfr_set_zero(info->c_Q, 1);
            if (m > 0) dvc_imat_mul(QRi, p->Q, Ri);
            for (long r = 0; r < m; r++) {
                mpfr_set_zero(a, 1);
                for (long j = 0; j < n; j++) {
                    dvc_ival_mag(b, dvc_imat_entry(QRi, r, j));
                    mpfr_sqr(b, b, MPFR_RNDU);
                    mpfr_add(a, a, b, MPFR_RNDU);
                }
                mpfr_sqrt(a, a, MPFR_RNDU);
                mpfr_max(info->c_Q, info->c_Q, a, MPFR_RNDU);
            }
            mpfi_clear(z);
            mpfi_clear(t);
        }
        dvc_imat_clear(Rm);
        dvc_imat_clear(Rt);
        dvc_imat_clear(P);
        dvc_imat_clear(Ri);
        dvc_imat_clear(QRi);
        free(Rid);
        free(C);
        free(T);
    }
    /* a piece's constant never exceeds the global one */
    for (long k = 0; st == DVC_OK && J->hull && k < J->npat; k++)
        mpfr_min(info->mu_pat[k], info->mu_pat[k], info->mu, MPFR_RNDU);
    if (st == DVC_OK && (!mpfr_number_p(info->mu) || !mpfr_number_p(info->c_inf) ||
                         !mpfr_number_p(info->c_Q)))
        st = dvc_error(DVC_NOT_CERTIFIED, "lognorm: the norm's constants are not finite");
    mpfr_clears(a, b, (mpfr_ptr)0);
    return st;
}

/* Binary64 search of one kind of norm; info gets w or R. */
static dvc_status search_norm(dvc_lognorm_info_t info, const dvc_lognorm_jac *J, dvc_lognorm_kind kind,
                              long only_pat, const double *R0)
{
    long n = info->n, np = kind == DVC_LOGNORM_QUAD ? n * (n + 1) / 2 - 1 : n - 1;
    objective ob;
    double *x = calloc((size_t)(np > 0 ? np : 1), sizeof(double));
    double *x2 = calloc((size_t)(np > 0 ? np : 1), sizeof(double));
    double *buf = calloc((size_t)(4 * n * n + 5 * n), sizeof(double));
    if (!x || !x2 || !buf) {
        free(x);
        free(x2);
        free(buf);
        return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    }
    memset(&ob, 0, sizeof ob);
    ob.J = J;
    ob.n = n;
    ob.quad = kind == DVC_LOGNORM_QUAD;
    if (only_pat >= 0) {
        ob.pats = &only_pat;
        ob.npats = 1;
    }
    ob.R = buf;
    ob.Ri = buf + n * n;
    ob.C = buf + 2 * n * n;
    ob.T = buf + 3 * n * n;
    ob.w = buf + 4 * n * n;
    ob.wk = buf + 4 * n * n + n;
    if (np > 0 && R0 != NULL && ob.quad) {
        /* a mode norm: from the identity and from R0 (scaled to
         * R0_00 = 1); the better one */
        long c = 0;
        double b1 = compass(&ob, x, np), b2;
        for (long i = 0; i < n; i++)
            for (long j = i; j < n; j++) {
                if (i == 0 && j == 0) continue;
                x2[c++] = i == j ? log(R0[i * n + i] / R0[0]) : R0[i * n + j] / R0[0];
            }
        b2 = compass(&ob, x2, np);
        if (b2 <= b1) memcpy(x, x2, (size_t)np * sizeof(double));
    } else if (np > 0) {
        /* start from the identity and, for the quadratic norm, from the
         * square roots of the best diagonal weights too */
        double b1 = compass(&ob, x, np);
        if (ob.quad) {
            objective od = ob;
            double *xd = calloc((size_t)(n > 1 ? n - 1 : 1), sizeof(double));
            if (xd) {
                od.quad = 0;
                compass(&od, xd, n - 1);
                long c = 0;
                for (long i = 0; i < n; i++)
                    for (long j = i; j < n; j++) {
                        if (i == 0 && j == 0) continue;
                        x2[c++] = i == j ? 0.5 * xd[i - 1] : 0.0;
                    }
                free(xd);
                double b2 = compass(&ob, x2, np);
                if (b2 < b1) memcpy(x, x2, (size_t)np * sizeof(double));
            }
        }
    }
    obj_eval(&ob, x);
    free(info->w);
    free(info->R);
    info->w = info->R = NULL;
    if (ob.quad) {
        info->R = malloc((size_t)(n * n) * sizeof(double));
        if (info->R) memcpy(info->R, ob.R, (size_t)(n * n) * sizeof(double));
    } else {
        info->w = malloc((size_t)n * sizeof(double));
        if (info->w) memcpy(info->w, ob.w, (size_t)n * sizeof(double));
    }
    info->kind = kind;
    free(x);
    free(x2);
    free(buf);
    if (!info->R && !info->w) return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    return DVC_OK;
}

/* The norm for the Jacobians J (P proof of M done by the caller). */
dvc_status dvc_lognorm_choose_(dvc_lognorm_info_t info, const dvc_lognorm_jac *J,
                               const dvc_dlvi_problem_struct *p, dvc_lognorm_kind kind, long only_pat,
                               const double *R0, mpfr_prec_t prec)
{
    dvc_status st;
    info_free_pat(info);
    info->n = p->n;
    info->m = p->m;
    if ((st = info_alloc_pat(info, J->cap, prec)) != DVC_OK) return st;
    if (kind != DVC_LOGNORM_AUTO) {
        if ((st = search_norm(info, J, kind, only_pat, R0)) != DVC_OK) return st;
        return certify_norm(info, J, p, prec);
    }
    /* both; keep the smaller proven mu (the quadratic norm on ties) */
    {
        mpfr_t mu_d;
        double *w = NULL;
        dvc_status sd;
        mpfr_init2(mu_d, prec);
        sd = search_norm(info, J, DVC_LOGNORM_DIAG, only_pat, NULL);
        if (sd == DVC_OK) sd = certify_norm(info, J, p, prec);
        if (sd == DVC_OK) {
            mpfr_set(mu_d, info->mu, MPFR_RNDU);
            w = info->w;
            info->w = NULL;
        }
        dvc_error_reset();
        st = search_norm(info, J, DVC_LOGNORM_QUAD, only_pat, R0);
        if (st == DVC_OK) st = certify_norm(info, J, p, prec);
        if (w != NULL && (st != DVC_OK || mpfr_cmp(mu_d, info->mu) < 0)) {
            dvc_error_reset();
            free(info->R);
            info->R = NULL;
            info->w = w;
            info->kind = DVC_LOGNORM_DIAG;
            st = certify_norm(info, J, p, prec);
        } else {
            free(w);
        }
        mpfr_clear(mu_d);
    }
    return st;
}

dvc_status dvc_lognorm_given_(dvc_lognorm_info_t info, const dvc_lognorm_jac *J,
                              const dvc_dlvi_problem_struct *p, const dvc_lognorm_stated *s, mpfr_prec_t prec)
{
    long n = p->n, cnt;
    dvc_status st;
    const char *what = s->pattern < 0 ? "the norm (a certificate's method 'lognorm_norm')" : "a mode norm";
    info_free_pat(info);
    free(info->w);
    free(info->R);
    info->w = info->R = NULL;
    info->n = n;
    info->m = p->m;
    if (s->kind != DVC_LOGNORM_DIAG && s->kind != DVC_LOGNORM_QUAD)
        return dvc_error(DVC_NOT_CERTIFIED, "lognorm: %s stated is neither diagonal nor quadratic", what);
    if (s->v == NULL) return dvc_error(DVC_NOT_CERTIFIED, "lognorm: %s stated without entries", what);
    cnt = s->kind == DVC_LOGNORM_QUAD ? n * n : n;
    /* what the norm evaluations assume: finite entries, positive weights,
     * R upper triangular (||R v||_2 reads the upper triangle only) */
    for (long k = 0; k < cnt; k++) {
        double v = s->v[k];
        if (!isfinite(v) || (s->kind == DVC_LOGNORM_DIAG && !(v > 0)) ||
            (s->kind == DVC_LOGNORM_QUAD && k / n > k % n && v != 0.0))
            return dvc_error(DVC_NOT_CERTIFIED, "lognorm: %s stated: entry %ld (%a) is not allowed "
                             "(finite, weights > 0, R upper triangular)", what, k + 1, v);
    }
    if ((st = info_alloc_pat(info, J->cap, prec)) != DVC_OK) return st;
    info->kind = s->kind;
    if (s->kind == DVC_LOGNORM_QUAD) info->R = malloc((size_t)cnt * sizeof(double));
    else info->w = malloc((size_t)cnt * sizeof(double));
    if (!info->R && !info->w) return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    memcpy(info->R ? info->R : info->w, s->v, (size_t)cnt * sizeof(double));
    return certify_norm(info, J, p, prec);
}

dvc_status dvc_lognorm_pat_mu_(dvc_lognorm_info_t info, const dvc_lognorm_jac *J, long slot, mpfr_prec_t prec)
{
    long n = info->n;
    dvc_status st = DVC_OK;
    if (slot < 0 || slot >= info->npat) return dvc_error(DVC_ERR_INTERNAL, "lognorm: slot %ld", slot);
    if (info->kind == DVC_LOGNORM_DIAG) {
        mpfr_t a, b;
        mpfr_inits2(prec, a, b, (mpfr_ptr)0);
        diag_mu_cert(info->mu_pat[slot], info->w, J->J[slot], a, b);
        mpfr_clears(a, b, (mpfr_ptr)0);
    } else {
        dvc_imat_t Rm, Rt, P;
        double *Rid = malloc((size_t)(3 * n * n) * sizeof(double));
        if (!Rid) return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
        dvc_imat_init2(Rm, n, n, prec);
        dvc_imat_init2(Rt, n, n, prec);
        dvc_imat_init2(P, n, n, prec);
        triu_inv(Rid, info->R, n);
        dvc_imat_set_d(Rm, info->R);
        dvc_imat_transpose(Rt, Rm);
        dvc_imat_mul(P, Rt, Rm);
        for (long i = 0; i < n; i++)
            for (long j = i + 1; j < n; j++) {
                mpfi_union(dvc_imat_entry(P, i, j), dvc_imat_entry(P, i, j), dvc_imat_entry(P, j, i));
                mpfi_set(dvc_imat_entry(P, j, i), dvc_imat_entry(P, i, j));
            }
        double est = quad_mu_d(info->R, Rid, J->Jd + slot * n * n, n, Rid + n * n, Rid + 2 * n * n);
        /* not proven: the global constant holds for this piece too */
        if (quad_mu_cert(info->mu_pat[slot], P, J->J[slot], est, prec) != DVC_OK) {
            dvc_error_reset();
            mpfr_set(info->mu_pat[slot], info->mu, MPFR_RNDU);
        }
        dvc_imat_clear(Rm);
        dvc_imat_clear(Rt);
        dvc_imat_clear(P);
        free(Rid);
    }
    mpfr_min(info->mu_pat[slot], info->mu_pat[slot], info->mu, MPFR_RNDU);
    return st;
}

dvc_status dvc_lognorm_norm(dvc_lognorm_info_t info, const dvc_dlvi_problem_t p, const dvc_lognorm_opts *o)
{
    dvc_lognorm_opts def;
    dvc_lognorm_jac J;
    dvc_lvi_solver_t solver;
    dvc_status st;
    mpfr_prec_t prec;
    if (o == NULL) {
        dvc_lognorm_opts_default(&def);
        o = &def;
    }
    if ((st = dvc_dlvi_validate_(p)) != DVC_OK) return st;
    prec = o->dlvi.prec ? o->dlvi.prec : (p->prec ? p->prec : DVC_DEFAULT_PREC);
    if (p->m > 0) {
        st = dvc_lvi_solver_init2(solver, p->M, p->l, p->u, prec);
        dvc_lvi_solver_clear(solver);
        if (st != DVC_OK) {
            return dvc_error_context(st, "lognorm: M: ");
        }
    }
    st = dvc_lognorm_jac_init_(&J, p, prec);
    if (st == DVC_OK) {
        st = dvc_lognorm_choose_(info, &J, p, o->norm, -1, NULL, prec);
        dvc_lognorm_jac_clear_(&J);
    }
    return st;
}

/* c >= sup ||v||_b / ||v||_a = ||R_b R_a^{-1}||_2 for two quadratic norms,
 * proven by a verified Cholesky factorisation of c^2 I - C^T C. */
dvc_status dvc_lognorm_convert_(mpfr_t c, const dvc_lognorm_info_struct *a, const dvc_lognorm_info_struct *b,
                                mpfr_prec_t prec)
{
    long n = a->n;
    dvc_status st = DVC_NOT_CERTIFIED;
    dvc_imat_t Ra, Rb, Ri, C, Ct, S;
    double *Rid = malloc((size_t)(n * n) * sizeof(double)), *Cd = malloc((size_t)(n * n) * sizeof(double));
    double est;
    mpfi_t c2;
    if (a->kind != DVC_LOGNORM_QUAD || b->kind != DVC_LOGNORM_QUAD || !Rid || !Cd) {
        free(Rid);
        free(Cd);
        return dvc_error(DVC_NOT_CERTIFIED, "lognorm: norm conversion needs two quadratic norms");
    }
    dvc_imat_init2(Ra, n, n, prec);
    dvc_imat_init2(Rb, n, n, prec);
    dvc_imat_init2(Ri, n, n, prec);
    dvc_imat_init2(C, n, n, prec);
    dvc_imat_init2(Ct, n, n, prec);
    dvc_imat_init2(S, n, n, prec);
    mpfi_init2(c2, prec);
    dvc_imat_set_d(Ra, a->R);
    dvc_imat_set_d(Rb, b->R);
    st = dvc_imat_inv(Ri, Ra);
    if (st == DVC_OK) {
        dvc_imat_mul(C, Rb, Ri);
        dvc_imat_transpose(Ct, C);
        dvc_imat_mul(S, Ct, C);
        /* estimate lambda_max(C^T C) in binary64 */
        triu_inv(Rid, a->R, n);
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) {
                double s = 0.0;
                for (long k = 0; k < n; k++) s += b->R[i * n + k] * Rid[k * n + j];
                Cd[i * n + j] = s;
            }
        {
            double *G = calloc((size_t)(n * n), sizeof(double));
            if (!G) {
                st = dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
                goto out;
            }
            for (long i = 0; i < n; i++)
                for (long j = 0; j < n; j++) {
                    double s = 0.0;
                    for (long k = 0; k < n; k++) s += Cd[k * n + i] * Cd[k * n + j];
                    G[i * n + j] = s;
                }
            est = sym_maxeig(G, n);
            free(G);
        }
        st = DVC_NOT_CERTIFIED;
        for (int tries = 0; tries < 12 && st != DVC_OK; tries++) {
            dvc_imat_t D;
            mpfr_set_d(c, est * (1.0 + 1e-12 * (double)(1L << (3 * tries))) + 1e-300, MPFR_RNDU);
            mpfi_set_fr(c2, c);
            dvc_imat_init2(D, n, n, prec);
            for (long i = 0; i < n; i++)
                for (long j = i; j < n; j++) {
                    mpfi_neg(dvc_imat_entry(D, i, j), dvc_imat_entry(S, i, j));
                    if (i == j) mpfi_add(dvc_imat_entry(D, i, i), dvc_imat_entry(D, i, i), c2);
                    else {
                        mpfi_neg(dvc_imat_entry(D, j, i), dvc_imat_entry(S, j, i));
                        mpfi_union(dvc_imat_entry(D, i, j), dvc_imat_entry(D, i, j), dvc_imat_entry(D, j, i));
                        mpfi_set(dvc_imat_entry(D, j, i), dvc_imat_entry(D, i, j));
                    }
                }
            st = dvc_imat_cholesky_spd(D);
            dvc_imat_clear(D);
            if (st != DVC_OK) dvc_error_reset();
        }
        if (st == DVC_OK) mpfr_sqrt(c, c, MPFR_RNDU);
        else st = dvc_error(DVC_NOT_CERTIFIED, "lognorm: norm conversion constant not proven");
    }
out:
    dvc_imat_clear(Ra);
    dvc_imat_clear(Rb);
    dvc_imat_clear(Ri);
    dvc_imat_clear(C);
    dvc_imat_clear(Ct);
    dvc_imat_clear(S);
    mpfi_clear(c2);
    free(Rid);
    free(Cd);
    return st;
}
