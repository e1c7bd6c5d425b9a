/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Explicit precision: objects initialised with a precision keep it (also
 * when empty and resized later), and the library computes at the precision
 * of its arguments, whatever the thread's working precision
 * (dvc_prec_set) is at the time of the call. */
#include <string.h>
#include <time.h>

#include "check.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"

static int ivec_prec_is(const dvc_ivec_t v, mpfr_prec_t p)
{
    for (long i = 0; i < v->n; i++)
        if (mpfi_get_prec(v->e[i]) != p) return 0;
    return 1;
}

static int imat_prec_is(const dvc_imat_t A, mpfr_prec_t p)
{
    for (long t = 0; t < A->r * A->c; t++)
        if (mpfi_get_prec(A->e[t]) != p) return 0;
    return 1;
}

static void test_containers(void)
{
    dvc_ivec_t v, w;
    dvc_imat_t A, B;
    dvc_prec_set(24);
    dvc_ivec_init2(v, 0, 113);
    dvc_imat_init2(A, 0, 0, 200);
    CHECK(dvc_ivec_prec(v) == 113 && dvc_imat_prec(A) == 200, "empty objects carry their precision");
    dvc_prec_set(30);
    dvc_ivec_resize(v, 4);
    dvc_imat_resize(A, 3, 5);
    CHECK(v->n == 4 && ivec_prec_is(v, 113), "resized vector at its own precision, not the default");
    CHECK(A->r == 3 && A->c == 5 && imat_prec_is(A, 200), "resized matrix at its own precision");
    dvc_ivec_init(w, 2);
    dvc_imat_init(B, 2, 2);
    CHECK(ivec_prec_is(w, 30) && imat_prec_is(B, 30), "convenience inits use the working precision");
    dvc_ivec_clear(v);
    dvc_ivec_clear(w);
    dvc_imat_clear(A);
    dvc_imat_clear(B);
    dvc_prec_set(DVC_DEFAULT_PREC);
}

/* 1/3 enclosed at 200 bits is much narrower than 2^-60: the solve ran at
 * the arguments' precision, not at the 24-bit default. */
static void test_solve_prec(void)
{
    dvc_imat_t A, X;
    dvc_ivec_t b, x;
    mpfr_t w;
    dvc_prec_set(24);
    dvc_imat_init2(A, 2, 2, 200);
    dvc_imat_init2(X, 2, 2, 200);
    dvc_ivec_init2(b, 2, 200);
    dvc_ivec_init2(x, 2, 200);
    mpfi_set_si(A->e[0], 3);
    mpfi_set_si(A->e[3], 3);
    mpfi_set_si(b->e[0], 1);
    mpfi_set_si(b->e[1], 2);
    mpfr_init2(w, 53);
    CHECK(dvc_imat_solve(x, A, b) == DVC_OK, "solve");
    dvc_ivec_max_width(w, x);
    CHECK(ref_contains_si(x->e[0], 1, 3) && ref_contains_si(x->e[1], 2, 3), "solution enclosed");
    CHECK(mpfr_cmp_d(w, 0x1p-150) < 0, "solve at 200 bits: width %g", mpfr_get_d(w, MPFR_RNDU));
    CHECK(dvc_imat_inv(X, A) == DVC_OK && ref_contains_si(X->e[0], 1, 3), "inverse");
    dvc_imat_clear(A);
    dvc_imat_clear(X);
    dvc_ivec_clear(b);
    dvc_ivec_clear(x);
    mpfr_clear(w);
    dvc_prec_set(DVC_DEFAULT_PREC);
}

/* The LVI solver at an explicit precision: its copies, workspace and result
 * are at that precision whatever dvc_prec_get() says, and the enclosure is
 * as narrow as that precision allows. LCP: M = [[2, 1], [1, 2]], q = (-5, -6)
 * has the solution y = (4/3, 7/3). */
static void test_lvi_prec(void)
{
    dvc_imat_t M;
    dvc_ivec_t q, l, u;
    dvc_lvi_solver_t s;
    dvc_lvi_result_t r;
    mpfr_t w;
    dvc_imat_init2(M, 2, 2, 160);
    dvc_ivec_init2(q, 2, 160);
    dvc_ivec_init2(l, 2, 160);
    dvc_ivec_init2(u, 2, 160);
    mpfi_set_si(M->e[0], 2);
    mpfi_set_si(M->e[1], 1);
    mpfi_set_si(M->e[2], 1);
    mpfi_set_si(M->e[3], 2);
    mpfi_set_si(q->e[0], -5);
    mpfi_set_si(q->e[1], -6);
    for (int i = 0; i < 2; i++) {
        mpfi_set_si(l->e[i], 0);
        mpfr_set_inf(&u->e[i]->left, 1);
        mpfr_set_inf(&u->e[i]->right, 1);
    }
    mpfr_init2(w, 53);
    dvc_prec_set(24);
    CHECK(dvc_lvi_solver_init2(s, M, l, u, 160) == DVC_OK, "solver init2: %s", dvc_error_message());
    dvc_prec_set(40);
    dvc_lvi_result_init2(r, 2, 160);
    CHECK(s->prec == 160 && imat_prec_is(s->M, 160) && ivec_prec_is(s->l, 160),
          "solver copies at 160 bits");
    CHECK(dvc_lvi_solve(r, s, q, NULL) == DVC_OK, "lvi solve: %s", dvc_error_message());
    CHECK(ivec_prec_is(r->y, 160) && mpfr_get_prec(r->resid) == 160, "result at 160 bits");
    CHECK(ref_contains_si(r->y->e[0], 4, 3) && ref_contains_si(r->y->e[1], 7, 3), "solution enclosed");
    dvc_ivec_max_width(w, r->y);
    CHECK(mpfr_cmp_d(w, 0x1p-120) < 0, "lvi at 160 bits: width %g", mpfr_get_d(w, MPFR_RNDU));
    dvc_lvi_result_clear(r);
    dvc_lvi_solver_clear(s);
    dvc_prec_set(DVC_DEFAULT_PREC);
    mpfr_clear(w);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
}

/* A JSON 0.0 is read as [-2^-1074, 2^-1074]. Such an entry must not send a
 * 200 x 200 solve to the MPFI path (seconds of CPU instead of milliseconds). */
static void test_widened_zero(void)
{
    long n = 200;
    dvc_imat_t A;
    dvc_ivec_t b, x;
    clock_t t0, t1;
    double secs;
    int in = 1;
    dvc_imat_init2(A, n, n, 53);
    dvc_ivec_init2(b, n, 53);
    dvc_ivec_init2(x, n, 53);
    for (long i = 0; i < n; i++) { /* dense, diagonally dominant; x = 1, b = row sums */
        long s = 0;
        for (long j = 0; j < n; j++) {
            long a = i == j ? 3 * n : (i * 7 + j * 3) % 5 - 2;
            if (i == 0 && j == n - 1) a = 0;
            mpfi_set_si(dvc_imat_entry(A, i, j), a);
            s += a;
        }
        mpfi_set_si(b->e[i], s);
    }
    mpfi_interv_d(dvc_imat_entry(A, 0, n - 1), -0x1p-1074, 0x1p-1074);
    t0 = clock();
    CHECK(dvc_imat_solve(x, A, b) == DVC_OK, "solve with a widened zero: %s", dvc_error_message());
    t1 = clock();
    secs = (double)(t1 - t0) / CLOCKS_PER_SEC;
    for (long i = 0; i < n; i++) in = in && ref_contains_si(x->e[i], 1, 1);
    CHECK(in, "solution x = 1 enclosed");
    CHECK(secs < 0.5, "widened zero kept the binary64 path: %.3f s CPU", secs);
    dvc_imat_clear(A);
    dvc_ivec_clear(b);
    dvc_ivec_clear(x);
}

int main(void)
{
    test_widened_zero();
    test_containers();
    test_solve_prec();
    test_lvi_prec();
    return check_report();
}
