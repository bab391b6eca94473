/* kmsgoom: one record of the kernel's log (/dev/kmsg: "PRIO,SEQ,USEC,FLAGS;
 * TEXT", the kernel's Documentation/ABI/testing/dev-kmsg) read for an OOM
 * kill. The kernel words it (mm/oom_kill.c, __oom_kill_process's pr_err):
 *   "Out of memory: Killed process 1234 (python3) total-vm:..."
 *   "Memory cgroup out of memory: Killed process 1234 (python3) total-vm:..."
 *   "Killed process 1234 (python3) total-vm:..." (before 4.19, after
 *   "Out of memory: Kill process 1234 (python3) score 900 or sacrifice child")
 * Pure; nothing is allocated. */
#ifndef OOMLAB_KMSGOOM_H
#define OOMLAB_KMSGOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kmsgoom_kill {
    int64_t usec; /* the record's timestamp (CLOCK_MONOTONIC microseconds) */
    long pid;
    char comm[64]; /* the process's name as the kernel logged it (TASK_COMM_LEN 16) */
};

/* true when rec[0..len) is an OOM kill record; *out filled. */
bool kmsgoom_parse(const char *rec, size_t len, struct kmsgoom_kill *out);

#endif
