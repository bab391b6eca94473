/* table: aligned text tables for terminals. Cells are copied; the caller
 * frees the table with table_release. Numeric columns align right. */
#ifndef OOMLAB_TABLE_H
#define OOMLAB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TABLE_MAX_COLS 32

struct table {
    size_t ncols, nrows, cap;
    char **cells; /* nrows * ncols, row-major; row 0 is the header */
    bool right[TABLE_MAX_COLS];
};

/* Returns 0, or -1 when ncols is 0 or above TABLE_MAX_COLS. */
int table_init(struct table *t, size_t ncols, const char *const *headers);
void table_align_right(struct table *t, size_t col);
/* Append a row of ncols cells (NULL cells print as "-"). 0 or -1 (memory). */
int table_add(struct table *t, const char *const *cells);
/* Print with two spaces between columns; trailing blanks trimmed. */
void table_print(const struct table *t, FILE *f);
void table_release(struct table *t);

#endif
