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

/* The memory trend of a log's per-step peaks, with its evidence. The figure
 * followed is peak allocated when the log shows it (a leak shows there;
 * reserved alone also grows with fragmentation), else peak reserved, else
 * an unstated memory figure. */
struct plan_trend {
    enum steps_trend trend; /* STEPS_TREND_NONE: no per-step memory figure */
    unsigned figure;        /* STEPS_PEAK_ALLOC, _PEAK_RESERVED or _MEM; 0 none */
    size_t points;          /* points with that figure */
    long first_step, last_step;       /* -1 unknown */
    int64_t first_bytes, last_bytes;  /* -1 unknown */
    bool per_100_known;               /* first_step < last_step */
    int64_t per_100_steps;            /* change per 100 steps (may be negative) */
    bool clear_growth;                /* growing, and by 2% or more first -> last */
};

/* From a series of step points (any subset of a log's lines, in order). */
void plan_trend_compute(const struct steps_series *s, struct plan_trend *t);
/* "peak allocated", "peak reserved", "memory", "" for none. */
const char *plan_trend_figure(const struct plan_trend *t);
/* "peak allocated 62.40 GiB at step 10 -> 74.29 GiB at step 120 (+10.81 GiB
 * per 100 steps, 12 points)"; "" when there is no figure. Returns buf. */
const char *plan_trend_explain(const struct plan_trend *t, char *buf, size_t cap);

/* cfg may be NULL (no --config); trend may be NULL (not read). */
void plan_build_trend(const struct oom_report *rep, const struct verdicts *v,
                      const struct runcfg *cfg, const struct plan_trend *trend,
                      struct plan *plan);
/* plan_build_trend without a trend. */
void plan_build(const struct oom_report *rep, const struct verdicts *v,
                const struct runcfg *cfg, struct plan *plan);

/* The catalogue, for docs and tests: number of entries and the id of each. */
size_t plan_catalogue_size(void);
const char *plan_catalogue_id(size_t i);

#endif
