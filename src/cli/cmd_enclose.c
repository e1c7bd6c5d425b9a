/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert enclose: run the certified time-stepping engine on a problem file
 * and write a certificate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dvicert/certio.h"

void dvc_help_enclose(void)
{
    printf(
        "usage: dvicert enclose PROBLEM.json -o OUT.cert.json [--sharpen] [--prec BITS]\n"
        "                       [--prec-max BITS]\n\n"
        "Certified enclosure of the solution of the DLVI in PROBLEM.json\n"
        "  x' = A x + B y + f(t),  y in SOL(l, u, Q x + g(t), M),  x(0) = x0,  t in [0, T]\n"
        "by the theta time-stepping method (Chen & Wang (4.2)) with the error bounds of\n"
        "Theorem 4.1 re-derived in docs/bounds.md (predictor defect and the Lipschitz\n"
        "constants of f and g included), all in outward-rounded interval arithmetic.\n"
        "M must be proven a P-matrix and h = T/N must satisfy h (L - theta ||A||) < 1.\n\n"
        "options:\n"
        "  -o FILE       certificate to write (atomically; nothing is written on failure)\n"
        "  --sharpen     Remark 4.3: on steps where one active set is certified, use\n"
        "                ||(M_FF)^{-1}|| instead of beta_M\n"
        "  --prec BITS   working precision (default: the file's \"prec\", else 53)\n"
        "  --prec-max BITS\n"
        "                when the run is not certified, retry at twice the precision\n"
        "                while it stays <= BITS (default: no retry). The problem is re-read\n"
        "                at each precision; the certificate records the precision used\n"
        "                (field 'precision'), which 'verify' recomputes at.\n\n"
        "Problem and certificate formats: docs/formats.md. Re-check a certificate with\n"
        "'dvicert verify'.\n"
        "exit status: 0 certificate written, 1 not certified (the reason names the step),\n"
        "2 bad input or i/o error.\n");
}

int dvc_cmd_enclose(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int sharpen = 0, digits = 6;
    mpfr_prec_t prec = 0, prec_max = 0;
    dvc_cert_t c;
    dvc_status st;
    double t0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--prec") == 0 || strncmp(argv[i], "--prec=", 7) == 0)
            prec = 1; /* given: read after parsing */
    argc = dvc_cli_common_opts(argc, argv, &digits);
    if (argc < 0) return DVC_EXIT_INPUT;
    if (prec) prec = dvc_prec_get();
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "dvicert enclose: error: -o needs a file name\n");
                return DVC_EXIT_INPUT;
            }
            out = argv[++i];
        } else if (strcmp(argv[i], "--prec-max") == 0 || strncmp(argv[i], "--prec-max=", 11) == 0) {
            const char *v = argv[i][10] == '=' ? argv[i] + 11 : NULL;
            char *end;
            long b;
            if (!v && i + 1 >= argc) {
                fprintf(stderr, "dvicert enclose: error: --prec-max needs a number of bits\n");
                return DVC_EXIT_INPUT;
            }
            if (!v) v = argv[++i];
            b = strtol(v, &end, 10);
            if (end == v || *end != '\0' || b < 24 || b > 65536) {
                fprintf(stderr, "dvicert enclose: error: --prec-max must be an integer number of bits "
                        "in [24, 65536], got '%s'\n", v);
                return DVC_EXIT_INPUT;
            }
            prec_max = (mpfr_prec_t)b;
        } else if (strcmp(argv[i], "--sharpen") == 0) {
            sharpen = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "dvicert enclose: error: unknown option '%s' (see --help)\n", argv[i]);
            return DVC_EXIT_INPUT;
        } else if (in == NULL) {
            in = argv[i];
        } else {
            fprintf(stderr, "dvicert enclose: error: more than one problem file\n");
            return DVC_EXIT_INPUT;
        }
    }
    if (in == NULL || out == NULL) {
        fprintf(stderr, "usage: dvicert enclose PROBLEM.json -o OUT.cert.json [--sharpen] [--prec BITS] "
                "[--prec-max BITS]\n");
        return DVC_EXIT_INPUT;
    }
    t0 = dvc_cli_now();
    dvc_cert_init(c);
    st = dvc_cert_enclose_retry(c, in, prec, prec_max, sharpen);
    if (st == DVC_OK) st = dvc_cert_write(c, out);
    if (st != DVC_OK) {
        int rc = dvc_cli_fail("enclose", st);
        if (st == DVC_NOT_CERTIFIED && prec_max == 0)
            fprintf(stderr, "dvicert enclose: note: if the reason is a lack of precision, "
                    "--prec-max BITS retries at higher precisions\n");
        dvc_cert_clear(c);
        return rc;
    }
    {
        const dvc_cert_claims *s = &c->summary;
        const dvc_cert_claim *ns = dvc_cert_claim_get(s, "steps_sharpened");
        printf("certified: %ld steps of h = T/%ld, n = %ld, m = %ld, %ld bits\n", c->N, c->N, c->n,
               c->m, (long)c->prec);
        if (c->prec != c->prec_start)
            printf("precision: raised from %ld to %ld bits (--prec-max %ld); at %ld bits: %s\n",
                   (long)c->prec_start, (long)c->prec, (long)prec_max, (long)c->prec / 2,
                   c->retry_reason);
        printf("P-matrix: %s\n", dvc_cert_claim_text(s, "P_matrix"));
        printf("beta_M <= %s (%s)\n", dvc_cert_claim_text(s, "beta_M_upper"),
               dvc_cert_claim_text(s, "beta_method"));
        printf("L <= %s, h_max >= %s\n", dvc_cert_claim_text(s, "L_upper"),
               dvc_cert_claim_text(s, "h_max_lower"));
        printf("eps_x at T <= %s, max eps_x <= %s, max eps_y <= %s\n",
               dvc_cert_claim_text(s, "eps_x_at_T"), dvc_cert_claim_text(s, "max_eps_x"),
               dvc_cert_claim_text(s, "max_eps_y"));
        if (sharpen)
            printf("sharpened steps (Remark 4.3): %lld\n",
                   ns ? ns->ival : 0LL);
        printf("wrote %s (%.2f s)\n", out, dvc_cli_now() - t0);
    }
    dvc_cert_clear(c);
    return DVC_EXIT_OK;
}
