/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Streaming runs: peak resident memory and time of `dvicert enclose`,
 * `verify`, `check` and `export` on the bridge of Example 5.1 at growing N
 * (default 1e4, 1e5, 1e6). Each command runs as a child process; its peak
 * RSS is getrusage's ru_maxrss for that child (wait4). Target: RSS flat
 * within 2x, time linear in N.
 *
 * usage: bench_stream DVICERT [N ...]   (files go to a temporary directory) */
#define _GNU_SOURCE
#include <errno.h>
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
static const char *const names[NCMD] = {"enclose", "verify", "check", "export"};

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

int main(int argc, char **argv)
{
    long Ns[16] = {10000, 100000, 1000000};
    int nN = 3;
    char dir[] = "/tmp/dvc_bench_streamXXXXXX";
    long rss[16][NCMD];
    double sec[16][NCMD], cpu[16][NCMD];
    if (argc < 2) {
        fprintf(stderr, "usage: %s DVICERT [N ...]\n", argv[0]);
        return 2;
    }
    if (argc > 2) {
        nN = 0;
        for (int a = 2; a < argc && nN < 16; a++) Ns[nN++] = strtol(argv[a], NULL, 10);
    }
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    {
        /* a trajectory of 1000 samples (its verdict does not matter here) */
        char path[256];
        FILE *f;
        snprintf(path, sizeof path, "%s/traj.csv", dir);
        f = fopen(path, "w");
        if (!f) return 2;
        fprintf(f, "t,x1,x2\n");
        for (int k = 0; k <= 1000; k++) fprintf(f, "%g,0,0.2\n", k / 1000.0);
        fclose(f);
    }
    printf("bridge (Example 5.1, gamma = 0.2, T = 1): peak RSS of the child process and time\n");
    printf("%10s %-8s %12s %10s %10s\n", "N", "command", "peak RSS KB", "wall s", "CPU s");
    for (int q = 0; q < nN; q++) {
        char prob[256], cert[256], csv[256], traj[256];
        FILE *f;
        snprintf(prob, sizeof prob, "%s/bridge%ld.json", dir, Ns[q]);
        snprintf(cert, sizeof cert, "%s/bridge%ld.cert.json", dir, Ns[q]);
        snprintf(csv, sizeof csv, "%s/bridge%ld.csv", dir, Ns[q]);
        snprintf(traj, sizeof traj, "%s/traj.csv", dir);
        f = fopen(prob, "w");
        if (!f) return 2;
        fprintf(f, "{\"constants\": {\"gamma\": \"0.2\"}, \"A\": [[0, 1], [-4, 0]], \"B\": [[0], [-1]],\n"
                   " \"f\": [\"0\", \"sin(4*t)\"], \"Q\": [[3, 0]], \"M\": [[1]], \"l\": [0], \"u\": [\"inf\"],\n"
                   " \"g\": [\"0\"], \"x0\": [0, \"gamma\"], \"T\": 1, \"N\": %ld, \"theta\": 1}\n", Ns[q]);
        fclose(f);
        for (int c = 0; c < NCMD; c++) {
            char *av[12];
            int k = 0, rc;
            av[k++] = argv[1];
            av[k++] = (char *)names[c];
            if (c == 0) {
                av[k++] = prob;
                av[k++] = "-o";
                av[k++] = cert;
            } else {
                av[k++] = cert;
            }
            if (c == 2) {
                av[k++] = traj;
                av[k++] = "--max-report";
                av[k++] = "0";
            }
            if (c == 3) {
                av[k++] = "-o";
                av[k++] = csv;
            }
            av[k] = NULL;
            rc = run(av, &rss[q][c], &sec[q][c], &cpu[q][c]);
            /* check exits 1 when a sample is outside: still a complete run */
            if (rc != 0 && !(c == 2 && rc == 1)) {
                fprintf(stderr, "%s %s at N = %ld failed (exit %d)\n", argv[1], names[c], Ns[q], rc);
                return 1;
            }
            printf("%10ld %-8s %12ld %10.2f %10.2f\n", Ns[q], names[c], rss[q][c], sec[q][c], cpu[q][c]);
            fflush(stdout);
        }
        remove(prob);
        if (q + 1 < nN) {
            remove(cert);
            remove(csv);
        }
    }
    /* CPU time is the linearity measure: wall time depends on the load */
    printf("\nratios to N = %ld (RSS: target <= 2; CPU time / N ratio: target about 1)\n", Ns[0]);
    printf("%10s %-8s %10s %14s %14s\n", "N", "command", "RSS ratio", "CPU/N ratio", "wall/N ratio");
    for (int q = 1; q < nN; q++)
        for (int c = 0; c < NCMD; c++)
            printf("%10ld %-8s %10.2f %14.2f %14.2f\n", Ns[q], names[c], (double)rss[q][c] / (double)rss[0][c],
                   cpu[q][c] / cpu[0][c] / ((double)Ns[q] / (double)Ns[0]),
                   sec[q][c] / sec[0][c] / ((double)Ns[q] / (double)Ns[0]));
    {
        char path[256];
        snprintf(path, sizeof path, "%s/bridge%ld.cert.json", dir, Ns[nN - 1]);
        remove(path);
        snprintf(path, sizeof path, "%s/bridge%ld.csv", dir, Ns[nN - 1]);
        remove(path);
        snprintf(path, sizeof path, "%s/traj.csv", dir);
        remove(path);
        rmdir(dir);
    }
    return 0;
}
