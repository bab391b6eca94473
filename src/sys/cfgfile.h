/* cfgfile: reading a run config file (--config of run, probe and diagnose)
 * — one size limit, one set of messages. The file is opened non-blocking
 * and checked before any read, so a FIFO or a device (/dev/null, a tty)
 * is refused instead of blocking or reading nothing; /proc-style files
 * that report size 0 are read to their end. The caller frees *text. */
#ifndef OOMLAB_CFGFILE_H
#define OOMLAB_CFGFILE_H

#include <stddef.h>

#include "lib/err.h"

#define CFGFILE_MAX ((size_t)16 << 20) /* 16 MiB: far above any real run config */

/* 0 with a malloc'd, NUL-terminated *text, or -1 with err naming path:
 * missing/unreadable, not a regular file (and which kind), larger than
 * CFGFILE_MAX. */
int cfgfile_read(const char *path, char **text, size_t *len, struct oomlab_err *err);

#endif
