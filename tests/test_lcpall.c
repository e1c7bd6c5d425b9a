/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvc_lcpall_solve against references computed by other means: exact
 * rational enumeration of the complementary bases (GMP mpq, Gaussian
 * elimination) on random small instances, closed forms on block-diagonal
 * instances, and the 2^n solutions of -I + perturbation. */
#include <fenv.h>
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dvicert/dvicert.h"
#include "lcpall_internal.h"

/* Exact rational x in the binary64 interval [lo, hi]. */
static int q_in(const mpq_t x, double lo, double hi)
{
    mpq_t t;
    int ok;
    mpq_init(t);
    mpq_set_d(t, lo);
    ok = mpq_cmp(t, x) <= 0;
    mpq_set_d(t, hi);
    ok = ok && mpq_cmp(x, t) <= 0;
    mpq_clear(t);
    return ok;
}

/* Exact solution of the basis system of J (bits of mask) for rational M, q
 * (row-major): z (n), w (n). Returns 1 solved, 0 singular M_JJ. */
static int exact_basis(mpq_t *z, mpq_t *w, mpq_t *const M, mpq_t *const q, long n, unsigned mask)
{
    long J[16], m = 0;
    mpq_t A[16 * 17], f, t;
    int ok = 1;
    for (long i = 0; i < n; i++)
        if (mask >> i & 1) J[m++] = i;
    mpq_init(f);
    mpq_init(t);
    for (long a = 0; a < m * (m + 1); a++) mpq_init(A[a]);
    for (long a = 0; a < m; a++) {
        for (long b = 0; b < m; b++) mpq_set(A[a * (m + 1) + b], M[J[a] * n + J[b]]);
        mpq_neg(A[a * (m + 1) + m], q[J[a]]);
    }
    for (long k = 0; k < m && ok; k++) {
        long p = -1;
        for (long i = k; i < m; i++)
            if (mpq_sgn(A[i * (m + 1) + k]) != 0) {
                p = i;
                break;
            }
        if (p < 0) {
            ok = 0;
            break;
        }
        if (p != k)
            for (long j = 0; j <= m; j++) mpq_swap(A[p * (m + 1) + j], A[k * (m + 1) + j]);
        for (long i = 0; i < m; i++) {
            if (i == k || mpq_sgn(A[i * (m + 1) + k]) == 0) continue;
            mpq_div(f, A[i * (m + 1) + k], A[k * (m + 1) + k]);
            for (long j = k; j <= m; j++) {
                mpq_mul(t, f, A[k * (m + 1) + j]);
                mpq_sub(A[i * (m + 1) + j], A[i * (m + 1) + j], t);
            }
        }
    }
    if (ok) {
        for (long i = 0; i < n; i++) mpq_set_ui(z[i], 0, 1);
        for (long a = 0; a < m; a++) mpq_div(z[J[a]], A[a * (m + 1) + m], A[a * (m + 1) + a]);
        for (long i = 0; i < n; i++) {
            mpq_set(w[i], q[i]);
            for (long j = 0; j < n; j++) {
                mpq_mul(t, M[i * n + j], z[j]);
                mpq_add(w[i], w[i], t);
            }
        }
    }
    for (long a = 0; a < m * (m + 1); a++) mpq_clear(A[a]);
    mpq_clear(f);
    mpq_clear(t);
    return ok;
}

/* The box of result r with basis mask, or -1. */
static long find_box(const dvc_lcpall_result_t r, unsigned mask)
{
    char b[32];
    for (long k = 0; k < r->nsol; k++) {
        unsigned m = 0;
        dvc_lcpall_get(r, k, NULL, NULL, b, NULL);
        for (long i = 0; i < r->n; i++)
            if (b[i]) m |= 1u << i;
        if (m == mask) return k;
    }
    return -1;
}

/* Box k contains the exact z, w. */
static int box_contains(const dvc_lcpall_result_t r, long k, mpq_t *z, mpq_t *w)
{
    long n = r->n;
    dvc_ivec_t zi, wi;
    int ok = 1;
    dvc_ivec_init2(zi, n, 53);
    dvc_ivec_init2(wi, n, 53);
    dvc_lcpall_get(r, k, zi, wi, NULL, NULL);
    for (long i = 0; i < n; i++) {
        ok = ok && q_in(z[i], mpfr_get_d(&zi->e[i][0].left, MPFR_RNDD), mpfr_get_d(&zi->e[i][0].right, MPFR_RNDU));
        ok = ok && q_in(w[i], mpfr_get_d(&wi->e[i][0].left, MPFR_RNDD), mpfr_get_d(&wi->e[i][0].right, MPFR_RNDU));
    }
    dvc_ivec_clear(zi);
    dvc_ivec_clear(wi);
    return ok;
}

/* Random instances, n <= 8, integer M, q in quarters: exact enumeration of
 * the bases is the reference. */
static void test_random(void)
{
    check_rng g = {20261126};
    long tested = 0, complete = 0, degenerate = 0, sols = 0;
    for (int inst = 0; inst < 600; inst++) {
        long n = check_rng_int(&g, 1, 8);
        int method = inst & 1 ? DVC_LCPALL_ENUM : DVC_LCPALL_AUTO;
        int wantdeg = inst % 3 == 0; /* zeros in q and small ranges make degeneracy likely */
        mpq_t M[64], q[8], z[8], w[8];
        double Md[64], qd[8];
        for (long k = 0; k < n * n; k++) {
            long v = check_rng_int(&g, -4, 4);
            if (k % (n + 1) == 0 && v == 0) v = check_rng_int(&g, 0, 1) ? 3 : -3;
            Md[k] = (double)v;
            mpq_init(M[k]);
            mpq_set_si(M[k], v, 1);
        }
        for (long i = 0; i < n; i++) {
            long v = wantdeg ? check_rng_int(&g, -1, 1) * 4 : check_rng_int(&g, -12, 12);
            qd[i] = v / 4.0;
            mpq_init(q[i]);
            mpq_set_si(q[i], v, 4);
            mpq_canonicalize(q[i]);
            mpq_init(z[i]);
            mpq_init(w[i]);
        }
        /* reference */
        int singular = 0, deg = 0;
        long nfeas = 0;
        unsigned feas[256];
        for (unsigned mask = 0; mask < (1u << n) && !singular; mask++) {
            if (!exact_basis(z, w, M, q, n, mask)) {
                singular = 1;
                break;
            }
            int ok = 1, strict = 1;
            for (long i = 0; i < n; i++) {
                const mpq_t *v = (mask >> i & 1) ? &z[i] : &w[i];
                if (mpq_sgn(*v) < 0) ok = 0;
                if (mpq_sgn(*v) == 0) strict = 0;
            }
            if (ok) {
                feas[nfeas++] = mask;
                if (!strict) deg = 1;
            }
        }
        if (!singular) {
            dvc_imat_t Mi;
            dvc_ivec_t qi;
            dvc_lcpall_result_t r;
            dvc_lcpall_opts o;
            dvc_imat_init2(Mi, n, n, 53);
            dvc_ivec_init2(qi, n, 53);
            dvc_imat_set_d(Mi, Md);
            dvc_ivec_set_d(qi, qd);
            dvc_lcpall_opts_default(&o);
            o.method = method;
            dvc_lcpall_result_init(r);
            dvc_status st = dvc_lcpall_solve(r, Mi, qi, &o);
            tested++;
            CHECK(st == DVC_OK || st == DVC_NOT_CERTIFIED, "instance %d: status %d", inst, st);
            CHECK((st == DVC_OK) == (r->verdict == DVC_LCPALL_COMPLETE), "instance %d", inst);
            if (!deg) {
                CHECK(r->verdict == DVC_LCPALL_COMPLETE, "instance %d (n = %ld, nondegenerate): %s",
                      inst, n, r->reason);
                if (r->verdict == DVC_LCPALL_COMPLETE)
                    CHECK(r->nsol == nfeas && r->nexists == nfeas,
                          "instance %d: %ld boxes, exact count %ld", inst, r->nsol, nfeas);
                complete++;
            } else {
                /* a degenerate solution is never counted as proven complete */
                CHECK(r->verdict != DVC_LCPALL_COMPLETE, "instance %d: degenerate but complete", inst);
                degenerate++;
            }
            /* each exact solution lies in the box of its basis */
            if (r->covered)
                for (long s = 0; s < nfeas; s++) {
                    exact_basis(z, w, M, q, n, feas[s]);
                    long k = find_box(r, feas[s]);
                    if (r->route[0] == 'P') { /* P route: one box, whatever basis */
                        k = 0;
                        CHECK(nfeas == 1, "instance %d: P route but %ld exact solutions", inst, nfeas);
                    }
                    CHECK(k >= 0 && box_contains(r, k, z, w), "instance %d: exact solution of basis "
                          "%#x not in its box (box %ld)", inst, feas[s], k);
                    sols++;
                }
            /* every box proven to exist belongs to an exactly feasible basis */
            for (long k = 0; k < r->nsol; k++) {
                char b[8];
                unsigned m = 0;
                int stk = dvc_lcpall_get(r, k, NULL, NULL, b, NULL);
                for (long i = 0; i < n; i++)
                    if (b[i]) m |= 1u << i;
                int found = 0;
                for (long s = 0; s < nfeas; s++) found |= feas[s] == m;
                if (stk == DVC_LCPALL_SOL_EXISTS && r->route[0] != 'P')
                    CHECK(found, "instance %d: box %ld proven but basis %#x infeasible", inst, k, m);
            }
            dvc_lcpall_result_clear(r);
            dvc_imat_clear(Mi);
            dvc_ivec_clear(qi);
        }
        for (long k = 0; k < n * n; k++) mpq_clear(M[k]);
        for (long i = 0; i < n; i++) {
            mpq_clear(q[i]);
            mpq_clear(z[i]);
            mpq_clear(w[i]);
        }
    }
    printf("random: %ld instances (%ld nondegenerate, %ld degenerate), %ld exact solutions enclosed\n",
           tested, complete, degenerate, sols);
    CHECK(complete >= 100 && degenerate >= 30, "too few instances: %ld, %ld", complete, degenerate);
}

/* Feasible bases of the exact point problem (M, q): feas[] (masks), *deg
 * when one of them is degenerate. Returns their number, or -1 when some
 * M_JJ is singular (the reference cannot enumerate then). */
static long reference(unsigned *feas, int *deg, mpq_t *M, mpq_t *q, long n)
{
    mpq_t z[8], w[8];
    long nfeas = 0;
    *deg = 0;
    for (long i = 0; i < n; i++) {
        mpq_init(z[i]);
        mpq_init(w[i]);
    }
    for (unsigned mask = 0; mask < (1u << n); mask++) {
        if (!exact_basis(z, w, M, q, n, mask)) {
            nfeas = -1;
            break;
        }
        int ok = 1, strict = 1;
        for (long i = 0; i < n; i++) {
            const mpq_t *v = (mask >> i & 1) ? &z[i] : &w[i];
            if (mpq_sgn(*v) < 0) ok = 0;
            if (mpq_sgn(*v) == 0) strict = 0;
        }
        if (ok) {
            feas[nfeas++] = mask;
            if (!strict) *deg = 1;
        }
    }
    for (long i = 0; i < n; i++) {
        mpq_clear(z[i]);
        mpq_clear(w[i]);
    }
    return nfeas;
}

/* Interval data: M integer +- 2^-10, q in quarters +- 2^-10 (exact binary
 * endpoints). At three exact sample points (all lower endpoints, all upper,
 * the midpoints) every solution lies in the box of its basis when the result
 * is covered, and every basis of an `exists` box is feasible. */
static void test_random_interval(void)
{
    check_rng g = {99};
    long tested = 0, checked = 0;
    for (int inst = 0; inst < 300; inst++) {
        long n = check_rng_int(&g, 1, 6);
        double Mc[36], qc[6], rad = 0x1p-10;
        dvc_imat_t Mi;
        dvc_ivec_t qi;
        dvc_lcpall_result_t r;
        for (long k = 0; k < n * n; k++) {
            long v = check_rng_int(&g, -4, 4);
            if (k % (n + 1) == 0 && v == 0) v = 2;
            Mc[k] = (double)v;
        }
        for (long i = 0; i < n; i++) qc[i] = check_rng_int(&g, -12, 12) / 4.0;
        dvc_imat_init2(Mi, n, n, 53);
        dvc_ivec_init2(qi, n, 53);
        for (long k = 0; k < n * n; k++) mpfi_interv_d(Mi->e[k], Mc[k] - rad, Mc[k] + rad);
        for (long i = 0; i < n; i++) mpfi_interv_d(qi->e[i], qc[i] - rad, qc[i] + rad);
        dvc_lcpall_result_init(r);
        dvc_status st = dvc_lcpall_solve(r, Mi, qi, NULL);
        CHECK(st == DVC_OK || st == DVC_NOT_CERTIFIED, "interval instance %d: status %d", inst, st);
        tested++;
        for (int smp = -1; smp <= 1; smp++) {
            mpq_t M[36], q[6], z[6], w[6];
            unsigned feas[64];
            int deg;
            for (long k = 0; k < n * n; k++) {
                mpq_init(M[k]);
                mpq_set_d(M[k], Mc[k] + smp * rad);
            }
            for (long i = 0; i < n; i++) {
                mpq_init(q[i]);
                mpq_set_d(q[i], qc[i] + smp * rad);
                mpq_init(z[i]);
                mpq_init(w[i]);
            }
            long nfeas = reference(feas, &deg, M, q, n);
            if (nfeas >= 0) {
                checked++;
                if (r->verdict == DVC_LCPALL_COMPLETE)
                    CHECK(r->nsol == nfeas, "interval instance %d sample %d: %ld boxes, exact %ld", inst,
                          smp, r->nsol, nfeas);
                for (long s = 0; s < nfeas && r->covered; s++) {
                    long k = r->route[0] == 'P' ? 0 : find_box(r, feas[s]);
                    exact_basis(z, w, M, q, n, feas[s]);
                    CHECK(k >= 0 && box_contains(r, k, z, w), "interval instance %d sample %d: "
                          "solution of basis %#x not enclosed", inst, smp, feas[s]);
                }
                for (long k = 0; k < r->nsol && r->route[0] != 'P'; k++) {
                    char b[8];
                    unsigned m = 0;
                    int found = 0;
                    if (dvc_lcpall_get(r, k, NULL, NULL, b, NULL) != DVC_LCPALL_SOL_EXISTS) continue;
                    for (long i = 0; i < n; i++)
                        if (b[i]) m |= 1u << i;
                    for (long s2 = 0; s2 < nfeas; s2++) found |= feas[s2] == m;
                    CHECK(found, "interval instance %d sample %d: box %ld proven, basis %#x infeasible",
                          inst, smp, k, m);
                }
            }
            for (long k = 0; k < n * n; k++) mpq_clear(M[k]);
            for (long i = 0; i < n; i++) {
                mpq_clear(q[i]);
                mpq_clear(z[i]);
                mpq_clear(w[i]);
            }
        }
        dvc_lcpall_result_clear(r);
        dvc_imat_clear(Mi);
        dvc_ivec_clear(qi);
    }
    printf("random interval data: %ld instances, %ld exact sample problems checked\n", tested, checked);
    CHECK(checked >= 300, "too few sample problems: %ld", checked);
}

/* The time budget and the box cap end the enumeration with INCOMPLETE, not
 * covered, and say so. */
static void test_budgets(void)
{
    long n = 22;
    dvc_imat_t M;
    dvc_ivec_t q;
    dvc_lcpall_result_t r;
    dvc_lcpall_opts o;
    dvc_imat_init2(M, n, n, 53);
    dvc_ivec_init2(q, n, 53);
    for (long i = 0; i < n; i++) {
        mpfi_set_si(dvc_imat_entry(M, i, i), -1);
        mpfi_set_si(q->e[i], 1);
    }
    dvc_lcpall_opts_default(&o);
    o.max_seconds = 0.05; /* 2^22 bases take seconds */
    dvc_lcpall_result_init(r);
    CHECK(dvc_lcpall_solve(r, M, q, &o) == DVC_NOT_CERTIFIED && r->verdict == DVC_LCPALL_INCOMPLETE &&
          !r->covered && strstr(r->reason, "time budget") != NULL && r->bases < (1L << 22),
          "budget: verdict %d, %ld bases, %s", r->verdict, r->bases, r->reason);
    dvc_lcpall_opts_default(&o);
    o.max_solutions = 10;
    dvc_imat_resize(M, 6, 6);
    dvc_ivec_resize(q, 6);
    for (long i = 0; i < 6; i++) {
        mpfi_set_si(dvc_imat_entry(M, i, i), -1);
        mpfi_set_si(q->e[i], 1);
    }
    CHECK(dvc_lcpall_solve(r, M, q, &o) == DVC_NOT_CERTIFIED && r->nsol == 10 && !r->covered &&
          strstr(r->reason, "more than 10 boxes") != NULL, "cap: %ld boxes, %s", r->nsol, r->reason);
    dvc_lcpall_result_clear(r);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
}

/* Zero diagonals and singular principal submatrices allowed (the pivot
 * path breaks, Farkas certificates from shifted tableaux): soundness only.
 * Every box proven to exist has an exactly nonsingular, feasible basis;
 * when the result is covered, every solution of a nonsingular basis lies in
 * its box; a complete answer has no singular feasible face (checked by the
 * count of the nonsingular feasible bases). */
static void test_random_singular(void)
{
    check_rng g = {4242};
    long tested = 0, covered = 0, with_singular = 0;
    for (int inst = 0; inst < 400; inst++) {
        long n = check_rng_int(&g, 1, 6);
        mpq_t M[36], q[6], z[6], w[6];
        double Md[36], qd[6];
        unsigned feas[64];
        long nfeas = 0, nsing = 0;
        for (long k = 0; k < n * n; k++) {
            Md[k] = (double)check_rng_int(&g, -2, 2);
            mpq_init(M[k]);
            mpq_set_d(M[k], Md[k]);
        }
        for (long i = 0; i < n; i++) {
            qd[i] = (double)check_rng_int(&g, -3, 3);
            mpq_init(q[i]);
            mpq_set_d(q[i], qd[i]);
            mpq_init(z[i]);
            mpq_init(w[i]);
        }
        for (unsigned mask = 0; mask < (1u << n); mask++) {
            if (!exact_basis(z, w, M, q, n, mask)) {
                nsing++;
                continue;
            }
            int ok = 1;
            for (long i = 0; i < n; i++)
                if (mpq_sgn((mask >> i & 1) ? z[i] : w[i]) < 0) ok = 0;
            if (ok) feas[nfeas++] = mask;
        }
        dvc_imat_t Mi;
        dvc_ivec_t qi;
        dvc_lcpall_result_t r;
        dvc_lcpall_opts o;
        dvc_imat_init2(Mi, n, n, 53);
        dvc_ivec_init2(qi, n, 53);
        dvc_imat_set_d(Mi, Md);
        dvc_ivec_set_d(qi, qd);
        dvc_lcpall_opts_default(&o);
        o.method = DVC_LCPALL_ENUM;
        dvc_lcpall_result_init(r);
        dvc_lcpall_solve(r, Mi, qi, &o);
        tested++;
        with_singular += nsing > 0;
        for (long k = 0; k < r->nsol; k++) {
            char b[8];
            unsigned m = 0;
            int found = 0;
            if (dvc_lcpall_get(r, k, NULL, NULL, b, NULL) != DVC_LCPALL_SOL_EXISTS) continue;
            for (long i = 0; i < n; i++)
                if (b[i]) m |= 1u << i;
            for (long s2 = 0; s2 < nfeas; s2++) found |= feas[s2] == m;
            CHECK(found, "singular instance %d: box %ld proven, basis %#x singular or infeasible", inst, k, m);
        }
        if (r->covered) {
            covered++;
            for (long s2 = 0; s2 < nfeas; s2++) {
                long k = find_box(r, feas[s2]);
                exact_basis(z, w, M, q, n, feas[s2]);
                CHECK(k >= 0 && box_contains(r, k, z, w), "singular instance %d: solution of basis %#x "
                      "not enclosed", inst, feas[s2]);
            }
        }
        if (r->verdict == DVC_LCPALL_COMPLETE)
            CHECK(r->nsol == nfeas, "singular instance %d: complete with %ld boxes, %ld exact", inst,
                  r->nsol, nfeas);
        dvc_lcpall_result_clear(r);
        dvc_imat_clear(Mi);
        dvc_ivec_clear(qi);
        for (long k = 0; k < n * n; k++) mpq_clear(M[k]);
        for (long i = 0; i < n; i++) {
            mpq_clear(q[i]);
            mpq_clear(z[i]);
            mpq_clear(w[i]);
        }
    }
    printf("random with singular bases: %ld instances (%ld with a singular M_JJ), %ld covered\n", tested,
           with_singular, covered);
    CHECK(with_singular >= 100 && covered >= 100, "too few: %ld, %ld", with_singular, covered);
}

/* n = 17: eight 2 x 2 blocks [[-a, 2a - 1], [2a - 1, -a]] with q = (1, 1)
 * (3 solutions each: z = 0, z = (1/a, 0), z = (0, 1/a)) and one 1 x 1
 * block -1 with q = 1 (z = 0 or 1): 3^8 * 2 solutions in closed form. */
static void test_blocks(void)
{
    long n = 17;
    double Md[17 * 17] = {0}, qd[17];
    dvc_imat_t M;
    dvc_ivec_t q;
    dvc_lcpall_result_t r;
    dvc_lcpall_opts o;
    char b[17];
    long bad = 0;
    for (long k = 0; k < 8; k++) {
        double a = 3 + k;
        Md[(2 * k) * n + 2 * k] = Md[(2 * k + 1) * n + 2 * k + 1] = -a;
        Md[(2 * k) * n + 2 * k + 1] = Md[(2 * k + 1) * n + 2 * k] = 2 * a - 1;
        qd[2 * k] = qd[2 * k + 1] = 1;
    }
    Md[16 * n + 16] = -1;
    qd[16] = 1;
    dvc_imat_init2(M, n, n, 53);
    dvc_ivec_init2(q, n, 53);
    dvc_imat_set_d(M, Md);
    dvc_ivec_set_d(q, qd);
    dvc_lcpall_opts_default(&o);
    dvc_lcpall_result_init(r);
    CHECK(dvc_lcpall_solve(r, M, q, &o) == DVC_OK, "blocks: %s", dvc_error_message());
    CHECK(r->verdict == DVC_LCPALL_COMPLETE && r->nsol == 13122, "blocks: %ld boxes (%s)", r->nsol, r->reason);
    printf("blocks n = 17: %ld solutions in %.3f s\n", r->nsol, r->seconds);
    {
        mpq_t zq[17], wq[17];
        for (long i = 0; i < n; i++) {
            mpq_init(zq[i]);
            mpq_init(wq[i]);
        }
        for (long s = 0; s < r->nsol; s++) {
            int nd = 0;
            dvc_lcpall_get(r, s, NULL, NULL, b, &nd);
            for (long k = 0; k < 8; k++) {
                long a = 3 + k, i = 2 * k;
                mpq_set_ui(zq[i], 0, 1);
                mpq_set_ui(zq[i + 1], 0, 1);
                mpq_set_ui(wq[i], 0, 1);
                mpq_set_ui(wq[i + 1], 0, 1);
                if (b[i] && b[i + 1]) bad++;
                else if (!b[i] && !b[i + 1]) {
                    mpq_set_ui(wq[i], 1, 1);
                    mpq_set_ui(wq[i + 1], 1, 1);
                } else {
                    long j = b[i] ? i : i + 1, o2 = b[i] ? i + 1 : i;
                    mpq_set_ui(zq[j], 1, (unsigned long)a);           /* z_j = 1/a */
                    mpq_set_ui(wq[o2], (unsigned long)(3 * a - 1), (unsigned long)a); /* (2a-1)/a + 1 */
                }
            }
            mpq_set_ui(zq[16], b[16] ? 1 : 0, 1);
            mpq_set_ui(wq[16], b[16] ? 0 : 1, 1);
            if (!nd || !box_contains(r, s, zq, wq)) bad++;
        }
        for (long i = 0; i < n; i++) {
            mpq_clear(zq[i]);
            mpq_clear(wq[i]);
        }
    }
    CHECK(bad == 0, "blocks: %ld boxes miss the closed form", bad);
    dvc_lcpall_result_clear(r);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
}

/* The consumer of test_minus_identity: each box handed over equals box k
 * of the stored result; a stop request after `stop_at` boxes. */
typedef struct {
    const dvc_lcpall_result_struct *ref;
    long seen, bad, stop_at;
} stream_ctx;

static int on_box(void *ctx, const struct dvc_lcpall_result_s *r, long k)
{
    stream_ctx *c = ctx;
    long n = r->n;
    double lo[16], hi[16], rlo[16], rhi[16];
    char b[16], rb[16];
    int nd, rnd, st = dvc_lcpall_get_d(r, k, lo, hi, b, &nd);
    int rst = dvc_lcpall_get_d(c->ref, k, rlo, rhi, rb, &rnd);
    if (k != c->seen || st < 0 || st != rst || nd != rnd || memcmp(b, rb, (size_t)n) != 0 ||
        memcmp(lo, rlo, sizeof(double) * (size_t)n) != 0 || memcmp(hi, rhi, sizeof(double) * (size_t)n) != 0 ||
        (k > 0 && dvc_lcpall_get_d(r, k - 1, NULL, NULL, NULL, NULL) != -1) || fegetround() != FE_TONEAREST)
        c->bad++;
    c->seen++;
    return c->stop_at > 0 && c->seen >= c->stop_at;
}

/* -I + small perturbation, n = 10, q = 1: every basis is feasible, 1024
 * solutions; each box holds the exact solution of its basis. Streamed
 * (on_box): the same boxes in the same order, one kept at a time. */
static void test_minus_identity(void)
{
    long n = 10;
    check_rng g = {7};
    mpq_t Mq[100], qq[10], z[10], w[10];
    double Md[100], qd[10];
    dvc_imat_t M;
    dvc_ivec_t q;
    dvc_lcpall_result_t r;
    long bad = 0;
    for (long k = 0; k < n * n; k++) {
        long v = check_rng_int(&g, -5, 5);
        Md[k] = (k % (n + 1) == 0 ? -1.0 : 0.0) + v / 1024.0;
        mpq_init(Mq[k]);
        mpq_set_d(Mq[k], Md[k]);
    }
    for (long i = 0; i < n; i++) {
        qd[i] = 1;
        mpq_init(qq[i]);
        mpq_set_ui(qq[i], 1, 1);
        mpq_init(z[i]);
        mpq_init(w[i]);
    }
    dvc_imat_init2(M, n, n, 53);
    dvc_ivec_init2(q, n, 53);
    dvc_imat_set_d(M, Md);
    dvc_ivec_set_d(q, qd);
    dvc_lcpall_result_init(r);
    CHECK(dvc_lcpall_solve(r, M, q, NULL) == DVC_OK, "-I: %s", dvc_error_message());
    CHECK(r->nsol == 1024 && r->verdict == DVC_LCPALL_COMPLETE, "-I: %ld boxes", r->nsol);
    for (unsigned mask = 0; mask < 1024; mask++) {
        long k = find_box(r, mask);
        if (k < 0 || !exact_basis(z, w, Mq, qq, n, mask) || !box_contains(r, k, z, w)) bad++;
    }
    CHECK(bad == 0, "-I: %ld bases without their exact solution", bad);
    printf("-I + perturbation n = 10: %ld solutions in %.4f s\n", r->nsol, r->seconds);
    {
        dvc_lcpall_result_t s;
        dvc_lcpall_opts o;
        stream_ctx c = {r, 0, 0, 0};
        dvc_lcpall_opts_default(&o);
        o.method = DVC_LCPALL_ENUM;
        o.on_box = on_box;
        o.on_box_ctx = &c;
        dvc_lcpall_result_init(s);
        CHECK(dvc_lcpall_solve(s, M, q, &o) == DVC_OK && s->nsol == 1024 && s->nexists == 1024 &&
              s->verdict == DVC_LCPALL_COMPLETE && c.seen == 1024 && c.bad == 0 && s->cap_ <= 16,
              "streamed: %ld boxes, %ld seen, %ld differ, %ld kept", s->nsol, c.seen, c.bad, s->cap_);
        CHECK(dvc_lcpall_get_d(s, 1023, NULL, NULL, NULL, NULL) == 0 &&
              dvc_lcpall_get(s, 0, NULL, NULL, NULL, NULL) == -1, "streamed: only the last box kept");
        /* the consumer stops after 100 boxes: INCOMPLETE, said why */
        c.seen = 0;
        c.stop_at = 100;
        CHECK(dvc_lcpall_solve(s, M, q, &o) == DVC_NOT_CERTIFIED && s->verdict == DVC_LCPALL_INCOMPLETE &&
              c.seen == 100 && s->nsol == 100 && c.bad == 0 && !s->covered &&
              strstr(s->reason, "stopped by the consumer") != NULL, "stopped stream: %ld (%s)", c.seen,
              s->reason);
        dvc_lcpall_result_clear(s);
    }
    dvc_lcpall_result_clear(r);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    for (long k = 0; k < n * n; k++) mpq_clear(Mq[k]);
    for (long i = 0; i < n; i++) {
        mpq_clear(qq[i]);
        mpq_clear(z[i]);
        mpq_clear(w[i]);
    }
}

/* Interval q: M = -I (n = 3), q_i in [0.9, 1.1]: 8 solutions for every q,
 * z_i = q_i on the basis: each box contains both endpoints. */
static void test_interval(void)
{
    long n = 3;
    dvc_imat_t M;
    dvc_ivec_t q;
    dvc_lcpall_result_t r;
    mpq_t lo, hi;
    dvc_ivec_t z, w;
    char b[3];
    long bad = 0;
    dvc_imat_init2(M, n, n, 53);
    dvc_ivec_init2(q, n, 53);
    dvc_ivec_init2(z, n, 53);
    dvc_ivec_init2(w, n, 53);
    for (long i = 0; i < n; i++) {
        mpfi_set_si(dvc_imat_entry(M, i, i), -1);
        CHECK(dvc_ival_set_str(q->e[i], "[0.9, 1.1]") == DVC_OK, "interval");
    }
    mpq_init(lo);
    mpq_init(hi);
    mpq_set_ui(lo, 9, 10);
    mpq_set_ui(hi, 11, 10);
    dvc_lcpall_result_init(r);
    CHECK(dvc_lcpall_solve(r, M, q, NULL) == DVC_OK && r->nsol == 8, "interval q: %ld (%s)", r->nsol, r->reason);
    for (long k = 0; k < r->nsol; k++) {
        dvc_lcpall_get(r, k, z, w, b, NULL);
        for (long i = 0; i < n; i++) {
            const mpfi_t *e = b[i] ? &z->e[i] : &w->e[i];
            double l = mpfr_get_d(&(*e)[0].left, MPFR_RNDD), h = mpfr_get_d(&(*e)[0].right, MPFR_RNDU);
            if (!q_in(lo, l, h) || !q_in(hi, l, h)) bad++;
        }
    }
    CHECK(bad == 0, "interval q: %ld entries miss an endpoint solution", bad);
    dvc_lcpall_result_clear(r);
    mpq_clear(lo);
    mpq_clear(hi);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    dvc_ivec_clear(z);
    dvc_ivec_clear(w);
}

/* A P-matrix gives exactly one solution by the P route; a degenerate
 * P-matrix instance (q_1 = 0 at z = 0) is INCOMPLETE with its candidates,
 * each containing the one solution z = 0, w = (0, 1). */
static void test_p_and_degenerate(void)
{
    double Md[4] = {2, 1, 1, 2}, q1[2] = {-5, -6}, q2[2] = {0, 1};
    dvc_imat_t M;
    dvc_ivec_t q, z, w;
    dvc_lcpall_result_t r;
    int saved = fegetround();
    dvc_imat_init2(M, 2, 2, 53);
    dvc_ivec_init2(q, 2, 53);
    dvc_ivec_init2(z, 2, 53);
    dvc_ivec_init2(w, 2, 53);
    dvc_imat_set_d(M, Md);
    dvc_ivec_set_d(q, q1);
    dvc_lcpall_result_init(r);
    fesetround(FE_UPWARD); /* results must not depend on the caller's mode */
    CHECK(dvc_lcpall_solve(r, M, q, NULL) == DVC_OK, "P: %s", dvc_error_message());
    CHECK(fegetround() == FE_UPWARD, "caller's rounding mode not restored");
    fesetround(saved);
    CHECK(r->nsol == 1 && r->route[0] == 'P', "P: %ld boxes by %s", r->nsol, r->route);
    {
        /* z = (4/3, 7/3) */
        mpq_t zq[2], wq[2];
        mpq_init(zq[0]);
        mpq_init(zq[1]);
        mpq_init(wq[0]);
        mpq_init(wq[1]);
        mpq_set_ui(zq[0], 4, 3);
        mpq_set_ui(zq[1], 7, 3);
        CHECK(box_contains(r, 0, zq, wq), "P: box misses (4/3, 7/3)");
        mpq_clear(zq[0]);
        mpq_clear(zq[1]);
        mpq_clear(wq[0]);
        mpq_clear(wq[1]);
    }
    dvc_ivec_set_d(q, q2);
    CHECK(dvc_lcpall_solve(r, M, q, NULL) == DVC_NOT_CERTIFIED, "degenerate: not refused");
    CHECK(r->verdict == DVC_LCPALL_INCOMPLETE && r->nsol >= 1 && r->covered, "degenerate: verdict %d, %ld boxes",
          r->verdict, r->nsol);
    CHECK(strstr(r->reason, "nondegenerate") != NULL && strstr(r->reason, "P-matrix") != NULL,
          "degenerate: reason '%s'", r->reason);
    for (long k = 0; k < r->nsol; k++) {
        int nd = 1;
        dvc_lcpall_get(r, k, z, w, NULL, &nd);
        CHECK(!nd && mpfi_is_inside_d(0, z->e[0]) > 0 && mpfi_is_inside_d(0, z->e[1]) > 0 &&
              mpfi_is_inside_d(0, w->e[0]) > 0 && mpfi_is_inside_d(1, w->e[1]) > 0,
              "degenerate: box %ld misses z = 0, w = (0, 1)", k);
    }
    dvc_lcpall_result_clear(r);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    dvc_ivec_clear(z);
    dvc_ivec_clear(w);
}

/* Bad input and the size limit. */
static void test_input(void)
{
    dvc_imat_t M;
    dvc_ivec_t q;
    dvc_lcpall_result_t r;
    dvc_lcpall_opts o;
    dvc_imat_init2(M, 2, 3, 53);
    dvc_ivec_init2(q, 2, 53);
    dvc_lcpall_result_init(r);
    CHECK(dvc_lcpall_solve(r, M, q, NULL) == DVC_ERR_INPUT, "non-square M accepted");
    dvc_imat_resize(M, 2, 2);
    mpfi_set_d(dvc_imat_entry(M, 0, 1), INFINITY);
    CHECK(dvc_lcpall_solve(r, M, q, NULL) == DVC_ERR_INPUT, "infinite M accepted");
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
    /* n above max_n, not P: FAILED with where */
    dvc_imat_init2(M, 6, 6, 53);
    dvc_ivec_init2(q, 6, 53);
    for (long i = 0; i < 6; i++) mpfi_set_si(dvc_imat_entry(M, i, i), -1);
    dvc_lcpall_opts_default(&o);
    o.max_n = 5;
    CHECK(dvc_lcpall_solve(r, M, q, &o) == DVC_NOT_CERTIFIED && r->verdict == DVC_LCPALL_FAILED &&
          strstr(r->reason, "n = 5") != NULL, "size limit: %s", r->reason);
    dvc_lcpall_result_clear(r);
    dvc_imat_clear(M);
    dvc_ivec_clear(q);
}

/* A random double: random mantissa, sign from bit 1 of it, the exponent
 * anywhere (one in five) or within 2^+-60. */
static double rand_double(check_rng *g, long it)
{
    uint64_t bits = ((uint64_t)check_rng_int(g, 0, 0x7fffffff) << 33) ^
                    ((uint64_t)check_rng_int(g, 0, 0x7fffffff) << 2) ^ (uint64_t)check_rng_int(g, 0, 3);
    long ex = it % 5 == 0 ? check_rng_int(g, 1, 2046) : 1023 + check_rng_int(g, -60, 60);
    double x;
    bits = (bits & ((UINT64_C(1) << 52) - 1)) | ((uint64_t)ex << 52) | ((uint64_t)(it >> 1 & 1) << 63);
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* dvc_lcpall_fmt_ against MPFR on x: 1 when the text was made (counting
 * a difference in *bad), 0 when it declined. */
static int fmt_vs_mpfr(double x, int digits, int up, mpfr_t t, long *bad)
{
    char buf[64], *ref;
    if (!dvc_lcpall_fmt_(buf, x, digits, up)) return 0;
    mpfr_set_d(t, x, MPFR_RNDN);
    ref = dvc_mpfr_str(t, digits, up ? MPFR_RNDU : MPFR_RNDD);
    if (ref == NULL || strcmp(ref, buf) != 0) {
        if ((*bad)++ < 5)
            printf("fmt %a, %d digits %s: %s, MPFR %s\n", x, digits, up ? "up" : "down", buf, ref ? ref : "?");
    }
    free(ref);
    return 1;
}

/* The decimal text of the JSON bounds (dvc_lcpall_fmt_) is MPFR's, byte
 * for byte: random doubles of every binade the fast path takes and beyond
 * (where it declines), every number of digits, both directions; values
 * whose digits end in 9s and 0s (carries), and exact decimals. */
static void test_fmt(void)
{
    check_rng g = {2027};
    long handled = 0, declined = 0, bad = 0;
    mpfr_t t;
    mpfr_init2(t, 53);
    for (long it = 0; it < 400000; it++) {
        double x = rand_double(&g, it);
        int digits = (int)check_rng_int(&g, 2, 17), up = (int)(it & 1);
        if (it % 7 == 3) x = (double)check_rng_int(&g, 1, 100000) * pow(10, (double)check_rng_int(&g, -12, 12));
        if (it % 11 == 5) x = nextafter(pow(10, (double)check_rng_int(&g, -10, 15)), it % 2 ? INFINITY : 0);
        if (it % 13 == 7) x = 0x1p-1074 * (double)check_rng_int(&g, 1, 1000); /* subnormal: declined */
        if (fmt_vs_mpfr(x, digits, up, t, &bad)) handled++;
        else declined++;
    }
    mpfr_clear(t);
    CHECK(bad == 0 && handled > 200000, "decimal text: %ld of %ld differ from MPFR (%ld declined)", bad, handled,
          declined);
}

/* The 17-digit route of dvc_lcpall_fmt_ (the default, its own exponent
 * guess and digit loop) against MPFR: every binade (its guess is at most
 * one below the decimal exponent, and never above it), the neighbours of
 * powers of 10 and 2 (carries, exponent changes), values near 1 (the
 * solutions of bench_lcpall), both directions and signs. */
static void test_fmt17(void)
{
    check_rng g = {2028};
    long handled = 0, bad = 0;
    mpfr_t t;
    mpfr_init2(t, 53);
    for (long it = 0; it < 300000; it++) {
        double x = rand_double(&g, it);
        int up = (int)(it & 1);
        if (it % 4 == 1) x = 1.0 + 0.06 * ((double)check_rng_int(&g, 0, 1 << 30) / (1 << 30) - 0.5);
        if (it % 8 == 3) x = nextafter(pow(10, (double)check_rng_int(&g, -20, 20)), it % 16 < 8 ? INFINITY : 0);
        if (it % 8 == 5) x = nextafter(ldexp(1.0, (int)check_rng_int(&g, -70, 70)), it % 16 < 8 ? INFINITY : 0);
        if (it % 8 == 7) x = pow(10, (double)check_rng_int(&g, -20, 20));
        if (it & 2) x = -x;
        handled += fmt_vs_mpfr(x, 17, up, t, &bad);
    }
    mpfr_clear(t);
    CHECK(bad == 0 && handled > 200000, "17-digit text: %ld of %ld differ from MPFR", bad, handled);
}

int main(void)
{
    test_fmt();
    test_fmt17();
    test_input();
    test_p_and_degenerate();
    test_interval();
    test_minus_identity();
    test_blocks();
    test_random();
    test_random_interval();
    test_random_singular();
    test_budgets();
    return check_report();
}
