/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert info: what a certificate states, and how informative it is. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "cache.h"
#include "certview.h"
#include "io/hybrid_tube_y.h"
#include "io/hybrid_json.h"
#include "width_report.h"
#include "io/labels.h"
#include "dvicert/certio.h"
#include "dvicert/events.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/lcs_cert.h"

static const dvc_cli_opt opts[] = {
    {"verify", 0, NULL, NULL, "verify the certificate while reading it (as 'dvicert verify')"},
    {"csv", 0, NULL, NULL,
     "print one CSV header line and one data line instead of the report:\n"
     "file,name,n,m,T,N,route,precision,eps_x_at_T,max_eps_x,radius_rel_max,verdict,\n"
     "then per state j = 1..n: xj_radius_max,xj_radius_at_T,xj_scale_log2\n"
     "(radii s_j eps_x in the user's units, rounded up; per-run summaries\n"
     "of a sweep collect into one table; docs/formats.md), then per\n"
     "multiplier k = 1..m: yk_radius_max,yk_radius_at_T (the stated eps_y at\n"
     "the grid times; for a certificate of the events route, the half-widths\n"
     "of y's enclosures at the grid times). A hybrid certificate has the same\n"
     "columns: route is events, switched, sliding or ideal-contact, eps_x_at_T\n"
     "and max_eps_x the largest half-width of a state enclosure at T and at any\n"
     "grid time, the radii half-widths of the stated enclosures, scale 0"},
    {"no-cache", 0, NULL, NULL, "recompute even when this binary verified the same text before\n"
                                "(the verified-certificate cache, docs/formats.md)"},
    {NULL, 0, NULL, NULL, NULL},
};

static void help(void)
{
    printf(
        "usage: dvicert info CERT.json [--verify] [--csv]\n\n"
        "Summary of a DLVI certificate written by 'dvicert enclose': the problem's\n"
        "name (key \"name\" of the problem file), n, m, T, N, the certification\n"
        "route, the precision, the stated bounds, the grid when its last step is\n"
        "shorter (a step h that does not divide T), the state scale s_j = 2^e_j when\n"
        "it is not all ones (the radius of state j is s_j eps_x), and how informative\n"
        "the tube is: per state, the largest radius and the radius at T relative to\n"
        "the size of the solution (the largest |x_j| of the predictor), and a verdict:\n"
        "  informative    every relative radius <= 0.1\n"
        "  wide           some relative radius in (0.1, 1]\n"
        "  uninformative  some relative radius > 1 (the tube is larger than the solution)\n"
        "A wide certificate is still true; the report says why it is wide and what\n"
        "helps. The verdict is also stated in the certificate (summary entries\n"
        "radius_verdict, radius_rel_max_upper, radius_rel_at_T_upper, which verify\n"
        "recomputes). Without --verify nothing is checked: the figures are what the\n"
        "file states.\n"
        "A hybrid certificate (switched, sliding or ideal-contact model) gets the\n"
        "model's name, n, the grid, its events by kind and, per state, the largest\n"
        "half-width of its enclosures at the grid times against the state's size,\n"
        "with the same verdict thresholds. An ideal-contact certificate names its\n"
        "embedded DLVI problem (key \"name\"). A certificate of the events route (the\n"
        "exact DLVI solution, event by event) names its embedded problem and lists\n"
        "the multipliers y too, enclosed by the pattern's affine map on the states.\n"
        "The events of a hybrid certificate, one by one: 'dvicert events'.\n\n");
    dvc_cli_print_options(&dvc_cmd_info);
    printf("\nexit status: 0 read (and accepted with --verify), 1 rejected by --verify,\n"
           "2 unusable file.\n");
}

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_info = {
    "info", "summary of a certificate: problem, route, bounds, and how informative the tube is",
    opts, "it prints a summary, with the certificate's own decimals", DVC_CLI_CERT_PREC, 1, 1,
    "dvicert info CERT.json [--verify] [--csv]", help, run};

/* One CSV field, then a comma (a line break when last). */
static void csv_field(const char *s, int last) { dvc_cli_csv_put(s, last ? '\n' : ','); }

/* The exponent e of the state scale s_j = 2^e of state j (0 unscaled). */
static int scale_log2(const dvc_cert_t c, long j)
{
    return ilogb(dvc_tube_x_scale(c->tube, j));
}

/* The --csv line: the stated figures, or (for certificates written before
 * the width claims existed) the ones recomputed while reading; then per
 * state the radii s_j eps_x (12 significant digits, rounded up: the tube
 * is within them) and the scale exponent. The first twelve columns come
 * first so that scripts reading them by position keep working. */
static void csv_line(const char *in, const dvc_cert_t c, const char *name, const char *route)
{
    char buf[64];
    const char *rel = dvc_cert_claim_text(&c->summary, "radius_rel_max_upper");
    const char *verdict = dvc_cert_claim_text(&c->summary, "radius_verdict");
    int have = c->width->points > 0 && c->width->n == c->n;
    printf("file,name,n,m,T,N,route,precision,eps_x_at_T,max_eps_x,radius_rel_max,verdict");
    for (long j = 1; j <= c->n; j++) printf(",x%ld_radius_max,x%ld_radius_at_T,x%ld_scale_log2", j, j, j);
    for (long k = 1; k <= c->m; k++) printf(",y%ld_radius_max,y%ld_radius_at_T", k, k);
    putchar('\n');
    csv_field(in, 0);
    csv_field(name ? name : "", 0);
    printf("%ld,%ld,%.17g,%ld,", c->n, c->m, mpfr_get_d(&c->tube->T->left, MPFR_RNDN), c->N);
    csv_field(route, 0);
    printf("%ld,", (long)c->prec);
    csv_field(dvc_cert_claim_text(&c->summary, "eps_x_at_T"), 0);
    csv_field(dvc_cert_claim_text(&c->summary, "max_eps_x"), 0);
    if (!*rel && c->width->points > 0) {
        double r = 0;
        for (long j = 0; j < c->width->n; j++)
            if (dvc_width_rel(c->width, j, 0) > r) r = dvc_width_rel(c->width, j, 0);
        snprintf(buf, sizeof buf, "%.6e", r);
        rel = buf;
    }
    csv_field(rel, 0);
    csv_field(*verdict ? verdict
                       : c->width->points > 0 ? dvc_width_verdict_name(dvc_width_judge(c->width, NULL)) : "",
              c->n == 0);
    for (long j = 0; j < c->n; j++) {
        for (int at_T = 0; at_T <= 1; at_T++) {
            mpfr_t r;
            mpfr_init2(r, 53);
            if (have) {
                /* the radius is a double rounded up; its decimal rounds up too */
                mpfr_set_d(r, dvc_width_radius(c->width, j, at_T), MPFR_RNDU);
                mpfr_snprintf(buf, sizeof buf, "%.11RUe", r);
            } else {
                buf[0] = '\0';
            }
            mpfr_clear(r);
            printf("%s,", buf);
        }
        printf("%d%c", scale_log2(c, j), j + 1 < c->n || c->m > 0 ? ',' : '\n');
    }
    /* per multiplier the stated eps_y (one radius for all of them, at the
     * grid points, as the events route's y columns) */
    for (long k = 0; k < c->m; k++)
        for (int at_T = 0; at_T <= 1; at_T++) {
            mpfr_t r;
            mpfr_init2(r, 53);
            buf[0] = '\0';
            if (have) {
                mpfr_set_d(r, at_T ? c->width->ry_T : c->width->ry_max, MPFR_RNDU);
                mpfr_snprintf(buf, sizeof buf, "%.11RUe", r);
            }
            mpfr_clear(r);
            printf("%s%c", buf, at_T && k + 1 == c->m ? '\n' : ',');
        }
}

/* The grid when its last step is shorter, and the state scale when it is
 * not all ones: what the radii of the width table are made of. */
static void grid_and_scale(const dvc_cert_t c)
{
    int scaled = 0;
    dvc_tgrid g;
    dvc_tgrid_set(&g, c->N, c->tube->t ? 0 : c->tube->hgrid, NULL);
    if (g.kind == DVC_TGRID_LAST_SHORT) {
        const char *lo = dvc_cert_claim_text(&c->method, "h_last_lo");
        const char *hi = dvc_cert_claim_text(&c->method, "h_last_hi");
        printf("grid: %ld steps of h = %.6g, the last of length %.6g", c->N, g.h,
               dvc_tgrid_last_step_d64(&g, c->tube->T));
        if (*lo && *hi) printf(" (in [%s, %s])", lo, hi);
        printf("; t_i = i h, t_N = T\n");
    } else if (c->tube->t) {
        /* the problem's time grid (a trajectory's own times) */
        printf("grid: %ld steps on the problem's time grid, of length %s to %s\n", c->N,
               dvc_cert_claim_text(&c->method, "h_lo"), dvc_cert_claim_text(&c->method, "h_hi"));
    }
    for (long j = 0; j < c->n; j++)
        if (dvc_tube_x_scale(c->tube, j) != 1) scaled = 1;
    if (!scaled) return;
    printf("state scale s_j = 2^e_j (the radius of state j is s_j eps_x):");
    {
        dvc_labels L;
        dvc_labels_init(&L);
        int named = dvc_labels_from_text(&L, c->problem_json, c->n, c->m) == DVC_OK;
        for (long j = 0; j < c->n; j++) {
            char nm[32];
            if (!named) snprintf(nm, sizeof nm, "x%ld", j + 1);
            printf("%s %s 2^%d", j ? "," : "", named ? L.x[j] : nm, scale_log2(c, j));
        }
        dvc_labels_clear(&L);
    }
    printf("\n");
}

/* The route a DLVI certificate states (older ones state none: chen-wang). */
static const char *route_of(const dvc_cert_struct *c)
{
    const char *r = dvc_cert_claim_text(&c->method, "route");
    return *r ? r : "chen-wang";
}

/* What a DLVI certificate states beyond the common lines: the shape, the
 * route, the grid and scale, the stated bounds, the width table. */
static void dlvi_body(const dvc_cli_cert *d)
{
    const dvc_cert_struct *c = d->dlvi;
    const char *route = route_of(c);
    printf("n = %ld states, m = %ld multipliers, T = %.17g, N = %ld steps, %ld bits\n", c->n, c->m,
           mpfr_get_d(&c->tube->T->left, MPFR_RNDN), c->N, (long)c->prec);
    printf("route: %s%s\n", route, strcmp(route, "lognorm") == 0 ? " (one-sided Lipschitz bounds)"
                                                                 : " (Algorithm 4.2 of Chen & Wang)");
    grid_and_scale(c);
    printf("generator: %s\n", c->generator ? c->generator : "?");
    printf("eps_x at T <= %s, max eps_x <= %s, max eps_y <= %s\n",
           dvc_cert_claim_text(&c->summary, "eps_x_at_T"), dvc_cert_claim_text(&c->summary, "max_eps_x"),
           dvc_cert_claim_text(&c->summary, "max_eps_y"));
    dvc_cli_width_report(stdout, c);
}

static void dlvi_csv(const dvc_cli_cert *d)
{
    const dvc_cert_struct *c = d->dlvi;
    const char *route = route_of(c);
    csv_line(d->path, c, d->name, route);
}

/* Sizes and radii of an enclosure tube's components at its grid times:
 * per component the largest magnitude, the largest half-width and the one
 * at T (rounded up). */
typedef struct {
    long k;
    double *size, *rad, *radT;
} tstats;

static int tstats_make(tstats *s, const dvc_tube_struct *tb, int which)
{
    long K = which ? tb->m : tb->n;
    s->k = K;
    s->size = calloc((size_t)(3 * (K > 0 ? K : 1)), sizeof *s->size);
    if (!s->size) return 0;
    s->rad = s->size + K;
    s->radT = s->rad + K;
    for (long i = 0; i <= tb->N; i++)
        for (long j = 0; j < K; j++) {
            mpfi_srcptr b = which ? tb->yg[i * K + j] : tb->xg[i * K + j];
            double l = mpfr_get_d(&b->left, MPFR_RNDD), h = mpfr_get_d(&b->right, MPFR_RNDU);
            double r = (h - l) / 2, m = fabs(l) > fabs(h) ? fabs(l) : fabs(h);
            if (r > 0) r = nextafter(r, INFINITY); /* h - l rounded up */
            if (r > s->rad[j]) s->rad[j] = r;
            if (m > s->size[j]) s->size[j] = m;
            if (i == tb->N) s->radT[j] = r;
        }
    return 1;
}

/* The verdict of width.h's thresholds for a relative radius. */
static const char *verdict_of(double rel)
{
    return rel > DVC_WIDTH_UNINFORMATIVE_AT ? "uninformative" : rel > DVC_WIDTH_WIDE_AT ? "wide" : "informative";
}

static double rel_of(double rad, double size) { return size > 0 ? rad / size : rad > 0 ? INFINITY : 0; }

/* The tube of a hybrid certificate as stated (with y for the events route,
 * the contact multipliers for an ideal contact). */
static dvc_status stated_tube(dvc_tube_t tb, const dvc_cli_cert *d)
{
    dvc_status st = dvc_dlvi_events_tube(tb, d->hyb->model, d->hyb->res, NULL);
    return st == DVC_OK ? dvc_hybrid_cert_tube_y(tb, d->hyb) : st;
}

/* What a hybrid certificate states beyond the common lines: the model's
 * shape, its events by kind, and per state the largest half-width of its
 * stated enclosures at the grid times against the state's size (the largest
 * magnitude it reaches), with the verdict of width.h's thresholds; for the
 * events route the multipliers y too (their rows do not enter the verdict,
 * as for a DLVI certificate). */
/* The name of component j of a hybrid certificate (n.. are y), with its
 * unit when the certificate embeds a problem that states one. */
static const char *row_label(char *buf, size_t cap, const dvc_cli_cert *d, long j)
{
    const dvc_hybrid_model_struct *m = d->hyb->model;
    int named = d->xnames && d->xnames == (const char *const *)d->L.x;
    const char *nm = j < m->n ? (d->xnames ? d->xnames[j] : m->names[j]) : d->ynames ? d->ynames[j - m->n] : "y";
    const char *unit = !named ? "" : j < m->n ? (d->L.x_unit ? d->L.x_unit[j] : "")
                                            : d->L.y_unit ? d->L.y_unit[j - m->n] : "";
    dvc_labels_axis(buf, cap, nm, unit);
    return buf;
}

static void hybrid_body(const dvc_cli_cert *d)
{
    char lab[128];
    const dvc_hybrid_cert_struct *c = d->hyb;
    long worst = 0, nk[3] = {0, 0, 0};
    double wrel = 0;
    dvc_tube_t tb;
    tstats sx = {0, NULL, NULL, NULL}, sy = {0, NULL, NULL, NULL};
    printf("hybrid (%s), n = %ld states, %ld modes, t in [%.17g, %.17g], %ld steps, %ld bits\n",
           d->m > 0 ? "events route: the exact DLVI solution, modes are its patterns"
           : dvc_lcs_cert_is_lcs(c) ? "ideal contacts, M = 0" : c->model->ncontacts ? "decomposed, sliding"
           : c->model->nz > 0 ? "switched DAE, index 1"
                                                                                  : "switched",
           c->model->n, c->model->nmodes, mpfr_get_d(c->model->t0, MPFR_RNDN),
           mpfr_get_d(c->model->T, MPFR_RNDN), c->res->nsteps, (long)c->prec);
    if (d->m > 0) printf("m = %ld multipliers (y from the pattern's affine map on the states)\n", d->m);
    for (long e = 0; e < c->res->nevents; e++) nk[dvc_hybrid_event_kind_of(c->model, &c->res->ev[e])]++;
    {
        int fr = dvc_hybrid_cert_friction(c);
        printf("events: %ld (%ld crossings, %ld %s, %ld %s)\n", c->res->nevents, nk[0], nk[1],
               dvc_hybrid_event_word_(fr, DVC_HYB_EV_ENTER_SLIDE), nk[2], dvc_hybrid_event_word_(fr, DVC_HYB_EV_LEAVE_SLIDE));
    }
    dvc_tube_init(tb);
    if (stated_tube(tb, d) != DVC_OK || !tstats_make(&sx, tb, 0) || (tb->m > 0 && !tstats_make(&sy, tb, 1))) {
        printf("(no width table: %s)\n", dvc_error_message());
        free(sx.size);
        dvc_tube_clear(tb);
        return;
    }
    if (tb->m > 0 && c->model->nz > 0)
        printf("algebraic variables (%ld): z(t, x) of each mode's constraints, enclosed on reading on the\n"
               "  stated state enclosures (docs/dae.md)\n", tb->m);
    else if (tb->m > 0 && d->m == 0)
        printf("contact multipliers y (%ld): enclosed on reading from the sliding field on the stated\n"
               "  state enclosures, 0 off the faces (docs/ideal_contacts.md)\n", tb->m);
    printf("  %-10s %12s %12s %12s\n", tb->m > 0 ? "component" : "state", "size", "max radius", "relative");
    for (long j = 0; j < c->model->n; j++) {
        double rel = rel_of(sx.rad[j], sx.size[j]);
        if (rel > wrel) wrel = rel, worst = j;
        printf("  %-10s %12.4g %12.4g %12.4g\n", row_label(lab, sizeof lab, d, j), sx.size[j], sx.rad[j], rel);
    }
    for (long k = 0; k < sy.k; k++)
        printf("  %-10s %12.4g %12.4g %12.4g\n", row_label(lab, sizeof lab, d, c->model->n + k), sy.size[k],
               sy.rad[k], rel_of(sy.rad[k], sy.size[k]));
    if (sy.k > 0) /* which bound of y each output states (issue 21, item 6) */
        printf("  (y: its bound at each grid time, the grid rows of 'dvicert export' and the curves of\n"
               "  'dvicert plot'; at an event time y may jump and the bound there holds both sides;\n"
               "  export's step rows are hulls over a whole step, wider)\n");
    printf("verdict: %s (largest relative radius %.3g, %s; radii are half the widths of the\n"
           "  state enclosures at the grid times; between them the flow is as tight)\n",
           verdict_of(wrel), wrel, d->xnames ? d->xnames[worst] : c->model->names[worst]);
    free(sx.size);
    free(sy.size);
    dvc_tube_clear(tb);
}

/* sep, then a radius with 12 significant digits, rounded up. */
static void up12(double r, const char *sep)
{
    mpfr_t v;
    mpfr_init2(v, 53);
    mpfr_set_d(v, r > 0 ? r : 0.0, MPFR_RNDU); /* no -0 */
    if (*sep) putchar(*sep);
    mpfr_printf("%.11RUe", v);
    mpfr_clear(v);
}

/* The route column of a hybrid certificate's --csv line. */
static const char *hybrid_route(const dvc_cli_cert *d)
{
    const dvc_hybrid_cert_struct *c = d->hyb;
    return d->m > 0 ? "events" : dvc_lcs_cert_is_lcs(c) ? "ideal-contact"
                               : c->model->ncontacts ? "sliding" : "switched";
}

/* The --csv line of a hybrid certificate: the columns of a DLVI one (radii
 * are half-widths of the stated grid enclosures, no state scale), then per
 * multiplier (the events route) its largest radius and the one at T. */
static void hybrid_csv(const dvc_cli_cert *d)
{
    const dvc_hybrid_cert_struct *c = d->hyb;
    dvc_tube_t tb;
    tstats sx = {0, NULL, NULL, NULL}, sy = {0, NULL, NULL, NULL};
    double radT = 0, rmax = 0, rel = 0;
    dvc_tube_init(tb);
    if (stated_tube(tb, d) != DVC_OK || !tstats_make(&sx, tb, 0) || (tb->m > 0 && !tstats_make(&sy, tb, 1))) {
        fprintf(stderr, "dvicert info: %s\n", dvc_error_message());
        free(sx.size);
        dvc_tube_clear(tb);
        return;
    }
    printf("file,name,n,m,T,N,route,precision,eps_x_at_T,max_eps_x,radius_rel_max,verdict");
    for (long j = 1; j <= d->n; j++) printf(",x%ld_radius_max,x%ld_radius_at_T,x%ld_scale_log2", j, j, j);
    for (long k = 1; k <= tb->m; k++) printf(",y%ld_radius_max,y%ld_radius_at_T", k, k);
    putchar('\n');
    csv_field(d->path, 0);
    csv_field(d->name ? d->name : "", 0);
    printf("%ld,%ld,%.17g,%ld,%s,%ld,", d->n, tb->m, mpfr_get_d(c->model->T, MPFR_RNDN), d->N, hybrid_route(d),
           (long)c->prec);
    for (long j = 0; j < d->n; j++) {
        if (sx.radT[j] > radT) radT = sx.radT[j];
        if (sx.rad[j] > rmax) rmax = sx.rad[j];
        if (rel_of(sx.rad[j], sx.size[j]) > rel) rel = rel_of(sx.rad[j], sx.size[j]);
    }
    /* 12 significant digits, rounded up (the radii are upper bounds) */
    up12(radT, "");
    up12(rmax, ",");
    printf(",%.6e,%s", rel, verdict_of(rel));
    for (long j = 0; j < d->n; j++) {
        up12(sx.rad[j], ",");
        up12(sx.radT[j], ",");
        printf(",0");
    }
    for (long k = 0; k < tb->m; k++) {
        up12(sy.rad[k], ",");
        up12(sy.radT[k], ",");
    }
    putchar('\n');
    free(sx.size);
    free(sy.size);
    dvc_tube_clear(tb);
}

/* What each kind states beyond the common lines, and its --csv line: one
 * entry per kind. */
static const struct {
    void (*body)(const dvc_cli_cert *d);
    void (*csv)(const dvc_cli_cert *d);
} kinds[] = {
    [DVC_CERT_KIND_DLVI] = {dlvi_body, dlvi_csv},
    [DVC_CERT_KIND_HYBRID] = {hybrid_body, hybrid_csv},
};

static int run(const dvc_cli_args *a)
{
    const char *in = a->pos[0];
    int verify = dvc_cli_flag(a, "verify"), csv = dvc_cli_flag(a, "csv");
    dvc_cli_cert d;
    dvc_status st;
    double t0 = dvc_cli_now();
    dvc_cli_cert_init(&d);
    d.no_cache = dvc_cli_flag(a, "no-cache");
    st = dvc_cli_cert_read(&d, in, verify);
    if (st == DVC_NOT_CERTIFIED)
        fprintf(csv ? stderr : stdout, "rejected: %s: %s\n", in, dvc_error_message());
    else if (st != DVC_OK)
        fprintf(stderr, "dvicert info: unusable certificate: %s\n", dvc_error_message());
    else if (csv)
        kinds[d.kind].csv(&d);
    if (st != DVC_OK || csv) {
        dvc_cli_cert_clear(&d);
        return dvc_cli_exit_code(st);
    }
    printf("certificate: %s\n", in);
    if (d.name) printf("%s: %s\n", d.what, d.name);
    else printf("%s: (no \"name\" in the %s file)\n", d.what, d.what);
    kinds[d.kind].body(&d);
    if (verify && d.cached) printf("verified: accepted, " DVC_CLI_CACHED "\n");
    else if (verify) printf("verified: accepted (%.2f s)\n", dvc_cli_now() - t0);
    else printf("not verified (the figures are the file's; --verify recomputes them)\n");
    dvc_cli_cert_clear(&d);
    return DVC_EXIT_OK;
}
