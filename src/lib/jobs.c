/* jobs: job ids as a table of the lines that name them, rank-numbered file
 * names as stems (the rank digits replaced by '#'), and a union-find over
 * the logs that refuses to join two different job ids. */
#include "lib/jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A line that names a job: the text before the id, the id's namespace,
 * whether the id is digits only, and whether a ':' must follow the text
 * (torchelastic's launch-config table "run_id : X"; "run_id=X" is anyone's). */
struct id_rule {
    const char *text, *ns;
    bool digits, colon;
};

static const struct id_rule id_rules[] = {
    {.text = "SLURM_JOB_ID", .ns = "slurm", .digits = true},
    {.text = "SLURM_JOBID", .ns = "slurm", .digits = true},
    {.text = "*** JOB ", .ns = "slurm", .digits = true},  /* slurmstepd: *** JOB 123 ON n1 CANCELLED */
    {.text = "*** STEP ", .ns = "slurm", .digits = true}, /* *** STEP 123.0 ON n1 ... */
    {.text = "srun: job ", .ns = "slurm", .digits = true},
    {.text = "TORCHELASTIC_RUN_ID", .ns = "torchelastic"},
    {.text = "run_id", .ns = "torchelastic", .colon = true},
    {.text = "rdzv_id", .ns = "torchelastic"},
    {.text = "rdzv-id", .ns = "torchelastic"},
};

static bool id_char(unsigned char c, bool digits)
{
    if (c >= '0' && c <= '9') return true;
    if (digits) return false;
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z' ? true : c == '_' || c == '-' || c == '.';
}

/* After the rule's text: blanks, '=' or ':', blanks, quotes; then the id. */
static int id_after(const struct id_rule *r, const char *p, const char *end, char *out, size_t cap)
{
    bool colon = false;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p < end && (*p == '=' || *p == ':')) colon = *p++ == ':';
    if (r->colon && !colon) return 0;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '"' || *p == '\'')) p++;
    const char *id = p;
    while (p < end && id_char((unsigned char)*p, r->digits)) p++;
    size_t n = (size_t)(p - id);
    if (n == 0 || n >= JOBS_ID_MAX - 16 || (n == 4 && strncasecmp(id, "none", 4) == 0)) return 0;
    snprintf(out, cap, "%s:%.*s", r->ns, (int)n, id);
    return 1;
}

int jobs_id_in_line(const char *line, size_t len, char *out, size_t cap)
{
    const char *end = line + len;
    for (size_t i = 0; i < sizeof id_rules / sizeof id_rules[0]; i++) {
        const struct id_rule *r = &id_rules[i];
        size_t tl = strlen(r->text);
        for (const char *p = line; p < end;) {
            const char *hit = memmem(p, (size_t)(end - p), r->text, tl);
            if (!hit) break;
            /* A whole word: "my_run_id" is not torchelastic's. */
            unsigned char before = hit == line ? ' ' : (unsigned char)hit[-1];
            bool word = r->text[0] == '*' || !(before == '_' || (before >= '0' && before <= '9') ||
                                               ((before | 0x20) >= 'a' && (before | 0x20) <= 'z'));
            if (word && id_after(r, hit + tl, end, out, cap)) return 1;
            p = hit + 1;
        }
    }
    return 0;
}

const char *jobs_link_name(enum jobs_link link)
{
    static const char *const names[] = {"alone", "same-job", "rank-name", "rank-prefix",
                                        "same-run"};
    return (unsigned)link < sizeof names / sizeof names[0] ? names[link] : "alone";
}

/* The path with the digits of [from, to) replaced by '#'. */
static void stem_at(const char *path, size_t from, size_t to, char *out, size_t cap)
{
    snprintf(out, cap, "%.*s#%s", (int)from, path, path + to);
}

static size_t digits_from(const char *s, size_t i)
{
    while (s[i] >= '0' && s[i] <= '9') i++;
    return i;
}

/* The digits of the last "rank" [-_.] digits in path: [*from, *to). */
static bool last_rank_digits(const char *path, size_t *from, size_t *to)
{
    size_t n = strlen(path);
    *from = *to = 0;
    for (size_t i = 0; i + 4 < n; i++) {
        if (strncasecmp(path + i, "rank", 4) != 0) continue;
        size_t d = i + 4;
        if (path[d] == '-' || path[d] == '_' || path[d] == '.') d++;
        size_t e = digits_from(path, d);
        if (e > d) *from = d, *to = e;
    }
    return *to > 0;
}

/* A rank-numbered name: "rank" [-_.] digits anywhere in the path (the last
 * one), or a base name ending ".<digits>.<log|out|err|txt>". 0: none. */
static int rank_stem(const char *path, char *out, size_t cap)
{
    size_t n = strlen(path), from, to;
    if (last_rank_digits(path, &from, &to)) {
        stem_at(path, from, to, out, cap);
        return 1;
    }
    static const char *const exts[] = {".log", ".out", ".err", ".txt"};
    for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++) {
        size_t el = strlen(exts[k]);
        if (n <= el + 2 || strcmp(path + n - el, exts[k]) != 0) continue;
        size_t e = n - el, d = e;
        while (d > 0 && path[d - 1] >= '0' && path[d - 1] <= '9') d--;
        if (d < e && d > 0 && path[d - 1] == '.' && d - 1 > 0 && path[d - 2] != '/') {
            stem_at(path, d, e, out, cap);
            return 1;
        }
    }
    return 0;
}

/* The path with its last run of digits replaced by '#'. 0: no digits. */
static int number_stem(const char *path, char *out, size_t cap)
{
    size_t n = strlen(path), e = n;
    while (e > 0 && !(path[e - 1] >= '0' && path[e - 1] <= '9')) e--;
    if (!e) return 0;
    size_t d = e;
    while (d > 0 && path[d - 1] >= '0' && path[d - 1] <= '9') d--;
    stem_at(path, d, e, out, cap);
    return 1;
}

struct uf {
    size_t *parent;
    const char **job; /* per root: the job id its logs name, NULL none */
};

static size_t find(struct uf *u, size_t i)
{
    while (u->parent[i] != i) i = u->parent[i] = u->parent[u->parent[i]];
    return i;
}

static bool unite(struct uf *u, size_t a, size_t b)
{
    size_t ra = find(u, a), rb = find(u, b);
    if (ra == rb) return true;
    if (u->job[ra] && u->job[rb] && strcmp(u->job[ra], u->job[rb]) != 0) return false;
    if (rb < ra) {
        size_t t = ra;
        ra = rb, rb = t;
    }
    u->parent[rb] = ra;
    if (!u->job[ra]) u->job[ra] = u->job[rb];
    return true;
}

static bool ranks_overlap(const struct jobs_log *a, const struct jobs_log *b)
{
    for (size_t i = 0; i < a->n_ranks; i++)
        for (size_t j = 0; j < b->n_ranks; j++)
            if (a->ranks[i] >= 0 && a->ranks[i] == b->ranks[j]) return true;
    return false;
}

static bool has_rank(const struct jobs_log *l)
{
    for (size_t i = 0; i < l->n_ranks; i++)
        if (l->ranks[i] >= 0) return true;
    return false;
}

static void join(struct uf *u, size_t a, size_t b, enum jobs_link why, enum jobs_link *link)
{
    if (!unite(u, a, b)) return;
    if (link[a] == JOBS_ALONE) link[a] = why;
    if (link[b] == JOBS_ALONE) link[b] = why;
}

/* No rank of a's run is also a rank of b's run (rank-prefix joins). */
static bool runs_disjoint(const struct jobs_log *logs, size_t n, struct uf *u, size_t a, size_t b)
{
    size_t ra = find(u, a), rb = find(u, b);
    for (size_t x = 0; x < n; x++)
        for (size_t y = 0; y < n; y++)
            if (find(u, x) == ra && find(u, y) == rb && ranks_overlap(&logs[x], &logs[y]))
                return false;
    return true;
}

/* Pairwise rules (n is the number of logs on one command line: small). */
static void join_pairs(const struct jobs_log *logs, size_t n, struct uf *u, enum jobs_link *link)
{
    char sa[4096], sb[4096];
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            if (logs[a].run_id && logs[b].run_id && !strcmp(logs[a].run_id, logs[b].run_id))
                join(u, a, b, JOBS_SAME_RUN, link);
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            const char *ja = logs[a].job_id, *jb = logs[b].job_id;
            if (ja && *ja && jb && *jb && !strcmp(ja, jb)) join(u, a, b, JOBS_SAME_JOB, link);
        }
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            if (rank_stem(logs[a].path, sa, sizeof sa) && rank_stem(logs[b].path, sb, sizeof sb) &&
                !strcmp(sa, sb) && strcmp(logs[a].path, logs[b].path) != 0)
                join(u, a, b, JOBS_RANK_NAME, link);
            else if (has_rank(&logs[a]) && has_rank(&logs[b]) &&
                     number_stem(logs[a].path, sa, sizeof sa) &&
                     number_stem(logs[b].path, sb, sizeof sb) && !strcmp(sa, sb) &&
                     runs_disjoint(logs, n, u, a, b))
                join(u, a, b, JOBS_RANK_PREFIX, link);
        }
}

size_t jobs_group(const struct jobs_log *logs, size_t n, size_t *run, enum jobs_link *link)
{
    struct uf u = {calloc(n ? n : 1, sizeof *u.parent), calloc(n ? n : 1, sizeof *u.job)};
    size_t runs = 0;
    for (size_t i = 0; i < n; i++) link[i] = JOBS_ALONE;
    if (u.parent && u.job) {
        for (size_t i = 0; i < n; i++) {
            u.parent[i] = i;
            u.job[i] = logs[i].job_id && *logs[i].job_id ? logs[i].job_id : NULL;
        }
        join_pairs(logs, n, &u, link);
    }
    for (size_t i = 0; i < n; i++) {
        run[i] = u.parent && u.job ? find(&u, i) : i; /* the root is the smallest index */
        runs += run[i] == i;
    }
    free(u.parent);
    free(u.job);
    return runs;
}

int jobs_rank_of_path(const char *path)
{
    size_t best_from, best_to;
    if (!last_rank_digits(path, &best_from, &best_to) || best_to - best_from > 6) return -1;
    int rank = 0;
    for (size_t i = best_from; i < best_to; i++) rank = rank * 10 + (path[i] - '0');
    return rank;
}

/* ---- line timestamps --------------------------------------------------------- */

/* n digits at p (all digits), their value in *v. */
static bool num_at(const char *p, const char *end, size_t n, int *v)
{
    if ((size_t)(end - p) < n) return false;
    int x = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') return false;
        x = x * 10 + (p[i] - '0');
    }
    *v = x;
    return true;
}

/* HH:MM:SS[.,]frac at p: seconds of the day and nanoseconds. */
static bool clock_at(const char *p, const char *end, int64_t *secs, int64_t *nanos)
{
    int h, m, sec;
    if (!num_at(p, end, 2, &h) || end - p < 8 || p[2] != ':' || !num_at(p + 3, end, 2, &m) ||
        p[5] != ':' || !num_at(p + 6, end, 2, &sec) || h > 23 || m > 59 || sec > 60)
        return false;
    *secs = (int64_t)h * 3600 + m * 60 + sec;
    *nanos = 0;
    const char *f = p + 8;
    if (f < end && (*f == '.' || *f == ',')) {
        int64_t scale = 100000000;
        for (f++; f < end && *f >= '0' && *f <= '9'; f++, scale /= 10)
            if (scale) *nanos += (*f - '0') * scale;
    }
    return true;
}

static int64_t time_key(int month, int day, int64_t secs, int64_t nanos)
{
    return (((int64_t)month * 32 + day) * 86400 + secs) * 1000000000 + nanos;
}

/* YYYY-MM-DD[ T]HH:MM:SS at p. */
static bool iso_at(const char *p, const char *end, int64_t *key)
{
    int y, mo, d;
    int64_t secs, nanos;
    if (!num_at(p, end, 4, &y) || end - p < 19 || p[4] != '-' || !num_at(p + 5, end, 2, &mo) ||
        p[7] != '-' || !num_at(p + 8, end, 2, &d) || (p[10] != ' ' && p[10] != 'T') ||
        mo < 1 || mo > 12 || d < 1 || d > 31 || !clock_at(p + 11, end, &secs, &nanos))
        return false;
    *key = time_key(mo, d, secs, nanos);
    return true;
}

/* [IWEF]M?MDD HH:MM:SS at p (glog; torch's c10 logger drops the month's
 * leading zero: "E321" is 21 March), after a '[', a blank or the start. */
static bool glog_at(const char *line, const char *p, const char *end, int64_t *key)
{
    if (!strchr("IWEF", *p) || !*p || (p > line && p[-1] != '[' && p[-1] != ' ' && p[-1] != ':'))
        return false;
    const char *q = p + 1;
    size_t digits = 0;
    while (q + digits < end && q[digits] >= '0' && q[digits] <= '9') digits++;
    int md, month, day;
    int64_t secs, nanos;
    if ((digits != 3 && digits != 4) || !num_at(q, end, digits, &md) || q + digits >= end ||
        q[digits] != ' ' || !clock_at(q + digits + 1, end, &secs, &nanos))
        return false;
    month = md / 100, day = md % 100;
    if (month < 1 || month > 12 || day < 1 || day > 31) return false;
    *key = time_key(month, day, secs, nanos);
    return true;
}

int jobs_line_time(const char *line, size_t len, int64_t *key)
{
    const char *end = line + (len < 96 ? len : 96);
    for (const char *p = line; p < end; p++) {
        if (*p >= '0' && *p <= '9' && (p == line || !(p[-1] >= '0' && p[-1] <= '9')) &&
            iso_at(p, line + len, key))
            return 1;
        if (glog_at(line, p, line + len, key)) return 1;
    }
    return 0;
}
