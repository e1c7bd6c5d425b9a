/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Linear DAE modes E w' = A w + b(t) (GESDA's eq. 2 with constant E, A)
 * over w = (x, z), the model's states then its algebraic variables,
 * reduced EXACTLY in rational arithmetic (GMP) to the semi-explicit form
 * that src/hybrid/dae.c certifies (docs/dae.md, section 4): the columns of
 * E on z must be zero; Gauss-Jordan elimination of [E_x | A | I] gives
 * P E_x = [I; 0] (E_x of full column rank, else the mode is refused: a
 * state is not differentiated in it), so that
 *     x' = (P A)_1 w + (P b)_1,     0 = (P A)_2 w + (P b)_2,
 * and the mode has index 1 iff the block of (P A)_2 on the z columns is
 * nonsingular, decided exactly. The rows are written as texts with the
 * rational coefficients as "(p/q)" and handed to dvc_hybrid_add_mode_dae,
 * which repeats its own (interval) checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid/internal.h"
#include "hybrid/dae.h"

/* " + (p/q)*name" (name NULL: the coefficient alone) for a nonzero c. */
static void term(hyb_text *b, const mpq_t c, const char *name, const char *wrap)
{
    char *q;
    if (mpq_sgn(c) == 0) return;
    q = mpq_get_str(NULL, 10, c);
    if (!q) {
        b->fail = 1;
        return;
    }
    if (b->n) hyb_text_puts(b, " + ");
    hyb_text_puts(b, "(");
    hyb_text_puts(b, q);
    hyb_text_puts(b, ")*");
    hyb_text_puts(b, wrap ? "(" : "");
    hyb_text_puts(b, name);
    hyb_text_puts(b, wrap ? ")" : "");
    free(q);
}

/* Row i of [PA | Pb] as a text over the names w (k of them) and b. */
static char *row_text(mpq_t *PA, mpq_t *P, long i, long k, char *const *w, const char *const *b)
{
    hyb_text t = {NULL, 0, 0, 0};
    for (long j = 0; j < k; j++) term(&t, PA[i * k + j], w[j], NULL);
    for (long j = 0; b && j < k; j++) term(&t, P[i * k + j], b[j], "");
    if (!t.n) hyb_text_puts(&t, "0");
    if (t.fail) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

static mpq_t *qalloc(long k)
{
    mpq_t *a = malloc((size_t)(k > 0 ? k : 1) * sizeof *a);
    for (long i = 0; a && i < k; i++) mpq_init(a[i]);
    return a;
}

static void qfree(mpq_t *a, long k)
{
    for (long i = 0; a && i < k; i++) mpq_clear(a[i]);
    free(a);
}

/* Row r <- row r - f row s over the rows of M (width w); f copied first. */
static void axpy(mpq_t *M, long w, long r, long s, const mpq_t f, mpq_t tmp)
{
    mpq_t g;
    mpq_init(g);
    mpq_set(g, f);
    for (long j = 0; j < w; j++) {
        mpq_mul(tmp, g, M[s * w + j]);
        mpq_sub(M[r * w + j], M[r * w + j], tmp);
    }
    mpq_clear(g);
}

static void swap_rows(mpq_t *M, long w, long r, long s)
{
    for (long j = 0; r != s && j < w; j++) mpq_swap(M[r * w + j], M[s * w + j]);
}

/* Gauss-Jordan on the first c columns of M (rows k, width w): the pivot
 * columns become unit columns in rows 0..rank-1; returns the rank. */
static long eliminate(mpq_t *M, long k, long w, long c)
{
    long rank = 0;
    mpq_t f, tmp;
    mpq_inits(f, tmp, NULL);
    for (long j = 0; j < c && rank < k; j++) {
        long p = rank;
        while (p < k && mpq_sgn(M[p * w + j]) == 0) p++;
        if (p == k) continue;
        swap_rows(M, w, rank, p);
        mpq_inv(f, M[rank * w + j]);
        for (long l = 0; l < w; l++) mpq_mul(M[rank * w + l], M[rank * w + l], f);
        for (long r = 0; r < k; r++)
            if (r != rank && mpq_sgn(M[r * w + j])) axpy(M, w, r, rank, M[r * w + j], tmp);
        rank++;
    }
    mpq_clears(f, tmp, NULL);
    return rank;
}

/* The z block of the constraint rows (rows n.., columns n.. of PA) is
 * nonsingular, exactly. */
static int z_block_regular(mpq_t *PA, long n, long nz)
{
    long k = n + nz, rank;
    mpq_t *B = qalloc(nz * nz);
    if (!B) return -1;
    for (long i = 0; i < nz; i++)
        for (long j = 0; j < nz; j++) mpq_set(B[i * nz + j], PA[(n + i) * k + n + j]);
    rank = eliminate(B, nz, nz, nz);
    qfree(B, nz * nz);
    return rank == nz;
}

/* The reduced texts f (n) and g (nz) of E w' = A w + b. */
static dvc_status reduce_linear(char **f, char **g, const dvc_hybrid_model_struct *m,
                                const mpq_t *E, const mpq_t *A, const char *const *b)
{
    long n = m->n, nz = m->nz, k = n + nz, w = n + 2 * k;
    mpq_t *M = qalloc(k * w), *PA = qalloc(k * k), *P = qalloc(k * k);
    char **names = malloc((size_t)k * sizeof *names);
    dvc_status st = M && PA && P && names ? DVC_OK : dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long i = 0; st == DVC_OK && i < k; i++)
        for (long j = n; j < k; j++)
            if (mpq_sgn(E[i * k + j]))
                st = dvc_error(DVC_ERR_INPUT, "E has a nonzero entry (row %ld) in the column of the "
                               "algebraic variable '%s': it would be differentiated; write it as a "
                               "state", i + 1, m->znames[j - n]);
    /* [E_x | A | I] */
    for (long i = 0; st == DVC_OK && i < k; i++) {
        for (long j = 0; j < n; j++) mpq_set(M[i * w + j], E[i * k + j]);
        for (long j = 0; j < k; j++) mpq_set(M[i * w + n + j], A[i * k + j]);
        mpq_set_ui(M[i * w + n + k + i], 1, 1);
    }
    if (st == DVC_OK && eliminate(M, k, w, n) < n)
        st = dvc_error(DVC_ERR_INPUT, "the columns of E on the states are rank-deficient (a state "
                       "is not differentiated in this mode): write the mode in semi-explicit form");
    for (long i = 0; st == DVC_OK && i < k; i++)
        for (long j = 0; j < k; j++) {
            mpq_set(PA[i * k + j], M[i * w + n + j]);
            mpq_set(P[i * k + j], M[i * w + n + k + j]);
        }
    if (st == DVC_OK) {
        int reg = z_block_regular(PA, n, nz);
        if (reg < 0) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        else if (!reg)
            st = dvc_error(DVC_ERR_INPUT, "singular pencil or index 2 or higher: the reduced "
                           "constraints' block on the algebraic variables is singular (exactly, in "
                           "rational arithmetic)");
    }
    for (long j = 0; st == DVC_OK && j < k; j++) names[j] = j < n ? m->names[j] : m->znames[j - n];
    for (long i = 0; st == DVC_OK && i < k; i++) {
        char *t = row_text(PA, P, i, k, names, b);
        if (!t) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        else if (i < n) f[i] = t;
        else g[i - n] = t;
    }
    qfree(M, M ? k * w : 0);
    qfree(PA, PA ? k * k : 0);
    qfree(P, P ? k * k : 0);
    free(names);
    return st;
}

dvc_status dvc_hybrid_add_mode_dae_linear(dvc_hybrid_model_t m, const char *name, const mpq_t *E,
                                          const mpq_t *A, const char *const *b,
                                          const dvc_expr_consts_t consts, long *index)
{
    long n = m->n, nz = m->nz;
    char **f, **g;
    dvc_status st;
    if (nz < 1) return dvc_error(DVC_ERR_INPUT, "mode '%s': E without algebraic variables", name);
    f = calloc((size_t)n, sizeof *f);
    g = calloc((size_t)nz, sizeof *g);
    st = f && g ? reduce_linear(f, g, m, E, A, b) : dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st != DVC_OK) st = dvc_error_context(st, "mode '%s': ", name ? name : "");
    else st = dvc_hybrid_add_mode_dae(m, name, (const char *const *)f, (const char *const *)g, consts,
                                      index);
    for (long i = 0; f && i < n; i++) free(f[i]);
    for (long i = 0; g && i < nz; i++) free(g[i]);
    free(f);
    free(g);
    return st;
}
