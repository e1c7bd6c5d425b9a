/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* STUB: being written. */
#include <stdio.h>
#include "cli.h"
#include "commands.h"
int dvc_cmd_classify(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "not implemented\n"); return 2; }
void dvc_help_classify(void) { printf("usage: dvicert classify ...\n"); }
