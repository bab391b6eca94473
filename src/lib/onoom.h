/* onoom: what `run --on-oom` changes for the next attempt after a GPU OOM —
 * one variable, as the guides' catch-and-retry does: halve the per-device
 * batch and multiply gradient accumulation by the same factor (the
 * effective batch stays exactly the same), halve the sequence length, or
 * turn gradient checkpointing on. Pure: reads the config the last attempt
 * ran with, writes --set assignments. */
#ifndef OOMLAB_ONOOM_H
#define OOMLAB_ONOOM_H

#include <stddef.h>

#include "lib/err.h"
#include "lib/runcfg.h"

enum onoom_policy { ONOOM_OFF, ONOOM_HALVE_BATCH, ONOOM_HALVE_SEQ, ONOOM_CKPT };

/* "halve-batch", "halve-seq", "ckpt"; -1 with err naming them. */
int onoom_parse(const char *s, enum onoom_policy *out, struct oomlab_err *err);
const char *onoom_name(enum onoom_policy p);

/* The config keys the assignments use (the user's own --set key for that
 * field when there is one, so {KEY} placeholders keep working). */
struct onoom_keys {
    const char *batch, *accum, *seq, *ckpt;
};

struct onoom_step {
    char sets[2][160]; /* "key=value" */
    size_t n_sets;
    char what[200];    /* "device_batch_size 8 -> 4, grad_accum 1 -> 2" or why nothing */
};

/* Can the policy run on this config at all? 0, or -1 with err (the batch,
 * or the sequence length, is not in the config). */
int onoom_check(enum onoom_policy p, const struct runcfg *cfg, struct oomlab_err *err);
/* The batch halve-batch goes to: the largest divisor of b at most b/2 (1
 * for a prime), so that grad_accum x b/that keeps the effective batch
 * exactly; diagnose's plan names the same move. b >= 2. */
long onoom_half_batch(long b);

/* The next attempt's change: 0 with out filled; 1 when there is nothing
 * left to try (below the floor, checkpointing already on), out->what says
 * why; -1 with err when the config lacks the value. A batch b becomes its
 * largest divisor d <= b/2 (b/2 when b is even) and accumulation a becomes
 * a*b/d; an odd sequence length rounds down. floor: the smallest batch or
 * sequence length to try (>= 1). */
int onoom_next(enum onoom_policy p, const struct runcfg *cfg, long floor,
               const struct onoom_keys *keys, struct onoom_step *out, struct oomlab_err *err);

#endif
