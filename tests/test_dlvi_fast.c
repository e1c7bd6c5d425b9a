/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The binary64 step kernels of the DLVI engine (src/dlvi/fast.c, used at
 * 53 bits) against the MPFI path (forced with the option binary64 = 0) on random
 * problems: interval and point matrices (entries straddling 0), interval
 * theta and h, interval f and g, m = 0, sharpening on and off, and
 * re-certification of perturbed predictors. Every bound of the fast run
 * must be >= the MPFI one (rigour: the MPFI path is the reference
 * derivation) and, the data being binary64 numbers, equal to it. */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dlvi_setup.h"
#include "dvicert/dlvi.h"

typedef struct {
    long n, m;
    double cf[16], cg[16], om, rad;
    mpfi_t a, b;
} rnd_fun;

/* f_k(t) = cf_k sin(om t) + [-rad, rad] (an interval-valued forcing) */
static void eval_common(dvc_ivec_t out, const mpfi_t t, rnd_fun *F, const double *c)
{
    mpfi_mul_d(F->a, t, F->om);
    mpfi_sin(F->a, F->a);
    for (long k = 0; k < out->n; k++) {
        mpfi_mul_d(out->e[k], F->a, c[k]);
        mpfi_interv_d(F->b, -F->rad, F->rad);
        mpfi_add(out->e[k], out->e[k], F->b);
    }
}

static dvc_status f_eval(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    rnd_fun *F = ctx;
    eval_common(out, t, F, F->cf);
    return DVC_OK;
}

static dvc_status g_eval(dvc_ivec_t out, const mpfi_t t, void *ctx)
{
    rnd_fun *F = ctx;
    eval_common(out, t, F, F->cg);
    return DVC_OK;
}

static dvc_status lip_common(mpfr_t out, const mpfi_t t, rnd_fun *F, const double *c, long k)
{
    double mx = 0;
    (void)t;
    for (long j = 0; j < k; j++) mx = fmax(mx, fabs(c[j]));
    /* |d/dt c sin(om t)| <= |c| om; computed upward */
    mpfr_set_d(out, mx, MPFR_RNDU);
    mpfr_mul_d(out, out, F->om, MPFR_RNDU);
    return DVC_OK;
}

static dvc_status f_lip(mpfr_t out, const mpfi_t t, void *ctx)
{
    rnd_fun *F = ctx;
    return lip_common(out, t, F, F->cf, F->n);
}

static dvc_status g_lip(mpfr_t out, const mpfi_t t, void *ctx)
{
    rnd_fun *F = ctx;
    return lip_common(out, t, F, F->cg, F->m);
}

static void f_d(double *out, double t, void *ctx)
{
    rnd_fun *F = ctx;
    for (long k = 0; k < F->n; k++) out[k] = F->cf[k] * sin(F->om * t);
}

static void g_d(double *out, double t, void *ctx)
{
    rnd_fun *F = ctx;
    for (long k = 0; k < F->m; k++) out[k] = F->cg[k] * sin(F->om * t);
}

/* entry: 0 (30%), a point, or (when iv) an interval that may straddle 0 */
static void rnd_entry(mpfi_ptr e, check_rng *rng, double scale, int iv)
{
    double u = check_rng_unif(rng, 0, 1);
    if (u < 0.3) {
        mpfi_set_ui(e, 0);
    } else if (!iv || u < 0.75) {
        mpfi_set_d(e, check_rng_unif(rng, -scale, scale));
    } else {
        double c = check_rng_unif(rng, -scale, scale), r = check_rng_unif(rng, 0, 0.01 * scale);
        if (u > 0.9) c = check_rng_unif(rng, -r, r); /* straddles 0 */
        mpfi_interv_d(e, c - r, c + r);
    }
}

static int same_fr(const mpfr_t a, const mpfr_t b) { return mpfr_equal_p(a, b); }

static int same_fi(const mpfi_t a, const mpfi_t b)
{
    return mpfr_equal_p(&a->left, &b->left) && mpfr_equal_p(&a->right, &b->right);
}

/* fast (r) vs MPFI (s): every bound of r >= that of s, and equal */
static void compare(const dvc_dlvi_result_t r, const dvc_dlvi_result_t s, long cs, long *nsteps)
{
    long bad_rig = 0, bad_eq = 0, N = s->steps_done, m = s->m;
    CHECK(r->steps_done == s->steps_done, "case %ld: steps %ld vs %ld", cs, r->steps_done, s->steps_done);
    if (r->steps_done < N) N = r->steps_done;
    for (long i = 0; i <= N; i++) {
        if (mpfr_cmp(r->eps_x[i], s->eps_x[i]) < 0 || mpfr_cmp(r->eps_y[i], s->eps_y[i]) < 0) bad_rig++;
        if (!same_fr(r->eps_x[i], s->eps_x[i]) || !same_fr(r->eps_y[i], s->eps_y[i])) bad_eq++;
        for (long k = 0; k < m; k++) {
            /* the fast [yhat] must contain the MPFI one */
            if (mpfr_cmp(&r->yhat[i * m + k]->left, &s->yhat[i * m + k]->left) > 0 ||
                mpfr_cmp(&r->yhat[i * m + k]->right, &s->yhat[i * m + k]->right) < 0)
                bad_rig++;
            if (!same_fi(r->yhat[i * m + k], s->yhat[i * m + k])) bad_eq++;
        }
        if (i == N) break;
        if (r->Lx[i] < s->Lx[i] || r->delta[i] < s->delta[i] || r->ry[i] < s->ry[i] ||
            r->beta_step[i] < s->beta_step[i])
            bad_rig++;
        if (r->Lx[i] != s->Lx[i] || r->delta[i] != s->delta[i] || r->ry[i] != s->ry[i] ||
            r->Lf[i] != s->Lf[i] || r->Lg[i] != s->Lg[i] || r->beta_step[i] != s->beta_step[i])
            bad_eq++;
    }
    CHECK(bad_rig == 0, "case %ld: %ld fast bounds below the MPFI ones", cs, bad_rig);
    CHECK(bad_eq == 0, "case %ld: %ld fast bounds differ from the MPFI ones", cs, bad_eq);
    CHECK(mpfr_equal_p(r->max_eps_x, s->max_eps_x) && mpfr_equal_p(r->max_eps_y, s->max_eps_y),
          "case %ld: max eps differ", cs);
    *nsteps += N;
}

static dvc_status run_mode(dvc_dlvi_result_t r, const dvc_dlvi_problem_t p, const dvc_dlvi_opts *o, int nofast,
                           const double *xs, const double *ys)
{
    dvc_dlvi_opts oo = *o;
    oo.binary64 = !nofast;
    return xs ? dvc_dlvi_certify(r, p, &oo, xs, ys) : dvc_dlvi_run(r, p, &oo);
}

static void test_random(void)
{
    check_rng rng = {20261125};
    const long ncase = 60;
    long nsteps = 0, nok = 0, nsharp = 0;
    for (long cs = 0; cs < ncase; cs++) {
        long n = 1 + (long)check_rng_unif(&rng, 0, 7.999), m = (long)check_rng_unif(&rng, 0, 4.999);
        int iv = cs % 3 == 2;
        rnd_fun F;
        dvc_dlvi_problem_t p;
        dvc_dlvi_opts o;
        dvc_dlvi_result_t r, s;
        dvc_status st1, st2;
        static const char *const thetas[] = {"0", "0.5", "1", "[0.25, 0.375]", "0.7"};
        if (m > n) m = n;
        if (cs % 7 == 3) m = 0;
        F.n = n;
        F.m = m;
        F.om = check_rng_unif(&rng, 0.5, 8);
        F.rad = cs % 2 ? 0.0 : 1e-9;
        for (long k = 0; k < 16; k++) {
            F.cf[k] = check_rng_unif(&rng, -1, 1);
            F.cg[k] = check_rng_unif(&rng, -0.2, 0.2);
        }
        mpfi_init2(F.a, 53);
        mpfi_init2(F.b, 53);
        dvc_dlvi_problem_init(p, 0, 0, 0);
        dlvi_dims(p, n, m);
        for (long k = 0; k < n * n; k++) rnd_entry(p->A->e[k], &rng, 3, iv);
        for (long k = 0; k < n * m; k++) rnd_entry(p->B->e[k], &rng, 1, iv);
        for (long k = 0; k < m * n; k++) rnd_entry(p->Q->e[k], &rng, 2, iv);
        /* M strictly diagonally dominant with positive diagonal: a P-matrix */
        for (long a = 0; a < m; a++)
            for (long b = 0; b < m; b++)
                mpfi_set_d(dvc_imat_entry(p->M, a, b),
                           a == b ? check_rng_unif(&rng, 1.5, 3) : check_rng_unif(&rng, -0.25, 0.25));
        for (long a = 0; a < m; a++) {
            double c = check_rng_unif(&rng, 0, 1);
            mpfi_set_d(p->l->e[a], c < 0.2 ? -INFINITY : 0.0);
            mpfi_set_d(p->u->e[a], c > 0.6 ? INFINITY : 0.5);
            if (c < 0.2 && c > 0.1) mpfi_set_d(p->u->e[a], INFINITY);
        }
        for (long k = 0; k < n; k++) {
            double c = check_rng_unif(&rng, -1, 1);
            if (cs % 4 == 1) mpfi_interv_d(p->x0->e[k], c, c + 1e-6);
            else mpfi_set_d(p->x0->e[k], c);
        }
        dvc_ival_set_str(p->T, cs % 2 ? "0.3" : "0.25");
        p->N = 150;
        dvc_ival_set_str(p->theta, thetas[cs % 5]);
        p->prec = 53;
        p->fcb = (dvc_tfun_cb){n, f_eval, f_lip, f_d, &F, NULL, NULL, 0};
        if (m > 0) p->gcb = (dvc_tfun_cb){m, g_eval, g_lip, g_d, &F, NULL, NULL, 0};
        dvc_dlvi_opts_default(&o);
        o.sharpen = cs % 4 == 0;
        o.lip_block = 1 + cs % 5;
        dvc_dlvi_result_init(r);
        dvc_dlvi_result_init(s);
        st1 = run_mode(r, p, &o, 0, NULL, NULL);
        st2 = run_mode(s, p, &o, 1, NULL, NULL);
        CHECK(st1 == st2, "case %ld (n %ld, m %ld): status %d (fast) vs %d (MPFI)", cs, n, m, (int)st1, (int)st2);
        if (st1 == st2 && st2 != DVC_ERR_INPUT) compare(r, s, cs, &nsteps);
        if (st1 == DVC_OK && st2 == DVC_OK) {
            /* re-certify a perturbed stored predictor, both ways */
            long N = p->N;
            double *xs = malloc(sizeof(double) * (size_t)((N + 1) * n));
            double *ys = malloc(sizeof(double) * (size_t)((N + 1) * (m > 0 ? m : 1)));
            dvc_dlvi_result_t r2, s2;
            for (long k = 0; k < (N + 1) * n; k++) xs[k] = r->x[k] * (1 + 1e-7 * check_rng_unif(&rng, -1, 1));
            for (long k = 0; k < (N + 1) * m; k++) ys[k] = r->y[k];
            dvc_dlvi_result_init(r2);
            dvc_dlvi_result_init(s2);
            st1 = run_mode(r2, p, &o, 0, xs, cs % 2 ? ys : NULL);
            st2 = run_mode(s2, p, &o, 1, xs, cs % 2 ? ys : NULL);
            CHECK(st1 == st2, "case %ld certify: status %d vs %d", cs, (int)st1, (int)st2);
            if (st1 == st2) compare(r2, s2, cs, &nsteps);
            dvc_dlvi_result_clear(r2);
            dvc_dlvi_result_clear(s2);
            free(xs);
            free(ys);
            nok++;
            nsharp += r->n_sharpened;
        }
        dvc_dlvi_result_clear(r);
        dvc_dlvi_result_clear(s);
        dvc_dlvi_problem_clear(p);
        mpfi_clear(F.a);
        mpfi_clear(F.b);
    }
    CHECK(nok >= ncase / 2, "only %ld of %ld random problems certified", nok, ncase);
    printf("fast vs MPFI: %ld problems (%ld certified, %ld sharpened steps), %ld steps compared\n", ncase, nok,
           nsharp, nsteps);
}

/* The binary64 kernels switch the rounding mode and must hand the
 * caller's mode back (m = 0: no other module touches it during the run). */
static void test_caller_rounding(void)
{
    static const int modes[] = {FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};
    for (int k = 0; k < 3; k++) {
        dvc_dlvi_problem_t p;
        dvc_dlvi_result_t r;
        dvc_status st;
        int after;
        dvc_dlvi_problem_init(p, 2, 0, 53);
        /* x1' = x2, x2' = -x1 */
        mpfi_set_ui(dvc_imat_entry(p->A, 0, 1), 1);
        mpfi_set_si(dvc_imat_entry(p->A, 1, 0), -1);
        mpfi_set_ui(p->x0->e[0], 1);
        mpfi_set_ui(p->T, 1);
        p->N = 50;
        dvc_dlvi_result_init(r);
        fesetround(modes[k]);
        st = dvc_dlvi_run(r, p, NULL);
        after = fegetround();
        fesetround(FE_TONEAREST);
        CHECK(st == DVC_OK, "mode %d: run: %s", k, dvc_error_message());
        CHECK(after == modes[k], "mode %d: the caller's rounding mode is restored", k);
        dvc_dlvi_result_clear(r);
        dvc_dlvi_problem_clear(p);
    }
}

int main(void)
{
    test_caller_rounding();
    test_random();
    return check_report();
}
