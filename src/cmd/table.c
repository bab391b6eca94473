/* table: `oomlab table [--dir DIR] [--csv | --json] [--near PCT]` — the
 * ledger aligned for a terminal, peak as % of capacity, and the runs on
 * the edge flagged by the rules in lib/ledger. */
#include "cmd/cmd.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ledger_io.h"
#include "lib/ledger.h"
#include "lib/units.h"
#include "out/json.h"
#include "out/table.h"

static const char usage_text[] =
    "usage: oomlab table [--dir DIR] [--csv | --json] [--near PCT]\n"
    "\n"
    "Show DIR/runs.csv (default: ./runs.csv) aligned, with the peak as % of the\n"
    "card's capacity and the runs \"on the edge\" flagged: no OOM but a peak at or\n"
    "above PCT of capacity (default 90), or a peak no lower than the failing run\n"
    "before it.\n"
    "\n"
    "  --dir DIR   directory holding runs.csv\n"
    "  --csv       the ledger as CSV (canonical columns, plus an edge column)\n"
    "  --json      JSON, schema oomlab.table.v1 (docs/table.md)\n"
    "  --near PCT  the near-capacity threshold (default 90)\n";

enum format { FMT_TEXT, FMT_CSV, FMT_JSON };

/* Terminal columns: a ledger column each, except %cap (computed) and edge. */
static const struct {
    const char *title;
    int col; /* enum ledger_col, or -1 for %cap, -2 for edge */
    bool right;
} shown[] = {
    {"run_id", LEDGER_RUN_ID, false},         {"batch", LEDGER_DEVICE_BATCH_SIZE, true},
    {"seq", LEDGER_MAX_SEQ_LEN, true},        {"dtype", LEDGER_DTYPE, false},
    {"accum", LEDGER_GRAD_ACCUM, true},       {"ckpt", LEDGER_GRAD_CKPT, false},
    {"eff", LEDGER_EFFECTIVE_BATCH, true},    {"alloc_GB", LEDGER_PEAK_ALLOC_GB, true},
    {"reserved_GB", LEDGER_PEAK_RESERVED_GB, true}, {"src", LEDGER_PEAK_SOURCE, false},
    {"%cap", -1, true},                       {"oom", LEDGER_OOM, false},
    {"stage", LEDGER_OOM_STAGE, false},       {"loss", LEDGER_LOSS_TREND, false},
    {"exit", LEDGER_EXIT_STATUS, true},       {"edge", -2, false},
};
#define N_SHOWN (sizeof shown / sizeof shown[0])

static void edge_names(unsigned bits, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t k = 0; k < ledger_n_edge_rules; k++) {
        if (!(bits & (1u << k))) continue;
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%s%s", n ? "," : "", ledger_edge_rules[k].name);
    }
}

static int print_text(const struct ledger *lg, double near)
{
    const char *titles[N_SHOWN];
    for (size_t i = 0; i < N_SHOWN; i++) titles[i] = shown[i].title;
    struct table t;
    if (table_init(&t, N_SHOWN, titles) < 0) return -1;
    for (size_t i = 0; i < N_SHOWN; i++)
        if (shown[i].right) table_align_right(&t, i);
    unsigned any = 0;
    for (size_t r = 0; r < lg->n; r++) {
        const struct ledger_row *row = &lg->rows[r];
        char pct[32], edge[128];
        const char *cells[N_SHOWN];
        double p = ledger_pct_capacity(row);
        snprintf(pct, sizeof pct, "%.1f", p);
        unsigned bits = ledger_edges(lg, r, near);
        any |= bits;
        edge_names(bits, edge, sizeof edge);
        for (size_t i = 0; i < N_SHOWN; i++) {
            const char *v = shown[i].col == -1 ? (isnan(p) ? "" : pct)
                            : shown[i].col == -2 ? edge
                                                 : row->cell[shown[i].col];
            cells[i] = *v ? v : NULL; /* NULL prints "-" */
        }
        if (table_add(&t, cells) < 0) {
            table_release(&t);
            return -1;
        }
    }
    table_print(&t, stdout);
    table_release(&t);
    for (size_t k = 0; k < ledger_n_edge_rules; k++)
        if (any & (1u << k))
            printf("%s: %s (threshold %.0f%%)\n", ledger_edge_rules[k].name, ledger_edge_rules[k].why, near);
    return 0;
}

static int print_csv(const struct ledger *lg, double near)
{
    size_t len;
    char *head = ledger_header(&len);
    if (!head) return -1;
    printf("%.*s,edge\n", (int)(len - 1), head);
    free(head);
    for (size_t r = 0; r < lg->n; r++) {
        char *line = ledger_format_row(&lg->rows[r], &len), edge[128], cell[256];
        if (!line) return -1;
        edge_names(ledger_edges(lg, r, near), edge, sizeof edge);
        ledger_format_cell(edge, cell, sizeof cell);
        printf("%.*s,%s\n", (int)(len - 1), line, cell);
        free(line);
    }
    return 0;
}

static int print_json(const struct ledger *lg, const char *path, double near)
{
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
        json_obj_begin(&j);
        ledger_io_json_row(&j, &lg->rows[r]);
        json_key(&j, "pct_capacity");
        json_double(&j, ledger_pct_capacity(&lg->rows[r]));
        json_key(&j, "line");
        json_int(&j, lg->rows[r].line);
        json_key(&j, "edge");
        json_arr_begin(&j);
        unsigned bits = ledger_edges(lg, r, near);
        for (size_t k = 0; k < ledger_n_edge_rules; k++)
            if (bits & (1u << k)) json_str(&j, ledger_edge_rules[k].name);
        json_arr_end(&j);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    return json_finish(&j);
}

int cmd_table(int argc, char **argv)
{
    static const struct option opts[] = {{"dir", 1, NULL, 'd'}, {"csv", 0, NULL, 'c'},
                                         {"json", 0, NULL, 'j'}, {"near", 1, NULL, 'n'},
                                         {"help", 0, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *dir = ".";
    enum format fmt = FMT_TEXT;
    double near = LEDGER_NEAR_PCT;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': dir = optarg; break;
        case 'c': fmt = FMT_CSV; break;
        case 'j': fmt = FMT_JSON; break;
        case 'n':
            if (units_parse_percent(optarg, &near) < 0)
                return cmd_usage_error("table", "--near '%s': expected a percentage", optarg);
            break;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        default: return cmd_usage_error("table", "'%s': unknown option or missing value", argv[optind - 1]);
        }
    }
    if (optind < argc) return cmd_usage_error("table", "unexpected argument '%s'", argv[optind]);
    struct ledger lg;
    char path[4096];
    struct oomlab_err err = {{0}};
    if (ledger_io_load(dir, &lg, path, sizeof path, &err) < 0) return cmd_fail("table", &err, EXIT_USAGE);
    int rc = fmt == FMT_CSV ? print_csv(&lg, near) : fmt == FMT_JSON ? print_json(&lg, path, near)
                                                                     : print_text(&lg, near);
    ledger_release(&lg);
    if (rc < 0 || fflush(stdout) != 0) {
        oomlab_err_set(&err, "cannot write the output");
        return cmd_fail("table", &err, EXIT_ERROR);
    }
    return EXIT_OK;
}
