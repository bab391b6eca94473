/* gpusnap: NVML x /proc x stale rules (see gpusnap.h). */
#include "sys/gpusnap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/units.h"

static int by_used_desc(const void *a, const void *b)
{
    const struct gpusnap_proc *x = a, *y = b;
    if (x->nv.used != y->nv.used) return x->nv.used < y->nv.used ? 1 : -1;
    return x->nv.pid < y->nv.pid ? -1 : x->nv.pid > y->nv.pid;
}

/* /proc's view of one holder, and its CPU time at the window's start. */
static void look_up(struct gpusnap_proc *p)
{
    struct oomlab_err err;
    p->visible = proc_read((pid_t)p->nv.pid, &p->info, &err) == 0;
    p->cpu_s = p->visible ? proc_cpu_s((pid_t)p->nv.pid, p->info.start_ticks) : -1;
    if (p->visible && p->info.ppid > 0) {
        struct proc_info parent;
        if (proc_read(p->info.ppid, &parent, &err) == 0) {
            memcpy(p->parent_comm, parent.comm, sizeof p->parent_comm);
            memcpy(p->parent_cmdline, parent.cmdline, sizeof p->parent_cmdline);
        }
    }
}

static void judge(struct gpusnap_proc *p, const struct gpusnap_gpu *g, double idle_after_s)
{
    struct stale_facts f = {
        .pid = (long)p->nv.pid,
        .gpu = g->gpu.index,
        .visible = p->visible,
        .state = p->visible ? p->info.state : '?',
        .ppid = p->visible ? (long)p->info.ppid : 0,
        .parent_comm = p->parent_comm[0] ? p->parent_comm : NULL,
        .parent_cmdline = p->parent_cmdline[0] ? p->parent_cmdline : NULL,
        .cmdline = p->visible ? p->info.cmdline : NULL,
        .elapsed_s = p->visible ? p->info.elapsed_s : -1,
        .used_bytes = p->nv.used,
        .window_s = g->window_s,
        .gpu_util_max = g->gpu.util_gpu,
        .gpu_util_reads = g->util_reads,
        .cpu_s = p->cpu_s,
        .idle_after_s = idle_after_s,
    };
    stale_assess(&f, &p->assess);
}

/* used minus visible holders; the hidden ones' share separately. */
static void account(struct gpusnap_gpu *g, bool details)
{
    int64_t visible = 0, hidden = 0;
    bool unknown = g->gpu.used < 0 || !g->procs_ok;
    for (size_t i = 0; i < g->n_procs; i++) {
        const struct gpusnap_proc *p = &g->procs[i];
        bool vis = details ? p->visible : true;
        if (p->nv.used < 0) {
            unknown = true;
            continue;
        }
        if (!units_add(vis ? visible : hidden, p->nv.used, vis ? &visible : &hidden))
            unknown = true;
    }
    g->hidden = g->procs_ok && details ? hidden : -1;
    g->unaccounted = unknown ? -1 : g->gpu.used > visible ? g->gpu.used - visible : 0;
}

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One more utilisation reading of every readable GPU: the highest is kept;
 * an unknown reading makes the whole window's figure unknown. */
static void read_util(struct nvml *nv, struct gpusnap *s)
{
    for (size_t i = 0; i < s->n; i++) {
        struct gpusnap_gpu *g = &s->gpus[i];
        if (!g->ok) continue;
        struct nvml_gpu again;
        if (nvml_gpu(nv, g->gpu.index, &again, NULL) < 0 || again.util_gpu < 0)
            g->gpu.util_gpu = -1;
        else if (g->gpu.util_gpu >= 0 && again.util_gpu > g->gpu.util_gpu)
            g->gpu.util_gpu = again.util_gpu;
        g->util_reads++;
    }
}

/* The window: utilisation every util_interval_ms, then each visible
 * holder's CPU time again. Nothing is watched when no holder is visible. */
static void watch_window(struct nvml *nv, const struct gpusnap_opts *o, struct gpusnap *s)
{
    bool any = false;
    for (size_t i = 0; i < s->n; i++)
        for (size_t k = 0; k < s->gpus[i].n_procs; k++)
            any |= s->gpus[i].procs[k].visible;
    if (!any || o->window_ms <= 0) return;
    int64_t step_ms = o->util_interval_ms > 0 ? o->util_interval_ms : o->window_ms;
    double t0 = mono_s();
    for (int64_t waited = 0; waited < o->window_ms; waited += step_ms) {
        int64_t ms = o->window_ms - waited < step_ms ? o->window_ms - waited : step_ms;
        struct timespec step = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
        while (nanosleep(&step, &step) < 0 && errno == EINTR) {
        }
        read_util(nv, s);
    }
    double window = mono_s() - t0;
    for (size_t i = 0; i < s->n; i++) {
        s->gpus[i].window_s = window;
        for (size_t k = 0; k < s->gpus[i].n_procs; k++) {
            struct gpusnap_proc *p = &s->gpus[i].procs[k];
            double now = p->visible ? proc_cpu_s((pid_t)p->nv.pid, p->info.start_ticks) : -1;
            p->cpu_s = p->cpu_s >= 0 && now >= p->cpu_s ? now - p->cpu_s : -1;
            p->cpu_end_s = now;
        }
    }
}

static void take_gpu(struct nvml *nv, unsigned index, const struct gpusnap_opts *o,
                     struct gpusnap_gpu *g)
{
    struct oomlab_err err;
    g->unaccounted = g->hidden = -1;
    if (nvml_gpu(nv, index, &g->gpu, &err) < 0) {
        snprintf(g->error, sizeof g->error, "%s", err.msg);
        return;
    }
    g->ok = true;
    g->util_reads = 1;
    struct nvml_proc *list;
    size_t n;
    if (nvml_procs(nv, index, &list, &n, &err) < 0) {
        snprintf(g->error, sizeof g->error, "%s", err.msg);
        return;
    }
    g->procs_ok = true;
    g->procs = calloc(n ? n : 1, sizeof *g->procs);
    if (!g->procs) {
        free(list);
        g->procs_ok = false;
        snprintf(g->error, sizeof g->error, "out of memory");
        return;
    }
    g->n_procs = n;
    for (size_t i = 0; i < n; i++) {
        g->procs[i].nv = list[i];
        g->procs[i].cpu_s = g->procs[i].cpu_end_s = -1;
        if (o->details) look_up(&g->procs[i]);
    }
    free(list);
}

int gpusnap_take(struct nvml *nv, const struct gpusnap_opts *o, struct gpusnap *out,
                 struct oomlab_err *err)
{
    memset(out, 0, sizeof *out);
    unsigned count;
    if (nvml_count(nv, &count, err) < 0) return -1;
    if (nvml_gpu_missing(o->gpu, count, err)) return -1;
    size_t n = o->gpu >= 0 ? 1 : count;
    nvml_driver(nv, out->driver, sizeof out->driver);
    out->gpus = calloc(n ? n : 1, sizeof *out->gpus);
    if (!out->gpus) return oomlab_err_set(err, "out of memory");
    out->n = n;
    for (size_t i = 0; i < n; i++)
        take_gpu(nv, o->gpu >= 0 ? (unsigned)o->gpu : (unsigned)i, o, &out->gpus[i]);
    if (o->details) watch_window(nv, o, out);
    for (size_t i = 0; i < n; i++) {
        struct gpusnap_gpu *g = &out->gpus[i];
        for (size_t k = 0; k < g->n_procs && o->details; k++)
            judge(&g->procs[k], g, o->idle_after_s);
        if (g->n_procs) /* procs is NULL when the GPU or its list failed */
            qsort(g->procs, g->n_procs, sizeof *g->procs, by_used_desc);
        account(g, o->details);
    }
    return 0;
}

void gpusnap_release(struct gpusnap *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->gpus[i].procs);
    free(s->gpus);
    memset(s, 0, sizeof *s);
}

const struct gpusnap_proc *gpusnap_next(const struct gpusnap *s, unsigned pid,
                                        const struct gpusnap_proc *from, unsigned *gpu)
{
    bool past = from == NULL;
    for (size_t i = 0; i < s->n; i++)
        for (size_t k = 0; k < s->gpus[i].n_procs; k++) {
            const struct gpusnap_proc *p = &s->gpus[i].procs[k];
            if (!past) {
                past = p == from;
                continue;
            }
            if (p->nv.pid != pid) continue;
            if (gpu) *gpu = s->gpus[i].gpu.index;
            return p;
        }
    return NULL;
}

const struct gpusnap_proc *gpusnap_find(const struct gpusnap *s, unsigned pid, unsigned *gpu)
{
    return gpusnap_next(s, pid, NULL, gpu);
}
