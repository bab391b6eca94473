/* logidx: when each part of a run's log arrived — logs/ID.idx, written by
 * the tee (sys/child) beside logs/ID.log and read back by report to put
 * step lines and the OOM on the memory chart's time axis. Text:
 *   # oomlab log index v1
 *   # start: 2026-12-02T10:00:00.123Z      (wall clock at ms 0)
 *   # resolution_ms: 100
 *   OFFSET MS                              (one entry per line)
 * An entry says: the log's bytes from OFFSET up to the next entry's OFFSET
 * reached the log at MS (ms since start, monotonic clock) or within
 * resolution_ms after it. The tee writes an entry for a chunk it reads
 * only when resolution_ms have passed since the last entry, so the index
 * has at most 10 entries a second whatever the log's size, and a last entry
 * at the log's final size when the run ends. Pure: formatting, parsing and
 * a cursor that answers offsets in increasing order, fed one line at a
 * time (the file is never held whole). */
#ifndef OOMLAB_LOGIDX_H
#define OOMLAB_LOGIDX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOGIDX_MAGIC "# oomlab log index v1"
#define LOGIDX_RESOLUTION_MS 100
#define LOGIDX_LINE_MAX 64 /* an entry line, newline included, fits */

struct logidx_entry {
    uint64_t offset;
    int64_t ms;
};

/* The three header lines into buf (start_iso: the wall clock at ms 0);
 * returns the length, 0 when it does not fit. */
size_t logidx_header(char *buf, size_t size, const char *start_iso);
/* "OFFSET MS\n" into buf; returns the length, 0 when it does not fit. */
size_t logidx_entry_format(char *buf, size_t size, const struct logidx_entry *e);

/* The tee's rule: is a chunk read at ms worth an entry? (The first always.) */
struct logidx_writer {
    int64_t last_ms;
    bool any;
};
bool logidx_due(struct logidx_writer *w, int64_t ms);

/* Reading. Feed lines (without '\n') in file order until the cursor no
 * longer wants more for the offset asked; then ask. */
struct logidx_cursor {
    bool magic;           /* the first line was LOGIDX_MAGIC */
    int64_t start_ms;     /* wall clock at ms 0 (ms since the epoch); -1 unknown */
    int64_t resolution_ms;
    struct logidx_entry cur, next;
    bool have_cur, have_next;
    bool bad;             /* not an index, or entries out of order: no answers */
    bool eof;             /* the caller has no more lines */
    uint64_t entries, lines;
};

void logidx_cursor_init(struct logidx_cursor *c);
/* One line; a malformed one or one out of order makes the cursor bad. */
void logidx_cursor_line(struct logidx_cursor *c, const char *line, size_t len);
/* True while more lines are needed to answer for offset. */
bool logidx_cursor_wants(const struct logidx_cursor *c, uint64_t offset);
/* The ms at which the byte at offset arrived; -1 unknown (bad index,
 * before the first entry, an offset lower than one already answered). */
int64_t logidx_cursor_ms(const struct logidx_cursor *c, uint64_t offset);
/* The log's size the run ended with (the last entry's offset), and its ms. */
bool logidx_cursor_last(const struct logidx_cursor *c, struct logidx_entry *e);

#endif
