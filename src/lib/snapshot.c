/* snapshot: the PyTorch memory snapshot model (see snapshot.h). Segments
 * and trace entries are consumed by pickle's on_item as their lists fill;
 * a trace list's figures wait in an accumulator until the list itself is
 * placed in device_traces, which says which device it was. Field names are
 * those of _cuda_memorySnapshot (pytorch/pytorch:torch/csrc/cuda/Module.cpp
 * @003ce815e64e643033c2db2b68c8edadc33825b2 for 2.0; main's, read in its
 * XPU twin) and of pytorch/pytorch:torch/cuda/_memory_viz.py
 * @0044eb6704e63eec2a52110f4b1a44331e3d4342 (frame filter, legacy history). */
#include "lib/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/units.h"

#define MiB (1024LL * 1024)
#define SNAP_MAX_ACCS 256 /* trace lists waiting for their device */
#define SNAP_MAX_LIVE (1u << 26)

struct live { /* one allocation of the trace still alive */
    uint64_t addr; /* key + 1; 0 empty, UINT64_MAX removed */
    uint32_t stack;
    int64_t size;
    long index;
};

struct acc { /* one trace list's figures */
    const struct pk_obj *list;
    struct snap_device d; /* trace fields only */
    struct live *live;
    size_t live_cap, live_used, live_dead;
};

struct snap_internal {
    uint32_t *stack_index; /* open addressing over stack ids */
    size_t stack_index_cap;
    size_t *group_index;  /* group id + 1 by (device, stack) */
    size_t group_index_cap;
    struct acc accs[SNAP_MAX_ACCS];
    size_t n_accs;
    bool block_history, block_frames;
    struct oomlab_err *err;
    /* stack_of's answers by the frames' raw fields */
    struct stack_memo *memo;
    size_t memo_used;
    unsigned char *keys;
    size_t keys_used, keys_cap;
};

/* The same few stacks recur through millions of trace entries, and
 * classifying a frame is dozens of substring scans: stack_of remembers its
 * answer for each frames list's exact fields (file, line, name of every
 * frame, length-prefixed). Bounded: past the limits it computes afresh. */
#define SNAP_MEMO_SLOTS 8192u       /* a power of two */
#define SNAP_MEMO_KEY_MAX 4096u     /* longer frames lists are not remembered */
#define SNAP_MEMO_BYTES (4u << 20)  /* all keys together */

struct stack_memo {
    uint64_t hash;
    size_t off, len; /* the key in keys */
    uint32_t stack;
    bool used;
};

static uint64_t hash_bytes(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    return x ^ (x >> 33);
}

/* ---- interned stacks ---- */

static int stack_rehash(struct snapshot *s)
{
    struct snap_internal *in = s->in;
    size_t cap = in->stack_index_cap ? in->stack_index_cap * 2 : 1024;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t) return -1;
    for (size_t id = 1; id <= s->n_stacks; id++) {
        size_t h = hash_bytes(s->stacks[id]) & (cap - 1);
        while (t[h]) h = (h + 1) & (cap - 1);
        t[h] = (uint32_t)id;
    }
    free(in->stack_index);
    in->stack_index = t;
    in->stack_index_cap = cap;
    return 0;
}

static uint32_t intern(struct snapshot *s, const char *text, size_t library)
{
    struct snap_internal *in = s->in;
    if ((s->n_stacks + 1) * 2 > in->stack_index_cap && stack_rehash(s) < 0) return 0;
    size_t mask = in->stack_index_cap - 1, h = hash_bytes(text) & mask;
    for (; in->stack_index[h]; h = (h + 1) & mask)
        if (!strcmp(s->stacks[in->stack_index[h]], text)) {
            uint32_t id = in->stack_index[h];
            if (library > s->stack_lib[id]) s->stack_lib[id] = library;
            return id;
        }
    if (s->n_stacks + 2 > s->stacks_cap) {
        size_t cap = s->stacks_cap, lib_cap = s->stacks_cap;
        char **st = strbuf_grow(s->stacks, &cap, s->n_stacks + 2, sizeof *st, SIZE_MAX);
        if (!st) return 0;
        s->stacks = st;
        size_t *lib = strbuf_grow(s->stack_lib, &lib_cap, cap, sizeof *lib, SIZE_MAX);
        if (!lib) return 0;
        s->stack_lib = lib;
        s->stacks_cap = cap;
    }
    char *copy = strdup(text);
    if (!copy) return 0;
    uint32_t id = (uint32_t)++s->n_stacks;
    s->stacks[id] = copy;
    s->stack_lib[id] = library;
    in->stack_index[h] = id;
    return id;
}

/* ---- frames ---- */

/* Frames _memory_viz drops (the unwinder, the interpreter loop), and the
 * caching allocator's own, which every allocation's C++ stack starts with. */
static const char *const omitted_names[] = {"unwind::unwind", "CapturedTraceback::gather",
                                            "gather_with_cpp", "_start", "__libc_start_main",
                                            "PyEval_", "PyObject_", "PyFunction_",
                                            "CachingAllocator::"};
static const char *const omitted_files[] = {"core/boxing", "/Register", "/Redispatch",
                                            "pythonrun.c", "Modules/main.c", "Objects/call.c",
                                            "Objects/methodobject.c", "pycore_ceval.h", "ceval.c",
                                            "cpython/abstract.h"};
/* Library code: installed packages, the standard library, PyTorch, C++
 * (a C++ frame's file is "??", "" or a bare "X.cpp" in real dumps). */
static const char *const library_parts[] = {"/site-packages/", "/dist-packages/", "/lib/python",
                                            "<frozen ", "/torch/", "/usr/lib/", "/usr/include/"};
static const char *const library_suffixes[] = {".cpp", ".cc", ".cu", ".cuh", ".h", ".hpp", ".c"};

static bool any_in(const char *s, const char *const *parts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(s, parts[i])) return true;
    return false;
}

static bool ends_with_any(const char *s, const char *const *sfx, size_t n)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(sfx[i]);
        if (len >= k && !strcmp(s + len - k, sfx[i])) return true;
    }
    return false;
}

#define COUNT(a) (sizeof a / sizeof *a)

static bool is_library(const char *file)
{
    return file[0] == '?' || file[0] == '\0' || any_in(file, library_parts, COUNT(library_parts)) ||
           ends_with_any(file, library_suffixes, COUNT(library_suffixes));
}

/* Append "FILE:LINE FUNCTION" (cut to fit) as one line of buf. A frame
 * with no file ("" in real dumps, beside "??": JasperSolt/EoR_NN
 * snapshot.pickle@10cd0b49, at::cuda::getNewWorkspace()) is "??", as the
 * unwinder and _memory_viz name an unknown file, not a bare ":0". */
static void add_frame(char *buf, size_t size, const char *file, int64_t line, const char *name)
{
    size_t used = strlen(buf);
    if (used + 2 >= size) return;
    if (!*file) file = "??";
    snprintf(buf + used, size - used, "%s%.200s:%lld %.120s", used ? "\n" : "", file,
             (long long)line, name);
}

/* The stack id of a frames list: its user frames (innermost first, up to
 * SNAP_STACK_FRAMES), library frames folded; only library frames: the two
 * innermost. 0 for no frames. */
static uint32_t classify(struct snapshot *s, const struct pk_obj *frames)
{
    char user[2048] = "", lib[1024] = "";
    size_t n_user = 0, n_lib = 0, n_all = 0, n = pk_len(frames);
    for (size_t i = 0; i < n; i++) {
        const struct pk_obj *f = pk_at(frames, i);
        const char *file = pk_str(pk_get(f, "filename")), *name = pk_str(pk_get(f, "name"));
        int64_t line = -1;
        if (!file || !name) continue;
        pk_int(pk_get(f, "line"), &line);
        if (any_in(name, omitted_names, COUNT(omitted_names)) ||
            any_in(file, omitted_files, COUNT(omitted_files)))
            continue;
        n_all++;
        if (!is_library(file)) {
            if (n_user < SNAP_STACK_FRAMES) add_frame(user, sizeof user, file, line, name), n_user++;
        } else if (n_lib < 2) {
            add_frame(lib, sizeof lib, file, line, name);
            n_lib++;
        }
    }
    if (n_user) return intern(s, user, n_all - n_user);
    if (n_lib) return intern(s, lib, n_all - n_lib);
    return 0;
}

static bool key_add(unsigned char *key, size_t *len, const void *p, size_t n)
{
    if (n > SNAP_MEMO_KEY_MAX - *len) return false;
    memcpy(key + *len, p, n);
    *len += n;
    return true;
}

static bool key_str(unsigned char *key, size_t *len, const struct pk_obj *o)
{
    uint32_t n = o && o->type == PK_STR && o->u.str.len < UINT32_MAX ? (uint32_t)o->u.str.len
                                                                    : UINT32_MAX;
    return key_add(key, len, &n, sizeof n) &&
           (n == UINT32_MAX || key_add(key, len, o->u.str.s, n));
}

/* The fields classify reads, as one byte string; false when too long. */
static bool frames_key(const struct pk_obj *frames, unsigned char *key, size_t *len)
{
    size_t n = pk_len(frames);
    *len = 0;
    if (!key_add(key, len, &n, sizeof n)) return false;
    for (size_t i = 0; i < n; i++) {
        const struct pk_obj *f = pk_at(frames, i);
        int64_t line = -1;
        pk_int(pk_get(f, "line"), &line);
        if (!key_str(key, len, pk_get(f, "filename")) || !key_str(key, len, pk_get(f, "name")) ||
            !key_add(key, len, &line, sizeof line))
            return false;
    }
    return true;
}

static uint64_t hash_key(const unsigned char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = mix(h ^ w) * 0x9E3779B97F4A7C15ull;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    return mix(h ^ w);
}

static uint32_t stack_of(struct snapshot *s, const struct pk_obj *frames)
{
    struct snap_internal *in = s->in;
    unsigned char key[SNAP_MEMO_KEY_MAX];
    size_t len;
    if (!frames || !in->memo || !frames_key(frames, key, &len)) return classify(s, frames);
    uint64_t h = hash_key(key, len);
    size_t i = h & (SNAP_MEMO_SLOTS - 1);
    for (; in->memo[i].used; i = (i + 1) & (SNAP_MEMO_SLOTS - 1)) {
        const struct stack_memo *m = &in->memo[i];
        if (m->hash == h && m->len == len && !memcmp(in->keys + m->off, key, len)) return m->stack;
    }
    uint32_t id = classify(s, frames);
    if ((in->memo_used + 1) * 2 > SNAP_MEMO_SLOTS || len > SNAP_MEMO_BYTES - in->keys_used)
        return id;
    if (in->keys_used + len > in->keys_cap) {
        unsigned char *k =
            strbuf_grow(in->keys, &in->keys_cap, in->keys_used + len, 1, SNAP_MEMO_BYTES);
        if (!k) return id;
        in->keys = k;
    }
    memcpy(in->keys + in->keys_used, key, len);
    in->memo[i] = (struct stack_memo){h, in->keys_used, len, id, true};
    in->keys_used += len;
    in->memo_used++;
    return id;
}

/* ---- live groups ---- */

static int group_rehash(struct snapshot *s)
{
    struct snap_internal *in = s->in;
    size_t cap = in->group_index_cap ? in->group_index_cap * 2 : 1024;
    size_t *t = calloc(cap, sizeof *t);
    if (!t) return -1;
    for (size_t g = 0; g < s->n_groups; g++) {
        uint64_t key = (uint64_t)s->groups[g].device << 32 | s->groups[g].stack;
        size_t h = mix(key) & (cap - 1);
        while (t[h]) h = (h + 1) & (cap - 1);
        t[h] = g + 1;
    }
    free(in->group_index);
    in->group_index = t;
    in->group_index_cap = cap;
    return 0;
}

/* Byte sums held at the int64 ends instead of overflowing: every size is
 * the file's, and a hostile or corrupt one can hold 2^62 in each of three
 * segments (signed overflow; the total read "unknown" and the largest free
 * block exceeded the cached free bytes). */
static int64_t sum_sat(int64_t a, int64_t b)
{
    int64_t r;
    if (units_add(a, b, &r)) return r;
    return b > 0 ? INT64_MAX : INT64_MIN;
}

static int64_t less_sat(int64_t a, int64_t b)
{
    int64_t r;
    if (!__builtin_sub_overflow(a, b, &r)) return r;
    return b < 0 ? INT64_MAX : INT64_MIN;
}

static int add_live(struct snapshot *s, int device, uint32_t stack, int64_t bytes)
{
    struct snap_internal *in = s->in;
    if ((s->n_groups + 1) * 2 > in->group_index_cap && group_rehash(s) < 0) return -1;
    uint64_t key = (uint64_t)device << 32 | stack;
    size_t mask = in->group_index_cap - 1, h = mix(key) & mask;
    for (; in->group_index[h]; h = (h + 1) & mask) {
        struct snap_group *g = &s->groups[in->group_index[h] - 1];
        if (g->device == device && g->stack == stack) {
            g->bytes = sum_sat(g->bytes, bytes);
            g->count++;
            return 0;
        }
    }
    if (s->n_groups == s->groups_cap) {
        struct snap_group *ng =
            strbuf_grow(s->groups, &s->groups_cap, s->n_groups + 1, sizeof *ng, SIZE_MAX);
        if (!ng) return -1;
        s->groups = ng;
    }
    s->groups[s->n_groups] = (struct snap_group){stack, device, bytes, 1};
    in->group_index[h] = ++s->n_groups;
    return 0;
}

/* ---- segments ---- */

static const int64_t class_limits[SNAP_CLASSES] = {2 * MiB, 20 * MiB, 200 * MiB, 2048 * MiB,
                                                   INT64_MAX};
static const char *const class_names[SNAP_CLASSES] = {"<= 2 MiB (small pool)", "2-20 MiB",
                                                      "20-200 MiB", "200 MiB-2 GiB", "> 2 GiB"};

const char *snapshot_class_name(size_t i)
{
    return i < SNAP_CLASSES ? class_names[i] : "?";
}

static bool field(const struct pk_obj *d, const char *key, int64_t *out)
{
    return pk_int(pk_get(d, key), out) && *out >= 0;
}

static struct snap_pool *pool_of(struct snap_device *d, const struct pk_obj *seg)
{
    char name[48];
    const char *type = pk_str(pk_get(seg, "segment_type"));
    const struct pk_obj *id = pk_get(seg, "segment_pool_id");
    int64_t a = 0, b = 0;
    bool priv = pk_len(id) == 2 && pk_int(pk_at(id, 0), &a) && pk_int(pk_at(id, 1), &b) &&
                (a || b);
    snprintf(name, sizeof name, "%.20s", type ? type : "unknown");
    if (priv)
        snprintf(name, sizeof name, "private (%lld, %lld) %.12s", (long long)a, (long long)b,
                 type ? type : "");
    for (size_t i = 0; i < d->n_pools; i++)
        if (!strcmp(d->pools[i].name, name)) return &d->pools[i];
    if (d->n_pools == SNAP_MAX_POOLS) return &d->pools[SNAP_MAX_POOLS - 1]; /* folded into the last */
    struct snap_pool *p = &d->pools[d->n_pools++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    return p;
}

/* A block's allocation stack: its own frames (2.1+) or its history's first
 * entry (2.0), as _memory_viz reads them. */
static const struct pk_obj *block_frames(struct snapshot *s, const struct pk_obj *b)
{
    const struct pk_obj *f = pk_get(b, "frames");
    if (f) {
        s->in->block_frames = true;
        return f;
    }
    const struct pk_obj *h = pk_at(pk_get(b, "history"), 0);
    if (h) s->in->block_history = true;
    return pk_get(h, "frames");
}

static int add_blocks(struct snapshot *s, struct snap_device *d, int device,
                      const struct pk_obj *blocks, int64_t *free_bytes)
{
    for (size_t i = 0; i < pk_len(blocks); i++) {
        const struct pk_obj *b = pk_at(blocks, i);
        const char *state = pk_str(pk_get(b, "state"));
        int64_t size;
        if (!state || !field(b, "size", &size)) {
            s->bad_entries++;
            continue;
        }
        d->blocks++;
        if (!strcmp(state, "inactive")) {
            *free_bytes = sum_sat(*free_bytes, size);
            d->cached_free = sum_sat(d->cached_free, size);
            if (size > d->largest_free) d->largest_free = size;
        } else if (!strcmp(state, "active_allocated") &&
                   add_live(s, device, stack_of(s, block_frames(s, b)), size) < 0) {
            return oomlab_err_set(s->in->err, "out of memory");
        }
    }
    return 0;
}

static int add_segment(struct snapshot *s, const struct pk_obj *seg)
{
    int64_t device = 0, total, allocated, active, requested = 0;
    if (pk_get(seg, "device") && !field(seg, "device", &device)) device = -1;
    if (device < 0 || device >= SNAP_MAX_DEVICES || !field(seg, "total_size", &total) ||
        !field(seg, "allocated_size", &allocated)) {
        s->bad_entries++;
        return 0;
    }
    if (!field(seg, "active_size", &active)) active = allocated;
    field(seg, "requested_size", &requested);
    struct snap_device *d = &s->dev[device];
    d->present = true;
    d->segments++;
    d->reserved = sum_sat(d->reserved, total);
    d->allocated = sum_sat(d->allocated, allocated);
    d->active = sum_sat(d->active, active);
    d->requested = sum_sat(d->requested, requested);
    struct snap_pool *p = pool_of(d, seg);
    p->reserved = sum_sat(p->reserved, total);
    p->allocated = sum_sat(p->allocated, allocated);
    p->active = sum_sat(p->active, active);
    p->segments++;
    int64_t free_bytes = 0;
    if (add_blocks(s, d, (int)device, pk_get(seg, "blocks"), &free_bytes) < 0) return -1;
    size_t c = 0;
    while (total > class_limits[c]) c++;
    d->classes[c].segments++;
    d->classes[c].reserved = sum_sat(d->classes[c].reserved, total);
    d->classes[c].free_bytes = sum_sat(d->classes[c].free_bytes, free_bytes);
    return 0;
}

/* ---- trace ---- */

static struct acc *acc_for(struct snapshot *s, const struct pk_obj *list)
{
    struct snap_internal *in = s->in;
    for (size_t i = in->n_accs; i-- > 0;)
        if (in->accs[i].list == list) return &in->accs[i];
    if (in->n_accs == SNAP_MAX_ACCS) return NULL;
    struct acc *a = &in->accs[in->n_accs++];
    memset(a, 0, sizeof *a);
    a->list = list;
    a->d.peak_index = a->d.oom_index = -1;
    a->d.peak_time_us = -1;
    a->d.has_trace = true;
    return a;
}

static struct live *live_slot(struct acc *a, uint64_t addr, bool for_insert)
{
    size_t mask = a->live_cap - 1, h = mix(addr) & mask;
    struct live *tomb = NULL;
    for (; a->live[h].addr; h = (h + 1) & mask) {
        if (a->live[h].addr == addr + 1) return &a->live[h];
        if (a->live[h].addr == UINT64_MAX && !tomb) tomb = &a->live[h];
    }
    if (!for_insert) return NULL;
    return tomb ? tomb : &a->live[h];
}

static int live_grow(struct acc *a)
{
    size_t cap = a->live_cap ? a->live_cap * 2 : 1024, old = a->live_cap;
    if (cap > SNAP_MAX_LIVE) return -1;
    struct live *t = calloc(cap, sizeof *t), *o = a->live;
    if (!t) return -1;
    a->live = t;
    a->live_cap = cap;
    a->live_used = a->live_dead = 0;
    for (size_t i = 0; i < old; i++)
        if (o[i].addr && o[i].addr != UINT64_MAX) {
            *live_slot(a, o[i].addr - 1, true) = o[i];
            a->live_used++;
        }
    free(o);
    return 0;
}

static void trace_alloc(struct snapshot *s, struct acc *a, const struct pk_obj *e, int64_t addr,
                        int64_t size)
{
    a->d.trace_net = sum_sat(a->d.trace_net, size);
    if (a->d.trace_net > a->d.trace_max_net || a->d.peak_index < 0) {
        a->d.trace_max_net = a->d.trace_net;
        a->d.peak_index = a->d.trace_entries;
        int64_t t;
        a->d.peak_time_us = field(e, "time_us", &t) ? t : -1;
    }
    if ((a->live_used + a->live_dead + 1) * 2 > a->live_cap && live_grow(a) < 0) return;
    struct live *l = live_slot(a, (uint64_t)addr, true);
    if (l->addr == UINT64_MAX) a->live_dead--;
    if (l->addr == 0 || l->addr == UINT64_MAX) a->live_used++;
    *l = (struct live){(uint64_t)addr + 1, stack_of(s, pk_get(e, "frames")), size,
                       a->d.trace_entries};
}

static void trace_free(struct acc *a, int64_t addr, int64_t size)
{
    struct live *l = a->live_cap ? live_slot(a, (uint64_t)addr, false) : NULL;
    if (!l) {
        a->d.trace_net = less_sat(a->d.trace_net, size); /* allocated before the trace began */
        return;
    }
    a->d.trace_net = less_sat(a->d.trace_net, l->size);
    l->addr = UINT64_MAX;
    a->live_used--;
    a->live_dead++;
}

static void trace_entry(struct snapshot *s, struct acc *a, const struct pk_obj *e)
{
    const char *action = pk_str(pk_get(e, "action"));
    int64_t addr = 0, size = 0, free_dev = 0;
    bool has_size = field(e, "size", &size);
    if (!action || !has_size) {
        s->bad_entries++;
        return;
    }
    if (!strcmp(action, "oom")) {
        a->d.has_oom = true;
        a->d.oom_requested = size;
        a->d.oom_device_free = field(e, "device_free", &free_dev) ? free_dev : -1;
        a->d.oom_index = a->d.trace_entries;
        a->d.oom_stack = stack_of(s, pk_get(e, "frames"));
    } else if (field(e, "addr", &addr)) {
        /* free_requested is only the request: the memory is reusable at
         * free_completed (as _memory_viz counts it); "free" is older traces' */
        if (!strcmp(action, "alloc")) trace_alloc(s, a, e, addr, size);
        else if (!strcmp(action, "free_completed") || !strcmp(action, "free"))
            trace_free(a, addr, size);
    }
    a->d.trace_entries++;
}

/* Leak candidates: stacks whose allocations stay alive to the trace's end,
 * at least 3 of them, spread over at least half of the trace. */
static void find_leaks(struct acc *a)
{
    struct snap_leak found[64];
    size_t n = 0;
    for (size_t i = 0; i < a->live_cap; i++) {
        const struct live *l = &a->live[i];
        if (!l->addr || l->addr == UINT64_MAX || !l->stack) continue;
        size_t j = 0;
        while (j < n && found[j].stack != l->stack) j++;
        if (j == n) {
            if (n == 64) continue;
            found[n++] = (struct snap_leak){l->stack, 0, 0, l->index, l->index};
        }
        found[j].alive++;
        found[j].bytes = sum_sat(found[j].bytes, l->size);
        if (l->index < found[j].first) found[j].first = l->index;
        if (l->index > found[j].last) found[j].last = l->index;
    }
    for (size_t i = 0; i < n; i++) {
        const struct snap_leak *f = &found[i];
        if (f->alive < 3 || (f->last - f->first) * 2 < a->d.trace_entries) continue;
        size_t k = a->d.n_leaks;
        if (k == COUNT(a->d.leaks)) {
            k = 0; /* replace the smallest kept */
            for (size_t m = 1; m < COUNT(a->d.leaks); m++)
                if (a->d.leaks[m].bytes < a->d.leaks[k].bytes) k = m;
            if (a->d.leaks[k].bytes >= f->bytes) continue;
        } else {
            a->d.n_leaks++;
        }
        a->d.leaks[k] = *f;
    }
}

/* A finished trace list placed in device_traces at index: its device. */
static void bind_trace(struct snapshot *s, const struct pk_obj *list, size_t index)
{
    struct snap_internal *in = s->in;
    for (size_t i = 0; i < in->n_accs; i++) {
        struct acc *a = &in->accs[i];
        if (a->list != list) continue;
        if (index < SNAP_MAX_DEVICES) {
            find_leaks(a);
            struct snap_device *d = &s->dev[index];
            d->has_trace = true;
            d->trace_entries = a->d.trace_entries;
            d->trace_net = a->d.trace_net;
            d->trace_max_net = a->d.trace_max_net;
            d->peak_index = a->d.peak_index;
            d->peak_time_us = a->d.peak_time_us;
            d->has_oom = a->d.has_oom;
            d->oom_requested = a->d.oom_requested;
            d->oom_device_free = a->d.oom_device_free;
            d->oom_index = a->d.oom_index;
            d->oom_stack = a->d.oom_stack;
            memcpy(d->leaks, a->d.leaks, sizeof d->leaks);
            d->n_leaks = a->d.n_leaks;
        }
        free(a->live);
        *a = in->accs[--in->n_accs];
        return;
    }
}

static int on_item(void *ctx, const struct pk_obj *list, size_t index, const struct pk_obj *item,
                   bool *consumed, struct oomlab_err *err)
{
    struct snapshot *s = ctx;
    if (item->type == PK_LIST) { /* maybe a finished device trace */
        bind_trace(s, item, index);
        return 0;
    }
    if (item->type != PK_DICT) return 0;
    if (pk_get(item, "action")) {
        struct acc *a = acc_for(s, list);
        if (!a) return oomlab_err_set(err, "more than %d trace lists", SNAP_MAX_ACCS);
        trace_entry(s, a, item);
        *consumed = true;
    } else if (pk_get(item, "total_size") && pk_get(item, "blocks")) {
        if (add_segment(s, item) < 0) return -1;
        *consumed = true;
    }
    return 0;
}

/* A snapshot's shape with nothing oomlab could read in it is no snapshot
 * to report on: 'segments' or 'device_traces' that are not lists, or
 * entries of which not one had the fields (the report would say "nothing
 * was allocated", which the file does not say). -1 with err. */
static int unreadable(const struct snapshot *s, const struct pk_obj *root, struct oomlab_err *err)
{
    static const char *const lists[] = {"segments", "device_traces"};
    for (size_t k = 0; root->type == PK_DICT && k < sizeof lists / sizeof *lists; k++) {
        const struct pk_obj *v = pk_get(root, lists[k]);
        if (v && v->type != PK_LIST)
            return oomlab_err_set(err, "a pickle, but not a memory snapshot: its '%s' is of type %s, not a list",
                                  lists[k], pk_type_name(v->type));
    }
    for (int i = 0; i < SNAP_MAX_DEVICES; i++)
        if (s->dev[i].present || s->dev[i].has_trace) return 0;
    if (s->bad_entries == 0) return 0;
    return oomlab_err_set(err, "a pickle, but not a memory snapshot oomlab can read: %ld segment%s or trace "
                               "entr%s, and not one has the fields (a segment's device, total_size and "
                               "allocated_size; a block's state and size; an entry's action and size, as integers)",
                          s->bad_entries, s->bad_entries == 1 ? "" : "s", s->bad_entries == 1 ? "y" : "ies");
}

/* allocator_settings: scalar values as "key=value" lines. */
static void read_settings(struct snapshot *s, const struct pk_obj *set)
{
    size_t n = pk_len(set), cap = 4096, used = 0;
    if (!set || set->type != PK_DICT || !(s->settings = calloc(1, cap))) return;
    for (size_t i = 0; i < n; i++) {
        const struct pk_obj *k = set->u.seq.items[2 * i], *v = set->u.seq.items[2 * i + 1];
        char val[256] = "";
        int64_t iv;
        if (k->type != PK_STR) continue;
        if (v->type == PK_STR) snprintf(val, sizeof val, "%.200s", v->u.str.s);
        else if (v->type == PK_BOOL) snprintf(val, sizeof val, "%s", v->u.b ? "True" : "False");
        else if (pk_int(v, &iv)) snprintf(val, sizeof val, "%lld", (long long)iv);
        else if (v->type == PK_FLOAT) snprintf(val, sizeof val, "%g", v->u.f);
        else if (v->type == PK_NONE) snprintf(val, sizeof val, "None");
        else snprintf(val, sizeof val, "(%s)", pk_type_name(v->type));
        int w = snprintf(s->settings + used, cap - used, "%.60s=%s\n", k->u.str.s, val);
        if (w < 0 || (size_t)w >= cap - used) break;
        used += (size_t)w;
    }
}

/* Files that hold a snapshot in another wrapper than _dump_snapshot's
 * pickle: torch.save's zip archive, and its legacy stream, which opens with
 * MAGIC_NUMBER 0x1950a86a20f9469cfc6c pickled as LONG1
 * (pytorch/pytorch:torch/serialization.py@31d1cf19c3c1226ef2fbe768b3b53da0e1eaf0ad). */
static const struct {
    unsigned char magic[16];
    size_t len;
    const char *what;
} foreign[] = {
    {"PK\x03\x04", 4, "a zip archive, as torch.save writes"},
    {"\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 14,
     "torch.save's legacy format (it opens with torch's magic number)"},
};

/* 1 with err set when the input opens like one of foreign[]; 0 when not
 * (rewound); -1 when it cannot be read. */
static int foreign_format(const struct pickle_opts *o, struct oomlab_err *err)
{
    unsigned char head[16];
    size_t have = 0, got = 0;
    while (have < sizeof head) {
        if (o->read(o->src, head + have, sizeof head - have, &got, err) < 0) return -1;
        if (!got) break;
        have += got;
    }
    if (o->rewind(o->src, err) < 0) return -1;
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++)
        if (have >= foreign[i].len && !memcmp(head, foreign[i].magic, foreign[i].len)) {
            oomlab_err_set(err, "%s, not a memory snapshot pickle: write the snapshot with "
                                "torch.cuda.memory._dump_snapshot(path) (or pickle.dump of "
                                "torch.cuda.memory._snapshot())",
                           foreign[i].what);
            return 1;
        }
    return 0;
}

int snapshot_load(struct snapshot *s, const struct pickle_opts *base, struct oomlab_err *err)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < SNAP_MAX_DEVICES; i++) {
        s->dev[i].largest_free = -1;
        s->dev[i].peak_index = s->dev[i].oom_index = -1;
        s->dev[i].peak_time_us = -1;
    }
    if (!(s->in = calloc(1, sizeof *s->in)) ||
        !(s->in->memo = calloc(SNAP_MEMO_SLOTS, sizeof *s->in->memo))) {
        snapshot_release(s);
        return oomlab_err_set(err, "out of memory");
    }
    s->in->err = err;
    if (foreign_format(base, err) != 0) {
        snapshot_release(s);
        return -1;
    }
    struct pickle_opts o = *base;
    o.on_item = on_item;
    o.ctx = s;
    struct pickle_doc doc;
    if (pickle_load(&o, &doc, err) < 0) {
        snapshot_release(s);
        return -1;
    }
    const struct pk_obj *root = doc.root;
    bool dict = root->type == PK_DICT;
    /* a bare list is memory_snapshot()'s segments: all consumed as such */
    bool segment_list = root->type == PK_LIST && pk_len(root) == 0;
    if (!(dict && (pk_get(root, "segments") || pk_get(root, "device_traces"))) && !segment_list) {
        oomlab_err_set(err, "a pickle, but not a memory snapshot: the top is a %s, not a dict "
                            "with 'segments' or 'device_traces' nor a list of segments (write "
                            "one with torch.cuda.memory._dump_snapshot)",
                       pk_type_name(root->type));
        pickle_doc_release(&doc);
        snapshot_release(s);
        return -1;
    }
    if (unreadable(s, root, err) < 0) {
        pickle_doc_release(&doc);
        snapshot_release(s);
        return -1;
    }
    if (dict) read_settings(s, pk_get(root, "allocator_settings"));
    s->format = !dict ? "segment list" : s->in->block_history && !s->in->block_frames
                                             ? "2.0 (block history)" : "2.1+";
    s->bytes_read = doc.bytes_read;
    s->pickle_peak_memory = doc.peak_memory;
    pickle_doc_release(&doc);
    return 0;
}

void snapshot_release(struct snapshot *s)
{
    if (s->in) {
        for (size_t i = 0; i < s->in->n_accs; i++) free(s->in->accs[i].live);
        free(s->in->memo);
        free(s->in->keys);
        free(s->in->stack_index);
        free(s->in->group_index);
        free(s->in);
        s->in = NULL;
    }
    for (size_t i = 1; i <= s->n_stacks; i++) free(s->stacks[i]);
    free(s->stacks);
    free(s->stack_lib);
    free(s->groups);
    free(s->settings);
    s->stacks = NULL;
    s->stack_lib = NULL;
    s->groups = NULL;
    s->settings = NULL;
    s->n_stacks = s->n_groups = 0;
}

const char *snapshot_stack(const struct snapshot *s, uint32_t stack)
{
    return stack && stack <= s->n_stacks ? s->stacks[stack] : "";
}

size_t snapshot_stack_library(const struct snapshot *s, uint32_t stack)
{
    return stack && stack <= s->n_stacks ? s->stack_lib[stack] : 0;
}

static int by_bytes(const void *pa, const void *pb)
{
    const struct snap_group *a = pa, *b = pb;
    if (a->bytes != b->bytes) return a->bytes < b->bytes ? 1 : -1;
    return a->stack < b->stack ? -1 : a->stack > b->stack;
}

size_t snapshot_top(const struct snapshot *s, int device, struct snap_group *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_groups; i++) {
        if (s->groups[i].device != device) continue;
        if (n < max) {
            out[n++] = s->groups[i];
            qsort(out, n, sizeof *out, by_bytes);
        } else if (max && by_bytes(&s->groups[i], &out[max - 1]) < 0) {
            out[max - 1] = s->groups[i];
            qsort(out, n, sizeof *out, by_bytes);
        }
    }
    return n;
}

int64_t snapshot_trace_peak(const struct snap_device *d)
{
    if (!d->has_trace || d->peak_index < 0) return -1;
    int64_t baseline = less_sat(d->allocated, d->trace_net);
    if (baseline < 0) baseline = 0;
    return sum_sat(baseline, d->trace_max_net);
}

/* ---- two snapshots ---- */

static int by_growth(const void *pa, const void *pb)
{
    const struct snap_growth *a = pa, *b = pb;
    int64_t da = less_sat(a->after, a->before), db = less_sat(b->after, b->before);
    if (da != db) return da < db ? 1 : -1;
    return strcmp(a->stack, b->stack);
}

static long find_growth(struct snap_growth *g, long n, const char *stack)
{
    for (long i = 0; i < n; i++)
        if (!strcmp(g[i].stack, stack)) return i;
    return -1;
}

/* Stacks are summed over devices; matched by their text. Quadratic in the
 * number of distinct stacks, which a snapshot keeps in the thousands. */
long snapshot_growth(const struct snapshot *a, const struct snapshot *b, struct snap_growth **out)
{
    size_t cap = a->n_groups + b->n_groups + 1;
    struct snap_growth *g = calloc(cap, sizeof *g);
    long n = 0;
    if (!g) return -1;
    const struct snapshot *side[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < side[k]->n_groups; i++) {
            const struct snap_group *x = &side[k]->groups[i];
            const char *text = snapshot_stack(side[k], x->stack);
            long j = find_growth(g, n, text);
            if (j < 0) {
                j = n++;
                g[j].stack = text;
                g[j].library = snapshot_stack_library(side[k], x->stack);
            }
            if (k) g[j].after = sum_sat(g[j].after, x->bytes), g[j].after_count += x->count;
            else g[j].before = sum_sat(g[j].before, x->bytes), g[j].before_count += x->count;
        }
    long kept = 0;
    for (long i = 0; i < n; i++)
        if (g[i].after != g[i].before) g[kept++] = g[i];
    qsort(g, (size_t)kept, sizeof *g, by_growth);
    *out = g;
    return kept;
}
