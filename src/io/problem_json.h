/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* DLVI problem files (JSON, docs/formats.md) -> dvc_dlvi_problem_t.
 * Private to the library and the command (not installed): the public,
 * jansson-free reader is dvc_problem_read (problem.h). */
#ifndef DVC_IO_PROBLEM_JSON_H
#define DVC_IO_PROBLEM_JSON_H

#include <jansson.h>
#include "dvicert/problem.h"
#include "dvicert/tabfun.h"

/* Build p from the JSON object obj.
 *   name     names the source in messages ("bridge.json");
 *   basedir  directory against which tabulated-data paths ({"csv": ...},
 *            {"at2": ...}) are resolved; NULL forbids file references (the
 *            problem must be self-contained, as in a certificate);
 *   prec     working precision in bits; 0 = the file's "prec", else 53.
 * p must have been initialised (dvc_dlvi_problem_init); it is cleared and
 * rebuilt at the chosen precision. f and g are attached as callbacks that
 * p owns (dvc_dlvi_problem_clear releases them). When resolved is not NULL
 * it receives a new reference to a self-contained copy of obj in which
 * every file reference is replaced by the data it held ({"table": ...},
 * see docs/formats.md); reading that copy back gives the same problem.
 * Table files must lie in basedir's tree (after resolving links and '..')
 * and be regular files of at most DVC_TABLE_MAX_BYTES bytes.
 * Errors (DVC_ERR_INPUT / DVC_ERR_IO) name the file and the field. */
dvc_status dvc_problem_from_json(dvc_dlvi_problem_t p, json_t **resolved, const json_t *obj,
                                 const char *name, const char *basedir, mpfr_prec_t prec);
/* Same, with the table files allowed by tables (NULL: the defaults above). */
dvc_status dvc_problem_from_json_policy(dvc_dlvi_problem_t p, json_t **resolved, const json_t *obj,
                                        const char *name, const char *basedir, mpfr_prec_t prec,
                                        const dvc_table_policy *tables);

/* Same, reading the file at path (tabulated data relative to its directory). */
dvc_status dvc_problem_load(dvc_dlvi_problem_t p, json_t **resolved, const char *path,
                            mpfr_prec_t prec);
dvc_status dvc_problem_load_policy(dvc_dlvi_problem_t p, json_t **resolved, const char *path,
                                   mpfr_prec_t prec, const dvc_table_policy *tables);


#endif
