/* table: collects rows, measures display width (UTF-8 aware), prints. */
#include "out/table.h"

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

int table_add(struct table *t, const char *const *cells)
{
    if (t->nrows + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        char **c = realloc(t->cells, cap * t->ncols * sizeof *c);
        if (!c) return -1;
        t->cells = c;
        t->cap = cap;
    }
    char **row = t->cells + t->nrows * t->ncols;
    for (size_t i = 0; i < t->ncols; i++) {
        row[i] = strdup(cells[i] ? cells[i] : "-");
        if (!row[i]) {
            while (i-- > 0) free(row[i]);
            return -1;
        }
    }
    t->nrows++;
    return 0;
}

/* Display width: count UTF-8 lead bytes, not continuation bytes. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) w++;
    return w;
}

void table_print(const struct table *t, FILE *f)
{
    size_t w[TABLE_MAX_COLS] = {0};
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            size_t x = width(t->cells[r * t->ncols + c]);
            if (x > w[c]) w[c] = x;
        }
    for (size_t r = 0; r < t->nrows; r++) {
        size_t pending = 0; /* spaces owed before the next cell */
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            size_t pad = w[c] - width(s);
            if (t->right[c]) pending += pad;
            for (size_t i = 0; i < pending; i++) fputc(' ', f);
            fputs(s, f);
            pending = (t->right[c] ? 0 : pad) + 2;
        }
        fputc('\n', f);
    }
}

void table_release(struct table *t)
{
    for (size_t i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}
