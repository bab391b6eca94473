/* table: collects rows (cleaned of control characters), measures display
 * width (UTF-8 aware), fits to a width by dropping ranked columns, prints. */
#include "render/table.h"
#include "lib/strbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int table_init(struct table *t, size_t ncols, const char *const *headers)
{
    memset(t, 0, sizeof *t);
    if (ncols == 0 || ncols > TABLE_MAX_COLS) return -1;
    t->ncols = ncols;
    return table_add(t, headers);
}

void table_align_right(struct table *t, size_t col)
{
    if (col < t->ncols) t->right[col] = true;
}

void table_drop_rank(struct table *t, size_t col, int rank)
{
    if (col < t->ncols) t->drop_rank[col] = rank;
}

/* Write s cleaned to out (room for strlen(s) + 1); returns its length. */
static size_t clean_into(char *out, const char *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp = 0;
        size_t n = strbuf_utf8_seq((const unsigned char *)s + i, len - i, &cp);
        if (c < 0x20 || c == 0x7F || n == 0 || (cp >= 0x80 && cp <= 0x9F)) { /* C1 controls too */
            out[o++] = '?';
            i++;
            continue;
        }
        memcpy(out + o, s + i, n);
        o += n;
        i += n;
    }
    out[o] = '\0';
    return o;
}

char *table_clean(const char *s)
{
    size_t len = strlen(s);
    char *out = malloc(len + 1);
    if (out) clean_into(out, s, len);
    return out;
}

static const char *cell_text(const struct table *t, size_t r, size_t c)
{
    return t->text + t->offset[r * t->ncols + c];
}

/* Room for need more bytes of text. */
static int text_reserve(struct table *t, size_t need)
{
    if (t->text_len + need <= t->text_cap) return 0;
    char *p = strbuf_grow(t->text, &t->text_cap, t->text_len + need, 1, SIZE_MAX);
    if (!p) return -1;
    t->text = p;
    return 0;
}

int table_add(struct table *t, const char *const *cells)
{
    size_t rows_cap = t->cap, need = 0, len[TABLE_MAX_COLS];
    for (size_t i = 0; i < t->ncols; i++) need += (len[i] = strlen(cells[i] ? cells[i] : "-")) + 1;
    if (t->nrows + 1 > t->cap) {
        size_t cap = t->cap; /* a row of ncols offsets (and colours) is one element */
        size_t *o = strbuf_grow(t->offset, &cap, t->nrows + 1, t->ncols * sizeof *o, SIZE_MAX);
        if (!o) return -1;
        t->offset = o;
        if (t->colors) {
            size_t kcap = t->cap;
            const char **k = strbuf_grow(t->colors, &kcap, cap, t->ncols * sizeof *k, SIZE_MAX);
            if (!k) return -1;
            t->colors = k;
        }
        rows_cap = cap;
    }
    if (text_reserve(t, need) < 0) return -1;
    t->cap = rows_cap;
    size_t *row = t->offset + t->nrows * t->ncols;
    for (size_t i = 0; i < t->ncols; i++) {
        row[i] = t->text_len;
        t->text_len += clean_into(t->text + t->text_len, cells[i] ? cells[i] : "-", len[i]) + 1;
        if (t->colors) t->colors[t->nrows * t->ncols + i] = NULL;
    }
    t->nrows++;
    return 0;
}

void table_color(struct table *t, size_t col, const char *escape, const char *reset)
{
    if (!t->nrows || col >= t->ncols || !escape || !*escape) return;
    if (!t->colors && !(t->colors = calloc(t->cap * t->ncols, sizeof *t->colors))) return; /* uncoloured */
    t->colors[(t->nrows - 1) * t->ncols + col] = escape;
    t->reset = reset;
}

size_t table_text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) w++;
    return w;
}

/* Which columns to show at this width: drop the highest rank (rightmost
 * first on ties) until the widths plus two-space gaps fit. */
static size_t choose_columns(const struct table *t, const size_t *w, size_t width, bool *show)
{
    size_t dropped = 0, total = 0;
    for (size_t c = 0; c < t->ncols; c++) show[c] = true, total += w[c] + (c ? 2 : 0);
    while (width && total > width) {
        int best = -1;
        for (size_t c = t->ncols; c-- > 0;)
            if (show[c] && t->drop_rank[c] > 0 && (best < 0 || t->drop_rank[c] > t->drop_rank[best]))
                best = (int)c;
        if (best < 0) break;
        show[best] = false;
        total -= w[best] + 2;
        dropped++;
    }
    return dropped;
}

static void print_row(const struct table *t, FILE *f, size_t r, const size_t *w, const bool *show)
{
    size_t pending = 0; /* spaces owed before the next cell */
    bool first = true;
    for (size_t c = 0; c < t->ncols; c++) {
        if (!show[c]) continue;
        const char *s = cell_text(t, r, c);
        const char *color = t->colors ? t->colors[r * t->ncols + c] : NULL;
        size_t pad = w[c] - table_text_width(s);
        if (!first) pending += 2;
        if (t->right[c]) pending += pad;
        for (size_t i = 0; i < pending; i++) fputc(' ', f);
        if (color) fputs(color, f);
        fputs(s, f);
        if (color && t->reset) fputs(t->reset, f);
        pending = t->right[c] ? 0 : pad;
        first = false;
    }
    fputc('\n', f);
}

size_t table_print_fit(const struct table *t, FILE *f, size_t width)
{
    return table_print_fit_shown(t, f, width, NULL);
}

size_t table_print_fit_shown(const struct table *t, FILE *f, size_t width, bool *shown)
{
    size_t w[TABLE_MAX_COLS] = {0};
    bool show[TABLE_MAX_COLS];
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            size_t x = table_text_width(cell_text(t, r, c));
            if (x > w[c]) w[c] = x;
        }
    size_t dropped = choose_columns(t, w, width, show);
    for (size_t r = 0; r < t->nrows; r++) print_row(t, f, r, w, show);
    if (shown) memcpy(shown, show, t->ncols * sizeof *shown);
    return dropped;
}

void table_print(const struct table *t, FILE *f)
{
    table_print_fit(t, f, 0);
}

void table_release(struct table *t)
{
    free(t->text);
    free(t->offset);
    free(t->colors);
    memset(t, 0, sizeof *t);
}
