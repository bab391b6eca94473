/* torchsteps: the per-step allocator file the PyTorch hook writes
 * (logs/ID_steps.csv, `oomlab run --torch`) read back into a steps series:
 * one point per optimizer step, its peaks the maximum over every rank and
 * device that reported that step. Pure; the caller releases the result
 * with torchsteps_release. */
#ifndef OOMLAB_TORCHSTEPS_H
#define OOMLAB_TORCHSTEPS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/steps.h"

/* The header oomlab writes before the child starts; the hook appends rows. */
#define TORCHSTEPS_HEADER \
    "step,time,rank,local_rank,device,optimizer,allocated,reserved,peak_allocated,peak_reserved\n"

struct torchsteps {
    struct steps_series series; /* step order; peak_alloc/peak_reserved set */
    size_t rows;                /* well-formed rows read */
    size_t bad_rows;            /* rows skipped (cut by a kill, malformed) */
    int ranks;                  /* distinct ranks seen (rows without a rank count as one) */
    long worst_rank;            /* the rank with the highest peak reserved; -1 none/unknown */
    int worst_device;           /* its device; -1 */
    int64_t peak_alloc, peak_reserved; /* maxima over everything; -1 none */
    double first_time, last_time;      /* Unix seconds of the first/last row; NaN none */
};

/* Parse the whole file's text. A last line without '\n' (a row cut while
 * the child was killed) and malformed rows are counted in bad_rows, never
 * fatal. -1 with err only when the header is not ours or memory runs out. */
int torchsteps_parse(struct torchsteps *ts, const char *text, size_t len, struct oomlab_err *err);
void torchsteps_release(struct torchsteps *ts);

/* The same, fed in pieces of any size (a file read in chunks: memory does
 * not grow with the file). new sets up ts (NULL: out of memory, which end
 * then reports); end finishes ts, frees the stream and returns what parse
 * would. */
struct torchsteps_stream;
struct torchsteps_stream *torchsteps_stream_new(struct torchsteps *ts);
void torchsteps_stream_feed(struct torchsteps_stream *st, const char *data, size_t len);
int torchsteps_stream_end(struct torchsteps_stream *st, struct oomlab_err *err);

#endif
