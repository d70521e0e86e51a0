/*
 * Native hot path of the Spider solver: the same iterated beam search as
 * spider_vision/solver/search.py, move for move, written in C for speed.
 *
 * Cards are bytes: rank (1..13) in the low four bits, suit index in the next
 * two.  A position packs the ten columns bottom first into one 104-byte
 * array; the stock is shared by the whole search and only the number of
 * deals made is stored.  Python's search.py is the specification: any change
 * here must be made there too (tests compare the two on node-limited runs).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

#define NCOL 10
#define NCARDS 104
#define RUN 13
#define RANK_SLOTS 17 /* ranks 0..15 (15: an opaque hidden card) and one above */
#define RANK(c) ((c) & 15)
#define SUIT(c) ((c) >> 4)
#define DEAL_MOVE 0xFFFFu
#define MAX_DEPTH 1500
#define MAX_WIDTH 12800 /* wider beams need gigabytes; the search stops there */

/* Heuristic weights, in this order (search.py passes them): */
enum { W_DOWN, W_BREAK, W_SEMI, W_SUITED, W_EMPTY, W_REMOVED, NWEIGHTS };
#define MAX_SETS 8
#define NBUCKETS 6 /* a beam's groups: 0 to 5 stock deals left */
/* Swap two growable arrays of T with their capacities. */
#define SWAP_BUFFERS(T, a, cap_a, b, cap_b) \
    do {                                    \
        T *swap_ = (a);                     \
        size_t swap_cap_ = (cap_a);         \
        (a) = (b);                          \
        (cap_a) = (cap_b);                  \
        (b) = swap_;                        \
        (cap_b) = swap_cap_;                \
    } while (0)

typedef struct {
    uint8_t cards[NCARDS];
    uint8_t len[NCOL];
    uint8_t down[NCOL];
    uint8_t dealt;
    uint8_t removed;
} Pos;

typedef struct {
    uint64_t hash;
    int32_t score;
    int32_t parent;
    int32_t seq;
    uint16_t move;
    uint8_t bucket;
} Cand;

typedef struct {
    Pos pos;
    int32_t hist;
} Node;

typedef struct {
    int32_t parent;
    uint16_t move;
} Hist;

typedef struct {
    uint64_t *slots;
    size_t cap;
    size_t count;
} HashSet;

enum { R_WIN = 0, R_DONE = 1, R_STOP = 2, R_NOMEM = 3 };

typedef struct {
    uint8_t stock[50];
    int ndeals;
    double deadline; /* <= 0: none */
    long long node_limit; /* <= 0: none */
    long long nodes;
    HashSet seen, local;
    Hist *hist;
    size_t nhist, caphist;
    Node *layer, *next;
    size_t caplayer, capnext;
    Cand *cands, *spare;
    size_t ncands, capcands, capspare;
    uint16_t *path;
    int npath;
    int weights[MAX_SETS][NWEIGHTS];
    int nsets;
    const int *w; /* the set of the current run */
    int explore; /* explore(): keep the best position seen, not only a win */
    int32_t best_score, best_hist;
    uint16_t best_move;
} Ctx;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- hash set of 64-bit hashes (0 means empty) -------------------------- */

static int set_init(HashSet *s, size_t cap) {
    s->slots = (uint64_t *)calloc(cap, sizeof(uint64_t));
    s->cap = cap;
    s->count = 0;
    return s->slots != NULL;
}

static void set_clear(HashSet *s) {
    memset(s->slots, 0, s->cap * sizeof(uint64_t));
    s->count = 0;
}

static int set_has(const HashSet *s, uint64_t h) {
    size_t mask = s->cap - 1, i = (size_t)(h ^ (h >> 29)) & mask;
    while (s->slots[i]) {
        if (s->slots[i] == h) return 1;
        i = (i + 1) & mask;
    }
    return 0;
}

static int set_add(HashSet *s, uint64_t h);

static int set_grow(HashSet *s) {
    HashSet bigger;
    size_t i;
    if (!set_init(&bigger, s->cap * 2)) return 0;
    for (i = 0; i < s->cap; i++)
        if (s->slots[i]) set_add(&bigger, s->slots[i]);
    free(s->slots);
    *s = bigger;
    return 1;
}

/* Add h; return 1 if added, 0 if present, -1 if out of memory. */
static int set_add(HashSet *s, uint64_t h) {
    size_t mask, i;
    if ((s->count + 1) * 2 > s->cap && !set_grow(s)) return -1;
    mask = s->cap - 1;
    i = (size_t)(h ^ (h >> 29)) & mask;
    while (s->slots[i]) {
        if (s->slots[i] == h) return 0;
        i = (i + 1) & mask;
    }
    s->slots[i] = h;
    s->count++;
    return 1;
}

/* ---- positions ---------------------------------------------------------- */

static inline void offsets(const Pos *p, int *off) {
    int i, k = 0;
    for (i = 0; i < NCOL; i++) {
        off[i] = k;
        k += p->len[i];
    }
    off[NCOL] = k;
}

/* Remove a completed King-to-Ace run of one suit from the end of column i. */
static void settle_removal(Pos *q, int i) {
    int off[NCOL + 1], up = q->len[i] - q->down[i], end, j;
    const uint8_t *c;
    if (up < RUN) return;
    offsets(q, off);
    end = off[i] + q->len[i];
    c = q->cards + end - RUN;
    if (RANK(c[RUN - 1]) != 1) return;
    for (j = 0; j < RUN - 1; j++)
        if (SUIT(c[j]) != SUIT(c[j + 1]) || RANK(c[j]) != RANK(c[j + 1]) + 1) return;
    memmove(q->cards + end - RUN, q->cards + end, (size_t)(off[NCOL] - end));
    q->len[i] -= RUN;
    q->removed++;
}

static inline void settle_flip(Pos *q, int i) {
    if (q->down[i] > 0 && q->len[i] == q->down[i]) q->down[i]--;
}

static void apply_tableau(const Pos *p, Pos *q, int s, int t, int count) {
    int off[NCOL + 1], i, k = 0;
    offsets(p, off);
    for (i = 0; i < NCOL; i++) {
        int L = p->len[i];
        if (i == s) {
            memcpy(q->cards + k, p->cards + off[i], (size_t)(L - count));
            k += L - count;
            q->len[i] = (uint8_t)(L - count);
        } else if (i == t) {
            memcpy(q->cards + k, p->cards + off[i], (size_t)L);
            memcpy(q->cards + k + L, p->cards + off[s] + p->len[s] - count, (size_t)count);
            k += L + count;
            q->len[i] = (uint8_t)(L + count);
        } else {
            memcpy(q->cards + k, p->cards + off[i], (size_t)L);
            k += L;
            q->len[i] = (uint8_t)L;
        }
    }
    memcpy(q->down, p->down, NCOL);
    q->dealt = p->dealt;
    q->removed = p->removed;
    settle_removal(q, t);
    settle_flip(q, s);
    settle_flip(q, t);
}

static void apply_deal(const Ctx *ctx, const Pos *p, Pos *q) {
    int off[NCOL + 1], i, k = 0;
    const uint8_t *row = ctx->stock + 10 * p->dealt;
    offsets(p, off);
    for (i = 0; i < NCOL; i++) {
        int L = p->len[i];
        memcpy(q->cards + k, p->cards + off[i], (size_t)L);
        q->cards[k + L] = row[i];
        k += L + 1;
        q->len[i] = (uint8_t)(L + 1);
    }
    memcpy(q->down, p->down, NCOL);
    q->dealt = (uint8_t)(p->dealt + 1);
    q->removed = p->removed;
    for (i = 0; i < NCOL; i++) settle_removal(q, i);
    for (i = 0; i < NCOL; i++) settle_flip(q, i);
}

static void apply_move(const Ctx *ctx, const Pos *p, Pos *q, uint16_t move) {
    if (move == DEAL_MOVE)
        apply_deal(ctx, p, q);
    else
        apply_tableau(p, q, move & 15, (move >> 4) & 15, move >> 8);
}

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#define FNV_PRIME 1099511628211ULL

/*
 * One column's share of pos_hash: cards a then b, bottom first, in column i
 * with ``left`` deals to come.  A position's hash is a sum of these shares,
 * so a move's child is hashed from its parent's sum and its two new columns.
 */
static inline uint64_t col_hash(int i, int left, int down, const uint8_t *a, int na, const uint8_t *b, int nb) {
    uint64_t ch = 1469598103934665603ULL ^ (uint64_t)(down + 1);
    int j;
    ch *= FNV_PRIME;
    for (j = 0; j < na; j++) {
        ch ^= a[j];
        ch *= FNV_PRIME;
    }
    for (j = 0; j < nb; j++) {
        ch ^= b[j];
        ch *= FNV_PRIME;
    }
    ch ^= (uint64_t)(na + nb) << 56;
    if (left > 0) ch += 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
    return mix64(ch);
}

static inline uint64_t hash_seed(int left) { return mix64(0x5851F42D4C957F2DULL + (uint64_t)left); }

/* Columns are interchangeable once the stock is empty (a deal tells them apart). */
static uint64_t pos_hash(const Ctx *ctx, const Pos *p) {
    int off[NCOL + 1], i, left = ctx->ndeals - p->dealt;
    uint64_t h = hash_seed(left);
    offsets(p, off);
    for (i = 0; i < NCOL; i++) h += col_hash(i, left, p->down[i], p->cards + off[i], p->len[i], NULL, 0);
    return h ? h : 1;
}

/* One column's share of pos_score (the removed runs are scored apart). */
static inline int col_score(const int *w, const uint8_t *c, int L, int d) {
    int j, score;
    if (L == 0) return w[W_EMPTY];
    score = -w[W_DOWN] * d;
    for (j = d + 1; j < L; j++) {
        uint8_t a = c[j - 1], b = c[j];
        if (RANK(a) == RANK(b) + 1)
            score += SUIT(a) == SUIT(b) ? w[W_SUITED] : -w[W_SEMI];
        else
            score -= w[W_BREAK];
    }
    return score;
}

static int pos_score(const int *w, const Pos *p) {
    int off[NCOL + 1], i, score = w[W_REMOVED] * p->removed;
    offsets(p, off);
    for (i = 0; i < NCOL; i++) score += col_score(w, p->cards + off[i], p->len[i], p->down[i]);
    return score;
}

/* pos_hash's last steps for one column of n cards whose FNV state is ch. */
static inline uint64_t col_finish(uint64_t ch, int i, int left, int n) {
    ch ^= (uint64_t)n << 56;
    if (left > 0) ch += 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
    return mix64(ch);
}

static inline int pair_score(const int *w, uint8_t a, uint8_t b) {
    if (RANK(a) == RANK(b) + 1) return SUIT(a) == SUIT(b) ? w[W_SUITED] : -w[W_SEMI];
    return -w[W_BREAK];
}

/*
 * A parent's hash and score split by column, and each column's prefixes, to
 * value its children without building them.  Column i's prefix of j cards
 * sits at index off[i] + i + j of ``fnv`` (its FNV state) and ``pairs`` (the
 * score of its face-up pairs, as col_score counts them).
 */
typedef struct {
    int off[NCOL + 1];
    uint64_t col_hash[NCOL];
    int col_score[NCOL];
    uint64_t hash_sum; /* pos_hash before its zero is made one */
    int score_sum;     /* pos_score less the removed runs */
    uint64_t fnv[NCARDS + NCOL];
    int pairs[NCARDS + NCOL];
} Parts;

static void pos_parts(const Ctx *ctx, const Pos *p, Parts *parts) {
    int i, j, left = ctx->ndeals - p->dealt;
    offsets(p, parts->off);
    parts->hash_sum = hash_seed(left);
    parts->score_sum = 0;
    for (i = 0; i < NCOL; i++) {
        const uint8_t *c = p->cards + parts->off[i];
        int L = p->len[i], d = p->down[i], at = parts->off[i] + i;
        uint64_t ch = (1469598103934665603ULL ^ (uint64_t)(d + 1)) * FNV_PRIME;
        int pairs = 0;
        parts->fnv[at] = ch;
        parts->pairs[at] = 0;
        for (j = 1; j <= L; j++) {
            ch = (ch ^ c[j - 1]) * FNV_PRIME;
            if (j - 1 >= d + 1) pairs += pair_score(ctx->w, c[j - 2], c[j - 1]);
            parts->fnv[at + j] = ch;
            parts->pairs[at + j] = pairs;
        }
        parts->col_hash[i] = col_finish(ch, i, left, L);
        parts->col_score[i] = L == 0 ? ctx->w[W_EMPTY] : pairs - ctx->w[W_DOWN] * d;
        parts->hash_sum += parts->col_hash[i];
        parts->score_sum += parts->col_score[i];
    }
}

/*
 * The hash, score and removed runs of the child of tableau move (s, t, count),
 * exactly as apply_tableau, pos_hash and pos_score would give them, from the
 * parent's parts: the source keeps a prefix and the target grows by the moved
 * cards, unless a card turns over or a run is removed (then the changed
 * column is valued afresh).
 */
static void child_value(const Ctx *ctx, const Pos *p, const Parts *parts, int s, int t, int count,
                        uint64_t *hash, int *score, int *removed) {
    const int *w = ctx->w;
    const uint8_t *cs = p->cards + parts->off[s], *ct = p->cards + parts->off[t], *moved;
    int Ls = p->len[s], Lt = p->len[t], ns = Ls - count, nt = Lt + count, ds = p->down[s], dt = p->down[t];
    int left = ctx->ndeals - p->dealt, rem = p->removed, at_s = parts->off[s] + s, at_t = parts->off[t] + t;
    int score_s, score_t, j;
    uint64_t h_s, h_t, ch;
    moved = cs + ns;
    if (ds > 0 && ns == ds) {
        ds--;
        h_s = col_hash(s, left, ds, cs, ns, NULL, 0);
        score_s = col_score(w, cs, ns, ds);
    } else {
        h_s = col_finish(parts->fnv[at_s + ns], s, left, ns);
        score_s = ns == 0 ? w[W_EMPTY] : parts->pairs[at_s + ns] - w[W_DOWN] * ds;
    }
    if (RANK(moved[count - 1]) == 1 && nt - dt >= RUN) {
        uint8_t col[NCARDS];
        const uint8_t *c;
        memcpy(col, ct, (size_t)Lt);
        memcpy(col + Lt, moved, (size_t)count);
        c = col + nt - RUN;
        for (j = 0; j < RUN - 1; j++)
            if (SUIT(c[j]) != SUIT(c[j + 1]) || RANK(c[j]) != RANK(c[j + 1]) + 1) break;
        if (j == RUN - 1) {
            nt -= RUN;
            rem++;
            if (dt > 0 && nt == dt) dt--;
        }
        h_t = col_hash(t, left, dt, col, nt, NULL, 0);
        score_t = col_score(w, col, nt, dt);
    } else {
        ch = parts->fnv[at_t + Lt];
        for (j = 0; j < count; j++) ch = (ch ^ moved[j]) * FNV_PRIME;
        h_t = col_finish(ch, t, left, nt);
        score_t = parts->pairs[at_t + Lt] - w[W_DOWN] * dt + parts->pairs[at_s + Ls] - parts->pairs[at_s + ns + 1];
        if (Lt >= dt + 1) score_t += pair_score(w, ct[Lt - 1], moved[0]);
    }
    *hash = parts->hash_sum - parts->col_hash[s] - parts->col_hash[t] + h_s + h_t;
    if (!*hash) *hash = 1;
    *score = w[W_REMOVED] * rem + parts->score_sum - parts->col_score[s] - parts->col_score[t] + score_s + score_t;
    *removed = rem;
}

/* ---- move generation ---------------------------------------------------- */

/* Fill moves (in the fixed order of search.py) and return their number. */
static int gen_moves(const Ctx *ctx, const Pos *p, int prune, uint16_t *moves) {
    int off[NCOL + 1], n = 0, s, t, count, first_empty = -1, any_empty = 0;
    int run[NCOL];
    unsigned empty = 0, onto[RANK_SLOTS] = {0}, onto_suit[RANK_SLOTS][4] = {{0}};
    offsets(p, off);
    for (s = 0; s < NCOL; s++) {
        int L = p->len[s], up = L - p->down[s], r = 0;
        if (L == 0) {
            any_empty = 1;
            if (first_empty < 0) first_empty = s;
        } else {
            const uint8_t *c = p->cards + off[s];
            r = 1;
            while (r < up && SUIT(c[L - r - 1]) == SUIT(c[L - r]) &&
                   RANK(c[L - r - 1]) == RANK(c[L - r]) + 1)
                r++;
        }
        run[s] = r;
    }
    for (t = 0; t < NCOL; t++) {
        if (p->len[t] == 0) {
            empty |= 1u << t;
        } else {
            uint8_t top = p->cards[off[t] + p->len[t] - 1];
            onto[RANK(top)] |= 1u << t;
            onto_suit[RANK(top)][SUIT(top) & 3] |= 1u << t;
        }
    }
    for (s = 0; s < NCOL; s++) {
        int L = p->len[s];
        const uint8_t *c = p->cards + off[s];
        for (count = 1; count <= run[s]; count++) {
            uint8_t base = c[L - count];
            int split = count < run[s];
            unsigned targets = prune && split ? onto_suit[RANK(base) + 1][SUIT(base) & 3] : onto[RANK(base) + 1];
            if (!prune)
                targets |= empty;
            else if (first_empty >= 0 && count != L && !(split && !(count == 1 && p->dealt < ctx->ndeals)))
                targets |= 1u << first_empty;
            targets &= ~(1u << s);
            for (; targets; targets &= targets - 1) {
                t = __builtin_ctz(targets);
                moves[n++] = (uint16_t)(s | (t << 4) | (count << 8));
            }
        }
    }
    if (p->dealt < ctx->ndeals && !any_empty) moves[n++] = DEAL_MOVE;
    return n;
}

/* ---- beam search -------------------------------------------------------- */

static int cand_cmp(const void *x, const void *y) {
    const Cand *a = (const Cand *)x, *b = (const Cand *)y;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

static inline int cand_before(const Cand *a, const Cand *b) {
    return a->score != b->score ? a->score > b->score : a->seq < b->seq;
}

static inline void cand_swap(Cand *a, Cand *b) {
    Cand t = *a;
    *a = *b;
    *b = t;
}

/*
 * Put the k best of a[0..n) (by cand_cmp, a total order) first, in no order:
 * a quickselect with a median-of-three pivot, which falls back to sorting the
 * whole range should the pivots keep coming out badly.
 */
static void cand_select(Cand *a, size_t n, size_t k) {
    size_t lo = 0, hi = n, rounds = 0, bound = 16, m;
    for (m = n; m > 1; m >>= 1) bound += 2;
    while (hi - lo > 1 && k > lo && k < hi) {
        size_t mid = lo + (hi - lo) / 2, store = lo, i;
        if (++rounds > bound) {
            qsort(a + lo, hi - lo, sizeof(Cand), cand_cmp);
            return;
        }
        if (cand_before(&a[mid], &a[lo])) cand_swap(&a[mid], &a[lo]);
        if (cand_before(&a[hi - 1], &a[lo])) cand_swap(&a[hi - 1], &a[lo]);
        if (cand_before(&a[hi - 1], &a[mid])) cand_swap(&a[hi - 1], &a[mid]);
        cand_swap(&a[mid], &a[hi - 1]); /* the median is the pivot, at the end */
        for (i = lo; i < hi - 1; i++)
            if (cand_before(&a[i], &a[hi - 1])) cand_swap(&a[i], &a[store++]);
        cand_swap(&a[store], &a[hi - 1]);
        if (k <= store)
            hi = store;
        else
            lo = store + 1;
    }
}

static int hist_push(Ctx *ctx, int32_t parent, uint16_t move) {
    if (ctx->nhist == ctx->caphist) {
        size_t cap = ctx->caphist ? ctx->caphist * 2 : 4096;
        Hist *h = (Hist *)realloc(ctx->hist, cap * sizeof(Hist));
        if (!h) return 0;
        ctx->hist = h;
        ctx->caphist = cap;
    }
    ctx->hist[ctx->nhist].parent = parent;
    ctx->hist[ctx->nhist].move = move;
    ctx->nhist++;
    return 1;
}

static int reserve(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    {
        size_t c = *cap ? *cap : 1024;
        void *b;
        while (c < need) c *= 2;
        b = realloc(*buf, c * size);
        if (!b) return 0;
        *buf = b;
        *cap = c;
    }
    return 1;
}

static int build_path(Ctx *ctx, int32_t hist, uint16_t last) {
    int n = 1, i;
    int32_t h;
    for (h = hist; h > 0; h = ctx->hist[h].parent) n++;
    ctx->path = (uint16_t *)malloc(sizeof(uint16_t) * (size_t)n);
    if (!ctx->path) return R_NOMEM;
    ctx->npath = n;
    ctx->path[n - 1] = last;
    for (h = hist, i = n - 2; h > 0; h = ctx->hist[h].parent, i--) ctx->path[i] = ctx->hist[h].move;
    return R_WIN;
}

/* One beam run of width (per number of deals left); *truncated says whether it cut anything. */
static int beam_run(Ctx *ctx, const Pos *root, long width, int prune, int *truncated) {
    size_t nlayer = 1, i;
    int depth;
    uint16_t moves[1200];
    Pos child;
    *truncated = 0;
    set_clear(&ctx->seen);
    ctx->nhist = 0;
    if (!hist_push(ctx, -1, 0)) return R_NOMEM;
    if (!reserve((void **)&ctx->layer, &ctx->caplayer, 1, sizeof(Node))) return R_NOMEM;
    ctx->layer[0].pos = *root;
    ctx->layer[0].hist = 0;
    if (set_add(&ctx->seen, pos_hash(ctx, root)) < 0) return R_NOMEM;
    for (depth = 0;; depth++) {
        size_t start, nnext = 0;
        if (prune && depth >= MAX_DEPTH) {
            *truncated = 1;
            return R_DONE;
        }
        ctx->ncands = 0;
        set_clear(&ctx->local);
        for (i = 0; i < nlayer; i++) {
            const Pos *p = &ctx->layer[i].pos;
            int nm = gen_moves(ctx, p, prune, moves), m;
            Parts parts;
            pos_parts(ctx, p, &parts);
            for (m = 0; m < nm; m++) {
                uint64_t h;
                int added, score, removed, bucket;
                if (ctx->node_limit > 0 && ctx->nodes >= ctx->node_limit) return R_STOP;
                ctx->nodes++;
                if (ctx->deadline > 0 && (ctx->nodes & 1023) == 0 && now_seconds() >= ctx->deadline)
                    return R_STOP;
                if (moves[m] == DEAL_MOVE) {
                    apply_move(ctx, p, &child, moves[m]);
                    removed = child.removed;
                    h = pos_hash(ctx, &child);
                    score = pos_score(ctx->w, &child);
                    bucket = ctx->ndeals - child.dealt;
                } else {
                    child_value(ctx, p, &parts, moves[m] & 15, (moves[m] >> 4) & 15, moves[m] >> 8, &h, &score,
                                &removed);
                    bucket = ctx->ndeals - p->dealt;
                }
                if (removed == 8) return build_path(ctx, ctx->layer[i].hist, moves[m]);
                if (set_has(&ctx->seen, h)) continue;
                added = set_add(&ctx->local, h);
                if (added < 0) return R_NOMEM;
                if (!added) continue;
                if (!reserve((void **)&ctx->cands, &ctx->capcands, ctx->ncands + 1, sizeof(Cand)))
                    return R_NOMEM;
                {
                    Cand *cd = &ctx->cands[ctx->ncands];
                    cd->hash = h;
                    cd->score = score;
                    if (ctx->explore && cd->score > ctx->best_score) {
                        ctx->best_score = cd->score;
                        ctx->best_hist = ctx->layer[i].hist;
                        ctx->best_move = moves[m];
                    }
                    cd->parent = (int32_t)i;
                    cd->seq = (int32_t)ctx->ncands;
                    cd->move = moves[m];
                    cd->bucket = (uint8_t)bucket;
                }
                ctx->ncands++;
            }
        }
        if (ctx->ncands == 0) return R_DONE;
        {
            /* Group by bucket, most deals left first (a stable scatter keeps each
               group in seq order), then sort only the best ``width`` of each. */
            size_t count[NBUCKETS] = {0}, at[NBUCKETS], kept[NBUCKETS], k;
            int b;
            if (!reserve((void **)&ctx->spare, &ctx->capspare, ctx->ncands, sizeof(Cand))) return R_NOMEM;
            for (k = 0; k < ctx->ncands; k++) count[ctx->cands[k].bucket]++;
            for (b = NBUCKETS - 1, start = 0; b >= 0; b--) {
                at[b] = start;
                start += count[b];
            }
            for (k = 0; k < ctx->ncands; k++) ctx->spare[at[ctx->cands[k].bucket]++] = ctx->cands[k];
            SWAP_BUFFERS(Cand, ctx->cands, ctx->capcands, ctx->spare, ctx->capspare);
            for (b = NBUCKETS - 1, start = 0; b >= 0; b--) {
                Cand *group = ctx->cands + start;
                kept[b] = count[b];
                if (width > 0 && count[b] > (size_t)width) {
                    *truncated = 1;
                    kept[b] = (size_t)width;
                    cand_select(group, count[b], kept[b]);
                }
                qsort(group, kept[b], sizeof(Cand), cand_cmp);
                start += count[b];
            }
            if (ctx->deadline > 0 && now_seconds() >= ctx->deadline) return R_STOP; /* wide layers sort long */
            if (!reserve((void **)&ctx->next, &ctx->capnext, ctx->ncands, sizeof(Node))) return R_NOMEM;
            for (b = NBUCKETS - 1, start = 0; b >= 0; b--) {
                for (k = start; k < start + kept[b]; k++) {
                    const Cand *cd = &ctx->cands[k];
                    const Node *parent = &ctx->layer[cd->parent];
                    Node *nd = &ctx->next[nnext++];
                    apply_move(ctx, &parent->pos, &nd->pos, cd->move);
                    if (!hist_push(ctx, parent->hist, cd->move)) return R_NOMEM;
                    nd->hist = (int32_t)(ctx->nhist - 1);
                    if (set_add(&ctx->seen, cd->hash) < 0) return R_NOMEM;
                }
                start += count[b];
            }
        }
        SWAP_BUFFERS(Node, ctx->layer, ctx->caplayer, ctx->next, ctx->capnext);
        nlayer = nnext;
    }
}

static void ctx_free(Ctx *ctx) {
    free(ctx->seen.slots);
    free(ctx->local.slots);
    free(ctx->hist);
    free(ctx->layer);
    free(ctx->next);
    free(ctx->cands);
    free(ctx->spare);
    free(ctx->path);
}

/*
 * Fill ``root`` from ten bytes objects (each the face-down count, then the cards
 * bottom first) and ``ctx`` with the stock; 0 with a Python error set when the
 * input is malformed.  Both are zeroed by the caller.
 */
static int read_root(PyObject *columns, const char *stock, Py_ssize_t nstock, int removed, Pos *root,
                     Ctx *ctx) {
    Py_ssize_t i;
    int k = 0;
    if (!PyList_Check(columns) || PyList_GET_SIZE(columns) != NCOL || nstock % 10 || nstock > 50) {
        PyErr_SetString(PyExc_ValueError, "expected ten columns and a stock of whole rows");
        return 0;
    }
    for (i = 0; i < NCOL; i++) {
        PyObject *col = PyList_GET_ITEM(columns, i);
        char *data;
        Py_ssize_t n;
        if (PyBytes_AsStringAndSize(col, &data, &n) < 0) return 0;
        if (n < 1 || k + n - 1 > NCARDS || (uint8_t)data[0] > n - 1) {
            PyErr_SetString(PyExc_ValueError, "bad column");
            return 0;
        }
        root->down[i] = (uint8_t)data[0];
        root->len[i] = (uint8_t)(n - 1);
        memcpy(root->cards + k, data + 1, (size_t)(n - 1));
        k += (int)(n - 1);
    }
    root->removed = (uint8_t)removed;
    memcpy(ctx->stock, stock, (size_t)nstock);
    ctx->ndeals = (int)(nstock / 10);
    return 1;
}

/* ctx's only weight set from a (down, break, semi, suited, empty, removed) tuple; 0 with a Python error set. */
static int read_weight_set(PyObject *weights, Ctx *ctx) {
    if (!PyTuple_Check(weights) ||
        !PyArg_ParseTuple(weights, "iiiiii", &ctx->weights[0][0], &ctx->weights[0][1], &ctx->weights[0][2],
                          &ctx->weights[0][3], &ctx->weights[0][4], &ctx->weights[0][5])) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "expected one weight set");
        return 0;
    }
    ctx->nsets = 1;
    ctx->w = ctx->weights[0];
    return 1;
}

/* The first ``count`` moves of ctx's path as a list of (source, target, count); NULL on error. */
static PyObject *path_list(const Ctx *ctx, int count) {
    PyObject *list = PyList_New(0);
    int m;
    if (!list) return NULL;
    for (m = 0; m < count; m++) {
        uint16_t mv = ctx->path[m];
        PyObject *item = mv == DEAL_MOVE ? Py_BuildValue("(iii)", -1, -1, 0)
                                         : Py_BuildValue("(iii)", mv & 15, (mv >> 4) & 15, mv >> 8);
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

/*
 * solve(columns, stock, removed, first_width, growth, seconds, nodes, weight_sets)
 * columns: ten bytes objects, each the face-down count then the cards bottom first;
 * weight_sets: a list of (down, break, semi, suited, empty, removed) tuples.
 * Returns (status, moves, nodes, exhaustive, runs): status "won", "lost" or "stopped";
 * moves a list of (source, target, count) with source -1 for the deal.
 */
static PyObject *native_solve(PyObject *self, PyObject *args) {
    PyObject *columns, *weights, *result, *list;
    const char *stock;
    Py_ssize_t nstock, i;
    int removed, status = R_DONE, exhaustive = 0, runs = 0;
    long width, growth;
    double seconds;
    long long node_limit;
    Pos root;
    Ctx ctx;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oy#illdLO", &columns, &stock, &nstock, &removed, &width, &growth,
                          &seconds, &node_limit, &weights))
        return NULL;
    memset(&root, 0, sizeof(root));
    memset(&ctx, 0, sizeof(ctx));
    if (!read_root(columns, stock, nstock, removed, &root, &ctx)) return NULL;
    if (!PyList_Check(weights) || PyList_GET_SIZE(weights) < 1 || PyList_GET_SIZE(weights) > MAX_SETS) {
        PyErr_SetString(PyExc_ValueError, "expected one to eight weight sets");
        return NULL;
    }
    ctx.nsets = (int)PyList_GET_SIZE(weights);
    for (i = 0; i < ctx.nsets; i++) {
        PyObject *set = PyList_GET_ITEM(weights, i);
        if (!PyArg_ParseTuple(set, "iiiiii", &ctx.weights[i][0], &ctx.weights[i][1], &ctx.weights[i][2],
                              &ctx.weights[i][3], &ctx.weights[i][4], &ctx.weights[i][5]))
            return NULL;
    }
    ctx.w = ctx.weights[0];
    ctx.node_limit = node_limit;
    if (root.removed == 8) return Py_BuildValue("(sNLii)", "won", PyList_New(0), 0LL, 1, 0);

    Py_BEGIN_ALLOW_THREADS
    ctx.deadline = seconds > 0 ? now_seconds() + seconds : 0;
    if (!set_init(&ctx.seen, 1 << 12) || !set_init(&ctx.local, 1 << 10)) {
        status = R_NOMEM;
    } else {
        int truncated = 1, set;
        for (;; width *= growth) {
            for (set = 0; set < ctx.nsets; set++) {
                runs++;
                ctx.w = ctx.weights[set];
                status = beam_run(&ctx, &root, width, 1, &truncated);
                if (status != R_DONE || !truncated) break;
            }
            if (status != R_DONE) break;
            if (!truncated) {
                runs++;
                status = beam_run(&ctx, &root, 0, 0, &truncated);
                if (status == R_DONE) exhaustive = 1;
                break;
            }
            if (width * growth > MAX_WIDTH) {
                status = R_STOP;
                break;
            }
        }
    }
    Py_END_ALLOW_THREADS

    if (status == R_NOMEM) {
        ctx_free(&ctx);
        return PyErr_NoMemory();
    }
    list = path_list(&ctx, status == R_WIN ? ctx.npath : 0);
    if (!list) {
        ctx_free(&ctx);
        return NULL;
    }
    result = Py_BuildValue("(sNLii)", status == R_WIN ? "won" : (exhaustive ? "lost" : "stopped"), list,
                           ctx.nodes, exhaustive, runs);
    ctx_free(&ctx);
    return result;
}

/*
 * explore(columns, stock, removed, width, nodes, weights)
 * One pruned beam run of ``width`` that keeps the best-scoring position it
 * generates (search.py's explore is the specification).  Columns and stock as
 * for solve(); hidden cards may be the opaque byte 15, which nothing goes onto
 * and which goes nowhere but an empty column.  Returns (status, moves, nodes,
 * score): status "won" with the winning moves, or "best" with the moves to the
 * best position found (none when nothing beats the root) and its score.
 */
static PyObject *native_explore(PyObject *self, PyObject *args) {
    PyObject *columns, *weights, *result, *list;
    const char *stock;
    Py_ssize_t nstock;
    int removed, status = R_DONE, truncated = 0;
    long width;
    long long node_limit;
    Pos root;
    Ctx ctx;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oy#ilLO", &columns, &stock, &nstock, &removed, &width, &node_limit,
                          &weights))
        return NULL;
    memset(&root, 0, sizeof(root));
    memset(&ctx, 0, sizeof(ctx));
    if (!read_root(columns, stock, nstock, removed, &root, &ctx)) return NULL;
    if (!read_weight_set(weights, &ctx)) return NULL;
    ctx.node_limit = node_limit;
    ctx.explore = 1;
    ctx.best_score = pos_score(ctx.w, &root);
    ctx.best_hist = -1;
    if (root.removed == 8) return Py_BuildValue("(sNLi)", "won", PyList_New(0), 0LL, ctx.best_score);

    Py_BEGIN_ALLOW_THREADS
    if (!set_init(&ctx.seen, 1 << 12) || !set_init(&ctx.local, 1 << 10))
        status = R_NOMEM;
    else
        status = beam_run(&ctx, &root, width, 1, &truncated);
    if (status != R_WIN && status != R_NOMEM && ctx.best_hist >= 0)
        status = build_path(&ctx, ctx.best_hist, ctx.best_move) == R_WIN ? R_DONE : R_NOMEM;
    Py_END_ALLOW_THREADS

    if (status == R_NOMEM) {
        ctx_free(&ctx);
        return PyErr_NoMemory();
    }
    list = path_list(&ctx, ctx.npath);
    if (!list) {
        ctx_free(&ctx);
        return NULL;
    }
    result = Py_BuildValue("(sNLi)", status == R_WIN ? "won" : "best", list, ctx.nodes, ctx.best_score);
    ctx_free(&ctx);
    return result;
}

/* ---- planning under chance: a tree over what a player sees -------------- */
/* chance_tree.py is the specification: the same choices and random draws, move for move. */

#define TREE_DEPTH 64
#define ROLLOUT_SEEN 256

typedef struct {
    uint64_t key;
    int32_t edge0;
    int32_t nedges;
    int32_t visits;
} TNode;

typedef struct {
    uint16_t move;
    int32_t n;
    double total;
    double best;
} TEdge;

typedef struct {
    TNode *nodes;
    size_t nnodes, capnodes;
    TEdge *edges;
    size_t nedges, capedges;
    int32_t *table;
    size_t tcap;
    uint64_t rng;
    long long nodes_spent;
} Tree;

/* splitmix64. */
static inline uint64_t rng_next(uint64_t *s) {
    *s += 0x9E3779B97F4A7C15ULL;
    return mix64(*s);
}

/* A key for what a player sees of p: face-down cards masked, columns told apart by place. */
static uint64_t blind_key(const Ctx *ctx, const Pos *p) {
    int off[NCOL + 1], i, j;
    uint64_t h = mix64(0x2545F4914F6CDD1DULL + (uint64_t)(ctx->ndeals - p->dealt));
    offsets(p, off);
    for (i = 0; i < NCOL; i++) {
        uint64_t ch = 1469598103934665603ULL ^ (uint64_t)(p->down[i] + 1);
        ch *= 1099511628211ULL;
        for (j = p->down[i]; j < p->len[i]; j++) {
            ch ^= p->cards[off[i] + j];
            ch *= 1099511628211ULL;
        }
        ch ^= (uint64_t)p->len[i] << 56;
        h += mix64(ch + 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1));
    }
    return h ? h : 1;
}

static int tree_find(const Tree *t, uint64_t key) {
    size_t mask = t->tcap - 1, i = (size_t)(key ^ (key >> 29)) & mask;
    while (t->table[i]) {
        if (t->nodes[t->table[i] - 1].key == key) return t->table[i] - 1;
        i = (i + 1) & mask;
    }
    return -1;
}

/* Add a node for p (its moves without the deal); -1 when the tree is full or memory is short. */
static int tree_add(Tree *t, const Ctx *ctx, const Pos *p, uint64_t key) {
    uint16_t moves[1200];
    int n, m, k = 0;
    size_t mask = t->tcap - 1, i = (size_t)(key ^ (key >> 29)) & mask;
    if ((t->nnodes + 1) * 2 > t->tcap || t->nnodes == t->capnodes) return -1;
    n = gen_moves(ctx, p, 1, moves);
    if (!reserve((void **)&t->edges, &t->capedges, t->nedges + (size_t)n, sizeof(TEdge))) return -1;
    for (m = 0; m < n; m++) {
        TEdge *e;
        if (moves[m] == DEAL_MOVE) continue;
        e = &t->edges[t->nedges + (size_t)k++];
        e->move = moves[m];
        e->n = 0;
        e->total = 0.0;
        e->best = 0.0;
    }
    t->nodes[t->nnodes].key = key;
    t->nodes[t->nnodes].edge0 = (int32_t)t->nedges;
    t->nodes[t->nnodes].nedges = k;
    t->nodes[t->nnodes].visits = 0;
    t->nedges += (size_t)k;
    while (t->table[i]) i = (i + 1) & mask;
    t->table[i] = (int32_t)(++t->nnodes);
    return (int)t->nnodes - 1;
}

static inline double squash(int score, int base, double temp) {
    double x = (score - base) / temp;
    return 0.5 + 0.5 * x / (1.0 + (x < 0 ? -x : x));
}

/*
 * The value of p for the player: the best score a greedy player reaches in
 * ``depth`` moves without a deal (each move the one whose position scores
 * best, ties drawn at random, no position twice), squashed to 0..1; a win is 1.
 */
static double rollout(Ctx *ctx, Tree *t, const Pos *start, int depth, int base, double temp) {
    uint16_t moves[1200];
    uint64_t seen[ROLLOUT_SEEN];
    int nseen = 0, d, best = pos_score(ctx->w, start);
    Pos p = *start, q;
    if (p.removed == 8) return 1.0;
    seen[nseen++] = blind_key(ctx, &p);
    for (d = 0; d < depth; d++) {
        int n = gen_moves(ctx, &p, 1, moves), m, pick = -1, pick_score = 0, ties = 0;
        Pos chosen;
        for (m = 0; m < n; m++) {
            int sc, k, dup = 0;
            uint64_t h;
            if (moves[m] == DEAL_MOVE) continue;
            apply_move(ctx, &p, &q, moves[m]);
            t->nodes_spent++;
            if (q.removed == 8) return 1.0;
            h = blind_key(ctx, &q);
            for (k = 0; k < nseen; k++)
                if (seen[k] == h) dup = 1;
            if (dup) continue;
            sc = pos_score(ctx->w, &q);
            if (pick < 0 || sc > pick_score) {
                pick = m;
                pick_score = sc;
                ties = 1;
                chosen = q;
            } else if (sc == pick_score && rng_next(&t->rng) % (uint64_t)(++ties) == 0) {
                pick = m;
                chosen = q;
            }
        }
        if (pick < 0) break;
        p = chosen;
        if (nseen < ROLLOUT_SEEN) seen[nseen++] = blind_key(ctx, &p);
        if (pick_score > best) best = pick_score;
    }
    return squash(best, base, temp);
}

/*
 * plan_under_chance(columns, unseen, removed, iterations, nodes, seconds, weights, exploration, temperature,
 *                   rollout_depth, seed)
 * columns as for explore(), hidden cards opaque; unseen: the cards a player has not seen, as many as the
 * face-down places and the stock.  Each iteration deals them at random into the hidden places and walks a
 * tree of what a player sees (a card turned over leads to the node that shows it), choosing moves by
 * UCB1, adds one node and values it by a greedy line.  The deal is never played.  ``nodes`` (moves applied)
 * and ``seconds`` (<= 0: none) stop it early.
 * Returns (iterations, nodes, [(source, target, count, visits, mean, best), ...]) for the root's moves.
 */
static PyObject *native_plan_under_chance(PyObject *self, PyObject *args) {
    PyObject *columns, *weights, *list;
    const char *unseen;
    Py_ssize_t nunseen;
    int removed, rollout_depth, hidden = 0, i, done = 0, nomem = 0;
    long iterations;
    long long node_limit;
    double exploration, temperature, seconds, deadline;
    unsigned long long seed;
    Pos root;
    Ctx ctx;
    Tree t;
    int root_score;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oy#ilLdOddiK", &columns, &unseen, &nunseen, &removed, &iterations, &node_limit,
                          &seconds, &weights, &exploration, &temperature, &rollout_depth, &seed))
        return NULL;
    memset(&root, 0, sizeof(root));
    memset(&ctx, 0, sizeof(ctx));
    memset(&t, 0, sizeof(t));
    /* The stock's cards are among the unseen ones: read the columns alone, then size the stock. */
    if (!read_root(columns, "", 0, removed, &root, &ctx)) return NULL;
    for (i = 0; i < NCOL; i++) hidden += root.down[i];
    if (nunseen < hidden || nunseen - hidden > 50 || (nunseen - hidden) % 10 || nunseen > NCARDS) {
        PyErr_SetString(PyExc_ValueError, "the unseen cards do not fill the face-down places and a stock");
        return NULL;
    }
    ctx.ndeals = (int)((nunseen - hidden) / 10);
    if (!read_weight_set(weights, &ctx)) return NULL;
    if (temperature <= 0 || iterations < 1) {
        PyErr_SetString(PyExc_ValueError, "temperature and iterations must be positive");
        return NULL;
    }
    root_score = pos_score(ctx.w, &root);

    Py_BEGIN_ALLOW_THREADS
    deadline = seconds > 0 ? now_seconds() + seconds : 0;
    t.rng = (uint64_t)seed;
    t.capnodes = (size_t)iterations + 1;
    for (t.tcap = 64; t.tcap < 2 * t.capnodes + 2; t.tcap *= 2) {
    }
    t.nodes = (TNode *)malloc(t.capnodes * sizeof(TNode));
    t.table = (int32_t *)calloc(t.tcap, sizeof(int32_t));
    if (!t.nodes || !t.table || tree_add(&t, &ctx, &root, blind_key(&ctx, &root)) != 0) {
        nomem = 1;
    } else {
        uint8_t pool[NCARDS];
        int path_edges[TREE_DEPTH], path_nodes[TREE_DEPTH];
        uint64_t keys[TREE_DEPTH + 1];
        for (done = 0; done < iterations; done++) {
            Pos p = root, q;
            int off[NCOL + 1], k, j, npath = 0, node = 0, depth;
            double value = -1.0;
            if (node_limit > 0 && t.nodes_spent >= node_limit) break;
            if (deadline > 0 && (done & 15) == 0 && now_seconds() >= deadline) break;
            memcpy(pool, unseen, (size_t)nunseen);
            for (k = (int)nunseen - 1; k > 0; k--) {
                int r = (int)(rng_next(&t.rng) % (uint64_t)(k + 1));
                uint8_t tmp = pool[k];
                pool[k] = pool[r];
                pool[r] = tmp;
            }
            offsets(&p, off);
            k = 0;
            for (i = 0; i < NCOL; i++)
                for (j = 0; j < p.down[i]; j++) p.cards[off[i] + j] = pool[k++];
            memcpy(ctx.stock, pool + k, (size_t)(nunseen - k));
            keys[0] = t.nodes[0].key;
            for (depth = 0; depth < TREE_DEPTH - 1; depth++) {
                TNode *nd = &t.nodes[node];
                int e, pick = -1, start, c;
                double best_ucb = -1.0, logn = log1p((double)nd->visits);
                uint64_t key;
                int child, cycle = 0;
                if (nd->nedges == 0) break;
                start = (int)(rng_next(&t.rng) % (uint64_t)nd->nedges);
                for (c = 0; c < nd->nedges; c++) {
                    const TEdge *ed;
                    double u;
                    e = (start + c) % nd->nedges;
                    ed = &t.edges[nd->edge0 + e];
                    if (ed->n == 0) {
                        pick = e;
                        break;
                    }
                    u = ed->total / ed->n + exploration * sqrt(logn / ed->n);
                    if (u > best_ucb) {
                        best_ucb = u;
                        pick = e;
                    }
                }
                path_nodes[npath] = node;
                path_edges[npath++] = nd->edge0 + pick;
                apply_move(&ctx, &p, &q, t.edges[nd->edge0 + pick].move);
                t.nodes_spent++;
                if (q.removed == 8) {
                    value = 1.0;
                    break;
                }
                key = blind_key(&ctx, &q);
                for (c = 0; c <= depth; c++)
                    if (keys[c] == key) cycle = 1;
                if (cycle) {
                    value = squash(pos_score(ctx.w, &p), root_score, temperature);
                    break;
                }
                p = q;
                keys[depth + 1] = key;
                child = tree_find(&t, key);
                if (child < 0) {
                    child = tree_add(&t, &ctx, &p, key);
                    value = rollout(&ctx, &t, &p, rollout_depth, root_score, temperature);
                    break;
                }
                node = child;
            }
            if (value < 0) value = rollout(&ctx, &t, &p, rollout_depth, root_score, temperature);
            for (k = 0; k < npath; k++) {
                TEdge *ed = &t.edges[path_edges[k]];
                t.nodes[path_nodes[k]].visits++;
                ed->n++;
                ed->total += value;
                if (value > ed->best) ed->best = value;
            }
        }
    }
    Py_END_ALLOW_THREADS

    if (nomem) {
        free(t.nodes);
        free(t.table);
        free(t.edges);
        return PyErr_NoMemory();
    }
    list = PyList_New(0);
    for (i = 0; list && i < t.nodes[0].nedges; i++) {
        const TEdge *ed = &t.edges[t.nodes[0].edge0 + i];
        uint16_t mv = ed->move;
        PyObject *item = Py_BuildValue("(iiiidd)", mv & 15, (mv >> 4) & 15, mv >> 8, ed->n,
                                       ed->n ? ed->total / ed->n : 0.0, ed->best);
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(list);
        } else {
            Py_DECREF(item);
        }
    }
    free(t.nodes);
    free(t.table);
    free(t.edges);
    if (!list) return NULL;
    return Py_BuildValue("(iLN)", done, t.nodes_spent, list);
}

static PyMethodDef methods[] = {
    {"solve", native_solve, METH_VARARGS, "Iterated beam search; see search.py for the specification."},
    {"explore", native_explore, METH_VARARGS, "One beam run keeping its best position; see search.py."},
    {"plan_under_chance", native_plan_under_chance, METH_VARARGS, "Tree search over what a player sees."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", "Native Spider solver core.", -1, methods};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
