/* oom: the OOM events diagnose finds in a log, and the report built from
 * them. This header is the contract between the log engine (diagnose) and
 * its users (run, probe). Byte counts are int64_t with UNITS_UNKNOWN (-1)
 * for "the text does not state it"; ints use -1 for unknown.
 * The caller frees a report's insides with oom_report_release. */
#ifndef OOMLAB_OOM_H
#define OOMLAB_OOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

enum oom_stage {
    OOM_STAGE_UNKNOWN,
    OOM_STAGE_DATA,       /* data loading, collate, pin_memory */
    OOM_STAGE_LOAD,       /* model load: .to(), from_pretrained, checkpoint restore */
    OOM_STAGE_FORWARD,
    OOM_STAGE_BACKWARD,
    OOM_STAGE_OPTIMIZER,
    OOM_STAGE_EVAL,
    OOM_STAGE_GENERATE,   /* generation / KV cache */
    OOM_STAGE_CHECKPOINT, /* checkpoint save, logging, metrics */
    OOM_STAGE_COUNT
};

/* "unknown", "data", "load", "forward", "backward", "optimizer", "eval",
 * "generate", "checkpoint" — the ledger's oom_stage and the JSON values. */
const char *oom_stage_name(enum oom_stage stage);

struct oom_bytes {
    int64_t requested;            /* "Tried to allocate" */
    int64_t capacity;             /* total capacity of the GPU */
    int64_t free;
    int64_t allocated;            /* allocated by the framework */
    int64_t reserved;             /* reserved in total (old PyTorch form, "cached") */
    int64_t reserved_unallocated; /* "reserved by PyTorch but unallocated" */
    int64_t process_in_use;       /* "this process has X memory in use" */
    int64_t allowed;              /* per-process cap: "X allowed" */
    /* Added by the log engine: */
    int64_t other_in_use;         /* MPS "other allocations", BFC/driver figures */
    int64_t private_pools;        /* "with X allocated in private pools" */
};

#define OOM_MAX_PROCS 16

struct oom_proc {
    long pid;
    int64_t bytes;
};

/* What a torch.cuda.memory_summary() table printed near the event says
 * (lib/memsummary reads it). -1 where the table does not show the figure. */
struct oom_memsummary {
    bool present;
    int device;              /* "device ID N" */
    long ooms;               /* "CUDA OOMs: N" */
    long retries;            /* "cudaMalloc retries: N" */
    int64_t allocated_cur, allocated_peak;
    int64_t reserved_cur, reserved_peak;
    int64_t nonreleasable_cur, nonreleasable_peak;
};

struct oom_event {
    bool gpu_oom;          /* false for look-alikes (host OOM killer, Triton...) */
    const char *kind;      /* static string, see docs/diagnose.md */
    const char *framework; /* static string: "pytorch", "tensorflow", "jax", ... */
    long line;             /* 1-based line of the error text */
    long last_line;        /* the line of its last folded repeat; 0 none */
    int gpu;               /* -1 unknown */
    int rank;              /* -1 unknown */
    bool rank_from_table;  /* rank read from torchelastic's Root Cause record, not the
                              message: the failing rank, which a per-rank log's own rank
                              (its file name) replaces (left23) */
    long step;             /* last step seen before the error; -1 unknown */
    enum oom_stage stage;
    enum oom_stage weak_stage; /* the tool's lines by general words (diagverb): the stage
                                  only when nothing else names one, when the scan ends */
    bool unled;                /* nothing leads to its message (no frames, no context:
                                  an issue's title, an error pasted first); diagstage6 */
    bool stage_from_below;     /* unled, and its stage is the first lines below it only:
                                  the paste's last activity outranks them; diagstage9 */
    bool weak_from_log;        /* weak_stage read from the tool's own lines above the
                                  message (verb_walk), not from prose; diagopen39 */
    struct oom_bytes bytes;
    size_t n_procs;        /* other processes listed with their memory */
    struct oom_proc procs[OOM_MAX_PROCS];
    /* Added by the log engine (diagnose), not needed by run/probe: */
    struct oom_bytes bytes_step; /* per figure in bytes, the step of the last digit it was
                                  stated in: 1 stated in bytes ("3630170112 bytes"),
                                  10737418 for "3.38 GiB"; 0 not known. Where two parts
                                  of one event state a figure, the finer one that agrees
                                  with the coarser is kept (merge_into) */
    bool requested_from_shape; /* requested computed from a TF shape and dtype */
    bool attention_shape;      /* the tensor looks like [b, h, s, s] scores */
    bool attention_frames;     /* the failing frames are attention/softmax code */
    bool consequence;          /* a symptom of another failure (NCCL, watchdog) */
    bool reserved_is_cached;   /* oldest PyTorch form: bytes.reserved is "X cached",
                                  the cache's free part, not the total reserved */
    int shape_rank;            /* dims in shape[], 0 unknown */
    int dtype_size;            /* bytes per element of that tensor, 0 unknown */
    int64_t shape[8];
    long pid;                  /* from an NCCL-style host:pid:tid prefix; -1 */
    long repeats;              /* identical messages folded into this event */
    struct oom_memsummary mem; /* an allocator table printed with the event */
    char text[240];            /* the error line, cleaned (ANSI, prefixes, \r) */
};

/* Where the paste's context (lib/context) decided the call on an OOM named
 * only in words (diagthread): the evidence it rests on, by line. */
enum oom_context_call {
    OOM_CONTEXT_NONE,
    OOM_CONTEXT_ON_GPU,    /* device-less OOM words; the paste's context names the GPU */
    OOM_CONTEXT_DISCUSSED, /* OOM words in a change or discussion: no failure of this log */
    OOM_CONTEXT_CUT_TITLE, /* a traceback cut before its error under a title naming the GPU's memory */
};

#define OOM_CONTEXT_EVIDENCE 6

struct oom_context {
    enum oom_context_call call;
    size_t n;
    struct {
        long line;        /* 1-based */
        const char *what; /* static: "a change's title", "a line naming the GPU" */
        char text[80];    /* the line, cleaned and cut */
    } evidence[OOM_CONTEXT_EVIDENCE];
};

struct oom_report {
    struct oom_event *events;
    size_t n_events;
    long primary; /* index of the root-cause event, -1 when none */
    /* The log engine may add fields (verdicts, plan) below; users above
     * rely only on events, n_events and primary. */
    size_t n_dropped;     /* events beyond OOM_MAX_EVENTS, counted only */
    long lines;           /* lines read */
    bool expandable_set;  /* the log shows expandable_segments already set */
    bool truncated;       /* input ended inside a message or traceback */
    struct oom_context context; /* call NONE unless the paste's context decided it */
    /* The program's framework by its own words (scan_note_program): frame
     * paths (site-packages/tensorflow/, jax/_src/, torch/) and its log's
     * source paths ("I tensorflow/core/...", "E external/xla/xla/..."), read
     * from the lines the scan reads anyway. NULL unknown; program_mixed:
     * two frameworks named (a PyTorch program whose import printed TF's
     * banner), which counts as unknown. The plan's framework for an event
     * of the CUDA layer (progfw23). */
    const char *program_framework;
    bool program_mixed;
};

/* Events kept per report; more are counted in n_dropped. */
#define OOM_MAX_EVENTS 256

/* An event with every number unknown (-1) and stage unknown. */
void oom_event_init(struct oom_event *ev);
/* A table with nothing read (present false, every figure -1). */
void oom_memsummary_init(struct oom_memsummary *m);
void oom_report_init(struct oom_report *rep);
void oom_report_release(struct oom_report *rep);
/* One piece of evidence of the program's framework (a log of another
 * rank's merged in: its own, and whether it was mixed): a second framework
 * makes it mixed. */
void oom_report_note_program(struct oom_report *rep, const char *framework, bool mixed);
/* The program's framework, NULL where unknown or mixed. */
const char *oom_report_program(const struct oom_report *rep);

#endif
