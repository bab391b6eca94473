/* rankstats: the ranks of one log that interleaves a launcher's workers
 * (`oomlab run -- torchrun ...`, each line prefixed "[rankN]:"), each
 * rank's own figures per attempt (torchelastic restarts its workers after a
 * failure; the lines after the agent's Nth "will restart worker group" are
 * attempt N, run with TORCHELASTIC_RESTART_COUNT=N): its highest step-line
 * peak, its first GPU OOM (stage, PyTorch's counters, the card's capacity)
 * and its exit code from torchelastic's table. Fed line by line, then the
 * log engine's OOM events. Pure; rankstats_release frees the entries. */
#ifndef OOMLAB_RANKSTATS_H
#define OOMLAB_RANKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/elastic.h"
#include "lib/msg.h"
#include "lib/oom.h"
#include "lib/steps.h"

/* Ranks above this are not followed (a prefix that is not a rank). */
#define RANKSTATS_MAX_RANK 65535

struct rankstats_rank {
    int rank, attempt;
    long lines;                       /* lines of its own in the log */
    int64_t peak_alloc, peak_reserved; /* highest step line; -1 none */
    bool oom;                         /* a GPU OOM of this rank in this attempt */
    bool oom_unknown;                 /* none among the events kept, but the log had more
                                         (OOM_MAX_EVENTS): it may have had one */
    long oom_line;                    /* the line of its first one; -1 */
    enum oom_stage oom_stage;
    int64_t oom_alloc, oom_reserved;  /* PyTorch's counters at its first OOM; -1 */
    int64_t capacity;                 /* from its OOM message; -1 */
    int64_t nvml_peak;                /* NVML's figure for its processes (rankstats_nvml); -1 */
    bool have_exit;                   /* torchelastic's table named it (the last attempt) */
    long exitcode;                    /* as the table says: -9 is SIGKILL */
};

/* Each line that belongs to a rank, in the log's order, once its rank is
 * decided (entry: its index in rs->r). */
typedef void (*rankstats_line_fn)(const char *line, size_t len, long entry, void *ctx);

/* A line held until its rank is decided (an srun label waits for a
 * neighbour, msg.h), or behind one that is. */
struct rankstats_held {
    char *text; /* a copy, for fn; NULL without fn */
    size_t len;
    long entry;  /* RANKSTATS_UNDECIDED, -1 (no rank) or the entry */
    long line;   /* its number, from 1 */
    int label, attempt;
    int64_t peak_alloc, peak_reserved; /* its step point's; -1 */
};
#define RANKSTATS_UNDECIDED (-2)
#define RANKSTATS_HOLD (MSG_TASK_LABEL_LINES + 2)

struct rankstats {
    struct rankstats_rank *r; /* in order of first appearance */
    size_t n, cap;
    int ranks;                /* distinct ranks seen */
    bool failed;              /* out of memory: some lines were not counted */
    struct elastic_state elastic; /* the agent's lines (restarts, table, SIGTERMs) */
    rankstats_line_fn fn;     /* set after init when the lines are wanted (NULL: figures only) */
    void *fn_ctx;
    /* internal: the entry of each rank in the current attempt, +1 (0 none) */
    size_t *slot;
    size_t n_slot;
    unsigned char *seen; /* ranks seen in any attempt */
    int slot_attempt;
    long n_lines;
    int recent[MSG_TASK_LABEL_LINES]; /* the srun labels of the last lines (msg_task_label) */
    bool srun;                /* srun is named (msg_names_srun): by the caller (the command, the
                                 log read ahead) or by a line so far; only then is a bare
                                 "3: " label a rank, as in diagnose's scan */
    bool srun_settled;        /* the caller searched the whole log for srun (srun says what it
                                 found): no line is asked again (each line was: a tenth of
                                 run's read-back of a 1 GiB log) */
    struct rankstats_held held[RANKSTATS_HOLD]; /* a ring, oldest at held_first */
    size_t held_first, n_held;
};

void rankstats_init(struct rankstats *rs);
void rankstats_release(struct rankstats *rs);

/* One line of the log (every line, in order). Returns the index in rs->r
 * of the rank-attempt the line belongs to when that is known at once, or
 * -1 (a line without a rank prefix: the launcher's own; or an srun label
 * not yet confirmed by a neighbour, which is decided within
 * MSG_TASK_LABEL_LINES lines: a user's numbered list "1: ..." is no rank).
 * A line's figures count once its rank is decided; rs->fn gets it then.
 * pt: the line's step point when the caller parsed one (NULL: none). */
long rankstats_line(struct rankstats *rs, const char *line, size_t len, const struct steps_point *pt);

/* At the log's end: decide and deliver the lines still held. */
void rankstats_flush(struct rankstats *rs);

/* After the log (flushes first): each rank's first GPU OOM per attempt
 * from the log engine's events (by their rank and line), and the exit
 * codes the table names (they belong to the last attempt). Where the
 * report dropped events, a rank without a kept one is oom_unknown. */
void rankstats_finish(struct rankstats *rs, const struct oom_report *rep);

/* NVML's highest figure for a rank's processes in an attempt (sys/memlog
 * maps them by their environment): kept on its entry, which is made when
 * the log had no line of that rank (a launcher that prefixes nothing). */
void rankstats_nvml(struct rankstats *rs, int rank, int attempt, int64_t bytes);

/* The entry's peak: reserved, else allocated, else its OOM counters (a
 * lower bound, *lower set); -1 none. */
int64_t rankstats_peak(const struct rankstats_rank *r, bool *lower);

/* The attempts the log shows: restarts + 1. */
int rankstats_attempts(const struct rankstats *rs);

#endif
