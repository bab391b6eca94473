/* table: `oomlab table [--dir DIR] [--csv | --json] [--near PCT]` — the
 * ledger aligned for a terminal, peak as % of capacity, and the runs on
 * the edge flagged by the rules in lib/ledger. */
#include "cmd/cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd/ledger_io.h"
#include "lib/ledger.h"
#include "lib/opt.h"
#include "lib/units.h"
#include "render/bars.h"
#include "render/json.h"
#include "render/color.h"
#include "render/spark.h"
#include "render/table.h"

static const char usage_head[] =
    "usage: oomlab table [RUN_ID...] [--dir DIR] [--csv | --json | --plot]\n"
    "                    [--near PCT] [--wide] [--ranks]\n"
    "\n"
    "Show DIR/runs.csv (default: ./runs.csv) aligned, one row per run (the\n"
    "runs named, or all), with the peak as % of the card's capacity and the\n"
    "runs \"on the edge\" flagged: no OOM but a peak at or above PCT of capacity\n"
    "(default " LEDGER_STR(LEDGER_EDGE_PCT) "), or a peak no lower than the failing run before it.\n"
    "\n";
static const char usage_tail[] =
    "A job's ranks (srun oomlab run, or oomlab run -- torchrun) are one row:\n"
    "the worst rank's peak, which rank that was (worst), and how many ranks.\n\n"
    "Exit: 0 shown (or no runs yet: a line says so; --csv and --json stay\n"
    "empty), 2 no ledger, a RUN_ID not in it or usage, 3 cannot write.\n";

enum format { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_PLOT };
enum { COL_PCT = -1, COL_EDGE = -2, COL_PEAK = -3 };

/* Terminal columns: a ledger column each, except the computed ones; title
 * NULL: the column's short title (lib/ledger: batch, seq...). drop:
 * 0 always shown; higher ranks are dropped first when the terminal is narrow.
 * decimals: a figure column, shown as ledger_figure_text prints it whatever
 * the ledger's text ("4.0" and "5.00" alike: 4.00), "-" when not a number;
 * -1 the cell as it is. */
static const struct {
    const char *title;
    int col; /* enum ledger_col, or COL_* */
    bool right;
    int drop;
    int decimals;
} shown[] = {
    {"run_id", LEDGER_RUN_ID, false, 0, -1},      {NULL, LEDGER_DEVICE_BATCH_SIZE, true, 0, -1},
    {NULL, LEDGER_MAX_SEQ_LEN, true, 2, -1},      {"dtype", LEDGER_DTYPE, false, 5, -1},
    {NULL, LEDGER_GRAD_ACCUM, true, 3, -1},       {NULL, LEDGER_GRAD_CKPT, false, 6, -1},
    {"eff", LEDGER_EFFECTIVE_BATCH, true, 7, 0},  {"alloc_GB", LEDGER_PEAK_ALLOC_GB, true, 9, 2},
    {"peak_GB", COL_PEAK, true, 0, -1},           {"src", LEDGER_PEAK_SOURCE, false, 4, -1},
    {"%cap", COL_PCT, true, 0, -1},               {"oom", LEDGER_OOM, false, 0, -1},
    {"stage", LEDGER_OOM_STAGE, false, 1, -1},    {"loss", LEDGER_LOSS_TREND, false, 8, -1},
    {"mem", LEDGER_MEM_TREND, false, 1, -1},      {"exit", LEDGER_EXIT_STATUS, true, 0, -1},
    {"ranks", LEDGER_RANKS, true, 3, -1},         {"worst", LEDGER_WORST_RANK, true, 2, -1},
    {"edge", COL_EDGE, false, 0, -1},
};
/* The rank columns are shown only when some row has ranks. */
static bool rank_col(size_t i)
{
    return shown[i].col == LEDGER_RANKS || shown[i].col == LEDGER_WORST_RANK;
}
#define N_SHOWN (sizeof shown / sizeof shown[0])
static const char *shown_title(size_t i)
{
    return shown[i].title ? shown[i].title : ledger_col_short_title((enum ledger_col)shown[i].col);
}

static void edge_names(unsigned bits, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t k = 0; k < ledger_n_edge_rules; k++) {
        if (!(bits & (1u << k))) continue;
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%s%s", n ? "," : "", ledger_edge_rules[k].name);
    }
}

struct view {
    const struct ledger *lg;
    char *const *ids; /* the runs asked for (NULL: all) */
    size_t n_ids;
    double near;
    size_t width; /* 0: no limit */
    bool color;
    bool ranks;      /* --ranks */
    bool rank_cols;  /* some row shown has ranks */
    const char *dir; /* --dir */
};

static bool wanted(const struct view *v, const struct ledger_row *row)
{
    if (!v->n_ids) return true;
    for (size_t i = 0; i < v->n_ids; i++)
        if (!strcmp(v->ids[i], row->cell[LEDGER_RUN_ID])) return true;
    return false;
}

static bool lower_bound(const struct ledger_row *row)
{
    return ledger_flag(row, LEDGER_PEAK_LOWER_BOUND) == 1;
}

/* The peak that counts, ">=" marking a lower bound; "" unknown, and
 * PEAK_DEVICE_ONLY where it is unknown because NVML saw only device-wide
 * memory (never that device figure: it is not the run's). */
#define PEAK_DEVICE_ONLY "dev-only"
static void peak_cells(const struct ledger_row *row, char *peak, char *pct, size_t size)
{
    double g = ledger_peak_gb(row), p = ledger_pct_capacity(row);
    const char *ge = lower_bound(row) ? ">=" : "";
    char f[32];
    if (isnan(g)) snprintf(peak, size, "%s", ledger_peak_device_only(row) ? PEAK_DEVICE_ONLY : "");
    else snprintf(peak, size, "%s%s", ge, ledger_figure_text(g, 2, f, sizeof f));
    if (isnan(p)) pct[0] = '\0';
    else snprintf(pct, size, "%s%s", ge, ledger_figure_text(p, 1, f, sizeof f));
}

/* The oom column: the row's GPU OOM cell, or "host" where no GPU OOM was
 * found but the kernel's OOM killer killed the run (its notes). */
#define OOM_HOST "host"
static const char *oom_cell(const struct ledger_row *row)
{
    if (ledger_flag(row, LEDGER_OOM) != 1 && ledger_host_oom_killed(row)) return OOM_HOST;
    return row->cell[LEDGER_OOM];
}

static const char *cell_color(const struct view *v, int col, const char *value)
{
    bool bad = (col == LEDGER_OOM && (!strcmp(value, "yes") || !strcmp(value, OOM_HOST))) ||
               (col == LEDGER_EXIT_STATUS && !strcmp(value, LEDGER_IO_NO_FINAL));
    bool warn = (col == COL_EDGE && *value) || (col == COL_PEAK && !strcmp(value, PEAK_DEVICE_ONLY)) || (col == LEDGER_MEM_TREND && !strcmp(value, "growing")) ||
                (col == LEDGER_EXIT_STATUS && !strcmp(value, LEDGER_RUNNING));
    return bad ? color_code(v->color, COLOR_RED) : warn ? color_code(v->color, COLOR_YELLOW) : NULL;
}

/* A figure column's cell (shown[i].decimals >= 0), "" when not a number;
 * eff computed where the cell is empty (ledger_effective_batch). A count
 * with a fraction (a hand-edited 12.5) keeps two decimals, not rounded. */
static const char *figure_cell(const struct ledger_row *row, size_t i, char *buf, size_t size)
{
    int c = shown[i].col, decimals = shown[i].decimals;
    double v = c == LEDGER_EFFECTIVE_BATCH ? ledger_effective_batch(row) : ledger_num(row, (enum ledger_col)c);
    if (isnan(v)) return "";
    if (decimals == 0 && fabs(v) < 1e9 && v != floor(v)) decimals = 2;
    return ledger_figure_text(v, decimals, buf, size);
}

static int add_row(const struct view *v, struct table *t, size_t r, unsigned *any)
{
    const struct ledger_row *row = &v->lg->rows[r];
    char pct[32], peak[32], edge[128], figs[N_SHOWN][32];
    const char *cells[N_SHOWN];
    peak_cells(row, peak, pct, sizeof pct);
    unsigned bits = ledger_edges(v->lg, r, v->near);
    *any |= bits;
    edge_names(bits, edge, sizeof edge);
    size_t k = 0;
    int cols[N_SHOWN];
    for (size_t i = 0; i < N_SHOWN; i++) {
        if (rank_col(i) && !v->rank_cols) continue;
        const char *val = shown[i].col == COL_PCT    ? pct
                          : shown[i].col == COL_PEAK ? peak
                          : shown[i].col == COL_EDGE ? edge
                          : shown[i].col == LEDGER_OOM ? oom_cell(row)
                          : shown[i].decimals >= 0   ? figure_cell(row, i, figs[i], sizeof figs[i])
                                                     : row->cell[shown[i].col];
        cols[k] = shown[i].col;
        cells[k++] = *val ? val : NULL; /* NULL prints "-" */
    }
    if (table_add(t, cells) < 0) return -1;
    for (size_t i = 0; i < k; i++)
        if (cells[i] && v->color) table_color(t, i, cell_color(v, cols[i], cells[i]), color_code(true, COLOR_RESET));
    return 0;
}

/* --ranks: "  rank N" rows under the job's, their own peak and exit. */
static int add_rank_rows(const struct view *v, struct table *t, size_t job)
{
    const struct ledger_row *r;
    size_t n = ledger_row_ranks(v->lg, job, &r);
    for (size_t j = 0; j < n; j++) {
        char name[96], peak[32], pct[32], figs[N_SHOWN][32];
        const char *cells[N_SHOWN];
        snprintf(name, sizeof name, "  rank %.20s%s%.20s", r[j].cell[LEDGER_RANK],
                 ledger_num(&r[j], LEDGER_RESTART) > 0 ? " restart " : "",
                 ledger_num(&r[j], LEDGER_RESTART) > 0 ? r[j].cell[LEDGER_RESTART] : "");
        peak_cells(&r[j], peak, pct, sizeof peak);
        size_t k = 0;
        for (size_t i = 0; i < N_SHOWN; i++) {
            if (rank_col(i) && !v->rank_cols) continue;
            int c = shown[i].col;
            const char *val = c == LEDGER_RUN_ID ? name : c == COL_PEAK ? peak : c == COL_PCT ? pct
                              : c == COL_EDGE || rank_col(i) ? ""
                              : shown[i].decimals >= 0 ? figure_cell(&r[j], i, figs[i], sizeof figs[i])
                                                       : r[j].cell[c];
            cells[k++] = *val ? val : NULL;
        }
        if (table_add(t, cells) < 0) return -1;
    }
    return 0;
}

/* One line of text folded at blanks to width (0: not folded), continuation
 * lines indented two spaces. */
static void print_wrapped(const char *text, size_t width)
{
    size_t len = strlen(text), at = 0, indent = 0;
    while (width > 20 && len - at + indent > width) {
        size_t cut = at + width - indent;
        while (cut > at && text[cut] != ' ') cut--;
        if (cut == at) break;
        printf("%*s%.*s\n", (int)indent, "", (int)(cut - at), text + at);
        at = cut + 1;
        indent = 2;
    }
    printf("%*s%s\n", (int)indent, "", text + at);
}

/* What the short names mean, and the evidence for each growing memory. */
/* A legend line folded at blanks to width (0, or under 20: 80), the
 * continuation lines not indented (the legend's own style). */
static void fold(const char *text, size_t width)
{
    size_t len = strlen(text), at = 0;
    if (width < 20) width = 80;
    while (len - at > width) {
        size_t cut = at + width;
        while (cut > at && text[cut] != ' ') cut--;
        if (cut == at) break;
        printf("%.*s\n", (int)(cut - at), text + at);
        at = cut + 1;
    }
    printf("%s\n", text + at);
}

/* The short column names explained, for the columns printed (titled[k] for
 * the k-th printed title; a hidden column is not explained), folded to width. */
static void legend_names(const struct view *v, const char *const *titles, const bool *printed, size_t n)
{
    static const struct {
        const char *title, *means;
    } names[] = {
        {"peak_GB", "reserved (or NVML) peak, else allocated"},
        {"src", "log step lines, nvml samples or the oom message"},
        {"eff", "effective batch"},
        {"mem", "per-step memory"},
    };
    char line[512];
    size_t used = 0;
    line[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        for (size_t k = 0; k < n; k++) {
            if (!printed[k] || strcmp(titles[k], names[i].title)) continue;
            int w = snprintf(line + used, sizeof line - used, "%s%s: %s", used ? "; " : "", names[i].title,
                             names[i].means);
            if (w > 0 && (size_t)w < sizeof line - used) used += (size_t)w;
        }
    if (used) fold(line, v->width);
}

static void legend(const struct view *v, unsigned any, size_t dropped, bool lower, bool no_final, bool host,
                   bool device_only)
{
    char text[256];
    if (lower) fold(">=: a lower bound: the OOM message's figures (the run wanted more)", v->width);
    if (device_only)
        fold(PEAK_DEVICE_ONLY ": the run's own peak is unknown: NVML saw only the GPU's device-wide memory "
             "(every process's), not the run's (notes: " LEDGER_NOTE_DEVICE_ONLY "; device_peak_GB in --csv "
             "and --json); --torch or step lines give one", v->width);
    if (host)
        fold("oom host: no GPU OOM, but the kernel's OOM killer killed the run or one of its processes: host "
             "memory (RAM) ran out (oomlab diagnose RUN_ID)", v->width);
    if (no_final) {
        snprintf(text, sizeof text, "%s: %s", LEDGER_IO_NO_FINAL, LEDGER_IO_NO_FINAL_WHY);
        fold(text, v->width);
    }
    if (v->rank_cols) {
        snprintf(text, sizeof text, "ranks: the job's ranks; worst: the rank with the highest peak (its peak is "
                 "the job's)%s", v->ranks ? "" : "; --ranks lists them");
        fold(text, v->width);
    }
    if (dropped) {
        snprintf(text, sizeof text, "(%zu columns hidden to fit %zu columns; --wide shows all)", dropped, v->width);
        fold(text, v->width);
    }
    for (size_t k = 0; k < ledger_n_edge_rules; k++) {
        if (!(any & (1u << k))) continue;
        char line[512], th[32] = "";
        if (!strcmp(ledger_edge_rules[k].name, "near-capacity")) snprintf(th, sizeof th, " (%.0f%%)", v->near);
        snprintf(line, sizeof line, "%s: %s%s", ledger_edge_rules[k].name, ledger_edge_rules[k].why, th);
        print_wrapped(line, v->width);
    }
    for (size_t r = 0; r < v->lg->n; r++) {
        const struct ledger_row *row = &v->lg->rows[r];
        if (!wanted(v, row) || strcmp(row->cell[LEDGER_MEM_TREND], "growing")) continue;
        char line[512];
        const char *rate = row->cell[LEDGER_MEM_GB_PER_100_STEPS];
        snprintf(line, sizeof line, "%s: memory growing: %s -> %s GB over steps %s (%s%s GB per 100 steps)",
                 row->cell[LEDGER_RUN_ID], row->cell[LEDGER_MEM_FIRST_GB], row->cell[LEDGER_MEM_LAST_GB],
                 *row->cell[LEDGER_MEM_STEPS] ? row->cell[LEDGER_MEM_STEPS] : "?",
                 *rate && *rate != '-' ? "+" : "", *rate ? rate : "?");
        char *clean = table_clean(line);
        print_wrapped(clean ? clean : "", v->width);
        free(clean);
    }
}

static int print_text(const struct view *v)
{
    const char *titles[N_SHOWN];
    size_t n = 0;
    struct table t;
    for (size_t i = 0; i < N_SHOWN; i++)
        if (!rank_col(i) || v->rank_cols) titles[n++] = shown_title(i);
    if (table_init(&t, n, titles) < 0) return -1;
    for (size_t i = 0, k = 0; i < N_SHOWN; i++) {
        if (rank_col(i) && !v->rank_cols) continue;
        if (shown[i].right) table_align_right(&t, k);
        table_drop_rank(&t, k++, shown[i].drop);
    }
    unsigned any = 0;
    bool lower = false, no_final = false, host = false, device_only = false;
    for (size_t r = 0; r < v->lg->n; r++) {
        if (!wanted(v, &v->lg->rows[r])) continue;
        lower |= lower_bound(&v->lg->rows[r]);
        device_only |= ledger_peak_device_only(&v->lg->rows[r]);
        host |= !strcmp(oom_cell(&v->lg->rows[r]), OOM_HOST);
        no_final |= !strcmp(v->lg->rows[r].cell[LEDGER_EXIT_STATUS], LEDGER_IO_NO_FINAL);
        if (add_row(v, &t, r, &any) < 0 || (v->ranks && add_rank_rows(v, &t, r) < 0)) {
            table_release(&t);
            return -1;
        }
    }
    bool printed[N_SHOWN] = {false};
    size_t dropped = table_print_fit_shown(&t, stdout, v->width, printed);
    table_release(&t);
    legend_names(v, titles, printed, n);
    legend(v, any, dropped, lower, no_final, host, device_only);
    return 0;
}

static int print_csv(const struct view *v)
{
    const struct ledger *lg = v->lg;
    double near = v->near;
    size_t len;
    char *head = ledger_header(&len);
    if (!head) return -1;
    printf("%.*s,edge\n", (int)(len - 1), head);
    free(head);
    for (size_t r = 0; r < lg->n; r++) {
        if (!wanted(v, &lg->rows[r])) continue;
        char *line = ledger_format_row(&lg->rows[r], &len), edge[128], cell[256];
        if (!line) return -1;
        edge_names(ledger_edges(lg, r, near), edge, sizeof edge);
        ledger_format_cell(edge, cell, sizeof cell);
        printf("%.*s,%s\n", (int)(len - 1), line, cell);
        free(line);
        const struct ledger_row *rr;
        size_t nr = v->ranks ? ledger_row_ranks(lg, r, &rr) : 0;
        for (size_t j = 0; j < nr; j++) {
            if (!(line = ledger_format_row(&rr[j], &len))) return -1;
            printf("%.*s,\n", (int)(len - 1), line);
            free(line);
        }
    }
    return 0;
}

static int print_json(const struct view *v, const char *path)
{
    const struct ledger *lg = v->lg;
    double near = v->near;
    struct json j;
    json_init(&j, stdout, false);
    json_obj_begin(&j);
    json_key(&j, "schema");
    json_str(&j, "oomlab.table.v1");
    json_key(&j, "ledger");
    json_str(&j, path);
    json_key(&j, "near_pct");
    json_double(&j, near);
    json_key(&j, "runs");
    json_arr_begin(&j);
    for (size_t r = 0; r < lg->n; r++) {
        if (!wanted(v, &lg->rows[r])) continue;
        json_obj_begin(&j);
        ledger_io_json_row(&j, &lg->rows[r]);
        json_key(&j, "state");
        json_str(&j, ledger_io_state(&lg->rows[r]));
        json_key(&j, "pct_capacity");
        json_double(&j, ledger_pct_capacity(&lg->rows[r]));
        json_key(&j, "host_oom_killed");
        json_bool(&j, ledger_host_oom_killed(&lg->rows[r]));
        json_key(&j, "line");
        json_int(&j, lg->rows[r].line);
        json_key(&j, "edge");
        json_arr_begin(&j);
        unsigned bits = ledger_edges(lg, r, near);
        for (size_t k = 0; k < ledger_n_edge_rules; k++)
            if (bits & (1u << k)) json_str(&j, ledger_edge_rules[k].name);
        json_arr_end(&j);
        const struct ledger_row *rr;
        size_t nr = ledger_row_ranks(lg, r, &rr);
        if (nr) {
            json_key(&j, "rank_rows");
            json_arr_begin(&j);
            for (size_t k = 0; k < nr; k++) {
                json_obj_begin(&j);
                ledger_io_json_row(&j, &rr[k]);
                json_key(&j, "state");
                json_str(&j, ledger_io_state(&rr[k]));
                json_obj_end(&j);
            }
            json_arr_end(&j);
        }
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    return json_finish(&j);
}

/* Where the terminal is narrow the table fits it: stdout's width on a
 * TTY, else $COLUMNS when set, else no limit (a pipe gets every column). */
static size_t out_width(void)
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    long long cols;
    const char *env = getenv("COLUMNS");
    if (env && units_parse_int(env, 20, 10000, &cols) == 0) return (size_t)cols;
    return 0;
}

static int missing_ids(const struct view *v, const char *path)
{
    for (size_t i = 0; i < v->n_ids; i++)
        if (!ledger_find(v->lg, v->ids[i])) {
            struct oomlab_err err = {{0}};
            oomlab_err_set(&err, "run '%s' is not in %s", v->ids[i], path);
            ledger_io_where_is(v->dir, v->ids[i], path, &err);
            return cmd_fail("table", &err, EXIT_USAGE);
        }
    return 0;
}

struct table_cli {
    const char *dir;
    bool csv, json, plot, wide, ranks;
    double near;
};

/* --near PCT: a percentage (lib/units), "90" or "90%". */
static int near_pct(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    (void)size;
    if (units_parse_percent(val ? val : "", (double *)dst) < 0)
        return oomlab_err_set(err, "--%s '%s': expected a percentage from 0 to 100, such as 90 or 85%%", o->name, val ? val : "");
    return 0;
}

#define AT(f) OPT_FIELD(struct table_cli, f)
static const struct opt_spec specs[] = {
    OPT_DIR_SPEC("directory holding runs.csv", AT(dir)),
    {.name = "csv", .help = "the ledger as CSV (canonical columns, plus an edge column)", AT(csv)},
    {.name = "json", .help = "JSON, schema oomlab.table.v1 (docs/table.md)", AT(json)},
    {.name = "plot", .help = "each run's peak as a bar, its card's capacity marked", AT(plot)},
    {.name = "near", .metavar = "PCT", .help = "the near-capacity threshold (default " LEDGER_STR(LEDGER_EDGE_PCT) ")", .parse = near_pct,
     AT(near)},
    {.name = "wide", .help = "every column, whatever the terminal's width", AT(wide)},
    {.name = "ranks", .help = "under a job's row, one row per rank (its peak, exit, host, GPU);\n"
                              "with --csv the rank rows, with --json always (\"ranks\")", AT(ranks)},
    {0},
};
#undef AT
static const struct opt_table opt_table = {.command = "table", .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs};
CMD_OPTIONS(cmd_table_options, opt_table)

int cmd_table(int argc, char **argv)
{
    struct table_cli cli = {.dir = ".", .near = LEDGER_EDGE_PCT};
    int first_arg, rc = cmd_options(&opt_table, argc, argv, &cli, &first_arg);
    if (rc != CMD_CONTINUE) return rc;
    if (cli.csv + cli.json + cli.plot > 1) return cmd_usage_error("table", "--csv, --json and --plot: one at a time");
    const char *dir = cli.dir;
    enum format fmt = cli.csv ? FMT_CSV : cli.json ? FMT_JSON : cli.plot ? FMT_PLOT : FMT_TEXT;
    struct view v = {.near = cli.near, .width = cli.wide ? 0 : out_width(), .color = color_enabled(stdout),
                     .ranks = cli.ranks};
    v.ids = argv + first_arg;
    v.n_ids = (size_t)(argc - first_arg);
    struct ledger lg;
    char path[4096];
    struct oomlab_err err = {{0}};
    v.dir = dir;
    if (ledger_io_load("table", dir, &lg, path, sizeof path, &err) < 0) {
        ledger_io_where_is(dir, v.n_ids ? v.ids[0] : NULL, path, &err);
        return cmd_fail("table", &err, EXIT_USAGE);
    }
    ledger_prepare_reads(&lg); /* every row's edge and ranks in one pass (else scanned per row) */
    v.lg = &lg;
    for (size_t r = 0; r < lg.n; r++) v.rank_cols |= wanted(&v, &lg.rows[r]) && *lg.rows[r].cell[LEDGER_RANKS];
    rc = missing_ids(&v, path);
    if (rc) {
        ledger_release(&lg);
        return rc;
    }
    if (lg.n == 0 && (fmt == FMT_TEXT || fmt == FMT_PLOT)) { /* a header alone: say so, not a bare header */
        printf("no runs in %s yet: record one with 'oomlab run -- COMMAND' (oomlab run --help)\n", path);
        ledger_release(&lg);
        return EXIT_OK;
    }
    rc = fmt == FMT_CSV    ? print_csv(&v)
       : fmt == FMT_JSON ? print_json(&v, path)
       : fmt == FMT_PLOT ? bars_ledger(stdout, &lg, v.ids, v.n_ids, out_width(), spark_utf8_locale())
                         : print_text(&v);
    ledger_release(&lg);
    if (rc < 0 && !ferror(stdout)) { /* a failed stdout is main's to say (or a closed pipe's to end) */
        oomlab_err_set(&err, "out of memory");
        return cmd_fail("table", &err, EXIT_ERROR);
    }
    return EXIT_OK;
}
