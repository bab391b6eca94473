/* verdict: what the numbers of an OOM say — the shortfall, fragmentation,
 * memory held by other processes, a request larger than the card (or
 * absurd), a per-process cap, attention-shaped tensors, early versus
 * mid-run failures, several ranks, and the look-alikes that are not GPU
 * memory at all. Pure; the caller owns both structs. */
#ifndef OOMLAB_VERDICT_H
#define OOMLAB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/oom.h"

enum verdict_kind {
    VERDICT_SHORTFALL,       /* requested - free > 0 */
    VERDICT_FRAGMENTATION,   /* reserved-but-unallocated large next to the request */
    VERDICT_OTHER_PROCESSES, /* memory held outside this process */
    VERDICT_EXCEEDS_CARD,    /* one request larger than the whole card */
    VERDICT_ABSURD,          /* request so large it must be a bug */
    VERDICT_CAP,             /* a per-process cap ("X allowed") was hit */
    VERDICT_FREE_BUT_FAILED, /* free >= requested and no cap: driver/allocator */
    VERDICT_ATTENTION,       /* [b, h, s, s] shaped tensor or attention frames */
    VERDICT_EARLY,           /* at step <= 10: static configuration */
    VERDICT_MID_RUN,         /* after step 10: growth, eval or save */
    VERDICT_MULTI_RANK,      /* several ranks in the log */
    VERDICT_HOST_MEMORY,     /* look-alike: host RAM / OOM killer */
    VERDICT_TRITON,          /* look-alike: Triton shared memory */
    VERDICT_TF_RETRY,        /* look-alike: TF "not a failure" */
    VERDICT_NCCL,            /* look-alike: NCCL error not caused by memory */
    VERDICT_DISK,            /* look-alike: a write failed, the disk or a quota is full */
    VERDICT_KERNEL_FAULT,    /* look-alike: a kernel accessed bad memory or failed to launch */
    VERDICT_DEVICE_ASSERT,   /* look-alike: a kernel's own assert (an index out of range) */
    VERDICT_GPU_HARDWARE,    /* look-alike: an uncorrectable ECC error of the card */
    VERDICT_SIZE_OVERFLOW,   /* look-alike: a tensor size overflowed before allocation */
    VERDICT_NOT_MEMORY,      /* look-alike: a log's final error, no memory event at all */
    VERDICT_CUT_OFF,         /* look-alike: the paste ends in a traceback, its exception cut off */
    VERDICT_COUNT
};

struct verdicts {
    unsigned set;                /* 1u << enum verdict_kind */
    const struct oom_event *ev;  /* the event judged (primary, else first) */
    int64_t shortfall;           /* requested - free; -1 unknown */
    int64_t unallocated;         /* reserved but unallocated; -1 unknown */
    int64_t others;              /* held outside this process; -1 unknown */
    bool others_outside_pytorch; /* others counted against PyTorch's pool, not the process */
    int ranks;                   /* distinct ranks seen, 0 none */
    int oom_ranks;               /* distinct ranks with a GPU OOM */
    bool expandable_set;         /* expandable_segments already on */
    /* From the torch hook's files (verdict_add_hook); -1 / not present when none. */
    struct oom_memsummary hook_mem; /* its memory_summary() of the failing device */
    int64_t largest_free;           /* snapshot: largest free cached block */
    int64_t cached_free;            /* snapshot: all free cached blocks */
    bool frag_from_snapshot;        /* the snapshot shows the request fit in total only */
    const char *first_by;        /* how the root-cause rank was told among several OOMs:
                                    "timestamp", "log-order", "file-order"; NULL: one OOM.
                                    The caller (diagnose) sets it after verdict_compute. */
};

void verdict_compute(const struct oom_report *rep, struct verdicts *v);

/* What a look-alike event is, by its framework or kind (the first row of
 * verdict.c's look-alike table that matches); VERDICT_COUNT when none. */
enum verdict_kind verdict_lookalike(const struct oom_event *e);

/* The torch hook's evidence for the judged event (diagnose RUN_ID reads
 * logs/ID_oom/): its memory_summary() table (mem may be NULL) and, from a
 * snapshot, the largest free cached block and all free cached memory (-1
 * unknown), with the request the snapshot recorded (-1: the message's).
 * Fragmentation when the table shows it (as a logged table does), or when
 * the request is larger than the largest free block but not than the
 * cached free memory: there was room in total, in no single block. */
void verdict_add_hook(struct verdicts *v, const struct oom_memsummary *mem, int64_t largest_free,
                      int64_t cached_free, int64_t snap_requested);
static inline bool verdict_has(const struct verdicts *v, enum verdict_kind k)
{
    return (v->set >> k) & 1u;
}
/* "fragmentation", "other-processes", ... (the JSON names). */
const char *verdict_name(enum verdict_kind k);
/* One sentence with this log's numbers; returns buf. */
const char *verdict_explain(const struct verdicts *v, enum verdict_kind k, char *buf,
                            size_t cap);

#endif
