/* memsummary: the memory_summary() table as rows of a small rule table (see
 * memsummary.h). Cells are "|  1062 MB |"; sizes are 1024-based in every
 * era (PyTorch's _format_size), whatever the unit's spelling. */
#include "lib/memsummary.h"

#include <ctype.h>
#include <string.h>

#include "lib/units.h"

#define NONREL_MIN_SHARE 8 /* non-releasable >= reserved / 8 is fragmentation */

enum ms_row { MS_ALLOCATED, MS_RESERVED, MS_NONRELEASABLE };

static const struct {
    const char *label;
    enum ms_row row;
} rows[] = {
    {"Allocated memory", MS_ALLOCATED},
    {" reserved memory", MS_RESERVED}, /* "GPU", "MLU", "dipu" ... reserved memory */
    {"Non-releasable memory", MS_NONRELEASABLE},
};

static const char *find(const char *s, size_t n, const char *w)
{
    return memmem(s, n, w, strlen(w));
}

/* The integer after `key` in s, or -1. */
static long count_after(const char *s, size_t n, const char *key)
{
    const char *p = find(s, n, key);
    if (!p) return -1;
    size_t i = (size_t)(p - s) + strlen(key);
    while (i < n && s[i] == ' ') i++;
    long v = 0;
    size_t d0 = i;
    while (i < n && isdigit((unsigned char)s[i]) && v < 100000000) v = v * 10 + (s[i++] - '0');
    return i > d0 ? v : -1;
}

/* The size in the k-th "|" cell after the label cell (k = 1: Cur Usage). */
static int64_t cell_size(const char *s, size_t n, int k)
{
    size_t i = 0;
    int bars = 0;
    while (i < n && bars < k + 1) bars += s[i++] == '|';
    if (bars < k + 1) return -1;
    while (i < n && s[i] == ' ') i++;
    int64_t bytes;
    bool sat = false;
    size_t used = units_parse_size(s + i, n - i, UNITS_KB_IS_1024, &bytes, &sat);
    return used && !sat ? bytes : -1;
}

static void set_row(struct oom_memsummary *m, enum ms_row row, int64_t cur, int64_t peak)
{
    int64_t *slot[][2] = {
        [MS_ALLOCATED] = {&m->allocated_cur, &m->allocated_peak},
        [MS_RESERVED] = {&m->reserved_cur, &m->reserved_peak},
        [MS_NONRELEASABLE] = {&m->nonreleasable_cur, &m->nonreleasable_peak},
    };
    if (*slot[row][0] < 0) *slot[row][0] = cur;
    if (*slot[row][1] < 0) *slot[row][1] = peak;
}

bool memsummary_line(const char *line, size_t len, struct oom_memsummary *m)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    const char *s = line + i;
    size_t n = len - i;
    const char *title = find(s, n, "memory summary, device ID");
    if (title) {
        long dev = count_after(s, n, "device ID");
        if (dev >= 0 && dev < 4096) m->device = (int)dev;
        m->present = true;
        return true;
    }
    if (n == 0 || s[0] != '|') return false;
    /* "cudaMalloc retries:", and the ports' "npuMalloc", "musaMalloc" ... */
    long ooms = count_after(s, n, "OOMs:"), retries = count_after(s, n, "Malloc retries:");
    if (ooms >= 0) m->ooms = ooms, m->present = true;
    if (retries >= 0) m->retries = retries, m->present = true;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        const char *p = find(s, n < 40 ? n : 40, rows[r].label);
        if (!p) continue;
        set_row(m, rows[r].row, cell_size(s, n, 1), cell_size(s, n, 2));
        m->present = true;
    }
    return true;
}

bool memsummary_fragmented(const struct oom_memsummary *m)
{
    if (!m->present) return false;
    if (m->retries > 0) return true;
    return m->nonreleasable_cur > 0 && m->reserved_cur > 0 &&
           m->nonreleasable_cur >= m->reserved_cur / NONREL_MIN_SHARE;
}

size_t memsummary_text(const char *text, size_t len, struct oom_memsummary *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < max; i++) oom_memsummary_init(&out[i]);
    for (size_t at = 0; at < len && max;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - (text + at)) : len - at;
        const char *line = text + at;
        at += ll + 1;
        bool title = find(line, ll, "memory summary, device ID") != NULL;
        if (title && n && out[n - 1].present && n == max) break; /* no room for another */
        if (title && (n == 0 || out[n - 1].present)) n++;
        if (n == 0) continue; /* text before the first table */
        memsummary_line(line, ll, &out[n - 1]);
    }
    while (n && !out[n - 1].present) n--;
    return n;
}
