/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A trajectory of another tool as the predictor of the lognorm route
 * (dvicert enclose --from): CSV t,x1..xn, extra columns ignored, read in
 * passes (io/traj_from.h) so that only the sample at hand is held. */
#include "io/traj_from.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/error.h"
#include "io/fnv.h"
#include "dvicert/files.h"
#include "io/traj_header.h"


static void pass_clear(dvc_traj_from_pass *ps)
{
    free(ps->line);
    free(ps->fld);
    free(ps->col);
    free(ps->x);
    if (ps->f) fclose(ps->f);
}

void dvc_traj_from_clear(dvc_traj_from *tf)
{
    free(tf->t);
    free(tf->x);
    pass_clear(&tf->ps);
    pass_clear(&tf->cur);
    for (long j = 0; tf->names && j < tf->n; j++) free(tf->names[j]);
    free(tf->names);
    dvc_tgrid_clear(&tf->grid);
    memset(tf, 0, sizeof *tf);
}

/* The header: t and x1..xn by name; any other column is ignored. */
static dvc_status header(dvc_traj_from *tf, dvc_traj_from_pass *ps, char *line)
{
    long n = tf->n, nf;
    /* the field rule of every trajectory reader (check's too) */
    ps->delim = dvc_traj_delim(line);
    nf = dvc_traj_count(line, ps->delim);
    free(ps->fld);
    ps->fld = malloc((size_t)nf * sizeof *ps->fld);
    if (!ps->fld) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_traj_split(line, ps->fld, nf, ps->delim);
    ps->ncols = nf;
    for (long k = 0; k <= n; k++) ps->col[k] = -1;
    for (long k = 0; k < nf; k++) {
        const char *h = ps->fld[k];
        /* the header rule of every reader (check's too) */
        long s = dvc_traj_header_slot(h, n, 0, (const char *const *)tf->names, NULL, 0);
        if (s < 0) continue;
        if (ps->col[s] >= 0)
            return dvc_error(DVC_ERR_INPUT, "%s: line %ld: column '%s' appears twice", tf->path, ps->lineno, h);
        ps->col[s] = k;
    }
    for (long s = 0; s <= n; s++)
        if (ps->col[s] < 0) {
            if (s == 0)
                return dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column 't' (header t,x1..x%ld)", tf->path,
                                 ps->lineno, n);
            if (tf->names)
                return dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column '%s' or 'x%ld' (the problem has %ld "
                                 "states: header t and %s..%s or x1..x%ld)", tf->path, ps->lineno, tf->names[s - 1], s,
                                 n, tf->names[0], tf->names[n - 1], n);
            return dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column 'x%ld' (the problem has %ld states)",
                             tf->path, ps->lineno, s, n);
        }
    return DVC_OK;
}

/* One sample row into ps->t, ps->x, checked against the previous one. */
static dvc_status sample(dvc_traj_from *tf, dvc_traj_from_pass *ps, char *line)
{
    long nf = dvc_traj_split(line, ps->fld, ps->ncols, ps->delim);
    double prev = ps->t;
    if (nf != ps->ncols)
        return dvc_error(DVC_ERR_INPUT, "%s: line %ld: %ld fields, the header has %ld", tf->path, ps->lineno, nf,
                         ps->ncols);
    for (long s = 0; s <= (ps->times_only ? 0 : tf->n); s++) {
        const char *v = ps->fld[ps->col[s]];
        char *e;
        double d;
        errno = 0;
        d = strtod(v, &e);
        if (e == v || *e != '\0' || !isfinite(d) || errno == ERANGE) {
            char name[32];
            if (s == 0) snprintf(name, sizeof name, "t");
            else snprintf(name, sizeof name, "x%ld", s);
            return dvc_error(DVC_ERR_INPUT, "%s: line %ld: column '%s': '%s' is not a finite decimal number",
                             tf->path, ps->lineno, name, v);
        }
        if (s == 0) ps->t = d;
        else ps->x[s - 1] = d;
    }
    if (ps->ns == 0 && ps->t != 0.0)
        return dvc_error(DVC_ERR_INPUT, "%s: line %ld: the trajectory must start at t = 0, got %.17g", tf->path,
                         ps->lineno, ps->t);
    if (ps->ns > 0 && !(ps->t > prev))
        return dvc_error(DVC_ERR_INPUT, "%s: line %ld: t = %.17g does not increase (previous %.17g): times "
                         "must be sorted without duplicates", tf->path, ps->lineno, ps->t, prev);
    ps->ns++;
    return DVC_OK;
}

/* The next sample of the pass (*got = 1), or its end (*got = 0). */
static dvc_status pass_next(dvc_traj_from *tf, dvc_traj_from_pass *ps, int *got)
{
    ssize_t len;
    *got = 0;
    while ((len = getline(&ps->line, &ps->lcap, ps->f)) != -1) {
        char *line = ps->line;
        dvc_status st;
        ps->lineno++;
        dvc_fnv_update(&ps->digest, line, (size_t)len);
        if (memchr(line, '\0', (size_t)len))
            return dvc_error(DVC_ERR_INPUT, "%s: NUL byte at line %ld (not a text file)", tf->path, ps->lineno);
        line[strcspn(line, "\r\n")] = '\0';
        {
            /* blank lines and comments skipped, as by check */
            char c = line[strspn(line, " \t")];
            if (c == '\0' || c == '#') continue;
        }
        if (ps->ncols == 0) {
            if ((st = header(tf, ps, line)) != DVC_OK) return st;
            continue;
        }
        if ((st = sample(tf, ps, line)) != DVC_OK) return st;
        *got = 1;
        return DVC_OK;
    }
    if (ferror(ps->f)) return dvc_error(DVC_ERR_IO, "%s: read error", tf->path);
    return DVC_OK;
}

static dvc_status changed(const dvc_traj_from *tf)
{
    return dvc_error(DVC_ERR_INPUT, "%s: the file changed while it was read (the trajectory is read more than "
                     "once: first checked, then certified one sample at a time); nothing written", tf->path);
}

/* Another pass of ps from the start of the file, which must still be the
 * one first read (size, modification time). */
static dvc_status pass_begin(dvc_traj_from *tf, dvc_traj_from_pass *ps)
{
    struct stat s;
    if (stat(tf->path, &s) != 0 || s.st_size != tf->st.st_size || s.st_mtim.tv_sec != tf->st.st_mtim.tv_sec ||
        s.st_mtim.tv_nsec != tf->st.st_mtim.tv_nsec)
        return changed(tf);
    if (fseek(ps->f, 0, SEEK_SET) != 0) return dvc_error(DVC_ERR_IO, "%s: cannot read it again", tf->path);
    clearerr(ps->f);
    ps->lineno = ps->ncols = ps->ns = 0;
    ps->digest = DVC_FNV_OFFSET;
    return DVC_OK;
}

/* A later pass: its next sample, which must exist; an input error there
 * is a change of the file since the first pass. */
static dvc_status again_next(dvc_traj_from *tf, dvc_traj_from_pass *ps)
{
    int got;
    dvc_status st = pass_next(tf, ps, &got);
    if (st == DVC_ERR_INPUT || (st == DVC_OK && !got)) return changed(tf);
    return st;
}

/* The first pass: every check, the count, K = the first sample at or past
 * T (1 - 1e-9) (the last one if none), and with keep every sample. */
static dvc_status first_pass(dvc_traj_from *tf, int keep, long *K)
{
    dvc_traj_from_pass *ps = &tf->ps;
    long cap = 0, n = tf->n;
    int got;
    dvc_status st;
    *K = -1;
    if ((st = pass_begin(tf, ps)) != DVC_OK) return st;
    while ((st = pass_next(tf, ps, &got)) == DVC_OK && got) {
        long i = ps->ns - 1;
        if (*K < 0 && ps->t >= tf->T * (1 - 1e-9)) {
            /* the grid's last time and the file up to it, for the times' passes */
            *K = i;
            tf->end = ps->t;
            tf->kdigest = ps->digest;
        }
        if (!keep) continue;
        if (i == cap) {
            long nc = cap ? 2 * cap : 1024;
            double *nt = realloc(tf->t, (size_t)nc * sizeof *nt), *nx;
            if (nt) tf->t = nt;
            nx = nt ? realloc(tf->x, (size_t)(nc * n) * sizeof *nx) : NULL;
            if (!nt || !nx) return dvc_error(DVC_ERR_NOMEM, "out of memory");
            tf->x = nx;
            cap = nc;
        }
        tf->t[i] = ps->t;
        memcpy(tf->x + i * n, ps->x, (size_t)n * sizeof *ps->x);
    }
    if (st != DVC_OK) return st;
    tf->ns = ps->ns;
    tf->lines = ps->lineno;
    tf->digest = ps->digest;
    if (ps->ncols == 0) return dvc_error(DVC_ERR_INPUT, "%s: empty file (expected a header t,x1..x%ld)", tf->path, n);
    if (tf->ns < 2) return dvc_error(DVC_ERR_INPUT, "%s: fewer than two samples", tf->path);
    /* reach T: the last time within a relative 1e-9 of T (decimal times) */
    if (!(ps->t >= tf->T * (1 - 1e-9)))
        return dvc_error(DVC_ERR_INPUT, "%s: line %ld: the trajectory ends at t = %.17g and does not reach T = %.17g",
                         tf->path, ps->lineno, ps->t, tf->T);
    if (*K > tf->ns - 1) *K = tf->ns - 1;
    return DVC_OK;
}

/* Sample j of M + 1 on the uniform grid j T / M (to a relative 1e-9:
 * decimal times of i h)? */
static int on_uniform(double t, long j, long M, double T)
{
    return !(fabs(t - T * (double)j / (double)M) > 1e-9 * T);
}

/* The explicit grid's time i (tf->times): from the window of the times'
 * own pass, read on to i, or a new pass when i is before the window. */
static dvc_status time_at(void *ctx, long i, double *t)
{
    dvc_traj_from *tf = ctx;
    dvc_traj_from_pass *ps = &tf->cur;
    dvc_status st;
    if (i < 0 || i > tf->grid.N) return dvc_error(DVC_ERR_INTERNAL, "trajectory: grid time %ld asked", i);
    if (!ps->f) {
        /* a stream of its own (the samples' pass may be at another line) */
        FILE *f = NULL;
        struct stat s;
        if ((st = dvc_infile_open(&f, tf->path, "r")) != DVC_OK) return st;
        ps->f = f;
        if (stat(tf->path, &s) != 0 || s.st_ino != tf->st.st_ino || s.st_dev != tf->st.st_dev) return changed(tf);
        ps->times_only = 1;
        ps->col = malloc((size_t)(tf->n + 1) * sizeof *ps->col);
        ps->x = malloc((size_t)(tf->n > 0 ? tf->n : 1) * sizeof *ps->x);
        if (!ps->col || !ps->x) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        ps->ns = i + DVC_TRAJ_FROM_WIN + 1; /* a new pass below */
    }
    if (i + DVC_TRAJ_FROM_WIN < ps->ns && (st = pass_begin(tf, ps)) != DVC_OK) return st;
    while (ps->ns <= i) {
        if ((st = again_next(tf, ps)) != DVC_OK) return st;
        tf->win[(ps->ns - 1) % DVC_TRAJ_FROM_WIN] = ps->t;
        /* t[N] read: the file up to here is the one first checked */
        if (ps->ns - 1 == tf->grid.N && (ps->digest != tf->kdigest || ps->t != tf->end)) return changed(tf);
    }
    *t = tf->win[i % DVC_TRAJ_FROM_WIN];
    return DVC_OK;
}

/* Uniform or the explicit times t[0..K] (a view of t when kept, else on
 * demand: time_at). */
static dvc_status grid(dvc_traj_from *tf, long K)
{
    long M = tf->ns - 1;
    int uniform = 1;
    dvc_status st;
    if (!tf->t && (st = pass_begin(tf, &tf->ps)) != DVC_OK) return st;
    for (long j = 0; j <= M && uniform; j++) {
        if (!tf->t && (st = again_next(tf, &tf->ps)) != DVC_OK) return st;
        uniform = on_uniform(tf->t ? tf->t[j] : tf->ps.t, j, M, tf->T);
    }
    tf->past = M - (uniform ? M : K);
    if (uniform) {
        dvc_tgrid_set(&tf->grid, M, 0, NULL);
        tf->end = tf->T;
        return DVC_OK;
    }
    /* the trajectory's own times up to the first one at or past T (to a
     * relative 1e-9, as read): they are the certificate's grid, never held
     * (8 bytes a sample) but read again when asked */
    if (tf->t) {
        dvc_tgrid_set(&tf->grid, K, 0, tf->t);
        return DVC_OK;
    }
    tf->times.at = time_at;
    tf->times.ctx = tf;
    dvc_tgrid_set_src(&tf->grid, K, &tf->times);
    return DVC_OK;
}

dvc_status dvc_traj_from_read(dvc_traj_from *tf, const char *path, long n, double T, int keep)
{
    return dvc_traj_from_read_named(tf, path, n, NULL, T, keep);
}

dvc_status dvc_traj_from_read_named(dvc_traj_from *tf, const char *path, long n, const char *const *names, double T,
                                    int keep)
{
    dvc_status st = DVC_OK;
    long K;
    memset(tf, 0, sizeof *tf);
    tf->n = n;
    tf->path = path;
    tf->T = T;
    /* a copy: the header is read again at every pass */
    if (names && n > 0 && !(tf->names = calloc((size_t)n, sizeof *tf->names)))
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long j = 0; tf->names && j < n; j++)
        if (!(tf->names[j] = strdup(names[j]))) {
            dvc_traj_from_clear(tf);
            return dvc_error(DVC_ERR_NOMEM, "out of memory");
        }
    /* a regular file only: a directory, device or FIFO is refused at once */
    if ((st = dvc_infile_open(&tf->ps.f, path, "r")) != DVC_OK) {
        dvc_traj_from_clear(tf);
        return st;
    }
    if (stat(path, &tf->st) != 0) st = dvc_error(DVC_ERR_IO, "%s: read error", path);
    tf->ps.col = malloc((size_t)(n + 1) * sizeof *tf->ps.col);
    tf->ps.x = malloc((size_t)(n > 0 ? n : 1) * sizeof *tf->ps.x);
    if (st == DVC_OK && (!tf->ps.col || !tf->ps.x)) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK) st = first_pass(tf, keep == DVC_TRAJ_FROM_KEEP, &K);
    /* DVC_TRAJ_FROM_SAMPLES: every sample in turn, no grid */
    if (st == DVC_OK && keep != DVC_TRAJ_FROM_SAMPLES) st = grid(tf, K);
    if (st != DVC_OK && tf->ps.f) {
        /* a damaged gzip file is named as such, not by what its bytes said */
        st = dvc_infile_close(tf->ps.f, st);
        tf->ps.f = NULL;
    }
    if (st != DVC_OK) dvc_traj_from_clear(tf);
    return st;
}

/* The rest of a later pass: the file must be the one first read, whole. */
static dvc_status pass_rest(dvc_traj_from *tf)
{
    dvc_traj_from_pass *ps = &tf->ps;
    int got;
    dvc_status st;
    while ((st = pass_next(tf, ps, &got)) == DVC_OK && got) {
    }
    if (st == DVC_ERR_INPUT) return changed(tf);
    if (st != DVC_OK) return st;
    if (ps->ns != tf->ns || ps->lineno != tf->lines || ps->digest != tf->digest) return changed(tf);
    return DVC_OK;
}

dvc_status dvc_traj_from_next(dvc_traj_from *tf, long i, double *x)
{
    dvc_traj_from_pass *ps = &tf->ps;
    long N = tf->grid.N;
    double ti;
    dvc_status st;
    if (i == 0 && (st = pass_begin(tf, ps)) != DVC_OK) return st;
    if (i != ps->ns || i > N) return dvc_error(DVC_ERR_INTERNAL, "trajectory: sample %ld asked out of order", i);
    if ((st = again_next(tf, ps)) != DVC_OK) return st;
    /* the times the grid was made of */
    if (tf->grid.kind == DVC_TGRID_EXPLICIT && (st = dvc_tgrid_at(&tf->grid, i, &ti)) != DVC_OK) return st;
    if (tf->grid.kind == DVC_TGRID_EXPLICIT ? ps->t != ti : !on_uniform(ps->t, i, N, tf->T)) return changed(tf);
    memcpy(x, ps->x, (size_t)tf->n * sizeof *x);
    return i < N ? DVC_OK : pass_rest(tf);
}

dvc_status dvc_traj_from_sample(dvc_traj_from *tf, long k, double *t, double *x)
{
    dvc_traj_from_pass *ps = &tf->ps;
    dvc_status st;
    if (k == 0 && (st = pass_begin(tf, ps)) != DVC_OK) return st;
    if (k != ps->ns || k >= tf->ns) return dvc_error(DVC_ERR_INTERNAL, "trajectory: sample %ld asked out of order", k);
    if ((st = again_next(tf, ps)) != DVC_OK) return st;
    *t = ps->t;
    memcpy(x, ps->x, (size_t)tf->n * sizeof *x);
    return k + 1 < tf->ns ? DVC_OK : pass_rest(tf);
}
