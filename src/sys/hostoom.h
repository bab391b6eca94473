/* hostoom: did the kernel's OOM killer strike while a run ran? A child that
 * dies of SIGKILL looks the same whether the kernel ran out of host RAM, a
 * scheduler enforced a limit or a user typed kill -9; the memory cgroup's
 * counter of OOM kills tells them apart. Read once before the child starts
 * and once after it ends; the difference is the kills during the run.
 *
 * Where the counter is (the cgroup of this process, from /proc/self/cgroup):
 *   cgroup v2: <root>/<path>/memory.events, line "oom_kill N" — processes of
 *     the cgroup or its subtree killed by any kind of OOM killer (the
 *     kernel's admin-guide/cgroup-v2.rst, "Memory Interface Files");
 *   cgroup v1: <root>/memory/<path>/memory.oom_control, line "oom_kill N"
 *     (Linux 4.13 and later).
 * A container that mounts its own cgroup as the root has <path> absent
 * under <root>: then <root>/memory.events (v2) or <root>/memory/memory.oom_control
 * (v1). <root> is /sys/fs/cgroup, or $OOMLAB_CGROUP_ROOT; the cgroup file is
 * /proc/self/cgroup, or $OOMLAB_CGROUP_SELF (tests: a tree laid out the
 * same way, tests/e2e/run_host_oom.sh). Nothing is allocated. The child is
 * in oomlab's cgroup unless it moves itself (`docker run` starts its own):
 * kills in another cgroup are not seen. */
#ifndef OOMLAB_HOSTOOM_H
#define OOMLAB_HOSTOOM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The cgroup's OOM-kill count, or -1 when it cannot be read (no memory
 * controller, an old kernel, a hidden /sys). */
int64_t hostoom_kills(void);

/* The N of the "oom_kill N" line in the text of memory.events or
 * memory.oom_control; -1 without one. */
int64_t hostoom_parse(const char *text, size_t len);

/* The kernel's log (/dev/kmsg, or $OOMLAB_KMSG: a file of records in its
 * format, for tests): 1 when a record at or after since_us (CLOCK_MONOTONIC
 * microseconds, the records' clock) says the OOM killer killed process pid
 * named comm ("Out of memory: Killed process PID (COMM)", or the memory
 * cgroup's and older kernels' forms, lib/kmsgoom); 0 when the log was read
 * and has none; -1 when it cannot be read (not root, dmesg_restrict). The
 * name guards against a pid namespace, whose pids the kernel does not log;
 * no record is therefore never evidence that the OOM killer did not act.
 * A file's line longer than 16 KiB is read by its first 16 KiB (where a
 * record's kill stands), the rest of it skipped. */
int hostoom_kmsg_killed(long pid, const char *comm, int64_t since_us);

#endif
