/* Fuzz the report's readers and writers: the memory CSV (whole and in
 * chunks, reduced, then drawn as charts with their capacity and edge
 * lines), the torch hook's step file (whole and fed in small pieces: the
 * same figures) and the HTML escaper. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/memcsv.h"
#include "lib/reduce.h"
#include "lib/torchsteps.h"
#include "render/html.h"
#include "render/svg.h"

static void draw_memory(const struct memcsv *m, FILE *f)
{
    static double x[REDUCE_STREAM_MAX_POINTS], y[REDUCE_STREAM_MAX_POINTS];
    struct svg_chart c = {.id = "memory", .title = "t", .x_label = "x", .y_label = "y", .y_from_zero = true, .note = "n"};
    for (size_t g = 0; g < m->n_gpus && c.n_series < SVG_MAX_SERIES; g++) {
        size_t k = reduce_stream_points(&m->gpus[g].used, x, y);
        for (size_t i = 1; i < k; i++)
            if (x[i] < x[i - 1]) __builtin_trap(); /* the stream's points come in x order */
        c.series[c.n_series++] = (struct svg_series){.name = "gpu", .x = x, .y = y, .n = k, .color = (int)g,
                                                     .n_data = m->gpus[g].used.kept, .dots = g % 3 == 1};
        if (k) c.markers[c.n_markers = 1, 0] = (struct svg_line){.value = x[k / 2], .label = "step 1", .kind = "step"};
        /* the capacity and its 85% edge as the memory chart draws them
         * (their labels placed clear of the series: place_hlabels), a
         * third line on the edge itself for every other GPU */
        c.n_hlines = 0;
        if (k) {
            double top = y[0];
            for (size_t i = 1; i < k; i++) top = y[i] > top ? y[i] : top;
            c.hlines[c.n_hlines++] = (struct svg_line){.value = top, .label = "capacity 80.0 GiB"};
            c.hlines[c.n_hlines++] = (struct svg_line){.value = top * 0.85, .label = "85% edge", .warn = true};
            if (g % 2) c.hlines[c.n_hlines++] = (struct svg_line){.value = top * 0.85, .label = "the edge again"};
        }
        svg_chart_render(f, &c, g % 2 == 0);
        c.n_series = 0;
    }
}

/* The same CSV whole and in two chunks split at a byte the input chooses:
 * the same samples. */
static void memcsv_both(const char *text, size_t len, size_t cut, FILE *f)
{
    struct memcsv whole, split;
    struct oomlab_err err;
    if (memcsv_parse(&whole, text, len, &err) < 0) return;
    memcsv_init(&split);
    cut = len ? cut % (len + 1) : 0;
    if (memcsv_feed(&split, text, cut, &err) == 0 && memcsv_feed(&split, text + cut, len - cut, &err) == 0) {
        memcsv_finish(&split);
        if (split.n_gpus != whole.n_gpus || split.bad_rows != whole.bad_rows) __builtin_trap();
        for (size_t g = 0; g < whole.n_gpus; g++)
            if (split.gpus[g].rows != whole.gpus[g].rows || split.gpus[g].used.kept != whole.gpus[g].used.kept) __builtin_trap();
    }
    draw_memory(&whole, f);
    memcsv_release(&whole);
    memcsv_release(&split);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    FILE *f = fopen("/dev/null", "w");
    if (!f) return 0;
    struct oomlab_err err;
    switch (data[0] % 3) {
    case 0:
        memcsv_both(text, len, data[0], f);
        break;
    case 1: {
        char *buf = malloc(len + sizeof TORCHSTEPS_HEADER);
        if (!buf) break;
        memcpy(buf, TORCHSTEPS_HEADER, sizeof TORCHSTEPS_HEADER - 1);
        memcpy(buf + sizeof TORCHSTEPS_HEADER - 1, text, len);
        size_t n = len + sizeof TORCHSTEPS_HEADER - 1;
        struct torchsteps ts, fed;
        int rc = torchsteps_parse(&ts, buf, n, &err);
        /* fed in pieces of 1 to 13 bytes (a file read in chunks): the same as parsed whole */
        struct torchsteps_stream *st = torchsteps_stream_new(&fed);
        for (size_t at = 0, step = 1; st && at < n; at += step, step = 1 + at % 13)
            torchsteps_stream_feed(st, buf + at, step < n - at ? step : n - at);
        int fed_rc = st ? torchsteps_stream_end(st, &err) : -1;
        if (rc == 0 && fed_rc == 0) {
            if (fed.rows != ts.rows || fed.bad_rows != ts.bad_rows || fed.ranks != ts.ranks ||
                fed.series.n != ts.series.n || fed.peak_alloc != ts.peak_alloc ||
                fed.peak_reserved != ts.peak_reserved || fed.worst_rank != ts.worst_rank)
                __builtin_trap();
        } else if (st && rc != fed_rc) {
            __builtin_trap();
        }
        if (rc == 0) torchsteps_release(&ts);
        if (fed_rc == 0) torchsteps_release(&fed);
        free(buf);
        break;
    }
    default:
        html_escape(f, text, len);
    }
    fclose(f);
    return 0;
}
