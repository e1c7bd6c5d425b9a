/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert enclose: run the certified time-stepping engine on a problem file
 * and write a certificate. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "hybrid.h"
#include "lcs.h"
#include "width_report.h"
#include "enclose/internal.h"
#include "dvicert/certio.h"
#include "dvicert/enclose.h"
#include "dvicert/tgrid.h"
#include "dvicert/lcs_cert.h"
#include "dvicert/lognorm.h"
#include "dvicert/problem.h"

static const dvc_cli_opt opts[] = {
    {"output", 'o', "FILE", "a file name", "certificate to write (nothing is written on failure)"},
    {"local-beta", 0, NULL, NULL, "chen-wang route: on steps where one active set of the LVI is\n"
                                  "certified, use the local constant ||(M_FF)^{-1}|| instead of\n"
                                  "beta_M (Remark 4.3 made rigorous; always valid, often 10-200x\n"
                                  "tighter)"},
    {"sharpen", 0, NULL, NULL, "the same as --local-beta (its earlier name)"},
    {"method", 0, "NAME", "auto, chen-wang, lognorm or events",
     "certification route: auto (default: events for n <= 64, falling\n"
     "back to the time-stepping choice: lognorm for n <= 16, checked\n"
     "against chen-wang, else chen-wang with --local-beta; see below),\n"
     "chen-wang (Algorithm 4.2 of the paper, bounds grow like e^{LT};\n"
     "Table 1) or lognorm (one-sided\n"
     "Lipschitz bounds in weighted norms, docs/lognorm.md: within a few\n"
     "times the predictor's true error, bounded on long horizons; about\n"
     "3-12x the cost per step for n <= 16, more for larger n) or events\n"
     "(the exact solution event by event, docs/events.md: a hybrid\n"
     "certificate)"},
    {"from", 0, "TRAJ.csv", "a file name",
     "certify a trajectory of another tool: CSV t,x1..xn, extra columns\n"
     "ignored, times increasing from 0 to at least T, need not be\n"
     "uniform. auto and --method events: its error against the exact\n"
     "solution, two-sided at the samples and bounded between them\n"
     "(docs/from_events.md; the trajectory and its bounds embedded in the\n"
     "events certificate; times past T refused), auto falling back to\n"
     "lognorm where the events route does not apply; --method lognorm:\n"
     "the trajectory as the predictor (the certificate's grid is then\n"
     "its own times)"},
    {"predictor", 0, "NAME", "theta or heun",
     "predictor of the lognorm route: theta (default; the theta method of\n"
     "the problem, order 1) or heun (Heun's method, order 2: smaller radii\n"
     "for the same steps, docs/lognorm.md section 11)"},
    {"radius", 0, "R", "a positive number",
     "choose the number of steps N (h = T/N) for a tube radius <= R at T\n"
     "(every state's radius, s_j eps_x with a state scale):\n"
     "two small pilot runs (nothing written) measure the radius and its\n"
     "order in h (on the lognorm route without --predictor: for the theta\n"
     "and the Heun predictor, keeping the one whose N for R costs less\n"
     "work: N times a count of a step's operations from n, m, the pieces\n"
     "and the stages, never the seconds measured, so the certificate does\n"
     "not depend on the machine's load), the N for R is extrapolated\n"
     "(safety factor 1.2) and\n"
     "certified, refined at most 3 times; every run is reported. Those\n"
     "runs write a temporary file beside the output, and the one that\n"
     "reaches R becomes it (not run again; with -o - or a pipe they run\n"
     "dry and the last is repeated). The certificate states the N used.\n"
     "Exit 1, nothing written, with the best radius reached when R needs\n"
     "more than --max-steps steps"},
    {"radius-at", 0, "WHERE", "T or all",
     "with --radius: the radius at T (T, the default) or its maximum over\n"
     "[0, T] (all)"},
    {"max-steps", 0, "N", "a number of steps",
     "with --radius: the largest N tried (default 10000000); for a\n"
     "hybrid model and --method events: the step budget of the hybrid\n"
     "engine (default: the model's max_steps, else 10000000)"},
    {"max-seconds", 0, "S", "a number of seconds",
     "hybrid model and --method events: the time budget of the hybrid\n"
     "engine (default: the model's max_seconds, else 3600; 0: none).\n"
     "A budget reached stops the run (exit 1, nothing written) saying up\n"
     "to where it certified; a progress line on stderr when it is a terminal"},
    {"scale", 0, "HOW", "auto or none",
     "scaling of the states: auto (default: certify in the variables\n"
     "x_j / s_j, s_j powers of two balancing A, B Q; the tube states\n"
     "|x_j - x^h_j| <= s_j eps_x and the certificate records s,\n"
     "docs/bounds.md) or none (the states as given)"},
    {"no-scale", 0, NULL, NULL, "the same as --scale none"},
    {"prec", 0, "BITS", "a number of bits", "working precision (default: the file's \"prec\", else 53)"},
    {"prec-max", 0, "BITS", "a number of bits",
     "when the run is not certified, retry at twice the precision\n"
     "while it stays <= BITS (default: no retry). The problem is re-read\n"
     "at each precision; the certificate records the precision used\n"
     "(field 'precision'), which 'verify' recomputes at."},
    {"allow-outside-tables", 0, NULL, NULL,
     "read table files (\"csv\", \"at2\", \"table\") outside the problem\n"
     "file's directory tree too (absolute paths, '..', links); by default\n"
     "they are refused, since their contents are copied into the certificate"},
    {"max-table-bytes", 0, "BYTES", "a size in bytes",
     "largest table file read (suffix k, M or G: binary multiples;\n"
     "default 256M); only regular files are read"},
    {NULL, 0, NULL, NULL, NULL},
};

static void help(void)
{
    printf(
        "usage: dvicert enclose PROBLEM.json -o OUT.cert.json [--method auto|chen-wang|lognorm|events]\n"
        "                       [--from TRAJ.csv] [--predictor theta|heun] [--local-beta] [--prec BITS]\n"
        "                       [--prec-max BITS] [--allow-outside-tables]\n"
        "                       [--max-table-bytes BYTES] [--radius R [--radius-at T|all]\n"
        "                       [--max-steps N]] [--scale auto|none] [--max-seconds S]\n\n"
        "Certified enclosure of the solution of the DLVI in PROBLEM.json\n"
        "  x' = A x + B y + f(t),  y in SOL(l, u, Q x + g(t), M),  x(0) = x0,  t in [0, T]\n"
        "by the theta time-stepping method (Chen & Wang (4.2)), all in outward-rounded\n"
        "interval arithmetic, with one of two certification routes (--method), or\n"
        "its exact solution by a third (events):\n"
        "  lognorm    one-sided Lipschitz bounds in a weighted norm proven for the\n"
        "             dynamics (docs/lognorm.md): the tube stays within a few times the\n"
        "             predictor's true error, also over long horizons;\n"
        "  chen-wang  the error bounds of Theorem 4.1 / Algorithm 4.2 re-derived in\n"
        "             docs/bounds.md: cheap per step, but they grow like e^{LT};\n"
        "  events     the exact solution, not an approximation (docs/events.md): the\n"
        "             DLVI as a switched affine system, one mode per LVI pattern,\n"
        "             run by the hybrid engine with certified event times; a tube\n"
        "             whose width is rounding and Taylor remainder (1e-15 on the\n"
        "             bridge), written as a hybrid certificate. Applies when M is\n"
        "             proven a P-matrix, f and g are expressions of t or constants\n"
        "             (no tables yet) and every event is isolated (no grazing or\n"
        "             simultaneous switches); --from certifies a trajectory's error\n"
        "             against it (docs/from_events.md); no --predictor, --radius,\n"
        "             --local-beta, --prec-max or 'grid'.\n"
        "The default, auto, takes events for n <= 64 when no option of a time-stepping\n"
        "route is given (--radius, --predictor, --local-beta, --prec-max); where it does\n"
        "not certify or not apply, and with those options, it takes lognorm for\n"
        "n <= 16 (chen-wang with --local-beta when lognorm cannot certify, and chen-wang\n"
        "run dry beside it: its tube is taken where it is tighter) and chen-wang with\n"
        "--local-beta above. Each fallback is a note naming both routes.\n"
        "M must be proven a P-matrix; chen-wang also needs h (L - theta ||A||) < 1.\n"
        "A hybrid model file (an object with \"modes\", docs/hybrid.md) is enclosed by the\n"
        "hybrid engine instead; its certificate lists the certified crossings ('events').\n"
        "With --radius R the step h = T/N is chosen for a radius <= R (the file's 'N'\n"
        "or 'h' is replaced; the certificate's embedded problem states the N used).\n\n");
    dvc_cli_print_options(&dvc_cmd_enclose);
    printf(
        "\nProblem and certificate formats: docs/formats.md. Re-check a certificate with\n"
        "'dvicert verify'.\n"
        "exit status: 0 certificate written, 1 not certified (the reason names the step;\n"
        "with --radius also: R not reached within --max-steps), 2 bad input or i/o error.\n");
}

static int run(const dvc_cli_args *a);

/* The library's fallback note (dvc_enclose_opts.note). */
static void note_fallback(const char *reason, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "dvicert enclose: note: %s\n", reason);
}

/* What --radius needs to run the chosen route on N steps. */
typedef struct {
    const char *in;
    dvc_enclose_opts *o;
    const char *why;     /* the auto policy's reason, as last reported */
    int runs;            /* route runs so far (a fallback counts two) */
    int at_all;          /* the maximum over [0, T] instead of the radius at T */
    FILE *rep;
    char *buf;           /* 64 bytes: the last radius as text */
    const char *trial;   /* the trial runs' output (a temporary beside -o), NULL: dry */
    dvc_enclose_info info; /* of the last run */
    int written;         /* the run that reached R wrote trial */
    dvc_cert_struct *c;  /* receives that run's certificate */
} radius_ctx;

/* The stated radius of c as a decimal rounded up: eps_x, or for a scaled
 * tube the largest state radius max_j s_j eps_x (R is in the user's
 * units). buf (64 bytes) holds it when it is not the claim's text. */
static const char *radius_of(const dvc_cert_t c, int at_all, char *buf)
{
    const char *t = dvc_cert_claim_text(&c->summary, at_all ? "max_eps_x" : "eps_x_at_T");
    double smax = 1;
    mpfr_t a;
    for (long j = 0; c->tube->x_scale && j < c->tube->n; j++)
        if (c->tube->x_scale[j] > smax) smax = c->tube->x_scale[j];
    if (smax == 1 || !*t) return t;
    mpfr_init2(a, 256);
    /* s_j is a power of two: the product is exact, the print rounds up */
    if (mpfr_set_str(a, t, 10, MPFR_RNDU) == 0 && mpfr_mul_d(a, a, smax, MPFR_RNDU) == 0 &&
        mpfr_snprintf(buf, 64, "%.11RUe", a) < 64)
        t = buf;
    else
        t = "inf";
    mpfr_clear(a);
    return t;
}

/* Is the stated radius <= R? Decided on the decimals themselves (the
 * claim rounded up, R rounded down), so "yes" is exact. */
static int radius_le(const char *claim, const char *R)
{
    mpfr_t a, b;
    int ok;
    mpfr_inits2(256, a, b, (mpfr_ptr)0);
    ok = claim && mpfr_set_str(a, claim, 10, MPFR_RNDU) == 0 && mpfr_set_str(b, R, 10, MPFR_RNDD) == 0 &&
         mpfr_number_p(a) && mpfr_lessequal_p(a, b);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return ok;
}

/* One dry run on N steps: its radius (a double, for the estimates only).
 * The route the library's policy settles on (after a fallback) is kept for
 * the next runs. */
static dvc_status radius_try_to(radius_ctx *x, long N, double *eps, const char **text, dvc_cert_t c,
                                double *secs, const char *out)
{
    double t0 = dvc_cli_now();
    dvc_enclose_info info;
    dvc_status st;
    x->o->N = N;
    dvc_cert_clear(c);
    dvc_cert_init(c);
    st = dvc_enclose(c, x->in, x->o, out, &info);
    x->info = info;
    *secs = dvc_cli_now() - t0;
    x->runs += info.runs;
    x->o->route = info.route;
    x->o->local_beta = info.local_beta;
    if (info.why) x->why = info.why;
    if (st != DVC_OK) return st;
    *text = radius_of(c, x->at_all, x->buf);
    *eps = *text ? strtod(*text, NULL) : NAN;
    if (!(*eps >= 0) || isinf(*eps)) return dvc_error(DVC_ERR_INTERNAL, "no radius in the summary");
    return DVC_OK;
}

static dvc_status radius_try(radius_ctx *x, long N, double *eps, const char **text, dvc_cert_t c, double *secs)
{
    return radius_try_to(x, N, eps, text, c, secs, NULL);
}

/* N for radius R from the radius e at N and the order p: eps ~ C N^-p,
 * with a safety factor; LONG_MAX when past cap. */
static long radius_extrapolate(long N, double e, double p, double R, long cap)
{
    double n = 1.2 * (double)N * pow(e / R, 1.0 / p);
    if (!(n <= (double)cap)) return LONG_MAX;
    return n < 1 ? 1 : (long)ceil(n);
}

/* The first pilot N: the file's grid scaled down (the user's N says what
 * resolution the problem needs). */
static long radius_pilot_N(const char *in, long cap)
{
    long N1 = 64, Nfile = 0;
    dvc_dlvi_problem_t pr;
    dvc_dlvi_problem_init(pr, 0, 0, 0);
    if (dvc_problem_read(pr, in, 53) == DVC_OK) Nfile = pr->N;
    dvc_dlvi_problem_clear(pr);
    if (Nfile > 0) N1 = Nfile / 8 < 16 ? 16 : Nfile / 8 > 2000 ? 2000 : Nfile / 8;
    if (N1 > cap / 2) N1 = cap / 2 > 0 ? cap / 2 : 1;
    return N1;
}

/* The second pilot at 2 N1 (when the cap allows): *p the observed order
 * (1 without it), *e2 and *N2 its radius and N, *secs its time. */
static dvc_status radius_pilot2(radius_ctx *x, long N1, double e1, long cap, long *N2, double *e2, double *p,
                                const char **text, dvc_cert_t c, double *secs)
{
    dvc_status st;
    *N2 = 2 * N1 <= cap ? 2 * N1 : cap;
    *p = 1;
    if (*N2 <= N1) {
        *N2 = N1, *e2 = e1;
        return DVC_OK;
    }
    if ((st = radius_try(x, *N2, e2, text, c, secs)) != DVC_OK) return st;
    fprintf(x->rep, "radius: pilot N = %ld%s: radius %s (%.2f s, nothing written)\n", *N2,
            x->o->predictor ? (strcmp(x->o->predictor, "heun") == 0 ? " (heun)" : " (theta)") : "", *text, *secs);
    *p = *e2 > 0 && e1 > 0 ? log(e1 / *e2) / log((double)*N2 / (double)N1) : 1;
    return DVC_OK;
}

/* The lognorm route without a stated predictor: the Heun predictor (order
 * 2) is piloted too, and the predictor whose extrapolated N costs less
 * work for R is kept (x->o->predictor; *N2, *e2, *p its pilot). The work
 * is N times the operations of a step (dvc_enclose_step_work_), a pure
 * function of the problem: the choice, and so the certificate, does not
 * depend on the machine's speed or load. */
static dvc_status radius_predictor(radius_ctx *x, long N1, long cap, double Rd, long *N2, double *e2,
                                   double *p, char *t2, dvc_cert_t c)
{
    const char *tx = NULL, **text = &tx;
    double eh1, eh2, ph, sh, cost_t, cost_h;
    long Nh2, nt, nh, n = c->n, m = c->m;
    const char *keep = x->o->predictor;
    dvc_lognorm_opts lo;
    dvc_status st;
    x->o->predictor = "heun";
    if ((st = radius_try(x, N1, &eh1, text, c, &sh)) != DVC_OK ||
        (st = (fprintf(x->rep, "radius: pilot N = %ld (heun): radius %s (%.2f s, nothing written)\n", N1, *text,
                       sh),
               radius_pilot2(x, N1, eh1, cap, &Nh2, &eh2, &ph, text, c, &sh))) != DVC_OK) {
        /* heun does not certify here: theta stays */
        dvc_error_reset();
        x->o->predictor = keep;
        return DVC_OK;
    }
    nt = radius_extrapolate(*N2, *e2, *p < 0.05 ? 0.05 : *p > 4 ? 4 : *p, Rd, cap);
    nh = radius_extrapolate(Nh2, eh2, ph < 0.05 ? 0.05 : ph > 4 ? 4 : ph, Rd, cap);
    /* the work of each: its N times its step's operations (the pieces as
     * the route sets them: --pieces, else 4 for theta and 8 for heun) */
    dvc_lognorm_opts_default(&lo);
    cost_t = (double)nt * dvc_enclose_step_work_(n, m, x->o->pieces > 0 ? x->o->pieces : lo.pieces, 0);
    cost_h = (double)nh * dvc_enclose_step_work_(n, m, x->o->pieces > 0 ? x->o->pieces : DVC_LOGNORM_PIECES_EXT, 1);
    if (nh != LONG_MAX && (nt == LONG_MAX || cost_h < cost_t) && ph >= 0.05) {
        char nb[32];
        snprintf(t2, 64, "%s", tx);
        snprintf(nb, sizeof nb, "%ld", nt);
        fprintf(x->rep, "radius: predictor heun (order %.3g, N ~ %ld) costs less than theta (order %.3g, N ~ %s)\n",
                ph, nh, *p, nt == LONG_MAX ? "out of reach" : nb);
        *N2 = Nh2, *e2 = eh2, *p = ph;
        return DVC_OK;
    }
    x->o->predictor = keep;
    return DVC_OK;
}

/* The --radius search: *N_out the N to certify at (x->o then holds the
 * route and predictor to run it by). Returns DVC_EXIT_OK, or the exit
 * status after a message. */
static int radius_search(radius_ctx *x, const char *R, long cap, long *N_out)
{
    double Rd = strtod(R, NULL), e1 = 0, e2 = 0, p = 1, secs, best = INFINITY;
    long N1 = radius_pilot_N(x->in, cap), N2, N, Nbest = 0;
    const char *text = NULL, *where = x->at_all ? "over [0, T]" : "at T";
    int rc = DVC_EXIT_OK, choose_pred = x->o->predictor == NULL;
    char t2[64];
    dvc_cert_t c;
    dvc_status st;
    dvc_cert_init(c);
    fprintf(x->rep, "radius: target %s %s, N <= %ld\n", R, where, cap);
    /* first pilot: until certified (a coarse grid may fail the step condition) */
    while ((st = radius_try(x, N1, &e1, &text, c, &secs)) != DVC_OK) {
        if (st != DVC_NOT_CERTIFIED || 2 * N1 > cap || x->runs >= 8) goto fail;
        fprintf(x->rep, "radius: pilot N = %ld not certified (%s); doubling N\n", N1, dvc_error_message());
        N1 *= 2;
    }
    fprintf(x->rep, "radius: pilot N = %ld: radius %s (%.2f s, nothing written)\n", N1, text, secs);
    if ((st = radius_pilot2(x, N1, e1, cap, &N2, &e2, &p, &text, c, &secs)) != DVC_OK) goto fail;
    /* the pilot's radius text outlives the next runs (the claims are c's) */
    snprintf(t2, sizeof t2, "%s", text);
    text = t2;
    if (choose_pred && x->o->route == DVC_ENCLOSE_LOGNORM && !x->o->from &&
        (st = radius_predictor(x, N1, cap, Rd, &N2, &e2, &p, t2, c)) != DVC_OK)
        goto fail;
    if (choose_pred && x->o->predictor) e1 = e2; /* heun: its pilots only */
    best = e1 < e2 ? e1 : e2, Nbest = e1 < e2 ? N1 : N2;
    /* an order near 0: the radius does not fall with h (roundoff, or the
     * width of x0); a large one is not to be trusted for extrapolation */
    if (!(p >= 0.05)) {
        if (radius_le(text, R)) {
            *N_out = N2;
            goto done;
        }
        fprintf(stderr, "dvicert enclose: error: %s: radius %s %s not reached: the radius does not fall "
                "with the step (observed order %.2g); best radius %.6g at N = %ld\n", x->in, R, where, p,
                best, Nbest);
        rc = DVC_EXIT_FAIL;
        goto done;
    }
    if (p > 4) p = 4;
    fprintf(x->rep, "radius: observed order %.3g in h\n", p);
    N = radius_extrapolate(N2, e2, p, Rd, cap);
    for (int k = 0; k <= 3; k++) {
        long Nprev = N2;
        double eprev = e2;
        if (N == LONG_MAX) {
            double need = 1.2 * (double)Nprev * pow(eprev / Rd, 1.0 / p);
            fprintf(stderr, "dvicert enclose: error: %s: radius %s %s not reachable within N <= %ld: best "
                    "radius %.6g at N = %ld; it would take N ~ %.3g (order %.3g)\n", x->in, R, where, cap,
                    best, Nbest, need, p);
            rc = DVC_EXIT_FAIL;
            goto done;
        }
        if (k == 3) break;
        /* the runs past the pilots write their certificate beside -o: the
         * one that reaches R is the result (not run a second time) */
        if ((st = radius_try_to(x, N, &e2, &text, c, &secs, x->trial)) != DVC_OK) goto fail;
        N2 = N;
        if (e2 < best) best = e2, Nbest = N;
        fprintf(x->rep, "radius: run N = %ld: radius %s (%.2f s%s)%s\n", N, text, secs,
                x->trial ? "" : ", nothing written", radius_le(text, R) ? ": reached" : "");
        if (radius_le(text, R)) {
            *N_out = N;
            x->written = x->trial != NULL;
            goto done;
        }
        /* refine with the order seen between the last two runs */
        if (N != Nprev && e2 > 0 && eprev > 0) {
            double q = log(eprev / e2) / log((double)N / (double)Nprev);
            if (q >= 0.05) p = q > 4 ? 4 : q;
        }
        N = radius_extrapolate(N2, e2, p, Rd, cap);
        if (N != LONG_MAX && N < N2 + N2 / 4) N = N2 + N2 / 4 <= cap ? N2 + N2 / 4 : LONG_MAX;
    }
    fprintf(stderr, "dvicert enclose: error: %s: radius %s %s not reached in %d runs: best radius %.6g at "
            "N = %ld; next estimate N = %ld (order %.3g)\n", x->in, R, where, x->runs, best, Nbest, N, p);
    rc = DVC_EXIT_FAIL;
    goto done;
fail:
    dvc_error_context(st, "%s: ", x->in);
    rc = dvc_cli_fail("enclose", st);
done:
    if (rc == DVC_EXIT_OK && x->written)
        fprintf(x->rep, "radius: N = %ld chosen after %d runs; its certificate is the result\n", *N_out, x->runs);
    else if (rc == DVC_EXIT_OK)
        fprintf(x->rep, "radius: N = %ld chosen after %d dry runs; certifying it\n", *N_out, x->runs);
    if (rc == DVC_EXIT_OK && x->written && x->c) {
        /* the caller reports from it */
        dvc_cert_struct t = *x->c;
        *x->c = *c;
        *c = t;
    }
    dvc_cert_clear(c);
    return rc;
}


const dvc_cli_cmd dvc_cmd_enclose = {
    "enclose", "certified enclosure of a DLVI problem file; writes a certificate", opts,
    "it prints the certificate's bounds, which always carry 12 significant digits (rounded outward)", NULL,
    1, 1, "dvicert enclose PROBLEM.json -o OUT.cert.json [--sharpen] [--prec BITS] [--prec-max BITS] ...",
    help, run};

/* --scale / --no-scale into o; the hybrid files refuse them. */
static int parse_scale(const dvc_cli_args *a, const char *in, dvc_enclose_opts *o)
{
    const char *sv = dvc_cli_value(a, "scale");
    if (sv && strcmp(sv, "auto") != 0 && strcmp(sv, "none") != 0) {
        fprintf(stderr, "dvicert enclose: error: --scale must be auto or none, got '%s'\n", sv);
        return DVC_EXIT_INPUT;
    }
    o->no_scale = dvc_cli_flag(a, "no-scale") || (sv && strcmp(sv, "none") == 0);
    if ((sv || o->no_scale) && (dvc_hybrid_file_kind(in) == 1 || dvc_lcs_file_is_lcs(in))) {
        fprintf(stderr, "dvicert enclose: error: %s: --scale belongs to DLVI problems; this file is "
                "enclosed by the hybrid engine\n", in);
        return DVC_EXIT_INPUT;
    }
    return DVC_EXIT_OK;
}

/* --prec-max, --allow-outside-tables, --max-table-bytes into o. */
static int parse_prec_tables(const dvc_cli_args *a, dvc_enclose_opts *o)
{
    if (dvc_cli_value(a, "prec-max")) {
        const char *v = dvc_cli_value(a, "prec-max");
        char *end;
        long b = strtol(v, &end, 10);
        if (end == v || *end != '\0' || b < 24 || b > 65536) {
            fprintf(stderr, "dvicert enclose: error: --prec-max must be an integer number of bits "
                    "in [24, 65536], got '%s'\n", v);
            return DVC_EXIT_INPUT;
        }
        o->prec_max = (mpfr_prec_t)b;
    }
    o->tables.allow_outside = dvc_cli_flag(a, "allow-outside-tables");
    if (dvc_cli_value(a, "max-table-bytes")) {
        const char *v = dvc_cli_value(a, "max-table-bytes");
        char *end;
        unsigned long long b;
        int shift = 0;
        errno = 0;
        b = strtoull(v, &end, 10);
        if (*end == 'k' || *end == 'K') shift = 10, end++;
        else if (*end == 'M') shift = 20, end++;
        else if (*end == 'G') shift = 30, end++;
        if (end == v || !isdigit((unsigned char)v[0]) || *end != '\0' || errno || b == 0 ||
            b > (SIZE_MAX >> shift)) {
            fprintf(stderr, "dvicert enclose: error: --max-table-bytes must be a positive number of "
                    "bytes (suffix k, M or G allowed), got '%s'\n", v);
            return DVC_EXIT_INPUT;
        }
        o->tables.max_bytes = (size_t)b << shift;
    }
    return DVC_EXIT_OK;
}

/* --method, --from, --predictor into o, checked against the route the
 * library's policy chooses (*ch). */
static int parse_route(const dvc_cli_args *a, const char *in, dvc_enclose_opts *o, dvc_enclose_info *ch)
{
    const char *mv = dvc_cli_value(a, "method");
    int r = mv ? dvc_enclose_route_parse(mv) : DVC_ENCLOSE_AUTO;
    if (r == -2) {
        fprintf(stderr, "dvicert enclose: error: --method must be auto, chen-wang, lognorm or events, got "
                "'%s'\n", mv);
        return DVC_EXIT_INPUT;
    }
    o->route = (dvc_enclose_route)r;
    o->from = dvc_cli_value(a, "from");
    o->predictor = dvc_cli_value(a, "predictor");
    dvc_enclose_choose(ch, in, o);
    if (o->predictor && strcmp(o->predictor, "theta") != 0 && strcmp(o->predictor, "heun") != 0) {
        fprintf(stderr, "dvicert enclose: error: --predictor must be theta or heun, got '%s'\n", o->predictor);
        return DVC_EXIT_INPUT;
    }
    if (o->predictor && (o->from || ch->route != DVC_ENCLOSE_LOGNORM)) {
        fprintf(stderr, "dvicert enclose: error: --predictor belongs to --method lognorm without --from\n");
        return DVC_EXIT_INPUT;
    }
    if (o->from && ch->route == DVC_ENCLOSE_CHEN_WANG) {
        fprintf(stderr, "dvicert enclose: error: --from certifies a trajectory by the lognorm route; "
                "--method chen-wang certifies its own predictor\n");
        return DVC_EXIT_INPUT;
    }
    if (ch->route == DVC_ENCLOSE_LOGNORM && (o->local_beta || o->prec_max > 0)) {
        fprintf(stderr, "dvicert enclose: error: %s belongs to the chen-wang route\n",
                o->local_beta ? "--sharpen" : "--prec-max");
        return DVC_EXIT_INPUT;
    }
    return DVC_EXIT_OK;
}

/* --radius, --radius-at, --max-steps: the search sets o->N (and pins the
 * route it settled on; *why its reason). */
static int radius_opts(const dvc_cli_args *a, const char *in, dvc_enclose_opts *o, const char **why,
                       int *at_all, char *rbuf, dvc_cert_t c, int *written, dvc_enclose_info *info)
{
    dvc_outfile of;
    const char *R = dvc_cli_value(a, "radius"), *at = dvc_cli_value(a, "radius-at"),
               *ms = dvc_cli_value(a, "max-steps");
    long cap = 10000000L;
    char *end;
    double r;
    radius_ctx x;
    int rc;
    if (!R && ms && o->max_steps > 0) return DVC_EXIT_OK; /* the events route: its budget */
    if (!R && (at || ms)) {
        fprintf(stderr, "dvicert enclose: error: --%s belongs to --radius\n", at ? "radius-at" : "max-steps");
        return DVC_EXIT_INPUT;
    }
    if (!R) return DVC_EXIT_OK;
    errno = 0;
    r = strtod(R, &end);
    if (end == R || *end != '\0' || errno || !isfinite(r) || !(r > 0)) {
        fprintf(stderr, "dvicert enclose: error: --radius must be a positive number, got '%s'\n", R);
        return DVC_EXIT_INPUT;
    }
    if (at && strcmp(at, "T") != 0 && strcmp(at, "all") != 0) {
        fprintf(stderr, "dvicert enclose: error: --radius-at must be T or all, got '%s'\n", at);
        return DVC_EXIT_INPUT;
    }
    if (ms) {
        errno = 0;
        cap = strtol(ms, &end, 10);
        if (end == ms || *end != '\0' || errno || cap < 2 || cap > DVC_DLVI_N_MAX) {
            fprintf(stderr, "dvicert enclose: error: --max-steps must be an integer in [2, %ld], got "
                    "'%s'\n", DVC_DLVI_N_MAX, ms);
            return DVC_EXIT_INPUT;
        }
    }
    if (o->from || o->prec_max > 0) {
        fprintf(stderr, "dvicert enclose: error: --radius chooses the grid of the theta or heun "
                "predictor without precision retries: not with %s\n", o->from ? "--from" : "--prec-max");
        return DVC_EXIT_INPUT;
    }
    memset(&x, 0, sizeof x);
    x.in = in;
    x.o = o;
    x.why = *why;
    x.at_all = *at_all = at && strcmp(at, "all") == 0;
    x.buf = rbuf;
    x.rep = a->report;
    x.c = c;
    /* the trial runs write a temporary file beside the output (a regular
     * file only; a pipe or "-" gets the dry runs and one final run) */
    memset(&of, 0, sizeof of);
    if (a->out && strcmp(a->out, "-") != 0 && dvc_outfile_open(&of, a->out) == DVC_OK && of.tmp)
        x.trial = of.tmp;
    dvc_error_reset();
    rc = radius_search(&x, R, cap, &o->N);
    *why = x.why;
    *written = 0;
    if (rc == DVC_EXIT_OK && x.written) {
        dvc_status st = dvc_outfile_commit(&of);
        if (st != DVC_OK) rc = dvc_cli_fail("enclose", st);
        *written = st == DVC_OK;
        *info = x.info;
    }
    dvc_outfile_clear(&of);
    return rc;
}

/* The tube's times as doubles on demand (the report's step range: no
 * copy of N + 1 times). */
static dvc_status tube_time(void *ctx, long i, double *t)
{
    const dvc_tube_struct *tb = ctx;
    *t = mpfr_get_d(tb->t[i], MPFR_RNDN);
    return DVC_OK;
}

/* The grid line of the report. */
static void report_grid(FILE *rep, const dvc_cert_t c)
{
    const dvc_tube_struct *tb = c->tube;
    dvc_tgrid_src src = {tube_time, (void *)tb};
    dvc_tgrid g;
    /* a trajectory's own times, streamed: the tube does not hold them */
    int from_grid = !tb->t && c->from_samples > 0 && !c->from_uniform;
    if (tb->t) dvc_tgrid_set_src(&g, c->N, &src);
    else dvc_tgrid_set(&g, c->N, tb->hgrid, NULL);
    if (g.kind == DVC_TGRID_LAST_SHORT) {
        /* h does not divide T: t_i = i h, the last step [(N-1) h, T] */
        double hl = dvc_tgrid_last_step_d(&g, tb->T), T = mpfr_get_d(&tb->T->left, MPFR_RNDN);
        fprintf(rep, "note: h = %.6g does not divide T = %.6g: %ld steps, the last of length %.6g\n",
                g.h, T, c->N, hl);
        fprintf(rep, "certified: %ld steps of h = %.6g (the last %.6g), n = %ld, m = %ld, %ld bits\n",
                c->N, g.h, hl, c->n, c->m, (long)c->prec);
    } else if (g.kind == DVC_TGRID_EXPLICIT || from_grid) {
        /* the problem's time grid (a trajectory's own times) */
        double hmin = c->from_hmin, hmax = c->from_hmax;
        if (!from_grid) (void)dvc_tgrid_step_range_d(&hmin, &hmax, &g, tb->T); /* the tube's: no error */
        fprintf(rep, "certified: %ld steps on the time grid (steps %.6g to %.6g), n = %ld, m = %ld, %ld bits\n",
                c->N, hmin, hmax, c->n, c->m, (long)c->prec);
    } else {
        fprintf(rep, "certified: %ld steps of h = T/%ld, n = %ld, m = %ld, %ld bits\n", c->N, c->N, c->n,
                c->m, (long)c->prec);
    }
}

/* The report of the events route (its summary claims, dvc_enclose). */
static void report_events(FILE *rep, const dvc_cert_t c, const char *why, const char *out, double t0)
{
    const dvc_cert_claims *s = &c->summary;
    const dvc_cert_claim *ns = dvc_cert_claim_get(s, "steps"), *ne = dvc_cert_claim_get(s, "events"),
                         *np = dvc_cert_claim_get(s, "patterns"), *nw = dvc_cert_claim_get(s, "windows");
    fprintf(rep, "certified: the exact solution (route events), %lld steps, %lld events, %lld patterns "
            "named, %ld bits\n", ns ? ns->ival : 0LL, ne ? ne->ival : 0LL, np ? np->ival : 0LL,
            (long)c->prec);
    if (why) fprintf(rep, "route: events, chosen by --method auto: %s\n", why);
    if (nw && nw->ival > 0)
        fprintf(rep, "ambiguity windows bridged by a validated step of the continuous field: %lld "
                "(events there are not isolated; docs/events.md section 3)\n", nw->ival);
    if (ne && ne->ival > 0)
        fprintf(rep, "event times: widest <= %s\n", dvc_cert_claim_text(s, "max_event_width_upper"));
    fprintf(rep, "widest state enclosure at T <= %s\n", dvc_cert_claim_text(s, "max_width_at_T_upper"));
    fprintf(rep, "verdict: %s (largest relative radius %s, %s; radii are half the widths of the state\n"
            "  enclosures at the grid times; `dvicert info` prints them per state)\n",
            dvc_cert_claim_text(s, "radius_verdict"), dvc_cert_claim_text(s, "radius_rel_max"),
            dvc_cert_claim_text(s, "radius_worst"));
    if (dvc_cert_claim_get(s, "trajectory_error")) /* --from (docs/from_events.md) */
        fprintf(rep, "%s\n", dvc_cert_claim_text(s, "trajectory_error"));
    fprintf(rep, "wrote %s (%.2f s)\n", out, dvc_cli_now() - t0);
}

/* The report of a certified run. */
static void report(FILE *rep, const dvc_cert_t c, const dvc_enclose_opts *o, const dvc_enclose_info *info,
                   const char *why, const char *out, double t0)
{
    const dvc_cert_claims *s = &c->summary;
    const dvc_cert_claim *ns = dvc_cert_claim_get(s, "steps_sharpened");
    int lognorm = info->route == DVC_ENCLOSE_LOGNORM;
    report_grid(rep, c);
    if (why)
        fprintf(rep, "route: %s%s, chosen by --method auto: %s\n", dvc_enclose_route_name(info->route),
                lognorm || !info->local_beta ? "" : " with --local-beta", why);
    if (c->prec != c->prec_start)
        fprintf(rep, "precision: raised from %ld to %ld bits (--prec-max %ld); at %ld bits: %s\n",
               (long)c->prec_start, (long)c->prec, (long)o->prec_max, (long)c->prec / 2,
               c->retry_reason);
    fprintf(rep, "P-matrix: %s\n", dvc_cert_claim_text(s, "P_matrix"));
    fprintf(rep, "beta_M <= %s (%s)\n", dvc_cert_claim_text(s, "beta_M_upper"),
           dvc_cert_claim_text(s, "beta_method"));
    if (lognorm) {
        const dvc_cert_claim *mn = dvc_cert_claim_get(s, "mode_norms"),
                             *sw = dvc_cert_claim_get(s, "norm_switches");
        if (o->predictor) fprintf(rep, "predictor: %s\n", o->predictor);
        fprintf(rep, "route: lognorm, %s, mu <= %s, c_inf <= %s, mode norms %lld, switches %lld\n",
                strncmp(dvc_cert_claim_text(&c->method, "lognorm_norm"), "quad", 4) == 0 ? "quadratic norm"
                                                                               : "weighted inf norm",
                dvc_cert_claim_text(s, "mu_upper"), dvc_cert_claim_text(s, "c_inf_upper"),
                mn ? mn->ival : 0LL, sw ? sw->ival : 0LL);
        if (o->from) {
            if (c->from_uniform)
                fprintf(rep, "trajectory: %ld samples, the grid itself\n", c->from_samples);
            else
                fprintf(rep, "trajectory: %ld samples, not uniform: their own times are the certificate's "
                        "time grid, [0, %.17g]%s\n", c->from_samples, c->from_end,
                        c->from_past > 0 ? " (later samples not used)" : "");
        }
    } else {
        fprintf(rep, "L <= %s, h_max >= %s\n", dvc_cert_claim_text(s, "L_upper"),
               dvc_cert_claim_text(s, "h_max_lower"));
    }
    fprintf(rep, "eps_x at T <= %s, max eps_x <= %s, max eps_y <= %s\n",
           dvc_cert_claim_text(s, "eps_x_at_T"), dvc_cert_claim_text(s, "max_eps_x"),
           dvc_cert_claim_text(s, "max_eps_y"));
    if (info->local_beta)
        fprintf(rep, "sharpened steps (Remark 4.3): %lld\n",
               ns ? ns->ival : 0LL);
    dvc_cli_width_report(rep, c);
    fprintf(rep, "wrote %s (%.2f s)\n", out, dvc_cli_now() - t0);
}

static int run(const dvc_cli_args *a)
{
    const char *in = a->pos[0], *out = a->out, *why;
    dvc_enclose_opts o;
    dvc_enclose_info info;
    dvc_cert_t c;
    dvc_status st;
    double t0;
    int radius_all = 0, rc, written = 0;
    char rbuf[64];
    dvc_enclose_opts_init(&o);
    o.local_beta = dvc_cli_flag(a, "sharpen") || dvc_cli_flag(a, "local-beta");
    o.prec = a->prec_given ? a->prec : 0;
    o.note = note_fallback;
    o.keep_steps = 0; /* without -o: a dry run */
    if (dvc_cli_value(a, "radius") && (dvc_hybrid_file_kind(in) == 1 || dvc_lcs_file_is_lcs(in))) {
        /* the hybrid engine chooses its own steps */
        fprintf(stderr, "dvicert enclose: error: %s: --radius chooses the grid of a DLVI problem; this "
                "file is enclosed by the hybrid engine, which chooses its own steps\n", in);
        return DVC_EXIT_INPUT;
    }
    if ((rc = parse_scale(a, in, &o)) != DVC_EXIT_OK) return rc;
    if (dvc_hybrid_file_kind(in) == 1) return dvc_cli_hybrid_enclose(a);
    if (dvc_lcs_file_is_lcs(in)) return dvc_cli_lcs_enclose(a);
    if ((rc = parse_prec_tables(a, &o)) != DVC_EXIT_OK) return rc;
    if ((rc = parse_route(a, in, &o, &info)) != DVC_EXIT_OK) return rc;
    why = info.why;
    if (dvc_cli_value(a, "max-seconds") && info.route != DVC_ENCLOSE_EVENTS) {
        fprintf(stderr, "dvicert enclose: error: --max-seconds is the budget of the hybrid engine: "
                "for a hybrid model or --method events\n");
        return DVC_EXIT_INPUT;
    }
    if (info.route == DVC_ENCLOSE_EVENTS &&
        (rc = dvc_cli_hybrid_budget(a, "enclose", &o.max_steps, &o.max_seconds)) != 0)
        return rc;
    t0 = dvc_cli_now();
    dvc_cert_init(c);
    if ((rc = radius_opts(a, in, &o, &why, &radius_all, rbuf, c, &written, &info)) != DVC_EXIT_OK) {
        dvc_cert_clear(c);
        return rc;
    }
    /* steps are written as they are certified: memory independent of N */
    st = written ? DVC_OK : dvc_enclose(c, in, &o, out, &info);
    if (!o.N) why = info.why;
    /* the engine does not know the file (a reader error names it already) */
    if (st == DVC_NOT_CERTIFIED || st == DVC_ERR_INPUT) dvc_error_context(st, "%s: ", in);
    if (st == DVC_OK && o.N > 0 && !radius_le(radius_of(c, radius_all, rbuf), dvc_cli_value(a, "radius"))) {
        /* the dry run at this N reached R and the run is deterministic:
         * never expected (the certificate written is still true) */
        st = dvc_error(DVC_ERR_INTERNAL, "%s: the certified radius differs from the dry run's at N = %ld",
                       out, o.N);
    }
    if (st != DVC_OK) {
        rc = dvc_cli_fail("enclose", st);
        if (st == DVC_NOT_CERTIFIED && o.prec_max == 0 && info.route != DVC_ENCLOSE_EVENTS)
            dvc_cli_not_certified_note(stderr, dvc_error_message());
        dvc_cert_clear(c);
        return rc;
    }
    if (info.route == DVC_ENCLOSE_EVENTS) report_events(a->report, c, why, out, t0);
    else report(a->report, c, &o, &info, why, out, t0);
    dvc_cert_clear(c);
    return DVC_EXIT_OK;
}
