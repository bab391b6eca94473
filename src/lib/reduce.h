/* reduce: thin a series for display without smoothing its extremes away.
 * The x range is cut into buckets; each bucket keeps its first, lowest,
 * highest and last point, in x order (so a 10 ms spike survives a day of
 * samples drawn at 800 px). Pure; writes into caller-sized arrays. */
#ifndef OOMLAB_REDUCE_H
#define OOMLAB_REDUCE_H

#include <stddef.h>

/* x must be non-decreasing. out_x/out_y hold at least 4 * buckets points;
 * returns the number written (n itself when n <= 4 * buckets: copied). */
size_t reduce_minmax(const double *x, const double *y, size_t n, size_t buckets, double *out_x,
                     double *out_y);

#endif
