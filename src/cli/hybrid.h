/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* What stays hybrid-specific in the CLI: enclose of a hybrid model
 * (dvc_hybrid_file_kind), the options it refuses, and the whole reading of
 * a hybrid certificate that export uses. Arguments and exit codes as the
 * command's. */
#ifndef DVC_CLI_HYBRID_H
#define DVC_CLI_HYBRID_H

#include "cli.h"

int dvc_cli_hybrid_enclose(const dvc_cli_args *a);
/* Widths for the reports, rounded up: of an interval, and the largest of
 * a vector's. */
double dvc_cli_width(const mpfi_t x);
double dvc_cli_vec_width(const dvc_ivec_t x);
/* A hybrid certificate path read into c and, when verify, verified (rec
 * the recomputed result, have_rec = 1); unread: the reading failed. The
 * reading function of the verified-certificate cache (cache.h). */
typedef struct {
    dvc_hybrid_cert_struct *c;
    dvc_hybrid_result_struct *rec;
    const char *path;
    int unread, have_rec;
} dvc_cli_hybrid_load;
dvc_status dvc_cli_hybrid_read(void *ctx, int verify);

/* A hybrid certificate read and, unless verify is 0, verified (rec then
 * holds the recomputed result, *have_rec = 1; verify 2: without the
 * verified-certificate cache, cache.h, which otherwise may skip the
 * recomputation: *have_rec = 0), then the output out opened:
 * nothing is written before the certificate is accepted. Returns -1 when
 * both worked, else the exit code (message printed; nothing names what is
 * not produced). */
int dvc_cli_hybrid_load_for_output(dvc_hybrid_cert_t c, dvc_hybrid_result_t rec, int *have_rec,
                                   dvc_outfile *of, const char *cmd, const char *in, const char *out,
                                   int verify, FILE *rep, const char *nothing);
/* 1 (message printed) when an option of names is given: the DLVI path's
 * options that mean nothing for a hybrid model. */
/* --max-steps N and --max-seconds S (0: none) into *max_steps and
 * *max_seconds, left as they are when not given: the budgets of the hybrid
 * engine (hybrid models and the events route). Returns 0, else the exit
 * code (message printed). */
int dvc_cli_hybrid_budget(const dvc_cli_args *a, const char *cmd, long *max_steps,
                          double *max_seconds);
int dvc_cli_hybrid_refuse(const dvc_cli_args *a, const char *cmd, const char *const *names);

#endif
