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
#include <stdint.h>

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
    JOBS_SAME_RUN,    /* read for one RUN_ID: logs/ID.log and logs/ID_rankN.log */
};

/* "alone", "same-job", "rank-name", "rank-prefix", "same-run" (the JSON
 * values). */
const char *jobs_link_name(enum jobs_link link);

struct jobs_log {
    const char *path;
    const char *job_id; /* "" or NULL: none seen */
    const int *ranks;   /* ranks its events carry (-1 entries ignored) */
    size_t n_ranks;
    const char *run_id; /* the RUN_ID it was read for; NULL: a path */
};

/* run[i] = index of the first log of log i's run (so run[i] <= i, and
 * run[i] == i for the first log of each run); link[i] = how log i was
 * joined (its run's first log gets the link of its second). Returns the
 * number of runs. Logs naming different job ids are never joined. */
size_t jobs_group(const struct jobs_log *logs, size_t n, size_t *run, enum jobs_link *link);

/* The rank a file name gives: `_rank3`, `rank-3`, `rank.3` (the last such
 * in the path); -1 when none. */
int jobs_rank_of_path(const char *path);

/* The time a line's logger stamped it, as a key that orders lines of one
 * job: 1 when found. Forms (in the line's first 96 bytes): glog and torch's
 * c10 logger `E0505 21:53:43.596518` / `[rank0]:[W321 02:07:08.408271257`
 * (month and day, no year), and `2024-04-20 18:56:38,931` /
 * `2024-11-20T14:37:16.5` (python logging, ISO). The key is month, day,
 * time of day to the nanosecond; the year is not compared (a job that
 * crosses New Year's night orders wrongly). */
int jobs_line_time(const char *line, size_t len, int64_t *key);

#endif
