/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Filippov sliding in the hybrid engine (docs/sliding.md): the decomposed
 * form in a model, the choice slide / cross at a surface, refusals, and
 * GESDA's stick-slip example (certs/stickslip/) against an independent
 * event-driven reference: closed-form pieces between the switches evaluated
 * in MPFR at 256 bits, the switch times found by bisection at 256 bits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "dvicert/hybrid.h"
#include "dvicert/hybrid_cert.h"
#include "check.h"
#include "expr/internal.h"

#define RP 256

static double width(const mpfi_t x)
{
    return mpfr_get_d(&x->right, MPFR_RNDU) - mpfr_get_d(&x->left, MPFR_RNDD);
}

/* y (256 bits) inside the interval x */
static int contains(const mpfi_t x, const mpfr_t y)
{
    return mpfr_cmp(&x->left, y) <= 0 && mpfr_cmp(y, &x->right) <= 0;
}

/* ---- one state: x' = a + f(x), f = -1 for x > 0, +1 for x < 0 ---------- */

static dvc_status one_d(dvc_hybrid_model_t m, const char *a, const char *mode0, double x0,
                        double T)
{
    const char *names[1] = {"x"}, *f0[1] = {a}, *fp[1] = {"-1"}, *fm[1] = {"1"};
    dvc_hybrid_model_init(m, 1, names, 53);
    dvc_hybrid_term term = {"c", "x", fp, fm};
    dvc_status st = dvc_hybrid_add_decomposed(m, f0, 1, &term, NULL);
    if (st != DVC_OK) return st;
    dvc_ivec_t X;
    mpfr_t t0, t1;
    dvc_ivec_init2(X, 1, 53);
    mpfr_inits2(53, t0, t1, (mpfr_ptr)0);
    mpfi_set_d(X->e[0], x0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    mpfr_set_d(t1, T, MPFR_RNDN);
    st = dvc_hybrid_set_initial(m, dvc_hybrid_find_mode(m, mode0), X, t0, t1);
    dvc_ivec_clear(X);
    mpfr_clears(t0, t1, (mpfr_ptr)0);
    return st;
}

static void test_one_d(void)
{
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    mpfr_t e;
    mpfr_init2(e, RP);
    /* the system test_hybrid refuses as a plain switched model: x' = -sgn x
     * from x = 1 reaches 0 at t = 1 and slides (alpha = 1/2, x = 0 after) */
    REQUIRE(one_d(m, "0", "c>0", 1, 3) == DVC_OK, "1-d model: %s", dvc_error_message());
    dvc_status st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK && r->certified, "x' = -sgn x: %s", dvc_error_message());
    CHECK(r->nevents == 1, "x' = -sgn x: %ld events", r->nevents);
    if (r->nevents == 1) {
        mpfr_set_ui(e, 1, MPFR_RNDN);
        CHECK(contains(r->ev[0].t, e) && width(r->ev[0].t) < 1e-13, "enter time 1 not enclosed");
        CHECK(dvc_hybrid_event_kind_of(m, &r->ev[0]) == DVC_HYB_EV_ENTER_SLIDE &&
                  !strcmp(m->modes[r->ev[0].mode_after].name, "c=0"),
              "x' = -sgn x: event kind %s",
              dvc_hybrid_event_kind_name(dvc_hybrid_event_kind_of(m, &r->ev[0])));
        mpfr_set_ui(e, 0, MPFR_RNDN);
        CHECK(contains(r->x[r->nsteps]->e[0], e) && width(r->x[r->nsteps]->e[0]) < 1e-12,
              "x(3) = 0 not enclosed tightly (width %g)", width(r->x[r->nsteps]->e[0]));
    }
    dvc_hybrid_model_clear(m);
    /* x' = 2 - sgn x from x = -1: the + side pushes away from the surface
     * too, so the surface is crossed (t = 1/3), not slid on */
    REQUIRE(one_d(m, "2", "c<0", -1, 1) == DVC_OK, "1-d model: %s", dvc_error_message());
    st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK && r->nevents == 1, "x' = 2 - sgn x: %s, %ld events", dvc_error_message(),
          r->nevents);
    if (r->nevents == 1) {
        mpfr_set_ui(e, 1, MPFR_RNDN);
        mpfr_div_ui(e, e, 3, MPFR_RNDN);
        CHECK(contains(r->ev[0].t, e), "crossing time 1/3 not enclosed");
        CHECK(dvc_hybrid_event_kind_of(m, &r->ev[0]) == DVC_HYB_EV_CROSS &&
                  !strcmp(m->modes[r->ev[0].mode_after].name, "c>0"),
              "x' = 2 - sgn x: crossed into %s", m->modes[r->ev[0].mode_after].name);
    }
    dvc_hybrid_model_clear(m);
    /* x' = 1 - sgn x: on the + side the field is 0 on the surface: neither
     * sliding nor crossing can be proven; refused, not guessed */
    REQUIRE(one_d(m, "1", "c<0", -1, 1) == DVC_OK, "1-d model: %s", dvc_error_message());
    st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_NOT_CERTIFIED && r->nevents == 0 && !r->certified, "x' = 1 - sgn x: %s",
          dvc_status_name(st));
    CHECK(strstr(dvc_error_message(), "neither sliding nor crossing") != NULL, "message: %s",
          dvc_error_message());
    printf("degenerate contact: %s\n", dvc_error_message());
    dvc_hybrid_model_clear(m);
    /* starting in the sliding mode off the surface: refused */
    REQUIRE(one_d(m, "0", "c=0", 1e-3, 1) == DVC_OK, "1-d model: %s", dvc_error_message());
    st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "not proven to lie on"),
          "sliding start off the surface: %s: %s", dvc_status_name(st), dvc_error_message());
    dvc_hybrid_model_clear(m);
    /* on the surface, sliding, but started in a side's mode: told so */
    REQUIRE(one_d(m, "0.5", "c>0", 0, 1) == DVC_OK, "1-d model: %s", dvc_error_message());
    st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "give the initial mode 'c=0'"),
          "side mode on a sliding surface: %s: %s", dvc_status_name(st), dvc_error_message());
    dvc_hybrid_model_clear(m);
    /* ... or on it with a field that leaves it (x' = 1.5 - sgn x at x = 0) */
    REQUIRE(one_d(m, "1.5", "c=0", 0, 1) == DVC_OK, "1-d model: %s", dvc_error_message());
    st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "Filippov"),
          "sliding start, no sliding condition: %s: %s", dvc_status_name(st), dvc_error_message());
    dvc_hybrid_model_clear(m);
    mpfr_clear(e);
    dvc_hybrid_result_clear(r);
}

/* ---- model errors ---------------------------------------------------------- */

static dvc_status add1(dvc_hybrid_model_t m, const char *h, const char *const *f0,
                       const char *const *fp, const char *const *fm)
{
    dvc_hybrid_term term = {"c", h, fp, fm};
    return dvc_hybrid_add_decomposed(m, f0, 1, &term, NULL);
}

static void test_refusals(void)
{
    const char *names[2] = {"x", "y"}, *f0[2] = {"y", "0"}, *fp[2] = {"0", "-1"},
               *fm[2] = {"0", "1"};
    dvc_hybrid_model_t m;
    dvc_hybrid_model_init(m, 2, names, 53);
    dvc_status st = add1(m, "x*y", f0, fp, fm);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "affine"), "h = x*y: %s",
          dvc_error_message());
    dvc_hybrid_model_clear(m);
    dvc_hybrid_model_init(m, 2, names, 53);
    st = add1(m, "y + t", f0, fp, fm);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "free of t"), "h = y + t: %s",
          dvc_error_message());
    dvc_hybrid_model_clear(m);
    dvc_hybrid_model_init(m, 2, names, 53);
    st = add1(m, "2", f0, fp, fm);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "does not depend"), "h = 2: %s",
          dvc_error_message());
    dvc_hybrid_model_clear(m);
    dvc_hybrid_model_init(m, 2, names, 53);
    st = add1(m, "2*(y - x/4) + 1", f0, fp, fm);
    CHECK(st == DVC_OK, "h affine: %s", dvc_error_message());
    CHECK(m->nmodes == 3 && m->ng == 3 && m->ntrans == 4 && m->ncontacts == 1,
          "one term: %ld modes, %ld switches, %ld transitions", m->nmodes, m->ng, m->ntrans);
    st = add1(m, "x", f0, fp, fm);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "only content"),
          "a second decomposed form: %s", dvc_error_message());
    dvc_hybrid_model_clear(m);
}

/* ---- two contacts ---------------------------------------------------------- */

/* x' = a - sgn x, y' = b - sgn y (Stewart's introduction: two terms) */
static void two_d(dvc_hybrid_model_t m, const char *a, const char *b, const char *mode0, double x0,
                  double y0, double T)
{
    const char *names[2] = {"x", "y"}, *f0[2] = {a, b};
    const char *fxp[2] = {"-1", "0"}, *fxm[2] = {"1", "0"}, *fyp[2] = {"0", "-1"},
               *fym[2] = {"0", "1"};
    dvc_hybrid_term terms[2] = {{"cx", "x", fxp, fxm}, {"cy", "y", fyp, fym}};
    dvc_hybrid_model_init(m, 2, names, 53);
    dvc_status st = dvc_hybrid_add_decomposed(m, f0, 2, terms, NULL);
    REQUIRE(st == DVC_OK, "two terms: %s", dvc_error_message());
    dvc_ivec_t X;
    mpfr_t t0, t1;
    dvc_ivec_init2(X, 2, 53);
    mpfr_inits2(53, t0, t1, (mpfr_ptr)0);
    mpfi_set_d(X->e[0], x0);
    mpfi_set_d(X->e[1], y0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    mpfr_set_d(t1, T, MPFR_RNDN);
    st = dvc_hybrid_set_initial(m, dvc_hybrid_find_mode(m, mode0), X, t0, T > 0 ? t1 : t1);
    REQUIRE(st == DVC_OK, "two terms: %s", dvc_error_message());
    dvc_ivec_clear(X);
    mpfr_clears(t0, t1, (mpfr_ptr)0);
}

static void test_two_contacts(void)
{
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    mpfr_t e;
    mpfr_init2(e, RP);
    /* x' = -sgn x from 1, y' = 2 - sgn y from -1: y crosses at 1/3 (the
     * other side pushes on), x sticks at 1; y goes on alone */
    /* 4 side modes, 2 x 2 sliding on one term, 1 sliding on both */
    two_d(m, "0", "2", "cx>0&cy<0", 1, -1, 3);
    CHECK(m->nmodes == 9 && m->ncontacts == 2, "two terms: %ld modes", m->nmodes);
    dvc_status st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK && r->nevents == 2, "two terms: %s, %ld events", dvc_error_message(),
          r->nevents);
    if (st == DVC_OK && r->nevents == 2) {
        mpfr_set_ui(e, 1, MPFR_RNDN);
        mpfr_div_ui(e, e, 3, MPFR_RNDN);
        CHECK(contains(r->ev[0].t, e) && dvc_hybrid_event_kind_of(m, &r->ev[0]) == DVC_HYB_EV_CROSS &&
                  !strcmp(m->modes[r->ev[0].mode_after].name, "cx>0&cy>0"),
              "two terms: first event %s", m->modes[r->ev[0].mode_after].name);
        mpfr_set_ui(e, 1, MPFR_RNDN);
        CHECK(contains(r->ev[1].t, e) &&
                  dvc_hybrid_event_kind_of(m, &r->ev[1]) == DVC_HYB_EV_ENTER_SLIDE &&
                  !strcmp(m->modes[r->ev[1].mode_after].name, "cx=0&cy>0") &&
                  !strcmp(dvc_hybrid_mode_active(&m->modes[r->ev[1].mode_after], 0), "+-") &&
                  !strcmp(dvc_hybrid_mode_active(&m->modes[r->ev[1].mode_after], 1), "+"),
              "two terms: second event %s", m->modes[r->ev[1].mode_after].name);
        /* x(3) = 0, y(3) = 3 - 1/3 = 8/3 */
        mpfr_set_ui(e, 0, MPFR_RNDN);
        CHECK(contains(r->x[r->nsteps]->e[0], e), "two terms: x(3) = 0 not enclosed");
        mpfr_set_ui(e, 8, MPFR_RNDN);
        mpfr_div_ui(e, e, 3, MPFR_RNDN);
        CHECK(contains(r->x[r->nsteps]->e[1], e), "two terms: y(3) = 8/3 not enclosed");
    }
    dvc_hybrid_model_clear(m);
    /* x' = -sgn x, y' = -sgn y from (1, 2): x sticks at 1, then y reaches
     * its surface at 2 while x sticks: Stewart's LCP (13) gives both
     * sticking (unique, strictly complementary): the mode sliding on both
     * surfaces (weights 1/2, 1/2) to T = 3 */
    two_d(m, "0", "0", "cx>0&cy>0", 1, 2, 3);
    st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK && r->nevents == 2, "two surfaces at once: %s: %s, %ld events",
          dvc_status_name(st), dvc_error_message(), r->nevents);
    if (st == DVC_OK && r->nevents == 2) {
        mpfr_set_ui(e, 2, MPFR_RNDN);
        CHECK(contains(r->ev[1].t, e) &&
                  !strcmp(m->modes[r->ev[1].mode_after].name, "cx=0&cy=0") &&
                  dvc_hybrid_event_kind_of(m, &r->ev[1]) == DVC_HYB_EV_ENTER_SLIDE &&
                  dvc_hybrid_event_lcp_terms(m, &r->ev[1], NULL) == 2,
              "two surfaces at once: second event %s", m->modes[r->ev[1].mode_after].name);
        mpfr_set_ui(e, 0, MPFR_RNDN);
        CHECK(contains(r->x[r->nsteps]->e[0], e) && contains(r->x[r->nsteps]->e[1], e),
              "two surfaces at once: (x, y)(3) = 0 not enclosed");
    }
    dvc_hybrid_model_clear(m);
    mpfr_clear(e);
    dvc_hybrid_result_clear(r);
}

/* ---- GESDA Appendix A: independent reference ---------------------------- */

/* State (p1, p2, v1, v2) at time t of the piece that starts at ta in state
 * xa, in phase ph (0: stick, +1: v1 > v2, -1: v1 < v2); closed forms with
 * m1 = m2 = 1, f1 = sin t, f2 = 0, mu FN = ref_mu. */
static const char *ref_mu = "0.4";
static void piece(mpfr_t *x, const mpfr_t *xa, const mpfr_t ta, int ph, const mpfr_t t)
{
    mpfr_t s, c0, u, w;
    mpfr_inits2(RP, s, c0, u, w, (mpfr_ptr)0);
    mpfr_sub(s, t, ta, MPFR_RNDN);
    mpfr_cos(c0, ta, MPFR_RNDN);
    /* u = cos ta - cos t, w = cos ta s - (sin t - sin ta) */
    mpfr_cos(u, t, MPFR_RNDN);
    mpfr_sub(u, c0, u, MPFR_RNDN);
    mpfr_sin(w, t, MPFR_RNDN);
    mpfr_t sa;
    mpfr_init2(sa, RP);
    mpfr_sin(sa, ta, MPFR_RNDN);
    mpfr_sub(w, w, sa, MPFR_RNDN);
    mpfr_mul(sa, c0, s, MPFR_RNDN);
    mpfr_sub(w, sa, w, MPFR_RNDN);
    mpfr_t va, mu, q;
    mpfr_inits2(RP, va, mu, q, (mpfr_ptr)0);
    mpfr_set(va, xa[2], MPFR_RNDN); /* v1 = v2 at the start of every piece */
    mpfr_set_str(mu, ref_mu, 10, MPFR_RNDN);
    if (ph == 0) {
        /* v = va + u/2, p_i = p_i(ta) + va s + w/2 */
        mpfr_div_ui(q, u, 2, MPFR_RNDN);
        mpfr_add(x[2], va, q, MPFR_RNDN);
        mpfr_set(x[3], x[2], MPFR_RNDN);
        mpfr_mul(q, va, s, MPFR_RNDN);
        mpfr_div_ui(sa, w, 2, MPFR_RNDN);
        mpfr_add(q, q, sa, MPFR_RNDN);
        mpfr_add(x[0], xa[0], q, MPFR_RNDN);
        mpfr_add(x[1], xa[1], q, MPFR_RNDN);
    } else {
        /* v1 = va + u - ph mu s, v2 = va + ph mu s,
         * p1 = p1a + va s + w - ph mu s^2/2, p2 = p2a + va s + ph mu s^2/2 */
        mpfr_mul(q, mu, s, MPFR_RNDN);
        if (ph < 0) mpfr_neg(q, q, MPFR_RNDN);
        mpfr_add(x[2], va, u, MPFR_RNDN);
        mpfr_sub(x[2], x[2], q, MPFR_RNDN);
        mpfr_add(x[3], va, q, MPFR_RNDN);
        mpfr_mul(q, q, s, MPFR_RNDN);
        mpfr_div_ui(q, q, 2, MPFR_RNDN); /* ph mu s^2 / 2 */
        mpfr_mul(sa, va, s, MPFR_RNDN);
        mpfr_add(x[0], xa[0], sa, MPFR_RNDN);
        mpfr_add(x[0], x[0], w, MPFR_RNDN);
        mpfr_sub(x[0], x[0], q, MPFR_RNDN);
        mpfr_add(x[1], xa[1], sa, MPFR_RNDN);
        mpfr_add(x[1], x[1], q, MPFR_RNDN);
    }
    mpfr_clears(s, c0, u, w, sa, va, mu, q, (mpfr_ptr)0);
}

/* The function whose zero ends a piece: stick: sin t - 2 mu (leave to +)
 * times sin t + 2 mu (leave to -); slip: v1 - v2. */
static void end_fn(mpfr_t y, const mpfr_t *xa, const mpfr_t ta, int ph, const mpfr_t t)
{
    if (ph == 0) {
        mpfr_t a, b;
        mpfr_inits2(RP, a, b, (mpfr_ptr)0);
        mpfr_sin(a, t, MPFR_RNDN);
        mpfr_set_str(b, ref_mu, 10, MPFR_RNDN);
        mpfr_mul_2ui(b, b, 1, MPFR_RNDN);
        mpfr_add(y, a, b, MPFR_RNDN);
        mpfr_sub(a, a, b, MPFR_RNDN);
        mpfr_mul(y, y, a, MPFR_RNDN);
        mpfr_clears(a, b, (mpfr_ptr)0);
        return;
    }
    mpfr_t x[4];
    for (int i = 0; i < 4; i++) mpfr_init2(x[i], RP);
    piece(x, xa, ta, ph, t);
    mpfr_sub(y, x[2], x[3], MPFR_RNDN);
    for (int i = 0; i < 4; i++) mpfr_clear(x[i]);
}

#define NPIECE 16
typedef struct {
    int npiece;
    mpfr_t ta[NPIECE];       /* start of piece k */
    mpfr_t xa[NPIECE][4];    /* state there */
    int ph[NPIECE];
} ref_ss;

/* Event-driven reference on [0, T]: scan each piece in steps of 1e-3 for a
 * sign change of its end function (after a tiny offset: the end function
 * of a slip piece vanishes at its start), bisect to 256 bits. */
static void ref_build(ref_ss *R, double T)
{
    mpfr_t t, tl, th, tm, y0, y1, ym, Tm;
    mpfr_inits2(RP, t, tl, th, tm, y0, y1, ym, Tm, (mpfr_ptr)0);
    mpfr_set_d(Tm, T, MPFR_RNDN);
    for (int k = 0; k < NPIECE; k++) {
        mpfr_init2(R->ta[k], RP);
        for (int i = 0; i < 4; i++) mpfr_init2(R->xa[k][i], RP);
    }
    mpfr_set_ui(R->ta[0], 0, MPFR_RNDN);
    mpfr_set_ui(R->xa[0][0], 1, MPFR_RNDN);
    mpfr_set_ui(R->xa[0][1], 1, MPFR_RNDN);
    mpfr_set_ui(R->xa[0][2], 0, MPFR_RNDN);
    mpfr_set_ui(R->xa[0][3], 0, MPFR_RNDN);
    R->ph[0] = 0; /* v1 = v2 and |sin 0| < 0.8: stuck */
    R->npiece = 1;
    for (int k = 0; k + 1 < NPIECE; k++) {
        const mpfr_t *xa = (const mpfr_t *)R->xa[k];
        mpfr_add_d(tl, R->ta[k], 1e-6, MPFR_RNDN);
        end_fn(y0, xa, R->ta[k], R->ph[k], tl);
        int found = 0;
        while (mpfr_cmp(tl, Tm) < 0) {
            mpfr_add_d(th, tl, 1e-3, MPFR_RNDN);
            end_fn(y1, xa, R->ta[k], R->ph[k], th);
            if (mpfr_sgn(y0) * mpfr_sgn(y1) < 0) {
                found = 1;
                break;
            }
            mpfr_set(tl, th, MPFR_RNDN);
            mpfr_set(y0, y1, MPFR_RNDN);
        }
        if (!found || mpfr_cmp(th, Tm) > 0) break;
        for (int it = 0; it < RP + 8; it++) {
            mpfr_add(tm, tl, th, MPFR_RNDN);
            mpfr_div_2ui(tm, tm, 1, MPFR_RNDN);
            end_fn(ym, xa, R->ta[k], R->ph[k], tm);
            if (mpfr_sgn(ym) * mpfr_sgn(y0) > 0) {
                mpfr_set(tl, tm, MPFR_RNDN);
                mpfr_set(y0, ym, MPFR_RNDN);
            } else {
                mpfr_set(th, tm, MPFR_RNDN);
            }
        }
        mpfr_set(R->ta[k + 1], tl, MPFR_RNDN);
        piece(R->xa[k + 1], xa, R->ta[k], R->ph[k], tl);
        /* the velocities agree at every switch (continuity, and v1 = v2 on
         * leaving the surface); set both to their mean to start the piece */
        mpfr_add(ym, R->xa[k + 1][2], R->xa[k + 1][3], MPFR_RNDN);
        mpfr_div_2ui(ym, ym, 1, MPFR_RNDN);
        mpfr_set(R->xa[k + 1][2], ym, MPFR_RNDN);
        mpfr_set(R->xa[k + 1][3], ym, MPFR_RNDN);
        if (R->ph[k] == 0) {
            mpfr_sin(ym, tl, MPFR_RNDN);
            R->ph[k + 1] = mpfr_sgn(ym) > 0 ? 1 : -1;
        } else {
            /* the surface reached from a slip: sticks where the Filippov
             * condition |sin t| < 2 mu holds, else slips the other way */
            mpfr_t b;
            mpfr_init2(b, RP);
            mpfr_set_str(b, ref_mu, 10, MPFR_RNDN);
            mpfr_mul_2ui(b, b, 1, MPFR_RNDN);
            mpfr_sin(ym, tl, MPFR_RNDN);
            mpfr_abs(ym, ym, MPFR_RNDN);
            R->ph[k + 1] = mpfr_cmp(ym, b) < 0 ? 0 : -R->ph[k];
            mpfr_clear(b);
        }
        R->npiece = k + 2;
    }
    mpfr_clears(t, tl, th, tm, y0, y1, ym, Tm, (mpfr_ptr)0);
}

static void ref_clear(ref_ss *R)
{
    for (int k = 0; k < NPIECE; k++) {
        mpfr_clear(R->ta[k]);
        for (int i = 0; i < 4; i++) mpfr_clear(R->xa[k][i]);
    }
}

static void ref_eval(mpfr_t *x, const ref_ss *R, const mpfr_t t)
{
    int k = 0;
    while (k + 1 < R->npiece && mpfr_cmp(R->ta[k + 1], t) <= 0) k++;
    piece(x, (const mpfr_t *)R->xa[k], R->ta[k], R->ph[k], t);
}

static void tube_vs_ref(const dvc_hybrid_model_t m, const dvc_hybrid_result_t r, const ref_ss *R,
                        const char *what, double wmax);

static void test_stickslip_result(const dvc_hybrid_model_t m, const dvc_hybrid_result_t r,
                                  const ref_ss *R, const char *what)
{
    CHECK(r->certified, "%s: not certified", what);
    /* six switches on [0, 10]: leave at arcsin 0.8, enter, leave at
     * pi + arcsin 0.8, enter, leave at 2 pi + arcsin 0.8, enter */
    CHECK(r->nevents == R->npiece - 1 && r->nevents == 6, "%s: %ld events, reference %d", what,
          r->nevents, R->npiece - 1);
    static const dvc_hybrid_event_kind kinds[6] = {
        DVC_HYB_EV_LEAVE_SLIDE, DVC_HYB_EV_ENTER_SLIDE, DVC_HYB_EV_LEAVE_SLIDE,
        DVC_HYB_EV_ENTER_SLIDE, DVC_HYB_EV_LEAVE_SLIDE, DVC_HYB_EV_ENTER_SLIDE};
    double wmax = 0;
    for (long k = 0; k < r->nevents && k < 6 && k + 1 < R->npiece; k++) {
        const dvc_hybrid_event *e = &r->ev[k];
        CHECK(dvc_hybrid_event_kind_of(m, e) == kinds[k], "%s: event %ld is %s", what, k + 1,
              dvc_hybrid_event_kind_name(dvc_hybrid_event_kind_of(m, e)));
        CHECK(contains(e->t, R->ta[k + 1]), "%s: event %ld misses the reference time %.17g", what,
              k + 1, mpfr_get_d(R->ta[k + 1], MPFR_RNDN));
        CHECK(width(e->t) < 1e-10, "%s: event %ld width %g", what, k + 1, width(e->t));
        if (width(e->t) > wmax) wmax = width(e->t);
        if (k > 0)
            CHECK(mpfr_cmp(&r->ev[k - 1].t->right, &e->t->left) < 0, "%s: events %ld, %ld overlap",
                  what, k, k + 1);
        /* the active set after a leave: + for sin t = 0.8, - for -0.8 */
        if (kinds[k] == DVC_HYB_EV_LEAVE_SLIDE) {
            mpfr_t s;
            mpfr_init2(s, RP);
            mpfr_sin(s, R->ta[k + 1], MPFR_RNDN);
            CHECK(!strcmp(dvc_hybrid_mode_active(&m->modes[e->mode_after], 0),
                          mpfr_sgn(s) > 0 ? "+" : "-"),
                  "%s: event %ld leaves to %s", what, k + 1, m->modes[e->mode_after].name);
            mpfr_clear(s);
        }
    }
    /* the first stick-to-slip time is arcsin(0.8), enclosed from 0.8's
     * enclosure (asin is increasing) */
    if (r->nevents > 0) {
        mpfr_t lo, hi;
        mpfr_inits2(RP, lo, hi, (mpfr_ptr)0);
        mpfr_set_str(lo, "0.8", 10, MPFR_RNDD);
        mpfr_set_str(hi, "0.8", 10, MPFR_RNDU);
        mpfr_asin(lo, lo, MPFR_RNDD);
        mpfr_asin(hi, hi, MPFR_RNDU);
        CHECK(mpfr_cmp(&r->ev[0].t->left, lo) <= 0 && mpfr_cmp(hi, &r->ev[0].t->right) <= 0,
              "%s: the first switch does not contain arcsin(0.8)", what);
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    tube_vs_ref(m, r, R, what, wmax);
}

/* The tube contains the reference at 1001 times (grid and between). */
static void tube_vs_ref(const dvc_hybrid_model_t m, const dvc_hybrid_result_t r, const ref_ss *R,
                        const char *what, double wmax)
{
    mpfr_t x[4], tt;
    mpfi_t T;
    dvc_ivec_t X;
    for (int i = 0; i < 4; i++) mpfr_init2(x[i], RP);
    mpfr_init2(tt, RP);
    mpfi_init2(T, 53);
    dvc_ivec_init2(X, 4, 53);
    long bad = 0;
    double wT = 0;
    for (int j = 0; j <= 1000; j++) {
        double tj = j == 1000 ? 10.0 : 0.01 * j + 0.0037 * (j % 3 == 1);
        mpfi_set_d(T, tj);
        mpfr_set_d(tt, tj, MPFR_RNDN);
        ref_eval(x, R, tt);
        if (dvc_hybrid_eval(X, m, r, T) != DVC_OK) {
            bad++;
            continue;
        }
        for (int i = 0; i < 4; i++) bad += !contains(X->e[i], x[i]);
    }
    for (int i = 0; i < 4; i++)
        if (width(r->x[r->nsteps]->e[i]) > wT) wT = width(r->x[r->nsteps]->e[i]);
    CHECK(bad == 0, "%s: %ld reference samples outside the tube", what, bad);
    printf("%s: %ld events, widest %.3g, tube width at T %.3g\n", what, r->nevents, wmax, wT);
    for (int i = 0; i < 4; i++) mpfr_clear(x[i]);
    mpfr_clear(tt);
    mpfi_clear(T);
    dvc_ivec_clear(X);
}

/* The stick-slip model with friction mu (m1 = m2 = FN = 1, h = 0.25). */
static void build_ss(dvc_hybrid_model_t m, const char *mu)
{
    const char *names[4] = {"p1", "p2", "v1", "v2"};
    const char *f0[4] = {"v1", "v2", "sin(t)", "0"};
    char mp[32], mm[32];
    snprintf(mp, sizeof mp, "-%s", mu);
    snprintf(mm, sizeof mm, "%s", mu);
    const char *fp[4] = {"0", "0", mp, mm}, *fm[4] = {"0", "0", mm, mp};
    const double x0[4] = {1, 1, 0, 0};
    dvc_hybrid_model_init(m, 4, names, 53);
    m->h = 0.25;
    dvc_hybrid_term term = {"friction", "v1 - v2", fp, fm};
    REQUIRE(dvc_hybrid_add_decomposed(m, f0, 1, &term, NULL) == DVC_OK, "%s", dvc_error_message());
    dvc_ivec_t x;
    mpfr_t t0, T;
    dvc_ivec_init2(x, 4, 53);
    dvc_ivec_set_d(x, x0);
    mpfr_inits2(53, t0, T, (mpfr_ptr)0);
    mpfr_set_ui(t0, 0, MPFR_RNDN);
    mpfr_set_ui(T, 10, MPFR_RNDN);
    REQUIRE(dvc_hybrid_set_initial(m, dvc_hybrid_find_mode(m, "friction=0"), x, t0, T) == DVC_OK,
            "%s", dvc_error_message());
    mpfr_clears(t0, T, (mpfr_ptr)0);
    dvc_ivec_clear(x);
}

/* Weaker friction: slips that end where |sin t| > 2 mu cross the surface
 * (kind cross) instead of sticking; events and tube against the reference. */
static void test_stickslip_mu(const char *mu)
{
    char what[64];
    snprintf(what, sizeof what, "stick-slip, mu = %s", mu);
    ref_mu = mu;
    ref_ss R;
    ref_build(&R, 10);
    dvc_hybrid_model_t m;
    build_ss(m, mu);
    dvc_hybrid_result_t r;
    dvc_hybrid_result_init(r);
    dvc_status st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK && r->certified, "%s: %s", what, dvc_error_message());
    CHECK(r->nevents == R.npiece - 1, "%s: %ld events, reference %d", what, r->nevents,
          R.npiece - 1);
    long ncross = 0;
    double wmax = 0;
    for (long k = 0; st == DVC_OK && k < r->nevents && k + 1 < R.npiece; k++) {
        const dvc_hybrid_event *e = &r->ev[k];
        int a = R.ph[k], b = R.ph[k + 1];
        dvc_hybrid_event_kind want = a == 0 ? DVC_HYB_EV_LEAVE_SLIDE
                                     : b == 0 ? DVC_HYB_EV_ENTER_SLIDE : DVC_HYB_EV_CROSS;
        ncross += want == DVC_HYB_EV_CROSS;
        CHECK(dvc_hybrid_event_kind_of(m, e) == want, "%s: event %ld is %s", what, k + 1,
              dvc_hybrid_event_kind_name(dvc_hybrid_event_kind_of(m, e)));
        CHECK(contains(e->t, R.ta[k + 1]) && width(e->t) < 1e-10,
              "%s: event %ld misses the reference time %.17g (width %g)", what, k + 1,
              mpfr_get_d(R.ta[k + 1], MPFR_RNDN), width(e->t));
        if (width(e->t) > wmax) wmax = width(e->t);
    }
    CHECK(ncross > 0, "%s: no crossing event (the test needs one)", what);
    if (st == DVC_OK) tube_vs_ref(m, r, &R, what, wmax);
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    ref_clear(&R);
    ref_mu = "0.4";
}

/* Certificate edits with fresh digests: only the recomputation rejects. */
static void tamper(const char *path, const char *tmp, void (*edit)(dvc_hybrid_cert_t),
                   const char *needle, const char *what)
{
    dvc_hybrid_cert_t c, d;
    dvc_hybrid_cert_init(c);
    dvc_hybrid_cert_init(d);
    REQUIRE(dvc_hybrid_cert_read(c, path) == DVC_OK, "%s: %s", what, dvc_error_message());
    edit(c);
    CHECK(dvc_hybrid_cert_write(c, tmp) == DVC_OK, "%s: write: %s", what, dvc_error_message());
    dvc_status st = dvc_hybrid_cert_read(d, tmp);
    CHECK(st == DVC_OK, "%s: read back: %s", what, dvc_error_message());
    if (st == DVC_OK) st = dvc_hybrid_cert_verify(d, NULL);
    CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), needle) &&
              !strstr(dvc_error_message(), "digest"),
          "%s: %s (%s)", what, dvc_status_name(st), dvc_error_message());
    printf("tamper %s: %s\n", what, dvc_error_message());
    dvc_hybrid_cert_clear(c);
    dvc_hybrid_cert_clear(d);
}

static void ed_leave_time(dvc_hybrid_cert_t c)
{
    /* the first leave-slide time shrunk to its upper end */
    mpfi_set_fr(c->res->ev[0].t, &c->res->ev[0].t->right);
}
static void ed_enter_mode(dvc_hybrid_cert_t c)
{
    /* the second event (enter-slide) made a crossing into h < 0 */
    c->res->ev[1].mode_after = dvc_hybrid_find_mode(c->model, "friction<0");
}
static void ed_slide_box(dvc_hybrid_cert_t c)
{
    /* the second step's box (sticking, t in [0.25, 0.5]): v1 narrowed to a point */
    long i = 1;
    mpfi_set_fr(c->res->box[i]->e[2], &c->res->box[i]->e[2]->left);
}

/* JSON-level edit of "kind" (digests recomputed by writing through jansson
 * is not possible here: the reader must catch it before verification). */
static void kind_edit(const char *path, const char *tmp)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    REQUIRE(root, "load %s", path);
    json_t *ev = json_array_get(json_object_get(root, "events"), 1);
    json_object_set_new(ev, "kind", json_string("cross"));
    REQUIRE(json_dump_file(root, tmp, 0) == 0, "dump");
    json_decref(root);
    dvc_hybrid_cert_t d;
    dvc_hybrid_cert_init(d);
    dvc_status st = dvc_hybrid_cert_read(d, tmp);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "kind"), "kind edited: %s (%s)",
          dvc_status_name(st), dvc_error_message());
    printf("tamper kind: %s\n", dvc_error_message());
    dvc_hybrid_cert_clear(d);
}

static void test_stickslip(const char *certs)
{
    char model[1024], cert[1024], tmp[64];
    snprintf(model, sizeof model, "%s/stickslip/stickslip.json", certs);
    snprintf(cert, sizeof cert, "%s/stickslip/stickslip.cert.json", certs);
    snprintf(tmp, sizeof tmp, "/tmp/test_sliding_XXXXXX");
    int fd = mkstemp(tmp);
    REQUIRE(fd >= 0, "mkstemp");
    close(fd);
    ref_ss R;
    ref_build(&R, 10);
    printf("reference switch times:");
    for (int k = 1; k < R.npiece; k++) printf(" %.10f", mpfr_get_d(R.ta[k], MPFR_RNDN));
    printf("\n");
    /* the committed certificate: verified by recomputation, then checked
     * against the reference */
    dvc_hybrid_cert_t c;
    dvc_hybrid_cert_init(c);
    REQUIRE(dvc_hybrid_cert_read(c, cert) == DVC_OK, "%s", dvc_error_message());
    dvc_hybrid_result_t rec;
    dvc_hybrid_result_init(rec);
    CHECK(dvc_hybrid_cert_verify(c, rec) == DVC_OK, "committed stick-slip certificate: %s",
          dvc_error_message());
    test_stickslip_result(c->model, rec, &R, "stick-slip (recomputed)");
    CHECK(c->res->nevents == rec->nevents, "stated events %ld", c->res->nevents);
    dvc_hybrid_result_clear(rec);
    dvc_hybrid_cert_clear(c);
    /* other step sizes: the departures from the surface then start from
     * a grid time where h' is not yet provably nonzero (the monotonicity
     * argument of docs/sliding.md section 3 carries them) */
    for (int k = 0; k < 2; k++) {
        static const double hs[2] = {0.05, 0.1};
        char what[64];
        dvc_hybrid_cert_init(c);
        REQUIRE(dvc_hybrid_cert_read(c, cert) == DVC_OK, "%s", dvc_error_message());
        c->model->h = hs[k];
        dvc_hybrid_result_init(rec);
        snprintf(what, sizeof what, "stick-slip, h = %g", hs[k]);
        dvc_status st = dvc_hybrid_enclose(rec, c->model);
        CHECK(st == DVC_OK, "%s: %s", what, dvc_error_message());
        if (st == DVC_OK) test_stickslip_result(c->model, rec, &R, what);
        dvc_hybrid_result_clear(rec);
        dvc_hybrid_cert_clear(c);
    }
    /* tampering */
    tamper(cert, tmp, ed_leave_time, "event 1", "leave-slide time narrowed");
    tamper(cert, tmp, ed_enter_mode, "event 2", "enter-slide made a crossing");
    tamper(cert, tmp, ed_slide_box, "step 2", "sticking step box narrowed");
    kind_edit(cert, tmp);
    unlink(tmp);
    ref_clear(&R);
}

/* The reference as a trajectory file for `dvicert check` (t,p1,p2,v1,v2 at
 * N+1 equally spaced times on [0, 10], 40 digits), p1 moved by pert. */
static int write_csv(long N, double pert)
{
    ref_ss R;
    ref_build(&R, 10);
    mpfr_t x[4], t;
    for (int i = 0; i < 4; i++) mpfr_init2(x[i], RP);
    mpfr_init2(t, RP);
    printf("t,p1,p2,v1,v2\n");
    for (long j = 0; j <= N; j++) {
        mpfr_set_ui(t, 10, MPFR_RNDN);
        mpfr_mul_ui(t, t, (unsigned long)j, MPFR_RNDN);
        mpfr_div_ui(t, t, (unsigned long)N, MPFR_RNDN);
        ref_eval(x, &R, t);
        mpfr_add_d(x[0], x[0], pert, MPFR_RNDN);
        mpfr_printf("%.40Re,%.40Re,%.40Re,%.40Re,%.40Re\n", t, x[0], x[1], x[2], x[3]);
    }
    for (int i = 0; i < 4; i++) mpfr_clear(x[i]);
    mpfr_clear(t);
    ref_clear(&R);
    return 0;
}

/* ---- built fields: the programs a parse of their texts gives ------------ */

static int same_program(const dvc_expr_struct *a, const dvc_expr_struct *b)
{
    if (strcmp(a->text, b->text) || a->nins != b->nins || a->ncst != b->ncst ||
        a->depth != b->depth || a->uses_t != b->uses_t || a->uses_x != b->uses_x)
        return 0;
    for (long i = 0; i < a->nins; i++)
        if (a->ins[i].op != b->ins[i].op || a->ins[i].arg != b->ins[i].arg ||
            a->ins[i].pos != b->ins[i].pos)
            return 0;
    for (long i = 0; i < a->ncst; i++)
        if (!mpfr_equal_p(&a->cst[i]->left, &b->cst[i]->left) ||
            !mpfr_equal_p(&a->cst[i]->right, &b->cst[i]->right) ||
            mpfr_signbit(&a->cst[i]->left) != mpfr_signbit(&b->cst[i]->left) ||
            mpfr_signbit(&a->cst[i]->right) != mpfr_signbit(&b->cst[i]->right))
            return 0;
    return 1;
}

static void check_built(const dvc_expr_struct *e, const dvc_expr_consts_t cc,
                        const dvc_hybrid_model_t m, const char *where)
{
    dvc_expr_t p;
    dvc_expr_init2(p, m->prec);
    dvc_status st = dvc_expr_parse_vars(p, e->text, cc, m->n, (const char *const *)m->names);
    CHECK(st == DVC_OK && same_program(e, p), "%s: the built program of '%.60s...' is not its parse",
          where, e->text);
    dvc_expr_clear(p);
}

/* Three terms (up to three sliding at once: the weights by 3 x 3 Cramer):
 * every field and switching function built in memory is the program its
 * text parses to, with the constants mu and the gradients _hk_i. */
static void test_built_programs(void)
{
    const char *names[6] = {"x1", "x2", "x3", "v1", "v2", "v3"};
    const char *f0[6] = {"v1", "v2", "v3", "-x1 + (x2 - x1) - v1", "(x1 - x2) + (x3 - x2) - v2",
                         "(x2 - x3) - v3 + 10*cos(pi*t)"};
    const char *fp[3][6], *fm[3][6], *h[3] = {"v1", "v2 - 0.5*v1", "v3"};
    dvc_hybrid_term terms[3];
    dvc_expr_consts_t c, cc;
    dvc_hybrid_model_t m;
    dvc_expr_consts_init(c);
    dvc_expr_consts_init(cc);
    dvc_expr_consts_add_str(c, "mu", "0.3");
    dvc_expr_consts_add_str(cc, "mu", "0.3");
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 6; i++) {
            fp[k][i] = i == 3 + k ? "-mu" : i == k ? "0.1" : "0";
            fm[k][i] = i == 3 + k ? "mu" : "0";
        }
        terms[k] = (dvc_hybrid_term){k == 0 ? "a" : k == 1 ? "b" : "c", h[k], fp[k], fm[k]};
        for (int i = 0; i < 6; i++) {
            char cn[16];
            mpfi_t g;
            mpfi_init2(g, 53);
            mpfi_set_d(g, i == 3 + k ? 1 : (k == 1 && i == 3) ? -0.5 : 0);
            snprintf(cn, sizeof cn, "_h%d_%d", k + 1, i + 1);
            dvc_expr_consts_add(cc, cn, g);
            mpfi_clear(g);
        }
    }
    dvc_hybrid_model_init(m, 6, names, 53);
    REQUIRE(dvc_hybrid_add_decomposed(m, f0, 3, terms, c) == DVC_OK, "%s", dvc_error_message());
    CHECK(m->nmodes == 8 + 12 + 6 + 1, "modes: %ld", m->nmodes);
    for (long q = 0; q < m->nmodes; q++)
        for (long i = 0; i < m->n; i++) check_built(m->modes[q].f[i], cc, m, m->modes[q].name);
    for (long g = 0; g < m->ng; g++) check_built(m->g[g], cc, m, m->gname[g]);
    dvc_hybrid_model_clear(m);
    dvc_expr_consts_clear(c);
    dvc_expr_consts_clear(cc);
}

int main(int argc, char **argv)
{
    REQUIRE(argc > 1, "usage: test_sliding CERTS_DIR | test_sliding --csv N PERT");
    if (!strcmp(argv[1], "--csv") && argc > 3) return write_csv(atol(argv[2]), atof(argv[3]));
    test_one_d();
    test_refusals();
    test_two_contacts();
    test_built_programs();
    test_stickslip(argv[1]);
    test_stickslip_mu("0.1");
    test_stickslip_mu("0.25");
    return check_report();
}
