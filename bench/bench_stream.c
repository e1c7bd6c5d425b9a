/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Streaming runs: peak resident memory and time of `dvicert enclose`,
 * `verify`, `check` and `export` on the bridge of Example 5.1, for each
 * route: chen-wang and lognorm at growing N (default 1e4, 1e5, 1e6), the
 * events route (which has no N) at T scaled by the same factors; then
 * `enclose --from` (lognorm route, uniform and jittered times) and `check`
 * with a trajectory of growing length (default 1e4, 1e5 and 1e6 rows),
 * and `enclose --from` on the events route with a hundredth of those rows (--events-div)
 * and `verify`, `check` (with the trajectory itself) and `export` of the jittered run's
 * certificate, whose grid states every time (read on demand; check and export may find
 * the certificate verified already in the verified-certificate cache)
 * (it certifies each sample's error by the hybrid engine: about 0.4 ms per
 * row, minutes at 1e6); the chen-wang route takes no trajectory. Each command
 * runs as a child process; its peak RSS is getrusage's ru_maxrss for that
 * child (wait4). Target: RSS flat within 2x, time linear in N; for the
 * trajectories also the growth per row read beyond the first R (bytes).
 *
 * usage: bench_stream DVICERT [--method ROUTE] [--from] [--rows R1,R2,...] [--events-div D] [--no-rows] [N ...]
 *   --method   only this route (chen-wang, lognorm or events)
 *   --from     only the trajectory runs
 *   --rows     the trajectory lengths (default 10000,100000,1000000)
 *   --events-div  the events route's trajectories have R / D rows (default
 *              100; 1: the same lengths as the others)
 *   --no-rows  skip the trajectory runs
 * Files go to a temporary directory. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NCMD 4
#define MAXN 16
static const char *const names[NCMD] = {"enclose", "verify", "check", "export"};
static const char *const routes[3] = {"chen-wang", "lognorm", "events"};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Run argv with stdout/stderr to /dev/null; peak RSS (KB), wall-clock and
 * CPU (user + system) seconds of the child. */
static int run(char *const argv[], long *rss_kb, double *sec, double *cpu)
{
    struct rusage ru;
    int status;
    double t0;
    pid_t pid;
    fflush(stdout); /* the child must not print the parent's buffered lines again */
    t0 = now();
    pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        FILE *nul = freopen("/dev/null", "w", stdout);
        (void)nul;
        nul = freopen("/dev/null", "w", stderr);
        (void)nul;
        execv(argv[0], argv);
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) < 0) return -1;
    *sec = now() - t0;
    *rss_kb = ru.ru_maxrss;
    *cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    if (!WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

/* The bridge with N steps over [0, T]. */
static int write_problem(const char *path, long N, double T)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "{\"constants\": {\"gamma\": \"0.2\"}, \"A\": [[0, 1], [-4, 0]], \"B\": [[0], [-1]],\n"
               " \"f\": [\"0\", \"sin(4*t)\"], \"Q\": [[3, 0]], \"M\": [[1]], \"l\": [0], \"u\": [\"inf\"],\n"
               " \"g\": [\"0\"], \"x0\": [0, \"gamma\"], \"T\": %.17g, \"N\": %ld, \"theta\": 1}\n",
            T, N);
    return fclose(f);
}

/* The bridge's right-hand side: y = max(0, -3 x1) solves the LVI. */
static void rhs(double t, const double *x, double *k)
{
    double y = fmax(0.0, -3.0 * x[0]);
    k[0] = x[1];
    k[1] = -4.0 * x[0] - y + sin(4.0 * t);
}

/* Sample i of R + 1 on [0, 1]: uniform, or jittered (steps between 0.79
 * and 1.21 of 1 / R: the certificate then steps on these times). */
static double traj_time(long i, long R, int jitter)
{
    if (i == R) return 1.0;
    return jitter ? ((double)i + 0.3 * sin(0.7 * (double)i)) / (double)R : (double)i / (double)R;
}

/* A trajectory of R + 1 samples on [0, 1] (classical Runge-Kutta), as
 * another tool would write it. */
static int write_traj(const char *path, long R, int jitter)
{
    FILE *f = fopen(path, "w");
    double x[2] = {0.0, 0.2};
    if (!f) return -1;
    fprintf(f, "t,x1,x2\n");
    for (long i = 0; i <= R; i++) {
        double t = traj_time(i, R, jitter), h = traj_time(i + 1, R, jitter) - t, k1[2], k2[2], k3[2], k4[2], xt[2];
        fprintf(f, "%.17g,%.17g,%.17g\n", t, x[0], x[1]);
        rhs(t, x, k1);
        for (int j = 0; j < 2; j++) xt[j] = x[j] + 0.5 * h * k1[j];
        rhs(t + 0.5 * h, xt, k2);
        for (int j = 0; j < 2; j++) xt[j] = x[j] + 0.5 * h * k2[j];
        rhs(t + 0.5 * h, xt, k3);
        for (int j = 0; j < 2; j++) xt[j] = x[j] + h * k3[j];
        rhs(t + h, xt, k4);
        for (int j = 0; j < 2; j++) x[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
    }
    return fclose(f);
}

static void ratio_line(const char *what, long size, long size0, long rss, long rss0, double cpu, double cpu0)
{
    printf("%-22s %10ld %10.2f %14.2f\n", what, size, (double)rss / (double)rss0,
           cpu0 > 0 ? cpu / cpu0 / ((double)size / (double)size0) : 0.0);
}

/* enclose, verify, check, export of route at each N (events: T scaled). */
static int bench_route(const char *exe, const char *dir, const char *route, const long *Ns, int nN,
                       const char *traj)
{
    long rss[MAXN][NCMD];
    double sec[MAXN][NCMD], cpu[MAXN][NCMD];
    int events = strcmp(route, "events") == 0;
    if (events)
        printf("\nroute events (bridge, gamma = 0.2, T = N / %ld: the route has no N)\n", Ns[0]);
    else
        printf("\nroute %s (bridge, gamma = 0.2, T = 1)\n", route);
    printf("%10s %-8s %12s %10s %10s\n", events ? "T x N0" : "N", "command", "peak RSS KB", "wall s", "CPU s");
    for (int q = 0; q < nN; q++) {
        char prob[256], cert[256], csv[256];
        snprintf(prob, sizeof prob, "%s/bridge.json", dir);
        snprintf(cert, sizeof cert, "%s/bridge.cert.json", dir);
        snprintf(csv, sizeof csv, "%s/bridge.csv", dir);
        if (write_problem(prob, Ns[q], events ? (double)Ns[q] / (double)Ns[0] : 1.0) != 0) return 2;
        for (int c = 0; c < NCMD; c++) {
            char *av[16];
            int k = 0, rc;
            av[k++] = (char *)exe;
            av[k++] = (char *)names[c];
            if (c == 0) {
                av[k++] = prob;
                av[k++] = "--method";
                av[k++] = (char *)route;
                av[k++] = "-o";
                av[k++] = cert;
            } else {
                av[k++] = cert;
            }
            if (c == 2) {
                av[k++] = (char *)traj;
                av[k++] = "--max-report";
                av[k++] = "0";
                av[k++] = "--tol";
                av[k++] = "t=1"; /* the samples past T of a longer run are clipped */
            }
            if (c == 3) {
                av[k++] = "-o";
                av[k++] = csv;
            }
            av[k] = NULL;
            rc = run(av, &rss[q][c], &sec[q][c], &cpu[q][c]);
            /* check exits 1 when a sample is outside: still a complete run */
            if (rc != 0 && !(c == 2 && rc == 1)) {
                fprintf(stderr, "%s %s (%s) at N = %ld failed (exit %d)\n", exe, names[c], route, Ns[q], rc);
                return 1;
            }
            printf("%10ld %-8s %12ld %10.2f %10.2f\n", Ns[q], names[c], rss[q][c], sec[q][c], cpu[q][c]);
        }
        remove(prob);
        remove(cert);
        remove(csv);
    }
    /* CPU time is the linearity measure: wall time depends on the load */
    printf("ratios to N = %ld (RSS: target <= 2; CPU time / N: target about 1)\n", Ns[0]);
    printf("%-22s %10s %10s %14s\n", "command", "N", "RSS ratio", "CPU/N ratio");
    for (int q = 1; q < nN; q++)
        for (int c = 0; c < NCMD; c++) {
            char what[64];
            snprintf(what, sizeof what, "%s %s", route, names[c]);
            ratio_line(what, Ns[q], Ns[0], rss[q][c], rss[0][c], cpu[q][c], cpu[0][c]);
        }
    return 0;
}

/* enclose --from on each route that takes a trajectory (lognorm with
 * uniform and with jittered times; events at R / 100 rows) and check, with
 * R-row trajectories; the chen-wang route refuses a trajectory (told). */
static int bench_rows(const char *exe, const char *dir, const long *Rs, int nR, const char *only, long div)
{
    enum { NR = 7 };
    char ev[40];
    /* verify, check (with its own trajectory) and export of the jittered
     * run's certificate (its grid stated as times, read on demand) */
    const char *const what[NR] = {"--from lognorm", "--from lognorm jitter", ev, "check",
                                  "verify jitter cert", "check jitter cert", "export jitter cert"};
    static const char *const route[NR] = {"lognorm", "lognorm", "events", NULL, NULL, NULL, NULL};
    static const char *const reader[NR] = {NULL, NULL, NULL, NULL, "verify", "check", "export"};
    long rss[MAXN][NR];
    double sec[MAXN][NR], cpu[MAXN][NR];
    int on[NR];
    char prob[256], cert0[256], traj[256], out[256], jit[256], csv[256];
    if (div > 1) snprintf(ev, sizeof ev, "--from events (R/%ld)", div);
    else snprintf(ev, sizeof ev, "--from events");
    for (int c = 0; c < NR; c++) on[c] = !only || (route[c] && strcmp(only, route[c]) == 0);
    for (int c = 4; c < NR; c++) on[c] = on[1];
    snprintf(prob, sizeof prob, "%s/bridge.json", dir);
    snprintf(cert0, sizeof cert0, "%s/bridge1e3.cert.json", dir);
    snprintf(traj, sizeof traj, "%s/traj.csv", dir);
    snprintf(out, sizeof out, "%s/from.cert.json", dir);
    snprintf(jit, sizeof jit, "%s/jitter.cert.json", dir);
    snprintf(csv, sizeof csv, "%s/jitter.tube.csv", dir);
    if (write_problem(prob, 1000, 1.0) != 0) return 2;
    if (on[3]) {
        /* the certificate check reads (N = 1000: the rows are what grows) */
        char *av[] = {(char *)exe, "enclose", prob, "--method", "lognorm", "-o", cert0, NULL};
        long r;
        double s, c;
        if (run(av, &r, &s, &c) != 0) {
            fprintf(stderr, "%s enclose %s failed\n", exe, prob);
            return 1;
        }
    }
    printf("\ntrajectories of R rows (classical Runge-Kutta on the bridge, T = 1; jitter: steps 0.79 to 1.21\n"
           "of 1 / R, which become the certificate's grid)\n");
    if (!only || strcmp(only, "chen-wang") == 0)
        printf("--from chen-wang: refused (the route takes no trajectory; exit 2 naming the routes that do)\n");
    printf("%10s %-22s %12s %10s %10s\n", "R", "command", "peak RSS KB", "wall s", "CPU s");
    for (int q = 0; q < nR; q++) {
        for (int c = 0; c < NR; c++) {
            char *av[16];
            int k = 0, rc;
            if (!on[c]) continue;
            if (c != 4 && c != 6 && write_traj(traj, c == 2 ? (Rs[q] + div - 1) / div : Rs[q], c == 1 || c == 5) != 0)
                return 2;
            av[k++] = (char *)exe;
            if (reader[c]) {
                av[k++] = (char *)reader[c];
                av[k++] = jit;
                if (c == 5) {
                    av[k++] = traj;
                    av[k++] = "--max-report";
                    av[k++] = "0";
                } else if (c == 6) {
                    av[k++] = "-o";
                    av[k++] = csv;
                }
            } else if (route[c]) {
                av[k++] = "enclose";
                av[k++] = prob;
                av[k++] = "--from";
                av[k++] = traj;
                av[k++] = "--method";
                av[k++] = (char *)route[c];
                av[k++] = "-o";
                av[k++] = c == 1 ? jit : out;
            } else {
                av[k++] = "check";
                av[k++] = cert0;
                av[k++] = traj;
                av[k++] = "--max-report";
                av[k++] = "0";
            }
            av[k] = NULL;
            rc = run(av, &rss[q][c], &sec[q][c], &cpu[q][c]);
            if (rc != 0 && !((c == 3 || c == 5) && rc == 1)) {
                fprintf(stderr, "%s %s at R = %ld failed (exit %d)\n", exe, what[c], Rs[q], rc);
                return 1;
            }
            printf("%10ld %-22s %12ld %10.2f %10.2f\n", Rs[q], what[c], rss[q][c], sec[q][c], cpu[q][c]);
            remove(out);
            remove(csv);
        }
        remove(jit);
    }
    printf("ratios to R = %ld (RSS: target <= 2; CPU time / R: target about 1)\n", Rs[0]);
    printf("%-22s %10s %10s %14s\n", "command", "R", "RSS ratio", "CPU/R ratio");
    for (int q = 1; q < nR; q++)
        for (int c = 0; c < NR; c++)
            if (on[c]) ratio_line(what[c], Rs[q], Rs[0], rss[q][c], rss[0][c], cpu[q][c], cpu[0][c]);
    /* what is left of the growth, per row read (0: flat) */
    printf("%-22s %10s %16s\n", "command", "R", "bytes per row");
    for (int q = 1; q < nR; q++)
        for (int c = 0; c < NR; c++) {
            long rows = c == 2 ? (Rs[q] + div - 1) / div - (Rs[0] + div - 1) / div : Rs[q] - Rs[0];
            if (on[c] && rows > 0)
                printf("%-22s %10ld %16.1f\n", what[c], Rs[q], 1024.0 * (double)(rss[q][c] - rss[0][c]) / (double)rows);
        }
    remove(prob);
    remove(cert0);
    remove(traj);
    return 0;
}

int main(int argc, char **argv)
{
    long Ns[MAXN] = {10000, 100000, 1000000}, Rs[MAXN] = {10000, 100000, 1000000};
    int nN = 3, nR = 3, rows = 1, routes_on = 1, rc = 0;
    long div = 100;
    const char *only = NULL;
    char dir[] = "/tmp/dvc_bench_streamXXXXXX", traj[256];
    if (argc < 2) {
        fprintf(stderr, "usage: %s DVICERT [--method ROUTE] [--from] [--rows R1,R2,...] [--events-div D] [--no-rows] "
                "[N ...]\n", argv[0]);
        return 2;
    }
    for (int a = 2, first = 1; a < argc; a++) {
        if (strcmp(argv[a], "--method") == 0 && a + 1 < argc) {
            only = argv[++a];
            if (strcmp(only, "chen-wang") != 0 && strcmp(only, "lognorm") != 0 && strcmp(only, "events") != 0) {
                fprintf(stderr, "--method: chen-wang, lognorm or events\n");
                return 2;
            }
        } else if (strcmp(argv[a], "--rows") == 0 && a + 1 < argc) {
            char *p = argv[++a];
            nR = 0;
            while (*p && nR < MAXN) {
                Rs[nR++] = strtol(p, &p, 10);
                if (*p == ',') p++;
            }
        } else if (strcmp(argv[a], "--events-div") == 0 && a + 1 < argc) {
            div = strtol(argv[++a], NULL, 10);
            if (div < 1) div = 1;
        } else if (strcmp(argv[a], "--no-rows") == 0) {
            rows = 0;
        } else if (strcmp(argv[a], "--from") == 0) {
            routes_on = 0;
        } else {
            if (first) nN = 0;
            first = 0;
            if (nN < MAXN) Ns[nN++] = strtol(argv[a], NULL, 10);
        }
    }
    if (nN < 1 || nR < 1) return 2;
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    snprintf(traj, sizeof traj, "%s/samples.csv", dir);
    {
        /* the samples check compares: 1001, their verdict does not matter */
        FILE *f = fopen(traj, "w");
        if (!f) return 2;
        fprintf(f, "t,x1,x2\n");
        for (int k = 0; k <= 1000; k++) fprintf(f, "%g,0,0.2\n", k / 1000.0);
        fclose(f);
    }
    printf("peak RSS of the child process and time, bridge of Example 5.1\n");
    for (int r = 0; r < 3 && rc == 0 && routes_on; r++)
        if (!only || strcmp(only, routes[r]) == 0) rc = bench_route(argv[1], dir, routes[r], Ns, nN, traj);
    remove(traj);
    if (rc == 0 && rows) rc = bench_rows(argv[1], dir, Rs, nR, only, div);
    rmdir(dir);
    return rc;
}
