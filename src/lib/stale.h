/* stale: which GPU memory holders look left behind, and what kind of
 * process each is, as rule tables over facts the caller gathered from
 * NVML and /proc (pure: unit-tested on plain structs). Each flag carries
 * its evidence as a sentence. Nothing allocates; results live in the
 * caller's struct stale_result. */
#ifndef OOMLAB_STALE_H
#define OOMLAB_STALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STALE_MAX_FLAGS 4

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
    int gpu_util;               /* device-wide utilisation %, -1 unknown */
    double util_window_s;       /* gpu_util is the highest of samples over this
                                   many seconds; 0: one reading */
    double idle_after_s;        /* how long 0% must last to count as idle */
};

struct stale_flag {
    const char *name; /* "zombie", "orphan", "idle", "hidden" */
    bool stale;       /* counts as left behind (ps --kill may act) */
    char evidence[256];
};

struct stale_result {
    struct stale_flag flags[STALE_MAX_FLAGS];
    size_t n_flags;
    bool stale;       /* any stale flag */
    const char *kind; /* "jupyter-kernel", "ipython", "torchrun-child",
                         "dataloader-worker"; NULL when none matched */
    char kind_evidence[160];
};

/* Apply every rule to f. */
void stale_assess(const struct stale_facts *f, struct stale_result *out);

/* "45s", "12m05s", "2h13m", "3d04h"; "unknown" when seconds < 0. */
const char *stale_duration(double seconds, char *buf, size_t size);

#endif
