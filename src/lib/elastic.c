#include "lib/elastic.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void root_init(struct elastic_root *r)
{
    memset(r, 0, sizeof *r);
    r->rank = r->local_rank = r->pid = -1;
}

void elastic_init(struct elastic_state *s)
{
    memset(s, 0, sizeof *s);
    root_init(&s->root);
    s->sigterm_line = -1;
    s->cur = -1;
}

/* A decimal (optionally negative) at *p, advancing it; 0 when none. */
static int read_long(const char **p, const char *end, long *out)
{
    const char *q = *p;
    bool neg = q < end && *q == '-';
    if (neg) q++;
    if (q == end || *q < '0' || *q > '9') return 0;
    long v = 0;
    for (; q < end && *q >= '0' && *q <= '9'; q++) {
        if (v > (INT32_MAX - 9) / 10) return 0; /* ranks, pids and codes are small */
        v = v * 10 + (*q - '0');
    }
    *out = neg ? -v : v;
    *p = q;
    return 1;
}

/* needle in [s, end), or NULL. Every line of a run's log passes here
 * several times, so the search looks for one byte of the needle that is
 * rare in logs (an upper-case letter, (, ; or :, else its first) with
 * memchr and compares around it (CPU time on 2 M short lines: the whole of
 * elastic_line 0.28 s, where glibc's memmem for its six needles alone took
 * 0.36 s). */
static const char *find(const char *s, const char *end, const char *needle)
{
    size_t n = strlen(needle), at = 0;
    /* a line shorter than the needle first: most lines of a log of short
     * lines are, and picking the byte cost more than the search */
    if (s >= end || (size_t)(end - s) < n) return NULL;
    while (at < n && !strchr("(;:ABCDEFGHIJKLMNOPQRSTUVWXYZ", needle[at])) at++;
    if (at == n) at = 0;
    for (const char *p = s + at, *last = end - (n - at); p < last + 1;) {
        const char *hit = memchr(p, needle[at], (size_t)(last + 1 - p));
        if (!hit) return NULL;
        if (!memcmp(hit - at, needle, n)) return hit - at;
        p = hit + 1;
    }
    return NULL;
}

static void copy_value(char *dst, size_t cap, const char *v, const char *end)
{
    while (v < end && *v == ' ') v++;
    while (end > v && (end[-1] == ' ' || end[-1] == '\r')) end--;
    size_t n = (size_t)(end - v) < cap - 1 ? (size_t)(end - v) : cap - 1;
    memcpy(dst, v, n);
    dst[n] = '\0';
}

/* The agent's own line before the table (torch/distributed/elastic/
 * multiprocessing/api.py): "failed (exitcode: -9) local_rank: 2 (pid: 161617)
 * of binary: ...". */
static void agent_line(struct elastic_root *r, const char *line, const char *end)
{
    const char *at = find(line, end, "failed (exitcode: ");
    if (!at) return;
    const char *q = at + strlen("failed (exitcode: ");
    long code, n;
    if (!read_long(&q, end, &code) || q >= end || *q != ')') return;
    r->exitcode = code, r->have_exitcode = r->found = true;
    const char *lr = find(q, end, "local_rank: ");
    if (lr && (q = lr + strlen("local_rank: "), read_long(&q, end, &n))) r->local_rank = n;
    const char *pid = find(q, end, "(pid: ");
    if (pid && (q = pid + strlen("(pid: "), read_long(&q, end, &n))) r->pid = n;
}

/* The fields of the table, by key. */
enum field { F_TIME, F_HOST, F_RANK, F_EXITCODE, F_NONE };
static const struct {
    const char *key;
    enum field f;
} fields[] = {{"time", F_TIME}, {"host", F_HOST}, {"rank", F_RANK}, {"exitcode", F_EXITCODE}};

/* One "key : value" line of a block into r; true when it was a field. */
static bool table_field(struct elastic_root *r, const char *line, const char *end)
{
    const char *colon = find(line, end, ":");
    if (!colon) return false;
    const char *k = colon;
    while (k > line && k[-1] == ' ') k--;
    const char *kb = k;
    while (kb > line && kb[-1] >= 'a' && kb[-1] <= 'z') kb--;
    enum field f = F_NONE;
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if ((size_t)(k - kb) == strlen(fields[i].key) && !memcmp(kb, fields[i].key, (size_t)(k - kb)))
            f = fields[i].f;
    const char *v = colon + 1;
    while (v < end && *v == ' ') v++;
    long n;
    switch (f) {
    case F_TIME: copy_value(r->time, sizeof r->time, v, end); return true;
    case F_HOST: copy_value(r->host, sizeof r->host, v, end); return true;
    case F_RANK:
        if (!read_long(&v, end, &n)) return false;
        r->rank = n, r->found = true;
        const char *lr = find(v, end, "local_rank:");
        const char *q = lr ? lr + strlen("local_rank:") : NULL;
        while (q && q < end && *q == ' ') q++;
        if (q && read_long(&q, end, &n)) r->local_rank = n;
        return true;
    case F_EXITCODE:
        if (!read_long(&v, end, &n)) return false;
        r->exitcode = n, r->have_exitcode = r->found = true;
        const char *pid = find(v, end, "pid:");
        const char *p = pid ? pid + 4 : NULL;
        while (p && p < end && *p == ' ') p++;
        if (p && read_long(&p, end, &n)) r->pid = n;
        return true;
    case F_NONE: break;
    }
    return false;
}

/* "[1]:" alone: the next worker of a table. */
static bool index_line(const char *line, const char *end)
{
    return find(line, end, "]:") && !find(line, end, " : ") && !find(line, end, ": ");
}

static void start_root(struct elastic_state *s)
{
    if (!s->root_from_table) root_init(&s->root); /* the table wins over the agent's line */
    s->in_block = 1;
    s->cur = -1;
    s->block_read = false;
}

/* The ChildFailedError tables: "Failures:" then "Root Cause (first
 * observed failure):", each a list of "[N]:" blocks, closed by "=====".
 * The first table's root cause is the log's; every block is a failure. */
static void table_line(struct elastic_state *s, const char *line, const char *end)
{
    if (s->in_block != 1 && s->in_block != 3) {
        if (find(line, end, "Root Cause (first observed failure):")) start_root(s);
        else if (find(line, end, "Failures:") && !find(line, end, "Failures: ")) s->in_block = 3, s->cur = -1;
        else if (!s->root.found) agent_line(&s->root, line, end);
        return;
    }
    if (find(line, end, "=====")) { /* the table's closing rule */
        if (s->in_block == 1 && s->root.found) s->root_from_table = true;
        s->in_block = 0;
        return;
    }
    if (s->in_block == 3 && find(line, end, "Root Cause (first observed failure):")) {
        start_root(s);
        return;
    }
    if (index_line(line, end)) {
        if (s->in_block == 1 && !s->root_from_table) s->root_entries++;
        if (s->in_block == 1 && s->block_read) { /* "[1]:": a second failure; the first is the root */
            s->root_from_table = true;
            s->in_block = 0;
        }
        s->cur = -1;
        return;
    }
    struct elastic_root probe;
    root_init(&probe);
    if (!table_field(&probe, line, end)) return;
    s->block_read = true;
    if (s->in_block == 1 && !s->root_from_table) table_field(&s->root, line, end);
    if (s->cur < 0 && s->n_failures < ELASTIC_MAX_FAILURES) {
        s->cur = (long)s->n_failures++;
        root_init(&s->failures[s->cur]);
    }
    if (s->cur >= 0) table_field(&s->failures[s->cur], line, end);
}

/* "srun: error: HOST: task(s) LIST: REASON". */
static const struct {
    const char *reason; /* the line's end starts with it */
    enum elastic_srun_end end;
} srun_ends[] = {
    {"Exited with exit code ", ELASTIC_SRUN_EXIT},
    {"Out Of Memory", ELASTIC_SRUN_OOM},
    {"Terminated", ELASTIC_SRUN_TERMINATED},
};

/* "0", "1-3", "0-57,59-63": how many tasks and the lowest; 0 when not a list. */
static int task_list(const char *p, const char *end, long *first, long *count)
{
    *first = -1, *count = 0;
    while (p < end) {
        long a, b;
        if (!read_long(&p, end, &a) || a < 0) return 0;
        b = a;
        if (p < end && *p == '-') {
            p++;
            if (!read_long(&p, end, &b) || b < a) return 0;
        }
        if (*first < 0 || a < *first) *first = a;
        if (*count < INT32_MAX - (b - a + 1)) *count += b - a + 1;
        if (p < end && *p != ',') return 0;
        if (p < end) p++;
    }
    return *count > 0;
}

static void srun_line(struct elastic_state *s, const char *line, const char *end)
{
    const char *at = find(line, end, "srun: error: ");
    if (!at) return;
    const char *host = at + strlen("srun: error: "), *colon = find(host, end, ": task");
    if (!colon || find(host, colon, " ")) return;
    const char *list = colon + strlen(": task");
    if (list < end && *list == 's') list++;
    if (list >= end || *list != ' ') return;
    list++;
    const char *list_end = find(list, end, ": ");
    struct elastic_srun t = {.exitcode = -1, .line = s->line, .attempt = s->restarts};
    if (!list_end || !task_list(list, list_end, &t.first_task, &t.n_tasks)) return;
    if (s->n_srun == ELASTIC_MAX_SRUN) {
        s->srun_dropped++;
        return;
    }
    copy_value(t.host, sizeof t.host, host, colon);
    copy_value(t.tasks, sizeof t.tasks, list, list_end);
    copy_value(t.reason, sizeof t.reason, list_end + 2, end);
    t.end = ELASTIC_SRUN_OTHER;
    for (size_t i = 0; i < sizeof srun_ends / sizeof *srun_ends; i++) {
        size_t n = strlen(srun_ends[i].reason);
        if (strncmp(t.reason, srun_ends[i].reason, n)) continue;
        const char *q = list_end + 2 + n;
        t.end = srun_ends[i].end;
        if (t.end == ELASTIC_SRUN_EXIT && !read_long(&q, end, &t.exitcode)) t.end = ELASTIC_SRUN_OTHER;
        break;
    }
    s->srun[s->n_srun++] = t;
}

/* The agent's lines: a restart, a SIGTERM to a worker. */
static void agent_event(struct elastic_state *s, const char *line, const char *end)
{
    if (find(line, end, "attempts left; will restart worker group")) {
        if (s->restarts < ELASTIC_MAX_RESTARTS) s->restart_line[s->restarts] = s->line;
        if (s->restarts < INT32_MAX) s->restarts++;
        return;
    }
    const char *at = find(line, end, "Sending process ");
    long pid;
    if (!at) return;
    const char *q = at + strlen("Sending process ");
    if (!read_long(&q, end, &pid) || !find(q, end, " closing signal SIGTERM")) return;
    if (s->sigterms++ == 0) s->sigterm_line = s->line;
}

void elastic_line(struct elastic_state *s, const char *line, size_t len)
{
    const char *end = line + len;
    if (s->line < LONG_MAX) s->line++;
    table_line(s, line, end);
    agent_event(s, line, end);
    srun_line(s, line, end);
}

int elastic_attempt_of_line(const struct elastic_state *s, long line)
{
    int n = s->restarts < ELASTIC_MAX_RESTARTS ? s->restarts : ELASTIC_MAX_RESTARTS, a = 0;
    while (a < n && s->restart_line[a] < line) a++;
    return a == ELASTIC_MAX_RESTARTS ? s->restarts : a;
}

const char *elastic_srun_end_name(const struct elastic_srun *t, char *buf, size_t size)
{
    if (t->end != ELASTIC_SRUN_EXIT) return t->reason;
    snprintf(buf, size, "exit code %ld", t->exitcode);
    return buf;
}

long elastic_table_root_rank(const char *text, size_t len, size_t *used)
{
    struct elastic_state s;
    elastic_init(&s);
    const char *p = text, *end = text + len;
    for (long n = 0; p < end && n < ELASTIC_TABLE_LINES; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        elastic_line(&s, p, (size_t)(le - p));
        p = nl ? nl + 1 : end;
        if (s.root_from_table && s.in_block == 0) break; /* the table's closing rule */
    }
    *used = (size_t)(p - text);
    /* closed by its rule, or the input ends inside the Root Cause part (a
     * paste cut in its traceback field): no second entry can follow */
    bool read = s.root_from_table || (p == end && s.in_block == 1 && s.root.found);
    if (!read || s.root_entries != 1 || s.root.rank < 0) return -1;
    for (size_t i = 0; i < s.n_failures; i++) /* another worker that raised too */
        if (s.failures[i].rank != s.root.rank && s.failures[i].have_exitcode && s.failures[i].exitcode > 0)
            return -1;
    return s.root.rank;
}

int elastic_signal(const struct elastic_root *r)
{
    return r->have_exitcode && r->exitcode < 0 && r->exitcode > -65 ? (int)-r->exitcode : 0;
}
