/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificate reader, then re-verification of small certificates. The
 * stored problem digest is replaced by the embedded problem's (it is a
 * checksum, not a signature), so edits of the problem reach the
 * recomputation instead of stopping at the digest comparison. */
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
        st = dvc_cert_verify(c);
        FUZZ_ASSERT(st == DVC_OK || st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT,
                    "verify returned %s: %s", dvc_status_name(st), dvc_error_message());
    }
    dvc_cert_clear(c);
    return 0;
}
