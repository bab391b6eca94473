/* Fuzz the per-rank figures of a launcher's interleaved log (lib/rankstats):
 * lines fed in order, then the log engine's report of the same text; each
 * entry stays one rank of one attempt; the lines handed on (rs.fn, after
 * an srun label is decided) are whole lines of the input, in its order.
 * A rank's oom is unknown only where the log engine dropped events (past
 * OOM_MAX_EVENTS) and none kept is that rank's; an unknown has no line.
 * Twice: as a stream, srun named only by a line so far, and as run reads
 * a log whose command or text names srun (run_names_srun sets rs.srun
 * ahead); where the first line names it the two agree on the ranks. A
 * line that names srun makes the whole text name it; a label that names
 * no rank (msg_prefix_unlabel) leaves no label, and a body within the
 * line. run's read ahead (run_names_srun: msg_names_srun_chunk over the log
 * read in chunks, a chunk's last bytes carried into the next) names srun
 * iff the whole text does, whatever the buffer's size. A third pass as
 * run reads back since stranger25 (rs.srun_settled: the whole text's
 * answer, no line asked): srun never changes, and the ranks are those of
 * the pass that had the same answer. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/msg.h"
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

static uint64_t one_pass(const uint8_t *data, size_t size, bool srun_ahead, bool settled,
                         const struct oom_report *rep)
{
    struct rankstats rs;
    rankstats_init(&rs);
    rs.srun = srun_ahead;
    rs.srun_settled = settled;
    struct handed h = {&rs, (const char *)data, size, 0};
    rs.fn = on_line;
    rs.fn_ctx = &h;
    const char *text = (const char *)data;
    for (size_t pos = 0; pos < size;) {
        const char *nl = memchr(text + pos, '\n', size - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : size - pos;
        struct steps_point pt;
        bool step = steps_parse_line(text + pos, n, &pt);
        if (!srun_ahead && !settled && msg_names_srun(text + pos, n) && !msg_names_srun(text, size)) {
            fprintf(stderr, "the line names srun, the text does not: %.*s\n", (int)n, text + pos);
            __builtin_trap();
        }
        struct msg_prefix px;
        size_t m = n < 512 ? n : 512;
        msg_prefix_parse(text + pos, m, &px);
        msg_prefix_unlabel(text + pos, m, &px);
        if (px.task_label || px.body > m) __builtin_trap();
        long e = rankstats_line(&rs, text + pos, n, step ? &pt : NULL);
        if (e >= (long)rs.n || (settled && rs.srun != srun_ahead)) __builtin_trap();
        pos += n + 1;
    }
    bool dropped = rep && rep->n_dropped > 0;
    if (rep)
        rankstats_finish(&rs, rep);
    else
        rankstats_flush(&rs);
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
    uint64_t sum = 1469598103934665603ull ^ rs.n;
    for (size_t i = 0; i < rs.n; i++) /* who and how many lines, in order */
        sum = (sum ^ (uint64_t)rs.r[i].rank ^ (uint64_t)rs.r[i].attempt << 20 ^ (uint64_t)rs.r[i].lines << 32) *
              1099511628211ull;
    rankstats_release(&rs);
    return sum;
}

/* run_names_srun's loop (sys/runexec.c) over the text read in pieces of a
 * buffer of bufsz bytes (the real one 64 KiB + 16), as fread hands them out:
 * short only at the end, where a request for more than is left also sets
 * feof. msg_names_srun_chunk carries a chunk's last bytes into the next. */
static bool srun_in_chunks(const char *text, size_t size, size_t bufsz)
{
    char buf[96];
    size_t keep = 0, n, pos = 0;
    bool named = false, carried = false;
    do {
        size_t want = bufsz - keep, left = size - pos;
        n = want < left ? want : left;
        memcpy(buf + keep, text + pos, n);
        pos += n;
        size_t have = keep + n;
        bool last = n == 0 || want > left;
        keep = msg_names_srun_chunk(buf, have, carried, last, &named);
        if (keep > have || (last && keep)) __builtin_trap();
        memmove(buf, buf + have - keep, keep);
        carried = carried || have > keep;
    } while (!named && n > 0);
    return named;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the log read ahead in chunks names srun iff the whole text does (left25) */
    bool whole = msg_names_srun((const char *)data, size);
    for (size_t bufsz = 17; bufsz <= 96; bufsz += size ? 1 + data[size - 1] % 13 : 79)
        if (srun_in_chunks((const char *)data, size, bufsz) != whole) {
            fprintf(stderr, "the whole text %s srun, read in chunks of a %zu-byte buffer it %s\n",
                    whole ? "names" : "does not name", bufsz, whole ? "does not" : "does");
            __builtin_trap();
        }
    struct oom_report rep;
    bool scanned = scan_text((const char *)data, size, &rep, NULL) == 0;
    uint64_t stream = one_pass(data, size, false, false, scanned ? &rep : NULL);
    uint64_t ahead = one_pass(data, size, true, false, scanned ? &rep : NULL); /* run's command named srun, or its log */
    /* run's read-back since stranger25: the whole log searched (srun_settled),
     * no line asked again; the same ranks as the pass that had the answer */
    if (one_pass(data, size, whole, true, scanned ? &rep : NULL) != (whole ? ahead : stream)) {
        fprintf(stderr, "srun settled %s: ranks differ\n", whole ? "named" : "not named");
        __builtin_trap();
    }
    /* srun named on the first line: the stream knew it from the start too */
    const char *nl = memchr(data, '\n', size);
    if (msg_names_srun((const char *)data, nl ? (size_t)(nl - (const char *)data) : size) && stream != ahead) {
        fprintf(stderr, "srun named on the first line, ranks differ from srun named ahead\n");
        __builtin_trap();
    }
    if (scanned) oom_report_release(&rep);
    return 0;
}
