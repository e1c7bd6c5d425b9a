/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The hybrid engine with its binary64 and x87 routes on and off (Taylor
 * mode's binary64 route, src/expr/taylor_dd.c, with the 53-bit fast path
 * of expressions; the 64-bit route of the matrix products and of the field
 * flow, src/imat_ld.c, src/hybrid/field.c): on the field-mode models of
 * certs/ every step time, state enclosure, step box and set must be the
 * same bit for bit (the routes promise MPFI's results). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dvicert/dvicert.h"
#include "expr/internal.h"
#include "imat_ld.h"
#include "io/hybrid_json.h"

static int same_fr(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

static int same_vec(const dvc_ivec_t a, const dvc_ivec_t b)
{
    if (a->n != b->n) return 0;
    for (long i = 0; i < a->n; i++)
        if (!same_fr(&a->e[i]->left, &b->e[i]->left) || !same_fr(&a->e[i]->right, &b->e[i]->right)) return 0;
    return 1;
}

static void run(dvc_hybrid_result_t r, const char *file, int on)
{
    dvc_hybrid_model_t m;
    dvc_expr_fast_enable_(on);
    dvc_imat_ld_enable_(on);
    dvc_status st = dvc_hybrid_load(m, file, 53);
    if (st == DVC_OK) st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK, "%s (routes %s): %s", file, on ? "on" : "off", dvc_error_message());
    dvc_hybrid_model_clear(m);
    dvc_expr_fast_enable_(1);
    dvc_imat_ld_enable_(1);
}

int main(int argc, char **argv)
{
    static const char *models[] = {"elliptic", "stickslip", "threemass"};
    const char *dir = argc > 1 ? argv[1] : "certs";
    for (size_t k = 0; k < sizeof models / sizeof *models; k++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s/%s.json", dir, models[k], models[k]);
        dvc_hybrid_result_t a, b;
        dvc_hybrid_result_init(a);
        dvc_hybrid_result_init(b);
        run(a, file, 1);
        run(b, file, 0);
        CHECK(a->nsteps == b->nsteps && a->nevents == b->nevents, "%s: %ld/%ld steps, %ld/%ld events", models[k],
              a->nsteps, b->nsteps, a->nevents, b->nevents);
        long diff = 0;
        for (long i = 0; i <= a->nsteps && a->nsteps == b->nsteps; i++) {
            diff += !same_fr(a->t[i], b->t[i]) || !same_vec(a->x[i], b->x[i]) || !same_vec(a->P[i], b->P[i]) ||
                    !same_vec(a->R[i], b->R[i]);
            if (i < a->nsteps) diff += !same_vec(a->box[i], b->box[i]);
        }
        CHECK(diff == 0, "%s: %ld steps differ with the routes on and off", models[k], diff);
        printf("%s: %ld steps, %ld events, identical with the routes on and off\n", models[k], a->nsteps,
               a->nevents);
        dvc_hybrid_result_clear(a);
        dvc_hybrid_result_clear(b);
    }
    return check_report();
}
