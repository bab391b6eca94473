/* logscan: run the diagnose engine over a file path ("-" = stdin; .gz read
 * transparently), optionally handing every line of the same pass to a
 * callback, so a caller that wants both the OOM report and per-line data
 * (run: the step/loss series) reads the input once. The caller frees the
 * report with oom_report_release. */
#ifndef OOMLAB_LOGSCAN_H
#define OOMLAB_LOGSCAN_H

#include <stddef.h>

#include "lib/oom.h"

/* The longest line delivered whole; a longer one is delivered as its last
 * LOGSCAN_LINE_MAX bytes (the head has left the window by then). The tail
 * is what matters: a tqdm bar redrawn with '\r' ends in its final state. */
#define LOGSCAN_LINE_MAX (4u << 20)

/* Called once per line, in order. A line is the bytes up to a '\n', the
 * '\n' excluded (so a CRLF line ends in '\r' and '\r' redraws inside it are
 * kept); a final line without '\n' is delivered too, an empty input gives
 * no line, and an empty line gives len 0. `line` points into the stream's
 * window: valid only during the call, not NUL-terminated, len <=
 * LOGSCAN_LINE_MAX (see above). Nothing is allocated per line. Return 0 to
 * go on, nonzero to get no more lines (the OOM scan still completes). */
typedef int (*logscan_line_fn)(const char *line, size_t len, void *ctx);

/* 0 on success (a report with zero events means "no OOM found"); -1 with
 * err filled when the input cannot be read (missing, directory, corrupt gz).
 * Same as logscan_path_lines with no callback. */
int logscan_path(const char *path, struct oom_report *rep, struct oomlab_err *err);

/* One pass over path: the OOM report in rep, and every line to fn(line,
 * len, ctx) when fn is not NULL. On -1 the lines read before the error have
 * been delivered; rep holds nothing. */
int logscan_path_lines(const char *path, struct oom_report *rep, logscan_line_fn fn, void *ctx,
                       struct oomlab_err *err);

#endif
