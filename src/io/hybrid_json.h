/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid model files (JSON, docs/hybrid.md "Model file") -> dvc_hybrid_model_t.
 * Private to the library and the command (not installed). */
#ifndef DVC_IO_HYBRID_JSON_H
#define DVC_IO_HYBRID_JSON_H

#include <jansson.h>
#include "dvicert/hybrid.h"

/* True when obj looks like a hybrid model (it has "modes"). */
int dvc_hybrid_json_is_model(const json_t *obj);

/* Build m (not initialised; dvc_hybrid_model_clear it after any return)
 * from obj. name names the source in messages; prec 0: the file's "prec",
 * else 53. Errors (DVC_ERR_INPUT) name the file and the field. */
dvc_status dvc_hybrid_from_json(dvc_hybrid_model_t m, const json_t *obj, const char *name,
                                mpfr_prec_t prec);
/* Same, reading the file at path. */
dvc_status dvc_hybrid_load(dvc_hybrid_model_t m, const char *path, mpfr_prec_t prec);

#endif
