/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A trajectory of another tool as the predictor of the lognorm route
 * (dvicert enclose --from): CSV t,x1..xn, extra columns ignored. */
#include "io/traj_from.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/error.h"
#include "dvicert/files.h"
#include "io/traj_header.h"

/* Fields of a line split at commas in place (trimmed); count returned. */
static long split_line(char *s, char **fld, long cap)
{
    long k = 0;
    char *p = s;
    for (;;) {
        char *e = strchr(p, ',');
        if (e) *e = '\0';
        while (isspace((unsigned char)*p)) p++;
        {
            size_t l = strlen(p);
            while (l > 0 && isspace((unsigned char)p[l - 1])) p[--l] = '\0';
        }
        if (k < cap) fld[k] = p;
        k++;
        if (!e) break;
        p = e + 1;
    }
    return k;
}

void dvc_traj_from_clear(dvc_traj_from *tf)
{
    free(tf->t);
    free(tf->x);
    free(tf->xs);
    dvc_tgrid_clear(&tf->grid);
    memset(tf, 0, sizeof *tf);
}

dvc_status dvc_traj_from_read(dvc_traj_from *tf, const char *path, long n,
                              const char *const *names, double T)
{
    FILE *f = NULL;
    char *line = NULL, **fld = NULL;
    size_t lcap = 0;
    long lineno = 0, ncols = 0, *col = NULL, cap = 0;
    dvc_status st = DVC_OK;
    memset(tf, 0, sizeof *tf);
    tf->n = n;
    /* a regular file only: a directory, device or FIFO is refused at once */
    if ((st = dvc_infile_open(&f, path, "r")) != DVC_OK) return st;
    col = malloc((size_t)(n + 1) * sizeof *col);
    if (!col) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    ssize_t len;
    while (st == DVC_OK && (len = getline(&line, &lcap, f)) != -1) {
        long nf;
        lineno++;
        if (memchr(line, '\0', (size_t)len)) {
            st = dvc_error(DVC_ERR_INPUT, "%s: NUL byte at line %ld (not a text file)", path, lineno);
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (line[strspn(line, " \t")] == '\0') continue;
        if (ncols == 0) {
            /* header: t and x1..xn by name; any other column is ignored */
            nf = 1;
            for (const char *q = line; *q; q++) nf += *q == ',';
            fld = malloc((size_t)nf * sizeof *fld);
            if (!fld) {
                st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                break;
            }
            split_line(line, fld, nf);
            ncols = nf;
            for (long k = 0; k <= n; k++) col[k] = -1;
            for (long k = 0; k < nf; k++) {
                /* the header rule of every reader (check's too) */
                long s = dvc_traj_header_slot(fld[k], n, 0, names, NULL, 0);
                if (s < 0) continue;
                if (col[s] >= 0) {
                    st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: column '%s' appears twice", path, lineno, fld[k]);
                    break;
                }
                col[s] = k;
            }
            for (long s = 0; st == DVC_OK && s <= n; s++)
                if (col[s] < 0) {
                    if (s == 0) st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column 't' (header t,x1..x%ld)",
                                               path, lineno, n);
                    else if (names)
                        st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column '%s' or 'x%ld' (the problem "
                                       "has %ld states: header t and %s..%s or x1..x%ld)", path, lineno,
                                       names[s - 1], s, n, names[0], names[n - 1], n);
                    else st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column 'x%ld' (the problem has %ld "
                                        "states)", path, lineno, s, n);
                }
            continue;
        }
        nf = split_line(line, fld, ncols);
        if (nf != ncols) {
            st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: %ld fields, the header has %ld", path, lineno, nf, ncols);
            break;
        }
        if (tf->ns == cap) {
            long nc = cap ? 2 * cap : 1024;
            double *nt = realloc(tf->t, (size_t)nc * sizeof *nt), *nx;
            if (nt) tf->t = nt;
            nx = nt ? realloc(tf->x, (size_t)(nc * n) * sizeof *nx) : NULL;
            if (!nt || !nx) {
                st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                break;
            }
            tf->x = nx;
            cap = nc;
        }
        for (long s = 0; s <= n && st == DVC_OK; s++) {
            const char *v = fld[col[s]];
            char *e;
            double d;
            errno = 0;
            d = strtod(v, &e);
            if (e == v || *e != '\0' || !isfinite(d) || errno == ERANGE)
            {
                char name[32];
                if (s == 0) snprintf(name, sizeof name, "t");
                else snprintf(name, sizeof name, "x%ld", s);
                st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: column '%s': '%s' is not a finite decimal number",
                               path, lineno, name, v);
            }
            else if (s == 0) tf->t[tf->ns] = d;
            else tf->x[tf->ns * n + s - 1] = d;
        }
        if (st != DVC_OK) break;
        if (tf->ns == 0 && tf->t[0] != 0.0)
            st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: the trajectory must start at t = 0, got %.17g", path,
                           lineno, tf->t[0]);
        else if (tf->ns > 0 && !(tf->t[tf->ns] > tf->t[tf->ns - 1]))
            st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: t = %.17g does not increase (previous %.17g): times "
                           "must be sorted without duplicates", path, lineno, tf->t[tf->ns], tf->t[tf->ns - 1]);
        tf->ns++;
    }
    if (st == DVC_OK && ferror(f)) st = dvc_error(DVC_ERR_IO, "%s: read error", path);
    if (st == DVC_OK && ncols == 0) st = dvc_error(DVC_ERR_INPUT, "%s: empty file (expected a header t,x1..x%ld)", path, n);
    if (st == DVC_OK && tf->ns < 2) st = dvc_error(DVC_ERR_INPUT, "%s: fewer than two samples", path);
    /* reach T: the last time within a relative 1e-9 of T (decimal times) */
    if (st == DVC_OK && !(tf->t[tf->ns - 1] >= T * (1 - 1e-9)))
        st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: the trajectory ends at t = %.17g and does not reach T = %.17g",
                       path, lineno, tf->t[tf->ns - 1], T);
    free(line);
    free(fld);
    free(col);
    fclose(f);
    if (st != DVC_OK) dvc_traj_from_clear(tf);
    return st;
}

dvc_status dvc_traj_from_grid(dvc_traj_from *tf, double T)
{
    long M = tf->ns - 1, n = tf->n, K = 0;
    int uniform = 1;
    /* uniform: t_j = j T / M to a relative 1e-9 (decimal times of i h) */
    for (long j = 0; j <= M && uniform; j++)
        if (fabs(tf->t[j] - T * (double)j / (double)M) > 1e-9 * T) uniform = 0;
    if (uniform) {
        dvc_tgrid_set(&tf->grid, M, 0, NULL);
        tf->end = T;
    } else {
        dvc_tgrid own;
        dvc_status st;
        /* the trajectory's own times up to the first one at or past T (to
         * a relative 1e-9, as read): they are the certificate's grid */
        while (K < M && !(tf->t[K] >= T * (1 - 1e-9))) K++;
        tf->end = tf->t[K];
        dvc_tgrid_set(&own, K, 0, tf->t);
        if ((st = dvc_tgrid_copy(&tf->grid, &own)) != DVC_OK) return st;
    }
    tf->past = M - tf->grid.N;
    tf->xs = malloc((size_t)((tf->grid.N + 1) * n) * sizeof *tf->xs);
    if (!tf->xs) return dvc_error(DVC_ERR_NOMEM, "out of memory for %ld grid points", tf->grid.N + 1);
    memcpy(tf->xs, tf->x, (size_t)((tf->grid.N + 1) * n) * sizeof *tf->xs);
    return DVC_OK;
}
