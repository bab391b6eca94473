/* killcause: why a command died of SIGKILL, as far as the run's evidence
 * goes (see killcause.h). */
#include "lib/killcause.h"

#include <signal.h>
#include <stdio.h>

enum killcause killcause_of(int term_signal, int exit_code, int64_t host_oom_kills,
                            bool kernel_logged)
{
    if (host_oom_kills > 0) return KILLCAUSE_HOST_OOM;
    if (kernel_logged && host_oom_kills < 0) return KILLCAUSE_HOST_OOM_LOGGED;
    /* exit 137 without a signal: a shell or launcher (bash, torchrun, srun)
     * reporting that its child died of SIGKILL ("Killed") */
    if (term_signal != SIGKILL && !(term_signal == 0 && exit_code == 128 + SIGKILL))
        return KILLCAUSE_NONE;
    return host_oom_kills == 0 ? KILLCAUSE_NOT_OOM : KILLCAUSE_UNKNOWN;
}

enum killcause killcause_after_stop(enum killcause cause, bool own_stop)
{
    bool host = cause == KILLCAUSE_HOST_OOM || cause == KILLCAUSE_HOST_OOM_LOGGED;
    return own_stop && !host ? KILLCAUSE_NONE : cause;
}

void killcause_text(enum killcause cause, int term_signal, int64_t host_oom_kills, char *buf,
                    size_t size)
{
    const char *how = term_signal
                          ? "killed by SIGKILL"
                          : "exit 137, how shells and launchers report a child killed by SIGKILL";
    switch (cause) {
    case KILLCAUSE_HOST_OOM:
        snprintf(buf, size,
                 "the kernel's OOM killer killed %lld process(es) of this cgroup during the run: "
                 "host memory (RAM) ran out, not GPU memory",
                 (long long)host_oom_kills);
        break;
    case KILLCAUSE_HOST_OOM_LOGGED:
        snprintf(
            buf, size,
            "%s, by the kernel's OOM killer (the kernel's log has its \"Killed process\" line for "
            "the command's process during the run): host memory (RAM) ran out, not GPU memory",
            how);
        break;
    case KILLCAUSE_NOT_OOM:
        snprintf(buf, size,
                 "%s, not by the kernel's OOM killer (this cgroup's oom_kill count did not move): "
                 "a scheduler's limit, a watchdog or a user sent it",
                 how);
        break;
    case KILLCAUSE_UNKNOWN:
        snprintf(
            buf, size,
            "%s: the kernel's OOM killer sends it when host memory (RAM) runs out, and so do a "
            "scheduler's limit, a watchdog or kill -9; oomlab cannot read this cgroup's OOM-kill "
            "count here: if `dmesg` shows \"out of memory: Killed process\" for it, host memory "
            "ran out, "
            "not GPU memory",
            how);
        break;
    case KILLCAUSE_NONE:
    default:
        if (size) buf[0] = '\0';
        break;
    }
}

const char *killcause_name(enum killcause cause)
{
    static const char *const names[] = {
        [KILLCAUSE_NONE] = NULL,
        [KILLCAUSE_HOST_OOM] = "host-oom-killer",
        [KILLCAUSE_HOST_OOM_LOGGED] = "host-oom-killer",
        [KILLCAUSE_NOT_OOM] = "not-oom-killer",
        [KILLCAUSE_UNKNOWN] = "unknown",
    };
    return (unsigned)cause < sizeof names / sizeof *names ? names[cause] : NULL;
}
