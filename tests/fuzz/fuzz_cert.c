/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate reader, then re-verification of small certificates. The
 * stored digests are replaced by those of the text as read (checksums, not
 * signatures: anyone can recompute them), so any edit reaches the
 * recomputation, which alone must reject a false bound. */
#include "dvicert/dvicert.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "c.cert.json");
    dvc_cert_t c;
    dvc_status st;

    dvc_prec_set(53);
    dvc_cert_init(c);
    st = dvc_cert_read(c, path);
    /* keep one input fast */
    if (st == DVC_OK && c->N <= 64 && c->n <= 6 && c->m <= 6 && c->prec <= 256 &&
        dvc_problem_digest(c->problem_digest, c->problem) == DVC_OK) {
        json_t *rest = json_copy(c->root); /* the digest covers all but itself */
        json_object_del(rest, "digest");
        if (dvc_problem_digest(c->digest, rest) != DVC_OK) abort();
        json_decref(rest);
        st = dvc_cert_verify(c);
        FUZZ_ASSERT(st == DVC_OK || st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT,
                    "verify returned %s: %s", dvc_status_name(st), dvc_error_message());
    }
    dvc_cert_clear(c);
    return 0;
}
