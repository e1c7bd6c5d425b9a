/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificates of hybrid (switched / piecewise-smooth) enclosures: the
 * embedded model, the stated tube (grid times, state enclosures, modes and
 * step boxes) and the certified events, as JSON (docs/formats.md, "Hybrid
 * certificates"). Verified by recomputation: the engine is deterministic,
 * so every stated enclosure must contain the recomputed one.
 *
 * Ownership: a certificate owns its strings, model and result
 * (dvc_hybrid_cert_clear frees them). Trajectory files named by the
 * model's states are read by dvc_traj_read_named (include/dvicert/certio.h). */
#ifndef DVICERT_HYBRID_CERT_H
#define DVICERT_HYBRID_CERT_H

#include "dvicert/hybrid.h"
#include "dvicert/tube.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    mpfr_prec_t prec;       /* precision of the model and the stated bounds */
    char *generator;        /* "dvicert <version>" of the producer */
    char *model_json;       /* the embedded model, JSON text */
    /* Digests (16 hex digits, "" when unknown): stated in a file and
     * recomputed from the text read; verify requires them equal. */
    char model_digest[17], model_digest_read[17];
    char digest[17], digest_read[17];
    int order;              /* stated Taylor order, guard bits and largest */
    long guard_bits;        /* step (checked against the model by verify) */
    double h;
    int revision;           /* method.revision (DVC_HYBRID_REVISION when made here;
                             * a certificate without the key is revision 1) */
    int have_model;
    dvc_hybrid_model_t model; /* built from model_json at prec */
    dvc_hybrid_result_t res;  /* the stated tube and events */
    /* stated summary (read from a file only): counts, and upper bounds of
     * the widest component at T and of the widest event time */
    int have_sum;
    long sum_steps, sum_crossings;
    mpfr_t sum_wT, sum_wev;
    /* The budget of the run, over the model's when nonzero (max_steps,
     * max_seconds: dvc_hybrid_model_struct) and its progress line; kept
     * across the reset that dvc_hybrid_cert_enclose starts with. Never part
     * of the certificate. */
    long max_steps;
    double max_seconds;
    int progress;
    /* Set by dvc_hybrid_cert_enclose_write, which keeps only the last
     * events: the widths (rounded up) of the first and the widest event
     * time enclosure (0 without events). */
    double ev_width_first, ev_width_max;
} dvc_hybrid_cert_struct;
typedef dvc_hybrid_cert_struct dvc_hybrid_cert_t[1];

void dvc_hybrid_cert_init(dvc_hybrid_cert_t c);
void dvc_hybrid_cert_clear(dvc_hybrid_cert_t c);

/* What the JSON file at path holds: 1 a hybrid model (an object with
 * "modes"), 2 a hybrid certificate, 0 anything else (including a file that
 * cannot be read: its own reader reports that). Only a file whose first
 * 64 KiB hold the key "modes" or the hybrid certificate format is parsed
 * (a DLVI certificate is not read whole), and only a regular file (a pipe
 * is left to its reader). Such a file that does not parse (truncated) is
 * taken for what its first 64 KiB name (2 when they hold the certificate
 * format, else 1), so the hybrid reader reports the JSON error. */
int dvc_hybrid_file_kind(const char *path);

/* Load the model file at path (prec 0: the file's "prec", else 53) and
 * enclose its solution. DVC_NOT_CERTIFIED with the engine's reason (time,
 * switching function, classification) when it stops before T;
 * DVC_ERR_INPUT for a bad model (the message names the file and field) or a
 * precision above DVC_CERT_PREC_MAX. */
dvc_status dvc_hybrid_cert_enclose(dvc_hybrid_cert_t c, const char *path, mpfr_prec_t prec);

/* dvc_hybrid_cert_enclose writing the certificate to out as the run goes
 * (the bytes dvc_hybrid_cert_write would write): each grid point is
 * written when certified and then dropped (c->res keeps only the last one,
 * c->res->base; the events are kept), so memory does not grow with the
 * steps. out is replaced atomically once the run reaches T; on any
 * failure nothing is left at out. */
dvc_status dvc_hybrid_cert_enclose_write(dvc_hybrid_cert_t c, const char *path, mpfr_prec_t prec,
                                         const char *out);

/* Write c as JSON atomically (nothing is left at path on failure): top-level
 * members one per line, one grid point per line, one event per line. */
dvc_status dvc_hybrid_cert_write(const dvc_hybrid_cert_t c, const char *path);

/* Read a hybrid certificate (strict keys; keys starting with '_' are notes).
 * DVC_ERR_INPUT / DVC_ERR_IO when unusable; no bound is checked here. */
dvc_status dvc_hybrid_cert_read(dvc_hybrid_cert_t c, const char *path);

/* Re-verification: digests, the stated method against the embedded model,
 * then dvc_hybrid_verify_keep (grid, modes, boxes, events and phi'), and the
 * summary. rec (may be NULL; initialised) receives the recomputed result.
 * DVC_OK accepted, DVC_NOT_CERTIFIED rejected (message: first reason),
 * DVC_ERR_INPUT unusable. */
dvc_status dvc_hybrid_cert_verify(const dvc_hybrid_cert_t c, dvc_hybrid_result_t rec);

/* dvc_hybrid_cert_read then dvc_cert_verify_hybrid (certio.h), the same
 * verdicts and messages, with memory independent of the certificate's
 * length when the file has the writer's layout (one step or event a line):
 * each stated grid point and event is read from its line and compared as
 * the recomputation produces it. c->res then holds only the counts
 * (nsteps, nevents), not the grid. */
dvc_status dvc_hybrid_cert_read_verify(dvc_hybrid_cert_t c, const char *path);

/* Outer enclosure of x over the time interval tt from the stated data only
 * (hull of the step boxes met; the grid state at a grid time): for a
 * certificate that was not re-verified. */
dvc_status dvc_hybrid_cert_eval(dvc_ivec_t X, const dvc_hybrid_cert_t c, const mpfi_t tt);

/* The variables certificate hc implies but does not store, as the m
 * columns of its hybrid tube tb (tb from dvc_hybrid_tube of hc's stated or
 * recomputed result, m = 0): for an ideal-contact certificate the contact
 * multipliers y (docs/ideal_contacts.md), for a switched DAE the algebraic
 * variables z(t, x) (docs/dae.md), each enclosed over every step box and
 * grid point from the states (dvc_tube_set_yboxes). Any other certificate:
 * tb untouched, DVC_OK; on failure tb is untouched too. */
dvc_status dvc_hybrid_cert_tube_y(dvc_tube_t tb, const dvc_hybrid_cert_struct *hc);

#ifdef __cplusplus
}
#endif
/* 1 when the model hc embeds is a friction model (every discontinuous
 * term a dry-friction law -sgn(h) F on a velocity h, src/io/hybrid_json.c):
 * its sliding on h = 0 is sticking, and the commands name enter-slide and
 * leave-slide stick and slip (docs/sliding.md); 0 for an ideal contact, a
 * model without contacts or none. */
int dvc_hybrid_cert_friction(const dvc_hybrid_cert_struct *hc);

#endif
