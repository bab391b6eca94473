/* pickle: the plain-data pickle reader (see pickle.h). One opcode table
 * drives both passes: the argument's kind says what to skip in the first
 * (memo census) and what to read in the second (build).
 *
 * Memory: two bump arenas and no per-object free. Objects are made in the
 * scratch arena. One that can outlive the item it belongs to — a memo
 * entry the census says is fetched again, and whatever is put into such an
 * object — is moved to the keep arena (a deep copy: a scratch object has
 * one referrer, the stack or its container, so the copy is a tree).
 * Keep objects only ever point at keep objects. So once the stack is
 * popped back below a slot (an item consumed, a POP), everything the
 * scratch arena handed out since that slot was filled is unreachable and
 * the arena rolls back to there: a trace entry costs a few pointer bumps
 * and no frees. Both arenas go with the document. */
#include "lib/pickle.h"
#include "lib/textenc.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PK_BUF_SIZE (256u << 10)
#define PK_MAX_MEMO (1u << 28)   /* memo indices a pickle may use */
#define PK_MAX_STACK (1u << 24)  /* items on the unpickler's stack */

enum pk_arg { ARG_NONE, ARG_U1, ARG_U2, ARG_I4, ARG_U4, ARG_U8, ARG_F8, ARG_LEN1, ARG_LEN4,
              ARG_LEN8, ARG_REFUSED };

struct reader;
typedef int op_fn(struct reader *r, uint64_t arg);

struct op {
    unsigned char code;
    const char *name;
    enum pk_arg arg;
    op_fn *run;          /* second pass; NULL for refused ones */
    const char *refusal; /* why, for refused ones */
};

struct memo_slot {
    uint64_t key; /* index + 1; 0 empty */
    struct pk_obj *obj;
};

/* An arena: chunks on a stack; a position is a count of bytes handed out
 * since the arena began (a chunk's start plus its used bytes). */
#define PK_CHUNK (64u << 10)

struct pk_chunk {
    struct pk_chunk *prev;
    uint64_t start;   /* position of data[0] */
    size_t size, used; /* of data */
    max_align_t data[];
};

struct pk_arena {
    struct pk_chunk *top;
    struct pk_chunk *spare; /* PK_CHUNK-sized chunks rolled back, for reuse */
};

struct pk_pool {
    struct pk_arena scratch, keep;
    struct pk_obj singletons[3]; /* None, False, True */
    struct pk_obj *small_ints[256];
};

struct reader {
    const struct pickle_opts *o;
    struct oomlab_err *err;
    struct pickle_doc *doc;
    struct pk_pool *pool;
    unsigned char *buf;
    size_t len, pos;
    uint64_t base;      /* input offset of buf[0] */
    uint64_t op_offset; /* of the opcode being run */
    const struct op *op;
    bool eof;
    int pass;
    size_t mem, limit;
    unsigned max_depth;
    struct pk_obj **stack;
    uint64_t *filled; /* per stack slot: the scratch position when it was filled */
    size_t sp, scap;
    size_t marks[4 * PICKLE_MAX_DEPTH + 4];
    size_t nmarks, max_marks;
    uint64_t *assigned, *wanted; /* bitsets over memo indices */
    size_t memo_words;
    uint64_t memo_count;
    struct memo_slot *memo;
    size_t memo_cap, memo_used;
    bool stopped;
};

static int fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return oomlab_err_set(r->err, "at byte %llu (%s): %s", (unsigned long long)r->op_offset,
                          r->op ? r->op->name : "start", what);
}

/* ---- memory ---- */

static bool charge(struct reader *r, size_t size)
{
    if (size > r->limit || r->mem > r->limit - size) {
        fail(r, "over the memory limit of %zu bytes (%zu held): not a plain snapshot, or "
                "raise --memory-limit", r->limit, r->mem);
        return false;
    }
    r->mem += size;
    if (r->mem > r->doc->peak_memory) r->doc->peak_memory = r->mem;
    return true;
}

static uint64_t arena_pos(const struct pk_arena *a)
{
    return a->top ? a->top->start + a->top->used : 0;
}

/* size bytes (8-aligned) from a, or NULL with the error set. */
static void *arena_alloc(struct reader *r, struct pk_arena *a, size_t size)
{
    size = (size + 7) & ~(size_t)7;
    struct pk_chunk *c = a->top;
    if (c && c->size - c->used >= size) {
        void *p = (char *)c->data + c->used;
        c->used += size;
        return p;
    }
    if (size <= PK_CHUNK && a->spare) {
        c = a->spare;
        a->spare = c->prev;
    } else {
        size_t want = size > PK_CHUNK ? size : PK_CHUNK;
        if (want > SIZE_MAX - sizeof *c || !charge(r, sizeof *c + want)) return NULL;
        if (!(c = malloc(sizeof *c + want))) {
            r->mem -= sizeof *c + want;
            fail(r, "out of memory (%zu bytes held)", r->mem);
            return NULL;
        }
        c->size = want;
    }
    c->start = arena_pos(a);
    c->used = size;
    c->prev = a->top;
    a->top = c;
    return c->data;
}

/* Hand back everything a gave out from position pos on. */
static void arena_rollback(struct reader *r, struct pk_arena *a, uint64_t pos)
{
    while (a->top && a->top->start >= pos) {
        struct pk_chunk *c = a->top;
        a->top = c->prev;
        if (c->size == PK_CHUNK) {
            c->prev = a->spare;
            a->spare = c;
        } else {
            r->mem -= sizeof *c + c->size;
            free(c);
        }
    }
    if (a->top && pos >= a->top->start && pos - a->top->start < a->top->used)
        a->top->used = (size_t)(pos - a->top->start);
}

static void arena_free(struct pk_arena *a)
{
    for (int list = 0; list < 2; list++)
        for (struct pk_chunk *c = list ? a->spare : a->top, *prev; c; c = prev) {
            prev = c->prev;
            free(c);
        }
    a->top = a->spare = NULL;
}

/* Grow a malloc'd array (elements of size elem) to hold need; 0 or -1. */
static int grow_raw(struct reader *r, void **items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t ncap = *cap ? *cap : 64;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem) return fail(r, "too many items (%llu)", (unsigned long long)need);
        ncap *= 2;
    }
    if (!charge(r, (ncap - *cap) * elem)) return -1;
    void *p = realloc(*items, ncap * elem);
    if (!p) {
        r->mem -= (ncap - *cap) * elem;
        return fail(r, "out of memory (%zu bytes held)", r->mem);
    }
    *items = p;
    *cap = ncap;
    return 0;
}

static bool is_seq(const struct pk_obj *o)
{
    return o->type == PK_LIST || o->type == PK_TUPLE || o->type == PK_DICT;
}

static struct pk_obj *new_obj(struct reader *r, enum pk_type type)
{
    struct pk_obj *o = arena_alloc(r, &r->pool->scratch, sizeof *o);
    if (!o) return NULL;
    memset(o, 0, sizeof *o);
    o->type = type;
    return o;
}

/* A keep object of type, for values shared by every reference (None,
 * booleans, small ints). */
static struct pk_obj *kept_scalar(struct reader *r, enum pk_type type)
{
    struct pk_obj *o = arena_alloc(r, &r->pool->keep, sizeof *o);
    if (!o) return NULL;
    memset(o, 0, sizeof *o);
    o->type = type;
    o->keep = true;
    return o;
}

/* The keep twin of o (o itself when it is one already); NULL with the
 * error set. Recursion is bounded by the nesting limit. */
static struct pk_obj *promote(struct reader *r, struct pk_obj *o)
{
    if (o->keep) return o;
    bool text = o->type == PK_STR || o->type == PK_BYTES;
    size_t extra = text ? o->u.str.len + 1 : 0;
    struct pk_obj *k = arena_alloc(r, &r->pool->keep, sizeof *k + extra);
    if (!k) return NULL;
    *k = *o;
    k->keep = true;
    if (text) {
        k->u.str.s = (char *)(k + 1);
        memcpy(k->u.str.s, o->u.str.s, extra);
    } else if (is_seq(o)) {
        k->u.seq.items = NULL;
        k->u.seq.cap = o->u.seq.n;
        if (o->u.seq.n) {
            k->u.seq.items = arena_alloc(r, &r->pool->keep, o->u.seq.n * sizeof *k->u.seq.items);
            if (!k->u.seq.items) return NULL;
        }
        for (size_t i = 0; i < o->u.seq.n; i++)
            if (!(k->u.seq.items[i] = promote(r, o->u.seq.items[i]))) return NULL;
    }
    return k;
}
/* ---- input ---- */

static int refill(struct reader *r, size_t need)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->base += r->pos;
        r->len -= r->pos;
        r->pos = 0;
    }
    while (r->len < need && !r->eof) {
        size_t got = 0;
        if (r->o->read(r->o->src, r->buf + r->len, PK_BUF_SIZE - r->len, &got, r->err) < 0)
            return -1;
        if (got == 0) r->eof = true;
        r->len += got;
    }
    return 0;
}

static uint64_t offset(const struct reader *r)
{
    return r->base + r->pos;
}

/* Copy (dest) or skip (dest NULL) n bytes of payload. */
static int payload(struct reader *r, char *dest, uint64_t n)
{
    while (n > 0) {
        if (r->pos == r->len && refill(r, 1) < 0) return -1;
        if (r->pos == r->len)
            return fail(r, "the file ends inside a string or bytes (truncated at byte %llu)", (unsigned long long)(r->base + r->len));
        size_t chunk = r->len - r->pos;
        if (chunk > n) chunk = (size_t)n;
        if (dest) memcpy(dest, r->buf + r->pos, chunk), dest += chunk;
        r->pos += chunk;
        n -= chunk;
    }
    return 0;
}

static uint64_t le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;) v = v << 8 | p[i];
    return v;
}

/* ---- the stack ---- */

/* Put o at the top; pos: the scratch position its subtree starts at. */
static int push_at(struct reader *r, struct pk_obj *o, uint64_t pos)
{
    if (!o) return -1;
    if (r->sp == PK_MAX_STACK)
        return fail(r, "more than %llu items on the stack", (unsigned long long)(PK_MAX_STACK));
    if (r->sp == r->scap) {
        size_t cap = r->scap;
        if (grow_raw(r, (void **)&r->stack, &cap, r->sp + 1, sizeof *r->stack) < 0) return -1;
        cap = r->scap;
        if (grow_raw(r, (void **)&r->filled, &cap, r->sp + 1, sizeof *r->filled) < 0) return -1;
        r->scap = cap;
    }
    r->filled[r->sp] = pos;
    r->stack[r->sp++] = o;
    return 0;
}

static int push(struct reader *r, struct pk_obj *o)
{
    return push_at(r, o, arena_pos(&r->pool->scratch));
}

/* A new scratch object of type on the top, or NULL. */
static struct pk_obj *push_fresh(struct reader *r, enum pk_type type)
{
    uint64_t pos = arena_pos(&r->pool->scratch);
    struct pk_obj *o = new_obj(r, type);
    return push_at(r, o, pos) < 0 ? NULL : o;
}

/* The stack was popped to sp from above it: what the scratch arena gave
 * out since slot sp was filled is unreachable (see the top of this file).
 * Only after a real pop: otherwise slot sp's position is stale. */
static void popped(struct reader *r)
{
    if (r->sp < r->scap) arena_rollback(r, &r->pool->scratch, r->filled[r->sp]);
}

static size_t top_mark(const struct reader *r)
{
    return r->nmarks ? r->marks[r->nmarks - 1] : 0;
}

static int need_items(struct reader *r, size_t n)
{
    if (r->sp - top_mark(r) < n)
        return fail(r, "the stack holds too few items (needs %llu)", (unsigned long long)(n));
    return 0;
}

static int pop_mark(struct reader *r, size_t *mark)
{
    if (!r->nmarks) return fail(r, "no MARK to close");
    *mark = r->marks[--r->nmarks];
    return 0;
}

/* Put item into container (list/tuple/dict storage); into a keep one as
 * its keep twin. */
static int add_item(struct reader *r, struct pk_obj *c, struct pk_obj *item)
{
    if (item->depth + 1u > c->depth) c->depth = (uint16_t)(item->depth + 1);
    if (c->depth > r->max_depth)
        return fail(r, "nested deeper than %llu levels (or a cycle)", (unsigned long long)(r->max_depth));
    if (c->keep && !(item = promote(r, item))) return -1;
    if (c->u.seq.n == c->u.seq.cap) {
        size_t ncap = c->u.seq.cap ? c->u.seq.cap * 2 : 8;
        if (ncap > SIZE_MAX / 2 / sizeof *c->u.seq.items)
            return fail(r, "too many items (%zu)", c->u.seq.n);
        struct pk_obj **items = arena_alloc(r, c->keep ? &r->pool->keep : &r->pool->scratch,
                                            ncap * sizeof *items);
        if (!items) return -1;
        if (c->u.seq.n) memcpy(items, c->u.seq.items, c->u.seq.n * sizeof *items);
        c->u.seq.items = items; /* the old array stays in its arena until it goes */
        c->u.seq.cap = ncap;
    }
    c->u.seq.items[c->u.seq.n++] = item;
    return 0;
}

/* ---- opcodes: scalars ---- */

static int op_none(struct reader *r, uint64_t arg)
{
    (void)arg;
    return push(r, &r->pool->singletons[0]);
}

static int op_true(struct reader *r, uint64_t arg)
{
    (void)arg;
    return push(r, &r->pool->singletons[2]);
}

static int op_false(struct reader *r, uint64_t arg)
{
    (void)arg;
    return push(r, &r->pool->singletons[1]);
}

static int push_int(struct reader *r, int64_t v)
{
    bool small = v >= 0 && v < 256;
    struct pk_obj *o = small ? r->pool->small_ints[v] : NULL;
    if (o) return push(r, o);
    if (!small) {
        if (!(o = push_fresh(r, PK_INT))) return -1;
        o->u.i = v;
        return 0;
    }
    if (!(o = kept_scalar(r, PK_INT))) return -1;
    o->u.i = v;
    r->pool->small_ints[v] = o;
    return push(r, o);
}

static int op_uint(struct reader *r, uint64_t arg)
{
    return push_int(r, (int64_t)arg);
}

static int op_int4(struct reader *r, uint64_t arg)
{
    return push_int(r, (int64_t)(int32_t)(uint32_t)arg);
}

/* LONG1/LONG4: little-endian two's complement of arg bytes. */
static int op_long(struct reader *r, uint64_t n)
{
    unsigned char b[9] = {0};
    if (n > 9) {
        if (payload(r, NULL, n) < 0) return -1; /* beyond 64 bits: kept as a big int */
        return push_fresh(r, PK_BIGINT) ? 0 : -1;
    }
    if (payload(r, (char *)b, n) < 0) return -1;
    if (n == 0) return push_int(r, 0);
    bool neg = b[n - 1] & 0x80;
    bool fits = n < 9 || (b[8] == 0 && !(b[7] & 0x80)) || (b[8] == 0xff && (b[7] & 0x80));
    if (!fits) return push_fresh(r, PK_BIGINT) ? 0 : -1;
    uint64_t v = le(b, n < 8 ? n : 8);
    if (neg && n < 8) v |= ~(uint64_t)0 << (8 * n);
    return push_int(r, (int64_t)v);
}

static int op_float(struct reader *r, uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    struct pk_obj *o = push_fresh(r, PK_FLOAT);
    if (!o) return -1;
    o->u.f = d;
    return 0;
}

/* The object and its text in one piece. */
static int push_text(struct reader *r, enum pk_type type, uint64_t n)
{
    if (n >= r->limit) return fail(r, "a string of %llu bytes is over the memory limit", (unsigned long long)(n));
    uint64_t pos = arena_pos(&r->pool->scratch);
    struct pk_obj *o = arena_alloc(r, &r->pool->scratch, sizeof *o + (size_t)n + 1);
    if (!o) return -1;
    memset(o, 0, sizeof *o);
    o->type = type;
    o->u.str.s = (char *)(o + 1);
    o->u.str.len = (size_t)n;
    o->u.str.s[n] = '\0';
    if (payload(r, o->u.str.s, n) < 0) return -1;
    return push_at(r, o, pos);
}

static int op_str(struct reader *r, uint64_t n)
{
    return push_text(r, PK_STR, n);
}

static int op_bytes(struct reader *r, uint64_t n)
{
    return push_text(r, PK_BYTES, n);
}

/* ---- opcodes: containers ---- */

static int op_empty_list(struct reader *r, uint64_t arg)
{
    (void)arg;
    return push_fresh(r, PK_LIST) ? 0 : -1;
}

static int op_empty_dict(struct reader *r, uint64_t arg)
{
    (void)arg;
    return push_fresh(r, PK_DICT) ? 0 : -1;
}

static int op_empty_tuple(struct reader *r, uint64_t arg)
{
    (void)arg;
    return push_fresh(r, PK_TUPLE) ? 0 : -1;
}

static int op_mark(struct reader *r, uint64_t arg)
{
    (void)arg;
    if (r->nmarks == r->max_marks)
        return fail(r, "more than %llu open MARKs (nested too deep)", (unsigned long long)(r->max_marks));
    r->marks[r->nmarks++] = r->sp;
    return 0;
}

/* Items stack[from..sp) into a new container of type, popped; it takes
 * slot from, whose subtree starts where its first item's did. */
static int collect(struct reader *r, enum pk_type type, size_t from)
{
    uint64_t pos = from < r->sp ? r->filled[from] : arena_pos(&r->pool->scratch);
    struct pk_obj *c = new_obj(r, type);
    if (!c) return -1;
    if ((r->sp - from) % 2 && type == PK_DICT)
        return fail(r, "a dict needs keys and values in pairs (%llu items)", (unsigned long long)(r->sp - from));
    for (size_t i = from; i < r->sp; i++)
        if (add_item(r, c, r->stack[i]) < 0) return -1;
    r->sp = from;
    return push_at(r, c, pos);
}
static int op_tuple_n(struct reader *r, uint64_t n)
{
    if (need_items(r, (size_t)n) < 0) return -1;
    return collect(r, PK_TUPLE, r->sp - (size_t)n);
}

static int op_tuple1(struct reader *r, uint64_t arg)
{
    (void)arg;
    return op_tuple_n(r, 1);
}

static int op_tuple2(struct reader *r, uint64_t arg)
{
    (void)arg;
    return op_tuple_n(r, 2);
}

static int op_tuple3(struct reader *r, uint64_t arg)
{
    (void)arg;
    return op_tuple_n(r, 3);
}

static int op_tuple_mark(struct reader *r, uint64_t arg)
{
    size_t m = 0;
    (void)arg;
    return pop_mark(r, &m) < 0 ? -1 : collect(r, PK_TUPLE, m);
}

static int op_list_mark(struct reader *r, uint64_t arg)
{
    size_t m = 0;
    (void)arg;
    return pop_mark(r, &m) < 0 ? -1 : collect(r, PK_LIST, m);
}

static int op_dict_mark(struct reader *r, uint64_t arg)
{
    size_t m = 0;
    (void)arg;
    return pop_mark(r, &m) < 0 ? -1 : collect(r, PK_DICT, m);
}

/* The container under stack[from]: what APPEND(S)/SETITEM(S) fill. */
static struct pk_obj *target(struct reader *r, size_t from, enum pk_type type)
{
    struct pk_obj *c = from > 0 ? r->stack[from - 1] : NULL;
    if (!c || c->type != type || (from > 0 && r->nmarks && r->marks[r->nmarks - 1] >= from)) {
        fail(r, "nothing to add to: needs a %s below the items", type == PK_LIST ? "list" : "dict");
        return NULL;
    }
    return c;
}

static int append_items(struct reader *r, size_t from)
{
    struct pk_obj *list = target(r, from, PK_LIST);
    if (!list) return -1;
    size_t added = 0, n = r->sp - from;
    for (size_t i = from; i < r->sp; i++) {
        struct pk_obj *item = r->stack[i];
        bool consumed = false;
        if (r->o->on_item &&
            r->o->on_item(r->o->ctx, list, list->u.seq.appended, item, &consumed, r->err) < 0)
            return -1;
        list->u.seq.appended++;
        if (consumed) continue;
        if (add_item(r, list, item) < 0) return -1;
        added++;
    }
    r->sp = from;
    if (n && (!added || list->keep)) popped(r); /* the items are gone, or copied */
    return 0;
}

static int op_append(struct reader *r, uint64_t arg)
{
    (void)arg;
    if (need_items(r, 1) < 0) return -1;
    return append_items(r, r->sp - 1);
}

static int op_appends(struct reader *r, uint64_t arg)
{
    size_t m = 0;
    (void)arg;
    return pop_mark(r, &m) < 0 ? -1 : append_items(r, m);
}

static bool hashable(const struct pk_obj *o)
{
    return o->type != PK_LIST && o->type != PK_DICT;
}

static int set_items(struct reader *r, size_t from)
{
    struct pk_obj *dict = target(r, from, PK_DICT);
    if (!dict) return -1;
    if ((r->sp - from) % 2)
        return fail(r, "keys and values come in pairs (%llu items)", (unsigned long long)(r->sp - from));
    for (size_t i = from; i < r->sp; i++) {
        if ((i - from) % 2 == 0 && !hashable(r->stack[i]))
            return fail(r, "a %s cannot be a dict key", pk_type_name(r->stack[i]->type));
        if (add_item(r, dict, r->stack[i]) < 0) return -1;
    }
    bool any = r->sp > from;
    r->sp = from;
    if (any && dict->keep) popped(r);
    return 0;
}

static int op_setitem(struct reader *r, uint64_t arg)
{
    (void)arg;
    if (need_items(r, 2) < 0) return -1;
    return set_items(r, r->sp - 2);
}

static int op_setitems(struct reader *r, uint64_t arg)
{
    size_t m = 0;
    (void)arg;
    return pop_mark(r, &m) < 0 ? -1 : set_items(r, m);
}

static int op_pop(struct reader *r, uint64_t arg)
{
    (void)arg;
    if (r->nmarks && r->marks[r->nmarks - 1] == r->sp) {
        r->nmarks--; /* POP of a MARK, as Python does */
        return 0;
    }
    if (r->sp == 0) return fail(r, "POP of an empty stack");
    r->sp--;
    popped(r);
    return 0;
}

static int op_pop_mark(struct reader *r, uint64_t arg)
{
    size_t m = 0;
    (void)arg;
    if (pop_mark(r, &m) < 0) return -1;
    if (m < r->sp) {
        r->sp = m;
        popped(r);
    }
    return 0;
}

/* ---- memo ---- */

static bool bit(const uint64_t *set, size_t words, uint64_t i)
{
    return i / 64 < words && (set[i / 64] >> (i % 64) & 1);
}

static int set_bit(struct reader *r, uint64_t **set, uint64_t i)
{
    if (i >= PK_MAX_MEMO) return fail(r, "memo index %llu is beyond the limit", (unsigned long long)(i));
    if (i / 64 >= r->memo_words) { /* both bitsets keep one size: grow them together */
        size_t words = r->memo_words ? r->memo_words : 64, old = r->memo_words;
        while (words <= i / 64) words *= 2;
        size_t cap = old;
        if (grow_raw(r, (void **)&r->assigned, &cap, words, sizeof *r->assigned) < 0) return -1;
        cap = old;
        if (grow_raw(r, (void **)&r->wanted, &cap, words, sizeof *r->wanted) < 0) return -1;
        memset(r->assigned + old, 0, (words - old) * sizeof *r->assigned);
        memset(r->wanted + old, 0, (words - old) * sizeof *r->wanted);
        r->memo_words = words;
    }
    (*set)[i / 64] |= (uint64_t)1 << (i % 64);
    return 0;
}

static struct memo_slot *memo_find(struct reader *r, uint64_t index)
{
    if (!r->memo_cap) return NULL;
    size_t mask = r->memo_cap - 1, h = (size_t)(index * 0x9E3779B97F4A7C15ull) & mask;
    while (r->memo[h].key && r->memo[h].key != index + 1) h = (h + 1) & mask;
    return &r->memo[h];
}

static int memo_grow(struct reader *r)
{
    size_t ncap = r->memo_cap ? r->memo_cap * 2 : 1024, ocap = r->memo_cap;
    if (ncap > SIZE_MAX / sizeof *r->memo || !charge(r, ncap * sizeof *r->memo)) return -1;
    struct memo_slot *old = r->memo, *n = calloc(ncap, sizeof *n);
    if (!n) return fail(r, "out of memory (%zu bytes held)", r->mem);
    r->memo = n;
    r->memo_cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].key) *memo_find(r, old[i].key - 1) = old[i];
    free(old);
    r->mem -= ocap * sizeof *old;
    return 0;
}

/* Store the top under index: counted in both passes; kept only when the
 * first pass saw it fetched, and then as its keep twin (it may be fetched
 * long after the item it came with is gone). */
static int memo_put(struct reader *r, uint64_t index)
{
    if (r->pass == 2 && (r->sp == 0 || r->sp == top_mark(r))) return fail(r, "nothing to memoize");
    if (!bit(r->assigned, r->memo_words, index)) {
        if (set_bit(r, &r->assigned, index) < 0) return -1;
        r->memo_count++;
    }
    if (r->pass == 1 || !bit(r->wanted, r->memo_words, index)) return 0;
    if ((r->memo_used + 1) * 2 > r->memo_cap && memo_grow(r) < 0) return -1;
    struct pk_obj *k = promote(r, r->stack[r->sp - 1]);
    if (!k) return -1;
    r->stack[r->sp - 1] = k;
    struct memo_slot *s = memo_find(r, index);
    if (!s->key) r->memo_used++;
    s->key = index + 1;
    s->obj = k;
    return 0;
}

static int op_memoize(struct reader *r, uint64_t arg)
{
    (void)arg;
    return memo_put(r, r->memo_count);
}

static int op_put(struct reader *r, uint64_t index)
{
    return memo_put(r, index);
}

static int op_get(struct reader *r, uint64_t index)
{
    if (r->pass == 1) return set_bit(r, &r->wanted, index);
    struct memo_slot *s = memo_find(r, index);
    if (!s || !s->key) return fail(r, "memo entry %llu is fetched before it is stored", (unsigned long long)(index));
    return push(r, s->obj);
}

/* ---- framing ---- */

static int op_proto(struct reader *r, uint64_t v)
{
    if (v < 2 || v > 5)
        return fail(r, "protocol %llu: only protocols 2 to 5 are read", (unsigned long long)(v));
    r->doc->protocol = (int)v;
    return 0;
}

static int op_frame(struct reader *r, uint64_t n)
{
    (void)n; /* frames only group opcodes for Python's buffering; read straight through */
    (void)r;
    return 0;
}

static int op_stop(struct reader *r, uint64_t arg)
{
    (void)arg;
    if (r->pass == 2 && (r->sp == 0 || r->sp == top_mark(r)))
        return fail(r, "STOP with nothing on the stack");
    r->stopped = true;
    return 0;
}

#define CALLS "names or calls Python code: refused (oomlab reads plain data and executes nothing)"
#define TEXT "is a protocol 0/1 text opcode: not read (snapshots use protocol 2 or later)"

static const struct op ops[] = {
    {0x80, "PROTO", ARG_U1, op_proto, NULL},
    {0x95, "FRAME", ARG_U8, op_frame, NULL},
    {'.', "STOP", ARG_NONE, op_stop, NULL},
    {'(', "MARK", ARG_NONE, op_mark, NULL},
    {'0', "POP", ARG_NONE, op_pop, NULL},
    {'1', "POP_MARK", ARG_NONE, op_pop_mark, NULL},
    {'N', "NONE", ARG_NONE, op_none, NULL},
    {0x88, "NEWTRUE", ARG_NONE, op_true, NULL},
    {0x89, "NEWFALSE", ARG_NONE, op_false, NULL},
    {'J', "BININT", ARG_I4, op_int4, NULL},
    {'K', "BININT1", ARG_U1, op_uint, NULL},
    {'M', "BININT2", ARG_U2, op_uint, NULL},
    {0x8a, "LONG1", ARG_LEN1, op_long, NULL},
    {0x8b, "LONG4", ARG_LEN4, op_long, NULL},
    {'G', "BINFLOAT", ARG_F8, op_float, NULL},
    {0x8c, "SHORT_BINUNICODE", ARG_LEN1, op_str, NULL},
    {'X', "BINUNICODE", ARG_LEN4, op_str, NULL},
    {0x8d, "BINUNICODE8", ARG_LEN8, op_str, NULL},
    {'U', "SHORT_BINSTRING", ARG_LEN1, op_bytes, NULL},
    {'T', "BINSTRING", ARG_LEN4, op_bytes, NULL},
    {'C', "SHORT_BINBYTES", ARG_LEN1, op_bytes, NULL},
    {'B', "BINBYTES", ARG_LEN4, op_bytes, NULL},
    {0x8e, "BINBYTES8", ARG_LEN8, op_bytes, NULL},
    {0x96, "BYTEARRAY8", ARG_LEN8, op_bytes, NULL},
    {']', "EMPTY_LIST", ARG_NONE, op_empty_list, NULL},
    {'}', "EMPTY_DICT", ARG_NONE, op_empty_dict, NULL},
    {')', "EMPTY_TUPLE", ARG_NONE, op_empty_tuple, NULL},
    {'a', "APPEND", ARG_NONE, op_append, NULL},
    {'e', "APPENDS", ARG_NONE, op_appends, NULL},
    {'s', "SETITEM", ARG_NONE, op_setitem, NULL},
    {'u', "SETITEMS", ARG_NONE, op_setitems, NULL},
    {'l', "LIST", ARG_NONE, op_list_mark, NULL},
    {'d', "DICT", ARG_NONE, op_dict_mark, NULL},
    {'t', "TUPLE", ARG_NONE, op_tuple_mark, NULL},
    {0x85, "TUPLE1", ARG_NONE, op_tuple1, NULL},
    {0x86, "TUPLE2", ARG_NONE, op_tuple2, NULL},
    {0x87, "TUPLE3", ARG_NONE, op_tuple3, NULL},
    {0x94, "MEMOIZE", ARG_NONE, op_memoize, NULL},
    {'q', "BINPUT", ARG_U1, op_put, NULL},
    {'r', "LONG_BINPUT", ARG_U4, op_put, NULL},
    {'h', "BINGET", ARG_U1, op_get, NULL},
    {'j', "LONG_BINGET", ARG_U4, op_get, NULL},
    {'c', "GLOBAL", ARG_REFUSED, NULL, CALLS},
    {0x93, "STACK_GLOBAL", ARG_REFUSED, NULL, CALLS},
    {'R', "REDUCE", ARG_REFUSED, NULL, CALLS},
    {'b', "BUILD", ARG_REFUSED, NULL, CALLS},
    {'i', "INST", ARG_REFUSED, NULL, CALLS},
    {'o', "OBJ", ARG_REFUSED, NULL, CALLS},
    {0x81, "NEWOBJ", ARG_REFUSED, NULL, CALLS},
    {0x92, "NEWOBJ_EX", ARG_REFUSED, NULL, CALLS},
    {0x82, "EXT1", ARG_REFUSED, NULL, CALLS},
    {0x83, "EXT2", ARG_REFUSED, NULL, CALLS},
    {0x84, "EXT4", ARG_REFUSED, NULL, CALLS},
    {'P', "PERSID", ARG_REFUSED, NULL, CALLS},
    {'Q', "BINPERSID", ARG_REFUSED, NULL, CALLS},
    {0x97, "NEXT_BUFFER", ARG_REFUSED, NULL, "is an out-of-band buffer: not read"},
    {0x98, "READONLY_BUFFER", ARG_REFUSED, NULL, "is an out-of-band buffer: not read"},
    {0x8f, "EMPTY_SET", ARG_REFUSED, NULL, "builds a set: not read (snapshots hold none)"},
    {0x90, "ADDITEMS", ARG_REFUSED, NULL, "builds a set: not read (snapshots hold none)"},
    {0x91, "FROZENSET", ARG_REFUSED, NULL, "builds a set: not read (snapshots hold none)"},
    {'2', "DUP", ARG_REFUSED, NULL, "is never written by pickle: not read"},
    {'I', "INT", ARG_REFUSED, NULL, TEXT},
    {'L', "LONG", ARG_REFUSED, NULL, TEXT},
    {'S', "STRING", ARG_REFUSED, NULL, TEXT},
    {'V', "UNICODE", ARG_REFUSED, NULL, TEXT},
    {'F', "FLOAT", ARG_REFUSED, NULL, TEXT},
    {'g', "GET", ARG_REFUSED, NULL, TEXT},
    {'p', "PUT", ARG_REFUSED, NULL, TEXT},
};

static const struct op *op_table[256];
static bool census_op[256]; /* run in the first pass too (memo, framing) */

static void build_table(void)
{
    if (op_table[0x80]) return;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        const struct op *op = &ops[i];
        op_table[op->code] = op;
        census_op[op->code] = op->run == op_get || op->run == op_put || op->run == op_memoize ||
                              op->run == op_proto || op->run == op_stop;
    }
}

/* The opcode's argument at p: an integer, or a payload's length (the
 * payload is left for the handler, or skipped in the first pass). */
static uint64_t decode_arg(enum pk_arg kind, const unsigned char *p)
{
    uint64_t v = 0;
    switch (kind) {
    case ARG_U1:
    case ARG_LEN1: return p[0];
    case ARG_U2: return le(p, 2);
    case ARG_I4:
    case ARG_U4:
    case ARG_LEN4: return le(p, 4);
    case ARG_U8:
    case ARG_LEN8: return le(p, 8);
    case ARG_F8: /* big-endian IEEE 754 */
        for (int i = 0; i < 8; i++) v = v << 8 | p[i];
        return v;
    default: return 0;
    }
}

/* Does the file start as text (a log or a config given by mistake)? Its
 * first bytes: UTF-16 after its byte-order mark (lib/textenc's rule, on
 * what is buffered, up to its 4 KiB), or, in up to 512, no control byte but
 * tab, CR, LF, ESC (a log's colours). */
static bool starts_as_text(const unsigned char *b, size_t n)
{
    bool be;
    if (textenc_utf16_bom(b, n, &be)) return true;
    n = n < 512 ? n : 512;
    for (size_t i = 0; i < n; i++)
        if (!b[i] || (b[i] < 0x20 && !strchr("\t\r\n\x1b", b[i])) || b[i] == 0x7F) /* strchr finds a NUL */
            return false;
    return n > 0;
}

static int step(struct reader *r)
{
    static const unsigned char widths[] = {[ARG_U1] = 1, [ARG_U2] = 2, [ARG_I4] = 4,
                                           [ARG_U4] = 4, [ARG_U8] = 8, [ARG_F8] = 8,
                                           [ARG_LEN1] = 1, [ARG_LEN4] = 4, [ARG_LEN8] = 8};
    r->op = NULL;
    r->op_offset = offset(r);
    /* the opcode and its widest argument in the buffer, unless the file ends */
    if (r->len - r->pos < 9 && refill(r, 9) < 0) return -1;
    if (r->pos == r->len)
        return oomlab_err_set(r->err, "the file ends at byte %llu before the pickle's STOP "
                                      "(truncated)", (unsigned long long)r->op_offset);
    unsigned char code = r->buf[r->pos++];
    if (r->op_offset == 0 && code != 0x80 && starts_as_text(r->buf, r->len))
        return oomlab_err_set(r->err, "text, not a pickle of protocol 2 or later: a memory snapshot is the "
                                      "binary file torch.cuda.memory._dump_snapshot() writes (a log goes to "
                                      "oomlab diagnose)");
    const struct op *op = r->op = op_table[code];
    if (!op)
        return oomlab_err_set(r->err, "at byte %llu: unknown opcode 0x%02x: not a pickle, or a "
                                      "newer protocol than 5", (unsigned long long)r->op_offset, code);
    if (r->op_offset == 0 && code != 0x80)
        return fail(r, "not a pickle of protocol 2 or later (PyTorch writes protocol 4)");
    if (op->arg == ARG_REFUSED) return fail(r, "%s", op->refusal);
    size_t width = widths[op->arg];
    if (r->len - r->pos < width)
        return fail(r, "the file ends inside the opcode (truncated at byte %llu)",
                    (unsigned long long)(r->base + r->len));
    uint64_t arg = decode_arg(op->arg, r->buf + r->pos);
    r->pos += width;
    if (code == 'T' && (arg >> 31)) return fail(r, "a negative length");
    bool has_payload = op->arg >= ARG_LEN1 && op->arg <= ARG_LEN8;
    if (has_payload && arg >= r->limit) /* refused before reading or allocating a byte */
        return fail(r, "a length of %llu bytes is over the memory limit (%zu)",
                    (unsigned long long)arg, r->limit);
    if (r->pass == 2 || census_op[code]) return op->run(r, arg);
    if (!has_payload) return 0;
    if (arg <= r->len - r->pos) {
        r->pos += (size_t)arg;
        return 0;
    }
    return payload(r, NULL, arg);
}

static int run_pass(struct reader *r, int pass)
{
    r->pass = pass;
    r->pos = r->len = 0;
    r->base = 0;
    r->eof = false;
    r->stopped = false;
    r->memo_count = 0;
    if (r->assigned) memset(r->assigned, 0, r->memo_words * sizeof *r->assigned);
    while (!r->stopped)
        if (step(r) < 0) return -1;
    r->doc->bytes_read = offset(r);
    return 0;
}

static void reader_release(struct reader *r)
{
    free(r->memo);
    free(r->stack);
    free(r->filled);
    free(r->assigned);
    free(r->wanted);
    free(r->buf);
}

int pickle_load(const struct pickle_opts *o, struct pickle_doc *doc, struct oomlab_err *err)
{
    memset(doc, 0, sizeof *doc);
    build_table();
    struct reader r = {.o = o, .err = err, .doc = doc,
                       .limit = o->memory_limit ? o->memory_limit : PICKLE_DEFAULT_MEMORY,
                       .max_depth = o->max_depth ? o->max_depth : PICKLE_MAX_DEPTH};
    if (r.max_depth > PICKLE_MAX_DEPTH) r.max_depth = PICKLE_MAX_DEPTH;
    r.max_marks = 4 * r.max_depth + 4;
    r.buf = malloc(PK_BUF_SIZE);
    doc->pool = r.pool = calloc(1, sizeof *doc->pool);
    if (!r.buf || !doc->pool) {
        free(r.buf);
        free(doc->pool);
        doc->pool = NULL;
        return oomlab_err_set(err, "out of memory");
    }
    static const enum pk_type singles[] = {PK_NONE, PK_BOOL, PK_BOOL};
    for (int i = 0; i < 3; i++) {
        r.pool->singletons[i].type = singles[i];
        r.pool->singletons[i].keep = true;
        r.pool->singletons[i].u.b = i == 2;
    }
    int rc = run_pass(&r, 1);
    if (rc == 0 && o->rewind(o->src, err) < 0) rc = -1;
    if (rc == 0) rc = run_pass(&r, 2);
    if (rc == 0) doc->root = r.stack[r.sp - 1];
    reader_release(&r);
    if (rc < 0) {
        pickle_doc_release(doc);
        return -1;
    }
    return 0;
}

void pickle_doc_release(struct pickle_doc *doc)
{
    if (doc->pool) {
        arena_free(&doc->pool->scratch);
        arena_free(&doc->pool->keep);
        free(doc->pool);
    }
    doc->pool = NULL;
    doc->root = NULL;
}

/* ---- sources and accessors ---- */

int pickle_buf_read(void *src, void *buf, size_t size, size_t *got, struct oomlab_err *err)
{
    struct pickle_buf *b = src;
    (void)err;
    size_t n = b->len - b->pos < size ? b->len - b->pos : size;
    memcpy(buf, b->data + b->pos, n);
    b->pos += n;
    *got = n;
    return 0;
}

int pickle_buf_rewind(void *src, struct oomlab_err *err)
{
    (void)err;
    ((struct pickle_buf *)src)->pos = 0;
    return 0;
}

const struct pk_obj *pk_get(const struct pk_obj *dict, const char *key)
{
    if (!dict || dict->type != PK_DICT) return NULL;
    size_t klen = strlen(key);
    const struct pk_obj *found = NULL; /* the last one wins, as in Python */
    for (size_t i = 0; i + 1 < dict->u.seq.n; i += 2) {
        const struct pk_obj *k = dict->u.seq.items[i];
        if (k->type == PK_STR && k->u.str.len == klen && !memcmp(k->u.str.s, key, klen))
            found = dict->u.seq.items[i + 1];
    }
    return found;
}

bool pk_int(const struct pk_obj *o, int64_t *out)
{
    if (!o || (o->type != PK_INT && o->type != PK_BOOL)) return false;
    *out = o->type == PK_INT ? o->u.i : o->u.b;
    return true;
}

const char *pk_str(const struct pk_obj *o)
{
    return o && o->type == PK_STR ? o->u.str.s : NULL;
}

size_t pk_len(const struct pk_obj *o)
{
    if (!o) return 0;
    if (o->type == PK_DICT) return o->u.seq.n / 2;
    return o->type == PK_LIST || o->type == PK_TUPLE ? o->u.seq.n : 0;
}

const struct pk_obj *pk_at(const struct pk_obj *seq, size_t i)
{
    if (!seq || (seq->type != PK_LIST && seq->type != PK_TUPLE) || i >= seq->u.seq.n) return NULL;
    return seq->u.seq.items[i];
}

const char *pk_type_name(enum pk_type type)
{
    static const char *const names[] = {"None", "bool", "int", "int", "float", "str", "bytes",
                                        "list", "tuple", "dict"};
    return (unsigned)type < sizeof names / sizeof *names ? names[type] : "object";
}
