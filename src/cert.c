/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Certificates in memory: built from an engine result, re-verified by
 * recomputation. No file format here: the JSON files are src/io/cert_json.c,
 * which builds the embedded problem and hands it to the verification. */
#include "dvicert/cert.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvicert_version.h"
#include "cert_internal.h"
#include "dvicert/tgrid.h"
#include "ival_dec.h"

/* Significant digits of stated bounds (rounded outward: still rigorous). */
#define CERT_DIGITS 12

/* Stated bounds are widened by a relative 2^-CERT_SLACK_BITS before the
 * outward rounding to CERT_DIGITS digits. Without it a stated bound can lie
 * within one ulp of the value it was printed from, and a build whose
 * floating-point results differ in the last bit (FMA or not, another MPFR)
 * would recompute a bound just above it and reject a valid certificate.
 * Widening only loosens the stated claims, so it stays rigorous. */
#define CERT_SLACK_BITS 40

static const char *const theorem_text =
    "Chen & Wang (2012) Theorem 4.1 / Algorithm 4.2 for the DLVI x' = Ax + By + f(t), "
    "y in SOL(l, u, Qx + g(t), M), re-derived in docs/bounds.md with the defect of the "
    "floating-point predictor and the Lipschitz constants of f and g carried in outward-rounded "
    "interval arithmetic";

/* ---- claims ---------------------------------------------------------------- */

void dvc_cert_claims_clear_(dvc_cert_claims *cl)
{
    for (long k = 0; k < cl->n; k++) {
        free(cl->e[k].key);
        free(cl->e[k].text);
    }
    free(cl->e);
    cl->e = NULL;
    cl->n = 0;
}

dvc_status dvc_cert_claims_add_(dvc_cert_claims *cl, const char *key, dvc_claim_type ty,
                                const char *text, long long ival)
{
    dvc_cert_claim *ne = realloc(cl->e, (size_t)(cl->n + 1) * sizeof *ne);
    if (!ne) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    cl->e = ne;
    ne[cl->n].key = strdup(key);
    ne[cl->n].type = ty;
    ne[cl->n].text = ty == DVC_CLAIM_TEXT ? strdup(text ? text : "") : NULL;
    ne[cl->n].ival = ival;
    if (!ne[cl->n].key || (ty == DVC_CLAIM_TEXT && !ne[cl->n].text)) {
        free(ne[cl->n].key);
        free(ne[cl->n].text);
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    }
    cl->n++;
    return DVC_OK;
}

const dvc_cert_claim *dvc_cert_claim_get(const dvc_cert_claims *cl, const char *key)
{
    for (long k = 0; k < cl->n; k++)
        if (strcmp(cl->e[k].key, key) == 0) return &cl->e[k];
    return NULL;
}

const char *dvc_cert_claim_text(const dvc_cert_claims *cl, const char *key)
{
    const dvc_cert_claim *e = dvc_cert_claim_get(cl, key);
    return e && e->type == DVC_CLAIM_TEXT ? e->text : "";
}

/* ---- init / clear ----------------------------------------------------------- */

void dvc_cert_init(dvc_cert_t c)
{
    memset(c, 0, sizeof *c);
    c->prec = dvc_prec_get();
    dvc_tube_init(c->tube);
    dvc_width_init(c->width);
}

static void labels_free(dvc_cert_t c)
{
    if (c->labels)
        for (long i = 0; i <= c->N; i++) free(c->labels[i]);
    free(c->labels);
    c->labels = NULL;
}

void dvc_cert_clear(dvc_cert_t c)
{
    labels_free(c);
    dvc_tube_clear(c->tube);
    dvc_width_clear(c->width);
    dvc_cert_claims_clear_(&c->method);
    dvc_cert_claims_clear_(&c->summary);
    free(c->generator);
    free(c->problem_json);
    memset(c, 0, sizeof *c);
}

/* ---- stated numbers ----------------------------------------------------------- */

/* x widened by the slack and rounded outward to CERT_DIGITS digits: up
 * (an upper bound) or down (a lower bound). Owned string, NULL: no memory. */
static char *bound_str(const mpfr_t x, int up)
{
    mpfr_rnd_t rnd = up ? MPFR_RNDU : MPFR_RNDD;
    mpfr_t w, d;
    char *s;
    mpfr_inits2(mpfr_get_prec(x) + 64, w, d, (mpfr_ptr)0);
    mpfr_set(w, x, rnd);
    if (mpfr_number_p(x) && !mpfr_zero_p(x)) {
        mpfr_abs(d, x, MPFR_RNDU);
        mpfr_div_2ui(d, d, CERT_SLACK_BITS, MPFR_RNDU);
        if (!up) mpfr_neg(d, d, MPFR_RNDD);
        mpfr_add(w, w, d, rnd);
    }
    s = dvc_mpfr_str(w, CERT_DIGITS, rnd);
    mpfr_clears(w, d, (mpfr_ptr)0);
    return s;
}

static dvc_status claim_bound(dvc_cert_claims *cl, const char *key, const mpfr_t x, int up)
{
    char *s = bound_str(x, up);
    dvc_status st;
    if (!s) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    st = dvc_cert_claims_add_(cl, key, DVC_CLAIM_TEXT, s, 0);
    free(s);
    return st;
}

dvc_status dvc_cert_claim_bound_(dvc_cert_claims *cl, const char *key, const mpfr_t x, int up)
{
    return claim_bound(cl, key, x, up);
}

int dvc_cert_route_(const dvc_cert_t c)
{
    const dvc_cert_claim *r = dvc_cert_claim_get(&c->method, "route");
    if (r == NULL) return 0;
    if (r->type == DVC_CLAIM_TEXT && strcmp(r->text, "lognorm") == 0) return 1;
    return -1;
}

dvc_status dvc_cert_route_opts_(const dvc_cert_t c, const dvc_dlvi_opts *o, dvc_lognorm_opts *lo, int *route_out)
{
    int route = dvc_cert_route_(c);
    *route_out = route;
    dvc_lognorm_opts_default(lo);
    lo->dlvi = *o;
    if (route < 0)
        return dvc_error(DVC_NOT_CERTIFIED, "field 'method' entry 'route': unknown route '%s'",
                         dvc_cert_claim_text(&c->method, "route"));
    if (route == 1) {
        const dvc_cert_claim *pc = dvc_cert_claim_get(&c->method, "pieces");
        if (pc == NULL || pc->type != DVC_CLAIM_INT || pc->ival < 1 || pc->ival > 64)
            return dvc_error(DVC_NOT_CERTIFIED, "field 'method' entry 'pieces': an integer in [1, 64] is "
                             "needed by the lognorm route");
        lo->pieces = (long)pc->ival;
        /* the norms as stated, proven again by the run (not searched) */
        {
            dvc_lognorm_stated *sv;
            long ns;
            dvc_status st = dvc_cert_lognorm_stated_(&c->method, c->n, &sv, &ns);
            if (st != DVC_OK) return st;
            lo->stated = sv;
            lo->n_stated = ns;
        }
    }
    return DVC_OK;
}

void dvc_cert_route_opts_clear_(dvc_lognorm_opts *lo)
{
    free((void *)lo->stated);
    lo->stated = NULL;
    lo->n_stated = 0;
}

/* The stated decimal of a bound into its enclosure e (what a reader of the
 * written text gets). */
/* A certified bound is finite by contract: an overflow (e.g. data in units
 * that make the error recursion exceed the double range) is "not
 * certified", naming the step and the quantity. */
/* bound_str into buf without MPFR's printing (the same text, from the exact
 * integer form of the widened value) and its enclosure into e, as
 * dvc_ival_set_str would give it (0: not handled, use bound_str). */
static int bound_txt(char buf[DVC_CERT_DEC_LEN], const mpfr_t x, int up, mpfi_t e)
{
    mpz_t W, a;
    mpfr_exp_t ex;
    int ok;
    if (!mpfr_number_p(x)) return 0;
    if (mpfr_zero_p(x)) {
        strcpy(buf, "0");
        return dvc_dec_enclose_fast_(e, buf);
    }
    if (mpfr_get_prec(x) <= 64 && GMP_NUMB_BITS == 64) {
        /* one limb: x = (-1)^s L 2^(EXP - 64), L the left-aligned significand */
        uint64_t L = ((const mp_limb_t *)mpfr_custom_get_significand(x))[0], q;
        int neg = mpfr_sgn(x) < 0;
        long k;
        dvc_u128 A = (dvc_u128)L << CERT_SLACK_BITS;
        A = up != neg ? A + L : A - L;
        if (dvc_dec_round_qk_(buf, DVC_CERT_DEC_LEN, A, neg, (long)mpfr_get_exp(x) - 64 - CERT_SLACK_BITS,
                              up != neg, CERT_DIGITS, &q, &k)) {
            /* the enclosure of the text, from its integer form */
            if (q != 0 && dvc_dec_ends_(e, q, k, neg)) return 1;
            return dvc_dec_enclose_fast_(e, buf) || dvc_ival_set_str(e, buf) == DVC_OK;
        }
    }
    mpz_inits(W, a, (mpz_ptr)0);
    ex = mpfr_get_z_2exp(W, x);
    /* x (1 +- 2^-CERT_SLACK_BITS) = (W 2^S +- |W|) 2^(ex - S), exactly */
    mpz_abs(a, W);
    mpz_mul_2exp(W, W, CERT_SLACK_BITS);
    if (up) mpz_add(W, W, a);
    else mpz_sub(W, W, a);
    ok = dvc_dec_round_z_(buf, DVC_CERT_DEC_LEN, W, (long)ex - CERT_SLACK_BITS, up, CERT_DIGITS);
    mpz_clears(W, a, (mpz_ptr)0);
    return ok && (dvc_dec_enclose_fast_(e, buf) || dvc_ival_set_str(e, buf) == DVC_OK);
}

static dvc_status state_bound(mpfi_t e, const mpfr_t x, int up, long i, const char *field, char *txt)
{
    char fast[DVC_CERT_DEC_LEN];
    dvc_status st = DVC_OK;
    if (bound_txt(fast, x, up, e)) {
        if (txt) strcpy(txt, fast);
    } else {
        char *s = bound_str(x, up);
        if (!s) return dvc_error(DVC_ERR_NOMEM, "out of memory");
        st = dvc_ival_set_str(e, s);
        if (txt && strlen(s) < DVC_CERT_DEC_LEN) memcpy(txt, s, strlen(s) + 1);
        else if (txt) txt[0] = '\0';
        free(s);
    }
    if (st != DVC_OK || !dvc_ival_is_finite(e))
        st = dvc_error(DVC_NOT_CERTIFIED, "step %ld: the bound '%s' is not finite (overflow: "
                       "rescale the problem's data)", i, field);
    return st;
}

dvc_status dvc_cert_method_claims_(dvc_cert_claims *cl, const dvc_dlvi_problem_t p,
                                   const dvc_dlvi_result_t r)
{
    char buf[40];
    dvc_status st;
    mpfr_t h;
    mpfr_init2(h, r->prec);
    st = dvc_cert_claims_add_(cl, "scheme", DVC_CLAIM_TEXT,
                              "theta time stepping, Chen & Wang (4.2): "
                              "x^{i+1} = x^i + h{A[theta x^i + (1-theta) x^{i+1}] + B y^{i+1} + f(t_{i+1})}, "
                              "y^{i+1} in SOL(l, u, Q x^{i+1} + g(t_{i+1}), M)", 0);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "N", DVC_CLAIM_INT, NULL, p->N);
    mpfi_get_left(h, r->h);
    if (st == DVC_OK) st = claim_bound(cl, "h_lo", h, 0);
    mpfi_get_right(h, r->h);
    if (st == DVC_OK) st = claim_bound(cl, "h_hi", h, 1);
    if (st == DVC_OK) st = dvc_cert_grid_claims_(cl, r);
    snprintf(buf, sizeof buf, "%.17g", dvc_ival_mid_d(p->theta));
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "theta", DVC_CLAIM_TEXT, buf, 0);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "sharpen", DVC_CLAIM_BOOL, NULL, r->sharpen != 0);
    mpfr_clear(h);
    return st;
}

dvc_status dvc_cert_grid_claims_(dvc_cert_claims *cl, const dvc_dlvi_result_t r)
{
    char hx[40];
    dvc_status st;
    mpfi_t hl;
    mpfr_t e;
    if (r->grid.kind != DVC_TGRID_LAST_SHORT) return DVC_OK;
    dvc_hex_write_(hx, r->grid.h);
    st = dvc_cert_claims_add_(cl, "h_step", DVC_CLAIM_TEXT, hx, 0);
    mpfi_init2(hl, r->prec);
    mpfr_init2(e, r->prec);
    dvc_tgrid_step(hl, &r->grid, r->T, r->N - 1); /* T - (N-1) h, the last step */
    mpfi_get_left(e, hl);
    if (st == DVC_OK) st = claim_bound(cl, "h_last_lo", e, 0);
    mpfi_get_right(e, hl);
    if (st == DVC_OK) st = claim_bound(cl, "h_last_hi", e, 1);
    mpfr_clear(e);
    mpfi_clear(hl);
    return st;
}

dvc_status dvc_cert_summary_head_(dvc_cert_claims *cl, const dvc_dlvi_result_t r,
                                  const char *theorem)
{
    dvc_status st = dvc_cert_claims_add_(cl, "theorem", DVC_CLAIM_TEXT, theorem, 0);
    if (st == DVC_OK)
        st = dvc_cert_claims_add_(cl, "P_matrix", DVC_CLAIM_TEXT, r->p_reason ? r->p_reason : "proven", 0);
    if (st == DVC_OK) st = claim_bound(cl, "beta_M_upper", r->beta_hi, 1);
    if (st == DVC_OK) st = claim_bound(cl, "beta_M_lower", r->beta_lo, 0);
    if (st == DVC_OK)
        st = dvc_cert_claims_add_(cl, "beta_method", DVC_CLAIM_TEXT, r->beta_method ? r->beta_method : "", 0);
    return st;
}

dvc_status dvc_cert_summary_claims_(dvc_cert_claims *cl, const dvc_dlvi_result_t r,
                                    mpfr_srcptr eps_T)
{
    char buf[256];
    dvc_status st;
    mpfr_t tmp;
    mpfr_init2(tmp, r->prec);
    st = dvc_cert_summary_head_(cl, r, theorem_text);
    if (st == DVC_OK) st = claim_bound(cl, "norm_A_upper", r->normA, 1);
    if (st == DVC_OK) st = claim_bound(cl, "norm_B_upper", r->normB, 1);
    if (st == DVC_OK) st = claim_bound(cl, "norm_Q_upper", r->normQ, 1);
    if (st == DVC_OK) st = claim_bound(cl, "L_upper", r->L, 1);
    if (st == DVC_OK) st = claim_bound(cl, "h_max_lower", r->hmax, 0);
    /* step condition h < hmax, proven with the outward-rounded bounds */
    mpfi_get_right(tmp, r->h);
    snprintf(buf, sizeof buf, "h <= %s < h_max = 1/(L - theta ||A||) (proven: %s)", "h_hi",
             mpfr_cmp(tmp, r->hmax) < 0 ? "yes" : "no");
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "step_condition", DVC_CLAIM_TEXT, buf, 0);
    if (st == DVC_OK) st = claim_bound(cl, "max_eps_x", r->max_eps_x, 1);
    if (st == DVC_OK) st = claim_bound(cl, "max_eps_y", r->max_eps_y, 1);
    if (st == DVC_OK) st = claim_bound(cl, "eps_x_at_T", eps_T, 1);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "steps_sharpened", DVC_CLAIM_INT, NULL, r->n_sharpened);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "precision_bits", DVC_CLAIM_INT, NULL, (long long)r->prec);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "norm", DVC_CLAIM_TEXT, "infinity norm", 0);
    mpfr_clear(tmp);
    return st;
}

dvc_status dvc_cert_width_point_(dvc_cert_struct *c, long i, long row)
{
    dvc_status st;
    if (i == 0 && (st = dvc_width_start(c->width, c->n, c->m)) != DVC_OK) return st;
    if (i == 0 && (st = dvc_width_set_scale(c->width, c->tube->x_scale)) != DVC_OK) return st;
    if (c->width->points != i) return DVC_OK; /* out of order: no figure rather than a wrong one */
    dvc_width_add(c->width, c->tube->x + row * c->n, c->tube->y + row * c->m, c->tube->eps_x[row],
                  c->tube->eps_y[row]);
    return DVC_OK;
}

dvc_status dvc_cert_width_claims_(dvc_cert_claims *cl, const dvc_width_t w)
{
    long worst;
    double rmax = 0, rT = 0;
    dvc_width_verdict v;
    dvc_status st;
    mpfr_t a;
    if (w->points == 0 || w->n == 0) return DVC_OK;
    v = dvc_width_judge(w, &worst);
    for (long j = 0; j < w->n; j++) {
        double r = dvc_width_rel(w, j, 0), s = dvc_width_rel(w, j, 1);
        if (r > rmax) rmax = r;
        if (s > rT) rT = s;
    }
    mpfr_init2(a, 53);
    mpfr_set_d(a, rmax, MPFR_RNDU);
    st = mpfr_number_p(a) ? claim_bound(cl, "radius_rel_max_upper", a, 1) : DVC_OK;
    mpfr_set_d(a, rT, MPFR_RNDU);
    if (st == DVC_OK && mpfr_number_p(a)) st = claim_bound(cl, "radius_rel_at_T_upper", a, 1);
    if (st == DVC_OK) st = dvc_cert_claims_add_(cl, "radius_verdict", DVC_CLAIM_TEXT, dvc_width_verdict_name(v), 0);
    mpfr_clear(a);
    return st;
}

/* ---- time labels ------------------------------------------------------------------ */

/* The double nearest to t_i = i T / N. The quotient is enclosed with 64 bits
 * more than T, which decides the nearest double unless T itself is not a
 * binary number; then the label is the double nearest to the midpoint of
 * the enclosure. */
/* dvc_cert_time_label without allocation: the same operations on ends held
 * on the stack (T at most 64 bits), printed without printf where
 * dvc_fmt_g17_ can; 0 when the enclosure does not decide the double. */
static int time_label_fast(char *buf, const mpfi_t T, long N, long i)
{
    mpfr_prec_t P = mpfi_get_prec(T) + 64;
    mp_limb_t l1[128 / GMP_NUMB_BITS], l2[128 / GMP_NUMB_BITS];
    mpfr_t lo, hi;
    double a, b;
    if (P > 128 || i < 0 || N <= 0 || mpfr_sgn(&T->left) < 0) return 0;
    mpfr_custom_init(l1, P);
    mpfr_custom_init(l2, P);
    mpfr_custom_init_set(lo, MPFR_ZERO_KIND, 0, P, l1);
    mpfr_custom_init_set(hi, MPFR_ZERO_KIND, 0, P, l2);
    /* mpfi_mul_si and mpfi_div_si of a nonnegative interval by positive
     * integers: each end rounded outward */
    mpfr_mul_si(lo, &T->left, i, MPFR_RNDD);
    mpfr_mul_si(hi, &T->right, i, MPFR_RNDU);
    mpfr_div_si(lo, lo, N, MPFR_RNDD);
    mpfr_div_si(hi, hi, N, MPFR_RNDU);
    a = mpfr_get_d(lo, MPFR_RNDN);
    b = mpfr_get_d(hi, MPFR_RNDN);
    if (a != b) return 0;
    if (!dvc_fmt_g17_(buf, a)) snprintf(buf, 40, "%.17g", a);
    return 1;
}

void dvc_cert_time_label(char *buf, const mpfi_t T, long N, long i)
{
    mpfi_t t;
    mpfr_t mid;
    double a, b;
    if (time_label_fast(buf, T, N, i)) return;
    mpfi_init2(t, mpfi_get_prec(T) + 64);
    mpfr_init2(mid, mpfi_get_prec(T) + 64);
    mpfi_mul_si(t, T, i);
    mpfi_div_si(t, t, N);
    a = mpfr_get_d(&t->left, MPFR_RNDN);
    b = mpfr_get_d(&t->right, MPFR_RNDN);
    if (a != b) {
        mpfi_mid(mid, t);
        a = mpfr_get_d(mid, MPFR_RNDN);
    }
    snprintf(buf, 40, "%.17g", a);
    mpfr_clear(mid);
    mpfi_clear(t);
}

void dvc_cert_grid_label(char *buf, const dvc_tube_t tb, long i)
{
    dvc_tgrid g;
    if (tb->t) {
        /* given grid times: the nearest double (the time itself on a DLVI
         * time grid) */
        double d = mpfr_get_d(tb->t[tb->t_window ? i % tb->window : i], MPFR_RNDN);
        if (!dvc_fmt_g17_(buf, d)) snprintf(buf, 40, "%.17g", d);
        return;
    }
    dvc_tgrid_set(&g, tb->N, tb->hgrid, NULL);
    if (g.kind == DVC_TGRID_UNIFORM) {
        dvc_cert_time_label(buf, tb->T, tb->N, i);
        return;
    }
    /* T is exact on such a grid */
    snprintf(buf, 40, "%.17g", dvc_tgrid_time_d(&g, tb->T, i));
}

/* The label version-1 writers printed before that rule (midpoint of the
 * enclosure at the certificate's precision, one ulp off the nearest double
 * at about half the points): still accepted, so that their certificates
 * keep verifying. */
static void legacy_time_label(char buf[40], const mpfi_t T, long N, long i)
{
    mpfi_t t;
    mpfi_init2(t, mpfi_get_prec(T));
    mpfi_mul_si(t, T, i);
    mpfi_div_si(t, t, N);
    snprintf(buf, 40, "%.17g", dvc_ival_mid_d(t));
    mpfi_clear(t);
}

static dvc_status reject_bound(const char *field, long i, const mpfi_t stored, const mpfr_t rec)
{
    char *a = dvc_mpfr_str(&stored->left, 17, MPFR_RNDD), *b = dvc_mpfr_str(rec, 17, MPFR_RNDU);
    dvc_status st = dvc_error(DVC_NOT_CERTIFIED, "step %ld, field '%s': stored bound %s is below the "
                              "recomputed rigorous bound %s", i, field, a ? a : "?", b ? b : "?");
    free(a);
    free(b);
    return st;
}

/* ---- one grid point ---------------------------------------------------------------- */

void dvc_cert_point_of_result_(dvc_dlvi_point *pt, const dvc_dlvi_result_t r, long i)
{
    memset(pt, 0, sizeof *pt);
    pt->i = i;
    pt->t = r->t[i];
    pt->x = r->x + i * r->n;
    pt->y = r->y + i * r->m;
    pt->yhat = r->yhat[i * r->m];
    pt->eps_x = r->eps_x[i];
    pt->eps_y = r->eps_y[i];
    if (i >= 1) {
        pt->Lx = r->Lx[i - 1];
        pt->Lf = r->Lf[i - 1];
        pt->Lg = r->Lg[i - 1];
        pt->delta = r->delta[i - 1];
        pt->beta_step = r->beta_step[i - 1];
        pt->ry = r->ry[i - 1];
    }
}

dvc_status dvc_cert_state_point_txt_(dvc_tube_t tb, long row, const dvc_dlvi_point *pt,
                                    char (*txt)[DVC_CERT_DEC_LEN])
{
    long n = tb->n, m = tb->m, i = pt->i;
    dvc_status st;
#define TXT(k) (txt ? txt[k] : NULL)
    memcpy(tb->x + row * n, pt->x, (size_t)n * sizeof *pt->x);
    memcpy(tb->y + row * m, pt->y, (size_t)m * sizeof *pt->y);
    st = state_bound(tb->eps_x[row], pt->eps_x, 1, i, "eps_x", TXT(0));
    if (st == DVC_OK) st = state_bound(tb->eps_y[row], pt->eps_y, 1, i, "eps_y", TXT(1));
    if (st == DVC_OK && i >= 1) {
        mpfr_t tmp;
        mpfr_init2(tmp, tb->prec);
        mpfr_set_d(tmp, pt->ry, MPFR_RNDU);
        st = state_bound(tb->ry[row], tmp, 1, i, "ry", TXT(2));
        mpfr_clear(tmp);
    } else if (st == DVC_OK) {
        mpfi_set_ui(tb->ry[row], 0);
        if (txt) strcpy(txt[2], "0");
    }
    for (long k = 0; k < m && st == DVC_OK; k++) {
        st = state_bound(tb->yhat_lo[row * m + k], &pt->yhat[k].left, 0, i, "yhat", TXT(3 + 2 * k));
        if (st == DVC_OK)
            st = state_bound(tb->yhat_hi[row * m + k], &pt->yhat[k].right, 1, i, "yhat", TXT(4 + 2 * k));
    }
#undef TXT
    return st;
}

dvc_status dvc_cert_state_point_(dvc_tube_t tb, long row, const dvc_dlvi_point *pt)
{
    return dvc_cert_state_point_txt_(tb, row, pt, NULL);
}

dvc_status dvc_cert_check_point_(const dvc_tube_t tb, long row, const dvc_dlvi_point *pt,
                                 const char *label)
{
    long m = tb->m, i = pt->i;
    char lab[40], lab_old[40];
    if (mpfr_cmp(pt->eps_x, &tb->eps_x[row]->left) > 0)
        return reject_bound("eps_x", i, tb->eps_x[row], pt->eps_x);
    if (mpfr_cmp(pt->eps_y, &tb->eps_y[row]->left) > 0)
        return reject_bound("eps_y", i, tb->eps_y[row], pt->eps_y);
    if (i >= 1) {
        mpfr_t tmp;
        int bad;
        mpfr_init2(tmp, tb->prec);
        mpfr_set_d(tmp, pt->ry, MPFR_RNDU);
        bad = mpfr_cmp(tmp, &tb->ry[row]->left) > 0;
        if (bad) reject_bound("ry", i, tb->ry[row], tmp);
        mpfr_clear(tmp);
        if (bad) return DVC_NOT_CERTIFIED;
    }
    for (long k = 0; k < m; k++) {
        mpfi_srcptr y = &pt->yhat[k];
        if (mpfr_cmp(&tb->yhat_lo[row * m + k]->right, &y->left) > 0 ||
            mpfr_cmp(&y->right, &tb->yhat_hi[row * m + k]->left) > 0)
            return dvc_error(DVC_NOT_CERTIFIED, "step %ld, field 'yhat' entry %ld: the stored "
                             "enclosure does not contain the recomputed one", i, k + 1);
    }
    if (!label) return DVC_OK;
    dvc_cert_grid_label(lab, tb, i);
    if (strcmp(lab, label) == 0) return DVC_OK;
    legacy_time_label(lab_old, tb->T, tb->N, i);
    if (tb->t || tb->hgrid > 0 || strcmp(lab_old, label) != 0)
        return dvc_error(DVC_NOT_CERTIFIED, "step %ld, field 't': '%s' is not the grid time %s", i,
                         label, lab);
    return DVC_OK;
}

/* ---- scaling of the state (docs/formats.md, method 'x_scale_log2') --------------- */

dvc_status dvc_cert_scale_get_(const dvc_cert_claims *method, long n, long *e, int *present,
                               const char *file)
{
    const dvc_cert_claim *cl = dvc_cert_claim_get(method, "x_scale_log2");
    const char *s;
    for (long j = 0; j < n; j++) e[j] = 0;
    *present = cl != NULL;
    if (!cl) return DVC_OK;
    s = cl->type == DVC_CLAIM_TEXT ? cl->text : NULL;
    for (long j = 0; s && j < n; j++) {
        char *end;
        long v;
        if (j > 0 && *s++ != ',') s = NULL;
        if (!s || !(*s == '-' || (*s >= '0' && *s <= '9'))) {
            s = NULL;
            break;
        }
        v = strtol(s, &end, 10);
        if (end == s || v < -DVC_DLVI_SCALE_EMAX || v > DVC_DLVI_SCALE_EMAX) s = NULL;
        else e[j] = v, s = end;
    }
    if (!s || *s != '\0')
        return dvc_error(DVC_ERR_INPUT, "%s: field 'method' entry 'x_scale_log2' must list n = %ld "
                         "integers in [-%d, %d] separated by commas", file, n, DVC_DLVI_SCALE_EMAX,
                         DVC_DLVI_SCALE_EMAX);
    return DVC_OK;
}

dvc_status dvc_cert_scale_claim_(dvc_cert_claims *cl, const long *e, long n)
{
    char *buf;
    size_t len = 0;
    dvc_status st;
    if (dvc_dlvi_scale_is_identity(e, n)) return DVC_OK;
    buf = malloc((size_t)n * 24 + 1);
    if (!buf) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    buf[0] = '\0';
    for (long j = 0; j < n; j++) len += (size_t)sprintf(buf + len, "%s%ld", j ? "," : "", e[j]);
    st = dvc_cert_claims_add_(cl, "x_scale_log2", DVC_CLAIM_TEXT, buf, 0);
    free(buf);
    return st;
}

dvc_status dvc_cert_scale_norm_(dvc_cert_claims *cl, const long *e, long n)
{
    static const char *const txt = "infinity norm of z = S^-1 x (S = diag(2^e), e the method's "
                                   "x_scale_log2): the x tube has radius 2^e_j eps_x in state j";
    if (dvc_dlvi_scale_is_identity(e, n)) return DVC_OK;
    for (long q = 0; q < cl->n; q++)
        if (strcmp(cl->e[q].key, "norm") == 0 && cl->e[q].type == DVC_CLAIM_TEXT) {
            char *t = strdup(txt);
            if (!t) return dvc_error(DVC_ERR_NOMEM, "out of memory");
            free(cl->e[q].text);
            cl->e[q].text = t;
        }
    return DVC_OK;
}

dvc_status dvc_cert_scale_tube_(dvc_tube_t tb, const long *e)
{
    double *s;
    dvc_status st;
    if (dvc_dlvi_scale_is_identity(e, tb->n)) return dvc_tube_set_x_scale(tb, NULL);
    s = malloc((size_t)tb->n * sizeof *s);
    if (!s) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long j = 0; j < tb->n; j++) s[j] = ldexp(1.0, (int)e[j]);
    st = dvc_tube_set_x_scale(tb, s);
    free(s);
    return st;
}

/* ---- building --------------------------------------------------------------------- */

dvc_status dvc_cert_from_result(dvc_cert_t c, const dvc_dlvi_problem_t p, const char *problem_json,
                                const dvc_dlvi_result_t r)
{
    return dvc_cert_from_result_scaled_(c, p, problem_json, r, NULL);
}

dvc_status dvc_cert_from_result_scaled_(dvc_cert_t c, const dvc_dlvi_problem_t p,
                                        const char *problem_json, const dvc_dlvi_result_t r,
                                        const long *e)
{
    long n = r->n, m = r->m, N = r->N;
    dvc_status st;
    dvc_cert_clear(c);
    dvc_cert_init(c);
    if (r->steps_done != N || N < 1)
        return dvc_error(DVC_ERR_INPUT, "certificate: the result is not certified on every step");
    c->n = n;
    c->m = m;
    c->N = N;
    c->prec = r->prec;
    c->sharpen = r->sharpen;
    c->generator = strdup("dvicert " DVC_VERSION);
    c->problem_json = strdup(problem_json);
    if (!c->generator || !c->problem_json) return dvc_error(DVC_ERR_NOMEM, "out of memory");
    if ((st = dvc_tube_alloc(c->tube, n, m, N, p->T, c->prec)) != DVC_OK) return st;
    if ((st = dvc_tube_set_grid(c->tube, &r->grid)) != DVC_OK) return st;
    if ((st = dvc_tube_set_ybox(c->tube, p->l, p->u)) != DVC_OK) return st;
    if ((st = dvc_cert_scale_tube_(c->tube, e)) != DVC_OK) return st;
    /* the predictor in the user's units: x^i = S z^i (exact, or refused) */
    for (long i = 0; i <= N && st == DVC_OK; i++)
        st = e ? dvc_dlvi_scale_point(c->tube->x + i * n, r->x + i * n, e, n, 1) : DVC_OK;
    if (st != DVC_OK) return st;
    if (!e) memcpy(c->tube->x, r->x, (size_t)((N + 1) * n) * sizeof *r->x);
    memcpy(c->tube->y, r->y, (size_t)((N + 1) * m) * sizeof *r->y);
    for (long i = 0; i <= N && st == DVC_OK; i++) {
        dvc_dlvi_point pt;
        dvc_cert_point_of_result_(&pt, r, i);
        pt.x = c->tube->x + i * n;
        st = dvc_cert_state_point_(c->tube, i, &pt);
        if (st == DVC_OK) st = dvc_cert_width_point_(c, i, i);
    }
    if (st == DVC_OK) st = dvc_cert_method_claims_(&c->method, p, r);
    if (st == DVC_OK) st = dvc_cert_scale_claim_(&c->method, e, n);
    if (st == DVC_OK) st = dvc_cert_summary_claims_(&c->summary, r, r->eps_x[r->N]);
    if (st == DVC_OK) st = dvc_cert_scale_norm_(&c->summary, e, n);
    if (st == DVC_OK) st = dvc_cert_width_claims_(&c->summary, c->width);
    return st;
}

/* ---- verification ------------------------------------------------------------------ */

/* Statements of what was proven (hypotheses, the step condition, the
 * method parameter): compared verbatim, although they are strings. */
static int is_stated_claim(const char *key)
{
    return strcmp(key, "P_matrix") == 0 || strcmp(key, "step_condition") == 0 || strcmp(key, "h_step") == 0 ||
           strcmp(key, "theta") == 0 || strcmp(key, "route") == 0 || strcmp(key, "predictor") == 0 ||
           strcmp(key, "lognorm_norm") == 0 || strcmp(key, "lognorm_modes") == 0 ||
           strcmp(key, "radius_verdict") == 0;
}

/* Claims a certificate may lack: they were added after version 1 was
 * fixed, and say how informative the tube is, not what it proves. */
static int is_optional_claim(const char *key)
{
    return strncmp(key, "radius_", 7) == 0;
}

/* Compare stated claims with the recomputed ones. Decimals are claims: an
 * "upper" bound may not be below the recomputed one, a "lower" bound not
 * above it; integers, flags and the stated hypotheses must be equal; other
 * free text (theorem, method descriptions) is informative and not compared,
 * so rewording a message does not invalidate old certificates. Returns the
 * first offending key, or NULL. */
const char *dvc_cert_claims_hold_(const dvc_cert_claims *stored, const dvc_cert_claims *rec)
{
    const char *bad = NULL;
    mpfi_t a, b;
    mpfi_init2(a, 256);
    mpfi_init2(b, 256);
    for (long q = 0; q < rec->n && !bad; q++) {
        const dvc_cert_claim *v = &rec->e[q], *sv = dvc_cert_claim_get(stored, v->key);
        const char *key = v->key;
        int up = strstr(key, "upper") || strncmp(key, "max_", 4) == 0 ||
                 strncmp(key, "eps_", 4) == 0 || strcmp(key, "h_hi") == 0 || strcmp(key, "h_last_hi") == 0;
        int lo = strstr(key, "lower") || strcmp(key, "h_lo") == 0 || strcmp(key, "h_last_lo") == 0;
        if (sv == NULL && is_optional_claim(key)) continue;
        if (sv == NULL || sv->type != v->type) {
            bad = key;
            break;
        }
        if (v->type != DVC_CLAIM_TEXT) {
            if (sv->ival != v->ival) bad = key;
            continue;
        }
        if (is_stated_claim(key)) {
            if (strcmp(sv->text, v->text) != 0) bad = key;
            continue;
        }
        if (!(up || lo)) continue; /* free text */
        if (strcmp(sv->text, v->text) == 0) continue; /* same number */
        if (dvc_ival_set_str(a, sv->text) != DVC_OK || dvc_ival_set_str(b, v->text) != DVC_OK) {
            bad = key;
            break;
        }
        /* Different decimals: the stated number S must be proven on the safe
         * side of the recomputed R (S >= R for an upper bound) from their
         * enclosures alone. Comparing left ends only is not a proof: a long
         * decimal just below R can share R's 256-bit left end. */
        if (up ? mpfr_cmp(&a->left, &b->right) < 0 : mpfr_cmp(&a->right, &b->left) > 0) bad = key;
    }
    mpfi_clear(a);
    mpfi_clear(b);
    return bad;
}

dvc_status dvc_cert_problem_digest_(const dvc_cert_t c)
{
    if (strcmp(c->problem_digest_read, c->problem_digest) != 0)
        return dvc_error(DVC_NOT_CERTIFIED, "field 'problem': digest %s differs from the stored "
                         "problem_digest %s (the embedded problem was edited)", c->problem_digest_read,
                         c->problem_digest);
    if (!c->problem_json) return dvc_error(DVC_ERR_INPUT, "certificate without a problem");
    return DVC_OK;
}

/* The embedded problem is the one the certificate was written for, and p,
 * built from it at the certificate's precision, is put into the stated
 * scale. */
static dvc_status verify_problem(const dvc_cert_t c, dvc_dlvi_problem_t p, long **scale)
{
    dvc_status st;
    long *e = NULL, *a = NULL;
    int present = 0;
    *scale = NULL;
    if ((st = dvc_cert_problem_digest_(c)) != DVC_OK) return st;
    /* a stated scale must be the one the embedded problem gives (absent:
     * all ones, as certificates without scaling were written) */
    e = calloc((size_t)(p->n > 0 ? p->n : 1), sizeof *e);
    a = calloc((size_t)(p->n > 0 ? p->n : 1), sizeof *a);
    if (!e || !a) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
    if (st == DVC_OK) st = dvc_cert_scale_get_(&c->method, p->n, e, &present, "certificate");
    if (st == DVC_OK && present) st = dvc_dlvi_scale_auto(a, p);
    for (long j = 0; st == DVC_OK && present && j < p->n; j++)
        if (a[j] != e[j])
            st = dvc_error(DVC_NOT_CERTIFIED, "field 'method' entry 'x_scale_log2': state %ld is "
                           "scaled by 2^%ld, but the embedded problem gives 2^%ld", j + 1, e[j], a[j]);
    if (st == DVC_OK) st = dvc_dlvi_problem_scale(p, e);
    free(a);
    if (st == DVC_OK && !dvc_dlvi_scale_is_identity(e, p->n)) *scale = e;
    else free(e);
    return st;
}

/* A failure before the recomputation: r cleared; returns st. */
static dvc_status verify_abort(dvc_dlvi_result_t r, dvc_status st)
{
    dvc_dlvi_result_clear(r);
    return st;
}

dvc_status dvc_cert_verify_open_(const dvc_cert_t c, dvc_dlvi_problem_t p, dvc_dlvi_result_t r,
                                 dvc_dlvi_opts *o, long **scale)
{
    dvc_status st;
    dvc_dlvi_result_init(r);
    if ((st = verify_problem(c, p, scale)) != DVC_OK) return verify_abort(r, st);
    /* the recomputation runs as the certificate was written */
    dvc_dlvi_opts_default(o);
    o->sharpen = c->sharpen;
    o->prec = c->prec;
    return DVC_OK;
}

/* Steps 3 and 4, after the recomputation r (st its status): the stated
 * method and summary claims, then the digest. Clears r. */
static dvc_status verify_close(const dvc_cert_t c, const dvc_dlvi_problem_t p, dvc_dlvi_result_t r,
                               const dvc_lognorm_info_struct *info, long pieces, dvc_status st);

dvc_status dvc_cert_verify_close_(const dvc_cert_t c, const dvc_dlvi_problem_t p, dvc_dlvi_result_t r,
                                  dvc_status st)
{
    return verify_close(c, p, r, NULL, 0, st);
}

dvc_status dvc_cert_verify_close_lognorm_(const dvc_cert_t c, const dvc_dlvi_problem_t p,
                                          dvc_dlvi_result_t r, dvc_lognorm_info_t info, long pieces,
                                          dvc_status st)
{
    st = verify_close(c, p, r, info, pieces, st);
    dvc_lognorm_info_clear(info);
    return st;
}

/* info != NULL: the lognorm route's claims */
static dvc_status verify_close(const dvc_cert_t c, const dvc_dlvi_problem_t p, dvc_dlvi_result_t r,
                               const dvc_lognorm_info_struct *info, long pieces, dvc_status st)
{
    /* 3. what the certificate states about the method and the proof */
    if (st == DVC_OK) {
        dvc_cert_claims m = {0, NULL}, sm = {0, NULL};
        const char *k1, *k2;
        if (info) {
            /* the stored predictor was certified as it is; its name is a
             * stated claim (compared verbatim, unknown names rejected) */
            const char *pn = dvc_cert_claim_text(&c->method, "predictor");
            st = dvc_cert_lognorm_method_claims_(&m, p, r, info, pieces,
                                                 strcmp(pn, "external") == 0 || strcmp(pn, "heun") == 0
                                                     ? pn
                                                     : "theta");
            if (st == DVC_OK) st = dvc_cert_lognorm_summary_claims_(&sm, r, info, r->eps_x[r->window ? (r->N & 1) : r->N]);
        } else {
            st = dvc_cert_method_claims_(&m, p, r);
            if (st == DVC_OK) st = dvc_cert_summary_claims_(&sm, r, r->eps_x[r->window ? (r->N & 1) : r->N]);
        }
        if (st == DVC_OK) st = dvc_cert_width_claims_(&sm, c->width);
        k1 = st == DVC_OK ? dvc_cert_claims_hold_(&c->method, &m) : NULL;
        k2 = st == DVC_OK && !k1 ? dvc_cert_claims_hold_(&c->summary, &sm) : NULL;
        if (k1)
            st = dvc_error(DVC_NOT_CERTIFIED, "field 'method' entry '%s' does not match the "
                           "recomputation", k1);
        else if (k2)
            st = dvc_error(DVC_NOT_CERTIFIED, "field 'summary' entry '%s' is not implied by the "
                           "recomputation", k2);
        dvc_cert_claims_clear_(&m);
        dvc_cert_claims_clear_(&sm);
    }
    dvc_dlvi_result_clear(r);
    /* 4. nothing else was edited */
    if (st == DVC_OK && strcmp(c->digest_read, c->digest) != 0)
        return dvc_error(DVC_NOT_CERTIFIED, "field 'digest': the certificate text was edited "
                         "after it was written (digest %s, stored %s)", c->digest_read, c->digest);
    return st;
}

dvc_status dvc_cert_verify_problem(const dvc_cert_t c, dvc_dlvi_problem_t p)
{
    dvc_status st;
    dvc_dlvi_result_t r;
    dvc_dlvi_opts o;
    dvc_lognorm_opts lo;
    dvc_lognorm_info_t info;
    int route = 0;
    const dvc_tube_struct *tb = c->tube;
    long *scale = NULL;
    double *xz = NULL;

    if ((st = dvc_cert_verify_open_(c, p, r, &o, &scale)) != DVC_OK) return st;
    if (p->n != c->n || p->m != c->m || p->N != c->N)
        st = dvc_error(DVC_ERR_INPUT, "certificate: dimensions differ from the embedded problem's");
    if (st == DVC_OK && scale) {
        /* the stored predictor in the scaled variables z = S^-1 x */
        xz = malloc((size_t)((c->N + 1) * (c->n > 0 ? c->n : 1)) * sizeof *xz);
        if (!xz) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        for (long i = 0; st == DVC_OK && i <= c->N; i++)
            st = dvc_dlvi_scale_point(xz + i * c->n, tb->x + i * c->n, scale, c->n, 0);
    }
    free(scale);
    if (st != DVC_OK) {
        free(xz);
        return verify_abort(r, st);
    }
    /* 2. recompute every bound from the stored predictor, from scratch (the
     * lognorm route: the norm searched and proven again) */
    dvc_lognorm_info_init(info);
    st = dvc_cert_route_opts_(c, &o, &lo, &route);
    if (st == DVC_OK) {
        if (route == 1) st = dvc_lognorm_certify(r, info, p, &lo, xz ? xz : tb->x, tb->y);
        else st = dvc_dlvi_certify(r, p, &o, xz ? xz : tb->x, tb->y);
        if (st == DVC_NOT_CERTIFIED)
            st = dvc_error_context(DVC_NOT_CERTIFIED, "the stored predictor cannot be certified: ");
    }
    for (long i = 0; st == DVC_OK && i <= c->N; i++) {
        dvc_dlvi_point pt;
        dvc_cert_point_of_result_(&pt, r, i);
        st = dvc_cert_check_point_(tb, i, &pt, c->labels ? c->labels[i] : NULL);
    }
    free(xz);
    dvc_cert_route_opts_clear_(&lo);
    if (route == 1) return dvc_cert_verify_close_lognorm_(c, p, r, info, lo.pieces, st);
    dvc_lognorm_info_clear(info);
    return dvc_cert_verify_close_(c, p, r, st);
}
