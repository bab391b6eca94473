/* ledger: runs.csv as text. Column names, aliases, dtype names and the
 * "on the edge" rules are tables; the CSV reader is one small state
 * machine that never fails on content (a ledger a person edited must
 * still read). */
#include "lib/ledger.h"
#include "lib/textenc.h"
#include "lib/runcfg.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const col_names[LEDGER_NCOLS] = {
    "run_id", "device_batch_size", "max_seq_len", "dtype", "grad_accum", "grad_ckpt",
    "peak_alloc_GB", "peak_reserved_GB", "oom", "oom_stage", "loss_trend",
    "effective_batch", "peak_source", "peak_pct_capacity", "capacity_GB", "started_at",
    "duration_s", "exit_status", "command", "notes", "peak_lower_bound", "mem_trend",
    "mem_first_GB", "mem_last_GB", "mem_steps", "mem_GB_per_100_steps", "env", "oomlab_pid",
    "host", "job_id", "rank", "local_rank", "node_rank", "world_size", "restart", "gpu", "ranks",
    "worst_rank", "device_peak_GB", "device_used_start_GB",
};

/* Header names people write for the same column (the guide's own prose). */
static const struct {
    const char *name;
    enum ledger_col col;
} col_aliases[] = {
    {"grad_accum_steps", LEDGER_GRAD_ACCUM},
    {"gradient_accumulation_steps", LEDGER_GRAD_ACCUM},
    {"gradient_checkpointing", LEDGER_GRAD_CKPT},
    {"id", LEDGER_RUN_ID},
    {"note", LEDGER_NOTES},
};

const char *ledger_col_name(enum ledger_col col)
{
    return (unsigned)col < LEDGER_NCOLS ? col_names[col] : "";
}

const struct ledger_short_title ledger_short_titles[] = {
    {"batch", LEDGER_DEVICE_BATCH_SIZE, "device_batch_size"},
    {"seq", LEDGER_MAX_SEQ_LEN, "max_seq_len"},
    {"accum", LEDGER_GRAD_ACCUM, "grad_accum"},
    {"ckpt", LEDGER_GRAD_CKPT, "gradient_checkpointing"},
};
const size_t ledger_n_short_titles = sizeof ledger_short_titles / sizeof ledger_short_titles[0];

const char *ledger_col_short_title(enum ledger_col col)
{
    for (size_t i = 0; i < ledger_n_short_titles; i++)
        if (ledger_short_titles[i].col == col) return ledger_short_titles[i].title;
    return NULL;
}

int ledger_col_lookup(const char *name, size_t len)
{
    while (len && isspace((unsigned char)*name)) name++, len--;
    while (len && isspace((unsigned char)name[len - 1])) len--;
    for (size_t i = 0; i < LEDGER_NCOLS; i++)
        if (strlen(col_names[i]) == len && !strncasecmp(col_names[i], name, len)) return (int)i;
    for (size_t i = 0; i < sizeof col_aliases / sizeof col_aliases[0]; i++)
        if (strlen(col_aliases[i].name) == len && !strncasecmp(col_aliases[i].name, name, len))
            return (int)col_aliases[i].col;
    return -1;
}

const char *ledger_dtype_canonical(const char *dtype)
{
    const char *name = runcfg_dtype_name(dtype); /* one table of precision spellings */
    return name ? name : dtype;
}

_Static_assert(LEDGER_NCOLS <= 64, "struct ledger_row's own bits");

/* Every empty cell points here; never written (cells are read-only). */
static char empty_cell[1];

int ledger_row_init(struct ledger_row *row)
{
    memset(row, 0, sizeof *row);
    for (size_t i = 0; i < LEDGER_NCOLS; i++) row->cell[i] = empty_cell;
    return 0;
}

bool ledger_recorded(const struct ledger_row *row, enum ledger_col col)
{
    return (unsigned)col < LEDGER_NCOLS && !(row->unrecorded & (UINT64_C(1) << col));
}

int ledger_row_set(struct ledger_row *row, enum ledger_col col, const char *value)
{
    if ((unsigned)col >= LEDGER_NCOLS) return -1;
    char *copy = value && *value ? strdup(value) : empty_cell;
    if (!copy) return -1;
    if (row->own & (UINT64_C(1) << col)) free(row->cell[col]);
    row->cell[col] = copy;
    row->own = copy == empty_cell ? row->own & ~(UINT64_C(1) << col) : row->own | UINT64_C(1) << col;
    return 0;
}

void ledger_row_release(struct ledger_row *row)
{
    for (size_t i = 0; i < LEDGER_NCOLS; i++)
        if (row->own & (UINT64_C(1) << i)) free(row->cell[i]);
    free(row->block);
    memset(row, 0, sizeof *row);
}

/* ---- writing ---- */

static bool plain_number(const char *s)
{
    if (!*s) return false;
    char *end;
    (void)strtod(s, &end);
    return *end == '\0' && end != s && !isspace((unsigned char)*s);
}

static bool formula_like(const char *s)
{
    if (!strchr("=+-@\t\r", *s) || !*s) return false;
    if (!strcmp(s, "-")) return false; /* the guide's "no stage" */
    return !plain_number(s);
}

size_t ledger_format_cell(const char *value, char *out, size_t size)
{
    const char *s = value ? value : "";
    /* A leading ' is doubled so the reader's guard-stripping gives it back. */
    bool neutral = formula_like(s) || *s == '\'';
    bool quote = strpbrk(s, ",\";\t\r\n") != NULL ||
                 (*s && (isspace((unsigned char)*s) || isspace((unsigned char)s[strlen(s) - 1])));
    size_t n = 0;
#define PUT(c)                              \
    do {                                    \
        if (n + 1 < size) out[n] = (char)(c); \
        n++;                                \
    } while (0)
    if (quote) PUT('"');
    if (neutral) PUT('\'');
    for (const char *p = s; *p; p++) {
        if (*p == '"') PUT('"');
        PUT(*p);
    }
    if (quote) PUT('"');
#undef PUT
    if (size) out[n < size ? n : size - 1] = '\0';
    return n;
}

static char *join_cells(const char *const *cells, size_t *len)
{
    size_t total = 0;
    for (size_t i = 0; i < LEDGER_NCOLS; i++) total += ledger_format_cell(cells[i], NULL, 0) + 1;
    char *buf = malloc(total + 1);
    if (!buf) return NULL;
    size_t at = 0;
    for (size_t i = 0; i < LEDGER_NCOLS; i++) {
        at += ledger_format_cell(cells[i], buf + at, total + 1 - at);
        buf[at++] = i + 1 < LEDGER_NCOLS ? ',' : '\n';
    }
    buf[at] = '\0';
    if (len) *len = at;
    return buf;
}

char *ledger_header(size_t *len)
{
    return join_cells(col_names, len);
}

char *ledger_format_row_like(const struct ledger *lg, const struct ledger_row *row, size_t *len)
{
    if (lg->n_columns == 0) return ledger_format_row(row, len);
    size_t total = 2;
    for (size_t i = 0; i < lg->n_columns; i++)
        if (lg->columns[i] >= 0) total += ledger_format_cell(row->cell[lg->columns[i]], NULL, 0);
    total += lg->n_columns;
    char *buf = malloc(total + 1);
    if (!buf) return NULL;
    size_t at = 0;
    for (size_t i = 0; i < lg->n_columns; i++) {
        if (lg->columns[i] >= 0)
            at += ledger_format_cell(row->cell[lg->columns[i]], buf + at, total + 1 - at);
        if (i + 1 < lg->n_columns) buf[at++] = lg->delimiter ? lg->delimiter : ',';
    }
    if (lg->crlf) buf[at++] = '\r';
    buf[at++] = '\n';
    buf[at] = '\0';
    if (len) *len = at;
    return buf;
}

char *ledger_format_row(const struct ledger_row *row, size_t *len)
{
    const char *cells[LEDGER_NCOLS];
    for (size_t i = 0; i < LEDGER_NCOLS; i++) cells[i] = row->cell[i] ? row->cell[i] : "";
    return join_cells(cells, len);
}

/* ---- reading ---- */

struct field {
    char *buf;
    size_t len, cap;
    bool quoted;
    bool skip; /* a column not kept (ledger_stream_keep): read past, not stored */
};

/* One record being read: n fields in use of the made ones, whose buffers
 * are kept from record to record (a field's malloc per cell was most of
 * the time of reading a big ledger). */
struct record {
    struct field *f;
    size_t n, made, cap;
    long line;
};

/* Append n bytes (a run of plain ones: the reader copies spans, not
 * bytes, which was most of the time of reading a big ledger). */
static int field_append(struct field *f, const char *p, size_t n)
{
    if (f->skip) return 0;
    if (f->len + n + 1 >= f->cap) {
        /* + 2: the test above is >=, so one byte more than the NUL */
        char *b = strbuf_grow(f->buf, &f->cap, f->len + n + 2, 1, SIZE_MAX);
        if (!b) return -1;
        f->buf = b;
    }
    memcpy(f->buf + f->len, p, n);
    f->len += n;
    f->buf[f->len] = '\0';
    return 0;
}

static int field_put(struct field *f, char c)
{
    return field_append(f, &c, 1);
}

static int record_new_field(struct record *r)
{
    if (r->n == r->made) {
        if (r->made == r->cap) {
            struct field *f = strbuf_grow(r->f, &r->cap, r->made + 1, sizeof *f, SIZE_MAX);
            if (!f) return -1;
            r->f = f;
        }
        memset(&r->f[r->made++], 0, sizeof r->f[0]);
    }
    struct field *f = &r->f[r->n++];
    f->len = 0;
    f->quoted = f->skip = false;
    if (f->buf) f->buf[0] = '\0';
    return 0;
}

static void record_clear(struct record *r)
{
    r->n = 0;
}

static void record_release(struct record *r)
{
    for (size_t i = 0; i < r->made; i++) free(r->f[i].buf);
    free(r->f);
    memset(r, 0, sizeof *r);
}

/* A field as a string: unquoted ones trimmed; a neutralised formula
 * ('=...) gets its guard removed. Returns a pointer into f (or ""). */
static const char *field_value(struct field *f, size_t *len)
{
    const char *s = f->buf ? f->buf : "";
    size_t n = f->len;
    if (!f->quoted) {
        while (n && isspace((unsigned char)*s)) s++, n--;
        while (n && isspace((unsigned char)s[n - 1])) n--;
    }
    if (n >= 2 && s[0] == '\'' && strchr("=+-@\t\r'", s[1])) s++, n--;
    *len = n;
    return s;
}

static char detect_delimiter(const char *text, size_t len)
{
    size_t comma = 0, semi = 0, tab = 0;
    bool q = false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '"') q = !q;
        if (!q && (c == '\n' || c == '\r')) break;
        if (q) continue;
        comma += c == ',';
        semi += c == ';';
        tab += c == '\t';
    }
    if (comma >= semi && comma >= tab) return ',';
    return semi >= tab ? ';' : '\t';
}

/* Excel's "sep=;" first line names the delimiter: its length (with the
 * line break) and the delimiter, or 0 when the text has none. */
static size_t sep_line(const char *text, size_t len, char *delim)
{
    if (len < 5 || strncasecmp(text, "sep=", 4) || text[4] == '\n' || text[4] == '\r') return 0;
    size_t i = 5;
    if (i < len && text[i] == '\r') i++;
    if (i < len && text[i] == '\n') i++;
    if (i < len && i == 5) return 0; /* "sep=;x": not the directive */
    *delim = text[4];
    return i;
}

/* The delimiter, and how many bytes of a sep= line to skip. */
static char file_delimiter(const char *text, size_t len, size_t *skip)
{
    char d;
    *skip = sep_line(text, len, &d);
    return *skip ? d : detect_delimiter(text, len);
}

struct reader {
    struct ledger *lg;
    int map[LEDGER_MAX_FILE_COLS]; /* file column -> ledger column (-1 ignored) */
    size_t ncols_mapped;
    bool have_header;
    const char *name;
    ledger_row_fn fn; /* NULL: rows are kept in lg */
    void *ctx;
    bool some;                 /* only the columns in keep[] are made */
    bool keep[LEDGER_NCOLS];
    size_t kept_end;           /* with some: 1 + the last file column kept */
};

/* Is file column i made into a cell? Before the header is known, every
 * field is (the header and the guide check read them). */
static bool column_kept(const struct reader *rd, size_t i)
{
    if (!rd->have_header || !rd->some) return true;
    return i < rd->ncols_mapped && rd->map[i] >= 0 && rd->keep[rd->map[i]];
}

/* The header is known (or the guide's order taken): where kept columns end. */
static void reader_mapped(struct reader *rd)
{
    rd->have_header = true;
    rd->kept_end = 0;
    for (size_t i = 0; i < rd->ncols_mapped; i++)
        if (column_kept(rd, i)) rd->kept_end = i + 1;
}

static bool record_blank(const struct record *r)
{
    for (size_t i = 0; i < r->n; i++) {
        size_t n;
        field_value(&r->f[i], &n);
        if (n) return false;
    }
    return true;
}

static void take_header(struct reader *rd, struct record *r)
{
    for (size_t i = 0; i < r->n && i < LEDGER_MAX_FILE_COLS; i++) {
        size_t n;
        const char *v = field_value(&r->f[i], &n);
        rd->map[i] = ledger_col_lookup(v, n);
        rd->lg->columns[i] = rd->map[i];
    }
    rd->ncols_mapped = r->n < LEDGER_MAX_FILE_COLS ? r->n : LEDGER_MAX_FILE_COLS;
    rd->lg->n_columns = rd->ncols_mapped;
    reader_mapped(rd);
}

static bool is_header(const struct record *r)
{
    for (size_t i = 0; i < r->n; i++) {
        size_t n;
        const char *v = field_value(&r->f[i], &n);
        if (ledger_col_lookup(v, n) == LEDGER_RUN_ID) return true;
    }
    return false;
}

static int take_row(struct reader *rd, struct record *r)
{
    struct ledger *lg = rd->lg;
    if (lg->n == lg->cap) {
        struct ledger_row *rows =
            strbuf_grow(lg->rows, &lg->cap, lg->n + 1, sizeof *rows, SIZE_MAX);
        if (!rows) return -1;
        lg->rows = rows;
    }
    struct ledger_row *row = &lg->rows[lg->n];
    ledger_row_init(row);
    row->line = r->line;
    row->unrecorded = LEDGER_NCOLS >= 64 ? UINT64_MAX : (UINT64_C(1) << LEDGER_NCOLS) - 1;
    /* a column of the header past the row's last field (a row written
     * before `sed` added the column to the header) was not recorded either */
    for (size_t i = 0; i < rd->ncols_mapped && i < r->n; i++)
        if (rd->map[i] >= 0) row->unrecorded &= ~(UINT64_C(1) << rd->map[i]);
    size_t total = 0, used = 0, n;
    for (size_t i = 0; i < r->n && i < rd->ncols_mapped; i++)
        if (rd->map[i] >= 0 && column_kept(rd, i) && (field_value(&r->f[i], &n), n)) total += n + 1;
    if (total && !(row->block = malloc(total))) return -1;
    for (size_t i = 0; i < r->n && i < rd->ncols_mapped; i++) {
        if (rd->map[i] < 0 || !column_kept(rd, i)) continue;
        const char *v = field_value(&r->f[i], &n);
        if (!n) {
            row->cell[rd->map[i]] = empty_cell;
            continue;
        }
        memcpy(row->block + used, v, n);
        row->block[used + n] = '\0';
        row->cell[rd->map[i]] = row->block + used;
        used += n + 1;
    }
    lg->n++;
    return 0;
}

/* Without a run_id header a ledger is the guide's table in its order: its
 * batch and sequence cells numbers (or empty), its oom cell a flag (or
 * empty). A file whose first record is not (JSON, a log, a CSV with other
 * columns) is no ledger; reading it as one would print junk rows, and
 * `run` would append to it. The column that says so, or -1. */
static double text_number(const char *s);
static int text_flag(const char *s);

static int not_guide_row(const struct record *r)
{
    static const struct {
        enum ledger_col col;
        bool flag; /* else a number */
    } expect[] = {{LEDGER_DEVICE_BATCH_SIZE, false}, {LEDGER_MAX_SEQ_LEN, false}, {LEDGER_OOM, true}};
    if (r->n < 2 || r->n > LEDGER_NCOLS + 8) return LEDGER_NCOLS; /* "{", a list; a JSON line's keys */
    for (size_t k = 0; k < sizeof expect / sizeof expect[0]; k++) {
        size_t n, c = expect[k].col;
        if (c >= r->n) continue;
        const char *v = field_value(&r->f[c], &n);
        char cell[32];
        if (!n) continue;
        if (n >= sizeof cell) return (int)c;
        memcpy(cell, v, n);
        cell[n] = '\0';
        if (expect[k].flag ? text_flag(cell) < 0 : isnan(text_number(cell))) return (int)c;
    }
    return -1;
}

/* The refusal, quoting the cell that says so (printable ASCII, cut). */
static int refuse_not_ledger(struct reader *rd, const struct record *r, int col, struct oomlab_err *err)
{
    static const char what[] = "runs.csv is written by 'oomlab run': move this file aside, or give --dir";
    if (col >= LEDGER_NCOLS)
        return oomlab_err_at(err, rd->name, r->line, 1,
                             "not an oomlab ledger (no run_id header, and %zu column%s where the guide's table has %d); %s",
                             r->n, r->n == 1 ? "" : "s", LEDGER_GUIDE_NCOLS, what);
    size_t n;
    const char *v = field_value(&r->f[col], &n);
    char shown[28];
    size_t k = 0;
    for (; k < n && k + 1 < sizeof shown; k++) shown[k] = v[k] >= 0x20 && v[k] < 0x7F ? v[k] : '?';
    shown[k] = '\0';
    return oomlab_err_at(err, rd->name, r->line, 1,
                         "not an oomlab ledger (no run_id header, and the guide's column %s would be '%s%s'); %s",
                         ledger_col_name((enum ledger_col)col), shown, k < n ? "..." : "", what);
}

/* A row made: kept in lg->rows, or handed to the stream's visitor and
 * released (a ledger read in pieces never holds more than this row). */
static int hand_on(struct reader *rd, struct oomlab_err *err)
{
    if (!rd->fn) return 0;
    struct ledger_row *row = &rd->lg->rows[--rd->lg->n];
    int rc = rd->fn(row, rd->ctx, err);
    ledger_row_release(row);
    return rc;
}

static int end_record(struct reader *rd, struct record *r, struct oomlab_err *err)
{
    int rc = 0;
    if (r->n && !record_blank(r)) {
        if (!rd->have_header && is_header(r)) {
            take_header(rd, r);
        } else {
            int bad = rd->have_header ? -1 : not_guide_row(r);
            if (bad >= 0) {
                rc = refuse_not_ledger(rd, r, bad, err);
                record_clear(r);
                return rc;
            }
            if (!rd->have_header) { /* headerless: the guide's order */
                for (size_t i = 0; i < LEDGER_MAX_FILE_COLS; i++)
                    rd->map[i] = i < LEDGER_NCOLS ? (int)i : -1;
                rd->ncols_mapped = LEDGER_MAX_FILE_COLS;
                reader_mapped(rd);
            }
            rc = take_row(rd, r) < 0 ? oomlab_err_set(err, "%s: out of memory", rd->name) : hand_on(rd, err);
        }
    }
    record_clear(r);
    return rc;
}

#define LEDGER_NUL_MSG \
    "binary data (a NUL byte): not a CSV ledger (zeros left by a crash? cut the file before this line"

/* The NUL message with the command that cuts the file there: line_at is
 * the byte offset where the NUL's line starts (the rows before it kept). */
static int nul_error(struct oomlab_err *err, const char *name, long line, long col, unsigned long long line_at)
{
    return oomlab_err_at(err, name, line, col, "%s: truncate -s %llu %s)", LEDGER_NUL_MSG, line_at, name);
}

/* The reader's whole state between pieces: a "" or a CRLF split by a
 * piece's end waits in quote_pending / cr_pending for the next byte. */
struct ledger_stream {
    struct ledger lg;
    struct reader rd;
    struct record r;
    char delim;
    bool started, in_quotes, at_field_start, quote_pending, cr_pending, cr_first;
    long line, first_line;
    long nl_lines;          /* physical lines ('\n') before this piece, for a NUL's place */
    long long col0;         /* bytes of the current physical line before this piece */
    unsigned long long bytes0; /* bytes of the file before this piece */
    unsigned char stop[256]; /* STOP_* per byte (stops_init) */
    size_t beyond;          /* fields of this record past the kept ones: read into sink */
    struct field sink;      /* skip: what they hold is not stored */
    char *head;             /* the first record until it is whole (stream_head) */
    size_t head_len, head_cap;
};

struct ledger_stream *ledger_stream_new(const char *name, ledger_row_fn fn, void *ctx)
{
    struct ledger_stream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->rd = (struct reader){.lg = &s->lg, .name = name ? name : "runs.csv", .fn = fn, .ctx = ctx};
    s->sink.skip = true;
    s->at_field_start = true;
    s->nl_lines = 1;
    return s;
}

const struct ledger *ledger_stream_layout(const struct ledger_stream *s)
{
    return &s->lg;
}

void ledger_stream_keep(struct ledger_stream *s, const enum ledger_col *cols, size_t n)
{
    s->rd.some = true;
    for (size_t i = 0; i < n; i++)
        if ((size_t)cols[i] < LEDGER_NCOLS) s->rd.keep[cols[i]] = true;
}

void ledger_stream_free(struct ledger_stream *s)
{
    if (!s) return;
    free(s->head);
    record_release(&s->r);
    ledger_release(&s->lg);
    free(s);
}

/* A NUL byte anywhere makes the file no ledger: its line and column. */
static int check_nul(struct ledger_stream *s, const char *text, size_t len, struct oomlab_err *err)
{
    const char *nul = memchr(text, '\0', len), *last_nl = NULL;
    long lines = s->nl_lines;
    for (const char *p = text, *end = nul ? nul : text + len; (p = memchr(p, '\n', (size_t)(end - p)));)
        lines++, last_nl = p++;
    if (nul) {
        long long col = last_nl ? nul - last_nl : s->col0 + (nul - text) + 1;
        unsigned long long at = s->bytes0 + (unsigned long long)(nul - text) - (unsigned long long)(col - 1);
        return nul_error(err, s->rd.name, lines, (long)col, at);
    }
    s->bytes0 += len;
    s->nl_lines = lines;
    s->col0 = last_nl ? (text + len) - (last_nl + 1) : s->col0 + (long long)len;
    return 0;
}

/* The bytes that end a plain run: outside quotes the delimiter, a quote
 * and line breaks; inside, a quote and '\n' (counted for line numbers). */
enum { STOP_UNQUOTED = 1, STOP_QUOTED = 2 };

static void stops_init(struct ledger_stream *s)
{
    memset(s->stop, 0, sizeof s->stop);
    s->stop[(unsigned char)s->delim] |= STOP_UNQUOTED;
    s->stop['\r'] |= STOP_UNQUOTED;
    s->stop['"'] |= STOP_UNQUOTED | STOP_QUOTED;
    s->stop['\n'] |= STOP_UNQUOTED | STOP_QUOTED;
}

/* The first piece: a BOM, Excel's sep= line, the delimiter. */
static void stream_start(struct ledger_stream *s, const char **text, size_t *len)
{
    size_t skip;
    if (*len >= 3 && !memcmp(*text, "\xEF\xBB\xBF", 3)) *text += 3, *len -= 3;
    s->delim = s->lg.delimiter = file_delimiter(*text, *len, &skip);
    stops_init(s);
    s->line = s->first_line = skip ? 2 : 1;
    *text += skip, *len -= skip;
    s->r.line = s->line;
    s->started = true;
}

static int stream_end_line(struct ledger_stream *s, struct oomlab_err *err)
{
    s->line++;
    s->beyond = 0;
    int rc = end_record(&s->rd, &s->r, err);
    s->r.line = s->line;
    s->at_field_start = true;
    return rc;
}

static int stream_bytes(struct ledger_stream *s, const char *text, size_t len, struct oomlab_err *err);

static int stream_new_field(struct ledger_stream *s)
{
    if (s->rd.some && s->rd.have_header && s->r.n >= s->rd.kept_end && s->r.n) { /* not made at all */
        s->beyond++;
        return 0;
    }
    if (record_new_field(&s->r) < 0) return -1;
    s->r.f[s->r.n - 1].skip = !column_kept(&s->rd, s->r.n - 1);
    return 0;
}

/* How many bytes from text are plain: its first (the caller's) and those
 * after it up to a stop byte of kind. At least 1. */
static size_t plain_run(const struct ledger_stream *s, const char *text, size_t len, unsigned char kind)
{
    size_t j = 1;
    while (j < len && !(s->stop[(unsigned char)text[j]] & kind)) j++;
    return j;
}

/* Does the first record end within text (a line break outside quotes, as
 * detect_delimiter reads it)? */
static bool first_record_ends(const char *text, size_t len)
{
    bool q = false;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '"') q = !q;
        else if (!q && (text[i] == '\n' || text[i] == '\r')) return true;
    }
    return false;
}

/* The first record is held until it is whole (the delimiter, a BOM and a
 * sep= line are read from it), then parsed with what came with it. */
static int stream_head(struct ledger_stream *s, const char *text, size_t len, bool last, struct oomlab_err *err)
{
    if (s->head_len + len + 1 > s->head_cap) {
        char *h = len > SIZE_MAX - 1 - s->head_len
                      ? NULL
                      : strbuf_grow(s->head, &s->head_cap, s->head_len + len + 1, 1, SIZE_MAX);
        if (!h) return oomlab_err_set(err, "%s: out of memory", s->rd.name);
        s->head = h;
    }
    memcpy(s->head + s->head_len, text, len);
    s->head_len += len;
    /* the encoding is told from the file's first TEXTENC_SNIFF bytes (all of
     * a shorter one), however the pieces cut them: one piece of 1 byte
     * hid a UTF-16 BOM, a short one decided by its own NULs */
    if (!last && (s->head_len < TEXTENC_SNIFF || !first_record_ends(s->head, s->head_len))) return 0;
    char wide[512]; /* a spreadsheet's "Unicode Text" save: UTF-16, not a crash's zeros */
    if (textenc_wide_message(s->head, s->head_len, s->rd.name, "a ledger", wide, sizeof wide))
        return oomlab_err_set(err, "%s: %s", s->rd.name, wide);
    if (check_nul(s, s->head, s->head_len, err) < 0) return -1;
    const char *h = s->head;
    size_t hl = s->head_len;
    stream_start(s, &h, &hl);
    int rc = stream_bytes(s, h, hl, err);
    free(s->head);
    s->head = NULL, s->head_len = s->head_cap = 0;
    return rc;
}

int ledger_stream_feed(struct ledger_stream *s, const char *text, size_t len, struct oomlab_err *err)
{
    if (!s->started) return stream_head(s, text, len, false, err); /* NULs checked there */
    if (check_nul(s, text, len, err) < 0) return -1;
    return stream_bytes(s, text, len, err);
}

static int stream_bytes(struct ledger_stream *s, const char *text, size_t len, struct oomlab_err *err)
{
    size_t i = 0;
    if (len && s->cr_pending && text[0] == '\n') {
        s->lg.crlf = s->lg.crlf || s->cr_first;
        i++;
    }
    if (len) s->cr_pending = false;
    if (len && s->quote_pending) {
        s->quote_pending = false;
        if (text[0] == '"') {
            if (field_put(s->beyond ? &s->sink : &s->r.f[s->r.n - 1], '"') < 0) goto nomem;
            i++;
        } else {
            s->in_quotes = false;
        }
    }
    for (; i < len; i++) {
        char c = text[i];
        if (s->r.n == 0 && stream_new_field(s) < 0) goto nomem;
        struct field *f = s->beyond ? &s->sink : &s->r.f[s->r.n - 1];
        if (s->in_quotes && c != '"' && c != '\n') { /* a quoted run: as it is */
            size_t n = plain_run(s, text + i, len - i, STOP_QUOTED);
            if (field_append(f, text + i, n) < 0) goto nomem;
            i += n - 1;
            continue;
        }
        if (s->in_quotes) {
            if (c == '"' && i + 1 == len) {
                s->quote_pending = true;
            } else if (c == '"' && text[i + 1] == '"') {
                i++;
                if (field_put(f, '"') < 0) goto nomem;
            } else if (c == '"') {
                s->in_quotes = false;
            } else {
                if (c == '\n') s->line++;
                if (field_put(f, c) < 0) goto nomem;
            }
            continue;
        }
        if (c == '"' && s->at_field_start) { /* blanks before an opening quote drop */
            f->len = 0;
            s->in_quotes = f->quoted = true;
            s->at_field_start = false;
        } else if (c == s->delim) {
            if (stream_new_field(s) < 0) goto nomem;
            s->at_field_start = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 == len) {
                s->cr_pending = true;
                s->cr_first = s->line == s->first_line;
            } else if (c == '\r' && text[i + 1] == '\n') {
                if (s->line == s->first_line) s->lg.crlf = true;
                i++;
            }
            if (stream_end_line(s, err) < 0) return -1;
        } else { /* a plain run; a quote inside a field is a byte like any */
            size_t n = c == '"' ? 1 : plain_run(s, text + i, len - i, STOP_UNQUOTED);
            for (size_t k = 0; k < n && s->at_field_start; k++) s->at_field_start = text[i + k] == ' ';
            if (field_append(f, text + i, n) < 0) goto nomem;
            i += n - 1;
        }
    }
    return 0;
nomem:
    return oomlab_err_set(err, "%s: out of memory", s->rd.name);
}

int ledger_stream_end(struct ledger_stream *s, struct oomlab_err *err)
{
    if (!s->started && stream_head(s, "", 0, true, err) < 0) return -1;
    s->quote_pending = s->cr_pending = false;
    return end_record(&s->rd, &s->r, err);
}

int ledger_parse(struct ledger *lg, const char *text, size_t len, const char *name,
                 struct oomlab_err *err)
{
    memset(lg, 0, sizeof *lg);
    struct ledger_stream *s = ledger_stream_new(name, NULL, NULL);
    if (!s) return oomlab_err_set(err, "%s: out of memory", name ? name : "runs.csv");
    int rc = ledger_stream_feed(s, text, len, err) < 0 ? -1 : ledger_stream_end(s, err);
    if (rc == 0) *lg = s->lg, memset(&s->lg, 0, sizeof s->lg);
    ledger_stream_free(s);
    return rc;
}

void ledger_release(struct ledger *lg)
{
    free(lg->prev_oom);
    free(lg->rank_at);
    for (size_t i = 0; i < lg->n; i++) ledger_row_release(&lg->rows[i]);
    free(lg->rows);
    for (size_t i = 0; i < lg->n_detail; i++) ledger_row_release(&lg->detail[i]);
    free(lg->detail);
    memset(lg, 0, sizeof *lg);
}

void ledger_tail_init(struct ledger_tail *t, const char *head, size_t len)
{
    size_t skip;
    memset(t, 0, sizeof *t);
    t->delim = len ? file_delimiter(head, len, &skip) : ',';
    t->start = true;
    t->line = 1;
}

/* The first NUL byte's line and column (ledger_parse's numbers), counting
 * newlines only until one is found. */
static void tail_note_nul(struct ledger_tail *t, const char *text, size_t len)
{
    const char *nul = memchr(text, '\0', len), *end = nul ? nul : text + len, *line = text;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(end - p))); line = ++p) t->line++, t->col = 0;
    t->col += end - line;
    if (nul) t->nul_line = t->line, t->nul_col = t->col + 1, t->nul_line_at = t->bytes + (unsigned long long)(nul - text) - (unsigned long long)t->col;
}

/* The reader's own quote rule: only a quote at a field's start opens; a
 * doubled quote inside is one quote (closed, then reopened at once).
 * Between quotes only the last non-blank byte matters (is the next quote
 * at a field's start?), so the scan jumps from quote to quote. */
void ledger_tail_feed(struct ledger_tail *t, const char *text, size_t len)
{
    if (len == 0) return;
    if (!t->nul_line) tail_note_nul(t, text, len);
    size_t i = 0;
    while (i < len) {
        if (t->q) {
            const char *p = memchr(text + i, '"', len - i);
            if (!p) break;
            i = (size_t)(p - text) + 1;
            t->q = false, t->closed = true;
            continue;
        }
        if (t->closed) {
            t->closed = false;
            if (text[i] == '"') { /* "" inside a quoted field */
                t->q = true;
                i++;
                continue;
            }
        }
        const char *p = memchr(text + i, '"', len - i);
        size_t stop = p ? (size_t)(p - text) : len;
        for (size_t k = stop; k > i; k--) {
            char c = text[k - 1];
            if (c == ' ') continue;
            t->start = c == t->delim || c == '\n' || c == '\r';
            break;
        }
        if (!p) break;
        t->q = t->start; /* a quote opens only at a field's start; any other is a byte of it */
        t->start = false;
        i = stop + 1;
    }
    t->last = text[len - 1];
    t->bytes += len;
}

const char *ledger_tail_end(const struct ledger_tail *t)
{
    if (t->bytes == 0) return "";
    if (t->q) return "\"\n";
    return t->last == '\n' || t->last == '\r' ? "" : "\n";
}

int ledger_tail_check(const struct ledger_tail *t, const char *name, struct oomlab_err *err)
{
    if (!t->nul_line) return 0;
    return nul_error(err, name ? name : "runs.csv", t->nul_line, t->nul_col, t->nul_line_at);
}

const char *ledger_tail_repair(const char *text, size_t len)
{
    struct ledger_tail t;
    ledger_tail_init(&t, text, len);
    ledger_tail_feed(&t, text, len);
    return ledger_tail_end(&t);
}

size_t ledger_layout_len(const char *text, size_t len)
{
    struct ledger_tail t;
    ledger_tail_init(&t, text, len);
    int records = 0;
    for (size_t i = 0; i < len; i++) {
        if (!text[i]) return i;
        ledger_tail_feed(&t, text + i, 1);
        if (text[i] == '\n' && !t.q && ++records == 2) return i + 1;
    }
    return len;
}

const struct ledger_row *ledger_find(const struct ledger *lg, const char *id)
{
    for (size_t i = lg->n; i-- > 0;)
        if (!strcmp(lg->rows[i].cell[LEDGER_RUN_ID], id)) return &lg->rows[i];
    return NULL;
}

long ledger_max_run_number(const struct ledger *lg)
{
    long best = 0;
    for (size_t i = 0; i < lg->n; i++) {
        const char *id = lg->rows[i].cell[LEDGER_RUN_ID];
        if (strncmp(id, "run", 3) || !isdigit((unsigned char)id[3])) continue;
        char *end;
        long v = strtol(id + 3, &end, 10);
        if (*end == '\0' && v > best && v < 100000000) best = v;
    }
    return best;
}

/* ---- typed reads ---- */

/* A cell's text as a number (NaN when empty or not one) or a flag (1, 0,
 * -1 unknown): ledger_num and ledger_flag, and the headerless check. */
static double text_number(const char *s)
{
    while (isspace((unsigned char)*s)) s++;
    if (!*s) return NAN;
    char buf[64];
    const char *comma = strchr(s, ',');
    if (comma && !strchr(s, '.') && strlen(s) < sizeof buf) { /* "20,5" from a spreadsheet */
        memcpy(buf, s, strlen(s) + 1);
        buf[comma - s] = '.';
        s = buf;
    }
    char *end;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end)) end++;
    if (*end || end == s || !isfinite(v)) return NAN;
    return v;
}

static int text_flag(const char *s)
{
    static const char *const yes[] = {"yes", "true", "1", "y", "on"};
    static const char *const no[] = {"no", "false", "0", "n", "off"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (!strcasecmp(s, yes[i])) return 1;
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (!strcasecmp(s, no[i])) return 0;
    return -1;
}

double ledger_num(const struct ledger_row *row, enum ledger_col col)
{
    return text_number((unsigned)col < LEDGER_NCOLS && row->cell[col] ? row->cell[col] : "");
}

int ledger_flag(const struct ledger_row *row, enum ledger_col col)
{
    return text_flag((unsigned)col < LEDGER_NCOLS && row->cell[col] ? row->cell[col] : "");
}

const char *ledger_figure_text(double v, int decimals, char *buf, size_t size)
{
    if (fabs(v) < 1e9) snprintf(buf, size, "%.*f", decimals, v);
    else snprintf(buf, size, "%.3g", v);
    return buf;
}

double ledger_peak_gb(const struct ledger_row *row)
{
    double r = ledger_num(row, LEDGER_PEAK_RESERVED_GB);
    return isnan(r) ? ledger_num(row, LEDGER_PEAK_ALLOC_GB) : r;
}

double ledger_pct_capacity(const struct ledger_row *row)
{
    double pct = ledger_num(row, LEDGER_PEAK_PCT_CAPACITY);
    if (!isnan(pct)) return pct;
    double peak = ledger_peak_gb(row), cap = ledger_num(row, LEDGER_CAPACITY_GB);
    if (isnan(peak) || isnan(cap) || cap <= 0) return NAN;
    return 100.0 * peak / cap;
}

double ledger_effective_batch(const struct ledger_row *row)
{
    double e = ledger_num(row, LEDGER_EFFECTIVE_BATCH);
    if (!isnan(e)) return e;
    double b = ledger_num(row, LEDGER_DEVICE_BATCH_SIZE), g = ledger_num(row, LEDGER_GRAD_ACCUM);
    return isnan(b) || b < 1 ? NAN : b * (isnan(g) || g < 1 ? 1 : g);
}

/* ---- on the edge ---- */

static bool fits(const struct ledger_row *row)
{
    return ledger_flag(row, LEDGER_OOM) == 0;
}

static bool near_capacity(const struct ledger *lg, size_t i, double near_pct)
{
    double pct = ledger_pct_capacity(&lg->rows[i]);
    return fits(&lg->rows[i]) && !isnan(pct) && pct >= near_pct;
}

static bool prepared(const struct ledger *lg)
{
    return (lg->prev_oom || lg->rank_at) && lg->prepared_rows == lg->rows && lg->prepared_n == lg->n &&
           lg->prepared_n_detail == lg->n_detail;
}

/* Rows moved or went: ledger_prepare_reads's index no longer holds. */
static void unprepare(struct ledger *lg)
{
    free(lg->prev_oom);
    free(lg->rank_at);
    lg->prev_oom = lg->rank_at = NULL;
}

/* The failing run a fix was meant for: the nearest earlier OOM row. */
static bool peak_not_lower(const struct ledger *lg, size_t i, double near_pct)
{
    (void)near_pct;
    const struct ledger_row *row = &lg->rows[i];
    double peak = ledger_peak_gb(row);
    if (!fits(row) || isnan(peak)) return false;
    if (prepared(lg) && lg->prev_oom) {
        double failed = lg->prev_oom[i] < 0 ? NAN : ledger_peak_gb(&lg->rows[lg->prev_oom[i]]);
        return !isnan(failed) && peak >= failed;
    }
    for (size_t j = i; j-- > 0;) {
        if (ledger_flag(&lg->rows[j], LEDGER_OOM) != 1) continue;
        double failed = ledger_peak_gb(&lg->rows[j]);
        return !isnan(failed) && peak >= failed;
    }
    return false;
}

int ledger_prepare_reads(struct ledger *lg)
{
    free(lg->prev_oom);
    free(lg->rank_at);
    lg->rank_at = NULL;
    lg->prev_oom = malloc((lg->n ? lg->n : 1) * sizeof *lg->prev_oom);
    if (!lg->prev_oom) return -1;
    long last = -1;
    for (size_t i = 0; i < lg->n; i++) {
        lg->prev_oom[i] = last;
        if (ledger_flag(&lg->rows[i], LEDGER_OOM) == 1) last = (long)i;
    }
    /* fold_ranks appends each job's rank rows in the order of the rows */
    size_t c = 0;
    if ((lg->rank_at = malloc((lg->n ? lg->n : 1) * sizeof *lg->rank_at))) {
        for (size_t i = 0; i < lg->n; i++) {
            const char *id = lg->rows[i].cell[LEDGER_RUN_ID];
            lg->rank_at[i] = -1;
            if (c < lg->n_detail && *id && !strcmp(lg->detail[c].cell[LEDGER_RUN_ID], id)) {
                lg->rank_at[i] = (long)c;
                while (c < lg->n_detail && !strcmp(lg->detail[c].cell[LEDGER_RUN_ID], id)) c++;
            }
        }
        if (c != lg->n_detail) free(lg->rank_at), lg->rank_at = NULL;
    }
    lg->prepared_rows = lg->rows;
    lg->prepared_n = lg->n;
    lg->prepared_n_detail = lg->n_detail;
    return 0;
}

const struct ledger_edge_rule ledger_edge_rules[] = {
    {"near-capacity", "no OOM, but the peak is at or above the threshold of the card's capacity",
     near_capacity},
    {"peak-not-lower", "no OOM, but the peak is no lower than the failing run before it: "
                       "another batch may break it",
     peak_not_lower},
};
const size_t ledger_n_edge_rules = sizeof ledger_edge_rules / sizeof ledger_edge_rules[0];

unsigned ledger_edges(const struct ledger *lg, size_t i, double near_pct)
{
    unsigned bits = 0;
    if (i >= lg->n) return 0;
    for (size_t k = 0; k < ledger_n_edge_rules; k++)
        if (ledger_edge_rules[k].applies(lg, i, near_pct)) bits |= 1u << k;
    return bits;
}

/* ---- one-variable rule ---- */

static bool same_value(const struct ledger_row *a, const struct ledger_row *b, enum ledger_col c)
{
    const char *x = a->cell[c], *y = b->cell[c];
    if (c == LEDGER_DTYPE)
        return !strcasecmp(ledger_dtype_canonical(x), ledger_dtype_canonical(y));
    if (c == LEDGER_GRAD_CKPT) {
        int fx = ledger_flag(a, c), fy = ledger_flag(b, c);
        if (fx >= 0 || fy >= 0) return fx == fy;
    }
    double nx = ledger_num(a, c), ny = ledger_num(b, c);
    if (!isnan(nx) && !isnan(ny)) return nx == ny;
    return !strcmp(x, y);
}

size_t ledger_changed(const struct ledger_row *a, const struct ledger_row *b,
                      enum ledger_col *out, size_t max)
{
    static const enum ledger_col vars[] = {LEDGER_DEVICE_BATCH_SIZE, LEDGER_MAX_SEQ_LEN,
                                           LEDGER_DTYPE, LEDGER_GRAD_ACCUM, LEDGER_GRAD_CKPT};
    size_t n = 0;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        if (same_value(a, b, vars[i])) continue;
        if (n < max) out[n] = vars[i];
        n++;
    }
    return n;
}

/* ---- what changed in the command ---- */

#define CUT_MARK "[...]" /* ends a change cut to fit */

/* Words split at spaces, walked in place: no copy and no limit on their
 * number (a fixed table of 256 once hid a change past its end). */
static const char *word_next(const char *s, size_t *len)
{
    while (*s == ' ') s++;
    *len = strcspn(s, " ");
    return s;
}

static size_t word_count(const char *s)
{
    size_t n = 0, len;
    for (s = word_next(s, &len); len; s = word_next(s + len, &len)) n++;
    return n;
}

/* The word that ends before *end (start at or after begin): its start,
 * *end moved to it; NULL when none is left. */
static const char *word_prev(const char *begin, const char **end, size_t *len)
{
    const char *e = *end;
    while (e > begin && e[-1] == ' ') e--;
    const char *w = e;
    while (w > begin && w[-1] != ' ') w--;
    *len = (size_t)(e - w);
    *end = w;
    return *len ? w : NULL;
}

/* n bytes of p onto out (size bytes, used so far), cut to fit: *used
 * then counts past size, so the caller sees the cut. */
static void put(char *out, size_t size, size_t *used, const char *p, size_t n)
{
    if (*used + 1 >= size) {
        *used += n;
        return;
    }
    if (n > size - 1 - *used) {
        memcpy(out + *used, p, size - 1 - *used);
        *used += n;
        out[size - 1] = '\0';
        return;
    }
    memcpy(out + *used, p, n);
    *used += n;
    out[*used] = '\0';
}

/* "... w[from..to) ..." onto out (s holds n words), the dots where words
 * were left out. */
static void span(char *out, size_t size, size_t *used, const char *s, size_t n, size_t from, size_t to)
{
    size_t start = *used, len;
    if (from > 0) put(out, size, used, "...", 3);
    const char *w = word_next(s, &len);
    for (size_t i = 0; i < from; i++) w = word_next(w + len, &len);
    for (size_t i = from; i < to; i++, w = word_next(w + len, &len)) {
        if (*used > start) put(out, size, used, " ", 1);
        put(out, size, used, w, len);
    }
    if (to < n) put(out, size, used, " ...", 4);
}

bool ledger_command_change(const char *a, const char *b, char *out, size_t size)
{
    size_t na = word_count(a), nb = word_count(b), shorter = na < nb ? na : nb, p = 0, s = 0, used = 0;
    size_t la, lb;
    for (const char *x = word_next(a, &la), *y = word_next(b, &lb);
         p < shorter && la == lb && !memcmp(x, y, la); x = word_next(x + la, &la), y = word_next(y + lb, &lb))
        p++;
    const char *ea = a + strlen(a), *eb = b + strlen(b);
    while (s < shorter - p) {
        const char *x = word_prev(a, &ea, &la), *y = word_prev(b, &eb, &lb);
        if (!x || !y || la != lb || memcmp(x, y, la)) break;
        s++;
    }
    if (size) out[0] = '\0';
    if (p == na && p == nb) return false;
    size_t from = p > 0 ? p - 1 : 0;
    span(out, size, &used, a, na, from, na - s);
    put(out, size, &used, " -> ", 4);
    span(out, size, &used, b, nb, from, nb - s);
    if (used >= size && size > sizeof CUT_MARK) { /* cut: said so, on a character's first byte */
        size_t at = size - sizeof CUT_MARK;
        while (at > 0 && ((unsigned char)out[at] & 0xC0) == 0x80) at--;
        memcpy(out + at, CUT_MARK, sizeof CUT_MARK);
    }
    return true;
}

/* ---- one row per run ---- */

bool ledger_is_running(const struct ledger_row *row)
{
    return strcmp(row->cell[LEDGER_EXIT_STATUS], LEDGER_RUNNING) == 0;
}

static uint64_t id_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Open addressing over key strings: slot -> index+1 into keys (0 empty). */
struct key_index {
    size_t *slot, cap;
    char *const *keys;
};

static int key_index_init(struct key_index *ix, size_t n, char *const *keys)
{
    ix->cap = 16;
    while (ix->cap < 2 * n) ix->cap *= 2;
    ix->keys = keys;
    ix->slot = calloc(ix->cap, sizeof *ix->slot);
    return ix->slot ? 0 : -1;
}

static size_t *key_lookup(struct key_index *ix, const char *key)
{
    size_t i = (size_t)id_hash(key) & (ix->cap - 1);
    while (ix->slot[i] && strcmp(ix->keys[ix->slot[i] - 1], key)) i = (i + 1) & (ix->cap - 1);
    return &ix->slot[i];
}

/* Which run of its id a row belongs to: a rank row's job id (the job's
 * ranks are one run), else its oomlab's start, host and pid (one `oomlab
 * run` and the rank rows it wrote; a plain run's job id, an sbatch
 * script's, may hold several runs of one id, --force). */
static void run_group(const struct ledger_row *r, struct strbuf *sb)
{
    if (*r->cell[LEDGER_JOB_ID] && *r->cell[LEDGER_RANK]) {
        strbuf_adds(sb, "j");
        strbuf_adds(sb, r->cell[LEDGER_JOB_ID]);
        return;
    }
    strbuf_adds(sb, "o");
    strbuf_adds(sb, r->cell[LEDGER_STARTED_AT]);
    strbuf_adds(sb, "\x1f");
    strbuf_adds(sb, r->cell[LEDGER_HOST]);
    strbuf_adds(sb, "\x1f");
    strbuf_adds(sb, r->cell[LEDGER_OOMLAB_PID]);
}

/* key: "id \x1f group \x1f rank \x1f restart" (kind 0), or "id" (kind 1),
 * or "id \x1f group" (kind 2); NULL for rows without an id, "" (static)
 * when out of memory. */
static char *row_key(const struct ledger_row *r, int kind)
{
    static char nomem[1];
    if (!r->cell[LEDGER_RUN_ID][0]) return NULL;
    struct strbuf sb = {0};
    strbuf_adds(&sb, r->cell[LEDGER_RUN_ID]);
    if (kind != 1) {
        strbuf_adds(&sb, "\x1f");
        run_group(r, &sb);
    }
    if (kind == 0) {
        strbuf_adds(&sb, "\x1f");
        strbuf_adds(&sb, r->cell[LEDGER_RANK]);
        strbuf_adds(&sb, "\x1f");
        strbuf_adds(&sb, r->cell[LEDGER_RESTART]);
    }
    if (sb.failed || !sb.s) {
        strbuf_release(&sb);
        return nomem;
    }
    char *fit = realloc(sb.s, sb.n + 1); /* one key per row: not strbuf's 256 bytes each */
    return fit ? fit : sb.s;
}

static char **row_keys(const struct ledger *lg, int kind)
{
    char **keys = calloc(lg->n ? lg->n : 1, sizeof *keys);
    for (size_t i = 0; keys && i < lg->n; i++) {
        keys[i] = row_key(&lg->rows[i], kind);
        if (keys[i] && !*keys[i]) { /* out of memory: the static "" */
            keys[i] = NULL;
            for (size_t k = 0; k < i; k++) free(keys[k]);
            free(keys);
            return NULL;
        }
    }
    return keys;
}

static void free_keys(char **keys, size_t n)
{
    for (size_t i = 0; keys && i < n; i++) free(keys[i]);
    free(keys);
}

static void compact(struct ledger *lg, const bool *dropped)
{
    unprepare(lg);
    size_t n = 0;
    for (size_t i = 0; i < lg->n; i++) {
        if (dropped[i]) ledger_row_release(&lg->rows[i]);
        else lg->rows[n++] = lg->rows[i];
    }
    lg->n = n;
}

/* The last row per key wins; a final row takes its placeholder's place. */
static int keep_last_per_key(struct ledger *lg, struct oomlab_err *err)
{
    char **keys = row_keys(lg, 0);
    size_t n0 = lg->n;
    struct key_index ix;
    bool *dropped = calloc(lg->n ? lg->n : 1, sizeof *dropped);
    if (!keys || !dropped || key_index_init(&ix, lg->n, keys) < 0) {
        free_keys(keys, lg->n);
        free(dropped);
        return oomlab_err_set(err, "out of memory");
    }
    for (size_t i = 0; i < lg->n; i++) {
        if (!keys[i]) continue; /* no id: every such row is its own */
        size_t *at = key_lookup(&ix, keys[i]);
        if (!*at) {
            *at = i + 1;
            continue;
        }
        size_t j = *at - 1;
        if (ledger_is_running(&lg->rows[j])) {
            struct ledger_row tmp = lg->rows[j];
            lg->rows[j] = lg->rows[i];
            lg->rows[i] = tmp;
            char *k = keys[j];
            keys[j] = keys[i];
            keys[i] = k;
            dropped[i] = true;
        } else {
            dropped[j] = true;
            *at = i + 1;
        }
    }
    compact(lg, dropped);
    free(ix.slot);
    free_keys(keys, n0);
    free(dropped);
    return 0;
}

/* A newer run of the same id (another job, or a --force re-run) drops
 * every row of the older ones. */
static int keep_latest_run(struct ledger *lg, struct oomlab_err *err)
{
    char **ids = row_keys(lg, 1), **groups = row_keys(lg, 2);
    size_t n0 = lg->n;
    struct key_index ix;
    bool *dropped = calloc(lg->n ? lg->n : 1, sizeof *dropped);
    int rc = 0;
    if (!ids || !groups || !dropped || key_index_init(&ix, lg->n, ids) < 0) {
        rc = oomlab_err_set(err, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < lg->n; i++)
        if (ids[i]) *key_lookup(&ix, ids[i]) = i + 1; /* the last row of each id */
    for (size_t i = 0; i < lg->n; i++) {
        if (!ids[i]) continue;
        size_t j = *key_lookup(&ix, ids[i]) - 1;
        dropped[i] = strcmp(groups[i], groups[j]) != 0;
    }
    free(ix.slot);
    compact(lg, dropped);
out:
    free_keys(ids, n0);
    free_keys(groups, n0);
    free(dropped);
    return rc;
}

/* ---- ranks of one job ---- */

static long cell_long(const struct ledger_row *r, enum ledger_col c, long unknown)
{
    double v = ledger_num(r, c);
    return isnan(v) || v < 0 || v > 1e9 || v != floor(v) ? unknown : (long)v;
}

/* Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; NaN otherwise. */
static double iso_seconds(const char *s)
{
    int y, mo, d, h, mi, se;
    char z;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &se, &z) != 7 || z != 'Z' ||
        mo < 1 || mo > 12 || d < 1 || d > 31)
        return NAN;
    y -= mo <= 2; /* days from civil (H. Hinnant) */
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400, doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    long days = era * 146097 + doe - 719468;
    return (double)days * 86400.0 + h * 3600.0 + mi * 60.0 + se;
}

static double row_end(const struct ledger_row *r)
{
    double d = ledger_num(r, LEDGER_DURATION_S);
    return iso_seconds(r->cell[LEDGER_STARTED_AT]) + (isnan(d) ? 0 : d);
}

/* Whether rank row a failed before b. started_at has one-second
 * resolution, so ends less than a second apart are a tie; a tie goes to the
 * rank that ran out of GPU memory (the cause: the others' NCCL aborts and
 * SIGTERMs follow it), then to the earlier end. */
static bool fails_before(const struct ledger_row *a, const struct ledger_row *b)
{
    double ea = row_end(a), eb = row_end(b);
    if (fabs(ea - eb) < 1.0) {
        int oa = ledger_flag(a, LEDGER_OOM) == 1, ob = ledger_flag(b, LEDGER_OOM) == 1;
        if (oa != ob) return oa;
    }
    return ea < eb;
}

struct rank_ref {
    size_t first; /* the position of the id's first row: groups a run */
    size_t i;     /* the row */
    long rank, restart;
};

static int rank_ref_cmp(const void *a, const void *b)
{
    const struct rank_ref *x = a, *y = b;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->restart != y->restart) return x->restart < y->restart ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static bool failed(const struct ledger_row *r)
{
    const char *e = r->cell[LEDGER_EXIT_STATUS];
    return *e && strcmp(e, "0") && !ledger_is_running(r);
}

const struct ledger_row *ledger_job_page_rank(const struct ledger_row *rows, size_t n, const char *worst,
                                              long *restart, size_t *count)
{
    long latest = 0;
    for (size_t k = 0; k < n; k++)
        if (cell_long(&rows[k], LEDGER_RESTART, 0) > latest) latest = cell_long(&rows[k], LEDGER_RESTART, 0);
    const struct ledger_row *oom = NULL, *top = NULL, *fail = NULL, *any = NULL;
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        const struct ledger_row *r = &rows[k];
        if (cell_long(r, LEDGER_RESTART, 0) != latest) continue; /* an earlier attempt (synth_job_row) */
        m++;
        if (!any) any = r;
        if (ledger_flag(r, LEDGER_OOM) == 1 && (!oom || row_end(r) < row_end(oom))) oom = r;
        if (!top && worst && *worst && !strcmp(r->cell[LEDGER_RANK], worst)) top = r;
        if (failed(r) && (!fail || fails_before(r, fail))) fail = r;
    }
    if (restart) *restart = latest;
    if (count) *count = m;
    return oom ? oom : top ? top : fail ? fail : any;
}

/* The row is the latest restart's; the notes name the earlier restarts
 * (the first 8) and each one's first rank to run out of GPU memory, so the
 * attempts stay apart and the one that OOMed is named. */
static void earlier_restarts(struct ledger_row *const *g, size_t m, long latest, char *notes, size_t size)
{
    char b[96];
    if (latest < 1) return;
    snprintf(b, sizeof b, "this row: restart %ld", latest);
    ledger_notes_add(notes, size, b);
    for (long k = 0; k < latest && k < 8; k++) {
        const struct ledger_row *first = NULL;
        bool seen = false;
        for (size_t i = 0; i < m; i++) {
            if (cell_long(g[i], LEDGER_RESTART, 0) != k) continue;
            seen = true;
            if (ledger_flag(g[i], LEDGER_OOM) == 1 && (!first || row_end(g[i]) < row_end(first))) first = g[i];
        }
        if (!seen) continue;
        if (first) snprintf(b, sizeof b, "restart %ld: GPU OOM, rank %.20s first", k, first->cell[LEDGER_RANK]);
        else snprintf(b, sizeof b, "restart %ld: no GPU OOM", k);
        ledger_notes_add(notes, size, b);
    }
}

/* The job's row from its ranks of the latest restart (g[0..m), by rank). */
static int synth_job_row(struct ledger_row *out, struct ledger_row *const *g, size_t m)
{
    long latest = 0;
    for (size_t k = 0; k < m; k++)
        if (cell_long(g[k], LEDGER_RESTART, 0) > latest) latest = cell_long(g[k], LEDGER_RESTART, 0);
    const struct ledger_row *worst = NULL, *first_fail = NULL, *first_oom = NULL;
    size_t count = 0, n_failed = 0;
    bool running = false, any_oom = false, any_no = false;
    double duration = NAN, worst_gb = NAN;
    for (size_t k = 0; k < m; k++) {
        const struct ledger_row *r = g[k];
        if (cell_long(r, LEDGER_RESTART, 0) != latest) continue;
        count++;
        double gb = ledger_peak_gb(r), d = ledger_num(r, LEDGER_DURATION_S);
        if (!isnan(gb) && (isnan(worst_gb) || gb > worst_gb)) worst_gb = gb, worst = r;
        if (!isnan(d) && (isnan(duration) || d > duration)) duration = d;
        running |= ledger_is_running(r);
        int oom = ledger_flag(r, LEDGER_OOM);
        any_oom |= oom == 1, any_no |= oom == 0;
        if (oom == 1 && (!first_oom || row_end(r) < row_end(first_oom))) first_oom = r;
        if (failed(r)) {
            n_failed++;
            if (!first_fail || fails_before(r, first_fail)) first_fail = r;
        }
    }
    const struct ledger_row *base = worst ? worst : g[0];
    if (ledger_row_init(out) < 0) return -1;
    out->unrecorded = base->unrecorded;
    int rc = 0;
    for (size_t c = 0; c < LEDGER_NCOLS; c++) rc |= ledger_row_set(out, (enum ledger_col)c, base->cell[c]);
    char b[64], notes[1024] = "";
    static const enum ledger_col per_rank[] = {LEDGER_RANK, LEDGER_LOCAL_RANK, LEDGER_NODE_RANK, LEDGER_GPU};
    for (size_t k = 0; k < sizeof per_rank / sizeof per_rank[0]; k++) rc |= ledger_row_set(out, per_rank[k], "");
    snprintf(b, sizeof b, "%zu", count);
    rc |= ledger_row_set(out, LEDGER_RANKS, b);
    rc |= ledger_row_set(out, LEDGER_WORST_RANK, worst ? worst->cell[LEDGER_RANK] : "");
    rc |= ledger_row_set(out, LEDGER_OOM, any_oom ? "yes" : any_no ? "no" : "");
    rc |= ledger_row_set(out, LEDGER_OOM_STAGE, first_oom ? first_oom->cell[LEDGER_OOM_STAGE] : any_no ? "-" : "");
    if (!isnan(duration)) snprintf(b, sizeof b, "%.2f", duration);
    rc |= ledger_row_set(out, LEDGER_DURATION_S, isnan(duration) ? "" : b);
    rc |= ledger_row_set(out, LEDGER_EXIT_STATUS, running      ? LEDGER_RUNNING
                                                  : first_fail ? first_fail->cell[LEDGER_EXIT_STATUS]
                                                               : base->cell[LEDGER_EXIT_STATUS]);
    snprintf(b, sizeof b, "%zu ranks", count);
    ledger_notes_add(notes, sizeof notes, b);
    if (worst) {
        snprintf(b, sizeof b, "worst rank %s", worst->cell[LEDGER_RANK]);
        ledger_notes_add(notes, sizeof notes, b);
    }
    if (first_fail) {
        snprintf(b, sizeof b, "first to fail: rank %s (exit %.8s%s)", first_fail->cell[LEDGER_RANK],
                 first_fail->cell[LEDGER_EXIT_STATUS], ledger_flag(first_fail, LEDGER_OOM) == 1 ? ", GPU OOM" : "");
        ledger_notes_add(notes, sizeof notes, b);
        if (n_failed > 1) {
            snprintf(b, sizeof b, "%zu other rank%s failed after it", n_failed - 1, n_failed == 2 ? "" : "s");
            ledger_notes_add(notes, sizeof notes, b);
        }
    }
    if (running) ledger_notes_add(notes, sizeof notes, "ranks still running");
    earlier_restarts(g, m, latest, notes, sizeof notes);
    rc |= ledger_row_set(out, LEDGER_NOTES, notes);
    return rc ? -1 : 0;
}

static int push_row(struct ledger_row **rows, size_t *n, size_t *cap, struct ledger_row row)
{
    if (*n == *cap) {
        struct ledger_row *p = strbuf_grow(*rows, cap, *n + 1, sizeof *p, SIZE_MAX);
        if (!p) return -1;
        *rows = p;
    }
    (*rows)[(*n)++] = row;
    return 0;
}

/* refs of rank rows, grouped by id (first position), by rank; head[first]
 * = the id's own row + 1 (0 none). */
static struct rank_ref *collect_ranks(const struct ledger *lg, size_t *n_refs, size_t **head)
{
    char **ids = row_keys(lg, 1);
    struct key_index ix;
    struct rank_ref *refs = calloc(lg->n ? lg->n : 1, sizeof *refs);
    *head = calloc(lg->n ? lg->n : 1, sizeof **head);
    *n_refs = 0;
    if (!ids || !refs || !*head || key_index_init(&ix, lg->n, ids) < 0) {
        free_keys(ids, lg->n);
        free(refs);
        free(*head);
        return NULL;
    }
    for (size_t i = 0; i < lg->n; i++) {
        if (!ids[i]) continue;
        size_t *at = key_lookup(&ix, ids[i]);
        if (!*at) *at = i + 1;
        size_t first = *at - 1;
        const struct ledger_row *r = &lg->rows[i];
        if (!*r->cell[LEDGER_RANK]) (*head)[first] = i + 1;
        else refs[(*n_refs)++] = (struct rank_ref){first, i, cell_long(r, LEDGER_RANK, LONG_MAX),
                                                   cell_long(r, LEDGER_RESTART, 0)};
    }
    free(ix.slot);
    free_keys(ids, lg->n);
    qsort(refs, *n_refs, sizeof *refs, rank_ref_cmp);
    return refs;
}

int ledger_fold_ranks(struct ledger *lg, struct oomlab_err *err)
{
    unprepare(lg);
    size_t n_refs, *head;
    struct rank_ref *refs = collect_ranks(lg, &n_refs, &head);
    if (!refs) return oomlab_err_set(err, "out of memory");
    if (n_refs == 0) {
        free(refs);
        free(head);
        return 0;
    }
    struct ledger_row *rows = NULL, *detail = lg->detail, **g = calloc(n_refs, sizeof *g);
    size_t n = 0, cap = 0, nd = lg->n_detail, nd0 = nd, capd = lg->n_detail;
    bool *is_rank = calloc(lg->n, sizeof *is_rank), ok = g && is_rank;
    for (size_t k = 0; ok && k < n_refs; k++) is_rank[refs[k].i] = true;
    for (size_t i = 0, k = 0; ok && i < lg->n; i++) {
        if (!is_rank[i]) {
            ok = push_row(&rows, &n, &cap, lg->rows[i]) == 0;
            continue;
        }
        if (k >= n_refs || refs[k].first > i) continue; /* this run's ranks went with its first row */
        size_t first = refs[k].first, m = 0;
        while (k < n_refs && refs[k].first == first) g[m++] = &lg->rows[refs[k++].i];
        if (!head[first]) {
            struct ledger_row job;
            ok = synth_job_row(&job, g, m) == 0 && push_row(&rows, &n, &cap, job) == 0;
        }
        for (size_t j = 0; ok && j < m; j++) ok = push_row(&detail, &nd, &capd, *g[j]) == 0;
    }
    free(g);
    free(is_rank);
    free(refs);
    free(head);
    if (!ok) { /* rows are shared between the arrays: keep lg as it was */
        free(rows);
        lg->detail = detail;
        lg->n_detail = nd0;
        return oomlab_err_set(err, "out of memory");
    }
    free(lg->rows);
    lg->rows = rows;
    lg->n = lg->cap = n;
    lg->cap = cap;
    lg->detail = detail;
    lg->n_detail = nd;
    return 0;
}

int ledger_keep_latest_unfolded(struct ledger *lg, struct oomlab_err *err)
{
    if (keep_last_per_key(lg, err) < 0) return -1;
    return keep_latest_run(lg, err);
}

int ledger_keep_latest(struct ledger *lg, struct oomlab_err *err)
{
    if (ledger_keep_latest_unfolded(lg, err) < 0) return -1;
    return ledger_fold_ranks(lg, err);
}

size_t ledger_row_ranks(const struct ledger *lg, size_t r, const struct ledger_row **first)
{
    const char *id = lg->rows[r].cell[LEDGER_RUN_ID];
    if (!prepared(lg) || !lg->rank_at) return ledger_rank_rows(lg, id, first);
    size_t i = lg->rank_at[r] < 0 ? lg->n_detail : (size_t)lg->rank_at[r], n = 0;
    while (i + n < lg->n_detail && !strcmp(lg->detail[i + n].cell[LEDGER_RUN_ID], id)) n++;
    *first = n ? &lg->detail[i] : NULL;
    return n;
}

size_t ledger_rank_rows(const struct ledger *lg, const char *id, const struct ledger_row **first)
{
    size_t i = 0, n = 0;
    while (i < lg->n_detail && strcmp(lg->detail[i].cell[LEDGER_RUN_ID], id)) i++;
    while (i + n < lg->n_detail && !strcmp(lg->detail[i + n].cell[LEDGER_RUN_ID], id)) n++;
    *first = n ? &lg->detail[i] : NULL;
    return n;
}

int ledger_take_rows(struct ledger *dst, struct ledger *src, struct oomlab_err *err)
{
    unprepare(dst);
    unprepare(src);
    for (size_t i = 0; i < src->n; i++) {
        if (dst->n == dst->cap) {
            struct ledger_row *p =
                strbuf_grow(dst->rows, &dst->cap, dst->n + src->n - i, sizeof *p, SIZE_MAX);
            if (!p) return oomlab_err_set(err, "out of memory");
            dst->rows = p;
        }
        dst->rows[dst->n++] = src->rows[i];
    }
    free(src->rows);
    src->rows = NULL;
    src->n = src->cap = 0;
    return 0;
}

/* Insertion order for equal keys: a merge sort on (start, position). */
static void sort_rows(struct ledger_row *a, struct ledger_row *tmp, size_t n)
{
    if (n < 2) return;
    size_t h = n / 2;
    sort_rows(a, tmp, h);
    sort_rows(a + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        const char *x = a[i].cell[LEDGER_STARTED_AT], *y = a[j].cell[LEDGER_STARTED_AT];
        tmp[k++] = (*x && *y && strcmp(y, x) < 0) ? a[j++] : a[i++];
    }
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

void ledger_sort_by_start(struct ledger *lg)
{
    unprepare(lg);
    struct ledger_row *tmp = malloc((lg->n ? lg->n : 1) * sizeof *tmp);
    if (!tmp) return; /* file order: still every row */
    sort_rows(lg->rows, tmp, lg->n);
    free(tmp);
}

int ledger_id_check(const char *id, struct oomlab_err *err)
{
    size_t len = strlen(id);
    if (len == 0 || len > LEDGER_ID_MAX) return oomlab_err_set(err, "run id must be 1 to %d bytes", LEDGER_ID_MAX);
    if (strchr(id, '/') || strstr(id, ".."))
        return oomlab_err_set(err, "run id '%s' contains '/' or '..'", id);
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return oomlab_err_set(err, "run id contains a control character (byte 0x%02x)", *p);
    if (id[0] == '-' || id[0] == '.')
        return oomlab_err_set(err, "run id '%s' must not start with '-' or '.'", id);
    size_t bad = ledger_utf8_invalid_at(id, len);
    if (bad < len)
        return oomlab_err_set(err, "run id is not UTF-8 text (byte 0x%02x at offset %zu)", (unsigned char)id[bad],
                              bad);
    return 0;
}

/* The bytes a new id may hold after its first: ASCII letters and digits
 * and these, none of which a POSIX shell treats specially unquoted
 * (POSIX.1-2017 XCU 2.2 Quoting lists the others), nor a file name, a URL
 * path or table's columns; the first is a letter, a digit or '_'. */
static const char id_punct[] = "._-+=,@"; /* the message of ledger_id_check_new lists them */

static bool id_byte_ok(unsigned char c, bool first)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') return true;
    return !first && c && strchr(id_punct, c);
}

int ledger_id_check_new(const char *id, struct oomlab_err *err)
{
    if (ledger_id_check(id, err) < 0) return -1;
    const unsigned char *bad = NULL;
    for (const unsigned char *p = (const unsigned char *)id; *p && !bad; p++)
        if (!id_byte_ok(*p, p == (const unsigned char *)id)) bad = p;
    if (!bad) return 0;
    /* the id to use: each character outside the set (a UTF-8 sequence is
     * one) becomes '_' */
    char fixed[LEDGER_ID_MAX + 1];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)id; *p && n < LEDGER_ID_MAX; p++) {
        if ((*p & 0xc0) == 0x80) continue; /* a continuation byte: its lead was replaced */
        fixed[n] = id_byte_ok(*p, n == 0) ? (char)*p : '_';
        n++;
    }
    fixed[n] = '\0';
    if (*bad == ' ')
        return oomlab_err_set(err,
                              "run id '%s' contains a space: every command that names it would need quotes, and "
                              "oomlab's own hints and shell completion would split it; use '%s'",
                              id, fixed);
    char what[24];
    if (*bad >= 0x80)
        snprintf(what, sizeof what, "byte 0x%02x (not ASCII)", *bad);
    else
        snprintf(what, sizeof what, *bad == '\'' ? "\"%c\"" : "'%c'", *bad);
    return oomlab_err_set(err,
                          "run id '%s' %s %s: a run id is ASCII letters, digits and _ . - + = , @, "
                          "starting with a letter, a digit or '_', so shells, file names and oomlab's hints take "
                          "it as it is; use '%s'",
                          id, bad == (const unsigned char *)id ? "starts with" : "contains", what, fixed);
}

int ledger_stem(char *buf, size_t size, const char *id, long rank, long restart)
{
    if (ledger_id_check(id, NULL) < 0) return -1; /* never a path out of logs/ */
    int n = rank < 0      ? snprintf(buf, size, "%s", id)
            : restart > 0 ? snprintf(buf, size, "%s_rank%ld_restart%ld", id, rank, restart)
                          : snprintf(buf, size, "%s_rank%ld", id, rank);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int ledger_row_stem(char *buf, size_t size, const struct ledger_row *row)
{
    long rank = *row->cell[LEDGER_RANK] ? cell_long(row, LEDGER_RANK, -2) : -1;
    if (rank == -2) return -1;
    return ledger_stem(buf, size, row->cell[LEDGER_RUN_ID], rank, cell_long(row, LEDGER_RESTART, 0));
}

/* ---- environment ---- */

/* An entry ending in '_' is a prefix. */
const char *const ledger_env_names[] = {
    "PYTORCH_CUDA_ALLOC_CONF", "CUDA_VISIBLE_DEVICES", "CUDA_LAUNCH_BLOCKING", "NCCL_", "TORCH_",
    "XLA_PYTHON_CLIENT_", "TF_GPU_ALLOCATOR", "OMP_NUM_THREADS", NULL,
};

static bool env_relevant(const char *entry)
{
    const char *eq = strchr(entry, '=');
    if (!eq || eq == entry) return false;
    size_t len = (size_t)(eq - entry);
    for (size_t i = 0; ledger_env_names[i]; i++) {
        const char *n = ledger_env_names[i];
        size_t nl = strlen(n);
        bool prefix = n[nl - 1] == '_';
        if (prefix ? len > nl && !strncmp(entry, n, nl) : len == nl && !strncmp(entry, n, nl))
            return true;
    }
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* NAME=value, the value single-quoted when it has blanks, quotes or ';'. */
static void env_word(struct strbuf *b, const char *entry)
{
    const char *eq = strchr(entry, '=');
    strbuf_add(b, entry, (size_t)(eq - entry) + 1);
    const char *v = eq + 1;
    if (*v && !strpbrk(v, " \t\n\r'\";\\")) {
        strbuf_add(b, v, strlen(v));
        return;
    }
    strbuf_add(b, "'", 1);
    for (; *v; v++) {
        if (*v == '\'') strbuf_add(b, "'\\''", 4);
        else if ((unsigned char)*v < 0x20) strbuf_add(b, " ", 1); /* a cell stays one line */
        else strbuf_add(b, v, 1);
    }
    strbuf_add(b, "'", 1);
}

char *ledger_env_capture(char *const *envp)
{
    size_t n = 0, k = 0;
    for (size_t i = 0; envp && envp[i]; i++) n += env_relevant(envp[i]);
    const char **pick = malloc((n ? n : 1) * sizeof *pick);
    if (!pick) return NULL;
    for (size_t i = 0; envp && envp[i]; i++)
        if (env_relevant(envp[i])) pick[k++] = envp[i];
    qsort(pick, n, sizeof *pick, cmp_str);
    struct strbuf b = {0};
    strbuf_add(&b, "", 0);
    for (size_t i = 0; i < n; i++) {
        if (i) strbuf_add(&b, " ", 1);
        env_word(&b, pick[i]);
    }
    free(pick);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* The next NAME=value word of an env cell: name and (unquoted) value into
 * b; returns the position after it, NULL at the end. */
static const char *env_next(const char *p, struct strbuf *name, struct strbuf *value)
{
    while (*p == ' ') p++;
    if (!*p) return NULL;
    name->n = value->n = 0;
    strbuf_add(name, "", 0);
    strbuf_add(value, "", 0);
    while (*p && *p != '=' && *p != ' ') strbuf_add(name, p++, 1);
    if (*p == '=') p++;
    bool q = false;
    for (; *p && (q || *p != ' '); p++) {
        if (*p == '\'') q = !q;
        else if (!q && *p == '\\' && p[1]) strbuf_add(value, ++p, 1);
        else strbuf_add(value, p, 1);
    }
    return p;
}

char *ledger_env_get(const char *cell, const char *name)
{
    struct strbuf n = {0}, v = {0};
    char *out = NULL;
    for (const char *p = cell; (p = env_next(p, &n, &v));)
        if (!n.failed && !v.failed && !strcmp(n.s, name)) {
            out = strdup(v.s);
            break;
        }
    free(n.s);
    free(v.s);
    return out;
}

static size_t env_changed_from(const char *a, const char *b, bool only_missing, char *names,
                               size_t size, size_t *at)
{
    struct strbuf n = {0}, v = {0};
    size_t count = 0;
    for (const char *p = a; (p = env_next(p, &n, &v));) {
        if (n.failed || v.failed) break;
        char *other = ledger_env_get(b, n.s);
        bool differs = only_missing ? other == NULL : !other || strcmp(other, v.s);
        free(other);
        if (!differs) continue;
        count++;
        size_t len = strlen(n.s) + 1;
        if (*at + len <= size) memcpy(names + *at, n.s, len), *at += len;
    }
    free(n.s);
    free(v.s);
    return count;
}

size_t ledger_env_changed(const char *a, const char *b, char *names, size_t size)
{
    size_t at = 0;
    size_t count = env_changed_from(a, b, false, names, size, &at);
    return count + env_changed_from(b, a, true, names, size, &at);
}

/* ---- text ---- */

size_t ledger_utf8_invalid_at(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = strbuf_utf8_seq(u + i, len - i, NULL);
        if (!n) return i;
        i += n;
    }
    return len;
}

/* ---- notes ---- */

/* Bytes of s that fit in room without splitting a UTF-8 sequence. */
static size_t utf8_fit(const char *s, size_t room)
{
    size_t n = strlen(s);
    if (n <= room) return n;
    n = room;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    return n;
}

void ledger_notes_add(char *notes, size_t size, const char *tag)
{
    if (!tag || !*tag || size == 0) return;
    size_t n = strnlen(notes, size - 1);
    const char *sep = n ? "; " : "";
    size_t sl = strlen(sep);
    if (n + sl + 1 >= size) return;
    size_t room = size - 1 - n - sl;
    size_t take = utf8_fit(tag, room);
    if (take == 0) return;
    memcpy(notes + n, sep, sl);
    memcpy(notes + n + sl, tag, take);
    notes[n + sl + take] = '\0';
}

bool ledger_first_note(const char *notes, const char *const *prefixes, size_t n, char *buf, size_t size)
{
    if (size) buf[0] = '\0';
    for (const char *p = notes; p && *p;) {
        const char *end = strstr(p, "; ");
        size_t len = end ? (size_t)(end - p) : strlen(p);
        for (size_t i = 0; i < n; i++)
            if (!strncmp(p, prefixes[i], strlen(prefixes[i]))) {
                if (size) snprintf(buf, size, "%.*s", (int)len, p);
                return true;
            }
        p = end ? end + 2 : NULL;
    }
    return false;
}

static const char *const host_oom_notes[] = {LEDGER_NOTE_HOST_OOM_COUNT, LEDGER_NOTE_HOST_OOM_KMSG};

bool ledger_notes_host_oom(const char *notes, char *buf, size_t size)
{
    return ledger_first_note(notes, host_oom_notes, sizeof host_oom_notes / sizeof *host_oom_notes, buf, size);
}

bool ledger_peak_device_only(const struct ledger_row *row)
{
    static const char *const tag[] = {LEDGER_NOTE_DEVICE_ONLY};
    char note[sizeof LEDGER_NOTE_DEVICE_ONLY + 1];
    return isnan(ledger_peak_gb(row)) && ledger_first_note(row->cell[LEDGER_NOTES], tag, 1, note, sizeof note) &&
           !strcmp(note, LEDGER_NOTE_DEVICE_ONLY); /* the tag whole, not a --note that starts with it */
}

bool ledger_host_oom_killed(const struct ledger_row *row)
{
    const char *status = row->cell[LEDGER_EXIT_STATUS];
    if (!*status || !strcmp(status, "0") || !strcmp(status, LEDGER_RUNNING)) return false;
    return ledger_notes_host_oom(row->cell[LEDGER_NOTES], NULL, 0);
}

/* ---- the peak ---- */

static bool below(int64_t v, int64_t floor)
{
    return v >= 0 && floor > 0 && v < floor;
}

void ledger_choose_peak(const struct ledger_peak_in *in, struct ledger_peak_out *out)
{
    int64_t msg_max = in->oom_in_use;
    if (in->oom_reserved > msg_max) msg_max = in->oom_reserved;
    if (in->oom_alloc > msg_max) msg_max = in->oom_alloc;
    bool log_any = in->log_alloc > 0 || in->log_reserved > 0;
    bool log_ok = log_any && !below(in->log_alloc, in->oom_alloc) &&
                  !below(in->log_reserved, in->oom_reserved) &&
                  !below(in->log_reserved >= 0 ? in->log_reserved : in->log_alloc,
                         in->oom_reserved >= 0 ? in->oom_reserved : in->oom_alloc);
    *out = (struct ledger_peak_out){.source = "", .alloc = -1, .reserved = -1};
    if (log_ok) {
        *out = (struct ledger_peak_out){"log", in->log_alloc, in->log_reserved, false};
    } else if (in->nvml > 0 && !below(in->nvml, msg_max)) {
        *out = (struct ledger_peak_out){"nvml", -1, in->nvml, false};
    } else if (msg_max > 0) {
        int64_t reserved = in->oom_reserved >= 0 ? in->oom_reserved : in->oom_in_use;
        *out = (struct ledger_peak_out){"oom", in->oom_alloc, reserved, true};
    } else if (log_any) { /* no message to check against: measured is measured */
        *out = (struct ledger_peak_out){"log", in->log_alloc, in->log_reserved, false};
    }
}
