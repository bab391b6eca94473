/* memlog: the GPU memory CSV of `run` and `watch --csv` (see memlog.h).
 * The format lives only here. Rows are built in memory and written with one
 * write(2) per tick; a failed write is rolled back with ftruncate so readers
 * never see half a row, and remembered for memlog_close. */
#include "sys/memlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "lib/units.h"
#include "sys/fsutil.h"
#include "sys/proc.h"

#define MEMLOG_COLUMNS "timestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib"
#define TREE_MAX 4096

struct tree_member {
    pid_t pid;
    unsigned long long start_ticks;
    bool member;
    long rank, attempt; /* a member's, from its environment; rank -1 none */
};

struct memlog {
    int fd;
    char path[1024];
    struct nvml *nv;
    unsigned *gpus;
    struct memlog_peak *peaks;
    size_t n_gpus;
    pid_t root_pid;
    struct timespec t0;
    off_t good_size;                   /* file size after the last complete write */
    struct tree_member tree[TREE_MAX]; /* pids already placed in or out of root's tree */
    size_t n_tree;
    struct memlog_rank_peak ranks[MEMLOG_RANKS]; /* per rank and attempt, the highest tick sum */
    int64_t rank_tick[MEMLOG_RANKS];             /* this tick's sum so far; -1 none */
    size_t n_ranks;
    bool failed;
    bool lost; /* a row could not be built (out of memory): drop the tick */
    struct oomlab_err fail;
    char warning[512];
    char *buf; /* rows of the tick being written */
    size_t len, cap;
};

const char *memlog_columns(void)
{
    return MEMLOG_COLUMNS;
}

static void append(struct memlog *ml, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(struct memlog *ml, const char *fmt, ...)
{
    for (int pass = 0; pass < 2; pass++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(ml->buf + ml->len, ml->cap - ml->len, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if ((size_t)n < ml->cap - ml->len) {
            ml->len += (size_t)n;
            return;
        }
        char *grown = strbuf_grow(ml->buf, &ml->cap, ml->len + (size_t)n + 1, 1, SIZE_MAX);
        if (!grown) {
            ml->lost = true; /* flush drops the whole tick rather than write half a row */
            return;
        }
        ml->buf = grown;
    }
}

/* One write of the pending buffer; on failure cut the file back. */
static int flush(struct memlog *ml, struct oomlab_err *err)
{
    size_t off = 0;
    int saved = 0;
    if (ml->lost) {
        ml->len = 0;
        ml->lost = false;
        ml->failed = true;
        oomlab_err_set(&ml->fail, "out of memory: samples dropped from %s", ml->path);
        return oomlab_err_set(err, "out of memory: samples dropped from %s", ml->path);
    }
    while (off < ml->len) {
        ssize_t w = write(ml->fd, ml->buf + off, ml->len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            saved = w < 0 ? errno : ENOSPC;
            break;
        }
        off += (size_t)w;
    }
    size_t len = ml->len;
    ml->len = 0;
    if (off == len) {
        ml->good_size += (off_t)len;
        return 0;
    }
    if (ftruncate(ml->fd, ml->good_size) == 0) lseek(ml->fd, ml->good_size, SEEK_SET);
    /* what is there stays: whole rows, up to the one that failed */
    if (ml->good_size > 0)
        oomlab_err_set(err, "cannot write %s: %s; it keeps the %lld bytes written before", ml->path,
                       strerror(saved), (long long)ml->good_size);
    else
        oomlab_err_set(err, "cannot write %s: %s", ml->path, strerror(saved));
    if (!ml->failed) ml->fail = *err;
    ml->failed = true;
    return -1;
}

static void iso_now(char *buf, size_t size)
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, size, "%.20s.%03dZ", date, (int)(ts.tv_nsec / 1000000));
}

/* Header facts are free text: keep them on their '#' line. */
static void append_clean(struct memlog *ml, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        append(ml, "%c", c < 0x20 || c == 0x7f ? '?' : (char)c);
    }
}

static void append_mib(struct memlog *ml, int64_t bytes)
{
    if (bytes >= 0) append(ml, "%lld", (long long)((bytes + (1 << 19)) >> 20));
    append(ml, ",");
}

static void write_header(struct memlog *ml, const char *command)
{
    char when[40], host[256] = "", driver[96];
    iso_now(when, sizeof when);
    if (gethostname(host, sizeof host - 1) < 0) host[0] = '\0';
    nvml_driver(ml->nv, driver, sizeof driver);
    append(ml, "# oomlab memory log v1\n# start: %s\n# command: ", when);
    append_clean(ml, command);
    append(ml, "\n# host: ");
    append_clean(ml, host);
    append(ml, "\n# root_pid: ");
    if (ml->root_pid > 0) append(ml, "%ld", (long)ml->root_pid);
    append(ml, "\n# driver: ");
    append_clean(ml, driver);
    append(ml, "\n");
    for (size_t i = 0; i < ml->n_gpus; i++) {
        struct nvml_gpu g;
        struct oomlab_err e;
        append(ml, "# gpu %u: ", ml->gpus[i]);
        if (nvml_gpu(ml->nv, ml->gpus[i], &g, &e) == 0) {
            append_clean(ml, g.name);
            append(ml, ", total_mib=");
            append_mib(ml, g.total);
            ml->len--; /* drop the ',' */
            ml->peaks[i].total = g.total;
        } else {
            append_clean(ml, e.msg);
        }
        append(ml, "\n");
    }
    append(ml, "%s\n", MEMLOG_COLUMNS);
}

static int select_gpus(struct memlog *ml, const unsigned *gpus, size_t n_gpus,
                       struct oomlab_err *err)
{
    unsigned count = 0;
    if (n_gpus == 0 && nvml_count(ml->nv, &count, err) < 0) return -1;
    size_t n = n_gpus ? n_gpus : count;
    ml->gpus = calloc(n ? n : 1, sizeof *ml->gpus);
    ml->peaks = calloc(n ? n : 1, sizeof *ml->peaks);
    if (!ml->gpus || !ml->peaks) return oomlab_err_set(err, "out of memory");
    for (size_t i = 0; i < n; i++) {
        ml->gpus[i] = n_gpus ? gpus[i] : (unsigned)i;
        ml->peaks[i] =
            (struct memlog_peak){.gpu = ml->gpus[i], .total = -1, .used_peak = -1, .tree_peak = -1,
                                .used_first = -1, .used_last = -1, .tree_last = -1, .free_last = -1};
    }
    ml->n_gpus = n;
    return 0;
}

static void memlog_free(struct memlog *ml)
{
    if (ml->fd >= 0) close(ml->fd);
    free(ml->gpus);
    free(ml->peaks);
    free(ml->buf);
    free(ml);
}

/* Not even the header could be written: a file this open created holds
 * nothing and is removed (no empty FILE left to look like a log); one that
 * was there (empty, or replaced with --force) stays, emptied, and err says
 * which. */
static void header_failed(struct memlog *ml, bool created, struct oomlab_err *err)
{
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    if (created && unlink(ml->path) == 0)
        oomlab_err_set(err, "%s; removed %s, which it had just created", msg, ml->path);
    else
        oomlab_err_set(err, "%s; %s is left empty", msg, ml->path);
}

int memlog_open(struct memlog **out, struct nvml *nv, const char *path, const unsigned *gpus,
                size_t n_gpus, pid_t root_pid, const char *command, struct oomlab_err *err)
{
    *out = NULL;
    struct memlog *ml = calloc(1, sizeof *ml);
    if (!ml) return oomlab_err_set(err, "out of memory");
    ml->fd = -1;
    ml->nv = nv;
    ml->root_pid = root_pid;
    snprintf(ml->path, sizeof ml->path, "%s", path);
    clock_gettime(CLOCK_MONOTONIC, &ml->t0);
    ml->cap = 4096;
    ml->buf = malloc(ml->cap);
    if (!ml->buf || select_gpus(ml, gpus, n_gpus, err) < 0) {
        if (!ml->buf) oomlab_err_set(err, "out of memory");
        memlog_free(ml);
        return -1;
    }
    /* O_EXCL first: whether the file is ours tells what to do with it when
     * even the header cannot be written (full disk, ulimit -f) */
    bool created = true;
    ml->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (ml->fd < 0 && errno == EEXIST) {
        created = false;
        ml->fd = fsutil_open_nofollow(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, err);
    } else if (ml->fd < 0) {
        oomlab_err_set(err, "cannot create %s: %s", path, strerror(errno));
    }
    if (ml->fd < 0) {
        memlog_free(ml);
        return -1;
    }
    write_header(ml, command);
    if (flush(ml, err) < 0) {
        header_failed(ml, created, err);
        memlog_free(ml);
        return -1;
    }
    *out = ml;
    return 0;
}

static const struct tree_member *tree_known(const struct memlog *ml, pid_t pid,
                                            unsigned long long start)
{
    for (size_t i = 0; i < ml->n_tree; i++)
        if (ml->tree[i].pid == pid && ml->tree[i].start_ticks == start) return &ml->tree[i];
    return NULL;
}

/* Is pid in root's tree? The answer is remembered per (pid, start time):
 * a member stays one after its parent dies and it is reparented, and an
 * outsider never becomes a descendant later. oomlab itself counts as an
 * ancestor when root is its child (run may be a subreaper). */
static bool in_tree(struct memlog *ml, pid_t pid, bool *visible, const struct tree_member **who)
{
    pid_t parent;
    unsigned long long start;
    static struct tree_member unkept;
    *who = NULL;
    *visible = proc_parent(pid, &parent, &start) == 0;
    if (!*visible) return false;
    const struct tree_member *known = tree_known(ml, pid, start);
    if (known) return *who = known, known->member;
    pid_t self = getpid(), root_parent = 0;
    bool mine = proc_in_tree(pid, ml->root_pid) ||
                (pid != self && proc_parent(ml->root_pid, &root_parent, NULL) == 0 &&
                 root_parent == self && proc_in_tree(pid, self));
    struct tree_member m = {pid, start, mine, -1, 0};
    if (mine) proc_rank(pid, &m.rank, &m.attempt); /* read once per process */
    if (ml->n_tree < TREE_MAX) ml->tree[ml->n_tree] = m, *who = &ml->tree[ml->n_tree++];
    else unkept = m, *who = &unkept;
    return mine;
}

/* A rank's bytes on one GPU, added to this tick's sum for it. */
static void rank_add(struct memlog *ml, const struct tree_member *m, int64_t bytes)
{
    size_t i = 0;
    if (!m || m->rank < 0 || bytes < 0) return;
    while (i < ml->n_ranks && (ml->ranks[i].rank != m->rank || ml->ranks[i].attempt != m->attempt)) i++;
    if (i == ml->n_ranks) {
        if (i == MEMLOG_RANKS) return;
        ml->ranks[ml->n_ranks++] = (struct memlog_rank_peak){m->rank, m->attempt, -1};
        ml->rank_tick[i] = -1;
    }
    int64_t sum;
    ml->rank_tick[i] = ml->rank_tick[i] < 0 ? bytes : units_add(ml->rank_tick[i], bytes, &sum) ? sum : INT64_MAX;
}

static void rank_tick_end(struct memlog *ml)
{
    for (size_t i = 0; i < ml->n_ranks; i++) {
        if (ml->rank_tick[i] > ml->ranks[i].peak) ml->ranks[i].peak = ml->rank_tick[i];
        ml->rank_tick[i] = -1;
    }
}

size_t memlog_rank_peaks(const struct memlog *ml, struct memlog_rank_peak *out, size_t max)
{
    size_t n = ml->n_ranks < max ? ml->n_ranks : max;
    memcpy(out, ml->ranks, n * sizeof *out);
    return n;
}

/* Bytes held by root's tree on one GPU; -1 unknown. */
static int64_t tree_used(struct memlog *ml, const struct nvml_proc *procs, size_t n)
{
    int64_t sum = 0;
    size_t hidden = 0, unknown = 0, members = 0;
    for (size_t i = 0; i < n; i++) {
        bool visible;
        const struct tree_member *who;
        if (!in_tree(ml, (pid_t)procs[i].pid, &visible, &who)) {
            hidden += !visible;
            continue;
        }
        members++;
        rank_add(ml, who, procs[i].used);
        if (procs[i].used < 0 || !units_add(sum, procs[i].used, &sum)) unknown++;
    }
    if (members == 0 && hidden > 0) return -1; /* NVML pids from another namespace */
    if (members > 0 && unknown == members) return -1;
    return sum;
}

int memlog_tick(struct memlog *ml, struct oomlab_err *err)
{
    struct nvml_gpu gpus[64];
    struct memlog_sample s[64];
    size_t n = ml->n_gpus < 64 ? ml->n_gpus : 64;
    for (size_t i = 0; i < n; i++) {
        struct oomlab_err e;
        s[i] = (struct memlog_sample){.gpu = NULL, .index = ml->gpus[i], .tree_used = -1};
        if (nvml_gpu(ml->nv, ml->gpus[i], &gpus[i], &e) < 0) {
            if (!ml->warning[0]) snprintf(ml->warning, sizeof ml->warning, "%s", e.msg);
            continue;
        }
        s[i].gpu = &gpus[i];
        if (ml->root_pid <= 0) continue;
        struct nvml_proc *procs;
        size_t np;
        if (nvml_procs(ml->nv, ml->gpus[i], &procs, &np, &e) < 0) {
            if (!ml->warning[0]) snprintf(ml->warning, sizeof ml->warning, "%s", e.msg);
            continue;
        }
        s[i].tree_used = tree_used(ml, procs, np);
        free(procs);
    }
    rank_tick_end(ml);
    return memlog_record(ml, s, n, err);
}

static struct memlog_peak *peak_for(struct memlog *ml, unsigned index)
{
    for (size_t i = 0; i < ml->n_gpus; i++)
        if (ml->peaks[i].gpu == index) return &ml->peaks[i];
    return NULL;
}

int memlog_record(struct memlog *ml, const struct memlog_sample *s, size_t n,
                  struct oomlab_err *err)
{
    char when[40];
    struct timespec now;
    iso_now(when, sizeof when);
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long ms =
        (long long)(now.tv_sec - ml->t0.tv_sec) * 1000 + (now.tv_nsec - ml->t0.tv_nsec) / 1000000;
    for (size_t i = 0; i < n; i++) {
        const struct nvml_gpu *g = s[i].gpu;
        unsigned index = g ? g->index : s[i].index;
        append(ml, "%s,%lld,%u,", when, ms, index);
        append_mib(ml, g ? g->used : -1);
        append_mib(ml, g ? g->total : -1);
        append_mib(ml, g ? g->free : -1);
        if (g && g->util_gpu >= 0) append(ml, "%d", g->util_gpu);
        append(ml, ",");
        if (s[i].tree_used >= 0)
            append(ml, "%lld", (long long)((s[i].tree_used + (1 << 19)) >> 20));
        append(ml, "\n");
        struct memlog_peak *p = peak_for(ml, index);
        if (!p) continue;
        p->samples++;
        if (g && g->total >= 0) p->total = g->total;
        if (g && g->used >= 0 && p->used_first < 0) p->used_first = g->used;
        if (g && g->used > p->used_peak) p->used_peak = g->used;
        if (s[i].tree_used > p->tree_peak) p->tree_peak = s[i].tree_used;
        if (g && ml->root_pid > 0 && s[i].tree_used < 0) p->tree_unknown++;
        p->used_last = g ? g->used : -1;
        p->free_last = g ? g->free : -1;
        p->tree_last = s[i].tree_used;
    }
    return flush(ml, err);
}

size_t memlog_peaks(const struct memlog *ml, struct memlog_peak *out, size_t max)
{
    size_t n = ml->n_gpus < max ? ml->n_gpus : max;
    memcpy(out, ml->peaks, n * sizeof *out);
    return n;
}

const char *memlog_warning(const struct memlog *ml)
{
    return ml && ml->warning[0] ? ml->warning : NULL;
}

int memlog_close(struct memlog *ml, struct oomlab_err *err)
{
    if (!ml) return 0;
    char when[40];
    iso_now(when, sizeof when);
    append(ml, "# end: %s\n", when);
    for (size_t i = 0; i < ml->n_gpus; i++) {
        const struct memlog_peak *p = &ml->peaks[i];
        append(ml, "# peak gpu %u: used_mib=", p->gpu);
        append_mib(ml, p->used_peak);
        append(ml, "tree_mib=");
        append_mib(ml, p->tree_peak);
        append(ml, "total_mib=");
        append_mib(ml, p->total);
        append(ml, "samples=%ld\n", p->samples);
    }
    flush(ml, NULL);
    if (close(ml->fd) < 0 && !ml->failed) {
        oomlab_err_set(&ml->fail, "cannot write %s: %s", ml->path, strerror(errno));
        ml->failed = true;
    }
    ml->fd = -1;
    int rc = ml->failed ? oomlab_err_set(err, "%s", ml->fail.msg) : 0;
    memlog_free(ml);
    return rc;
}
