/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Problem reader, then (small problems) enclose and re-verify: a problem
 * that loads is good input, so the run certifies or says why not, a
 * certificate just made verifies, and a suggested N is an admissible one. */
#include "dvicert/dvicert.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "problem.json");
    dvc_dlvi_problem_t p;
    json_t *resolved = NULL;
    dvc_status st;
    int small;

    dvc_prec_set(53);
    dvc_dlvi_problem_init(p);
    st = dvc_problem_load(p, &resolved, path, 0);
    /* keep one input fast */
    small = st == DVC_OK && p->N <= 64 && p->n <= 6 && p->m <= 6 && p->prec <= 256;
    dvc_problem_clear(p);
    json_decref(resolved);
    if (small) {
        dvc_cert_t c;
        const char *s;
        dvc_cert_init(c);
        st = dvc_cert_enclose(c, path, 0, 0);
        FUZZ_ASSERT(st == DVC_OK || st == DVC_NOT_CERTIFIED,
                    "enclose of a problem that loads returned %s: %s", dvc_status_name(st),
                    dvc_error_message());
        s = strstr(dvc_error_message(), "use N >= ");
        if (st == DVC_NOT_CERTIFIED && s) {
            long k = strtol(s + 9, NULL, 10);
            FUZZ_ASSERT(k >= 1 && k <= 100000000, "suggested N outside [1, 1e8]: %s",
                        dvc_error_message());
        }
        if (st == DVC_OK) {
            st = dvc_cert_verify(c);
            FUZZ_ASSERT(st == DVC_OK, "a fresh certificate is rejected (%s): %s",
                        dvc_status_name(st), dvc_error_message());
        }
        dvc_cert_clear(c);
    }
    return 0;
}
