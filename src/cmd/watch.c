/* watch: live GPU memory with peaks. Each tick takes one gpusnap (no /proc
 * judging), keeps per-GPU peaks and a window for the sparkline, and renders
 * it: redrawn in place on a terminal, plain lines otherwise, JSON Lines with
 * --json; --csv goes through memlog (the one CSV format, shared with run) and
 * --prom replaces a Prometheus textfile atomically. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "lib/procstat.h"
#include "lib/units.h"
#include "render/color.h"
#include "render/json.h"
#include "render/prom.h"
#include "render/spark.h"
#include "sys/filerepl.h"
#include "sys/gpusnap.h"
#include "sys/memlog.h"

#define WINDOW 48 /* samples in the sparkline */
#define MAX_GPUS 64

struct watch_opts {
    int64_t interval_ms;
    int gpu;
    const char *csv, *prom;
    bool dcgm, json, force;
    long long count; /* 0: until stopped */
    long long top;
};

struct gpu_track {
    int64_t peak;
    double window[WINDOW];
    size_t n;
};

struct watch {
    struct watch_opts o;
    struct nvml *nv;
    struct memlog *csv;
    struct gpu_track track[MAX_GPUS];
    struct timespec t0;
    bool tty, utf8, color;
    bool reader_gone; /* stdout answered EPIPE */
    long long ticks;
    long long read_ticks;   /* samples in which some GPU's memory was read */
    char last_error[512];   /* the latest GPU error, said if no sample ever read */
    size_t gpus_listed;     /* how many GPUs the previous sample listed */
    char gpus_note[160];    /* the latest change of that list, said (a terminal's frame keeps it) */
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static const char usage_head[] =
    "usage: oomlab watch [--interval 500ms] [--gpu N] [--count N] [--json]\n"
    "                    [--csv FILE [--force]] [--prom FILE [--prom-dcgm]] [--top N]\n\n"
    "Live GPU memory, like nvidia-smi -l, with the peak since start, a sparkline\n"
    "of the recent window and the top processes. Redraws in place on a terminal,\n"
    "plain lines otherwise; Ctrl-C or SIGTERM quits cleanly.\n\n";
static const char usage_tail[] =
    "\nExit: 0 ok (also after Ctrl-C), 2 usage, 3 a file cannot be written, no\n"
    "sample read any GPU or the GPU of --gpu went away, 4 no NVML (no driver or\n"
    "GPU).\n";

static int parse_count(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    long long v;
    if (units_parse_int(val, 0, 0, &v) == 0)
        return oomlab_err_set(err, "--count 0: takes no sample; give 1 or more, "
                                   "or leave --count out to watch until Ctrl-C");
    return opt_int(o, val, dst, size, err);
}

#define AT(f) OPT_FIELD(struct watch_opts, f)
static const struct opt_spec specs[] = {
    OPT_INTERVAL_SPEC("time between samples, 10ms to 1h (default 500ms); a bare\nnumber is seconds (DURATIONS in oomlab(1))",
                      AT(interval_ms)),
    OPT_GPU_SPEC("only GPU N (NVML index)", AT(gpu)),
    {.name = "count", .metavar = "N", .parse = parse_count, AT(count), .min = 1, .max = 1000000000,
     .help = "stop after N samples"},
    {.name = "json", .help = "JSON Lines on stdout, schema oomlab.watch.v1", AT(json)},
    {.name = "csv", .metavar = "FILE", .parse = opt_string, AT(csv),
     .help = "also write FILE in the memory CSV format of 'oomlab run'\n(a new name or an empty file; an existing one needs --force)"},
    {.name = "force", .help = "let --csv replace an existing, non-empty FILE", AT(force)},
    {.name = "prom", .metavar = "FILE", .parse = opt_string, AT(prom),
     .help = "replace FILE (temp + rename) with Prometheus text every\nsample, for node_exporter's textfile collector\n"
             "(FILE: a regular file or a new name; a symlink, FIFO,\ndevice or directory is refused)"},
    {.name = "prom-dcgm", .help = "in FILE, also dcgm-exporter's DCGM_FI_DEV_FB_USED/FREE (MiB)", AT(dcgm)},
    {.name = "top", .metavar = "N", .parse = opt_int, AT(top), .min = 0, .max = 1000000000,
     .help = "processes shown per GPU (default 3)"},
    {0},
};
static const struct opt_table opt_table = {.command = "watch", .usage = usage_head, .epilogue = usage_tail,
                                       .spec = specs, .stop_at_arg = true};
CMD_OPTIONS(cmd_watch_options, opt_table)

/* CMD_CONTINUE, or the exit code. */
static int parse(int argc, char **argv, struct watch_opts *o)
{
    *o = (struct watch_opts){.interval_ms = 500, .gpu = -1, .top = 3};
    struct oomlab_err err;
    int first, rc = cmd_options(&opt_table, argc, argv, o, &first);
    if (rc != CMD_CONTINUE) return rc;
    if (first < argc) return cmd_usage_error("watch", "unexpected argument '%s'", argv[first]);
    if (o->dcgm && !o->prom) return cmd_usage_error("watch", "--prom-dcgm goes with --prom FILE");
    /* run --prom takes the textfile collector's directory; watch writes one
     * file: name the file that would do, not only refuse */
    struct stat st;
    for (int k = 0; k < 2; k++) {
        const char *path = k ? o->csv : o->prom;
        if (path && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return cmd_usage_error("watch", "%s %s: is a directory; watch writes one file: name it, e.g. "
                                   "%s %s%s%s", k ? "--csv" : "--prom", path, k ? "--csv" : "--prom",
                                   path, path[strlen(path) - 1] == '/' ? "" : "/",
                                   k ? "mem.csv" : "oomlab_watch.prom");
    }
    /* only ever replace or truncate a regular file (issue 11: --prom /dev/full) */
    if ((o->prom && filerepl_check(o->prom, "--prom", &err) < 0) ||
        (o->csv && filerepl_check(o->csv, "--csv", &err) < 0))
        return cmd_usage_error("watch", "%s", err.msg);
    /* --csv truncates FILE: one with something in it (an earlier watch's
     * log, anyone's notes) is replaced only with --force, as run replaces a
     * taken id. */
    if (o->csv && !o->force && lstat(o->csv, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        return cmd_usage_error("watch", "--csv %s: the file exists (%lld bytes) and would be "
                               "replaced; choose another path or pass --force",
                               o->csv, (long long)st.st_size);
    return CMD_CONTINUE;
}

static void iso_time(char *buf, size_t size)
{
    struct timespec ts;
    struct tm tm;
    char date[32];
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, size, "%.20s.%03dZ", date, (int)(ts.tv_nsec / 1000000));
}

static const char *bytes(int64_t b, char *buf, size_t size)
{
    return b < 0 ? "-" : units_format_bytes(b, buf, size);
}

static void track(struct watch *w, const struct gpusnap *s)
{
    for (size_t i = 0; i < s->n && i < MAX_GPUS; i++) {
        const struct nvml_gpu *g = &s->gpus[i].gpu;
        struct gpu_track *t = &w->track[i];
        if (w->ticks == 0) t->peak = -1;
        if (s->gpus[i].ok && g->used > t->peak) t->peak = g->used;
        double frac =
            s->gpus[i].ok && g->used >= 0 && g->total > 0 ? (double)g->used / (double)g->total : -1;
        if (t->n == WINDOW)
            memmove(t->window, t->window + 1, (WINDOW - 1) * sizeof(double));
        else
            t->n++;
        t->window[t->n - 1] = frac;
    }
}

/* ---- stdout: terminal frame, plain lines, JSON Lines ---- */

static void top_line(FILE *f, const struct gpusnap_gpu *g, long long top, bool names)
{
    for (size_t k = 0; k < g->n_procs && (long long)k < top; k++) {
        const struct gpusnap_proc *p = &g->procs[k];
        char b[32];
        if (names) {
            struct proc_info pi;
            bool vis = proc_read((pid_t)p->nv.pid, &pi, NULL) == 0;
            /* proc_read cleaned the command line (lib/procstat): no escapes */
            const char *cmd = vis ? pi.cmdline : "(not in /proc: another PID namespace?)";
            fprintf(f, "    %8u  %10s  %.*s\033[K\n", p->nv.pid, bytes(p->nv.used, b, sizeof b),
                    procstat_clip(cmd, 60), cmd);
        } else {
            fprintf(f, "%s%u %s", k ? ", " : " top ", p->nv.pid, bytes(p->nv.used, b, sizeof b));
        }
    }
}

static void frame(struct watch *w, const struct gpusnap *s, FILE *f)
{
    char now[40];
    iso_time(now, sizeof now);
    fprintf(f, "\033[H%soomlab watch%s  every %lldms  %s  (Ctrl-C quits)\033[K\n",
            color_code(w->color, COLOR_BOLD), color_code(w->color, COLOR_RESET),
            (long long)w->o.interval_ms, now);
    /* the GPU list changed under the watch: a line of the frame, which
     * every redraw keeps (a line on stderr would be drawn over) */
    if (w->gpus_note[0])
        fprintf(f, "%s%s%s\033[K\n", color_code(w->color, COLOR_YELLOW), w->gpus_note,
                color_code(w->color, COLOR_RESET));
    for (size_t i = 0; i < s->n && i < MAX_GPUS; i++) {
        const struct gpusnap_gpu *g = &s->gpus[i];
        char u[32], t[32], p[32], spark[WINDOW * 4 + 1];
        fprintf(f, "\033[K\nGPU %u  %s\033[K\n", g->gpu.index, g->gpu.name);
        if (!g->ok) {
            fprintf(f, "  %s\033[K\n", g->error);
            continue;
        }
        fprintf(f, "  used %s / %s", bytes(g->gpu.used, u, sizeof u),
                bytes(g->gpu.total, t, sizeof t));
        if (g->gpu.used >= 0 && g->gpu.total > 0)
            fprintf(f, " (%.1f%%)", 100.0 * (double)g->gpu.used / (double)g->gpu.total);
        fprintf(f, "  peak %s%s%s  util ", color_code(w->color, COLOR_YELLOW),
                bytes(w->track[i].peak, p, sizeof p), color_code(w->color, COLOR_RESET));
        if (g->gpu.util_gpu >= 0)
            fprintf(f, "%d%%\033[K\n", g->gpu.util_gpu);
        else
            fprintf(f, "unknown\033[K\n");
        fprintf(f, "  [%s]\033[K\n",
                spark_render(w->track[i].window, w->track[i].n, w->utf8, spark, sizeof spark));
        top_line(f, g, w->o.top, true);
    }
    fprintf(f, "\033[J");
}

static void plain(struct watch *w, const struct gpusnap *s, FILE *f)
{
    char now[40];
    iso_time(now, sizeof now);
    for (size_t i = 0; i < s->n && i < MAX_GPUS; i++) {
        const struct gpusnap_gpu *g = &s->gpus[i];
        char u[32], t[32], p[32];
        if (!g->ok) {
            fprintf(f, "%s GPU %u error: %s\n", now, g->gpu.index, g->error);
            continue;
        }
        fprintf(f, "%s GPU %u used %s of %s peak %s util ", now, g->gpu.index,
                bytes(g->gpu.used, u, sizeof u), bytes(g->gpu.total, t, sizeof t),
                bytes(w->track[i].peak, p, sizeof p));
        if (g->gpu.util_gpu >= 0)
            fprintf(f, "%d%%", g->gpu.util_gpu);
        else
            fprintf(f, "-");
        top_line(f, g, w->o.top, false);
        fprintf(f, "\n");
    }
}

static long long elapsed_ms(const struct watch *w)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)(now.tv_sec - w->t0.tv_sec) * 1000 + (now.tv_nsec - w->t0.tv_nsec) / 1000000;
}

static void json_line(struct watch *w, const struct gpusnap *s, FILE *f)
{
    char now[40];
    struct json j;
    iso_time(now, sizeof now);
    json_init(&j, f, false);
    json_obj_begin(&j);
    json_key(&j, "schema"), json_str(&j, "oomlab.watch.v1");
    json_key(&j, "timestamp"), json_str(&j, now);
    json_key(&j, "elapsed_ms"), json_int(&j, elapsed_ms(w));
    json_key(&j, "error"), json_null(&j);
    json_key(&j, "gpus");
    json_arr_begin(&j);
    for (size_t i = 0; i < s->n && i < MAX_GPUS; i++) {
        const struct gpusnap_gpu *g = &s->gpus[i];
        json_obj_begin(&j);
        json_key(&j, "index"), json_int(&j, g->gpu.index);
        json_key(&j, "name"), json_str(&j, g->gpu.name[0] ? g->gpu.name : NULL);
        json_key(&j, "error"), json_str(&j, g->ok && g->procs_ok ? NULL : g->error);
        json_key(&j, "used_bytes"), json_bytes(&j, g->gpu.used);
        json_key(&j, "total_bytes"), json_bytes(&j, g->gpu.total);
        json_key(&j, "free_bytes"), json_bytes(&j, g->gpu.free);
        json_key(&j, "peak_used_bytes"), json_bytes(&j, w->track[i].peak);
        json_key(&j, "util_pct");
        if (g->gpu.util_gpu >= 0)
            json_int(&j, g->gpu.util_gpu);
        else
            json_null(&j);
        json_key(&j, "processes");
        json_arr_begin(&j);
        for (size_t k = 0; k < g->n_procs; k++) {
            json_obj_begin(&j);
            json_key(&j, "pid"), json_int(&j, g->procs[k].nv.pid);
            json_key(&j, "used_bytes"), json_bytes(&j, g->procs[k].nv.used);
            json_obj_end(&j);
        }
        json_arr_end(&j);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    json_finish(&j);
}

/* --json without NVML: one line that says so, for scripts that parse stdout. */
static void json_error_line(const char *msg)
{
    char now[40];
    struct json j;
    iso_time(now, sizeof now);
    json_init(&j, stdout, false);
    json_obj_begin(&j);
    json_key(&j, "schema"), json_str(&j, "oomlab.watch.v1");
    json_key(&j, "timestamp"), json_str(&j, now);
    json_key(&j, "error"), json_str(&j, msg);
    json_key(&j, "gpus"), json_arr_begin(&j), json_arr_end(&j);
    json_obj_end(&j);
    json_finish(&j);
    fflush(stdout);
}

static void json_no_nvml(const char *why)
{
    char msg[600];
    snprintf(msg, sizeof msg, "NVML not available: %s", why);
    json_error_line(msg);
}

/* ---- files: Prometheus textfile, memory CSV ---- */

struct gauge {
    const char *name, *help;
    int64_t (*value)(const struct watch *w, size_t i, const struct gpusnap_gpu *g);
};

static int64_t v_used(const struct watch *w, size_t i, const struct gpusnap_gpu *g)
{
    return g->gpu.used;
}
static int64_t v_total(const struct watch *w, size_t i, const struct gpusnap_gpu *g)
{
    return g->gpu.total;
}
static int64_t v_free(const struct watch *w, size_t i, const struct gpusnap_gpu *g)
{
    return g->gpu.free;
}
static int64_t v_peak(const struct watch *w, size_t i, const struct gpusnap_gpu *g)
{
    return w->track[i].peak;
}
static int64_t v_unacc(const struct watch *w, size_t i, const struct gpusnap_gpu *g)
{
    return g->unaccounted;
}
static int64_t v_nprocs(const struct watch *w, size_t i, const struct gpusnap_gpu *g)
{
    return g->procs_ok ? (int64_t)g->n_procs : -1;
}
static int64_t mib(int64_t b)
{
    return b < 0 ? -1 : (b + (1 << 19)) >> 20;
}
static int64_t v_fb_used(const struct watch *w, size_t i, const struct gpusnap_gpu *g)
{
    return mib(g->gpu.used);
}
static int64_t v_fb_free(const struct watch *w, size_t i, const struct gpusnap_gpu *g)
{
    return mib(g->gpu.free);
}

static const struct gauge gauges[] = {
    {"oomlab_gpu_memory_used_bytes", "GPU memory in use, as nvidia-smi reports it.", v_used},
    {"oomlab_gpu_memory_total_bytes", "GPU memory capacity.", v_total},
    {"oomlab_gpu_memory_free_bytes", "GPU memory free.", v_free},
    {"oomlab_gpu_memory_peak_used_bytes", "Highest GPU memory in use since oomlab watch started.",
     v_peak},
    {"oomlab_gpu_memory_unaccounted_bytes",
     "GPU memory in use that no listed process accounts for.", v_unacc},
    {"oomlab_gpu_processes", "Processes holding memory on the GPU.", v_nprocs},
};

static const struct gauge dcgm_gauges[] = {
    {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", v_fb_used},
    {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", v_fb_free},
};

static void prom_gauges(struct watch *w, const struct gpusnap *s, struct prom *p,
                        const struct gauge *table, size_t n, bool dcgm)
{
    for (size_t k = 0; k < n; k++) {
        prom_family(p, table[k].name, "gauge", table[k].help);
        for (size_t i = 0; i < s->n && i < MAX_GPUS; i++) {
            const struct gpusnap_gpu *g = &s->gpus[i];
            char idx[16], dev[24];
            snprintf(idx, sizeof idx, "%u", g->gpu.index);
            snprintf(dev, sizeof dev, "nvidia%u", g->gpu.index);
            const char *ours[] = {"gpu", idx, "name", g->gpu.name, NULL};
            const char *theirs[] = {"gpu", idx, "device", dev, "modelName", g->gpu.name, NULL};
            int64_t v = g->ok ? table[k].value(w, i, g) : -1;
            if (v >= 0)
                prom_sample_int(p, table[k].name, dcgm ? theirs : ours, v); /* unknown: no sample */
        }
    }
}

static void prom_text(struct watch *w, const struct gpusnap *s, struct prom *p)
{
    prom_gauges(w, s, p, gauges, sizeof gauges / sizeof gauges[0], false);
    prom_family(p, "oomlab_gpu_utilization_ratio", "gauge", "GPU utilisation, 0 to 1.");
    for (size_t i = 0; i < s->n; i++) {
        char idx[16];
        snprintf(idx, sizeof idx, "%u", s->gpus[i].gpu.index);
        const char *l[] = {"gpu", idx, "name", s->gpus[i].gpu.name, NULL};
        if (s->gpus[i].ok && s->gpus[i].gpu.util_gpu >= 0)
            prom_sample(p, "oomlab_gpu_utilization_ratio", l, s->gpus[i].gpu.util_gpu / 100.0);
    }
    prom_family(p, "oomlab_gpu_process_memory_used_bytes", "gauge",
                "GPU memory held by one process (host PID).");
    for (size_t i = 0; i < s->n; i++)
        for (size_t k = 0; k < s->gpus[i].n_procs; k++) {
            char idx[16], pid[16];
            snprintf(idx, sizeof idx, "%u", s->gpus[i].gpu.index);
            snprintf(pid, sizeof pid, "%u", s->gpus[i].procs[k].nv.pid);
            const char *l[] = {"gpu", idx, "pid", pid, NULL};
            if (s->gpus[i].procs[k].nv.used >= 0)
                prom_sample_int(p, "oomlab_gpu_process_memory_used_bytes", l,
                                s->gpus[i].procs[k].nv.used);
        }
    prom_family(p, "oomlab_watch_last_sample_timestamp_seconds", "gauge",
                "When oomlab watch last sampled (Unix time).");
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    prom_sample(p, "oomlab_watch_last_sample_timestamp_seconds", NULL,
                (double)ts.tv_sec + (double)(ts.tv_nsec / 1000000) / 1000.0);
    if (w->o.dcgm)
        prom_gauges(w, s, p, dcgm_gauges, sizeof dcgm_gauges / sizeof dcgm_gauges[0], true);
}

static int write_prom(struct watch *w, const struct gpusnap *s, struct oomlab_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return oomlab_err_set(err, "out of memory");
    struct prom p;
    prom_init(&p, f);
    prom_text(w, s, &p);
    int ok = prom_finish(&p);
    fclose(f);
    int rc = ok < 0 ? oomlab_err_set(err, "cannot render Prometheus text for %s", w->o.prom)
                    : filerepl_write(w->o.prom, buf, len, err);
    free(buf);
    return rc;
}

static int write_csv(struct watch *w, const struct gpusnap *s, struct oomlab_err *err)
{
    struct memlog_sample rows[MAX_GPUS];
    size_t n = s->n < MAX_GPUS ? s->n : MAX_GPUS;
    for (size_t i = 0; i < n; i++)
        rows[i] = (struct memlog_sample){.gpu = s->gpus[i].ok ? &s->gpus[i].gpu : NULL,
                                         .index = s->gpus[i].gpu.index,
                                         .tree_used = -1};
    return memlog_record(w->csv, rows, n, err);
}

/* ---- the loop ---- */

/* Counts the samples that read any GPU's memory, and keeps the latest error:
 * a watch in which every sample failed has watched nothing and says so. */
static void note_reads(struct watch *w, const struct gpusnap *s)
{
    bool any = false;
    for (size_t i = 0; i < s->n; i++) {
        if (s->gpus[i].ok) any = true;
        else if (s->gpus[i].error[0])
            snprintf(w->last_error, sizeof w->last_error, "%s", s->gpus[i].error);
    }
    if (any) w->read_ticks++;
}

/* One tick: sample, track, render, write files. -1 stops the loop. */
static int tick(struct watch *w, struct oomlab_err *err)
{
    struct gpusnap s;
    struct gpusnap_opts so = {.gpu = w->o.gpu, .idle_after_s = 0, .details = false};
    if (gpusnap_take(w->nv, &so, &s, err) < 0) {
        /* NVML answered before and no longer does, or no longer lists the
         * GPU of --gpu (it fell off the bus, or the driver was unloaded):
         * not a usage error, so no hint about the index; a JSON reader
         * (jq) learns it from the stream, not only from stderr */
        if (w->ticks > 0) {
            unsigned count = 0;
            char was[sizeof err->msg];
            snprintf(was, sizeof was, "%s", err->msg);
            if (w->o.gpu >= 0 && nvml_count(w->nv, &count, NULL) == 0 && (unsigned)w->o.gpu >= count)
                oomlab_err_set(err, "GPU %d is gone after %lld sample%s: NVML now lists %u GPU%s", w->o.gpu,
                               w->ticks, w->ticks == 1 ? "" : "s", count, count == 1 ? "" : "s");
            else
                oomlab_err_set(err, "%s (after %lld sample%s)", was, w->ticks, w->ticks == 1 ? "" : "s");
        }
        if (w->o.json) json_error_line(err->msg);
        return -1;
    }
    /* the list of GPUs changed under a watch of them all (one fell off the
     * bus, the driver was reloaded): said once per change, so that lines
     * that stop for a GPU are not taken for an idle one; on stderr, or on a
     * terminal as a line of the frame (the redraw would draw over stderr's) */
    if (w->ticks > 0 && s.n != w->gpus_listed) {
        snprintf(w->gpus_note, sizeof w->gpus_note, "NVML lists %zu GPU%s now, %zu before (after %lld sample%s)%s",
                 s.n, s.n == 1 ? "" : "s", w->gpus_listed, w->ticks, w->ticks == 1 ? "" : "s",
                 s.n < w->gpus_listed ? "; if one fell off the bus, dmesg names its Xid error" : "");
        if (!w->tty) fprintf(stderr, "oomlab watch: %s\n", w->gpus_note);
    }
    w->gpus_listed = s.n;
    track(w, &s);
    note_reads(w, &s);
    int rc = 0;
    if (w->o.json)
        json_line(w, &s, stdout);
    else if (w->tty)
        frame(w, &s, stdout);
    else
        plain(w, &s, stdout);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        /* a reader that went away (| head) ends us quietly */
        w->reader_gone = errno == EPIPE;
        rc = oomlab_err_set(err, "cannot write to standard output: %s", strerror(errno));
    }
    if (rc == 0 && w->csv) rc = write_csv(w, &s, err);
    if (rc == 0 && w->o.prom) rc = write_prom(w, &s, err);
    gpusnap_release(&s);
    w->ticks++;
    return rc;
}

static void sleep_until(struct timespec *next, int64_t interval_ms)
{
    next->tv_nsec += (long)(interval_ms % 1000) * 1000000L;
    next->tv_sec += (time_t)(interval_ms / 1000) + next->tv_nsec / 1000000000L;
    next->tv_nsec %= 1000000000L;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > next->tv_sec || (now.tv_sec == next->tv_sec && now.tv_nsec > next->tv_nsec))
        *next = now; /* behind (a slow tick): do not burst to catch up */
    while (!stop_signal && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR) {
    }
}

static int run_loop(struct watch *w)
{
    struct oomlab_err err;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    if (w->tty) {
        setvbuf(stdout, NULL, _IOFBF, 1 << 16); /* one write per frame: no flicker */
        /* autowrap off: a line wider than the terminal (a narrow tmux pane)
         * is clipped, not wrapped into rows that scroll the frame away */
        fputs("\033[?7l\033[?25l\033[H\033[2J", stdout);
    }
    int rc = EXIT_OK;
    while (!stop_signal) {
        if (tick(w, &err) < 0) {
            rc = w->reader_gone ? EXIT_OK : EXIT_ERROR;
            break;
        }
        if (w->o.count && w->ticks >= w->o.count) break;
        sleep_until(&next, w->o.interval_ms);
    }
    /* the terminal back first: an error said with autowrap off is clipped */
    if (w->tty) fputs("\033[?7h\033[?25h\n", stdout);
    fflush(stdout);
    if (rc) fprintf(stderr, "oomlab watch: %s; stopping\n", err.msg);
    if (rc == EXIT_OK && w->ticks > 0 && w->read_ticks == 0) {
        char in[64];
        if (w->ticks == 1) snprintf(in, sizeof in, "in the one sample");
        else snprintf(in, sizeof in, "in any of the %lld samples", w->ticks);
        fprintf(stderr,
                "oomlab watch: no GPU's memory could be read %s (last error: %s); try nvidia-smi "
                "to see whether the driver answers\n",
                in, w->last_error[0] ? w->last_error : "unknown");
        rc = EXIT_ERROR;
    }
    return rc;
}

/* NVML answers but lists no GPU (nvidia-smi: "No devices were found"): as
 * good as no NVML, exit status 4, not an empty watch that exits 0. */
static int no_gpu(const struct watch_opts *o)
{
    const char *why = "no GPU: NVML answers but lists none (nvidia-smi would say 'No devices were found')";
    if (o->json) json_error_line(why);
    fprintf(stderr, "oomlab watch: %s; no GPU memory to watch\n", why);
    return EXIT_NO_NVML;
}

static int open_csv(struct watch *w, int argc, char **argv, struct oomlab_err *err)
{
    char command[1024] = "oomlab";
    for (int i = 0; i < argc; i++) {
        size_t used = strlen(command);
        snprintf(command + used, sizeof command - used, " %s", argv[i]);
    }
    unsigned gpu = (unsigned)w->o.gpu;
    return memlog_open(&w->csv, w->nv, w->o.csv, w->o.gpu >= 0 ? &gpu : NULL, w->o.gpu >= 0 ? 1 : 0,
                       0, command, err);
}

int cmd_watch(int argc, char **argv)
{
    static struct watch w; /* the window arrays are large */
    memset(&w, 0, sizeof w);
    int rc = parse(argc, argv, &w.o);
    if (rc != CMD_CONTINUE) return rc;
    struct oomlab_err err;
    if (nvml_open(&w.nv, &err) < 0) {
        if (w.o.json) json_no_nvml(err.msg);
        fprintf(stderr,
                "oomlab watch: %s\noomlab watch: no NVML, so no GPU memory to watch; "
                "try nvidia-smi to see whether the driver answers\n",
                err.msg);
        return EXIT_NO_NVML;
    }
    unsigned count;
    rc = nvml_count(w.nv, &count, &err) < 0 ? EXIT_ERROR : EXIT_OK;
    if (rc == EXIT_OK && count == 0) {
        nvml_close(w.nv);
        return no_gpu(&w.o);
    }
    if (rc == EXIT_OK && nvml_gpu_missing(w.o.gpu, count, &err)) rc = EXIT_USAGE;
    if (rc != EXIT_OK) {
        /* NVML that loads but cannot count its GPUs: said in the stream
         * too, as a failure mid-run is (a usage error is not) (review24) */
        if (rc == EXIT_ERROR && w.o.json) json_error_line(err.msg);
        nvml_close(w.nv);
        return cmd_fail("watch", &err, rc);
    }
    if (w.o.csv && open_csv(&w, argc, argv, &err) < 0) {
        nvml_close(w.nv);
        return cmd_fail("watch", &err, EXIT_ERROR);
    }
    w.tty = !w.o.json && isatty(STDOUT_FILENO);
    w.utf8 = spark_utf8_locale();
    w.color = color_enabled(stdout);
    clock_gettime(CLOCK_MONOTONIC, &w.t0);
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    rc = run_loop(&w);
    if (w.csv && memlog_close(w.csv, &err) < 0 && rc == EXIT_OK)
        rc = cmd_fail("watch", &err, EXIT_ERROR);
    nvml_close(w.nv);
    return rc;
}
