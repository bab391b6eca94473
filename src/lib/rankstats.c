/* rankstats: per rank and attempt, the figures of a launcher's interleaved
 * log (see rankstats.h). The current attempt's entries are found by a
 * slot per rank, so a line costs the same however many ranks there are. */
#include "lib/rankstats.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/strbuf.h"
#include "lib/units.h"

void rankstats_init(struct rankstats *rs)
{
    memset(rs, 0, sizeof *rs);
    elastic_init(&rs->elastic);
    for (size_t i = 0; i < MSG_TASK_LABEL_LINES; i++) rs->recent[i] = -1;
}

void rankstats_release(struct rankstats *rs)
{
    for (size_t i = 0; i < rs->n_held; i++) free(rs->held[(rs->held_first + i) % RANKSTATS_HOLD].text);
    free(rs->r);
    free(rs->slot);
    free(rs->seen);
    memset(rs, 0, sizeof *rs);
}

/* slot[] and seen[] cover rank; false when out of memory. */
static bool cover(struct rankstats *rs, int rank)
{
    if ((size_t)rank < rs->n_slot) return true;
    size_t n = rs->n_slot, n_seen = rs->n_slot;
    size_t *slot = strbuf_grow(rs->slot, &n, (size_t)rank + 1, sizeof *slot, SIZE_MAX);
    if (!slot) return false;
    rs->slot = slot;
    unsigned char *seen = strbuf_grow(rs->seen, &n_seen, n, 1, SIZE_MAX);
    if (!seen) return false;
    rs->seen = seen;
    memset(slot + rs->n_slot, 0, (n - rs->n_slot) * sizeof *slot);
    memset(seen + rs->n_slot, 0, n - rs->n_slot);
    rs->n_slot = n;
    return true;
}

/* A new entry for (rank, attempt); -1 when out of memory. */
static long add_entry(struct rankstats *rs, int rank, int attempt)
{
    if (!cover(rs, rank)) return -1;
    if (rs->n == rs->cap) {
        struct rankstats_rank *r = strbuf_grow(rs->r, &rs->cap, rs->n + 1, sizeof *r, SIZE_MAX);
        if (!r) {
            rs->failed = true;
            return -1;
        }
        rs->r = r;
    }
    rs->r[rs->n] = (struct rankstats_rank){.rank = rank, .attempt = attempt, .peak_alloc = -1,
                                           .peak_reserved = -1, .oom_stage = OOM_STAGE_UNKNOWN,
                                           .oom_alloc = -1, .oom_reserved = -1, .capacity = -1,
                                           .oom_line = -1, .nvml_peak = -1};
    if (!rs->seen[rank]) rs->seen[rank] = 1, rs->ranks++;
    return (long)rs->n++;
}

static long entry_of(struct rankstats *rs, int rank, int attempt)
{
    if (rank < 0 || rank > RANKSTATS_MAX_RANK || !cover(rs, rank)) return -1;
    if (attempt != rs->slot_attempt) { /* a restart: every rank starts a new entry */
        memset(rs->slot, 0, rs->n_slot * sizeof *rs->slot);
        rs->slot_attempt = attempt;
    }
    if (rs->slot[rank]) return (long)rs->slot[rank] - 1;
    long e = add_entry(rs, rank, attempt);
    if (e >= 0) rs->slot[rank] = (size_t)e + 1;
    return e;
}

/* A line's rank decided: its figures counted. */
static long decide(struct rankstats *rs, struct rankstats_held *h, int rank)
{
    long e = rank < 0 ? -1 : entry_of(rs, rank, h->attempt);
    h->entry = e;
    if (e < 0) return -1;
    struct rankstats_rank *r = &rs->r[e];
    r->lines++;
    if (h->peak_alloc > r->peak_alloc) r->peak_alloc = h->peak_alloc;
    if (h->peak_reserved > r->peak_reserved) r->peak_reserved = h->peak_reserved;
    return e;
}

static void deliver(struct rankstats *rs, const struct rankstats_held *h, const char *line, size_t len)
{
    if (rs->fn && h->entry >= 0 && line) rs->fn(line, len, h->entry, rs->fn_ctx);
}

/* Deliver the decided lines at the front of the hold, in order. */
static void drain(struct rankstats *rs)
{
    while (rs->n_held) {
        struct rankstats_held *h = &rs->held[rs->held_first];
        if (h->entry == RANKSTATS_UNDECIDED) return;
        deliver(rs, h, h->text, h->len);
        free(h->text);
        h->text = NULL;
        rs->held_first = (rs->held_first + 1) % RANKSTATS_HOLD;
        rs->n_held--;
    }
}

/* Held srun labels that no line can confirm any more (farther than
 * MSG_TASK_LABEL_LINES above; all of them at a restart, whose workers are
 * new writers, or at the end): no rank. */
static void expire(struct rankstats *rs, long before)
{
    for (size_t i = 0; i < rs->n_held; i++) {
        struct rankstats_held *h = &rs->held[(rs->held_first + i) % RANKSTATS_HOLD];
        if (h->entry == RANKSTATS_UNDECIDED && h->line < before) h->entry = -1;
    }
}

long rankstats_line(struct rankstats *rs, const char *line, size_t len, const struct steps_point *pt)
{
    struct msg_prefix px;
    int restarts = rs->elastic.restarts;
    elastic_line(&rs->elastic, line, len);
    long at = ++rs->n_lines;
    expire(rs, rs->elastic.restarts != restarts ? LONG_MAX : at - MSG_TASK_LABEL_LINES);
    drain(rs);
    if (!rs->srun && !rs->srun_settled && msg_names_srun(line, len)) rs->srun = true;
    msg_prefix_parse(line, len < 512 ? len : 512, &px);
    if (!rs->srun) msg_prefix_unlabel(line, len < 512 ? len : 512, &px); /* a label names no rank */
    /* an srun label is confirmed by a line above that starts with it; the
     * held ones above are confirmed by this line's own label */
    int label = msg_task_label(line, len), want = px.task_label ? px.rank : -1;
    bool confirmed = false;
    for (size_t i = 0; want >= 0 && i < MSG_TASK_LABEL_LINES; i++) confirmed |= rs->recent[i] == want;
    rs->recent[at % MSG_TASK_LABEL_LINES] = label;
    for (size_t i = 0; label >= 0 && i < rs->n_held; i++) {
        struct rankstats_held *h = &rs->held[(rs->held_first + i) % RANKSTATS_HOLD];
        if (h->entry == RANKSTATS_UNDECIDED && h->label == label) decide(rs, h, label);
    }
    struct rankstats_held now = {.entry = RANKSTATS_UNDECIDED, .line = at, .label = px.task_label ? px.rank : -1,
                                 .attempt = rs->elastic.restarts, .peak_alloc = pt ? pt->peak_alloc : -1,
                                 .peak_reserved = pt ? pt->peak_reserved : -1};
    long e = px.task_label && !confirmed ? RANKSTATS_UNDECIDED : decide(rs, &now, px.rank);
    drain(rs);
    if (e != RANKSTATS_UNDECIDED && (rs->n_held == 0 || e < 0)) { /* nothing held before it that it could pass */
        deliver(rs, &now, line, len);
        return e;
    }
    if (rs->n_held == RANKSTATS_HOLD) { /* cannot happen: the oldest expires first; be safe */
        rs->failed = true;
        return e == RANKSTATS_UNDECIDED ? -1 : e;
    }
    if (rs->fn && !(now.text = malloc(len ? len : 1))) rs->failed = true; /* its figures still count */
    if (now.text) memcpy(now.text, line, len);
    now.len = len;
    rs->held[(rs->held_first + rs->n_held++) % RANKSTATS_HOLD] = now;
    return e == RANKSTATS_UNDECIDED ? -1 : e;
}

void rankstats_flush(struct rankstats *rs)
{
    expire(rs, LONG_MAX);
    drain(rs);
}

/* The entry of (rank, attempt), -1 none. */
static long find(const struct rankstats *rs, int rank, int attempt)
{
    for (size_t i = 0; i < rs->n; i++)
        if (rs->r[i].rank == rank && rs->r[i].attempt == attempt) return (long)i;
    return -1;
}

static void take_oom(struct rankstats_rank *r, const struct oom_event *ev)
{
    int64_t reserved = ev->bytes.reserved, sum;
    if (reserved < 0 && ev->bytes.allocated >= 0 && ev->bytes.reserved_unallocated >= 0 &&
        units_add(ev->bytes.allocated, ev->bytes.reserved_unallocated, &sum))
        reserved = sum;
    r->oom = true;
    r->oom_line = ev->line;
    r->oom_stage = ev->stage;
    r->oom_alloc = ev->bytes.allocated;
    r->oom_reserved = reserved;
    if (ev->bytes.capacity > 0) r->capacity = ev->bytes.capacity;
}

/* find() is a walk of the entries, done once per kept event and table row:
 * at most (OOM_MAX_EVENTS + ELASTIC_MAX_FAILURES) walks, so linear in the
 * entries. bench/rankdense (2-core VM): 20,000 OOM events over 512 ranks,
 * under 0.1 ms; over 65,536 ranks, 47-66 ms beside 3-5 s of scanning the
 * same log. No index needed. */
void rankstats_finish(struct rankstats *rs, const struct oom_report *rep)
{
    rankstats_flush(rs);
    for (size_t i = 0; rep && i < rep->n_events; i++) {
        const struct oom_event *ev = &rep->events[i];
        if (!ev->gpu_oom || ev->rank < 0) continue;
        long e = find(rs, ev->rank, elastic_attempt_of_line(&rs->elastic, ev->line));
        if (e >= 0 && !rs->r[e].oom) take_oom(&rs->r[e], ev);
    }
    for (size_t i = 0; rep && rep->n_dropped && i < rs->n; i++) rs->r[i].oom_unknown = !rs->r[i].oom;
    int last = rankstats_attempts(rs) - 1;
    for (size_t i = 0; i < rs->elastic.n_failures; i++) {
        const struct elastic_root *f = &rs->elastic.failures[i];
        if (f->rank < 0 || f->rank > RANKSTATS_MAX_RANK || !f->have_exitcode) continue;
        long e = find(rs, (int)f->rank, last);
        if (e >= 0 && !rs->r[e].have_exit) rs->r[e].have_exit = true, rs->r[e].exitcode = f->exitcode;
    }
}

void rankstats_nvml(struct rankstats *rs, int rank, int attempt, int64_t bytes)
{
    if (rank < 0 || rank > RANKSTATS_MAX_RANK || attempt < 0 || bytes < 0) return;
    long e = find(rs, rank, attempt);
    if (e < 0) e = add_entry(rs, rank, attempt);
    if (e >= 0 && bytes > rs->r[e].nvml_peak) rs->r[e].nvml_peak = bytes;
}

int64_t rankstats_peak(const struct rankstats_rank *r, bool *lower)
{
    int64_t steps = r->peak_reserved >= 0 ? r->peak_reserved : r->peak_alloc;
    int64_t oom = r->oom_reserved >= 0 ? r->oom_reserved : r->oom_alloc;
    *lower = oom > steps;
    return oom > steps ? oom : steps;
}

int rankstats_attempts(const struct rankstats *rs)
{
    return rs->elastic.restarts < INT32_MAX ? rs->elastic.restarts + 1 : INT32_MAX;
}
