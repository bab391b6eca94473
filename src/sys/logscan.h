/* logscan: run the diagnose engine over a file path ("-" = stdin; .gz read
 * transparently; UTF-16 text — PowerShell's `>` — decoded to UTF-8 on the
 * fly), optionally handing every line of the same pass (or only those of
 * its head and tail) to a callback, so a caller that wants both the OOM
 * report and per-line data (run: the step/loss series; diagnose: the
 * memory trend) reads the input once. The caller frees the report with
 * oom_report_release. */
#ifndef OOMLAB_LOGSCAN_H
#define OOMLAB_LOGSCAN_H

#include <stdbool.h>
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

/* Which lines the callback gets: every line when head_bytes and tail_bytes
 * are both 0; otherwise the lines that start in the first head_bytes of the
 * (decoded) input and the whole lines within its last tail_bytes (at most
 * LOGSCAN_TAIL_MAX), each line once, in order — the cost stays bounded
 * whatever the log's size. */
#define LOGSCAN_TAIL_MAX (2u << 20)

struct logscan_opts {
    logscan_line_fn fn; /* NULL: no lines */
    void *ctx;
    size_t head_bytes, tail_bytes;
    bool lines_only; /* only the lines: no OOM report (rep stays empty), and
                        reading stops where fn asks for no more */
};

/* How the input was read. */
struct logscan_info {
    const char *encoding; /* "utf-8" (bytes as they are), "utf-16le", "utf-16be" */
    bool bom;             /* a UTF-16 byte-order mark said so (else the NUL pattern) */
    unsigned long long bytes; /* bytes scanned, after decoding and inflating */
    /* The first bytes of undecoded (UTF-8 or byte) input: how many were
     * looked at and how many are NUL or control bytes no log holds. binary:
     * at least one in 20 is, so it is likely not a text log at all (a
     * checkpoint, an archive, a program); it is read all the same. */
    size_t sniffed, control;
    bool binary;
    /* gzip input that ends before its stream does (cut off while written):
     * the part that inflated was read; the end of the log is missing. */
    bool truncated;
};

/* logscan_path_lines with a choice of lines; info may be NULL. */
int logscan_path_opts(const char *path, struct oom_report *rep, const struct logscan_opts *opts,
                      struct logscan_info *info, struct oomlab_err *err);

#endif
