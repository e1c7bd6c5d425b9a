/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Minimal assertion helpers shared by the test programs. Each program ends
 * with `return check_report();`, which prints "N passed, N failed". */
#ifndef DVC_TESTS_CHECK_H
#define DVC_TESTS_CHECK_H

#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>

static long check_passed_, check_failed_;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (cond) {                                                             \
            check_passed_++;                                                    \
        } else {                                                                \
            check_failed_++;                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* Abort the program: used when continuing would only produce noise. */
#define REQUIRE(cond, ...)                                                      \
    do {                                                                        \
        int require_ok_ = (cond) ? 1 : 0;                                       \
        CHECK(require_ok_, __VA_ARGS__);                                        \
        if (!require_ok_) {                                                     \
            fprintf(stderr, "%ld passed, %ld failed\n", check_passed_, check_failed_); \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

static inline int check_report(void)
{
    printf("%ld passed, %ld failed\n", check_passed_, check_failed_);
    if (check_passed_ == 0) {
        fprintf(stderr, "no check ran\n");
        return 1;
    }
    return check_failed_ ? 1 : 0;
}

/* True when both the x87 unit (fegetround, which glibc reads from the x87
 * control word on x86-64) and double arithmetic (probed, since the library
 * may set the SSE rounding bits directly) round to nearest. */
static inline int check_rounding_nearest(void)
{
    volatile double one = 1.0, tiny = 0x1p-60;
    return fegetround() == FE_TONEAREST && one + tiny == 1.0 && one - tiny == 1.0 && -one - tiny == -1.0;
}

/* Deterministic generator (splitmix64) so that random tests use fixed seeds
 * independent of the C library. */
typedef struct { unsigned long long s; } check_rng;

static inline unsigned long long check_rng_next(check_rng *r)
{
    unsigned long long z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [a, b). */
static inline double check_rng_unif(check_rng *r, double a, double b)
{
    return a + (b - a) * ((double)(check_rng_next(r) >> 11) * 0x1.0p-53);
}

static inline long check_rng_int(check_rng *r, long a, long b) /* [a, b] */
{
    return a + (long)(check_rng_next(r) % (unsigned long long)(b - a + 1));
}

/* perm = a random permutation of 0..m-1 (Fisher-Yates, from the top). */
static inline void check_rng_perm(check_rng *r, long *perm, long m)
{
    for (long i = 0; i < m; i++) perm[i] = i;
    for (long i = m - 1; i > 0; i--) {
        long j = check_rng_int(r, 0, i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

#endif
