/* SPDX-License-Identifier: LGPL-3.0-or-later */
#ifndef DVC_CLI_WIDTH_REPORT_H
#define DVC_CLI_WIDTH_REPORT_H

#include <stdio.h>

#include "dvicert/cert.h"

/* The width table of c (from c->width) and its verdict, with the reason
 * and what helps when it is not informative. Nothing when c->width is
 * empty. */
void dvc_cli_width_report(FILE *f, const dvc_cert_t c);

/* After a time-stepping run was not certified for the reason why (the
 * error message): what may help (never --prec-max for an overflow). */
void dvc_cli_not_certified_note(FILE *f, const char *why);

#endif
