/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate re-verification against tampering that keeps the file
 * consistent: the edit is made and the (non-cryptographic) digest is
 * recomputed, as anyone holding the format description can do. Such a
 * certificate must be rejected whenever a stated bound is on the wrong side
 * of the recomputed one, however close, or a stated hypothesis changed.
 * argv[1]: the source directory's certs/. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dvicert/cert.h"
#include "io/problem_json.h"

/* Re-digest c->root after an edit, exactly as the writer does. */
static void redigest(dvc_cert_t c)
{
    char dg[17];
    json_t *copy = json_copy(c->root);
    REQUIRE(copy != NULL, "copy");
    json_object_del(copy, "digest");
    REQUIRE(dvc_problem_digest(dg, copy) == DVC_OK, "digest");
    json_decref(copy);
    memcpy(c->digest, dg, 17);
    json_object_set_new(c->root, "digest", json_string(dg)); /* informative only */
}

/* The decimal rec shifted by rel * |rec| (rel of either sign), printed with
 * 100 significant digits in the direction of the shift, so that the result
 * is a decimal provably on that side of rec. */
static char *shifted(const char *rec, double rel)
{
    mpfr_t a, d;
    char *out = NULL;
    mpfr_inits2(1200, a, d, (mpfr_ptr)0);
    mpfr_set_str(a, rec, 10, rel < 0 ? MPFR_RNDD : MPFR_RNDU);
    mpfr_mul_d(d, a, rel, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    if (rel < 0) mpfr_sub(a, a, d, MPFR_RNDD);
    else mpfr_add(a, a, d, MPFR_RNDU);
    mpfr_asprintf(&out, rel < 0 ? "%.99RDe" : "%.99RUe", a);
    mpfr_clears(a, d, (mpfr_ptr)0);
    return out;
}

static int load(dvc_cert_t c, const char *path)
{
    dvc_cert_init(c);
    if (dvc_cert_read(c, path) != DVC_OK) {
        fprintf(stderr, "%s: %s\n", path, dvc_error_message());
        return 0;
    }
    return 1;
}

/* Replace summary[key] by a value shifted by rel, re-digest, verify. */
static dvc_status tamper_summary(const char *path, const char *key, double rel, char **used)
{
    dvc_cert_t c;
    dvc_status st;
    if (!load(c, path)) return DVC_ERR_IO;
    const json_t *v = json_object_get(c->summary, key);
    REQUIRE(json_is_string(v), "summary has '%s'", key);
    char *s = shifted(json_string_value(v), rel);
    json_object_set_new(c->summary, key, json_string(s));
    redigest(c);
    st = dvc_cert_verify(c);
    if (used) *used = s;
    else mpfr_free_str(s);
    dvc_cert_clear(c);
    return st;
}

/* y solves the LVI, so y(t) in [l, u]: every y tube is met with [l.lo, u.hi].
 * Bridge (l = 0, u = inf): the unmet tube goes below 0 (so the meet does
 * something), the met one never does, it is the unmet one met with
 * [0, inf], and it still contains the exact y = 0 (for x(0) = (0, gamma > 0)
 * the contact never activates on [0, 1], tests/ref_bridge.c). */
static void test_ybox(const char *certs)
{
    char path[4096];
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    dvc_ivec_t Y0, Y1;
    mpfi_t t;
    check_rng rng = {4242};
    long below = 0, nt = 2000;
    snprintf(path, sizeof path, "%s/bridge/gamma0.2.json", certs);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    REQUIRE(dvc_problem_load(p, NULL, path, 0) == DVC_OK, "%s: %s", path, dvc_error_message());
    dvc_dlvi_opts_default(&o);
    dvc_dlvi_result_init(r);
    REQUIRE(dvc_dlvi_run(r, p, &o) == DVC_OK, "bridge run: %s", dvc_error_message());
    dvc_ivec_init2(Y0, 1, r->prec);
    dvc_ivec_init2(Y1, 1, r->prec);
    mpfi_init2(t, r->prec);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) CHECK(dvc_dlvi_result_set_ybox(r, p) == DVC_OK, "set_ybox");
        for (long k = 0; k < nt; k++) {
            double a = check_rng_unif(&rng, 0, 1), b = a + check_rng_unif(&rng, 0, 1e-3);
            if (b > 1) b = 1;
            mpfi_interv_d(t, a, b);
            r->ybox_m = pass ? 1 : 0; /* pass 0: the unmet tube */
            REQUIRE(dvc_dlvi_tube_y(Y0, r, t) == DVC_OK, "tube_y: %s", dvc_error_message());
            if (pass == 0) {
                below += mpfr_sgn(&Y0->e[0]->left) < 0;
                continue;
            }
            r->ybox_m = 0;
            REQUIRE(dvc_dlvi_tube_y(Y1, r, t) == DVC_OK, "tube_y: %s", dvc_error_message());
            r->ybox_m = 1;
            CHECK(mpfr_sgn(&Y0->e[0]->left) >= 0, "met y tube below l = 0 at t = [%g, %g]", a, b);
            CHECK(mpfi_is_inside(Y0->e[0], Y1->e[0]) > 0, "met y tube not inside the unmet one");
            CHECK(mpfr_cmp(&Y0->e[0]->right, &Y1->e[0]->right) == 0 &&
                      (mpfr_sgn(&Y1->e[0]->left) < 0 ? mpfr_zero_p(&Y0->e[0]->left) != 0
                                                     : mpfr_equal_p(&Y0->e[0]->left, &Y1->e[0]->left) != 0),
                  "met y tube is not the unmet one met with [0, inf]");
            CHECK(mpfi_is_inside_ui(0, Y0->e[0]) > 0, "exact y = 0 outside the met tube at t = [%g, %g]", a, b);
        }
    }
    CHECK(below > nt / 2, "the unmet y tube should go below 0 (it did at %ld of %ld times)", below, nt);
    mpfi_clear(t);
    dvc_ivec_clear(Y0);
    dvc_ivec_clear(Y1);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);

    /* certificate tubes (check, export, plot): every y edge in [l.lo, u.hi] */
    static const char *const files[] = {"bridge/gamma0.2.cert.json", "bridge/gamma2.0.cert.json",
                                        "circuit/circuit.cert.json", "remark43/x0_1.cert.json"};
    long zero_edges = 0;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        dvc_cert_t c;
        mpfr_t *lo, *hi;
        mpfi_t tt;
        snprintf(path, sizeof path, "%s/%s", certs, files[f]);
        REQUIRE(load(c, path), "read %s", path);
        lo = malloc((size_t)(c->m + 1) * sizeof *lo);
        hi = malloc((size_t)(c->m + 1) * sizeof *hi);
        REQUIRE(lo && hi, "alloc");
        for (long k = 0; k < c->m; k++) mpfr_inits2(c->prec, lo[k], hi[k], (mpfr_ptr)0);
        mpfi_init2(tt, c->prec);
        for (long i = 0; i <= c->N; i++) {
            for (int kind = 0; kind < 3; kind++) {
                if (kind < 2 && i == 0) continue;
                if (kind == 0) dvc_cert_tube_step(lo, hi, c, i, 1);
                else if (kind == 1) {
                    dvc_cert_time(tt, c, i);
                    if (!dvc_cert_tube_piece(lo, hi, c, i, tt, 1)) continue;
                } else dvc_cert_tube_grid(lo, hi, c, i, 1);
                for (long k = 0; k < c->m; k++) {
                    CHECK(mpfr_cmp(lo[k], c->ybox_lo[k]) >= 0 && mpfr_cmp(hi[k], c->ybox_hi[k]) <= 0,
                          "%s: step %ld kind %d y%ld edge outside [l, u]", files[f], i, kind, k + 1);
                    zero_edges += mpfr_equal_p(lo[k], c->ybox_lo[k]) != 0;
                }
            }
        }
        mpfi_clear(tt);
        for (long k = 0; k < c->m; k++) mpfr_clears(lo[k], hi[k], (mpfr_ptr)0);
        free(lo);
        free(hi);
        dvc_cert_clear(c);
    }
    CHECK(zero_edges > 1000, "the meet with [l, u] never applied (%ld edges at l)", zero_edges);
}

/* Every stored bound must carry the relative slack 2^-40 over the bound the
 * engine computed (so that a build differing in the last bits re-verifies),
 * and stored enclosures of yhat must contain the computed ones with it. */
static void test_slack(const char *certs)
{
    static const char *const names[] = {"bridge/gamma0.2", "circuit/circuit"};
    for (int k = 0; k < 2; k++) {
        char prob[4096];
        dvc_cert_t c;
        dvc_dlvi_problem_t p;
        dvc_dlvi_result_t r;
        dvc_dlvi_opts o;
        mpfr_t need;
        long thin = 0, checked = 0;
        snprintf(prob, sizeof prob, "%s/%s.json", certs, names[k]);
        dvc_cert_init(c);
        REQUIRE(dvc_cert_enclose(c, prob, 0, 0) == DVC_OK, "enclose %s: %s", prob, dvc_error_message());
        dvc_dlvi_problem_init(p, 0, 0, 0);
        REQUIRE(dvc_problem_load(p, NULL, prob, 0) == DVC_OK, "load %s: %s", prob, dvc_error_message());
        dvc_dlvi_opts_default(&o);
        dvc_dlvi_result_init(r);
        REQUIRE(dvc_dlvi_run(r, p, &o) == DVC_OK, "run %s: %s", prob, dvc_error_message());
        mpfr_init2(need, 256);
        for (long i = 1; i <= c->N; i++) {
            /* eps_x: stored >= computed (1 + 2^-41) */
            mpfr_mul_2si(need, r->eps_x[i], -41, MPFR_RNDU);
            mpfr_add(need, need, r->eps_x[i], MPFR_RNDU);
            if (!mpfr_zero_p(r->eps_x[i]) && mpfr_cmp(&c->eps_x[i]->left, need) < 0) thin++;
            checked++;
            for (long j = 0; j < c->m; j++) {
                mpfi_srcptr y = r->yhat[i * c->m + j];
                /* stored lo <= computed lo - |lo| 2^-41, likewise hi */
                mpfr_abs(need, &y->left, MPFR_RNDU);
                mpfr_mul_2si(need, need, -41, MPFR_RNDU);
                mpfr_sub(need, &y->left, need, MPFR_RNDD);
                if (mpfr_cmp(&c->yhat_lo[i * c->m + j]->right, need) > 0) thin++;
                mpfr_abs(need, &y->right, MPFR_RNDU);
                mpfr_mul_2si(need, need, -41, MPFR_RNDU);
                mpfr_add(need, &y->right, need, MPFR_RNDU);
                if (mpfr_cmp(&c->yhat_hi[i * c->m + j]->left, need) < 0) thin++;
                checked += 2;
            }
        }
        CHECK(thin == 0, "%s: %ld of %ld stored bounds without the 2^-40 slack", names[k], thin, checked);
        mpfr_clear(need);
        dvc_dlvi_result_clear(r);
        dvc_dlvi_problem_clear(p);
        dvc_cert_clear(c);
    }
}

int main(int argc, char **argv)
{
    char path[4096];
    REQUIRE(argc >= 2, "usage: test_cert CERTS_DIR");
    test_slack(argv[1]);
    snprintf(path, sizeof path, "%s/remark43/x0_1.cert.json", argv[1]);

    /* control: the stored certificate, re-digested without an edit */
    {
        dvc_cert_t c;
        REQUIRE(load(c, path), "read %s", path);
        redigest(c);
        CHECK(dvc_cert_verify(c) == DVC_OK, "untouched certificate: %s", dvc_error_message());
        dvc_cert_clear(c);
    }

    /* upper bounds lowered by a relative 1e-90, lower bounds raised: below
     * the 256-bit resolution of a left-end comparison, still false claims */
    static const char *const uppers[] = {"L_upper", "beta_M_upper", "norm_A_upper", "max_eps_x",
                                         "eps_x_at_T"};
    for (size_t k = 0; k < sizeof uppers / sizeof *uppers; k++) {
        dvc_status st = tamper_summary(path, uppers[k], -1e-90, NULL);
        CHECK(st == DVC_NOT_CERTIFIED, "'%s' lowered by 1e-90 relative was accepted (%d)",
              uppers[k], (int)st);
        CHECK(st != DVC_NOT_CERTIFIED || strstr(dvc_error_message(), uppers[k]) != NULL,
              "message names '%s': %s", uppers[k], dvc_error_message());
    }
    static const char *const lowers[] = {"beta_M_lower", "h_max_lower"};
    for (size_t k = 0; k < sizeof lowers / sizeof *lowers; k++) {
        dvc_status st = tamper_summary(path, lowers[k], 1e-90, NULL);
        CHECK(st == DVC_NOT_CERTIFIED, "'%s' raised by 1e-90 relative was accepted (%d)",
              lowers[k], (int)st);
    }
    /* on the safe side (weaker claims) the certificate stays valid */
    {
        char *s = NULL;
        dvc_status st = tamper_summary(path, "L_upper", 1e-50, &s);
        CHECK(st == DVC_OK, "L_upper raised to %s rejected: %s", s ? s : "?", dvc_error_message());
        mpfr_free_str(s);
        st = tamper_summary(path, "h_max_lower", -1e-50, NULL);
        CHECK(st == DVC_OK, "h_max_lower lowered rejected: %s", dvc_error_message());
    }
    /* stated hypotheses and method parameters are claims too */
    {
        static const char *const what[][3] = {
            {"summary", "P_matrix", "P-matrix (all principal minors proven positive)"},
            {"summary", "step_condition", "h <= h_hi < h_max = 1/(L - theta ||A||) (proven: yes)x"},
            {"method", "theta", "0.5"},
        };
        for (size_t k = 0; k < sizeof what / sizeof *what; k++) {
            dvc_cert_t c;
            REQUIRE(load(c, path), "read");
            json_t *obj = strcmp(what[k][0], "summary") == 0 ? c->summary : c->method;
            REQUIRE(json_is_string(json_object_get(obj, what[k][1])), "has %s", what[k][1]);
            CHECK(strcmp(json_string_value(json_object_get(obj, what[k][1])), what[k][2]) != 0,
                  "the edit changes %s", what[k][1]);
            json_object_set_new(obj, what[k][1], json_string(what[k][2]));
            redigest(c);
            dvc_status st = dvc_cert_verify(c);
            CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), what[k][1]) != NULL,
                  "edited '%s' accepted (%d): %s", what[k][1], (int)st, dvc_error_message());
            dvc_cert_clear(c);
        }
    }
    test_ybox(argv[1]);
    mpfr_free_cache();
    return check_report();
}
