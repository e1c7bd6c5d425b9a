/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Matrix and box LVI / LCP input files (docs/formats.md): JSON -> intervals,
 * for the lvi, beta and classify commands. */
#include "io/io.h"

#include <stdlib.h>

#include "dvicert/ival.h"
#include "io/json.h"

dvc_status dvc_io_read_matrix(dvc_imat_t M, const char *path, const char *field)
{
    json_t *root = NULL;
    dvc_status st = dvc_json_load(&root, path); /* refuses anything but an object */
    if (st != DVC_OK) return st;
    st = dvc_json_imat(M, root, field, path);
    json_decref(root);
    return st;
}

/* l < u entrywise, l never +inf, u never -inf. */
static dvc_status check_bounds(const dvc_ivec_t l, const dvc_ivec_t u, const char *path)
{
    for (long i = 0; i < l->n; i++) {
        if (mpfr_inf_p(&l->e[i]->right) && mpfr_sgn(&l->e[i]->right) > 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'l' entry %ld is +inf (a lower bound is a number "
                             "or \"-inf\")", path, i + 1);
        if (mpfr_inf_p(&u->e[i]->left) && mpfr_sgn(&u->e[i]->left) < 0)
            return dvc_error(DVC_ERR_INPUT, "%s: field 'u' entry %ld is -inf (an upper bound is a number "
                             "or \"inf\")", path, i + 1);
        if (mpfr_cmp(&l->e[i]->right, &u->e[i]->left) >= 0) {
            char *ls = dvc_ival_str(l->e[i], 17), *us = dvc_ival_str(u->e[i], 17);
            dvc_status st = dvc_error(DVC_ERR_INPUT, "%s: field 'l' entry %ld (%s) is not below field 'u' "
                                      "entry %ld (%s): need l < u", path, i + 1, ls ? ls : "?", i + 1,
                                      us ? us : "?");
            free(ls);
            free(us);
            return st;
        }
    }
    return DVC_OK;
}

dvc_status dvc_io_read_lvi(dvc_imat_t M, dvc_ivec_t q, dvc_ivec_t l, dvc_ivec_t u, const char *path)
{
    json_t *root = NULL;
    dvc_status st = dvc_json_load(&root, path);
    long m;
    if (st != DVC_OK) return st;
    st = dvc_json_imat(M, root, "M", path);
    if (st == DVC_OK && M->r != M->c)
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'M' is %ldx%ld, must be square", path, M->r, M->c);
    m = M->r;
    if (st == DVC_OK) {
        /* sized first, so that a length mismatch names the field */
        dvc_ivec_resize(q, m);
        dvc_ivec_resize(l, m);
        dvc_ivec_resize(u, m);
        st = dvc_json_ivec(q, root, "q", path, 0);
    }
    if (st == DVC_OK) st = dvc_json_ivec(l, root, "l", path, 1);
    if (st == DVC_OK) st = dvc_json_ivec(u, root, "u", path, 1);
    if (st == DVC_OK) st = check_bounds(l, u, path);
    json_decref(root);
    return st;
}
