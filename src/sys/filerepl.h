/* filerepl: replace a file's contents atomically — write a temporary file
 * beside it, then rename over it — so a reader (node_exporter's textfile
 * collector, a dashboard) sees the old or the new file, never half of one.
 * Only a regular file (or a name that does not exist yet) is ever replaced:
 * a symlink, FIFO, device node or directory at the path is refused, so
 * `--prom /dev/full` cannot turn a device into a file. Nothing is kept
 * between calls. */
#ifndef OOMLAB_FILEREPL_H
#define OOMLAB_FILEREPL_H

#include <stddef.h>

#include "lib/err.h"

/* 0 when path is absent or a regular file (lstat: a symlink is not
 * followed); -1 with "PATH is a symbolic link: ..." otherwise. what names
 * the option for the message ("--prom"). */
int filerepl_check(const char *path, const char *what, struct oomlab_err *err);

/* Write len bytes of data as path (checked by filerepl_check first, and
 * again just before the rename). The temporary is "path.tmp.XXXXXX",
 * created exclusively (never through an existing name), mode 0644 less the
 * umask, not ending in .prom so collectors skip it, and removed on failure.
 * 0, or -1 with the reason (the old file is then left as it was). */
int filerepl_write(const char *path, const char *data, size_t len, struct oomlab_err *err);

#endif
