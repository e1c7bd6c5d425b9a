/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Peak memory of the hybrid engine against the horizon: the piecewise
 * harmonic oscillator (certs/pw-harmonic) enclosed to T = 100 and to a
 * horizon 100 times longer, each in a child process of its own, whose peak
 * RSS (getrusage) is compared. The enclose writes its certificate as the
 * run goes (dvc_hybrid_cert_enclose_write: flat in T); verify reads the
 * certificate a line at a time as the recomputation goes
 * (dvc_hybrid_cert_read_verify: flat in T too).
 *
 * usage: bench_hybrid_rss [T_long]   (default 10000; T_long = 100 x 100) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dvicert/hybrid_cert.h"

static const char *model_fmt =
    "{\"states\": [\"x\", \"y\"],\n"
    " \"modes\": {\"plus\": {\"A\": [[0, 1], [-1, 0]]}, \"minus\": {\"A\": [[0, 1], [-3, 0]]}},\n"
    " \"switches\": {\"g\": \"x\"},\n"
    " \"transitions\": [{\"from\": \"plus\", \"switch\": \"g\", \"direction\": \"-\", \"to\": \"minus\"},\n"
    "                 {\"from\": \"minus\", \"switch\": \"g\", \"direction\": \"+\", \"to\": \"plus\"}],\n"
    " \"initial\": {\"mode\": \"plus\", \"x\": {\"x\": 1, \"y\": 0}}, \"T\": %g, \"max_seconds\": 100000}\n";

/* Peak RSS in KiB of a child running what (0 enclose, 1 verify), or -1. */
static long child_rss(int what, const char *model, const char *cert)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dvc_hybrid_cert_t c;
        dvc_status st;
        dvc_hybrid_cert_init(c);
        if (what == 0) st = dvc_hybrid_cert_enclose_write(c, model, 0, cert);
        else {
            st = dvc_hybrid_cert_read_verify(c, cert);
        }
        if (st != DVC_OK) fprintf(stderr, "bench_hybrid_rss: %s\n", dvc_error_message());
        dvc_hybrid_cert_clear(c);
        _exit(st == DVC_OK ? 0 : 1);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
    double Ts[2] = {100, argc > 1 ? atof(argv[1]) : 10000};
    long rss[2][2];
    char dir[] = "/tmp/bench_hybrid_rss.XXXXXX";
    if (!(Ts[1] > 0) || !mkdtemp(dir)) {
        fprintf(stderr, "usage: bench_hybrid_rss [T_long > 0]\n");
        return 2;
    }
    for (int k = 0; k < 2; k++) {
        char model[200], cert[200];
        FILE *f;
        snprintf(model, sizeof model, "%s/pw%d.json", dir, k);
        snprintf(cert, sizeof cert, "%s/pw%d.cert.json", dir, k);
        if (!(f = fopen(model, "w"))) return 2;
        fprintf(f, model_fmt, Ts[k]);
        fclose(f);
        rss[k][0] = child_rss(0, model, cert);
        rss[k][1] = child_rss(1, model, cert);
        printf("T = %-8g enclose peak RSS %8ld KiB, verify %8ld KiB\n", Ts[k], rss[k][0], rss[k][1]);
        remove(model);
        remove(cert);
    }
    rmdir(dir);
    if (rss[0][0] <= 0 || rss[1][0] <= 0 || rss[0][1] <= 0 || rss[1][1] <= 0) return 1;
    printf("ratio T = %g / T = 100: enclose %.2f, verify %.2f (flat: within 2)\n", Ts[1],
           (double)rss[1][0] / (double)rss[0][0], (double)rss[1][1] / (double)rss[0][1]);
    return 0;
}
