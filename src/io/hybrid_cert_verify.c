/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Streamed verification of a hybrid certificate (dvc_hybrid_cert_read_verify).
 * A certificate in the writer's layout (one member a line, one step or
 * event a line) is verified with memory independent of its length: the
 * members outside the two arrays (the skeleton) are parsed whole, the
 * items one line at a time, and the recomputation compares each grid point
 * and event with the stored one as it is produced. Any other layout is
 * read whole, as before: the verdicts and messages are the same. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dvicert/certio.h"
#include "dvicert/files.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/lcs_cert.h"
#include "io/hybrid_cert_read.h"
#include "io/json.h"
#include "cert_internal.h"
#include "hybrid/verify.h"

/* The next item line of f, parsed (NULL at a short read or a bad line). */
static json_t *next_item(FILE *f, char **line, size_t *cap)
{
    int comma;
    ssize_t got = getline(line, cap, f);
    return got > 0 ? dvc_hcert_item_line_(*line, (size_t)got, &comma) : NULL;
}

static void fnv_str(uint64_t *h, const char *s) { dvc_fnv_update(h, s, strlen(s)); }

/* The sorted compact rendering of v into the hash (0: out of memory). */
static int fnv_json(uint64_t *h, const json_t *v)
{
    char *s = json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    if (!s) return 0;
    fnv_str(h, s);
    free(s);
    return 1;
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The text dvc_json_digest_root hashes, hashed in pieces: the skeleton's
 * members (sorted, without "digest") with the items of f's arrays, each
 * rendered sorted, in place of the empty ones. */
static dvc_status stream_digest(char out[17], const json_t *root, FILE *f, const hyb_layout *L)
{
    size_t nk = json_object_size(root), m = 0;
    const char **keys = malloc((nk ? nk : 1) * sizeof *keys), *key;
    json_t *v;
    uint64_t h = DVC_FNV_OFFSET;
    char *line = NULL;
    size_t cap = 0;
    int ok = keys != NULL;
    if (ok) json_object_foreach((json_t *)root, key, v)
        if (strcmp(key, "digest") != 0) keys[m++] = key;
    if (ok) qsort(keys, m, sizeof *keys, cmp_key);
    fnv_str(&h, "{");
    for (size_t q = 0; ok && q < m; q++) {
        int a = !strcmp(keys[q], "steps") ? 0 : !strcmp(keys[q], "events") ? 1 : -1;
        json_t *k = json_string(keys[q]);
        if (q > 0) fnv_str(&h, ",");
        ok = k && fnv_json(&h, k);
        json_decref(k);
        fnv_str(&h, ":");
        if (a < 0) {
            ok = ok && fnv_json(&h, json_object_get(root, keys[q]));
            continue;
        }
        fnv_str(&h, "[");
        ok = ok && fseek(f, L->off[a], SEEK_SET) == 0;
        for (long i = 0; ok && i < L->n[a]; i++) {
            json_t *it = next_item(f, &line, &cap);
            if (i > 0) fnv_str(&h, ",");
            ok = it && fnv_json(&h, it);
            json_decref(it);
        }
        fnv_str(&h, "]");
    }
    fnv_str(&h, "}");
    free(line);
    free(keys);
    if (!ok) return dvc_error(DVC_ERR_NOMEM, "cannot serialise the JSON text to digest");
    snprintf(out, 17, "%016llx", (unsigned long long)h);
    return DVC_OK;
}

/* The recomputation's sinks: each grid point and event against the stored
 * one, read from its line; the first failure of each kind kept, reported
 * after the run in dvc_hybrid_verify_keep's order. */
typedef struct {
    dvc_hybrid_cert_struct *c;
    const char *file;
    FILE *fs, *fe;
    char *line;
    size_t cap;
    dvc_hybrid_result_t cl; /* two grid points, one event */
    long ns, ne;            /* stated steps and events */
    char gmsg[400], emsg[400], dmsg[400];
    int gbad, ebad, dbad;
    mpfr_t wev;
} hyb_check;

static dvc_status check_point(const dvc_hybrid_result_struct *r, long i, void *ctx)
{
    hyb_check *k = ctx;
    long s = i > 0, ri = i - r->base;
    json_t *v;
    dvc_status st;
    if (i > k->ns) return DVC_OK;
    if (!(v = next_item(k->fs, &k->line, &k->cap)))
        return dvc_error(DVC_ERR_IO, "%s: cannot read the certificate again", k->file);
    st = dvc_hcert_read_step_(k->c, k->cl, v, i, s, k->file);
    json_decref(v);
    if (st != DVC_OK) return st;
    if (!k->gbad && i > 0)
        k->gbad = dvc_hybrid_check_step_(k->gmsg, sizeof k->gmsg, i, k->cl->mode[0], k->cl->box[0],
                                         r->mode[ri - 1], r->box[ri - 1]);
    if (!k->gbad)
        k->gbad = dvc_hybrid_check_point_(k->gmsg, sizeof k->gmsg, i, k->cl->t[s], k->cl->x[s],
                                          r->t[ri], r->x[ri]);
    mpfr_set(k->cl->t[0], k->cl->t[s], MPFR_RNDN);
    return DVC_OK;
}

static dvc_status check_event(const dvc_hybrid_result_struct *r, long n, void *ctx)
{
    hyb_check *k = ctx;
    const dvc_hybrid_event *e = &r->ev[n - r->ev_base];
    dvc_hybrid_event *a = &k->cl->ev[0];
    json_t *v;
    dvc_status st;
    mpfr_t d;
    mpfr_init2(d, 64);
    mpfr_sub(d, &e->t->right, &e->t->left, MPFR_RNDU);
    mpfr_max(k->wev, k->wev, d, MPFR_RNDU);
    mpfr_clear(d);
    if (n >= k->ne) return DVC_OK;
    if (!(v = next_item(k->fe, &k->line, &k->cap)))
        return dvc_error(DVC_ERR_IO, "%s: cannot read the certificate again", k->file);
    st = dvc_hcert_read_event_(k->c, a, v, n, k->file);
    json_decref(v);
    if (st != DVC_OK) return st;
    if (!k->ebad) k->ebad = dvc_hybrid_check_event_(k->emsg, sizeof k->emsg, n, a, e);
    if (!k->dbad && !mpfi_is_inside(e->dphi, a->dphi)) {
        snprintf(k->dmsg, sizeof k->dmsg, "event %ld: the claimed dphi does not contain the "
                 "recomputed enclosure", n + 1);
        k->dbad = 1;
    }
    return DVC_OK;
}

/* The stated items read (the whole reader's checks, in its order), then
 * the stated digest computed. */
static dvc_status stream_items(hyb_check *k, json_t *root, const hyb_layout *L)
{
    dvc_hybrid_cert_struct *c = k->c;
    const json_t *j = NULL;
    dvc_status st = dvc_json_need(&j, root, "steps", JSON_ARRAY, k->file);
    if (st == DVC_OK && L->n[0] < 2)
        st = dvc_error(DVC_ERR_INPUT, "%s: field 'steps' needs at least two grid points", k->file);
    if (st == DVC_OK && fseek(k->fs, L->off[0], SEEK_SET) != 0)
        st = dvc_error(DVC_ERR_IO, "%s: cannot read the certificate again", k->file);
    for (long i = 0; st == DVC_OK && i < L->n[0]; i++) {
        json_t *v = next_item(k->fs, &k->line, &k->cap);
        st = v ? dvc_hcert_read_step_(c, k->cl, v, i, i > 0, k->file)
               : dvc_error(DVC_ERR_IO, "%s: cannot read the certificate again", k->file);
        json_decref(v);
        if (st == DVC_OK) mpfr_set(k->cl->t[0], k->cl->t[i > 0], MPFR_RNDN);
    }
    if (st == DVC_OK) st = dvc_json_need(&j, root, "events", JSON_ARRAY, k->file);
    if (st == DVC_OK && fseek(k->fe, L->off[1], SEEK_SET) != 0)
        st = dvc_error(DVC_ERR_IO, "%s: cannot read the certificate again", k->file);
    for (long n = 0; st == DVC_OK && n < L->n[1]; n++) {
        json_t *v = next_item(k->fe, &k->line, &k->cap);
        st = v ? dvc_hcert_read_event_(c, &k->cl->ev[0], v, n, k->file)
               : dvc_error(DVC_ERR_IO, "%s: cannot read the certificate again", k->file);
        json_decref(v);
    }
    if (st == DVC_OK) st = dvc_hcert_from_tail_(c, root, k->file);
    if (st == DVC_OK) st = stream_digest(c->digest_read, root, k->fs, L);
    /* what the certificate states, for its description (the grid is not held) */
    c->res->nsteps = k->ns = L->n[0] - 1;
    c->res->nevents = c->res->ev_base = k->ne = L->n[1];
    return st;
}

/* dvc_hybrid_cert_verify on the streamed items. */
static dvc_status stream_verify(hyb_check *k, const hyb_layout *L)
{
    dvc_hybrid_cert_struct *c = k->c;
    dvc_hybrid_result_t r;
    dvc_status st;
    if ((st = dvc_hybrid_cert_prechecks_(c)) != DVC_OK) return st;
    if (fseek(k->fs, L->off[0], SEEK_SET) != 0 || fseek(k->fe, L->off[1], SEEK_SET) != 0)
        return dvc_error(DVC_ERR_IO, "%s: cannot read the certificate again", k->file);
    dvc_hybrid_result_init(r);
    r->sink = check_point;
    r->ev_sink = check_event;
    r->sink_ctx = k;
    st = dvc_hybrid_enclose(r, c->model);
    if (st == DVC_ERR_INPUT || st == DVC_ERR_NOMEM || st == DVC_ERR_INTERNAL || st == DVC_ERR_IO) {
        dvc_hybrid_result_clear(r);
        return st;
    }
    if (!r->certified)
        st = dvc_error(DVC_NOT_CERTIFIED, "the claim reaches T, the recomputation does not: %s",
                       dvc_error_message());
    else if (k->ns != r->nsteps)
        st = dvc_error(DVC_NOT_CERTIFIED, "%ld steps claimed, %ld recomputed", k->ns, r->nsteps);
    else if (k->ne != r->nevents)
        st = dvc_error(DVC_NOT_CERTIFIED, "%ld events claimed, %ld recomputed", k->ne, r->nevents);
    else if (k->gbad || k->ebad || k->dbad)
        st = dvc_error(DVC_NOT_CERTIFIED, "%s", k->gbad ? k->gmsg : k->ebad ? k->emsg : k->dmsg);
    else
        st = DVC_OK;
    /* the widest event from the run (its events are not kept) */
    if (st == DVC_OK) st = dvc_hybrid_cert_check_summary_(c, r, k->wev);
    dvc_hybrid_result_clear(r);
    return st;
}

/* Read and verify streamed when path is a regular file in the writer's
 * layout whose model is not an ideal contact's (*streamed = 1); else
 * nothing done. */
static dvc_status stream_read_verify(dvc_hybrid_cert_t c, const char *path, int *streamed)
{
    hyb_check k;
    hyb_layout L;
    json_t *root = NULL;
    json_error_t err;
    struct stat sb;
    dvc_status st;
    *streamed = 0;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return DVC_OK;
    memset(&k, 0, sizeof k);
    k.c = c;
    k.file = path;
    if (dvc_infile_open(&k.fs, path, "rb") != DVC_OK) return DVC_OK;
    if (!dvc_hcert_layout_scan_(k.fs, &L)) {
        fclose(k.fs);
        return DVC_OK;
    }
    root = json_loads(L.skel, JSON_REJECT_DUPLICATES, &err);
    free(L.skel);
    dvc_hybrid_cert_clear(c);
    dvc_hybrid_cert_init(c);
    st = root ? dvc_hcert_from_head_(c, root, path) : DVC_OK;
    if (!root || (st == DVC_OK && dvc_lcs_cert_is_lcs(c)) || dvc_infile_open(&k.fe, path, "rb") != DVC_OK) {
        json_decref(root);
        fclose(k.fs);
        return DVC_OK;
    }
    *streamed = 1;
    dvc_hybrid_result_init(k.cl);
    mpfr_init2(k.wev, 64);
    mpfr_set_ui(k.wev, 0, MPFR_RNDN);
    if (st == DVC_OK && (st = dvc_hcert_result_alloc_(k.cl, 1, c->model->n, c->prec)) == DVC_OK) {
        if (!(k.cl->ev = calloc(1, sizeof *k.cl->ev))) st = dvc_error(DVC_ERR_NOMEM, "out of memory");
        else {
            k.cl->aevents = k.cl->nevents = 1;
            mpfi_init2(k.cl->ev->t, c->prec);
            mpfi_init2(k.cl->ev->dphi, c->prec);
            dvc_ivec_init2(k.cl->ev->x, c->model->n, c->prec);
        }
    }
    if (st == DVC_OK) st = stream_items(&k, root, &L);
    if (st == DVC_OK) st = stream_verify(&k, &L);
    json_decref(root);
    free(k.line);
    dvc_hybrid_result_clear(k.cl);
    mpfr_clear(k.wev);
    st = dvc_infile_close(k.fs, st);
    return dvc_infile_close(k.fe, st);
}

dvc_status dvc_hybrid_cert_read_verify(dvc_hybrid_cert_t c, const char *path)
{
    int streamed;
    dvc_status st = stream_read_verify(c, path, &streamed);
    if (streamed) return st;
    st = dvc_hybrid_cert_read(c, path);
    if (st == DVC_OK) st = dvc_cert_verify_hybrid(c, NULL);
    return st;
}
