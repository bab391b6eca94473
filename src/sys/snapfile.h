/* snapfile: load a PyTorch memory snapshot file (.pickle, or .pickle.gz:
 * zlib reads plain files as they are) into lib/snapshot — the one file
 * reader `oomlab snapshot` and `diagnose RUN_ID` (the torch hook's
 * logs/ID_oom/ pickles) share. A regular file only: a FIFO would block, a
 * device never end. The caller releases s with snapshot_release, also
 * after -1. */
#ifndef OOMLAB_SNAPFILE_H
#define OOMLAB_SNAPFILE_H

#include <stddef.h>

#include "lib/err.h"
#include "lib/snapshot.h"

/* 0, or -1 with err naming the file. memory_limit: the most the pickle
 * reader may hold. */
int snapfile_load(const char *path, size_t memory_limit, struct snapshot *s,
                  struct oomlab_err *err);

#endif
