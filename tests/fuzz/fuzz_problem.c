/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Problem reader, then (small problems) enclose and re-verify: a problem
 * that loads is good input, so the run certifies or says why not, a
 * certificate just made verifies, and a suggested N is an admissible one.
 * (A problem whose f or g is undefined at a grid time, e.g. log(t) at
 * t = 0, loads and is then bad input for the run.)
 * The input is read as dvicert reads a problem file, with the tables it
 * names confined to its directory: two small tables (table.csv,
 * table.AT2) sit beside it so that seeds naming them reach the table
 * readers, and a FIFO (fifo.csv), which must be refused without blocking. */
#include <sys/stat.h>

#include "dvicert/dvicert.h"
#include "io/problem_json.h"
#include "fuzz_util.h"
#include "../enclose_call.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char table_csv[] = "t,value\n0,0.5\n0.1,-0.25\n0.25,1.75\n0.3, 1.7\n0.7,0\n"
                                "1.1,-3.1\n1.15,2.2\n2,0.001\n";
static const char table_at2[] =
    "PEER NGA STRONG MOTION DATABASE RECORD\n"
    "DVICERT FUZZ RECORD, 1/1/2000, SYNTHETIC STATION, 090\n"
    "ACCELERATION TIME SERIES IN UNITS OF G\n"
    "NPTS=    12, DT=   .1000 SEC\n"
    "  .1000000E-02  -.2500000E-02   .3100000E-01   .1234567E+00  -.5000000E-01\n"
    " -.7700000E-01   .0000000E+00   .1100000E+00   .9999999E-01  -.3000000E-01\n"
    "  .2000000E-01   .1000000E-01\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_file((const uint8_t *)table_csv, sizeof table_csv - 1, "table.csv");
    fuzz_file((const uint8_t *)table_at2, sizeof table_at2 - 1, "table.AT2");
    snprintf(fuzz_path, sizeof fuzz_path, "%s/fifo.csv", fuzz_dir);
    if (mkfifo(fuzz_path, 0600) != 0) {
        perror("fuzz: mkfifo");
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "problem.json");
    dvc_dlvi_problem_t p;
    json_t *resolved = NULL;
    dvc_status st;
    int small;

    dvc_prec_set(53);
    dvc_dlvi_problem_init(p, 0, 0, 0);
    st = dvc_problem_load(p, &resolved, path, 0);
    fuzz_note("load", st);
    /* keep one input fast */
    small = st == DVC_OK && p->N <= 64 && p->n <= 6 && p->m <= 6 && p->prec <= 256;
    int p_grid = st == DVC_OK && p->grid != NULL;
    dvc_dlvi_problem_clear(p);
    json_decref(resolved);
    if (small) {
        dvc_cert_t c;
        const char *s;
        dvc_cert_init(c);
        st = enclose_cw(c, path, NULL, 0, 0, 0);
        /* bad input found only by the run: f or g undefined at a time of
         * the grid (log(t) at t = 0), which the reader cannot see */
        int undefined = st == DVC_ERR_INPUT && (strstr(dvc_error_message(), "field 'f' entry ") ||
                                                strstr(dvc_error_message(), "field 'g' entry "));
        /* a problem with an explicit time grid loads, and the routes that
         * make their own predictor refuse it (only --from certifies it) */
        undefined = undefined || (st == DVC_ERR_INPUT && p_grid && strstr(dvc_error_message(), "field 'grid': refused"));
        FUZZ_ASSERT(st == DVC_OK || st == DVC_NOT_CERTIFIED || undefined,
                    "enclose of a problem that loads returned %s: %s", dvc_status_name(st),
                    dvc_error_message());
        fuzz_note("enclose", st);
        s = strstr(dvc_error_message(), "use N >= ");
        if (st == DVC_NOT_CERTIFIED && s) {
            long k = strtol(s + 9, NULL, 10);
            FUZZ_ASSERT(k >= 1 && k <= DVC_DLVI_N_MAX, "suggested N outside [1, 1e8]: %s",
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
