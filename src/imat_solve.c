/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Verified linear algebra: solve, inverse, positive definiteness.
 *
 * Method (Krawczyk / Rump): R ~ mid(A)^{-1} by a floating LU, x~ = R mid(b).
 * If an upper bound c of ||I - R A||_inf is proven < 1 for every A in [A],
 * every A in [A] is regular and, with z = R (b - A x~) enclosed,
 *     x - x~ = z + C (x - x~),  ||x - x~|| <= ||z|| / (1 - c) =: delta,
 *     x in x~ + [z] -+ (|C| e) delta   (componentwise).
 * At working precision <= 53 bits everything runs in binary64 with directed
 * rounding (src/fprnd.c; for a point system with one right-hand side first
 * with R = U^{-1} L^{-1} P in factored form, src/imat_lu.c); above 53 bits
 * the same algorithm runs in MPFI with R computed in MPFR at the working
 * precision and an iteratively refined x~, so that both the reach
 * (condition number) and the width follow the precision. */
#include "dvicert/imat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fprnd.h"
#include "imat_dd.h"
#include "imat_solve_ld.h"
#include "mpfr_bits.h"
#include "rounding.h"

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) abort();
    return p;
}

static mpfr_prec_t prec_of(mpfi_t *e, long len, mpfr_prec_t p)
{
    for (long t = 0; t < len; t++)
        if (mpfi_get_prec(e[t]) > p) p = mpfi_get_prec(e[t]);
    return p;
}

/* Endpoints as doubles: 1 done, 0 use MPFI, 2 non-finite entry. Exact,
 * except for endpoints of at most 53 bits below 2^-1000 in magnitude (e.g.
 * the one-ulp widening [-2^-1074, 2^-1074] of a JSON 0.0, or the comparison
 * matrix's -2^-1074 made from it) in a matrix whose largest entry is at
 * least 2^-900: those are rounded outward to (subnormal) doubles, so that
 * they do not hand the whole matrix to MPFI (60x slower at n = 100, hours
 * at n = 1000). A matrix of tiny entries still goes to MPFI, whose exponent
 * range keeps its accuracy. */
static int tiny_endpoint(mpfr_srcptr x)
{
    return mpfr_get_prec(x) <= 53 && mpfr_regular_p(x) && mpfr_get_exp(x) < -1000;
}

static int to_dd(double *lo, double *hi, mpfi_t *e, long len)
{
    int tiny = 0;
    for (long t = 0; t < len; t++) {
        mpfr_srcptr l = &e[t]->left, h = &e[t]->right;
        int a = get_exact_d(&lo[t], l), b;
        /* a point entry: the right endpoint is the left one, field by field */
        if (a == 1 && h->_mpfr_exp == l->_mpfr_exp && h->_mpfr_sign == l->_mpfr_sign &&
            mpfr_get_prec(h) <= 53 && mpfr_regular_p(h) && h->_mpfr_d[0] == l->_mpfr_d[0]) {
            hi[t] = lo[t];
            continue;
        }
        b = get_exact_d(&hi[t], h);
        if ((a & b) == 1) continue; /* the usual case: both exact */
        if (a == 2 || b == 2) return 2;
        if (a == 0 && tiny_endpoint(l)) {
            lo[t] = mpfr_get_d(l, MPFR_RNDD);
            a = tiny = 1;
        }
        if (b == 0 && tiny_endpoint(h)) {
            hi[t] = mpfr_get_d(h, MPFR_RNDU);
            b = tiny = 1;
        }
        if (a != 1 || b != 1) return 0;
    }
    if (!tiny) return 1;
    mpfr_exp_t emax = mpfr_get_emin();
    for (long t = 0; t < len; t++) {
        mpfr_srcptr l = &e[t]->left, h = &e[t]->right;
        if (mpfr_regular_p(l) && mpfr_get_exp(l) > emax) emax = mpfr_get_exp(l);
        if (mpfr_regular_p(h) && mpfr_get_exp(h) > emax) emax = mpfr_get_exp(h);
    }
    return emax < -900 ? 0 : 1;
}

int dvc_imat_outward_dd_(double *lo, double *hi, const dvc_imat_t A)
{
    int exact = 1;
    for (long t = 0; t < A->r * A->c; t++) {
        mpfr_srcptr l = &A->e[t]->left, h = &A->e[t]->right;
        int a = get_exact_d(&lo[t], l), b = get_exact_d(&hi[t], h);
        if (a == 2 || b == 2) return -1;
        if (a == 0) {
            lo[t] = mpfr_get_d(l, MPFR_RNDD);
            exact = 0;
        }
        if (b == 0) {
            hi[t] = mpfr_get_d(h, MPFR_RNDU);
            exact = 0;
        }
        if (!isfinite(lo[t]) || !isfinite(hi[t])) return -1; /* beyond the binary64 range */
    }
    return exact;
}

static int entries_finite(mpfi_t *e, long len)
{
    for (long t = 0; t < len; t++)
        if (!dvc_ival_is_finite(e[t])) return 0;
    return 1;
}

static dvc_status not_regular_singular(void)
{
    return dvc_error(DVC_NOT_CERTIFIED,
                     "verified solve: mid(A) is singular to working precision (floating LU broke "
                     "down); regularity of A not proven");
}

static dvc_status not_regular_c(double c, mpfr_prec_t p)
{
    return dvc_error(DVC_NOT_CERTIFIED,
                     "verified solve: could not prove regularity: upper bound of ||I - R A||_inf is "
                     "%.3g, not < 1 (A singular, too ill-conditioned or too wide for %ld-bit "
                     "arithmetic)",
                     c, (long)p);
}

/* Approximate inverse at precision p (Gauss-Jordan, partial pivoting,
 * round-to-nearest): a predictor only. Returns 0, or -1 on a zero pivot. */
static int fr_inv(mpfr_t *R, mpfr_t *a0, long n, mpfr_prec_t p)
{
    mpfr_t *a = xmalloc((size_t)(n * n) * sizeof(mpfr_t));
    mpfr_t f, t;
    int ok = 0;
    mpfr_inits2(p, f, t, (mpfr_ptr)0);
    for (long q = 0; q < n * n; q++) {
        mpfr_init2(a[q], p);
        mpfr_set(a[q], a0[q], MPFR_RNDN);
        mpfr_set_ui(R[q], q / n == q % n, MPFR_RNDN);
    }
    for (long c = 0; c < n; c++) {
        long piv = c;
        for (long i = c + 1; i < n; i++)
            if (mpfr_cmpabs(a[i * n + c], a[piv * n + c]) > 0) piv = i;
        if (mpfr_zero_p(a[piv * n + c]) || !mpfr_number_p(a[piv * n + c])) {
            ok = -1;
            break;
        }
        for (long j = 0; j < n; j++) {
            mpfr_swap(a[piv * n + j], a[c * n + j]);
            mpfr_swap(R[piv * n + j], R[c * n + j]);
        }
        mpfr_ui_div(f, 1, a[c * n + c], MPFR_RNDN);
        for (long j = 0; j < n; j++) {
            mpfr_mul(a[c * n + j], a[c * n + j], f, MPFR_RNDN);
            mpfr_mul(R[c * n + j], R[c * n + j], f, MPFR_RNDN);
        }
        for (long i = 0; i < n; i++) {
            if (i == c || mpfr_zero_p(a[i * n + c])) continue;
            mpfr_set(f, a[i * n + c], MPFR_RNDN);
            for (long j = 0; j < n; j++) {
                mpfr_mul(t, f, a[c * n + j], MPFR_RNDN);
                mpfr_sub(a[i * n + j], a[i * n + j], t, MPFR_RNDN);
                mpfr_mul(t, f, R[c * n + j], MPFR_RNDN);
                mpfr_sub(R[i * n + j], R[i * n + j], t, MPFR_RNDN);
            }
        }
    }
    for (long q = 0; q < n * n && ok == 0; q++)
        if (!mpfr_number_p(R[q])) ok = -1;
    for (long q = 0; q < n * n; q++) mpfr_clear(a[q]);
    mpfr_clears(f, t, (mpfr_ptr)0);
    free(a);
    return ok;
}

/* t = x c, as mpfi_mul_fr computes it (which copies c into a temporary
 * interval of c's precision, made and freed at every call): pt, of at
 * least c's precision, holds c exactly. */
static void mul_fr(mpfi_t t, mpfi_srcptr x, mpfr_srcptr c, mpfi_t pt)
{
    mpfi_set_fr(pt, c);
    mpfi_mul(t, x, pt);
}

/* Predictor x~ = R mid(b) of p bits, refined with residuals at p + 32 bits
 * (b: column of stride k; rr: scratch). */
static void refine(mpfr_t *xt, mpfr_t *rr, mpfr_t *amid, mpfr_t *R, mpfi_t *b, long k, long n,
                   mpfr_prec_t p)
{
    mpfr_t m, bm, cmax, xmax, acc;
    mpfr_inits2(p, m, bm, cmax, xmax, (mpfr_ptr)0);
    mpfr_init2(acc, p + 32);
    for (long i = 0; i < n; i++) mpfr_set_ui(xt[i], 0, MPFR_RNDN);
    for (int it = 0; it < 8; it++) {
        for (long i = 0; i < n; i++) {
            mpfi_mid(bm, b[i * k]);
            mpfr_set(acc, bm, MPFR_RNDN);
            for (long j = 0; j < n; j++) {
                mpfr_mul(m, amid[i * n + j], xt[j], MPFR_RNDN);
                mpfr_sub(acc, acc, m, MPFR_RNDN);
            }
            mpfr_set(rr[i], acc, MPFR_RNDN);
        }
        mpfr_set_ui(cmax, 0, MPFR_RNDN);
        mpfr_set_ui(xmax, 0, MPFR_RNDN);
        for (long i = 0; i < n; i++) {
            mpfr_set_ui(acc, 0, MPFR_RNDN);
            for (long j = 0; j < n; j++) {
                mpfr_mul(m, R[i * n + j], rr[j], MPFR_RNDN);
                mpfr_add(acc, acc, m, MPFR_RNDN);
            }
            mpfr_add(xt[i], xt[i], acc, MPFR_RNDN);
            if (mpfr_cmpabs(acc, cmax) > 0) mpfr_abs(cmax, acc, MPFR_RNDN);
            if (mpfr_cmpabs(xt[i], xmax) > 0) mpfr_abs(xmax, xt[i], MPFR_RNDN);
        }
        mpfr_mul_2si(xmax, xmax, -(long)p - 2, MPFR_RNDN);
        if (it > 0 && mpfr_cmp(cmax, xmax) <= 0) break;
    }
    mpfr_clears(m, bm, cmax, xmax, acc, (mpfr_ptr)0);
}

/* MPFI version of the algorithm (precision p > 53, or ranges beyond
 * binary64). X, B: n x k arrays of mpfi_t, row-major. */
static dvc_status solve_mpfi(mpfi_t *X, const dvc_imat_t A, mpfi_t *B, long k, mpfr_prec_t p)
{
    long n = A->r, nn = n * n;
    dvc_status st = DVC_OK;
    mpfr_t *g = xmalloc((size_t)n * sizeof(mpfr_t)), *xt = xmalloc((size_t)n * sizeof(mpfr_t));
    mpfr_t *rr = xmalloc((size_t)n * sizeof(mpfr_t));
    mpfr_t *amid = xmalloc((size_t)nn * sizeof(mpfr_t)), *R = xmalloc((size_t)nn * sizeof(mpfr_t));
    mpfi_t *d = xmalloc((size_t)n * sizeof(mpfi_t)), *z = xmalloc((size_t)n * sizeof(mpfi_t));
    mpfi_t s, t, pt;
    mpfr_t m, c, den, delta;
    /* at 64 bits with point data: the x87 route's g, x~ and z (the same
     * bits, imat_solve_ld.c), else computed here */
    mpfr_t *xa = NULL;
    mpfi_t *za = NULL;
    int ld = 0, sing = 0;

    mpfi_init2(s, p);
    mpfi_init2(t, p);
    mpfi_init2(pt, p); /* R and x~ are of p bits */
    mpfr_inits2(p, m, c, den, delta, (mpfr_ptr)0);
    for (long i = 0; i < n; i++) {
        mpfr_init2(g[i], p);
        mpfr_init2(xt[i], p);
        mpfr_init2(rr[i], p);
        mpfi_init2(d[i], p);
        mpfi_init2(z[i], p);
    }
    for (long q = 0; q < nn; q++) {
        mpfr_init2(amid[q], p);
        mpfr_init2(R[q], p);
        mpfi_mid(amid[q], A->e[q]);
    }
    if (p == 64) {
        xa = xmalloc((size_t)(n * k) * sizeof *xa);
        za = xmalloc((size_t)(n * k) * sizeof *za);
        for (long q = 0; q < n * k; q++) {
            mpfr_init2(xa[q], p);
            mpfi_init2(za[q], p);
        }
        ld = dvc_solve_ld_(n, k, A, B, g, xa, za, &sing);
    }
    if (sing || (!ld && fr_inv(R, amid, n, p) != 0)) {
        st = not_regular_singular();
        goto done;
    }
    /* g_i >= row sums of |I - R A| over [A]. */
    mpfr_set_ui(c, 0, MPFR_RNDU);
    for (long i = 0; i < n; i++) {
        if (ld) {
            if (mpfr_cmp(g[i], c) > 0) mpfr_set(c, g[i], MPFR_RNDU);
            continue;
        }
        mpfr_set_ui(g[i], 0, MPFR_RNDU);
        for (long j = 0; j < n; j++) {
            mpfi_set_ui(s, i == j ? 1 : 0);
            for (long q = 0; q < n; q++) {
                mul_fr(t, dvc_imat_entry(A, q, j), R[i * n + q], pt);
                mpfi_sub(s, s, t);
            }
            dvc_ival_mag(m, s);
            mpfr_add(g[i], g[i], m, MPFR_RNDU);
        }
        if (mpfr_cmp(g[i], c) > 0) mpfr_set(c, g[i], MPFR_RNDU);
    }
    if (!mpfr_number_p(c) || mpfr_cmp_ui(c, 1) >= 0) {
        st = not_regular_c(mpfr_get_d(c, MPFR_RNDU), p);
        goto done;
    }
    mpfr_ui_sub(den, 1, c, MPFR_RNDD);
    for (long l = 0; l < k; l++) {
        if (ld) {
            for (long i = 0; i < n; i++) {
                mpfr_set(xt[i], xa[i * k + l], MPFR_RNDN);
                mpfi_set(z[i], za[i * k + l]);
            }
            goto enclose;
        }
        refine(xt, rr, amid, R, B + l, k, n, p);
        /* z = R (b - A x~), enclosed. */
        for (long i = 0; i < n; i++) {
            mpfi_set(d[i], B[i * k + l]);
            for (long j = 0; j < n; j++) {
                mul_fr(t, dvc_imat_entry(A, i, j), xt[j], pt);
                mpfi_sub(d[i], d[i], t);
            }
        }
        for (long i = 0; i < n; i++) {
            mpfi_set_ui(z[i], 0);
            for (long j = 0; j < n; j++) {
                mul_fr(t, d[j], R[i * n + j], pt);
                mpfi_add(z[i], z[i], t);
            }
        }
    enclose:
        mpfr_set_ui(delta, 0, MPFR_RNDU);
        for (long i = 0; i < n; i++) {
            dvc_ival_mag(m, z[i]);
            if (mpfr_cmp(m, delta) > 0) mpfr_set(delta, m, MPFR_RNDU);
        }
        mpfr_div(delta, delta, den, MPFR_RNDU);
        for (long i = 0; i < n; i++) {
            mpfr_mul(m, g[i], delta, MPFR_RNDU);
            mpfi_interv_fr(s, m, m);
            mpfi_neg(t, s);
            mpfi_union(s, s, t); /* [-m, m] */
            mpfi_add(s, s, z[i]);
            mpfi_add_fr(s, s, xt[i]);
            if (!dvc_ival_is_finite(s)) {
                st = dvc_error(DVC_NOT_CERTIFIED, "verified solve: enclosure overflowed");
                goto done;
            }
            mpfi_set(X[i * k + l], s);
        }
    }
done:
    for (long q = 0; xa && q < n * k; q++) {
        mpfr_clear(xa[q]);
        mpfi_clear(za[q]);
    }
    free(xa);
    free(za);
    for (long i = 0; i < n; i++) {
        mpfr_clear(g[i]);
        mpfr_clear(xt[i]);
        mpfr_clear(rr[i]);
        mpfi_clear(d[i]);
        mpfi_clear(z[i]);
    }
    for (long q = 0; q < nn; q++) {
        mpfr_clear(amid[q]);
        mpfr_clear(R[q]);
    }
    mpfi_clear(s);
    mpfi_clear(t);
    mpfi_clear(pt);
    mpfr_clears(m, c, den, delta, (mpfr_ptr)0);
    free(g);
    free(xt);
    free(rr);
    free(amid);
    free(R);
    free(d);
    free(z);
    return st;
}

/* X[t] <- [lo[t], hi[t]] (exact doubles; rounded outward below 53 bits). */
static void write_dd(mpfi_t *X, const double *lo, const double *hi, long len)
{
    int fast = mpfr_get_emin() <= -1100 && mpfr_get_emax() >= 1100;
    for (long t = 0; t < len; t++) {
        int f = fast && mpfr_get_prec(&X[t]->left) == 53 && mpfr_get_prec(&X[t]->right) == 53;
        set_exact_d(&X[t]->left, lo[t], 1, f);
        set_exact_d(&X[t]->right, hi[t], 0, f);
    }
}

/* The status and message of a binary64 kernel's outcome r. */
static dvc_status fp_status(int r, double c)
{
    if (r == DVC_FP_OK) return DVC_OK;
    if (r == DVC_FP_SINGULAR) return not_regular_singular();
    if (r == DVC_FP_NOCONTRACT) return not_regular_c(c, 53);
    return dvc_error(DVC_NOT_CERTIFIED, "verified solve: overflow in binary64 verification (c = %.3g)",
                     c);
}

/* X (n x k) encloses A^{-1} B; arrays of mpfi_t, row-major; dimensions
 * checked by the caller, finiteness checked here. lu_kernel: try
 * dvc_fp_solve_lu_ first (k = 1). */
static dvc_status solve_core(mpfi_t *X, const dvc_imat_t A, mpfi_t *B, long k, const char *fn,
                             int lu_kernel)
{
    long n = A->r, nn = n * n, nk = n * k;
    int fast = 1;
    if (n == 0 || k == 0) return DVC_OK;
    for (long t = 0; t < nk && fast; t++)
        if (mpfr_get_prec(&X[t]->left) > 53) fast = 0;
    if (fast) {
        double sbuf[512]; /* small sizes on the stack */
        size_t need = (size_t)(2 * nn + 4 * nk);
        double *buf = need <= 512 ? sbuf : xmalloc(need * sizeof(double));
        double *Alo = buf, *Ahi = Alo + nn, *Blo = Ahi + nn, *Bhi = Blo + nk;
        double *Xlo = Bhi + nk, *Xhi = Xlo + nk, c = 0;
        int ca = to_dd(Alo, Ahi, A->e, nn), cb = ca == 1 ? to_dd(Blo, Bhi, B, nk) : 0;
        dvc_status st = DVC_OK;
        if (ca == 2 || cb == 2) {
            if (buf != sbuf) free(buf);
            return dvc_error(DVC_ERR_INPUT, "%s: %s has a non-finite entry", fn,
                             ca == 2 ? "matrix" : "right-hand side");
        }
        if (ca == 1 && cb == 1) {
            /* a point system with one right-hand side: the LU-factor kernel
             * first, the explicit inverse when its a priori bound does not
             * prove regularity. Not for interval data: there the width is
             * |R| rad to first order, which the factors overestimate by
             * |X_U| |X_L| (up to 100x on graded matrices). */
            int pt = k == 1 && lu_kernel && memcmp(Alo, Ahi, (size_t)nn * sizeof(double)) == 0 &&
                     memcmp(Blo, Bhi, (size_t)n * sizeof(double)) == 0;
            int r = pt ? dvc_fp_solve_lu_(n, Alo, Alo, Blo, Blo, Xlo, Xhi, &c) : -1;
            if (r != DVC_FP_OK && r != DVC_FP_SINGULAR)
                r = dvc_fp_verify_solve(n, k, Alo, Ahi, Blo, Bhi, Xlo, Xhi, &c);
            if (r == DVC_FP_OK) write_dd(X, Xlo, Xhi, nk);
            st = fp_status(r, c);
            if (buf != sbuf) free(buf);
            return st;
        }
        if (buf != sbuf) free(buf); /* more than 53 bits, or beyond the binary64 range */
    }
    if (!entries_finite(A->e, nn))
        return dvc_error(DVC_ERR_INPUT, "%s: matrix has a non-finite entry", fn);
    if (!entries_finite(B, nk))
        return dvc_error(DVC_ERR_INPUT, "%s: right-hand side has a non-finite entry", fn);
    mpfr_prec_t p = prec_of(X, nk, prec_of(B, nk, prec_of(A->e, nn, 53)));
    return solve_mpfi(X, A, B, k, p);
}

static dvc_status check_dims(const dvc_imat_t A, const char *fn)
{
    if (A->r != A->c)
        return dvc_error(DVC_ERR_INPUT, "%s: matrix is %ld x %ld, not square", fn, A->r, A->c);
    return DVC_OK;
}

static dvc_status dvc_imat_solve_rn(dvc_ivec_t x, const dvc_imat_t A, const dvc_ivec_t b,
                                    int lu_kernel)
{
    dvc_status st = check_dims(A, "dvc_imat_solve");
    if (st != DVC_OK) return st;
    if (b->n != A->r || x->n != A->r)
        return dvc_error(DVC_ERR_INPUT,
                         "dvc_imat_solve: dimension mismatch (A %ld x %ld, b %ld, x %ld)", A->r,
                         A->c, b->n, x->n);
    if (x == b) { /* aliasing: solve into a copy */
        dvc_ivec_t y;
        dvc_ivec_init2(y, x->n, dvc_ivec_prec(x));
        st = solve_core(y->e, A, b->e, 1, "dvc_imat_solve", lu_kernel);
        if (st == DVC_OK) dvc_ivec_set(x, y);
        dvc_ivec_clear(y);
        return st;
    }
    return solve_core(x->e, A, b->e, 1, "dvc_imat_solve", lu_kernel);
}

static dvc_status dvc_imat_solve_mat_rn(dvc_imat_t X, const dvc_imat_t A, const dvc_imat_t B)
{
    dvc_status st = check_dims(A, "dvc_imat_solve_mat");
    if (st != DVC_OK) return st;
    if (B->r != A->r || X->r != A->r || X->c != B->c)
        return dvc_error(DVC_ERR_INPUT,
                         "dvc_imat_solve_mat: dimension mismatch (A %ld x %ld, B %ld x %ld, X %ld x "
                         "%ld)",
                         A->r, A->c, B->r, B->c, X->r, X->c);
    if (X == B || X == A) {
        dvc_imat_t Y;
        dvc_imat_init2(Y, X->r, X->c, dvc_imat_prec(X));
        st = solve_core(Y->e, A, B->e, B->c, "dvc_imat_solve_mat", 0);
        if (st == DVC_OK) dvc_imat_set(X, Y);
        dvc_imat_clear(Y);
        return st;
    }
    return solve_core(X->e, A, B->e, B->c, "dvc_imat_solve_mat", 0);
}

/* [Xlo, Xhi] encloses [Alo, Ahi]^{-1} (n x n doubles; E: n x n scratch) by
 * the explicit-inverse kernel with B = I: a DVC_FP_ code, *c its bound. */
static int inv_dd(long n, const double *Alo, const double *Ahi, double *E, double *Xlo, double *Xhi,
                  double *c)
{
    memset(E, 0, (size_t)(n * n) * sizeof(double));
    for (long i = 0; i < n; i++) E[i * n + i] = 1;
    return dvc_fp_verify_solve(n, n, Alo, Ahi, E, E, Xlo, Xhi, c);
}

static dvc_status dvc_imat_inv_rn(dvc_imat_t X, const dvc_imat_t A)
{
    dvc_status st = check_dims(A, "dvc_imat_inv");
    dvc_imat_t I, Y;
    if (st != DVC_OK) return st;
    if (X->r != A->r || X->c != A->c)
        return dvc_error(DVC_ERR_INPUT, "dvc_imat_inv: X is %ld x %ld, A is %ld x %ld", X->r,
                         X->c, A->r, A->c);
    mpfr_prec_t p = dvc_imat_prec(X);
    long n = A->r, nn = n * n;
    int same = n > 0 && p <= 53;
    for (long t = 0; t < nn && same; t++)
        same = mpfr_get_prec(&X->e[t]->left) == p && mpfr_get_prec(&X->e[t]->right) == p;
    if (same) {
        /* binary64 matrix: the explicit-inverse kernel with B = I in
         * doubles, without the two temporary MPFI matrices (their
         * allocations cost 4x the n = 8 kernel); the same kernel, inputs
         * and rounding of the outputs as below, so the same enclosure */
        double sbuf[6 * 64];
        double *buf = nn <= 64 ? sbuf : xmalloc((size_t)(6 * nn) * sizeof(double));
        double *Alo = buf, *Ahi = Alo + nn, *E = Ahi + nn, *Xlo = E + nn, *Xhi = Xlo + nn, c = 0;
        int ca = to_dd(Alo, Ahi, A->e, nn);
        if (ca == 1) {
            int r = inv_dd(n, Alo, Ahi, E, Xlo, Xhi, &c);
            if (r == DVC_FP_OK) write_dd(X->e, Xlo, Xhi, nn); /* A is read: X may be A */
            st = fp_status(r, c);
        }
        if (buf != sbuf) free(buf);
        if (ca == 1) return st;
    }
    dvc_imat_init2(I, A->r, A->r, 2); /* 0 and 1 are exact at any precision */
    dvc_imat_one(I);
    dvc_imat_init2(Y, A->r, A->r, p);
    st = solve_core(Y->e, A, I->e, A->r, "dvc_imat_inv", 0);
    if (st == DVC_OK) dvc_imat_set(X, Y);
    dvc_imat_clear(I);
    dvc_imat_clear(Y);
    return st;
}

dvc_status dvc_imat_inv_d_(dvc_imat_t X, const double *a)
{
    long n = X->r, nn = n * n;
    double c = 0, sbuf[3 * 64];
    double *buf = nn <= 64 ? sbuf : xmalloc((size_t)(3 * nn) * sizeof(double));
    double *E = buf, *Xlo = E + nn, *Xhi = Xlo + nn;
    int r = inv_dd(n, a, a, E, Xlo, Xhi, &c);
    if (r == DVC_FP_OK)
        for (long t = 0; t < nn; t++) {
            mpfr_set_d(&X->e[t]->left, Xlo[t], MPFR_RNDD); /* exact at prec >= 53 */
            mpfr_set_d(&X->e[t]->right, Xhi[t], MPFR_RNDU);
        }
    if (buf != sbuf) free(buf);
    if (r == DVC_FP_OK) return DVC_OK;
    dvc_imat_t A;
    dvc_imat_init2(A, n, n, dvc_imat_prec(X));
    dvc_imat_set_d(A, a);
    dvc_status st = dvc_imat_inv(X, A);
    dvc_imat_clear(A);
    return st;
}

/* Interval Cholesky in MPFI: when every pivot is proven > 0, each symmetric
 * A in [A] has a Cholesky factorisation with pivots inside the computed
 * enclosures (inclusion isotonicity), hence is positive definite. */
static int cholesky_mpfi(const dvc_imat_t A, mpfr_prec_t p, long *fail_at)
{
    long n = A->r;
    int ok = 1;
    mpfi_t *L = xmalloc((size_t)(n * n) * sizeof(mpfi_t));
    mpfi_t s, t;
    mpfi_init2(s, p);
    mpfi_init2(t, p);
    for (long q = 0; q < n * n; q++) mpfi_init2(L[q], p);
    for (long j = 0; j < n && ok; j++) {
        mpfi_set(s, dvc_imat_entry(A, j, j));
        for (long q = 0; q < j; q++) {
            mpfi_sqr(t, L[j * n + q]);
            mpfi_sub(s, s, t);
        }
        if (!dvc_ival_is_pos(s)) {
            ok = 0;
            *fail_at = j;
            break;
        }
        mpfi_sqrt(L[j * n + j], s);
        for (long i = j + 1; i < n; i++) {
            mpfi_set(s, dvc_imat_entry(A, i, j));
            for (long q = 0; q < j; q++) {
                mpfi_mul(t, L[i * n + q], L[j * n + q]);
                mpfi_sub(s, s, t);
            }
            mpfi_div(L[i * n + j], s, L[j * n + j]);
        }
    }
    for (long q = 0; q < n * n; q++) mpfi_clear(L[q]);
    mpfi_clear(s);
    mpfi_clear(t);
    free(L);
    return ok;
}

static dvc_status dvc_imat_cholesky_spd_rn(const dvc_imat_t A)
{
    dvc_status st = check_dims(A, "dvc_imat_cholesky_spd");
    long n = A->r, nn = n * n, fail_at = -1;
    if (st != DVC_OK) return st;
    if (!entries_finite(A->e, nn))
        return dvc_error(DVC_ERR_INPUT, "dvc_imat_cholesky_spd: matrix has a non-finite entry");
    for (long i = 0; i < n; i++)
        for (long j = 0; j < i; j++)
            if (!mpfi_is_inside(dvc_imat_entry(A, i, j), dvc_imat_entry(A, j, i)) ||
                !mpfi_is_inside(dvc_imat_entry(A, j, i), dvc_imat_entry(A, i, j)))
                return dvc_error(DVC_ERR_INPUT,
                                 "dvc_imat_cholesky_spd: matrix is not symmetric (entries (%ld,%ld) "
                                 "and (%ld,%ld) differ)",
                                 i + 1, j + 1, j + 1, i + 1);
    if (n == 0) return DVC_OK;
    for (long i = 0; i < n; i++)
        if (!dvc_ival_is_pos(dvc_imat_entry(A, i, i)))
            return dvc_error(DVC_NOT_CERTIFIED,
                             "positive definiteness not proven: diagonal entry %ld is not proven > 0",
                             i + 1);
    mpfr_prec_t p = prec_of(A->e, nn, 2);
    double *buf = xmalloc((size_t)(2 * nn) * sizeof(double)), margin = 0;
    int conv = 1;
    for (long t = 0; t < nn && conv; t++) { /* outward enclosure at any precision */
        buf[t] = mpfr_get_d(&A->e[t]->left, MPFR_RNDD);
        buf[nn + t] = mpfr_get_d(&A->e[t]->right, MPFR_RNDU);
        conv = isfinite(buf[t]) && isfinite(buf[nn + t]);
    }
    int r = conv ? dvc_fp_verify_spd(n, buf, buf + nn, &margin) : DVC_FP_NONFINITE;
    free(buf);
    if (r == DVC_FP_OK) return DVC_OK;
    /* Binary64 could not decide: the interval Cholesky at the operands'
     * precision sometimes can (narrow matrices at prec > 53). */
    if (p > 53 || !conv) {
        if (cholesky_mpfi(A, p, &fail_at)) return DVC_OK;
    } else if (n <= 4 && cholesky_mpfi(A, 53, &fail_at)) {
        return DVC_OK;
    }
    return dvc_error(DVC_NOT_CERTIFIED,
                     "positive definiteness not proven: no shifted floating Cholesky of mid(A) "
                     "with a residual small enough was found%s (A indefinite, singular, too "
                     "ill-conditioned or too wide)",
                     fail_at >= 0 ? ", and the interval Cholesky could not prove a pivot > 0" : "");
}

dvc_status dvc_imat_solve(dvc_ivec_t x, const dvc_imat_t A, const dvc_ivec_t b)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = dvc_imat_solve_rn(x, A, b, 1);
    dvc_rnd_restore(saved);
    return st;
}

dvc_status dvc_imat_solve_inv_(dvc_ivec_t x, const dvc_imat_t A, const dvc_ivec_t b)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = dvc_imat_solve_rn(x, A, b, 0);
    dvc_rnd_restore(saved);
    return st;
}

dvc_status dvc_imat_solve_mat(dvc_imat_t X, const dvc_imat_t A, const dvc_imat_t B)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = dvc_imat_solve_mat_rn(X, A, B);
    dvc_rnd_restore(saved);
    return st;
}

dvc_status dvc_imat_inv(dvc_imat_t X, const dvc_imat_t A)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = dvc_imat_inv_rn(X, A);
    dvc_rnd_restore(saved);
    return st;
}

dvc_status dvc_imat_cholesky_spd(const dvc_imat_t A)
{
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = dvc_imat_cholesky_spd_rn(A);
    dvc_rnd_restore(saved);
    return st;
}
