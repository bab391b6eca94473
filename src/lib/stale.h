/* stale: which GPU memory holders look left behind, and what kind of
 * process each is, as rule tables over facts the caller gathered from
 * NVML and /proc over a sampling window (pure: unit-tested on plain
 * structs). A stale flag needs evidence that the process does no GPU work
 * (a zombie, or quiet over the window); being re-parented to init or a
 * subreaper is no such evidence (nohup, setsid, containers). Each flag
 * carries its evidence as a sentence. Nothing allocates; results live in
 * the caller's struct stale_result. */
#ifndef OOMLAB_STALE_H
#define OOMLAB_STALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STALE_MAX_FLAGS 4

/* What the sampling window showed about a holder's work. Only QUIET (the
 * GPU stayed at 0% on every reading and the process gained no CPU time) is
 * evidence for a stale flag; BUSY and UNKNOWN protect it from --kill. */
enum stale_activity {
    STALE_UNKNOWN, /* not watched, or a figure could not be read */
    STALE_QUIET,
    STALE_BUSY,
};

struct stale_facts {
    long pid;
    unsigned gpu;
    bool visible;               /* /proc knows the pid */
    char state;                 /* /proc state letter; '?' unknown */
    long ppid;                  /* 0 unknown */
    const char *parent_comm;    /* NULL unknown */
    const char *parent_cmdline; /* NULL unknown */
    const char *cmdline;        /* NULL unknown */
    double elapsed_s;           /* process age; < 0 unknown */
    int64_t used_bytes;         /* GPU memory it holds; -1 unknown */
    /* the sampling window: the process and its GPU watched together */
    double window_s;     /* how long; 0: not watched */
    int gpu_util_max;    /* highest device-wide utilisation read, %; -1 when any
                            reading was unknown (not supported, failed) */
    int gpu_util_reads;  /* readings behind gpu_util_max (the first included) */
    double cpu_s;        /* CPU seconds (user+system) it gained over the window;
                            < 0 unknown */
    double idle_after_s; /* how old a quiet holder must be to count as idle */
};

struct stale_flag {
    const char *name; /* "zombie", "orphan", "idle" (stale); "reparented", "hidden" */
    bool stale;       /* counts as left behind (ps --kill may act) */
    char evidence[512];
};

struct stale_result {
    struct stale_flag flags[STALE_MAX_FLAGS];
    size_t n_flags;
    bool stale; /* any stale flag */
    enum stale_activity activity;
    char activity_evidence[256]; /* what the window showed, as a sentence */
    const char *kind;            /* "jupyter-kernel", "ipython", "torchrun-child",
                                    "dataloader-worker"; NULL when none matched */
    char kind_evidence[160];
};

/* Apply every rule to f. */
void stale_assess(const struct stale_facts *f, struct stale_result *out);

/* "quiet", "busy", "unknown". */
const char *stale_activity_name(enum stale_activity a);

/* "45s", "12m05s", "2h13m", "3d04h"; "unknown" when seconds < 0. */
const char *stale_duration(double seconds, char *buf, size_t size);

#endif
