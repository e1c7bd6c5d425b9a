/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The LVI and beta readers live in the dvicert command: the input goes
 * through its main (renamed dvicert_cli_main in this build) as
 * `dvicert lvi FILE`, or with -DFUZZ_BETA `dvicert beta FILE` with budgets
 * that keep one input fast. */
#include "dvicert/dvicert.h"
#include "fuzz_util.h"

#ifdef FUZZ_BETA
#define FUZZ_CMD "beta"
#define FUZZ_ARGS "--max-seconds", "1", "--max-nodes", "20000", "--enum-max-m", "10",
#else
#define FUZZ_CMD "lvi"
#define FUZZ_ARGS
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int dvicert_cli_main(int argc, char **argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* results go to stdout; libFuzzer reports on stderr */
    if (!freopen("/dev/null", "w", stdout)) abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *args[] = {"dvicert", FUZZ_CMD, (char *)fuzz_file(data, size, FUZZ_CMD ".json"), FUZZ_ARGS NULL};
    int rc;

    dvc_prec_set(53); /* the command raises it on retries */
    rc = dvicert_cli_main((int)(sizeof args / sizeof args[0]) - 1, args);
    FUZZ_ASSERT(rc >= 0 && rc <= 2, "exit status %d", rc);
    return 0;
}
