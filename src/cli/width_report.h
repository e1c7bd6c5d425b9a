/* SPDX-License-Identifier: LGPL-3.0-or-later */
#ifndef DVC_CLI_WIDTH_REPORT_H
#define DVC_CLI_WIDTH_REPORT_H

#include <stdio.h>

#include "dvicert/cert.h"

/* The width table of c (from c->width) and its verdict, with the reason
 * and what helps when it is not informative. Nothing when c->width is
 * empty. */
void dvc_cli_width_report(FILE *f, const dvc_cert_t c);

#endif
