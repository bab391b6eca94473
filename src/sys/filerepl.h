/* filerepl: replace a file's contents atomically — write a temporary file
 * beside it, then rename over it — so a reader (node_exporter's textfile
 * collector, a dashboard) sees the old or the new file, never half of one.
 * Nothing is kept between calls. */
#ifndef OOMLAB_FILEREPL_H
#define OOMLAB_FILEREPL_H

#include <stddef.h>

#include "lib/err.h"

/* Write len bytes of data as path. The temporary is "path.tmp.PID" (not
 * ending in .prom, so collectors skip it) and is removed on failure.
 * 0, or -1 with the reason (the old file is then left as it was). */
int filerepl_write(const char *path, const char *data, size_t len, struct oomlab_err *err);

#endif
