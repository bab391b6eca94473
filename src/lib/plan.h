/* plan: the ranked fix plan for a diagnosed log. The catalogue of fixes is
 * a table (docs/diagnose.md lists it) in the guides' order: the cause the
 * numbers point at first (other processes, fragmentation, an impossible
 * request, a cap), the stage's own fix, then batch with gradient
 * accumulation, sequence length, checkpointing, bf16 autocast, 8-bit
 * optimizer, LoRA/QLoRA, ZeRO/FSDP, fallbacks. Each item is an action with
 * a value to try and the reason from this log; with a run config the values
 * are the run's own. Pure; the plan is a fixed-size value. */
#ifndef OOMLAB_PLAN_H
#define OOMLAB_PLAN_H

#include <stddef.h>

#include "lib/oom.h"
#include "lib/runcfg.h"
#include "lib/verdict.h"

#define PLAN_MAX 9

struct plan_item {
    const char *id; /* catalogue id, e.g. "batch", "expandable-segments" */
    char action[384];
    char why[384];
};

struct plan {
    struct plan_item items[PLAN_MAX];
    size_t n;
};

/* cfg may be NULL (no --config). */
void plan_build(const struct oom_report *rep, const struct verdicts *v,
                const struct runcfg *cfg, struct plan *plan);

/* The catalogue, for docs and tests: number of entries and the id of each. */
size_t plan_catalogue_size(void);
const char *plan_catalogue_id(size_t i);

#endif
