/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The price of one rounding-mode switch: src/rounding.h (MXCSR written
 * directly on x86-64 with GCC / Clang; the _ext family also the x87 control
 * word) against fesetround / fegetround, in the pattern of a binary64
 * kernel: save, up, down, restore around a few additions. Nanoseconds per
 * switch (CPU time; the additions' cost is measured without switches and
 * subtracted). Usage: bench_rounding [ITERATIONS] */
#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rounding.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static volatile double va = 1.0, vb = 0x1p-60;

#define KERNEL(SAVE, SET, RESTORE)                                                        \
    do {                                                                                  \
        double t0 = now();                                                                \
        for (long i = 0; i < iters; i++) {                                                \
            int saved = SAVE;                                                             \
            SET(FE_UPWARD);                                                               \
            acc += va + vb;                                                               \
            SET(FE_DOWNWARD);                                                             \
            acc -= va + vb;                                                               \
            RESTORE(saved);                                                               \
        }                                                                                 \
        dt = now() - t0;                                                                  \
    } while (0)

#define NOSET(m) (void)(m)

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 20000000;
    double acc = 0, dt, base, t_lib, t_dir, t_ext;
    if (iters <= 0) {
        fprintf(stderr, "bench_rounding: ITERATIONS must be positive\n");
        return 2;
    }
    KERNEL(0, NOSET, NOSET);
    base = dt;
    KERNEL(fegetround(), fesetround, fesetround);
    t_lib = dt;
    KERNEL(dvc_rnd_save(), dvc_rnd_set, dvc_rnd_restore);
    t_dir = dt;
    KERNEL(dvc_rnd_save_ext(), dvc_rnd_set_ext, dvc_rnd_restore_ext);
    t_ext = dt;
    /* three switches and one save per iteration */
    double per = 1e9 / (3.0 * (double)iters);
    printf("rounding switch, ns each (%ld iterations, %s):\n", iters,
#ifdef DVC_RND_DIRECT
           "MXCSR / x87 control word written directly"
#else
           "rounding.h is fesetround here"
#endif
    );
    printf("  fesetround / fegetround     %6.2f\n", (t_lib - base) * per);
    printf("  dvc_rnd_set (binary64)      %6.2f   ratio %.2f\n", (t_dir - base) * per,
           (t_dir - base) / (t_lib - base));
    printf("  dvc_rnd_set_ext (+ x87)     %6.2f   ratio %.2f\n", (t_ext - base) * per,
           (t_ext - base) / (t_lib - base));
    return acc == 12345.0 ? 1 : 0; /* keeps acc alive */
}
