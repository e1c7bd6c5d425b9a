/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to src/lvi_*.c: the predictor's workspace, so that the solver can
 * run it without allocating. */
#ifndef DVC_LVI_INTERNAL_H
#define DVC_LVI_INTERNAL_H

#include "dvicert/lvi.h"

typedef struct {
    long m;
    double *z, *yn, *yb, *H, *lu, *rhs, *rowsc;
    long *perm, *idx;
    int *act, *act2, *actb;
} dvc_lvi_pred_ws;

int dvc_lvi_pred_ws_init(dvc_lvi_pred_ws *w, long m);
void dvc_lvi_pred_ws_clear(dvc_lvi_pred_ws *w);

/* The predictor on a workspace; act (may be NULL) receives the active set
 * of the returned point (-1 lower, +1 upper, 0 free). */
dvc_status dvc_lvi_predict_ws(dvc_lvi_pred_ws *w, double *y, int *act, const double *M,
                              const double *q, const double *l, const double *u, long m,
                              const double *guess);

#endif
