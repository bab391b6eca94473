/* jobs: which of several logs are ranks of one job. Each log is its own run
 * unless the logs name the same job (SLURM job id, torchelastic run id /
 * rendezvous id in their lines) or their file names differ only in a rank
 * number (`train_rank3.log`, `rank-3.log`, `train.3.log`), or only in a
 * number while each carries different ranks in its prefixes (`[rank3]:`).
 * Pure; the caller owns every array. */
#ifndef OOMLAB_JOBS_H
#define OOMLAB_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#define JOBS_ID_MAX 80

/* A job id a line names, as "slurm:123456" or "torchelastic:abc": 1 when
 * found (written to out), 0 when not. The line needs no NUL. */
int jobs_id_in_line(const char *line, size_t len, char *out, size_t cap);

/* How a log joined its run. */
enum jobs_link {
    JOBS_ALONE,       /* its own run */
    JOBS_SAME_JOB,    /* the same job id as another log of the run */
    JOBS_RANK_NAME,   /* a rank-numbered name (`_rankN`, `rank-N`, `.N.log`) */
    JOBS_RANK_PREFIX, /* names differ only in a number; distinct [rankN] prefixes */
};

/* "alone", "same-job", "rank-name", "rank-prefix" (the JSON values). */
const char *jobs_link_name(enum jobs_link link);

struct jobs_log {
    const char *path;
    const char *job_id; /* "" or NULL: none seen */
    const int *ranks;   /* ranks its events carry (-1 entries ignored) */
    size_t n_ranks;
};

/* run[i] = index of the first log of log i's run (so run[i] <= i, and
 * run[i] == i for the first log of each run); link[i] = how log i was
 * joined (its run's first log gets the link of its second). Returns the
 * number of runs. Logs naming different job ids are never joined. */
size_t jobs_group(const struct jobs_log *logs, size_t n, size_t *run, enum jobs_link *link);

#endif
