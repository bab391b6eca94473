/* gate: the verdict of `oomlab guard` — a smoke run's measured peak against
 * a memory budget with headroom — as a rule table. Pure: the caller passes
 * what the run engine measured; the verdict names its exit code, its JUnit
 * element and one sentence a CI page can show. Nothing is allocated. */
#ifndef OOMLAB_GATE_H
#define OOMLAB_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes of `oomlab guard` (docs/ci.md, oomlab-guard(1)); 2 usage and
 * 3 oomlab's own failure are the common table's. */
enum gate_verdict {
    GATE_PASS,        /* 0: peak at or under the headroom line */
    GATE_OVER_BUDGET, /* 10: peak above the budget */
    GATE_EDGE,        /* 11: peak above budget x (1 - headroom), within the budget */
    GATE_OOM,         /* 12: a GPU out-of-memory error */
    GATE_FAILED,      /* 13: the command failed otherwise (exit, signal, timeout, not found) */
    GATE_UNMEASURED,  /* 14: it ran, but no peak was measured: cannot judge */
    GATE_INTERRUPTED, /* 128+N: oomlab got signal N (a cancelled CI job) before the end */
};

struct gate_in {
    int64_t budget;       /* bytes, > 0 */
    double headroom;      /* fraction of the budget kept free, [0, 1) */
    bool oom;             /* the log engine found a GPU OOM */
    bool exec_failed;     /* 126/127 */
    bool timed_out;
    bool stopped;         /* guard stopped it after --steps N steps: a finished smoke */
    int exit_code;        /* as run exits */
    int term_signal;      /* the signal the command died of, 0 it exited */
    const char *signal_name; /* its name ("SIGSEGV"), NULL with term_signal 0 */
    int64_t host_oom_kills; /* the cgroup's OOM kills during the run (lib/killcause),
                               -1 unread; 0 (as zero-initialised): none */
    bool host_oom_logged; /* the kernel's log: its OOM killer killed the command (count unread) */
    int interrupted_by;   /* the signal oomlab got and passed on (Ctrl-C, a CI job's
                             cancel), 0 none: not the command's failure */
    int64_t peak;         /* bytes, -1 unknown */
    bool peak_lower_bound;
};

struct gate_out {
    enum gate_verdict verdict;
    int exit_code;
    const char *name;     /* "pass", "over-budget", "edge", "oom", "failed", "unmeasured",
                             "interrupted" */
    const char *junit;    /* NULL (passed), "failure" or "error" */
    int64_t line;         /* budget x (1 - headroom), bytes */
    char message[512];    /* one sentence with the figures */
};

void gate_judge(const struct gate_in *in, struct gate_out *out);

#endif
