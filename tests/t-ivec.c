/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Randomized tests of every function of dvicert/ivec.h (Arb t-*.c style).
 * Each operation runs on random interval vectors (points, thick intervals,
 * zeros, mixed signs, infinite ends, output and input precisions drawn from
 * 24..200 bits); its result must contain the exact rational result at
 * points sampled from the inputs (ends and interior points), also when the
 * output is one of the inputs. Norms must bound the exact norm of every
 * sampled point vector. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_ival.h"
#include "ref_exact.h"
#include "dvicert/dvicert.h"

#define NMAX 7
#define NSAMP 6

static void rvec(dvc_ivec_t v, check_rng *r, int allow_inf)
{
    for (long i = 0; i < v->n; i++) rand_ival(v->e[i], r, allow_inf);
}

static void sample(mpq_t *q, const dvc_ivec_t v, check_rng *r)
{
    for (long i = 0; i < v->n; i++) rand_sample_q(q[i], v->e[i], rand_which(r), r);
}

static int vcontains(const dvc_ivec_t v, mpq_t *q)
{
    for (long i = 0; i < v->n; i++)
        if (!ref_contains_q(v->e[i], q[i])) return 0;
    return 1;
}

/* a copy of a at the same precision (mpfi_set is then exact) */
static void vcopy(dvc_ivec_t c, const dvc_ivec_t a)
{
    dvc_ivec_init2(c, a->n, a->n ? mpfi_get_prec(a->e[0]) : 53);
    for (long i = 0; i < a->n; i++) mpfi_set(c->e[i], a->e[i]);
}

static mpq_t *qvec(long n)
{
    mpq_t *q = malloc((size_t)(n > 0 ? n : 1) * sizeof(mpq_t));
    for (long i = 0; i < n; i++) mpq_init(q[i]);
    return q;
}

static void qvec_free(mpq_t *q, long n)
{
    for (long i = 0; i < n; i++) mpq_clear(q[i]);
    free(q);
}

static void t_init_set(void)
{
    check_rng r = {0x1417};
    for (int k = 0; k < 600; k++) {
        long n = check_rng_int(&r, 0, NMAX);
        mpfr_prec_t pa = rand_prec(&r), pr = rand_prec(&r);
        dvc_ivec_t a, c;
        double x[NMAX], m[NMAX];
        dvc_ivec_init2(a, n, pa);
        CHECK(a->n == n, "init2 length");
        for (long i = 0; i < n; i++)
            CHECK(mpfi_get_prec(a->e[i]) == pa && mpfr_zero_p(&a->e[i]->left) && mpfr_zero_p(&a->e[i]->right),
                  "init2 entry %ld not [0, 0] at %ld bits", i, (long)pa);
        rvec(a, &r, 1);
        dvc_prec_set(pr);
        dvc_ivec_init(c, n);
        dvc_prec_set(DVC_DEFAULT_PREC);
        for (long i = 0; i < n; i++)
            CHECK(mpfi_get_prec(c->e[i]) == pr && mpfi_is_zero(c->e[i]), "init: working precision, zero");
        /* set: c contains a (outward when c has fewer bits) */
        dvc_ivec_set(c, a);
        for (long i = 0; i < n; i++)
            CHECK(mpfr_cmp(&c->e[i]->left, &a->e[i]->left) <= 0 && mpfr_cmp(&c->e[i]->right, &a->e[i]->right) >= 0,
                  "set: entry %ld not enclosed (%ld -> %ld bits)", i, (long)pa, (long)pr);
        dvc_ivec_set(c, c);
        for (long i = 0; i < n; i++)
            CHECK(mpfr_cmp(&c->e[i]->left, &a->e[i]->left) <= 0 && mpfr_cmp(&c->e[i]->right, &a->e[i]->right) >= 0,
                  "set aliased changed the entries");
        /* mid_d: a double inside each entry (rounded to doubles outward) */
        dvc_ivec_mid_d(m, a);
        for (long i = 0; i < n; i++) {
            int whole = mpfr_inf_p(&a->e[i]->left) && mpfr_inf_p(&a->e[i]->right);
            CHECK(whole ? m[i] == 0.0
                        : isfinite(m[i]) && mpfr_get_d(&a->e[i]->left, MPFR_RNDD) <= m[i] &&
                              m[i] <= mpfr_get_d(&a->e[i]->right, MPFR_RNDU),
                  "mid_d[%ld] = %a outside the entry", i, m[i]);
        }
        /* set_d: encloses each double, exactly from 53 bits on */
        for (long i = 0; i < n; i++) x[i] = check_rng_unif(&r, -1e3, 1e3) * (check_rng_int(&r, 0, 3) ? 1 : 1e-300);
        dvc_ivec_set_d(c, x);
        for (long i = 0; i < n; i++) {
            CHECK(mpfr_cmp_d(&c->e[i]->left, x[i]) <= 0 && mpfr_cmp_d(&c->e[i]->right, x[i]) >= 0, "set_d[%ld]", i);
            if (pr >= 53) CHECK(mpfr_cmp_d(&c->e[i]->left, x[i]) == 0 && mpfr_cmp_d(&c->e[i]->right, x[i]) == 0,
                                "set_d[%ld] not exact at %ld bits", i, (long)pr);
        }
        dvc_ivec_zero(a);
        for (long i = 0; i < n; i++) CHECK(mpfi_is_zero(a->e[i]) && mpfi_get_prec(a->e[i]) == pa, "zero");
        /* resize keeps the precision, also of an empty object */
        {
            long n2 = check_rng_int(&r, 0, NMAX);
            dvc_ivec_resize(a, n2);
            CHECK(a->n == n2, "resize length");
            for (long i = 0; i < n2; i++)
                CHECK(mpfi_get_prec(a->e[i]) == pa && dvc_ivec_prec(a) == pa, "resize precision");
        }
        dvc_ivec_clear(a);
        CHECK(a->n == 0 && a->e == NULL, "clear");
        dvc_ivec_clear(c);
    }
}

/* Binary and unary entrywise operations. op: 0 add, 1 sub, 2 neg, 3 scale,
 * 4 addmul, 5 hull; alias: 0 none, 1 r = a, 2 r = b (where meaningful). */
static void apply(int op, dvc_ivec_t r, const dvc_ivec_t a, const dvc_ivec_t b, const mpfi_t s)
{
    switch (op) {
    case 0: dvc_ivec_add(r, a, b); break;
    case 1: dvc_ivec_sub(r, a, b); break;
    case 2: dvc_ivec_neg(r, a); break;
    case 3: dvc_ivec_scale(r, s, a); break;
    case 4: dvc_ivec_addmul(r, s, a); break;
    default: dvc_ivec_hull(r, a, b); break;
    }
}

static const char *opname[] = {"add", "sub", "neg", "scale", "addmul", "hull"};

static void t_entrywise(void)
{
    check_rng r = {0xe17};
    for (int k = 0; k < 3000; k++) {
        int op = (int)(k % 6), alias = (int)check_rng_int(&r, 0, 2);
        long n = check_rng_int(&r, 0, NMAX);
        mpfr_prec_t pa = rand_prec(&r), pb = rand_prec(&r), pr = rand_prec(&r);
        dvc_ivec_t a, b, r0, res;
        mpfi_t s;
        mpq_t *qa = qvec(n), *qb = qvec(n), *qr = qvec(n), *qe = qvec(n), sq, t;
        int allow_inf = check_rng_int(&r, 0, 3) == 0;
        if (op == 3 || op == 4) alias = alias == 2 ? 0 : alias; /* no b */
        if (op == 2 && alias == 2) alias = 1;
        if (alias) pr = alias == 1 ? pa : pb;
        mpq_inits(sq, t, (mpq_ptr)0);
        dvc_ivec_init2(a, n, pa);
        dvc_ivec_init2(b, n, pb);
        dvc_ivec_init2(r0, n, pr); /* initial r (addmul reads it) */
        mpfi_init2(s, rand_prec(&r));
        rvec(a, &r, allow_inf);
        rvec(b, &r, allow_inf);
        rvec(r0, &r, allow_inf);
        rand_ival(s, &r, allow_inf && op == 3);
        if (op == 4 && alias == 1) dvc_ivec_set(r0, a);
        if (alias == 1) vcopy(res, a);
        else if (alias == 2) vcopy(res, b);
        else vcopy(res, r0);
        if (alias == 1) apply(op, res, res, b, s);
        else if (alias == 2) apply(op, res, a, res, s);
        else apply(op, res, a, b, s);
        for (int smp = 0; smp < NSAMP; smp++) {
            sample(qa, a, &r);
            sample(qb, b, &r);
            sample(qr, r0, &r);
            if (op == 4 && alias == 1)
                for (long i = 0; i < n; i++) mpq_set(qr[i], qa[i]);
            rand_sample_q(sq, s, rand_which(&r), &r);
            for (long i = 0; i < n; i++) {
                switch (op) {
                case 0: mpq_add(qe[i], qa[i], qb[i]); break;
                case 1: mpq_sub(qe[i], qa[i], qb[i]); break;
                case 2: mpq_neg(qe[i], qa[i]); break;
                case 3: mpq_mul(qe[i], sq, qa[i]); break;
                case 4: mpq_mul(t, sq, qa[i]); mpq_add(qe[i], qr[i], t); break;
                default: mpq_set(qe[i], smp % 2 ? qa[i] : qb[i]); break;
                }
            }
            CHECK(vcontains(res, qe), "%s (n=%ld, alias %d, bits %ld/%ld -> %ld): exact result not enclosed",
                  opname[op], n, alias, (long)pa, (long)pb, (long)pr);
        }
        mpq_clears(sq, t, (mpq_ptr)0);
        qvec_free(qa, n);
        qvec_free(qb, n);
        qvec_free(qr, n);
        qvec_free(qe, n);
        mpfi_clear(s);
        dvc_ivec_clear(a);
        dvc_ivec_clear(b);
        dvc_ivec_clear(r0);
        dvc_ivec_clear(res);
    }
}

static void t_inflate(void)
{
    check_rng r = {0x1f1a};
    for (int k = 0; k < 1500; k++) {
        long n = check_rng_int(&r, 0, NMAX);
        int alias = (int)check_rng_int(&r, 0, 1);
        mpfr_prec_t pa = rand_prec(&r), pr = alias ? pa : rand_prec(&r);
        dvc_ivec_t a, res;
        mpfr_t e;
        mpq_t eq, lo, hi;
        mpq_inits(eq, lo, hi, (mpq_ptr)0);
        dvc_ivec_init2(a, n, pa);
        rvec(a, &r, 0);
        mpfr_init2(e, rand_prec(&r));
        rand_fr(e, &r, -60, 4);
        mpfr_abs(e, e, MPFR_RNDN);
        mpfr_get_q(eq, e);
        if (alias) {
            vcopy(res, a);
            dvc_ivec_inflate(res, res, e);
        } else {
            dvc_ivec_init2(res, n, pr);
            dvc_ivec_inflate(res, a, e);
        }
        for (long i = 0; i < n; i++) {
            mpfr_get_q(lo, &a->e[i]->left);
            mpfr_get_q(hi, &a->e[i]->right);
            mpq_sub(lo, lo, eq);
            mpq_add(hi, hi, eq);
            CHECK(ref_contains_q(res->e[i], lo) && ref_contains_q(res->e[i], hi),
                  "inflate[%ld] (alias %d, %ld -> %ld bits) misses a +- e", i, alias, (long)pa, (long)pr);
        }
        mpq_clears(eq, lo, hi, (mpq_ptr)0);
        mpfr_clear(e);
        dvc_ivec_clear(a);
        dvc_ivec_clear(res);
    }
}

static void t_dot(void)
{
    check_rng r = {0xd07};
    for (int k = 0; k < 2000; k++) {
        long n = check_rng_int(&r, 0, NMAX);
        int alias = (int)check_rng_int(&r, 0, 2) == 0; /* dot(a, a) */
        mpfr_prec_t pa = rand_prec(&r);
        dvc_ivec_t a, b;
        mpfi_t d;
        mpq_t *qa = qvec(n), *qb = qvec(n), e, t;
        mpq_inits(e, t, (mpq_ptr)0);
        dvc_ivec_init2(a, n, pa);
        dvc_ivec_init2(b, n, rand_prec(&r));
        rvec(a, &r, check_rng_int(&r, 0, 3) == 0);
        rvec(b, &r, 0);
        mpfi_init2(d, rand_prec(&r));
        mpfi_set_ui(d, 12345); /* must be overwritten */
        dvc_ivec_dot(d, a, alias ? a : b);
        for (int smp = 0; smp < NSAMP; smp++) {
            sample(qa, a, &r);
            if (alias) {
                for (long i = 0; i < n; i++) mpq_set(qb[i], qa[i]);
            } else
                sample(qb, b, &r);
            mpq_set_ui(e, 0, 1);
            for (long i = 0; i < n; i++) {
                mpq_mul(t, qa[i], qb[i]);
                mpq_add(e, e, t);
            }
            CHECK(ref_contains_q(d, e), "dot (n=%ld alias %d) misses the exact value", n, alias);
        }
        mpq_clears(e, t, (mpq_ptr)0);
        qvec_free(qa, n);
        qvec_free(qb, n);
        mpfi_clear(d);
        dvc_ivec_clear(a);
        dvc_ivec_clear(b);
    }
}

/* mpq value of a finite mpfr (for bounds) */
static void fr_q(mpq_t q, const mpfr_t x) { mpfr_get_q(q, x); }

static void t_norms(void)
{
    check_rng r = {0x7003};
    for (int k = 0; k < 2000; k++) {
        long n = check_rng_int(&r, 0, NMAX);
        int allow_inf = check_rng_int(&r, 0, 5) == 0;
        dvc_ivec_t a;
        mpfr_t ni, n1, n2, w;
        mpq_t *q = qvec(n), s, t, b, mx;
        mpq_inits(s, t, b, mx, (mpq_ptr)0);
        dvc_ivec_init2(a, n, rand_prec(&r));
        rvec(a, &r, allow_inf);
        mpfr_inits2(rand_prec(&r), ni, n1, n2, w, (mpfr_ptr)0);
        dvc_ivec_norm_inf(ni, a);
        dvc_ivec_norm1(n1, a);
        dvc_ivec_norm2(n2, a);
        dvc_ivec_max_width(w, a);
        CHECK(!mpfr_nan_p(ni) && !mpfr_nan_p(n1) && !mpfr_nan_p(n2) && !mpfr_nan_p(w), "NaN norm");
        CHECK(mpfr_sgn(ni) >= 0 && mpfr_sgn(n1) >= 0 && mpfr_sgn(n2) >= 0 && mpfr_sgn(w) >= 0, "negative norm");
        for (int smp = 0; smp < NSAMP; smp++) {
            sample(q, a, &r);
            mpq_set_ui(s, 0, 1); /* sum |q| */
            mpq_set_ui(t, 0, 1); /* sum q^2 */
            mpq_set_ui(mx, 0, 1);
            for (long i = 0; i < n; i++) {
                mpq_abs(b, q[i]);
                mpq_add(s, s, b);
                if (mpq_cmp(b, mx) > 0) mpq_set(mx, b);
                mpq_mul(b, b, b);
                mpq_add(t, t, b);
            }
            CHECK(mpfr_inf_p(ni) || mpfr_cmp_q(ni, mx) >= 0, "norm_inf below a point's norm (n=%ld)", n);
            CHECK(mpfr_inf_p(n1) || mpfr_cmp_q(n1, s) >= 0, "norm1 below a point's norm (n=%ld)", n);
            if (!mpfr_inf_p(n2)) {
                fr_q(b, n2);
                mpq_mul(b, b, b);
                CHECK(mpq_cmp(b, t) >= 0, "norm2^2 below a point's sum of squares (n=%ld)", n);
            }
        }
        /* infinite only when an entry is; max_width bounds each width */
        CHECK(mpfr_inf_p(ni) == !dvc_ivec_is_finite(a), "norm_inf infinite iff an entry is");
        for (long i = 0; i < n; i++) {
            if (!dvc_ival_is_finite(a->e[i])) {
                CHECK(mpfr_inf_p(w), "max_width finite with an infinite entry");
                continue;
            }
            mpfr_get_q(s, &a->e[i]->right);
            mpfr_get_q(t, &a->e[i]->left);
            mpq_sub(s, s, t);
            CHECK(mpfr_inf_p(w) || mpfr_cmp_q(w, s) >= 0, "max_width below width of entry %ld", i);
        }
        /* not absurd: norm_inf within one ulp of the largest magnitude */
        if (n > 0 && mpfr_number_p(ni) && mpfr_sgn(ni) > 0) {
            mpfr_t m;
            mpfr_init2(m, 300);
            mpfr_set_zero(m, 1);
            for (long i = 0; i < n; i++) {
                if (mpfr_cmpabs(&a->e[i]->left, m) > 0) mpfr_abs(m, &a->e[i]->left, MPFR_RNDN);
                if (mpfr_cmpabs(&a->e[i]->right, m) > 0) mpfr_abs(m, &a->e[i]->right, MPFR_RNDN);
            }
            mpfr_nextbelow(ni);
            CHECK(mpfr_cmp(ni, m) < 0, "norm_inf more than one ulp above the largest magnitude");
            mpfr_clear(m);
        }
        mpq_clears(s, t, b, mx, (mpq_ptr)0);
        qvec_free(q, n);
        mpfr_clears(ni, n1, n2, w, (mpfr_ptr)0);
        dvc_ivec_clear(a);
    }
}

static void t_predicates(void)
{
    check_rng r = {0x9ed};
    for (int k = 0; k < 2000; k++) {
        long n = check_rng_int(&r, 0, NMAX);
        dvc_ivec_t a;
        double x[NMAX];
        mpfr_t xf[NMAX];
        int fin = 1, cd = 1, cf = 1;
        dvc_ivec_init2(a, n, rand_prec(&r));
        rvec(a, &r, check_rng_int(&r, 0, 2) == 0);
        if (n > 0 && k % 9 == 0) mpfr_set_nan(check_rng_int(&r, 0, 1) ? &a->e[n - 1]->left : &a->e[n - 1]->right);
        for (long i = 0; i < n; i++) {
            mpq_t q;
            mpq_init(q);
            rand_sample_q(q, a->e[i], rand_which(&r), &r);
            mpfr_init2(xf[i], rand_prec(&r));
            /* a sampled point, sometimes nudged outside, rounded either way */
            mpfr_set_q(xf[i], q, check_rng_int(&r, 0, 1) ? MPFR_RNDU : MPFR_RNDD);
            if (check_rng_int(&r, 0, 5) == 0) mpfr_nextabove(xf[i]);
            if (check_rng_int(&r, 0, 5) == 0) mpfr_nextbelow(xf[i]);
            x[i] = mpfr_get_d(xf[i], check_rng_int(&r, 0, 1) ? MPFR_RNDU : MPFR_RNDD);
            mpq_clear(q);
            if (!dvc_ival_is_finite(a->e[i])) fin = 0;
            if (mpfr_nan_p(&a->e[i]->left) || mpfr_nan_p(&a->e[i]->right) ||
                mpfr_cmp_d(&a->e[i]->left, x[i]) > 0 || mpfr_cmp_d(&a->e[i]->right, x[i]) < 0)
                cd = 0;
            if (mpfr_nan_p(&a->e[i]->left) || mpfr_nan_p(&a->e[i]->right) ||
                mpfr_cmp(&a->e[i]->left, xf[i]) > 0 || mpfr_cmp(&a->e[i]->right, xf[i]) < 0)
                cf = 0;
        }
        CHECK(dvc_ivec_is_finite(a) == fin, "is_finite");
        CHECK(dvc_ivec_contains_d(a, x) == cd, "contains_d (expected %d)", cd);
        CHECK(dvc_ivec_contains_fr(a, (const mpfr_t *)xf) == cf, "contains_fr (expected %d)", cf);
        if (n > 0 && !mpfi_nan_p(a->e[0])) {
            x[0] = NAN;
            CHECK(!dvc_ivec_contains_d(a, x), "contains a NaN point");
        }
        for (long i = 0; i < n; i++) mpfr_clear(xf[i]);
        dvc_ivec_clear(a);
    }
}

/* fprint: each line "  [i] [lo, hi]" with the printed interval containing
 * entry i (parsed back exactly). */
static void t_fprint(void)
{
    check_rng r = {0xf9};
    for (int k = 0; k < 200; k++) {
        long n = check_rng_int(&r, 0, NMAX);
        int d = (int)check_rng_int(&r, 2, 25);
        dvc_ivec_t a;
        FILE *f = tmpfile();
        char line[512];
        long i = 0;
        REQUIRE(f != NULL, "tmpfile");
        dvc_ivec_init2(a, n, rand_prec(&r));
        rvec(a, &r, 1);
        dvc_ivec_fprint(f, a, d);
        rewind(f);
        while (fgets(line, sizeof line, f)) {
            long idx = -1;
            char lo[128] = "", hi[128] = "";
            mpq_t q;
            int ok = sscanf(line, " [%ld] [%127[^,], %127[^]]]", &idx, lo, hi) == 3 && idx == i && i < n;
            mpq_init(q);
            if (ok) {
                if (mpfr_inf_p(&a->e[i]->left)) ok = strcmp(lo, "-inf") == 0;
                else ok = ref_q_set_dec(q, lo) && mpfr_cmp_q(&a->e[i]->left, q) >= 0;
                if (mpfr_inf_p(&a->e[i]->right)) ok = ok && strcmp(hi, "inf") == 0;
                else ok = ok && ref_q_set_dec(q, hi) && mpfr_cmp_q(&a->e[i]->right, q) <= 0;
            }
            CHECK(ok, "fprint line %ld '%s' does not enclose the entry", i, line);
            mpq_clear(q);
            i++;
        }
        CHECK(i == n, "fprint printed %ld lines for %ld entries", i, n);
        fclose(f);
        dvc_ivec_clear(a);
    }
}

int main(void)
{
    t_init_set();
    t_entrywise();
    t_inflate();
    t_dot();
    t_norms();
    t_predicates();
    t_fprint();
    mpfr_free_cache();
    return check_report();
}
