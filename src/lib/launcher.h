/* launcher: who this process is in a distributed job, read from the
 * environment its launcher set (torchrun/torchelastic, SLURM srun, Open
 * MPI, MPICH/Intel MPI Hydra): rank, local rank, node, world sizes, job id,
 * restart count, and the GPU the rank uses where that is knowable. Which
 * variable wins for each field is a table (launcher.c, docs/clusters.md).
 * Pure: the caller passes a lookup function; nothing is allocated. */
#ifndef OOMLAB_LAUNCHER_H
#define OOMLAB_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>

#define LAUNCHER_JOB_MAX 80

/* The value of an environment variable, NULL when unset. */
typedef const char *(*launcher_getenv_fn)(const char *name, void *ctx);

struct launcher_info {
    long rank, local_rank, node_rank; /* -1 unknown */
    long world_size, local_world_size; /* -1 unknown */
    long restart;                     /* torchelastic / SLURM requeue count; -1 unknown */
    char job_id[LAUNCHER_JOB_MAX];    /* "slurm:123456", "torchelastic:abc", ... ; "" none */
    int gpu;                          /* the NVML index of the rank's GPU; -1 unknown */
    const char *gpu_why;              /* how gpu was chosen, or why it is unknown (static text) */
    /* the variable each field came from ("" none): the record says which */
    const char *rank_from, *local_rank_from, *job_from;
};

/* Fill info from the environment. Values that are not plain non-negative
 * decimal integers are ignored (the next variable in the table is tried). */
void launcher_detect(launcher_getenv_fn get, void *ctx, struct launcher_info *info);

/* One of several ranks: a rank is known and the world is larger than one
 * (or unknown while the rank is above 0). */
bool launcher_is_rank(const struct launcher_info *info);

/* A run id for a job's ranks when none was given: "slurm-123456" from
 * "slurm:123456" (characters a run id may not hold become '-'). 0, or -1
 * when there is no job id or it does not fit size. */
int launcher_default_id(const struct launcher_info *info, char *buf, size_t size);

/* The GPU for local rank lr under CUDA_VISIBLE_DEVICES cvd (NULL: unset):
 * one listed index -> it; several -> the lr-th; unset -> lr (the
 * torch.cuda.set_device(LOCAL_RANK) convention); UUIDs, MIG names or an
 * empty list -> -1. why (may be NULL) receives the reason. */
int launcher_gpu(const char *cvd, long lr, const char **why);

#endif
