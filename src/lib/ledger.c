/* ledger: runs.csv as text. Column names, aliases, dtype names and the
 * "on the edge" rules are tables; the CSV reader is one small state
 * machine that never fails on content (a ledger a person edited must
 * still read). */
#include "lib/ledger.h"
#include "lib/strbuf.h"

#include <ctype.h>
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
    "host",
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

static const struct {
    const char *alias, *canonical;
} dtype_names[] = {
    {"bf16", "bfloat16"}, {"torch.bfloat16", "bfloat16"}, {"fp16", "float16"},
    {"half", "float16"},  {"torch.float16", "float16"},   {"fp32", "float32"},
    {"float", "float32"}, {"torch.float32", "float32"},   {"32", "float32"},
    {"16-mixed", "float16"}, {"bf16-mixed", "bfloat16"},
};

const char *ledger_col_name(enum ledger_col col)
{
    return (unsigned)col < LEDGER_NCOLS ? col_names[col] : "";
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
    for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++)
        if (!strcasecmp(dtype, dtype_names[i].alias)) return dtype_names[i].canonical;
    return dtype;
}

int ledger_row_init(struct ledger_row *row)
{
    memset(row, 0, sizeof *row);
    for (size_t i = 0; i < LEDGER_NCOLS; i++) {
        row->cell[i] = strdup("");
        if (!row->cell[i]) {
            ledger_row_release(row);
            return -1;
        }
    }
    return 0;
}

int ledger_row_set(struct ledger_row *row, enum ledger_col col, const char *value)
{
    if ((unsigned)col >= LEDGER_NCOLS) return -1;
    char *copy = strdup(value ? value : "");
    if (!copy) return -1;
    free(row->cell[col]);
    row->cell[col] = copy;
    return 0;
}

void ledger_row_release(struct ledger_row *row)
{
    for (size_t i = 0; i < LEDGER_NCOLS; i++) free(row->cell[i]);
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
};

struct record {
    struct field *f;
    size_t n, cap;
    long line;
};

static int field_put(struct field *f, char c)
{
    if (f->len + 2 > f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 32;
        char *b = realloc(f->buf, cap);
        if (!b) return -1;
        f->buf = b;
        f->cap = cap;
    }
    f->buf[f->len++] = c;
    f->buf[f->len] = '\0';
    return 0;
}

static int record_new_field(struct record *r)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 24;
        struct field *f = realloc(r->f, cap * sizeof *f);
        if (!f) return -1;
        r->f = f;
        r->cap = cap;
    }
    memset(&r->f[r->n], 0, sizeof r->f[r->n]);
    r->n++;
    return 0;
}

static void record_clear(struct record *r)
{
    for (size_t i = 0; i < r->n; i++) free(r->f[i].buf);
    r->n = 0;
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
};

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
    rd->have_header = true;
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
        size_t cap = lg->cap ? lg->cap * 2 : 16;
        struct ledger_row *rows = realloc(lg->rows, cap * sizeof *rows);
        if (!rows) return -1;
        lg->rows = rows;
        lg->cap = cap;
    }
    struct ledger_row *row = &lg->rows[lg->n];
    if (ledger_row_init(row) < 0) return -1;
    row->line = r->line;
    for (size_t i = 0; i < r->n && i < rd->ncols_mapped; i++) {
        if (rd->map[i] < 0) continue;
        size_t n;
        const char *v = field_value(&r->f[i], &n);
        char *copy = strndup(v, n);
        if (!copy) {
            ledger_row_release(row);
            return -1;
        }
        free(row->cell[rd->map[i]]);
        row->cell[rd->map[i]] = copy;
    }
    lg->n++;
    return 0;
}

static int end_record(struct reader *rd, struct record *r, struct oomlab_err *err)
{
    int rc = 0;
    if (r->n && !record_blank(r)) {
        if (!rd->have_header && is_header(r)) {
            take_header(rd, r);
        } else {
            if (!rd->have_header) { /* headerless: the guide's order */
                for (size_t i = 0; i < LEDGER_MAX_FILE_COLS; i++)
                    rd->map[i] = i < LEDGER_NCOLS ? (int)i : -1;
                rd->ncols_mapped = LEDGER_MAX_FILE_COLS;
                rd->have_header = true;
            }
            rc = take_row(rd, r) < 0 ? oomlab_err_set(err, "%s: out of memory", rd->name) : 0;
        }
    }
    record_clear(r);
    return rc;
}

int ledger_parse(struct ledger *lg, const char *text, size_t len, const char *name,
                 struct oomlab_err *err)
{
    memset(lg, 0, sizeof *lg);
    struct reader rd = {.lg = lg, .name = name ? name : "runs.csv"};
    struct record r = {0};
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) text += 3, len -= 3;
    size_t skip;
    char delim = lg->delimiter = file_delimiter(text, len, &skip);
    long line = skip ? 2 : 1;
    text += skip, len -= skip;
    bool in_quotes = false, at_field_start = true;
    int rc = 0;
    r.line = line;
    for (size_t i = 0; i < len && rc == 0; i++) {
        char c = text[i];
        if (r.n == 0 && record_new_field(&r) < 0) goto nomem;
        struct field *f = &r.f[r.n - 1];
        if (in_quotes) {
            if (c == '"' && i + 1 < len && text[i + 1] == '"') {
                i++;
                if (field_put(f, '"') < 0) goto nomem;
            } else if (c == '"') {
                in_quotes = false;
            } else {
                if (c == '\n') line++;
                if (field_put(f, c) < 0) goto nomem;
            }
            continue;
        }
        if (c == '"' && at_field_start) { /* blanks before an opening quote drop */
            f->len = 0;
            in_quotes = f->quoted = true;
            at_field_start = false;
        } else if (c == delim) {
            if (record_new_field(&r) < 0) goto nomem;
            at_field_start = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < len && text[i + 1] == '\n') {
                if (line == (skip ? 2 : 1)) lg->crlf = true;
                i++;
            }
            line++;
            rc = end_record(&rd, &r, err);
            r.line = line;
            at_field_start = true;
        } else {
            if (c != ' ') at_field_start = false;
            if (field_put(f, c) < 0) goto nomem;
        }
    }
    if (rc == 0) rc = end_record(&rd, &r, err);
    record_clear(&r);
    free(r.f);
    if (rc < 0) ledger_release(lg);
    return rc;
nomem:
    record_clear(&r);
    free(r.f);
    ledger_release(lg);
    return oomlab_err_set(err, "%s: out of memory", rd.name);
}

void ledger_release(struct ledger *lg)
{
    for (size_t i = 0; i < lg->n; i++) ledger_row_release(&lg->rows[i]);
    free(lg->rows);
    memset(lg, 0, sizeof *lg);
}

const char *ledger_tail_repair(const char *text, size_t len)
{
    if (len == 0) return "";
    /* The reader's own quote rule: only a quote at a field's start opens. */
    size_t skip;
    char delim = file_delimiter(text, len, &skip);
    bool q = false, start = true;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (q) {
            if (c == '"' && i + 1 < len && text[i + 1] == '"') i++;
            else if (c == '"') q = false;
        } else if (c == '"' && start) {
            q = true;
            start = false;
        } else if (c == delim || c == '\n' || c == '\r') {
            start = true;
        } else if (c != ' ') {
            start = false;
        }
    }
    if (q) return "\"\n";
    return text[len - 1] == '\n' || text[len - 1] == '\r' ? "" : "\n";
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

double ledger_num(const struct ledger_row *row, enum ledger_col col)
{
    const char *s = (unsigned)col < LEDGER_NCOLS && row->cell[col] ? row->cell[col] : "";
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

int ledger_flag(const struct ledger_row *row, enum ledger_col col)
{
    static const char *const yes[] = {"yes", "true", "1", "y", "on"};
    static const char *const no[] = {"no", "false", "0", "n", "off"};
    const char *s = (unsigned)col < LEDGER_NCOLS && row->cell[col] ? row->cell[col] : "";
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (!strcasecmp(s, yes[i])) return 1;
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (!strcasecmp(s, no[i])) return 0;
    return -1;
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

/* The failing run a fix was meant for: the nearest earlier OOM row. */
static bool peak_not_lower(const struct ledger *lg, size_t i, double near_pct)
{
    (void)near_pct;
    const struct ledger_row *row = &lg->rows[i];
    double peak = ledger_peak_gb(row);
    if (!fits(row) || isnan(peak)) return false;
    for (size_t j = i; j-- > 0;) {
        if (ledger_flag(&lg->rows[j], LEDGER_OOM) != 1) continue;
        double failed = ledger_peak_gb(&lg->rows[j]);
        return !isnan(failed) && peak >= failed;
    }
    return false;
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

/* Open addressing: slot -> index+1 into the kept rows (0 empty). */
struct id_index {
    size_t *slot, cap;
};

static size_t *id_lookup(struct id_index *ix, const struct ledger_row *rows, const char *id)
{
    size_t i = (size_t)id_hash(id) & (ix->cap - 1);
    while (ix->slot[i] && strcmp(rows[ix->slot[i] - 1].cell[LEDGER_RUN_ID], id))
        i = (i + 1) & (ix->cap - 1);
    return &ix->slot[i];
}

int ledger_keep_latest(struct ledger *lg, struct oomlab_err *err)
{
    struct id_index ix = {.cap = 16};
    while (ix.cap < 2 * lg->n) ix.cap *= 2;
    ix.slot = calloc(ix.cap, sizeof *ix.slot);
    bool *dropped = calloc(lg->n ? lg->n : 1, sizeof *dropped);
    if (!ix.slot || !dropped) {
        free(ix.slot);
        free(dropped);
        return oomlab_err_set(err, "out of memory");
    }
    for (size_t i = 0; i < lg->n; i++) {
        if (!lg->rows[i].cell[LEDGER_RUN_ID][0]) continue; /* no id: every such row is its own */
        size_t *at = id_lookup(&ix, lg->rows, lg->rows[i].cell[LEDGER_RUN_ID]);
        if (!*at) {
            *at = i + 1;
            continue;
        }
        size_t j = *at - 1;
        if (ledger_is_running(&lg->rows[j])) { /* the run's final row takes its place */
            struct ledger_row tmp = lg->rows[j];
            lg->rows[j] = lg->rows[i];
            lg->rows[i] = tmp;
            dropped[i] = true;
        } else {
            dropped[j] = true;
            *at = i + 1;
        }
    }
    size_t n = 0;
    for (size_t i = 0; i < lg->n; i++) {
        if (dropped[i]) ledger_row_release(&lg->rows[i]);
        else lg->rows[n++] = lg->rows[i];
    }
    lg->n = n;
    free(ix.slot);
    free(dropped);
    return 0;
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

static size_t utf8_seq(const unsigned char *s, size_t left)
{
    unsigned char c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || n > left) return 0;
    uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

size_t ledger_utf8_invalid_at(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_seq(u + i, len - i);
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
