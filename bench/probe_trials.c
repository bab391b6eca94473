/* bench/probe-trials: how many short runs oomlab's probe needs to pin the
 * largest batch that fits, against Lightning's BatchSizeFinder
 * "power then binsearch" strategy (reimplemented from its documentation:
 * double from the start until a run fails, then binary-search between the
 * last success and the failure), on every boundary 1..4096 of a modelled
 * memory curve. Both must find the exact boundary; counts are printed with
 * the ratio. oomlab's counts include its confirm run; Lightning has none. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/probe.h"

#define GiB (1024.0 * 1024.0 * 1024.0)
#define MiB (1024.0 * 1024.0)
#define TOP 4096

struct curve {
    const char *name;
    double a, b, c; /* memory = a + b*v + c*v^2 */
    double noise;   /* measured peaks read up to this much low (sampling) */
};

struct sim {
    const struct curve *cv;
    double cap;
    bool peaks;
    int runs;
};

static double mem(const struct curve *cv, long v)
{
    return cv->a + cv->b * (double)v + cv->c * (double)v * (double)v;
}

static enum probe_outcome trial(void *ctx, long v, struct probe_trial *t)
{
    struct sim *s = ctx;
    s->runs++;
    t->capacity = (int64_t)s->cap;
    if (mem(s->cv, v) > s->cap) return PROBE_OOM;
    double low = s->cv->noise ? fmod((double)v * 2654435761.0, s->cv->noise) : 0;
    if (s->peaks) t->peak = (int64_t)(mem(s->cv, v) - low);
    return PROBE_FITS;
}

struct model {
    const struct curve *cv;
    double err;
};

static int64_t predict(void *ctx, long v)
{
    const struct model *m = ctx;
    return (int64_t)(mem(m->cv, v) * (1 + m->err));
}

/* Lightning's power-then-binsearch, capped at max like a --max would. */
static int lightning(struct sim *s, long max, long *found)
{
    long v = 1, lo = 0, hi = -1;
    for (;;) {
        s->runs++;
        if (mem(s->cv, v) > s->cap) {
            hi = v;
            break;
        }
        lo = v;
        if (v >= max) break;
        v = v * 2 > max ? max : v * 2;
    }
    while (hi > 0 && hi - lo > 1) {
        long mid = (lo + hi) / 2;
        s->runs++;
        if (mem(s->cv, mid) > s->cap) hi = mid;
        else lo = mid;
    }
    *found = lo;
    return s->runs;
}

enum strat { S_LIGHTNING, S_BLIND, S_PEAKS, S_PEAKS_NOMAX, S_MODEL, S_MODEL_NOMAX, S_COUNT };
static const char *const strat_names[] = {
    "Lightning power+binsearch (no confirm run)",
    "oomlab --max 4096, no peaks (blind bisection)",
    "oomlab --max 4096, peaks + capacity",
    "oomlab no --max, peaks + capacity",
    "oomlab --max 4096, --model start (estimate off by +-10%)",
    "oomlab no --max, --model start (estimate off by +-10%)",
};

static int run_one(enum strat st, const struct curve *cv, long boundary, long *found)
{
    struct sim s = {.cv = cv, .peaks = st != S_BLIND};
    /* the card: halfway between the boundary's memory and the next value's */
    s.cap = (mem(cv, boundary) + mem(cv, boundary + 1)) / 2;
    if (st == S_LIGHTNING) return lightning(&s, TOP, found);
    struct model m = {cv, boundary % 2 ? 0.10 : -0.10};
    struct probe_opts o;
    probe_opts_init(&o);
    o.max = st == S_PEAKS_NOMAX || st == S_MODEL_NOMAX ? -1 : TOP;
    o.trial = trial;
    o.trial_ctx = &s;
    o.use_peaks = st != S_BLIND;
    if (st == S_MODEL || st == S_MODEL_NOMAX) {
        o.predict = predict;
        o.predict_ctx = &m;
        o.capacity = (int64_t)s.cap; /* NVML gives it before any trial */
    }
    static struct probe_result r;
    if (probe_run(&o, &r, NULL) < 0) return -1;
    *found = r.largest_fit;
    return (int)r.n_trials;
}

static int bench_curve(const struct curve *cv)
{
    double mean[S_COUNT];
    int worst[S_COUNT], wrong = 0;
    for (int st = 0; st < S_COUNT; st++) {
        long sum = 0;
        worst[st] = 0;
        for (long b = 1; b <= TOP - 1; b++) {
            long found = -1;
            int n = run_one((enum strat)st, cv, b, &found);
            if (found != b) wrong++;
            sum += n;
            if (n > worst[st]) worst[st] = n;
        }
        mean[st] = (double)sum / (TOP - 1);
    }
    printf("\n%s\n  %-58s %6s %5s  %s\n", cv->name, "strategy", "mean", "worst", "Lightning/this (mean)");
    for (int st = 0; st < S_COUNT; st++)
        printf("  %-58s %6.2f %5d  %.2fx\n", strat_names[st], mean[st], worst[st],
               mean[S_LIGHTNING] / mean[st]);
    return wrong;
}

int main(void)
{
    static const struct curve curves[] = {
        {"batch, linear: 8 GiB + 40 MiB x batch", 8 * GiB, 40 * MiB, 0, 0},
        {"sequence, eager attention: 3 GiB + 2 MiB x seq + 4 KiB x seq^2", 3 * GiB, 2 * MiB, 4096, 0},
        {"batch, states dominate: 60 GiB + 5 MiB x batch", 60 * GiB, 5 * MiB, 0, 0},
        {"batch, linear, peaks read up to 64 MiB low (NVML sampling): 8 GiB + 40 MiB x batch",
         8 * GiB, 40 * MiB, 0, 64 * MiB},
    };
    printf("probe-trials: short runs to pin the largest value that fits, every boundary "
           "1..%d (card halfway to the next value)\n", TOP - 1);
    printf("bound by bisection alone (--min 1 --max %d): ceil(log2(max - min + 1)) + 2 = %d, confirm run included\n", TOP,
           probe_trial_bound(1, TOP));
    int wrong = 0;
    for (size_t i = 0; i < sizeof curves / sizeof *curves; i++) wrong += bench_curve(&curves[i]);
    if (wrong) printf("\n%d searches missed the exact boundary\n", wrong);
    return wrong ? 1 : 0;
}
