/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid models in memory: modes, switching functions, transitions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "hybrid/memo.h"
#include "hybrid/internal.h"
#include "hybrid/sliding.h"

static char *xstrdup(const char *s)
{
    size_t k = strlen(s) + 1;
    char *r = malloc(k);
    if (r) memcpy(r, s, k);
    return r;
}

static int is_ident(const char *s)
{
    if (!s || !*s) return 0;
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
    for (const char *p = s + 1; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            return 0;
    return 1;
}

dvc_status dvc_hybrid_model_init(dvc_hybrid_model_t m, long n, const char *const *names,
                                 mpfr_prec_t prec)
{
    memset(m, 0, sizeof *m);
    if (prec <= 0) prec = dvc_prec_get();
    m->prec = prec;
    m->mode0 = -1;
    m->guard_bits = DVC_HYBRID_GUARD_BITS;
    m->revision = DVC_HYBRID_REVISION;
    mpfr_init2(m->t0, prec);
    mpfr_init2(m->T, prec);
    mpfr_set_ui(m->t0, 0, MPFR_RNDN);
    mpfr_set_ui(m->T, 0, MPFR_RNDN);
    dvc_ivec_init2(m->x0, n > 0 ? n : 0, prec);
    if (n <= 0) return dvc_error(DVC_ERR_INPUT, "a hybrid model needs at least one state (n = %ld)", n);
    m->n = n;
    m->names = calloc((size_t)n, sizeof *m->names);
    if (!m->names) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; i < n; i++) {
        char buf[32];
        if (names) {
            if (!is_ident(names[i]) || !strcmp(names[i], "t") || !strcmp(names[i], "pi"))
                return dvc_error(DVC_ERR_INPUT, "state name '%s' is not a usable identifier",
                                 names[i] ? names[i] : "");
            for (long j = 0; j < i; j++)
                if (!strcmp(names[i], names[j]))
                    return dvc_error(DVC_ERR_INPUT, "state name '%s' given twice", names[i]);
        } else {
            snprintf(buf, sizeof buf, "x%ld", i + 1);
        }
        m->names[i] = xstrdup(names ? names[i] : buf);
        if (!m->names[i]) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    return DVC_OK;
}

static void free_exprs(dvc_expr_t *e, long n)
{
    if (!e) return;
    for (long i = 0; i < n; i++) dvc_expr_clear(e[i]);
    free(e);
}

void dvc_hybrid_model_clear(dvc_hybrid_model_t m)
{
    if (m->expand_release) m->expand_release(m->expand_ctx);
    hyb_contacts_clear(m);
    for (long i = 0; i < m->n && m->names; i++) free(m->names[i]);
    free(m->names);
    for (long k = 0; k < m->nmodes; k++) {
        dvc_hybrid_mode *md = &m->modes[k];
        free(md->name);
        dvc_imat_clear(md->A);
        free_exprs(md->b, m->n);
        free_exprs(md->f, m->n);
        free_exprs(md->z, m->nz); /* a DAE mode (dae.c) */
        free_exprs(md->zg, m->nz);
        free_exprs(md->zdet, 1);
        free(md->zdet_what);
        if (md->bu) dvc_imat_clear(md->bu);
        free(md->bu);
        hyb_memo_free(md);
    }
    free(m->modes);
    for (long j = 0; j < m->nz; j++) free(m->znames[j]);
    free(m->znames);
    if (m->zconsts) dvc_expr_consts_clear(m->zconsts);
    free(m->zconsts);
    for (long j = 0; m->utab && j < m->nu; j++)
        if (m->utab[j]) {
            dvc_tabfun_clear(m->utab[j]);
            free(m->utab[j]);
        }
    free(m->utab);
    for (long k = 0; k < m->nbreak; k++) mpfr_clears(m->blo[k], m->bhi[k], (mpfr_ptr)0);
    free(m->blo);
    free(m->bhi);
    free_exprs(m->u, m->nu);
    for (long k = 0; k < m->ng; k++) {
        free(m->gname[k]);
        dvc_expr_clear(m->g[k]);
    }
    free(m->gname);
    free(m->g);
    for (long k = 0; k < m->ntrans; k++) {
        free_exprs(m->trans[k].reset, m->n);
        free(m->trans[k].guard_g);
        free(m->trans[k].guard_sign);
    }
    free(m->trans);
    dvc_ivec_clear(m->x0);
    mpfr_clear(m->t0);
    mpfr_clear(m->T);
    memset(m, 0, sizeof *m);
}

long dvc_hybrid_find_mode(const dvc_hybrid_model_t m, const char *name)
{
    for (long k = 0; k < m->nmodes; k++)
        if (!strcmp(m->modes[k].name, name)) return k;
    return -1;
}

long dvc_hybrid_find_switch(const dvc_hybrid_model_t m, const char *name)
{
    for (long k = 0; k < m->ng; k++)
        if (!strcmp(m->gname[k], name)) return k;
    return -1;
}

/* n expressions of t and the state, parsed at the model's precision. */
static dvc_status parse_vec(dvc_expr_t **out, const dvc_hybrid_model_struct *m,
                            const char *const *text, const dvc_expr_consts_struct *consts,
                            int with_x, const char *what)
{
    dvc_expr_t *e = calloc((size_t)m->n, sizeof *e);
    if (!e) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; i < m->n; i++) dvc_expr_init2(e[i], m->prec);
    for (long i = 0; i < m->n; i++) {
        if (!text[i]) {
            free_exprs(e, m->n);
            return dvc_error(DVC_ERR_INPUT, "%s[%ld]: missing expression", what, i);
        }
        dvc_status st = with_x ? dvc_expr_parse_vars(e[i], text[i], consts, m->n,
                                                     (const char *const *)m->names)
                               : dvc_expr_parse(e[i], text[i], consts);
        if (st != DVC_OK) {
            free_exprs(e, m->n);
            return dvc_error_context(st, "%s[%ld]: ", what, i);
        }
    }
    *out = e;
    return DVC_OK;
}

static dvc_status new_mode(dvc_hybrid_model_struct *m, const char *name, dvc_hybrid_mode **md)
{
    if (!name || !*name) return dvc_error(DVC_ERR_INPUT, "a mode needs a name");
    if (dvc_hybrid_find_mode(m, name) >= 0)
        return dvc_error(DVC_ERR_INPUT, "mode '%s' defined twice", name);
    dvc_hybrid_mode *nm = realloc(m->modes, (size_t)(m->nmodes + 1) * sizeof *nm);
    if (!nm) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    m->modes = nm;
    *md = &nm[m->nmodes];
    memset(*md, 0, sizeof **md);
    (*md)->name = xstrdup(name);
    (*md)->balance = m->balance;
    (*md)->revision = m->revision;
    dvc_imat_init2((*md)->A, 0, 0, m->prec);
    m->nmodes++;
    return (*md)->name ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
}

dvc_status dvc_hybrid_add_mode_linear(dvc_hybrid_model_t m, const char *name, const dvc_imat_t A,
                                      const char *const *b, const dvc_expr_consts_t consts,
                                      long *index)
{
    dvc_expr_t *be = NULL;
    if (b) {
        dvc_status st = parse_vec(&be, m, b, consts, 0, "b");
        if (st != DVC_OK) return dvc_error_context(st, "mode '%s': ", name ? name : "");
    }
    dvc_status st = dvc_hybrid_add_mode_linear_exprs(m, name, A, be, index);
    free_exprs(be, m->n);
    return st;
}

dvc_status dvc_hybrid_set_basis(dvc_hybrid_model_t m, long nu, const char *const *u,
                                const dvc_expr_consts_t consts)
{
    if (m->u) return dvc_error(DVC_ERR_INPUT, "the forcing basis is set once");
    if (nu < 0) return dvc_error(DVC_ERR_INPUT, "forcing basis of %ld functions", nu);
    dvc_expr_t *e = calloc((size_t)(nu > 0 ? nu : 1), sizeof *e);
    if (!e) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long j = 0; j < nu; j++) dvc_expr_init2(e[j], m->prec);
    for (long j = 0; j < nu; j++) {
        dvc_status st = dvc_expr_parse(e[j], u[j], consts);
        if (st != DVC_OK) {
            free_exprs(e, nu);
            return dvc_error_context(st, "forcing basis u[%ld]: ", j);
        }
    }
    m->utab = calloc((size_t)(nu > 0 ? nu : 1), sizeof *m->utab);
    if (!m->utab) {
        free_exprs(e, nu);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    m->u = e;
    m->nu = nu;
    return DVC_OK;
}

static int cmp_break(const void *a, const void *b)
{
    return mpfr_cmp(*(const mpfr_t *)a, *(const mpfr_t *)b);
}

dvc_status dvc_hybrid_set_basis_table(dvc_hybrid_model_t m, long j, const dvc_tabfun_struct *tab)
{
    if (!m->utab || j < 0 || j >= m->nu || m->utab[j] || tab->n < 2)
        return dvc_error(DVC_ERR_INPUT, "forcing basis u[%ld]: no such function, or a table "
                         "already set, or fewer than 2 samples", j);
    dvc_tabfun_struct *c = malloc(sizeof *c);
    mpfr_t *lo = realloc(m->blo, (size_t)(m->nbreak + tab->n) * sizeof *lo);
    if (lo) m->blo = lo;
    mpfr_t *hi = lo ? realloc(m->bhi, (size_t)(m->nbreak + tab->n) * sizeof *hi) : NULL;
    if (hi) m->bhi = hi;
    if (!c || !hi) {
        free(c);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    dvc_tabfun_init2(c, m->prec);
    dvc_status st = dvc_tabfun_set(c, tab->n, (const mpfi_t *)tab->t, (const mpfi_t *)tab->v,
                                   tab->source);
    if (st != DVC_OK) {
        dvc_tabfun_clear(c);
        free(c);
        return dvc_error_context(st, "forcing basis u[%ld]: ", j);
    }
    m->utab[j] = c;
    /* the sample times, rounded outward to the grid's precision */
    for (long k = 0; k < tab->n; k++, m->nbreak++) {
        mpfr_inits2(m->prec, m->blo[m->nbreak], m->bhi[m->nbreak], (mpfr_ptr)0);
        mpfr_set(m->blo[m->nbreak], &tab->t[k]->left, MPFR_RNDD);
        mpfr_set(m->bhi[m->nbreak], &tab->t[k]->right, MPFR_RNDU);
    }
    /* sorted by lower end; the windows of two tables may overlap: the
     * driver then takes the union step by step */
    qsort(m->blo, (size_t)m->nbreak, sizeof *m->blo, cmp_break);
    qsort(m->bhi, (size_t)m->nbreak, sizeof *m->bhi, cmp_break);
    return DVC_OK;
}

dvc_status dvc_hybrid_set_revision(dvc_hybrid_model_t m, int revision)
{
    if (revision < 1 || revision > DVC_HYBRID_REVISION)
        return dvc_error(DVC_ERR_INPUT, "engine revision %d: this dvicert knows 1 to %d", revision,
                         DVC_HYBRID_REVISION);
    m->revision = revision;
    for (long k = 0; k < m->nmodes; k++) m->modes[k].revision = revision;
    return DVC_OK;
}

dvc_status dvc_hybrid_add_mode_pending(dvc_hybrid_model_t m, const char *name, long *index)
{
    dvc_hybrid_mode *md;
    dvc_status st = new_mode(m, name, &md);
    if (st != DVC_OK) return st;
    md->linear = 1;
    md->pending = 1;
    if (index) *index = m->nmodes - 1;
    return DVC_OK;
}

/* Bu (checked) as mode k's forcing matrix. */
static dvc_status set_bu(dvc_hybrid_model_struct *m, long k, const dvc_imat_t Bu)
{
    dvc_imat_struct *bu = malloc(sizeof *bu);
    if (!bu) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_imat_init2(bu, Bu->r, Bu->c, m->prec);
    dvc_imat_set(bu, Bu);
    m->modes[k].bu = bu;
    m->modes[k].u = m->u ? m->u[0] : NULL;
    m->modes[k].nu = m->nu;
    m->modes[k].utab = m->utab;
    return DVC_OK;
}

static dvc_status check_bu(const dvc_hybrid_model_struct *m, const char *name, const dvc_imat_t Bu)
{
    if (Bu->r != m->n || Bu->c != 1 + m->nu || !dvc_imat_is_finite(Bu))
        return dvc_error(DVC_ERR_INPUT, "mode '%s': Bu must be a finite %ld x %ld matrix",
                         name ? name : "", m->n, 1 + m->nu);
    return DVC_OK;
}

static dvc_status check_A(const dvc_hybrid_model_struct *m, const char *name, const dvc_imat_t A)
{
    if (A->r != m->n || A->c != m->n)
        return dvc_error(DVC_ERR_INPUT, "mode '%s': A is %ld x %ld, expected %ld x %ld",
                         name ? name : "", A->r, A->c, m->n, m->n);
    if (!dvc_imat_is_finite(A))
        return dvc_error(DVC_ERR_INPUT, "mode '%s': A has a non-finite entry", name ? name : "");
    return DVC_OK;
}

dvc_status dvc_hybrid_fill_mode_affine(dvc_hybrid_model_t m, long k, const dvc_imat_t A,
                                       const dvc_imat_t Bu)
{
    if (k < 0 || k >= m->nmodes || !m->modes[k].pending)
        return dvc_error(DVC_ERR_INPUT, "mode %ld is not pending", k);
    dvc_hybrid_mode *md = &m->modes[k];
    dvc_status st = check_A(m, md->name, A);
    if (st == DVC_OK && Bu) st = check_bu(m, md->name, Bu);
    if (st != DVC_OK) return st;
    dvc_imat_resize(md->A, m->n, m->n);
    dvc_imat_set(md->A, A);
    if (Bu && (st = set_bu(m, k, Bu)) != DVC_OK) return st;
    md->pending = 0;
    return DVC_OK;
}

dvc_status dvc_hybrid_add_mode_affine(dvc_hybrid_model_t m, const char *name, const dvc_imat_t A,
                                      const dvc_imat_t Bu, long *index)
{
    dvc_status st = check_bu(m, name, Bu);
    long k;
    if (st == DVC_OK) st = dvc_hybrid_add_mode_linear(m, name, A, NULL, NULL, &k);
    if (st == DVC_OK) st = set_bu(m, k, Bu);
    if (st == DVC_OK && index) *index = k;
    return st;
}

dvc_status dvc_hybrid_add_mode_field(dvc_hybrid_model_t m, const char *name,
                                     const char *const *f, const dvc_expr_consts_t consts,
                                     long *index)
{
    if (!f) return dvc_error(DVC_ERR_INPUT, "mode '%s' has no vector field", name ? name : "");
    dvc_expr_t *fe = NULL;
    dvc_status st = parse_vec(&fe, m, f, consts, 1, "f");
    if (st != DVC_OK) return dvc_error_context(st, "mode '%s': ", name ? name : "");
    st = dvc_hybrid_add_mode_exprs(m, name, fe, index);
    free_exprs(fe, m->n);
    return st;
}

/* Built expressions handed to the model: the variables must be its states
 * (the programs index them by position) at its precision. */
static dvc_status check_built(const dvc_hybrid_model_struct *m, const dvc_expr_struct *e,
                              int with_x, const char *what)
{
    if (!e->text || e->prec != m->prec || e->nvars != (with_x ? m->n : 0))
        return dvc_error(DVC_ERR_INPUT, "%s: a built expression over %s at %ld bits expected",
                         what, with_x ? "t and the states" : "t alone", (long)m->prec);
    for (long i = 0; i < e->nvars; i++)
        if (strcmp(e->varnames[i], m->names[i]))
            return dvc_error(DVC_ERR_INPUT, "%s: variable '%s' where the state '%s' is expected",
                             what, e->varnames[i], m->names[i]);
    return DVC_OK;
}

dvc_status dvc_hybrid_add_mode_exprs(dvc_hybrid_model_t m, const char *name, dvc_expr_t *f,
                                     long *index)
{
    if (!f) return dvc_error(DVC_ERR_INPUT, "mode '%s' has no vector field", name ? name : "");
    for (long i = 0; i < m->n; i++) {
        dvc_status st = check_built(m, f[i], 1, "f");
        if (st != DVC_OK) return dvc_error_context(st, "mode '%s': ", name ? name : "");
    }
    dvc_expr_t *fe = calloc((size_t)m->n, sizeof *fe);
    if (!fe) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; i < m->n; i++) dvc_expr_init2(fe[i], m->prec);
    dvc_hybrid_mode *md;
    dvc_status st = new_mode(m, name, &md);
    if (st != DVC_OK) {
        free_exprs(fe, m->n);
        return st;
    }
    for (long i = 0; i < m->n; i++) dvc_expr_swap(fe[i], f[i]);
    md->f = fe;
    if (index) *index = m->nmodes - 1;
    return DVC_OK;
}

dvc_status dvc_hybrid_add_mode_linear_exprs(dvc_hybrid_model_t m, const char *name,
                                            const dvc_imat_t A, dvc_expr_t *b, long *index)
{
    dvc_status sa = check_A(m, name, A);
    if (sa != DVC_OK) return sa;
    for (long i = 0; b && i < m->n; i++) {
        dvc_status st = check_built(m, b[i], 0, "b");
        if (st != DVC_OK) return dvc_error_context(st, "mode '%s': ", name ? name : "");
    }
    dvc_expr_t *be = b ? calloc((size_t)m->n, sizeof *be) : NULL;
    if (b && !be) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; be && i < m->n; i++) dvc_expr_init2(be[i], m->prec);
    dvc_hybrid_mode *md;
    dvc_status st = new_mode(m, name, &md);
    if (st != DVC_OK) {
        free_exprs(be, m->n);
        return st;
    }
    for (long i = 0; be && i < m->n; i++) dvc_expr_swap(be[i], b[i]);
    md->linear = 1;
    dvc_imat_resize(md->A, m->n, m->n);
    dvc_imat_set(md->A, A);
    md->b = be;
    if (index) *index = m->nmodes - 1;
    return DVC_OK;
}

dvc_status dvc_hybrid_add_switch_expr(dvc_hybrid_model_t m, const char *name, dvc_expr_t g,
                                      long *index)
{
    if (!name || !*name) return dvc_error(DVC_ERR_INPUT, "a switching function needs a name");
    if (dvc_hybrid_find_switch(m, name) >= 0)
        return dvc_error(DVC_ERR_INPUT, "switching function '%s' defined twice", name);
    dvc_status st = check_built(m, g, 1, "switching function");
    if (st != DVC_OK) return dvc_error_context(st, "'%s': ", name);
    dvc_expr_t *ng = realloc(m->g, (size_t)(m->ng + 1) * sizeof *ng);
    if (!ng) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    m->g = ng;
    char **nn = realloc(m->gname, (size_t)(m->ng + 1) * sizeof *nn);
    if (!nn) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    m->gname = nn;
    if (!(m->gname[m->ng] = xstrdup(name))) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_expr_init2(m->g[m->ng], m->prec);
    dvc_expr_swap(m->g[m->ng], g);
    if (index) *index = m->ng;
    m->ng++;
    return DVC_OK;
}

dvc_status dvc_hybrid_add_switch(dvc_hybrid_model_t m, const char *name, const char *text,
                                 const dvc_expr_consts_t consts, long *index)
{
    if (!name || !*name) return dvc_error(DVC_ERR_INPUT, "a switching function needs a name");
    if (dvc_hybrid_find_switch(m, name) >= 0)
        return dvc_error(DVC_ERR_INPUT, "switching function '%s' defined twice", name);
    if (!text) return dvc_error(DVC_ERR_INPUT, "switching function '%s': no expression", name);
    dvc_expr_t e;
    dvc_expr_init2(e, m->prec);
    dvc_status st = dvc_expr_parse_vars(e, text, consts, m->n, (const char *const *)m->names);
    if (st != DVC_OK) st = dvc_error_context(st, "switching function '%s': ", name);
    else st = dvc_hybrid_add_switch_expr(m, name, e, index);
    dvc_expr_clear(e);
    return st;
}

dvc_status dvc_hybrid_add_transition(dvc_hybrid_model_t m, long from, long g, int dir, long to,
                                     const char *const *reset, const dvc_expr_consts_t consts)
{
    return dvc_hybrid_add_transition_guarded(m, from, g, dir, to, reset, consts, 0, NULL, NULL);
}

dvc_status dvc_hybrid_add_transition_guarded(dvc_hybrid_model_t m, long from, long g, int dir,
                                             long to, const char *const *reset,
                                             const dvc_expr_consts_t consts, long nguard,
                                             const long *gg, const int *gs)
{
    if (from < 0 || from >= m->nmodes || to < 0 || to >= m->nmodes)
        return dvc_error(DVC_ERR_INPUT, "transition between missing modes (%ld -> %ld)", from, to);
    if (g < 0 || g >= m->ng)
        return dvc_error(DVC_ERR_INPUT, "transition on a missing switching function (%ld)", g);
    if (dir < -1 || dir > 1) return dvc_error(DVC_ERR_INPUT, "direction %d not in {-1, 0, 1}", dir);
    for (long i = 0; i < nguard; i++)
        if (gg[i] < 0 || gg[i] >= m->ng || (gs[i] != 1 && gs[i] != -1))
            return dvc_error(DVC_ERR_INPUT, "guard %ld: a missing switching function (%ld) or a "
                             "sign %d not in {-1, 1}", i, gg[i], gs[i]);
    /* guarded transitions on one crossing: the guards choose at run time */
    for (long k = 0; k < m->ntrans; k++)
        if (m->trans[k].from == from && m->trans[k].g == g && !(nguard && m->trans[k].nguard) &&
            (m->trans[k].dir == 0 || dir == 0 || m->trans[k].dir == dir))
            return dvc_error(DVC_ERR_INPUT,
                             "mode '%s' has two transitions on '%s' in the same direction "
                             "(give both 'guards' to choose between them)",
                             m->modes[from].name, m->gname[g]);
    dvc_expr_t *re = NULL;
    if (reset) {
        dvc_status st = parse_vec(&re, m, reset, consts, 1, "reset");
        if (st != DVC_OK) return st;
    }
    dvc_hybrid_transition *nt = realloc(m->trans, (size_t)(m->ntrans + 1) * sizeof *nt);
    if (!nt) {
        free_exprs(re, m->n);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    m->trans = nt;
    long *ng_ = nguard ? malloc((size_t)nguard * sizeof *ng_) : NULL;
    int *ns_ = nguard ? malloc((size_t)nguard * sizeof *ns_) : NULL;
    if (nguard && (!ng_ || !ns_)) {
        free(ng_);
        free(ns_);
        free_exprs(re, m->n);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    if (nguard) {
        memcpy(ng_, gg, (size_t)nguard * sizeof *ng_);
        memcpy(ns_, gs, (size_t)nguard * sizeof *ns_);
    }
    nt[m->ntrans].nguard = nguard;
    nt[m->ntrans].guard_g = ng_;
    nt[m->ntrans].guard_sign = ns_;
    nt[m->ntrans].from = from;
    nt[m->ntrans].g = g;
    nt[m->ntrans].dir = dir;
    nt[m->ntrans].to = to;
    nt[m->ntrans].reset = re;
    m->ntrans++;
    return DVC_OK;
}

dvc_status dvc_hybrid_set_initial(dvc_hybrid_model_t m, long mode, const dvc_ivec_t x0,
                                  const mpfr_t t0, const mpfr_t T)
{
    if (mode < 0 || mode >= m->nmodes)
        return dvc_error(DVC_ERR_INPUT, "initial mode %ld does not exist", mode);
    if (x0->n != m->n)
        return dvc_error(DVC_ERR_INPUT, "initial state has %ld entries, expected %ld", x0->n, m->n);
    for (long i = 0; i < m->n; i++)
        if (!dvc_ival_is_valid(x0->e[i]) || !dvc_ival_is_finite(x0->e[i]))
            return dvc_error(DVC_ERR_INPUT, "initial state %s is not finite", m->names[i]);
    if (!mpfr_number_p(t0) || !mpfr_number_p(T) || mpfr_cmp(T, t0) <= 0)
        return dvc_error(DVC_ERR_INPUT, "the time interval [t0, T] must be finite with T > t0");
    m->mode0 = mode;
    dvc_ivec_set(m->x0, x0);
    mpfr_set(m->t0, t0, MPFR_RNDN);
    mpfr_set(m->T, T, MPFR_RNDN);
    return DVC_OK;
}

/* Per term k of m, the sides of a mode consistent with h_k(t0, x0): bit
 * 0: +1, bit 1: -1, bit 2: sliding (2); *exact_zero[k] when h_k(x0) = 0. */
static dvc_status term_sides(const dvc_hybrid_model_struct *m, const mpfr_t t0, const dvc_ivec_t x0,
                             int *allow, int *zero)
{
    mpfi_t T, v;
    dvc_status st = DVC_OK;
    mpfi_init2(T, m->prec);
    mpfi_init2(v, m->prec);
    mpfi_set_fr(T, t0);
    for (long k = 0; k < m->ncontacts && st == DVC_OK; k++) {
        st = dvc_expr_eval_x(v, m->g[m->contacts[k].h], T, x0);
        zero[k] = st == DVC_OK && mpfi_is_zero(v);
        allow[k] = zero[k] ? 7 : mpfi_is_strictly_pos(v) ? 1 : mpfi_is_strictly_neg(v) ? 2 : 7;
    }
    mpfi_clear(T);
    mpfi_clear(v);
    return st;
}

static int side_bit(int s) { return s == 1 ? 1 : s == -1 ? 2 : 4; }

dvc_status dvc_hybrid_initial_mode(const dvc_hybrid_model_struct *m, const mpfr_t t0, const dvc_ivec_t x0,
                                   long given, long *mode, int *consistent, char *names, size_t len)
{
    long nc = m->ncontacts;
    size_t used = 0;
    int *allow = calloc((size_t)(2 * (nc > 0 ? nc : 1)), sizeof *allow), *zero = allow + nc;
    dvc_status st;
    *mode = -1;
    if (consistent) *consistent = 0;
    if (len) names[0] = '\0';
    if (!allow) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    st = term_sides(m, t0, x0, allow, zero);
    for (long q = 0; q < m->nmodes && st == DVC_OK; q++) {
        const int *sd = m->modes[q].sides;
        int ok = sd != NULL, only = sd != NULL;
        for (long k = 0; sd && k < nc; k++) {
            ok &= (allow[k] & side_bit(sd[k])) != 0;
            /* the one mode: a side proven by the sign, sliding where h = 0 */
            only &= zero[k] ? sd[k] == 2 : allow[k] == side_bit(sd[k]);
        }
        if (only) *mode = q;
        if (ok && q == given && consistent) *consistent = 1;
        if (ok && len > used + 1) {
            int w = snprintf(names + used, len - used, "%s'%s'", used ? ", " : "", m->modes[q].name);
            used = w > 0 && (size_t)w < len - used ? used + (size_t)w : len - 1;
        }
    }
    free(allow);
    return st;
}

const char *dvc_hybrid_class_name(dvc_hybrid_class c)
{
    switch (c) {
    case DVC_HYB_TRANSVERSE: return "transverse";
    case DVC_HYB_GRAZING: return "grazing";
    case DVC_HYB_SLIDING: return "sliding";
    case DVC_HYB_REPELLING: return "repelling";
    case DVC_HYB_ZENO: return "zeno";
    default: return "undecided";
    }
}

int dvc_hybrid_model_order(const dvc_hybrid_model_t m)
{
    if (m->order > 0) return m->order;
    for (long k = 0; k < m->nmodes; k++)
        if (!m->modes[k].linear) return 12;
    return 20;
}
