/* gpusnap: NVML x /proc x stale rules (see gpusnap.h). */
#include "sys/gpusnap.h"

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

static void judge(struct gpusnap_proc *p, const struct gpusnap_gpu *g, double idle_after_s)
{
    struct oomlab_err err;
    p->visible = proc_read((pid_t)p->nv.pid, &p->info, &err) == 0;
    if (p->visible && p->info.ppid > 0) {
        struct proc_info parent;
        if (proc_read(p->info.ppid, &parent, &err) == 0) {
            memcpy(p->parent_comm, parent.comm, sizeof p->parent_comm);
            memcpy(p->parent_cmdline, parent.cmdline, sizeof p->parent_cmdline);
        }
    }
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
        .gpu_util = g->gpu.util_gpu,
        .util_window_s = g->util_window_s,
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

/* A GPU at 0% with holders: read utilisation again over a short window and
 * keep the highest, so a pause between two steps is not called idle. */
static void confirm_idle(struct nvml *nv, const struct gpusnap_opts *o, struct gpusnap_gpu *g)
{
    if (g->gpu.util_gpu != 0 || g->n_procs == 0 || o->util_samples < 2) return;
    struct timespec step = {o->util_interval_ms / 1000,
                            (long)(o->util_interval_ms % 1000) * 1000000L};
    for (int k = 1; k < o->util_samples && g->gpu.util_gpu == 0; k++) {
        nanosleep(&step, NULL);
        struct nvml_gpu again;
        if (nvml_gpu(nv, g->gpu.index, &again, NULL) < 0) break;
        if (again.util_gpu > g->gpu.util_gpu) g->gpu.util_gpu = again.util_gpu;
        g->util_window_s += o->util_interval_ms / 1000.0;
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
    for (size_t i = 0; i < n; i++)
        g->procs[i].nv = list[i];
    if (o->details) confirm_idle(nv, o, g);
    for (size_t i = 0; i < n && o->details; i++)
        judge(&g->procs[i], g, o->idle_after_s);
    free(list);
    qsort(g->procs, n, sizeof *g->procs, by_used_desc);
    account(g, o->details);
}

int gpusnap_take(struct nvml *nv, const struct gpusnap_opts *o, struct gpusnap *out,
                 struct oomlab_err *err)
{
    memset(out, 0, sizeof *out);
    unsigned count;
    if (nvml_count(nv, &count, err) < 0) return -1;
    if (o->gpu >= 0 && (unsigned)o->gpu >= count)
        return oomlab_err_set(err, "there is no GPU %d (NVML sees %u GPU%s: 0..%d)", o->gpu, count,
                              count == 1 ? "" : "s", (int)count - 1);
    size_t n = o->gpu >= 0 ? 1 : count;
    nvml_driver(nv, out->driver, sizeof out->driver);
    out->gpus = calloc(n ? n : 1, sizeof *out->gpus);
    if (!out->gpus) return oomlab_err_set(err, "out of memory");
    out->n = n;
    for (size_t i = 0; i < n; i++)
        take_gpu(nv, o->gpu >= 0 ? (unsigned)o->gpu : (unsigned)i, o, &out->gpus[i]);
    return 0;
}

void gpusnap_release(struct gpusnap *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->gpus[i].procs);
    free(s->gpus);
    memset(s, 0, sizeof *s);
}

const struct gpusnap_proc *gpusnap_find(const struct gpusnap *s, unsigned pid, unsigned *gpu)
{
    for (size_t i = 0; i < s->n; i++)
        for (size_t k = 0; k < s->gpus[i].n_procs; k++)
            if (s->gpus[i].procs[k].nv.pid == pid) {
                if (gpu) *gpu = s->gpus[i].gpu.index;
                return &s->gpus[i].procs[k];
            }
    return NULL;
}
