/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate reader, then re-verification of small certificates. The
 * stored digests are replaced by those the reader recomputed from the text
 * as read (checksums, not signatures: anyone can recompute them), so any
 * edit reaches the recomputation, which alone must reject a false bound. Oracle: the tube
 * of an accepted certificate meets, at every grid point, the tube that
 * enclose makes afresh for its embedded problem (both hold x(t_i), y(t_i)). */
#include "dvicert/dvicert.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_solution(const dvc_cert_t c)
{
    const char *path = fuzz_file((const uint8_t *)c->problem_json, strlen(c->problem_json),
                                 "embedded.json");
    long k = c->n > c->m ? c->n : c->m;
    mpfr_t *lo = malloc(4 * (size_t)k * sizeof *lo), *hi = lo + k, *lo2 = hi + k, *hi2 = lo2 + k;
    dvc_cert_t f;

    for (long j = 0; j < 4 * k; j++) mpfr_init2(lo[j], c->prec);
    dvc_cert_init(f);
    if (dvc_cert_enclose(f, path, c->prec, c->sharpen) == DVC_OK && f->N == c->N)
        for (long i = 0; i <= c->N; i++)
            for (int which = 0; which < (c->m ? 2 : 1); which++) {
                dvc_tube_grid(lo, hi, c->tube, i, which);
                dvc_tube_grid(lo2, hi2, f->tube, i, which);
                for (long j = 0; j < (which ? c->m : c->n); j++)
                    FUZZ_ASSERT(mpfr_lessequal_p(lo[j], hi2[j]) && mpfr_lessequal_p(lo2[j], hi[j]),
                                "accepted certificate misses the fresh tube at step %ld, %s%ld",
                                i, which ? "y" : "x", j + 1);
            }
    dvc_cert_clear(f);
    unlink(path);
    for (long j = 0; j < 4 * k; j++) mpfr_clear(lo[j]);
    free(lo);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "c.cert.json");
    dvc_cert_t c;
    dvc_status st;

    dvc_prec_set(53);
    dvc_cert_init(c);
    st = dvc_cert_read(c, path);
    fuzz_note("read", st);
    /* keep one input fast */
    if (st == DVC_OK && c->N <= 64 && c->n <= 6 && c->m <= 6 && c->prec <= 256) {
        memcpy(c->problem_digest, c->problem_digest_read, sizeof c->problem_digest);
        memcpy(c->digest, c->digest_read, sizeof c->digest);
        st = dvc_cert_verify(c);
        FUZZ_ASSERT(st == DVC_OK || st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT,
                    "verify returned %s: %s", dvc_status_name(st), dvc_error_message());
        fuzz_note("verify", st);
        if (st == DVC_OK) same_solution(c);
    }
    dvc_cert_clear(c);
    return 0;
}
