/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate readers (whole and streaming), then re-verification of small
 * certificates. The stored digests are replaced by those the reader
 * recomputed from the text as read (checksums, not signatures: anyone can
 * recompute them), so any edit reaches the recomputation, which alone must
 * reject a false bound. Oracle: the tube of an accepted certificate meets,
 * at every grid point, the tube that enclose makes afresh for its embedded
 * problem (both hold x(t_i), y(t_i)) — for the in-memory verification
 * (dvc_cert_read + dvc_cert_verify) and for the streaming one
 * (dvc_cert_stream, what `dvicert verify` runs), whose digests are set in
 * the text itself, since it checks them while reading. */
#include "dvicert/dvicert.h"
#include "fuzz_util.h"
#include "../enclose_call.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fresh tube and scratch for comparing a grid point with it. */
typedef struct {
    dvc_cert_t f;
    long k;
    mpfr_t *lo, *hi, *lo2, *hi2;
    const char *who;
} fresh_t;

static int fresh_init(fresh_t *fr, const dvc_cert_t c)
{
    const char *path = fuzz_file((const uint8_t *)c->problem_json, strlen(c->problem_json),
                                 "embedded.json");
    dvc_status st;
    fr->k = c->n > c->m ? c->n : c->m;
    fr->lo = malloc(4 * (size_t)fr->k * sizeof *fr->lo);
    if (!fr->lo) abort();
    fr->hi = fr->lo + fr->k;
    fr->lo2 = fr->hi + fr->k;
    fr->hi2 = fr->lo2 + fr->k;
    for (long j = 0; j < 4 * fr->k; j++) mpfr_init2(fr->lo[j], c->prec);
    dvc_cert_init(fr->f);
    st = enclose_cw(fr->f, path, NULL, c->prec, 0, c->sharpen);
    unlink(path);
    return st == DVC_OK && fr->f->N == c->N && fr->f->n == c->n && fr->f->m == c->m;
}

static void fresh_clear(fresh_t *fr)
{
    dvc_cert_clear(fr->f);
    for (long j = 0; j < 4 * fr->k; j++) mpfr_clear(fr->lo[j]);
    free(fr->lo);
}

/* Grid point i of the accepted certificate c meets the fresh tube. */
static dvc_status same_point(const dvc_cert_t c, long i, void *ctx)
{
    fresh_t *fr = ctx;
    for (int which = 0; which < (c->m ? 2 : 1); which++) {
        dvc_tube_grid(fr->lo, fr->hi, c->tube, i, which);
        dvc_tube_grid(fr->lo2, fr->hi2, fr->f->tube, i, which);
        for (long j = 0; j < (which ? c->m : c->n); j++)
            FUZZ_ASSERT(mpfr_lessequal_p(fr->lo[j], fr->hi2[j]) &&
                            mpfr_lessequal_p(fr->lo2[j], fr->hi[j]),
                        "%s certificate misses the fresh tube at step %ld, %s%ld", fr->who, i,
                        which ? "y" : "x", j + 1);
    }
    return DVC_OK;
}

/* Replace the 16 hex digits after the occurrence of key (first or last)
 * by hex; 0 when key is not followed by 16 characters. */
static int set_digest(char *text, const char *key, int last, const char *hex)
{
    char *p = strstr(text, key), *q;
    size_t n = strlen(key);
    if (last)
        while (p && (q = strstr(p + 1, key))) p = q;
    if (!p || strlen(p + n) < 16) return 0;
    memcpy(p + n, hex, 16);
    return 1;
}

/* The streaming verification of text with its digests made right: the
 * stated problem digest is the one recomputed by the whole reader, and
 * then the digest of that text. */
static void stream_verify(char *text, const char *problem_digest, fresh_t *fr)
{
    const char *path;
    dvc_cert_t c;
    dvc_status st;
    int ok = set_digest(text, "\"problem_digest\": \"fnv1a64:", 0, problem_digest);
    dvc_cert_init(c);
    if (ok) {
        path = fuzz_file((const uint8_t *)text, strlen(text), "s.cert.json");
        ok = dvc_cert_read(c, path) == DVC_OK &&
             set_digest(text, "\"digest\": \"fnv1a64:", 1, c->digest_read);
    }
    if (ok) {
        path = fuzz_file((const uint8_t *)text, strlen(text), "s.cert.json");
        fr->who = "stream-verified";
        st = dvc_cert_stream(c, path, 1, same_point, fr);
        FUZZ_ASSERT(st == DVC_OK || st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT,
                    "stream verify returned %s: %s", dvc_status_name(st), dvc_error_message());
        fuzz_note("stream verify", st);
    }
    dvc_cert_clear(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "c.cert.json");
    dvc_cert_t c;
    dvc_status st;

    dvc_prec_set(53);
    dvc_cert_init(c);
    /* the streaming reader on the input as it is (the digests of an edited
     * file stop a verification early, not a plain read) */
    st = dvc_cert_stream(c, path, 0, NULL, NULL);
    FUZZ_ASSERT(st == DVC_OK || st == DVC_ERR_INPUT || st == DVC_ERR_IO,
                "stream read returned %s: %s", dvc_status_name(st), dvc_error_message());
    fuzz_note("stream read", st);
    st = dvc_cert_read(c, path);
    fuzz_note("read", st);
    /* keep one input fast */
    if (st == DVC_OK && c->N <= 64 && c->n <= 6 && c->m <= 6 && c->prec <= 256) {
        fresh_t fr;
        int fresh;
        char problem_digest[17];
        memcpy(problem_digest, c->problem_digest_read, sizeof problem_digest);
        memcpy(c->problem_digest, c->problem_digest_read, sizeof c->problem_digest);
        memcpy(c->digest, c->digest_read, sizeof c->digest);
        st = dvc_cert_verify(c);
        FUZZ_ASSERT(st == DVC_OK || st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT,
                    "verify returned %s: %s", dvc_status_name(st), dvc_error_message());
        fuzz_note("verify", st);
        fresh = fresh_init(&fr, c);
        if (fresh && st == DVC_OK) {
            fr.who = "accepted";
            for (long i = 0; i <= c->N; i++) same_point(c, i, &fr);
        }
        if (fresh) {
            char *text = fuzz_str(data, size);
            stream_verify(text, problem_digest, &fr);
            free(text);
        }
        fresh_clear(&fr);
    }
    dvc_cert_clear(c);
    return 0;
}
