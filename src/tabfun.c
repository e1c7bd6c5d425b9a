/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Piecewise-linear tabulated functions. Sample times are kept as intervals
 * (a decimal time, or k*DT, is rarely a binary number), so every search
 * below takes all segments that may hold a point given that uncertainty. */
#include "dvicert/tabfun.h"
#include "dvicert/files.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dvc_tabfun_init2(dvc_tabfun_t f, mpfr_prec_t prec)
{
    memset(f, 0, sizeof *f);
    f->prec = prec;
    mpfi_init2(f->dt, prec);
    for (int i = 0; i < 3; i++) mpfi_init2(f->tmp[i], prec);
}

void dvc_tabfun_init(dvc_tabfun_t f) { dvc_tabfun_init2(f, dvc_prec_get()); }

static void free_samples(dvc_tabfun_struct *f)
{
    for (long k = 0; k < f->n; k++) {
        mpfi_clear(f->t[k]);
        mpfi_clear(f->v[k]);
        if (k + 1 < f->n) mpfi_clear(f->slope[k]);
    }
    free(f->t);
    free(f->v);
    free(f->slope);
    f->t = f->v = f->slope = NULL;
    f->n = 0;
    f->uniform = 0;
    free(f->source);
    free(f->desc);
    free(f->units);
    f->source = f->desc = f->units = NULL;
}

void dvc_tabfun_clear(dvc_tabfun_t f)
{
    free_samples(f);
    mpfi_clear(f->dt);
    for (int i = 0; i < 3; i++) mpfi_clear(f->tmp[i]);
}

/* ---- building ---- */

typedef struct {
    long n, alloc;
    mpfi_t *t, *v;
    mpfr_prec_t prec;
} samples;

static void samples_free(samples *s)
{
    for (long k = 0; k < s->n; k++) {
        mpfi_clear(s->t[k]);
        mpfi_clear(s->v[k]);
    }
    free(s->t);
    free(s->v);
    s->t = s->v = NULL;
    s->n = s->alloc = 0;
}

/* Append an uninitialised slot pair, initialised at s->prec. */
static int samples_push(samples *s)
{
    if (s->n == s->alloc) {
        long na = s->alloc ? 2 * s->alloc : 256;
        mpfi_t *nt = realloc(s->t, (size_t)na * sizeof *nt);
        if (nt) s->t = nt;
        mpfi_t *nv = realloc(s->v, (size_t)na * sizeof *nv);
        if (nv) s->v = nv;
        if (!nt || !nv) return -1;
        s->alloc = na;
    }
    mpfi_init2(s->t[s->n], s->prec);
    mpfi_init2(s->v[s->n], s->prec);
    s->n++;
    return 0;
}

/* Move the samples into f and enclose the slopes; dt != NULL: uniform grid. */
static dvc_status install(dvc_tabfun_struct *f, samples *s, const char *name, const mpfi_t dt)
{
    mpfi_t *slope;
    if (s->n < 2) {
        samples_free(s);
        return dvc_error(DVC_ERR_INPUT, "%s: at least 2 samples are needed, found %ld", name, s->n);
    }
    for (long k = 0; k + 1 < s->n; k++)
        if (mpfr_cmp(&s->t[k]->right, &s->t[k + 1]->left) >= 0) {
            samples_free(s);
            return dvc_error(DVC_ERR_INPUT, "%s: sample times %ld and %ld cannot be separated at %ld bits",
                             name, k, k + 1, (long)f->prec);
        }
    slope = malloc((size_t)(s->n - 1) * sizeof *slope);
    if (!slope) {
        samples_free(s);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    free_samples(f);
    f->source = strdup(name);
    f->n = s->n;
    f->t = s->t;
    f->v = s->v;
    f->slope = slope;
    s->t = s->v = NULL;
    s->n = s->alloc = 0;
    f->uniform = dt != NULL;
    if (dt) mpfi_set(f->dt, dt);
    for (long k = 0; k + 1 < f->n; k++) {
        mpfi_init2(f->slope[k], f->prec);
        mpfi_sub(f->slope[k], f->v[k + 1], f->v[k]);
        /* On a uniform grid the true step is exactly DT. */
        if (dt) mpfi_div(f->slope[k], f->slope[k], f->dt);
        else {
            mpfi_sub(f->tmp[0], f->t[k + 1], f->t[k]);
            mpfi_div(f->slope[k], f->slope[k], f->tmp[0]);
        }
    }
    return DVC_OK;
}

dvc_status dvc_tabfun_set(dvc_tabfun_t f, long n, const mpfi_t *t, const mpfi_t *v, const char *name)
{
    samples s = {0, 0, NULL, NULL, f->prec};
    if (!name) name = "table";
    for (long k = 0; k < n; k++) {
        if (!dvc_ival_is_finite(t[k]) || !dvc_ival_is_valid(t[k]) || !dvc_ival_is_finite(v[k]) ||
            !dvc_ival_is_valid(v[k])) {
            samples_free(&s);
            return dvc_error(DVC_ERR_INPUT, "%s: sample %ld is not a finite interval", name, k);
        }
        if (k > 0 && mpfr_cmp(&t[k - 1]->right, &t[k]->left) >= 0) {
            samples_free(&s);
            return dvc_error(DVC_ERR_INPUT, "%s: sample times %ld and %ld are not strictly increasing", name,
                             k - 1, k);
        }
        if (samples_push(&s) != 0) {
            samples_free(&s);
            return dvc_error(DVC_ERR_NOMEM, "out of memory");
        }
        mpfi_set(s.t[k], t[k]);
        mpfi_set(s.v[k], v[k]);
    }
    return install(f, &s, name, NULL);
}

/* ---- reading ---- */

static dvc_status slurp(char **out, const char *path)
{
    return dvc_infile_read_text(out, path, DVC_TABLE_MAX_BYTES);
}

/* Where a message points: "NAME:LINE" for a file, "table line LINE" for a
 * table without a name (embedded in a problem file, whose field the caller
 * names). */
static const char *at(char *buf, size_t n, const char *name, long line)
{
    if (name) snprintf(buf, n, "%s:%ld", name, line);
    else snprintf(buf, n, "table line %ld", line);
    return buf;
}
#define AT(line) at(loc, sizeof loc, name, (line))

/* Next line of *p (modified in place: the newline and a trailing CR are
 * cut); NULL at the end of the text. */
static char *next_line(char **p)
{
    char *s = *p, *e;
    size_t n;
    if (*s == '\0') return NULL;
    e = strchr(s, '\n');
    if (e) {
        *e = '\0';
        *p = e + 1;
    } else {
        *p = s + strlen(s);
    }
    n = strlen(s);
    if (n > 0 && s[n - 1] == '\r') s[n - 1] = '\0';
    return s;
}

static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s)) s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) e--;
    *e = '\0';
    return s;
}

/* Enclose a finite decimal; message "name:line: what 'tok' ...". */
static dvc_status number(mpfi_t x, const char *tok, const char *name, long line, const char *what)
{
    char loc[600];
    if (dvc_ival_set_str(x, tok) != DVC_OK)
        return dvc_error(DVC_ERR_INPUT, "%s: %s '%s' is not a number", AT(line), what, tok);
    if (!dvc_ival_is_finite(x))
        return dvc_error(DVC_ERR_INPUT, "%s: %s '%s' is not finite", AT(line), what, tok);
    return DVC_OK;
}

static void scale_values(samples *s, const mpfi_t scale)
{
    if (!scale) return;
    for (long k = 0; k < s->n; k++) mpfi_mul(s->v[k], s->v[k], scale);
}

static dvc_status check_scale(const mpfi_t scale, const char *name)
{
    if (scale && (!dvc_ival_is_finite(scale) || !dvc_ival_is_valid(scale)))
        return dvc_error(DVC_ERR_INPUT, "%s: the scale factor is not a finite interval", name);
    return DVC_OK;
}

dvc_status dvc_tabfun_parse_csv(dvc_tabfun_t f, const char *text, const char *name, const mpfi_t scale)
{
    char loc[600];
    const char *nm = name ? name : "table";
    samples s = {0, 0, NULL, NULL, f->prec};
    char *buf, *p, *ln;
    long line = 0, first_data = 0, prev_line = 0;
    dvc_status st = check_scale(scale, nm);
    if (st != DVC_OK) return st;
    if (!(buf = strdup(text))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    p = buf;
    while (st == DVC_OK && (ln = next_line(&p)) != NULL) {
        char *fld[3], *q = trim(ln);
        int nf = 0;
        line++;
        if (*q == '\0' || *q == '#') continue;
        if (strchr(q, ',')) {
            char *c = q;
            fld[nf++] = q;
            while ((c = strchr(c, ',')) != NULL) {
                *c++ = '\0';
                if (nf < 3) fld[nf] = c;
                nf++;
            }
        } else {
            char *save = NULL, *tok;
            for (tok = strtok_r(q, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
                if (nf < 3) fld[nf] = tok;
                nf++;
            }
        }
        for (int i = 0; i < nf && i < 3; i++) fld[i] = trim(fld[i]);
        if (first_data == 0) {
            first_data = line;
            /* A first row whose first field is not a number is the header. */
            mpfi_t probe;
            mpfi_init2(probe, f->prec);
            int is_num = dvc_ival_set_str(probe, fld[0]) == DVC_OK;
            mpfi_clear(probe);
            dvc_error_reset();
            if (!is_num) continue;
        }
        if (nf != 2) {
            st = dvc_error(DVC_ERR_INPUT, "%s: expected 2 fields 't,value', found %d", AT(line), nf);
            break;
        }
        if (samples_push(&s) != 0) {
            st = dvc_error(DVC_ERR_NOMEM, "out of memory");
            break;
        }
        if ((st = number(s.t[s.n - 1], fld[0], name, line, "time")) != DVC_OK) break;
        if ((st = number(s.v[s.n - 1], fld[1], name, line, "value")) != DVC_OK) break;
        if (s.n > 1 && mpfr_cmp(&s.t[s.n - 2]->right, &s.t[s.n - 1]->left) >= 0) {
            if (mpfr_cmp(&s.t[s.n - 2]->left, &s.t[s.n - 1]->right) >= 0)
                st = dvc_error(DVC_ERR_INPUT, "%s: time %s is not greater than the time on line %ld",
                               AT(line), fld[0], prev_line);
            else
                st = dvc_error(DVC_ERR_INPUT,
                               "%s: time %s is too close to the time on line %ld to be separated at %ld bits",
                               AT(line), fld[0], prev_line, (long)f->prec);
            break;
        }
        prev_line = line;
    }
    free(buf);
    if (st != DVC_OK) {
        samples_free(&s);
        return st;
    }
    if (s.n < 2) {
        samples_free(&s);
        return dvc_error(DVC_ERR_INPUT, "%s: at least 2 samples 't,value' are needed, found %ld", nm, s.n);
    }
    scale_values(&s, scale);
    return install(f, &s, nm, NULL);
}

/* Case-insensitive search. */
static const char *find_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && toupper((unsigned char)hay[i]) == toupper((unsigned char)needle[i])) i++;
        if (i == n) return hay;
    }
    return NULL;
}

/* Copy the number token starting at s (after blanks) into tok. */
static const char *take_token(const char *s, char *tok, size_t cap)
{
    size_t i = 0;
    while (*s == ' ' || *s == '\t') s++;
    while (*s && !isspace((unsigned char)*s) && *s != ',' && i + 1 < cap) tok[i++] = *s++;
    tok[i] = '\0';
    return s;
}

static int parse_count(const char *tok, long *n)
{
    char *end;
    long v;
    if (!isdigit((unsigned char)tok[0])) return -1;
    errno = 0;
    v = strtol(tok, &end, 10);
    if (errno || *end != '\0') return -1;
    *n = v;
    return 0;
}

/* Line 4 of an AT2 file: "NPTS=  7814, DT= .0050 SEC" or "7814 .0050 NPTS, DT". */
static dvc_status at2_header(long *npts, mpfi_t dt, const char *ln, const char *name)
{
    char loc[600];
    char ntok[64], dtok[64];
    const char *k = find_ci(ln, "NPTS"), *q;
    int ok = 0;
    if (k) {
        q = k + 4;
        while (*q == ' ' || *q == '\t') q++;
        if (*q == '=') { /* NGA-West2 layout */
            q = take_token(q + 1, ntok, sizeof ntok);
            const char *d = find_ci(q, "DT");
            if (d) {
                d += 2;
                while (*d == ' ' || *d == '\t') d++;
                if (*d == '=') {
                    /* the number only: "DT=.0050SEC" happens too */
                    size_t i = 0;
                    d++;
                    while (*d == ' ' || *d == '\t') d++;
                    while (*d && strchr("0123456789.+-eE", *d) && i + 1 < sizeof dtok) dtok[i++] = *d++;
                    dtok[i] = '\0';
                    ok = 1;
                }
            }
        } else { /* older layout: the two numbers come first */
            q = take_token(ln, ntok, sizeof ntok);
            while (*q == ',') q++;
            q = take_token(q, dtok, sizeof dtok);
            ok = q <= k;
        }
    }
    if (!ok)
        return dvc_error(DVC_ERR_INPUT,
                         "%s: bad header: expected 'NPTS= n, DT= dt SEC' or 'n dt NPTS, DT', found '%.80s'",
                         AT(4), ln);
    if (parse_count(ntok, npts) != 0 || *npts < 2)
        return dvc_error(DVC_ERR_INPUT, "%s: bad header: NPTS '%s' is not an integer >= 2", AT(4), ntok);
    if (dvc_ival_set_str(dt, dtok) != DVC_OK || !dvc_ival_is_finite(dt))
        return dvc_error(DVC_ERR_INPUT, "%s: bad header: DT '%s' is not a number", AT(4), dtok);
    if (!dvc_ival_is_pos(dt))
        return dvc_error(DVC_ERR_INPUT, "%s: bad header: DT = %s must be > 0", AT(4), dtok);
    return DVC_OK;
}

dvc_status dvc_tabfun_parse_at2(dvc_tabfun_t f, const char *text, const char *name, const mpfi_t scale)
{
    char loc[600];
    const char *nm = name ? name : "table";
    samples s = {0, 0, NULL, NULL, f->prec};
    char *buf, *p, *ln, *hdr[4];
    long line = 0, npts = 0, last_line = 4;
    mpfi_t dt;
    dvc_status st = check_scale(scale, nm);
    if (st != DVC_OK) return st;
    if (!(buf = strdup(text))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    p = buf;
    for (line = 1; line <= 4; line++) {
        if (!(hdr[line - 1] = next_line(&p))) {
            free(buf);
            return dvc_error(DVC_ERR_INPUT, "%s: bad header: the file ends in the 4 header lines",
                             AT(line));
        }
    }
    line = 4;
    mpfi_init2(dt, f->prec);
    st = at2_header(&npts, dt, hdr[3], name);
    while (st == DVC_OK && (ln = next_line(&p)) != NULL) {
        char *save = NULL, *tok;
        line++;
        for (tok = strtok_r(ln, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
            if (s.n == npts) {
                st = dvc_error(DVC_ERR_INPUT, "%s: more values than NPTS = %ld", AT(line), npts);
                break;
            }
            if (samples_push(&s) != 0) {
                st = dvc_error(DVC_ERR_NOMEM, "out of memory");
                break;
            }
            if ((st = number(s.v[s.n - 1], tok, name, line, "value")) != DVC_OK) break;
            mpfi_mul_ui(s.t[s.n - 1], dt, (unsigned long)(s.n - 1));
            last_line = line;
        }
    }
    if (st == DVC_OK && s.n != npts)
        st = dvc_error(DVC_ERR_INPUT, "%s: the file ends after %ld values, but NPTS = %ld", AT(last_line),
                       s.n, npts);
    if (st == DVC_OK) {
        scale_values(&s, scale);
        st = install(f, &s, nm, dt);
        if (st == DVC_OK) {
            f->desc = strdup(trim(hdr[1]));
            f->units = strdup(trim(hdr[2]));
        }
    } else {
        samples_free(&s);
    }
    mpfi_clear(dt);
    free(buf);
    return st;
}

/* Read the file, then parse its text with the format's parser. */
static dvc_status read_with(dvc_tabfun_t f, const char *path, const mpfi_t scale,
                            dvc_status (*parse)(dvc_tabfun_t, const char *, const char *,
                                                const mpfi_t))
{
    char *text;
    dvc_status st = slurp(&text, path);
    if (st != DVC_OK) return st;
    st = parse(f, text, path, scale);
    free(text);
    return st;
}

dvc_status dvc_tabfun_read_csv(dvc_tabfun_t f, const char *path, const mpfi_t scale)
{
    return read_with(f, path, scale, dvc_tabfun_parse_csv);
}

dvc_status dvc_tabfun_read_at2(dvc_tabfun_t f, const char *path, const mpfi_t scale)
{
    return read_with(f, path, scale, dvc_tabfun_parse_at2);
}

dvc_status dvc_tabfun_read(dvc_tabfun_t f, const char *path, const char *format, const mpfi_t scale)
{
    if (!format) {
        size_t n = strlen(path);
        format = n >= 4 && find_ci(path + n - 4, ".at2") ? "at2" : "csv";
    }
    if (find_ci(format, "at2") && strlen(format) == 3) return dvc_tabfun_read_at2(f, path, scale);
    if (find_ci(format, "csv") && strlen(format) == 3) return dvc_tabfun_read_csv(f, path, scale);
    return dvc_error(DVC_ERR_INPUT, "%s: unknown table format '%s' (expected \"csv\" or \"at2\")", path, format);
}

void dvc_tabfun_tmin(mpfi_t r, const dvc_tabfun_t f)
{
    if (f->n > 0) mpfi_set(r, f->t[0]);
}

void dvc_tabfun_tmax(mpfi_t r, const dvc_tabfun_t f)
{
    if (f->n > 0) mpfi_set(r, f->t[f->n - 1]);
}

/* ---- evaluation ---- */

/* First segment k (0 <= k <= n-2) with t[k+1].hi >= x. */
static long first_segment(const dvc_tabfun_struct *f, mpfr_srcptr x)
{
    long lo = 0, hi = f->n - 2;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (mpfr_cmp(&f->t[mid + 1]->right, x) >= 0) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* r <- r union {f(x)} for the point x: every segment that may hold x. */
static void add_point(mpfi_t r, dvc_tabfun_struct *f, mpfr_srcptr x, int *empty)
{
    mpfi_ptr a = f->tmp[0], h = f->tmp[1];
    for (long k = first_segment(f, x); k + 1 < f->n && mpfr_cmp(&f->t[k]->left, x) <= 0; k++) {
        /* v_k + (x - t_k) s_k, cut to the hull of the end values (where the
         * true segment's value lies) */
        mpfi_set_fr(a, x);
        mpfi_sub(a, a, f->t[k]);
        mpfi_mul(a, a, f->slope[k]);
        mpfi_add(a, a, f->v[k]);
        mpfi_union(h, f->v[k], f->v[k + 1]);
        mpfi_intersect(a, a, h);
        if (mpfi_is_empty(a)) mpfi_set(a, h);
        if (*empty) mpfi_set(r, a);
        else mpfi_union(r, r, a);
        *empty = 0;
    }
}

dvc_status dvc_tabfun_eval_lip(mpfi_t r, mpfr_t L, const dvc_tabfun_t fc, const mpfi_t T)
{
    dvc_tabfun_struct *f = (dvc_tabfun_struct *)fc; /* scratch only */
    mpfi_ptr acc = f->tmp[2];
    int empty = 1;
    if (f->n < 2) return dvc_error(DVC_ERR_INPUT, "table has no samples");
    if (!dvc_ival_is_valid(T) || !dvc_ival_is_finite(T))
        return dvc_error(DVC_ERR_INPUT, "%s: t is not a finite interval", f->source);
    if (mpfr_cmp(&T->left, &f->t[0]->left) < 0 || mpfr_cmp(&T->right, &f->t[f->n - 1]->right) > 0) {
        char *ts = dvc_ival_str(T, 10), *a = dvc_ival_lo_str(f->t[0], 10),
             *b = dvc_ival_hi_str(f->t[f->n - 1], 10);
        dvc_status st = dvc_error(DVC_ERR_INPUT, "%s: t = %s is outside the time range [%s, %s] of the table",
                                  f->source, ts ? ts : "?", a ? a : "?", b ? b : "?");
        free(ts);
        free(a);
        free(b);
        return st;
    }
    if (r) {
        add_point(acc, f, &T->left, &empty);
        add_point(acc, f, &T->right, &empty);
        /* samples that may lie inside T */
        for (long k = first_segment(f, &T->left); k < f->n && mpfr_cmp(&f->t[k]->left, &T->right) <= 0; k++)
            if (mpfr_cmp(&f->t[k]->right, &T->left) >= 0) mpfi_union(acc, acc, f->v[k]);
        /* before the true t_0 / after the true t_N: continued by end values */
        if (mpfr_cmp(&T->left, &f->t[0]->right) < 0) mpfi_union(acc, acc, f->v[0]);
        if (mpfr_cmp(&T->right, &f->t[f->n - 1]->left) > 0) mpfi_union(acc, acc, f->v[f->n - 1]);
    }
    if (L) {
        mpfr_t m;
        mpfr_init2(m, mpfr_get_prec(L));
        mpfr_set_zero(L, 1);
        for (long k = first_segment(f, &T->left); k + 1 < f->n && mpfr_cmp(&f->t[k]->left, &T->right) <= 0;
             k++) {
            dvc_ival_mag(m, f->slope[k]);
            mpfr_max(L, L, m, MPFR_RNDU);
        }
        mpfr_clear(m);
    }
    if (r) mpfi_set(r, acc);
    return DVC_OK;
}

dvc_status dvc_tabfun_eval(mpfi_t r, const dvc_tabfun_t f, const mpfi_t T)
{
    return dvc_tabfun_eval_lip(r, NULL, f, T);
}

dvc_status dvc_tabfun_lipschitz(mpfr_t L, const dvc_tabfun_t f, const mpfi_t T)
{
    return dvc_tabfun_eval_lip(NULL, L, f, T);
}

dvc_status dvc_tabfun_deriv(mpfi_t d, const dvc_tabfun_t fc, const mpfi_t T)
{
    dvc_tabfun_struct *f = (dvc_tabfun_struct *)fc;
    int empty = 1;
    /* the same checks and messages as an evaluation */
    dvc_status st = dvc_tabfun_eval_lip(NULL, NULL, fc, T);
    if (st != DVC_OK) return st;
    for (long k = first_segment(f, &T->left); k + 1 < f->n && mpfr_cmp(&f->t[k]->left, &T->right) <= 0; k++) {
        if (empty) mpfi_set(d, f->slope[k]);
        else mpfi_union(d, d, f->slope[k]);
        empty = 0;
    }
    if (empty) mpfi_set_ui(d, 0);
    /* the constant continuation within the rounding of t_0 / t_N */
    if (mpfr_cmp(&T->left, &f->t[0]->right) < 0 || mpfr_cmp(&T->right, &f->t[f->n - 1]->left) > 0) {
        mpfi_ptr z = f->tmp[2];
        mpfi_set_ui(z, 0);
        mpfi_union(d, d, z);
    }
    return DVC_OK;
}
