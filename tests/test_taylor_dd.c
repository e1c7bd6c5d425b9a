/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The binary64 route of Taylor mode (src/expr/taylor_dd.c) against the
 * MPFI route and a 256-bit reference: seeded random expressions of t, x1,
 * x2, expanded one coefficient at a time (dvc_expr_taylor_next_, as the
 * hybrid engine's state series) on random interval series given at 64
 * bits (the engine's working precision with its guard bits). With the
 * fast path on and off, every status and every coefficient must be the
 * same bit for bit (the route promises MPFI's results or a refusal, after
 * which the MPFI route recomputes the expansion); every coefficient must
 * contain the 256-bit coefficient of a point series inside the inputs; and
 * the route must carry most expansions whole (refusals rare on ordinary
 * data), also across a refusal half-way (an overflow at a high order). */
#include "check.h"
#include "dvicert/dvicert.h"
#include "expr/internal.h"
#include "expr/taylor_ws.h"

#include <stdio.h>
#include <string.h>

#define K 12
#define NV 2
static const char *const names[NV] = {"x1", "x2"};

/* A random expression of depth at most d over t, x1, x2 (buf: room left n). */
static void gen(check_rng *g, char *buf, size_t n, int d)
{
    static const char *leaf[] = {"t", "x1", "x2", "x1", "x2", "0.3", "2", "1/3", "pi"};
    static const char *un[] = {"sin(%s)", "cos(%s)", "exp(%s/4)", "log(2 + %s^2)", "sqrt(3 + sin(%s))",
                               "tanh(%s)", "sinh(%s/3)", "cosh(%s/3)", "-(%s)", "(%s)^2", "(%s)^3",
                               "1/(2 + cos(%s))", "(2 + sin(%s))^-2", "(1.5 + cos(%s))^0.5"};
    static const char *bin[] = {"(%s + %s)", "(%s - %s)", "%s*%s", "%s*%s", "%s/(3 + %s^2)"};
    if (d == 0 || check_rng_int(g, 0, 3) == 0) {
        snprintf(buf, n, "%s", leaf[check_rng_int(g, 0, 8)]);
        return;
    }
    char a[600], b[600];
    gen(g, a, sizeof a, d - 1);
    if (check_rng_int(g, 0, 1)) {
        snprintf(buf, n, un[check_rng_int(g, 0, 13)], a, a);
    } else {
        gen(g, b, sizeof b, d - 1);
        snprintf(buf, n, bin[check_rng_int(g, 0, 4)], a, b);
    }
}

/* out[0..K-1] by dvc_expr_taylor_next_; the status of the first failure. */
static dvc_status expand(mpfi_t *out, const dvc_expr_struct *e, mpfi_t *const *vars, int *dd)
{
    dvc_status st = dvc_expr_taylor_begin_(e, K - 1);
    for (long k = 0; k < K && st == DVC_OK; k++) st = dvc_expr_taylor_next_(out[k], e, vars, k);
    *dd = e->taylor && e->taylor->dd_on;
    dvc_error_reset();
    return st;
}

static int same(const mpfi_t a, const mpfi_t b)
{
    return mpfr_equal_p(&a->left, &b->left) && mpfr_equal_p(&a->right, &b->right);
}

int main(void)
{
    check_rng g = {2027};
    mpfi_t *ser[NV + 1], *pser[NV + 1], out[K], ref[K], mpfi_out[K];
    mpfr_t m;
    mpfr_init2(m, 256);
    for (int v = 0; v <= NV; v++) {
        ser[v] = malloc(K * sizeof(mpfi_t));
        pser[v] = malloc(K * sizeof(mpfi_t));
        for (int k = 0; k < K; k++) {
            mpfi_init2(ser[v][k], 64);
            mpfi_init2(pser[v][k], 256);
        }
    }
    for (int k = 0; k < K; k++) {
        mpfi_init2(out[k], 64);
        mpfi_init2(mpfi_out[k], 64);
        mpfi_init2(ref[k], 256);
    }
    long ok_both = 0, whole_dd = 0, failed = 0, tried = 0, halfway = 0;
    for (int ex = 0; ex < 400; ex++) {
        char text[2000];
        gen(&g, text, sizeof text, 1 + ex % 4);
        if (ex == 0) snprintf(text, sizeof text, "1e302*(t + 3)^11 + x1"); /* overflows at order 1 */
        if (ex == 1) snprintf(text, sizeof text, "1/x1 + x2^-3");   /* 0 inside the boxes */
        dvc_expr_t e, e256;
        dvc_expr_init2(e, 53);
        dvc_expr_init2(e256, 256);
        REQUIRE(dvc_expr_parse_vars(e, text, NULL, NV, names) == DVC_OK, "parse %s: %s", text,
                dvc_error_message());
        REQUIRE(dvc_expr_parse_vars(e256, text, NULL, NV, names) == DVC_OK, "parse %s", text);
        for (int rep = 0; rep < 6; rep++) {
            /* the series: t = T + s, x_i with random interval coefficients
             * (narrow or point ones, as the centre's; wide, as the step box's) */
            double w = rep % 3 == 0 ? 0 : ldexp(1, -(int)check_rng_int(&g, 2, 50));
            for (int k = 0; k < K; k++) mpfi_set_ui(ser[0][k], 0);
            mpfi_interv_d(ser[0][0], 0.5, 0.5 + w);
            mpfi_set_ui(ser[0][1], 1);
            for (int v = 1; v <= NV; v++)
                for (int k = 0; k < K; k++) {
                    double c = check_rng_unif(&g, -1.5, 1.5) / (k + 1);
                    if (ex == 1 && k == 0) c = 0;
                    mpfi_set_d(ser[v][k], c);
                    mpfi_div_ui(ser[v][k], ser[v][k], 3); /* a 64-bit value */
                    mpfr_set_d(m, w * check_rng_unif(&g, 0, 1), MPFR_RNDU);
                    mpfr_add(&ser[v][k]->right, &ser[v][k]->right, m, MPFR_RNDU);
                }
            /* a point series inside, at 256 bits */
            for (int v = 0; v <= NV; v++)
                for (int k = 0; k < K; k++) {
                    mpfi_mid(m, ser[v][k]);
                    mpfi_set_fr(pser[v][k], m);
                }
            dvc_expr_fast_enable_(1);
            int dd, dd0;
            dvc_status s1 = expand(out, e, ser, &dd);
            dvc_expr_fast_enable_(0);
            dvc_status s2 = expand(mpfi_out, e, ser, &dd0);
            dvc_expr_fast_enable_(1);
            tried++;
            CHECK(s1 == s2, "%s: status %d with the binary64 route, %d without", text, s1, s2);
            CHECK(!dd0, "%s: the binary64 route ran while switched off", text);
            if (s1 != DVC_OK || s2 != DVC_OK) {
                failed++;
                continue;
            }
            ok_both++;
            whole_dd += dd;
            for (int k = 0; k < K; k++)
                CHECK(same(out[k], mpfi_out[k]), "%s (w = %g): coefficient %d differs from MPFI's", text, w, k);
            if (ex == 0 && !dd) halfway++;
            dvc_status s3 = expand(ref, e256, pser, &dd0);
            CHECK(s3 == DVC_OK, "%s: 256-bit reference failed", text);
            for (int k = 0; k < K && s3 == DVC_OK; k++) {
                mpfi_mid(m, ref[k]);
                CHECK(mpfi_is_inside_fr(m, out[k]) > 0, "%s (w = %g): coefficient %d misses the 256-bit value",
                      text, w, k);
            }
        }
        dvc_expr_clear(e);
        dvc_expr_clear(e256);
    }
    printf("%ld expansions: %ld certified by both routes (%ld of them wholly on the binary64 route), %ld failed on both\n",
           tried, ok_both, whole_dd, failed);
    CHECK(whole_dd >= 9 * ok_both / 10, "the binary64 route refused too often: %ld of %ld", ok_both - whole_dd,
          ok_both);
    CHECK(halfway > 0, "no expansion handed to the MPFI route half-way (an overflow)");
    CHECK(failed < tried / 4, "too many failures (%ld of %ld): the generator is off", failed, tried);
    for (int v = 0; v <= NV; v++) {
        for (int k = 0; k < K; k++) {
            mpfi_clear(ser[v][k]);
            mpfi_clear(pser[v][k]);
        }
        free(ser[v]);
        free(pser[v]);
    }
    for (int k = 0; k < K; k++) {
        mpfi_clear(out[k]);
        mpfi_clear(mpfi_out[k]);
        mpfi_clear(ref[k]);
    }
    mpfr_clear(m);
    return check_report();
}
