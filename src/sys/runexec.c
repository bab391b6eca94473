/* runexec: one supervised run. Claims the id (O_EXCL on logs/ID.log, so
 * concurrent runs never share one), records the config, starts the child
 * (sys/child), samples NVML from its poll loop (sys/memlog), then reads the
 * log back in one pass (sys/logscan: the diagnose engine, each line also to
 * the step parser) and appends the ledger row (lib/ledger) with one locked
 * write (sys/fsutil). */
#include "sys/runexec.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/argsubst.h"
#include "lib/ledger.h"
#include "lib/msg.h"
#include "lib/plan.h"
#include "lib/rankstats.h"
#include "lib/verdict.h"
#include "lib/steps.h"
#include "lib/units.h"
#include "sys/cfgfile.h"
#include "sys/child.h"
#include "sys/fsutil.h"
#include "sys/logidx_file.h"
#include "sys/hostoom.h"
#include "sys/ledgerfile.h"
#include "sys/logscan.h"
#include "sys/memlog.h"
#include "sys/nvml.h"

extern char **environ;

#define GIB (1024.0 * 1024.0 * 1024.0)

struct paths {
    char dir[PATH_MAX], configs[PATH_MAX], logs[PATH_MAX], ledger[PATH_MAX];
    char config[PATH_MAX], log[PATH_MAX], mem[PATH_MAX];
};

/* The command a notice names: guard runs the engine too. */
static const char *who(const struct runexec_opts *o)
{
    return o->who ? o->who : "run";
}

static void result_init(struct runexec_result *res)
{
    memset(res, 0, sizeof *res);
    res->oom_stage = OOM_STAGE_UNKNOWN;
    res->capacity = res->peak_alloc = res->peak_reserved = res->peak_nvml = -1;
    res->device_peak = res->device_start = -1;
    res->oom_alloc = res->oom_reserved = res->oom_in_use = -1;
    res->worst_rank = res->first_oom_rank = -1;
    res->worst_rank_from = "";
    res->host_oom_kills = -1;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* configs/ID.yaml is the job's (one for all its ranks); the log and the
 * memory CSV are the rank's own (lib/ledger's stem: ID_rankN). */
static int set_id_paths(struct paths *p, const char *id, const struct launcher_info *rank,
                        struct runexec_result *res, struct oomlab_err *err)
{
    char name[NAME_MAX];
    if (ledger_stem(res->stem, sizeof res->stem, id, rank ? rank->rank : -1, rank ? rank->restart : 0) < 0)
        return oomlab_err_set(err, "run id '%s' is too long for a rank's file names", id);
    snprintf(name, sizeof name, "%s.yaml", id);
    if (fsutil_join(p->config, sizeof p->config, p->configs, name, err) < 0) return -1;
    snprintf(name, sizeof name, "%s.log", res->stem);
    if (fsutil_join(p->log, sizeof p->log, p->logs, name, err) < 0) return -1;
    snprintf(name, sizeof name, "%s_mem.csv", res->stem);
    return fsutil_join(p->mem, sizeof p->mem, p->logs, name, err);
}

static int make_dirs(struct paths *p, const char *dir, struct oomlab_err *err)
{
    snprintf(p->dir, sizeof p->dir, "%s", dir && *dir ? dir : ".");
    if (fsutil_join(p->configs, sizeof p->configs, p->dir, "configs", err) < 0 ||
        fsutil_join(p->logs, sizeof p->logs, p->dir, "logs", err) < 0 ||
        fsutil_join(p->ledger, sizeof p->ledger, p->dir, "runs.csv", err) < 0)
        return -1;
    if (fsutil_mkdir_p(p->configs, err) < 0 || fsutil_mkdir_p(p->logs, err) < 0) return -1;
    return 0;
}

/* What the id check needs of the ledger, gathered row by row as
 * ledgerfile_each reads it (any size, 1 MiB of memory): the largest runNNN,
 * and for the id asked for its latest run (ledger_keep_latest's choice:
 * the newest start, ties to the later row; a row without a start keeps
 * its neighbour's place): that run's job and whether it had ranks. */
struct id_scan {
    const char *id;  /* NULL: only the number */
    long max_number;
    bool found;      /* a row holds id */
    bool ranked;     /* its latest run: a row with rank or ranks */
    char job[128], group[256], start[64], prev_start[64];
};

/* run_group's key: the job, else the start, host and pid of its oomlab. */
static void row_group(const struct ledger_row *r, char *buf, size_t size)
{
    if (*r->cell[LEDGER_JOB_ID]) snprintf(buf, size, "j%s", r->cell[LEDGER_JOB_ID]);
    else snprintf(buf, size, "o%s\x1f%s\x1f%s", r->cell[LEDGER_STARTED_AT], r->cell[LEDGER_HOST],
                  r->cell[LEDGER_OOMLAB_PID]);
}

static int id_scan_row(const struct ledger_row *row, void *ctx, struct oomlab_err *err)
{
    struct id_scan *sc = ctx;
    const char *id = row->cell[LEDGER_RUN_ID], *start = row->cell[LEDGER_STARTED_AT];
    if (*start) snprintf(sc->prev_start, sizeof sc->prev_start, "%s", start);
    else start = sc->prev_start;
    if (!strncmp(id, "run", 3) && isdigit((unsigned char)id[3])) {
        char *end;
        long v = strtol(id + 3, &end, 10);
        if (*end == '\0' && v > sc->max_number && v < 100000000) sc->max_number = v;
    }
    if (!sc->id || strcmp(id, sc->id)) return 0;
    char group[sizeof sc->group];
    row_group(row, group, sizeof group);
    bool ranked = *row->cell[LEDGER_RANKS] || *row->cell[LEDGER_RANK];
    if (sc->found && !strcmp(group, sc->group)) {
        sc->ranked = sc->ranked || ranked;
    } else if (!sc->found || strcmp(start, sc->start) >= 0) { /* a newer run of the id */
        snprintf(sc->group, sizeof sc->group, "%s", group);
        snprintf(sc->job, sizeof sc->job, "%s", row->cell[LEDGER_JOB_ID]);
        snprintf(sc->start, sizeof sc->start, "%s", start);
        sc->ranked = ranked;
    }
    sc->found = true;
    return 0;
}

/* The columns id_scan_row reads: only they are stored as the ledger streams by. */
static const enum ledger_col id_scan_cols[] = {LEDGER_RUN_ID, LEDGER_STARTED_AT, LEDGER_JOB_ID, LEDGER_HOST,
                                               LEDGER_OOMLAB_PID, LEDGER_RANKS, LEDGER_RANK};

/* runs.csv and the shards (sys/ledgerfile), read in pieces. */
static int scan_ledger(const struct runexec_opts *o, const struct paths *p, struct id_scan *sc,
                       struct oomlab_err *err)
{
    char skipped[PATH_MAX + 100];
    bool missing;
    struct oomlab_err big = {{0}};
    memset(sc, 0, sizeof *sc);
    sc->id = o->id;
    if (ledgerfile_size_check(p->ledger, &big) < 0 && !o->silent) /* it still appends and numbers on */
        fprintf(stderr, "oomlab %s: note: %s; the run goes on and appends its row (table, compare and "
                        "report refuse a ledger this size)\n", who(o), big.msg);
    if (ledgerfile_each(p->dir, id_scan_cols, sizeof id_scan_cols / sizeof *id_scan_cols, id_scan_row, sc,
                        &missing, skipped, sizeof skipped, err) < 0) {
        if (!missing) return -1;
        memset(sc, 0, sizeof *sc);
        sc->id = o->id;
    }
    if (skipped[0] && !o->silent) fprintf(stderr, "oomlab %s: note: %s\n", who(o), skipped);
    return 0;
}

/* A rank may share its id with the other ranks of its job, never with
 * another job's rows or with a run that had no ranks. */
static const char *rank_clash(const struct runexec_opts *o, const struct id_scan *sc, const struct paths *p,
                              char *why, size_t size)
{
    char plain[PATH_MAX + 8];
    snprintf(plain, sizeof plain, "%s/%s.log", p->logs, o->id);
    if (exists(plain)) return snprintf(why, size, "%s", plain), why;
    if (!sc->found) return NULL;
    if (!sc->ranked) return snprintf(why, size, "%s: a run without ranks", p->ledger), why;
    if (strcmp(sc->job, o->rank->job_id))
        return snprintf(why, size, "%s: job %s, this is %s", p->ledger, *sc->job ? sc->job : "(none)",
                        *o->rank->job_id ? o->rank->job_id : "a job without an id"),
               why;
    return NULL;
}

/* "runNNN" numbers already used by files in a directory. */
static long max_number_in(const char *dir)
{
    long best = 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, "run", 3)) continue;
        char *end;
        long v = strtol(e->d_name + 3, &end, 10);
        if (end != e->d_name + 3 && (*end == '.' || *end == '_') && v > best && v < 100000000)
            best = v;
    }
    closedir(d);
    return best;
}

/* Never through a symlink or into a FIFO (fsutil_open_write); errno kept
 * (EEXIST: another run has the id), err says why in words. */
static int open_log(const char *path, bool force, struct oomlab_err *err)
{
    return fsutil_open_write(path, O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL), 0666, err);
}

/* Claim an id: the log file created with O_EXCL is the lock. */
static int claim_id(const struct runexec_opts *o, struct paths *p, struct runexec_result *res,
                    int *log_fd, struct oomlab_err *err)
{
    struct id_scan sc;
    if (scan_ledger(o, p, &sc, err) < 0) return -1;
    if (o->id) {
        if (ledger_id_check_new(o->id, err) < 0) return -1;
        snprintf(res->id, sizeof res->id, "%s", o->id);
        if (set_id_paths(p, o->id, o->rank, res, err) < 0) return -1;
        char why[PATH_MAX + 512];
        const char *clash = o->rank                 ? rank_clash(o, &sc, p, why, sizeof why)
                            : sc.found              ? p->ledger
                            : exists(p->log)        ? p->log
                            : exists(p->config)     ? p->config
                            : exists(p->mem)        ? p->mem
                                                    : NULL;
        if (clash && !o->force) {
            res->id_taken = true;
            oomlab_err_set(err, "run id '%s' is taken (%s); choose another id or pass --force",
                           o->id, clash);
            return -1;
        }
        *log_fd = open_log(p->log, o->force, err);
        if (*log_fd < 0) {
            if (errno == EEXIST && o->rank)
                oomlab_err_set(err, "cannot create %s: it exists (rank %ld of this job started twice?); "
                                    "pass --force to replace it", p->log, o->rank->rank);
            else if (errno == EEXIST)
                oomlab_err_set(err, "cannot create %s: it exists (another run took this id)", p->log);
            return -1;
        }
        return 0;
    }
    long n = sc.max_number;
    long m = max_number_in(p->logs);
    if (m > n) n = m;
    m = max_number_in(p->configs);
    if (m > n) n = m;
    for (int tries = 0; tries < 10000; tries++) {
        snprintf(res->id, sizeof res->id, "run%03ld", n + 1 + tries);
        if (set_id_paths(p, res->id, NULL, res, err) < 0) return -1;
        if (exists(p->config) || exists(p->mem)) continue;
        *log_fd = open_log(p->log, false, err);
        if (*log_fd >= 0) return 0;
        if (errno != EEXIST) return -1;
    }
    return oomlab_err_set(err, "no free run id after run%03ld", n);
}

/* ---- configs/ID.yaml ---- */

static int append(char **buf, size_t *len, const char *s, size_t n)
{
    char *b = realloc(*buf, *len + n + 1);
    if (!b) return -1;
    memcpy(b + *len, s, n);
    *len += n;
    b[*len] = '\0';
    *buf = b;
    return 0;
}

static int appends(char **buf, size_t *len, const char *s)
{
    return append(buf, len, s, strlen(s));
}

/* configs/ID.yaml: the caller's text (run: the --config verbatim, or in
 * its own schema with --set applied, lib/runcfg_render), else the parsed
 * fields as YAML. */
static int write_config_once(const struct runexec_opts *o, struct paths *p, const char *text, size_t len,
                             struct oomlab_err *err);

static int write_config(const struct runexec_opts *o, struct paths *p, struct oomlab_err *err)
{
    if (!o->config_text && !o->cfg) return 0;
    char *own = o->config_text ? NULL : runcfg_to_yaml(o->cfg);
    const char *text = o->config_text ? o->config_text : own;
    if (!text) return oomlab_err_set(err, "out of memory");
    size_t len = o->config_text ? o->config_len : strlen(text);
    int rc = o->rank && !o->force ? write_config_once(o, p, text, len, err)
                                  : fsutil_write_atomic(p->config, text, len, err);
    free(own);
    return rc;
}

/* The ranks of a job race to write configs/ID.yaml: the first one's link(2)
 * puts it in place whole; the others find it there. A rank whose config
 * differs gets configs/ID_rankN.yaml, and its {config} is that file. */
static int write_config_once(const struct runexec_opts *o, struct paths *p, const char *text, size_t len,
                             struct oomlab_err *err)
{
    char tmp[PATH_MAX + 32], *have = NULL;
    size_t have_len = 0;
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", p->config, (long)getpid());
    if (fsutil_write_atomic(tmp, text, len, err) < 0) return -1;
    int rc = link(tmp, p->config), e = errno;
    unlink(tmp);
    if (rc == 0) return 0;
    if (e != EEXIST) return oomlab_err_set(err, "cannot create %s: %s", p->config, strerror(e));
    if (fsutil_read(p->config, CFGFILE_MAX, &have, &have_len, NULL, NULL) == 0 && have_len == len &&
        !memcmp(have, text, len)) {
        free(have);
        return 0;
    }
    free(have);
    char name[NAME_MAX];
    snprintf(name, sizeof name, "%.200s_rank%ld.yaml", o->id, o->rank->rank);
    if (fsutil_join(p->config, sizeof p->config, p->configs, name, err) < 0) return -1;
    if (!o->silent) fprintf(stderr, "oomlab %s: rank %ld: config differs from the job's: %s\n", who(o), o->rank->rank, p->config);
    return fsutil_write_atomic(p->config, text, len, err);
}

/* The command with {config} (this run's configs/ID.yaml) and the caller's
 * {KEY}s filled in (lib/argsubst); NULL on no memory. */
static char **command_argv(const struct runexec_opts *o, const struct paths *p)
{
    size_t argc = 0, n = 0;
    while (o->argv[argc]) argc++;
    const char *keys[RUNCFG_MAX_SETS + 1], *vals[RUNCFG_MAX_SETS + 1];
    if (o->subst_config) keys[n] = "config", vals[n++] = p->config;
    for (size_t i = 0; i < o->n_subst && n < RUNCFG_MAX_SETS + 1; i++)
        keys[n] = o->subst_keys[i], vals[n++] = o->subst_vals[i];
    return argsubst_argv(o->argv, argc, keys, vals, n);
}

/* ---- sampling ---- */

struct sampler {
    struct nvml *nv;
    struct memlog *ml;
    bool failed;
    char problem[640];
    /* the live view (opts->live): the latest sample, and its wish to stop */
    const struct runexec_opts *o;
    struct runexec_live lv;
    struct memlog_peak last[64];
    bool stop;
    struct memlog_rank_peak *rank_peaks; /* NVML's per-rank figures, kept at close */
    size_t n_rank_peaks;
    bool nvml_said;                      /* memlog's first NVML failure was said */
};

/* ---- the live view (issue 16): after each tick, and once at the end ---- */

static void live_setup(struct sampler *s, const struct runexec_opts *o, const struct paths *p,
                       const char *id)
{
    s->o = o;
    s->lv = (struct runexec_live){.id = id, .dir = p->dir, .log_path = p->log, .gpus = s->last};
}

static void live_tick(struct sampler *s)
{
    if (s->ml) s->lv.n_gpus = memlog_peaks(s->ml, s->last, 64);
    if (s->o && s->o->live && s->o->live(&s->lv, s->o->live_ctx)) s->stop = true;
}

static bool live_stop(void *ctx)
{
    return ((struct sampler *)ctx)->stop;
}

static void live_final(struct sampler *s, const struct runexec_result *res)
{
    s->lv.res = res;
    if (s->o && s->o->live) s->o->live(&s->lv, s->o->live_ctx);
}

static void notice(const struct runexec_opts *o, const char *what, const char *why)
{
    if (!o->silent) fprintf(stderr, "oomlab %s: %s: %s\n", who(o), what, why);
}

static void sampler_tick(void *ctx)
{
    struct sampler *s = ctx;
    struct oomlab_err e = {{0}};
    if (s->ml && !s->failed && memlog_tick(s->ml, &e) < 0) {
        s->failed = true;
        snprintf(s->problem, sizeof s->problem, "memory sampling stopped: %s", e.msg);
    }
    /* A GPU NVML cannot read (lost, no permission) leaves empty cells: said
     * at the first tick that meets it, not left to a summary that blames
     * the sampling interval. */
    const char *nvml_failure = s->ml ? memlog_warning(s->ml) : NULL;
    if (nvml_failure && !s->nvml_said && s->o) {
        s->nvml_said = true;
        notice(s->o, "warning: GPU memory sampling", nvml_failure);
    }
    live_tick(s);
}

/* --gpu (or the launcher's local rank) naming a GPU NVML does not have would
 * give a CSV of empty rows and a summary blaming the interval: say so. */
static bool gpu_missing(struct nvml *nv, int gpu, struct oomlab_err *e)
{
    unsigned count = 0;
    return gpu >= 0 && nvml_count(nv, &count, NULL) == 0 && nvml_gpu_missing(gpu, count, e);
}

static void sampler_open(struct sampler *s, const struct runexec_opts *o, const struct paths *p,
                         pid_t pid, const char *command)
{
    struct oomlab_err e = {{0}};
    unsigned gpu = o->gpu >= 0 ? (unsigned)o->gpu : 0;
    memset(s, 0, sizeof *s);
    if (nvml_open(&s->nv, &e) < 0 || gpu_missing(s->nv, o->gpu, &e) ||
        memlog_open(&s->ml, s->nv, p->mem, &gpu, o->gpu >= 0 ? 1 : 0, pid, command, &e) < 0) {
        if (s->nv) nvml_close(s->nv);
        s->nv = NULL;
        s->ml = NULL;
        notice(o, "GPU memory not sampled", e.msg);
        char text[600];
        int n = snprintf(text, sizeof text, "# GPU memory not sampled: %s\n", e.msg);
        fsutil_write_atomic(p->mem, text, n > 0 && (size_t)n < sizeof text ? (size_t)n : 0, NULL);
    }
}

static void sampler_close(struct sampler *s, const struct runexec_opts *o,
                          struct runexec_result *res)
{
    if (!s->ml) return;
    struct memlog_peak peaks[64];
    size_t n = memlog_peaks(s->ml, peaks, 64);
    int64_t best_tree = -1, best_used = -1, cap_tree = -1, cap_used = -1, start_used = -1;
    bool tree_unknown = false;
    for (size_t i = 0; i < n; i++) {
        res->sampled |= peaks[i].used_peak >= 0 || peaks[i].tree_peak >= 0; /* a figure, not just a row */
        tree_unknown |= peaks[i].tree_unknown > 0;
        if (peaks[i].tree_peak > best_tree) best_tree = peaks[i].tree_peak, cap_tree = peaks[i].total;
        if (peaks[i].used_peak > best_used)
            best_used = peaks[i].used_peak, cap_used = peaks[i].total, start_used = peaks[i].used_first;
    }
    /* The device-wide figure holds every process on the GPU (another
     * tenant's, the driver's): it is never the run's peak. A tree that NVML
     * never showed holding memory while some samples could not see it at
     * all (a container's pids; no permission for the list) is unknown, not
     * 0: the run's own NVML peak stays unknown, the device's beside it. */
    res->nvml_device_only = best_used >= 0 && best_tree <= 0 && (best_tree < 0 || tree_unknown);
    res->peak_nvml = res->nvml_device_only ? -1 : best_tree;
    res->device_peak = best_used;
    res->device_start = start_used;
    res->capacity = best_tree >= 0 && !res->nvml_device_only ? cap_tree : cap_used;
    if (!o->rank && (s->rank_peaks = malloc(MEMLOG_RANKS * sizeof *s->rank_peaks)))
        s->n_rank_peaks = memlog_rank_peaks(s->ml, s->rank_peaks, MEMLOG_RANKS);
    struct oomlab_err e = {{0}};
    if (memlog_close(s->ml, &e) < 0 && !s->failed) {
        s->failed = true;
        snprintf(s->problem, sizeof s->problem, "memory CSV incomplete: %s", e.msg);
    }
    s->ml = NULL;
    nvml_close(s->nv);
    s->nv = NULL;
    if (s->failed) notice(o, "warning", s->problem);
}

/* ---- reading the log back ---- */

/* A run wrapping a launcher (oomlab run -- torchrun ...): each rank's
 * figures per attempt (lib/rankstats), and its lines copied to its own
 * logs/ID_rankN.log (ID_rankN_restartK.log after K restarts), the names
 * `srun oomlab run` gives a rank's log. At most SPLIT_MAX_FILES of them. */
#define SPLIT_MAX_FILES 512

struct split {
    const char *logs, *id;  /* NULL id: no split (this oomlab is a rank itself) */
    FILE *f[SPLIT_MAX_FILES];
    bool tried[SPLIT_MAX_FILES];
    size_t n_open;          /* rank logs written */
    char problem[200];      /* the first failure ("" none) */
};

struct scan_ctx {
    struct steps_series *series;
    struct rankstats *rs;
    struct split *split;
};

static void split_problem(struct split *sp, const char *what, const char *why)
{
    if (!sp->problem[0]) snprintf(sp->problem, sizeof sp->problem, "rank logs incomplete: %.80s: %.90s", what, why);
}

static void split_line(struct split *sp, const struct rankstats_rank *r, long e, const char *line, size_t len)
{
    if (!sp->id) return;
    if (e >= SPLIT_MAX_FILES) {
        split_problem(sp, "more rank attempts than", "512");
        return;
    }
    if (!sp->tried[e]) {
        char stem[160], name[200], path[PATH_MAX];
        struct oomlab_err err = {{0}};
        sp->tried[e] = true;
        if (ledger_stem(stem, sizeof stem, sp->id, r->rank, r->attempt) < 0) return;
        snprintf(name, sizeof name, "%s.log", stem);
        int fd = fsutil_join(path, sizeof path, sp->logs, name, &err) < 0
                     ? -1 : fsutil_open_write(path, O_WRONLY | O_CREAT | O_TRUNC, 0666, &err);
        if (fd >= 0 && !(sp->f[e] = fdopen(fd, "w"))) close(fd);
        sp->n_open += sp->f[e] != NULL;
        if (!sp->f[e]) split_problem(sp, name, err.msg[0] ? err.msg : strerror(errno));
    }
    if (sp->f[e] && (fwrite(line, 1, len, sp->f[e]) != len || putc('\n', sp->f[e]) == EOF))
        split_problem(sp, "write", strerror(errno));
}

/* Close the rank logs; remove them when the log had fewer than two ranks
 * (a "rank=0" prefix in a plain run's log is not a job). */
static void split_close(struct split *sp, const struct rankstats *rs)
{
    for (size_t e = 0; e < SPLIT_MAX_FILES && sp->id; e++) {
        if (!sp->tried[e]) continue;
        if (sp->f[e] && fclose(sp->f[e]) != 0) split_problem(sp, "close", strerror(errno));
        sp->f[e] = NULL;
        char stem[160], name[200], path[PATH_MAX];
        if (rs->ranks < 2 && (size_t)e < rs->n &&
            ledger_stem(stem, sizeof stem, sp->id, rs->r[e].rank, rs->r[e].attempt) == 0 &&
            snprintf(name, sizeof name, "%s.log", stem) > 0 && fsutil_join(path, sizeof path, sp->logs, name, NULL) == 0)
            unlink(path);
    }
    if (rs->ranks < 2) sp->problem[0] = '\0', sp->n_open = 0;
}

/* "rank3.log", "rank3_restart1.log": the tail of a rank log's name after
 * "ID_" (lib/ledger's stem). */
static bool rank_log_tail(const char *t)
{
    if (strncmp(t, "rank", 4)) return false;
    const char *p = t + 4, *q;
    for (q = p; *q >= '0' && *q <= '9'; q++) {}
    if (q == p) return false;
    if (!strncmp(q, "_restart", 8)) {
        for (p = q += 8; *q >= '0' && *q <= '9'; q++) {}
        if (q == p) return false;
    }
    return !strcmp(q, ".log");
}

/* --force on a wrapped launcher's id: the older run's rank logs go (a
 * rank the new run does not have would otherwise stay beside its files). */
static void unlink_rank_logs(const char *logs, const char *id)
{
    DIR *d = opendir(logs);
    size_t n = strlen(id);
    char path[PATH_MAX];
    for (struct dirent *e; d && (e = readdir(d));)
        if (!strncmp(e->d_name, id, n) && e->d_name[n] == '_' && rank_log_tail(e->d_name + n + 1) &&
            fsutil_join(path, sizeof path, logs, e->d_name, NULL) == 0)
            unlink(path);
    if (d) closedir(d);
}

/* rankstats' lines of a rank, in order, once their rank is decided. */
static void split_rank_line(const char *line, size_t len, long e, void *ctx)
{
    struct scan_ctx *sc = ctx;
    split_line(sc->split, &sc->rs->r[e], e, line, len);
}

/* Each line of the log pass goes to the step parser and the rank figures. */
static int steps_line(const char *line, size_t len, void *ctx)
{
    struct scan_ctx *sc = ctx;
    struct steps_point pt;
    bool step = steps_parse_line(line, len, &pt);
    int restarts = sc->rs->elastic.restarts;
    rankstats_line(sc->rs, line, len, step ? &pt : NULL); /* its rank's lines reach split_rank_line */
    if (sc->rs->elastic.restarts != restarts) { /* a new attempt: the row is the last one's */
        steps_series_release(sc->series);
        steps_series_init(sc->series);
    }
    if (!step) return 0;
    return steps_series_add(sc->series, &pt) < 0 ? -1 : 0; /* out of memory: keep what we have */
}

/* After torchelastic restarted its workers: each attempt's first rank to
 * run out of GPU memory (the first 8 attempts named), so the row says which
 * attempt OOMed and the rank rows keep the attempts apart. */
static void attempts_note(const struct rankstats *rs, struct runexec_result *res)
{
    char *b = res->attempts_note;
    size_t size = sizeof res->attempts_note, at = 0;
    b[0] = '\0';
    if (res->attempts < 2 || rs->ranks < 2) return;
    int n = snprintf(b, size, "torchelastic restarted the workers %d time%s (this row: attempt %d)",
                     res->attempts - 1, res->attempts == 2 ? "" : "s", res->attempts - 1);
    for (int a = 0; a < res->attempts && a < 8 && n > 0 && (at = (size_t)n) < size; a++) {
        const struct rankstats_rank *first = NULL;
        for (size_t i = 0; i < rs->n; i++)
            if (rs->r[i].attempt == a && rs->r[i].oom && (!first || rs->r[i].oom_line < first->oom_line))
                first = &rs->r[i];
        res->oom_earlier |= first && a < res->attempts - 1;
        if (first) n += snprintf(b + at, size - at, "; attempt %d: GPU OOM, rank %d first", a, first->rank);
        else n += snprintf(b + at, size - at, "; attempt %d: no GPU OOM", a);
    }
}

/* A rank's peak by the run's own rule (lib/ledger): its step lines, else
 * NVML's figure for its processes, never below its OOM message's. */
static int64_t rank_peak(const struct rankstats_rank *r, struct ledger_peak_out *out)
{
    struct ledger_peak_in in = {r->peak_alloc, r->peak_reserved, r->nvml_peak, r->oom_alloc, r->oom_reserved, -1};
    ledger_choose_peak(&in, out);
    return out->reserved >= 0 ? out->reserved : out->alloc;
}

/* Which rank was worst in the last attempt: the highest peak (ties: the
 * lowest rank), else the first rank to hit a GPU OOM. */
static void ranks_summarise(const struct rankstats *rs, struct runexec_result *res)
{
    int64_t best = -1;
    int last = rankstats_attempts(rs) - 1;
    for (size_t i = 0; i < rs->n; i++) {
        struct ledger_peak_out out;
        int64_t peak = rank_peak(&rs->r[i], &out);
        if (rs->r[i].attempt != last || peak < 0) continue;
        if (peak > best || (peak == best && rs->r[i].rank < res->worst_rank)) /* ties: the lowest */
            best = peak, res->worst_rank = rs->r[i].rank,
            res->worst_rank_from = !strcmp(out.source, "nvml") ? "nvml" : "log";
    }
    res->ranks_seen = rs->ranks;
    res->attempts = rankstats_attempts(rs);
    if (res->worst_rank < 0 && res->first_oom_rank >= 0)
        res->worst_rank = res->first_oom_rank, res->worst_rank_from = "OOM message";
    if (res->ranks_seen < 2) res->worst_rank = -1, res->worst_rank_from = "", res->ranks_seen = 0;
    attempts_note(rs, res);
}

static void steps_summarise(const struct steps_series *series, struct runexec_result *res)
{
    res->peak_alloc = steps_max_peak_alloc(series);
    res->peak_reserved = steps_max_peak_reserved(series);
    snprintf(res->loss_trend, sizeof res->loss_trend, "%s",
             steps_trend_name(steps_loss_trend(series), false)); /* no points: too-few */
    steps_memory_trend_of(series, &res->mem);
}

/* PyTorch's counters at the failure ("X is allocated by PyTorch, and Y is
 * reserved by PyTorch but unallocated"): the peak of a run that died before
 * logging one, a lower bound of what it wanted. */
static void oom_peaks(const struct oom_bytes *b, struct runexec_result *res)
{
    int64_t reserved = b->reserved;
    if (reserved < 0 && b->allocated >= 0 && b->reserved_unallocated >= 0 &&
        !units_add(b->allocated, b->reserved_unallocated, &reserved))
        reserved = -1;
    res->oom_alloc = b->allocated;
    res->oom_reserved = reserved;
    res->oom_in_use = b->process_in_use;
}

/* The diagnose engine's first fix for this OOM, for the run summary: with
 * the log's per-step memory trend (res->mem), as `oomlab diagnose ID` plans,
 * so a clear growth puts the leak hunt first here too. */
static void first_fix(const struct oom_report *rep, const struct runcfg *cfg,
                      struct runexec_result *res)
{
    struct verdicts v;
    struct plan plan;
    verdict_compute(rep, &v);
    plan_build_trend(rep, &v, cfg, &res->mem, &plan);
    if (plan.n) snprintf(res->first_fix, sizeof res->first_fix, "%s", plan.items[0].action);
}

static void oom_summarise(const struct oom_report *rep, struct runexec_result *res)
{
    const struct oom_event *first_gpu = NULL, *other = NULL;
    for (size_t i = 0; i < rep->n_events; i++) {
        if (rep->events[i].gpu_oom && !first_gpu) first_gpu = &rep->events[i];
        /* a log's final error named by diagnose (other-error) is no diagnosed
         * failure of the run: its exit status (a signal, a code) says more */
        if (!rep->events[i].gpu_oom && !other && strcmp(rep->events[i].kind, "other-error"))
            other = &rep->events[i];
    }
    if (rep->primary >= 0 && (size_t)rep->primary < rep->n_events) {
        const struct oom_event *p = &rep->events[rep->primary];
        if (p->gpu_oom) first_gpu = p;
        else if (strcmp(p->kind, "other-error")) other = p;
    }
    const struct oom_event *ev = first_gpu ? first_gpu : other;
    if (ev) {
        res->oom = first_gpu != NULL;
        res->failure_other = !first_gpu;
        snprintf(res->oom_kind, sizeof res->oom_kind, "%s", ev->kind ? ev->kind : "");
        if (first_gpu) {
            res->oom_stage = ev->stage;
            oom_peaks(&ev->bytes, res);
        }
        if (res->capacity < 0 && ev->bytes.capacity > 0) res->capacity = ev->bytes.capacity;
    }
}

/* One pass over the finished log: the diagnose engine's OOM report and,
 * from the same window, every line to the step parser. An unreadable log
 * leaves the OOM fields unknown; its lines read before the error still count. */
/* After torchelastic restarted its workers, the row is the last attempt's
 * (the earlier attempts are named in its notes and have rank rows of their
 * own): a view of the report's events after the last restart line. */
static void last_attempt(const struct rankstats *rs, const struct oom_report *rep, struct oom_report *last)
{
    *last = *rep;
    int restarts = rs->elastic.restarts;
    if (restarts < 1 || restarts > ELASTIC_MAX_RESTARTS) return; /* more than kept: all of them */
    long after = rs->elastic.restart_line[restarts - 1];
    size_t k = 0;
    while (k < rep->n_events && rep->events[k].line <= after) k++;
    last->events = rep->events + k;
    last->n_events = rep->n_events - k;
    last->primary = rep->primary >= (long)k ? rep->primary - (long)k : -1;
}

/* Does the run name srun (msg_names_srun), so that a bare "3: " before a
 * line is srun --label's task and a rank: its command, or the log read ahead
 * (srun's own "srun: error: ..." may come last, after the labelled lines it
 * decides), as diagnose's scan reads the whole log first. (left23)
 * *settled: the answer holds for every line (the log was read to its end,
 * or srun was found). */
static bool run_names_srun(char *const *argv, const char *log, bool *settled)
{
    *settled = false;
    for (size_t i = 0; argv && argv[i]; i++)
        if (msg_names_srun(argv[i], strlen(argv[i]))) return *settled = true;
    FILE *f = log ? fopen(log, "rb") : NULL;
    if (!f) return false;
    static char buf[(1u << 16) + 16];
    size_t keep = 0, n;
    bool named = false, carried = false;
    do {
        n = fread(buf + keep, 1, sizeof buf - keep, f);
        size_t have = keep + n;
        /* the last bytes again at the next read's start: a word across
         * the cut is decided there, with the bytes after it (left25) */
        bool last = n == 0 || feof(f) || ferror(f);
        keep = msg_names_srun_chunk(buf, have, carried, last, &named);
        memmove(buf, buf + have - keep, keep);
        carried = carried || have > keep; /* the kept bytes' first is the text's start no more */
    } while (!named && n > 0);
    *settled = named || !ferror(f); /* read to its end: no line of it names srun */
    fclose(f);
    return named;
}

static void scan_log(const char *path, const struct runcfg *cfg, struct rankstats *rs, struct split *sp,
                     struct runexec_result *res)
{
    struct oom_report rep;
    struct oomlab_err e = {{0}};
    struct steps_series series;
    steps_series_init(&series);
    struct scan_ctx sc = {.series = &series, .rs = rs, .split = sp};
    rs->fn = split_rank_line;
    rs->fn_ctx = &sc;
    int rc = logscan_path_lines(path, &rep, steps_line, &sc, &e);
    rankstats_flush(rs); /* the lines still held, to their rank logs */
    rs->fn = NULL;
    steps_summarise(&series, res); /* before first_fix: its plan reads the trend */
    if (rc == 0) {
        struct oom_report last;
        rankstats_finish(rs, &rep);
        last_attempt(rs, &rep, &last);
        oom_summarise(&last, res);
        if (res->oom) first_fix(&last, cfg, res);
        for (size_t i = 0; i < last.n_events && res->first_oom_rank < 0; i++)
            if (last.events[i].gpu_oom && last.events[i].rank >= 0) res->first_oom_rank = last.events[i].rank;
        oom_report_release(&rep);
    }
    split_close(sp, rs);
    steps_series_release(&series);
}

/* --torch: the hook's per-step peaks replace the log's step lines (they are
 * the allocator's own, at every optimizer step, over every rank). */
static void read_torch(const struct torchhook *th, struct runexec_result *res)
{
    if (th->mode == TORCHHOOK_OFF) return;
    struct torchsteps ts;
    struct oomlab_err e = {{0}};
    res->torch_oom_files = torchhook_oom_files(th);
    res->torch_errors = torchhook_had_errors(th);
    if (torchhook_read(th, &ts, &e) < 0) return;
    res->torch_steps = ts.series.n;
    res->torch_ranks = ts.ranks;
    res->torch_worst_rank = ts.worst_rank;
    if (ts.ranks > 1 && ts.worst_rank >= 0) {
        res->worst_rank = ts.worst_rank;
        res->worst_rank_from = "torch hook";
        if (ts.ranks > res->ranks_seen) res->ranks_seen = ts.ranks;
    }
    if (ts.peak_reserved >= 0 || ts.peak_alloc >= 0) {
        res->peak_alloc = ts.peak_alloc;
        res->peak_reserved = ts.peak_reserved;
        steps_memory_trend_of(&ts.series, &res->mem);
        res->peaks_from_torch = true;
    }
    torchsteps_release(&ts);
}

/* The rule is lib/ledger's: a figure below the OOM message's never wins. */
static void choose_peak(struct runexec_result *res)
{
    struct ledger_peak_in in = {res->peak_alloc, res->peak_reserved, res->sampled ? res->peak_nvml : -1,
                                res->oom_alloc, res->oom_reserved, res->oom_in_use};
    struct ledger_peak_out out;
    ledger_choose_peak(&in, &out);
    snprintf(res->peak_source, sizeof res->peak_source, "%s",
             res->peaks_from_torch && !strcmp(out.source, "log") ? "torch" : out.source);
    res->peak_lower_bound = out.lower_bound;
    if (strcmp(out.source, "nvml")) { /* nvml keeps its own field; the others fill these */
        res->peak_alloc = out.alloc;
        res->peak_reserved = out.reserved;
    }
}

/* ---- the ledger row ---- */

/* The command as a shell would need it to run again: words with anything
 * but [A-Za-z0-9_./=:,+-@%] single-quoted. */
static char *command_line(char *const *argv)
{
    char *out = NULL;
    size_t len = 0;
    static const char safe[] = "_./=:,+-@%";
    for (size_t i = 0; argv[i]; i++) {
        const char *w = argv[i];
        bool plain = *w != '\0';
        for (const char *c = w; *c && plain; c++)
            plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                    (*c >= '0' && *c <= '9') || strchr(safe, *c);
        int rc = i ? appends(&out, &len, " ") : 0;
        if (plain) {
            rc |= appends(&out, &len, w);
        } else {
            rc |= appends(&out, &len, "'");
            for (const char *c = w; *c && rc == 0; c++)
                rc |= *c == '\'' ? appends(&out, &len, "'\\''") : append(&out, &len, c, 1);
            rc |= appends(&out, &len, "'");
        }
        if (rc) {
            free(out);
            return NULL;
        }
    }
    return out ? out : strdup("");
}

static void fmt_long(char *buf, size_t size, long v)
{
    if (v >= 0) snprintf(buf, size, "%ld", v);
    else buf[0] = '\0';
}

static void fmt_gb(char *buf, size_t size, int64_t bytes)
{
    if (bytes >= 0) snprintf(buf, size, "%.2f", (double)bytes / GIB);
    else buf[0] = '\0';
}

/* The status first, then what went wrong, then the user's own note (cut,
 * on a character boundary, to leave room for the tags after it), then
 * oomlab's tags: a long --note never pushes the status out. */
static void torch_notes(const struct runexec_opts *o, const struct runexec_result *res, char *notes,
                        size_t size)
{
    char buf[160];
    if (o->torch == TORCHHOOK_OFF) return;
    if (res->torch_steps == 0)
        ledger_notes_add(notes, size, "torch hook: no step recorded (torch not imported, CPU only, "
                                      "python -I, or no optimizer step)");
    else if (res->torch_ranks > 1) {
        snprintf(buf, sizeof buf, "torch hook: %zu steps, %d ranks, worst rank %ld", res->torch_steps,
                 res->torch_ranks, res->torch_worst_rank);
        ledger_notes_add(notes, size, buf);
    }
    if (res->torch_oom_files) {
        snprintf(buf, sizeof buf, "OOM evidence: %d file%s in logs/ID_oom", res->torch_oom_files,
                 res->torch_oom_files == 1 ? "" : "s");
        ledger_notes_add(notes, size, buf);
    }
    if (res->torch_errors) ledger_notes_add(notes, size, "torch hook errors: see logs/ID_torch.err");
}

static void build_notes(const struct runexec_opts *o, const struct runexec_result *res,
                        const struct child_result *cr, const char *problem, char *notes,
                        size_t size)
{
    char sig[32], buf[96], user[769] = "";
    notes[0] = '\0';
    if (res->interrupted) {
        snprintf(buf, sizeof buf, "interrupted (%s)",
                 child_signal_name(res->forwarded_signal, sig, sizeof sig));
        ledger_notes_add(notes, size, buf);
    }
    if (res->timed_out) ledger_notes_add(notes, size, "timeout");
    if (res->stopped) ledger_notes_add(notes, size, "stopped by oomlab (enough steps seen)");
    if (res->term_signal) {
        snprintf(buf, sizeof buf, "killed by %s", child_signal_name(res->term_signal, sig, sizeof sig));
        ledger_notes_add(notes, size, buf);
    }
    if (cr->escalated)
        ledger_notes_add(notes, size,
                         cr->killed_at_once ? "group killed at once by a second signal" : "group killed after the grace period");
    ledger_notes_add(notes, size, cr->note); /* leftovers signalled, output cut, echo dropped */
    if (res->failure_other) ledger_notes_add(notes, size, res->oom_kind);
    if (res->host_oom_kills > 0) {
        snprintf(buf, sizeof buf, LEDGER_NOTE_HOST_OOM_COUNT " %lld process(es) of this cgroup",
                 (long long)res->host_oom_kills);
        ledger_notes_add(notes, size, buf);
    }
    if (res->host_oom_kmsg) ledger_notes_add(notes, size, LEDGER_NOTE_HOST_OOM_KMSG);
    ledger_notes_add(notes, size, problem);
    ledger_notes_add(user, sizeof user, o->note);
    ledger_notes_add(notes, size, user);
    ledger_notes_add(notes, size, o->tag);
    if (!res->sampled) ledger_notes_add(notes, size, "memory not sampled");
    if (res->nvml_device_only) ledger_notes_add(notes, size, RUNEXEC_NOTE_DEVICE_ONLY);
    torch_notes(o, res, notes, size);
    if (res->ranks_seen > 1 && strcmp(res->worst_rank_from, "torch hook")) {
        char b[160];
        snprintf(b, sizeof b, "%d ranks in the log; worst rank %ld (%s)", res->ranks_seen, res->worst_rank,
                 res->worst_rank_from);
        ledger_notes_add(notes, size, b);
    }
    if (res->ranks_seen > 1 && res->first_oom_rank >= 0) {
        snprintf(buf, sizeof buf, "first GPU OOM: rank %ld", res->first_oom_rank);
        ledger_notes_add(notes, size, buf);
    }
    ledger_notes_add(notes, size, res->attempts_note);
}

/* A rank row's notes (fill_rank_row), built as the run's row's are: where
 * its figures come from, where its exit code does, and its OOM unknown
 * where the scan dropped events. */
static void build_rank_notes(const struct rankstats_rank *r, char *notes, size_t size)
{
    char buf[160];
    notes[0] = '\0';
    snprintf(buf, sizeof buf, "rank %d%s, attempt %d", r->rank,
             r->lines ? "'s lines of the launcher's log" : ": its processes in NVML (no line of its own)",
             r->attempt);
    ledger_notes_add(notes, size, buf);
    ledger_notes_add(notes, size, r->have_exit ? "exit from torchelastic's table" : "exit not in the log");
    if (r->oom_unknown) {
        snprintf(buf, sizeof buf, LEDGER_NOTE_OOM_UNKNOWN " (%d)", OOM_MAX_EVENTS);
        ledger_notes_add(notes, size, buf);
    }
}

struct row_ctx {
    struct ledger_row row;
    struct ledger_row *extra; /* after it, in the same write: a wrapped launcher's rank rows */
    size_t n_extra;
    struct ledger_tail tail; /* the file's end, scanned under the lock */
    bool scanned;
    /* The file's header lacks a column the row has a value for (an older
     * oomlab's ledger, or columns deleted in a spreadsheet): the row is
     * written in the file's layout without it. unrecorded names those
     * columns; missing every column of oomlab's the header lacks, in
     * oomlab's order, joined by the file's delimiter (for the sed line). */
    char unrecorded[512];
    char missing[1536];
    char delimiter;
    bool crlf;
    bool shard;       /* the file is this host's shard, at path: the values are in it, past its header */
    char path[4096];
};

/* The ledger's first bytes the layout needs (ledger_layout_len: two records). */
#define LAYOUT_HEAD ((size_t)64 << 10)

static int scan_tail(const char *piece, size_t len, void *ctx)
{
    struct row_ctx *rc = ctx;
    if (!rc->scanned) ledger_tail_init(&rc->tail, piece, len), rc->scanned = true;
    ledger_tail_feed(&rc->tail, piece, len);
    return 0;
}

static void join_name(char *buf, size_t size, const char *sep, const char *name)
{
    size_t k = strlen(buf);
    if (k + strlen(sep) + strlen(name) + 1 < size) snprintf(buf + k, size - k, "%s%s", k ? sep : "", name);
}

/* Which of the row's values the file's header has no column for. */
static void note_unrecorded(struct row_ctx *rc, const struct ledger *lg)
{
    rc->unrecorded[0] = rc->missing[0] = '\0';
    rc->delimiter = lg->delimiter ? lg->delimiter : ',';
    rc->crlf = lg->crlf;
    if (lg->n_columns == 0) return; /* a new file, or a headerless one: written whole */
    bool has[LEDGER_NCOLS] = {false};
    for (size_t i = 0; i < lg->n_columns; i++)
        if (lg->columns[i] >= 0 && lg->columns[i] < LEDGER_NCOLS) has[lg->columns[i]] = true;
    char sep[2] = {rc->delimiter, '\0'};
    for (int c = 0; c < LEDGER_NCOLS; c++) {
        if (has[c]) continue;
        const char *name = ledger_col_name((enum ledger_col)c);
        join_name(rc->missing, sizeof rc->missing, sep, name);
        if (rc->row.cell[c] && rc->row.cell[c][0]) join_name(rc->unrecorded, sizeof rc->unrecorded, ", ", name);
    }
}

/* The record: the repair of a cut-short tail, the header for a new file,
 * the rows in the file's own layout (read from its head alone: appending
 * costs the same whatever the ledger's size). */
static char *make_record(const char *cur, size_t len, unsigned long long size, size_t *out_len, void *ctx,
                         struct oomlab_err *err)
{
    struct row_ctx *rc = ctx;
    size_t row_len = 0, head_len = 0;
    struct ledger lg;
    if (rc->scanned && ledger_tail_check(&rc->tail, "runs.csv", err) < 0) return NULL;
    if (ledger_parse(&lg, cur, ledger_layout_len(cur, len), "runs.csv", err) < 0) return NULL;
    note_unrecorded(rc, &lg);
    char *head = size == 0 ? ledger_header(&head_len) : NULL;
    const char *repair = rc->scanned ? ledger_tail_end(&rc->tail) : "";
    char *out = NULL;
    size_t n = 0;
    bool ok = (size > 0 || head) && appends(&out, &n, repair) == 0 &&
              (!head || append(&out, &n, head, head_len) == 0);
    for (size_t i = 0; ok && i <= rc->n_extra; i++) {
        char *row = ledger_format_row_like(&lg, i ? &rc->extra[i - 1] : &rc->row, &row_len);
        ok = row && append(&out, &n, row, row_len) == 0;
        free(row);
    }
    ledger_release(&lg);
    if (!ok) {
        free(out);
        out = NULL;
        oomlab_err_set(err, "out of memory");
    }
    free(head);
    *out_len = n;
    return out;
}

/* What is known when the run starts: the id, the config, when, how, where. */
struct row_start {
    const char *started, *command, *env;
};

static void set_long(struct ledger_row *row, enum ledger_col col, long v)
{
    char b[32];
    fmt_long(b, sizeof b, v);
    ledger_row_set(row, col, b);
}

/* Who this rank is (lib/launcher), and the GPU it sampled. */
static void fill_rank(struct ledger_row *row, const struct launcher_info *r, int gpu)
{
    set_long(row, LEDGER_GPU, gpu);
    if (!r) return;
    ledger_row_set(row, LEDGER_JOB_ID, r->job_id);
    set_long(row, LEDGER_RANK, r->rank);
    set_long(row, LEDGER_LOCAL_RANK, r->local_rank);
    set_long(row, LEDGER_NODE_RANK, r->node_rank);
    set_long(row, LEDGER_WORLD_SIZE, r->world_size);
    set_long(row, LEDGER_RESTART, r->restart);
}

static void fill_start(struct ledger_row *row, const struct runexec_opts *o, const char *id,
                       const struct row_start *st)
{
    const struct runcfg *cfg = o->cfg;
    char b[300];
    ledger_row_set(row, LEDGER_RUN_ID, id);
    if (cfg) {
        fmt_long(b, sizeof b, cfg->device_batch_size);
        ledger_row_set(row, LEDGER_DEVICE_BATCH_SIZE, b);
        fmt_long(b, sizeof b, cfg->max_seq_len);
        ledger_row_set(row, LEDGER_MAX_SEQ_LEN, b);
        ledger_row_set(row, LEDGER_DTYPE, cfg->dtype);
        fmt_long(b, sizeof b, cfg->grad_accum);
        ledger_row_set(row, LEDGER_GRAD_ACCUM, b);
        ledger_row_set(row, LEDGER_GRAD_CKPT, cfg->grad_ckpt < 0 ? "" : cfg->grad_ckpt ? "true" : "false");
        fmt_long(b, sizeof b, runcfg_effective_batch(cfg));
        ledger_row_set(row, LEDGER_EFFECTIVE_BATCH, b);
    }
    ledger_row_set(row, LEDGER_STARTED_AT, st->started);
    ledger_row_set(row, LEDGER_COMMAND, st->command);
    ledger_row_set(row, LEDGER_ENV, st->env);
    snprintf(b, sizeof b, "%ld", (long)getpid());
    ledger_row_set(row, LEDGER_OOMLAB_PID, b);
    if (ledgerfile_host(b, sizeof b) == 0) ledger_row_set(row, LEDGER_HOST, b);
    fill_rank(row, o->rank, o->gpu);
    if (!o->rank && o->job_id) ledger_row_set(row, LEDGER_JOB_ID, o->job_id);
}

static void fill_mem_trend(struct ledger_row *row, const struct steps_mem_trend *t)
{
    char b[64];
    ledger_row_set(row, LEDGER_MEM_TREND, steps_trend_name(t->trend, true));
    if (t->trend == STEPS_TREND_NONE) return;
    fmt_gb(b, sizeof b, t->first_bytes);
    ledger_row_set(row, LEDGER_MEM_FIRST_GB, b);
    fmt_gb(b, sizeof b, t->last_bytes);
    ledger_row_set(row, LEDGER_MEM_LAST_GB, b);
    b[0] = '\0';
    if (t->first_step >= 0 && t->last_step >= 0)
        snprintf(b, sizeof b, "%ld-%ld", t->first_step, t->last_step);
    ledger_row_set(row, LEDGER_MEM_STEPS, b);
    b[0] = '\0';
    if (!isnan(t->bytes_per_100_steps)) snprintf(b, sizeof b, "%.2f", t->bytes_per_100_steps / GIB);
    ledger_row_set(row, LEDGER_MEM_GB_PER_100_STEPS, b);
}

static void fill_row(struct ledger_row *row, const struct runexec_result *res, const char *notes)
{
    char b[64];
    bool nvml = !strcmp(res->peak_source, "nvml");
    fmt_gb(b, sizeof b, nvml ? -1 : res->peak_alloc);
    ledger_row_set(row, LEDGER_PEAK_ALLOC_GB, b);
    fmt_gb(b, sizeof b, nvml ? res->peak_nvml : res->peak_reserved);
    ledger_row_set(row, LEDGER_PEAK_RESERVED_GB, b);
    ledger_row_set(row, LEDGER_PEAK_LOWER_BOUND, res->peak_source[0] ? res->peak_lower_bound ? "yes" : "no" : "");
    ledger_row_set(row, LEDGER_OOM, res->oom ? "yes" : "no");
    ledger_row_set(row, LEDGER_OOM_STAGE, res->oom ? oom_stage_name(res->oom_stage) : "-");
    ledger_row_set(row, LEDGER_LOSS_TREND, res->loss_trend);
    ledger_row_set(row, LEDGER_PEAK_SOURCE, res->peak_source);
    int64_t peak = nvml ? res->peak_nvml : res->peak_reserved >= 0 ? res->peak_reserved : res->peak_alloc;
    b[0] = '\0';
    if (peak >= 0 && res->capacity > 0) snprintf(b, sizeof b, "%.1f", 100.0 * (double)peak / (double)res->capacity);
    ledger_row_set(row, LEDGER_PEAK_PCT_CAPACITY, b);
    fmt_gb(b, sizeof b, res->capacity);
    ledger_row_set(row, LEDGER_CAPACITY_GB, b);
    snprintf(b, sizeof b, "%.2f", (double)res->duration_ms / 1000.0);
    ledger_row_set(row, LEDGER_DURATION_S, b);
    snprintf(b, sizeof b, "%d", res->exit_code);
    ledger_row_set(row, LEDGER_EXIT_STATUS, b);
    ledger_row_set(row, LEDGER_NOTES, notes);
    fill_mem_trend(row, &res->mem);
    fmt_gb(b, sizeof b, res->device_peak);
    ledger_row_set(row, LEDGER_DEVICE_PEAK_GB, b);
    fmt_gb(b, sizeof b, res->device_start);
    ledger_row_set(row, LEDGER_DEVICE_USED_START_GB, b);
    if (res->ranks_seen > 1) {
        set_long(row, LEDGER_RANKS, res->ranks_seen);
        set_long(row, LEDGER_WORST_RANK, res->worst_rank);
    }
}

/* A shard's rows are written whole (every column, in oomlab's order)
 * whatever its header says: under a header an older oomlab wrote, the
 * columns past it are in the file but not read. Said as for runs.csv. */
static void shard_header_check(const struct paths *p, struct row_ctx *ctx)
{
    char path[4096];
    struct oomlab_err e = {{0}};
    if (ledgerfile_shard_path(p->dir, path, sizeof path, &e) < 0) return;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return;
    char *head = malloc(LAYOUT_HEAD);
    ssize_t n = head ? pread(fd, head, LAYOUT_HEAD, 0) : -1;
    close(fd);
    struct ledger lg;
    if (n > 0 && ledger_parse(&lg, head, ledger_layout_len(head, (size_t)n), path, NULL) == 0) {
        note_unrecorded(ctx, &lg);
        ctx->shard = true;
        snprintf(ctx->path, sizeof ctx->path, "%s", path);
        ledger_release(&lg);
    }
    free(head);
}

/* The ranks of a job (and any DIR with runs.d/) append to this host's
 * shard; everything else to runs.csv under flock, as before. */
static int append_row(const struct runexec_opts *o, const struct paths *p, struct row_ctx *ctx,
                      struct oomlab_err *err)
{
    if (!ledgerfile_use_shards(p->dir, o->rank != NULL)) {
        ctx->scanned = false;
        return fsutil_append_locked(p->ledger, LAYOUT_HEAD, scan_tail, make_record, ctx, err);
    }
    char *rec = NULL;
    size_t len = 0;
    for (size_t i = 0; i <= ctx->n_extra; i++) { /* one write: the rows arrive together */
        size_t row_len;
        char *row = ledger_format_row(i ? &ctx->extra[i - 1] : &ctx->row, &row_len);
        int bad = !row || append(&rec, &len, row, row_len) < 0;
        free(row);
        if (bad) {
            free(rec);
            return oomlab_err_set(err, "out of memory");
        }
    }
    int rc = ledgerfile_append_shard(p->dir, rec, len, err);
    free(rec);
    if (rc == 0) shard_header_check(p, ctx);
    return rc;
}

/* The `running` row: a run whose oomlab is killed still shows in `table`. */
static void record_start(const struct runexec_opts *o, const struct paths *p,
                         struct runexec_result *res, const struct row_start *st)
{
    struct row_ctx ctx = {0};
    struct oomlab_err e = {{0}};
    if (ledger_row_init(&ctx.row) < 0) return;
    fill_start(&ctx.row, o, res->id, st);
    ledger_row_set(&ctx.row, LEDGER_EXIT_STATUS, LEDGER_RUNNING);
    res->placeholder = append_row(o, p, &ctx, &e) == 0;
    ledger_row_release(&ctx.row);
    if (!res->placeholder && !o->silent) /* now, not when the run ends */
        fprintf(stderr, "oomlab %s: %s: the 'running' row was not written (%s); the command goes on, "
                        "the final row is tried when it ends\n", who(o), res->id, e.msg);
}

/* The exit code as `run` records one: a signal (torchelastic's -9) as 128+N. */
static void fmt_exit(char *buf, size_t size, long code)
{
    snprintf(buf, size, "%ld", code < 0 && code > -65 ? 128 - code : code);
}

/* A rank's row of a wrapped launcher's log, one per rank and attempt: its
 * own peak, OOM and stage, its exit code where torchelastic's table gives
 * it; what the log does not say per rank (duration, loss, GPU) is empty. */
static int fill_rank_row(struct ledger_row *row, const struct runexec_opts *o, const struct runexec_result *res,
                         const struct row_start *st, const struct rankstats_rank *r)
{
    char b[256];
    struct ledger_peak_out out;
    int64_t peak = rank_peak(r, &out), cap = r->capacity > 0 ? r->capacity : res->capacity;
    bool nvml = !strcmp(out.source, "nvml");
    fill_start(row, o, res->id, st);
    set_long(row, LEDGER_RANK, r->rank);
    set_long(row, LEDGER_RESTART, r->attempt);
    ledger_row_set(row, LEDGER_GPU, "");
    fmt_gb(b, sizeof b, nvml ? -1 : out.alloc);
    ledger_row_set(row, LEDGER_PEAK_ALLOC_GB, b);
    fmt_gb(b, sizeof b, out.reserved);
    ledger_row_set(row, LEDGER_PEAK_RESERVED_GB, b);
    ledger_row_set(row, LEDGER_PEAK_SOURCE, out.source);
    ledger_row_set(row, LEDGER_PEAK_LOWER_BOUND, out.source[0] ? out.lower_bound ? "yes" : "no" : "");
    b[0] = '\0';
    if (peak >= 0 && cap > 0) snprintf(b, sizeof b, "%.1f", 100.0 * (double)peak / (double)cap);
    ledger_row_set(row, LEDGER_PEAK_PCT_CAPACITY, b);
    fmt_gb(b, sizeof b, cap);
    ledger_row_set(row, LEDGER_CAPACITY_GB, b);
    /* unknown, empty, where the log had more OOM events than the scan keeps */
    ledger_row_set(row, LEDGER_OOM, r->oom ? "yes" : r->oom_unknown ? "" : "no");
    ledger_row_set(row, LEDGER_OOM_STAGE, r->oom ? oom_stage_name(r->oom_stage) : r->oom_unknown ? "" : "-");
    b[0] = '\0';
    if (r->have_exit) fmt_exit(b, sizeof b, r->exitcode);
    ledger_row_set(row, LEDGER_EXIT_STATUS, b);
    build_rank_notes(r, b, sizeof b);
    return ledger_row_set(row, LEDGER_NOTES, b);
}

static void release_rank_rows(struct row_ctx *ctx)
{
    for (size_t i = 0; i < ctx->n_extra; i++) ledger_row_release(&ctx->extra[i]);
    free(ctx->extra);
    ctx->extra = NULL, ctx->n_extra = 0;
}

static int rank_rows(struct row_ctx *ctx, const struct runexec_opts *o, const struct runexec_result *res,
                     const struct row_start *st, const struct rankstats *rs)
{
    if (!rs || !rs->n) return 0;
    ctx->extra = calloc(rs->n, sizeof *ctx->extra);
    if (!ctx->extra) return -1;
    for (size_t i = 0; i < rs->n; i++) {
        if (ledger_row_init(&ctx->extra[i]) < 0) return -1;
        ctx->n_extra++;
        if (fill_rank_row(&ctx->extra[i], o, res, st, &rs->r[i]) < 0) return -1;
    }
    return 0;
}

static void record(const struct runexec_opts *o, const struct paths *p,
                   struct runexec_result *res, const struct child_result *cr,
                   const struct row_start *st, const char *problem, const struct rankstats *rs)
{
    struct row_ctx ctx = {0};
    char notes[1024];
    struct oomlab_err e = {{0}};
    build_notes(o, res, cr, problem, notes, sizeof notes);
    if (ledger_row_init(&ctx.row) < 0) {
        snprintf(res->problem, sizeof res->problem, "ledger row not written: out of memory");
        return;
    }
    fill_start(&ctx.row, o, res->id, st);
    fill_row(&ctx.row, res, notes);
    if (rank_rows(&ctx, o, res, st, rs) < 0) {
        release_rank_rows(&ctx);
        snprintf(res->problem, sizeof res->problem, "rank rows not written: out of memory");
    }
    if (append_row(o, p, &ctx, &e) < 0)
        snprintf(res->problem, sizeof res->problem, "ledger row not written: %s", e.msg);
    else
        res->recorded = true, res->rank_rows = (int)ctx.n_extra;
    const char *file = ctx.shard ? ctx.path : p->ledger;
    if (res->recorded && ctx.unrecorded[0] && !o->silent)
        fprintf(stderr,
                "oomlab %s: %s: %s has no column for %s (its header is an older oomlab's, or was edited): "
                "%s, add the columns to its first line while no run is going: sed -i '1s/%s$/%c%s%s/' %s\n",
                who(o), res->id, file, ctx.unrecorded,
                ctx.shard ? "written past the header, so not read; to read them (and the rows before)"
                          : "not recorded; to record them from the next run on",
                ctx.crlf ? "\\r" : "", ctx.delimiter, ctx.missing, ctx.crlf ? "\\r" : "", file);
    release_rank_rows(&ctx);
    ledger_row_release(&ctx.row);
}

/* ---- the child: signals, notices ---- */

static void child_notice(const char *msg, void *ctx)
{
    const struct runexec_opts *o = ctx;
    if (!o->silent) fprintf(stderr, "oomlab %s: %s\n", who(o), msg);
}

/* runs.csv gets the run's row only as it ends: refuse a symlink, a FIFO or
 * a ledger we may not write before the command runs, not after hours of
 * training. */
static int refuse_foreign_ledger(const struct runexec_opts *o, const struct paths *p, struct oomlab_err *err)
{
    char shard[PATH_MAX];
    const char *ledger = p->ledger;
    if (ledgerfile_use_shards(p->dir, o->rank != NULL)) {
        if (ledgerfile_shard_path(p->dir, shard, sizeof shard, err) < 0) return -1;
        ledger = shard;
    }
    if (fsutil_check_own(ledger, err) < 0 || fsutil_check_writable(ledger, err) < 0) return -1;
    return 0;
}

/* ---- the run ---- */

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void iso_now(char *buf, size_t size)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void unclaim(const struct paths *p, bool shared_config)
{
    unlink(p->log);
    if (!shared_config) unlink(p->config); /* the job's other ranks may use it */
    unlink(p->mem);
}

/* How a script is run by hand, by its name's ending: the hint for a script
 * that is not executable or not on PATH. */
static const struct { const char *end, *interpreter; } script_runners[] = {
    {".py", "python3"}, {".sh", "bash"}, {".bash", "bash"}, {".slurm", "bash"}, {".sbatch", "bash"},
};

static const char *runner_of(const char *cmd)
{
    size_t n = strlen(cmd);
    for (size_t i = 0; i < sizeof script_runners / sizeof *script_runners; i++) {
        size_t e = strlen(script_runners[i].end);
        if (n > e && !strcmp(cmd + n - e, script_runners[i].end)) return script_runners[i].interpreter;
    }
    return NULL;
}

/* What to type instead, after execvp's errno: a file in this directory
 * that PATH does not search (`run -- train.py`), a directory, a script
 * without its x bit. "" when there is nothing better to say. */
static void exec_hint(const char *cmd, int e, char *buf, size_t size)
{
    struct stat st;
    const char *runner = runner_of(cmd);
    char by_hand[300] = "";
    if (runner) snprintf(by_hand, sizeof by_hand, "%s %s", runner, cmd);
    buf[0] = '\0';
    if (stat(cmd, &st) != 0) return;
    if (S_ISDIR(st.st_mode))
        snprintf(buf, size, " (it is a directory)");
    else if (e == ENOENT && !strchr(cmd, '/') && S_ISREG(st.st_mode) && (st.st_mode & 0111))
        snprintf(buf, size, " on PATH; the file here runs as ./%s", cmd);
    else if (e == ENOENT && !strchr(cmd, '/') && S_ISREG(st.st_mode) && runner)
        snprintf(buf, size, " on PATH; the file here runs as %s", by_hand);
    else if (e == ENOENT && !strchr(cmd, '/') && S_ISREG(st.st_mode))
        snprintf(buf, size, " on PATH; the file here is not executable: chmod +x %s, then ./%s", cmd, cmd);
    else if (e == EACCES && S_ISREG(st.st_mode) && !(st.st_mode & 0111))
        snprintf(buf, size, " (no execute permission: chmod +x %s%s%s)", cmd, runner ? ", or " : "", by_hand);
}

/* Why execve said ENOENT of cmd, a regular file, into buf: its #!
 * interpreter is not there (a Windows-edited script's "#!/bin/bash\r"
 * among them), or is there but fails the same way in turn (a script as
 * interpreter: the kernel follows up to 4 such), or cmd is an executable
 * whose loader is not there. */
static void why_not_found(const char *cmd, int depth, char *buf, size_t size)
{
    char line[256] = ""; /* the kernel reads no more of a #! line (BINPRM_BUF_SIZE) */
    FILE *f = fopen(cmd, "rb");
    size_t n = f ? fread(line, 1, sizeof line - 1, f) : 0;
    if (f) fclose(f);
    line[n] = '\0';
    if (strncmp(line, "#!", 2) != 0) {
        snprintf(buf, size, "%s: cannot execute: the file is there, but not the loader it names (built for "
                            "another system or libc?)", cmd);
        return;
    }
    size_t end = strcspn(line, "\n");
    bool crlf = end > 2 && line[end - 1] == '\r';
    line[end - crlf] = '\0';
    char *interp = line + 2 + strspn(line + 2, " \t");
    interp[strcspn(interp, " \t")] = '\0';
    struct stat st;
    char inner[400];
    if (crlf) {
        snprintf(buf, size, "%s: cannot execute: its #! line ends in a carriage return (Windows line endings), "
                            "so the interpreter '%s\\r' is not found: dos2unix %s", cmd, interp, cmd);
    } else if (stat(interp, &st) == 0 && S_ISREG(st.st_mode) && depth < 4) {
        why_not_found(interp, depth + 1, inner, sizeof inner);
        snprintf(buf, size, "%s: cannot execute: its #! interpreter '%s' is there, but: %s", cmd, interp, inner);
    } else {
        snprintf(buf, size, "%s: cannot execute: its #! interpreter '%s' is not found", cmd, interp);
    }
}

/* ENOENT for a file that is there (why_not_found says why): 0 and buf
 * filled, or -1 when cmd is not such a file. */
static int missing_interpreter(const char *cmd, char *buf, size_t size)
{
    struct stat st;
    char found[PATH_MAX]; /* execve takes no longer path: a PATH entry + the name fit or execvp failed too */
    if (!strchr(cmd, '/')) { /* on PATH: execvp's ENOENT hides a found file's */
        if (!child_which(cmd, found, sizeof found)) return -1;
        cmd = found;
    }
    if (stat(cmd, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    why_not_found(cmd, 0, buf, size);
    return 0;
}

static int exec_failure(const struct paths *p, bool rank, const char *cmd, struct runexec_result *res,
                        const struct child_result *cr, struct oomlab_err *err)
{
    char hint[300], why[800];
    unclaim(p, rank);
    res->exec_failed = true;
    res->exit_code = cr->exit_code;
    exec_hint(cmd, cr->exec_errno, hint, sizeof hint);
    if (cr->exec_errno == ENOENT && missing_interpreter(cmd, why, sizeof why) == 0) {
        res->exit_code = 126; /* found, cannot execute: as bash's "bad interpreter" */
        return oomlab_err_set(err, "%s", why);
    }
    if (cr->exec_errno == ENOENT) return oomlab_err_set(err, "%s: command not found%s", cmd, hint);
    return oomlab_err_set(err, "%s: cannot execute: %s%s", cmd, strerror(cr->exec_errno), hint);
}

static void summarise(struct runexec_result *res, const struct child_result *cr, int64_t t0)
{
    res->exit_code = cr->exit_code;
    res->term_signal = cr->term_signal;
    res->timed_out = cr->timed_out;
    res->forwarded_signal = cr->forwarded_signal;
    res->interrupted = cr->forwarded_signal != 0;
    res->stopped = cr->stopped;
    res->duration_ms = mono_ms() - t0;
}

/* The kernel's OOM killer during the run (sys/hostoom): host memory ran
 * out, whatever the log says; a run that shows no other failure is that. */
static void host_oom_summarise(struct runexec_result *res, int64_t kills_before, pid_t pid, const char *argv0,
                               int64_t t0_ms)
{
    int64_t after = kills_before >= 0 ? hostoom_kills() : -1;
    res->host_oom_kills = kills_before >= 0 && after >= kills_before ? after - kills_before : -1;
    /* no count to read: the kernel's own line about the command's process,
     * where this process may read the kernel's log. 2 s of slack: its clock
     * and CLOCK_MONOTONIC drift apart by a little */
    if (res->host_oom_kills < 0 && res->term_signal == SIGKILL) {
        const char *slash = strrchr(argv0, '/');
        res->host_oom_kmsg = hostoom_kmsg_killed((long)pid, slash ? slash + 1 : argv0, (t0_ms - 2000) * 1000) == 1;
    }
    if ((res->host_oom_kills > 0 || res->host_oom_kmsg) && !res->oom && !res->failure_other) {
        res->failure_other = true;
        snprintf(res->oom_kind, sizeof res->oom_kind, "host-oom-killer");
    }
}

static void log_problem(const struct child_result *cr, int close_rc, int close_errno,
                        const struct sampler *s, char *buf, size_t size)
{
    buf[0] = '\0';
    int e = cr->log_errno ? cr->log_errno : close_rc < 0 ? close_errno : 0;
    if (e)
        snprintf(buf, size, "log incomplete (%llu of %llu bytes): %s",
                 (unsigned long long)cr->log_bytes, (unsigned long long)cr->bytes, strerror(e));
    else if (s->failed)
        snprintf(buf, size, "%s", s->problem);
}

/* Held (flock) from the claim to the final row, on its own descriptor of
 * the log: `table` reads a `running` row whose lock it can take as a run
 * whose oomlab died (the kernel drops the lock of a killed process). */
static void release_run_lock(int fd)
{
    if (fd >= 0) close(fd);
}

static int hold_run_lock(const char *log)
{
    int fd = open(log, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

int runexec(const struct runexec_opts *o, struct runexec_result *res, struct oomlab_err *err)
{
    static struct paths p; /* large: keep it off the stack */
    result_init(res);
    if (!o->argv || !o->argv[0]) return oomlab_err_set(err, "no command to run");
    if (o->interval_ms < 10) return oomlab_err_set(err, "sampling interval must be at least 10ms");
    if (o->id && ledger_id_check_new(o->id, err) < 0) return -1;
    memset(&p, 0, sizeof p);
    int log_fd = -1;
    if (make_dirs(&p, o->dir, err) < 0) {
        res->dir_failed = true;
        return -1;
    }
    if (refuse_foreign_ledger(o, &p, err) < 0 || claim_id(o, &p, res, &log_fd, err) < 0) return -1;
    snprintf(res->log_path, sizeof res->log_path, "%s", p.log);
    int lock_fd = hold_run_lock(p.log);
    if (o->force) unlink(p.mem);
    if (o->force && !o->rank) unlink_rank_logs(p.logs, res->id); /* an older job's: never mixed with this one's */
    if (write_config(o, &p, err) < 0) {
        close(log_fd);
        unlink(p.log);
        release_run_lock(lock_fd);
        return -1;
    }
    static struct torchhook th;
    if (torchhook_setup(&th, o->torch, p.logs, res->stem, err) < 0) {
        close(log_fd);
        unlink(p.log);
        release_run_lock(lock_fd);
        return -1;
    }
    char **argv = command_argv(o, &p);
    char *command = argv ? command_line(argv) : NULL, *env = ledger_env_capture(environ);
    char started[32];
    iso_now(started, sizeof started);
    struct row_start st = {started, command ? command : "", env ? env : ""};
    int64_t t0 = mono_ms(), host_kills = hostoom_kills();
    struct child c = {.pty = o->pty};
    struct child_result cr;
    int started_rc = !command || !env ? -1 : child_start(&c, argv, &cr, err);
    torchhook_unset(&th); /* the child has its copy of the environment */
    if (started_rc < 0) {
        if (!command || !env) oomlab_err_set(err, "out of memory");
        argsubst_free(argv);
        free(command);
        free(env);
        close(log_fd);
        unclaim(&p, o->rank != NULL);
        release_run_lock(lock_fd);
        return -1;
    }
    if (cr.exec_failed) {
        close(log_fd);
        free(command);
        free(env);
        release_run_lock(lock_fd);
        int rc = exec_failure(&p, o->rank != NULL, argv[0], res, &cr, err);
        argsubst_free(argv);
        return rc;
    }
    record_start(o, &p, res, &st);
    struct sampler s;
    sampler_open(&s, o, &p, c.pid, command);
    live_setup(&s, o, &p, res->id);
    char idx_path[sizeof p.log]; /* logs/ID.idx: when each part of the log arrived (lib/logidx) */
    int idx_fd = logidx_file_path(p.log, idx_path, sizeof idx_path)
                     ? fsutil_open_write(idx_path, O_WRONLY | O_CREAT | O_TRUNC, 0666, &(struct oomlab_err){{0}}) : -1;
    struct child_opts co = {.log_fd = log_fd, .index = idx_fd >= 0, .index_fd = idx_fd, .echo = !o->quiet, .echo_stderr = o->echo_stderr, .interval_ms = o->interval_ms,
                            .timeout_ms = o->timeout_ms, .grace_ms = o->grace_ms,
                            .tick = sampler_tick, .tick_ctx = &s, .stop = o->live ? live_stop : NULL,
                            .notice = child_notice, .notice_ctx = (void *)o};
    int rc = child_supervise(&c, &co, &cr, err);
    int close_rc = close(log_fd), close_errno = errno;
    if (idx_fd >= 0) close(idx_fd);
    summarise(res, &cr, t0);
    sampler_close(&s, o, res);
    char problem[700];
    log_problem(&cr, close_rc, close_errno, &s, problem, sizeof problem);
    struct rankstats *rs = malloc(sizeof *rs);
    static struct split sp;
    memset(&sp, 0, sizeof sp);
    sp.logs = p.logs, sp.id = o->rank ? NULL : res->id; /* a rank's own log is not split again */
    if (rs) rankstats_init(rs);
    if (rs) rs->srun = run_names_srun(argv, p.log, &rs->srun_settled);
    if (rs) {
        scan_log(p.log, o->cfg, rs, &sp, res);
        for (size_t i = 0; i < s.n_rank_peaks; i++) /* NVML's per-rank figures, by the workers' environment */
            rankstats_nvml(rs, (int)s.rank_peaks[i].rank, (int)s.rank_peaks[i].attempt, s.rank_peaks[i].peak);
        ranks_summarise(rs, res);
    }
    free(s.rank_peaks);
    if (sp.problem[0] && !problem[0]) snprintf(problem, sizeof problem, "%s", sp.problem);
    res->rank_logs = (int)sp.n_open;
    host_oom_summarise(res, host_kills, c.pid, argv[0], t0);
    read_torch(&th, res);
    choose_peak(res);
    record(o, &p, res, &cr, &st, problem, o->rank || res->ranks_seen < 2 ? NULL : rs);
    if (rs) rankstats_release(rs);
    free(rs);
    live_final(&s, res);
    child_end(); /* signals were kept caught until the row was written */
    release_run_lock(lock_fd);
    if (problem[0]) { /* both the log's and the ledger's trouble, log first */
        char ledger_problem[sizeof res->problem];
        snprintf(ledger_problem, sizeof ledger_problem, "%s", res->problem);
        snprintf(res->problem, sizeof res->problem, "%s%s%.300s", problem,
                 ledger_problem[0] ? "; " : "", ledger_problem);
    }
    free(command);
    free(env);
    argsubst_free(argv);
    if (rc < 0 && err && !res->problem[0]) snprintf(res->problem, sizeof res->problem, "%s", err->msg);
    return 0;
}
