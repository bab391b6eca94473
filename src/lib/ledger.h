/* ledger: the runs.csv ledger — the guide's eleven columns exactly and in
 * order, then oomlab's extras — as CSV text: formatting one row (RFC 4180
 * quoting, spreadsheet formula cells neutralised), parsing a whole ledger
 * tolerantly (hand-edited in a spreadsheet: BOM, CRLF, ';' or tab
 * delimiters, quoted fields, columns found by header name, rows cut short),
 * and the rules that flag a run "on the edge". Pure: strings in, strings
 * out. Cells are malloc'd strings ("" when empty, never NULL) owned by their
 * row; ledger_release / ledger_row_release free them. */
#ifndef OOMLAB_LEDGER_H
#define OOMLAB_LEDGER_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/err.h"

enum ledger_col {
    /* the guide's columns, in its order */
    LEDGER_RUN_ID,
    LEDGER_DEVICE_BATCH_SIZE,
    LEDGER_MAX_SEQ_LEN,
    LEDGER_DTYPE,
    LEDGER_GRAD_ACCUM,
    LEDGER_GRAD_CKPT,        /* true / false / "" */
    LEDGER_PEAK_ALLOC_GB,    /* GiB (1024^3, as the guide's script prints), 2 decimals */
    LEDGER_PEAK_RESERVED_GB, /* with peak_source=nvml: the NVML peak of the child's tree */
    LEDGER_OOM,              /* yes / no */
    LEDGER_OOM_STAGE,        /* oom_stage_name, "-" when no OOM */
    LEDGER_LOSS_TREND,       /* steps_trend_name */
    /* extras */
    LEDGER_EFFECTIVE_BATCH,
    LEDGER_PEAK_SOURCE, /* log / nvml / "" */
    LEDGER_PEAK_PCT_CAPACITY,
    LEDGER_CAPACITY_GB,
    LEDGER_STARTED_AT, /* ISO 8601 UTC */
    LEDGER_DURATION_S,
    LEDGER_EXIT_STATUS, /* the code `run` exited with */
    LEDGER_COMMAND,
    LEDGER_NOTES, /* ';'-separated tags: interrupted, timeout, killed by SIGKILL, ... */
    LEDGER_NCOLS
};
#define LEDGER_GUIDE_NCOLS 11

struct ledger_row {
    char *cell[LEDGER_NCOLS];
    long line; /* 1-based line where the record starts; 0 for a new row */
};

#define LEDGER_MAX_FILE_COLS 256

struct ledger {
    struct ledger_row *rows;
    size_t n, cap;
    char delimiter; /* as found in the file */
    bool crlf;      /* the first record ended in CRLF */
    /* The file's layout: file column i holds ledger column columns[i]
     * (-1: a column oomlab does not know). n_columns 0: no header. */
    int columns[LEDGER_MAX_FILE_COLS];
    size_t n_columns;
};

const char *ledger_col_name(enum ledger_col col);
/* Column for a header name (case-insensitive, blanks trimmed; the guide's
 * prose names grad_accum_steps/gradient_checkpointing accepted); -1 unknown. */
int ledger_col_lookup(const char *name, size_t len);

/* Row lifecycle: init sets every cell to "" (-1 on no memory). */
int ledger_row_init(struct ledger_row *row);
/* Copy value (NULL -> "") into the cell; -1 on no memory. */
int ledger_row_set(struct ledger_row *row, enum ledger_col col, const char *value);
void ledger_row_release(struct ledger_row *row);

/* "run_id,...,notes\n" (malloc'd; NULL on no memory). */
char *ledger_header(size_t *len);
/* One CSV record ending in "\n" (malloc'd; NULL on no memory). */
char *ledger_format_row(const struct ledger_row *row, size_t *len);
/* A cell as written to CSV: quoted when needed, formula-like text
 * (= + - @ tab CR first, unless a plain number or a lone "-") prefixed
 * with '. Returns the bytes needed (excluding NUL); writes at most size. */
size_t ledger_format_cell(const char *value, char *out, size_t size);
/* The row laid out as the parsed file lays out its rows (its header's
 * column order, its delimiter and line ending) so that appending to a
 * ledger a spreadsheet rewrote keeps it readable; columns the file does not
 * have are not written. Without a header, the canonical layout. */
char *ledger_format_row_like(const struct ledger *lg, const struct ledger_row *row, size_t *len);
/* What must be written before appending to a file holding text, so a
 * record cut short by a crash cannot swallow the next one: "" when it ends
 * cleanly, "\n" when it lacks the final newline, "\"\n" when it ends
 * inside a quoted field. Empty text needs the header (see ledger_header). */
const char *ledger_tail_repair(const char *text, size_t len);

/* Parse a whole ledger. Empty text is an empty ledger. A first record
 * naming run_id is the header (columns by name, unknown ones ignored,
 * missing ones empty); otherwise the guide's order is assumed. Blank lines
 * are skipped, short rows padded, an unterminated quote ends at EOF.
 * Content never fails: -1 (with err) only when out of memory. */
int ledger_parse(struct ledger *lg, const char *text, size_t len, const char *name,
                 struct oomlab_err *err);
void ledger_release(struct ledger *lg);

/* The last row with this run id (a forced re-run appends a newer row). */
const struct ledger_row *ledger_find(const struct ledger *lg, const char *id);
/* Largest NNN of ids "runNNN" (0 when none). */
long ledger_max_run_number(const struct ledger *lg);

/* Typed reads of a cell: a number (NaN when empty or not a number); a flag
 * 1 (yes/true/1/y), 0 (no/false/0/n), -1 unknown. */
double ledger_num(const struct ledger_row *row, enum ledger_col col);
int ledger_flag(const struct ledger_row *row, enum ledger_col col);
/* The peak that counts: reserved, else allocated (GiB); NaN when neither. */
double ledger_peak_gb(const struct ledger_row *row);
/* Peak as % of capacity: the cell, else computed from peak and capacity_GB. */
double ledger_pct_capacity(const struct ledger_row *row);
/* Canonical dtype name for comparisons ("bf16" -> "bfloat16"); the input
 * when not recognised. */
const char *ledger_dtype_canonical(const char *dtype);

/* "On the edge" rules — data: a rule loop walks this table. */
struct ledger_edge_rule {
    const char *name; /* "near-capacity", "peak-not-lower" */
    const char *why;  /* one sentence for the user */
    bool (*applies)(const struct ledger *lg, size_t i, double near_pct);
};
extern const struct ledger_edge_rule ledger_edge_rules[];
extern const size_t ledger_n_edge_rules;
#define LEDGER_NEAR_PCT 90.0
/* Bit k set when ledger_edge_rules[k] flags row i. */
unsigned ledger_edges(const struct ledger *lg, size_t i, double near_pct);

/* The one-variable rule: config columns (batch, seq, dtype, accum, ckpt)
 * whose values differ between a and b, compared as numbers/flags/dtypes
 * ("" vs a value counts as a change). Returns the count, fills out. */
size_t ledger_changed(const struct ledger_row *a, const struct ledger_row *b,
                      enum ledger_col *out, size_t max);

#endif
