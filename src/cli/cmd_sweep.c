/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert sweep: expand a grid of constants and table files of a base
 * problem into problem files and a manifest of commands, one line per run
 * (run them with any scheduler: GNU parallel, a Slurm job array, xargs). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "io/sweep_json.h"

static const dvc_cli_opt opts[] = {
    {"dir", 'o', "DIR", "a directory name", "the directory to create (it must not exist)"},
    {"dvicert", 0, "PATH", "a command name",
     "the dvicert command the manifest runs (default: dvicert, when the one on PATH is\n"
     "                     the one running; else the absolute path of the one running)"},
    {"allow-outside-tables", 0, NULL, NULL,
     "read table files outside the specification's directory tree too"},
    {"max-runs", 0, "N", "a number of runs",
     "refuse a grid of more than N runs (default 10000, at most 1000000)"},
    {NULL, 0, NULL, NULL, NULL},
};

static void help(void)
{
    printf(
        "usage: dvicert sweep SPEC.json -o DIR [--dvicert PATH] [--allow-outside-tables]\n"
        "                     [--max-runs N]\n\n"
        "Expands a sweep specification (docs/formats.md, \"Sweeps\"): a base problem\n"
        "file and a grid of values of its constants and of table files (e.g. several\n"
        "ground-motion records), into one problem file per point of the grid, and a\n"
        "manifest of commands, one line per run. Nothing is run. DIR receives:\n"
        "  problems/NAME.json  self-contained problems (tables embedded), one per run\n"
        "  runs.txt            the run names, one per line, in grid order\n"
        "  manifest.txt        per run: dvicert enclose ... && dvicert info --csv ...\n"
        "                      (run from DIR; writes certs/, logs/, summaries/)\n"
        "  collect.sh          collects summaries/*.csv into summary.csv, one line per\n"
        "                      run, and lists the runs without a certificate\n"
        "Run names are NAME_c1=v1_c2=v2..., from the specification's 'name' (default:\n"
        "the base file's name) and each axis' values. Running the manifest with GNU\n"
        "parallel or as a Slurm job array: README.md, \"Many runs\".\n"
        "A grid of more than 10000 runs (the product of the axes' sizes) is refused as a\n"
        "likely typo; --max-runs N raises the bound (up to 1000000). The specification's\n"
        "'enclose' options are checked against 'dvicert enclose' when it is read.\n\n");
    dvc_cli_print_options(&dvc_cmd_sweep);
    printf("\nexit status: 0 directory written, 2 bad specification (nothing is written).\n");
}

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_sweep = {
    "sweep", "expand a grid of constants and table files into problem files and a manifest",
    opts, "it prints no number", "it computes nothing (each run's precision is its problem's)", 1, 1,
    "dvicert sweep SPEC.json -o DIR [--dvicert PATH]", help, run};

/* The command the manifest runs when --dvicert is not given: "dvicert"
 * when that name on PATH is the program running, else the running
 * program's absolute path (a build tree, an install under ~/.local not on
 * PATH), so the manifest runs without --dvicert. buf: PATH_MAX bytes. */
static const char *default_exe(char *buf, size_t n)
{
    const char *path = getenv("PATH");
    char self[4096], cand[4096], real[4096];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) return "dvicert"; /* no /proc: the name, as before */
    self[k] = '\0';
    while (path && *path) {
        const char *e = strchr(path, ':');
        size_t len = e ? (size_t)(e - path) : strlen(path);
        if (len > 0 && len + 9 < sizeof cand) {
            snprintf(cand, sizeof cand, "%.*s/dvicert", (int)len, path);
            if (realpath(cand, real) && strcmp(real, self) == 0) return "dvicert";
            if (access(cand, X_OK) == 0) break; /* the first on PATH is another one */
        }
        path = e ? e + 1 : NULL;
    }
    snprintf(buf, n, "%s", self);
    return buf;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* A word of the manifest, quoted for sh when it holds anything else than
 * [A-Za-z0-9._=/:+,-]. */
static void put_word(FILE *f, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._=/:+,-") ==
                  strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

static const char collect_sh[] =
    "#!/bin/sh\n"
    "# Collects the per-run summaries of this sweep (dvicert info --csv) into\n"
    "# summary.csv: one header line, then one line per certified run in the\n"
    "# order of runs.txt. Runs without a summary (not certified, or not run\n"
    "# yet) are listed on stderr; the exit status is then 1.\n"
    "cd \"$(dirname \"$0\")\" || exit 2\n"
    "missing=0\n"
    "header=\n"
    ": > summary.csv.part\n"
    "while IFS= read -r run; do\n"
    "    s=summaries/$run.csv\n"
    "    if [ -s \"$s\" ]; then\n"
    "        [ -n \"$header\" ] || { head -n 1 \"$s\" >> summary.csv.part; header=1; }\n"
    "        tail -n +2 \"$s\" >> summary.csv.part\n"
    "    else\n"
    "        echo \"no summary: $run (see logs/$run.log)\" >&2\n"
    "        missing=$((missing + 1))\n"
    "    fi\n"
    "done < runs.txt\n"
    "mv summary.csv.part summary.csv\n"
    "echo \"summary.csv: $(($(wc -l < summary.csv) - ${header:-0})) runs, $missing without a summary\"\n"
    "[ \"$missing\" -eq 0 ]\n";

static int write_text(const char *dir, const char *name, const char *text, const char *cmd)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    FILE *f;
    int ok;
    if (!p) return 0;
    snprintf(p, n, "%s/%s", dir, name);
    f = fopen(p, "w");
    ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) fprintf(stderr, "dvicert %s: error: cannot write %s: %s\n", cmd, p, strerror(errno));
    free(p);
    return ok;
}

static int write_dir(const char *tmp, const dvc_sweep *sw, const char *exe)
{
    static const char *const sub[] = {"problems", "certs", "logs", "summaries"};
    size_t n = strlen(tmp) + 32;
    char *p = malloc(n);
    FILE *m = NULL, *r = NULL;
    int ok = p != NULL;
    for (int i = 0; ok && i < 4; i++) {
        snprintf(p, n, "%s/%s", tmp, sub[i]);
        if (mkdir(p, 0777) != 0) {
            fprintf(stderr, "dvicert sweep: error: cannot create %s: %s\n", p, strerror(errno));
            ok = 0;
        }
    }
    for (long i = 0; ok && i < sw->nruns; i++) {
        size_t k = strlen(sw->runs[i].name) + 32;
        char *name = malloc(k);
        if (!name) {
            ok = 0;
            break;
        }
        snprintf(name, k, "problems/%s.json", sw->runs[i].name);
        ok = write_text(tmp, name, sw->runs[i].problem, "sweep");
        free(name);
    }
    if (ok) {
        snprintf(p, n, "%s/manifest.txt", tmp);
        m = fopen(p, "w");
        snprintf(p, n, "%s/runs.txt", tmp);
        r = fopen(p, "w");
        ok = m && r;
    }
    for (long i = 0; ok && i < sw->nruns; i++) {
        const char *nm = sw->runs[i].name;
        fprintf(r, "%s\n", nm);
        put_word(m, exe);
        fprintf(m, " enclose problems/%s.json -o certs/%s.cert.json", nm, nm);
        for (long k = 0; k < sw->nopts; k++) {
            fputc(' ', m);
            put_word(m, sw->enclose_opts[k]);
        }
        fprintf(m, " > logs/%s.log 2>&1 && ", nm);
        put_word(m, exe);
        fprintf(m, " info --csv certs/%s.cert.json > summaries/%s.csv\n", nm, nm);
    }
    if (m && fclose(m) != 0) ok = 0;
    if (r && fclose(r) != 0) ok = 0;
    if (ok && !write_text(tmp, "collect.sh", collect_sh, "sweep")) ok = 0;
    if (ok) {
        snprintf(p, n, "%s/collect.sh", tmp);
        if (chmod(p, 0755) != 0) ok = 0;
    }
    if (!ok && p) fprintf(stderr, "dvicert sweep: error: cannot write in %s: %s\n", tmp, strerror(errno));
    free(p);
    return ok;
}

/* The specification's 'enclose' options parsed as `dvicert enclose` will
 * parse them (unknown, misspelled or repeated options, missing values, bad
 * --prec / --digits), now rather than in every run. Returns -1 when they
 * are fine, else the exit code after a message. */
static int check_enclose_opts(const dvc_sweep *sw, const char *spec)
{
    char *argv[DVC_CLI_MAX_OPTS * 2 + 8];
    int argc = 0, rc;
    dvc_cli_args ea;
    mpfr_prec_t prec = dvc_prec_get();
    if (sw->nopts > DVC_CLI_MAX_OPTS * 2) {
        fprintf(stderr, "dvicert sweep: error: %s: field 'enclose': %ld options, more than "
                "'dvicert enclose' takes\n", spec, sw->nopts);
        return DVC_EXIT_INPUT;
    }
    for (long k = 0; k < sw->nopts; k++)
        if (!strcmp(sw->enclose_opts[k], "--help") || !strcmp(sw->enclose_opts[k], "-h") ||
            !strcmp(sw->enclose_opts[k], "--")) {
            fprintf(stderr, "dvicert sweep: error: %s: field 'enclose' entry %ld: '%s' is not an "
                    "option of a run\n", spec, k + 1, sw->enclose_opts[k]);
            return DVC_EXIT_INPUT;
        }
    argv[argc++] = (char *)"enclose";
    argv[argc++] = (char *)spec; /* stands for each run's problem file */
    for (long k = 0; k < sw->nopts; k++) argv[argc++] = sw->enclose_opts[k];
    argv[argc++] = (char *)"-o"; /* stands for each run's certificate */
    argv[argc++] = (char *)"/dev/null";
    argv[argc] = NULL;
    fflush(stdout);
    rc = dvc_cli_parse(&ea, &dvc_cmd_enclose, argc, argv);
    dvc_prec_set(prec); /* --prec is each run's, not the sweep's */
    if (rc >= 0)
        fprintf(stderr, "dvicert sweep: error: %s: field 'enclose': these options would stop every "
                "run (see the line above); nothing is written\n", spec);
    return rc >= 0 ? DVC_EXIT_INPUT : -1;
}

static int run(const dvc_cli_args *a)
{
    const char *spec = a->pos[0], *given = dvc_cli_value(a, "dir");
    char self[4096];
    const char *exe = dvc_cli_value(a, "dvicert") ? dvc_cli_value(a, "dvicert") : default_exe(self, sizeof self);
    dvc_sweep sw;
    dvc_status st;
    struct stat sb;
    char *tmp, dir[4096];
    size_t n;
    int ok;
    if (!given || !*given || strlen(given) >= sizeof dir) {
        fprintf(stderr, "dvicert sweep: error: no output directory (-o DIR); usage: %s\n",
                dvc_cmd_sweep.usage);
        return DVC_EXIT_INPUT;
    }
    strcpy(dir, given);
    for (n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--) dir[n - 1] = '\0';
    if (lstat(dir, &sb) == 0) {
        fprintf(stderr, "dvicert sweep: error: %s exists: sweep writes a new directory\n", dir);
        return DVC_EXIT_INPUT;
    }
    long max_runs = DVC_SWEEP_MAX_RUNS;
    if (dvc_cli_value(a, "max-runs")) {
        char *end;
        const char *v = dvc_cli_value(a, "max-runs");
        errno = 0;
        max_runs = strtol(v, &end, 10);
        if (end == v || *end != '\0' || errno || max_runs < 1 || max_runs > 1000000) {
            fprintf(stderr, "dvicert sweep: error: --max-runs must be an integer in [1, 1000000], got '%s'\n", v);
            return DVC_EXIT_INPUT;
        }
    }
    dvc_sweep_init(&sw);
    if ((st = dvc_sweep_expand(&sw, spec, dvc_cli_flag(a, "allow-outside-tables"), max_runs)) != DVC_OK)
        return dvc_cli_fail("sweep", st);
    if (check_enclose_opts(&sw, spec) >= 0) {
        dvc_sweep_clear(&sw);
        return DVC_EXIT_INPUT;
    }
    /* built beside DIR, renamed when complete: no partial directory */
    n = strlen(dir) + 16;
    if (!(tmp = malloc(n))) {
        dvc_sweep_clear(&sw);
        return dvc_cli_fail("sweep", dvc_error(DVC_ERR_NOMEM, "out of memory"));
    }
    snprintf(tmp, n, "%s.tmp-XXXXXX", dir);
    /* the terminating signals wait until the directory is renamed or
     * removed (a short interval: small files only), so an interrupt leaves
     * either DIR or nothing */
    sigset_t block, saved;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    sigprocmask(SIG_BLOCK, &block, &saved);
    if (!mkdtemp(tmp)) {
        sigprocmask(SIG_SETMASK, &saved, NULL);
        fprintf(stderr, "dvicert sweep: error: cannot create a directory beside %s: %s\n", dir,
                strerror(errno));
        free(tmp);
        dvc_sweep_clear(&sw);
        return DVC_EXIT_INPUT;
    }
    ok = write_dir(tmp, &sw, exe);
    if (ok && rename(tmp, dir) != 0) {
        fprintf(stderr, "dvicert sweep: error: cannot rename %s to %s: %s\n", tmp, dir, strerror(errno));
        ok = 0;
    }
    if (!ok) nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    sigprocmask(SIG_SETMASK, &saved, NULL);
    if (ok)
        printf("wrote %s: %ld runs (problems/, manifest.txt, runs.txt, collect.sh); run the manifest "
               "from %s%s%s%s\n", dir, sw.nruns, dir, exe == self ? " (it runs " : "",
               exe == self ? exe : "", exe == self ? ", not on PATH as dvicert)" : "");
    free(tmp);
    dvc_sweep_clear(&sw);
    return ok ? DVC_EXIT_OK : DVC_EXIT_INPUT;
}
