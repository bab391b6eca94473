/* memcsv: a run's GPU-memory samples (logs/ID_mem.csv, written by memlog)
 * read back as one series per GPU — device-wide used and the run's own
 * processes against elapsed seconds, the card's total — reduced as they
 * are read (lib/reduce: each series keeps its extremes in bounded memory),
 * so a day of 10 ms samples costs the same memory as a minute. Fed in
 * chunks of any size (memcsv_feed) or whole (memcsv_parse). Pure; the
 * caller releases the result with memcsv_release. Unknown figures are -1. */
#ifndef OOMLAB_MEMCSV_H
#define OOMLAB_MEMCSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/reduce.h"

#define MEMCSV_MAX_GPUS 64
#define MEMCSV_LINE_MAX 1024 /* a longer line is a comment (when it starts with '#') or a bad row */

struct memcsv_gpu {
    int index;
    int64_t total;             /* bytes, the last known; -1 */
    uint64_t rows;             /* well-formed rows of this GPU */
    struct reduce_stream used; /* x elapsed s, y bytes; unknown cells not fed */
    struct reduce_stream tree; /* the run's own processes */
};

struct memcsv {
    struct memcsv_gpu gpus[MEMCSV_MAX_GPUS];
    size_t n_gpus;
    size_t bad_rows;  /* malformed rows skipped */
    int not_sampled;  /* the file says memory was not sampled, or has no CSV header */
    bool said_not_sampled;   /* the file says so itself ("# GPU memory not sampled: WHY") */
    char not_sampled_why[512]; /* its WHY, control bytes as '?', cut with "..." past
                                  511 bytes (it names the library path twice); "" none */
    int64_t start_ms; /* wall clock (ms since the epoch) at elapsed 0, from the first row; -1 */
    /* reading state */
    bool in_rows, skipping, failed;
    char line[MEMCSV_LINE_MAX];
    size_t line_len;
};

void memcsv_init(struct memcsv *m);
/* -1 with err only when out of memory (what was read so far is kept). */
int memcsv_feed(struct memcsv *m, const char *data, size_t len, struct oomlab_err *err);
/* After the last chunk: a row cut short (no newline) is a bad row. A file
 * without the CSV header, or saying "# GPU memory not sampled", gives no
 * GPU (not_sampled set). */
void memcsv_finish(struct memcsv *m);
/* init + feed + finish of a whole text. */
int memcsv_parse(struct memcsv *m, const char *text, size_t len, struct oomlab_err *err);
void memcsv_release(struct memcsv *m);

/* "2026-12-01T20:35:21.500Z" (the seconds' fraction optional) as ms since
 * the epoch; -1 when it is not that form. */
int64_t memcsv_iso_ms(const char *s, size_t len);

#endif
