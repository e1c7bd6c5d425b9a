/* SPDX-License-Identifier: LGPL-3.0-or-later */
#ifndef DVC_CLI_COMMANDS_H
#define DVC_CLI_COMMANDS_H

int dvc_cmd_lvi(int argc, char **argv);
void dvc_help_lvi(void);
int dvc_cmd_beta(int argc, char **argv);
void dvc_help_beta(void);
int dvc_cmd_classify(int argc, char **argv);
void dvc_help_classify(void);

#endif
