/* reduce: min/max-preserving decimation (the "M4" idea: first, min, max,
 * last per pixel column draws the same line as every point). */
#include "lib/reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t emit(const double *x, const double *y, size_t lo, size_t hi, double *ox, double *oy, size_t k)
{
    size_t mn = lo, mx = lo;
    for (size_t i = lo; i < hi; i++) {
        if (y[i] < y[mn]) mn = i;
        if (y[i] > y[mx]) mx = i;
    }
    size_t pick[4] = {lo, mn < mx ? mn : mx, mn < mx ? mx : mn, hi - 1};
    for (int j = 0; j < 4; j++) {
        if (j > 0 && pick[j] == pick[j - 1]) continue;
        ox[k] = x[pick[j]];
        oy[k] = y[pick[j]];
        k++;
    }
    return k;
}

size_t reduce_minmax(const double *x, const double *y, size_t n, size_t buckets, double *out_x,
                     double *out_y)
{
    if (buckets == 0 || n == 0) return 0;
    if (n <= 4 * buckets) {
        memcpy(out_x, x, n * sizeof *x);
        memcpy(out_y, y, n * sizeof *y);
        return n;
    }
    double x0 = x[0], span = x[n - 1] - x[0];
    size_t k = 0, lo = 0;
    for (size_t b = 0; b < buckets && lo < n; b++) {
        double edge = x0 + span * (double)(b + 1) / (double)buckets;
        size_t hi = lo;
        while (hi < n && (x[hi] <= edge || b == buckets - 1)) hi++;
        if (hi == lo) continue;
        k = emit(x, y, lo, hi, out_x, out_y, k);
        lo = hi;
    }
    return k;
}

/* ---- streaming ---- */

#define W0 (1.0 / 1024) /* the first bucket width: 1 ms for seconds, under a step */

void reduce_stream_init(struct reduce_stream *s)
{
    *s = (struct reduce_stream){0};
}

static bool before(const struct reduce_point *a, double av, const struct reduce_point *b, double bv)
{
    return av < bv || (av == bv && a->seq < b->seq);
}

static void place(struct reduce_stream *s, const struct reduce_point *p)
{
    double at = (p->x - s->start) / s->w;
    size_t i = at <= 0 ? 0 : at >= REDUCE_STREAM_BUCKETS - 1 ? REDUCE_STREAM_BUCKETS - 1 : (size_t)at;
    struct reduce_bucket *b = &s->b[i];
    if (!b->used) {
        *b = (struct reduce_bucket){*p, *p, *p, *p, true};
        return;
    }
    if (before(p, p->x, &b->first, b->first.x)) b->first = *p;
    if (before(&b->last, b->last.x, p, p->x)) b->last = *p;
    if (before(p, p->y, &b->low, b->low.y)) b->low = *p;
    if (p->y > b->high.y || (p->y == b->high.y && p->seq < b->high.seq)) b->high = *p;
}

static bool fits(const struct reduce_stream *s, double w, double lo, double hi, double *start)
{
    *start = floor(lo / w) * w;
    return hi < *start + w * REDUCE_STREAM_BUCKETS && lo >= *start;
}

/* Widen until lo..hi fits, then place the kept points again. */
static int widen(struct reduce_stream *s, double x)
{
    double lo = x, hi = x;
    for (size_t i = 0; i < REDUCE_STREAM_BUCKETS; i++) {
        if (!s->b[i].used) continue;
        if (s->b[i].first.x < lo) lo = s->b[i].first.x;
        if (s->b[i].last.x > hi) hi = s->b[i].last.x;
    }
    double w = s->w, start;
    while (!fits(s, w, lo, hi, &start) && w < 1e300) w *= 2;
    struct reduce_bucket *old = s->b;
    s->b = calloc(REDUCE_STREAM_BUCKETS, sizeof *s->b);
    if (!s->b) {
        s->b = old;
        return -1;
    }
    s->w = w, s->start = start;
    for (size_t i = 0; i < REDUCE_STREAM_BUCKETS; i++) {
        if (!old[i].used) continue;
        place(s, &old[i].first), place(s, &old[i].low), place(s, &old[i].high), place(s, &old[i].last);
    }
    free(old);
    return 0;
}

int reduce_stream_add(struct reduce_stream *s, double x, double y)
{
    s->n++;
    if (s->failed || !isfinite(x) || !isfinite(y)) return s->failed ? -1 : 0;
    struct reduce_point p = {x, y, s->kept};
    if (s->kept++ == 0 || x < s->x_lo) s->x_lo = x;
    if (s->kept == 1 || x > s->x_hi) s->x_hi = x;
    if (!s->b) {
        s->b = calloc(REDUCE_STREAM_BUCKETS, sizeof *s->b);
        if (!s->b) {
            s->failed = true;
            return -1;
        }
        s->w = W0;
        s->start = floor(x / W0) * W0;
        while (!isfinite(s->start) || x - s->start >= s->w * REDUCE_STREAM_BUCKETS) /* |x| huge */
            s->w *= 2, s->start = floor(x / s->w) * s->w;
    } else if (x < s->start || x >= s->start + s->w * REDUCE_STREAM_BUCKETS) {
        if (widen(s, x) < 0) {
            s->failed = true;
            return -1;
        }
    }
    place(s, &p);
    return 0;
}

static int by_x(const void *a, const void *b)
{
    const struct reduce_point *p = a, *q = b;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    return p->seq < q->seq ? -1 : p->seq > q->seq;
}

size_t reduce_stream_points(const struct reduce_stream *s, double *out_x, double *out_y)
{
    size_t k = 0;
    if (!s->b) return 0;
    for (size_t i = 0; i < REDUCE_STREAM_BUCKETS; i++) {
        const struct reduce_bucket *b = &s->b[i];
        if (!b->used) continue;
        struct reduce_point p[4] = {b->first, b->low, b->high, b->last};
        qsort(p, 4, sizeof p[0], by_x);
        for (int j = 0; j < 4; j++) {
            if (j && p[j].seq == p[j - 1].seq) continue;
            out_x[k] = p[j].x, out_y[k++] = p[j].y;
        }
    }
    return k;
}

void reduce_stream_release(struct reduce_stream *s)
{
    free(s->b);
    s->b = NULL;
}
