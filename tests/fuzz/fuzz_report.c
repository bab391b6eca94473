/* Fuzz the report's readers and writers: the memory CSV and the torch
 * hook's step file (parsed, then drawn as charts) and the HTML escaper. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/memcsv.h"
#include "lib/torchsteps.h"
#include "render/html.h"
#include "render/svg.h"

static void draw_memory(const struct memcsv *m, FILE *f)
{
    static double x[4096], y[4096];
    struct svg_chart c = {.id = "memory", .title = "t", .x_label = "x", .y_label = "y", .y_from_zero = true};
    for (size_t g = 0; g < m->n_gpus && c.n_series < SVG_MAX_SERIES; g++) {
        size_t n = m->gpus[g].n < 4096 ? m->gpus[g].n : 4096, k = 0;
        double last = -1e300;
        for (size_t i = 0; i < n; i++) {
            double t = m->gpus[g].samples[i].elapsed_s;
            if (m->gpus[g].samples[i].used < 0 || t < last) continue; /* as report keeps them */
            x[k] = last = t;
            y[k++] = (double)m->gpus[g].samples[i].used;
        }
        c.series[c.n_series++] = (struct svg_series){"gpu", x, y, k, (int)g, false};
        svg_chart_render(f, &c, g % 2 == 0);
        c.n_series = 0;
    }
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
    case 0: {
        struct memcsv m;
        if (memcsv_parse(&m, text, len, &err) == 0) {
            draw_memory(&m, f);
            memcsv_release(&m);
        }
        break;
    }
    case 1: {
        char *buf = malloc(len + sizeof TORCHSTEPS_HEADER);
        if (!buf) break;
        memcpy(buf, TORCHSTEPS_HEADER, sizeof TORCHSTEPS_HEADER - 1);
        memcpy(buf + sizeof TORCHSTEPS_HEADER - 1, text, len);
        struct torchsteps ts;
        if (torchsteps_parse(&ts, buf, len + sizeof TORCHSTEPS_HEADER - 1, &err) == 0) torchsteps_release(&ts);
        free(buf);
        break;
    }
    default:
        html_escape(f, text, len);
    }
    fclose(f);
    return 0;
}
