/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Trajectory reader and check against a small certificate (Remark 4.3,
 * n = 1, m = 2, T = 0.5, N = 20), made once at start-up. */
#include "dvicert/dvicert.h"
#include "fuzz_util.h"
#include "../enclose_call.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char problem[] =
    "{\"A\": [[-1]], \"B\": [[2, -1]], \"f\": [\"-2\"], \"Q\": [[-1], [1]],"
    " \"M\": [[1, 0], [10, 1]], \"l\": [0, 0], \"u\": [\"inf\", \"inf\"],"
    " \"x0\": [1], \"T\": \"0.5\", \"N\": 20, \"theta\": 1}";
static dvc_cert_t cert;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *path = fuzz_file((const uint8_t *)problem, sizeof problem - 1, "problem.json");
    (void)argc;
    (void)argv;
    dvc_cert_init(cert);
    if (enclose_cw(cert, path, NULL, 53, 0, 0) != DVC_OK) {
        fprintf(stderr, "fuzz_traj: cannot make the certificate: %s\n", dvc_error_message());
        abort();
    }
    unlink(path);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "traj.csv");
    dvc_traj_t tr;
    dvc_traj_report rep;
    dvc_status st;

    dvc_prec_set(53);
    dvc_traj_init(tr);
    st = dvc_traj_read(tr, path, cert->n, cert->m, cert->tube->T);
    fuzz_note("read", st);
    if (st == DVC_OK) {
        st = dvc_traj_check(&rep, tr, cert->tube, -1);
        fuzz_note("check", st);
        if (st == DVC_OK) dvc_traj_report_clear(&rep);
    }
    dvc_traj_clear(tr);
    return 0;
}
