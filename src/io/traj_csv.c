/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Trajectory CSV files (docs/formats.md) into in-memory trajectories. */
#include "dvicert/certio.h"
#include "dvicert/files.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s)) s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

/* Split line in place at commas; returns the number of fields (<= max). */
static long split(char *line, char **f, long max)
{
    long k = 0;
    char *p = line;
    for (;;) {
        char *c = strchr(p, ',');
        /* cut before trimming, so "t ,x1" gives "t" */
        if (c) *c = '\0';
        if (k < max) f[k] = trim(p);
        k++;
        if (!c) break;
        p = c + 1;
    }
    return k;
}

/* Column name -> slot: 0 = t, 1..n = x (a state name when names is given,
 * else or then x1..xn), n+1..n+m = y; -1 unknown. */
static long slot_of(const char *name, long n, long m, const char *const *names)
{
    char *end;
    long k;
    if (strcmp(name, "t") == 0) return 0;
    if (names)
        for (long j = 0; j < n; j++)
            if (strcmp(name, names[j]) == 0) return j + 1;
    if ((name[0] != 'x' && name[0] != 'y') || !isdigit((unsigned char)name[1])) return -1;
    errno = 0;
    k = strtol(name + 1, &end, 10);
    if (*end != '\0' || errno || k < 1) return -1;
    if (name[0] == 'x') return k <= n ? k : -1;
    return k <= m ? n + k : -1;
}

dvc_status dvc_traj_read(dvc_traj_t tr, const char *path, long n, long m, const mpfi_t T)
{
    return dvc_traj_read_named(tr, path, n, m, NULL, T, NULL);
}

dvc_status dvc_traj_read_named(dvc_traj_t tr, const char *path, long n, long m, mpfr_srcptr t0,
                               const mpfi_t T, const char *const *names)
{
    FILE *f;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0, nslots = 1 + n + m, ncols = 0, alloc = 0;
    long *slot_col = NULL;  /* slot -> column, -1 absent */
    char **fld = NULL;
    dvc_status st = DVC_OK;
    int have_header = 0;
    /* samples are decimals: enclose them tighter than the tube's numbers */
    mpfr_prec_t prec = mpfi_get_prec(T) + DVC_TRAJ_EXTRA_BITS;

    dvc_traj_clear(tr);
    if ((st = dvc_infile_open(&f, path, "r")) != DVC_OK) return st;
    slot_col = malloc((size_t)nslots * sizeof *slot_col);
    if (!slot_col) {
        fclose(f);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    for (long s = 0; s < nslots; s++) slot_col[s] = -1;

    while (st == DVC_OK && (len = getline(&line, &cap, f)) >= 0) {
        char *p;
        long nf;
        lineno++;
        p = trim(line);
        if (*p == '\0' || *p == '#') continue;
        if (!have_header) {
            long cnt = 1;
            for (char *q = p; *q; q++) cnt += *q == ',';
            ncols = cnt;
            fld = malloc((size_t)ncols * sizeof *fld);
            if (!fld) {
                st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                break;
            }
            split(p, fld, ncols);
            for (long k = 0; k < ncols; k++) {
                long s = slot_of(fld[k], n, m, names);
                if (s < 0 && names)
                    st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: unknown column '%s' (expected t "
                                   "and the states %s..%s or x1..x%ld)", path, lineno, fld[k],
                                   names[0], names[n - 1], n);
                else if (s < 0)
                    st = dvc_error(DVC_ERR_INPUT,
                                   "%s: line %ld: unknown column '%s' (expected t, x1..x%ld, y1..y%ld)",
                                   path, lineno, fld[k], n, m);
                else if (slot_col[s] >= 0)
                    /* with names, a state may be given by name and as xj */
                    st = dvc_error(DVC_ERR_INPUT, names && s >= 1 && s <= n
                                   ? "%s: line %ld: column '%s' names a state already given"
                                   : "%s: line %ld: column '%s' appears twice", path, lineno, fld[k]);
                if (st != DVC_OK) break;
                slot_col[s] = k;
            }
            if (st != DVC_OK) break;
            if (slot_col[0] < 0) {
                st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column 't' (header must be "
                               "t,x1..x%ld[,y1..y%ld])", path, lineno, n, m);
                break;
            }
            for (long s = 1; s <= n; s++)
                if (slot_col[s] < 0) {
                    if (names)
                        st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column '%s' (the model "
                                       "has %ld states)", path, lineno, names[s - 1], n);
                    else
                        st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column 'x%ld' (the "
                                       "problem has %ld states)", path, lineno, s, n);
                    break;
                }
            if (st != DVC_OK) break;
            {
                long ny = 0;
                for (long s = n + 1; s < nslots; s++) ny += slot_col[s] >= 0;
                if (ny != 0 && ny != m) {
                    for (long s = n + 1; s < nslots; s++)
                        if (slot_col[s] < 0) {
                            st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column 'y%ld' "
                                           "(give all of y1..y%ld or none)", path, lineno, s - n, m);
                            break;
                        }
                    break;
                }
                tr->n = n;
                tr->m = ny;
            }
            tr->col = malloc((size_t)(n + m + 1) * sizeof *tr->col);
            if (!tr->col) {
                st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                break;
            }
            for (long k = 0; k < tr->n + tr->m; k++) tr->col[k] = slot_col[k + 1];
            have_header = 1;
            continue;
        }
        nf = split(p, fld, ncols);
        if (nf != ncols) {
            st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: %ld fields, the header has %ld", path,
                           lineno, nf, ncols);
            break;
        }
        if (tr->ns == alloc) {
            long na = alloc ? 2 * alloc : 1024;
            mpfi_t *nt = realloc(tr->t, (size_t)na * sizeof *nt);
            if (nt) tr->t = nt;
            mpfi_t *nv = nt ? realloc(tr->v, (size_t)na * (size_t)(tr->n + tr->m + 1) * sizeof *nv) : NULL;
            if (nv) tr->v = nv;
            long *nl = nv ? realloc(tr->line, (size_t)na * sizeof *nl) : NULL;
            if (!nl) {
                st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                break;
            }
            tr->line = nl;
            alloc = na;
        }
        {
            long s = tr->ns, w = tr->n + tr->m;
            mpfi_init2(tr->t[s], prec);
            for (long k = 0; k < w; k++) mpfi_init2(tr->v[s * w + k], prec);
            tr->ns++;
            tr->line[s] = lineno;
            if (dvc_ival_set_str(tr->t[s], fld[slot_col[0]]) != DVC_OK || strchr(fld[slot_col[0]], '[') ||
                !dvc_ival_is_finite(tr->t[s])) {
                st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: column 't': '%s' is not a finite decimal number",
                               path, lineno, fld[slot_col[0]]);
                break;
            }
            if ((t0 ? mpfr_cmp(&tr->t[s]->left, t0) : mpfr_sgn(&tr->t[s]->left)) < 0 ||
                mpfr_cmp(&tr->t[s]->right, &T->right) > 0) {
                if (t0)
                    st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: t = %s lies outside [t0, T] = "
                                   "[%.17g, %.17g]", path, lineno, fld[slot_col[0]],
                                   mpfr_get_d(t0, MPFR_RNDD), dvc_ival_mid_d(T));
                else
                    st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: t = %s lies outside [0, T] = "
                                   "[0, %.17g]", path, lineno, fld[slot_col[0]], dvc_ival_mid_d(T));
                break;
            }
            for (long k = 0; k < w; k++) {
                const char *txt = fld[tr->col[k]];
                if (dvc_ival_set_str(tr->v[s * w + k], txt) != DVC_OK || strchr(txt, '[') ||
                    !dvc_ival_is_finite(tr->v[s * w + k])) {
                    char lab[32];
                    if (k < tr->n && names)
                        st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: column '%s': '%s' is not a "
                                       "finite decimal number", path, lineno, names[k], txt);
                    else {
                        snprintf(lab, sizeof lab, "%s%ld", k < tr->n ? "x" : "y",
                                 k < tr->n ? k + 1 : k - tr->n + 1);
                        st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: column '%s': '%s' is not a "
                                       "finite decimal number", path, lineno, lab, txt);
                    }
                    break;
                }
            }
        }
    }
    if (st == DVC_OK && !have_header)
        st = names ? dvc_error(DVC_ERR_INPUT, "%s: empty file (expected a header t and the states "
                               "%s..%s or x1..x%ld)", path, names[0], names[n - 1], n)
                   : dvc_error(DVC_ERR_INPUT, "%s: empty file (expected a header t,x1..x%ld[,y1..y%ld])",
                               path, n, m);
    if (st == DVC_OK && tr->ns == 0)
        st = dvc_error(DVC_ERR_INPUT, "%s: no samples after the header", path);
    if (st == DVC_OK && ferror(f)) st = dvc_error(DVC_ERR_IO, "%s: read error", path);
    free(line);
    free(fld);
    free(slot_col);
    fclose(f);
    if (st != DVC_OK) dvc_traj_clear(tr);
    return st;
}

