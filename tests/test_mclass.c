/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Matrix classes: known examples of every class, non-P examples, random
 * P / non-P matrices checked against an independent exact enumeration of
 * principal minors in GMP rationals, and a 16 x 16 P-matrix that only the
 * enumeration can prove. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"

/* Exact sign of det M[a, a] (a = bitmask) by rational elimination. */
static int q_minor_sign(const long *M, long m, unsigned long mask)
{
    long idx[64], k = 0;
    for (long i = 0; i < m; i++)
        if (mask & (1UL << i)) idx[k++] = i;
    mpq_t *A = malloc((size_t)(k * k) * sizeof(mpq_t));
    for (long i = 0; i < k; i++)
        for (long j = 0; j < k; j++) {
            mpq_init(A[i * k + j]);
            mpq_set_si(A[i * k + j], M[idx[i] * m + idx[j]], 1);
        }
    int sign = ref_q_det_sign(A, k);
    for (long q = 0; q < k * k; q++) mpq_clear(A[q]);
    free(A);
    return sign;
}

/* 1 when every principal minor is > 0 (exact). */
static int q_is_p(const long *M, long m)
{
    for (unsigned long a = 1; a < (1UL << m); a++)
        if (q_minor_sign(M, m, a) <= 0) return 0;
    return 1;
}

/* The classes of the integer matrix M, decided exactly from their
 * definitions (principal minors in mpq), independently of the library:
 * Z off-diagonal <= 0; M = Z and P; H (positive diagonal) = positive
 * diagonal and the comparison matrix an M-matrix; SYM; SPD = SYM and P;
 * PD = M + M^T is P (P and positive definite coincide for symmetric
 * matrices). */
static int q_is_p(const long *M, long m);
static unsigned q_classes(const long *M, long m)
{
    long C[32 * 32], S[32 * 32];
    unsigned c = 0;
    int z = 1, sym = 1, posdiag = 1;
    for (long i = 0; i < m; i++) {
        if (M[i * m + i] <= 0) posdiag = 0;
        for (long j = 0; j < m; j++) {
            if (i != j && M[i * m + j] > 0) z = 0;
            if (M[i * m + j] != M[j * m + i]) sym = 0;
            C[i * m + j] = i == j ? labs(M[i * m + j]) : -labs(M[i * m + j]);
            S[i * m + j] = M[i * m + j] + M[j * m + i];
        }
    }
    int p = q_is_p(M, m);
    if (z) c |= DVC_MCLASS_Z;
    if (p) c |= DVC_MCLASS_P;
    if (z && p) c |= DVC_MCLASS_M;
    if (posdiag && q_is_p(C, m)) c |= DVC_MCLASS_H;
    if (sym) c |= DVC_MCLASS_SYM;
    if (sym && p) c |= DVC_MCLASS_SPD;
    if (q_is_p(S, m)) c |= DVC_MCLASS_PD;
    return c;
}

/* Every class the library proved holds, every class it disproved fails,
 * by the exact decision above. */
static void check_verdict(const dvc_mclass_result *r, const long *M, long m, const char *name)
{
    unsigned truth = q_classes(M, m);
    CHECK((r->proven & ~truth) == 0, "%s: proven %s, but exactly not", name, dvc_mclass_names(r->proven & ~truth));
    CHECK((r->disproven & truth) == 0, "%s: disproven %s, but exactly true", name,
          dvc_mclass_names(r->disproven & truth));
}

/* For an interval matrix with dyadic endpoints: the classes proven for
 * [A] hold at random vertices (symmetric ones when SYM is proven), scaled
 * by 2^40 to integers (scaling keeps every class). */
static void check_vertices(const dvc_imat_t A, const dvc_mclass_result *r, const char *name)
{
    check_rng rng = {4242};
    long m = A->r, V[16 * 16];
    for (int smp = 0; smp < 16; smp++) {
        unsigned truth;
        for (long i = 0; i < m; i++)
            for (long j = 0; j < m; j++) {
                mpfi_srcptr e = dvc_imat_entry(A, i, j);
                if ((r->proven & DVC_MCLASS_SYM) && j < i) {
                    V[i * m + j] = V[j * m + i];
                    continue;
                }
                V[i * m + j] = (long)ldexp(mpfr_get_d(check_rng_int(&rng, 0, 1) ? &e->left : &e->right, MPFR_RNDN), 40);
            }
        truth = q_classes(V, m);
        CHECK((r->proven & ~truth) == 0, "%s: proven %s, not true at vertex %d", name,
              dvc_mclass_names(r->proven & ~truth), smp);
    }
}

static void set_mat(dvc_imat_t A, const long *M, long m)
{
    dvc_imat_resize(A, m, m);
    for (long q = 0; q < m * m; q++) mpfi_set_si(A->e[q], M[q]);
}

/* Parse "{i,j,...}" from a message into a mask (1-based indices). */
static unsigned long mask_from_msg(const char *msg)
{
    const char *p = strchr(msg, '{');
    unsigned long mask = 0;
    if (!p) return 0;
    p++;
    while (*p && *p != '}') {
        long v = strtol(p, (char **)&p, 10);
        if (v >= 1 && v <= 64) mask |= 1UL << (v - 1);
        if (*p == ',') p++;
    }
    return mask;
}

static void expect(const long *M, long m, unsigned proven, unsigned disproven, const char *name)
{
    dvc_imat_t A;
    dvc_mclass_result r;
    dvc_imat_init2(A, m, m, 53);
    set_mat(A, M, m);
    CHECK(dvc_mclass_classify(&r, A) == DVC_OK, "%s: classify failed", name);
    CHECK((r.proven & proven) == proven, "%s: proven %s, expected at least", name,
          dvc_mclass_names(r.proven));
    CHECK((r.disproven & disproven) == disproven, "%s: disproven %s, expected more", name,
          dvc_mclass_names(r.disproven));
    CHECK((r.proven & r.disproven) == 0, "%s: proven and disproven overlap", name);
    check_verdict(&r, M, m, name);
    CHECK(check_rounding_nearest(), "rounding mode");
    dvc_imat_clear(A);
}

static void test_known(void)
{
    long lap[] = {2, -1, 0, -1, 2, -1, 0, -1, 2};
    expect(lap, 3,
           DVC_MCLASS_Z | DVC_MCLASS_M | DVC_MCLASS_H | DVC_MCLASS_SYM | DVC_MCLASS_SPD |
               DVC_MCLASS_PD | DVC_MCLASS_P,
           0, "1-D Laplacian");
    long mns[] = {2, -1, 0, 2};
    expect(mns, 2, DVC_MCLASS_Z | DVC_MCLASS_M | DVC_MCLASS_H | DVC_MCLASS_PD | DVC_MCLASS_P,
           DVC_MCLASS_SYM | DVC_MCLASS_SPD, "nonsymmetric M-matrix");
    long hp[] = {4, 1, -1, 2, 5, 2, 1, -1, 3};
    expect(hp, 3, DVC_MCLASS_H | DVC_MCLASS_P, DVC_MCLASS_Z | DVC_MCLASS_M | DVC_MCLASS_SYM,
           "diagonally dominant");
    long spd[] = {4, 1, 0, 1, 3, 1, 0, 1, 2};
    expect(spd, 3, DVC_MCLASS_SYM | DVC_MCLASS_SPD | DVC_MCLASS_PD | DVC_MCLASS_P,
           DVC_MCLASS_Z | DVC_MCLASS_M, "SPD");
    /* SPD, not H: [[1,.9,.9],[.9,1,.9],[.9,.9,1]] scaled by 10 */
    long spdnh[] = {10, 9, 9, 9, 10, 9, 9, 9, 10};
    expect(spdnh, 3, DVC_MCLASS_SPD | DVC_MCLASS_P, DVC_MCLASS_Z, "SPD not H");
    /* PD (M + M^T SPD), not symmetric, not H */
    long pd[] = {10, 12, 9, 6, 10, 9, 9, 9, 10};
    expect(pd, 3, DVC_MCLASS_PD | DVC_MCLASS_P, DVC_MCLASS_SYM | DVC_MCLASS_SPD, "PD");
    /* P only: [[1,3],[-1,1]] (not Z, <M> not an M-matrix, M + M^T singular) */
    long ponly[] = {1, 3, -1, 1};
    expect(ponly, 2, DVC_MCLASS_P, DVC_MCLASS_Z | DVC_MCLASS_M | DVC_MCLASS_SYM, "P only");
    /* Not P. */
    long swap[] = {0, 1, 1, 0};
    expect(swap, 2, DVC_MCLASS_SYM,
           DVC_MCLASS_P | DVC_MCLASS_M | DVC_MCLASS_H | DVC_MCLASS_SPD | DVC_MCLASS_PD | DVC_MCLASS_Z,
           "[[0,1],[1,0]]");
    long indef[] = {1, 2, 2, 1};
    expect(indef, 2, DVC_MCLASS_SYM, DVC_MCLASS_P | DVC_MCLASS_SPD | DVC_MCLASS_PD | DVC_MCLASS_H,
           "[[1,2],[2,1]]");
    long negdiag[] = {-1, 0, 0, 1};
    expect(negdiag, 2, DVC_MCLASS_Z | DVC_MCLASS_SYM, DVC_MCLASS_P | DVC_MCLASS_M, "diag(-1,1)");
    /* Leading minors 1, 1, 1 but minor {1,3} = -3. */
    long lead[] = {1, 0, 2, 0, 1, 2, 2, -2, 1};
    expect(lead, 3, 0, DVC_MCLASS_P, "leading minors positive");
    dvc_imat_t A;
    const char *how = "unset";
    dvc_imat_init2(A, 3, 3, 53);
    set_mat(A, lead, 3);
    dvc_error_reset();
    CHECK(dvc_mclass_prove_p(A, &how) == DVC_NOT_CERTIFIED, "lead: P proven");
    CHECK(how == NULL, "how set on failure");
    CHECK(strstr(dvc_error_message(), "{1,3}") != NULL && strstr(dvc_error_message(), "<= 0"),
          "message '%s' does not name {1,3}", dvc_error_message());
    set_mat(A, lap, 3);
    CHECK(dvc_mclass_prove_p(A, &how) == DVC_OK && how && strstr(how, "M-matrix"), "Laplacian P via M");
    dvc_imat_resize(A, 2, 2);
    set_mat(A, ponly, 2);
    CHECK(dvc_mclass_prove_p(A, &how) == DVC_OK && how && strstr(how, "enumeration"),
          "P only via enumeration");
    /* Interval matrices: [[ [1.9,2.1], -1 ], [ -1, 2 ]] is M; [[1, [-1,1]], [0,1]]
     * is P (triangular) though Z is undecided. */
    dvc_ival_set_dd(dvc_imat_entry(A, 0, 0), 1.9, 2.1);
    mpfi_set_si(dvc_imat_entry(A, 0, 1), -1);
    mpfi_set_si(dvc_imat_entry(A, 1, 0), -1);
    mpfi_set_si(dvc_imat_entry(A, 1, 1), 2);
    dvc_mclass_result r;
    CHECK(dvc_mclass_classify(&r, A) == DVC_OK && (r.proven & DVC_MCLASS_M), "interval M");
    check_vertices(A, &r, "interval M");
    mpfi_set_si(dvc_imat_entry(A, 0, 0), 1);
    dvc_ival_set_dd(dvc_imat_entry(A, 0, 1), -1, 1);
    mpfi_set_si(dvc_imat_entry(A, 1, 0), 0);
    mpfi_set_si(dvc_imat_entry(A, 1, 1), 1);
    CHECK(dvc_mclass_classify(&r, A) == DVC_OK, "classify interval");
    CHECK((r.proven & DVC_MCLASS_P) && !(r.proven & DVC_MCLASS_Z) && !(r.disproven & DVC_MCLASS_Z),
          "interval triangular: proven %s disproven %s", dvc_mclass_names(r.proven),
          dvc_mclass_names(r.disproven));
    check_vertices(A, &r, "interval triangular");
    /* Interval straddling a singular member: minor {1,2} contains 0 -> not
     * proven, and not disproven either. */
    mpfi_set_si(dvc_imat_entry(A, 0, 0), 1);
    mpfi_set_si(dvc_imat_entry(A, 0, 1), 1);
    dvc_ival_set_dd(dvc_imat_entry(A, 1, 0), 0.5, 1.5);
    mpfi_set_si(dvc_imat_entry(A, 1, 1), 1);
    CHECK(dvc_mclass_classify(&r, A) == DVC_OK && !(r.proven & DVC_MCLASS_P) &&
              !(r.disproven & DVC_MCLASS_P),
          "straddling: proven %s disproven %s", dvc_mclass_names(r.proven), dvc_mclass_names(r.disproven));
    check_vertices(A, &r, "straddling");
    CHECK(dvc_mclass_prove_p(A, NULL) == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "could not"),
          "straddling message: %s", dvc_error_message());
    /* Input errors */
    dvc_imat_t B;
    dvc_imat_init2(B, 2, 3, 53);
    CHECK(dvc_mclass_classify(&r, B) == DVC_ERR_INPUT, "non-square");
    CHECK(dvc_mclass_prove_p(B, NULL) == DVC_ERR_INPUT, "non-square prove_p");
    mpfr_set_inf(&dvc_imat_entry(A, 0, 0)->right, 1);
    CHECK(dvc_mclass_prove_p(A, NULL) == DVC_ERR_INPUT, "infinite entry");
    dvc_imat_clear(B);
    dvc_imat_clear(A);
    CHECK(strcmp(dvc_mclass_names(DVC_MCLASS_Z | DVC_MCLASS_P), "Z, P") == 0, "names: %s",
          dvc_mclass_names(DVC_MCLASS_Z | DVC_MCLASS_P));
}

/* Random matrices of several kinds; every verdict checked exactly. */
static void test_random(int cases, unsigned long long seed)
{
    check_rng rng = {seed};
    int nproven = 0, ntrue = 0, nenum = 0, ndis = 0, nfalse = 0, nzero = 0;
    for (int cs = 0; cs < cases; cs++) {
        long m = check_rng_int(&rng, 1, 7), M[64];
        int kind = cs % 5;
        for (long i = 0; i < m; i++)
            for (long j = 0; j < m; j++) {
                long v = check_rng_int(&rng, -5, 5);
                if (kind == 0) /* diagonally dominant, positive diagonal */
                    v = i == j ? 0 : v;
                else if (kind == 1) /* Z */
                    v = i == j ? 0 : -labs(v);
                else if (kind == 4 && i == j)
                    v = check_rng_int(&rng, 1, 6);
                M[i * m + j] = v;
            }
        if (kind == 0 || kind == 1) {
            for (long i = 0; i < m; i++) {
                long s = 0;
                for (long j = 0; j < m; j++) s += i == j ? 0 : labs(M[i * m + j]);
                M[i * m + i] = s + check_rng_int(&rng, kind == 1 ? -2 : 1, 3);
            }
        } else if (kind == 2) { /* G G^T + shift: SPD or indefinite */
            long G[64];
            memcpy(G, M, sizeof G);
            long sh = check_rng_int(&rng, -3, 3);
            for (long i = 0; i < m; i++)
                for (long j = 0; j < m; j++) {
                    long s = i == j ? sh : 0;
                    for (long p = 0; p < m; p++) s += G[i * m + p] * G[j * m + p];
                    M[i * m + j] = s;
                }
        } else if (kind == 3) { /* PD-ish: symmetric part dominant + skew part */
            for (long i = 0; i < m; i++)
                for (long j = 0; j < i; j++) {
                    long sk = check_rng_int(&rng, -8, 8);
                    M[i * m + j] = M[j * m + i] + sk;
                    M[j * m + i] -= sk;
                }
            for (long i = 0; i < m; i++) M[i * m + i] = labs(M[i * m + i]) + check_rng_int(&rng, 0, 6);
        }
        /* kind 4: random with positive diagonal: often P only by enumeration */
        int exact = q_is_p(M, m);
        dvc_imat_t A;
        dvc_mclass_result r;
        const char *how = NULL;
        dvc_imat_init2(A, m, m, 53);
        set_mat(A, M, m);
        dvc_error_reset();
        dvc_status st = dvc_mclass_prove_p(A, &how);
        CHECK(st == DVC_OK || st == DVC_NOT_CERTIFIED, "status %d", (int)st);
        ntrue += exact;
        if (st == DVC_OK) {
            nproven++;
            CHECK(exact, "case %d (kind %d, m=%ld): non-P matrix proven P by %s", cs, kind, m, how);
            if (how && strstr(how, "enumeration")) nenum++;
        } else {
            nfalse += !exact;
            /* Integer matrices of this size: the enumeration decides. */
            CHECK(!exact, "case %d (kind %d, m=%ld): P-matrix not proven: %s", cs, kind, m,
                  dvc_error_message());
            unsigned long a0 = mask_from_msg(dvc_error_message());
            /* Exactly zero minors are decided by the exact fallback. */
            CHECK(strstr(dvc_error_message(), "could not") == NULL, "case %d: undecided: %s", cs,
                  dvc_error_message());
            if (a0 != 0 && q_minor_sign(M, m, a0) == 0) nzero++;
            if (strstr(dvc_error_message(), "is <= 0")) {
                ndis++;
                unsigned long a = mask_from_msg(dvc_error_message());
                CHECK(a != 0 && q_minor_sign(M, m, a) <= 0,
                      "case %d: named minor %s is not <= 0", cs, dvc_error_message());
            }
        }
        CHECK(dvc_mclass_classify(&r, A) == DVC_OK, "classify");
        {
            char name[64];
            snprintf(name, sizeof name, "random case %d (kind %d, m=%ld)", cs, kind, m);
            check_verdict(&r, M, m, name);
        }
        CHECK(!!(r.proven & DVC_MCLASS_P) == (st == DVC_OK), "classify and prove_p disagree");
        if (r.disproven & DVC_MCLASS_P) CHECK(!exact, "case %d: P-matrix disproven", cs);
        if (r.proven & DVC_MCLASS_SPD) CHECK(exact, "SPD but not P");
        if (r.proven & DVC_MCLASS_M) CHECK(exact, "M but not P");
        if (r.proven & DVC_MCLASS_H) CHECK(exact, "H but not P");
        if (r.proven & DVC_MCLASS_PD) CHECK(exact, "PD but not P");
        dvc_imat_clear(A);
    }
    CHECK(nproven == ntrue, "proved %d of %d P-matrices", nproven, ntrue);
    CHECK(nenum >= 10, "only %d proofs needed the enumeration", nenum);
    CHECK(ndis == nfalse, "disproved %d of %d non-P matrices", ndis, nfalse);
    CHECK(nzero >= 1, "no exactly singular minor among the random cases");
    printf("random: %d P-matrices (%d needed enumeration), %d non-P all disproven (%d by an\n"
           "exactly zero minor)\n", ntrue, nenum, nfalse, nzero);
}

/* Block upper triangular with diagonal blocks [[1,3],[-1,1]] (P, not H, not
 * PD) and arbitrary entries above: every principal submatrix is block upper
 * triangular with principal submatrices of the blocks on its diagonal, so
 * its determinant is a product of positive numbers: P by construction. A
 * symmetric permutation hides the structure. */
static void block_p(long *M, long m, check_rng *rng, long *perm, int spoil)
{
    long T[32 * 32];
    for (long i = 0; i < m; i++)
        for (long j = 0; j < m; j++) {
            long bi = i / 2, bj = j / 2;
            if (bi < bj)
                T[i * m + j] = check_rng_int(rng, -4, 4);
            else if (bi > bj)
                T[i * m + j] = 0;
            else
                T[i * m + j] = i == j ? 1 : (i < j ? 3 : -1);
        }
    if (spoil) T[(m - 1) * m + m - 1] = -1; /* last block [[1,3],[-1,-1]]: minor {m} < 0 */
    check_rng_perm(rng, perm, m);
    for (long i = 0; i < m; i++)
        for (long j = 0; j < m; j++) M[i * m + j] = T[perm[i] * m + perm[j]];
}

static void test_p16(void)
{
    check_rng rng = {77};
    long m = 16, M[16 * 16], perm[16];
    const char *how = NULL;
    dvc_imat_t A;
    dvc_imat_init2(A, m, m, 53);
    block_p(M, m, &rng, perm, 0);
    set_mat(A, M, m);
    dvc_error_reset();
    CHECK(dvc_mclass_prove_p(A, &how) == DVC_OK && how && strstr(how, "enumeration"),
          "16x16 block P-matrix not proven by enumeration: %s", dvc_error_message());
    /* Spoiled: the entry of the permuted last diagonal becomes -1. */
    block_p(M, m, &rng, perm, 1);
    set_mat(A, M, m);
    dvc_error_reset();
    CHECK(dvc_mclass_prove_p(A, &how) == DVC_NOT_CERTIFIED, "spoiled 16x16 proven");
    unsigned long a = mask_from_msg(dvc_error_message());
    CHECK(a != 0 && q_minor_sign(M, m, a) <= 0, "spoiled: named minor not <= 0 (%s)", dvc_error_message());
    /* Beyond the enumeration limit: sufficient tests only. */
    long big = DVC_MCLASS_P_ENUM_MAX + 4, Mb[32 * 32], permb[32];
    dvc_imat_resize(A, big, big);
    block_p(Mb, big, &rng, permb, 0);
    set_mat(A, Mb, big);
    CHECK(dvc_mclass_prove_p(A, &how) == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "too large"),
          "m = %ld: %s", big, dvc_error_message());
    /* ... but an M-matrix of that size is proven. */
    for (long i = 0; i < big; i++)
        for (long j = 0; j < big; j++) Mb[i * big + j] = i == j ? 2 * big : -check_rng_int(&rng, 0, 1);
    set_mat(A, Mb, big);
    CHECK(dvc_mclass_prove_p(A, &how) == DVC_OK && how && strstr(how, "M-matrix"), "big M-matrix");
    dvc_imat_clear(A);
}

/* Interval matrices where the interval Schur recursion is too wide
 * (wrapping): the fallback proves every principal submatrix regular and the
 * midpoint's minors positive. Same block structure as block_p (P for every
 * member: each member is itself block upper triangular with blocks of
 * determinant 1 + 3 (1 -+ r)^2 > 0 and P principal minors). */
static void test_interval_fallback(void)
{
    long m = 12;
    const char *how = NULL;
    dvc_imat_t A;
    dvc_imat_init2(A, m, m, 53);
    for (int spoil = 0; spoil < 2; spoil++) {
        for (long i = 0; i < m; i++)
            for (long j = 0; j < m; j++) {
                long bi = i / 2, bj = j / 2;
                long v = bi < bj ? (i * 7 + j * 3) % 9 - 4 : bi > bj ? 0 : (i == j ? 1 : (i < j ? 3 : -1));
                if (spoil && i == m - 1 && j == m - 2) v = 1; /* block [[1,3],[1,1]]: det -2 */
                double r = v ? 1e-4 * (double)labs(v) : 0x1p-13;
                dvc_ival_set_dd(dvc_imat_entry(A, i, j), (double)v - r, (double)v + r);
            }
        dvc_error_reset();
        dvc_status st = dvc_mclass_prove_p(A, &how);
        if (!spoil)
            CHECK(st == DVC_OK && how && strstr(how, "regular"),
                  "interval 12x12: %s", st == DVC_OK ? how : dvc_error_message());
        else
            CHECK(st == DVC_NOT_CERTIFIED, "spoiled interval 12x12 proven P");
        /* Independent check of the claim on random vertices: endpoints
         * times 2^53 are integers, and scaling keeps the minors' signs. */
        check_rng rng = {99};
        for (int smp = 0; smp < 2 && st == DVC_OK; smp++) {
            long V[144];
            for (long q = 0; q < m * m; q++) {
                mpfr_srcptr e = check_rng_int(&rng, 0, 1) ? &A->e[q]->left : &A->e[q]->right;
                V[q] = (long)ldexp(mpfr_get_d(e, MPFR_RNDN), 53);
            }
            CHECK(q_is_p(V, m), "vertex %d of the proven interval matrix is not P", smp);
        }
    }
    dvc_imat_clear(A);
}


/* The proof cache: the same interval matrix is proven once per thread; a
 * matrix differing in one endpoint by one ulp is proven on its own (and
 * the answers are the right ones for both, in both orders). */
static void test_cache(void)
{
    check_rng rng = {5};
    long m = 14, M[14 * 14], perm[14];
    unsigned long h0, m0, h1, m1;
    const char *how = NULL;
    dvc_mclass_result r;
    dvc_imat_t A, B;
    dvc_imat_init2(A, m, m, 53);
    dvc_imat_init2(B, 2, 2, 53);
    block_p(M, m, &rng, perm, 0); /* P, proven only by enumeration */
    set_mat(A, M, m);
    dvc_mclass_cache_clear();
    dvc_mclass_cache_stats(&h0, &m0);
    CHECK(dvc_mclass_prove_p(A, &how) == DVC_OK && how && strstr(how, "enumeration"), "cache: first proof");
    CHECK(dvc_mclass_prove_p(A, &how) == DVC_OK && how && strstr(how, "enumeration"), "cache: second proof");
    CHECK(dvc_mclass_classify(&r, A) == DVC_OK && (r.proven & DVC_MCLASS_P), "cache: classify");
    CHECK(dvc_mclass_classify(&r, A) == DVC_OK && (r.proven & DVC_MCLASS_P) && r.p_reason &&
              strstr(r.p_reason, "enumeration"),
          "cache: classify again");
    dvc_mclass_cache_stats(&h1, &m1);
    CHECK(h1 - h0 == 2 && m1 - m0 == 2, "cache: %lu hits, %lu misses (expected 2, 2)", h1 - h0, m1 - m0);
    /* The DLVI pattern: an LVI solver and the beta_M bound on one M prove
     * P once between them. */
    {
        dvc_ivec_t l, u;
        dvc_lvi_solver_t sv;
        dvc_beta_bound_t bb;
        dvc_ivec_init(l, m);
        dvc_ivec_init(u, m);
        for (long i = 0; i < m; i++) mpfi_set_d(u->e[i], INFINITY);
        dvc_mclass_cache_clear();
        dvc_mclass_cache_stats(&h0, &m0);
        CHECK(dvc_lvi_solver_init(sv, A, l, u) == DVC_OK, "cache: solver %s", dvc_error_message());
        dvc_beta_bound_init(bb);
        CHECK(dvc_beta_compute(bb, NULL, A, NULL) == DVC_OK, "cache: beta %s", dvc_error_message());
        dvc_mclass_cache_stats(&h1, &m1);
        CHECK(m1 - m0 == 1 && h1 - h0 >= 1, "cache: solver + beta proved %lu times (%lu reuses)", m1 - m0, h1 - h0);
        dvc_beta_bound_clear(bb);
        dvc_lvi_solver_clear(sv);
        dvc_ivec_clear(l);
        dvc_ivec_clear(u);
    }
    /* [[1, 1], [1, 1 + 2^-52]] is P (det 2^-52); [[1, 1], [1, 1]] is not. */
    for (int order = 0; order < 2; order++) {
        for (int k = 0; k < 2; k++) {
            int p = (k + order) % 2 == 0;
            for (long q = 0; q < 4; q++) mpfi_set_d(B->e[q], 1.0);
            if (p) mpfi_set_d(B->e[3], 1.0 + 0x1p-52);
            dvc_error_reset();
            dvc_status st = dvc_mclass_prove_p(B, &how);
            CHECK(p ? st == DVC_OK : st == DVC_NOT_CERTIFIED, "cache: 2x2 %s answered %d", p ? "P" : "non-P", (int)st);
            CHECK(dvc_mclass_classify(&r, B) == DVC_OK &&
                      (p ? (r.proven & DVC_MCLASS_P) != 0 : (r.disproven & DVC_MCLASS_P) != 0),
                  "cache: classify 2x2 %s", p ? "P" : "non-P");
        }
    }
    /* One interval endpoint changed: a different matrix. */
    mpfi_interv_d(B->e[3], 1.0, 1.0 + 0x1p-52);
    dvc_error_reset();
    CHECK(dvc_mclass_prove_p(B, &how) == DVC_NOT_CERTIFIED, "cache: interval 2x2 with a singular member proven P");
    dvc_mclass_cache_clear();
    dvc_imat_clear(A);
    dvc_imat_clear(B);
}

int main(void)
{
    test_known();
    test_random(400, 1);
    test_p16();
    test_interval_fallback();
    test_cache();
    return check_report();
}
