/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert verify: independent re-verification of a certificate. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "certview.h"

static void help(void)
{
    printf(
        "usage: dvicert verify CERT.json\n\n"
        "Re-verifies a certificate written by 'dvicert enclose' without trusting it:\n"
        "rebuilds the problem from the copy embedded in the certificate (tabulated data\n"
        "included), checks its digest, recomputes every bound from the stored predictor\n"
        "(exact binary values) with the same certified engine, and accepts only if every\n"
        "stored bound is >= the recomputed rigorous bound, the stored enclosures of y\n"
        "contain the recomputed ones, the method/summary entries match, and the\n"
        "certificate's digest matches its text. It works at the precision the\n"
        "certificate records (field 'precision', possibly raised by 'enclose --prec-max'),\n"
        "so --prec is refused; a certificate stating more than 4096 bits is refused as\n"
        "unusable (verify's cost grows with the precision). Keys not in docs/formats.md\n"
        "make a certificate unusable; keys starting with '_' are notes, never read.\n"
        "A hybrid certificate is verified by re-running the hybrid engine on the embedded\n"
        "model: every stated enclosure must contain the recomputed one.\n\n");
    dvc_cli_print_options(&dvc_cmd_verify);
    printf(
        "\nexit status: 0 accepted, 1 rejected (the first reason names the step and the\n"
        "field), 2 unusable file (not JSON, missing or mistyped fields).\n");
}

static const dvc_cli_opt opts[] = {
    {"no-cache", 0, NULL, NULL, "do not record the accepted certificate in the verified-certificate\n"
                                "cache (docs/formats.md)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_verify = {
    "verify", "independent re-verification of a certificate", opts, "it prints no bounds",
    DVC_CLI_CERT_PREC, 1, 1, "dvicert verify CERT.json", help, run};

static int run(const dvc_cli_args *a)
{
    const char *in = a->pos[0];
    dvc_cli_cert d;
    dvc_status st;
    double t0 = dvc_cli_now();
    dvc_cli_cert_init(&d);
    d.no_cache = dvc_cli_flag(a, "no-cache");
    st = dvc_cli_cert_read(&d, in, 2);
    if (st == DVC_OK)
        printf("accepted: %s: %s (%ld bits, %.2f s)\n", in, d.claim, (long)d.prec, dvc_cli_now() - t0);
    else if (st == DVC_NOT_CERTIFIED)
        printf("rejected: %s: %s\n", in, dvc_error_message());
    else
        fprintf(stderr, "dvicert verify: unusable certificate: %s\n", dvc_error_message());
    dvc_cli_cert_clear(&d);
    return dvc_cli_exit_code(st);
}
