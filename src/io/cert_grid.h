/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: the explicit time grid of a streamed certificate (enclose
 * --from on a trajectory with its own times). The problem copy states
 * 'grid' as a placeholder string instead of a JSON array of N + 1 strings
 * (about 100 bytes a time as a tree, more as text); the writer puts the
 * times in its place as it writes and hashes the text, from the run's
 * binary64 grid. The bytes are those of the whole-tree path. */
#ifndef DVC_IO_CERT_GRID_H
#define DVC_IO_CERT_GRID_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "dvicert/error.h"
#include "dvicert/tgrid.h"

/* The placeholder (a control character: no grid a reader takes is a
 * string, and 'grid' is only set by the writer's side). */
#define DVC_CERT_GRID_MARK "\001dvicert:grid"

/* Does the problem copy doc state the placeholder as its 'grid'? */
int dvc_cert_grid_marked(const json_t *doc);

/* text (a JSON text of the copy, or of an object holding it) with the
 * placeholder's JSON text replaced by g's times (held or on demand: one
 * pass) as the whole-tree path writes them (["0x...", ...], C99
 * hexadecimal): to f when not NULL and into the FNV-1a 64 hash *h when not
 * NULL; g NULL or no placeholder in text: text as it is. DVC_OK, or an
 * error: a write error (DVC_ERR_IO), a placeholder found twice (a
 * problem's own string: ambiguous, refused), the error of times on
 * demand (its own message). */
dvc_status dvc_cert_grid_put(const char *text, const dvc_tgrid *g, FILE *f, uint64_t *h);

/* The digest of dvc_json_digest (sorted keys, compact) of obj with the
 * placeholder replaced by g's times (g NULL: none). */
dvc_status dvc_cert_grid_digest(char buf[17], const json_t *obj, const dvc_tgrid *g);

/* The label of a step at time t of such a grid (dvc_cert_grid_label's
 * rule for given times: the double itself, shortest). */
void dvc_cert_grid_label_d(char buf[40], double t);

/* fnv_obj's prefix (io/cert_rw.h: the canonical text of obj without its
 * closing brace) hashed into *h, the placeholder replaced by g's times. */
dvc_status dvc_cert_grid_hash_prefix(uint64_t *h, const json_t *obj, const dvc_tgrid *g);

#endif
