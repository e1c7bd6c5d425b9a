/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Expression parser and evaluator. Oracles, for f(t, x1, x2) on the box
 * B = [0,1] x [-1,2] x [0.5,3] and the points a, b in B:
 *   f(B) meets f(a) (both enclose the true f(a));
 *   f(b) - f(a) meets the tangent enclosure grad f(B).(b - a) (Lebourg's
 *   mean value theorem; the derivative encloses Clarke's at kinks). */
#include "dvicert/dvicert.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int meet(const mpfi_t u, const mpfi_t v)
{
    return mpfr_lessequal_p(&u->left, &v->right) && mpfr_lessequal_p(&v->left, &u->right);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const vars[] = {"x1", "x2"};
    char *text = fuzz_str(data, size);
    dvc_expr_consts_t k;
    dvc_expr_t e;
    dvc_ivec_t X, Xa, Xb, dX;
    mpfi_t v[8];
    mpfi_ptr T = v[0], ta = v[1], tb = v[2], dT = v[3], f = v[4], df = v[5], fa = v[6], fb = v[7];

    dvc_prec_set(53);
    dvc_expr_consts_init(k);
    dvc_expr_consts_add_str(k, "gamma", "0.2");
    dvc_expr_consts_add_str(k, "mu", "10");
    dvc_expr_init(e);
    dvc_ivec_init(X, 2);
    dvc_ivec_init(Xa, 2);
    dvc_ivec_init(Xb, 2);
    dvc_ivec_init(dX, 2);
    for (int i = 0; i < 8; i++) mpfi_init2(v[i], 53);
    mpfi_interv_d(T, 0, 1);
    mpfi_set_d(ta, 0.25);
    mpfi_set_d(tb, 0.75);
    mpfi_set_d(dT, 0.5);
    mpfi_interv_d(X->e[0], -1, 2);
    mpfi_interv_d(X->e[1], 0.5, 3);
    mpfi_set_d(Xa->e[0], 0.5);
    mpfi_set_d(Xa->e[1], 1);
    mpfi_set_d(Xb->e[0], 1.5);
    mpfi_set_d(Xb->e[1], 2.5);
    mpfi_set_d(dX->e[0], 1);
    mpfi_set_d(dX->e[1], 1.5);

    if (dvc_expr_parse_vars(e, text, k, 2, vars) == DVC_OK &&
        dvc_expr_eval_x(fa, e, ta, Xa) == DVC_OK && dvc_expr_eval_x(fb, e, tb, Xb) == DVC_OK) {
        if (dvc_expr_eval_x(f, e, T, X) == DVC_OK)
            FUZZ_ASSERT(meet(f, fa), "f(B) misses f(a) for '%s'", text);
        if (dvc_expr_eval_tangent(f, df, e, T, X, dT, dX) == DVC_OK) {
            FUZZ_ASSERT(meet(f, fa), "tangent value f(B) misses f(a) for '%s'", text);
            mpfi_sub(fb, fb, fa);
            FUZZ_ASSERT(meet(fb, df), "f(b) - f(a) outside grad f(B).(b - a) for '%s'", text);
        }
    }
    for (int i = 0; i < 8; i++) mpfi_clear(v[i]);
    dvc_ivec_clear(X);
    dvc_ivec_clear(Xa);
    dvc_ivec_clear(Xb);
    dvc_ivec_clear(dX);
    dvc_expr_clear(e);
    dvc_expr_consts_clear(k);
    free(text);
    return 0;
}
