/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The subcommands: each declares its options, help and run function. */
#ifndef DVC_CLI_COMMANDS_H
#define DVC_CLI_COMMANDS_H

#include "cli.h"

extern const dvc_cli_cmd dvc_cmd_lvi;
extern const dvc_cli_cmd dvc_cmd_lcpall;
extern const dvc_cli_cmd dvc_cmd_beta;
extern const dvc_cli_cmd dvc_cmd_classify;
extern const dvc_cli_cmd dvc_cmd_enclose;
extern const dvc_cli_cmd dvc_cmd_verify;
extern const dvc_cli_cmd dvc_cmd_check;
extern const dvc_cli_cmd dvc_cmd_export;
extern const dvc_cli_cmd dvc_cmd_plot;
extern const dvc_cli_cmd dvc_cmd_info;
extern const dvc_cli_cmd dvc_cmd_events;
extern const dvc_cli_cmd dvc_cmd_predict;
extern const dvc_cli_cmd dvc_cmd_sweep;

#endif
