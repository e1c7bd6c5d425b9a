/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The engine's revision 2 (docs/hybrid.md sections 2-3: the Lohner frame's
 * inverse by the binary64 kernel, dvc_imat_inv_d_; forcing remainders
 * reused over shorter spans) and the certificate key that records it:
 *  - on random point matrices (uniform, orthonormal frames, graded rows,
 *    nearly singular, singular), at 64 and 113 bits, the enclosure must
 *    contain the inverse computed at 256 bits by the MPFR route (whose
 *    width is about 2^-250 relative); a point result (the negative
 *    control) must fail that check in most cases;
 *  - certificates made before method.revision existed (tests/data/legacy/)
 *    still verify, which they only do when verify remakes them with
 *    revision 1: the same certificate claiming revision 2 is rejected by
 *    recomputation;
 *  - a new run states revision 2, verifies, and its tube meets the legacy
 *    tube at every grid point with widths within 1 + 1e-6 of it;
 *  - a revision this dvicert does not know is refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dvicert/dvicert.h"
#include "dvicert/hybrid_cert.h"
#include "imat_dd.h"

#define NCASES 400

/* a (n x n doubles) of kind k: 0 uniform, 1 orthonormal, 2 graded rows,
 * 3 nearly singular (a row almost a multiple of another), 4 singular */
static void random_matrix(double *a, long n, int k, check_rng *r)
{
    for (long t = 0; t < n * n; t++) a[t] = check_rng_unif(r, -1, 1);
    if (k == 1) { /* modified Gram-Schmidt, as the engine's frames */
        for (long j = 0; j < n; j++) {
            for (long q = 0; q < j; q++) {
                double d = 0;
                for (long i = 0; i < n; i++) d += a[i * n + q] * a[i * n + j];
                for (long i = 0; i < n; i++) a[i * n + j] -= d * a[i * n + q];
            }
            double s = 0;
            for (long i = 0; i < n; i++) s += a[i * n + j] * a[i * n + j];
            s = sqrt(s);
            for (long i = 0; i < n; i++) a[i * n + j] /= s;
        }
    } else if (k == 2) {
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) a[i * n + j] = ldexp(a[i * n + j], (int)(3 * i - n));
    } else if (k >= 3 && n >= 2) {
        double eps = k == 3 ? ldexp(1.0, -(int)check_rng_int(r, 20, 45)) : 0;
        for (long j = 0; j < n; j++) a[(n - 1) * n + j] = 2 * a[j] + (j == 0 ? eps : 0);
    }
}

static long outside_ref(const dvc_imat_t X, const dvc_imat_t ref)
{
    long bad = 0;
    for (long t = 0; t < X->r * X->c; t++) bad += !mpfi_is_inside(ref->e[t], X->e[t]);
    return bad;
}

static void random_inverses(void)
{
    check_rng r = {20261128};
    long tested = 0, control_failed = 0, fallback = 0;
    for (int c = 0; c < NCASES; c++) {
        long n = check_rng_int(&r, 1, 30);
        int kind = (int)check_rng_int(&r, 0, 4);
        mpfr_prec_t prec = c % 3 == 2 ? 113 : 64;
        double *a = malloc((size_t)(n * n) * sizeof *a);
        random_matrix(a, n, kind, &r);
        dvc_imat_t X, A, ref;
        dvc_imat_init2(X, n, n, prec);
        dvc_imat_init2(A, n, n, 256);
        dvc_imat_init2(ref, n, n, 256);
        dvc_imat_set_d(A, a);
        dvc_status st = dvc_imat_inv_d_(X, a);
        dvc_status sr = dvc_imat_inv(ref, A);
        dvc_error_reset();
        if (st == DVC_OK) {
            CHECK(dvc_imat_is_finite(X), "case %d: a non-finite enclosure", c);
            if (sr == DVC_OK) {
                long bad = outside_ref(X, ref);
                CHECK(bad == 0, "case %d (n = %ld, kind %d, %ld bits): %ld entries miss the 256-bit "
                      "inverse", c, n, kind, (long)prec, bad);
                tested++;
                /* negative control: the midpoints alone must be caught */
                dvc_imat_t Y;
                mpfr_t m;
                dvc_imat_init2(Y, n, n, prec);
                mpfr_init2(m, prec);
                for (long t = 0; t < n * n; t++) {
                    mpfi_mid(m, X->e[t]);
                    mpfi_set_fr(Y->e[t], m);
                }
                control_failed += outside_ref(Y, ref) > 0;
                mpfr_clear(m);
                dvc_imat_clear(Y);
            }
        } else {
            CHECK(kind >= 3 || n == 1, "case %d (n = %ld, kind %d): refused a regular matrix: %s", c,
                  n, kind, dvc_status_name(st));
            fallback++;
        }
        if (kind == 4 && n >= 2) CHECK(st != DVC_OK, "case %d: a singular matrix inverted", c);
        dvc_imat_clear(X);
        dvc_imat_clear(A);
        dvc_imat_clear(ref);
        free(a);
    }
    CHECK(tested >= NCASES / 2, "only %ld cases compared", tested);
    CHECK(control_failed >= tested * 9 / 10, "the point control escaped in %ld of %ld cases",
          tested - control_failed, tested);
    printf("binary64 frame inverse: %ld cases inside the 256-bit inverse, %ld refused "
           "(singular or nearly), point control caught in %ld\n", tested, fallback, control_failed);
}

static const char *const legacy[] = {"bridge-switched", "circuit-events", "stickslip"};

/* Grid point i of a and b meet, and each width of b is within 1 + 1e-6 of a's. */
static void same_tube(const dvc_hybrid_result_struct *a, const dvc_hybrid_result_struct *b,
                      const char *what)
{
    long apart = 0, wider = 0;
    CHECK(a->nsteps == b->nsteps, "%s: %ld vs %ld steps", what, a->nsteps, b->nsteps);
    for (long i = 0; i <= a->nsteps && i <= b->nsteps; i++)
        for (long j = 0; j < a->x[i]->n; j++) {
            mpfi_srcptr u = a->x[i]->e[j], v = b->x[i]->e[j];
            apart += mpfr_cmp(&u->right, &v->left) < 0 || mpfr_cmp(&v->right, &u->left) < 0;
            double wu = mpfr_get_d(&u->right, MPFR_RNDU) - mpfr_get_d(&u->left, MPFR_RNDD);
            double wv = mpfr_get_d(&v->right, MPFR_RNDU) - mpfr_get_d(&v->left, MPFR_RNDD);
            wider += wv > wu * (1 + 1e-6) + 1e-300;
        }
    CHECK(apart == 0, "%s: %ld enclosures disjoint from the legacy tube's", what, apart);
    CHECK(wider == 0, "%s: %ld enclosures wider than the legacy tube's by more than 1e-6", what, wider);
}

static void legacy_certificates(const char *data, const char *certs, const char *tmpdir)
{
    char path[1024], tmp[1024], model[1024];
    for (size_t k = 0; k < sizeof legacy / sizeof *legacy; k++) {
        dvc_hybrid_cert_t c, d;
        dvc_hybrid_cert_init(c);
        dvc_hybrid_cert_init(d);
        snprintf(path, sizeof path, "%s/legacy/%s.cert.json", data, legacy[k]);
        REQUIRE(dvc_hybrid_cert_read(c, path) == DVC_OK, "%s: %s", path, dvc_error_message());
        CHECK(c->revision == 1 && c->model->revision == 1, "%s: read as revision %d", legacy[k],
              c->revision);
        dvc_status st = dvc_hybrid_cert_verify(c, NULL);
        CHECK(st == DVC_OK, "%s: legacy certificate rejected: %s", legacy[k], dvc_error_message());
        /* the same file claiming revision 2: verify remakes it so */
        c->revision = DVC_HYBRID_REVISION;
        snprintf(tmp, sizeof tmp, "%s/frame_%s.cert.json", tmpdir, legacy[k]);
        REQUIRE(dvc_hybrid_cert_write(c, tmp) == DVC_OK, "write: %s", dvc_error_message());
        REQUIRE(dvc_hybrid_cert_read(d, tmp) == DVC_OK, "read back: %s", dvc_error_message());
        CHECK(d->revision == DVC_HYBRID_REVISION && d->model->revision == DVC_HYBRID_REVISION,
              "%s: the key was not read back", legacy[k]);
        st = dvc_hybrid_cert_verify(d, NULL);
        if (k <= 1) /* their tubes are tighter than revision 2 gives */
            CHECK(st == DVC_NOT_CERTIFIED && strstr(dvc_error_message(), "contain"),
                  "%s claiming revision 2: %s (%s)", legacy[k], dvc_status_name(st), dvc_error_message());
        printf("legacy %s: accepted; claiming revision 2: %s\n", legacy[k],
               st == DVC_OK ? "accepted (equal bits at 17 digits)" : dvc_error_message());
        dvc_error_reset();
        remove(tmp);
        dvc_hybrid_cert_clear(d);
        if (k != 1) { /* a new run of the same model */
            dvc_hybrid_cert_init(d);
            snprintf(model, sizeof model, "%s/%s/%s.json", certs, legacy[k], legacy[k]);
            REQUIRE(dvc_hybrid_cert_enclose(d, model, 53) == DVC_OK, "%s: %s", model,
                    dvc_error_message());
            CHECK(d->revision == DVC_HYBRID_REVISION, "%s: a new run states %d", legacy[k],
                  d->revision);
            same_tube(c->res, d->res, legacy[k]);
            dvc_hybrid_cert_clear(d);
        }
        dvc_hybrid_cert_clear(c);
    }
}

static void bad_key(const char *data, const char *tmpdir)
{
    char path[1024], tmp[1024];
    snprintf(path, sizeof path, "%s/legacy/stickslip.cert.json", data);
    snprintf(tmp, sizeof tmp, "%s/frame_badkey.cert.json", tmpdir);
    FILE *in = fopen(path, "r"), *out = fopen(tmp, "w");
    REQUIRE(in && out, "open %s, %s", path, tmp);
    char line[1 << 16];
    while (fgets(line, sizeof line, in)) {
        char *h = strstr(line, "\"h\":");
        if (strncmp(line, "  \"method\":", 11) == 0 && h) {
            fwrite(line, 1, (size_t)(h - line), out);
            fputs("\"revision\":3,", out);
            fputs(h, out);
        } else {
            fputs(line, out);
        }
    }
    fclose(in);
    fclose(out);
    dvc_hybrid_cert_t c;
    dvc_hybrid_cert_init(c);
    dvc_status st = dvc_hybrid_cert_read(c, tmp);
    CHECK(st == DVC_ERR_INPUT && strstr(dvc_error_message(), "method.revision"),
          "an unknown revision: %s (%s)", dvc_status_name(st), dvc_error_message());
    dvc_error_reset();
    dvc_hybrid_cert_clear(c);
    remove(tmp);
}

int main(int argc, char **argv)
{
    REQUIRE(argc == 4, "usage: test_revision DATA_DIR CERTS_DIR TMP_DIR");
    random_inverses();
    legacy_certificates(argv[1], argv[2], argv[3]);
    bad_key(argv[1], argv[3]);
    return check_report();
}
