/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Interval vectors. */
#ifndef DVICERT_IVEC_H
#define DVICERT_IVEC_H

#include "dvicert/ival.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    mpfi_t *e;
    long n;
    mpfr_prec_t prec; /* precision of the entries: set by init2, kept by resize */
} dvc_ivec_struct;
typedef dvc_ivec_struct dvc_ivec_t[1];
typedef dvc_ivec_struct *dvc_ivec_ptr;
typedef const dvc_ivec_struct *dvc_ivec_srcptr;

/* Entries are initialised to [0,0] at precision prec; dvc_ivec_init is the
 * convenience form at the thread's working precision (dvc_prec_get()).
 * The vector owns its entries; dvc_ivec_clear frees them. */
void dvc_ivec_init(dvc_ivec_t v, long n);
void dvc_ivec_init2(dvc_ivec_t v, long n, mpfr_prec_t prec);
void dvc_ivec_clear(dvc_ivec_t v);
/* Precision of the vector: that of its entries, or (empty vector) the one
 * it was initialised with. Temporaries of the functions below use it. */
mpfr_prec_t dvc_ivec_prec(const dvc_ivec_t v);
/* Resize (entries lost, reset to [0,0]) keeping the precision. */
void dvc_ivec_resize(dvc_ivec_t v, long n);

void dvc_ivec_set(dvc_ivec_t r, const dvc_ivec_t a);
void dvc_ivec_zero(dvc_ivec_t r);
void dvc_ivec_set_d(dvc_ivec_t r, const double *x);
void dvc_ivec_mid_d(double *x, const dvc_ivec_t a);
void dvc_ivec_add(dvc_ivec_t r, const dvc_ivec_t a, const dvc_ivec_t b);
void dvc_ivec_sub(dvc_ivec_t r, const dvc_ivec_t a, const dvc_ivec_t b);
void dvc_ivec_neg(dvc_ivec_t r, const dvc_ivec_t a);
void dvc_ivec_scale(dvc_ivec_t r, const mpfi_t s, const dvc_ivec_t a);
/* r <- r + s a */
void dvc_ivec_addmul(dvc_ivec_t r, const mpfi_t s, const dvc_ivec_t a);
/* r <- hull(a, b) */
void dvc_ivec_hull(dvc_ivec_t r, const dvc_ivec_t a, const dvc_ivec_t b);
/* r <- a + [-e, e] componentwise (e >= 0, rounded outward). */
void dvc_ivec_inflate(dvc_ivec_t r, const dvc_ivec_t a, const mpfr_t e);
/* Enclosure of the dot product. */
void dvc_ivec_dot(mpfi_t r, const dvc_ivec_t a, const dvc_ivec_t b);

/* Upper bounds of the norms, rounded up. */
void dvc_ivec_norm_inf(mpfr_t r, const dvc_ivec_t a);
void dvc_ivec_norm1(mpfr_t r, const dvc_ivec_t a);
void dvc_ivec_norm2(mpfr_t r, const dvc_ivec_t a);
/* Largest width of an entry, rounded up. */
void dvc_ivec_max_width(mpfr_t r, const dvc_ivec_t a);

int dvc_ivec_is_finite(const dvc_ivec_t a);
/* 1 when every x[i] lies in a[i]. */
int dvc_ivec_contains_d(const dvc_ivec_t a, const double *x);
int dvc_ivec_contains_fr(const dvc_ivec_t a, const mpfr_t *x);

void dvc_ivec_fprint(FILE *f, const dvc_ivec_t a, int digits);

#ifdef __cplusplus
}
#endif
#endif
