/* ps: who holds GPU memory right now. Options -> one gpusnap (NVML joined
 * with /proc, judged by lib/stale) -> a table or oomlab.ps.v1 JSON; with
 * --kill, the guarded end of one stale holder and the memory it freed. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "lib/procstat.h"
#include "lib/units.h"
#include "render/color.h"
#include "render/json.h"
#include "render/table.h"
#include "sys/gpusnap.h"

struct ps_opts {
    int gpu;
    bool json, force, yes;
    long kill_pid;
    int64_t idle_after_ms, grace_ms, window_ms;
};

static const char usage_head[] =
    "usage: oomlab ps [--gpu N] [--json] [--idle-after DUR] [--window DUR]\n"
    "       oomlab ps --kill PID [--yes] [--force] [--grace DUR] [--gpu N]\n\n"
    "Who holds GPU memory: per GPU its totals and each process (pid, user, memory,\n"
    "age, state, CPU over the window, parent, RSS, kind, command), flags with\n"
    "evidence and the memory no visible process accounts for. Holders are watched\n"
    "for --window: a stale flag needs evidence of no work (zombie; or 0% GPU on\n"
    "every reading and no CPU time gained: 'orphan' when its launcher died,\n"
    "'idle' past --idle-after). A parent of PID 1 alone is not stale (nohup,\n"
    "setsid, containers): 'reparented'.\n\n";
static const char usage_tail[] =
    UNITS_DURATION_HELP "\n"
    "Exit: 0 ok, 2 usage, 3 a GPU could not be read or --kill refused/failed,\n"
    "4 no NVML (no driver or GPU).\n";

static int parse_pid(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    long long v;
    if (units_parse_int(val, 1, 1, &v) == 0) /* a process id, but the one whose end ends the machine */
        return oomlab_err_set(err, "--kill 1: PID 1 is init (the container's first process): oomlab never kills it");
    if (units_parse_int(val, 2, 4194304, &v) < 0) /* PID_MAX_LIMIT */
        return oomlab_err_set(err, "--kill wants a process id (2 to 4194304), not '%s'", val);
    *(long *)dst = (long)v;
    return 0;
}

#define AT(f) OPT_FIELD(struct ps_opts, f)
static const struct opt_spec specs[] = {
    OPT_GPU_SPEC("only GPU N (NVML index, as nvidia-smi numbers them)", AT(gpu)),
    {.name = "json", .help = "schema oomlab.ps.v1 (docs/ps-watch-json.md)", AT(json)},
    {.name = "window", .metavar = "DUR", .parse = opt_duration, AT(window_ms), .min = 100, .max = 600000,
     .help = "how long to watch GPU utilisation and CPU time\n(default 1s; 5s with --kill; 100ms to 10m)"},
    {.name = "idle-after", .metavar = "DUR", .parse = opt_duration, AT(idle_after_ms), .min = 0,
     .max = UNITS_DURATION_MAX_MS, .help = "a quiet holder running this long is 'idle' (default 10m)"},
    {.name = "kill", .metavar = "PID", .parse = parse_pid, AT(kill_pid),
     .help = "end PID: only when flagged stale, yours, and quiet\nover the window (never one that used GPU or CPU); asks\n"
             "on a terminal; SIGTERM, then SIGKILL after --grace (5s)"},
    {.name = "yes", .help = "confirm --kill without a terminal", AT(yes)},
    {.name = "force", .help = "root only: --kill a quiet process that is not flagged\nor not yours", AT(force)},
    OPT_GRACE_SPEC("SIGTERM to SIGKILL delay for --kill (default 5s)", AT(grace_ms)),
    {0},
};
static const struct opt_table opt_table = {.command = "ps", .usage = usage_head, .epilogue = usage_tail,
                                       .spec = specs, .stop_at_arg = true};
CMD_OPTIONS(cmd_ps_options, opt_table)

/* CMD_CONTINUE, or the exit code. */
static int parse(int argc, char **argv, struct ps_opts *o)
{
    *o = (struct ps_opts){
        .gpu = -1, .kill_pid = -1, .idle_after_ms = 600000, .grace_ms = 5000, .window_ms = -1};
    int first, rc = cmd_options(&opt_table, argc, argv, o, &first);
    if (rc != CMD_CONTINUE) return rc;
    if (first < argc) return cmd_usage_error("ps", "unexpected argument '%s'", argv[first]);
    if (o->window_ms < 0)
        o->window_ms = o->kill_pid > 0 ? 5000 : 1000; /* look longer before a kill */
    if (o->kill_pid < 0 && (o->force || o->yes))
        return cmd_usage_error("ps", "--force and --yes go with --kill PID");
    if (o->force && geteuid() != 0)
        return cmd_usage_error("ps", "--force is for root only: it kills what is not stale or "
                                     "not yours");
    return CMD_CONTINUE;
}

/* ---- rendering ---- */

/* "2.00 GiB", "-" unknown: into buf either way, so buf is the cell too */
static const char *bytes(int64_t b, char *buf, size_t size)
{
    if (b >= 0) return units_format_bytes(b, buf, size);
    snprintf(buf, size, "-");
    return buf;
}

static void print_gpu_line(const struct gpusnap_gpu *g, bool color)
{
    char u[32], t[32], f[32];
    printf("%sGPU %u%s  %s", color_code(color, COLOR_BOLD), g->gpu.index,
           color_code(color, COLOR_RESET), g->gpu.name[0] ? g->gpu.name : "(no name)");
    if (!g->ok) {
        printf("  %s%s%s\n", color_code(color, COLOR_RED), g->error,
               color_code(color, COLOR_RESET));
        return;
    }
    printf("  used %s of %s", bytes(g->gpu.used, u, sizeof u), bytes(g->gpu.total, t, sizeof t));
    if (g->gpu.used >= 0 && g->gpu.total > 0)
        printf(" (%.1f%%)", 100.0 * (double)g->gpu.used / (double)g->gpu.total);
    printf(", free %s, util ", bytes(g->gpu.free, f, sizeof f));
    if (g->gpu.util_gpu < 0)
        printf("unknown\n");
    else if (g->window_s > 0)
        printf("%d%% (highest of %d readings over %.1fs)\n", g->gpu.util_gpu, g->util_reads,
               g->window_s);
    else
        printf("%d%%\n", g->gpu.util_gpu);
}

/* CPU over the window as % of one core; "?" when not watched or unknown. */
static const char *cpu_cell(const struct gpusnap_proc *p, double window_s, char *buf, size_t size)
{
    if (p->cpu_s < 0 || !(window_s > 0)) return "?";
    snprintf(buf, size, "%.0f%%", 100.0 * p->cpu_s / window_s);
    return buf;
}

static void add_row(struct table *t, const struct gpusnap_proc *p, double window_s)
{
    char pid[16], mem[32], age[32], state[8], cpu[16], ppid[16], rss[32], cmd[84];
    snprintf(pid, sizeof pid, "%u", p->nv.pid);
    const char *memc = bytes(p->nv.used, mem, sizeof mem);
    const char *kind = p->assess.kind ? p->assess.kind : "-";
    if (!p->visible) {
        const char *cells[] = {pid, "?", memc, "?",  "?",
                               "?", "?", "?", kind, "(not in /proc: another PID namespace?)"};
        table_add(t, cells);
        return;
    }
    stale_duration(p->info.elapsed_s, age, sizeof age);
    snprintf(state, sizeof state, "%c", p->info.state);
    snprintf(ppid, sizeof ppid, "%ld", (long)p->info.ppid);
    const char *rssc = bytes(p->info.rss_bytes, rss, sizeof rss);
    /* cleaned by proc_read (lib/procstat): no terminal escapes; whole characters */
    snprintf(cmd, sizeof cmd, "%.*s", procstat_clip(p->info.cmdline, 80), p->info.cmdline);
    const char *cells[] = {
        pid,  p->info.user, memc, age, state, cpu_cell(p, window_s, cpu, sizeof cpu),
        ppid, rssc,         kind, cmd};
    table_add(t, cells);
}

static void print_gpu(const struct gpusnap_gpu *g, bool color)
{
    print_gpu_line(g, color);
    if (!g->ok) return;
    if (!g->procs_ok) {
        printf("  processes: %s\n", g->error);
        return;
    }
    if (g->n_procs) {
        static const char *const head[] = {"PID", "USER", "GPU MEM", "ELAPSED", "STATE",
                                           "CPU", "PPID", "RSS",     "KIND",    "COMMAND"};
        struct table t;
        table_init(&t, 10, head);
        table_align_right(&t, 0), table_align_right(&t, 2), table_align_right(&t, 5);
        table_align_right(&t, 6), table_align_right(&t, 7);
        for (size_t i = 0; i < g->n_procs; i++)
            add_row(&t, &g->procs[i], g->window_s);
        table_print(&t, stdout);
        table_release(&t);
    } else {
        printf("  no processes hold memory on this GPU\n");
    }
    char un[32], hid[32];
    if (g->unaccounted > 0) {
        printf("  not accounted for by any visible process: %s",
               bytes(g->unaccounted, un, sizeof un));
        if (g->hidden > 0)
            printf(" (%s of it held by PIDs /proc cannot see)", bytes(g->hidden, hid, sizeof hid));
        printf("\n");
    } else if (g->unaccounted < 0) {
        printf("  not accounted for by any visible process: unknown (%s)\n",
               g->gpu.used < 0 ? "NVML reports no memory figures for this GPU"
                               : "NVML gives no per-process figure for some");
    }
    for (size_t i = 0; i < g->n_procs; i++) {
        const struct gpusnap_proc *p = &g->procs[i];
        for (size_t k = 0; k < p->assess.n_flags; k++)
            printf("  %s%u %s%s: %s\n",
                   color_code(color, p->assess.flags[k].stale ? COLOR_YELLOW : COLOR_DIM),
                   p->nv.pid, p->assess.flags[k].name, color_code(color, COLOR_RESET),
                   p->assess.flags[k].evidence);
        if (p->assess.kind)
            printf("  %u %s: %s\n", p->nv.pid, p->assess.kind, p->assess.kind_evidence);
    }
}

static void json_proc(struct json *j, const struct gpusnap_proc *p)
{
    json_obj_begin(j);
    json_key(j, "pid"), json_int(j, p->nv.pid);
    json_key(j, "used_bytes"), json_bytes(j, p->nv.used);
    json_key(j, "visible"), json_bool(j, p->visible);
    json_key(j, "graphics"), json_bool(j, p->nv.graphics);
    char st[2] = {p->info.state, 0};
    json_key(j, "state"), json_str(j, p->visible ? st : NULL);
    json_key(j, "user"), json_str(j, p->visible ? p->info.user : NULL);
    json_key(j, "uid");
    if (p->visible && p->info.uid_known)
        json_int(j, (long long)p->info.uid);
    else
        json_null(j);
    json_key(j, "ppid");
    if (p->visible)
        json_int(j, p->info.ppid);
    else
        json_null(j);
    json_key(j, "elapsed_s");
    if (p->visible && p->info.elapsed_s >= 0)
        json_double(j, (double)(long long)p->info.elapsed_s);
    else
        json_null(j);
    json_key(j, "rss_bytes"), json_bytes(j, p->visible ? p->info.rss_bytes : -1);
    json_key(j, "command"), json_str(j, p->visible ? p->info.cmdline : NULL);
    json_key(j, "cpu_s");
    if (p->cpu_s >= 0)
        json_double(j, round(p->cpu_s * 1000) / 1000);
    else
        json_null(j);
    json_key(j, "activity"), json_str(j, stale_activity_name(p->assess.activity));
    json_key(j, "activity_evidence"), json_str(j, p->assess.activity_evidence);
    json_key(j, "kind"), json_str(j, p->assess.kind);
    json_key(j, "kind_evidence"), json_str(j, p->assess.kind ? p->assess.kind_evidence : NULL);
    json_key(j, "stale"), json_bool(j, p->assess.stale);
    json_key(j, "flags");
    json_arr_begin(j);
    for (size_t k = 0; k < p->assess.n_flags; k++) {
        json_obj_begin(j);
        json_key(j, "name"), json_str(j, p->assess.flags[k].name);
        json_key(j, "stale"), json_bool(j, p->assess.flags[k].stale);
        json_key(j, "evidence"), json_str(j, p->assess.flags[k].evidence);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_obj_end(j);
}

static void json_gpu(struct json *j, const struct gpusnap_gpu *g)
{
    json_obj_begin(j);
    json_key(j, "index"), json_int(j, g->gpu.index);
    json_key(j, "name"), json_str(j, g->gpu.name[0] ? g->gpu.name : NULL);
    json_key(j, "error"), json_str(j, g->ok && g->procs_ok ? NULL : g->error);
    json_key(j, "total_bytes"), json_bytes(j, g->gpu.total);
    json_key(j, "used_bytes"), json_bytes(j, g->gpu.used);
    json_key(j, "free_bytes"), json_bytes(j, g->gpu.free);
    json_key(j, "reserved_bytes"), json_bytes(j, g->gpu.reserved);
    json_key(j, "util_pct");
    if (g->gpu.util_gpu >= 0)
        json_int(j, g->gpu.util_gpu);
    else
        json_null(j);
    json_key(j, "util_reads"), json_int(j, g->util_reads);
    json_key(j, "window_s"), json_double(j, round(g->window_s * 1000) / 1000);
    json_key(j, "unaccounted_bytes"), json_bytes(j, g->unaccounted);
    json_key(j, "hidden_bytes"), json_bytes(j, g->hidden);
    json_key(j, "processes");
    json_arr_begin(j);
    for (size_t i = 0; i < g->n_procs; i++)
        json_proc(j, &g->procs[i]);
    json_arr_end(j);
    json_obj_end(j);
}

/* The document's head: schema, error (NULL when none), driver, thresholds. */
static void json_head(struct json *j, const struct ps_opts *o, const char *error,
                      const char *driver)
{
    json_obj_begin(j);
    json_key(j, "schema"), json_str(j, "oomlab.ps.v1");
    json_key(j, "error"), json_str(j, error);
    json_key(j, "driver"), json_str(j, driver && driver[0] ? driver : NULL);
    json_key(j, "idle_after_s"), json_double(j, (double)o->idle_after_ms / 1000.0);
    json_key(j, "window_s"), json_double(j, (double)o->window_ms / 1000.0);
    json_key(j, "gpus");
    json_arr_begin(j);
}

/* --json without NVML: a document that says so, for scripts that parse stdout. */
static void json_error_doc(const struct ps_opts *o, const char *msg)
{
    struct json j;
    json_init(&j, stdout, true);
    json_head(&j, o, msg, NULL);
    json_arr_end(&j);
    json_obj_end(&j);
    json_finish(&j);
    fflush(stdout);
}

static void json_no_nvml(const struct ps_opts *o, const char *why)
{
    char msg[600];
    snprintf(msg, sizeof msg, "NVML not available: %s", why);
    json_error_doc(o, msg);
}

static int render(const struct gpusnap *s, const struct ps_opts *o)
{
    if (o->json) {
        struct json j;
        json_init(&j, stdout, true);
        json_head(&j, o, NULL, s->driver);
        for (size_t i = 0; i < s->n; i++)
            json_gpu(&j, &s->gpus[i]);
        json_arr_end(&j);
        json_obj_end(&j);
        if (json_finish(&j) < 0) return -1;
    } else {
        bool color = color_enabled(stdout);
        if (s->driver[0]) printf("driver %s\n", s->driver);
        for (size_t i = 0; i < s->n; i++) {
            if (i) printf("\n");
            print_gpu(&s->gpus[i], color);
        }
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
}

/* ---- --kill ---- */

static int refuse(long pid, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(long pid, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "oomlab ps: not killing %ld: ", pid);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return EXIT_ERROR;
}

/* The window must show no work on every GPU that lists pid: a process
 * that used the GPU or the CPU is never killed, whatever its flags and
 * whoever asks. 0, or the refusal's exit code. */
static int kill_quiet(const struct gpusnap *s, long pid)
{
    unsigned gpu;
    for (const struct gpusnap_proc *p = gpusnap_find(s, (unsigned)pid, &gpu); p;
         p = gpusnap_next(s, (unsigned)pid, p, &gpu)) {
        for (size_t k = 0; k < p->assess.n_flags; k++)
            if (!strcmp(p->assess.flags[k].name, "zombie"))
                return refuse(pid, "%s", p->assess.flags[k].evidence);
        if (p->assess.activity == STALE_BUSY)
            return refuse(pid, "it may be working: %s", p->assess.activity_evidence);
        if (p->assess.activity != STALE_QUIET)
            return refuse(pid,
                          "nothing shows it is idle: %s; if you are sure, use kill(1) yourself",
                          p->assess.activity_evidence);
    }
    return 0;
}

/* Every reason to refuse, in order; 0 when the kill may go ahead. */
static int kill_allowed(const struct gpusnap *s, const struct gpusnap_proc *p,
                        const struct ps_opts *o)
{
    long pid = o->kill_pid;
    if (!p) return refuse(pid, "it holds no memory on the GPU(s) looked at");
    if (!p->visible)
        return refuse(pid, "/proc cannot see it (another PID namespace): signal it from there");
    int rc = kill_quiet(s, pid);
    if (rc) return rc;
    if (!p->assess.stale && !o->force)
        return refuse(pid,
                      "it is not flagged stale (zombie, orphan or idle): %s; root may use --force",
                      p->assess.activity_evidence);
    if ((!p->info.uid_known || p->info.uid != getuid()) && !o->force)
        return refuse(pid, "it belongs to %s, not to you", p->info.user);
    if (o->yes) return 0;
    if (!isatty(STDIN_FILENO)) return refuse(pid, "no terminal to confirm on: pass --yes");
    char held[32], answer[16] = "";
    fprintf(stderr, "Kill %ld (%s, %.*s), holding %s of GPU memory? [y/N] ", pid, p->info.user,
            procstat_clip(p->info.cmdline, 200), p->info.cmdline,
            bytes(p->nv.used, held, sizeof held));
    if (!fgets(answer, sizeof answer, stdin) || (answer[0] != 'y' && answer[0] != 'Y'))
        return refuse(pid, "not confirmed");
    return 0;
}

/* Just before the signal (the answer may have taken minutes): the same
 * process, no CPU time gained since the window ended, its GPUs still at 0%. */
static int still_quiet(struct nvml *nv, const struct gpusnap *s, const struct gpusnap_proc *p,
                       long pid)
{
    double now = proc_cpu_s((pid_t)pid, p->info.start_ticks);
    if (now < 0) return refuse(pid, "it exited or its pid was reused meanwhile");
    if (p->cpu_end_s < 0 || now > p->cpu_end_s)
        return refuse(pid, "it used %.2fs of CPU time since it was watched: it is working",
                      p->cpu_end_s < 0 ? 0.0 : now - p->cpu_end_s);
    unsigned gpu;
    for (const struct gpusnap_proc *q = gpusnap_find(s, (unsigned)pid, &gpu); q;
         q = gpusnap_next(s, (unsigned)pid, q, &gpu)) {
        struct nvml_gpu g;
        if (nvml_gpu(nv, gpu, &g, NULL) < 0 || g.util_gpu < 0)
            return refuse(pid, "GPU %u's utilisation can no longer be read", gpu);
        if (g.util_gpu > 0)
            return refuse(pid, "GPU %u is no longer at 0%% utilisation (now %d%%)", gpu,
                          g.util_gpu);
    }
    return 0;
}

/* Gone, or a zombie (it has released its memory; its parent reaps it). */
static bool ended(pid_t pid, unsigned long long start)
{
    pid_t parent;
    unsigned long long now;
    if (kill(pid, 0) < 0 && errno == ESRCH) return true;
    if (proc_parent(pid, &parent, &now) < 0 || now != start) return true;
    struct proc_info pi;
    return proc_read(pid, &pi, NULL) == 0 && pi.state == 'Z';
}

static bool wait_end(pid_t pid, unsigned long long start, int64_t ms)
{
    struct timespec step = {0, 50 * 1000000L};
    for (int64_t waited = 0; waited <= ms; waited += 50) {
        if (ended(pid, start)) return true;
        nanosleep(&step, NULL);
    }
    return ended(pid, start);
}

/* Used on gpu after the kill, once NVML no longer lists pid (bounded). */
static int64_t used_after(struct nvml *nv, unsigned gpu, unsigned pid)
{
    struct nvml_gpu g = {.used = -1};
    struct timespec step = {0, 100 * 1000000L};
    for (int i = 0; i < 30; i++) {
        struct nvml_proc *list;
        size_t n;
        bool listed = false;
        if (nvml_procs(nv, gpu, &list, &n, NULL) == 0) {
            for (size_t k = 0; k < n; k++)
                listed |= list[k].pid == pid;
            free(list);
        }
        if (nvml_gpu(nv, gpu, &g, NULL) < 0) return -1;
        if (!listed) break;
        nanosleep(&step, NULL);
    }
    return g.used;
}

static int do_kill(struct nvml *nv, const struct gpusnap *s, const struct ps_opts *o)
{
    unsigned gpu = 0;
    const struct gpusnap_proc *p = gpusnap_find(s, (unsigned)o->kill_pid, &gpu);
    if (p && o->gpu >= 0 && gpu != (unsigned)o->gpu) /* every GPU was watched: see cmd_ps */
        while (p && gpu != (unsigned)o->gpu)
            p = gpusnap_next(s, (unsigned)o->kill_pid, p, &gpu);
    int rc = kill_allowed(s, p, o);
    if (rc == 0) rc = still_quiet(nv, s, p, o->kill_pid);
    if (rc) return rc;
    pid_t pid = (pid_t)o->kill_pid;
    unsigned long long start = p->info.start_ticks;
    int64_t before = s->gpus[0].gpu.used;
    for (size_t i = 0; i < s->n; i++)
        if (s->gpus[i].gpu.index == gpu) before = s->gpus[i].gpu.used;
    const char *how = "SIGTERM";
    if (kill(pid, SIGTERM) < 0) {
        fprintf(stderr, "oomlab ps: cannot signal %ld: %s\n", o->kill_pid, strerror(errno));
        return EXIT_ERROR;
    }
    if (!wait_end(pid, start, o->grace_ms)) {
        how = "SIGKILL";
        kill(pid, SIGKILL);
        if (!wait_end(pid, start, 5000)) {
            fprintf(stderr, "oomlab ps: %ld survived SIGKILL (stuck in the kernel, state D?)\n",
                    o->kill_pid);
            return EXIT_ERROR;
        }
    }
    int64_t after = used_after(nv, gpu, (unsigned)pid);
    char b[32], a[32], f[32];
    printf("killed %ld with %s; GPU %u used %s -> %s", o->kill_pid, how, gpu,
           bytes(before, b, sizeof b), bytes(after, a, sizeof a));
    if (before >= 0 && after >= 0)
        printf(": %s freed\n",
               units_format_bytes(before > after ? before - after : 0, f, sizeof f));
    else
        printf(": freed memory unknown\n");
    return EXIT_OK;
}

int cmd_ps(int argc, char **argv)
{
    struct ps_opts o;
    int rc = parse(argc, argv, &o);
    if (rc != CMD_CONTINUE) return rc;
    struct nvml *nv;
    struct oomlab_err err;
    if (nvml_open(&nv, &err) < 0) {
        if (o.json) json_no_nvml(&o, err.msg);
        fprintf(stderr,
                "oomlab ps: %s\noomlab ps: no NVML, so no GPU memory to show; "
                "try nvidia-smi to see whether the driver answers\n",
                err.msg);
        return EXIT_NO_NVML;
    }
    struct gpusnap s;
    /* a kill watches every GPU: work on one that --gpu left out is still work */
    struct gpusnap_opts so = {.gpu = o.kill_pid > 0 ? -1 : o.gpu,
                              .idle_after_s = (double)o.idle_after_ms / 1000.0,
                              .details = true,
                              .window_ms = o.window_ms,
                              .util_interval_ms = o.window_ms < 1000 ? o.window_ms / 5 : 200};
    if (gpusnap_take(nv, &so, &s, &err) < 0) {
        /* a usage error only where NVML counts its GPUs and --gpu is past
         * them; a count or read that fails is NVML's error (3), said in
         * --json's document too (review24) */
        unsigned count = 0;
        bool usage = so.gpu >= 0 && nvml_count(nv, &count, NULL) == 0 && (unsigned)so.gpu >= count;
        if (!usage && o.json) json_error_doc(&o, err.msg);
        nvml_close(nv);
        return cmd_fail("ps", &err, usage ? EXIT_USAGE : EXIT_ERROR);
    }
    if (s.n == 0 && o.gpu < 0 && o.kill_pid <= 0) {
        /* NVML answers but lists no GPU: as good as none (exit 4), not an
         * empty table that exits 0 */
        const char *why = "no GPU: NVML answers but lists none (nvidia-smi would say 'No devices were found')";
        if (o.json) json_error_doc(&o, why);
        fprintf(stderr, "oomlab ps: %s; no GPU memory to show\n", why);
        rc = EXIT_NO_NVML;
    } else if (o.kill_pid > 0 && nvml_gpu_missing(o.gpu, (unsigned)s.n, &err)) {
        rc = cmd_fail("ps", &err, EXIT_USAGE);
    } else if (o.kill_pid > 0) {
        rc = do_kill(nv, &s, &o);
    } else {
        rc = render(&s, &o) < 0 && !ferror(stdout) ? EXIT_ERROR : EXIT_OK; /* a failed stdout: main's to say */
        for (size_t i = 0; i < s.n; i++)
            if (!s.gpus[i].ok || !s.gpus[i].procs_ok) rc = EXIT_ERROR;
    }
    gpusnap_release(&s);
    nvml_close(nv);
    return rc;
}
