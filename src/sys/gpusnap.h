/* gpusnap: one snapshot of who holds GPU memory — NVML's devices and
 * processes joined with /proc (owner, parent, command line, age, RSS) and
 * judged by lib/stale — shared by `ps` and `watch`. The snapshot owns its
 * arrays; free them with gpusnap_release. */
#ifndef OOMLAB_GPUSNAP_H
#define OOMLAB_GPUSNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/stale.h"
#include "sys/nvml.h"
#include "sys/proc.h"

struct gpusnap_proc {
    struct nvml_proc nv;        /* pid, used (-1 unknown), graphics */
    bool visible;               /* /proc knows it */
    struct proc_info info;      /* valid when visible */
    char parent_comm[64];       /* "" unknown */
    char parent_cmdline[1024];  /* "" unknown */
    double cpu_s;               /* CPU seconds gained over the window; -1 unknown */
    double cpu_end_s;           /* its CPU seconds in all when the window ended; -1 unknown */
    struct stale_result assess; /* flags with evidence, activity, kind */
};

struct gpusnap_gpu {
    struct nvml_gpu gpu;
    bool ok; /* false: error says why; nothing else valid */
    char error[512];
    bool procs_ok;              /* false: error says why the list failed */
    struct gpusnap_proc *procs; /* sorted by used, largest first */
    size_t n_procs;
    int64_t unaccounted; /* used minus what visible processes hold; -1 unknown */
    int64_t hidden;      /* held by pids /proc cannot see; -1 unknown */
    double window_s;     /* details: how long the GPU and its holders were
                            watched; 0: one reading, not watched */
    int util_reads;      /* utilisation readings; gpu.util_gpu is the highest,
                            -1 when any of them was unknown */
};

struct gpusnap {
    char driver[96];
    struct gpusnap_gpu *gpus;
    size_t n;
};

struct gpusnap_opts {
    int gpu;             /* one NVML index, or -1 for every GPU */
    double idle_after_s; /* stale rule threshold */
    int64_t window_ms;   /* details: when any holder is visible, watch every GPU's
                            utilisation (every util_interval_ms) and each holder's
                            CPU time for this long: the evidence of work or of
                            none (one reading can fall between two steps) */
    int64_t util_interval_ms;
    bool details; /* read /proc and judge each process (ps); watch skips it */
};

/* Take a snapshot. -1 only when the GPUs cannot even be counted or the
 * index does not exist; a GPU that cannot be read is kept with ok = false. */
int gpusnap_take(struct nvml *nv, const struct gpusnap_opts *opts, struct gpusnap *out,
                 struct oomlab_err *err);
void gpusnap_release(struct gpusnap *s);

/* The process pid in s: the first GPU that lists it, or NULL. With *from
 * (start NULL, then the previous answer) the next listing after *from: a
 * process on several GPUs is listed once per GPU. */
const struct gpusnap_proc *gpusnap_find(const struct gpusnap *s, unsigned pid, unsigned *gpu);
const struct gpusnap_proc *gpusnap_next(const struct gpusnap *s, unsigned pid,
                                        const struct gpusnap_proc *from, unsigned *gpu);

#endif
