/* memcsv: read memlog's CSV. Columns (see sys/memlog.h):
 * timestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib;
 * MiB are whole numbers; empty cells are unknown. Lines are assembled
 * across chunks in a fixed buffer; nothing grows with the file. */
#include "lib/memcsv.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "timestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib"
#define N_COLS 8
#define MIB 1048576LL

static bool num(const char *s, size_t len, int64_t max, int64_t *out)
{
    if (len == 0) { *out = -1; return true; }
    if (len > 18) return false;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v > max) return false;
    *out = v;
    return true;
}

/* Days from 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int64_t memcsv_iso_ms(const char *s, size_t len)
{
    static const struct { size_t at, len; int64_t lo, hi; } part[6] = {
        {0, 4, 1970, 9999}, {5, 2, 1, 12}, {8, 2, 1, 31}, {11, 2, 0, 23}, {14, 2, 0, 59}, {17, 2, 0, 60}};
    static const char sep[] = "--T::";
    int64_t v[6];
    if (len < 20 || s[len - 1] != 'Z') return -1;
    for (int i = 0; i < 6; i++) {
        if (i < 5 && s[part[i].at + part[i].len] != sep[i]) return -1;
        if (!num(s + part[i].at, part[i].len, part[i].hi, &v[i]) || v[i] < part[i].lo) return -1;
    }
    int64_t ms = 0;
    if (len > 20) { /* ".mmm" */
        if (s[19] != '.' || len - 21 == 0 || len - 21 > 9 || !num(s + 20, len - 21, 999999999, &ms)) return -1;
        for (size_t k = len - 21; k < 3; k++) ms *= 10;
        for (size_t k = len - 21; k > 3; k--) ms /= 10;
    }
    int64_t days = days_from_civil(v[0], v[1], v[2]);
    return ((days * 24 + v[3]) * 60 + v[4]) * 60000 + v[5] * 1000 + ms;
}

static struct memcsv_gpu *gpu_of(struct memcsv *m, int index)
{
    for (size_t i = 0; i < m->n_gpus; i++)
        if (m->gpus[i].index == index) return &m->gpus[i];
    if (m->n_gpus == MEMCSV_MAX_GPUS) return NULL;
    struct memcsv_gpu *g = &m->gpus[m->n_gpus++];
    *g = (struct memcsv_gpu){.index = index, .total = -1};
    reduce_stream_init(&g->used);
    reduce_stream_init(&g->tree);
    return g;
}

/* 0 kept, 1 malformed, -1 out of memory. */
static int row(struct memcsv *m, const char *s, size_t len)
{
    const char *f[N_COLS];
    size_t fl[N_COLS], k = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != ',') continue;
        if (k == N_COLS) return 1;
        f[k] = s + start;
        fl[k++] = i - start;
        start = i + 1;
    }
    int64_t elapsed, gpu, used, total, tree, ignore;
    if (k != N_COLS || !num(f[1], fl[1], INT64_MAX / 2, &elapsed) || elapsed < 0 ||
        !num(f[2], fl[2], 4095, &gpu) || gpu < 0 || !num(f[3], fl[3], 1LL << 40, &used) ||
        !num(f[4], fl[4], 1LL << 40, &total) || !num(f[5], fl[5], 1LL << 40, &ignore) ||
        !num(f[7], fl[7], 1LL << 40, &tree))
        return 1;
    struct memcsv_gpu *g = gpu_of(m, (int)gpu);
    if (!g) return 1;
    if (total >= 0) g->total = total * MIB;
    if (m->start_ms < 0) {
        int64_t wall = memcsv_iso_ms(f[0], fl[0]);
        if (wall >= 0) m->start_ms = wall - elapsed;
    }
    g->rows++;
    double t = (double)elapsed / 1000.0;
    if (used >= 0 && reduce_stream_add(&g->used, t, (double)(used * MIB)) < 0) return -1;
    if (tree >= 0 && reduce_stream_add(&g->tree, t, (double)(tree * MIB)) < 0) return -1;
    return 0;
}

/* "# GPU memory not sampled: WHY": memlog's reason, kept for the reader. */
static void not_sampled_said(struct memcsv *m, const char *rest, size_t n)
{
    m->not_sampled = 1;
    m->said_not_sampled = true;
    while (n && (*rest == ':' || *rest == ' ')) rest++, n--;
    bool cut = n >= sizeof m->not_sampled_why;
    if (cut) n = sizeof m->not_sampled_why - 4;
    for (size_t i = 0; i < n; i++)
        m->not_sampled_why[i] = (unsigned char)rest[i] < 0x20 || rest[i] == 0x7f ? '?' : rest[i];
    m->not_sampled_why[n] = '\0';
    if (cut) memcpy(m->not_sampled_why + n, "...", 4);
}

/* One whole line (no '\n'); complete says whether its newline was seen. */
static int line(struct memcsv *m, const char *s, size_t n, bool complete)
{
    if (n && s[n - 1] == '\r') n--;
    if (n && s[0] == '#') {
        const char *said = n >= 24 ? memmem(s, n, "memory not sampled", 18) : NULL;
        if (said) not_sampled_said(m, said + 18, (size_t)(s + n - said - 18));
        return 0;
    }
    if (!m->in_rows) {
        m->in_rows = n == strlen(HEADER) && !memcmp(s, HEADER, n);
        return 0;
    }
    if (!complete) { /* a row cut short */
        m->bad_rows++;
        return 0;
    }
    int r = row(m, s, n);
    if (r < 0) return -1;
    m->bad_rows += (size_t)r;
    return 0;
}

void memcsv_init(struct memcsv *m)
{
    memset(m, 0, sizeof *m);
    m->start_ms = -1;
}

/* A line longer than the buffer: a comment stays a comment, a row is bad. */
static void overlong(struct memcsv *m)
{
    if (m->line[0] != '#' && m->in_rows) m->bad_rows++;
    m->skipping = true;
    m->line_len = 0;
}

int memcsv_feed(struct memcsv *m, const char *data, size_t len, struct oomlab_err *err)
{
    for (size_t pos = 0; pos < len && !m->failed;) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (data + pos)) : len - pos;
        const char *s = data + pos;
        pos += n + (nl != NULL);
        if (m->skipping) {
            m->skipping = nl == NULL;
            continue;
        }
        if (m->line_len + n > sizeof m->line) {
            if (m->line_len == 0 && n) m->line[0] = s[0];
            overlong(m);
            m->skipping = nl == NULL;
            continue;
        }
        if (!nl) { /* the rest of a line comes in the next chunk */
            memcpy(m->line + m->line_len, s, n);
            m->line_len += n;
            break;
        }
        int r;
        if (m->line_len) {
            memcpy(m->line + m->line_len, s, n);
            r = line(m, m->line, m->line_len + n, true);
            m->line_len = 0;
        } else {
            r = line(m, s, n, true);
        }
        if (r < 0) m->failed = true;
    }
    if (m->failed) return oomlab_err_set(err, "out of memory reading GPU memory samples");
    return 0;
}

void memcsv_finish(struct memcsv *m)
{
    if (m->line_len && !m->failed) line(m, m->line, m->line_len, false);
    m->line_len = 0;
    if (!m->in_rows) m->not_sampled = 1;
}

int memcsv_parse(struct memcsv *m, const char *text, size_t len, struct oomlab_err *err)
{
    memcsv_init(m);
    if (memcsv_feed(m, text, len, err) < 0) {
        memcsv_release(m);
        return -1;
    }
    memcsv_finish(m);
    return 0;
}

void memcsv_release(struct memcsv *m)
{
    for (size_t i = 0; i < m->n_gpus; i++) {
        reduce_stream_release(&m->gpus[i].used);
        reduce_stream_release(&m->gpus[i].tree);
    }
    m->n_gpus = 0;
}
