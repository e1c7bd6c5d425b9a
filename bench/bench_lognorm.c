/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The two certification routes side by side on problem files: Algorithm
 * 4.2 (dvc_dlvi_run, with and without sharpening) and the lognorm route
 * (dvc_lognorm_run): certified steps/s, certified / predictor-only time,
 * and the certified radius at T; the lognorm route also with Heun's
 * predictor (order 2; 8 and 4 pieces per step). Times are CPU time of the process (the
 * machine is shared: wall time would count the other processes). The
 * lognorm route's one-time setup (norm search and proofs,
 * dvc_lognorm_norm, timed alone) is reported apart: "per step" and
 * "steps/s" of that route are net of it. Usage:
 *   bench_lognorm [CERTS_DIR]        the examples of certs/ (the bridge
 *                                    also at h = 1e-4 and at T = 10, the
 *                                    pounding at T = 10) and the chain of
 *                                    bench_dlvi.c with k = 8 and 32 masses
 *   bench_lognorm --chain K          the chain of K masses only
 *   bench_lognorm FILE.json [N [T]]  one problem (N, T override the file;
 *                                    N = 0 keeps the file's h)
 *   bench_lognorm --ref FILE.json [N [T [DERIV [K]]]]  the lognorm radius
 *                                    against the predictor at h/64
 *                                    (DERIV 0: without the derivative
 *                                    enclosures of f, g; K pieces per
 *                                    step) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvicert/dlvi.h"
#include "dvicert/lognorm.h"
#include "dvicert/problem.h"
#include "../tests/dlvi_setup.h"
#include "chain.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void run_both(dvc_dlvi_problem_t p);

/* FNV-1a over the bits of every certified quantity of a lognorm run (the
 * tube's eps_x, eps_y and yhat, and E, dW, rad of info): two builds that
 * print the same digest produced the same tube bit for bit. */
static unsigned long long digest_bytes(unsigned long long h, const void *v, size_t len)
{
    const unsigned char *b = v;
    for (size_t k = 0; k < len; k++) h = (h ^ b[k]) * 1099511628211ull;
    return h;
}

static unsigned long long digest_mpfr(unsigned long long h, mpfr_srcptr x)
{
    /* at 53 bits every bound is a double; beyond, its two nearest doubles */
    double d[2] = {mpfr_get_d(x, MPFR_RNDD), mpfr_get_d(x, MPFR_RNDU)};
    return digest_bytes(h, d, sizeof d);
}

static unsigned long long digest_run(const dvc_dlvi_result_t r, const dvc_lognorm_info_t info)
{
    unsigned long long h = 14695981039346656037ull;
    long N = r->N, m = r->m;
    for (long i = 0; i <= N; i++) {
        h = digest_mpfr(h, r->eps_x[i]);
        h = digest_mpfr(h, r->eps_y[i]);
        for (long a = 0; a < m; a++) {
            h = digest_mpfr(h, &r->yhat[i * m + a]->left);
            h = digest_mpfr(h, &r->yhat[i * m + a]->right);
        }
    }
    h = digest_bytes(h, info->E, (size_t)(N + 1) * sizeof(double));
    h = digest_bytes(h, info->rad, (size_t)(N + 1) * sizeof(double));
    h = digest_bytes(h, info->dW, (size_t)N * sizeof(double));
    return h;
}

static void one(const char *path, long N, double T)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_problem_init(p, 0, 0, 0);
    if (dvc_problem_read(p, path, 0) != DVC_OK) {
        fprintf(stderr, "%s: %s\n", path, dvc_error_message());
        dvc_dlvi_problem_clear(p);
        return;
    }
    if (T > 0) {
        if (N <= 0) N = (long)llround(T / (mpfr_get_d(&p->T->left, MPFR_RNDN) / (double)p->N));
        mpfi_set_d(p->T, T);
    }
    if (N > 0) p->N = N;
    printf("%s: n = %ld, m = %ld, T = %g, N = %ld\n", path, p->n, p->m, mpfr_get_d(&p->T->left, MPFR_RNDN), p->N);
    run_both(p);
    dvc_dlvi_problem_clear(p);
}

static void run_chain(long k)
{
    dvc_dlvi_problem_t p;
    forcing F;
    long m;
    mpfi_init2(F.a, 53);
    mpfi_init2(F.b, 53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    chain(p, &F, k, k <= 8 ? 2000 : 500, k <= 8 ? "0.2" : "0.05");
    m = p->m;
    p->gcb.k = m;
    p->gcb.eval = g_eval;
    p->gcb.lipschitz = dlvi_zero_lip;
    p->gcb.eval_d = g_d;
    p->gcb.ctx = &m;
    printf("chain k = %ld: n = %ld, m = %ld, T = %g, N = %ld\n", k, p->n, p->m, mpfr_get_d(&p->T->left, MPFR_RNDN),
           p->N);
    run_both(p);
    dvc_dlvi_problem_clear(p);
    mpfi_clear(F.a);
    mpfi_clear(F.b);
}

static void run_both(dvc_dlvi_problem_t p)
{
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    dvc_lognorm_opts lo;
    dvc_lognorm_info_t info;
    dvc_status st;
    double t0, tpred, *xs, *ys;
    dvc_dlvi_opts_default(&o);
    xs = malloc((size_t)((p->N + 1) * p->n) * sizeof(double));
    ys = malloc((size_t)((p->N + 1) * (p->m > 0 ? p->m : 1)) * sizeof(double));
    t0 = now();
    st = dvc_dlvi_predict(xs, ys, p, &o);
    tpred = now() - t0;
    free(xs);
    free(ys);
    if (st != DVC_OK) printf("  predictor: %s\n", dvc_error_message());
    double el_alg = -1.0, el_setup = 0.0;
    /* routes 3, 4: the lognorm route with Heun's predictor (order 2), with
     * its default 8 pieces per step and with 4 */
    for (int route = 0; route < 5; route++) {
        double t1, el, rad;
        const char *name = route == 0   ? "alg4.2"
                           : route == 1 ? "alg4.2 sharpen"
                           : route == 2 ? "lognorm"
                           : route == 3 ? "lognorm heun"
                                        : "lognorm heun K4";
        dvc_dlvi_result_init(r);
        dvc_lognorm_info_init(info);
        t1 = now();
        if (route < 2) {
            o.sharpen = route;
            st = dvc_dlvi_run(r, p, &o);
        } else {
            dvc_lognorm_opts_default(&lo);
            if (route >= 3) {
                lo.predictor = DVC_LOGNORM_PRED_HEUN;
                lo.pieces = route == 3 ? DVC_LOGNORM_PIECES_EXT : 4;
            }
            /* the setup alone, then the whole run (which repeats it) */
            st = dvc_lognorm_norm(info, p, &lo);
            el_setup = now() - t1;
            dvc_lognorm_info_clear(info);
            dvc_lognorm_info_init(info);
            t1 = now();
            if (st == DVC_OK) st = dvc_lognorm_run(r, info, p, &lo);
        }
        el = now() - t1;
        if (st != DVC_OK) {
            printf("  %-15s not certified after %ld steps (%.2f s): %.150s\n", name, r->steps_done, el,
                   dvc_error_message());
        } else {
            double net = route < 2 ? el : el - el_setup;
            if (net <= 0) net = el;
            rad = route < 2 ? mpfr_get_d(r->eps_x[r->N], MPFR_RNDU) : info->rad[r->N];
            printf("  %-15s %9.0f steps/s  certified/predictor %7.1f  radius(T) %.4e", name, r->N / net,
                   net / tpred, rad);
            if (route >= 2)
                printf("  [%s, mu %.4g, mode norms %ld, switches %ld, affine %ld/%ld, binary64 %ld; setup %.3f s;"
                       " digest %016llx]",
                       info->kind == DVC_LOGNORM_QUAD ? "P" : "W", mpfr_get_d(info->mu, MPFR_RNDU), info->n_modes,
                       info->n_switch, info->n_affine, r->N, info->n_fast, el_setup, digest_run(r, info));
            printf("\n");
            if (route == 0) el_alg = el;
            /* the cost target: lognorm <= 3x Algorithm 4.2 per step */
            if (route >= 2 && el_alg > 0)
                printf("  cost per step %s / alg4.2: %.1fx (with the setup: %.1fx)\n", name, net / el_alg,
                       el / el_alg);
        }
        dvc_lognorm_info_clear(info);
        dvc_dlvi_result_clear(r);
    }
}

/* Tightness against a finer predictor: the lognorm route at N steps and
 * the theta method at 64 N; at every grid point the error estimate
 * err_i = ||x_h(t_i) - x_{h/64}(t_i)||_inf. Prints the ratio at T and the
 * largest radius(t_i) / max_{j <= i} err_j (the radius against the error
 * envelope so far: an error crossing zero does not count as tightness). */
static void ref64(const char *path, long N, double T, int deriv, long pieces)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_lognorm_opts lo;
    dvc_lognorm_info_t info;
    dvc_status st;
    long n, Nf;
    double *xf, *yf, env = 0, worst = 0, worst_t = 0, t0;
    dvc_dlvi_problem_init(p, 0, 0, 0);
    if (dvc_problem_read(p, path, 0) != DVC_OK) {
        fprintf(stderr, "%s: %s\n", path, dvc_error_message());
        dvc_dlvi_problem_clear(p);
        return;
    }
    if (T > 0) mpfi_set_d(p->T, T);
    if (N > 0) p->N = N;
    n = p->n;
    N = p->N;
    dvc_lognorm_opts_default(&lo);
    lo.use_deriv = deriv;
    if (pieces > 0) lo.pieces = pieces;
    dvc_dlvi_result_init(r);
    dvc_lognorm_info_init(info);
    t0 = now();
    st = dvc_lognorm_run(r, info, p, &lo);
    printf("%s: T = %g, N = %ld, derivatives %s, K = %ld: lognorm %.2f s\n", path,
           mpfr_get_d(&p->T->left, MPFR_RNDN), N, deriv ? "on" : "off", lo.pieces, now() - t0);
    if (st != DVC_OK) {
        printf("  not certified: %s\n", dvc_error_message());
    } else {
        Nf = 64 * N;
        p->N = Nf;
        xf = malloc((size_t)((Nf + 1) * n) * sizeof(double));
        yf = malloc((size_t)((Nf + 1) * (p->m > 0 ? p->m : 1)) * sizeof(double));
        if (dvc_dlvi_predict(xf, yf, p, &lo.dlvi) != DVC_OK) {
            printf("  reference predictor: %s\n", dvc_error_message());
        } else {
            double eT = 0;
            for (long i = 0; i <= N; i++) {
                double e = 0;
                for (long k = 0; k < n; k++) e = fmax(e, fabs(r->x[i * n + k] - xf[64 * i * n + k]));
                env = fmax(env, e);
                if (i == N) eT = e;
                if (env > 0 && info->rad[i] / env > worst) {
                    worst = info->rad[i] / env;
                    worst_t = (double)i / (double)N * mpfr_get_d(&p->T->left, MPFR_RNDN);
                }
            }
            printf("  radius(T) %.4e, error estimate at T %.4e (ratio %.2f); max over t of radius / error "
                   "envelope %.2f (t = %.3g); pieces with derivatives %ld\n",
                   info->rad[N], eT, info->rad[N] / eT, worst, worst_t, info->n_deriv);
            {
                /* Algorithm 4.2 on the same grid (same theta predictor) */
                dvc_dlvi_result_t r2;
                p->N = N;
                dvc_dlvi_result_init(r2);
                if (dvc_dlvi_run(r2, p, &lo.dlvi) == DVC_OK)
                    printf("  alg4.2: radius(T) %.4e (ratio %.3g)\n", mpfr_get_d(r2->eps_x[N], MPFR_RNDU),
                           mpfr_get_d(r2->eps_x[N], MPFR_RNDU) / eT);
                else
                    printf("  alg4.2: not certified after %ld steps: %.120s\n", r2->steps_done, dvc_error_message());
                dvc_dlvi_result_clear(r2);
            }
        }
        free(xf);
        free(yf);
    }
    dvc_lognorm_info_clear(info);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "certs";
    size_t len = strlen(dir);
    if (strcmp(dir, "--ref") == 0 && argc > 2) {
        /* bench_lognorm --ref FILE.json [N [T [DERIV [PIECES]]]] */
        ref64(argv[2], argc > 3 ? atol(argv[3]) : 0, argc > 4 ? atof(argv[4]) : 0, argc > 5 ? atoi(argv[5]) : 1,
              argc > 6 ? atol(argv[6]) : 0);
        return 0;
    }
    if (strcmp(dir, "--chain") == 0 && argc > 2) {
        /* bench_lognorm --chain K: the chain of K masses only */
        mpfi_init2(g_val, 53);
        dvc_ival_set_str(g_val, "0.06");
        run_chain(atol(argv[2]));
        mpfi_clear(g_val);
        return 0;
    }
    if (len > 5 && strcmp(dir + len - 5, ".json") == 0) {
        one(dir, argc > 2 ? atol(argv[2]) : 0, argc > 3 ? atof(argv[3]) : 0);
        return 0;
    }
    static const char *const files[] = {"bridge/gamma0.2.json", "pounding/pounding.json", "circuit/circuit.json",
                                        "remark43/x0_1.json", "remark43/x0_0.json"};
    char path[1024];
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        one(path, 0, 0);
    }
    snprintf(path, sizeof path, "%s/bridge/gamma0.2.json", dir);
    one(path, 10000, 0);
    one(path, 0, 10.0);
    snprintf(path, sizeof path, "%s/pounding/pounding.json", dir);
    one(path, 0, 10.0);
    mpfi_init2(g_val, 53);
    dvc_ival_set_str(g_val, "0.06");
    run_chain(8);
    run_chain(32);
    mpfi_clear(g_val);
    return 0;
}
