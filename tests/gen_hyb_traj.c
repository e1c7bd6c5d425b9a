/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Writes the exact trajectory of the piecewise harmonic oscillator of
 * certs/pw-harmonic (x' = y, y' = -x for x > 0, y' = -3x for x < 0, from
 * (1, 0)) from its closed form evaluated with MPFR at 256 bits, printed with
 * 25 significant digits, for the CLI test of `dvicert check` on a hybrid
 * certificate. Independent of the engine.
 *
 *   gen_hyb_traj T K SEED names|index [DY]
 *
 * K samples: t = 0, t = T, two samples 1e-6 either side of every crossing
 * before T, the rest uniform in [0, T] from a fixed-seed generator. Header
 * t,x,y (names) or t,x1,x2 (index). DY (decimal, default 0) is added to y. */
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREC 256

static uint64_t rng_state;
static double rng_unit(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

/* crossings: pi/2, then + pi/sqrt3 (in x < 0) and + pi (in x > 0) in turn */
static int ncross;
static mpfr_t tc[200];

static void eval(mpfr_t x, mpfr_t y, const mpfr_t t)
{
    mpfr_t s, w;
    int k = 0;
    mpfr_inits2(PREC, s, w, (mpfr_ptr)0);
    while (k < ncross && mpfr_cmp(t, tc[k]) > 0) k++;
    if (k == 0) {
        mpfr_cos(x, t, MPFR_RNDN);
        mpfr_sin(y, t, MPFR_RNDN);
        mpfr_neg(y, y, MPFR_RNDN);
    } else {
        mpfr_sub(s, t, tc[k - 1], MPFR_RNDN);
        if (k % 2 == 1) { /* x < 0: x = -sin(w s)/w, y = -cos(w s), w = sqrt 3 */
            mpfr_sqrt_ui(w, 3, MPFR_RNDN);
            mpfr_mul(s, s, w, MPFR_RNDN);
            mpfr_sin(x, s, MPFR_RNDN);
            mpfr_div(x, x, w, MPFR_RNDN);
            mpfr_neg(x, x, MPFR_RNDN);
            mpfr_cos(y, s, MPFR_RNDN);
            mpfr_neg(y, y, MPFR_RNDN);
        } else { /* x > 0: x = sin s, y = cos s */
            mpfr_sin(x, s, MPFR_RNDN);
            mpfr_cos(y, s, MPFR_RNDN);
        }
    }
    mpfr_clears(s, w, (mpfr_ptr)0);
}

static void sample(double td, const mpfr_t dy)
{
    char tb[64];
    mpfr_t t, x, y;
    mpfr_inits2(PREC, t, x, y, (mpfr_ptr)0);
    snprintf(tb, sizeof tb, "%.17g", td);
    mpfr_set_str(t, tb, 10, MPFR_RNDN);
    eval(x, y, t);
    mpfr_add(y, y, dy, MPFR_RNDN);
    mpfr_printf("%s,%.24Re,%.24Re\n", tb, x, y);
    mpfr_clears(t, x, y, (mpfr_ptr)0);
}

int main(int argc, char **argv)
{
    double T;
    long K, written = 0;
    mpfr_t pi, a, s3, dy;
    if (argc < 5 || (strcmp(argv[4], "names") != 0 && strcmp(argv[4], "index") != 0)) {
        fprintf(stderr, "usage: gen_hyb_traj T K SEED names|index [DY]\n");
        return 2;
    }
    T = strtod(argv[1], NULL);
    K = strtol(argv[2], NULL, 10);
    rng_state = strtoull(argv[3], NULL, 10);
    mpfr_inits2(PREC, pi, a, s3, dy, (mpfr_ptr)0);
    mpfr_set_str(dy, argc > 5 ? argv[5] : "0", 10, MPFR_RNDN);
    mpfr_const_pi(pi, MPFR_RNDN);
    mpfr_sqrt_ui(s3, 3, MPFR_RNDN);
    mpfr_div(s3, pi, s3, MPFR_RNDN);
    mpfr_div_ui(a, pi, 2, MPFR_RNDN);
    for (ncross = 0; ncross < 200 && mpfr_get_d(a, MPFR_RNDN) <= T + 10; ncross++) {
        mpfr_init2(tc[ncross], PREC);
        mpfr_set(tc[ncross], a, MPFR_RNDN);
        mpfr_add(a, a, ncross % 2 == 0 ? s3 : pi, MPFR_RNDN);
    }
    printf(strcmp(argv[4], "names") == 0 ? "t,x,y\n" : "t,x1,x2\n");
    sample(0.0, dy);
    sample(T, dy);
    written = 2;
    for (int k = 0; k < ncross && written + 2 <= K; k++) {
        double c = mpfr_get_d(tc[k], MPFR_RNDN);
        if (c + 1e-6 >= T) break;
        sample(c - 1e-6, dy);
        sample(c + 1e-6, dy);
        written += 2;
    }
    for (; written < K; written++) sample(T * rng_unit(), dy);
    for (int k = 0; k < ncross; k++) mpfr_clear(tc[k]);
    mpfr_clears(pi, a, s3, dy, (mpfr_ptr)0);
    return 0;
}
