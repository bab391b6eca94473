/* reduce: min/max-preserving decimation (the "M4" idea: first, min, max,
 * last per pixel column draws the same line as every point). */
#include "lib/reduce.h"

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
