/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Writes exact trajectories (closed forms evaluated with MPFR at 256 bits,
 * printed with 25 significant digits) at random, unsorted times, for the
 * CLI test of `dvicert check`. Independent of the engine.
 *
 *   gen_traj bridge GAMMA T K SEED [DX]   Example 5.1 (alpha = 4, beta = 1,
 *       g = sin 4t, x(0) = (0, GAMMA)): for GAMMA > 0 and t <= pi/2 the
 *       solution stays in x1 >= 0, so y = 0 and
 *       x1 = (GAMMA + 1/3)/2 sin 2t - sin(4t)/12, x2 = x1'.
 *   gen_traj remark43 MU T K SEED [DX]    Remark 4.3 with x(0) = 1, T < log 2:
 *       x = y1 = 2 - e^t, y2 = 0.
 *   gen_traj bridgesw X10 GAMMA T K SEED [DX]  Example 5.1 from x(0) = (X10, GAMMA)
 *       with contact phases (y = max(0, -3 x1) > 0), from the piecewise closed
 *       form of tests/ref_bridge.c (switch times by bisection at 256 bits).
 *   gen_traj wall C X10 GAMMA T K SEED  the same in other units (a wall in
 *       "SI units", time scaled by C, a power of two): X1(s) = x1(C s),
 *       X2(s) = C x2(C s), Y(s) = C^2 y(C s) for s in [0, T] solve
 *       X1' = X2, X2' = -4 C^2 X1 - Y + C^2 sin(4 C s), Y = max(0, -3 C^2 X1),
 *       X(0) = (X10, C GAMMA).
 * DX (decimal, default 0) is added to x1 of every sample. Times are drawn
 * uniformly in [0, T] from a fixed-seed generator; t = 0 and t = T are
 * included. */
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_bridge.h"

#define PREC 256

static uint64_t rng_state;
static double rng_unit(void)
{
    /* splitmix64: fixed seed, reproducible everywhere */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

static void put(const mpfr_t v)
{
    mpfr_printf(",%.24Re", v);
}

/* One CSV row: the time as given, then x1, x2, and y (or 0 when y is NULL) */
static void put_row(const char *tb, const mpfr_t x1, const mpfr_t x2, const mpfr_t y)
{
    printf("%s", tb);
    put(x1);
    put(x2);
    if (y) put(y);
    else printf(",0");
    printf("\n");
}

int main(int argc, char **argv)
{
    int bridge;
    long k;
    double T;
    mpfr_t par, t, a, s, c, x1, x2, dx, tmp;
    if (argc >= 8 && strcmp(argv[1], "wall") == 0) {
        ref_bridge rb;
        mpfr_t y, C;
        double Tw = strtod(argv[5], NULL), Cd = strtod(argv[2], NULL);
        k = strtol(argv[6], NULL, 10);
        rng_state = strtoull(argv[7], NULL, 10);
        if (ref_bridge_init(&rb, argv[3], argv[4], Tw * Cd) != 0) {
            fprintf(stderr, "gen_traj: reference solution failed (tangential crossing?)\n");
            return 1;
        }
        mpfr_inits2(PREC, t, x1, x2, y, C, (mpfr_ptr)0);
        mpfr_set_d(C, Cd, MPFR_RNDN);
        printf("t,x1,x2,y1\n");
        for (long i = 0; i < k; i++) {
            char tb[64];
            double td = i == 0 ? 0.0 : i == 1 ? Tw : Tw * rng_unit();
            snprintf(tb, sizeof tb, "%.17g", td);
            mpfr_set_str(t, tb, 10, MPFR_RNDN);
            mpfr_mul(t, t, C, MPFR_RNDN); /* bridge time C s */
            ref_bridge_eval(&rb, x1, x2, y, t);
            mpfr_mul(x2, x2, C, MPFR_RNDN);
            mpfr_mul(y, y, C, MPFR_RNDN);
            mpfr_mul(y, y, C, MPFR_RNDN);
            put_row(tb, x1, x2, y);
        }
        mpfr_clears(t, x1, x2, y, C, (mpfr_ptr)0);
        ref_bridge_clear(&rb);
        return 0;
    }
    if (argc >= 7 && strcmp(argv[1], "bridgesw") == 0) {
        ref_bridge rb;
        mpfr_t y;
        double Tw = strtod(argv[4], NULL);
        k = strtol(argv[5], NULL, 10);
        rng_state = strtoull(argv[6], NULL, 10);
        if (ref_bridge_init(&rb, argv[2], argv[3], Tw) != 0) {
            fprintf(stderr, "gen_traj: reference solution failed (tangential crossing?)\n");
            return 1;
        }
        mpfr_inits2(PREC, t, x1, x2, y, dx, (mpfr_ptr)0);
        mpfr_set_str(dx, argc > 7 ? argv[7] : "0", 10, MPFR_RNDN);
        printf("t,x1,x2,y1\n");
        for (long i = 0; i < k; i++) {
            char tb[64];
            double td = i == 0 ? 0.0 : i == 1 ? Tw : Tw * rng_unit();
            snprintf(tb, sizeof tb, "%.17g", td);
            mpfr_set_str(t, tb, 10, MPFR_RNDN);
            ref_bridge_eval(&rb, x1, x2, y, t);
            mpfr_add(x1, x1, dx, MPFR_RNDN);
            put_row(tb, x1, x2, y);
        }
        mpfr_clears(t, x1, x2, y, dx, (mpfr_ptr)0);
        ref_bridge_clear(&rb);
        return 0;
    }
    if (argc < 6) {
        fprintf(stderr, "usage: gen_traj bridge|remark43 PARAM T K SEED [DX]\n"
                        "       gen_traj bridgesw X10 GAMMA T K SEED [DX]\n"
                        "       gen_traj wall C X10 GAMMA T K SEED\n");
        return 2;
    }
    bridge = strcmp(argv[1], "bridge") == 0;
    if (!bridge && strcmp(argv[1], "remark43") != 0) {
        fprintf(stderr, "gen_traj: unknown example '%s'\n", argv[1]);
        return 2;
    }
    T = strtod(argv[3], NULL);
    k = strtol(argv[4], NULL, 10);
    rng_state = strtoull(argv[5], NULL, 10);
    mpfr_inits2(PREC, par, t, a, s, c, x1, x2, dx, tmp, (mpfr_ptr)0);
    mpfr_set_str(par, argv[2], 10, MPFR_RNDN);
    mpfr_set_str(dx, argc > 6 ? argv[6] : "0", 10, MPFR_RNDN);
    printf(bridge ? "t,x1,x2,y1\n" : "t,x1,y1,y2\n");
    for (long i = 0; i < k; i++) {
        char tb[64];
        double td = i == 0 ? 0.0 : i == 1 ? T : T * rng_unit();
        snprintf(tb, sizeof tb, "%.17g", td);
        mpfr_set_str(t, tb, 10, MPFR_RNDN);
        if (bridge) {
            /* a = (gamma + 1/3) / 2 */
            mpfr_set_ui(a, 1, MPFR_RNDN);
            mpfr_div_ui(a, a, 3, MPFR_RNDN);
            mpfr_add(a, a, par, MPFR_RNDN);
            mpfr_div_ui(a, a, 2, MPFR_RNDN);
            mpfr_mul_ui(tmp, t, 2, MPFR_RNDN);
            mpfr_sin_cos(s, c, tmp, MPFR_RNDN);
            mpfr_mul(x1, a, s, MPFR_RNDN);
            mpfr_mul_ui(x2, a, 2, MPFR_RNDN);
            mpfr_mul(x2, x2, c, MPFR_RNDN);
            mpfr_mul_ui(tmp, t, 4, MPFR_RNDN);
            mpfr_sin_cos(s, c, tmp, MPFR_RNDN);
            mpfr_div_ui(s, s, 12, MPFR_RNDN);
            mpfr_sub(x1, x1, s, MPFR_RNDN);
            mpfr_div_ui(c, c, 3, MPFR_RNDN);
            mpfr_sub(x2, x2, c, MPFR_RNDN);
            mpfr_add(x1, x1, dx, MPFR_RNDN);
            put_row(tb, x1, x2, NULL);
        } else {
            mpfr_exp(x2, t, MPFR_RNDN);
            mpfr_ui_sub(x2, 2, x2, MPFR_RNDN); /* exact x = y1 */
            mpfr_add(x1, x2, dx, MPFR_RNDN);
            put_row(tb, x1, x2, NULL);
        }
    }
    mpfr_clears(par, t, a, s, c, x1, x2, dx, tmp, (mpfr_ptr)0);
    return 0;
}
