/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The contact multipliers of an ideal-contact certificate (docs/
 * ideal_contacts.md): the LCS's y (a diode's current), enclosed on reading
 * from the stated state enclosures, never stored. In the translation the
 * field of a mode sliding on face j is F0 + B_j y_j and that of the mode on
 * its side w_j < 0 is F0 + B_j K, where F0 is the field of the mode on the
 * side w_j > 0 (the other terms as in the sliding mode). So
 *     y_j = K (F_slide - F_free)_i / (F_minus - F_free)_i
 * for a component i where B_j K is proven nonzero; off the faces y = 0.
 * Each field is the engine's enclosure over the state box and the time
 * interval (dvc_hybrid_field), so the quotient encloses y over them. */
#include <stdlib.h>
#include <string.h>

#include "io/hybrid_tube_y.h"
#include "dvicert/lcs_cert.h"
#include "io/hybrid_json.h"
#include <jansson.h>

/* The mode of m whose sides are those of mode md with term j set to s, or
 * -1. */
static long sibling(const dvc_hybrid_model_struct *m, long md, long j, int s)
{
    const int *a = m->modes[md].sides;
    for (long k = 0; k < m->nmodes; k++) {
        const int *b = m->modes[k].sides;
        int same = b != NULL;
        for (long l = 0; same && l < m->ncontacts; l++) same = l == j ? b[l] == s : b[l] == a[l];
        if (same) return k;
    }
    return -1;
}

/* Compare the smallest magnitudes of a and b (mpfi_mig). */
static int cmp_mig(const mpfi_t a, const mpfi_t b)
{
    mpfr_t x, y;
    int r;
    mpfr_inits2(mpfi_get_prec(a) > mpfi_get_prec(b) ? mpfi_get_prec(a) : mpfi_get_prec(b), x, y, (mpfr_ptr)0);
    mpfi_mig(x, a);
    mpfi_mig(y, b);
    r = mpfr_cmp(x, y);
    mpfr_clears(x, y, (mpfr_ptr)0);
    return r;
}

typedef struct {
    const dvc_hybrid_model_struct *m;
    long n, nc;
    mpfi_t K, q, d;
    dvc_ivec_t Fs, Ff, Fm;
} cy_t;

/* Y[j] (nc entries) joined with y over X, t in T for mode md: 0 off the
 * faces. DVC_ERR_INPUT when the mode slides on two faces or its siblings
 * are missing, or B_j K is not proven nonzero in any component. */
static dvc_status mode_y(cy_t *c, mpfi_t *Y, int *first, long md, const mpfi_t T, const dvc_ivec_t X)
{
    const dvc_hybrid_model_struct *m = c->m;
    long j = -1, best = -1;
    dvc_status st;
    for (long l = 0; l < m->ncontacts; l++)
        if (m->modes[md].sides && m->modes[md].sides[l] == 2) {
            if (j >= 0) return dvc_error(DVC_ERR_INPUT, "a mode slides on two faces");
            j = l;
        }
    if (j < 0) { /* off the faces: y = 0 */
        for (long l = 0; l < c->nc; l++) {
            if (*first) mpfi_set_ui(Y[l], 0);
            else mpfi_put_ui(Y[l], 0);
        }
        *first = 0;
        return DVC_OK;
    }
    {
        long free_md = sibling(m, md, j, 1), minus_md = sibling(m, md, j, -1);
        if (free_md < 0 || minus_md < 0) return dvc_error(DVC_ERR_INPUT, "a side mode is missing");
        if ((st = dvc_hybrid_field(c->Fs, m, md, T, X)) != DVC_OK ||
            (st = dvc_hybrid_field(c->Ff, m, free_md, T, X)) != DVC_OK ||
            (st = dvc_hybrid_field(c->Fm, m, minus_md, T, X)) != DVC_OK)
            return st;
    }
    /* the component where B_j K is farthest from 0 */
    for (long i = 0; i < c->n; i++) {
        mpfi_sub(c->d, c->Fm->e[i], c->Ff->e[i]);
        if (mpfi_has_zero(c->d)) continue;
        if (best < 0) best = i;
        else {
            mpfi_sub(c->q, c->Fm->e[best], c->Ff->e[best]);
            if (cmp_mig(c->d, c->q) > 0) best = i;
        }
    }
    if (best < 0) return dvc_error(DVC_ERR_INPUT, "B K not proven nonzero");
    mpfi_sub(c->d, c->Fm->e[best], c->Ff->e[best]);
    mpfi_sub(c->q, c->Fs->e[best], c->Ff->e[best]);
    mpfi_mul(c->q, c->q, c->K);
    mpfi_div(c->q, c->q, c->d);
    for (long l = 0; l < c->nc; l++) {
        if (l == j) {
            if (*first) mpfi_set(Y[l], c->q);
            else mpfi_union(Y[l], Y[l], c->q);
        } else if (*first) {
            mpfi_set_ui(Y[l], 0);
        } else {
            mpfi_put_ui(Y[l], 0);
        }
    }
    *first = 0;
    return DVC_OK;
}

/* Y joined with the outputs of mode md over T x X (the first call sets Y). */
typedef dvc_status (*mode_fn)(void *ctx, mpfi_t *Y, int *first, long md, const mpfi_t T,
                              const dvc_ivec_t X);

static dvc_status contact_mode(void *ctx, mpfi_t *Y, int *first, long md, const mpfi_t T,
                               const dvc_ivec_t X)
{
    return mode_y(ctx, Y, first, md, T, X);
}

/* Y over t in T, x in X for the modes the solution may follow there: mode
 * md and those either side of every event whose time meets T. */
static dvc_status span_y(mode_fn fn, void *ctx, mpfi_t *Y, const dvc_hybrid_result_struct *r, long md,
                         const mpfi_t T, const dvc_ivec_t X)
{
    int first = 1;
    dvc_status st = md >= 0 ? fn(ctx, Y, &first, md, T, X) : DVC_OK;
    for (long k = 0; st == DVC_OK && k < r->nevents; k++) {
        if (mpfr_cmp(&r->ev[k].t->right, &T->left) < 0 || mpfr_cmp(&r->ev[k].t->left, &T->right) > 0)
            continue;
        st = fn(ctx, Y, &first, r->ev[k].mode_before, T, X);
        if (st == DVC_OK) st = fn(ctx, Y, &first, r->ev[k].mode_after, T, X);
    }
    return st;
}

/* n intervals at precision p, or NULL. */
static mpfi_t *ivals(long n, mpfr_prec_t p)
{
    mpfi_t *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    for (long k = 0; v && k < n; k++) mpfi_init2(v[k], p);
    return v;
}

static void ivals_free(mpfi_t *v, long n)
{
    for (long k = 0; v && k < n; k++) mpfi_clear(v[k]);
    free(v);
}

/* tb given ny outputs as enclosures, from fn over the grid points and the
 * steps of hc's result: grid point i with the modes of the steps either
 * side and of the events there; step i with its mode and those of the
 * events meeting it. Installed only when whole. */
static dvc_status fill_y(dvc_tube_t tb, const dvc_hybrid_result_struct *r, long ny, mode_fn fn,
                         void *ctx)
{
    long N = r->nsteps;
    mpfr_prec_t p = tb->prec;
    dvc_status st = DVC_OK;
    mpfi_t *yg = ivals((N + 1) * ny, p), *ys = ivals(N * ny, p), *Z = ivals(ny, p), T;
    mpfi_init2(T, p);
    if (!yg || !ys || !Z) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; st == DVC_OK && i <= N; i++) {
        mpfi_t *Y = yg + i * ny;
        mpfi_set_fr(T, r->t[i]);
        st = span_y(fn, ctx, Y, r, i < N ? r->mode[i] : r->mode[i - 1], T, r->x[i]);
        if (st == DVC_OK && i > 0 && i < N && r->mode[i - 1] != r->mode[i]) {
            st = span_y(fn, ctx, Z, r, r->mode[i - 1], T, r->x[i]);
            for (long l = 0; st == DVC_OK && l < ny; l++) mpfi_union(Y[l], Y[l], Z[l]);
        }
    }
    for (long i = 0; st == DVC_OK && i < N; i++) {
        mpfr_set(&T->left, r->t[i], MPFR_RNDD);
        mpfr_set(&T->right, r->t[i + 1], MPFR_RNDU);
        st = span_y(fn, ctx, ys + i * ny, r, r->mode[i], T, r->box[i]);
    }
    /* installed only when whole: no y rather than a partial one */
    if (st == DVC_OK) st = dvc_tube_set_yboxes(tb, ny);
    if (st == DVC_OK) {
        for (long k = 0; k < (N + 1) * ny; k++) {
            mpfi_set(tb->yg[k], yg[k]);
            tb->y[k] = dvc_ival_mid_d(yg[k]); /* the curve drawn between the bounds */
        }
        for (long k = 0; k < N * ny; k++) mpfi_set(tb->ys[k], ys[k]);
    }
    ivals_free(yg, yg ? (N + 1) * ny : 0);
    ivals_free(ys, ys ? N * ny : 0);
    ivals_free(Z, Z ? ny : 0);
    mpfi_clear(T);
    return st;
}

/* The algebraic variables of a DAE mode (src/hybrid/dae.c): z(t, x). */
typedef struct {
    const dvc_hybrid_model_struct *m;
    dvc_ivec_t Z;
} dz_t;

static dvc_status dae_mode(void *ctx, mpfi_t *Y, int *first, long md, const mpfi_t T,
                           const dvc_ivec_t X)
{
    dz_t *d = ctx;
    dvc_status st = dvc_hybrid_dae_z(d->Z, d->m, md, T, X);
    for (long j = 0; st == DVC_OK && j < d->m->nz; j++) {
        if (*first) mpfi_set(Y[j], d->Z->e[j]);
        else mpfi_union(Y[j], Y[j], d->Z->e[j]);
    }
    if (st == DVC_OK) *first = 0;
    return st;
}

/* The y evaluator of a DAE's tube (ctx: the tube): z of the modes the
 * solution may follow over t (those of the steps met and of the events
 * met) on the tube's own x evaluation, the hybrid flow of a recomputed
 * result (dvc_hybrid_tube's evaluator, whose context names the model and
 * the result), as tight between grid points as at them. */
static dvc_status dae_yeval(dvc_ivec_t Y, const void *ctx, const mpfi_t t)
{
    const dvc_tube_struct *tb = ctx;
    const dvc_hybrid_flow_ref *f = tb->eval_ctx;
    const dvc_hybrid_result_struct *r = f->r;
    long N = r->nsteps, i = 0;
    int first = 1;
    dz_t d = {f->m, {{0}}};
    dvc_ivec_t X, S;
    dvc_status st;
    dvc_ivec_init2(X, f->m->n, tb->prec);
    dvc_ivec_init2(S, f->m->nz, tb->prec);
    dvc_ivec_init2(d.Z, f->m->nz, tb->prec);
    st = tb->eval(X, tb->eval_ctx, t);
    /* the last step starting at or before t (bisection: a sample costs log N) */
    for (long lo = 0, hi = N - 1; lo <= hi;) {
        long mid = lo + (hi - lo) / 2;
        if (mpfr_cmp(r->t[mid], &t->left) <= 0) {
            i = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    /* every step met by t */
    for (; st == DVC_OK && i < N && mpfr_cmp(r->t[i], &t->right) <= 0; i++) {
        st = span_y(dae_mode, &d, S->e, r, r->mode[i], t, X);
        for (long j = 0; st == DVC_OK && j < f->m->nz; j++) {
            if (first) mpfi_set(Y->e[j], S->e[j]);
            else mpfi_union(Y->e[j], Y->e[j], S->e[j]);
        }
        first = 0;
    }
    if (st == DVC_OK && first) st = dvc_error(DVC_ERR_INPUT, "time outside the tube");
    dvc_ivec_clear(X);
    dvc_ivec_clear(S);
    dvc_ivec_clear(d.Z);
    return st;
}

dvc_status dvc_hybrid_cert_tube_y(dvc_tube_t tb, const dvc_hybrid_cert_struct *hc)
{
    const dvc_hybrid_model_struct *m = hc->model;
    const dvc_hybrid_result_struct *r = hc->res;
    long nc = m->ncontacts, N = r->nsteps;
    mpfr_prec_t p = tb->prec;
    dvc_status st = DVC_OK;
    cy_t c;
    if (m->nz > 0 && tb->m == 0 && tb->N == N) { /* a DAE: its algebraic variables */
        dz_t d = {m, {{0}}};
        dvc_ivec_init2(d.Z, m->nz, p);
        st = fill_y(tb, r, m->nz, dae_mode, &d);
        dvc_ivec_clear(d.Z);
        /* with the flow of a recomputed result: z as tight as x between grid points */
        if (st == DVC_OK && tb->eval && tb->eval_ctx) dvc_tube_set_yeval(tb, dae_yeval, tb);
        return st;
    }
    if (!dvc_lcs_cert_is_lcs(hc) || nc < 1 || tb->m != 0 || tb->N != N) return DVC_OK;
    memset(&c, 0, sizeof c);
    mpfi_init2(c.K, p);
    {
        /* K as the certificate states it ("lcs": {"K": "64", ...}) */
        json_t *root = json_loads(hc->model_json, 0, NULL);
        const char *ks = json_string_value(json_object_get(json_object_get(root, "lcs"), "K"));
        if (!ks || mpfi_set_str(c.K, ks, 10) != 0) st = dvc_error(DVC_ERR_INPUT, "no contact constant K");
        json_decref(root);
    }
    c.m = m;
    c.n = m->n;
    c.nc = nc;
    mpfi_init2(c.q, p);
    mpfi_init2(c.d, p);
    dvc_ivec_init2(c.Fs, c.n, p);
    dvc_ivec_init2(c.Ff, c.n, p);
    dvc_ivec_init2(c.Fm, c.n, p);
    if (st == DVC_OK) st = fill_y(tb, r, nc, contact_mode, &c);
    dvc_ivec_clear(c.Fs);
    dvc_ivec_clear(c.Ff);
    dvc_ivec_clear(c.Fm);
    mpfi_clear(c.q);
    mpfi_clear(c.d);
    mpfi_clear(c.K);
    return st;
}

const char *dvc_hybrid_event_word_(int friction, dvc_hybrid_event_kind k)
{
    /* Filippov's words for a general sliding motion; for dry friction the
     * sliding motion on h = 0 (zero relative velocity) is sticking */
    if (friction && k == DVC_HYB_EV_ENTER_SLIDE) return "stick";
    if (friction && k == DVC_HYB_EV_LEAVE_SLIDE) return "slip";
    return dvc_hybrid_event_kind_name(k);
}
