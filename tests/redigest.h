/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Digests of an edited certificate recomputed as the writers compute them,
 * so that a test's edit passes the digest check and only the
 * recomputation of the bounds can reject it (tests include it after
 * check.h). */
#ifndef DVC_TESTS_REDIGEST_H
#define DVC_TESTS_REDIGEST_H

#include <stdio.h>
#include "io/json.h"

/* root[key] = "fnv1a64:<digest of the canonical text of of>" */
static inline void put_digest(json_t *root, const char *key, const json_t *of)
{
    char dg[17], tagged[32];
    REQUIRE(dvc_json_digest(dg, of) == DVC_OK, "digest");
    snprintf(tagged, sizeof tagged, "fnv1a64:%s", dg);
    json_object_set_new(root, key, json_string(tagged));
}

/* root["digest"] over root without it */
static inline void redigest(json_t *root)
{
    json_t *copy = json_copy(root);
    REQUIRE(copy != NULL, "copy");
    json_object_del(copy, "digest");
    put_digest(root, "digest", copy);
    json_decref(copy);
}

#endif
