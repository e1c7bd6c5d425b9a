/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The two certification routes side by side on problem files: Algorithm
 * 4.2 (dvc_dlvi_run, with and without sharpening) and the lognorm route
 * (dvc_lognorm_run): certified steps/s, certified / predictor-only time,
 * and the certified radius at T. Usage:
 *   bench_lognorm [CERTS_DIR]        the examples of certs/ (the bridge
 *                                    also at h = 1e-4 and at T = 10)
 *   bench_lognorm FILE.json [N [T]]  one problem (N, T override the file;
 *                                    N = 0 keeps the file's h) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvicert/dlvi.h"
#include "dvicert/lognorm.h"
#include "dvicert/problem.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void one(const char *path, long N, double T)
{
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    dvc_lognorm_opts lo;
    dvc_lognorm_info_t info;
    dvc_status st;
    double t0, tpred, *xs, *ys;
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
    dvc_dlvi_opts_default(&o);
    xs = malloc((size_t)((p->N + 1) * p->n) * sizeof(double));
    ys = malloc((size_t)((p->N + 1) * (p->m > 0 ? p->m : 1)) * sizeof(double));
    t0 = now();
    st = dvc_dlvi_predict(xs, ys, p, &o);
    tpred = now() - t0;
    free(xs);
    free(ys);
    if (st != DVC_OK) printf("  predictor: %s\n", dvc_error_message());
    for (int route = 0; route < 3; route++) {
        double t1, el, rad;
        const char *name = route == 0 ? "alg4.2" : route == 1 ? "alg4.2 sharpen" : "lognorm";
        dvc_dlvi_result_init(r);
        dvc_lognorm_info_init(info);
        t1 = now();
        if (route < 2) {
            o.sharpen = route;
            st = dvc_dlvi_run(r, p, &o);
        } else {
            dvc_lognorm_opts_default(&lo);
            st = dvc_lognorm_run(r, info, p, &lo);
        }
        el = now() - t1;
        if (st != DVC_OK) {
            printf("  %-15s not certified after %ld steps (%.2f s): %.150s\n", name, r->steps_done, el,
                   dvc_error_message());
        } else {
            rad = route < 2 ? mpfr_get_d(r->eps_x[r->N], MPFR_RNDU) : info->rad[r->N];
            printf("  %-15s %9.0f steps/s  certified/predictor %7.1f  radius(T) %.4e", name, r->N / el,
                   el / tpred, rad);
            if (route == 2)
                printf("  [%s, mu %.4g, mode norms %ld, switches %ld, affine %ld/%ld]",
                       info->kind == DVC_LOGNORM_QUAD ? "P" : "W", mpfr_get_d(info->mu, MPFR_RNDU), info->n_modes,
                       info->n_switch, info->n_affine, r->N);
            printf("\n");
        }
        dvc_lognorm_info_clear(info);
        dvc_dlvi_result_clear(r);
    }
    dvc_dlvi_problem_clear(p);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "certs";
    size_t len = strlen(dir);
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
    return 0;
}
