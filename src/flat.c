/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The flat interface (include/dvicert/flat.h): thin wrappers over the
 * certificate, tube and trajectory modules for callers without MPFI. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/certio.h"
#include "dvicert/enclose.h"
#include "dvicert/events.h"
#include "dvicert/flat.h"
#include "dvicert/hybrid_cert.h"

/* Either kind of certificate (dvc_cert_file_kind) and its tube: every
 * function below but the claims and write reads the tube alone. */
struct dvc_flat_cert {
    dvc_cert_kind kind;
    dvc_cert_t c;           /* DVC_CERT_KIND_DLVI: the tube is c->tube */
    dvc_hybrid_cert_t hc;   /* DVC_CERT_KIND_HYBRID */
    dvc_tube_t htube;       /* its tube (stated enclosures) */
    dvc_width_t hwidth;     /* how informative htube is */
};

static const dvc_tube_struct *tube_of(const dvc_flat_cert *h)
{
    return h->kind == DVC_CERT_KIND_HYBRID ? h->htube : h->c->tube;
}

int dvc_flat_enclose(const char *problem_path, const char *cert_path, const char *method,
                     const char *from_csv, long prec, long prec_max, int sharpen,
                     int allow_outside_tables)
{
    return dvc_flat_enclose_scale(problem_path, cert_path, method, from_csv, prec, prec_max, sharpen,
                                  allow_outside_tables, NULL);
}

int dvc_flat_enclose_scale(const char *problem_path, const char *cert_path, const char *method,
                           const char *from_csv, long prec, long prec_max, int sharpen,
                           int allow_outside_tables, const char *scale)
{
    dvc_enclose_opts o;
    dvc_enclose_info ch;
    dvc_cert_t c;
    dvc_status st;
    int r;
    if (!problem_path || !cert_path) return dvc_error(DVC_ERR_INPUT, "no problem or certificate path");
    r = method ? dvc_enclose_route_parse(method) : DVC_ENCLOSE_AUTO;
    if (r == -2) return dvc_error(DVC_ERR_INPUT, "method must be auto, chen-wang, lognorm or events, got '%s'", method);
    dvc_enclose_opts_init(&o);
    o.route = (dvc_enclose_route)r;
    o.from = from_csv;
    o.local_beta = sharpen != 0;
    o.prec_max = (mpfr_prec_t)prec_max;
    /* the route of the command's default (enclose.h, dvc_enclose_choose) */
    dvc_enclose_choose(&ch, problem_path, &o);
    if (from_csv && ch.route == DVC_ENCLOSE_CHEN_WANG)
        return dvc_error(DVC_ERR_INPUT, "a trajectory is certified by the lognorm route; "
                         "method chen-wang certifies its own predictor");
    if (scale && strcmp(scale, "auto") != 0 && strcmp(scale, "none") != 0)
        return dvc_error(DVC_ERR_INPUT, "scale must be auto or none, got '%s'", scale);
    o.no_scale = scale && strcmp(scale, "none") == 0;
    if (prec < 0 || prec_max < 0 || (prec > 0 && prec < 24) || prec > 65536 || prec_max > 65536)
        return dvc_error(DVC_ERR_INPUT, "precision must be 0 (the file's) or in [24, 65536] bits");
    o.prec = (mpfr_prec_t)prec;
    if (ch.route == DVC_ENCLOSE_LOGNORM && (sharpen || prec_max > 0))
        return dvc_error(DVC_ERR_INPUT, "%s belongs to the chen-wang route",
                         sharpen ? "sharpen" : "prec_max");
    o.tables.allow_outside = allow_outside_tables != 0;
    dvc_cert_init(c);
    st = dvc_enclose(c, problem_path, &o, cert_path, NULL);
    if (st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT) dvc_error_context(st, "%s: ", problem_path);
    dvc_cert_clear(c);
    return st;
}

/* A hybrid certificate: read, verified when asked, its tube and width. */
static dvc_status open_hybrid(dvc_flat_cert *f, const char *path, int verify)
{
    const dvc_tube_struct *tb = f->htube;
    dvc_status st = dvc_hybrid_cert_read(f->hc, path);
    if (st == DVC_OK && verify) st = dvc_cert_verify_hybrid(f->hc, NULL);
    /* y from the pattern's map for the events route (m > 0) */
    if (st == DVC_OK) st = dvc_dlvi_events_tube(f->htube, f->hc->model, f->hc->res, NULL);
    if (st == DVC_OK) st = dvc_width_start(f->hwidth, tb->n, 0);
    for (long i = 0; st == DVC_OK && i <= tb->N; i++)
        dvc_width_add(f->hwidth, tb->x + i * tb->n, NULL, tb->eps_x[i], tb->eps_y[i]);
    /* a DAE's algebraic variables z (m = nz, docs/dae.md) or an ideal
     * contact's multipliers (m = contacts, docs/ideal_contacts.md) as the
     * tube's y, enclosed from the state enclosures as `dvicert export` does;
     * any other certificate: untouched */
    if (st == DVC_OK) st = dvc_hybrid_cert_tube_y(f->htube, f->hc);
    return st;
}

int dvc_flat_open(dvc_flat_cert **h, const char *cert_path, int verify)
{
    dvc_flat_cert *f;
    dvc_status st;
    *h = NULL;
    if (!cert_path) return dvc_error(DVC_ERR_INPUT, "no certificate path");
    if (!(f = malloc(sizeof *f))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    f->kind = dvc_cert_file_kind(cert_path);
    dvc_cert_init(f->c);
    dvc_hybrid_cert_init(f->hc);
    dvc_tube_init(f->htube);
    dvc_width_init(f->hwidth);
    if (f->kind == DVC_CERT_KIND_HYBRID) {
        st = open_hybrid(f, cert_path, verify);
    } else {
        st = dvc_cert_read(f->c, cert_path);
        if (st == DVC_OK && verify) st = dvc_cert_verify(f->c);
    }
    if (st != DVC_OK) {
        dvc_error_context(st, "%s: ", cert_path);
        dvc_flat_close(f);
        return st;
    }
    *h = f;
    return DVC_OK;
}

void dvc_flat_close(dvc_flat_cert *h)
{
    if (!h) return;
    dvc_cert_clear(h->c);
    dvc_hybrid_cert_clear(h->hc);
    dvc_tube_clear(h->htube);
    dvc_width_clear(h->hwidth);
    free(h);
}

int dvc_flat_kind(const dvc_flat_cert *h) { return (int)h->kind; }

void dvc_flat_dims(const dvc_flat_cert *h, long dims[4])
{
    const dvc_tube_struct *tb = tube_of(h);
    dims[0] = tb->n;
    dims[1] = tb->m;
    dims[2] = tb->N;
    dims[3] = (long)(h->kind == DVC_CERT_KIND_HYBRID ? h->hc->prec : h->c->prec);
}

int dvc_flat_friction(const dvc_flat_cert *h)
{
    return h->kind == DVC_CERT_KIND_HYBRID && dvc_hybrid_cert_friction(h->hc);
}

const char *dvc_flat_problem_json(const dvc_flat_cert *h)
{
    const char *s = h->kind == DVC_CERT_KIND_HYBRID ? h->hc->model_json : h->c->problem_json;
    return s ? s : "";
}

/* Rows of lo/hi edges into double arrays, rounded outward. */
static void put_row(double *lo_out, double *hi_out, long row, long k, mpfr_t *lo, mpfr_t *hi)
{
    for (long j = 0; j < k; j++) {
        if (lo_out) lo_out[row * k + j] = mpfr_get_d(lo[j], MPFR_RNDD);
        if (hi_out) hi_out[row * k + j] = mpfr_get_d(hi[j], MPFR_RNDU);
    }
}

/* The grid points (hull = 0) or the steps (hull = 1) of the tube. */
static int export_rows(const dvc_flat_cert *h, int hull, double *t, double *x_lo, double *x_hi,
                       double *y_lo, double *y_hi)
{
    const dvc_tube_struct *tb = tube_of(h);
    long n = tb->n, m = tb->m, k = n > m ? n : m;
    mpfr_t *lo, *hi;
    if (tb->window != 0 || tb->steps != tb->N)
        return dvc_error(DVC_ERR_INPUT, "the certificate's tube is not held whole");
    lo = dvc_mpfr_array_new(k, tb->prec);
    hi = dvc_mpfr_array_new(k, tb->prec);
    if (!lo || !hi) {
        dvc_mpfr_array_free(lo, lo ? k : 0);
        dvc_mpfr_array_free(hi, hi ? k : 0);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    for (long i = hull ? 1 : 0; i <= tb->N; i++) {
        long row = hull ? i - 1 : i;
        if (t) {
            /* the label of the certificate file: nearest double to i T / N */
            char buf[40];
            dvc_cert_grid_label(buf, tb, i);
            t[row] = strtod(buf, NULL);
        }
        if (x_lo || x_hi) {
            if (hull) dvc_tube_step_hull(lo, hi, tb, i, 0);
            else dvc_tube_grid(lo, hi, tb, i, 0);
            put_row(x_lo, x_hi, row, n, lo, hi);
        }
        if (m > 0 && (y_lo || y_hi)) {
            if (hull) dvc_tube_step_hull(lo, hi, tb, i, 1);
            else dvc_tube_grid(lo, hi, tb, i, 1);
            put_row(y_lo, y_hi, row, m, lo, hi);
        }
    }
    dvc_mpfr_array_free(lo, k);
    dvc_mpfr_array_free(hi, k);
    return DVC_OK;
}

int dvc_flat_grid(const dvc_flat_cert *h, double *t, double *x_lo, double *x_hi, double *y_lo,
                  double *y_hi)
{
    return export_rows(h, 0, t, x_lo, x_hi, y_lo, y_hi);
}

int dvc_flat_hulls(const dvc_flat_cert *h, double *x_lo, double *x_hi, double *y_lo,
                   double *y_hi)
{
    return export_rows(h, 1, NULL, x_lo, x_hi, y_lo, y_hi);
}

int dvc_flat_predictor(const dvc_flat_cert *h, double *x, double *y)
{
    const dvc_tube_struct *tb = tube_of(h);
    if (tb->window != 0) return dvc_error(DVC_ERR_INPUT, "the certificate's tube is not held whole");
    if (x && tb->n > 0) memcpy(x, tb->x, (size_t)((tb->N + 1) * tb->n) * sizeof *x);
    if (y && tb->m > 0) memcpy(y, tb->y, (size_t)((tb->N + 1) * tb->m) * sizeof *y);
    return DVC_OK;
}

int dvc_flat_check(const dvc_flat_cert *h, long ns, const double *t, const double *x,
                   const double *y, double *margins, long counts[4], double worst[3])
{
    const dvc_tube_struct *tb = tube_of(h);
    long n = tb->n, m = y ? tb->m : 0, w = n + m;
    mpfr_prec_t prec = tb->prec + DVC_TRAJ_EXTRA_BITS;
    dvc_traj_t tr;
    dvc_traj_report rep;
    dvc_status st;
    if (ns < 1 || !t || !x) return dvc_error(DVC_ERR_INPUT, "no samples to check");
    for (long s = 0; s < ns; s++) {
        if (!isfinite(t[s])) return dvc_error(DVC_ERR_INPUT, "sample %ld: time is not finite", s);
        for (long k = 0; k < n; k++)
            if (!isfinite(x[s * n + k]))
                return dvc_error(DVC_ERR_INPUT, "sample %ld: x%ld is not finite", s, k + 1);
        for (long k = 0; k < m; k++)
            if (!isfinite(y[s * m + k]))
                return dvc_error(DVC_ERR_INPUT, "sample %ld: y%ld is not finite", s, k + 1);
    }
    dvc_traj_init(tr);
    if ((st = dvc_traj_alloc(tr, ns, n, m, prec)) != DVC_OK) {
        dvc_traj_clear(tr);
        return st;
    }
    for (long s = 0; s < ns; s++) {
        mpfi_set_d(tr->t[s], t[s]);
        for (long k = 0; k < n; k++) mpfi_set_d(tr->v[s * w + k], x[s * n + k]);
        for (long k = 0; k < m; k++) mpfi_set_d(tr->v[s * w + n + k], y[s * m + k]);
    }
    st = dvc_traj_check(&rep, tr, tb, 0);
    if (st == DVC_OK && margins) {
        mpfr_t lo, hi, d;
        mpfr_inits2(prec, lo, hi, d, (mpfr_ptr)0);
        for (long s = 0; s < ns; s++)
            for (long k = 0; k < w; k++) {
                /* the edges and the rounding of dvc_traj_check */
                double a, b;
                dvc_traj_tube_at(lo, hi, tr, s, k, tb);
                mpfr_sub(d, &tr->v[s * w + k]->left, lo, MPFR_RNDD);
                a = mpfr_get_d(d, MPFR_RNDD);
                mpfr_sub(d, hi, &tr->v[s * w + k]->right, MPFR_RNDD);
                b = mpfr_get_d(d, MPFR_RNDD);
                a = a < b ? a : b;
                margins[s * w + k] = a == 0 ? 0 : a;
            }
        mpfr_clears(lo, hi, d, (mpfr_ptr)0);
    }
    if (st == DVC_OK) {
        counts[0] = rep.nviol;
        counts[1] = rep.nviol_samples;
        counts[2] = rep.worst_hit.sample;
        counts[3] = rep.worst_hit.comp;
        worst[0] = rep.worst;
        worst[1] = rep.worst_x;
        worst[2] = rep.worst_y;
    }
    dvc_traj_report_clear(&rep);
    dvc_traj_clear(tr);
    return st;
}

int dvc_flat_claim(const dvc_flat_cert *h, int which, long i, const char **key, const char **text,
                   long long *ival)
{
    /* a hybrid certificate states no claims (its c is empty) */
    const dvc_cert_claims *cl = which ? &h->c->summary : &h->c->method;
    const dvc_cert_claim *e;
    if (i < 0 || i >= cl->n) return -1;
    e = &cl->e[i];
    *key = e->key;
    *text = e->type == DVC_CLAIM_TEXT ? e->text : NULL;
    *ival = e->ival;
    return e->type == DVC_CLAIM_TEXT ? 0 : e->type == DVC_CLAIM_INT ? 1 : 2;
}

int dvc_flat_width(const dvc_flat_cert *h, double *rel_max, double *rel_T)
{
    const dvc_width_struct *w = h->kind == DVC_CERT_KIND_HYBRID ? h->hwidth : h->c->width;
    for (long j = 0; j < w->n; j++) {
        if (rel_max) rel_max[j] = dvc_width_rel(w, j, 0);
        if (rel_T) rel_T[j] = dvc_width_rel(w, j, 1);
    }
    return (int)dvc_width_judge(w, NULL);
}

int dvc_flat_write(const dvc_flat_cert *h, const char *path)
{
    if (!path) return dvc_error(DVC_ERR_INPUT, "no certificate path");
    if (h->kind == DVC_CERT_KIND_HYBRID) return dvc_hybrid_cert_write(h->hc, path);
    return dvc_cert_write(h->c, path);
}
