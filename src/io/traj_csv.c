/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Trajectory CSV files (docs/formats.md) into in-memory trajectories. */
#include "dvicert/certio.h"
#include "dvicert/files.h"
#include "io/traj_csv.h"
#include "io/traj_header.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOT_IGNORED DVC_TRAJ_SLOT_IGNORED

/* Column name -> slot, by the rule every trajectory reader shares. */
static long slot_of(const char *name, long n, long m, const dvc_traj_read_opts *o, int allow_ignore)
{
    return dvc_traj_header_slot(name, n, m, o->names, o->ynames, allow_ignore);
}

void dvc_traj_read_opts_init(dvc_traj_read_opts *o)
{
    memset(o, 0, sizeof *o);
}

dvc_status dvc_traj_read(dvc_traj_t tr, const char *path, long n, long m, const mpfi_t T)
{
    dvc_traj_read_opts o;
    dvc_traj_read_opts_init(&o);
    return dvc_traj_read_ex(tr, path, n, m, T, &o);
}

dvc_status dvc_traj_read_named(dvc_traj_t tr, const char *path, long n, long m, mpfr_srcptr t0,
                               const mpfi_t T, const char *const *names)
{
    dvc_traj_read_opts o;
    dvc_traj_read_opts_init(&o);
    o.t0 = t0;
    o.names = names;
    return dvc_traj_read_ex(tr, path, n, m, T, &o);
}

/* The column names (a header line, or o->columns) into slot_col; *ncols
 * receives their number. Messages name what as "line L" or "--columns". */
static dvc_status read_names(long *slot_col, long **col_slot, long *ncols, char *text, char delim, long n,
                             long m, dvc_traj_read_opts *o, const char *path, const char *what)
{
    long cnt, nslots = 1 + n + m;
    char **fld;
    dvc_status st = DVC_OK;
    int listed = o->columns != NULL;
    char *copy = strdup(text);
    if (!copy) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    cnt = dvc_traj_split(copy, NULL, 0, delim);
    free(copy);
    fld = malloc((size_t)(cnt > 0 ? cnt : 1) * sizeof *fld);
    *col_slot = malloc((size_t)(cnt > 0 ? cnt : 1) * sizeof **col_slot);
    if (!fld || !*col_slot) {
        free(fld);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    dvc_traj_split(text, fld, cnt, delim);
    *ncols = cnt;
    for (long k = 0; k < cnt && st == DVC_OK; k++) {
        long s = slot_of(fld[k], n, m, o, listed);
        (*col_slot)[k] = s;
        if (s == SLOT_IGNORED) continue;
        if (s < 0 && o->names)
            st = dvc_error(DVC_ERR_INPUT, "%s: %s: unknown column '%s' (expected t and the states "
                           "%s..%s or x1..x%ld%s)", path, what, fld[k], o->names[0], o->names[n - 1], n,
                           listed ? ", or _ to skip a column" : "; --columns reads other layouts");
        else if (s < 0)
            st = dvc_error(DVC_ERR_INPUT, "%s: %s: unknown column '%s' (expected t, x1..x%ld, y1..y%ld%s)",
                           path, what, fld[k], n, m,
                           listed ? ", or _ to skip a column" : "; --columns reads other layouts");
        else if (slot_col[s] >= 0)
            /* with names, a state may be given by name and as xj */
            st = dvc_error(DVC_ERR_INPUT, o->names && s >= 1 && s <= n
                           ? "%s: %s: column '%s' names a state already given"
                           : o->ynames && s > n ? "%s: %s: column '%s' names an output already given"
                                                : "%s: %s: column '%s' appears twice", path, what, fld[k]);
        else
            slot_col[s] = k;
    }
    free(fld);
    if (st != DVC_OK) return st;
    if (slot_col[0] < 0)
        return dvc_error(DVC_ERR_INPUT, "%s: %s: missing column 't' (header must be "
                         "t,x1..x%ld[,y1..y%ld])", path, what, n, m);
    for (long s = 1; s <= n; s++)
        if (slot_col[s] < 0) {
            if (o->names)
                return dvc_error(DVC_ERR_INPUT, "%s: %s: missing column '%s' (the model "
                                 "has %ld states)", path, what, o->names[s - 1], n);
            return dvc_error(DVC_ERR_INPUT, "%s: %s: missing column 'x%ld' (the "
                             "problem has %ld states)", path, what, s, n);
        }
    {
        long ny = 0;
        for (long s = n + 1; s < nslots; s++) ny += slot_col[s] >= 0;
        if (ny != 0 && ny != m)
            for (long s = n + 1; s < nslots; s++)
                if (slot_col[s] < 0) {
                    /* named outputs (a DAE's algebraic variables) by their names */
                    if (o->ynames && o->ynames[s - n - 1])
                        return dvc_error(DVC_ERR_INPUT, "%s: %s: missing column '%s' (give all of "
                                         "%s..%s or y1..y%ld, or none)", path, what, o->ynames[s - n - 1],
                                         o->ynames[0], o->ynames[m - 1], m);
                    return dvc_error(DVC_ERR_INPUT, "%s: %s: missing column 'y%ld' "
                                     "(give all of y1..y%ld or none)", path, what, s - n, m);
                }
    }
    return DVC_OK;
}

/* The columns, from o->columns or else the header line p (line lineno):
 * slot_col, col_slot and ncols (read_names), the field array fld and the
 * trajectory's column map. */
static dvc_status start_columns(dvc_traj_t tr, long n, long m, dvc_traj_read_opts *o,
                                const char *path, char *p, char delim, long lineno, long *slot_col,
                                long **col_slot, long *ncols, char ***fld)
{
    dvc_status st;
    if (o->columns) {
        char *cols = strdup(o->columns);
        if (!cols) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        st = read_names(slot_col, col_slot, ncols, cols, ',', n, m, o, path, "--columns");
        free(cols);
    } else {
        char what[64];
        snprintf(what, sizeof what, "line %ld", lineno);
        st = read_names(slot_col, col_slot, ncols, p, delim, n, m, o, path, what);
    }
    if (st != DVC_OK) return st;
    *fld = malloc((size_t)*ncols * sizeof **fld);
    tr->col = malloc((size_t)(n + m + 1) * sizeof *tr->col);
    if (!*fld || !tr->col) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    tr->n = n;
    tr->m = 0;
    for (long q = n + 1; q < 1 + n + m; q++) tr->m += slot_col[q] >= 0;
    for (long k = 0; k < tr->n + tr->m; k++) tr->col[k] = slot_col[k + 1];
    return DVC_OK;
}

/* *header = 1 when line p, above a --columns list, is a header line (its
 * time field, column tcol, is not a number): it is skipped. */
static dvc_status header_above_list(int *header, const char *p, char **fld, long ncols, char delim,
                                    long tcol)
{
    char *copy = strdup(p);
    mpfi_t t1;
    *header = 0;
    if (!copy) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    mpfi_init2(t1, 64);
    if (dvc_traj_split(copy, fld, ncols, delim) == ncols) *header = dvc_ival_set_str(t1, fld[tcol]) != DVC_OK;
    mpfi_clear(t1);
    free(copy);
    return DVC_OK;
}

/* Room for one more sample (*alloc: the capacity). */
static dvc_status grow(dvc_traj_t tr, long *alloc)
{
    long na = *alloc ? 2 * *alloc : 1024;
    mpfi_t *nt, *nv;
    long *nl;
    if (tr->ns < *alloc) return DVC_OK;
    nt = realloc(tr->t, (size_t)na * sizeof *nt);
    if (nt) tr->t = nt;
    nv = nt ? realloc(tr->v, (size_t)na * (size_t)(tr->n + tr->m + 1) * sizeof *nv) : NULL;
    if (nv) tr->v = nv;
    nl = nv ? realloc(tr->line, (size_t)na * sizeof *nl) : NULL;
    if (!nl) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    tr->line = nl;
    *alloc = na;
    return DVC_OK;
}

/* "column 'name': 'txt' is not a finite decimal number" for value k of a
 * sample: the state or output name when known, else xj / yj. */
static dvc_status bad_value(const dvc_traj_t tr, const dvc_traj_read_opts *o, long k,
                            const char *path, long lineno, const char *txt)
{
    char lab[32];
    const char *name = lab;
    if (k < tr->n && o->names) {
        name = o->names[k];
    } else if (k >= tr->n && o->ynames) {
        name = o->ynames[k - tr->n];
    } else {
        snprintf(lab, sizeof lab, "%s%ld", k < tr->n ? "x" : "y", k < tr->n ? k + 1 : k - tr->n + 1);
    }
    return dvc_error(DVC_ERR_INPUT, "%s: line %ld: column '%s': '%s' is not a finite decimal number",
                     path, lineno, name, txt);
}

/* One sample from the fields of line lineno (time in column tcol): times
 * within o->t_tol past T (up to tmax) are read as T. */
static dvc_status read_sample(dvc_traj_t tr, char **fld, long tcol, long lineno, const char *path,
                              const mpfi_t T, mpfr_srcptr tmax, mpfr_prec_t prec,
                              dvc_traj_read_opts *o)
{
    long s = tr->ns, w = tr->n + tr->m;
    const char *tt = fld[tcol];
    mpfi_init2(tr->t[s], prec);
    for (long k = 0; k < w; k++) mpfi_init2(tr->v[s * w + k], prec);
    tr->ns++;
    tr->line[s] = lineno;
    if (dvc_ival_set_str(tr->t[s], tt) != DVC_OK || strchr(tt, '[') || !dvc_ival_is_finite(tr->t[s]))
        return dvc_error(DVC_ERR_INPUT, "%s: line %ld: column 't': '%s' is not a finite decimal number",
                         path, lineno, tt);
    if (o->t_tol && mpfr_cmp(&tr->t[s]->right, &T->right) > 0 &&
        mpfr_cmp(&tr->t[s]->left, &T->left) >= 0 && mpfr_cmp(&tr->t[s]->right, tmax) <= 0) {
        mpfi_set(tr->t[s], T); /* within the tolerance past T: read as T */
        o->clipped++;
    }
    if ((o->t0 ? mpfr_cmp(&tr->t[s]->left, o->t0) : mpfr_sgn(&tr->t[s]->left)) < 0 ||
        mpfr_cmp(&tr->t[s]->right, &T->right) > 0) {
        if (o->t0)
            return dvc_error(DVC_ERR_INPUT, "%s: line %ld: t = %s lies outside [t0, T] = "
                             "[%.17g, %.17g]", path, lineno, tt,
                             mpfr_get_d(o->t0, MPFR_RNDD), dvc_ival_mid_d(T));
        return dvc_error(DVC_ERR_INPUT, "%s: line %ld: t = %s lies outside [0, T] = "
                         "[0, %.17g]%s", path, lineno, tt, dvc_ival_mid_d(T),
                         o->t_tol ? "" : " (--tol clips times just past T)");
    }
    for (long k = 0; k < w; k++) {
        const char *txt = fld[tr->col[k]];
        if (dvc_ival_set_str(tr->v[s * w + k], txt) != DVC_OK || strchr(txt, '[') ||
            !dvc_ival_is_finite(tr->v[s * w + k]))
            return bad_value(tr, o, k, path, lineno, txt);
    }
    return DVC_OK;
}

dvc_status dvc_traj_reader_open(dvc_traj_reader *rd, const char *path, long n, long m, const mpfi_t T,
                                dvc_traj_read_opts *o)
{
    dvc_status st;
    memset(rd, 0, sizeof *rd);
    dvc_traj_init(rd->one);
    rd->path = path;
    rd->n = n;
    rd->m = m;
    rd->T = T;
    rd->o = o;
    /* samples are decimals: enclose them tighter than the tube's numbers */
    rd->prec = mpfi_get_prec(T) + DVC_TRAJ_EXTRA_BITS;
    o->clipped = 0;
    if (o->t_tol && !(mpfr_number_p(o->t_tol) && mpfr_sgn(o->t_tol) >= 0))
        return dvc_error(DVC_ERR_INPUT, "time tolerance: must be a finite number >= 0");
    if ((st = dvc_infile_open(&rd->f, path, "r")) != DVC_OK) return st;
    rd->slot_col = malloc((size_t)(1 + n + m) * sizeof *rd->slot_col);
    if (!rd->slot_col) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long s = 0; s < 1 + n + m; s++) rd->slot_col[s] = -1;
    /* T + t_tol rounded down: the clipping never reaches past it */
    mpfr_init2(rd->tmax, rd->prec);
    rd->tmax_init = 1;
    if (o->t_tol) mpfr_add(rd->tmax, &T->left, o->t_tol, MPFR_RNDD);
    return DVC_OK;
}

/* One sample: the trajectory rd->one then holds it alone (t[0], v, line[0]). */
static dvc_status reader_sample(dvc_traj_reader *rd)
{
    dvc_traj_struct *tr = rd->one;
    long w = tr->n + tr->m;
    if (!rd->alloc) {
        tr->t = malloc(sizeof *tr->t);
        tr->v = malloc((size_t)(w + 1) * sizeof *tr->v);
        tr->line = malloc(sizeof *tr->line);
        if (!tr->t || !tr->v || !tr->line) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        rd->alloc = 1;
    } else {
        /* the sample's enclosures are made again by read_sample */
        mpfi_clear(tr->t[0]);
        for (long k = 0; k < w; k++) mpfi_clear(tr->v[k]);
    }
    tr->ns = 0;
    return read_sample(tr, rd->fld, rd->slot_col[0], rd->lineno, rd->path, rd->T, rd->tmax, rd->prec, rd->o);
}

dvc_status dvc_traj_reader_next(dvc_traj_reader *rd, int *got)
{
    dvc_traj_read_opts *o = rd->o;
    const char *path = rd->path;
    long n = rd->n, m = rd->m;
    ssize_t len;
    dvc_status st = DVC_OK;
    *got = 0;
    if (rd->failed) return dvc_error(DVC_ERR_INTERNAL, "trajectory reader: used after a failure");
    while ((len = getline(&rd->line, &rd->cap, rd->f)) >= 0) {
        char *p;
        long nf;
        rd->lineno++;
        /* a NUL would cut the line short and miscount its fields */
        if (memchr(rd->line, '\0', (size_t)len)) {
            st = dvc_error(DVC_ERR_INPUT, "%s: NUL byte at line %ld (not a text file)", path, rd->lineno);
            break;
        }
        p = dvc_traj_trim(rd->line);
        if (*p == '\0' || *p == '#') continue;
        if (!rd->have_header) {
            int header = 1; /* without a --columns list this line is the header */
            rd->delim = dvc_traj_delim(p);
            st = start_columns(rd->one, n, m, o, path, p, rd->delim, rd->lineno, rd->slot_col, &rd->col_slot,
                               &rd->ncols, &rd->fld);
            if (st == DVC_OK && o->columns)
                st = header_above_list(&header, p, rd->fld, rd->ncols, rd->delim, rd->slot_col[0]);
            if (st != DVC_OK) break;
            rd->have_header = 1;
            if (header) continue;
        }
        nf = dvc_traj_split(p, rd->fld, rd->ncols, rd->delim);
        if (nf != rd->ncols) {
            st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: %ld fields, the %s has %ld", path, rd->lineno, nf,
                           o->columns ? "--columns list" : "header", rd->ncols);
            break;
        }
        if ((st = reader_sample(rd)) != DVC_OK) break;
        rd->ns++;
        *got = 1;
        return DVC_OK;
    }
    if (st == DVC_OK && !rd->have_header)
        st = o->names ? dvc_error(DVC_ERR_INPUT, "%s: empty file (expected a header t and the states "
                                  "%s..%s or x1..x%ld)", path, o->names[0], o->names[n - 1], n)
                      : dvc_error(DVC_ERR_INPUT, "%s: empty file (expected a header t,x1..x%ld[,y1..y%ld])",
                                  path, n, m);
    if (st == DVC_OK && rd->ns == 0) st = dvc_error(DVC_ERR_INPUT, "%s: no samples after the header", path);
    if (st == DVC_OK && ferror(rd->f)) st = dvc_error(DVC_ERR_IO, "%s: read error", path);
    if (st != DVC_OK) {
        /* a damaged gzip file is named as such, not by what its bytes said */
        st = dvc_infile_close(rd->f, st);
        rd->f = NULL;
        rd->failed = 1;
    }
    return st;
}

dvc_status dvc_traj_reader_rewind(dvc_traj_reader *rd)
{
    if (rd->failed || fseek(rd->f, 0, SEEK_SET) != 0)
        return dvc_error(DVC_ERR_IO, "%s: cannot read the file again", rd->path);
    rd->lineno = 0;
    rd->ns = 0;
    rd->o->clipped = 0;
    /* the header (or the line above a --columns list) is read again */
    free(rd->fld);
    free(rd->col_slot);
    rd->fld = NULL;
    rd->col_slot = NULL;
    free(rd->one->col);
    rd->one->col = NULL;
    for (long s = 0; s < 1 + rd->n + rd->m; s++) rd->slot_col[s] = -1;
    rd->have_header = 0;
    return DVC_OK;
}

void dvc_traj_reader_close(dvc_traj_reader *rd)
{
    if (rd->f) fclose(rd->f);
    if (rd->tmax_init) mpfr_clear(rd->tmax);
    rd->one->ns = rd->alloc ? 1 : 0; /* the last sample's enclosures are cleared with it */
    dvc_traj_clear(rd->one);
    free(rd->line);
    free(rd->fld);
    free(rd->slot_col);
    free(rd->col_slot);
    memset(rd, 0, sizeof *rd);
}

/* Append the reader's sample to tr (*alloc: its capacity). */
static dvc_status append_sample(dvc_traj_t tr, long *alloc, const dvc_traj_struct *one)
{
    long w = one->n + one->m, s = tr->ns;
    dvc_status st = grow(tr, alloc);
    if (st != DVC_OK) return st;
    mpfi_init2(tr->t[s], mpfi_get_prec(one->t[0]));
    mpfi_set(tr->t[s], one->t[0]);
    for (long k = 0; k < w; k++) {
        mpfi_init2(tr->v[s * w + k], mpfi_get_prec(one->v[k]));
        mpfi_set(tr->v[s * w + k], one->v[k]);
    }
    tr->line[s] = one->line[0];
    tr->ns++;
    return DVC_OK;
}

dvc_status dvc_traj_read_ex(dvc_traj_t tr, const char *path, long n, long m, const mpfi_t T,
                            dvc_traj_read_opts *o)
{
    dvc_traj_reader rd;
    long alloc = 0;
    int got = 0;
    dvc_status st;
    dvc_traj_clear(tr);
    st = dvc_traj_reader_open(&rd, path, n, m, T, o);
    while (st == DVC_OK && (st = dvc_traj_reader_next(&rd, &got)) == DVC_OK && got) {
        if (!tr->col) {
            /* the columns, known once the header was read */
            long w = rd.one->n + rd.one->m;
            tr->n = rd.one->n;
            tr->m = rd.one->m;
            tr->col = malloc((size_t)(w + 1) * sizeof *tr->col);
            if (!tr->col) {
                st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                break;
            }
            memcpy(tr->col, rd.one->col, (size_t)w * sizeof *tr->col);
        }
        st = append_sample(tr, &alloc, rd.one);
    }
    dvc_traj_reader_close(&rd);
    if (st != DVC_OK) dvc_traj_clear(tr);
    return st;
}
