/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The certificate a command reads, whatever its kind (dvc_cert_kind): its
 * tube and a small kind-neutral description, so that check and verify have
 * one path for every kind. Where their outputs differ, the difference is a
 * property stated here, not a test of the kind in the command. */
#ifndef DVC_CLI_CERTVIEW_H
#define DVC_CLI_CERTVIEW_H

#include <stdio.h>

#include "cli.h"
#include "dvicert/cert.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/tube.h"
#include "io/labels.h"

typedef struct dvc_cli_cert dvc_cli_cert;

/* Called at every grid point i once the tube holds it (a streamed tube
 * holds a window of rows ending at i). */
typedef dvc_status (*dvc_cli_cert_fn)(dvc_cli_cert *d, long i, void *ctx);

struct dvc_cli_cert {
    dvc_cert_kind kind;
    const char *path;
    /* the description */
    long n, m, N;
    mpfr_prec_t prec;
    mpfi_t T;                  /* final time, at the precision trajectories are read against */
    mpfr_srcptr t0;            /* initial time, or NULL (0) */
    const char *const *xnames; /* n state names, m output names */
    const char *const *ynames;
    dvc_tube_struct *tube;     /* the certificate's tube (valid in the callbacks of a pass;
                                  at any time when whole) */
    char *name;            /* its "name", or NULL (after dvc_cli_cert_read; a hybrid
                              certificate: also after dvc_cli_cert_open) */
    const char *what;      /* what it encloses the solution of: "problem", "model" */
    char claim[512];       /* what an accepted verification proved */
    /* properties that shape the outputs */
    int whole;             /* read (and verified) whole when opened, and said so then;
                              else streamed, verified in lockstep with a pass */
    int inner_edges;       /* the tube has inner bounds: a violation is shown against its
                              inner edges rounded inward, else against the outward interval */
    mpfr_prec_t edge_prec; /* precision of those edges (+ DVC_TRAJ_EXTRA_BITS) */
    const char *tube_note; /* how the tube is made between grid points, or NULL (the
                              certificate's own formula, docs/formats.md) */
    int contact_y;         /* set before opening: an ideal-contact certificate's tube gets
                              its contact multipliers y (m = contacts, dvc_hybrid_cert_tube_y) */
    int no_cache;          /* set before opening: --no-cache (cache.h) */
    int cached;            /* the verification was skipped: this binary verified the
                              same text before (cache.h; the messages say so) */
    /* private: the kind's storage */
    int have_rec;
    dvc_cert_t dlvi;
    dvc_labels L;
    dvc_hybrid_cert_t hyb;
    dvc_hybrid_result_t rec;
    dvc_hybrid_flow_ref flow;
    dvc_tube_t htube;
};

void dvc_cli_cert_init(dvc_cli_cert *d);
void dvc_cli_cert_clear(dvc_cli_cert *d);

/* Open path for cmd: the description (a streamed certificate: its header;
 * a whole one: read, verified when asked -- the verdict line then goes to
 * rep, a rejection says "nothing <nothing>" -- and its tube built: the
 * recomputed one when verified, unless stated is 1). Returns -1 when
 * usable, else the exit code (message printed). */
int dvc_cli_cert_open(dvc_cli_cert *d, const char *cmd, const char *path, int verify, FILE *rep,
                      const char *nothing, int stated);

/* One pass over the grid points 0..N calling fn (may be NULL), verified in
 * lockstep when asked and the certificate is streamed. */
dvc_status dvc_cli_cert_pass(dvc_cli_cert *d, int verify, dvc_cli_cert_fn fn, void *ctx);

/* The certificate read whole (a DLVI one streamed, memory independent of
 * N) and verified when asked; the description then also holds its name,
 * what it describes and the claim a verification proves. verify 2: a
 * hybrid one verified streamed (dvc_hybrid_cert_read_verify), its grid
 * not kept. */
dvc_status dvc_cli_cert_read(dvc_cli_cert *d, const char *path, int verify);

/* The name of a hybrid certificate's problem (the events route's or an
 * ideal contact's embedded DLVI problem) or model, or NULL; to free. */
char *dvc_cli_hybrid_name(const dvc_hybrid_cert_struct *c);

/* The labels of an events or ideal-contact certificate's embedded DLVI problem (n states,
 * m multipliers; x1.., y1.. where it names none) into L, *named = 1; a
 * hybrid certificate of another kind: L untouched, *named = 0. */
dvc_status dvc_cli_events_labels(dvc_labels *L, const dvc_hybrid_cert_struct *c, long m, int *named);

/* One CSV field on standard output, quoted (quotes doubled) when it holds a
 * comma, a quote or a line break (RFC 4180), then sep. */
void dvc_cli_csv_put(const char *s, char sep);

#endif
