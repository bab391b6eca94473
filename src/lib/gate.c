/* gate: guard's verdict (see gate.h). */
#include "lib/gate.h"

#include <signal.h>
#include <stdio.h>

#include "lib/killcause.h"
#include "lib/units.h"

static const struct {
    int exit_code;
    const char *name, *junit;
} verdicts[] = {
    [GATE_PASS] = {0, "pass", NULL},
    [GATE_OVER_BUDGET] = {10, "over-budget", "failure"},
    [GATE_EDGE] = {11, "edge", "failure"},
    [GATE_OOM] = {12, "oom", "failure"},
    [GATE_FAILED] = {13, "failed", "error"},
    [GATE_UNMEASURED] = {14, "unmeasured", "error"},
    [GATE_INTERRUPTED] = {130, "interrupted", "error"}, /* 128 + the signal, as run exits */
};

/* The signals run passes on to the command (sys/child), by name */
static const struct {
    int sig;
    const char *name;
} forwarded[] = {{SIGINT, "SIGINT: Ctrl-C"}, {SIGTERM, "SIGTERM: a cancelled CI job or scancel?"},
                 {SIGHUP, "SIGHUP: the terminal closed"}, {SIGQUIT, "SIGQUIT"}};

static const char *forwarded_name(int sig)
{
    for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
        if (forwarded[i].sig == sig) return forwarded[i].name;
    return "a signal";
}

/* Which verdict, before the figures: failures of the command first (an
 * OOM wins over the exit code it caused), then the peak against the lines. */
static enum gate_verdict classify(const struct gate_in *in, int64_t line)
{
    if (in->oom) return GATE_OOM;
    if (in->interrupted_by > 0) return GATE_INTERRUPTED;
    if (in->exec_failed || in->timed_out || (in->exit_code != 0 && !in->stopped)) return GATE_FAILED;
    if (in->peak < 0) return GATE_UNMEASURED;
    if (in->peak > in->budget) return GATE_OVER_BUDGET;
    if (in->peak > line) return GATE_EDGE;
    return GATE_PASS;
}

/* The exit code, and what a signal or the kernel's OOM killer says about
 * it: SIGKILL is host RAM only where the cgroup's count moved. */
static void failed_text(const struct gate_in *in, struct gate_out *out)
{
    char cause[400] = "";
    enum killcause kc = killcause_of(in->term_signal, in->exit_code, in->host_oom_kills, in->host_oom_logged);
    if (kc != KILLCAUSE_NONE) killcause_text(kc, in->term_signal, in->host_oom_kills, cause, sizeof cause);
    else if (in->term_signal > 0 && in->signal_name) snprintf(cause, sizeof cause, "killed by %s", in->signal_name);
    snprintf(out->message, sizeof out->message, "the command failed with exit %d (no GPU OOM found)%s%s",
             in->exit_code, cause[0] ? ": " : "", cause);
}

void gate_judge(const struct gate_in *in, struct gate_out *out)
{
    double h = in->headroom >= 0 && in->headroom < 1 ? in->headroom : 0;
    out->line = (int64_t)((double)in->budget * (1.0 - h));
    out->verdict = classify(in, out->line);
    out->exit_code = out->verdict == GATE_INTERRUPTED ? 128 + in->interrupted_by : verdicts[out->verdict].exit_code;
    out->name = verdicts[out->verdict].name;
    out->junit = verdicts[out->verdict].junit;
    char peak[32], budget[32], line[32];
    units_format_bytes(in->peak, peak, sizeof peak);
    units_format_bytes(in->budget, budget, sizeof budget);
    units_format_bytes(out->line, line, sizeof line);
    int pct = (int)(h * 100.0 + 0.5);
    switch (out->verdict) {
    case GATE_PASS:
        snprintf(out->message, sizeof out->message, "peak %s is within the budget %s with %d%% headroom (line %s)",
                 peak, budget, pct, line);
        break;
    case GATE_OVER_BUDGET:
        snprintf(out->message, sizeof out->message, "peak %s is over the budget %s", peak, budget);
        break;
    case GATE_EDGE:
        snprintf(out->message, sizeof out->message, "peak %s is on the edge: over the %d%% headroom line %s of the budget %s",
                 peak, pct, line, budget);
        break;
    case GATE_OOM:
        if (in->peak < 0) snprintf(out->message, sizeof out->message, "the command ran out of GPU memory");
        else snprintf(out->message, sizeof out->message, "the command ran out of GPU memory (peak %s%s)",
                      in->peak_lower_bound ? ">= " : "", peak);
        break;
    case GATE_FAILED:
        if (in->timed_out) snprintf(out->message, sizeof out->message, "the command timed out (no GPU OOM found)");
        else failed_text(in, out);
        break;
    case GATE_INTERRUPTED:
        snprintf(out->message, sizeof out->message, "oomlab was interrupted (%s) before the smoke ended: the "
                                                    "budget %s was not judged", forwarded_name(in->interrupted_by), budget);
        break;
    case GATE_UNMEASURED:
        snprintf(out->message, sizeof out->message, "no peak was measured (no NVML sample of the command and no step line "
                                                    "with memory): cannot judge the budget %s", budget);
        break;
    }
}
