/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the lognorm route (src/dlvi/lognorm_norm.c: Jacobians and
 * norm; src/dlvi/lognorm.c: the time stepping). */
#ifndef DVC_DLVI_LOGNORM_INTERNAL_H
#define DVC_DLVI_LOGNORM_INTERNAL_H

#include "dlvi/internal.h"
#include "dvicert/lognorm.h"

/* The piece Jacobians: index k in [0, 2^m), bit a set when y_a is free. */
typedef struct {
    long n, m, npat;
    dvc_imat_t *J;  /* npat, n x n: A + B G_k Q */
    dvc_imat_t *G;  /* npat, m x m: -E_F (M_FF)^{-1} E_F^T */
    double *Jd;     /* npat * n * n midpoints (the norm search) */
} dvc_lognorm_jac;

dvc_status dvc_lognorm_jac_init_(dvc_lognorm_jac *J, const dvc_dlvi_problem_struct *p, mpfr_prec_t prec);
void dvc_lognorm_jac_clear_(dvc_lognorm_jac *J);

/* Choose and certify a norm into info. only_pat >= 0: fitted to that
 * pattern's Jacobian alone (a mode norm), searched near R0 when R0 is set
 * (quadratic); mu_pat is certified for every pattern in any case. */
dvc_status dvc_lognorm_choose_(dvc_lognorm_info_t info, const dvc_lognorm_jac *J,
                               const dvc_dlvi_problem_struct *p, dvc_lognorm_kind kind, long only_pat,
                               const double *R0, mpfr_prec_t prec);
/* c >= sup_v ||v||_b / ||v||_a (two quadratic norms), rounded up. */
dvc_status dvc_lognorm_convert_(mpfr_t c, const dvc_lognorm_info_struct *a, const dvc_lognorm_info_struct *b,
                                mpfr_prec_t prec);

typedef struct {
    mpfr_t a, b;
    mpfi_t z, t;
} dvc_lognorm_scratch;

void dvc_lognorm_scratch_init_(dvc_lognorm_scratch *s, mpfr_prec_t prec);
void dvc_lognorm_scratch_clear_(dvc_lognorm_scratch *s);
/* Upper bound of sup over the interval vector v of ||v||_W. */
void dvc_lognorm_vnorm_(mpfr_t out, const dvc_lognorm_info_struct *info, const dvc_ivec_t v,
                        dvc_lognorm_scratch *s);

#endif
