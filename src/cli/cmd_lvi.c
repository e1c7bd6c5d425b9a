/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* STUB: being written. */
#include <stdio.h>
#include "cli.h"
#include "commands.h"
int dvc_cmd_lvi(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "not implemented\n"); return 2; }
void dvc_help_lvi(void) { printf("usage: dvicert lvi ...\n"); }
