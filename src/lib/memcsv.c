/* memcsv: read memlog's CSV. Columns (see sys/memlog.h):
 * timestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib;
 * MiB are whole numbers; empty cells are unknown. */
#include "lib/memcsv.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "timestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib"
#define N_COLS 8
#define MAX_SAMPLES (1u << 26) /* per GPU: 64M samples, 10 ms for a week */
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

static struct memcsv_gpu *gpu_of(struct memcsv *m, int index)
{
    for (size_t i = 0; i < m->n_gpus; i++)
        if (m->gpus[i].index == index) return &m->gpus[i];
    if (m->n_gpus == MEMCSV_MAX_GPUS) return NULL;
    struct memcsv_gpu *g = &m->gpus[m->n_gpus++];
    *g = (struct memcsv_gpu){.index = index, .total = -1};
    return g;
}

static int push(struct memcsv_gpu *g, struct memcsv_sample s)
{
    if (g->n == MAX_SAMPLES) return 0;
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 1024;
        struct memcsv_sample *p = realloc(g->samples, cap * sizeof *p);
        if (!p) return -1;
        g->samples = p;
        g->cap = cap;
    }
    g->samples[g->n++] = s;
    return 0;
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
    struct memcsv_sample smp = {.elapsed_s = (double)elapsed / 1000.0,
                                .used = used >= 0 ? used * MIB : -1, .tree = tree >= 0 ? tree * MIB : -1};
    return push(g, smp);
}

int memcsv_parse(struct memcsv *m, const char *text, size_t len, struct oomlab_err *err)
{
    memset(m, 0, sizeof *m);
    bool in_rows = false;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        const char *line = text + pos;
        pos += n + 1;
        if (n && line[n - 1] == '\r') n--;
        if (n && line[0] == '#') {
            if (n >= 24 && memmem(line, n, "memory not sampled", 18)) m->not_sampled = 1;
            continue;
        }
        if (!in_rows) {
            in_rows = n == strlen(HEADER) && !memcmp(line, HEADER, n);
            continue;
        }
        if (!nl) { m->bad_rows++; break; } /* a row cut short */
        int r = row(m, line, n);
        if (r < 0) {
            memcsv_release(m);
            return oomlab_err_set(err, "out of memory reading GPU memory samples");
        }
        m->bad_rows += (size_t)r;
    }
    if (!in_rows) m->not_sampled = 1;
    return 0;
}

void memcsv_release(struct memcsv *m)
{
    for (size_t i = 0; i < m->n_gpus; i++) free(m->gpus[i].samples);
    m->n_gpus = 0;
}
