/* killcause: what a SIGKILL says about why a command died, for run's
 * summary and guard's verdict. SIGKILL is what the kernel's OOM killer
 * sends when host memory (RAM) runs out, and what a scheduler's memory or
 * time limit, a watchdog or `kill -9` sends too: only the memory cgroup's
 * oom_kill count (sys/hostoom), read before and after the run, tells them
 * apart, or, where it cannot be read, the kernel's own log line about the
 * command's process: the OOM killer is named only on one of them. Pure; the
 * caller owns the buffer. */
#ifndef OOMLAB_KILLCAUSE_H
#define OOMLAB_KILLCAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum killcause {
    KILLCAUSE_NONE,            /* no SIGKILL (nor exit 137) and no OOM kill counted */
    KILLCAUSE_HOST_OOM,        /* the cgroup's oom_kill count moved during the run */
    KILLCAUSE_HOST_OOM_LOGGED, /* no count, but the kernel's log names the command's process */
    KILLCAUSE_NOT_OOM,         /* SIGKILL or exit 137, and the count did not move */
    KILLCAUSE_UNKNOWN,         /* SIGKILL or exit 137, and the count could not be read */
};

/* term_signal: the signal the command died of (0 it exited); exit_code: as
 * run exits (137 from a shell or launcher whose child got SIGKILL counts);
 * host_oom_kills: the count's change during the run, -1 unread;
 * kernel_logged: the kernel's log says its OOM killer killed the command's
 * own process during the run. */
enum killcause killcause_of(int term_signal, int exit_code, int64_t host_oom_kills,
                            bool kernel_logged);

/* The cause as a run's notice says it: KILLCAUSE_NONE where oomlab's own
 * stop (--timeout, a passed-on signal, guard's end of the smoke) explains
 * the SIGKILL, unless the OOM killer's evidence says host memory. */
enum killcause killcause_after_stop(enum killcause cause, bool own_stop);

/* One clause for the cause (no leading capital, no full stop), e.g.
 * "killed by SIGKILL, not by the kernel's OOM killer (...): a scheduler's
 * limit, a watchdog or a user sent it"; "" for KILLCAUSE_NONE. */
void killcause_text(enum killcause cause, int term_signal, int64_t host_oom_kills, char *buf,
                    size_t size);

/* The cause as a word for JSON: "host-oom-killer" (either evidence),
 * "not-oom-killer", "unknown"; NULL for KILLCAUSE_NONE. */
const char *killcause_name(enum killcause cause);

#endif
