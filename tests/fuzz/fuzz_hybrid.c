/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid model and hybrid certificate readers (`dvicert enclose MODEL.json`,
 * `dvicert verify HYBRID.cert.json`): any bytes give a model or a clear
 * input error, never a crash, a leak or undefined behaviour; a model that
 * loads keeps its promises (n >= 1, an initial mode, T above t0). The
 * input is read as a model, then as a certificate, and the kind probe that
 * `dvicert` runs first sees it too. The engine itself is not run here: its
 * time depends on T and the step, which the input chooses (the test suite
 * runs it on the examples, the corpus holds their models and
 * certificates). */
#include "dvicert/dvicert.h"
#include "dvicert/hybrid.h"
#include "dvicert/hybrid_cert.h"
#include "io/hybrid_json.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "hybrid.json");
    dvc_hybrid_model_t m;
    dvc_hybrid_cert_t c;
    dvc_status st;
    int kind = dvc_hybrid_file_kind(path);
    FUZZ_ASSERT(kind >= 0 && kind <= 2, "file kind %d", kind);
    st = dvc_hybrid_load(m, path, 0);
    fuzz_note("model", st);
    FUZZ_ASSERT(st == DVC_OK || st == DVC_ERR_INPUT || st == DVC_ERR_IO,
                "model reader returned %s: %s", dvc_status_name(st), dvc_error_message());
    if (st == DVC_OK) {
        FUZZ_ASSERT(m->n >= 1 && m->nmodes >= 1 && m->mode0 >= 0 && m->mode0 < m->nmodes,
                    "a loaded model without states or an initial mode");
        FUZZ_ASSERT(mpfr_cmp(m->t0, m->T) < 0, "a loaded model with T <= t0");
    }
    dvc_hybrid_model_clear(m);
    dvc_error_reset();
    dvc_hybrid_cert_init(c);
    st = dvc_hybrid_cert_read(c, path);
    fuzz_note("certificate", st);
    FUZZ_ASSERT(st == DVC_OK || st == DVC_ERR_INPUT || st == DVC_ERR_IO,
                "certificate reader returned %s: %s", dvc_status_name(st), dvc_error_message());
    dvc_hybrid_cert_clear(c);
    dvc_error_reset();
    return 0;
}
