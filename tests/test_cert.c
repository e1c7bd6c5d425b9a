/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate re-verification against tampering that keeps the file
 * consistent: the edit is made and the (non-cryptographic) digest is
 * recomputed, as anyone holding the format description can do. Such a
 * certificate must be rejected whenever a stated bound is on the wrong side
 * of the recomputed one, however close, or a stated hypothesis changed.
 * argv[1]: the source directory's certs/. */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dvicert/certio.h"
#include "io/json.h"
#include "io/problem_json.h"
#include "redigest.h"
#include "enclose_call.h"

/* Scratch file for edited certificates. */
static char tmpfile_[64], tmpfile2_[64];

static json_t *load_json(const char *path)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    REQUIRE(root != NULL, "%s: %s", path, err.text);
    return root;
}

/* Write root in the layout dvicert writes (one member per line, the keys
 * before "steps" first, one step per line), which the streaming reader
 * reads step by step. */
static void write_layout(const json_t *root, const char *path)
{
    FILE *f = fopen(path, "w");
    const char *key;
    json_t *val;
    int first = 1;
    REQUIRE(f != NULL, "open %s", path);
    fputs("{\n", f);
    for (int pass = 0; pass < 3; pass++)
        json_object_foreach((json_t *)root, key, val) {
            int c = strcmp(key, "steps");
            char *vs;
            if ((pass == 0 && c >= 0) || (pass == 1 && c != 0) || (pass == 2 && c <= 0)) continue;
            fprintf(f, "%s  \"%s\": ", first ? "" : ",\n", key);
            first = 0;
            if (c == 0) {
                size_t i;
                json_t *s;
                fputs("[\n", f);
                json_array_foreach(val, i, s) {
                    vs = json_dumps(s, JSON_COMPACT | JSON_PRESERVE_ORDER);
                    fprintf(f, "    %s%s\n", vs, i + 1 < json_array_size(val) ? "," : "");
                    free(vs);
                }
                fputs("  ]", f);
            } else {
                vs = json_dumps(val, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
                fputs(vs, f);
                free(vs);
            }
        }
    fputs("\n}\n", f);
    REQUIRE(fclose(f) == 0, "write %s", path);
}

/* Re-digest root after an edit, exactly as the writer does, write it, read
 * it back and verify it: the reader accepts it (the digest matches), so
 * only the recomputation can reject it. The same file in dvicert's layout
 * is verified again by the streaming reader (dvc_cert_stream), which must
 * come to the same verdict. Takes root. */
static dvc_status verify_edited(json_t *root)
{
    dvc_cert_t c;
    dvc_status st;
    redigest(root);
    REQUIRE(json_dump_file(root, tmpfile_, JSON_COMPACT) == 0, "write %s", tmpfile_);
    write_layout(root, tmpfile2_);
    json_decref(root);
    dvc_cert_init(c);
    st = dvc_cert_read(c, tmpfile_);
    REQUIRE(st == DVC_OK, "the re-digested file must read: %s", dvc_error_message());
    st = dvc_cert_verify(c);
    {
        char msg[1024];
        dvc_status st2;
        snprintf(msg, sizeof msg, "%s", dvc_error_message());
        st2 = dvc_cert_stream(c, tmpfile2_, 1, NULL, NULL);
        CHECK(st2 == st, "streaming verify: status %d (%s), whole-file verify: %d (%s)", (int)st2,
              st2 == DVC_OK ? "" : dvc_error_message(), (int)st, st == DVC_OK ? "" : msg);
    }
    dvc_cert_clear(c);
    return st;
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
    json_t *root = load_json(path), *sum = json_object_get(root, "summary");
    const json_t *v = json_object_get(sum, key);
    REQUIRE(json_is_string(v), "summary has '%s'", key);
    char *s = shifted(json_string_value(v), rel);
    json_object_set_new(sum, key, json_string(s));
    if (used) *used = s;
    else mpfr_free_str(s);
    return verify_edited(root);
}

/* The radius_* claims (how informative the tube is) against the tube read
 * from the JSON here, with exact rationals: the stated relative radius is
 * >= max_i eps_x^i / max_i |x_j^i| for every state j, the verdict follows
 * from it; editing them is rejected; a certificate without them (written
 * before they existed) is still accepted. */
static void test_width_claims(const char *certs)
{
    static const char *const names[] = {"bridge/gamma0.2.cert.json", "remark43/x0_1.cert.json",
                                        "circuit/circuit.cert.json"};
    for (size_t f = 0; f < sizeof names / sizeof *names; f++) {
        char path[4096];
        json_t *root, *sum, *steps;
        long n;
        mpq_t emax, q, mag, worst;
        snprintf(path, sizeof path, "%s/%s", certs, names[f]);
        root = load_json(path);
        sum = json_object_get(root, "summary");
        steps = json_object_get(root, "steps");
        REQUIRE(json_is_string(json_object_get(sum, "radius_verdict")), "%s: radius_verdict", path);
        n = (long)json_array_size(json_object_get(json_array_get(steps, 0), "x"));
        mpq_inits(emax, q, mag, worst, NULL);
        for (size_t i = 0; i < json_array_size(steps); i++) {
            const char *e = json_string_value(json_object_get(json_array_get(steps, i), "eps_x"));
            REQUIRE(e != NULL, "%s: step %zu: eps_x", path, i);
            {
                mpfr_t a;
                mpfr_init2(a, 200);
                mpfr_set_str(a, e, 10, MPFR_RNDU); /* >= the stated decimal */
                mpfr_get_q(q, a);
                mpfr_clear(a);
            }
            if (mpq_cmp(q, emax) > 0) mpq_set(emax, q);
        }
        for (long j = 0; j < n; j++) {
            mpq_set_ui(mag, 0, 1);
            for (size_t i = 0; i < json_array_size(steps); i++) {
                const char *h = json_string_value(
                    json_array_get(json_object_get(json_array_get(steps, i), "x"), (size_t)j));
                double d = strtod(h, NULL); /* hexadecimal float: exact */
                mpq_set_d(q, fabs(d));
                if (mpq_cmp(q, mag) > 0) mpq_set(mag, q);
            }
            REQUIRE(mpq_sgn(mag) > 0, "%s: a state of size 0", path);
            mpq_div(q, emax, mag);
            if (j == 0 || mpq_cmp(q, worst) > 0) mpq_set(worst, q);
        }
        {
            mpfr_t st;
            mpfr_init2(st, 200);
            mpfr_set_str(st, json_string_value(json_object_get(sum, "radius_rel_max_upper")), 10, MPFR_RNDD);
            mpfr_get_q(q, st);
            CHECK(mpq_cmp(q, worst) >= 0, "%s: radius_rel_max_upper below the exact relative radius", path);
            /* and not far above it: 12 digits plus a relative 2^-40 */
            mpq_set_d(mag, 1 + 1e-10);
            mpq_mul(mag, mag, worst);
            CHECK(mpq_cmp(q, mag) <= 0, "%s: radius_rel_max_upper far above the exact value", path);
            mpfr_clear(st);
        }
        {
            char *v = strdup(json_string_value(json_object_get(sum, "radius_verdict")));
            const char *want = mpq_cmp_ui(worst, 1, 1) > 0 ? "uninformative"
                               : mpq_cmp_ui(worst, 1, 10) > 0 ? "wide" : "informative";
            CHECK(strcmp(v, want) == 0, "%s: verdict %s, exact relative radius says %s", path, v, want);
            /* a better verdict is a false statement about the tube */
            json_object_set_new(sum, "radius_verdict",
                                json_string(strcmp(v, "informative") == 0 ? "wide" : "informative"));
            dvc_status st = verify_edited(json_copy(root));
            CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "radius_verdict"),
                  "%s: edited verdict accepted: %s", path, dvc_error_message());
            json_object_set_new(sum, "radius_verdict", json_string(v));
            free(v);
        }
        CHECK(tamper_summary(path, "radius_rel_max_upper", -1e-9, NULL) == DVC_NOT_CERTIFIED,
              "%s: lowered radius_rel_max_upper accepted", path);
        /* written before the claims existed: accepted */
        json_object_del(sum, "radius_verdict");
        json_object_del(sum, "radius_rel_max_upper");
        json_object_del(sum, "radius_rel_at_T_upper");
        CHECK(verify_edited(root) == DVC_OK, "%s: without radius_* claims: %s", path, dvc_error_message());
        mpq_clears(emax, q, mag, worst, NULL);
    }
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
                if (kind == 0) dvc_tube_step_hull(lo, hi, c->tube, i, 1);
                else if (kind == 1) {
                    dvc_tube_time(tt, c->tube, i);
                    REQUIRE(dvc_tube_inner(lo, hi, c->tube, tt, 1) == DVC_OK, "inner: %s",
                            dvc_error_message());
                } else dvc_tube_grid(lo, hi, c->tube, i, 1);
                for (long k = 0; k < c->m; k++) {
                    CHECK(mpfr_cmp(lo[k], c->tube->ybox_lo[k]) >= 0 && mpfr_cmp(hi[k], c->tube->ybox_hi[k]) <= 0,
                          "%s: step %ld kind %d y%ld edge outside [l, u]", files[f], i, kind, k + 1);
                    zero_edges += mpfr_equal_p(lo[k], c->tube->ybox_lo[k]) != 0;
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
        REQUIRE(enclose_cw(c, prob, NULL, 0, 0, 0) == DVC_OK, "enclose %s: %s", prob, dvc_error_message());
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
            if (!mpfr_zero_p(r->eps_x[i]) && mpfr_cmp(&c->tube->eps_x[i]->left, need) < 0) thin++;
            checked++;
            for (long j = 0; j < c->m; j++) {
                mpfi_srcptr y = r->yhat[i * c->m + j];
                /* stored lo <= computed lo - |lo| 2^-41, likewise hi */
                mpfr_abs(need, &y->left, MPFR_RNDU);
                mpfr_mul_2si(need, need, -41, MPFR_RNDU);
                mpfr_sub(need, &y->left, need, MPFR_RNDD);
                if (mpfr_cmp(&c->tube->yhat_lo[i * c->m + j]->right, need) > 0) thin++;
                mpfr_abs(need, &y->right, MPFR_RNDU);
                mpfr_mul_2si(need, need, -41, MPFR_RNDU);
                mpfr_add(need, &y->right, need, MPFR_RNDU);
                if (mpfr_cmp(&c->tube->yhat_hi[i * c->m + j]->left, need) < 0) thin++;
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

/* Edit one stored number of step i (field eps_x, eps_y, ry, or yhat entry
 * k end e), shifted by rel, recompute the digest, verify. */
static dvc_status tamper_step(const char *path, long i, const char *field, long k, int e, double rel)
{
    json_t *root = load_json(path), *step, *v;
    char *s;
    step = json_array_get(json_object_get(root, "steps"), (size_t)i);
    REQUIRE(step != NULL, "step %ld", i);
    if (k < 0) {
        v = json_object_get(step, field);
        REQUIRE(json_is_string(v), "step %ld has %s", i, field);
        s = shifted(json_string_value(v), rel);
        json_object_set_new(step, field, json_string(s));
    } else {
        json_t *pair = json_array_get(json_object_get(step, field), (size_t)k);
        v = json_array_get(pair, (size_t)e);
        REQUIRE(json_is_string(v), "step %ld has %s[%ld][%d]", i, field, k, e);
        if (rel == 0) {
            /* collapse [lo, hi] onto its other end: a valid pair that no
             * longer contains the recomputed (much narrower) enclosure */
            json_array_set_new(pair, (size_t)e, json_string(json_string_value(json_array_get(pair, (size_t)!e))));
            s = NULL;
        } else {
            s = shifted(json_string_value(v), rel);
            json_array_set_new(pair, (size_t)e, json_string(s));
        }
    }
    if (s) mpfr_free_str(s);
    return verify_edited(root);
}

static void test_tamper_steps(const char *certs)
{
    char path[4096];
    static const struct { const char *field; long k; int e; double rel; } cases[] = {
        {"eps_x", -1, 0, -1e-9}, {"eps_y", -1, 0, -1e-9}, {"ry", -1, 0, -1e-9},
        {"yhat", 0, 0, 0},       {"yhat", 0, 1, 0},
    };
    snprintf(path, sizeof path, "%s/remark43/x0_1.cert.json", certs);
    for (size_t q = 0; q < sizeof cases / sizeof *cases; q++) {
        for (long i = 100; i <= 400; i += 150) {
            /* a claim 1e-9 (relative) too strong: rejected, by recomputation */
            dvc_status st = tamper_step(path, i, cases[q].field, cases[q].k, cases[q].e, cases[q].rel);
            CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), cases[q].field) &&
                      !strstr(dvc_error_message(), "digest"),
                  "step %ld %s tightened by 1e-9 (digest recomputed): %d: %s", i, cases[q].field,
                  (int)st, dvc_error_message());
            /* the same edit the safe way (a weaker claim) is accepted */
            double loose = cases[q].rel != 0 ? -cases[q].rel : cases[q].e == 0 ? -1e-9 : 1e-9;
            st = tamper_step(path, i, cases[q].field, cases[q].k, cases[q].e, loose);
            CHECK(st == DVC_OK, "step %ld %s loosened by 1e-9 rejected: %s", i, cases[q].field,
                  dvc_error_message());
        }
    }
}

/* The lognorm route (docs/lognorm.md): its certificate verifies, and a
 * step bound lowered, mu lowered (global or of one pattern) or the norm
 * matrix edited is rejected by recomputation, the digest recomputed. */
static void test_lognorm_tamper(const char *certs)
{
    char problem[4096], path[64];
    dvc_enclose_opts ro;
    dvc_cert_t c;
    dvc_status st;
    int fd;
    dvc_enclose_opts_init(&ro);
    ro.route = DVC_ENCLOSE_LOGNORM;
    snprintf(problem, sizeof problem, "%s/bridge/gamma0.2.json", certs);
    snprintf(path, sizeof path, "/tmp/dvc_test_cert3.XXXXXX");
    fd = mkstemp(path);
    REQUIRE(fd >= 0, "mkstemp");
    close(fd);
    dvc_cert_init(c);
    st = dvc_enclose(c, problem, &ro, path, NULL);
    REQUIRE(st == DVC_OK, "lognorm enclose: %s", dvc_error_message());
    REQUIRE(strcmp(dvc_cert_claim_text(&c->method, "route"), "lognorm") == 0, "route recorded");
    dvc_cert_clear(c);
    CHECK(verify_edited(load_json(path)) == DVC_OK, "untouched lognorm certificate: %s", dvc_error_message());
    for (long i = 200; i <= 800; i += 300) {
        st = tamper_step(path, i, "eps_x", -1, 0, -1e-9);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "eps_x") && !strstr(dvc_error_message(), "digest"),
              "lognorm step %ld eps_x lowered by 1e-9: %d: %s", i, (int)st, dvc_error_message());
    }
    static const char *const mus[] = {"mu_upper", "mu_pattern_0_upper", "mu_pattern_1_upper", "c_inf_upper",
                                      "max_eps_x"};
    for (size_t k = 0; k < sizeof mus / sizeof *mus; k++) {
        st = tamper_summary(path, mus[k], -1e-9, NULL);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), mus[k]) != NULL,
              "lognorm '%s' lowered by 1e-9: %d: %s", mus[k], (int)st, dvc_error_message());
    }
    /* the norm matrix and a mode norm (stated in 'method', proven again on
     * verification): the last entry scaled by 1.5, an exact double. The
     * edited norm is proven as stated, so what rejects the file is the
     * recomputation: the stored bounds were made with the searched norm,
     * which minimises mu, and are below the ones of the edited norm. */
    static const char *const nkeys[] = {"lognorm_norm", "lognorm_modes"};
    for (size_t q = 0; q < 2; q++) {
        json_t *root = load_json(path), *met = json_object_get(root, "method");
        const char *nt = json_string_value(json_object_get(met, nkeys[q]));
        char buf[4096], *last;
        double v;
        REQUIRE(nt != NULL && strlen(nt) < sizeof buf - 40, "method has '%s'", nkeys[q]);
        REQUIRE(q == 0 || strstr(nt, "pattern") != NULL, "the bridge run states a mode norm: '%s'", nt);
        snprintf(buf, sizeof buf, "%s", nt);
        last = strrchr(buf, ' ');
        REQUIRE(last != NULL, "norm text '%s'", nt);
        v = strtod(last + 1, NULL);
        snprintf(last + 1, sizeof buf - (size_t)(last + 1 - buf), "%a", 1.5 * v);
        json_object_set_new(met, nkeys[q], json_string(buf));
        st = verify_edited(root);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "below the recomputed") != NULL &&
                  !strstr(dvc_error_message(), "digest"),
              "lognorm '%s' edited: %d: %s", nkeys[q], (int)st, dvc_error_message());
    }
    {
        /* a mode norm that is no norm (R with a lower-triangular entry) */
        json_t *root = load_json(path), *met = json_object_get(root, "method");
        const char *nt = json_string_value(json_object_get(met, "lognorm_modes"));
        char buf[4096], *p3;
        REQUIRE(nt != NULL && strlen(nt) < sizeof buf, "method has 'lognorm_modes'");
        snprintf(buf, sizeof buf, "%s", nt);
        /* pattern X quad R = a b c d: c is the entry (2, 1) */
        p3 = strstr(buf, "R = ");
        REQUIRE(p3 != NULL, "mode text '%s'", nt);
        p3 = strchr(p3 + 4, ' ');
        p3 = p3 ? strchr(p3 + 1, ' ') : NULL;
        REQUIRE(p3 != NULL && strncmp(p3, " 0x0p+0 ", 8) == 0, "mode text '%s'", nt);
        memcpy(p3 + 1, "0x1p+0", 6);
        json_object_set_new(met, "lognorm_modes", json_string(buf));
        st = verify_edited(root);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "lognorm_modes") != NULL &&
                  strstr(dvc_error_message(), "upper triangular") != NULL,
              "lognorm mode norm not triangular: %d: %s", (int)st, dvc_error_message());
    }
    {
        /* an older certificate: the norm in 'summary', no mode norms stated */
        json_t *root = load_json(path), *met = json_object_get(root, "method");
        json_object_set(json_object_get(root, "summary"), "lognorm_norm", json_object_get(met, "lognorm_norm"));
        json_object_del(met, "lognorm_norm");
        json_object_del(met, "lognorm_modes");
        st = verify_edited(root);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "older dvicert") != NULL,
              "older lognorm certificate: %d: %s", (int)st, dvc_error_message());
    }
    unlink(path);
}

/* The time labels of the committed certificates are the nearest doubles of
 * t_i = i T / N (docs/formats.md), computed here at 256 bits. */
static void test_labels(const char *certs)
{
    static const char *const files[] = {"bridge/gamma0.2.cert.json", "remark43/x0_1.cert.json",
                                        "circuit/circuit.cert.json", "pounding/pounding.cert.json"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[4096];
        dvc_cert_t c;
        mpfr_t t;
        long off = 0;
        snprintf(path, sizeof path, "%s/%s", certs, files[f]);
        REQUIRE(load(c, path), "read %s", path);
        REQUIRE(mpfr_equal_p(&c->tube->T->left, &c->tube->T->right), "%s: T is a binary number", path);
        mpfr_init2(t, 256);
        for (long i = 0; i <= c->N; i++) {
            const char *lab = c->labels ? c->labels[i] : NULL;
            mpfr_mul_si(t, &c->tube->T->left, i, MPFR_RNDN);
            mpfr_div_si(t, t, c->N, MPFR_RNDN);
            off += lab == NULL || strtod(lab, NULL) != mpfr_get_d(t, MPFR_RNDN);
        }
        CHECK(off == 0, "%s: %ld of %ld labels are not the nearest double of i T / N", files[f], off,
              c->N + 1);
        mpfr_clear(t);
        dvc_cert_clear(c);
    }
}

/* An engine result becomes a certificate in memory and is verified there,
 * without a file; a bound made too strong in memory is rejected. */
static void test_memory(const char *certs)
{
    char prob[4096];
    dvc_dlvi_problem_t p;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    dvc_cert_t c;
    json_t *resolved = NULL;
    char *text;
    snprintf(prob, sizeof prob, "%s/remark43/x0_1.json", certs);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    REQUIRE(dvc_problem_load(p, &resolved, prob, 0) == DVC_OK, "load: %s", dvc_error_message());
    dvc_dlvi_opts_default(&o);
    dvc_dlvi_result_init(r);
    REQUIRE(dvc_dlvi_run(r, p, &o) == DVC_OK, "run: %s", dvc_error_message());
    text = json_dumps(resolved, JSON_COMPACT);
    dvc_cert_init(c);
    REQUIRE(dvc_cert_from_result(c, p, text, r) == DVC_OK, "from_result: %s", dvc_error_message());
    CHECK(dvc_cert_verify(c) == DVC_OK, "in-memory certificate rejected: %s", dvc_error_message());
    /* eps_x of step 250 lowered below the engine's bound */
    {
        mpfr_t v;
        mpfr_init2(v, c->prec);
        mpfr_mul_d(v, r->eps_x[250], 0.999, MPFR_RNDD);
        mpfi_set_fr(c->tube->eps_x[250], v);
        mpfr_clear(v);
    }
    CHECK(dvc_cert_verify(c) == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "step 250, field 'eps_x'"),
          "in-memory tightened eps_x: %s", dvc_error_message());
    dvc_cert_clear(c);
    free(text);
    json_decref(resolved);
    dvc_dlvi_result_clear(r);
    dvc_dlvi_problem_clear(p);
}

/* Keys starting with '_' are notes: accepted (digest recomputed) and never
 * read; any other unknown key makes the file unusable, in every object. */
static void test_notes(const char *certs)
{
    char path[4096];
    static const char *const where[] = {"", "summary", "method", "step"};
    snprintf(path, sizeof path, "%s/remark43/x0_1.cert.json", certs);
    for (int w = 0; w < 4; w++) {
        for (int note = 0; note < 2; note++) {
            json_t *root = load_json(path), *obj = root;
            if (w == 1 || w == 2) obj = json_object_get(root, where[w]);
            if (w == 3) obj = json_array_get(json_object_get(root, "steps"), 7);
            json_object_set_new(obj, note ? "_note" : "eps_x_everywhere_upper", json_string("1e-30"));
            if (note) {
                CHECK(verify_edited(root) == DVC_OK, "a '_note' in %s rejected: %s",
                      w ? where[w] : "the top level", dvc_error_message());
            } else {
                dvc_cert_t c;
                redigest(root);
                REQUIRE(json_dump_file(root, tmpfile_, JSON_COMPACT) == 0, "write");
                json_decref(root);
                dvc_cert_init(c);
                CHECK(dvc_cert_read(c, tmpfile_) == DVC_ERR_INPUT &&
                          strstr(dvc_error_message(), "unknown key 'eps_x_everywhere_upper'"),
                      "unknown key in %s: %s", w ? where[w] : "the top level", dvc_error_message());
                dvc_cert_clear(c);
            }
        }
    }
}

/* The precision retry is one loop for both destinations: the in-memory and
 * the streamed certificate both record the start precision and the reason
 * the first attempt failed (the in-memory one used to lose the reason when
 * the certificate was rebuilt). M is a P-matrix (det 1e-20) that 53 bits
 * cannot prove; 106 bits can. */
static void test_retry(void)
{
    char prob[64], reason[512];
    FILE *f;
    int fd;
    dvc_cert_t c;
    snprintf(prob, sizeof prob, "/tmp/dvc_test_retry.XXXXXX");
    fd = mkstemp(prob);
    REQUIRE(fd >= 0 && (f = fdopen(fd, "w")) != NULL, "mkstemp");
    fputs("{\"A\": [[-1]], \"B\": [[0, 0]], \"Q\": [[0], [0]],\n"
          " \"M\": [[1, 1], [1, \"1.00000000000000000001\"]], \"l\": [0, 0], \"u\": [\"inf\", \"inf\"],\n"
          " \"g\": [\"1\", \"1\"], \"x0\": [1], \"T\": 1, \"N\": 10}\n", f);
    REQUIRE(fclose(f) == 0, "write %s", prob);
    dvc_cert_init(c);
    REQUIRE(enclose_cw(c, prob, NULL, 0, 212, 0) == DVC_OK, "in-memory retry: %s",
            dvc_error_message());
    CHECK(c->prec == 106 && c->prec_start == 53, "in-memory: %ld bits from %ld", (long)c->prec,
          (long)c->prec_start);
    CHECK(strstr(c->retry_reason, "P-matrix") != NULL, "in-memory retry reason: '%s'", c->retry_reason);
    snprintf(reason, sizeof reason, "%s", c->retry_reason);
    CHECK(dvc_cert_verify(c) == DVC_OK, "in-memory 106-bit certificate: %s", dvc_error_message());
    REQUIRE(enclose_cw(c, prob, tmpfile2_, 0, 212, 0) == DVC_OK, "streamed retry: %s",
            dvc_error_message());
    CHECK(c->prec == 106 && c->prec_start == 53, "streamed: %ld bits from %ld", (long)c->prec,
          (long)c->prec_start);
    CHECK(strcmp(c->retry_reason, reason) == 0, "streamed retry reason '%s' differs from '%s'",
          c->retry_reason, reason);
    CHECK(dvc_cert_stream(c, tmpfile2_, 1, NULL, NULL) == DVC_OK, "streamed 106-bit certificate: %s",
          dvc_error_message());
    dvc_cert_clear(c);
    unlink(prob);
}

/* Replace method[key] (a string) by val, re-digest, verify. */
static dvc_status tamper_method(const char *path, const char *key, const char *val)
{
    json_t *root = load_json(path), *met = json_object_get(root, "method");
    REQUIRE(json_is_string(json_object_get(met, key)), "method has '%s'", key);
    json_object_set_new(met, key, json_string(val));
    return verify_edited(root);
}

/* A grid with a shorter last step (Remark 4.3 on [0, 0.625], h = 0.007:
 * 89 steps of the largest double <= 0.007 and the last [89 h, T]), by both
 * routes: the certificate records the step and the last step's length,
 * its tube ends at T exactly, and verify rejects any edit of the recorded
 * grid that keeps the file consistent (digests recomputed). */
static void test_last_step(const char *certs)
{
    char src[4096], prob[64], path[64];
    json_t *pj;
    int fd;
    mpfr_t hd;
    snprintf(src, sizeof src, "%s/remark43/x0_1.json", certs);
    pj = load_json(src);
    json_object_set_new(pj, "T", json_string("0.625"));
    json_object_set_new(pj, "h", json_string("0.007"));
    snprintf(prob, sizeof prob, "/tmp/dvc_test_grid.XXXXXX");
    fd = mkstemp(prob);
    REQUIRE(fd >= 0, "mkstemp");
    close(fd);
    REQUIRE(json_dump_file(pj, prob, 0) == 0, "write %s", prob);
    json_decref(pj);
    snprintf(path, sizeof path, "/tmp/dvc_test_grid_c.XXXXXX");
    fd = mkstemp(path);
    REQUIRE(fd >= 0, "mkstemp");
    close(fd);
    /* the step: 0.007 rounded down to binary64, by MPFR */
    mpfr_init2(hd, 53);
    mpfr_set_str(hd, "0.007", 10, MPFR_RNDD);
    for (int route = 0; route < 2; route++) {
        dvc_enclose_opts ro;
        const char *rn = route ? "lognorm" : "chen-wang";
        dvc_cert_t c;
        dvc_status st;
        mpfi_t t;
        dvc_enclose_opts_init(&ro);
        ro.route = route ? DVC_ENCLOSE_LOGNORM : DVC_ENCLOSE_CHEN_WANG;
        dvc_cert_init(c);
        st = dvc_enclose(c, prob, &ro, path, NULL);
        REQUIRE(st == DVC_OK, "%s: enclose: %s", rn, dvc_error_message());
        dvc_cert_clear(c);
        REQUIRE(load(c, path), "%s: read", rn);
        CHECK(c->N == 90 && c->tube->hgrid == mpfr_get_d(hd, MPFR_RNDN), "%s: N = %ld, step %a", rn, c->N,
              c->tube->hgrid);
        mpfi_init2(t, 128);
        dvc_tube_time(t, c->tube, 90);
        CHECK(mpfr_cmp_d(&t->left, 0.625) == 0 && mpfr_cmp_d(&t->right, 0.625) == 0, "%s: t_N is not T", rn);
        dvc_tube_time(t, c->tube, 89);
        {
            mpfr_t e;
            mpfr_init2(e, 128);
            mpfr_mul_ui(e, hd, 89, MPFR_RNDN); /* exact */
            CHECK(mpfr_equal_p(&t->left, e) && mpfr_equal_p(&t->right, e), "%s: t_89 is not 89 h", rn);
            mpfr_clear(e);
        }
        mpfi_clear(t);
        CHECK(dvc_cert_verify(c) == DVC_OK, "%s: verify: %s", rn, dvc_error_message());
        dvc_cert_clear(c);
        CHECK(verify_edited(load_json(path)) == DVC_OK, "%s: untouched: %s", rn, dvc_error_message());
        if (route == 0) {
            /* the in-memory path (dvc_cert_from_result, dvc_cert_write)
             * writes the same file as the streaming one */
            char mem[64];
            FILE *fa, *fb;
            int same = 1, ca, cb;
            snprintf(mem, sizeof mem, "/tmp/dvc_test_grid_m.XXXXXX");
            fd = mkstemp(mem);
            REQUIRE(fd >= 0, "mkstemp");
            close(fd);
            dvc_cert_init(c);
            REQUIRE(enclose_cw(c, prob, NULL, 0, 0, 0) == DVC_OK, "in-memory enclose: %s", dvc_error_message());
            CHECK(c->tube->hgrid == mpfr_get_d(hd, MPFR_RNDN), "in-memory tube: step %a", c->tube->hgrid);
            REQUIRE(dvc_cert_write(c, mem) == DVC_OK, "write: %s", dvc_error_message());
            dvc_cert_clear(c);
            fa = fopen(path, "r");
            fb = fopen(mem, "r");
            REQUIRE(fa && fb, "open");
            do {
                ca = fgetc(fa);
                cb = fgetc(fb);
                same &= ca == cb;
            } while (same && ca != EOF);
            fclose(fa);
            fclose(fb);
            CHECK(same, "in-memory and streamed certificates differ (%s, %s)", mem, path);
            if (same) unlink(mem);
        }

        /* the last step's length: its upper bound lowered, its lower bound
         * raised (by a relative 1e-9) are rejected by name; weaker claims pass */
        {
            json_t *root = load_json(path);
            const char *hi = json_string_value(json_object_get(json_object_get(root, "method"), "h_last_hi"));
            const char *lo = json_string_value(json_object_get(json_object_get(root, "method"), "h_last_lo"));
            char *his, *los, *his2;
            REQUIRE(hi && lo, "%s: method records h_last_lo, h_last_hi", rn);
            his = shifted(hi, -1e-9);
            los = shifted(lo, 1e-9);
            his2 = shifted(hi, 1e-3);
            json_decref(root);
            st = tamper_method(path, "h_last_hi", his);
            CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "h_last_hi"), "%s: h_last_hi lowered: %d %s",
                  rn, (int)st, dvc_error_message());
            st = tamper_method(path, "h_last_lo", los);
            CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "h_last_lo"), "%s: h_last_lo raised: %d %s",
                  rn, (int)st, dvc_error_message());
            st = tamper_method(path, "h_last_hi", his2);
            CHECK(st == DVC_OK, "%s: h_last_hi raised (weaker): %s", rn, dvc_error_message());
            mpfr_free_str(his);
            mpfr_free_str(los);
            mpfr_free_str(his2);
        }
        /* the step itself, one ulp up */
        st = tamper_method(path, "h_step", "0x1.cac083126e979p-8");
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "h_step"), "%s: h_step edited: %d %s", rn,
              (int)st, dvc_error_message());
        /* the embedded problem's h, its digest recomputed: another grid */
        {
            json_t *root = load_json(path), *p = json_object_get(root, "problem");
            json_object_set_new(p, "h", json_string("0.00701"));
            put_digest(root, "problem_digest", p);
            st = verify_edited(root);
            CHECK(st == DVC_NOT_CERTIFIED, "%s: embedded h edited: %d %s", rn, (int)st, dvc_error_message());
        }
        /* the last time label */
        {
            json_t *root = load_json(path), *s90 = json_array_get(json_object_get(root, "steps"), 90);
            REQUIRE(s90 && strcmp(json_string_value(json_object_get(s90, "t")), "0.625") == 0, "%s: label of T",
                    rn);
            json_object_set_new(s90, "t", json_string("0.63"));
            st = verify_edited(root);
            CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "field 't'"), "%s: label of T edited: %s",
                  rn, dvc_error_message());
        }
    }
    mpfr_clear(hd);
    unlink(prob);
    unlink(path);
}

/* Scaled certificates (docs/bounds.md, "Scaling of the state") of the wall
 * in SI units (tests/data/scale/wall.json): built in memory (both routes'
 * writers are exercised by tests/cli/scale.sh), the state scale stated and
 * held by the tube, the closed-form state at T (tests/gen_traj.c "wall",
 * 256 bits: x(T) = (-0.11562547329900858, -3.4230802848009138)) inside the
 * per-state radii s_j eps_x^N, verify accepting it in memory and from the
 * file, and rejecting an edited scale with the digest recomputed. */
static void test_scale(const char *certs)
{
    char problem[4096], sc[64];
    dvc_cert_t c, d;
    dvc_status st;
    static const double xT[2] = {-0.11562547329900858, -3.4230802848009138};
    snprintf(problem, sizeof problem, "%s/../tests/data/scale/wall.json", certs);
    dvc_cert_init(c);
    st = enclose_cw(c, problem, NULL, 0, 0, 0);
    REQUIRE(st == DVC_OK, "enclose the wall: %s", dvc_error_message());
    REQUIRE(c->tube->x_scale != NULL, "the wall's tube is scaled");
    snprintf(sc, sizeof sc, "%s", dvc_cert_claim_text(&c->method, "x_scale_log2"));
    CHECK(c->tube->x_scale[0] == 1 && (c->tube->x_scale[1] == 128 || c->tube->x_scale[1] == 256) &&
              (strcmp(sc, "0,7") == 0 || strcmp(sc, "0,8") == 0),
          "scale (%g, %g), stated '%s'", c->tube->x_scale[0], c->tube->x_scale[1], sc);
    {
        mpfr_t lo[2], hi[2];
        mpfr_t e1;
        long N = c->N;
        for (int j = 0; j < 2; j++) mpfr_inits2(53, lo[j], hi[j], (mpfr_ptr)0);
        mpfr_init2(e1, 53);
        dvc_tube_grid(lo, hi, c->tube, N, 0);
        for (int j = 0; j < 2; j++)
            CHECK(mpfr_cmp_d(lo[j], xT[j]) < 0 && mpfr_cmp_d(hi[j], xT[j]) > 0,
                  "x%d(T) = %.17g inside [%g, %g]", j + 1, xT[j], mpfr_get_d(lo[j], MPFR_RNDD),
                  mpfr_get_d(hi[j], MPFR_RNDU));
        /* the velocity's edge is s_2 eps_x from the predictor, x1's eps_x */
        mpfr_sub_d(e1, hi[1], c->tube->x[N * 2 + 1], MPFR_RNDU);
        CHECK(mpfr_cmp_d(e1, 0.5 * c->tube->x_scale[1] * mpfr_get_d(&c->tube->eps_x[N]->right, MPFR_RNDU)) > 0,
              "x2 radius is s_2 eps_x");
        for (int j = 0; j < 2; j++) mpfr_clears(lo[j], hi[j], (mpfr_ptr)0);
        mpfr_clear(e1);
    }
    st = dvc_cert_verify(c);
    CHECK(st == DVC_OK, "in-memory verify of the scaled certificate: %s", dvc_error_message());
    REQUIRE(dvc_cert_write(c, tmpfile_) == DVC_OK, "write: %s", dvc_error_message());
    dvc_cert_init(d);
    REQUIRE(dvc_cert_read(d, tmpfile_) == DVC_OK, "read: %s", dvc_error_message());
    CHECK(d->tube->x_scale && d->tube->x_scale[0] == c->tube->x_scale[0] &&
              d->tube->x_scale[1] == c->tube->x_scale[1],
          "the scale read back");
    CHECK(dvc_cert_verify(d) == DVC_OK, "verify the file: %s", dvc_error_message());
    dvc_cert_clear(d);
    dvc_cert_clear(c);
    {
        /* another scale, or the same ratios shifted, or none: rejected */
        static const char *const edits[] = {"0,5", "1,8", "0,9", NULL};
        for (int k = 0; k < 4; k++) {
            json_t *root = load_json(tmpfile_), *m = json_object_get(root, "method");
            if (edits[k]) json_object_set_new(m, "x_scale_log2", json_string(edits[k]));
            else json_object_del(m, "x_scale_log2");
            st = verify_edited(root);
            CHECK(st == DVC_NOT_CERTIFIED && (!edits[k] || strstr(dvc_error_message(), "x_scale_log2")) &&
                      !strstr(dvc_error_message(), "digest"),
                  "scale edited to %s (digest recomputed): %d: %s", edits[k] ? edits[k] : "none", (int)st,
                  dvc_error_message());
        }
    }
}

/* A point of a streamed grid certificate: counts the points at which
 * neither the problem's text nor the tube holds the grid's times. */
static dvc_status grid_not_held(const dvc_cert_t c, long i, void *ctx)
{
    (void)i;
    if (c->grid_rd && c->problem_json && !strstr(c->problem_json, "\"grid\":[") &&
        strstr(c->problem_json, "\"grid\":\"\\u0001dvicert:grid\"") && c->tube->t_window)
        ++*(long *)ctx;
    return DVC_OK;
}

/* A trajectory on its own non-uniform times (enclose --from): the
 * embedded problem states them ('grid'), the tube holds them and the step
 * labels are those times; verify accepts the file and rejects a grid time
 * moved by one ulp and a lowered bound (digests recomputed). */
static void test_time_grid(void)
{
    char prob[64], csv[64], path[64];
    FILE *f;
    int fd;
    double t = 0, x = 0, v = 1;
    long N = 0;
    dvc_cert_t c;
    dvc_status st;
    dvc_enclose_opts ro;
    dvc_enclose_opts_init(&ro);
    ro.route = DVC_ENCLOSE_LOGNORM;
    snprintf(prob, sizeof prob, "/tmp/dvc_test_tg_p.XXXXXX");
    snprintf(csv, sizeof csv, "/tmp/dvc_test_tg_t.XXXXXX");
    snprintf(path, sizeof path, "/tmp/dvc_test_tg_c.XXXXXX");
    REQUIRE((fd = mkstemp(prob)) >= 0 && close(fd) == 0, "mkstemp");
    REQUIRE((fd = mkstemp(csv)) >= 0 && close(fd) == 0, "mkstemp");
    REQUIRE((fd = mkstemp(path)) >= 0 && close(fd) == 0, "mkstemp");
    f = fopen(prob, "w");
    REQUIRE(f != NULL, "write %s", prob);
    fputs("{\"A\": [[0, 1], [-4, 0]], \"B\": [[0], [-1]], \"f\": [\"0\", \"sin(4*t)\"], \"Q\": [[3, 0]], "
          "\"M\": [[1]], \"l\": [0], \"u\": [\"inf\"], \"x0\": [0, 1], \"T\": 1, \"N\": 1000}\n", f);
    REQUIRE(fclose(f) == 0, "write %s", prob);
    /* explicit Euler steps of 1e-3 and 2e-3 in turn (the accuracy does not
     * matter here), the last one landing on T = 1 */
    f = fopen(csv, "w");
    REQUIRE(f != NULL, "write %s", csv);
    fprintf(f, "t,x1,x2\n%.17g,%.17g,%.17g\n", t, x, v);
    while (t < 1) {
        double h = N % 2 ? 2e-3 : 1e-3, t1 = t + h > 1 - 5e-4 ? 1.0 : t + h, y = fmax(0.0, -3 * x);
        double x1 = x + (t1 - t) * v, v1 = v + (t1 - t) * (-4 * x - y + sin(4 * t));
        t = t1, x = x1, v = v1, N++;
        fprintf(f, "%.17g,%.17g,%.17g\n", t, x, v);
    }
    REQUIRE(fclose(f) == 0, "write %s", csv);
    ro.from = csv;
    dvc_cert_init(c);
    st = dvc_enclose(c, prob, &ro, path, NULL);
    REQUIRE(st == DVC_OK, "grid: enclose --from: %s", dvc_error_message());
    CHECK(!c->from_uniform && c->from_end == 1.0 && c->N == N, "grid: %ld steps (expected %ld)", c->N, N);
    /* written to a file: the times are the file's, not the window's */
    CHECK(c->tube->t == NULL && c->from_hmin > 0 && c->from_hmin < c->from_hmax && c->from_hmax <= 3e-3,
          "grid: streamed, steps %g to %g", c->from_hmin, c->from_hmax);
    dvc_cert_clear(c);
    REQUIRE(load(c, path), "grid: read");
    CHECK(c->N == N && c->tube->t != NULL, "grid: the tube holds the times");
    CHECK(dvc_cert_verify(c) == DVC_OK, "grid: verify: %s", dvc_error_message());
    dvc_cert_clear(c);
    {
        /* read step by step: the grid's times are read on demand from the
         * file, never held (the embedded problem's text states the
         * placeholder while the stream runs, the tube no times array) */
        long held = 0;
        dvc_cert_init(c);
        st = dvc_cert_stream(c, path, 1, grid_not_held, &held);
        CHECK(st == DVC_OK && held == N + 1, "grid: streamed verify: %d %ld %s", (int)st, held,
              st == DVC_OK ? "" : dvc_error_message());
        dvc_cert_clear(c);
    }
    CHECK(verify_edited(load_json(path)) == DVC_OK, "grid: untouched: %s", dvc_error_message());
    {
        json_t *root = load_json(path), *p = json_object_get(root, "problem"), *g = json_object_get(p, "grid");
        json_t *s5 = json_array_get(json_object_get(root, "steps"), 5);
        double t5 = 0;
        char hx[40];
        REQUIRE(json_is_array(g) && (long)json_array_size(g) == N + 1 && !json_object_get(p, "N"),
                "grid: the embedded problem states the times, no N");
        sscanf(json_string_value(json_array_get(g, 5)), "%la", &t5);
        CHECK(s5 && strtod(json_string_value(json_object_get(s5, "t")), NULL) == t5, "grid: label of step 5");
        snprintf(hx, sizeof hx, "%a", nextafter(t5, 2.0));
        json_array_set_new(g, 5, json_string(hx));
        put_digest(root, "problem_digest", p);
        st = verify_edited(root);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "step 5, field 't'"),
              "grid: a time moved by one ulp: %d %s", (int)st, dvc_error_message());
    }
    {
        json_t *root = load_json(path), *s = json_array_get(json_object_get(root, "steps"), N / 2);
        REQUIRE(s != NULL, "grid: step N/2");
        json_object_set_new(s, "eps_x", json_string("1e-30"));
        st = verify_edited(root);
        CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "eps_x"), "grid: eps_x lowered: %d %s",
              (int)st, dvc_error_message());
    }
    unlink(prob);
    unlink(csv);
    unlink(path);
}

/* dvc_cert_open: every kind of certificate opened the same way, as a tube
 * with its kind, verified when asked. */
static void test_open(const char *certs)
{
    static const struct {
        const char *file;
        dvc_cert_kind kind;
    } cases[] = {{"remark43/x0_1.cert.json", DVC_CERT_KIND_DLVI},
                 {"bridge-switched/bridge-switched.cert.json", DVC_CERT_KIND_HYBRID}};
    char path[4096];
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        dvc_tube_t tb;
        dvc_cert_kind kind = 0;
        dvc_status st;
        snprintf(path, sizeof path, "%s/%s", certs, cases[k].file);
        CHECK(dvc_cert_file_kind(path) == cases[k].kind, "%s: file kind", cases[k].file);
        dvc_tube_init(tb);
        st = dvc_cert_open(tb, &kind, path, 1);
        CHECK(st == DVC_OK, "%s: open and verify: %s", cases[k].file, dvc_error_message());
        CHECK(kind == cases[k].kind, "%s: kind %d", cases[k].file, (int)kind);
        CHECK(st != DVC_OK || (tb->N >= 1 && tb->steps == tb->N && tb->n >= 1),
              "%s: a tube of every step", cases[k].file);
        if (st == DVC_OK) {
            /* the tube at T encloses the stated grid bounds there */
            dvc_ivec_t X;
            dvc_ivec_init2(X, tb->n, tb->prec);
            CHECK(dvc_tube_outer(X, tb, tb->T, 0) == DVC_OK, "%s: tube at T: %s", cases[k].file,
                  dvc_error_message());
            dvc_ivec_clear(X);
        }
        dvc_tube_clear(tb);
    }
}

int main(int argc, char **argv)
{
    char path[4096];
    REQUIRE(argc >= 2, "usage: test_cert CERTS_DIR");
    {
        int fd;
        snprintf(tmpfile_, sizeof tmpfile_, "/tmp/dvc_test_cert.XXXXXX");
        fd = mkstemp(tmpfile_);
        REQUIRE(fd >= 0, "mkstemp");
        close(fd);
        snprintf(tmpfile2_, sizeof tmpfile2_, "/tmp/dvc_test_cert2.XXXXXX");
        fd = mkstemp(tmpfile2_);
        REQUIRE(fd >= 0, "mkstemp");
        close(fd);
    }
    test_open(argv[1]);
    test_last_step(argv[1]);
    test_time_grid();
    test_scale(argv[1]);
    test_slack(argv[1]);
    test_retry();
    test_lognorm_tamper(argv[1]);
    snprintf(path, sizeof path, "%s/remark43/x0_1.cert.json", argv[1]);

    /* control: the stored certificate, re-digested without an edit */
    CHECK(verify_edited(load_json(path)) == DVC_OK, "untouched certificate: %s", dvc_error_message());

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
            json_t *root = load_json(path), *obj = json_object_get(root, what[k][0]);
            REQUIRE(json_is_string(json_object_get(obj, what[k][1])), "has %s", what[k][1]);
            CHECK(strcmp(json_string_value(json_object_get(obj, what[k][1])), what[k][2]) != 0,
                  "the edit changes %s", what[k][1]);
            json_object_set_new(obj, what[k][1], json_string(what[k][2]));
            dvc_status st = verify_edited(root);
            CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), what[k][1]) != NULL,
                  "edited '%s' accepted (%d): %s", what[k][1], (int)st, dvc_error_message());
        }
    }
    test_ybox(argv[1]);
    test_tamper_steps(argv[1]);
    test_labels(argv[1]);
    test_memory(argv[1]);
    test_notes(argv[1]);
    test_width_claims(argv[1]);
    remove(tmpfile_);
    remove(tmpfile2_);
    mpfr_free_cache();
    return check_report();
}
