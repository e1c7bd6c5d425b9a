/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The claims of a certificate of the lognorm route (docs/lognorm.md,
 * docs/formats.md): what verify recomputes and compares besides the steps. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert/lognorm.h"
#include "cert_internal.h"

static const char *const theorem_lognorm =
    "one-sided Lipschitz bound D+||e||_W <= mu_W ||e||_W + ||d||_W for the error e = x - p of the "
    "linear interpolant p of the stored predictor (defect d bounded over every whole step), "
    "mu_W >= the log norm of every piece Jacobian A - B (I - D + DM)^{-1} D Q, with the error set "
    "propagated through exp(J_D h) on steps with one certified pattern; derived in docs/lognorm.md, "
    "all in outward-rounded interval arithmetic";

/* "quad R = <n*n hex doubles>" or "diag w = <n hex doubles>": the norm, as
 * exact binary64 values. Owned string or NULL. */
static char *norm_text(const dvc_lognorm_info_struct *info)
{
    long cnt = info->kind == DVC_LOGNORM_QUAD ? info->n * info->n : info->n;
    const double *v = info->kind == DVC_LOGNORM_QUAD ? info->R : info->w;
    size_t cap = 16 + (size_t)cnt * 32, len;
    char *s = malloc(cap);
    if (!s || !v) {
        free(s);
        return NULL;
    }
    len = (size_t)snprintf(s, cap, "%s", info->kind == DVC_LOGNORM_QUAD ? "quad R =" : "diag w =");
    for (long k = 0; k < cnt && len < cap; k++) len += (size_t)snprintf(s + len, cap - len, " %a", v[k]);
    return s;
}

/* "none", or "pattern <bits> quad R = ...; pattern ..." for each mode
 * norm in creation order. Owned string or NULL. */
static char *modes_text(const dvc_lognorm_info_struct *info)
{
    long n = info->n, cnt = info->n_modes;
    size_t cap = 16 + (size_t)cnt * (48 + (size_t)(n * n) * 32), len = 0;
    char *s = malloc(cap);
    if (!s) return NULL;
    if (cnt == 0 || !info->mode_pattern || !info->mode_R) {
        snprintf(s, cap, "none");
        return s;
    }
    for (long j = 0; j < cnt && len < cap; j++) {
        len += (size_t)snprintf(s + len, cap - len, "%spattern %#lx quad R =", j ? "; " : "",
                                info->mode_pattern[j]);
        for (long k = 0; k < n * n && len < cap; k++)
            len += (size_t)snprintf(s + len, cap - len, " %a", info->mode_R[j * n * n + k]);
    }
    return s;
}

/* Parse "quad R = v..." / "diag w = v..." (n * n or n exact doubles) at
 * *sp into st and vals; *sp moves past the numbers. */
static int parse_norm(const char **sp, long n, dvc_lognorm_stated *st, double *vals)
{
    const char *s = *sp;
    long cnt;
    if (strncmp(s, "quad R =", 8) == 0) {
        st->kind = DVC_LOGNORM_QUAD;
        cnt = n * n;
    } else if (strncmp(s, "diag w =", 8) == 0) {
        st->kind = DVC_LOGNORM_DIAG;
        cnt = n;
    } else {
        return 0;
    }
    s += 8;
    for (long k = 0; k < cnt; k++) {
        char *end;
        if (*s != ' ') return 0;
        s++;
        if (*s == ' ' || *s == '\0') return 0;
        vals[k] = strtod(s, &end);
        if (end == s || !isfinite(vals[k])) return 0;
        s = end;
    }
    st->v = vals;
    *sp = s;
    return 1;
}

dvc_status dvc_cert_lognorm_stated_(const dvc_cert_claims *method, long n, dvc_lognorm_stated **out,
                                    long *nout)
{
    const char *nt = dvc_cert_claim_text(method, "lognorm_norm");
    const char *mt = dvc_cert_claim_text(method, "lognorm_modes");
    const dvc_cert_claim *cn = dvc_cert_claim_get(method, "lognorm_norm");
    const dvc_cert_claim *cm = dvc_cert_claim_get(method, "lognorm_modes");
    long cnt = 1, k = 1;
    dvc_lognorm_stated *sv;
    double *vals;
    *out = NULL;
    *nout = 0;
    if (!cn || !cm || cn->type != DVC_CLAIM_TEXT || cm->type != DVC_CLAIM_TEXT)
        return dvc_error(DVC_NOT_CERTIFIED, "field 'method' has no entries 'lognorm_norm' and "
                         "'lognorm_modes': a lognorm certificate of an older dvicert, which stated "
                         "its norm after the steps; it cannot be verified any more (enclose the "
                         "problem again)");
    if (strcmp(mt, "none") != 0)
        for (const char *q = mt; *q; q++) cnt += *q == ';';
    if (strcmp(mt, "none") != 0) cnt++;
    if (cnt > 1 + 16)
        return dvc_error(DVC_NOT_CERTIFIED, "field 'method' entry 'lognorm_modes': more than 16 mode norms");
    sv = malloc((size_t)cnt * sizeof *sv + (size_t)(cnt * n * n) * sizeof(double));
    if (!sv) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    vals = (double *)(sv + cnt);
    sv[0].pattern = -1;
    if (!parse_norm(&nt, n, &sv[0], vals) || *nt != '\0') {
        free(sv);
        return dvc_error(DVC_NOT_CERTIFIED, "field 'method' entry 'lognorm_norm': expected 'quad R = ' "
                         "and %ld exact doubles or 'diag w = ' and %ld", n * n, n);
    }
    if (strcmp(mt, "none") != 0) {
        const char *q = mt;
        for (;; k++) {
            char *end;
            long bits;
            int dup = 0;
            if (k >= cnt || strncmp(q, "pattern ", 8) != 0) break;
            errno = 0;
            bits = strtol(q + 8, &end, 0);
            if (end == q + 8 || errno || bits < 0 || *end != ' ') break;
            q = end + 1;
            sv[k].pattern = bits;
            if (!parse_norm(&q, n, &sv[k], vals + k * n * n) || sv[k].kind != DVC_LOGNORM_QUAD) break;
            for (long j = 1; j < k; j++) dup |= sv[j].pattern == bits;
            if (dup) break;
            if (*q == '\0') {
                k++;
                break;
            }
            if (strncmp(q, "; ", 2) != 0) break;
            q += 2;
        }
    }
    if (k != cnt) {
        free(sv);
        return dvc_error(DVC_NOT_CERTIFIED, "field 'method' entry 'lognorm_modes': expected 'none' or "
                         "'pattern <bits> quad R = ' and %ld exact doubles per mode norm, separated by "
                         "'; ', each pattern once", n * n);
    }
    *out = sv;
    *nout = cnt;
    return DVC_OK;
}

dvc_status dvc_cert_lognorm_method_claims_(dvc_cert_claims *cl, const dvc_dlvi_problem_t p,
                                           const dvc_dlvi_result_t r, const dvc_lognorm_info_struct *info,
                                           long pieces, const char *predictor)
{
    int external = strcmp(predictor, "external") == 0, heun = strcmp(predictor, "heun") == 0;
    char buf[40];
    dvc_status st;
    mpfr_t h;
    st = dvc_cert_claims_add_(cl, "scheme", DVC_CLAIM_TEXT,
                              external ? "a trajectory of another tool, joined by straight lines"
                              : heun   ? "Heun's method (explicit trapezoidal rule, order 2), joined by "
                                         "straight lines"
                                       : "theta time stepping, Chen & Wang (4.2), joined by straight lines",
                              0);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "route", DVC_CLAIM_TEXT, "lognorm", 0);
    if (st == DVC_OK)
        st = dvc_cert_claims_add_(cl, "predictor", DVC_CLAIM_TEXT, external ? "external" : heun ? "heun" : "theta",
                                  0);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "pieces", DVC_CLAIM_INT, NULL, pieces);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "N", DVC_CLAIM_INT, NULL, p->N);
    mpfr_init2(h, r->prec);
    mpfi_get_left(h, r->h);
    if (st == DVC_OK) st = dvc_cert_claim_bound_(cl, "h_lo", h, 0);
    mpfi_get_right(h, r->h);
    if (st == DVC_OK) st = dvc_cert_claim_bound_(cl, "h_hi", h, 1);
    if (st == DVC_OK) st = dvc_cert_grid_claims_(cl, r);
    mpfr_clear(h);
    snprintf(buf, sizeof buf, "%.17g", dvc_ival_mid_d(p->theta));
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "theta", DVC_CLAIM_TEXT, buf, 0);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "sharpen", DVC_CLAIM_BOOL, NULL, 0);
    /* the norms, ahead of the steps: verify proves them as stated */
    if (st == DVC_OK) {
        char *nt = norm_text(info), *mt = modes_text(info);
        if (!nt || !mt) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "lognorm_norm", DVC_CLAIM_TEXT, nt, 0);
        if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "lognorm_modes", DVC_CLAIM_TEXT, mt, 0);
        free(nt);
        free(mt);
    }
    return st;
}

dvc_status dvc_cert_lognorm_summary_claims_(dvc_cert_claims *cl, const dvc_dlvi_result_t r,
                                            const dvc_lognorm_info_struct *info, mpfr_srcptr eps_T)
{
    dvc_status st;
    st = dvc_cert_summary_head_(cl, r, theorem_lognorm);
    if (st == DVC_OK) st = dvc_cert_claim_bound_(cl, "mu_upper", info->mu, 1);
    /* every pattern's mu, for small m (the others are recomputed all the same) */
    for (long k = 0; st == DVC_OK && info->npat <= 16 && k < info->npat; k++) {
        char key[48];
        snprintf(key, sizeof key, "mu_pattern_%ld_upper", k);
        st = dvc_cert_claim_bound_(cl, key, info->mu_pat[k], 1);
    }
    if (st == DVC_OK) st = dvc_cert_claim_bound_(cl, "c_inf_upper", info->c_inf, 1);
    if (st == DVC_OK) st = dvc_cert_claim_bound_(cl, "c_Q_upper", info->c_Q, 1);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "mode_norms", DVC_CLAIM_INT, NULL, info->n_modes);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "norm_switches", DVC_CLAIM_INT, NULL, info->n_switch);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "steps_error_set", DVC_CLAIM_INT, NULL, info->n_set);
    if (st == DVC_OK) st = dvc_cert_claim_bound_(cl, "max_eps_x", r->max_eps_x, 1);
    if (st == DVC_OK) st = dvc_cert_claim_bound_(cl, "max_eps_y", r->max_eps_y, 1);
    if (st == DVC_OK) st = dvc_cert_claim_bound_(cl, "eps_x_at_T", eps_T, 1);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "precision_bits", DVC_CLAIM_INT, NULL, (long long)r->prec);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "norm", DVC_CLAIM_TEXT, "infinity norm", 0);
    return st;
}
