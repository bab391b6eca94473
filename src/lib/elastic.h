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

struct elastic_state {
    struct elastic_root root; /* the first Root Cause block of the log */
    int in_block;             /* 0 outside; 1 inside the first block; 2 done */
};

void elastic_init(struct elastic_state *s);
/* One line (no NUL needed; a trailing '\r' and a "[rankN]:" or timestamp
 * prefix are tolerated as long as the "key : value" follows). */
void elastic_line(struct elastic_state *s, const char *line, size_t len);

/* The signal of a negative exit code (9 for -9), 0 when it exited. */
int elastic_signal(const struct elastic_root *r);

#endif
