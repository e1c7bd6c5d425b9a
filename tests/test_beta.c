/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* beta_M / alpha_M bounds checked against independent computations: exact
 * rational enumeration (GMP mpq), 256-bit MPFR Gauss-Jordan, the closed form
 * of Remark 4.3, and a grid evaluation of the definition over [0,1]^m. */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ref_exact.h"
#include "beta_kern.h"
#include "dvicert/dvicert.h"

#define MAXM 12

/* ---- references ------------------------------------------------------------ */

/* Exact beta_M and alpha_M of a rational matrix by enumerating every J. */
static int exact_beta_alpha(const mpq_t *M, int m, mpq_t beta, mpq_t alpha)
{
    mpq_t *A = malloc(sizeof(mpq_t) * (size_t)(m * m));
    mpq_t s, sa, t, u;
    int J[MAXM], K[MAXM];
    mpq_inits(s, sa, t, u, NULL);
    for (int i = 0; i < m * m; i++) mpq_init(A[i]);
    mpq_set_ui(beta, 0, 1);
    mpq_set_ui(alpha, 1, 1); /* J empty: the identity */
    for (unsigned long mask = 1; mask < (1ul << m); mask++) {
        int k = 0, nk = 0;
        for (int i = 0; i < m; i++) {
            if (mask >> i & 1) J[k++] = i;
            else K[nk++] = i;
        }
        for (int a = 0; a < k; a++)
            for (int b = 0; b < k; b++) mpq_set(A[a * k + b], M[J[a] * m + J[b]]);
        if (!ref_q_inverse(A, k)) return 0;
        for (int a = 0; a < k; a++) {
            mpq_set_ui(s, 0, 1);
            for (int b = 0; b < k; b++) {
                mpq_abs(t, A[a * k + b]);
                mpq_add(s, s, t);
            }
            if (mpq_cmp(s, beta) > 0) mpq_set(beta, s);
            mpq_set(sa, s);
            for (int o = 0; o < nk; o++) { /* (A^{-1} M_JK)_{a,o} */
                mpq_set_ui(t, 0, 1);
                for (int b = 0; b < k; b++) {
                    mpq_mul(u, A[a * k + b], M[J[b] * m + K[o]]);
                    mpq_add(t, t, u);
                }
                mpq_abs(t, t);
                mpq_add(sa, sa, t);
            }
            if (mpq_cmp(sa, alpha) > 0) mpq_set(alpha, sa);
        }
    }
    for (int i = 0; i < m * m; i++) mpq_clear(A[i]);
    free(A);
    mpq_clears(s, sa, t, u, NULL);
    return 1;
}

/* 256-bit MPFR: ||(I - D + DM)^{-1} D||_inf and ||(I - D + DM)^{-1}||_inf for
 * a point matrix M (doubles) and d (doubles), by Gauss-Jordan on [A | I]. */
static void mpfr_xnorms(const double *M, const double *d, int m, double *nb, double *na)
{
    mpfr_t W[MAXM][2 * MAXM], f, t, s, sa;
    mpfr_inits2(256, f, t, s, sa, (mpfr_ptr)0);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < 2 * m; j++) {
            mpfr_init2(W[i][j], 256);
            if (j < m) {
                mpfr_set_d(W[i][j], M[i * m + j], MPFR_RNDN);
                mpfr_mul_d(W[i][j], W[i][j], d[i], MPFR_RNDN);
                if (i == j) mpfr_add_d(W[i][j], W[i][j], 1.0 - d[i], MPFR_RNDN);
            } else {
                mpfr_set_ui(W[i][j], (unsigned long)(j - m == i), MPFR_RNDN);
            }
        }
    for (int c = 0; c < m; c++) {
        int p = c;
        for (int r = c + 1; r < m; r++)
            if (mpfr_cmpabs(W[r][c], W[p][c]) > 0) p = r;
        if (p != c)
            for (int j = 0; j < 2 * m; j++) mpfr_swap(W[p][j], W[c][j]);
        mpfr_ui_div(f, 1, W[c][c], MPFR_RNDN);
        for (int j = 0; j < 2 * m; j++) mpfr_mul(W[c][j], W[c][j], f, MPFR_RNDN);
        for (int r = 0; r < m; r++) {
            if (r == c) continue;
            mpfr_set(f, W[r][c], MPFR_RNDN);
            for (int j = 0; j < 2 * m; j++) {
                mpfr_mul(t, f, W[c][j], MPFR_RNDN);
                mpfr_sub(W[r][j], W[r][j], t, MPFR_RNDN);
            }
        }
    }
    *nb = *na = 0;
    for (int i = 0; i < m; i++) {
        mpfr_set_zero(s, 1);
        mpfr_set_zero(sa, 1);
        for (int j = 0; j < m; j++) {
            mpfr_abs(t, W[i][m + j], MPFR_RNDN);
            mpfr_add(sa, sa, t, MPFR_RNDN);
            mpfr_mul_d(t, t, d[j], MPFR_RNDN);
            mpfr_add(s, s, t, MPFR_RNDN);
        }
        if (mpfr_get_d(s, MPFR_RNDN) > *nb) *nb = mpfr_get_d(s, MPFR_RNDN);
        if (mpfr_get_d(sa, MPFR_RNDN) > *na) *na = mpfr_get_d(sa, MPFR_RNDN);
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < 2 * m; j++) mpfr_clear(W[i][j]);
    mpfr_clears(f, t, s, sa, (mpfr_ptr)0);
}

/* ---- helpers ------------------------------------------------------------------ */

static void to_imat(dvc_imat_t A, const double *M, int m)
{
    for (int i = 0; i < m * m; i++) mpfi_set_d(A->e[i], M[i]);
}

/* lo <= q <= hi with exact comparisons. */
static int encloses_q(const dvc_beta_bound_t b, const mpq_t q)
{
    return !mpfr_nan_p(b->lo) && !mpfr_nan_p(b->hi) && /* mpfr_cmp_q(NaN) is 0 */
           mpfr_cmp_q(b->lo, q) <= 0 && mpfr_cmp_q(b->hi, q) >= 0;
}

static double lo_d(const dvc_beta_bound_t b) { return mpfr_get_d(b->lo, MPFR_RNDD); }
static double hi_d(const dvc_beta_bound_t b) { return mpfr_get_d(b->hi, MPFR_RNDU); }

static dvc_status run(dvc_beta_bound_t b, dvc_beta_bound_t a, const dvc_imat_t M,
                      dvc_beta_method meth)
{
    dvc_beta_opts o;
    dvc_status st;
    dvc_beta_opts_default(&o);
    o.method = meth;
    o.rel_gap = 1e-12;
    st = dvc_beta_compute(b, a, M, &o);
    CHECK(check_rounding_nearest(), "rounding mode restored (method %d)", (int)meth);
    return st;
}

/* Random P-matrices of several kinds (doubles with few significant bits so
 * that integer/rational references are exact when scaled). */
enum { KIND_PD, KIND_HPLUS, KIND_M, KIND_SCALED_TRI, KIND_REJECT, NKINDS };

static void gen_p(double *M, int m, int kind, check_rng *r)
{
    for (int attempt = 0;; attempt++) {
        if (attempt == 500) kind = KIND_PD; /* rejection unlucky: keep the run finite */
        double L[MAXM][MAXM];
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) L[i][j] = (double)check_rng_int(r, -8, 8) / 8.0;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                double v = 0;
                switch (kind) {
                case KIND_PD: /* symmetric PD part plus a skew part: M + M^T > 0 */
                    for (int k = 0; k < m; k++) v += L[i][k] * L[j][k];
                    v = v / 4 + (i == j ? 0.25 : 0) + (i < j ? L[i][j] : i > j ? -L[j][i] : 0);
                    break;
                case KIND_HPLUS:
                case KIND_M:
                    v = (i == j) ? 0 : (kind == KIND_M ? -fabs(L[i][j]) : L[i][j]);
                    break;
                case KIND_SCALED_TRI: /* positive diagonal scalings of a unit triangular matrix */
                    v = (i == j) ? 1 : (i < j ? 4 * L[i][j] : 0);
                    break;
                default: /* random, kept only if proven P */
                    v = (i == j) ? 1 : L[i][j] * (double)check_rng_int(r, 0, 3) * (m <= 3 ? 1.0 : 0.5);
                    break;
                }
                M[i * m + j] = v;
            }
        if (kind == KIND_HPLUS || kind == KIND_M)
            for (int i = 0; i < m; i++) { /* diagonal dominance, sometimes barely */
                double s = 0;
                for (int j = 0; j < m; j++)
                    if (j != i) s += fabs(M[i * m + j]);
                M[i * m + i] = s + (double)check_rng_int(r, 1, 16) / 16.0;
            }
        if (kind == KIND_SCALED_TRI) {
            double d1[MAXM], d2[MAXM];
            long perm[MAXM];
            double T[MAXM * MAXM];
            for (int i = 0; i < m; i++) {
                d1[i] = (double)check_rng_int(r, 1, 8) / 4.0;
                d2[i] = (double)check_rng_int(r, 1, 8) / 4.0;
            }
            check_rng_perm(r, perm, m); /* symmetric permutation keeps P */
            for (int i = 0; i < m; i++)
                for (int j = 0; j < m; j++) T[i * m + j] = d1[i] * M[perm[i] * m + perm[j]] * d2[j];
            memcpy(M, T, sizeof(double) * (size_t)(m * m));
        }
        if (kind != KIND_REJECT) return;
        {
            dvc_imat_t A;
            dvc_status st;
            dvc_imat_init(A, m, m);
            to_imat(A, M, m);
            st = dvc_mclass_prove_p(A, NULL);
            dvc_imat_clear(A);
            dvc_error_reset();
            if (st == DVC_OK) return;
        }
    }
}

/* ---- tests ---------------------------------------------------------------------- */

/* Remark 4.3: M = [[1, 0], [mu, 1]] has beta_M = 1 + |mu| (and alpha_M too). */
static void test_remark43(void)
{
    static const char *mus[] = {"0.5", "0.1", "-0.1", "-3", "1000", "7.25", "1e-8", "0"};
    static const long num[] = {1, 1, -1, -3, 1000, 29, 1, 0}, den[] = {2, 10, 10, 1, 1, 4, 100000000, 1};
    for (int t = 0; t < 8; t++) {
        for (int meth = DVC_BETA_AUTO; meth <= DVC_BETA_STRUCT; meth++) {
            dvc_imat_t M;
            dvc_beta_bound_t b, a;
            mpq_t q;
            dvc_status st;
            dvc_imat_init(M, 2, 2);
            mpfi_set_ui(dvc_imat_entry(M, 0, 0), 1);
            mpfi_set_ui(dvc_imat_entry(M, 1, 1), 1);
            REQUIRE(dvc_ival_set_str(dvc_imat_entry(M, 1, 0), mus[t]) == DVC_OK, "mu %s", mus[t]);
            dvc_beta_bound_init(b);
            dvc_beta_bound_init(a);
            st = run(b, meth == DVC_BETA_STRUCT ? NULL : a, M, (dvc_beta_method)meth);
            mpq_init(q);
            mpq_set_si(q, labs(num[t]) + den[t], (unsigned long)den[t]);
            mpq_canonicalize(q);
            CHECK(st == DVC_OK, "mu %s method %d: %s", mus[t], meth, dvc_error_message());
            CHECK(encloses_q(b, q), "mu %s method %d: beta [%.17g, %.17g] misses 1+|mu|", mus[t],
                  meth, lo_d(b), hi_d(b));
            CHECK(hi_d(b) - lo_d(b) <= 1e-12 * hi_d(b), "mu %s method %d: tight", mus[t], meth);
            if (meth != DVC_BETA_STRUCT)
                CHECK(encloses_q(a, q), "mu %s method %d: alpha [%.17g, %.17g]", mus[t], meth,
                      lo_d(a), hi_d(a));
            mpq_clear(q);
            dvc_beta_bound_clear(b);
            dvc_beta_bound_clear(a);
            dvc_imat_clear(M);
        }
    }
}

/* M-matrices: beta_M = ||M^{-1}||_inf (attained at d = 1), computed
 * exactly in rationals (the entries are multiples of 1/16). */
static void test_mmatrix(void)
{
    check_rng r = {777};
    for (int t = 0; t < 40; t++) {
        int m = (int)check_rng_int(&r, 1, 12);
        double M[MAXM * MAXM], nb;
        mpq_t eb;
        dvc_imat_t A;
        gen_p(M, m, KIND_M, &r);
        mpq_init(eb);
        REQUIRE(ref_q_inv_norm_d(M, m, eb), "M-matrix singular in exact arithmetic");
        nb = mpq_get_d(eb);
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        for (int meth = DVC_BETA_AUTO; meth <= DVC_BETA_STRUCT; meth++) {
            dvc_beta_bound_t b;
            dvc_status st;
            if (meth == DVC_BETA_ENUM && m > 10) continue;
            dvc_beta_bound_init(b);
            st = run(b, NULL, A, (dvc_beta_method)meth);
            CHECK(st == DVC_OK, "M-matrix m=%d method %d: %s", m, meth, dvc_error_message());
            CHECK(encloses_q(b, eb), "M-matrix m=%d method %d: [%.17g, %.17g] misses exact ||M^-1|| = %.17g",
                  m, meth, lo_d(b), hi_d(b), nb);
            CHECK(hi_d(b) - lo_d(b) <= 1e-9 * nb, "M-matrix m=%d method %d: gap %.3g", m, meth,
                  hi_d(b) - lo_d(b));
            dvc_beta_bound_clear(b);
        }
        mpq_clear(eb);
        dvc_imat_clear(A);
    }
}

/* Random P-matrices: exact rational references (m <= 8), mutual consistency of
 * the methods, and the grid of the definition for m <= 3. */
static void test_random_p(void)
{
    check_rng r = {2024};
    int ncase = 0, nexact = 0, ngrid = 0;
    for (int t = 0; t < 200; t++) {
        int kind = t % NKINDS, m = (int)check_rng_int(&r, 1, t < 150 ? 6 : 10);
        double M[MAXM * MAXM];
        dvc_imat_t A;
        dvc_beta_bound_t b[3], a[3];
        dvc_status st[3];
        gen_p(M, m, kind, &r);
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        for (int k = 0; k < 3; k++) {
            dvc_beta_bound_init(b[k]);
            dvc_beta_bound_init(a[k]);
        }
        st[0] = run(b[0], a[0], A, DVC_BETA_ENUM);
        st[1] = run(b[1], a[1], A, DVC_BETA_BNB);
        st[2] = run(b[2], a[2], A, DVC_BETA_STRUCT);
        CHECK(st[0] == DVC_OK && st[1] == DVC_OK, "case %d kind %d m %d: %s", t, kind, m,
              dvc_error_message());
        CHECK(st[2] == DVC_OK || st[2] == DVC_NOT_CERTIFIED, "struct status");
        ncase++;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                CHECK(mpfr_cmp(b[i]->lo, b[j]->hi) <= 0, "case %d: beta lo[%d] %.17g > hi[%d] %.17g",
                      t, i, lo_d(b[i]), j, hi_d(b[j]));
                if (i < 2 && j < 2)
                    CHECK(mpfr_cmp(a[i]->lo, a[j]->hi) <= 0, "case %d: alpha lo[%d] > hi[%d]", t, i, j);
            }
        CHECK(hi_d(b[0]) - lo_d(b[0]) <= 1e-9 * hi_d(b[0]), "case %d: enum gap", t);
        CHECK(hi_d(b[1]) - lo_d(b[1]) <= 1e-9 * hi_d(b[1]), "case %d: bnb gap", t);
        CHECK(mpfr_cmp(a[0]->lo, b[0]->lo) >= 0 || mpfr_cmp(a[0]->hi, b[0]->lo) >= 0,
              "case %d: alpha >= beta", t);
        if (m <= 8) {
            /* The entries are multiples of 1/8 scaled by quarters: exact in mpq. */
            mpq_t Q[MAXM * MAXM], eb, ea;
            mpq_inits(eb, ea, NULL);
            for (int i = 0; i < m * m; i++) {
                mpq_init(Q[i]);
                mpq_set_d(Q[i], M[i]);
            }
            if (exact_beta_alpha(Q, m, eb, ea)) {
                nexact++;
                for (int k = 0; k < 3; k++)
                    CHECK(encloses_q(b[k], eb), "case %d kind %d m %d method %d: beta [%.17g, %.17g] "
                          "misses exact %.17g", t, kind, m, k, lo_d(b[k]), hi_d(b[k]), mpq_get_d(eb));
                for (int k = 0; k < 2; k++)
                    CHECK(encloses_q(a[k], ea), "case %d kind %d m %d method %d: alpha [%.17g, %.17g] "
                          "misses exact %.17g", t, kind, m, k, lo_d(a[k]), hi_d(a[k]), mpq_get_d(ea));
            } else {
                CHECK(0, "case %d: a principal submatrix is singular in exact arithmetic", t);
            }
            for (int i = 0; i < m * m; i++) mpq_clear(Q[i]);
            mpq_clears(eb, ea, NULL);
        }
        if (m <= 3) {
            /* Grid of the definition: 9 points per coordinate (vertices included). */
            int npt = m == 1 ? 33 : m == 2 ? 17 : 9, total = 1;
            double gb = 0, ga = 0;
            for (int i = 0; i < m; i++) total *= npt;
            for (int g = 0; g < total; g++) {
                double d[MAXM], nb, na;
                int h = g;
                for (int i = 0; i < m; i++) {
                    d[i] = (double)(h % npt) / (double)(npt - 1);
                    h /= npt;
                }
                mpfr_xnorms(M, d, m, &nb, &na);
                if (nb > gb) gb = nb;
                if (na > ga) ga = na;
            }
            ngrid++;
            CHECK(gb <= hi_d(b[0]) * (1 + 1e-14), "case %d: grid max %.17g > enum hi %.17g", t, gb,
                  hi_d(b[0]));
            CHECK(lo_d(b[0]) >= gb * (1 - 1e-9), "case %d: enum lo %.17g far below grid max %.17g",
                  t, lo_d(b[0]), gb);
            CHECK(lo_d(b[0]) <= gb * (1 + 1e-14) && hi_d(b[0]) <= gb * (1 + 1e-9),
                  "case %d: enum [%.17g, %.17g] vs grid max %.17g (max at a vertex)", t, lo_d(b[0]),
                  hi_d(b[0]), gb);
            CHECK(ga <= hi_d(a[0]) * (1 + 1e-14) && hi_d(a[0]) <= ga * (1 + 1e-9),
                  "case %d: alpha enum [%.17g, %.17g] vs grid %.17g", t, lo_d(a[0]), hi_d(a[0]), ga);
        }
        for (int k = 0; k < 3; k++) {
            dvc_beta_bound_clear(b[k]);
            dvc_beta_bound_clear(a[k]);
        }
        dvc_imat_clear(A);
    }
    CHECK(ncase == 200 && nexact >= 150 && ngrid >= 40, "coverage: %d cases, %d exact, %d grid",
          ncase, nexact, ngrid);
}

/* Interval matrices: the bounds hold for every point matrix inside. */
static void test_interval(void)
{
    check_rng r = {99};
    int nrun = 0;
    for (int t = 0; t < 30; t++) {
        int m = (int)check_rng_int(&r, 2, 5);
        double M[MAXM * MAXM];
        dvc_imat_t A;
        dvc_beta_bound_t b, a;
        gen_p(M, m, t % NKINDS, &r);
        dvc_imat_init(A, m, m);
        for (int i = 0; i < m * m; i++)
            mpfi_interv_d(A->e[i], M[i] - 1.0 / 1024, M[i] + 1.0 / 1024);
        dvc_beta_bound_init(b);
        dvc_beta_bound_init(a);
        if (run(b, a, A, DVC_BETA_ENUM) == DVC_OK) {
            nrun++;
            for (int s = 0; s < 8; s++) { /* corners and random points */
                mpq_t Q[MAXM * MAXM], eb, ea;
                mpq_inits(eb, ea, NULL);
                for (int i = 0; i < m * m; i++) {
                    mpq_init(Q[i]);
                    mpq_set_d(Q[i], M[i] + (double)check_rng_int(&r, -4, 4) / 4096.0);
                }
                if (exact_beta_alpha(Q, m, eb, ea)) {
                    CHECK(encloses_q(b, eb), "interval case %d: beta [%.17g, %.17g] misses %.17g", t,
                          lo_d(b), hi_d(b), mpq_get_d(eb));
                    CHECK(encloses_q(a, ea), "interval case %d: alpha misses %.17g", t, mpq_get_d(ea));
                }
                for (int i = 0; i < m * m; i++) mpq_clear(Q[i]);
                mpq_clears(eb, ea, NULL);
            }
        } else {
            dvc_error_reset(); /* wide intervals may lose the P proof: allowed */
        }
        dvc_beta_bound_clear(b);
        dvc_beta_bound_clear(a);
        dvc_imat_clear(A);
    }
    CHECK(nrun >= 20, "interval cases certified: %d of 30", nrun);
}

/* Ill-conditioned principal submatrices (det ~ 1e-12): exact reference. */
static void test_illcond(void)
{
    double M[9] = {1, 1, 0, 1 - 0x1p-40, 1, 0.5, 0, -0.5, 1};
    mpq_t Q[9], eb, ea;
    dvc_imat_t A;
    dvc_beta_bound_t b, a;
    dvc_status st;
    dvc_imat_init(A, 3, 3);
    to_imat(A, M, 3);
    dvc_beta_bound_init(b);
    dvc_beta_bound_init(a);
    mpq_inits(eb, ea, NULL);
    for (int i = 0; i < 9; i++) {
        mpq_init(Q[i]);
        mpq_set_d(Q[i], M[i]);
    }
    REQUIRE(exact_beta_alpha(Q, 3, eb, ea), "exact reference");
    for (int meth = DVC_BETA_AUTO; meth <= DVC_BETA_BNB; meth++) {
        st = run(b, a, A, (dvc_beta_method)meth);
        CHECK(st == DVC_OK, "ill-conditioned, method %d: %s", meth, dvc_error_message());
        CHECK(encloses_q(b, eb), "ill-conditioned beta [%.17g, %.17g] vs %.17g", lo_d(b), hi_d(b),
              mpq_get_d(eb));
        CHECK(encloses_q(a, ea), "ill-conditioned alpha");
        CHECK(hi_d(b) - lo_d(b) <= 1e-3 * hi_d(b), "ill-conditioned gap");
    }
    for (int i = 0; i < 9; i++) mpq_clear(Q[i]);
    mpq_clears(eb, ea, NULL);
    dvc_beta_bound_clear(b);
    dvc_beta_bound_clear(a);
    dvc_imat_clear(A);
}

static void test_refuse(void)
{
    static const double bad[][4] = {{1, 2, 2, 1}, {0, 0, 0, 1}, {-1, 0, 0, 1}, {1, 3, 1, 2}};
    for (int t = 0; t < 4; t++) {
        dvc_imat_t A;
        dvc_beta_bound_t b;
        dvc_status st;
        dvc_imat_init(A, 2, 2);
        to_imat(A, bad[t], 2);
        dvc_beta_bound_init(b);
        st = run(b, NULL, A, DVC_BETA_AUTO);
        CHECK(st == DVC_NOT_CERTIFIED, "non-P %d refused (status %d)", t, (int)st);
        CHECK(strstr(dvc_error_message(), "P-matrix") != NULL, "reason given: %s", dvc_error_message());
        dvc_beta_bound_clear(b);
        dvc_imat_clear(A);
    }
    {
        dvc_imat_t A;
        dvc_beta_bound_t b;
        dvc_imat_init(A, 2, 3);
        dvc_beta_bound_init(b);
        CHECK(dvc_beta_compute(b, NULL, A, NULL) == DVC_ERR_INPUT, "non-square");
        dvc_beta_bound_clear(b);
        dvc_imat_clear(A);
    }
    {   /* Structure only, no structure: not certified but a lower bound. */
        double M[9] = {1, -3, 0, 1, 1, -3, 0, 1, 1};
        dvc_imat_t A;
        dvc_beta_bound_t b;
        dvc_imat_init(A, 3, 3);
        to_imat(A, M, 3);
        dvc_beta_bound_init(b);
        CHECK(run(b, NULL, A, DVC_BETA_STRUCT) == DVC_NOT_CERTIFIED, "struct without structure");
        CHECK(mpfr_cmp_ui(b->lo, 1) >= 0 && mpfr_inf_p(b->hi), "lower bound kept, no upper");
        {   /* the lower bound kept is a true lower bound (M is P: exact beta) */
            mpq_t Q[9], eb, ea;
            mpq_inits(eb, ea, NULL);
            for (int i = 0; i < 9; i++) {
                mpq_init(Q[i]);
                mpq_set_d(Q[i], M[i]);
            }
            REQUIRE(exact_beta_alpha(Q, 3, eb, ea), "exact reference");
            CHECK(mpfr_cmp_q(b->lo, eb) <= 0, "kept lower bound %.17g above exact beta %.17g", lo_d(b),
                  mpq_get_d(eb));
            for (int i = 0; i < 9; i++) mpq_clear(Q[i]);
            mpq_clears(eb, ea, NULL);
        }
        dvc_beta_bound_clear(b);
        dvc_imat_clear(A);
    }
}

/* m = 14 through AUTO (enumeration) and BnB with a tiny budget: the budget
 * result must still enclose the enumerated value. */
static void test_budget(void)
{
    check_rng r = {5};
    double M[14 * 14];
    dvc_imat_t A;
    dvc_beta_bound_t b, b2;
    dvc_beta_opts o;
    dvc_status st;
    int m = 14;
    /* A PD matrix of size 14 built like gen_p's KIND_PD. */
    {
        double L[14][14];
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) L[i][j] = check_rng_unif(&r, -1, 1);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                double v = 0;
                for (int k = 0; k < m; k++) v += L[i][k] * L[j][k];
                M[i * m + j] = v / m + (i == j ? 0.05 : 0) + (i < j ? 0.5 * L[i][j] : i > j ? -0.5 * L[j][i] : 0);
            }
    }
    dvc_imat_init(A, m, m);
    for (int i = 0; i < m * m; i++) mpfi_set_d(A->e[i], M[i]);
    dvc_beta_bound_init(b);
    dvc_beta_bound_init(b2);
    dvc_beta_opts_default(&o);
    st = dvc_beta_compute(b, NULL, A, &o);
    CHECK(st == DVC_OK && b->nodes == (1l << m), "auto enumerates m = 14 (%ld vertices)", b->nodes);
    /* beta_M >= ||(M_JJ)^{-1}|| for every J: the upper bound must be above
     * the exact value at random J (and J = all) */
    for (int s = 0; s < 24; s++) {
        double MJ[14 * 14];
        int J[14], k = 0;
        mpq_t nj;
        unsigned long mask = s == 0 ? (1ul << m) - 1 : (unsigned long)check_rng_int(&r, 1, (1l << m) - 1);
        for (int i = 0; i < m; i++)
            if (mask >> i & 1) J[k++] = i;
        for (int a = 0; a < k; a++)
            for (int c = 0; c < k; c++) MJ[a * k + c] = M[J[a] * m + J[c]];
        mpq_init(nj);
        REQUIRE(ref_q_inv_norm_d(MJ, k, nj), "M_JJ singular in exact arithmetic");
        CHECK(mpfr_cmp_q(b->hi, nj) >= 0, "m = 14: upper bound %.17g below ||(M_JJ)^-1|| = %.17g (J mask %lx)",
              hi_d(b), mpq_get_d(nj), mask);
        mpq_clear(nj);
    }
    /* Beyond enum_max_m AUTO still enumerates when the estimated time fits
     * the budget (2^14 vertices: milliseconds), and does not when it
     * cannot (a budget of a microsecond). */
    o.enum_max_m = 8;
    st = dvc_beta_compute(b2, NULL, A, &o);
    CHECK(st == DVC_OK && b2->nodes == (1l << m) && strcmp(b2->method, "vertex enumeration") == 0 &&
              mpfr_equal_p(b2->hi, b->hi) && mpfr_equal_p(b2->lo, b->lo),
          "auto with enum_max_m = 8 enumerates m = 14 when it fits (%ld vertices, %s)", b2->nodes, b2->method);
    o.max_seconds = 1e-6;
    st = dvc_beta_compute(b2, NULL, A, &o);
    CHECK(b2->nodes != (1l << m) && strcmp(b2->method, "vertex enumeration") != 0,
          "auto with a 1 us budget chose the enumeration (%ld vertices, %s)", b2->nodes, b2->method);
    CHECK(st != DVC_OK || (mpfr_cmp(b2->lo, b->hi) <= 0 && mpfr_cmp(b->lo, b2->hi) <= 0), "1 us budget bounds");
    o.max_seconds = 60;
    o.enum_max_m = 20;
    o.method = DVC_BETA_BNB;
    o.max_nodes = 50;
    st = dvc_beta_compute(b2, NULL, A, &o);
    CHECK(check_rounding_nearest(), "rounding restored after budget stop");
    CHECK(st == DVC_OK || st == DVC_NOT_CERTIFIED, "budget status");
    CHECK(mpfr_cmp(b2->lo, b->hi) <= 0 && mpfr_cmp(b->lo, b2->hi) <= 0,
          "budget bounds [%.17g, %.17g] consistent with enumeration [%.17g, %.17g]", lo_d(b2),
          hi_d(b2), lo_d(b), hi_d(b));
    dvc_beta_bound_clear(b);
    dvc_beta_bound_clear(b2);
    dvc_imat_clear(A);
}

/* Branch-and-bound on strongly diagonally dominant matrices: it must agree
 * with the enumeration and close the gap with fewer nodes than 2^m (the
 * relaxation prunes). */
static void test_bnb_prunes(void)
{
    check_rng r = {31337};
    for (int t = 0; t < 6; t++) {
        int m = 12;
        double M[12 * 12];
        dvc_imat_t A;
        dvc_beta_bound_t be, ae, bb, ab;
        dvc_beta_opts o;
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int j = 0; j < m; j++)
                if (j != i) {
                    M[i * m + j] = check_rng_unif(&r, -1, 1) / m;
                    s += fabs(M[i * m + j]);
                }
            M[i * m + i] = s + check_rng_unif(&r, 0.1, 1);
        }
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        dvc_beta_bound_init(be);
        dvc_beta_bound_init(ae);
        dvc_beta_bound_init(bb);
        dvc_beta_bound_init(ab);
        dvc_beta_opts_default(&o);
        o.method = DVC_BETA_ENUM;
        CHECK(dvc_beta_compute(be, ae, A, &o) == DVC_OK, "enum");
        o.method = DVC_BETA_BNB;
        o.rel_gap = 1e-9;
        CHECK(dvc_beta_compute(bb, ab, A, &o) == DVC_OK, "bnb");
        CHECK(mpfr_cmp(bb->lo, be->hi) <= 0 && mpfr_cmp(be->lo, bb->hi) <= 0, "beta agree");
        CHECK(mpfr_cmp(ab->lo, ae->hi) <= 0 && mpfr_cmp(ae->lo, ab->hi) <= 0, "alpha agree");
        CHECK(hi_d(bb) - lo_d(bb) <= 2e-9 * hi_d(bb), "bnb beta gap closed: [%.17g, %.17g]",
              lo_d(bb), hi_d(bb));
        CHECK(bb->nodes < (1l << m), "bnb pruned: %ld nodes for m = %d", bb->nodes, m);
        dvc_beta_bound_clear(be);
        dvc_beta_bound_clear(ae);
        dvc_beta_bound_clear(bb);
        dvc_beta_bound_clear(ab);
        dvc_imat_clear(A);
    }
}

/* Positive definite test matrices with entries exact in binary64 (multiples
 * of 1/256): M = L L^T / 4 + I/4, plus a skew part when skew. */
static void gen_pd16(double *M, int m, int skew, check_rng *r)
{
    double L[16 * 16];
    for (int i = 0; i < m * m; i++) L[i] = (double)check_rng_int(r, -8, 8) / 8.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            double v = 0;
            for (int k = 0; k < m; k++) v += L[i * m + k] * L[j * m + k];
            M[i * m + j] = v / 4 + (i == j ? 0.25 : 0) +
                           (skew ? (i < j ? L[i * m + j] : i > j ? -L[j * m + i] : 0) : 0);
        }
}

/* Exact ||(M_JJ)^{-1}||_inf for the set J (bit mask), in rationals. */
static void exact_sub_norm(const double *M, int m, unsigned long J, mpq_t nrm)
{
    double S[16 * 16];
    int idx[16], k = 0;
    for (int i = 0; i < m; i++)
        if (J >> i & 1) idx[k++] = i;
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) S[a * k + b] = M[idx[a] * m + idx[b]];
    mpq_set_ui(nrm, 0, 1);
    if (k > 0) REQUIRE(ref_q_inv_norm_d(S, k, nrm), "principal submatrix singular");
}

/* A random node of m coordinates in a random order perm: the first nfree
 * free, each other one fixed in or out at random (bit sets). */
static void random_node(check_rng *r, long *perm, int m, int nfree, unsigned long *fr, unsigned long *in,
                        unsigned long *out)
{
    check_rng_perm(r, perm, m);
    for (int a = 0; a < m; a++) {
        unsigned long bit = 1ul << perm[a];
        if (a < nfree) *fr |= bit;
        else if (check_rng_int(r, 0, 1)) *in |= bit;
        else *out |= bit;
    }
}

/* The positive definite node bounds of the branch-and-bound are >= the
 * largest vertex value of their node, computed exactly by enumerating the
 * node's vertices in rationals; the symmetric one is tight once every
 * coordinate is fixed. */
static void test_pd_node_bounds(void)
{
    check_rng r = {4242};
    mpq_t v, best;
    mpq_inits(v, best, NULL);
    for (int t = 0; t < 60; t++) {
        int m = 6 + (int)check_rng_int(&r, 0, 3), skew = t % 2, nfree = (int)check_rng_int(&r, 0, m < 6 ? m : 6);
        double M[16 * 16], H[16 * 16];
        unsigned long in = 0, out = 0, fr = 0;
        long perm[16];
        dvc_imat_t A, Hs;
        dvc_bk_mat K, KH;
        double pdb, symb = INFINITY, loc = 0;
        if (t < 4) nfree = m; /* the root */
        gen_pd16(M, m, skew, &r);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) H[i * m + j] = 0.5 * (M[i * m + j] + M[j * m + i]);
        random_node(&r, perm, m, nfree, &fr, &in, &out);
        dvc_imat_init(A, m, m);
        dvc_imat_init(Hs, m, m);
        to_imat(A, M, m);
        to_imat(Hs, H, m);
        REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK && dvc_bk_mat_init(&KH, Hs) == DVC_OK, "bk_mat");
        pdb = dvc_bk_pd_node_bound(&KH, in | fr);
        if (!skew) symb = dvc_bk_sym_node_bound(&K, in, out, &loc);
        CHECK(check_rounding_nearest(), "rounding mode restored");
        /* the node's vertices J = in + S, S inside fr */
        mpq_set_ui(best, 0, 1);
        for (unsigned long S = fr;; S = (S - 1) & fr) {
            exact_sub_norm(M, m, in | S, v);
            if (mpq_cmp(v, best) > 0) mpq_set(best, v);
            if (S == 0) break;
        }
        CHECK(isfinite(pdb) && ref_cmp_dq(pdb, best) >= 0, "PD bound %.17g >= node maximum %.17g (m %d, free %d)",
              pdb, mpq_get_d(best), m, nfree);
        if (!skew) {
            CHECK(isfinite(symb) && ref_cmp_dq(symb, best) >= 0,
                  "symmetric bound %.17g >= node maximum %.17g (m %d, free %d)", symb, mpq_get_d(best), m, nfree);
            exact_sub_norm(M, m, in | fr, v); /* the completion */
            CHECK(ref_cmp_dq(loc, v) <= 0, "completion lower bound %.17g <= %.17g", loc, mpq_get_d(v));
            if (nfree == 0)
                CHECK(symb <= mpq_get_d(best) * (1 + 1e-6), "symmetric bound tight at a leaf: %.17g vs %.17g",
                      symb, mpq_get_d(best));
        }
        dvc_bk_mat_clear(&K);
        dvc_bk_mat_clear(&KH);
        dvc_imat_clear(A);
        dvc_imat_clear(Hs);
    }
    mpq_clears(v, best, NULL);
}

/* Branch-and-bound against the vertex enumeration on random matrices,
 * m = 8..16: symmetric and nonsymmetric positive definite (the PD node
 * bounds), M- and H-matrices (the relaxation). Both enclose beta_M, and
 * the branch-and-bound closes its gap; on symmetric PD matrices it needs
 * fewer than 2^m nodes (m >= 12). At m = 8 the exact rational value is
 * checked too. */
static void test_bnb_vs_enum(void)
{
    check_rng r = {777};
    for (int t = 0; t < 20; t++) {
        int m = 8 + 2 * (t % 5), kind = t / 5; /* 0 sym PD, 1 nonsym PD, 2 M, 3 H */
        double M[16 * 16];
        dvc_imat_t A;
        dvc_beta_bound_t be, bb;
        dvc_beta_opts o;
        if (kind <= 1) {
            gen_pd16(M, m, kind, &r);
        } else {
            for (int i = 0; i < m; i++) {
                double s = 0;
                for (int j = 0; j < m; j++)
                    if (j != i) {
                        double x = (double)check_rng_int(&r, -8, 8) / 8.0;
                        M[i * m + j] = kind == 2 ? -fabs(x) : x;
                        s += fabs(x);
                    }
                M[i * m + i] = s + (double)check_rng_int(&r, 1, 16) / 16.0;
            }
        }
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        dvc_beta_bound_init(be);
        dvc_beta_bound_init(bb);
        dvc_beta_opts_default(&o);
        o.method = DVC_BETA_ENUM;
        CHECK(dvc_beta_compute(be, NULL, A, &o) == DVC_OK, "enum (kind %d, m %d)", kind, m);
        o.method = DVC_BETA_BNB;
        o.rel_gap = 1e-9;
        o.max_nodes = 100000000L;
        CHECK(dvc_beta_compute(bb, NULL, A, &o) == DVC_OK, "bnb (kind %d, m %d)", kind, m);
        CHECK(mpfr_cmp(bb->lo, be->hi) <= 0 && mpfr_cmp(be->lo, bb->hi) <= 0,
              "kind %d m %d: bnb [%.17g, %.17g] and enum [%.17g, %.17g] disagree", kind, m, lo_d(bb),
              hi_d(bb), lo_d(be), hi_d(be));
        CHECK(!bb->stopped && hi_d(bb) - lo_d(bb) <= 2e-9 * hi_d(bb), "kind %d m %d: gap closed [%.17g, %.17g]",
              kind, m, lo_d(bb), hi_d(bb));
        if (kind == 0 && m >= 12)
            CHECK(bb->nodes < (1l << m), "symmetric PD m = %d: %ld nodes", m, bb->nodes);
        if (m == 8) {
            mpq_t q[64], eb, ea;
            for (int i = 0; i < m * m; i++) {
                mpq_init(q[i]);
                mpq_set_d(q[i], M[i]);
            }
            mpq_inits(eb, ea, NULL);
            REQUIRE(exact_beta_alpha(q, m, eb, ea), "exact enumeration");
            CHECK(encloses_q(bb, eb), "kind %d: bnb [%.17g, %.17g] encloses the exact beta %.17g", kind,
                  lo_d(bb), hi_d(bb), mpq_get_d(eb));
            for (int i = 0; i < m * m; i++) mpq_clear(q[i]);
            mpq_clears(eb, ea, NULL);
        }
        dvc_beta_bound_clear(be);
        dvc_beta_bound_clear(bb);
        dvc_imat_clear(A);
    }
}

/* AUTO beyond enum_max_m: on a symmetric positive definite matrix it tries
 * the branch-and-bound first (node budget 2^m / 4) and keeps it when the gap
 * closes; on a nonsymmetric one it enumerates as before. Both enclose the
 * enumeration's bounds. */
static void test_auto_prefers_bnb(void)
{
    check_rng r = {2026};
    for (int skew = 0; skew < 2; skew++) {
        int m = 14;
        double M[16 * 16];
        dvc_imat_t A;
        dvc_beta_bound_t be, ba;
        dvc_beta_opts o;
        gen_pd16(M, m, skew, &r);
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        dvc_beta_bound_init(be);
        dvc_beta_bound_init(ba);
        dvc_beta_opts_default(&o);
        o.method = DVC_BETA_ENUM;
        CHECK(dvc_beta_compute(be, NULL, A, &o) == DVC_OK, "enum");
        o.method = DVC_BETA_AUTO;
        o.enum_max_m = 8;
        CHECK(dvc_beta_compute(ba, NULL, A, &o) == DVC_OK, "auto");
        CHECK(mpfr_cmp(ba->lo, be->hi) <= 0 && mpfr_cmp(be->lo, ba->hi) <= 0,
              "auto [%.17g, %.17g] vs enum [%.17g, %.17g]", lo_d(ba), hi_d(ba), lo_d(be), hi_d(be));
        if (!skew) {
            CHECK(strcmp(ba->method, "branch-and-bound") == 0 && ba->nodes <= (1l << (m - 2)) + 2 * m,
                  "symmetric PD: auto used %s with %ld nodes", ba->method, ba->nodes);
            CHECK(hi_d(ba) - lo_d(ba) <= 1e-6 * hi_d(ba), "gap closed: [%.17g, %.17g]", lo_d(ba), hi_d(ba));
        } else {
            CHECK(strcmp(ba->method, "vertex enumeration") == 0, "nonsymmetric PD: auto used %s", ba->method);
        }
        dvc_beta_bound_clear(be);
        dvc_beta_bound_clear(ba);
        dvc_imat_clear(A);
    }
}

/* The symmetric search's children (dvc_bk_sym_split / dvc_bk_sym_verify):
 * on random nodes of random symmetric PD matrices, the rigorous bound of
 * each child is >= the child's exact maximum (rationals, all its vertices),
 * the completion lower bound is <= the exact completion value, and the
 * same holds along a dive that reuses the predictors (bordering and
 * downdating, down to a leaf). */
static void test_sym_children(void)
{
    check_rng r = {9191};
    mpq_t v, best;
    mpq_inits(v, best, NULL);
    for (int t = 0; t < 40; t++) {
        int m = 6 + (int)check_rng_int(&r, 0, 4), nfree = 2 + (int)check_rng_int(&r, 0, m - 2), reuse = 0;
        double M[16 * 16];
        unsigned long in = 0, out = 0, fr = 0;
        long perm[16];
        dvc_imat_t A;
        dvc_bk_mat K;
        dvc_bk_sym *S;
        gen_pd16(M, m, 0, &r);
        random_node(&r, perm, m, nfree, &fr, &in, &out);
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK, "bk_mat");
        S = dvc_bk_sym_new(&K);
        /* dive: split on a random free index, check both children, descend into one */
        while (fr != 0 && (in | fr) != 0) {
            int p = -1, go;
            double fb[2], fc0;
            unsigned long cin[2], cout[2], cfr;
            for (int a = 0; a < m && p < 0; a++)
                if (fr >> perm[a] & 1 && check_rng_int(&r, 0, 1)) p = (int)perm[a];
            for (int a = 0; a < m && p < 0; a++)
                if (fr >> perm[a] & 1) p = (int)perm[a];
            if ((~out & ((1ul << m) - 1)) == (1ul << p)) break; /* T = {p}: nothing to split */
            CHECK(dvc_bk_sym_split(S, in, out, p, reuse, fb, &fc0), "split (m %d, t %d)", m, t);
            CHECK(check_rounding_nearest(), "rounding mode restored by split");
            cfr = fr & ~(1ul << p);
            cin[0] = in, cout[0] = out | (1ul << p);
            cin[1] = in | (1ul << p), cout[1] = out;
            for (int c = 0; c < 2; c++) {
                double loc, ub = dvc_bk_sym_verify(S, c, &loc);
                CHECK(check_rounding_nearest(), "rounding mode restored by verify");
                mpq_set_ui(best, 0, 1);
                for (unsigned long Sx = cfr;; Sx = (Sx - 1) & cfr) {
                    exact_sub_norm(M, m, cin[c] | Sx, v);
                    if (mpq_cmp(v, best) > 0) mpq_set(best, v);
                    if (Sx == 0) break;
                }
                CHECK(isfinite(ub) && ref_cmp_dq(ub, best) >= 0, "child %d bound %.17g >= maximum %.17g (m %d, t %d)",
                      c, ub, mpq_get_d(best), m, t);
                CHECK(fabs(fb[c] - ub) <= 1e-6 * ub, "estimate %.17g near the bound %.17g", fb[c], ub);
                exact_sub_norm(M, m, cin[c] | cfr, v);
                CHECK(ref_cmp_dq(loc, v) <= 0, "child %d completion lower bound %.17g <= %.17g", c, loc,
                      mpq_get_d(v));
                if (c == 0) CHECK(fabs(fc0 - mpq_get_d(v)) <= 1e-6 * mpq_get_d(v), "completion estimate");
            }
            go = (int)check_rng_int(&r, 0, 1);
            dvc_bk_sym_descend(S, go);
            in = cin[go], out = cout[go], fr = cfr;
            reuse = 1;
        }
        dvc_bk_sym_free(S);
        dvc_bk_mat_clear(&K);
        dvc_imat_clear(A);
    }
    mpq_clears(v, best, NULL);
}

/* The symmetric branch-and-bound (estimated keys, rigorous bounds where
 * nodes close, dives) against the enumeration on many seeded matrices,
 * m = 8..16: both enclose beta_M and the gap closes; with a small node
 * budget the stopped search still encloses it (its open nodes keyed by
 * estimates are bounded rigorously before hi is reported). */
static void test_sym_bnb_many(void)
{
    check_rng r = {31337};
    for (int t = 0; t < 30; t++) {
        int m = 8 + (int)check_rng_int(&r, 0, 8);
        double M[16 * 16];
        dvc_imat_t A;
        dvc_beta_bound_t be, bb, bs;
        dvc_beta_opts o;
        gen_pd16(M, m, 0, &r);
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        dvc_beta_bound_init(be);
        dvc_beta_bound_init(bb);
        dvc_beta_bound_init(bs);
        dvc_beta_opts_default(&o);
        o.method = DVC_BETA_ENUM;
        CHECK(dvc_beta_compute(be, NULL, A, &o) == DVC_OK, "enum (m %d)", m);
        o.method = DVC_BETA_BNB;
        o.rel_gap = 1e-9;
        o.max_nodes = 100000000L;
        CHECK(dvc_beta_compute(bb, NULL, A, &o) == DVC_OK, "bnb (m %d)", m);
        CHECK(mpfr_cmp(bb->lo, be->hi) <= 0 && mpfr_cmp(be->lo, bb->hi) <= 0,
              "t %d m %d: bnb [%.17g, %.17g] and enum [%.17g, %.17g] disagree", t, m, lo_d(bb), hi_d(bb),
              lo_d(be), hi_d(be));
        CHECK(!bb->stopped && hi_d(bb) - lo_d(bb) <= 2e-9 * hi_d(bb), "t %d m %d: gap closed [%.17g, %.17g]", t,
              m, lo_d(bb), hi_d(bb));
        o.max_nodes = 40;
        dvc_beta_compute(bs, NULL, A, &o);
        CHECK(mpfr_cmp(bs->lo, be->hi) <= 0 && mpfr_cmp(be->lo, bs->hi) <= 0,
              "t %d m %d: stopped bnb [%.17g, %.17g] and enum [%.17g, %.17g] disagree", t, m, lo_d(bs),
              hi_d(bs), lo_d(be), hi_d(be));
        dvc_beta_bound_clear(be);
        dvc_beta_bound_clear(bb);
        dvc_beta_bound_clear(bs);
        dvc_imat_clear(A);
    }
}

/* The enumeration by bordering from verified anchors (dvc_bk_enum_tree,
 * docs/beta.md section 5, bordering) against exact rational enumeration: its lower
 * and upper bounds enclose beta_M, every vertex is visited, the gap is
 * small; on interval matrices the bounds enclose beta of the midpoint and of
 * a random point matrix. Every split r of the free indices, many matrices of
 * every kind (fixed seed). */
/* The exact rational beta_M, alpha_M of the point matrix P (Mq, beta and
 * alpha initialised here, cleared by the caller). */
static void exact_of(const double *P, int m, mpq_t *Mq, mpq_t beta, mpq_t alpha, int it)
{
    for (int i = 0; i < m * m; i++) {
        mpq_init(Mq[i]);
        mpq_set_d(Mq[i], P[i]);
    }
    mpq_inits(beta, alpha, NULL);
    REQUIRE(exact_beta_alpha(Mq, m, beta, alpha), "case %d: singular principal submatrix", it);
}

static void test_enum_tree(void)
{
    check_rng r = {20260};
    long cases = 0, nodes = 0, refresh = 0;
    double worst_gap = 0;
    for (int it = 0; it < 120; it++) {
        int m = (int)check_rng_int(&r, 2, it < 100 ? 9 : 11), kind = it % (NKINDS + 1);
        double M[MAXM * MAXM], P[MAXM * MAXM], rad = 0;
        mpq_t Mq[MAXM * MAXM], beta, alpha;
        dvc_imat_t A;
        dvc_bk_mat K;
        int idx[MAXM], interval = it % 7 == 3;
        if (kind == NKINDS) gen_pd16(M, m, 1, &r);
        else gen_p(M, m, kind, &r);
        /* the point matrix whose exact beta is compared: the midpoint, or
         * a random point of the interval matrix */
        memcpy(P, M, sizeof(double) * (size_t)(m * m));
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        if (interval) {
            rad = 0x1p-12;
            for (int i = 0; i < m * m; i++) {
                mpfi_interv_d(A->e[i], M[i] - rad, M[i] + rad);
                if (it % 2) P[i] = M[i] + rad * (double)check_rng_int(&r, -4, 4) / 4.0;
            }
        }
        exact_of(P, m, Mq, beta, alpha, it);
        REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK, "case %d: mat_init", it);
        for (int i = 0; i < m; i++) idx[i] = i;
        for (int rr = 1; rr <= m; rr++) {
            dvc_bk_acc acc;
            dvc_status st;
            double lo, hi;
            dvc_bk_acc_init(&acc);
            st = dvc_bk_enum_tree(&K, 0, idx, m, rr, &acc);
            lo = acc.beta_lo;
            hi = acc.beta_hi;
            CHECK(st == DVC_OK && acc.count == (1L << m), "case %d (m = %d, r = %d): status %d, %ld vertices",
                  it, m, rr, st, acc.count);
            CHECK(ref_cmp_dq(lo, beta) <= 0 && ref_cmp_dq(hi, beta) >= 0,
                  "case %d (m = %d, kind %d, r = %d%s): [%.17g, %.17g] misses beta = %.17g", it, m, kind, rr,
                  interval ? ", interval" : "", lo, hi, mpq_get_d(beta));
            if (!interval && hi > 0 && (hi - lo) / hi > worst_gap) worst_gap = (hi - lo) / hi;
            nodes += acc.count;
            refresh += acc.refresh;
            cases++;
        }
        dvc_bk_mat_clear(&K);
        dvc_imat_clear(A);
        for (int i = 0; i < m * m; i++) mpq_clear(Mq[i]);
        mpq_clears(beta, alpha, NULL);
    }
    CHECK(worst_gap < 1e-9, "bordering: relative gap %.3g on a point matrix", worst_gap);
    CHECK(refresh < nodes / 4, "bordering rarely used: %ld fresh inverses for %ld vertices", refresh, nodes);
    printf("enumeration by bordering: %ld runs, %ld vertices (%ld fresh inverses), worst gap %.2e\n", cases,
           nodes, refresh, worst_gap);
}

/* The bordering route skips a subtree when every vertex in it is proven at
 * most the lower bound reached so far (subtree_below_lo in src/beta_tree.c),
 * and the driver starts that route at a lower bound found by a local search
 * (dvc_bk_local_lower). Started at lower bounds up to the exact beta_M (a
 * double at most beta_M: mpq_get_d truncates), the route must still return
 * hi >= beta_M: a subtree holding the maximiser may be skipped only if its
 * proven bound, which then enters hi, is >= beta_M. Exact rational beta_M,
 * random P-matrices of every kind (nonsymmetric PD with a large skew part
 * among them), point and interval matrices, every split r = 2..6. The rule
 * must also actually skip vertices, or this test proves nothing. */
static void test_subtree_prune(void)
{
    static const double fac[] = {0, 0.5, 0.9, 0.999, 1 - 1e-9, 1};
    check_rng r = {20261};
    long runs = 0, pruned = 0, vertices = 0, local_exact = 0, local_runs = 0, tight = 0;
    for (int it = 0; it < 160; it++) {
        int m = (int)check_rng_int(&r, 4, it < 140 ? 9 : 11), kind = it % (NKINDS + 1);
        double M[MAXM * MAXM], P[MAXM * MAXM], bd;
        mpq_t Mq[MAXM * MAXM], beta, alpha;
        dvc_imat_t A;
        dvc_bk_mat K;
        int idx[MAXM], interval = it % 5 == 2 || it % 10 == 4;
        /* two radii: the wider one makes the error bounds of the small
         * bordering steps (rho of the Schur complement's inverses) decide
         * some subtrees */
        const double rad = it % 5 == 2 ? 0x1p-14 : 0x1p-9;
        if (kind == NKINDS || it % 3 == 0) gen_pd16(M, m, 1, &r);
        else gen_p(M, m, kind, &r);
        memcpy(P, M, sizeof(double) * (size_t)(m * m));
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        if (interval)
            for (int i = 0; i < m * m; i++) {
                mpfi_interv_d(A->e[i], M[i] - rad, M[i] + rad);
                P[i] = M[i] + rad * (double)check_rng_int(&r, -1, 1);
            }
        exact_of(P, m, Mq, beta, alpha, it);
        REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK, "case %d: mat_init", it);
        bd = mpq_get_d(beta);
        for (int i = 0; i < m; i++) idx[i] = i;
        for (int rr = 2; rr <= (m < 6 ? m : 6); rr++)
            for (int fi = 0; fi < (int)(sizeof fac / sizeof fac[0]); fi++) {
                dvc_bk_acc acc;
                dvc_status st;
                dvc_bk_acc_init(&acc);
                acc.beta_lo = acc.beta_hi = bd * fac[fi];
                st = dvc_bk_enum_tree(&K, 0, idx, m, rr, &acc);
                CHECK(st == DVC_OK && acc.count == (1L << m), "case %d (m = %d, r = %d): status %d, %ld vertices",
                      it, m, rr, st, acc.count);
                CHECK(ref_cmp_dq(acc.beta_lo, beta) <= 0 && ref_cmp_dq(acc.beta_hi, beta) >= 0,
                      "case %d (m = %d, kind %d, r = %d, started at %g beta%s): [%.17g, %.17g] misses beta = "
                      "%.17g",
                      it, m, kind, rr, fac[fi], interval ? ", interval" : "", acc.beta_lo, acc.beta_hi, bd);
                pruned += acc.pruned;
                tight += acc.tight;
                vertices += acc.count;
                runs++;
            }
        {
            /* the local search: a proven lower bound, usually the maximum */
            dvc_bk_acc acc;
            dvc_bk_acc_init(&acc);
            CHECK(dvc_bk_local_lower(&K, 1e5, &acc) == DVC_OK, "case %d: local search failed", it);
            CHECK(ref_cmp_dq(acc.beta_lo, beta) <= 0, "case %d: local search lo %.17g above beta %.17g", it,
                  acc.beta_lo, bd);
            if (!interval) {
                local_runs++;
                local_exact += acc.beta_lo >= bd * (1 - 1e-12);
            }
        }
        dvc_bk_mat_clear(&K);
        dvc_imat_clear(A);
        for (int i = 0; i < m * m; i++) mpq_clear(Mq[i]);
        mpq_clears(beta, alpha, NULL);
    }
    CHECK(pruned > vertices / 20, "subtree rule hardly used: %ld of %ld vertices skipped", pruned, vertices);
    CHECK(local_exact * 2 > local_runs, "local search found beta_M in %ld of %ld point cases", local_exact,
          local_runs);
    /* the tighter row bound (row_tight) decided rows of skipped subtrees */
    CHECK(tight > 100, "tighter row bound hardly used: %ld rows", tight);
    printf("subtrees below lo: %ld runs, %ld of %ld vertices skipped (%ld rows by the tighter bound); local "
           "search exact in %ld of %ld\n",
           runs, pruned, vertices, tight, local_exact, local_runs);
}

/* The radius of the Schur complement's box in the small bordering steps of
 * the subtree rule (small_border_lanes in src/beta_tree.c, docs/beta.md section 5):
 * its column b = Sigma_{S'p} ranges over [Sc +- Sr], so |U - u| must hold
 * ||Sigma'^{-1}_i||_1 ||Sr_{S'p}|| besides the predictor's errors, or Z's
 * error bound rho only covers the midpoint's column. Here M = [[1, c^T],
 * [c, B]] with point couplings c (anchor {0}, k = 1: the Schur complement
 * box is B's own up to roundings) and B (f = m - 1 <= 4) of unit diagonal,
 * point entries below it and wide intervals above, so that beta over [M]
 * is reached at a corner away from the midpoint through the upper entries,
 * the columns b. Reference: the largest exact rational beta_M over every
 * corner matrix of [M] (every one a member of [M]); started at that lower
 * bound, the route may skip the subtree of the maximiser only if its proven
 * bound, which then enters hi, is at least that. The cases past 96 (m = 3,
 * 4) have c = 0 and a wide column b = M_{0,F} instead: row 0 of
 * (M_{J+S})^{-1} is then 1 + |b^T Z|, largest at a corner of b, which only
 * du_i (the radius of b) and the error terms of the rows of J built on it
 * (dumax_i (T + R) in subsets_below_lo) account for. */
static void test_subtree_radius(void)
{
    check_rng r = {20262};
    long runs = 0, pruned = 0;
    for (int it = 0; it < 144; it++) {
        /* past 96: m = 3, 4 with the couplings of row 0 (the columns b of
         * the inner indices at the anchor {0}) intervals too, so that du,
         * and the error terms of the rows of J built on it, matter */
        const int m = it < 96 ? 3 + it % 3 : 3 + it % 2, wide_b = it >= 96;
        double M[MAXM * MAXM], P[MAXM * MAXM], rad[MAXM * MAXM], bd;
        int ivx[MAXM * MAXM], niv = 0, idx[MAXM];
        mpq_t Mq[MAXM * MAXM], beta, alpha, best;
        dvc_imat_t A;
        dvc_bk_mat K;
        memset(rad, 0, sizeof rad);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                double *e = &M[i * m + j];
                if (i == j) *e = 1;
                else if (wide_b && j == 0) *e = 0; /* c = 0: row 0 is 1 + |b^T Z| */
                else if (wide_b && i == 0) {
                    /* b: wide, so that beta is reached at a corner of b */
                    *e = (double)check_rng_int(&r, -2, 2) / 4;
                    rad[i * m + j] = 1.0 / 16;
                    ivx[niv++] = i * m + j;
                } else if (i == 0 || j == 0) *e = (double)check_rng_int(&r, -2, 2) / 32; /* couplings */
                else if (i > j) *e = (double)check_rng_int(&r, -2, 2) / 32;
                else {
                    *e = (double)check_rng_int(&r, -8, 8) / 16;
                    rad[i * m + j] = wide_b ? 1.0 / 64 : (it % 2 ? 0.25 : 0.125) / (m == 5 ? 2 : 1);
                    ivx[niv++] = i * m + j;
                }
            }
        dvc_imat_init(A, m, m);
        for (int i = 0; i < m * m; i++) mpfi_interv_d(A->e[i], M[i] - rad[i], M[i] + rad[i]);
        mpq_init(best);
        for (unsigned long cn = 0; cn < (1ul << niv); cn++) {
            memcpy(P, M, sizeof(double) * (size_t)(m * m));
            for (int q = 0; q < niv; q++) P[ivx[q]] += (cn >> q & 1) ? rad[ivx[q]] : -rad[ivx[q]];
            exact_of(P, m, Mq, beta, alpha, it);
            if (mpq_cmp(beta, best) > 0) mpq_set(best, beta);
            for (int i = 0; i < m * m; i++) mpq_clear(Mq[i]);
            mpq_clears(beta, alpha, NULL);
        }
        REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK, "case %d: mat_init", it);
        bd = mpq_get_d(best);
        for (int i = 0; i < m; i++) idx[i] = i;
        for (int rr = m - 1; rr <= m; rr++) {
            dvc_bk_acc acc;
            dvc_status st;
            dvc_bk_acc_init(&acc);
            acc.beta_lo = acc.beta_hi = bd;
            st = dvc_bk_enum_tree(&K, 0, idx, m, rr, &acc);
            CHECK(st == DVC_OK && acc.count == (1L << m), "radius case %d (m = %d, r = %d): status %d, %ld vertices",
                  it, m, rr, st, acc.count);
            CHECK(ref_cmp_dq(acc.beta_hi, best) >= 0,
                  "radius case %d (m = %d, r = %d): hi %.17g below beta %.17g of a corner matrix", it, m, rr,
                  acc.beta_hi, bd);
            pruned += acc.pruned;
            runs++;
        }
        dvc_bk_mat_clear(&K);
        dvc_imat_clear(A);
        mpq_clear(best);
    }
    /* the rule must act on these boxes, or this test proves nothing */
    CHECK(pruned > 0, "subtree rule never used on wide boxes (%ld runs)", runs);
    printf("subtree rule on wide boxes: %ld runs, %ld vertices skipped\n", runs, pruned);
}

/* m = 21, nonsymmetric PD with a large skew part: the route of m > 20
 * (local search, then the bordering enumeration started at its lower bound,
 * skipping subtrees below it) against every vertex by its own residual
 * (dvc_bk_enum, which skips nothing): both enclose beta_M, so the two
 * enclosures must meet, and both be tight. */
static void test_enum_past20(void)
{
    enum { N = 21 };
    check_rng r = {777};
    double L[N * N];
    dvc_imat_t A;
    dvc_beta_bound_t b;
    dvc_beta_opts o;
    dvc_bk_mat K;
    dvc_bk_acc acc;
    int idx[N];
    dvc_imat_init(A, N, N);
    for (int i = 0; i < N * N; i++) L[i] = (double)check_rng_int(&r, -8, 8) / 8.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double v = 0;
            for (int k = 0; k < N; k++) v += L[i * N + k] * L[j * N + k];
            v = v / 16 + (i == j ? 0.25 : 0) + (i < j ? L[i * N + j] : i > j ? -L[j * N + i] : 0);
            mpfi_set_d(dvc_imat_entry(A, i, j), v);
        }
    dvc_beta_bound_init(b);
    dvc_beta_opts_default(&o);
    o.method = DVC_BETA_ENUM;
    CHECK(dvc_beta_compute(b, NULL, A, &o) == DVC_OK && !b->stopped, "m = 21: enumeration failed");
    REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK, "m = 21: mat_init");
    for (int i = 0; i < N; i++) idx[i] = i;
    dvc_bk_acc_init(&acc);
    CHECK(dvc_bk_enum(&K, 0, idx, N, 0, &acc) == DVC_OK, "m = 21: residual route failed");
    CHECK(lo_d(b) <= acc.beta_hi && acc.beta_lo <= hi_d(b),
          "m = 21: [%.17g, %.17g] (local search + bordering) and [%.17g, %.17g] (residuals) are disjoint",
          lo_d(b), hi_d(b), acc.beta_lo, acc.beta_hi);
    CHECK(hi_d(b) - lo_d(b) <= 1e-11 * hi_d(b), "m = 21: gap [%.17g, %.17g]", lo_d(b), hi_d(b));
    printf("m = 21: [%.17g, %.17g] against every residual [%.17g, %.17g]\n", lo_d(b), hi_d(b), acc.beta_lo,
           acc.beta_hi);
    dvc_bk_mat_clear(&K);
    dvc_beta_bound_clear(b);
    dvc_imat_clear(A);
}

/* max over nonempty J of ||(M_JJ)^{-1}||_inf at 256 bits, every one of the
 * 2^m - 1 sets by its own Gauss-Jordan with partial pivoting (round to
 * nearest: an estimate, about 2^-240 relative, independent of the library). */
static void ref_beta_mpfr(const double *M, int m, mpfr_t best)
{
    mpfr_t W[16][32], f, t, s;
    mpfr_inits2(256, f, t, s, (mpfr_ptr)0);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < 2 * m; j++) mpfr_init2(W[i][j], 256);
    mpfr_set_zero(best, 1);
    for (unsigned long J = 1; J < (1ul << m); J++) {
        int idx[16], k = 0;
        for (int i = 0; i < m; i++)
            if (J >> i & 1) idx[k++] = i;
        for (int a = 0; a < k; a++)
            for (int b = 0; b < 2 * k; b++) {
                if (b < k) mpfr_set_d(W[a][b], M[idx[a] * m + idx[b]], MPFR_RNDN);
                else mpfr_set_ui(W[a][b], (unsigned long)(b - k == a), MPFR_RNDN);
            }
        for (int c = 0; c < k; c++) {
            int p = c;
            for (int r = c + 1; r < k; r++)
                if (mpfr_cmpabs(W[r][c], W[p][c]) > 0) p = r;
            REQUIRE(!mpfr_zero_p(W[p][c]), "reference: singular principal submatrix");
            if (p != c)
                for (int b = 0; b < 2 * k; b++) mpfr_swap(W[p][b], W[c][b]);
            mpfr_ui_div(f, 1, W[c][c], MPFR_RNDN);
            for (int b = c; b < 2 * k; b++) mpfr_mul(W[c][b], W[c][b], f, MPFR_RNDN);
            for (int r = 0; r < k; r++) {
                if (r == c || mpfr_zero_p(W[r][c])) continue;
                mpfr_set(f, W[r][c], MPFR_RNDN);
                for (int b = c; b < 2 * k; b++) {
                    mpfr_mul(t, f, W[c][b], MPFR_RNDN);
                    mpfr_sub(W[r][b], W[r][b], t, MPFR_RNDN);
                }
            }
        }
        for (int a = 0; a < k; a++) {
            mpfr_set_zero(s, 1);
            for (int b = 0; b < k; b++) {
                mpfr_abs(t, W[a][k + b], MPFR_RNDN);
                mpfr_add(s, s, t, MPFR_RNDN);
            }
            if (mpfr_cmp(s, best) > 0) mpfr_set(best, s, MPFR_RNDN);
        }
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < 2 * m; j++) mpfr_clear(W[i][j]);
    mpfr_clears(f, t, s, (mpfr_ptr)0);
}

/* Nonsymmetric positive definite matrices (a large skew part, the family
 * where no node bound is tight), m = 12..15: the default method, the
 * branch-and-bound and the enumeration by bordering (the route of m > 20)
 * against the 256-bit enumeration of every vertex above.
 * The enclosures must contain the reference up to its own error (2^-200
 * relative, far below the 1e-13 gaps of the bounds) and be tight. */
static void test_nonsym_pd_ref(void)
{
    check_rng r = {4242};
    for (int m = 12; m <= 15; m++) {
        double M[16 * 16];
        dvc_imat_t A;
        dvc_beta_bound_t b;
        dvc_beta_opts o;
        mpfr_t ref, tol;
        gen_pd16(M, m, 1, &r);
        mpfr_inits2(256, ref, tol, (mpfr_ptr)0);
        ref_beta_mpfr(M, m, ref);
        mpfr_mul_2si(tol, ref, -200, MPFR_RNDN);
        dvc_imat_init(A, m, m);
        to_imat(A, M, m);
        for (int meth = 0; meth < 2; meth++) {
            dvc_beta_bound_init(b);
            dvc_beta_opts_default(&o);
            if (meth) {
                o.method = DVC_BETA_BNB;
                o.rel_gap = 1e-9;
                o.max_nodes = 100000000L;
            }
            CHECK(dvc_beta_compute(b, NULL, A, &o) == DVC_OK, "m %d method %d: status", m, meth);
            mpfr_t x;
            mpfr_init2(x, 256);
            mpfr_sub(x, b->lo, tol, MPFR_RNDN);
            CHECK(mpfr_cmp(x, ref) <= 0, "m %d method %d: lo %.17g above the 256-bit beta %.17g", m, meth,
                  lo_d(b), mpfr_get_d(ref, MPFR_RNDN));
            mpfr_add(x, b->hi, tol, MPFR_RNDN);
            CHECK(mpfr_cmp(x, ref) >= 0, "m %d method %d: hi %.17g below the 256-bit beta %.17g", m, meth,
                  hi_d(b), mpfr_get_d(ref, MPFR_RNDN));
            CHECK(hi_d(b) - lo_d(b) <= 2e-9 * hi_d(b), "m %d method %d: gap [%.17g, %.17g]", m, meth, lo_d(b),
                  hi_d(b));
            mpfr_clear(x);
            dvc_beta_bound_clear(b);
        }
        {
            /* the enumeration of m > 20 (bordering from anchors, r = 6) on
             * the same matrix */
            dvc_bk_mat K;
            dvc_bk_acc acc;
            int idx[16];
            mpfr_t x;
            mpfr_init2(x, 256);
            for (int i = 0; i < m; i++) idx[i] = i;
            REQUIRE(dvc_bk_mat_init(&K, A) == DVC_OK, "m %d: mat_init", m);
            dvc_bk_acc_init(&acc);
            CHECK(dvc_bk_enum_tree(&K, 0, idx, m, 6, &acc) == DVC_OK && acc.count == (1L << m),
                  "m %d: tree enumeration, %ld vertices", m, acc.count);
            mpfr_set_d(x, acc.beta_lo, MPFR_RNDN);
            mpfr_sub(x, x, tol, MPFR_RNDN);
            CHECK(mpfr_cmp(x, ref) <= 0, "m %d tree: lo %.17g above the 256-bit beta", m, acc.beta_lo);
            mpfr_set_d(x, acc.beta_hi, MPFR_RNDN);
            mpfr_add(x, x, tol, MPFR_RNDN);
            CHECK(mpfr_cmp(x, ref) >= 0, "m %d tree: hi %.17g below the 256-bit beta", m, acc.beta_hi);
            CHECK(acc.beta_hi - acc.beta_lo <= 1e-11 * acc.beta_hi, "m %d tree: gap [%.17g, %.17g]", m,
                  acc.beta_lo, acc.beta_hi);
            dvc_bk_mat_clear(&K);
            mpfr_clear(x);
        }
        dvc_imat_clear(A);
        mpfr_clears(ref, tol, (mpfr_ptr)0);
    }
}

int main(void)
{
    test_enum_tree();
    test_subtree_prune();
    test_subtree_radius();
    test_enum_past20();
    test_remark43();
    test_mmatrix();
    test_random_p();
    test_interval();
    test_illcond();
    test_refuse();
    test_budget();
    test_bnb_prunes();
    test_pd_node_bounds();
    test_bnb_vs_enum();
    test_auto_prefers_bnb();
    test_sym_children();
    test_sym_bnb_many();
    test_nonsym_pd_ref();
    return check_report();
}
