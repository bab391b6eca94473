/* ledger: the runs.csv ledger — the guide's eleven columns exactly and in
 * order, then oomlab's extras — as CSV text: formatting one row (RFC 4180
 * quoting, spreadsheet formula cells neutralised), parsing a whole ledger
 * tolerantly (hand-edited in a spreadsheet: BOM, CRLF, ';' or tab
 * delimiters, quoted fields, columns found by header name, rows cut short),
 * and the rules that flag a run "on the edge". Pure: strings in, strings
 * out. Cells are strings ("" when empty, never NULL) owned by their row and
 * read-only to callers: change one with ledger_row_set; ledger_release /
 * ledger_row_release free them. */
#ifndef OOMLAB_LEDGER_H
#define OOMLAB_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
    LEDGER_PEAK_RESERVED_GB, /* with peak_source=nvml: the NVML peak of the child's tree
                                (never the device-wide figure) */
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
    /* added later (older ledgers lack them; readers leave them empty) */
    LEDGER_PEAK_LOWER_BOUND, /* yes: the peak is the OOM message's figure, a lower bound */
    LEDGER_MEM_TREND,        /* steps_trend_name(.., true): growing / flat / none-shown */
    LEDGER_MEM_FIRST_GB,     /* the followed figure at the first / last step line */
    LEDGER_MEM_LAST_GB,
    LEDGER_MEM_STEPS,        /* "10-157": the steps of those lines ("" unknown) */
    LEDGER_MEM_GB_PER_100_STEPS,
    LEDGER_ENV,       /* memory-relevant environment: NAME=value words (ledger_env_capture) */
    LEDGER_OOMLAB_PID, /* the recording oomlab's pid and host: a `running` row whose */
    LEDGER_HOST,       /* oomlab is gone was left by an oomlab that was killed */
    /* ranks of a distributed job (lib/launcher; docs/clusters.md) */
    LEDGER_JOB_ID,           /* "slurm:123", "torchelastic:abc"; "" none */
    LEDGER_RANK,             /* a rank's own row; "" for a whole run or job */
    LEDGER_LOCAL_RANK,
    LEDGER_NODE_RANK,
    LEDGER_WORLD_SIZE,
    LEDGER_RESTART,          /* torchelastic restart / SLURM requeue count */
    LEDGER_GPU,              /* the GPU index sampled ("" all or unknown) */
    LEDGER_RANKS,            /* how many ranks the row covers ("" unknown / one process) */
    LEDGER_WORST_RANK,       /* the rank with the highest peak ("" unknown) */
    /* NVML's device-wide figures: every process on the GPU, not only the
     * run's; beside the peak, never in it (docs/table.md) */
    LEDGER_DEVICE_PEAK_GB,       /* the highest device-wide used sampled */
    LEDGER_DEVICE_USED_START_GB, /* device-wide used at the first sample */
    LEDGER_NCOLS
};
#define LEDGER_GUIDE_NCOLS 11

struct ledger_row {
    char *cell[LEDGER_NCOLS];
    long line; /* 1-based line where the record starts; 0 for a new row */
    /* A parsed row's cells live in one allocation (block) and empty cells
     * share one static "": a 300k-row ledger is 300k allocations, not 11M.
     * Bit c of own: cell[c] is its own allocation (ledger_row_set). Rows
     * move by value; only ledger_row_release frees. */
    char *block;
    uint64_t own;
    /* Bit c: the header of the file the row was read from has no column c
     * (a ledger written by an older oomlab, before `env` and the rest), or
     * the row ends before it (written before the column was added to the
     * header): its empty cell is "not recorded", not "unset"
     * (ledger_recorded). */
    uint64_t unrecorded;
};

#define LEDGER_MAX_FILE_COLS 256

struct ledger {
    struct ledger_row *rows;
    size_t n, cap;
    /* The ranks' own rows, folded by ledger_keep_latest into their job's
     * row in rows[]: contiguous per run id, by rank (ledger_rank_rows). */
    struct ledger_row *detail;
    size_t n_detail;
    char delimiter; /* as found in the file */
    bool crlf;      /* the first record ended in CRLF */
    /* The file's layout: file column i holds ledger column columns[i]
     * (-1: a column oomlab does not know). n_columns 0: no header. */
    int columns[LEDGER_MAX_FILE_COLS];
    size_t n_columns;
    /* ledger_prepare_reads: per row the nearest earlier OOM row and the
     * first of its rank rows in detail (-1 none); valid while rows, n and
     * n_detail are what they were then (rank_at NULL: detail was not in
     * rows' order, scanned instead). */
    long *prev_oom, *rank_at;
    const struct ledger_row *prepared_rows;
    size_t prepared_n, prepared_n_detail;
};

const char *ledger_col_name(enum ledger_col col);
/* Column for a header name (case-insensitive, blanks trimmed; the guide's
 * prose names grad_accum_steps/gradient_checkpointing accepted); -1 unknown. */
int ledger_col_lookup(const char *name, size_t len);
/* `oomlab table`'s short titles for the config columns (batch, seq, accum,
 * ckpt), the one list: the table's headers, and the keys runcfg_render
 * suggests when a reader types a title as a --set key (--set batch=16). */
struct ledger_short_title {
    const char *title;
    enum ledger_col col;
    const char *key; /* the config key the title stands for */
};
extern const struct ledger_short_title ledger_short_titles[];
extern const size_t ledger_n_short_titles;
/* The short title of col, NULL where it has none (the table shows its name). */
const char *ledger_col_short_title(enum ledger_col col);

/* Row lifecycle: init sets every cell to "" (-1 on no memory). */
int ledger_row_init(struct ledger_row *row);
/* Copy value (NULL -> "") into the cell; -1 on no memory. */
int ledger_row_set(struct ledger_row *row, enum ledger_col col, const char *value);
void ledger_row_release(struct ledger_row *row);
/* Did the row's file have column col (row->unrecorded)? New rows: true. */
bool ledger_recorded(const struct ledger_row *row, enum ledger_col col);

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
/* The same, for a file read in pieces (a writer need not hold it whole):
 * init with its first bytes (for the delimiter), feed every byte in order,
 * then ledger_tail_end says what to write first. The scan also notes the
 * first NUL byte: ledger_tail_check refuses the file as ledger_parse does
 * ("binary data ... cut the file before this line: truncate -s N FILE",
 * FILE:LINE:COL), so
 * nothing is appended after a crash's block of zeros. */
struct ledger_tail {
    char delim, last;
    bool q, start, closed;
    unsigned long long bytes;
    long line, col, nul_line, nul_col;
    unsigned long long nul_line_at; /* byte offset where the NUL's line starts */
};
void ledger_tail_init(struct ledger_tail *t, const char *head, size_t len);
void ledger_tail_feed(struct ledger_tail *t, const char *text, size_t len);
const char *ledger_tail_end(const struct ledger_tail *t);
int ledger_tail_check(const struct ledger_tail *t, const char *name, struct oomlab_err *err);
/* How much of text the layout needs (ledger_format_row_like: the header,
 * and the first row, which says whether a headerless file is a ledger):
 * the first two records, never past a NUL byte. */
size_t ledger_layout_len(const char *text, size_t len);

/* Parse a whole ledger. Empty text is an empty ledger. A first record
 * naming run_id is the header (columns by name, unknown ones ignored,
 * missing ones empty); otherwise the guide's order is assumed. Blank lines
 * are skipped, short rows padded, an unterminated quote ends at EOF.
 * -1 with err ("FILE:LINE:1: not an oomlab ledger ...") for a file that is
 * none: a NUL byte, or no header and a first record that is not the
 * guide's columns (one cell, over LEDGER_NCOLS + 8, or a batch, sequence
 * or oom cell that is neither empty nor a number / flag); and when out of
 * memory. Anything else a person or a spreadsheet did to a ledger reads. */
int ledger_parse(struct ledger *lg, const char *text, size_t len, const char *name,
                 struct oomlab_err *err);
void ledger_release(struct ledger *lg);

/* The same reader fed in pieces, for a ledger too big to hold (run's id
 * check): each row is handed to fn as it is made and released after it
 * returns (fn copies what it keeps; its -1 with err stops the read).
 * Pieces may cut anywhere (the first record is held until it is whole: the
 * delimiter, BOM and sep= line come from it), and line numbers in errors
 * are the file's.
 * fn NULL keeps the rows (ledger_parse is new + feed + end). -1 with err as
 * ledger_parse says; a NUL byte stops the read where it is. The caller
 * frees the stream with ledger_stream_free. */
typedef int (*ledger_row_fn)(const struct ledger_row *row, void *ctx, struct oomlab_err *err);
struct ledger_stream;
struct ledger_stream *ledger_stream_new(const char *name, ledger_row_fn fn, void *ctx);
int ledger_stream_feed(struct ledger_stream *s, const char *text, size_t len, struct oomlab_err *err);
int ledger_stream_end(struct ledger_stream *s, struct oomlab_err *err);
/* Make only these columns' cells (the others are read past and left empty,
 * and a row with none of them is blank): a reader that wants the ids reads
 * a 62 MiB ledger without storing every cell. Before the first feed. */
void ledger_stream_keep(struct ledger_stream *s, const enum ledger_col *cols, size_t n);
/* The file's layout as read so far (delimiter, columns); rows stay empty with fn. */
const struct ledger *ledger_stream_layout(const struct ledger_stream *s);
void ledger_stream_free(struct ledger_stream *s);

/* Keep one row per run id (rows without an id are all kept), the last one written: the final row of a run
 * takes the place of its `running` placeholder (so runs stay in the order
 * they started); a newer run of the same id (--force) drops the older row.
 * Then ledger_fold_ranks. 0, or -1 with err when out of memory. */
int ledger_keep_latest(struct ledger *lg, struct oomlab_err *err);

/* The rank rows (rank cell set) of one run — one job: the same id and job
 * id, or, without a job id, the same start, host and oomlab pid — keep
 * the last row per rank and restart, move to lg->detail, and the run gets
 * one row in rows[]: the one its wrapping oomlab wrote (rank empty), else
 * one made from the ranks of the latest restart: the worst rank's row
 * (highest peak; its peak, capacity, source, GPU, host) with ranks and
 * worst_rank set; oom yes when any rank's is; exit_status and oom_stage
 * of the first rank to fail (earliest started_at + duration, then lowest
 * rank); `running` while any rank is; the longest duration; notes saying
 * which rank failed first and how many others failed. Rows of an older
 * run of the same id (another job) are dropped. Called by
 * ledger_keep_latest; callers that mark rows (killed) in between call it
 * themselves with the rows unfolded: see ledger_keep_latest_unfolded. */
int ledger_fold_ranks(struct ledger *lg, struct oomlab_err *err);
int ledger_keep_latest_unfolded(struct ledger *lg, struct oomlab_err *err);

/* Append every row of src to dst (src is left empty); -1 when out of memory. */
int ledger_take_rows(struct ledger *dst, struct ledger *src, struct oomlab_err *err);
/* Stable order by started_at (rows without one keep their place relative
 * to their neighbours from the same file): shards merged on read. */
void ledger_sort_by_start(struct ledger *lg);

/* The rank rows of run id (count; *first the first of them), by rank. */
size_t ledger_rank_rows(const struct ledger *lg, const char *id, const struct ledger_row **first);
/* Of a job's rank rows (rows[0..n), as ledger_rank_rows gives them), the
 * one whose files show the job (report's page), chosen from the attempt the
 * job's row folds: the latest restart only. The first of its ranks to run
 * out of GPU memory (earliest end: the row's oom_stage is that rank's), else
 * worst (the row's worst_rank, "" none), else the first to fail, else the
 * first. *restart gets that attempt's number and *count its ranks (either
 * may be NULL). NULL when n is 0. */
const struct ledger_row *ledger_job_page_rank(const struct ledger_row *rows, size_t n, const char *worst,
                                              long *restart, size_t *count);

/* A run id becomes file names and a CSV cell: 0 when it is 1 to
 * LEDGER_ID_MAX bytes of UTF-8 without '/', "..", control characters or a
 * leading '-' or '.'; -1 with the reason otherwise. `run --id` checks the
 * user's id with it, and every reader checks a ledger's ids with it before
 * naming a file after one (a hostile runs.csv must not write or read
 * outside the run's directories). */
#define LEDGER_ID_MAX 63
int ledger_id_check(const char *id, struct oomlab_err *err);
/* A new id (run --id, guard --id): ledger_id_check, and only ASCII
 * letters, digits, '_' and . - + = , @ (not first). A space, a quote, '$',
 * '`', ';', '*' or a non-ASCII character works when quoted, but every hint
 * oomlab prints names the id unquoted ("oomlab diagnose a b" is two
 * arguments), shell completion splits it and table's columns misalign on
 * wide or invisible characters; the message offers the id with '_' for each
 * character outside the set. Readers keep taking such ids from ledgers
 * written before. */
int ledger_id_check_new(const char *id, struct oomlab_err *err);

/* The file-name stem of a run's or a rank's files: "ID", "ID_rankN",
 * "ID_rankN_restartK" (K > 0); rank -1: not a rank. -1 when it does not
 * fit size or id fails ledger_id_check. Every file of the run (log, _mem.csv, _steps.csv, _oom/) and
 * every reader of them uses this one name. */
int ledger_stem(char *buf, size_t size, const char *id, long rank, long restart);
/* The stem of a row's files (its id, rank and restart cells). */
int ledger_row_stem(char *buf, size_t size, const struct ledger_row *row);
/* exit_status of the placeholder row `run` appends when it starts. */
#define LEDGER_RUNNING "running"
bool ledger_is_running(const struct ledger_row *row);

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
/* A GB figure or percentage as shown: "%.2f" (decimals digits after the
 * point), or "%.3g" past 1e9, where a hand-edited 1e300 would print 300
 * digits and a fixed-width cell would cut it into a plausible-looking
 * number. Returns buf. */
const char *ledger_figure_text(double v, int decimals, char *buf, size_t size);
/* Peak as % of capacity: the cell, else computed from peak and capacity_GB. */
double ledger_pct_capacity(const struct ledger_row *row);
/* The effective batch: the cell, else device_batch_size x grad_accum (1
 * when grad_accum is empty or below 1, as run computes it:
 * runcfg_effective_batch); NaN when the cell is no number and the batch is
 * none or below 1. */
double ledger_effective_batch(const struct ledger_row *row);
/* Canonical dtype name for comparisons ("bf16" -> "bfloat16": run configs'
 * spellings, runcfg_dtype_name); the input when not recognised. */
const char *ledger_dtype_canonical(const char *dtype);

/* "On the edge" rules — data: a rule loop walks this table. */
struct ledger_edge_rule {
    const char *name; /* "near-capacity", "peak-not-lower" */
    const char *why;  /* one sentence for the user */
    bool (*applies)(const struct ledger *lg, size_t i, double near_pct);
};
extern const struct ledger_edge_rule ledger_edge_rules[];
extern const size_t ledger_n_edge_rules;
/* "On the edge" of the card: a run that fits with its peak at or above this
 * percent of capacity. One line for table (near-capacity, --near's default),
 * report (the chart's edge line) and guard (--headroom's default, 100 less
 * it): the field guide (seeds/001, prevention 1) probes the batch and keeps
 * 15-20% free, so the edge starts where that 15% would be eaten into. */
#define LEDGER_EDGE_PCT 85
/* The same line from the other side: the fraction of the card kept free by
 * default by probe's recommendation (--headroom) and guard (--headroom),
 * whose --help texts say 15%. */
#define LEDGER_HEADROOM ((100 - LEDGER_EDGE_PCT) / 100.0)
_Static_assert(100 - LEDGER_EDGE_PCT == 15, "probe's and guard's --help say the default headroom is 15%");
#define LEDGER_STR_(x) #x
#define LEDGER_STR(x) LEDGER_STR_(x) /* LEDGER_STR(LEDGER_EDGE_PCT): "85", for --help */
/* Bit k set when ledger_edge_rules[k] flags row i. */
unsigned ledger_edges(const struct ledger *lg, size_t i, double near_pct);
/* Before reading every row of a final ledger (ledger_edges, ledger_row_ranks
 * on each): one pass that finds each row's failing run before it and its
 * rank rows. Without it each row scans back or through detail, and a
 * ledger of 20,000 jobs without an OOM took 37 s (`table`), 80,000 rank
 * rows 18 s more (`--json`). 0, or -1 when out of memory (reads then scan). */
int ledger_prepare_reads(struct ledger *lg);
/* The index holds until rows move: ledger_sort_by_start, keep_latest,
 * fold_ranks and take_rows drop it; a caller that edits a row's oom cell
 * after preparing prepares again. */
/* ledger_rank_rows of row r (its id), through ledger_prepare_reads's index. */
size_t ledger_row_ranks(const struct ledger *lg, size_t r, const struct ledger_row **first);

/* The one-variable rule: config columns (batch, seq, dtype, accum, ckpt)
 * whose values differ between a and b, compared as numbers/flags/dtypes
 * ("" vs a value counts as a change). Returns the count, fills out. */
size_t ledger_changed(const struct ledger_row *a, const struct ledger_row *b,
                      enum ledger_col *out, size_t max);

/* Where the commands a and b differ, word by word: the differing words of
 * each with the word before them, the common words around them shown as
 * "...": "... --batch 9 ... -> ... --batch 10 ...". False (out "") when
 * they have the same words. out is always NUL-terminated; a change cut to
 * fit ends in "[...]". strlen(a) + strlen(b) + LEDGER_CHANGE_SLACK bytes
 * always hold it whole. */
#define LEDGER_CHANGE_SLACK 32
bool ledger_command_change(const char *a, const char *b, char *out, size_t size);

/* The environment that changes GPU memory, as the ledger's env cell:
 * "NAME=value" words sorted by name, a value with blanks, quotes or ';'
 * single-quoted as a shell would need it; "" when none is set. Variables:
 * the names and prefixes of ledger_env_names (PYTORCH_CUDA_ALLOC_CONF,
 * CUDA_VISIBLE_DEVICES, CUDA_LAUNCH_BLOCKING, NCCL_*, TORCH_*,
 * XLA_PYTHON_CLIENT_*, TF_GPU_ALLOCATOR, OMP_NUM_THREADS). Malloc'd; NULL
 * on no memory. */
char *ledger_env_capture(char *const *envp);
extern const char *const ledger_env_names[];
/* Value of NAME in an env cell, malloc'd (unquoted); NULL when absent. */
char *ledger_env_get(const char *cell, const char *name);
/* The names set in either cell whose values differ (or that only one
 * sets), in order: written to out (NUL-separated in names, at most size
 * bytes); returns the count. */
size_t ledger_env_changed(const char *a, const char *b, char *names, size_t size);

/* Offset of the first byte that is not part of valid UTF-8 (no overlongs,
 * surrogates or code points above U+10FFFF); len when all of it is. Ids are
 * refused unless valid: Python's csv module reads a ledger as UTF-8. */
size_t ledger_utf8_invalid_at(const char *s, size_t len);

/* Append a "; "-separated tag to notes (size bytes, NUL-terminated),
 * cutting a tag that does not fit on a UTF-8 character boundary. */
void ledger_notes_add(char *notes, size_t size, const char *tag);

/* The notes run writes when the kernel's OOM killer acted during the run
 * (sys/runexec, lib/killcause): the cgroup's count ("... N process(es) of
 * this cgroup"), or the kernel's log where the count was unreadable. */
#define LEDGER_NOTE_HOST_OOM_COUNT "the kernel's OOM killer killed"
#define LEDGER_NOTE_HOST_OOM_KMSG "the kernel's log: its OOM killer killed the command"

/* The notes tag of a run whose NVML saw the GPU but none of the run's own
 * processes (sys/runexec): the run's NVML peak is unknown, device_peak_GB
 * and device_used_start_GB beside it (docs/table.md). */
#define LEDGER_NOTE_DEVICE_ONLY "nvml device-wide only"
/* The notes tag of a rank row (sys/runexec) whose rank has no OOM among
 * the events the scan kept while the log had more: its oom and oom_stage
 * cells are unknown (empty), not "no"; run appends " (N)", the events kept. */
#define LEDGER_NOTE_OOM_UNKNOWN "OOM unknown: the log has more OOM events than oomlab keeps"
/* The row's peak is unknown (no peak column) and its notes say why: NVML
 * saw only device-wide memory. `table` marks its peak cell. */
bool ledger_peak_device_only(const struct ledger_row *row);

/* The first note of a row's notes ("a; b; c") that starts with one of the
 * n prefixes, copied whole into buf ("" none; buf may be NULL with size
 * 0); returns whether there was one. */
bool ledger_first_note(const char *notes, const char *const *prefixes, size_t n, char *buf, size_t size);

/* The first of the host-OOM notes in notes, as ledger_first_note. */
bool ledger_notes_host_oom(const char *notes, char *buf, size_t size);

/* A finished row that failed (exit status neither 0 nor "running") and
 * whose notes say the kernel's OOM killer acted during the run: host RAM
 * ran out, whatever its oom (GPU) cell says. */
bool ledger_host_oom_killed(const struct ledger_row *row);

/* Which measurement a run's peak comes from. Each candidate is bytes, -1
 * unknown. A figure at or below 0, or below the OOM message's matching
 * figure (allocated vs allocated, reserved vs reserved, the process's use
 * vs NVML), never wins: the message's figures are a lower bound of the
 * true peak. Order: the log's step lines, NVML, the OOM message. */
struct ledger_peak_in {
    int64_t log_alloc, log_reserved;         /* max over step lines */
    int64_t nvml;                            /* the NVML peak of the child's tree */
    int64_t oom_alloc, oom_reserved, oom_in_use; /* the OOM message's counters */
};
struct ledger_peak_out {
    const char *source;     /* "log", "nvml", "oom" or "" (nothing known) */
    int64_t alloc, reserved; /* the winner's figures (nvml: reserved = the NVML peak) */
    bool lower_bound;       /* the winner is the OOM message: at least this much */
};
void ledger_choose_peak(const struct ledger_peak_in *in, struct ledger_peak_out *out);

#endif
