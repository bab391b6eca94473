/* chunks: stream a regular file through a callback in fixed 1 MiB pieces,
 * for readers that reduce as they read (report's memory samples): memory
 * stays the same whatever the file's size. */
#ifndef OOMLAB_CHUNKS_H
#define OOMLAB_CHUNKS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/err.h"

/* fn returns 0 to go on, -1 to stop (its err is kept). 0 when the whole
 * file was read; -1 with err (and *missing set for a missing file) when it
 * cannot be opened, is not a regular file, or a read fails. */
int chunks_read(const char *path, int (*fn)(const char *data, size_t len, void *ctx, struct oomlab_err *err),
                void *ctx, bool *missing, struct oomlab_err *err);

#endif
