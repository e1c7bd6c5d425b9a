/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* LVI / LCP certification: the certified enclosure must contain the
 * solution computed independently at 256 bits (tests/lvi_ref.c: exhaustive
 * enumeration of all 3^m pieces for m <= 6; for larger m the predictor's
 * piece re-verified at 256 bits, or Murty pivoting at 256 bits when that
 * check fails). Random instances with a fixed seed: diagonally dominant,
 * M-matrices, SPD, nonsymmetric PD, P-but-not-PD; finite and infinite
 * bounds; point and interval q; exactly degenerate solutions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"
#include "lvi_ref.h"

#define RPREC 256

enum { K_DD, K_MMAT, K_SPD, K_PD, K_PNOTPD, K_COUNT };
static const char *kind_name[K_COUNT] = {"diag. dominant", "M-matrix", "SPD", "nonsym. PD", "P not PD"};

static long n_inst, n_skip, n_deg, n_ival, n_samples, route_cnt[4], kind_cnt[K_COUNT];
static long ref_enum_cnt, ref_piece_cnt, ref_murty_cnt, n_imat;
static double *widths, *iwidths; /* max width per instance: point q / interval q (relative to the q width) */
static long nwidths, niwidths;

static double dyad(double x, int dyadic) { return dyadic ? ldexp(round(ldexp(x, 4)), -4) : x; }

/* A P-matrix of the given kind (row-major m x m). */
static void gen_matrix(check_rng *g, int kind, long m, double *M, int dyadic)
{
    double *B = calloc((size_t)(m * m), sizeof(double));
    memset(M, 0, (size_t)(m * m) * sizeof(double));
    switch (kind) {
    case K_DD:
    case K_MMAT:
        for (long i = 0; i < m; i++) {
            double s = 0;
            for (long j = 0; j < m; j++) {
                if (i == j || check_rng_unif(g, 0, 1) < 0.3) continue;
                M[i * m + j] = dyad(kind == K_DD ? check_rng_unif(g, -1, 1) : check_rng_unif(g, -1, 0), dyadic);
                s += fabs(M[i * m + j]);
            }
            M[i * m + i] = dyad(s + check_rng_unif(g, 0.2, 2), dyadic) + (dyadic ? 0.0625 : 0);
        }
        break;
    case K_SPD:
    case K_PD:
        for (long t = 0; t < m * m; t++) B[t] = check_rng_unif(g, -1, 1);
        for (long i = 0; i < m; i++)
            for (long j = 0; j <= i; j++) {
                double s = 0;
                for (long k = 0; k < m; k++) s += B[k * m + i] * B[k * m + j];
                if (i == j) s += 0.3;
                s = dyad(s, dyadic);
                M[i * m + j] = M[j * m + i] = s;
            }
        if (dyadic)
            for (long i = 0; i < m; i++) M[i * m + i] += 0.25 * (double)m; /* margin for the rounding */
        if (kind == K_PD)
            for (long i = 0; i < m; i++)
                for (long j = 0; j < i; j++) {
                    double k = dyad(check_rng_unif(g, -2, 2), dyadic);
                    M[i * m + j] += k;
                    M[j * m + i] -= k;
                }
        break;
    default: { /* permuted upper triangular with large off-diagonal entries: P, not PD */
        long *perm = malloc((size_t)m * sizeof(long));
        check_rng_perm(g, perm, m);
        for (long i = 0; i < m; i++)
            for (long j = i; j < m; j++)
                B[i * m + j] = dyad(i == j ? check_rng_unif(g, 0.5, 2) : check_rng_unif(g, -4, 4), dyadic);
        if (m >= 2) B[1] = -3 * B[0] - 1; /* the [[1,-3],[0,1]] pattern: not PD */
        for (long i = 0; i < m; i++)
            for (long j = 0; j < m; j++) M[perm[i] * m + perm[j]] = B[i * m + j];
        free(perm);
    }
    }
    free(B);
}

/* Bounds: LCP for the whole instance, or a per-entry mix. */
static void gen_bounds(check_rng *g, long m, double *l, double *u, int lcp, int dyadic)
{
    for (long i = 0; i < m; i++) {
        if (lcp) {
            l[i] = 0;
            u[i] = INFINITY;
            continue;
        }
        long t = check_rng_int(g, 0, 4);
        double a = dyad(check_rng_unif(g, -2, 1), dyadic), b = a + dyad(check_rng_unif(g, 0.25, 3), dyadic);
        l[i] = t == 1 || t == 4 ? -INFINITY : a;
        u[i] = t == 2 || t == 4 ? INFINITY : b;
    }
}

/* q from a planned solution y* (free / lower / upper / degenerate). */
static void gen_q(check_rng *g, long m, const double *M, const double *l, const double *u, double *q,
                  int ndeg, int dyadic)
{
    double *y = malloc((size_t)m * sizeof(double)), *z = malloc((size_t)m * sizeof(double));
    for (long i = 0; i < m; i++) {
        long t = check_rng_int(g, 0, 2);
        double lo = isfinite(l[i]) ? l[i] : (isfinite(u[i]) ? u[i] - 3 : -2);
        double hi = isfinite(u[i]) ? u[i] : lo + 3;
        if (t == 1 && !isfinite(l[i])) t = 0;
        if (t == 2 && !isfinite(u[i])) t = 0;
        if (t == 0) {
            y[i] = dyad(check_rng_unif(g, lo + 0.1 * (hi - lo), hi - 0.1 * (hi - lo)), dyadic);
            if (!(y[i] > l[i] && y[i] < u[i])) y[i] = isfinite(l[i]) && isfinite(u[i]) ? 0.5 * (l[i] + u[i]) : lo + 1;
            z[i] = 0;
        } else if (t == 1) {
            y[i] = l[i];
            z[i] = dyad(check_rng_unif(g, 0.1, 2), dyadic);
        } else {
            y[i] = u[i];
            z[i] = -dyad(check_rng_unif(g, 0.1, 2), dyadic);
        }
    }
    /* degenerate entries: at a finite bound with a zero multiplier */
    for (int d = 0; d < ndeg; d++) {
        long i = check_rng_int(g, 0, m - 1);
        if (isfinite(l[i])) y[i] = l[i];
        else if (isfinite(u[i])) y[i] = u[i];
        z[i] = 0;
    }
    for (long i = 0; i < m; i++) {
        double s = z[i];
        for (long j = 0; j < m; j++) s -= M[i * m + j] * y[j]; /* exact for dyadic data */
        q[i] = s;
    }
    free(y);
    free(z);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Enclosure contains the 256-bit reference (up to its own 2^-200 error). */
static int contains_ref(const mpfi_t y, const mpfr_t r)
{
    mpfr_t t, lo, hi;
    int ok;
    mpfr_inits2(RPREC, t, lo, hi, (mpfr_ptr)0);
    mpfr_abs(t, r, MPFR_RNDU);
    mpfr_add_ui(t, t, 1, MPFR_RNDU);
    mpfr_mul_2si(t, t, -200, MPFR_RNDU);
    mpfr_sub(lo, r, t, MPFR_RNDD);
    mpfr_add(hi, r, t, MPFR_RNDU);
    ok = mpfr_lessequal_p(&y->left, hi) && mpfr_greaterequal_p(&y->right, lo);
    mpfr_clears(t, lo, hi, (mpfr_ptr)0);
    return ok;
}

/* An instance's point data M (m x m, row-major), l, u, their interval
 * copies Mi, li, ui (set by the caller) with room qi for q, and the
 * reference solution yr (RPREC bits) with its active set act. */
typedef struct {
    long m;
    double *M, *l, *u;
    int *act;
    mpfr_t *yr;
    dvc_imat_t Mi;
    dvc_ivec_t li, ui, qi;
} inst_data;

static void inst_data_init(inst_data *d, long m)
{
    d->m = m;
    d->M = malloc((size_t)(m * m) * sizeof(double));
    d->l = malloc((size_t)m * sizeof(double));
    d->u = malloc((size_t)m * sizeof(double));
    d->act = malloc((size_t)m * sizeof(int));
    d->yr = malloc((size_t)m * sizeof(mpfr_t));
    for (long i = 0; i < m; i++) mpfr_init2(d->yr[i], RPREC);
    dvc_imat_init(d->Mi, m, m);
    dvc_ivec_init(d->li, m);
    dvc_ivec_init(d->ui, m);
    dvc_ivec_init(d->qi, m);
}

static void inst_data_clear(inst_data *d)
{
    dvc_imat_clear(d->Mi);
    dvc_ivec_clear(d->li);
    dvc_ivec_clear(d->ui);
    dvc_ivec_clear(d->qi);
    for (long i = 0; i < d->m; i++) mpfr_clear(d->yr[i]);
    free(d->yr);
    free(d->M);
    free(d->l);
    free(d->u);
    free(d->act);
}

static void run_instance(check_rng *g, long id, int kind, long m, int ndeg, int ival, int lcp,
                         int force_residual, int use_guess)
{
    int dyadic = ndeg > 0;
    inst_data d;
    double *q = malloc((size_t)m * sizeof(double)),
           *qlo = malloc((size_t)m * sizeof(double)), *qhi = malloc((size_t)m * sizeof(double)),
           *qs = malloc((size_t)m * sizeof(double));
    dvc_lvi_solver_t s;
    dvc_lvi_result_t r;
    dvc_status st;
    double delta = 0;

    inst_data_init(&d, m);
    gen_matrix(g, kind, m, d.M, dyadic);
    gen_bounds(g, m, d.l, d.u, lcp, dyadic);
    gen_q(g, m, d.M, d.l, d.u, q, ndeg, dyadic);
    if (ival) delta = pow(10, -check_rng_unif(g, m <= 6 ? 2 : 7, 10));
    for (long i = 0; i < m; i++) {
        qlo[i] = q[i] - delta * (1 + fabs(q[i]));
        qhi[i] = q[i] + delta * (1 + fabs(q[i]));
    }
    dvc_imat_set_d(d.Mi, d.M);
    if (id % 7 == 3) /* interval matrix: the reference uses M, a point of it */
        for (long t = 0; t < m * m; t++)
            if (d.M[t] != 0) mpfi_interv_d(d.Mi->e[t], d.M[t] - 1e-13 * fabs(d.M[t]), d.M[t] + 1e-13 * fabs(d.M[t]));
    for (long i = 0; i < m; i++) {
        mpfi_set_d(d.li->e[i], d.l[i]);
        mpfi_set_d(d.ui->e[i], d.u[i]);
        mpfi_interv_d(d.qi->e[i], qlo[i], qhi[i]);
    }
    st = dvc_lvi_solver_init(s, d.Mi, d.li, d.ui);
    if (st != DVC_OK) {
        /* only the P-not-PD kind may be beyond the P-matrix prover */
        CHECK(kind == K_PNOTPD && st == DVC_NOT_CERTIFIED, "instance %ld (%s, m=%ld): init: %s", id,
              kind_name[kind], m, dvc_error_message());
        n_skip++;
        goto done;
    }
    if (force_residual) s->vertex_max = 0;
    s->alpha_opts.max_seconds = 5;
    dvc_lvi_result_init(r, m);
    {
        /* a random guess first: its (mostly wrong) piece must be refused by
         * the checks, or be right */
        double *gs = malloc((size_t)m * sizeof(double));
        for (long i = 0; i < m; i++) {
            double lo = isfinite(d.l[i]) ? d.l[i] : -3, hi = isfinite(d.u[i]) ? d.u[i] : 3;
            long t = check_rng_int(g, 0, 2);
            gs[i] = t == 0 ? d.l[i] : t == 1 ? d.u[i] : check_rng_unif(g, lo, hi);
            if (!isfinite(gs[i])) gs[i] = check_rng_unif(g, lo, hi);
        }
        st = dvc_lvi_solve(r, s, d.qi, use_guess ? gs : NULL);
        free(gs);
    }
    CHECK(st == DVC_OK, "instance %ld (%s, m=%ld, deg=%d, ival=%d): %s", id, kind_name[kind], m, ndeg,
          ival, dvc_error_message());
    if (st == DVC_OK) {
        int nsamp = ival ? 6 : 1;
        double wmax = 0;
        n_inst++;
        kind_cnt[kind]++;
        route_cnt[r->route]++;
        if (ndeg) n_deg++;
        if (ival) n_ival++;
        for (long i = 0; i < m; i++) {
            double w = mpfr_get_d(&r->y->e[i]->right, MPFR_RNDU) - mpfr_get_d(&r->y->e[i]->left, MPFR_RNDD);
            if (w > wmax) wmax = w;
        }
        if (id % 7 == 3) n_imat++; /* widths reflect the 1e-13 matrix radius: not in the stats */
        else if (ival) iwidths[niwidths++] = wmax / (2 * delta);
        else widths[nwidths++] = wmax;
        for (int smp = 0; smp < nsamp; smp++) {
            int found;
            for (long i = 0; i < m; i++) {
                double t = smp == 0 ? 0.5 : smp == 1 ? 0 : smp == 2 ? 1 : check_rng_unif(g, 0, 1);
                qs[i] = ival ? qlo[i] + t * (qhi[i] - qlo[i]) : q[i];
                if (qs[i] < qlo[i]) qs[i] = qlo[i];
                if (qs[i] > qhi[i]) qs[i] = qhi[i];
            }
            if (m <= 6) {
                found = lvi_ref_enum(d.yr, d.act, d.M, qs, d.l, d.u, m, RPREC);
                ref_enum_cnt++;
            } else {
                /* the certified run's piece, re-checked at 256 bits */
                if (r->route == DVC_LVI_ROUTE_ACTIVE_SET) memcpy(d.act, r->active, (size_t)m * sizeof(int));
                for (long i = 0; i < m && r->route != DVC_LVI_ROUTE_ACTIVE_SET; i++) {
                    double zi = qs[i];
                    for (long j = 0; j < m; j++) zi += d.M[i * m + j] * r->pred[j];
                    d.act[i] = r->pred[i] == d.l[i] && zi >= 0 ? -1 : r->pred[i] == d.u[i] && zi <= 0 ? 1 : 0;
                }
                found = lvi_ref_piece(d.yr, d.act, d.M, qs, d.l, d.u, m, RPREC);
                if (found) ref_piece_cnt++;
                else {
                    found = lvi_ref_murty(d.yr, d.act, d.M, qs, d.l, d.u, m, RPREC);
                    ref_murty_cnt++;
                }
            }
            CHECK(found, "instance %ld: reference solver found no solution", id);
            n_samples++;
            for (long i = 0; found && i < m; i++)
                CHECK(contains_ref(r->y->e[i], d.yr[i]),
                      "instance %ld (%s, m=%ld, deg=%d, ival=%d, route %s) entry %ld: [%.17g, %.17g] misses %.17g",
                      id, kind_name[kind], m, ndeg, ival, dvc_lvi_route_name(r->route), i,
                      mpfr_get_d(&r->y->e[i]->left, MPFR_RNDD), mpfr_get_d(&r->y->e[i]->right, MPFR_RNDU),
                      mpfr_get_d(d.yr[i], MPFR_RNDN));
        }
    }
    dvc_lvi_result_clear(r);
done:
    dvc_lvi_solver_clear(s);
    inst_data_clear(&d);
    free(q);
    free(qlo);
    free(qhi);
    free(qs);
}

static void test_random(void)
{
    check_rng g = {20261125};
    long id = 0, total = 2100;
    widths = malloc((size_t)total * sizeof(double));
    iwidths = malloc((size_t)total * sizeof(double));
    for (; id < total; id++) {
        long m;
        int kind = (int)(id % K_COUNT), ndeg = 0, ival, lcp, forced = 0;
        /* sizes: mostly small (exhaustive reference), fewer large */
        if (id % 10 < 6) m = check_rng_int(&g, 1, 6);
        else if (id % 10 < 9) m = check_rng_int(&g, 7, 14);
        else m = check_rng_int(&g, 15, 30);
        if (kind == K_PNOTPD && m > 8) m = check_rng_int(&g, 2, 8); /* P proof by minors */
        ival = check_rng_unif(&g, 0, 1) < 0.25;
        lcp = check_rng_unif(&g, 0, 1) < 0.3;
        if (check_rng_unif(&g, 0, 1) < 0.2) {
            ndeg = (int)check_rng_int(&g, 1, m < 3 ? (int)m : 3);
            ival = 0;
            forced = m <= 8 && check_rng_unif(&g, 0, 1) < 0.25;
        }
        run_instance(&g, id, kind, m, ndeg, ival, lcp, forced, id % 3 == 1);
    }
    qsort(widths, (size_t)nwidths, sizeof(double), cmp_d);
    printf("random instances certified: %ld (skipped: %ld P not proven), degenerate %ld, interval q %ld, "
           "interval M %ld, q samples checked %ld\n", n_inst, n_skip, n_deg, n_ival, n_imat, n_samples);
    for (int k = 0; k < K_COUNT; k++) printf("  %-16s %ld\n", kind_name[k], kind_cnt[k]);
    printf("routes: active set %ld, vertex %ld, residual %ld\n", route_cnt[DVC_LVI_ROUTE_ACTIVE_SET],
           route_cnt[DVC_LVI_ROUTE_VERTEX], route_cnt[DVC_LVI_ROUTE_RESIDUAL]);
    printf("reference: enumeration %ld, piece re-checked %ld, Murty %ld\n", ref_enum_cnt, ref_piece_cnt,
           ref_murty_cnt);
    qsort(iwidths, (size_t)niwidths, sizeof(double), cmp_d);
    if (nwidths)
        printf("point data: max enclosure width per instance: median %.3g, 90%% %.3g, max %.3g\n",
               widths[nwidths / 2], widths[(nwidths * 9) / 10], widths[nwidths - 1]);
    if (niwidths)
        printf("interval q: max width / max q-width per instance: median %.3g, 90%% %.3g, max %.3g\n",
               iwidths[niwidths / 2], iwidths[(niwidths * 9) / 10], iwidths[niwidths - 1]);
    CHECK(n_inst >= 2000, "at least 2000 certified instances (got %ld)", n_inst);
    CHECK(n_skip * 20 < total, "few skipped instances (%ld)", n_skip);
    CHECK(route_cnt[DVC_LVI_ROUTE_VERTEX] > 0 && route_cnt[DVC_LVI_ROUTE_RESIDUAL] > 0,
          "every route exercised");
    free(widths);
    free(iwidths);
}

/* 2x2 LCP solvable by hand: M = [[2,1],[1,2]], q = [-5,-6]: both free,
 * y = M^{-1}(-q) = (4/3, 7/3); with q = [-1, 2]: y = (1/2, 0), w2 = 5/2. */
static void test_closed_form(void)
{
    double Md[4] = {2, 1, 1, 2};
    dvc_imat_t M;
    dvc_ivec_t l, u, q;
    dvc_lvi_solver_t s;
    dvc_lvi_result_t r;
    dvc_imat_init(M, 2, 2);
    dvc_ivec_init(l, 2);
    dvc_ivec_init(u, 2);
    dvc_ivec_init(q, 2);
    dvc_imat_set_d(M, Md);
    mpfi_set_d(u->e[0], INFINITY);
    mpfi_set_d(u->e[1], INFINITY);
    REQUIRE(dvc_lvi_solver_init(s, M, l, u) == DVC_OK, "init: %s", dvc_error_message());
    dvc_lvi_result_init(r, 2);
    mpfi_set_si(q->e[0], -5);
    mpfi_set_si(q->e[1], -6);
    CHECK(dvc_lvi_solve(r, s, q, NULL) == DVC_OK, "solve: %s", dvc_error_message());
    {
        mpfr_t a;
        mpfr_init2(a, 200);
        mpfr_set_ui(a, 4, MPFR_RNDN);
        mpfr_div_ui(a, a, 3, MPFR_RNDN);
        CHECK(contains_ref(r->y->e[0], a), "y1 = 4/3");
        mpfr_set_ui(a, 7, MPFR_RNDN);
        mpfr_div_ui(a, a, 3, MPFR_RNDN);
        CHECK(contains_ref(r->y->e[1], a), "y2 = 7/3");
        mpfr_clear(a);
    }
    CHECK(r->route == DVC_LVI_ROUTE_ACTIVE_SET, "route %s", dvc_lvi_route_name(r->route));
    mpfi_set_si(q->e[0], -1);
    mpfi_set_si(q->e[1], 2);
    CHECK(dvc_lvi_solve(r, s, q, NULL) == DVC_OK, "solve 2");
    CHECK(mpfi_is_inside_d(0.5, r->y->e[0]) && mpfi_is_zero(r->y->e[1]), "y = (1/2, 0)");
    /* degenerate: q = [-0.2, -0.1] (decimal, enclosed): y = (1/10, 0) with
     * w2 = 0 exactly, which the active-set route cannot prove */
    REQUIRE(dvc_ival_set_str(q->e[0], "-0.2") == DVC_OK && dvc_ival_set_str(q->e[1], "-0.1") == DVC_OK, "q");
    CHECK(dvc_lvi_solve(r, s, q, NULL) == DVC_OK, "degenerate solve: %s", dvc_error_message());
    CHECK(ref_contains_si(r->y->e[0], 1, 10) && ref_contains_si(r->y->e[1], 0, 1), "y = (1/10, 0)");
    CHECK(r->route == DVC_LVI_ROUTE_VERTEX, "degenerate case by the vertex route (%s)", dvc_lvi_route_name(r->route));
    CHECK(r->ambiguous == 1, "one ambiguous kink (%ld)", r->ambiguous);
    /* the same by the residual route (alpha_M of this M) */
    s->vertex_max = 0;
    CHECK(dvc_lvi_solve(r, s, q, NULL) == DVC_OK, "residual solve: %s", dvc_error_message());
    CHECK(ref_contains_si(r->y->e[0], 1, 10) && ref_contains_si(r->y->e[1], 0, 1), "y = (1/10, 0) (residual)");
    CHECK(r->route == DVC_LVI_ROUTE_RESIDUAL, "residual route (%s)", dvc_lvi_route_name(r->route));
    dvc_lvi_result_clear(r);
    dvc_lvi_solver_clear(s);
    dvc_imat_clear(M);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
    dvc_ivec_clear(q);
}

static void test_errors(void)
{
    double Mbad[4] = {0, 1, 1, 0}, Mok[4] = {1, 0, 0, 1}, M3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    dvc_imat_t M, M3i;
    dvc_ivec_t l, u, q3;
    dvc_lvi_solver_t s;
    dvc_lvi_result_t r;
    dvc_imat_init(M, 2, 2);
    dvc_imat_init(M3i, 3, 3);
    dvc_ivec_init(l, 2);
    dvc_ivec_init(u, 2);
    dvc_ivec_init(q3, 3);
    dvc_imat_set_d(M3i, M3);
    mpfi_set_d(u->e[0], 1);
    mpfi_set_d(u->e[1], 1);
    dvc_imat_set_d(M, Mbad);
    CHECK(dvc_lvi_solver_init(s, M, l, u) == DVC_NOT_CERTIFIED, "non-P matrix refused");
    CHECK(strstr(dvc_error_message(), "P-matrix") != NULL, "message: %s", dvc_error_message());
    dvc_lvi_solver_clear(s);
    dvc_imat_set_d(M, Mok);
    mpfi_set_d(u->e[1], 0); /* l = u */
    CHECK(dvc_lvi_solver_init(s, M, l, u) == DVC_ERR_INPUT, "l >= u refused");
    CHECK(strstr(dvc_error_message(), "entry 2") != NULL, "names the entry: %s", dvc_error_message());
    dvc_lvi_solver_clear(s);
    mpfi_set_d(u->e[1], 1);
    mpfr_set_nan(&l->e[0]->left);
    CHECK(dvc_lvi_solver_init(s, M, l, u) == DVC_ERR_INPUT, "NaN refused");
    dvc_lvi_solver_clear(s);
    mpfi_set_d(l->e[0], 0);
    CHECK(dvc_lvi_solver_init(s, M3i, l, u) == DVC_ERR_INPUT, "dimension mismatch refused");
    dvc_lvi_solver_clear(s);
    REQUIRE(dvc_lvi_solver_init(s, M, l, u) == DVC_OK, "init");
    dvc_lvi_result_init(r, 2);
    CHECK(dvc_lvi_solve(r, s, q3, NULL) == DVC_ERR_INPUT, "q of the wrong length refused");
    dvc_lvi_result_clear(r);
    dvc_lvi_solver_clear(s);
    {
        double y[2], Md[4] = {1, 0, 0, 1}, qd[2] = {NAN, 0}, ld[2] = {0, 0}, ud[2] = {1, 1};
        CHECK(dvc_lvi_predict(y, Md, qd, ld, ud, 2) == DVC_ERR_INPUT, "predictor: NaN refused");
        qd[0] = -0.5;
        CHECK(dvc_lvi_predict(y, Md, qd, ld, ud, 2) == DVC_OK && y[0] == 0.5 && y[1] == 0,
              "predictor: trivial box");
    }
    dvc_imat_clear(M);
    dvc_imat_clear(M3i);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
    dvc_ivec_clear(q3);
}

/* The predictor alone: every fallback reaches a consistent piece on random
 * P-matrix problems (also with a bad guess). */
static void test_predictor(void)
{
    check_rng g = {777};
    for (int t = 0; t < 300; t++) {
        long m = check_rng_int(&g, 1, 40);
        int kind = (int)check_rng_int(&g, 0, K_PD);
        double *M = malloc((size_t)(m * m) * sizeof(double)), *l = malloc((size_t)m * sizeof(double)),
               *u = malloc((size_t)m * sizeof(double)), *q = malloc((size_t)m * sizeof(double)),
               *y = malloc((size_t)m * sizeof(double)), *gs = malloc((size_t)m * sizeof(double));
        gen_matrix(&g, kind, m, M, 0);
        gen_bounds(&g, m, l, u, t % 3 == 0, 0);
        for (long i = 0; i < m; i++) {
            q[i] = check_rng_unif(&g, -5, 5);
            gs[i] = check_rng_unif(&g, -100, 100);
        }
        CHECK(dvc_lvi_predict(y, M, q, l, u, m) == DVC_OK, "predictor %d: %s", t, dvc_error_message());
        CHECK(dvc_lvi_predict_guess(y, M, q, l, u, m, gs) == DVC_OK, "predictor with guess %d: %s", t,
              dvc_error_message());
        free(M);
        free(l);
        free(u);
        free(q);
        free(y);
        free(gs);
    }
}

/* The DLVI pattern: one solver, many q along a path q0 + t dq, warm
 * started from the previous predictor; every solve checked against the
 * exhaustive 256-bit reference (workspace reuse must not leak state). */
static void test_path(void)
{
    check_rng g = {4242};
    long routes[4] = {0, 0, 0, 0}, nsolve = 0;
    for (int inst = 0; inst < 12; inst++) {
        long m = check_rng_int(&g, 2, 6);
        inst_data d;
        double *q0 = malloc((size_t)m * sizeof(double)),
               *dq = malloc((size_t)m * sizeof(double)), *q = malloc((size_t)m * sizeof(double)),
               *prev = malloc((size_t)m * sizeof(double));
        dvc_lvi_solver_t s;
        dvc_lvi_result_t r;
        inst_data_init(&d, m);
        gen_matrix(&g, inst % K_COUNT, m, d.M, 0);
        gen_bounds(&g, m, d.l, d.u, inst % 2, 0);
        for (long i = 0; i < m; i++) {
            q0[i] = check_rng_unif(&g, -4, 4);
            dq[i] = check_rng_unif(&g, -8, 8);
        }
        dvc_imat_set_d(d.Mi, d.M);
        dvc_ivec_set_d(d.li, d.l);
        dvc_ivec_set_d(d.ui, d.u);
        REQUIRE(dvc_lvi_solver_init(s, d.Mi, d.li, d.ui) == DVC_OK, "path init: %s", dvc_error_message());
        dvc_lvi_result_init(r, m);
        for (int k = 0; k <= 100; k++) {
            dvc_status st;
            for (long i = 0; i < m; i++) q[i] = q0[i] + 0.01 * k * dq[i];
            dvc_ivec_set_d(d.qi, q);
            st = dvc_lvi_solve(r, s, d.qi, k ? prev : NULL);
            CHECK(st == DVC_OK, "path %d step %d: %s", inst, k, dvc_error_message());
            if (st != DVC_OK) continue;
            nsolve++;
            routes[r->route]++;
            memcpy(prev, r->pred, (size_t)m * sizeof(double));
            REQUIRE(lvi_ref_enum(d.yr, d.act, d.M, q, d.l, d.u, m, RPREC), "path reference");
            for (long i = 0; i < m; i++)
                CHECK(contains_ref(r->y->e[i], d.yr[i]), "path %d step %d entry %ld (route %s)", inst, k, i,
                      dvc_lvi_route_name(r->route));
        }
        dvc_lvi_result_clear(r);
        dvc_lvi_solver_clear(s);
        inst_data_clear(&d);
        free(q0);
        free(dq);
        free(q);
        free(prev);
    }
    printf("path solves (warm started): %ld; routes: active set %ld, vertex %ld, residual %ld\n", nsolve,
           routes[DVC_LVI_ROUTE_ACTIVE_SET], routes[DVC_LVI_ROUTE_VERTEX], routes[DVC_LVI_ROUTE_RESIDUAL]);
}

/* The solver's copies of M, l, u hold exactly the caller's endpoints
 * (written directly from binary64 when they are doubles): every sign,
 * exponent range and signed zero. */
static void test_solver_copy(void)
{
    check_rng rng = {4242};
    long m = 7;
    dvc_imat_t M;
    dvc_ivec_t l, u;
    dvc_lvi_solver_t s;
    dvc_imat_init(M, m, m);
    dvc_ivec_init(l, m);
    dvc_ivec_init(u, m);
    for (int rep = 0; rep < 20; rep++) {
        for (long i = 0; i < m; i++) {
            double sum = 0;
            for (long j = 0; j < m; j++) {
                if (i == j) continue;
                double v = ldexp(check_rng_unif(&rng, -1, 1), (int)check_rng_int(&rng, -60, 0));
                if (check_rng_int(&rng, 0, 4) == 0) v = check_rng_int(&rng, 0, 1) ? 0.0 : -0.0;
                sum += fabs(v);
                if (check_rng_int(&rng, 0, 3) == 0)
                    mpfi_interv_d(dvc_imat_entry(M, i, j), v - ldexp(1, -70), v + ldexp(1, -70));
                else
                    mpfi_set_d(dvc_imat_entry(M, i, j), v);
            }
            mpfi_set_d(dvc_imat_entry(M, i, i), sum + ldexp(check_rng_unif(&rng, 1, 2), (int)check_rng_int(&rng, 0, 40)));
            mpfi_set_d(l->e[i], -check_rng_unif(&rng, 0.5, 2));
            mpfi_set_d(u->e[i], check_rng_int(&rng, 0, 1) ? INFINITY : check_rng_unif(&rng, 0.5, 2));
        }
        REQUIRE(dvc_lvi_solver_init(s, M, l, u) == DVC_OK, "copy: init %s", dvc_error_message());
        int same = 1;
        for (long t = 0; t < m * m; t++) {
            mpfr_srcptr a[2] = {&M->e[t]->left, &M->e[t]->right}, b[2] = {&s->M->e[t]->left, &s->M->e[t]->right};
            for (int k = 0; k < 2; k++)
                if (!mpfr_equal_p(a[k], b[k]) || mpfr_signbit(a[k]) != mpfr_signbit(b[k])) same = 0;
        }
        for (long i = 0; i < m; i++)
            if (!mpfi_is_inside(l->e[i], s->l->e[i]) || !mpfi_is_inside(s->l->e[i], l->e[i]) ||
                !mpfi_is_inside(u->e[i], s->u->e[i]) || !mpfi_is_inside(s->u->e[i], u->e[i]))
                same = 0;
        CHECK(same, "solver copy of M, l, u differs from the input (rep %d)", rep);
        dvc_lvi_solver_clear(s);
    }
    dvc_imat_clear(M);
    dvc_ivec_clear(l);
    dvc_ivec_clear(u);
}

int main(void)
{
    test_errors();
    test_closed_form();
    test_solver_copy();
    test_predictor();
    test_path();
    test_random();
    return check_report();
}
