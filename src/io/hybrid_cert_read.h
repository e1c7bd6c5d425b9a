/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The hybrid certificate reader's parts (src/io/hybrid_cert.c), shared with
 * the streamed verification (src/io/hybrid_cert_verify.c). */
#ifndef DVC_IO_HYBRID_CERT_READ_H
#define DVC_IO_HYBRID_CERT_READ_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "dvicert/hybrid_cert.h"
#include "io/cert_mark.h"

/* A certificate in the writer's layout (the streamed verification below). */
typedef struct {
    char *skel;      /* the file without the item lines */
    size_t len, cap;
    long n[2];       /* items of "steps" [0] and "events" [1] */
    long off[2];     /* file offset of the first item line */
    int prevcomma;   /* the last item line ended with ',' */
} hyb_layout;

/* 1 when f has the writer's layout and every item line parses (then the
 * whole text is JSON iff L->skel is); f is left at its start. */
int dvc_hcert_layout_scan_(FILE *f, hyb_layout *L);
/* The value of item line "    {...}" or "    {...}," (*comma: the latter),
 * or NULL when the line is not one. */
json_t *dvc_hcert_item_line_(const char *line, size_t len, int *comma);
/* The members before the steps (format to the model, built). */
dvc_status dvc_hcert_from_head_(dvc_hybrid_cert_t c, json_t *root, const char *file);
/* The summary and the stated digest. */
dvc_status dvc_hcert_from_tail_(dvc_hybrid_cert_t c, json_t *root, const char *file);
/* Step i into slot k of r (k = i when whole; else the previous grid
 * point's time at k - 1); event k into e. */
dvc_status dvc_hcert_read_step_(dvc_hybrid_cert_t c, dvc_hybrid_result_struct *r, const json_t *s,
                                long i, long k, const char *file);
dvc_status dvc_hcert_read_event_(dvc_hybrid_cert_t c, dvc_hybrid_event *e, const json_t *o, long k,
                                 const char *file);
/* The arrays of a result holding N steps (all entries initialised). */
dvc_status dvc_hcert_result_alloc_(dvc_hybrid_result_struct *r, long N, long n, mpfr_prec_t prec);
/* dvc_hybrid_cert_write with mk's placeholder in c's model text replaced
 * as the file is written and its digests hashed (io/cert_mark.h): the
 * bytes of the model with the content in its place; mk NULL: the same. */
dvc_status dvc_hybrid_cert_write_marked_(const dvc_hybrid_cert_t c, const char *path, const dvc_mark *mk);

#endif
