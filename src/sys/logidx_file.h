/* logidx_file: read a run's logs/ID.idx (lib/logidx) from disk, one line
 * at a time, answering "when did the byte at this offset arrive" for
 * offsets in increasing order — the file is streamed, never held whole.
 * The caller ends a reader with logidx_file_close. */
#ifndef OOMLAB_LOGIDX_FILE_H
#define OOMLAB_LOGIDX_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/logidx.h"

struct logidx_file {
    FILE *f;
    struct logidx_cursor cur;
};

/* "DIR/logs/ID.log" -> "DIR/logs/ID.idx" into buf; false when it does not fit. */
bool logidx_file_path(const char *log_path, char *buf, size_t size);
/* false when the index is missing, not a regular file or not an index. */
bool logidx_file_open(struct logidx_file *x, const char *path);
/* ms since the run's start at which offset arrived; -1 unknown. */
int64_t logidx_file_ms(struct logidx_file *x, uint64_t offset);
/* Read to the end (for the last entry: the log's size the run ended with). */
void logidx_file_drain(struct logidx_file *x);
void logidx_file_close(struct logidx_file *x);

#endif
