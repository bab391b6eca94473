/* probe: the search for the largest value that fits (see probe.h).
 * State is a bracket (lo, hi): lo the largest value that passed (min - 1
 * before any), hi the smallest that OOMed (max + 1 when only --max bounds
 * it, -1 when nothing does). Each step either follows a memory curve built
 * from the measured peaks (or the estimator) or falls back to blind
 * doubling / bisection; a curve that guessed wrong loses the next step. */
#include "lib/probe.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/killcause.h"
#include "lib/ledger.h"
#include "lib/units.h"

/* After this many wrong guesses the curves are not trusted any more. */
#define PROBE_MAX_MISSES 3

enum curve_kind { CURVE_NONE, CURVE_PROPORTIONAL, CURVE_CHORD, CURVE_PARABOLA, CURVE_PREDICT };

/* Memory as a function of the value: a line (or, once a line has guessed
 * too high, a parabola: attention's s^2 term) through measured peaks, or
 * the estimator's prediction shifted by its error at the largest pass. */
struct curve {
    enum curve_kind kind;
    double v0, p0, slope; /* line: p0 + slope * (v - v0) */
    double v1, bend;      /* parabola: + bend * (v - v0) * (v - v1) */
    double scale, offset; /* predict: scale * predicted + offset */
};

struct search {
    const struct probe_opts *o;
    struct probe_result *r;
    long lo, hi;
    long gallop; /* > 0: the curve under-estimated; step lo + gallop, doubling */
    long down;   /* > 0: the curve over-shot; step hi - down, doubling */
    bool bends;  /* a line through the peaks guessed too high: memory curves up */
    double model_scale, scale_step; /* before any pass: how far the model under-states */
    int misses;
    bool last_missed;
    int fits_expected; /* guesses in a row that said "fits" and did */
};

static const char *const outcome_names[] = {"fits", "oom", "failed", "interrupted"};
static const char *const how_names[] = {"start", "double", "bisect", "peaks",
                                        "model", "confirm", "walk"};
static const char *const stop_names[] = {"found", "nothing_fits", "failed", "interrupted",
                                          "unmeasured"};
static const char *const basis_names[] = {"none", "peak", "count"};

const char *probe_outcome_name(enum probe_outcome outcome)
{
    return (unsigned)outcome < 4 ? outcome_names[outcome] : "unknown";
}

const char *probe_how_name(enum probe_how how)
{
    return (unsigned)how < sizeof how_names / sizeof *how_names ? how_names[how] : "unknown";
}

const char *probe_stop_name(enum probe_stop stop)
{
    return (unsigned)stop < sizeof stop_names / sizeof *stop_names ? stop_names[stop] : "unknown";
}

const char *probe_basis_name(enum probe_basis basis)
{
    return (unsigned)basis < 3 ? basis_names[basis] : "unknown";
}

void probe_opts_init(struct probe_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->min = 1;
    opts->max = -1;
    opts->limit = PROBE_DEFAULT_LIMIT;
    opts->headroom = LEDGER_HEADROOM; /* the edge table and report draw */
    opts->effective_batch = -1;
    opts->capacity = -1;
    opts->use_peaks = true;
    opts->confirm = true;
}

int probe_trial_bound(long min, long max)
{
    /* min, then bisection of the max - min + 1 candidates, then the confirm */
    int k = 0;
    for (unsigned long span = 1; span < (unsigned long)(max - min + 1) && k < 64; k++) span *= 2;
    return k + 2;
}

/* The highest peak measured among the passing runs of value, -1 none. */
static int64_t peak_at(const struct probe_result *r, long value)
{
    int64_t best = -1;
    for (size_t i = 0; i < r->n_trials; i++)
        if (r->trials[i].value == value && r->trials[i].outcome == PROBE_FITS &&
            r->trials[i].peak > best)
            best = r->trials[i].peak;
    return best;
}

/* Passing values with a known peak, ascending and distinct, below `below`
 * (LONG_MAX: all). Returns how many were written. */
static size_t passing_points(const struct probe_result *r, long below, long *values,
                             int64_t *peaks)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_trials; i++) {
        const struct probe_trial *t = &r->trials[i];
        if (t->outcome != PROBE_FITS || t->peak < 0 || t->value >= below) continue;
        size_t j = 0;
        while (j < n && values[j] < t->value) j++;
        if (j < n && values[j] == t->value) continue;
        memmove(values + j + 1, values + j, (n - j) * sizeof *values);
        memmove(peaks + j + 1, peaks + j, (n - j) * sizeof *peaks);
        values[j] = t->value;
        peaks[j] = peak_at(r, t->value);
        n++;
    }
    return n;
}

/* The index of the largest point at most 3/4 of values[top] (0 if none):
 * far enough that a few MiB of noise do not tilt a chord. */
static size_t spread_below(const long *values, size_t top)
{
    size_t ref = 0;
    for (size_t i = 0; i < top; i++)
        if (values[i] * 4 <= values[top] * 3) ref = i;
    return ref;
}

/* The estimator corrected by what was measured: through the two spread
 * passes (scale and offset), or scaled through one, or, before any pass,
 * scaled by how far its guesses have OOMed. */
static void predict_fit(const struct search *s, const long *values, const int64_t *peaks,
                        size_t n, struct curve *c)
{
    c->kind = CURVE_PREDICT;
    c->scale = s->model_scale;
    c->offset = 0;
    if (n == 0) return;
    double pa = (double)s->o->predict(s->o->predict_ctx, values[n - 1]);
    if (n >= 2) {
        size_t ref = spread_below(values, n - 1);
        double pb = (double)s->o->predict(s->o->predict_ctx, values[ref]);
        if (pa > pb && pb >= 0) {
            double scale = ((double)peaks[n - 1] - (double)peaks[ref]) / (pa - pb);
            if (scale > 0) {
                c->scale = scale;
                c->offset = (double)peaks[n - 1] - scale * pa;
                return;
            }
        }
    }
    if (pa > 0) c->scale = (double)peaks[n - 1] / pa;
}

/* Choose the curve: the estimator when there is one; else a chord through
 * the largest pass and one at most 3/4 of it (wide enough that a few MiB
 * of noise do not tilt it, local enough for curves that bend); else the
 * proportional line through one pass, which over-states memory above it
 * (memory = a + b*v with a >= 0), so its guess is a value that should fit. */
static void curve_build(const struct search *s, struct curve *c)
{
    long values[PROBE_MAX_TRIALS];
    int64_t peaks[PROBE_MAX_TRIALS];
    size_t n = passing_points(s->r, LONG_MAX, values, peaks);
    c->kind = CURVE_NONE;
    if (s->o->predict) {
        predict_fit(s, values, peaks, n, c);
        return;
    }
    if (!s->o->use_peaks || n == 0) return;
    c->v0 = (double)values[n - 1];
    c->p0 = (double)peaks[n - 1];
    if (n == 1) {
        c->kind = CURVE_PROPORTIONAL;
        c->slope = c->p0 / c->v0;
        return;
    }
    size_t ref = spread_below(values, n - 1);
    double dv = c->v0 - (double)values[ref];
    c->slope = (c->p0 - (double)peaks[ref]) / dv;
    if (c->slope > 0) c->kind = CURVE_CHORD;
    if (!s->bends || ref == 0) return;
    /* Three points, each at most 3/4 of the next: the parabola through them
     * (Newton's divided differences), kept only when it does bend up. */
    size_t low = spread_below(values, ref);
    double s2 = ((double)peaks[ref] - (double)peaks[low]) / (double)(values[ref] - values[low]);
    double bend = (c->slope - s2) / (c->v0 - (double)values[low]);
    if (bend > 0 && c->slope > 0) {
        c->kind = CURVE_PARABOLA;
        c->v1 = (double)values[ref];
        c->bend = bend;
    }
}

/* Memory at v by the curve, NAN when unknown. */
static double curve_at(const struct search *s, const struct curve *c, long v)
{
    if (c->kind == CURVE_PREDICT) {
        int64_t p = s->o->predict(s->o->predict_ctx, v);
        return p < 0 ? NAN : c->scale * (double)p + c->offset;
    }
    double line = c->p0 + c->slope * ((double)v - c->v0);
    if (c->kind == CURVE_PARABOLA) line += c->bend * ((double)v - c->v0) * ((double)v - c->v1);
    return line;
}

/* The largest v in [from, to] the curve says fits in cap (memory grows with
 * v, so bisect on the curve); from - 1 when none does, -2 when unknown. */
static long curve_boundary(const struct search *s, const struct curve *c, long from, long to,
                           double cap)
{
    double m = curve_at(s, c, from);
    if (isnan(m)) return -2;
    if (m > cap) return from - 1;
    long a = from, b = to; /* a fits by the curve */
    while (a < b) {
        long mid = a + (b - a + 1) / 2;
        m = curve_at(s, c, mid);
        if (isnan(m)) return -2;
        if (m <= cap) a = mid;
        else b = mid - 1;
    }
    return a;
}

static int64_t known_capacity(const struct search *s)
{
    return s->r->capacity >= 0 ? s->r->capacity : s->o->capacity;
}

static long upper_end(const struct search *s)
{
    return s->hi > 0 ? s->hi - 1 : s->o->limit;
}

/* A guided step: the value the curve says is the boundary (expect it to
 * fit), or lo + 1 when the curve says lo already is (expect an OOM).
 * 0 when there is no usable curve. */
static long guided_step(struct search *s, enum probe_how *how, int *expect)
{
    int64_t cap = known_capacity(s);
    if (cap < 0 || s->last_missed || s->gallop > 0 || s->misses >= PROBE_MAX_MISSES) return 0;
    struct curve c;
    curve_build(s, &c);
    if (c.kind == CURVE_NONE) return 0;
    long from = s->lo + 1, to = upper_end(s);
    long g = curve_boundary(s, &c, from, to, (double)cap);
    if (g == -2) return 0;
    /* The curve says hi fits although it OOMed: it cannot place the
     * boundary inside the bracket, and its guess would only crawl. */
    if (s->hi > 0 && s->hi == s->r->smallest_oom && g == to && !isnan(curve_at(s, &c, s->hi)) &&
        curve_at(s, &c, s->hi) <= (double)cap)
        return 0;
    *how = c.kind == CURVE_PREDICT ? PROBE_HOW_MODEL : PROBE_HOW_PEAKS;
    if (g >= from) {
        /* the line from the origin only bounds the boundary from below:
         * its guess is a step, not a claim */
        *expect = c.kind == CURVE_PROPORTIONAL ? 0 : 1;
        return g;
    }
    if (c.kind == CURVE_PROPORTIONAL) {
        /* A lower bound says nothing here; with the bracket still wide a
         * doubling buys the slope, which the next step jumps with. */
        if (s->hi > 0 && s->lo <= (s->hi - 1) / 2) {
            *how = PROBE_HOW_DOUBLE;
            *expect = 0;
            return s->lo * 2;
        }
        return 0;
    }
    *expect = -1;
    return from;
}

static long plain_step(struct search *s, enum probe_how *how)
{
    if (s->hi > 0 && s->down > 0) {
        /* The boundary is likely just under the overshoot: walk down
         * from it rather than bisect the whole bracket again. */
        long v = s->hi - s->down;
        s->down = s->down > LONG_MAX / 2 ? LONG_MAX / 2 : s->down * 2;
        if (v > s->lo) {
            *how = PROBE_HOW_WALK;
            return v;
        }
        s->down = 0;
    }
    if (s->hi > 0) {
        *how = PROBE_HOW_BISECT;
        return s->lo + (s->hi - s->lo) / 2;
    }
    *how = PROBE_HOW_DOUBLE;
    long step = s->gallop > 0 ? s->gallop : s->lo;
    if (s->gallop > 0) s->gallop = s->gallop > LONG_MAX / 2 ? LONG_MAX / 2 : s->gallop * 2;
    return s->lo > s->o->limit - step ? s->o->limit : s->lo + step;
}

static long start_value(const struct search *s, enum probe_how *how)
{
    *how = PROBE_HOW_START;
    int64_t cap = known_capacity(s);
    if (!s->o->predict || cap < 0) return s->o->min;
    struct curve c = {.kind = CURVE_PREDICT, .scale = 1};
    long g = curve_boundary(s, &c, s->o->min, upper_end(s), (double)cap);
    if (g < s->o->min) return s->o->min;
    *how = PROBE_HOW_MODEL;
    return g;
}

/* Run one trial and record it. Returns its outcome. */
static enum probe_outcome run_trial(struct search *s, long value, enum probe_how how)
{
    struct probe_result *r = s->r;
    struct probe_trial *t = &r->trials[r->n_trials];
    memset(t, 0, sizeof *t);
    t->value = value;
    t->how = how;
    t->peak = -1;
    t->capacity = -1;
    t->card = -1;
    t->exit_code = -1;
    enum probe_outcome out = s->o->trial(s->o->trial_ctx, value, t);
    if ((unsigned)out > PROBE_INTERRUPTED) out = PROBE_FAILED;
    t->outcome = out;
    t->value = value;
    t->how = how;
    /* The limit that binds is the smallest reported: a per-process cap
     * (set_per_process_memory_fraction, "X allowed") under the card's total. */
    if (t->capacity >= 0 && (r->capacity < 0 || t->capacity < r->capacity))
        r->capacity = t->capacity;
    r->n_trials++;
    if (out == PROBE_OOM && (r->smallest_oom < 0 || value < r->smallest_oom))
        r->smallest_oom = value;
    if (out == PROBE_FAILED || out == PROBE_INTERRUPTED) {
        r->stop = out == PROBE_FAILED ? PROBE_STOP_FAILED : PROBE_STOP_INTERRUPTED;
        r->stop_trial = (long)r->n_trials - 1;
    }
    return out;
}

static bool closed(const struct search *s)
{
    if (s->hi > 0) return s->hi == s->lo + 1;
    return s->lo >= s->o->limit;
}

static void learn(struct search *s, long value, enum probe_outcome out, int expect)
{
    if (out == PROBE_FITS && value > s->lo) s->lo = value;
    if (out == PROBE_OOM && (s->hi < 0 || value < s->hi)) s->hi = value;
    if (s->hi > 0) s->gallop = 0;
    if (out == PROBE_FITS) s->down = 0;
    /* A curve that says "fits" three times running and is right each time
     * has not placed the boundary, only crept towards it (noisy peaks): as
     * bad as a wrong guess, or it would crawl one value at a time. */
    bool fit_expected = expect > 0 && out == PROBE_FITS;
    s->fits_expected = fit_expected ? s->fits_expected + 1 : 0;
    bool missed = (expect > 0 && out == PROBE_OOM) || (expect < 0 && out == PROBE_FITS) ||
                  s->fits_expected >= 3;
    if (missed) s->fits_expected = 0;
    s->last_missed = missed;
    if (!missed) return;
    if (s->o->predict && s->lo < s->o->min && out == PROBE_OOM) {
        /* The model put the boundary too high and no pass corrects it yet:
         * it under-states memory at value by at least cap / predicted;
         * assume a little more each time it happens again. */
        int64_t predicted = s->o->predict(s->o->predict_ctx, value);
        int64_t cap = known_capacity(s);
        if (predicted > 0 && cap > 0) {
            s->model_scale = (double)cap / (double)predicted * (1 + s->scale_step);
            s->scale_step *= 2;
            s->last_missed = false;
            return;
        }
    }
    s->misses++;
    if (expect > 0 && out == PROBE_OOM) {
        s->bends = true;
        /* A short reach past the largest pass (at most double) misses by
         * little: walk down from it; a long one may be far off: bisect. */
        long jump = value - s->lo;
        if (s->lo >= s->o->min && jump <= s->lo) s->down = jump / 32 > 2 ? jump / 32 : 2;
    }
    /* The curve put the boundary too low and nothing bounds it above:
     * walk up from lo with growing steps instead of doubling lo. */
    if (expect < 0 && s->hi < 0) s->gallop = s->lo / 32 > 1 ? s->lo / 32 : 1;
}

/* Bracket search until the boundary is pinned or a trial stops it.
 * Returns false when stopped. */
static bool search_boundary(struct search *s)
{
    enum probe_how how;
    long v = start_value(s, &how);
    int expect = how == PROBE_HOW_MODEL ? 1 : 0;
    for (;;) {
        enum probe_outcome out = run_trial(s, v, how);
        if (out == PROBE_FAILED || out == PROBE_INTERRUPTED) return false;
        learn(s, v, out, expect);
        if (closed(s)) {
            s->r->pinned = true;
            return true;
        }
        if (s->r->n_trials >= PROBE_MAX_TRIALS - 1) return true; /* keep one for the confirm */
        expect = 0;
        v = guided_step(s, &how, &expect);
        if (v == 0) v = plain_step(s, &how);
    }
}

/* Re-run the largest fit once: an OOM now means the data decides, so the
 * next lower pass becomes the answer. */
static void confirm_run(struct search *s)
{
    struct probe_result *r = s->r;
    enum probe_outcome out = run_trial(s, s->lo, PROBE_HOW_CONFIRM);
    if (out == PROBE_FITS) {
        r->confirmed = true;
        return;
    }
    if (out != PROBE_OOM) return;
    r->flaky = s->lo;
    long below = -1;
    for (size_t i = 0; i < r->n_trials; i++)
        if (r->trials[i].outcome == PROBE_FITS && r->trials[i].value < s->lo &&
            r->trials[i].value > below)
            below = r->trials[i].value;
    s->lo = below < 0 ? s->o->min - 1 : below;
}

static int check_opts(const struct probe_opts *o, struct oomlab_err *err)
{
    if (!o->trial) return oomlab_err_set(err, "probe: no trial function");
    if (o->min < 1) return oomlab_err_set(err, "--min must be at least 1 (got %ld)", o->min);
    if (o->max >= 0 && o->max < o->min)
        return oomlab_err_set(err, "--max %ld is below --min %ld", o->max, o->min);
    if (o->max < 0 && o->limit < o->min)
        return oomlab_err_set(err, "the doubling limit %ld is below --min %ld", o->limit, o->min);
    if (o->max == LONG_MAX) return oomlab_err_set(err, "--max is too large");
    if (!(o->headroom >= 0 && o->headroom <= 0.9))
        return oomlab_err_set(err, "headroom must be between 0%% and 90%%");
    if (o->effective_batch == 0 || o->effective_batch < -1)
        return oomlab_err_set(err, "--effective-batch must be at least 1");
    return 0;
}

/* An OOM or a passing trial's peak: without either, every pass says only
 * that the command exited 0 (it may not touch the GPU, or ignore {batch}),
 * and a "largest fit" is the search's own limit, not the card's. */
static bool measured_memory(const struct probe_result *r)
{
    if (r->smallest_oom >= 0 || r->flaky >= 0) return true;
    for (size_t i = 0; i < r->n_trials; i++)
        if (r->trials[i].outcome == PROBE_OOM || r->trials[i].peak >= 0) return true;
    return false;
}

int probe_run(const struct probe_opts *opts, struct probe_result *res, struct oomlab_err *err)
{
    if (check_opts(opts, err) < 0) return -1;
    memset(res, 0, sizeof *res);
    res->stop_trial = -1;
    res->smallest_oom = -1;
    res->flaky = -1;
    res->capacity = opts->capacity;
    struct search s = {.o = opts, .r = res, .lo = opts->min - 1,
                       .hi = opts->max >= 0 ? opts->max + 1 : -1,
                       .model_scale = 1, .scale_step = 0.05};
    bool done = search_boundary(&s);
    if (done && s.lo >= opts->min && opts->confirm) confirm_run(&s);
    res->largest_fit = s.lo >= opts->min ? s.lo : -1;
    if (res->stop != PROBE_STOP_FAILED && res->stop != PROBE_STOP_INTERRUPTED)
        res->stop = res->largest_fit >= 0 ? PROBE_STOP_FOUND : PROBE_STOP_NOTHING_FITS;
    if (res->largest_fit >= 0) {
        res->largest_fit_peak = peak_at(res, res->largest_fit);
        res->above_max = opts->max >= 0 && res->largest_fit == opts->max;
        res->reached_limit = opts->max < 0 && res->largest_fit >= opts->limit;
    } else {
        res->largest_fit_peak = -1;
    }
    if (res->stop == PROBE_STOP_FOUND && !measured_memory(res)) res->stop = PROBE_STOP_UNMEASURED;
    probe_recommend(opts, res);
    return 0;
}

/* One straight piece of the peak curve, from (va, pa) up to (vb, pb). */
struct piece {
    long va, vb;
    double pa, pb;
};

static size_t peak_pieces(const long *v, const int64_t *p, size_t n, long min, long top,
                          struct piece *out)
{
    size_t k = 0;
    if (n == 1) {
        out[k++] = (struct piece){v[0], v[0], (double)p[0], (double)p[0]};
        return k;
    }
    /* Above the largest measured value (it may have no peak), extend the
     * last chord; below the smallest, the first. */
    if (v[n - 1] < top) {
        double s = (double)(p[n - 1] - p[n - 2]) / (double)(v[n - 1] - v[n - 2]);
        out[k++] = (struct piece){v[n - 1], top, (double)p[n - 1],
                                  (double)p[n - 1] + s * (double)(top - v[n - 1])};
    }
    for (size_t i = n - 1; i > 0; i--)
        out[k++] = (struct piece){v[i - 1], v[i], (double)p[i - 1], (double)p[i]};
    if (v[0] > min) {
        double s = (double)(p[1] - p[0]) / (double)(v[1] - v[0]);
        out[k++] = (struct piece){min, v[0], (double)p[0] - s * (double)(v[0] - min),
                                  (double)p[0]};
    }
    return k;
}

/* The largest value whose measured or interpolated peak is within limit,
 * walking the pieces from the top; -1 when none is. */
static long within_limit(const struct piece *pc, size_t n, double limit, double *peak)
{
    for (size_t i = 0; i < n; i++) {
        if (pc[i].pb <= limit) {
            *peak = pc[i].pb;
            return pc[i].vb;
        }
        if (pc[i].pa <= limit) {
            double frac = (limit - pc[i].pa) / (pc[i].pb - pc[i].pa);
            long v = pc[i].va + (long)floor(frac * (double)(pc[i].vb - pc[i].va));
            *peak = pc[i].pa + (pc[i].pb - pc[i].pa) * (double)(v - pc[i].va) /
                                   (double)(pc[i].vb - pc[i].va);
            return v;
        }
    }
    return -1;
}

/* Candidates examined at most by the accumulation searches: a range past
 * this (an effective batch beyond 2^44) is searched only this far. */
#define PROBE_ACCUM_SCAN (1L << 22)

/* The b in [low, top] with b * floor(e / b) <= e largest (ties: larger b).
 * Walks b, or, when shorter, the step counts k: for a given k the best b is
 * floor(e / k). */
static long best_split(long e, long low, long top)
{
    long best_b = top, best = top * (e / top);
    long k_first = e / top, k_last = e / low;
    if (top - low <= k_last - k_first) {
        for (long b = top, n = 0; b >= low && n < PROBE_ACCUM_SCAN && best < e; b--, n++)
            if (b * (e / b) > best) best = b * (e / b), best_b = b;
        return best_b;
    }
    for (long k = k_first, n = 0; k <= k_last && n < PROBE_ACCUM_SCAN && best < e; k++, n++) {
        long b = e / k; /* k >= 1: top <= e */
        if (b > top) b = top;
        if (b >= low && b * (e / b) > best) best = b * (e / b), best_b = b;
    }
    return best_b;
}

/* The largest divisor of e in [low, top], -1 none: walks d down, or, when
 * shorter, the cofactors q = e / d up. */
static long largest_divisor(long e, long low, long top)
{
    long q_first = (e + top - 1) / top, q_last = e / low;
    if (top - low <= q_last - q_first) {
        for (long d = top, n = 0; d >= low && n < PROBE_ACCUM_SCAN; d--, n++)
            if (e % d == 0) return d;
        return -1;
    }
    for (long q = q_first, n = 0; q <= q_last && n < PROBE_ACCUM_SCAN; q++, n++)
        if (e % q == 0 && e / q <= top && e / q >= low) return e / q;
    return -1;
}

void probe_accum(long e, long largest, long min, struct probe_result *r)
{
    r->grad_accum = r->accum_batch = r->effective_achieved = r->accum_low = -1;
    r->exact_batch = r->exact_grad_accum = -1;
    if (e < 1 || largest < 1) return;
    if (min < 1) min = 1;
    long top = largest < e ? largest : e;
    /* At least half the largest batch per step, and --min where it can. */
    long low = top - top / 2;
    if (low < min) low = min < top ? min : top;
    r->accum_low = low;
    long b = best_split(e, low, top);
    r->accum_batch = b;
    r->grad_accum = e / b;
    r->effective_achieved = b * (e / b);
    long d = largest_divisor(e, min < top ? min : top, top);
    if (d > 0) {
        r->exact_batch = d;
        r->exact_grad_accum = e / d;
    }
}

void probe_recommend(const struct probe_opts *o, struct probe_result *r)
{
    r->recommended = -1;
    r->recommended_peak = -1;
    r->headroom_limit = -1;
    r->basis = PROBE_BASIS_NONE;
    r->effective_batch = o->effective_batch;
    probe_accum(-1, -1, 1, r);
    long lf = r->largest_fit;
    if (lf < 0 || r->stop == PROBE_STOP_UNMEASURED) return;
    long values[PROBE_MAX_TRIALS];
    int64_t peaks[PROBE_MAX_TRIALS];
    size_t n = passing_points(r, lf + 1, values, peaks);
    if (r->capacity >= 0 && n > 0) {
        struct piece pc[PROBE_MAX_TRIALS + 2];
        size_t k = peak_pieces(values, peaks, n, o->min, lf, pc);
        double limit = floor((1.0 - o->headroom) * (double)r->capacity);
        double peak = -1;
        r->headroom_limit = (int64_t)limit;
        r->basis = PROBE_BASIS_PEAK;
        r->recommended = within_limit(pc, k, limit, &peak);
        if (r->recommended >= 0) r->recommended_peak = (int64_t)(peak < 0 ? 0 : llround(peak));
    } else {
        /* No peak or no capacity: the headroom can only go on the count. */
        long v = (long)floor((double)lf * (1.0 - o->headroom));
        r->basis = PROBE_BASIS_COUNT;
        r->recommended = v >= o->min ? v : -1;
    }
    probe_accum(o->effective_batch, r->recommended, o->min, r);
}

/* ---- one trial's evidence ---- */

/* "600s", "10m" when whole, else milliseconds: how --timeout was meant. */
static void format_timeout(int64_t ms, char *buf, size_t size)
{
    static const struct { int64_t ms; const char *unit; } units[] = {
        {3600000, "h"}, {60000, "m"}, {1000, "s"}, {1, "ms"}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (ms >= units[i].ms && ms % units[i].ms == 0) {
            snprintf(buf, size, "%lld%s", (long long)(ms / units[i].ms), units[i].unit);
            return;
        }
    snprintf(buf, size, "%lldms", (long long)ms);
}

static void failed_diagnosis(const struct probe_evidence *ev, char *d, size_t size)
{
    const char *id = ev->run_id ? ev->run_id : "";
    enum killcause kc = killcause_of(ev->term_signal, ev->exit_code, ev->host_oom_kills, ev->host_oom_logged);
    if (ev->failure_other)
        snprintf(d, size, "%s (not a GPU OOM; see logs/%s.log)",
                 ev->oom_kind && ev->oom_kind[0] ? ev->oom_kind : "failure", id);
    else if (kc != KILLCAUSE_NONE) { /* a SIGKILL: whose, as far as the evidence goes */
        char why[400];
        killcause_text(kc, ev->term_signal, ev->host_oom_kills, why, sizeof why);
        snprintf(d, size, "%s; no GPU OOM in the log (see logs/%s.log)", why, id);
    } else if (ev->term_signal)
        snprintf(d, size, "killed by signal %d, no GPU OOM in the log (see logs/%s.log)",
                 ev->term_signal, id);
    else if (ev->exit_code == 127 || ev->exit_code == 126)
        snprintf(d, size, "%s: %s", ev->command ? ev->command : "the command",
                 ev->exit_code == 127 ? "command not found" : "cannot execute");
    else
        snprintf(d, size, "exited with code %d, no GPU OOM in the log (see logs/%s.log)",
                 ev->exit_code, id);
}

enum probe_outcome probe_classify(const struct probe_evidence *ev, char *diagnosis, size_t size)
{
    if (ev->interrupted) {
        snprintf(diagnosis, size, "the trial was stopped (Ctrl-C or SIGTERM to oomlab)");
        return PROBE_INTERRUPTED;
    }
    /* An OOM is an answer even when the timeout or a signal ended the run. */
    if (ev->oom) return PROBE_OOM;
    if (ev->timed_out) {
        char dur[32];
        format_timeout(ev->timeout_ms, dur, sizeof dur);
        snprintf(diagnosis, size, "timed out after %s (not an OOM; raise --timeout or lower --steps)",
                 dur);
        return PROBE_FAILED;
    }
    if (ev->exit_code == 0 && !ev->term_signal) return PROBE_FITS;
    failed_diagnosis(ev, diagnosis, size);
    return PROBE_FAILED;
}

static int64_t max_known(const int64_t *v, size_t n)
{
    int64_t best = -1;
    for (size_t i = 0; i < n; i++)
        if (v[i] > best) best = v[i];
    return best > 0 ? best : -1;
}

int64_t probe_trial_peak(const struct probe_evidence *ev, enum probe_outcome outcome,
                         bool *lower_bound)
{
    *lower_bound = false;
    if (outcome == PROBE_OOM) {
        /* Everything it was seen holding; the largest is the best bound. */
        const struct oom_bytes *b = ev->oom_bytes;
        int64_t held_by_torch = -1;
        if (b && b->allocated >= 0 && b->reserved_unallocated >= 0 &&
            !units_add(b->allocated, b->reserved_unallocated, &held_by_torch))
            held_by_torch = -1;
        int64_t seen[] = {ev->peak_nvml, ev->peak_reserved, ev->peak_alloc,
                          b ? b->process_in_use : -1, b ? b->reserved : -1,
                          b ? b->allocated : -1, held_by_torch};
        int64_t p = max_known(seen, sizeof seen / sizeof *seen);
        *lower_bound = p > 0;
        return p;
    }
    /* A passing run: what it measured (each a lower bound of what the card
     * held, so the larger); a zero is a run too short to sample. */
    int64_t p = ev->peak_nvml > ev->peak_reserved ? ev->peak_nvml : ev->peak_reserved;
    if (p <= 0) p = ev->peak_alloc;
    return p > 0 ? p : -1;
}

bool probe_peak_from_log(const struct probe_evidence *ev)
{
    return ev->peak_reserved > 0 && ev->peak_reserved >= ev->peak_nvml;
}

int64_t probe_oom_limit(const struct oom_bytes *b, bool log_peaks)
{
    if (b->allowed > 0) return b->allowed;
    if (b->capacity <= 0) return -1;
    int64_t other = -1;
    if (b->process_in_use >= 0 && b->allocated >= 0 && b->reserved_unallocated >= 0)
        other = b->process_in_use - b->allocated - b->reserved_unallocated;
    return log_peaks && other > 0 && other < b->capacity ? b->capacity - other : b->capacity;
}

int64_t probe_trial_capacity(const struct probe_evidence *ev, int64_t known, bool log_peaks)
{
    int64_t cap = ev->capacity >= 0 ? ev->capacity : known;
    if (!ev->oom || !ev->oom_bytes) return cap;
    int64_t limit = probe_oom_limit(ev->oom_bytes, log_peaks);
    return limit > 0 && (cap < 0 || limit < cap) ? limit : cap;
}

unsigned long probe_number_of(const char *name)
{
    if (strncmp(name, "probe", 5) != 0 || name[5] < '0' || name[5] > '9') return 0;
    char *end;
    errno = 0;
    unsigned long n = strtoul(name + 5, &end, 10);
    if (errno || (*end != '-' && strcmp(end, ".probe") != 0)) return 0;
    return n;
}
