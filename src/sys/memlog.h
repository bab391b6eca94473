/* memlog: GPU memory samples to a CSV file, shared by `run` (logs/ID_mem.csv)
 * and `watch --csv`, so both write the same columns. Synchronous: the caller
 * calls memlog_tick at its interval (run from its poll loop). A memlog owns
 * its FILE and its pid set; free it with memlog_close.
 *
 * File layout: '#'-prefixed header lines (start time, command, host, GPU
 * names, driver), then the CSV header
 *   timestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib
 * then one row per GPU per tick. Unknown cells are empty, never 0. tree_mib
 * is the memory NVML attributes to root_pid and its descendants (empty when
 * root_pid is 0 or NVML gives no per-process figure). timestamp is ISO 8601
 * UTC with milliseconds ("2026-11-29T08:45:12.345Z"); MiB figures are whole
 * MiB rounded to nearest, as nvidia-smi prints them. memlog_close appends
 * '#' trailer lines: "# end: TIME" and one "# peak gpu N: ..." per GPU.
 * Every tick's rows go out in one write(2); a failed or short write is cut
 * back (ftruncate) so the file never ends in half a row, and reported. */
#ifndef OOMLAB_MEMLOG_H
#define OOMLAB_MEMLOG_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/err.h"
#include "sys/nvml.h"

struct memlog;

struct memlog_peak {
    unsigned gpu;
    int64_t total;     /* bytes */
    int64_t used_peak; /* highest device-wide used seen, -1 none */
    int64_t tree_peak; /* highest used by root_pid's tree, -1 none */
    int64_t used_first; /* device-wide used at the first sample that read it, -1 none */
    long samples;
    long tree_unknown; /* samples that read the GPU but not the tree's figure (root_pid
                          set; NVML's list failed, or held only pids /proc cannot see) */
    int64_t used_last, tree_last, free_last; /* the latest sample's figures, -1 unknown */
};

/* gpus: the indices to sample (n_gpus == 0: all). command and the other
 * header facts go into the '#' lines. The file is created (truncated),
 * never through a symbolic link (refused: O_TRUNC would empty its target);
 * a device or FIFO the user names is written as it is. When the header
 * cannot be written (full disk), -1: a file this call created is removed,
 * one that was there is left empty, and err says which. */
int memlog_open(struct memlog **out, struct nvml *nv, const char *path, const unsigned *gpus,
                size_t n_gpus, pid_t root_pid, const char *command, struct oomlab_err *err);
/* Sample every selected GPU once and append rows. -1 only when the rows
 * cannot be written (err says why; later ticks try again). An NVML failure
 * gives empty cells and is kept for memlog_warning. */
int memlog_tick(struct memlog *ml, struct oomlab_err *err);

/* One GPU's figures for memlog_record: what watch already sampled. */
struct memlog_sample {
    const struct nvml_gpu *gpu; /* NULL: the GPU could not be read (empty cells) */
    unsigned index;             /* used when gpu is NULL */
    int64_t tree_used;          /* bytes of root_pid's tree on it; -1 unknown */
};
/* Append one tick of already-sampled rows (the same format as memlog_tick);
 * updates the peaks. Timestamped now. */
int memlog_record(struct memlog *ml, const struct memlog_sample *s, size_t n,
                  struct oomlab_err *err);
/* The first NVML error met while sampling, or NULL. Owned by ml. */
const char *memlog_warning(const struct memlog *ml);
/* The CSV header line (no newline), for tests and docs. */
const char *memlog_columns(void);
/* Peaks so far; returns the number of entries written to out (<= max). */
size_t memlog_peaks(const struct memlog *ml, struct memlog_peak *out, size_t max);
/* The tree's memory per rank of a distributed job (oomlab run -- torchrun):
 * each member's rank and torchelastic attempt from its environment
 * (sys/proc proc_rank), its bytes summed over the sampled GPUs at each
 * tick; the highest sum per rank and attempt. The first MEMLOG_RANKS. */
#define MEMLOG_RANKS 1024
struct memlog_rank_peak {
    long rank, attempt;
    int64_t peak; /* bytes */
};
size_t memlog_rank_peaks(const struct memlog *ml, struct memlog_rank_peak *out, size_t max);

/* Write the trailer, close and free; -1 when a write failed at any point
 * (disk full), with the first failure in err. ml may be NULL. */
int memlog_close(struct memlog *ml, struct oomlab_err *err);

#endif
