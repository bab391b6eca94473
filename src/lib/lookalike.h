/* lookalike: more of the evidence that a paste's OOM words are no failure
 * of this run, read as rows of lib/context's classes (diagprec, issue 12).
 * At first sight (each set scored by the code that was main when it came
 * in), the look-alikes called GPU OOMs on the held-out sets heldout25, 26,
 * 27 and 29 were 18 logs; 10 of them were changes (pull requests) about
 * OOMs. Those the context rows still did not reach had their change
 * evidence in forms these rows read: a title behind tags ("[Bugfix] Honor
 * --enable-cpu-offload ...", "(perf): VAE decode memory improvements"), a
 * title in a change's words outside context.c's verbs ("More hints on what
 * to do with CUDA Out of memory errors"), a review bot's turn, a change's
 * expected effect. Two look-alikes right at first sight were made GPU OOMs
 * later by the context's GPU call: a pull request's bot review and Ray's OOM
 * errors (its host-memory monitor's) under a title naming GPUs. The rows are
 * here, apart from context.c's, and add to the same reading.
 *
 * Pure functions on caller-owned text; nothing allocates. */
#ifndef OOMLAB_LOOKALIKE_H
#define OOMLAB_LOOKALIKE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/context.h"

/* Read text (as context_read: `title` says its first non-blank line is an
 * issue or pull request title) for this file's rows and add their evidence
 * to r (scores and hits). context_read calls it last. */
void lookalike_read(const char *text, size_t len, bool title, struct context_reading *r);

#endif
