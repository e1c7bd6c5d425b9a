/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* A streamed certificate's explicit grid read on demand (io/cert_gridrd.h):
 * memory independent of the number of times. */
#include "io/cert_gridrd.h"

#include <stdlib.h>
#include <string.h>

#include "dvicert/files.h"
#include "io/cert_grid.h"
#include "io/fnv.h"
#include "io/problem_json.h"
#include "ival_dec.h"

/* The placeholder's JSON text (the control character escaped). */
static const char mark_text[] = "\"\\u0001dvicert:grid\"";

static dvc_status time_at(void *ctx, long i, double *t);

void dvc_cert_gridrd_init(dvc_cert_gridrd *gr, const char *path)
{
    memset(gr, 0, sizeof *gr);
    gr->path = path;
    gr->src.at = time_at;
    gr->src.ctx = gr; /* gr stays where it is while read */
}

void dvc_cert_gridrd_clear(dvc_cert_gridrd *gr)
{
    if (gr->f) fclose(gr->f);
    gr->f = NULL;
}

static int hash_get(FILE *f, uint64_t *h, long long *pos)
{
    int c = getc(f);
    if (c != EOF) {
        unsigned char b = (unsigned char)c;
        dvc_fnv_update(h, &b, 1);
        (*pos)++;
    }
    return c;
}

/* One time of the array: `"0x..."` then ',' (*end 0) or ']' (*end 1),
 * hashed; the text must be what dvicert writes for the double (so that the
 * times put back give the same bytes). 0, or -1: another text. */
static int grid_elem(FILE *f, double *t, int *end, uint64_t *h, long long *pos)
{
    char s[48], w[48];
    int c, k = 0;
    if (hash_get(f, h, pos) != '"') return -1;
    while ((c = hash_get(f, h, pos)) != '"') {
        if (c == EOF || k >= 40) return -1;
        s[k++] = (char)c;
    }
    s[k] = '\0';
    if (!dvc_hex_normal_(t, s)) return -1;
    dvc_hex_write_(w, *t);
    if (strcmp(w, s) != 0) return -1;
    c = hash_get(f, h, pos);
    if (c != ',' && c != ']') return -1;
    *end = c == ']';
    return 0;
}

/* After '[' of the grid (hashed): every time checked and hashed, up to
 * ']'; 0, or -1 when not the layout dvicert writes. */
static int grid_skip(dvc_cert_gridrd *gr, FILE *f, long long *pos)
{
    double t, prev = 0;
    int end = 0;
    long k;
    for (k = 0; !end; k++) {
        if (grid_elem(f, &t, &end, &gr->hash, pos) != 0) return -1;
        if (k == 0 ? t != 0.0 : !(t > prev)) return -1; /* the problem reader's messages then */
        prev = t;
    }
    if (k < 2 || k - 1 > DVC_DLVI_N_MAX) return -1;
    gr->N = k - 1;
    gr->last = prev;
    return 0;
}

static int put(char **line, size_t *cap, size_t len, char c)
{
    if (len + 2 > *cap) {
        size_t nc = *cap ? 2 * *cap : 256;
        char *s = realloc(*line, nc);
        if (!s) return -1;
        *line = s;
        *cap = nc;
    }
    (*line)[len] = c;
    (*line)[len + 1] = '\0';
    return 0;
}

/* Is the key just read (line[ks..len)) "grid" at the problem object's top
 * level, on the member line of 'problem'? */
static int at_grid_key(const char *line, size_t len, size_t ks, int depth)
{
    const char *s = line + strspn(line, " \t");
    return depth == 1 && strncmp(s, "\"problem\":", 10) == 0 && len - ks == 6 &&
           memcmp(line + ks, "\"grid\"", 6) == 0;
}

long dvc_cert_gridrd_line(dvc_cert_gridrd *gr, FILE *f, char **line, size_t *cap, long long *pos)
{
    size_t len = 0, ks = 0;
    int c, instr = 0, esc = 0, depth = 0, key = 0;
    if (put(line, cap, 0, '\0') != 0) return -2;
    while ((c = getc(f)) != EOF) {
        (*pos)++;
        if (c == '\n') return (long)len;
        if (instr) {
            if (esc) esc = 0;
            else if (c == '\\') esc = 1;
            else if (c == '"') instr = 0;
        } else if (c == '"') {
            instr = 1;
            ks = len;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        }
        if (put(line, cap, len++, (char)c) != 0) return -2;
        if (!instr && c == ':' && !gr->found && at_grid_key(*line, len - 1, ks, depth)) key = 1;
        else if (key) {
            key = 0;
            if (c != '[') continue;
            /* the array by, the placeholder in its place */
            gr->off = *pos - 1;
            gr->hash = DVC_FNV_OFFSET;
            dvc_fnv_update(&gr->hash, "[", 1);
            if (grid_skip(gr, f, pos) != 0) return -2;
            gr->found = 1;
            depth--;
            len--;
            for (const char *m = mark_text; *m; m++)
                if (put(line, cap, len++, *m) != 0) return -2;
        }
    }
    return len > 0 ? (long)len : -1;
}

static dvc_status changed(const dvc_cert_gridrd *gr)
{
    return dvc_error(DVC_ERR_IO, "%s: the certificate's grid changed while it was read (read it again)", gr->path);
}

/* A new pass: the file opened again, read up to the array's first time. */
static dvc_status pass_begin(dvc_cert_gridrd *gr)
{
    dvc_status st;
    long long pos = 0;
    if (gr->f) fclose(gr->f);
    gr->f = NULL;
    if ((st = dvc_infile_open(&gr->f, gr->path, "rb")) != DVC_OK) return st;
    for (; pos < gr->off; pos++)
        if (getc(gr->f) == EOF) return changed(gr);
    if (getc(gr->f) != '[') return changed(gr);
    gr->h = DVC_FNV_OFFSET;
    dvc_fnv_update(&gr->h, "[", 1);
    gr->ns = 0;
    return DVC_OK;
}

static dvc_status time_at(void *ctx, long i, double *t)
{
    dvc_cert_gridrd *gr = ctx;
    dvc_status st;
    long long pos = 0;
    if (i < 0 || i > gr->N) return dvc_error(DVC_ERR_INTERNAL, "certificate: grid time %ld asked", i);
    if ((!gr->f || i + DVC_CERT_GRIDRD_WIN < gr->ns) && (st = pass_begin(gr)) != DVC_OK) return st;
    while (gr->ns <= i) {
        double d;
        int end;
        if (grid_elem(gr->f, &d, &end, &gr->h, &pos) != 0 || end != (gr->ns == gr->N)) return changed(gr);
        gr->win[gr->ns % DVC_CERT_GRIDRD_WIN] = d;
        /* t_N read: the array is the one first read and hashed */
        if (gr->ns++ == gr->N && (gr->h != gr->hash || d != gr->last)) return changed(gr);
    }
    *t = gr->win[i % DVC_CERT_GRIDRD_WIN];
    return DVC_OK;
}

int dvc_cert_gridrd_grid(dvc_tgrid *g, const dvc_cert_gridrd *gr)
{
    if (!gr || !gr->found) return 0;
    dvc_tgrid_set_src(g, gr->N, &gr->src);
    return 1;
}

dvc_status dvc_cert_gridrd_problem(dvc_dlvi_problem_t p, const json_t *obj, const char *name, mpfr_prec_t prec,
                                   const dvc_cert_gridrd *gr)
{
    json_t *cp, *jN;
    dvc_tgrid g;
    dvc_status st;
    if (!dvc_cert_grid_marked(obj) || !dvc_cert_gridrd_grid(&g, gr))
        return dvc_problem_from_json(p, NULL, obj, name, NULL, prec);
    /* the problem reader's checks of a grid, its times checked when cut */
    if (json_object_get(obj, "h"))
        return dvc_error(DVC_ERR_INPUT, "%s: fields 'grid' and 'h' exclude each other (the grid gives "
                         "every step)", name);
    jN = json_object_get(obj, "N");
    if (jN && (!json_is_integer(jN) || json_integer_value(jN) != gr->N))
        return dvc_error(DVC_ERR_INPUT, "%s: fields 'grid' and 'N' disagree: the grid has %ld steps", name, gr->N);
    if (!(cp = json_copy((json_t *)obj)) || json_object_del(cp, "grid") != 0 ||
        json_object_set_new(cp, "N", json_integer(gr->N)) != 0) {
        json_decref(cp);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    st = dvc_problem_from_json(p, NULL, cp, name, NULL, prec);
    json_decref(cp);
    if (st != DVC_OK) return st;
    if (!mpfr_equal_p(&p->T->left, &p->T->right) || mpfr_cmp_d(&p->T->left, gr->last) != 0)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'grid' entry %ld: the grid ends at %.17g, not at T = %.17g "
                         "(a binary number)", name, gr->N + 1, gr->last, mpfr_get_d(&p->T->left, MPFR_RNDN));
    p->h = 0;
    p->grid_src = &gr->src;
    return DVC_OK;
}
