/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Names and units of a problem's time, states and outputs (the optional
 * keys "name", "state_names", "output_names", "units" of a problem file,
 * docs/formats.md), for every output that shows them. */
#ifndef DVC_IO_LABELS_H
#define DVC_IO_LABELS_H

#include <jansson.h>

#include "dvicert/error.h"

typedef struct {
    char *name;              /* the problem's name, or NULL */
    long n, m;
    char **x, **y;           /* n, m names: the file's, else x1.., y1.. */
    char *t_unit;            /* "" when none */
    char **x_unit, **y_unit; /* n, m units, "" when none */
    int named;               /* the file names its states or outputs */
} dvc_labels;

void dvc_labels_init(dvc_labels *L);
void dvc_labels_clear(dvc_labels *L);

/* From a problem object with n states and m outputs; file names it in
 * messages. state_names: n distinct names, output_names: m (identifiers:
 * a letter or '_', then letters, digits, '_' or '.'; not "t", not xK / yK
 * for another index K, all distinct); units: an object from "t", a name or
 * xK / yK to a text of at most 40 printable characters without a comma.
 * DVC_ERR_INPUT naming the field otherwise. */
dvc_status dvc_labels_from_json(dvc_labels *L, const json_t *obj, long n, long m, const char *file);

/* The same from a problem's JSON text (a certificate's embedded problem);
 * never fails on bad labels there: defaults instead (the certificate was
 * checked when it was written). */
dvc_status dvc_labels_from_text(dvc_labels *L, const char *problem_json, long n, long m);

/* "name [unit]" or "name" into buf (size cap). */
void dvc_labels_axis(char *buf, size_t cap, const char *name, const char *unit);

#endif
