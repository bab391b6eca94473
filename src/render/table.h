/* table: aligned text tables for terminals. Cells are copied with control
 * characters and bytes that are not UTF-8 shown as '?' (a ledger cell must
 * not move the cursor or retitle the terminal); the caller frees the table
 * with table_release. Numeric columns align right. A table can be fitted
 * to a width: the columns with the highest drop rank go first. */
#ifndef OOMLAB_TABLE_H
#define OOMLAB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TABLE_MAX_COLS 32

struct table {
    size_t ncols, nrows, cap;
    /* Every cell's cleaned text, NUL-terminated, in one buffer; offset[]
     * holds nrows * ncols positions in it, row-major, row 0 the header
     * (a 300k-row ledger is three allocations, not 3.6M). */
    char *text;
    size_t text_len, text_cap;
    size_t *offset;
    const char **colors; /* per cell: an escape printed before it (NULL none; NULL array: no colour yet) */
    const char *reset;   /* printed after a coloured cell */
    bool right[TABLE_MAX_COLS];
    int drop_rank[TABLE_MAX_COLS]; /* 0: never dropped; higher: dropped sooner */
};

/* Returns 0, or -1 when ncols is 0 or above TABLE_MAX_COLS (or no memory). */
int table_init(struct table *t, size_t ncols, const char *const *headers);
void table_align_right(struct table *t, size_t col);
void table_drop_rank(struct table *t, size_t col, int rank);
/* Append a row of ncols cells (NULL cells print as "-"). 0 or -1 (memory). */
int table_add(struct table *t, const char *const *cells);
/* Colour for a cell of the last row added (an escape from render/color, or
 * NULL); printed outside the alignment, followed by reset. */
void table_color(struct table *t, size_t col, const char *escape, const char *reset);
/* Print with two spaces between columns; trailing blanks trimmed. With
 * width > 0, columns are dropped (highest drop rank first, then the
 * rightmost) until a line fits; returns how many were dropped. */
size_t table_print_fit(const struct table *t, FILE *f, size_t width);
/* The same; shown (ncols entries, may be NULL) says which columns printed. */
size_t table_print_fit_shown(const struct table *t, FILE *f, size_t width, bool *shown);
void table_print(const struct table *t, FILE *f);
void table_release(struct table *t);
/* s with C0/C1 control characters, DEL and bytes that are not UTF-8 as
 * '?', malloc'd (NULL on no memory). */
char *table_clean(const char *s);
/* Display width of s (UTF-8 characters). */
size_t table_text_width(const char *s);

#endif
