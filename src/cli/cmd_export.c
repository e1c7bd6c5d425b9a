/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* dvicert export: the certified tube as CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dvicert/cert.h"
#include "io/problem_json.h"

void dvc_help_export(void)
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
        "(default 17), at the certificate's precision (--prec is refused). The\n"
        "certificate is not re-verified here: run 'dvicert verify'.\n"
        "exit status: 0 written, 2 unusable certificate or i/o error.\n");
}

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

int dvc_cmd_export(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int digits = 17, grid_only = 0, fail = 0, want_w = 0;
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
    argc = dvc_cli_common_opts(argc, argv, &digits);
    if (argc < 0) return DVC_EXIT_INPUT;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "dvicert export: error: -o needs a file name\n");
                return DVC_EXIT_INPUT;
            }
            out = argv[++i];
        } else if (strcmp(argv[i], "--grid-only") == 0) {
            grid_only = 1;
        } else if (strcmp(argv[i], "--w") == 0) {
            want_w = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "dvicert export: error: unknown option '%s' (see --help)\n", argv[i]);
            return DVC_EXIT_INPUT;
        } else if (!in) {
            in = argv[i];
        } else {
            fprintf(stderr, "dvicert export: error: too many arguments\n");
            return DVC_EXIT_INPUT;
        }
    }
    if (!in || !out) {
        fprintf(stderr, "usage: dvicert export CERT.json -o TUBE.csv\n");
        return DVC_EXIT_INPUT;
    }
    dvc_cert_init(c);
    st = dvc_cert_read(c, in);
    if (st != DVC_OK) {
        fprintf(stderr, "dvicert export: unusable certificate: %s\n", dvc_error_message());
        dvc_cert_clear(c);
        return DVC_EXIT_INPUT;
    }
    if (want_w) {
        /* the problem (Q, M, g) from the certificate's self-contained copy */
        dvc_prec_set(c->prec);
        dvc_dlvi_problem_init(p, 0, 0, 0);
        have_p = 1;
        st = dvc_problem_from_json(p, NULL, c->problem, "embedded problem", NULL, c->prec);
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
            dvc_cert_time(t, c, kind ? i : i - 1);
            fail |= put_fr(&buf, &len, &cap, &t->left, digits, MPFR_RNDD);
            dvc_cert_time(t, c, i);
            fail |= put_fr(&buf, &len, &cap, &t->right, digits, MPFR_RNDU);
            for (int which = 0; which < 2; which++) {
                long cnt = which ? c->m : c->n;
                if (kind) dvc_cert_tube_grid(lo, hi, c, i, which);
                else dvc_cert_tube_step(lo, hi, c, i, which);
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
                dvc_cert_time(tt, c, kind ? i : i - 1);
                dvc_cert_time(t, c, i);
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
    printf("wrote %s (%ld grid points, %ld steps)\n", out, c->N + 1, grid_only ? 0 : c->N);
    dvc_cert_clear(c);
    return DVC_EXIT_OK;
}
