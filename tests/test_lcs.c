/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Ideal contacts (docs/ideal_contacts.md): a DLVI with M = 0 certified as a
 * sliding motion. The diode-clamped RC circuit (certs/diode-clamp/) against
 * an independent event-driven reference: the closed form of each piece
 * evaluated in MPFR at 256 bits (exponential plus sinusoid while free,
 * v = Vc while clamped), the switch times found by bisection at 256 bits;
 * the refusals of problems outside the class; the checks of verify.
 * usage: test_lcs CERTS_DIR | test_lcs --csv N PERT (the reference as CSV) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dvicert/lcs_cert.h"
#include "io/hybrid_json.h"
#include "check.h"

#define RP 256
#define MAXP 32

/* The circuit of certs/diode-clamp/diode-clamp.json: R = C = 1, U = 2,
 * omega = 1, Vc = 1, v(0) = 0, T = 20. */
static const double U = 2, W = 1, VC = 1, TEND = 20;

typedef struct {
    int sgn;          /* the source is sgn * U sin(W t) */
    int npiece;
    mpfr_t ta[MAXP];  /* piece k on [ta[k], ta[k+1]] */
    mpfr_t va[MAXP];  /* v at ta[k] */
    int clamped[MAXP];
} ref_t;

static double width(const mpfi_t x)
{
    return mpfr_get_d(&x->right, MPFR_RNDU) - mpfr_get_d(&x->left, MPFR_RNDD);
}

static int contains(const mpfi_t x, const mpfr_t y)
{
    return mpfr_cmp(&x->left, y) <= 0 && mpfr_cmp(y, &x->right) <= 0;
}

/* particular solution of v' = -v + sgn U sin(W t): sgn U (sin Wt - W cos Wt)/(1 + W^2) */
static void vp(mpfr_t r, const mpfr_t t, int sgn)
{
    mpfr_t s, c, a;
    mpfr_inits2(RP, s, c, a, (mpfr_ptr)0);
    mpfr_mul_d(a, t, W, MPFR_RNDN);
    mpfr_sin_cos(s, c, a, MPFR_RNDN);
    mpfr_mul_d(c, c, W, MPFR_RNDN);
    mpfr_sub(r, s, c, MPFR_RNDN);
    mpfr_mul_d(r, r, sgn * U / (1 + W * W), MPFR_RNDN);
    mpfr_clears(s, c, a, (mpfr_ptr)0);
}

/* free piece from (s, vs): v(t) = vp(t) + (vs - vp(s)) e^{-(t - s)} */
static void v_free(mpfr_t r, const mpfr_t s, const mpfr_t vs, const mpfr_t t, int sgn)
{
    mpfr_t a, e;
    mpfr_inits2(RP, a, e, (mpfr_ptr)0);
    vp(a, s, sgn);
    mpfr_sub(a, vs, a, MPFR_RNDN);
    mpfr_sub(e, s, t, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_mul(a, a, e, MPFR_RNDN);
    vp(r, t, sgn);
    mpfr_add(r, r, a, MPFR_RNDN);
    mpfr_clears(a, e, (mpfr_ptr)0);
}

/* the piece's event function: free: v - Vc (entering at a zero);
 * clamped: y = U sin(W t) - Vc (the diode current, leaving at a zero) */
static void phi(mpfr_t r, const ref_t *R, int k, const mpfr_t t)
{
    if (R->clamped[k]) {
        mpfr_mul_d(r, t, W, MPFR_RNDN);
        mpfr_sin(r, r, MPFR_RNDN);
        mpfr_mul_d(r, r, R->sgn * U, MPFR_RNDN);
        mpfr_sub_d(r, r, VC, MPFR_RNDN);
    } else {
        v_free(r, R->ta[k], R->va[k], t, R->sgn);
        mpfr_sub_d(r, r, VC, MPFR_RNDN);
    }
}

/* Pieces up to TEND: the first sign change of phi after the piece's start
 * (scanned at steps of 1e-3, the change of sign in the right direction),
 * then 300 bisections at 256 bits. */
static void ref_build(ref_t *R, int sgn)
{
    R->sgn = sgn;
    mpfr_t a, b, m, fa, fm;
    mpfr_inits2(RP, a, b, m, fa, fm, (mpfr_ptr)0);
    for (int k = 0; k < MAXP; k++) mpfr_inits2(RP, R->ta[k], R->va[k], (mpfr_ptr)0);
    mpfr_set_ui(R->ta[0], 0, MPFR_RNDN);
    mpfr_set_ui(R->va[0], 0, MPFR_RNDN);
    R->clamped[0] = 0;
    int k = 0;
    for (;;) {
        /* start just after the piece's own start (phi = 0 there) */
        mpfr_add_d(a, R->ta[k], 1e-6, MPFR_RNDN);
        phi(fa, R, k, a);
        int found = 0;
        while (mpfr_cmp_d(a, TEND) < 0) {
            mpfr_add_d(b, a, 1e-3, MPFR_RNDN);
            phi(fm, R, k, b);
            /* free: v - Vc rises through 0; clamped: y falls through 0 */
            if (R->clamped[k] ? (mpfr_sgn(fa) > 0 && mpfr_sgn(fm) <= 0)
                              : (mpfr_sgn(fa) < 0 && mpfr_sgn(fm) >= 0)) {
                found = 1;
                break;
            }
            mpfr_set(a, b, MPFR_RNDN);
            mpfr_set(fa, fm, MPFR_RNDN);
        }
        if (!found || mpfr_cmp_d(b, TEND) > 0) break;
        for (int it = 0; it < 300; it++) {
            mpfr_add(m, a, b, MPFR_RNDN);
            mpfr_div_2ui(m, m, 1, MPFR_RNDN);
            phi(fm, R, k, m);
            if ((mpfr_sgn(fm) > 0) == (mpfr_sgn(fa) > 0)) mpfr_set(a, m, MPFR_RNDN);
            else mpfr_set(b, m, MPFR_RNDN);
        }
        REQUIRE(k + 2 < MAXP, "reference: too many pieces");
        mpfr_set(R->ta[k + 1], a, MPFR_RNDN);
        mpfr_set_d(R->va[k + 1], VC, MPFR_RNDN);
        R->clamped[k + 1] = !R->clamped[k];
        k++;
    }
    mpfr_set_d(R->ta[k + 1], TEND, MPFR_RNDN);
    R->npiece = k + 1;
    mpfr_clears(a, b, m, fa, fm, (mpfr_ptr)0);
}

static void ref_eval(mpfr_t v, const ref_t *R, const mpfr_t t)
{
    int k = 0;
    while (k + 1 < R->npiece && mpfr_cmp(t, R->ta[k + 1]) >= 0) k++;
    if (R->clamped[k]) mpfr_set_d(v, VC, MPFR_RNDN);
    else v_free(v, R->ta[k], R->va[k], t, R->sgn);
}

static void ref_clear(ref_t *R)
{
    for (int k = 0; k < MAXP; k++) mpfr_clears(R->ta[k], R->va[k], (mpfr_ptr)0);
}

static void test_diode(const char *certs)
{
    char path[4096];
    ref_t R;
    dvc_hybrid_cert_t c;
    ref_build(&R, 1);
    /* three periods of 2 pi in [0, 20]: clamp, release three times */
    CHECK(R.npiece == 7, "reference: %d pieces, expected 7", R.npiece);
    snprintf(path, sizeof path, "%s/diode-clamp/diode-clamp.json", certs);
    CHECK(dvc_lcs_file_is_lcs(path), "%s is not recognised as M = 0", path);
    dvc_hybrid_cert_init(c);
    dvc_status st = dvc_lcs_enclose(c, path, 0);
    REQUIRE(st == DVC_OK && c->res->certified, "diode clamp: %s", dvc_error_message());
    const dvc_hybrid_result_struct *r = c->res;
    CHECK(r->nevents == R.npiece - 1, "diode clamp: %ld events, reference %d", r->nevents,
          R.npiece - 1);
    double wmax = 0;
    for (long k = 0; k < r->nevents && k + 1 < R.npiece; k++) {
        const dvc_hybrid_event *e = &r->ev[k];
        dvc_hybrid_event_kind want = k % 2 == 0 ? DVC_HYB_EV_ENTER_SLIDE : DVC_HYB_EV_LEAVE_SLIDE;
        CHECK(dvc_hybrid_event_kind_of(c->model, e) == want, "event %ld is %s", k + 1,
              dvc_hybrid_event_kind_name(dvc_hybrid_event_kind_of(c->model, e)));
        CHECK(contains(e->t, R.ta[k + 1]), "event %ld [%.17g, %.17g] misses the reference %.17g",
              k + 1, mpfr_get_d(&e->t->left, MPFR_RNDD), mpfr_get_d(&e->t->right, MPFR_RNDU),
              mpfr_get_d(R.ta[k + 1], MPFR_RNDN));
        CHECK(width(e->t) < 1e-10, "event %ld width %g", k + 1, width(e->t));
        if (width(e->t) > wmax) wmax = width(e->t);
        if (k > 0)
            CHECK(mpfr_cmp(&r->ev[k - 1].t->right, &e->t->left) < 0, "events %ld, %ld overlap", k,
                  k + 1);
    }
    /* the leave times have the closed form 5 pi / 6 + 2 k pi (U sin t = Vc falling) */
    for (long k = 1; k < r->nevents; k += 2) {
        mpfr_t lo, hi;
        mpfr_inits2(RP, lo, hi, (mpfr_ptr)0);
        mpfr_const_pi(lo, MPFR_RNDD);
        mpfr_const_pi(hi, MPFR_RNDU);
        mpfr_mul_ui(lo, lo, 5 + 12 * (unsigned long)(k / 2), MPFR_RNDD);
        mpfr_mul_ui(hi, hi, 5 + 12 * (unsigned long)(k / 2), MPFR_RNDU);
        mpfr_div_ui(lo, lo, 6, MPFR_RNDD);
        mpfr_div_ui(hi, hi, 6, MPFR_RNDU);
        CHECK(mpfr_cmp(&r->ev[k].t->left, lo) <= 0 && mpfr_cmp(hi, &r->ev[k].t->right) <= 0,
              "leave event %ld does not contain 5 pi/6 + %ld pi", k + 1, 2 * (k / 2));
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    /* the tube contains the reference at 2001 times, most of them between
     * grid points (h = 0.25) */
    {
        mpfr_t v, tt;
        mpfi_t T;
        dvc_ivec_t X;
        long bad = 0, off = 0;
        mpfr_inits2(RP, v, tt, (mpfr_ptr)0);
        mpfi_init2(T, 53);
        dvc_ivec_init2(X, 1, 53);
        for (int j = 0; j <= 2000; j++) {
            double tj = j == 2000 ? TEND : 0.01 * j + 0.0031 * (j % 3 == 1);
            mpfi_set_d(T, tj);
            mpfr_set_d(tt, tj, MPFR_RNDN);
            ref_eval(v, &R, tt);
            off += (tj / 0.25 != (double)(long)(tj / 0.25));
            if (dvc_hybrid_eval(X, c->model, c->res, T) != DVC_OK || !contains(X->e[0], v)) bad++;
        }
        CHECK(bad == 0, "diode clamp: %ld reference samples outside the tube", bad);
        CHECK(off > 1500, "only %ld samples between grid points", off);
        printf("diode clamp: %ld steps, %ld events, widest event %.3g, width at T %.3g\n",
               r->nsteps, r->nevents, wmax, width(r->x[r->nsteps]->e[0]));
        mpfr_clears(v, tt, (mpfr_ptr)0);
        mpfi_clear(T);
        dvc_ivec_clear(X);
    }
    /* the run never lies in w < 0 (v > Vc) */
    CHECK(dvc_lcs_result_check(c->model, c->res) == DVC_OK, "result check: %s",
          dvc_error_message());
    dvc_hybrid_cert_clear(c);
    ref_clear(&R);
}

/* The committed certificate verifies; an embedded K that does not give the
 * embedded model is rejected; a run of the model with a K too small for
 * the clamp (y reaches U - Vc = 1 > K) enters w < 0 and is refused. */
static void test_verify(const char *certs)
{
    char path[4096];
    dvc_hybrid_cert_t c;
    snprintf(path, sizeof path, "%s/diode-clamp/diode-clamp.cert.json", certs);
    CHECK(dvc_lcs_file_is_cert(path), "%s: not recognised as an ideal-contact certificate", path);
    dvc_hybrid_cert_init(c);
    REQUIRE(dvc_hybrid_cert_read(c, path) == DVC_OK, "%s: %s", path, dvc_error_message());
    dvc_status st = dvc_lcs_cert_verify(c, NULL);
    CHECK(st == DVC_OK, "committed certificate: %s", dvc_error_message());
    {
        /* lcs.K edited in the text the checks re-derive from */
        char *s = c->model_json, *p = strstr(s, "\"K\":\"64\"");
        REQUIRE(p != NULL, "the model text has no \"K\":\"64\"");
        char *t = malloc(strlen(s) + 8);
        REQUIRE(t != NULL, "out of memory");
        sprintf(t, "%.*s\"K\":\"65536\"%s", (int)(p - s), s, p + strlen("\"K\":\"64\""));
        c->model_json = t;
        st = dvc_lcs_cert_verify(c, NULL);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "not the translation"),
              "edited K: %s: %s", dvc_status_name(st), dvc_error_message());
        c->model_json = s;
        free(t);
    }
    {
        /* the same model with K = 1/2: the run leaves the face into w < 0 */
        json_t *mo = json_loads(c->model_json, 0, NULL);
        REQUIRE(mo != NULL, "model text");
        json_object_set_new(json_object_get(mo, "constants"), "lcs_K", json_string("0.5"));
        dvc_hybrid_model_t m;
        dvc_hybrid_result_t r;
        REQUIRE(dvc_hybrid_from_json(m, mo, "k-half", 0) == DVC_OK, "K = 1/2: %s",
                dvc_error_message());
        dvc_hybrid_result_init(r);
        dvc_hybrid_enclose(r, m);
        st = dvc_lcs_result_check(m, r);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "w < 0"), "K = 1/2: %s: %s",
              dvc_status_name(st), dvc_error_message());
        dvc_hybrid_result_clear(r);
        dvc_hybrid_model_clear(m);
        json_decref(mo);
    }
    dvc_hybrid_cert_clear(c);
}

/* A problem file with the diode's data changed by one field. */
static dvc_status enclose_text(const char *text, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "lcs_%s_%ld.json", name, (long)getpid());
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    dvc_hybrid_cert_t c;
    dvc_hybrid_cert_init(c);
    CHECK(dvc_lcs_file_is_lcs(path), "%s: not recognised as M = 0", name);
    dvc_status st = dvc_lcs_enclose(c, path, 0);
    dvc_hybrid_cert_clear(c);
    remove(path);
    return st;
}

static void refused(const char *name, const char *text, dvc_status want, const char *msg)
{
    dvc_status st = enclose_text(text, name);
    CHECK(st == want && strstr(dvc_error_message(), msg), "%s: %s: %s (expected '%s')", name,
          dvc_status_name(st), dvc_error_message(), msg);
}

static void test_refusals(void)
{
    /* the base: x' = -x + sin t + y' sign..., all fine */
    refused("qb-neg", "{\"A\":[[-1]],\"B\":[[1]],\"f\":[\"2*sin(t)\"],\"Q\":[[-1]],\"g\":[1],"
            "\"M\":[[0]],\"l\":[0],\"u\":[\"inf\"],\"x0\":[0],\"T\":1,\"h\":\"0.25\"}",
            DVC_ERR_INPUT, "Q B <= 0");
    refused("qb-zero", "{\"A\":[[0,1],[0,0]],\"B\":[[0],[1]],\"Q\":[[1,0]],\"M\":[[0]],\"l\":[0],"
            "\"u\":[\"inf\"],\"x0\":[1,0],\"T\":1,\"h\":\"0.25\"}",
            DVC_ERR_INPUT, "relative degree two (impacts");
    refused("l-nonzero", "{\"A\":[[-1]],\"B\":[[-1]],\"Q\":[[-1]],\"g\":[1],\"M\":[[0]],"
            "\"l\":[-1],\"u\":[\"inf\"],\"x0\":[0],\"T\":1,\"h\":\"0.25\"}",
            DVC_ERR_INPUT, "requires l = 0 and u = inf");
    refused("u-finite", "{\"A\":[[-1]],\"B\":[[-1]],\"Q\":[[-1]],\"g\":[1],\"M\":[[0]],"
            "\"l\":[0],\"u\":[5],\"x0\":[0],\"T\":1,\"h\":\"0.25\"}",
            DVC_ERR_INPUT, "field 'u'");
    refused("g-of-t", "{\"A\":[[-1]],\"B\":[[-1]],\"Q\":[[-1]],\"g\":[\"1 + t/10\"],\"M\":[[0]],"
            "\"l\":[0],\"u\":[\"inf\"],\"x0\":[0],\"T\":1,\"h\":\"0.25\"}",
            DVC_ERR_INPUT, "depending on t is not supported");
    /* two identical clamps reach their faces at the same time: refused */
    refused("m2-at-once", "{\"A\":[[-1,0],[0,-1]],\"B\":[[-1,0],[0,-1]],\"Q\":[[-1,0],[0,-1]],"
            "\"g\":[1,1],\"f\":[\"2*sin(t)\",\"2*sin(t)\"],\"M\":[[0,0],[0,0]],\"l\":[0,0],"
            "\"u\":[\"inf\",\"inf\"],\"x0\":[0,0],\"T\":3,\"h\":\"0.25\"}",
            DVC_NOT_CERTIFIED, "cannot be ordered");
    refused("m2-at-start", "{\"A\":[[-1,0],[0,-1]],\"B\":[[-1,0],[0,-1]],\"Q\":[[-1,0],[0,-1]],"
            "\"g\":[1,1],\"M\":[[0,0],[0,0]],\"l\":[0,0],\"u\":[\"inf\",\"inf\"],"
            "\"x0\":[1,1],\"T\":3,\"h\":\"0.25\"}",
            DVC_ERR_INPUT, "several constraints active at t = 0");
    /* Q B = [[1, 2], [2, 1]]: positive diagonal, not a P-matrix */
    refused("m2-not-p", "{\"A\":[[-1,0],[0,-1]],\"B\":[[-1,-2],[-2,-1]],\"Q\":[[-1,0],[0,-1]],"
            "\"g\":[1,1],\"M\":[[0,0],[0,0]],\"l\":[0,0],\"u\":[\"inf\",\"inf\"],"
            "\"x0\":[0,0],\"T\":3,\"h\":\"0.25\"}",
            DVC_ERR_INPUT, "Q B is not a P-matrix");
    refused("x0-violates", "{\"A\":[[-1]],\"B\":[[-1]],\"Q\":[[-1]],\"g\":[1],\"M\":[[0]],"
            "\"l\":[0],\"u\":[\"inf\"],\"x0\":[2],\"T\":1,\"h\":\"0.25\"}",
            DVC_ERR_INPUT, "violates the constraint");
    /* Q B = 1e-30 - 1e-30 + ... : an enclosure of Q B that contains 0
     * without being 0 (intervals in the file) */
    refused("qb-undecided", "{\"A\":[[-1]],\"B\":[[[\"-1\",\"1\"]]],\"Q\":[[-1]],\"g\":[1],"
            "\"M\":[[0]],\"l\":[0],\"u\":[\"inf\"],\"x0\":[0],\"T\":1,\"h\":\"0.25\"}",
            DVC_NOT_CERTIFIED, "could not be proven");
    /* a K of 64 is too small for y up to 199 (U = 200): the run that
     * enters w < 0 is discarded and a larger K certifies it */
    {
        dvc_status st = enclose_text(
            "{\"A\":[[-1]],\"B\":[[-1]],\"f\":[\"200*sin(t)\"],\"Q\":[[-1]],\"g\":[1],\"M\":[[0]],"
            "\"l\":[0],\"u\":[\"inf\"],\"x0\":[0],\"T\":3,\"h\":\"0.125\"}", "big-y");
        CHECK(st == DVC_OK, "U = 200: %s: %s", dvc_status_name(st), dvc_error_message());
    }
    /* a problem with M != 0 is not an ideal contact */
    {
        const char *p = "lcs_notzero.json";
        FILE *f = fopen(p, "w");
        REQUIRE(f != NULL, "cannot write %s", p);
        fputs("{\"A\":[[-1]],\"B\":[[-1]],\"Q\":[[-1]],\"M\":[[\"1e-300\"]],\"l\":[0],"
              "\"u\":[\"inf\"],\"x0\":[0],\"T\":1,\"h\":\"0.25\"}", f);
        fclose(f);
        CHECK(!dvc_lcs_file_is_lcs(p), "M = 1e-300 taken for M = 0");
        remove(p);
    }
}

/* Two clamps in antiphase (sources 2 sin t and -2 sin t): one face active
 * at a time, 12 events, against the two references merged in time. */
static void test_two(void)
{
    const char *p = "lcs_two.json";
    FILE *f = fopen(p, "w");
    REQUIRE(f != NULL, "cannot write %s", p);
    fputs("{\"A\":[[-1,0],[0,-1]],\"B\":[[-1,0],[0,-1]],\"Q\":[[-1,0],[0,-1]],\"g\":[1,1],"
          "\"f\":[\"2*sin(t)\",\"-2*sin(t)\"],\"M\":[[0,0],[0,0]],\"l\":[0,0],"
          "\"u\":[\"inf\",\"inf\"],\"x0\":[0,0],\"T\":20,\"h\":\"0.25\"}", f);
    fclose(f);
    ref_t R[2];
    ref_build(&R[0], 1);
    ref_build(&R[1], -1);
    dvc_hybrid_cert_t c;
    dvc_hybrid_cert_init(c);
    dvc_status st = dvc_lcs_enclose(c, p, 0);
    remove(p);
    long want = R[0].npiece - 1 + R[1].npiece - 1;
    CHECK(st == DVC_OK && c->res->nevents == want && want == 12, "two clamps: %s, %ld events, "
          "reference %ld", dvc_error_message(), c->res->nevents, want);
    if (st == DVC_OK && c->res->nevents == want) {
        int k0 = 1, k1 = 1;
        for (long k = 0; k < c->res->nevents; k++) {
            /* the next reference event: the earlier of the two */
            int which = k1 >= R[1].npiece ||
                        (k0 < R[0].npiece && mpfr_cmp(R[0].ta[k0], R[1].ta[k1]) < 0) ? 0 : 1;
            mpfr_ptr tr = which == 0 ? R[0].ta[k0++] : R[1].ta[k1++];
            const char *g = c->model->gname[c->res->ev[k].g];
            CHECK(contains(c->res->ev[k].t, tr) && width(c->res->ev[k].t) < 1e-10,
                  "two clamps: event %ld misses the reference %.17g", k + 1,
                  mpfr_get_d(tr, MPFR_RNDN));
            CHECK(!strncmp(g, which == 0 ? "contact1" : "contact2", 8),
                  "two clamps: event %ld is of %s", k + 1, g);
        }
        mpfr_t v;
        mpfi_t T;
        dvc_ivec_t X;
        long bad = 0;
        mpfr_init2(v, RP);
        mpfi_init2(T, 53);
        dvc_ivec_init2(X, 2, 53);
        for (int j = 0; j <= 1000; j++) {
            double tj = 0.02 * j - 0.0013 * (j % 2);
            mpfr_t tt;
            mpfr_init2(tt, RP);
            if (tj < 0) tj = 0;
            mpfi_set_d(T, tj);
            mpfr_set_d(tt, tj, MPFR_RNDN);
            if (dvc_hybrid_eval(X, c->model, c->res, T) != DVC_OK) bad++;
            for (int i = 0; i < 2; i++) {
                ref_eval(v, &R[i], tt);
                bad += !contains(X->e[i], v);
            }
            mpfr_clear(tt);
        }
        CHECK(bad == 0, "two clamps: %ld reference samples outside the tube", bad);
        mpfr_clear(v);
        mpfi_clear(T);
        dvc_ivec_clear(X);
    }
    dvc_hybrid_cert_clear(c);
    ref_clear(&R[0]);
    ref_clear(&R[1]);
}

/* f and g given as a number and an interval: v' = -v + 2 - y, v <= 1 from
 * v(0) = 0 reaches the clamp at ln 2 and stays (y = 1) */
static void test_numbers(void)
{
    const char *p = "lcs_numbers.json";
    FILE *f = fopen(p, "w");
    REQUIRE(f != NULL, "cannot write %s", p);
    fputs("{\"A\":[[-1]],\"B\":[[-1]],\"f\":[2],\"Q\":[[-1]],\"g\":[[\"1\",\"1\"]],"
          "\"M\":[[0]],\"l\":[0],\"u\":[\"inf\"],\"x0\":[0],\"T\":2,\"h\":\"0.25\"}", f);
    fclose(f);
    dvc_hybrid_cert_t c;
    dvc_hybrid_cert_init(c);
    dvc_status st = dvc_lcs_enclose(c, p, 0);
    remove(p);
    CHECK(st == DVC_OK && c->res->nevents == 1, "f = 2, g = [1, 1]: %s, %ld events",
          dvc_error_message(), c->res->nevents);
    if (st == DVC_OK && c->res->nevents == 1) {
        mpfr_t l2, one;
        mpfr_inits2(RP, l2, one, (mpfr_ptr)0);
        mpfr_const_log2(l2, MPFR_RNDN);
        mpfr_set_ui(one, 1, MPFR_RNDN);
        CHECK(contains(c->res->ev[0].t, l2), "f = 2: the clamp time ln 2 is not enclosed");
        CHECK(contains(c->res->x[c->res->nsteps]->e[0], one), "f = 2: v(2) = 1 not enclosed");
        mpfr_clears(l2, one, (mpfr_ptr)0);
    }
    dvc_hybrid_cert_clear(c);
}

static int write_csv(long N, double pert)
{
    ref_t R;
    mpfr_t v, t;
    ref_build(&R, 1);
    mpfr_inits2(RP, v, t, (mpfr_ptr)0);
    printf("t,v\n");
    for (long j = 0; j <= N; j++) {
        mpfr_set_d(t, TEND, MPFR_RNDN);
        mpfr_mul_ui(t, t, (unsigned long)j, MPFR_RNDN);
        mpfr_div_ui(t, t, (unsigned long)N, MPFR_RNDN);
        ref_eval(v, &R, t);
        mpfr_add_d(v, v, pert, MPFR_RNDN);
        mpfr_printf("%.40Re,%.40Re\n", t, v);
    }
    mpfr_clears(v, t, (mpfr_ptr)0);
    ref_clear(&R);
    return 0;
}

/* ---- the model built in memory and the model read from its rendering ---- */

static int ival_same(const mpfi_t a, const mpfi_t b)
{
    return mpfi_get_prec(a) == mpfi_get_prec(b) && mpfr_equal_p(&a->left, &b->left) &&
           mpfr_equal_p(&a->right, &b->right);
}

static int ivec_same(const dvc_ivec_t a, const dvc_ivec_t b)
{
    if (a->n != b->n) return 0;
    for (long i = 0; i < a->n; i++)
        if (!ival_same(a->e[i], b->e[i])) return 0;
    return 1;
}

/* The runs agree bit for bit: grid, enclosures, boxes, modes, events. */
static int runs_same(const dvc_hybrid_result_struct *a, const dvc_hybrid_result_struct *b)
{
    if (a->nsteps != b->nsteps || a->nevents != b->nevents || a->certified != b->certified)
        return 0;
    for (long i = 0; i <= a->nsteps; i++) {
        if (!mpfr_equal_p(a->t[i], b->t[i]) || !ivec_same(a->x[i], b->x[i])) return 0;
        if (i < a->nsteps && (a->mode[i] != b->mode[i] || !ivec_same(a->box[i], b->box[i])))
            return 0;
    }
    for (long k = 0; k < a->nevents; k++) {
        const dvc_hybrid_event *e = &a->ev[k], *f = &b->ev[k];
        if (!ival_same(e->t, f->t) || !ival_same(e->dphi, f->dphi) || !ivec_same(e->x, f->x) ||
            e->g != f->g || e->mode_before != f->mode_before || e->mode_after != f->mode_after ||
            e->cls != f->cls)
            return 0;
    }
    return 1;
}

/* dvc_lcs_enclose runs the engine on the translation built in memory
 * (src/hybrid/lcs_model.c) and embeds its rendering; the rendering read
 * by the hybrid model reader must be the same model: the same run bit for
 * bit, and the same method (order, h, precision, guard bits). */
static void same_model(const char *path, const char *name)
{
    dvc_hybrid_cert_t c;
    dvc_hybrid_model_t m;
    dvc_hybrid_result_t r;
    dvc_hybrid_cert_init(c);
    dvc_status st = dvc_lcs_enclose(c, path, 0);
    CHECK(st == DVC_OK, "%s: %s", name, dvc_error_message());
    if (st != DVC_OK) {
        dvc_hybrid_cert_clear(c);
        return;
    }
    json_t *mo = json_loads(c->model_json, 0, NULL);
    REQUIRE(mo != NULL, "%s: the rendered model is not JSON", name);
    REQUIRE(dvc_hybrid_from_json(m, mo, name, 0) == DVC_OK, "%s: %s", name, dvc_error_message());
    CHECK(m->prec == c->model->prec && m->h == c->model->h && m->guard_bits == c->model->guard_bits &&
          dvc_hybrid_model_order(m) == dvc_hybrid_model_order(c->model) &&
          m->nmodes == c->model->nmodes && m->ncontacts == c->model->ncontacts,
          "%s: the method of the model read differs from the model built", name);
    dvc_hybrid_result_init(r);
    st = dvc_hybrid_enclose(r, m);
    CHECK(st == DVC_OK && runs_same(r, c->res), "%s: the run on the model read from the rendering "
          "differs from the run on the model built in memory (%s)", name, dvc_status_name(st));
    /* and verify, which re-runs on the in-memory translation, accepts it */
    st = dvc_lcs_cert_verify(c, NULL);
    CHECK(st == DVC_OK, "%s: verify: %s", name, dvc_error_message());
    dvc_hybrid_result_clear(r);
    dvc_hybrid_model_clear(m);
    json_decref(mo);
    dvc_hybrid_cert_clear(c);
}

static void test_same_model(const char *certs)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/diode-clamp/diode-clamp.json", certs);
    same_model(path, "diode-clamp");
    /* m = 2, with named constants, constant expressions as entries, a
     * number for f and g, at 113 bits: every rule of the model reader */
    const char *p = "lcs_same_two.json";
    FILE *f = fopen(p, "w");
    REQUIRE(f != NULL, "cannot write %s", p);
    fputs("{\"prec\":113,\"constants\":{\"k\":\"1/3\",\"w\":0.75,\"a\":\"2\"},"
          "\"A\":[[\"-3*k\",0.1],[0,\"-1\"]],\"B\":[[-1,0],[\"-k*3\",\"-w-0.25\"]],"
          "\"Q\":[[-1,0],[0,-1]],\"g\":[1,\"1/3+2/3\"],"
          "\"f\":[\"a*sin(t)\",0],\"M\":[[0,0],[0,0]],\"l\":[0,0],"
          "\"u\":[\"inf\",\"inf\"],\"x0\":[0,\"0.1\"],\"T\":6,\"h\":\"0.25\"}", f);
    fclose(f);
    same_model(p, "two contacts");
    remove(p);
}

/* A certificate whose embedded model no longer is the translation of
 * its embedded problem (a constant, or the problem, edited) is rejected
 * even with fresh digests. */
static void tampered_rejected(const char *certs, const char *from, const char *to)
{
    char path[4096], out[256];
    dvc_hybrid_cert_t c;
    snprintf(path, sizeof path, "%s/diode-clamp/diode-clamp.json", certs);
    snprintf(out, sizeof out, "lcs_tampered_%ld.json", (long)getpid());
    dvc_hybrid_cert_init(c);
    REQUIRE(dvc_lcs_enclose(c, path, 0) == DVC_OK, "%s: %s", path, dvc_error_message());
    char *s = c->model_json, *q = strstr(s, from);
    REQUIRE(q != NULL, "the model text has no %s", from);
    char *t = malloc(strlen(s) + strlen(to) + 1);
    REQUIRE(t != NULL, "out of memory");
    sprintf(t, "%.*s%s%s", (int)(q - s), s, to, q + strlen(from));
    c->model_json = t;
    free(s);
    REQUIRE(dvc_hybrid_cert_write(c, out) == DVC_OK, "%s: %s", out, dvc_error_message());
    dvc_hybrid_cert_clear(c);
    dvc_hybrid_cert_init(c);
    dvc_status st = dvc_hybrid_cert_read(c, out);
    if (st == DVC_OK) st = dvc_lcs_cert_verify(c, NULL);
    CHECK(st == DVC_NOT_CERTIFIED, "edited %s -> %s: %s: %s", from, to, dvc_status_name(st),
          dvc_error_message());
    dvc_hybrid_cert_clear(c);
    remove(out);
}

/* The diode's certificate with lcs.K edited to 65536 in the embedded model
 * (lcs_K stays 64) and written with fresh digests: only the re-derivation
 * of the model can reject it (tests/cli/lcs.sh). */
static int write_tampered(const char *certs, const char *out)
{
    char path[4096];
    dvc_hybrid_cert_t c;
    snprintf(path, sizeof path, "%s/diode-clamp/diode-clamp.json", certs);
    dvc_hybrid_cert_init(c);
    REQUIRE(dvc_lcs_enclose(c, path, 0) == DVC_OK, "%s: %s", path, dvc_error_message());
    char *s = c->model_json, *p = strstr(s, "\"K\":\"64\"");
    REQUIRE(p != NULL, "the model text has no \"K\":\"64\"");
    char *t = malloc(strlen(s) + 8);
    REQUIRE(t != NULL, "out of memory");
    sprintf(t, "%.*s\"K\":\"65536\"%s", (int)(p - s), s, p + strlen("\"K\":\"64\""));
    c->model_json = t;
    free(s);
    REQUIRE(dvc_hybrid_cert_write(c, out) == DVC_OK, "%s: %s", out, dvc_error_message());
    dvc_hybrid_cert_clear(c);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 3 && !strcmp(argv[1], "--tampered")) return write_tampered(argv[2], argv[3]);
    REQUIRE(argc > 1, "usage: test_lcs CERTS_DIR | test_lcs --csv N PERT");
    if (!strcmp(argv[1], "--csv") && argc > 3) return write_csv(atol(argv[2]), atof(argv[3]));
    test_diode(argv[1]);
    test_verify(argv[1]);
    test_refusals();
    test_numbers();
    test_two();
    test_same_model(argv[1]);
    tampered_rejected(argv[1], "\"K\":\"64\"", "\"K\":\"65536\"");
    tampered_rejected(argv[1], "\"lcs_K\":\"64\"", "\"lcs_K\":\"65536\"");
    tampered_rejected(argv[1], "\"x0\":[0]", "\"x0\":[0.5]");
    return check_report();
}
