/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert plot: the approximate solution with its certified upper and lower
 * bound curves, one panel per component (the style of Chen & Wang, Fig. 1),
 * and a panel of the radius against time on a log scale, rendered by
 * gnuplot. The tube is decimated to the image's pixel columns while it is
 * read (per column: the lowest lower and highest upper bound over the steps
 * meeting it), so the cost beyond reading the certificate does not grow
 * with N. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "cache.h"
#include "certview.h"
#include "dvicert/certio.h"
#include "dvicert/hybrid_cert.h"

static void help(void)
{
    printf(
        "usage: dvicert plot CERT.json -o OUT.png|OUT.svg [--title TEXT] [--only x|y]\n"
        "                    [--traj TRAJ.csv] [--from T0] [--to T1] [--width PX]\n\n"
        "Plots, per component, the approximate solution x^h_j (y^h_k) and the curves that\n"
        "bound the exact solution from above and below (as in Fig. 1 of Chen & Wang),\n"
        "then a panel of the radius of the tube (eps_x, or max_j s_j eps_x for a\n"
        "certificate with a state scale; eps_y) against time on a log\n"
        "scale. The y curves are met with [l, u] (y solves the LVI, so it lies in\n"
        "[l, u]). A long run is drawn at the image's resolution: the time axis is cut\n"
        "into PX columns (--width, default 900) and each column shows the lowest lower\n"
        "and highest upper bound of every step that meets it (and the range of the\n"
        "predictor), so nothing certified is hidden and the cost does not grow with N\n"
        "beyond reading the certificate; runs with fewer grid points than columns are\n"
        "drawn point by point. --traj overlays a trajectory (the format of 'dvicert\n"
        "check': header t and the state/output names or x1.., y1..); --from and --to\n"
        "restrict the time window. Axis labels carry the problem's state_names,\n"
        "output_names and units, and the title its name. Colours are the Okabe-Ito\n"
        "palette (distinguishable with colour-blindness); the legend sits outside the\n"
        "data.\n"
        "The format follows the extension (.png: pngcairo, .svg: svg). Needs gnuplot\n"
        "(Debian: apt-get install gnuplot-nox); the environment variable DVC_GNUPLOT\n"
        "names another gnuplot program. The image is rendered to a temporary file,\n"
        "checked whole (a PNG's closing IEND chunk, an SVG's closing tag: a gnuplot\n"
        "that exits 0 on a full disk is caught) and renamed: nothing is left at OUT\n"
        "on failure, and a previous image is replaced only by a whole one.\n"
        "The certificate is first re-verified (as 'dvicert verify'), unless this very\n"
        "binary verified the same text before on this machine (the message then says\n"
        "'verified earlier on this machine (cache)'; --no-cache recomputes; a .gz\n"
        "certificate is read decompressed; docs/formats.md); a rejected one is\n"
        "not plotted. --no-verify skips that, and the figure's title then says\n"
        "'NOT re-verified'.\n"
        "A hybrid certificate (switched, sliding, ideal contact, events route) is drawn\n"
        "at its grid points: per state (and multiplier: the events route's, an ideal\n"
        "contact's contact multipliers y) the midpoint and the ends of the stated\n"
        "enclosures, a dotted line at every certified event in the window; title the\n"
        "model's name, axes its state names. --from, --to, --traj, --width as above.\n\n");
    dvc_cli_print_options(&dvc_cmd_plot);
    printf(
        "\nexit status: 0 written, 1 certificate rejected, 2 unusable certificate or\n"
        "trajectory, bad option, gnuplot missing or failed.\n");
}

static const char *ext_of(const char *p)
{
    const char *d = strrchr(p, '.');
    return d ? d + 1 : "";
}

static const dvc_cli_opt opts[] = {
    {"output", 'o', "FILE", "a file name", "the image to write (.png or .svg)"},
    {"title", 0, "TEXT", "a title", "title of the figure (default: the problem's name)"},
    {"only", 0, "x|y", "x or y", "only the x (or only the y) panels, and the radius"},
    {"traj", 0, "TRAJ.csv", "a file name", "overlay this trajectory (the format of 'check')"},
    {"from", 0, "T0", "a time", "start of the time window (default 0)"},
    {"to", 0, "T1", "a time", "end of the time window (default T)"},
    {"width", 0, "PX", "a number of pixels", "width of the image and number of time columns\n(default 900, at most 10000)"},
    {"no-verify", 0, NULL, NULL, "do not re-verify the certificate first (the output says so)"},
    {"no-cache", 0, NULL, NULL, "recompute even when this binary verified the same text before\n"
                                "(the verified-certificate cache, docs/formats.md)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_plot = {
    "plot", "plot a certificate (gnuplot): approximation with upper/lower bounds and the radius", opts,
    "the curves are passed to gnuplot as binary64 values rounded outward", DVC_CLI_CERT_PREC, 1, 1,
    "dvicert plot CERT.json -o OUT.png|OUT.svg [--title TEXT] [--only x|y] [--traj TRAJ.csv] ...", help,
    run};

/* Per time column: for each of the n + m components the range of the
 * predictor and the outer bounds, and the largest radii. */
typedef struct {
    long cols, k;       /* columns, components (n + m) */
    double t0, t1;      /* the window */
    int exact;          /* one row per grid point instead of columns */
    double *pmin, *pmax, *lo, *hi; /* cols x k */
    double *rx, *ry;    /* cols */
    double *t;          /* exact mode: the time of each row */
    long rows;
    mpfr_t *mlo, *mhi;  /* scratch, max(n, m) */
    mpfi_t tt;
    int started;
} pl_t;

static long col_of(const pl_t *p, double t)
{
    double q = (t - p->t0) / (p->t1 - p->t0) * (double)p->cols;
    long k = q >= 0 ? (long)q : -1;
    return k >= p->cols ? p->cols - 1 : k;
}

static void widen(pl_t *p, long col, long comp, double vmin, double vmax, double lo, double hi)
{
    long at = col * p->k + comp;
    if (vmin < p->pmin[at]) p->pmin[at] = vmin;
    if (vmax > p->pmax[at]) p->pmax[at] = vmax;
    if (lo < p->lo[at]) p->lo[at] = lo;
    if (hi > p->hi[at]) p->hi[at] = hi;
}

static dvc_status pl_start(pl_t *p, const dvc_cli_cert *c)
{
    long k2 = c->n > c->m ? c->n : c->m, cells;
    p->k = c->n + c->m;
    p->exact = c->N + 1 <= p->cols;
    if (p->exact) p->cols = c->N + 1;
    cells = p->cols * (p->k > 0 ? p->k : 1);
    p->pmin = malloc((size_t)cells * sizeof *p->pmin);
    p->pmax = malloc((size_t)cells * sizeof *p->pmax);
    p->lo = malloc((size_t)cells * sizeof *p->lo);
    p->hi = malloc((size_t)cells * sizeof *p->hi);
    p->rx = malloc((size_t)p->cols * sizeof *p->rx);
    p->ry = malloc((size_t)p->cols * sizeof *p->ry);
    p->t = malloc((size_t)p->cols * sizeof *p->t);
    p->mlo = malloc((size_t)(k2 > 0 ? k2 : 1) * sizeof *p->mlo);
    p->mhi = malloc((size_t)(k2 > 0 ? k2 : 1) * sizeof *p->mhi);
    if (!p->pmin || !p->pmax || !p->lo || !p->hi || !p->rx || !p->ry || !p->t || !p->mlo || !p->mhi)
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long q = 0; q < cells; q++) {
        p->pmin[q] = p->lo[q] = INFINITY;
        p->pmax[q] = p->hi[q] = -INFINITY;
    }
    for (long q = 0; q < p->cols; q++) p->rx[q] = p->ry[q] = -1;
    for (long q = 0; q < k2; q++) {
        mpfr_init2(p->mlo[q], c->prec);
        mpfr_init2(p->mhi[q], c->prec);
    }
    mpfi_init2(p->tt, c->prec);
    p->started = 1;
    return DVC_OK;
}

static void pl_clear(pl_t *p, const dvc_cli_cert *c)
{
    long k2 = c->n > c->m ? c->n : c->m;
    if (p->started) {
        for (long q = 0; q < k2; q++) {
            mpfr_clear(p->mlo[q]);
            mpfr_clear(p->mhi[q]);
        }
        mpfi_clear(p->tt);
    }
    free(p->pmin);
    free(p->pmax);
    free(p->lo);
    free(p->hi);
    free(p->rx);
    free(p->ry);
    free(p->t);
    free(p->mlo);
    free(p->mhi);
}

static double up(const mpfi_t e) { return mpfr_get_d(&e->right, MPFR_RNDU); }

/* The largest state radius max_j s_j eps_x of a (scaled) tube, rounded up. */
static double up_x(const dvc_tube_struct *tb, long row)
{
    double r = up(tb->eps_x[row]), smax = 1;
    for (long j = 0; tb->x_scale && j < tb->n; j++)
        if (j == 0 || tb->x_scale[j] > smax) smax = tb->x_scale[j];
    return r * smax; /* a power of two: exact, or +inf */
}

/* Grid point i (and step i before it) into the columns. */
static dvc_status pl_point(dvc_cli_cert *c, long i, void *ctx)
{
    pl_t *p = ctx;
    const dvc_tube_struct *tb = c->tube;
    long row = tb->window ? i % tb->window : i;
    double ti, tp;
    dvc_status st;
    if (i == 0 && (st = pl_start(p, c)) != DVC_OK) return st;
    dvc_tube_time(p->tt, tb, i);
    ti = mpfr_get_d(&p->tt->left, MPFR_RNDN);
    if (p->exact) {
        p->t[i] = ti;
        p->rows = i + 1;
        p->rx[i] = up_x(tb, row);
        p->ry[i] = up(tb->eps_y[row]);
        for (int which = 0; which < 2; which++) {
            long cnt = which ? c->m : c->n, off = which ? c->n : 0;
            const double *v = which ? tb->y + row * c->m : tb->x + row * c->n;
            dvc_tube_grid(p->mlo, p->mhi, tb, i, which);
            for (long j = 0; j < cnt; j++)
                widen(p, i, off + j, v[j], v[j], mpfr_get_d(p->mlo[j], MPFR_RNDD),
                      mpfr_get_d(p->mhi[j], MPFR_RNDU));
        }
        return DVC_OK;
    }
    if (i == 0) return DVC_OK;
    dvc_tube_time(p->tt, tb, i - 1);
    tp = mpfr_get_d(&p->tt->left, MPFR_RNDN);
    if (ti < p->t0 || tp > p->t1) return DVC_OK; /* outside the window */
    {
        long ka = col_of(p, tp), kb = col_of(p, ti);
        long prow = tb->window ? (i - 1) % tb->window : i - 1;
        double rx = up_x(tb, row), ry = up(tb->ry[row]);
        if (ka < 0) ka = 0;
        for (int which = 0; which < 2; which++) {
            long cnt = which ? c->m : c->n, off = which ? c->n : 0;
            const double *v0 = which ? tb->y + prow * c->m : tb->x + prow * c->n;
            const double *v1 = which ? tb->y + row * c->m : tb->x + row * c->n;
            dvc_tube_step_hull(p->mlo, p->mhi, tb, i, which);
            for (long j = 0; j < cnt; j++) {
                double l = mpfr_get_d(p->mlo[j], MPFR_RNDD), h = mpfr_get_d(p->mhi[j], MPFR_RNDU);
                double vmin = v0[j] < v1[j] ? v0[j] : v1[j], vmax = v0[j] < v1[j] ? v1[j] : v0[j];
                for (long k = ka; k <= kb; k++) widen(p, k, off + j, vmin, vmax, l, h);
            }
        }
        for (long k = ka; k <= kb; k++) {
            if (rx > p->rx[k]) p->rx[k] = rx;
            if (ry > p->ry[k]) p->ry[k] = ry;
        }
    }
    return DVC_OK;
}

/* A gnuplot string literal (single quotes doubled, newlines as blanks). */
static void put_str(FILE *g, const char *s)
{
    fputc('\'', g);
    for (; *s; s++) fprintf(g, *s == '\'' ? "''" : *s == '\n' ? " " : "%c", *s);
    fputc('\'', g);
}

static int parse_time(double *v, const char *s, const char *name)
{
    char *end;
    *v = strtod(s, &end);
    if (end == s || *end || !isfinite(*v)) {
        fprintf(stderr, "dvicert plot: error: --%s must be a number, got '%s'\n", name, s);
        return DVC_EXIT_INPUT;
    }
    return -1;
}

static void put_num(FILE *g, double v) { fprintf(g, isfinite(v) ? ",%.17g" : ",NaN", v); }

/* Data block $D: one row per column with data: t, then per component
 * pmin, pmax, lo, hi, then rx, ry (NaN where not positive: log scale). */
static void put_data(FILE *g, const pl_t *p)
{
    fprintf(g, "$D << EOD\n");
    for (long q = 0; q < p->cols; q++) {
        double t = p->exact ? p->t[q] : p->t0 + (p->t1 - p->t0) * ((double)q + 0.5) / (double)p->cols;
        if (p->exact && (t < p->t0 || t > p->t1)) continue;
        if (!p->exact && p->k > 0 && !(p->lo[q * p->k] <= p->hi[q * p->k])) continue; /* no step here */
        fprintf(g, "%.17g", t);
        for (long j = 0; j < p->k; j++) {
            put_num(g, p->pmin[q * p->k + j]);
            put_num(g, p->pmax[q * p->k + j]);
            put_num(g, p->lo[q * p->k + j]);
            put_num(g, p->hi[q * p->k + j]);
        }
        put_num(g, p->rx[q] > 0 ? p->rx[q] : NAN);
        put_num(g, p->ry[q] > 0 ? p->ry[q] : NAN);
        fprintf(g, "\n");
    }
    fprintf(g, "EOD\n");
}

/* Data block $T: the trajectory's midpoints, t then its columns. */
static void put_traj(FILE *g, const dvc_traj_t tr, const pl_t *p)
{
    long w = tr->n + tr->m;
    fprintf(g, "$T << EOD\n");
    for (long s = 0; s < tr->ns; s++) {
        double t = dvc_ival_mid_d(tr->t[s]);
        if (t < p->t0 || t > p->t1) continue;
        fprintf(g, "%.17g", t);
        for (long k = 0; k < w; k++) fprintf(g, ",%.17g", dvc_ival_mid_d(tr->v[s * w + k]));
        fprintf(g, "\n");
    }
    fprintf(g, "EOD\n");
}

/* The options of the plot, checked before the certificate is read. */
typedef struct {
    const char *in, *out, *title, *only, *term, *tpath, *gp;
    int verify;
    long width;
    double t0, t1;
} plot_opts;

/* o from a; -1 when usable, else the exit code (message printed). */
static int parse_opts(plot_opts *o, const dvc_cli_args *a)
{
    const char *out = a->out;
    char cmd[4096];
    int rc;
    memset(o, 0, sizeof *o);
    o->in = a->pos[0];
    o->out = out;
    o->title = dvc_cli_value(a, "title");
    o->only = dvc_cli_value(a, "only");
    o->tpath = dvc_cli_value(a, "traj");
    o->gp = getenv("DVC_GNUPLOT");
    o->verify = !dvc_cli_flag(a, "no-verify");
    o->width = 900;
    o->t1 = INFINITY;
    if (o->only && strcmp(o->only, "x") != 0 && strcmp(o->only, "y") != 0) {
        fprintf(stderr, "dvicert plot: error: --only takes x or y\n");
        return DVC_EXIT_INPUT;
    }
    if (dvc_cli_value(a, "width")) {
        char *end;
        o->width = strtol(dvc_cli_value(a, "width"), &end, 10);
        if (*end || end == dvc_cli_value(a, "width") || o->width < 100 || o->width > 10000) {
            fprintf(stderr, "dvicert plot: error: --width must be a number of pixels in [100, 10000]\n");
            return DVC_EXIT_INPUT;
        }
    }
    if (dvc_cli_value(a, "from") && (rc = parse_time(&o->t0, dvc_cli_value(a, "from"), "from")) >= 0) return rc;
    if (dvc_cli_value(a, "to") && (rc = parse_time(&o->t1, dvc_cli_value(a, "to"), "to")) >= 0) return rc;
    if (!(o->t0 < o->t1)) {
        fprintf(stderr, "dvicert plot: error: --from must be below --to\n");
        return DVC_EXIT_INPUT;
    }
    if (strcmp(ext_of(out), "png") == 0) o->term = "pngcairo noenhanced size %ld,%ld font ',10'";
    else if (strcmp(ext_of(out), "svg") == 0) o->term = "svg noenhanced size %ld,%ld dynamic font 'sans,10'";
    else {
        fprintf(stderr, "dvicert plot: error: %s: the output must end in .png or .svg\n", out);
        return DVC_EXIT_INPUT;
    }
    if (!o->gp || !*o->gp) o->gp = "gnuplot";
    if (strchr(o->gp, '\'') || strlen(o->gp) > 1000 || strlen(out) > 1000) {
        fprintf(stderr, "dvicert plot: error: unsupported characters in the gnuplot or output path\n");
        return DVC_EXIT_INPUT;
    }
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", o->gp);
    if (system(cmd) != 0) {
        fprintf(stderr, "dvicert plot: error: gnuplot not found ('%s'); install it, e.g. on Debian: "
                "apt-get install gnuplot-nox\n", o->gp);
        return DVC_EXIT_INPUT;
    }
    return -1;
}

/* The y-range of component comp's panel when its tube would hide the
 * motion: the predictor's range [*a, *b] widened by its span each side,
 * where the bounds reach [*lo, *hi] beyond twice the span (the motion would
 * fill less than a fifth of an autoscaled panel: a useless tube reaching
 * 1e131). 0 when the panel autoscales. */
static int clip_of(const pl_t *p, long comp, double *a, double *b, double *lo, double *hi)
{
    double pmin = INFINITY, pmax = -INFINITY, span;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (long q = 0; q < p->cols; q++) {
        long at = q * p->k + comp;
        if (isfinite(p->pmin[at]) && p->pmin[at] < pmin) pmin = p->pmin[at];
        if (isfinite(p->pmax[at]) && p->pmax[at] > pmax) pmax = p->pmax[at];
        if (p->lo[at] < *lo) *lo = p->lo[at];
        if (p->hi[at] > *hi) *hi = p->hi[at];
    }
    if (!(pmin <= pmax)) return 0;
    span = pmax - pmin;
    if (span <= 0) span = fabs(pmax) > 0 ? fabs(pmax) : 1;
    if (!(*lo < pmin - 2 * span || *hi > pmax + 2 * span)) return 0;
    *a = pmin - span;
    *b = pmax + span;
    return 1;
}

/* The gnuplot script: terminal, data blocks, one panel per component and
 * the radii's panel. */
static void put_script(FILE *p, const plot_opts *o, const pl_t *pl, const dvc_cli_cert *c,
                       const dvc_traj_t tr, long panels, const char *tmp)
{
    const dvc_labels *L = &c->L;
    const char *only = o->only, *title = o->title;
    char head[1024], axis[128];
    int anyy = 0;
    fprintf(p, "set terminal ");
    fprintf(p, o->term, o->width + 200, 60 + 220 * panels);
    fprintf(p, "\nset output ");
    put_str(p, tmp);
    fprintf(p, "\nset datafile separator ','\nset datafile missing 'NaN'\nset grid\n"
               "set key outside right top vertical samplen 2\nset lmargin 12\nset rmargin 26\n");
    fprintf(p, "set xrange [%.17g:%.17g]\n", pl->t0, pl->t1);
    put_data(p, pl);
    if (o->tpath) put_traj(p, tr, pl);
    snprintf(head, sizeof head, "%s%s%s",
             title ? title : L->name ? L->name : "certified enclosure",
             title ? "" : ": certified tube (approximation, lower and upper bounds)",
             o->verify ? "" : " (certificate NOT re-verified)");
    fprintf(p, "set multiplot layout %ld,1 title ", panels);
    put_str(p, head);
    fprintf(p, "\n");
    dvc_labels_axis(axis, sizeof axis, "t", L->t_unit);
    fprintf(p, "set xlabel ");
    put_str(p, axis);
    fprintf(p, "\n");
    for (int which = 0; which < 2; which++) {
        long cnt = which ? c->m : c->n, off = which ? c->n : 0;
        if (only && *only != (which ? 'y' : 'x')) continue;
        for (long j = 0; j < cnt; j++) {
            long col = 2 + 4 * (off + j);
            const char *nm = which ? L->y[j] : L->x[j];
            dvc_labels_axis(axis, sizeof axis, nm, which ? L->y_unit[j] : L->x_unit[j]);
            double ya, yb, blo, bhi;
            int clip = clip_of(pl, off + j, &ya, &yb, &blo, &bhi);
            fprintf(p, "set ylabel ");
            put_str(p, axis);
            if (clip)
                fprintf(p, "\nset yrange [%.17g:%.17g]\nset label 1 'tube clipped to the motion: its "
                           "bounds reach [%.3g, %.3g]' at graph 0.01, graph 0.93 front",
                        ya, yb, blo, bhi);
            /* Okabe-Ito: blue predictor, vermillion lower, bluish green upper, black trajectory */
            fprintf(p, "\nplot $D using 1:%ld with lines lw 1.5 lc rgb '#0072B2' title '%s^h', "
                       "'' using 1:%ld with lines lw 1.5 lc rgb '#0072B2' notitle, "
                       "'' using 1:%ld with lines dt 2 lw 1.2 lc rgb '#D55E00' title 'lower bound', "
                       "'' using 1:%ld with lines dt 2 lw 1.2 lc rgb '#009E73' title 'upper bound'",
                    col, nm, col + 1, col + 2, col + 3);
            if (o->tpath && (!which || tr->m))
                fprintf(p, ", $T using 1:%ld with points pt 7 ps 0.4 lc rgb '#000000' title 'trajectory'",
                        2 + off + j);
            fprintf(p, "\n");
            if (clip) fprintf(p, "unset label 1\nset autoscale y\n");
        }
    }
    fprintf(p, "set ylabel 'radius (log scale)'\nset logscale y\nset format y '%%.0e'\n");
    fprintf(p, "plot $D using 1:%ld with lines lw 1.5 lc rgb '#0072B2' title '%s'", 2 + 4 * pl->k,
            c->tube->x_scale ? "max_j s_j eps_x (x tube)" : "eps_x (x tube)");
    for (long q = 0; q < pl->cols && !anyy; q++) anyy = pl->ry[q] > 0;
    if (c->m && anyy)
        fprintf(p, ", '' using 1:%ld with lines lw 1.5 lc rgb '#E69F00' title 'y tube radius'",
                3 + 4 * pl->k);
    fprintf(p, "\nunset logscale y\nunset multiplot\nset output\n");
}

/* The unit of component j (n.. are y) of a whole certificate whose labels
 * come from an embedded problem, else "". */
static const char *grid_unit(const dvc_cli_cert *d, long j)
{
    if (d->xnames != (const char *const *)d->L.x || !d->L.x_unit) return "";
    return j < d->n ? d->L.x_unit[j] : d->L.y_unit ? d->L.y_unit[j - d->n] : "";
}

/* The stated enclosures at the grid points, one panel per state (and per
 * multiplier: a certificate of the events route; only: "x", "y" or NULL),
 * and a dotted line at every certified event: the drawing of a tube of
 * boxes read whole, with events (a hybrid certificate). The window
 * [t0, t1] keeps the grid points in it and one on either side, so that the
 * curves reach its edges. */
static void put_grid_script(FILE *p, const plot_opts *o, const dvc_cli_cert *d, const char *tmp,
                            mpfr_t *lo, mpfr_t *hi, mpfi_t tt, const dvc_traj_t tr, double t0, double t1)
{
    const dvc_tube_struct *tb = d->tube;
    const dvc_hybrid_result_struct *r = d->hyb->res;
    const dvc_hybrid_model_struct *m = d->hyb->model;
    char axis[128];
    long panels = (o->only && *o->only == 'y' ? 0 : d->n) + (o->only && *o->only == 'x' ? 0 : d->m);
    fprintf(p, "set terminal ");
    fprintf(p, o->term, o->width + 200, 60 + 240 * panels);
    fprintf(p, "\nset output ");
    put_str(p, tmp);
    fprintf(p, "\nset datafile separator ','\nset datafile missing 'NaN'\nset grid\n"
               "set key outside right top vertical samplen 2\nset lmargin 12\nset rmargin 26\n");
    fprintf(p, "set xrange [%.17g:%.17g]\n", t0, t1);
    /* t, then per state (and multiplier): midpoint, lower, upper of the
     * stated grid enclosure */
    fprintf(p, "$D << EOD\n");
    for (long i = 0; i <= tb->N; i++) {
        double ti, tn = INFINITY, tp = -INFINITY;
        dvc_tube_time(tt, tb, i);
        ti = dvc_ival_mid_d(tt);
        if (i < tb->N) dvc_tube_time(tt, tb, i + 1), tn = dvc_ival_mid_d(tt);
        if (i > 0) dvc_tube_time(tt, tb, i - 1), tp = dvc_ival_mid_d(tt);
        if (tn < t0 || tp > t1) continue; /* outside the window and not next to it */
        fprintf(p, "%.17g", ti);
        for (int which = 0; which < 2; which++) {
            long cnt = which ? tb->m : tb->n;
            const double *mid = which ? tb->y + i * tb->m : tb->x + i * tb->n;
            dvc_tube_grid(lo, hi, tb, i, which);
            for (long j = 0; j < cnt; j++)
                fprintf(p, ",%.17g,%.17g,%.17g", mid[j], mpfr_get_d(lo[j], MPFR_RNDD),
                        mpfr_get_d(hi[j], MPFR_RNDU));
        }
        fprintf(p, "\n");
    }
    fprintf(p, "EOD\n");
    if (o->tpath) {
        pl_t w;
        memset(&w, 0, sizeof w);
        w.t0 = t0;
        w.t1 = t1;
        put_traj(p, tr, &w);
    }
    /* every certified event in the window: a vertical line at its time enclosure */
    for (long k = 0; k < tb->nev; k++) {
        double te = dvc_ival_mid_d(tb->ev[k].t);
        if (te < t0 || te > t1) continue;
        fprintf(p, "set arrow %ld from %.17g, graph 0 to %.17g, graph 1 nohead dt 3 "
                   "lc rgb '#888888' # event %ld: %s %s->%s\n",
                k + 1, te, te, k + 1, m->gname[r->ev[k].g], m->modes[r->ev[k].mode_before].name,
                m->modes[r->ev[k].mode_after].name);
    }
    fprintf(p, "set multiplot layout %ld,1 title ", panels);
    {
        char head[1024];
        snprintf(head, sizeof head, "%s%s%s", o->title ? o->title : d->name ? d->name : "hybrid model",
                 o->title ? "" : ": certified enclosure at the grid points, dotted lines at the "
                                 "certified events",
                 o->verify ? "" : " (certificate NOT re-verified)");
        put_str(p, head);
    }
    fprintf(p, "\n");
    dvc_labels_axis(axis, sizeof axis, "t", d->xnames == (const char *const *)d->L.x ? d->L.t_unit : "");
    fprintf(p, "set xlabel ");
    put_str(p, axis);
    fprintf(p, "\n");
    for (long j = 0; j < d->n + d->m; j++) {
        long col = 2 + 3 * j;
        const char *nm = j < d->n ? d->xnames[j] : d->ynames[j - d->n];
        if (o->only && *o->only != (j < d->n ? 'x' : 'y')) continue;
        dvc_labels_axis(axis, sizeof axis, nm, grid_unit(d, j));
        fprintf(p, "set ylabel ");
        put_str(p, axis);
        /* Okabe-Ito, as the DLVI panels: blue midpoint, vermillion lower,
         * bluish green upper, black trajectory */
        fprintf(p, "\nplot $D using 1:%ld with lines lw 1.5 lc rgb '#0072B2' title 'midpoint', "
                   "'' using 1:%ld with lines dt 2 lw 1.2 lc rgb '#D55E00' title 'lower bound', "
                   "'' using 1:%ld with lines dt 2 lw 1.2 lc rgb '#009E73' title 'upper bound'",
                col, col + 1, col + 2);
        if (o->tpath && (j < d->n || tr->m))
            fprintf(p, ", $T using 1:%ld with points pt 7 ps 0.4 lc rgb '#000000' title 'trajectory'", 2 + j);
        fprintf(p, "\n");
    }
    fprintf(p, "unset multiplot\nset output\n");
}

/* The window [t0, t1] cut to the certificate's [t0, T], and the trajectory
 * overlaid read. -1 when done, else the exit code (message printed). */
static int window_and_traj(pl_t *pl, dvc_cli_cert *d, dvc_traj_t tr, const plot_opts *o)
{
    double T = mpfr_get_d(&d->tube->T->right, MPFR_RNDU);
    double ts = d->t0 ? mpfr_get_d(d->t0, MPFR_RNDD) : 0;
    dvc_status st;
    pl->t1 = o->t1 < T ? o->t1 : T;
    if (pl->t0 < ts) pl->t0 = ts;
    if (!(pl->t0 < pl->t1)) {
        fprintf(stderr, "dvicert plot: error: the window [%g, %g] misses [t0, T] = [%g, %g]\n", o->t0, o->t1,
                ts, T);
        return DVC_EXIT_INPUT;
    }
    if (o->tpath) {
        dvc_traj_read_opts ro;
        dvc_traj_read_opts_init(&ro);
        ro.names = d->xnames;
        ro.ynames = d->ynames;
        if ((st = dvc_traj_read_ex(tr, o->tpath, d->n, d->m, d->T, &ro)) != DVC_OK)
            return dvc_cli_fail("plot", st);
    }
    return -1;
}

/* A streamed certificate (a tube with radii): the window, the trajectory
 * overlaid, and one pass over the steps (verified in lockstep) into pl's
 * columns. -1 when done, else the exit code (message printed). */
static int read_columns(pl_t *pl, dvc_cli_cert *d, dvc_traj_t tr, const plot_opts *o, FILE *rep)
{
    dvc_status st;
    int rc = window_and_traj(pl, d, tr, o);
    if (rc >= 0) return rc;
    /* read (and verify) step by step, into the columns */
    st = dvc_cli_cert_pass(d, o->verify, pl_point, pl);
    if (st != DVC_OK) return dvc_cli_cert_refused("plot", rep, o->in, st, "plotted");
    fprintf(rep, "certificate: %s %s\n", o->in,
            !o->verify ? "NOT re-verified (--no-verify)" : d->cached ? DVC_CLI_CACHED : "verified");
    return -1;
}

/* Is the image gnuplot wrote into path whole? A PNG ends with its IEND
 * chunk, an SVG with its closing tag: a gnuplot that exits 0 on a full disk
 * (or without writing) leaves a truncated or empty file, which must not
 * replace a previous image. 1 whole, 0 not (message printed). */
static int image_whole(const char *path, const char *ext)
{
    static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const unsigned char png_end[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    unsigned char head[8], tail[256];
    long size = -1;
    size_t nt = 0;
    int whole = 0;
    FILE *f = fopen(path, "rb");
    memset(head, 0, sizeof head);
    if (f && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (f && size > 0 && fseek(f, 0, SEEK_SET) == 0 && fread(head, 1, sizeof head, f) > 0 &&
        fseek(f, size > (long)sizeof tail ? size - (long)sizeof tail : 0, SEEK_SET) == 0)
        nt = fread(tail, 1, sizeof tail, f);
    if (f) fclose(f);
    if (strcmp(ext, "png") == 0) {
        whole = size >= 20 && memcmp(head, png_sig, 8) == 0 && nt >= 12 &&
                memcmp(tail + nt - 12, png_end, 12) == 0;
    } else {
        /* the closing tag, then only white space */
        while (nt > 0 && (tail[nt - 1] == '\n' || tail[nt - 1] == '\r' || tail[nt - 1] == ' ' || tail[nt - 1] == '\t'))
            nt--;
        whole = nt >= 6 && memcmp(tail + nt - 6, "</svg>", 6) == 0;
    }
    if (!whole)
        fprintf(stderr, "dvicert plot: error: gnuplot exited without error but the image is %s (%ld bytes; "
                "a full disk?): nothing replaced\n", size > 0 ? "incomplete" : "empty", size > 0 ? size : 0L);
    return whole;
}

/* Run the script writer for d through gnuplot into out. -1 when written,
 * else the exit code (message printed). */
static int render(const plot_opts *o, const pl_t *pl, const dvc_cli_cert *d, const dvc_traj_t tr,
                  long panels)
{
    dvc_outfile of;
    dvc_status st;
    mpfr_t *lo = NULL, *hi = NULL;
    mpfi_t tt;
    char cmd[4096];
    FILE *p = NULL;
    int status, rc = -1;
    long k2 = d->tube->n > d->tube->m ? d->tube->n : d->tube->m; /* edges of x or y */
    /* gnuplot writes the image into our temporary file (or directly to a
     * device or pipe); the commit renames it */
    if ((st = dvc_outfile_open(&of, o->out)) != DVC_OK) {
        dvc_outfile_clear(&of);
        return dvc_cli_fail("plot", st);
    }
    mpfi_init2(tt, mpfi_get_prec(d->tube->T));
    if (d->whole) {
        lo = dvc_mpfr_array_new(k2, d->tube->prec);
        hi = dvc_mpfr_array_new(k2, d->tube->prec);
        if (!lo || !hi) rc = dvc_cli_fail("plot", dvc_error(DVC_ERR_NOMEM, "out of memory"));
    }
    snprintf(cmd, sizeof cmd, "'%s' 2>&1", o->gp);
    if (rc < 0 && !(p = popen(cmd, "w"))) {
        fprintf(stderr, "dvicert plot: error: cannot run gnuplot: %s\n", strerror(errno));
        rc = DVC_EXIT_INPUT;
    }
    if (rc < 0) {
        const char *tmp = of.tmp ? of.tmp : of.path;
        if (d->whole) put_grid_script(p, o, d, tmp, lo, hi, tt, tr, pl->t0, pl->t1);
        else put_script(p, o, pl, d, tr, panels, tmp);
        status = pclose(p);
        if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "dvicert plot: error: gnuplot failed (exit status %d)\n",
                    status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            rc = DVC_EXIT_INPUT;
        }
    }
    /* a regular file (written through a temporary one): checked whole
     * before it replaces anything; a device or pipe is gnuplot's */
    if (rc < 0 && of.tmp && !image_whole(of.tmp, ext_of(o->out))) rc = DVC_EXIT_INPUT;
    if (rc < 0 && (st = dvc_outfile_commit(&of)) != DVC_OK) rc = dvc_cli_fail("plot", st);
    dvc_outfile_clear(&of);
    mpfi_clear(tt);
    dvc_mpfr_array_free(lo, lo ? k2 : 0);
    dvc_mpfr_array_free(hi, hi ? k2 : 0);
    return rc;
}

static int run(const dvc_cli_args *a)
{
    plot_opts o;
    const char *in = a->pos[0];
    int rc = parse_opts(&o, a);
    long panels;
    dvc_cli_cert d;
    dvc_traj_t tr;
    pl_t pl;
    if (rc >= 0) return rc;
    memset(&pl, 0, sizeof pl);
    pl.cols = o.width;
    pl.t0 = o.t0;
    dvc_cli_cert_init(&d);
    d.no_cache = dvc_cli_flag(a, "no-cache");
    dvc_traj_init(tr);
    /* the header first: T sets the window before the steps stream by; a
     * certificate read whole is verified (and says so) here */
    d.contact_y = 1; /* an ideal contact's multipliers get panels */
    rc = dvc_cli_cert_open(&d, "plot", in, o.verify, a->report, "plotted", 1);
    if (rc < 0 && !d.whole) rc = read_columns(&pl, &d, tr, &o, a->report);
    else if (rc < 0) rc = window_and_traj(&pl, &d, tr, &o); /* a hybrid certificate, read whole */
    if (rc < 0 && d.whole && d.m == 0 && o.only && strcmp(o.only, "x") != 0) {
        /* the events route's certificates have y panels; other hybrid ones not */
        fprintf(stderr, "dvicert plot: error: %s: a hybrid model has no y panels (--only y)\n", in);
        rc = DVC_EXIT_INPUT;
    }
    if (rc >= 0) goto done;
    /* the states, the multipliers and (a tube with radii) the radius panel */
    panels = (o.only && *o.only == 'y' ? 0 : d.n) + (o.only && *o.only == 'x' ? 0 : d.m) + !d.whole;
    if ((rc = render(&o, &pl, &d, tr, panels)) >= 0) goto done;
    for (long q = 0; !d.whole && q < pl.k; q++) {
        double ya, yb, blo, bhi;
        const char *nm = q < d.n ? d.L.x[q] : d.L.y[q - d.n];
        if ((o.only && *o.only != (q < d.n ? 'x' : 'y')) || !clip_of(&pl, q, &ya, &yb, &blo, &bhi)) continue;
        fprintf(a->report, "note: %s: the tube's bounds reach [%.3g, %.3g], far outside the motion: its "
                "panel is clipped to [%.3g, %.3g] (the radius panel shows the whole radius)\n",
                nm, blo, bhi, ya, yb);
    }
    if (d.whole)
        fprintf(a->report, "wrote %s (%ld panels, %ld events marked)\n", o.out, panels, d.tube->nev);
    else
        fprintf(a->report, "wrote %s (%ld panels, %s)\n", o.out, panels,
                pl.exact ? "every grid point" : "one column per pixel");
    rc = DVC_EXIT_OK;
done:
    pl_clear(&pl, &d);
    dvc_traj_clear(tr);
    dvc_cli_cert_clear(&d);
    return rc;
}
