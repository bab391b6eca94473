/* activity: the last activity a paste's own log lines show, read as
 * weighted evidence (diagstage9, issue 12). An issue title names the OOM
 * and the paste under it is the tool's log, cut before the error: vLLM's
 * "GPU KV cache size: 106,640 tokens" / "Maximum concurrency for 8,192
 * tokens per request", DeepSpeed's "Creating torch.float16 ZeRO stage 3
 * optimizer" / "Stage 3 initialize beginning", a GGUF loader's "Computed
 * blk.29.attn_kv_b.weight ... stored in buffer Vulkan0", a training
 * script's "Running validation...". Each wording is a row of the table in
 * activity.c with its stage and weight; the reading walks up from the
 * paste's end over its last log lines (ACTIVITY_LINES, not blank lines,
 * fences or table rows) and stops at the user's narration (first person,
 * words about the failure), a thread's comment header or markup. The
 * stage with the most weight, at least ACTIVITY_MIN and more than any
 * other, is the paste's last activity.
 *
 * The scan uses it only where nothing else named a stage for a message
 * nothing leads to (a title), after diagstage6's tail walk found no phase
 * line (scan.c tail_stage). Pure functions on caller-owned text. */
#ifndef OOMLAB_ACTIVITY_H
#define OOMLAB_ACTIVITY_H

#include <stddef.h>

#include "lib/oom.h"

#define ACTIVITY_LINES 12
#define ACTIVITY_MIN 2

struct activity_reading {
    int score[OOM_STAGE_COUNT];
    int lines;          /* log lines read */
    size_t first_at;    /* the highest line read (offset in the text) */
};

/* Read the last log lines of text[0, len); returns the stage they show or
 * OOM_STAGE_UNKNOWN. r (may be NULL) receives the scores. */
enum oom_stage activity_tail(const char *text, size_t len, struct activity_reading *r);

/* The stage one line's wording names (its row), or OOM_STAGE_UNKNOWN;
 * *weight (may be NULL) receives the row's weight. */
enum oom_stage activity_line(const char *line, size_t n, int *weight);

/* Is the line a thread's post header ("user · comment · 2023-03-15", "· review ·",
 * "· answer ·", "[turn 2 by user]")? What follows it is another person's post
 * (scan.c's other_post: the one rule the line walks stop at). */
bool activity_post_header(const char *line, size_t n);

#endif
