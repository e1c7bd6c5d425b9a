/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert export: the certified tube as CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dvicert/certio.h"

static const dvc_cli_opt opts[] = {
    {"output", 'o', "FILE", "a file name", "the CSV file to write (nothing is written on failure)"},
    {"digits", 0, "D", "a number of digits", "significant digits of the bounds (default 17)"},
    {"grid-only", 0, NULL, NULL, "only the grid rows"},
    {"w", 0, NULL, NULL, "add columns w1_lo,w1_hi,...,wm_lo,wm_hi (see above)"},
    {"no-verify", 0, NULL, NULL, "do not re-verify the certificate first (the output says so)"},
    {NULL, 0, NULL, NULL, NULL},
};

static void help(void)
{
    printf(
        "usage: dvicert export CERT.json -o TUBE.csv [--digits D] [--grid-only] [--w]\n\n"
        "Writes the certified tube as CSV (columns documented in docs/formats.md):\n"
        "  kind,t_lo,t_hi,x1_lo,x1_hi,...,xn_lo,xn_hi,y1_lo,y1_hi,...,ym_lo,ym_hi\n"
        "kind = grid: bounds at the grid point t_i (t_lo, t_hi enclose t_i = i T/N):\n"
        "       x^i +- eps_x^i and y^i +- eps_y^i;\n"
        "kind = step: bounds valid for every t in [t_{i-1}, t_i] (t_lo, t_hi: that\n"
        "       interval, rounded outward).\n"
        "Every y bound is met with [l, u] (y solves the LVI, so it lies in [l, u]).\n"
        "--w adds columns w1_lo,w1_hi,...,wm_lo,wm_hi: enclosures of the LVI function\n"
        "       w = Q x + M y + g(t) over the same times (e.g. the diode currents z of\n"
        "       Example 5.3, certs/circuit), computed in interval arithmetic from the\n"
        "       x and y bounds of the row.\n"
        "Bounds are printed rounded outward (lower down, upper up), D significant digits\n"
        "(default 17), at the certificate's precision (--prec is refused).\n"
        "The certificate is first re-verified (as 'dvicert verify'); a rejected one is\n"
        "not exported. --no-verify skips that: the CSV then starts with the comment line\n"
        "'# certificate NOT re-verified (--no-verify)' and the message says so.\n\n");
    dvc_cli_print_options(&dvc_cmd_export);
    printf("\nexit status: 0 written, 1 certificate rejected, 2 unusable certificate or i/o\n"
           "error.\n");
}

static int run(const dvc_cli_args *a);

const dvc_cli_cmd dvc_cmd_export = {
    "export", "a certificate's tube as CSV", opts, NULL, DVC_CLI_CERT_PREC, 1, 1,
    "dvicert export CERT.json -o TUBE.csv [--digits D] [--grid-only] [--w]", help, run};

static int put(char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        size_t nc = 2 * (*cap + n + 1);
        char *nb = realloc(*buf, nc);
        if (!nb) return -1;
        *buf = nb;
        *cap = nc;
    }
    memcpy(*buf + *len, s, n + 1);
    *len += n;
    return 0;
}

static int put_fr(char **buf, size_t *len, size_t *cap, const mpfr_t x, int digits, mpfr_rnd_t r)
{
    char *s = dvc_mpfr_str(x, digits, r);
    int rc = s == NULL || put(buf, len, cap, ",") || put(buf, len, cap, s);
    free(s);
    return rc;
}

static int run(const dvc_cli_args *a)
{
    const char *in = a->pos[0], *out = a->out;
    int digits = a->digits_given ? a->digits : 17, fail = 0;
    int grid_only = dvc_cli_flag(a, "grid-only"), want_w = dvc_cli_flag(a, "w");
    int verify = !dvc_cli_flag(a, "no-verify");
    dvc_dlvi_problem_t p;
    dvc_ivec_t X, Y, W, G;
    int have_p = 0;
    long k2;
    dvc_cert_t c;
    dvc_status st;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    mpfr_t *lo, *hi;
    mpfi_t t;
    dvc_cert_init(c);
    st = dvc_cert_read(c, in);
    if (st != DVC_OK) {
        fprintf(stderr, "dvicert export: unusable certificate: %s\n", dvc_error_message());
        dvc_cert_clear(c);
        return DVC_EXIT_INPUT;
    }
    if (verify) {
        st = dvc_cert_verify(c);
        if (st != DVC_OK) {
            if (st == DVC_NOT_CERTIFIED)
                fprintf(a->report, "rejected certificate: %s: %s (nothing written)\n", in, dvc_error_message());
            else
                fprintf(stderr, "dvicert export: unusable certificate: %s\n", dvc_error_message());
            dvc_cert_clear(c);
            return st == DVC_NOT_CERTIFIED ? DVC_EXIT_FAIL : DVC_EXIT_INPUT;
        }
    }
    if (want_w) {
        /* the problem (Q, M, g) from the certificate's self-contained copy */
        dvc_prec_set(c->prec);
        dvc_dlvi_problem_init(p, 0, 0, 0);
        have_p = 1;
        st = dvc_cert_problem(p, c);
        if (st != DVC_OK) {
            dvc_dlvi_problem_clear(p);
            dvc_cert_clear(c);
            fprintf(stderr, "dvicert export: unusable certificate: %s\n", dvc_error_message());
            return DVC_EXIT_INPUT;
        }
    }
    dvc_ivec_init2(X, c->n, c->prec);
    dvc_ivec_init2(Y, c->m, c->prec);
    dvc_ivec_init2(W, c->m, c->prec);
    dvc_ivec_init2(G, c->m, c->prec);
    k2 = c->n > c->m ? c->n : c->m;
    lo = malloc((size_t)k2 * sizeof *lo);
    hi = malloc((size_t)k2 * sizeof *hi);
    if (!lo || !hi) {
        free(lo);
        free(hi);
        dvc_cert_clear(c);
        fprintf(stderr, "dvicert export: error: out of memory\n");
        return DVC_EXIT_INPUT;
    }
    for (long k = 0; k < k2; k++) {
        mpfr_init2(lo[k], c->prec);
        mpfr_init2(hi[k], c->prec);
    }
    mpfi_init2(t, c->prec);
    if (!verify) fail |= put(&buf, &len, &cap, "# certificate NOT re-verified (--no-verify)\n");
    fail |= put(&buf, &len, &cap, "kind,t_lo,t_hi");
    for (long j = 0; j < c->n; j++) {
        char h[64];
        snprintf(h, sizeof h, ",x%ld_lo,x%ld_hi", j + 1, j + 1);
        fail |= put(&buf, &len, &cap, h);
    }
    for (long k = 0; k < c->m; k++) {
        char h[64];
        snprintf(h, sizeof h, ",y%ld_lo,y%ld_hi", k + 1, k + 1);
        fail |= put(&buf, &len, &cap, h);
    }
    for (long k = 0; want_w && k < c->m; k++) {
        char h[64];
        snprintf(h, sizeof h, ",w%ld_lo,w%ld_hi", k + 1, k + 1);
        fail |= put(&buf, &len, &cap, h);
    }
    fail |= put(&buf, &len, &cap, "\n");
    st = DVC_OK;
    for (long i = 0; i <= c->N && !fail && st == DVC_OK; i++) {
        for (int kind = (i == 0 || grid_only) ? 1 : 0; kind < 2; kind++) {
            /* kind 0: the step [t_{i-1}, t_i]; kind 1: the grid point t_i */
            fail |= put(&buf, &len, &cap, kind ? "grid" : "step");
            dvc_tube_time(t, c->tube, kind ? i : i - 1);
            fail |= put_fr(&buf, &len, &cap, &t->left, digits, MPFR_RNDD);
            dvc_tube_time(t, c->tube, i);
            fail |= put_fr(&buf, &len, &cap, &t->right, digits, MPFR_RNDU);
            for (int which = 0; which < 2; which++) {
                long cnt = which ? c->m : c->n;
                if (kind) dvc_tube_grid(lo, hi, c->tube, i, which);
                else dvc_tube_step_hull(lo, hi, c->tube, i, which);
                for (long j = 0; j < cnt; j++) {
                    fail |= put_fr(&buf, &len, &cap, lo[j], digits, MPFR_RNDD);
                    fail |= put_fr(&buf, &len, &cap, hi[j], digits, MPFR_RNDU);
                    mpfi_interv_fr(which ? Y->e[j] : X->e[j], lo[j], hi[j]);
                }
            }
            if (want_w && st == DVC_OK) {
                /* w = Q X + M Y + g(T) over the row's time interval */
                mpfi_t tt;
                mpfi_init2(tt, c->prec);
                dvc_tube_time(tt, c->tube, kind ? i : i - 1);
                dvc_tube_time(t, c->tube, i);
                mpfi_put(tt, t);
                dvc_imat_mul_vec(W, p->Q, X);
                dvc_imat_mul_vec(G, p->M, Y);
                dvc_ivec_add(W, W, G);
                if (p->gcb.eval) {
                    st = p->gcb.eval(G, tt, p->gcb.ctx);
                    if (st == DVC_OK) dvc_ivec_add(W, W, G);
                }
                mpfi_clear(tt);
                for (long k = 0; st == DVC_OK && k < c->m; k++) {
                    fail |= put_fr(&buf, &len, &cap, &W->e[k]->left, digits, MPFR_RNDD);
                    fail |= put_fr(&buf, &len, &cap, &W->e[k]->right, digits, MPFR_RNDU);
                }
            }
            fail |= put(&buf, &len, &cap, "\n");
        }
    }
    for (long k = 0; k < k2; k++) {
        mpfr_clear(lo[k]);
        mpfr_clear(hi[k]);
    }
    free(lo);
    free(hi);
    mpfi_clear(t);
    dvc_ivec_clear(X);
    dvc_ivec_clear(Y);
    dvc_ivec_clear(W);
    dvc_ivec_clear(G);
    if (have_p) dvc_dlvi_problem_clear(p);
    if (st != DVC_OK) ;
    else if (fail) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    else st = dvc_write_atomic(out, buf, len);
    free(buf);
    if (st != DVC_OK) {
        dvc_cert_clear(c);
        return dvc_cli_fail("export", st);
    }
    fprintf(a->report, "wrote %s (%ld grid points, %ld steps; certificate %s)\n", out, c->N + 1,
            grid_only ? 0 : c->N, verify ? "verified" : "NOT re-verified (--no-verify)");
    dvc_cert_clear(c);
    return DVC_EXIT_OK;
}
