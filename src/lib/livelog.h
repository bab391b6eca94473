/* livelog: what a run's log says so far, read while it grows — the highest
 * step number, the progress lines seen, the highest per-step peak memory,
 * the GPU out-of-memory messages — for `run --prom` and `guard --steps`.
 * Bytes are fed in arrival order; lines end at '\n' or '\r' (each state of
 * a redrawn progress bar is a line); a line longer than LIVELOG_LINE_MAX is
 * judged on its first LIVELOG_LINE_MAX bytes. Lines are read by lib/steps
 * and lib/msg, the parsers run and diagnose use. A livelog owns one buffer:
 * free it with livelog_release. */
#ifndef OOMLAB_LIVELOG_H
#define OOMLAB_LIVELOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LIVELOG_LINE_MAX (64u << 10)

struct livelog {
    long step;                /* highest step number a line carried; -1 none */
    long loss_lines;          /* lines with a loss but no step number (HF Trainer dicts) */
    int64_t peak_alloc, peak_reserved, peak_mem; /* max over the lines; -1 none */
    long ooms;                /* GPU out-of-memory messages (diagnose's primary events) */
    char *line;               /* the line being read (LIVELOG_LINE_MAX bytes) */
    size_t len;
    bool cut;                 /* the line went past LIVELOG_LINE_MAX */
};

/* 0, or -1 when the line buffer cannot be had (out of memory). */
int livelog_init(struct livelog *lv);
void livelog_feed(struct livelog *lv, const char *buf, size_t n);
/* The input ended: a last line without a newline is read too. */
void livelog_flush(struct livelog *lv);
void livelog_release(struct livelog *lv);

/* Training steps the log has shown: the highest step number, or, in a log
 * that prints none, the lines that carried a loss. 0 when neither. */
long livelog_steps_seen(const struct livelog *lv);
/* The highest per-step peak: reserved, else allocated, else a memory
 * figure of unstated kind; -1 when no line carried one. */
int64_t livelog_peak(const struct livelog *lv);

#endif
