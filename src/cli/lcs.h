/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The ideal-contact path (M = 0) of enclose
 * (docs/ideal_contacts.md). Arguments and exit codes as the command's. */
#ifndef DVC_CLI_LCS_H
#define DVC_CLI_LCS_H

#include "cli.h"

int dvc_cli_lcs_enclose(const dvc_cli_args *a);

#endif
