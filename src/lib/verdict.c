/* verdict: judgements from an OOM's numbers (see verdict.h). Thresholds
 * are named here so the docs can quote them. */
#include "lib/verdict.h"

#include "lib/memsummary.h"

#include <stdio.h>
#include <string.h>

#include "lib/units.h"

#define EARLY_STEPS 10                   /* "the first ten steps": configuration */
#define FRAG_MIN_SHARE 50                /* unallocated >= 2% of the card (1/50) */
#define OTHERS_MIN_SHARE 10              /* others >= 10% of the card */
#define ABSURD_BYTES ((int64_t)1 << 50)  /* 1 PiB: no real request */
#define ABSURD_CARD_MULT 64              /* or 64x the card */
/* A full card: free and the request both under 2% of it (1/50). Then the
 * shortfall is no distance to fitting: the request is only the last one of
 * a run that filled the card ("asked for 56 MiB with 49.81 MiB free" with
 * 77.92 of 79.33 GiB allocated by PyTorch, hiyouga/LlamaFactory#9510, a
 * stranger's reading; diagcall4). */
#define FULL_CARD_SHARE 50

static void set(struct verdicts *v, enum verdict_kind k)
{
    v->set |= 1u << k;
}

static int64_t unallocated_of(const struct oom_event *e)
{
    if (e->bytes.reserved_unallocated >= 0) return e->bytes.reserved_unallocated;
    if (e->reserved_is_cached) return e->bytes.reserved;
    if (e->bytes.reserved >= 0 && e->bytes.allocated >= 0 &&
        e->bytes.reserved >= e->bytes.allocated)
        return e->bytes.reserved - e->bytes.allocated;
    return -1;
}

/* Memory on the card not held by this process: capacity - free - ours. */
static int64_t others_of(const struct oom_event *e, bool *pytorch_only)
{
    const struct oom_bytes *b = &e->bytes;
    if (b->capacity < 0 || b->free < 0) return -1;
    int64_t ours = b->process_in_use > 0 ? b->process_in_use : -1;
    if (ours < 0 && e->n_procs == 1) ours = e->procs[0].bytes;
    *pytorch_only = ours < 0;
    if (ours < 0 && b->reserved >= 0 && e->reserved_is_cached && b->allocated >= 0)
        ours = b->allocated + b->reserved;
    else if (ours < 0 && b->reserved >= 0)
        ours = b->reserved;
    if (ours < 0 && b->allocated >= 0 && b->reserved_unallocated >= 0)
        ours = b->allocated + b->reserved_unallocated;
    if (ours < 0) return -1;
    int64_t used = b->capacity - b->free - ours;
    if (e->n_procs > 1) {
        int64_t sum = 0;
        for (size_t i = 1; i < e->n_procs; i++) sum += e->procs[i].bytes;
        if (sum > used) used = sum;
    }
    return used > 0 ? used : 0;
}

static void judge_numbers(const struct oom_event *e, struct verdicts *v)
{
    const struct oom_bytes *b = &e->bytes;
    if (b->requested >= 0 && b->free >= 0) {
        v->shortfall = b->requested - b->free;
        if (v->shortfall > 0) set(v, VERDICT_SHORTFALL);
    }
    v->unallocated = unallocated_of(e);
    if (v->unallocated >= 0 && b->requested > 0 && v->unallocated >= b->requested &&
        (b->capacity < 0 || v->unallocated >= b->capacity / FRAG_MIN_SHARE))
        set(v, VERDICT_FRAGMENTATION);
    /* The allocator's own table: retries or much non-releasable memory. */
    if (memsummary_fragmented(&e->mem)) set(v, VERDICT_FRAGMENTATION);
    v->others = others_of(e, &v->others_outside_pytorch);
    /* Memory held elsewhere is the cause only when the request did not fit
     * in what was free; otherwise the allocator or driver is. */
    bool fits = b->free >= 0 && b->requested >= 0 && b->free >= b->requested;
    if (!fits && v->others > 0 && b->capacity > 0 && v->others >= b->capacity / OTHERS_MIN_SHARE)
        set(v, VERDICT_OTHER_PROCESSES);
    if (b->requested >= 0 && b->capacity > 0 && b->requested > b->capacity)
        set(v, VERDICT_EXCEEDS_CARD);
    if (b->requested >= ABSURD_BYTES ||
        (b->capacity > 0 && b->requested / ABSURD_CARD_MULT > b->capacity))
        set(v, VERDICT_ABSURD);
    if (b->allowed >= 0 && b->free >= 0 && b->requested >= 0 && b->free >= b->requested &&
        strcmp(e->framework, "pytorch") == 0 && strcmp(e->kind, "pytorch-mps") != 0)
        set(v, VERDICT_CAP);
    else if (b->free >= 0 && b->requested >= 0 && b->free >= b->requested &&
             !verdict_has(v, VERDICT_OTHER_PROCESSES))
        set(v, VERDICT_FREE_BUT_FAILED);
    if (strcmp(e->kind, "pytorch-mps") == 0 && b->allowed >= 0) set(v, VERDICT_CAP);
    if (e->attention_shape || e->attention_frames) set(v, VERDICT_ATTENTION);
    if (e->step >= 0) set(v, e->step <= EARLY_STEPS ? VERDICT_EARLY : VERDICT_MID_RUN);
}

/* What a look-alike is, by its framework or its kind (msg.c's rows): the
 * first entry that matches. */
static const struct {
    const char *framework, *kind;
    enum verdict_kind verdict;
} lookalikes[] = {
    {NULL, "other-error", VERDICT_NOT_MEMORY},
    {NULL, "cudnn-unsupported", VERDICT_NOT_MEMORY},
    {NULL, "sglang-request-slots", VERDICT_NOT_MEMORY},
    {NULL, "traceback-cut", VERDICT_CUT_OFF},
    {"host", NULL, VERDICT_HOST_MEMORY},
    {"triton", NULL, VERDICT_TRITON},
    {NULL, "tf-not-a-failure", VERDICT_TF_RETRY},
    {NULL, "julia-retry", VERDICT_TF_RETRY},
    {NULL, "autotune-choice", VERDICT_TF_RETRY},
    {"nccl", NULL, VERDICT_NCCL},
    {"io", NULL, VERDICT_DISK},
    {NULL, "cuda-illegal-address", VERDICT_KERNEL_FAULT},
    {NULL, "cuda-launch-failure", VERDICT_KERNEL_FAULT},
    {NULL, "cudnn-execution-failed", VERDICT_KERNEL_FAULT},
    {NULL, "cuda-launch-resources", VERDICT_KERNEL_FAULT},
    {NULL, "cuda-device-assert", VERDICT_DEVICE_ASSERT},
    {NULL, "gpu-ecc-error", VERDICT_GPU_HARDWARE},
    {NULL, "size-overflow", VERDICT_SIZE_OVERFLOW},
};

enum verdict_kind verdict_lookalike(const struct oom_event *e)
{
    for (size_t i = 0; i < sizeof lookalikes / sizeof lookalikes[0]; i++) {
        if (lookalikes[i].framework && strcmp(e->framework, lookalikes[i].framework)) continue;
        if (lookalikes[i].kind && strcmp(e->kind, lookalikes[i].kind)) continue;
        return lookalikes[i].verdict;
    }
    return VERDICT_COUNT;
}

static void judge_lookalike(const struct oom_event *e, struct verdicts *v)
{
    enum verdict_kind k = verdict_lookalike(e);
    if (k != VERDICT_COUNT) set(v, k);
}

static int count_distinct(const struct oom_report *rep, bool oom_only)
{
    int seen[64], n = 0;
    for (size_t i = 0; i < rep->n_events; i++) {
        const struct oom_event *e = &rep->events[i];
        if (e->rank < 0 || (oom_only && !e->gpu_oom)) continue;
        bool dup = false;
        for (int k = 0; k < n && !dup; k++) dup = seen[k] == e->rank;
        if (!dup && n < 64) seen[n++] = e->rank;
    }
    return n;
}

void verdict_compute(const struct oom_report *rep, struct verdicts *v)
{
    memset(v, 0, sizeof *v);
    v->shortfall = v->unallocated = v->others = -1;
    v->largest_free = v->cached_free = -1;
    oom_memsummary_init(&v->hook_mem);
    v->expandable_set = rep->expandable_set;
    v->ranks = count_distinct(rep, false);
    v->oom_ranks = count_distinct(rep, true);
    if (v->ranks > 1) set(v, VERDICT_MULTI_RANK);
    if (rep->n_events == 0) return;
    v->ev = rep->primary >= 0 ? &rep->events[rep->primary] : &rep->events[0];
    if (v->ev->gpu_oom) judge_numbers(v->ev, v);
    else judge_lookalike(v->ev, v);
}

const char *verdict_name(enum verdict_kind k)
{
    static const char *const names[VERDICT_COUNT] = {
        "shortfall", "fragmentation", "other-processes", "exceeds-card", "absurd-request",
        "per-process-cap", "free-but-failed", "attention", "early", "mid-run", "multi-rank",
        "host-memory", "triton-shared-memory", "tf-not-a-failure", "nccl-not-memory",
        "disk-not-memory", "kernel-fault", "device-assert", "gpu-hardware", "size-overflow",
        "not-memory", "cut-off",
    };
    return (unsigned)k < VERDICT_COUNT ? names[k] : "unknown";
}

void verdict_add_hook(struct verdicts *v, const struct oom_memsummary *mem, int64_t largest_free,
                      int64_t cached_free, int64_t snap_requested)
{
    if (!v->ev || !v->ev->gpu_oom) return;
    if (mem && mem->present) {
        v->hook_mem = *mem;
        if (memsummary_fragmented(mem)) set(v, VERDICT_FRAGMENTATION);
    }
    int64_t req = v->ev->bytes.requested > 0 ? v->ev->bytes.requested : snap_requested;
    v->largest_free = largest_free;
    v->cached_free = cached_free;
    if (largest_free >= 0 && req > largest_free && cached_free >= req) {
        v->frag_from_snapshot = true;
        set(v, VERDICT_FRAGMENTATION);
    }
}

/* Several ranks: which ran out first and how that was told, or, with no
 * GPU OOM among them, that their NCCL errors wait on a rank that failed. */
static void multi_rank_explain(const struct verdicts *v, char *buf, size_t cap)
{
    static const char root[] = ": the root cause; the others' NCCL timeouts and shutdowns are "
                               "its consequences";
    static const struct { const char *by, *how, *tail; } forms[] = {
        {"timestamp", " ran out first by the lines' timestamps", root},
        {"log-order", " ran out first in the log (no timestamps to compare)", root},
        {"file-order", "'s OOM, in the first log given, is taken as the root cause",
         ", but the logs carry no timestamps: which rank ran out first is not known"},
        {NULL, " ran out", root},
    };
    const struct oom_event *e = v->ev;
    if (!v->oom_ranks || !e || !e->gpu_oom) {
        snprintf(buf, cap, "%d ranks seen, none with a GPU OOM: their NCCL/watchdog errors "
                 "wait on the rank that failed first; its own log has the cause", v->ranks);
        return;
    }
    size_t f = 0;
    while (forms[f].by && !(v->first_by && !strcmp(v->first_by, forms[f].by))) f++;
    char who[32] = "the rank above";
    if (e->rank >= 0) snprintf(who, sizeof who, "rank %d", e->rank);
    snprintf(buf, cap, "%d ranks seen, %d with a GPU OOM; %s%s%s", v->ranks, v->oom_ranks, who,
             forms[f].how, forms[f].tail);
}


/* The table's evidence in words: what it shows of retries and of
 * non-releasable memory (a row it does not print is left out). */
static void frag_table_text(const struct oom_memsummary *m, const char *src, char *buf, size_t cap)
{
    char a[32], b[32];
    int at = snprintf(buf, cap, "memory_summary%s:", src);
    if (m->retries > 0 && at >= 0 && (size_t)at < cap)
        at += snprintf(buf + at, cap - (size_t)at, " %ld malloc retr%s (the allocator freed "
                       "its cache and tried again)%s", m->retries, m->retries == 1 ? "y" : "ies",
                       m->nonreleasable_cur >= 0 ? "," : "");
    if (m->nonreleasable_cur >= 0 && at >= 0 && (size_t)at < cap)
        at += snprintf(buf + at, cap - (size_t)at, " %s non-releasable of %s reserved",
                       units_format_bytes(m->nonreleasable_cur, a, sizeof a),
                       units_format_bytes(m->reserved_cur, b, sizeof b));
    if (at >= 0 && (size_t)at < cap)
        snprintf(buf + at, cap - (size_t)at, ": the cache is fragmented");
}

/* What a kernel-fault look-alike says, by its kind (msg.c's rows); the
 * last entry, an illegal or misaligned access, is the default. */
static const struct {
    const char *kind, *text;
} kernel_faults[] = {
    {"cuda-launch-failure",
     "a CUDA kernel failed while running: a bug in a kernel or an extension (or its build for "
     "this GPU), or an index out of range, not a shortage of memory; the line shown may come "
     "after the fault (CUDA reports errors asynchronously)"},
    {"cudnn-execution-failed",
     "a cuDNN kernel failed while running (CUDNN_STATUS_EXECUTION_FAILED): a fault in the "
     "kernel, its inputs (an earlier illegal access, a mixed-precision setting) or the "
     "cuDNN/driver build for this GPU, not a shortage of memory; the line shown may come after "
     "the fault (CUDA reports errors asynchronously)"},
    /* CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, per-block limits */
    {"cuda-launch-resources",
     "a CUDA kernel was launched with more registers, shared memory or threads per block than "
     "the GPU allows: its launch configuration (block size) or a build for another GPU, not a "
     "shortage of device memory"},
    {NULL,
     "a CUDA kernel accessed memory outside its buffers: a bug in a kernel or an extension (or "
     "its build for this GPU), or an index out of range, not a shortage of memory; the line "
     "shown may come after the fault (CUDA reports errors asynchronously)"},
};

static const char *kernel_fault_text(const char *kind)
{
    size_t i = 0;
    while (kernel_faults[i].kind && strcmp(kernel_faults[i].kind, kind)) i++;
    return kernel_faults[i].text;
}

const char *verdict_explain(const struct verdicts *v, enum verdict_kind k, char *buf,
                            size_t cap)
{
    char a[32], b[32], c[32];
    const struct oom_event *e = v->ev;
    const struct oom_bytes *by = e ? &e->bytes : NULL;
    buf[0] = '\0';
    if (!e) return buf;
    switch (k) {
    case VERDICT_SHORTFALL:
        if (by->capacity > 0 && by->free <= by->capacity / FULL_CARD_SHARE &&
            by->requested <= by->capacity / FULL_CARD_SHARE) {
            char d[32];
            int at = snprintf(buf, cap, "the card is full: %s free of %s",
                              units_format_bytes(by->free, a, sizeof a),
                              units_format_bytes(by->capacity, b, sizeof b));
            if (at >= 0 && (size_t)at < cap && by->allocated >= 0)
                at += snprintf(buf + at, cap - (size_t)at, ", %s allocated by PyTorch",
                               units_format_bytes(by->allocated, c, sizeof c));
            if (at >= 0 && (size_t)at < cap)
                snprintf(buf + at, cap - (size_t)at, "; the %s request that failed is only the "
                         "last one: at least %s short",
                         units_format_bytes(by->requested, a, sizeof a),
                         units_format_bytes(v->shortfall, d, sizeof d));
        } else
            snprintf(buf, cap, "asked for %s with %s free: %s short",
                     units_format_bytes(by->requested, a, sizeof a),
                     units_format_bytes(by->free, b, sizeof b),
                     units_format_bytes(v->shortfall, c, sizeof c));
        break;
    case VERDICT_FRAGMENTATION: {
        const struct oom_memsummary *m = e->mem.present ? &e->mem : &v->hook_mem;
        int64_t req = by->requested;
        if (v->frag_from_snapshot)
            snprintf(buf, cap, "the snapshot at the OOM: the largest free cached block is %s, "
                     "smaller than the %s request, with %s free in the cache: room in total, "
                     "in no single block", units_format_bytes(v->largest_free, a, sizeof a),
                     req > 0 ? units_format_bytes(req, b, sizeof b) : "recorded",
                     units_format_bytes(v->cached_free, c, sizeof c));
        else if (v->unallocated >= 0 && req > 0 && v->unallocated >= req)
            snprintf(buf, cap, "%s reserved by the allocator but unallocated, at least the %s "
                     "request: the cache is fragmented",
                     units_format_bytes(v->unallocated, a, sizeof a),
                     units_format_bytes(req, b, sizeof b));
        else
            frag_table_text(m, e->mem.present ? "" : " (torch hook)", buf, cap);
        break;
    }
    case VERDICT_OTHER_PROCESSES:
        snprintf(buf, cap, v->others_outside_pytorch
                 ? "%s of the %s card is not in PyTorch's pool: other processes, or this "
                   "process's CUDA context, NCCL buffers and other libraries"
                 : "%s of the %s card is held by other processes",
                 units_format_bytes(v->others, a, sizeof a),
                 units_format_bytes(by->capacity, b, sizeof b));
        break;
    case VERDICT_EXCEEDS_CARD:
        snprintf(buf, cap, "one request of %s is larger than the whole %s card: no batch "
                 "change helps", units_format_bytes(by->requested, a, sizeof a),
                 units_format_bytes(by->capacity, b, sizeof b));
        break;
    case VERDICT_ABSURD:
        snprintf(buf, cap, "a request of %s cannot be real: a shape bug or overflow",
                 units_format_bytes(by->requested, a, sizeof a));
        break;
    case VERDICT_CAP:
        snprintf(buf, cap, "a per-process cap of %s was hit with %s free on the device",
                 units_format_bytes(by->allowed, a, sizeof a),
                 units_format_bytes(by->free, b, sizeof b));
        break;
    case VERDICT_FREE_BUT_FAILED:
        snprintf(buf, cap, "%s free exceeds the %s request: the driver or allocator could not "
                 "map it (fragmentation at driver level, WDDM, unified memory)",
                 units_format_bytes(by->free, a, sizeof a),
                 units_format_bytes(by->requested, b, sizeof b));
        break;
    case VERDICT_ATTENTION:
        if (e->attention_shape)
            snprintf(buf, cap, "the tensor [%lld, %lld, %lld, %lld] has the shape of attention "
                     "scores [b, h, s, s]: memory grows with the square of the sequence",
                     (long long)e->shape[0], (long long)e->shape[1], (long long)e->shape[2],
                     (long long)e->shape[3]);
        else
            snprintf(buf, cap, "the failing frames are attention/softmax code: memory grows "
                     "with the square of the sequence length");
        break;
    case VERDICT_EARLY:
        snprintf(buf, cap, "failed at step %ld, within the first %d: a static configuration "
                 "problem (batch, sequence length or precision)", e->step, EARLY_STEPS);
        break;
    case VERDICT_MID_RUN:
        snprintf(buf, cap, "failed at step %ld after running fine: look for growth (longer "
                 "sequences, tensors kept across steps, evaluation or saving)", e->step);
        break;
    case VERDICT_MULTI_RANK:
        multi_rank_explain(v, buf, cap);
        break;
    case VERDICT_HOST_MEMORY:
        snprintf(buf, cap, "host RAM ran out (OOM killer, SIGKILL or the CPU allocator), not "
                 "GPU memory");
        break;
    case VERDICT_TRITON:
        snprintf(buf, cap, "a Triton kernel wants more shared memory per block than the SM "
                 "has; device memory is not the problem");
        break;
    case VERDICT_TF_RETRY:
        if (!strcmp(e->kind, "autotune-choice"))
            snprintf(buf, cap, "torch.compile's autotuning dropped a candidate kernel that failed "
                     "to build or run (a Triton config needing more shared memory than the SM "
                     "has) and went on with the others: not a failure");
        else if (!strcmp(e->framework, "julia"))
            snprintf(buf, cap, "CUDA.jl freed memory and retried the allocation, and the run "
                     "went on: not a failure");
        else
            snprintf(buf, cap, "TensorFlow says this allocation retry is not a failure");
        break;
    case VERDICT_NCCL:
        if (!strcmp(e->kind, "nccl-timeout"))
            snprintf(buf, cap, "the ranks timed out waiting in a collective: a rank that "
                     "never joined it stopped first (an OOM, an exception or a hang), and "
                     "this log does not show why");
        else
            snprintf(buf, cap, "NCCL failed for a reason other than memory");
        break;
    case VERDICT_DISK:
        snprintf(buf, cap, !strcmp(e->kind, "disk-full")
                 ? "the disk (or a quota) is full: a file could not be written; GPU memory is "
                   "not the problem"
                 : "writing a file failed (a full disk or quota, or a failing or network file "
                   "system); GPU memory is not the problem");
        break;
    case VERDICT_KERNEL_FAULT:
        snprintf(buf, cap, "%s", kernel_fault_text(e->kind));
        break;
    case VERDICT_DEVICE_ASSERT:
        snprintf(buf, cap, "a CUDA kernel's own check failed (device-side assert): most often "
                 "an index out of range (a label >= the number of classes, a token id >= the "
                 "vocabulary) or NaN/inf probabilities when sampling; not memory");
        break;
    case VERDICT_GPU_HARDWARE:
        snprintf(buf, cap, "the GPU reported an uncorrectable ECC error in its memory: a fault "
                 "of the card, not a shortage of memory");
        break;
    case VERDICT_NOT_MEMORY:
        snprintf(buf, cap, "no memory failure found; the log ends in: %s", e->text);
        break;
    case VERDICT_CUT_OFF:
        snprintf(buf, cap, "the paste ends inside a traceback, before its exception line: what "
                 "failed is cut off, and nothing shown is a memory failure");
        break;
    case VERDICT_SIZE_OVERFLOW:
        snprintf(buf, cap, "a tensor's size overflowed 64-bit arithmetic before anything was "
                 "allocated: a corrupt or mis-set size (a shape, a length), not a memory budget");
        break;
    default:
        break;
    }
    return buf;
}
