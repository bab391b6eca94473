/* probe: the search behind `oomlab probe` — which value (batch, sequence...)
 * to try next, and what to recommend — as pure logic driven by a trial
 * callback, so real runs and modelled memory curves drive the same code.
 *
 * Search: doubling from min until the first OOM when there is no max,
 * bisection within [min, max] when there is. Every passing trial's peak and
 * the card's capacity (memory ~ a + b*value) let it jump close to the
 * boundary instead; an optional predicted-peak function (the estimator)
 * gives the start. A non-OOM failure is never "does not fit": it stops the
 * search. The largest passing value is run once more (confirm run) to catch
 * OOMs that depend on the data. Everything lives in the caller's
 * struct probe_result; nothing is allocated. */
#ifndef OOMLAB_PROBE_H
#define OOMLAB_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

#define PROBE_MAX_TRIALS 64
/* Without a max, doubling stops here (a batch or sequence beyond 2^24 is a
 * typo, not a workload). */
#define PROBE_DEFAULT_LIMIT (1L << 24)
#define PROBE_DEFAULT_HEADROOM 0.15

enum probe_outcome {
    PROBE_FITS,        /* the command finished (exit 0) */
    PROBE_OOM,         /* a GPU out-of-memory: the value does not fit */
    PROBE_FAILED,      /* anything else (crash, host OOM killer, timeout): stops the probe */
    PROBE_INTERRUPTED, /* the user stopped it: stops the probe */
};

/* How a value was chosen: blind doubling/bisection, a jump from the measured
 * peaks, the estimator's prediction, the confirm re-run, or a walk down in
 * growing steps from a guess that over-shot by a little. */
enum probe_how { PROBE_HOW_START, PROBE_HOW_DOUBLE, PROBE_HOW_BISECT, PROBE_HOW_PEAKS,
                 PROBE_HOW_MODEL, PROBE_HOW_CONFIRM, PROBE_HOW_WALK };

struct probe_trial {
    long value;
    enum probe_outcome outcome;
    enum probe_how how;
    int64_t peak;        /* bytes, -1 unknown (filled by the callback) */
    int64_t capacity;    /* bytes the run could use, -1 unknown (filled by the callback);
                            the search keeps the smallest seen */
    int exit_code;       /* the command's, -1 unknown (filled by the callback) */
    char run_id[64];     /* "" when no run happened (filled by the callback) */
    char diagnosis[160]; /* one line for FAILED/INTERRUPTED (filled by the callback) */
};

/* Runs the command at value. The search has set out->value and out->how and
 * the unknowns (-1, ""); the callback fills the rest and returns the
 * outcome. A trial that could not even start is PROBE_FAILED with a
 * diagnosis. */
typedef enum probe_outcome probe_trial_fn(void *ctx, long value, struct probe_trial *out);
/* Predicted peak in bytes at value, -1 unknown; must grow with value. */
typedef int64_t probe_predict_fn(void *ctx, long value);

struct probe_opts {
    long min;             /* >= 1 */
    long max;             /* -1: none, double until the first OOM */
    long limit;           /* without max, never try above this */
    double headroom;      /* fraction of the capacity kept free, [0, 0.9] */
    long effective_batch; /* -1: none; else grad_accum is computed */
    int64_t capacity;     /* bytes known before any trial (NVML), -1 */
    bool use_peaks;       /* jump using measured peaks (default true) */
    bool confirm;         /* re-run the largest fit (default true) */
    probe_trial_fn *trial;
    void *trial_ctx;
    probe_predict_fn *predict; /* NULL: no model */
    void *predict_ctx;
};

enum probe_stop {
    PROBE_STOP_FOUND,        /* a largest fit was found (maybe --max itself) */
    PROBE_STOP_NOTHING_FITS, /* min does not fit (or failed its confirm run) */
    PROBE_STOP_FAILED,       /* a non-OOM failure stopped the search */
    PROBE_STOP_INTERRUPTED,  /* the user stopped the search */
};

/* What the recommendation's headroom was computed on. */
enum probe_basis { PROBE_BASIS_NONE, PROBE_BASIS_PEAK, PROBE_BASIS_COUNT };

struct probe_result {
    struct probe_trial trials[PROBE_MAX_TRIALS];
    size_t n_trials;
    enum probe_stop stop;
    long stop_trial;          /* index of the trial that stopped it, -1 */
    long largest_fit;         /* -1 none */
    int64_t largest_fit_peak; /* highest peak measured at largest_fit, -1 */
    long smallest_oom;        /* -1 none seen */
    long flaky;               /* passed once, OOMed on its confirm run; -1 */
    bool confirmed;           /* largest_fit passed its confirm run */
    bool pinned;              /* the search closed (largest_fit + 1 OOMs, or it is max/limit);
                                 false when stopped, or PROBE_MAX_TRIALS ran out first */
    bool above_max;           /* max itself fits: the boundary is above it */
    bool reached_limit;       /* no max, and limit itself fits */
    int64_t capacity;         /* bytes, -1 unknown */
    long recommended;         /* largest value keeping the headroom; -1 none */
    enum probe_basis basis;
    int64_t recommended_peak; /* measured or interpolated, -1 */
    int64_t headroom_limit;   /* (1 - headroom) * capacity, -1 */
    long effective_batch;     /* as asked, -1 */
    long grad_accum;          /* ceil(effective_batch / recommended), -1 */
    long accum_batch;         /* ceil(effective_batch / grad_accum) <= recommended, -1 */
    long effective_achieved;  /* accum_batch * grad_accum (>= effective_batch), -1 */
    long exact_batch;         /* largest divisor of effective_batch <= recommended, -1 */
    long exact_grad_accum;    /* effective_batch / exact_batch, -1 */
};

void probe_opts_init(struct probe_opts *opts);
/* Search. 0 with res filled whatever the trials did (read res->stop); -1
 * with err when the options are invalid (no callback, min < 1, max < min,
 * headroom out of range). */
int probe_run(const struct probe_opts *opts, struct probe_result *res, struct oomlab_err *err);
/* The largest value in [min, largest_fit] whose measured or interpolated
 * peak stays within (1 - headroom) * capacity, and the gradient
 * accumulation; probe_run calls it, exposed for tests. */
void probe_recommend(const struct probe_opts *opts, struct probe_result *res);
/* Trials by doubling/bisection alone, the confirm run included:
 * ceil(log2(max - min + 1)) + 2, i.e. ceil(log2(max / min)) + 2 from
 * min 1. Jumps on measured peaks need far fewer on memory that grows
 * linearly or quadratically (tests and bench/probe-trials). */
int probe_trial_bound(long min, long max);

const char *probe_outcome_name(enum probe_outcome outcome); /* "fits", "oom", "failed", "interrupted" */
/* "start", "double", "bisect", "peaks", "model", "confirm", "walk" */
const char *probe_how_name(enum probe_how how);
const char *probe_stop_name(enum probe_stop stop); /* "found", "nothing_fits", "failed", "interrupted" */
const char *probe_basis_name(enum probe_basis basis); /* "none", "peak", "count" */

#endif
