/* failgrow: an LD_PRELOAD test double that makes growing one kind of
 * buffer fail, as a full machine would: the blocks first allocated with
 * realloc(NULL, FROM) bytes (strbuf_grow's first 16 elements: 1024 for a
 * 64-byte element such as struct steps_point) may not grow past MAX bytes;
 * realloc returns NULL there, and the first refusal is written to the file
 * LOG.
 * OOMLAB_TEST_FAILGROW="FROM MAX LOG". Nothing else changes: every other
 * allocation goes to glibc (__libc_realloc / __libc_free). Not for an ASan
 * build, whose runtime owns malloc. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

#define TRACK 256
static void *tracked[TRACK];
static int configured; /* 0 not read, 1 on, -1 off */
static size_t from, max;
static char log_path[512];

static void configure(void)
{
    const char *v = getenv("OOMLAB_TEST_FAILGROW");
    unsigned long long f, m;
    configured = -1;
    if (v && sscanf(v, "%llu %llu %511s", &f, &m, log_path) == 3) from = f, max = m, configured = 1;
}

static int find(const void *p)
{
    for (int i = 0; i < TRACK; i++)
        if (tracked[i] == p) return i;
    return -1;
}

static void note_refusal(size_t n)
{
    static int said;
    if (said++) return;
    FILE *f = fopen(log_path, "a"); /* fopen's own buffer is not a realloc of a tracked block */
    if (!f) return;
    fprintf(f, "refused %zu\n", n);
    fclose(f);
}

void *realloc(void *p, size_t n)
{
    if (!configured) configure();
    int i = configured > 0 && p ? find(p) : -1;
    if (i >= 0 && n > max) {
        note_refusal(n);
        return NULL; /* p stays the caller's, as realloc leaves it */
    }
    void *r = __libc_realloc(p, n);
    if (!r) return r;
    if (i >= 0) tracked[i] = r;
    else if (configured > 0 && !p && n == from && (i = find(NULL)) >= 0) tracked[i] = r;
    return r;
}

void free(void *p)
{
    if (p && configured > 0) {
        int i = find(p);
        if (i >= 0) tracked[i] = NULL;
    }
    __libc_free(p);
}
