/* plan: the ranked fix plan for a diagnosed run. The catalogue of fixes is
 * a table (docs/diagnose.md lists it) in the guides' order: the cause the
 * numbers point at first (an impossible request, memory that grows step
 * after step, other processes, a cap, fragmentation), then the fixes that
 * follow from the stage — training steps: batch with gradient accumulation,
 * sequence length, checkpointing, bf16 autocast, 8-bit optimizer,
 * LoRA/QLoRA, ZeRO/FSDP, fallbacks; evaluation and generation: no_grad,
 * smaller eval batches, eval_accumulation_steps, shorter generation; load,
 * data, optimizer and checkpoint their own. Each item is an action with a
 * value to try and the reason from this log; with a run config the values
 * are the run's own. Pure; the plan and the trend are fixed-size values. */
#ifndef OOMLAB_PLAN_H
#define OOMLAB_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/oom.h"
#include "lib/runcfg.h"
#include "lib/steps.h"
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

/* The memory trend is steps' (steps_memory_trend_of: the figure run, table,
 * compare and report follow, so run and diagnose never disagree on a log).
 * Clear growth, what the leak hunt needs: growing, and by 2% or more from
 * the first figure to the last, over 3 points or more. */
bool plan_trend_clear(const struct steps_mem_trend *t);
/* "peak reserved", "peak allocated", "memory", "" for none. */
const char *plan_trend_figure(const struct steps_mem_trend *t);
/* "peak reserved 62.40 GiB at step 10 -> 74.29 GiB at step 120 (+10.81 GiB
 * per 100 steps, 12 points)"; "" when there is no figure. Returns buf. */
const char *plan_trend_explain(const struct steps_mem_trend *t, char *buf, size_t cap);

/* cfg may be NULL (no --config); trend may be NULL (not read). */
void plan_build_trend(const struct oom_report *rep, const struct verdicts *v,
                      const struct runcfg *cfg, const struct steps_mem_trend *trend,
                      struct plan *plan);
/* plan_build_trend without a trend. */
void plan_build(const struct oom_report *rep, const struct verdicts *v,
                const struct runcfg *cfg, struct plan *plan);

/* The catalogue, for docs and tests: number of entries and the id of each. */
size_t plan_catalogue_size(void);
const char *plan_catalogue_id(size_t i);
/* Whether entry i follows from stages (lists any), and whether it needs a
 * training or inference program (not an array library's allocator): every
 * stage-driven entry needs one (tests/unit/test_diagnose_plan.c). */
bool plan_catalogue_stage_driven(size_t i);
bool plan_catalogue_needs_program(size_t i);

#endif
