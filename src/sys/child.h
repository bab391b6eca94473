/* child: start a command directly (execvp, no shell) in its own process
 * group with PYTHONUNBUFFERED=1 and PYTHONFAULTHANDLER=1 added, merge its
 * stdout and stderr in order through ONE pipe into a log fd (and echo them
 * live to our stdout), call a tick at the sampling interval, forward
 * SIGINT/SIGTERM/SIGHUP to the child's group, enforce a timeout (SIGTERM,
 * then SIGKILL after a grace period), and reap it. Exec failures are seen
 * through a close-on-exec pipe: 127 not found, 126 cannot execute.
 * A struct child holds no heap memory; child_supervise restores the
 * caller's signal handlers before returning and, when the caller had its
 * own handler for a signal we forwarded, raises that signal again so the
 * caller hears of it too. */
#ifndef OOMLAB_CHILD_H
#define OOMLAB_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/err.h"

struct child {
    pid_t pid;   /* also the process group id */
    int out_fd;  /* read end of the merged stdout+stderr pipe */
};

struct child_opts {
    int log_fd;            /* every byte the child writes goes here (-1: nowhere) */
    bool echo;             /* also to our stdout (stops quietly on EPIPE) */
    int64_t interval_ms;   /* tick period; <= 0: no ticks */
    int64_t timeout_ms;    /* 0: none */
    int64_t grace_ms;      /* after SIGTERM (timeout or ours), SIGKILL; 0: 5000 */
    void (*tick)(void *ctx);
    void *tick_ctx;
};

struct child_result {
    int exit_code;        /* child's code, 128+N when killed by N; 126/127 exec failure */
    int term_signal;      /* 0 when it exited */
    bool exec_failed;
    int exec_errno;
    bool timed_out;
    int forwarded_signal; /* the first SIGINT/SIGTERM/SIGHUP we received and passed on; 0 none */
    bool escalated;       /* we had to SIGKILL the group */
    uint64_t bytes;       /* bytes the child wrote */
    int log_errno;        /* first failed write to the log (ENOSPC...), 0 none */
    uint64_t log_bytes;   /* bytes that reached the log */
};

/* Install our handlers for SIGINT/SIGTERM/SIGHUP/SIGCHLD first (so a
 * signal arriving while the child starts is not lost), then fork and exec.
 * On exec failure returns 0 with res->exec_failed and exit_code 126/127,
 * and the handlers restored; -1 with err when pipe/fork fail. */
int child_start(struct child *c, char *const *argv, struct child_result *res,
                struct oomlab_err *err);

/* Pump output, tick, forward signals, wait. Fills res; 0, or -1 with err on
 * an internal failure (poll). Closes out_fd. */
int child_supervise(struct child *c, const struct child_opts *opts, struct child_result *res,
                    struct oomlab_err *err);

/* "SIGINT", "SIGKILL", ... ("signal N" for others), into buf. */
const char *child_signal_name(int sig, char *buf, size_t size);

#endif
