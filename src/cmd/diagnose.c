/* diagnose: read training logs, report every OOM event, and per run the
 * root cause, the memory trend and a ranked fix plan. Options -> logscan
 * (sys) -> runs, verdicts and plan (lib) -> text or JSON (out). Exit 0: no
 * GPU OOM, 1: a GPU OOM, 2: usage/read error. */
#include "cmd/cmd.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/ledger_io.h"
#include "lib/ledger.h"
#include "lib/memsummary.h"
#include "lib/msg.h"
#include "lib/elastic.h"
#include "lib/jobs.h"
#include "lib/plan.h"
#include "lib/runcfg.h"
#include "lib/snapshot.h"
#include "lib/steps.h"
#include "lib/strbuf.h"
#include "lib/units.h"
#include "lib/verdict.h"
#include "render/color.h"
#include "render/json.h"
#include "sys/child.h"
#include "sys/cfgfile.h"
#include "sys/fsutil.h"
#include "sys/ledgerfile.h"
#include "sys/logscan.h"
#include "sys/runexec.h"
#include "sys/snapfile.h"

#define CONFIG_MAX (1u << 20)
/* The memory trend reads the lines of the log's head and tail only, so its
 * cost stays bounded (and the scan at its speed) whatever the log's size. */
#define TREND_HEAD (128u << 10)
#define TREND_TAIL (512u << 10)

struct log_result {
    const char *path;   /* as given, or DIR/logs/ID.log */
    const char *run_id; /* the id it was read by, NULL for a path */
    char resolved[4096];
    char config_path[4096]; /* a run id's DIR/configs/ID.yaml, when read */
    struct runcfg cfg;      /* valid when config_path[0] */
    struct oom_report rep;
    struct logscan_info info;
    struct steps_series series;
    struct steps_mem_trend trend; /* steps' memory trend, as run computes it */
    char job_id[JOBS_ID_MAX];     /* as the log says it ("" none) */
    char ledger_job[JOBS_ID_MAX]; /* a run id's, from its ledger row ("" none) */
    const char *run_state;        /* a run id's ledger state (ledger_io_state), NULL none */
    char run_end[64];             /* how oomlab ended it, from its row's notes ("timeout"...; "" none) */
    char run_host_oom[96];        /* the kernel's OOM killer during the run, from its row's notes ("" none) */
    unsigned long long delivered; /* bytes of lines seen by on_line */
    int ranks[OOM_MAX_EVENTS];
    size_t n_ranks;
    size_t first_event; /* index of its first event in the JSON events array */
    bool timed;         /* times[] read (a second pass, only when a run needs them) */
    int64_t times[OOM_MAX_EVENTS]; /* jobs_line_time key of each event, -1 unknown */
    struct elastic_state elastic;  /* torchelastic's Root Cause block, when printed */
};

/* A run: logs that are one job (one log, or the ranks of one job). */
struct run_result {
    size_t *logs; /* indices into the log array, in order */
    size_t n_logs;
    enum jobs_link link;
    struct oom_report merged; /* its logs' events, in order (copies) */
    long primary;             /* index into the JSON events array, -1 none */
    size_t trend_log;         /* the log whose memory trend the plan reads */
    struct verdicts v;
    struct plan plan;
    const char *first_by; /* how the root was told among several OOMs; NULL: one */
    struct hook_files *hook; /* the torch hook's files for its root rank; NULL none */
};

/* The torch hook's files for a run's root-cause rank (logs/ID_oom/
 * rank<R>-pid<P>-<n>.summary.txt and .pickle, the first n of that rank). */
#define HOOK_TOP 3
struct hook_files {
    char summary_path[4096], snapshot_path[4096];
    struct oom_memsummary mem; /* the failing device's table */
    bool snap;                 /* a snapshot was read */
    int snap_device;
    struct snap_device dev;    /* its figures (copied) */
    char top[HOOK_TOP][512];   /* largest live stacks: first frames */
    int64_t top_bytes[HOOK_TOP];
    long top_count[HOOK_TOP];
    size_t n_top;
};

static const char usage_head[] =
    "usage: oomlab diagnose [--json] [--config RUN.yaml] [--dir DIR] [LOG|RUN_ID...]\n\n"
    "Find every out-of-memory event in training logs (stdin when none; .gz and\n"
    "UTF-16 read transparently), its numbers, stage, step and rank, the memory\n"
    "trend of the per-step peaks, and per run the root cause and a ranked fix plan.\n"
    "Each log is its own run unless the logs are ranks of one job (the same SLURM\n"
    "or torchelastic job id, or rank-numbered names such as train_rank3.log).\n\n";
static const char usage_tail[] = "\nExit: 0 no GPU OOM found, 1 a GPU OOM found, 2 usage or read error, 3 cannot\nwrite.\n";

/* Read a config file (sys/cfgfile: the limit and messages run and probe use). */
static int load_config(const char *path, struct runcfg *cfg, struct oomlab_err *err)
{
    char *text;
    size_t len;
    runcfg_init(cfg);
    if (cfgfile_read(path, &text, &len, err) < 0) return -1;
    int rc = runcfg_parse(cfg, text, len, path, err);
    free(text);
    if (rc == 0 && runcfg_is_model_config(cfg)) { /* its torch_dtype would drop the bf16 step */
        fprintf(stderr, "oomlab diagnose: note: %s is a model's config.json (model_type, hidden_size), not a run's "
                        "config: it names no batch or sequence length, and its torch_dtype is how the weights are "
                        "stored, not the training precision; the plan does not use it (oomlab estimate %s reads it)\n",
                path, path);
        runcfg_release(cfg);
    } else if (rc == 0 && runcfg_knows_nothing(cfg)) { /* not a silent fall back to generic examples */
        fprintf(stderr, "oomlab diagnose: note: %s gives none of batch, sequence length, accumulation, precision "
                        "or checkpointing (%s): the plan's examples stay generic; the keys oomlab reads and their "
                        "aliases: docs/config.md\n",
                path, len == 0 ? "it is empty" : "none of its keys is one oomlab reads");
    }
    return rc;
}

/* ---- input: paths and run ids ---------------------------------------------- */

/* A run id's own config, DIR/configs/ID.yaml, when it is there and parses:
 * the plan then names the run's values. A bad one is said and skipped. */
static void run_config(const char *dir, const char *id, struct log_result *l)
{
    char configs[4096], name[320], path[4096];
    struct oomlab_err err = {{0}};
    struct stat st;
    snprintf(name, sizeof name, "%s.yaml", id);
    if (fsutil_join(configs, sizeof configs, dir, "configs", &err) < 0 ||
        fsutil_join(path, sizeof path, configs, name, &err) < 0 || stat(path, &st) != 0)
        return;
    if (load_config(path, &l->cfg, &err) < 0) {
        runcfg_release(&l->cfg);
        fprintf(stderr, "oomlab diagnose: run %s: its config is not used: %s\n", id, err.msg);
        return;
    }
    snprintf(l->config_path, sizeof l->config_path, "%s", path);
}

/* A RUN_ID argument's per-rank logs, DIR/logs/ID_rankN.log (as `run` names
 * them for a job's ranks), sorted by rank; NULL with *n 0 when the argument
 * is not a run id or the run has none. The caller frees each and the array. */
static char **rank_logs(const char *arg, const char *dir, size_t *n)
{
    struct stat st;
    struct oomlab_err err = {{0}};
    char logs[4096], prefix[320];
    *n = 0;
    if (!strcmp(arg, "-") || strchr(arg, '/') || stat(arg, &st) == 0 ||
        ledger_id_check(arg, &err) < 0 || fsutil_join(logs, sizeof logs, dir, "logs", &err) < 0)
        return NULL;
    DIR *d = opendir(logs);
    if (!d) return NULL;
    snprintf(prefix, sizeof prefix, "%s_rank", arg);
    size_t pl = strlen(prefix), cap = 0;
    char **out = NULL;
    for (struct dirent *e; (e = readdir(d));) {
        const char *name = e->d_name, *p = name + pl;
        if (strncmp(name, prefix, pl) != 0) continue;
        while (*p >= '0' && *p <= '9') p++;
        if (p == name + pl || p - (name + pl) > 6 || strcmp(p, ".log") != 0) continue;
        char path[4096];
        if (fsutil_join(path, sizeof path, logs, name, &err) < 0) continue;
        if (*n == cap) {
            char **grown = strbuf_grow(out, &cap, *n + 1, sizeof *out, SIZE_MAX);
            if (!grown) break;
            out = grown;
        }
        if (!(out[*n] = strdup(path))) break;
        (*n)++;
    }
    closedir(d);
    for (size_t i = 1; i < *n; i++) /* by rank number: rank10 after rank9 */
        for (size_t j = i; j > 0 && jobs_rank_of_path(out[j - 1]) > jobs_rank_of_path(out[j]); j--) {
            char *t = out[j];
            out[j] = out[j - 1], out[j - 1] = t;
        }
    return out;
}

/* The endings a log file has: "x.log" is a file, not a run id; a directory's
 * logs are counted by them. */
static const char *const file_ends[] = {".log", ".txt", ".out", ".err", ".gz"};
#define N_FILE_ENDS (sizeof file_ends / sizeof *file_ends)

/* A directory named where a log was meant (slurm's output directory,
 * torchrun's --log-dir, oomlab's own DIR): what in it can be read, counted
 * by ending, in it (top) and up to DIR_HINT_DEPTH levels below (deep), at
 * most DIR_HINT_ENTRIES entries looked at. */
enum { DIR_HINT_DEPTH = 4, DIR_HINT_ENTRIES = 20000 };
struct dir_count {
    size_t top[N_FILE_ENDS], deep[N_FILE_ENDS], seen;
};

static size_t file_end(const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < N_FILE_ENDS; i++) {
        size_t elen = strlen(file_ends[i]);
        if (len > elen && !strcmp(name + len - elen, file_ends[i])) return i;
    }
    return N_FILE_ENDS;
}

static void dir_count(const char *path, int depth, struct dir_count *c)
{
    DIR *d = opendir(path);
    if (!d) return;
    for (struct dirent *e; c->seen < DIR_HINT_ENTRIES && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        c->seen++;
        char p[4096];
        struct stat st;
        if (snprintf(p, sizeof p, "%s/%s", path, e->d_name) >= (int)sizeof p || stat(p, &st) != 0) continue;
        size_t k = file_end(e->d_name);
        if (S_ISREG(st.st_mode) && k < N_FILE_ENDS) (depth ? c->deep : c->top)[k]++;
        else if (S_ISDIR(st.st_mode) && depth < DIR_HINT_DEPTH) dir_count(p, depth + 1, c);
    }
    closedir(d);
}

/* arg as one shell word: as it is when plain, else in single quotes */
static void sh_word(const char *arg, char *buf, size_t size)
{
    if (arg[strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+:,@%=-")] == '\0') {
        snprintf(buf, size, "%s", arg);
        return;
    }
    size_t o = 0;
    buf[o++] = '\'';
    for (const char *p = arg; *p && o + 6 < size; p++) {
        if (*p == '\'') { memcpy(buf + o, "'\\''", 4); o += 4; }
        else buf[o++] = *p;
    }
    buf[o++] = '\'';
    buf[o] = '\0';
}

/* counts: "3 .log, 1 .out files"; cmd: what reads them, as one glob per
 * ending under the directory's shell word w or, with find, as find's
 * -name tests (several joined by -o). Returns how many endings were found. */
static size_t ends_said(const size_t *n, const char *w, bool find, char *counts, size_t csize, char *cmd,
                        size_t msize)
{
    size_t co = 0, mo = 0, said = 0, files = 0;
    counts[0] = cmd[0] = '\0';
    for (size_t i = 0; i < N_FILE_ENDS; i++) {
        if (!n[i]) continue;
        files += n[i];
        co += (size_t)snprintf(counts + co, co < csize ? csize - co : 0, "%s%zu %s", said ? ", " : "", n[i],
                               file_ends[i]);
        if (find)
            mo += (size_t)snprintf(cmd + mo, mo < msize ? msize - mo : 0, "%s-name '*%s'", said ? " -o " : "",
                                   file_ends[i]);
        else
            mo += (size_t)snprintf(cmd + mo, mo < msize ? msize - mo : 0, "%s%s/*%s", said ? " " : "", w,
                                   file_ends[i]);
        said++;
    }
    if (co < csize) snprintf(counts + co, csize - co, " file%s", files == 1 ? "" : "s");
    return said;
}

static int dir_hint(const char *arg, struct oomlab_err *err)
{
    char bare[1024], w[4200], counts[200], cmd[3000];
    size_t len = strlen(arg);
    while (len > 1 && arg[len - 1] == '/') len--; /* no doubled slash in the globs */
    snprintf(bare, sizeof bare, "%.*s", (int)len, arg);
    sh_word(bare, w, sizeof w);
    if (ledgerfile_holds(arg))
        return oomlab_err_set(err, "%s: a directory, not a log file: it holds oomlab's ledger; name a run in it: "
                                   "oomlab diagnose --dir %s RUN_ID (oomlab table --dir %s lists them)", arg, w, w);
    struct dir_count c = {0};
    dir_count(arg, 0, &c);
    if (ends_said(c.top, w, false, counts, sizeof counts, cmd, sizeof cmd))
        return oomlab_err_set(err, "%s: a directory, not a log file: it holds %s; read them with: oomlab diagnose %s",
                              arg, counts, cmd);
    size_t k = ends_said(c.deep, w, true, counts, sizeof counts, cmd, sizeof cmd);
    if (k)
        return oomlab_err_set(err, "%s: a directory, not a log file: its subdirectories hold %s; read them with: "
                                   "find %s %s%s%s -exec oomlab diagnose {} +", arg, counts, w,
                              k > 1 ? "\\( " : "", cmd, k > 1 ? " \\)" : "");
    return oomlab_err_set(err, "%s: a directory, not a log file, and it holds no .log, .txt, .out, .err or .gz "
                               "file (nor do its subdirectories, %d levels down)", arg, (int)DIR_HINT_DEPTH);
}

/* The ledger's words for run id's row in DIR ("done", "running", ...), the
 * ledger's name in path; NULL when DIR's ledger has no such run (or none can
 * be read). */
static const char *ledger_state_of(const char *dir, const char *id, char *path, size_t size)
{
    struct ledger lg;
    struct oomlab_err err = {{0}};
    if (ledger_io_load(NULL, dir, &lg, path, size, &err) < 0) return NULL;
    const struct ledger_row *row = ledger_find(&lg, id);
    const char *state = row ? ledger_io_state(row) : NULL; /* a static string */
    ledger_release(&lg);
    return state;
}

/* A LOG argument: "-", an existing path (wins), or the id of a run in DIR.
 * With has_ranks, a run whose logs/ID.log is missing is not an error (its
 * rank logs are read): returns 1, nothing to read for l. */
static int resolve(const char *arg, const char *dir, bool has_ranks, struct log_result *l,
                   struct oomlab_err *err)
{
    struct stat st;
    l->path = arg;
    if (!strcmp(arg, "-")) return 0;
    bool exists = stat(arg, &st) == 0, is_dir = exists && S_ISDIR(st.st_mode), is_file = exists && !is_dir;
    if (strchr(arg, '/')) return is_dir ? dir_hint(arg, err) : 0;
    struct oomlab_err id_err = {{0}};
    if (ledger_id_check(arg, &id_err) < 0) /* not an id: the read says why */
        return is_dir ? dir_hint(arg, err) : 0;
    char name[320], logs[4096];
    snprintf(name, sizeof name, "%s.log", arg);
    if (fsutil_join(logs, sizeof logs, dir, "logs", err) < 0 ||
        fsutil_join(l->resolved, sizeof l->resolved, logs, name, err) < 0)
        return -1;
    if (is_file) { /* the file wins; say so when the run exists too */
        if (stat(l->resolved, &st) == 0)
            fprintf(stderr, "oomlab diagnose: %s: reading the file %s, not run %s's log %s\n",
                    arg, arg, arg, l->resolved);
        return 0;
    }
    if (stat(l->resolved, &st) != 0 && has_ranks) return 1;
    if (stat(l->resolved, &st) != 0) {
        if (is_dir) return dir_hint(arg, err);
        /* "x.log" names a file: not "no run 'x.log' (./logs/x.log.log: ...)" */
        size_t alen = strlen(arg);
        for (size_t i = 0; i < N_FILE_ENDS; i++) {
            size_t elen = strlen(file_ends[i]);
            if (alen > elen && !strcmp(arg + alen - elen, file_ends[i]))
                return oomlab_err_set(err, "%s: %s", arg, strerror(ENOENT));
        }
        int e = errno;
        char ledger[4096];
        const char *state = ledger_state_of(dir, arg, ledger, sizeof ledger);
        if (state)
            return oomlab_err_set(err, "%s: the run is in %s (%s), but its log %s is gone (%s): moved or deleted?",
                                  arg, ledger, state, l->resolved, strerror(e));
        char near[300];
        ledgerfile_nearby(dir, arg, near, sizeof near);
        if (near[0]) return oomlab_err_set(err, "%s: no such file, and no run '%s' in %s; there is one with %s", arg, arg, dir, near);
        return oomlab_err_set(err, "%s: no such file, and no run '%s' in %s (%s: %s)", arg, arg,
                              dir, l->resolved, strerror(e));
    }
    l->path = l->resolved;
    l->run_id = arg;
    run_config(dir, arg, l);
    return 0;
}

/* Per line of the log's head and tail: the step series and a job id —
 * every rule in the head (where launchers print them), only slurmstepd's
 * "*** JOB N ... CANCELLED" in the tail (cheap: one memchr a line). */
static int on_line(const char *line, size_t len, void *ctx)
{
    struct log_result *l = ctx;
    struct steps_point pt;
    /* out of memory: the trend reads less; the line's job id and offsets
     * still count */
    if (steps_parse_line(line, len, &pt)) (void)steps_series_add(&l->series, &pt);
    bool head = l->delivered < TREND_HEAD;
    l->delivered += len + 1;
    if (!l->job_id[0] && (head || memchr(line, '*', len)))
        jobs_id_in_line(line, len, l->job_id, sizeof l->job_id);
    elastic_line(&l->elastic, line, len);
    return 0;
}

static int read_log(struct log_result *l, struct oomlab_err *err)
{
    struct logscan_opts o = {.fn = on_line, .ctx = l, .head_bytes = TREND_HEAD,
                             .tail_bytes = TREND_TAIL};
    if (logscan_path_opts(l->path, &l->rep, &o, &l->info, err) < 0) return -1;
    steps_memory_trend_of(&l->series, &l->trend);
    /* logs/ID_rank3.log: rank 3's own output, so its events are rank 3's:
     * the file's rank is who printed them; torchelastic's Root Cause record
     * names the rank that failed first, which may be another (the table the
     * agent printed into this log), so the file's rank replaces it; a rank
     * the message states stays. (left23) */
    int path_rank = jobs_rank_of_path(l->path);
    for (size_t i = 0; i < l->rep.n_events && path_rank >= 0; i++)
        if (l->rep.events[i].rank < 0 || l->rep.events[i].rank_from_table) {
            l->rep.events[i].rank = path_rank;
            l->rep.events[i].rank_from_table = false;
        }
    for (size_t i = 0; i < l->rep.n_events && l->n_ranks < OOM_MAX_EVENTS; i++)
        if (l->rep.events[i].rank >= 0) l->ranks[l->n_ranks++] = l->rep.events[i].rank;
    return 0;
}

/* ---- runs -------------------------------------------------------------------- */

/* ---- which rank ran out first ---------------------------------------------- */

/* An event's time: the stamp on its own line, else the last stamp of the
 * same rank's lines (the whole log's when it names no ranks) at most
 * TIME_LOOKBACK lines before it — a traceback's lines carry none. */
#define TIME_LOOKBACK 200
#define TIME_RANKS 64

struct time_pass {
    struct log_result *l;
    long line;
    size_t next; /* the next event to time */
    int rank[TIME_RANKS];
    int64_t at[TIME_RANKS];
    long at_line[TIME_RANKS];
    size_t n;
};

/* The slot of rank (-1: lines without a rank), or a new one. */
static size_t time_slot(struct time_pass *t, int rank)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->rank[i] == rank) return i;
    size_t i = t->n < TIME_RANKS ? t->n++ : TIME_RANKS - 1;
    t->rank[i] = rank, t->at[i] = -1, t->at_line[i] = 0;
    return i;
}

static int on_time_line(const char *line, size_t len, void *ctx)
{
    struct time_pass *t = ctx;
    struct log_result *l = t->l;
    t->line++;
    struct msg_prefix px;
    int64_t key;
    size_t look = len < 512 ? len : 512;
    msg_prefix_parse(line, look, &px);
    bool stamped = jobs_line_time(line, len, &key) == 1;
    if (stamped) {
        size_t i = time_slot(t, px.rank);
        t->at[i] = key, t->at_line[i] = t->line;
        if (px.rank >= 0) { /* the job-wide clock too, for unranked events */
            i = time_slot(t, -1);
            t->at[i] = key, t->at_line[i] = t->line;
        }
    }
    for (; t->next < l->rep.n_events && l->rep.events[t->next].line <= t->line; t->next++) {
        const struct oom_event *e = &l->rep.events[t->next];
        if (e->line != t->line) continue;
        size_t i = time_slot(t, px.rank >= 0 ? px.rank : -1);
        bool near = t->at[i] >= 0 && t->line - t->at_line[i] <= TIME_LOOKBACK;
        l->times[t->next] = stamped ? key : near ? t->at[i] : -1;
    }
    return t->next >= l->rep.n_events; /* nothing more to time: stop */
}

/* Times of a log's events: a second pass over its lines (not a second
 * scan: lines_only), made only for the logs of a run with several OOMs (the
 * common single-OOM case pays nothing), ending at the last event's line. */
static void read_times(struct log_result *l)
{
    if (l->timed) return;
    l->timed = true;
    for (size_t i = 0; i < OOM_MAX_EVENTS; i++) l->times[i] = -1;
    struct time_pass t = {.l = l};
    struct oom_report scratch;
    struct oomlab_err err = {{0}};
    oom_report_init(&scratch);
    struct logscan_opts o = {.fn = on_time_line, .ctx = &t, .lines_only = true};
    if (logscan_path_opts(l->path, &scratch, &o, NULL, &err) < 0)
        for (size_t i = 0; i < OOM_MAX_EVENTS; i++) l->times[i] = -1; /* unknown, say nothing */
    oom_report_release(&scratch);
}

struct candidate {
    size_t k, i; /* r->logs[k], its event i */
};

static bool is_candidate(const struct oom_event *e)
{
    return e->gpu_oom && !e->consequence;
}

/* The root cause among the run's GPU OOMs: the earliest by timestamp when
 * every one has a time; else the first in the log when they are all in one
 * log; else the first log given's (and we say that the order is unknown). */
static struct candidate pick_root(struct run_result *r, struct log_result *logs, bool *found)
{
    struct candidate best = {0, 0}, first = {0, 0};
    size_t n = 0, in_logs = 0;
    for (size_t k = 0; k < r->n_logs; k++) {
        const struct log_result *l = &logs[r->logs[k]];
        bool any = false;
        for (size_t i = 0; i < l->rep.n_events; i++)
            if (is_candidate(&l->rep.events[i])) {
                if (!n++) first = (struct candidate){k, i};
                any = true;
            }
        in_logs += any;
    }
    *found = n > 0;
    r->first_by = NULL;
    if (n < 2) return first;
    bool all_timed = true;
    int64_t best_t = -1;
    for (size_t k = 0; k < r->n_logs; k++) {
        struct log_result *l = &logs[r->logs[k]];
        for (size_t i = 0; i < l->rep.n_events && i < OOM_MAX_EVENTS; i++) {
            if (!is_candidate(&l->rep.events[i])) continue;
            read_times(l);
            if (l->times[i] < 0) all_timed = false;
            else if (best_t < 0 || l->times[i] < best_t)
                best_t = l->times[i], best = (struct candidate){k, i};
        }
    }
    r->first_by = all_timed ? "timestamp" : in_logs == 1 ? "log-order" : "file-order";
    return all_timed ? best : first;
}

/* The run's events in one report, so the verdicts see every rank; the
 * primary is the rank that ran out first, and other ranks' NCCL errors
 * are its consequences. */
static int merge_run(struct run_result *r, struct log_result *logs)
{
    size_t total = 0;
    for (size_t k = 0; k < r->n_logs; k++) total += logs[r->logs[k]].rep.n_events;
    oom_report_init(&r->merged);
    r->merged.events = calloc(total ? total : 1, sizeof *r->merged.events);
    if (!r->merged.events) return -1;
    bool found;
    struct candidate root = pick_root(r, logs, &found);
    r->primary = -1;
    r->trend_log = r->logs[found ? root.k : 0];
    for (size_t k = 0; k < r->n_logs; k++) {
        struct log_result *l = &logs[r->logs[k]];
        for (size_t i = 0; found && i < l->rep.n_events; i++) {
            struct oom_event *e = &l->rep.events[i];
            if (!e->gpu_oom && !strcmp(e->framework, "nccl")) e->consequence = true;
        }
        if (found && k == root.k) {
            r->merged.primary = (long)(r->merged.n_events + root.i);
            r->primary = (long)(l->first_event + root.i);
        }
        if (l->rep.n_events) /* events is NULL when there are none */
            memcpy(r->merged.events + r->merged.n_events, l->rep.events,
                   l->rep.n_events * sizeof *l->rep.events);
        r->merged.n_events += l->rep.n_events;
        r->merged.n_dropped += l->rep.n_dropped;
        r->merged.lines += l->rep.lines;
        r->merged.expandable_set |= l->rep.expandable_set;
        oom_report_note_program(&r->merged, l->rep.program_framework, l->rep.program_mixed);
        r->merged.truncated |= l->rep.truncated;
    }
    return 0;
}

static void run_release(struct run_result *r)
{
    free(r->merged.events);
    r->merged.events = NULL;
    free(r->logs);
    free(r->hook);
}

/* --config for every run; else the run's own (a run id's configs/ID.yaml):
 * its root-cause log's, else its first log's that has one. */
static const struct runcfg *run_cfg(const struct log_result *logs, const struct run_result *r,
                                    const struct runcfg *given)
{
    if (given) return given;
    if (logs[r->trend_log].config_path[0]) return &logs[r->trend_log].cfg;
    for (size_t k = 0; k < r->n_logs; k++)
        if (logs[r->logs[k]].config_path[0]) return &logs[r->logs[k]].cfg;
    return NULL;
}

/* ---- the torch hook's files (logs/ID_oom/) -------------------------------- */

#define HOOK_SUMMARY_MAX (1u << 20)
#define HOOK_SNAPSHOT_LIMIT ((size_t)512 << 20)

/* The first dump of rank (or of the only rank there when rank < 0):
 * rank<R>-pid<P>-<n>.summary.txt with the lowest n. */
static bool hook_pick(const char *oomdir, int rank, char *stem, size_t cap)
{
    DIR *d = opendir(oomdir);
    if (!d) return false;
    long best_n = -1;
    int seen_rank = -2;
    bool several = false;
    for (struct dirent *e; (e = readdir(d));) {
        int r;
        long pid, n;
        int used = 0;
        if (sscanf(e->d_name, "rank%d-pid%ld-%ld.summary.txt%n", &r, &pid, &n, &used) != 3 ||
            used == 0 || e->d_name[used] != '\0')
            continue;
        if (seen_rank != -2 && seen_rank != r) several = true;
        seen_rank = r;
        if ((rank >= 0 && r != rank) || (best_n >= 0 && n >= best_n)) continue;
        best_n = n;
        snprintf(stem, cap, "rank%d-pid%ld-%ld", r, pid, n);
    }
    closedir(d);
    return best_n >= 0 && !(rank < 0 && several); /* unknown rank among several: none */
}

static void hook_summary(struct hook_files *h, int gpu)
{
    char *text = NULL;
    size_t len = 0;
    bool missing = false;
    struct oomlab_err err = {{0}};
    struct oom_memsummary tables[16];
    oom_memsummary_init(&h->mem);
    if (fsutil_read(h->summary_path, HOOK_SUMMARY_MAX, &text, &len, &missing, &err) < 0) {
        if (!missing) fprintf(stderr, "oomlab diagnose: %s\n", err.msg);
        h->summary_path[0] = '\0';
        return;
    }
    size_t n = memsummary_text(text, len, tables, 16), pick = n;
    free(text);
    for (size_t i = 0; i < n && pick == n; i++) /* the failing GPU's, else one with an OOM */
        if (gpu >= 0 && tables[i].device == gpu) pick = i;
    for (size_t i = 0; i < n && pick == n; i++)
        if (tables[i].ooms > 0) pick = i;
    if (pick == n && n) pick = 0;
    if (pick < n) h->mem = tables[pick];
}

static void hook_snapshot(struct hook_files *h, int gpu)
{
    struct snapshot snap;
    struct stat st;
    struct oomlab_err err = {{0}};
    if (stat(h->snapshot_path, &st) != 0) {
        h->snapshot_path[0] = '\0';
        return;
    }
    memset(&snap, 0, sizeof snap);
    if (snapfile_load(h->snapshot_path, HOOK_SNAPSHOT_LIMIT, &snap, &err) < 0) {
        fprintf(stderr, "oomlab diagnose: the torch hook's snapshot is not used: %s\n", err.msg);
        snapshot_release(&snap);
        h->snapshot_path[0] = '\0';
        return;
    }
    int pick = -1;
    for (int i = 0; i < SNAP_MAX_DEVICES && pick < 0; i++) /* failing GPU, OOM, largest */
        if (snap.dev[i].present && i == gpu) pick = i;
    for (int i = 0; i < SNAP_MAX_DEVICES && pick < 0; i++)
        if (snap.dev[i].present && snap.dev[i].has_oom) pick = i;
    for (int i = 0; i < SNAP_MAX_DEVICES; i++)
        if (pick < 0 || (snap.dev[i].present && !snap.dev[pick].present))
            pick = snap.dev[i].present ? i : pick;
    if (pick >= 0 && snap.dev[pick].present) {
        h->snap = true;
        h->snap_device = pick;
        h->dev = snap.dev[pick];
        struct snap_group g[HOOK_TOP];
        h->n_top = snapshot_top(&snap, pick, g, HOOK_TOP);
        for (size_t i = 0; i < h->n_top; i++) {
            const char *st_text = snapshot_stack(&snap, g[i].stack);
            size_t fl = strcspn(st_text, "\n");
            snprintf(h->top[i], sizeof h->top[i], "%.*s", (int)fl, st_text);
            h->top_bytes[i] = g[i].bytes;
            h->top_count[i] = g[i].count;
        }
    }
    snapshot_release(&snap);
}

/* The hook's files of a run read by RUN_ID, for its root event's rank. */
static struct hook_files *hook_read(const struct run_result *r, const struct log_result *logs,
                                    const char *dir)
{
    const char *id = NULL;
    for (size_t k = 0; k < r->n_logs && !id; k++) id = logs[r->logs[k]].run_id;
    if (!id || r->merged.primary < 0) return NULL;
    const struct oom_event *e = &r->merged.events[r->merged.primary];
    char logsdir[4096], name[320], oomdir[4096], stem[128];
    struct oomlab_err err = {{0}};
    snprintf(name, sizeof name, "%s_oom", id);
    if (fsutil_join(logsdir, sizeof logsdir, dir, "logs", &err) < 0 ||
        fsutil_join(oomdir, sizeof oomdir, logsdir, name, &err) < 0 ||
        !hook_pick(oomdir, e->rank, stem, sizeof stem))
        return NULL;
    struct hook_files *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    snprintf(name, sizeof name, "%s.summary.txt", stem);
    fsutil_join(h->summary_path, sizeof h->summary_path, oomdir, name, &err);
    snprintf(name, sizeof name, "%s.pickle", stem);
    fsutil_join(h->snapshot_path, sizeof h->snapshot_path, oomdir, name, &err);
    hook_summary(h, e->gpu);
    hook_snapshot(h, e->gpu);
    return h;
}

/* Group the logs into runs; judge and plan each. Returns the run count or
 * -1 (out of memory). */
static long build_runs(struct log_result *logs, size_t n, const struct runcfg *cfg,
                       const char *dir, struct run_result **out)
{
    struct jobs_log *jl = calloc(n, sizeof *jl);
    size_t *first = calloc(n, sizeof *first);
    enum jobs_link *link = calloc(n, sizeof *link);
    struct run_result *runs = calloc(n, sizeof *runs);
    long nr = -1;
    if (!jl || !first || !link || !runs) goto done;
    for (size_t l = 0, ev = 0; l < n; ev += logs[l].rep.n_events, l++) {
        logs[l].first_event = ev;
        jl[l] = (struct jobs_log){logs[l].path, logs[l].job_id, logs[l].ranks, logs[l].n_ranks,
                                  logs[l].run_id};
    }
    jobs_group(jl, n, first, link);
    nr = 0;
    for (size_t l = 0; l < n; l++) {
        if (first[l] != l) continue;
        struct run_result *r = &runs[nr++];
        r->logs = calloc(n, sizeof *r->logs);
        if (!r->logs) goto fail;
        for (size_t k = l; k < n; k++)
            if (first[k] == l) r->logs[r->n_logs++] = k;
        r->link = r->n_logs > 1 ? link[r->logs[1]] : JOBS_ALONE;
        if (merge_run(r, logs) < 0) goto fail;
        verdict_compute(&r->merged, &r->v);
        r->v.first_by = r->first_by;
        r->hook = hook_read(r, logs, dir);
        if (r->hook)
            verdict_add_hook(&r->v, r->hook->summary_path[0] ? &r->hook->mem : NULL,
                             r->hook->snap ? r->hook->dev.largest_free : -1,
                             r->hook->snap ? r->hook->dev.cached_free : -1,
                             r->hook->snap && r->hook->dev.has_oom ? r->hook->dev.oom_requested : -1);
        plan_build_trend(&r->merged, &r->v, run_cfg(logs, r, cfg), &logs[r->trend_log].trend,
                         &r->plan);
    }
    goto done;
fail:
    for (long i = 0; i < nr; i++) run_release(&runs[i]);
    nr = -1;
done:
    free(jl);
    free(first);
    free(link);
    if (nr < 0) {
        free(runs);
        runs = NULL;
    }
    *out = runs;
    return nr;
}

/* The run the top-level JSON fields describe: the first with a GPU OOM,
 * else the first with any event, else the first. */
static size_t root_run(const struct run_result *runs, size_t nr)
{
    for (size_t i = 0; i < nr; i++)
        if (runs[i].primary >= 0) return i;
    for (size_t i = 0; i < nr; i++)
        if (runs[i].merged.n_events) return i;
    return 0;
}

/* ---- text: wrapped to the terminal (80 columns when not a terminal) --------- */

struct out {
    FILE *f;
    bool col;
    size_t width;
};

static size_t out_width(FILE *f)
{
    struct winsize ws;
    if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    char *end;
    errno = 0;
    unsigned long v = c && *c ? strtoul(c, &end, 10) : 0;
    if (c && *c && !errno && !*end && v >= 20 && v <= 1000) return (size_t)v;
    return 80;
}

/* Display columns of s[0, n): UTF-8 continuation bytes take none. */
static size_t cols(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* Bytes of s that fill at most w columns (whole characters). */
static size_t fit_bytes(const char *s, size_t n, size_t w)
{
    size_t i = 0, c = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && ((unsigned char)s[j] & 0xC0) == 0x80) j++;
        if (c + 1 > w) break;
        c++;
        i = j;
    }
    return i ? i : (n ? 1 : 0);
}

/* "3.91", "+10.65", "(2": a number as the text prints one before a unit. */
static bool is_number_word(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && strchr("(+-~<>=", s[i])) i++;
    if (i >= n || !isdigit((unsigned char)s[i])) return false;
    for (; i < n; i++)
        if (!isdigit((unsigned char)s[i]) && s[i] != '.' && s[i] != ',') return false;
    return isdigit((unsigned char)s[n - 1]);
}

/* "GiB", "MiB,", "GB)": a size unit, with the punctuation that may close it. */
static bool is_unit_word(const char *s, size_t n)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "KB", "MB",
                                        "GB", "TB", "bytes"};
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t l = strlen(units[u]);
        if (n < l || memcmp(s, units[u], l)) continue;
        size_t k = l;
        while (k < n && strchr(",.;:)]", s[k])) k++;
        if (k == n) return true;
    }
    return false;
}

/* text after what is already on the line (at columns), then continuation
 * lines after indent; breaks at blanks, a word wider than a line is cut,
 * and a number stays on the line of its unit ("3.91 GiB", not "3.91" at
 * one line's end and "GiB" at the next's start). Each line's text is
 * wrapped in the colour pre/post. */
static void wrap(const struct out *o, size_t at, const char *indent, const char *text,
                 const char *pre, const char *post)
{
    size_t ind = strlen(indent), n = strlen(text), i = 0, width = o->width;
    bool fresh = true; /* nothing of text on this line yet */
    fputs(pre, o->f);
    for (;;) {
        while (i < n && text[i] == ' ') i++;
        if (i >= n) break;
        size_t j = i;
        while (j < n && text[j] != ' ') j++;
        if (j + 1 < n && text[j + 1] != ' ' && is_number_word(text + i, j - i)) {
            size_t e = j + 1;
            while (e < n && text[e] != ' ') e++;
            if (is_unit_word(text + j + 1, e - j - 1)) j = e;
        }
        size_t w = cols(text + i, j - i), sep = fresh ? 0 : 1;
        if (at + sep + w > width && (!fresh || at > ind)) {
            fprintf(o->f, "%s\n%s%s", post, indent, pre);
            at = ind;
            fresh = true;
            continue;
        }
        if (sep) fputc(' ', o->f), at++;
        if (at + w > width) { /* wider than a whole line: cut it */
            size_t b = fit_bytes(text + i, j - i, width > at ? width - at : 1);
            fwrite(text + i, 1, b, o->f);
            i += b;
            fprintf(o->f, "%s\n%s%s", post, indent, pre);
            at = ind;
            fresh = true;
            continue;
        }
        fwrite(text + i, 1, j - i, o->f);
        at += w;
        fresh = false;
        i = j;
    }
    fprintf(o->f, "%s\n", post);
}

/* A whole paragraph: prefix (printed as is) then wrapped text. */
static void para(const struct out *o, const char *prefix, const char *indent, const char *text,
                 const char *pre, const char *post)
{
    fputs(prefix, o->f);
    wrap(o, cols(prefix, strlen(prefix)), indent, text, pre, post);
}

struct field_row {
    const char *label;
    int64_t value;
};

static void print_bytes(const struct out *o, const struct oom_event *e)
{
    const struct field_row rows[] = {
        {"requested", e->bytes.requested},
        {"capacity", e->bytes.capacity},
        {"free", e->bytes.free},
        {"allocated", e->bytes.allocated},
        {"reserved", e->bytes.reserved},
        {"reserved but unallocated", e->bytes.reserved_unallocated},
        {"this process", e->bytes.process_in_use},
        {"allowed", e->bytes.allowed},
        {"other allocations", e->bytes.other_in_use},
        {"private pools", e->bytes.private_pools},
    };
    char line[1600];
    size_t at = 0;
    const char *sep = "";
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && at < sizeof line; i++) {
        if (rows[i].value < 0) continue;
        char b[32];
        int w = snprintf(line + at, sizeof line - at, "%s%s %s%s", sep, rows[i].label,
                         units_format_bytes(rows[i].value, b, sizeof b),
                         i == 0 && e->requested_from_shape ? " (from shape)" : "");
        at += w > 0 ? (size_t)w : 0;
        sep = ", ";
    }
    for (size_t i = 0; i < e->n_procs && at < sizeof line; i++) {
        char b[32];
        int w = snprintf(line + at, sizeof line - at, "%sprocess %ld %s", sep, e->procs[i].pid,
                         units_format_bytes(e->procs[i].bytes, b, sizeof b));
        at += w > 0 ? (size_t)w : 0;
        sep = ", ";
    }
    if (at) para(o, "    ", "    ", line, "", "");
}

/* The memory_summary() table printed with the event: only what it shows. */
static void print_memsummary(const struct out *o, const struct oom_event *e)
{
    const struct oom_memsummary *m = &e->mem;
    if (!m->present) return;
    const struct {
        const char *label;
        int64_t cur, peak;
    } rows[] = {
        {"allocated", m->allocated_cur, m->allocated_peak},
        {"reserved", m->reserved_cur, m->reserved_peak},
        {"non-releasable", m->nonreleasable_cur, m->nonreleasable_peak},
    };
    char line[1024], a[32], b[32];
    int at = snprintf(line, sizeof line, "memory_summary:");
    const size_t cap = sizeof line;
#define ADD(...) \
    if (at >= 0 && (size_t)at < cap) at += snprintf(line + at, cap - (size_t)at, __VA_ARGS__)
    const char *sep = " ";
    if (m->ooms >= 0) ADD("%sOOMs %ld", sep, m->ooms), sep = ", ";
    if (m->retries >= 0) ADD("%smalloc retries %ld", sep, m->retries), sep = ", ";
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].cur < 0 && rows[i].peak < 0) continue;
        ADD("%s%s %s", sep, rows[i].label, units_format_bytes(rows[i].cur, a, sizeof a));
        if (rows[i].peak >= 0) ADD(" (peak %s)", units_format_bytes(rows[i].peak, b, sizeof b));
        sep = ", ";
    }
#undef ADD
    para(o, "    ", "    ", line, "", "");
}

static void print_where(const struct out *o, const struct oom_event *e)
{
    char line[256];
    int at = snprintf(line, sizeof line, "line %ld", e->line);
    const size_t cap = sizeof line;
#define ADD(...) \
    if (at >= 0 && (size_t)at < cap) at += snprintf(line + at, cap - (size_t)at, __VA_ARGS__)
    if (e->rank >= 0) ADD(", rank %d", e->rank);
    if (e->gpu >= 0) ADD(", GPU %d", e->gpu);
    if (e->step >= 0) ADD(", step %ld", e->step);
    ADD(", stage %s", oom_stage_name(e->stage));
    if (e->repeats == 1) {
        ADD(", repeated once more");
    } else if (e->repeats > 1) {
        ADD(", repeated %ld more times", e->repeats);
    }
#undef ADD
    para(o, "    ", "    ", line, "", "");
}

/* What an event is, in its first line: a traceback cut before its
 * exception may have been a GPU OOM too, so it is not called "not a GPU
 * OOM" (its verdict says what is known). */
static const char *event_head(const struct oom_event *e)
{
    if (e->gpu_oom) return "GPU out of memory";
    return verdict_lookalike(e) == VERDICT_CUT_OFF ? "a failure cut off before its error" : "not a GPU OOM";
}

static void print_event(const struct out *o, const char *path, const struct oom_event *e,
                        bool primary)
{
    bool col = o->col;
    char head[512];
    bool same = strcmp(e->kind, e->framework) == 0; /* "(pytorch)", not "(pytorch, pytorch)" */
    snprintf(head, sizeof head, "%s (%s%s%s)%s%s", event_head(e), e->kind, same ? "" : ", ", same ? "" : e->framework, primary ? " <- root cause" : "",
             e->consequence ? " (consequence)" : "");
    /* The path whole (it cannot be broken), the rest wrapped after it. */
    fprintf(o->f, "%s%s%s: ", color_code(col, COLOR_BOLD), path, color_code(col, COLOR_RESET));
    wrap(o, cols(path, strlen(path)) + 2, "    ", head,
         color_code(col, e->gpu_oom ? COLOR_RED : COLOR_YELLOW), color_code(col, COLOR_RESET));
    print_where(o, e);
    print_bytes(o, e);
    print_memsummary(o, e);
    para(o, "    ", "    ", e->text, color_code(col, COLOR_DIM), color_code(col, COLOR_RESET));
}

/* Where the paste's context decided the call on OOM words (lib/context):
 * what it rests on, line by line, worded as the weak evidence it is. */
static const char *context_call_name(enum oom_context_call call)
{
    return call == OOM_CONTEXT_ON_GPU      ? "on-gpu"
           : call == OOM_CONTEXT_DISCUSSED ? "discussed"
           : call == OOM_CONTEXT_CUT_TITLE ? "cut-title"
                                           : NULL;
}

static void print_context(const struct out *o, const char *path, const struct oom_context *c)
{
    if (c->call == OOM_CONTEXT_NONE) return;
    char line[600];
    if (c->call == OOM_CONTEXT_ON_GPU) {
        snprintf(line, sizeof line, "probably a GPU OOM: named only in words, without a device; "
                 "the paste's context names the GPU or an ML run, and no host memory:");
        para(o, "    ", "    ", line, "", "");
    } else if (c->call == OOM_CONTEXT_CUT_TITLE) {
        snprintf(line, sizeof line, "probably a GPU OOM: the paste ends inside a traceback, its error "
                 "cut off, under a title that names the GPU's memory:");
        para(o, "    ", "    ", line, "", "");
    } else {
        snprintf(line, sizeof line, "%s: an OOM discussed, not failed: named only in words, in a "
                 "paste that reads as a change or documentation about OOMs:", path);
        para(o, "", "    ", line, "", "");
    }
    for (size_t i = 0; i < c->n; i++) {
        snprintf(line, sizeof line, "line %ld, %s: %s", c->evidence[i].line, c->evidence[i].what,
                 c->evidence[i].text);
        para(o, "      ", "        ", line, color_code(o->col, COLOR_DIM), color_code(o->col, COLOR_RESET));
    }
}

/* A run id's ledger state other than done, said beside its log: the log
 * alone cannot tell a finished run from one cut off. NULL: nothing to say. */
static const char *run_state_why(const char *state)
{
    static const struct {
        const char *state, *why;
    } states[] = {
        {LEDGER_IO_NO_FINAL, LEDGER_IO_NO_FINAL_WHY "; its log is read as far as it was written"},
        {"running", "oomlab is still recording it; its log is read as far as it has come"},
    };
    for (size_t i = 0; state && i < sizeof states / sizeof *states; i++)
        if (!strcmp(state, states[i].state)) return states[i].why;
    return NULL;
}

/* How oomlab ended a run that did not end by itself: the notes run
 * writes (sys/runexec), said beside its log, which ends there and not
 * where the job would have. */
static const struct {
    const char *note, *why;
} run_ends[] = {
    {"timeout", "--timeout stopped it (SIGTERM to its group): its log ends where the time ran out"},
    {"interrupted (", "oomlab got this signal and passed it on (Ctrl-C, scancel, a cancelled CI job): its log "
                      "ends where it was stopped"},
    {"stopped by oomlab", "guard ended the smoke on purpose once its steps were seen"},
};

/* The first note of a row's notes that says how it ended */
static void run_end_of(const char *notes, char *buf, size_t size)
{
    const char *prefixes[sizeof run_ends / sizeof *run_ends];
    for (size_t i = 0; i < sizeof run_ends / sizeof *run_ends; i++) prefixes[i] = run_ends[i].note;
    ledger_first_note(notes, prefixes, sizeof prefixes / sizeof *prefixes, buf, size);
}

static const char *run_end_why(const char *end)
{
    for (size_t i = 0; *end && i < sizeof run_ends / sizeof *run_ends; i++)
        if (!strncmp(end, run_ends[i].note, strlen(run_ends[i].note))) return run_ends[i].why;
    return NULL;
}

static void print_inputs(const struct out *o, const struct log_result *logs, size_t n)
{
    for (size_t l = 0; l < n; l++) {
        char line[4400];
        if (logs[l].run_id) {
            snprintf(line, sizeof line, "run %s: reading %s%s%s", logs[l].run_id, logs[l].path,
                     logs[l].config_path[0] ? " and its config " : "", logs[l].config_path);
            para(o, "", "    ", line, "", "");
            bool first = !l || !logs[l - 1].run_id || strcmp(logs[l - 1].run_id, logs[l].run_id);
            if (first && logs[l].ledger_job[0]) {
                snprintf(line, sizeof line, "run %s: job %s (its ledger row)", logs[l].run_id,
                         logs[l].ledger_job);
                para(o, "", "    ", line, "", "");
            }
            const char *why = run_state_why(logs[l].run_state);
            if (first && why) {
                snprintf(line, sizeof line, "run %s: %s: %s", logs[l].run_id, logs[l].run_state, why);
                para(o, "", "    ", line, "", "");
            }
            const char *end_why = run_end_why(logs[l].run_end);
            if (first && end_why) {
                snprintf(line, sizeof line, "run %s: %s: %s", logs[l].run_id, logs[l].run_end, end_why);
                para(o, "", "    ", line, "", "");
            }
            if (first && logs[l].run_host_oom[0]) {
                snprintf(line, sizeof line, "run %s: %s (its ledger row): host memory (RAM) ran out, not GPU "
                         "memory; " CMD_HOST_RAM_FIXES " (SLURM --mem) are the fixes", logs[l].run_id,
                         logs[l].run_host_oom);
                para(o, "", "    ", line, "", "");
            }
        }
        if (strcmp(logs[l].info.encoding, "utf-8") != 0) {
            snprintf(line, sizeof line, "%s: %s text (%s), decoded to UTF-8", logs[l].path,
                     !strcmp(logs[l].info.encoding, "utf-16le") ? "UTF-16LE" : "UTF-16BE",
                     logs[l].info.bom ? "byte-order mark" : "no byte-order mark: NUL pattern");
            para(o, "", "    ", line, "", "");
        }
        if (logs[l].info.truncated) { /* was "corrupt or truncated compressed data", nothing read */
            snprintf(line, sizeof line,
                     "%s: the compressed data ends early (cut off while it was written?): read the %llu "
                     "bytes that inflated; whatever came after them (often the error) is missing",
                     logs[l].path, logs[l].info.bytes);
            para(o, "", "    ", line, "", "");
        } else if (logs[l].info.bytes == 0) { /* "no OOM found" alone reads as a clean run */
            snprintf(line, sizeof line,
                     "%s: empty (0 bytes): nothing to diagnose (a run that buffers its output "
                     "writes nothing before it dies: python -u or PYTHONUNBUFFERED=1)",
                     logs[l].path);
            para(o, "", "    ", line, "", "");
        }
        if (logs[l].info.binary) {
            snprintf(line, sizeof line,
                     "%s: binary data, not a text log? (%zu of its first %zu bytes are NUL or "
                     "control bytes); read all the same (a training log is text)",
                     logs[l].path, logs[l].info.control, logs[l].info.sniffed);
            para(o, "", "    ", line, "", "");
        }
    }
}

static void print_trend(const struct out *o, const struct log_result *l, bool name_log)
{
    if (!l->trend.kind || !l->trend.points) return;
    char ev[240], line[4400];
    plan_trend_explain(&l->trend, ev, sizeof ev);
    snprintf(line, sizeof line, "%s%s%s, %s%s", steps_trend_name(l->trend.trend, true),
             name_log ? " in " : "", name_log ? l->path : "", ev,
             l->info.bytes > TREND_HEAD + TREND_TAIL ? " (from the log's first 128 KiB and last 512 KiB)"
                                                     : "");
    fputc('\n', o->f);
    para(o, "Memory trend: ", "    ", line, "", "");
}

/* What a worker's exit in torchelastic's Root Cause block says (lib/elastic),
 * by the signal that ended it (0: it exited with a code). */
static const struct {
    int sig;
    const char *meaning;
} elastic_meanings[] = {
    {0, "; the table does not say why: that rank's own output (or its error_file, with @record on its main) does"},
    {9, ": most often the kernel's OOM killer, so host memory (RAM) ran out, not GPU memory (the host's dmesg says "
        "\"Out of memory: Killed process\"); " CMD_HOST_RAM_FIXES},
    {15, ": stopped from outside (the scheduler's time or memory limit, a preemption, or the agent after another "
         "failure); the failure is elsewhere"},
    {6, ": a crash in native code, not an out-of-memory"},
    {7, ": a crash in native code, not an out-of-memory"},
    {11, ": a crash in native code, not an out-of-memory"},
};

static const char *elastic_meaning(int sig)
{
    for (size_t i = 0; i < sizeof elastic_meanings / sizeof *elastic_meanings; i++)
        if (elastic_meanings[i].sig == sig) return elastic_meanings[i].meaning;
    return "";
}

static void print_elastic(const struct out *o, const struct log_result *l, bool name_log)
{
    const struct elastic_root *r = &l->elastic.root;
    if (!r->found) return;
    char who[200] = "", how[96] = "", sig[24], line[900];
    int n = snprintf(who, sizeof who, "rank %ld", r->rank);
    if (r->rank < 0) n = snprintf(who, sizeof who, "a worker");
    if (r->local_rank >= 0 && n > 0) n += snprintf(who + n, sizeof who - (size_t)n, " (local_rank %ld)", r->local_rank);
    if (r->host[0] && n > 0 && (size_t)n < sizeof who) snprintf(who + n, sizeof who - (size_t)n, " on %s", r->host);
    int signo = elastic_signal(r);
    if (signo) {
        child_signal_name(signo, sig, sizeof sig);
        snprintf(how, sizeof how, ": killed by %s (exit code %ld)", sig, r->exitcode);
    } else if (r->have_exitcode) {
        snprintf(how, sizeof how, ": exit code %ld", r->exitcode);
    } else {
        how[0] = '\0';
    }
    snprintf(line, sizeof line, "%s%s%s failed first%s%s%s%s", name_log ? l->path : "", name_log ? ": " : "", who, how,
             r->time[0] ? " at " : "", r->time, elastic_meaning(signo));
    fputc('\n', o->f);
    para(o, "torchelastic's root cause: ", "    ", line, "", "");
}

/* The launcher's own lines read all of the log (not only its head and
 * tail): only then are line numbers and attempts those of the log. */
static bool elastic_whole(const struct log_result *l)
{
    return l->info.bytes <= TREND_HEAD;
}

/* The rank of a GPU OOM event: its own, else srun --label's task number
 * at the start of its line (under srun a task is a rank); -1 unknown. */
static long event_rank(const struct oom_event *e)
{
    return e->rank >= 0 ? e->rank : msg_task_label(e->text, strnlen(e->text, sizeof e->text));
}

/* The first GPU OOM's rank (-1 unknown); *any: the log has one. */
static long first_oom_rank(const struct log_result *l, bool *any)
{
    *any = false;
    for (size_t i = 0; i < l->rep.n_events; i++)
        if (l->rep.events[i].gpu_oom) {
            *any = true;
            return event_rank(&l->rep.events[i]);
        }
    return -1;
}

/* What an srun task line means (lib/elastic): srun's "Out Of Memory" is
 * Slurm's cgroup OOM killer, host RAM, however like a GPU OOM it reads;
 * the other tasks' ends after a rank's GPU OOM are its consequences. */
static void srun_meaning(const struct log_result *l, const struct elastic_srun *t, char *buf, size_t size)
{
    bool any;
    long oom = first_oom_rank(l, &any);
    bool self = oom >= 0 && oom >= t->first_task && oom < t->first_task + t->n_tasks && t->n_tasks == 1;
    if (t->end == ELASTIC_SRUN_OOM)
        snprintf(buf, size, ": Slurm's memory cgroup killed %s: host RAM (the job's --mem), not GPU memory; %s",
                 t->n_tasks == 1 ? "it" : "them", CMD_HOST_RAM_FIXES);
    else if (t->end == ELASTIC_SRUN_TERMINATED)
        snprintf(buf, size, ": stopped by Slurm (after another task failed, --kill-on-bad-exit, scancel or the "
                            "time limit): a consequence, not a cause");
    else if (self)
        snprintf(buf, size, ": task %ld is rank %ld, which ran out of GPU memory: the cause", oom, oom);
    else if (oom >= 0)
        snprintf(buf, size, ": after rank %ld's GPU out-of-memory: a consequence, not a cause", oom);
    else if (any)
        snprintf(buf, size, ": the log has a GPU out-of-memory whose rank it does not say");
    else
        buf[0] = '\0';
}

static void print_launcher(const struct out *o, const struct log_result *l, bool name_log)
{
    const struct elastic_state *s = &l->elastic;
    char line[1200], at[40] = "", why[600], end[32];
    const char *pre = name_log ? l->path : "", *sep = name_log ? ": " : "";
    bool whole = elastic_whole(l);
    if (!s->sigterms && !s->restarts && !s->n_srun) return;
    fputc('\n', o->f);
    if (s->sigterms) {
        if (whole) snprintf(at, sizeof at, " (line %ld)", s->sigterm_line);
        snprintf(line, sizeof line, "%s%storchelastic's agent sent SIGTERM to %ld worker%s%s: it stops the others "
                 "once one fails, so their ends are consequences, not causes", pre, sep, s->sigterms,
                 s->sigterms == 1 ? "" : "s", at);
        para(o, "launcher: ", "    ", line, "", "");
    }
    if (s->restarts) {
        int n = snprintf(line, sizeof line, "%s%storchelastic restarted the workers %d time%s", pre, sep, s->restarts,
                         s->restarts == 1 ? "" : "s");
        for (size_t i = 0; whole && i < l->rep.n_events && n > 0 && (size_t)n < sizeof line; i++) {
            const struct oom_event *e = &l->rep.events[i];
            if (!e->gpu_oom) continue;
            char rank[24] = "";
            if (e->rank >= 0) snprintf(rank, sizeof rank, " of rank %d", e->rank);
            n += snprintf(line + n, sizeof line - (size_t)n, "; line %ld: GPU OOM%s in attempt %d", e->line, rank,
                          elastic_attempt_of_line(s, e->line));
        }
        if (!whole && n > 0 && (size_t)n < sizeof line)
            snprintf(line + n, sizeof line - (size_t)n, " (the log is read in part: attempts not numbered)");
        para(o, "launcher: ", "    ", line, "", "");
    }
    for (size_t i = 0; i < s->n_srun; i++) {
        const struct elastic_srun *t = &s->srun[i];
        at[0] = '\0';
        if (whole) snprintf(at, sizeof at, " (line %ld)", t->line);
        srun_meaning(l, t, why, sizeof why);
        snprintf(line, sizeof line, "%s%ssrun: task%s %s on %s: %s%s%s", pre, sep, t->n_tasks == 1 ? "" : "s",
                 t->tasks, t->host, elastic_srun_end_name(t, end, sizeof end), at, why);
        para(o, "launcher: ", "    ", line, "", "");
    }
    if (s->srun_dropped) fprintf(o->f, "launcher: %zu more srun task lines not shown\n", s->srun_dropped);
}

/* The torch hook's files: what the allocator held at the OOM. */
static void print_hook(const struct out *o, const struct hook_files *h)
{
    char line[4400], a[32], b[32], c[32], d[32];
    if (!h) return;
    fputc('\n', o->f);
    if (h->summary_path[0] && h->mem.present) {
        snprintf(line, sizeof line, "%s: device %d, %ld OOM%s, %ld cudaMalloc retr%s, allocated "
                 "%s, reserved %s, non-releasable %s", h->summary_path, h->mem.device,
                 h->mem.ooms, h->mem.ooms == 1 ? "" : "s", h->mem.retries,
                 h->mem.retries == 1 ? "y" : "ies",
                 units_format_bytes(h->mem.allocated_cur, a, sizeof a),
                 units_format_bytes(h->mem.reserved_cur, b, sizeof b),
                 units_format_bytes(h->mem.nonreleasable_cur, c, sizeof c));
        para(o, "Torch hook: ", "    ", line, "", "");
    }
    if (!h->snap) return;
    snprintf(line, sizeof line, "%s: device %d, reserved %s, allocated %s, largest free block "
             "%s of %s cached free", h->snapshot_path, h->snap_device,
             units_format_bytes(h->dev.reserved, a, sizeof a),
             units_format_bytes(h->dev.allocated, b, sizeof b),
             units_format_bytes(h->dev.largest_free, c, sizeof c),
             units_format_bytes(h->dev.cached_free, d, sizeof d));
    para(o, "Torch hook: ", "    ", line, "", "");
    for (size_t i = 0; i < h->n_top; i++) {
        snprintf(line, sizeof line, "%s in %ld block%s: %s",
                 units_format_bytes(h->top_bytes[i], a, sizeof a), h->top_count[i],
                 h->top_count[i] == 1 ? "" : "s", h->top[i]);
        para(o, "  held: ", "    ", line, "", "");
    }
}

static void print_judgement(const struct out *o, const struct run_result *r)
{
    char buf[400];
    bool head = false;
    for (int k = 0; k < VERDICT_COUNT; k++) {
        if (!verdict_has(&r->v, (enum verdict_kind)k)) continue;
        if (!head) fprintf(o->f, "\n%sVerdict%s\n", color_code(o->col, COLOR_BOLD),
                           color_code(o->col, COLOR_RESET));
        head = true;
        char item[520];
        snprintf(item, sizeof item, "%s: %s", verdict_name((enum verdict_kind)k),
                 verdict_explain(&r->v, (enum verdict_kind)k, buf, sizeof buf));
        para(o, "  - ", "    ", item, "", "");
    }
    if (!r->plan.n) return;
    fprintf(o->f, "\n%sFix plan%s (one change per run, in this order)\n",
            color_code(o->col, COLOR_BOLD), color_code(o->col, COLOR_RESET));
    for (size_t i = 0; i < r->plan.n; i++) {
        char num[32];
        snprintf(num, sizeof num, "  %zu. ", i + 1);
        para(o, num, "     ", r->plan.items[i].action, color_code(o->col, COLOR_GREEN),
             color_code(o->col, COLOR_RESET));
        para(o, "     why: ", "          ", r->plan.items[i].why, "", "");
    }
}

/* A run's job id: the first its logs say, else its run id's ledger row's
 * (recorded at run time from the launcher); NULL unknown. The one place
 * text and JSON take it from. */
static const char *run_job(const struct log_result *logs, const struct run_result *r)
{
    for (size_t k = 0; k < r->n_logs; k++)
        if (logs[r->logs[k]].job_id[0]) return logs[r->logs[k]].job_id;
    for (size_t k = 0; k < r->n_logs; k++)
        if (logs[r->logs[k]].ledger_job[0]) return logs[r->logs[k]].ledger_job;
    return NULL;
}

static void print_run_head(const struct out *o, const struct log_result *logs,
                           const struct run_result *r, size_t i, size_t nr)
{
    char line[8192];
    int at = snprintf(line, sizeof line, "run %zu of %zu: ", i + 1, nr);
    for (size_t k = 0; k < r->n_logs && at > 0 && (size_t)at < sizeof line; k++)
        at += snprintf(line + at, sizeof line - (size_t)at, "%s%s", k ? ", " : "",
                       logs[r->logs[k]].path);
    if (r->n_logs > 1 && at > 0 && (size_t)at < sizeof line) {
        const char *job = run_job(logs, r);
        bool same_job = r->link == JOBS_SAME_JOB;
        snprintf(line + at, sizeof line - (size_t)at, " (ranks of one job: %s%s%s)",
                 same_job                     ? "the same job id "
                 : r->link == JOBS_SAME_RUN   ? "the logs of one run"
                 : r->link == JOBS_RANK_NAME  ? "rank-numbered names"
                                              : "numbered names with distinct rank prefixes",
                 job && !same_job ? ", job " : "", job ? job : "");
    }
    fprintf(o->f, "%s== ", i ? "\n" : "");
    wrap(o, 3, "   ", line, color_code(o->col, COLOR_BOLD), color_code(o->col, COLOR_RESET));
}

static void print_run(const struct out *o, const struct log_result *logs,
                      const struct run_result *r)
{
    bool any = false;
    for (size_t k = 0; k < r->n_logs; k++) {
        const struct log_result *l = &logs[r->logs[k]];
        for (size_t i = 0; i < l->rep.n_events; i++) {
            print_event(o, l->path, &l->rep.events[i],
                        (long)(l->first_event + i) == r->primary);
            any = true;
        }
        if (l->rep.n_dropped)
            fprintf(o->f, "%s: %zu more events not shown\n", l->path, l->rep.n_dropped);
        print_context(o, l->path, &l->rep.context);
    }
    if (!any) fprintf(o->f, "no OOM found (%zu log%s)\n", r->n_logs, r->n_logs == 1 ? "" : "s");
    print_trend(o, &logs[r->trend_log], r->n_logs > 1);
    for (size_t k = 0; k < r->n_logs; k++) print_elastic(o, &logs[r->logs[k]], r->n_logs > 1);
    for (size_t k = 0; k < r->n_logs; k++) print_launcher(o, &logs[r->logs[k]], r->n_logs > 1);
    print_hook(o, r->hook);
    if (any) print_judgement(o, r);
}

static void print_text(FILE *f, const struct log_result *logs, size_t n,
                       const struct run_result *runs, size_t nr)
{
    struct out o = {f, color_enabled(f), out_width(f)};
    print_inputs(&o, logs, n);
    for (size_t i = 0; i < nr; i++) {
        if (nr > 1) print_run_head(&o, logs, &runs[i], i, nr);
        print_run(&o, logs, &runs[i]);
    }
}

/* ---- JSON ------------------------------------------------------------------ */

/* key: v, or null when v is unknown (negative). */
static void json_opt_long(struct json *j, const char *key, long v)
{
    json_key(j, key);
    v >= 0 ? json_int(j, v) : json_null(j);
}

/* The torch.cuda.memory_summary() table printed with the event, or null. */
static void json_memsummary(struct json *j, const struct oom_memsummary *m)
{
    if (!m->present) {
        json_null(j);
        return;
    }
    json_obj_begin(j);
    json_opt_long(j, "device", m->device);
    json_opt_long(j, "ooms", m->ooms);
    json_opt_long(j, "cudamalloc_retries", m->retries);
    json_key(j, "allocated_current"), json_bytes(j, m->allocated_cur);
    json_key(j, "allocated_peak"), json_bytes(j, m->allocated_peak);
    json_key(j, "reserved_current"), json_bytes(j, m->reserved_cur);
    json_key(j, "reserved_peak"), json_bytes(j, m->reserved_peak);
    json_key(j, "non_releasable_current"), json_bytes(j, m->nonreleasable_cur);
    json_key(j, "non_releasable_peak"), json_bytes(j, m->nonreleasable_peak);
    json_key(j, "fragmentation_evidence"), json_bool(j, memsummary_fragmented(m));
    json_obj_end(j);
}

static void json_event(struct json *j, const struct log_result *l, const struct oom_event *e)
{
    const char *path = l->path;
    json_obj_begin(j);
    json_key(j, "log"), json_str(j, path);
    json_key(j, "gpu_oom"), json_bool(j, e->gpu_oom);
    json_key(j, "kind"), json_str(j, e->kind);
    json_key(j, "framework"), json_str(j, e->framework);
    json_key(j, "line"), json_int(j, e->line);
    json_opt_long(j, "gpu", e->gpu);
    json_opt_long(j, "rank", e->rank);
    json_opt_long(j, "step", e->step);
    json_key(j, "stage"), json_str(j, oom_stage_name(e->stage));
    json_key(j, "consequence"), json_bool(j, e->consequence);
    json_key(j, "attempt"); /* torchelastic's: restarts before it; null when the log was read in part */
    elastic_whole(l) ? json_int(j, elastic_attempt_of_line(&l->elastic, e->line)) : json_null(j);
    json_key(j, "repeats"), json_int(j, e->repeats);
    json_key(j, "bytes");
    json_obj_begin(j);
    json_key(j, "requested"), json_bytes(j, e->bytes.requested);
    json_key(j, "capacity"), json_bytes(j, e->bytes.capacity);
    json_key(j, "free"), json_bytes(j, e->bytes.free);
    json_key(j, "allocated"), json_bytes(j, e->bytes.allocated);
    json_key(j, "reserved"), json_bytes(j, e->bytes.reserved);
    json_key(j, "reserved_unallocated"), json_bytes(j, e->bytes.reserved_unallocated);
    json_key(j, "process_in_use"), json_bytes(j, e->bytes.process_in_use);
    json_key(j, "allowed"), json_bytes(j, e->bytes.allowed);
    json_key(j, "other_in_use"), json_bytes(j, e->bytes.other_in_use);
    json_key(j, "private_pools"), json_bytes(j, e->bytes.private_pools);
    json_obj_end(j);
    json_key(j, "requested_from_shape"), json_bool(j, e->requested_from_shape);
    json_key(j, "shape");
    if (e->shape_rank > 0 && e->shape_rank <= 8) {
        json_arr_begin(j);
        for (int i = 0; i < e->shape_rank; i++) json_int(j, e->shape[i]);
        json_arr_end(j);
    } else {
        json_null(j);
    }
    json_key(j, "processes");
    json_arr_begin(j);
    for (size_t i = 0; i < e->n_procs; i++) {
        json_obj_begin(j);
        json_key(j, "pid"), json_int(j, e->procs[i].pid);
        json_key(j, "bytes"), json_bytes(j, e->procs[i].bytes);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_key(j, "memory_summary");
    json_memsummary(j, &e->mem);
    json_key(j, "text"), json_str(j, e->text);
    json_obj_end(j);
}

static void json_trend(struct json *j, const struct log_result *l)
{
    static const struct { unsigned figure; const char *name; } figures[] = {
        {STEPS_PEAK_ALLOC, "peak_alloc"}, {STEPS_PEAK_RESERVED, "peak_reserved"},
        {STEPS_MEM, "mem"}};
    const struct steps_mem_trend *t = &l->trend;
    const char *figure = NULL;
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        if (figures[i].figure == t->kind) figure = figures[i].name;
    json_obj_begin(j);
    json_key(j, "trend"), json_str(j, steps_trend_name(t->trend, true));
    json_key(j, "figure"), json_str(j, figure);
    json_key(j, "points"), json_int(j, (long long)t->points);
    json_opt_long(j, "first_step", t->first_step);
    json_opt_long(j, "last_step", t->last_step);
    json_key(j, "first_bytes"), json_bytes(j, t->first_bytes);
    json_key(j, "last_bytes"), json_bytes(j, t->last_bytes);
    json_key(j, "bytes_per_100_steps");
    double slope = t->bytes_per_100_steps;
    !isnan(slope) && slope > -9.0e18 && slope < 9.0e18 ? json_int(j, (long long)slope)
                                                        : json_null(j);
    json_key(j, "clear_growth"), json_bool(j, plan_trend_clear(t));
    json_key(j, "lines_read");
    json_str(j, l->info.bytes > TREND_HEAD + TREND_TAIL ? "head-tail" : "all");
    json_obj_end(j);
}

/* torchelastic's Root Cause block (lib/elastic), or null. */
static void json_elastic(struct json *j, const struct elastic_root *r)
{
    if (!r->found) {
        json_null(j);
        return;
    }
    json_obj_begin(j);
    json_opt_long(j, "rank", r->rank);
    json_opt_long(j, "local_rank", r->local_rank);
    json_key(j, "host"), json_str(j, r->host[0] ? r->host : NULL);
    json_key(j, "time"), json_str(j, r->time[0] ? r->time : NULL);
    json_key(j, "exitcode");
    if (r->have_exitcode) json_int(j, r->exitcode);
    else json_null(j);
    json_opt_long(j, "signal", elastic_signal(r) ? elastic_signal(r) : -1);
    json_opt_long(j, "pid", r->pid);
    json_obj_end(j);
}

static const char *const srun_end_names[] = {
    [ELASTIC_SRUN_EXIT] = "exit", [ELASTIC_SRUN_OOM] = "out-of-memory",
    [ELASTIC_SRUN_TERMINATED] = "terminated", [ELASTIC_SRUN_OTHER] = "other",
};

/* The launcher's own lines (lib/elastic); line numbers and attempts null
 * when the log was read in part. */
static void json_launcher(struct json *j, const struct log_result *l)
{
    const struct elastic_state *s = &l->elastic;
    bool whole = elastic_whole(l);
    json_obj_begin(j);
    json_key(j, "restarts"), json_int(j, s->restarts);
    json_key(j, "agent_sigterms"), json_int(j, s->sigterms);
    json_key(j, "failures");
    json_arr_begin(j);
    for (size_t i = 0; i < s->n_failures; i++) {
        const struct elastic_root *f = &s->failures[i];
        json_obj_begin(j);
        json_opt_long(j, "rank", f->rank);
        json_opt_long(j, "local_rank", f->local_rank);
        json_key(j, "exitcode");
        f->have_exitcode ? json_int(j, f->exitcode) : json_null(j);
        json_opt_long(j, "pid", f->pid);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_key(j, "srun_tasks");
    json_arr_begin(j);
    for (size_t i = 0; i < s->n_srun; i++) {
        const struct elastic_srun *t = &s->srun[i];
        json_obj_begin(j);
        json_key(j, "host"), json_str(j, t->host);
        json_key(j, "tasks"), json_str(j, t->tasks);
        json_key(j, "first_task"), json_int(j, t->first_task);
        json_key(j, "n_tasks"), json_int(j, t->n_tasks);
        json_key(j, "end"), json_str(j, srun_end_names[t->end]);
        json_opt_long(j, "exitcode", t->exitcode);
        json_key(j, "reason"), json_str(j, t->reason);
        json_opt_long(j, "line", whole ? t->line : -1);
        json_opt_long(j, "attempt", whole ? t->attempt : -1);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_key(j, "srun_tasks_dropped"), json_int(j, (long long)s->srun_dropped);
    json_obj_end(j);
}

/* A read log's keys; the caller adds "error" and ends the object. */
static void json_log(struct json *j, const struct log_result *l)
{
    json_obj_begin(j);
    json_key(j, "path"), json_str(j, l->path);
    json_key(j, "run_id"), json_str(j, l->run_id);
    json_key(j, "run_state"), json_str(j, l->run_state);
    json_key(j, "run_end"), json_str(j, l->run_end[0] ? l->run_end : NULL);
    json_key(j, "config"), json_str(j, l->config_path[0] ? l->config_path : NULL);
    json_key(j, "encoding"), json_str(j, l->info.encoding);
    json_key(j, "bom"), json_bool(j, l->info.bom);
    json_key(j, "binary"), json_bool(j, l->info.binary);
    json_key(j, "truncated"), json_bool(j, l->info.truncated);
    json_key(j, "lines"), json_int(j, l->rep.lines);
    json_key(j, "events"), json_int(j, (long long)l->rep.n_events);
    json_key(j, "dropped"), json_int(j, (long long)l->rep.n_dropped);
    json_key(j, "expandable_segments_set"), json_bool(j, l->rep.expandable_set);
    json_key(j, "program_framework"), json_str(j, oom_report_program(&l->rep));
    json_key(j, "job_id"), json_str(j, l->job_id[0] ? l->job_id : NULL);
    json_key(j, "memory_trend"), json_trend(j, l);
    json_key(j, "torchelastic_root_cause"), json_elastic(j, &l->elastic.root);
    json_key(j, "launcher"), json_launcher(j, l);
    json_key(j, "context");
    const struct oom_context *c = &l->rep.context;
    if (c->call == OOM_CONTEXT_NONE) {
        json_null(j);
    } else {
        json_obj_begin(j);
        json_key(j, "call"), json_str(j, context_call_name(c->call));
        json_key(j, "evidence");
        json_arr_begin(j);
        for (size_t i = 0; i < c->n; i++) {
            json_obj_begin(j);
            json_key(j, "line"), json_int(j, c->evidence[i].line);
            json_key(j, "what"), json_str(j, c->evidence[i].what);
            json_key(j, "text"), json_str(j, c->evidence[i].text);
            json_obj_end(j);
        }
        json_arr_end(j);
        json_obj_end(j);
    }
}

/* primary, shortfall, verdicts, plan: of one run. */
static void json_judgement(struct json *j, const struct run_result *r)
{
    json_opt_long(j, "primary", r->primary);
    json_key(j, "shortfall"), json_bytes(j, r->v.shortfall);
    json_key(j, "verdicts");
    json_arr_begin(j);
    char buf[400];
    for (int k = 0; k < VERDICT_COUNT; k++) {
        if (!verdict_has(&r->v, (enum verdict_kind)k)) continue;
        json_obj_begin(j);
        json_key(j, "name"), json_str(j, verdict_name((enum verdict_kind)k));
        json_key(j, "detail");
        json_str(j, verdict_explain(&r->v, (enum verdict_kind)k, buf, sizeof buf));
        json_obj_end(j);
    }
    json_arr_end(j);
    json_key(j, "plan");
    json_arr_begin(j);
    for (size_t i = 0; i < r->plan.n; i++) {
        json_obj_begin(j);
        json_key(j, "id"), json_str(j, r->plan.items[i].id);
        json_key(j, "action"), json_str(j, r->plan.items[i].action);
        json_key(j, "why"), json_str(j, r->plan.items[i].why);
        json_obj_end(j);
    }
    json_arr_end(j);
}

static void json_hook(struct json *j, const struct hook_files *h)
{
    if (!h) {
        json_null(j);
        return;
    }
    json_obj_begin(j);
    json_key(j, "summary_file"), json_str(j, h->summary_path[0] ? h->summary_path : NULL);
    json_key(j, "memory_summary"), json_memsummary(j, &h->mem);
    json_key(j, "snapshot_file"), json_str(j, h->snap ? h->snapshot_path : NULL);
    json_key(j, "snapshot");
    if (h->snap) {
        json_obj_begin(j);
        json_key(j, "device"), json_int(j, h->snap_device);
        json_key(j, "reserved_bytes"), json_bytes(j, h->dev.reserved);
        json_key(j, "allocated_bytes"), json_bytes(j, h->dev.allocated);
        json_key(j, "largest_free_block_bytes"), json_bytes(j, h->dev.largest_free);
        json_key(j, "cached_free_bytes"), json_bytes(j, h->dev.cached_free);
        json_key(j, "requested_bytes"), json_bytes(j, h->dev.has_oom ? h->dev.oom_requested : -1);
        json_key(j, "device_free_bytes");
        json_bytes(j, h->dev.has_oom ? h->dev.oom_device_free : -1);
        json_key(j, "top");
        json_arr_begin(j);
        for (size_t i = 0; i < h->n_top; i++) {
            json_obj_begin(j);
            json_key(j, "frame"), json_str(j, h->top[i]);
            json_key(j, "bytes"), json_bytes(j, h->top_bytes[i]);
            json_key(j, "count"), json_int(j, h->top_count[i]);
            json_obj_end(j);
        }
        json_arr_end(j);
        json_obj_end(j);
    } else {
        json_null(j);
    }
    json_obj_end(j);
}

static void json_run(struct json *j, const struct log_result *logs, const struct run_result *r)
{
    json_obj_begin(j);
    json_key(j, "logs");
    json_arr_begin(j);
    for (size_t k = 0; k < r->n_logs; k++) json_str(j, logs[r->logs[k]].path);
    json_arr_end(j);
    json_key(j, "joined_by"), json_str(j, jobs_link_name(r->link));
    json_key(j, "root_cause_by"), json_str(j, r->first_by);
    json_key(j, "job_id"), json_str(j, run_job(logs, r));
    json_key(j, "memory_trend_log"), json_str(j, logs[r->trend_log].path);
    json_key(j, "memory_trend"), json_trend(j, &logs[r->trend_log]);
    json_key(j, "torch_hook"), json_hook(j, r->hook);
    json_judgement(j, r);
    json_obj_end(j);
}

/* An input that could not be resolved or read: said on stderr, and in the
 * JSON's logs[] where it was named, with its error (a script sees every
 * input). before: how many diagnosed logs come before it. */
struct log_failure {
    size_t before;
    char path[4096];
    struct oomlab_err err;
};
struct log_failures {
    struct log_failure *items;
    size_t n;
};

static void log_failures_add(struct log_failures *fs, size_t before, const char *path,
                             const struct oomlab_err *err)
{
    cmd_fail("diagnose", err, EXIT_USAGE);
    struct log_failure *p = realloc(fs->items, (fs->n + 1) * sizeof *p);
    if (!p) return; /* said on stderr all the same */
    fs->items = p;
    p[fs->n].before = before;
    snprintf(p[fs->n].path, sizeof p[fs->n].path, "%s", path);
    p[fs->n].err = *err;
    fs->n++;
}

static int failure_cmp(const void *a, const void *b)
{
    const struct log_failure *x = a, *y = b;
    return x->before < y->before ? -1 : x->before > y->before;
}

/* In before order; among equals as named (prepare's before run's is not
 * kept by qsort, so an insertion sort: a handful of items). */
static void sort_failures(struct log_failures *fs)
{
    for (size_t i = 1; i < fs->n; i++)
        for (size_t k = i; k > 0 && failure_cmp(&fs->items[k - 1], &fs->items[k]) > 0; k--) {
            struct log_failure t = fs->items[k];
            fs->items[k] = fs->items[k - 1];
            fs->items[k - 1] = t;
        }
}

/* logs[]'s entry for an input that was not read: its path and error, every
 * other key null. */
static void json_failed_log(struct json *j, const struct log_failure *f)
{
    static const char *const unknown[] = {"run_id", "run_state", "run_end", "config", "encoding", "bom", "binary", "truncated", "lines",
                                          "events", "dropped", "expandable_segments_set", "job_id",
                                          "memory_trend", "torchelastic_root_cause", "launcher", "context"};
    json_obj_begin(j);
    json_key(j, "path"), json_str(j, f->path);
    for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) json_key(j, unknown[i]), json_null(j);
    json_key(j, "error"), json_str(j, f->err.msg);
    json_obj_end(j);
}

static int print_json(FILE *f, const struct log_result *logs, size_t n,
                      const struct run_result *runs, size_t nr, const struct log_failures *fs)
{
    struct json j;
    json_init(&j, f, false);
    json_obj_begin(&j);
    json_key(&j, "schema"), json_str(&j, "oomlab.diagnose.v1");
    json_key(&j, "logs");
    json_arr_begin(&j);
    size_t k = 0; /* the failures stay where they were named (fs is in before order) */
    for (size_t l = 0; l < n; l++) {
        for (; k < fs->n && fs->items[k].before <= l; k++) json_failed_log(&j, &fs->items[k]);
        json_log(&j, &logs[l]);
        json_key(&j, "error"), json_null(&j);
        json_obj_end(&j);
    }
    for (; k < fs->n; k++) json_failed_log(&j, &fs->items[k]);
    json_arr_end(&j);
    json_key(&j, "events");
    json_arr_begin(&j);
    for (size_t l = 0; l < n; l++)
        for (size_t i = 0; i < logs[l].rep.n_events; i++)
            json_event(&j, &logs[l], &logs[l].rep.events[i]);
    json_arr_end(&j);
    if (nr) {
        json_judgement(&j, &runs[root_run(runs, nr)]);
    } else { /* no log could be read */
        json_key(&j, "primary"), json_null(&j);
        json_key(&j, "shortfall"), json_null(&j);
        json_key(&j, "verdicts"), json_arr_begin(&j), json_arr_end(&j);
        json_key(&j, "plan"), json_arr_begin(&j), json_arr_end(&j);
    }
    json_key(&j, "runs");
    json_arr_begin(&j);
    for (size_t i = 0; i < nr; i++) json_run(&j, logs, &runs[i]);
    json_arr_end(&j);
    json_key(&j, "input_errors"); /* lint --json's shape: {"path", "error"} per input not read */
    json_arr_begin(&j);
    for (size_t i = 0; i < fs->n; i++) {
        json_obj_begin(&j);
        json_key(&j, "path"), json_str(&j, fs->items[i].path);
        json_key(&j, "error"), json_str(&j, fs->items[i].err.msg);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    return json_finish(&j);
}

/* ---- recipe ---------------------------------------------------------------- */

static void log_init(struct log_result *l);

/* Release what a log holds and leave it empty (releasing it again is a no-op). */
static void log_clear(struct log_result *l)
{
    oom_report_release(&l->rep);
    steps_series_release(&l->series);
    if (l->config_path[0]) runcfg_release(&l->cfg);
    memset(l, 0, sizeof *l);
    log_init(l);
}

/* Logs that cannot be read are said and left out of the diagnosis; the
 * others are still diagnosed (as lint does, and grep), the JSON lists the
 * failures with their errors, and the exit is then 2. fs holds the
 * arguments prepare could not resolve (before: an index into logs). */
static int run(struct log_result *logs, size_t n, bool json, const struct runcfg *cfg,
               const char *dir, struct log_failures *fs)
{
    size_t kept = 0, resolved_failures = fs->n, f = 0;
    for (size_t l = 0; l < n; l++) {
        struct oomlab_err err = {{0}};
        for (; f < resolved_failures && fs->items[f].before <= l; f++) fs->items[f].before = kept;
        if (read_log(&logs[l], &err) < 0) {
            log_failures_add(fs, kept, logs[l].path, &err);
            log_clear(&logs[l]);
            continue;
        }
        if (kept != l) { /* move it down; path may point at its own resolved[] */
            bool own = logs[l].path == logs[l].resolved;
            memcpy(&logs[kept], &logs[l], sizeof *logs);
            if (own) logs[kept].path = logs[kept].resolved;
            memset(&logs[l], 0, sizeof *logs);
            log_init(&logs[l]);
        }
        kept++;
    }
    for (; f < resolved_failures; f++) fs->items[f].before = kept;
    sort_failures(fs);
    if (kept == 0) return json && print_json(stdout, logs, 0, NULL, 0, fs) < 0 ? EXIT_ERROR : EXIT_USAGE;
    n = kept;
    struct run_result *runs;
    long nr = build_runs(logs, n, cfg, dir, &runs);
    if (nr < 0) {
        fprintf(stderr, "oomlab diagnose: out of memory\n");
        return EXIT_ERROR;
    }
    int wrc = 0;
    if (json) wrc = print_json(stdout, logs, n, runs, (size_t)nr, fs);
    else print_text(stdout, logs, n, runs, (size_t)nr);
    bool found = false;
    for (long i = 0; i < nr; i++) {
        found |= runs[i].primary >= 0;
        run_release(&runs[i]);
    }
    free(runs);
    if (fflush(stdout) != 0 || ferror(stdout)) return EXIT_OK; /* main says it (or ends quietly on a closed pipe) */
    if (wrc < 0) {
        fprintf(stderr, "oomlab diagnose: cannot write output: out of memory\n");
        return EXIT_ERROR;
    }
    if (fs->n) {
        fprintf(stderr, "oomlab diagnose: the %s covers the %zu log%s that could be read, not the ones "
                        "named above (exit 2)%s\n", json ? "JSON" : "report", kept, kept == 1 ? "" : "s",
                json ? "; they are in its logs[] with their error" : "");
        return EXIT_USAGE;
    }
    return found ? EXIT_FOUND : EXIT_OK;
}

static void log_init(struct log_result *l)
{
    oom_report_init(&l->rep);
    steps_series_init(&l->series);
    elastic_init(&l->elastic);
    l->info.encoding = "utf-8";
}

/* Each run id's job id and state from its ledger row (DIR's, when it has
 * one): the launcher's job, recorded at run time, for logs that do not say
 * it; a run not done is said beside its log (table's words). */
static void ledger_rows(struct log_result *logs, size_t n, const char *dir)
{
    struct ledger lg;
    char path[4096];
    bool loaded = false;
    for (size_t l = 0; l < n; l++) {
        if (!logs[l].run_id) continue;
        struct oomlab_err err = {{0}};
        if (!loaded && ledger_io_load(NULL, dir, &lg, path, sizeof path, &err) < 0) return;
        loaded = true;
        const struct ledger_row *row = ledger_find(&lg, logs[l].run_id);
        if (!row) continue;
        snprintf(logs[l].ledger_job, sizeof logs[l].ledger_job, "%s", row->cell[LEDGER_JOB_ID]);
        logs[l].run_state = ledger_io_state(row);
        run_end_of(row->cell[LEDGER_NOTES], logs[l].run_end, sizeof logs[l].run_end);
        ledger_notes_host_oom(row->cell[LEDGER_NOTES], logs[l].run_host_oom, sizeof logs[l].run_host_oom);
    }
    if (loaded) ledger_release(&lg);
}

/* The logs to read: each argument's, and for a RUN_ID also its per-rank
 * logs (one job: they join as "same-run"). */
/* The files `run` writes beside a log (logs/ID_mem.csv, ID.idx,
 * ID_steps.csv), by their first bytes: `diagnose logs/(star)` is not meant to
 * read them as logs. Only regular files are looked at (a FIFO would be
 * consumed). */
static const char *const side_file_starts[] = {
    "# oomlab memory log v1", "# GPU memory not sampled", "# oomlab log index v1",
    "step,time,rank,local_rank,device,optimizer,",
};

static bool oomlab_side_file(const char *path)
{
    struct stat st;
    char head[64];
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    ssize_t got = read(fd, head, sizeof head);
    close(fd);
    for (size_t i = 0; got > 0 && i < sizeof side_file_starts / sizeof *side_file_starts; i++) {
        size_t len = strlen(side_file_starts[i]);
        if ((size_t)got >= len && !memcmp(head, side_file_starts[i], len)) return true;
    }
    return false;
}

static int prepare(char **paths, size_t n, const char *dir, bool json, const struct runcfg *cfg)
{
    char ***ranks = calloc(n, sizeof *ranks);
    size_t *n_ranks = calloc(n, sizeof *n_ranks), total = 0;
    int rc = 0;
    struct log_failures fs = {0}; /* the arguments that could not be resolved */
    if (!ranks || !n_ranks) goto oom;
    for (size_t a = 0; a < n; a++) {
        ranks[a] = rank_logs(paths[a], dir, &n_ranks[a]);
        total += 1 + n_ranks[a];
    }
    struct log_result *logs = calloc(total, sizeof *logs);
    if (!logs) goto oom;
    size_t nl = 0, side_files = 0;
    for (size_t a = 0; a < n && !rc; a++) {
        struct log_result *l = &logs[nl];
        log_init(l);
        struct oomlab_err err = {{0}};
        if (n > 1 && n_ranks[a] == 0 && oomlab_side_file(paths[a])) { /* one named alone is read */
            side_files++;
            continue;
        }
        int r = resolve(paths[a], dir, n_ranks[a] > 0, l, &err);
        if (r < 0) { /* said; the other arguments are still read */
            log_failures_add(&fs, nl, paths[a], &err);
            log_clear(l);
            continue;
        }
        if (r == 0) nl++;
        if (r == 0 && l->run_id) { /* a wrapped launcher's run: its rank logs are copies of ID.log's lines */
            for (size_t k = 0; k < n_ranks[a]; k++) free(ranks[a][k]);
            n_ranks[a] = 0;
        }
        for (size_t k = 0; k < n_ranks[a] && !rc; k++) {
            l = &logs[nl++];
            log_init(l);
            snprintf(l->resolved, sizeof l->resolved, "%s", ranks[a][k]);
            l->path = l->resolved;
            l->run_id = paths[a];
            if (r == 1 && k == 0) run_config(dir, paths[a], l); /* the run's config, once */
        }
    }
    if (side_files)
        fprintf(stderr, "oomlab diagnose: skipped %zu of oomlab run's own files (memory CSVs, log indexes, "
                        "step files): they are not logs\n", side_files);
    if (!rc) ledger_rows(logs, nl, dir);
    if (!rc) rc = nl || fs.n ? run(logs, nl, json, cfg, dir, &fs) : EXIT_USAGE;
    free(fs.items);
    for (size_t l = 0; l < total; l++) {
        oom_report_release(&logs[l].rep);
        steps_series_release(&logs[l].series);
        if (logs[l].config_path[0]) runcfg_release(&logs[l].cfg);
    }
    free(logs);
    goto done;
oom:
    fprintf(stderr, "oomlab diagnose: out of memory\n");
    rc = EXIT_ERROR;
done:
    for (size_t a = 0; ranks && a < n; a++) {
        for (size_t k = 0; k < n_ranks[a]; k++) free(ranks[a][k]);
        free(ranks[a]);
    }
    free(ranks);
    free(n_ranks);
    return rc;
}

struct diagnose_cli {
    bool json;
    const char *config, *dir;
};

#define AT(f) OPT_FIELD(struct diagnose_cli, f)
static const struct opt_spec specs[] = {
    {.name = "json", .letter = 'j', .help = "one JSON object, schema oomlab.diagnose.v1", AT(json)},
    {.name = "config", .letter = 'c', .metavar = "FILE", .parse = opt_config, AT(config),
     .help = "the run's config (YAML or JSON): the plan names its values"},
    {.name = "dir", .letter = 'd', .metavar = "DIR", .parse = opt_dir, AT(dir),
     .help = "where a RUN_ID's logs/ID.log (and configs/ID.yaml, for the\n"
             "plan's values) are (default .); a file path wins"},
    {0},
};
#undef AT
static const struct opt_table opt_table = {.command = "diagnose", .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs};
CMD_OPTIONS(cmd_diagnose_options, opt_table)

int cmd_diagnose(int argc, char **argv)
{
    struct diagnose_cli cli = {.dir = "."};
    int first, rc = cmd_options(&opt_table, argc, argv, &cli, &first);
    if (rc != CMD_CONTINUE) return rc;
    struct stat st;
    if (stat(cli.dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cmd_usage_error("diagnose", "--dir %s: not a directory", cli.dir);
    struct runcfg cfg;
    bool have_cfg = false;
    if (cli.config) {
        struct oomlab_err err = {{0}};
        if (load_config(cli.config, &cfg, &err) < 0) return cmd_fail("diagnose", &err, EXIT_USAGE);
        have_cfg = true;
    }
    static char *stdin_only[] = {"-"};
    if (first >= argc && isatty(STDIN_FILENO)) /* else a bare `oomlab diagnose` looks hung */
        fputs("oomlab diagnose: reading a log from the terminal: paste it, then Ctrl-D "
              "(or give LOG or RUN_ID; --help)\n", stderr);
    char **paths = first < argc ? argv + first : stdin_only;
    size_t n = first < argc ? (size_t)(argc - first) : 1;
    rc = prepare(paths, n, cli.dir, cli.json, have_cfg ? &cfg : NULL);
    if (have_cfg) runcfg_release(&cfg);
    return rc;
}
