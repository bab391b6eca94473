/* snapshot: what a PyTorch memory snapshot says (torch.cuda.memory.
 * _dump_snapshot, 2.0 on; also a bare list of segments from
 * memory_snapshot()): per device and pool the reserved, allocated and active
 * bytes, the largest free cached block, segments by size class, the live
 * allocations grouped by their Python stack, and from the allocator's
 * trace the last OOM (request, device free), the timeline's peak and
 * allocations left alive through it (leak candidates).
 *
 * The snapshot is read through lib/pickle with its trace entries and
 * segments consumed as they arrive, so only the summary stays in memory.
 * The caller releases a snapshot with snapshot_release. */
#ifndef OOMLAB_SNAPSHOT_H
#define OOMLAB_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/pickle.h"

#define SNAP_MAX_DEVICES 64
#define SNAP_MAX_POOLS 16
#define SNAP_STACK_FRAMES 4 /* user frames kept per stack (innermost first) */

/* Segment size classes, by total size: <= 2 MiB (the small pool), 2-20 MiB,
 * 20-200 MiB, 200 MiB-2 GiB, over 2 GiB. */
#define SNAP_CLASSES 5

struct snap_pool {
    char name[48]; /* "large", "small", "private (1, 0) large" */
    int64_t reserved, allocated, active;
    long segments;
};

struct snap_class {
    long segments;
    int64_t reserved, free_bytes;
};

/* Live blocks (or allocations) sharing one stack. */
struct snap_group {
    uint32_t stack;
    int device;
    int64_t bytes;
    long count;
};

struct snap_leak {
    uint32_t stack;
    long alive;           /* allocations from it still alive at the trace's end */
    int64_t bytes;
    long first, last;     /* trace indices of the first and last of them */
};

struct snap_device {
    bool present;
    int64_t reserved, allocated, active, requested;
    int64_t largest_free;  /* largest inactive block; -1 none */
    int64_t cached_free;   /* all inactive blocks */
    long segments, blocks;
    struct snap_pool pools[SNAP_MAX_POOLS];
    size_t n_pools;
    struct snap_class classes[SNAP_CLASSES];
    /* the trace (device_traces[i]) */
    bool has_trace;
    long trace_entries;
    int64_t trace_net;      /* allocated bytes the trace added (alloc - free) */
    int64_t trace_max_net;  /* highest running net */
    long peak_index;        /* entry at the highest point, -1 */
    int64_t peak_time_us;   /* -1 unknown */
    bool has_oom;
    int64_t oom_requested, oom_device_free;
    long oom_index;
    uint32_t oom_stack;     /* 0 none */
    struct snap_leak leaks[8];
    size_t n_leaks;
};

struct snapshot {
    struct snap_device dev[SNAP_MAX_DEVICES];
    struct snap_group *groups; /* live blocks by (device, stack) */
    size_t n_groups, groups_cap;
    char **stacks;   /* interned stack texts, id 1..n_stacks ("" for id 0) */
    size_t *stack_lib; /* library frames folded, per stack */
    size_t n_stacks, stacks_cap;
    char *settings;  /* allocator_settings as "key=value\n" lines; NULL none */
    const char *format; /* "2.1+", "2.0 (block history)", "segment list" */
    long bad_entries; /* segments or entries with missing or absurd fields, skipped */
    uint64_t bytes_read;
    size_t pickle_peak_memory;
    struct snap_internal *in; /* working state (hash tables) */
};

/* Reads the snapshot through opts (read, rewind, src, memory_limit; on_item
 * is the snapshot's). 0, or -1 with err (bad pickle, not a snapshot). */
int snapshot_load(struct snapshot *s, const struct pickle_opts *opts, struct oomlab_err *err);
void snapshot_release(struct snapshot *s);

/* Frames of a stack, innermost first, '\n'-separated "FILE:LINE FUNCTION"
 * (user frames, library frames folded); "" for stack 0. */
const char *snapshot_stack(const struct snapshot *s, uint32_t stack);
size_t snapshot_stack_library(const struct snapshot *s, uint32_t stack);
/* The device's live groups, largest first: up to max written to out. */
size_t snapshot_top(const struct snapshot *s, int device, struct snap_group *out, size_t max);
/* Trace peak (baseline + highest running net), -1 without a trace. The
 * baseline is what the segments hold minus what the trace added. */
int64_t snapshot_trace_peak(const struct snap_device *d);
const char *snapshot_class_name(size_t i);

/* Growth from a to b by stack text: entries with after - before != 0,
 * largest growth first. The caller frees *out. Returns the count, or -1. */
struct snap_growth {
    const char *stack; /* b's (or a's) text */
    size_t library;
    int64_t before, after;
    long before_count, after_count;
};
long snapshot_growth(const struct snapshot *a, const struct snapshot *b, struct snap_growth **out);

#endif
