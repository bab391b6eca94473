/* nvml: GPU memory through NVIDIA's NVML, loaded at run time with dlopen
 * ("libnvidia-ml.so.1", or the path in OOMLAB_NVML_LIBRARY) — no build-time
 * dependency. Newest API first with fallbacks (see ../shared NVML facts in
 * docs/nvml.md). The caller closes the handle with nvml_close and frees
 * process lists with free(). Unknown values are -1, never 0.
 * Not thread-safe: one struct nvml per thread. */
#ifndef OOMLAB_NVML_H
#define OOMLAB_NVML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

struct nvml;

struct nvml_gpu {
    unsigned index; /* NVML index (nvidia-smi's) */
    char name[96];
    int64_t total, used, free; /* bytes; used matches nvidia-smi */
    int64_t reserved;          /* driver reservation (memory info v2), -1 unknown */
    int util_gpu, util_mem;    /* percent, -1 when not supported */
};

struct nvml_proc {
    unsigned pid;  /* host PID namespace */
    int64_t used;  /* bytes, -1 when NVML cannot say */
    bool graphics; /* found through the graphics list only */
};

/* Load and initialise. -1 with a message naming the library and the
 * NVML error string when there is no driver or no GPU. */
int nvml_open(struct nvml **out, struct oomlab_err *err);
void nvml_close(struct nvml *nv);

int nvml_count(struct nvml *nv, unsigned *count, struct oomlab_err *err);
/* gpu (an index from --gpu; < 0: none asked) is past the count NVML gave:
 * true with the one message every command gives ("--gpu 7: NVML sees 1 GPU
 * (index 0), so there is no GPU 7; ..."), false when it is there. */
bool nvml_gpu_missing(int gpu, unsigned count, struct oomlab_err *err);
/* Driver version into buf ("" when unknown). */
void nvml_driver(struct nvml *nv, char *buf, size_t size);
/* Name, memory and utilisation of GPU index. */
int nvml_gpu(struct nvml *nv, unsigned index, struct nvml_gpu *gpu, struct oomlab_err *err);
/* Compute (and graphics) processes on GPU index, de-duplicated by pid.
 * *procs is malloc'd (NULL when *n == 0); caller frees. */
int nvml_procs(struct nvml *nv, unsigned index, struct nvml_proc **procs, size_t *n,
               struct oomlab_err *err);

/* The library path that was loaded (owned by nv). */
const char *nvml_library(const struct nvml *nv);
/* Which entry points are in use, e.g. "init_v2 count_v2 handle_v2 memory_v2
 * processes_v3" (after a fallback: "memory_v1", "processes_v1"); it changes as
 * calls fall back. Written into buf; returns buf. */
const char *nvml_api(const struct nvml *nv, char *buf, size_t size);
/* Sum of the known used bytes of procs; -1 when n > 0 and every value is
 * unknown. *unknown (may be NULL) counts the processes whose figure is -1. */
int64_t nvml_procs_sum(const struct nvml_proc *procs, size_t n, size_t *unknown);

#endif
