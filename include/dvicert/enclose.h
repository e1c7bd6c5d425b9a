/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Enclose: a problem file in, a certificate out (docs/architecture.md,
 * "The enclose pipeline"). One entry point, dvc_enclose, owns what every
 * caller (the command, the flat interface, Python) used to repeat: the
 * route policy and its fallback, the automatic scaling of the states, the
 * trajectory input (--from), the number of steps and the precision retry.
 * The routes are the lines of one table (src/enclose/route.c). */
#ifndef DVICERT_ENCLOSE_H
#define DVICERT_ENCLOSE_H

#include "dvicert/cert.h"
#include "dvicert/tabfun.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A certification route (docs/lognorm.md). */
typedef enum {
    DVC_ENCLOSE_AUTO = -1,     /* the default policy, dvc_enclose_choose */
    DVC_ENCLOSE_CHEN_WANG = 0, /* Algorithm 4.2 (the paper's; Table 1) */
    DVC_ENCLOSE_LOGNORM = 1,   /* one-sided Lipschitz bounds in weighted norms */
    DVC_ENCLOSE_EVENTS = 2     /* the exact solution, event by event (docs/events.md):
                                  a hybrid certificate (docs/formats.md) */
} dvc_enclose_route;

/* Called before the auto policy falls back to another route, with a
 * sentence naming both routes and the reason, e.g. "the events route did
 * not certify (...); trying lognorm" (the command prints it as a note). */
typedef void (*dvc_enclose_note_fn)(const char *reason, void *ctx);

/* Every option of an enclose (dvc_enclose_opts_init: the defaults of
 * `dvicert enclose PROBLEM -o OUT` without options). */
typedef struct {
    dvc_enclose_route route;  /* DVC_ENCLOSE_AUTO (default) or a route */
    int local_beta;           /* chen-wang: the local constant of Remark 4.3 */
    const char *predictor;    /* lognorm without a trajectory: "theta" (NULL:
                                 the default) or "heun" (order 2) */
    long pieces;              /* lognorm: pieces per step (0: the default, or
                                 DVC_LOGNORM_PIECES_EXT with a trajectory or heun) */
    const char *from;         /* a CSV trajectory t,x1..xn of another tool
                                 certified instead of the predictor (lognorm;
                                 its times become the grid); NULL: none */
    long N;                   /* number of steps (h = T/N) instead of the
                                 file's; 0: the file's. The embedded problem
                                 then states this N (and no h). Not with from */
    int no_scale;             /* 1: the states as given (enclose --scale none) */
    mpfr_prec_t prec;         /* working precision; 0: the file's */
    mpfr_prec_t prec_max;     /* retry at doubled precision while not certified
                                 and <= prec_max, <= DVC_CERT_PREC_MAX (routes
                                 with retries only); 0: no retry */
    dvc_table_policy tables;  /* the table files allowed ({0, 0}: the defaults) */
    int progress;             /* 1 (default): the engine's progress on a terminal */
    long max_steps;           /* events route: the hybrid engine's step and time */
    double max_seconds;       /* budgets (0: the defaults, docs/hybrid.md) */
    int keep_steps;           /* out_path NULL only: 1 (default) c receives the
                                 whole tube (chen-wang only); 0 a dry run, c
                                 receives the header and claims only, memory
                                 independent of N */
    dvc_enclose_note_fn note; /* NULL, or told of a fallback */
    void *note_ctx;
} dvc_enclose_opts;

void dvc_enclose_opts_init(dvc_enclose_opts *o);

/* How the route was chosen. */
typedef struct {
    dvc_enclose_route route; /* the route run (never AUTO) */
    int local_beta;          /* chen-wang with Remark 4.3 */
    const char *why;         /* the auto policy's reason (static text), or NULL
                                when the route was given */
    int fallback;            /* the choice falls back to the next route when it
                                does not certify (events -> lognorm or
                                chen-wang; lognorm -> chen-wang with local beta) */
    int runs;                /* routes run (2 or 3 after fallbacks) */
} dvc_enclose_info;

/* The route of `route` in the table: its name ("chen-wang", "lognorm",
 * "events";
 * "auto" for DVC_ENCLOSE_AUTO), NULL for an unknown one. */
const char *dvc_enclose_route_name(dvc_enclose_route route);
/* The route named name (or "auto"); -2 for an unknown name. */
int dvc_enclose_route_parse(const char *name);

/* The route the options choose for problem_path, without running it. The
 * auto policy: a trajectory or a predictor take lognorm (a predictor only
 * without local_beta and prec_max), local_beta or prec_max chen-wang; else,
 * without a number of steps N, the events route (the exact solution) when
 * the file states at most DVC_ENCLOSE_AUTO_EVENTS_N states, falling back to
 * the time-stepping choice when it does not certify or does not take the
 * problem (a time grid, a table in g; not for an in-memory tube, which only
 * the time-stepping routes give). The time-stepping choice: lognorm, the
 * tighter route, when the file states at most DVC_ENCLOSE_AUTO_LOGNORM_N
 * states (its cost per step grows like n^3), falling back to chen-wang
 * with local_beta when it does not certify, and chen-wang with local_beta
 * above. A lognorm result of auto (not with from or predictor) is checked
 * against a dry chen-wang run: where chen-wang's largest radius is
 * smaller, chen-wang's certificate (local_beta, else plain) is the result
 * (info->why says so; one more note). A file whose sizes cannot be read gives chen-wang (its reader
 * then says what is wrong). */
#define DVC_ENCLOSE_AUTO_EVENTS_N 64
#define DVC_ENCLOSE_AUTO_LOGNORM_N 16
void dvc_enclose_choose(dvc_enclose_info *info, const char *problem_path, const dvc_enclose_opts *o);

/* Enclose the DLVI of problem_path by the options' route (NULL: the
 * defaults) into c (initialised; what it held is released).
 *  - out_path a file name ("-": stdout): the certificate is written while
 *    the steps are certified, memory independent of N (docs/formats.md);
 *    nothing is left at a regular path on failure. c receives the header,
 *    the claims and the digest, c->tube the last two grid points. With
 *    retries and a direct output (stdout, a pipe, a device), the precision
 *    is found first by dry runs, and the certificate written once at it.
 *  - out_path NULL: in memory (o->keep_steps; see above).
 * info (may be NULL) tells the route run and why. DVC_NOT_CERTIFIED (with
 * the engine's reason) when no certificate could be produced;
 * DVC_ERR_INPUT for inconsistent options or above DVC_CERT_PREC_MAX bits.
 * c->prec is the precision used, c->prec_start the first one tried.
 * The events route writes a hybrid certificate (the exact solution, event
 * by event; include/dvicert/events.h) to out_path: c then receives only the
 * precision and the summary claims route, steps, events, patterns and
 * max_width_at_T_upper; it takes neither from, predictor, local_beta,
 * prec_max, N nor an in-memory tube (DVC_ERR_INPUT naming the option). */
dvc_status dvc_enclose(dvc_cert_t c, const char *problem_path, const dvc_enclose_opts *o,
                       const char *out_path, dvc_enclose_info *info);

#ifdef __cplusplus
}
#endif
#endif
