/* memcsv: a run's GPU-memory samples (logs/ID_mem.csv, written by memlog)
 * read back as one series per GPU: elapsed time, device-wide used, the
 * run's own processes, the card's total. Pure; the caller releases the
 * result with memcsv_release. Unknown figures are -1. */
#ifndef OOMLAB_MEMCSV_H
#define OOMLAB_MEMCSV_H

#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

#define MEMCSV_MAX_GPUS 64

struct memcsv_sample {
    double elapsed_s;
    int64_t used, tree; /* bytes; -1 unknown */
};

struct memcsv_gpu {
    int index;
    int64_t total; /* bytes, the last known; -1 */
    struct memcsv_sample *samples;
    size_t n, cap;
};

struct memcsv {
    struct memcsv_gpu gpus[MEMCSV_MAX_GPUS];
    size_t n_gpus;
    size_t bad_rows;  /* malformed rows skipped */
    int not_sampled;  /* the file says memory was not sampled */
};

/* -1 with err only when out of memory. A file without the CSV header, or
 * saying "# GPU memory not sampled", gives no GPU (not_sampled set). */
int memcsv_parse(struct memcsv *m, const char *text, size_t len, struct oomlab_err *err);
void memcsv_release(struct memcsv *m);

#endif
