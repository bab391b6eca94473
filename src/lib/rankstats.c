/* rankstats: per rank and attempt, the figures of a launcher's interleaved
 * log (see rankstats.h). The current attempt's entries are found by a
 * slot per rank, so a line costs the same however many ranks there are. */
#include "lib/rankstats.h"

#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/units.h"

void rankstats_init(struct rankstats *rs)
{
    memset(rs, 0, sizeof *rs);
    elastic_init(&rs->elastic);
}

void rankstats_release(struct rankstats *rs)
{
    free(rs->r);
    free(rs->slot);
    free(rs->seen);
    memset(rs, 0, sizeof *rs);
}

/* slot[] and seen[] cover rank; false when out of memory. */
static bool cover(struct rankstats *rs, int rank)
{
    if ((size_t)rank < rs->n_slot) return true;
    size_t n = (size_t)rank + 1 < 2 * rs->n_slot ? 2 * rs->n_slot : (size_t)rank + 1;
    size_t *slot = realloc(rs->slot, n * sizeof *slot);
    if (!slot) return false;
    rs->slot = slot;
    unsigned char *seen = realloc(rs->seen, n);
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
        size_t c = rs->cap ? 2 * rs->cap : 16;
        struct rankstats_rank *r = realloc(rs->r, c * sizeof *r);
        if (!r) {
            rs->failed = true;
            return -1;
        }
        rs->r = r, rs->cap = c;
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

long rankstats_line(struct rankstats *rs, const char *line, size_t len, const struct steps_point *pt)
{
    struct msg_prefix px;
    elastic_line(&rs->elastic, line, len);
    msg_prefix_parse(line, len < 512 ? len : 512, &px);
    if (px.rank < 0) return -1;
    long e = entry_of(rs, px.rank, rs->elastic.restarts);
    if (e < 0) return -1;
    struct rankstats_rank *r = &rs->r[e];
    r->lines++;
    if (pt && pt->peak_alloc > r->peak_alloc) r->peak_alloc = pt->peak_alloc;
    if (pt && pt->peak_reserved > r->peak_reserved) r->peak_reserved = pt->peak_reserved;
    return e;
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

void rankstats_finish(struct rankstats *rs, const struct oom_report *rep)
{
    for (size_t i = 0; rep && i < rep->n_events; i++) {
        const struct oom_event *ev = &rep->events[i];
        if (!ev->gpu_oom || ev->rank < 0) continue;
        long e = find(rs, ev->rank, elastic_attempt_of_line(&rs->elastic, ev->line));
        if (e >= 0 && !rs->r[e].oom) take_oom(&rs->r[e], ev);
    }
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
