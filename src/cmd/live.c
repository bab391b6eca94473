/* live: the log read as it grows, the Prometheus textfile, the stop after
 * N steps (see live.h). */
#include "cmd/live.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/launcher.h"
#include "render/prom.h"
#include "sys/filerepl.h"
#include "sys/fsutil.h"

#define READ_PER_TICK ((size_t)8 << 20) /* a flood is read over several ticks */

static const char *env_of(const char *name, void *ctx)
{
    (void)ctx;
    return getenv(name);
}

/* The rank and job labels from the launcher's environment (lib/launcher:
 * one table of variables for every command); the job label is the
 * scheduler's own id ("4242" of "slurm:4242"), as its exporters label it. */
static void launcher_labels(struct live *lv)
{
    struct launcher_info li;
    launcher_detect(env_of, NULL, &li);
    lv->rank[0] = lv->job[0] = '\0';
    if (li.rank >= 0) snprintf(lv->rank, sizeof lv->rank, "%ld", li.rank % 100000000L); /* launcher caps ranks at 1e8 */
    const char *colon = strchr(li.job_id, ':');
    snprintf(lv->job, sizeof lv->job, "%s", colon ? colon + 1 : li.job_id);
}

void live_prom_name(const char *id, const char *rank, char *buf, size_t size)
{
    if (rank && *rank) snprintf(buf, size, "oomlab_run_%s_rank%s.prom", id, rank);
    else snprintf(buf, size, "oomlab_run_%s.prom", id);
}

int live_init(struct live *lv, struct oomlab_err *err)
{
    lv->fd = -1;
    lv->offset = 0;
    lv->prom_failed = lv->stop_asked = false;
    lv->prom_path[0] = '\0';
    if (livelog_init(&lv->log) < 0) return oomlab_err_set(err, "out of memory");
    launcher_labels(lv);
    if (gethostname(lv->host, sizeof lv->host) < 0) lv->host[0] = '\0';
    lv->host[sizeof lv->host - 1] = '\0';
    if (!lv->prom_dir) return 0;
    struct stat st;
    if (stat(lv->prom_dir, &st) < 0)
        return oomlab_err_set(err, "--prom %s: %s (make the textfile collector's directory first)",
                              lv->prom_dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return oomlab_err_set(err, "--prom %s: not a directory (give the textfile collector's "
                                   "--collector.textfile.directory)", lv->prom_dir);
    if (access(lv->prom_dir, W_OK) < 0)
        return oomlab_err_set(err, "--prom %s: cannot write there: %s", lv->prom_dir, strerror(errno));
    return 0;
}

void live_release(struct live *lv)
{
    if (lv->fd >= 0) close(lv->fd);
    lv->fd = -1;
    livelog_release(&lv->log);
}

/* New bytes of the log since the last tick (bounded per tick). */
static void read_log(struct live *lv, const char *path, bool final)
{
    if (lv->fd < 0) lv->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (lv->fd < 0) return;
    static char buf[1 << 16];
    size_t budget = final ? SIZE_MAX : READ_PER_TICK;
    for (size_t got = 0; got < budget;) {
        ssize_t n = pread(lv->fd, buf, sizeof buf, lv->offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        livelog_feed(&lv->log, buf, (size_t)n);
        lv->offset += n;
        got += (size_t)n;
    }
    if (final) livelog_flush(&lv->log);
}

/* ---- the textfile ---- */

struct labels {
    const char *v[14]; /* name, value pairs + NULL */
};

static void run_labels(const struct live *lv, const char *id, const char *gpu, struct labels *l)
{
    const char *pairs[] = {"run_id", id, "rank", lv->rank, "host", lv->host, "job", lv->job, "gpu", gpu};
    size_t k = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i += 2)
        if (pairs[i + 1] && *pairs[i + 1]) l->v[k++] = pairs[i], l->v[k++] = pairs[i + 1]; /* "" = absent */
    l->v[k] = NULL;
}

struct gpu_gauge {
    const char *name, *help;
    int64_t (*value)(const struct memlog_peak *g);
    bool mib; /* dcgm-exporter's unit */
};

static int64_t g_used(const struct memlog_peak *g) { return g->used_last; }
static int64_t g_total(const struct memlog_peak *g) { return g->total; }
static int64_t g_tree(const struct memlog_peak *g) { return g->tree_last; }
static int64_t g_free(const struct memlog_peak *g) { return g->free_last; }

static const struct gpu_gauge gpu_gauges[] = {
    {"oomlab_run_gpu_memory_used_bytes", "GPU memory in use on a GPU the run samples (device-wide, as nvidia-smi).", g_used, false},
    {"oomlab_run_gpu_memory_total_bytes", "GPU memory capacity.", g_total, false},
    {"oomlab_run_process_memory_used_bytes", "GPU memory held by the run's process tree.", g_tree, false},
};
/* NVIDIA/dcgm-exporter etc/default-counters.csv: both gauges, in MiB */
static const struct gpu_gauge dcgm_gauges[] = {
    {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", g_used, true},
    {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", g_free, true},
};

static void gpu_families(const struct live *lv, const struct runexec_live *rl, struct prom *p,
                         const struct gpu_gauge *table, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        prom_family(p, table[k].name, "gauge", table[k].help);
        for (size_t i = 0; i < rl->n_gpus; i++) {
            char gpu[16];
            struct labels l;
            snprintf(gpu, sizeof gpu, "%u", rl->gpus[i].gpu);
            run_labels(lv, rl->id, gpu, &l);
            int64_t v = table[k].value(&rl->gpus[i]);
            if (v < 0) continue; /* unknown: no sample */
            prom_sample_int(p, table[k].name, l.v, table[k].mib ? (v + (1 << 19)) >> 20 : v);
        }
    }
}

/* The run's peak so far by run's own rule: the step lines' figure when any
 * line carried one, else NVML's for the process tree; at the end the
 * ledger's (runexec_result: torch hook, step lines, NVML, OOM message). */
static int64_t peak_of(const struct live *lv, const struct runexec_live *rl, const char **source)
{
    const struct runexec_result *r = rl->res;
    if (r) {
        *source = r->peak_source;
        if (!r->peak_source[0]) return -1;
        if (!strcmp(r->peak_source, "nvml")) return r->peak_nvml;
        return r->peak_reserved >= 0 ? r->peak_reserved : r->peak_alloc;
    }
    int64_t log = livelog_peak(&lv->log);
    if (log >= 0) return *source = "log", log;
    int64_t tree = -1;
    for (size_t i = 0; i < rl->n_gpus; i++)
        if (rl->gpus[i].tree_peak > tree) tree = rl->gpus[i].tree_peak;
    *source = "nvml";
    return tree > 0 ? tree : -1;
}

static void one(struct prom *p, const struct live *lv, const char *id, const char *name,
                const char *type, const char *help, int64_t v)
{
    struct labels l;
    run_labels(lv, id, NULL, &l);
    prom_family(p, name, type, help);
    if (v >= 0) prom_sample_int(p, name, l.v, v);
}

static void prom_text(const struct live *lv, const struct runexec_live *rl, struct prom *p)
{
    const struct runexec_result *r = rl->res;
    gpu_families(lv, rl, p, gpu_gauges, sizeof gpu_gauges / sizeof *gpu_gauges);
    const char *source = "";
    int64_t peak = peak_of(lv, rl, &source);
    struct labels l;
    run_labels(lv, rl->id, NULL, &l);
    const char *with_source[16];
    size_t k = 0;
    for (; l.v[k]; k++) with_source[k] = l.v[k];
    with_source[k++] = "source", with_source[k++] = source, with_source[k] = NULL;
    prom_family(p, "oomlab_run_peak_bytes", "gauge",
                "The run's peak GPU memory so far (source: log, torch, nvml, oom = a lower bound).");
    if (peak >= 0) prom_sample_int(p, "oomlab_run_peak_bytes", with_source, peak);
    long steps = lv->log.step;
    one(p, lv, rl->id, "oomlab_run_step", "gauge", "The highest training step the log has shown.", steps);
    long ooms = lv->log.ooms;
    if (r && r->oom && ooms < 1) ooms = 1;
    one(p, lv, rl->id, "oomlab_run_ooms_total", "counter", "GPU out-of-memory errors in the run's log.", ooms);
    one(p, lv, rl->id, "oomlab_run_running", "gauge", "1 while the command runs, 0 once it ended.", r ? 0 : 1);
    one(p, lv, rl->id, "oomlab_run_exit_code", "gauge", "The command's exit code as run exits (after the end).",
        r ? r->exit_code : -1);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    prom_family(p, "oomlab_run_last_update_timestamp_seconds", "gauge", "When oomlab last wrote this file (Unix time).");
    prom_sample(p, "oomlab_run_last_update_timestamp_seconds", l.v,
                (double)ts.tv_sec + (double)(ts.tv_nsec / 1000000) / 1000.0);
    if (lv->prom_dcgm) gpu_families(lv, rl, p, dcgm_gauges, sizeof dcgm_gauges / sizeof *dcgm_gauges);
}

static void write_prom(struct live *lv, const struct runexec_live *rl)
{
    struct oomlab_err err = {{0}};
    if (!lv->prom_path[0]) {
        char name[128];
        live_prom_name(rl->id, lv->rank, name, sizeof name);
        if (fsutil_join(lv->prom_path, sizeof lv->prom_path, lv->prom_dir, name, &err) < 0) goto failed;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        oomlab_err_set(&err, "out of memory");
        goto failed;
    }
    struct prom p;
    prom_init(&p, f);
    prom_text(lv, rl, &p);
    int ok = prom_finish(&p);
    fclose(f);
    int rc = ok < 0 ? oomlab_err_set(&err, "cannot render Prometheus text") : filerepl_write(lv->prom_path, buf, len, &err);
    free(buf);
    if (rc == 0) return;
failed:
    if (!lv->prom_failed)
        fprintf(stderr, "oomlab %s: warning: --prom: %s (the run goes on)\n", lv->who, err.msg);
    lv->prom_failed = true;
}

bool live_tick(const struct runexec_live *rl, void *ctx)
{
    struct live *lv = ctx;
    read_log(lv, rl->log_path, rl->res != NULL);
    if (lv->prom_dir) write_prom(lv, rl);
    if (lv->stop_after > 0 && !lv->stop_asked && livelog_steps_seen(&lv->log) >= lv->stop_after)
        lv->stop_asked = true;
    return lv->stop_asked;
}
