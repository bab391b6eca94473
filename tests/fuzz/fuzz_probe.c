/* Fuzz target: the probe search against curves and outcomes drawn from the
 * input. On a monotone memory curve with no injected failure it must find
 * the exact boundary (clamped to --max); on adversarial outcomes it must
 * still end within PROBE_MAX_TRIALS with a consistent result. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/probe.h"

struct rd {
    const uint8_t *p;
    size_t n;
};

static unsigned byte(struct rd *r)
{
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}

static unsigned u16(struct rd *r)
{
    unsigned hi = byte(r);
    return hi << 8 | byte(r);
}

struct world {
    double a, b, c, cap, noise, err;
    bool peaks, adversarial;
    struct rd *rd;
};

static double mem(const struct world *w, long v)
{
    return w->a + w->b * (double)v + w->c * (double)v * (double)v;
}

static enum probe_outcome trial(void *ctx, long v, struct probe_trial *t)
{
    struct world *w = ctx;
    if (w->adversarial) {
        unsigned x = byte(w->rd);
        t->peak = (x & 4) ? (int64_t)u16(w->rd) << 20 : -1;
        t->capacity = (x & 8) ? (int64_t)u16(w->rd) << 20 : -1;
        return (enum probe_outcome)(x & 3);
    }
    t->capacity = (int64_t)w->cap;
    if (mem(w, v) > w->cap) return PROBE_OOM;
    double low = w->noise > 0 ? fmod((double)v * 2654435761.0, w->noise) : 0;
    if (w->peaks) t->peak = (int64_t)fmax(mem(w, v) - low, 0); /* a peak is never below 0 */
    return PROBE_FITS;
}

static int64_t predict(void *ctx, long v)
{
    const struct world *w = ctx;
    return (int64_t)(mem(w, v) * (1 + w->err));
}

static long truth(const struct world *w, const struct probe_opts *o)
{
    long top = o->max > 0 ? o->max : o->limit;
    if (mem(w, o->min) > w->cap) return -1;
    long lo = o->min, hi = top; /* largest v in [min, top] with mem <= cap */
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        if (mem(w, mid) <= w->cap) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static void check(bool ok)
{
    if (!ok) abort();
}

static int64_t bytes_or_unknown(struct rd *rd)
{
    unsigned x = byte(rd);
    return x & 1 ? -1 : (int64_t)u16(rd) << (x % 40);
}

/* The trial-evidence rules on arbitrary facts: an outcome in range, a peak
 * that is -1 or positive, a bound only on OOM trials, a capacity no larger
 * than what was known or reported. */
static void check_evidence(struct rd *rd)
{
    unsigned f = byte(rd);
    struct oom_bytes b = {
        .requested = bytes_or_unknown(rd), .capacity = bytes_or_unknown(rd),
        .free = bytes_or_unknown(rd), .allocated = bytes_or_unknown(rd),
        .reserved = bytes_or_unknown(rd), .reserved_unallocated = bytes_or_unknown(rd),
        .process_in_use = bytes_or_unknown(rd), .allowed = bytes_or_unknown(rd),
        .other_in_use = -1, .private_pools = -1};
    struct probe_evidence ev = {
        .interrupted = f & 1, .oom = f & 2, .timed_out = f & 4, .failure_other = f & 8,
        .exit_code = (int)byte(rd), .term_signal = f & 16 ? (int)(byte(rd) % 65) : 0,
        .oom_kind = f & 32 ? "host_oom_killer" : NULL, .run_id = "probe001-b1",
        .command = "cmd", .timeout_ms = (int64_t)u16(rd) * 7,
        .peak_alloc = bytes_or_unknown(rd), .peak_reserved = bytes_or_unknown(rd),
        .peak_nvml = bytes_or_unknown(rd), .capacity = bytes_or_unknown(rd),
        .oom_bytes = f & 64 ? &b : NULL};
    char d[160] = "";
    enum probe_outcome out = probe_classify(&ev, d, sizeof d);
    check((unsigned)out <= PROBE_INTERRUPTED && strlen(d) < sizeof d);
    check((out == PROBE_FAILED || out == PROBE_INTERRUPTED) == (d[0] != '\0'));
    bool lb = false;
    int64_t peak = probe_trial_peak(&ev, out, &lb);
    check(peak == -1 || peak > 0);
    check(!lb || (out == PROBE_OOM && peak > 0));
    int64_t known = bytes_or_unknown(rd);
    int64_t cap = probe_trial_capacity(&ev, known, f & 128);
    int64_t start = ev.capacity >= 0 ? ev.capacity : known;
    check(cap == start || (cap > 0 && (start < 0 || cap < start)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rd rd = {data, size};
    struct world w = {.rd = &rd};
    struct probe_opts o;
    probe_opts_init(&o);
    unsigned flags = byte(&rd);
    o.min = 1 + (flags & 16 ? u16(&rd) % 512 : 0);
    o.max = flags & 1 ? o.min + u16(&rd) : -1;
    o.limit = 1L << 16;
    o.headroom = byte(&rd) % 91 / 100.0;
    o.effective_batch = flags & 2 ? 1 + u16(&rd) : -1;
    o.confirm = !(flags & 32);
    w.adversarial = flags & 4;
    w.peaks = !(flags & 8);
    w.a = (double)(byte(&rd) % 64) * 1073741824.0;
    w.b = (double)(1 + byte(&rd)) * 1048576.0;
    w.c = (double)(byte(&rd) % 4) * 2048.0;
    w.noise = (double)(byte(&rd) % 128) * 1048576.0;
    long boundary = u16(&rd) % 70000;
    w.cap = (mem(&w, boundary) + mem(&w, boundary + 1)) / 2;
    if (flags & 64) {
        o.predict = predict;
        o.predict_ctx = &w;
        w.err = ((double)(byte(&rd) % 101) - 50) / 100.0;
        o.capacity = (int64_t)w.cap;
    }
    o.trial = trial;
    o.trial_ctx = &w;
    static struct probe_result r;
    if (flags & 128) {
        check_evidence(&rd);
        return 0;
    }
    if (probe_run(&o, &r, NULL) < 0) return 0;
    if (getenv("FUZZ_DEBUG")) { /* the search, to see why a property broke */
        fprintf(stderr, "min %ld max %ld truth %ld found %ld:", o.min, o.max, truth(&w, &o),
                r.largest_fit);
        for (size_t i = 0; i < r.n_trials; i++)
            fprintf(stderr, " %ld%s/%s", r.trials[i].value, probe_outcome_name(r.trials[i].outcome),
                    probe_how_name(r.trials[i].how));
        fprintf(stderr, "\n");
    }
    check(r.n_trials >= 1 && r.n_trials <= PROBE_MAX_TRIALS);
    check(r.largest_fit == -1 || (r.largest_fit >= o.min && (o.max < 0 || r.largest_fit <= o.max)));
    check(r.recommended == -1 || (r.recommended >= o.min && r.recommended <= r.largest_fit));
    if (r.grad_accum > 0) /* never over the effective batch asked for */
        check(r.accum_batch <= r.recommended && r.effective_achieved <= o.effective_batch &&
              r.effective_achieved == r.accum_batch * r.grad_accum &&
              r.accum_batch >= r.accum_low &&
              (r.exact_batch < 0 || r.exact_batch * r.exact_grad_accum == o.effective_batch));
    for (size_t i = 0; i < r.n_trials; i++)
        check(r.trials[i].value >= o.min && (o.max < 0 || r.trials[i].value <= o.max));
    if (!w.adversarial) {
        check(r.pinned);
        check(r.largest_fit == truth(&w, &o));
        /* a fit is found only with memory evidence: a peak, or an OOM trial */
        bool measured = w.peaks;
        for (size_t i = 0; i < r.n_trials; i++) measured |= r.trials[i].outcome == PROBE_OOM;
        check(r.stop == (r.largest_fit < 0 ? PROBE_STOP_NOTHING_FITS
                         : measured        ? PROBE_STOP_FOUND
                                           : PROBE_STOP_UNMEASURED));
    }
    return 0;
}
