#include "lib/elastic.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void elastic_init(struct elastic_state *s)
{
    memset(s, 0, sizeof *s);
    s->root.rank = s->root.local_rank = s->root.pid = -1;
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

static const char *find(const char *s, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = s; p + n <= end; p++)
        if (!memcmp(p, needle, n)) return p;
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

void elastic_line(struct elastic_state *s, const char *line, size_t len)
{
    const char *end = line + len;
    if (s->in_block == 2) return;
    if (!s->in_block) {
        if (find(line, end, "Root Cause (first observed failure):")) {
            elastic_init(s); /* the table wins over the agent's line */
            s->in_block = 1;
        } else if (!s->root.found) {
            agent_line(&s->root, line, end);
        }
        return;
    }
    if (find(line, end, "=====")) { /* the table's closing rule */
        s->in_block = 2;
        return;
    }
    if (s->root.found && find(line, end, "]:") && !find(line, end, " : ") && !find(line, end, ": ")) {
        s->in_block = 2; /* "[1]:": a second failure; the first is the root */
        return;
    }
    const char *colon = find(line, end, ":");
    if (!colon) return;
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
    struct elastic_root *r = &s->root;
    long n;
    switch (f) {
    case F_TIME: copy_value(r->time, sizeof r->time, v, end); break;
    case F_HOST: copy_value(r->host, sizeof r->host, v, end); break;
    case F_RANK:
        if (read_long(&v, end, &n)) {
            r->rank = n, r->found = true;
            const char *lr = find(v, end, "local_rank:");
            const char *q = lr ? lr + strlen("local_rank:") : NULL;
            while (q && q < end && *q == ' ') q++;
            if (q && read_long(&q, end, &n)) r->local_rank = n;
        }
        break;
    case F_EXITCODE:
        if (read_long(&v, end, &n)) {
            r->exitcode = n, r->have_exitcode = r->found = true;
            const char *pid = find(v, end, "pid:");
            const char *q = pid ? pid + 4 : NULL;
            while (q && q < end && *q == ' ') q++;
            if (q && read_long(&q, end, &n)) r->pid = n;
        }
        break;
    case F_NONE: break;
    }
}

int elastic_signal(const struct elastic_root *r)
{
    return r->have_exitcode && r->exitcode < 0 && r->exitcode > -65 ? (int)-r->exitcode : 0;
}
