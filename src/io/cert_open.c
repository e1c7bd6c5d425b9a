/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* One way into a certificate file, whichever engine made it
 * (include/dvicert/certio.h): the kind from a quiet look at the file, the
 * kind's reader and verifier, and the engine's own result-to-tube. */
#include "dvicert/certio.h"

#include "dvicert/events.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/lcs_cert.h"

dvc_cert_kind dvc_cert_file_kind(const char *path)
{
    /* only the hybrid format is recognised by a look; anything else is
     * left to the DLVI reader, which says what is wrong with it */
    return dvc_hybrid_file_kind(path) == 2 ? DVC_CERT_KIND_HYBRID : DVC_CERT_KIND_DLVI;
}

dvc_status dvc_cert_verify_hybrid(const dvc_hybrid_cert_t c, dvc_hybrid_result_t rec)
{
    /* an ideal contact (M = 0): its model re-derived from the problem too */
    return dvc_lcs_cert_is_lcs(c) ? dvc_lcs_cert_verify(c, rec) : dvc_hybrid_cert_verify(c, rec);
}

/* dst <- what src held (src left empty). */
static void tube_take(dvc_tube_t dst, dvc_tube_t src)
{
    dvc_tube_clear(dst);
    *dst = *src;
    dvc_tube_init(src);
}

static dvc_status open_dlvi(dvc_tube_t tb, const char *path, int verify)
{
    dvc_cert_t c;
    dvc_status st;
    dvc_cert_init(c);
    st = dvc_cert_read(c, path);
    if (st == DVC_OK && verify) st = dvc_cert_verify(c);
    if (st == DVC_OK) tube_take(tb, c->tube);
    dvc_cert_clear(c);
    return st;
}

static dvc_status open_hybrid(dvc_tube_t tb, const char *path, int verify)
{
    dvc_hybrid_cert_t c;
    dvc_status st;
    dvc_hybrid_cert_init(c);
    st = dvc_hybrid_cert_read(c, path);
    if (st == DVC_OK && verify) st = dvc_cert_verify_hybrid(c, NULL);
    /* the stated enclosures (each contains the recomputed one), copied;
     * y from the pattern's map for the events route */
    if (st == DVC_OK) st = dvc_dlvi_events_tube(tb, c->model, c->res, NULL);
    dvc_hybrid_cert_clear(c);
    return st;
}

dvc_status dvc_cert_open(dvc_tube_t tb, dvc_cert_kind *kind, const char *path, int verify)
{
    dvc_cert_kind k = dvc_cert_file_kind(path);
    if (kind) *kind = k;
    return k == DVC_CERT_KIND_HYBRID ? open_hybrid(tb, path, verify) : open_dlvi(tb, path, verify);
}
