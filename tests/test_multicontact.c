/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Several contacts (docs/sliding.md section 5): Stewart's three-mass
 * problem (15) (certs/threemass/) against an independent event-driven
 * reference in MPFR at 256 bits -- per piece the dynamics are linear
 * (x' = A_s x + b_s(t)), integrated by Taylor series of order 40 whose
 * coefficients follow from the ODE, switch times by bisection on the
 * series, the new regime of each mass from its force at the switch (the
 * friction terms are decoupled: stick while |F_j| < 0.3) -- and the two
 * two-contact models (certs/two-contact/): decided when Stewart's LCP (13)
 * has one strictly complementary solution, refused with the candidates
 * when it has three; two terms sliding at once (entry, a weight reaching
 * 1, the departure, against closed forms); edits of LCP events with fresh
 * digests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dvicert/hybrid.h"
#include "dvicert/hybrid_cert.h"
#include "check.h"

#define RP 256
#define ORD 40
#define NS 6
#define MAXEV 64

static int contains(const mpfi_t x, const mpfr_t y)
{
    return mpfr_cmp(&x->left, y) <= 0 && mpfr_cmp(y, &x->right) <= 0;
}

/* ---- the reference ------------------------------------------------------ */

typedef struct {
    mpfr_t c[ORD + 1][NS]; /* Taylor coefficients about t0 */
    mpfr_t t0;
} series;

static mpfr_t PI, MU;

/* F_j: the force on mass j without friction (t, state x) */
static void force(mpfr_t F, int j, const mpfr_t *x, const mpfr_t cosv)
{
    mpfr_t a;
    mpfr_init2(a, RP);
    if (j == 0) { /* -x1 + (x2 - x1) - v1 */
        mpfr_mul_ui(a, x[0], 2, MPFR_RNDN);
        mpfr_sub(F, x[1], a, MPFR_RNDN);
        mpfr_sub(F, F, x[3], MPFR_RNDN);
    } else if (j == 1) { /* (x1 - x2) + (x3 - x2) - v2 */
        mpfr_mul_ui(a, x[1], 2, MPFR_RNDN);
        mpfr_add(F, x[0], x[2], MPFR_RNDN);
        mpfr_sub(F, F, a, MPFR_RNDN);
        mpfr_sub(F, F, x[4], MPFR_RNDN);
    } else { /* (x2 - x3) - v3 + 10 cos(pi t) */
        mpfr_sub(F, x[1], x[2], MPFR_RNDN);
        mpfr_sub(F, F, x[5], MPFR_RNDN);
        mpfr_mul_ui(a, cosv, 10, MPFR_RNDN);
        mpfr_add(F, F, a, MPFR_RNDN);
    }
    mpfr_clear(a);
}

/* Taylor coefficients of the solution from (t0, x0) in regime s (s_j = 1:
 * v_j > 0, -1: v_j < 0, 0: mass j sticks): c_{k+1} = f_k / (k + 1), f_k
 * the k-th coefficient of the field, linear in c_k plus the forcing's
 * coefficient 10 pi^k cos(pi t0 + k pi / 2) / k! and the constants. */
static void expand(series *S, const mpfr_t t0, const mpfr_t *x0, const int *s)
{
    mpfr_t f, cosk, ang, fact, pik, z[NS];
    mpfr_inits2(RP, f, cosk, ang, fact, pik, (mpfr_ptr)0);
    for (int i = 0; i < NS; i++) mpfr_init2(z[i], RP);
    mpfr_set(S->t0, t0, MPFR_RNDN);
    for (int i = 0; i < NS; i++) mpfr_set(S->c[0][i], x0[i], MPFR_RNDN);
    mpfr_set_ui(fact, 1, MPFR_RNDN);
    mpfr_set_ui(pik, 1, MPFR_RNDN);
    for (int k = 0; k < ORD; k++) {
        /* coefficient k of cos(pi t) about t0 */
        mpfr_mul(ang, PI, t0, MPFR_RNDN);
        mpfr_mul_ui(cosk, PI, (unsigned long)k, MPFR_RNDN);
        mpfr_div_ui(cosk, cosk, 2, MPFR_RNDN);
        mpfr_add(ang, ang, cosk, MPFR_RNDN);
        mpfr_cos(cosk, ang, MPFR_RNDN);
        mpfr_mul(cosk, cosk, pik, MPFR_RNDN);
        mpfr_div(cosk, cosk, fact, MPFR_RNDN);
        /* x_i' = v_i (0 for a sticking mass) */
        for (int j = 0; j < 3; j++) mpfr_set(z[j], S->c[k][3 + j], MPFR_RNDN);
        for (int j = 0; j < 3; j++) {
            force(f, j, S->c[k], cosk);
            if (s[j] == 0) mpfr_set_ui(f, 0, MPFR_RNDN);
            else if (k == 0) {
                if (s[j] > 0) mpfr_sub(f, f, MU, MPFR_RNDN);
                else mpfr_add(f, f, MU, MPFR_RNDN);
            }
            mpfr_set(z[3 + j], f, MPFR_RNDN);
        }
        /* the forcing coefficient enters F_3 only through cosk; for k >= 1
         * the constant parts vanish (force() is linear in (x, cos)) */
        for (int i = 0; i < NS; i++) mpfr_div_ui(S->c[k + 1][i], z[i], (unsigned long)k + 1, MPFR_RNDN);
        mpfr_mul_ui(fact, fact, (unsigned long)k + 1, MPFR_RNDN);
        mpfr_mul(pik, pik, PI, MPFR_RNDN);
    }
    mpfr_clears(f, cosk, ang, fact, pik, (mpfr_ptr)0);
    for (int i = 0; i < NS; i++) mpfr_clear(z[i]);
}

static void seval(mpfr_t *x, const series *S, const mpfr_t t)
{
    mpfr_t d;
    mpfr_init2(d, RP);
    mpfr_sub(d, t, S->t0, MPFR_RNDN);
    for (int i = 0; i < NS; i++) {
        mpfr_set(x[i], S->c[ORD][i], MPFR_RNDN);
        for (int k = ORD - 1; k >= 0; k--) {
            mpfr_mul(x[i], x[i], d, MPFR_RNDN);
            mpfr_add(x[i], x[i], S->c[k][i], MPFR_RNDN);
        }
    }
    mpfr_clear(d);
}

/* event function e of mass j in regime s at (t, x): v_j for a moving mass;
 * F_j - 0.3 (e = 1) or F_j + 0.3 (e = 2) for a sticking one */
static void evfun(mpfr_t y, int j, int e, const mpfr_t t, const mpfr_t *x)
{
    if (e == 0) {
        mpfr_set(y, x[3 + j], MPFR_RNDN);
        return;
    }
    mpfr_t c;
    mpfr_init2(c, RP);
    mpfr_mul(c, PI, t, MPFR_RNDN);
    mpfr_cos(c, c, MPFR_RNDN);
    force(y, j, x, c);
    if (e == 1) mpfr_sub(y, y, MU, MPFR_RNDN);
    else mpfr_add(y, y, MU, MPFR_RNDN);
    mpfr_clear(c);
}

typedef struct {
    int nev;
    mpfr_t tev[MAXEV];
    int sev[MAXEV][3]; /* regimes after each event */
    long nsamp;
    mpfr_t *ts, (*xs)[NS];
} ref_tm;

/* the event-driven run on [0, T] from the paper's initial state, sampled
 * at the times ts (increasing) */
static void ref_run(ref_tm *R, double T)
{
    const double hs = 0.02;
    series S;
    mpfr_init2(S.t0, RP);
    for (int k = 0; k <= ORD; k++)
        for (int i = 0; i < NS; i++) mpfr_init2(S.c[k][i], RP);
    mpfr_t t, tb, lo, hi, mid, y0, y1, ym, x[NS], xb[NS], best;
    mpfr_inits2(RP, t, tb, lo, hi, mid, y0, y1, ym, best, (mpfr_ptr)0);
    for (int i = 0; i < NS; i++) {
        mpfr_init2(x[i], RP);
        mpfr_init2(xb[i], RP);
    }
    static const int x0[NS] = {-1, 1, -1, -1, 1, 1};
    for (int i = 0; i < NS; i++) mpfr_set_si(x[i], x0[i], MPFR_RNDN);
    int s[3] = {-1, 1, 1};
    mpfr_set_ui(t, 0, MPFR_RNDN);
    long is = 0;
    R->nev = 0;
    while (mpfr_cmp_d(t, T) < 0) {
        expand(&S, t, x, s);
        mpfr_add_d(tb, t, hs, MPFR_RNDN);
        if (mpfr_cmp_d(tb, T) > 0) mpfr_set_d(tb, T, MPFR_RNDN);
        seval(xb, &S, tb);
        /* the earliest event in (t, tb]: sign change of an event function */
        int bj = -1, be = 0;
        for (int j = 0; j < 3; j++)
            for (int e = 0; e < 3; e++) {
                if ((s[j] == 0) != (e != 0)) continue;
                evfun(y0, j, e, t, x);
                evfun(y1, j, e, tb, xb);
                /* a moving mass starts at v = 0 after sticking: its sign is
                 * that of the regime */
                int sg0 = e == 0 ? s[j] : mpfr_sgn(y0);
                if (sg0 == 0 || mpfr_sgn(y1) == sg0) continue;
                mpfr_set(lo, t, MPFR_RNDN);
                mpfr_set(hi, tb, MPFR_RNDN);
                for (int it = 0; it < RP - 10; it++) {
                    mpfr_add(mid, lo, hi, MPFR_RNDN);
                    mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
                    seval(xb, &S, mid);
                    evfun(ym, j, e, mid, xb);
                    if (mpfr_sgn(ym) == sg0) mpfr_set(lo, mid, MPFR_RNDN);
                    else mpfr_set(hi, mid, MPFR_RNDN);
                }
                if (bj < 0 || mpfr_cmp(hi, best) < 0) {
                    mpfr_set(best, hi, MPFR_RNDN);
                    bj = j;
                    be = e;
                }
            }
        if (bj >= 0) mpfr_set(tb, best, MPFR_RNDN);
        /* samples in [t, tb) */
        while (is < R->nsamp && mpfr_cmp(R->ts[is], tb) < 0) {
            seval(R->xs[is], &S, R->ts[is]);
            is++;
        }
        seval(x, &S, tb);
        mpfr_set(t, tb, MPFR_RNDN);
        if (bj < 0) continue;
        /* the new regime of mass bj from its force at the switch */
        mpfr_set_ui(x[3 + bj], 0, MPFR_RNDN);
        evfun(y0, bj, 1, t, x);
        evfun(y1, bj, 2, t, x);
        s[bj] = mpfr_sgn(y0) > 0 ? 1 : mpfr_sgn(y1) < 0 ? -1 : 0;
        (void)be;
        REQUIRE(R->nev < MAXEV, "reference: too many events");
        mpfr_set(R->tev[R->nev], t, MPFR_RNDN);
        memcpy(R->sev[R->nev], s, sizeof s);
        R->nev++;
    }
    while (is < R->nsamp) { /* t = T exactly */
        seval(R->xs[is], &S, R->ts[is]);
        is++;
    }
    mpfr_clear(S.t0);
    for (int k = 0; k <= ORD; k++)
        for (int i = 0; i < NS; i++) mpfr_clear(S.c[k][i]);
    mpfr_clears(t, tb, lo, hi, mid, y0, y1, ym, best, (mpfr_ptr)0);
    for (int i = 0; i < NS; i++) {
        mpfr_clear(x[i]);
        mpfr_clear(xb[i]);
    }
}

/* ---- the three-mass certificate against the reference ------------------ */

static void test_threemass(const char *certs)
{
    char cert[1024];
    snprintf(cert, sizeof cert, "%s/threemass/threemass.cert.json", certs);
    ref_tm R;
    R.nsamp = 2001;
    R.ts = malloc((size_t)R.nsamp * sizeof *R.ts);
    R.xs = malloc((size_t)R.nsamp * sizeof *R.xs);
    REQUIRE(R.ts && R.xs, "out of memory");
    for (long i = 0; i < R.nsamp; i++) {
        mpfr_init2(R.ts[i], RP);
        for (int k = 0; k < NS; k++) mpfr_init2(R.xs[i][k], RP);
        /* grid and off-grid times: 0.005 i, every third moved by 0.0013 */
        mpfr_set_d(R.ts[i], i == R.nsamp - 1 ? 10.0 : 0.005 * (double)i + 0.0013 * (i % 3 == 1),
                   MPFR_RNDN);
    }
    for (int i = 0; i < MAXEV; i++) mpfr_init2(R.tev[i], RP);
    ref_run(&R, 10);
    printf("reference: %d switching points on [0, 10]\n", R.nev);
    CHECK(R.nev == 22, "reference: %d switching points, Stewart reports 22", R.nev);

    dvc_hybrid_cert_t c;
    dvc_hybrid_cert_init(c);
    REQUIRE(dvc_hybrid_cert_read(c, cert) == DVC_OK, "%s", dvc_error_message());
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    CHECK(dvc_hybrid_cert_verify(c, r) == DVC_OK, "committed three-mass certificate: %s",
          dvc_error_message());
    const dvc_hybrid_model_struct *m = c->model;
    CHECK(r->certified && r->nevents == R.nev, "three-mass: %ld events certified, %d in the "
          "reference", r->nevents, R.nev);
    long nlcp = 0;
    double wmax = 0;
    for (long k = 0; k < r->nevents && k < R.nev; k++) {
        const dvc_hybrid_event *e = &r->ev[k];
        CHECK(contains(e->t, R.tev[k]), "event %ld: the reference time %.17g is outside", k + 1,
              mpfr_get_d(R.tev[k], MPFR_RNDN));
        double w = mpfr_get_d(&e->t->right, MPFR_RNDU) - mpfr_get_d(&e->t->left, MPFR_RNDD);
        if (w > wmax) wmax = w;
        const dvc_hybrid_mode *md = &m->modes[e->mode_after];
        for (int j = 0; j < 3; j++) {
            int want = R.sev[k][j] == 0 ? 2 : R.sev[k][j];
            CHECK(md->sides && md->sides[j] == want, "event %ld: mass %d active set %s, the "
                  "reference has %d", k + 1, j + 1, dvc_hybrid_mode_active(md, j), R.sev[k][j]);
        }
        if (dvc_hybrid_event_lcp_terms(m, e, NULL) > 0) nlcp++;
        if (k > 0)
            CHECK(mpfr_cmp(&r->ev[k - 1].t->right, &e->t->left) < 0, "events %ld and %ld overlap",
                  k, k + 1);
    }
    /* the tube against the reference at 2001 times */
    mpfi_t T;
    dvc_ivec_t X;
    mpfi_init2(T, 53);
    dvc_ivec_init2(X, NS, 53);
    long bad = 0;
    for (long i = 0; i < R.nsamp; i++) {
        mpfi_set_fr(T, R.ts[i]);
        if (dvc_hybrid_eval(X, m, r, T) != DVC_OK) {
            bad++;
            continue;
        }
        for (int k = 0; k < NS; k++) bad += !contains(X->e[k], R.xs[i][k]);
    }
    double wT = 0;
    for (int k = 0; k < NS; k++) {
        double w = mpfr_get_d(&r->x[r->nsteps]->e[k]->right, MPFR_RNDU) -
                   mpfr_get_d(&r->x[r->nsteps]->e[k]->left, MPFR_RNDD);
        if (w > wT) wT = w;
    }
    CHECK(bad == 0, "three-mass: %ld reference samples outside the tube", bad);
    CHECK(nlcp == 13, "three-mass: %ld events decided by the LCP (13), expected 13", nlcp);
    printf("three-mass: %ld events (%ld by the LCP), widest %.3g, tube width at T %.3g\n",
           r->nevents, nlcp, wmax, wT);
    mpfi_clear(T);
    dvc_ivec_clear(X);
    dvc_hybrid_result_clear(r);
    dvc_hybrid_cert_clear(c);
    for (long i = 0; i < R.nsamp; i++) {
        mpfr_clear(R.ts[i]);
        for (int k = 0; k < NS; k++) mpfr_clear(R.xs[i][k]);
    }
    for (int i = 0; i < MAXEV; i++) mpfr_clear(R.tev[i]);
    free(R.ts);
    free(R.xs);
}

/* ---- two contacts: the LCP (13) decides or refuses ---------------------- */

/* x' = -3 - u1 + 3 u2, y' = a2 - u1 + u2 (u = sgn of x, y) from x = 0
 * (sticking: u1 = 0, x' = 0) and y = 1: y' = a2 + 1 < 0 until y = 0 */
static void two_contact(dvc_hybrid_model_t m, const char *a2, double T)
{
    const char *names[2] = {"x", "y"};
    REQUIRE(dvc_hybrid_model_init(m, 2, names, 53) == DVC_OK, "%s", dvc_error_message());
    const char *f0[2] = {"-3", a2};
    const char *xp[2] = {"-1", "-1"}, *xm[2] = {"1", "1"}, *yp[2] = {"3", "1"},
               *ym[2] = {"-3", "-1"};
    dvc_hybrid_term t[2] = {{"cx", "x", xp, xm}, {"cy", "y", yp, ym}};
    REQUIRE(dvc_hybrid_add_decomposed(m, f0, 2, t, NULL) == DVC_OK, "%s", dvc_error_message());
    long q = dvc_hybrid_find_mode(m, "cx=0&cy>0");
    REQUIRE(q >= 0, "mode cx=0&cy>0");
    dvc_ivec_t x0;
    dvc_ivec_init2(x0, 2, 53);
    mpfi_set_ui(x0->e[0], 0);
    mpfi_set_ui(x0->e[1], 1);
    mpfr_t t0, t1;
    mpfr_inits2(53, t0, t1, (mpfr_ptr)0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    mpfr_set_d(t1, T, MPFR_RNDN);
    REQUIRE(dvc_hybrid_set_initial(m, q, x0, t0, t1) == DVC_OK, "%s", dvc_error_message());
    m->h = 0.25;
    dvc_ivec_clear(x0);
    mpfr_clears(t0, t1, (mpfr_ptr)0);
}

static void test_two_contact(void)
{
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    mpfr_t e;
    mpfr_init2(e, RP);
    /* a2 = -2: y' = -1 while x sticks, y = 0 at t = 1; there the LCP's one
     * solution is (-, -): x' = -5, y' = -2 */
    two_contact(m, "-2", 2);
    dvc_status st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK && r->nevents == 1, "two-contact, unique: %s, %ld events",
          dvc_error_message(), r->nevents);
    if (st == DVC_OK && r->nevents == 1) {
        const dvc_hybrid_mode *md = &m->modes[r->ev[0].mode_after];
        mpfr_set_ui(e, 1, MPFR_RNDN);
        CHECK(contains(r->ev[0].t, e), "two-contact: t = 1 not in the event");
        CHECK(!strcmp(dvc_hybrid_mode_active(md, 0), "-") &&
                  !strcmp(dvc_hybrid_mode_active(md, 1), "-"),
              "two-contact: active set after the event %s", md->name);
        long S0[2];
        CHECK(dvc_hybrid_event_lcp_terms(m, &r->ev[0], S0) == 2 && S0[0] == 0 && S0[1] == 1,
              "two-contact: the event is not reported as decided by the LCP");
        /* x(2) = -5, y(2) = -2 */
        mpfr_set_si(e, -5, MPFR_RNDN);
        CHECK(contains(r->x[r->nsteps]->e[0], e), "two-contact: x(2) = -5 not enclosed");
        mpfr_set_si(e, -2, MPFR_RNDN);
        CHECK(contains(r->x[r->nsteps]->e[1], e), "two-contact: y(2) = -2 not enclosed");
    }
    dvc_hybrid_model_clear(m);
    /* a2 = -1.5: y' = -0.5, y = 0 at t = 2; the LCP has three strictly
     * complementary solutions (-, -), (-, +-), (+-, +-): refused there */
    two_contact(m, "-1.5", 3);
    st = dvc_hybrid_enclose(r, m);
    const char *msg = dvc_error_message();
    CHECK(st == DVC_NOT_CERTIFIED && r->nevents == 0 &&
              strstr(msg, "3 solution(s): (cx:- cy:-), (cx:- cy:+-), (cx:+- cy:+-)") &&
              strstr(msg, "Condition C'"),
          "two-contact, three solutions: %s: %s", dvc_status_name(st), msg);
    mpfr_set_ui(e, 2, MPFR_RNDN);
    CHECK(contains(r->stop_t, e), "two-contact: t = 2 not in the reported time");
    printf("two-contact, three solutions: %s\n", msg);
    dvc_hybrid_model_clear(m);
    mpfr_clear(e);
    dvc_hybrid_result_clear(r);
}

/* The committed two-contact certificate with the LCP's event moved to
 * another active set (a candidate the LCP excluded) or the three-mass
 * certificate with an LCP event's active set changed, written with fresh
 * digests (the writer derives kind, active and lcp from the modes): only
 * the recomputation rejects. */
static void ed_two(dvc_hybrid_cert_t c)
{
    c->res->ev[0].mode_after = dvc_hybrid_find_mode(c->model, "cx<0&cy=0");
    for (long i = 0; i < c->res->nsteps; i++)
        if (mpfr_cmp(c->res->t[i], &c->res->ev[0].t->right) >= 0) c->res->mode[i] = c->res->ev[0].mode_after;
}
static void ed_three(dvc_hybrid_cert_t c)
{
    /* event 10 (m3 reaches its surface while m1 sticks): m3 sticks too */
    c->res->ev[9].mode_after = dvc_hybrid_find_mode(c->model, "m1=0&m2<0&m3=0");
}
static void tamper(const char *path, void (*edit)(dvc_hybrid_cert_t), const char *what)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "/tmp/test_multicontact_XXXXXX");
    int fd = mkstemp(tmp);
    REQUIRE(fd >= 0, "mkstemp");
    close(fd);
    dvc_hybrid_cert_t c, d;
    dvc_hybrid_cert_init(c);
    dvc_hybrid_cert_init(d);
    REQUIRE(dvc_hybrid_cert_read(c, path) == DVC_OK, "%s: %s", what, dvc_error_message());
    edit(c);
    CHECK(dvc_hybrid_cert_write(c, tmp) == DVC_OK, "%s: write: %s", what, dvc_error_message());
    dvc_status st = dvc_hybrid_cert_read(d, tmp);
    CHECK(st == DVC_OK, "%s: read back: %s", what, dvc_error_message());
    if (st == DVC_OK) st = dvc_hybrid_cert_verify(d, NULL);
    CHECK(st == DVC_NOT_CERTIFIED && !strstr(dvc_error_message(), "digest"),
          "%s: %s (%s)", what, dvc_status_name(st), dvc_error_message());
    printf("tamper %s: %s\n", what, dvc_error_message());
    dvc_hybrid_cert_clear(c);
    dvc_hybrid_cert_clear(d);
    remove(tmp);
}

static void test_tamper(const char *certs)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/two-contact/unique.cert.json", certs);
    tamper(p, ed_two, "two-contact, another candidate");
    snprintf(p, sizeof p, "%s/threemass/threemass.cert.json", certs);
    tamper(p, ed_three, "three-mass, LCP event's active set");
}

/* ---- several terms sliding at once --------------------------------------- */

/* x' = a - sgn x, y' = b - sgn y (decoupled) from x = y = 0 in mode
 * cx=0&cy=0 */
static void both_sliding(dvc_hybrid_model_t m, const char *a, const char *b, double T)
{
    const char *names[2] = {"x", "y"}, *f0[2] = {a, b};
    const char *xp[2] = {"-1", "0"}, *xm[2] = {"1", "0"}, *yp[2] = {"0", "-1"}, *ym[2] = {"0", "1"};
    dvc_hybrid_term t[2] = {{"cx", "x", xp, xm}, {"cy", "y", yp, ym}};
    REQUIRE(dvc_hybrid_model_init(m, 2, names, 53) == DVC_OK, "%s", dvc_error_message());
    REQUIRE(dvc_hybrid_add_decomposed(m, f0, 2, t, NULL) == DVC_OK, "%s", dvc_error_message());
    dvc_ivec_t x0;
    dvc_ivec_init2(x0, 2, 53);
    mpfr_t t0, t1;
    mpfr_inits2(53, t0, t1, (mpfr_ptr)0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    mpfr_set_d(t1, T, MPFR_RNDN);
    long q = dvc_hybrid_find_mode(m, "cx=0&cy=0");
    REQUIRE(q >= 0, "mode cx=0&cy=0 not generated");
    REQUIRE(dvc_hybrid_set_initial(m, q, x0, t0, t1) == DVC_OK, "%s", dvc_error_message());
    dvc_ivec_clear(x0);
    mpfr_clears(t0, t1, (mpfr_ptr)0);
}

static void test_both_sliding(void)
{
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    mpfr_t e;
    mpfr_init2(e, RP);
    /* 2 sin t - sgn x, 1/2 - sgn y: the weight of f+ of x is
     * (1 + 2 sin t) / 2, it reaches 1 at t1 = pi / 6 (an enclosed event);
     * x leaves to h > 0 (h'' = 2 cos t > 0) while y sticks:
     * x = 2 (cos t1 - cos t) - (t - t1) until it is 0 again at t2 (bisected
     * at 256 bits), where it crosses (|2 sin t2| > 1, decided by the LCP
     * (13) with y sticking) */
    both_sliding(m, "2*sin(t)", "0.5", 5);
    dvc_status st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK && r->nevents == 2, "both sliding, a weight reaches 1: %s: %s, %ld events",
          dvc_status_name(st), dvc_error_message(), r->nevents);
    mpfr_t t1, lo, hi, mid, v, w;
    mpfr_inits2(RP, t1, lo, hi, mid, v, w, (mpfr_ptr)0);
    mpfr_const_pi(t1, MPFR_RNDN);
    mpfr_div_ui(t1, t1, 6, MPFR_RNDN);
    /* x(t) on the slip: v = 2 (cos t1 - cos t) - (t - t1) */
#define XSLIP(t)                                                                                   \
    do {                                                                                           \
        mpfr_cos(v, t1, MPFR_RNDN);                                                                \
        mpfr_cos(w, t, MPFR_RNDN);                                                                 \
        mpfr_sub(v, v, w, MPFR_RNDN);                                                              \
        mpfr_mul_ui(v, v, 2, MPFR_RNDN);                                                           \
        mpfr_sub(w, t, t1, MPFR_RNDN);                                                             \
        mpfr_sub(v, v, w, MPFR_RNDN);                                                              \
    } while (0)
    mpfr_set_ui(lo, 3, MPFR_RNDN);
    mpfr_set_ui(hi, 4, MPFR_RNDN);
    for (int it = 0; it < RP; it++) {
        mpfr_add(mid, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
        XSLIP(mid);
        if (mpfr_sgn(v) > 0) mpfr_set(lo, mid, MPFR_RNDN);
        else mpfr_set(hi, mid, MPFR_RNDN);
    }
    if (st == DVC_OK && r->nevents == 2) {
        const dvc_hybrid_event *e0 = &r->ev[0], *e1 = &r->ev[1];
        CHECK(contains(e0->t, t1) &&
                  mpfr_get_d(&e0->t->right, MPFR_RNDU) - mpfr_get_d(&e0->t->left, MPFR_RNDD) < 1e-12 &&
                  dvc_hybrid_event_kind_of(m, e0) == DVC_HYB_EV_LEAVE_SLIDE &&
                  !strcmp(m->modes[e0->mode_after].name, "cx>0&cy=0"),
              "both sliding: first event (pi/6, x leaves to h > 0): %s",
              m->modes[e0->mode_after].name);
        CHECK(contains(e1->t, lo) && !strcmp(m->modes[e1->mode_after].name, "cx<0&cy=0") &&
                  dvc_hybrid_event_lcp_terms(m, e1, NULL) == 2,
              "both sliding: second event (x crosses at %.17g): %s", mpfr_get_d(lo, MPFR_RNDN),
              m->modes[e1->mode_after].name);
        /* at t = 3 (on the slip): x closed form, y = 0 */
        mpfi_t T;
        dvc_ivec_t X;
        mpfi_init2(T, 53);
        dvc_ivec_init2(X, 2, 53);
        mpfi_set_ui(T, 3);
        mpfr_set_ui(mid, 3, MPFR_RNDN);
        XSLIP(mid);
        mpfr_set_ui(w, 0, MPFR_RNDN);
        CHECK(dvc_hybrid_eval(X, m, r, T) == DVC_OK && contains(X->e[0], v) &&
                  contains(X->e[1], w),
              "both sliding: (x, y)(3) not enclosed");
        mpfi_clear(T);
        dvc_ivec_clear(X);
    }
#undef XSLIP
    mpfr_clears(t1, lo, hi, mid, v, w, (mpfr_ptr)0);
    dvc_hybrid_model_clear(m);
    /* sin t / 2 - sgn x, 0.5 - sgn y: both weights stay inside (0, 1) */
    both_sliding(m, "sin(t)/2", "0.5", 2);
    st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK && r->nevents == 0, "both sliding to T: %s", dvc_error_message());
    dvc_hybrid_model_clear(m);
    /* 2 - sgn x at the start: the weight of f+ would be 3/2: refused */
    both_sliding(m, "2", "0", 1);
    st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "not proven strictly inside "
                                                                 "(0, 1) at the initial state"),
          "both sliding, weight outside: %s: %s", dvc_status_name(st), dvc_error_message());
    dvc_hybrid_model_clear(m);
    mpfr_clear(e);
    dvc_hybrid_result_clear(r);
}

int main(int argc, char **argv)
{
    REQUIRE(argc > 1, "usage: test_multicontact CERTS_DIR");
    mpfr_inits2(RP, PI, MU, (mpfr_ptr)0);
    mpfr_const_pi(PI, MPFR_RNDN);
    mpfr_set_ui(MU, 3, MPFR_RNDN);
    mpfr_div_ui(MU, MU, 10, MPFR_RNDN);
    test_two_contact();
    test_both_sliding();
    test_tamper(argv[1]);
    test_threemass(argv[1]);
    mpfr_clears(PI, MU, (mpfr_ptr)0);
    mpfr_free_cache();
    return check_report();
}
