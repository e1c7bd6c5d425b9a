/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The hybrid-model paths of enclose, verify, check, export and plot: each
 * command calls its path when its input is a hybrid model or certificate
 * (dvc_hybrid_file_kind). Arguments and exit codes as the command's. */
#ifndef DVC_CLI_HYBRID_H
#define DVC_CLI_HYBRID_H

#include "cli.h"

int dvc_cli_hybrid_enclose(const dvc_cli_args *a);
int dvc_cli_hybrid_verify(const dvc_cli_args *a);
/* Widths for the reports, rounded up: of an interval, and the largest of
 * a vector's. */
double dvc_cli_width(const mpfi_t x);
double dvc_cli_vec_width(const dvc_ivec_t x);
int dvc_cli_hybrid_check(const dvc_cli_args *a);
int dvc_cli_hybrid_export(const dvc_cli_args *a);
int dvc_cli_hybrid_plot(const dvc_cli_args *a);

#endif
