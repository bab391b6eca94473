/* share: where oomlab's data files live (the PyTorch hook under
 * share/oomlab/torch): $OOMLAB_SHARE, else ../share/oomlab beside the
 * running binary (PREFIX/bin -> PREFIX/share/oomlab; in the source tree
 * bin/ and build/ both sit beside share/). Nothing is allocated. */
#ifndef OOMLAB_SHARE_H
#define OOMLAB_SHARE_H

#include <stddef.h>

#include "lib/err.h"

/* Fill buf with the directory that holds `rel` (e.g. "torch/sitecustomize.py")
 * and return 0; -1 with err naming where it looked. */
int share_find(const char *rel, char *buf, size_t size, struct oomlab_err *err);

#endif
