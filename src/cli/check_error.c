/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The certified two-sided error of a trajectory against a tube of the
 * exact solution (src/cli/check_error.h). With z(t) in Z(t) (the tube's
 * outer enclosure at the sample's time enclosure) and the sample's value
 * enclosed exactly in P, |p - z| lies in |P - Z| (mpfi_abs: the lower end
 * is the mignitude, 0 when P - Z holds 0), that is in
 * [|p - mid Z| - rad Z, |p - mid Z| + rad Z] clipped at 0, rounded
 * outward. */
#include "check_error.h"

#include <stdlib.h>

#include "dvicert/ival.h"

static mpfr_t *nums(long k, mpfr_prec_t prec)
{
    mpfr_t *v = malloc((size_t)(k > 0 ? k : 1) * sizeof *v);
    if (v)
        for (long i = 0; i < k; i++) mpfr_init2(v[i], prec);
    return v;
}

static void nums_free(mpfr_t *v, long k)
{
    if (!v) return;
    for (long i = 0; i < k; i++) mpfr_clear(v[i]);
    free(v);
}

dvc_status dvc_check_err_init(dvc_check_err *e, long n, long m, mpfr_prec_t prec)
{
    e->ncol = n + m;
    e->n = n;
    e->last = -1;
    e->worst = malloc((size_t)(e->ncol + 1) * sizeof *e->worst);
    e->wline = malloc((size_t)(e->ncol + 1) * sizeof *e->wline);
    e->wt = malloc((size_t)(e->ncol + 1) * sizeof *e->wt);
    mpfr_init2(e->last_t, prec);
    e->wlo = nums(e->ncol, prec);
    e->whi = nums(e->ncol, prec);
    e->wrad = nums(e->ncol, prec);
    e->wdev = nums(e->ncol, prec);
    e->llo = nums(e->ncol, prec);
    e->lhi = nums(e->ncol, prec);
    dvc_ivec_init2(e->Z, n > m ? n : m, prec);
    mpfi_init2(e->D, prec);
    if (!e->worst || !e->wline || !e->wt || !e->wlo || !e->whi || !e->wrad || !e->wdev || !e->llo || !e->lhi)
        return dvc_error(DVC_ERR_NOMEM, "out of memory");
    for (long k = 0; k < e->ncol; k++) e->worst[k] = -1;
    return DVC_OK;
}

void dvc_check_err_clear(dvc_check_err *e)
{
    free(e->worst);
    free(e->wline);
    free(e->wt);
    mpfr_clear(e->last_t);
    nums_free(e->wlo, e->ncol);
    nums_free(e->whi, e->ncol);
    nums_free(e->wrad, e->ncol);
    nums_free(e->wdev, e->ncol);
    nums_free(e->llo, e->ncol);
    nums_free(e->lhi, e->ncol);
    dvc_ivec_clear(e->Z);
    mpfi_clear(e->D);
}

/* Columns k0..k0+cnt-1 of the sample of one (its index s) against Z. */
static void add_cols(dvc_check_err *e, const dvc_traj_struct *one, long s, long k0, long cnt, int is_last)
{
    const mpfi_t *v = one->v;
    for (long j = 0; j < cnt; j++) {
        long k = k0 + j;
        mpfi_sub(e->D, v[k], e->Z->e[j]);
        mpfi_abs(e->D, e->D);
        if (is_last) {
            mpfr_set(e->llo[k], &e->D->left, MPFR_RNDD);
            mpfr_set(e->lhi[k], &e->D->right, MPFR_RNDU);
        }
        /* ties go to the earlier sample in file order */
        if (e->worst[k] < 0 || mpfr_cmp(&e->D->right, e->whi[k]) > 0 ||
            (mpfr_cmp(&e->D->right, e->whi[k]) == 0 && s < e->worst[k])) {
            e->worst[k] = s;
            e->wline[k] = one->line[0];
            e->wt[k] = mpfr_get_d(&one->t[0]->left, MPFR_RNDN);
            mpfr_set(e->wlo[k], &e->D->left, MPFR_RNDD);
            mpfr_set(e->whi[k], &e->D->right, MPFR_RNDU);
            /* for the narrowness test only (not a bound) */
            mpfi_diam_abs(e->wrad[k], e->Z->e[j]);
            mpfr_div_2ui(e->wrad[k], e->wrad[k], 1, MPFR_RNDN);
            mpfi_mid(e->wdev[k], e->Z->e[j]);
            mpfr_sub(e->wdev[k], e->wdev[k], &v[k]->left, MPFR_RNDN);
            mpfr_abs(e->wdev[k], e->wdev[k], MPFR_RNDN);
        }
    }
}

dvc_status dvc_check_err_add(dvc_check_err *e, const dvc_traj_struct *one, const dvc_tube_struct *tb,
                             long s)
{
    dvc_status st;
    int is_last = e->last < 0 || mpfr_cmp(&one->t[0]->left, e->last_t) >= 0;
    if (is_last) {
        e->last = s;
        mpfr_set_prec(e->last_t, mpfr_get_prec(&one->t[0]->left));
        mpfr_set(e->last_t, &one->t[0]->left, MPFR_RNDN); /* exact: the same precision */
    }
    dvc_ivec_resize(e->Z, tb->n);
    if ((st = dvc_tube_outer(e->Z, tb, one->t[0], 0)) != DVC_OK) return st;
    add_cols(e, one, s, 0, one->n, is_last);
    if (one->m > 0 && tb->m == one->m) {
        dvc_ivec_resize(e->Z, tb->m);
        if ((st = dvc_tube_outer(e->Z, tb, one->t[0], 1)) != DVC_OK) return st;
        add_cols(e, one, s, one->n, one->m, is_last);
    }
    return DVC_OK;
}

int dvc_check_err_narrow(const dvc_check_err *e)
{
    long kw = -1;
    mpfr_t d;
    int ok;
    for (long k = 0; k < e->ncol; k++)
        if (e->worst[k] >= 0 && (kw < 0 || mpfr_cmp(e->whi[k], e->whi[kw]) > 0)) kw = k;
    if (kw < 0 || !mpfr_number_p(e->whi[kw]) || mpfr_zero_p(e->whi[kw])) return 0;
    mpfr_init2(d, mpfr_get_prec(e->wdev[kw]));
    mpfr_div_ui(d, e->wdev[kw], 10, MPFR_RNDN);
    ok = mpfr_cmp(e->wrad[kw], d) <= 0;
    mpfr_clear(d);
    return ok;
}

static void print_bounds(FILE *out, mpfr_srcptr lo, mpfr_srcptr hi, int digits)
{
    char *a = dvc_mpfr_str(lo, digits, MPFR_RNDD), *b = dvc_mpfr_str(hi, digits, MPFR_RNDU);
    fprintf(out, "[%s, %s]", a ? a : "?", b ? b : "?");
    free(a);
    free(b);
}

void dvc_check_err_print(const dvc_check_err *e, const char *const *names, int digits, FILE *out)
{
    for (long k = 0; k < e->ncol; k++) {
        long s = e->worst[k];
        if (s < 0) continue;
        /* the times as the file wrote them (to the digits asked) */
        fprintf(out, "error %s: largest in ", names[k]);
        print_bounds(out, e->wlo[k], e->whi[k], digits);
        fprintf(out, " at t = %.*g (line %ld); at the last sample t = %.*g: ", digits,
                e->wt[k], e->wline[k], digits, mpfr_get_d(e->last_t, MPFR_RNDN));
        print_bounds(out, e->llo[k], e->lhi[k], digits);
        fputc('\n', out);
    }
}
