/* stale: the staleness and process-kind rules of `oomlab ps` as tables
 * (see stale.h). A rule looks at the facts and, when it holds, writes its
 * evidence; adding a rule is adding a row. */
#include "lib/stale.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"

/* Parents that adopt orphans: PID 1 in any namespace, and the subreapers
 * that container runtimes and session managers run. */
static const char *const adopters[] = {"systemd",         "init",      "tini",      "dumb-init",
                                       "docker-init",     "catatonit", "s6-svscan", "runit",
                                       "containerd-shim", "conmon"};

const char *stale_duration(double s, char *buf, size_t size)
{
    if (s < 0) {
        snprintf(buf, size, "unknown");
        return buf;
    }
    long t = (long)s;
    if (t < 60)
        snprintf(buf, size, "%lds", t);
    else if (t < 3600)
        snprintf(buf, size, "%ldm%02lds", t / 60, t % 60);
    else if (t < 86400)
        snprintf(buf, size, "%ldh%02ldm", t / 3600, t % 3600 / 60);
    else
        snprintf(buf, size, "%ldd%02ldh", t / 86400, t % 86400 / 3600);
    return buf;
}

static bool is_adopter(const char *comm)
{
    if (!comm) return false;
    for (size_t i = 0; i < sizeof adopters / sizeof adopters[0]; i++)
        if (!strcmp(comm, adopters[i])) return true;
    return false;
}

static bool reparented(const struct stale_facts *f)
{
    if (!f->visible || f->state == 'Z' || f->pid <= 1 || f->ppid <= 0) return false;
    return f->ppid == 1 || is_adopter(f->parent_comm);
}

/* ---- activity over the window ---- */

static enum stale_activity gpu_part(const struct stale_facts *f, char *ev, size_t size)
{
    if (f->gpu_util_max < 0) {
        snprintf(ev, size, "GPU %u's utilisation is unknown (NVML does not report it)", f->gpu);
        return STALE_UNKNOWN;
    }
    if (f->gpu_util_max > 0) {
        snprintf(ev, size,
                 "GPU %u reached %d%% utilisation (device-wide: it or another process "
                 "on the card is computing)",
                 f->gpu, f->gpu_util_max);
        return STALE_BUSY;
    }
    if (f->gpu_util_reads < 2) {
        snprintf(ev, size, "GPU %u read 0%% once, too few readings to call it idle", f->gpu);
        return STALE_UNKNOWN;
    }
    snprintf(ev, size, "GPU %u stayed at 0%% utilisation (%d readings)", f->gpu, f->gpu_util_reads);
    return STALE_QUIET;
}

static enum stale_activity cpu_part(const struct stale_facts *f, char *ev, size_t size)
{
    if (f->cpu_s < 0) {
        snprintf(ev, size, "its CPU time could not be read");
        return STALE_UNKNOWN;
    }
    if (f->cpu_s > 0) {
        long cs = f->cpu_s < 1e9 ? lround(f->cpu_s * 100) : 100000000000L;
        long pct = f->window_s > 0 && f->cpu_s / f->window_s < 1e6
                       ? lround(100.0 * f->cpu_s / f->window_s)
                       : -1;
        snprintf(ev, size, "it used %ld.%02lds of CPU time (%ld%% of a core)", cs / 100, cs % 100,
                 pct);
        return STALE_BUSY;
    }
    snprintf(ev, size, "it used no CPU time");
    return STALE_QUIET;
}

/* BUSY wins over UNKNOWN, which wins over QUIET: work seen anywhere is work. */
static enum stale_activity activity(const struct stale_facts *f, char *ev, size_t size)
{
    if (!f->visible) {
        snprintf(ev, size, "not watched: /proc cannot see it");
        return STALE_UNKNOWN;
    }
    if (!(f->window_s > 0)) {
        snprintf(ev, size, "not watched over a sampling window");
        return STALE_UNKNOWN;
    }
    char gpu[120], cpu[80];
    enum stale_activity g = gpu_part(f, gpu, sizeof gpu), c = cpu_part(f, cpu, sizeof cpu);
    long tenths = f->window_s < 1e9 ? lround(f->window_s * 10) : 10000000000L;
    snprintf(ev, size, "over %ld.%lds %s and %s", tenths / 10, tenths % 10, gpu, cpu);
    if (g == STALE_BUSY || c == STALE_BUSY) return STALE_BUSY;
    return g == STALE_UNKNOWN || c == STALE_UNKNOWN ? STALE_UNKNOWN : STALE_QUIET;
}

const char *stale_activity_name(enum stale_activity a)
{
    return a == STALE_QUIET ? "quiet" : a == STALE_BUSY ? "busy" : "unknown";
}

/* ---- flags: each rule sees the facts and what the window showed ---- */

struct judged {
    const struct stale_facts *f;
    enum stale_activity activity;
    const char *activity_evidence;
};

static bool rule_hidden(const struct judged *j, char *ev, size_t size)
{
    if (j->f->visible) return false;
    snprintf(ev, size,
             "NVML lists PID %ld but /proc has no such process: it runs in another PID namespace "
             "(a container; look on the host), or it exited a moment ago",
             j->f->pid);
    return true;
}

static bool rule_zombie(const struct judged *j, char *ev, size_t size)
{
    const struct stale_facts *f = j->f;
    if (!f->visible || f->state != 'Z') return false;
    snprintf(ev, size,
             "state Z: it exited but its parent (PID %ld, %s) has not reaped it; "
             "signals cannot reach it, its parent must wait() or exit",
             f->ppid, f->parent_comm ? f->parent_comm : "?");
    return true;
}

static void parent_words(const struct stale_facts *f, char *buf, size_t size)
{
    snprintf(buf, size, "its parent is PID %ld (%s)%s", f->ppid,
             f->parent_comm ? f->parent_comm : "?", f->ppid == 1 ? ", init" : ", a subreaper");
}

/* Launcher gone AND quiet: stale without waiting for --idle-after. */
static bool rule_orphan(const struct judged *j, char *ev, size_t size)
{
    if (!reparented(j->f) || j->activity != STALE_QUIET) return false;
    char parent[128];
    parent_words(j->f, parent, sizeof parent);
    snprintf(ev, size, "%s: no launcher waits for it (it exited, or the job was started by init), and %s", parent,
             j->activity_evidence);
    return true;
}

/* Re-parented but working (or not known to be idle): said, never stale. */
static bool rule_reparented(const struct judged *j, char *ev, size_t size)
{
    if (!reparented(j->f) || j->activity == STALE_QUIET) return false;
    char parent[128];
    parent_words(j->f, parent, sizeof parent);
    snprintf(ev, size,
             "%s: normal for nohup, setsid and containers, no sign of staleness by itself; %s",
             parent, j->activity_evidence);
    return true;
}

static bool rule_idle(const struct judged *j, char *ev, size_t size)
{
    const struct stale_facts *f = j->f;
    if (j->activity != STALE_QUIET || f->state == 'Z' || f->used_bytes <= 0) return false;
    if (f->elapsed_s < 0 || f->elapsed_s < f->idle_after_s) return false;
    char held[32], age[32], limit[32];
    snprintf(ev, size, "%s, while it holds %s and has been running for %s (idle threshold %s)",
             j->activity_evidence, units_format_bytes(f->used_bytes, held, sizeof held),
             stale_duration(f->elapsed_s, age, sizeof age),
             stale_duration(f->idle_after_s, limit, sizeof limit));
    return true;
}

static const struct {
    const char *name;
    bool stale;
    bool (*holds)(const struct judged *j, char *ev, size_t size);
} rules[] = {
    {"hidden", false, rule_hidden}, {"zombie", true, rule_zombie},
    {"orphan", true, rule_orphan},  {"reparented", false, rule_reparented},
    {"idle", true, rule_idle},
};

/* ---- process kinds ---- */

static bool has(const char *s, const char *needle)
{
    return s && strstr(s, needle);
}

static bool kind_jupyter(const struct stale_facts *f, char *ev, size_t size)
{
    static const char *const marks[] = {"ipykernel_launcher", "ipykernel", "jupyter-kernel",
                                        "jupyter kernel", "colab_kernel_launcher"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (has(f->cmdline, marks[i])) {
            snprintf(ev, size,
                     "command line has '%s'; its memory lives as long as the kernel: "
                     "restart the kernel or free tensors and call torch.cuda.empty_cache()",
                     marks[i]);
            return true;
        }
    return false;
}

static bool kind_ipython(const struct stale_facts *f, char *ev, size_t size)
{
    if (!has(f->cmdline, "ipython") && !has(f->cmdline, "IPython")) return false;
    snprintf(ev, size, "command line runs IPython: an interactive session keeps its tensors");
    return true;
}

static bool kind_torchrun(const struct stale_facts *f, char *ev, size_t size)
{
    static const char *const marks[] = {"torchrun", "torch.distributed.run",
                                        "torch.distributed.launch", "torch/distributed/run.py"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (has(f->parent_cmdline, marks[i])) {
            snprintf(ev, size, "its parent PID %ld runs '%s'", f->ppid, marks[i]);
            return true;
        }
    return false;
}

static bool kind_dataloader(const struct stale_facts *f, char *ev, size_t size)
{
    if (has(f->cmdline, "multiprocessing.spawn") || has(f->cmdline, "--multiprocessing-fork") ||
        has(f->cmdline, "from multiprocessing")) {
        snprintf(ev, size,
                 "a Python multiprocessing child (DataLoader num_workers > 0 or a pool): "
                 "a CUDA context in a worker costs memory on every GPU it touches");
        return true;
    }
    if (f->cmdline && f->parent_cmdline && has(f->cmdline, "python") &&
        !strcmp(f->cmdline, f->parent_cmdline) && f->ppid > 1) {
        snprintf(ev, size,
                 "same command line as its parent PID %ld: a forked worker (DataLoader "
                 "num_workers > 0)",
                 f->ppid);
        return true;
    }
    return false;
}

static const struct {
    const char *name;
    bool (*matches)(const struct stale_facts *f, char *ev, size_t size);
} kinds[] = {
    {"jupyter-kernel", kind_jupyter},
    {"ipython", kind_ipython},
    {"torchrun-child", kind_torchrun},
    {"dataloader-worker", kind_dataloader},
};

void stale_assess(const struct stale_facts *f, struct stale_result *out)
{
    memset(out, 0, sizeof *out);
    out->activity = activity(f, out->activity_evidence, sizeof out->activity_evidence);
    struct judged j = {f, out->activity, out->activity_evidence};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0] && out->n_flags < STALE_MAX_FLAGS; i++) {
        struct stale_flag *fl = &out->flags[out->n_flags];
        if (!rules[i].holds(&j, fl->evidence, sizeof fl->evidence)) continue;
        fl->name = rules[i].name;
        fl->stale = rules[i].stale;
        out->stale |= fl->stale;
        out->n_flags++;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (f->visible && kinds[i].matches(f, out->kind_evidence, sizeof out->kind_evidence)) {
            out->kind = kinds[i].name;
            break;
        }
}
