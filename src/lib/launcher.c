/* launcher: the rank fields as tables of environment variables, first
 * match wins. Sources (docs/clusters.md cites them): torchrun's worker
 * environment (docs.pytorch.org/docs/stable/elastic/run.html), srun's
 * OUTPUT ENVIRONMENT VARIABLES (slurm.schedmd.com/srun.html), Open MPI's
 * (docs.open-mpi.org/en/v5.0.x/tuning-apps/environment-var.html), and the
 * PMI_RANK/PMI_SIZE/MPI_LOCALRANKID that MPICH's and Intel MPI's Hydra set. */
#include "lib/launcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why this order: a launcher started under another one sets its own
 * variables last, and they are the ones that describe this process.
 * torchrun under srun: RANK is the worker's rank, SLURM_PROCID the
 * agent's task; mpirun inside an sbatch allocation: OMPI_* describe the
 * MPI rank, SLURM_PROCID the batch step's single task. */
static const char *const rank_vars[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", NULL};
static const char *const local_vars[] = {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                         "SLURM_LOCALID", NULL};
/* GROUP_RANK is torchrun's node rank (one worker group per node);
 * OMPI_COMM_WORLD_NODE_RANK is not a node index (it counts across jobs). */
static const char *const node_vars[] = {"GROUP_RANK", "SLURM_NODEID", NULL};
static const char *const world_vars[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS",
                                         "SLURM_NPROCS", NULL};
static const char *const local_world_vars[] = {"LOCAL_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
                                               "MPI_LOCALNRANKS", NULL};
static const char *const restart_vars[] = {"TORCHELASTIC_RESTART_COUNT", "SLURM_RESTART_COUNT", NULL};

/* Job ids: the scheduler's job spans every launcher inside it. */
static const struct {
    const char *var, *prefix;
} job_vars[] = {
    {"SLURM_JOB_ID", "slurm"},
    {"SLURM_JOBID", "slurm"},
    {"PBS_JOBID", "pbs"},   /* PBS Pro / Torque qsub(1B) */
    {"LSB_JOBID", "lsf"},   /* IBM Spectrum LSF bsub */
    {"TORCHELASTIC_RUN_ID", "torchelastic"},
};

#define LAUNCHER_MAX_VALUE 100000000L

static long plain_number(const char *s)
{
    if (!s || !*s || strlen(s) > 9) return -1;
    long v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return -1;
        v = v * 10 + (*p - '0');
    }
    return v <= LAUNCHER_MAX_VALUE ? v : -1;
}

static long first_number(launcher_getenv_fn get, void *ctx, const char *const *vars, const char **from)
{
    for (size_t i = 0; vars[i]; i++) {
        long v = plain_number(get(vars[i], ctx));
        if (v >= 0) {
            if (from) *from = vars[i];
            return v;
        }
    }
    if (from) *from = "";
    return -1;
}

/* torchrun's default rendezvous id is the word "none" on every node of
 * every job: not an id. */
static void detect_job(launcher_getenv_fn get, void *ctx, struct launcher_info *info)
{
    for (size_t i = 0; i < sizeof job_vars / sizeof job_vars[0]; i++) {
        const char *v = get(job_vars[i].var, ctx);
        if (!v || !*v || !strcmp(v, "none")) continue;
        int n = snprintf(info->job_id, sizeof info->job_id, "%s:%s", job_vars[i].prefix, v);
        if (n < 0 || (size_t)n >= sizeof info->job_id) continue; /* too long to be one */
        info->job_from = job_vars[i].var;
        return;
    }
    info->job_id[0] = '\0';
}

void launcher_detect(launcher_getenv_fn get, void *ctx, struct launcher_info *info)
{
    memset(info, 0, sizeof *info);
    info->rank = first_number(get, ctx, rank_vars, &info->rank_from);
    info->local_rank = first_number(get, ctx, local_vars, &info->local_rank_from);
    info->node_rank = first_number(get, ctx, node_vars, NULL);
    info->world_size = first_number(get, ctx, world_vars, NULL);
    info->local_world_size = first_number(get, ctx, local_world_vars, NULL);
    info->restart = first_number(get, ctx, restart_vars, NULL);
    info->job_from = "";
    detect_job(get, ctx, info);
    info->gpu = info->rank >= 0 || info->local_rank >= 0
                    ? launcher_gpu(get("CUDA_VISIBLE_DEVICES", ctx), info->local_rank, &info->gpu_why)
                    : -1;
    if (info->rank < 0 && info->local_rank < 0) info->gpu_why = "not a rank of a launcher";
}

bool launcher_is_rank(const struct launcher_info *info)
{
    return info->rank >= 0 && (info->world_size > 1 || (info->world_size < 0 && info->rank > 0));
}

int launcher_default_id(const struct launcher_info *info, char *buf, size_t size)
{
    size_t n = strlen(info->job_id);
    if (!n || n >= size || n > 63) return -1;
    for (size_t i = 0; i < n; i++) {
        char c = info->job_id[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                  (c == '.' && i > 0) || c == '-';
        buf[i] = ok ? c : '-';
    }
    buf[n] = '\0';
    return 0;
}

/* Entry k of a comma-separated list of plain indices; -1 when the list
 * holds anything else (a UUID, MIG-..., a blank) or has no entry k. */
static int nth_index(const char *list, long k, size_t *count)
{
    int found = -1;
    size_t n = 0;
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char word[16];
        if (len == 0 || len >= sizeof word) return *count = 0, -1;
        memcpy(word, p, len);
        word[len] = '\0';
        long v = plain_number(word);
        if (v < 0 || v > 63) return *count = 0, -1;
        if ((long)n == k) found = (int)v;
        n++;
        p = end ? end + 1 : p + len;
    }
    *count = n;
    return found;
}

int launcher_gpu(const char *cvd, long lr, const char **why)
{
    const char *w;
    int gpu = -1;
    size_t count = 0;
    if (!cvd) {
        gpu = lr >= 0 && lr <= 63 ? (int)lr : -1;
        w = gpu >= 0 ? "LOCAL_RANK-th GPU (CUDA_VISIBLE_DEVICES unset)" : "no local rank";
    } else if (nth_index(cvd, 0, &count) < 0 && count == 0) {
        w = *cvd ? "CUDA_VISIBLE_DEVICES names GPUs by UUID or MIG id" : "CUDA_VISIBLE_DEVICES is empty";
    } else if (count == 1) {
        gpu = nth_index(cvd, 0, &count);
        w = "the one GPU in CUDA_VISIBLE_DEVICES";
    } else if (lr < 0) {
        w = "several GPUs in CUDA_VISIBLE_DEVICES and no local rank";
    } else {
        gpu = nth_index(cvd, lr, &count);
        w = gpu >= 0 ? "the LOCAL_RANK-th GPU of CUDA_VISIBLE_DEVICES"
                     : "LOCAL_RANK is past the end of CUDA_VISIBLE_DEVICES";
    }
    if (why) *why = w;
    return gpu;
}
