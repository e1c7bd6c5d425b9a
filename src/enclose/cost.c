/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The work of one lognorm step as a count of operations (enclose --radius
 * compares the theta and Heun predictors by it): a pure function of the
 * problem's sizes and the predictor, so that the predictor chosen, and the
 * certificate, never depend on the machine's speed or load (the measured
 * seconds of the pilots did, docs/lognorm.md section 11). */
#include "enclose/internal.h"

/* One evaluation of f and g at a time (the binary64 kernels of sin, cos,
 * exp, tables): about as much as a small matrix-vector product. */
#define DVC_WORK_EVAL 64.0

double dvc_enclose_step_work_(long n, long m, long pieces, int heun)
{
    double N = (double)n, M = (double)m, mv = N * (N + M);
    /* a piece of the defect bound: the matrix-vector products of the
     * Lohner and defect kernels and f, g at its nodes; Heun's accurate
     * nodes leave radii small enough that the f, g variation inside a
     * piece takes the derivative enclosures too (docs/lognorm.md section
     * 4): one evaluation more a piece */
    double piece = mv + (heun ? 2 : 1) * DVC_WORK_EVAL;
    /* a predictor stage: one LVI solve (m^3), a product and f, g */
    double stage = mv + M * M * M + DVC_WORK_EVAL;
    /* the rest of a step: the error set's propagation (n^3), the LVI
     * enclosure at the grid point (m^3), the norms */
    double step = N * N * N + M * M * M + 2 * mv;
    return (double)pieces * piece + (heun ? 2 : 1) * stage + step;
}
