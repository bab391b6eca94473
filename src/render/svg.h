/* svg: one line chart as SVG — series (thinned with lib/reduce, extremes
 * kept), horizontal reference lines (capacity, the 85% edge), vertical
 * markers (the OOM), axes with round ticks, a legend. Every label goes
 * through render/html's escaper. Elements carry data-* attributes (series
 * name, point counts, marker position) so tests can check a chart without
 * reading pixels. The chart borrows its arrays; nothing is allocated that
 * outlives svg_chart_render. */
#ifndef OOMLAB_SVG_H
#define OOMLAB_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SVG_MAX_SERIES 12
#define SVG_MAX_LINES 4
#define SVG_MAX_MARKERS 8

struct svg_series {
    const char *name;
    const double *x, *y; /* finite; x non-decreasing (callers drop unknowns) */
    size_t n;
    int color;           /* palette index */
    bool dashed;
    uint64_t n_data;     /* points in the data when x/y hold a reduction of them; 0: n */
    bool dots;           /* points, not a line (events such as step lines) */
};

struct svg_line {
    double value;
    const char *label;
    bool warn; /* drawn in the warning colour (the edge), else grey */
    const char *kind; /* markers: data-marker, "oom" when NULL; "step" draws a thin grey tick */
};

struct svg_chart {
    const char *id;      /* element id, e.g. "memory" */
    const char *title, *x_label, *y_label;
    bool y_from_zero;    /* memory: the axis starts at 0 */
    bool x_whole;        /* steps: x ticks at whole numbers only (no "step 1.2") */
    struct svg_series series[SVG_MAX_SERIES];
    size_t n_series;
    struct svg_line hlines[SVG_MAX_LINES];
    size_t n_hlines;
    struct svg_line markers[SVG_MAX_MARKERS]; /* vertical, at x = value */
    size_t n_markers;
    const char *note; /* a line under the title (how the x axis was made); NULL none */
};

/* Write the chart. standalone: a complete SVG document with its own
 * styles (for --svg); else an <svg> element for the HTML report. Returns
 * 0, or -1 when out of memory (nothing useful was written). */
int svg_chart_render(FILE *f, const struct svg_chart *c, bool standalone);
/* The palette's CSS (classes .s0 ... and the chart's own), for the report. */
void svg_styles(FILE *f);

#endif
