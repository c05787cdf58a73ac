/*
 * bot.engine._tilecore: the dynamic programme of tilesolver.run_programme, in C.
 *
 * tilesolver._programme_python is the reference: this file computes exactly what it
 * computes, step for step, so that both return the same score AND the same decisions
 * (games replay Arrange through the solver, so ties must break the same way on every
 * machine). What that takes:
 *
 *   - a Python dict is replaced by an array of entries in insertion order plus an
 *     open-addressing index over it; updating an entry keeps its position, like a dict;
 *   - `if total > get(nkey, -1)` keeps the first of equal scores;
 *   - _undominated's stable sort is a sort by (value descending, position ascending),
 *     with the same _DOMINATORS cap and `len(layer) < 8` shortcut;
 *   - choices, jokers and states are enumerated in the Python order.
 *
 * Keys are the Python packed keys (see _U, _FACE, ... in tilesolver.py) as uint64_t and
 * scores are int64_t; the input domain checked in `programme` keeps every key and score
 * well inside 64 bits, where C and Python integer arithmetic agree.
 *
 * Instead of a dict of back-pointers per step (Python: trail[i][key] = (parent key,
 * choice)), each entry stores the position of its parent in the previous step's array.
 * The walk from the best final state is the walk of the Python core.
 *
 * The search itself runs without the GIL; it touches no Python object.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Constants: tilesolver.py ------------------------------------------------- */

#define SCALE 10000          /* SCALE */
#define JOKER_VALUE 30       /* JOKER_VALUE */
#define SH_U 24              /* _U */
#define SH_FACE 26           /* _FACE */
#define SH_JV 33             /* _JV */
#define SH_SN 36             /* _SN */
#define SH_TOP 40            /* _TOP */
#define M6 UINT64_C(63)      /* _M6 */
#define M2 UINT64_C(3)       /* _M2 */
#define M7 UINT64_C(127)     /* _M7 */
#define M3 UINT64_C(7)       /* _M3 */
#define M4 UINT64_C(15)      /* _M4 */
#define DOMINATORS 400       /* _DOMINATORS */
#define SAME_AT_V ((M3 << SH_JV) | (M4 << SH_SN) | (M2 << SH_TOP)) /* _SAME_AT_V */

#define NUMBERS 13
#define STAGES (1 + NUMBERS * 5) /* the root {0: 0}, then per number 4 colours + the layer */

/* Input domain (checked in `programme`): keeps keys and scores far inside 64 bits. */
#define MAX_COUNT 63
#define MAX_TARGET (1 << 20)
#define MAX_FLOOR (INT64_C(1) << 62)

/* ---- Run states: _RUN_STATES, _STEP, _OPEN_SHORT, _DOMINATES ------------------ */

#define NSTATES 35 /* len(_RUN_STATES) */
static int run_state[NSTATES][3];
/* Indexed by 6-bit fields of a key: rows past NSTATES stay 0/-1 (no key holds them). */
static int8_t STEP[64][10];
static uint8_t OPEN_SHORT[64];
static uint8_t DOMINATES[64][64];

static int
state_index(int a, int b, int c)
{
    for (int i = 0; i < NSTATES; i++)
        if (run_state[i][0] == a && run_state[i][1] == b && run_state[i][2] == c)
            return i;
    return -1;
}

static void
build_tables(void)
{
    /* _RUN_STATES = [(a, b, c) for a .. for b .. for c .. if a + b + c <= 4] */
    int n = 0;
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            for (int c = 0; c < 5; c++)
                if (a + b + c <= 4) {
                    run_state[n][0] = a;
                    run_state[n][1] = b;
                    run_state[n][2] = c;
                    n++;
                }
    memset(STEP, -1, sizeof STEP);
    for (int i = 0; i < NSTATES; i++) {
        int n1 = run_state[i][0], n2 = run_state[i][1], n3 = run_state[i][2];
        /* _step(runs, x) */
        for (int x = 0; x < 10; x++) {
            if (x < n1 + n2)
                continue;
            int k3 = n3 < x - n1 - n2 ? n3 : x - n1 - n2;
            int fresh = x - n1 - n2 - k3;
            if (fresh + n1 + n2 + k3 > 4)
                continue;
            STEP[i][x] = (int8_t)state_index(fresh, n1, n2 + k3);
        }
        OPEN_SHORT[i] = (n1 || n2) ? 1 : 0;
    }
    for (int a = 0; a < NSTATES; a++)
        for (int b = 0; b < NSTATES; b++) {
            /* _run_dominates(a, b) */
            int a1 = run_state[a][0], a2 = run_state[a][1], a3 = run_state[a][2];
            int b1 = run_state[b][0], b2 = run_state[b][1], b3 = run_state[b][2];
            DOMINATES[a][b] = (a1 <= b1 && a1 + a2 <= b1 + b2 && a1 + a2 + a3 >= b1 + b2 + b3);
        }
}

/* _sets_ok(naturals, top, jokers) */
static int
sets_ok(int64_t naturals, int64_t top, int64_t jokers)
{
    int64_t total = naturals + jokers;
    if (total == 0)
        return 1;
    for (int64_t m = top > 1 ? top : 1; m < total / 3 + 1; m++)
        if (3 * m <= total && total <= 4 * m && naturals >= m)
            return 1;
    return 0;
}

/* ---- Steps: insertion-ordered arrays of states with an index ------------------- */

typedef struct {
    uint64_t key;
    int64_t score;
    int32_t parent;        /* position in the previous step (the Python back-pointer key) */
    uint8_t nat, s, jr;    /* a colour step's choice (nat, s, jr) */
    uint8_t js;            /* a layer step's set jokers */
    uint8_t broke;         /* fewest_breaks: the groups broken at this step (a bit each) */
} Entry;

typedef struct {
    Entry *e;
    size_t n, cap;
} Stage;

/* Open addressing over positions in one Stage: slot = position + 1, 0 = empty. Only the
   first mask + 1 slots of the allocation are in use for the current step. */
typedef struct {
    int32_t *slot;
    size_t alloc;
    size_t mask;
} Index;

enum { OK = 0, NO_TABLE, STOPPED, NO_MEMORY, BAD_INDEX };

static inline size_t
hash_key(uint64_t key)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

/* Start an empty index with at least `want` slots (a power of two). */
static int
index_prepare(Index *ix, size_t want)
{
    size_t size = 64;
    while (size < want) {
        if (size > SIZE_MAX / 4 / sizeof(int32_t))
            return NO_MEMORY;
        size *= 2;
    }
    if (size > ix->alloc) {
        int32_t *grown = realloc(ix->slot, size * sizeof(int32_t));
        if (grown == NULL)
            return NO_MEMORY;
        ix->slot = grown;
        ix->alloc = size;
    }
    ix->mask = size - 1;
    memset(ix->slot, 0, size * sizeof(int32_t));
    return OK;
}

/* Double the index and re-enter the positions of `st`. */
static int
index_grow(Index *ix, const Stage *st)
{
    int status = index_prepare(ix, (ix->mask + 1) * 2);
    if (status != OK)
        return status;
    for (size_t i = 0; i < st->n; i++) {
        size_t h = hash_key(st->e[i].key) & ix->mask;
        while (ix->slot[h] != 0)
            h = (h + 1) & ix->mask;
        ix->slot[h] = (int32_t)(i + 1);
    }
    return OK;
}

/* The dict update of both steps:
       if total > nxt.get(nkey, -1):
           nxt[nkey] = total
           back[nkey] = (key, choice)
   A new key goes to the end; an existing one keeps its position. */
static int
upsert(Stage *st, Index *ix, uint64_t key, int64_t total, size_t parent,
       int64_t nat, int64_t s, int64_t jr, int64_t js, int broke)
{
    size_t h = hash_key(key) & ix->mask;
    int32_t slot;
    Entry *e;
    while ((slot = ix->slot[h]) != 0) {
        e = &st->e[slot - 1];
        if (e->key == key) {
            if (total > e->score)
                goto set;
            return OK;
        }
        h = (h + 1) & ix->mask;
    }
    if (!(total > -1))
        return OK;
    if (st->n >= INT32_MAX - 1)
        return NO_MEMORY;
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 256;
        Entry *grown = realloc(st->e, cap * sizeof(Entry));
        if (grown == NULL)
            return NO_MEMORY;
        st->e = grown;
        st->cap = cap;
    }
    e = &st->e[st->n];
    e->key = key;
    ix->slot[h] = (int32_t)(st->n + 1);
    st->n++;
    if (st->n * 2 > ix->mask + 1) {
        int status = index_grow(ix, st);
        if (status != OK)
            return status;
        e = &st->e[st->n - 1];
    }
set:
    e->score = total;
    e->parent = (int32_t)parent;
    e->nat = (uint8_t)nat;
    e->s = (uint8_t)s;
    e->jr = (uint8_t)jr;
    e->js = (uint8_t)js;
    e->broke = (uint8_t)broke;
    return OK;
}

/* ---- _undominated ------------------------------------------------------------- */

typedef struct {
    int64_t value;
    size_t pos;
} Ranked;

/* sorted(layer.items(), key=lambda item: -value) is stable: equal values keep their order. */
static int
by_value(const void *pa, const void *pb)
{
    const Ranked *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value > b->value ? -1 : 1;
    return a->pos < b->pos ? -1 : (a->pos > b->pos);
}

typedef struct {
    int64_t value;
    int64_t face;
    uint8_t u, u_ok, runs[4];
} Kept;

/* groups[key & _SAME_AT_V]: only the first _DOMINATORS kept states are ever compared
   with, so only those are stored. */
typedef struct {
    uint64_t same;
    size_t n;
    Kept kept[DOMINATORS];
} Group;

static int
undominated(Stage *layer, int64_t forced_jokers)
{
    size_t n = layer->n;
    if (n < 8) /* if len(layer) < 8: return layer */
        return OK;
    const int64_t gain = SCALE + JOKER_VALUE;
    int status = NO_MEMORY;
    Ranked *ranked = malloc(n * sizeof(Ranked));
    Entry *out = malloc(n * sizeof(Entry));
    Group **groups = NULL;
    size_t ngroups = 0, group_cap = 0, m = 0;
    if (ranked == NULL || out == NULL)
        goto done;
    for (size_t i = 0; i < n; i++) {
        ranked[i].value = layer->e[i].score + (int64_t)((layer->e[i].key >> SH_U) & M2) * gain;
        ranked[i].pos = i;
    }
    qsort(ranked, n, sizeof(Ranked), by_value);
    for (size_t r = 0; r < n; r++) {
        const Entry *e = &layer->e[ranked[r].pos];
        uint64_t key = e->key;
        /* kept = groups.setdefault(key & _SAME_AT_V, []) */
        uint64_t same = key & SAME_AT_V;
        Group *group = NULL;
        for (size_t g = 0; g < ngroups; g++)
            if (groups[g]->same == same) {
                group = groups[g];
                break;
            }
        if (group == NULL) {
            if (ngroups == group_cap) {
                size_t cap = group_cap ? group_cap * 2 : 4;
                Group **grown = realloc(groups, cap * sizeof(Group *));
                if (grown == NULL)
                    goto done;
                groups = grown;
                group_cap = cap;
            }
            group = malloc(sizeof(Group));
            if (group == NULL)
                goto done;
            group->same = same;
            group->n = 0;
            groups[ngroups++] = group;
        }
        int64_t u = (int64_t)((key >> SH_U) & M2);
        int64_t face = (int64_t)((key >> SH_FACE) & M7);
        int64_t value = ranked[r].value; /* score + u * gain */
        uint8_t runs[4] = {(uint8_t)(key & M6), (uint8_t)((key >> 6) & M6),
                           (uint8_t)((key >> 12) & M6), (uint8_t)((key >> 18) & M6)};
        int beaten = 0;
        /* for k_value, k_u, k_face, k_u_ok, k_runs in kept[:_DOMINATORS] */
        for (size_t k = 0; k < group->n; k++) {
            const Kept *o = &group->kept[k];
            if (o->value >= value && o->u <= u && (o->u == u || o->u_ok) && o->face >= face
                && DOMINATES[o->runs[0]][runs[0]] && DOMINATES[o->runs[1]][runs[1]]
                && DOMINATES[o->runs[2]][runs[2]] && DOMINATES[o->runs[3]][runs[3]]) {
                beaten = 1;
                break;
            }
        }
        if (!beaten) {
            if (group->n < DOMINATORS) {
                Kept *o = &group->kept[group->n++];
                o->value = value;
                o->u = (uint8_t)u;
                o->face = face;
                o->u_ok = u >= forced_jokers;
                memcpy(o->runs, runs, sizeof runs);
            }
            out[m++] = *e; /* out[key] = score: in ranked order */
        }
    }
    free(layer->e);
    layer->e = out;
    layer->n = m;
    layer->cap = n;
    out = NULL;
    status = OK;
done:
    for (size_t g = 0; g < ngroups; g++)
        free(groups[g]);
    free(groups);
    free(ranked);
    free(out);
    return status;
}

/* ---- The programme: _programme_python ----------------------------------------- */

typedef struct {
    int64_t forced[4][14], optional[4][14], pinned[14];
    int64_t jf, jo, target, floor;
    int has_deadline;
    double deadline;
} Input;

typedef struct {
    int64_t score;
    int choice[NUMBERS + 1][4][3]; /* per number v, per colour: (nat, s, jr) */
    int js[NUMBERS + 1];
} Output;

/* time.monotonic() on Linux: CLOCK_MONOTONIC as float seconds. */
static double
monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    if (ns % 1000000000 == 0)
        return (double)(ns / 1000000000);
    return (double)ns / 1e9;
}

typedef struct {
    int64_t runs_x, s, nat, gain, face_add;
} Choice;

#define MAX_CHOICES ((2 * MAX_COUNT + 1) * 4)

static int
search(const Input *in, Output *out)
{
    Stage trail[STAGES];
    Index ix = {NULL, 0, 0};
    int status = OK;
    memset(trail, 0, sizeof trail);

    const int64_t jf = in->jf, jokers = in->jf + in->jo, target = in->target;
    int64_t rest_gain[15 + 1] = {0};
    for (int v = 13; v > 0; v--) {
        int64_t here = 0;
        for (int c = 0; c < 4; c++)
            here += in->optional[c][v];
        rest_gain[v] = rest_gain[v + 1] + here * (SCALE + v);
    }
    const int64_t joker_gain = in->jo * (SCALE + JOKER_VALUE);

    /* layer = {0: 0} */
    Stage *layer = &trail[0];
    layer->e = malloc(sizeof(Entry));
    if (layer->e == NULL) {
        status = NO_MEMORY;
        goto done;
    }
    layer->cap = layer->n = 1;
    memset(layer->e, 0, sizeof(Entry));
    layer->e[0].parent = -1;
    int t = 1;

    for (int v = 1; v <= NUMBERS; v++) {
        /* if deadline is not None and time.monotonic() > deadline: raise SearchStopped() */
        if (in->has_deadline && monotonic() > in->deadline) {
            status = STOPPED;
            goto done;
        }
        const int64_t pv = in->pinned[v];
        Stage *partial = layer;
        for (int c = 0; c < 4; c++) {
            const int64_t f = in->forced[c][v], o = in->optional[c][v];
            const int64_t gain_per = SCALE + v;
            int64_t later = 0;
            for (int d = c + 1; d < 4; d++)
                later += in->optional[d][v];
            const int64_t hope = rest_gain[v + 1] + joker_gain + gain_per * later;
            const int64_t cut = in->floor - hope;
            const int shift = 6 * c;
            const uint64_t clear = ~(M6 << shift);
            /* choices = [(nat - s, s, nat, (nat - f) * gain_per, v * nat)
                          for nat in range(f, f + o + 1) for s in range(min(nat, 3) + 1)] */
            Choice choices[MAX_CHOICES];
            int nchoices = 0;
            for (int64_t nat = f; nat < f + o + 1; nat++)
                for (int64_t s = 0; s < (nat < 3 ? nat : 3) + 1; s++) {
                    Choice *ch = &choices[nchoices++];
                    ch->runs_x = nat - s;
                    ch->s = s;
                    ch->nat = nat;
                    ch->gain = (nat - f) * gain_per;
                    ch->face_add = v * nat;
                }
            Stage *next = &trail[t++];
            status = index_prepare(&ix, partial->n * 4);
            if (status != OK)
                goto done;
            /* for key, score in partial.items(): */
            for (size_t i = 0; i < partial->n; i++) {
                const uint64_t key = partial->e[i].key;
                const int64_t score = partial->e[i].score;
                const uint64_t runs_here = (key >> shift) & M6;
                if (runs_here >= NSTATES) { /* step[...] would raise IndexError */
                    status = BAD_INDEX;
                    goto done;
                }
                const int8_t *table = STEP[runs_here];
                const int64_t u = (int64_t)((key >> SH_U) & M2);
                const int64_t jv = (int64_t)((key >> SH_JV) & M3);
                const int64_t sn = (int64_t)((key >> SH_SN) & M4);
                const int64_t top = (int64_t)((key >> SH_TOP) & M2);
                const int64_t face = (int64_t)((key >> SH_FACE) & M7);
                const int64_t spare = jokers - u + pv - jv;
                const uint64_t base = key & clear & ~((M3 << SH_JV) | (M4 << SH_SN)
                                                      | (M2 << SH_TOP) | (M7 << SH_FACE));
                for (int k = 0; k < nchoices; k++) {
                    const Choice *ch = &choices[k];
                    const int64_t total = score + ch->gain;
                    if (total < cut)
                        continue;
                    for (int64_t jr = 0; jr < spare + 1; jr++) {
                        if (ch->runs_x + jr >= 10) { /* table[runs_x + jr]: IndexError */
                            status = BAD_INDEX;
                            goto done;
                        }
                        const int stepped = table[ch->runs_x + jr];
                        if (stepped < 0)
                            continue;
                        int64_t nface = 0;
                        if (target) {
                            nface = face + ch->face_add + v * jr;
                            if (nface > target)
                                nface = target;
                        }
                        const uint64_t nkey = base | ((uint64_t)stepped << shift)
                            | ((uint64_t)nface << SH_FACE) | ((uint64_t)(jv + jr) << SH_JV)
                            | ((uint64_t)(sn + ch->s) << SH_SN)
                            | ((uint64_t)(top > ch->s ? top : ch->s) << SH_TOP);
                        status = upsert(next, &ix, nkey, total, i, ch->nat, ch->s, jr, 0, 0);
                        if (status != OK)
                            goto done;
                    }
                }
            }
            partial = next;
        }
        /* The set step: layer[state] = score, lback[state] = (key, js). */
        Stage *lay = &trail[t++];
        status = index_prepare(&ix, partial->n * 2);
        if (status != OK)
            goto done;
        for (size_t i = 0; i < partial->n; i++) {
            const uint64_t key = partial->e[i].key;
            const int64_t score = partial->e[i].score;
            const int64_t u = (int64_t)((key >> SH_U) & M2);
            const int64_t jv = (int64_t)((key >> SH_JV) & M3);
            const int64_t sn = (int64_t)((key >> SH_SN) & M4);
            const int64_t top = (int64_t)((key >> SH_TOP) & M2);
            const int64_t face = (int64_t)((key >> SH_FACE) & M7);
            const uint64_t runs = key & UINT64_C(0xFFFFFF);
            const int64_t spare = jokers - u + pv - jv;
            for (int64_t js = 0; js < spare + 1; js++) {
                const int64_t used_free = jv + js - pv;
                if (used_free < 0 || !sets_ok(sn, top, js))
                    continue;
                int64_t nface = 0;
                if (target) {
                    nface = face + v * js;
                    if (nface > target)
                        nface = target;
                }
                const uint64_t state = runs | ((uint64_t)(u + used_free) << SH_U)
                    | ((uint64_t)nface << SH_FACE);
                status = upsert(lay, &ix, state, score, i, 0, 0, 0, js, 0);
                if (status != OK)
                    goto done;
            }
        }
        if (lay->n == 0) { /* if not layer: return None */
            status = NO_TABLE;
            goto done;
        }
        status = undominated(lay, jf);
        if (status != OK)
            goto done;
        layer = lay;
    }

    /* The best final state: no short run open, the table's jokers placed, the face total. */
    int found = 0;
    size_t best = 0;
    int64_t best_total = 0;
    for (size_t i = 0; i < layer->n; i++) {
        const uint64_t state = layer->e[i].key;
        const int64_t u = (int64_t)((state >> SH_U) & M2);
        const int64_t face = (int64_t)((state >> SH_FACE) & M7);
        int open = 0;
        for (int c = 0; c < 4; c++)
            open = open || OPEN_SHORT[(state >> (6 * c)) & M6];
        if (open || u < jf || (target && face < target))
            continue;
        const int64_t total = layer->e[i].score + (u - jf) * (SCALE + JOKER_VALUE);
        if (!found || total > best_total) {
            found = 1;
            best_total = total;
            best = i;
        }
    }
    if (!found) {
        status = NO_TABLE;
        goto done;
    }

    /* The back-pointer walk: per number from 13 down, the set step then colours 3 … 0. */
    out->score = best_total;
    size_t pos = best;
    for (int v = NUMBERS; v > 0; v--) {
        const int base_stage = 1 + (v - 1) * 5;
        const Entry *e = &trail[base_stage + 4].e[pos];
        out->js[v] = e->js;
        pos = (size_t)e->parent;
        for (int c = 3; c >= 0; c--) {
            e = &trail[base_stage + c].e[pos];
            out->choice[v][c][0] = e->nat;
            out->choice[v][c][1] = e->s;
            out->choice[v][c][2] = e->jr;
            pos = (size_t)e->parent;
        }
    }
    status = OK;

done:
    for (int i = 0; i < STAGES; i++)
        free(trail[i].e);
    free(ix.slot);
    return status;
}

/* ---- fewest_breaks: the fewest staged melds to change for arrange (TIL-20) -------- */

/* The same programme with every joker and tile forced (the named tiles and the melds that
   must change), plus *groups*: staged melds that may change. A group left alone keeps its
   tiles out of the programme; a broken one adds them (all forced) and costs 1. The score
   starts at the bound (the most breaks allowed) and loses 1 per break, so a state past the
   bound drops out (scores below 0 are never stored) and the best final state has the
   fewest breaks.

   Where the decision is made: a run group (one colour) at the colour step of its first
   number, its broken flag then kept in the key in one of 4 slots of that colour until its
   last number; a set group (one number) at a set step before the colours of its number.
   Key layout: the programme's bits 0-41 (the face total is unused: 0), then the run
   groups' broken flags (42-57: colour * 4 + slot), the free jokers the broken groups
   owe (58-59), the set groups broken at this number (60-63). */

#define SH_FLAGS 42
#define SH_OWED 58
#define SH_SETS 60
#define MAX_GROUPS 64
#define MAX_STARTING 6 /* groups decided at one step: 2**6 choices */
#define BSTAGES (1 + NUMBERS * 6)

typedef struct {
    int colour;   /* -1: a set group */
    int first, last, owed, pins, slot;
    int cells[4][14];
} BreakMeld;

typedef struct {
    int64_t forced[4][14], pinned[14], jf, bound;
    int has_deadline;
    double deadline;
    int ngroups;
    BreakMeld g[MAX_GROUPS];
    /* derived */
    int runs_at[4][14][MAX_STARTING], nruns_at[4][14];
    int sets_at[14][4], nsets_at[14];
    int slot_count[4][14][4]; /* per colour, number, slot: the cells of the slot's group */
    uint64_t ends[14];        /* flags cleared after number v */
    /* Free jokers of groups not decided yet, after the colour step (c, v) and after the
       layer step of v: a state may use them early (a joker of a meld broken later may
       stand for a lower number), and must have broken their groups by the end. */
    int64_t pending_colour[4][14], pending_layer[14];
} BreakInput;

/* Slots, per-step group lists and counts; BAD_INDEX when the groups do not fit them. */
static int
prepare_breaks(BreakInput *in)
{
    memset(in->nruns_at, 0, sizeof in->nruns_at);
    memset(in->nsets_at, 0, sizeof in->nsets_at);
    memset(in->slot_count, 0, sizeof in->slot_count);
    memset(in->ends, 0, sizeof in->ends);
    int busy[4][4]; /* the last number of the group in each slot, 0 when free */
    memset(busy, 0, sizeof busy);
    for (int v = 1; v <= NUMBERS; v++)
        for (int i = 0; i < in->ngroups; i++) {
            BreakMeld *g = &in->g[i];
            if (g->first != v)
                continue;
            if (g->colour < 0) {
                if (g->last != v || in->nsets_at[v] >= 4)
                    return BAD_INDEX;
                in->sets_at[v][in->nsets_at[v]++] = i;
                continue;
            }
            int c = g->colour, slot = -1;
            for (int s = 0; s < 4 && slot < 0; s++)
                if (busy[c][s] < v)
                    slot = s;
            if (slot < 0 || in->nruns_at[c][v] >= MAX_STARTING)
                return BAD_INDEX;
            busy[c][slot] = g->last;
            g->slot = slot;
            in->runs_at[c][v][in->nruns_at[c][v]++] = i;
            for (int w = g->first; w <= g->last; w++)
                in->slot_count[c][w][slot] = g->cells[c][w];
            in->ends[g->last] |= UINT64_C(1) << (SH_FLAGS + 4 * c + slot);
        }
    for (int v = 1; v <= NUMBERS; v++) {
        in->pending_layer[v] = 0;
        for (int c = 0; c < 4; c++)
            in->pending_colour[c][v] = 0;
        for (int i = 0; i < in->ngroups; i++) {
            const BreakMeld *g = &in->g[i];
            if (g->first > v)
                in->pending_layer[v] += g->owed;
            for (int c = 0; c < 4; c++)
                if (g->first > v || (g->first == v && g->colour > c))
                    in->pending_colour[c][v] += g->owed;
        }
    }
    return OK;
}

/* _undominated for these keys: the same flags, owed jokers, jokers used and set counts
   (every bit but the runs'), a score as high (breaks left) and every colour's runs at
   least as good. Entries are sorted by those bits, then by score, so each group is one
   stretch; the kept order is that sort's. */
typedef struct {
    uint64_t same;
    int64_t score;
    size_t pos;
} SameRanked;

static int
by_same(const void *pa, const void *pb)
{
    const SameRanked *a = pa, *b = pb;
    if (a->same != b->same)
        return a->same < b->same ? -1 : 1;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->pos < b->pos ? -1 : (a->pos > b->pos);
}

static int
undominated_breaks(Stage *layer)
{
    size_t n = layer->n;
    if (n < 8)
        return OK;
    const uint64_t same_mask = ~UINT64_C(0xFFFFFF);
    SameRanked *ranked = malloc(n * sizeof(SameRanked));
    Entry *out = malloc(n * sizeof(Entry));
    uint8_t (*kept)[4] = malloc(DOMINATORS * sizeof *kept);
    if (ranked == NULL || out == NULL || kept == NULL) {
        free(ranked);
        free(out);
        free(kept);
        return NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        ranked[i].same = layer->e[i].key & same_mask;
        ranked[i].score = layer->e[i].score;
        ranked[i].pos = i;
    }
    qsort(ranked, n, sizeof(SameRanked), by_same);
    size_t m = 0, nkept = 0;
    for (size_t r = 0; r < n; r++) {
        if (r == 0 || ranked[r].same != ranked[r - 1].same)
            nkept = 0;
        const Entry *e = &layer->e[ranked[r].pos];
        uint8_t runs[4] = {(uint8_t)(e->key & M6), (uint8_t)((e->key >> 6) & M6),
                           (uint8_t)((e->key >> 12) & M6), (uint8_t)((e->key >> 18) & M6)};
        int beaten = 0;
        /* every kept entry of the stretch scores at least as high (sorted) */
        for (size_t k = 0; k < nkept && !beaten; k++)
            beaten = DOMINATES[kept[k][0]][runs[0]] && DOMINATES[kept[k][1]][runs[1]]
                && DOMINATES[kept[k][2]][runs[2]] && DOMINATES[kept[k][3]][runs[3]];
        if (!beaten) {
            if (nkept < DOMINATORS)
                memcpy(kept[nkept++], runs, sizeof runs);
            out[m++] = *e;
        }
    }
    free(layer->e);
    layer->e = out;
    layer->n = m;
    layer->cap = n;
    free(ranked);
    free(kept);
    return OK;
}

/* The fewest breaks: OK with broken[i] set for each broken group, or NO_TABLE. */
static int
breaks_search(const BreakInput *in, uint8_t broken[MAX_GROUPS], int64_t *breaks,
              int64_t *work)
{
    int t = 0;
    Stage trail[BSTAGES];
    Index ix = {NULL, 0, 0};
    int status = OK;
    memset(trail, 0, sizeof trail);
    const uint64_t runs_mask = UINT64_C(0xFFFFFF);
    const uint64_t flags_mask = UINT64_C(0xFFFF) << SH_FLAGS;

    Stage *layer = &trail[0];
    layer->e = malloc(sizeof(Entry));
    if (layer->e == NULL) {
        status = NO_MEMORY;
        goto done;
    }
    layer->cap = layer->n = 1;
    memset(layer->e, 0, sizeof(Entry));
    layer->e[0].parent = -1;
    layer->e[0].score = in->bound;
    t = 1;

    for (int v = 1; v <= NUMBERS; v++) {
        if (in->has_deadline && monotonic() > in->deadline) {
            status = STOPPED;
            goto done;
        }
        /* The set step: which set groups of this number break. */
        Stage *sets = &trail[t++];
        const int ns = in->nsets_at[v];
        status = index_prepare(&ix, layer->n * 2);
        if (status != OK)
            goto done;
        for (size_t i = 0; i < layer->n; i++) {
            const uint64_t key = layer->e[i].key;
            for (int m = 0; m < (1 << ns); m++) {
                int64_t owed = (int64_t)((key >> SH_OWED) & M2), cost = 0;
                for (int b = 0; b < ns; b++)
                    if (m >> b & 1) {
                        owed += in->g[in->sets_at[v][b]].owed;
                        cost++;
                    }
                const int64_t total = layer->e[i].score - cost;
                if (owed > 3 || total < 0)
                    continue;
                const uint64_t nkey = (key & ~(M2 << SH_OWED)) | ((uint64_t)owed << SH_OWED)
                    | ((uint64_t)m << SH_SETS);
                status = upsert(sets, &ix, nkey, total, i, 0, 0, 0, 0, m);
                if (status != OK)
                    goto done;
            }
        }
        Stage *partial = sets;
        for (int c = 0; c < 4; c++) {
            const int nr = in->nruns_at[c][v];
            const int shift = 6 * c;
            const uint64_t clear = ~(M6 << shift);
            Stage *next = &trail[t++];
            status = index_prepare(&ix, partial->n * 2);
            if (status != OK)
                goto done;
            for (size_t i = 0; i < partial->n; i++) {
                const uint64_t key0 = partial->e[i].key;
                const uint64_t runs_here = (key0 >> shift) & M6;
                if (runs_here >= NSTATES) {
                    status = BAD_INDEX;
                    goto done;
                }
                const int8_t *table = STEP[runs_here];
                int64_t set_cells = 0;
                for (int b = 0; b < in->nsets_at[v]; b++)
                    if (key0 >> (SH_SETS + b) & 1)
                        set_cells += in->g[in->sets_at[v][b]].cells[c][v];
                for (int m = 0; m < (1 << nr); m++) {
                    uint64_t key = key0;
                    int64_t owed = (int64_t)((key >> SH_OWED) & M2), cost = 0;
                    for (int b = 0; b < nr; b++)
                        if (m >> b & 1) {
                            const BreakMeld *g = &in->g[in->runs_at[c][v][b]];
                            key |= UINT64_C(1) << (SH_FLAGS + 4 * c + g->slot);
                            owed += g->owed;
                            cost++;
                        }
                    const int64_t score = partial->e[i].score - cost;
                    if (owed > 3 || score < 0)
                        continue;
                    key = (key & ~(M2 << SH_OWED)) | ((uint64_t)owed << SH_OWED);
                    int64_t f = in->forced[c][v] + set_cells;
                    for (int slot = 0; slot < 4; slot++)
                        if (key >> (SH_FLAGS + 4 * c + slot) & 1)
                            f += in->slot_count[c][v][slot];
                    const int64_t u = (int64_t)((key >> SH_U) & M2);
                    const int64_t jv = (int64_t)((key >> SH_JV) & M3);
                    const int64_t sn = (int64_t)((key >> SH_SN) & M4);
                    const int64_t top = (int64_t)((key >> SH_TOP) & M2);
                    int64_t pv = in->pinned[v];
                    for (int b = 0; b < in->nsets_at[v]; b++)
                        if (key >> (SH_SETS + b) & 1)
                            pv += in->g[in->sets_at[v][b]].pins;
                    const int64_t spare = in->jf + owed + in->pending_colour[c][v] - u + pv
                        - jv;
                    const uint64_t base = key & clear & ~((M3 << SH_JV) | (M4 << SH_SN)
                                                          | (M2 << SH_TOP));
                    for (int64_t s = 0; s < (f < 3 ? f : 3) + 1; s++)
                        for (int64_t jr = 0; jr < spare + 1; jr++) {
                            const int64_t x = f - s + jr;
                            if (x >= 10 || sn + s > 15 || jv + jr > 7)
                                continue;
                            const int stepped = table[x];
                            if (stepped < 0)
                                continue;
                            const uint64_t nkey = base | ((uint64_t)stepped << shift)
                                | ((uint64_t)(jv + jr) << SH_JV)
                                | ((uint64_t)(sn + s) << SH_SN)
                                | ((uint64_t)(top > s ? top : s) << SH_TOP);
                            status = upsert(next, &ix, nkey, score, i, f, s, jr, 0, m);
                            if (status != OK)
                                goto done;
                        }
                }
            }
            partial = next;
        }
        /* The layer step: set jokers, then the number's set groups and ending runs leave
           the key. */
        Stage *lay = &trail[t++];
        status = index_prepare(&ix, partial->n * 2);
        if (status != OK)
            goto done;
        for (size_t i = 0; i < partial->n; i++) {
            const uint64_t key = partial->e[i].key;
            const int64_t u = (int64_t)((key >> SH_U) & M2);
            const int64_t jv = (int64_t)((key >> SH_JV) & M3);
            const int64_t sn = (int64_t)((key >> SH_SN) & M4);
            const int64_t top = (int64_t)((key >> SH_TOP) & M2);
            const int64_t owed = (int64_t)((key >> SH_OWED) & M2);
            int64_t pv = in->pinned[v];
            for (int b = 0; b < in->nsets_at[v]; b++)
                if (key >> (SH_SETS + b) & 1)
                    pv += in->g[in->sets_at[v][b]].pins;
            const int64_t spare = in->jf + owed + in->pending_layer[v] - u + pv - jv;
            const uint64_t kept = (key & runs_mask) | ((key & flags_mask) & ~in->ends[v])
                | ((uint64_t)owed << SH_OWED);
            for (int64_t js = 0; js < spare + 1; js++) {
                const int64_t used_free = jv + js - pv;
                if (used_free < 0 || !sets_ok(sn, top, js) || u + used_free > 3)
                    continue;
                const uint64_t state = kept | ((uint64_t)(u + used_free) << SH_U);
                status = upsert(lay, &ix, state, partial->e[i].score, i, 0, 0, 0, js, 0);
                if (status != OK)
                    goto done;
            }
        }
        if (lay->n == 0) {
            status = NO_TABLE;
            goto done;
        }
        status = undominated_breaks(lay);
        if (status != OK)
            goto done;
        layer = lay;
    }

    int found = 0;
    size_t best = 0;
    for (size_t i = 0; i < layer->n; i++) {
        const uint64_t state = layer->e[i].key;
        const int64_t u = (int64_t)((state >> SH_U) & M2);
        const int64_t owed = (int64_t)((state >> SH_OWED) & M2);
        int open = 0;
        for (int c = 0; c < 4; c++)
            open = open || OPEN_SHORT[(state >> (6 * c)) & M6];
        if (open || u != in->jf + owed)
            continue;
        if (!found || layer->e[i].score > layer->e[best].score) {
            found = 1;
            best = i;
        }
    }
    if (!found) {
        status = NO_TABLE;
        goto done;
    }
    *breaks = in->bound - layer->e[best].score;
    memset(broken, 0, MAX_GROUPS);
    size_t pos = best;
    for (int v = NUMBERS; v > 0; v--) {
        const int base_stage = 1 + (v - 1) * 6;
        const Entry *e = &trail[base_stage + 5].e[pos];
        pos = (size_t)e->parent;
        for (int c = 3; c >= 0; c--) {
            e = &trail[base_stage + 1 + c].e[pos];
            for (int b = 0; b < in->nruns_at[c][v]; b++)
                if (e->broke >> b & 1)
                    broken[in->runs_at[c][v][b]] = 1;
            pos = (size_t)e->parent;
        }
        e = &trail[base_stage].e[pos];
        for (int b = 0; b < in->nsets_at[v]; b++)
            if (e->broke >> b & 1)
                broken[in->sets_at[v][b]] = 1;
        pos = (size_t)e->parent;
    }
    status = OK;

done:
    for (int i = 1; i < t && i < BSTAGES; i++)
        *work += (int64_t)trail[i].n;
    for (int i = 0; i < BSTAGES; i++)
        free(trail[i].e);
    free(ix.slot);
    return status;
}

/* ---- The Python interface ------------------------------------------------------ */

static PyObject *Stopped; /* _tilecore.Stopped: run_programme raises SearchStopped for it */

static int
read_int(PyObject *obj, int64_t low, int64_t high, const char *what, int64_t *out)
{
    long long value = PyLong_AsLongLong(obj);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s must lie in %lld … %lld, not %lld", what,
                     (long long)low, (long long)high, value);
        return -1;
    }
    *out = value;
    return 0;
}

/* A sequence of 14 counts, each in 0 … MAX_COUNT. */
static int
read_row(PyObject *obj, const char *what, int64_t out[14])
{
    PyObject *fast = PySequence_Fast(obj, "counts must be sequences");
    if (fast == NULL)
        return -1;
    int rc = -1;
    if (PySequence_Fast_GET_SIZE(fast) != 14) {
        PyErr_Format(PyExc_ValueError, "%s: rows of 14 counts are expected", what);
        goto done;
    }
    for (Py_ssize_t i = 0; i < 14; i++)
        if (read_int(PySequence_Fast_GET_ITEM(fast, i), 0, MAX_COUNT, what, &out[i]) < 0)
            goto done;
    rc = 0;
done:
    Py_DECREF(fast);
    return rc;
}

static int
read_grid(PyObject *obj, const char *what, int64_t out[4][14])
{
    PyObject *fast = PySequence_Fast(obj, "counts must be sequences");
    if (fast == NULL)
        return -1;
    int rc = -1;
    if (PySequence_Fast_GET_SIZE(fast) != 4) {
        PyErr_Format(PyExc_ValueError, "%s: 4 colours are expected", what);
        goto done;
    }
    for (Py_ssize_t c = 0; c < 4; c++)
        if (read_row(PySequence_Fast_GET_ITEM(fast, c), what, out[c]) < 0)
            goto done;
    rc = 0;
done:
    Py_DECREF(fast);
    return rc;
}

/* (score, [([(nat, s, jr)] * 4, js) for v in 1 … 13]), as _programme_python returns it. */
static PyObject *
build_result(const Output *out)
{
    PyObject *decisions = PyList_New(NUMBERS);
    if (decisions == NULL)
        return NULL;
    for (int v = 1; v <= NUMBERS; v++) {
        PyObject *choices = PyList_New(4);
        if (choices == NULL)
            goto fail;
        for (int c = 0; c < 4; c++) {
            PyObject *choice = Py_BuildValue("(iii)", out->choice[v][c][0],
                                             out->choice[v][c][1], out->choice[v][c][2]);
            if (choice == NULL) {
                Py_DECREF(choices);
                goto fail;
            }
            PyList_SET_ITEM(choices, c, choice);
        }
        PyObject *item = Py_BuildValue("(Ni)", choices, out->js[v]);
        if (item == NULL) /* "N" gives up the reference to choices even on failure */
            goto fail;
        PyList_SET_ITEM(decisions, v - 1, item);
    }
    return Py_BuildValue("(LN)", (long long)out->score, decisions);
fail:
    Py_DECREF(decisions);
    return NULL;
}

PyDoc_STRVAR(programme_doc,
"programme(forced, optional, jf, jo, pinned, target, floor, deadline)\n--\n\n"
"The dynamic programme of tilesolver._programme_python, with the same inputs and result:\n"
"None (no table scoring at least floor), or (score, decisions) where decisions lists per\n"
"number 1 … 13 ([(nat, s, jr)] per colour, js). Raises Stopped once time.monotonic()\n"
"passes deadline (checked at the start of each number). Counts lie in 0 … 63, target in\n"
"0 … 2**20 and floor within ±2**62 (ValueError otherwise).");

static PyObject *
programme(PyObject *module, PyObject *args)
{
    PyObject *forced, *optional, *jf, *jo, *pinned, *target, *floor, *deadline;
    if (!PyArg_ParseTuple(args, "OOOOOOOO:programme", &forced, &optional, &jf, &jo, &pinned,
                          &target, &floor, &deadline))
        return NULL;
    Input in;
    memset(&in, 0, sizeof in);
    if (read_grid(forced, "forced", in.forced) < 0
        || read_grid(optional, "optional", in.optional) < 0
        || read_int(jf, 0, MAX_COUNT, "jf", &in.jf) < 0
        || read_int(jo, 0, MAX_COUNT, "jo", &in.jo) < 0
        || read_row(pinned, "pinned", in.pinned) < 0
        || read_int(target, 0, MAX_TARGET, "target", &in.target) < 0
        || read_int(floor, -MAX_FLOOR, MAX_FLOOR, "floor", &in.floor) < 0)
        return NULL;
    if (deadline != Py_None) {
        in.deadline = PyFloat_AsDouble(deadline);
        if (in.deadline == -1.0 && PyErr_Occurred())
            return NULL;
        in.has_deadline = 1;
    }
    Output *out = PyMem_RawCalloc(1, sizeof(Output));
    if (out == NULL)
        return PyErr_NoMemory();
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = search(&in, out);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    switch (status) {
    case OK:
        result = build_result(out);
        break;
    case NO_TABLE:
        result = Py_NewRef(Py_None);
        break;
    case STOPPED:
        PyErr_SetNone(Stopped);
        break;
    case BAD_INDEX:
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        break;
    default:
        PyErr_NoMemory();
    }
    PyMem_RawFree(out);
    return result;
}

PyDoc_STRVAR(fewest_breaks_doc,
"fewest_breaks(forced, pinned, jf, groups, bound, deadline)\n--\n\n"
"The fewest groups (staged melds) to break so that every forced tile and joker, and the\n"
"tiles of the broken groups, make valid melds (arrange, TIL-20). groups: (colour or -1\n"
"for a set, owed free jokers, set jokers pinned to its number, cells) with cells a\n"
"sequence of (colour, number) pairs, one per numbered tile or kept run joker. Returns\n"
"(found, work): found is None when no choice of at most bound groups does, otherwise\n"
"(breaks, broken group indices); work counts the states stored (a measure of the\n"
"effort that is the same on every machine).\n"
"ValueError when the groups do not fit the programme's slots (the caller searches\n"
"another way); Stopped once time.monotonic() passes deadline.");

static PyObject *
fewest_breaks(PyObject *module, PyObject *args)
{
    PyObject *forced, *pinned, *jf, *groups, *bound, *deadline;
    if (!PyArg_ParseTuple(args, "OOOOOO:fewest_breaks", &forced, &pinned, &jf, &groups,
                          &bound, &deadline))
        return NULL;
    BreakInput *in = PyMem_RawCalloc(1, sizeof(BreakInput));
    if (in == NULL)
        return PyErr_NoMemory();
    PyObject *result = NULL, *fast = NULL;
    if (read_grid(forced, "forced", in->forced) < 0 || read_row(pinned, "pinned", in->pinned) < 0
        || read_int(jf, 0, 3, "jf", &in->jf) < 0
        || read_int(bound, 0, MAX_GROUPS, "bound", &in->bound) < 0)
        goto done;
    if (deadline != Py_None) {
        in->deadline = PyFloat_AsDouble(deadline);
        if (in->deadline == -1.0 && PyErr_Occurred())
            goto done;
        in->has_deadline = 1;
    }
    fast = PySequence_Fast(groups, "groups must be a sequence");
    if (fast == NULL)
        goto done;
    if (PySequence_Fast_GET_SIZE(fast) > MAX_GROUPS) {
        PyErr_SetString(PyExc_ValueError, "too many groups");
        goto done;
    }
    in->ngroups = (int)PySequence_Fast_GET_SIZE(fast);
    for (int i = 0; i < in->ngroups; i++) {
        BreakMeld *g = &in->g[i];
        long long colour, owed, pins;
        PyObject *cells;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "LLLO:group", &colour,
                              &owed, &pins, &cells))
            goto done;
        if (colour < -1 || colour > 3 || owed < 0 || owed > 3 || pins < 0 || pins > 3) {
            PyErr_SetString(PyExc_ValueError, "a group out of range");
            goto done;
        }
        g->colour = (int)colour;
        g->owed = (int)owed;
        g->pins = (int)pins;
        g->first = 14;
        g->last = 0;
        PyObject *cell_list = PySequence_Fast(cells, "cells must be a sequence");
        if (cell_list == NULL)
            goto done;
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(cell_list); k++) {
            long long c, v;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(cell_list, k), "LL:cell", &c, &v)
                || c < 0 || c > 3 || v < 1 || v > 13
                || (colour >= 0 && c != colour)) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a cell out of range");
                Py_DECREF(cell_list);
                goto done;
            }
            g->cells[c][v]++;
            g->first = v < g->first ? (int)v : g->first;
            g->last = v > g->last ? (int)v : g->last;
        }
        Py_DECREF(cell_list);
        if (g->first > g->last) {
            PyErr_SetString(PyExc_ValueError, "a group without cells");
            goto done;
        }
    }
    if (prepare_breaks(in) != OK) {
        PyErr_SetString(PyExc_ValueError, "the groups do not fit the programme's slots");
        goto done;
    }
    uint8_t broken[MAX_GROUPS];
    int64_t breaks = 0, work = 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = breaks_search(in, broken, &breaks, &work);
    Py_END_ALLOW_THREADS
    if (status == OK) {
        PyObject *which = PyList_New(0);
        if (which == NULL)
            goto done;
        for (int i = 0; i < in->ngroups; i++)
            if (broken[i]) {
                PyObject *n = PyLong_FromLong(i);
                if (n == NULL || PyList_Append(which, n) < 0) {
                    Py_XDECREF(n);
                    Py_DECREF(which);
                    goto done;
                }
                Py_DECREF(n);
            }
        result = Py_BuildValue("((LN)L)", (long long)breaks, which, (long long)work);
    } else if (status == NO_TABLE) {
        result = Py_BuildValue("(OL)", Py_None, (long long)work);
    } else if (status == STOPPED) {
        PyErr_SetNone(Stopped);
    } else if (status == BAD_INDEX) {
        PyErr_SetString(PyExc_ValueError, "a state out of range");
    } else {
        PyErr_NoMemory();
    }
done:
    Py_XDECREF(fast);
    PyMem_RawFree(in);
    return result;
}

PyDoc_STRVAR(tables_doc,
"tables() -> (step, open_short, dominates)\n--\n\n"
"The run-state tables built here, to compare with tilesolver's _STEP, _OPEN_SHORT and\n"
"_DOMINATES.");

static PyObject *
tables(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyObject *step = PyList_New(NSTATES), *open_short = PyList_New(NSTATES),
             *dominates = PyList_New(NSTATES);
    if (step == NULL || open_short == NULL || dominates == NULL)
        goto fail;
    for (int i = 0; i < NSTATES; i++) {
        PyObject *row = PyList_New(10);
        if (row == NULL)
            goto fail;
        PyList_SET_ITEM(step, i, row);
        for (int x = 0; x < 10; x++) {
            PyObject *n = PyLong_FromLong(STEP[i][x]);
            if (n == NULL)
                goto fail;
            PyList_SET_ITEM(row, x, n);
        }
        PyList_SET_ITEM(open_short, i, PyBool_FromLong(OPEN_SHORT[i]));
        row = PyList_New(NSTATES);
        if (row == NULL)
            goto fail;
        PyList_SET_ITEM(dominates, i, row);
        for (int j = 0; j < NSTATES; j++)
            PyList_SET_ITEM(row, j, PyBool_FromLong(DOMINATES[i][j]));
    }
    return Py_BuildValue("(NNN)", step, open_short, dominates);
fail:
    Py_XDECREF(step);
    Py_XDECREF(open_short);
    Py_XDECREF(dominates);
    return NULL;
}

static PyMethodDef methods[] = {
    {"programme", programme, METH_VARARGS, programme_doc},
    {"tables", tables, METH_NOARGS, tables_doc},
    {"fewest_breaks", fewest_breaks, METH_VARARGS, fewest_breaks_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef tilecore_module = {
    PyModuleDef_HEAD_INIT,
    "bot.engine._tilecore",
    "The dynamic programme of bot.engine.tilesolver in C (same results as the Python core).",
    -1,
    methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__tilecore(void)
{
    build_tables();
    PyObject *module = PyModule_Create(&tilecore_module);
    if (module == NULL)
        return NULL;
    Stopped = PyErr_NewExceptionWithDoc("bot.engine._tilecore.Stopped",
                                        "The deadline passed (tilesolver raises SearchStopped).",
                                        NULL, NULL);
    if (Stopped == NULL || PyModule_AddObjectRef(module, "Stopped", Stopped) < 0) {
        Py_XDECREF(Stopped);
        Stopped = NULL;
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
