/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Table reader, built twice: FUZZ_FORMAT "csv" or "at2". Oracles, with a
 * and b the first and last sample times: the range over [a, b] meets f(a)
 * and f(b), and |f(b) - f(a)| <= L (b - a) for the Lipschitz bound L. */
#include "dvicert/dvicert.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int meet(const mpfi_t u, const mpfi_t v)
{
    return mpfr_lessequal_p(&u->left, &v->right) && mpfr_lessequal_p(&v->left, &u->right);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "table." FUZZ_FORMAT);
    dvc_tabfun_t tf;
    mpfi_t v[6];
    mpfi_ptr lo = v[0], hi = v[1], T = v[2], r = v[3], fa = v[4], fb = v[5];
    mpfr_t L, d, w;
    dvc_status st;

    dvc_prec_set(53);
    dvc_tabfun_init(tf);
    for (int i = 0; i < 6; i++) mpfi_init2(v[i], 53);
    mpfr_inits2(53, L, d, w, (mpfr_ptr)0);
    st = dvc_tabfun_read(tf, path, FUZZ_FORMAT, NULL);
    fuzz_note("read", st);
    if (st == DVC_OK) {
        dvc_tabfun_tmin(lo, tf);
        dvc_tabfun_tmax(hi, tf);
        mpfi_interv_fr(T, &lo->right, &hi->left);
        mpfi_set_fr(lo, &lo->right);
        mpfi_set_fr(hi, &hi->left);
        if (dvc_tabfun_eval_lip(r, L, tf, T) == DVC_OK && dvc_tabfun_eval(fa, tf, lo) == DVC_OK &&
            dvc_tabfun_eval(fb, tf, hi) == DVC_OK) {
            FUZZ_ASSERT(meet(r, fa) && meet(r, fb), "range misses an end value");
            mpfr_sub(d, &fb->left, &fa->right, MPFR_RNDD);
            mpfr_sub(w, &fa->left, &fb->right, MPFR_RNDD);
            mpfr_max(d, d, w, MPFR_RNDD);
            mpfr_sub(w, &hi->right, &lo->left, MPFR_RNDU);
            mpfr_mul(w, w, L, MPFR_RNDU);
            FUZZ_ASSERT(mpfr_lessequal_p(d, w), "|f(b) - f(a)| > L (b - a)");
        }
    }
    mpfr_clears(L, d, w, (mpfr_ptr)0);
    for (int i = 0; i < 6; i++) mpfi_clear(v[i]);
    dvc_tabfun_clear(tf);
    return 0;
}
