/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The lognorm route: the piece Jacobians J_D = A + B G_D Q of F(t, .) and
 * their slots, or their interval hull beyond DVC_LOGNORM_M_MAX
 * (docs/lognorm.md sections 1, 2). */
#include "dlvi/lognorm_internal.h"

#include <stdlib.h>
#include <string.h>

void dvc_lognorm_jac_clear_(dvc_lognorm_jac *J)
{
    for (long k = 0; k < J->cap; k++) {
        dvc_imat_clear(J->J[k]);
        dvc_imat_clear(J->G[k]);
    }
    if (J->cap > 0) dvc_imat_clear(J->Jh);
    free(J->J);
    free(J->G);
    free(J->Jd);
    free(J->key);
    memset(J, 0, sizeof *J);
}

/* Slot k <- the piece with free set bits: G_F = -E_F (M_FF)^{-1} E_F^T (the
 * Jacobian of S on the pieces with free set F) and J_F = A + B G_F Q. */
static dvc_status jac_fill(dvc_lognorm_jac *J, long k, long bits)
{
    const dvc_dlvi_problem_struct *p = J->p;
    long n = J->n, m = J->m, nf = 0, *idx = NULL;
    mpfr_prec_t prec = mpfr_get_prec(&dvc_imat_entry(J->J[k], 0, 0)->left);
    dvc_status st = DVC_OK;
    J->key[k] = bits;
    dvc_imat_zero(J->G[k]);
    if (m > 0 && (idx = malloc((size_t)m * sizeof(long))) == NULL)
        return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory");
    for (long a = 0; a < m; a++)
        if (bits >> a & 1) idx[nf++] = a;
    if (nf > 0) {
        dvc_imat_t Mf, Mi, BG;
        dvc_imat_init2(Mf, nf, nf, prec);
        dvc_imat_init2(Mi, nf, nf, prec);
        dvc_imat_init2(BG, n, m, prec);
        dvc_imat_submatrix(Mf, p->M, idx, nf, idx, nf);
        st = dvc_imat_inv(Mi, Mf);
        if (st != DVC_OK) {
            st = dvc_error_context(st, "lognorm: inverse of M on the free set %#lx: ", bits);
        } else {
            for (long a = 0; a < nf; a++)
                for (long b = 0; b < nf; b++)
                    mpfi_neg(dvc_imat_entry(J->G[k], idx[a], idx[b]), dvc_imat_entry(Mi, a, b));
            dvc_imat_mul(BG, p->B, J->G[k]);
            dvc_imat_mul(J->J[k], BG, p->Q);
            dvc_imat_add(J->J[k], J->J[k], p->A);
        }
        dvc_imat_clear(Mf);
        dvc_imat_clear(Mi);
        dvc_imat_clear(BG);
    } else {
        dvc_imat_set(J->J[k], p->A);
    }
    free(idx);
    if (st == DVC_OK && !dvc_imat_is_finite(J->J[k]))
        st = dvc_error(DVC_NOT_CERTIFIED, "lognorm: Jacobian of the piece %#lx is not finite", bits);
    if (st == DVC_OK) dvc_imat_mid_d(J->Jd + k * n * n, J->J[k]);
    return st;
}

/* Jh encloses A - B X(d) Q for every d in [0,1]^m, X(d) = (I - D + D M)^{-1} D
 * (docs/lognorm.md section 2): an interval inverse of I + [D](M - I) with
 * [D] = diag([0, 1]), times [D]. It contains every J_F (d = 1_F). */
static dvc_status jac_hull(dvc_lognorm_jac *J, mpfr_prec_t prec)
{
    const dvc_dlvi_problem_struct *p = J->p;
    long n = J->n, m = J->m;
    dvc_imat_t Ad, Ai, X, BX;
    dvc_status st;
    mpfi_t d;
    dvc_imat_init2(Ad, m, m, prec);
    dvc_imat_init2(Ai, m, m, prec);
    dvc_imat_init2(X, m, m, prec);
    dvc_imat_init2(BX, n, m, prec);
    mpfi_init2(d, prec);
    mpfi_interv_si(d, 0, 1);
    for (long i = 0; i < m; i++)
        for (long j = 0; j < m; j++) {
            mpfi_ptr e = dvc_imat_entry(Ad, i, j);
            mpfi_sub_ui(e, dvc_imat_entry(p->M, i, j), i == j ? 1 : 0);
            mpfi_mul(e, e, d);
            if (i == j) mpfi_add_ui(e, e, 1);
        }
    st = dvc_imat_inv(Ai, Ad);
    if (st != DVC_OK) {
        st = dvc_error(DVC_NOT_CERTIFIED, "lognorm: m = %ld > %d: the interval hull of the piece Jacobians "
                       "could not be enclosed ((I - D + D M)^{-1} over D in [0,1]^m)", m, DVC_LOGNORM_M_MAX);
    } else {
        for (long i = 0; i < m; i++)
            for (long j = 0; j < m; j++) mpfi_mul(dvc_imat_entry(X, i, j), dvc_imat_entry(Ai, i, j), d);
        dvc_imat_mul(BX, p->B, X);
        dvc_imat_mul(J->Jh, BX, p->Q);
        dvc_imat_sub(J->Jh, p->A, J->Jh);
        if (!dvc_imat_is_finite(J->Jh))
            st = dvc_error(DVC_NOT_CERTIFIED, "lognorm: the interval hull of the piece Jacobians is not finite");
    }
    dvc_imat_clear(Ad);
    dvc_imat_clear(Ai);
    dvc_imat_clear(X);
    dvc_imat_clear(BX);
    mpfi_clear(d);
    return st;
}

/* Every pattern (m <= DVC_LOGNORM_M_MAX), or the hull and the patterns
 * with no and with every y free as the first slots (m beyond). */
dvc_status dvc_lognorm_jac_init_(dvc_lognorm_jac *J, const dvc_dlvi_problem_struct *p, mpfr_prec_t prec)
{
    long n = p->n, m = p->m, cap;
    dvc_status st = DVC_OK;
    memset(J, 0, sizeof *J);
    if (m > 62) return dvc_error(DVC_NOT_CERTIFIED, "lognorm: m = %ld complementarity pairs: at most 62", m);
    cap = m <= DVC_LOGNORM_M_MAX ? 1L << m : DVC_LOGNORM_SLOTS;
    J->n = n;
    J->m = m;
    J->p = p;
    J->hull = m > DVC_LOGNORM_M_MAX;
    J->J = calloc((size_t)cap, sizeof(dvc_imat_t));
    J->G = calloc((size_t)cap, sizeof(dvc_imat_t));
    J->Jd = calloc((size_t)(cap * n * n), sizeof(double));
    J->key = calloc((size_t)cap, sizeof(long));
    if (!J->J || !J->G || !J->Jd || !J->key) {
        free(J->J);
        free(J->G);
        free(J->Jd);
        free(J->key);
        memset(J, 0, sizeof *J);
        return dvc_error(DVC_ERR_NOMEM, "lognorm: out of memory for %ld patterns", cap);
    }
    J->cap = cap;
    for (long k = 0; k < cap; k++) {
        dvc_imat_init2(J->J[k], n, n, prec);
        dvc_imat_init2(J->G[k], m > 0 ? m : 1, m > 0 ? m : 1, prec);
    }
    dvc_imat_init2(J->Jh, n, n, prec);
    if (!J->hull) {
        J->npat = cap;
        for (long k = 0; k < cap && st == DVC_OK; k++) st = jac_fill(J, k, k);
        if (st == DVC_OK) {
            dvc_imat_set(J->Jh, J->J[0]);
            for (long k = 1; k < cap; k++)
                for (long e = 0; e < n * n; e++) mpfi_union(J->Jh->e[e], J->Jh->e[e], J->J[k]->e[e]);
        }
    } else {
        st = jac_hull(J, prec);
        if (st == DVC_OK) st = jac_fill(J, 0, 0);
        if (st == DVC_OK) st = jac_fill(J, 1, (long)((1UL << m) - 1));
        if (st == DVC_OK) J->npat = 2;
    }
    if (st != DVC_OK) dvc_lognorm_jac_clear_(J);
    return st;
}

long dvc_lognorm_jac_slot_(dvc_lognorm_jac *J, long bits)
{
    if (bits < 0) return -1;
    if (!J->hull) return bits < J->npat ? bits : -1;
    for (long k = 0; k < J->npat; k++)
        if (J->key[k] == bits) return k;
    if (J->npat >= J->cap) return -1;
    if (jac_fill(J, J->npat, bits) != DVC_OK) {
        dvc_error_reset();
        return -1;
    }
    return J->npat++;
}
