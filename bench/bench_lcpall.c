/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* All solutions of an LCP: certified enumeration (dvc_lcpall_solve,
 * --method enum) against plain floating-point enumerations of the same 2^n
 * complementary bases, measured in one run:
 *   - "float LU": per basis an LU of M_JJ, a solve and the sign tests (the
 *     way a straightforward enumeration does it),
 *   - "float pivot": the same depth-first principal pivoting as the
 *     certified code, sign tests only (the fastest float enumeration here).
 * Families: -I + perturbation (2^n solutions, verlcpall's 10 x 10 example
 * has 1,024), 2 x 2 blocks with 3 solutions each, random dense (few
 * solutions, almost every basis excluded). CPU time of this thread.
 *
 * With the path of the dvicert executable as argument it also times the
 * whole command 'dvicert lcp-all P.json -o OUT.json --method enum' on the
 * -I + 0.01 E family (n = 17: 131,072 solutions; n = N instead with a
 * second argument N, 1..24, e.g. "20") against the engine alone (dvc_lcpall_solve) on the same
 * problem, in wall-clock and CPU time (the command's includes writing the
 * file and syncing it to the disk), and prints process / engine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dvicert/dvicert.h"

/* the library's floating LU (src/fprnd.h, linked from the static library) */
int dvc_fp_lu(double *a, long *piv, long n);
void dvc_fp_lu_solve(const double *lu, const long *piv, long n, double *b);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long rng_s = 2026;
static double unif(void) /* splitmix64 in [-1, 1) */
{
    unsigned long long z = (rng_s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0;
}

static long float_lu(const double *M, const double *q, long n)
{
    double A[32 * 32], b[32];
    long piv[32], J[32], count = 0;
    for (unsigned long mask = 0; mask < (1ul << n); mask++) {
        long m = 0;
        int ok = 1;
        for (long i = 0; i < n; i++)
            if (mask >> i & 1) J[m++] = i;
        for (long a = 0; a < m; a++) {
            for (long c = 0; c < m; c++) A[a * m + c] = M[J[a] * n + J[c]];
            b[a] = -q[J[a]];
        }
        if (m > 0 && dvc_fp_lu(A, piv, m) != 0) continue;
        if (m > 0) dvc_fp_lu_solve(A, piv, m, b);
        for (long a = 0; a < m && ok; a++) ok = b[a] >= 0;
        for (long i = 0; i < n && ok; i++) {
            if (mask >> i & 1) continue;
            double s = q[i];
            for (long a = 0; a < m; a++) s += M[i * n + J[a]] * b[a];
            ok = s >= 0;
        }
        count += ok;
    }
    return count;
}

static long pv_n, pv_count;
static double *pv_tab;

static void pv_dfs(long k, long level, const double *T)
{
    long n = pv_n, w = n + 1;
    if (k == n) {
        int ok = 1;
        for (long i = 0; i < n && ok; i++) ok = T[i * w + n] >= 0;
        pv_count += ok;
        return;
    }
    pv_dfs(k + 1, level, T);
    double *D = pv_tab + (level + 1) * n * w, p = T[k * w + k];
    if (p == 0) return;
    double ip = 1.0 / p;
    for (long i = 0; i < n; i++) {
        if (i == k) {
            for (long j = 0; j < w; j++) D[i * w + j] = -T[k * w + j] * ip;
            D[k * w + k] = ip;
            continue;
        }
        double f = T[i * w + k] * ip;
        for (long j = 0; j < w; j++) D[i * w + j] = T[i * w + j] - f * T[k * w + j];
        D[i * w + k] = f;
    }
    pv_dfs(k + 1, level + 1, D);
}

static long float_pivot(const double *M, const double *q, long n)
{
    long w = n + 1;
    pv_n = n;
    pv_count = 0;
    pv_tab = malloc(sizeof(double) * (size_t)((n + 1) * n * w));
    for (long i = 0; i < n; i++) {
        memcpy(pv_tab + i * w, M + i * n, sizeof(double) * (size_t)n);
        pv_tab[i * w + n] = q[i];
    }
    pv_dfs(0, 0, pv_tab);
    free(pv_tab);
    return pv_count;
}

static void run(const char *family, long n, const double *M, const double *q)
{
    dvc_imat_t Mi;
    dvc_ivec_t qi;
    dvc_lcpall_result_t r;
    dvc_lcpall_opts o;
    double t0, tc, tl, tp;
    long cl, cp;
    dvc_imat_init2(Mi, n, n, 53);
    dvc_ivec_init2(qi, n, 53);
    dvc_imat_set_d(Mi, M);
    dvc_ivec_set_d(qi, q);
    dvc_lcpall_opts_default(&o);
    o.method = DVC_LCPALL_ENUM;
    dvc_lcpall_result_init(r);
    t0 = now();
    dvc_lcpall_solve(r, Mi, qi, &o);
    tc = now() - t0;
    t0 = now();
    cl = float_lu(M, q, n);
    tl = now() - t0;
    t0 = now();
    cp = float_pivot(M, q, n);
    tp = now() - t0;
    printf("%-14s n = %2ld  certified %8.4f s (%6ld solutions, %-10s farkas %6ld, solve %5ld, "
           "undecided %ld)  float LU %8.4f s (%6ld)  float pivot %8.4f s (%6ld)  ratio "
           "certified/LU %5.2f  certified/pivot %6.2f\n",
           family, n, tc, r->nexists, r->verdict == DVC_LCPALL_COMPLETE ? "complete)" : "INCOMPLETE)",
           r->excl_farkas, r->excl_solve, r->undecided, tl, cl, tp, cp, tc / tl, tc / tp);
    dvc_lcpall_result_clear(r);
    dvc_imat_clear(Mi);
    dvc_ivec_clear(qi);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Engine alone vs the command writing its JSON, on -I + 0.01 E of size n. */
static void run_process(const char *exe, long n)
{
    char dir[] = "/tmp/bench_lcpall_XXXXXX", prob[64], out[64];
    double *M = malloc(sizeof(double) * (size_t)(n * n)), te, tec, tp, tpc, mem;
    struct rusage ru;
    dvc_imat_t Mi;
    dvc_ivec_t qi;
    dvc_lcpall_result_t r;
    dvc_lcpall_opts o;
    FILE *f;
    pid_t pid;
    int status;
    long nsol;
    if (M == NULL || mkdtemp(dir) == NULL) return;
    for (long i = 0; i < n * n; i++) M[i] = (i / n == i % n ? -1 : 0) + 0.01 * unif();
    snprintf(prob, sizeof prob, "%s/p.json", dir);
    snprintf(out, sizeof out, "%s/out.json", dir);
    f = fopen(prob, "w");
    if (f == NULL) return;
    fprintf(f, "{\"M\": [");
    for (long i = 0; i < n; i++) {
        fprintf(f, "%s[", i ? ", " : "");
        for (long j = 0; j < n; j++) fprintf(f, "%s%.17g", j ? ", " : "", M[i * n + j]);
        fprintf(f, "]");
    }
    fprintf(f, "], \"q\": [");
    for (long i = 0; i < n; i++) fprintf(f, "%s1", i ? ", " : "");
    fprintf(f, "], \"l\": [");
    for (long i = 0; i < n; i++) fprintf(f, "%s0", i ? ", " : "");
    fprintf(f, "], \"u\": [");
    for (long i = 0; i < n; i++) fprintf(f, "%s\"inf\"", i ? ", " : "");
    fprintf(f, "]}\n");
    fclose(f);
    /* the command first: forked from this small process, its peak memory
     * is its own */
    tp = wall();
    pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO);
        execl(exe, exe, "lcp-all", prob, "-o", out, "--method", "enum", (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) return;
    tp = wall() - tp;
    mem = (double)ru.ru_maxrss / 1024.0;
    tpc = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
          1e-6 * (double)ru.ru_stime.tv_usec;
    /* the engine on the same data (%.17g reads back to the same doubles) */
    dvc_imat_init2(Mi, n, n, 53);
    dvc_ivec_init2(qi, n, 53);
    dvc_imat_set_d(Mi, M);
    for (long i = 0; i < n; i++) mpfi_set_ui(qi->e[i], 1);
    dvc_lcpall_opts_default(&o);
    o.method = DVC_LCPALL_ENUM;
    dvc_lcpall_result_init(r);
    te = wall();
    tec = now();
    dvc_lcpall_solve(r, Mi, qi, &o);
    tec = now() - tec;
    te = wall() - te;
    nsol = r->nsol;
    dvc_lcpall_result_clear(r);
    dvc_imat_clear(Mi);
    dvc_ivec_clear(qi);
    {
        struct stat sb;
        double mb = stat(out, &sb) == 0 ? (double)sb.st_size / 1e6 : 0;
        printf("lcp-all -o     n = %2ld  %7ld solutions  engine %7.3f s wall %7.3f s CPU  process %7.3f s "
               "wall %7.3f s CPU (exit %d, %.0f MB written and synced, peak memory %.1f MB)  ratio "
               "process/engine wall %5.2f CPU %5.2f\n",
               n, nsol, te, tec, tp, tpc, WIFEXITED(status) ? WEXITSTATUS(status) : -1, mb, mem, tp / te,
               tpc / tec);
    }
    unlink(out);
    unlink(prob);
    rmdir(dir);
    free(M);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        /* one size per run: the command is forked from a process that has
         * not yet enumerated anything */
        long n = argc > 2 ? atol(argv[2]) : 17;
        if (n < 1 || n > 24) {
            fprintf(stderr, "bench_lcpall: size %s out of 1..24\n", argv[2]);
            return 2;
        }
        run_process(argv[1], n);
        return 0;
    }
    static const long sizes[] = {10, 17};
    for (int s = 0; s < 2; s++) {
        long n = sizes[s];
        double *M = calloc((size_t)(n * n), sizeof(double)), *q = malloc(sizeof(double) * (size_t)n);
        /* -I + perturbation, q = 1: every basis feasible */
        for (long i = 0; i < n; i++) {
            for (long j = 0; j < n; j++) M[i * n + j] = (i == j ? -1 : 0) + 0.01 * unif();
            q[i] = 1;
        }
        run("-I + 0.01 E", n, M, q);
        /* 2 x 2 blocks [[-a, 2a - 1], [2a - 1, -a]], q = 1: 3 solutions per block */
        memset(M, 0, sizeof(double) * (size_t)(n * n));
        for (long i = 0; i + 1 < n; i += 2) {
            double a = 3 + i;
            M[i * n + i] = M[(i + 1) * n + i + 1] = -a;
            M[i * n + i + 1] = M[(i + 1) * n + i] = 2 * a - 1;
        }
        if (n % 2) M[(n - 1) * n + n - 1] = -1;
        for (long i = 0; i < n; i++) q[i] = 1;
        run("2x2 blocks", n, M, q);
        /* random dense, entries and q uniform in [-1, 1] */
        for (long i = 0; i < n * n; i++) M[i] = unif();
        for (long i = 0; i < n; i++) q[i] = unif();
        run("random dense", n, M, q);
        free(M);
        free(q);
    }
    return 0;
}
