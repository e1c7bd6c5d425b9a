/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert events: the certified events of a hybrid certificate (switched,
 * sliding, ideal-contact model, or the events route), one row each, as a
 * table or as CSV. The times are the certificate's enclosures rounded
 * outward to 17 significant digits: every printed [t_lo, t_hi] contains the
 * event's time. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "cache.h"
#include "certview.h"
#include "io/hybrid_tube_y.h"
#include "io/hybrid_json.h"
#include "hybrid.h"
#include "dvicert/hybrid_cert.h"

static const dvc_cli_opt opts[] = {
    {"csv", 0, NULL, NULL,
     "print CSV instead of the table; header\n"
     "event,kind,switch,from,to,t_lo,t_hi,width"},
    {"verify", 0, NULL, NULL, "verify the certificate first (as 'dvicert verify'); the events\n"
                              "listed are then proven, else they are what the file states"},
    {"no-cache", 0, NULL, NULL, "recompute even when this binary verified the same text before\n"
                                "(the verified-certificate cache, docs/formats.md)"},
    {NULL, 0, NULL, NULL, NULL},
};

static void help(void)
{
    printf(
        "usage: dvicert events CERT.json [--csv] [--verify]\n\n"
        "Lists the certified events of a hybrid certificate: a switched model's\n"
        "crossings, a sliding or ideal-contact model's entries to and exits from a\n"
        "sliding motion (a contact closing or opening), and the events route's\n"
        "changes of active pattern (its modes are the DLVI patterns). One row per\n"
        "event, in time order:\n"
        "  event   its index, 1..\n"
        "  kind    cross, enter-slide or leave-slide (the certificate's \"kind\": a\n"
        "          sliding motion starts or ends); for a friction model (every\n"
        "          discontinuous term a dry-friction law -sgn(h) F on a velocity h,\n"
        "          docs/sliding.md) stick and slip instead\n"
        "  switch  the switching function (or discontinuous term) that fired\n"
        "  from    the mode before, to: the mode after\n"
        "  t_lo, t_hi  the certified enclosure of the event's time, rounded outward\n"
        "              to 17 significant digits\n"
        "  width   t_hi - t_lo of the certificate's enclosure, rounded up\n"
        "--csv prints the same columns as CSV (header line first; a field holding\n"
        "a comma or a quote is quoted). A DLVI certificate (routes chen-wang,\n"
        "lognorm) locates no events: it is refused (exit 2), as is a file that is\n"
        "not a certificate. Without --verify the events are the file's statements.\n\n");
    dvc_cli_print_options(&dvc_cmd_events);
    printf("\nexit status: 0 listed, 1 rejected by --verify, 2 unusable file or a DLVI certificate.\n");
}

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_events = {
    "events", "list a hybrid certificate's events: kind, switch, modes and time enclosure",
    opts, "it prints the certificate's times rounded outward to 17 digits", DVC_CLI_CERT_PREC, 1, 1,
    "dvicert events CERT.json [--csv] [--verify]", help, run};

/* The width t_hi - t_lo of a time enclosure, rounded up, 4 digits rounded up. */
static void width_text(char *buf, size_t len, const mpfi_t t)
{
    mpfr_t w;
    mpfr_init2(w, 64);
    mpfr_sub(w, &t->right, &t->left, MPFR_RNDU);
    mpfr_snprintf(buf, len, "%.3RUe", w);
    mpfr_clear(w);
}

static int run(const dvc_cli_args *a)
{
    const char *in = a->pos[0];
    int csv = dvc_cli_flag(a, "csv"), verify = dvc_cli_flag(a, "verify");
    dvc_cli_cert d;
    dvc_status st;
    dvc_cli_cert_init(&d);
    d.no_cache = dvc_cli_flag(a, "no-cache");
    st = dvc_cli_cert_read(&d, in, verify);
    if (st == DVC_OK && d.kind != DVC_CERT_KIND_HYBRID) {
        fprintf(stderr, "dvicert events: %s is a DLVI certificate (route chen-wang or lognorm): it "
                "locates no events; the events route ('dvicert enclose', the default where it "
                "applies) writes a certificate that lists them\n", in);
        dvc_cli_cert_clear(&d);
        return DVC_EXIT_INPUT;
    }
    if (st != DVC_OK) {
        int rc = dvc_cli_cert_refused("events", stdout, in, st, "listed");
        dvc_cli_cert_clear(&d);
        return rc;
    }
    {
        const dvc_hybrid_model_struct *m = d.hyb->model;
        const dvc_hybrid_result_struct *r = d.hyb->res;
        int ws = 6, wm = 4; /* the table's columns fit the longest switch and mode names */
        int friction = dvc_hybrid_cert_friction(d.hyb);
        for (long k = 0; k < r->nevents; k++) {
            const dvc_hybrid_event *e = &r->ev[k];
            int l = (int)strlen(m->gname[e->g]);
            if (l > ws) ws = l;
            l = (int)strlen(m->modes[e->mode_before].name);
            if (l > wm) wm = l;
            l = (int)strlen(m->modes[e->mode_after].name);
            if (l > wm) wm = l;
        }
        if (csv) printf("event,kind,switch,from,to,t_lo,t_hi,width\n");
        else {
            printf("certificate: %s%s\n", in, !verify ? " (not verified: the file's events)"
                                            : d.cached ? " (" DVC_CLI_CACHED ")" : " (verified)");
            printf("%ld events\n", r->nevents);
            printf("%5s  %-11s %-*s %-*s %-*s %24s %24s %10s\n", "event", "kind", ws, "switch", wm, "from",
                   wm, "to", "t_lo", "t_hi", "width");
        }
        for (long k = 0; k < r->nevents; k++) {
            const dvc_hybrid_event *e = &r->ev[k];
            const char *kind = dvc_hybrid_event_word_(friction, dvc_hybrid_event_kind_of(m, e));
            const char *sw = m->gname[e->g], *from = m->modes[e->mode_before].name;
            const char *to = m->modes[e->mode_after].name;
            char lo[64], hi[64], w[32];
            mpfr_snprintf(lo, sizeof lo, "%.17RDg", &e->t->left);
            mpfr_snprintf(hi, sizeof hi, "%.17RUg", &e->t->right);
            width_text(w, sizeof w, e->t);
            if (csv) {
                printf("%ld,", k + 1);
                dvc_cli_csv_put(kind, ',');
                dvc_cli_csv_put(sw, ',');
                dvc_cli_csv_put(from, ',');
                dvc_cli_csv_put(to, ',');
                printf("%s,%s,%s\n", lo, hi, w);
            } else {
                printf("%5ld  %-11s %-*s %-*s %-*s %24s %24s %10s\n", k + 1, kind, ws, sw, wm, from, wm, to, lo,
                       hi, w);
            }
        }
    }
    dvc_cli_cert_clear(&d);
    return DVC_EXIT_OK;
}
