/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The DLVI as a switched affine system (docs/events.md): one linear mode per
 * LVI pattern P (y_i = l_i, y_i = u_i or free), built lazily by the hybrid
 * engine's expand hook when the solution may enter it; the switching
 * functions are the boundaries between a pattern and its neighbours (one
 * index changed), each written once from the pattern in which that index is
 * free, so both sides share it; b_P is affine over one basis of the
 * problem's expressions of t (events_text.c writes them back as text). The
 * engine does the rest (validated flow, switch times, Lohner sets). */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dlvi/events_internal.h"

/* One pattern: on its region y = Yx x + Yg g(t) + yc (m rows). */
typedef struct {
    char *pat;        /* m letters 'l', 'u', 'f' (the mode's name) */
    int expanded;     /* its neighbours and transitions are in the model */
    int hasdata;      /* Yx, Yg, yc computed (pat_need) */
    int filled;       /* its mode's field given (pat_fill): a neighbour stays a
                       * pending mode until it is entered or its field is asked for */
    dvc_imat_t Yx, Yg;
    dvc_ivec_t yc;
} evt_pat;

typedef struct {
    dvc_hybrid_model_struct *hm; /* the model being built (owned by the caller) */
    long n, m;
    mpfr_prec_t wp;              /* precision of the pattern data */
    dvc_imat_t A, B, Q, M;
    dvc_ivec_t l, u;
    evt_fun *f, *g;              /* n and m entries */
    dvc_ivec_t fc, gc;           /* their constant parts (0 for expressions) */
    dvc_expr_consts_t lits;      /* literals of the texts */
    dvc_expr_t *gx;              /* g_j parsed back (kind 2 entries), for the y map */
    long nu;                     /* the model's forcing basis: the distinct texts */
    long *fu, *gu;               /* of kind 2 entries, and each entry's index in it */
    long npat, apat;             /* pats[k] is mode k */
    evt_pat *pats;
    long nevents, max_events, max_modes;
    long nwindows;               /* ambiguity windows bridged (section 3) */
} evt_ctx;

void dvc_dlvi_events_opts_default(dvc_dlvi_events_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_events = 100000;
    o->max_modes = 20000;
    o->guard_bits = -1;
}

/* ---- pattern data ------------------------------------------------------ */

static int finite_end(const evt_ctx *c, long i, char side)
{
    mpfi_srcptr v = side == 'l' ? c->l->e[i] : c->u->e[i];
    return mpfr_number_p(&v->left) && mpfr_number_p(&v->right);
}

/* Yx, Yg, yc of pattern P: y_K = c_K (the bound), and on F
 * M_FF y_F = -(Q_F x + g_F + M_FK c_K), solved by one verified solve with
 * the right-hand sides [Q_F | I | M_FK c_K] (docs/events.md section 2). */
static dvc_status pat_data(evt_ctx *c, evt_pat *P)
{
    long m = c->m, n = c->n, nf = 0;
    mpfr_prec_t wp = c->wp;
    dvc_status st = DVC_OK;
    dvc_imat_init2(P->Yx, m, n, wp);
    dvc_imat_init2(P->Yg, m, m, wp);
    dvc_ivec_init2(P->yc, m, wp);
    dvc_imat_zero(P->Yx);
    dvc_imat_zero(P->Yg);
    long *F = malloc((size_t)m * sizeof *F);
    if (!F) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; i < m; i++) {
        if (P->pat[i] == 'f') F[nf++] = i;
        else mpfi_set(P->yc->e[i], P->pat[i] == 'l' ? c->l->e[i] : c->u->e[i]);
    }
    if (nf > 0) {
        dvc_imat_t MFF, R, X;
        mpfi_t tmp;
        long w = n + nf + 1;
        dvc_imat_init2(MFF, nf, nf, wp);
        dvc_imat_init2(R, nf, w, wp);
        dvc_imat_init2(X, nf, w, wp);
        mpfi_init2(tmp, wp);
        dvc_imat_submatrix(MFF, c->M, F, nf, F, nf);
        dvc_imat_zero(R);
        for (long a = 0; a < nf; a++) {
            long i = F[a];
            for (long k = 0; k < n; k++) mpfi_set(dvc_imat_entry(R, a, k), dvc_imat_entry(c->Q, i, k));
            mpfi_set_ui(dvc_imat_entry(R, a, n + a), 1);
            mpfi_ptr r = dvc_imat_entry(R, a, n + nf);
            for (long j = 0; j < m; j++)
                if (P->pat[j] != 'f') {
                    mpfi_mul(tmp, dvc_imat_entry(c->M, i, j), P->yc->e[j]);
                    mpfi_add(r, r, tmp);
                }
        }
        st = dvc_imat_solve_mat(X, MFF, R);
        if (st != DVC_OK) {
            st = dvc_error_context(st, "pattern %s: M_FF (%ld x %ld) not proven regular: ", P->pat,
                                   nf, nf);
        } else {
            for (long a = 0; a < nf; a++) {
                long i = F[a];
                for (long k = 0; k < n; k++)
                    mpfi_neg(dvc_imat_entry(P->Yx, i, k), dvc_imat_entry(X, a, k));
                for (long b = 0; b < nf; b++)
                    mpfi_neg(dvc_imat_entry(P->Yg, i, F[b]), dvc_imat_entry(X, a, n + b));
                mpfi_neg(P->yc->e[i], dvc_imat_entry(X, a, n + nf));
            }
        }
        dvc_imat_clear(MFF);
        dvc_imat_clear(R);
        dvc_imat_clear(X);
        mpfi_clear(tmp);
    }
    free(F);
    return st;
}

/* A fresh constant table holding the literals of the texts. */
static dvc_status consts_base(dvc_expr_consts_t k, const evt_ctx *c)
{
    dvc_expr_consts_init(k);
    for (long i = 0; i < c->lits->n; i++) {
        dvc_status st = dvc_expr_consts_add(k, c->lits->name[i], c->lits->val[i]);
        if (st != DVC_OK) return st;
    }
    return DVC_OK;
}

/* A growing string. */
typedef struct {
    char *s;
    size_t len, cap;
} sbuf;

static int sb_add(sbuf *b, const char *t)
{
    size_t k = strlen(t);
    if (b->len + k + 1 > b->cap) {
        size_t nc = 2 * (b->len + k + 1) + 64;
        char *ns = realloc(b->s, nc);
        if (!ns) return -1;
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->len, t, k + 1);
    b->len += k;
    return 0;
}

/* "+name*(text)" with name -> v in k (skipped when v is exactly 0). */
static dvc_status sb_term(sbuf *b, dvc_expr_consts_t k, const char *name, mpfi_srcptr v,
                          const char *text)
{
    if (mpfi_is_zero(v)) return DVC_OK;
    dvc_status st = dvc_expr_consts_add(k, name, v);
    if (st != DVC_OK) return st;
    if (sb_add(b, "+") || sb_add(b, name) || sb_add(b, "*(") || sb_add(b, text) || sb_add(b, ")"))
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    return DVC_OK;
}

/* Pattern pat as mode c->npat, pending (its field is given by pat_fill
 * when it is entered: most neighbours of a visited pattern never are). */
static dvc_status pat_add(evt_ctx *c, const char *pat, long *index)
{
    if (c->npat >= c->max_modes)
        return dvc_error(DVC_NOT_CERTIFIED, "events route: the budget of %ld patterns (max_modes) "
                         "is reached", c->max_modes);
    if (c->npat == c->apat) {
        long na = c->apat ? 2 * c->apat : 16;
        evt_pat *np = realloc(c->pats, (size_t)na * sizeof *np);
        if (!np) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        c->pats = np;
        c->apat = na;
    }
    evt_pat *P = &c->pats[c->npat];
    memset(P, 0, sizeof *P);
    P->pat = strdup(pat);
    if (!P->pat) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    c->npat++; /* owned from here (cleared with the context) */
    long idx = -1;
    dvc_status st = dvc_hybrid_add_mode_pending(c->hm, pat, &idx);
    if (st == DVC_OK && idx != c->npat - 1)
        st = dvc_error(DVC_ERR_INPUT, "events route: mode %ld out of order (pattern %s)", idx, pat);
    if (st == DVC_OK && index) *index = idx;
    return st;
}

/* Yx, Yg, yc of pattern k, computed once. */
static dvc_status pat_need(evt_ctx *c, long k)
{
    evt_pat *P = &c->pats[k];
    if (P->hasdata) return DVC_OK;
    dvc_status st = pat_data(c, P);
    if (st == DVC_OK) P->hasdata = 1;
    return st;
}

/* Mode k's field: x' = A_P x + b_P(t), A_P = A + B Yx,
 * b_P = f + B Yg g + B yc. */
static dvc_status pat_fill(evt_ctx *c, long k)
{
    long n = c->n, m = c->m;
    mpfr_prec_t wp = c->wp;
    evt_pat *P = &c->pats[k];
    if (P->filled) return DVC_OK;
    dvc_status st = pat_need(c, k);
    if (st != DVC_OK) return st;
    dvc_imat_t AP, Cg;
    dvc_ivec_t bc, v;
    dvc_imat_init2(AP, n, n, wp);
    dvc_imat_init2(Cg, n, m, wp);
    dvc_ivec_init2(bc, n, wp);
    dvc_ivec_init2(v, m, wp);
    dvc_imat_mul(AP, c->B, P->Yx);
    dvc_imat_add(AP, AP, c->A);
    dvc_imat_mul(Cg, c->B, P->Yg);
    dvc_imat_mul_vec(v, P->Yg, c->gc);
    dvc_ivec_add(v, v, P->yc);
    dvc_imat_mul_vec(bc, c->B, v);
    dvc_ivec_add(bc, bc, c->fc);
    /* b_P = Bu [1; u(t)] over the basis u of the distinct expressions of
     * f and g: column 0 the constant part, f_i's column gets 1 in row i,
     * g_j's column gets column j of B Yg */
    dvc_imat_t Bu;
    int any = c->nu > 0;
    dvc_imat_init2(Bu, n, 1 + c->nu, wp);
    dvc_imat_zero(Bu);
    for (long i = 0; i < n; i++) {
        mpfi_set(dvc_imat_entry(Bu, i, 0), bc->e[i]);
        any |= !mpfi_is_zero(bc->e[i]);
        if (c->f[i].kind >= 2) mpfi_add_ui(dvc_imat_entry(Bu, i, 1 + c->fu[i]), dvc_imat_entry(Bu, i, 1 + c->fu[i]), 1);
        for (long j = 0; j < m; j++)
            if (c->g[j].kind == 2)
                mpfi_add(dvc_imat_entry(Bu, i, 1 + c->gu[j]), dvc_imat_entry(Bu, i, 1 + c->gu[j]),
                         dvc_imat_entry(Cg, i, j));
    }
    st = dvc_hybrid_fill_mode_affine(c->hm, k, AP, any ? Bu : NULL);
    if (st == DVC_OK) P->filled = 1;
    dvc_imat_clear(Bu);
    dvc_imat_clear(AP);
    dvc_imat_clear(Cg);
    dvc_ivec_clear(bc);
    dvc_ivec_clear(v);
    return st;
}

static dvc_status evt_fill(long mode, void *vc)
{
    evt_ctx *c = vc;
    if (mode < 0 || mode >= c->npat)
        return dvc_error(DVC_ERR_INPUT, "events route: mode %ld is not a pattern", mode);
    return pat_fill(c, mode);
}

/* The mode of pattern pat, built if needed. */
static dvc_status pat_get(evt_ctx *c, const char *pat, long *index)
{
    *index = dvc_hybrid_find_mode(c->hm, pat);
    return *index >= 0 ? DVC_OK : pat_add(c, pat, index);
}

/* The switching function of index i between pattern kf (i free) and its
 * neighbour with i at side ('l': s = y_i - l_i, 'u': s = u_i - y_i, with
 * y_i from kf's map): positive where kf holds for index i, negative where
 * the neighbour does (docs/events.md section 3). */
static dvc_status switch_get(evt_ctx *c, long kf, long i, char side, long *index)
{
    long n = c->n, m = c->m;
    const evt_pat *P = &c->pats[kf];
    char *name = malloc(strlen(P->pat) + 64);
    if (!name) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (side == 'l') sprintf(name, "y%ld-l@%s", i + 1, P->pat);
    else sprintf(name, "u-y%ld@%s", i + 1, P->pat);
    *index = dvc_hybrid_find_switch(c->hm, name);
    if (*index >= 0) {
        free(name);
        return DVC_OK;
    }
    dvc_status sn = pat_need(c, kf);
    if (sn != DVC_OK) {
        free(name);
        return sn;
    }
    mpfr_prec_t wp = c->wp;
    mpfi_t v, w;
    mpfi_init2(v, wp);
    mpfi_init2(w, wp);
    dvc_expr_consts_t k;
    sbuf b = {NULL, 0, 0};
    char nm[48];
    dvc_status st = consts_base(k, c);
    /* constant part: (Yg gc)_i + yc_i - l_i, or u_i - that */
    mpfi_set(v, P->yc->e[i]);
    for (long j = 0; j < m; j++) {
        mpfi_mul(w, dvc_imat_entry(P->Yg, i, j), c->gc->e[j]);
        mpfi_add(v, v, w);
    }
    if (side == 'l') mpfi_sub(v, v, c->l->e[i]);
    else mpfi_sub(v, c->u->e[i], v);
    if (st == DVC_OK) st = dvc_expr_consts_add(k, "_s", v);
    if (st == DVC_OK && sb_add(&b, "_s")) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long j = 0; j < n && st == DVC_OK; j++) {
        mpfi_srcptr a = dvc_imat_entry(P->Yx, i, j);
        if (side == 'u') {
            mpfi_neg(w, a);
            a = w;
        }
        snprintf(nm, sizeof nm, "_a%ld", j);
        st = sb_term(&b, k, nm, a, c->hm->names[j]);
    }
    for (long j = 0; j < m && st == DVC_OK; j++) {
        if (c->g[j].kind != 2) continue;
        mpfi_srcptr a = dvc_imat_entry(P->Yg, i, j);
        if (side == 'u') {
            mpfi_neg(w, a);
            a = w;
        }
        snprintf(nm, sizeof nm, "_e%ld", j);
        st = sb_term(&b, k, nm, a, c->g[j].text);
    }
    if (st == DVC_OK) st = dvc_hybrid_add_switch(c->hm, name, b.s, k, index);
    free(b.s);
    free(name);
    dvc_expr_consts_clear(k);
    mpfi_clear(v);
    mpfi_clear(w);
    return st;
}

/* The engine's hook: the neighbours of pattern `mode` (one index changed:
 * free -> at a finite bound, at a bound -> free) and the transitions to
 * them, on the shared switching functions. */
static dvc_status evt_expand(long mode, long nevents, void *vc)
{
    evt_ctx *c = vc;
    if (mode < 0 || mode >= c->npat)
        return dvc_error(DVC_ERR_INPUT, "events route: mode %ld is not a pattern", mode);
    if (nevents >= c->max_events) /* the call for event nevents + 1 */
        return dvc_error(DVC_NOT_CERTIFIED, "events route: the budget of %ld events (max_events) "
                         "is reached (accumulating switches, e.g. Zeno-like chattering, are "
                         "reported, not followed)", c->max_events);
    if (nevents > c->nevents) c->nevents = nevents;
    if (c->pats[mode].expanded) return DVC_OK;
    dvc_status sf = pat_fill(c, mode);
    if (sf != DVC_OK) return sf;
    long m = c->m;
    char *q = strdup(c->pats[mode].pat);
    if (!q) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    dvc_status st = DVC_OK;
    for (long i = 0; i < m && st == DVC_OK; i++) {
        char o = q[i];
        long nb, sw;
        if (o == 'f') {
            for (int s = 0; s < 2 && st == DVC_OK; s++) {
                char side = s ? 'u' : 'l';
                if (!finite_end(c, i, side)) continue;
                q[i] = side;
                st = pat_get(c, q, &nb);
                q[i] = 'f';
                if (st == DVC_OK) st = switch_get(c, mode, i, side, &sw);
                if (st == DVC_OK) st = dvc_hybrid_add_transition(c->hm, mode, sw, -1, nb, NULL, NULL);
            }
        } else {
            q[i] = 'f';
            st = pat_get(c, q, &nb);
            q[i] = o;
            if (st == DVC_OK) st = switch_get(c, nb, i, o, &sw);
            if (st == DVC_OK) st = dvc_hybrid_add_transition(c->hm, mode, sw, +1, nb, NULL, NULL);
        }
    }
    free(q);
    if (st == DVC_OK) c->pats[mode].expanded = 1;
    return st;
}

static void evt_release(void *vc)
{
    evt_ctx *c = vc;
    if (!c) return;
    for (long k = 0; k < c->npat; k++) {
        evt_pat *P = &c->pats[k];
        free(P->pat);
        if (P->Yx->e || P->Yx->r) {
            dvc_imat_clear(P->Yx);
            dvc_imat_clear(P->Yg);
            dvc_ivec_clear(P->yc);
        }
    }
    free(c->pats);
    for (long i = 0; c->f && i < c->n; i++) free(c->f[i].text);
    for (long j = 0; c->g && j < c->m; j++) {
        free(c->g[j].text);
        if (c->gx) dvc_expr_clear(c->gx[j]);
    }
    free(c->f);
    free(c->g);
    free(c->gx);
    free(c->fu);
    free(c->gu);
    dvc_imat_clear(c->A);
    dvc_imat_clear(c->B);
    dvc_imat_clear(c->Q);
    dvc_imat_clear(c->M);
    dvc_ivec_clear(c->l);
    dvc_ivec_clear(c->u);
    dvc_ivec_clear(c->fc);
    dvc_ivec_clear(c->gc);
    dvc_expr_consts_clear(c->lits);
    free(c);
}

/* ---- the model --------------------------------------------------------- */

static evt_ctx *ctx_of(const dvc_hybrid_model_struct *m)
{
    return m->expand == evt_expand ? m->expand_ctx : NULL;
}

/* g(T) from its constant and expression parts. */
static dvc_status g_eval(dvc_ivec_t G, const evt_ctx *c, const mpfi_t T)
{
    for (long j = 0; j < c->m; j++) {
        if (c->g[j].kind == 2) {
            dvc_status st = dvc_expr_eval(G->e[j], c->gx[j], T);
            if (st != DVC_OK) return dvc_error_context(st, "g[%ld]: ", j + 1);
        } else {
            mpfi_set(G->e[j], c->gc->e[j]);
        }
    }
    return DVC_OK;
}

/* y where no pattern is known (an ambiguity window, section 3): the
 * certified LVI solution over Q X + g(tt). */
static dvc_status y_window(dvc_ivec_t Y, const evt_ctx *c, const mpfi_t tt, const dvc_ivec_t X)
{
    dvc_lvi_solver_t sv;
    dvc_lvi_result_t lr;
    dvc_ivec_t q, G;
    dvc_ivec_init2(q, c->m, c->wp);
    dvc_ivec_init2(G, c->m, c->wp);
    dvc_lvi_result_init2(lr, c->m, c->wp);
    dvc_status st = dvc_lvi_solver_init2(sv, c->M, c->l, c->u, c->wp);
    if (st == DVC_OK) st = g_eval(G, c, tt);
    if (st == DVC_OK) {
        dvc_imat_mul_vec(q, c->Q, X);
        dvc_ivec_add(q, q, G);
        st = dvc_lvi_solve(lr, sv, q, NULL);
    }
    if (st == DVC_OK) dvc_ivec_set(Y, lr->y);
    else dvc_error_context(st, "events route: y over a window: ");
    dvc_lvi_solver_clear(sv);
    dvc_lvi_result_clear(lr);
    dvc_ivec_clear(q);
    dvc_ivec_clear(G);
    return st;
}

dvc_status dvc_dlvi_events_y(dvc_ivec_t Y, const dvc_hybrid_model_t hm, long mode, const mpfi_t tt,
                             const dvc_ivec_t X)
{
    const evt_ctx *c = ctx_of(hm);
    if (!c) return dvc_error(DVC_ERR_INPUT, "not a model of the events route");
    if (mode < 0 && Y->n == c->m && X->n == c->n) return y_window(Y, c, tt, X);
    if (mode < 0 || mode >= c->npat || Y->n != c->m || X->n != c->n)
        return dvc_error(DVC_ERR_INPUT, "events route: y of mode %ld: bad sizes", mode);
    const evt_pat *P = &c->pats[mode];
    if (!P->hasdata) /* a mode of the tube was entered, hence filled */
        return dvc_error(DVC_ERR_INTERNAL, "events route: y of pattern %s, never entered", P->pat);
    dvc_ivec_t G, a, b;
    dvc_ivec_init2(G, c->m, c->wp);
    dvc_ivec_init2(a, c->m, c->wp);
    dvc_ivec_init2(b, c->m, c->wp);
    dvc_status st = g_eval(G, c, tt);
    if (st == DVC_OK) {
        dvc_imat_mul_vec(a, P->Yx, X);
        dvc_imat_mul_vec(b, P->Yg, G);
        dvc_ivec_add(a, a, b);
        dvc_ivec_add(a, a, P->yc);
        /* y solves the LVI: it lies in [l, u] */
        for (long i = 0; i < c->m && st == DVC_OK; i++) {
            mpfi_ptr e = a->e[i];
            if (mpfr_cmp(&e->left, &c->l->e[i]->left) < 0) mpfr_set(&e->left, &c->l->e[i]->left, MPFR_RNDD);
            if (mpfr_cmp(&e->right, &c->u->e[i]->right) > 0) mpfr_set(&e->right, &c->u->e[i]->right, MPFR_RNDU);
            if (mpfr_cmp(&e->left, &e->right) > 0)
                st = dvc_error(DVC_ERR_INPUT, "events route: y%ld of pattern %s lies outside [l, u] "
                               "on the given states (not the pattern of those states)", i + 1, P->pat);
        }
        if (st == DVC_OK) dvc_ivec_set(Y, a);
    }
    dvc_ivec_clear(G);
    dvc_ivec_clear(a);
    dvc_ivec_clear(b);
    return st;
}

void dvc_dlvi_events_stats(const dvc_hybrid_model_t hm, long *patterns, long *events,
                           long *windows)
{
    const evt_ctx *c = ctx_of(hm);
    if (patterns) *patterns = c ? c->npat : 0;
    if (events) *events = c ? c->nevents : 0;
    if (windows) *windows = c ? c->nwindows : 0;
}

/* The forcing entries as text (f: n, g: m) and g parsed back. */
static dvc_status ctx_forcing(evt_ctx *c, const dvc_dlvi_problem_t p)
{
    dvc_status st = DVC_OK;
    const dvc_tfun_cb *cb[2] = {&p->fcb, &p->gcb};
    for (int w = 0; w < 2 && st == DVC_OK; w++) {
        long k = w ? c->m : c->n;
        evt_fun *F = calloc((size_t)k, sizeof *F);
        if (w) c->g = F;
        else c->f = F;
        if (!F) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        dvc_ivec_ptr V = w ? c->gc : c->fc;
        dvc_ivec_zero(V);
        if (!cb[w]->eval) continue;
        const dvc_tfun_vec_struct *fv = dvc_tfun_cb_vec(cb[w]);
        if (!fv || fv->k != k)
            return dvc_error(DVC_ERR_INPUT, "events route: %s is not given as expressions of t or "
                             "constants (a function of another kind, e.g. of a scaled problem)",
                             w ? "g" : "f");
        for (long i = 0; i < k && st == DVC_OK; i++) {
            char tag[32];
            snprintf(tag, sizeof tag, "_%c%ld_", w ? 'g' : 'f', i);
            if (fv->fn[i].kind == DVC_TFUN_TABLE && !w) { /* a basis table (section 4) */
                F[i].kind = 3;
                F[i].text = strdup("0");
                if (!F[i].text) return dvc_error(DVC_ERR_NOMEM, "out of memory");
                continue;
            }
            st = evt_fun_text(&F[i], V->e[i], c->lits, &fv->fn[i], tag);
            if (st != DVC_OK) st = dvc_error_context(st, "%s[%ld]: ", w ? "g" : "f", i + 1);
        }
    }
    if (st != DVC_OK) return st;
    c->gx = calloc((size_t)c->m, sizeof *c->gx);
    if (!c->gx) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long j = 0; j < c->m; j++) dvc_expr_init2(c->gx[j], c->wp);
    for (long j = 0; j < c->m && st == DVC_OK; j++)
        if (c->g[j].kind == 2) st = dvc_expr_parse(c->gx[j], c->g[j].text, c->lits);
    if (st != DVC_OK) return st;
    /* the forcing basis: the distinct texts of f and g (the same expression
     * gives the same text: literals of equal value share a name) */
    c->fu = calloc((size_t)c->n, sizeof *c->fu);
    c->gu = calloc((size_t)c->m, sizeof *c->gu);
    const char **u = calloc((size_t)(c->n + c->m), sizeof *u);
    if (!c->fu || !c->gu || !u) {
        free(u);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    for (long e = 0; e < c->n + c->m; e++) {
        evt_fun *F = e < c->n ? &c->f[e] : &c->g[e - c->n];
        long *ix = e < c->n ? &c->fu[e] : &c->gu[e - c->n];
        if (F->kind < 2) continue;
        long k = F->kind == 3 ? c->nu : 0; /* a table: its own basis function */
        while (k < c->nu && strcmp(u[k], F->text)) k++;
        if (k == c->nu) u[c->nu++] = F->text;
        *ix = k;
    }
    st = dvc_hybrid_set_basis(c->hm, c->nu, u, c->lits);
    free(u);
    const dvc_tfun_vec_struct *fv = p->fcb.eval ? dvc_tfun_cb_vec(&p->fcb) : NULL;
    for (long i = 0; i < c->n && st == DVC_OK; i++)
        if (c->f[i].kind == 3) st = dvc_hybrid_set_basis_table(c->hm, c->fu[i], fv->fn[i].tab);
    return st;
}

static dvc_status ctx_new(evt_ctx **out, dvc_hybrid_model_struct *hm, const dvc_dlvi_problem_t p,
                          mpfr_prec_t wp)
{
    evt_ctx *c = calloc(1, sizeof *c);
    if (!c) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    c->hm = hm;
    c->n = p->n;
    c->m = p->m;
    c->wp = wp;
    dvc_imat_init2(c->A, p->n, p->n, wp);
    dvc_imat_init2(c->B, p->n, p->m, wp);
    dvc_imat_init2(c->Q, p->m, p->n, wp);
    dvc_imat_init2(c->M, p->m, p->m, wp);
    dvc_ivec_init2(c->l, p->m, wp);
    dvc_ivec_init2(c->u, p->m, wp);
    dvc_ivec_init2(c->fc, p->n, wp);
    dvc_ivec_init2(c->gc, p->m, wp);
    dvc_imat_set(c->A, p->A);
    dvc_imat_set(c->B, p->B);
    dvc_imat_set(c->Q, p->Q);
    dvc_imat_set(c->M, p->M);
    dvc_ivec_set(c->l, p->l);
    dvc_ivec_set(c->u, p->u);
    dvc_expr_consts_init(c->lits);
    *out = c;
    return ctx_forcing(c, p);
}

/* phi' = ds/dt + grad s . (A_k X + b_k(T)) of switching function g over
 * T x X in mode k. */
static dvc_status dphi_mode(mpfi_t dphi, const dvc_hybrid_model_struct *hm, long g, long k,
                            const mpfi_t T, const dvc_ivec_t X)
{
    mpfr_prec_t wp = dvc_ivec_prec(X);
    dvc_ivec_t F;
    mpfi_t v, one;
    dvc_ivec_init2(F, hm->n, wp);
    mpfi_init2(v, wp);
    mpfi_init2(one, wp);
    mpfi_set_ui(one, 1);
    dvc_status st = dvc_hybrid_field(F, hm, k, T, X);
    if (st == DVC_OK) st = dvc_expr_eval_tangent(v, dphi, hm->g[g], T, X, one, F);
    dvc_ivec_clear(F);
    mpfi_clear(v);
    mpfi_clear(one);
    return st;
}

/* The transitions out of mode k whose switching function may vanish at
 * (T, X), i.e. not proven on k's side (the side opposite to the
 * transition's direction); count in *nz, the last one in *tz. */
static dvc_status on_surface(const dvc_hybrid_model_struct *hm, long k, const mpfi_t T,
                             const dvc_ivec_t X, long *nz, long *list)
{
    mpfi_t v;
    mpfi_init2(v, dvc_ivec_prec(X));
    dvc_status st = DVC_OK;
    *nz = 0;
    for (long j = 0; j < hm->ntrans && st == DVC_OK; j++) {
        const dvc_hybrid_transition *tr = &hm->trans[j];
        if (tr->from != k) continue;
        st = dvc_expr_eval_x(v, hm->g[tr->g], T, X);
        if (st == DVC_OK && !(tr->dir < 0 ? dvc_ival_is_pos(v) : dvc_ival_is_neg(v))) list[(*nz)++] = j;
    }
    mpfi_clear(v);
    return st;
}

/* Largest number of indices on their surfaces at t = 0 (2^k candidate
 * patterns are tried). */
#define EVT_DEGEN_MAX 10

/* 1 when every switching function of mode k that may vanish at (T, X)
 * is proven to lie on k's closed side there (every state of X is in the
 * closure of k's region: a box straddling the surface is not) and to move
 * away from its transition under k's own field. */
static dvc_status enters(int *ok, evt_ctx *c, long k, const mpfi_t T, const dvc_ivec_t X, long *list)
{
    long nz = 0;
    mpfi_t d, v;
    mpfi_init2(d, c->wp);
    mpfi_init2(v, c->wp);
    dvc_status st = evt_expand(k, 0, c);
    if (st == DVC_OK) st = on_surface(c->hm, k, T, X, &nz, list);
    *ok = st == DVC_OK;
    for (long j = 0; j < nz && st == DVC_OK && *ok; j++) {
        const dvc_hybrid_transition *tr = &c->hm->trans[list[j]];
        st = dvc_expr_eval_x(v, c->hm->g[tr->g], T, X);
        if (st == DVC_OK) st = dphi_mode(d, c->hm, tr->g, k, T, X);
        *ok = st == DVC_OK && (tr->dir < 0 ? dvc_ival_is_nonneg(v) && dvc_ival_is_pos(d)
                                           : dvc_ival_is_nonpos(v) && dvc_ival_is_neg(d));
    }
    mpfi_clear(d);
    mpfi_clear(v);
    return st;
}

/* The forward pattern at t = 0 (docs/events.md section 5): *mode0 holds the
 * pattern read off the LVI solution; when some of its switching functions
 * may vanish over x0, each of their indices may stay or move to the other
 * side, and the first of these 2^k patterns whose vanishing functions all
 * move into its own side (under its own field) is taken. The engine's first
 * step proves it again (a function moving away cannot fire). */
static dvc_status forward_pattern(evt_ctx *c, const mpfi_t T0, const dvc_ivec_t X0, long *mode0)
{
    long m = c->m, nz = 0, nd = 0;
    double t0 = mpfr_get_d(&T0->left, MPFR_RNDN);
    const char *what = t0 == 0 ? "start" : "state after the window";
    long *list = malloc((size_t)(2 * m + 1) * sizeof *list); /* transitions of one mode */
    long *D = malloc((size_t)m * sizeof *D);
    char *base = strdup(c->pats[*mode0].pat), *alt = strdup(c->pats[*mode0].pat),
         *cand = strdup(c->pats[*mode0].pat);
    dvc_status st = list && D && base && alt && cand ? DVC_OK
                  : dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK) st = evt_expand(*mode0, 0, c);
    if (st == DVC_OK) st = on_surface(c->hm, *mode0, T0, X0, &nz, list);
    for (long j = 0; j < nz && st == DVC_OK; j++) {
        /* the index the transition changes, and its other side */
        const char *to = c->pats[c->hm->trans[list[j]].to].pat;
        long i = 0;
        while (i < m && to[i] == base[i]) i++;
        long d = 0;
        while (d < nd && D[d] != i) d++;
        if (d < nd)
            st = dvc_error(DVC_NOT_CERTIFIED, "events route: degenerate %s: y%ld may be at both "
                           "bounds at t = %.17g", what, i + 1, t0);
        else if (nd == EVT_DEGEN_MAX)
            st = dvc_error(DVC_NOT_CERTIFIED, "events route: degenerate %s: more than %d "
                           "indices on their surfaces at t = %.17g", what, EVT_DEGEN_MAX, t0);
        else {
            D[nd++] = i;
            alt[i] = to[i];
        }
    }
    int ok = nd == 0;
    for (long mask = 0; st == DVC_OK && !ok && mask < (1L << nd); mask++) {
        long k;
        for (long b = 0; b < nd; b++) cand[D[b]] = (mask >> b) & 1 ? alt[D[b]] : base[D[b]];
        st = pat_get(c, cand, &k);
        if (st == DVC_OK) st = enters(&ok, c, k, T0, X0, list);
        if (ok) *mode0 = k;
    }
    if (st == DVC_OK && !ok)
        st = dvc_error(DVC_NOT_CERTIFIED, "events route: degenerate %s: %ld %s on %s surface%s "
                       "at t = %.17g (pattern %s) and no pattern is proven to be entered (e.g. a "
                       "grazing %s)", what, nd, nd == 1 ? "index" : "indices",
                       nd == 1 ? "its" : "their", nd == 1 ? "" : "s", t0, base,
                       t0 == 0 ? "start" : "contact");
    free(list);
    free(D);
    free(base);
    free(alt);
    free(cand);
    return st;
}

/* The initial pattern (docs/events.md section 5): classified from the
 * certified LVI solution at (x0, g(0)), proven by the signs of its
 * switching functions over x0; one switching function that may vanish
 * there is decided by the sign of its derivative, the same under both
 * patterns' fields (the solution enters that side). */
static dvc_status initial_pattern(evt_ctx *c, const mpfi_t T0, dvc_ivec_t X0, long *mode0,
                                  int *degen)
{
    long m = c->m;
    mpfr_prec_t wp = c->wp;
    dvc_lvi_solver_t sv;
    dvc_lvi_result_t lr;
    dvc_ivec_t q, G, w;
    char *pat = calloc((size_t)m + 1, 1);
    dvc_ivec_init2(q, m, wp);
    dvc_ivec_init2(G, m, wp);
    dvc_ivec_init2(w, m, wp);
    dvc_lvi_result_init2(lr, m, wp);
    dvc_status st = dvc_lvi_solver_init2(sv, c->M, c->l, c->u, wp);
    if (st != DVC_OK) st = dvc_error_context(st, "events route: ");
    if (st == DVC_OK && !pat) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK) st = g_eval(G, c, T0);
    if (st == DVC_OK) {
        dvc_imat_mul_vec(q, c->Q, X0);
        dvc_ivec_add(q, q, G);
        st = dvc_lvi_solve(lr, sv, q, NULL);
        if (st != DVC_OK) st = dvc_error_context(st, "events route: the LVI at t = 0: ");
    }
    if (st == DVC_OK) {
        dvc_imat_mul_vec(w, c->M, lr->y);
        dvc_ivec_add(w, w, q);
        for (long i = 0; i < m; i++) {
            mpfi_srcptr y = lr->y->e[i];
            int at_l = finite_end(c, i, 'l') && mpfr_cmp(&y->left, &c->l->e[i]->right) <= 0;
            int at_u = finite_end(c, i, 'u') && mpfr_cmp(&y->right, &c->u->e[i]->left) >= 0;
            if (at_l && !(at_u && dvc_ival_is_neg(w->e[i]))) pat[i] = 'l';
            else if (at_u) pat[i] = 'u';
            else pat[i] = 'f';
        }
        st = pat_get(c, pat, mode0);
    }
    if (st == DVC_OK) st = forward_pattern(c, T0, X0, mode0);
    if (st == DVC_NOT_CERTIFIED && degen && *mode0 >= 0) {
        /* a degenerate start, bridged by a window from t = 0 (section 3):
         * the read-off pattern only names the window's step */
        dvc_error_reset();
        *degen = 1;
        st = DVC_OK;
    }
    if (pat) free(pat);
    dvc_lvi_result_clear(lr);
    dvc_lvi_solver_clear(sv);
    dvc_ivec_clear(q);
    dvc_ivec_clear(G);
    dvc_ivec_clear(w);
    return st;
}

/* f and g over T, for the window's field: f from its constant part and
 * the model's basis (expressions and tables). */
static dvc_status window_fg(dvc_ivec_t F, dvc_ivec_t G, const mpfi_t T, void *vc)
{
    evt_ctx *c = vc;
    const dvc_hybrid_model_struct *hm = c->hm;
    dvc_status st = g_eval(G, c, T);
    mpfi_t v;
    mpfi_init2(v, dvc_ivec_prec(F));
    for (long i = 0; i < c->n && st == DVC_OK; i++) {
        mpfi_set(F->e[i], c->fc->e[i]);
        if (c->f[i].kind < 2) continue;
        long j = c->fu[i];
        st = hm->utab && hm->utab[j] ? dvc_tabfun_eval(v, hm->utab[j], T)
                                      : dvc_expr_eval(v, hm->u[j], T);
        mpfi_add(F->e[i], F->e[i], v);
    }
    mpfi_clear(v);
    return st;
}

/* The model's bridge hook (docs/events.md section 3): the continuous field
 * over the window T, then the forward pattern at its end, found and proven
 * as at t = 0 (section 5). */
static dvc_status evt_bridge(const mpfi_t T, const dvc_ivec_t X0, dvc_ivec_t X1, dvc_ivec_t box,
                             long *mode, void *vc)
{
    evt_ctx *c = vc;
    if (c->nwindows >= c->max_events) /* chattering: reported, not looped on */
        return dvc_error(DVC_NOT_CERTIFIED, "events route: the budget of %ld ambiguity windows "
                         "(max_events) is reached", c->max_events);
    dvc_lvi_solver_t sv;
    dvc_status st = dvc_lvi_solver_init2(sv, c->M, c->l, c->u, c->wp);
    if (st != DVC_OK) return st;
    evt_field fd = {c->A, c->B, c->Q, sv, window_fg, c};
    /* substeps of at most 2^-24 (1 + |t|): their first-order error,
     * window x substep, stays below the state's distance to the surfaces
     * after the window, which grows with the window */
    double w = mpfr_get_d(&T->right, MPFR_RNDU) - mpfr_get_d(&T->left, MPFR_RNDD);
    double a = 0x1p-24 * (1 + fabs(mpfr_get_d(&T->left, MPFR_RNDN)));
    long nsub = 16 + (w / a < 4096 ? (long)(w / a) : 4096);
    st = evt_window_flow(&fd, T, X0, X1, box, nsub);
    dvc_lvi_solver_clear(sv);
    mpfi_t Te;
    mpfi_init2(Te, c->wp);
    mpfi_set_fr(Te, &T->right);
    if (st == DVC_OK) st = initial_pattern(c, Te, X1, mode, NULL);
    mpfi_clear(Te);
    if (st == DVC_OK) c->nwindows++;
    return st;
}

dvc_status dvc_dlvi_events_model(dvc_hybrid_model_t hm, const dvc_dlvi_problem_t p,
                                 const dvc_dlvi_events_opts *o)
{
    dvc_dlvi_events_opts def;
    if (!o) {
        dvc_dlvi_events_opts_default(&def);
        o = &def;
    }
    dvc_status st = dvc_hybrid_model_init(hm, p->n, NULL, p->prec);
    if (st != DVC_OK) return st;
    hm->balance = 1; /* stiff patterns (docs/events.md section 6) */
    if (p->m < 1) return dvc_error(DVC_ERR_INPUT, "events route: the problem has no LVI (m = 0)");
    if (!dvc_imat_is_finite(p->A) || !dvc_imat_is_finite(p->B) || !dvc_imat_is_finite(p->Q) ||
        !dvc_imat_is_finite(p->M) || !dvc_ivec_is_finite(p->x0))
        return dvc_error(DVC_ERR_INPUT, "events route: A, B, Q, M and x0 must be finite");
    if (!mpfr_number_p(&p->T->right) || mpfr_sgn(&p->T->left) <= 0)
        return dvc_error(DVC_ERR_INPUT, "events route: T must be finite and positive");
    hm->h = o->h;
    hm->order = o->order;
    if (hm->h <= 0) {
        /* the step the forcing's Taylor remainder allows (the matrix norms
         * cap it further per pattern in the engine) */
        double Td = mpfr_get_d(&p->T->right, MPFR_RNDU);
        int K = dvc_hybrid_model_order(hm);
        double h = evt_forcing_h(dvc_tfun_cb_vec(&p->fcb), Td, K, 0.25);
        h = evt_forcing_h(dvc_tfun_cb_vec(&p->gcb), Td, K, h);
        if (h < 0.25) hm->h = h;
    }
    if (o->guard_bits >= 0) hm->guard_bits = o->guard_bits;
    evt_ctx *c = NULL;
    st = ctx_new(&c, hm, p, hm->prec + (hm->guard_bits > 0 ? hm->guard_bits : 0));
    if (c) {
        c->max_events = o->max_events > 0 ? o->max_events : 100000;
        c->max_modes = o->max_modes > 0 ? o->max_modes : 20000;
        hm->expand = evt_expand;
        hm->fill = evt_fill;
        hm->expand_ctx = c;
        hm->expand_release = evt_release;
        if (o->windows >= 0) hm->bridge = evt_bridge;
    }
    if (st != DVC_OK) return st;
    mpfr_t t0, T;
    mpfi_t T0;
    dvc_ivec_t X0;
    mpfr_inits2(hm->prec, t0, T, (mpfr_ptr)0);
    mpfi_init2(T0, c->wp);
    dvc_ivec_init2(X0, p->n, c->wp);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    mpfr_set(T, &p->T->right, MPFR_RNDU); /* the tube covers every T in [T] */
    mpfi_set_ui(T0, 0);
    dvc_ivec_set(X0, p->x0);
    long mode0 = -1;
    st = initial_pattern(c, T0, X0, &mode0, o->windows >= 0 ? &hm->start_window : NULL);
    if (st == DVC_OK) st = dvc_hybrid_set_initial(hm, mode0, p->x0, t0, T);
    mpfr_clears(t0, T, (mpfr_ptr)0);
    mpfi_clear(T0);
    dvc_ivec_clear(X0);
    return st;
}

dvc_status dvc_dlvi_events_run(dvc_hybrid_result_t r, dvc_hybrid_model_t m,
                               const dvc_dlvi_problem_t p, const dvc_dlvi_events_opts *o)
{
    dvc_status st = dvc_dlvi_events_model(m, p, o);
    if (st != DVC_OK) return st;
    return dvc_hybrid_enclose(r, m);
}
