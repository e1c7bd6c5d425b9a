/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The implicit node OP_ROOT (docs/dae.md section 1.2): z(t, x), the unique
 * zero in a given enclosure Z0 of a constraint g(t, x, z) (one algebraic
 * variable), as a leaf of a compiled program over t and the states.
 * Values by the Krawczyk operator (existence, uniqueness and g_z != 0 over
 * the whole box of (t, x)), tangents by dz = -(g_t dt + g_x dx) / g_z,
 * Taylor coefficients by the implicit function theorem
 * z_k = -G_k / g_z(order 0). The binary64 routes never take the node. */
#include <stdlib.h>
#include <string.h>
#include "expr/taylor_ws.h"

struct dvc_expr_root_s {
    long n;           /* states; g's variables are x1..xn, z */
    dvc_expr_t g;     /* the constraint (its own scratch and Taylor workspace) */
    mpfi_t z0;        /* the initial enclosure */
    char *what;       /* "constraint 0 = g of mode 'M'", for messages */
    dvc_ivec_t V, D;  /* (x, z) and a direction over them */
    mpfi_t t, zero, gz, gm, kz, u, z, gz0;
    mpfr_t c, m;
    mpfi_t **tv;      /* Taylor: the series of t, x1..xn, z */
};

void dvc_expr_root_free_(dvc_expr_struct *e)
{
    struct dvc_expr_root_s *R = e->root;
    if (!R) return;
    dvc_expr_clear(R->g);
    mpfi_clear(R->z0);
    free(R->what);
    dvc_ivec_clear(R->V);
    dvc_ivec_clear(R->D);
    mpfi_ptr iv[] = {R->t, R->zero, R->gz, R->gm, R->kz, R->u, R->z, R->gz0};
    for (size_t j = 0; j < sizeof iv / sizeof iv[0]; j++) mpfi_clear(iv[j]);
    mpfr_clear(R->c);
    mpfr_clear(R->m);
    free(R->tv);
    free(R);
    e->root = NULL;
}

dvc_status dvc_expr_root_make_(dvc_expr_t e, const dvc_expr_t g, const mpfi_t z0, const char *what)
{
    long n = e->nvars - 1;
    mpfr_prec_t p = e->prec;
    if (e->root || n < 0 || g->nvars != n + 1 || g->prec != p)
        return dvc_error(DVC_ERR_INTERNAL, "implicit node: programs over (x, z) expected");
    long uses_z = 0;
    for (long i = 0; i < e->nins; i++) uses_z += e->ins[i].op == OP_VAR && e->ins[i].arg == n + 1;
    if (uses_z) {
        struct dvc_expr_root_s *R = calloc(1, sizeof *R);
        if (!R) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        R->n = n;
        dvc_expr_init2(R->g, p);
        mpfi_init2(R->z0, mpfi_get_prec(z0));
        mpfi_set(R->z0, z0);
        dvc_ivec_init2(R->V, n + 1, p);
        dvc_ivec_init2(R->D, n + 1, p);
        mpfi_ptr iv[] = {R->t, R->zero, R->gz, R->gm, R->kz, R->u, R->z, R->gz0};
        for (size_t j = 0; j < sizeof iv / sizeof iv[0]; j++) mpfi_init2(iv[j], p);
        mpfr_inits2(p, R->c, R->m, (mpfr_ptr)0);
        mpfi_set_ui(R->zero, 0);
        e->root = R;
        R->what = strdup(what);
        R->tv = calloc((size_t)n + 2, sizeof *R->tv);
        dvc_status st = R->what && R->tv ? dvc_expr_copy(R->g, g)
                                         : dvc_error(DVC_ERR_NOMEM, "out of memory");
        if (st != DVC_OK) {
            dvc_expr_root_free_(e);
            return st;
        }
    }
    /* z (variable n + 1) becomes the node; the program is then over t and
     * the states only */
    e->uses_x = 0;
    for (long i = 0; i < e->nins; i++) {
        ins_t *in = &e->ins[i];
        if (in->op == OP_VAR && in->arg == n + 1) *in = (ins_t){OP_ROOT, in->pos, 0};
        else if (in->op == OP_VAR && in->arg > 0) e->uses_x = 1;
    }
    if (uses_z) { /* z(t, x) reads what g reads */
        e->uses_t |= g->uses_t;
        e->uses_x |= g->uses_x;
    }
    free(e->varnames[n]);
    e->varnames[n] = NULL;
    mpfi_clear(e->var[n + 1]);
    mpfi_clear(e->dvar[n + 1]);
    e->nvars = n;
    /* the binary64 routes have no rule for the node: MPFI throughout */
    if (uses_z) dvc_expr_fast_free_(e);
    dvc_expr_taylor_free_(e);
    return DVC_OK;
}

static dvc_status fail(const dvc_expr_struct *e, const char *why)
{
    char *ts = dvc_ival_str(e->root->t, 17), *zs = dvc_ival_str(e->root->z0, 17);
    dvc_status st = dvc_error(DVC_NOT_CERTIFIED, "in '%s': the algebraic variable of %s is not "
                              "proven to be the unique zero in z_range %s at t in %s (%s)",
                              e->text, e->root->what, zs ? zs : "?", ts ? ts : "?", why);
    free(ts);
    free(zs);
    return st;
}

/* g_z over (t, x, z) = (R->t, R->V): R->gz. */
static dvc_status g_z(struct dvc_expr_root_s *R, mpfi_srcptr z)
{
    for (long i = 0; i <= R->n; i++) mpfi_set_ui(R->D->e[i], i == R->n ? 1 : 0);
    mpfi_set(R->V->e[R->n], z);
    return dvc_expr_eval_tangent(NULL, R->gz, R->g, R->t, R->V, R->zero, R->D);
}

/* R->z <- the zero of g(t, x, .) in Z0 for every (t, x) of the box (R->t,
 * R->V's x): Krawczyk K(Z) = m - g(m)/c + (1 - g_z(Z)/c)(Z - m), m = mid Z,
 * c = mid g_z(Z). Every zero in Z lies in K(Z), so Z <- K(Z) & Z keeps
 * them all; K(Z) inside the interior of Z proves exactly one zero in Z
 * (hence in Z0) for each point of the box and |1 - g_z/c| < 1 there, so
 * g_z != 0 over the box. No proof: DVC_NOT_CERTIFIED. */
static dvc_status krawczyk(const dvc_expr_struct *e)
{
    struct dvc_expr_root_s *R = e->root;
    int proven = 0;
    dvc_status st = DVC_OK;
    mpfi_set(R->z, R->z0);
    for (int it = 0; it < 60; it++) {
        if ((st = g_z(R, R->z)) != DVC_OK) return st;
        mpfi_mid(R->c, R->gz);
        if (mpfr_zero_p(R->c)) return fail(e, "g_z has midpoint 0 over the enclosure");
        mpfi_mid(R->m, R->z);
        mpfi_set_fr(R->V->e[R->n], R->m);
        if ((st = dvc_expr_eval_x(R->gm, R->g, R->t, R->V)) != DVC_OK) return st;
        mpfi_div_fr(R->u, R->gz, R->c); /* 1 - g_z(Z)/c */
        mpfi_ui_sub(R->u, 1, R->u);
        mpfi_sub_fr(R->kz, R->z, R->m); /* (Z - m) */
        mpfi_mul(R->u, R->u, R->kz);
        mpfi_div_fr(R->gm, R->gm, R->c);
        mpfi_fr_sub(R->kz, R->m, R->gm);
        mpfi_add(R->kz, R->kz, R->u);
        if (!dvc_ival_is_finite(R->kz)) return fail(e, "the Krawczyk operator is unbounded");
        int inside = mpfr_cmp(&R->kz->left, &R->z->left) > 0 &&
                     mpfr_cmp(&R->kz->right, &R->z->right) < 0;
        mpfr_sub(R->m, &R->z->right, &R->z->left, MPFR_RNDU); /* old width */
        mpfi_intersect(R->kz, R->kz, R->z);
        if (mpfi_is_empty(R->kz)) return fail(e, "no zero in the enclosure");
        mpfi_set(R->z, R->kz);
        proven |= inside;
        /* proven: tighten while the width still shrinks by 1/16 or more */
        mpfr_sub(R->c, &R->z->right, &R->z->left, MPFR_RNDU);
        mpfr_mul_ui(R->c, R->c, 16, MPFR_RNDU);
        mpfr_mul_ui(R->m, R->m, 15, MPFR_RNDU);
        if (proven && (mpfr_cmp(R->c, R->m) >= 0 || mpfr_zero_p(R->c))) break;
    }
    return proven ? DVC_OK : fail(e, "the Krawczyk operator does not map the enclosure into its "
                                     "interior: no zero, several, or g_z vanishes there");
}

dvc_status dvc_expr_root_eval_(dvc_expr_struct *e, mpfi_ptr v, mpfi_ptr d)
{
    struct dvc_expr_root_s *R = e->root;
    dvc_status st;
    if (!R) return dvc_error(DVC_ERR_INTERNAL, "implicit node without its constraint");
    mpfi_set(R->t, e->var[0]);
    for (long i = 0; i < R->n; i++) mpfi_set(R->V->e[i], e->var[i + 1]);
    if ((st = krawczyk(e)) != DVC_OK) return st;
    mpfi_set(v, R->z);
    if (!d) return DVC_OK;
    /* dz = -(g_t dt + g_x dx) / g_z over (T, X, z-enclosure) */
    if ((st = g_z(R, R->z)) != DVC_OK) return st;
    if (mpfi_has_zero(R->gz)) return fail(e, "g_z contains 0 over the enclosure");
    for (long i = 0; i <= R->n; i++) mpfi_set(R->D->e[i], i < R->n ? e->dvar[i + 1] : R->zero);
    st = dvc_expr_eval_tangent(NULL, R->u, R->g, R->t, R->V, e->dvar[0], R->D);
    if (st != DVC_OK) return st;
    mpfi_div(d, R->u, R->gz);
    mpfi_neg(d, d);
    return DVC_OK;
}

dvc_status dvc_expr_root_taylor_(const dvc_expr_struct *e, mpfi_t *r, mpfi_t *const *vars, long k,
                                 long cap)
{
    struct dvc_expr_root_s *R = e->root;
    dvc_status st;
    if (!R) return dvc_error(DVC_ERR_INTERNAL, "implicit node without its constraint");
    for (long i = 0; i <= R->n; i++) R->tv[i] = vars[i];
    R->tv[R->n + 1] = r;
    if (k == 0) {
        /* z_0 over the expansion box (a box: every point of it), g_z there */
        mpfi_set(R->t, vars[0][0]);
        for (long i = 0; i < R->n; i++) mpfi_set(R->V->e[i], vars[i + 1][0]);
        if ((st = krawczyk(e)) != DVC_OK) return st;
        mpfi_set(r[0], R->z);
        if ((st = g_z(R, R->z)) != DVC_OK) return st;
        if (mpfi_has_zero(R->gz)) return fail(e, "g_z contains 0 over the enclosure");
        mpfi_set(R->gz0, R->gz);
        if ((st = dvc_expr_taylor_begin_(R->g, cap)) != DVC_OK) return st;
        R->g->taylor->dd_on = 0; /* coefficient k is computed twice below */
        return dvc_expr_taylor_next_(R->gm, R->g, R->tv, 0);
    }
    /* coefficient k of g(t(s), x(s), z(s)) = 0 is G_k + g_z(order 0) z_k,
     * G_k the coefficient with z_k = 0; then again with the true z_k so
     * that g's stored coefficients k are those of the true series */
    mpfi_set_ui(r[k], 0);
    if ((st = dvc_expr_taylor_next_(R->gm, R->g, R->tv, k)) != DVC_OK) return st;
    mpfi_div(r[k], R->gm, R->gz0);
    mpfi_neg(r[k], r[k]);
    if (!dvc_ival_is_finite(r[k]))
        return fail(e, "a Taylor coefficient is unbounded");
    return dvc_expr_taylor_next_(R->gm, R->g, R->tv, k);
}
