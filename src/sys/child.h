/* child: start a command directly (execvp, no shell) in its own process
 * group (or, with pty, its own session on a new pseudo-terminal) with
 * PYTHONUNBUFFERED=1 and PYTHONFAULTHANDLER=1 added, merge its stdout and
 * stderr in order through ONE pipe (or the terminal) into a log fd, echo
 * them live to our stdout without ever blocking on it (sys/echo), call a
 * tick at start, at the sampling interval and once after the child exits,
 * forward SIGINT/SIGTERM/SIGHUP/SIGQUIT (and SIGUSR1/2) to the child's
 * group (a SIGHUP ignored when we start, as under nohup, stays ignored for
 * us and the child; SIGTSTP stops the group, then us, and continues it
 * when we are continued), enforce a timeout (SIGTERM, then SIGKILL after a grace period),
 * and reap it. The child dies with us (PR_SET_PDEATHSIG: SIGKILL), even
 * when we are killed with SIGKILL.
 * After the child exits, what is left of its group is not left running:
 * its output is read while it holds the pipe, up to the grace period (at
 * once when the run was interrupted or timed out, or when it no longer
 * holds the pipe), then it gets SIGTERM, and SIGKILL after the grace period.
 * Exec failures are seen through a close-on-exec pipe: 127 not found, 126
 * cannot execute. A struct child holds no heap memory. Our signal handlers
 * stay installed from child_start until child_end, so a signal that comes
 * while the caller writes its records cannot kill it half-way; child_end
 * restores the caller's handlers and, when the caller had its own handler
 * for an interrupting signal we caught, raises it again so the caller
 * hears of it too. */
#ifndef OOMLAB_CHILD_H
#define OOMLAB_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/err.h"

struct child {
    pid_t pid;   /* also the process group id */
    int out_fd;  /* read end of the merged stdout+stderr pipe (pty: the master) */
    bool pty;    /* in: set before child_start to run the child on a pseudo-terminal */
};

struct child_opts {
    int log_fd;            /* every byte the child writes goes here (-1: nowhere) */
    bool index;            /* also write when each part of the log arrived (lib/logidx) */
    int index_fd;          /* ... to this fd (logs/ID.idx); its failures never touch the run */
    bool echo;             /* also to our stdout (stops quietly on EPIPE) */
    bool echo_stderr;      /* ... to our stderr instead (guard --json: stdout is the JSON's) */
    int64_t interval_ms;   /* tick period; <= 0: no ticks */
    int64_t timeout_ms;    /* 0: none */
    int64_t grace_ms;      /* after SIGTERM (timeout or ours), SIGKILL; 0: 5000 */
    void (*tick)(void *ctx);
    void *tick_ctx;
    /* said as it happens (leftover processes signalled, output cut, echo
     * dropped): one sentence without newline; NULL: not said */
    void (*notice)(const char *msg, void *ctx);
    void *notice_ctx;
    /* asked after every tick (with tick_ctx): true stops the command as a
     * timeout does (SIGTERM to the group, SIGKILL after the grace); NULL never */
    bool (*stop)(void *ctx);
};

struct child_result {
    int exit_code;        /* child's code, 128+N when killed by N; 126/127 exec failure */
    int term_signal;      /* 0 when it exited */
    bool exec_failed;
    int exec_errno;
    bool timed_out;
    int forwarded_signal; /* the first SIGINT/SIGTERM/SIGHUP we received and passed on; 0 none */
    bool escalated;       /* we had to SIGKILL the group */
    bool killed_at_once;  /* ... because a second signal asked for it (Ctrl-C twice) */
    uint64_t bytes;       /* bytes the child wrote */
    int log_errno;        /* first failed write to the log (ENOSPC...), 0 none */
    uint64_t log_bytes;   /* bytes that reached the log (partial writes counted) */
    int leftover;         /* processes of the group still running after the child exited */
    int leftover_signal;  /* the last signal they got from us: SIGTERM, SIGKILL; 0 none */
    bool output_cut;      /* we stopped reading while the pipe was still held open */
    uint64_t echo_dropped; /* bytes not echoed: our stdout was not being read */
    int echo_errno;       /* the echo ended on this write error (ENOSPC...); 0 none */
    int index_errno;      /* the index could not be written (the log is unaffected), 0 fine */
    char note[256];       /* the above for the ledger's notes column ("" none) */
    bool stopped;         /* opts->stop asked for the command to end */
};

/* Install our handlers for the forwarded signals and SIGCHLD first (so a
 * signal arriving while the child starts is not lost), then fork and exec.
 * On exec failure returns 0 with res->exec_failed and exit_code 126/127,
 * and the handlers restored; -1 with err (handlers restored) when
 * pipe/pty/fork fail. */
int child_start(struct child *c, char *const *argv, struct child_result *res,
                struct oomlab_err *err);

/* Pump output, tick, forward signals, wait, wind down the group. Fills
 * res; 0, or -1 with err on an internal failure (poll). Closes out_fd.
 * Our handlers stay installed: call child_end next. */
int child_supervise(struct child *c, const struct child_opts *opts, struct child_result *res,
                    struct oomlab_err *err);

/* Restore the caller's signal handlers (once the records are written) and
 * redeliver an interrupting signal to a caller that has its own handler.
 * Safe to call when child_start failed or exec failed (then a no-op). */
void child_end(void);

/* The first executable regular file NAME on PATH (glibc's "/bin:/usr/bin"
 * when PATH is unset; an empty entry is the current directory), its path
 * into buf, as execvp would find it; false when none. */
bool child_which(const char *name, char *buf, size_t size);

/* "SIGINT", "SIGKILL", ... ("signal N" for others), into buf. */
const char *child_signal_name(int sig, char *buf, size_t size);

#endif
