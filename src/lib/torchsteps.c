/* torchsteps: read the hook's per-step CSV. Rows from several ranks arrive
 * interleaved in whatever order their writes landed, so they are folded
 * into a per-step table first and handed to the series in step order (the
 * series reads a lower step as a restart). */
#include "lib/torchsteps.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

#define MAX_STEPS (1L << 24) /* 16M optimizer steps; later ones are counted bad */
#define MAX_RANK (1L << 20)
#define N_COLS 10

enum col { C_STEP, C_TIME, C_RANK, C_LOCAL, C_DEVICE, C_OPT, C_ALLOC, C_RES, C_PALLOC, C_PRES };

struct per_step {
    int64_t peak_alloc, peak_reserved;
};

struct fold {
    struct per_step *steps;
    size_t n, cap;
    unsigned char *ranks; /* bitmap of ranks seen */
    size_t ranks_cap;     /* bytes */
    bool unranked;
};

/* Split one line into exactly N_COLS comma-separated fields. */
static bool split(const char *s, size_t len, const char *f[N_COLS], size_t flen[N_COLS])
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != ',') continue;
        if (k == N_COLS) return false;
        f[k] = s + start;
        flen[k++] = i - start;
        start = i + 1;
    }
    return k == N_COLS;
}

/* A non-negative decimal integer filling the whole field; empty -> -1. */
static bool field_int(const char *s, size_t len, int64_t *out)
{
    if (len == 0) { *out = -1; return true; }
    if (len > 19) return false;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        if (v > (INT64_MAX - (s[i] - '0')) / 10) return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

static bool field_time(const char *s, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf) return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    *out = strtod(buf, &end);
    return errno == 0 && *end == '\0' && isfinite(*out) && *out >= 0;
}

static int grow_steps(struct fold *fo, size_t need)
{
    if (need <= fo->n) return 0;
    if (need > fo->cap) {
        struct per_step *p = strbuf_grow(fo->steps, &fo->cap, need, sizeof *p, SIZE_MAX);
        if (!p) return -1;
        fo->steps = p;
    }
    for (size_t i = fo->n; i < need; i++) fo->steps[i] = (struct per_step){-1, -1};
    fo->n = need;
    return 0;
}

static int mark_rank(struct fold *fo, int64_t rank)
{
    if (rank < 0) { fo->unranked = true; return 0; }
    size_t byte = (size_t)rank / 8;
    if (byte >= fo->ranks_cap) {
        size_t cap = fo->ranks_cap;
        unsigned char *p = strbuf_grow(fo->ranks, &cap, byte + 1, 1, SIZE_MAX);
        if (!p) return -1;
        memset(p + fo->ranks_cap, 0, cap - fo->ranks_cap);
        fo->ranks = p;
        fo->ranks_cap = cap;
    }
    fo->ranks[byte] |= (unsigned char)(1u << (rank % 8));
    return 0;
}

static void keep_max(int64_t *dst, int64_t v)
{
    if (v > *dst) *dst = v;
}

/* One data row: 0 folded, 1 skipped as malformed, -1 out of memory. */
static int fold_row(struct torchsteps *ts, struct fold *fo, const char *s, size_t len)
{
    const char *f[N_COLS];
    size_t fl[N_COLS];
    int64_t v[N_COLS];
    double t;
    if (!split(s, len, f, fl) || !field_time(f[C_TIME], fl[C_TIME], &t)) return 1;
    for (int c = 0; c < N_COLS; c++) {
        if (c == C_TIME) continue;
        if (!field_int(f[c], fl[c], &v[c])) return 1;
    }
    if (v[C_STEP] < 1 || v[C_STEP] > MAX_STEPS || v[C_DEVICE] < 0 || v[C_PALLOC] < 0 ||
        v[C_PRES] < 0 || v[C_RANK] >= MAX_RANK)
        return 1;
    if (grow_steps(fo, (size_t)v[C_STEP]) < 0 || mark_rank(fo, v[C_RANK]) < 0) return -1;
    struct per_step *ps = &fo->steps[v[C_STEP] - 1];
    keep_max(&ps->peak_alloc, v[C_PALLOC]);
    keep_max(&ps->peak_reserved, v[C_PRES]);
    keep_max(&ts->peak_alloc, v[C_PALLOC]);
    if (v[C_PRES] > ts->peak_reserved) {
        ts->peak_reserved = v[C_PRES];
        ts->worst_rank = v[C_RANK];
        ts->worst_device = (int)v[C_DEVICE];
    }
    if (isnan(ts->first_time) || t < ts->first_time) ts->first_time = t;
    if (isnan(ts->last_time) || t > ts->last_time) ts->last_time = t;
    ts->rows++;
    return 0;
}

static int count_ranks(const struct fold *fo)
{
    int n = fo->unranked ? 1 : 0;
    for (size_t i = 0; i < fo->ranks_cap; i++) n += __builtin_popcount(fo->ranks[i]);
    return n;
}

static int emit(struct torchsteps *ts, const struct fold *fo)
{
    for (size_t i = 0; i < fo->n; i++) {
        if (fo->steps[i].peak_reserved < 0) continue;
        struct steps_point pt = {
            .fields = STEPS_STEP | STEPS_PEAK_ALLOC | STEPS_PEAK_RESERVED,
            .step = (long)i + 1, .epoch = NAN, .loss = NAN,
            .peak_alloc = fo->steps[i].peak_alloc, .peak_reserved = fo->steps[i].peak_reserved,
            .mem = -1,
        };
        if (steps_series_add(&ts->series, &pt) < 0) return -1;
    }
    return 0;
}

/* Rows are far shorter than this (ten fields, each at most 19 digits or a
 * 63-byte time); a longer line cannot be a row. */
#define LINE_MAX_BYTES 1024

struct torchsteps_stream {
    struct torchsteps *ts;
    struct fold fo;
    char line[LINE_MAX_BYTES];
    size_t llen;
    bool too_long, header_done;
    int rc;
};

struct torchsteps_stream *torchsteps_stream_new(struct torchsteps *ts)
{
    *ts = (struct torchsteps){.worst_rank = -1, .worst_device = -1, .peak_alloc = -1,
                              .peak_reserved = -1, .first_time = NAN, .last_time = NAN};
    steps_series_init(&ts->series);
    struct torchsteps_stream *st = calloc(1, sizeof *st);
    if (st) st->ts = ts;
    return st;
}

/* One whole line (without its '\n'): the header first, then rows. */
static void stream_line(struct torchsteps_stream *st, const char *s, size_t n)
{
    size_t hlen = strlen(TORCHSTEPS_HEADER) - 1;
    if (!st->header_done) {
        if (st->too_long || n != hlen || memcmp(s, TORCHSTEPS_HEADER, hlen) != 0) st->rc = 1;
        st->header_done = true;
        return;
    }
    int r = st->too_long ? 1 : fold_row(st->ts, &st->fo, s, n);
    if (r < 0) st->rc = -1;
    else st->ts->bad_rows += (size_t)r;
}

void torchsteps_stream_feed(struct torchsteps_stream *st, const char *data, size_t len)
{
    while (len > 0 && st->rc == 0) {
        const char *nl = memchr(data, '\n', len);
        size_t n = nl ? (size_t)(nl - data) : len;
        if (st->llen == 0 && nl) {
            stream_line(st, data, n); /* whole in the chunk: no copy */
        } else {
            if (n > LINE_MAX_BYTES - st->llen) st->too_long = true;
            else memcpy(st->line + st->llen, data, n), st->llen += n;
            if (nl) stream_line(st, st->line, st->llen);
        }
        if (nl) st->llen = 0, st->too_long = false;
        data += n + (nl != NULL);
        len -= n + (nl != NULL);
    }
}

int torchsteps_stream_end(struct torchsteps_stream *st, struct oomlab_err *err)
{
    if (!st) return oomlab_err_set(err, "out of memory reading the torch hook's step file");
    struct torchsteps *ts = st->ts;
    int rc = st->rc;
    if (rc == 0 && !st->header_done) rc = 1;
    if (rc == 0 && (st->llen || st->too_long)) ts->bad_rows++; /* cut mid-row */
    if (rc == 0) rc = emit(ts, &st->fo);
    ts->ranks = count_ranks(&st->fo);
    free(st->fo.steps);
    free(st->fo.ranks);
    free(st);
    if (rc != 0) torchsteps_release(ts);
    if (rc > 0) return oomlab_err_set(err, "not a step file of oomlab's torch hook (its header differs)");
    if (rc < 0) return oomlab_err_set(err, "out of memory reading the torch hook's step file");
    return 0;
}

int torchsteps_parse(struct torchsteps *ts, const char *text, size_t len, struct oomlab_err *err)
{
    struct torchsteps_stream *st = torchsteps_stream_new(ts);
    if (st) torchsteps_stream_feed(st, text, len);
    return torchsteps_stream_end(st, err);
}

void torchsteps_release(struct torchsteps *ts)
{
    steps_series_release(&ts->series);
}
