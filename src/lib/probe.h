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
#include "lib/oom.h"

#define PROBE_MAX_TRIALS 64
/* Without a max, doubling stops here (a batch or sequence beyond 2^24 is a
 * typo, not a workload). */
#define PROBE_DEFAULT_LIMIT (1L << 24)

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
    bool peak_lower_bound; /* peak is what an OOM trial held when it failed: the
                              true peak was higher (filled by the callback) */
    int64_t capacity;    /* bytes the run could use, -1 unknown (filled by the callback);
                            the search keeps the smallest seen */
    int64_t card;        /* bytes, the card's total as the run saw it (NVML or the OOM
                            message), -1 unknown (filled by the callback): the
                            "of card" figure, not the search's */
    int exit_code;       /* the command's, -1 unknown (filled by the callback) */
    char run_id[64];     /* "" when no run happened (filled by the callback) */
    char diagnosis[480]; /* one line for FAILED/INTERRUPTED (filled by the callback) */
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
    PROBE_STOP_UNMEASURED,   /* every trial passed and none showed memory (no
                                peak, no OOM): no boundary, no recommendation */
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
    long grad_accum;          /* accumulation steps (see probe_accum), -1 */
    long accum_batch;         /* the batch per step, <= recommended, -1 */
    long accum_low;           /* the smallest batch per step the split considered, -1 */
    long effective_achieved;  /* accum_batch * grad_accum, <= effective_batch, -1 */
    long exact_batch;         /* the largest divisor of effective_batch in [min,
                                 recommended]: an exact split; -1 none */
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

/* The split of an effective batch into accumulation steps of at most
 * `largest` (and, where it can, at least `min`): the batch b and steps k
 * with b * k <= effective and closest to it, b taken from [largest/2,
 * largest] so a step keeps at least half the throughput; ties: the larger
 * b. exact_batch is the largest divisor of the effective batch in [min,
 * largest] (-1 when there is none): the exact split when b * k falls
 * short. Ranges past 2^22 candidates are searched only that far. Fills
 * grad_accum, accum_batch, effective_achieved, exact_batch,
 * exact_grad_accum and accum_low of res (all -1 when effective or
 * largest < 1). */
void probe_accum(long effective, long largest, long min, struct probe_result *res);

/* ---- one trial's evidence: the rules that turn a finished run into an
 * outcome, a peak and a capacity (the caller gathers the facts) ---- */

struct probe_evidence {
    bool interrupted;       /* we passed SIGINT/SIGTERM to it */
    bool oom;               /* the log engine found a GPU OOM */
    bool timed_out;
    bool failure_other;     /* a non-GPU failure was diagnosed (host OOM killer...) */
    int exit_code;          /* as `oomlab run` exits (128+N, 126, 127) */
    int term_signal;        /* 0 when it exited */
    int64_t host_oom_kills; /* the cgroup's OOM kills during the trial, -1 unread (lib/killcause) */
    bool host_oom_logged;   /* the kernel's log: its OOM killer killed the command */
    const char *oom_kind;   /* the diagnosed failure's name; NULL or "" none */
    const char *run_id;     /* for "see logs/ID.log"; NULL none */
    const char *command;    /* argv[0], for "command not found" */
    int64_t timeout_ms;     /* --timeout, for the diagnosis */
    int64_t peak_alloc;     /* bytes from the step lines (or the OOM message), -1 */
    int64_t peak_reserved;  /* likewise, -1 */
    int64_t peak_nvml;      /* NVML's peak of the child's tree; -1, 0 = nothing seen */
    int64_t capacity;       /* the run's: NVML's total or the OOM message's, -1 */
    const struct oom_bytes *oom_bytes; /* the primary OOM's figures; NULL none */
};

/* fits (exit 0), oom (a GPU OOM in the log, whatever the exit code),
 * interrupted, or failed; for the last two a one-line diagnosis is written
 * to diagnosis (otherwise it is left alone). */
enum probe_outcome probe_classify(const struct probe_evidence *ev, char *diagnosis, size_t size);
/* The trial's peak, -1 unknown (a zero sample is a run too short to
 * sample). A passing trial: the larger of NVML's and the log's reserved
 * peak, else the log's allocated peak. An OOM trial: the largest figure
 * of what it held when it failed (NVML, the step lines, the message's
 * in-use, reserved and allocated) with *lower_bound set, since the
 * failing request never got its memory. */
int64_t probe_trial_peak(const struct probe_evidence *ev, enum probe_outcome outcome,
                         bool *lower_bound);
/* Passing peaks come from the log's reserved figures (which do not count
 * the CUDA context), not NVML's. */
bool probe_peak_from_log(const struct probe_evidence *ev);
/* What the allocator could fill, from an OOM message: a per-process cap
 * ("X allowed") binds directly; else the card's total, less the
 * non-PyTorch memory the process held (context, NCCL) when the peaks come
 * from the log. -1 when the message says nothing. */
int64_t probe_oom_limit(const struct oom_bytes *b, bool log_peaks);
/* The trial's capacity: the run's (else `known`), lowered to the OOM
 * message's limit when that is smaller. -1 unknown. */
int64_t probe_trial_capacity(const struct probe_evidence *ev, int64_t known, bool log_peaks);

/* The NNN of a file name "probeNNN-..." or "probeNNN.probe" (any number
 * of digits), 0 when the name is not one. */
unsigned long probe_number_of(const char *name);

const char *probe_outcome_name(enum probe_outcome outcome); /* "fits", "oom", "failed", "interrupted" */
/* "start", "double", "bisect", "peaks", "model", "confirm", "walk" */
const char *probe_how_name(enum probe_how how);
const char *probe_stop_name(enum probe_stop stop); /* "found", "nothing_fits", "failed", "interrupted", "unmeasured" */
const char *probe_basis_name(enum probe_basis basis); /* "none", "peak", "count" */

#endif
