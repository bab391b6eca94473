/* memsummary: reads the torch.cuda.memory_summary() table a log prints
 * (every PyTorch era: KB/MB/GB or KiB/MiB/GiB cells, with or without the
 * "Requested memory" and "Oversize" rows, "CUDA"/"NPU"/"MUSA"/any device
 * word, "cudaMalloc"/"npuMalloc" retries, "GPU"/"MLU" reserved memory):
 * the OOM count, cudaMalloc retries, and allocated / reserved /
 * non-releasable memory, current and peak. One line at a time; pure. */
#ifndef OOMLAB_MEMSUMMARY_H
#define OOMLAB_MEMSUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/oom.h"

/* Read one line of a table into m (fields only where the line states them).
 * True when the line belongs to such a table: a "|...|" row, a "|====|"
 * rule, or the "memory summary, device ID N" title. */
bool memsummary_line(const char *line, size_t len, struct oom_memsummary *m);

/* Fragmentation evidence in a table: cudaMalloc retries (the allocator
 * freed its cache and tried again), or non-releasable memory that is a
 * large share (>= 1/8) of what is reserved. */
bool memsummary_fragmented(const struct oom_memsummary *m);

/* Every table of a text that holds several (the torch hook's
 * logs/ID_oom/ summaries: one per device), each begun by its "memory
 * summary, device ID N" title: up to max into out (each initialised here).
 * Returns the number of tables read. */
size_t memsummary_text(const char *text, size_t len, struct oom_memsummary *out, size_t max);

#endif
