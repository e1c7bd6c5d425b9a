/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Hybrid model files (JSON, docs/hybrid.md "Model file") -> dvc_hybrid_model_t.
 * Private to the library and the command (not installed). */
#ifndef DVC_IO_HYBRID_JSON_H
#define DVC_IO_HYBRID_JSON_H

#include <jansson.h>
#include "dvicert/hybrid.h"
#include "dvicert/hybrid_cert.h"

/* True when obj looks like a hybrid model (it has "modes" or "decomposed"). */
int dvc_hybrid_json_is_model(const json_t *obj);

/* 1 when obj is a model in decomposed form whose every term is a dry-
 * friction law as written: f- the negation of f+ entry by entry (-sgn(h)
 * F) and h a velocity (each state in h is some f0 entry alone, p' = v).
 * Its sliding on h = 0 is sticking: the commands say stick and slip
 * (docs/sliding.md); certificates keep enter-slide / leave-slide. */
int dvc_hybrid_json_friction(const json_t *obj);

/* DVC_ERR_INPUT saying what obj is (a hybrid model or a DLVI problem file,
 * not a certificate) and how to certify it, when obj is such a file and
 * carries no "format"; else DVC_OK. For the certificate readers. */
dvc_status dvc_io_not_a_cert(const json_t *obj, const char *file);

/* Build m (not initialised; dvc_hybrid_model_clear it after any return)
 * from obj. name names the source in messages; prec 0: the file's "prec",
 * else 53. Errors (DVC_ERR_INPUT) name the file and the field. */
dvc_status dvc_hybrid_from_json(dvc_hybrid_model_t m, const json_t *obj, const char *name,
                                mpfr_prec_t prec);
/* Same, reading the file at path. */
dvc_status dvc_hybrid_load(dvc_hybrid_model_t m, const char *path, mpfr_prec_t prec);

/* n expression texts (strings, or numbers written back) from the array a;
 * free with dvc_hybrid_json_strs_free. Messages name file and field. */
dvc_status dvc_hybrid_json_strs(const char ***out, char ***own, const json_t *a, long n,
                                const char *file, const char *field);
void dvc_hybrid_json_strs_free(const char **s, char **own, long n);
/* DVC_ERR_INPUT naming file, field (NULL: the top level) and the key when
 * object o holds a key outside the NULL-terminated list allowed (with
 * comments, keys starting with '_' are allowed too). */
dvc_status dvc_hybrid_json_only_keys(const json_t *o, const char *const *allowed, int comments,
                                     const char *file, const char *field);
/* The "decomposed" section jd of the model file obj (decomposed_json.c;
 * docs/formats.md): f0 and the discontinuous terms, compiled into m. */
dvc_status dvc_hybrid_decomposed_from_json(dvc_hybrid_model_t m, const json_t *obj,
                                           const json_t *jd, const dvc_expr_consts_t c,
                                           const char *file);
/* Events of a model with contacts (sliding_cert.c): "kind" (cross,
 * enter-slide, leave-slide) and "active" (the active set after the event)
 * added to the event object o; and checked against the event's modes when
 * read back (required with contacts, refused without). */
void dvc_hybrid_event_json_kind(json_t *o, const dvc_hybrid_model_struct *m,
                                const dvc_hybrid_event *e);
dvc_status dvc_hybrid_event_json_check_kind(const json_t *o, const dvc_hybrid_model_struct *m,
                                            const dvc_hybrid_event *e, const char *where);

/* st, a run of m failing on an expression of the model (the expression
 * module's "in 'TEXT' at column ..."): the message gets the key path of
 * that expression in the model file in front, as the reader names it
 * ("where: field 'modes.stretched.b[1]': ..."; every path when several
 * expressions have the same text). For a model read by
 * dvc_hybrid_from_json without a decomposed form. Returns st. */
dvc_status dvc_hybrid_json_error_path(dvc_status st, const dvc_hybrid_model_struct *m,
                                      const char *where);
/* The DAE parts of a model file (dae_json.c, docs/dae.md): the top-level
 * "algebraic" names (nothing without them); a mode of a DAE ("f", "g" or
 * "constraints") reduced into m; whether a switching function's text
 * reads algebraic variables (then it is added per mode it leaves, as
 * "name@mode", by dvc_dae_json_switch at each transition, *g its index);
 * and "initial.z" of the object in, checked against the constraints of
 * the initial mode (after dvc_hybrid_set_initial), refused with the
 * residual when certainly inconsistent. */
dvc_status dvc_dae_json_algebraic(dvc_hybrid_model_t m, const json_t *obj, const char *file);
dvc_status dvc_dae_json_mode(dvc_hybrid_model_t m, const char *mname, const json_t *mo,
                             const dvc_expr_consts_t c, const char *file, const char *field);
int dvc_dae_json_switch_uses_z(const dvc_hybrid_model_t m, const char *text);
dvc_status dvc_dae_json_switch(dvc_hybrid_model_t m, const char *name, const char *text,
                               long from, const dvc_expr_consts_t c, const char *file,
                               const char *field, long *g);
dvc_status dvc_dae_json_initial_z(const dvc_hybrid_model_t m, const json_t *in, const char *file);
/* c emptied (cleared and initialised), the budget of its run kept
 * (dvc_hybrid_cert_struct.max_steps, max_seconds, progress). */
void dvc_hybrid_cert_reset_(dvc_hybrid_cert_t c);
/* c (cleared first) <- the certificate of the model obj, run at the model's
 * precision (hybrid_cert.c): name names the source in the model's messages,
 * where in the message on a precision above DVC_CERT_PREC_MAX. */
dvc_status dvc_hybrid_cert_run_(dvc_hybrid_cert_t c, const json_t *obj,
                                const char *name, const char *where, mpfr_prec_t prec);
/* The same for a model built in memory: c (initialised, c->model built,
 * have_model set) runs it; model, its rendering, is the text the
 * certificate embeds (the ideal-contact route, src/io/lcs_json.c). */
dvc_status dvc_hybrid_cert_run_built_(dvc_hybrid_cert_t c, const json_t *model, const char *where);
/* The model reader's rules, for a model built in memory from a file
 * (src/io/lcs_json.c): the named constants of obj (member "constants") as
 * the reader encloses them (a decimal text kept as text, an expression
 * evaluated at c's precision, a number at prec); a time member key of obj
 * (a JSON real exactly, else a number exact at prec). */
dvc_status dvc_hybrid_json_consts(dvc_expr_consts_t c, const json_t *obj, const char *file,
                                  mpfr_prec_t prec);
dvc_status dvc_hybrid_json_time(mpfr_t t, const json_t *obj, const char *key, const char *file,
                                int required, mpfr_prec_t prec);

#endif
