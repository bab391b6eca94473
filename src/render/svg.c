/* svg: render a line chart. Coordinates are written in pixels of a fixed
 * 760x280 viewBox that scales with the page (readable at 800 px and in
 * print). Series are thinned to 4 points per pixel column. */
#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/reduce.h"
#include "render/html.h"

#define W 760.0
#define H 280.0
#define ML 64.0
#define MR 16.0
#define MT 34.0
#define MB 40.0
#define PW (W - ML - MR)
#define PH (H - MT - MB)
#define COLUMNS 700

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#393b79", "#637939"};

struct range {
    double x0, x1, y0, y1;
};

static void widen(double *lo, double *hi, double v)
{
    if (!isfinite(v)) return;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
}

static struct range data_range(const struct svg_chart *c)
{
    struct range r = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (size_t s = 0; s < c->n_series; s++)
        for (size_t i = 0; i < c->series[s].n; i++) {
            widen(&r.x0, &r.x1, c->series[s].x[i]);
            widen(&r.y0, &r.y1, c->series[s].y[i]);
        }
    for (size_t i = 0; i < c->n_hlines; i++) widen(&r.y0, &r.y1, c->hlines[i].value);
    for (size_t i = 0; i < c->n_markers; i++) widen(&r.x0, &r.x1, c->markers[i].value);
    if (!isfinite(r.x0)) r.x0 = 0, r.x1 = 1;
    if (!isfinite(r.y0)) r.y0 = 0, r.y1 = 1;
    if (c->y_from_zero && r.y0 > 0) r.y0 = 0;
    if (r.x1 <= r.x0) r.x1 = r.x0 + 1;
    if (r.y1 <= r.y0) r.y1 = r.y0 + (r.y0 != 0 ? fabs(r.y0) * 0.1 : 1);
    double pad = (r.y1 - r.y0) * 0.05;
    r.y1 += pad;
    if (!c->y_from_zero) r.y0 -= pad;
    return r;
}

static double px(const struct range *r, double x) { return ML + (x - r->x0) / (r->x1 - r->x0) * PW; }
static double py(const struct range *r, double y) { return MT + PH - (y - r->y0) / (r->y1 - r->y0) * PH; }

/* A round tick step giving about `want` ticks over span. */
static double nice_step(double span, int want)
{
    double raw = span / want, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

static void axes(FILE *f, const struct svg_chart *c, const struct range *r)
{
    fprintf(f, "<g class=\"axes\"><rect class=\"plot\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/>\n",
            ML, MT, PW, PH);
    double ys = nice_step(r->y1 - r->y0, 5), xs = nice_step(r->x1 - r->x0, 6);
    if (c->x_whole && xs < 1) xs = 1;
    for (double v = ceil(r->y0 / ys) * ys; v <= r->y1 + ys * 1e-9; v += ys)
        fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                   "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                ML, py(r, v), ML + PW, py(r, v), ML - 4, py(r, v) + 4, fabs(v) < ys * 1e-9 ? 0 : v);
    for (double v = ceil(r->x0 / xs) * xs; v <= r->x1 + xs * 1e-9; v += xs)
        fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", px(r, v),
                MT + PH + 16, fabs(v) < xs * 1e-9 ? 0 : v);
    fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", ML + PW / 2, H - 6);
    html_escapes(f, c->x_label);
    fprintf(f, "</text><text class=\"label\" transform=\"translate(14,%.1f) rotate(-90)\" text-anchor=\"middle\">",
            MT + PH / 2);
    html_escapes(f, c->y_label);
    fputs("</text></g>\n", f);
}

/* Label boxes, estimated from the styles' font sizes (11px for a line's
 * label, 10px for a step's; sans-serif runs under 0.6 em a character): a
 * step label that would cover a line's ("step 20" over "capacity 24.00
 * GiB" at the plot's top right) is moved down past it. */
#define LINE_CHAR_W 6.6
#define STEP_CHAR_W 6.0
struct box {
    double x0, x1, y0, y1;
};

static struct box text_box(double x, double baseline, bool end, size_t chars, double char_w, double size)
{
    double w = (double)chars * char_w;
    return (struct box){end ? x - w : x, end ? x : x + w, baseline - size, baseline + 3};
}

static bool boxes_meet(const struct box *a, const struct box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static size_t label_chars(const char *label)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)(label ? label : ""); *p; p++)
        n += (*p & 0xC0) != 0x80; /* a UTF-8 character counts once */
    return n;
}

/* Whether the segment a-b crosses box b (Liang-Barsky clipping). */
static bool segment_meets_box(double ax, double ay, double bx, double by, const struct box *b)
{
    double t0 = 0, t1 = 1, dx = bx - ax, dy = by - ay;
    double p[4] = {-dx, dx, -dy, dy}, q[4] = {ax - b->x0, b->x1 - ax, ay - b->y0, b->y1 - ay};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0) return false; /* parallel and outside */
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0 && t > t0) t0 = t;
        if (p[i] > 0 && t < t1) t1 = t;
        if (t0 > t1) return false;
    }
    return true;
}

/* A horizontal line's label: its box and where its text is anchored. */
struct hlabel {
    struct box box;
    double x, base;
    bool end;
};

/* How many drawn segments (or dots) of the series, as series() thins them,
 * cross box b. */
static size_t series_crossing(const struct svg_chart *c, const struct range *r, const struct box *b, double *ox,
                              double *oy)
{
    size_t n = 0;
    for (size_t s = 0; s < c->n_series; s++) {
        const struct svg_series *se = &c->series[s];
        size_t m = reduce_minmax(se->x, se->y, se->n, COLUMNS, ox, oy);
        for (size_t j = 0; j < m; j++) {
            double x = px(r, ox[j]), y = py(r, oy[j]);
            if (m == 1 || se->dots) { /* a circle of r 2.5 */
                struct box dot = {x - 2.5, x + 2.5, y - 2.5, y + 2.5};
                n += boxes_meet(&dot, b);
            } else if (j > 0) {
                n += segment_meets_box(px(r, ox[j - 1]), py(r, oy[j - 1]), x, y, b);
            }
        }
    }
    return n;
}

/* Where each horizontal line's label goes: above its line at the plot's
 * right end (as before), else below it, else the same at the left end: the
 * first place in the plot that no series, no other line and no label
 * placed before crosses. The memory chart's "85% edge" label sat on the
 * memory line where that runs along the edge late in a run. None clear:
 * the place the fewest drawn segments cross. */
static void place_hlabels(const struct svg_chart *c, const struct range *r, struct hlabel *out, double *ox,
                          double *oy)
{
    for (size_t i = 0; i < c->n_hlines; i++) {
        double y = py(r, c->hlines[i].value);
        size_t chars = label_chars(c->hlines[i].label);
        size_t best_cost = SIZE_MAX;
        for (int k = 0; k < 4; k++) {
            bool right = k < 2, above = k % 2 == 0;
            struct hlabel h = {.x = right ? ML + PW - 4 : ML + 4, .base = above ? y - 4 : y + 13, .end = right};
            h.box = text_box(h.x, h.base, h.end, chars, LINE_CHAR_W, 11);
            /* out of the plot; the top line's label (capacity, under the
             * range's 5% pad) may rise into the margin over the plot, as it
             * always has: the legend ends above MT - 6 */
            if (h.box.y0 < MT - 6 || h.box.y1 > MT + PH) continue;
            size_t cost = 0;
            for (size_t j = 0; j < c->n_hlines; j++) { /* another line through it */
                double yj = py(r, c->hlines[j].value);
                if (j != i && yj > h.box.y0 && yj < h.box.y1) cost += 1000;
            }
            for (size_t j = 0; j < i; j++) cost += boxes_meet(&h.box, &out[j].box) ? 1000 : 0;
            if (cost < best_cost) cost += series_crossing(c, r, &h.box, ox, oy);
            if (cost < best_cost) best_cost = cost, out[i] = h;
            if (cost == 0) break;
        }
        if (best_cost == SIZE_MAX) { /* no room in the plot: above it at the right end */
            out[i] = (struct hlabel){.x = ML + PW - 4, .base = y - 4, .end = true};
            out[i].box = text_box(out[i].x, out[i].base, true, chars, LINE_CHAR_W, 11);
        }
    }
}

/* The baseline for a step label at x: the plot's top, else the first row
 * below it clear of every horizontal line's label. */
static double step_baseline(const struct svg_chart *c, const struct hlabel *hl, double x, bool end,
                            const char *label)
{
    double base = MT + 10;
    for (int tries = 0; tries < 8; tries++) {
        struct box me = text_box(x, base, end, label_chars(label), STEP_CHAR_W, 10);
        bool clear = true;
        for (size_t i = 0; i < c->n_hlines && clear; i++) {
            struct box other = hl[i].box;
            if (boxes_meet(&me, &other)) {
                clear = false;
                base = other.y1 + 10;
            }
        }
        if (clear || base > MT + PH - 4) break;
    }
    return base > MT + PH - 4 ? MT + 10 : base;
}

static void lines(FILE *f, const struct svg_chart *c, const struct range *r, const struct hlabel *hl)
{
    for (size_t i = 0; i < c->n_hlines; i++) {
        const struct svg_line *l = &c->hlines[i];
        double y = py(r, l->value);
        fprintf(f, "<g class=\"hline%s\" data-value=\"%g\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
                l->warn ? " warn" : "", l->value, ML, y, ML + PW, y, hl[i].x, hl[i].base, hl[i].end ? "end" : "start");
        html_escapes(f, l->label);
        fputs("</text></g>\n", f);
    }
    for (size_t i = 0; i < c->n_markers; i++) {
        const struct svg_line *m = &c->markers[i];
        double x = px(r, m->value);
        bool step = m->kind && !strcmp(m->kind, "step"), end = x > ML + PW / 2;
        double tx = x + (end ? -4 : 4);
        fprintf(f, "<g class=\"marker%s\" data-marker=\"", step ? " step" : "");
        html_escapes(f, m->kind ? m->kind : "oom");
        fprintf(f, "\" data-x=\"%g\" data-px=\"%.1f\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
                m->value, x, x, MT, x, MT + PH, tx, step ? step_baseline(c, hl, tx, end, m->label) : MT + PH / 2,
                end ? "end" : "start");
        html_escapes(f, m->label);
        fputs("</text></g>\n", f);
    }
}

/* One series, thinned to 4 points per pixel column, as one polyline (a
 * circle per point when it is a single point or dots). */
static void series(FILE *f, const struct svg_series *s, const struct range *r, double *ox, double *oy)
{
    size_t m = reduce_minmax(s->x, s->y, s->n, COLUMNS, ox, oy);
    fprintf(f, "<g class=\"series s%d%s\" data-series=\"", s->color % 12, s->dashed ? " dashed" : "");
    html_escapes(f, s->name);
    fprintf(f, "\" data-n=\"%llu\" data-drawn=\"%zu\">", (unsigned long long)(s->n_data ? s->n_data : s->n), m);
    if (m == 1 || (s->dots && m > 0)) {
        for (size_t j = 0; j < m; j++) fprintf(f, "<circle r=\"2.5\" cx=\"%.1f\" cy=\"%.1f\"/>", px(r, ox[j]), py(r, oy[j]));
    } else if (m > 1) {
        fputs("<polyline points=\"", f);
        for (size_t j = 0; j < m; j++) fprintf(f, "%s%.1f,%.1f", j ? " " : "", px(r, ox[j]), py(r, oy[j]));
        fputs("\"/>", f);
    }
    fputs("</g>\n", f);
}

static void legend(FILE *f, const struct svg_chart *c)
{
    double x = ML;
    for (size_t s = 0; s < c->n_series; s++) {
        const struct svg_series *se = &c->series[s];
        fprintf(f, "<g class=\"legend s%d%s\"><line x1=\"%.1f\" y1=\"22\" x2=\"%.1f\" y2=\"22\"/><text x=\"%.1f\" y=\"26\">",
                se->color % 12, se->dashed ? " dashed" : "", x, x + 14, x + 18);
        html_escapes(f, se->name);
        fputs("</text></g>", f);
        x += 28 + 6.5 * (double)(se->name ? strlen(se->name) : 0);
    }
    fputc('\n', f);
}

void svg_styles(FILE *f)
{
    fputs(".chart{width:100%;max-width:960px;height:auto;font:11px sans-serif}"
          ".chart .plot{fill:#fff;stroke:#999}.chart .grid{stroke:#e6e6e6}"
          ".chart .tick,.chart .label{fill:#333}.chart .title{font-weight:bold;font-size:13px;fill:#111}"
          ".chart .series polyline,.chart .legend line{fill:none;stroke-width:1.6}"
          ".chart .dashed polyline,.chart .legend.dashed line{stroke-dasharray:5 3}"
          ".chart .hline line{stroke:#888;stroke-dasharray:2 2}.chart .hline text{fill:#666}"
          ".chart .hline.warn line{stroke:#e69500}.chart .hline.warn text{fill:#b37400}"
          ".chart .marker line{stroke:#c00;stroke-width:2}.chart .marker text{fill:#c00;font-weight:bold}"
          ".chart .marker.step line{stroke:#aaa;stroke-width:1}.chart .marker.step text{fill:#777;font-weight:normal;"
          "font-size:10px}.chart .note{fill:#777;font-style:italic}\n",
          f);
    for (size_t i = 0; i < sizeof palette / sizeof palette[0]; i++)
        fprintf(f, ".chart .s%zu polyline,.chart .s%zu line{stroke:%s}.chart .s%zu circle{fill:%s}\n", i, i,
                palette[i], i, palette[i]);
}

int svg_chart_render(FILE *f, const struct svg_chart *c, bool standalone)
{
    size_t cap = 4 * COLUMNS;
    double *buf = malloc(2 * cap * sizeof *buf);
    if (!buf) return -1;
    struct range r = data_range(c);
    if (standalone) {
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
        fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%.0f\" height=\"%.0f\" ", W, H);
    } else {
        fputs("<svg class=\"chart\" ", f);
    }
    fprintf(f, "id=\"chart-");
    html_escapes(f, c->id);
    fprintf(f, "\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", W, H);
    html_escapes(f, c->title);
    fputs("\">\n", f);
    if (standalone) {
        fputs("<style>", f);
        svg_styles(f);
        fputs("</style>\n", f);
    }
    fprintf(f, "<text class=\"title\" x=\"%.0f\" y=\"14\">", ML);
    html_escapes(f, c->title);
    fputs("</text>\n", f);
    if (c->note) {
        fprintf(f, "<text class=\"note\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">", W - MR, 14.0);
        html_escapes(f, c->note);
        fputs("</text>\n", f);
    }
    struct hlabel hl[SVG_MAX_LINES];
    place_hlabels(c, &r, hl, buf, buf + cap);
    axes(f, c, &r);
    lines(f, c, &r, hl);
    for (size_t s = 0; s < c->n_series; s++)
        series(f, &c->series[s], &r, buf, buf + cap);
    legend(f, c);
    fputs("</svg>\n", f);
    free(buf);
    return 0;
}
