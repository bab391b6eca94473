/* elastic: torchelastic's failure summary, read line by line. When a
 * worker of `torchrun` fails, the agent raises ChildFailedError and prints
 * a table whose "Root Cause (first observed failure):" part names the rank
 * that failed first (pytorch/pytorch torch/distributed/elastic/
 * multiprocessing/errors/__init__.py: _FAILURE_FORMAT_TEMPLATE and
 * ProcessFailure):
 *     Root Cause (first observed failure):
 *     [0]:
 *       time      : 2024-10-01_12:00:23
 *       host      : algo-1
 *       rank      : 3 (local_rank: 3)
 *       exitcode  : -9 (pid: 77)            (newer torch: "... (pid: 77) (SIGKILL)")
 *       error_file: <N/A>
 *       traceback : Signal 9 (SIGKILL) received by PID 77
 * A negative exit code is the signal that killed the worker: -9 SIGKILL is
 * most often the kernel's OOM killer (host RAM), -15 SIGTERM a stop from
 * outside (the scheduler, or the agent after another failure), -6/-11 a
 * crash. The table often is all a log shows of a failure (the worker's own
 * traceback went to its error_file or another stream), so diagnose reports
 * it. Without the table, the agent's own "failed (exitcode: -9) local_rank:
 * 2 (pid: 161617)" line gives the local rank and the exit code. Pure;
 * nothing is allocated. */
#ifndef OOMLAB_ELASTIC_H
#define OOMLAB_ELASTIC_H

#include <stdbool.h>
#include <stddef.h>

struct elastic_root {
    bool found;        /* a Root Cause block with at least a rank or an exit code */
    long rank, local_rank; /* -1 unknown */
    long exitcode;     /* valid when have_exitcode */
    bool have_exitcode;
    long pid;          /* -1 unknown */
    char host[128], time[40];
};

/* The launchers' own lines about their workers, beyond the root cause:
 * each is a consequence or a circumstance of a failure, not its cause.
 *   torchelastic's agent (torch/distributed/elastic/multiprocessing/api.py)
 *     "Sending process 24901 closing signal SIGTERM"   — it stops the other
 *     workers after one failed;
 *   torchelastic's agent (torch/distributed/elastic/agent/server/api.py)
 *     "[default] Worker group FAILED. 3/3 attempts left; will restart worker
 *     group" — a restart: the workers that follow run with
 *     TORCHELASTIC_RESTART_COUNT one higher (attempt N);
 *   srun (after a task ended badly)
 *     "srun: error: nid001277: tasks 1-3: Out Of Memory" — Slurm's memory
 *     cgroup killed them: host RAM (--mem), a GPU OOM look-alike;
 *     "srun: error: ault43: task 0: Exited with exit code 1", "... Terminated",
 *     "... Bus error". */
enum elastic_srun_end {
    ELASTIC_SRUN_EXIT,       /* Exited with exit code N (code in exitcode) */
    ELASTIC_SRUN_OOM,        /* Out Of Memory: the step's cgroup OOM killer (host RAM) */
    ELASTIC_SRUN_TERMINATED, /* Terminated: stopped (scancel, a time limit, --kill-on-bad-exit) */
    ELASTIC_SRUN_OTHER,      /* Bus error, Segmentation fault, Killed ...: reason says */
};

struct elastic_srun {
    enum elastic_srun_end end;
    long exitcode;           /* ELASTIC_SRUN_EXIT; else -1 */
    long first_task, n_tasks; /* the list's lowest task and how many it names */
    char tasks[48];          /* the list as printed: "1-3", "0-57,59-63" */
    char host[64], reason[48];
    long line;               /* 1-based, of the lines elastic_line saw */
    int attempt;             /* restarts seen before it */
};

#define ELASTIC_MAX_FAILURES 64
#define ELASTIC_MAX_SRUN 32
#define ELASTIC_MAX_RESTARTS 64

struct elastic_state {
    struct elastic_root root; /* the first Root Cause block of the log */
    int in_block;             /* 0 outside; 1 a Root Cause block; 3 the Failures: part; 2 done */
    bool root_from_table;     /* the root came from a table (later ones do not replace it) */
    long cur;                 /* the failures[] entry being read; -1 none */
    bool block_read;          /* a field of the current Root Cause block was read */
    int root_entries;         /* "[N]:" entries seen in the first Root Cause part (torch
                                 prints one: the failure with the earliest timestamp) */
    long line;                /* lines seen */
    /* every worker the ChildFailedError tables name (Failures: and Root
     * Cause), the first ELASTIC_MAX_FAILURES; a table comes after the last
     * attempt, so these are that attempt's */
    struct elastic_root failures[ELASTIC_MAX_FAILURES];
    size_t n_failures;
    /* "will restart worker group": how many, and the line of each (the
     * first ELASTIC_MAX_RESTARTS) */
    int restarts;
    long restart_line[ELASTIC_MAX_RESTARTS];
    /* the agent's SIGTERMs to the other workers: how many, the first's line */
    long sigterms, sigterm_line;
    struct elastic_srun srun[ELASTIC_MAX_SRUN]; /* the first srun task lines */
    size_t n_srun, srun_dropped;
};

void elastic_init(struct elastic_state *s);
/* One line (no NUL needed; a trailing '\r' and a "[rankN]:" or timestamp
 * prefix are tolerated as long as the "key : value" follows). Lines are
 * counted: pass every line of the log for line numbers and attempts that
 * match the log's. */
void elastic_line(struct elastic_state *s, const char *line, size_t len);

/* The rank a ChildFailedError table at text[0..len) (the bytes from its
 * "Root Cause (first observed failure):" line, or from its "Failures:"
 * line before that, on) names as the root cause: that part's one entry,
 * when no other failure of the table exited on its own (exit code > 0: it
 * raised too, so an unprefixed message may be its), read to the table's
 * closing rule or to the input's end. -1 otherwise. Reads at
 * most ELASTIC_TABLE_LINES lines; *used gets the bytes read. */
#define ELASTIC_TABLE_LINES 4096
long elastic_table_root_rank(const char *text, size_t len, size_t *used);

/* The signal of a negative exit code (9 for -9), 0 when it exited. */
int elastic_signal(const struct elastic_root *r);

/* The attempt (0 first, N after N restarts) that a 1-based line of the
 * log belongs to: the restarts seen before it. */
int elastic_attempt_of_line(const struct elastic_state *s, long line);


/* "Out Of Memory", "exit code 1", ...: what an srun task line's end is, in
 * words (static text, or buf). */
const char *elastic_srun_end_name(const struct elastic_srun *t, char *buf, size_t size);

#endif
