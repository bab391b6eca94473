/* Unit tests for lib/probe: the search driven by modelled memory curves
 * (memory = a + b*v + c*v^2 against a card), with crashes, hangs, data-
 * dependent OOMs and interruptions injected; trial counts asserted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/probe.h"

#define MiB (1024.0 * 1024.0)

struct sim {
    double a, b, c;   /* memory in bytes at v: a + b*v + c*v*v */
    int64_t cap;      /* the card */
    bool no_peaks;    /* the command logs no memory and NVML is absent */
    bool no_capacity; /* the capacity is not reported either */
    double repeat_extra; /* a second run of one value needs this much more (a long batch) */
    long crash_from;  /* values >= this crash (segfault), 0 none */
    long hang_from;   /* values >= this hang past the timeout, 0 none */
    int interrupt_at; /* the Nth call is interrupted, 0 none */
    int64_t noise;    /* measured peaks read up to this much low */
    int calls;
    long seen[PROBE_MAX_TRIALS];
};

static double mem(const struct sim *s, long v)
{
    return s->a + s->b * (double)v + s->c * (double)v * (double)v;
}

static enum probe_outcome sim_trial(void *ctx, long value, struct probe_trial *out)
{
    struct sim *s = ctx;
    int runs = 0;
    for (int i = 0; i < s->calls; i++) runs += s->seen[i] == value;
    s->seen[s->calls++] = value;
    snprintf(out->run_id, sizeof out->run_id, "probe001-b%ld", value);
    if (!s->no_capacity) out->capacity = s->cap;
    if (s->interrupt_at && s->calls == s->interrupt_at) {
        snprintf(out->diagnosis, sizeof out->diagnosis, "interrupted by SIGINT");
        return PROBE_INTERRUPTED;
    }
    if (s->crash_from && value >= s->crash_from) {
        out->exit_code = 139;
        snprintf(out->diagnosis, sizeof out->diagnosis, "killed by SIGSEGV (not an OOM)");
        return PROBE_FAILED;
    }
    if (s->hang_from && value >= s->hang_from) {
        out->exit_code = 124;
        snprintf(out->diagnosis, sizeof out->diagnosis, "timed out after 10m");
        return PROBE_FAILED;
    }
    double need = mem(s, value) + (runs > 0 ? s->repeat_extra : 0);
    if (need > (double)s->cap) {
        out->exit_code = 1;
        return PROBE_OOM;
    }
    out->exit_code = 0;
    if (!s->no_peaks) {
        /* Deterministic "noise": sampling reads the peak a little low. */
        int64_t low = s->noise ? (int64_t)((unsigned long)value * 2654435761UL %
                                           (unsigned long)s->noise)
                               : 0;
        out->peak = (int64_t)need - low;
    }
    return PROBE_FITS;
}

/* A line with the boundary exactly at `boundary`: half a step of headroom. */
static void linear(struct sim *s, double a, double b, long boundary)
{
    memset(s, 0, sizeof *s);
    s->a = a;
    s->b = b;
    s->cap = (int64_t)(a + b * (double)boundary + b / 2);
}

static struct probe_result res; /* large: keep it off the stack */

/* PROBE_DEBUG=1 prints each search's trials, to see why a count grew. */
static void dump(const char *what)
{
    if (!getenv("PROBE_DEBUG")) return;
    fprintf(stderr, "%s: %zu trials:", what, res.n_trials);
    for (size_t i = 0; i < res.n_trials; i++)
        fprintf(stderr, " %ld%s/%s", res.trials[i].value,
                res.trials[i].outcome == PROBE_FITS ? "+" : "-", probe_how_name(res.trials[i].how));
    fprintf(stderr, " -> %ld\n", res.largest_fit);
}

static void probe(struct sim *s, long min, long max, struct probe_result *r)
{
    struct probe_opts o;
    probe_opts_init(&o);
    o.min = min;
    o.max = max;
    o.trial = sim_trial;
    o.trial_ctx = s;
    struct oomlab_err err = {{0}};
    assert_int_equal(probe_run(&o, r, &err), 0);
    assert_int_equal((int)r->n_trials, s->calls);
    dump("probe");
}

static void check_boundary(double a, double b, long boundary, long max, bool peaks)
{
    struct sim s;
    linear(&s, a, b, boundary);
    s.no_peaks = !peaks;
    probe(&s, 1, max, &res);
    long want = max > 0 && boundary > max ? max : boundary;
    if (!peaks && max > 0 && boundary >= max) {
        /* No peak and no OOM up to --max: nothing about memory was measured. */
        assert_int_equal(res.stop, PROBE_STOP_UNMEASURED);
        assert_int_equal(res.recommended, -1);
        return;
    }
    assert_int_equal(res.stop, PROBE_STOP_FOUND);
    assert_int_equal(res.largest_fit, want);
    assert_true(res.confirmed);
    assert_true(res.pinned);
    assert_int_equal(res.above_max, max > 0 && boundary >= max);
    if (want == boundary && !res.above_max) assert_int_equal(res.smallest_oom, boundary + 1);
    /* The last trial is the confirm run of the answer. */
    assert_int_equal(res.trials[res.n_trials - 1].how, PROBE_HOW_CONFIRM);
    assert_int_equal(res.trials[res.n_trials - 1].value, want);
    if (max > 0) assert_true((int)res.n_trials <= probe_trial_bound(1, max));
}

static const long boundaries[] = {1, 2, 3, 63, 64, 65, 100, 127, 128, 129, 1000, 4095, 4096};

static void test_exact_boundaries_bisection(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof boundaries / sizeof *boundaries; i++) {
        check_boundary(4e9, 50 * MiB, boundaries[i], 4096, true);  /* peaks: jumps */
        check_boundary(4e9, 50 * MiB, boundaries[i], 4096, false); /* blind bisection */
        check_boundary(1e9, 2 * MiB, boundaries[i], 4096, true);   /* small slope */
    }
}

static void test_exact_boundaries_doubling(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof boundaries / sizeof *boundaries; i++) {
        long b = boundaries[i];
        check_boundary(4e9, 50 * MiB, b, -1, true);
        /* With peaks: within the bound taken up to the first OOM doubling
         * would hit, plus one (there is no --max to spare the step that
         * finds the top); blind doubling needs about twice. */
        assert_true((int)res.n_trials <= probe_trial_bound(1, b + 1) + 1);
        check_boundary(4e9, 50 * MiB, b, -1, false);
        assert_true((int)res.n_trials <= 2 * probe_trial_bound(1, b + 1));
    }
}

static void test_peaks_jump_to_the_boundary(void **state)
{
    (void)state;
    struct sim s;
    /* A 1.3B model: 18 GB of states, 60 MiB per sample, on 80 GB. */
    linear(&s, 18e9, 60 * MiB, 987);
    probe(&s, 1, 4096, &res);
    assert_int_equal(res.largest_fit, 987);
    assert_true(res.n_trials <= 5); /* 1, a proportional jump, 987, 988, confirm */
    assert_int_equal(res.trials[2].how, PROBE_HOW_PEAKS);
    linear(&s, 18e9, 60 * MiB, 987);
    probe(&s, 1, -1, &res);
    assert_int_equal(res.largest_fit, 987);
    assert_true(res.n_trials <= 5);
}

/* `oomlab probe -- true {batch}`: every trial exits 0 and shows no memory.
 * Doubling to the limit and recommending 85% of it would be a number about
 * nothing; the probe says nothing was measured (exit 3) instead. */
static void test_no_memory_evidence(void **state)
{
    (void)state;
    struct sim s;
    linear(&s, 0, 0, 1);
    s.cap = INT64_MAX; /* nothing ever OOMs */
    s.no_peaks = true;
    probe(&s, 1, -1, &res);
    assert_int_equal(res.stop, PROBE_STOP_UNMEASURED);
    assert_string_equal(probe_stop_name(res.stop), "unmeasured");
    assert_int_equal(res.recommended, -1);
    assert_int_equal(res.basis, PROBE_BASIS_NONE);
    /* One OOM is evidence: the count basis stands. */
    linear(&s, 18e9, 60 * MiB, 987);
    s.no_peaks = true;
    probe(&s, 1, -1, &res);
    assert_int_equal(res.stop, PROBE_STOP_FOUND);
    assert_int_equal(res.basis, PROBE_BASIS_COUNT);
    /* A peak without an OOM is evidence too. */
    linear(&s, 18e9, 60 * MiB, 987);
    probe(&s, 1, 64, &res);
    assert_int_equal(res.stop, PROBE_STOP_FOUND);
    assert_int_equal(res.recommended >= 1, true);
}

static void test_larger_than_max(void **state)
{
    (void)state;
    struct sim s;
    linear(&s, 4e9, 50 * MiB, 5000);
    probe(&s, 1, 4096, &res);
    assert_int_equal(res.stop, PROBE_STOP_FOUND);
    assert_int_equal(res.largest_fit, 4096);
    assert_true(res.above_max);
    assert_int_equal(res.smallest_oom, -1);
    assert_true(res.n_trials <= 4); /* 1, a jump past max clamps to max, confirm */
}

static void test_nothing_fits(void **state)
{
    (void)state;
    struct sim s;
    linear(&s, 90e9, 50 * MiB, 1);
    s.cap = (int64_t)80e9;
    probe(&s, 1, 4096, &res);
    assert_int_equal(res.stop, PROBE_STOP_NOTHING_FITS);
    assert_int_equal(res.largest_fit, -1);
    assert_int_equal(res.recommended, -1);
    assert_int_equal(res.n_trials, 1);
    assert_int_equal(res.smallest_oom, 1);
    /* --min above 1: only min is tried */
    s.calls = 0;
    probe(&s, 8, -1, &res);
    assert_int_equal(res.stop, PROBE_STOP_NOTHING_FITS);
    assert_int_equal(res.n_trials, 1);
    assert_int_equal(res.trials[0].value, 8);
}

static void test_data_dependent_oom_caught_by_confirm(void **state)
{
    (void)state;
    struct sim s;
    linear(&s, 4e9, 50 * MiB, 300);
    /* The second run at a value meets a long batch: 5 samples' worth more. */
    s.repeat_extra = 5 * 50 * MiB;
    probe(&s, 1, 4096, &res);
    assert_int_equal(res.flaky, 300);
    assert_false(res.confirmed);
    assert_true(res.largest_fit < 300);
    assert_true(res.largest_fit >= 1);
    assert_int_equal(res.smallest_oom, 300);
    assert_int_equal(res.trials[res.n_trials - 1].how, PROBE_HOW_CONFIRM);
    assert_int_equal(res.trials[res.n_trials - 1].outcome, PROBE_OOM);
    /* The recommendation never exceeds what is left. */
    assert_true(res.recommended <= res.largest_fit);
}

static void test_flaky_min_and_no_confirm(void **state)
{
    (void)state;
    struct sim s;
    /* min itself passes once, then OOMs: nothing fits reliably. */
    linear(&s, 4e9, 50 * MiB, 1);
    s.repeat_extra = 50 * MiB;
    probe(&s, 1, 64, &res);
    assert_int_equal(res.stop, PROBE_STOP_NOTHING_FITS);
    assert_int_equal(res.flaky, 1);
    assert_int_equal(res.largest_fit, -1);
    /* Without the confirm run: one trial fewer, and nothing confirmed. */
    linear(&s, 4e9, 50 * MiB, 300);
    probe(&s, 1, 4096, &res);
    size_t with_confirm = res.n_trials;
    struct probe_opts o;
    probe_opts_init(&o);
    o.max = 4096;
    o.confirm = false;
    o.trial = sim_trial;
    linear(&s, 4e9, 50 * MiB, 300);
    o.trial_ctx = &s;
    assert_int_equal(probe_run(&o, &res, NULL), 0);
    assert_int_equal(res.largest_fit, 300);
    assert_false(res.confirmed);
    assert_true(res.pinned);
    assert_int_equal(res.n_trials, with_confirm - 1);
}

static void test_crash_is_not_an_oom(void **state)
{
    (void)state;
    struct sim s;
    linear(&s, 4e9, 50 * MiB, 1000);
    s.crash_from = 16;
    probe(&s, 1, -1, &res);
    assert_int_equal(res.stop, PROBE_STOP_FAILED);
    const struct probe_trial *t = &res.trials[res.stop_trial];
    assert_int_equal(t->outcome, PROBE_FAILED);
    assert_true(t->value >= 16);
    assert_non_null(strstr(t->diagnosis, "SIGSEGV"));
    assert_int_equal(res.smallest_oom, -1); /* never counted as "does not fit" */
    assert_int_equal((size_t)res.stop_trial, res.n_trials - 1);
    assert_true(res.largest_fit >= 1 && res.largest_fit < 16);
}

static void test_timeout_stops_the_probe(void **state)
{
    (void)state;
    struct sim s;
    linear(&s, 4e9, 50 * MiB, 1000);
    s.hang_from = 1;
    probe(&s, 1, 4096, &res);
    assert_int_equal(res.stop, PROBE_STOP_FAILED);
    assert_int_equal(res.n_trials, 1);
    assert_int_equal(res.largest_fit, -1);
    assert_non_null(strstr(res.trials[0].diagnosis, "timed out"));
}

static void test_interrupt_keeps_what_was_learned(void **state)
{
    (void)state;
    struct sim s;
    linear(&s, 4e9, 50 * MiB, 1000);
    s.no_peaks = true;
    s.interrupt_at = 4;
    probe(&s, 1, -1, &res);
    assert_int_equal(res.stop, PROBE_STOP_INTERRUPTED);
    assert_int_equal(res.n_trials, 4);
    assert_int_equal(res.trials[3].outcome, PROBE_INTERRUPTED);
    assert_int_equal(res.largest_fit, 4); /* 1, 2, 4 passed */
    assert_false(res.confirmed);
}

static void test_curved_and_noisy_memory(void **state)
{
    (void)state;
    struct sim s;
    /* Sequence length with eager attention: a quadratic term. */
    const long seqs[] = {300, 1000, 2047, 2049, 3000, 7000};
    for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++) {
        memset(&s, 0, sizeof s);
        s.a = 3e9;
        s.b = 2 * MiB;
        s.c = 4096;
        double bnd = (double)seqs[i];
        s.cap = (int64_t)(s.a + s.b * bnd + s.c * bnd * bnd + 1);
        probe(&s, 1, 8192, &res);
        assert_int_equal(res.largest_fit, seqs[i]);
        assert_true((int)res.n_trials <= probe_trial_bound(1, 8192));
    }
    /* Peaks read 86 samples' worth low: the curve keeps saying "fits" a
     * little higher; it must not crawl there one guess at a time (found by
     * fuzz_probe: it spent every trial and answered 2260). */
    linear(&s, 40 * 1024 * MiB, 1 * MiB, 2304);
    s.noise = (int64_t)(86 * MiB);
    probe(&s, 1, 65536, &res);
    assert_int_equal(res.largest_fit, 2304);
    assert_true(res.pinned);
    assert_true((int)res.n_trials <= 2 * probe_trial_bound(1, 65536));
    /* Peaks read up to 64 MiB low. */
    for (size_t i = 0; i < sizeof boundaries / sizeof *boundaries; i++) {
        linear(&s, 10e9, 40 * MiB, boundaries[i]);
        s.noise = (int64_t)(64 * MiB);
        probe(&s, 1, 4096, &res);
        assert_int_equal(res.largest_fit, boundaries[i]);
        assert_true((int)res.n_trials <= probe_trial_bound(1, 4096));
    }
}

/* The estimator: the true curve off by `err` (a fraction). */
struct model {
    const struct sim *s;
    double err;
};

static int64_t model_peak(void *ctx, long v)
{
    const struct model *m = ctx;
    return (int64_t)(mem(m->s, v) * (1.0 + m->err));
}

static size_t probe_with_model(struct sim *s, double err, long max)
{
    struct model m = {s, err};
    struct probe_opts o;
    probe_opts_init(&o);
    o.max = max;
    o.trial = sim_trial;
    o.trial_ctx = s;
    o.predict = model_peak;
    o.predict_ctx = &m;
    o.capacity = s->cap;
    assert_int_equal(probe_run(&o, &res, NULL), 0);
    dump("model");
    return res.n_trials;
}

static void test_model_start(void **state)
{
    (void)state;
    struct sim s;
    const double errs[] = {0, 0.05, -0.05, 0.2, -0.2};
    for (size_t i = 0; i < sizeof boundaries / sizeof *boundaries; i++)
        for (size_t j = 0; j < sizeof errs / sizeof *errs; j++) {
            linear(&s, 4e9, 50 * MiB, boundaries[i]);
            size_t n = probe_with_model(&s, errs[j], 4096);
            assert_int_equal(res.largest_fit, boundaries[i]);
            /* The start is the model's boundary, unless it says min does
             * not fit. */
            struct model m = {&s, errs[j]};
            assert_int_equal(res.trials[0].how,
                             model_peak(&m, 1) > s.cap ? PROBE_HOW_START : PROBE_HOW_MODEL);
            /* Fewer than without a model. */
            assert_true((int)n < probe_trial_bound(1, 4096));
            if (errs[j] == 0) assert_true(n <= 3); /* boundary, boundary + 1, confirm */
        }
}

static void test_recommend_keeps_headroom_on_the_peak(void **state)
{
    (void)state;
    struct sim s;
    linear(&s, 18e9, 60 * MiB, 987);
    probe(&s, 1, 4096, &res);
    assert_int_equal(res.basis, PROBE_BASIS_PEAK);
    double limit = 0.85 * (double)s.cap;
    long want = (long)((limit - s.a) / s.b);
    assert_int_equal(res.recommended, want);
    assert_true(res.recommended_peak <= (int64_t)limit);
    assert_true(mem(&s, res.recommended + 1) > limit);
    /* 15% off the count would be 838: far too high for the peak, because
     * most of the memory does not grow with the batch. */
    assert_true(res.recommended < 838);
    /* No peaks at all: the headroom can only go on the count. */
    linear(&s, 18e9, 60 * MiB, 987);
    s.no_peaks = true;
    probe(&s, 1, 4096, &res);
    assert_int_equal(res.basis, PROBE_BASIS_COUNT);
    assert_int_equal(res.recommended, 838);
    /* Even min is over the headroom: nothing to recommend. */
    linear(&s, 70e9, 60 * MiB, 3);
    probe(&s, 1, 4096, &res);
    assert_int_equal(res.largest_fit, 3);
    assert_int_equal(res.basis, PROBE_BASIS_PEAK);
    assert_int_equal(res.recommended, -1);
}

static void test_grad_accum(void **state)
{
    (void)state;
    struct probe_opts o;
    probe_opts_init(&o);
    memset(&res, 0, sizeof res);
    res.largest_fit = 27;
    res.n_trials = 1;
    res.trials[0] = (struct probe_trial){.value = 27, .outcome = PROBE_FITS, .peak = -1};
    res.capacity = -1;
    o.effective_batch = 64; /* 22 x 3 = 66 went over; 16 x 4 is exact */
    probe_recommend(&o, &res);
    assert_int_equal(res.recommended, 22); /* floor(27 * 0.85), on the count */
    assert_int_equal(res.grad_accum, 4);
    assert_int_equal(res.accum_batch, 16);
    assert_int_equal(res.effective_achieved, 64);
    assert_int_equal(res.accum_low, 11);
    assert_int_equal(res.exact_batch, 16);
    assert_int_equal(res.exact_grad_accum, 4);
    o.effective_batch = 1000; /* 22 x 46 = 1012 went over; 20 x 50 */
    probe_recommend(&o, &res);
    assert_int_equal(res.grad_accum, 50);
    assert_int_equal(res.accum_batch, 20);
    assert_int_equal(res.effective_achieved, 1000);
    res.largest_fit = 700; /* recommended 595: 2 steps of 500, not 2 of 595 */
    res.trials[0].value = 700;
    probe_recommend(&o, &res);
    assert_int_equal(res.recommended, 595);
    assert_int_equal(res.grad_accum, 2);
    assert_int_equal(res.accum_batch, 500);
    assert_int_equal(res.effective_achieved, 1000);
    o.effective_batch = 1009; /* prime: 504 x 2 = 1008, 1 short; exact only 1 x 1009 */
    probe_recommend(&o, &res);
    assert_int_equal(res.accum_batch, 504);
    assert_int_equal(res.grad_accum, 2);
    assert_int_equal(res.effective_achieved, 1008);
    assert_int_equal(res.exact_batch, 1);
    assert_int_equal(res.exact_grad_accum, 1009);
    res.largest_fit = 27;
    res.trials[0].value = 27;
    o.effective_batch = 44;
    probe_recommend(&o, &res);
    assert_int_equal(res.grad_accum, 2);
    assert_int_equal(res.effective_achieved, 44);
    assert_int_equal(res.exact_batch, 22);
    o.effective_batch = 5; /* below the recommendation: one step */
    probe_recommend(&o, &res);
    assert_int_equal(res.grad_accum, 1);
    assert_int_equal(res.accum_batch, 5);
    o.effective_batch = -1;
    probe_recommend(&o, &res);
    assert_int_equal(res.grad_accum, -1);
    assert_int_equal(res.effective_batch, -1);
}

/* Every split stays at or under the target, is the closest there in its
 * window, and an exact split divides the target. */
static void test_accum_never_overshoots(void **state)
{
    (void)state;
    struct probe_result r;
    for (long e = 1; e <= 300; e++)
        for (long top = 1; top <= 40; top++)
            for (long min = 1; min <= 9; min += 4) {
                probe_accum(e, top, min, &r);
                assert_true(r.effective_achieved <= e);
                assert_int_equal(r.effective_achieved, r.accum_batch * r.grad_accum);
                assert_true(r.accum_batch <= top && r.accum_batch >= r.accum_low);
                long best = 0, t = top < e ? top : e;
                for (long b = r.accum_low; b <= t; b++)
                    if (b * (e / b) > best) best = b * (e / b);
                assert_int_equal(r.effective_achieved, best);
                if (r.exact_batch > 0) {
                    assert_int_equal(r.exact_batch * r.exact_grad_accum, e);
                    assert_true(r.exact_batch <= t);
                }
            }
    /* --min 8, nothing from 8 to 12 divides 97: 12 x 8 = 96, no exact split */
    probe_accum(97, 12, 8, &r);
    assert_int_equal(r.accum_batch, 12);
    assert_int_equal(r.effective_achieved, 96);
    assert_int_equal(r.exact_batch, -1);
    /* absurd sizes end, and still never overshoot */
    probe_accum(LONG_MAX / 4, 1L << 24, 1, &r);
    assert_true(r.effective_achieved <= LONG_MAX / 4 && r.effective_achieved > 0);
    probe_accum(LONG_MAX / 4 - 1, 3, 1, &r);
    assert_true(r.effective_achieved <= LONG_MAX / 4 - 1 && r.grad_accum > 0);
    probe_accum(64, 0, 1, &r);
    assert_int_equal(r.grad_accum, -1);
}

static const struct probe_evidence no_evidence = {
    .exit_code = 0, .run_id = "probe001-b4", .command = "./train.sh", .timeout_ms = 600000,
    .peak_alloc = -1, .peak_reserved = -1, .peak_nvml = -1, .capacity = -1};

static void test_classify(void **state)
{
    (void)state;
    char d[480];
    struct probe_evidence ev = no_evidence;
    d[0] = '\0';
    assert_int_equal(probe_classify(&ev, d, sizeof d), PROBE_FITS);
    assert_string_equal(d, "");
    ev.timed_out = true;
    assert_int_equal(probe_classify(&ev, d, sizeof d), PROBE_FAILED);
    assert_string_equal(d, "timed out after 10m (not an OOM; raise --timeout or lower --steps)");
    ev.timeout_ms = 1500;
    probe_classify(&ev, d, sizeof d);
    assert_non_null(strstr(d, "after 1500ms"));
    ev.oom = true; /* the OOM text decides, even when the timeout ended it */
    assert_int_equal(probe_classify(&ev, d, sizeof d), PROBE_OOM);
    ev.interrupted = true;
    assert_int_equal(probe_classify(&ev, d, sizeof d), PROBE_INTERRUPTED);
    /* said after "interrupted at batch=N: " (it read "interrupted at batch=1:
     * interrupted (the trial was stopped)", stranger17) */
    assert_string_equal(d, "the trial was stopped (Ctrl-C or SIGTERM to oomlab)");
    ev = no_evidence;
    ev.exit_code = 139;
    ev.term_signal = 11;
    assert_int_equal(probe_classify(&ev, d, sizeof d), PROBE_FAILED);
    assert_string_equal(d, "killed by signal 11, no GPU OOM in the log (see logs/probe001-b4.log)");
    /* a SIGKILL says whose, as far as the evidence goes (before: "killed by
     * signal 9", whether the OOM killer or a scheduler sent it) */
    ev = no_evidence;
    ev.exit_code = 137, ev.term_signal = 9, ev.host_oom_kills = 0;
    assert_int_equal(probe_classify(&ev, d, sizeof d), PROBE_FAILED);
    assert_string_equal(d, "killed by SIGKILL, not by the kernel's OOM killer (this cgroup's oom_kill count did "
                           "not move): a scheduler's limit, a watchdog or a user sent it; no GPU OOM in the log "
                           "(see logs/probe001-b4.log)");
    ev.host_oom_kills = -1, ev.host_oom_logged = true;
    probe_classify(&ev, d, sizeof d);
    assert_non_null(strstr(d, "killed by SIGKILL, by the kernel's OOM killer (the kernel's log"));
    ev.host_oom_logged = false;
    probe_classify(&ev, d, sizeof d);
    assert_non_null(strstr(d, "cannot read this cgroup's OOM-kill count here"));
    ev = no_evidence;
    ev.exit_code = 127;
    probe_classify(&ev, d, sizeof d);
    assert_string_equal(d, "./train.sh: command not found");
    ev.exit_code = 1;
    ev.failure_other = true;
    ev.oom_kind = "host_oom_killer";
    probe_classify(&ev, d, sizeof d);
    assert_string_equal(d, "host_oom_killer (not a GPU OOM; see logs/probe001-b4.log)");
    ev.failure_other = false;
    probe_classify(&ev, d, sizeof d);
    assert_string_equal(d, "exited with code 1, no GPU OOM in the log (see logs/probe001-b4.log)");
}

#define GiB (1024LL * 1024 * 1024)

static struct oom_bytes oom_message(void)
{
    /* "GPU 0 has a total capacity of 80 GiB ... this process has 79 GiB
     * memory in use. Of the allocated memory 76 GiB is allocated by
     * PyTorch, and 1 GiB is reserved by PyTorch but unallocated." */
    return (struct oom_bytes){.requested = GiB / 2, .capacity = 80 * GiB, .free = GiB / 8,
                              .allocated = 76 * GiB, .reserved = -1,
                              .reserved_unallocated = GiB, .process_in_use = 79 * GiB,
                              .allowed = -1, .other_in_use = -1, .private_pools = -1};
}

static void test_trial_peak(void **state)
{
    (void)state;
    bool lb = true;
    struct probe_evidence ev = no_evidence;
    assert_int_equal(probe_trial_peak(&ev, PROBE_FITS, &lb), -1); /* unknown, not 0 */
    assert_false(lb);
    ev.peak_nvml = 0; /* too short to sample */
    ev.peak_alloc = 5 * GiB;
    assert_int_equal(probe_trial_peak(&ev, PROBE_FITS, &lb), 5 * GiB);
    ev.peak_reserved = 6 * GiB;
    ev.peak_nvml = 7 * GiB;
    assert_int_equal(probe_trial_peak(&ev, PROBE_FITS, &lb), 7 * GiB);
    assert_false(lb);
    /* An OOM: the message's in-use is the bound whether NVML saw nothing
     * (0), was absent (-1), or sampled less; always marked. */
    struct oom_bytes b = oom_message();
    int64_t nvml[] = {0, -1, 40 * GiB};
    for (size_t i = 0; i < 3; i++) {
        ev = no_evidence;
        ev.oom = true;
        ev.oom_bytes = &b;
        ev.peak_nvml = nvml[i];
        lb = false;
        assert_int_equal(probe_trial_peak(&ev, PROBE_OOM, &lb), 79 * GiB);
        assert_true(lb);
    }
    ev.peak_nvml = 79 * GiB + 1; /* a higher sample is a better bound */
    assert_int_equal(probe_trial_peak(&ev, PROBE_OOM, &lb), 79 * GiB + 1);
    b.process_in_use = -1; /* older messages: allocated + reserved-but-unallocated */
    ev.peak_nvml = -1;
    assert_int_equal(probe_trial_peak(&ev, PROBE_OOM, &lb), 77 * GiB);
    ev.oom_bytes = NULL; /* nothing stated, nothing sampled: unknown, unmarked */
    assert_int_equal(probe_trial_peak(&ev, PROBE_OOM, &lb), -1);
    assert_false(lb);
}

static void test_oom_limit_and_capacity(void **state)
{
    (void)state;
    struct oom_bytes b = oom_message();
    /* other = 79 - 76 - 1 = 2 GiB of context and NCCL the log's figures miss */
    assert_int_equal(probe_oom_limit(&b, true), 78 * GiB);
    assert_int_equal(probe_oom_limit(&b, false), 80 * GiB);
    b.allowed = 40 * GiB; /* set_per_process_memory_fraction binds directly */
    assert_int_equal(probe_oom_limit(&b, true), 40 * GiB);
    b.allowed = -1;
    b.capacity = -1;
    assert_int_equal(probe_oom_limit(&b, true), -1);
    b = oom_message();
    struct probe_evidence ev = no_evidence;
    assert_int_equal(probe_trial_capacity(&ev, 81 * GiB, true), 81 * GiB); /* NVML's, before */
    ev.capacity = 80 * GiB;
    assert_int_equal(probe_trial_capacity(&ev, 81 * GiB, true), 80 * GiB);
    ev.oom = true;
    ev.oom_bytes = &b;
    assert_int_equal(probe_trial_capacity(&ev, 81 * GiB, true), 78 * GiB);
    assert_int_equal(probe_trial_capacity(&ev, -1, false), 80 * GiB);
    ev.capacity = -1;
    b.capacity = -1;
    assert_int_equal(probe_trial_capacity(&ev, -1, true), -1);
    ev = no_evidence;
    ev.peak_reserved = 6 * GiB;
    ev.peak_nvml = 5 * GiB;
    assert_true(probe_peak_from_log(&ev));
    ev.peak_nvml = 7 * GiB;
    assert_false(probe_peak_from_log(&ev));
}

static void test_probe_number_of(void **state)
{
    (void)state;
    assert_int_equal(probe_number_of("probe001-b1.log"), 1);
    assert_int_equal(probe_number_of("probe042-s512-r2_mem.csv"), 42);
    assert_int_equal(probe_number_of("probe1000-b2.log"), 1000);
    assert_int_equal(probe_number_of("probe007.probe"), 7);
    assert_int_equal(probe_number_of("probe.probe"), 0);
    assert_int_equal(probe_number_of("probe01x-b1.log"), 0);
    assert_int_equal(probe_number_of("probe001.log"), 0);
    assert_int_equal(probe_number_of("run001.log"), 0);
    assert_int_equal(probe_number_of("probe99999999999999999999999-b1"), 0);
}

static void test_bound_and_options(void **state)
{
    (void)state;
    assert_int_equal(probe_trial_bound(1, 1), 2);
    assert_int_equal(probe_trial_bound(1, 4096), 14);
    assert_int_equal(probe_trial_bound(1, 4097), 15);
    assert_int_equal(probe_trial_bound(8, 64), 8);    /* 57 candidates */
    assert_int_equal(probe_trial_bound(100, 150), 8); /* 51 candidates */
    assert_int_equal(probe_trial_bound(5, 5), 2);
    struct probe_opts o;
    struct oomlab_err err = {{0}};
    probe_opts_init(&o);
    assert_int_equal(probe_run(&o, &res, &err), -1); /* no trial function */
    o.trial = sim_trial;
    o.min = 0;
    assert_int_equal(probe_run(&o, &res, &err), -1);
    assert_non_null(strstr(err.msg, "--min"));
    o.min = 8;
    o.max = 4;
    assert_int_equal(probe_run(&o, &res, &err), -1);
    assert_non_null(strstr(err.msg, "below --min"));
    o.max = -1;
    o.headroom = 1.5;
    assert_int_equal(probe_run(&o, &res, &err), -1);
    assert_string_equal(probe_outcome_name(PROBE_OOM), "oom");
    assert_string_equal(probe_stop_name(PROBE_STOP_NOTHING_FITS), "nothing_fits");
    assert_string_equal(probe_how_name(PROBE_HOW_CONFIRM), "confirm");
    assert_string_equal(probe_basis_name(PROBE_BASIS_PEAK), "peak");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_boundaries_bisection),
        cmocka_unit_test(test_exact_boundaries_doubling),
        cmocka_unit_test(test_peaks_jump_to_the_boundary),
        cmocka_unit_test(test_no_memory_evidence),
        cmocka_unit_test(test_larger_than_max),
        cmocka_unit_test(test_nothing_fits),
        cmocka_unit_test(test_data_dependent_oom_caught_by_confirm),
        cmocka_unit_test(test_flaky_min_and_no_confirm),
        cmocka_unit_test(test_crash_is_not_an_oom),
        cmocka_unit_test(test_timeout_stops_the_probe),
        cmocka_unit_test(test_interrupt_keeps_what_was_learned),
        cmocka_unit_test(test_curved_and_noisy_memory),
        cmocka_unit_test(test_model_start),
        cmocka_unit_test(test_recommend_keeps_headroom_on_the_peak),
        cmocka_unit_test(test_grad_accum),
        cmocka_unit_test(test_accum_never_overshoots),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_trial_peak),
        cmocka_unit_test(test_oom_limit_and_capacity),
        cmocka_unit_test(test_probe_number_of),
        cmocka_unit_test(test_bound_and_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
