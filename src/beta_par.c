/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The bordering enumeration of beta_M (src/beta_tree.c) on several threads.
 * The anchors' Gray code is cut into a fixed number of ranges (chunks); a
 * chunk depends only on its range and on the bounds it starts from, never
 * on another chunk, and the results are combined in chunk order: the
 * bounds, the counts and the message of a failure are the same whatever
 * the number of threads (docs/beta.md section 5, "Threads"). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "beta_kern.h"
#include "beta_ws.h"
#include "rounding.h"

typedef struct par par_t;

/* One chunk: its range, its own accumulator and, after a failure, the
 * message (the error text is thread-local). */
typedef struct {
    par_t *P;
    int index;
    uint64_t t0, t1;
    dvc_bk_acc acc;
    long published; /* vertices already added to P->done */
    dvc_status st;
    int ran;
    char *msg;
} chunk_t;

struct par {
    const dvc_bk_mat *K;
    uint64_t base;
    const int *freeidx;
    int nfree, r, nch;
    chunk_t *ch;
    atomic_int next;     /* the next chunk to take */
    atomic_int stop;     /* set by the caller's tick: stop every chunk */
    atomic_int fail_min; /* the first chunk that failed (nch: none): the later ones stop */
    pthread_mutex_t mu;  /* guards running; done signals each worker's end */
    pthread_cond_t done_cv;
    int running;         /* workers not yet finished */
    atomic_long done;    /* vertices counted so far (progress only) */
};

/* A chunk's tick (worker thread, round-to-nearest): publish its count,
 * stop when the caller asked to. No user code runs here. */
static int chunk_tick(void *ctx, const dvc_bk_acc *acc)
{
    chunk_t *c = ctx;
    atomic_fetch_add(&c->P->done, acc->count - c->published);
    c->published = acc->count;
    return atomic_load(&c->P->stop) || c->index > atomic_load(&c->P->fail_min);
}

/* Chunks are taken in order, so every chunk before a failed one has
 * started; those run on (one of them may fail first), the later ones stop:
 * the failure reported is the first in chunk order, as on one thread. */
static void note_failure(par_t *P, int i)
{
    int cur = atomic_load(&P->fail_min);
    while (i < cur && !atomic_compare_exchange_weak(&P->fail_min, &cur, i)) {
    }
}

static void *worker(void *arg)
{
    par_t *P = arg;
    for (;;) {
        int i = atomic_fetch_add(&P->next, 1);
        chunk_t *c;
        if (i >= P->nch || atomic_load(&P->stop) || i > atomic_load(&P->fail_min)) break;
        c = &P->ch[i];
        c->ran = 1;
        c->st = dvc_bk_enum_tree_range(P->K, P->base, P->freeidx, P->nfree, P->r, c->t0, c->t1, &c->acc);
        if (c->st != DVC_OK) {
            c->msg = strdup(dvc_error_message());
            if (c->msg == NULL) abort();
            note_failure(P, i);
        }
        atomic_fetch_add(&P->done, c->acc.count - c->published);
        c->published = c->acc.count;
    }
    pthread_mutex_lock(&P->mu);
    P->running--;
    pthread_cond_signal(&P->done_cv);
    pthread_mutex_unlock(&P->mu);
    return NULL;
}

/* The caller's tick with the vertices counted so far; 1 to stop. */
static int caller_tick(dvc_bk_acc *acc, par_t *P)
{
    dvc_bk_acc snap = *acc;
    if (!acc->tick) return 0;
    snap.count = acc->count + atomic_load(&P->done);
    return acc->tick(acc->tick_ctx, &snap) != 0;
}

/* Combine the chunks in their order into acc (a chunk not run, or stopped,
 * makes the result stopped). */
static dvc_status combine(par_t *P, dvc_bk_acc *acc)
{
    dvc_status st = DVC_OK;
    const char *msg = NULL;
    for (int i = 0; i < P->nch; i++) {
        const chunk_t *c = &P->ch[i];
        if (c->ran && c->st != DVC_OK) {
            if (st == DVC_OK) {
                st = c->st;
                msg = c->msg;
            }
            continue;
        }
        if (!c->ran || c->acc.stopped) acc->stopped = 1;
        if (!c->ran) continue;
        dvc_bk_acc_max(&acc->beta_lo, c->acc.beta_lo);
        dvc_bk_acc_max(&acc->beta_hi, c->acc.beta_hi);
        acc->count += c->acc.count;
        acc->slow += c->acc.slow;
        acc->refresh += c->acc.refresh;
        acc->pruned += c->acc.pruned;
        acc->tight += c->acc.tight;
    }
    if (st != DVC_OK) return dvc_error(st, "%s", msg);
    return DVC_OK;
}

dvc_status dvc_bk_enum_tree_par(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree, int r,
                                int threads, dvc_bk_acc *acc)
{
    par_t P;
    pthread_t tid[DVC_BK_CHUNKS];
    int no, nth = 0, saved;
    uint64_t nanch;
    dvc_status st;
    if (r > nfree) r = nfree;
    if (r < 1 || nfree > 40) return dvc_bk_enum_tree(K, base, freeidx, nfree, r, acc);
    no = nfree - r;
    nanch = (uint64_t)1 << no;
    P.K = K;
    P.base = base;
    P.freeidx = freeidx;
    P.nfree = nfree;
    P.r = r;
    P.nch = nanch < DVC_BK_CHUNKS ? (int)nanch : DVC_BK_CHUNKS;
    P.ch = calloc((size_t)P.nch, sizeof *P.ch);
    if (P.ch == NULL) abort();
    for (int i = 0; i < P.nch; i++) {
        chunk_t *c = &P.ch[i];
        c->P = &P;
        c->index = i;
        c->t0 = nanch / (uint64_t)P.nch * (uint64_t)i;
        c->t1 = nanch / (uint64_t)P.nch * (uint64_t)(i + 1);
        c->acc = *acc; /* its bounds; the counts start at 0 */
        c->acc.count = c->acc.slow = c->acc.refresh = c->acc.pruned = c->acc.tight = 0;
        c->acc.stopped = 0;
        c->acc.tick = chunk_tick;
        c->acc.tick_ctx = c;
        c->st = DVC_OK;
    }
    atomic_init(&P.next, 0);
    atomic_init(&P.stop, 0);
    atomic_init(&P.fail_min, P.nch);
    atomic_init(&P.done, 0);
    if (threads < 1) threads = 1;
    if (threads > P.nch) threads = P.nch;
    pthread_mutex_init(&P.mu, NULL);
    pthread_cond_init(&P.done_cv, NULL);
    P.running = threads;
    saved = dvc_rnd_save();
    dvc_rnd_set(FE_TONEAREST);
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&tid[nth], NULL, worker, &P) != 0) {
            pthread_mutex_lock(&P.mu);
            P.running--; /* fewer threads: the same chunks, the same result */
            pthread_mutex_unlock(&P.mu);
            continue;
        }
        nth++;
    }
    if (nth == 0) {
        /* no thread could be started: the chunks here, in order */
        P.running = 1;
        worker(&P);
    }
    /* the calling thread reports progress and asks the budget about every
     * 20 ms, and wakes when a worker ends */
    pthread_mutex_lock(&P.mu);
    while (P.running > 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000 * 1000;
        if (ts.tv_nsec >= 1000 * 1000 * 1000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000 * 1000 * 1000;
        }
        if (pthread_cond_timedwait(&P.done_cv, &P.mu, &ts) == ETIMEDOUT && P.running > 0) {
            pthread_mutex_unlock(&P.mu);
            if (!atomic_load(&P.stop) && caller_tick(acc, &P)) atomic_store(&P.stop, 1);
            pthread_mutex_lock(&P.mu);
        }
    }
    pthread_mutex_unlock(&P.mu);
    for (int i = 0; i < nth; i++) pthread_join(tid[i], NULL);
    pthread_cond_destroy(&P.done_cv);
    pthread_mutex_destroy(&P.mu);
    dvc_rnd_restore(saved);
    st = combine(&P, acc);
    for (int i = 0; i < P.nch; i++) free(P.ch[i].msg);
    free(P.ch);
    return st;
}
