/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* beta_M and alpha_M: structural closed forms / bounds, exact vertex
 * enumeration and branch-and-bound (docs/beta.md). Bounds are carried as
 * binary64 numbers rounded in the safe direction (lo down, hi up). */
#include "dvicert/beta.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "beta_drv.h"
#include "beta_kern.h"
#include "rounding.h"
#include "dvicert/mclass.h"


void dvc_beta_opts_default(dvc_beta_opts *o)
{
    o->method = DVC_BETA_AUTO;
    o->enum_max_m = 20;
    o->rel_gap = 1e-6;
    o->max_nodes = 1000000;
    o->max_seconds = 60;
    o->progress = NULL;
    o->progress_data = NULL;
    o->threads = 0;
}

dvc_status dvc_beta_opts_check(const dvc_beta_opts *o)
{
    if (o->method < DVC_BETA_AUTO || o->method > DVC_BETA_STRUCT)
        return dvc_error(DVC_ERR_INPUT, "beta: unknown method %d", (int)o->method);
    if (!(o->max_seconds > 0) || !isfinite(o->max_seconds))
        return dvc_error(DVC_ERR_INPUT,
                         "beta: the time budget max_seconds (--max-seconds) must be a finite "
                         "number of seconds > 0, got %g (a search without a budget may never stop)",
                         o->max_seconds);
    if (o->max_nodes < 0)
        return dvc_error(DVC_ERR_INPUT, "beta: the node budget max_nodes (--max-nodes) must be >= 0, got %ld",
                         o->max_nodes);
    if (!(o->rel_gap >= 0) || !isfinite(o->rel_gap))
        return dvc_error(DVC_ERR_INPUT, "beta: the gap rel_gap (--gap) must be a finite number >= 0, got %g",
                         o->rel_gap);
    if (o->enum_max_m < 0 || o->enum_max_m > 30)
        return dvc_error(DVC_ERR_INPUT, "beta: enum_max_m (--enum-max-m) must lie in [0, 30], got %ld",
                         o->enum_max_m);
    if (o->threads < 0 || o->threads > DVC_BETA_THREADS_MAX)
        return dvc_error(DVC_ERR_INPUT, "beta: threads (--threads) must lie in [0, %d] (0: one per processor), got %d",
                         DVC_BETA_THREADS_MAX, o->threads);
    return DVC_OK;
}

void dvc_beta_bound_init(dvc_beta_bound_t b)
{
    mpfr_init2(b->lo, 53);
    mpfr_init2(b->hi, 53);
    mpfr_set_zero(b->lo, 1);
    mpfr_set_inf(b->hi, 1);
    b->method = "none";
    b->hypothesis = "";
    b->nodes = 0;
    b->seconds = 0;
    b->stopped = 0;
}

void dvc_beta_bound_clear(dvc_beta_bound_t b)
{
    mpfr_clear(b->lo);
    mpfr_clear(b->hi);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Time budget and progress reports of one phase. */
typedef struct {
    const dvc_beta_opts *o;
    double t0, last;    /* start of dvc_beta_compute, last report */
    const char *phase;
    double total;       /* work units of the phase (0: unknown) */
    double hi;          /* upper bound known from elsewhere (progress only) */
} budget_t;

static void report(budget_t *b, double done, double lo, double hi, int final)
{
    double now;
    dvc_beta_progress p;
    if (!b->o->progress) return;
    now = now_s();
    if (!final && now - b->last < 0.25) return;
    b->last = now;
    p.phase = b->phase;
    p.done = done;
    p.total = b->total;
    p.lo = lo;
    p.hi = hi < b->hi ? hi : b->hi;
    p.seconds = now - b->t0;
    p.final = final;
    b->o->progress(&p, b->o->progress_data);
}

static int over_budget(const budget_t *b) { return now_s() - b->t0 > b->o->max_seconds; }

/* Enumeration hook (beta_kern.h): progress, and stop at the time budget. */
static int enum_tick(void *ctx, const dvc_bk_acc *acc)
{
    budget_t *b = ctx;
    report(b, (double)acc->count, acc->beta_lo, INFINITY, 0);
    return over_budget(b);
}

/* ---- branch-and-bound --------------------------------------------------------- */

typedef struct {
    uint64_t in, out;
    double ub;
    double rub; /* a proven upper bound (ub itself when rig); children inherit this one */
    int relax; /* the interval relaxation gave a finite bound here (children try it too) */
    int rig;   /* ub is rigorous; else a floating-point estimate used for ordering only */
} node_t;

#define BNB_LEAF 8 /* nodes with at most this many free coordinates are enumerated */
#define BNB_LEAF_PD 4 /* ... when a positive definite bound is in use (it prunes such nodes) */
/* At a budget stop, at most this many estimated open nodes are bounded rigorously. */
#define SYM_FINAL 200000
/* The PD bound of a nonsymmetric M is dropped when, after PD_PROBE uses, it
 * closed fewer than 1 in PD_MIN_RATE of its nodes (it then only costs time). */
#define PD_PROBE 2000
#define PD_MIN_RATE 50

/* Max-heap of open nodes keyed by their upper bound (best-first search: the
 * global upper bound is the top's bound, so it only decreases). */
typedef struct {
    node_t *a;
    long n, cap;
} heap_t;

static void heap_push(heap_t *h, node_t x)
{
    long i;
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 256;
        h->a = realloc(h->a, sizeof(node_t) * (size_t)h->cap);
        if (!h->a) abort();
    }
    i = h->n++;
    while (i > 0 && !(h->a[(i - 1) / 2].ub >= x.ub)) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = x;
}

static node_t heap_pop(heap_t *h)
{
    node_t top = h->a[0], x = h->a[--h->n];
    long i = 0;
    for (;;) {
        long c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && !(h->a[c].ub >= h->a[c + 1].ub)) c++;
        if (x.ub >= h->a[c].ub) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n > 0) h->a[i] = x;
    return top;
}

typedef struct {
    const dvc_bk_mat *K;
    const dvc_bk_mat *H; /* [sym(M)] when proven positive definite, else NULL */
    int sym;             /* M a point matrix, symmetric and positive definite */
    long pd_calls, pd_closes;
    int which, m;
    uint64_t full;
    double lo, closed, gapf;
    long *nodes;
    dvc_bk_sym *S; /* symmetric search: children from the parent's predictors */
    long nonrig;   /* open nodes keyed by a floating-point estimate */
} bnb_t;

/* Rigorous bound of an open node keyed by an estimate (symmetric search). */
static double sym_rigorous(bnb_t *B, const node_t *nd)
{
    double loc, r = dvc_bk_sym_node_bound(B->K, nd->in, nd->out, &loc);
    (*B->nodes)++;
    if (loc > B->lo) B->lo = loc;
    return r < nd->rub ? r : nd->rub;
}

/* Prove the bound of child c of the last split (and the lower bound at its
 * completion); returns 1 when that closes it. */
static int sym_prove(bnb_t *B, node_t *ch, int c)
{
    double loc, r = dvc_bk_sym_verify(B->S, c, &loc);
    (*B->nodes)++;
    if (loc > B->lo) B->lo = loc;
    if (r < ch->rub) ch->rub = r;
    ch->ub = ch->rub;
    ch->rig = 1;
    if (ch->ub <= B->lo * B->gapf) {
        if (ch->ub > B->closed) B->closed = ch->ub;
        return 1;
    }
    return 0;
}

/* Symmetric search: bound both children of nd split on p from the parent's
 * predictors (reuse: nd is the dive child of the previous split, whose
 * predictors are at hand). A child is keyed by the floating-point estimate
 * of its Loewner bound; the rigorous bound is computed only where it matters
 * for the result: when the estimate would close the child, and when the
 * estimate of its completion would raise the lower bound, and when the
 * child is pushed to the heap (docs/beta.md section 6). The open child with
 * the larger key is not pushed but returned in *dive (depth-first dive: its
 * predictors are reused, its bound stays an estimate). Returns 0 when the
 * predictors failed (the caller bounds the children the rigorous way),
 * 1 without and 2 with a dive child. */
static int sym_children(bnb_t *B, heap_t *h, const node_t *nd, int p, int reuse, node_t *dive)
{
    double fb[2], fc0;
    node_t ch[2];
    int open[2] = {0, 0}, d = -1;
    uint64_t bit = (uint64_t)1 << p;
    if (!dvc_bk_sym_split(B->S, nd->in, nd->out, p, reuse, fb, &fc0)) return 0;
    for (int c = 1; c >= 0; c--) {
        int verify = fb[c] <= B->lo * B->gapf || (c == 0 && fc0 > B->lo);
        ch[c] = (node_t){c ? nd->in | bit : nd->in, c ? nd->out : nd->out | bit, fb[c], nd->rub, 0, 0};
        (*B->nodes)++;
        if (verify && sym_prove(B, &ch[c], c)) continue;
        open[c] = 1;
    }
    if (open[0] && open[1]) d = ch[1].ub >= ch[0].ub ? 1 : 0;
    else if (open[0] || open[1]) d = open[1] ? 1 : 0;
    for (int c = 1; c >= 0; c--)
        if (open[c] && c != d) {
            /* the heap keeps proven bounds: they are the reported hi at a stop */
            if (!ch[c].rig && sym_prove(B, &ch[c], c)) continue;
            if (!ch[c].rig) B->nonrig++;
            heap_push(h, ch[c]);
        }
    if (d < 0) return 1;
    *dive = ch[d];
    dvc_bk_sym_descend(B->S, d);
    return 2;
}

/* Bound a node (and evaluate its completion J = in + free as a lower
 * bound); push it when it cannot be closed. out_grew: the node is the root
 * or a d_i = 0 child. Positive definite bounds (docs/beta.md section 6):
 * for a symmetric M the Loewner bound of dvc_bk_sym_node_bound, which also
 * gives the completion; otherwise the PD bound of dvc_bk_pd_node_bound, which
 * depends on in + free only, like the completion, so a d_i = 1 child keeps
 * its parent's (inherited through parent_ub). With either, the interval
 * relaxation is tried only where the parent's was finite: on P-matrices
 * that are not H-matrices it is +inf once a few coordinates are free. */
static dvc_status bnb_visit(bnb_t *B, heap_t *h, uint64_t in, uint64_t out, double parent_ub,
                            int out_grew, int parent_relax)
{
    uint64_t fr = B->full & ~(in | out);
    double ubb, uba, ub = INFINITY, pd = INFINITY;
    int relax = 0, completion = !B->H || out_grew;
    dvc_bk_acc acc;
    dvc_status st;
    if (!(B->H || B->sym) || parent_relax) {
        dvc_bk_node_bound(B->K, in, out, B->which, &ubb, &uba);
        ub = B->which ? uba : ubb;
        relax = ub < INFINITY;
    }
    if (ub > parent_ub) ub = parent_ub; /* the parent's bound also holds */
    if (B->sym) {
        double loc;
        pd = dvc_bk_sym_node_bound(B->K, in, out, &loc);
        if (isfinite(pd)) {
            completion = 0;
            (*B->nodes)++;
            if (loc > B->lo) B->lo = loc;
        } else {
            completion = 1;
        }
    } else if (B->H && out_grew) {
        pd = dvc_bk_pd_node_bound(B->H, B->full & ~out);
        B->pd_calls++;
    }
    if (pd < ub) ub = pd;
    (*B->nodes)++;
    if (completion) {
        dvc_bk_acc_init(&acc);
        st = dvc_bk_enum(B->K, in | fr, NULL, 0, B->which, &acc);
        (*B->nodes)++;
        if (st != DVC_OK) return st;
        if ((B->which ? acc.alpha_lo : acc.beta_lo) > B->lo) B->lo = B->which ? acc.alpha_lo : acc.beta_lo;
    }
    if (ub <= B->lo * B->gapf) {
        if (ub > B->closed) B->closed = ub;
        if (!B->sym && B->H && out_grew && ub == pd) B->pd_closes++;
        return DVC_OK;
    }
    heap_push(h, (node_t){in, out, ub, ub, relax, 1});
    return DVC_OK;
}

/* which: 0 beta, 1 alpha. Updates b; *nodes counts bounded nodes, their
 * completions and enumerated vertices. */
static dvc_status bnb(const dvc_bk_mat *K, const dvc_bk_mat *H, int sym, int which,
                      const dvc_beta_opts *o, budget_t *bud, bnd *b, long *nodes, int *complete)
{
    int m = K->m;
    heap_t h = {NULL, 0, 0};
    bnb_t B;
    int freeidx[64], order[64];
    double key[64];
    dvc_status st;
    B.K = K;
    B.H = which ? NULL : H;
    B.sym = !which && sym;
    B.pd_calls = B.pd_closes = 0;
    B.which = which;
    B.m = m;
    B.full = (m == 64) ? ~(uint64_t)0 : (((uint64_t)1 << m) - 1);
    B.lo = b->lo;
    B.closed = which ? 1.0 : 0.0;
    B.gapf = 1.0 + (o->rel_gap > 0 ? o->rel_gap : 0);
    B.nodes = nodes;
    B.S = B.sym ? dvc_bk_sym_new(K) : NULL;
    B.nonrig = 0;
    *complete = 0;
    /* Branching order: smallest m_ii first (largest 1/m_ii, the J = {i}
     * value), so that the d_i = 0 children, whose bound drops most, come
     * early. Insertion sort: m <= 64. With a PD bound the key is instead
     * -(H^{-1})_ii (a predictor): the d_i = 0 children of the indices with
     * the largest (H^{-1})_ii lower those bounds most. */
    if (B.H || B.sym) dvc_bk_inv_diag(B.H ? B.H : K, key);
    else
        for (int i = 0; i < m; i++) key[i] = K->Mc[(size_t)i * K->ld + i];
    for (int i = 0; i < m; i++) {
        int j = i;
        double di = key[i];
        while (j > 0 && key[order[j - 1]] > di) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    st = bnb_visit(&B, &h, 0, 0, INFINITY, 1, 1);
    while (st == DVC_OK && h.n > 0) {
        node_t nd;
        uint64_t fr;
        int nf = 0, reuse;
        /* every open node is within the gap (and its bound rigorous) */
        if (h.a[0].ub <= B.lo * B.gapf && B.nonrig == 0) break;
        if (*nodes >= o->max_nodes || over_budget(bud)) break;
        if (B.nonrig == 0) report(bud, (double)*nodes, B.lo, h.a[0].ub > B.closed ? h.a[0].ub : B.closed, 0);
        nd = heap_pop(&h);
        reuse = 0;
        if (!nd.rig) B.nonrig--;
        if (nd.ub <= B.lo * B.gapf) { /* closes, once its bound is proven */
            if (!nd.rig) {
                nd.ub = nd.rub = sym_rigorous(&B, &nd);
                nd.rig = 1;
            }
            if (nd.ub <= B.lo * B.gapf) {
                if (nd.ub > B.closed) B.closed = nd.ub;
                continue;
            }
        }
    dive:
        fr = B.full & ~(nd.in | nd.out);
        nf = 0;
        for (int r = 0; r < m; r++)
            if (fr >> order[r] & 1) freeidx[nf++] = order[r];
        if (B.H && !B.sym && B.pd_calls >= PD_PROBE && B.pd_closes * PD_MIN_RATE < B.pd_calls)
            B.H = NULL; /* the PD bound does not prune here */
        if (nf <= (B.H || B.sym ? BNB_LEAF_PD : BNB_LEAF)) { /* exact: enumerate the vertices of the node */
            dvc_bk_acc acc;
            dvc_bk_acc_init(&acc);
            st = dvc_bk_enum(K, nd.in, freeidx, nf, which, &acc);
            *nodes += acc.count;
            if (st != DVC_OK) break;
            if ((which ? acc.alpha_lo : acc.beta_lo) > B.lo) B.lo = which ? acc.alpha_lo : acc.beta_lo;
            if ((which ? acc.alpha_hi : acc.beta_hi) > B.closed)
                B.closed = which ? acc.alpha_hi : acc.beta_hi;
            continue;
        }
        /* Branch on the first free coordinate in that order. */
        if (B.S) {
            int r = sym_children(&B, &h, &nd, freeidx[0], reuse, &nd);
            if (r == 2) {
                if (*nodes >= o->max_nodes || over_budget(bud)) {
                    if (!nd.rig) B.nonrig++;
                    heap_push(&h, nd);
                    break;
                }
                reuse = 1;
                goto dive;
            }
            if (r == 1) continue;
        }
        st = bnb_visit(&B, &h, nd.in | ((uint64_t)1 << freeidx[0]), nd.out, nd.rub, 0, nd.relax);
        if (st == DVC_OK)
            st = bnb_visit(&B, &h, nd.in, nd.out | ((uint64_t)1 << freeidx[0]), nd.rub, 1, nd.relax);
    }
    if (st == DVC_OK) {
        double hi = B.closed, top = 0;
        /* Stopped with open nodes keyed by estimates: prove their bounds now
         * (at most SYM_FINAL of them; the others keep an inherited bound). */
        for (long i = 0, done = 0; i < h.n; i++) {
            node_t *x = &h.a[i];
            if (!x->rig && done < SYM_FINAL) {
                x->rub = sym_rigorous(&B, x);
                done++;
            }
            if (!(x->rub <= top)) top = x->rub;
        }
        if (!(top <= hi)) hi = top;
        *complete = (h.n == 0) || (top <= B.lo * B.gapf);
        bnd_lo(b, B.lo);
        bnd_hi(b, hi, "branch-and-bound");
        report(bud, (double)*nodes, B.lo, hi, 1);
    }
    free(h.a);
    dvc_bk_sym_free(B.S);
    return st;
}

/* Past the sizes enumerated by default (m > 20), beta_M alone: the inner
 * TREE_R indices by bordering from verified vertices (docs/beta.md section 5, bordering);
 * the sizes below keep the residual route vertex by vertex (their figures
 * unchanged). */
#define TREE_M 20
#define TREE_R 12
/* work of the local search for a lower bound (sum of |J|^3 over the
 * vertices it evaluates in floating point): about 0.1-0.2 s */
#define LOCAL_WORK 2e8

/* Doubled with each index past 27 up to m = 30 (1.6e9, about 1 s there,
 * against minutes for the searches it serves): at m = 30 the nonsymmetric
 * family of bench_beta gets 23.98 instead of 23.30, and every pruning test
 * compares with it. Up to m = 27 the search already finds the maximiser
 * (m = 22 to 27) and is unchanged. */
static double local_work(long m)
{
    return m <= 27 ? LOCAL_WORK : ldexp(LOCAL_WORK, m >= 30 ? 3 : (int)m - 27);
}

/* threads >= 1: the bordering route cut into chunks on that many threads
 * (its result does not depend on the number); 0: in one piece on this
 * thread (the timing run of enum_estimate) */
static dvc_status enum_vertices(const dvc_bk_mat *K, uint64_t base, const int *freeidx, int nfree, int m,
                                int want_alpha, int threads, dvc_bk_acc *acc)
{
    if (!want_alpha && m > TREE_M) {
        if (threads >= 1) return dvc_bk_enum_tree_par(K, base, freeidx, nfree, TREE_R, threads, acc);
        return dvc_bk_enum_tree(K, base, freeidx, nfree, TREE_R, acc);
    }
    return dvc_bk_enum(K, base, freeidx, nfree, want_alpha, acc);
}

static long online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n;
}

/* The threads of the whole enumeration (DVC_BK_CHUNKS chunks of work). */
static int enum_threads(const dvc_beta_opts *o)
{
    long n = o->threads == 0 ? online_cpus() : o->threads;
    if (n > DVC_BETA_THREADS_MAX) n = DVC_BETA_THREADS_MAX;
    if (n > DVC_BK_CHUNKS) n = DVC_BK_CHUNKS;
    return (int)n;
}


/* Seconds the enumeration of all 2^m vertices would take here on one
 * thread, from a timed run of some of them (milliseconds). The vertices
 * visited are real ones: their lower bounds are kept.
 * Residual route (m <= 20, alpha): one block of 2^12 whose sets J have the
 * average size m/2 of the whole enumeration (a vertex costs O(|J|^2)).
 * Bordering route: eight blocks of 2^13, each with the enumeration's own six
 * inner indices (the ones its subtree tests work on, in its order) and seven
 * outer ones free, the other outer indices in or out at random (fixed
 * seed), started from the lower bound the enumeration starts from, so that
 * they skip what it will skip: one block of 2^12 consecutive indices, or a
 * start from 0, misjudged the nonsymmetric PD family of bench_beta by 1.5
 * to 5x (docs/beta.md section 7). */
static double enum_estimate(const dvc_bk_mat *K, int m, int want_alpha, bnd *bb, bnd *ba)
{
    int tree = !want_alpha && m > TREE_M, nblk = tree ? 4 : 1, k = m < 12 ? m : tree ? TREE_R + 4 : 12, freeidx[64];
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    dvc_bk_acc acc;
    double t = 0;
    dvc_bk_acc_init(&acc);
    if (tree) acc.beta_lo = acc.beta_hi = bb->lo;
    for (int blk = 0; blk < nblk; blk++) {
        uint64_t base = 0;
        if (!tree) {
            int nb = m / 2 - k / 2 > 0 ? m / 2 - k / 2 : 0;
            for (int i = 0; i < nb; i++) base |= (uint64_t)1 << i;
            for (int j = 0; j < k; j++) freeidx[j] = nb + j;
        } else {
            /* outer indices 0..m-TREE_R-1, inner m-TREE_R..m-1 as in the
             * enumeration; k - TREE_R distinct outer ones free */
            int no = m - TREE_R, nf = 0;
            uint64_t used = 0;
            while (nf < k - TREE_R) {
                int i;
                rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
                i = (int)((rng >> 33) % (uint64_t)no);
                if (!(used >> i & 1)) {
                    used |= (uint64_t)1 << i;
                    freeidx[nf++] = i;
                }
            }
            for (int i = 0; i < TREE_R; i++) freeidx[nf + i] = no + i;
            for (int i = 0; i < no; i++) {
                rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
                if (!(used >> i & 1) && (rng >> 40 & 1)) base |= (uint64_t)1 << i;
            }
        }
        {
            /* each block three times, the fastest kept: the first run also
             * pays for cold caches and page faults, any run for a preemption */
            double tb = INFINITY;
            for (int rep = 0; rep < (tree ? 3 : 1); rep++) {
                double t0 = now_s(), dt;
                if (enum_vertices(K, base, freeidx, k, m, want_alpha, 0, &acc) != DVC_OK) return INFINITY;
                dt = now_s() - t0;
                if (dt < tb) tb = dt;
            }
            t += tb;
        }
    }
    bnd_lo(bb, acc.beta_lo);
    if (want_alpha) bnd_lo(ba, acc.alpha_lo);
    return t * ldexp(1.0, m - k) / nblk;
}

/* ---- driver ------------------------------------------------------------------------ */

static void put(dvc_beta_bound_t r, const bnd *b, long nodes, double secs, const char *how,
                int stopped)
{
    r->stopped = stopped;
    r->hypothesis = how ? how : "P-matrix";
    mpfr_set_d(r->lo, b->lo, MPFR_RNDD);
    mpfr_set_d(r->hi, b->hi, MPFR_RNDU);
    r->method = b->hi_by;
    r->nodes = nodes;
    r->seconds = secs;
}

/* One dvc_beta_compute: the options, the budget, the running bounds of
 * beta_M and alpha_M and why a search stopped short. */
typedef struct {
    dvc_beta_opts o;
    budget_t bud;
    double t0;
    long m;
    int want_alpha, beta_exact;
    bnd bb, ba;
    long nodes_b, nodes_a;
    int stop_b, stop_a;
    char why[200];
} run_t;

static dvc_status check_input(const dvc_imat_t M, const dvc_beta_opts *o)
{
    long m = M->r;
    if (M->r != M->c || m < 1) return dvc_error(DVC_ERR_INPUT, "beta: M must be square and nonempty, got %ldx%ld", M->r, M->c);
    if (m > DVC_BETA_M_MAX)
        return dvc_error(DVC_ERR_INPUT,
                         "beta: m = %ld is above the supported size %d (the dense interval steps "
                         "take about 30 s at m = 1000 and grow like m^3)",
                         m, DVC_BETA_M_MAX);
    if (!dvc_imat_is_finite(M)) return dvc_error(DVC_ERR_INPUT, "beta: M has a non-finite entry");
    if (o->method == DVC_BETA_ENUM && m > 30)
        return dvc_error(DVC_ERR_INPUT, "beta: enumeration is limited to m <= 30 (m = %ld)", m);
    if (o->method == DVC_BETA_BNB && m > 64)
        return dvc_error(DVC_ERR_INPUT, "beta: branch-and-bound is limited to m <= 64 (m = %ld)", m);
    return DVC_OK;
}

/* M proven positive definite: Hk = [sym(M)] = [(M + M^T)/2], every point
 * matrix of which is positive definite (*pd = 0 when it has no binary64
 * form); *sym when M is a point matrix, exactly symmetric, so that M =
 * sym(M) and the Loewner bound applies. */
static void sym_part(const dvc_imat_t M, const dvc_bk_mat *K, dvc_bk_mat *Hk, int *pd, int *sym)
{
    long m = M->r;
    dvc_imat_t Hs;
    dvc_imat_init2(Hs, m, m, mpfi_get_prec(M->e[0]));
    for (long i = 0; i < m; i++)
        for (long j = 0; j < m; j++) {
            mpfi_add(dvc_imat_entry(Hs, i, j), dvc_imat_entry(M, i, j), dvc_imat_entry(M, j, i));
            mpfi_div_2ui(dvc_imat_entry(Hs, i, j), dvc_imat_entry(Hs, i, j), 1);
        }
    *pd = dvc_bk_mat_init(Hk, Hs) == DVC_OK;
    if (*pd) Hk->M = NULL; /* Hs is freed here; the PD bound needs no MPFI fallback */
    dvc_error_reset();
    dvc_imat_clear(Hs);
    *sym = *pd && K->point;
    for (long i = 0; i < m && *sym; i++)
        for (long j = 0; j < i; j++)
            if (K->Mc[(size_t)i * K->ld + j] != K->Mc[(size_t)j * K->ld + i]) {
                *sym = 0;
                break;
            }
}

static void bnb_why(run_t *R)
{
    snprintf(R->why, sizeof R->why,
             "branch-and-bound budget exhausted (%g s, %ld nodes) before the gap "
             "closed: raise --max-nodes / --max-seconds, or use --method enum (2^m "
             "vertices, m <= 30)",
             R->o.max_seconds, R->o.max_nodes);
}

/* How many times faster than one thread the whole enumeration may run:
 * its threads, at most one per processor (the bordering route only). */
static double enum_speedup(const run_t *R)
{
    long n = enum_threads(&R->o);
    if (R->want_alpha || R->m <= TREE_M) return 1;
    return (double)(n < online_cpus() ? n : online_cpus());
}

/* AUTO beyond enum_max_m, m <= 30: *enumerate when the enumeration fits in
 * the time budget with a margin, rather than settle for a branch-and-bound
 * gap. Symmetric PD (sym) and beta_M alone: the Loewner node bound usually
 * closes the gap in a fraction of the enumeration time (docs/beta.md
 * section 8), so it is tried first. When the enumeration fits, the trial
 * gets 2^m / 4 nodes (a node costs about two vertices: at most about half
 * the enumeration; a node budget, unlike a clock, makes the choice
 * reproducible), then the enumeration runs if the gap is still open.
 * *bnb_done when the trial settled beta_M (or failed: the status). */
static dvc_status auto_choice(run_t *R, const dvc_bk_mat *K, const dvc_bk_mat *Hk, int pd, int sym,
                              int *enumerate, int *bnb_done)
{
    /* wall-clock seconds of the enumeration on its threads. The margin for
     * the estimate's error (it moves by +-20 % between runs here): none
     * where a stopped enumeration still leaves the positive definite bound
     * over all vertices (kernel_bounds), which is where a stopped
     * branch-and-bound starts from */
    double est = enum_estimate(K, (int)R->m, R->want_alpha, &R->bb, &R->ba) / enum_speedup(R);
    double margin = pd && !R->want_alpha && R->m > TREE_M ? 1.0 : 1.3;
    dvc_status st = DVC_OK;
    *enumerate = margin * est + (now_s() - R->t0) <= R->o.max_seconds;
    if (sym && !R->want_alpha) {
        dvc_beta_opts ot = R->o;
        budget_t bt = R->bud;
        int complete = 0;
        long quarter = R->m >= 2 ? 1L << (R->m - 2) : 1;
        if (*enumerate && quarter < ot.max_nodes) ot.max_nodes = quarter;
        bt.o = &ot;
        bt.phase = "branch-and-bound beta_M";
        bt.total = 0;
        bt.hi = R->bb.hi;
        st = bnb(K, Hk, sym, 0, &ot, &bt, &R->bb, &R->nodes_b, &complete);
        if (st != DVC_OK || complete) {
            *enumerate = 0;
            *bnb_done = 1;
        } else if (!*enumerate || margin * est + (now_s() - R->t0) > R->o.max_seconds) {
            *enumerate = 0;
            *bnb_done = 1;
            R->stop_b = 1;
            bnb_why(R);
        }
    }
    return st;
}

/* Every vertex, in Gray-code order. */
static dvc_status run_enum(run_t *R, const dvc_bk_mat *K)
{
    dvc_bk_acc acc;
    int idx[64];
    dvc_status st;
    for (int i = 0; i < R->m; i++) idx[i] = i;
    dvc_bk_acc_init(&acc);
    /* The bordering route skips vertices and subtrees proven below the lower
     * bound reached so far: start it at the lower bound already proven
     * (hi >= lo then holds from the start; the enumeration's hi is still
     * the maximum of vertex bounds, as max_J hi_J >= beta_M >= lo). */
    if (!R->want_alpha && R->m > TREE_M) acc.beta_lo = acc.beta_hi = R->bb.lo;
    R->bud.phase = "vertex enumeration";
    R->bud.total = ldexp(1.0, (int)R->m);
    R->bud.hi = R->bb.hi;
    acc.tick = enum_tick;
    acc.tick_ctx = &R->bud;
    st = enum_vertices(K, 0, idx, (int)R->m, (int)R->m, R->want_alpha, enum_threads(&R->o), &acc);
    if (st != DVC_OK) return st;
    /* Stopped by the budget: the visited vertices still give lower bounds,
     * but no upper bound. */
    bnd_lo(&R->bb, acc.beta_lo);
    bnd_lo(&R->ba, acc.alpha_lo);
    if (!acc.stopped) {
        bnd_hi(&R->bb, acc.beta_hi, "vertex enumeration");
        bnd_hi(&R->ba, acc.alpha_hi, "vertex enumeration");
    } else {
        R->stop_b = !R->beta_exact;
        R->stop_a = 1;
        snprintf(R->why, sizeof R->why,
                 "vertex enumeration stopped by the time budget (%g s) after %ld of "
                 "%.0f vertices: raise --max-seconds",
                 R->o.max_seconds, acc.count, R->bud.total);
    }
    R->nodes_b += acc.count; /* after a branch-and-bound trial: both */
    R->nodes_a = acc.count;
    report(&R->bud, (double)acc.count, acc.beta_lo, acc.stopped ? INFINITY : acc.beta_hi, 1);
    return DVC_OK;
}

/* Branch-and-bound of beta_M (H: the PD bound's [sym(M)], or NULL) and of
 * alpha_M. */
static dvc_status run_bnb(run_t *R, const dvc_bk_mat *K, const dvc_bk_mat *H, int sym)
{
    int complete = 1;
    dvc_status st = DVC_OK;
    R->bud.total = 0;
    if (!R->beta_exact) {
        R->bud.phase = "branch-and-bound beta_M";
        R->bud.hi = R->bb.hi;
        st = bnb(K, H, sym, 0, &R->o, &R->bud, &R->bb, &R->nodes_b, &complete);
        R->stop_b = !complete;
    }
    if (st == DVC_OK && R->want_alpha) {
        R->bud.phase = "branch-and-bound alpha_M";
        R->bud.hi = R->ba.hi;
        st = bnb(K, NULL, 0, 1, &R->o, &R->bud, &R->ba, &R->nodes_a, &complete);
        R->stop_a = !complete;
    }
    if (R->stop_b || R->stop_a) bnb_why(R);
    return st;
}

/* The binary64 kernels (m <= 64): vertex enumeration or branch-and-bound,
 * chosen by the method (docs/beta.md section 7). */
static dvc_status kernel_bounds(run_t *R, const dvc_imat_t M, unsigned classes)
{
    const dvc_beta_opts *o = &R->o;
    dvc_bk_mat K, Hk;
    int enumerate, pd = 0, sym = 0, bnb_done = 0;
    dvc_status st = dvc_bk_mat_init(&K, M);
    if (st != DVC_OK) return dvc_error_context(st, "beta: ");
    enumerate = o->method == DVC_BETA_ENUM || (o->method == DVC_BETA_AUTO && R->m <= o->enum_max_m);
    /* PD proven by dvc_mclass_classify: the branch-and-bound's node bounds,
     * and AUTO's fallback when its enumeration past m = 20 is stopped */
    if ((o->method == DVC_BETA_BNB || (o->method == DVC_BETA_AUTO && (!enumerate || R->m > TREE_M))) &&
        !R->beta_exact && (classes & (DVC_MCLASS_PD | DVC_MCLASS_SPD)))
        sym_part(M, &K, &Hk, &pd, &sym);
    if (R->m > TREE_M && !R->beta_exact) {
        /* a good lower bound first: it makes the pruning of both searches bite */
        dvc_bk_acc acc;
        dvc_bk_acc_init(&acc);
        if (dvc_bk_local_lower(&K, local_work(R->m), &acc) == DVC_OK) bnd_lo(&R->bb, acc.beta_lo);
        dvc_error_reset(); /* a vertex the kernel cannot bound: no lower bound, nothing else lost */
    }
    if (!enumerate && o->method == DVC_BETA_AUTO && R->m <= 30 && !(R->beta_exact && !R->want_alpha))
        st = auto_choice(R, &K, &Hk, pd, sym, &enumerate, &bnb_done);
    if (st != DVC_OK) {
        /* the branch-and-bound trial failed: reported below */
    } else if (enumerate) {
        if (!(R->beta_exact && !R->want_alpha)) st = run_enum(R, &K);
        if (st == DVC_OK && R->stop_b && pd && o->method == DVC_BETA_AUTO) {
            /* stopped by the budget: the positive definite bound over all
             * vertices (docs/beta.md section 6 (a)), the one a stopped
             * branch-and-bound would at least have had */
            uint64_t all = R->m >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << R->m) - 1;
            bnd_hi(&R->bb, dvc_bk_pd_node_bound(&Hk, all), "positive definite bound (enumeration stopped)");
        }
    } else if (!bnb_done && (o->method == DVC_BETA_BNB || o->method == DVC_BETA_AUTO)) {
        st = run_bnb(R, &K, pd ? &Hk : NULL, sym);
    }
    if (pd) dvc_bk_mat_clear(&Hk);
    dvc_bk_mat_clear(&K);
    if (st != DVC_OK) return dvc_error_context(st, "beta: ");
    return DVC_OK;
}

/* alpha >= beta; alpha <= 1 + beta ||M - I|| from
 * (I - D + DM)^{-1} = I - (I - D + DM)^{-1} D (M - I). */
static void alpha_from_beta(const dvc_imat_t M, const bnd *bb, bnd *ba)
{
    double nmi = dvc_beta_norm_m_minus_i_(M);
    mpfr_t t;
    bnd_lo(ba, bb->lo);
    /* In MPFR: no FPU rounding-mode switch the compiler could move. */
    mpfr_init2(t, 53);
    mpfr_set_d(t, bb->hi, MPFR_RNDU);
    mpfr_mul_d(t, t, nmi, MPFR_RNDU);
    mpfr_add_ui(t, t, 1, MPFR_RNDU);
    bnd_hi(ba, mpfr_get_d(t, MPFR_RNDU), "alpha_M <= 1 + beta_M ||M - I||");
    mpfr_clear(t);
}

/* DVC_NOT_CERTIFIED: no finite upper bound of beta_M (or alpha_M), with
 * the reason and the lower bound (rounded down, like the printed one). */
static dvc_status no_upper(const run_t *R)
{
    int b = !isfinite(R->bb.hi);
    mpfr_t lo;
    char *los;
    dvc_status st;
    mpfr_init2(lo, 53);
    mpfr_set_d(lo, b ? R->bb.lo : R->ba.lo, MPFR_RNDD);
    los = dvc_mpfr_str(lo, 17, MPFR_RNDD);
    mpfr_clear(lo);
    st = dvc_error(DVC_NOT_CERTIFIED,
                   "beta: no finite upper bound of %s was proven (%s); lower bound %s",
                   b ? "beta_M" : "alpha_M",
                   R->o.method == DVC_BETA_STRUCT
                       ? "method struct: M is not proven an M-, H- or SPD matrix"
                   : R->why[0] ? R->why
                               : "branch-and-bound budget exhausted: raise --max-nodes / "
                                 "--max-seconds, or use --method enum (2^m vertices, m <= 30)",
                   los ? los : "?");
    free(los);
    return st;
}

static dvc_status beta_compute(dvc_beta_bound_t beta, dvc_beta_bound_t alpha, const dvc_imat_t M,
                               const dvc_beta_opts *opts)
{
    run_t R = {.bb = {0, INFINITY, "none"}, .ba = {1, INFINITY, "none"}};
    const char *how = NULL;
    dvc_mclass_result cls;
    unsigned classes = 0;
    dvc_status st;

    R.t0 = now_s();
    R.m = M->r;
    R.want_alpha = alpha != NULL;
    if (opts) R.o = *opts;
    else dvc_beta_opts_default(&R.o);
    st = dvc_beta_opts_check(&R.o);
    if (st != DVC_OK) return st;
    R.bud.o = &R.o;
    R.bud.t0 = R.bud.last = R.t0;
    R.bud.hi = INFINITY;
    st = check_input(M, &R.o);
    if (st != DVC_OK) return st;

    st = dvc_mclass_prove_p(M, &how);
    if (st != DVC_OK)
        return dvc_error_context(st == DVC_ERR_INPUT ? st : DVC_NOT_CERTIFIED,
                                 "beta: M is not proven a P-matrix: ");
    /* When P needed the minor enumeration, the M / H / PD tests have already
     * failed: do not pay for classify (which would enumerate again). */
    if ((!how || !strstr(how, "enumeration")) && dvc_mclass_classify(&cls, M) == DVC_OK)
        classes = cls.proven;
    dvc_error_reset();

    dvc_beta_singleton_lower_(M, &R.bb, &R.ba);
    if (R.o.method == DVC_BETA_AUTO || R.o.method == DVC_BETA_STRUCT)
        dvc_beta_structural_(M, classes, &R.bb, &R.beta_exact);
    if (R.o.method != DVC_BETA_STRUCT && R.m <= 64) {
        st = kernel_bounds(&R, M, classes);
        if (st != DVC_OK) return st;
    }
    if (R.want_alpha) alpha_from_beta(M, &R.bb, &R.ba);
    {
        double secs = now_s() - R.t0;
        put(beta, &R.bb, R.nodes_b, secs, how, R.stop_b);
        if (R.want_alpha) put(alpha, &R.ba, R.nodes_a, secs, how, R.stop_a);
    }
    if (!isfinite(R.bb.hi) || (R.want_alpha && !isfinite(R.ba.hi))) return no_upper(&R);
    return DVC_OK;
}

dvc_status dvc_beta_compute(dvc_beta_bound_t beta, dvc_beta_bound_t alpha, const dvc_imat_t M,
                            const dvc_beta_opts *opts)
{
    /* The predictors (power iteration, floating inverses) run in
     * round-to-nearest whatever the caller's mode, so that the bounds do not
     * depend on it; the caller's mode is handed back on every exit. */
    int saved = dvc_rnd_save();
    dvc_status st;
    dvc_rnd_set(FE_TONEAREST);
    st = beta_compute(beta, alpha, M, opts);
    dvc_rnd_restore(saved);
    return st;
}
