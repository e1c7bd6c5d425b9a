/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Ideal contacts (docs/ideal_contacts.md), the mathematics of the route on
 * a DLVI problem in memory (no file format here: src/io/lcs_json.c reads
 * the problem and writes the translated model into the certificate):
 * the class (M = 0, l = 0, u = +inf, at most DVC_LCS_MAX contacts), the
 * proof that Q B is a P-matrix (relative degree one), the initial mode
 * from w0 = Q x0 + g(0), the engine's step; and, after the run, that the
 * certified Filippov run of the translated model is the LCS solution: it
 * never enters the region w < 0, where the auxiliary value y = K would
 * act. */
#include <stdio.h>
#include <string.h>
#include "dvicert/lcs.h"
#include "dvicert/error.h"
#include "dvicert/mclass.h"

static int ival_is_zero(const mpfi_t x)
{
    return mpfr_zero_p(&x->left) && mpfr_zero_p(&x->right);
}

const char *dvc_lcs_term_name(char *buf, size_t len, long m, long j)
{
    if (m == 1) snprintf(buf, len, "contact");
    else snprintf(buf, len, "contact%ld", j + 1);
    return buf;
}

dvc_status dvc_lcs_check_class(const dvc_dlvi_problem_t p, const char *file)
{
    long m = p->m;
    if (m > DVC_LCS_MAX)
        return dvc_error(DVC_ERR_INPUT, "%s: field 'M': M = 0 (ideal contacts) is supported for at "
                         "most %d contacts, got m = %ld", file, DVC_LCS_MAX, m);
    for (long j = 0; j < m; j++)
        if (!ival_is_zero(p->l->e[j]) || !mpfr_inf_p(&p->u->e[j]->left) ||
            mpfr_sgn(&p->u->e[j]->left) < 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field '%s' entry %ld: M = 0 (ideal contacts) "
                             "requires l = 0 and u = inf (0 <= y _|_ Q x + g >= 0); other bounds "
                             "are not supported", file, ival_is_zero(p->l->e[j]) ? "u" : "l", j + 1);
    return DVC_OK;
}

/* relative degree one: Q B a P-matrix (m = 1: Q B > 0), proven over the
 * enclosures of Q and B; a zero diagonal entry is relative degree two */
static dvc_status prove_p(const dvc_dlvi_problem_t p, const char *file)
{
    long m = p->m;
    dvc_imat_t QB;
    dvc_status st = DVC_OK;
    dvc_imat_init2(QB, m, m, p->prec);
    dvc_imat_mul(QB, p->Q, p->B);
    for (long j = 0; st == DVC_OK && j < m; j++) {
        mpfi_ptr d = QB->e[j * m + j];
        if (ival_is_zero(d))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'B': (Q B)_%ld%ld = 0: relative degree two "
                           "(impacts, velocity jumps) is out of scope; M = 0 is supported when Q B "
                           "is a P-matrix", file, j + 1, j + 1);
        else if (mpfr_sgn(&d->right) <= 0)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'B': %s <= 0: not a P-matrix, the "
                           "complementarity system with M = 0 has no sliding solution on the face "
                           "(Q x + g)_%ld = 0 (Q B a P-matrix needed)", file,
                           m == 1 ? "Q B" : "a diagonal entry of Q B", j + 1);
        else if (!dvc_ival_is_pos(d))
            st = m == 1 ? dvc_error(DVC_NOT_CERTIFIED, "%s: field 'B': Q B > 0 could not be proven "
                                    "(its enclosure contains 0); try a higher --prec", file)
                        : dvc_error(DVC_NOT_CERTIFIED, "%s: field 'B': (Q B)_%ld%ld > 0 could not "
                                    "be proven (its enclosure contains 0); try a higher --prec",
                                    file, j + 1, j + 1);
    }
    if (st == DVC_OK && m > 1) {
        dvc_mclass_result cr;
        const char *how = NULL;
        if (dvc_mclass_prove_p(QB, &how) != DVC_OK) {
            dvc_mclass_classify(&cr, QB);
            st = dvc_error((cr.disproven & DVC_MCLASS_P) ? DVC_ERR_INPUT : DVC_NOT_CERTIFIED,
                           "%s: field 'B': Q B is %s a P-matrix (%s); M = 0 is supported when Q B "
                           "is a P-matrix", file, (cr.disproven & DVC_MCLASS_P) ? "not" : "not proven",
                           cr.p_detail);
        }
    }
    dvc_imat_clear(QB);
    return st;
}

/* the start: w0 = Q x0 + g(0) decides the initial mode (one face at most) */
static dvc_status start_sides(int *sides0, const dvc_dlvi_problem_t p, const char *file)
{
    long m = p->m, zeros = 0;
    dvc_ivec_t g;
    mpfi_t w0, t0, tmp;
    dvc_status st = DVC_OK;
    mpfi_init2(w0, p->prec);
    mpfi_init2(t0, p->prec);
    mpfi_init2(tmp, p->prec);
    dvc_ivec_init2(g, m, p->prec);
    mpfi_set_si(t0, 0);
    if (p->gcb.eval) st = p->gcb.eval(g, t0, p->gcb.ctx);
    for (long j = 0; st == DVC_OK && j < m; j++) {
        mpfi_set(w0, g->e[j]);
        for (long i = 0; i < p->n; i++) {
            mpfi_mul(tmp, p->Q->e[j * p->n + i], p->x0->e[i]);
            mpfi_add(w0, w0, tmp);
        }
        if (dvc_ival_is_neg(w0))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'x0': (Q x0 + g)_%ld < 0: the initial state "
                           "violates the constraint (a jump would be needed; not supported)",
                           file, j + 1);
        else if (!dvc_ival_is_pos(w0) && !ival_is_zero(w0))
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'x0': the sign of (Q x0 + g)_%ld is not "
                           "decided (neither proven > 0 nor exactly 0)", file, j + 1);
        else if (ival_is_zero(w0) && ++zeros > 1)
            st = dvc_error(DVC_ERR_INPUT, "%s: field 'x0': several constraints active at t = 0: "
                           "several contacts active at once are not supported yet", file);
        if (st == DVC_OK) sides0[j] = dvc_ival_is_pos(w0) ? 1 : 2;
    }
    dvc_ivec_clear(g);
    mpfi_clear(w0);
    mpfi_clear(t0);
    mpfi_clear(tmp);
    return st;
}

dvc_status dvc_lcs_prove(int *sides0, const dvc_dlvi_problem_t p, const char *file)
{
    dvc_status st = prove_p(p, file);
    if (st == DVC_OK) st = start_sides(sides0, p, file);
    if (st == DVC_OK && p->grid)
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'grid': refused by the ideal-contact route (M = 0), "
                       "which chooses its own steps; give N or h", file);
    return st;
}

const char *dvc_lcs_mode_name(char *buf, size_t len, long m, const int *sides0)
{
    char nm[32];
    size_t k = 0;
    buf[0] = '\0';
    for (long j = 0; j < m && k < len; j++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s%s", j > 0 ? "&" : "",
                              dvc_lcs_term_name(nm, sizeof nm, m, j), sides0[j] == 1 ? ">0" : "=0");
    return buf;
}

double dvc_lcs_step(const dvc_dlvi_problem_t p)
{
    /* a step that does not divide T: the problem's h (an exact double) as
     * the engine's largest step; its steps end at min(t + h, T), so
     * without events it keeps the problem's grid and shorter last step */
    if (p->h > 0) return p->h;
    /* the grid step T/N as the double below it (the engine's largest step) */
    mpfr_t hh;
    mpfr_init2(hh, 53);
    mpfr_div_si(hh, &p->T->left, p->N, MPFR_RNDD);
    double h = mpfr_get_d(hh, MPFR_RNDD);
    mpfr_clear(hh);
    return h;
}

/* The mode lies in w < 0 (one of its terms on the side h < 0). */
static int below(const dvc_hybrid_model_t m, long q)
{
    if (q < 0 || q >= m->nmodes || !m->modes[q].sides) return 0;
    for (long j = 0; j < m->ncontacts; j++)
        if (m->modes[q].sides[j] == -1) return 1;
    return 0;
}

dvc_status dvc_lcs_result_check(const dvc_hybrid_model_t m, const dvc_hybrid_result_struct *r)
{
    if (below(m, m->mode0))
        return dvc_error(DVC_NOT_CERTIFIED, "ideal contact: the initial mode lies in w < 0");
    for (long i = 0; i < r->nsteps; i++)
        if (below(m, r->mode[i]))
            return dvc_error(DVC_NOT_CERTIFIED, "ideal contact: step %ld (from t = %.17g) lies in "
                             "w < 0: not a solution of the complementarity system",
                             i + 1, mpfr_get_d(r->t[i], MPFR_RNDN));
    for (long k = 0; k < r->nevents; k++)
        if (below(m, r->ev[k].mode_after))
            return dvc_error(DVC_NOT_CERTIFIED, "ideal contact: event %ld (t near %.17g) leads into "
                             "w < 0: not a solution of the complementarity system",
                             k + 1, mpfr_get_d(&r->ev[k].t->left, MPFR_RNDN));
    return DVC_OK;
}
