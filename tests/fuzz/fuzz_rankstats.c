/* Fuzz the per-rank figures of a launcher's interleaved log (lib/rankstats):
 * lines fed in order, then the log engine's report of the same text; each
 * entry stays one rank of one attempt; the lines handed on (rs.fn, after
 * an srun label is decided) are whole lines of the input, in its order.
 * A rank's oom is unknown only where the log engine dropped events (past
 * OOM_MAX_EVENTS) and none kept is that rank's; an unknown has no line. */
#include <stdint.h>
#include <string.h>

#include "lib/rankstats.h"
#include "lib/scan.h"

struct handed {
    const struct rankstats *rs;
    const char *text;
    size_t size, at; /* where the next handed line may start to be in order */
};

static void on_line(const char *line, size_t len, long entry, void *ctx)
{
    struct handed *h = ctx;
    if (entry < 0 || (size_t)entry >= h->rs->n) __builtin_trap();
    const char *p = h->text + h->at, *end = h->text + h->size;
    while (p + len <= end && (memcmp(p, line, len) || (p + len < end && p[len] != '\n'))) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) __builtin_trap();
        p = nl + 1;
    }
    if (p + len > end) __builtin_trap(); /* not a line of the input at or after the last one handed */
    h->at = (size_t)(p - h->text) + len + (p + len < end);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rankstats rs;
    rankstats_init(&rs);
    struct handed h = {&rs, (const char *)data, size, 0};
    rs.fn = on_line;
    rs.fn_ctx = &h;
    const char *text = (const char *)data;
    for (size_t pos = 0; pos < size;) {
        const char *nl = memchr(text + pos, '\n', size - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : size - pos;
        struct steps_point pt;
        bool step = steps_parse_line(text + pos, n, &pt);
        long e = rankstats_line(&rs, text + pos, n, step ? &pt : NULL);
        if (e >= (long)rs.n) __builtin_trap();
        pos += n + 1;
    }
    struct oom_report rep;
    bool dropped = false;
    if (scan_text(text, size, &rep, NULL) == 0) {
        rankstats_finish(&rs, &rep);
        dropped = rep.n_dropped > 0;
        oom_report_release(&rep);
    } else {
        rankstats_flush(&rs);
    }
    if (rs.ranks < 0 || (size_t)rs.ranks > rs.n) __builtin_trap();
    for (size_t i = 0; i < rs.n; i++) {
        const struct rankstats_rank *r = &rs.r[i];
        bool lower;
        if (r->rank < 0 || r->rank > RANKSTATS_MAX_RANK || r->attempt < 0 || r->attempt > rs.elastic.restarts)
            __builtin_trap();
        if (r->lines < 1 || rankstats_peak(r, &lower) < -1) __builtin_trap();
        if (r->oom_unknown && (r->oom || !dropped || r->oom_line != -1)) __builtin_trap();
        if (r->oom_line < -1 || (r->oom && r->oom_line < 1)) __builtin_trap();
        for (size_t k = 0; k < i; k++)
            if (rs.r[k].rank == r->rank && rs.r[k].attempt == r->attempt) __builtin_trap();
    }
    rankstats_release(&rs);
    return 0;
}
