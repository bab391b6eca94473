/* bars: the scale is shared by every row so bars compare; eighths of a
 * column in UTF-8 so a 1% difference shows on an 80-column terminal. */
#include "render/bars.h"

#include <math.h>
#include <string.h>

#define LABEL_MAX 24
#define FIGURE_COLS 26 /* " >= 123.45 GiB  OOM" and the capacity mark */

static const char *const eighths[] = {"", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d", "\xe2\x96\x8c",
                                      "\xe2\x96\x8b", "\xe2\x96\x8a", "\xe2\x96\x89", "\xe2\x96\x88"};

static double scale_of(const struct bars_row *rows, size_t n)
{
    double top = 0;
    for (size_t i = 0; i < n; i++) {
        if (isfinite(rows[i].peak_gib) && rows[i].peak_gib > top) top = rows[i].peak_gib;
        if (isfinite(rows[i].capacity_gib) && rows[i].capacity_gib > top) top = rows[i].capacity_gib;
    }
    return top;
}

/* The bar in `cols` columns, the capacity's column as '|' (over the bar
 * or after it). */
static void bar(FILE *f, const struct bars_row *r, double top, size_t cols, bool utf8)
{
    size_t eighth_n = isfinite(r->peak_gib) && r->peak_gib > 0 && top > 0 ? (size_t)llround(r->peak_gib / top * (double)cols * 8) : 0;
    long cap_col = isfinite(r->capacity_gib) && top > 0 ? lround(r->capacity_gib / top * (double)cols) - 1 : -1;
    if (cap_col >= (long)cols) cap_col = (long)cols - 1;
    for (size_t c = 0; c < cols; c++) {
        size_t filled = eighth_n >= (c + 1) * 8 ? 8 : eighth_n > c * 8 ? eighth_n - c * 8 : 0;
        if ((long)c == cap_col && filled < 8) fputc('|', f);
        else if (utf8) fputs(filled ? eighths[filled] : " ", f);
        else fputc(filled >= 4 ? '#' : ' ', f);
    }
}

int bars_render(FILE *f, const struct bars_row *rows, size_t n, size_t width, bool utf8)
{
    if (!width) width = 80;
    size_t label_w = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(rows[i].label);
        if (l > label_w) label_w = l;
    }
    if (label_w > LABEL_MAX) label_w = LABEL_MAX;
    size_t cols = width > label_w + FIGURE_COLS + 10 ? width - label_w - FIGURE_COLS : 10;
    double top = scale_of(rows, n);
    for (size_t i = 0; i < n; i++) {
        const struct bars_row *r = &rows[i];
        fprintf(f, "%-*.*s ", (int)label_w, (int)label_w, r->label);
        bar(f, r, top, cols, utf8);
        char fig[32];
        if (isfinite(r->peak_gib))
            fprintf(f, " %s%s GiB", r->lower_bound ? ">=" : "", ledger_figure_text(r->peak_gib, 2, fig, sizeof fig));
        else fputs(" unknown", f);
        fputs(r->oom ? "  OOM\n" : "\n", f);
    }
    bool any_cap = false;
    for (size_t i = 0; i < n; i++) any_cap |= isfinite(rows[i].capacity_gib);
    char fig[32];
    if (any_cap)
        fprintf(f, "%-*s | marks each run's card capacity; scale 0-%s GiB\n", (int)label_w, "",
                ledger_figure_text(top, 2, fig, sizeof fig));
    return ferror(f) ? -1 : 0;
}

static bool chosen(const char *id, char *const *ids, size_t n_ids)
{
    if (!n_ids) return true;
    for (size_t i = 0; i < n_ids; i++)
        if (!strcmp(ids[i], id)) return true;
    return false;
}

int bars_ledger(FILE *f, const struct ledger *lg, char *const *ids, size_t n_ids, size_t width, bool utf8)
{
    enum { MOST = 256 };
    struct bars_row rows[MOST];
    size_t n = 0, count = 0, skip;
    for (size_t i = 0; i < lg->n; i++) count += chosen(lg->rows[i].cell[LEDGER_RUN_ID], ids, n_ids);
    skip = count > MOST ? count - MOST : 0; /* the latest MOST runs */
    if (skip) fprintf(f, "(%zu earlier runs not drawn)\n", skip);
    for (size_t i = 0; i < lg->n; i++) {
        const struct ledger_row *row = &lg->rows[i];
        if (!chosen(row->cell[LEDGER_RUN_ID], ids, n_ids)) continue;
        if (skip) {
            skip--;
            continue;
        }
        double cap = ledger_num(row, LEDGER_CAPACITY_GB);
        rows[n++] = (struct bars_row){.label = row->cell[LEDGER_RUN_ID], .peak_gib = ledger_peak_gb(row),
                                      .lower_bound = ledger_flag(row, LEDGER_PEAK_LOWER_BOUND) == 1,
                                      .capacity_gib = isfinite(cap) && cap > 0 ? cap : NAN,
                                      .oom = !strcmp(row->cell[LEDGER_OOM], "yes")};
    }
    return bars_render(f, rows, n, width, utf8);
}
