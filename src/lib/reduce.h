/* reduce: thin a series for display without smoothing its extremes away.
 * The x range is cut into buckets; each bucket keeps its first, lowest,
 * highest and last point, in x order (so a 10 ms spike survives a day of
 * samples drawn at 800 px). reduce_minmax works on arrays the caller holds;
 * reduce_stream does the same on points as they arrive, in bounded memory
 * whatever their number (a day of 10 ms samples), and is what readers of
 * big files feed. Pure; a stream owns its buckets and is freed with
 * reduce_stream_release. */
#ifndef OOMLAB_REDUCE_H
#define OOMLAB_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* x must be non-decreasing. out_x/out_y hold at least 4 * buckets points;
 * returns the number written (n itself when n <= 4 * buckets: copied). */
size_t reduce_minmax(const double *x, const double *y, size_t n, size_t buckets, double *out_x,
                     double *out_y);

/* A point as a stream keeps it: seq is its arrival number, which breaks
 * ties so that the result does not depend on when buckets were merged. */
struct reduce_point {
    double x, y;
    uint64_t seq;
};

struct reduce_bucket {
    struct reduce_point first, low, high, last; /* by (x, seq); by (y, seq) */
    bool used;
};

/* Buckets are REDUCE_STREAM_BUCKETS equal spans of width w (a power of
 * two) from start (a multiple of w). A point outside them doubles w until
 * every point seen fits, and the kept points are placed again: merging the
 * summaries of two buckets is placing their kept points, so the result is
 * the summary of every point at the final width, exactly. Points may come
 * in any x order (a resumed run's steps); x and y must be finite (others
 * are counted in n and skipped). */
#define REDUCE_STREAM_BUCKETS 2048
#define REDUCE_STREAM_MAX_POINTS (4 * REDUCE_STREAM_BUCKETS)

struct reduce_stream {
    struct reduce_bucket *b; /* NULL until the first point */
    double w, start;
    uint64_t n;     /* points given (finite or not) */
    uint64_t kept;  /* finite points given */
    double x_lo, x_hi; /* the extent of x over the kept points (valid when kept > 0) */
    bool failed;    /* out of memory: the points from then on were lost */
};

void reduce_stream_init(struct reduce_stream *s);
/* 0, or -1 out of memory (s->failed set; later adds are counted only). */
int reduce_stream_add(struct reduce_stream *s, double x, double y);
/* The kept points in x order (seq breaking ties), each once, into arrays
 * of REDUCE_STREAM_MAX_POINTS; returns how many. */
size_t reduce_stream_points(const struct reduce_stream *s, double *out_x, double *out_y);
void reduce_stream_release(struct reduce_stream *s);

#endif
