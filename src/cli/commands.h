/* SPDX-License-Identifier: LGPL-3.0-or-later */
#ifndef DVC_CLI_COMMANDS_H
#define DVC_CLI_COMMANDS_H

int dvc_cmd_lvi(int argc, char **argv);
void dvc_help_lvi(void);
int dvc_cmd_beta(int argc, char **argv);
void dvc_help_beta(void);
int dvc_cmd_classify(int argc, char **argv);
void dvc_help_classify(void);
int dvc_cmd_enclose(int argc, char **argv);
void dvc_help_enclose(void);
int dvc_cmd_verify(int argc, char **argv);
void dvc_help_verify(void);
int dvc_cmd_check(int argc, char **argv);
void dvc_help_check(void);
int dvc_cmd_export(int argc, char **argv);
void dvc_help_export(void);
int dvc_cmd_plot(int argc, char **argv);
void dvc_help_plot(void);

#endif
