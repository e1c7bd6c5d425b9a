/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Trajectory CSV files and their check against a certified tube. */
#include "dvicert/traj.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dvc_traj_init(dvc_traj_t tr)
{
    memset(tr, 0, sizeof *tr);
}

void dvc_traj_clear(dvc_traj_t tr)
{
    for (long s = 0; s < tr->ns; s++) {
        mpfi_clear(tr->t[s]);
        for (long k = 0; k < tr->n + tr->m; k++) mpfi_clear(tr->v[s * (tr->n + tr->m) + k]);
    }
    free(tr->t);
    free(tr->v);
    free(tr->line);
    free(tr->col);
    memset(tr, 0, sizeof *tr);
}

void dvc_traj_report_clear(dvc_traj_report *rep)
{
    free(rep->viol);
    memset(rep, 0, sizeof *rep);
}

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

/* Column name -> slot: 0 = t, 1..n = x, n+1..n+m = y; -1 unknown. */
static long slot_of(const char *name, long n, long m)
{
    char *end;
    long k;
    if (strcmp(name, "t") == 0) return 0;
    if ((name[0] != 'x' && name[0] != 'y') || !isdigit((unsigned char)name[1])) return -1;
    errno = 0;
    k = strtol(name + 1, &end, 10);
    if (*end != '\0' || errno || k < 1) return -1;
    if (name[0] == 'x') return k <= n ? k : -1;
    return k <= m ? n + k : -1;
}

dvc_status dvc_traj_read(dvc_traj_t tr, const char *path, long n, long m, const mpfi_t T)
{
    FILE *f = fopen(path, "r");
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
    if (!f) return dvc_error(DVC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
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
                long s = slot_of(fld[k], n, m);
                if (s < 0) {
                    st = dvc_error(DVC_ERR_INPUT,
                                   "%s: line %ld: unknown column '%s' (expected t, x1..x%ld, y1..y%ld)",
                                   path, lineno, fld[k], n, m);
                    break;
                }
                if (slot_col[s] >= 0) {
                    st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: column '%s' appears twice", path,
                                   lineno, fld[k]);
                    break;
                }
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
                    st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: missing column 'x%ld' (the problem "
                                   "has %ld states)", path, lineno, s, n);
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
            if (mpfr_sgn(&tr->t[s]->left) < 0 || mpfr_cmp(&tr->t[s]->right, &T->right) > 0) {
                st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: t = %s lies outside [0, T] = [0, %.17g]",
                               path, lineno, fld[slot_col[0]], dvc_ival_mid_d(T));
                break;
            }
            for (long k = 0; k < w; k++) {
                const char *txt = fld[tr->col[k]];
                if (dvc_ival_set_str(tr->v[s * w + k], txt) != DVC_OK || strchr(txt, '[') ||
                    !dvc_ival_is_finite(tr->v[s * w + k])) {
                    st = dvc_error(DVC_ERR_INPUT, "%s: line %ld: column '%s%ld': '%s' is not a finite "
                                   "decimal number", path, lineno, k < tr->n ? "x" : "y",
                                   k < tr->n ? k + 1 : k - tr->n + 1, txt);
                    break;
                }
            }
        }
    }
    if (st == DVC_OK && !have_header)
        st = dvc_error(DVC_ERR_INPUT, "%s: empty file (expected a header t,x1..x%ld[,y1..y%ld])", path,
                       n, m);
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

dvc_status dvc_traj_alloc(dvc_traj_t tr, long ns, long n, long m, mpfr_prec_t prec)
{
    long w = n + m;
    dvc_traj_clear(tr);
    if (ns < 1 || n < 0 || m < 0) return dvc_error(DVC_ERR_INPUT, "trajectory: bad dimensions");
    tr->t = malloc((size_t)ns * sizeof *tr->t);
    tr->v = malloc((size_t)(ns * (w > 0 ? w : 1)) * sizeof *tr->v);
    tr->line = malloc((size_t)ns * sizeof *tr->line);
    tr->col = malloc((size_t)(w > 0 ? w : 1) * sizeof *tr->col);
    if (!tr->t || !tr->v || !tr->line || !tr->col) {
        free(tr->t);
        free(tr->v);
        free(tr->line);
        free(tr->col);
        memset(tr, 0, sizeof *tr);
        return dvc_error(DVC_ERR_NOMEM, "out of memory for %ld samples", ns);
    }
    tr->n = n;
    tr->m = m;
    for (long s = 0; s < ns; s++) {
        mpfi_init2(tr->t[s], prec);
        mpfi_set_ui(tr->t[s], 0);
        for (long k = 0; k < w; k++) {
            mpfi_init2(tr->v[s * w + k], prec);
            mpfi_set_ui(tr->v[s * w + k], 0);
        }
        tr->line[s] = s + 1;
    }
    for (long k = 0; k < w; k++) tr->col[k] = k + 1;
    tr->ns = ns;
    return DVC_OK;
}

/* Rounded-down distance of the enclosure v to the edges [lo, hi]. */
static void margin_one(mpfr_t mg, const mpfi_t v, const mpfr_t lo, const mpfr_t hi, mpfr_t tmp)
{
    mpfr_sub(tmp, &v->left, lo, MPFR_RNDD);
    mpfr_sub(mg, hi, &v->right, MPFR_RNDD);
    if (mpfr_cmp(tmp, mg) < 0) mpfr_set(mg, tmp, MPFR_RNDD);
}

static mpfr_t *edges_new(long k, mpfr_prec_t prec)
{
    mpfr_t *e = malloc((size_t)(k > 0 ? k : 1) * sizeof *e);
    if (e)
        for (long i = 0; i < k; i++) mpfr_init2(e[i], prec);
    return e;
}

static void edges_free(mpfr_t *e, long k)
{
    if (!e) return;
    for (long i = 0; i < k; i++) mpfr_clear(e[i]);
    free(e);
}

static void worst_update(double *worst, dvc_traj_hit *hit, double d, long s, long k)
{
    if (d < *worst) {
        *worst = d;
        hit->sample = s;
        hit->comp = k;
        hit->margin = d;
    }
}

dvc_status dvc_traj_check(dvc_traj_report *rep, const dvc_traj_t tr, const dvc_tube_t tb,
                          long max_stored)
{
    long w = tr->n + tr->m, k2 = tb->n > tb->m ? tb->n : tb->m;
    mpfr_prec_t prec = tb->prec + DVC_TRAJ_EXTRA_BITS;
    mpfr_t mg, tmp;
    mpfr_t *lo, *hi;
    dvc_status st = DVC_OK;
    memset(rep, 0, sizeof *rep);
    if (tr->n != tb->n || (tr->m != 0 && tr->m != tb->m))
        return dvc_error(DVC_ERR_INPUT, "trajectory has %ld x and %ld y columns, the tube "
                         "%ld and %ld", tr->n, tr->m, tb->n, tb->m);
    lo = edges_new(k2, prec);
    hi = edges_new(k2, prec);
    if (!lo || !hi) {
        edges_free(lo, lo ? k2 : 0);
        edges_free(hi, hi ? k2 : 0);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    mpfr_inits2(prec, mg, tmp, (mpfr_ptr)0);
    rep->nsamples = tr->ns;
    rep->worst = rep->worst_x = rep->worst_y = INFINITY;
    for (long s = 0; s < tr->ns && st == DVC_OK; s++) {
        int outside = 0;
        for (int which = 0; which < (tr->m ? 2 : 1) && st == DVC_OK; which++) {
            long off = which ? tr->n : 0, cnt = which ? tr->m : tr->n;
            if ((st = dvc_tube_inner(lo, hi, tb, tr->t[s], which)) != DVC_OK) {
                st = dvc_error_context(st, "line %ld: ", tr->line[s]);
                break;
            }
            for (long k = 0; k < cnt; k++) {
                double d;
                margin_one(mg, tr->v[s * w + off + k], lo[k], hi[k], tmp);
                d = mpfr_get_d(mg, MPFR_RNDD);
                if (d == 0) d = 0; /* x - x rounded down is -0: on the edge is inside */
                worst_update(&rep->worst, &rep->worst_hit, d, s, off + k);
                if (which) worst_update(&rep->worst_y, &rep->worst_y_hit, d, s, off + k);
                else worst_update(&rep->worst_x, &rep->worst_x_hit, d, s, off + k);
                if (d >= 0) continue;
                outside = 1;
                if (max_stored < 0 || rep->nstored < max_stored) {
                    dvc_traj_hit *nv = realloc(rep->viol, (size_t)(rep->nstored + 1) * sizeof *nv);
                    if (!nv) {
                        st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                        break;
                    }
                    rep->viol = nv;
                    rep->viol[rep->nstored].sample = s;
                    rep->viol[rep->nstored].comp = off + k;
                    rep->viol[rep->nstored].margin = d;
                    rep->nstored++;
                }
                rep->nviol++;
            }
        }
        rep->nviol_samples += outside;
    }
    mpfr_clears(mg, tmp, (mpfr_ptr)0);
    edges_free(lo, k2);
    edges_free(hi, k2);
    if (st != DVC_OK) dvc_traj_report_clear(rep);
    return st;
}

void dvc_traj_tube_at(mpfr_t lo, mpfr_t hi, const dvc_traj_t tr, long s, long k, const dvc_tube_t tb)
{
    long k2 = tb->n > tb->m ? tb->n : tb->m;
    int which = k >= tr->n;
    long kk = which ? k - tr->n : k;
    mpfr_prec_t prec = tb->prec + DVC_TRAJ_EXTRA_BITS;
    mpfr_t *el = edges_new(k2, prec), *eh = edges_new(k2, prec);
    mpfr_set_inf(lo, -1);
    mpfr_set_inf(hi, 1);
    if (el && eh && dvc_tube_inner(el, eh, tb, tr->t[s], which) == DVC_OK) {
        mpfr_set(lo, el[kk], MPFR_RNDU);
        mpfr_set(hi, eh[kk], MPFR_RNDD);
    }
    edges_free(el, el ? k2 : 0);
    edges_free(eh, eh ? k2 : 0);
}
